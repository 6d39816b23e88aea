//! The serving model against published serving measurements (`data/serving.json`), grouped by
//! source: MLPerf Inference rounds, an engine's benchmark tables, labs' deployments of MoE
//! models with prefill and decode apart. Serving's shares of the chips' fitted speed are fitted
//! to these rows (`serving_fit`) and every row is judged with its source left out of that fit;
//! each source is also marked calibration (the mechanisms were chosen while looking at it) or
//! held out (they were not), and the range on serving's headlines comes from the held-out
//! sources' errors alone, each source weighing the same however many rows it has.

use std::sync::OnceLock;

use serde_json::Value;

pub use super::serving_fit::Metric;
use super::serving_fit::{Case, Shares};
use crate::model::serving::{Engine, Prices};
use crate::scenario::Scenario;

/// The published serving measurements, embedded so the command-line tool validates anywhere.
pub const DATA: &str = include_str!("../../data/serving.json");

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

/// Every source and the outcome of each of its rows, each predicted with serving's shares
/// fitted to the other sources (`serving_fit::left_out`), or why the data does not load.
pub fn run() -> Result<(Vec<Source>, Vec<Outcome>), String> {
    let (sources, cases) = judged()?;
    Ok((sources.clone(), cases.clone()))
}

/// The shares fitted to every source, as `src/model/presets/serving_fitted.rs` holds them.
pub fn shares() -> Result<Shares, String> {
    let (_, cases) = load()?;
    Ok(super::serving_fit::fit(&cases.iter().map(|c| &c.1).collect::<Vec<_>>()))
}

type Judged = Result<(Vec<Source>, Vec<Outcome>), String>;

/// Each row as the outcome to report and the case the fit predicts.
type Rows = Vec<(Outcome, Case)>;

/// The sources and their rows' outcomes, worked out once for the life of the program.
fn judged() -> Result<&'static (Vec<Source>, Vec<Outcome>), String> {
    static JUDGED: OnceLock<Judged> = OnceLock::new();
    JUDGED
        .get_or_init(|| {
            let (sources, rows) = load()?;
            let (outcomes, cases): (Vec<Outcome>, Vec<Case>) = rows.into_iter().unzip();
            let predicted = super::serving_fit::left_out(&cases);
            let outcomes = outcomes
                .into_iter()
                .zip(predicted)
                .map(|(outcome, predicted)| Outcome { predicted, ..outcome })
                .collect();
            Ok((sources, outcomes))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// `data/serving.json`: the sources, each with its rows.
#[derive(serde::Deserialize)]
struct Data {
    sources: Vec<DataSource>,
}

/// A source as the data gives it: what it is, whether it was held out, and its rows.
#[derive(serde::Deserialize)]
struct DataSource {
    id: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    firmness: String,
    #[serde(default)]
    role: String,
    #[serde(default)]
    rows: Vec<DataRow>,
}

/// A measurement as the data gives it: the deployment as a scenario, the figure measured and
/// its value, and the engine that served it.
#[derive(serde::Deserialize)]
struct DataRow {
    id: String,
    scenario: Value,
    #[serde(default)]
    metric: String,
    measured: Option<f64>,
    #[serde(default)]
    engine: String,
}

/// Every source and its rows, each as the outcome to report and the case the fit predicts at
/// any share.
fn load() -> Result<(Vec<Source>, Rows), String> {
    let data: Data = serde_json::from_str(DATA).map_err(|e| format!("data/serving.json: {e}"))?;
    let mut sources = Vec::new();
    let mut cases = Vec::new();
    for (i, s) in data.sources.into_iter().enumerate() {
        sources.push(Source {
            id: s.id,
            title: s.title,
            url: s.url,
            firmness: s.firmness,
            held_out: s.role == "held_out",
        });
        for row in s.rows {
            let id = row.id;
            let scenario =
                Scenario::from_value(row.scenario).map_err(|e| format!("{id}: {e:?}"))?;
            let inputs = scenario.resolve().map_err(|e| format!("{id}: {e:?}"))?;
            let estimate = crate::model::estimate(&inputs);
            let mut serving = inputs.serving.ok_or_else(|| format!("{id}: no serving section"))?;
            let metric =
                Metric::parse(&row.metric).ok_or_else(|| format!("{id}: unknown metric"))?;
            let measured = row.measured.ok_or_else(|| format!("{id}: no figure"))?;
            let engine = row.engine;
            serving.engine = Engine::named(&engine).unwrap_or(Engine::Any);
            let preset = scenario.chip_preset();
            let outcome = Outcome {
                source: i,
                id,
                metric,
                measured,
                predicted: 0.0,
                chip: preset.map_or("custom", |c| c.id).to_string(),
                family: preset.map_or("custom", |c| c.family).to_string(),
                engine,
                moe: inputs.transformer.moe.is_some(),
                disaggregated: serving.disaggregated,
            };
            let mut case = Case::new(&inputs, serving, Prices::of(&inputs, &estimate));
            (case.metric, case.measured) = (metric, measured);
            (case.source, case.source_id) = (i, sources[i].id.clone());
            case.family = preset.map(|c| c.family);
            cases.push((outcome, case));
        }
    }
    Ok((sources, cases))
}

/// What a serving plan is, for how far it lies from what was measured: its chip's family, its
/// engine, a mixture of experts or not, prefill and decode apart or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub family: String,
    pub engine: &'static str,
    pub moe: bool,
    pub disaggregated: bool,
}

impl Group {
    /// The group of a plan on a chip of `family` (`custom` for one of the user's own).
    pub fn of(family: &str, serving: &crate::model::serving::Serving, moe: bool) -> Group {
        Group {
            family: family.to_string(),
            engine: serving.engine.id(),
            moe,
            disaggregated: serving.disaggregated,
        }
    }

    /// In how many of its four parts it differs from `other`.
    fn differs(&self, other: &Group) -> usize {
        usize::from(self.family != other.family)
            + usize::from(self.engine != other.engine)
            + usize::from(self.moe != other.moe)
            + usize::from(self.disaggregated != other.disaggregated)
    }

    /// Its distance from `measured`: the fewest parts in which it differs from any of them,
    /// `FAR` at most.
    pub fn distance<'a>(&self, measured: impl IntoIterator<Item = &'a Group>) -> usize {
        measured.into_iter().map(|g| self.differs(g)).min().unwrap_or(FAR).min(FAR)
    }
}

