//! The one judge: a scenario turned into what the page, the worker and the command line show,
//! by the same rule for all three.
//!
//! `check` says whether a scenario can be estimated at all, with every bad field at once: its
//! own fields and measurements (`Scenario::resolve_calibrated`), its further pools
//! (`cluster.pools.N.…`) and its sites (`sites.N.…`). `evaluate` then estimates it
//! (`model::estimate`), gives each headline its range (`validation::range`) and keeps the
//! pools resolved for the fleet's job; `serve` gives serving and post-training where the
//! scenario asks (`model::serving`, `model::rl`), for the worker and the command line. Sites are only checked here (`Scenario::check_sites`):
//! building them runs the job over each site's pools, which is the worker's and the command
//! line's (`Scenario::sites`), so the page never carries that model. A scenario the judge refuses is refused
//! everywhere: the page marks the fields named, the command line exits 2 naming them.

use crate::model::rl::{self, RlEstimate};
use crate::model::serving::{self, ServingEstimate};
use crate::model::{failures, Estimate, Inputs};
use crate::scenario::{Aside, Calibration, InputError, Pools, Scenario};
use crate::validation;

/// A scenario judged good, with all it takes to show it. Two are equal when their inputs are:
/// the rest is a function of the inputs and the scenario, and the page's components that
/// compare results draw from the inputs alone.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// Validated inputs, the measurements' fit applied.
    pub inputs: Inputs,
    /// Their estimate.
    pub estimate: Estimate,
    /// The range of each headline, from the model's errors on runs like this one.
    pub range: validation::range::Range,
    /// The chip efficiency fitted to the user's measurements, when there are any.
    pub calibration: Option<Calibration>,
    /// The cluster's further pools beside its own, resolved, when it has any.
    pub pools: Option<Pools>,
}

/// Serving the model on the cluster and post-training it, where the scenario asks
/// (`model::serving`, `model::rl`).
#[derive(Clone, Debug)]
pub struct Served {
    pub serving: Option<ServingEstimate>,
    pub rl: Option<RlEstimate>,
    /// How far serving's plan lies from what was measured, and its range.
    pub reach: validation::serving::Reach,
}

impl Default for Served {
    fn default() -> Served {
        let far = validation::serving::FAR;
        Served {
            serving: None,
            rl: None,
            reach: validation::serving::Reach {
                distance: far,
                range: validation::serving_digest::RANGES[far],
            },
        }
    }
}

impl PartialEq for Evaluation {
    fn eq(&self, other: &Evaluation) -> bool {
        self.inputs == other.inputs
    }
}

/// Whether `scenario` can be estimated: nothing, or every bad field of it, its measurements,
/// pools and sites at once.
pub fn check(scenario: &Scenario) -> Result<(), Vec<InputError>> {
    judged(scenario).map(|_| ())
}

/// The scenario judged and estimated, or every bad field.
pub fn evaluate(scenario: &Scenario) -> Result<Evaluation, Vec<InputError>> {
    let Judged { inputs, calibration, pools } = judged(scenario)?;
    let mut estimate = crate::model::estimate(&inputs);
    let fit = calibration.as_ref().map(|c| &c.fit);
    estimate.warnings.extend(beyond_published(&inputs, &estimate, fit));
    let range = validation::range::range(scenario, &inputs, &estimate, fit);
    Ok(Evaluation { inputs, estimate, range, calibration, pools })
}

/// What goes beyond every published run at its scale (`validation::best_published`): the
/// estimate's MFU, and each measurement's. Only BF16 plans are judged, as the published MFUs
/// are BF16 runs'.
fn beyond_published(
    inputs: &Inputs,
    e: &Estimate,
    fit: Option<&crate::model::calibrate::Fit>,
) -> Vec<crate::model::Warning> {
    use crate::model::Warning;
    let mut found = Vec::new();
    let measured = fit.map(|f| f.residuals.iter().zip(&f.chips)).into_iter().flatten();
    for (r, &at) in measured.filter(|(r, _)| r.bf16) {
        if let Some(best) = validation::best_published(at).filter(|b| r.mfu > b.mfu) {
            let (mfu, run) = (r.mfu, best.title);
            found.push(Warning::MeasuredBeyondPublished {
                mfu,
                at,
                best: best.mfu,
                chips: best.chips,
                run,
            });
        }
    }
    if validation::bf16(inputs) {
        if let Some(best) = validation::best_published(e.chips_used).filter(|b| e.mfu > b.mfu) {
            let (mfu, run) = (e.mfu, best.title);
            found.push(Warning::BeyondPublished { mfu, best: best.mfu, chips: best.chips, run });
        }
    }
    found
}

