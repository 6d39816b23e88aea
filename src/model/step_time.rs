//! Time of one training step: per-operator rooflines, communication per parallel dimension,
//! pipeline bubble and optimizer step, assembled into a breakdown that sums to the total.
//!
//! Operators per layer follow Megatron-LM's transformer layer (Shoeybi et al. 2019,
//! arXiv:1909.08053, Fig. 3; Korthikanti et al. 2022, arXiv:2205.05198, Fig. 5 for sequence
//! parallelism). Each operator's time is the larger of its FLOP time at the achievable GEMM
//! rate and its memory time at the achievable bandwidth (Williams et al. 2009, "Roofline").
//! The 1F1B schedule and its bubble `(p - 1) / v` micro-batch times follow Narayanan et al. 2021
//! (arXiv:2104.04473, §2.2, eq. 1 and the interleaved form).

mod cross;
mod data_parallel;
mod linear;
mod mamba;
mod ops;
pub(crate) mod vision;

use data_parallel::{data_parallel, forward_gathers, optimizer_s};
use ops::{Ctx, Pass, Passes};

use crate::model::collectives::point_to_point_s;
use crate::model::efficiency::{overlapped, slowest_of};
use crate::model::parallelism::Shape;
use crate::model::stages::Stage;
use crate::model::{finite, AttentionImpl, Inputs, Recompute};

/// Bytes of one activation element (BF16/FP16).
pub(super) const ACT_BYTES: f64 = 2.0;

/// Parts of one step, seconds. They sum to `total()`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepBreakdown {
    /// Forward and backward compute (GEMMs, attention, element-wise) of all micro-batches on the
    /// busiest pipeline stage.
    pub compute_s: f64,
    /// Forward work rerun in the backward pass by activation recomputation.
    pub recompute_s: f64,
    /// Tensor-parallel collectives, not overlapped (Megatron-LM default).
    pub tp_exposed_s: f64,
    /// Context-parallel key/value exchange left over after hiding behind attention.
    pub cp_exposed_s: f64,
    /// Expert-parallel all-to-all (dispatch and combine) left exposed.
    pub ep_exposed_s: f64,
    /// Pipeline point-to-point sends on the critical path.
    pub pp_exposed_s: f64,
    /// Data-parallel gradient reduction and parameter gathers left over after overlap, plus the
    /// slowdown the overlapped part causes to compute (`efficiency::OVERLAP_INTERFERENCE`).
    pub dp_exposed_s: f64,
    /// Pipeline fill and drain.
    pub bubble_s: f64,
    /// Optimizer update (memory-bound Adam over this chip's shard).
    pub optimizer_s: f64,
    /// Waiting for the slowest of the chips: identical chips run at different speeds, and a
    /// synchronous step goes at the pace of the slowest (`efficiency::slowest_of`).
    pub straggler_s: f64,
    /// The GPU waiting on the host: the MoE token dispatcher's copy of the tokens per expert to
    /// the host and the launches after it, and each layer's kernels launched one at a time
    /// (`Software::moe_host_s`, `Software::layer_host_s`).
    pub host_s: f64,
    /// Copies of offloaded activations to the host and back that the compute beside them does
    /// not hide (`Parallelism::offload_layers`).
    pub offload_s: f64,
}

impl StepBreakdown {
    /// Share of a step of `step_s` the accelerators spend in kernels rather than waiting on
    /// the network or the pipeline: compute, recomputation and the optimizer.
    pub fn busy_share(&self, step_s: f64) -> f64 {
        if !(step_s > 0.0) {
            return 0.0;
        }
        ((self.compute_s + self.recompute_s + self.optimizer_s) / step_s).clamp(0.0, 1.0)
    }

    /// The step with `share` of the stored activations recomputed by the compiler to fit
    /// (`MemoryUse::compiler_remat`): that share of a forward pass, a third of the
    /// forward-and-backward compute, is rerun.
    fn with_compiler_remat(mut self, share: f64) -> StepBreakdown {
        if share > 0.0 {
            self.recompute_s += finite(share.min(1.0) * self.compute_s / 3.0);
        }
        self
    }

