//! The estimate, a plan search and a sizing as JSON, for the command-line tool and exported
//! files.
//!
//! Field names carry their units; every number is copied from `model::Estimate` unchanged.

pub mod year;

use crate::validation::serving::Reach;
use serde_json::{json, Map, Value};

use crate::model::facility::Plant;
use crate::model::rl::RlEstimate;
use crate::model::serving::{Deployment, ServingEstimate};
use crate::model::{reliability, search};
use crate::model::{Estimate, FacilityEstimate, Inputs, Phase, ReliabilityEstimate, Warning};
use crate::scenario::fields;
use crate::scenario::{describe, Calibration, Scenario, Searchable};
use crate::sizing;
use crate::validation::range::Range;

/// `base`, an object, with the members of each of `more` that is given: the parts of a record
/// that apply to it, written once each.
pub fn joined(base: Value, more: impl IntoIterator<Item = Option<Value>>) -> Value {
    let Value::Object(mut out) = base else { return base };
    for part in more.into_iter().flatten() {
        if let Value::Object(members) = part {
            out.extend(members);
        }
    }
    Value::Object(out)
}

/// The estimate as a JSON object (see docs/scenario.md for the fields).
pub fn to_json(e: &Estimate) -> Value {
    let mut breakdown = Map::new();
    for (name, seconds) in e.breakdown.parts() {
        breakdown.insert(format!("{name}_s"), json!(seconds));
    }
    let m = &e.memory;
    json!({
        "step_s": e.step_s,
        "mfu": e.mfu,
        "hfu": e.hfu,
        "tokens_per_s": e.tokens_per_s,
        "train_days": e.train_days,
        "chip_hours": e.chip_hours,
        "steps": e.steps,
        "chips_used": e.chips_used,
        "microbatches": e.n_microbatches,
        "params": e.params,
        "active_params": e.active_params,
        "model_flops_per_step": e.model_flops_per_step,
        "hardware_flops_per_step": e.hardware_flops_per_step,
        "breakdown": breakdown,
        "link": {
            "tp_s": e.link.tp_s,
            "cp_s": e.link.cp_s,
            "ep_s": e.link.ep_s,
            "pp_s": e.link.pp_s,
            "dp_s": e.link.dp_s,
        },
        "memory": {
            "peak_bytes": m.peak_bytes,
            "hbm_bytes": m.hbm_bytes,
            "fits": m.fits,
            "peak_phase": match m.peak_phase {
                Phase::Forward => "forward",
                Phase::Backward => "backward",
                Phase::Optimizer => "optimizer",
            },
            "weights_bytes": m.weights_bytes,
            "grads_bytes": m.grads_bytes,
            "optimizer_bytes": m.optimizer_bytes,
            "activations_bytes": m.activations_bytes,
            "logits_bytes": m.logits_bytes,
            "transient_bytes": m.transient_bytes,
            "comm_buffers_bytes": m.comm_buffers_bytes,
            "reserve_bytes": m.reserve_bytes,
            "forward_peak_bytes": m.forward_peak_bytes,
            "backward_peak_bytes": m.backward_peak_bytes,
            "optimizer_peak_bytes": m.optimizer_peak_bytes,
            "compiler_remat": m.compiler_remat,
        },
        "feasible": e.feasible,
        "problems": findings(&e.problems),
        "warnings": e.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        "notes": e.notes.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        "facility": facility(&e.facility),
        "effective_train_days": e.effective_train_days(),
        "reliability": reliability(&e.reliability),
    })
}

/// Serving as a JSON object: throughput, latency, batch, chips, prices, the step's parts and
/// the frontier (`model::serving`).
pub fn serving_json(e: &ServingEstimate, reach: &Reach) -> Value {
    let mut step = Map::new();
    for (name, seconds) in e.step.parts() {
        step.insert(format!("{name}_s"), json!(seconds));
    }
    let degrees = |d: &Deployment| json!({ "tp": d.tp, "dp": d.dp, "ep": d.ep, "expert_tp": d.etp, "chips": d.chips() });
    json!({
        "prefill_tokens_per_s": e.prefill_tokens_per_s,
        "decode_tokens_per_s": e.decode_tokens_per_s,
        "prefill_tokens_per_s_per_chip": e.prefill_tokens_per_s_per_chip,
        "decode_tokens_per_s_per_chip": e.decode_tokens_per_s_per_chip,
        "decode_tokens_per_s_per_chip_at_load": e.decode_tokens_per_s_per_chip_at_load,
        "prefill_pool_tokens_per_s_per_chip": e.prefill_pool_tokens_per_s_per_chip,
        "decode_pool_tokens_per_s_per_chip": e.decode_pool_tokens_per_s_per_chip,
        "ttft_s": e.ttft_s,
        "ttft_p50_s": e.ttft_p50_s,
        "ttft_p99_s": e.ttft_p99_s,
        "busy": e.busy,
        "utilisation": e.utilisation,
        "tpot_s": e.tpot_s,
        "tpot_p50_s": e.tpot_s,
        "tpot_p99_s": e.tpot_p99_s,
        "tokens_per_step": e.tokens_per_step,
        "max_batch": e.max_batch,
        "batch": e.batch,
        "chips_needed": e.chips_needed,
        "chips_left": e.chips_left,
        "usd_per_day": e.usd_per_day,
        "training_usd_per_day": e.training_usd_per_day,
        "prefill_instances": e.prefill_instances,
        "decode_instances": e.decode_instances,
        "decode": degrees(&e.decode),
        "prefill": degrees(&e.prefill),
        "weight_bytes_per_chip": e.weight_bytes_per_chip,
        "kv_bytes_per_token": e.kv_bytes_per_token,
        "prefill_round_s": e.prefill_round_s,
        "step_s": e.step.total(),
        "step": step,
        "usd_per_million_input_tokens": e.usd_per_million_input_tokens,
        "usd_per_million_output_tokens": e.usd_per_million_output_tokens,
        "cloud_usd_per_million_input_tokens": e.cloud_usd_per_million_input_tokens,
        "cloud_usd_per_million_output_tokens": e.cloud_usd_per_million_output_tokens,
        "power_w": e.power_w,
        "frontier": e.frontier.iter().map(|p| json!({
            "batch": p.batch,
            "tpot_s": p.tpot_s,
            "tokens_per_s_per_chip": p.tokens_per_s_per_chip,
        })).collect::<Vec<_>>(),
        "feasible": e.feasible,
        "problems": e.problems.iter().map(|p| json!({
            "field": fields::serving_problem_field(p),
            "message": crate::text::serving_problem(p),
        })).collect::<Vec<_>>(),
        "notes": e.notes.iter().map(crate::text::serving_note).collect::<Vec<_>>(),
        "range": serving_range_json(e, reach),
        // Energy beside the price: output tokens a second per megawatt of the site and the
        // site's energy per output token.
        "tokens_per_s_per_mw": e.tokens_per_s_per_mw,
        "joules_per_token": e.joules_per_token,
        "kwh_per_million_tokens": e.joules_per_token / 3.6,
    })
}