/// Serving and post-training of `good`, where its scenario asks: the worker's and the command
/// line's, so the page never carries that model (as a fleet's job is).
pub fn serve(good: &Evaluation) -> Served {
    let serving = serving::of(&good.inputs, &good.estimate);
    Served {
        reach: reach(good, serving.as_ref().map(|s| s.prefill_instances > 0)),
        serving,
        rl: rl::of(&good.inputs, &good.estimate),
    }
}

/// How far serving `good`'s model lies from the published measurements
/// (`validation::serving::Reach`), prefill and decode apart as `disaggregated` says where a
/// deployment is known, else as the scenario asks.
pub fn reach(good: &Evaluation, disaggregated: Option<bool>) -> validation::serving::Reach {
    let mut asked = good.inputs.serving.unwrap_or_default();
    asked.disaggregated = disaggregated.unwrap_or(asked.disaggregated);
    let family = &good.range.basis.regime.family;
    let group =
        validation::serving::Group::of(family, &asked, good.inputs.transformer.moe.is_some());
    validation::serving::Reach::of(&group)
}

/// The network tier by tier over a step of `good`, judged from `scenario` (`model::network`),
/// with the wide-area link between its sites where it has them (`network::with_sites`).
pub fn network(scenario: &Scenario, good: &Evaluation) -> crate::model::network::NetworkLoad {
    let load = crate::model::network::load(&good.inputs, &good.estimate);
    match scenario.sites() {
        Ok(Some(s)) => {
            let sites: Vec<_> = s.sites.iter().map(|(_, site)| site.clone()).collect();
            crate::model::network::with_sites(load, &sites, s.how, &s.job(&good.inputs))
        }
        _ => load,
    }
}

/// What moves `good`'s answer (`model::sensitivity`): each uncertain input moved each way,
/// the model's own error being its range on days with failures (or, where the run never
/// finishes, on days without).
pub fn sensitivity(good: &Evaluation) -> crate::model::sensitivity::Sensitivity {
    let e = &good.estimate;
    let (days, range) = match (e.reliability.effective_train_days, good.range.effective_train_days)
    {
        (Some(d), Some(r)) => (d, r),
        _ => (e.train_days, good.range.train_days),
    };
    let factor = |x: f64| if days > 0.0 && x.is_finite() { x / days } else { 1.0 };
    crate::model::sensitivity::sensitivity(&good.inputs, e, (factor(range.0), factor(range.1)))
}

/// The scenario's year (`sizing::year`): every job estimated on every chip of the fleet, the
/// weeks scheduled and what to buy; `None` without a `year` section.
pub fn year(
    scenario: &Scenario,
) -> Result<Option<crate::sizing::year::YearAnswer>, Vec<InputError>> {
    crate::sizing::year::answer(scenario)
}

/// The days with failures of `good` as a distribution (`model::failures::of`), its deadline's
/// chance held to the days `sizing.confidence` asks for: with `p90`, each simulated run's days
/// are taken at the upper end of the estimate's range.
pub fn failures(good: &Evaluation) -> failures::Spread {
    let mut spread = failures::of(&good.inputs, &good.estimate);
    let held = validation::range::held_to(&good.range.basis, good.inputs.reliability.confidence);
    if let (Some(d), Some(_)) = (good.inputs.reliability.deadline_days, spread.deadline_chance) {
        spread.deadline_chance = Some(spread.chance_by(d / held));
    }
    spread
}

/// What the page, the worker and the command line show for a scenario: its estimate with every
/// input the judge refuses set aside, and a chip count its plan does not divide taken with the
/// chips beyond the largest count it divides left idle.
#[derive(Clone, Debug)]
pub struct Shown {
    /// The scenario estimated.
    pub good: Evaluation,
    /// The scenario as estimated: the one given with its refused inputs set aside
    /// (`scenario::Aside`) and an idle chip count's data-parallel degree written in.
    pub estimated: Scenario,
    /// The inputs refused and set aside, each named by its field in the scenario as given.
    pub refused: Vec<InputError>,
    /// A chip count the plan does not divide, taken with chips idle.
    pub idle: Option<Idle>,
}

/// A chip count the plan does not divide, estimated with the chips beyond the largest count
/// it divides left idle.
#[derive(Clone, Debug, PartialEq)]
pub struct Idle {
    /// The chips left idle.
    pub chips: u64,
    /// What the count's error says, with the round counts as fixes: a note, not a refusal.
    pub note: InputError,
}

/// Rounds of setting aside: each round's refusals are set aside and the rest judged again,
/// since a field back at its default can itself be refused with the others (a tensor degree
/// that no longer divides the chips).
const ROUNDS: usize = 4;