    /// The step with what the memory plan adds to it (`memory::MemoryUse`): the share of the
    /// stored activations the compiler recomputes, and the bytes of offloaded activations
    /// copied each way over a host link of `host_bytes_per_s`.
    pub(crate) fn with_memory(
        self,
        compiler_remat: f64,
        offloaded_bytes: f64,
        host_bytes_per_s: f64,
    ) -> StepBreakdown {
        self.with_compiler_remat(compiler_remat).with_offload(offloaded_bytes, host_bytes_per_s)
    }

    /// The step with `bytes` of offloaded activations sent to the host during the forward
    /// passes and fetched back during the backward passes over a link of `bytes_per_s` each
    /// way: the copies run beside the compute of their pass (a third of the forward and
    /// backward compute, and the rest with the recomputation), and what outlasts it is exposed.
    fn with_offload(mut self, bytes: f64, bytes_per_s: f64) -> StepBreakdown {
        if bytes > 0.0 {
            let copy_s = bytes / bytes_per_s.max(1.0);
            let forward = self.compute_s / 3.0;
            let backward = self.compute_s - forward + self.recompute_s;
            self.offload_s = finite((copy_s - forward).max(0.0) + (copy_s - backward).max(0.0));
        }
        self
    }

    /// Sum of the parts, seconds.
    pub fn total(&self) -> f64 {
        self.parts().iter().map(|(_, s)| s).sum()
    }

    /// Every part with its id (worded as `part.<id>`; the report's keys without `_s`), in
    /// display order, seconds.
    pub fn parts(&self) -> [(&'static str, f64); 12] {
        [
            ("compute", self.compute_s),
            ("recompute", self.recompute_s),
            ("tp_exposed", self.tp_exposed_s),
            ("cp_exposed", self.cp_exposed_s),
            ("ep_exposed", self.ep_exposed_s),
            ("pp_exposed", self.pp_exposed_s),
            ("dp_exposed", self.dp_exposed_s),
            ("bubble", self.bubble_s),
            ("optimizer", self.optimizer_s),
            ("straggler", self.straggler_s),
            ("host", self.host_s),
            ("offload", self.offload_s),
        ]
    }
}

/// Time each dimension's traffic keeps the links busy in one step, seconds, hidden or not.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkTimes {
    /// Tensor-parallel collectives.
    pub tp_s: f64,
    /// Context-parallel key/value exchange.
    pub cp_s: f64,
    /// Expert-parallel all-to-all.
    pub ep_s: f64,
    /// Pipeline point-to-point.
    pub pp_s: f64,
    /// Data-parallel reduction and gathers.
    pub dp_s: f64,
}

/// Parameters held by one chip of each stage of `layout`.
pub(crate) fn layout_params(
    inputs: &Inputs,
    shape: &Shape,
    layout: &[Stage; 3],
) -> [(f64, f64); 3] {
    let ctx = Ctx::new(inputs, shape);
    layout.map(|stage| ctx.stage_params(&stage))
}

/// One layer of each kind, the embedding and the output layer, for one micro-batch. They
/// depend only on the per-chip shape (`ops`), so a plan search computes them once for all the
/// schedules and ZeRO stages it tries on one shape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayerCosts {
    dense: Passes,
    moe: Passes,
    embedding: Passes,
    logits: Passes,
}

impl LayerCosts {
    pub(crate) fn of(inputs: &Inputs, shape: &Shape) -> LayerCosts {
        let ctx = Ctx::new(inputs, shape);
        let mixers = ctx.mixers();
        let dense = ctx.layer_with(false, mixers);
        LayerCosts {
            dense,
            moe: if inputs.transformer.moe.is_some() {
                ctx.layer_with(true, mixers)
            } else {
                dense
            },
            // The first stage also runs the vision encoder, if any.
            embedding: match inputs.transformer.vision {
                None => ctx.embedding(),
                Some(_) => ctx.embedding() + ctx.vision_encoder(),
            },
            logits: ctx.logits(),
        }
    }
}

