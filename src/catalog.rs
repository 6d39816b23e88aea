//! The preset catalog as JSON, in datasheet units, for `clusterplan catalog` and the app.
//!
//! Reads `model::presets`; adds no figures of its own.

use serde_json::{json, Map, Value};

use crate::model::presets;
use crate::scenario::describe::{self, into_map};
use crate::scenario::fields;

/// The keys every catalog entry starts with.
fn identity(id: &str, name: &str, basis: &str, source: &str) -> Map<String, Value> {
    into_map(json!({ "id": id, "name": name, "basis": basis, "source": source }))
}

/// Every chip, scale-up fabric, scale-out fabric and transformer preset with id, figures and source.
pub fn to_json() -> Value {
    // Figures in the scenario's own keys and units (`scenario::describe`), so what the catalog
    // prints can be pasted into a scenario; unverified figures are named by those keys too.
    let chips: Vec<Value> = presets::CHIPS
        .iter()
        .map(|p| {
            let mut entry = describe::chip(&p.chip);
            let unverified: Vec<&str> = p
                .unverified
                .iter()
                .filter_map(|f| fields::chip_figure_path(f))
                .map(|path| path.rsplit('.').next().unwrap_or(path))
                .collect();
            entry.extend(identity(p.id, p.name, p.basis.as_str(), p.source));
            entry.extend(into_map(json!({
                "vendor": p.vendor,
                "scale_up": p.scale_up,
                "scale_out": p.scale_out,
                "chips_per_node": p.chips_per_node,
                "unverified": unverified,
            })));
            Value::Object(entry)
        })
        .collect();
    let scale_up: Vec<Value> = presets::SCALE_UP
        .iter()
        .map(|p| {
            let mut entry = describe::scale_up(&p.scale_up);
            entry.extend(identity(p.id, p.name, p.basis.as_str(), p.source));
            Value::Object(entry)
        })
        .collect();
    let scale_out: Vec<Value> = presets::SCALE_OUT
        .iter()
        .map(|p| {
            let mut entry = describe::scale_out(&p.link);
            entry.extend(identity(p.id, p.name, p.basis.as_str(), p.source));
            Value::Object(entry)
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
