//! The user's own measurements (`calibration`): each a run written as changes to the plan
//! (`scenario`) and what was measured on it (`measured`: one of `step_s`, `tokens_per_s`,
//! `mfu`; null while not yet entered). Resolving a scenario fits the chip's GEMM efficiency to
//! them, and the stack's launch time where runs of different shapes separate the two
//! (`model::calibrate`), so the estimate, the plan search and the sizing all use the fit.
//!
//! A measurement belongs to its chip and software stack: one that names them
//! (`scenario.cluster.chip`, `scenario.parallelism.stack`) calibrates only a plan on the same
//! chip and stack, and is otherwise kept and shown as measured elsewhere
//! (`Scenario::measured_elsewhere`); one that names neither is the plan's own, as links made
//! before they could name them read. A fit at the bounds of what a chip can reach is refused
//! with its reason rather than applied.
//!
//! ```json
//! "calibration": [
//!   { "scenario": { "cluster": { "chips": 64 }, "parallelism": { "tp": 8, "pp": 8 } },
//!     "measured": { "step_s": 41.5 } }
//! ]
//! ```

use serde_json::{Map, Value};

use super::resolve::{short, Reader};
use super::{fields, ChipRef, InputError, Problem, Raw, Scenario};
use crate::model::calibrate::{self, Fit, Measured, Run};
use crate::model::Inputs;

/// What a measurement may give, by key: seconds per step, tokens per second of the whole run,
/// or model FLOPs utilisation.
pub const MEASURES: [&str; 3] = ["step_s", "tokens_per_s", "mfu"];

/// Deep-merges `patch` into `base`: objects merge key by key, anything else replaces.
pub fn merge(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                merge(b.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (b, p) => *b = p.clone(),
    }
}

/// The chip efficiency fitted to the measurements, and which of them it used.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// The fit; its runs are the measurements at `places`, in order.
    pub fit: Fit,
    /// Places in the `calibration` list of the measurements fitted (one not yet entered is
    /// left out).
    pub places: Vec<usize>,
}

/// One measurement as written, checked.
struct Entry {
    /// Its place in the list.
    place: usize,
    /// The measured run, as changes to the plan.
    changes: Value,
    /// What was measured.
    measured: Measured,
}

impl Scenario {
    /// The scenario of a measured run: this plan without its measurements, with `changes`
    /// merged in (`null` clears a key, so `"dp": null` lets the data-parallel degree follow
    /// the run's chips).
    pub fn measured_plan(&self, changes: &Value) -> Scenario {
        let mut plan = self.clone();
        plan.calibration = None;
        let mut value = plan.to_value();
        merge(&mut value, changes);
        Scenario::from_value(value).unwrap_or(plan)
    }

