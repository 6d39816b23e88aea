//! The cluster's year answered: each job estimated on each chip kind of the fleet at a ladder
//! of sizes, the year scheduled (`model::year`), and what to buy.
//!
//! A training job keeps its plan's model-parallel degrees (tensor, pipeline, context, expert)
//! at every size and lets its data-parallel degree follow the chips, as a team growing or
//! shrinking a run does; its sizes are whole multiples of that model-parallel group on the
//! coarse ladder sizing climbs (`ladder`). Each size is the scenario the user would get typing
//! that count, estimated with failures and checkpoints. A serving job's instance on a chip is
//! the cheapest deployment meeting its targets (`to_serve`), instances added whole.

use serde_json::Value;

use super::{ladder, MAX_CHIPS};
use crate::model::year::{
    self, Cap, Delivery, Instance, Job, Kind, Purchase, Schedule, Size, Work, Year,
};
use crate::model::{estimate, Estimate, Inputs};
use crate::scenario::year::{JobKind, YearPlan};
use crate::scenario::{fields, paths, InputError, Scenario};

/// The year answered.
#[derive(Clone, Debug)]
pub struct YearAnswer {
    /// The year as read.
    pub plan: YearPlan,
    /// The figures the schedule ran on.
    pub year: Year,
    pub schedule: Schedule,
    /// Each chip kind's catalog id (`None`: the cluster's own chip) and its name.
    pub kinds: Vec<(Option<String>, String)>,
    /// Site names, in order (the cluster's own is empty).
    pub sites: Vec<String>,
    /// The smallest purchase that makes every target hold; `None` when all hold or none does.
    pub buy: Option<Purchase>,
    /// The year with the purchase delivered, scheduled: every target holds in it.
    pub bought: Option<Schedule>,
    /// Jobs that no chip kind of the fleet can run, by place.
    pub cannot_run: Vec<usize>,
}

/// Sizes a training job is estimated at on one chip, beyond the coarse ladder.
const MAX_SIZES: u32 = 64;

/// The scenario of `chip` (`None` keeps the scenario's) with `chips` chips and its data-parallel
/// degree left to follow them.
fn sized(scenario: &Scenario, chip: Option<&str>, chips: u32) -> Scenario {
    let mut s = match chip {
        Some(id) => scenario.with(paths::CLUSTER_CHIP, Some(Value::from(id))),
        None => scenario.clone(),
    };
    s.cluster.chips = Some(Value::from(chips));
    s.parallelism.dp = None;
    s.cluster.pools = None;
    s.sites = None;
    s
}

fn estimated(s: &Scenario) -> Option<(Inputs, Estimate)> {
    let inputs = s.resolve().ok()?;
    let e = estimate(&inputs);
    Some((inputs, e))
}

/// What one chip of a kind costs and draws, from the cluster of that chip at `chips`.
fn kind_of(scenario: &Scenario, chip: Option<&str>, chips: u32) -> Option<Kind> {
    let s = super::at(scenario, chip, chips.max(1));
    let (inputs, e) = estimated(&s)?;
    let n = inputs.cluster.n_chips.max(1) as f64;
    let f = &e.facility;
    let usd_per_kwh = inputs.plant.facility.usd_per_kwh;
    let energy_per_day = f.power.facility_w * 24.0 / 1e3 * usd_per_kwh;
    let own = (f.cost.per_day_usd - energy_per_day).max(0.0) / n;
    let unit = inputs.cluster.chips_per_node.max(inputs.cluster.scale_up.domain_size).max(1);
    Some(Kind {
        capex_usd: f.cost.capex_usd / n,
        usd_per_chip_day: own,
        rent_usd_per_chip_day: inputs.plant.facility.cloud_usd_per_chip_hour * 24.0,
        idle_w: crate::model::facility::idle_w(&inputs, f) / n,
        unit,
    })
}

