//! How the work is split across chips and micro-batches, and the training recipe.
//!
//! Degrees follow Megatron-LM (Narayanan et al. 2021; Korthikanti et al. 2022): chips used =
//! tensor x pipeline x data x context. The experts are laid out independently of attention, as
//! Megatron-Core's MoE parallel folding does (Liu et al. 2025, arXiv:2504.14960, §3): the
//! tensor x context x data ranks of a pipeline stage are regrouped into expert-tensor (innermost),
//! expert and expert-data parallel groups. `Shape` derives the per-chip quantities once so every formula reads
//! them the same way; zero degrees are treated as one so the model stays total.

use crate::model::Inputs;

/// Activation recomputation (Korthikanti et al. 2022, arXiv:2205.05198, §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recompute {
    /// Keep every activation.
    None,
    /// Recompute only the attention core (scores, softmax, dropout) in the backward pass.
    Selective,
    /// Keep only each layer's input and rerun the whole forward pass of a layer in backward.
    Full,
}

/// ZeRO stage / FSDP sharding of training state across data-parallel ranks
/// (Rajbhandari et al. 2020, "ZeRO", arXiv:1910.02054, §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharding {
    /// ZeRO-0: everything replicated; gradients all-reduced.
    None,
    /// ZeRO-1 (Megatron's distributed optimizer): optimizer states sharded.
    Optimizer,
    /// ZeRO-2: optimizer states and gradients sharded.
    Gradients,
    /// ZeRO-3 / FSDP full sharding: parameters too, gathered layer by layer.
    Full,
}

impl Sharding {
    /// Every sharding, by its ZeRO stage.
    const BY_STAGE: [Sharding; 4] =
        [Sharding::None, Sharding::Optimizer, Sharding::Gradients, Sharding::Full];

    /// The ZeRO stage, 0 to 3.
    pub fn stage(self) -> u32 {
        Sharding::BY_STAGE.iter().position(|&s| s == self).unwrap_or(0) as u32
    }

    /// The sharding of ZeRO stage `stage`; `None` beyond 3.
    pub fn of_stage(stage: u64) -> Option<Sharding> {
        usize::try_from(stage).ok().and_then(|i| Sharding::BY_STAGE.get(i)).copied()
    }
}

/// The software stack a plan runs on. It sets the defaults of the overlaps it implements
/// (`scenario::resolve`) and how device memory is allocated (`memory`), and the validation runs
/// are grouped by it (`validation::range`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    /// Megatron-Core as its README runs its scaling tables: data-, tensor- and
    /// pipeline-parallel communication overlapped.
    MegatronCore,
    /// Megatron-LM as the 2021-2023 papers ran it: no overlap flags.
    MegatronBaseline,
    /// PyTorch FSDP as torchtitan runs it: parameter gathers prefetched and gradient
    /// reduce-scatters overlapped with compute; tensor-parallel collectives synchronous.
    PytorchFsdp,
    /// JAX or PyTorch/XLA on TPU (MaxText, PaxML): XLA's scheduler runs collectives
    /// asynchronously beside compute, and buffers are assigned when the step is compiled.
    Xla,
    /// A benchmark submission's stack, as MLPerf Training's runs it: Megatron-Core under NeMo
    /// tuned for one workload, with every overlap, CUDA graphs and fused kernels. The chips'
    /// best kernel speeds (`Chip::matmul_efficiency`) are this stack's.
    Tuned,
}

impl Stack {
    /// It overlaps data-parallel communication with compute by default.
    pub fn overlaps_data(self) -> bool {
        self != Stack::MegatronBaseline
    }

    /// What it captures in CUDA graphs unless told: a benchmark submission the whole iteration
    /// (NVIDIA's MLPerf Training submissions run full-iteration graphs), the others nothing.
    pub fn graphs(self) -> CudaGraphs {
        match self {
            Stack::Tuned => CudaGraphs::Full,
            _ => CudaGraphs::None,
        }
    }

