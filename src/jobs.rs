//! Long computations the page runs off the main thread: a plan search, a sizing, the
//! accuracy report and plots as SVG documents, as jobs done a slice at a time.
//!
//! A `Task` crosses to the worker as JSON; the worker calls `Job::step` until it is done and
//! sends back an update as JSON every so often, which the page reads into a `Status`. The same
//! code runs natively, so tests drive a job exactly as the worker does.

use serde_json::{json, Map, Value};

use crate::charts;
use crate::editor;
use crate::model::search::{Objective, Options, Search};
use crate::model::sweep::ScalingPoint;
use crate::report;
use crate::scenario::{Scenario, Searchable};
use crate::sizing::{Answer, Sizer};
use crate::validation;

pub mod fleet;
mod view;

/// Cells a search step covers; small enough that progress moves every few milliseconds.
const CELLS_PER_STEP: usize = 4;

/// What the page asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    /// Search every plan for the scenario's workload and cluster.
    Search { scenario: Scenario, objective: Objective, top: usize },
    /// Size a cluster of each chip (`None`: the scenario's own) for a deadline; the plot is
    /// drawn for the dark colour scheme when `dark`.
    Size { scenario: Scenario, deadline_days: f64, chips: Vec<Option<String>>, dark: bool },
    /// Predict every published run (`validation::run_all`) for the accuracy table.
    Validate,
    /// Draw plan A against plan B (their steps, and days against chip count) as SVG.
    Compare { pair: Box<(Scenario, Scenario)>, dark: bool },
    /// Draw every plot of a plan as SVG, `width` pixels wide, with its fleet (`fleet::view`)
    /// when it has several pools or sites.
    Plots { scenario: Scenario, dark: bool, width: u32 },
    /// The fewest chips of `chip` to add beside the fleet to train in `deadline_days`.
    AddToFleet { scenario: Scenario, chip: String, deadline_days: f64 },
    /// The largest cluster of each chip (`None`: the scenario's own) whose site is provisioned
    /// within `power_mw` megawatts (`sizing::within_power`).
    SizePower { scenario: Scenario, power_mw: f64, chips: Vec<Option<String>> },
}

impl Task {
    /// The request as JSON text, for a worker message.
    pub fn to_json(&self) -> String {
        let mut request = match self {
            Task::Search { scenario, objective, top } => json!({
                "search": { "scenario": scenario.to_value(), "objective": objective.id(), "top": top }
            }),
            Task::Size { scenario, deadline_days, chips, dark } => json!({
                "size": { "scenario": scenario.to_value(), "deadline_days": deadline_days, "chips": chips, "dark": dark }
            }),
            Task::Validate => json!({ "validate": true }),
            Task::Compare { pair, dark } => json!({
                "compare": { "a": pair.0.to_value(), "b": pair.1.to_value(), "dark": dark }
            }),
            Task::Plots { scenario, dark, width } => json!({
                "plots": { "scenario": scenario.to_value(), "dark": dark, "width": width }
            }),
            Task::AddToFleet { scenario, chip, deadline_days } => json!({
                "add_to_fleet": { "scenario": scenario.to_value(), "chip": chip, "deadline_days": deadline_days }
            }),
            Task::SizePower { scenario, power_mw, chips } => json!({
                "size_power": { "scenario": scenario.to_value(), "power_mw": power_mw, "chips": chips }
            }),
        };
        // The worker words its result in the page's language.
        request["lang"] = json!(crate::text::lang().code());
        request.to_string()
    }

