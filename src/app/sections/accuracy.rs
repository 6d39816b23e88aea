//! The accuracy report in the page: every published run predicted (`validation::run_all`),
//! each row with its error against its tolerance, the misses explained, and each run's
//! sources.

use crate::app::{Line, Row, Source, Table, View};
use crate::text::{fill, t};
use crate::validation;

/// Every published run and its prediction, or why the report could not be made.
pub type Report = Result<(Vec<validation::Run>, Vec<validation::Outcome>), String>;

/// A figure as the table shows it: finite, else 0.
fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// The accuracy report as the page shows it: every published row with its error, the misses
/// explained, and each run's sources (the page renders those as links).
pub fn view(report: &Report) -> View {
    let (runs, outcomes) = match report {
        Ok(report) => report,
        Err(error) => {
            let text = fill("accuracy.error", &[("why", error)]);
            return View::said(vec![Line::new("accuracy-error", text, true)]);
        }
    };
    let rows: Vec<Row> = outcomes
        .iter()
        .map(|o| {
            let metric = o.row.metric;
            Row {
                class: if o.within() { "" } else { "miss" }.into(),
                cells: vec![
                    o.row.run.clone(),
                    o.row.label.clone(),
                    metric.label().to_string(),
                    validation::show(metric, o.row.published),
                    validation::show(metric, o.predicted),
                    format!("{:+.1}%", 100.0 * finite(o.error)),
                    format!("±{:.0}%", 100.0 * finite(o.row.tolerance)),
                ],
                ..Row::default()
            }
        })
        .collect();
    let misses: Vec<Line> = outcomes
        .iter()
        .filter_map(|o| {
            let why = o.row.known_miss.as_deref()?;
            let values = [("run", o.row.run.as_str()), ("label", &o.row.label), ("why", why)];
            Some(Line::new("accuracy-miss", fill("accuracy.miss", &values), false))
        })
        .collect();
    let head = ["run", "row", "metric", "published", "predicted", "error", "tolerance"]
        .map(|h| t(&format!("accuracy.head.{h}")));
    let sources =
        runs.iter().map(|r| Source { title: r.title.clone(), source: r.source.clone() }).collect();
    View {
        table: Some(Table::new("accuracy-table", &head, rows)),
        after: misses,
        sources,
        ..View::default()
    }
}