    /// How it keeps the weights unless told: MaxText as one FP32 copy each GEMM casts to BF16
    /// on its shard before the gather (`weight_dtype: float32` in its `base.yml`), the others
    /// a BF16 working copy beside FP32 master weights.
    pub fn weights(self) -> Weights {
        match self {
            Stack::Xla => Weights::Fp32,
            _ => Weights::Mixed,
        }
    }

    /// How its loss holds the logits unless told: a compiler that fuses the loss into the
    /// products around it keeps the FP32 logits alone (`CrossEntropy::Fused`), the others an
    /// FP32 copy beside them.
    pub fn loss(self) -> CrossEntropy {
        match self {
            Stack::Xla => CrossEntropy::Fused,
            _ => CrossEntropy::Fp32,
        }
    }

    /// It overlaps tensor- and pipeline-parallel communication with compute by default.
    pub fn overlaps_model(self) -> bool {
        matches!(self, Stack::MegatronCore | Stack::Xla | Stack::Tuned)
    }

    /// Device memory its runtime holds before any tensor (bytes), and the share of the
    /// dynamic memory lost to allocation. PyTorch's caching allocator: about 1 GiB of CUDA or
    /// CANN context and library workspaces, and fragmentation of a few per cent of what
    /// comes and goes. XLA assigns every buffer when it compiles the step, so nothing
    /// fragments; its TPU runtime keeps 0.75 GiB of a 32 GiB chip (XLA:TPU reports a limit of
    /// 31.25 GiB, Enzyme-JAX pull request 2422's allocator statistics).
    pub fn allocator(self) -> (f64, f64) {
        use crate::model::units::GIB;
        match self {
            Stack::Xla => (0.75 * GIB, 0.0),
            _ => (1.0 * GIB, 0.05),
        }
    }
}

/// What a software stack's kernels and host reach beyond its overlaps, as fitted to published
/// runs on it (`presets::software`). A chip's best kernel speeds are a tuned benchmark
/// submission's (`Stack::Tuned`); the stacks most teams run lose a share of them to unfused
/// kernels and launches, and an MoE layer waits on the host where its token dispatcher needs the
/// tokens per expert on the CPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Software {
    /// Share of the chip's best speed of GEMM, attention and element-wise kernels that the
    /// stack's kernels reach (1 for the tuned stack).
    pub kernel_share: f64,
    /// Seconds the GPU waits on the host in each MoE layer for each micro-batch, forward and
    /// backward together: Megatron-Core's token dispatchers copy the tokens per expert to the
    /// host before the expert exchange (`megatron/core/transformer/moe/token_dispatcher.py`,
    /// `tokens_per_expert.cpu()`, `d2h_event.synchronize()`), after which the host launches the
    /// rest of the layer with no queue ahead of the GPU. CUDA graphs cannot capture a layer
    /// whose shapes change, so only static shapes (drop and pad, compiled XLA) could avoid it.
    /// Dropped and padded routing skips the copy itself (`preprocess` returns static counts),
    /// yet pays about as much: without the wait, Megatron-Bridge 25.09's token-drop rows run
    /// 12-24 % slower than the model, so padded layers are charged it too.
    pub moe_host_s: f64,
    /// The same with DeepEP's or HybridEP's dispatcher, which fuses the permutation and its
    /// preprocessing into a few kernels, so fewer launches follow the wait (Megatron-LM's
    /// DeepSeek-V3 on GB200: router and preprocess from 72 kernels to 17, +54 TFLOP/s of 970,
    /// mostly host time; `docs/discussions/deepseek-v3-gb200-optimization` at eb0783b6).
    pub moe_host_deepep_s: f64,
    /// What the chip family's low-precision GEMMs (FP8, MXFP8, NVFP4) reach of the share the
    /// model gives them (`efficiency::FP8_GEMM_RELATIVE`, `BLOCK_SCALED_GEMM_RELATIVE`), as
    /// fitted to the family's published runs in those formats: scaling and casting cost a
    /// Hopper more than a Blackwell, whose tensor cores apply block scales themselves.
    pub low_precision_share: f64,
    /// Seconds each layer loses per micro-batch, forward and backward together, to its
    /// kernels' launches where the stack does not capture them in CUDA graphs: a layer runs
    /// dozens of kernels, and between two launched one at a time the GPU idles a few
    /// microseconds; on a fast chip with a short layer this is no longer small (Megatron-LM's
    /// DeepSeek-V3 on GB200 gained 8.6 % from partial CUDA graphs, 10.2 % from binding the
    /// host threads to their NUMA nodes; `docs/discussions/deepseek-v3-gb200-optimization` at
    /// eb0783b6).
    pub layer_host_s: f64,
    /// Rows each local expert's group of tokens costs beyond its own in a dropless MoE layer's
    /// grouped GEMM, which runs whole tiles of rows: `GROUPED_TILE_WASTE_XLA` or
    /// `GROUPED_TILE_WASTE_GPU`. Dropped and padded routing gives every expert a static
    /// capacity and pays none.
    pub grouped_waste_rows: f64,
}

