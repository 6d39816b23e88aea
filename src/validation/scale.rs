//! The model's errors at the frontier's scale: rows of runs on 1,024 chips or more, against
//! the targets a plan for a 万卡 cluster needs, and as last measured.
//!
//! Each row's error is its step time's with its whole source left out of the fit, as
//! everywhere in the report (`range::Point`). `RECORDED` holds the figures measured when the
//! model last changed them; `tests/it/validation.rs` fails when one grows past its record, so
//! a change that helps small runs cannot quietly cost the large ones.

use super::abs_quantiles;
use super::range::{self, Point};

/// Chips from which a run counts as large.
pub const LARGE: u32 = 1024;

/// What a plan at scale should be able to rely on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    /// Largest median absolute error over every large row.
    pub median: f64,
    /// Largest 90th percentile of the absolute error over every large row.
    pub p90: f64,
    /// Largest median absolute error over the large rows of mixtures of experts.
    pub moe_median: f64,
    /// Largest least-squares slope of the error per doubling of the chips, over every row.
    pub slope: f64,
    /// Largest absolute signed mean of a group (chip family, stack, dense or MoE)...
    pub mean: f64,
    /// ...that holds rows of at least this many sources.
    pub sources: u32,
}

/// The targets the issue of record sets for training at the frontier.
pub const TARGETS: Targets =
    Targets { median: 0.08, p90: 0.15, moe_median: 0.12, slope: 0.01, mean: 0.05, sources: 3 };

/// The figures as last measured, each no worse than it may become.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    /// Median absolute error over every large row.
    pub median: f64,
    /// Its 90th percentile.
    pub p90: f64,
    /// Median absolute error over the large MoE rows.
    pub moe_median: f64,
}

/// The figures when the model last moved them.
pub const RECORDED: Recorded = Recorded { median: 0.063, p90: 0.220, moe_median: 0.233 };

/// Slack on a recorded figure before it counts as a regression.
pub const SLACK: f64 = 0.005;

/// The errors of one band of rows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Band {
    /// Rows.
    pub rows: usize,
    /// Sources with a row in the band.
    pub sources: usize,
    /// Mean signed error (positive: the model is slow).
    pub mean: f64,
    /// Median absolute error.
    pub median: f64,
    /// 90th percentile of the absolute error.
    pub p90: f64,
}

impl Band {
    /// The band of `points`.
    pub fn of(points: &[&Point]) -> Band {
        let errors: Vec<f64> = points.iter().map(|p| p.error).collect();
        let (median, p90) = abs_quantiles(&errors);
        let mut sources: Vec<&str> = points.iter().map(|p| p.source.as_str()).collect();
        sources.sort_unstable();
        sources.dedup();
        let mean =
            if errors.is_empty() { 0.0 } else { errors.iter().sum::<f64>() / errors.len() as f64 };
        Band { rows: points.len(), sources: sources.len(), mean, median, p90 }
    }
}

/// Which rows a band takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Dense models only.
    Dense,
    /// Mixtures of experts only.
    Moe,
    /// Both.
    All,
}

impl Kind {
    fn takes(self, p: &Point) -> bool {
        match self {
            Kind::Dense => !p.regime.moe,
            Kind::Moe => p.regime.moe,
            Kind::All => true,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Kind::Dense => "dense",
            Kind::Moe => "MoE",
            Kind::All => "all",
        }
    }
}

/// The band of `kind` on at least `LARGE` chips (`large`) or fewer, of every source or of the
/// held-out sources alone (`held_out`).
pub fn band(points: &[Point], kind: Kind, large: bool, held_out: bool) -> Band {
    let mine: Vec<&Point> = points
        .iter()
        .filter(|p| kind.takes(p) && (p.chips >= LARGE) == large && (!held_out || p.held_out))
        .collect();
    Band::of(&mine)
}

/// The groups with rows of at least `TARGETS.sources` sources whose signed mean is beyond
/// `TARGETS.mean`: (family, stack, MoE, sources, mean).
pub fn biased_groups(points: &[Point]) -> Vec<(String, &'static str, bool, u32, f64)> {
    range::regimes(points)
        .into_iter()
        .filter(|(_, s)| s.sources >= TARGETS.sources && s.mean.abs() > TARGETS.mean)
        .map(|(r, s)| (r.family, r.stack, r.moe, s.sources, s.mean))
        .collect()
}

/// The section of the report, as Markdown.
pub fn markdown(points: &[Point]) -> String {
    let t = TARGETS;
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let mut out = String::from("\n## At scale\n\n");
    out.push_str(&format!(
        "Rows of runs on {} chips or more against the rows of smaller runs, each row's step time predicted with its source left out. The targets for plans at that scale: a median error within {}, a 90th percentile within {}, and a median within {} for mixtures of experts; `tests/it/validation.rs` fails when one of the large bands' figures grows past the last measured (`src/validation/scale.rs`).\n\n",
        crate::numbers::format(LARGE as f64),
        pct(t.median),
        pct(t.p90),
        pct(t.moe_median)
    ));
    out.push_str("| chips | model | rows | sources | signed mean | median abs. | p90 abs. | held-out rows | held-out median | held-out p90 |\n");
    out.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    let large = format!("≥ {}", crate::numbers::format(LARGE as f64));
    let small = format!("< {}", crate::numbers::format(LARGE as f64));
    for (label, is_large) in [(&small, false), (&large, true)] {
        for kind in [Kind::Dense, Kind::Moe, Kind::All] {
            let b = band(points, kind, is_large, false);
            let h = band(points, kind, is_large, true);
            out.push_str(&format!(
                "| {label} | {} | {} | {} | {:+.1}% | {} | {} | {} | {} | {} |\n",
                kind.label(),
                b.rows,
                b.sources,
                100.0 * b.mean,
                pct(b.median),
                pct(b.p90),
                h.rows,
                pct(h.median),
                pct(h.p90)
            ));
        }
    }
    let all = band(points, Kind::All, true, false);
    let moe = band(points, Kind::Moe, true, false);
    let verdict = |x: f64, limit: f64| if x <= limit { "met" } else { "missed" };
    let slope = range::pooled(points).drift_per_doubling;
    out.push_str(&format!(
        "\nAt {large} chips: median {} ({} {}), p90 {} ({} {}), MoE median {} ({} {}). Over every row the error drifts by {:.1}% per doubling of the chips (target within {}, {}).\n",
        pct(all.median),
        verdict(all.median, t.median),
        pct(t.median),
        pct(all.p90),
        verdict(all.p90, t.p90),
        pct(t.p90),
        pct(moe.median),
        verdict(moe.median, t.moe_median),
        pct(t.moe_median),
        100.0 * slope,
        pct(t.slope),
        verdict(slope, t.slope),
    ));
    let biased = biased_groups(points);
    if biased.is_empty() {
        out.push_str(&format!(
            "Every group with rows of {} sources or more has a signed mean within ±{}.\n",
            t.sources,
            pct(t.mean)
        ));
    } else {
        let list: Vec<String> = biased
            .iter()
            .map(|(family, stack, moe, sources, mean)| {
                let kind = if *moe { "MoE" } else { "dense" };
                format!("{family} {stack} {kind} ({sources} sources, {:+.1}%)", 100.0 * mean)
            })
            .collect();
        out.push_str(&format!(
            "Groups with rows of {} sources or more whose signed mean is beyond ±{}: {}.\n",
            t.sources,
            pct(t.mean),
            list.join("; ")
        ));
    }
    out
}
