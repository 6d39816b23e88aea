//! The serving model against published serving measurements (`data/serving.json`), grouped by
//! source: MLPerf Inference rounds, an engine's benchmark tables, labs' deployments of MoE
//! models with prefill and decode apart. No constant of `model::serving` is fitted to these
//! rows; each source is marked calibration (the mechanisms were chosen while looking at it) or
//! held out (reported only), and the range on serving's headlines comes from the held-out
//! sources' errors alone, each source weighing the same however many rows it has.

use serde_json::Value;

use crate::model::serving::ServingEstimate;
use crate::scenario::Scenario;

/// The published serving measurements, embedded so the command-line tool validates anywhere.
pub const DATA: &str = include_str!("../../data/serving.json");

/// A figure of the serving estimate a measurement is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Output tokens per second per chip at the targets, at full load.
    Decode,
    /// The same at the planned load (a server scenario's sustained rate).
    DecodeAtLoad,
    /// Output tokens per second per chip of a decode instance alone.
    DecodePool,
    /// Prompt tokens per second per chip of a prefill instance alone.
    PrefillPool,
}

impl Metric {
    fn parse(name: &str) -> Option<Metric> {
        Some(match name {
            "decode_tokens_per_s_per_chip" => Metric::Decode,
            "decode_tokens_per_s_per_chip_at_load" => Metric::DecodeAtLoad,
            "decode_pool_tokens_per_s_per_chip" => Metric::DecodePool,
            "prefill_pool_tokens_per_s_per_chip" => Metric::PrefillPool,
            _ => return None,
        })
    }

    /// The key of the figure, as `predict` prints it.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Decode => "decode_tokens_per_s_per_chip",
            Metric::DecodeAtLoad => "decode_tokens_per_s_per_chip_at_load",
            Metric::DecodePool => "decode_pool_tokens_per_s_per_chip",
            Metric::PrefillPool => "prefill_pool_tokens_per_s_per_chip",
        }
    }

    fn of(self, e: &ServingEstimate) -> f64 {
        match self {
            Metric::Decode => e.decode_tokens_per_s_per_chip,
            Metric::DecodeAtLoad => e.decode_tokens_per_s_per_chip_at_load,
            Metric::DecodePool => e.decode_pool_tokens_per_s_per_chip,
            Metric::PrefillPool => e.prefill_pool_tokens_per_s_per_chip,
        }
    }
}

/// One source of measurements.
#[derive(Clone, Debug)]
pub struct Source {
    pub id: String,
    pub title: String,
    pub url: String,
    pub firmness: String,
    pub held_out: bool,
}

/// One measurement and the model's figure for it.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Index into the sources.
    pub source: usize,
    pub id: String,
    pub metric: Metric,
    pub measured: f64,
    pub predicted: f64,
    /// The chip's catalogue id.
    pub chip: String,
}

impl Outcome {
    /// `predicted / measured - 1`: negative when the model promises less than was measured.
    pub fn error(&self) -> f64 {
        self.predicted / self.measured.max(f64::MIN_POSITIVE) - 1.0
    }
}

/// Every source and the outcome of each of its rows, or why the data does not load.
pub fn run() -> Result<(Vec<Source>, Vec<Outcome>), String> {
    let data: Value = serde_json::from_str(DATA).map_err(|e| format!("data/serving.json: {e}"))?;
    let mut sources = Vec::new();
    let mut outcomes = Vec::new();
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    for (i, s) in data["sources"].as_array().into_iter().flatten().enumerate() {
        sources.push(Source {
            id: text(s, "id"),
            title: text(s, "title"),
            url: text(s, "url"),
            firmness: text(s, "firmness"),
            held_out: text(s, "role") == "held_out",
        });
        for row in s["rows"].as_array().into_iter().flatten() {
            let id = text(row, "id");
            let scenario = Scenario::from_value(row["scenario"].clone())
                .map_err(|e| format!("{id}: {e:?}"))?;
            let inputs = scenario.resolve().map_err(|e| format!("{id}: {e:?}"))?;
            let estimate = crate::model::estimate(&inputs);
            let served = crate::model::serving::of(&inputs, &estimate)
                .ok_or_else(|| format!("{id}: no serving section"))?;
            let metric = Metric::parse(&text(row, "metric"))
                .ok_or_else(|| format!("{id}: unknown metric"))?;
            let measured = row["measured"].as_f64().ok_or_else(|| format!("{id}: no figure"))?;
            let chip = scenario.chip_preset().map_or("custom", |c| c.id).to_string();
            outcomes.push(Outcome {
                source: i,
                id,
                metric,
                measured,
                predicted: metric.of(&served),
                chip,
            });
        }
    }
    Ok((sources, outcomes))
}

/// The 10th and 90th percentiles of `measured / predicted` over the held-out sources' rows,
/// each source weighing the same: what a serving throughput's true value is, as a multiple of
/// the estimate, four times in five.
pub fn range(sources: &[Source], outcomes: &[Outcome]) -> (f64, f64) {
    let mut points: Vec<(f64, f64)> = Vec::new();
    for (i, _) in sources.iter().enumerate().filter(|(_, s)| s.held_out) {
        let rows: Vec<&Outcome> = outcomes.iter().filter(|o| o.source == i).collect();
        for o in &rows {
            let ratio = o.measured / o.predicted.max(f64::MIN_POSITIVE);
            points.push((ratio, 1.0 / rows.len() as f64));
        }
    }
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = points.iter().map(|p| p.1).sum();
    let at = |q: f64| {
        let mut seen = 0.0;
        for &(x, w) in &points {
            seen += w;
            if seen >= q * total {
                return x;
            }
        }
        points.last().map_or(1.0, |p| p.0)
    };
    (at(0.1), at(0.9))
}

