//! Serving the trained model on the cluster's chips: prefill, decode, the batch the KV cache
//! allows, time to first token and between tokens, throughput at the targets, the chips a load
//! needs and what a million tokens cost.
//!
//! A deployment is an *instance* of `tp x dp` chips: attention tensor-parallel over `tp` and
//! data-parallel over `dp` (DP attention, as SGLang and DeepSeek serve MLA models), its routed
//! experts spread over `ep` of them. A decode step reads every touched weight and the KV cache
//! of its batch once and is timed by a roofline per part (weights and their GEMMs, the cache and
//! its attention), the tensor-parallel all-reduces and the expert exchange over the same
//! collective model as training (`collectives`), and the host's work per step. Prefill runs in
//! chunks (chunked prefill, 8,192 tokens a rank: vLLM's `max_num_batched_tokens` and SGLang's
//! `chunked_prefill_size` defaults). Requests share an instance with continuous batching: the
//! share of its time prefill takes stretches every decode step (`tpot`).
//!
//! Total like the rest of the model: an impossible deployment is still estimated, with its
//! reasons in `problems`.

use crate::model::collectives::{
    all_to_all_s, collective_s, expert_copies, rail_forwarded, Collective, Group,
};
use crate::model::efficiency;
use crate::model::{finite, Chip, Cluster, Transformer};

/// Share of a chip's memory the engine plans with: vLLM's `gpu_memory_utilization` default
/// (0.9); the rest holds activations, the CUDA graphs and the allocator's slack.
pub const USABLE_MEMORY: f64 = 0.9;

/// Tokens each attention rank prefills per round (chunked prefill; vLLM's
/// `max_num_batched_tokens` and SGLang's `chunked_prefill_size`, both 8,192 by default).
pub const PREFILL_CHUNK: f64 = 8192.0;

/// Host time of one forward step, seconds: scheduling, sampling and the launch of one CUDA
/// graph. vLLM's V1 engine reports its CPU overhead per step at a few hundred microseconds
/// (vLLM blog, "vLLM V1", January 2025); 0.5 ms is taken.
pub const HOST_STEP_S: f64 = 0.5e-3;

/// A batch's time between tokens at the 99th percentile over its mean: targets are 99th
/// percentiles, as MLPerf Inference states them. The median of the ratio in MLPerf Inference
/// v4.0-v5.0 server logs (NVIDIA H100, H200, B200; AMD MI300X, MI325X; Intel Gaudi 2: 1.06 to
/// 1.38; mlcommons/inference_results_v4.0, v4.1, v5.0, `mlperf_log_summary.txt`).
pub const TPOT_TAIL: f64 = 1.15;

/// The share of first draft tokens the target model accepts: DeepSeek-V3's multi-token
/// prediction module's second token is accepted 85 % to 90 % of the time (DeepSeek-AI 2024,
/// arXiv 2412.19437, §5.4.3); the lower end is taken.
pub const DRAFT_ACCEPTANCE: f64 = 0.85;

/// The share of each further draft token accepted given the one before it was: a module
/// trained to look one token ahead guesses worse the further it is chained. Least squares over
/// the seven acceptance lengths published for DeepSeek-R1's module chained 1 to 5 deep
/// (TensorRT-LLM's tech blog 1 on B200: 1.92, 2.58, 2.82, 2.99, 3.01; LMSYS's SGLang MTP blog
/// on H200: 2.18 and 2.44 for 2 and 3) of `1 + 0.85 (1 + c + c² …)` gives 0.61, where the
/// first draft's share chained on (0.85) promised 3.19 tokens a step for 3 drafts against
/// 2.44 to 2.82 published.
pub const DRAFT_CHAIN: f64 = 0.61;

/// A decode step and a prefill round on an engine's portable kernels (Triton and PyTorch)
/// over the same engine on the chip vendor's tuned library: SGLang v0.4.4 serving
/// DeepSeek-R1 in FP8 on eight MI300X at TP 8, a batch of 64 prompts of 512 tokens, decoded in
/// a median 53.19 ms a step and prefilled in 3.127 s without AMD's AITER kernels, and in
/// 28.37 ms and 1.507 s with them (AMD ROCm blog, "Accelerate DeepSeek-R1 Inference:
/// Integrate AITER into SGLang", 16 May 2025: MoE routing, sorting and FP8 grouped GEMMs, FP8
/// block-scaled GEMMs, latent attention's decode and prefill kernels and the all-reduce). The
/// whole step's ratio is taken: the blog gives no split by kernel.
pub const PORTABLE_DECODE: f64 = 53.19 / 28.37;
pub const PORTABLE_PREFILL: f64 = 3.12678 / 1.50748;

/// Least and greatest share of the chip's fitted speed a serving engine may reach
/// (`Serving::kernel_share`).
pub const SHARE_RANGE: (f64, f64) = (0.2, 1.5);

/// The highest busy share an instance is planned at when the targets allow any: a queue at
/// 99 % has no slack for a burst.
pub const BUSIEST: f64 = 0.99;

/// The engine that serves: its kernels and scheduler decide what share of the chip's fitted
/// speed serving reaches (`presets::serving_share`, fitted to published serving measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Engine {
    /// None: the chip family's serving share alone.
    #[default]
    Any,
    TensorRtLlm,
    Vllm,
    Sglang,
    LmDeploy,
    MindIe,
    OptimumHabana,
    JetStream,
}

impl Engine {
    /// Every engine, by the name scenarios and `data/serving.json` give it.
    pub const NAMED: [(&'static str, Engine); 8] = [
        ("any", Engine::Any),
        ("trtllm", Engine::TensorRtLlm),
        ("vllm", Engine::Vllm),
        ("sglang", Engine::Sglang),
        ("lmdeploy", Engine::LmDeploy),
        ("mindie", Engine::MindIe),
        ("optimum-habana", Engine::OptimumHabana),
        ("jetstream", Engine::JetStream),
    ];

    /// The engine's name.
    pub fn id(self) -> &'static str {
        Engine::NAMED.iter().find(|e| e.1 == self).map_or("any", |e| e.0)
    }

    /// The engine a chip family's vendor publishes its serving figures with: NVIDIA's
    /// TensorRT-LLM, AMD's vLLM (its MLPerf submissions and ROCm's own tables), Intel's
    /// Optimum Habana, Google's JetStream, Huawei's MindIE; none for the others.
    pub fn usual(family: Option<&str>) -> Engine {
        match family {
            Some("Volta" | "Ampere" | "Ada" | "Hopper" | "Blackwell") => Engine::TensorRtLlm,
            Some("CDNA") => Engine::Vllm,
            Some("Gaudi") => Engine::OptimumHabana,
            Some("TPU") => Engine::JetStream,
            Some("Ascend") => Engine::MindIe,
            _ => Engine::Any,
        }
    }

    /// The engine of a name; `None` for one not known.
    pub fn named(id: &str) -> Option<Engine> {
        Engine::NAMED.iter().find(|e| e.0 == id).map(|e| e.1)
    }
}

/// A named shape of requests: the mean prompt and output tokens of Microsoft Azure's production
/// traces of 2023 and the spread of the outputs (Patel et al. 2024, "Splitwise", arXiv
/// 2311.18677; the per-request token counts of Azure/AzurePublicDataset,
/// `AzureLLMInferenceTrace_conv.csv` and `AzureLLMInferenceTrace_code.csv`, whose medians are
/// the paper's 1,020 and 129, 1,469 and 13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mix {
    /// Chat: 1,155 prompt and 211 output tokens on average, the outputs' standard deviation
    /// 0.77 of their mean (19,366 requests).
    #[default]
    Conversation,
    /// Code completion: 2,048 prompt and 28 output tokens on average, the outputs' standard
    /// deviation 2.15 of their mean (8,819 requests).
    Coding,
}

impl Mix {
    /// Prompt and output tokens of a request on average.
    pub fn tokens(self) -> (f64, f64) {
        match self {
            Mix::Conversation => (1155.0, 211.0),
            Mix::Coding => (2048.0, 28.0),
        }
    }

    /// The outputs' standard deviation over their mean (`Serving::output_spread`).
    pub fn spread(self) -> f64 {
        match self {
            Mix::Conversation => 0.77,
            Mix::Coding => 2.15,
        }
    }
}

/// A number format of weights or the KV cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    #[default]
    Bf16,
    Fp8,
    /// NVFP4: 4-bit values with one FP8 scale per 16 (NVIDIA's Blackwell format).
    Fp4,
}

impl Precision {
    /// Bytes one value takes, scales included.
    pub fn bytes(self) -> f64 {
        match self {
            Precision::Bf16 => 2.0,
            Precision::Fp8 => 1.0,
            Precision::Fp4 => 0.5 + 1.0 / 16.0,
        }
    }

    /// The share of a BF16 GEMM's efficiency a GEMM on weights of this format keeps on `chip`:
    /// FP8's per-tile scaling (`efficiency::FP8_GEMM_RELATIVE`), NVFP4's block scales
    /// (`efficiency::BLOCK_SCALED_GEMM_RELATIVE`); all of it when the chip runs them in BF16.
    pub fn gemm_relative(self, chip: &Chip) -> f64 {
        match self {
            Precision::Fp8 if chip.fp8_flops_per_s > 0.0 => efficiency::FP8_GEMM_RELATIVE,
            Precision::Fp4 if chip.fp4_flops_per_s > 0.0 => efficiency::BLOCK_SCALED_GEMM_RELATIVE,
            Precision::Fp4 if chip.fp8_flops_per_s > 0.0 => efficiency::FP8_GEMM_RELATIVE,
            _ => 1.0,
        }
    }

    /// The tensor peak GEMMs on weights of this format reach on `chip`, FLOP/s: FP8 or FP4
    /// where the chip has such tensor units (W8A8, W4A4), else BF16 after dequantisation.
    pub fn peak(self, chip: &Chip) -> f64 {
        let low = match self {
            Precision::Bf16 => 0.0,
            Precision::Fp8 => chip.fp8_flops_per_s,
            Precision::Fp4 => chip.fp4_flops_per_s.max(chip.fp8_flops_per_s),
        };
        chip.bf16_flops_per_s.max(low).max(1.0)
    }
}