/// Rows a group costs beyond its own in MaxText's grouped GEMM on TPU (megablox `gmm`): a
/// tile that straddles two groups is computed once for each ("tiles_m <= group_tiles.sum()
/// <= tiles_m + num_groups - 1", `kernels/megablox/backend.py`), so each boundary between
/// routed groups costs about one whole tile, of 512 rows in the Ironwood recipes
/// (`wi_tile_fwd_batch_seq`, AI-Hypercomputer/tpu-recipes at c8cfe2f, the Qwen3-235B and
/// DeepSeek-V3 FP8 recipes).
pub const GROUPED_TILE_WASTE_XLA: f64 = 512.0;

/// Rows a group costs beyond its own in a GPU grouped GEMM: each expert's last tile runs
/// partly filled, half of a 128-row tile on average (CUTLASS's grouped GEMM example,
/// `examples/24_gemm_grouped`, threadblock shape 128 x 128).
pub const GROUPED_TILE_WASTE_GPU: f64 = 64.0;

/// How an MoE layer's tokens reach their experts across scale-up domains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dispatcher {
    /// Megatron-Core's all-to-all dispatcher: every routed copy of a token travels on its own.
    AllToAll,
    /// DeepEP's kernels (DeepSeek-V3 report, arXiv:2412.19437, §3.2.2; the DeepEP repository's
    /// internode kernels): a token crosses the network once to each domain holding one of its
    /// experts and is forwarded inside the domain over the scale-up links.
    DeepEp,
}

/// How much of a step the stack captures in CUDA graphs, which the GPU replays with no host
/// launching kernels one at a time (`Software::layer_host_s`) or waiting on a copy to the host
/// (`Software::moe_host_s`).
///
/// Only a whole iteration's graph is priced. The published rows that name per-layer or partial
/// graphs (53 of 153 NVIDIA benchmark rows, transcribed from their recipes) do not show the
/// host time going: with the launch gaps removed from the captured rows, the joint fit puts
/// 1.7 ms a layer on the others and misses the Blackwell and Ascend Megatron-Core targets;
/// with the MoE wait removed from captured padded layers, Megatron-Bridge 25.09's captured
/// token-drop rows run 18-39 % slower than the model. Their host cost is kept until a pair of
/// runs that differ only in the graphs measures it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CudaGraphs {
    /// Every kernel launched by the host.
    None,
    /// Each layer's forward and backward captured (Transformer Engine's per-layer graphs, NeMo's
    /// `enable_cuda_graph`): recorded, priced as `None`.
    Layers,
    /// Each layer's attention and MoE router captured, its experts not (Transformer Engine
    /// graphs with `cuda_graph_scope` `attn`, `moe_router`, `moe_preprocess`): recorded, priced
    /// as `None`.
    Partial,
    /// The whole iteration captured (Megatron-Core's `full_iteration` scope, MLPerf's
    /// `FULL_CUDA_GRAPH`): no host time at all, since a graph replayed whole cannot stop for
    /// the host.
    Full,
}