/// `scenario` as it is shown: its estimate, what was refused and set aside, and any chips
/// left idle; every refused input at once when nothing is left to estimate.
pub fn shown(scenario: &Scenario) -> Result<Shown, Vec<InputError>> {
    let mut aside = Aside::none(scenario);
    let mut refused: Vec<InputError> = Vec::new();
    for round in 0..ROUNDS {
        let errors = match evaluate(&aside.scenario) {
            Ok(good) => return Ok(Shown { good, estimated: aside.scenario, refused, idle: None }),
            Err(errors) => errors,
        };
        let (divides, others): (Vec<InputError>, Vec<InputError>) =
            errors.into_iter().partition(|e| idle_fix(e).is_some());
        if others.is_empty() {
            if let Some(kept) = divides.first().and_then(|e| idle_kept(&aside.scenario, e)) {
                let (chips, estimated) = kept;
                if let Ok(good) = evaluate(&estimated) {
                    let mut note = divides[0].clone();
                    note.field = aside.typed_field(&note.field);
                    let idle = Some(Idle { chips, note });
                    return Ok(Shown { good, estimated, refused, idle });
                }
            }
        }
        let set_aside = if others.is_empty() { divides } else { others };
        let next = aside.without(&set_aside);
        // A field refused again once set aside is said once, and a key missing once another
        // is set aside (a custom chip's figure) is a consequence, not the user's.
        let earlier = refused.len();
        for mut e in set_aside {
            e.field = aside.typed_field(&e.field);
            let again = refused[..earlier].iter().any(|r| r.field == e.field);
            let consequence = round > 0 && e.problem == crate::scenario::Problem::Required;
            if !again && !consequence && !refused.contains(&e) {
                refused.push(e);
            }
        }
        if next.scenario == aside.scenario {
            break;
        }
        aside = next;
    }
    Err(refused)
}

/// `shown` for the command line, which refuses what the page sets aside: the scenario's
/// estimate, a chip count its plan does not divide taken with chips idle, or every refused
/// input.
pub fn strict(scenario: &Scenario) -> Result<Shown, Vec<InputError>> {
    let shown = shown(scenario)?;
    if shown.refused.is_empty() {
        Ok(shown)
    } else {
        Err(shown.refused)
    }
}

/// What a plan search of `typed` splits: the plan as shown (`shown`), its found plans
/// applied to the scenario as typed, so Apply loses nothing the user typed.
pub fn searchable(typed: &Scenario) -> Result<crate::scenario::Searchable, Vec<InputError>> {
    let shown = shown(typed)?;
    let mut searchable = shown.estimated.for_search()?;
    searchable.scenario = typed.clone();
    Ok(searchable)
}

/// The fix that keeps the plan on the largest chip count it divides, when `error` offers one.
fn idle_fix(error: &InputError) -> Option<&crate::scenario::Fix> {
    error.fixes.iter().find(|f| matches!(f.label, crate::scenario::FixLabel::KeepIdle { .. }))
}

/// `scenario` kept on the largest count its plan divides (`idle_fix`), and the chips idle.
fn idle_kept(scenario: &Scenario, error: &InputError) -> Option<(u64, Scenario)> {
    let fix = idle_fix(error)?;
    let crate::scenario::FixLabel::KeepIdle { idle, .. } = fix.label else { return None };
    let kept =
        fix.changes.iter().fold(scenario.clone(), |s, (path, v)| s.with_at(path, Some(v.clone())));
    Some((idle, kept))
}

/// What a scenario resolves to before it is estimated.
struct Judged {
    inputs: Inputs,
    calibration: Option<Calibration>,
    pools: Option<Pools>,
}

/// The scenario's own fields first (a pool or a site is read against them), then its pools
/// and its sites, whose errors are gathered together.
fn judged(scenario: &Scenario) -> Result<Judged, Vec<InputError>> {
    let (inputs, calibration) = scenario.resolve_calibrated()?;
    let mut errors = Vec::new();
    let pools = scenario.pools().unwrap_or_else(|e| {
        errors.extend(e);
        None
    });
    // A site is read with the pools it holds, so their errors come again: each is said once.
    if let Err(e) = scenario.check_sites() {
        let again: Vec<InputError> = e.into_iter().filter(|e| !errors.contains(e)).collect();
        errors.extend(again);
    }
    if errors.is_empty() {
        Ok(Judged { inputs, calibration, pools })
    } else {
        Err(errors)
    }
}

