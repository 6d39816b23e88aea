//! The worker's wire: what the page asks for (`Task`, sent as an `Ask` in the page's
//! language), the updates the worker sends back (`Update`, with the result as the page shows
//! it, `app::View` or `app::Drawn`), and what the page knows of a job (`Status`). Every
//! message is JSON text; one that cannot be read is an error, never a panic.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::bricks::scenario_json;
use super::bricks::View;
use super::sections::Drawn;
use crate::model::search::Objective;
use crate::scenario::Scenario;

/// What the page asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    /// Search every plan for the scenario's workload and cluster.
    Search { scenario: Scenario, objective: Objective, top: usize },
    /// Search shard `part` of `of` of that search (`model::search::Search::shard`), for a
    /// worker searching beside others (`app::jobs::Job::split`).
    SearchShard { scenario: Scenario, objective: Objective, top: usize, part: u32, of: u32 },
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
    /// The plan as the launch files of a framework, by its id (`launch::Framework::id`).
    Launch { scenario: Scenario, framework: String },
    /// Logs (name and text) read into the scenario's measurements (`evaluation::measure`).
    Measure { scenario: Scenario, logs: Vec<(String, String)> },
}

impl Task {
    /// The request as JSON text, for a worker message.
    pub fn to_json(&self) -> String {
        let request = match self {
            Task::Search { scenario, objective, top } => json!({
                "search": { "scenario": scenario.to_value(), "objective": objective.id(), "top": top }
            }),
            Task::SearchShard { scenario, objective, top, part, of } => json!({
                "search_shard": { "scenario": scenario.to_value(), "objective": objective.id(), "top": top,
                                  "part": part, "of": of }
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
            Task::Launch { scenario, framework } => json!({
                "launch": { "scenario": scenario.to_value(), "framework": framework }
            }),
            Task::Measure { scenario, logs } => json!({
                "measure": { "scenario": scenario.to_value(), "logs": logs }
            }),
        };
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
        if let Some(v) = value.get("search_shard") {
            let objective =
                v["objective"].as_str().and_then(Objective::from_id).ok_or("unknown objective")?;
            let top = v["top"].as_u64().unwrap_or(10).clamp(1, 1000) as usize;
            let of = v["of"].as_u64().unwrap_or(1).clamp(1, 64) as u32;
            let part = (v["part"].as_u64().unwrap_or(0) as u32).min(of - 1);
            return Ok(Task::SearchShard { scenario: scenario(v)?, objective, top, part, of });
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
        if let Some(v) = value.get("launch") {
            let framework = v["framework"].as_str().ok_or("the framework must be named")?;
            return Ok(Task::Launch { scenario: scenario(v)?, framework: framework.to_string() });
        }
        if let Some(v) = value.get("measure") {
            let logs: Vec<(String, String)> = serde_json::from_value(v["logs"].clone())
                .map_err(|_| "the logs must be a list of names and texts")?;
            return Ok(Task::Measure { scenario: scenario(v)?, logs });
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

/// A task as the worker receives it: in the language the result is to be worded in, and, for
/// a worker sizing one chip for another, asking for the sizing's `parts` too.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The language's code (`text::Lang::code`).
    pub lang: Option<String>,
    /// Send the job's parts with the last update (`app::jobs::Job::parts`).
    pub parts: bool,
    /// Workers to run it on at most, when fewer than the machine's cores (`Some(1)`: this one
    /// alone).
    pub workers: Option<u32>,
    /// The task, or why it cannot be read.
    pub task: Result<Task, String>,
}

impl Ask {
    /// `task` worded in the language `lang`.
    pub fn new(task: &Task, lang: &str) -> Ask {
        Ask { lang: Some(lang.to_string()), parts: false, workers: None, task: Ok(task.clone()) }
    }

    /// The request as JSON text, for a worker message.
    pub fn to_json(&self) -> String {
        let mut value: Value = match &self.task {
            Ok(task) => serde_json::from_str(&task.to_json()).unwrap_or_default(),
            Err(_) => json!({}),
        };
        if let Some(lang) = &self.lang {
            value["lang"] = json!(lang);
        }
        if self.parts {
            value["parts"] = json!(true);
        }
        if let Some(n) = self.workers {
            value["workers"] = json!(n);
        }
        value.to_string()
    }

    /// A request from `to_json`'s text; its task is an error when the text is not one.
    pub fn from_json(text: &str) -> Ask {
        let value = serde_json::from_str::<Value>(text).unwrap_or_default();
        Ask {
            lang: value.get("lang").and_then(Value::as_str).map(str::to_string),
            parts: value.get("parts") == Some(&json!(true)),
            workers: value.get("workers").and_then(Value::as_u64).map(|n| n.clamp(1, 64) as u32),
            task: Task::from_json(text),
        }
    }
}

/// One message from the worker: whether the job is done, how far it has gone, its result as
/// the page shows it, why it could not run, and (for another worker) a sizing's parts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Update<R> {
    pub done: bool,
    /// From 0 to 1; `None` when the update does not say.
    pub progress: Option<f64>,
    pub result: Option<R>,
    pub errors: Vec<String>,
    pub parts: Option<Value>,
}

impl<R: Serialize> Update<R> {
    /// The update as JSON text.
    pub fn to_json(&self) -> String {
        let mut out = json!({ "done": self.done });
        if let Some(p) = self.progress {
            out["progress"] = json!(p);
        }
        if let Some(r) = &self.result {
            out["result"] = serde_json::to_value(r).unwrap_or(Value::Null);
        }
        if !self.errors.is_empty() {
            out["errors"] = json!(self.errors);
        }
        if let Some(parts) = &self.parts {
            out["parts"] = parts.clone();
        }
        out.to_string()
    }
}

/// The last update of a job that could not run, for `errors`.
pub fn failed(errors: &[String]) -> String {
    Update::<Value> { done: true, errors: errors.to_vec(), ..Update::default() }.to_json()
}

impl<R: DeserializeOwned> Update<R> {
    /// An update from its JSON text, read leniently: a missing `done` ends the job, a
    /// `progress` that is not a number says nothing, errors that are not text are dropped.
    /// `Err` when the text is not JSON or its result is not an `R`.
    pub fn read(text: &str) -> Result<Update<R>, String> {
        let value = serde_json::from_str::<Value>(text).map_err(|e| e.to_string())?;
        let result = match value.get("result") {
            None | Some(Value::Null) => None,
            Some(r) => Some(serde_json::from_value(r.clone()).map_err(|e| e.to_string())?),
        };
        Ok(Update {
            done: value.get("done").and_then(Value::as_bool).unwrap_or(true),
            progress: value.get("progress").and_then(Value::as_f64),
            result,
            errors: value
                .get("errors")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|e| e.as_str().map(str::to_string)).collect())
                .unwrap_or_default(),
            parts: value.get("parts").cloned(),
        })
    }
}

/// A plan's sections from the plots worker's last update, when they were drawn.
pub fn drawn(text: &str) -> Option<Drawn> {
    let value = serde_json::from_str::<Value>(text).ok()?;
    let done = value.get("done").and_then(Value::as_bool).unwrap_or(true);
    let drawn = read_drawn(value.get("result").filter(|r| !r.is_null())?);
    drawn.filter(|d| done && d.error.is_none())
}

/// The sections as `Drawn`'s derived `Serialize` writes them, read by hand: serde's derived
/// readers for these types weighed about 25 KB in the page, which reads nothing else of them.
/// The bricks they share with every view (`Line`, `Table`, the fleet, the failures) are read by
/// their derived readers, which the page carries anyway. `None` when `v` is not an object.
fn read_drawn(v: &Value) -> Option<Drawn> {
    use super::sections::insight::{Insight, Insights};
    use super::sections::plots::Plots;
    use super::sections::serving::{Deployments, Rl, RlCards, Served, Serving, ServingCards};
    use super::sections::timeline::Timeline;
    use super::Card;
    v.as_object()?;
    let at = |v: &Value, key: &str| v.get(key).filter(|x| !x.is_null()).cloned();
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let texts = |v: &Value, key: &str| -> Vec<String> {
        let list = v.get(key).and_then(Value::as_array);
        list.into_iter().flatten().filter_map(|t| t.as_str().map(str::to_string)).collect()
    };
    fn brick<T: DeserializeOwned + Default>(v: Option<Value>) -> T {
        v.and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default()
    }
    let card = |v: &Value, key: &str| {
        let c = v.get(key).cloned().unwrap_or_default();
        let part = |k: &str| text(&c, k).unwrap_or_default();
        Card {
            value: part("value"),
            low: part("low"),
            high: part("high"),
            detail: part("detail"),
            missed: text(&c, "missed"),
        }
    };
    let insight = |v: &Value| Insight {
        said: brick(at(v, "said")),
        table: brick(at(v, "table")),
        plot: text(v, "plot").unwrap_or_default(),
    };
    let looks = v.get("insights").cloned().unwrap_or_default();
    let plots = v.get("plots").and_then(Value::as_array).into_iter().flatten();
    let plots = plots.filter_map(|pair| {
        let kind = crate::charts::Kind::from_id(pair.get(0)?.as_str()?)?;
        Some((kind, pair.get(1)?.as_str()?.to_string()))
    });
    let served = at(v, "served").map(|s| Served {
        serving: at(&s, "serving").map(|g| {
            let c = g.get("cards").cloned().unwrap_or_default();
            let d = g.get("deployments").cloned().unwrap_or_default();
            Serving {
                cards: ServingCards {
                    throughput: card(&c, "throughput"),
                    ttft: card(&c, "ttft"),
                    tpot: card(&c, "tpot"),
                    cost: card(&c, "cost"),
                    energy: card(&c, "energy"),
                    chips: card(&c, "chips"),
                },
                problems: texts(&g, "problems"),
                notes: texts(&g, "notes"),
                feasible: g.get("feasible").and_then(Value::as_bool).unwrap_or(false),
                frontier: text(&g, "frontier").unwrap_or_default(),
                step: brick(at(&g, "step")),
                deployments: Deployments {
                    said: brick(at(&d, "said")),
                    table: brick(at(&d, "table")),
                },
            }
        }),
        rl: at(&s, "rl").map(|r| {
            let c = r.get("cards").cloned().unwrap_or_default();
            let cards =
                RlCards { step: card(&c, "step"), generation_share: card(&c, "generation_share") };
            Rl { cards, problems: texts(&r, "problems") }
        }),
        csv: text(&s, "csv").unwrap_or_default(),
    });
    Some(Drawn {
        scenario: at(v, "scenario").and_then(|s| Scenario::from_value(s).ok()).map(Box::new),
        plots: Plots { drawn: plots.collect() },
        sketch: text(v, "sketch"),
        timeline: Timeline { svg: text(v, "timeline").unwrap_or_default() },
        insights: Insights {
            sensitivity: insight(&looks.get("sensitivity").cloned().unwrap_or_default()),
            network: insight(&looks.get("network").cloned().unwrap_or_default()),
        },
        served,
        fleet: at(v, "fleet").and_then(|f| serde_json::from_value(f).ok()),
        failures: at(v, "failures").and_then(|f| serde_json::from_value(f).ok()),
        year: at(v, "year").map(|y| super::sections::year::Year {
            said: brick(at(&y, "said")),
            jobs: brick(at(&y, "jobs")),
            buy: at(&y, "buy").and_then(|b| serde_json::from_value(b).ok()),
            cost: brick(at(&y, "cost")),
            decisions: texts(&y, "decisions"),
            fleet_svg: text(&y, "fleet_svg").unwrap_or_default(),
            gantt_svg: text(&y, "gantt_svg").unwrap_or_default(),
            csv: text(&y, "csv").unwrap_or_default(),
            errors: texts(&y, "errors"),
        }),
        error: text(v, "error"),
    })
}

/// What a search's shard found, for the worker that puts the shards together
/// (`app::jobs::Job::parts`): each plan by the choices the search made on its inputs, from
/// which it is judged again, and the shard's counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchPart {
    pub plans: Vec<PlanPart>,
    pub counts: CountsPart,
}

/// A plan a shard kept, as the choices the search makes on its inputs (degrees, micro-batch,
/// schedule, ZeRO stage, recomputation, context-parallel exchange, placement and batch), with
/// the order one search finds it in; a few hundred bytes, where the scenario it makes is a
/// kilobyte that takes resolving again.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanPart {
    pub found: u64,
    pub tp: u32,
    pub pp: u32,
    pub dp: u32,
    pub cp: u32,
    pub ep: u32,
    pub etp: u32,
    pub micro_batch: u32,
    pub virtual_stages: u32,
    pub zero: u64,
    /// `parallelism.recompute`'s code.
    pub recompute: String,
    pub recompute_elementwise: bool,
    pub sequence_parallel: bool,
    /// `parallelism.cp_kind`'s code.
    pub cp_kind: String,
    pub cp_overlap: bool,
    pub domain_chips: u32,
    pub global_batch: u32,
}

