//! Published training runs, the model's prediction for each, and the relative error.
//!
//! The runs live in `data/calibration.json` (transcribed from the papers it cites). Each
//! published number is compared in its own paper's convention: Megatron-LM 2021 counts the
//! recomputed forward pass, Korthikanti et al. 2022 state their own model-FLOP formula, the
//! rest use this tool's MFU, hardware TFLOP/s, tokens/s, days or chip-hours.

mod confidence;
pub mod designs;
pub mod fit;
pub mod fleets;
pub mod gaps;
pub mod power;
pub mod range;
pub mod scale;
pub mod series;
pub mod serving;
pub mod serving_fit;
pub mod stats;

pub use confidence::{confidence, published_plan, published_reading, Confidence};
// Generated (`digest_source`); kept as written so the staleness check compares like with like.
#[rustfmt::skip]
pub mod digest;
#[rustfmt::skip]
pub mod serving_digest;

use serde_json::Value;

use crate::model::{self, Estimate, Inputs, Warning};
use crate::scenario::Scenario;

/// The calibration data, embedded so the command-line tool can validate anywhere.
pub const DATA: &str = include_str!("../data/calibration.json");

/// What a published number measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// TFLOP/s per GPU by Narayanan et al. 2021 eq. 3: `96 B s l h^2 (1 + s/6h + V/16lh)`.
    Megatron2021Tflops,
    /// Seconds per iteration.
    IterationS,
    /// MFU by Korthikanti et al. 2022: `72 B s l h^2 (1 + s/6h + V/12lh)` over peak.
    KorthikantiMfu,
    /// This tool's MFU.
    Mfu,
    /// Executed (hardware) TFLOP/s per GPU, recomputation included.
    HfuTflops,
    /// Tokens per second per chip.
    TokensPerSPerChip,
    /// Days of training.
    TrainDays,
    /// Chip-hours of the cluster.
    ChipHours,
}

impl Metric {
    fn parse(name: &str) -> Option<Metric> {
        Some(match name {
            "megatron_2021_tflops" => Metric::Megatron2021Tflops,
            "iteration_s" => Metric::IterationS,
            "korthikanti_mfu" => Metric::KorthikantiMfu,
            "mfu" => Metric::Mfu,
            "hfu_tflops" => Metric::HfuTflops,
            "tokens_per_s_per_chip" => Metric::TokensPerSPerChip,
            "train_days" => Metric::TrainDays,
            "chip_hours" => Metric::ChipHours,
            _ => return None,
        })
    }

    /// A time (the longer the slower) rather than a rate.
    pub fn is_time(self) -> bool {
        matches!(self, Metric::IterationS | Metric::TrainDays | Metric::ChipHours)
    }

    /// Short label with unit.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Megatron2021Tflops => "TFLOP/s/GPU (eq. 3)",
            Metric::IterationS => "s/iteration",
            Metric::KorthikantiMfu => "MFU (paper's formula)",
            Metric::Mfu => "MFU",
            Metric::HfuTflops => "TFLOP/s/GPU (with recompute)",
            Metric::TokensPerSPerChip => "tokens/s/GPU",
            Metric::TrainDays => "days",
            Metric::ChipHours => "GPU-hours",
        }
    }

    /// The metric's value for an estimate of these inputs.
    pub fn of(self, inputs: &Inputs, e: &Estimate) -> f64 {
        let t = &inputs.transformer;
        let (b, s, l, h, v) = (
            inputs.training.global_batch as f64,
            t.seq_len as f64,
            t.n_layers as f64,
            t.hidden as f64,
            t.vocab as f64,
        );
        let chips = e.chips_used.max(1) as f64;
        let per_chip_rate = |flops: f64| flops / e.step_s.max(1e-30) / chips;
        match self {
            Metric::Megatron2021Tflops => {
                let f = 96.0 * b * s * l * h * h * (1.0 + s / (6.0 * h) + v / (16.0 * l * h));
                per_chip_rate(f) / 1e12
            }
            Metric::IterationS => e.step_s,
            Metric::KorthikantiMfu => {
                let f = 72.0 * b * s * l * h * h * (1.0 + s / (6.0 * h) + v / (12.0 * l * h));
                per_chip_rate(f) / inputs.cluster.chip.bf16_flops_per_s.max(1.0)
            }
            Metric::Mfu => e.mfu,
            Metric::HfuTflops => per_chip_rate(e.hardware_flops_per_step) / 1e12,
            Metric::TokensPerSPerChip => e.tokens_per_s / chips,
            Metric::TrainDays => e.train_days,
            Metric::ChipHours => e.chip_hours,
        }
    }
}

/// One published number and the scenario that reproduces its setting.
#[derive(Clone, Debug)]
pub struct Row {
    /// Run id (`megatron-2021`).
    pub run: String,
    /// Run title.
    pub title: String,
    /// The source the run comes from: one paper's table or one repository's benchmark file
    /// (`source_id`). Rows of one source share their stack's habits, so they are fitted and
    /// left out together.
    pub source: String,
    /// Row label.
    pub label: String,
    /// What is measured.
    pub metric: Metric,
    /// Published value.
    pub published: f64,
    /// Allowed relative error.
    pub tolerance: f64,
    /// The plan.
    pub scenario: Scenario,
    /// Why the model is known to miss this row, when it does (the tests check it still does).
    pub known_miss: Option<String>,
    /// Why the model judges this plan, which ran, not to fit in memory (the tests check it
    /// still does not).
    pub known_unfit: Option<String>,
    /// No figure of the model was set from this row: it checks the model, it did not tune it.
    pub held_out: bool,
    /// What the published plan lost to, where the plan search beats it by more than the
    /// model's error (a mechanism with its source; the tests check it still does).
    pub lost_to: Option<String>,
    /// Forward-only passes over as many tokens as a step trains that the published time of a
    /// step includes (`eval_passes`; an MLPerf block's evaluation, logged inside the block),
    /// none by default.
    pub eval_passes: f64,
}