/// Each serving headline's p10-p90 range at the plan's distance from what was measured
/// (`validation::serving::Reach`), and that distance; the chips needed round up at both ends.
fn serving_range_json(e: &ServingEstimate, reach: &Reach) -> Value {
    let pair = |x: f64, faster: bool| {
        let (lo, hi) = reach.headline(x, faster);
        json!([lo, hi])
    };
    let (lo, hi) = reach.headline(e.chips_needed as f64, false);
    json!({
        "decode_tokens_per_s": pair(e.decode_tokens_per_s, true),
        "prefill_tokens_per_s": pair(e.prefill_tokens_per_s, true),
        "decode_tokens_per_s_per_chip": pair(e.decode_tokens_per_s_per_chip, true),
        "prefill_tokens_per_s_per_chip": pair(e.prefill_tokens_per_s_per_chip, true),
        "ttft_s": pair(e.ttft_s, false),
        "ttft_p50_s": pair(e.ttft_p50_s, false),
        "ttft_p99_s": pair(e.ttft_p99_s, false),
        "tpot_s": pair(e.tpot_s, false),
        "tpot_p99_s": pair(e.tpot_p99_s, false),
        "decode_tokens_per_s_per_chip_at_load": pair(e.decode_tokens_per_s_per_chip_at_load, true),
        "prefill_pool_tokens_per_s_per_chip": pair(e.prefill_pool_tokens_per_s_per_chip, true),
        "decode_pool_tokens_per_s_per_chip": pair(e.decode_pool_tokens_per_s_per_chip, true),
        "tokens_per_s_per_mw": pair(e.tokens_per_s_per_mw, true),
        "joules_per_token": pair(e.joules_per_token, false),
        "chips_needed": [lo.ceil(), hi.ceil()],
        "usd_per_million_input_tokens": pair(e.usd_per_million_input_tokens, false),
        "usd_per_million_output_tokens": pair(e.usd_per_million_output_tokens, false),
        "distance": reach.distance,
    })
}

/// A chip's row of a serving sizing (`sizing::to_serve`): the chips, megawatts and price of
/// serving the load at its cheapest deployment, each with its range, and that deployment as
/// `serving_json` writes it; `None` where no deployment meets the targets.
pub fn serve_row(
    chip: &str,
    tokens_per_day: f64,
    sized: Option<&crate::sizing::ServeSized>,
) -> Value {
    let Some(s) = sized else {
        return json!({ "chip": chip, "tokens_per_day": tokens_per_day, "serves": false });
    };
    let e = &s.best;
    let (lo, hi) = s.reach.headline(e.chips_needed as f64, false);
    let (mw_lo, mw_hi) = s.reach.headline(e.power_w / 1e6, false);
    json!({
        "chip": chip,
        "tokens_per_day": tokens_per_day,
        "serves": true,
        "chips_needed": e.chips_needed,
        "chips_needed_range": [lo.ceil(), hi.ceil()],
        "power_mw": e.power_w / 1e6,
        "power_mw_range": [mw_lo, mw_hi],
        "usd_per_million_output_tokens": e.usd_per_million_output_tokens,
        "tokens_per_s_per_mw": e.tokens_per_s_per_mw,
        "kwh_per_million_tokens": e.joules_per_token / 3.6,
        "deployments_meeting_targets": s.meeting,
        "serving": serving_json(e, &s.reach),
    })
}

/// Post-training's step as a JSON object: its parts, shares and days (`model::rl`).
pub fn rl_json(e: &RlEstimate) -> Value {
    json!({
        "generation_s": e.generation_s,
        "scoring_s": e.scoring_s,
        "training_s": e.training_s,
        "handoff_s": e.handoff_s,
        "step_s": e.step_s,
        "generation_share": e.generation_share,
        "idle_share": e.idle_share,
        "days": e.days,
        "batch": e.batch,
        "generation_chips": e.generation_chips,
        "feasible": e.problems.is_empty(),
        "problems": e.problems.iter().map(crate::text::rl_problem).collect::<Vec<_>>(),
    })
}

/// The network tier by tier (`model::network`): `{"tiers": [{"tier", "bytes_per_step",
/// "busy_s", "utilisation", "hottest", "by_collective": {"tp", "cp", "ep", "pp", "dp"}}],
/// "hottest"}`, bytes per chip and one direction over a step.
pub fn network_json(n: &crate::model::network::NetworkLoad) -> Value {
    let tiers: Vec<Value> = n
        .tiers
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let by: serde_json::Map<String, Value> = crate::model::network::Dim::ALL
                .iter()
                .zip(t.by_dim)
                .map(|(d, b)| (d.id().to_string(), json!(b)))
                .collect();
            json!({
                "tier": t.tier.id(),
                "bytes_per_step": t.bytes_per_step,
                "busy_s": t.busy_s,
                "utilisation": t.utilisation,
                "hottest": i == n.hottest,
                "by_collective": by,
            })
        })
        .collect();
    let hottest = n.tiers.get(n.hottest).map(|t| t.tier.id());
    json!({ "tiers": tiers, "hottest": hottest })
}

