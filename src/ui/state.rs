//! The app's state and its reducer: plain Rust, no DOM.
//!
//! A scenario edit resolves and estimates at once. An invalid scenario keeps the last good
//! result on screen (marked stale) and lists its errors by field.

use std::rc::Rc;

use serde_json::Value;
use yew::Reducible;

use crate::model::sweep::{self, ScalingPoint};
use crate::model::{self, Estimate, Inputs, Warning};
use crate::scenario::{InputError, Scenario};

/// A result that can be shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Good {
    /// Validated inputs.
    pub inputs: Inputs,
    /// Their estimate.
    pub estimate: Estimate,
    /// The same plan at other cluster sizes.
    pub scaling: Vec<ScalingPoint>,
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// What the user typed.
    pub scenario: Scenario,
    /// Problems with `scenario`, by field; empty when it is valid.
    pub errors: Vec<InputError>,
    /// The newest valid result (of `scenario` itself unless `errors` is non-empty).
    pub good: Option<Rc<Good>>,
    /// A message for the user (a bad link, a copied link, an import problem).
    pub notice: Option<String>,
}

/// Something the user did.
pub enum Action {
    /// Set (or with `None` clear) fields by dotted path.
    Set(Vec<(String, Option<Value>)>),
    /// Replace the whole scenario (import, reset), with an optional notice.
    Replace(Box<Scenario>, Option<String>),
    /// Show a notice.
    Notify(String),
}

impl State {
    /// The state for a scenario, with a notice to show.
    pub fn new(scenario: Scenario, notice: Option<String>) -> State {
        let mut state = State { scenario, errors: Vec::new(), good: None, notice };
        state.evaluate();
        state
    }

    /// The result on screen is not the current scenario's.
    pub fn stale(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Errors for one field.
    pub fn errors_for(&self, path: &str) -> Vec<String> {
        self.errors.iter().filter(|e| e.field == path).map(|e| e.message.clone()).collect()
    }

    fn evaluate(&mut self) {
        match self.scenario.resolve() {
            Ok(inputs) => {
                let estimate = model::estimate(&inputs);
                // Degrees that do not multiply to the chip count are a form error here: the
                // user asked for a cluster the plan does not describe.
                let mismatch = estimate.warnings.iter().find_map(|w| match w {
                    Warning::DegreesMismatch { .. } => Some(w.to_string()),
                    _ => None,
                });
                if let Some(message) = mismatch {
                    self.errors = ["parallelism.dp", "cluster.chips"]
                        .iter()
                        .map(|f| InputError { field: f.to_string(), message: message.clone() })
                        .collect();
                    return;
                }
                let scaling = sweep::scaling(&inputs, &sweep::default_chip_counts());
                self.errors.clear();
                self.good = Some(Rc::new(Good { inputs, estimate, scaling }));
            }
            Err(errors) => self.errors = errors,
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Set(changes) => {
                for (path, value) in changes {
                    next.scenario = next.scenario.with(&path, value);
                }
                next.notice = None;
                next.evaluate();
            }
            Action::Replace(scenario, notice) => {
                next.scenario = *scenario;
                next.notice = notice;
                next.evaluate();
            }
            Action::Notify(message) => next.notice = Some(message),
        }
        Rc::new(next)
    }
}