/// A training job's sizes on a chip, from `lo` to `hi` chips.
/// A post-training job whose scenario has an `rl` section takes its RL run's days (generation,
/// scoring, training and hand-off each step, `model::rl`), with the failures its training
/// would meet at that size.
fn sizes(
    scenario: &Scenario,
    chip: Option<&str>,
    (lo, hi): (Option<u32>, u32),
    post_train: bool,
) -> Vec<Size> {
    let probe = match chip {
        Some(id) => scenario.with(paths::CLUSTER_CHIP, Some(Value::from(id))),
        None => scenario.clone(),
    };
    // A plan that does not resolve on this chip does not run on it.
    let Ok(inputs) = probe.resolve() else { return Vec::new() };
    let p = &inputs.parallelism;
    let group = (p.tensor * p.pipeline * p.context).max(1) * p.expert.max(1);
    let unit = group;
    let top = hi.min(MAX_CHIPS);
    // Every whole number of groups up to 64 sizes, the coarse ladder beside them.
    let groups = (top / unit).max(1);
    let stride = unit.saturating_mul(groups.div_ceil(MAX_SIZES));
    let mut counts: Vec<u32> = (1..=MAX_SIZES).map(|k| k.saturating_mul(stride)).collect();
    counts.extend(ladder(unit, top));
    counts.retain(|&n| n <= top && lo.is_none_or(|lo| n >= lo));
    counts.sort_unstable();
    counts.dedup();
    let mut out = Vec::new();
    // Each size from the scenario with its chip already set: the chip is written once, not
    // once a size.
    for n in counts {
        let Some((inputs, e)) = estimated(&sized(&probe, None, n)) else { continue };
        let mut days = e.effective_train_days().unwrap_or(e.train_days);
        if post_train {
            if let Some(rl) = crate::model::rl::of(&inputs, &e) {
                let goodput = if days > 0.0 { e.train_days / days } else { 1.0 };
                days = if rl.problems.is_empty() { rl.days / goodput } else { f64::INFINITY };
            }
        }
        let days = if e.feasible && days.is_finite() && days > 0.0 { days } else { f64::INFINITY };
        let n = inputs.cluster.n_chips.max(1);
        out.push(Size { chips: n, days, w_per_chip: e.facility.power.facility_w / n as f64 });
    }
    out
}

/// A serving job's instance on a chip: its `serving` section's deployment (by default the
/// smallest that holds the model) at the job's first load, as serving's own estimate gives it;
/// `None` where it misses a target or cannot hold the model.
fn instance(scenario: &Scenario, chip: Option<&str>, tokens_per_day: f64) -> Option<Instance> {
    let s = sized(scenario, chip, scenario.cluster.chips.as_ref().and_then(Value::as_u64)? as u32)
        .with(&fields::SERVING_REQUESTS_PER_S, None)
        .with(&fields::SERVING_TOKENS_PER_DAY, Some(Value::from(tokens_per_day)));
    let (inputs, e) = estimated(&s)?;
    let served = crate::model::serving::of(&inputs, &e)?;
    if !served.feasible || served.chips_needed == 0 {
        return None;
    }
    let chips = served.chips_needed as f64;
    let per = served.decode.chips().max(1);
    let tokens = served.prefill_tokens_per_s + served.decode_tokens_per_s;
    Some(Instance {
        chips: per,
        tokens_per_s: tokens / chips * per as f64,
        w_per_chip: served.power_w / chips,
    })
}

/// The days of a training job at the ends of its range, as multiples of its estimate.
fn range_of(scenario: &Scenario) -> (f64, f64) {
    let Ok((inputs, calibration)) = scenario.resolve_calibrated() else { return (1.0, 1.0) };
    let e = estimate(&inputs);
    let fit = calibration.as_ref().map(|c| &c.fit);
    let basis = crate::validation::range::basis_of(scenario, &inputs, fit);
    let r = crate::validation::range::of(&e, basis, None);
    if e.step_s > 0.0 {
        (r.step_s.0 / e.step_s, r.step_s.1 / e.step_s)
    } else {
        (1.0, 1.0)
    }
}

