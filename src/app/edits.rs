//! The page's edits of lists and optional blocks, as plain Rust: further pools and sites, the
//! user's measurements, the model's optional blocks (vision encoder, cross-attention,
//! attention window, experts), and the year's jobs and deliveries, each with what it brings
//! along or takes with it. `Edit::changes` turns one into
//! field changes on the scenario; `State::apply` runs them as any other edit, and a removal
//! comes with its notice and Undo.

use serde_json::json;
/// A raw value the page sets at a place, as the scenario keeps it: a number, text, a switch or
/// an object.
pub use serde_json::Value;

use crate::evaluation::Evaluation;
use crate::scenario::{year, Scenario, MEASURES};

/// A change to one field: a dotted path and its new raw value (`None` clears it).
pub type Change = (String, Option<Value>);

/// The raw value to store for what was typed: a number when the text is a plain number,
/// the text itself otherwise (so `1e1` stays `1e1` while typing `1e12`, and `abc` is reported).
pub fn typed(text: &str) -> Value {
    let t = text.trim();
    if let Ok(n) = t.parse::<i64>() {
        if n.to_string() == t {
            return Value::from(n);
        }
    }
    if let Ok(x) = t.parse::<f64>() {
        if x.is_finite() && serde_json::to_string(&x).is_ok_and(|s| s == t) {
            return Value::from(x);
        }
    }
    Value::String(text.to_string())
}

/// An optional block of the model, off unless the scenario or its preset has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// A vision encoder (`model.vision`), started from Qwen2-VL's 675M ViT with one 448 x 448
    /// image a sample.
    Vision,
    /// Cross-attention to a prompt (`model.cross_attention`), started from Wan 2.1's 512 umT5
    /// tokens of 4,096.
    CrossAttention,
    /// Sliding-window attention (`model.window`), started from GPT-OSS's: windows of 128 tokens,
    /// every second layer over the whole sequence.
    Window,
    /// A mixture of experts (`model.moe`), started from 8 experts, 2 a token (Mixtral's).
    Moe,
    /// Serving the model (`serving`), started from the conversation mix at its defaults.
    Serving,
    /// Reinforcement-learning post-training (`rl`), started from its defaults (DAPO's step).
    Rl,
}

impl Block {
    /// The block's path in the scenario.
    pub fn path(self) -> &'static str {
        match self {
            Block::Vision => "model.vision",
            Block::CrossAttention => "model.cross_attention",
            Block::Window => "model.window",
            Block::Moe => "model.moe",
            Block::Serving => "serving",
            Block::Rl => "rl",
        }
    }

    /// What turning the block off leaves: `false` for a model's block (which overrides its
    /// preset's), nothing for a section of its own.
    fn off(self) -> Option<Value> {
        match self {
            Block::Serving | Block::Rl => None,
            _ => Some(Value::Bool(false)),
        }
    }

    /// The figures a block starts from when ticked.
    fn start(self) -> Value {
        match self {
            Block::Vision => json!({ "layers": 32, "hidden": 1280, "heads": 16, "ffn": 5120,
                "patch": 14, "image_tokens": 1024 }),
            Block::CrossAttention => json!({ "tokens": 512, "width": 4096 }),
            Block::Window => json!({ "tokens": 128, "global_every": 2 }),
            Block::Moe => json!({ "experts": 8, "top_k": 2 }),
            Block::Serving => json!({ "mix": "conversation" }),
            Block::Rl => json!({ "colocated": true }),
        }
    }
}

