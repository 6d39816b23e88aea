//! What the page needs of `data/calibration.json`, so it does not carry the file: the
//! chips a published run calibrates, the largest validated cluster, the accuracy headline,
//! each model preset's published plan, and the model's errors by regime for the ranges
//! (`range`). Written by `validation::digest_source`;
//! `tests/it/validation.rs` fails when it is stale (`UPDATE_ACCURACY=1 cargo test --test
//! it validation::` rewrites it with docs/accuracy.md).

use super::stats::{Digested, Pooled, Stats};

/// Chip presets whose efficiency figures were checked against a published run.
pub const CALIBRATED_CHIPS: &[&str] = &["a100-80gb", "h100-sxm", "v100-sxm2-32gb", "h800", "ascend-910b", "b200", "gb200", "a100-40gb", "tpu-v5e", "tpu-v5p", "tpu-v4", "gb300", "h200", "a800-80gb", "mi250x", "mi325x", "mi355x", "gaudi2", "ascend-910c", "tpu-v6e", "tpu-7x"];

/// The most chips any published run used.
pub const MAX_VALIDATED_CHIPS: u32 = 16384;

/// Over every row, each predicted with its source left out of the fit: rows, sources,
/// the median absolute error of the step time, and the share inside their ranges.
pub const LEFT_OUT: (u32, u32, f64, f64) = (483, 76, 0.08997225721434565, 0.7991718426501035);

/// Rows within tolerance, rows, and the mean absolute error, over every row.
pub const SUMMARY: (usize, usize, f64) = (284, 483, 0.13661131728682613);