/// How an instance is split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deployment {
    /// Attention tensor-parallel degree.
    pub tp: u32,
    /// Attention data-parallel degree (DP attention): ranks each with its own sequences.
    pub dp: u32,
    /// Expert groups the routed experts are spread over; `ep x etp` divides `tp x dp`.
    pub ep: u32,
    /// Chips each expert's matrices are split over inside its group (expert tensor
    /// parallelism: TensorRT-LLM's MoE TP, Megatron's `expert-tensor-parallel-size`); 1 holds
    /// each expert whole.
    pub etp: u32,
}

impl Deployment {
    /// Chips of one instance.
    pub fn chips(&self) -> u32 {
        self.tp.max(1).saturating_mul(self.dp.max(1))
    }

    /// The smallest instance that holds `t`'s weights with room for a cache: MLA models with
    /// experts as DeepSeek serves them (one chip per attention rank, experts over all), other
    /// models with experts spread over the tensor-parallel group, dense models tensor-parallel
    /// inside one scale-up domain.
    pub fn smallest(t: &Transformer, chip: &Chip, weights: Precision, domain: u32) -> Deployment {
        let usable = chip.hbm_bytes * USABLE_MEMORY;
        let (shared, routed) = split_params(t);
        let b = weights.bytes();
        // Room left for the cache: at least a third of the usable memory.
        let room = usable * (2.0 / 3.0);
        let mut n = 1u32;
        while n < 1 << 16 {
            let mla = t.mla.is_some() && t.moe.is_some();
            let per_chip = if mla {
                shared * b + routed * b / n as f64
            } else {
                (shared + routed) * b / n as f64
            };
            if per_chip <= room || (!mla && t.moe.is_none() && n >= domain.max(1)) {
                break;
            }
            n *= 2;
        }
        match (t.mla.is_some(), t.moe.is_some()) {
            (true, true) => Deployment { tp: 1, dp: n, ep: n, etp: 1 },
            (_, true) => Deployment { tp: n, dp: 1, ep: n, etp: 1 },
            _ => Deployment { tp: n, dp: 1, ep: 1, etp: 1 },
        }
    }
}

/// What the user asks of serving.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Serving {
    /// Prompt tokens per request.
    pub input_tokens: f64,
    /// Generated tokens per request.
    pub output_tokens: f64,
    /// Time-to-first-token target, seconds.
    pub ttft_s: f64,
    /// Time-per-output-token target, seconds.
    pub tpot_s: f64,
    /// Requests per second to serve; 0 for none given.
    pub requests_per_s: f64,
    /// Format of the weights.
    pub weights: Precision,
    /// Format of attention's projection weights where a mixed-precision checkpoint keeps them
    /// apart from the rest (NVIDIA's FP4 DeepSeek-R1 keeps them in BF16: `Serving::attention`);
    /// `None` for `weights`.
    pub attention_weights: Option<Precision>,
    /// Format of the KV cache.
    pub kv_cache: Precision,
    /// Most sequences an instance decodes at once; 0 for no cap beyond the cache.
    pub max_batch: u32,
    /// The decode instance (the only one when not disaggregated).
    pub decode: Deployment,
    /// The prefill instance when disaggregated.
    pub prefill: Deployment,
    /// Prefill and decode on separate instances, the cache sent between them.
    pub disaggregated: bool,
    /// New requests join a running batch (every engine since Orca); false waits for the batch.
    pub continuous_batching: bool,
    /// Busy share the load is planned at, below 1 so queues stay short; 0 for the busiest
    /// the time-to-first-token target allows at its 99th percentile.
    pub utilisation: f64,
    /// Draft tokens proposed a decode step (speculative decoding, multi-token prediction);
    /// 0 for none.
    pub draft_tokens: u32,
    /// Tokens a decode step emits per sequence on average with drafts, the one the target
    /// model always gives included; 0 for the chained acceptance of `DRAFT_ACCEPTANCE` and
    /// `DRAFT_CHAIN`.
    pub acceptance_length: f64,
    /// Share of a prompt's tokens whose cache is already held (prefix caching): prefill
    /// computes only the rest.
    pub prefix_hit_rate: f64,
    /// The engine (`serving.engine`).
    pub engine: Engine,
    /// The share of the chip's fitted kernel speed and memory bandwidth serving's kernels
    /// reach on this engine and chip family (`presets::serving_share`); 0 for all of it.
    pub kernel_share: f64,
    /// The share of that share of the memory's bandwidth the routed experts' grouped GEMMs
    /// stream their weights at on this chip family, where few tokens reach each expert
    /// (`presets::serving_expert_share`); 0 for all of it.
    pub expert_share: f64,
    /// The share of `kernel_share` latent attention's kernels reach on this chip family
    /// (`presets::serving_latent_share`), models with MLA only; 0 for all of it.
    pub latent_share: f64,
    /// The engine runs its portable kernels (Triton and PyTorch) where the chip vendor's tuned
    /// library would serve (`PORTABLE_DECODE`, `PORTABLE_PREFILL`): engines serving DeepSeek on
    /// AMD chips before AITER (early 2025).
    pub portable_kernels: bool,
    /// Each step runs as one batch, with no second micro-batch whose compute hides the expert
    /// exchange (SGLang without `--enable-two-batch-overlap`, vLLM without `--enable-dbo`):
    /// the exchange of data-parallel attention with experts is exposed whole.
    pub single_batch: bool,
    /// Bytes of each chip's weights held in the host's memory and copied in over the host link
    /// at every forward pass (vLLM's and SGLang's `--cpu-offload-gb`): the HBM they free
    /// holds cache; 0 for none.
    pub offload_bytes: f64,
    /// The outputs' standard deviation over their mean: 0 for requests of one length.
    pub output_spread: f64,
    /// Tokens one attention rank runs in a step at most, its decodes' included (vLLM's
    /// `max_num_batched_tokens`, SGLang's `chunked_prefill_size`, TensorRT-LLM's
    /// `max_num_tokens`): a prefill round's size; 0 for `PREFILL_CHUNK`.
    pub max_tokens: f64,
    /// Prefill and decode instances a disaggregated deployment fixes together (DeepSeek's
    /// and SGLang's published `xPyD`: x prefill instances beside y decode ones); 0 for each
    /// in the ratio of their capacities.
    pub prefill_instances: u32,
    pub decode_instances: u32,
    /// Clients of a closed loop, each sending its next request when its last one has ended (a
    /// benchmark at a fixed concurrency), spread evenly over the instances the cluster holds;
    /// 0 for requests arriving at random at `requests_per_s`.
    pub concurrency: u32,
}

/// A fitted share inside `SHARE_RANGE`, or all of it (1) when unset (0 or less).
fn share_or_all(share: f64) -> f64 {
    if share > 0.0 {
        share.clamp(SHARE_RANGE.0, SHARE_RANGE.1)
    } else {
        1.0
    }
}

impl Serving {
    /// Tokens one attention rank runs in a step at most (`max_tokens`, `PREFILL_CHUNK` when
    /// unset).
    pub fn chunk(&self) -> f64 {
        if self.max_tokens >= 1.0 {
            self.max_tokens
        } else {
            PREFILL_CHUNK
        }
    }

    /// The prefill and decode instances of a unit when disaggregated serving fixes them.
    pub fn pools(&self) -> Option<(f64, f64)> {
        (self.disaggregated && (self.prefill_instances > 0 || self.decode_instances > 0))
            .then(|| (self.prefill_instances.max(1) as f64, self.decode_instances.max(1) as f64))
    }

    /// The share of the chip's fitted speed serving reaches (`kernel_share`, 1 when unset).
    pub fn share(&self) -> f64 {
        share_or_all(self.kernel_share)
    }

    /// The format attention's projection weights are read and multiplied in
    /// (`attention_weights`, `weights` when unset).
    pub fn attention(&self) -> Precision {
        self.attention_weights.unwrap_or(self.weights)
    }

    /// The output a sequence in a running batch has in all, on average: longer outputs stay
    /// longer, so a batch holds them in proportion to their length, `E[O²] / E[O]`, the mean
    /// times `1 + spread²`.
    pub fn resident_output(&self) -> f64 {
        let spread =
            if self.output_spread.is_finite() { self.output_spread.clamp(0.0, 10.0) } else { 0.0 };
        self.output_tokens.max(1.0) * (1.0 + spread * spread)
    }

    /// The share of `share` latent attention's kernels reach (`latent_share`, 1 when unset).
    pub fn latent(&self) -> f64 {
        share_or_all(self.latent_share)
    }

    /// The share of `share` the routed experts' kernels reach (`expert_share`, 1 when unset).
    pub fn expert(&self) -> f64 {
        share_or_all(self.expert_share)
    }

    /// Tokens a decode step emits per sequence: 1 without drafts, the published acceptance
    /// length, or `1 + a (1 + c + c² …)` over the draft tokens, the first accepted at
    /// `DRAFT_ACCEPTANCE` and each further one at `DRAFT_CHAIN` of the one before.
    pub fn tokens_per_step(&self) -> f64 {
        let k = self.draft_tokens.min(64);
        if k == 0 {
            1.0
        } else if self.acceptance_length >= 1.0 {
            self.acceptance_length.min(k as f64 + 1.0)
        } else {
            let chained: f64 = (0..k).map(|i| DRAFT_CHAIN.powi(i as i32)).sum();
            1.0 + DRAFT_ACCEPTANCE * chained
        }
    }
}

/// Parts of one decode step at a batch; they sum to the step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DecodeStep {
    /// Reading the weights, where that bounds the GEMMs.
    pub weights_s: f64,
    /// Reading the KV cache, where that bounds attention.
    pub kv_cache_s: f64,
    /// GEMMs and attention bound by the tensor units.
    pub compute_s: f64,
    /// Tensor-parallel all-reduces.
    pub tp_s: f64,
    /// The expert exchange not hidden behind the other micro-batch.
    pub ep_s: f64,
    /// The host's work and the small kernels of each layer.
    pub host_s: f64,
    /// The memory-bound kernels between the GEMMs: norms, residual additions and the
    /// activation function, each reading and writing its tokens' activations.
    pub activation_traffic_s: f64,
    /// Copying the weights held in the host's memory in over the host link.
    pub offload_copy_s: f64,
}

impl DecodeStep {
    /// The step, seconds.
    pub fn total(&self) -> f64 {
        self.weights_s
            + self.kv_cache_s
            + self.compute_s
            + self.tp_s
            + self.ep_s
            + self.host_s
            + self.activation_traffic_s
            + self.offload_copy_s
    }

