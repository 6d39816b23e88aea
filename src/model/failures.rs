//! A run's interruptions as a distribution: many runs simulated one interruption at a time
//! (Monte Carlo), so the days to train come with their 10th, 50th and 90th percentiles and the
//! chance of finishing by each day, not only their expected value (`reliability::assess`).
//!
//! Interruptions arrive at the rates `reliability` counts, class by class, and each takes the
//! nodes its fault domain holds: one node for a chip, memory, host, NIC or cable; none for
//! software; every node under a leaf switch, or in a rack-scale domain for a scale-up switch
//! tray. Each costs the restart and the work since the last checkpoint (drawn, not halved);
//! the nodes it takes are out for `repair_s`. How the run goes on is the scenario's choice
//! (`Recovery`): on spare nodes while the pool lasts, waiting for repairs, or elastically on
//! the data-parallel replicas that are whole. The generator is seeded, so the same inputs
//! always give the same numbers.

use crate::model::reliability::{Recovery, Reliability, ReliabilityEstimate};
use crate::model::{finite, Bom};

/// Runs simulated.
pub const TRIALS: usize = 400;

/// Interruptions simulated at most over all runs: a run interrupted more often is simulated
/// fewer times (never fewer than `MIN_TRIALS`), so the page's worker stays quick.
const EVENT_BUDGET: f64 = 2e6;

/// Fewest runs simulated.
const MIN_TRIALS: usize = 50;

/// The generator's seed: the same for every scenario, so a link shows the same numbers.
const SEED: u64 = 0x5EED_C1A5_7E12_2026;

/// Interruptions one simulated run may take before it is stopped unfinished.
pub const MAX_EVENTS: usize = 200_000;

/// Interruptions simulated at most over all runs, whatever they turn out to take: runs left
/// once it is spent are not simulated, so the simulation's time is bounded as well as each
/// run's (a run costs the same per interruption however many repairs are pending).
pub const TOTAL_EVENTS: usize = 4_000_000;

/// The cluster as the simulation sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fleet {
    /// Components by failure class, from the bill of materials.
    pub bom: Bom,
    /// Accelerators in the cluster.
    pub chips: u32,
    /// Nodes in one rack-scale scale-up domain (an NVL72 rack's 18), or 1.
    pub domain_nodes: u32,
    /// Data-parallel replicas of the plan, which elastic recovery drops and takes back whole.
    pub replicas: u32,
}

/// The days to train of many simulated runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spread {
    /// Days of each simulated run that finished, in order.
    pub days: Vec<f64>,
    /// Runs simulated.
    pub trials: usize,
    /// Mean of the finished runs' days.
    pub mean_days: f64,
    pub p10_days: f64,
    pub p50_days: f64,
    pub p90_days: f64,
    /// Share of runs done within the deadline, if the scenario has one.
    pub deadline_chance: Option<f64>,
    /// Runs stopped at `MAX_EVENTS` interruptions before they finished: counted among the
    /// longest, so a percentile among them is not known (infinite) and the chance of meeting
    /// a deadline they had not yet passed is not known either (`None`).
    pub cut_short: usize,
    /// The fewest days a run stopped unfinished had reached: it takes at least that long.
    pub cut_short_days: f64,
    /// Fewer runs than `TRIALS` were simulated, each being interrupted so often that all of
    /// them would exceed `EVENT_BUDGET`.
    pub fewer_runs: bool,
}

impl Spread {
    /// Share of the simulated runs done within `days`.
    pub fn chance_by(&self, days: f64) -> f64 {
        let done = self.days.partition_point(|&d| d <= days);
        done as f64 / self.trials.max(1) as f64
    }
}

/// One failure class: interruptions per second and the nodes each takes.
#[derive(Clone, Copy, Debug)]
struct Class {
    per_s: f64,
    nodes: u32,
}

