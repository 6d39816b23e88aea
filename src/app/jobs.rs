//! Long computations the page runs off the main thread: a plan search, a sizing, the
//! accuracy report and plots as SVG documents, as jobs done a slice at a time.
//!
//! A `app::Task` crosses to the worker as JSON; the worker calls `Job::step` until it is done
//! and sends back an update (`Job::update`, the result as the page shows it) every so often,
//! which the page reads into a `app::Status`. The same code runs natively, so tests drive a
//! job exactly as the worker does.

use serde_json::{json, Value};

use crate::app::sections::accuracy::Report;
use crate::app::sections::compare::Compared;
use crate::app::sections::launch::{Launched, Measured};
use crate::app::sections::sizing::SizedChip;
use crate::app::sections::{self, Drawn};
use crate::app::wire::{AnswerPart, CountsPart, FastestPart, PlanPart, SearchPart, SizingPart};
use crate::app::{Task, Update, View};
use crate::charts;
use crate::model::search::{Options, Search};
use crate::report;
use crate::scenario::{ChipRef, Scenario, Searchable};
use crate::sizing::{Answer, Sizer};
use crate::validation;

/// Cells a search step covers; small enough that progress moves every few milliseconds.
const CELLS_PER_STEP: usize = 4;

/// A job under way.
pub struct Job {
    kind: Kind,
}

enum Kind {
    Search(Box<(Searchable, Search)>),
    Size(Box<Sizing>),
    /// The accuracy report once made.
    Validate(Option<Report>),
    /// Plan A against plan B to draw, then their step and scaling plots.
    Compare(Box<(Scenario, Scenario, bool)>, Option<Compared>),
    /// A plan's sections to draw (scheme, width), then drawn.
    Plots(Box<(Scenario, bool, u32)>, Option<Box<Drawn>>),
    /// A fleet to add a chip to by a deadline, then the answer as the page shows it.
    AddToFleet(Box<(Scenario, String, f64)>, Option<Box<View>>),
    /// The largest cluster of each chip within a power, one chip a step.
    Power(Box<PowerSizing>),
    /// A plan to write as a framework's launch, then the launch (or why not).
    Launch(Box<(Scenario, crate::launch::Framework)>, Option<Box<Launched>>),
    /// Logs to read into a scenario's measurements, then what they gave.
    Measure(Box<(Scenario, Logs)>, Option<Box<Measured>>),
}

/// Logs by name, as bytes.
type Logs = Vec<(String, Vec<u8>)>;

/// The largest cluster of each of several chips within a power.
struct PowerSizing {
    scenario: Scenario,
    power_mw: f64,
    chips: Vec<Option<String>>,
    /// Each chip sized so far: its name and what it came to, or why it could not be sized.
    done: Vec<(String, Result<Option<crate::sizing::PowerSized>, String>)>,
}

impl PowerSizing {
    fn step(&mut self) -> bool {
        if let Some(chip) = self.chips.get(self.done.len()) {
            let name = chip.clone().unwrap_or_else(|| {
                self.scenario.chip_ref().preset().unwrap_or("custom").to_string()
            });
            let found =
                crate::sizing::within_power(&self.scenario, chip.as_deref(), self.power_mw * 1e6)
                    .map_err(|errors| {
                        errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
                    });
            self.done.push((name, found));
        }
        self.done.len() >= self.chips.len()
    }

    /// `{"power_mw", "rows": [...]}`, each row as `report::power_row` writes it with its
    /// scenario.
    fn to_json(&self) -> Value {
        let rows: Vec<Value> = self
            .done
            .iter()
            .map(|(name, found)| match found {
                Ok(found) => {
                    let row = report::power_row(name, self.power_mw, found.as_ref());
                    let scenario =
                        found.as_ref().map(|s| json!({ "scenario": s.scenario.to_value() }));
                    report::joined(row, [scenario])
                }
                Err(why) => json!({ "chip": name, "chips": Value::Null, "why": why }),
            })
            .collect();
        json!({ "power_mw": self.power_mw, "rows": rows })
    }
}