/// How the loss turns the output layer's logits into the cross-entropy and its gradient, which
/// sets the bytes each logit holds on the last stage (read from the implementations: Megatron-
/// Core's `tensor_parallel/cross_entropy.py` and `fusions/fused_cross_entropy.py`, Transformer
/// Engine's `pytorch/cross_entropy.py`, Megatron-Core's `fusions/fused_linear_cross_entropy.py`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossEntropy {
    /// The BF16 logits copied to FP32, the softmax kept in FP32 for the backward pass, which
    /// returns FP32 gradients cast back: 6 bytes a logit at either peak (Megatron-Core's loss,
    /// fused or not with its native kernels; PyTorch's loss on `.float()` logits).
    Fp32,
    /// The gradient written into the BF16 logits in the forward pass and scaled in place in
    /// the backward: 2 bytes a logit (Transformer Engine's `parallel_cross_entropy` up to
    /// v2.17, Megatron-Core's `--cross-entropy-fusion-impl te`, which Megatron-Bridge's
    /// Llama 3 pre-training recipes set).
    InPlace,
    /// The output layer fused with the loss, the logits never whole: the backward pass holds
    /// one BF16 chunk of 3,072 vocabulary entries for every token (Megatron-Core's
    /// `--cross-entropy-fusion-impl linear`, `LCE_BWD_VOCAB_SPLIT_SIZE`).
    Linear,
    /// The logits written once in FP32 and every other step of the loss fused into the kernels
    /// that read them: 4 bytes a logit. MaxText casts the output layer's logits to FP32
    /// (`cast_logits_to_fp32`, on by default) and computes the loss with a custom gradient
    /// whose saved softmax, log-softmax and one-hot targets are element-wise functions of them
    /// (`max_utils.cross_entropy_with_logits`); XLA fuses the cast into the product that
    /// writes the logits and the gradient into the product that reads it, so only the FP32
    /// logits live from the forward pass to the backward.
    Fused,
}

impl CrossEntropy {
    /// Bytes the loss holds for `tokens` tokens over a vocabulary shard of `vocab` entries.
    pub fn bytes(self, tokens: f64, vocab: f64) -> f64 {
        match self {
            CrossEntropy::Fp32 => 6.0 * tokens * vocab,
            CrossEntropy::InPlace => 2.0 * tokens * vocab,
            CrossEntropy::Linear => 2.0 * tokens * vocab.min(LINEAR_LOSS_CHUNK),
            CrossEntropy::Fused => 4.0 * tokens * vocab,
        }
    }
}

/// Vocabulary entries of each chunk a fused linear cross-entropy's backward pass holds
/// (Megatron-Core's `LCE_BWD_VOCAB_SPLIT_SIZE`).
pub const LINEAR_LOSS_CHUNK: f64 = 3072.0;

/// How context parallelism exchanges a split sequence's attention inputs (Megatron-Core's
/// `--cp-comm-type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpKind {
    /// Keys and values all-gathered before attention, exposed (Llama 3, arXiv:2407.21783,
    /// §3.3.2; Megatron's `allgather`).
    AllGather,
    /// Ring attention: key/value blocks passed round the ring behind the attention they feed
    /// (Liu et al., arXiv:2310.01889; Megatron's `p2p`).
    Ring,
    /// DeepSpeed-Ulysses: queries, keys and values swapped from sequence shards to head shards
    /// by an all-to-all before attention, and the output back after, exposed (Jacobs et al.,
    /// arXiv:2309.14509; Megatron's `a2a`). The heads must divide among TP x CP ranks.
    Ulysses,
    /// Ulysses inside the scale-up domain, ring across domains (Fang and Zhao, USP,
    /// arXiv:2405.07719; Megatron's `a2a+p2p`).
    Both,
}

