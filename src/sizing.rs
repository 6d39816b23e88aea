//! Sizing: the smallest cluster of a chip that trains a workload by a deadline, with its best
//! plan; and the best days at each size, for comparing chips.
//!
//! Cluster sizes come from one ladder per chip, `unit x {1, 2, 3, 4, 6, 8, 12, ...}`, where a
//! unit is a node or a whole scale-up domain, whichever is larger: counts with many factors of
//! two split into the most plans. Sizes are tried from the smallest up and the first whose best
//! plan (searched in full, `model::search`, ranked by days with failures) meets the deadline is
//! the answer. The ladder does not depend on the deadline, so a later deadline never needs more
//! chips. Sizes whose ideal time (`search::days_bound`) already misses the deadline are skipped
//! without a search: no plan could meet it there.
//!
//! Each size is resolved as a scenario (`Scenario::resolve`), so its fabric, bill of materials
//! and site are built for that many chips, exactly as if the user had typed the count.

use serde_json::Value;

use crate::model::search::{self, Objective, Options, Plan, Search};
use crate::model::{Estimate, Inputs};
use crate::scenario::{InputError, Scenario};

/// The most chips sizing considers: ten times the largest clusters built.
pub const MAX_CHIPS: u32 = 1 << 20;

/// Multiples of the unit that sizes take, repeating with factors of two.
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
        Some(id) => scenario.with("cluster.chip", Some(Value::from(id))),
        None => scenario.clone(),
    };
    s.cluster.chips = Some(Value::from(chips));
    let p = &mut s.parallelism;
    for key in [
        &mut p.tp,
        &mut p.pp,
        &mut p.dp,
        &mut p.cp,
        &mut p.ep,
        &mut p.micro_batch,
        &mut p.virtual_stages,
        &mut p.zero,
        &mut p.recompute,
        &mut p.sequence_parallel,
        &mut p.recompute_elementwise,
    ] {
        *key = None;
    }
    s
}

/// The best plan at one size.
#[derive(Clone, Debug)]
pub struct Point {
    /// Chips in the cluster.
    pub chips: u32,
    /// The best plan, ranked by days with failures; `None` when no plan runs and fits.
    pub best: Option<Plan>,
}

/// The smallest cluster that meets the deadline, with its plan applied.
#[derive(Clone, Debug)]
pub struct Sized {
    /// Chips in the cluster.
    pub chips: u32,
    /// The plan, as searched.
    pub plan: Plan,
    /// The scenario at this size with the plan applied.
    pub scenario: Scenario,
    /// Its full estimate: nodes, racks, power and cost.
    pub estimate: Estimate,
}

/// The answer for one chip.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The smallest cluster that meets the deadline.
    Meets(Box<Sized>),
    /// No size up to `MAX_CHIPS` meets it; the fastest size searched and its plan, if any ran.
    Misses { fastest: Option<Point> },
}

/// Sizing for one chip, a slice at a time, so a page can show progress and stop.
#[derive(Clone, Debug)]
pub struct Sizer {
    scenario: Scenario,
    chip: Option<String>,
    deadline_days: f64,
    sizes: Vec<u32>,
    next: usize,
    /// The size being searched: its chips, scenario and search.
    current: Option<(u32, Scenario, Search)>,
    /// Best plan at each size searched so far.
    pub points: Vec<Point>,
    answer: Option<Answer>,
}

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
        let sizes = ladder(unit, MAX_CHIPS)
            .into_iter()
            .filter(|&n| bound_chips / n as f64 <= deadline_days)
            .collect();
        Ok(Sizer {
            scenario: scenario.clone(),
            chip: chip.map(str::to_string),
            deadline_days,
            sizes,
            next: 0,
            current: None,
            points: Vec::new(),
            answer: None,
        })
    }

    /// Starts the next size (when none is under way) and searches it whole; true once there
    /// is an answer.
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
        let Some((chips, sized, search)) = &mut self.current else {
            self.start_next_size();
            return self.answer.is_some();
        };
        if !search.advance(cells) {
            return false;
        }
        let (chips, best) = (*chips, search.outcome().ranked.first().copied());
        let sized = std::mem::take(sized);
        self.current = None;
        self.points.push(Point { chips, best });
        if let Some(plan) = best.filter(|p| p.wall_days() <= self.deadline_days) {
            let scenario = sized.with_plan(&plan.parallelism);
            if let Ok((_, estimate)) = scenario.evaluate() {
                self.answer =
                    Some(Answer::Meets(Box::new(Sized { chips, plan, scenario, estimate })));
            }
        }
        self.answer.is_some()
    }

    fn start_next_size(&mut self) {
        let Some(&chips) = self.sizes.get(self.next) else {
            let fastest = self
                .points
                .iter()
                .filter(|p| p.best.is_some())
                .min_by(|a, b| days(a).total_cmp(&days(b)))
                .cloned();
            self.answer = Some(Answer::Misses { fastest });
            return;
        };
        self.next += 1;
        let sized = at(&self.scenario, self.chip.as_deref(), chips);
        match sized.resolve() {
            Ok(inputs) => {
                let options = Options { objective: Objective::EffectiveDays, top: 1 };
                self.current = Some((chips, sized, Search::new(&inputs, options)));
            }
            Err(_) => self.points.push(Point { chips, best: None }),
        }
    }

    /// How far sizing has gone, from 0 to 1: sizes done, and the share of the one under way.
    pub fn progress(&self) -> f64 {
        if self.answer.is_some() || self.sizes.is_empty() {
            return 1.0;
        }
        let within = self.current.as_ref().map_or(0.0, |(_, _, s)| {
            let (done, all) = s.outcome().progress;
            done as f64 / all.max(1) as f64
        });
        let started = self.next.saturating_sub(usize::from(self.current.is_some()));
        ((started as f64 + within) / self.sizes.len() as f64).min(1.0)
    }

    /// Sizes on the ladder that the ideal time does not rule out.
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// The answer, once `advance` has returned true.
    pub fn answer(&self) -> Option<&Answer> {
        self.answer.as_ref()
    }
}

fn days(p: &Point) -> f64 {
    p.best.map_or(f64::INFINITY, |b| b.wall_days())
}

/// The best plan on the inputs' cluster, by days with failures.
pub fn best_plan(inputs: &Inputs) -> Option<Plan> {
    let options = Options { objective: Objective::EffectiveDays, top: 1 };
    let mut s = Search::new(inputs, options);
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
    Ok(sizer.answer.unwrap_or(Answer::Misses { fastest: None }))
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
