//! Memory per chip: training state, activations, logits, buffers, and the peak over a step.
//!
//! Activation accounting generalises Korthikanti et al. 2022 (arXiv:2205.05198, §4, eqs. 1-6:
//! `sbh(34 + 5as/h)` bytes per layer) operator by operator, so GQA, gated feed-forward blocks,
//! flash attention, sequence and context parallelism, and recomputation each change the terms
//! they touch. Training-state bytes per parameter follow the recipe (`Recipe`) and ZeRO
//! sharding (Rajbhandari et al. 2020, §5).

use crate::model::parallelism::Shape;
use crate::model::stages::Stage;
use crate::model::{finite, AttentionImpl, GemmFormat, Inputs, Recompute, Sharding, Stack};

/// Bytes of one activation element (BF16/FP16).
const ACT_BYTES: f64 = 2.0;
/// Communication library buffers per process group in use, bytes (NCCL's default
/// `NCCL_BUFFSIZE` of 4 MiB per channel times its usual 16-32 channels).
const COMM_BYTES_PER_GROUP: f64 = 96.0 * 1048576.0;

/// The phase of a step in which memory peaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// End of the forward passes in flight.
    Forward,
    /// Start of a backward pass, with recomputation and gradient buffers.
    Backward,
    /// The optimizer update.
    Optimizer,
}

/// Bytes per chip on the stage that needs the most. The parts sum to `peak_bytes`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemoryUse {
    /// Working weights.
    pub weights_bytes: f64,
    /// Gradient buffers.
    pub grads_bytes: f64,
    /// Master weights and optimizer moments.
    pub optimizer_bytes: f64,
    /// Activations stored for the backward pass of the micro-batches in flight.
    pub activations_bytes: f64,
    /// Logits and loss buffers (last stage).
    pub logits_bytes: f64,
    /// Short-lived buffers of the phase at its peak (gathered inputs, recomputed layer, gradients
    /// of the layer in flight, gathered ZeRO-3 parameters).
    pub transient_bytes: f64,
    /// Communication library buffers.
    pub comm_buffers_bytes: f64,
    /// Framework context, workspaces and allocator fragmentation.
    pub reserve_bytes: f64,
    /// Peak over the step, bytes; the sum of the parts above.
    pub peak_bytes: f64,
    /// Phase at which the peak occurs.
    pub peak_phase: Phase,
    /// Peak during the forward pass, bytes.
    pub forward_peak_bytes: f64,
    /// Peak during the backward pass, bytes.
    pub backward_peak_bytes: f64,
    /// Peak during the optimizer step, bytes.
    pub optimizer_peak_bytes: f64,
    /// Device memory of the chip, bytes.
    pub hbm_bytes: f64,
    /// The peak fits in device memory.
    pub fits: bool,
    /// Share of the stored activations the compiler recomputes instead of keeping, so the
    /// step fits (XLA's rematerialization pass; 0 on other stacks or when the plan fits).
    pub compiler_remat: f64,
    /// Bytes of stored activations a step sends to the host's memory, and fetches back, over
    /// the chip's host link (`Parallelism::offload_layers`).
    pub offloaded_bytes: f64,
}

