//! Serving's range and accuracy from `data/serving.json`'s held-out sources, written by
//! `validation::serving::digest_source`; `tests/validation.rs` fails when it is stale
//! (`UPDATE_ACCURACY=1 cargo test --release --test validation` rewrites it).

/// Measured serving throughput over the estimate, p10 and p90, over held-out sources.
pub const THROUGHPUT_RANGE: (f64, f64) = (0.5292361060528338, 1.427298418675019);

/// Held-out rows, sources, median absolute error and signed mean error.
pub const HELD_OUT: (usize, usize, f64, f64) = (98, 15, 0.3045988622766808, 0.6239723542860043);
