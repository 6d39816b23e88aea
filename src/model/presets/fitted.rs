//! Figures fitted to the published runs of the fit sources (`data/calibration.json`) by
//! `validation::fit`; generated, and `tests/validation.rs` fails when it is stale
//! (`UPDATE_ACCURACY=1 cargo test --release --test validation` rewrites it).

/// Each fitted catalog chip's best GEMM efficiency (`Chip::matmul_efficiency`), with the
/// rows and sources it was fitted to.
pub const CHIP_GEMM: &[(&str, f64, u32, &[&str])] = &[
    (
        "a100-80gb",
        0.7199,
        32,
        &["bloom-2022", "korthikanti-2022", "llama-2023", "narayanan-2021", "opt-2022"],
    ),
    ("h100-sxm", 0.6261, 3, &["llama3-herd-2024"]),
    ("tpu-v4", 0.8657, 2, &["maxtext-readme-2023-04"]),
];
