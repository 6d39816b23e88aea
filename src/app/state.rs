//! The planner page's state and everything a user can do to it, as plain Rust.
//!
//! `State::apply(Action)` is the page's reducer: an edit is judged and estimated at once
//! (`evaluation::shown`), so what the page shows is a function of the scenario alone: its
//! refused inputs are listed by field and set aside, never estimated. Every change is
//! undoable: a run of edits of the same fields (the keys typed into one box) is one step.
//! Whole-plan changes (reset, import, a published plan, a chip change, a searched or sized
//! plan) also raise `history` so the page adds a browser-history entry and Back returns to the
//! plan before. Nothing typed is lost: a file that does not parse or resolve is rejected whole.
//! No browser and no Yew here, so native tests drive it; `ui` adapts it to `use_reducer`.
//! Notices are typed; the page words them.

use std::rc::Rc;

use serde_json::Value;

use crate::evaluation;
pub use crate::evaluation::Evaluation;
use crate::model::presets;
use crate::scenario::{describe, fields, paths, InputError, Path, Scenario};
use crate::validation;

pub use super::edits::{Block, Change, Edit, Removed};

/// Undo keeps this many changes.
const UNDO_DEPTH: usize = 50;

/// A fabric or node setting the user chose that a chip change kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    /// Scenario path (`cluster.scale_out`).
    pub path: &'static str,
    /// What the user has.
    pub yours: Value,
    /// What the new chip would bring.
    pub usual: Option<Value>,
}

