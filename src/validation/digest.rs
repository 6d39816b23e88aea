//! What the page needs of `data/calibration.json`, so it does not carry the file: the
//! chips a published run calibrates, the largest validated cluster, the accuracy headline,
//! each model preset's published plan, and the model's errors by regime for the ranges
//! (`range`). Written by `validation::digest_source`;
//! `tests/validation.rs` fails when it is stale (`UPDATE_ACCURACY=1 cargo test --test
//! validation` rewrites it with docs/accuracy.md).

use super::range::{Digested, Pooled, Stats};

/// Chip presets whose efficiency figures were checked against a published run.
pub const CALIBRATED_CHIPS: &[&str] = &["a100-80gb", "h100-sxm", "v100-sxm2-32gb", "h800", "ascend-910b", "b200", "gb200", "a100-40gb", "tpu-v5e", "tpu-v5p", "tpu-v4", "gb300"];

/// The most chips any published run used.
pub const MAX_VALIDATED_CHIPS: u32 = 16384;

/// Rows within tolerance, rows, and the mean absolute error, over every row.
pub const SUMMARY: (usize, usize, f64) = (90, 132, 0.12519313783107056);

/// Each model preset's published plan: (preset id, run title, scenario JSON).
pub const PUBLISHED_PLANS: &[(&str, &str, &str)] = &[
    ("gpt3-175b", "GPT-3 175B on V100", "{\"cluster\":{\"chip\":\"v100-sxm2-32gb\",\"chips\":10000},\"model\":{\"attention\":\"materialized\",\"dropout\":true,\"preset\":\"gpt3-175b\"},\"parallelism\":{\"dp\":156,\"dp_overlap\":false,\"micro_batch\":1,\"pp\":8,\"recompute\":\"full\",\"sequence_parallel\":false,\"stack\":\"megatron-baseline\",\"tp\":8,\"zero\":1},\"training\":{\"global_batch\":1560,\"recipe\":\"megatron-bf16\",\"tokens\":300000000000.0}}"),
    ("llama3-8b", "torchtitan Llama 3.1 FSDP2 and FSDP2+TP on Grand Teton H100 (500 W)", "{\"cluster\":{\"chip\":{\"hbm_gb\":103.1,\"hbm_tb_per_s\":2.4,\"name\":\"H100 96GB HBM2e (Grand Teton)\",\"preset\":\"h100-sxm\"},\"chips\":128,\"power_cap_w\":500,\"scale_out\":\"roce-400g\"},\"model\":{\"preset\":\"llama3-8b\"},\"parallelism\":{\"dp\":128,\"micro_batch\":2,\"pp\":1,\"recompute\":\"selective\",\"stack\":\"pytorch-fsdp\",\"tp\":1,\"zero\":3},\"training\":{\"global_batch\":256,\"recipe\":\"torch-amp\",\"tokens\":1000000000000.0}}"),
    ("llama3-70b", "torchtitan Llama 3.1 FSDP2 and FSDP2+TP on Grand Teton H100 (500 W)", "{\"cluster\":{\"chip\":{\"hbm_gb\":103.1,\"hbm_tb_per_s\":2.4,\"name\":\"H100 96GB HBM2e (Grand Teton)\",\"preset\":\"h100-sxm\"},\"chips\":256,\"power_cap_w\":500,\"scale_out\":\"roce-400g\"},\"model\":{\"preset\":\"llama3-70b\"},\"parallelism\":{\"dp\":32,\"micro_batch\":16,\"pp\":1,\"recompute\":\"full\",\"sequence_parallel\":true,\"stack\":\"pytorch-fsdp\",\"tp\":8,\"tp_overlap\":false,\"zero\":3},\"training\":{\"global_batch\":512,\"recipe\":\"fp8\",\"tokens\":1000000000000.0}}"),
    ("llama3-405b", "Llama 3.1 405B pre-training stages, Table 4", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":16384,\"scale_out\":\"roce-400g\"},\"model\":{\"preset\":\"llama3-405b\"},\"parallelism\":{\"cp\":1,\"dp\":128,\"dp_overlap\":true,\"micro_batch\":1,\"pp\":16,\"pp_overlap\":true,\"recompute\":\"none\",\"recompute_elementwise\":true,\"sequence_parallel\":true,\"stack\":\"megatron-baseline\",\"tp\":8,\"virtual_stages\":8,\"zero\":1},\"training\":{\"global_batch\":2048,\"recipe\":\"megatron-bf16\",\"tokens\":15600000000000.0}}"),
    ("deepseek-v3", "DeepSeek-V3 671B MoE on 2,048 H800", "{\"cluster\":{\"chip\":\"h800\",\"chips\":2048,\"scale_out\":\"ib-ndr\"},\"model\":{\"preset\":\"deepseek-v3\"},\"parallelism\":{\"dp\":128,\"ep\":64,\"ep_overlap\":true,\"micro_batch\":1,\"pp\":16,\"recompute\":\"selective\",\"recompute_elementwise\":true,\"tp\":1,\"zero\":1},\"training\":{\"global_batch\":15360,\"recipe\":\"fp8\",\"tokens\":14800000000000.0}}"),
    ("nemotron-h-56b", "NVIDIA DGX Cloud benchmarking: Nemotron-H 56B pre-training in FP8 on 32 to 2,048 H100", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":2048,\"system\":\"dgx-h100\"},\"model\":{\"preset\":\"nemotron-h-56b\"},\"parallelism\":{\"cp\":1,\"dp\":256,\"micro_batch\":1,\"pp\":1,\"recompute\":\"none\",\"stack\":\"megatron-core\",\"tp\":8,\"zero\":1},\"training\":{\"global_batch\":6144,\"recipe\":\"fp8\",\"tokens\":1000000000000.0}}"),
    ("rwkv7-2.9b", "RWKV-LM: RWKV-7 7.2B pre-training on 32 H100", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":32,\"system\":\"dgx-h100\"},\"model\":{\"ffn\":16384,\"heads\":64,\"hidden\":4096,\"kv_heads\":64,\"layers\":32,\"linear\":{\"heads\":64,\"key_heads\":64,\"lora\":736},\"preset\":\"rwkv7-2.9b\",\"seq_len\":10240},\"parallelism\":{\"cp\":1,\"dp\":32,\"micro_batch\":1,\"pp\":1,\"recompute\":\"full\",\"stack\":\"pytorch-fsdp\",\"tp\":1,\"zero\":2},\"training\":{\"global_batch\":32,\"recipe\":\"megatron-bf16\",\"tokens\":1000000000000.0}}"),
    ("wan2.1-14b", "Megatron-Bridge Wan 2.1 14B video diffusion transformer pre-training on H100, B200, GB200 and GB300", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":128,\"system\":\"dgx-h100\"},\"model\":{\"preset\":\"wan2.1-14b\"},\"parallelism\":{\"cp\":4,\"dp\":16,\"micro_batch\":1,\"pp\":1,\"recompute\":\"full\",\"sequence_parallel\":true,\"stack\":\"megatron-core\",\"tp\":2,\"zero\":1},\"training\":{\"global_batch\":128,\"recipe\":\"megatron-bf16\",\"tokens\":1000000000000.0}}"),
];