    /// Every part `by` times as long.
    fn scaled(self, by: f64) -> DecodeStep {
        DecodeStep {
            weights_s: self.weights_s * by,
            kv_cache_s: self.kv_cache_s * by,
            compute_s: self.compute_s * by,
            tp_s: self.tp_s * by,
            ep_s: self.ep_s * by,
            host_s: self.host_s * by,
            activation_traffic_s: self.activation_traffic_s * by,
            offload_copy_s: self.offload_copy_s * by,
        }
    }

    /// The parts with their ids (worded as `part.<id>`).
    pub fn parts(&self) -> [(&'static str, f64); 8] {
        [
            ("weights_read", self.weights_s),
            ("offload_copy", self.offload_copy_s),
            ("kv_cache_read", self.kv_cache_s),
            ("compute", self.compute_s),
            ("activation_traffic", self.activation_traffic_s),
            ("tp_comm", self.tp_s),
            ("ep_comm", self.ep_s),
            ("host", self.host_s),
        ]
    }
}

/// One point of the serving frontier: a batch, the time between its tokens and what a chip
/// generates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrontierPoint {
    /// Sequences an instance decodes at once.
    pub batch: u32,
    /// Time per output token at that batch, seconds.
    pub tpot_s: f64,
    /// Output tokens per second per chip at that batch.
    pub tokens_per_s_per_chip: f64,
}

/// Why a deployment cannot serve as asked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Problem {
    /// An instance's weights do not leave room for one sequence's cache.
    DoesNotFit { need_bytes: f64, have_bytes: f64 },
    /// The expert degree does not divide the instance, or the experts.
    ExpertsDoNotDivide { ep: u32, chips: u32 },
    /// Even one sequence decodes slower than the target.
    TpotUnreachable { best_s: f64, target_s: f64 },
    /// The first token comes later than the target even on an idle instance.
    TtftUnreachable { best_s: f64, target_s: f64 },
    /// The first token comes later than the target at the planned load, though an idle
    /// instance meets it: the queue for prefill is too long. `busy_at_most` is the share of
    /// its time the prefilling instance may be busy for the target to hold, and `chips` what
    /// the load then takes.
    TtftAtLoad { ttft_s: f64, target_s: f64, busy: f64, busy_at_most: f64, chips: u64 },
    /// The load needs more chips than the cluster has.
    TooFewChips { need: u64, have: u32 },
}

/// What serving costs and delivers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServingEstimate {
    /// The instance decoding (the only one when not disaggregated).
    pub decode: Deployment,
    /// The instance prefilling.
    pub prefill: Deployment,
    /// Weights on each chip of the decode instance, bytes.
    pub weight_bytes_per_chip: f64,
    /// The KV cache of one token on each chip, bytes.
    pub kv_bytes_per_token: f64,
    /// Most sequences the decode instance's cache holds at full length.
    pub max_batch: u32,
    /// The batch run: the largest that meets the targets.
    pub batch: u32,
    /// One prefill round of every attention rank's chunk, seconds.
    pub prefill_round_s: f64,
    /// The decode step at `batch`, in parts.
    pub step: DecodeStep,
    /// Time to the first token at the planned load, seconds: the prompt's rounds, its wait
    /// behind the prompts before it at `busy`, and the step or the hand-off after them.
    pub ttft_s: f64,
    /// Share of its time the instance a prompt queues for (the prefill instance when apart)
    /// is busy at the planned load: the load over the capacity of the instances sized for it,
    /// or `Serving::utilisation` when no load is given.
    pub busy: f64,
    /// Time to the first token at the planned load, seconds: its median and 99th percentile.
    pub ttft_p50_s: f64,
    pub ttft_p99_s: f64,
    /// Time per output token at the planned load, seconds (its median).
    pub tpot_s: f64,
    /// Its 99th percentile (`TPOT_TAIL` over the median).
    pub tpot_p99_s: f64,
    /// The busy share the load is planned at: the one asked, or the busiest whose 99th
    /// percentile time to first token meets the target.
    pub utilisation: f64,
    /// Tokens a decode step emits per sequence (`Serving::tokens_per_step`).
    pub tokens_per_step: f64,
    /// Output tokens a second per megawatt the serving chips draw at the site, at the planned
    /// load.
    pub tokens_per_s_per_mw: f64,
    /// Energy of the site per output token at the planned load, joules (the prompt's share
    /// included).
    pub joules_per_token: f64,
    /// Prompt tokens per second per chip at the targets.
    pub prefill_tokens_per_s_per_chip: f64,
    /// Output tokens per second per chip at the targets.
    pub decode_tokens_per_s_per_chip: f64,
    /// The same at the planned load (`Serving::utilisation` of it): what each chip delivers.
    pub decode_tokens_per_s_per_chip_at_load: f64,
    /// Prompt tokens per second per chip of a prefill instance doing nothing else.
    pub prefill_pool_tokens_per_s_per_chip: f64,
    /// Output tokens per second per chip of a decode instance doing nothing else, at `batch`.
    pub decode_pool_tokens_per_s_per_chip: f64,
    /// Requests per second one deployment unit serves at the targets, at full load.
    pub requests_per_s_per_unit: f64,
    /// Prefill instances for the load.
    pub prefill_instances: u64,
    /// Decode instances for the load (all of them when not disaggregated).
    pub decode_instances: u64,
    /// Chips the load needs.
    pub chips_needed: u64,
    /// Prompt tokens per second those chips take in at the targets.
    pub prefill_tokens_per_s: f64,
    /// Output tokens per second those chips generate at the targets.
    pub decode_tokens_per_s: f64,
    /// Amortised price of a million prompt tokens at the planned load, USD.
    pub usd_per_million_input_tokens: f64,
    /// Amortised price of a million output tokens at the planned load, USD.
    pub usd_per_million_output_tokens: f64,
    /// The same on rented chips.
    pub cloud_usd_per_million_input_tokens: f64,
    pub cloud_usd_per_million_output_tokens: f64,
    /// What the serving chips draw at the site, their share of the site, watts.
    pub power_w: f64,
    /// Chips of the cluster left to train.
    pub chips_left: u64,
    /// What the serving chips cost a day, amortised, and what the chips left to train cost.
    pub usd_per_day: f64,
    pub training_usd_per_day: f64,
    /// Throughput against latency over batches, by batch.
    pub frontier: Vec<FrontierPoint>,
    /// No problem.
    pub feasible: bool,
    pub problems: Vec<Problem>,
    /// What the estimate assumes that the deployment may not expect.
    pub notes: Vec<Note>,
}

/// Something serving assumes that the user may not expect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Note {
    /// Occurs when the weights are in a format the chip has no tensor units for: they keep
    /// their size in memory, and GEMMs run at the rate of `runs_at` after dequantisation.
    NoUnits { weights: Precision, runs_at: Precision },
}

/// The format GEMMs on `weights` run in on `chip`: their own where it has the units, else the
/// next wider one it has (FP4 on FP8 units, either on BF16).
pub fn runs_at(weights: Precision, chip: &Chip) -> Precision {
    match weights {
        Precision::Fp4 if chip.fp4_flops_per_s > 0.0 => Precision::Fp4,
        Precision::Fp4 | Precision::Fp8 if chip.fp8_flops_per_s > 0.0 => Precision::Fp8,
        _ => Precision::Bf16,
    }
}

/// What one chip-second costs: amortised and rented, USD.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prices {
    pub usd_per_chip_s: f64,
    pub cloud_usd_per_chip_s: f64,
    /// Site power per chip, watts.
    pub site_w_per_chip: f64,
}

impl Prices {
    /// A chip-second of the cluster as `estimate` builds and prices it: the amortised cost of
    /// a day of the site and the cloud's rate, each over its chips.
    pub fn of(inputs: &crate::model::Inputs, estimate: &crate::model::Estimate) -> Prices {
        let chips = inputs.cluster.n_chips.max(1) as f64;
        Prices {
            usd_per_chip_s: finite(estimate.facility.cost.per_day_usd / 86_400.0 / chips),
            cloud_usd_per_chip_s: finite(inputs.plant.facility.cloud_usd_per_chip_hour / 3600.0),
            site_w_per_chip: finite(estimate.facility.power.facility_w / chips),
        }
    }
}

/// Parameters outside the routed experts, and those inside, multi-token-prediction modules
/// aside (they serve only speculative decoding).
fn split_params(t: &Transformer) -> (f64, f64) {
    let routed = t.n_moe_layers() as f64 * t.routed_expert_params();
    let all = t.params() - t.mtp_layers as f64 * t.mtp_params();
    ((all - routed).max(0.0), routed)
}

/// Layers with attention.
fn attention_layers(t: &Transformer) -> f64 {
    (t.n_layers as f64 * t.attention_share()).round()
}

/// The KV cache of one token on one chip of a `tp`-wide attention group, bytes: MLA's latent
/// and rotary key (the same on every rank), or each rank's share of the key and value heads
/// (at least one head: heads fewer than ranks are copied).
pub fn kv_bytes_per_token(t: &Transformer, tp: u32, kv: Precision) -> f64 {
    let per_layer = match t.mla {
        Some(m) => (m.kv_lora_rank + m.rope_head_dim) as f64,
        None => {
            let heads = t.n_kv_heads.max(1).div_ceil(tp.max(1)) as f64;
            2.0 * heads * t.head_dim as f64
        }
    };
    attention_layers(t) * per_layer * kv.bytes()
}

