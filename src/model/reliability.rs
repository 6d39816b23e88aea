//! What failures take from a run: interruptions from the cluster's component counts and
//! per-component failure rates, checkpoints (their size, stall and interval), and the work and
//! time each interruption loses; from these, goodput and days to train including all of it.
//!
//! Rates per component-hour come from the only public per-component breakdown of a large run,
//! Meta's Llama 3.1 405B (419 unexpected interruptions in 54 days on 16,384 H100 in 2,048
//! servers; Llama 3 report, arXiv:2407.21783, Table 5), except the network's, which come from
//! Alibaba's HPN fleet (SIGCOMM 2024) so that the Llama total is a check, not only a fit.
//! The checkpoint interval is Daly's (2006) optimum, never shorter than a checkpoint's write.

use crate::model::{finite, Bom};

/// How checkpoints are taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Checkpoint {
    /// Training stops while the state is written to storage.
    Sync,
    /// Training stops only to copy the state to host memory; the write to storage overlaps the
    /// next steps (Megatron-Core asynchronous checkpointing; ByteCheckpoint, NSDI 2025).
    #[default]
    Async,
    /// As async, and the copy kept in peers' host memory is what a restart reads (GEMINI, SOSP
    /// 2023): restarts skip reading storage.
    InMemory,
}

/// Failures per component-hour, by component class.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FailureRates {
    /// Per accelerator-hour: faulty GPU, SRAM, system processor, silent data corruption.
    pub chip: f64,
    /// Per accelerator-hour: HBM.
    pub hbm: f64,
    /// Per node-hour: host hardware and maintenance, and unattributed causes.
    pub host: f64,
    /// Per node-hour: software, collective library watchdogs.
    pub software: f64,
    /// Per NIC-hour.
    pub nic: f64,
    /// Per switch-hour.
    pub switch: f64,
    /// Per cable-hour (optics and copper).
    pub link: f64,
}

/// Hours of the Llama 3.1 405B snapshot the rates are counted over: 54 days.
const LLAMA_HOURS: f64 = 54.0 * 24.0;
/// Its accelerators and servers.
const LLAMA_GPUS: f64 = 16_384.0;
const LLAMA_HOSTS: f64 = 2_048.0;

/// Rates with their sources: Llama 3 report Table 5 for chips (148 faulty GPU + 19 SRAM + 17
/// system processor + 6 silent data corruption), HBM (72), hosts (32 maintenance + 22
/// unattributed), software (54 + 7 NCCL watchdog) and NICs (7); Alibaba HPN (SIGCOMM 2024) for
/// switches (0.051% of ToR switches hit critical errors per month) and links (0.057% of NIC-ToR
/// links fail per month).
pub const DEFAULT_RATES: FailureRates = FailureRates {
    chip: 190.0 / (LLAMA_GPUS * LLAMA_HOURS),
    hbm: 72.0 / (LLAMA_GPUS * LLAMA_HOURS),
    host: 54.0 / (LLAMA_HOSTS * LLAMA_HOURS),
    software: 61.0 / (LLAMA_HOSTS * LLAMA_HOURS),
    nic: 7.0 / (LLAMA_GPUS * LLAMA_HOURS),
    switch: 0.000_51 / HOURS_PER_MONTH,
    link: 0.000_57 / HOURS_PER_MONTH,
};

/// Hours in an average month.
const HOURS_PER_MONTH: f64 = 730.0;

/// Host memory copy rate of an accelerator's share of the state during an asynchronous or
/// in-memory checkpoint, bytes/s: a PCIe Gen4-5 x16 link at about half its 32-64 GB/s.
pub const HOST_COPY_BYTES_PER_S: f64 = 25e9;

/// Storage write bandwidth per accelerator when the scenario gives none, bytes/s: Llama 3's
/// 7 TB/s peak over 16,384 GPUs (2 TB/s sustained; Llama 3 report §3.3.4).
pub const STORAGE_BYTES_PER_S_PER_CHIP: f64 = 7e12 / 16_384.0;

/// Detection, restart and catch-up per interruption when the scenario gives none, seconds:
/// MegaScale detects and diagnoses in under 10 minutes (NSDI'24); Llama 3's more than 90%
/// effective training time over 419 interruptions in 54 days allows about 18 minutes lost each.
pub const RESTART_S: f64 = 10.0 * 60.0;