/// Sizing of several chips, one after another.
struct Sizing {
    scenario: Scenario,
    deadline_days: f64,
    /// The plot in the dark colour scheme.
    dark: bool,
    chips: Vec<Option<String>>,
    /// The chip being sized, by index, and its sizer.
    current: usize,
    sizer: Option<Sizer>,
    done: Vec<SizedChip>,
}

impl Job {
    /// Starts a job; `Err` lists what is wrong with the request, by field where it has one.
    pub fn start(request: &Task) -> Result<Job, Vec<String>> {
        let words = |errors: Vec<crate::scenario::InputError>| -> Vec<String> {
            errors.iter().map(ToString::to_string).collect()
        };
        // Every job starts from the plan the page shows: refused inputs set aside and a chip
        // count the plan does not divide taken with chips idle (`evaluation::shown`).
        let shown = |s: &Scenario| -> Result<Scenario, Vec<String>> {
            crate::evaluation::shown(s).map(|shown| shown.estimated).map_err(words)
        };
        match request {
            Task::Search { scenario, objective, top } => {
                let searchable = searchable(scenario)?;
                let typed = searchable.typed.as_ref().ok().copied();
                let search =
                    Search::placing(&searchable.inputs, typed, search_options(*objective, *top));
                Ok(Job { kind: Kind::Search(Box::new((searchable, search))) })
            }
            Task::SearchShard { scenario, objective, top, part, of } => {
                let searchable = searchable(scenario)?;
                let typed = searchable.typed.as_ref().ok().copied();
                let options = search_options(*objective, *top);
                let (k, n) = (*part as usize, *of as usize);
                let search = Search::shard(&searchable.inputs, typed, options, k, n);
                Ok(Job { kind: Kind::Search(Box::new((searchable, search))) })
            }
            Task::Size { scenario, deadline_days, chips, dark } => {
                // Sizing chooses its own plans, so only errors beyond the typed plan stop it.
                let scenario = shown(scenario)?;
                scenario.for_search().map_err(words)?;
                Ok(Job {
                    kind: Kind::Size(Box::new(Sizing {
                        scenario,
                        deadline_days: *deadline_days,
                        dark: *dark,
                        chips: if chips.is_empty() { vec![None] } else { chips.clone() },
                        current: 0,
                        sizer: None,
                        done: Vec::new(),
                    })),
                })
            }
            Task::Validate => Ok(Job { kind: Kind::Validate(None) }),
            Task::Compare { pair, dark } => {
                shown(&pair.0)?;
                shown(&pair.1)?;
                let (a, b) = (**pair).clone();
                Ok(Job { kind: Kind::Compare(Box::new((a, b, *dark)), None) })
            }
            Task::Plots { scenario, dark, width } => {
                shown(scenario)?;
                Ok(Job { kind: Kind::Plots(Box::new((scenario.clone(), *dark, *width)), None) })
            }
            Task::AddToFleet { scenario, chip, deadline_days } => {
                let task = (shown(scenario)?, chip.clone(), *deadline_days);
                Ok(Job { kind: Kind::AddToFleet(Box::new(task), None) })
            }
            Task::Launch { scenario, framework } => {
                let framework = crate::launch::Framework::of(framework)
                    .ok_or_else(|| vec![format!("unknown framework '{framework}'")])?;
                Ok(Job { kind: Kind::Launch(Box::new((shown(scenario)?, framework)), None) })
            }
            Task::Measure { scenario, logs } => {
                let logs = logs.iter().map(|(n, t)| (n.clone(), t.clone().into_bytes())).collect();
                Ok(Job { kind: Kind::Measure(Box::new((scenario.clone(), logs)), None) })
            }
            Task::SizePower { scenario, power_mw, chips } => {
                // Like a sizing, it chooses its own plans.
                let scenario = shown(scenario)?;
                scenario.for_search().map_err(words)?;
                Ok(Job {
                    kind: Kind::Power(Box::new(PowerSizing {
                        scenario,
                        power_mw: *power_mw,
                        chips: if chips.is_empty() { vec![None] } else { chips.clone() },
                        done: Vec::new(),
                    })),
                })
            }
        }
    }

