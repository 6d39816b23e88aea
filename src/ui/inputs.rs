//! The input panels: model, training, cluster, parallelism, the user's measurements, facility,
//! and serving and post-training.
//!
//! Each field shows what the scenario says, or the value a preset or default gives it, and
//! the errors, problems and warnings that concern it. Units, ranges and formats come from the
//! field table (`scenario::fields`), words from `ui::text`; whole-plan changes (a chip, a
//! model, a published plan) go to the editor as actions.

use crate::app::edits::Value;
use yew::prelude::*;

use super::fields::{
    number_field, toggle_field, Change, NumberFieldProps, SelectField, Slider, ToggleFieldProps,
};
use super::state::{Action, Evaluation, State};
use crate::app::words;
use crate::cite;
use crate::format;
use crate::model::Warning;
use crate::numbers;
use crate::scenario::fields::{self, Field};
use crate::scenario::{value_at, Fix, FixLabel};

mod cluster;
mod facility;
mod layers;
mod measurements;
mod model;
mod parallelism;
mod pools;
mod serving;
mod training;
mod year;

pub use cluster::{chip_id, cluster_panel};
pub use facility::facility_panel;
pub use measurements::measurements_panel;
pub use model::model_panel;
pub use parallelism::parallelism_panel;
pub use pools::pools_panel;
pub use serving::serving_panel;
pub use training::training_panel;
pub use year::year_panel;

/// What every panel reads. The panels are plain functions, not components: they follow the
/// whole state, so a component boundary would skip no render, and each component costs the
/// page's download about a kilobyte.
pub struct PanelProps {
    /// Current state.
    pub state: UseReducerHandle<State>,
    /// Called with each field change.
    pub on_set: Callback<Vec<Change>>,
    /// Called with whole-plan actions.
    pub on_action: Callback<Action>,
    /// The user's own chips, systems, switches and models (My catalog), offered beside the
    /// built-in ones.
    pub catalog: crate::scenario::user_catalog::UserCatalog,
    /// Logs dropped or chosen in "My measurements", to read into the plan's measurements.
    pub on_logs: Callback<Vec<web_sys::File>>,
    /// What reading them gave.
    pub measured: std::rc::Rc<crate::app::Status>,
}

/// Reads the state for one panel.
pub(super) struct Form<'a> {
    pub(super) state: &'a State,
    pub(super) good: Option<&'a Evaluation>,
    pub(super) on_set: Callback<Vec<Change>>,
    /// Edits of lists and blocks (`app::state::Edit`).
    pub(super) on_edit: Callback<crate::app::state::Edit>,
    /// The scenario as JSON, serialized once per render for every field to read.
    pub(super) json: Value,
}