/// What moves the answer (`model::sensitivity`): `{"effective_days", "cost_usd",
/// "deadline_days", "threatens", "inputs": [{"input", "name", "assumed", "low", "high",
/// "low_said", "high_said", "effective_days_low", "effective_days_high", "cost_low",
/// "cost_high"}]}`, largest effect on days first, values in SI units (a run that never
/// finishes has `null` days).
pub fn sensitivity_json(
    s: &crate::model::sensitivity::Sensitivity,
    money: crate::format::Money,
) -> Value {
    let n = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
    let inputs: Vec<Value> = s
        .entries
        .iter()
        .map(|e| {
            let said = |v: f64| sensitivity_value(e.input, v, money);
            json!({
                "input": e.input.id(),
                "name": sensitivity_input(e.input),
                "assumed": n(e.assumed),
                "low": n(e.low),
                "high": n(e.high),
                "low_said": said(e.low),
                "high_said": said(e.high),
                "effective_days_low": n(e.effective_days.0),
                "effective_days_high": n(e.effective_days.1),
                "cost_low": n(e.cost_usd.0),
                "cost_high": n(e.cost_usd.1),
            })
        })
        .collect();
    json!({
        "effective_days": n(s.effective_days),
        "cost_usd": n(s.cost_usd),
        "deadline_days": s.deadline_days,
        "threatens": sensitivity_threat(s, money),
        "inputs": inputs,
    })
}

/// The step of an evaluated plan as Chrome trace JSON (`timeline_json`): what the command
/// line's `timeline` prints and the page's Trace button saves.
pub fn step_trace(good: &crate::evaluation::Evaluation) -> Value {
    let p = &good.inputs.parallelism;
    let events = crate::model::timeline::timeline(&good.estimate, p.pipeline, p.virtual_stages);
    timeline_json(&events, p.pipeline)
}

/// A step's timeline (`model::timeline`) as Chrome trace JSON, which Perfetto and
/// `chrome://tracing` open: a thread a pipeline stage, a complete event (`ph: "X"`, times in
/// microseconds) an interval, named by its kind, with its micro-batch and chunk.
pub fn timeline_json(events: &[crate::model::timeline::Event], stages: u32) -> Value {
    let mut trace: Vec<Value> = (0..stages.max(1))
        .map(|stage| {
            json!({ "name": "thread_name", "ph": "M", "pid": 0, "tid": stage,
                    "args": { "name": format!("stage {stage}") } })
        })
        .collect();
    trace.extend(events.iter().map(|e| {
        json!({
            "name": e.kind.id(),
            "cat": e.kind.id(),
            "ph": "X",
            "pid": 0,
            "tid": e.stage,
            "ts": e.start_s * 1e6,
            "dur": e.dur_s * 1e6,
            "args": { "micro_batch": e.micro_batch, "chunk": e.chunk },
        })
    }));
    json!({ "traceEvents": trace, "displayTimeUnit": "ms" })
}

/// The range of each headline (`validation::range`): `[p10, p90]` pairs and what they rest on.
pub fn range_json(r: &Range) -> Value {
    let b = &r.basis;
    let pair = |(lo, hi): (f64, f64)| json!([lo, hi]);
    json!({
        "step_s": pair(r.step_s),
        "tokens_per_s": pair(r.tokens_per_s),
        "mfu": pair(r.mfu),
        "train_days": pair(r.train_days),
        "effective_train_days": r.effective_train_days.map(pair),
        "chip_hours": pair(r.chip_hours),
        "basis": {
            "family": b.regime.family,
            "stack": b.regime.stack,
            "moe": b.regime.moe,
            "runs": b.runs,
            "rows": b.rows,
            "bias": b.bias,
            "spread": b.spread,
            "validated": b.validated,
            "beyond_chips": b.beyond,
            "calibrated": b.calibrated.map(|c| json!({
                "runs": c.runs,
                "rms": c.rms,
                "nearest_chips": c.nearest_chips,
                "conflicting": c.conflicting,
            })),
        },
    })
}

/// The chip efficiency and the stack's launch time fitted to the user's measurements
/// (`model::calibrate`), each measurement's place in the list and step time measured, before
/// and after the fit.
pub fn calibration_json(c: &Calibration) -> Value {
    let fit = &c.fit;
    json!({
        "catalog_efficiency": fit.catalog,
        "efficiency": fit.efficiency,
        "catalog_layer_host_s": fit.host_catalog,
        "layer_host_s": fit.host_s,
        "launches": fit.launches.id(),
        "rms": fit.rms,
        "at_bound": fit.at_bound,
        "runs": fit.residuals.iter().zip(&fit.chips).zip(&c.places).map(|((r, chips), place)| json!({
            "place": place,
            "chips": chips,
            "measured_step_s": r.measured_s,
            "before_step_s": r.before_s,
            "after_step_s": r.after_s,
            "error": r.error(),
        })).collect::<Vec<_>>(),
    })
}

/// The cluster as built: bill of materials, power, energy, cooling and cost.
fn facility(f: &FacilityEstimate) -> Value {
    let b = &f.bom;
    let p = &f.power;
    let c = &f.cooling;
    let k = &f.cost;
    let (d, s) = (&f.design, &f.storage);
    json!({
        "nodes": b.nodes,
        "racks": c.racks,
        "network": {
            "tiers": b.tiers,
            "planes": b.planes,
            "switches": { "leaf": b.leaf, "spine": b.spine, "core": b.core, "scale_up": b.scale_up_switches,
                          "scale_up_spine": b.scale_up_spines, "ocs": b.ocs },
            "scale_up_optical_links": b.scale_up_optical_links,
            "scale_up_transceivers": b.scale_up_transceivers,
            "nics": b.nics,
            "transceivers": b.transceivers,
            "cables": b.total_cables(),
            "cables_by_tier": b.cables,
            "optical_by_tier": b.optical,
        },
        "power_w": {
            "chips": p.chips_w,
            "hosts": p.hosts_w,
            "network": p.network_w,
            "it": p.it_w,
            "storage": p.storage_w,
            "facility": p.facility_w,
            "peak_it": p.peak_it_w,
            "provisioned": d.provisioned_w,
            "floor": d.floor_w,
        },
        "power_swing_w": d.swing_w,
        "power_swing_period_s": d.swing_period_s,
        "storage": {
            "capacity_bytes": s.capacity_bytes,
            "gb_per_s": s.bytes_per_s / 1e9,
            "nodes": s.nodes,
            "power_w": s.power_w,
            "cost_usd": s.cost_usd,
        },
        "energy_mwh": f.energy_mwh,
        "co2_t": f.co2_t,
        "cooling": {
            "rack_kw": c.rack_w / 1000.0,
            "liquid_w": c.liquid_w,
            "air_w": c.air_w,
            "coolant_l_per_min": c.coolant_l_per_min,
            "refrigeration_tons": c.refrigeration_tons,
            "design_rack_kw": d.rack_w / 1000.0,
            "design_refrigeration_tons": d.refrigeration_tons,
            "design_coolant_l_per_min": d.coolant_l_per_min,
        },
        "cost_usd": {
            "hardware": k.hardware_usd,
            "facility": k.facility_usd,
            "capex": k.capex_usd,
            "energy": k.energy_usd,
            "run_amortized": k.run_amortized_usd,
            "run_cloud": k.run_cloud_usd,
            "per_day": k.per_day_usd,
            "per_million_tokens": k.per_million_tokens_usd,
        },
    })
}

