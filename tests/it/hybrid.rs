//! Hybrid models (`model.hybrid_pattern`, `model.mamba`): a Mamba-2 mixer costs well below an
//! attention block at long context, the Nemotron-H presets resolve to their published sizes and
//! search and size like any other model, and a plain transformer's pattern changes nothing.
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

/// At 128k tokens the attention core's quadratic work dominates an attention layer, while a
/// Mamba-2 mixer's scan grows with the tokens alone: the all-Mamba model's step is a fraction
/// of the all-attention one's, where at 4k tokens they are close.
#[test]
fn a_mamba_layer_costs_well_below_attention_at_long_context() {
    let step = |pattern: &str, seq: u32| {
        let e = estimate(&model(pattern, seq).resolve().expect("resolves"));
        assert!(e.feasible, "{pattern} at {seq}: {:?}", e.problems);
        e.step_s
    };
    let attention = "*-".repeat(16);
    let mamba = "M-".repeat(16);
    let (long_a, long_m) = (step(&attention, 131_072), step(&mamba, 131_072));
    assert!(long_m < 0.4 * long_a, "Mamba {long_m} s against attention {long_a} s at 128k");
    let (short_a, short_m) = (step(&attention, 4096), step(&mamba, 4096));
    assert!(
        short_m > 0.6 * short_a && short_m < 1.6 * short_a,
        "{short_m} against {short_a} at 4k"
    );
}

/// Mamba-1, Jamba's mixer: at 128k tokens its selective scan grows with the tokens alone, so
/// an all-Mamba-1 model's step is a fraction of the all-attention one's.
#[test]
fn a_mamba_1_layer_costs_well_below_attention_at_long_context() {
    let step = |pattern: &str| {
        let s = model(pattern, 131_072)
            .with(paths::MODEL_MAMBA, Some(json!({ "kind": "mamba1", "state": 16 })));
        let e = estimate(&s.resolve().expect("resolves"));
        assert!(e.feasible, "{pattern}: {:?}", e.problems);
        e.step_s
    };
    let (attention, mamba) = (step(&"*-".repeat(16)), step(&"M-".repeat(16)));
    assert!(mamba < 0.4 * attention, "Mamba-1 {mamba} s against attention {attention} s");
}

/// Jamba 1.5 Mini has 52 billion parameters, 12 of them active; each Mamba-1 mixer has
/// `mamba_ssm`'s `3 d E + E (2R + 3N + K + 3)` (about 105.3 million at Jamba's width). It
/// searches, fits and is written back as the same model.
#[test]
fn jamba_resolves_with_its_mamba_1_mixers() {
    let s = common::plan("jamba-1.5-mini", "h100-sxm", 256, 2, 1)
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(512)))
        .with(&fields::PARALLELISM_EP, Some(json!(8)));
    let inputs = s.resolve().expect("resolves");
    let t = &inputs.transformer;
    let (total, active) = (t.params() / 1e9, t.active_params() / 1e9);
    assert!(
        (total - 52.0).abs() < 1.0 && (active - 12.0).abs() < 0.5,
        "{total} B, {active} B active"
    );
    let (d, e, r, n, k) = (4096.0, 8192.0, 256.0, 16.0, 4.0);
    let mixer = 3.0 * d * e + e * (2.0 * r + 3.0 * n + k + 3.0);
    assert!((t.mamba_params() / mixer - 1.0).abs() < 1e-12, "{} against {mixer}", t.mamba_params());
    let estimate = estimate(&inputs);
    assert!(estimate.feasible && estimate.memory.fits, "{:?}", estimate.problems);
    let outcome = search(&inputs, Options::default());
    assert!(!outcome.ranked.is_empty());
    let written = clusterplan::scenario::describe::transformer(t);
    let again =
        Scenario::default_plan().with(paths::MODEL, Some(written)).resolve().expect("resolves");
    assert_eq!(&again.transformer, t);
}

/// A transformer written as a pattern is the same transformer.
#[test]
fn a_plain_pattern_is_the_transformer() {
    let plain = Scenario::default_plan().with(
        paths::MODEL,
        Some(json!({ "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn": 14336,
            "ffn_act": "swiglu", "vocab": 128256, "seq_len": 8192, "layers": 16 })),
    );
    let a = estimate(&plain.resolve().expect("resolves"));
    let b = estimate(
        &plain
            .with(paths::MODEL_HYBRID_PATTERN, Some(json!("*-".repeat(16))))
            .resolve()
            .expect("resolves"),
    );
    assert!((a.step_s / b.step_s - 1.0).abs() < 1e-12, "{} against {}", a.step_s, b.step_s);
    assert!((a.memory.peak_bytes / b.memory.peak_bytes - 1.0).abs() < 1e-12);
}

/// Nemotron-H 8B has about 8.1 billion parameters and 56B about 56; each searches and fits.
#[test]
fn the_nemotron_h_presets_resolve_search_and_fit() {
    for (id, billions) in [("nemotron-h-8b", 8.1), ("nemotron-h-56b", 56.0)] {
        let s = common::plan(id, "h100-sxm", 256, 8, 1)
            .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(256)));
        let inputs = s.resolve().expect("resolves");
        let params = inputs.transformer.params() / 1e9;
        assert!((params / billions - 1.0).abs() < 0.08, "{id}: {params} B");
        let outcome = search(&inputs, Options::default());
        assert!(!outcome.ranked.is_empty(), "{id}: no plan");
        assert!(outcome.ranked[0].train_days <= estimate(&inputs).train_days * (1.0 + 1e-9));
    }
}

