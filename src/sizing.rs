//! Sizing: the smallest cluster of a chip that trains a workload by a deadline, with its best
//! plan; and the best days at each size, for comparing chips.
//!
//! A size is a whole number of units, a unit being a node or a whole scale-up domain, whichever
//! is larger. At each size the search tries every plan on at most that many chips
//! (`model::search`, ranked by days with failures), so a size can leave a few chips idle
//! rather than miss the plans a round count allows. Sizing first climbs a coarse ladder
//! (`unit x {1, 2, 3, 4, 6, 8, 12, ...}`) to the first size that meets the deadline, then
//! closes in on whole units between it and the largest size that missed, until the two are
//! within `RESOLUTION` of each other (or one unit apart): a guess from the days at the two
//! ends, sizes one, two, four ... resolutions beyond it while they land on its side, then
//! halving (`Bracket::next`). Sizes whose ideal time (`search::days_bound`) already misses
//! the deadline, or where no plan can finish (`search::goodput_bound`), are never searched;
//! every search asks for the best plan alone (`Options::alternatives` off), and one that
//! closes in is searched only until a plan meets the deadline (`Options::good_enough`); the
//! answer's size is then searched whole for its best plan.
//!
//! Each size is resolved as a scenario (`Scenario::resolve`), so its fabric, bill of materials
//! and site are built for that many chips, exactly as if the user had typed the count.

mod fleet;
mod power;
mod serve;
pub mod year;

pub use fleet::{add_to_fleet, Addition};
pub use power::{within_power, PowerSized};
use serde_json::Value;
pub use serve::{to_serve, ServeSized};

use crate::model::search::{self, Objective, Options, Plan, Search};
use crate::model::{Estimate, Inputs};
use crate::scenario::paths;
use crate::scenario::{InputError, Scenario};

/// The most chips sizing considers: ten times the largest clusters built.
pub const MAX_CHIPS: u32 = 1 << 20;

/// How close the answer is to the smallest size that meets the deadline: closing in stops once
/// the size that meets is within this share of the largest size known to miss (or one unit
/// above it), so the answer is at most this much larger than the smallest.
pub const RESOLUTION: f64 = 0.01;

/// Multiples of the unit that the coarse ladder takes, repeating with factors of two.
const STEPS: [u32; 2] = [2, 3];

/// Cluster sizes from `unit` chips up to `max`: `unit x {1, 2, 3, 4, 6, 8, 12, 16, ...}`.
pub fn ladder(unit: u32, max: u32) -> Vec<u32> {
    let unit = unit.max(1) as u64;
    let mut out = vec![unit];
    let mut scale = 1u64;
    loop {
        let mut grew = false;
        for step in STEPS {
            let n = unit * scale * step as u64;
            if n <= max as u64 {
                out.push(n);
                grew = true;
            }
        }
        scale *= 2;
        if !grew {
            break;
        }
    }
    out.sort_unstable();
    out.dedup();
    out.into_iter().map(|n| n as u32).collect()
}

/// The scenario with `chip` (a catalog id; `None` keeps the scenario's) and `chips` chips, and
/// its parallel degrees and schedule cleared, so that any count resolves; the software stack and
/// its overlaps are kept.
pub fn at(scenario: &Scenario, chip: Option<&str>, chips: u32) -> Scenario {
    let mut s = match chip {
        Some(id) => scenario.with(paths::CLUSTER_CHIP, Some(Value::from(id))),
        None => scenario.clone(),
    };
    s.cluster.chips = Some(Value::from(chips));
    s.without_plan()
}

/// How many times its estimate a plan of `scenario` is held to against the deadline: 1, or the
/// upper end of its range with `sizing.confidence: p90` (`validation::range::held_to`).
pub fn held_to(scenario: &Scenario) -> f64 {
    let Ok((inputs, calibration)) = scenario.resolve_calibrated() else { return 1.0 };
    let fit = calibration.as_ref().map(|c| &c.fit);
    let basis = crate::validation::range::basis_of(scenario, &inputs, fit);
    crate::validation::range::held_to(&basis, inputs.reliability.confidence)
}