/// What of a step does not depend on the ZeRO stage: the busiest stage's passes, the
/// pipeline's sends and its bubble. The plan search computes it once for the ZeRO stages of a
/// plan (`step_from` adds the data-parallel traffic and the update).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepBase {
    busiest: Passes,
    pp_link: f64,
    pp_exposed: f64,
    bubble: f64,
    /// The bubble of a pipeline that runs forward passes only: its fill and drain take the
    /// average stage's forward, and the sends go one way.
    forward_bubble: f64,
}

/// The parts of a step no ZeRO stage changes.
pub(crate) fn step_base(
    inputs: &Inputs,
    shape: &Shape,
    layout: &[Stage; 3],
    layers: &LayerCosts,
) -> StepBase {
    let ctx = Ctx::new(inputs, shape);
    let t = &inputs.transformer;
    let m = shape.n_microbatches as f64;

    let busiest = busiest_stage(inputs, layout, layers);
    let average = average_stage(inputs, shape, layers);

    // Pipeline sends: activations forward, gradients backward, once per virtual stage.
    // Megatron-LM's scatter/gather optimisation sends 1/tp of the tensor per rank (§4.1).
    let pp_link = if shape.pp_u > 1 {
        let bytes = shape.tokens * t.hidden as f64 * ACT_BYTES / shape.tp;
        let group =
            ctx.group(shape.pp_u, shape.tp_u.saturating_mul(shape.cp_u).saturating_mul(shape.dp_u));
        let one = point_to_point_s(
            bytes,
            group.crosses_domains(),
            &inputs.cluster.scale_up,
            // Neighbouring stages sit one stride apart; only that distance decides whether a
            // send leaves its pod.
            &inputs.cluster.scale_out_for(group.span / group.size.max(1) as u64),
        );
        2.0 * m * shape.v * one
    } else {
        0.0
    };
    // With overlap, each send travels while the next chunk computes (one chunk is a stage's
    // forward or backward of one micro-batch on one virtual stage).
    let pp_exposed = if inputs.parallelism.pp_overlap && pp_link > 0.0 {
        let sends = 2.0 * m * shape.v;
        let chunk = 0.5 * (busiest.fwd.compute + busiest.bwd.compute) / shape.v;
        sends * overlapped(pp_link / sends, chunk)
    } else {
        pp_link
    };
    let (bubble, forward_bubble) = if shape.pp_u > 1 {
        let rounds = (shape.pp - 1.0) / shape.v;
        (
            rounds * (average.total() + pp_link / m),
            rounds * (average.fwd.total() + pp_link / (2.0 * m)),
        )
    } else {
        (0.0, 0.0)
    };
    StepBase { busiest, pp_link, pp_exposed, bubble, forward_bubble }
}

/// One micro-batch's passes through the busiest of the layout's stages, which sets the pace
/// of the steady state.
fn busiest_stage(inputs: &Inputs, layout: &[Stage; 3], layers: &LayerCosts) -> Passes {
    let t = &inputs.transformer;
    let LayerCosts { dense, moe, embedding, logits } = *layers;
    let stage_passes = |stage: &Stage| {
        let mut passes = dense * stage.dense_layers as f64 + moe * stage.moe_layers as f64;
        if stage.first {
            passes = passes + embedding;
        }
        if stage.last {
            // Each multi-token-prediction module is one more block and one more output pass.
            let mtp_block = if t.moe.is_some() { moe } else { dense };
            passes = passes + (logits + (mtp_block + logits) * stage.mtp_layers as f64);
        }
        passes
    };
    layout.iter().map(stage_passes).fold(Passes::default(), |a, b| {
        if b.total() > a.total() {
            b
        } else {
            a
        }
    })
}

/// One micro-batch's passes through an average stage: every layer, the embedding, the output
/// layer and the multi-token-prediction modules, shared over the pipeline's stages: what the
/// bubble is counted in.
fn average_stage(inputs: &Inputs, shape: &Shape, layers: &LayerCosts) -> Passes {
    let t = &inputs.transformer;
    let LayerCosts { dense, moe, embedding, logits } = *layers;
    let n_moe = t.n_moe_layers() as f64;
    let mtp_block = if t.moe.is_some() { moe } else { dense };
    (dense * (t.n_layers as f64 - n_moe)
        + moe * n_moe
        + embedding
        + logits
        + (mtp_block + logits) * t.mtp_layers as f64)
        * (1.0 / shape.pp)
}

