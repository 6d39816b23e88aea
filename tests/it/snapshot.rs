//! A snapshot of the full estimate (every key `predict` prints) for the reference plans,
//! rounded to 4 significant digits, so a refactor is provably a no-op and a model change shows
//! exactly which numbers moved. `UPDATE_SNAPSHOT=1 cargo test --test it snapshot::` rewrites
//! `tests/data/reference-estimates.json` after a deliberate change.
#![cfg(not(target_arch = "wasm32"))]

use clusterplan::report;
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

/// The reference plans: the default, the published runs' shapes, other chips, systems and
/// sites, and plans the policy calls impossible.
fn plans() -> Vec<(&'static str, Value)> {
    let default = serde_json::to_value(Scenario::default_plan()).expect("default plan");
    let with = |changes: Value| {
        let mut plan = default.clone();
        merge(&mut plan, &changes);
        plan
    };
    vec![
        ("default: Llama 3.1 405B on 16,384 H100", default.clone()),
        (
            "Llama 3.1 405B, 8,192 H100, PP 16 x 8 virtual",
            with(
                json!({ "cluster": { "chips": 8192 }, "parallelism": { "cp": 1, "virtual_stages": 8 } }),
            ),
        ),
        (
            "DeepSeek-V3 on 2,048 H800, published plan",
            json!({
            "model": { "preset": "deepseek-v3" },
            "training": { "tokens": 14.8e12, "global_batch": 15360, "recipe": "fp8" },
            "cluster": { "chip": "h800", "chips": 2048, "scale_out": "ib-ndr" },
            "parallelism": { "tp": 1, "pp": 16, "dp": 128, "ep": 64, "zero": 1, "recompute": "selective", "ep_overlap": true } }),
        ),
        (
            "GPT-3 175B on 1,024 A100, full recompute",
            json!({
            "model": { "preset": "gpt3-175b" }, "training": { "tokens": 300e9, "global_batch": 1536 },
            "cluster": { "chip": "a100-80gb", "chips": 1024 },
            "parallelism": { "tp": 8, "pp": 8, "micro_batch": 1, "recompute": "full" } }),
        ),
        (
            "Llama 3 70B on 512 H200, ZeRO-3",
            json!({
            "model": { "preset": "llama3-70b" }, "training": { "tokens": 15e12, "global_batch": 1024 },
            "cluster": { "chip": "h200", "chips": 512 },
            "parallelism": { "tp": 8, "zero": 3 } }),
        ),
        (
            "Mixtral 8x7B on 256 MI300X, EP 8",
            json!({
            "model": { "preset": "mixtral-8x7b" }, "training": { "tokens": 2e12, "global_batch": 512 },
            "cluster": { "chip": "mi300x", "chips": 256 },
            "parallelism": { "tp": 2, "ep": 8 } }),
        ),
        (
            "Llama 3 8B on 1,024 Ascend 910B",
            json!({
            "model": { "preset": "llama3-8b" }, "training": { "tokens": 15e12, "global_batch": 1024 },
            "cluster": { "chip": "ascend-910b", "chips": 1024 },
            "parallelism": { "tp": 1, "zero": 1 } }),
        ),
        (
            "GB200 NVL72 at 9,216 chips, TP 8 x PP 8",
            with(
                json!({ "cluster": { "chip": "gb200", "chips": 9216, "scale_out": null }, "parallelism": { "pp": 8, "cp": 1, "virtual_stages": 1 } }),
            ),
        ),
        (
            "DGX B200 SuperPOD, 4,096 chips, 1:4 core",
            with(
                json!({ "cluster": { "system": "dgx-b200", "chip": "b200", "chips": 4096, "scale_out": null, "fabric": { "oversubscription": 4 } }, "parallelism": { "pp": 8, "cp": 1, "virtual_stages": 2 } }),
            ),
        ),
        (
            "two planes on a liquid site",
            with(
                json!({ "cluster": { "fabric": { "planes": 2 } }, "facility": { "cooling": "liquid", "usd_per_kwh": 0.12 } }),
            ),
        ),
        (
            "impossible: EP 64 with DP x CP = 16",
            with(
                json!({ "model": { "preset": "deepseek-v3" }, "cluster": { "chips": 2048 }, "parallelism": { "ep": 64 } }),
            ),
        ),
        (
            "impossible: micro-batch above the replica's batch",
            with(json!({ "parallelism": { "micro_batch": 4096 } })),
        ),
        (
            "Nemotron-H 56B on 2,048 H100, FP8",
            json!({
            "model": { "preset": "nemotron-h-56b" }, "training": { "tokens": 20e12, "global_batch": 6144, "recipe": "fp8" },
            "cluster": { "chip": "h100-sxm", "chips": 2048 },
            "parallelism": { "tp": 8, "pp": 1, "cp": 1, "zero": 1, "recompute": "none" } }),
        ),
        (
            "Qwen2-VL 72B on 512 H100, TP 8 PP 4",
            json!({
            "model": { "preset": "qwen2-vl-72b" }, "training": { "tokens": 1e12, "global_batch": 512 },
            "cluster": { "chip": "h100-sxm", "chips": 512 },
            "parallelism": { "tp": 8, "pp": 4, "cp": 1, "virtual_stages": 1 } }),
        ),
        (
            "Wan 2.1 14B on 128 H100, TP 2 CP 4, full recompute",
            json!({
            "model": { "preset": "wan2.1-14b" }, "training": { "tokens": 1e12, "global_batch": 128 },
            "cluster": { "chip": "h100-sxm", "chips": 128 },
            "parallelism": { "tp": 2, "pp": 1, "cp": 4, "recompute": "full" } }),
        ),
        (
            "Qwen3-Next 80B-A3B on 128 H100, EP 32",
            json!({
            "model": { "preset": "qwen3-next-80b-a3b" }, "training": { "tokens": 15e12, "global_batch": 1024 },
            "cluster": { "chip": "h100-sxm", "chips": 128 },
            "parallelism": { "tp": 1, "pp": 1, "cp": 1, "ep": 32 } }),
        ),
        (
            "Jamba 1.5 Mini on 256 H100, TP 2 EP 8",
            json!({
            "model": { "preset": "jamba-1.5-mini" }, "training": { "tokens": 1e12, "global_batch": 512 },
            "cluster": { "chip": "h100-sxm", "chips": 256 },
            "parallelism": { "tp": 2, "pp": 1, "cp": 1, "ep": 8 } }),
        ),
        (
            "RWKV-7 2.9B on 32 H100, ZeRO-2",
            json!({
            "model": { "preset": "rwkv7-2.9b" }, "training": { "tokens": 3e12, "global_batch": 256 },
            "cluster": { "chip": "h100-sxm", "chips": 32 },
            "parallelism": { "tp": 1, "pp": 1, "cp": 1, "zero": 2 } }),
        ),
    ]
}