    /// Does one slice of work; true once the job is done.
    pub fn step(&mut self) -> bool {
        match &mut self.kind {
            Kind::Search(s) => s.1.advance(CELLS_PER_STEP),
            Kind::Size(sizing) => sizing.step(),
            Kind::Validate(report) => {
                report.get_or_insert_with(validation::run_all);
                true
            }
            Kind::Compare(task, drawn) => {
                drawn.get_or_insert_with(|| sections::compare::drawn(&task.0, &task.1, task.2));
                true
            }
            Kind::Plots(task, drawn) => {
                drawn.get_or_insert_with(|| {
                    let theme = if task.1 { charts::DARK } else { charts::LIGHT };
                    Box::new(Drawn::of(&task.0, &theme, task.2))
                });
                true
            }
            Kind::AddToFleet(task, answer) => {
                answer.get_or_insert_with(|| {
                    Box::new(sections::fleet::addition(&task.0, &task.1, task.2))
                });
                true
            }
            Kind::Power(p) => p.step(),
            Kind::Launch(task, done) => {
                done.get_or_insert_with(|| {
                    Box::new(
                        crate::evaluation::launch(&task.0, task.1)
                            .map_err(|errors| errors.iter().map(ToString::to_string).collect()),
                    )
                });
                true
            }
            Kind::Measure(task, done) => {
                done.get_or_insert_with(|| {
                    Box::new(
                        crate::evaluation::measure(&task.1, Some(&task.0))
                            .map_err(|errors| errors.iter().map(ToString::to_string).collect()),
                    )
                });
                true
            }
        }
    }

    /// How far the job has gone, from 0 to 1.
    pub fn progress(&self) -> f64 {
        match &self.kind {
            Kind::Search(s) => {
                let (done, all) = s.1.outcome().progress;
                if all == 0 {
                    1.0
                } else {
                    done as f64 / all as f64
                }
            }
            Kind::Size(s) => {
                let within = s.sizer.as_ref().map_or(0.0, Sizer::progress);
                ((s.current as f64 + within) / s.chips.len().max(1) as f64).min(1.0)
            }
            Kind::Validate(report) => f64::from(u8::from(report.is_some())),
            Kind::Compare(_, drawn) => f64::from(u8::from(drawn.is_some())),
            Kind::Plots(_, drawn) => f64::from(u8::from(drawn.is_some())),
            Kind::AddToFleet(_, answer) => f64::from(u8::from(answer.is_some())),
            Kind::Power(p) => p.done.len() as f64 / p.chips.len().max(1) as f64,
            Kind::Launch(_, done) => f64::from(u8::from(done.is_some())),
            Kind::Measure(_, done) => f64::from(u8::from(done.is_some())),
        }
    }