/// The least step any plan of one shape can take, whatever its ZeRO stage and overlaps: its
/// micro-batches through the busiest stage (`steady_s`), and the bubble, `bubble_s` at one
/// virtual stage, divided by the virtual stages. Every other part of a step (`StepBreakdown`)
/// only adds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeastStep {
    pub steady_s: f64,
    pub bubble_s: f64,
}

impl LeastStep {
    /// For the shape, layout and layer costs of a plan, whatever its virtual stages.
    pub(crate) fn of(
        inputs: &Inputs,
        shape: &Shape,
        layout: &[Stage; 3],
        layers: &LayerCosts,
    ) -> LeastStep {
        // As `busiest_stage` and `average_stage` add them, in seconds rather than passes: a
        // search works this out for every shape of a cell before judging any plan.
        let t = &inputs.transformer;
        let [dense, moe, embedding, logits] =
            [layers.dense, layers.moe, layers.embedding, layers.logits].map(|p| p.total());
        let mtp_block = if t.moe.is_some() { moe } else { dense };
        let stage = |s: &Stage| {
            dense * s.dense_layers as f64
                + moe * s.moe_layers as f64
                + if s.first { embedding } else { 0.0 }
                + if s.last { logits + (mtp_block + logits) * s.mtp_layers as f64 } else { 0.0 }
        };
        let busiest = layout.iter().map(stage).fold(0.0, f64::max);
        let bubble = if shape.pp_u > 1 {
            let n_moe = t.n_moe_layers() as f64;
            let all = dense * (t.n_layers as f64 - n_moe)
                + moe * n_moe
                + embedding
                + logits
                + (mtp_block + logits) * t.mtp_layers as f64;
            (shape.pp - 1.0) * all / shape.pp
        } else {
            0.0
        };
        LeastStep {
            steady_s: crate::model::finite(shape.n_microbatches as f64 * busiest),
            bubble_s: crate::model::finite(bubble),
        }
    }

    /// Seconds, with `v` virtual stages.
    pub(crate) fn at(&self, v: u32) -> f64 {
        self.steady_s + self.bubble_s / v.max(1) as f64
    }
}

/// The step of a plan whose ZeRO-independent parts are `base`: its data-parallel traffic and
/// update added.
pub(crate) fn step_from(
    inputs: &Inputs,
    shape: &Shape,
    layout_params: &[(f64, f64); 3],
    base: &StepBase,
) -> (StepBreakdown, LinkTimes) {
    let ctx = Ctx::new(inputs, shape);
    let m = shape.n_microbatches as f64;
    let StepBase { busiest, pp_link, pp_exposed, bubble, .. } = *base;
    let params = heaviest(layout_params);
    let (dp_link, dp_exposed) = data_parallel(&ctx, &busiest, params);
    let optimizer = optimizer_s(&ctx, params);

    let per_step =
        |f: fn(&Pass) -> f64| m * (f(&busiest.fwd) + f(&busiest.bwd) + f(&busiest.recompute));
    let compute = m * (busiest.fwd.compute + busiest.bwd.compute);
    let recompute = m * busiest.recompute.compute;
    let breakdown = StepBreakdown {
        compute_s: compute,
        recompute_s: recompute,
        tp_exposed_s: per_step(|x| x.tp.exposed),
        cp_exposed_s: per_step(|x| x.cp.exposed),
        ep_exposed_s: per_step(|x| x.ep.exposed),
        pp_exposed_s: pp_exposed,
        dp_exposed_s: dp_exposed,
        bubble_s: bubble,
        optimizer_s: optimizer,
        straggler_s: slowest_of(shape.chips_used) * (compute + recompute + bubble),
        host_s: per_step(|x| x.host),
        offload_s: 0.0,
    };
    let link = LinkTimes {
        tp_s: per_step(|x| x.tp.link),
        cp_s: per_step(|x| x.cp.link),
        ep_s: per_step(|x| x.ep.link),
        pp_s: pp_link,
        dp_s: dp_link,
    };
    (clean(breakdown), clean_links(link))
}

