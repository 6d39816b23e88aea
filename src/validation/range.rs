//! An honest range around every headline, from the model's errors against published runs.
//!
//! Each validation row's error is turned into an error of the step time (predicted over
//! published time, less one: positive when the model is slow), with the row's whole source
//! left out of the fit (`fit::left_out`), and filed under a regime: the chip's family, the
//! software stack, and dense or mixture of experts. A plan's range is centred on its regime's
//! mean error and spread by its errors around that centre. A regime with few sources is drawn
//! toward its nearest groups, never toward zero: the same stack and kind on other chips, then
//! every plan of its kind, each weighed as `PRIOR_SOURCES` sources. The range widens with
//! distance from what was validated: beyond the regime's largest cluster by the error's drift
//! with cluster size, and for a family no run covers by the spread between families. It is
//! the 10th to 90th percentile of a normal distribution with that centre and spread, applied
//! to the time (so throughputs move the other way).
//!
//! The page carries only the statistics (`digest::REGIMES` and the pooled figures), written by
//! `digest_source` from the rows; `tests/it/validation.rs` keeps them current.

pub use super::stats::{Digested, Pooled, Stats};

use super::{digest, Outcome};
use crate::model::calibrate::Fit;
use crate::model::{presets, Confidence, Estimate, Inputs};
use crate::scenario::{ChipRef, Scenario};

/// How many sources of a wider group's errors a group's own are weighed against.
pub const PRIOR_SOURCES: f64 = 2.0;

/// The standard normal's 90th percentile: [p10, p90] is the mean ± this many spreads.
const Z90: f64 = 1.281_551_565_545;

/// What kind of plan a row or an estimate is, for grouping the model's errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regime {
    /// The chip's family (`Hopper`, `TPU`), or `custom` for a chip of one's own.
    pub family: String,
    /// The software stack's id.
    pub stack: &'static str,
    /// A mixture of experts.
    pub moe: bool,
}

impl Regime {
    /// The regime of a plan.
    pub fn of(scenario: &Scenario, inputs: &Inputs) -> Regime {
        Regime {
            family: chip_family(scenario).unwrap_or("custom").to_string(),
            stack: crate::scenario::fields::PARALLELISM_STACK.code(inputs.parallelism.stack),
            moe: inputs.transformer.moe.is_some(),
        }
    }
}

/// The family of the scenario's chip when it is a catalog chip, or a catalog chip with some
/// figures changed (an H100 capped at 500 W is still a Hopper); `None` for a chip described
/// from scratch.
pub fn chip_family(scenario: &Scenario) -> Option<&'static str> {
    chip_preset(scenario).and_then(presets::chip).map(|p| p.family)
}

/// The id of the scenario's catalog chip, also when some of its figures are changed; `None`
/// for a chip described from scratch.
pub fn chip_preset(scenario: &Scenario) -> Option<&'static str> {
    let id = match scenario.chip_ref() {
        ChipRef::Preset(id) | ChipRef::Custom { preset: Some(id), .. } => id,
        _ => return None,
    };
    presets::chip(id).map(|p| p.id)
}

/// Why a range is as wide as it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Basis {
    /// The plan's regime.
    pub regime: Regime,
    /// Sources with rows in it.
    pub sources: u32,
    /// Published runs with rows in it.
    pub runs: u32,
    /// Rows in it.
    pub rows: u32,
    /// The mean error the range is centred on (positive: the model is slow): the regime's
    /// own, drawn toward its nearest groups' the fewer sources it has.
    pub bias: f64,
    /// The spread used, after shrinkage and widening.
    pub spread: f64,
    /// Spreads the range spans on each side of its centre (`Pooled::width`).
    pub width: f64,
    /// The regime has at least three runs within tolerance and the plan is no larger than they
    /// were: the estimate is validated.
    pub validated: bool,
    /// The plan has more chips than any run of its regime, which had this many.
    pub beyond: Option<u32>,
    /// The user's own measurements set the chip's efficiency, and the range rests on them.
    pub calibrated: Option<Calibrated>,
}

/// A range resting on the user's measurements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibrated {
    /// Measurements fitted.
    pub runs: u32,
    /// Root mean square of the fit's errors.
    pub rms: f64,
    /// Chips of the measurement closest in size to the plan.
    pub nearest_chips: u32,
    /// What a measurement of the same chip and software leaves of the published errors
    /// (`Pooled::within_run`).
    pub within: f64,
    /// The measurements disagree with one another by more than that: one efficiency leaves
    /// more unexplained than runs of one published source do, so some measurement likely
    /// names another plan than the one it ran.
    pub conflicting: bool,
}