/// The model as one step of serving sees it, derived once.
struct Shape {
    n: f64,
    tp: u32,
    dp: f64,
    ep: u32,
    /// Chips of one expert group (`ep x etp` of them hold every expert once).
    expert_chips: f64,
    /// Kernels of a step too small to fill the chip, over all layers.
    small_kernels: f64,
    layers: f64,
    attention_layers: f64,
    moe_layers: f64,
    hidden: f64,
    /// Weights read whatever the batch, per chip (the input embedding's lookup aside).
    dense_params: f64,
    /// Of those, attention's projections, per chip, and the bytes and tensor rate they are
    /// read and multiplied at (`Serving::attention`).
    attention_params: f64,
    attention_weight_bytes: f64,
    attention_linear_peak: f64,
    /// Routed weights held per chip.
    expert_params: f64,
    /// The natural log of the share of a chip's experts one routed token leaves untouched
    /// (`1 - top_k / experts`), and the experts one token touches.
    miss_ln: f64,
    top_k: f64,
    /// Parameters of one routed expert.
    one_expert: f64,
    /// Width the attention scores multiply through per token and cached position, per chip,
    /// in decode (MLA absorbed into its latent) and in prefill.
    decode_score_width: f64,
    prefill_score_width: f64,
    kv_per_token: f64,
    weight_bytes: f64,
    /// The output head's weights per chip (a draft token's last GEMM, a prompt's last token's).
    head_params: f64,
    /// Bytes the memory-bound kernels between the GEMMs move for one token on each chip of
    /// its attention rank (`Shape::activation_bytes`), and for one routed copy of a token
    /// through one expert's activation function.
    activation_bytes: f64,
    expert_activation_bytes: f64,
    /// Tensor rates GEMMs reach, FLOP/s: outside the experts, in them (narrower, so slower:
    /// `efficiency::depth_share`), and in attention.
    linear_peak: f64,
    expert_peak: f64,
    attention_peak: f64,
    /// The same in prefill, where the softmax's exponentials may bound it first.
    prefill_attention_peak: f64,
    /// The busiest expert rank's tokens over the mean (`Moe::load`).
    imbalance: f64,
    /// Remote domains a token's experts may sit in (`Moe::node_limit`).
    node_limit: Option<u32>,
    /// A decode step's expert exchange per MoE layer, seconds a token of a rank and fixed
    /// (`Shape::with_exchange`): DeepEP's low-latency exchange is linear in the tokens.
    exchange: (f64, f64),
    /// Micro-batches that may overlap the expert exchange with each other's compute (two with
    /// DP attention and wide experts, DeepSeek-V3 §3.4; each reads the weights).
    micro_batches: f64,
    bandwidth: f64,
    /// The bandwidth the routed experts' kernels stream their weights at.
    expert_bandwidth: f64,
    /// The bandwidth decode attention streams the cache at.
    attention_bandwidth: f64,
    /// The model's attention window, for what its attention layers hold and attend to.
    window: Option<crate::model::Window>,
    /// Bytes of weights each chip holds, and of those the host's memory holds
    /// (`Serving::offload_bytes`, at most all of them).
    held_bytes: f64,
    offloaded_bytes: f64,
    /// Copying the offloaded weights in over the host link, seconds a forward pass.
    offload_copy_s: f64,
    /// A decode step's and a prefill round's time over the tuned kernels' (1 and 1 on them;
    /// `PORTABLE_DECODE` and `PORTABLE_PREFILL` on portable kernels).
    slower: (f64, f64),
}

/// The speed the GEMMs outside the experts reach relative to the chip's fitted speed, weighted
/// by the weights each reads (`efficiency::depth_share`, as training prices its GEMMs): the
/// projections into attention and the feed-forward blocks contract the model's width, those out
/// of them contract their widths split `tp` ways, so tensor parallelism and narrow models run
/// their GEMMs shallower. `dense` is the weights per chip outside the experts.
pub fn dense_depth_share(t: &Transformer, tp: u32, dense: f64) -> f64 {
    let tp = tp.max(1) as f64;
    let h = t.hidden as f64;
    let out = attention_layers(t) * t.out_dim() * h / tp;
    let matrices = t.ffn_kind.n_matrices().max(1.0);
    let dense_layers = (t.n_layers as f64 - t.n_moe_layers() as f64).max(0.0);
    let shared_width = t.moe.map_or(0.0, |m| m.n_shared_experts as f64 * m.expert_ffn as f64);
    let downs = [
        (dense_layers * t.ffn_params(t.ffn as f64) / tp / matrices, t.ffn as f64 / tp),
        (t.n_moe_layers() as f64 * t.shared_expert_params() / tp / matrices, shared_width / tp),
    ];
    let narrow = out + downs[0].0 + downs[1].0;
    let inward = (dense - narrow).max(0.0);
    let time = inward / efficiency::depth_share(h)
        + out / efficiency::depth_share(t.out_dim() / tp)
        + downs.iter().fold(0.0, |sum, (p, k)| sum + p / efficiency::depth_share(*k));
    if time > 0.0 && dense > 0.0 {
        (dense.max(narrow) / time).clamp(0.05, 1.0)
    } else {
        1.0
    }
}

impl Shape {
    fn of(t: &Transformer, chip: &Chip, d: Deployment, s: &Serving, kernel: f64) -> Shape {
        let (shared, routed) = split_params(t);
        let tp = d.tp.max(1);
        let ep = d.ep.max(1);
        let etp = d.etp.max(1);
        let lookup = t.vocab as f64 * t.hidden as f64;
        let (experts, top_k, expert_ffn) =
            t.moe.map_or((1, 0, 0), |m| (m.n_experts, m.top_k, m.expert_ffn));
        let heads = t.n_heads as f64 / tp as f64;
        let decode_score_width = match t.mla {
            Some(m) => heads * (2.0 * m.kv_lora_rank as f64 + m.rope_head_dim as f64) / 2.0,
            None => t.score_width() / tp as f64,
        };
        // Serving's kernels reach their engine's share of the chip's fitted speed, never more
        // than the chip's peak.
        let share = s.share();
        let kernel = (kernel * share).min(1.0);
        let latent = if t.mla.is_some() { s.latent() } else { 1.0 };
        let dense_params =
            (shared - if t.tied_embeddings { 0.0 } else { lookup }).max(0.0) / tp as f64;
        let depth = dense_depth_share(t, tp, dense_params);
        let linear_peak = s.weights.peak(chip) * kernel * s.weights.gemm_relative(chip) * depth;
        let attention_format = s.attention();
        let attention_linear_peak =
            attention_format.peak(chip) * kernel * attention_format.gemm_relative(chip) * depth;
        let attention_peak =
            chip.bf16_flops_per_s.max(1.0) * kernel * latent * efficiency::FLASH_FWD_RELATIVE;
        // A prefill pair's exponential against its `2 (qk + v)` FLOPs (`Chip::exp_per_s`), at
        // the share of their peak the kernel's matrix products reach.
        let exp_bound = chip.exp_per_s
            * kernel
            * latent
            * efficiency::FLASH_FWD_RELATIVE
            * 2.0
            * (t.qk_head_dim() + t.v_head_dim());
        let prefill_attention_peak =
            if exp_bound > 0.0 { attention_peak.min(exp_bound) } else { attention_peak };
        let expert_params =
            routed * (experts.max(1).div_ceil(ep) as f64 / experts.max(1) as f64) / etp as f64;
        let attention_params =
            (attention_layers(t) * t.attention_params() / tp as f64).clamp(0.0, dense_params);
        let held_bytes = (shared / tp as f64 - attention_params + expert_params).max(0.0)
            * s.weights.bytes()
            + attention_params * attention_format.bytes();
        let offloaded_bytes =
            if s.offload_bytes > 0.0 { s.offload_bytes.min(held_bytes) } else { 0.0 };
        Shape {
            n: d.chips() as f64,
            tp,
            dp: d.dp.max(1) as f64,
            ep,
            expert_chips: (ep as f64 * etp as f64).min(d.chips() as f64),
            small_kernels: SMALL_KERNELS_PER_LAYER * t.n_layers as f64
                + if t.mla.is_some() { MLA_KERNELS_PER_LAYER * attention_layers(t) } else { 0.0 }
                + MOE_KERNELS_PER_LAYER * t.n_moe_layers() as f64,
            window: t.window,
            layers: t.n_layers as f64,
            attention_layers: attention_layers(t),
            moe_layers: t.n_moe_layers() as f64,
            hidden: t.hidden as f64,
            dense_params,
            attention_params,
            attention_weight_bytes: attention_format.bytes(),
            attention_linear_peak,
            // Each chip holds as many experts as the most any holds, split `etp` ways.
            expert_params,
            miss_ln: (1.0 - (top_k as f64 / experts.max(1) as f64).min(1.0)).max(0.0).ln(),
            top_k: top_k as f64,
            one_expert: t.ffn_params(expert_ffn as f64),
            decode_score_width,
            prefill_score_width: t.score_width() / tp as f64,
            kv_per_token: kv_bytes_per_token(t, tp, s.kv_cache),
            weight_bytes: s.weights.bytes(),
            head_params: lookup / tp as f64,
            activation_bytes: Shape::activation_bytes(t, tp),
            expert_activation_bytes: t.ffn_kind.activation_bytes() * expert_ffn as f64,
            linear_peak,
            expert_peak: linear_peak / depth
                * (efficiency::depth_share(t.hidden as f64)
                    + efficiency::depth_share(expert_ffn as f64))
                / 2.0,
            attention_peak,
            prefill_attention_peak,
            imbalance: t.moe.map_or(1.0, |m| m.load()),
            node_limit: t.moe.and_then(|m| m.node_limit),
            micro_batches: if d.dp > 1 && ep > 1 && t.moe.is_some() && !s.single_batch {
                2.0
            } else {
                1.0
            },
            exchange: (0.0, 0.0),
            bandwidth: (chip.hbm_bytes_per_s * (chip.memory_efficiency * share).clamp(0.05, 1.0))
                .max(1.0),
            attention_bandwidth: (chip.hbm_bytes_per_s
                * (chip.memory_efficiency * share * latent).clamp(0.05, 1.0))
            .max(1.0),
            expert_bandwidth: (chip.hbm_bytes_per_s
                * (chip.memory_efficiency * share * s.expert()).clamp(0.05, 1.0))
            .max(1.0),
            held_bytes,
            offloaded_bytes,
            // Each forward pass copies them in layer by layer before their GEMMs read them,
            // in the compute's stream (vLLM's `--cpu-offload-gb` moves a layer's offloaded
            // tensors to the device inside its forward call), so the copy is not hidden.
            offload_copy_s: offloaded_bytes / chip.host_bytes_per_s.max(1.0),
            slower: if s.portable_kernels {
                (PORTABLE_DECODE, PORTABLE_PREFILL)
            } else {
                (1.0, 1.0)
            },
        }
    }

    /// The shape with its decode exchange measured once on `links`, so each step at a batch
    /// only scales it.
    fn with_exchange(mut self, links: &Links) -> Shape {
        if self.dp > 1.0 && self.ep > 1 && self.moe_layers > 0.0 {
            let one = links.expert_exchange(1.0, &self, false);
            let slope = links.expert_exchange(2.0, &self, false) - one;
            self.exchange = (slope, one - slope);
        }
        self
    }

