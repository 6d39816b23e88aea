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
//!
//! Bounded whatever the plan: a stage's passes beyond what `MAX_EVENTS` leaves it are summarised
//! as one interval of its steady state (`Kind::Steady`, standing for the passes it covers), and
//! a pass of more than `MAX_CHUNKS` interleaved chunks is one interval, so a trace holds about
//! `MAX_EVENTS` intervals at most and still sums to the step on every stage.

use crate::model::Estimate;

/// Intervals a timeline holds about at most, over all its stages.
pub const MAX_EVENTS: usize = 40_000;

/// Chunks of an interleaved pass shown apart at most; a pass of more is one interval.
pub const MAX_CHUNKS: u32 = 8;

/// Passes shown at each end of a stage's schedule at least, however many stages there are.
const MIN_SHOWN: u64 = 4;

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
    /// Waiting for offloaded activations to reach the host or come back.
    Offload,
    /// Waiting for the slowest chip.
    Straggler,
    /// Passes of the middle of the schedule, summarised as one interval (`Event::passes`).
    Steady,
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
            Kind::Offload => "offload",
            Kind::Straggler => "straggler",
            Kind::Steady => "steady",
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
    /// The virtual stage's chunk, when interleaved and shown apart.
    pub chunk: Option<u32>,
    pub start_s: f64,
    pub dur_s: f64,
    /// The forward and backward passes a `Kind::Steady` interval stands for; 0 for the rest.
    pub passes: u64,
}

/// A stage's 1F1B schedule of `m` micro-batches with `warm` forwards before the first
/// backward: pass `j` of its `2m` is micro-batch `i`, forward or not.
#[derive(Clone, Copy)]
struct Schedule {
    m: u64,
    warm: u64,
}

impl Schedule {
    fn pass(self, j: u64) -> (u64, bool) {
        let Schedule { m, warm } = self;
        if j < warm {
            (j, true)
        } else if j < 2 * m - warm {
            let k = j - warm;
            if k % 2 == 0 {
                (warm + k / 2, true)
            } else {
                (k / 2, false)
            }
        } else {
            (m - warm + (j - (2 * m - warm)), false)
        }
    }

    /// Forward passes among the first `j`.
    fn forwards_before(self, j: u64) -> u64 {
        let Schedule { m, warm } = self;
        if j <= warm {
            j
        } else if j <= 2 * m - warm {
            warm + (j - warm).div_ceil(2)
        } else {
            m
        }
    }
}

/// The step of `e` as a timeline over `stages` pipeline stages, `virtual_stages` chunks each,
/// stage by stage in time order, about `MAX_EVENTS` intervals at most.
pub fn timeline(e: &Estimate, stages: u32, virtual_stages: u32) -> Vec<Event> {
    let shown_chunks = if virtual_stages > MAX_CHUNKS { 1 } else { virtual_stages.max(1) };
    let per_pass = (shown_chunks + 5) as u64;
    let ends = MAX_EVENTS as u64 / (stages.max(1) as u64 * per_pass * 2);
    summarised(e, stages, virtual_stages, ends, None)
}

/// The same with at most `ends` passes shown at each end of a stage's schedule (at least
/// `MIN_SHOWN`), the rest summarised, for the stages of `only` (all when `None`): a drawing
/// lays out the stages it draws and the passes it can make out.
pub fn summarised(
    e: &Estimate,
    stages: u32,
    virtual_stages: u32,
    ends: u64,
    only: Option<&[u32]>,
) -> Vec<Event> {
    let pp = stages.max(1);
    let v = virtual_stages.max(1);
    let shown_chunks = if v > MAX_CHUNKS { 1 } else { v };
    let ends = ends.max(MIN_SHOWN);
    let m = e.n_microbatches.max(1) as u64;
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
        (Kind::Offload, per(b.offload_s)),
    ];
    let (send, host) = (per(b.pp_exposed_s) / 2.0, per(b.host_s) / 2.0);
    // A whole pass's time, as the summary of the passes it stands for adds them up.
    let pass_s = |fwd: bool| {
        let share = if fwd { 1.0 / 3.0 } else { 2.0 / 3.0 };
        let exposed = comm.iter().fold(0.0, |all, (_, x)| all + x * share);
        host + if fwd { forward } else { backward } + exposed + send
    };
    let mut events = Vec::new();
    for stage in (0..pp).filter(|s| only.is_none_or(|only| only.contains(s))) {
        let mut at = 0.0;
        let mut emit = |kind: Kind,
                        micro_batch: Option<u32>,
                        chunk: Option<u32>,
                        dur: f64,
                        passes: u64| {
            if dur > 0.0 {
                let start_s = at;
                events.push(Event { stage, kind, micro_batch, chunk, start_s, dur_s: dur, passes });
                at += dur;
            }
        };
        let fill = if pp > 1 { b.bubble_s * stage as f64 / (pp - 1) as f64 } else { 0.0 };
        emit(Kind::Bubble, None, None, fill, 0);
        // 1F1B: the stage's warm-up forwards, then one forward and one backward in turn, then
        // the backwards left.
        let schedule = Schedule { m, warm: ((pp - 1 - stage) as u64).min(m) };
        let all = 2 * m;
        let (head, tail) = if all > 2 * ends { (ends, all - ends) } else { (all, all) };
        for j in (0..head).chain(tail..all) {
            if j == tail && tail > head {
                let forwards = schedule.forwards_before(tail) - schedule.forwards_before(head);
                let passes = tail - head;
                let dur =
                    forwards as f64 * pass_s(true) + (passes - forwards) as f64 * pass_s(false);
                emit(Kind::Steady, None, None, dur, passes);
            }
            let (i, fwd) = schedule.pass(j);
            let i = i.min(u32::MAX as u64) as u32;
            let (kind, time, share) = if fwd {
                (Kind::Forward, forward, 1.0 / 3.0)
            } else {
                (Kind::Backward, backward, 2.0 / 3.0)
            };
            emit(Kind::Host, Some(i), None, host, 0);
            for c in 0..shown_chunks {
                let chunk = (shown_chunks > 1).then_some(c);
                emit(kind, Some(i), chunk, time / shown_chunks as f64, 0);
            }
            for (k, x) in comm {
                emit(k, Some(i), None, x * share, 0);
            }
            emit(Kind::Pp, Some(i), None, send, 0);
        }
        emit(Kind::Bubble, None, None, b.bubble_s - fill, 0);
        emit(Kind::Dp, None, None, b.dp_exposed_s, 0);
        emit(Kind::Optimizer, None, None, b.optimizer_s, 0);
        emit(Kind::Straggler, None, None, b.straggler_s, 0);
    }
    events
}