/// The classes of `reliability::interruptions_per_hour`, each with its fault domain; their
/// rates sum to its total.
fn classes(r: &Reliability, f: &Fleet) -> [Class; 8] {
    let b = &f.bom;
    let rates = &r.rates;
    let per_s = |per_hour: f64| (per_hour / 3600.0).max(0.0);
    let leaf_nodes = b.nodes.div_ceil(b.leaf.max(1)).max(1) as u32;
    [
        Class { per_s: per_s((rates.chip + rates.hbm) * f.chips as f64), nodes: 1 },
        Class { per_s: per_s(rates.host * b.nodes as f64), nodes: 1 },
        Class { per_s: per_s(rates.software * b.nodes as f64), nodes: 0 },
        Class { per_s: per_s(rates.nic * b.nics as f64), nodes: 1 },
        Class { per_s: per_s(rates.switch * b.leaf as f64), nodes: leaf_nodes },
        Class { per_s: per_s(rates.switch * (b.spine + b.core) as f64), nodes: 0 },
        Class {
            per_s: per_s(rates.switch * b.scale_up_switches as f64),
            nodes: f.domain_nodes.max(1),
        },
        Class { per_s: per_s(rates.link * b.total_cables() as f64), nodes: 1 },
    ]
}

/// xorshift64*: enough randomness for a simulation, no dependency.
struct Rng(u64);

impl Rng {
    /// Uniform in (0, 1].
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
        (x as f64 + 1.0) / (1u64 << 53) as f64
    }

    /// Exponential with mean `mean`.
    fn exponential(&mut self, mean: f64) -> f64 {
        -mean * self.unit().ln()
    }
}

/// Nodes out for repair, each batch with the time it comes back and the nodes sent out up to
/// and including it. Every repair takes the same time and the run's clock only moves on, so
/// batches come back in the order they went out: a queue, and the nodes out at any time a
/// difference of two running sums, so each interruption costs the same however many repairs
/// are pending.
struct Repairs {
    batches: std::collections::VecDeque<(f64, u64)>,
    /// Nodes sent out before the first batch still held, and ever.
    before: u64,
    sent: u64,
}

impl Repairs {
    fn new() -> Repairs {
        Repairs { batches: std::collections::VecDeque::new(), before: 0, sent: 0 }
    }

    fn push(&mut self, back: f64, nodes: u32) {
        self.sent += nodes as u64;
        self.batches.push_back((back, self.sent));
    }

    fn out(&self) -> u32 {
        (self.sent - self.before).min(u32::MAX as u64) as u32
    }

    fn settle(&mut self, t: f64) {
        while let Some(&(back, upto)) = self.batches.front() {
            if back > t {
                break;
            }
            self.before = upto;
            self.batches.pop_front();
        }
    }

    /// The earliest time after `t` at which at most `allowed` nodes are out.
    fn until_at_most(&self, t: f64, allowed: u32) -> f64 {
        let out = self.sent - self.before;
        if out <= allowed as u64 {
            return t;
        }
        // The first batch whose return leaves at most `allowed` out.
        let need = self.before + (out - allowed as u64);
        let i = self.batches.partition_point(|&(_, upto)| upto < need);
        self.batches.get(i).map_or(t, |&(back, _)| back.max(t))
    }

    fn next_back(&self) -> Option<f64> {
        self.batches.front().map(|&(back, _)| back)
    }
}

/// The days of simulated runs of `train_s` failure-free seconds with the checkpoints and
/// restarts of `e`, on `fleet`, recovering as `r` says: `TRIALS` runs, fewer where each is
/// interrupted so often that they would exceed `EVENT_BUDGET`, and none where the expected
/// run never finishes (its percentiles are then infinite).
pub fn simulate(r: &Reliability, e: &ReliabilityEstimate, fleet: &Fleet, train_s: f64) -> Spread {
    if !e.finishes() {
        let never = f64::INFINITY;
        let deadline_chance = r.deadline_days.map(|_| 0.0);
        return Spread {
            days: Vec::new(),
            trials: 0,
            mean_days: never,
            p10_days: never,
            p50_days: never,
            p90_days: never,
            deadline_chance,
            cut_short: 0,
            cut_short_days: never,
            fewer_runs: false,
        };
    }
    let per_run = e.expected_interruptions.max(1.0);
    let trials = ((EVENT_BUDGET / per_run) as usize).clamp(MIN_TRIALS, TRIALS);
    let mut spread = simulate_n(r, e, fleet, train_s, trials);
    spread.fewer_runs |= trials < TRIALS;
    spread
}

