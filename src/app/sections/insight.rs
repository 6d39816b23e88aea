//! What moves a plan's answer and how loaded its network is, worded and drawn for the page:
//! the sensitivity sweep's table, its sentence and tornado (`evaluation::sensitivity`), and
//! the network's load by tier as a table and bars (`evaluation::network`).

use serde::Serialize;

use crate::app::{Line, Row, Table};
use crate::charts;
use crate::evaluation::Evaluation;
use crate::format::Money;
use crate::report::{sensitivity_input, sensitivity_threat, sensitivity_value};
use crate::text::t;

/// One look inside the answer: the sentence over it, its table and its drawing.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Insight {
    pub said: Option<Line>,
    pub table: Table,
    /// An SVG document.
    pub plot: String,
}

/// Both looks: what moves the days, and the network's load.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Insights {
    pub sensitivity: Insight,
    pub network: Insight,
}

impl Insights {
    /// Both looks inside `good`, judged from `scenario`, drawn `width` pixels wide.
    pub fn of(
        scenario: &crate::scenario::Scenario,
        good: &Evaluation,
        theme: &charts::Theme,
        width: u32,
    ) -> Insights {
        Insights {
            sensitivity: sensitivity(good, theme, width),
            network: network(scenario, good, theme, width),
        }
    }
}

/// The sweep of `good`: the table `sensitivity-table` (a row an input, largest effect first),
/// the sentence naming the decision its top entry threatens, and the tornado.
fn sensitivity(good: &Evaluation, theme: &charts::Theme, width: u32) -> Insight {
    let sweep = crate::evaluation::sensitivity(good);
    let money = Money::of(&good.inputs.plant.facility);
    let head =
        ["input", "worse", "better", "days-worse", "days-better", "cost-worse", "cost-better"];
    let head = head.iter().map(|h| t(&format!("sensitivity.head.{h}")).to_string()).collect();
    let mut rows = Vec::new();
    for e in &sweep.entries {
        let value = |v: f64| sensitivity_value(e.input, v, money);
        rows.push(row(vec![
            sensitivity_input(e.input).to_string(),
            value(e.low),
            value(e.high),
            crate::format::days(e.effective_days.0),
            crate::format::days(e.effective_days.1),
            money.show(e.cost_usd.0),
            money.show(e.cost_usd.1),
        ]));
    }
    let table = Table { testid: "sensitivity-table".into(), head, rows };
    let said = sensitivity_threat(&sweep, money).map(|s| Line::new("sensitivity-said", s, false));
    let swings: Vec<charts::Swing> = sweep
        .entries
        .iter()
        .map(|e| charts::Swing {
            name: sensitivity_input(e.input).to_string(),
            worse: e.effective_days.0,
            better: e.effective_days.1,
        })
        .collect();
    let kind = charts::Kind::Sensitivity;
    let plot = charts::draw_tornado(&swings, sweep.effective_days, theme, (width, kind.height()));
    Insight { said, table, plot }
}

/// The network's load of `good`, judged from `scenario`: the table `network-load-table` (a row
/// a tier: its bytes a step by collective, busy time, utilisation, the hottest marked), a
/// sentence naming the hottest, and the bars.
fn network(
    scenario: &crate::scenario::Scenario,
    good: &Evaluation,
    theme: &charts::Theme,
    width: u32,
) -> Insight {
    use crate::model::network::Dim;
    let load = crate::evaluation::network(scenario, good);
    let head = ["tier", "bytes", "by", "busy", "utilisation", "hottest"];
    let head = head.iter().map(|h| t(&format!("network.head.{h}")).to_string()).collect();
    let mut rows = Vec::new();
    let bytes = |b: f64| format!("{} GB", crate::numbers::sig3(b / 1e9));
    for (i, tier) in load.tiers.iter().enumerate() {
        let by: Vec<String> = Dim::ALL
            .iter()
            .zip(tier.by_dim)
            .filter(|(_, b)| *b > 0.0)
            .map(|(d, b)| format!("{} {}", t(&format!("network.dim.{}", d.id())), bytes(b)))
            .collect();
        rows.push(row(vec![
            t(&format!("network.{}", tier.tier.id())).to_string(),
            bytes(tier.bytes_per_step),
            by.join(" · "),
            crate::format::seconds(tier.busy_s),
            crate::numbers::percent(tier.utilisation),
            if i == load.hottest { t("network.hottest").to_string() } else { String::new() },
        ]));
    }
    let table = Table { testid: "network-load-table".into(), head, rows };
    let said = load.tiers.get(load.hottest).map(|hot| {
        let said = crate::text::fill(
            "network.said",
            &[
                ("tier", t(&format!("network.{}", hot.tier.id()))),
                ("share", &crate::numbers::percent(hot.utilisation)),
            ],
        );
        Line::new("network-load-said", said, false)
    });
    let bars: Vec<charts::TierBar> = load
        .tiers
        .iter()
        .enumerate()
        .map(|(i, tier)| charts::TierBar {
            name: t(&format!("network.{}", tier.tier.id())).to_string(),
            utilisation: tier.utilisation,
            hottest: i == load.hottest,
        })
        .collect();
    let kind = charts::Kind::NetworkLoad;
    let plot = charts::draw_network(&bars, theme, (width, kind.height()));
    Insight { said, table, plot }
}

/// A row of text cells.
fn row(cells: Vec<String>) -> Row {
    Row { cells, ..Row::default() }
}