/// Each model preset's published plan: (preset id, run title, scenario JSON, the model's
/// step time's error on it (positive: slow), why the model misses it where it does).
pub const PUBLISHED_PLANS: &[(&str, &str, &str, f64, &str)] = &[
    ("gpt3-175b", "GPT-3 175B on V100", "{\"cluster\":{\"chip\":\"v100-sxm2-32gb\",\"chips\":10000},\"model\":{\"attention\":\"materialized\",\"dropout\":true,\"preset\":\"gpt3-175b\"},\"parallelism\":{\"dp\":156,\"dp_overlap\":false,\"micro_batch\":1,\"pp\":8,\"recompute\":\"full\",\"sequence_parallel\":false,\"stack\":\"megatron-baseline\",\"tp\":8,\"zero\":1},\"training\":{\"global_batch\":1560,\"recipe\":\"megatron-bf16\",\"tokens\":300000000000.0}}", 0.119159743669212, ""),
    ("llama2-70b", "Llama 2 70B on 256 TPU v6e (Trillium), MaxText FSDP-transpose, seq 4096 (tpu-recipes)", "{\"cluster\":{\"chip\":\"tpu-v6e\",\"chips\":256,\"chips_per_node\":8,\"scale_out\":\"dcn-tpu-100g\",\"scale_up\":\"ici-v6e\",\"scale_up_domain\":256},\"model\":{\"preset\":\"llama2-70b\",\"seq_len\":4096},\"parallelism\":{\"dp\":256,\"micro_batch\":2,\"pp\":1,\"recompute\":\"full\",\"stack\":\"xla\",\"tp\":1,\"zero\":3},\"training\":{\"global_batch\":512,\"recipe\":\"megatron-bf16\",\"tokens\":100000000000.0}}", -0.01600967685279553, ""),
    ("llama3-8b", "MLPerf Training v5.1 Llama 3.1 8B on NVIDIA Tyche (GB200 NVL72), 8, 72 and 512 GPUs", "{\"cluster\":{\"chip\":\"gb200\",\"chips\":576,\"placement\":{\"domain_chips\":64},\"system\":\"gb200-nvl72\"},\"model\":{\"preset\":\"llama3-8b\"},\"parallelism\":{\"cp\":4,\"cp_overlap\":true,\"dp\":64,\"micro_batch\":1,\"pp\":1,\"recompute\":\"none\",\"sequence_parallel\":true,\"stack\":\"tuned\",\"tp\":2,\"zero\":1},\"training\":{\"global_batch\":64,\"recipe\":\"fp8\",\"tokens\":1000000000000.0}}", -0.3672585929015002, "at 512 GPUs each holds 1,024 tokens of a sequence (TP 2 x CP 4 of 8,192) in one micro-batch, where costs fixed per layer and per hop (the context-parallel ring's rounds, the tensor-parallel collectives, launches) and GEMMs too small for the large-GEMM efficiency the model applies set the step; the model does not yet price them, so it reads small shares fast."),
    ("llama3-70b", "Llama 3.1 70B at 131,072 tokens on 256 TPU7x (Ironwood), MaxText FSDP x context parallel 8 devices (tpu-recipes table)", "{\"cluster\":{\"chip\":\"tpu-7x\",\"chips\":256,\"chips_per_node\":4,\"scale_out\":\"dcn-tpu-100g\",\"scale_up\":\"ici-7x\",\"scale_up_domain\":256},\"model\":{\"preset\":\"llama3-70b\",\"seq_len\":131072},\"parallelism\":{\"cp\":4,\"dp\":64,\"micro_batch\":1,\"pp\":1,\"recompute\":\"none\",\"recompute_elementwise\":true,\"stack\":\"xla\",\"tp\":1,\"zero\":3},\"training\":{\"global_batch\":64,\"recipe\":\"fp8\",\"tokens\":100000000000.0}}", -0.07100045790355813, ""),
    ("llama3-405b", "Llama 3.1 405B pre-training stages, Table 4", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":16384,\"scale_out\":\"roce-400g\"},\"model\":{\"preset\":\"llama3-405b\"},\"parallelism\":{\"cp\":1,\"dp\":128,\"dp_overlap\":true,\"micro_batch\":1,\"pp\":16,\"pp_overlap\":true,\"recompute\":\"none\",\"recompute_elementwise\":true,\"sequence_parallel\":true,\"stack\":\"megatron-baseline\",\"tp\":8,\"virtual_stages\":8,\"zero\":1},\"training\":{\"global_batch\":2048,\"recipe\":\"megatron-bf16\",\"tokens\":15600000000000.0}}", -0.0019906919113320543, ""),
    ("mixtral-8x7b", "Mixtral 8x7B (token dropping, capacity 1.25) on 256 TPU v6e, MaxText FSDP, seq 4096 (tpu-recipes)", "{\"cluster\":{\"chip\":\"tpu-v6e\",\"chips\":256,\"chips_per_node\":8,\"scale_out\":\"dcn-tpu-100g\",\"scale_up\":\"ici-v6e\",\"scale_up_domain\":256},\"model\":{\"moe\":{\"capacity_factor\":1.25},\"preset\":\"mixtral-8x7b\",\"seq_len\":4096},\"parallelism\":{\"dp\":256,\"ep\":1,\"micro_batch\":12,\"offload_layers\":32,\"pp\":1,\"recompute\":\"full\",\"stack\":\"xla\",\"tp\":1,\"zero\":3},\"training\":{\"global_batch\":3072,\"recipe\":\"megatron-bf16\",\"tokens\":100000000000.0}}", -0.042670259620269824, ""),
    ("deepseek-v3", "DeepSeek-V3 671B MoE on 2,048 H800", "{\"cluster\":{\"chip\":\"h800\",\"chips\":2048,\"scale_out\":\"ib-ndr\"},\"model\":{\"preset\":\"deepseek-v3\"},\"parallelism\":{\"dp\":128,\"ep\":64,\"ep_overlap\":true,\"micro_batch\":1,\"pp\":16,\"recompute\":\"selective\",\"recompute_elementwise\":true,\"tp\":1,\"zero\":1},\"training\":{\"global_batch\":15360,\"recipe\":\"fp8\",\"tokens\":14800000000000.0}}", 0.21371228266382647, ""),
    ("nemotron-h-56b", "NVIDIA DGX Cloud benchmarking: Nemotron-H 56B pre-training in FP8 on 32 to 2,048 H100", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":2048,\"system\":\"dgx-h100\"},\"model\":{\"preset\":\"nemotron-h-56b\"},\"parallelism\":{\"cp\":1,\"dp\":256,\"micro_batch\":1,\"pp\":1,\"recompute\":\"none\",\"stack\":\"megatron-core\",\"tp\":8,\"zero\":1},\"training\":{\"global_batch\":6144,\"grads\":\"bf16\",\"recipe\":\"fp8\",\"tokens\":1000000000000.0}}", -0.20851589396046954, "The model is about 22 % fast on every Nemotron-H row, from 32 to 2,048 GPUs alike, so the miss is in the layer, not the scale. The scan runs at its measured forward rate (efficiency.rs, SSD_SCAN_RELATIVE); the backward scan kernels, the convolution, the gating and the chunk-state passing are priced by their work and bytes, and no measurement of them was found, so nothing was set from these rows."),
    ("rwkv7-2.9b", "RWKV-LM: RWKV-7 7.2B pre-training on 32 H100", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":32,\"system\":\"dgx-h100\"},\"model\":{\"ffn\":16384,\"heads\":64,\"hidden\":4096,\"kv_heads\":64,\"layers\":32,\"linear\":{\"heads\":64,\"key_heads\":64,\"lora\":736},\"preset\":\"rwkv7-2.9b\",\"seq_len\":10240},\"parallelism\":{\"cp\":1,\"dp\":32,\"micro_batch\":1,\"pp\":1,\"recompute\":\"full\",\"stack\":\"pytorch-fsdp\",\"tp\":1,\"zero\":2},\"training\":{\"global_batch\":32,\"recipe\":\"megatron-bf16\",\"tokens\":1000000000000.0}}", 0.5939075837787409, "the model prices RWKV-7's time-mixing kernel at the speed measured for RWKV-LM's kernel of March 2025; this run used a later kernel written for H100 (cuda/rwkv7_clampw_v3_for_h100.cu), whose speed is not published, so the model reads it slow."),
    ("wan2.1-14b", "Megatron-Bridge Wan 2.1 14B video diffusion transformer pre-training on H100, B200, GB200 and GB300", "{\"cluster\":{\"chip\":\"h100-sxm\",\"chips\":128,\"system\":\"dgx-h100\"},\"model\":{\"preset\":\"wan2.1-14b\"},\"parallelism\":{\"cp\":4,\"dp\":16,\"micro_batch\":1,\"pp\":1,\"recompute\":\"full\",\"sequence_parallel\":true,\"stack\":\"megatron-core\",\"tp\":2,\"zero\":1},\"training\":{\"global_batch\":128,\"recipe\":\"megatron-bf16\",\"tokens\":1000000000000.0}}", 0.054817502867504864, ""),
];