/// The model's time errors by regime (`range::Stats`).
pub const REGIMES: &[Digested] = &[
    Digested { family: "Ampere", stack: "megatron-baseline", moe: false, stats: Stats { sources: 7, runs: 9, runs_within: 8, rows: 46, mean: -0.014924465535603034, sd: 0.08567910802665923, max_chips: 12288 } },
    Digested { family: "Ampere", stack: "pytorch-fsdp", moe: false, stats: Stats { sources: 1, runs: 1, runs_within: 1, rows: 1, mean: 0.00873457537642297, sd: 0.0, max_chips: 128 } },
    Digested { family: "Ascend", stack: "megatron-core", moe: false, stats: Stats { sources: 2, runs: 11, runs_within: 8, rows: 11, mean: 0.014118295960274392, sd: 0.15167105257254276, max_chips: 8192 } },
    Digested { family: "Ascend", stack: "megatron-core", moe: true, stats: Stats { sources: 2, runs: 2, runs_within: 0, rows: 2, mean: -0.3927277710004573, sd: 0.1925454378013074, max_chips: 64 } },
    Digested { family: "Blackwell", stack: "megatron-core", moe: false, stats: Stats { sources: 3, runs: 4, runs_within: 4, rows: 12, mean: -0.03760323190042916, sd: 0.07700082047550906, max_chips: 256 } },
    Digested { family: "Blackwell", stack: "megatron-core", moe: true, stats: Stats { sources: 1, runs: 2, runs_within: 2, rows: 5, mean: -0.26265382873178644, sd: 0.19098198134521946, max_chips: 256 } },
    Digested { family: "Hopper", stack: "megatron-baseline", moe: false, stats: Stats { sources: 1, runs: 1, runs_within: 0, rows: 3, mean: -0.17159836310356433, sd: 0.03965142684695145, max_chips: 16384 } },
    Digested { family: "Hopper", stack: "megatron-core", moe: false, stats: Stats { sources: 6, runs: 6, runs_within: 4, rows: 25, mean: -0.06849922529520291, sd: 0.11445625025307946, max_chips: 10752 } },
    Digested { family: "Hopper", stack: "megatron-core", moe: true, stats: Stats { sources: 3, runs: 3, runs_within: 2, rows: 5, mean: -0.21763535643185028, sd: 0.29857544113360246, max_chips: 2048 } },
    Digested { family: "Hopper", stack: "pytorch-fsdp", moe: false, stats: Stats { sources: 3, runs: 3, runs_within: 3, rows: 6, mean: -0.1342326327995784, sd: 0.17848896623460972, max_chips: 512 } },
    Digested { family: "TPU", stack: "xla", moe: false, stats: Stats { sources: 5, runs: 5, runs_within: 2, rows: 14, mean: 0.057013025870160015, sd: 0.14382553675340978, max_chips: 8192 } },
    Digested { family: "Volta", stack: "megatron-baseline", moe: false, stats: Stats { sources: 1, runs: 1, runs_within: 1, rows: 2, mean: -0.005552004163289881, sd: 0.04559548630460925, max_chips: 9984 } },
];

/// Over every row (`range::Pooled`).
pub const POOLED: Pooled = Pooled { rows: 132, mean: -0.0485319924163267, sd: 0.14830145935098057, between_families: 0.06268135355995455, drift_per_doubling: 0.0036384215151144994, within_run: 0.07454331456375819 };