/// `predict`'s answer for one plan (`good`, judged from `scenario`): its estimate, with the
/// days with failures as a distribution beside their expected value in `reliability`
/// (`spread`), its ranges, the network's load, the calibration, the chips kept idle, serving
/// and post-training (`served`), and the one job over pools or sites where it has them.
pub fn predict_json(
    scenario: &Scenario,
    good: &crate::evaluation::Evaluation,
    spread: &crate::model::failures::Spread,
    served: &crate::evaluation::Served,
    idle_kept: Option<u64>,
) -> Value {
    let e = &good.estimate;
    let reliability = joined(reliability(&e.reliability), [Some(failures_json(spread))]);
    let pools = good.pools.as_ref().map(|p| {
        let job = p.job();
        let solo: Vec<_> = p.pools.iter().map(crate::model::estimate).collect();
        let totals = crate::model::pools::totals(&p.pools, &solo, &job);
        let best = crate::model::pools::best_split(&p.pools, p.between);
        let totals = json!({
            "totals": {
                "train_days": totals.train_days,
                "effective_train_days": totals.effective_train_days,
                "capex_usd": totals.capex_usd,
                "power_w": totals.power_w,
            },
            "best": best_split_json(&best),
        });
        json!({ "pools": joined(pools_json(p.across, &job), [Some(totals)]) })
    });
    let sites = scenario.sites().ok().flatten().map(|s| {
        let sites = sites_json(&s.names(), &s.job(&good.inputs));
        json!({ "sites": joined(sites, [Some(json!({ "token_factor": s.tokens_factor() }))]) })
    });
    let answer = json!({
        "reliability": reliability,
        "range": range_json(&good.range),
        "network": network_json(&crate::evaluation::network(scenario, good)),
        "calibration": good.calibration.as_ref().map_or(Value::Null, calibration_json),
    });
    joined(
        to_json(e),
        [
            Some(answer),
            idle_kept.map(|idle| json!({ "idle_kept": idle })),
            served.serving.as_ref().map(|s| json!({ "serving": serving_json(s, &served.reach) })),
            served.rl.as_ref().map(|r| json!({ "rl": rl_json(r) })),
            pools,
            sites,
        ],
    )
}

/// The days with failures as a distribution, as keys beside the expected value in
/// `reliability`: its 10th, 50th and 90th percentiles, the runs simulated (with those stopped
/// at the event limit before finishing, and whether fewer were run), and the chance of meeting
/// the deadline (null without one).
fn failures_json(s: &crate::model::failures::Spread) -> Value {
    json!({
        "effective_train_days_p10": s.p10_days,
        "effective_train_days_p50": s.p50_days,
        "effective_train_days_p90": s.p90_days,
        "simulated_runs": s.trials,
        // The simulation is bounded in work: runs stopped before finishing, and fewer runs.
        "simulated_runs_cut_short": s.cut_short,
        "simulated_fewer_runs": s.fewer_runs,
        "deadline_chance": s.deadline_chance,
    })
}

/// Failures, checkpoints and goodput.
fn reliability(r: &ReliabilityEstimate) -> Value {
    json!({
        "interruptions_per_day": r.interruptions_per_day,
        "mtbf_h": r.mtbf_h,
        "checkpoint_bytes": r.checkpoint_bytes,
        "checkpoint_write_s": r.checkpoint_write_s,
        "checkpoint_stall_s": r.checkpoint_stall_s,
        "checkpoint_interval_s": r.checkpoint_interval_s,
        "checkpoint_steps": r.checkpoint_steps,
        "lost_per_interruption_s": r.lost_per_interruption_s,
        "goodput": r.goodput,
        "finishes": r.finishes(),
        "effective_train_days": r.effective_train_days,
        "expected_interruptions": r.expected_interruptions,
        "lost_s": {
            "checkpoints": r.checkpoint_total_s,
            "lost_work": r.lost_work_total_s,
            "restarts": r.restart_total_s,
        },
        "vendor_claim": {
            "mtbf_h": reliability::VENDOR_CLAIM.mtbf_h,
            "effective": reliability::VENDOR_CLAIM.effective,
            "per_million_chip_hours": r.vendor_claim.per_million_chip_hours,
            "calibrated_per_million_chip_hours": r.vendor_claim.calibrated_per_million_chip_hours,
            "max_lost_per_interruption_h": r.vendor_claim.max_lost_per_interruption_h,
        },
    })
}

/// The step and memory breakdowns as CSV rows `breakdown,part,value,unit`: every part of the
/// step in seconds and of the peak memory per chip in bytes, each with its total.
pub fn breakdown_csv(e: &Estimate) -> String {
    let mut out = String::from("breakdown,part,value,unit\n");
    for (id, seconds) in e.breakdown.parts() {
        out.push_str(&format!("step,{id},{seconds},s\n"));
    }
    out.push_str(&format!("step,total,{},s\n", e.step_s));
    for (id, bytes) in e.memory.parts() {
        out.push_str(&format!("memory,{id},{bytes},bytes\n"));
    }
    out.push_str(&format!("memory,peak,{},bytes\n", e.memory.peak_bytes));
    out
}