impl<'a> Form<'a> {
    pub(super) fn new(props: &'a PanelProps) -> Form<'a> {
        Form {
            state: &props.state,
            good: props.state.good.as_deref(),
            on_set: props.on_set.clone(),
            on_edit: props.on_action.reform(Action::Edit),
            json: props.state.scenario.to_value(),
        }
    }

    /// The raw value at a typed place (a field or `scenario::paths`).
    pub(super) fn raw(&self, place: impl Into<crate::scenario::Path>) -> Option<Value> {
        self.raw_at(place.into().as_str())
    }

    /// How many items the list at `place` holds (0 where it is not a list).
    pub(super) fn len(&self, place: crate::scenario::Path) -> usize {
        self.raw(place).and_then(|v| v.as_array().map(Vec::len)).unwrap_or(0)
    }

    /// The text at a place given as data (empty where there is none).
    pub(super) fn text_at(&self, path: &str) -> String {
        self.raw_at(path).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }

    /// The raw value at a place given as data: a field row's path, or an item of a list
    /// (`cluster.pools.0.chip`).
    pub(super) fn raw_at(&self, path: &str) -> Option<Value> {
        value_at(&self.json, path).cloned()
    }

    pub(super) fn errors(&self, path: &str) -> Vec<String> {
        self.state.errors_for(path).iter().map(|e| crate::text::input_error(e)).collect()
    }

    /// Findings of the shown estimate that concern `path`, when it is the scenario's own.
    pub(super) fn findings(
        &self,
        path: &str,
        list: fn(&crate::model::Estimate) -> &Vec<Warning>,
    ) -> Vec<String> {
        let Some(good) = self.good else { return Vec::new() };
        list(&good.estimate)
            .iter()
            .filter(|w| fields::warning_field(w) == path)
            .map(|w| w.to_string())
            .collect()
    }

    pub(super) fn problems(&self, path: &str) -> Vec<String> {
        self.findings(path, |e| &e.problems)
    }

    pub(super) fn notes(&self, path: &str) -> Vec<String> {
        self.findings(path, |e| &e.warnings)
    }

    /// One-click fixes for `path`: its errors' and its warnings' (`fields::warning_fixes`).
    pub(super) fn fixes(&self, path: &str) -> Vec<Fix> {
        let mut fixes: Vec<Fix> =
            self.state.errors_for(path).iter().flat_map(|e| e.fixes.clone()).collect();
        // A count taken with chips idle (its warning says so) still offers the round counts.
        if let Some(idle) = self.state.idle_for(path) {
            let round = idle.fixes.iter().filter(|f| !matches!(f.label, FixLabel::KeepIdle { .. }));
            fixes.extend(round.cloned());
        }
        if let Some(good) = self.good {
            let warnings =
                good.estimate.warnings.iter().filter(|w| fields::warning_field(w) == path);
            fixes.extend(warnings.flat_map(fields::warning_fixes));
        }
        fixes
    }

    /// A number field whose value is the scenario's, else the model's `resolved` (in SI units,
    /// shown in the table's unit).
    pub(super) fn number(
        &self,
        field: &'static Field,
        testid: &str,
        resolved: Option<f64>,
    ) -> NumberSpec {
        self.number_at(field, field.path.to_string(), testid, resolved)
    }

    /// The same for `field` kept at `path` (an entry of a list: `calibration.0.scenario...`).
    pub(super) fn number_at(
        &self,
        field: &'static Field,
        path: String,
        testid: &str,
        resolved: Option<f64>,
    ) -> NumberSpec {
        NumberSpec {
            path,
            testid: testid.to_string(),
            resolved: resolved.map(|y| field.from_si(y)),
            slider: None,
            reading: String::new(),
            extra_note: None,
            locked: false,
        }
    }

    /// Every plain field of `section` (`fields::plain_under`), in the table's order.
    pub(super) fn plain(&self, section: &str) -> Html {
        let field = |field: &'static Field| {
            let resolved = field.place.zip(self.good).map(|(place, g)| (place.get)(&g.inputs));
            self.render(self.number(field, &field.testid(), resolved))
        };
        html! { { for fields::plain_under(section).map(field) } }
    }

    pub(super) fn render(&self, spec: NumberSpec) -> Html {
        let path = spec.path.as_str();
        // A value the scenario sets is shown as typed; one that a preset or default gives is
        // the placeholder, and emptying a box goes back to it.
        let value = self.raw_at(path).map(|v| format::raw(&v)).unwrap_or_default();
        let placeholder = spec.resolved.map(numbers::hint).unwrap_or_default();
        let fixes = self.fixes(path);
        let mut notes = self.notes(path);
        notes.extend(spec.extra_note);
        let reading = match (spec.reading.is_empty(), self.good) {
            (true, Some(good)) => {
                let shown = self.raw_at(path).and_then(|v| v.as_f64()).or(spec.resolved);
                let money = format::Money::of(&good.inputs.plant.facility);
                words::in_site_money(path, shown, money).unwrap_or_default()
            }
            _ => spec.reading,
        };
        number_field(NumberFieldProps {
            path: path.to_string().into(),
            testid: spec.testid.into(),
            label: words::label(path).into(),
            unit: words::unit(path).into(),
            value: value.into(),
            placeholder: placeholder.into(),
            slider: spec.slider,
            slider_readonly: spec.locked,
            reading: reading.into(),
            optional: true,
            help: words::help(path).into(),
            errors: self.errors(path),
            fixes,
            problems: self.problems(path),
            notes,
            on_set: self.on_set.clone(),
        })
    }

