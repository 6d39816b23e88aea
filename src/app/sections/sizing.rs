//! A sizing in the page: the smallest cluster of each chip that meets the deadline, with its
//! nodes, racks, power, capex and plan, how close each answer is to the true smallest, and
//! days against chips drawn; and the largest cluster of each chip within a power.

use crate::app::{Apply, Line, Picture, Row, Table, View};
use crate::charts::{self, Curve, DARK, LIGHT};
use crate::format;
use crate::numbers;
use crate::scenario::Scenario;
use crate::sizing::{Answer, PowerSized};
use crate::text::{fill, t};

use super::search::plan_words;

/// One chip's sizing once done.
pub struct SizedChip {
    /// The chip as the row names it.
    pub name: String,
    /// The chip asked for (`None`: the scenario's own), which the page applies a row by.
    pub chip: Option<String>,
    /// The sizing's resolution in chips.
    pub unit: u32,
    /// The answer (`None` if the sizing gave none), or why the sizing could not start.
    pub result: Result<Option<Answer>, String>,
    /// Best days at each size searched.
    pub curve: Vec<(u32, f64)>,
    /// A size's search stopped at the sizing's budget of plans (`Sizer::budget_spent`).
    pub budget_spent: bool,
}

/// A count as the page shows it.
fn n(x: impl Into<f64>) -> String {
    numbers::format(x.into())
}

/// A figure that is finite, else none.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A row that says only why a chip has no answer.
fn why_row(testid: &str, chip: String, why: &str) -> Row {
    let mut cells = vec![chip];
    cells.extend(std::iter::repeat_n(String::new(), 5));
    cells.push(why.to_string());
    Row::of(testid, cells)
}

/// A chip as people read it: a catalog chip by its name (`NVIDIA H100 SXM5 80GB`), any other
/// as it is called.
fn shown(chip: &str) -> String {
    crate::model::presets::chip(chip).map_or(chip, |p| p.name).to_string()
}

/// A sizing of `scenario`'s workload as the page shows it: a row per chip, how close each
/// answer is to the true smallest cluster, and the plot of days against chips, drawn for the
/// dark colour scheme when `dark`. A chip held back by the largest batch accepted offers to
/// accept twice it.
pub fn view(
    scenario: &Scenario,
    deadline_days: f64,
    chips: &[SizedChip],
    confidence: crate::model::Confidence,
    money: format::Money,
    dark: bool,
) -> View {
    let rows: Vec<Row> = chips
        .iter()
        .map(|c| {
            let chip = shown(&c.name);
            let sized = match &c.result {
                Ok(Some(Answer::Meets(sized))) => sized,
                Ok(Some(answer)) => {
                    let why = crate::report::sizing_why(deadline_days, answer)
                        .unwrap_or_else(|| t("size.none").into());
                    let mut row = why_row("size-row", chip, &why);
                    if let Answer::Misses { batch: Some(b), .. } = answer {
                        let tokens = 2.0 * b.tokens;
                        let label = fill("size.raise-batch", &[("tokens", &format::count(tokens))]);
                        let field = &crate::scenario::fields::TRAINING_MAX_GLOBAL_BATCH_TOKENS;
                        let raised = scenario.with(field, Some(tokens.into()));
                        row.apply = Some(Apply::new("size-raise-batch", label, raised));
                    }
                    return row;
                }
                Ok(None) => return why_row("size-row", chip, t("size.none")),
                Err(why) => return why_row("size-row", chip, why),
            };
            let e = &sized.estimate;
            let count = n(sized.chips);
            let bom = &e.facility.bom;
            let mw = finite(e.facility.power.facility_w / 1e6);
            let capex = finite(e.facility.cost.capex_usd);
            let label = fill("size.apply-label", &[("n", &count), ("chip", &chip)]);
            Row {
                testid: "size-row".into(),
                cells: vec![
                    chip.clone(),
                    count.clone(),
                    format!("{} / {}", n(bom.nodes as f64), n(bom.racks as f64)),
                    mw.map(|mw| fill("unit.mw", &[("n", &format::sig3(mw))])).unwrap_or_default(),
                    capex.map(|usd| money.show(usd)).unwrap_or_default(),
                    held_days(sized),
                    plan_words(&sized.plan.parallelism, None),
                ],
                apply: Some(Apply::new("size-apply", label, sized.scenario.clone())),
                ..Row::default()
            }
        })
        .collect();
    let bounds: Vec<Line> = chips
        .iter()
        .filter_map(|c| match &c.result {
            Ok(Some(Answer::Meets(sized))) => Some((c, sized)),
            _ => None,
        })
        .map(|(c, sized)| {
            let over = finite(sized.at_most_over(c.unit)).unwrap_or(0.0);
            let text = fill(
                "size.bound",
                &[
                    ("chip", &shown(&c.name)),
                    ("chips", &n(sized.chips)),
                    ("misses", &n(sized.misses_at)),
                    ("over", &format::percent(over)),
                    ("unit", &n(c.unit)),
                ],
            );
            Line::new("size-bound", text, false)
        })
        .chain(chips.iter().filter(|c| c.budget_spent).map(|c| {
            let budget = n(crate::sizing::SIZING_BUDGET as f64);
            let text = fill("size.budget-spent", &[("chip", &shown(&c.name)), ("n", &budget)]);
            Line::new("size-budget", text, false)
        }))
        .collect();
    // A chip whose sizing could not start has no curve.
    let curves: Vec<Curve> = chips
        .iter()
        .filter(|c| c.result.is_ok())
        .map(|c| Curve { label: shown(&c.name), points: c.curve.clone() })
        .collect();
    let held = match confidence {
        crate::model::Confidence::Central => "size.held.central",
        crate::model::Confidence::P90 => "size.held.p90",
    };
    let head = [
        t("size.head.chip"),
        t("size.head.chips"),
        t("size.head.nodes"),
        t("size.head.power"),
        t("size.head.capex"),
        t("size.head.days"),
        t("search.head.plan"),
    ];
    let theme = if dark { &DARK } else { &LIGHT };
    let plot = charts::sizing_svg(&curves, deadline_days, theme, (720, 300));
    View {
        lines: vec![Line::new("size-held", t(held).to_string(), false)],
        after: bounds,
        table: Some(Table::new("size-results", &head, rows)),
        pictures: vec![Picture::svg("plot-sizing", &plot)],
        ..View::default()
    }
}