/// [p10, p90] of each headline.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// Seconds per step.
    pub step_s: (f64, f64),
    /// Tokens per second.
    pub tokens_per_s: (f64, f64),
    /// Model FLOPs utilisation.
    pub mfu: (f64, f64),
    /// Days without failures.
    pub train_days: (f64, f64),
    /// Days with failures, when the run finishes.
    pub effective_train_days: Option<(f64, f64)>,
    /// Chip-hours.
    pub chip_hours: (f64, f64),
    /// What the range rests on.
    pub basis: Basis,
}

/// The error of the step time a row implies: time metrics directly, throughputs inverted.
pub fn time_error(outcome: &Outcome) -> f64 {
    let ratio = if outcome.row.metric.is_time() {
        outcome.predicted / outcome.row.published
    } else {
        outcome.row.published / outcome.predicted
    };
    if ratio.is_finite() {
        ratio - 1.0
    } else {
        0.0
    }
}

/// One row's place and error.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The row's source.
    pub source: String,
    /// The row's run.
    pub run: String,
    /// The row's kind of plan.
    pub regime: Regime,
    /// Chips the run used.
    pub chips: u32,
    /// Time error with the source left out of the fit (positive: the model is slow).
    pub error: f64,
    /// The row is within its tolerance.
    pub within: bool,
    /// The row's source is held out of every fit.
    pub held_out: bool,
}

/// Every row's point, with `errors` the rows' time errors with their sources left out
/// (`fit::left_out`), for computing the statistics.
pub fn points(outcomes: &[Outcome], errors: &[f64]) -> Vec<Point> {
    outcomes
        .iter()
        .zip(errors)
        .filter_map(|(o, &error)| {
            let row = &o.row;
            let inputs = row.scenario.resolve().ok()?;
            let regime = Regime::of(&row.scenario, &inputs);
            // The chips the run used, not those its racks held.
            let p = &inputs.parallelism;
            let used = [p.tensor, p.pipeline, p.data, p.context]
                .iter()
                .fold(1u32, |n, &d| n.saturating_mul(d.max(1)))
                .min(inputs.cluster.n_chips);
            Some(Point {
                source: row.source.clone(),
                run: row.run.clone(),
                regime,
                chips: used,
                error,
                within: error.abs() <= row.tolerance,
                held_out: row.held_out,
            })
        })
        .collect()
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var =
        if n > 1.0 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, var.sqrt())
}

/// How many distinct values `of` takes over `points`.
fn distinct<'a>(points: &[&'a Point], of: impl Fn(&'a Point) -> &'a str) -> u32 {
    let mut xs: Vec<&str> = points.iter().map(|p| of(p)).collect();
    xs.sort_unstable();
    xs.dedup();
    xs.len() as u32
}

/// The statistics of `points`.
pub fn stats(points: &[&Point]) -> Stats {
    let errors: Vec<f64> = points.iter().map(|p| p.error).collect();
    let (mean, sd) = mean_sd(&errors);
    let within: Vec<&Point> = points.iter().copied().filter(|p| p.within).collect();
    Stats {
        sources: distinct(points, |p| p.source.as_str()),
        runs: distinct(points, |p| p.run.as_str()),
        runs_within: distinct(&within, |p| p.run.as_str()),
        rows: points.len() as u32,
        mean,
        sd,
        max_chips: points.iter().map(|p| p.chips).max().unwrap_or(0),
    }
}

/// The statistics of every regime in `points`, sorted by regime.
pub fn regimes(points: &[Point]) -> Vec<(Regime, Stats)> {
    let mut keys: Vec<&Regime> = points.iter().map(|p| &p.regime).collect();
    keys.sort_by(|a, b| (&a.family, a.stack, a.moe).cmp(&(&b.family, b.stack, b.moe)));
    keys.dedup();
    keys.into_iter()
        .map(|regime| {
            let mine: Vec<&Point> = points.iter().filter(|p| &p.regime == regime).collect();
            (regime.clone(), stats(&mine))
        })
        .collect()
}

