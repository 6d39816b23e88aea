//! Setting refused inputs aside: the scenario as if the fields the judge refused had never
//! been given, so a refused input never reaches an estimate and the rest of the plan still
//! answers.
//!
//! A measurement keeps its place with its figure cleared (a measurement not yet entered is
//! left out of the fit); a further pool or a site is removed, and `Aside` remembers which, so
//! problems of the reduced scenario can be named by their places in the scenario as typed; any
//! other field goes back to its default (one that must be given to the default plan's value),
//! and a required key that is missing takes the object holding it back to its default.

use serde_json::Value;

use super::fields::{self, Fallback};
use super::{InputError, Problem, Scenario};

/// The lists whose entries are removed whole when one of their fields is refused.
const REMOVED: [&str; 2] = ["cluster.pools", "sites"];

/// A scenario with inputs set aside, and the places of the list entries it still holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Aside {
    /// The reduced scenario.
    pub scenario: Scenario,
    /// For each list of `REMOVED`, the place in the scenario as typed of each entry still
    /// held, in order; `None` for a list no entry was removed from.
    kept: [Option<Vec<usize>>; 2],
}

impl Aside {
    /// Nothing set aside yet.
    pub fn none(scenario: &Scenario) -> Aside {
        Aside { scenario: scenario.clone(), kept: [None, None] }
    }

    /// `field` of the reduced scenario named by its place in the scenario as typed
    /// (`cluster.pools.1.chips` when pool 2 of 3 was removed and this is the third).
    pub fn typed_field(&self, field: &str) -> String {
        for (list, kept) in REMOVED.iter().zip(&self.kept) {
            let Some(kept) = kept else { continue };
            let Some(rest) = field.strip_prefix(list).and_then(|r| r.strip_prefix('.')) else {
                continue;
            };
            let (place, tail) = rest.split_once('.').unwrap_or((rest, ""));
            let Some(typed) = place.parse::<usize>().ok().and_then(|i| kept.get(i)) else {
                continue;
            };
            let tail = if tail.is_empty() { String::new() } else { format!(".{tail}") };
            return format!("{list}.{typed}{tail}");
        }
        field.to_string()
    }

    /// The reduced scenario with the inputs `errors` name (fields of the reduced scenario)
    /// set aside too.
    pub fn without(&self, errors: &[InputError]) -> Aside {
        let mut next = self.clone();
        let mut removed: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for e in errors {
            if let Some((list, place)) = list_place(&e.field) {
                removed[list].push(place);
            } else if let Some(place) = measurement(&e.field) {
                next.scenario = without_figure(&next.scenario, place);
            } else {
                next.scenario = cleared(&next.scenario, e);
            }
        }
        for (list, mut places) in removed.into_iter().enumerate() {
            if places.is_empty() {
                continue;
            }
            places.sort_unstable();
            places.dedup();
            let path = REMOVED[list];
            let Some(Value::Array(items)) = next.scenario.get(path) else { continue };
            let typed = next.kept[list].clone().unwrap_or_else(|| (0..items.len()).collect());
            let (items, typed): (Vec<Value>, Vec<usize>) = items
                .into_iter()
                .zip(typed)
                .enumerate()
                .filter(|(i, _)| places.binary_search(i).is_err())
                .map(|(_, pair)| pair)
                .unzip();
            let value = (!items.is_empty()).then_some(Value::Array(items));
            next.scenario = next.scenario.with_at(path, value);
            next.kept[list] = Some(typed);
        }
        next
    }
}

/// The list of `REMOVED` and the place a field is under, when it is under one.
fn list_place(field: &str) -> Option<(usize, usize)> {
    REMOVED.iter().enumerate().find_map(|(list, path)| {
        let rest = field.strip_prefix(path)?.strip_prefix('.')?;
        let place = rest.split('.').next()?.parse().ok()?;
        Some((list, place))
    })
}

/// The place of the measurement a field is under (`calibration.2.measured` is 2).
fn measurement(field: &str) -> Option<usize> {
    field.strip_prefix("calibration.")?.split('.').next()?.parse().ok()
}

/// The scenario with measurement `place`'s figure cleared: kept in its place, as one not yet
/// entered, so the fit leaves it out; an entry too broken to hold a figure is replaced by an
/// empty step time.
fn without_figure(scenario: &Scenario, place: usize) -> Scenario {
    let at = format!("calibration.{place}");
    let kind = scenario
        .get(&format!("{at}.measured"))
        .and_then(|m| m.as_object().and_then(|m| m.keys().next().cloned()))
        .filter(|k| super::MEASURES.contains(&k.as_str()));
    let entry = match (scenario.get(&format!("{at}.scenario")), kind) {
        (Some(changes @ Value::Object(_)), Some(kind)) => {
            serde_json::json!({ "scenario": changes, "measured": { kind: null } })
        }
        _ => serde_json::json!({ "measured": { "step_s": null } }),
    };
    scenario.with_at(&at, Some(entry))
}

/// The scenario with the field `e` names back to its default: a field that must be given
/// takes the default plan's value (`training.tokens`); a required key that is missing takes
/// the object holding it back to its default (a custom chip lacking a figure), or the default
/// plan's where it has one (`cluster.chip`).
fn cleared(scenario: &Scenario, e: &InputError) -> Scenario {
    let field = e.field.as_str();
    let missing = e.problem == Problem::Required;
    let required = missing || fields::field(field).is_some_and(|f| f.default == Fallback::Required);
    if let Some(usual) = usual(field).filter(|_| required) {
        let next = scenario.with_at(field, Some(usual));
        if next != *scenario {
            return next;
        }
    }
    if scenario.get(field).is_some() {
        return scenario.with_at(field, None);
    }
    match field.rsplit_once('.') {
        Some((parent, _)) if missing && scenario.get(parent).is_some() => {
            scenario.with_at(parent, None)
        }
        _ => scenario.clone(),
    }
}

/// The default plan's value at `field`; for a figure of a custom chip, the default plan's
/// chip's own figure, so the rest of the user's chip stays as typed.
fn usual(field: &str) -> Option<Value> {
    let plan = Scenario::default_plan();
    if let Some(value) = plan.get(field) {
        return Some(value);
    }
    let key = field.strip_prefix("cluster.chip.")?;
    let id = plan.get("cluster.chip")?;
    let chip = crate::model::presets::chip(id.as_str()?)?;
    super::describe::chip(&chip.chip).remove(key)
}