impl Row {
    /// The row's metric for an estimate of these inputs, over steps that include the
    /// evaluation the published figure includes.
    pub fn predict(&self, inputs: &Inputs, e: &Estimate) -> f64 {
        let value = self.metric.of(inputs, e);
        if self.eval_passes <= 0.0 || !(e.step_s > 0.0) {
            return value;
        }
        let stretch = (e.step_s + self.eval_passes * e.forward_s) / e.step_s;
        if self.metric.is_time() {
            value * stretch
        } else {
            value / stretch
        }
    }
}

/// A row with the model's prediction.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The row.
    pub row: Row,
    /// Predicted value in the row's metric.
    pub predicted: f64,
    /// `(predicted - published) / published`.
    pub error: f64,
    /// Problems the estimate raised (a published plan ran, so it should have none).
    pub problems: Vec<Warning>,
    /// Warnings the estimate raised.
    pub warnings: Vec<Warning>,
    /// Memory per chip of the plan as the model allocates it.
    pub memory: model::MemoryUse,
    /// The model's MFU of the plan, and the chips it runs on.
    pub mfu: f64,
    pub chips: u32,
    /// Its GEMMs run in BF16 (an FP8 or FP4 run's MFU over the BF16 peak is not comparable).
    pub bf16: bool,
}

impl Outcome {
    /// The prediction is within the row's tolerance.
    pub fn within(&self) -> bool {
        self.error.abs() <= self.row.tolerance
    }

    /// The MFU the published figure implies: the model's MFU of the plan scaled by how much
    /// faster or slower the run was than the model says (MFU goes as the step's inverse).
    pub fn published_mfu(&self) -> f64 {
        let (p, q) = (self.row.published, self.predicted);
        let ratio = if self.row.metric.is_time() { q / p } else { p / q };
        if ratio.is_finite() && ratio > 0.0 {
            self.mfu * ratio
        } else {
            0.0
        }
    }
}

/// The plan's GEMMs run in BF16, as every MFU of `MFU_FRONTIER` was reached: a plan in FP8 or
/// FP4 counts its MFU over the BF16 peak too, and goes beyond it as a matter of course.
pub fn bf16(inputs: &Inputs) -> bool {
    matches!(inputs.training.recipe, model::Recipe::MegatronBf16 | model::Recipe::TorchAmp)
}

/// The highest MFU a published run shows at a scale: the best of the runs on at least half as
/// many chips (the larger a run, the harder its MFU), with the chips and the run's title.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Published {
    pub mfu: f64,
    pub chips: u32,
    pub title: &'static str,
}

/// The highest MFU any published run shows on at least half of `chips` (`digest::MFU_FRONTIER`),
/// when one does.
pub fn best_published(chips: u32) -> Option<Published> {
    digest::MFU_FRONTIER
        .iter()
        .filter(|(c, ..)| u64::from(*c) * 2 >= u64::from(chips))
        .map(|&(chips, mfu, title)| Published { mfu, chips, title })
        .max_by(|a, b| a.mfu.total_cmp(&b.mfu))
}

/// The frontier of published MFU against scale: going down in chips, each BF16 row whose MFU
/// is above every larger run's (`(chips, mfu, title)`), for `digest::MFU_FRONTIER`.
fn mfu_frontier(outcomes: &[Outcome]) -> Vec<(u32, f64, String)> {
    let mut rows: Vec<(u32, f64, String)> = outcomes
        .iter()
        .filter(|o| o.bf16 && o.chips > 0 && o.published_mfu() > 0.0)
        .map(|o| (o.chips, o.published_mfu(), o.row.title.clone()))
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut best = 0.0;
    rows.retain(|(_, mfu, _)| {
        let above = *mfu > best;
        best = best.max(*mfu);
        above
    });
    rows
}

/// A published run with its sources and assumptions.
#[derive(Clone, Debug)]
pub struct Run {
    /// Run id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Sources.
    pub source: String,
    /// Settings the sources do not give, and what was chosen.
    pub assumed: String,
}