/// An edit of a list or an optional block.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// A further pool of the cluster's own chip and size; a split of the job given by share
    /// is cleared, as it had one share a pool.
    AddPool,
    /// Pool `at`'s chip; the system of the chip before does not come along.
    PoolChip { at: usize, chip: String },
    /// Pool `at`'s system, or (`None`) its chip's own server.
    PoolSystem { at: usize, system: Option<String> },
    /// Drop pool `at` (with its share); with the last one, the link between pools and how the
    /// job spans them go too.
    RemovePool { at: usize },
    /// A site far away, named by the next letter; the first one added also places the
    /// cluster at a site of its own (`A`), so two sites appear.
    AddSite,
    /// A measurement of the plan as the form has it (model, chip, stack, TP, PP, batch and
    /// chips), its figure left to enter.
    AddMeasurement,
    /// Measurement `at` is of the model preset `preset`.
    MeasurementModel { at: usize, preset: String },
    /// Measurement `at` gives another kind of figure (`MEASURES`), keeping its number.
    MeasurementMetric { at: usize, key: String },
    /// Drop measurement `at`.
    RemoveMeasurement { at: usize },
    /// Turn `block` on, from its starting figures, or off.
    Block { block: Block, on: bool },
    /// A job of the year, named by the next free `job N`: a fine-tune of the plan on a
    /// hundredth of its tokens (`serve` false) or a serving load of a billion tokens a day.
    AddYearJob { serve: bool },
    /// Year job `at` trains or serves the catalog's model `preset`, or (`None`) the plan's.
    YearJobModel { at: usize, preset: Option<String> },
    /// Year job `at` is called `name`; the jobs that ran after it run after the new name.
    RenameYearJob { at: usize, name: String },
    /// Drop year job `at`; the jobs that ran after it start on their own.
    RemoveYearJob { at: usize },
    /// Chips arriving a quarter after the last delivery: as many of the same chip.
    AddDelivery,
    /// Drop delivery `at`.
    RemoveDelivery { at: usize },
    /// A site's power cap a quarter after the last, or the cluster's site at its own draw
    /// (rounded up to a megawatt) from week 0.
    AddPowerCap,
    /// Drop power cap `at`.
    RemovePowerCap { at: usize },
}

impl Edit {
    /// The edit is a removal, which the page confirms with a notice and Undo.
    pub fn removes(&self) -> Option<Removed> {
        match self {
            Edit::RemovePool { at } => Some(Removed::Pool { n: at + 2 }),
            Edit::RemoveMeasurement { at } => Some(Removed::Measurement { n: at + 1 }),
            Edit::RemoveYearJob { at } => Some(Removed::YearJob { n: at + 1 }),
            Edit::RemoveDelivery { at } => Some(Removed::Delivery { n: at + 1 }),
            Edit::RemovePowerCap { at } => Some(Removed::PowerCap { n: at + 1 }),
            _ => None,
        }
    }

    /// The edit would change `scenario`: a button making it is worth showing (an Add at a
    /// list's bound or past the horizon changes nothing, and is hidden, not dead).
    pub fn changes_anything(&self, scenario: &Scenario, good: Option<&Evaluation>) -> bool {
        self.changes(scenario, good).iter().any(|(path, value)| scenario.get(path) != *value)
    }