/// `simulate` with a number of runs of one's own.
pub fn simulate_n(
    r: &Reliability,
    e: &ReliabilityEstimate,
    fleet: &Fleet,
    train_s: f64,
    trials: usize,
) -> Spread {
    let trials_asked = trials.max(1);
    let classes = classes(r, fleet);
    let total: f64 = classes.iter().map(|c| c.per_s).sum();
    let interval = e.checkpoint_interval_s.max(1e-9);
    // Checkpoints stall training: work advances `interval` for `interval + stall` of time.
    let pace = interval / (interval + e.checkpoint_stall_s.max(0.0));
    let nodes = fleet.bom.nodes.max(1) as f64;
    let replicas = fleet.replicas.max(1) as f64;
    let per_replica = (nodes / replicas).max(1.0);
    let spares = r.spare_nodes.unwrap_or(u32::MAX);
    let repair_s = r.repair_s.max(0.0);
    let step_s = if e.checkpoint_steps > 0.0 { interval / e.checkpoint_steps } else { 0.0 };
    // The restart an interruption's cost holds (`reliability::assess_at`): beside the work
    // since the last checkpoint, or, for one replica of several, the step in flight and that
    // replica's share of it.
    let restart_s = if r.recovery == Recovery::Replica && replicas > 1.0 {
        // lost = stall + step + (restart - stall) / replicas, the stall at most the restart.
        let beyond = (e.lost_per_interruption_s - step_s).max(0.0);
        let stall = crate::model::reliability::REPLICA_STALL_S;
        if beyond >= stall {
            stall + (beyond - stall) * replicas
        } else {
            beyond
        }
    } else {
        (e.lost_per_interruption_s - interval / 2.0).max(0.0)
    };
    let mut rng = Rng(SEED);
    let trials = trials_asked;
    let mut days = Vec::with_capacity(trials);
    let mut cut_short = 0;
    let mut cut_short_s = f64::INFINITY;
    let mut events = 0;
    let mut simulated = 0;
    for _ in 0..trials {
        if events >= TOTAL_EVENTS {
            break;
        }
        simulated += 1;
        let (ran, taken) = one_run(
            &classes,
            total,
            train_s.max(0.0),
            &mut rng,
            &Run {
                interval,
                pace,
                restart_s,
                repair_s,
                spares,
                recovery: r.recovery,
                per_replica,
                replicas,
                step_s,
            },
        );
        events += taken;
        match ran {
            Ran::Finished(wall) => days.push(finite(wall / 86_400.0)),
            Ran::CutShort(reached) => {
                cut_short += 1;
                cut_short_s = cut_short_s.min(reached);
            }
            Ran::Never => {}
        }
    }
    let trials = simulated.max(1);
    days.sort_by(f64::total_cmp);
    // A quantile over every run: those that never finish, or were stopped unfinished, count
    // as the longest, so a quantile among them is not known.
    let at = |q: f64| -> f64 {
        let i = ((q * trials as f64).ceil() as usize).clamp(1, trials) - 1;
        days.get(i).copied().unwrap_or(f64::INFINITY)
    };
    let total_days = days.iter().fold(0.0, |all, d| all + d);
    let mean_days =
        if days.len() < trials { f64::INFINITY } else { total_days / days.len() as f64 };
    let cut_short_days = cut_short_s / 86_400.0;
    let mut spread = Spread {
        trials,
        mean_days,
        p10_days: at(0.1),
        p50_days: at(0.5),
        p90_days: at(0.9),
        deadline_chance: None,
        days,
        cut_short,
        cut_short_days,
        fewer_runs: simulated < trials_asked,
    };
    // A run stopped before a deadline it had not reached might still have met it.
    spread.deadline_chance = r
        .deadline_days
        .filter(|d| cut_short == 0 || cut_short_days >= *d)
        .map(|d| spread.chance_by(d));
    spread
}

/// What one run recovers with.
struct Run {
    interval: f64,
    pace: f64,
    restart_s: f64,
    repair_s: f64,
    spares: u32,
    recovery: Recovery,
    per_replica: f64,
    replicas: f64,
    /// Failure-free seconds of one step.
    step_s: f64,
}

/// How one simulated run ended.
enum Ran {
    /// After this many wall-clock seconds.
    Finished(f64),
    /// Never: no work advances.
    Never,
    /// Stopped at `MAX_EVENTS` interruptions, after this many wall-clock seconds.
    CutShort(f64),
}

