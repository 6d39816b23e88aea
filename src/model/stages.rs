//! How layers, parameters and in-flight micro-batches fall on pipeline stages.
//!
//! Layers are placed so that no stage carries more work than it must: the last stage also runs
//! the output layer (and any multi-token-prediction modules), so it takes fewer layers, as the
//! Llama 3 report does by hand (arXiv:2407.21783, §3.3.2) and DeepSpeed's parameter-balanced
//! partitioning does automatically; Megatron-LM exposes the same choice as
//! `--decoder-first/last-pipeline-num-layers`. Leading dense layers of an MoE model sit on the
//! earliest stages. Three stages stand for all: the first, the second (the busiest middle one
//! for memory under 1F1B) and the last.

use crate::model::parallelism::Shape;
use crate::model::Transformer;

/// One pipeline stage's share of the model, on one chip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stage {
    /// Layers with a dense feed-forward block.
    pub dense_layers: u32,
    /// Layers with a mixture-of-experts block.
    pub moe_layers: u32,
    /// Holds the input embedding.
    pub first: bool,
    /// Holds the output layer and loss.
    pub last: bool,
    /// Multi-token-prediction modules (only on the last stage).
    pub mtp_layers: u32,
    /// Micro-batches whose activations it holds at once under (interleaved) 1F1B:
    /// `min(m, p - i)` for stage `i`, times `1 + (p - 1) / (p v)` when interleaved
    /// (Korthikanti et al. 2022, arXiv:2205.05198, §4.2.3).
    pub in_flight: f64,
}

impl Stage {
    /// Layers on the stage.
    pub fn layers(&self) -> u32 {
        self.dense_layers + self.moe_layers
    }
}

/// Layers on the first, the fullest middle, and the last stage. Every stage but the last holds
/// at most `k` layers and the last holds the remainder, with `k` chosen to minimise the busiest
/// stage's work `max(k, last + head)` (`head`: the last stage's extra work, in layers). Among
/// the other stages the first gets the fewer layers when they do not divide evenly, since it
/// holds the most micro-batches in flight.
fn layout(total: u32, p: u32, head: f64) -> (u32, u32, u32) {
    if p <= 1 {
        return (total, total, total);
    }
    let head = if head.is_finite() { head.max(0.0) } else { 0.0 };
    let others = p - 1;
    let work = |k: u32| {
        let last = total.saturating_sub(others.saturating_mul(k));
        (k as f64).max(last as f64 + head)
    };
    let lo = total.div_ceil(p).max(1);
    let hi = total.div_ceil(others).max(lo);
    // `k` rises and the last stage's work falls with `k`: the best is where they cross.
    let cross = (total as f64 + head) / p as f64;
    let candidates = [lo, hi, cross.floor() as u32, cross.ceil() as u32];
    let k = candidates.iter().map(|&k| k.clamp(lo, hi)).fold(lo, |best, k| {
        if work(k) < work(best) || (work(k) == work(best) && k < best) {
            k
        } else {
            best
        }
    });
    let last = total.saturating_sub(others.saturating_mul(k));
    let rest = total - last;
    let (per, extra) = (rest / others, rest % others);
    let first = if extra == others { per + 1 } else { per };
    let middle = per + u32::from(extra > 0);
    (first, middle, last)
}

/// `layout`, with the first stage holding `first` layers when that is set (non-zero) and
/// leaves a layer for every other stage: the rest are laid out over the other stages by the
/// same rule.
fn layout_from(total: u32, p: u32, head: f64, first: u32) -> (u32, u32, u32) {
    if first == 0 || p <= 1 || first.saturating_add(p - 1) > total {
        return layout(total, p, head);
    }
    let (second, middle, last) = layout(total - first, p - 1, head);
    if p == 2 {
        return (first, last, last);
    }
    (first, second.max(middle), last)
}

/// The work of the busiest of `p` pipeline stages, in layers (the last stage's output layer
/// counted as `Transformer::head_layers`): the stage that sets the pipeline's pace.
pub(crate) fn busiest(t: &Transformer, p: u32) -> f64 {
    let head = t.head_layers();
    let (first, middle, last) = layout(t.n_layers, p.max(1), head);
    if p <= 1 {
        return t.n_layers as f64 + if head.is_finite() { head.max(0.0) } else { 0.0 };
    }
    (first.max(middle) as f64).max(last as f64 + if head.is_finite() { head.max(0.0) } else { 0.0 })
}

/// The first, second and last stages; with fewer than three stages some repeat, which changes
/// no maximum. A fixed array keeps `estimate` free of allocations.
pub(crate) fn stages(t: &Transformer, shape: &Shape) -> [Stage; 3] {
    let total = t.n_layers;
    let n_dense = total - t.n_moe_layers();
    let p = shape.pp_u.max(1);
    let m = shape.n_microbatches.max(1) as f64;
    let interleave =
        if shape.v > 1.0 && p > 1 { 1.0 + (shape.pp - 1.0) / (shape.pp * shape.v) } else { 1.0 };
    let in_flight = |idx: u32| m.min((p - idx) as f64) * if p > 1 { interleave } else { 1.0 };
    let (first, middle, last) = layout_from(total, p, t.head_layers(), shape.first_stage_layers);
    // Dense layers come first in the network, so they fill the earliest stages.
    let split = |layers: u32, before: u32| {
        let dense = n_dense.saturating_sub(before).min(layers);
        (dense, layers - dense)
    };
    let stage = |layers: u32, before: u32, idx: u32, first: bool, last: bool| {
        let (dense_layers, moe_layers) = split(layers, before);
        let mtp_layers = if last { t.mtp_layers } else { 0 };
        Stage { dense_layers, moe_layers, first, last, mtp_layers, in_flight: in_flight(idx) }
    };
    if p == 1 {
        let only = Stage { in_flight: 1.0, ..stage(total, 0, 0, true, true) };
        return [only; 3];
    }
    let head = stage(first, 0, 0, true, false);
    let second = if p > 2 { stage(middle, first, 1, false, false) } else { head };
    let before_last = total.saturating_sub(last);
    let tail = Stage { in_flight: 1.0, ..stage(last, before_last, p - 1, false, true) };
    [head, second, tail]
}
