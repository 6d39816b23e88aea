//! Sizing from the power a site has: the largest cluster of a chip whose site, as built, is
//! provisioned within a given power (`facility.power_w.provisioned`: every node at its
//! measured peak where published, else its rating, with the network and storage, times PUE), with its racks, capex and the days its best plan
//! takes.
//!
//! The provisioned power grows with the chips in whole units (a node or a scale-up domain),
//! with steps where the network gains a tier; the size is found by doubling and then halving
//! over whole units, each size resolved as the user would have typed it, and the answer is
//! checked once more with its plan in place.

use super::{at, best_plan, MAX_CHIPS};
use crate::model::search::Plan;
use crate::model::{Estimate, Inputs};
use crate::scenario::{InputError, Scenario};

/// The largest cluster within a power.
#[derive(Clone, Debug)]
pub struct PowerSized {
    /// Chips in the cluster.
    pub chips: u32,
    /// Chips per unit the size was counted in.
    pub unit: u32,
    /// Its best plan by days with failures; `None` when no plan runs, fits and finishes there.
    pub plan: Option<Plan>,
    /// The scenario at this size with its best plan applied.
    pub scenario: Scenario,
    /// Its inputs and estimate: nodes, racks, power, capex and days.
    pub inputs: Inputs,
    pub estimate: Estimate,
}

/// The largest cluster of `chip` (`None` keeps the scenario's) whose site is provisioned
/// within `power_w` watts; `None` when not one unit fits. Errs with the scenario's field
/// errors when it does not resolve with that chip.
pub fn within_power(
    scenario: &Scenario,
    chip: Option<&str>,
    power_w: f64,
) -> Result<Option<PowerSized>, Vec<InputError>> {
    let probe = at(scenario, chip, 1024).resolve()?;
    let unit = probe.cluster.chips_per_node.max(probe.cluster.scale_up.domain_size).max(1);
    let most = (MAX_CHIPS / unit).max(1);
    let fits = |units: u32| -> Result<bool, Vec<InputError>> {
        let (_, e) = at(scenario, chip, units * unit).estimated()?;
        Ok(e.facility.design.provisioned_w <= power_w)
    };
    if !(power_w > 0.0) || !fits(1)? {
        return Ok(None);
    }
    // Doubling to the first size beyond the power, then halving between it and the last within.
    let mut lo = 1;
    while lo < most && fits((lo * 2).min(most))? {
        lo = (lo * 2).min(most);
    }
    let mut hi = (lo * 2).min(most + 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // The plan changes little of what the site is built for; a size it pushes over steps down.
    loop {
        let chips = lo * unit;
        let sized = at(scenario, chip, chips);
        let plan = best_plan(&sized.resolve()?);
        let scenario = match &plan {
            Some(p) => sized.with_found(p, chips),
            None => sized,
        };
        let (inputs, estimate) = scenario.estimated()?;
        if estimate.facility.design.provisioned_w <= power_w {
            return Ok(Some(PowerSized { chips, unit, plan, scenario, inputs, estimate }));
        }
        if lo == 1 {
            return Ok(None);
        }
        lo -= 1;
    }
}
