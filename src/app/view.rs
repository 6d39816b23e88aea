//! What the worker shows the page, typed: lines of words, a table whose rows each apply a
//! scenario, a list, pictures, the sources of the accuracy report; a plan's plots with its
//! fleet and its failures. The worker words these from the typed results (`app::jobs::view`,
//! `app::jobs::fleet`) and sends them as JSON; the page reads them back into the same types, so
//! serde's derive is their one codec and neither side spells a key.
//!
//! Every field has a default, so a view with nothing to say in a part leaves it out.

use std::collections::BTreeMap;

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

/// A table of text: its head and its rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Table {
    pub testid: String,
    pub head: Vec<String>,
    pub rows: Vec<Row>,
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

/// A card of the fleet's totals: its label, its value, and the test id the value carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Total {
    pub testid: String,
    pub label: String,
    pub value: String,
}

/// A pool's card: its title, its figures as (label, value), in the pool's colour, `bad` when
/// its part of the job does not fit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PoolCard {
    pub title: String,
    pub colour: String,
    pub figures: Vec<(String, String)>,
    pub bad: bool,
}

/// The best split of the job over the pools, in words, with the scenario that applies it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestSplit {
    pub text: String,
    pub apply: Apply,
}

/// A fleet of several pools or sites: the headline over the results, the whole fleet's totals,
/// the job's lines, a card per pool, the best split, the job over sites and the drawing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Fleet {
    pub title: String,
    pub headline: Option<String>,
    pub lines: Vec<Line>,
    pub cards: Vec<PoolCard>,
    pub totals: Vec<Total>,
    pub best: Option<BestSplit>,
    pub sites: Option<View>,
    /// The fleet drawn, an SVG document.
    pub drawing: Option<String>,
}

/// The days with failures as a distribution: its percentiles, the chance of meeting the
/// deadline, in words, and drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Failures {
    pub p10_days: Option<f64>,
    pub p50_days: Option<f64>,
    pub p90_days: Option<f64>,
    pub deadline_chance: Option<f64>,
    pub said: String,
    pub deadline: Option<String>,
    /// The chance of finishing by each day, an SVG document.
    pub svg: String,
}

/// One headline card as the worker words it: its value, its likely range (`low` to `high`;
/// both empty for none) and the line under it. On the wire, four strings in that order
/// (`Plots::serving_cards`), so the page reads no view of its own for it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Card {
    pub value: String,
    pub low: String,
    pub high: String,
    pub detail: String,
}

impl Card {
    /// `cards` as the wire carries them.
    pub fn flat(cards: &[Card]) -> Vec<String> {
        cards.iter().flat_map(|c| [&c.value, &c.low, &c.high, &c.detail]).cloned().collect()
    }

    /// The cards of strings `flat` wrote.
    pub fn read(flat: &[String]) -> Vec<Card> {
        flat.chunks_exact(4)
            .map(|c| Card {
                value: c[0].clone(),
                low: c[1].clone(),
                high: c[2].clone(),
                detail: c[3].clone(),
            })
            .collect()
    }
}

/// A plan's plots: each an SVG document by its kind's id (`charts::Kind::id`), the cluster
/// drawn (where its fabric builds), the fleet (for several pools or sites) and the failures;
/// or why none could be drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Plots {
    /// The scenario they were drawn for, as the page sent it: the page shows them as its
    /// plan's only while it is the same.
    #[serde(with = "scenario_json_or_none")]
    pub scenario: Option<Box<Scenario>>,
    pub plots: BTreeMap<String, String>,
    pub sketch: Option<String>,
    pub fleet: Option<Fleet>,
    pub failures: Option<Failures>,
    /// Serving the plan's model and post-training it, where it asks (`evaluation::serve`),
    /// worded: serving's five cards in the page's order (throughput, TTFT, TPOT, price, chips)
    /// and RL's two (the step, generation's share) as `Card::flat` writes them, each side's
    /// problems, and both as CSV (empty where it asks neither); the frontier is among `plots`.
    /// Fields of the plots rather than a view of their own: the page reads no more code.
    pub serving_cards: Vec<String>,
    pub serving_problems: Vec<String>,
    /// What serving assumes that the user may not expect, in words.
    pub serving_notes: Vec<String>,
    pub serving_feasible: bool,
    /// The cards whose target the deployment misses at the planned load (`serving-ttft`,
    /// `serving-tpot`), each with the sentence that says by how much and what meets it.
    pub serving_missed: Vec<(String, String)>,
    pub rl_cards: Vec<String>,
    pub rl_problems: Vec<String>,
    pub serving_csv: String,
    /// What moves the answer and the network's load, worded by the worker: their tables
    /// (`sensitivity-table`, `network-load-table`) and the sentence over each
    /// (`sensitivity-said`, `network-load-said`), as the views of other results have them.
    pub tables: Vec<Table>,
    pub said: Vec<Line>,
    pub error: Option<String>,
}

impl Plots {
    /// The plot of kind `id`.
    pub fn plot(&self, id: &str) -> Option<&str> {
        self.plots.get(id).map(String::as_str)
    }

    /// The table with `data-testid` `testid`.
    pub fn table(&self, testid: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.testid == testid)
    }

    /// The sentence with `data-testid` `testid`.
    pub fn said(&self, testid: &str) -> Option<&Line> {
        self.said.iter().find(|l| l.testid == testid)
    }
}

/// A scenario in a view is its own JSON (`Scenario::to_value`), read back as the page reads a
/// link's.
mod scenario_json {
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

/// The same for a scenario that may be absent (`null`).
mod scenario_json_or_none {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::scenario::Scenario;

    pub fn serialize<S: Serializer>(
        scenario: &Option<Box<Scenario>>,
        to: S,
    ) -> Result<S::Ok, S::Error> {
        scenario.as_ref().map(|s| s.to_value()).serialize(to)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        from: D,
    ) -> Result<Option<Box<Scenario>>, D::Error> {
        match Option::<serde_json::Value>::deserialize(from)? {
            None => Ok(None),
            Some(value) => Scenario::from_value(value)
                .map(|s| Some(Box::new(s)))
                .map_err(serde::de::Error::custom),
        }
    }
}