/// Every run and row in the calibration data.
pub fn load() -> Result<(Vec<Run>, Vec<Row>), String> {
    let data: Value = serde_json::from_str(DATA).map_err(|e| format!("calibration data: {e}"))?;
    let mut runs = Vec::new();
    let mut rows = Vec::new();
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    for run in data.get("runs").and_then(Value::as_array).into_iter().flatten() {
        let id = text(run, "id");
        let source = text(run, "source_id");
        if source.is_empty() {
            return Err(format!("{id}: no source_id"));
        }
        runs.push(Run {
            id: id.clone(),
            title: text(run, "title"),
            source: text(run, "source"),
            assumed: text(run, "assumed"),
        });
        let base = run.get("base").cloned().unwrap_or(Value::Null);
        for row in run.get("rows").and_then(Value::as_array).into_iter().flatten() {
            let mut scenario = base.clone();
            crate::scenario::merge(&mut scenario, row.get("set").unwrap_or(&Value::Null));
            let label = text(row, "label");
            let metric_name = text(row, "metric");
            let metric = Metric::parse(&metric_name)
                .ok_or_else(|| format!("{id} {label}: unknown metric '{metric_name}'"))?;
            let number = |k: &str| {
                row.get(k).and_then(Value::as_f64).ok_or_else(|| format!("{id} {label}: no {k}"))
            };
            let scenario =
                Scenario::from_value(scenario).map_err(|e| format!("{id} {label}: {e}"))?;
            let note = |k: &str| row.get(k).and_then(Value::as_str).map(str::to_string);
            let held_out = run.get("held_out").and_then(Value::as_bool).unwrap_or(false);
            let published = number("published")?;
            let tolerance = number("tolerance")?;
            rows.push(Row {
                run: id.clone(),
                title: text(run, "title"),
                source: source.clone(),
                label,
                metric,
                published,
                tolerance,
                scenario,
                known_miss: note("known_miss"),
                known_unfit: note("known_unfit"),
                held_out,
                lost_to: run.get("lost_to").and_then(Value::as_str).map(str::to_string),
                eval_passes: row.get("eval_passes").and_then(Value::as_f64).unwrap_or(0.0),
            });
        }
    }
    // A source is fitted or held out as a whole.
    for row in &rows {
        if rows.iter().any(|other| other.source == row.source && other.held_out != row.held_out) {
            return Err(format!(
                "{}: some runs of source {} are held out, others not",
                row.run, row.source
            ));
        }
    }
    Ok((runs, rows))
}

/// What the calibration covers: the chip presets whose efficiency figures were checked
/// against a published run, and the largest cluster validated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    /// Chip preset ids used by at least one row.
    pub chips: Vec<String>,
    /// The most chips any row used.
    pub max_chips: u32,
}

/// The calibration data as read: every run and row, or why it could not be read.
pub type Loaded = Result<(Vec<Run>, Vec<Row>), String>;

/// Every run and row, parsed once for the life of the program (the page asks on every render).
pub fn loaded() -> &'static Loaded {
    static LOADED: std::sync::OnceLock<Loaded> = std::sync::OnceLock::new();
    LOADED.get_or_init(load)
}

/// The calibration's coverage, from the digest (`coverage_of` the rows, kept current by
/// `tests/it/validation.rs`).
pub fn coverage() -> Coverage {
    Coverage {
        chips: digest::CALIBRATED_CHIPS.iter().map(|c| c.to_string()).collect(),
        max_chips: digest::MAX_VALIDATED_CHIPS,
    }
}

/// How far the model's error moves between plans of one published run: the deviation of the
/// rows' errors around their run's mean (`range::Pooled::within_run`). Plans of one workload
/// on one cluster share their run's bias, so the plan search calls plans this close to the
/// best equivalent to it: the model cannot tell them apart. (The mean error over every row
/// mixes in the differences between chip families and stacks, which two plans of one cluster
/// do not have.)
pub fn model_error() -> f64 {
    digest::POOLED.within_run
}

/// Predicts one row.
pub fn check(row: &Row) -> Result<Outcome, String> {
    let inputs = row.scenario.resolve().map_err(|errors| {
        let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        format!("{} {}: {}", row.run, row.label, list.join("; "))
    })?;
    let e = model::estimate(&inputs);
    let predicted = row.predict(&inputs, &e);
    let error = (predicted - row.published) / row.published;
    Ok(Outcome {
        row: row.clone(),
        predicted,
        error,
        problems: e.problems,
        warnings: e.warnings,
        memory: e.memory,
        mfu: e.mfu,
        chips: e.chips_used,
        bf16: bf16(&inputs),
    })
}

/// Every row's outcome.
pub fn run_all() -> Result<(Vec<Run>, Vec<Outcome>), String> {
    let (runs, rows) = load()?;
    let outcomes = rows.iter().map(check).collect::<Result<Vec<_>, _>>()?;
    Ok((runs, outcomes))
}

/// The headline of the accuracy report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Rows compared.
    pub rows: usize,
    /// Rows within their tolerance.
    pub within: usize,
    /// Mean absolute relative error.
    pub mean_abs_error: f64,
    /// Largest absolute relative error.
    pub worst_abs_error: f64,
}

impl Summary {
    /// The headline of these outcomes.
    pub fn of(outcomes: &[Outcome]) -> Summary {
        let n = outcomes.len().max(1) as f64;
        Summary {
            rows: outcomes.len(),
            within: outcomes.iter().filter(|o| o.within()).count(),
            mean_abs_error: outcomes.iter().map(|o| o.error.abs()).sum::<f64>() / n,
            worst_abs_error: outcomes.iter().map(|o| o.error.abs()).fold(0.0, f64::max),
        }
    }
}

/// "`title`: 34 of 40 rows within tolerance; mean absolute error 6.0%, worst 23.0%".
fn headline(title: &str, outcomes: &[Outcome]) -> String {
    let s = Summary::of(outcomes);
    format!(
        "{title}: {} of {} rows within tolerance; mean absolute error {:.1}%, worst {:.1}%",
        s.within,
        s.rows,
        100.0 * s.mean_abs_error,
        100.0 * s.worst_abs_error
    )
}

