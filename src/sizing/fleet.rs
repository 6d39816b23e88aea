//! Adding to a fleet: the fewest chips of a kind to add beside the cluster's pools so that one
//! job over all of them (`model::pools::best_split`) trains by a deadline, failure-free days;
//! with what the added pool draws and costs.
//!
//! Counts are whole units of the added chip: nodes (or scale-up domains) that whole replicas
//! of the plan fill. They are found as sizing finds them: a ladder up to the first count that
//! meets the deadline, then bisection between it and the largest that missed, to one unit.
//! Without pools of its own the cluster and the added pool share its scale-out fabric: the link
//! between them is its per-chip bandwidth times its chips.

use serde_json::json;

use super::{ladder, MAX_CHIPS};
use crate::model::pools::{best_split, BestSplit, Between};
use crate::model::{estimate, Inputs};
use crate::scenario::paths;
use crate::scenario::{fields, InputError, Scenario};

/// The fewest chips to add (none when the fleet already meets the deadline), and the job over
/// the fleet with them.
#[derive(Clone, Debug, PartialEq)]
pub struct Addition {
    pub chips: u32,
    /// The step counts went by: a node or scale-up domain that one replica of the plan fills.
    pub unit: u32,
    pub job: BestSplit,
    /// Site power, W, and capex, USD, of the added pool.
    pub power_w: f64,
    pub capex_usd: f64,
    /// The scenario with the pool added (and, where it had none, the link between pools it was
    /// sized with), as Apply puts it in the form.
    pub scenario: Scenario,
}

/// What adding `chip` to the scenario's fleet takes to train in `deadline_days`; `None` when no
/// count up to `MAX_CHIPS` does.
pub fn add_to_fleet(
    scenario: &Scenario,
    chip: &str,
    deadline_days: f64,
) -> Result<Option<Addition>, Vec<InputError>> {
    // The link between pools, and its line rate when the scenario states none.
    let (mut pools, between, unstated) = match scenario.pools()? {
        Some(p) => (p.pools, p.between, None),
        None => {
            let own = scenario.resolve()?;
            let shared = own.cluster.scale_out.bytes_per_s * own.cluster.n_chips as f64;
            let link = Between::stated(shared, false, own.cluster.scale_out.latency_s);
            (vec![own], link, Some(shared))
        }
    };
    let added = |n: u32| -> Result<Inputs, Vec<InputError>> {
        scenario
            .clone()
            .with(paths::CLUSTER_POOLS, None)
            .with(paths::CLUSTER_BETWEEN_POOLS, None)
            .with(paths::CLUSTER_CHIP, Some(json!(chip)))
            .with(&fields::CLUSTER_CHIPS, Some(json!(n)))
            .with(paths::CLUSTER_SYSTEM, None)
            .with(&fields::CLUSTER_CHIPS_PER_NODE, None)
            .with(paths::CLUSTER_SCALE_UP, None)
            .with(paths::CLUSTER_SCALE_OUT, None)
            .with(&fields::CLUSTER_SCALE_UP_DOMAIN_SIZE, None)
            .with(&fields::PARALLELISM_DP, None)
            .resolve()
    };
    let probe = added(1024)?;
    // Whole nodes (or domains) that whole replicas of the plan fill.
    let node = probe.cluster.chips_per_node.max(probe.cluster.scale_up.domain_size).max(1);
    let p = &probe.parallelism;
    let replica = p.tensor.saturating_mul(p.pipeline).saturating_mul(p.context).max(1);
    let unit = lcm(node, replica);
    let meets = |job: &BestSplit| job.job.train_days <= deadline_days && job.job.fits;
    // The fleet as it stands may already meet it: nothing to add, with the split that meets it
    // (the scenario's own may not).
    let now = best_split(&pools, between);
    if meets(&now) {
        let scenario = match unstated {
            None => with_split(scenario.clone(), &now),
            Some(_) => scenario.clone(),
        };
        return Ok(Some(Addition {
            chips: 0,
            unit: 0,
            job: now,
            power_w: 0.0,
            capex_usd: 0.0,
            scenario,
        }));
    }
    let mut with_n = |n: u32| -> Option<(BestSplit, Inputs)> {
        let pool = added(n).ok()?;
        pools.push(pool);
        let job = best_split(&pools, between);
        let pool = pools.pop()?;
        Some((job, pool))
    };

    let mut missed = 0;
    let mut found = None;
    for n in ladder(unit, MAX_CHIPS) {
        match with_n(n) {
            Some((job, pool)) if meets(&job) => {
                found = Some((n, job, pool));
                break;
            }
            _ => missed = n,
        }
    }
    let Some((mut n, mut job, mut pool)) = found else { return Ok(None) };
    // Bisect on whole units between the largest count that missed and the first that met.
    while n - missed > unit {
        let mid = missed + (n - missed) / unit / 2 * unit;
        let mid = mid.max(missed + unit);
        match with_n(mid) {
            Some((j, p)) if meets(&j) => (n, job, pool) = (mid, j, p),
            _ => missed = mid,
        }
    }
    let f = estimate(&pool).facility;
    let mut list = scenario
        .raw(crate::scenario::paths::CLUSTER_POOLS)
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default();
    list.push(json!({ "chip": chip, "chips": n }));
    let scenario = scenario.with(paths::CLUSTER_POOLS, Some(serde_json::Value::Array(list)));
    let mut scenario = with_split(scenario, &job);
    if let Some(line) = unstated {
        let gbit = line * 8.0 / 1e9;
        scenario = scenario.with(paths::CLUSTER_BETWEEN_POOLS, Some(json!({ "gbit_per_s": gbit })));
    }
    Ok(Some(Addition {
        chips: n,
        unit,
        job,
        power_w: f.power.facility_w,
        capex_usd: f.cost.capex_usd,
        scenario,
    }))
}

/// `scenario` with the split of `job` in place of its own, so that the plan applied is the job
/// answered.
fn with_split(scenario: Scenario, job: &BestSplit) -> Scenario {
    let shares: Vec<f64> = job.job.parts.iter().map(|p| p.share).collect();
    let how = job.how.map(|how| json!(fields::PARALLELISM_ACROSS_POOLS.code(how)));
    scenario
        .with(&fields::PARALLELISM_ACROSS_POOLS, how)
        .with(&fields::PARALLELISM_POOL_SHARES, Some(json!(shares)))
}

/// The least common multiple of two counts.
fn lcm(a: u32, b: u32) -> u32 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x.max(1)).saturating_mul(b)
}