    /// The result so far as JSON: a search as `report::search_json` writes it, a sizing as
    /// `{"deadline_days", "rows": [...], "curves": [{"chip", "points": [[chips, days], ...]}]}`.
    pub fn result(&self) -> Value {
        match &self.kind {
            Kind::Search(s) => {
                let (searchable, search) = &**s;
                let outcome = search.outcome();
                let why = report::typed_plan_why(searchable, &outcome.yours.verdict);
                let scenario = &searchable.scenario;
                // Each plan with the whole scenario it makes, so it is applied as found.
                let n_chips = searchable.inputs.cluster.n_chips;
                let applied = |plan: &crate::model::search::Plan| {
                    scenario.with_found(plan, n_chips).to_value()
                };
                report::search_json(scenario, &outcome, &why, Some(&applied))
            }
            Kind::Size(s) => s.to_json(),
            Kind::Validate(report) => report.as_ref().map_or(Value::Null, accuracy),
            Kind::Compare(_, drawn) => drawn.as_ref().map_or(Value::Null, |d| match d {
                Ok((step, scaling)) => json!({ "step": step, "scaling": scaling }),
                Err(why) => json!({ "error": why }),
            }),
            Kind::Plots(_, drawn) => drawn.as_ref().map_or(Value::Null, as_json),
            Kind::AddToFleet(_, answer) => answer.as_ref().map_or(Value::Null, as_json),
            Kind::Power(p) => p.to_json(),
            Kind::Launch(_, done) => match done.as_deref() {
                Some(Ok(l)) => report::launch_json(l),
                Some(Err(errors)) => json!({ "errors": errors }),
                None => Value::Null,
            },
            Kind::Measure(_, done) => match done.as_deref() {
                Some(Ok(m)) => report::measure_json(m),
                Some(Err(errors)) => json!({ "errors": errors }),
                None => Value::Null,
            },
        }
    }

    /// The result so far as the page shows it, worded in the language spoken (`view`): a
    /// search, a sizing, the accuracy report, a comparison and the fleet question as lines,
    /// tables and pictures; nothing for a plan's plots (`plots`).
    pub fn view(&self, done: bool) -> View {
        match &self.kind {
            Kind::Search(s) => sections::search::view(&s.0, &s.1.outcome(), done),
            Kind::Size(s) => {
                let (confidence, money) = s.scenario.resolve().map_or(
                    (crate::model::Confidence::Central, crate::format::Money::USD),
                    |inputs| {
                        let money = crate::format::Money::of(&inputs.plant.facility);
                        (inputs.reliability.confidence, money)
                    },
                );
                let (scenario, days, done) = (&s.scenario, s.deadline_days, &s.done);
                sections::sizing::view(scenario, days, done, confidence, money, s.dark)
            }
            Kind::Validate(report) => {
                report.as_ref().map(sections::accuracy::view).unwrap_or_default()
            }
            Kind::Compare(_, drawn) => {
                drawn.as_ref().map(sections::compare::view).unwrap_or_default()
            }
            Kind::Plots(..) => View::default(),
            Kind::AddToFleet(_, answer) => answer.as_deref().cloned().unwrap_or_default(),
            Kind::Power(p) => {
                let money = p.scenario.resolve().map_or(crate::format::Money::USD, |inputs| {
                    crate::format::Money::of(&inputs.plant.facility)
                });
                sections::sizing::power(p.power_mw, &p.done, money)
            }
            Kind::Launch(_, done) => {
                done.as_deref().map(sections::launch::launch).unwrap_or_default()
            }
            Kind::Measure(_, done) => {
                done.as_deref().map(sections::launch::measure).unwrap_or_default()
            }
        }
    }

    /// A task as tasks for `workers` workers side by side (`Job::merged` puts their `parts`
    /// back together): a search as a shard a worker, a sizing of several chips as one sizing
    /// per chip, in its chips' order; `None` for any other task, a sizing of one chip, or one
    /// worker.
    pub fn split(request: &Task, workers: usize) -> Option<Vec<Task>> {
        if let Task::Search { scenario, objective, top } = request {
            let of = workers.clamp(1, 64) as u32;
            return (of > 1).then(|| {
                (0..of)
                    .map(|part| Task::SearchShard {
                        scenario: scenario.clone(),
                        objective: *objective,
                        top: *top,
                        part,
                        of,
                    })
                    .collect()
            });
        }
        let Task::Size { scenario, deadline_days, chips, dark } = request else { return None };
        (chips.len() > 1 && workers > 1).then(|| {
            chips
                .iter()
                .map(|chip| Task::Size {
                    scenario: scenario.clone(),
                    deadline_days: *deadline_days,
                    chips: vec![chip.clone()],
                    dark: *dark,
                })
                .collect()
        })
    }