/// Tensor parallelism must divide a Mamba-2 mixer's heads and groups; an unknown symbol is
/// refused by the pattern's key.
#[test]
fn mamba_splits_and_bad_patterns_are_caught() {
    let s = model(&"M-".repeat(16), 8192).with(paths::MODEL_MAMBA, Some(json!({ "groups": 4 })));
    let e = estimate(&s.resolve().expect("resolves"));
    assert!(
        e.problems.contains(&Warning::TensorSplitsMamba { heads: 128, groups: 4, tp: 8 }),
        "{:?}",
        e.problems
    );
    let bad = model("M-X-", 8192).resolve().expect_err("X is no layer");
    assert_eq!(bad[0].field, "model.hybrid_pattern");
}

/// A vision encoder adds its parameters, its FLOPs and its time, on the first pipeline stage;
/// Qwen2-VL 72B resolves, searches and fits, and written back as dimensions is the same model.
#[test]
fn a_vision_encoder_adds_parameters_flops_and_time() {
    let vlm = common::plan("qwen2-vl-72b", "h100-sxm", 512, 8, 4)
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(512)));
    let text_only = vlm.clone().with(paths::MODEL_VISION, Some(json!(false)));
    let (with, without) =
        (vlm.resolve().expect("resolves"), text_only.resolve().expect("resolves"));
    let encoder = with.transformer.params() - without.transformer.params();
    assert!((encoder / 1e6 - 675.0).abs() < 60.0, "a 675M encoder, not {} M", encoder / 1e6);
    assert!(
        with.transformer.model_flops_per_sequence()
            > without.transformer.model_flops_per_sequence()
    );
    let (e, plain) = (estimate(&with), estimate(&without));
    assert!(e.step_s > plain.step_s && e.memory.peak_bytes > plain.memory.peak_bytes);
    assert!(e.feasible && e.memory.fits, "{:?}", e.problems);
    // More images a sample, more time.
    let more = vlm
        .with(paths::MODEL_VISION, Some(json!({ "images_per_sample": 4 })))
        .resolve()
        .expect("resolves");
    assert!(estimate(&more).step_s > e.step_s);
    let outcome = search(&with, Options::default());
    assert!(!outcome.ranked.is_empty());
    let written = clusterplan::scenario::describe::transformer(&with.transformer);
    let again =
        Scenario::default_plan().with(paths::MODEL, Some(written)).resolve().expect("resolves");
    assert_eq!(again.transformer, with.transformer);
}

/// The vision encoder splits over its own tensor ranks: at 1 every tensor rank holds and runs
/// the whole encoder (more memory and more work on the first stage, no tensor traffic in it);
/// a degree that does not divide the language model's is a problem of `model.vision.tp`.
#[test]
fn the_vision_encoder_takes_its_own_tensor_parallelism() {
    let vlm = common::plan("qwen2-vl-72b", "h100-sxm", 512, 8, 4)
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(512)));
    let split = vlm.resolve().expect("resolves");
    let whole = vlm
        .clone()
        .with(paths::MODEL_VISION, Some(json!({ "tp": 1 })))
        .resolve()
        .expect("resolves");
    assert_eq!(whole.transformer.vision.and_then(|v| v.tp), Some(1));
    let (e_split, e_whole) = (estimate(&split), estimate(&whole));
    assert!(e_whole.feasible, "{:?}", e_whole.problems);
    assert!(e_whole.memory.peak_bytes > e_split.memory.peak_bytes);
    assert!(e_whole.step_s > e_split.step_s, "{} against {}", e_whole.step_s, e_split.step_s);
    let odd = vlm.with(paths::MODEL_VISION, Some(json!({ "tp": 3 }))).resolve().expect("resolves");
    let e = estimate(&odd);
    assert!(
        e.problems.contains(&Warning::VisionTensorSplit { encoder_tp: 3, tp: 8, heads: 16 }),
        "{:?}",
        e.problems
    );
    let written = clusterplan::scenario::describe::transformer(&whole.transformer);
    let again =
        Scenario::default_plan().with(paths::MODEL, Some(written)).resolve().expect("resolves");
    assert_eq!(again.transformer, whole.transformer);
}

/// Every model and chip this issue added sizes for a deadline like any other: Nemotron-H 8B
/// and 56B, Jamba 1.5 Mini, Qwen2-VL 72B and DeepSeek-V3 with MLA on H100, and Llama 3 70B in
/// NVFP4 on B300 (the linear-attention and diffusion presets have their own files).
#[test]
fn the_new_presets_size_for_a_deadline() {
    use clusterplan::sizing::{size, Answer};
    for (model, chip, recipe, tokens) in [
        ("nemotron-h-8b", "h100-sxm", "fp8", "2T"),
        ("nemotron-h-56b", "h100-sxm", "fp8", "2T"),
        ("jamba-1.5-mini", "h100-sxm", "megatron-bf16", "1T"),
        ("qwen2-vl-72b", "h100-sxm", "megatron-bf16", "1T"),
        ("deepseek-v3", "h800", "fp8", "1T"),
        ("llama3-70b", "b300", "nvfp4", "2T"),
    ] {
        let s = common::plan(model, chip, 1024, 8, 4)
            .with(&fields::TRAINING_TOKENS, Some(json!(tokens)))
            .with(&fields::TRAINING_RECIPE, Some(json!(recipe)))
            .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(1024)));
        match size(&s, None, 60.0).unwrap_or_else(|e| panic!("{model}: {e:?}")) {
            Answer::Meets(sized) => assert!(
                sized.chips > 0 && sized.estimate.effective_train_days().is_some_and(|d| d <= 60.0),
                "{model}: {} chips",
                sized.chips
            ),
            Answer::Misses { .. } => panic!("{model} on {chip}: no size meets 60 days"),
        }
    }
}
