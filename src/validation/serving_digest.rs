//! Serving's ranges and accuracy from `data/serving.json`'s held-out sources, written by
//! `validation::serving::digest_source`; `tests/it/validation.rs` fails when it is stale
//! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).

/// Measured serving throughput over the estimate, p10 and p90, over held-out sources.
pub const THROUGHPUT_RANGE: (f64, f64) = (0.602654368082086, 1.3892231293576933);

/// The same by distance from the groups measured (`Group::distance`): 0, 1, 2 or more.
pub const RANGES: [(f64, f64); 3] = [(0.5788375470748733, 1.4198058408558445), (0.5788375470748733, 1.4198058408558445), (0.5788375470748733, 1.4198058408558445)];

/// Held-out rows, sources, median absolute error and signed mean error.
pub const HELD_OUT: (usize, usize, f64, f64) = (98, 15, 0.2806390067685653, 0.5302133465580445);

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
