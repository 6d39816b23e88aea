//! The figures the model takes from published runs, fitted to the runs of the fit sources, and
//! every run predicted with its whole source left out of the fit.
//!
//! A source is one paper's table or one repository's benchmark file (`source_id` in
//! `data/calibration.json`); its rows share their stack's habits, so they are judged
//! together. Sources marked `held_out` never enter a fit. A fit source's rows are predicted
//! with the figures fitted to the other fit sources, so every row's error is the error of a
//! model that never saw its source (leave one source out).
//!
//! What is fitted: each catalog chip's best GEMM efficiency (`Chip::matmul_efficiency`), from
//! the fit rows on that chip, when they hold at least two distinct plans (a constant is never
//! fitted to one row). A chip whose only rows are left out takes the mean of the fitted chips
//! of its family, or of every fitted chip. The fitted values are written to
//! `src/model/presets/fitted.rs` (`source`), which the catalog's chips read;
//! `tests/validation.rs` fails when it is stale.

use std::collections::BTreeMap;

use super::{Outcome, Row};
use crate::model::{estimate, presets, Inputs};

/// Least GEMM efficiency the fit considers.
const LOWEST: f64 = 0.05;
/// Golden-section steps: the bracket shrinks to 0.618^50 of its width.
const STEPS: usize = 50;

/// One chip's fitted GEMM efficiency and what it rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The catalog chip's id.
    pub chip: &'static str,
    /// Fraction of the chip's dense BF16 peak a large GEMM reaches.
    pub efficiency: f64,
    /// Rows it was fitted to.
    pub rows: u32,
    /// Sources of those rows.
    pub sources: Vec<String>,
}

/// Everything the fit sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// Fitted chips, by id.
    pub chips: Vec<Fitted>,
}

impl Figures {
    fn chip(&self, id: &str) -> Option<f64> {
        self.chips.iter().find(|f| f.chip == id).map(|f| f.efficiency)
    }

    /// The efficiency a chip normally fitted takes when its own rows are left out: the mean
    /// of the fitted chips of its family, or of every fitted chip.
    fn stand_in(&self, id: &str) -> Option<f64> {
        let family = presets::chip(id).map(|p| p.family);
        let of = |f: &Fitted| presets::chip(f.chip).map(|p| p.family);
        let kin: Vec<f64> =
            self.chips.iter().filter(|f| of(f) == family).map(|f| f.efficiency).collect();
        let all: Vec<f64> = self.chips.iter().map(|f| f.efficiency).collect();
        let mean = |xs: &[f64]| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
        mean(&kin).or_else(|| mean(&all))
    }
}

/// A row resolved once, to be estimated again with other figures.
struct Case {
    source: String,
    held_out: bool,
    /// The catalog chip whose efficiency the row takes, unless it sets its own.
    chip: Option<&'static str>,
    /// The row's plan with the chip's figure as the catalog gives it.
    label: String,
    inputs: Inputs,
    row: usize,
}

fn cases(rows: &[Row]) -> Vec<Case> {
    rows.iter()
        .enumerate()
        .filter_map(|(i, row)| {
            let inputs = row.scenario.resolve().ok()?;
            let own = row.scenario.get("cluster.chip.matmul_efficiency").is_some();
            let chip = super::range::chip_preset(&row.scenario).filter(|_| !own);
            Some(Case {
                source: row.source.clone(),
                held_out: row.held_out,
                chip,
                label: row.label.clone(),
                inputs,
                row: i,
            })
        })
        .collect()
}

/// The row's step time as predicted with `efficiency`, over the step time it published
/// (a throughput or MFU fixes the step time as well as a time does).
fn time_ratio(row: &Row, inputs: &Inputs, efficiency: Option<f64>) -> f64 {
    let mut inputs = *inputs;
    if let Some(e) = efficiency {
        inputs.cluster.chip.matmul_efficiency = e;
    }
    let e = estimate(&inputs);
    let predicted = row.metric.of(&inputs, &e);
    let ratio =
        if row.metric.is_time() { predicted / row.published } else { row.published / predicted };
    if ratio.is_finite() && ratio > 0.0 {
        ratio
    } else {
        1.0
    }
}

