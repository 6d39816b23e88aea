//! Figures fitted to the published runs of the fit sources (`data/calibration.json`) by
//! `validation::fit`; generated, and `tests/it/validation.rs` fails when it is stale
//! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).

use crate::model::Stack;

/// Each catalog chip's best kernel efficiency (`Chip::matmul_efficiency`, what a tuned
/// submission reaches), with the rows and sources it was fitted to; a chip with no rows of
/// its own takes the mean of its family's fitted chips (no rows, the family named).
pub const CHIP_GEMM: &[(&str, f64, u32, &[&str])] = &[
    ("a100-40gb", 0.7734, 0, &["Ampere"]),
    ("a100-80gb", 0.7734, 46, &["bloom-2022", "internevo-train-performance-2024-01", "korthikanti-2022", "llama-2023", "narayanan-2021", "opt-2022"]),
    ("a800-80gb", 0.7734, 0, &["Ampere"]),
    ("h100-sxm", 0.6047, 45, &["dgxc-benchmarking-25.05.04", "llama3-herd-2024", "mbridge-25.09-perf-summary", "mlperf-training-v4.1-nvidia", "mlperf-training-v5.0-nvidia", "nemo-25.02-perf-summary", "olmo-core-readme-2024-11", "torchtitan-2412-h100-tables-2-5-6"]),
    ("h800", 0.6347, 0, &["Hopper"]),
    ("h20", 0.6347, 0, &["Hopper"]),
    ("h200", 0.6647, 2, &["mlperf-training-v5.0-nebius"]),
    ("b200", 0.5535, 18, &["mbridge-25.09-perf-summary", "mlperf-training-v4.1-nvidia", "nemo-25.02-perf-summary"]),
    ("gb200", 0.5112, 46, &["dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "mlperf-training-v5.0-nvidia", "mlperf-training-v5.1-nvidia"]),
    ("gb300", 0.4880, 4, &["mlperf-training-v5.1-nvidia"]),
    ("b300", 0.5176, 0, &["Blackwell"]),
    ("mi250x", 0.4099, 11, &["lumi-llm-scaling-2023"]),
    ("mi300x", 0.4941, 0, &["CDNA"]),
    ("mi325x", 0.5782, 4, &["primus-projection-blog-2026-03-mi325x"]),
    ("mi355x", 0.4941, 0, &["CDNA"]),
    ("gaudi2", 0.9373, 4, &["mlperf-training-v3.0-intel-habanalabs", "mlperf-training-v3.1-intel-habanalabs"]),
    ("gaudi3", 0.9373, 0, &["Gaudi"]),
    ("tpu-v4", 0.8745, 2, &["maxtext-readme-2023-04"]),
    ("tpu-v5e", 0.7734, 0, &["TPU"]),
    ("tpu-v5p", 0.8210, 5, &["maxtext-v5p-configs-2023-12"]),
    ("tpu-v6e", 0.6986, 16, &["tpu-recipes-trillium-readmes-c8cfe2f"]),
    ("tpu-7x", 0.6997, 14, &["tpu-recipes-ironwood-readme-table-c8cfe2f"]),
    ("ascend-910b", 0.7010, 12, &["mindspeed-llm-readme-2024-10", "pangu-ultra-2025"]),
    ("ascend-910c", 0.7010, 0, &["Ascend"]),
];

/// Each fitted stack's share of the chips' best kernel speed (`Software::kernel_share`), with
/// the rows and sources it was fitted to.
pub const STACK_KERNEL_SHARE: &[(Stack, f64, u32, &[&str])] = &[
    (Stack::MegatronCore, 0.9909, 87, &["deepseek-v3-2024", "dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "mindspeed-llm-readme-2024-10", "nemo-25.02-perf-summary", "pangu-ultra-2025", "primus-projection-blog-2026-03-mi325x"]),
    (Stack::MegatronBaseline, 1.0222, 47, &["bloom-2022", "gpt3-patterson-2021", "korthikanti-2022", "llama-2023", "llama3-herd-2024", "lumi-llm-scaling-2023", "narayanan-2021", "opt-2022"]),
    (Stack::PytorchFsdp, 0.8707, 35, &["internevo-train-performance-2024-01", "lumi-llm-scaling-2023", "olmo-core-readme-2024-11", "primus-projection-blog-2026-03-mi325x", "torchtitan-2412-h100-tables-2-5-6"]),
];

/// What a chip family's runs on a stack reach of the stack's share, where they differ, with
/// the rows and sources it was fitted to.
pub const FAMILY_KERNEL_SHARE: &[(Stack, &str, f64, u32, &[&str])] = &[
    (Stack::MegatronCore, "Ascend", 0.9940, 12, &["mindspeed-llm-readme-2024-10", "pangu-ultra-2025"]),
    (Stack::MegatronCore, "Blackwell", 0.9734, 55, &["dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "nemo-25.02-perf-summary"]),
    (Stack::MegatronCore, "CDNA", 0.9861, 2, &["primus-projection-blog-2026-03-mi325x"]),
    (Stack::MegatronCore, "Hopper", 1.0360, 18, &["deepseek-v3-2024", "dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "nemo-25.02-perf-summary"]),
    (Stack::MegatronBaseline, "Ampere", 0.9847, 32, &["bloom-2022", "korthikanti-2022", "llama-2023", "narayanan-2021", "opt-2022"]),
    (Stack::MegatronBaseline, "CDNA", 0.9758, 10, &["lumi-llm-scaling-2023"]),
    (Stack::MegatronBaseline, "Hopper", 1.0160, 3, &["llama3-herd-2024"]),
    (Stack::PytorchFsdp, "Ampere", 1.0311, 14, &["internevo-train-performance-2024-01"]),
    (Stack::PytorchFsdp, "CDNA", 1.0371, 3, &["lumi-llm-scaling-2023", "primus-projection-blog-2026-03-mi325x"]),
    (Stack::PytorchFsdp, "Hopper", 0.8247, 18, &["olmo-core-readme-2024-11", "torchtitan-2412-h100-tables-2-5-6"]),
];

/// Seconds an MoE layer waits on the host per micro-batch on PyTorch stacks
/// with the all-to-all dispatcher (`Software::moe_host_s`), with the rows and sources it was fitted to.
pub const MOE_HOST_S: (f64, u32, &[&str]) = (0.00234, 29, &["deepseek-v3-2024", "dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "mindspeed-llm-readme-2024-10", "nemo-25.02-perf-summary"]);

/// The same with DeepEP's or HybridEP's dispatcher (`Software::moe_host_deepep_s`), with the rows and sources it was fitted to.
pub const MOE_HOST_DEEPEP_S: (f64, u32, &[&str]) = (0.0, 0, &[]);

/// What each chip family's low-precision GEMMs reach of the model's share for them
/// (`Software::low_precision_share`), with the rows and sources it was fitted to.
pub const FAMILY_LOW_PRECISION: &[(&str, f64, u32, &[&str])] = &[
    ("Blackwell", 1.1483, 53, &["dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "mlperf-training-v4.1-nvidia", "mlperf-training-v5.0-nvidia", "mlperf-training-v5.1-nvidia", "nemo-25.02-perf-summary"]),
    ("CDNA", 1.0344, 3, &["primus-projection-blog-2026-03-mi325x"]),
    ("Gaudi", 1.0698, 2, &["mlperf-training-v3.1-intel-habanalabs"]),
    ("Hopper", 1.1529, 35, &["deepseek-v3-2024", "dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "mlperf-training-v4.1-nvidia", "mlperf-training-v5.0-nebius", "mlperf-training-v5.0-nvidia", "nemo-25.02-perf-summary", "olmo-core-readme-2024-11", "torchtitan-2412-h100-tables-2-5-6"]),
    ("TPU", 1.0051, 7, &["tpu-recipes-ironwood-readme-table-c8cfe2f"]),
];

/// Seconds each layer loses per micro-batch to launches on each fitted stack
/// (`Software::layer_host_s`), with the rows and sources it was fitted to.
pub const LAYER_HOST_S: &[(Stack, f64, u32, &[&str])] = &[
    (Stack::MegatronCore, 0.000283, 87, &["deepseek-v3-2024", "dgxc-benchmarking-25.05.04", "mbridge-25.09-perf-summary", "mindspeed-llm-readme-2024-10", "nemo-25.02-perf-summary", "pangu-ultra-2025", "primus-projection-blog-2026-03-mi325x"]),
    (Stack::MegatronBaseline, 0.000000, 47, &["bloom-2022", "gpt3-patterson-2021", "korthikanti-2022", "llama-2023", "llama3-herd-2024", "lumi-llm-scaling-2023", "narayanan-2021", "opt-2022"]),
    (Stack::PytorchFsdp, 0.000000, 35, &["internevo-train-performance-2024-01", "lumi-llm-scaling-2023", "olmo-core-readme-2024-11", "primus-projection-blog-2026-03-mi325x", "torchtitan-2412-h100-tables-2-5-6"]),
];