/// The best plan at one size.
#[derive(Clone, Debug)]
pub struct Point {
    /// Chips in the cluster.
    pub chips: u32,
    /// The best plan on at most that many chips, ranked by days with failures; `None` when no
    /// plan runs, fits and finishes.
    pub best: Option<Plan>,
}

/// The smallest cluster that meets the deadline, with its plan applied.
#[derive(Clone, Debug)]
pub struct Sized {
    /// Chips in the cluster.
    pub chips: u32,
    /// The largest size known to miss the deadline (searched, or ruled out by the ideal time;
    /// 0 when none is smaller): the smallest size that meets it lies above this.
    pub misses_at: u32,
    /// The plan, as searched.
    pub plan: Plan,
    /// The scenario at this size with the plan applied.
    pub scenario: Scenario,
    /// Its full estimate: nodes, racks, power and cost.
    pub estimate: Estimate,
    /// How many times its estimate the plan's days were held to against the deadline
    /// (`held_to`).
    pub held_to: f64,
}

impl Sized {
    /// How much larger than the smallest size that meets the deadline the answer can be, as a
    /// fraction of the answer: the gap to the largest size known to miss, less one unit.
    pub fn at_most_over(&self, unit: u32) -> f64 {
        let gap = self.chips.saturating_sub(self.misses_at.saturating_add(unit.max(1)));
        gap as f64 / self.chips.max(1) as f64
    }
}

/// The answer for one chip.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The smallest cluster that meets the deadline.
    Meets(Box<Sized>),
    /// No size up to `MAX_CHIPS` meets it; the fastest size searched and its plan, if any ran,
    /// and the batch that keeps more chips from going faster, when that is what does.
    Misses { fastest: Option<Box<Point>>, batch: Option<BatchLimit> },
}

/// The largest batch the search may use (`Inputs::max_batch_sequences`), reached by the
/// fastest plan found: more chips would only split the same sequences thinner, so the days
/// stop falling however large the cluster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchLimit {
    /// Sequences a step.
    pub sequences: u32,
    /// Tokens a step.
    pub tokens: f64,
}

impl BatchLimit {
    /// The limit the fastest plan on `at` (the scenario at its size) reached, if it did.
    pub fn of(at: &Scenario, plan: &Plan) -> Option<BatchLimit> {
        let inputs = at.resolve().ok()?;
        let sequences = inputs.max_batch_sequences();
        let tokens = sequences as f64 * inputs.transformer.seq_len as f64;
        (plan.global_batch >= sequences).then_some(BatchLimit { sequences, tokens })
    }
}

/// Where a sizing is.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// Climbing the ladder: the next size to search.
    Climbing(usize),
    /// Closing in between a size that misses and one that meets.
    Bisecting(Bracket),
}

/// A size that misses the deadline and one that meets it, with the days their searches found
/// (the best plan, or while closing in the first plan found to meet, which is at least the
/// best; `None` for a size ruled out by its ideal time or where nothing finishes).
#[derive(Clone, Copy, Debug)]
struct Bracket {
    misses: u32,
    misses_days: Option<f64>,
    meets: u32,
    meets_days: f64,
    /// Sizes searched since the ladder.
    probes: u8,
    /// The last size searched met the deadline.
    last_met: bool,
    /// Sizes searched since the ladder have landed on both sides of the answer.
    crossed: bool,
}