/// Mixed-precision recipe: datatypes of weights, gradients and optimizer states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recipe {
    /// BF16 weights, FP32 main gradients, FP32 master weights and Adam moments: 2+4+12 = 18 B/param
    /// (Megatron-LM distributed optimizer documentation).
    MegatronBf16,
    /// FP32 weights and gradients, FP32 Adam moments: 4+4+8 = 16 B/param (Rajbhandari et al. 2020 use
    /// 16 B/param for fp16 mixed precision; with torch.autocast the weights stay FP32).
    TorchAmp,
    /// FP8 GEMMs, BF16 weights, FP32 master weights and gradients, BF16 Adam moments:
    /// 2+4+4+2+2 = 14 B/param (DeepSeek-V3 report, arXiv:2412.19437, §3.3).
    Fp8,
    /// MXFP8 GEMMs (E4M3 in 32-element blocks with E8M0 scales, Transformer Engine's
    /// `MXFP8BlockScaling`; Mishra et al., arXiv:2506.08027) for every linear layer, with
    /// Megatron's BF16 state (18 B/param) plus the row- and column-wise FP8 copies of the weights
    /// the GEMMs read (about 1.03 B/param each).
    Mxfp8,
    /// NVFP4 GEMMs (E2M1 in 16-element blocks with E4M3 scales and an FP32 tensor scale) for the
    /// linear layers but the first and last few, which stay BF16; attention, embeddings, output
    /// layer, norms and optimizer as the BF16 recipe (NVIDIA, arXiv:2509.25149; Transformer
    /// Engine's `NVFP4BlockScaling`), plus the weights' two FP4 copies (about 0.56 B/param each).
    Nvfp4,
    /// INT8 GEMMs with dynamic scales and INT32 accumulators for every linear layer's forward
    /// pass, activations' gradient and weights' gradient (gradients rounded stochastically);
    /// attention's own products, the embedding and the output layer stay BF16; state as the
    /// BF16 recipe. Google's Accurate Quantized Training as MaxText runs it (`quantization:
    /// int8`: AQT `config_v3(fwd_bits=8, dlhs_bits=8, drhs_bits=8)`, MaxText
    /// `layers/quantizations.py` at e7292a3a) and as Google's MLPerf Training GPT-3 runs on
    /// TPU v5e, v5p and v6e did; on the chips' INT8 units (`Chip::int8_ops_per_s`).
    Int8,
}

/// The datatype linear-layer GEMMs run in, as the recipe and the chip allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmFormat {
    Bf16,
    /// FP8 with per-tile scales (the FP8 recipe).
    Fp8,
    Mxfp8,
    Nvfp4,
    /// INT8 with INT32 accumulators (the INT8 recipe).
    Int8,
}

impl Recipe {
    /// Bytes per parameter of the working weights.
    pub fn weight_bytes(self) -> f64 {
        match self {
            Recipe::MegatronBf16 | Recipe::Fp8 | Recipe::Mxfp8 | Recipe::Nvfp4 | Recipe::Int8 => {
                2.0
            }
            Recipe::TorchAmp => 4.0,
        }
    }

    /// Bytes per parameter of the low-precision copies of the weights kept beside them for the
    /// GEMMs: row-wise for the forward pass, column-wise for the backward (Transformer Engine
    /// quantizes each from the high-precision weights).
    pub fn weight_copy_bytes(self) -> f64 {
        match self {
            Recipe::Mxfp8 => 2.0 * (1.0 + 1.0 / 32.0),
            Recipe::Nvfp4 => 2.0 * (0.5 + 1.0 / 16.0),
            // AQT quantizes the weights on the fly, inside each GEMM's fusion.
            Recipe::MegatronBf16 | Recipe::TorchAmp | Recipe::Fp8 | Recipe::Int8 => 0.0,
        }
    }

    /// Bytes per parameter of the accumulated gradient (and of its data-parallel reduction).
    pub fn grad_bytes(self) -> f64 {
        4.0
    }

    /// Bytes per parameter of optimizer state: master weights (if separate) and two Adam moments.
    pub fn optimizer_bytes(self) -> f64 {
        match self {
            Recipe::MegatronBf16 | Recipe::Mxfp8 | Recipe::Nvfp4 | Recipe::Int8 => 12.0,
            Recipe::TorchAmp => 8.0,
            Recipe::Fp8 => 8.0,
        }
    }
}