/// Distances are counted up to this: a plan of a measured group (0), one part new (1), two or
/// more new (2).
pub const FAR: usize = 2;

/// Sources a distance's own errors need before they set its range alone; fewer, and the
/// nearer distances' errors join them.
const SOURCES_FOR_A_RANGE: usize = 3;

impl Outcome {
    /// The row's group (`Group`).
    pub fn group_of(&self) -> Group {
        Group {
            family: self.family.clone(),
            engine: Engine::named(&self.engine).unwrap_or(Engine::Any).id(),
            moe: self.moe,
            disaggregated: self.disaggregated,
        }
    }
}

/// Each row's distance from the groups the other sources measured, leaving `left_out` out too.
fn distances(outcomes: &[Outcome], left_out: Option<usize>) -> Vec<usize> {
    let groups: Vec<(usize, Group)> = outcomes.iter().map(|o| (o.source, o.group_of())).collect();
    groups
        .iter()
        .map(|(own, g)| {
            g.distance(
                groups.iter().filter(|(s, _)| s != own && Some(*s) != left_out).map(|(_, g)| g),
            )
        })
        .collect()
}

/// The 10th and 90th percentiles of `points` (a ratio and its weight).
fn percentiles(mut points: Vec<(f64, f64)>) -> (f64, f64) {
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

/// The 10th and 90th percentiles of the measured speed over the estimate's (`Outcome::ratio`)
/// over the held-out sources' rows, each source weighing the same: what a serving throughput's
/// true value is, as a multiple of the estimate, four times in five.
pub fn range(sources: &[Source], outcomes: &[Outcome]) -> (f64, f64) {
    let mut points = Vec::new();
    for (i, _) in sources.iter().enumerate().filter(|(_, s)| s.held_out) {
        let rows: Vec<&Outcome> = outcomes.iter().filter(|o| o.source == i).collect();
        points.extend(rows.iter().map(|o| (o.ratio(), 1.0 / rows.len() as f64)));
    }
    percentiles(points)
}

/// The range at each distance from what was measured (`Group::distance`), from the held-out
/// sources' rows other than `left_out`'s, each row at its distance from the groups the other
/// sources measured and each source weighing the same: at a distance with fewer than
/// `SOURCES_FOR_A_RANGE` sources the nearer distances' rows join it, and a farther range is
/// never narrower than a nearer one.
pub fn ranges_without(
    sources: &[Source],
    outcomes: &[Outcome],
    left_out: Option<usize>,
) -> [(f64, f64); FAR + 1] {
    let distance = distances(outcomes, left_out);
    let mut ranges = [(1.0, 1.0); FAR + 1];
    for (d, range) in ranges.iter_mut().enumerate() {
        let mut points = Vec::new();
        let mut from = 0;
        // This distance's rows, then the nearer ones' too where it has too few sources.
        for upto in [d, 0] {
            if from >= SOURCES_FOR_A_RANGE {
                break;
            }
            points.clear();
            from = 0;
            for (i, _) in sources.iter().enumerate().filter(|(_, s)| s.held_out) {
                if Some(i) == left_out {
                    continue;
                }
                let rows: Vec<usize> = (0..outcomes.len())
                    .filter(|&k| outcomes[k].source == i)
                    .filter(|&k| (upto..=d).contains(&distance[k]))
                    .collect();
                from += usize::from(!rows.is_empty());
                points.extend(rows.iter().map(|&k| (outcomes[k].ratio(), 1.0 / rows.len() as f64)));
            }
        }
        *range = percentiles(points);
    }
    for d in 1..=FAR {
        ranges[d] = (ranges[d].0.min(ranges[d - 1].0), ranges[d].1.max(ranges[d - 1].1));
    }
    ranges
}

/// The standard normal's 90th percentile: a spread's p10 to p90 is this many spreads each way.
const Z90: f64 = 1.281_551_565_545;

/// The standard deviation of the logs of `shares`.
fn log_spread(shares: impl Iterator<Item = f64>) -> f64 {
    let logs: Vec<f64> = shares.filter(|x| *x > 0.0).map(f64::ln).collect();
    let n = logs.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mean = logs.iter().sum::<f64>() / n;
    (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
}

/// How far a serving plan lies from what was measured, and the range of its throughput that
/// follows (measured over estimated, p10 to p90): the held-out rows' range at its distance,
/// widened by the spread of the fitted shares where its chip family or engine has none.
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    /// Parts of its group no measurement shares (`Group::distance`).
    pub distance: usize,
    pub range: (f64, f64),
}

impl Reach {
    /// The reach of a plan of `group` (`serving_digest::GROUPS`, `serving_digest::RANGES`).
    pub fn of(group: &Group) -> Reach {
        use super::serving_digest::{GROUPS, RANGES};
        let measured: Vec<Group> = GROUPS
            .iter()
            .map(|&(family, engine, moe, disaggregated)| Group {
                family: family.to_string(),
                engine,
                moe,
                disaggregated,
            })
            .collect();
        let distance = group.distance(&measured);
        let (mut lo, mut hi) = RANGES[distance.min(FAR)];
        // A family or an engine no measurement set a share for may reach any share those
        // measured reach: the range widens by their spread.
        use crate::model::presets::serving_fitted::{ENGINE_SERVING_SHARE, FAMILY_SERVING_SHARE};
        let families = FAMILY_SERVING_SHARE.iter().map(|f| (f.0, f.1));
        let engines = ENGINE_SERVING_SHARE.iter().map(|f| (f.0.id(), f.1));
        for (of, shares) in [
            (group.family.as_str(), families.collect::<Vec<_>>()),
            (group.engine, engines.collect::<Vec<_>>()),
        ] {
            if of != Engine::Any.id() && !shares.iter().any(|s| s.0 == of) {
                let spread = Z90 * log_spread(shares.iter().map(|s| s.1));
                (lo, hi) = (lo * (-spread).exp(), hi * spread.exp());
            }
        }
        Reach { distance, range: (lo, hi) }
    }

    /// The range of a serving headline of value `x`, p10 to p90: a throughput
    /// (`more_is_faster`) scales by the measured-over-estimate range, a time, a count of chips
    /// or a price by its inverse.
    pub fn headline(&self, x: f64, more_is_faster: bool) -> (f64, f64) {
        let (lo, hi) = self.range;
        if more_is_faster {
            (x * lo, x * hi)
        } else {
            (x / hi.max(f64::MIN_POSITIVE), x / lo.max(f64::MIN_POSITIVE))
        }
    }
}

/// Rows, sources, the median absolute error and the signed mean error over held-out rows.
pub fn held_out_summary(sources: &[Source], outcomes: &[Outcome]) -> (usize, usize, f64, f64) {
    let held: Vec<f64> =
        outcomes.iter().filter(|o| sources[o.source].held_out).map(Outcome::error).collect();
    let n_sources = sources.iter().filter(|s| s.held_out).count();
    (held.len(), n_sources, median_abs(&held), mean(&held))
}

/// Held-out rows inside the range their source was given when left out of it (the range at
/// the row's distance from the other sources' groups, `ranges_without`), those whose measured
/// speed is at least the range's low end, and all held-out rows: how often the range holds,
/// and how often its low end does not promise more than was measured, on sources it never saw.
pub fn left_out_coverage(sources: &[Source], outcomes: &[Outcome]) -> (usize, usize, usize) {
    let (mut inside, mut above_low, mut rows) = (0, 0, 0);
    let distance = distances(outcomes, None);
    for (i, _) in sources.iter().enumerate().filter(|(_, s)| s.held_out) {
        let ranges = ranges_without(sources, outcomes, Some(i));
        for (k, o) in outcomes.iter().enumerate().filter(|(_, o)| o.source == i) {
            let (lo, hi) = ranges[distance[k].min(FAR)];
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
    let held: Vec<f64> =
        outcomes.iter().filter(|o| sources[o.source].held_out).map(Outcome::error).collect();
    p90_abs(&held)
}

/// The 90th percentile of the absolute values.
pub fn p90_abs(x: &[f64]) -> f64 {
    let mut a: Vec<f64> = x.iter().map(|e| e.abs()).collect();
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
    out.push_str("The serving model (`src/model/serving.rs`) against published serving measurements (`data/serving.json`), grouped by source. Serving's kernels reach a share of the chip's fitted training speed and memory bandwidth, the product of a share by chip family and one by engine, with further shares by chip family for the bandwidth the routed experts' grouped GEMMs stream their weights at (few tokens reach each of many small experts) and for latent attention's kernels (`validation::serving_fit`); those shares are fitted to the rows, each source's rows on one chip family weighing as one row and every share drawn toward 1, and **every row below is predicted with the shares fitted to the other sources** (leave one source out): a family or an engine measured by one source only keeps 1 when that source is judged. The other constants are cited. Calibration sources are those the mechanisms were chosen against; held-out sources were not looked at while choosing them, and serving's range comes from their errors alone, each source weighing the same. The error is the model's speed over the measured, less one (`predicted / measured - 1` for a throughput, `measured / predicted - 1` for a time): negative means the model promises fewer tokens, or later ones, than were measured. Times per output token and to the first token are medians at the row's concurrency (`ttft_mean_ms` the mean, where a source gives the mean); a benchmark at a fixed concurrency is a closed loop of that many clients (`serving.concurrency`), with the engine's own caps on running requests and tokens a step (`max_batch`, `max_tokens`) where its launch gives them.\n\n");
    let (lo, hi) = range(sources, outcomes);
    let (rows, n, med, signed) = held_out_summary(sources, outcomes);
    let (inside, above_low, covered) = left_out_coverage(sources, outcomes);
    let share = |k: usize| 100.0 * k as f64 / covered.max(1) as f64;
    out.push_str(&format!(
        "Held out: {rows} rows of {n} sources, median absolute error {:.0}%, p90 {:.0}%, signed mean {:+.0}%; the measured throughput was {lo:.2} to {hi:.2} times the estimate over them all (p10 to p90). Left out one source at a time, the range the others give at each row's distance from what they measured (below) holds {:.0}% of its rows ({inside} of {covered}), and its low end is at or below the measured on {:.0}% ({above_low}).\n\n",
        100.0 * med,
        100.0 * held_out_p90(sources, outcomes),
        100.0 * signed,
        share(inside),
        share(above_low),
    ));
    let ranges = ranges_without(sources, outcomes, None);
    out.push_str(&format!(
        "Range on serving's headlines: the measured throughput over the estimate, p10 to p90, at the plan's distance from what was measured, counted in the parts of its group (chip family, engine, dense or MoE, aggregated or disaggregated) that no measured row shares, each held-out row placed at its distance from the other sources' groups: {:.2} to {:.2} for a measured group, {:.2} to {:.2} with one part new, {:.2} to {:.2} with two or more (a distance with fewer than three sources takes the nearer ones' rows too), widened further by the spread of the fitted shares where the plan's chip family or engine has none; time per token, chips needed and price per token take the inverse.\n\n",
        ranges[0].0, ranges[0].1, ranges[1].0, ranges[1].1, ranges[2].0, ranges[2].1,
    ));
    let all: Vec<f64> = outcomes.iter().map(Outcome::error).collect();
    out.push_str(&format!(
        "Every source, each left out of the fit that judges it: {} rows, median absolute error {:.0}%, p90 {:.0}%, signed mean {:+.0}%.\n\n",
        all.len(),
        100.0 * median_abs(&all),
        100.0 * p90_abs(&all),
        100.0 * mean(&all),
    ));
    if let Ok(shares) = shares() {
        out.push_str("Shares fitted to every source (`src/model/presets/serving_fitted.rs`):\n\n| share of | value | rows | sources |\n|---|---:|---:|---:|\n");
        let rows = shares
            .families
            .iter()
            .map(|f| (format!("kernels on {}", f.of), f))
            .chain(shares.experts.iter().map(|f| (format!("experts' weights on {}", f.of), f)))
            .chain(shares.latents.iter().map(|f| (format!("latent attention on {}", f.of), f)));
        for (name, f) in rows {
            out.push_str(&format!(
                "| {name} | {:.2} | {} | {} |\n",
                f.value,
                f.rows,
                f.sources.len()
            ));
        }
        for f in &shares.engines {
            out.push_str(&format!(
                "| kernels under {} | {:.2} | {} | {} |\n",
                f.of.id(),
                f.value,
                f.rows,
                f.sources.len()
            ));
        }
        out.push('\n');
    }
    // By group: chip family, dense or MoE, aggregated or disaggregated; and by engine.
    for (title, key) in [
        ("chip family · model · serving", (|o: &Outcome| o.group()) as fn(&Outcome) -> String),
        ("engine", |o: &Outcome| o.engine.clone()),
    ] {
        out.push_str(&format!(
            "| {title} | sources | rows | signed mean | median abs. | p90 abs. |\n|---|---:|---:|---:|---:|---:|\n"
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
                "| {g} | {} | {} | {:+.1}% | {:.1}% | {:.1}% |\n",
                of.len(),
                e.len(),
                100.0 * mean(&e),
                100.0 * median_abs(&e),
                100.0 * p90_abs(&e),
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
    out.push_str("\nNo published serving figure with its setup was found for Cambricon, Moore Threads, Biren or MetaX chips, nor for Ascend 910B with a named deployment; those chips are estimated from their datasheets, the training fit and the engine's share alone. Mechanisms still missing, each visible in the rows above: the large expert-parallel step of DeepSeek-R1 on MI300X (dstack's runs of February 2025, before AMD's AITER kernels, run on portable kernels, `serving.portable_kernels`, each step priced at AMD's own before-and-after ratio on the whole step, 1.87 for decode and 2.07 for prefill; with AMD's AITER measurement among the fitted rows their time per token lands within -31 % to +54 %, the vLLM runs at four clients the most optimistic; but Moreh's engine of late 2025, AITER on, without graphs or two-batch overlap, takes 1.55 to 1.7 times the model's time per token at 450 sequences a GPU over eight-way data-parallel attention and experts, while AITER's own run at 64 sequences and TP 8 takes half the model's: the two sources disagree on MI300X by more than 3x at their batches, and what separates them, the expert exchange over xGMI at large batches or the grouped GEMMs at 112 tokens an expert, is not known); the engine's host time per scheduled sequence (vLLM's throughput tables at thousands of sequences; a fitted host time per engine came out near zero, so it is not modelled); the decode step of DeepSeek-R1 at long context with data-parallel attention (MLPerf's server rows run at half their offline rate, the model at nine tenths; their logs put the 99th-percentile time per token at 72 ms against the 80 ms target, so the target does not bind: at the 155 sequences a rank Little's law gives on B200, about 5,000 tokens cached each, a step takes about 70 ms where the model gives 33); the engines' all-reduce at small batches (the model prices NCCL's rings and trees, about 60 us across eight GPUs, where the engines' one-kernel all-reduces take 6 to 11 us: vLLM pull request 39080 on MI355X, tokenspeed pull request 860 on GB200; at batch 1 the surplus stands in for per-layer costs the model lacks, TensorRT-LLM's DeepSeek-R1 on B200 taking 148 us a layer, so pricing the one-kernel all-reduce alone leaves those rows 44 to 62 % optimistic); the first token on MI300X running DeepSeek-R1 (dstack's runs at four clients, where no queue forms, take seven to ten times the model's prefill: ROCm's prefill kernels of early 2025; Moreh's five to six times, its fixed pools of two prefill and three decode instances left unapplied since they move the other sources' fitted shares the wrong way); Ascend's decode kernels with multi-token prediction; the fixed costs of a layer at small batches, both ways (SGLang v0.5.7 on eight H200 at TP 8 serves 8 to 64 clients 18 to 30 % faster than the model, whose small kernels' floors and all-reduces make 8.6 of its 17.2 ms a step at 8 clients, while the same engine at TP 16 across two H100 nodes over InfiniBand takes 23 ms a token against the model's 12 to 14: the all-reduce across nodes at 14 KB costs more than the 52 us the model gives it, by about 90 us).\n\n");
    for s in sources {
        out.push_str(&format!("- **{}**: {} ({}). {}.\n", s.id, s.title, s.url, s.firmness));
    }
    out
}

/// Source text of `serving_digest.rs`: the ranges, the groups measured and the held-out
/// summary the page and the command line show.
pub fn digest_source(sources: &[Source], outcomes: &[Outcome]) -> String {
    let (lo, hi) = range(sources, outcomes);
    let ranges = ranges_without(sources, outcomes, None);
    let (rows, n, med, signed) = held_out_summary(sources, outcomes);
    let mut groups: Vec<Group> = outcomes.iter().map(Outcome::group_of).collect();
    groups.sort_by(|a, b| {
        (&a.family, a.engine, a.moe, a.disaggregated).cmp(&(
            &b.family,
            b.engine,
            b.moe,
            b.disaggregated,
        ))
    });
    groups.dedup();
    let mut out = format!(
        "//! Serving's ranges and accuracy from `data/serving.json`'s held-out sources, written by\n\
         //! `validation::serving::digest_source`; `tests/it/validation.rs` fails when it is stale\n\
         //! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).\n\n\
         /// Measured serving throughput over the estimate, p10 and p90, over held-out sources.\n\
         pub const THROUGHPUT_RANGE: (f64, f64) = ({lo:?}, {hi:?});\n\n\
         /// The same by distance from the groups measured (`Group::distance`): 0, 1, 2 or more.\n\
         pub const RANGES: [(f64, f64); 3] = [{}];\n\n\
         /// Held-out rows, sources, median absolute error and signed mean error.\n\
         pub const HELD_OUT: (usize, usize, f64, f64) = ({rows}, {n}, {med:?}, {signed:?});\n\n\
         /// Every group a measurement covers: chip family, engine, MoE, disaggregated.\n\
         pub const GROUPS: &[(&str, &str, bool, bool)] = &[\n",
        ranges.iter().map(|(a, b)| format!("({a:?}, {b:?})")).collect::<Vec<_>>().join(", "),
    );
    for g in groups {
        out.push_str(&format!(
            "    ({:?}, {:?}, {}, {}),\n",
            g.family, g.engine, g.moe, g.disaggregated
        ));
    }
    out.push_str("];\n");
    out
}