    /// Validates the scenario into model inputs with the chip's GEMM efficiency fitted to the
    /// scenario's measurements, and the fit (`None` without measurements), or lists every bad
    /// field, a measurement's by its place (`calibration.0.measured`).
    pub fn resolve_calibrated(&self) -> Result<(Inputs, Option<Calibration>), Vec<InputError>> {
        let inputs = self.resolve_own()?;
        let Some(raw) = &self.calibration else { return Ok((inputs, None)) };
        let mut r = Reader::default();
        let entries = entries(raw, &mut r);
        let mut runs = Vec::new();
        let mut places = Vec::new();
        let mut errors = r.into_errors();
        for Entry { place: i, changes, measured } in entries {
            if !self.measures_this(&changes) {
                continue;
            }
            match self.measured_plan(&changes).resolve_own() {
                Ok(run) => {
                    let run = Run { inputs: run, measured };
                    if calibrate::timeable(&run).is_some() {
                        runs.push(run);
                        places.push(i);
                    } else {
                        errors.push(InputError::new(
                            &format!("calibration.{i}.measured"),
                            Problem::NotTimeable,
                        ));
                    }
                }
                Err(inner) => errors.extend(inner.into_iter().map(|mut e| {
                    e.field = format!("calibration.{i}.scenario.{}", e.field);
                    e.fixes.clear();
                    e
                })),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        match calibrate::fit(&runs) {
            Some(fit) if fit.at_bound => {
                let high = fit.efficiency > fit.catalog;
                let bound =
                    if high { calibrate::MAX_EFFICIENCY } else { calibrate::MIN_EFFICIENCY };
                let at = places
                    .first()
                    .map_or("calibration".into(), |i| format!("calibration.{i}.measured"));
                Err(vec![InputError::new(&at, Problem::FitAtBound { high, bound })])
            }
            Some(fit) => Ok((calibrate::apply(&inputs, &fit), Some(Calibration { fit, places }))),
            None => Ok((inputs, None)),
        }
    }

    /// A measurement written as `changes` was made on this plan's chip and software stack: it
    /// names none, or the same as the plan.
    fn measures_this(&self, changes: &Value) -> bool {
        let same = |theirs: Option<&Value>, ours: &Raw| {
            theirs.is_none_or(|v| v.is_null() || Some(v) == ours.as_ref())
        };
        same(changes.pointer("/cluster/chip"), &self.cluster.chip)
            && same(changes.pointer("/parallelism/stack"), &self.parallelism.stack)
    }

    /// The measurements made on another chip or stack than the plan's, by place, each with
    /// the chip and stack it was made on: kept, not applied.
    pub fn measured_elsewhere(&self) -> Vec<(usize, String)> {
        let Some(Value::Array(items)) = &self.calibration else { return Vec::new() };
        items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let changes = item.get("scenario")?;
                if self.measures_this(changes) {
                    return None;
                }
                let chip = match ChipRef::of(changes.pointer("/cluster/chip")) {
                    ChipRef::Preset(id) => crate::model::presets::chip(id)
                        .map_or(id.to_string(), |p| p.name.to_string()),
                    ChipRef::Custom { preset, name } => {
                        name.or(preset).map_or_else(String::new, str::to_string)
                    }
                    ChipRef::Default => String::new(),
                };
                let stack = changes.pointer("/parallelism/stack").and_then(Value::as_str);
                let said = match (chip.is_empty(), stack) {
                    (false, Some(stack)) => format!("{chip} · {stack}"),
                    (false, None) => chip,
                    (true, Some(stack)) => stack.to_string(),
                    (true, None) => return None,
                };
                Some((i, said))
            })
            .collect()
    }
}

/// The measurements of `raw` that read; every problem goes to `r`.
fn entries(raw: &Value, r: &mut Reader) -> Vec<Entry> {
    let Value::Array(items) = raw else {
        r.error("calibration", Problem::NotList { got: short(raw) });
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("calibration.{i}");
        let Value::Object(map) = item else {
            r.error(&at, Problem::NotObject { got: short(item), or_null: false });
            continue;
        };
        for key in map.keys().filter(|k| !["scenario", "measured"].contains(&k.as_str())) {
            r.error(&format!("{at}.{key}"), Problem::UnknownKey);
        }
        let changes = match map.get("scenario") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(Value::Object(changes)) => Value::Object(changes.clone()),
            Some(other) => {
                r.error(
                    &format!("{at}.scenario"),
                    Problem::NotObject { got: short(other), or_null: true },
                );
                continue;
            }
        };
        let Some(measured) = measured(map.get("measured"), &format!("{at}.measured"), r) else {
            continue;
        };
        out.push(Entry { place: i, changes, measured });
    }
    out
}

/// The one figure a measurement gives.
fn measured(raw: Option<&Value>, at: &str, r: &mut Reader) -> Option<Measured> {
    let Some(Value::Object(map)) = raw else {
        match raw {
            None | Some(Value::Null) => r.error(at, Problem::Required),
            Some(other) => r.error(at, Problem::NotObject { got: short(other), or_null: false }),
        }
        return None;
    };
    for key in map.keys().filter(|k| !MEASURES.contains(&k.as_str())) {
        r.error(&format!("{at}.{key}"), Problem::UnknownKey);
    }
    let given: Vec<&str> = MEASURES.into_iter().filter(|k| map.contains_key(*k)).collect();
    let [key] = given[..] else {
        r.error(at, Problem::OneOf { names: MEASURES.to_vec() });
        return None;
    };
    let field = format!("{at}.{key}");
    // A figure of null is a measurement not yet entered: kept, and left out of the fit.
    let raw: Raw = match map.get(key) {
        None | Some(Value::Null) => return None,
        Some(v) => Some(v.clone()),
    };
    let before = r.count_errors();
    let x = match key {
        "mfu" => r.fraction(&raw, fields::measured(key), 1.0),
        _ => r.positive(&raw, fields::measured(key), None),
    };
    // Named at the measurement's place in the list.
    r.place_since(before, &field);
    if r.count_errors() > before {
        return None;
    }
    Some(match key {
        "step_s" => Measured::StepS(x),
        "tokens_per_s" => Measured::TokensPerS(x),
        _ => Measured::Mfu(x),
    })
}