impl Bracket {
    /// The next size to search, in whole units strictly between the two ends. First, where
    /// days linear in one over the chips through the two ends (or, with no days at the miss,
    /// days times chips held constant) reach the deadline, nudged up by half the resolution;
    /// then, while every size searched since lands on the guess's side, one, two, four ...
    /// resolutions beyond the last, so that a near guess closes the bracket at once; once they
    /// land on both sides, the midpoint. A good guess takes two sizes where bisection takes
    /// about log2(gap / resolution).
    fn next(&self, deadline_days: f64, unit: u32, close: u32) -> u32 {
        let (a, b) = (self.misses as f64, self.meets as f64);
        let reach = close as f64 * 2f64.powi(i32::from(self.probes.max(1)) - 1);
        let guess = match (self.probes, self.misses_days) {
            (0, Some(da)) if da > self.meets_days && a > 0.0 => {
                // Days = da + (db - da) (1/n - 1/a) / (1/b - 1/a), solved for the deadline.
                let share = (da - deadline_days) / (da - self.meets_days);
                1.0 / (1.0 / a + share * (1.0 / b - 1.0 / a)) + close as f64 / 2.0
            }
            (0, _) => b * self.meets_days / deadline_days.max(1e-12) + close as f64 / 2.0,
            _ if self.crossed => (a + b) / 2.0,
            _ if self.last_met => b - reach,
            _ => a + reach,
        };
        let units = if guess.is_finite() { (guess / unit as f64).ceil() as u32 } else { 0 };
        let (lo, hi) = (self.misses + unit, self.meets - unit);
        (units.saturating_mul(unit)).clamp(lo.min(hi), hi)
    }
}

/// Sizing for one chip, a slice at a time, so a page can show progress and stop.
#[derive(Clone, Debug)]
pub struct Sizer {
    scenario: Scenario,
    chip: Option<String>,
    deadline_days: f64,
    /// Chips per node or scale-up domain, whichever is larger: sizes are whole units.
    unit: u32,
    /// Ladder sizes the ideal time does not rule out.
    sizes: Vec<u32>,
    /// The largest whole-unit size the ideal time rules out (0: none).
    ruled_out: u32,
    stage: Stage,
    /// The size being searched: its chips, scenario and search.
    current: Option<(u32, Scenario, Search)>,
    /// The smallest size found to meet the deadline so far, with its scenario and plan.
    /// The smallest size found to meet the deadline so far: its chips, scenario, the plan that
    /// met it and the search that found it (`None` for none), which the answer goes on with.
    meeting: Option<(u32, Scenario, Plan, Option<Search>)>,
    /// Days (held to the deadline's standard) at the size searched last, if a plan ran there.
    last_days: Option<f64>,
    /// Best plan at each size searched so far, in the order searched; while closing in, the
    /// first plan found to meet the deadline, when one does (`Options::good_enough`).
    pub points: Vec<Point>,
    answer: Option<Answer>,
    /// Plans timed by the searches so far, against `SIZING_BUDGET`.
    judged: u64,
    /// A size's search stopped at its share of the budget.
    budget_spent: bool,
}

/// Plans a sizing times at most over all its sizes, half the search's own budget
/// (`search::PLAN_BUDGET`): each size searches with what its predecessors left, and at least
/// `SIZE_BUDGET_FLOOR`, so a sizing finishes within a second whatever it is asked (a sizing
/// that climbs to the largest size on plans that never meet the deadline spends its budget
/// and then the floor at each size left).
pub const SIZING_BUDGET: u64 = search::PLAN_BUDGET / 2;

/// Plans a size's search may judge however much the sizing has spent.
const SIZE_BUDGET_FLOOR: u64 = 5_000;