/// The year of `scenario` answered; `None` when it has none. Errs with the year's field errors.
pub fn answer(scenario: &Scenario) -> Result<Option<YearAnswer>, Vec<InputError>> {
    let Some(plan) = scenario.year()? else { return Ok(None) };
    let sites = plan.sites();
    let site_of = |name: &str| sites.iter().position(|s| s == name).unwrap_or(0);
    let mut ids: Vec<Option<String>> = Vec::new();
    for id in plan.deliveries.iter().map(|d| &d.chip).chain(plan.buy.iter()) {
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    let fleet: u32 = plan.deliveries.iter().map(|d| d.chips).fold(0, u32::saturating_add);
    let delivered = |id: &Option<String>| {
        plan.deliveries.iter().filter(|d| &d.chip == id).map(|d| d.chips).sum::<u32>()
    };
    let mut kinds = Vec::new();
    let mut names = Vec::new();
    for id in &ids {
        let reference = delivered(id).max(1024);
        let kind = kind_of(scenario, id.as_deref(), reference);
        let Some(kind) = kind else {
            let at = format!(
                "year.deliveries.{}",
                plan.deliveries.iter().position(|d| &d.chip == id).unwrap_or(0)
            );
            return Err(vec![InputError::new(&at, crate::scenario::Problem::NotTimeable)]);
        };
        kinds.push(kind);
        let name = match id {
            Some(id) => crate::model::presets::chip(id).map_or(id.clone(), |c| c.name.to_string()),
            None => scenario.title().chip.unwrap_or_default(),
        };
        names.push((id.clone(), name));
    }
    // Sizes up to twice the fleet, so a purchase can be used.
    let top = fleet.saturating_mul(2).clamp(1, MAX_CHIPS);
    let mut jobs = Vec::new();
    let mut cannot_run = Vec::new();
    for (place, j) in plan.jobs.iter().enumerate() {
        let work = match j.kind {
            JobKind::Serve => {
                let instances: Vec<Option<Instance>> = ids
                    .iter()
                    .map(|id| instance(&j.scenario, id.as_deref(), j.tokens_per_day))
                    .collect();
                if instances.iter().all(Option::is_none) {
                    cannot_run.push(place);
                }
                Work::Serve {
                    instances,
                    tokens_per_s: j.tokens_per_day / 86_400.0,
                    growth_per_month: j.growth_per_month,
                    peak_over_mean: j.peak_over_mean,
                }
            }
            _ => {
                let hi = j.max.unwrap_or(top);
                let post = j.kind == JobKind::PostTrain;
                let curves: Vec<Vec<Size>> = ids
                    .iter()
                    .map(|id| sizes(&j.scenario, id.as_deref(), (j.min, hi), post))
                    .collect();
                if curves.iter().all(|c| c.iter().all(|s| !s.days.is_finite())) {
                    cannot_run.push(place);
                }
                let tokens = j.scenario.resolve().map_or(0.0, |i| i.training.tokens);
                Work::Train { sizes: curves, tokens, range: range_of(&j.scenario) }
            }
        };
        let restart_s = j.scenario.resolve().map_or(0.0, |i| i.reliability.restart_s);
        jobs.push(Job {
            work,
            earliest: j.earliest,
            deadline: j.deadline,
            priority: j.priority,
            after: j.after,
            min: j.min.unwrap_or(1),
            max: j.max.unwrap_or(u32::MAX),
            elastic: j.elastic,
            restart_days: restart_s / 86_400.0,
        });
    }
    let kind_of_id = |id: &Option<String>| ids.iter().position(|k| k == id).unwrap_or(0);
    let usd_per_kwh = scenario.resolve().map_or(0.1, |i| i.plant.facility.usd_per_kwh);
    let year = Year {
        weeks: plan.weeks,
        kinds,
        sites: sites.len(),
        deliveries: plan
            .deliveries
            .iter()
            .map(|d| Delivery {
                kind: kind_of_id(&d.chip),
                site: site_of(&d.site),
                week: d.week,
                chips: d.chips,
                retire: d.retire,
            })
            .collect(),
        caps: plan
            .power
            .iter()
            .map(|(site, week, mw)| Cap { site: site_of(site), week: *week, w: mw * 1e6 })
            .collect(),
        jobs,
        usd_per_kwh,
    };
    let schedule = year::schedule(&year);
    let buyable: Vec<usize> = if plan.buy.is_empty() {
        (0..ids.len()).collect()
    } else {
        plan.buy.iter().map(kind_of_id).collect()
    };
    let buy = year::buy(&year, &buyable, site_of(&plan.buy_site), top);
    let bought = buy.map(|p| year::schedule(&year.with(p)));
    Ok(Some(YearAnswer { plan, year, schedule, kinds: names, sites, buy, bought, cannot_run }))
}