/// Something the page tells the user.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Occurs after Reset.
    Reset,
    /// Occurs after a file was imported.
    Imported { name: String },
    /// Occurs when a file could not be imported; the plan on screen is unchanged.
    ImportRejected { name: String, problems: Vec<String> },
    /// Occurs when a published plan was loaded: its run's title, and how the model reads it
    /// (its step time's error there, positive when slow, and why it misses it where it does).
    LoadedPlan { title: String, error: f64, miss: &'static str },
    /// Occurs when the chip changed: what came with it, what of the user's was kept, and how
    /// many of the user's measurements were made on another chip, kept for it and not applied.
    ChipChanged { chip: String, kept: Vec<Kept>, replaced: Vec<&'static str>, set_aside: usize },
    /// Occurs when a mixture-of-experts model is chosen with expert parallelism 1.
    MoeWithoutEp { model: String },
    /// Occurs when a plan the search or the sizing found was applied.
    Applied { label: String },
    /// Occurs when the current plan was pinned as side A of a comparison.
    Comparing,
    /// Occurs when a system was chosen: its name, the chip that came with it when the chip
    /// changed, and the fields of the user's that its own node size and fabrics replaced.
    SystemChanged { system: String, chip: Option<String>, replaced: Vec<&'static str> },
    /// Occurs after Undo.
    Undone,
    /// Occurs after Redo.
    Redone,
    /// Occurs when Undo has nothing to undo.
    NothingToUndo,
    /// Occurs when a link pasted or navigated to was opened.
    OpenedLink,
    /// Occurs when a pool or a measurement was removed.
    Removed(Removed),
    /// Anything the page itself reports (link copied, a broken link, an export problem).
    Text(String),
}

impl Notice {
    /// The notice comes with a way back.
    pub fn undoable(&self) -> bool {
        matches!(
            self,
            Notice::Reset
                | Notice::Imported { .. }
                | Notice::LoadedPlan { .. }
                | Notice::Applied { .. }
                | Notice::ChipChanged { .. }
                | Notice::SystemChanged { .. }
                | Notice::MoeWithoutEp { .. }
                | Notice::Removed(_)
                | Notice::OpenedLink
                | Notice::Redone
        )
    }
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// What the user typed.
    pub scenario: Scenario,
    /// The inputs of `scenario` the judge refuses, by field, each set aside from `good`;
    /// empty when it is valid.
    pub errors: Vec<InputError>,
    /// The result of `scenario` with its refused inputs set aside (`evaluation::shown`); `None`
    /// only when nothing of it can be estimated.
    pub good: Option<Rc<Evaluation>>,
    /// A chip count the plan does not divide, taken with chips idle in `good` (its round
    /// counts offered beside the field).
    pub idle: Option<evaluation::Idle>,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// Scenarios before each whole-plan change, newest last.
    pub undo: Vec<Rc<Scenario>>,
    /// Scenarios Undo went back from, newest last; any other change empties it.
    pub redo: Vec<Rc<Scenario>>,
    /// The fields the last edit set, while edits of the same fields go on: they join its
    /// Undo step rather than each making one.
    pub typing: Option<Vec<String>>,
    /// Rises with every whole-plan change, so the page adds a browser-history entry.
    pub history: u32,
    /// Side A of a comparison, pinned while the form edits side B (`scenario`); `None` when
    /// the page shows one plan.
    pub pinned: Option<Rc<Pinned>>,
}

/// The scenario pinned as side A of a comparison, with its result.
#[derive(Clone, Debug, PartialEq)]
pub struct Pinned {
    /// Side A as it was pinned.
    pub scenario: Scenario,
    /// Its result, when it resolves.
    pub good: Option<Rc<Evaluation>>,
}

impl Pinned {
    /// Pins `scenario` as side A, its refused inputs set aside as the page shows it.
    pub fn of(scenario: Scenario) -> Pinned {
        let good = evaluation::shown(&scenario).ok().map(|s| Rc::new(s.good));
        Pinned { scenario, good }
    }
}

/// Something the user did.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Set (or with `None` clear) fields by dotted path.
    Set(Vec<Change>),
    /// Edit a list (pools, sites, measurements) or an optional block of the model.
    Edit(Edit),
    /// Back to the default plan.
    Reset,
    /// A file's text to import.
    Import { name: String, text: String },
    /// A scenario from the link (pasted, or reached by Back and Forward); undoable, and adds
    /// no history entry, since the browser's history already holds it.
    Open(Box<Scenario>),
    /// Choose a chip preset, or `custom` to take over the current chip's figures.
    ChooseChip(String),
    /// Choose a system preset, whose chip, node size and fabrics come with it; an id that is
    /// no system (`""`) goes back to the chip's own.
    ChooseSystem(String),
    /// Choose a model preset, or `custom` to take over the current dimensions.
    ChooseModel(String),
    /// Load the published plan of a model preset.
    LoadPublishedPlan(String),
    /// Replace the plan by one the search or the sizing found; `label` says which.
    Apply { label: String, scenario: Box<Scenario> },
    /// Pin the current plan as side A of a comparison and go on editing it as side B.
    Compare,
    /// Leave the comparison, keeping side B.
    EndCompare,
    /// A comparison from the link (side A, side B); not undoable, as `Open`.
    OpenPair(Box<(Scenario, Scenario)>),
    /// Go back to the scenario before the last whole-plan change.
    Undo,
    /// Go forward again to the scenario the last Undo left.
    Redo,
    /// Show a notice.
    Notify(Notice),
}

impl State {
    /// The state for a scenario, with a notice to show.
    pub fn new(scenario: Scenario, notice: Option<Notice>) -> State {
        let mut state = State {
            scenario,
            errors: Vec::new(),
            good: None,
            idle: None,
            notice,
            undo: Vec::new(),
            redo: Vec::new(),
            typing: None,
            history: 0,
            pinned: None,
        };
        state.judge();
        state
    }

    /// The state of a comparison: side A pinned, side B in the form.
    pub fn pair(a: Scenario, b: Scenario, notice: Option<Notice>) -> State {
        let mut state = State::new(b, notice);
        state.pinned = Some(Rc::new(Pinned::of(a)));
        state
    }

    /// Errors for one field.
    pub fn errors_for(&self, path: &str) -> Vec<&InputError> {
        self.errors.iter().filter(|e| e.field == path).collect()
    }

    /// The note of a field taken with chips idle, when it is `path`.
    pub fn idle_for(&self, path: &str) -> Option<&InputError> {
        self.idle.as_ref().map(|i| &i.note).filter(|n| n.field == path)
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        let typing = self.typing.take();
        match action {
            Action::Set(changes) => {
                let paths: Vec<String> = changes.iter().map(|(p, _)| p.clone()).collect();
                let mut next = self.scenario.clone();
                for (path, value) in changes {
                    next = next.with_at(&path, value);
                }
                if next != self.scenario {
                    let previous = std::mem::replace(&mut self.scenario, next);
                    if typing.as_ref() != Some(&paths) {
                        self.remember(previous);
                    }
                    self.redo.clear();
                }
                self.typing = Some(paths);
                self.notice = None;
                self.judge();
            }
            Action::Edit(edit) => {
                let changes = edit.changes(&self.scenario, self.good.as_deref());
                match edit.removes() {
                    Some(removed) if !changes.is_empty() => {
                        let mut next = self.scenario.clone();
                        for (path, value) in changes {
                            next = next.with_at(&path, value);
                        }
                        self.replace(next, Notice::Removed(removed));
                    }
                    _ => self.apply(Action::Set(changes)),
                }
            }
            Action::Reset => self.replace(Scenario::default_plan(), Notice::Reset),
            Action::Import { name, text } => self.import(name, &text),
            // The browser's history already holds the way back; Undo holds it too.
            Action::Open(scenario) => {
                if *scenario != self.scenario || self.pinned.is_some() {
                    let previous = std::mem::replace(&mut self.scenario, *scenario);
                    if previous != self.scenario {
                        self.remember(previous);
                        self.redo.clear();
                    }
                    self.pinned = None;
                    self.notice = Some(Notice::OpenedLink);
                    self.judge();
                }
            }
            Action::OpenPair(pair) => {
                let (a, b) = *pair;
                if self.pinned.as_ref().is_none_or(|p| p.scenario != a) {
                    self.pinned = Some(Rc::new(Pinned::of(a)));
                }
                self.scenario = b;
                self.notice = Some(Notice::OpenedLink);
                self.judge();
            }
            Action::Compare => {
                self.pinned = Some(Rc::new(Pinned {
                    scenario: self.scenario.clone(),
                    good: self.good.clone(),
                }));
                self.notice = Some(Notice::Comparing);
                self.history = self.history.wrapping_add(1);
            }
            Action::EndCompare => {
                self.pinned = None;
                self.notice = None;
                self.history = self.history.wrapping_add(1);
            }
            Action::ChooseChip(id) => self.choose_chip(&id),
            Action::ChooseSystem(id) => self.choose_system(&id),
            Action::Apply { label, scenario } => self.replace(*scenario, Notice::Applied { label }),
            Action::ChooseModel(id) => self.choose_model(&id),
            Action::LoadPublishedPlan(id) => match validation::published_plan(&id) {
                Some((title, scenario)) => {
                    let (error, miss) = validation::published_reading(&id).unwrap_or((0.0, ""));
                    self.replace(scenario, Notice::LoadedPlan { title, error, miss })
                }
                None => self.notice = None,
            },
            Action::Undo => match self.undo.pop() {
                Some(previous) => {
                    let left = std::mem::replace(&mut self.scenario, (*previous).clone());
                    self.redo.push(Rc::new(left));
                    self.notice = Some(Notice::Undone);
                    self.history = self.history.wrapping_add(1);
                    self.judge();
                }
                None => self.notice = Some(Notice::NothingToUndo),
            },
            Action::Redo => {
                if let Some(next) = self.redo.pop() {
                    let left = std::mem::replace(&mut self.scenario, (*next).clone());
                    self.undo.push(Rc::new(left));
                    self.notice = Some(Notice::Redone);
                    self.history = self.history.wrapping_add(1);
                    self.judge();
                }
            }
            Action::Notify(notice) => self.notice = Some(notice),
        }
    }

    /// Replaces the whole scenario, keeping the old one for Undo.
    fn replace(&mut self, scenario: Scenario, notice: Notice) {
        let previous = std::mem::replace(&mut self.scenario, scenario);
        if previous != self.scenario {
            self.redo.clear();
            self.remember(previous);
            self.history = self.history.wrapping_add(1);
        }
        self.notice = Some(notice);
        self.judge();
    }

    /// Keeps `previous` for Undo, the oldest dropped past `UNDO_DEPTH`.
    fn remember(&mut self, previous: Scenario) {
        self.undo.push(Rc::new(previous));
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
    }

    fn import(&mut self, name: String, text: &str) {
        let problems = match Scenario::parse_many(text) {
            Err(e) => vec![e.to_string()],
            Ok(list) if list.len() != 1 => {
                vec![format!("holds {} scenarios; import one at a time", list.len())]
            }
            Ok(mut list) => {
                let scenario = list.remove(0);
                match scenario.resolve() {
                    Ok(_) => return self.replace(scenario, Notice::Imported { name }),
                    Err(errors) => errors.iter().map(|e| e.to_string()).collect(),
                }
            }
        };
        self.notice = Some(Notice::ImportRejected { name, problems });
    }

    /// A system preset and what comes with it: its chip, and its own node size and fabrics in
    /// place of any the user set (said in the notice, with Undo).
    fn choose_system(&mut self, id: &str) {
        const ITS_OWN: [Path; 5] = [
            paths::CLUSTER_SCALE_UP,
            paths::CLUSTER_SCALE_OUT,
            Path::of(&fields::CLUSTER_CHIPS_PER_NODE),
            Path::of(&fields::CLUSTER_SCALE_UP_DOMAIN_SIZE),
            paths::CLUSTER_PLACEMENT,
        ];
        let Some(system) = presets::system(id) else {
            return self.apply(Action::Set(vec![("cluster.system".into(), None)]));
        };
        let before = self.scenario.chip_preset().map(|c| c.id);
        let mut next = self
            .scenario
            .with(paths::CLUSTER_SYSTEM, Some(Value::String(system.id.into())))
            .with(paths::CLUSTER_CHIP, Some(Value::String(system.chip.into())));
        let mut replaced = Vec::new();
        for path in ITS_OWN {
            if self.scenario.get(path.as_str()).is_some() {
                replaced.push(path.as_str());
            }
            next = next.with(path, None);
        }
        let chip = (before != Some(system.chip))
            .then(|| presets::chip(system.chip).map_or(system.chip, |c| c.name).to_string());
        self.replace(next, Notice::SystemChanged { system: system.name.into(), chip, replaced });
    }

    fn choose_chip(&mut self, id: &str) {
        if id == "custom" {
            let Some(good) = &self.good else { return };
            let mut next = self.scenario.clone();
            for (path, value) in describe::custom_chip(&good.inputs.cluster) {
                next = next.with(path, Some(value));
            }
            let chip = "custom".to_string();
            return self.replace(
                next,
                Notice::ChipChanged { chip, kept: Vec::new(), replaced: Vec::new(), set_aside: 0 },
            );
        }
        let Some(preset) = presets::chip(id) else { return };
        let previous = self.scenario.raw(crate::scenario::paths::CLUSTER_CHIP);
        let old = self.scenario.chip_ref().preset().and_then(presets::chip);
        let mut next = self.scenario.with(paths::CLUSTER_CHIP, Some(Value::String(id.to_string())));
        let mut kept = Vec::new();
        let mut replaced = Vec::new();
        // A fabric the user chose stays; one that merely came with the previous chip (or a
        // custom chip's own figures) follows the new chip.
        let fabrics = [
            (paths::CLUSTER_SCALE_UP, old.map(|p| p.scale_up), preset.scale_up),
            (paths::CLUSTER_SCALE_OUT, old.map(|p| p.scale_out), preset.scale_out),
        ];
        for (place, old_default, new_default) in fabrics {
            let path = place.as_str();
            let chosen = match self.scenario.get(path) {
                None => continue,
                Some(Value::String(yours))
                    if old.is_some() && Some(yours.as_str()) != old_default =>
                {
                    yours
                }
                Some(_) => {
                    next = next.with(place, None);
                    replaced.push(path);
                    continue;
                }
            };
            if chosen != new_default {
                let usual = Some(Value::String(new_default.to_string()));
                kept.push(Kept { path, yours: Value::String(chosen), usual });
            }
        }
        // Keys of the generic server the previous chip came in (its price typed) were that
        // chip's: the new chip comes in its own system.
        let generic_keys = |v: &Value| v.as_object().is_some_and(|m| !m.contains_key("preset"));
        if previous.as_ref() != Some(&Value::String(id.to_string()))
            && self
                .scenario
                .raw(crate::scenario::paths::CLUSTER_SYSTEM)
                .is_some_and(|v| generic_keys(&v))
        {
            next = next.with(paths::CLUSTER_SYSTEM, None);
            replaced.push("cluster.system");
        }
        for field in [&fields::CLUSTER_SCALE_UP_DOMAIN_SIZE, &fields::CLUSTER_CHIPS_PER_NODE] {
            let path = field.path;
            if let Some(yours) = self.scenario.get(path) {
                if old.is_some() {
                    kept.push(Kept { path, yours, usual: None });
                } else {
                    next = next.with(field, None);
                    replaced.push(path);
                }
            }
        }
        // Measurements calibrate the chip they were made on: one that names no chip is pinned
        // to the previous one, and those made elsewhere stay in the list, kept for their chip.
        if let Some(Value::Array(list)) = self.scenario.get("calibration") {
            if previous != next.raw(crate::scenario::paths::CLUSTER_CHIP) {
                let pinned: Vec<Value> = list
                    .into_iter()
                    .map(|mut entry| {
                        let named =
                            entry.pointer("/scenario/cluster/chip").is_some_and(|c| !c.is_null());
                        if let (false, Some(chip), true) = (named, &previous, entry.is_object()) {
                            let pin =
                                serde_json::json!({ "scenario": { "cluster": { "chip": chip } } });
                            crate::scenario::merge(&mut entry, &pin);
                        }
                        entry
                    })
                    .collect();
                next = next.with(paths::CALIBRATION, Some(Value::Array(pinned)));
            }
        }
        let set_aside = next.measured_elsewhere().len();
        let chip = preset.name.to_string();
        self.replace(next, Notice::ChipChanged { chip, kept, replaced, set_aside });
    }

    fn choose_model(&mut self, id: &str) {
        if id == "custom" {
            let Some(good) = &self.good else { return };
            let model = describe::transformer(&good.inputs.transformer);
            let next = self.scenario.with(paths::MODEL, Some(model));
            return self.edit_whole(next);
        }
        let Some(preset) = presets::transformer(id) else { return };
        let mut next = self.scenario.with(paths::MODEL, Some(serde_json::json!({ "preset": id })));
        // A model is a whole-plan change when its published plan is one click away.
        let ep = next
            .raw(&crate::scenario::fields::PARALLELISM_EP)
            .and_then(|v| v.as_u64())
            .unwrap_or(1);
        let notice = if preset.transformer.moe.is_some() && ep <= 1 {
            Some(Notice::MoeWithoutEp { model: preset.name.to_string() })
        } else {
            None
        };
        if preset.transformer.moe.is_none() && ep > 1 {
            next = next.with(&fields::PARALLELISM_EP, None);
        }
        match notice {
            Some(notice) => self.replace(next, notice),
            None => self.edit_whole(next),
        }
    }

    /// An edit of several fields at once with no notice of its own: one Undo step, no
    /// history entry.
    fn edit_whole(&mut self, next: Scenario) {
        let previous = std::mem::replace(&mut self.scenario, next);
        if previous != self.scenario {
            self.remember(previous);
            self.redo.clear();
        }
        self.notice = None;
        self.judge();
    }

    /// Judges the scenario as the worker and the command line do (`evaluation::shown`): the
    /// result on screen is always the scenario's own, its refused inputs set aside.
    fn judge(&mut self) {
        match evaluation::shown(&self.scenario) {
            Ok(shown) => {
                self.errors = shown.refused;
                self.idle = shown.idle;
                self.good = Some(Rc::new(shown.good));
            }
            Err(errors) => {
                self.errors = errors;
                self.idle = None;
                self.good = None;
            }
        }
    }
}

/// The scenario's model is a preset with some dimensions changed.
pub fn model_modified(scenario: &Scenario) -> bool {
    match scenario.get("model") {
        Some(Value::Object(map)) => map.contains_key("preset") && map.len() > 1,
        _ => false,
    }
}