/// Token budget, batch and recipe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Training {
    /// Tokens to train on.
    pub tokens: f64,
    /// Sequences per optimizer step.
    pub global_batch: u32,
    /// Mixed-precision recipe.
    pub recipe: Recipe,
    /// The datatype gradients accumulate and reduce in.
    pub grads: Grads,
    /// How the weights and the optimizer's moments are kept.
    pub weights: Weights,
    /// The largest global batch the user accepts, tokens; 0 takes published practice for the
    /// model's size (`Inputs::max_batch_sequences`). The plan search and sizing may raise the
    /// batch up to it; the form's estimate keeps `global_batch`.
    pub max_batch_tokens: f64,
}

/// The datatype gradients accumulate in across micro-batches and are reduced in across
/// data-parallel replicas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grads {
    /// FP32 main gradients beside BF16 weights, as Megatron-LM forces for BF16
    /// training (`arguments.py`: "bfloat16 requires gradient accumulation and all-reduce to be
    /// performed in fp32") and NeMo's `bf16_mixed` keeps.
    Fp32,
    /// BF16: half the gradient buffer and half the reduction's bytes. Megatron-LM's
    /// `--grad-reduce-in-bf16`, Megatron-Core's `grad_reduce_in_fp32=False`; NeMo 2's
    /// performance recipes set it (`nemo/collections/llm/recipes/llama31_405b.py`,
    /// `nemotron4_340b.py`, `nemotron4_15b.py`, `gpt3_175b.py` with `performance_mode`, and
    /// `scripts/performance/utils.py` for FP8, at NVIDIA/NeMo 6f2c6fdaff).
    Bf16,
}

/// How the weights and the optimizer's moments are kept between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weights {
    /// The recipe's: a BF16 working copy beside FP32 master weights and the recipe's moments
    /// (Megatron's distributed optimizer).
    Mixed,
    /// One FP32 copy, cast to BF16 for each GEMM, with the recipe's moments and no master copy
    /// beside it: 4 + 8 bytes a parameter with FP32 moments (MaxText's default `weight_dtype:
    /// float32`; PyTorch's autocast).
    Fp32,
    /// BF16 weights, moments and gradients, no FP32 copy: 2 + 4 + 2 bytes a parameter
    /// (MaxText's `weight_dtype: bfloat16`, whose optimizer keeps its moments in the weights'
    /// datatype).
    Bf16,
}

impl Training {
    /// Bytes per parameter of the gradients, as accumulated and reduced: a BF16 model's
    /// gradients are BF16.
    pub fn grad_bytes(&self) -> f64 {
        match (self.grads, self.weights) {
            (Grads::Bf16, _) | (_, Weights::Bf16) => 2.0,
            (Grads::Fp32, _) => self.recipe.grad_bytes(),
        }
    }

    /// Bytes per parameter of the weights kept between steps (the block-scaled recipes' copies
    /// for their GEMMs aside).
    pub fn weight_state_bytes(&self) -> f64 {
        match self.weights {
            Weights::Mixed => self.recipe.weight_bytes(),
            Weights::Fp32 => 4.0,
            Weights::Bf16 => 2.0,
        }
    }

    /// Bytes per parameter of the optimizer's state: master weights where kept apart, and the
    /// two moments.
    pub fn optimizer_bytes(&self) -> f64 {
        match self.weights {
            Weights::Mixed => self.recipe.optimizer_bytes(),
            // The recipe's moments, less its FP32 master copy (autocast keeps none apart).
            Weights::Fp32 if self.recipe == Recipe::TorchAmp => self.recipe.optimizer_bytes(),
            Weights::Fp32 => self.recipe.optimizer_bytes() - 4.0,
            Weights::Bf16 => 4.0,
        }
    }

    /// Bytes the Adam update reads and writes per parameter: the gradients read, each state
    /// read and written, the weights written.
    pub fn optimizer_traffic_bytes(&self) -> f64 {
        self.grad_bytes() + 2.0 * self.optimizer_bytes() + self.weight_state_bytes()
    }
}