/// One forward pass over a step's tokens on the plan, with no backward pass and no update:
/// what an evaluation of as many tokens, or a scoring model's pass over a batch, costs. Each
/// micro-batch's forward through the busiest stage with its collectives, the pipeline's fill
/// and drain of forwards and its sends one way, under ZeRO-3 the parameters gathered once a
/// micro-batch, and the slowest chip's lag on that compute. Nothing is stored for a backward
/// pass, so nothing is recomputed or offloaded.
pub(crate) fn forward_pass_s(
    inputs: &Inputs,
    shape: &Shape,
    layout_params: &[(f64, f64); 3],
    base: &StepBase,
) -> f64 {
    let ctx = Ctx::new(inputs, shape);
    let m = shape.n_microbatches as f64;
    let StepBase { busiest, pp_exposed, forward_bubble, .. } = *base;
    let gathers = forward_gathers(&ctx, &busiest, heaviest(layout_params));
    let compute = m * busiest.fwd.compute;
    finite(
        m * busiest.fwd.total()
            + forward_bubble
            + pp_exposed / 2.0
            + gathers
            + slowest_of(shape.chips_used) * (compute + forward_bubble),
    )
}

/// The (dense, expert) parameters of the stage holding the most: it sets the data-parallel
/// traffic and the update.
fn heaviest(layout_params: &[(f64, f64); 3]) -> (f64, f64) {
    layout_params.iter().fold((0.0, 0.0), |a, &b| if b.0 + b.1 > a.0 + a.1 { b } else { a })
}

/// FLOPs recomputation adds to one sequence (for hardware FLOPs utilisation).
pub(crate) fn recompute_flops_per_sequence(inputs: &Inputs) -> f64 {
    let t = &inputs.transformer;
    // The dense feed-forward blocks' up-projections (and gates) rerun (`recompute_mlp_up`).
    let mlp_up = if inputs.parallelism.recompute_mlp_up {
        let n_in = t.ffn_kind.up_matrices();
        let share = if t.hybrid.is_some() { t.dense_ffn_share() } else { 1.0 };
        let dense = t.n_layers.saturating_sub(t.n_moe_layers()) as f64 * share;
        2.0 * t.seq_len as f64 * t.hidden as f64 * n_in * t.ffn as f64 * dense
    } else {
        0.0
    };
    match inputs.parallelism.recompute {
        Recompute::None => mlp_up,
        Recompute::Selective => match t.attention {
            AttentionImpl::Flash => mlp_up,
            AttentionImpl::Materialized => t.attention_score_flops_per_sequence() + mlp_up,
        },
        Recompute::Full => {
            let s = t.seq_len as f64;
            let logits = 6.0 * s * t.hidden as f64 * t.vocab as f64;
            (t.model_flops_per_sequence() - logits).max(0.0) / 3.0
        }
    }
}

fn clean(b: StepBreakdown) -> StepBreakdown {
    use crate::model::finite;
    StepBreakdown {
        compute_s: finite(b.compute_s),
        recompute_s: finite(b.recompute_s),
        tp_exposed_s: finite(b.tp_exposed_s),
        cp_exposed_s: finite(b.cp_exposed_s),
        ep_exposed_s: finite(b.ep_exposed_s),
        pp_exposed_s: finite(b.pp_exposed_s),
        dp_exposed_s: finite(b.dp_exposed_s),
        bubble_s: finite(b.bubble_s),
        optimizer_s: finite(b.optimizer_s),
        straggler_s: finite(b.straggler_s),
        host_s: finite(b.host_s),
        offload_s: finite(b.offload_s),
    }
}

fn clean_links(l: LinkTimes) -> LinkTimes {
    use crate::model::finite;
    LinkTimes {
        tp_s: finite(l.tp_s),
        cp_s: finite(l.cp_s),
        ep_s: finite(l.ep_s),
        pp_s: finite(l.pp_s),
        dp_s: finite(l.dp_s),
    }
}
