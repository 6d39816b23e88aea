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
            let mut entry = describe::chip(&p.figures());
            let unverified: Vec<&str> = p
                .unverified
                .iter()
                .filter_map(|f| fields::chip_figure_path(f))
                .map(|path| path.rsplit('.').next().unwrap_or(path))
                .collect();
            entry.extend(identity(p.id, p.name, p.basis.as_str(), p.source));
            // Which chips published runs fit, which take their family's fit, and which are
            // set by chip class.
            let fit = crate::model::presets::fitted::CHIP_GEMM.iter().find(|f| f.0 == p.id);
            let efficiency = match fit {
                Some(f) if f.2 > 0 => "fitted to published runs",
                Some(_) => "as its family's fitted chips",
                None => "by chip class",
            };
            entry.extend(into_map(json!({
                "efficiency": efficiency,
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
            // The model in the scenario's own keys (its attention kind, MLA, layer pattern,
            // mixers, encoder and cross-attention among them), as a custom model starts from.
            let t = &p.transformer;
            let mut entry = into_map(describe::transformer(t));
            entry.extend(into_map(json!({
                "id": p.id,
                "name": p.name,
                "params": t.params(),
                "active_params": t.active_params(),
                "source": p.source,
            })));
            Value::Object(entry)
        })
        .collect();
    let systems: Vec<Value> = presets::SYSTEMS
        .iter()
        .map(|p| {
            let s = &p.system;
            let mut entry = identity(p.id, p.name, p.basis.as_str(), p.source);
            entry.extend(into_map(json!({
                "chip": p.chip,
                "chips_per_node": s.chips_per_node,
                "nics_per_chip": s.nics_per_chip,
                "node_max_kw": fields::CLUSTER_SYSTEM_NODE_MAX_KW.from_si(s.node_max_w),
                "nodes_per_rack": s.nodes_per_rack,
                "liquid": s.liquid,
                "node_price_usd": s.node_price_usd,
                "scale_up": p.scale_up,
                "scale_out": p.scale_out,
                "switch": p.switch,
                "superpod": p.superpod.map(|r| json!({ "nodes_per_unit": r.nodes_per_unit, "min_tiers": r.min_tiers })),
                "unverified": p.unverified,
            })));
            Value::Object(entry)
        })
        .collect();
    let switches: Vec<Value> = presets::SWITCHES
        .iter()
        .map(|p| {
            let s = &p.switch;
            let mut entry = identity(p.id, p.name, p.basis.as_str(), p.source);
            entry.extend(into_map(json!({
                "ports": s.ports,
                "gbit_per_s": fields::CLUSTER_FABRIC_SWITCH_GBIT_PER_S.from_si(s.port_bytes_per_s),
                "power_w": s.power_w,
                "price_usd": s.price_usd,
                "ports_per_transceiver": s.ports_per_transceiver,
                "unverified": p.unverified,
            })));
            Value::Object(entry)
        })
        .collect();
    json!({ "chips": chips, "scale_up": scale_up, "scale_out": scale_out, "systems": systems,
            "switches": switches, "models": models })
}