    /// Bytes the kernels between a layer's GEMMs move for one token on one chip, as the training
    /// model prices their forward pass (`step_time::ops`): two norms and two residual additions
    /// over the model's width on every tensor rank, the dense feed-forward blocks' and shared
    /// experts' activation functions over their share of the width, and latent attention's
    /// norms on its two latents. Summed over the layers.
    fn activation_bytes(t: &Transformer, tp: u32) -> f64 {
        let h = t.hidden as f64;
        let around = t.n_layers as f64
            * 2.0
            * (efficiency::NORM_BYTES_PER_ELEMENT + efficiency::RESIDUAL_BYTES_PER_ELEMENT)
            * h;
        let dense_layers = (t.n_layers as f64 - t.n_moe_layers() as f64).max(0.0);
        let shared = t.moe.map_or(0.0, |m| m.n_shared_experts as f64 * m.expert_ffn as f64);
        let widths =
            dense_layers * t.dense_ffn_share() * t.ffn as f64 + t.n_moe_layers() as f64 * shared;
        let latent = t.mla.map_or(0.0, |m| {
            attention_layers(t)
                * efficiency::NORM_BYTES_PER_ELEMENT
                * (m.q_lora_rank + m.kv_lora_rank) as f64
        });
        around + t.ffn_kind.activation_bytes() * widths / tp.max(1) as f64 + latent
    }

    /// Seconds the kernels between the GEMMs take on the busiest chip when each attention rank
    /// passes `tokens` tokens and the instance routes `routed` tokens to its experts.
    fn activation_traffic_s(&self, tokens: f64, routed: f64) -> f64 {
        let experts = if self.moe_layers > 0.0 {
            routed * self.top_k * self.imbalance * self.moe_layers * self.expert_activation_bytes
                / self.n
        } else {
            0.0
        };
        (tokens * self.activation_bytes + experts) / self.bandwidth
    }

    /// Bytes of the weights outside the experts one chip reads, attention's at their format.
    fn dense_bytes(&self) -> f64 {
        (self.dense_params - self.attention_params) * self.weight_bytes
            + self.attention_params * self.attention_weight_bytes
    }

    /// Seconds of tensor work `tokens` tokens take through the weights outside the experts,
    /// attention's at their format's rate.
    fn dense_flops_s(&self, tokens: f64) -> f64 {
        2.0 * tokens
            * ((self.dense_params - self.attention_params) / self.linear_peak
                + self.attention_params / self.attention_linear_peak)
    }

    /// Share of one chip's experts that `tokens` routed tokens of its expert group touch.
    /// `1 - miss^tokens`, with the log of `miss` taken once per shape, where every step asks.
    fn touched(&self, tokens: f64) -> f64 {
        if self.expert_params <= 0.0 || !(tokens > 0.0) {
            return 0.0;
        }
        -(tokens * self.miss_ln).exp_m1()
    }
}

/// How the cluster's links carry one instance's collectives.
struct Links<'a> {
    cluster: &'a Cluster,
}

impl Links<'_> {
    fn collective(&self, kind: Collective, bytes: f64, size: u32) -> f64 {
        let c = self.cluster;
        let group = Group::place(size, 1, c.rank_domain());
        collective_s(kind, bytes, group, &c.scale_up, &c.scale_out_for(group.span), &c.network)
    }

    /// An expert exchange of `tokens` tokens a rank over `ep` chips, dispatched in FP8 and
    /// combined in BF16 with DeepEP's kernels, which every engine serving with wide expert
    /// parallelism runs: prefill's (`forwarded`) send each token once to each domain holding
    /// its experts and forward it inside; decode's low-latency kernels send every routed copy
    /// over RDMA on its own (deepseek-ai/DeepEP README).
    fn expert_exchange(&self, tokens: f64, shape: &Shape, forwarded: bool) -> f64 {
        let c = self.cluster;
        let group = Group::place(shape.ep, 1, c.rank_domain());
        let top_k = shape.top_k * shape.imbalance;
        let (inside, outside) = expert_copies(top_k, group, forwarded, shape.node_limit);
        let link = c.scale_out_for(group.span);
        let per_domain = group.per_domain as f64;
        [1.0, 2.0]
            .iter()
            .map(|bytes| {
                let unit = tokens * shape.hidden * bytes;
                let forwarded = rail_forwarded(&c.network, unit * outside, per_domain);
                all_to_all_s(unit * inside + forwarded, unit * outside, group, &c.scale_up, &link)
            })
            .sum()
    }
}

/// `kernels` launches sharing `bytes_s` of reading and `flops_s` of tensor work, each as long
/// as the slower of the two with its tail: a GEMM's waves (`efficiency::kernel_s`) on the
/// tensor units' time, a launch's on the memory's (as long as the stream below
/// `efficiency::KERNEL_FLOOR_S`, that long above). Both grow
/// with the work and never faster than it, so a larger batch never makes a token dearer.
/// Returns the seconds bound by memory and those bound by compute.
fn kernels(bytes_s: f64, flops_s: f64, kernels: f64) -> (f64, f64) {
    let k = kernels.max(1.0);
    let streamed = bytes_s / k;
    let floor = efficiency::KERNEL_FLOOR_S;
    let memory = k * (streamed + floor * streamed / (streamed + floor));
    // A kernel takes at most its ideal time and one tail (`efficiency::kernel_s`): memory at
    // or past that needs no exponential to win.
    if memory >= k * ((flops_s / k).max(0.0) + efficiency::GEMM_TAIL_S) {
        return (memory, 0.0);
    }
    let compute = k * efficiency::kernel_s(flops_s / k);
    if memory >= compute {
        (memory, 0.0)
    } else {
        (0.0, compute)
    }
}

/// GEMM launches of a layer outside its experts: the query-key-value and output projections
/// and the feed-forward block's two (or its shared experts').
const DENSE_GEMMS_PER_LAYER: f64 = 4.0;

/// Kernels of a layer too small to fill the chip, each `efficiency::KERNEL_FLOOR_S` long: two
/// norms, the rotary embedding with the cache write, the activation and the router's top-k.
const SMALL_KERNELS_PER_LAYER: f64 = 5.0;

/// Kernels latent attention adds to a layer: the query's two projections and the key-value
/// down-projection in place of one, a norm on each latent, and the two batched GEMMs that
/// absorb the up-projections into the query and the output (DeepSeek-V3's released inference
/// code, `MLA.forward`, absorb path).
const MLA_KERNELS_PER_LAYER: f64 = 6.0;

/// Kernels routed experts add to a layer beside the feed-forward block they replace: the
/// router's GEMM, the top-k, the tokens' permutation to their experts and its inverse with
/// the weighted sum (vLLM's and SGLang's `fused_moe`: `fused_topk`, `moe_align_block_size`,
/// the two grouped GEMMs, `moe_sum`).
const MOE_KERNELS_PER_LAYER: f64 = 4.0;

/// One decode step of an instance running `batch` sequences at a mean cached context of
/// `context` tokens, each verifying `queries` tokens (one, or the draft tokens and one with
/// speculative decoding: the weights and the cache are read once for all of them).
fn decode_step(shape: &Shape, links: &Links, batch: f64, context: f64, queries: f64) -> DecodeStep {
    let s = shape;
    let b = batch / s.dp; // sequences of one attention rank
    let q = queries.max(1.0);
    // Attention: the cache of every sequence read, its scores computed for every query; a
    // windowed layer holds and reads its window only.
    let cached = s.window.map_or(context, |w| w.cached_tokens(context));
    let (kv, c3) = kernels(
        b * cached * s.kv_per_token / s.attention_bandwidth,
        4.0 * b * q * cached * s.decode_score_width * s.attention_layers / s.attention_peak,
        s.attention_layers,
    );
    let tp_s =
        2.0 * s.layers * links.collective(Collective::AllReduce, b * q * s.hidden * 2.0, s.tp);
    // DP attention: each MoE layer dispatches every token's hidden state to its experts in FP8
    // and combines their outputs in BF16; the other micro-batch's compute hides it (DeepSeek-V3
    // §3.4's two-micro-batch overlap, SGLang's two-batch overlap), slowed by the exchange's
    // kernels beside it (`efficiency::overlapped`).
    let exchange = if s.dp > 1.0 && s.ep > 1 && s.moe_layers > 0.0 {
        s.moe_layers * (s.exchange.0 * b * q + s.exchange.1)
    } else {
        0.0
    };
    let host_s = HOST_STEP_S + s.small_kernels * efficiency::KERNEL_FLOOR_S;
    // The GEMMs in `m` micro-batches, each reading the weights it touches.
    let in_micro_batches = |m: f64| {
        // Outside the experts: every weight read, b tokens through them.
        let (w1, c1) = kernels(
            m * s.dense_bytes() / s.bandwidth,
            s.dense_flops_s(b * q),
            m * DENSE_GEMMS_PER_LAYER * s.layers,
        );
        // Routed experts: those each micro-batch touches read, the busiest chip's share of the
        // routed tokens.
        let (w2, c2) = if s.moe_layers > 0.0 {
            let tokens = batch * q * s.expert_chips / s.n / m;
            kernels(
                m * s.expert_params * s.touched(tokens) * s.weight_bytes / s.expert_bandwidth,
                2.0 * batch * q * s.top_k * s.imbalance * s.one_expert * s.moe_layers
                    / s.n
                    / s.expert_peak,
                m * 2.0 * s.moe_layers,
            )
        } else {
            (0.0, 0.0)
        };
        let ep_s = if m > 1.0 {
            efficiency::overlapped(exchange, w1 + c1 + w2 + c2 + kv + c3)
        } else {
            exchange
        };
        DecodeStep {
            weights_s: w1 + w2,
            kv_cache_s: kv,
            compute_s: c1 + c2 + c3,
            tp_s,
            ep_s,
            host_s,
            activation_traffic_s: s.activation_traffic_s(b * q, batch * q),
            offload_copy_s: s.offload_copy_s,
        }
    };
    // Two micro-batches where they are faster: their overlap hides the expert exchange but
    // reads the weights twice, so engines turn it on for large batches.
    let one = in_micro_batches(1.0);
    let step = if s.micro_batches > 1.0 && exchange > 0.0 {
        let two = in_micro_batches(s.micro_batches);
        if two.total() < one.total() {
            two
        } else {
            one
        }
    } else {
        one
    };
    if s.slower.0 == 1.0 {
        step
    } else {
        step.scaled(s.slower.0)
    }
}

