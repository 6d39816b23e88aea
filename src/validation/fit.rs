//! The figures the model takes from published runs, fitted to the runs of the fit sources, and
//! every run predicted with its whole source left out of the fit.
//!
//! A source is one paper's table or one repository's benchmark file (`source_id` in
//! `data/calibration.json`); its rows share their stack's habits, so they are judged
//! together. Sources marked `held_out` never enter a fit. A fit source's rows are predicted
//! with the figures fitted to the other fit sources, so every row's error is the error of a
//! model that never saw its source (leave one source out).
//!
//! What is fitted, by least squares of the log step-time errors (Levenberg-Marquardt over all
//! figures at once):
//! - each catalog chip's best kernel efficiency (`Chip::matmul_efficiency`, what a tuned
//!   submission reaches), from the fit rows on that chip;
//! - each PyTorch stack's share of that speed (`Software::kernel_share`), from the fit rows on
//!   the stack; the tuned stack's share is 1 and XLA's too (TPUs run nothing else, so their
//!   chips' figures are XLA's), and a share is drawn toward 1 as if two rows said so, so that
//!   a stack seen on one chip only does not trade its share against that chip's efficiency;
//! - the MoE layer's wait on the host on PyTorch stacks (`Software::moe_host_s`), from the fit
//!   rows of mixtures of experts on them.
//!
//! A figure is fitted only when its rows hold at least two distinct plans (never to one row).
//! A chip no fit covers takes the mean of its family's fitted chips, else its class figure in
//! the catalog; the same rule stands in for a chip whose only rows are left out. The fitted
//! values are written to `src/model/presets/fitted.rs` (`source`), which the catalog's chips
//! and stacks read; `tests/it/validation.rs` fails when it is stale.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::{Outcome, Row};
use crate::model::{estimate, presets, Dispatcher, Inputs, Stack};

/// Least and greatest kernel efficiency of a chip the fit considers.
const CHIP_RANGE: (f64, f64) = (0.05, 1.0);
/// Least and greatest share of the chips' best kernel speed a stack's kernels may reach.
const SHARE_RANGE: (f64, f64) = (0.3, 1.3);
/// Greatest MoE host wait per layer and micro-batch, seconds.
const MOE_HOST_MAX_S: f64 = 0.05;
/// Least and greatest share of the model's low-precision GEMM figure a family may reach.
const LOW_PRECISION_RANGE: (f64, f64) = (0.5, 1.8);
/// Greatest launch time per layer and micro-batch, seconds.
const LAYER_HOST_MAX_S: f64 = 0.02;
/// Rows' worth of weight drawing a stack's share toward 1 (each at one log unit of error).
const SHARE_PRIOR_ROWS: f64 = 2.0;
/// Iterations of the full fit, and of a left-out fit started from it.
const ITERATIONS: usize = 30;
const ITERATIONS_LEFT_OUT: usize = 8;

/// One fitted figure and what it rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted<K> {
    /// What it is the figure of.
    pub of: K,
    /// The value.
    pub value: f64,
    /// Rows it was fitted to.
    pub rows: u32,
    /// Sources of those rows.
    pub sources: Vec<String>,
}

/// Everything the fit sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// Each fitted catalog chip's best kernel efficiency, by id.
    pub chips: Vec<Fitted<&'static str>>,
    /// Each fitted stack's share of the chips' best kernel speed.
    pub shares: Vec<Fitted<Stack>>,
    /// What a chip family's runs on a stack reach of that share, where they differ.
    pub family_shares: Vec<Fitted<(Stack, &'static str)>>,
    /// The MoE host wait per layer and micro-batch on PyTorch stacks, seconds, by dispatcher.
    pub moe_host: Vec<Fitted<Dispatcher>>,
    /// Each fitted stack's launch time per layer and micro-batch, seconds.
    pub layer_host: Vec<Fitted<Stack>>,
    /// What each fitted chip family's low-precision GEMMs reach of the model's share for them.
    pub low_precision: Vec<Fitted<&'static str>>,
}