impl Sizer {
    /// Sizing of `scenario` on `chip` (`None` keeps the scenario's) for a deadline in days. Errs
    /// with the scenario's own field errors when it does not resolve with that chip.
    pub fn new(
        scenario: &Scenario,
        chip: Option<&str>,
        deadline_days: f64,
    ) -> Result<Sizer, Vec<InputError>> {
        let probe_chips = 1024;
        let probe = at(scenario, chip, probe_chips).resolve()?;
        let unit = probe.cluster.chips_per_node.max(probe.cluster.scale_up.domain_size).max(1);
        // The ideal days scale as one over the chips; sizes below it cannot meet the deadline.
        let bound_chips = search::days_bound(&probe) * probe_chips as f64;
        let possible = |n: u32| bound_chips / n as f64 <= deadline_days;
        let sizes: Vec<u32> =
            ladder(unit, MAX_CHIPS).into_iter().filter(|&n| possible(n)).collect();
        let first_possible = (bound_chips / deadline_days.max(1e-12) / unit as f64).ceil().max(1.0);
        let ruled_out = if first_possible > (MAX_CHIPS / unit) as f64 {
            MAX_CHIPS
        } else {
            (first_possible as u32 - 1) * unit
        };
        Ok(Sizer {
            scenario: scenario.clone(),
            chip: chip.map(str::to_string),
            deadline_days,
            unit,
            sizes,
            ruled_out,
            stage: Stage::Climbing(0),
            current: None,
            meeting: None,
            last_days: None,
            points: Vec::new(),
            answer: None,
            judged: 0,
            budget_spent: false,
        })
    }

    /// A size's search stopped at its share of the sizing's budget, so a smaller size than the
    /// answer might meet the deadline with a plan it did not judge.
    pub fn budget_spent(&self) -> bool {
        self.budget_spent
    }

    /// Searches the next size whole; true once there is an answer.
    pub fn advance(&mut self) -> bool {
        if self.current.is_none() && self.advance_by(usize::MAX) {
            return true;
        }
        self.advance_by(usize::MAX)
    }

    /// Searches up to `cells` cells of the current size (`Search::advance`), starting the next
    /// size when none is under way; true once there is an answer.
    pub fn advance_by(&mut self, cells: usize) -> bool {
        if self.answer.is_some() {
            return true;
        }
        let Some((_, _, search)) = &mut self.current else {
            self.start_next_size();
            return self.answer.is_some();
        };
        if !search.advance(cells) {
            return false;
        }
        if let Some((chips, sized, search)) = self.current.take() {
            self.searched(chips, sized, Some(search));
        }
        self.answer.is_some()
    }

    /// Takes in the search of a size: its best plan (a search that closes in only asks whether
    /// the size meets the deadline, so its plan is one that runs there, not always the size's
    /// best), and moves the stage on.
    fn searched(&mut self, chips: u32, sized: Scenario, search: Option<Search>) {
        let outcome = search.as_ref().map(Search::outcome);
        if let Some(o) = &outcome {
            // Plans judged count against the budget as the search counts them
            // (`search::JUDGED_PER_TIMED` judged for one timed), and so do the shapes it
            // costed, where there are more of them: a model whose cells cost many shapes each
            // spends its time there.
            self.judged += o.evaluated.max(o.searched.max(o.costed) / search::JUDGED_PER_TIMED);
            self.budget_spent |= o.budget_spent;
        }
        let best = outcome.and_then(|o| o.ranked.first().copied());
        self.points.push(Point { chips, best });
        let held = held_to(&sized);
        let days = best.map(|p| p.wall_days() * held);
        let meets = best.filter(|p| p.wall_days() * held <= self.deadline_days);
        if let Some(plan) = meets {
            if self.meeting.as_ref().is_none_or(|(n, ..)| chips < *n) {
                self.meeting = Some((chips, sized, plan, search));
            }
        }
        // Days held to the deadline's standard; a size that meets has them.
        let met = days.unwrap_or(self.deadline_days);
        let previous = std::mem::replace(&mut self.last_days, days);
        self.stage = match self.stage {
            Stage::Climbing(idx) if meets.is_some() => {
                let (misses, misses_days) = match idx {
                    0 => (self.ruled_out, None),
                    _ => (self.sizes[idx - 1], previous),
                };
                Stage::Bisecting(Bracket {
                    misses,
                    misses_days,
                    meets: chips,
                    meets_days: met,
                    probes: 0,
                    last_met: true,
                    crossed: false,
                })
            }
            Stage::Climbing(idx) => Stage::Climbing(idx + 1),
            Stage::Bisecting(b) if meets.is_some() => Stage::Bisecting(Bracket {
                meets: chips,
                meets_days: met,
                probes: b.probes.saturating_add(1),
                last_met: true,
                crossed: b.crossed || (b.probes > 0 && !b.last_met),
                ..b
            }),
            Stage::Bisecting(b) => Stage::Bisecting(Bracket {
                misses: chips,
                misses_days: days,
                probes: b.probes.saturating_add(1),
                last_met: false,
                crossed: b.crossed || (b.probes > 0 && b.last_met),
                ..b
            }),
        };
    }