    /// What a sizing has found, chip by chip, as plain JSON another job can take back in
    /// (`Job::merged`): each answer by its scenario with the plan applied, from which the
    /// plan and its estimate are judged again; `None` for any other job.
    pub fn parts(&self) -> Option<Value> {
        match &self.kind {
            Kind::Size(sizing) => {
                let parts: Vec<SizingPart> =
                    sizing.done.iter().map(|c| sizing_part(c, &sizing.scenario)).collect();
                serde_json::to_value(parts).ok()
            }
            Kind::Search(s) => serde_json::to_value(shard_part(&s.1.found_by_shard())).ok(),
            _ => None,
        }
    }

    /// The sizing `request` (of several chips, `Job::split`) put together from the `parts` of
    /// the one-chip sizings done so far, in its chips' order: a job whose result and view are
    /// those of the whole sizing run in one job, done once every chip has its part.
    pub fn merged(request: &Task, parts: &[Value]) -> Result<Job, String> {
        if let Task::Search { scenario, objective, top } = request {
            let searchable = searchable(scenario).map_err(|e| e.join("; "))?;
            let typed = searchable.typed.as_ref().ok().copied();
            let shards = parts
                .iter()
                .map(|part| shard_of(&searchable.inputs, part))
                .collect::<Result<Vec<_>, _>>()?;
            let options = search_options(*objective, *top);
            let search = Search::merged(&searchable.inputs, typed, options, &shards);
            return Ok(Job { kind: Kind::Search(Box::new((searchable, search))) });
        }
        let Task::Size { scenario, deadline_days, chips, dark } = request else {
            return Err("only a search or a sizing is put together from parts".into());
        };
        let mut done = Vec::new();
        for part in parts {
            let items: Vec<SizingPart> = serde_json::from_value(part.clone())
                .map_err(|_| "a sizing's part is a list of chips as a sizing writes them")?;
            for item in items {
                done.push(sized_chip(item)?);
            }
        }
        let chips = if chips.is_empty() { vec![None] } else { chips.clone() };
        Ok(Job {
            kind: Kind::Size(Box::new(Sizing {
                scenario: scenario.clone(),
                deadline_days: *deadline_days,
                dark: *dark,
                current: done.len().min(chips.len()),
                chips,
                sizer: None,
                done,
            })),
        })
    }

    /// A plan's sections once drawn; `None` for any other job.
    pub fn plots(&self) -> Option<&Drawn> {
        match &self.kind {
            Kind::Plots(_, drawn) => drawn.as_deref(),
            _ => None,
        }
    }

    /// One message at `progress`: for the page, the result as it shows it (`view`, or `plots`
    /// for a plan's plots); for another worker (`parts`), how far the job is and, when `done`,
    /// its `parts` alone, since that worker words the whole.
    pub fn update_at(&self, progress: f64, done: bool, parts: bool) -> String {
        let progress = Some(progress);
        if parts {
            let parts = if done { self.parts() } else { None };
            return Update::<Value> { done, progress, parts, ..Update::default() }.to_json();
        }
        let parts = None;
        match self.plots() {
            Some(plots) => {
                Update { done, progress, result: Some(plots), parts, errors: vec![] }.to_json()
            }
            None => {
                let result = Some(self.view(done));
                Update { done, progress, result, parts, errors: vec![] }.to_json()
            }
        }
    }

    /// One message for the page at the job's own progress (`update_at`).
    pub fn update(&self, done: bool) -> String {
        self.update_at(self.progress(), done, false)
    }
}

