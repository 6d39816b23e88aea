//! Serving's ranges and accuracy from `data/serving.json`'s held-out sources, written by
//! `validation::serving::digest_source`; `tests/it/validation.rs` fails when it is stale
//! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).

/// Measured serving throughput over the estimate, p10 and p90, over held-out sources.
pub const THROUGHPUT_RANGE: (f64, f64) = (0.5790900239114453, 1.421391475459517);

/// The same by distance from the groups measured (`Group::distance`): 0, 1, 2 or more.
pub const RANGES: [(f64, f64); 3] = [(0.5790900239114453, 1.421391475459517), (0.5790900239114453, 1.423245618846052), (0.5790900239114453, 1.423245618846052)];

/// Held-out rows, sources, median absolute error and signed mean error.
pub const HELD_OUT: (usize, usize, f64, f64) = (111, 17, 0.2840655015867004, 0.3799348308122708);

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
    ("Hopper", "sglang", true, false),
    ("Hopper", "sglang", true, true),
    ("Hopper", "trtllm", false, false),
    ("Hopper", "trtllm", true, false),
    ("TPU", "jetstream", false, false),
    ("TPU", "vllm", false, false),
    ("TPU", "vllm", true, false),
];