    /// The size to search next, or the answer when there is none.
    fn start_next_size(&mut self) {
        let next = match self.stage {
            Stage::Climbing(idx) => match self.sizes.get(idx) {
                Some(&chips) => chips,
                None => return self.give_up(),
            },
            Stage::Bisecting(b) => {
                let gap = b.meets.saturating_sub(b.misses);
                let close = (RESOLUTION * b.meets as f64) as u32;
                if gap <= self.unit.max(close) {
                    return self.settle(b.misses);
                }
                b.next(self.deadline_days, self.unit, close)
            }
        };
        let sized = at(&self.scenario, self.chip.as_deref(), next);
        match sized.resolve() {
            // Interruptions come faster than any plan there recovers: nothing to search.
            Ok(inputs) if search::goodput_bound(&inputs) <= 0.0 => self.searched(next, sized, None),
            Ok(inputs) => {
                // Bisecting, a size only has to be found to meet the deadline or not.
                let good_enough = match self.stage {
                    Stage::Bisecting(_) => Some(self.deadline_days / held_to(&sized)),
                    Stage::Climbing(_) => None,
                };
                let budget = SIZING_BUDGET.saturating_sub(self.judged).max(SIZE_BUDGET_FLOOR);
                let options = Options {
                    objective: Objective::EffectiveDays,
                    top: 1,
                    good_enough,
                    alternatives: false,
                    budget,
                    ..Options::default()
                };
                self.current = Some((next, sized, Search::placing(&inputs, None, options)));
            }
            // A size that does not resolve meets nothing; the stage moves on as for a miss.
            Err(_) => self.searched(next, sized, None),
        }
    }

    /// The answer once the bracket has closed: the smallest size that met the deadline.
    fn settle(&mut self, misses: u32) {
        let Some((chips, scenario, plan, search)) = self.meeting.take() else {
            return self.give_up();
        };
        // The answer's size found while closing in met the deadline with the first plan that
        // did: its search goes on to the best plan (`Search::go_on_to_best`).
        let best = match search {
            Some(mut search) => {
                search.go_on_to_best();
                search.advance(usize::MAX);
                search.outcome().ranked.first().copied()
            }
            None => scenario.resolve().ok().and_then(|inputs| best_plan(&inputs)),
        };
        let plan = best.filter(|b| b.wall_days() <= plan.wall_days()).unwrap_or(plan);
        for point in self.points.iter_mut().filter(|p| p.chips == chips) {
            point.best = Some(plan);
        }
        let scenario = scenario.with_found(&plan, chips);
        let held_to = held_to(&scenario);
        self.answer = Some(match scenario.estimated() {
            Ok((_, estimate)) => Answer::Meets(Box::new(Sized {
                chips,
                misses_at: misses,
                plan,
                scenario,
                estimate,
                held_to,
            })),
            Err(_) => Answer::Misses {
                fastest: Some(Box::new(Point { chips, best: Some(plan) })),
                batch: None,
            },
        });
    }