/// Serving and post-training as CSV rows `part,item,value,unit`: the headlines, the decode
/// step's parts, the frontier's points and the RL step's split.
pub fn serving_csv(e: Option<&ServingEstimate>, rl: Option<&RlEstimate>) -> String {
    let mut out = String::from("part,item,value,unit\n");
    if let Some(e) = e {
        for (item, value, unit) in [
            ("decode_tokens_per_s_per_chip", e.decode_tokens_per_s_per_chip, "tokens/s"),
            ("prefill_tokens_per_s_per_chip", e.prefill_tokens_per_s_per_chip, "tokens/s"),
            ("ttft", e.ttft_s, "s"),
            ("tpot", e.tpot_s, "s"),
            ("batch", e.batch as f64, "sequences"),
            ("max_batch", e.max_batch as f64, "sequences"),
            ("chips_needed", e.chips_needed as f64, "chips"),
            ("usd_per_million_input_tokens", e.usd_per_million_input_tokens, "usd"),
            ("usd_per_million_output_tokens", e.usd_per_million_output_tokens, "usd"),
            ("power", e.power_w, "w"),
        ] {
            out.push_str(&format!("serving,{item},{value},{unit}\n"));
        }
        for (id, seconds) in e.step.parts() {
            out.push_str(&format!("decode_step,{id},{seconds},s\n"));
        }
        for p in &e.frontier {
            out.push_str(&format!(
                "frontier,batch_{},{},tokens/s per chip\n",
                p.batch, p.tokens_per_s_per_chip
            ));
            out.push_str(&format!("frontier,batch_{}_tpot,{},s\n", p.batch, p.tpot_s));
        }
    }
    if let Some(r) = rl {
        for (item, value) in [
            ("generation", r.generation_s),
            ("scoring", r.scoring_s),
            ("training", r.training_s),
            ("handoff", r.handoff_s),
            ("step", r.step_s),
        ] {
            out.push_str(&format!("rl,{item},{value},s\n"));
        }
    }
    out
}

/// The bill of materials as CSV rows `item,tier,count,unit_price_<cur>,price_<cur>,model,
/// unit_power_w,power_w` in the site's money (`usd` or `cny`); prices or power empty where an
/// item is priced or powered within another, the model where none is named.
pub fn bom_csv(plant: &Plant, f: &FacilityEstimate) -> String {
    let money = crate::format::Money::of(&plant.facility);
    let code = money.code();
    let mut out =
        format!("item,tier,count,unit_price_{code},price_{code},model,unit_power_w,power_w\n");
    for row in crate::model::facility::priced_bom(plant, f) {
        let pair = |unit: Option<f64>, scale: &dyn Fn(f64) -> f64| match unit {
            Some(u) => format!("{:.2},{:.2}", scale(u), scale(u * row.count as f64)),
            None => ",".to_string(),
        };
        let prices = pair(row.unit_usd, &|usd| money.amount(usd));
        let power = pair(row.unit_w, &|w| w);
        let model = csv_field(row.model);
        out.push_str(&format!(
            "{},{},{},{prices},{model},{power}\n",
            row.item, row.tier, row.count
        ));
    }
    out
}

/// `text` as one CSV field: quoted, its quotes doubled, where it holds a comma or a quote.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Findings with the scenario field each concerns and, where one answers it, the edits that
/// do (`fixes`: each its words and its `set` of dotted paths to values).
fn findings(list: &[Warning]) -> Vec<Value> {
    list.iter()
        .map(|w| {
            let v = json!({ "field": fields::warning_field(w), "message": w.to_string() });
            let fixes: Vec<Value> = fields::warning_fixes(w)
                .iter()
                .map(|f| json!({ "label": f.label.to_string(), "set": Value::Object(f.changes.iter().cloned().collect()) }))
                .collect();
            let fixes = (!fixes.is_empty()).then(|| json!({ "fixes": fixes }));
            joined(v, [fixes])
        })
        .collect()
}

/// A finished search as JSON: the ranked plans, each with its scenario's `parallelism` keys,
/// its full estimate, what it loses on against the best, whether the model can tell it from
/// the best, its idle chips and their cost, and what applying it changes against the typed
/// plan; the front of days against cost; the fastest plan when a more conventional one leads;
/// the counts; where the typed plan ranks and, when it
/// is not ranked, why (`yours_why`, in words); and, when nothing ranks, why.
pub fn search_json(
    scenario: &Scenario,
    outcome: &search::Outcome,
    yours_why: &[String],
    applied: Option<&dyn Fn(&search::Plan) -> Value>,
) -> Value {
    let best = outcome.ranked.first();
    let yours = match outcome.yours.verdict {
        search::Verdict::Fits(plan) => Some(plan),
        _ => None,
    };
    // A plan as a row: its keys, its full estimate, and how it compares.
    let row = |plan: &search::Plan| {
        let estimate = scenario.with_found(plan, n_chips(plan)).estimated().ok();
        let row = json!({
            "parallelism": describe::plan(&plan.parallelism),
            "dp": plan.parallelism.data,
            "global_batch": plan.global_batch,
            "chips_used": plan.chips_used,
            "idle_chips": plan.idle_chips,
            "idle_usd": plan.idle_usd,
            "tp_domains": plan.tp_domains,
            "domain_chips": (plan.domain_chips != 0).then_some(plan.domain_chips),
            "equivalent": outcome.equivalent(plan),
            "unusual": plan.oddities.iter().map(search::Oddity::id).collect::<Vec<_>>(),
            "yours": yours.is_some_and(|y| y.parallelism == plan.parallelism),
            "estimate": estimate.map(|(_, e)| to_json(&e)),
        });
        // The best loses on nothing.
        let behind = best.filter(|best| !std::ptr::eq(*best, plan)).map(|best| {
            let gap = plan.gap(best, outcome.objective);
            json!({ "behind": gap.behind, "loses_on": { "part": gap.part, "seconds": gap.seconds } })
        });
        let against_yours =
            yours.map(|yours| json!({ "against_yours": against(&plan.against(&yours)) }));
        let inside = outcome.best_inside.filter(|_| plan.tp_crosses_domain());
        let against_inside =
            inside.map(|inside| json!({ "against_inside": against(&plan.against(&inside)) }));
        let scenario = applied.map(|applied| json!({ "scenario": applied(plan) }));
        joined(row, [behind, against_yours, against_inside, scenario])
    };
    let plans: Vec<Value> = outcome
        .ranked
        .iter()
        .enumerate()
        .map(|(i, plan)| joined(row(plan), [Some(json!({ "rank": i + 1 }))]))
        .collect();
    let pareto: Vec<Value> = outcome.pareto.iter().map(plan_summary).collect();
    let placed = &outcome.yours;
    let out = json!({
        "objective": outcome.objective.id(),
        "plans": plans,
        "pareto": pareto,
        "searched": outcome.searched,
        "pruned": outcome.pruned,
        "invalid": outcome.invalid,
        "does_not_fit": outcome.does_not_fit,
        "never_finish": outcome.never_finish,
        "evaluated": outcome.evaluated,
        "budget_spent": outcome.budget_spent,
        "equivalent_within": outcome.equivalent_within,
        "yours": {
            "rank": if placed.rank > 0 && !placed.beyond { json!(placed.rank) } else { Value::Null },
            "beyond": placed.beyond,
            "behind": placed.behind,
            "within_error": placed.within_error,
            "verdict": match placed.verdict {
                search::Verdict::Fits(_) => "fits",
                search::Verdict::DoesNotFit { .. } => "does_not_fit",
                search::Verdict::NeverFinishes { .. } => "never_finishes",
                search::Verdict::Invalid => "invalid",
            },
            "why": yours_why,
        },
    });
    // The best plan keeping tensor parallelism inside a scale-up domain, when the best does not.
    let crossing = outcome.ranked.first().is_some_and(search::Plan::tp_crosses_domain);
    let inside = outcome.best_inside.filter(|_| crossing);
    let inside = inside.map(|inside| json!({ "best_inside": row(&inside) }));
    // The fastest plan, when a more conventional one within the model's error leads.
    let fastest = outcome.fastest.as_ref().map(|fastest| json!({ "fastest": row(fastest) }));
    let why = outcome.none_because.map(|why| json!({ "why": why.to_string() }));
    joined(out, [inside, fastest, why])
}