/// A value of `metric` as the report prints it.
pub fn show(metric: Metric, x: f64) -> String {
    fmt_value(metric, x)
}

fn fmt_value(metric: Metric, x: f64) -> String {
    match metric {
        Metric::Mfu | Metric::KorthikantiMfu => format!("{:.1}%", 100.0 * x),
        Metric::IterationS => format!("{x:.2}"),
        Metric::ChipHours => format!("{:.0}", x),
        Metric::TrainDays => format!("{x:.1}"),
        _ => format!("{x:.0}"),
    }
}

/// The accuracy report as Markdown (what `clusterplan validate` prints and docs/accuracy.md holds).
/// `left` holds each outcome's time error with its source left out (`fit::left_out`).
pub fn markdown(runs: &[Run], outcomes: &[Outcome], left: &[f64]) -> String {
    let mut out = String::new();
    let points = range::points(outcomes, left);
    let known: Vec<&Outcome> = outcomes.iter().filter(|o| o.row.known_miss.is_some()).collect();
    out.push_str("# Accuracy against published training runs\n\n");
    out.push_str("Generated by `cargo run --release --bin clusterplan -- validate`; `tests/it/validation.rs` fails if this file is stale, if a group's errors regress past the figures it states, if a row leaves its tolerance without a note, or if a row documented below as outside it comes within (so its explanation is removed).\n");
    out.push_str("Every row is predicted from the mechanisms in `src/model/`; nothing is fitted to a single row.\n\n");
    out.push_str(&protocol_markdown(outcomes));
    out.push_str(&groups_markdown(&points));
    out.push_str(&gaps_markdown());
    out.push_str(&ranges_markdown(&points));
    out.push_str(&series_markdown(outcomes, left));
    out.push_str(&scale::markdown(&points));
    out.push_str(&format!(
        "\n## Every row\n\n{}.\n",
        headline("All rows, as predicted with every fit source", outcomes)
    ));
    if !known.is_empty() {
        out.push_str(&format!(
            "{} rows are outside their tolerance, for the reasons given below the tables.\n",
            known.len()
        ));
    }
    out.push_str("The error is the row's own metric's; *left out* is the step time's error with the row's source left out of the fit (positive: the model is slow), the same as the model's own for a held-out source.\n");
    type Judged<'a> = Vec<(&'a Outcome, f64)>;
    let (held, calibration): (Judged, Judged) =
        outcomes.iter().zip(left.iter().copied()).partition(|(o, _)| o.row.held_out);
    let _ = runs;
    for (title, part) in [("Fit sources", &calibration), ("Held-out sources", &held)] {
        let mine: Vec<Outcome> = part.iter().map(|(o, _)| (*o).clone()).collect();
        out.push_str(&format!("\n### {title}\n\n{}.\n\n", headline(title, &mine)));
        out.push_str("| source | run | row | metric | published | predicted | error | tolerance | ok | left out |\n");
        out.push_str("|---|---|---|---|---:|---:|---:|---:|:-:|---:|\n");
        for (o, loso) in part {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {:+.1}% | ±{:.0}% | {} | {:+.1}% |\n",
                o.row.source,
                o.row.run,
                o.row.label,
                o.row.metric.label(),
                fmt_value(o.row.metric, o.row.published),
                fmt_value(o.row.metric, o.predicted),
                100.0 * o.error,
                100.0 * o.row.tolerance,
                if o.within() { "yes" } else { "**no**" },
                100.0 * loso,
            ));
        }
    }
    let noted = |note: fn(&Row) -> Option<&str>, figure: fn(&Outcome) -> String| {
        outcomes
            .iter()
            .filter_map(|o| {
                let why = note(&o.row)?;
                Some(format!("- **{} {}** ({}): {why}\n", o.row.run, o.row.label, figure(o)))
            })
            .collect::<String>()
    };
    let misses = noted(|r| r.known_miss.as_deref(), |o| format!("{:+.1}%", 100.0 * o.error));
    if !misses.is_empty() {
        out.push_str("\n## Rows outside tolerance\n\n");
        out.push_str(&misses);
    }
    let unfit = noted(
        |r| r.known_unfit.as_deref(),
        |o| {
            let gib = |b: f64| b / crate::model::presets::units::GIB;
            format!("{:.1} of {:.1} GiB", gib(o.memory.peak_bytes), gib(o.memory.hbm_bytes))
        },
    );
    if !unfit.is_empty() {
        out.push_str("\n## Published plans judged not to fit\n\n");
        out.push_str("These plans ran, but the model's memory per chip exceeds the chip's; their step times are still predicted as published.\n\n");
        out.push_str(&unfit);
    }
    let mut lost: Vec<(&str, &str)> = Vec::new();
    for o in outcomes {
        if let Some(why) = o.row.lost_to.as_deref() {
            if !lost.iter().any(|(run, _)| *run == o.row.run) {
                lost.push((&o.row.run, why));
            }
        }
    }
    if !lost.is_empty() {
        out.push_str("\n## Published plans the search beats by more than the model's error\n\n");
        out.push_str("On every other published plan the search checks, its best plan is no faster than the published plan's range allows (`tests/it/search.rs`).\n\n");
        for (run, why) in lost {
            out.push_str(&format!("- **{run}**: {why}\n"));
        }
    }
    out.push_str(&designs::markdown());
    out.push_str(&fleets::markdown());
    out.push_str(&power::markdown());
    match serving::run() {
        Ok((sources, served)) => out.push_str(&serving::markdown(&sources, &served)),
        Err(e) => out.push_str(&format!("\n## Serving\n\nThe serving data does not load: {e}.\n")),
    }
    out.push_str("\n## Sources and assumptions\n\n");
    for run in runs {
        out.push_str(&format!(
            "- **{}** ({}): {}\n  Assumed: {}\n",
            run.id, run.title, run.source, run.assumed
        ));
    }
    out
}

