//! What the page needs of `data/calibration.json`, so it does not carry the file: the
//! chips a published run calibrates, the largest validated cluster, the accuracy headline
//! and each model preset's published plan. Written by `validation::digest_source`;
//! `tests/validation.rs` fails when it is stale (`UPDATE_ACCURACY=1 cargo test --test
//! validation` rewrites it with docs/accuracy.md).

/// Chip presets whose efficiency figures were checked against a published run.
pub const CALIBRATED_CHIPS: &[&str] = &["a100-80gb", "h100-sxm", "v100-sxm2-32gb", "h800", "ascend-910b"];

/// The most chips any published run used.
pub const MAX_VALIDATED_CHIPS: u32 = 16384;

/// Rows within tolerance, rows, and the mean absolute error, over every row.
pub const SUMMARY: (usize, usize, f64) = (53, 62, 0.05841285461975831);

/// Each model preset's published plan: (preset id, run title, scenario JSON).
pub const PUBLISHED_PLANS: &[(&str, &str, &str)] = &[
    ("gpt3-175b", "GPT-3 175B on V100", "{\"cluster\":{\"chip\":\"v100-sxm2-32gb\",\"chips\":10000},\"model\":{\"attention\":\"materialized\",\"dropout\":true,\"preset\":\"gpt3-175b\"},\"parallelism\":{\"dp\":156,\"dp_overlap\":false,\"micro_batch\":1,\"pp\":8,\"recompute\":\"full\",\"sequence_parallel\":false,\"stack\":\"megatron-baseline\",\"tp\":8,\"zero\":1},\"training\":{\"global_batch\":1560,\"recipe\":\"megatron-bf16\",\"tokens\":300000000000.0}}"),
    ("llama3-405b", "Llama 3.1 405B pre-training stages, Table 4", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":16384,\"scale_out\":\"roce-400g\"},\"model\":{\"preset\":\"llama3-405b\"},\"parallelism\":{\"cp\":1,\"dp\":128,\"dp_overlap\":true,\"micro_batch\":1,\"pp\":16,\"pp_overlap\":true,\"recompute\":\"none\",\"recompute_elementwise\":true,\"sequence_parallel\":true,\"stack\":\"megatron-baseline\",\"tp\":8,\"virtual_stages\":8,\"zero\":1},\"training\":{\"global_batch\":2048,\"recipe\":\"megatron-bf16\",\"tokens\":15600000000000.0}}"),
    ("deepseek-v3", "DeepSeek-V3 671B MoE on 2,048 H800", "{\"cluster\":{\"chip\":\"h800\",\"chips\":2048,\"scale_out\":\"ib-ndr\"},\"model\":{\"preset\":\"deepseek-v3\"},\"parallelism\":{\"dp\":128,\"ep\":64,\"ep_overlap\":true,\"micro_batch\":1,\"pp\":16,\"recompute\":\"selective\",\"recompute_elementwise\":true,\"tp\":1,\"zero\":1},\"training\":{\"global_batch\":15360,\"recipe\":\"fp8\",\"tokens\":14800000000000.0}}"),
];
