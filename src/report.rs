//! The estimate as JSON, for the command-line tool and exported files.
//!
//! Field names carry their units; every number is copied from `model::Estimate` unchanged.

use serde_json::{json, Map, Value};

use crate::model::reliability;
use crate::model::{Estimate, FacilityEstimate, Phase, ReliabilityEstimate, Warning, CABLE_TIERS};
use crate::scenario::fields;

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
        },
        "feasible": e.feasible,
        "problems": findings(&e.problems),
        "warnings": e.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        "notes": e.notes.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        "facility": facility(&e.facility),
        "effective_train_days": e.effective_train_days,
        "reliability": reliability(&e.reliability),
    })
}

/// The cluster as built: bill of materials, power, energy, cooling and cost.
fn facility(f: &FacilityEstimate) -> Value {
    let b = &f.bom;
    let p = &f.power;
    let c = &f.cooling;
    let k = &f.cost;
    json!({
        "nodes": b.nodes,
        "racks": c.racks,
        "network": {
            "tiers": b.tiers,
            "planes": b.planes,
            "switches": { "leaf": b.leaf, "spine": b.spine, "core": b.core, "scale_up": b.scale_up_switches },
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
            "facility": p.facility_w,
            "peak_it": p.peak_it_w,
        },
        "energy_mwh": f.energy_mwh,
        "co2_t": f.co2_t,
        "cooling": {
            "rack_kw": c.rack_w / 1000.0,
            "liquid_w": c.liquid_w,
            "air_w": c.air_w,
            "coolant_l_per_min": c.coolant_l_per_min,
            "refrigeration_tons": c.refrigeration_tons,
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

/// Failures, checkpoints and goodput.
fn reliability(r: &ReliabilityEstimate) -> Value {
    json!({
        "interruptions_per_day": r.interruptions_per_day,
        "mtbf_h": r.mtbf_h,
        "checkpoint_bytes": r.checkpoint_bytes,
        "checkpoint_write_s": r.checkpoint_write_s,
        "checkpoint_stall_s": r.checkpoint_stall_s,
        "checkpoint_interval_s": r.checkpoint_interval_s,
        "lost_per_interruption_s": r.lost_per_interruption_s,
        "goodput": r.goodput,
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

/// The bill of materials as CSV rows `item,tier,count`.
pub fn bom_csv(f: &FacilityEstimate) -> String {
    let mut out = String::from("item,tier,count\n");
    for (item, tier, count) in bom_rows(f) {
        out.push_str(&format!("{item},{tier},{count}\n"));
    }
    out
}

/// The bill of materials as `(item, tier, count)` rows, for the CSV and the page's table.
pub fn bom_rows(f: &FacilityEstimate) -> Vec<(&'static str, &'static str, u64)> {
    let b = &f.bom;
    let mut rows = vec![
        ("nodes", "", b.nodes),
        ("racks", "", f.cooling.racks),
        ("scale-up switch trays", "", b.scale_up_switches),
        ("leaf switches", "", b.leaf),
        ("spine switches", "", b.spine),
        ("core switches", "", b.core),
        ("NIC ports", "", b.nics),
        ("transceivers", "", b.transceivers),
    ];
    for (idx, tier) in CABLE_TIERS.iter().enumerate() {
        rows.push(("cables", tier, b.cables[idx]));
        rows.push(("of which optical", tier, b.optical[idx]));
    }
    rows
}

/// Blocking problems with the scenario field each concerns.
fn findings(list: &[Warning]) -> Vec<Value> {
    list.iter()
        .map(|w| json!({ "field": fields::warning_field(w), "message": w.to_string() }))
        .collect()
}