/// The sources, which set the fitted figures and which are held out, as Markdown.
fn protocol_markdown(outcomes: &[Outcome]) -> String {
    let mut fitted: Vec<&str> = Vec::new();
    let mut held: Vec<&str> = Vec::new();
    for o in outcomes {
        let list = if o.row.held_out { &mut held } else { &mut fitted };
        if !list.contains(&o.row.source.as_str()) {
            list.push(&o.row.source);
        }
    }
    let figures = fit::fit(&outcomes.iter().map(|o| o.row.clone()).collect::<Vec<_>>());
    let mut out = String::from("## How the model is judged\n\n");
    out.push_str("Rows are grouped by **source**: one paper's table or one repository's benchmark file (`source_id` in `data/calibration.json`), whose rows share their stack's habits.\n");
    out.push_str(&format!(
        "{} sources with {} rows: {} fit sources set the fitted figures (`src/model/presets/fitted.rs`, by `src/validation/fit.rs`), {} sources are held out of every fit.\n",
        fitted.len() + held.len(),
        outcomes.len(),
        fitted.len(),
        held.len()
    ));
    out.push_str("Every error below is a row's error with its **whole source left out** of the fit: a fit source's rows are predicted with the figures fitted to the other fit sources, a held-out source's with the figures of every fit source.\n\n");
    out.push_str(&format!("- Fit sources: {}.\n", fitted.join(", ")));
    out.push_str(&format!("- Held-out sources: {}.\n", held.join(", ")));
    let mut set: Vec<String> = figures
        .chips
        .iter()
        .map(|f| {
            format!(
                "{} kernel efficiency {:.3} ({} rows of {} sources)",
                f.of,
                f.value,
                f.rows,
                f.sources.len()
            )
        })
        .collect();
    set.extend(figures.shares.iter().map(|f| {
        let code = crate::scenario::fields::PARALLELISM_STACK.code(f.of);
        format!(
            "{code} kernel share {:.3} ({} rows of {} sources)",
            f.value,
            f.rows,
            f.sources.len()
        )
    }));
    set.extend(figures.moe_host.iter().map(|f| {
        let code = crate::scenario::fields::PARALLELISM_DISPATCHER.code(f.of);
        format!(
            "the MoE layer's host wait with the {code} dispatcher {:.1} ms per micro-batch ({} rows of {} sources)",
            1e3 * f.value,
            f.rows,
            f.sources.len()
        )
    }));
    set.extend(figures.family_shares.iter().map(|f| {
        let code = crate::scenario::fields::PARALLELISM_STACK.code(f.of.0);
        format!(
            "{} on {code} {:.3} of the stack's share ({} rows of {} sources)",
            f.of.1,
            f.value,
            f.rows,
            f.sources.len()
        )
    }));
    set.extend(figures.low_precision.iter().map(|f| {
        format!(
            "{} low-precision GEMMs {:.3} of the model's share ({} rows of {} sources)",
            f.of,
            f.value,
            f.rows,
            f.sources.len()
        )
    }));
    set.extend(figures.layer_host.iter().map(|f| {
        let code = crate::scenario::fields::PARALLELISM_STACK.code(f.of);
        format!(
            "{code} launches {:.2} ms per layer and micro-batch ({} rows of {} sources)",
            1e3 * f.value,
            f.rows,
            f.sources.len()
        )
    }));
    out.push_str(&format!("- Fitted: {}.\n", set.join("; ")));
    out
}

/// Median and 90th percentile of the absolute values of `xs`.
pub fn abs_quantiles(xs: &[f64]) -> (f64, f64) {
    let mut a: Vec<f64> = xs.iter().map(|x| x.abs()).collect();
    a.sort_by(f64::total_cmp);
    let at = |q: f64| {
        if a.is_empty() {
            return 0.0;
        }
        let i = q * (a.len() - 1) as f64;
        let (lo, hi) = (i.floor() as usize, i.ceil() as usize);
        a[lo] + (a[hi] - a[lo]) * (i - lo as f64)
    };
    (at(0.5), at(0.9))
}