/// The scenario's plan as `framework`'s launch configuration (`launch::launch`): the plan the
/// command line estimates, with the serving deployment the model chose where it serves.
pub fn launch(
    scenario: &Scenario,
    framework: crate::launch::Framework,
) -> Result<crate::launch::Launch, Vec<InputError>> {
    let shown = strict(scenario)?;
    let served = serve(&shown.good);
    let id = |raw: &Option<serde_json::Value>| match raw {
        Some(serde_json::Value::String(id)) => Some(id.trim().to_string()),
        Some(serde_json::Value::Object(map)) => {
            map.get("preset").and_then(|v| v.as_str()).map(str::to_string)
        }
        _ => None,
    };
    let chip = scenario.chip_preset();
    let site = crate::launch::Site {
        vendor: chip.map_or("", |c| c.vendor).to_string(),
        scale_out: id(&scenario.cluster.scale_out)
            .or(chip.map(|c| c.scale_out.to_string()))
            .unwrap_or_default(),
        model: id(&scenario.model.preset).unwrap_or_default(),
    };
    Ok(crate::launch::launch(&shown.good.inputs, served.serving.as_ref(), &site, framework))
}

/// Logs read into a scenario's measurements (`measure`).
#[derive(Clone, Debug)]
pub struct Measuring {
    /// What each log gave.
    pub readings: Vec<crate::measure::Reading>,
    /// The logs that gave nothing, or nothing the scenario calibrates, with why.
    pub unread: Vec<(String, crate::measure::Why)>,
    /// The readings as `calibration` entries.
    pub entries: Vec<serde_json::Value>,
    /// The scenario judged with its own measurements, and with the logs' added.
    pub before: Option<Evaluation>,
    pub after: Option<Evaluation>,
    /// The scenario with the logs' measurements added to its own, and the links fitted.
    pub measured: Option<Scenario>,
    /// The links fitted to each nccl-tests table, by file.
    pub fabric: Vec<(String, crate::measure::FabricFit)>,
    /// Serving's kernel share fitted to each `bench_serving` result, by file.
    pub serving: Vec<(String, crate::measure::ServingFit)>,
}

/// Reads `logs` (name and bytes) into `calibration` entries of `scenario`, and judges the
/// scenario before and after they join its measurements; a scenario the logs' measurements
/// make unjudgeable (a fit at the chip's bounds) is refused with them named.
pub fn measure(
    logs: &[(String, Vec<u8>)],
    scenario: Option<&Scenario>,
) -> Result<Measuring, Vec<InputError>> {
    let mut readings = Vec::new();
    let mut unread = Vec::new();
    for (name, bytes) in logs {
        match crate::measure::read(name, bytes) {
            Ok(r) => readings.push(r),
            Err(why) => unread.push((name.clone(), why)),
        }
    }
    let (entries, skipped) = crate::measure::entries(&readings, scenario);
    unread.extend(skipped);
    let mut fabric = Vec::new();
    let mut serving = Vec::new();
    for r in readings.iter().filter(|r| r.format == crate::measure::Format::BenchServing) {
        let fitted = match scenario {
            Some(s) => crate::measure::fit_serving(&r.measured, s),
            None => Err(crate::measure::Why::NoPlan),
        };
        match fitted {
            Ok(fit) => serving.push((r.name.clone(), fit)),
            Err(why) => unread.push((r.name.clone(), why)),
        }
    }
    for r in &readings {
        let crate::measure::Measured::Fabric(table) = &r.measured else { continue };
        let fitted = match scenario.map(Scenario::resolve) {
            Some(Ok(inputs)) => crate::measure::fit_fabric(table, &inputs),
            Some(Err(errors)) => return Err(errors),
            None => Err(crate::measure::Why::NoPlan),
        };
        match fitted {
            Ok(fit) => fabric.push((r.name.clone(), fit)),
            Err(why) => unread.push((r.name.clone(), why)),
        }
    }
    let (before, after, measured) = match scenario {
        Some(s) => {
            let before = evaluate(s)?;
            let mut measured = s.clone();
            let mut list = match &s.calibration {
                Some(serde_json::Value::Array(list)) => list.clone(),
                _ => Vec::new(),
            };
            list.extend(entries.iter().cloned());
            measured.calibration = Some(serde_json::Value::Array(list));
            let measured =
                fabric.iter().fold(measured, |s, (_, fit)| crate::measure::with_fabric(&s, fit));
            let round = |x: f64| (x * 1e3).round() / 1e3;
            let measured = serving.iter().fold(measured, |s, (_, fit)| {
                let share = serde_json::json!(round(fit.kernel_share));
                s.with(&crate::scenario::fields::SERVING_KERNEL_SHARE, Some(share))
            });
            (Some(before), Some(evaluate(&measured)?), Some(measured))
        }
        None => (None, None, None),
    };
    Ok(Measuring { readings, unread, entries, before, after, measured, fabric, serving })
}