    /// No size meets the deadline: the answer is the fastest size searched.
    fn give_up(&mut self) {
        let fastest = self
            .points
            .iter()
            .filter(|p| p.best.is_some())
            .min_by(|a, b| days(a).total_cmp(&days(b)))
            .cloned()
            .map(Box::new);
        let batch = fastest.as_ref().and_then(|p| {
            let at = at(&self.scenario, self.chip.as_deref(), p.chips);
            BatchLimit::of(&at, &p.best?)
        });
        self.answer = Some(Answer::Misses { fastest, batch });
    }

    /// How far sizing has gone, from 0 to 1: the ladder climbed, then the bracket
    /// narrowed (on a log scale), with the share of the size under way.
    pub fn progress(&self) -> f64 {
        if self.answer.is_some() || self.sizes.is_empty() {
            return 1.0;
        }
        let within = self.current.as_ref().map_or(0.0, |(_, _, s)| {
            let (done, all) = s.outcome().progress;
            done as f64 / all.max(1) as f64
        });
        match self.stage {
            Stage::Climbing(idx) => {
                0.6 * ((idx as f64 + within) / self.sizes.len() as f64).min(1.0)
            }
            Stage::Bisecting(Bracket { misses, meets, .. }) => {
                // At most about log2(gap / resolution) more sizes to search.
                let gap = meets.saturating_sub(misses).max(1) as f64;
                let close = (RESOLUTION * meets as f64).max(self.unit as f64);
                let left = (gap / close).log2().max(0.0) + 1.0;
                (1.0 - 0.4 * (left / (left + 1.0 + within)).min(1.0)).min(0.99)
            }
        }
    }

    /// Sizes on the ladder that the ideal time does not rule out.
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// Chips per whole unit (a node or a scale-up domain) that sizes are made of.
    pub fn unit(&self) -> u32 {
        self.unit
    }

    /// The answer, once `advance` has returned true.
    pub fn answer(&self) -> Option<&Answer> {
        self.answer.as_ref()
    }

    /// Days with failures against chips for a plot: at each size searched, the best of every
    /// size up to it (a cluster can always run a smaller cluster's plan), so more chips are
    /// never slower. Sizes where nothing finishes are left out.
    pub fn curve(&self) -> Vec<(u32, f64)> {
        let mut points: Vec<&Point> = self.points.iter().collect();
        points.sort_by_key(|p| p.chips);
        let mut best = f64::INFINITY;
        let mut out = Vec::new();
        for p in points {
            if let Some(plan) = p.best {
                best = best.min(plan.wall_days());
            }
            if best.is_finite() && out.last().is_none_or(|&(n, _)| n != p.chips) {
                out.push((p.chips, best));
            }
        }
        out
    }
}

fn days(p: &Point) -> f64 {
    p.best.map_or(f64::INFINITY, |b| b.wall_days())
}

/// The best plan on at most the inputs' chips, by days with failures.
pub fn best_plan(inputs: &Inputs) -> Option<Plan> {
    let options = Options {
        objective: Objective::EffectiveDays,
        top: 1,
        alternatives: false,
        ..Options::default()
    };
    let mut s = Search::placing(inputs, None, options);
    s.advance(usize::MAX);
    s.outcome().ranked.first().copied()
}

/// The smallest cluster of `chip` that trains the scenario's workload in `deadline_days`.
pub fn size(
    scenario: &Scenario,
    chip: Option<&str>,
    deadline_days: f64,
) -> Result<Answer, Vec<InputError>> {
    let mut sizer = Sizer::new(scenario, chip, deadline_days)?;
    while !sizer.advance() {}
    Ok(sizer.answer.unwrap_or(Answer::Misses { fastest: None, batch: None }))
}

/// The best days at each of `counts` chips of `chip`, for a comparison plot.
pub fn curve(scenario: &Scenario, chip: Option<&str>, counts: &[u32]) -> Vec<Point> {
    counts
        .iter()
        .map(|&chips| Point {
            chips,
            best: at(scenario, chip, chips).resolve().ok().and_then(|i| best_plan(&i)),
        })
        .collect()
}
