//! Diffusion transformers (`model.causal`, `model.cross_attention`): attention in both
//! directions computes every score where a causal mask computes half, cross-attention to a
//! prompt adds its blocks, and the Wan 2.1 14B preset counts what Megatron-Bridge counts and
//! searches, sizes and round-trips like any other model.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use clusterplan::model::search::{search, Options};
use clusterplan::model::{estimate, Transformer};
use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use serde_json::json;

/// Wan 2.1 14B on 128 H100 as Megatron-Bridge's table runs it: TP 2, CP 4, DP 16.
fn wan() -> Scenario {
    common::plan("wan2.1-14b", "h100-sxm", 128, 2, 1)
        .with(&fields::PARALLELISM_CP, Some(json!(4)))
        .with(&fields::PARALLELISM_RECOMPUTE, Some(json!("full")))
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(128)))
}

/// Megatron-Bridge's FLOPs for one Wan sample (`WanModelProvider`, forward and backward),
/// written out from its formula for a model of these dimensions.
fn megatron_bridge_flops(t: &Transformer, context: f64, text_width: f64) -> f64 {
    let (s, h, f) = (t.seq_len as f64, t.hidden as f64, t.ffn as f64);
    let self_attention = 2.0 * s * h * 3.0 * h + 4.0 * s * s * h + 2.0 * s * h * h;
    let cross = 4.0 * s * h * h + 4.0 * context * h * h + 4.0 * s * context * h;
    let mlp = 4.0 * s * h * f;
    let patch = 2.0 * s * 64.0 * h;
    let text = 2.0 * context * (text_width * h + h * h);
    3.0 * (t.n_layers as f64 * (self_attention + cross + mlp) + 2.0 * patch + text)
}

#[test]
fn wan_counts_the_flops_and_parameters_megatron_bridge_does() {
    let t = wan().resolve().expect("resolves").transformer;
    assert!(!t.causal);
    let ours = t.model_flops_per_sequence();
    let theirs = megatron_bridge_flops(&t, 512.0, 4096.0);
    assert!((ours / theirs - 1.0).abs() < 1e-3, "{ours:e} against {theirs:e}");
    // 14B: 40 layers of self- and cross-attention and a 13,824-wide GELU MLP.
    let billions = t.params() / 1e9;
    assert!((billions - 14.1).abs() < 0.2, "{billions} B");
}

/// Without the causal mask every score is computed: the same model's FLOPs grow by the
/// scores' half, and its step by the attention kernels' extra work.
#[test]
fn attention_in_both_directions_computes_every_score() {
    let both = wan().resolve().expect("resolves");
    let causal = wan().with(&fields::MODEL_CAUSAL, Some(json!(true))).resolve().expect("resolves");
    let t = &both.transformer;
    let half = causal.transformer.attention_score_flops_per_sequence();
    assert!((t.attention_score_flops_per_sequence() / half - 2.0).abs() < 1e-12);
    let added = t.model_flops_per_sequence() - causal.transformer.model_flops_per_sequence();
    assert!((added / (3.0 * half) - 1.0).abs() < 1e-9, "{added:e} against {:e}", 3.0 * half);
    let (e, c) = (estimate(&both), estimate(&causal));
    assert!(e.step_s > 1.3 * c.step_s, "{} against {}", e.step_s, c.step_s);
}

/// Cross-attention adds four projections a layer and the prompt's projector, FLOPs that grow
/// with the prompt, time and memory; removing it gives the plain transformer back.
#[test]
fn cross_attention_adds_parameters_flops_time_and_memory() {
    let with = wan().resolve().expect("resolves");
    let without =
        wan().with(paths::MODEL_CROSS_ATTENTION, Some(json!(false))).resolve().expect("resolves");
    let (t, plain) = (&with.transformer, &without.transformer);
    let h = t.hidden as f64;
    let added = t.params() - plain.params();
    let expected = 40.0 * 4.0 * h * h + 4096.0 * h + h * h;
    assert!((added / expected - 1.0).abs() < 1e-9, "{added:e} against {expected:e}");
    let (e, p) = (estimate(&with), estimate(&without));
    assert!(e.step_s > p.step_s && e.memory.peak_bytes > p.memory.peak_bytes);
    let longer = wan()
        .with(paths::MODEL_CROSS_ATTENTION, Some(json!({ "tokens": 4096 })))
        .resolve()
        .expect("resolves");
    assert!(longer.transformer.model_flops_per_sequence() > t.model_flops_per_sequence());
    assert!(estimate(&longer).step_s > e.step_s);
}

/// Wan 2.1 14B fits as Megatron-Bridge runs it, the search finds a plan no slower, a deadline
/// sizes a cluster, and written back as dimensions it is the same model.
#[test]
fn wan_fits_searches_sizes_and_round_trips() {
    use clusterplan::sizing::{size, Answer};
    let inputs = wan().resolve().expect("resolves");
    let e = estimate(&inputs);
    assert!(e.feasible && e.memory.fits, "{:?}", e.problems);
    let outcome = search(&inputs, Options::default());
    assert!(!outcome.ranked.is_empty());
    assert!(outcome.ranked[0].train_days <= e.train_days * (1.0 + 1e-9));
    let s = wan().with(&fields::TRAINING_TOKENS, Some(json!("100B")));
    match size(&s, None, 30.0).expect("sizes") {
        Answer::Meets(sized) => assert!(sized.chips > 0, "{} chips", sized.chips),
        Answer::Misses { .. } => panic!("no H100 cluster trains Wan on 100B tokens in 30 days"),
    }
    let written = clusterplan::scenario::describe::transformer(&inputs.transformer);
    let again =
        Scenario::default_plan().with(paths::MODEL, Some(written)).resolve().expect("resolves");
    assert_eq!(again.transformer, inputs.transformer);
}