/// One chip's largest cluster within a power: its name, and what it came to (`None`: not one
/// unit fits) or why it could not be sized.
pub type PowerRow = (String, Result<Option<PowerSized>, String>);

/// A sizing by power as the page shows it: a row per chip with its largest cluster within the
/// power, its nodes and racks, the power its site is provisioned for, capex, days and plan,
/// and the scenario its Apply button opens; or why not one unit fits.
pub fn power(power_mw: f64, sized: &[PowerRow], money: format::Money) -> View {
    let rows: Vec<Row> = sized
        .iter()
        .map(|(name, found)| {
            let chip = shown(name);
            let testid = format!("size-power-row-{name}");
            let s = match found {
                Ok(Some(s)) => s,
                Ok(None) => {
                    let mw = numbers::format(power_mw);
                    let why = fill("size.power-none", &[("mw", &mw), ("chip", name)]);
                    return why_row(&testid, chip, &why);
                }
                Err(why) => return why_row(&testid, chip, why),
            };
            let e = &s.estimate;
            let f = &e.facility;
            let days = e.effective_train_days().and_then(finite).or(finite(e.train_days));
            let plan = s.plan.map(|plan| {
                let p = &plan.parallelism;
                let degrees =
                    [("TP", p.tensor), ("PP", p.pipeline), ("CP", p.context), ("EP", p.expert)];
                let words: Vec<String> = degrees
                    .iter()
                    .filter(|(_, d)| *d > 1)
                    .map(|(k, d)| format!("{k} {d}"))
                    .collect();
                if words.is_empty() {
                    "TP 1 PP 1".to_string()
                } else {
                    words.join(" ")
                }
            });
            let label = fill("size.apply-label", &[("n", &n(s.chips)), ("chip", &chip)]);
            Row {
                testid,
                cells: vec![
                    chip,
                    n(s.chips),
                    format!("{} / {}", n(f.bom.nodes as f64), n(f.cooling.racks as f64)),
                    finite(f.design.provisioned_w / 1e6)
                        .map(|x| fill("unit.mw", &[("n", &format::sig3(x))]))
                        .unwrap_or_default(),
                    finite(f.cost.capex_usd).map(|usd| money.show(usd)).unwrap_or_default(),
                    days.map(|d| format!("{d:.1}")).unwrap_or_default(),
                    plan.unwrap_or_else(|| t("size.power-no-plan").into()),
                ],
                apply: Some(Apply::new("size-power-apply", label, s.scenario.clone())),
                ..Row::default()
            }
        })
        .collect();
    let said = fill("size.power-held", &[("mw", &numbers::format(power_mw))]);
    let head = [
        t("size.head.chip"),
        t("size.head.chips"),
        t("size.head.nodes"),
        t("size.head.provisioned"),
        t("size.head.capex"),
        t("size.head.days"),
        t("search.head.plan"),
    ];
    View {
        lines: vec![Line::new("size-power-held", said, false)],
        table: Some(Table::new("size-power-table", &head, rows)),
        ..View::default()
    }
}

/// The days with failures of a sized cluster, and those the deadline was held to when they are
/// its range's upper end (`62.1 → 71.4`).
fn held_days(sized: &crate::sizing::Sized) -> String {
    let Some(d) = finite(sized.plan.effective_train_days) else { return String::new() };
    if sized.held_to > 1.0 {
        format!("{d:.1} → {:.1}", d * sized.held_to)
    } else {
        format!("{d:.1}")
    }
}
