//! Serving sized for a load: the chips and megawatts each chip needs to serve the scenario's
//! model at its targets for a number of tokens a day, at its cheapest deployment
//! (`model::serving::search`), so chips compare by what a serving fleet of them takes.

use serde_json::Value;

use crate::model::serving::ServingEstimate;
use crate::scenario::{fields, paths, InputError, Scenario};
use crate::validation::range::chip_family;
use crate::validation::serving::{Group, Reach};

/// The largest instance the sizing tries, chips.
pub const LARGEST_INSTANCE: u32 = 4096;

/// What serving a load on one chip takes.
#[derive(Clone, Debug)]
pub struct ServeSized {
    /// The cheapest deployment that meets every target at the load: its instances, chips,
    /// power, price and output per megawatt.
    pub best: ServingEstimate,
    /// How far it lies from what was measured, and its range.
    pub reach: Reach,
    /// Deployments that meet every target.
    pub meeting: usize,
}

/// The cheapest deployment of `chip` (`None` keeps the scenario's) serving `tokens_per_day`
/// prompt and output tokens a day at the scenario's `serving` targets; `None` when no
/// deployment of up to `LARGEST_INSTANCE` chips meets them. Errs with the scenario's field
/// errors when it does not resolve with that chip.
pub fn to_serve(
    scenario: &Scenario,
    chip: Option<&str>,
    tokens_per_day: f64,
) -> Result<Option<ServeSized>, Vec<InputError>> {
    let mut asked = match chip {
        Some(id) => scenario.with(paths::CLUSTER_CHIP, Some(Value::from(id))),
        None => scenario.clone(),
    };
    asked = asked
        .with(&fields::SERVING_REQUESTS_PER_S, None)
        .with(&fields::SERVING_TOKENS_PER_DAY, Some(Value::from(tokens_per_day)));
    let (inputs, estimate) = asked.estimated()?;
    let found = crate::model::serving::search(&inputs, &estimate, LARGEST_INSTANCE);
    let meeting = found.len();
    let family = chip_family(&asked).unwrap_or("custom");
    let moe = inputs.transformer.moe.is_some();
    Ok(found.into_iter().next().map(|best| {
        let mut served = inputs.serving.unwrap_or_default();
        served.disaggregated = best.prefill_instances > 0;
        ServeSized { reach: Reach::of(&Group::of(family, &served, moe)), best, meeting }
    }))
}