/// The figures fitted to the fit sources' rows, leaving out `leave_out`.
fn fit_cases(rows: &[Row], cases: &[Case], leave_out: Option<&str>) -> Figures {
    let mut by_chip: BTreeMap<&'static str, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        if case.held_out || Some(case.source.as_str()) == leave_out {
            continue;
        }
        if let Some(chip) = case.chip {
            by_chip.entry(chip).or_default().push(case);
        }
    }
    let chips = by_chip
        .into_iter()
        .filter_map(|(chip, mine)| {
            // Two rows of one plan (a run's MFU and its days) are one measurement.
            let mut plans: Vec<(usize, &str)> = Vec::new();
            for case in &mine {
                let same = |&(r, _): &(usize, &str)| rows[r].scenario == rows[case.row].scenario;
                if !plans.iter().any(same) {
                    plans.push((case.row, case.label.as_str()));
                }
            }
            if plans.len() < 2 {
                return None;
            }
            let loss = |ln_e: f64| -> f64 {
                mine.iter()
                    .map(|c| time_ratio(&rows[c.row], &c.inputs, Some(ln_e.exp())).ln().powi(2))
                    .sum()
            };
            let efficiency = golden(loss, LOWEST.ln(), 0.0).exp();
            let mut sources: Vec<String> = mine.iter().map(|c| c.source.clone()).collect();
            sources.sort();
            sources.dedup();
            Some(Fitted { chip, efficiency, rows: mine.len() as u32, sources })
        })
        .collect();
    Figures { chips }
}

/// The minimum of `f` on `[lo, hi]` by golden-section search.
fn golden(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..STEPS {
        if fa <= fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    0.5 * (lo + hi)
}

/// The figures fitted to every fit source.
pub fn fit(rows: &[Row]) -> Figures {
    fit_cases(rows, &cases(rows), None)
}

/// Each outcome's error of the step time (positive: the model is slow) as predicted by a
/// model fitted without the outcome's source, in the order given. Held-out sources are
/// never fitted, so theirs is the model's own error.
pub fn left_out(outcomes: &[Outcome]) -> Vec<f64> {
    let rows: Vec<Row> = outcomes.iter().map(|o| o.row.clone()).collect();
    let cases = cases(&rows);
    let full = fit_cases(&rows, &cases, None);
    let mut by_source: BTreeMap<&str, Figures> = BTreeMap::new();
    let mut errors: Vec<f64> = outcomes.iter().map(super::range::time_error).collect();
    for case in &cases {
        if case.held_out {
            continue;
        }
        let figures = by_source
            .entry(case.source.as_str())
            .or_insert_with(|| fit_cases(&rows, &cases, Some(&case.source)));
        let efficiency = case.chip.and_then(|id| {
            figures.chip(id).or_else(|| full.chip(id).and_then(|_| figures.stand_in(id)))
        });
        errors[case.row] = time_ratio(&rows[case.row], &case.inputs, efficiency) - 1.0;
    }
    errors
}

/// The source of `src/model/presets/fitted.rs` for these figures.
pub fn source(figures: &Figures) -> String {
    let mut out = String::new();
    out.push_str("//! Figures fitted to the published runs of the fit sources (`data/calibration.json`) by\n");
    out.push_str(
        "//! `validation::fit`; generated, and `tests/validation.rs` fails when it is stale\n",
    );
    out.push_str(
        "//! (`UPDATE_ACCURACY=1 cargo test --release --test validation` rewrites it).\n\n",
    );
    out.push_str("/// Each fitted catalog chip's best GEMM efficiency (`Chip::matmul_efficiency`), with the\n");
    out.push_str("/// rows and sources it was fitted to.\n");
    out.push_str("pub const CHIP_GEMM: &[(&str, f64, u32, &[&str])] = &[\n");
    for f in &figures.chips {
        let sources: Vec<String> = f.sources.iter().map(|s| format!("{s:?}")).collect();
        out.push_str(&format!(
            "    ({:?}, {:.4}, {}, &[{}]),\n",
            f.chip,
            f.efficiency,
            f.rows,
            sources.join(", ")
        ));
    }
    out.push_str("];\n");
    out
}