/// What every replica still waits for when one fails under replica recovery, seconds: Meta's
/// fault-tolerant HSDP at about 100,000 GPUs cuts the stall of each failure's recovery from
/// 10 minutes to 3 (detection, the replicas' new quorum and communicators, the step redone;
/// "Training LLMs with Fault Tolerant HSDP on 100,000 GPUs", arXiv:2602.00277, abstract). At
/// most the restart itself.
pub const REPLICA_STALL_S: f64 = 3.0 * 60.0;

/// Failures and recovery as the scenario describes them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reliability {
    /// How checkpoints are taken.
    pub checkpoint: Checkpoint,
    /// Aggregate storage write bandwidth, bytes/s.
    pub storage_bytes_per_s: f64,
    /// Detection, restart and catch-up per interruption, seconds.
    pub restart_s: f64,
    /// The shortest interval between checkpoints written to storage a team sets, seconds
    /// (in-memory snapshots are not held to it).
    pub min_checkpoint_interval_s: f64,
    /// Failure rates.
    pub rates: FailureRates,
    /// The accelerators' rates are the default, Meta's H100 fleet's, on chips of another vendor
    /// (or a chip of the user's own), for which none are published: the estimate says so.
    pub rates_borrowed: bool,
    /// How a run recovers from an interruption that takes nodes.
    pub recovery: Recovery,
    /// Spare nodes the site keeps; `None` for a pool that never runs out.
    pub spare_nodes: Option<u32>,
    /// Time to repair or replace a failed node, seconds.
    pub repair_s: f64,
    /// Days the run must finish in, if there is a deadline.
    pub deadline_days: Option<f64>,
    /// Which days sizing and the deadline's chance hold to (`sizing.confidence`).
    pub confidence: Confidence,
}

/// Which days a deadline is held to: the estimate, or the upper end of its range, which four
/// in five published runs of the same kind of plan did not exceed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Confidence {
    /// The central estimate.
    #[default]
    Central,
    /// The 90th percentile of the estimate's range (`validation::range`): a safe answer.
    P90,
}

/// How a run recovers from an interruption that takes nodes out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Recovery {
    /// Restart from the last checkpoint on spare nodes; when the spares are all out for
    /// repair, wait for one to come back.
    #[default]
    Spare,
    /// No spares: restart once the failed nodes are repaired.
    Wait,
    /// Go on at once on the data-parallel replicas that are whole; the rest rejoin when their
    /// nodes are repaired.
    Elastic,
    /// Only the failed data-parallel replica restarts: the others wait a short stall
    /// (`REPLICA_STALL_S`), redo the step in flight and go on without a checkpoint read, and it
    /// rejoins, its state copied from a peer, once restarted (on a spare node, or when its own
    /// is repaired). Fault-tolerant HSDP as Meta runs it at about 100,000 GPUs
    /// (arXiv:2602.00277); with one replica, the whole job restarts.
    Replica,
}

/// Failures, checkpoints and goodput of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReliabilityEstimate {
    /// Unexpected interruptions per day of the cluster.
    pub interruptions_per_day: f64,
    /// Mean time between interruptions, hours.
    pub mtbf_h: f64,
    /// Bytes one checkpoint writes (weights and optimizer state).
    pub checkpoint_bytes: f64,
    /// Seconds one checkpoint takes to reach storage.
    pub checkpoint_write_s: f64,
    /// Seconds training stops for one checkpoint.
    pub checkpoint_stall_s: f64,
    /// Seconds between checkpoints: a whole number of steps (`checkpoint_steps`) nearest
    /// Daly's optimum, and at least one write.
    pub checkpoint_interval_s: f64,
    /// Steps between checkpoints (0 when the step has no length).
    pub checkpoint_steps: f64,
    /// Seconds each interruption costs: restart, reading the checkpoint back, and the work
    /// since the last checkpoint (half an interval on average).
    pub lost_per_interruption_s: f64,
    /// Share of wall-clock time that trains.
    pub goodput: f64,
    /// Interruptions expected over the run.
    pub expected_interruptions: f64,
    /// Days to train including checkpoints and interruptions; `None` when interruptions come
    /// faster than the run recovers from them, so it never finishes.
    pub effective_train_days: Option<f64>,
    /// Wall-clock seconds spent on checkpoints over the run.
    pub checkpoint_total_s: f64,
    /// Wall-clock seconds of work redone over the run.
    pub lost_work_total_s: f64,
    /// Wall-clock seconds of restarts (with reading checkpoints back) over the run.
    pub restart_total_s: f64,
    /// What the vendor claim (`VENDOR_CLAIM`) would mean at this size.
    pub vendor_claim: ClaimImplies,
}

