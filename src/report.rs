//! The estimate as JSON, for the command-line tool and exported files.
//!
//! Field names carry their units; every number is copied from `model::Estimate` unchanged.

use serde_json::{json, Map, Value};

use crate::model::{Estimate, Phase, Warning};
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
    })
}

/// Blocking problems with the scenario field each concerns.
fn findings(list: &[Warning]) -> Vec<Value> {
    list.iter()
        .map(|w| json!({ "field": fields::warning_field(w), "message": w.to_string() }))
        .collect()
}
