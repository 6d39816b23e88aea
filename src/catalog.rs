//! The preset catalog as JSON, in datasheet units, for `clusterplan catalog` and the app.
//!
//! Reads `model::presets`; adds no figures of its own.

use serde_json::{json, Value};

use crate::model::presets::{self, units::*};

/// Every chip, scale-up fabric, scale-out fabric and transformer preset with id, figures and source.
pub fn to_json() -> Value {
    let chips: Vec<Value> = presets::CHIPS
        .iter()
        .map(|p| {
            let c = &p.chip;
            json!({
                "id": p.id,
                "name": p.name,
                "vendor": p.vendor,
                "bf16_tflops": c.bf16_flops_per_s / TFLOPS,
                "fp8_tflops": c.fp8_flops_per_s / TFLOPS,
                "fp32_tflops": c.fp32_flops_per_s / TFLOPS,
                "hbm_gb": c.hbm_bytes / GB,
                "hbm_tb_per_s": c.hbm_bytes_per_s / TB_PER_S,
                "tdp_w": c.tdp_w,
                "price_usd": c.price_usd,
                "matmul_efficiency": c.matmul_efficiency,
                "memory_efficiency": c.memory_efficiency,
                "scale_up": p.scale_up,
                "scale_out": p.scale_out,
                "chips_per_node": p.chips_per_node,
                "basis": p.basis.as_str(),
                "unverified": p.unverified,
                "source": p.source,
            })
        })
        .collect();
    let scale_up: Vec<Value> = presets::SCALE_UP
        .iter()
        .map(|p| {
            let l = &p.scale_up.link;
            json!({
                "id": p.id,
                "name": p.name,
                "bandwidth_gb_per_s": 2.0 * l.bytes_per_s / GB_PER_S,
                "domain": p.scale_up.domain_size,
                "latency_us": l.latency_s / US,
                "efficiency": l.efficiency,
                "basis": p.basis.as_str(),
                "source": p.source,
            })
        })
        .collect();
    let scale_out: Vec<Value> = presets::SCALE_OUT
        .iter()
        .map(|p| {
            json!({
                "id": p.id,
                "name": p.name,
                "gbit_per_s": p.link.bytes_per_s / GBIT_PER_S,
                "latency_us": p.link.latency_s / US,
                "efficiency": p.link.efficiency,
                "basis": p.basis.as_str(),
                "source": p.source,
            })
        })
        .collect();
    let models: Vec<Value> = presets::TRANSFORMERS
        .iter()
        .map(|p| {
            let t = &p.transformer;
            json!({
                "id": p.id,
                "name": p.name,
                "params": t.params(),
                "active_params": t.active_params(),
                "layers": t.n_layers,
                "hidden": t.hidden,
                "heads": t.n_heads,
                "kv_heads": t.n_kv_heads,
                "head_dim": t.head_dim,
                "ffn": t.ffn,
                "vocab": t.vocab,
                "seq_len": t.seq_len,
                "moe": t.moe.map(|m| json!({
                    "experts": m.n_experts,
                    "top_k": m.top_k,
                    "shared_experts": m.n_shared_experts,
                    "expert_ffn": m.expert_ffn,
                    "dense_layers": m.n_dense_layers,
                    "node_limit": m.node_limit,
                })),
                "source": p.source,
            })
        })
        .collect();
    json!({ "chips": chips, "scale_up": scale_up, "scale_out": scale_out, "models": models })
}