impl ReliabilityEstimate {
    /// The run finishes despite failures: each interruption costs less than the time between
    /// them.
    pub fn finishes(&self) -> bool {
        self.effective_train_days.is_some()
    }
}

/// A vendor's reliability claim, as a comparison: Moore Threads' KUAE announcement (July 2024)
/// of 15 days or more without failure and a weekly effective training rate of 99% or more.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Claim {
    /// Whose claim it is (a chip preset's `vendor`): it speaks for that vendor's clusters only.
    pub vendor: &'static str,
    /// Claimed mean time between interruptions, hours.
    pub mtbf_h: f64,
    /// Claimed share of time that trains.
    pub effective: f64,
}

/// The KUAE claim.
pub const VENDOR_CLAIM: Claim =
    Claim { vendor: "Moore Threads", mtbf_h: 15.0 * 24.0, effective: 0.99 };

/// What a claim implies at a cluster size, beside what the calibrated rates give.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClaimImplies {
    /// Interruptions per million chip-hours the claim allows.
    pub per_million_chip_hours: f64,
    /// The calibrated rates' interruptions per million chip-hours at this size.
    pub calibrated_per_million_chip_hours: f64,
    /// The most a single interruption may cost for the claimed effective time, hours.
    pub max_lost_per_interruption_h: f64,
}

/// What `claim` implies for a cluster of `chips` chips interrupted `per_hour` times an hour by
/// the calibrated rates.
pub fn implied_by(claim: &Claim, chips: u32, per_hour: f64) -> ClaimImplies {
    let chip_hours = chips.max(1) as f64;
    ClaimImplies {
        per_million_chip_hours: finite(1e6 / (claim.mtbf_h.max(1e-9) * chip_hours)),
        calibrated_per_million_chip_hours: finite(per_hour * 1e6 / chip_hours),
        max_lost_per_interruption_h: finite((1.0 - claim.effective).max(0.0) * claim.mtbf_h),
    }
}

/// Interruptions per hour of a cluster with these component counts.
pub fn interruptions_per_hour(rates: &FailureRates, bom: &Bom, chips: u32) -> f64 {
    let chips = chips as f64;
    let nodes = bom.nodes as f64;
    rates.chip * chips
        + rates.hbm * chips
        + (rates.host + rates.software) * nodes
        + rates.nic * bom.nics as f64
        + rates.switch * (bom.switches() + bom.scale_up_switches + bom.scale_up_spines) as f64
        + rates.link * bom.total_cables() as f64
}

/// Share of wall-clock time that trains, checkpointing every `interval_s` with a stall of
/// `stall_s`, when interruptions come every `mtbf_s` on average and each costs `restart_s` plus
/// the work since the last checkpoint (half an interval): wall time W for training time T is
/// W = T (1 + stall / interval) + (W / MTBF) (restart + interval / 2).
pub fn goodput(interval_s: f64, stall_s: f64, mtbf_s: f64, restart_s: f64) -> f64 {
    goodput_losing(interval_s, stall_s, mtbf_s, restart_s.max(0.0) + interval_s.max(1e-9) / 2.0)
}

/// The same, each interruption costing `lost_s` of the whole cluster's time.
pub fn goodput_losing(interval_s: f64, stall_s: f64, mtbf_s: f64, lost_s: f64) -> f64 {
    let overhead = 1.0 + stall_s.max(0.0) / interval_s.max(1e-9);
    let failing = if mtbf_s.is_finite() && mtbf_s > 0.0 { lost_s.max(0.0) / mtbf_s } else { 0.0 };
    if failing < 1.0 {
        finite(((1.0 - failing) / overhead).clamp(0.0, 1.0))
    } else {
        0.0
    }
}