/// The largest global batch published runs of a model's size trained with, tokens: 4M below
/// 100B parameters (Llama 2, arXiv:2307.09288, Table 1, 7B to 70B), 64M from 100B (DeepSeek-V3,
/// arXiv:2412.19437, §4.2, ramps to 15,360 sequences of 4K tokens, 63M; GPT-4 was reported at
/// 60M; Llama 3 405B used 16M at 16K GPUs, arXiv:2407.21783, §3.4.1).
pub fn published_batch_tokens(params: f64) -> f64 {
    if params >= 1e11 {
        64.0 * 1024.0 * 1024.0
    } else {
        4.0 * 1024.0 * 1024.0
    }
}

/// Parallel degrees and scheduling choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parallelism {
    /// Tensor-parallel degree (Shoeybi et al. 2019).
    pub tensor: u32,
    /// Pipeline stages.
    pub pipeline: u32,
    /// Data-parallel replicas.
    pub data: u32,
    /// Expert-parallel degree: expert parallel x expert tensor parallel divides tensor x context x
    /// data (MoE parallel folding).
    pub expert: u32,
    /// Expert tensor-parallel degree: each expert's weights split over this many chips
    /// (Megatron-Core `--expert-tensor-parallel-size`, which defaults to the tensor-parallel
    /// degree; DeepSeek-V3 and folded plans use 1).
    pub expert_tensor: u32,
    /// Context-parallel degree: each sequence split across this many chips.
    pub context: u32,
    /// Sequence parallelism inside the tensor-parallel group (Korthikanti et al. 2022, §4.2.2).
    pub sequence_parallel: bool,
    /// Virtual stages per pipeline rank (interleaved 1F1B, Narayanan et al. 2021, §2.2.2).
    pub virtual_stages: u32,
    /// Sequences per micro-batch.
    pub micro_batch: u32,
    /// Sharding of training state across data-parallel ranks.
    pub sharding: Sharding,
    /// Activation recomputation.
    pub recompute: Recompute,
    /// Data-parallel gradient reduction overlapped with the backward pass (Megatron-LM
    /// `--overlap-grad-reduce`, PyTorch DDP/FSDP); Megatron-LM 2021 did not overlap.
    pub dp_overlap: bool,
    /// How tokens reach their experts across domains.
    pub dispatcher: Dispatcher,
    /// What the stack captures in CUDA graphs.
    pub cuda_graphs: CudaGraphs,
    /// How the loss holds the logits.
    pub cross_entropy: CrossEntropy,
    /// The software stack.
    pub stack: Stack,
    /// What the stack's kernels and host reach (`presets::software`).
    pub software: Software,
    /// Expert all-to-all hidden behind another micro-batch's computation (DeepSeek-V3's DualPipe,
    /// arXiv:2412.19437, §3.2.1); Megatron-LM's default leaves it exposed.
    pub ep_overlap: bool,
    /// Context-parallel key/value exchange overlapped with attention (ring attention, as in
    /// Megatron-Core); off, it is the all-gather of the Llama 3 report, exposed.
    pub cp_overlap: bool,
    /// How context parallelism exchanges attention inputs.
    pub cp_kind: CpKind,
    /// Tensor-parallel all-gathers and reduce-scatters split into chunks and pipelined with the
    /// GEMMs they feed (Megatron-Core `--tp-comm-overlap` with Transformer Engine userbuffers;
    /// Wang et al. 2023, ASPLOS'23; MegaScale, arXiv:2402.15627, §3.2), as Megatron-Core's
    /// README runs its scaling tables.
    pub tp_overlap: bool,
    /// Pipeline sends and receives overlapped with the next chunk's compute in the interleaved
    /// schedule (Megatron-Core `overlap_p2p_comm`; MegaScale §3.2, "PP overlap").
    pub pp_overlap: bool,
    /// Norms and the feed-forward activation function rerun in the backward pass instead of
    /// storing their outputs, with the activation's input kept in FP8 under the FP8 recipe
    /// (DeepSeek-V3 report, arXiv:2412.19437, §3.3.3 and §3.4; Megatron-Core
    /// `--recompute-modules layernorm moe_act`).
    pub recompute_elementwise: bool,
    /// The dense feed-forward blocks' up-projection (and gate) rerun in the backward pass with
    /// their activation function, keeping only the block's input: MaxText's remat policies
    /// `save_dot_except_mlpwi` and `save_dot_except_logits_ffn1`, which save every other
    /// weight product's output.
    pub recompute_mlp_up: bool,
    /// Layers on the first pipeline stage, which holds the most micro-batches in flight;
    /// 0 splits them by the model's rule (`stages`). Megatron-Core's
    /// `--decoder-first-pipeline-num-layers`, MindSpeed's `--num-layer-list`, and what
    /// Megatron-Bridge's `account_for_embedding_in_pipeline_split` does (one layer fewer).
    pub first_stage_layers: u32,
    /// Layers of each chip whose stored activations wait in the host's memory between their
    /// forward and backward passes, copied over the chip's host link behind its compute
    /// (Megatron-Core's `--cpu-offloading-num-layers`; MaxText's remat policies that name a
    /// tensor `offload`); at most the stage's layers.
    pub offload_layers: u32,
}