impl Figures {
    /// The chip's efficiency: fitted, or the mean of its family's fitted chips.
    pub fn chip(&self, id: &str) -> Option<f64> {
        if let Some(f) = self.chips.iter().find(|f| f.of == id) {
            return Some(f.value);
        }
        let family = presets::chip(id)?.family;
        let kin: Vec<f64> = self
            .chips
            .iter()
            .filter(|f| presets::chip(f.of).map(|p| p.family) == Some(family))
            .map(|f| f.value)
            .collect();
        (!kin.is_empty()).then(|| kin.iter().sum::<f64>() / kin.len() as f64)
    }

    fn share(&self, stack: Stack) -> f64 {
        self.shares.iter().find(|f| f.of == stack).map_or(1.0, |f| f.value)
    }

    fn family_share(&self, stack: Stack, family: Option<&str>) -> f64 {
        self.family_shares
            .iter()
            .find(|f| f.of.0 == stack && Some(f.of.1) == family)
            .map_or(1.0, |f| f.value)
    }

    fn moe_host_s(&self, dispatcher: Dispatcher) -> f64 {
        self.moe_host.iter().find(|f| f.of == dispatcher).map_or(0.0, |f| f.value)
    }

    fn low_precision(&self, family: Option<&str>) -> f64 {
        self.low_precision.iter().find(|f| Some(f.of) == family).map_or(1.0, |f| f.value)
    }

    fn layer_host_s(&self, stack: Stack) -> f64 {
        self.layer_host.iter().find(|f| f.of == stack).map_or(0.0, |f| f.value)
    }
}

/// The stacks whose share is fitted: the tuned stack defines the chips' best, and XLA runs on
/// chips that run nothing else.
fn share_fitted(stack: Stack) -> bool {
    matches!(stack, Stack::MegatronCore | Stack::MegatronBaseline | Stack::PytorchFsdp)
}

/// The stacks whose MoE layers wait on the host (`presets::software`): the PyTorch ones.
fn host_bound(stack: Stack) -> bool {
    share_fitted(stack)
}

/// A row resolved once, to be estimated again with other figures.
struct Case {
    source: String,
    held_out: bool,
    /// The catalog chip whose efficiency the row takes, unless it sets its own.
    chip: Option<&'static str>,
    /// The family of the catalog chip the row's chip is or is based on.
    family: Option<&'static str>,
    stack: Stack,
    moe: bool,
    dispatcher: Dispatcher,
    /// GEMMs run in a low-precision format (FP8, MXFP8, NVFP4).
    low_precision: bool,
    inputs: Inputs,
    row: usize,
}

fn cases(rows: &[Row]) -> Vec<Case> {
    rows.iter()
        .enumerate()
        .filter_map(|(i, row)| {
            let inputs = row.scenario.resolve().ok()?;
            let own = row
                .scenario
                .raw(&crate::scenario::fields::CLUSTER_CHIP_MATMUL_EFFICIENCY)
                .is_some();
            let preset = super::range::chip_preset(&row.scenario);
            let chip = preset.filter(|_| !own);
            Some(Case {
                source: row.source.clone(),
                held_out: row.held_out,
                chip,
                family: preset.and_then(presets::chip).map(|p| p.family),
                stack: inputs.parallelism.stack,
                moe: inputs.transformer.moe.is_some(),
                dispatcher: inputs.parallelism.dispatcher,
                low_precision: inputs.gemm_format() != crate::model::GemmFormat::Bf16,
                inputs,
                row: i,
            })
        })
        .collect()
}

/// The case's inputs with `figures` in place of the catalog's.
fn with(case: &Case, figures: &Figures) -> Inputs {
    let mut inputs = case.inputs;
    // A chip the figures do not cover keeps its class figure, not the catalog's fitted one.
    if let Some(p) = case.chip.and_then(presets::chip) {
        inputs.cluster.chip.matmul_efficiency =
            figures.chip(p.id).unwrap_or(p.chip.matmul_efficiency);
    }
    let software = &mut inputs.parallelism.software;
    software.low_precision_share = figures.low_precision(case.family);
    if share_fitted(case.stack) {
        software.kernel_share =
            figures.share(case.stack) * figures.family_share(case.stack, case.family);
    }
    if host_bound(case.stack) {
        software.moe_host_s = figures.moe_host_s(Dispatcher::AllToAll);
        software.moe_host_deepep_s = figures.moe_host_s(Dispatcher::DeepEp);
        software.layer_host_s = figures.layer_host_s(case.stack);
    }
    inputs
}

