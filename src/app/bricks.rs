//! The bricks every section of the answer is built of, typed: a line of words, a table whose
//! rows each apply a scenario, a list, a picture, a file to copy, a published run's sources,
//! a headline card, and `View`, the shape a search, a sizing or the accuracy report takes. The
//! worker words them from the typed results (`app::sections`) and sends them as JSON; the page
//! reads them back into the same types, so serde's derive is their one codec and neither side
//! spells a key.
//!
//! Every field has a default, so a view with nothing to say in a part leaves it out.

use serde::{Deserialize, Serialize};

use crate::scenario::Scenario;

/// A line of words, `bad` when it tells of a failure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Line {
    pub testid: String,
    pub text: String,
    pub bad: bool,
}

impl Line {
    pub fn new(testid: &str, text: impl Into<String>, bad: bool) -> Line {
        Line { testid: testid.to_string(), text: text.into(), bad }
    }
}

/// A button that opens `scenario` in place of the plan, named `label` in the Undo notice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Apply {
    #[serde(default)]
    pub testid: String,
    pub label: String,
    #[serde(with = "scenario_json")]
    pub scenario: Box<Scenario>,
}

impl Apply {
    pub fn new(testid: &str, label: impl Into<String>, scenario: Scenario) -> Apply {
        Apply { testid: testid.to_string(), label: label.into(), scenario: Box::new(scenario) }
    }
}

/// A row of text cells, with a class for the page's style sheet (`miss`) and its Apply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Row {
    pub testid: String,
    pub class: String,
    pub cells: Vec<String>,
    pub apply: Option<Apply>,
}

impl Row {
    /// A row of `cells` with `testid`, applying nothing.
    pub fn of(testid: &str, cells: Vec<String>) -> Row {
        Row { testid: testid.to_string(), cells, ..Row::default() }
    }
}

/// A table of text: its head and its rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Table {
    pub testid: String,
    pub head: Vec<String>,
    pub rows: Vec<Row>,
}

impl Table {
    /// A table of `rows` under `head`.
    pub fn new(testid: &str, head: &[&str], rows: Vec<Row>) -> Table {
        Table { testid: testid.into(), head: head.iter().map(|h| h.to_string()).collect(), rows }
    }
}

/// A list folded under its summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct List {
    pub testid: String,
    pub summary: String,
    pub items: Vec<String>,
}

/// A drawing as an image's `data:` URL, where no script in it can run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Picture {
    pub testid: String,
    pub url: String,
}

impl Picture {
    /// The SVG document `svg` as a picture: a `data:` URL for an `<img>`.
    pub fn svg(testid: &str, svg: &str) -> Picture {
        let mut url = String::from("data:image/svg+xml,");
        for b in svg.bytes() {
            if b.is_ascii_alphanumeric() || b" .,:;=/-_()'".contains(&b) {
                url.push(b as char);
            } else {
                url.push_str(&format!("%{b:02X}"));
            }
        }
        Picture { testid: testid.to_string(), url }
    }
}

/// A file to copy: its name, its text, and the test id of its copy button.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Block {
    pub testid: String,
    pub name: String,
    pub text: String,
}

/// A published run's title and its sources, which the page shows as links.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Source {
    pub title: String,
    pub source: String,
}

/// A search, a sizing, the accuracy report, a comparison or the fleet question as the page
/// lays it out: lines, the table, lines after it, a list, pictures, sources, and an Apply of
/// its own.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct View {
    pub lines: Vec<Line>,
    pub table: Option<Table>,
    pub after: Vec<Line>,
    pub list: Option<List>,
    pub pictures: Vec<Picture>,
    pub sources: Vec<Source>,
    pub apply: Option<Apply>,
    /// Files to copy, each whole.
    pub blocks: Vec<Block>,
}

impl View {
    /// Only `lines`.
    pub fn said(lines: Vec<Line>) -> View {
        View { lines, ..View::default() }
    }

    /// The picture with `testid`.
    pub fn picture(&self, testid: &str) -> Option<&str> {
        self.pictures.iter().find(|p| p.testid == testid).map(|p| p.url.as_str())
    }
}

/// A headline card as the worker words it: its value, its likely range (`low` to `high`;
/// both empty for none), the line under it, and, where the plan misses the target the card
/// stands for, the sentence that says by how much and what meets it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Card {
    pub value: String,
    pub low: String,
    pub high: String,
    pub detail: String,
    pub missed: Option<String>,
}

/// A scenario in a view is its own JSON (`Scenario::to_value`), read back as the page reads a
/// link's.
pub(crate) mod scenario_json {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::scenario::Scenario;

    pub fn serialize<S: Serializer>(scenario: &Scenario, to: S) -> Result<S::Ok, S::Error> {
        scenario.to_value().serialize(to)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Box<Scenario>, D::Error> {
        let value = serde_json::Value::deserialize(from)?;
        Scenario::from_value(value).map(Box::new).map_err(serde::de::Error::custom)
    }
}

/// The same for a scenario that may be absent (`null`), written only: the page reads it back
/// by hand (`app::wire::read_drawn`).
pub(crate) mod scenario_json_or_none {
    use serde::{Serialize, Serializer};

    use crate::scenario::Scenario;

    pub fn serialize<S: Serializer>(
        scenario: &Option<Box<Scenario>>,
        to: S,
    ) -> Result<S::Ok, S::Error> {
        scenario.as_ref().map(|s| s.to_value()).serialize(to)
    }
}