/// The pooled statistics of `points`.
pub fn pooled(points: &[Point]) -> Pooled {
    let errors: Vec<f64> = points.iter().map(|p| p.error).collect();
    let (mean, sd) = mean_sd(&errors);
    let mut families: Vec<&str> = points.iter().map(|p| p.regime.family.as_str()).collect();
    families.sort_unstable();
    families.dedup();
    let family_means: Vec<f64> = families
        .iter()
        .map(|f| {
            let e: Vec<f64> =
                points.iter().filter(|p| p.regime.family == *f).map(|p| p.error).collect();
            mean_sd(&e).0
        })
        .collect();
    // Least squares of the error on log2(chips).
    let xs: Vec<f64> = points.iter().map(|p| (p.chips.max(1) as f64).log2()).collect();
    let (mx, _) = mean_sd(&xs);
    let sxy: f64 = xs.iter().zip(&errors).map(|(x, e)| (x - mx) * (e - mean)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    // Each row's error around its run's mean, over runs with more than one row.
    let mut around_run = Vec::new();
    let mut run_ids: Vec<&str> = points.iter().map(|p| p.run.as_str()).collect();
    run_ids.sort_unstable();
    run_ids.dedup();
    for run in run_ids {
        let e: Vec<f64> = points.iter().filter(|p| p.run == run).map(|p| p.error).collect();
        if e.len() > 1 {
            let (m, _) = mean_sd(&e);
            around_run.extend(e.iter().map(|x| x - m));
        }
    }
    Pooled {
        rows: points.len() as u32,
        mean,
        sd,
        between_families: mean_sd(&family_means).1,
        drift_per_doubling: slope.abs(),
        within_run: mean_sd(&around_run).1,
        width: 0.0,
    }
}

/// Each point's error from the centre the other sources give its row, in their spreads.
pub fn standardized(points: &[Point]) -> Vec<f64> {
    points
        .iter()
        .map(|p| {
            let others: Vec<Point> =
                points.iter().filter(|q| q.source != p.source).cloned().collect();
            let b = basis(&p.regime, p.chips, &regimes(&others), &pooled(&others));
            (p.error - b.bias).abs() / b.spread.max(1e-6)
        })
        .collect()
}

/// The share of the rows a range should hold.
const COVERED: f64 = 0.8;

/// The width that holds `COVERED` of `standardized` (errors in spreads): their quantile.
pub fn width(standardized: &[f64]) -> f64 {
    let mut xs: Vec<f64> = standardized.iter().copied().filter(|x| x.is_finite()).collect();
    if xs.is_empty() {
        return Z90;
    }
    xs.sort_by(f64::total_cmp);
    let i = (COVERED * xs.len() as f64).ceil() as usize;
    xs[i.clamp(1, xs.len()) - 1]
}

/// The regimes' statistics taken together as one group.
fn combined<'a>(stats: impl Iterator<Item = &'a Stats>) -> Stats {
    let all: Vec<&Stats> = stats.collect();
    let rows: f64 = all.iter().map(|s| s.rows as f64).sum();
    if rows == 0.0 {
        return Stats::default();
    }
    let mean = all.iter().map(|s| s.rows as f64 * s.mean).sum::<f64>() / rows;
    // Spread within each regime and between their means.
    let square: f64 = all
        .iter()
        .map(|s| {
            (s.rows as f64 - 1.0).max(0.0) * s.sd.powi(2) + s.rows as f64 * (s.mean - mean).powi(2)
        })
        .sum();
    Stats {
        sources: all.iter().map(|s| s.sources).sum(),
        runs: all.iter().map(|s| s.runs).sum(),
        runs_within: all.iter().map(|s| s.runs_within).sum(),
        rows: rows as u32,
        mean,
        sd: (square / (rows - 1.0).max(1.0)).sqrt(),
        max_chips: all.iter().map(|s| s.max_chips).max().unwrap_or(0),
    }
}

/// A group's centre and spread drawn toward those of the group around it (`above`), the more
/// the fewer sources it has: `PRIOR_SOURCES` sources' worth of the wider group's. The spread
/// counts the group's errors around the centre it gets, so a range is never narrower than
/// the errors its own rows have shown.
fn shrunk(own: &Stats, above: (f64, f64)) -> (f64, f64) {
    let w = own.sources as f64 / (own.sources as f64 + PRIOR_SOURCES);
    let mean = w * own.mean + (1.0 - w) * above.0;
    let own_square = own.sd.powi(2) + (own.mean - mean).powi(2);
    let variance = w * own_square + (1.0 - w) * (above.1.powi(2) + (above.0 - mean).powi(2));
    (mean, variance.sqrt())
}