    /// The field changes the edit makes to `scenario`, whose result is `good` (the plan a new
    /// pool or measurement starts from); none where it names an entry the list lacks.
    pub fn changes(&self, scenario: &Scenario, good: Option<&Evaluation>) -> Vec<Change> {
        let list = |path: &str| match scenario.get(path) {
            Some(Value::Array(list)) => list,
            _ => Vec::new(),
        };
        let some_list = |list: Vec<Value>| (!list.is_empty()).then_some(Value::Array(list));
        // The year's horizon, as read (its default where it does not read).
        let weeks = || {
            let plan = scenario.year().ok().flatten();
            plan.map_or(fixed_weeks(), |p| p.weeks)
        };
        // The list at `path` without its entry `at` (none when it has no such entry).
        let without = |path: &str, at: usize| -> Vec<Change> {
            let mut entries = list(path);
            if at >= entries.len() {
                return Vec::new();
            }
            entries.remove(at);
            vec![(path.to_string(), some_list(entries))]
        };
        match self {
            Edit::AddPool => {
                let mut pools = list("cluster.pools");
                let chips = good.map_or(1024, |g| g.inputs.cluster.n_chips);
                let chip = scenario.chip_ref().preset().unwrap_or("h100-sxm").to_string();
                pools.push(json!({ "chip": chip, "chips": chips }));
                vec![
                    ("cluster.pools".into(), Some(Value::Array(pools))),
                    ("parallelism.pool_shares".into(), None),
                ]
            }
            Edit::PoolChip { at, chip } if *at < list("cluster.pools").len() => vec![
                (format!("cluster.pools.{at}.chip"), Some(Value::String(chip.clone()))),
                (format!("cluster.pools.{at}.system"), None),
            ],
            Edit::PoolSystem { at, system } if *at < list("cluster.pools").len() => {
                let value = system.clone().filter(|s| !s.is_empty()).map(Value::String);
                vec![(format!("cluster.pools.{at}.system"), value)]
            }
            Edit::RemovePool { at } => {
                let mut pools = list("cluster.pools");
                if *at >= pools.len() {
                    return Vec::new();
                }
                pools.remove(*at);
                let left = some_list(pools);
                let mut changes = vec![
                    ("parallelism.pool_shares".to_string(), None),
                    ("cluster.pools".to_string(), left.clone()),
                ];
                if left.is_none() {
                    changes.push(("cluster.between_pools".into(), None));
                    changes.push(("parallelism.across_pools".into(), None));
                }
                changes
            }
            Edit::AddSite => {
                let letter = |i: usize| char::from(b'A' + (i % 26) as u8).to_string();
                let mut sites = list("sites");
                let mut changes = Vec::new();
                if sites.is_empty() {
                    sites.push(json!({ "name": letter(0), "wan_gbit_per_s": 100 }));
                    changes.push(("cluster.site".to_string(), Some(json!(letter(0)))));
                }
                sites.push(json!({ "name": letter(sites.len()), "wan_gbit_per_s": 100 }));
                changes.push(("sites".to_string(), Some(Value::Array(sites))));
                changes
            }
            Edit::AddMeasurement => {
                let mut entries = list("calibration");
                let (tp, pp, batch, chips) = good.map_or((1, 1, 1, 1), |g| {
                    let (p, i) = (g.inputs.parallelism, &g.inputs);
                    (p.tensor, p.pipeline, i.training.global_batch, i.cluster.n_chips)
                });
                let raw = |path: &str| scenario.get(path).unwrap_or(Value::Null);
                entries.push(json!({
                    "scenario": {
                        "model": raw("model"),
                        "training": { "global_batch": batch },
                        "cluster": { "chip": raw("cluster.chip"), "chips": chips },
                        "parallelism": { "tp": tp.max(1), "pp": pp.max(1), "dp": null,
                            "stack": raw("parallelism.stack") },
                    },
                    "measured": { "step_s": null },
                }));
                vec![("calibration".into(), Some(Value::Array(entries)))]
            }
            Edit::MeasurementModel { at, preset } if *at < list("calibration").len() => {
                let path = format!("calibration.{at}.scenario.model");
                vec![(path, Some(json!({ "preset": preset })))]
            }
            Edit::MeasurementMetric { at, key } if MEASURES.contains(&key.as_str()) => {
                let mut entries = list("calibration");
                let Some(entry) = entries.get_mut(*at) else { return Vec::new() };
                let value = entry
                    .get("measured")
                    .and_then(Value::as_object)
                    .and_then(|m| m.values().next().cloned())
                    .unwrap_or(Value::Null);
                let mut measured = serde_json::Map::new();
                measured.insert(key.clone(), value);
                if let Value::Object(map) = entry {
                    map.insert("measured".into(), Value::Object(measured));
                }
                vec![("calibration".into(), Some(Value::Array(entries)))]
            }
            Edit::RemoveMeasurement { at } => without("calibration", *at),
            Edit::Block { block, on } => {
                let value = if *on { Some(block.start()) } else { block.off() };
                vec![(block.path().into(), value)]
            }
            Edit::AddYearJob { serve } => {
                let tokens = good.map_or(1e12, |g| g.inputs.training.tokens);
                let listed = scenario
                    .raw(crate::scenario::paths::YEAR_JOBS)
                    .is_some()
                    .then(|| list("year.jobs"));
                let jobs = year::job_added(listed, *serve, tokens);
                vec![("year.jobs".into(), Some(Value::Array(jobs)))]
            }
            Edit::RenameYearJob { at, name } => {
                match year::job_renamed(list("year.jobs"), *at, name) {
                    Some(jobs) => vec![("year.jobs".into(), Some(Value::Array(jobs)))],
                    None => Vec::new(),
                }
            }
            Edit::YearJobModel { at, preset } if *at < list("year.jobs").len() => {
                let model = year::job_model(preset.as_deref());
                vec![(format!("year.jobs.{at}.scenario.model"), model)]
            }
            // The last job removed leaves an empty list: a year with no jobs, not one running
            // the plan's own training, which a year without the list does.
            Edit::RemoveYearJob { at } => match year::job_removed(list("year.jobs"), *at) {
                Some(jobs) => vec![("year.jobs".into(), Some(Value::Array(jobs)))],
                None => Vec::new(),
            },
            Edit::AddDelivery => {
                let chips = good.map_or(1024, |g| g.inputs.cluster.n_chips);
                let deliveries = year::delivery_added(list("year.deliveries"), chips, weeks());
                vec![("year.deliveries".into(), Some(Value::Array(deliveries)))]
            }
            Edit::RemoveDelivery { at } => without("year.deliveries", *at),
            Edit::AddPowerCap => {
                let w = good.map_or(0.0, |g| g.estimate.facility.power.facility_w);
                let caps = year::cap_added(list("year.power"), (w / 1e6).ceil().max(1.0), weeks());
                vec![("year.power".into(), Some(Value::Array(caps)))]
            }
            Edit::RemovePowerCap { at } => without("year.power", *at),
            Edit::PoolChip { .. }
            | Edit::YearJobModel { .. }
            | Edit::PoolSystem { .. }
            | Edit::MeasurementModel { .. }
            | Edit::MeasurementMetric { .. } => Vec::new(),
        }
    }
}