/// The errors by chip family, software stack and kind of model, each source left out, as
/// Markdown.
fn groups_markdown(points: &[range::Point]) -> String {
    let mut out = String::from("\n## Error by chip family, software stack and kind of model\n\n");
    out.push_str("The step time's error of each row with its source left out (positive: the model is slow; negative: it is optimistic, the time it promises is shorter than the run took).\n\n");
    out.push_str("| chip family | stack | model | sources | runs | rows | signed mean | median abs. | p90 abs. | within ±10% | most chips |\n");
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    let row = |label: (&str, &str, &str), mine: &[&range::Point]| {
        let s = range::stats(mine);
        let errors: Vec<f64> = mine.iter().map(|p| p.error).collect();
        let (median, p90) = abs_quantiles(&errors);
        let within = errors.iter().filter(|e| e.abs() <= 0.1).count();
        format!(
            "| {} | {} | {} | {} | {} | {} | {:+.1}% | {:.1}% | {:.1}% | {} | {} |\n",
            label.0,
            label.1,
            label.2,
            s.sources,
            s.runs,
            s.rows,
            100.0 * s.mean,
            100.0 * median,
            100.0 * p90,
            within,
            crate::numbers::format(s.max_chips as f64)
        )
    };
    for (r, _) in range::regimes(points) {
        let mine: Vec<&range::Point> = points.iter().filter(|p| p.regime == r).collect();
        out.push_str(&row((&r.family, r.stack, if r.moe { "MoE" } else { "dense" }), &mine));
    }
    for (kind, moe) in [("dense", false), ("MoE", true)] {
        let mine: Vec<&range::Point> = points.iter().filter(|p| p.regime.moe == moe).collect();
        out.push_str(&row(("all", "all", kind), &mine));
    }
    let all: Vec<&range::Point> = points.iter().collect();
    out.push_str(&row(("all", "all", "all"), &all));
    let p = range::pooled(points);
    out.push_str(&format!(
        "\nThe families' means spread by {:.1}%; the error drifts by {:.1}% per doubling of the chips.\n",
        100.0 * p.between_families,
        100.0 * p.drift_per_doubling
    ));
    out
}

/// Each strong-scaling series and its error's slope per doubling of the chips, as Markdown.
fn series_markdown(outcomes: &[Outcome], left: &[f64]) -> String {
    let all = series::series(outcomes, left);
    let meet = all.iter().filter(|s| s.slope.abs() <= series::SLOPE_TARGET).count();
    let mut out = String::from("\n## Strong scaling\n\n");
    out.push_str("A series is one model on one chip at chip counts at least a doubling apart, from one published run. A constant error along it is the chip's or the stack's efficiency; an error that moves with the chips is a cost the model grows differently from the run.\n");
    out.push_str(&format!(
        "The target: the step time's error, each source left out, moves by at most ±{:.0}% per doubling of the chips (its least-squares slope against log2 of the chips). {meet} of {} series meet it; `tests/it/validation.rs` fails when a listed slope grows, when another series misses the target, or when a listed one meets it (`src/validation/series.rs`).\n\n",
        100.0 * series::SLOPE_TARGET,
        all.len()
    ));
    out.push_str(
        "| run | chip | model | rows | chips | error per doubling | what the model lacks |\n",
    );
    out.push_str("|---|---|---|---:|---:|---:|---|\n");
    for s in &all {
        let why = series::drift_of(s).map_or("", |d| d.why);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {}-{} | {:+.1}% | {} |\n",
            s.run,
            s.chip,
            s.model,
            s.rows,
            crate::numbers::format(s.chips.0 as f64),
            crate::numbers::format(s.chips.1 as f64),
            100.0 * s.slope,
            why
        ));
    }
    out
}

/// The targets and the groups that miss them, as Markdown.
fn gaps_markdown() -> String {
    let t = gaps::TARGETS;
    let mut out = String::from("\n## Targets and where they are missed\n\n");
    out.push_str(&format!(
        "On every group with at least {} runs the signed mean error is to be within ±{:.0}% and the median absolute error within {:.0}% ({:.0}% for mixtures of experts, and over every MoE row).\n",
        t.runs,
        100.0 * t.mean,
        100.0 * t.median,
        100.0 * t.moe_median
    ));
    out.push_str("These groups miss them; `tests/it/validation.rs` fails when one grows past the figures given here, when another group misses them, or when one of these meets them (`src/validation/gaps.rs`).\n\n");
    out.push_str(
        "| chip family | stack | model | signed mean | median abs. | what the model lacks |\n",
    );
    out.push_str("|---|---|---|---:|---:|---|\n");
    for g in gaps::GAPS {
        out.push_str(&format!(
            "| {} | {} | {} | {:+.1}% | {:.1}% | {} |\n",
            g.family,
            g.stack,
            if g.moe { "MoE" } else { "dense" },
            100.0 * g.mean,
            100.0 * g.median,
            g.why
        ));
    }
    out
}

/// How often the ranges hold, as Markdown.
fn ranges_markdown(points: &[range::Point]) -> String {
    let mut out = String::from("\n## Ranges\n\n");
    out.push_str("Every headline carries a range, its 10th to 90th percentile: about four in five published values should fall inside their range.\n");
    out.push_str("A plan's range is centred on its group's mean error with the source left out, spread by its errors around that centre, and drawn toward its nearest groups (the same stack and kind on other chips, then every plan of its kind) the fewer sources it has (`src/validation/range.rs`).\n");
    out.push_str("Each row below is judged by the range the other sources give it: its own source left out of the fit and of the range's statistics.\n\n");
    let share = |hit: usize, rows: usize| 100.0 * hit as f64 / rows.max(1) as f64;
    let (held_hit, held_rows) = range::coverage(points, |p| p.held_out);
    let (all_hit, all_rows) = range::coverage(points, |_| true);
    out.push_str(&format!(
        "- Rows of held-out sources: {held_hit} of {held_rows} inside their range ({:.0}%).\n- All rows: {all_hit} of {all_rows} inside their range ({:.0}%).\n",
        share(held_hit, held_rows),
        share(all_hit, all_rows)
    ));
    out.push_str(&range_widths_markdown(points));
    out
}