/// One prefill round of `chunk` new tokens on each of `ranks` attention ranks (the others
/// idle), from prompts of `prompt` tokens, seconds. `riding` in a decode step, the round adds
/// its work alone: the step reads the weights and is launched anyway.
fn prefill_round(
    shape: &Shape,
    links: &Links,
    prompt: f64,
    chunk: f64,
    ranks: f64,
    riding: bool,
) -> f64 {
    let s = shape;
    let chunk = chunk.max(1.0);
    let tokens = chunk * ranks.clamp(1.0, s.dp);
    let read = if riding { 0.0 } else { 1.0 };
    // Only a prompt's last token goes through the output head.
    let headless = chunk * (1.0 - 1.0 / prompt.max(1.0));
    let (w1, c1) = kernels(
        read * s.dense_bytes() / s.bandwidth,
        (s.dense_flops_s(chunk) - 2.0 * headless * s.head_params / s.linear_peak).max(0.0),
        DENSE_GEMMS_PER_LAYER * s.layers,
    );
    let (w2, c2) = if s.moe_layers > 0.0 {
        kernels(
            read * s.expert_params * s.touched(tokens * s.expert_chips / s.n) * s.weight_bytes
                / s.expert_bandwidth,
            2.0 * tokens * s.top_k * s.imbalance * s.one_expert * s.moe_layers
                / s.n
                / s.expert_peak,
            2.0 * s.moe_layers,
        )
    } else {
        (0.0, 0.0)
    };
    // Causal attention over a prompt: a token attends to half of it on average, or to its
    // window's share in a windowed layer (`Window::mean_attended`).
    let attention = s.attention_layers
        * efficiency::kernel_s(
            4.0 * chunk
                * s.window.map_or(prompt / 2.0, |w| w.mean_attended(prompt))
                * s.prefill_score_width
                / s.prefill_attention_peak,
        );
    let busy = w1 + c1 + w2 + c2 + attention + s.activation_traffic_s(chunk, tokens);
    let tp = 2.0 * s.layers * links.collective(Collective::AllReduce, chunk * s.hidden * 2.0, s.tp);
    let ep = if s.dp > 1.0 && s.ep > 1 && s.moe_layers > 0.0 {
        let exchange = s.moe_layers * links.expert_exchange(chunk, s, true);
        if s.micro_batches > 1.0 {
            efficiency::overlapped(exchange, busy)
        } else {
            exchange
        }
    } else {
        0.0
    };
    s.slower.1
        * (busy
            + tp
            + ep
            + read
                * (HOST_STEP_S + s.small_kernels * efficiency::KERNEL_FLOOR_S + s.offload_copy_s))
}

/// An instance's figures at one batch.
#[derive(Clone, Copy, Debug, Default)]
struct AtBatch {
    /// Sequences the instance decodes at once.
    batch: f64,
    step: DecodeStep,
    /// Time between tokens, prefill's share of the instance included.
    tpot_s: f64,
    /// Requests per second the instance completes at full load.
    requests_per_s: f64,
    /// Share of the instance's time spent prefilling.
    prefill_share: f64,
}

/// The serving model for one scenario, everything that does not depend on the batch derived
/// once.
struct Plan<'a> {
    serving: &'a Serving,
    decode: Shape,
    links: Links<'a>,
    /// Seconds one request's prompt takes of a prefill instance.
    prefill_s_per_request: f64,
    context: f64,
    /// Draft tokens a step and the tokens it emits per sequence.
    drafts: f64,
    emitted: f64,
}

impl Plan<'_> {
    fn at(&self, batch: u32) -> AtBatch {
        let s = self.serving;
        let batch = batch.max(1) as f64;
        let mut step =
            decode_step(&self.decode, &self.links, batch, self.context, 1.0 + self.drafts);
        if self.drafts > 0.0 {
            // Each draft token runs one more layer and the output head on the batch
            // (DeepSeek-V3's multi-token-prediction module, EAGLE's one-layer draft).
            let d = &self.decode;
            let layer = (step.total() - step.host_s).max(0.0) / d.layers.max(1.0);
            let (head, head_compute) = kernels(
                d.head_params * d.weight_bytes / d.bandwidth,
                2.0 * batch / d.dp * d.head_params / d.linear_peak,
                1.0,
            );
            step.compute_s += self.drafts * (layer + head_compute);
            step.weights_s += self.drafts * head;
        }
        let step_s = finite(step.total());
        let decode_per_request = s.output_tokens.max(1.0) / self.emitted * step_s / batch;
        if s.disaggregated {
            let requests_per_s =
                if decode_per_request > 0.0 { 1.0 / decode_per_request } else { 0.0 };
            let tpot_s = step_s / self.emitted;
            return AtBatch { batch, step, tpot_s, requests_per_s, prefill_share: 0.0 };
        }
        let prefill = self.prefill_s_per_request;
        let share = prefill / (prefill + decode_per_request).max(f64::MIN_POSITIVE);
        // Continuous batching interleaves prefill chunks with decode steps, so each token
        // waits for its share; a static batch prefills first and then decodes uninterrupted.
        let per_token = step_s / self.emitted;
        let tpot_s =
            if s.continuous_batching { per_token / (1.0 - share).max(0.01) } else { per_token };
        let requests_per_s = 1.0 / (prefill + decode_per_request).max(f64::MIN_POSITIVE);
        AtBatch {
            batch,
            step,
            tpot_s: finite(tpot_s),
            requests_per_s: finite(requests_per_s),
            prefill_share: share,
        }
    }
}

/// Serving as `inputs` ask it (`Inputs::serving`), on the cluster `estimate` builds and
/// prices; `None` when they ask none.
pub fn of(
    inputs: &crate::model::Inputs,
    estimate: &crate::model::Estimate,
) -> Option<ServingEstimate> {
    let s = inputs.serving?;
    let kernel = inputs.cluster.chip.matmul_efficiency;
    let prices = Prices::of(inputs, estimate);
    Some(self::estimate(&inputs.transformer, &inputs.cluster, &s, kernel, &prices))
}

