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
    /// Median time per output token at the row's concurrency, milliseconds.
    Tpot,
    /// Median time to the first token at the row's concurrency, milliseconds.
    Ttft,
}

impl Metric {
    fn parse(name: &str) -> Option<Metric> {
        Some(match name {
            "decode_tokens_per_s_per_chip" => Metric::Decode,
            "decode_tokens_per_s_per_chip_at_load" => Metric::DecodeAtLoad,
            "decode_pool_tokens_per_s_per_chip" => Metric::DecodePool,
            "prefill_pool_tokens_per_s_per_chip" => Metric::PrefillPool,
            "tpot_ms" => Metric::Tpot,
            "ttft_ms" => Metric::Ttft,
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
            Metric::Tpot => "tpot_ms",
            Metric::Ttft => "ttft_ms",
        }
    }

    /// A time, where less is faster, rather than a throughput.
    pub fn is_time(self) -> bool {
        matches!(self, Metric::Tpot | Metric::Ttft)
    }

    fn of(self, e: &ServingEstimate) -> f64 {
        match self {
            Metric::Decode => e.decode_tokens_per_s_per_chip,
            Metric::DecodeAtLoad => e.decode_tokens_per_s_per_chip_at_load,
            Metric::DecodePool => e.decode_pool_tokens_per_s_per_chip,
            Metric::PrefillPool => e.prefill_pool_tokens_per_s_per_chip,
            Metric::Tpot => e.tpot_s * 1e3,
            Metric::Ttft => e.ttft_p50_s * 1e3,
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
    /// The group the row validates: the chip's family, the engine, dense or MoE, aggregated
    /// or disaggregated.
    pub family: String,
    pub engine: String,
    pub moe: bool,
    pub disaggregated: bool,
}

impl Outcome {
    /// The model's speed over the measured, less one: negative when the model promises less
    /// than was measured (fewer tokens a second, or a longer time).
    pub fn error(&self) -> f64 {
        self.speed_ratio() - 1.0
    }

    /// The measured speed over the model's: what the estimate's throughput is multiplied by to
    /// give the measured one (a time's inverse).
    pub fn ratio(&self) -> f64 {
        1.0 / self.speed_ratio().max(f64::MIN_POSITIVE)
    }

    fn speed_ratio(&self) -> f64 {
        let (p, m) = (self.predicted.max(f64::MIN_POSITIVE), self.measured.max(f64::MIN_POSITIVE));
        if self.metric.is_time() {
            m / p
        } else {
            p / m
        }
    }

    /// The group's name in `docs/accuracy.md`.
    pub fn group(&self) -> String {
        format!(
            "{} · {} · {}",
            self.family,
            if self.moe { "MoE" } else { "dense" },
            if self.disaggregated { "disaggregated" } else { "aggregated" }
        )
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
            let preset = scenario.chip_preset();
            outcomes.push(Outcome {
                source: i,
                id,
                metric,
                measured,
                predicted: metric.of(&served),
                chip: preset.map_or("custom", |c| c.id).to_string(),
                family: preset.map_or("custom", |c| c.family).to_string(),
                engine: text(row, "engine"),
                moe: inputs.transformer.moe.is_some(),
                disaggregated: inputs.serving.is_some_and(|s| s.disaggregated),
            });
        }
    }
    Ok((sources, outcomes))
}

/// The 10th and 90th percentiles of the measured speed over the estimate's (`Outcome::ratio`)
/// over the held-out sources' rows, each source weighing the same: what a serving throughput's
/// true value is, as a multiple of the estimate, four times in five.
pub fn range(sources: &[Source], outcomes: &[Outcome]) -> (f64, f64) {
    range_without(sources, outcomes, None)
}

/// The same with one source left out: the range a source's rows would have been given had it
/// never been measured.
pub fn range_without(
    sources: &[Source],
    outcomes: &[Outcome],
    left_out: Option<usize>,
) -> (f64, f64) {
    let mut points: Vec<(f64, f64)> = Vec::new();
    for (i, _) in sources.iter().enumerate().filter(|(_, s)| s.held_out) {
        if Some(i) == left_out {
            continue;
        }
        let rows: Vec<&Outcome> = outcomes.iter().filter(|o| o.source == i).collect();
        for o in &rows {
            points.push((o.ratio(), 1.0 / rows.len() as f64));
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

/// Held-out rows inside the range their source was given when left out of it
/// (`range_without`), those whose measured speed is at least the range's low end, and all
/// held-out rows: how often the range holds, and how often its low end does not promise more
/// than was measured, on sources it never saw.
pub fn left_out_coverage(sources: &[Source], outcomes: &[Outcome]) -> (usize, usize, usize) {
    let (mut inside, mut above_low, mut rows) = (0, 0, 0);
    for (i, _) in sources.iter().enumerate().filter(|(_, s)| s.held_out) {
        let (lo, hi) = range_without(sources, outcomes, Some(i));
        for o in outcomes.iter().filter(|o| o.source == i) {
            let r = o.ratio();
            rows += 1;
            above_low += usize::from(r >= lo * (1.0 - 1e-9));
            inside += usize::from(r >= lo * (1.0 - 1e-9) && r <= hi * (1.0 + 1e-9));
        }
    }
    (inside, above_low, rows)
}

/// The 90th percentile of the held-out rows' absolute errors.
pub fn held_out_p90(sources: &[Source], outcomes: &[Outcome]) -> f64 {
    let mut a: Vec<f64> =
        outcomes.iter().filter(|o| sources[o.source].held_out).map(|o| o.error().abs()).collect();
    a.sort_by(f64::total_cmp);
    a.get((a.len() * 9).div_ceil(10).saturating_sub(1)).copied().unwrap_or(0.0)
}

fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        0.0
    } else {
        x.iter().sum::<f64>() / x.len() as f64
    }
}

/// A figure to three significant digits at least, whole above 100.
fn figure(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
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
    out.push_str("The serving model (`src/model/serving.rs`) against published serving measurements (`data/serving.json`), grouped by source. No constant is fitted to these rows: the model's efficiencies are the training model's (each chip's fitted GEMM efficiency, the FP8 and block-scaled shares, kernel tails, the overlap's interference) and its serving constants are cited. Calibration sources are those the mechanisms were chosen against; held-out sources are only reported, and serving's range comes from their errors alone, each source weighing the same. The error is the model's speed over the measured, less one (`predicted / measured - 1` for a throughput, `measured / predicted - 1` for a time): negative means the model promises fewer tokens, or later ones, than were measured. Times per output token and to the first token are medians at the row's concurrency.\n\n");
    let (lo, hi) = range(sources, outcomes);
    let (rows, n, med, signed) = held_out_summary(sources, outcomes);
    let (inside, above_low, covered) = left_out_coverage(sources, outcomes);
    let share = |k: usize| 100.0 * k as f64 / covered.max(1) as f64;
    out.push_str(&format!(
        "Held out: {rows} rows of {n} sources, median absolute error {:.0}%, p90 {:.0}%, signed mean {:+.0}%. Range on serving's headlines: the measured throughput was {lo:.2} to {hi:.2} times the estimate (p10 to p90); time per token, chips needed and price per token take the inverse. Left out one source at a time, the range the others give holds {:.0}% of its rows ({inside} of {covered}), and its low end is at or below the measured on {:.0}% ({above_low}).\n\n",
        100.0 * med,
        100.0 * held_out_p90(sources, outcomes),
        100.0 * signed,
        share(inside),
        share(above_low),
    ));
    // By group: chip family, dense or MoE, aggregated or disaggregated; and by engine.
    for (title, key) in [
        ("chip family · model · serving", (|o: &Outcome| o.group()) as fn(&Outcome) -> String),
        ("engine", |o: &Outcome| o.engine.clone()),
    ] {
        out.push_str(&format!(
            "| {title} | sources | rows | signed mean | median abs. |\n|---|---:|---:|---:|---:|\n"
        ));
        let mut groups: Vec<String> = outcomes.iter().map(key).collect();
        groups.sort();
        groups.dedup();
        for g in groups {
            let rows: Vec<&Outcome> = outcomes.iter().filter(|o| key(o) == g).collect();
            let e: Vec<f64> = rows.iter().map(|o| o.error()).collect();
            let mut of: Vec<usize> = rows.iter().map(|o| o.source).collect();
            of.sort_unstable();
            of.dedup();
            out.push_str(&format!(
                "| {g} | {} | {} | {:+.1}% | {:.1}% |\n",
                of.len(),
                e.len(),
                100.0 * mean(&e),
                100.0 * median_abs(&e),
            ));
        }
        out.push('\n');
    }
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
    out.push_str("\n| source | row | chip | engine | figure | measured | predicted | error |\n|---|---|---|---|---|---:|---:|---:|\n");
    for o in outcomes {
        out.push_str(&format!(
            "| {} | {} | {} | {} | `{}` | {} | {} | {:+.1}% |\n",
            sources[o.source].id,
            o.id,
            o.chip,
            o.engine,
            o.metric.key(),
            figure(o.measured),
            figure(o.predicted),
            100.0 * o.error(),
        ));
    }
    out.push_str("\nNo published serving figure with its setup was found for Cambricon, Moore Threads, Biren or MetaX chips, nor for Ascend 910B with a named deployment; those chips are estimated from their datasheets and the training fit alone. Mechanisms still missing, each visible in the rows above: MoE kernels of ROCm engines in early 2025 (DeepSeek-R1 on MI300X, two to three times slower than the model); serving efficiency by engine and chip family (vLLM on MI300X, Optimum Habana on Gaudi and JetStream on TPU v5e run well below the GEMM efficiency fitted on training); the lengths of a request mix rather than its means (reasoning outputs of DeepSeek-R1 in MLPerf); the batch a server scenario's latency targets leave (MLPerf's DeepSeek-R1 server rows); Ascend's decode kernels with multi-token prediction.\n\n");
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