/// One simulated run, and the interruptions and returns from repair it took.
fn one_run(classes: &[Class; 8], total: f64, work: f64, rng: &mut Rng, run: &Run) -> (Ran, usize) {
    let (mut t, mut done) = (0.0, 0.0);
    let mut repairs = Repairs::new();
    let mut next_failure = if total > 0.0 { rng.exponential(1.0 / total) } else { f64::INFINITY };
    // Repairs matter only while the spares can run out; a pool that never does needs no book.
    let tracked = run.spares != u32::MAX && run.recovery != Recovery::Wait;
    for taken in 0..MAX_EVENTS {
        // Elastic runs lose the replicas whose nodes are out beyond the spares.
        let whole = match run.recovery {
            Recovery::Elastic if tracked => {
                repairs.settle(t);
                let missing = repairs.out().saturating_sub(run.spares) as f64;
                ((run.replicas - (missing / run.per_replica).ceil()) / run.replicas).max(0.0)
            }
            Recovery::Elastic | Recovery::Spare | Recovery::Wait | Recovery::Replica => 1.0,
        };
        let rate = run.pace * whole;
        let finish = if rate > 0.0 { t + (work - done) / rate } else { f64::INFINITY };
        let back = match run.recovery {
            Recovery::Elastic if tracked => repairs.next_back().unwrap_or(f64::INFINITY),
            Recovery::Elastic | Recovery::Spare | Recovery::Wait | Recovery::Replica => {
                f64::INFINITY
            }
        };
        if finish <= next_failure && finish <= back {
            let ran = if finish.is_finite() { Ran::Finished(finish) } else { Ran::Never };
            return (ran, taken);
        }
        if back < next_failure {
            done += (back - t) * rate;
            t = back;
            continue;
        }
        done += (next_failure - t) * rate;
        t = next_failure;
        let class = pick(classes, total, rng);
        if run.recovery == Recovery::Replica && run.replicas > 1.0 {
            // The others redo the step in flight and go on; the failed replica is out until
            // it restarts, on a spare, or, none left, once its own nodes are repaired.
            let mut out = run.restart_s;
            if class.nodes > 0 {
                if class.nodes > run.spares {
                    out += run.repair_s;
                } else if tracked {
                    repairs.settle(t);
                    let ready = repairs.until_at_most(t, run.spares - class.nodes);
                    out = out.max(ready - t + run.restart_s);
                }
                if tracked {
                    repairs.push(t + run.repair_s, class.nodes);
                }
            }
            // Every replica waits the stall; the failed one is out the rest of its time.
            let stall = crate::model::reliability::replica_stall(run.restart_s);
            t += stall;
            let alone = (out - stall).max(0.0) * run.pace / run.replicas;
            done = (done - run.step_s * run.pace - alone).max(0.0);
            next_failure = t + rng.exponential(1.0 / total);
            continue;
        }
        // The work since the last checkpoint is lost.
        done = (done / run.interval).floor() * run.interval;
        let mut down = run.restart_s;
        if class.nodes > 0 {
            match run.recovery {
                Recovery::Wait => down += run.repair_s,
                // Spares while the pool lasts; a domain larger than the pool waits for its own
                // repair.
                Recovery::Spare if class.nodes > run.spares => down += run.repair_s,
                Recovery::Spare if tracked => {
                    repairs.settle(t);
                    let ready = repairs.until_at_most(t, run.spares - class.nodes);
                    down = down.max(ready - t + run.restart_s);
                }
                Recovery::Spare | Recovery::Elastic | Recovery::Replica => {}
            }
            if tracked {
                repairs.push(t + run.repair_s, class.nodes);
            }
        }
        t += down;
        next_failure = t + rng.exponential(1.0 / total);
    }
    (Ran::CutShort(t), MAX_EVENTS)
}

/// A failure class, each as likely as its share of the rate.
fn pick(classes: &[Class; 8], total: f64, rng: &mut Rng) -> Class {
    let mut x = rng.unit() * total;
    for c in classes {
        if x <= c.per_s {
            return *c;
        }
        x -= c.per_s;
    }
    classes[classes.len() - 1]
}

/// The spread of an estimate's days with failures: its cluster, plan and reliability.
pub fn of(inputs: &crate::model::Inputs, e: &crate::model::Estimate) -> Spread {
    let per_node = inputs.plant.system.chips_per_node.max(1);
    let fleet = Fleet {
        bom: inputs.plant.bom,
        chips: inputs.cluster.n_chips,
        domain_nodes: (inputs.cluster.rank_domain() / per_node).max(1),
        replicas: inputs.parallelism.data,
    };
    simulate(&inputs.reliability, &e.reliability, &fleet, e.train_days * 86_400.0)
}
