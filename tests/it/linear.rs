//! Linear attention (`G` in `model.hybrid_pattern`, `model.linear`): a Gated DeltaNet or
//! RWKV-7 layer costs well below an attention block at long context, its FLOPs are counted as
//! Megatron-LM counts them, tensor parallelism must divide its heads, and the Qwen3-Next and
//! RWKV-7 presets resolve to their published sizes, search, size and round-trip.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use clusterplan::model::search::{search, Options};
use clusterplan::model::{estimate, Warning};
use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use serde_json::json;

/// A 4096-wide model in `pattern` at `seq` tokens on 64 H100, TP 8.
fn model(pattern: &str, seq: u32) -> Scenario {
    common::layered(pattern, seq)
}

/// At 128k tokens the attention core's quadratic work dominates, while a linear-attention
/// layer's kernel grows with the tokens alone; at 4k tokens the two are close. RWKV-7's
/// official kernel runs at a fifth of Gated DeltaNet's rate, so it saves less.
#[test]
fn a_linear_attention_layer_costs_well_below_attention_at_long_context() {
    let step = |pattern: &str, seq: u32, linear: serde_json::Value| {
        let s = model(pattern, seq).with(paths::MODEL_LINEAR, Some(linear));
        let e = estimate(&s.resolve().expect("resolves"));
        assert!(e.feasible, "{pattern} at {seq}: {:?}", e.problems);
        e.step_s
    };
    let (attention, linear) = ("*-".repeat(16), "G-".repeat(16));
    let kinds = [
        (json!({ "kind": "gated_deltanet" }), 0.4),
        (json!({ "kind": "rwkv7", "head_dim": 64, "chunk": 16, "lora": 736 }), 0.6),
    ];
    for (kind, below) in kinds {
        let (long_a, long_l) =
            (step(&attention, 131_072, kind.clone()), step(&linear, 131_072, kind.clone()));
        assert!(long_l < below * long_a, "{kind} {long_l} s against attention {long_a} s at 128k");
        let (short_a, short_l) =
            (step(&attention, 4096, kind.clone()), step(&linear, 4096, kind.clone()));
        assert!(
            short_l > 0.6 * short_a && short_l < 1.6 * short_a,
            "{kind}: {short_l} against {short_a}"
        );
    }
}

/// A Gated DeltaNet layer's forward FLOPs a token are Megatron-LM's `gdn_layer_flops`:
/// `2 [h (2 qk + 2 v + 2 n_v) + k_conv (2 qk + v) + 4 n_v d_v^2 + h v]`.
#[test]
fn gated_deltanet_flops_are_megatron_lms() {
    let t = common::plan("qwen3-next-80b-a3b", "h100-sxm", 64, 1, 1)
        .resolve()
        .expect("resolves")
        .transformer;
    let (h, qk, v, n_v, d_v, conv) = (2048.0, 16.0 * 128.0, 32.0 * 128.0, 32.0, 128.0, 4.0);
    let megatron = 2.0
        * (h * (2.0 * qk + 2.0 * v + 2.0 * n_v)
            + conv * (2.0 * qk + v)
            + 4.0 * n_v * d_v * d_v
            + h * v);
    assert!(
        (t.linear_flops_per_token() / megatron - 1.0).abs() < 1e-12,
        "{} against {megatron}",
        t.linear_flops_per_token()
    );
}

/// Qwen3-Next has about 80 billion parameters, about 3 billion a token passes through beside
/// its embeddings; RWKV-7 2.9B about 2.9 billion. Each searches and fits.
#[test]
fn the_linear_attention_presets_resolve_search_and_fit() {
    for (id, billions, ep) in [("qwen3-next-80b-a3b", 80.0, 64), ("rwkv7-2.9b", 2.9, 1)] {
        let s = common::plan(id, "h100-sxm", 256, 1, 1)
            .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(512)))
            .with(&fields::PARALLELISM_EP, Some(json!(ep)));
        let inputs = s.resolve().expect("resolves");
        let t = &inputs.transformer;
        let params = t.params() / 1e9;
        assert!((params / billions - 1.0).abs() < 0.05, "{id}: {params} B");
        let e = estimate(&inputs);
        assert!(e.feasible && e.memory.fits, "{id}: {:?}", e.problems);
        let outcome = search(&inputs, Options::default());
        assert!(!outcome.ranked.is_empty(), "{id}: no plan");
        assert!(outcome.ranked[0].train_days <= e.train_days * (1.0 + 1e-9));
        let written = clusterplan::scenario::describe::transformer(t);
        let again =
            Scenario::default_plan().with(paths::MODEL, Some(written)).resolve().expect("resolves");
        assert_eq!(&again.transformer, t, "{id} written back");
    }
    let next =
        common::plan("qwen3-next-80b-a3b", "h100-sxm", 64, 1, 1).resolve().expect("resolves");
    let t = &next.transformer;
    let active = (t.active_params() - t.embedding_params()) / 1e9;
    assert!((2.5..3.5).contains(&active), "{active} B active beside the embeddings");
}

/// Tensor parallelism must divide the value and key heads.
#[test]
fn linear_splits_are_caught() {
    let s = model(&"G-".repeat(16), 8192)
        .with(paths::MODEL_LINEAR, Some(json!({ "heads": 36, "key_heads": 12 })));
    let e = estimate(&s.resolve().expect("resolves"));
    assert!(
        e.problems.contains(&Warning::TensorSplitsLinear { heads: 36, key_heads: 12, tp: 8 }),
        "{:?}",
        e.problems
    );
    let bad = model("G-", 8192).with(paths::MODEL_LINEAR, Some(json!({ "kind": "retnet" })));
    let errors = bad.resolve().expect_err("retnet is not offered");
    assert_eq!(errors[0].field, "model.linear.kind");
}

/// A deadline sizes a cluster for each.
#[test]
fn the_linear_attention_presets_size_for_a_deadline() {
    use clusterplan::sizing::{size, Answer};
    for (id, tokens) in [("qwen3-next-80b-a3b", "15T"), ("rwkv7-2.9b", "3T")] {
        let s = common::plan(id, "h100-sxm", 1024, 1, 1)
            .with(&fields::TRAINING_TOKENS, Some(json!(tokens)))
            .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(1024)))
            .with(&fields::PARALLELISM_EP, Some(json!(if id == "rwkv7-2.9b" { 1 } else { 64 })));
        match size(&s, None, 60.0).unwrap_or_else(|e| panic!("{id}: {e:?}")) {
            Answer::Meets(sized) => assert!(sized.chips > 0, "{id}"),
            Answer::Misses { .. } => panic!("{id}: no size meets 60 days"),
        }
    }
}