/// Why the typed plan is not ranked, in words: the errors that keep the scenario from
/// resolving with it, the problems that keep it from running, or what it needs beyond the chip's
/// memory, or how failures keep it from finishing. Empty when it is ranked.
pub fn typed_plan_why(searchable: &Searchable, verdict: &search::Verdict) -> Vec<String> {
    let words = |w: Warning| vec![w.to_string()];
    match (&searchable.typed, verdict) {
        (Err(errors), _) => errors.iter().map(ToString::to_string).collect(),
        (Ok(_), search::Verdict::Fits(_)) => Vec::new(),
        (Ok(typed), search::Verdict::DoesNotFit { need_bytes, have_bytes }) => {
            let inputs = Inputs { parallelism: *typed, ..searchable.inputs };
            words(Warning::does_not_fit(&inputs, *need_bytes, *have_bytes))
        }
        (Ok(_), search::Verdict::NeverFinishes { mtbf_s, lost_s }) => {
            words(Warning::NeverFinishes { mtbf_s: *mtbf_s, lost_s: *lost_s })
        }
        (Ok(_), search::Verdict::Invalid) => match searchable.scenario.estimated() {
            Ok((_, e)) => e.problems.iter().map(ToString::to_string).collect(),
            Err(errors) => errors.iter().map(ToString::to_string).collect(),
        },
    }
}

/// The chips of the cluster a searched plan ran on: the ones it uses and the ones it leaves
/// idle.
fn n_chips(plan: &search::Plan) -> u32 {
    plan.chips_used.saturating_add(plan.idle_chips)
}

/// What applying a plan changes, as fractions (memory in bytes).
fn against(a: &search::Against) -> Value {
    json!({
        "days": a.days,
        "effective_days": a.effective_days,
        "run_usd": a.run_usd,
        "energy": a.energy,
        "memory_bytes": a.memory_bytes,
    })
}

/// A plan's parallelism keys and the figures it is ranked by.
pub fn plan_summary(plan: &search::Plan) -> Value {
    json!({
        "parallelism": describe::plan(&plan.parallelism),
        "step_s": plan.step_s,
        "mfu": plan.mfu,
        "train_days": plan.train_days,
        "effective_train_days": plan.effective_train_days,
        "run_usd": plan.run_usd,
        "energy_mwh": plan.energy_mwh,
        "chips_used": plan.chips_used,
        "idle_chips": plan.idle_chips,
    })
}

/// Why a sizing offers no cluster, in words: no size up to `sizing::MAX_CHIPS` meets the
/// deadline, with the fastest size found where any plan ran, the batch that keeps more chips
/// from going faster when it is what does, and the days failures add at that size. `None`
/// when it offers one.
pub fn sizing_why(deadline_days: f64, answer: &sizing::Answer) -> Option<String> {
    let sizing::Answer::Misses { fastest, batch } = answer else { return None };
    let best = fastest.as_ref().and_then(|p| p.best.map(|b| (p.chips, b)));
    let max = crate::numbers::format(sizing::MAX_CHIPS as f64);
    let deadline = crate::numbers::format(deadline_days);
    let Some((chips, plan)) = best else {
        return Some(crate::text::fill("size.misses", &[("max", &max), ("deadline", &deadline)]));
    };
    let mut words = crate::text::fill(
        "size.misses-fastest",
        &[
            ("max", &max),
            ("deadline", &deadline),
            ("days", &format!("{:.1}", plan.effective_train_days)),
            ("chips", &crate::numbers::format(chips as f64)),
        ],
    );
    if let Some(b) = batch {
        let tokens = crate::format::count(b.tokens);
        let sequences = crate::numbers::format(b.sequences as f64);
        words.push_str(&crate::text::fill(
            "size.batch-limit",
            &[("sequences", &sequences), ("tokens", &tokens)],
        ));
    }
    // Failures matter where they add a tenth to the days or more.
    let lost = plan.effective_train_days - plan.train_days;
    if lost.is_finite() && lost > 0.1 * plan.train_days {
        words.push_str(&crate::text::fill("size.failures-add", &[("days", &format!("{lost:.1}"))]));
    }
    Some(words)
}

/// One chip's largest cluster within `power_mw` as a row: its chips, nodes, racks, the power
/// its site is provisioned for and draws, capex and the days its best plan takes; `chips` null
/// (and why) when not one node or scale-up domain fits.
pub fn power_row(chip: &str, power_mw: f64, found: Option<&sizing::PowerSized>) -> Value {
    let Some(s) = found else {
        let why = crate::text::fill(
            "size.power-none",
            &[("mw", &crate::numbers::format(power_mw)), ("chip", chip)],
        );
        return json!({ "chip": chip, "chips": Value::Null, "why": why });
    };
    let e = &s.estimate;
    let f = &e.facility;
    json!({
        "chip": chip,
        "chips": s.chips,
        "unit": s.unit,
        "chips_used": e.chips_used,
        "nodes": f.bom.nodes,
        "racks": f.cooling.racks,
        "provisioned_mw": f.design.provisioned_w / 1e6,
        "facility_mw": f.power.facility_w / 1e6,
        "capex_usd": f.cost.capex_usd,
        "feasible": e.feasible && s.plan.is_some(),
        "train_days": e.train_days,
        "effective_train_days": e.effective_train_days(),
        "mfu": e.mfu,
        "plan": s.plan.map(|p| describe::plan(&p.parallelism)),
    })
}