    /// A request from `to_json`'s text.
    pub fn from_json(text: &str) -> Result<Task, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let scenario =
            |v: &Value| Scenario::from_value(v["scenario"].clone()).map_err(|e| e.to_string());
        if let Some(v) = value.get("search") {
            let objective =
                v["objective"].as_str().and_then(Objective::from_id).ok_or("unknown objective")?;
            let top = v["top"].as_u64().unwrap_or(10).clamp(1, 1000) as usize;
            return Ok(Task::Search { scenario: scenario(v)?, objective, top });
        }
        if let Some(v) = value.get("size") {
            let deadline_days = v["deadline_days"]
                .as_f64()
                .filter(|d| *d > 0.0 && d.is_finite())
                .ok_or("the deadline must be a positive number of days")?;
            let chips = chips_of(v);
            let dark = v["dark"].as_bool().unwrap_or(false);
            return Ok(Task::Size { scenario: scenario(v)?, deadline_days, chips, dark });
        }
        if value.get("validate").is_some() {
            return Ok(Task::Validate);
        }
        if let Some(v) = value.get("compare") {
            let side = |key: &str| Scenario::from_value(v[key].clone()).map_err(|e| e.to_string());
            let dark = v["dark"].as_bool().unwrap_or(false);
            return Ok(Task::Compare { pair: Box::new((side("a")?, side("b")?)), dark });
        }
        if let Some(v) = value.get("plots") {
            let dark = v["dark"].as_bool().unwrap_or(false);
            let width = v["width"].as_u64().unwrap_or(720).min(u32::MAX as u64) as u32;
            return Ok(Task::Plots { scenario: scenario(v)?, dark, width });
        }
        if let Some(v) = value.get("add_to_fleet") {
            let chip = v["chip"].as_str().ok_or("the chip to add must be named")?.to_string();
            let deadline_days = v["deadline_days"]
                .as_f64()
                .filter(|d| *d > 0.0 && d.is_finite())
                .ok_or("the deadline must be a positive number of days")?;
            return Ok(Task::AddToFleet { scenario: scenario(v)?, chip, deadline_days });
        }
        if let Some(v) = value.get("size_power") {
            let power_mw = v["power_mw"]
                .as_f64()
                .filter(|p| *p > 0.0 && p.is_finite())
                .ok_or("the power must be a positive number of megawatts")?;
            return Ok(Task::SizePower { scenario: scenario(v)?, power_mw, chips: chips_of(v) });
        }
        Err("not a search or a sizing".into())
    }
}

/// The chips a sizing request names (`null` for the scenario's own), the scenario's own alone
/// when it names none.
fn chips_of(request: &Value) -> Vec<Option<String>> {
    request["chips"]
        .as_array()
        .map(|a| a.iter().map(|c| c.as_str().map(str::to_string)).collect())
        .unwrap_or_else(|| vec![None])
}

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
    Compare(Box<(Scenario, Scenario, bool)>, Option<Drawn>),
    /// A plan's plots to draw (scheme, width), then each by its kind's id.
    Plots(Box<(Scenario, bool, u32)>, Option<Value>),
    /// A fleet to add a chip to by a deadline, then the answer as the page shows it.
    AddToFleet(Box<(Scenario, String, f64)>, Option<Value>),
    /// The largest cluster of each chip within a power, one chip a step.
    Power(Box<PowerSizing>),
}

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
                let own = self.scenario.get("cluster.chip");
                own.as_ref().and_then(Value::as_str).unwrap_or("custom").to_string()
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
                    let mut row = report::power_row(name, self.power_mw, found.as_ref());
                    if let Some(s) = found {
                        row["scenario"] = s.scenario.to_value();
                    }
                    row
                }
                Err(why) => json!({ "chip": name, "chips": Value::Null, "why": why }),
            })
            .collect();
        json!({ "power_mw": self.power_mw, "rows": rows })
    }
}

/// Every published run and its prediction (`validation::run_all`).
type Report = Result<(Vec<validation::Run>, Vec<validation::Outcome>), String>;

/// Plan A against plan B: the step and the scaling plots as SVG documents, or why not.
type Drawn = Result<(String, String), &'static str>;

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

/// One chip's sizing once done.
struct SizedChip {
    /// The chip as the row names it.
    name: String,
    /// The chip asked for (`None`: the scenario's own), which the page applies a row by.
    chip: Option<String>,
    /// The sizing's resolution in chips.
    unit: u32,
    /// The answer (`None` if the sizing gave none), or why the sizing could not start.
    result: Result<Option<Answer>, String>,
    /// Best days at each size searched.
    curve: Vec<(u32, f64)>,
}