/// What a removal took away, by its number on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removed {
    /// Pool `n` (the cluster's own is pool 1).
    Pool { n: usize },
    /// Measurement `n`.
    Measurement { n: usize },
    /// Job `n` of the year.
    YearJob { n: usize },
    /// Delivery `n` of the year.
    Delivery { n: usize },
    /// Power cap `n` of the year.
    PowerCap { n: usize },
}

/// The `year` section as the form shows it: JSON laid out to be read; empty without one.
pub fn year_text(scenario: &Scenario) -> String {
    scenario
        .year
        .as_ref()
        .map_or_else(String::new, |y| serde_json::to_string_pretty(y).unwrap_or_default())
}

/// The change the form's year text makes: the `year` section it holds (none when emptied), or
/// why it is not a JSON object, in words.
pub fn year_change(text: &str) -> Result<Vec<Change>, String> {
    if text.trim().is_empty() {
        return Ok(vec![("year".into(), None)]);
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(vec![("year".into(), Some(v))]),
        Ok(_) => Err(crate::text::t("form.year-not-object").to_string()),
        Err(e) => Err(crate::text::fill("form.year-not-json", &[("why", &e.to_string())])),
    }
}

/// A year to start from: the plan's cluster installed now and half as many GB300 in week 21,
/// the plan's training due in week 26, RL post-training (the `rl` section's defaults) after it,
/// and a chat service of 20 B tokens a day from week 5 growing a fifth a month with a daily
/// peak 1.6 times its mean.
pub fn example_year(scenario: &Scenario) -> Value {
    let chips = scenario.cluster.chips.as_ref().and_then(Value::as_u64).unwrap_or(8192);
    let chip = match scenario.chip_ref() {
        crate::scenario::ChipRef::Preset(id) => id.to_string(),
        _ => "cluster".to_string(),
    };
    // GB300 comes in NVL72 racks: whole racks, about half the chips.
    let later = (chips / 2 / 72).max(1) * 72;
    json!({
        "start": crate::scenario::year::DEFAULT_START,
        "weeks": 52,
        "deliveries": [
            { "chip": chip, "chips": chips },
            { "week": 20, "chip": "gb300", "chips": later }
        ],
        "jobs": [
            { "name": "pretrain", "kind": "pretrain", "deadline": 26, "priority": 0 },
            { "name": "rl", "kind": "post_train", "after": "pretrain", "deadline": 40,
              "scenario": { "rl": {} } },
            { "name": "chat", "kind": "serve", "earliest": 4, "tokens_per_day": "20B",
              "growth_per_month": 0.2, "peak_over_mean": 1.6 }
        ]
    })
}

/// The horizon of a year that does not give one.
fn fixed_weeks() -> u32 {
    const { crate::scenario::fields::YEAR_WEEKS.fixed() as u32 }
}