/// The range of a serving headline of value `x`, p10 to p90 (`serving_digest`): a throughput
/// (`more_is_faster`) scales by the measured-over-estimate range, a time, a count of chips or
/// a price by its inverse.
pub fn headline(x: f64, more_is_faster: bool) -> (f64, f64) {
    let (lo, hi) = super::serving_digest::THROUGHPUT_RANGE;
    if more_is_faster {
        (x * lo, x * hi)
    } else {
        (x / hi.max(f64::MIN_POSITIVE), x / lo.max(f64::MIN_POSITIVE))
    }
}

/// Rows, sources, the median absolute error and the signed mean error over held-out rows.
pub fn held_out_summary(sources: &[Source], outcomes: &[Outcome]) -> (usize, usize, f64, f64) {
    let held: Vec<f64> =
        outcomes.iter().filter(|o| sources[o.source].held_out).map(Outcome::error).collect();
    let n_sources = sources.iter().filter(|s| s.held_out).count();
    (held.len(), n_sources, median_abs(&held), mean(&held))
}

fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        0.0
    } else {
        x.iter().sum::<f64>() / x.len() as f64
    }
}

fn median_abs(x: &[f64]) -> f64 {
    let mut a: Vec<f64> = x.iter().map(|e| e.abs()).collect();
    a.sort_by(f64::total_cmp);
    match a.len() {
        0 => 0.0,
        n if n % 2 == 1 => a[n / 2],
        n => (a[n / 2 - 1] + a[n / 2]) / 2.0,
    }
}

/// The serving section of `docs/accuracy.md`.
pub fn markdown(sources: &[Source], outcomes: &[Outcome]) -> String {
    let mut out = String::from("\n## Serving\n\n");
    out.push_str("The serving model (`src/model/serving.rs`) against published serving measurements (`data/serving.json`), grouped by source. No constant is fitted to these rows: the model's efficiencies are the training model's (each chip's fitted GEMM efficiency, the FP8 and block-scaled shares, kernel tails, the overlap's interference) and its serving constants are cited. Calibration sources are those the mechanisms were chosen against; held-out sources are only reported, and serving's range comes from their errors alone, each source weighing the same. The error is `predicted / measured - 1`: negative means the model promises fewer tokens than were measured.\n\n");
    let (lo, hi) = range(sources, outcomes);
    let (rows, n, med, signed) = held_out_summary(sources, outcomes);
    out.push_str(&format!(
        "Held out: {rows} rows of {n} sources, median absolute error {:.0}%, signed mean {:+.0}%. Range on serving's headlines: the measured throughput was {lo:.2} to {hi:.2} times the estimate (p10 to p90); time per token, chips needed and price per token take the inverse.\n\n",
        100.0 * med,
        100.0 * signed,
    ));
    out.push_str(
        "| source | role | rows | signed mean | median abs. |\n|---|---|---:|---:|---:|\n",
    );
    for (i, s) in sources.iter().enumerate() {
        let e: Vec<f64> = outcomes.iter().filter(|o| o.source == i).map(Outcome::error).collect();
        out.push_str(&format!(
            "| {} | {} | {} | {:+.1}% | {:.1}% |\n",
            s.id,
            if s.held_out { "held out" } else { "calibration" },
            e.len(),
            100.0 * mean(&e),
            100.0 * median_abs(&e),
        ));
    }
    out.push_str("\n| source | row | chip | figure | measured | predicted | error |\n|---|---|---|---|---:|---:|---:|\n");
    for o in outcomes {
        out.push_str(&format!(
            "| {} | {} | {} | `{}` | {:.0} | {:.0} | {:+.1}% |\n",
            sources[o.source].id,
            o.id,
            o.chip,
            o.metric.key(),
            o.measured,
            o.predicted,
            100.0 * o.error(),
        ));
    }
    out.push_str("\nNo published serving figure with its setup was found for Cambricon, Moore Threads, Biren or MetaX chips, nor for Ascend 910B with a named deployment; those chips are estimated from their datasheets and the training fit alone. Known gaps: multi-token prediction (CloudMatrix384's decode) and speculative decoding are not modelled, so rows that use them come out slow.\n\n");
    for s in sources {
        out.push_str(&format!("- **{}**: {} ({}). {}.\n", s.id, s.title, s.url, s.firmness));
    }
    out
}

/// Source text of `serving_digest.rs`: the range and the held-out summary the page and the
/// command line show.
pub fn digest_source(sources: &[Source], outcomes: &[Outcome]) -> String {
    let (lo, hi) = range(sources, outcomes);
    let (rows, n, med, signed) = held_out_summary(sources, outcomes);
    format!(
        "//! Serving's range and accuracy from `data/serving.json`'s held-out sources, written by\n\
         //! `validation::serving::digest_source`; `tests/validation.rs` fails when it is stale\n\
         //! (`UPDATE_ACCURACY=1 cargo test --release --test validation` rewrites it).\n\n\
         /// Measured serving throughput over the estimate, p10 and p90, over held-out sources.\n\
         pub const THROUGHPUT_RANGE: (f64, f64) = ({lo:?}, {hi:?});\n\n\
         /// Held-out rows, sources, median absolute error and signed mean error.\n\
         pub const HELD_OUT: (usize, usize, f64, f64) = ({rows}, {n}, {med:?}, {signed:?});\n"
    )
}