impl Job {
    /// Starts a job; `Err` lists what is wrong with the request, by field where it has one.
    pub fn start(request: &Task) -> Result<Job, Vec<String>> {
        let words = |errors: Vec<crate::scenario::InputError>| -> Vec<String> {
            errors.iter().map(ToString::to_string).collect()
        };
        match request {
            Task::Search { scenario, objective, top } => {
                let searchable = scenario.for_search().map_err(words)?;
                let options = Options {
                    objective: *objective,
                    top: *top,
                    equivalent_within: validation::model_error(),
                    ..Options::default()
                };
                let typed = searchable.typed.as_ref().ok().copied();
                let search = Search::placing(&searchable.inputs, typed, options);
                Ok(Job { kind: Kind::Search(Box::new((searchable, search))) })
            }
            Task::Size { scenario, deadline_days, chips, dark } => {
                // Sizing chooses its own plans, so only errors beyond the typed plan stop it.
                scenario.for_search().map_err(words)?;
                Ok(Job {
                    kind: Kind::Size(Box::new(Sizing {
                        scenario: scenario.clone(),
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
                pair.0.resolve().map_err(words)?;
                pair.1.resolve().map_err(words)?;
                let (a, b) = (**pair).clone();
                Ok(Job { kind: Kind::Compare(Box::new((a, b, *dark)), None) })
            }
            Task::Plots { scenario, dark, width } => {
                scenario.resolve().map_err(words)?;
                Ok(Job { kind: Kind::Plots(Box::new((scenario.clone(), *dark, *width)), None) })
            }
            Task::AddToFleet { scenario, chip, deadline_days } => {
                scenario.resolve().map_err(words)?;
                let task = (scenario.clone(), chip.clone(), *deadline_days);
                Ok(Job { kind: Kind::AddToFleet(Box::new(task), None) })
            }
            Task::SizePower { scenario, power_mw, chips } => {
                // Like a sizing, it chooses its own plans.
                scenario.for_search().map_err(words)?;
                Ok(Job {
                    kind: Kind::Power(Box::new(PowerSizing {
                        scenario: scenario.clone(),
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
                drawn.get_or_insert_with(|| compare_svg(&task.0, &task.1, task.2));
                true
            }
            Kind::Plots(task, drawn) => {
                drawn.get_or_insert_with(|| plots_svg(&task.0, task.1, task.2));
                true
            }
            Kind::AddToFleet(task, answer) => {
                answer.get_or_insert_with(|| fleet::addition(&task.0, &task.1, task.2));
                true
            }
            Kind::Power(p) => p.step(),
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
            Kind::Plots(_, drawn) | Kind::AddToFleet(_, drawn) => {
                f64::from(u8::from(drawn.is_some()))
            }
            Kind::Power(p) => p.done.len() as f64 / p.chips.len().max(1) as f64,
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
                let mut out = report::search_json(scenario, &outcome, &why);
                // Each plan with the whole scenario it makes, so the page applies it as found.
                let n_chips = searchable.inputs.cluster.n_chips;
                let applied = |plan: &crate::model::search::Plan| {
                    scenario.with_found(plan, n_chips).to_value()
                };
                if let Some(Value::Array(plans)) = out.get_mut("plans") {
                    for (row, plan) in plans.iter_mut().zip(&outcome.ranked) {
                        row["scenario"] = applied(plan);
                    }
                }
                if let (Some(row), Some(plan)) = (out.get_mut("best_inside"), &outcome.best_inside)
                {
                    row["scenario"] = applied(plan);
                }
                out
            }
            Kind::Size(s) => s.to_json(),
            Kind::Validate(report) => report.as_ref().map_or(Value::Null, accuracy),
            Kind::Compare(_, drawn) => drawn.as_ref().map_or(Value::Null, |d| match d {
                Ok((step, scaling)) => json!({ "step": step, "scaling": scaling }),
                Err(why) => json!({ "error": why }),
            }),
            Kind::Plots(_, drawn) | Kind::AddToFleet(_, drawn) => {
                drawn.clone().unwrap_or(Value::Null)
            }
            Kind::Power(p) => p.to_json(),
        }
    }

    /// The result so far as the page shows it, worded in the language spoken (`view`): a
    /// search, a sizing, the accuracy report and a comparison as lines, tables and images;
    /// a plan's plots as `result` gives them.
    pub fn view(&self, done: bool) -> Value {
        match &self.kind {
            Kind::Search(s) => view::search(&s.0, &s.1.outcome(), done),
            Kind::Size(s) => {
                let (confidence, money) = s.scenario.resolve().map_or(
                    (crate::model::Confidence::Central, crate::format::Money::USD),
                    |inputs| {
                        let money = crate::format::Money::of(&inputs.plant.facility);
                        (inputs.reliability.confidence, money)
                    },
                );
                view::size(s.deadline_days, &s.done, confidence, money, s.dark)
            }
            Kind::Validate(report) => report.as_ref().map_or(Value::Null, view::accuracy),
            Kind::Compare(_, drawn) => drawn.as_ref().map_or(Value::Null, view::compare),
            Kind::Plots(..) | Kind::AddToFleet(..) => self.result(),
            Kind::Power(p) => {
                let money = p.scenario.resolve().map_or(crate::format::Money::USD, |inputs| {
                    crate::format::Money::of(&inputs.plant.facility)
                });
                view::power(&p.to_json(), money)
            }
        }
    }

    /// A sizing of several chips as one sizing per chip, in its chips' order, for workers
    /// that size them side by side (`Job::merged` puts their `parts` back together); `None`
    /// for any other task, or a sizing of one chip.
    pub fn split(request: &Task) -> Option<Vec<Task>> {
        let Task::Size { scenario, deadline_days, chips, dark } = request else { return None };
        (chips.len() > 1).then(|| {
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
        let Kind::Size(sizing) = &self.kind else { return None };
        Some(Value::Array(sizing.done.iter().map(|c| c.to_part(&sizing.scenario)).collect()))
    }

    /// The sizing `request` (of several chips, `Job::split`) put together from the `parts` of
    /// the one-chip sizings done so far, in its chips' order: a job whose result and view are
    /// those of the whole sizing run in one job, done once every chip has its part.
    pub fn merged(request: &Task, parts: &[Value]) -> Result<Job, String> {
        let Task::Size { scenario, deadline_days, chips, dark } = request else {
            return Err("only a sizing is put together from parts".into());
        };
        let mut done = Vec::new();
        for part in parts {
            let items = part.as_array().ok_or("a sizing's part is a list of chips")?;
            for item in items {
                done.push(SizedChip::from_part(item)?);
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

    /// One message for the page: `{"done", "progress", "result"}`.
    pub fn update(&self, done: bool) -> String {
        json!({ "done": done, "progress": self.progress(), "result": self.result() }).to_string()
    }
}

impl SizedChip {
    /// `{"name", "chip", "unit", "why", "answer", "curve"}`, the answer as `{"meets":
    /// {"scenario", "chips", "misses_at", "held_to"}}` or `{"misses": {"fastest": {"chips",
    /// "scenario"} | null}}`, each plan as `scenario` (the sizing's) at its size with the plan
    /// applied.
    fn to_part(&self, scenario: &Scenario) -> Value {
        let answer = match &self.result {
            Ok(Some(Answer::Meets(s))) => json!({ "meets": {
                "scenario": s.scenario.to_value(), "chips": s.chips, "misses_at": s.misses_at,
                "held_to": s.held_to,
            } }),
            Ok(Some(Answer::Misses { fastest })) => {
                let fastest = fastest.as_ref().and_then(|p| {
                    let plan = p.best?;
                    let at = crate::sizing::at(scenario, self.chip.as_deref(), p.chips);
                    Some(json!({ "chips": p.chips, "scenario": at.with_found(&plan, p.chips).to_value() }))
                });
                json!({ "misses": { "fastest": fastest } })
            }
            Ok(None) | Err(_) => Value::Null,
        };
        json!({
            "name": self.name,
            "chip": self.chip,
            "unit": self.unit,
            "why": self.result.as_ref().err(),
            "answer": answer,
            "curve": self.curve,
        })
    }

    /// `to_part`'s JSON back, each plan judged again on its scenario.
    fn from_part(v: &Value) -> Result<SizedChip, String> {
        let bad = || "a sizing's part is not as a sizing writes it".to_string();
        let name = v["name"].as_str().ok_or_else(bad)?.to_string();
        let chip = v["chip"].as_str().map(str::to_string);
        let unit = v["unit"].as_u64().ok_or_else(bad)? as u32;
        let curve = v["curve"]
            .as_array()
            .ok_or_else(bad)?
            .iter()
            .map(|p| Some((p[0].as_u64()? as u32, p[1].as_f64()?)))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(bad)?;
        let result = if let Some(why) = v["why"].as_str() {
            Err(why.to_string())
        } else if let Some(m) = v["answer"].get("meets") {
            let sized = Scenario::from_value(m["scenario"].clone()).map_err(|e| e.to_string())?;
            let plan = judged(&sized).ok_or_else(bad)?;
            let (_, estimate) = sized.evaluate().map_err(|_| bad())?;
            Ok(Some(Answer::Meets(Box::new(crate::sizing::Sized {
                chips: m["chips"].as_u64().ok_or_else(bad)? as u32,
                misses_at: m["misses_at"].as_u64().ok_or_else(bad)? as u32,
                plan,
                scenario: sized,
                estimate,
                held_to: m["held_to"].as_f64().ok_or_else(bad)?,
            }))))
        } else if let Some(m) = v["answer"].get("misses") {
            let fastest = match &m["fastest"] {
                Value::Null => None,
                f => {
                    let chips = f["chips"].as_u64().ok_or_else(bad)? as u32;
                    let at =
                        Scenario::from_value(f["scenario"].clone()).map_err(|e| e.to_string())?;
                    let best = judged(&at).ok_or_else(bad)?;
                    Some(Box::new(crate::sizing::Point { chips, best: Some(best) }))
                }
            };
            Ok(Some(Answer::Misses { fastest }))
        } else {
            Ok(None)
        };
        Ok(SizedChip { name, chip, unit, result, curve })
    }
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
                    self.done.push(SizedChip { name, chip, unit: 0, result, curve: Vec::new() });
                    self.current += 1;
                    return self.current >= self.chips.len();
                }
            },
        };
        if !sizer.advance_by(CELLS_PER_STEP) {
            return false;
        }
        let (unit, result, curve) = (sizer.unit(), Ok(sizer.answer().cloned()), sizer.curve());
        self.done.push(SizedChip { name, chip, unit, result, curve });
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
            let mut row = match answer {
                Some(answer) => report::sizing_row(&c.name, self.deadline_days, answer, c.unit),
                None => json!({ "chip": c.name, "chips": null }),
            };
            row["apply_chip"] = json!(c.chip);
            if let Some(Answer::Meets(sized)) = answer {
                row["scenario"] = sized.scenario.to_value();
            }
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

/// Plan A against plan B: the step and the scaling plots as SVG documents.
fn compare_svg(a_scenario: &Scenario, b_scenario: &Scenario, dark: bool) -> Drawn {
    let (Ok(a), Ok(b)) =
        (crate::evaluation::evaluate(a_scenario), crate::evaluation::evaluate(b_scenario))
    else {
        return Err("a plan of the comparison does not resolve");
    };
    let current =
        |g: &crate::evaluation::Evaluation| ScalingPoint::of(g.inputs.cluster.n_chips, &g.estimate);
    let (now_a, now_b) = (current(&a), current(&b));
    let (scaling_a, scaling_b) = (editor::scaling(&a.inputs), editor::scaling(&b.inputs));
    let theme = if dark { charts::DARK } else { charts::LIGHT };
    let (name_a, name_b) =
        (crate::text::page::plan_short(a_scenario), crate::text::page::plan_short(b_scenario));
    let names = [name_a.as_str(), name_b.as_str()];
    Ok((
        charts::draw_compare_step(&a.estimate, &b.estimate, names, &theme, (960, 300)),
        charts::draw_compare_scaling(
            (&scaling_a, &now_a),
            (&scaling_b, &now_b),
            names,
            &theme,
            (960, 380),
        ),
    ))
}

/// Every plot of a plan as SVG documents `width` wide, keyed by `charts::Kind::id`, and the
/// cluster drawing (`sketch`, where the fabric builds), or `{"error"}`.
fn plots_svg(scenario: &Scenario, dark: bool, width: u32) -> Value {
    let Ok(good) = crate::evaluation::evaluate(scenario) else {
        return json!({ "error": "the plan does not resolve" });
    };
    let theme = if dark { charts::DARK } else { charts::LIGHT };
    let scaling = editor::scaling(&good.inputs);
    let chips = good.inputs.cluster.n_chips;
    let money = crate::format::Money::of(&good.inputs.plant.facility);
    let width = width.clamp(200, 4000);
    let mut drawn = charts::draw_all(&good.estimate, &scaling, chips, money, &theme, width);
    if let Some(s) = crate::sketch::sketch(&good.inputs, &good.estimate) {
        let layout = crate::sketch::layout(&s, &crate::text::page::sketch_words());
        drawn.push(("sketch", charts::draw_sketch(&layout, &theme)));
    }
    let mut out: Map<String, Value> =
        drawn.into_iter().map(|(id, svg)| (id.to_string(), Value::from(svg))).collect();
    out.insert("fleet".into(), fleet::view(scenario, &good, &theme, width.clamp(200, 4000)));
    out.insert("failures".into(), failures_view(&good, &theme, width.clamp(200, 4000)));
    Value::Object(out)
}

/// The days with failures as a distribution, worded and drawn: its percentiles, the chance of
/// meeting the deadline, and the chance of finishing by each day (`charts::draw_finish`).
fn failures_view(good: &crate::evaluation::Evaluation, theme: &charts::Theme, width: u32) -> Value {
    let spread = crate::evaluation::failures(good);
    // A run that never finishes has no spread to show; its problem says so.
    if spread.trials == 0 {
        return Value::Null;
    }
    let free = good.estimate.train_days;
    let deadline = good.inputs.reliability.deadline_days;
    let days = |d: f64| crate::numbers::sig3(d);
    let said = crate::text::fill(
        "failures.spread",
        &[
            ("runs", &crate::numbers::format(spread.trials as f64)),
            ("p10", &days(spread.p10_days)),
            ("p50", &days(spread.p50_days)),
            ("p90", &days(spread.p90_days)),
        ],
    );
    // Where the simulation had to stop early, the answer says so.
    let mut bounded = Vec::new();
    if spread.fewer_runs {
        let all = crate::numbers::format(crate::model::failures::TRIALS as f64);
        bounded.push(crate::text::fill("failures.fewer-runs", &[("all", &all)]));
    }
    if spread.cut_short > 0 {
        let events = crate::numbers::format(crate::model::failures::MAX_EVENTS as f64);
        let n = crate::numbers::format(spread.cut_short as f64);
        bounded.push(crate::text::fill("failures.cut-short", &[("n", &n), ("events", &events)]));
    }
    let said = [said].into_iter().chain(bounded).collect::<Vec<_>>().join(" ");
    let key = match good.inputs.reliability.confidence {
        crate::model::Confidence::Central => "failures.deadline",
        crate::model::Confidence::P90 => "failures.deadline-p90",
    };
    let deadline_said = deadline.zip(spread.deadline_chance).map(|(d, chance)| {
        crate::text::fill(key, &[("days", &days(d)), ("chance", &crate::format::percent(chance))])
    });
    json!({
        "p10_days": spread.p10_days,
        "p50_days": spread.p50_days,
        "p90_days": spread.p90_days,
        "deadline_chance": spread.deadline_chance,
        "said": said,
        "deadline": deadline_said,
        "svg": charts::draw_finish(&spread, free, deadline, theme, (width, 300)),
    })
}

/// The scenario's chip as a row names it: its catalog id, or the name of a custom chip.
pub fn chip_name(scenario: &Scenario) -> String {
    match scenario.get("cluster.chip") {
        Some(Value::String(id)) => id,
        Some(Value::Object(map)) => text_of(&map, "preset")
            .or_else(|| text_of(&map, "name"))
            .unwrap_or_else(|| "custom".to_string()),
        _ => "default".to_string(),
    }
}

fn text_of(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(|v| v.as_str().map(str::to_string))
}

/// Runs a job to the end at once (the command line and tests).
pub fn run(request: &Task) -> Result<Value, Vec<String>> {
    let mut job = Job::start(request)?;
    while !job.step() {}
    Ok(job.result())
}

/// What the page knows of a job: whether it runs, how far it has gone, its latest result and
/// any errors. Updates arrive as JSON text (`Job::update`); one that cannot be read is an
/// error, never a panic.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    /// The job is under way.
    pub running: bool,
    /// From 0 to 1.
    pub progress: f64,
    /// The latest result (a partial one while running).
    pub result: Option<Value>,
    /// Why the job could not run.
    pub errors: Vec<String>,
}

impl Status {
    /// A job just started.
    pub fn started() -> Status {
        Status { running: true, ..Status::default() }
    }

    /// The status after one update.
    pub fn read(&self, update: &str) -> Status {
        let Ok(value) = serde_json::from_str::<Value>(update) else {
            return Status {
                running: false,
                errors: vec!["the search sent an update that could not be read".into()],
                ..self.clone()
            };
        };
        let done = value["done"].as_bool().unwrap_or(true);
        let errors: Vec<String> = value["errors"]
            .as_array()
            .map(|a| a.iter().filter_map(|e| e.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        Status {
            running: !done,
            // A share: whatever the update says, between 0 and 1 (NaN keeps the last).
            progress: if done {
                1.0
            } else {
                value["progress"]
                    .as_f64()
                    .filter(|p| !p.is_nan())
                    .map_or(self.progress, |p| p.clamp(0.0, 1.0))
            },
            result: match value.get("result") {
                Some(result) if !result.is_null() => Some(result.clone()),
                _ => self.result.clone(),
            },
            errors,
        }
    }

    /// The status once the user stopped the job: what was found so far stays.
    pub fn cancelled(&self) -> Status {
        Status { running: false, ..self.clone() }
    }
}