/// A shard's counts (`model::search::ShardCounts`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CountsPart {
    pub searched: u64,
    pub invalid: u64,
    pub does_not_fit: u64,
    pub never_finish: u64,
    pub evaluated: u64,
    pub better_than_yours: u64,
    pub skipped_cells: u64,
    pub cells: u64,
    pub least_need: Option<(f64, f64)>,
    pub never: Option<(f64, f64)>,
    #[serde(default)]
    pub budget_spent: bool,
}

/// One chip's sizing, for the worker that puts a sizing of several chips together: the chip
/// as the row names it and as asked, the sizing's unit, why it could not start or its answer,
/// the best days at each size searched, and whether a size's search spent its budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizingPart {
    pub name: String,
    pub chip: Option<String>,
    pub unit: u32,
    pub why: Option<String>,
    pub answer: Option<AnswerPart>,
    pub curve: Vec<(u32, f64)>,
    #[serde(default)]
    pub budget_spent: bool,
}

/// A sizing's answer, each plan as the scenario (the sizing's, at its size, the plan applied)
/// from which it is judged again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerPart {
    Meets {
        #[serde(with = "scenario_json")]
        scenario: Box<Scenario>,
        chips: u32,
        misses_at: u32,
        held_to: f64,
    },
    Misses {
        fastest: Option<FastestPart>,
    },
}

