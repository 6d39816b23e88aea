//! Unit helpers so presets and formulas read like datasheets: decimal and binary bytes, FLOP/s,
//! bandwidths, a datasheet's "GB" of memory.

/// 10^12 FLOP/s.
pub const TFLOPS: f64 = 1e12;
/// 10^9 bytes.
pub const GB: f64 = 1e9;
/// 2^30 bytes.
pub const GIB: f64 = 1073741824.0;
/// 2^20 bytes.
pub const MIB: f64 = 1048576.0;
/// One "GB" of a memory datasheet as the device reports it. Memory comes in binary sizes,
/// so a datasheet's "80 GB" is 80 GiB, of which the device reports a little less after its
/// own reservations: 81,559 of 81,920 MiB on an H100 80GB (99.56%; `nvidia-smi`, as PyTorch
/// reports it) and 139.8 of 141 GiB on an H200 (99.15%; measured,
/// `data/h200-measured.md`); their mean.
pub const DATASHEET_GB: f64 = GIB * (0.9956 + 0.9915) / 2.0;
/// 10^12 bytes/s.
pub const TB_PER_S: f64 = 1e12;
/// 10^9 bytes/s.
pub const GB_PER_S: f64 = 1e9;
/// 10^9 bits/s, in bytes/s.
pub const GBIT_PER_S: f64 = 1e9 / 8.0;
/// 10^-6 s.
pub const US: f64 = 1e-6;
