//! How sure an estimate can be: what stands behind its figures (the chip's sources, the
//! published runs like the plan, the user's measurements), for the page's badge; and the
//! published plan of a model preset, both read from the validation digest.

use serde_json::Value;

use crate::model::{presets, GemmFormat, Inputs};
use crate::scenario::{fields, Scenario};
use crate::validation;

/// The model preset's published plan: the title of the run that used it and its scenario
/// (`validation::published_plans` makes them; read here from the digest).
pub fn published_plan(model_id: &str) -> Option<(String, Scenario)> {
    validation::digest::PUBLISHED_PLANS.iter().find(|(id, ..)| *id == model_id).and_then(
        |(_, title, json, ..)| {
            let mut scenario = Scenario::parse_many(json).ok()?.pop()?;
            // The token budget as people write it (`156B`, exactly the same number), not the
            // digits the data holds.
            if let Some(tokens) =
                scenario.raw(&crate::scenario::fields::TRAINING_TOKENS).and_then(|v| v.as_f64())
            {
                let written = Value::String(crate::numbers::format(tokens));
                scenario = scenario.with(&fields::TRAINING_TOKENS, Some(written));
            }
            Some((title.to_string(), scenario))
        },
    )
}

/// How the model reads a model preset's published plan: its step time's error on it
/// (positive: slow) and, where the model misses it, why.
pub fn published_reading(model_id: &str) -> Option<(f64, &'static str)> {
    let found = validation::digest::PUBLISHED_PLANS.iter().find(|(id, ..)| *id == model_id);
    found.map(|&(.., error, miss)| (error, miss))
}

/// How sure an estimate can be, from what stands behind its figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Confidence {
    /// The chip's display name, or `None` for a custom chip.
    pub chip: Option<&'static str>,
    /// Field-table paths of chip figures whose source is weak.
    pub unverified: Vec<&'static str>,
    /// The chip's efficiency figures are assumed by chip class, not checked against a run.
    pub efficiency_by_class: bool,
    /// The cluster is larger than any validated run, which had this many chips.
    pub beyond_validated: Option<u32>,
    /// Runs like this plan (its chip family, software stack, dense or MoE) within tolerance,
    /// when fewer than the three that make it validated.
    pub few_runs: Option<u32>,
    /// Half the width of the range of the days, as a fraction of them.
    pub plus_minus: f64,
    /// The user's measurements set the chip's efficiency: how many.
    pub calibrated: Option<u32>,
    /// Runs like this plan are a group the model misses its accuracy targets on
    /// (`validation::gaps`): its signed mean and median absolute error there.
    pub known_gap: Option<(f64, f64)>,
}

impl Confidence {
    /// Nothing behind the estimate is weaker than the validated runs.
    pub fn firm(&self) -> bool {
        self.chip.is_some()
            && self.unverified.is_empty()
            && !self.efficiency_by_class
            && self.beyond_validated.is_none()
            && self.few_runs.is_none()
            && self.calibrated.is_none()
            && self.known_gap.is_none()
    }
}

/// How sure the estimate of `scenario` (resolved as `inputs`, its range `range`) can be.
pub fn confidence(
    scenario: &Scenario,
    inputs: &Inputs,
    range: &validation::range::Range,
) -> Confidence {
    let coverage = validation::coverage();
    let b = &range.basis;
    let (lo, hi) = range.train_days;
    let mid = 0.5 * (lo + hi);
    let plus_minus = if mid > 0.0 { 0.5 * (hi - lo) / mid } else { 0.0 };
    let runs = validation::digest::REGIMES
        .iter()
        .find(|r| r.family == b.regime.family && r.stack == b.regime.stack && r.moe == b.regime.moe)
        .map_or(0, |r| r.stats.runs_within);
    // Measurements of one's own replace the published runs as what the estimate rests on.
    let calibrated = b.calibrated.map(|c| c.runs);
    let few_runs = (runs < 3 && calibrated.is_none()).then_some(runs);
    // A preset with figures changed is the user's chip, not the catalog's.
    let preset = scenario.chip_ref().preset().and_then(presets::chip);
    // Larger than any run of its kind, or than any run at all; measurements of one's own
    // replace the published runs, and the range widens with the distance from them instead.
    let beyond = b
        .beyond
        .filter(|&largest| largest > 0)
        .or((inputs.cluster.n_chips > coverage.max_chips).then_some(coverage.max_chips))
        .filter(|_| calibrated.is_none());
    // A group the model misses its targets on widens the range for a reason worth naming.
    let known_gap = validation::gaps::of(&b.regime.family, b.regime.stack, b.regime.moe)
        .filter(|_| calibrated.is_none())
        .map(|g| (g.mean, g.median));
    match preset {
        Some(p) => Confidence {
            chip: Some(p.name),
            // A figure the plan never reads does not weaken it: the INT8 peak is read by the
            // INT8 recipe's GEMMs alone.
            unverified: p
                .unverified
                .iter()
                .filter(|f| **f != "int8_ops_per_s" || inputs.gemm_format() == GemmFormat::Int8)
                .filter_map(|f| fields::chip_figure_path(f))
                .collect(),
            // Fitted to published runs of the chip or of its family's fitted chips.
            efficiency_by_class: calibrated.is_none() && !p.fitted(),
            beyond_validated: beyond,
            few_runs,
            plus_minus,
            calibrated,
            known_gap,
        },
        None => Confidence {
            chip: None,
            unverified: Vec::new(),
            efficiency_by_class: calibrated.is_none(),
            beyond_validated: beyond,
            few_runs,
            plus_minus,
            calibrated,
            known_gap,
        },
    }
}