/// The centre and spread of the time error for a plan of `regime` on `chips` chips, and why.
///
/// The nearest groups stand in for a regime with few sources: dense or mixture of experts
/// over every row, then the same stack and kind on any chip family, then the regime itself,
/// each drawn toward the one before by `shrunk`.
pub fn basis(regime: &Regime, chips: u32, regimes: &[(Regime, Stats)], pooled: &Pooled) -> Basis {
    let own = regimes.iter().find(|(r, _)| r == regime).map(|(_, s)| *s).unwrap_or_default();
    let kind = combined(regimes.iter().filter(|(r, _)| r.moe == regime.moe).map(|(_, s)| s));
    let stack = combined(
        regimes
            .iter()
            .filter(|(r, _)| r.moe == regime.moe && r.stack == regime.stack)
            .map(|(_, s)| s),
    );
    let centre = shrunk(&kind, (pooled.mean, pooled.sd));
    let centre = shrunk(&stack, centre);
    let (bias, spread) = shrunk(&own, centre);
    let mut variance = spread.powi(2);
    // Without runs of its own, the regime is as unsure as the least sure regime of its stack
    // and kind, and its own effect is one more draw from the spread between families; one
    // more again without runs of the same family.
    if own.sources == 0 {
        let widest = regimes
            .iter()
            .filter(|(r, s)| r.moe == regime.moe && r.stack == regime.stack && s.sources > 0)
            .map(|(_, s)| s.sd.powi(2) + (s.mean - bias).powi(2))
            .fold(0.0, f64::max);
        variance = variance.max(widest) + pooled.between_families.powi(2);
    }
    if !regimes.iter().any(|(r, _)| r.family == regime.family) {
        variance += pooled.between_families.powi(2);
    }
    let largest = own.max_chips;
    let beyond = (chips > largest).then_some(largest);
    let doublings = if largest > 0 { (chips as f64 / largest as f64).log2().max(0.0) } else { 0.0 };
    // Extrapolating in size: the error drifts by the pooled slope per doubling beyond the
    // regime's largest run, and how far it drifts is not known in sign.
    variance += (pooled.drift_per_doubling * doublings).powi(2);
    Basis {
        regime: regime.clone(),
        sources: own.sources,
        runs: own.runs,
        rows: own.rows,
        bias,
        spread: variance.max(0.0).sqrt(),
        width: if pooled.width > 0.0 { pooled.width } else { Z90 },
        validated: own.runs_within >= 3 && beyond.is_none(),
        beyond,
        calibrated: None,
    }
}

/// The basis of a plan on `chips` chips whose chip efficiency the user's measurements set:
/// centred (the fit removes the regime's bias), spread by what a measurement of the same chip
/// and software leaves (`Pooled::within_run`) and by how far one efficiency is from explaining
/// every measurement (`Fit::rms`), and widened by the drift per doubling from the measured
/// size nearest the plan's.
pub fn calibrated(mut basis: Basis, fit: &Fit, chips: u32, pooled: &Pooled) -> Basis {
    let nearest = fit
        .chips
        .iter()
        .copied()
        .min_by(|a, b| {
            let d = |c: u32| (chips.max(1) as f64 / c.max(1) as f64).log2().abs();
            d(*a).total_cmp(&d(*b))
        })
        .unwrap_or(chips);
    let doublings = (chips.max(1) as f64 / nearest.max(1) as f64).log2().abs();
    let variance = pooled.within_run.powi(2)
        + fit.rms.powi(2)
        + (pooled.drift_per_doubling * doublings).powi(2);
    basis.bias = 0.0;
    basis.spread = variance.sqrt();
    basis.validated = false;
    let runs = fit.residuals.len() as u32;
    basis.calibrated = Some(Calibrated {
        runs,
        rms: fit.rms,
        nearest_chips: nearest,
        within: pooled.within_run,
        conflicting: runs > 1 && fit.rms > pooled.within_run,
    });
    basis
}

/// [p10, p90] of the time factor (true time over predicted): the predicted time is off by
/// `1 + bias ± z spread`, so the true time is the predicted over that.
fn factors(basis: &Basis) -> (f64, f64) {
    let lo_error = basis.bias - basis.width * basis.spread;
    let hi_error = basis.bias + basis.width * basis.spread;
    // An error of -100% or below would mean an infinitely slow run: keep the factor finite.
    let factor = |e: f64| 1.0 / (1.0 + e).max(0.05);
    (factor(hi_error), factor(lo_error))
}