/// Estimates serving on `cluster` for `serving`; `prices` from the site's estimate.
pub fn estimate(
    t: &Transformer,
    cluster: &Cluster,
    serving: &Serving,
    kernel_efficiency: f64,
    prices: &Prices,
) -> ServingEstimate {
    let s = serving;
    let chip = &cluster.chip;
    let mut problems = Vec::new();
    let decode_d = normalised(s.decode);
    let prefill_d = if s.disaggregated { normalised(s.prefill) } else { decode_d };
    for d in [decode_d, prefill_d] {
        // Experts need not divide evenly: the spare slots hold copies of the busiest
        // (DeepSeek's redundant experts, SGLang's EPLB).
        if t.moe.is_some() && d.chips() % d.ep.saturating_mul(d.etp) != 0 {
            problems.push(Problem::ExpertsDoNotDivide {
                ep: d.ep.saturating_mul(d.etp),
                chips: d.chips(),
            });
        }
    }
    let links = Links { cluster };
    let decode = Shape::of(t, chip, decode_d, s, kernel_efficiency).with_exchange(&links);
    let prefill = Shape::of(t, chip, prefill_d, s, kernel_efficiency);
    let input = s.input_tokens.max(1.0);
    let output = s.output_tokens.max(1.0);
    // Prefill computes the prompt's tokens whose cache is not already held.
    let computed = (input * (1.0 - s.prefix_hit_rate.clamp(0.0, 1.0))).max(1.0);
    let chunk = s.chunk();
    let prefill_round_s = finite(prefill_round(&prefill, &links, input, chunk, prefill.dp, false));
    // Colocated with continuous batching, prefill chunks ride in decode steps, which read the
    // weights and launch the step anyway: a prompt costs its own work alone.
    let riding = !s.disaggregated && s.continuous_batching;
    // Colocated with DP attention and experts, every rank meets the others at each MoE layer,
    // so a chunk one rank prefills holds all of them: ranks prefill one after another, each
    // round a single rank's (SGLang's and TensorRT-LLM's attention-DP schedulers run a rank's
    // prefill beside the others' decode, which wait for it at the experts).
    let one_rank_at_a_time =
        !s.disaggregated && prefill.dp > 1.0 && prefill.moe_layers > 0.0 && prefill.ep > 1;
    // One prompt alone: its full chunks and the rest, on one attention rank; a prompt shares
    // each round with others, so it is charged its own tokens, not a whole round.
    let full = (computed / chunk).floor();
    let rest = computed - full * chunk;
    let round_s = if riding {
        finite(prefill_round(&prefill, &links, input, chunk, prefill.dp, true))
    } else {
        prefill_round_s
    };
    // A full chunk on one rank, timed once: the whole round when there is one rank.
    let one_rank_s = if prefill.dp <= 1.0 {
        round_s
    } else if one_rank_at_a_time || full > 0.0 {
        finite(prefill_round(&prefill, &links, input, chunk, 1.0, riding))
    } else {
        0.0
    };
    let prefill_s_per_request = if one_rank_at_a_time {
        one_rank_s * computed / chunk
    } else {
        round_s * computed / (chunk * prefill.dp)
    };
    let alone_s = finite(
        full * one_rank_s
            + if rest > 0.0 {
                prefill_round(&prefill, &links, input, rest, 1.0, riding)
            } else {
                0.0
            },
    );
    let drafts = s.draft_tokens.min(64) as f64;
    let resident = s.resident_output();
    let plan = Plan {
        serving: s,
        decode,
        links,
        prefill_s_per_request,
        // A static batch holds every sequence's cache at its full length until the batch ends
        // (engines that batch statically pad to it, as Optimum Habana's static shapes do);
        // a continuous one holds each at half its output on average, the longer outputs more
        // often (`Serving::resident_output`).
        context: if s.continuous_batching { input + resident / 2.0 } else { input + output },
        drafts,
        emitted: s.tokens_per_step(),
    };

    // Memory: the decode instance's weights less those the host holds, and the cache of
    // full-length sequences.
    let d = &plan.decode;
    let weight_bytes_per_chip = finite(d.held_bytes - d.offloaded_bytes);
    let usable = chip.hbm_bytes * USABLE_MEMORY;
    let kv = plan.decode.kv_per_token;
    // Each resident sequence's cache at its full length, the longer ones resident more often.
    let per_sequence =
        kv * t.cached_tokens(input + if s.continuous_batching { resident } else { output });
    let free = usable - weight_bytes_per_chip;
    let per_rank = if per_sequence > 0.0 { (free / per_sequence).floor().max(0.0) } else { 0.0 };
    let kv_batch = finite(per_rank * decode_d.dp.max(1) as f64).min(u32::MAX as f64) as u32;
    if kv_batch == 0 {
        problems.push(Problem::DoesNotFit {
            need_bytes: weight_bytes_per_chip + per_sequence,
            have_bytes: usable,
        });
    }
    let cap = if s.max_batch > 0 { s.max_batch.min(kv_batch) } else { kv_batch }.max(1);
    let (unit_prefill, unit_decode) = match s.pools() {
        Some(pools) => pools,
        None => (if s.disaggregated { 1.0 } else { 0.0 }, 1.0),
    };
    let units = Units {
        decode_chips: decode_d.chips() as f64,
        prefill_chips: prefill_d.chips() as f64,
        prefill_s: s.disaggregated.then_some(prefill_s_per_request),
        pools: s.pools(),
    };
    // A closed loop's clients, spread evenly over the units the cluster holds, and a unit's
    // over its decode instances.
    let looped = (s.concurrency > 0).then(|| {
        let unit = unit_prefill * prefill_d.chips() as f64 + unit_decode * decode_d.chips() as f64;
        let held = (cluster.n_chips as f64 / unit.max(1.0)).floor().max(1.0);
        let per_unit = (s.concurrency as f64 / held).ceil();
        (per_unit, (per_unit / unit_decode).ceil().clamp(1.0, u32::MAX as f64) as u32)
    });
    let cap = looped.map_or(cap, |(_, clients)| cap.min(clients));

    // TTFT: the prompt's rounds, the wait in the queue at the planned load, and then one
    // decode step (aggregated) or the cache's trip to the decode instance (disaggregated).
    // What a prompt queues behind: other prompts' prefill, or with static batching the whole
    // running batch, its prompts and its generation (a request joins only the next batch).
    let static_batch = !s.continuous_batching && !s.disaggregated;
    let service_at = |at: &AtBatch| -> f64 {
        if static_batch {
            alone_s + at.step.total() * output / plan.emitted
        } else {
            alone_s
        }
    };
    let wait = |busy: f64, quantile: Option<f64>, service: f64| queue_wait(busy, service, quantile);
    let ttft_at = |at: &AtBatch| -> f64 {
        let after = if s.disaggregated {
            let bytes = t.cached_tokens(input) * kv_bytes_per_token(t, 1, s.kv_cache);
            let nics = prefill_d.chips().max(1) as f64;
            cluster.scale_out.latency_s
                + bytes / (cluster.scale_out.achievable_bytes_per_s() * nics).max(1.0)
                + at.step.total()
        } else if s.continuous_batching {
            // Each step runs the batch's decodes and as much of the prompt as the step's
            // tokens leave room for, so a prompt longer than that room takes several steps.
            let room = (chunk - at.batch / plan.decode.dp).max(1.0);
            (computed / room).ceil().max(1.0) * at.tpot_s
        } else {
            // A static batch: its first token comes with its prompts' prefill; the wait for
            // the batch before it is the queue's.
            0.0
        };
        finite(alone_s + after)
    };
    // The busy share planned: the one asked, or the busiest at which the 99th percentile of
    // the first token meets its target with the wait behind other prompts (at the batch
    // served, found below, so at one sequence's figures first and refined after).
    let busiest = |after: f64, service: f64| -> f64 {
        let slack = s.ttft_s - after;
        if wait(BUSIEST, Some(0.99), service) <= slack {
            return BUSIEST;
        }
        let (mut lo, mut hi) = (0.0, BUSIEST);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if wait(mid, Some(0.99), service) <= slack {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    };

    // The largest batch meeting the time between tokens; TPOT grows with the batch, so the
    // frontier's points bracket it.
    let n_decode = decode_d.chips() as f64;
    let n_prefill = prefill_d.chips() as f64;
    let frontier = frontier(&plan, cap, &units);
    let fits = |tpot: f64| tpot * TPOT_TAIL <= s.tpot_s;
    let meets = |b: u32| fits(plan.at(b).tpot_s);
    let one = plan.at(1);
    let last = frontier.iter().rposition(|p| fits(p.tpot_s));
    let batch = if one.tpot_s * TPOT_TAIL > s.tpot_s {
        problems
            .push(Problem::TpotUnreachable { best_s: one.tpot_s * TPOT_TAIL, target_s: s.tpot_s });
        1
    } else if last == Some(frontier.len() - 1) {
        cap
    } else {
        let i = last.unwrap_or(0);
        let (mut lo, mut hi) = (frontier[i].batch, frontier.get(i + 1).map_or(cap, |p| p.batch));
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if meets(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    };
    let at = plan.at(batch);
    let best_ttft = ttft_at(&one);
    let ttft_unreachable = best_ttft > s.ttft_s;
    if ttft_unreachable {
        problems.push(Problem::TtftUnreachable { best_s: best_ttft, target_s: s.ttft_s });
    }

    // The load: instances for it at the planned utilisation.
    let after_s = ttft_at(&at);
    let service = service_at(&at);
    let rho = if s.utilisation > 0.0 {
        s.utilisation.clamp(0.01, BUSIEST)
    } else {
        busiest(after_s, service).max(0.05)
    };
    let prefill_requests_per_s = 1.0 / prefill_s_per_request.max(f64::MIN_POSITIVE);
    let load = s.requests_per_s.max(0.0);
    let instances = |capacity: f64| -> u64 {
        if load > 0.0 && capacity > 0.0 {
            finite((load / (capacity * rho)).ceil()).min(u32::MAX as f64) as u64
        } else {
            1
        }
        .max(1)
    };
    let (prefill_instances, decode_instances) = if let Some((p, d)) = s.pools() {
        let (rate, _) = units.at(at.requests_per_s);
        let n = instances(rate) as f64;
        (finite(n * p) as u64, finite(n * d) as u64)
    } else if s.disaggregated {
        (instances(prefill_requests_per_s), instances(at.requests_per_s))
    } else {
        (0, instances(at.requests_per_s))
    };
    let chips_needed =
        prefill_instances * prefill_d.chips() as u64 + decode_instances * decode_d.chips() as u64;
    if chips_needed > cluster.n_chips as u64 {
        problems.push(Problem::TooFewChips { need: chips_needed, have: cluster.n_chips });
    }

    // The first token at the load: the instances a prompt queues for are as busy as the load
    // makes them (the planned utilisation when none is given), so the colocated case, whose
    // instances prefill and decode in turn, answers to the load as the disaggregated one does.
    let (queued_on, queued_capacity) = if s.disaggregated {
        (prefill_instances, prefill_requests_per_s)
    } else {
        (decode_instances, at.requests_per_s)
    };
    let busy = if load > 0.0 && queued_capacity > 0.0 {
        (load / (queued_on.max(1) as f64 * queued_capacity)).clamp(0.0, BUSIEST)
    } else {
        rho
    };
    // A closed loop keeps each unit as busy as its own clients make it. A prompt queues
    // behind the others' prefill: the share of a colocated instance's time prefill takes at
    // its batch, or the unit's completions over its prefill capacity (a static batch's
    // clients start it together, so none), as the other clients alone make it (an arriving
    // client finds the loop as its others keep it: the arrival theorem of closed queueing
    // networks, Lavenberg and Reiser 1980). And by Little's law the unit's clients take, each
    // round, their number over its completions a second: whatever of that their decoding does
    // not take is spent before the first token, waiting for a place or behind a slower pool.
    let (busy, least_s) = match looped {
        Some((clients, _)) => {
            let rate = units.completions(at.requests_per_s).max(f64::MIN_POSITIVE);
            let busy = if s.disaggregated {
                rate / (unit_prefill * prefill_requests_per_s).max(f64::MIN_POSITIVE)
            } else if s.continuous_batching {
                at.prefill_share
            } else {
                0.0
            };
            let others = (clients - 1.0).max(0.0) / clients.max(1.0);
            let decoding = output * at.tpot_s;
            ((busy * others).clamp(0.0, BUSIEST), clients / rate - decoding)
        }
        None => (busy, 0.0),
    };
    let at_least = |ttft: f64| finite(ttft.max(least_s));
    let ttft_s = at_least(after_s + wait(busy, None, service));
    let ttft_p50_s = at_least(after_s + wait(busy, Some(0.5), service));
    let ttft_p99_s = at_least(after_s + wait(busy, Some(0.99), service));
    if ttft_p99_s > s.ttft_s && !ttft_unreachable {
        // The busiest the queued-on instances may be for the target to hold (the wait's
        // inverse), and the chips the load takes at that.
        let busy_at_most = busiest(after_s, service).min(busy);
        let more = if load > 0.0 && queued_capacity > 0.0 && busy_at_most > 0.0 {
            finite((load / (queued_capacity * busy_at_most)).ceil()).min(u32::MAX as f64) as u64
        } else {
            queued_on
        };
        let chips = if s.disaggregated {
            more * prefill_d.chips() as u64 + decode_instances * decode_d.chips() as u64
        } else {
            more * decode_d.chips() as u64
        };
        problems.push(Problem::TtftAtLoad {
            ttft_s: ttft_p99_s,
            target_s: s.ttft_s,
            busy,
            busy_at_most,
            chips,
        });
    }

    // Per chip at the targets, and what a chip-second of each phase costs per token.
    let (prefill_chip_s, decode_chip_s, per_unit, unit_chips) = if let Some((p, d)) = s.pools() {
        // A unit of fixed pools: each request takes its share of both pools' chip-seconds.
        let (rate, chips) = units.at(at.requests_per_s);
        let rate = rate.max(f64::MIN_POSITIVE);
        (p * n_prefill / rate, d * n_decode / rate, rate, chips)
    } else if s.disaggregated {
        // A unit: prefill and decode chips in the ratio of their capacities.
        let prefill_chip_s = n_prefill * prefill_s_per_request;
        let decode_chip_s = n_decode / at.requests_per_s.max(f64::MIN_POSITIVE);
        (prefill_chip_s, decode_chip_s, 1.0, prefill_chip_s + decode_chip_s)
    } else {
        let per_request = n_decode / at.requests_per_s.max(f64::MIN_POSITIVE);
        (
            per_request * at.prefill_share,
            per_request * (1.0 - at.prefill_share),
            at.requests_per_s,
            n_decode,
        )
    };
    let requests_per_chip_s = per_unit / unit_chips.max(f64::MIN_POSITIVE);
    let prefill_tokens_per_s_per_chip = finite(input * requests_per_chip_s);
    let decode_tokens_per_s_per_chip = finite(output * requests_per_chip_s);
    let per_million =
        |chip_s: f64, tokens: f64, usd: f64| finite(chip_s / rho * usd / tokens * 1e6);

    ServingEstimate {
        decode: decode_d,
        prefill: prefill_d,
        weight_bytes_per_chip,
        kv_bytes_per_token: finite(kv),
        max_batch: kv_batch,
        batch,
        prefill_round_s: finite(prefill_round_s),
        step: at.step,
        ttft_s,
        ttft_p50_s,
        ttft_p99_s,
        busy,
        tpot_s: at.tpot_s,
        tpot_p99_s: finite(at.tpot_s * TPOT_TAIL),
        utilisation: rho,
        tokens_per_step: plan.emitted,
        tokens_per_s_per_mw: finite(
            decode_tokens_per_s_per_chip * rho / prices.site_w_per_chip.max(1e-9) * 1e6,
        ),
        joules_per_token: finite(
            prices.site_w_per_chip / (decode_tokens_per_s_per_chip * rho).max(1e-12),
        ),
        prefill_tokens_per_s_per_chip,
        decode_tokens_per_s_per_chip,
        decode_tokens_per_s_per_chip_at_load: finite(decode_tokens_per_s_per_chip * rho),
        prefill_pool_tokens_per_s_per_chip: finite(input / prefill_s_per_request / n_prefill),
        decode_pool_tokens_per_s_per_chip: finite(
            batch as f64 * plan.emitted / at.step.total().max(f64::MIN_POSITIVE) / n_decode,
        ),
        requests_per_s_per_unit: finite(per_unit),
        prefill_instances,
        decode_instances,
        chips_needed,
        prefill_tokens_per_s: finite(prefill_tokens_per_s_per_chip * chips_needed as f64),
        decode_tokens_per_s: finite(decode_tokens_per_s_per_chip * chips_needed as f64),
        usd_per_million_input_tokens: per_million(prefill_chip_s, input, prices.usd_per_chip_s),
        usd_per_million_output_tokens: per_million(decode_chip_s, output, prices.usd_per_chip_s),
        cloud_usd_per_million_input_tokens: per_million(
            prefill_chip_s,
            input,
            prices.cloud_usd_per_chip_s,
        ),
        cloud_usd_per_million_output_tokens: per_million(
            decode_chip_s,
            output,
            prices.cloud_usd_per_chip_s,
        ),
        power_w: finite(chips_needed as f64 * prices.site_w_per_chip),
        chips_left: (cluster.n_chips as u64).saturating_sub(chips_needed),
        usd_per_day: finite(chips_needed as f64 * prices.usd_per_chip_s * 86_400.0),
        training_usd_per_day: finite(
            (cluster.n_chips as u64).saturating_sub(chips_needed) as f64
                * prices.usd_per_chip_s
                * 86_400.0,
        ),
        frontier,
        feasible: problems.is_empty(),
        problems,
        notes: [Some(s.weights), s.attention_weights.filter(|a| *a != s.weights)]
            .into_iter()
            .flatten()
            .filter(|w| runs_at(*w, chip) != *w)
            .map(|weights| Note::NoUnits { weights, runs_at: runs_at(weights, chip) })
            .collect(),
    }
}

/// The decode step of `serving`'s decode instance at `batch` sequences, in parts.
pub fn decode_step_at(
    t: &Transformer,
    cluster: &Cluster,
    serving: &Serving,
    kernel_efficiency: f64,
    batch: u32,
) -> DecodeStep {
    let links = Links { cluster };
    let shape = Shape::of(t, &cluster.chip, normalised(serving.decode), serving, kernel_efficiency)
        .with_exchange(&links);
    let context = serving.input_tokens.max(1.0) + serving.resident_output() / 2.0;
    decode_step(
        &shape,
        &links,
        batch.max(1) as f64,
        context,
        1.0 + serving.draft_tokens.min(64) as f64,
    )
}

/// The wait of a prompt behind those before it on an instance `busy` of its time, each taking
/// `service` seconds, Poisson arrivals: its mean (`quantile` none) by Pollaczek-Khinchine for
/// fixed service (M/D/1; Kleinrock, Queueing Systems vol. 1, 1975, §5.6), or the `quantile`
/// of its distribution, taken as no wait with probability `1 - busy` and else exponential with
/// that mean (Kingman's heavy-traffic approximation, 1961), which is how far a tail the
/// 99th-percentile targets of benchmarks and service levels reach.
pub fn queue_wait(busy: f64, service: f64, quantile: Option<f64>) -> f64 {
    let rho = busy.clamp(0.0, BUSIEST);
    let service = service.max(0.0);
    let mean = rho / (2.0 * (1.0 - rho)) * service;
    match quantile {
        None => finite(mean),
        Some(q) => {
            let beyond = (1.0 - q).clamp(1e-9, 1.0);
            if rho <= beyond {
                0.0
            } else {
                finite(mean / rho * (rho / beyond).ln())
            }
        }
    }
}

/// A deployment with every degree at least one.
fn normalised(d: Deployment) -> Deployment {
    Deployment { tp: d.tp.max(1), dp: d.dp.max(1), ep: d.ep.max(1), etp: d.etp.max(1) }
}

/// What serves requests together: a colocated instance, or prefill and decode instances.
#[derive(Clone, Copy, Debug)]
struct Units {
    /// Chips of a decode instance and of a prefill instance.
    decode_chips: f64,
    prefill_chips: f64,
    /// Seconds of a prefill instance one request's prompt takes; none colocated.
    prefill_s: Option<f64>,
    /// Prefill and decode instances a unit fixes; none for their capacities' ratio.
    pools: Option<(f64, f64)>,
}

impl Units {
    /// Requests a unit completes a second at a decode instance's `rate`, and its chips.
    fn at(&self, rate: f64) -> (f64, f64) {
        match (self.prefill_s, self.pools) {
            (None, _) => (rate, self.decode_chips),
            // Each request takes its prefill chip-seconds beside its decode ones.
            (Some(prefill_s), None) => (
                1.0,
                self.decode_chips / rate.max(f64::MIN_POSITIVE) + self.prefill_chips * prefill_s,
            ),
            // The slower pool sets the pace; the other idles the rest.
            (Some(prefill_s), Some((p, d))) => (
                (p / prefill_s.max(f64::MIN_POSITIVE)).min(d * rate),
                p * self.prefill_chips + d * self.decode_chips,
            ),
        }
    }

    /// Requests a second a unit of a closed loop completes at a decode instance's `rate`: a
    /// colocated instance, the slower of the fixed pools, or one prefill and one decode
    /// instance.
    fn completions(&self, rate: f64) -> f64 {
        match (self.prefill_s, self.pools) {
            (None, _) => rate,
            (Some(_), Some(_)) => self.at(rate).0,
            (Some(prefill_s), None) => (1.0 / prefill_s.max(f64::MIN_POSITIVE)).min(rate),
        }
    }

    /// Requests a second per chip at a decode instance's `rate`.
    fn per_chip(&self, rate: f64) -> f64 {
        let (requests, chips) = self.at(rate);
        requests / chips.max(f64::MIN_POSITIVE)
    }
}

/// Tokens per second per chip against time per token over batches 1, 2, 4 … up to `cap`, and
/// `cap` itself, each batch's instances serving as `units` make them.
fn frontier(plan: &Plan, cap: u32, units: &Units) -> Vec<FrontierPoint> {
    let output = plan.serving.output_tokens.max(1.0);
    let mut batches: Vec<u32> =
        std::iter::successors(Some(1u32), |b| b.checked_mul(2)).take_while(|&b| b < cap).collect();
    batches.push(cap.max(1));
    batches
        .into_iter()
        .map(|batch| {
            let at = plan.at(batch);
            FrontierPoint {
                batch,
                tpot_s: at.tpot_s,
                tokens_per_s_per_chip: finite(output * units.per_chip(at.requests_per_s)),
            }
        })
        .collect()
}

/// The deployments worth running, cheapest a million output tokens first, then most output a
/// second per megawatt: every instance of a power of two chips up to `max_chips`, split
/// between attention tensor and data parallelism every way (data parallelism only with
/// experts, which every chip of the instance holds), the experts split in turn over 1, 2, 4
/// or 8 chips each (expert tensor parallelism), each estimated for `serving`; only those that
/// meet every target at the planned load and fit are ranked, so none that misses one is
/// offered. The prefill instance, when apart, is split as the decode one.
pub fn search(
    inputs: &crate::model::Inputs,
    estimate: &crate::model::Estimate,
    max_chips: u32,
) -> Vec<ServingEstimate> {
    let Some(serving) = inputs.serving else { return Vec::new() };
    let t = &inputs.transformer;
    let kernel = inputs.cluster.chip.matmul_efficiency;
    let prices = Prices::of(inputs, estimate);
    let moe = t.moe.is_some();
    let mut found = Vec::new();
    let mut n = 1u32;
    while n <= max_chips.max(1) {
        let mut tp = 1u32;
        while tp <= n {
            let dp = n / tp;
            if moe || dp == 1 {
                let splits: &[u32] = if moe { &[1, 2, 4, 8] } else { &[1] };
                for &etp in splits.iter().filter(|&&e| e <= n) {
                    let d = Deployment { tp, dp, ep: if moe { n / etp } else { 1 }, etp };
                    let s = Serving { decode: d, prefill: d, ..serving };
                    found.push(self::estimate(t, &inputs.cluster, &s, kernel, &prices));
                }
            }
            tp *= 2;
        }
        n = match n.checked_mul(2) {
            Some(next) => next,
            None => break,
        };
    }
    found.retain(|e| e.feasible);
    found.sort_by(|a, b| {
        a.usd_per_million_output_tokens
            .total_cmp(&b.usd_per_million_output_tokens)
            .then(b.tokens_per_s_per_mw.total_cmp(&a.tokens_per_s_per_mw))
    });
    found
}