/// One chip's sizing as its part (`SizingPart`), each plan as `scenario` (the sizing's) at its
/// size with the plan applied.
fn sizing_part(c: &SizedChip, scenario: &Scenario) -> SizingPart {
    let answer = match &c.result {
        Ok(Some(Answer::Meets(s))) => Some(AnswerPart::Meets {
            scenario: Box::new(s.scenario.clone()),
            chips: s.chips,
            misses_at: s.misses_at,
            held_to: s.held_to,
        }),
        Ok(Some(Answer::Misses { fastest, .. })) => {
            let fastest = fastest.as_ref().and_then(|p| {
                let plan = p.best?;
                let at = crate::sizing::at(scenario, c.chip.as_deref(), p.chips);
                let scenario = Box::new(at.with_found(&plan, p.chips));
                Some(FastestPart { chips: p.chips, scenario })
            });
            Some(AnswerPart::Misses { fastest })
        }
        Ok(None) | Err(_) => None,
    };
    SizingPart {
        name: c.name.clone(),
        chip: c.chip.clone(),
        unit: c.unit,
        why: c.result.as_ref().err().cloned(),
        answer,
        curve: c.curve.clone(),
        budget_spent: c.budget_spent,
    }
}

/// `sizing_part`'s part back, each plan judged again on its scenario.
fn sized_chip(part: SizingPart) -> Result<SizedChip, String> {
    let bad = || "a sizing's part is not as a sizing writes it".to_string();
    let result = match (part.why, part.answer) {
        (Some(why), _) => Err(why),
        (None, Some(AnswerPart::Meets { scenario, chips, misses_at, held_to })) => {
            let plan = judged(&scenario).ok_or_else(bad)?;
            let (_, estimate) = scenario.estimated().map_err(|_| bad())?;
            let scenario = *scenario;
            let sized =
                crate::sizing::Sized { chips, misses_at, plan, scenario, estimate, held_to };
            Ok(Some(Answer::Meets(Box::new(sized))))
        }
        (None, Some(AnswerPart::Misses { fastest })) => {
            let (fastest, batch) = match fastest {
                None => (None, None),
                Some(FastestPart { chips, scenario }) => {
                    let best = judged(&scenario).ok_or_else(bad)?;
                    let batch = crate::sizing::BatchLimit::of(&scenario, &best);
                    (Some(Box::new(crate::sizing::Point { chips, best: Some(best) })), batch)
                }
            };
            Ok(Some(Answer::Misses { fastest, batch }))
        }
        (None, None) => Ok(None),
    };
    let (name, chip, unit, curve) = (part.name, part.chip, part.unit, part.curve);
    Ok(SizedChip { name, chip, unit, result, curve, budget_spent: part.budget_spent })
}

/// How the page's searches rank plans: by `objective`, the best `top`, plans within the model's
/// error of the best counted as equivalent.
fn search_options(objective: crate::model::search::Objective, top: usize) -> Options {
    Options { objective, top, equivalent_within: validation::model_error(), ..Options::default() }
}

/// What a search's shard found (`Job::parts`): each plan by the choices the search made on
/// its inputs, from which it is judged again (`shard_of`).
fn shard_part(shard: &crate::model::search::Shard) -> SearchPart {
    use crate::scenario::fields::{PARALLELISM_CP_KIND, PARALLELISM_RECOMPUTE};
    let plans = shard
        .plans
        .iter()
        .map(|(found, plan)| {
            let p = &plan.parallelism;
            PlanPart {
                found: *found,
                tp: p.tensor,
                pp: p.pipeline,
                dp: p.data,
                cp: p.context,
                ep: p.expert,
                etp: p.expert_tensor,
                micro_batch: p.micro_batch,
                virtual_stages: p.virtual_stages,
                zero: u64::from(p.sharding.stage()),
                recompute: PARALLELISM_RECOMPUTE.code(p.recompute).to_string(),
                recompute_elementwise: p.recompute_elementwise,
                sequence_parallel: p.sequence_parallel,
                cp_kind: PARALLELISM_CP_KIND.code(p.cp_kind).to_string(),
                cp_overlap: p.cp_overlap,
                domain_chips: plan.domain_chips,
                global_batch: plan.global_batch,
            }
        })
        .collect();
    let c = &shard.counts;
    let counts = CountsPart {
        searched: c.searched,
        invalid: c.invalid,
        does_not_fit: c.does_not_fit,
        never_finish: c.never_finish,
        evaluated: c.evaluated,
        better_than_yours: c.better_than_yours,
        skipped_cells: c.skipped_cells,
        cells: c.cells,
        least_need: c.least_need,
        never: c.never,
        budget_spent: c.budget_spent,
    };
    SearchPart { plans, counts }
}

