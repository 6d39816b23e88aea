//! The inverse of `resolve` for the parts a user may take over by hand: resolved figures
//! written back as scenario JSON, so "custom chip" and "custom dimensions" start from exactly
//! what was on screen and the estimate does not move until the user changes a figure.

use serde_json::{json, Map, Value};

use super::{fields, leaves, paths, Path};

use crate::model::{Chip, Cluster, Link, Parallelism, ScaleUp, Transformer};

/// A transformer as explicit dimensions (`model` without a preset).
pub fn transformer(t: &Transformer) -> Value {
    let mut model = json!({
        "layers": t.n_layers, "hidden": t.hidden, "heads": t.n_heads, "kv_heads": t.n_kv_heads,
        "head_dim": t.head_dim, "ffn": t.ffn, "vocab": t.vocab, "seq_len": t.seq_len,
        "ffn_act": fields::MODEL_FFN_ACT.code(t.ffn_kind),
        "attention": fields::MODEL_ATTENTION.code(t.attention),
        "tied_embeddings": t.tied_embeddings, "dropout": t.dropout, "mtp_layers": t.mtp_layers,
        "causal": t.causal,
    });
    if let Some(c) = t.cross {
        model["cross_attention"] = json!({ "tokens": c.tokens, "width": c.width });
    }
    if let Some(w) = t.window {
        model["window"] = json!({ "tokens": w.tokens, "global_every": w.global_every });
    }
    if let Some(v) = t.vision {
        model["vision"] = json!({ "layers": v.layers, "hidden": v.hidden, "heads": v.heads,
            "ffn": v.ffn, "patch": v.patch, "image_tokens": v.tokens, "images_per_sample": 1 });
        if let Some(tp) = v.tp {
            model["vision"]["tp"] = json!(tp);
        }
    }
    if let Some(y) = t.hybrid {
        let kinds =
            [('M', y.mamba), ('G', y.linear), ('*', y.attention), ('-', y.mlp), ('E', y.moe)];
        let pattern: String =
            kinds.iter().flat_map(|&(c, n)| std::iter::repeat_n(c, n as usize)).collect();
        let m = y.mixer;
        model["hybrid_pattern"] = json!(pattern);
        model["mamba"] = json!({ "kind": fields::MODEL_MAMBA_KIND.code(m.kind), "state": m.state,
            "heads": m.heads, "head_dim": m.head_dim, "groups": m.groups, "conv": m.conv,
            "chunk": m.chunk, "dt_rank": m.dt_rank });
        let l = y.linear_mixer;
        model["linear"] = json!({ "kind": fields::MODEL_LINEAR_KIND.code(l.kind),
            "heads": l.heads, "key_heads": l.key_heads, "head_dim": l.head_dim,
            "v_head_dim": l.v_head_dim, "conv": l.conv, "chunk": l.chunk, "lora": l.lora });
    }
    if let Some(m) = t.mla {
        model["attention"] = json!("mla");
        model["mla"] = json!({ "q_lora_rank": m.q_lora_rank, "kv_lora_rank": m.kv_lora_rank,
            "rope_head_dim": m.rope_head_dim, "v_head_dim": m.v_head_dim });
    }
    if let Some(m) = t.moe {
        model["moe"] = json!({ "experts": m.n_experts, "top_k": m.top_k,
            "shared_experts": m.n_shared_experts, "expert_ffn": m.expert_ffn,
            "dense_layers": m.n_dense_layers, "capacity_factor": m.capacity_factor,
            "node_limit": m.node_limit, "imbalance": m.imbalance });
    }
    model
}

/// A chip's figures in the scenario's keys and datasheet units.
pub fn chip(c: &Chip) -> Map<String, Value> {
    leaves::write(&leaves::CHIP, c)
}

/// A scale-up fabric's figures; datasheets quote its bandwidth as both directions added, the
/// model keeps one.
pub fn scale_up(s: &ScaleUp) -> Map<String, Value> {
    leaves::write(&leaves::SCALE_UP, s)
}

/// A scale-out network's figures per chip.
pub fn scale_out(l: &Link) -> Map<String, Value> {
    leaves::write(&leaves::SCALE_OUT, l)
}

/// The object inside a JSON value (empty for anything else).
pub(crate) fn into_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A cluster's chip and both fabrics as custom objects: `cluster.chip`, `cluster.scale_up`,
/// `cluster.scale_out`, in that order.
pub fn custom_chip(c: &Cluster) -> [(Path, Value); 3] {
    let mut figures = chip(&c.chip);
    figures.insert("name".into(), Value::from("Custom chip"));
    [
        (paths::CLUSTER_CHIP, Value::Object(figures)),
        (paths::CLUSTER_SCALE_UP, Value::Object(scale_up(&c.scale_up))),
        (paths::CLUSTER_SCALE_OUT, Value::Object(scale_out(&c.scale_out))),
    ]
}

/// A plan's degrees and schedule in the scenario's `parallelism` keys. The data-parallel degree
/// is left out (`Scenario::with_plan` sets it when the plan leaves chips idle), and so are the
/// overlap flags, which belong to the software stack; the expert tensor-parallel degree is
/// given only where it differs from the tensor-parallel degree it defaults to.
pub fn plan(p: &Parallelism) -> Map<String, Value> {
    let mut keys = into_map(json!({
        "tp": p.tensor, "pp": p.pipeline, "cp": p.context, "ep": p.expert,
        "micro_batch": p.micro_batch, "virtual_stages": p.virtual_stages,
        "zero": p.sharding.stage(),
        "recompute": fields::PARALLELISM_RECOMPUTE.code(p.recompute),
        "sequence_parallel": p.sequence_parallel,
        "recompute_elementwise": p.recompute_elementwise,
    }));
    // Only where set: a choice the plan search never makes, carried from the typed plan.
    if p.recompute_mlp_up {
        keys.insert("recompute_mlp_up".into(), json!(true));
    }
    if p.expert_tensor != p.tensor {
        keys.insert("etp".into(), json!(p.expert_tensor));
    }
    if p.context > 1 {
        keys.insert("cp_kind".into(), json!(fields::PARALLELISM_CP_KIND.code(p.cp_kind)));
    }
    keys
}