/// The range of each headline of `e`, from the regime statistics in the digest, or from the
/// user's measurements when `fit` says they set the chip's efficiency.
pub fn range(scenario: &Scenario, inputs: &Inputs, e: &Estimate, fit: Option<&Fit>) -> Range {
    // The published MFUs are BF16 runs': a plan in FP8 or FP4 is not held to them.
    let published = super::best_published(e.chips_used).filter(|_| super::bf16(inputs));
    of(e, basis_of(scenario, inputs, fit), published.map(|p| p.mfu))
}

/// What the range of a plan rests on (`range`), without an estimate.
pub fn basis_of(scenario: &Scenario, inputs: &Inputs, fit: Option<&Fit>) -> Basis {
    let regimes: Vec<(Regime, Stats)> = digest::REGIMES
        .iter()
        .map(|d| {
            let regime = Regime { family: d.family.to_string(), stack: d.stack, moe: d.moe };
            (regime, d.stats)
        })
        .collect();
    let chips = inputs.cluster.n_chips;
    let basis = basis(&Regime::of(scenario, inputs), chips, &regimes, &digest::POOLED);
    match fit {
        Some(fit) => calibrated(basis, fit, chips, &digest::POOLED),
        None => basis,
    }
}

/// How many times its estimate a plan's days are held to when a deadline is judged
/// (`sizing.confidence`): 1 for the central estimate, the range's upper end over the estimate
/// for `p90`.
pub fn held_to(basis: &Basis, confidence: Confidence) -> f64 {
    match confidence {
        Confidence::Central => 1.0,
        Confidence::P90 => factors(basis).1.max(1.0),
    }
}

/// The ranges of `e`'s headlines for a time factor spread as `basis` says, the fast end held to
/// the highest MFU published at the plan's scale (`published`, where it applies).
pub fn of(e: &Estimate, basis: Basis, published: Option<f64>) -> Range {
    let (lo, hi) = factors(&basis);
    // The fast end never reaches an MFU no published run at this scale has shown
    // (`published`), nor one beyond the estimate's own.
    let lo = match published {
        Some(best) if best > 0.0 && e.mfu > 0.0 => lo.max((e.mfu / best).min(1.0)),
        _ => lo,
    };
    let time = |x: f64| (x * lo, x * hi);
    let rate = |x: f64| (x / hi, x / lo);
    Range {
        step_s: time(e.step_s),
        tokens_per_s: rate(e.tokens_per_s),
        // No plan uses more than the chips' peak.
        mfu: {
            let (lo, hi) = rate(e.mfu);
            (lo.min(1.0), hi.min(1.0))
        },
        train_days: time(e.train_days),
        effective_train_days: e.effective_train_days().map(time),
        chip_hours: time(e.chip_hours),
        basis,
    }
}

/// How often the ranges hold: of the points `which` picks, how many have their published
/// value inside the range their row gets from the other sources' errors (each row predicted
/// with its source left out, and the range's statistics and width made without that source),
/// and how many there are.
pub fn coverage(points: &[Point], which: impl Fn(&Point) -> bool) -> (usize, usize) {
    let standardized = standardized(points);
    let mine: Vec<&Point> = points.iter().filter(|p| which(p)).collect();
    let inside = mine.iter().filter(|p| covers(p, points, &standardized)).count();
    (inside, mine.len())
}

/// Whether the published value of `point`'s row lies inside the range the other sources give
/// it: its centre, spread and width made without its source (`standardized` holds every
/// point's error in spreads, in order).
pub fn covers(point: &Point, all: &[Point], standardized: &[f64]) -> bool {
    let (lo, hi) = judged(point, all, standardized);
    // The true time over the predicted is 1 / (1 + error).
    (lo..=hi).contains(&(1.0 / (1.0 + point.error).max(0.05)))
}

/// Half the width of the range the other sources give `point`'s row, as a share of the
/// estimate (0.15: the estimate ±15 % on average).
pub fn half_width(point: &Point, all: &[Point], standardized: &[f64]) -> f64 {
    let (lo, hi) = judged(point, all, standardized);
    (hi - lo) / 2.0
}

/// [p10, p90] of the time factor the other sources give `point`'s row: its centre, spread and
/// width made without its source.
fn judged(point: &Point, all: &[Point], standardized: &[f64]) -> (f64, f64) {
    let others: Vec<Point> = all.iter().filter(|q| q.source != point.source).cloned().collect();
    let theirs: Vec<f64> = all
        .iter()
        .zip(standardized)
        .filter(|(q, _)| q.source != point.source)
        .map(|(_, &x)| x)
        .collect();
    let mut pooled = pooled(&others);
    pooled.width = width(&theirs);
    factors(&basis(&point.regime, point.chips, &regimes(&others), &pooled))
}