/// The highest MFU published runs show against scale: (chips, MFU, run), each above every
/// larger run's (`validation::best_published`).
pub const MFU_FRONTIER: &[(u32, f64, &str)] = &[
    (16384, 0.41, "Llama 3.1 405B pre-training stages, Table 4"),
    (11200, 0.482, "MegaScale's Megatron-LM baseline, 530B weak scaling, Figure 9"),
    (8192, 0.52, "Pangu Ultra 135B on 8,192 Ascend NPUs"),
    (4096, 0.6078441077687432, "MaxText TPU v5p table (Dec 2023): synthetic 32B-1024B dense models on 1-2 slices"),
    (1024, 0.6296247330815061, "MaxText TPU v5p table (Dec 2023): synthetic 32B-1024B dense models on 1-2 slices"),
    (512, 0.6852501744954616, "Llama 3.1 405B on 512 TPU v5p (tpu-recipes, MaxText 2025)"),
    (256, 0.6884515344047936, "MaxText TPU v5p table (Dec 2023): synthetic 32B-1024B dense models on 1-2 slices"),
    (64, 0.7145766035924881, "MaxText TPU v5p table (Dec 2023): synthetic 32B-1024B dense models on 1-2 slices"),
];

/// The model's time errors by regime (`stats::Stats`).
pub const REGIMES: &[Digested] = &[
    Digested { family: "Ampere", stack: "megatron-baseline", moe: false, stats: Stats { sources: 8, runs: 10, runs_within: 6, rows: 51, mean: -0.019431098377258198, sd: 0.14211798718972357, max_chips: 12288 } },
    Digested { family: "Ampere", stack: "pytorch-fsdp", moe: false, stats: Stats { sources: 4, runs: 4, runs_within: 4, rows: 22, mean: 0.01517190478024022, sd: 0.06375650466175903, max_chips: 1024 } },
    Digested { family: "Ascend", stack: "megatron-core", moe: false, stats: Stats { sources: 5, runs: 24, runs_within: 13, rows: 24, mean: -0.023585715743046996, sd: 0.16139332968791179, max_chips: 8192 } },
    Digested { family: "Ascend", stack: "megatron-core", moe: true, stats: Stats { sources: 3, runs: 4, runs_within: 1, rows: 4, mean: -0.10747373609803068, sd: 0.24398330591198183, max_chips: 512 } },
    Digested { family: "Blackwell", stack: "megatron-core", moe: false, stats: Stats { sources: 11, runs: 13, runs_within: 12, rows: 65, mean: 0.0392110631320593, sd: 0.08716772674737411, max_chips: 512 } },
    Digested { family: "Blackwell", stack: "megatron-core", moe: true, stats: Stats { sources: 8, runs: 10, runs_within: 6, rows: 42, mean: 0.03954402021858953, sd: 0.2733358314125913, max_chips: 512 } },
    Digested { family: "Blackwell", stack: "tuned", moe: false, stats: Stats { sources: 6, runs: 12, runs_within: 10, rows: 32, mean: -0.010407621202818997, sd: 0.1498031443638956, max_chips: 5120 } },
    Digested { family: "Blackwell", stack: "tuned", moe: true, stats: Stats { sources: 1, runs: 4, runs_within: 2, rows: 11, mean: -0.038895657491195904, sd: 0.3065315710233048, max_chips: 8192 } },
    Digested { family: "CDNA", stack: "megatron-baseline", moe: false, stats: Stats { sources: 1, runs: 4, runs_within: 0, rows: 10, mean: -0.2777100887050288, sd: 0.09267953760481847, max_chips: 1024 } },
    Digested { family: "CDNA", stack: "megatron-core", moe: false, stats: Stats { sources: 1, runs: 1, runs_within: 0, rows: 2, mean: 0.35623088302510475, sd: 0.007710907384580066, max_chips: 64 } },
    Digested { family: "CDNA", stack: "pytorch-fsdp", moe: false, stats: Stats { sources: 2, runs: 2, runs_within: 0, rows: 3, mean: 0.23381846448679008, sd: 0.4427631035700487, max_chips: 64 } },
    Digested { family: "CDNA", stack: "tuned", moe: false, stats: Stats { sources: 1, runs: 1, runs_within: 0, rows: 1, mean: 0.18517910346474142, sd: 0.0, max_chips: 8 } },
    Digested { family: "Gaudi", stack: "megatron-baseline", moe: false, stats: Stats { sources: 1, runs: 1, runs_within: 1, rows: 5, mean: -0.189718611269286, sd: 0.18226576574103814, max_chips: 64 } },
    Digested { family: "Gaudi", stack: "tuned", moe: false, stats: Stats { sources: 3, runs: 3, runs_within: 0, rows: 5, mean: 0.08339230664851568, sd: 0.21759426787298106, max_chips: 1024 } },
    Digested { family: "Hopper", stack: "megatron-baseline", moe: false, stats: Stats { sources: 2, runs: 2, runs_within: 2, rows: 29, mean: -0.17192089837485275, sd: 0.20789839551554765, max_chips: 16384 } },
    Digested { family: "Hopper", stack: "megatron-core", moe: false, stats: Stats { sources: 12, runs: 13, runs_within: 10, rows: 36, mean: -0.02522625175103172, sd: 0.16396687194567752, max_chips: 2048 } },
    Digested { family: "Hopper", stack: "megatron-core", moe: true, stats: Stats { sources: 8, runs: 9, runs_within: 6, rows: 17, mean: -0.11672789871642231, sd: 0.2824093396756537, max_chips: 2048 } },
    Digested { family: "Hopper", stack: "pytorch-fsdp", moe: false, stats: Stats { sources: 8, runs: 8, runs_within: 5, rows: 37, mean: 0.03745711123504323, sd: 0.299009787234004, max_chips: 512 } },
    Digested { family: "Hopper", stack: "tuned", moe: false, stats: Stats { sources: 8, runs: 8, runs_within: 7, rows: 26, mean: 0.027176853754752792, sd: 0.08484067169664257, max_chips: 11616 } },
    Digested { family: "TPU", stack: "xla", moe: false, stats: Stats { sources: 11, runs: 19, runs_within: 10, rows: 46, mean: -0.014127499886951304, sd: 0.1246085866860351, max_chips: 8192 } },
    Digested { family: "TPU", stack: "xla", moe: true, stats: Stats { sources: 5, runs: 8, runs_within: 3, rows: 13, mean: -0.11943925227549465, sd: 0.12460944334321829, max_chips: 512 } },
    Digested { family: "Volta", stack: "megatron-baseline", moe: false, stats: Stats { sources: 1, runs: 1, runs_within: 1, rows: 2, mean: 0.08467010633194128, sd: 0.049732174216576865, max_chips: 9984 } },
];

/// Over every row (`stats::Pooled`).
pub const POOLED: Pooled = Pooled { rows: 483, mean: -0.01601049623621509, sd: 0.1961160811155101, between_families: 0.05041811780114861, drift_per_doubling: 0.0012535318693006113, within_run: 0.12037032601213167, width: 1.3575756592040553 };
