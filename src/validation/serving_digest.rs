//! Serving's ranges and accuracy from `data/serving.json`'s held-out sources, written by
//! `validation::serving::digest_source`; `tests/it/validation.rs` fails when it is stale
//! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).

/// Measured serving throughput over the estimate, p10 and p90, over held-out sources.
pub const THROUGHPUT_RANGE: (f64, f64) = (0.59401789213473, 1.4304770103047408);

/// The same by distance from the groups measured (`Group::distance`): 0, 1, 2 or more.
pub const RANGES: [(f64, f64); 3] = [(0.6099335716977244, 1.401490700243352), (0.5672699181915062, 1.4304770103047408), (0.5672699181915062, 1.4304770103047408)];

/// Held-out rows, sources, median absolute error and signed mean error.
pub const HELD_OUT: (usize, usize, f64, f64) = (98, 15, 0.2880768141861687, 0.4510115113968058);

/// Every group a measurement covers: chip family, engine, MoE, disaggregated.
pub const GROUPS: &[(&str, &str, bool, bool)] = &[
    ("Ampere", "lmdeploy", false, false),
    ("Ascend", "any", true, true),
    ("Ascend", "sglang", true, false),
    ("Ascend", "sglang", true, true),
    ("Blackwell", "sglang", true, true),
    ("Blackwell", "trtllm", false, false),
    ("Blackwell", "trtllm", false, true),
    ("Blackwell", "trtllm", true, false),
    ("CDNA", "any", true, true),
    ("CDNA", "sglang", true, false),
    ("CDNA", "vllm", false, false),
    ("CDNA", "vllm", true, false),
    ("Gaudi", "optimum-habana", false, false),
    ("Hopper", "any", true, true),
    ("Hopper", "sglang", true, true),
    ("Hopper", "trtllm", false, false),
    ("Hopper", "trtllm", true, false),
    ("TPU", "jetstream", false, false),
    ("TPU", "vllm", false, false),
    ("TPU", "vllm", true, false),
];