impl MemoryUse {
    /// Every part with its id (worded as `part.<id>`), in display order, bytes; they sum to
    /// `peak_bytes`.
    pub fn parts(&self) -> [(&'static str, f64); 8] {
        [
            ("weights", self.weights_bytes),
            ("gradients", self.grads_bytes),
            ("optimizer", self.optimizer_bytes),
            ("activations", self.activations_bytes),
            ("logits", self.logits_bytes),
            ("transient", self.transient_bytes),
            ("comm_buffers", self.comm_buffers_bytes),
            ("reserve", self.reserve_bytes),
        ]
    }
}

/// Activation bytes of one layer for one micro-batch.
struct LayerActivations {
    /// Kept from the forward pass until the layer's backward pass.
    stored: f64,
    /// Every activation of the layer, as if nothing were recomputed.
    full: f64,
    /// Rebuilt at once during the layer's backward pass by recomputation.
    recomputed: f64,
}

fn layer_activations(inputs: &Inputs, shape: &Shape, moe_layer: bool) -> LayerActivations {
    let t = &inputs.transformer;
    let p = &inputs.parallelism;
    let h = t.hidden as f64;
    let tokens = shape.tokens;
    let norm_tokens = shape.norm_tokens(p.sequence_parallel);
    let q = t.q_dim() / shape.tp;
    let kv = (t.kv_dim() / shape.tp).max(t.head_dim as f64);
    let mask = if t.dropout { 1.0 } else { 0.0 };
    // GEMM inputs kept for the weight-gradient GEMM: FP8 copies under the FP8 recipe
    // (Transformer Engine's FP8 cache; DeepSeek-V3 §3.3.3 caches activations in FP8).
    let fp8 = inputs.fp8_active();
    let gemm_in = match inputs.gemm_format() {
        GemmFormat::Fp8 => 1.0,
        // Transformer Engine keeps the quantized input for the backward pass.
        GemmFormat::Mxfp8 => 1.0 + 1.0 / 32.0,
        GemmFormat::Nvfp4 => 0.5 + 1.0 / 16.0,
        // AQT quantizes each GEMM's BF16 inputs as it runs, the backward pass's included.
        GemmFormat::Bf16 | GemmFormat::Int8 => ACT_BYTES,
    };

    // Recomputing norms and activation functions keeps only their inputs; the activation's
    // input is then cached in FP8 under the FP8 recipe (DeepSeek-V3 report §3.3.3, §3.4).
    let light = p.recompute_elementwise && p.recompute != Recompute::Full;
    // Rerunning the dense feed-forward block's up-projection keeps only the block's input.
    let mlp_up = p.recompute_mlp_up && p.recompute != Recompute::Full;
    // Norm inputs (2) and norm outputs, which are the QKV and MLP GEMM inputs (2).
    let norm_outputs = 2.0 * gemm_in * norm_tokens * h;
    let norms = 2.0 * ACT_BYTES * norm_tokens * h + if light { 0.0 } else { norm_outputs };
    let masks = 2.0 * mask * norm_tokens * h;
    let qkv = ACT_BYTES * tokens * (q + 2.0 * kv);
    // Multi-head latent attention also keeps its latents (the up-projections' inputs, and
    // their norms' inputs); with light recomputation it keeps only those and rebuilds the
    // heads' queries, keys and values from them (DeepSeek-V3 report §3.4).
    let latents = t.mla.map_or(0.0, |m| {
        let (q_lora, kv_lora) = (m.q_lora_rank as f64, m.kv_lora_rank as f64);
        tokens * ((gemm_in + ACT_BYTES) * (q_lora + kv_lora) + ACT_BYTES * m.rope_head_dim as f64)
    });
    let rebuilt_heads = if light && t.mla.is_some() { qkv } else { 0.0 };
    // The attention output feeds the output projection; under FP8 the fused attention's
    // backward still needs it in BF16, besides the FP8 copy.
    let out = t.out_dim() / shape.tp;
    let proj_in = gemm_in * tokens * out + if fp8 { ACT_BYTES * tokens * out } else { 0.0 };
    let heads = t.n_heads as f64 / shape.tp;
    let seq = t.seq_len as f64;
    let scores = match t.attention {
        // Row statistics only (log-sum-exp in FP32).
        AttentionImpl::Flash => 4.0 * shape.micro_batch * heads * seq / shape.cp,
        AttentionImpl::Materialized => {
            let elements = shape.micro_batch * heads * (seq / shape.cp) * seq;
            // Softmax output, and with dropout its mask and output (Korthikanti et al. eq. 2: 5as/h).
            elements * (ACT_BYTES + mask * (1.0 + ACT_BYTES))
        }
    };
    let act_in = t.ffn_kind.up_matrices();
    // Bytes per feed-forward element: the activation's inputs and its output (the down
    // projection's input), and what recomputing the activation rebuilds.
    let (ffn_stored, ffn_rebuilt) = if light {
        (act_in * if fp8 { 1.0 } else { ACT_BYTES }, gemm_in)
    } else {
        (act_in * ACT_BYTES + gemm_in, 0.0)
    };
    let ffn_tensors = |tokens: f64, ffn: f64| tokens * ffn * ffn_stored;
    let ffn_rebuilt_tensors = |tokens: f64, ffn: f64| tokens * ffn * ffn_rebuilt;
    let (ffn, rebuilt) = match (moe_layer, t.moe) {
        (true, Some(moe)) => {
            // An expert tensor-parallel group holds `etp / tp` of a tensor-parallel group's
            // tokens, each expert `1 / etp` of its width (MoE parallel folding).
            let routed = tokens * shape.etp / shape.tp * moe.top_k as f64 * moe.load();
            let expert_ffn = moe.expert_ffn as f64 / shape.etp;
            let shared = moe.n_shared_experts as f64 * moe.expert_ffn as f64 / shape.tp;
            (
                gemm_in * routed * h
                    + ffn_tensors(routed, expert_ffn)
                    + ffn_tensors(tokens, shared),
                ffn_rebuilt_tensors(routed, expert_ffn) + ffn_rebuilt_tensors(tokens, shared),
            )
        }
        // The up-projection's output (the activation's input) and the activation's output are
        // both rebuilt, from the block's input, which the norms keep.
        _ if mlp_up => (0.0, tokens * t.ffn as f64 / shape.tp * (act_in * ACT_BYTES + gemm_in)),
        _ => (
            ffn_tensors(tokens, t.ffn as f64 / shape.tp),
            ffn_rebuilt_tensors(tokens, t.ffn as f64 / shape.tp),
        ),
    };
    // What the recomputation rebuilds during a layer's backward pass (the feed-forward part
    // is nothing unless something of it is recomputed).
    let rebuilt = rebuilt + if light { norm_outputs + rebuilt_heads } else { 0.0 };
    let attention = qkv - rebuilt_heads + latents + proj_in;
    // Cross-attention keeps its norm's input and output, its queries, the context's keys and
    // values, the output projection's input and the kernel's row statistics.
    let cross = t.cross.map_or(0.0, |c| {
        let heads = t.n_heads as f64 / shape.tp;
        let width = heads * t.head_dim as f64;
        let context = shape.micro_batch * c.tokens as f64;
        (ACT_BYTES + gemm_in) * norm_tokens * h
            + ACT_BYTES * (tokens * width + 2.0 * context * width)
            + gemm_in * tokens * width
            + 4.0 * shape.micro_batch * heads * t.seq_len as f64 / shape.cp
    });
    let full = cross
        + match t.hybrid {
            None => norms + masks + attention + scores + ffn,
            // A hybrid's layer holds its share of each kind of mixer and of feed-forward blocks.
            Some(_) => {
                let ffn = if moe_layer { ffn } else { ffn * t.dense_ffn_share() };
                let a = t.attention_share();
                norms
                    + masks
                    + a * (attention + scores)
                    + t.mamba_share() * mamba(inputs, shape, gemm_in)
                    + t.linear_share() * linear(inputs, shape, gemm_in)
                    + ffn
            }
        };
    let scores = scores * t.attention_share();
    let (stored, recomputed) = match (p.recompute, t.attention) {
        (Recompute::None, _) | (Recompute::Selective, AttentionImpl::Flash) => (full, rebuilt),
        (Recompute::Selective, AttentionImpl::Materialized) => (full - scores, scores + rebuilt),
        // Only the layer input survives (Korthikanti et al. eq. 6: 2sbh per layer).
        (Recompute::Full, _) => (ACT_BYTES * norm_tokens * h, full),
    };
    LayerActivations { stored, full, recomputed }
}

/// Bytes a Mamba-2 mixer keeps for its backward pass for one micro-batch, with GEMM inputs at
/// `gemm_in` bytes an element: the input projection's input and output (gate, inputs, `B`, `C`,
/// step sizes), the convolution's output, the scan's chunk states in FP32 and its output, and
/// the gated norm's output, which the output projection reads.
fn mamba(inputs: &Inputs, shape: &Shape, gemm_in: f64) -> f64 {
    let t = &inputs.transformer;
    let Some(y) = t.hybrid else { return 0.0 };
    let m = y.mixer;
    let tokens = shape.tokens;
    let inner = t.mamba_inner() / shape.tp;
    if m.kind == crate::model::MambaKind::Mamba1 {
        // Mamba-1 keeps no states (its backward scans again): the input projection's input
        // and output, the convolution's output, `x_proj`'s output, the step sizes, the scan's
        // output and the output projection's input.
        let (r, n) = (m.dt_rank as f64, m.state as f64);
        return tokens * gemm_in * t.hidden as f64
            + ACT_BYTES * tokens * (2.0 * inner + inner + r + 2.0 * n + inner + inner)
            + gemm_in * tokens * inner;
    }
    let gn = m.groups as f64 * m.state as f64 / shape.tp;
    let heads = m.heads as f64 / shape.tp;
    let states = 4.0 * tokens / m.chunk.max(1) as f64 * inner * m.state as f64;
    tokens * gemm_in * t.hidden as f64
        + ACT_BYTES * tokens * (2.0 * inner + 2.0 * gn + heads)
        + ACT_BYTES * tokens * (inner + 2.0 * gn)
        + states
        + ACT_BYTES * tokens * inner
        + gemm_in * tokens * inner
}

/// Bytes a linear-attention mixer keeps for its backward pass for one micro-batch, with GEMM
/// inputs at `gemm_in` bytes an element: the input projection's input and output, the
/// convolution's output or RWKV-7's six token-shifted inputs and its low-rank projections'
/// middles, the kernel's chunk states in FP32 and its output, and the gated norm's output.
fn linear(inputs: &Inputs, shape: &Shape, gemm_in: f64) -> f64 {
    let t = &inputs.transformer;
    let Some(l) = t.linear_mixer() else { return 0.0 };
    let (tokens, h) = (shape.tokens, t.hidden as f64);
    let values = l.value_width() / shape.tp;
    let heads = l.heads as f64 / shape.tp;
    let states =
        4.0 * tokens / l.chunk.max(1) as f64 * heads * l.head_dim as f64 * l.v_head_dim as f64;
    let mixing = match l.kind {
        crate::model::LinearKind::GatedDeltaNet => {
            ACT_BYTES * tokens * l.conv_channels() / shape.tp
        }
        crate::model::LinearKind::Rwkv7 => ACT_BYTES * tokens * (6.0 * h + l.lora as f64),
    };
    tokens * gemm_in * h
        + ACT_BYTES * tokens * l.projected() / shape.tp
        + mixing
        + states
        + ACT_BYTES * tokens * values
        + gemm_in * tokens * values
}

/// Bytes the vision encoder keeps for one micro-batch: its layers' activations over the patch
/// tokens (it has no experts), and the projector's input; none without an encoder.
fn encoder_activations(inputs: &Inputs) -> f64 {
    let Some(own) = crate::model::step_time::vision::encoder_inputs(inputs) else { return 0.0 };
    let shape = Shape::of(&own);
    let layers = own.transformer.n_layers as f64;
    layers * layer_activations(&own, &shape, false).stored
        + ACT_BYTES * shape.tokens * own.transformer.hidden as f64
}

/// A dense and an MoE layer's activations for one micro-batch. Per-layer activations are the
/// same on every stage (only the layer counts differ) and depend only on the per-chip shape, so
/// a plan search computes them once for all the schedules and ZeRO stages of one shape.
pub(crate) struct LayerMemory([LayerActivations; 2], f64);

impl LayerMemory {
    pub(crate) fn of(inputs: &Inputs, shape: &Shape) -> LayerMemory {
        LayerMemory(
            [layer_activations(inputs, shape, false), layer_activations(inputs, shape, true)],
            encoder_activations(inputs),
        )
    }
}

/// Memory per chip of the stage that needs the most, from the layout's parameters and the
/// layers' activations.
pub(crate) fn per_chip_with(
    inputs: &Inputs,
    shape: &Shape,
    layout: &[Stage; 3],
    layout_params: &[(f64, f64); 3],
    layers: &LayerMemory,
) -> MemoryUse {
    let at = |i: usize| stage_memory(inputs, shape, &layout[i], layout_params[i], layers);
    // With fewer than three stages some repeat (`stages::stages`): each is worked out once.
    let same = |i: usize| layout[i] == layout[i - 1] && layout_params[i] == layout_params[i - 1];
    let first = at(0);
    let second = if same(1) { first } else { at(1) };
    let last = if same(2) { second } else { at(2) };
    [second, last]
        .into_iter()
        .fold(first, |best, m| if m.peak_bytes > best.peak_bytes { m } else { best })
}

/// Memory per chip of one pipeline stage, at the worst phase of a step; `layers` holds a
/// dense and an MoE layer's activations.
fn stage_memory(
    inputs: &Inputs,
    shape: &Shape,
    stage: &Stage,
    (dense, experts): (f64, f64),
    memory: &LayerMemory,
) -> MemoryUse {
    let layers = &memory.0;
    let t = &inputs.transformer;
    let p = &inputs.parallelism;
    let training = &inputs.training;
    let recipe = training.recipe;
    let h = t.hidden as f64;

    let replicas = (shape.dp * shape.cp).max(1.0);
    let expert_replicas = shape.expert_replicas();
    let shard = |sharded: bool| {
        if sharded {
            dense / replicas + experts / expert_replicas
        } else {
            dense + experts
        }
    };
    // The working weights, and the low-precision copies a block-scaled recipe's GEMMs read.
    let weights = shard(p.sharding == Sharding::Full) * training.weight_state_bytes()
        + shard(false) * recipe.weight_copy_bytes();
    let grads =
        shard(matches!(p.sharding, Sharding::Gradients | Sharding::Full)) * training.grad_bytes();
    let optimizer = shard(p.sharding != Sharding::None) * training.optimizer_bytes();
    let state = weights + grads + optimizer;

    let [dense_layer, moe_layer] = layers;
    let (n_dense, n_moe) = (stage.dense_layers as f64, stage.moe_layers as f64);
    let mtp = stage.mtp_layers as f64;
    let mtp_layer = if t.moe.is_some() { moe_layer } else { dense_layer };
    let stored = n_dense * dense_layer.stored + n_moe * moe_layer.stored + mtp * mtp_layer.stored;
    // Offloaded layers keep their stored activations in the host's memory from their forward
    // pass to their backward pass; one layer's are on the device at a time, on their way out
    // or back (Megatron-Core's CPU offloading, MaxText's `offload` remat policies).
    let layers_held = n_dense + n_moe + mtp;
    let offloaded = (p.offload_layers as f64).min(layers_held);
    let one_layer = if layers_held > 0.0 { stored / layers_held } else { 0.0 };
    let in_transit = if offloaded > 0.0 { one_layer } else { 0.0 };
    let offloaded_bytes = offloaded * one_layer * shape.n_microbatches as f64;
    let stored = stored - offloaded * one_layer;
    // The first stage keeps the vision encoder's activations too.
    let stored = if stage.first { stored + memory.1 } else { stored };
    let activations = stored * stage.in_flight;
    let worst = |f: fn(&LayerActivations) -> f64| {
        let d = if stage.dense_layers > 0 { f(dense_layer) } else { 0.0 };
        let m = if stage.moe_layers > 0 { f(moe_layer) } else { 0.0 };
        d.max(m)
    };
    // The logits and what the loss keeps of them, on the last stage's vocabulary shard.
    let logits = if stage.last {
        (1.0 + mtp) * p.cross_entropy.bytes(shape.tokens, t.vocab as f64 / shape.tp)
    } else {
        0.0
    };

    // Sequence-parallel or context-parallel gathers materialise full-length inputs briefly.
    let gathered = ACT_BYTES * shape.tokens * h;
    let layers = stage.layers().max(1) as f64;
    let zero3_layer = if p.sharding == Sharding::Full {
        // The current layer's gathered parameters plus the prefetched next one.
        2.0 * (dense + experts) / layers * recipe.weight_bytes()
    } else {
        0.0
    };
    let fwd_transient = 2.0 * gathered + zero3_layer + in_transit;
    // Gradients of the layer in flight (about half a layer's activations), plus whatever
    // recomputation rebuilds for it.
    let bwd_transient = 2.0 * gathered
        + zero3_layer
        + in_transit
        + worst(|a| a.recomputed)
        + 0.5 * worst(|a| a.full);

    let groups =
        [shape.tp_u, shape.pp_u, shape.dp_u.saturating_mul(shape.cp_u), shape.cp_u, shape.ep_u]
            .iter()
            .filter(|&&g| g > 1)
            .count() as f64;
    let comm = groups * COMM_BYTES_PER_GROUP;

    // The runtime's resident memory, and what its allocator loses of the dynamic memory.
    let (runtime, fragmentation) = p.stack.allocator();
    let fixed = state + comm + runtime;
    let total = |dynamic: f64| fixed + dynamic * (1.0 + fragmentation);
    let hbm = inputs.cluster.chip.hbm_bytes;
    // XLA recomputes stored values when a compiled step would not fit (its rematerialization
    // pass, run against the device's memory limit): activations shrink toward what full
    // recomputation keeps, each layer's input, and what is dropped is rerun in the backward
    // pass (`compiler_remat`).
    let mut activations = activations;
    let mut compiler_remat = 0.0;
    // The loss's backward pass frees the logits before the layers' backward passes begin (on
    // the last stage each micro-batch's loss is followed at once by its backward pass), so the
    // logits meet the forward pass's transients but not the backward pass's.
    let backward_part = |transient: f64| logits.max(transient);
    let over =
        total(activations + (logits + fwd_transient).max(backward_part(bwd_transient))) - hbm;
    if p.stack == Stack::Xla && over > 0.0 {
        let layer_input = ACT_BYTES * shape.norm_tokens(p.sequence_parallel) * h;
        let kept = (n_dense + n_moe + mtp) * layer_input * stage.in_flight;
        let droppable = (activations - kept).max(0.0);
        if droppable > 0.0 {
            let dropped = (over / (1.0 + fragmentation)).min(droppable);
            activations -= dropped;
            compiler_remat = dropped / droppable;
        }
    }
    let forward_dynamic = activations + logits + fwd_transient;
    let backward_dynamic = activations + backward_part(bwd_transient);
    // The optimizer step reads and writes state in place, one tensor chunk at a time.
    let optimizer_dynamic = 0.0;
    let forward_peak = total(forward_dynamic);
    let backward_peak = total(backward_dynamic);
    let optimizer_peak = total(optimizer_dynamic);

    let (phase, acts, logit_part, transient) =
        if backward_peak >= forward_peak && backward_peak >= optimizer_peak {
            // At the loss's backward pass or at a layer's, whichever holds more.
            if logits >= bwd_transient {
                (Phase::Backward, activations, logits, 0.0)
            } else {
                (Phase::Backward, activations, 0.0, bwd_transient)
            }
        } else if forward_peak >= optimizer_peak {
            (Phase::Forward, activations, logits, fwd_transient)
        } else {
            (Phase::Optimizer, 0.0, 0.0, optimizer_dynamic)
        };
    let reserve = runtime + fragmentation * (acts + logit_part + transient);
    let peak = weights + grads + optimizer + acts + logit_part + transient + comm + reserve;
    MemoryUse {
        weights_bytes: finite(weights),
        grads_bytes: finite(grads),
        optimizer_bytes: finite(optimizer),
        activations_bytes: finite(acts),
        logits_bytes: finite(logit_part),
        transient_bytes: finite(transient),
        comm_buffers_bytes: finite(comm),
        reserve_bytes: finite(reserve),
        peak_bytes: finite(peak),
        peak_phase: phase,
        forward_peak_bytes: finite(forward_peak),
        backward_peak_bytes: finite(backward_peak),
        optimizer_peak_bytes: finite(optimizer_peak),
        hbm_bytes: finite(hbm),
        fits: peak <= hbm * (1.0 + 1e-12),
        compiler_remat: finite(compiler_remat),
        offloaded_bytes: finite(offloaded_bytes),
    }
}