/// Derived per-chip quantities, computed once per estimate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub tp: f64,
    pub pp: f64,
    pub dp: f64,
    pub cp: f64,
    pub ep: f64,
    pub v: f64,
    pub tp_u: u32,
    pub pp_u: u32,
    pub dp_u: u32,
    pub cp_u: u32,
    pub ep_u: u32,
    pub etp: f64,
    pub etp_u: u32,
    pub chips_used: u32,
    /// Layers of the first pipeline stage as set; 0 for the model's split.
    pub first_stage_layers: u32,
    pub n_microbatches: u32,
    /// Sequences per micro-batch.
    pub micro_batch: f64,
    /// Tokens of one micro-batch on one chip before tensor sharding: `b s / cp`.
    pub tokens: f64,
}

impl Shape {
    pub fn of(inputs: &Inputs) -> Shape {
        let p = &inputs.parallelism;
        let tp_u = p.tensor.max(1);
        let pp_u = p.pipeline.max(1);
        let dp_u = p.data.max(1);
        let cp_u = p.context.max(1);
        let ep_u = p.expert.max(1);
        let etp_u = p.expert_tensor.max(1);
        let mb = p.micro_batch.max(1);
        let per_replica = inputs.training.global_batch.max(1).div_ceil(dp_u);
        let n_microbatches = per_replica.div_ceil(mb).max(1);
        let chips_used = tp_u.saturating_mul(pp_u).saturating_mul(dp_u).saturating_mul(cp_u);
        Shape {
            tp: tp_u as f64,
            pp: pp_u as f64,
            dp: dp_u as f64,
            cp: cp_u as f64,
            ep: ep_u as f64,
            etp: etp_u as f64,
            v: p.virtual_stages.max(1) as f64,
            tp_u,
            pp_u,
            dp_u,
            cp_u,
            ep_u,
            etp_u,
            chips_used,
            first_stage_layers: p.first_stage_layers,
            n_microbatches,
            micro_batch: mb as f64,
            tokens: mb as f64 * inputs.transformer.seq_len.max(1) as f64 / cp_u as f64,
        }
    }

    /// Ranks of one pipeline stage that the experts are folded over: tensor x context x data.
    pub fn expert_ranks(&self) -> u64 {
        self.tp_u as u64 * self.cp_u as u64 * self.dp_u as u64
    }

    /// Copies of each expert's shard: the expert-data-parallel degree, `tp cp dp / (etp ep)`.
    pub fn expert_replicas(&self) -> f64 {
        (self.tp * self.cp * self.dp / (self.etp * self.ep)).max(1.0)
    }

    /// Tokens a norm or dropout touches on one chip: sharded by tensor parallelism only with SP.
    pub fn norm_tokens(&self, sequence_parallel: bool) -> f64 {
        if sequence_parallel {
            self.tokens / self.tp
        } else {
            self.tokens
        }
    }
}