fn merge(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    b.remove(k);
                } else {
                    merge(b.entry(k.clone()).or_insert(Value::Null), v);
                }
            }
        }
        (b, p) => *b = p.clone(),
    }
}

/// Every number to 4 significant digits, so float noise never churns the snapshot.
fn round(value: &Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            // Through decimal text, so the value read back from the file is the same double.
            Some(x) if x.is_finite() && n.as_u64().is_none() => {
                json!(format!("{x:.3e}").parse::<f64>().unwrap_or(x))
            }
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(round).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), round(v))).collect())
        }
        other => other.clone(),
    }
}

#[test]
fn reference_estimates_are_unchanged() {
    let mut actual = serde_json::Map::new();
    for (name, plan) in plans() {
        let scenario = Scenario::from_value(plan).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (_, estimate) = scenario.estimated().unwrap_or_else(|e| panic!("{name}: {e:?}"));
        actual.insert(name.to_string(), round(&report::to_json(&estimate)));
    }
    assert_eq!(actual.len(), plans().len(), "every reference plan has its own name");
    let actual = Value::Object(actual);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/reference-estimates.json");
    if std::env::var_os("UPDATE_SNAPSHOT").is_some() {
        let text = serde_json::to_string_pretty(&actual).expect("json") + "\n";
        std::fs::write(path, text).expect("write the snapshot");
    }
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_default())
        .unwrap_or(Value::Null);
    if expected != actual {
        let (Value::Object(e), Value::Object(a)) = (&expected, &actual) else {
            panic!("tests/data/reference-estimates.json is missing: run with UPDATE_SNAPSHOT=1");
        };
        let moved: Vec<String> = a
            .iter()
            .filter(|(k, v)| e.get(*k) != Some(v))
            .map(|(k, v)| format!("{k}: {}", diff(e.get(k).unwrap_or(&Value::Null), v, "")))
            .collect();
        panic!(
            "the estimate moved (UPDATE_SNAPSHOT=1 after a deliberate change):\n{}",
            moved.join("\n")
        );
    }
}

/// The first few keys whose values differ, as `path: old -> new`.
fn diff(old: &Value, new: &Value, at: &str) -> String {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => n
            .iter()
            .filter(|(k, v)| o.get(*k) != Some(v))
            .take(4)
            .map(|(k, v)| diff(o.get(k).unwrap_or(&Value::Null), v, &format!("{at}.{k}")))
            .collect::<Vec<_>>()
            .join("; "),
        _ => format!("{at}: {old} -> {new}"),
    }
}