/// What checkpointing costs a cluster, whatever its step: the time between interruptions, a
/// checkpoint's write and stall, the soonest the next may start, and a restart's cost before
/// the work redone, seconds.
struct Checkpointing {
    mtbf_s: f64,
    write_s: f64,
    stall_s: f64,
    /// No checkpoint starts sooner than the last one is written (asynchronous, which writes
    /// while training goes on) or has stalled training (synchronous), nor than a second after,
    /// nor, written to storage, sooner than the team's shortest interval.
    floor: f64,
    /// The restart and reading the checkpoint back.
    restart_s: f64,
}

impl Checkpointing {
    fn of(r: &Reliability, per_hour: f64, chips: u32, checkpoint_bytes: f64) -> Checkpointing {
        let mtbf_s = if per_hour > 0.0 { 3600.0 / per_hour } else { f64::INFINITY };
        let storage = r.storage_bytes_per_s.max(1.0);
        let write_s = checkpoint_bytes / storage;
        let stall_s = match r.checkpoint {
            Checkpoint::Sync => write_s,
            Checkpoint::Async | Checkpoint::InMemory => {
                checkpoint_bytes / (chips.max(1) as f64 * HOST_COPY_BYTES_PER_S)
            }
        };
        let floor = match r.checkpoint {
            Checkpoint::Sync => stall_s.max(r.min_checkpoint_interval_s),
            Checkpoint::Async => write_s.max(r.min_checkpoint_interval_s),
            Checkpoint::InMemory => write_s,
        }
        .max(1.0);
        let reload_s = match r.checkpoint {
            Checkpoint::InMemory => stall_s,
            Checkpoint::Sync | Checkpoint::Async => write_s,
        };
        Checkpointing {
            mtbf_s,
            write_s,
            stall_s,
            floor,
            restart_s: r.restart_s.max(0.0) + reload_s,
        }
    }
}

/// The most goodput any step allows the cluster: `goodput` at the best checkpoint interval no
/// sooner than `assess_at` allows, found exactly rather than by Daly's approximation. Goodput
/// (1 - (R + t/2) / M) t / (t + d) rises and then falls with the interval t; it peaks where
/// t^2 + 2 d t = 2 M d (1 - R / M). No plan on the cluster has more, so a search bounds days
/// with failures by it.
pub fn best_goodput(r: &Reliability, per_hour: f64, chips: u32, checkpoint_bytes: f64) -> f64 {
    let c = Checkpointing::of(r, per_hour.max(0.0), chips, finite(checkpoint_bytes));
    // A plan of many replicas loses little to each interruption under replica recovery: no
    // bound below all of it.
    if !c.mtbf_s.is_finite() || r.recovery == Recovery::Replica {
        return 1.0;
    }
    let (d, m) = (c.stall_s.max(0.0), c.mtbf_s);
    let a = 1.0 - c.restart_s / m;
    if a <= 0.0 {
        return 0.0;
    }
    let peak = -d + (d * d + 2.0 * m * d * a).sqrt();
    goodput(peak.max(c.floor), d, m, c.restart_s)
}

/// Failures, checkpoints and goodput of training for `train_s` failure-free seconds in steps
/// of `step_s` on `chips` chips in `replicas` data-parallel replicas whose checkpoint is
/// `checkpoint_bytes`.
pub fn assess(
    r: &Reliability,
    bom: &Bom,
    (chips, replicas): (u32, u32),
    checkpoint_bytes: f64,
    train_s: f64,
    step_s: f64,
) -> ReliabilityEstimate {
    let per_hour = interruptions_per_hour(&r.rates, bom, chips);
    assess_at(r, per_hour, (chips, replicas), checkpoint_bytes, train_s, step_s)
}

