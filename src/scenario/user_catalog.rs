//! The user's own catalog: chips, systems, switches and models not in the built-in one (a chip
//! not yet public, a rack of one's own design), each a named set of scenario fields.
//!
//! An entry is what the scenario would hold for it, field by field (a chip: its figures and
//! its fabrics), so a plan that uses one carries it whole in its link and its file and opens
//! anywhere; the catalog only remembers entries to choose again. The page keeps it in the
//! browser and saves and reads it as JSON; `clusterplan predict --catalog FILE` lets a
//! scenario name an entry instead (`"chip": "X1"`).

use serde_json::{json, Map, Value};

use super::paths;
use super::Scenario;

/// What an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Chip,
    System,
    Switch,
    Model,
}

impl Kind {
    /// Every kind, in the page's order.
    pub const ALL: [Kind; 4] = [Kind::Chip, Kind::System, Kind::Switch, Kind::Model];

    /// The kind's name in the JSON.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Chip => "chip",
            Kind::System => "system",
            Kind::Switch => "switch",
            Kind::Model => "model",
        }
    }

    /// The kind named `id`.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The scenario fields an entry of this kind sets; the first names it in a scenario.
    pub fn paths(self) -> &'static [&'static str] {
        match self {
            Kind::Chip => &[
                "cluster.chip",
                "cluster.scale_up",
                "cluster.scale_out",
                "cluster.scale_up_domain",
                "cluster.chips_per_node",
            ],
            Kind::System => &["cluster.system"],
            Kind::Switch => &["cluster.fabric.switch"],
            Kind::Model => &["model"],
        }
    }
}

/// One entry: a kind, a name, and the fields it sets (a field it does not hold is cleared).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub kind: Kind,
    pub name: String,
    pub fields: Map<String, Value>,
}

impl Entry {
    /// The entry of `kind` the scenario now holds, named `name`; `None` when the scenario
    /// holds nothing of its own there (a built-in preset is not worth keeping).
    pub fn capture(kind: Kind, name: &str, scenario: &Scenario) -> Option<Entry> {
        let name = name.trim();
        if name.is_empty() {
            return None;
        }
        let first = scenario.get(kind.paths()[0])?;
        if !first.is_object() {
            return None;
        }
        let mut fields: Map<String, Value> =
            kind.paths().iter().filter_map(|p| Some((p.to_string(), scenario.get(p)?))).collect();
        // A chip, system or switch is called by the name it is saved under wherever it shows
        // (a model has no name of its own in a scenario).
        if kind != Kind::Model {
            if let Some(Value::Object(own)) = fields.get_mut(kind.paths()[0]) {
                own.insert("name".into(), Value::String(name.to_string()));
            }
        }
        Some(Entry { kind, name: name.to_string(), fields })
    }

    /// The scenario using this entry.
    pub fn apply(&self, scenario: &Scenario) -> Scenario {
        self.kind
            .paths()
            .iter()
            .fold(scenario.clone(), |s, p| s.with_at(p, self.fields.get(*p).cloned()))
    }

    /// Whether the scenario uses this entry as it is.
    pub fn in_use(&self, scenario: &Scenario) -> bool {
        self.kind.paths().iter().all(|p| scenario.get(p) == self.fields.get(*p).cloned())
    }
}

/// Why a catalog file was refused (`text::catalog_error` words it).
#[derive(Clone, Debug, PartialEq)]
pub enum CatalogError {
    /// Not JSON, with the reader's reason.
    NotJson(String),
    /// JSON, but no `"clusterplan_catalog"` version or no `"entries"` list.
    NotACatalog,
    /// A catalog from a newer version of the format.
    Newer(u64),
    /// An entry without a kind, a name or its fields.
    Incomplete,
    /// An entry that sets fields its kind does not hold.
    ForeignFields { name: String, kind: Kind },
    /// An entry that does not resolve in the default plan.
    BadEntry { name: String, errors: Vec<super::InputError> },
}

/// The user's entries, in the order they were saved; a name is unique within its kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UserCatalog {
    pub entries: Vec<Entry>,
}

/// The catalog format's version.
pub const CATALOG_VERSION: u64 = 1;

impl UserCatalog {
    /// Adds `entry`, replacing one of the same kind and name.
    pub fn put(&mut self, entry: Entry) {
        match self.entries.iter_mut().find(|e| e.kind == entry.kind && e.name == entry.name) {
            Some(old) => *old = entry,
            None => self.entries.push(entry),
        }
    }

    /// Removes the entry of `kind` named `name`.
    pub fn remove(&mut self, kind: Kind, name: &str) {
        self.entries.retain(|e| !(e.kind == kind && e.name == name));
    }

    /// The entries of one kind.
    pub fn of(&self, kind: Kind) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| e.kind == kind)
    }

    /// The catalog as JSON text.
    pub fn to_json(&self) -> String {
        let entries: Vec<Value> = self
            .entries
            .iter()
            .map(|e| json!({ "kind": e.kind.id(), "name": e.name, "fields": e.fields }))
            .collect();
        let doc = json!({ "clusterplan_catalog": CATALOG_VERSION, "entries": entries });
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }

    /// Reads a catalog, checking that every entry resolves in the default plan; a file with a
    /// bad entry is refused whole.
    pub fn parse(text: &str) -> Result<UserCatalog, CatalogError> {
        let doc: Value =
            serde_json::from_str(text).map_err(|e| CatalogError::NotJson(e.to_string()))?;
        match doc.get("clusterplan_catalog").and_then(Value::as_u64) {
            Some(v) if v <= CATALOG_VERSION => {}
            Some(v) => return Err(CatalogError::Newer(v)),
            None => return Err(CatalogError::NotACatalog),
        }
        let list = doc.get("entries").and_then(Value::as_array).ok_or(CatalogError::NotACatalog)?;
        let mut catalog = UserCatalog::default();
        for item in list {
            let name = item["name"].as_str().unwrap_or_default().trim().to_string();
            let kind = item["kind"].as_str().and_then(Kind::from_id);
            let fields = item["fields"].as_object().cloned();
            let (Some(kind), Some(fields), false) = (kind, fields, name.is_empty()) else {
                return Err(CatalogError::Incomplete);
            };
            if fields.keys().any(|k| !kind.paths().contains(&k.as_str())) {
                return Err(CatalogError::ForeignFields { name, kind });
            }
            let entry = Entry { kind, name, fields };
            if let Err(errors) = entry.apply(&Scenario::default_plan()).resolve() {
                return Err(CatalogError::BadEntry { name: entry.name, errors });
            }
            catalog.put(entry);
        }
        Ok(catalog)
    }

    /// The scenario with each field that names an entry (`"cluster.chip": "X1"`) replaced by
    /// the entry's fields; the command line's `--catalog`.
    pub fn expand(&self, scenario: &Scenario) -> Scenario {
        let mut out = scenario.clone();
        for kind in Kind::ALL {
            let path = match kind {
                Kind::Model => "model.preset",
                _ => kind.paths()[0],
            };
            let Some(Value::String(name)) = scenario.get(path) else { continue };
            if let Some(entry) = self.of(kind).find(|e| e.name == name.trim()) {
                if kind == Kind::Model {
                    out = out.with(paths::MODEL_PRESET, None);
                }
                out = entry.apply(&out);
            }
        }
        out
    }
}