/// The row's step time as predicted with these inputs, over the step time it published (a
/// throughput or MFU fixes the step time as well as a time does).
fn time_ratio(row: &Row, inputs: &Inputs) -> f64 {
    let e = estimate(inputs);
    let predicted = row.predict(inputs, &e);
    let ratio =
        if row.metric.is_time() { predicted / row.published } else { row.published / predicted };
    if ratio.is_finite() && ratio > 0.0 {
        ratio
    } else {
        1.0
    }
}

/// A figure being fitted: which rows it moves and how it is set.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Knob {
    Chip(&'static str),
    Share(Stack),
    FamilyShare(Stack, &'static str),
    MoeHost(Dispatcher),
    LayerHost(Stack),
    LowPrecision(&'static str),
}

impl Knob {
    fn moves(self, case: &Case) -> bool {
        match self {
            Knob::Chip(id) => case.chip == Some(id),
            Knob::Share(stack) => case.stack == stack,
            Knob::FamilyShare(stack, family) => case.stack == stack && case.family == Some(family),
            Knob::MoeHost(d) => case.moe && host_bound(case.stack) && case.dispatcher == d,
            Knob::LayerHost(stack) => case.stack == stack,
            Knob::LowPrecision(family) => case.low_precision && case.family == Some(family),
        }
    }

    /// The range searched, as the search variable (log efficiency, log share, seconds).
    fn range(self) -> (f64, f64) {
        match self {
            Knob::Chip(_) => (CHIP_RANGE.0.ln(), CHIP_RANGE.1.ln()),
            Knob::Share(_) | Knob::FamilyShare(..) => (SHARE_RANGE.0.ln(), SHARE_RANGE.1.ln()),
            Knob::MoeHost(_) => (0.0, MOE_HOST_MAX_S),
            Knob::LayerHost(_) => (0.0, LAYER_HOST_MAX_S),
            Knob::LowPrecision(_) => (LOW_PRECISION_RANGE.0.ln(), LOW_PRECISION_RANGE.1.ln()),
        }
    }

    fn get(self, f: &Figures) -> f64 {
        match self {
            Knob::Chip(id) => f.chips.iter().find(|c| c.of == id).map_or(0.5, |c| c.value).ln(),
            Knob::Share(stack) => f.share(stack).ln(),
            Knob::FamilyShare(stack, family) => f.family_share(stack, Some(family)).ln(),
            Knob::MoeHost(d) => f.moe_host_s(d),
            Knob::LayerHost(stack) => f.layer_host_s(stack),
            Knob::LowPrecision(family) => f.low_precision(Some(family)).ln(),
        }
    }

    fn set(self, f: &mut Figures, x: f64) {
        match self {
            Knob::Chip(id) => {
                if let Some(c) = f.chips.iter_mut().find(|c| c.of == id) {
                    c.value = x.exp();
                }
            }
            Knob::Share(stack) => {
                if let Some(c) = f.shares.iter_mut().find(|c| c.of == stack) {
                    c.value = x.exp();
                }
            }
            Knob::FamilyShare(stack, family) => {
                if let Some(c) = f.family_shares.iter_mut().find(|c| c.of == (stack, family)) {
                    c.value = x.exp();
                }
            }
            Knob::MoeHost(d) => {
                if let Some(c) = f.moe_host.iter_mut().find(|c| c.of == d) {
                    c.value = x;
                }
            }
            Knob::LayerHost(stack) => {
                if let Some(c) = f.layer_host.iter_mut().find(|c| c.of == stack) {
                    c.value = x;
                }
            }
            Knob::LowPrecision(family) => {
                if let Some(c) = f.low_precision.iter_mut().find(|c| c.of == family) {
                    c.value = x.exp();
                }
            }
        }
    }

    /// The residual drawing the search variable toward its prior: shares toward 1.
    fn prior(self, x: f64) -> f64 {
        match self {
            Knob::Share(_) | Knob::FamilyShare(..) | Knob::LowPrecision(_) => {
                SHARE_PRIOR_ROWS.sqrt() * x
            }
            _ => 0.0,
        }
    }

    /// The finite-difference step of the search variable.
    fn step(self) -> f64 {
        match self {
            Knob::MoeHost(_) | Knob::LayerHost(_) => 1e-5,
            _ => 1e-3,
        }
    }
}

/// The figures fitted to the fit sources' rows, leaving out `leave_out`, starting from
/// `start` (the catalog's own figures when `None`).
fn fit_cases(
    rows: &[Row],
    cases: &[Case],
    leave_out: Option<&str>,
    start: Option<&Figures>,
) -> Figures {
    let mine: Vec<&Case> =
        cases.iter().filter(|c| !c.held_out && Some(c.source.as_str()) != leave_out).collect();
    // The figures that rest on at least two distinct plans.
    let enough = |knob: Knob| -> Option<(u32, Vec<String>)> {
        let moved: Vec<&&Case> = mine.iter().filter(|c| knob.moves(c)).collect();
        let mut plans: Vec<usize> = Vec::new();
        for c in &moved {
            if !plans.iter().any(|&r| rows[r].scenario == rows[c.row].scenario) {
                plans.push(c.row);
            }
        }
        if plans.len() < 2 {
            return None;
        }
        let mut sources: Vec<String> = moved.iter().map(|c| c.source.clone()).collect();
        sources.sort();
        sources.dedup();
        Some((moved.len() as u32, sources))
    };
    let mut chip_ids: Vec<&'static str> = mine.iter().filter_map(|c| c.chip).collect();
    chip_ids.sort_unstable();
    chip_ids.dedup();
    // The full fit starts from the class figures, so that it never depends on its own output.
    let catalog = |id: &str| presets::chip(id).map_or(0.5, |p| p.chip.matmul_efficiency);
    let mut figures = Figures {
        chips: chip_ids
            .into_iter()
            .filter_map(|id| {
                let (rows, sources) = enough(Knob::Chip(id))?;
                let value = start.and_then(|s| s.chip(id)).unwrap_or_else(|| catalog(id));
                Some(Fitted { of: id, value, rows, sources })
            })
            .collect(),
        shares: [Stack::MegatronCore, Stack::MegatronBaseline, Stack::PytorchFsdp]
            .into_iter()
            .filter_map(|stack| {
                let (rows, sources) = enough(Knob::Share(stack))?;
                let value = start.map_or(1.0, |s| s.share(stack));
                Some(Fitted { of: stack, value, rows, sources })
            })
            .collect(),
        family_shares: Vec::new(),
        layer_host: [Stack::MegatronCore, Stack::MegatronBaseline, Stack::PytorchFsdp]
            .into_iter()
            .filter_map(|stack| {
                let (rows, sources) = enough(Knob::LayerHost(stack))?;
                let value = start.map_or(0.0, |s| s.layer_host_s(stack));
                Some(Fitted { of: stack, value, rows, sources })
            })
            .collect(),
        low_precision: {
            let mut families: Vec<&'static str> =
                mine.iter().filter(|c| c.low_precision).filter_map(|c| c.family).collect();
            families.sort_unstable();
            families.dedup();
            families
                .into_iter()
                .filter_map(|family| {
                    let (rows, sources) = enough(Knob::LowPrecision(family))?;
                    let value = start.map_or(1.0, |s| s.low_precision(Some(family)));
                    Some(Fitted { of: family, value, rows, sources })
                })
                .collect()
        },
        moe_host: [Dispatcher::AllToAll, Dispatcher::DeepEp]
            .into_iter()
            .filter_map(|d| {
                let (rows, sources) = enough(Knob::MoeHost(d))?;
                let value = start.map_or(0.0, |s| s.moe_host_s(d));
                Some(Fitted { of: d, value, rows, sources })
            })
            .collect(),
    };
    // A family's own share on a stack, where the stack's fit rows cover several families and
    // this one's hold two plans.
    for f in &figures.shares {
        let mut families: Vec<&'static str> =
            mine.iter().filter(|c| c.stack == f.of).filter_map(|c| c.family).collect();
        families.sort_unstable();
        families.dedup();
        if families.len() < 2 {
            continue;
        }
        for family in families {
            if let Some((rows, sources)) = enough(Knob::FamilyShare(f.of, family)) {
                let value = start.map_or(1.0, |s| s.family_share(f.of, Some(family)));
                figures.family_shares.push(Fitted { of: (f.of, family), value, rows, sources });
            }
        }
    }
    let mut knobs: Vec<Knob> = figures.chips.iter().map(|f| Knob::Chip(f.of)).collect();
    knobs.extend(figures.shares.iter().map(|f| Knob::Share(f.of)));
    knobs.extend(figures.family_shares.iter().map(|f| Knob::FamilyShare(f.of.0, f.of.1)));
    knobs.extend(figures.layer_host.iter().map(|f| Knob::LayerHost(f.of)));
    knobs.extend(figures.low_precision.iter().map(|f| Knob::LowPrecision(f.of)));
    knobs.extend(figures.moe_host.iter().map(|f| Knob::MoeHost(f.of)));
    let moved: Vec<&Case> =
        mine.iter().copied().filter(|c| knobs.iter().any(|k| k.moves(c))).collect();
    let iterations = if start.is_some() { ITERATIONS_LEFT_OUT } else { ITERATIONS };
    levenberg_marquardt(&mut figures, &knobs, iterations, |f| {
        let mut r: Vec<f64> =
            moved.iter().map(|c| time_ratio(&rows[c.row], &with(c, f)).ln()).collect();
        r.extend(knobs.iter().map(|k| k.prior(k.get(f))));
        r
    });
    figures
}

/// Least squares of `residuals` over the knobs' search variables by Levenberg-Marquardt
/// (Gauss-Newton steps damped toward gradient descent, the Jacobian by finite differences),
/// each variable kept in its range: rows move several figures at once (a chip's efficiency and
/// its stack's share), which a search on one figure at a time follows only slowly.
fn levenberg_marquardt(
    figures: &mut Figures,
    knobs: &[Knob],
    iterations: usize,
    residuals: impl Fn(&Figures) -> Vec<f64>,
) {
    let n = knobs.len();
    if n == 0 {
        return;
    }
    let cost = |r: &[f64]| r.iter().map(|x| x * x).sum::<f64>();
    let mut r = residuals(figures);
    let mut damping = 1e-3;
    for _ in 0..iterations {
        // Jacobian, one column per knob.
        let columns: Vec<Vec<f64>> = knobs
            .iter()
            .map(|&k| {
                let x = k.get(figures);
                let h = k.step();
                let mut trial = figures.clone();
                k.set(&mut trial, x + h);
                residuals(&trial).iter().zip(&r).map(|(a, b)| (a - b) / h).collect()
            })
            .collect();
        let jtj: Vec<Vec<f64>> =
            (0..n).map(|i| (0..n).map(|j| dot(&columns[i], &columns[j])).collect()).collect();
        let jtr: Vec<f64> = (0..n).map(|i| dot(&columns[i], &r)).collect();
        let damp = Damping { tries: 8, grow: 10.0, least: 1e-7 };
        let improved = damp.step(&jtj, &jtr, &mut damping, |delta| {
            let mut trial = figures.clone();
            for (k, d) in knobs.iter().zip(delta) {
                let (lo, hi) = k.range();
                k.set(&mut trial, (k.get(figures) + d).clamp(lo, hi));
            }
            let tr = residuals(&trial);
            let better = cost(&tr) < cost(&r);
            if better {
                *figures = trial;
                r = tr;
            }
            better
        });
        if !improved {
            break;
        }
    }
}

/// How a Levenberg-Marquardt iteration damps its step: the steps it tries, the factor the
/// damping grows by after a step that does not lower the cost, and the least damping.
pub(super) struct Damping {
    pub tries: usize,
    pub grow: f64,
    pub least: f64,
}

impl Damping {
    /// Solves the damped normal equations `(jtj + damping · diag(jtj)) δ = −jtr` for steps of
    /// growing damping until `take` accepts one (it lowers the cost); true when one was taken,
    /// the damping then eased for the next iteration.
    pub fn step(
        &self,
        jtj: &[Vec<f64>],
        jtr: &[f64],
        damping: &mut f64,
        mut take: impl FnMut(&[f64]) -> bool,
    ) -> bool {
        for _ in 0..self.tries {
            let mut a = jtj.to_vec();
            for (i, row) in a.iter_mut().enumerate() {
                row[i] += *damping * jtj[i][i].max(1e-9);
            }
            let Some(delta) = solve(a, jtr.iter().map(|x| -x).collect()) else { return false };
            if take(&delta) {
                *damping = (*damping / 3.0).max(self.least);
                return true;
            }
            *damping *= self.grow;
        }
        false
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The solution of `a x = b` by Gaussian elimination with partial pivoting, or `None` when
/// `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            let (top, bottom) = a.split_at_mut(row);
            for (x, y) in bottom[0][col..].iter_mut().zip(&top[col][col..]) {
                *x -= f * y;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    Some(x)
}

/// The figures fitted to every fit source.
pub fn fit(rows: &[Row]) -> Figures {
    fit_cases(rows, &cases(rows), None, None)
}

/// Each outcome's error of the step time (positive: the model is slow) as predicted by a
/// model fitted without the outcome's source, in the order given. Held-out sources are
/// never fitted, so theirs is the model's own error.
pub fn left_out(outcomes: &[Outcome]) -> Vec<f64> {
    let rows: Vec<Row> = outcomes.iter().map(|o| o.row.clone()).collect();
    let cases = cases(&rows);
    let full = fit_cases(&rows, &cases, None, None);
    let mut by_source: BTreeMap<&str, Figures> = BTreeMap::new();
    let mut errors: Vec<f64> = outcomes.iter().map(super::range::time_error).collect();
    for case in &cases {
        let figures = if case.held_out {
            &full
        } else {
            by_source
                .entry(case.source.as_str())
                .or_insert_with(|| fit_cases(&rows, &cases, Some(&case.source), Some(&full)))
        };
        errors[case.row] = time_ratio(&rows[case.row], &with(case, figures)) - 1.0;
    }
    errors
}

/// Every published row's outcome and its error with its source left out, or why the data
/// could not be read.
pub type Judged = Result<(Vec<Outcome>, Vec<f64>), String>;

/// The left-out errors of every published row (`left_out` of `validation::run_all`), worked out
/// once for the life of the program.
pub fn left_out_all() -> &'static Judged {
    static LEFT: OnceLock<Judged> = OnceLock::new();
    LEFT.get_or_init(|| {
        let (_, outcomes) = super::run_all()?;
        let errors = left_out(&outcomes);
        Ok((outcomes, errors))
    })
}

/// The source of `src/model/presets/fitted.rs` for these figures.
pub fn source(figures: &Figures) -> String {
    let list = |sources: &[String]| {
        sources.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ")
    };
    let mut out = String::new();
    out.push_str("//! Figures fitted to the published runs of the fit sources (`data/calibration.json`) by\n");
    out.push_str(
        "//! `validation::fit`; generated, and `tests/it/validation.rs` fails when it is stale\n",
    );
    out.push_str(
        "//! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).\n\n",
    );
    out.push_str("use crate::model::Stack;\n\n");
    out.push_str(
        "/// Each catalog chip's best kernel efficiency (`Chip::matmul_efficiency`, what a tuned\n",
    );
    out.push_str("/// submission reaches), with the rows and sources it was fitted to; a chip with no rows of\n");
    out.push_str(
        "/// its own takes the mean of its family's fitted chips (no rows, the family named).\n",
    );
    out.push_str("pub const CHIP_GEMM: &[(&str, f64, u32, &[&str])] = &[\n");
    for p in presets::CHIPS {
        if let Some(f) = figures.chips.iter().find(|f| f.of == p.id) {
            out.push_str(&format!(
                "    ({:?}, {:.4}, {}, &[{}]),\n",
                f.of,
                f.value,
                f.rows,
                list(&f.sources)
            ));
        } else if let Some(value) = figures.chip(p.id) {
            out.push_str(&format!("    ({:?}, {:.4}, 0, &[{:?}]),\n", p.id, value, p.family));
        }
    }
    out.push_str("];\n\n");
    let row = |of: String, value: String, rows: u32, sources: &[String]| {
        format!("    ({of}, {value}, {rows}, &[{}]),\n", list(sources))
    };
    table(
        &mut out,
        "Each fitted stack's share of the chips' best kernel speed (`Software::kernel_share`), with\n/// the rows and sources it was fitted to.",
        "STACK_KERNEL_SHARE: &[(Stack, f64, u32, &[&str])]",
        figures.shares.iter().map(|f| row(format!("Stack::{:?}", f.of), format!("{:.4}", f.value), f.rows, &f.sources)),
    );
    table(
        &mut out,
        "What a chip family's runs on a stack reach of the stack's share, where they differ, with\n/// the rows and sources it was fitted to.",
        "FAMILY_KERNEL_SHARE: &[(Stack, &str, f64, u32, &[&str])]",
        figures.family_shares.iter().map(|f| {
            row(format!("Stack::{:?}, {:?}", f.of.0, f.of.1), format!("{:.4}", f.value), f.rows, &f.sources)
        }),
    );
    for (name, dispatcher, what) in [
        ("MOE_HOST_S", Dispatcher::AllToAll, "Seconds an MoE layer waits on the host per micro-batch on PyTorch stacks\n/// with the all-to-all dispatcher (`Software::moe_host_s`)"),
        ("MOE_HOST_DEEPEP_S", Dispatcher::DeepEp, "The same with DeepEP's or HybridEP's dispatcher (`Software::moe_host_deepep_s`)"),
    ] {
        out.push_str(&format!("/// {what}, with the rows and sources it was fitted to.\n"));
        match figures.moe_host.iter().find(|f| f.of == dispatcher) {
            Some(f) => out.push_str(&format!(
                "pub const {name}: (f64, u32, &[&str]) = ({:.5}, {}, &[{}]);\n\n",
                f.value,
                f.rows,
                list(&f.sources)
            )),
            None => out.push_str(&format!("pub const {name}: (f64, u32, &[&str]) = (0.0, 0, &[]);\n\n")),
        }
    }
    table(
        &mut out,
        "What each chip family's low-precision GEMMs reach of the model's share for them\n/// (`Software::low_precision_share`), with the rows and sources it was fitted to.",
        "FAMILY_LOW_PRECISION: &[(&str, f64, u32, &[&str])]",
        figures.low_precision.iter().map(|f| row(format!("{:?}", f.of), format!("{:.4}", f.value), f.rows, &f.sources)),
    );
    let last = figures
        .layer_host
        .iter()
        .map(|f| row(format!("Stack::{:?}", f.of), format!("{:.6}", f.value), f.rows, &f.sources));
    table(
        &mut out,
        "Seconds each layer loses per micro-batch to launches on each fitted stack\n/// (`Software::layer_host_s`), with the rows and sources it was fitted to.",
        "LAYER_HOST_S: &[(Stack, f64, u32, &[&str])]",
        last,
    );
    // The file ends with one newline, not the blank line between tables.
    out.pop();
    out
}

/// Appends a generated table: its documentation, `pub const {decl} = &[` and one line a row.
fn table(out: &mut String, doc: &str, decl: &str, rows: impl Iterator<Item = String>) {
    out.push_str(&format!("/// {doc}\n"));
    out.push_str(&format!("pub const {decl} = &[\n"));
    out.extend(rows);
    out.push_str("];\n\n");
}