/// The fastest size a sizing that misses its deadline found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FastestPart {
    pub chips: u32,
    #[serde(with = "scenario_json")]
    pub scenario: Box<Scenario>,
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
    pub result: Option<View>,
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
        let Ok(update) = Update::<View>::read(update) else {
            return Status {
                running: false,
                errors: vec!["the search sent an update that could not be read".into()],
                ..self.clone()
            };
        };
        Status {
            running: !update.done,
            // A share: whatever the update says, between 0 and 1 (NaN keeps the last).
            progress: if update.done {
                1.0
            } else {
                update.progress.filter(|p| !p.is_nan()).map_or(self.progress, |p| p.clamp(0.0, 1.0))
            },
            result: update.result.or_else(|| self.result.clone()),
            errors: update.errors,
        }
    }

    /// The status once the user stopped the job: what was found so far stays.
    pub fn cancelled(&self) -> Status {
        Status { running: false, ..self.clone() }
    }
}

/// The `<meta name>` under which a page saved as a file (*Save as file*) carries its plan: the
/// fragment of its link (`s=1.…`, with plan B of a comparison), which the page opens with when
/// its address has none.
pub const PLAN_META: &str = "clusterplan-plan";

/// The single-file page `html` (`standalone.html`, or the page as its head holds it) carrying
/// the plan `fragment`: any plan it carried replaced, the new one first in its head.
pub fn saved_file(html: &str, fragment: &str) -> String {
    let mark = format!("<meta name=\"{PLAN_META}\"");
    let mut html = html.to_string();
    while let Some(at) = html.find(&mark) {
        let end = html[at..].find('>').map_or(html.len(), |e| at + e + 1);
        html.replace_range(at..end, "");
    }
    let content = fragment.trim_start_matches('#').replace('&', "&amp;").replace('"', "&quot;");
    let meta = format!("{mark} content=\"{content}\">");
    match html.find("<head").and_then(|at| html[at..].find('>').map(|e| at + e + 1)) {
        Some(after) => html.insert_str(after, &meta),
        None => html.insert_str(0, &meta),
    }
    html
}
