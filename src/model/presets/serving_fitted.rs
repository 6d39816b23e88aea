//! Shares of the chips' fitted speed serving reaches, fitted to the published serving
//! measurements (`data/serving.json`) by `validation::serving_fit`; generated, and
//! `tests/it/validation.rs` fails when it is stale
//! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).

use crate::model::serving::Engine;

/// Each chip family's share, with the rows and sources it was fitted to.
pub const FAMILY_SERVING_SHARE: &[(&str, f64, u32, &[&str])] = &[
    ("Ampere", 0.9083, 9, &["lmdeploy-a100-fp16-static-v0.1-2023"]),
    ("Ascend", 1.0730, 10, &["cloudmatrix384-2506.12708", "sglang-ascend-a3-dsr1-best-practice-2026"]),
    ("Blackwell", 1.0790, 43, &["lmsys-sglang-gb200-nvl72-part2-2025-09", "mlperf-inference-v4.1", "mlperf-inference-v5.0", "mlperf-inference-v5.1-datacenter-2025-09", "trtllm-blog1-dsr1-min-latency-b200-2025", "trtllm-dsr1-best-perf-practice-2025", "trtllm-perf-overview"]),
    ("CDNA", 0.6289, 54, &["dstack-deepseek-r1-mi300x-2025", "mlperf-inference-v4.1", "mlperf-inference-v5.0", "mlperf-inference-v5.1-amd-mixtral", "mlperf-inference-v5.1-datacenter-2025-09", "moreh-dsr1-mi300x-pd-ep-maxthroughput-2025", "rocm-blog-aiter-sglang-mi300x-2025-05", "rocm-vllm-devdocker-mi300x-v0.10"]),
    ("Gaudi", 0.9507, 20, &["intel-gaudi2-model-perf-1.18", "intel-gaudi3-model-perf-1.18", "mlperf-inference-v4.0-gaudi"]),
    ("Hopper", 1.0629, 40, &["deepseek-day6-2025", "inferencex-issue870-dsr1-h200-sglang-2026-03", "lmsys-sglang-mtp-h200-2025-07", "mlperf-inference-v4.1", "mlperf-inference-v5.1-amd-mixtral", "sglang-large-ep-2025", "tenstorrent-issue356-dsr1-16xh100-sglang-2025-07", "trtllm-dsr1-best-perf-practice-2025", "trtllm-perf-overview"]),
    ("TPU", 0.6848, 16, &["jetstream-pytorch-v5e-summary-2024", "tpu-recipes-vllm-ironwood-2026-04", "tpu-recipes-vllm-trillium-llama3.3-70b-2025-12"]),
];

/// Each engine's share, with the rows and sources it was fitted to.
pub const ENGINE_SERVING_SHARE: &[(Engine, f64, u32, &[&str])] = &[
    (Engine::TensorRtLlm, 1.0386, 54, &["mlperf-inference-v4.1", "mlperf-inference-v5.0", "mlperf-inference-v5.1-amd-mixtral", "mlperf-inference-v5.1-datacenter-2025-09", "trtllm-blog1-dsr1-min-latency-b200-2025", "trtllm-dsr1-best-perf-practice-2025", "trtllm-perf-overview"]),
    (Engine::Vllm, 1.4260, 46, &["dstack-deepseek-r1-mi300x-2025", "mlperf-inference-v4.1", "mlperf-inference-v5.0", "mlperf-inference-v5.1-amd-mixtral", "mlperf-inference-v5.1-datacenter-2025-09", "rocm-vllm-devdocker-mi300x-v0.10", "tpu-recipes-vllm-ironwood-2026-04", "tpu-recipes-vllm-trillium-llama3.3-70b-2025-12"]),
    (Engine::Sglang, 0.8216, 46, &["dstack-deepseek-r1-mi300x-2025", "inferencex-issue870-dsr1-h200-sglang-2026-03", "lmsys-sglang-gb200-nvl72-part2-2025-09", "lmsys-sglang-mtp-h200-2025-07", "rocm-blog-aiter-sglang-mi300x-2025-05", "sglang-ascend-a3-dsr1-best-practice-2026", "sglang-large-ep-2025", "tenstorrent-issue356-dsr1-16xh100-sglang-2025-07"]),
    (Engine::LmDeploy, 0.9083, 9, &["lmdeploy-a100-fp16-static-v0.1-2023"]),
    (Engine::OptimumHabana, 0.9507, 20, &["intel-gaudi2-model-perf-1.18", "intel-gaudi3-model-perf-1.18", "mlperf-inference-v4.0-gaudi"]),
    (Engine::JetStream, 0.7512, 4, &["jetstream-pytorch-v5e-summary-2024"]),
];

/// Each chip family's share of that share in the routed experts' kernels.
pub const FAMILY_EXPERT_SHARE: &[(&str, f64, u32, &[&str])] = &[
    ("Ascend", 0.8807, 10, &["cloudmatrix384-2506.12708", "sglang-ascend-a3-dsr1-best-practice-2026"]),
    ("Blackwell", 0.9852, 24, &["lmsys-sglang-gb200-nvl72-part2-2025-09", "mlperf-inference-v5.1-datacenter-2025-09", "trtllm-blog1-dsr1-min-latency-b200-2025", "trtllm-dsr1-best-perf-practice-2025"]),
    ("CDNA", 1.1727, 29, &["dstack-deepseek-r1-mi300x-2025", "mlperf-inference-v5.1-amd-mixtral", "moreh-dsr1-mi300x-pd-ep-maxthroughput-2025", "rocm-blog-aiter-sglang-mi300x-2025-05"]),
    ("Hopper", 0.8842, 31, &["deepseek-day6-2025", "inferencex-issue870-dsr1-h200-sglang-2026-03", "lmsys-sglang-mtp-h200-2025-07", "mlperf-inference-v5.1-amd-mixtral", "sglang-large-ep-2025", "tenstorrent-issue356-dsr1-16xh100-sglang-2025-07", "trtllm-dsr1-best-perf-practice-2025"]),
    ("TPU", 0.9391, 3, &["tpu-recipes-vllm-ironwood-2026-04"]),
];

/// Each chip family's share of that share in latent attention's kernels.
pub const FAMILY_LATENT_SHARE: &[(&str, f64, u32, &[&str])] = &[
    ("Ascend", 1.0261, 10, &["cloudmatrix384-2506.12708", "sglang-ascend-a3-dsr1-best-practice-2026"]),
    ("Blackwell", 0.9891, 24, &["lmsys-sglang-gb200-nvl72-part2-2025-09", "mlperf-inference-v5.1-datacenter-2025-09", "trtllm-blog1-dsr1-min-latency-b200-2025", "trtllm-dsr1-best-perf-practice-2025"]),
    ("CDNA", 0.7539, 25, &["dstack-deepseek-r1-mi300x-2025", "moreh-dsr1-mi300x-pd-ep-maxthroughput-2025", "rocm-blog-aiter-sglang-mi300x-2025-05"]),
    ("Hopper", 0.9604, 29, &["deepseek-day6-2025", "inferencex-issue870-dsr1-h200-sglang-2026-03", "lmsys-sglang-mtp-h200-2025-07", "sglang-large-ep-2025", "tenstorrent-issue356-dsr1-16xh100-sglang-2025-07", "trtllm-dsr1-best-perf-practice-2025"]),
];
