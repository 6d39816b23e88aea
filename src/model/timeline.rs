//! The step as a timeline: every pipeline stage's forward and backward micro-batches in
//! schedule order (1F1B, each micro-batch split into its virtual stages' chunks when
//! interleaved), the exposed communication after the pass it belongs to, the pipeline's fill
//! and drain, and the step's tail (data-parallel reduction, optimizer, the slowest chip's
//! wait), laid out from the estimate's own parts so every stage's events sum to the step.
//!
//! Each stage runs at the busiest stage's pace (the one the estimate times), so the timeline
//! shows where each part of the step falls, not stage-to-stage differences; a stage's fill
//! waits before its first forward and its drain after its last backward, in proportion to its
//! place in the pipeline (the first stage fills least and drains most).

use crate::model::Estimate;

/// What an interval of a stage's step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Forward,
    Backward,
    /// Tensor-parallel collectives left exposed.
    Tp,
    /// Context-parallel exchange left exposed.
    Cp,
    /// Expert all-to-all left exposed.
    Ep,
    /// Pipeline sends on the critical path.
    Pp,
    /// The host launching work or copying token counts.
    Host,
    /// Waiting for the pipeline to fill or drain.
    Bubble,
    /// Data-parallel reduction left exposed.
    Dp,
    Optimizer,
    /// Waiting for the slowest chip.
    Straggler,
}

impl Kind {
    /// The kind's name in a trace (`traceEvents`' `name` and `cat`).
    pub fn id(self) -> &'static str {
        match self {
            Kind::Forward => "forward",
            Kind::Backward => "backward",
            Kind::Tp => "tp",
            Kind::Cp => "cp",
            Kind::Ep => "ep",
            Kind::Pp => "pp",
            Kind::Host => "host",
            Kind::Bubble => "bubble",
            Kind::Dp => "dp",
            Kind::Optimizer => "optimizer",
            Kind::Straggler => "straggler",
        }
    }
}

/// One interval on one stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// Pipeline stage (rank along the pipeline), from 0.
    pub stage: u32,
    pub kind: Kind,
    /// The micro-batch, for passes and the communication that follows them.
    pub micro_batch: Option<u32>,
    /// The virtual stage's chunk, when interleaved.
    pub chunk: Option<u32>,
    pub start_s: f64,
    pub dur_s: f64,
}

/// The step of `e` as a timeline over `stages` pipeline stages, `virtual_stages` chunks each,
/// stage by stage in time order.
pub fn timeline(e: &Estimate, stages: u32, virtual_stages: u32) -> Vec<Event> {
    let pp = stages.max(1);
    let v = virtual_stages.max(1);
    let m = e.n_microbatches.max(1);
    let b = &e.breakdown;
    let per = |x: f64| x.max(0.0) / m as f64;
    // A micro-batch's forward pass is a third of its compute, its backward two thirds with
    // the recomputation; the exposed communication splits the same way.
    let (forward, backward) =
        (per(b.compute_s) / 3.0, per(b.compute_s) * 2.0 / 3.0 + per(b.recompute_s));
    let comm = [
        (Kind::Tp, per(b.tp_exposed_s)),
        (Kind::Cp, per(b.cp_exposed_s)),
        (Kind::Ep, per(b.ep_exposed_s)),
    ];
    let (send, host) = (per(b.pp_exposed_s) / 2.0, per(b.host_s) / 2.0);
    let mut events = Vec::new();
    for stage in 0..pp {
        let mut at = 0.0;
        let mut push = |kind: Kind, micro_batch: Option<u32>, chunk: Option<u32>, dur: f64| {
            if dur > 0.0 {
                events.push(Event { stage, kind, micro_batch, chunk, start_s: at, dur_s: dur });
                at += dur;
            }
        };
        let fill = if pp > 1 { b.bubble_s * stage as f64 / (pp - 1) as f64 } else { 0.0 };
        push(Kind::Bubble, None, None, fill);
        let pass =
            |push: &mut dyn FnMut(Kind, Option<u32>, Option<u32>, f64), i: u32, fwd: bool| {
                let (kind, time, share) = if fwd {
                    (Kind::Forward, forward, 1.0 / 3.0)
                } else {
                    (Kind::Backward, backward, 2.0 / 3.0)
                };
                push(Kind::Host, Some(i), None, host);
                for c in 0..v {
                    push(kind, Some(i), (v > 1).then_some(c), time / v as f64);
                }
                for (k, x) in comm {
                    push(k, Some(i), None, x * share);
                }
                push(Kind::Pp, Some(i), None, send);
            };
        // 1F1B: the stage's warm-up forwards, then one forward and one backward in turn, then
        // the backwards left.
        let warm = (pp - 1 - stage).min(m);
        for i in 0..warm {
            pass(&mut push, i, true);
        }
        for i in 0..m - warm {
            pass(&mut push, warm + i, true);
            pass(&mut push, i, false);
        }
        for i in m - warm..m {
            pass(&mut push, i, false);
        }
        push(Kind::Bubble, None, None, b.bubble_s - fill);
        push(Kind::Dp, None, None, b.dp_exposed_s);
        push(Kind::Optimizer, None, None, b.optimizer_s);
        push(Kind::Straggler, None, None, b.straggler_s);
    }
    events
}