/// One chip's sizing as a row: the smallest cluster that meets the deadline with its plan,
/// nodes, racks, site power and cost; or, when none up to `sizing::MAX_CHIPS` does, `chips`
/// null, the fastest size found and why.
pub fn sizing_row(chip: &str, deadline_days: f64, answer: &sizing::Answer, unit: u32) -> Value {
    match answer {
        sizing::Answer::Meets(s) => {
            let e = &s.estimate;
            json!({
                "chip": chip,
                "chips": s.chips,
                "misses_at": s.misses_at,
                "at_most_over": s.at_most_over(unit),
                "unit": unit,
                "chips_used": s.plan.chips_used,
                "idle_chips": s.plan.idle_chips,
                "train_days": s.plan.train_days,
                "effective_train_days": s.plan.effective_train_days,
                "mfu": s.plan.mfu,
                "nodes": e.facility.bom.nodes,
                "racks": e.facility.bom.racks,
                "facility_mw": e.facility.power.facility_w / 1e6,
                "capex_usd": e.facility.cost.capex_usd,
                "run_usd": s.plan.run_usd,
                "plan": describe::plan(&s.plan.parallelism),
                // The days the deadline was held to: the estimate, or its range's upper end.
                "held_to": s.held_to,
                "held_days": s.plan.wall_days() * s.held_to,
            })
        }
        sizing::Answer::Misses { fastest, batch } => {
            let best = fastest.as_ref().and_then(|p| p.best.map(|b| (p.chips, b)));
            let why = sizing_why(deadline_days, answer).unwrap_or_default();
            json!({
                "chip": chip,
                "chips": Value::Null,
                "why": why,
                "fastest": best.map(|(chips, plan)| {
                    joined(plan_summary(&plan), [Some(json!({ "chips": chips }))])
                }),
                // The batch that keeps more chips from going faster, when it is what does.
                "batch_limit": batch.map(|b| json!({ "sequences": b.sequences, "tokens": b.tokens })),
            })
        }
    }
}

/// A job over pools (`model::pools`) as JSON: how it spans them, its step, the link's exposed
/// share, speed and days, and each pool's part.
pub fn pools_json(
    how: crate::model::pools::Across,
    e: &crate::model::pools::PoolsEstimate,
) -> Value {
    json!({
        "across": crate::scenario::fields::PARALLELISM_ACROSS_POOLS.code(how),
        "step_s": e.step_s,
        "link_s": e.link_s,
        "tokens_per_s": e.tokens_per_s,
        "train_days": e.train_days,
        "fits": e.fits,
        "gbit_per_s_needed": e.gbit_per_s_needed,
        "gbit_per_s_needed_why": (!e.gbit_per_s_needed.is_finite()).then_some(
            "no link is fast enough: its latency alone costs more than a nineteenth of the step"),
        "train_days_why": (!e.train_days.is_finite()).then_some("no pool runs the job"),
        "pools": e.parts.iter().map(|p| json!({
            "chips": p.chips, "share": p.share, "busy_s": p.busy_s, "waits_s": p.waits_s, "fits": p.fits,
            "mfu": p.mfu,
        })).collect::<Vec<_>>(),
    })
}

/// A job over sites (`model::sites`) as JSON: its step, speed and days, the wide-area traffic,
/// each site's part with what it draws and costs, and their totals.
pub fn sites_json(names: &[String], e: &crate::model::sites::SitesEstimate) -> Value {
    json!({
        "step_s": e.step_s,
        "tokens_per_s": e.tokens_per_s,
        "train_days": e.train_days,
        "wan": {
            "bytes_per_sync": e.wan.bytes_per_sync,
            "exposed_s": e.wan.exposed_s,
            "gbit_per_s_needed": e.wan.gbit_per_s_needed,
            "unlimited_gap": e.wan.unlimited_gap,
        },
        "sites": e.sites.iter().zip(names).map(|(s, name)| json!({
            "name": name, "share": s.share, "used": s.used, "power_w": s.power_w,
            "energy_mwh": s.energy_mwh,
            "capex_usd": s.capex_usd, "run_cost_usd": s.run_cost_usd,
        })).collect::<Vec<_>>(),
        "power_w": e.power_w,
        "energy_mwh": e.energy_mwh,
        "capex_usd": e.capex_usd,
        "run_cost_usd": e.run_cost_usd,
    })
}

/// The search over a job's splits (`model::pools::best_split`) as JSON.
pub fn best_split_json(b: &crate::model::pools::BestSplit) -> Value {
    json!({
        "across": b.how.map(|how| crate::scenario::fields::PARALLELISM_ACROSS_POOLS.code(how)),
        "shares": b.job.parts.iter().map(|p| p.share).collect::<Vec<_>>(),
        "tokens_per_s": b.job.tokens_per_s,
        "train_days": b.job.train_days,
        "train_days_why": (!b.job.train_days.is_finite()).then_some("no split of the job fits and runs"),
        "gain_over_alone": b.gain_over_alone(),
        "short_of_apart": b.short_of_apart(),
    })
}

/// An input of the sensitivity sweep, named.
pub fn sensitivity_input(input: crate::model::sensitivity::Input) -> &'static str {
    crate::text::t(&format!("sensitivity.{}", input.id()))
}

/// An input's value as the page shows it, in the site's money where it is a price.
pub fn sensitivity_value(
    input: crate::model::sensitivity::Input,
    value: f64,
    money: crate::format::Money,
) -> String {
    use crate::model::sensitivity::Input;
    let sig3 = crate::numbers::sig3;
    match input {
        Input::GemmEfficiency => crate::numbers::percent(value),
        Input::ScaleOutBandwidth => format!("{} Gbit/s", sig3(value * 8.0 / 1e9)),
        Input::ScaleOutLatency => format!("{} µs", sig3(value * 1e6)),
        Input::ChipMtbf
        | Input::HostMtbf
        | Input::SoftwareMtbf
        | Input::NicMtbf
        | Input::SwitchMtbf
        | Input::LinkMtbf => {
            crate::text::fill("sensitivity.hours", &[("n", &crate::numbers::format(value.round()))])
        }
        Input::CheckpointBandwidth => format!("{} GB/s", sig3(value / 1e9)),
        Input::Pue => format!("{value:.2}"),
        Input::HardwarePrice => {
            crate::text::fill("sensitivity.per-node", &[("n", &money.show(value))])
        }
        Input::PowerPrice => format!("{}/kWh", money.show(value)),
        Input::ModelError => format!("×{value:.2}"),
    }
}