/// A plan's part back: the plan judged again on `base` with its choices, as the search judged
/// it (`None` when a choice is not one the search makes, or it no longer fits).
fn plan_of(base: &crate::model::Inputs, v: &PlanPart) -> Option<(u64, crate::model::search::Plan)> {
    use crate::model::search::{evaluate, Verdict};
    use crate::scenario::fields::{PARALLELISM_CP_KIND, PARALLELISM_RECOMPUTE};
    let mut inputs = *base;
    let p = &mut inputs.parallelism;
    p.tensor = v.tp;
    p.pipeline = v.pp;
    p.data = v.dp;
    p.context = v.cp;
    p.expert = v.ep;
    p.expert_tensor = v.etp;
    p.micro_batch = v.micro_batch;
    p.virtual_stages = v.virtual_stages;
    p.sharding = crate::model::Sharding::of_stage(v.zero)?;
    p.recompute = PARALLELISM_RECOMPUTE.value(&v.recompute)?;
    p.recompute_elementwise = v.recompute_elementwise;
    p.sequence_parallel = v.sequence_parallel;
    p.cp_kind = PARALLELISM_CP_KIND.value(&v.cp_kind)?;
    p.cp_overlap = v.cp_overlap;
    // Found plans split the layers by the model's rule.
    p.first_stage_layers = 0;
    inputs.cluster.domain_chips = v.domain_chips;
    inputs.training.global_batch = v.global_batch;
    match evaluate(&inputs) {
        Verdict::Fits(plan) => Some((v.found, plan)),
        _ => None,
    }
}

/// A shard's part back, each plan judged again on `base`, the search's inputs.
fn shard_of(base: &crate::model::Inputs, v: &Value) -> Result<crate::model::search::Shard, String> {
    let bad = || "a search's part is not as a search writes it".to_string();
    let part: SearchPart = serde_json::from_value(v.clone()).map_err(|_| bad())?;
    let plans = part
        .plans
        .iter()
        .map(|p| plan_of(base, p).ok_or_else(bad))
        .collect::<Result<Vec<_>, _>>()?;
    let c = part.counts;
    Ok(crate::model::search::Shard {
        plans,
        counts: crate::model::search::ShardCounts {
            searched: c.searched,
            invalid: c.invalid,
            does_not_fit: c.does_not_fit,
            never_finish: c.never_finish,
            evaluated: c.evaluated,
            better_than_yours: c.better_than_yours,
            skipped_cells: c.skipped_cells,
            cells: c.cells,
            least_need: c.least_need,
            never: c.never,
            budget_spent: c.budget_spent,
        },
    })
}

/// The plan `scenario` carries, judged as the search judges it.
fn judged(scenario: &Scenario) -> Option<crate::model::search::Plan> {
    match crate::model::search::evaluate(&scenario.resolve().ok()?) {
        crate::model::search::Verdict::Fits(plan) => Some(plan),
        _ => None,
    }
}

impl Sizing {
    fn step(&mut self) -> bool {
        let Some(chip) = self.chips.get(self.current).cloned() else { return true };
        let name = chip.clone().unwrap_or_else(|| chip_name(&self.scenario));
        let sizer = match &mut self.sizer {
            Some(sizer) => sizer,
            None => match Sizer::new(&self.scenario, chip.as_deref(), self.deadline_days) {
                Ok(sizer) => self.sizer.insert(sizer),
                Err(errors) => {
                    let why: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    let result = Err(why.join("; "));
                    let (curve, budget_spent) = (Vec::new(), false);
                    self.done.push(SizedChip { name, chip, unit: 0, result, curve, budget_spent });
                    self.current += 1;
                    return self.current >= self.chips.len();
                }
            },
        };
        if !sizer.advance_by(CELLS_PER_STEP) {
            return false;
        }
        let (unit, result, curve) = (sizer.unit(), Ok(sizer.answer().cloned()), sizer.curve());
        let budget_spent = sizer.budget_spent();
        self.done.push(SizedChip { name, chip, unit, result, curve, budget_spent });
        self.sizer = None;
        self.current += 1;
        self.current >= self.chips.len()
    }