/// How wide the ranges are, group by group, and how often they hold, as Markdown: each row
/// judged by the range the other sources give it, as `ranges_markdown` counts them.
fn range_widths_markdown(points: &[range::Point]) -> String {
    let standardized = range::standardized(points);
    let judged: Vec<(&range::Point, bool, f64)> = points
        .iter()
        .map(|p| {
            (
                p,
                range::covers(p, points, &standardized),
                range::half_width(p, points, &standardized),
            )
        })
        .collect();
    let median = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        match xs.len() {
            0 => 0.0,
            n if n % 2 == 1 => xs[n / 2],
            n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
        }
    };
    let line = |label: String, rows: &[&(&range::Point, bool, f64)]| {
        let held: Vec<_> = rows.iter().filter(|(p, ..)| p.held_out).collect();
        let inside = |rows: &[&&(&range::Point, bool, f64)]| {
            let hit = rows.iter().filter(|(_, inside, _)| *inside).count();
            format!("{hit} of {}", rows.len())
        };
        let width = |rows: &[&&(&range::Point, bool, f64)]| match rows {
            [] => "—".to_string(),
            _ => format!("±{:.0}%", 100.0 * median(rows.iter().map(|(.., w)| *w).collect())),
        };
        let all: Vec<_> = rows.iter().collect();
        format!(
            "| {label} | {} | {} | {} | {} | {} |\n",
            distinct_sources(rows.iter().map(|(p, ..)| p.source.as_str())),
            inside(&all),
            inside(&held),
            width(&all),
            width(&held),
        )
    };
    let mut out = String::from("\nHow wide the ranges are: the median half-width, as a share of the estimate, of the range each row is judged by, and how many rows that range holds, by group and over all rows. A group one or two sources validate takes its width from the wider groups around it.\n\n");
    out.push_str("| chip family | stack | model | sources | inside, all rows | inside, held-out rows | median half-width | median half-width, held out |\n");
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|\n");
    let mut regimes: Vec<&range::Regime> = Vec::new();
    for (p, ..) in &judged {
        if !regimes.contains(&&p.regime) {
            regimes.push(&p.regime);
        }
    }
    regimes.sort_by(|a, b| (&a.family, a.stack, a.moe).cmp(&(&b.family, b.stack, b.moe)));
    for regime in regimes {
        let rows: Vec<_> = judged.iter().filter(|(p, ..)| &p.regime == regime).collect();
        let kind = if regime.moe { "MoE" } else { "dense" };
        out.push_str(&line(format!("{} | {} | {kind}", regime.family, regime.stack), &rows));
    }
    for (kind, moe) in [("dense", Some(false)), ("MoE", Some(true)), ("all", None)] {
        let rows: Vec<_> =
            judged.iter().filter(|(p, ..)| moe.is_none_or(|m| p.regime.moe == m)).collect();
        out.push_str(&line(format!("all | all | {kind}"), &rows));
    }
    out
}