/// The decision the sweep's largest entry threatens, in a sentence: the deadline missed,
/// still met or missed already at its worse end, or without a deadline, the days and cost
/// there.
pub fn sensitivity_threat(
    s: &crate::model::sensitivity::Sensitivity,
    money: crate::format::Money,
) -> Option<String> {
    let top = s.top()?;
    let at = crate::text::t(&format!("sensitivity.{}.low", top.input.id()));
    let days = crate::format::days(top.effective_days.0);
    Some(match s.deadline_days {
        Some(deadline) => {
            let d = crate::format::days(deadline);
            let key = if s.effective_days > deadline {
                "sensitivity.missed-already"
            } else if top.effective_days.0 > deadline {
                "sensitivity.misses"
            } else {
                "sensitivity.still-met"
            };
            crate::text::fill(key, &[("at", at), ("deadline", &d), ("days", &days)])
        }
        None => {
            let more = top.effective_days.0 - s.effective_days;
            let delta = if more.is_finite() { crate::format::days(more) } else { days.clone() };
            let cost = money.show(top.cost_usd.0);
            crate::text::fill(
                "sensitivity.no-deadline",
                &[("at", at), ("days", &days), ("delta", &delta), ("cost", &cost)],
            )
        }
    })
}

/// A plan's launch configuration (`launch::launch`): its files, where the ranks sit and what
/// the framework cannot express.
pub fn launch_json(l: &crate::launch::Launch) -> Value {
    json!({
        "for": l.framework.id(),
        "release": l.framework.release(),
        "files": l.files.iter().map(|f| json!({ "name": f.name, "text": f.text })).collect::<Vec<_>>(),
        "layout": {
            "nodes": l.layout.nodes,
            "per_node": l.layout.per_node,
            "groups": l.layout.groups.iter().map(|g| json!({
                "kind": g.kind, "size": g.size, "stride": g.stride, "in_node": g.in_node,
            })).collect::<Vec<_>>(),
        },
        "cannot": l.cannot.iter().map(|c| c.id()).collect::<Vec<_>>(),
    })
}

/// What a measurement read from a log is, with its unit in its name.
fn measured_json(m: &crate::measure::Measured) -> Value {
    use crate::measure::Measured;
    match m {
        Measured::StepS(s) => json!({ "step_s": s }),
        Measured::TokensPerChipS(t) => json!({ "tokens_per_s_per_chip": t }),
        Measured::Fabric(t) => json!({
            "collective": t.collective, "ranks": t.ranks, "nodes": t.nodes,
            "smallest_bytes": t.smallest_bytes, "smallest_us": t.smallest_us,
            "largest_bytes": t.largest_bytes, "largest_us": t.largest_us,
            "bus_gb_per_s": t.bus_gb_per_s,
        }),
        Measured::Serving {
            output_tokens_per_s,
            requests_per_s,
            ttft_p50_ms,
            ttft_p99_ms,
            tpot_p50_ms,
            tpot_p99_ms,
            concurrency,
            input_tokens,
            output_tokens,
        } => json!({
            "concurrency": concurrency, "input_tokens": input_tokens, "output_tokens": output_tokens,
            "output_tokens_per_s": output_tokens_per_s, "requests_per_s": requests_per_s,
            "ttft_p50_ms": ttft_p50_ms, "ttft_p99_ms": ttft_p99_ms,
            "tpot_p50_ms": tpot_p50_ms, "tpot_p99_ms": tpot_p99_ms,
        }),
    }
}

/// Logs read into measurements (`evaluation::measure`): the `calibration` entries, what each
/// log gave and what was skipped and why, and with a scenario the fit and the plan's days
/// before and after.
pub fn measure_json(m: &crate::evaluation::Measuring) -> Value {
    let judged = |e: &crate::evaluation::Evaluation| {
        json!({
            "step_s": e.estimate.step_s,
            "train_days": e.estimate.train_days,
            "range": range_json(&e.range),
        })
    };
    json!({
        "calibration": m.entries,
        "read": m.readings.iter().map(|r| json!({
            "file": r.name,
            "format": r.format.id(),
            "measured": measured_json(&r.measured),
            "lines": r.lines,
            "samples": r.samples,
            "warmup_skipped": r.warmup,
            "ranks": r.ranks,
            "lines_skipped": r.skipped_lines,
            "plan_from_log": r.plan.is_some(),
            "world": r.world,
            "shape": r.shape.map(|s| json!({
                "layers": s.layers, "hidden": s.hidden, "ffn": s.ffn, "heads": s.heads,
                "kv_heads": s.kv_heads, "head_dim": s.head_dim, "experts": s.experts,
                "top_k": s.top_k, "expert_ffn": s.expert_ffn, "vocab": s.vocab,
            })),
        })).collect::<Vec<_>>(),
        "skipped": m.unread.iter().map(|(name, why)| {
            let v = json!({ "file": name, "why": why.id() });
            let detail = match why {
                crate::measure::Why::NoLines { lines } => Some(json!({ "lines": lines })),
                crate::measure::Why::NotCalibrated(f) => Some(json!({ "format": f.id() })),
                _ => None,
            };
            joined(v, [detail])
        }).collect::<Vec<_>>(),
        "fit": m.after.as_ref().and_then(|a| a.calibration.as_ref()).map(calibration_json),
        "serving": m.serving.iter().map(|(file, f)| json!({
            "file": file,
            "kernel_share": f.kernel_share,
            "catalog_share": f.catalog_share,
            "concurrency": f.concurrency,
            "measured_tpot_s": f.measured_tpot_s,
            "before_tpot_s": f.before_tpot_s,
            "after_tpot_s": f.after_tpot_s,
        })).collect::<Vec<_>>(),
        "fabric": m.fabric.iter().map(|(file, f)| json!({
            "file": file,
            "links": f.links,
            "efficiency": f.efficiency,
            "latency_us": f.latency_us,
            "before_s": [f.before_s.0, f.before_s.1],
            "after_s": [f.after_s.0, f.after_s.1],
        })).collect::<Vec<_>>(),
        "before": m.before.as_ref().map(judged),
        "after": m.after.as_ref().map(judged),
    })
}