    /// `{"deadline_days", "rows": [...], "curves": [{"chip", "points": [[chips, days], ...]}]}`:
    /// each row as `report::sizing_row` writes it, with the chip the page applies it by and,
    /// when it meets the deadline, its scenario.
    fn to_json(&self) -> Value {
        let mut rows = Vec::new();
        let mut curves = Vec::new();
        for c in &self.done {
            let answer = match &c.result {
                Err(why) => {
                    rows.push(json!({ "chip": c.name, "chips": null, "why": why }));
                    continue;
                }
                Ok(answer) => answer,
            };
            let row = match answer {
                Some(answer) => report::sizing_row(&c.name, self.deadline_days, answer, c.unit),
                None => json!({ "chip": c.name, "chips": null }),
            };
            let applied = json!({ "apply_chip": c.chip, "budget_spent": c.budget_spent });
            let scenario = match answer {
                Some(Answer::Meets(sized)) => {
                    Some(json!({ "scenario": sized.scenario.to_value() }))
                }
                _ => None,
            };
            let row = report::joined(row, [Some(applied), scenario]);
            let points: Vec<Value> =
                c.curve.iter().map(|(chips, days)| json!([chips, days])).collect();
            curves.push(json!({ "chip": c.name, "points": points }));
            rows.push(row);
        }
        json!({ "deadline_days": self.deadline_days, "rows": rows, "curves": curves })
    }
}

/// Every published run's prediction: `{"rows": [{run, label, metric, published, predicted,
/// error, tolerance, within, known_miss}], "runs": [{title, source}]}`, or `{"error"}`.
fn accuracy(report: &Report) -> Value {
    match report {
        Ok((runs, outcomes)) => json!({
            "rows": outcomes.iter().map(|o| json!({
                "run": o.row.run,
                "label": o.row.label,
                "metric": o.row.metric.label(),
                "published": validation::show(o.row.metric, o.row.published),
                "predicted": validation::show(o.row.metric, o.predicted),
                "error": o.error,
                "tolerance": o.row.tolerance,
                "within": o.within(),
                "known_miss": o.row.known_miss,
            })).collect::<Vec<_>>(),
            "runs": runs.iter().map(|r| json!({ "title": r.title, "source": r.source })).collect::<Vec<_>>(),
        }),
        Err(e) => json!({ "error": e }),
    }
}

/// What a search of `typed` splits (`evaluation::searchable`), its problems in words.
fn searchable(typed: &Scenario) -> Result<crate::scenario::Searchable, Vec<String>> {
    crate::evaluation::searchable(typed).map_err(|e| e.iter().map(ToString::to_string).collect())
}

/// A typed result as plain JSON, for the command line.
fn as_json(result: &impl serde::Serialize) -> Value {
    serde_json::to_value(result).unwrap_or(Value::Null)
}

/// The scenario's chip as a row names it: its catalog id, or the name of a custom chip.
pub fn chip_name(scenario: &Scenario) -> String {
    match scenario.chip_ref() {
        ChipRef::Default => "default".to_string(),
        ChipRef::Preset(id) => id.to_string(),
        ChipRef::Custom { preset, name } => preset.or(name).unwrap_or("custom").to_string(),
    }
}

/// Runs a job to the end at once (the command line and tests).
pub fn run(request: &Task) -> Result<Value, Vec<String>> {
    let mut job = Job::start(request)?;
    while !job.step() {}
    Ok(job.result())
}
