//! Shared by the property tests: a small deterministic generator of valid random scenarios.
#![allow(dead_code)]

use clusterplan::model::presets;
use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use serde_json::json;

/// xorshift64*: enough randomness for test inputs, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    pub fn pow2(&mut self, max_log: u64) -> u64 {
        1 << self.below(max_log + 1)
    }
}

/// A random scenario built from presets and power-of-two degrees: its fields always resolve,
/// though the plan may be infeasible (a degree that does not divide what it splits).
pub fn random_scenario(rng: &mut Rng) -> Scenario {
    let model = rng.pick(presets::TRANSFORMERS).id;
    let chip = rng.pick(presets::CHIPS).id;
    let tp = rng.pow2(4);
    let pp = rng.pow2(5);
    let dp = rng.pow2(8);
    let cp = rng.pow2(2);
    let ep = rng.pow2(3).min(dp * cp);
    let micro_batch = rng.pow2(2);
    let global_batch = dp * micro_batch * rng.pow2(5);
    let seq_len = 512 << rng.below(6);
    let recompute = *rng.pick(&["none", "selective", "full"]);
    let recipe = *rng.pick(&["megatron-bf16", "torch-amp", "fp8"]);
    let attention = *rng.pick(&["flash", "materialized"]);
    // Drawn from the degrees already drawn, so the draws after it stay as they were.
    let grads = if (tp + dp + seq_len / 512) % 2 == 0 { "bf16" } else { "fp32" };
    let json = json!({
        "model": { "preset": model, "seq_len": seq_len, "attention": attention, "mtp_layers": rng.below(2) },
        "training": { "tokens": 1e12, "global_batch": global_batch, "recipe": recipe, "grads": grads },
        "cluster": { "chip": chip, "chips": tp * pp * dp * cp },
        "parallelism": {
            "tp": tp, "pp": pp, "dp": dp, "cp": cp, "ep": ep, "micro_batch": micro_batch,
            "virtual_stages": rng.pow2(2), "zero": rng.below(4), "recompute": recompute,
            "sequence_parallel": rng.below(2) == 1, "dp_overlap": rng.below(2) == 1,
            "ep_overlap": rng.below(2) == 1, "cp_overlap": rng.below(2) == 1
        }
    });
    Scenario::from_value(json).expect("generated scenario parses")
}

/// The default plan with some fields set by path.
pub fn with(changes: &[(&str, serde_json::Value)]) -> Scenario {
    changes.iter().fold(Scenario::default_plan(), |s, (p, v)| s.with_at(p, Some(v.clone())))
}

/// The estimate of a scenario that must resolve.
pub fn evaluate(s: &Scenario) -> clusterplan::model::Estimate {
    s.estimated().unwrap_or_else(|e| panic!("{e:?}")).1
}

/// The default plan with `model` on `chips` of `chip`, TP `tp`, PP `pp`, no context
/// parallelism and no interleaving: the fixed plan the model-kind tests compare under.
pub fn plan(model: &str, chip: &str, chips: u32, tp: u32, pp: u32) -> Scenario {
    Scenario::default_plan()
        .with(paths::MODEL_PRESET, Some(json!(model)))
        .with(paths::CLUSTER_CHIP, Some(json!(chip)))
        .with(&fields::CLUSTER_CHIPS, Some(json!(chips)))
        .with(&fields::PARALLELISM_TP, Some(json!(tp)))
        .with(&fields::PARALLELISM_PP, Some(json!(pp)))
        .with(&fields::PARALLELISM_CP, Some(json!(1)))
        .with(&fields::PARALLELISM_VIRTUAL_STAGES, Some(json!(1)))
}

/// A 4096-wide model whose layers are `pattern` (Megatron-LM's hybrid symbols) at `seq`
/// tokens on 64 H100 with TP 8 and full recomputation: the same width for every kind.
pub fn layered(pattern: &str, seq: u32) -> Scenario {
    Scenario::default_plan()
        .with(
            paths::MODEL,
            Some(json!({ "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn": 14336, "ffn_act": "swiglu",
                "vocab": 128256, "seq_len": seq, "hybrid_pattern": pattern })),
        )
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(64)))
        .with(paths::CLUSTER_CHIP, Some(json!("h100-sxm")))
        .with(&fields::CLUSTER_CHIPS, Some(json!(64)))
        .with(&fields::PARALLELISM_TP, Some(json!(8)))
        .with(&fields::PARALLELISM_PP, Some(json!(1)))
        .with(&fields::PARALLELISM_CP, Some(json!(1)))
        .with(&fields::PARALLELISM_VIRTUAL_STAGES, Some(json!(1)))
        .with(&fields::PARALLELISM_RECOMPUTE, Some(json!("full")))
}

/// Runs `clusterplan ARGS` with `stdin` on its standard input. A command that rejects its
/// options exits before reading it.
pub fn run_cli(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_clusterplan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("the binary finishes")
}

/// What `clusterplan ARGS` prints for `scenario` on its standard input, as JSON; it must
/// succeed.
pub fn cli_json(args: &[&str], scenario: &Scenario) -> serde_json::Value {
    let text = serde_json::to_string(&scenario.to_value()).expect("json");
    let out = run_cli(args, &text);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("it prints JSON")
}

/// `s` with a further pool of a generated chip and size beside its own, over a link of 100 Gb/s
/// to 1 Pb/s, half the time at a far site (`west`, the cluster's own at `east`, a wide-area
/// link of 1 Gb/s to 10 Tb/s between them).
pub fn with_pool(s: Scenario, rng: &mut Rng) -> Scenario {
    let chip = rng.pick(presets::CHIPS).id;
    let mut pool = json!({ "chip": chip, "chips": 64 << rng.below(7) });
    let far = rng.below(2) == 0;
    if far {
        pool["site"] = json!("west");
    }
    let mut s = s.with(paths::CLUSTER_POOLS, Some(json!([pool]))).with(
        paths::CLUSTER_BETWEEN_POOLS,
        Some(json!({ "gbit_per_s": 10u32.pow(1 + rng.below(5) as u32) })),
    );
    if far {
        let wan = json!(10u32.pow(rng.below(5) as u32));
        s = s.with(paths::CLUSTER_SITE, Some(json!("east"))).with(
            paths::SITES,
            Some(json!([{ "name": "east", "wan_gbit_per_s": wan }, { "name": "west", "wan_gbit_per_s": wan }])),
        );
    }
    s
}