/// What one interruption costs the run, seconds of the whole cluster's work, when it restarts
/// after `restart_s` and checkpoints every `interval_s`: the restart and the work since the
/// last checkpoint; under replica recovery with several replicas, the stall every replica
/// waits (`replica_stall`), the step in flight, and the failed replica's share of the rest of
/// its restart.
fn lost_per_interruption(
    r: &Reliability,
    replicas: u32,
    restart_s: f64,
    interval_s: f64,
    step_s: f64,
) -> f64 {
    match r.recovery {
        Recovery::Replica if replicas > 1 => {
            let step = if step_s.is_finite() { step_s.max(0.0) } else { 0.0 };
            let stall = replica_stall(restart_s);
            stall + step + (restart_s - stall) / replicas as f64
        }
        _ => restart_s + interval_s / 2.0,
    }
}

/// What every replica waits when one fails under replica recovery restarting in `restart_s`:
/// `REPLICA_STALL_S`, at most the restart.
pub fn replica_stall(restart_s: f64) -> f64 {
    REPLICA_STALL_S.min(restart_s.max(0.0))
}

/// `assess`, with the cluster's interruptions per hour computed before (a plan search computes
/// them once for many plans).
pub fn assess_at(
    r: &Reliability,
    per_hour: f64,
    (chips, replicas): (u32, u32),
    checkpoint_bytes: f64,
    train_s: f64,
    step_s: f64,
) -> ReliabilityEstimate {
    let per_hour = per_hour.max(0.0);
    let Checkpointing { mtbf_s, write_s, stall_s, floor, restart_s } =
        Checkpointing::of(r, per_hour, chips, checkpoint_bytes);
    // Daly (2006): tau = sqrt(2 delta M) - delta for delta < M / 2, else M; an asynchronous
    // checkpoint cannot start before the previous one has reached storage.
    let daly =
        if stall_s < mtbf_s / 2.0 { (2.0 * stall_s * mtbf_s).sqrt() - stall_s } else { mtbf_s };
    // A checkpoint is taken between steps: every whole number of them (the nearest to Daly's
    // optimum), at least one, and no sooner than `floor`.
    let (interval_s, steps) = if step_s.is_finite() && step_s > 0.0 {
        let steps = (daly / step_s).round().max((floor / step_s).ceil()).max(1.0);
        (steps * step_s, steps)
    } else {
        (daly.max(floor), 0.0)
    };
    let lost_per_interruption_s = lost_per_interruption(r, replicas, restart_s, interval_s, step_s);
    // What an interruption costs beyond its restart (its share of it, for a replica alone).
    let (restart_s, lost_work_s) = match r.recovery {
        Recovery::Replica if replicas > 1 => {
            let stall = replica_stall(restart_s);
            let own = stall + (restart_s - stall) / replicas as f64;
            (own, lost_per_interruption_s - own)
        }
        _ => (restart_s, interval_s / 2.0),
    };
    let goodput = goodput_losing(interval_s, stall_s, mtbf_s, lost_per_interruption_s);
    let wall_s = if goodput > 0.0 { train_s / goodput } else { 0.0 };
    let interruptions = if mtbf_s.is_finite() { wall_s / mtbf_s } else { 0.0 };
    let mut e = ReliabilityEstimate {
        interruptions_per_day: per_hour * 24.0,
        mtbf_h: if mtbf_s.is_finite() { mtbf_s / 3600.0 } else { 0.0 },
        checkpoint_bytes,
        checkpoint_write_s: write_s,
        checkpoint_stall_s: stall_s,
        checkpoint_interval_s: interval_s,
        checkpoint_steps: steps,
        lost_per_interruption_s,
        goodput,
        expected_interruptions: interruptions,
        effective_train_days: (goodput > 0.0).then(|| finite(wall_s / 86_400.0)),
        checkpoint_total_s: train_s / interval_s * stall_s,
        lost_work_total_s: interruptions * lost_work_s,
        restart_total_s: interruptions * restart_s,
        vendor_claim: implied_by(&VENDOR_CLAIM, chips, per_hour),
    };
    for x in [
        &mut e.interruptions_per_day,
        &mut e.mtbf_h,
        &mut e.checkpoint_bytes,
        &mut e.checkpoint_write_s,
        &mut e.checkpoint_stall_s,
        &mut e.checkpoint_interval_s,
        &mut e.lost_per_interruption_s,
        &mut e.goodput,
        &mut e.expected_interruptions,
        &mut e.checkpoint_total_s,
        &mut e.lost_work_total_s,
        &mut e.restart_total_s,
    ] {
        *x = finite(*x);
    }
    e
}
