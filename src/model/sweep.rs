//! The same plan at other cluster sizes, for scaling curves.
//!
//! Holds tensor, pipeline, context and expert degrees, the micro-batch and the global batch
//! fixed, and gives the data-parallel degree the chips that remain, as one would grow a cluster
//! by adding replicas. Pure; calls `estimate` once per size. The plant is kept as given, so
//! the power and cost of these points are the plan's own bill of materials; `fabric::scaling`
//! rebuilds the fabric at each size.

use crate::model::{estimate, Inputs};

/// One cluster size on a scaling curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScalingPoint {
    /// Chips in the cluster.
    pub chips: u32,
    /// Days to train at this size.
    pub train_days: f64,
    /// Model FLOPs utilisation at this size.
    pub mfu: f64,
    /// The plan fits in memory at this size.
    pub fits: bool,
    /// Site power at this size, watts.
    pub facility_w: f64,
    /// Amortised cost of the run at this size, USD.
    pub run_usd: f64,
    /// Share of wall-clock time that trains at this size.
    pub goodput: f64,
    /// Model FLOPs per second the whole job achieves while training (MFU times the peak of
    /// the chips used).
    pub model_flops_per_s: f64,
}

impl ScalingPoint {
    /// The point of an estimate at `chips` chips.
    pub fn of(chips: u32, e: &crate::model::Estimate) -> ScalingPoint {
        ScalingPoint {
            chips,
            train_days: e.train_days,
            mfu: e.mfu,
            fits: e.memory.fits,
            facility_w: e.facility.power.facility_w,
            run_usd: e.facility.cost.run_amortized_usd,
            goodput: e.reliability.goodput,
            model_flops_per_s: if e.step_s > 0.0 {
                crate::model::finite(e.model_flops_per_step / e.step_s)
            } else {
                0.0
            },
        }
    }
}

/// Days to train at `chips` if the plan scaled perfectly from `reference`: twice the chips,
/// half the days. The gap to the curve is what communication and bubbles cost at that size.
pub fn ideal_days(reference: &ScalingPoint, chips: u32) -> f64 {
    crate::model::finite(reference.train_days * reference.chips as f64 / chips.max(1) as f64)
}

/// Chip counts a scaling curve visits: powers of two from 64 up, then 100,000.
pub fn default_chip_counts() -> Vec<u32> {
    let mut counts: Vec<u32> = (6..=16).map(|k| 1u32 << k).collect();
    counts.push(100_000);
    counts
}

/// The plan at `chips` chips, data parallelism taking the chips that remain after one model
/// replica; `None` when they do not hold a replica.
pub fn at_size(inputs: &Inputs, chips: u32) -> Option<Inputs> {
    let p = &inputs.parallelism;
    let replica =
        (p.tensor.max(1) as u64 * p.pipeline.max(1) as u64 * p.context.max(1) as u64).max(1);
    let data = chips as u64 / replica;
    if data == 0 {
        return None;
    }
    let mut at = *inputs;
    at.parallelism.data = data.min(u32::MAX as u64) as u32;
    at.cluster.n_chips = chips;
    Some(at)
}

/// The plan at each chip count, skipping sizes too small to hold one model replica.
pub fn scaling(inputs: &Inputs, chip_counts: &[u32]) -> Vec<ScalingPoint> {
    chip_counts
        .iter()
        .filter_map(|&chips| Some(ScalingPoint::of(chips, &estimate(&at_size(inputs, chips)?))))
        .collect()
}
