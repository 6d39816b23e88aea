//! The inverse of `resolve` for the parts a user may take over by hand: resolved figures
//! written back as scenario JSON, so "custom chip" and "custom dimensions" start from exactly
//! what was on screen and the estimate does not move until the user changes a figure.

use serde_json::{json, Value};

use crate::model::presets::units;
use crate::model::{AttentionImpl, Cluster, FfnKind, Transformer};

/// A transformer as explicit dimensions (`model` without a preset).
pub fn transformer(t: &Transformer) -> Value {
    let mut model = json!({
        "layers": t.n_layers, "hidden": t.hidden, "heads": t.n_heads, "kv_heads": t.n_kv_heads,
        "head_dim": t.head_dim, "ffn": t.ffn, "vocab": t.vocab, "seq_len": t.seq_len,
        "ffn_act": if t.ffn_kind == FfnKind::SwiGlu { "swiglu" } else { "gelu" },
        "attention": if t.attention == AttentionImpl::Flash { "flash" } else { "materialized" },
        "tied_embeddings": t.tied_embeddings, "dropout": t.dropout, "mtp_layers": t.mtp_layers,
    });
    if let Some(m) = t.moe {
        model["moe"] = json!({ "experts": m.n_experts, "top_k": m.top_k,
            "shared_experts": m.n_shared_experts, "expert_ffn": m.expert_ffn,
            "dense_layers": m.n_dense_layers, "capacity_factor": m.capacity_factor,
            "node_limit": m.node_limit });
    }
    model
}

/// A cluster's chip and both fabrics as custom objects: `cluster.chip`, `cluster.scale_up`,
/// `cluster.scale_out`, in that order.
pub fn custom_chip(c: &Cluster) -> [(&'static str, Value); 3] {
    // Datasheets quote scale-up bandwidth as both directions added; the model keeps one.
    [
        (
            "cluster.chip",
            json!({
                "name": "Custom chip",
                "bf16_tflops": c.chip.bf16_flops_per_s / units::TFLOPS,
                "fp8_tflops": c.chip.fp8_flops_per_s / units::TFLOPS,
                "fp32_tflops": c.chip.fp32_flops_per_s / units::TFLOPS,
                "hbm_gb": c.chip.hbm_bytes / units::GB,
                "hbm_tb_per_s": c.chip.hbm_bytes_per_s / units::TB_PER_S,
                "tdp_w": c.chip.tdp_w,
                "matmul_efficiency": c.chip.matmul_efficiency,
                "memory_efficiency": c.chip.memory_efficiency,
                "price_usd": c.chip.price_usd,
            }),
        ),
        (
            "cluster.scale_up",
            json!({
                "bandwidth_gb_per_s": 2.0 * c.scale_up.link.bytes_per_s / units::GB_PER_S,
                "domain": c.scale_up.domain_size,
                "latency_us": c.scale_up.link.latency_s / units::US,
                "efficiency": c.scale_up.link.efficiency,
            }),
        ),
        (
            "cluster.scale_out",
            json!({
                "gbit_per_s": c.scale_out.bytes_per_s / units::GBIT_PER_S,
                "latency_us": c.scale_out.latency_s / units::US,
                "efficiency": c.scale_out.efficiency,
            }),
        ),
    ]
}