/// How many different sources `sources` names.
fn distinct_sources<'a>(sources: impl Iterator<Item = &'a str>) -> usize {
    let mut seen: Vec<&str> = sources.collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// Each model preset's published plan: the calibration row at the largest scale that uses the
/// preset, from the fit sources first (the runs the model's figures rest on, the model
/// makers' own among them; a held-out source's run is offered where no fit source has one),
/// preferring one that keeps the preset's own dimensions, as (preset id, run title, scenario).
pub fn published_plans(rows: &[Row]) -> Vec<(&'static str, String, Scenario)> {
    crate::model::presets::TRANSFORMERS
        .iter()
        .filter_map(|preset| {
            let using = rows.iter().filter(|row| {
                row.scenario
                    .raw(crate::scenario::paths::MODEL_PRESET)
                    .and_then(|v| v.as_str().map(str::to_string))
                    == Some(preset.id.to_string())
            });
            let key = |row: &&Row| {
                let chips = row
                    .scenario
                    .raw(&crate::scenario::fields::CLUSTER_CHIPS)
                    .and_then(|v| v.as_u64())
                    .unwrap_or(0);
                let changed =
                    row.scenario.get("model").and_then(|m| m.as_object().map(|m| m.len()));
                (!row.held_out, chips, std::cmp::Reverse(changed.unwrap_or(0)))
            };
            let row = using.max_by_key(key)?;
            Some((preset.id, row.title.clone(), row.scenario.clone()))
        })
        .collect()
}

/// What the calibration rows cover.
pub fn coverage_of(rows: &[Row]) -> Coverage {
    let mut coverage = Coverage::default();
    for row in rows {
        let id = match row.scenario.chip_ref() {
            crate::scenario::ChipRef::Preset(id)
            | crate::scenario::ChipRef::Custom { preset: Some(id), .. } => Some(id),
            _ => None,
        };
        if let Some(id) = id {
            if !coverage.chips.iter().any(|c| c == id) {
                coverage.chips.push(id.to_string());
            }
        }
        let chips = row
            .scenario
            .raw(&crate::scenario::fields::CLUSTER_CHIPS)
            .and_then(|v| v.as_u64())
            .unwrap_or(0);
        coverage.max_chips = coverage.max_chips.max(chips.min(u32::MAX as u64) as u32);
    }
    coverage
}

/// The source of `src/validation/digest.rs`: what the page needs of the calibration, so it
/// does not carry the whole file (`tests/it/validation.rs` keeps it current).
pub fn digest_source(rows: &[Row], outcomes: &[Outcome], left: &[f64]) -> String {
    let coverage = coverage_of(rows);
    let s = Summary::of(outcomes);
    let quote = |text: &str| format!("{text:?}");
    let mut out = String::new();
    out.push_str(
        "//! What the page needs of `data/calibration.json`, so it does not carry the file: the\n",
    );
    out.push_str("//! chips a published run calibrates, the largest validated cluster, the accuracy headline,\n");
    out.push_str(
        "//! each model preset's published plan, and the model's errors by regime for the ranges\n",
    );
    out.push_str("//! (`range`). Written by `validation::digest_source`;\n");
    out.push_str(
        "//! `tests/it/validation.rs` fails when it is stale (`UPDATE_ACCURACY=1 cargo test --test\n",
    );
    out.push_str("//! it validation::` rewrites it with docs/accuracy.md).\n\n");
    out.push_str("use super::stats::{Digested, Pooled, Stats};\n\n");
    out.push_str(
        "/// Chip presets whose efficiency figures were checked against a published run.\n",
    );
    let chips: Vec<String> = coverage.chips.iter().map(|c| quote(c)).collect();
    out.push_str(&format!("pub const CALIBRATED_CHIPS: &[&str] = &[{}];\n\n", chips.join(", ")));
    out.push_str("/// The most chips any published run used.\n");
    out.push_str(&format!("pub const MAX_VALIDATED_CHIPS: u32 = {};\n\n", coverage.max_chips));
    let left_points = range::points(outcomes, left);
    let judged: Vec<&range::Point> = left_points.iter().collect();
    let all = range::stats(&judged);
    let (median, _) = abs_quantiles(left);
    let (inside, judged_rows) = range::coverage(&left_points, |_| true);
    out.push_str(
        "/// Over every row, each predicted with its source left out of the fit: rows, sources,\n",
    );
    out.push_str(
        "/// the median absolute error of the step time, and the share inside their ranges.\n",
    );
    out.push_str(&format!(
        "pub const LEFT_OUT: (u32, u32, f64, f64) = ({}, {}, {:?}, {:?});\n\n",
        all.rows,
        all.sources,
        median,
        inside as f64 / judged_rows.max(1) as f64
    ));
    out.push_str("/// Rows within tolerance, rows, and the mean absolute error, over every row.\n");
    out.push_str(&format!(
        "pub const SUMMARY: (usize, usize, f64) = ({}, {}, {:?});\n\n",
        s.within, s.rows, s.mean_abs_error
    ));
    out.push_str(
        "/// Each model preset's published plan: (preset id, run title, scenario JSON, the model's\n",
    );
    out.push_str(
        "/// step time's error on it (positive: slow), why the model misses it where it does).\n",
    );
    out.push_str("pub const PUBLISHED_PLANS: &[(&str, &str, &str, f64, &str)] = &[\n");
    for (id, title, scenario) in published_plans(rows) {
        let outcome = outcomes.iter().find(|o| o.row.scenario == scenario);
        let error = outcome.map_or(0.0, range::time_error);
        let miss = outcome.and_then(|o| o.row.known_miss.clone()).unwrap_or_default();
        out.push_str(&format!(
            "    ({}, {}, {}, {error:?}, {}),\n",
            quote(id),
            quote(&title),
            quote(&scenario.to_json()),
            quote(&miss)
        ));
    }
    out.push_str("];\n\n");
    out.push_str(
        "/// The highest MFU published runs show against scale: (chips, MFU, run), each above every\n",
    );
    out.push_str("/// larger run's (`validation::best_published`).\n");
    out.push_str("pub const MFU_FRONTIER: &[(u32, f64, &str)] = &[\n");
    for (chips, mfu, title) in mfu_frontier(outcomes) {
        out.push_str(&format!("    ({chips}, {mfu:?}, {}),\n", quote(&title)));
    }
    out.push_str("];\n\n");
    let points = range::points(outcomes, left);
    out.push_str("/// The model's time errors by regime (`stats::Stats`).\n");
    out.push_str("pub const REGIMES: &[Digested] = &[\n");
    for (r, s) in range::regimes(&points) {
        out.push_str(&format!(
            "    Digested {{ family: {}, stack: {}, moe: {}, stats: Stats {{ sources: {}, runs: {}, runs_within: {}, rows: {}, mean: {:?}, sd: {:?}, max_chips: {} }} }},\n",
            quote(&r.family),
            quote(r.stack),
            r.moe,
            s.sources,
            s.runs,
            s.runs_within,
            s.rows,
            s.mean,
            s.sd,
            s.max_chips
        ));
    }
    out.push_str("];\n\n");
    let mut p = range::pooled(&points);
    p.width = range::width(&range::standardized(&points));
    out.push_str("/// Over every row (`stats::Pooled`).\n");
    out.push_str(&format!(
        "pub const POOLED: Pooled = Pooled {{ rows: {}, mean: {:?}, sd: {:?}, between_families: {:?}, drift_per_doubling: {:?}, within_run: {:?}, width: {:?} }};\n",
        p.rows, p.mean, p.sd, p.between_families, p.drift_per_doubling, p.within_run, p.width
    ));
    out
}
