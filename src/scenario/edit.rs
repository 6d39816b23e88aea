//! Reading and writing one field of a scenario by its dotted path, as a form does.
//!
//! Paths are the ones `resolve` reports (`parallelism.tp`, `cluster.chip.hbm_gb`), so an
//! error and the field that caused it share a name.

use serde_json::Value;

use super::fields::{Choices, Field};
use super::Scenario;

/// A place in a scenario that code names: a field or choice of the table, or a section or
/// object of `paths`. Only the scenario mints one, so every path code writes is one it knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path(&'static str);

impl Path {
    pub(super) const fn new(path: &'static str) -> Path {
        Path(path)
    }

    /// A field's place, where a constant needs it (`From` is not `const`).
    pub const fn of(field: &'static Field) -> Path {
        Path(field.path)
    }

    /// Its dotted form (`cluster.pools`), as problems and the form name it.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl From<&'static Field> for Path {
    fn from(field: &'static Field) -> Path {
        Path(field.path)
    }
}

impl<T> From<&'static Choices<T>> for Path {
    fn from(choices: &'static Choices<T>) -> Path {
        Path(choices.path)
    }
}

/// The value at a dotted `path` inside a scenario's JSON, for callers that read many fields
/// of one serialized scenario. A number indexes a list (`calibration.0.measured`).
pub fn value_at<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(root, child)
}

/// The child of `node` at `key`: an object's key, or a list's place.
fn child<'a>(node: &'a Value, key: &str) -> Option<&'a Value> {
    match node {
        Value::Array(items) => items.get(key.parse::<usize>().ok()?),
        _ => node.get(key),
    }
}

/// The child of `node` at `key` to write into; a list's place must exist.
fn child_mut<'a>(node: &'a mut Value, key: &str) -> Option<&'a mut Value> {
    match node {
        Value::Array(items) => items.get_mut(key.parse::<usize>().ok()?),
        _ => node.get_mut(key),
    }
}

impl Scenario {
    /// The raw value at `path`, if the scenario sets it.
    pub fn raw(&self, path: impl Into<Path>) -> Option<Value> {
        self.get(path.into().as_str())
    }

    /// The value at a place given as data (a problem's field, a form's edit), as `raw` reads
    /// a typed one; code names its places with `raw`.
    pub fn get(&self, path: &str) -> Option<Value> {
        value_at(&serde_json::to_value(self).ok()?, path).cloned()
    }

    /// The scenario with the place `path` set to `value` (`None` removes the key, restoring
    /// its default).
    pub fn with(&self, path: impl Into<Path>, value: Option<Value>) -> Scenario {
        self.with_at(path.into().as_str(), value)
    }

    /// `with` for a path that arrives as data: a problem's field, a fix's change, an edit of
    /// the form, a place in a list (`calibration.0.measured`). Intermediate objects are
    /// created; a scalar in the way is replaced by an object.
    pub fn with_at(&self, path: &str, value: Option<Value>) -> Scenario {
        let Ok(mut root) = serde_json::to_value(self) else { return self.clone() };
        // A key inside a system that is not set starts from the system it stands for (the
        // chip's own), so the edit keeps that system and changes only the key.
        if path.starts_with("cluster.system.") && self.cluster.system.is_none() {
            // A chip the catalog builds no system around has a generic server, which no id
            // names: the edit then makes an object of keys beside the chip.
            let own = self
                .chip_preset()
                .and_then(|c| crate::model::presets::system_for_chip(c.id))
                .filter(|own| crate::model::presets::system(own.id).is_some());
            if let Some(system) = own {
                root["cluster"]["system"] = Value::String(system.id.to_string());
            }
        }
        let keys: Vec<&str> = path.split('.').filter(|k| !k.is_empty()).collect();
        let Some((last, parents)) = keys.split_last() else { return self.clone() };
        // Clearing a key that is not there changes nothing (and creates no empty parents).
        if value.is_none() && self.get(path).is_none() {
            return self.clone();
        }
        let mut node = &mut root;
        for key in parents {
            let container = |v: &Value| v.is_object() || v.is_array();
            if !child(node, key).is_some_and(container) {
                if let Value::Object(map) = node {
                    let old = map.remove(*key);
                    let mut fresh = serde_json::Map::new();
                    // A preset id becomes `{ "preset": id }` so overrides keep the preset.
                    if let Some(Value::String(id)) = old {
                        fresh.insert("preset".to_string(), Value::String(id));
                    }
                    map.insert((*key).to_string(), Value::Object(fresh));
                }
            }
            match child_mut(node, key) {
                Some(next) => node = next,
                None => return self.clone(),
            }
        }
        match node {
            Value::Object(map) => match value {
                Some(v) => {
                    map.insert((*last).to_string(), v);
                }
                None => {
                    map.remove(*last);
                }
            },
            // A place in a list is replaced, or set to null: removing it would renumber
            // the places after it.
            Value::Array(items) => {
                if let Some(slot) = last.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                    *slot = value.unwrap_or(Value::Null);
                }
            }
            _ => {}
        }
        Scenario::from_value(root).unwrap_or_else(|_| self.clone())
    }
}