    pub(super) fn toggle(&self, field: &'static Field, testid: &str, resolved: bool) -> Html {
        let path = field.path;
        let checked = self.raw_at(path).and_then(|v| v.as_bool()).unwrap_or(resolved);
        html! {
            { toggle_field(ToggleFieldProps { path: path.to_string().into(), testid: testid.to_string().into(),
                label: words::label(path).into(), checked, help: words::help(path).into(), notes: self.notes(path),
                on_set: self.on_set.clone() }) }
        }
    }

    /// A select of a field's codes, showing what the scenario says or else the resolved value.
    pub(super) fn choice<T: Copy + PartialEq>(
        &self,
        choices: &fields::Choices<T>,
        testid: &str,
        resolved: T,
    ) -> Html {
        self.select(choices.path, testid, &choices.offered(), choices.code(resolved))
    }

    /// The select behind `choice`, once for every kind of value.
    fn select(&self, path: &str, testid: &str, options: &[&str], resolved: &str) -> Html {
        let value = self
            .raw_at(path)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or(resolved.to_string());
        let on_set = self.on_set.clone();
        let p = path.to_string();
        let on_change =
            Callback::from(move |v: String| on_set.emit(vec![(p.clone(), Some(v.into()))]));
        let option = |v: &&str| {
            let words = words::t(&format!("option.{path}.{v}"));
            (AttrValue::from(v.to_string()), AttrValue::from(words))
        };
        html! {
            <SelectField testid={testid.to_string()} label={words::label(path)} help={words::help(path)}
                options={options.iter().map(option).collect::<Vec<_>>()}
                value={value} errors={self.errors(path)} problems={self.problems(path)} notes={self.notes(path)} on_change={on_change} />
        }
    }
}

/// The catalog's chips as a select offers them: by id, named in the language spoken.
fn chip_options() -> Vec<(AttrValue, AttrValue)> {
    let name = |p: &crate::model::presets::ChipPreset| words::preset_name("chip", p.id, p.name);
    crate::model::presets::CHIPS
        .iter()
        .map(|p| (AttrValue::from(p.id), AttrValue::from(name(p))))
        .collect()
}

/// A number field being described.
pub(super) struct NumberSpec {
    pub(super) path: String,
    pub(super) testid: String,
    pub(super) resolved: Option<f64>,
    pub(super) slider: Option<Slider>,
    pub(super) reading: String,
    pub(super) extra_note: Option<String>,
    /// The slider only shows the value, which follows other fields.
    pub(super) locked: bool,
}

impl NumberSpec {
    pub(super) fn slider(mut self, slider: Slider) -> NumberSpec {
        self.slider = Some(slider);
        self
    }

    pub(super) fn reading(mut self, reading: String) -> NumberSpec {
        self.reading = reading;
        self
    }
}

/// A catalog entry's source (`kind`: `chip`, `system` or `model`): as compiled in, or in the
/// page's own build, which leaves it out, from `text/sources.txt` once that has loaded.
pub fn preset_source(kind: &str, id: &str, compiled: &'static str) -> Html {
    match compiled {
        "" => source(words::t(&format!("source.{kind}.{id}"))),
        text => source(text),
    }
}

/// A source text with its arXiv references as links.
pub fn source(text: &str) -> Html {
    html! {
        <>
            { for cite::segments(text).into_iter().map(|s| match s {
                cite::Segment::Text(t) => html! { { t.to_string() } },
                cite::Segment::Link { text, .. } => html! {
                    <a href={s.href().unwrap_or_default()} target="_blank" rel="noopener noreferrer">{ text.to_string() }</a>
                },
            }) }
        </>
    }
}
