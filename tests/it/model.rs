//! Mechanisms of the model, one behaviour per test: each knob moves the result the way the
//! cited mechanism says it must.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use clusterplan::model::{self, presets, Estimate, Inputs, Recipe, Recompute, Sharding, Warning};
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

fn inputs(value: Value) -> Inputs {
    Scenario::from_value(value).expect("parses").resolve().expect("resolves")
}

/// GPT-3 175B on 1,024 A100s, a plan everything below perturbs.
fn base() -> Inputs {
    inputs(json!({
        "model": { "preset": "gpt3-175b" },
        "training": { "tokens": 3e11, "global_batch": 1536 },
        "cluster": { "chip": "a100-80gb", "chips": 1024, "scale_out": "ib-hdr" },
        "parallelism": { "tp": 8, "pp": 8, "dp": 16, "micro_batch": 1, "recompute": "selective" }
    }))
}

fn run(i: &Inputs) -> Estimate {
    model::estimate(i)
}

fn relative(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-30)
}

#[test]
fn preset_parameter_counts_match_published_totals() {
    let published = [
        ("gpt3-175b", 175e9),
        ("llama2-70b", 69e9),
        ("llama3-8b", 8.03e9),
        ("llama3-70b", 70.6e9),
        ("llama3-405b", 405.9e9),
        ("mixtral-8x7b", 46.7e9),
        ("deepseek-v3", 671e9),
        ("gpt4-moe-1.8t", 1.8e12),
    ];
    for (id, params) in published {
        let t = presets::transformer(id).expect("preset exists").transformer;
        assert!(relative(t.params(), params) < 0.03, "{id}: {} vs {params}", t.params());
    }
    let ds = presets::transformer("deepseek-v3").expect("preset").transformer;
    assert!(
        relative(ds.active_params(), 37e9) < 0.05,
        "DeepSeek-V3 activates 37B: {}",
        ds.active_params()
    );
    let mixtral = presets::transformer("mixtral-8x7b").expect("preset").transformer;
    assert!(relative(mixtral.active_params(), 12.9e9) < 0.05, "Mixtral activates 12.9B");
}

#[test]
fn model_flops_follow_megatron_lm() {
    // 72 B s l h^2 (1 + s/6h + V/12lh) counts the full score matrix; ours counts the causal half.
    let t = base().transformer;
    let (s, l, h, v) = (t.seq_len as f64, t.n_layers as f64, t.hidden as f64, t.vocab as f64);
    let full = 72.0 * s * l * h * h * (1.0 + s / (6.0 * h) + v / (12.0 * l * h));
    let causal_saving = 6.0 * l * s * s * h;
    assert!(relative(t.model_flops_per_sequence(), full - causal_saving) < 1e-9);
}

#[test]
fn recomputation_trades_memory_for_time() {
    let mut none = base();
    none.parallelism.recompute = Recompute::None;
    let mut full = base();
    full.parallelism.recompute = Recompute::Full;
    let (n, f) = (run(&none), run(&full));
    assert!(f.memory.activations_bytes < 0.2 * n.memory.activations_bytes);
    assert!(f.step_s > 1.2 * n.step_s, "rerunning the forward pass costs about a third more");
    assert!(f.breakdown.recompute_s > 0.0 && n.breakdown.recompute_s == 0.0);
    assert!(relative(f.mfu, n.mfu * n.step_s / f.step_s) < 1e-9, "MFU ignores recomputed FLOPs");
    assert!(f.hfu > f.mfu);
}

#[test]
fn each_zero_stage_shards_more_state() {
    let stages = [Sharding::None, Sharding::Optimizer, Sharding::Gradients, Sharding::Full];
    let state: Vec<f64> = stages
        .iter()
        .map(|&sharding| {
            let mut i = base();
            i.parallelism.sharding = sharding;
            let m = run(&i).memory;
            m.weights_bytes + m.grads_bytes + m.optimizer_bytes
        })
        .collect();
    assert!(state.windows(2).all(|w| w[1] < w[0]), "{state:?}");
    // 18 bytes per parameter unsharded (Megatron's mixed precision).
    let mut i = base();
    i.parallelism.sharding = Sharding::None;
    let m = run(&i).memory;
    let per_param = (m.weights_bytes + m.grads_bytes + m.optimizer_bytes) / (m.weights_bytes / 2.0);
    assert!(relative(per_param, 18.0) < 1e-9);
}

#[test]
fn recipes_have_their_bytes_per_parameter() {
    assert_eq!(
        Recipe::MegatronBf16.weight_bytes()
            + Recipe::MegatronBf16.grad_bytes()
            + Recipe::MegatronBf16.optimizer_bytes(),
        18.0
    );
    assert_eq!(
        Recipe::TorchAmp.weight_bytes()
            + Recipe::TorchAmp.grad_bytes()
            + Recipe::TorchAmp.optimizer_bytes(),
        16.0
    );
    assert!(Recipe::Fp8.optimizer_bytes() < Recipe::MegatronBf16.optimizer_bytes());
}

#[test]
fn tensor_parallelism_across_domains_is_slower_and_warned() {
    let mut i = base();
    i.parallelism.tensor = 16;
    i.parallelism.pipeline = 4;
    let across = run(&i);
    assert!(across
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::TensorCrossesDomain { tp: 16, domain: 8 })));
    assert!(across.warnings.iter().any(|w| w.to_string().contains("spans 2 scale-up domains")));
    i.cluster.scale_up.domain_size = 16;
    let inside = run(&i);
    // Hierarchical all-reduce: only 1/8 of the buffer crosses each chip's NIC, but at a tenth
    // of the NVLink rate, so the cross-domain step still dominates.
    assert!(across.breakdown.tp_exposed_s > 1.4 * inside.breakdown.tp_exposed_s);
}

#[test]
fn more_micro_batches_and_interleaving_shrink_the_bubble() {
    let bubble_share = |global_batch: u32, virtual_stages: u32| {
        let mut i = base();
        i.training.global_batch = global_batch;
        i.parallelism.virtual_stages = virtual_stages;
        let e = run(&i);
        e.breakdown.bubble_s / e.step_s
    };
    assert!(bubble_share(3072, 1) < bubble_share(768, 1));
    assert!(bubble_share(768, 3) < bubble_share(768, 1));
    // 1F1B: bubble / ideal = (p - 1) / m (Narayanan et al. 2021, §2.2.1).
    let e = run(&base());
    let m = e.n_microbatches as f64;
    let ideal =
        e.step_s - e.breakdown.bubble_s - e.breakdown.dp_exposed_s - e.breakdown.optimizer_s;
    assert!(relative(e.breakdown.bubble_s / ideal, 7.0 / m) < 0.1);
}

#[test]
fn a_plan_that_cannot_fit_says_so() {
    let mut i = base();
    i.parallelism.tensor = 1;
    i.parallelism.pipeline = 1;
    i.parallelism.data = 1024;
    i.parallelism.sharding = Sharding::None;
    let e = run(&i);
    assert!(!e.memory.fits);
    assert!(!e.feasible && e.problems.iter().any(|w| matches!(w, Warning::DoesNotFit { .. })));
    assert!(e.step_s > 0.0, "an infeasible plan still gets an estimate");
}

/// An MoE plan short of memory is told to raise EP, the lever that splits its experts' weights,
/// while EP can still rise; a dense plan, or one with every expert on its own ranks, is not.
#[test]
fn an_moe_plan_that_cannot_fit_is_told_to_split_its_experts() {
    let moe = |ep: u32| {
        inputs(json!({
            "model": { "preset": "deepseek-v3" },
            "training": { "tokens": 1e12, "global_batch": 1920, "recipe": "fp8" },
            "cluster": { "chip": "h800", "chips": 2048 },
            "parallelism": { "tp": 1, "pp": 8, "dp": 256, "ep": ep }
        }))
    };
    let experts_named = |i: &Inputs| {
        let e = run(i);
        assert!(!e.memory.fits, "{} GiB", e.memory.peak_bytes / 2f64.powi(30));
        let w = e.problems.iter().find(|w| matches!(w, Warning::DoesNotFit { .. }));
        let w = w.expect("does not fit");
        let Warning::DoesNotFit { experts, .. } = w else { unreachable!() };
        (*experts, w.to_string())
    };
    let (experts, words) = experts_named(&moe(2));
    assert_eq!(experts, 256);
    assert!(words.contains("raise EP") && words.contains("256 experts"), "{words}");
    let (experts, words) = experts_named(&moe(256));
    assert!(experts == 0 && !words.contains("EP"), "{words}");
    let mut dense = base();
    dense.parallelism.tensor = 1;
    dense.parallelism.pipeline = 1;
    dense.parallelism.data = 1024;
    dense.parallelism.sharding = Sharding::None;
    let (experts, words) = experts_named(&dense);
    assert!(experts == 0 && !words.contains("EP"), "{words}");
}

#[test]
fn mismatched_degrees_and_odd_batches_are_warned() {
    let mut i = base();
    i.cluster.n_chips = 1000;
    i.training.global_batch = 1500;
    let e = run(&i);
    // More chips than exist is a problem: the plan cannot run as written.
    assert!(!e.feasible);
    assert!(e
        .problems
        .iter()
        .any(|w| matches!(w, Warning::DegreesMismatch { product: 1024, chips: 1000 })));
    assert!(e.warnings.iter().any(|w| matches!(w, Warning::BatchNotDivisible { .. })));
}

#[test]
fn more_replicas_train_faster_but_less_efficiently() {
    let mut small = base();
    small.parallelism.data = 8;
    small.cluster.n_chips = 512;
    let (a, b) = (run(&small), run(&base()));
    assert!(b.train_days < a.train_days);
    assert!(b.mfu <= a.mfu * 1.001);
}

#[test]
fn flash_attention_needs_less_memory_than_materialized_scores() {
    let mut i = base();
    i.transformer.seq_len = 8192;
    i.parallelism.recompute = Recompute::None;
    let flash = run(&i).memory.activations_bytes;
    i.transformer.attention = model::AttentionImpl::Materialized;
    let materialized = run(&i).memory.activations_bytes;
    assert!(materialized > 2.0 * flash);
}

#[test]
fn sequence_parallelism_shrinks_activations_by_the_tensor_degree() {
    // Korthikanti et al. 2022 eq. 4 vs 5: 34/t with SP against 10 + 24/t without.
    let mut i = base();
    i.transformer.dropout = true;
    i.transformer.attention = model::AttentionImpl::Materialized;
    i.parallelism.recompute = Recompute::Selective;
    i.parallelism.sequence_parallel = false;
    let without = run(&i).memory.activations_bytes;
    i.parallelism.sequence_parallel = true;
    let with = run(&i).memory.activations_bytes;
    let t = 8.0;
    assert!(relative(without / with, (10.0 + 24.0 / t) / (34.0 / t)) < 0.05, "{}", without / with);
}

#[test]
fn fp8_is_faster_where_the_chip_has_it_and_warned_where_not() {
    let mut i = base();
    i.cluster.chip = presets::chip("h100-sxm").expect("preset").chip;
    let bf16 = run(&i);
    i.training.recipe = Recipe::Fp8;
    let fp8 = run(&i);
    assert!(fp8.step_s < bf16.step_s);
    let mut a100 = base();
    a100.training.recipe = Recipe::Fp8;
    assert!(run(&a100).warnings.contains(&Warning::Fp8Unsupported));
}

#[test]
fn overlapping_data_parallel_reduction_hides_most_of_it() {
    let mut i = base();
    i.parallelism.dp_overlap = false;
    let exposed = run(&i);
    i.parallelism.dp_overlap = true;
    let hidden = run(&i);
    assert!(hidden.breakdown.dp_exposed_s < exposed.breakdown.dp_exposed_s);
    assert_eq!(hidden.link.dp_s, exposed.link.dp_s, "the same bytes cross the network");
}

#[test]
fn expert_parallelism_adds_all_to_all_and_splits_experts() {
    let mix = |ep: u32| {
        inputs(json!({
            "model": { "preset": "mixtral-8x7b" },
            "training": { "tokens": 1e12, "global_batch": 512 },
            "cluster": { "chip": "h100-sxm", "chips": 64 },
            "parallelism": { "tp": 1, "pp": 1, "dp": 64, "ep": ep, "micro_batch": 1, "recompute": "full" }
        }))
    };
    let (one, eight) = (run(&mix(1)), run(&mix(8)));
    assert_eq!(one.breakdown.ep_exposed_s, 0.0);
    assert!(eight.breakdown.ep_exposed_s > 0.0);
    assert!(eight.memory.weights_bytes < 0.5 * one.memory.weights_bytes);
    let too_many = run(&mix(16));
    assert!(!too_many.feasible);
    assert!(too_many
        .problems
        .iter()
        .any(|w| matches!(w, Warning::ExpertDegreeExceedsExperts { .. })));
}

#[test]
fn context_parallelism_splits_long_sequences() {
    let long = |cp: u32| {
        inputs(json!({
            "model": { "preset": "llama3-8b", "seq_len": 131072 },
            "training": { "tokens": 1e11, "global_batch": 16 },
            "cluster": { "chip": "h100-sxm", "chips": 64 },
            "parallelism": { "tp": 8, "cp": cp, "micro_batch": 1 }
        }))
    };
    let (one, eight) = (run(&long(1)), run(&long(8)));
    assert!(eight.memory.activations_bytes < 0.2 * one.memory.activations_bytes);
    assert!(eight.link.cp_s > 0.0 && one.link.cp_s == 0.0);
}

#[test]
fn the_default_plan_is_sensible() {
    let i = inputs(serde_json::to_value(Scenario::default_plan()).expect("serializes"));
    let e = run(&i);
    assert_eq!(i.cluster.n_chips, 16384);
    assert!(e.mfu > 0.3 && e.mfu < 0.5, "MFU {}", e.mfu);
    assert!(e.train_days > 30.0 && e.train_days < 120.0, "days {}", e.train_days);
    assert!(!e.warnings.iter().any(|w| matches!(w, Warning::DegreesMismatch { .. })));
}

#[test]
fn node_limited_routing_and_fp8_dispatch_shrink_the_all_to_all() {
    // DeepSeek-V3 §3.2.2: tokens reach at most 4 nodes and are forwarded over NVLink inside one.
    let plan = |node_limit: Value, recipe: &str| {
        inputs(json!({
            "model": { "preset": "deepseek-v3", "moe": { "node_limit": node_limit } },
            "training": { "tokens": 1e12, "global_batch": 1920, "recipe": recipe },
            "cluster": { "chip": "h800", "chips": 2048, "scale_out": "ib-ndr" },
            "parallelism": { "tp": 1, "pp": 16, "dp": 128, "ep": 64 }
        }))
    };
    let every_copy = run(&plan(Value::Null, "megatron-bf16")).link.ep_s;
    let limited = run(&plan(json!(4), "megatron-bf16")).link.ep_s;
    let fp8 = run(&plan(json!(4), "fp8")).link.ep_s;
    assert!(limited < 0.7 * every_copy, "{limited} vs {every_copy}");
    assert!(fp8 < limited, "FP8 dispatch halves half the traffic");
}

#[test]
fn fp8_caches_gemm_inputs_in_one_byte() {
    let mut i = base();
    i.cluster.chip = presets::chip("h100-sxm").expect("preset").chip;
    i.parallelism.recompute = Recompute::None;
    let bf16 = run(&i).memory.activations_bytes;
    i.training.recipe = Recipe::Fp8;
    let fp8 = run(&i).memory.activations_bytes;
    assert!(fp8 < 0.9 * bf16 && fp8 > 0.5 * bf16, "{fp8} vs {bf16}");
}

#[test]
fn uneven_layers_leave_the_last_stage_lighter() {
    // Llama 3 §3.3.2: 126 layers on 16 stages, the ends lighter; the middle holds 8.
    let llama = inputs(json!({
        "model": { "preset": "llama3-405b" },
        "training": { "tokens": 1e12, "global_batch": 2048 },
        "cluster": { "chip": "h100-sxm", "chips": 16384 },
        "parallelism": { "tp": 8, "pp": 16, "cp": 2 }
    }));
    let even = {
        let mut i = llama;
        i.transformer.n_layers = 128;
        run(&i)
    };
    let uneven = run(&llama);
    // With 128 layers the last stage runs 8 layers and the output layer; with 126 it sheds two
    // layers and a middle stage with 8 layers sets the pace: a little faster, not 126/128.
    let ratio = uneven.breakdown.compute_s / even.breakdown.compute_s;
    assert!(ratio < 0.99 && ratio > 0.9, "{ratio}");
}

#[test]
fn multi_token_prediction_adds_work_to_the_last_stage() {
    let mut i = inputs(json!({
        "model": { "preset": "deepseek-v3" },
        "training": { "tokens": 1e12, "global_batch": 1920, "recipe": "fp8" },
        "cluster": { "chip": "h800", "chips": 2048 },
        "parallelism": { "tp": 1, "pp": 16, "dp": 128, "ep": 64 }
    }));
    let with = run(&i);
    i.transformer.mtp_layers = 0;
    let without = run(&i);
    assert!(with.model_flops_per_step > without.model_flops_per_step);
    assert!(with.params > without.params);
    assert!(with.step_s >= without.step_s);
}

#[test]
fn tensor_groups_that_do_not_tile_the_domain_straddle_racks() {
    // TP=16 on 72-chip NVL72 racks: some group has 8 chips in each of two racks.
    let mut i = inputs(json!({
        "model": { "preset": "llama3-405b" },
        "training": { "tokens": 1e12, "global_batch": 1152 },
        "cluster": { "chip": "gb200", "chips": 9216 },
        "parallelism": { "tp": 16, "pp": 8 }
    }));
    let straddling = run(&i);
    assert!(straddling.warnings.iter().any(|w| matches!(w, Warning::TensorCrossesDomain { .. })));
    i.parallelism.tensor = 8;
    i.parallelism.pipeline = 16;
    assert!(!run(&i).warnings.iter().any(|w| matches!(w, Warning::TensorCrossesDomain { .. })));
}

#[test]
fn zero2_reduces_gradients_every_micro_batch() {
    let mut i = base();
    i.parallelism.sharding = Sharding::Optimizer;
    let zero1 = run(&i);
    i.parallelism.sharding = Sharding::Gradients;
    let zero2 = run(&i);
    assert!(zero2.memory.grads_bytes < zero1.memory.grads_bytes);
    assert!(zero2.link.dp_s > 2.0 * zero1.link.dp_s, "sharded gradients cannot accumulate locally");
}

#[test]
fn ring_attention_hides_what_the_all_gather_exposes() {
    let mut i = inputs(json!({
        "model": { "preset": "llama3-70b", "seq_len": 131072 },
        "training": { "tokens": 1e11, "global_batch": 64 },
        "cluster": { "chip": "h100-sxm", "chips": 1024 },
        "parallelism": { "tp": 8, "cp": 16, "pp": 1 }
    }));
    let gathered = run(&i);
    assert_eq!(gathered.breakdown.cp_exposed_s, gathered.link.cp_s);
    i.parallelism.cp_overlap = true;
    let ring = run(&i);
    assert!(ring.breakdown.cp_exposed_s < 0.5 * gathered.breakdown.cp_exposed_s);
}

#[test]
fn fp8_savings_need_fp8_units() {
    let mut i = base();
    i.parallelism.recompute = Recompute::None;
    let bf16 = run(&i).memory.activations_bytes;
    i.training.recipe = Recipe::Fp8;
    assert_eq!(run(&i).memory.activations_bytes, bf16, "an A100 keeps BF16 activations");
}

#[test]
fn chips_have_the_memory_the_device_reports() {
    use clusterplan::model::presets::units::GIB;
    // A datasheet's "80 GB" is 80 GiB, of which an H100 reports 81,559 MiB; an H200 reports
    // 139.8 GiB of its "141 GB" (measured). Neither is 80e9 or 141e9 bytes.
    let gib = |id: &str| presets::chip(id).expect("chip").chip.hbm_bytes / GIB;
    assert!((gib("h100-sxm") - 81_559.0 / 1024.0).abs() < 1e-9);
    assert!((gib("h200") - 139.8).abs() < 1e-9);
    assert!(gib("a100-80gb") > 79.0 && gib("a100-80gb") < 80.0);
}

#[test]
fn the_slowest_chip_costs_more_on_more_chips() {
    // The expected slowest of N identical chips grows with N, slowly (about sqrt(2 ln N)).
    let small = model::efficiency::slowest_of(8);
    let large = model::efficiency::slowest_of(16_384);
    assert_eq!(model::efficiency::slowest_of(1), 0.0);
    assert!(small > 0.0 && large > small, "{small} {large}");
    assert!(large < 0.06, "about 8% spread between fastest and slowest: {large}");
    let e = run(&base());
    assert!(e.breakdown.straggler_s > 0.0);
    let sum: f64 = e.breakdown.parts().iter().map(|(_, s)| s).sum();
    assert!(relative(sum, e.step_s) < 1e-12);
}

#[test]
fn overlapping_communication_never_slows_a_plan() {
    let mut slow = base();
    slow.parallelism.tp_overlap = false;
    slow.parallelism.pp_overlap = false;
    slow.parallelism.dp_overlap = false;
    let mut fast = slow;
    fast.parallelism.tp_overlap = true;
    fast.parallelism.pp_overlap = true;
    fast.parallelism.dp_overlap = true;
    let (a, b) = (run(&slow), run(&fast));
    assert!(b.step_s < a.step_s, "{} vs {}", b.step_s, a.step_s);
    assert!(b.breakdown.tp_exposed_s < a.breakdown.tp_exposed_s);
    // The links carry the same traffic either way.
    assert!(relative(a.link.tp_s, b.link.tp_s) < 1e-12);
}

#[test]
fn recomputing_norms_and_activations_trades_a_little_time_for_memory() {
    let mut keep = base();
    keep.parallelism.recompute = Recompute::None;
    keep.parallelism.recompute_elementwise = false;
    let mut light = keep;
    light.parallelism.recompute_elementwise = true;
    let (a, b) = (run(&keep), run(&light));
    assert!(b.memory.activations_bytes < 0.8 * a.memory.activations_bytes);
    assert!(b.step_s > a.step_s && b.step_s < 1.05 * a.step_s, "{} vs {}", b.step_s, a.step_s);
}

/// Tensor-parallel traffic hides under its neighbouring GEMMs only when the group stays inside
/// an NVLink domain (Transformer Engine's userbuffers) and sequence parallelism is on: TP 16 on
/// 8-GPU servers exposes all of it, TP 8 very little, and without sequence parallelism TP 8
/// exposes all of it too.
#[test]
fn tensor_parallel_traffic_hides_only_inside_the_domain() {
    let plan = |tp: u32, pp: u32, sp: bool| {
        inputs(json!({
            "model": { "preset": "gpt3-175b" },
            "training": { "tokens": 3e11, "global_batch": 1536 },
            "cluster": { "chip": "h100-sxm", "chips": 1024, "scale_out": "ib-ndr" },
            "parallelism": { "tp": tp, "pp": pp, "micro_batch": 1, "recompute": "selective",
                             "sequence_parallel": sp, "stack": "megatron-core" }
        }))
    };
    let inside = run(&plan(8, 8, true));
    let across = run(&plan(16, 4, true));
    let no_sp = run(&plan(8, 8, false));
    assert!(inside.breakdown.tp_exposed_s < 0.5 * inside.link.tp_s, "{:?}", inside.breakdown);
    assert!(across.breakdown.tp_exposed_s >= across.link.tp_s * 0.999, "{:?}", across.breakdown);
    assert!(no_sp.breakdown.tp_exposed_s >= no_sp.link.tp_s * 0.999, "{:?}", no_sp.breakdown);
    assert!(across.step_s > inside.step_s);
}

/// Qwen3-235B-A22B on 256 H100 as Megatron-Core's MoE parallel folding runs it (Megatron-MoE
/// ModelZoo): EP 32 drawn from TP 2 x DP 16 with expert tensor parallelism 1. With the expert
/// tensor-parallel degree left at TP's 2, EP 32 x 2 does not divide the 32 ranks.
fn qwen3_on_256(parallelism: Value) -> Inputs {
    let mut p = json!({ "tp": 2, "pp": 8, "dp": 16, "ep": 32, "virtual_stages": 4, "micro_batch": 1,
                        "recompute_elementwise": true, "sequence_parallel": true });
    p.as_object_mut().expect("object").extend(parallelism.as_object().cloned().unwrap_or_default());
    inputs(json!({
        "model": { "layers": 94, "hidden": 4096, "heads": 64, "kv_heads": 4, "head_dim": 128,
                   "ffn": 12288, "vocab": 151936, "seq_len": 4096,
                   "moe": { "experts": 128, "top_k": 8, "expert_ffn": 1536 } },
        "training": { "tokens": 1e12, "global_batch": 2048 },
        "cluster": { "chip": "h100-sxm", "chips": 256, "scale_out": "ib-ndr" },
        "parallelism": p
    }))
}

#[test]
fn expert_parallelism_folds_over_tensor_context_and_data() {
    let folded = run(&qwen3_on_256(json!({ "etp": 1 })));
    assert!(folded.feasible, "{:?}", folded.problems);
    let classic = run(&qwen3_on_256(json!({})));
    assert!(classic
        .problems
        .iter()
        .any(|w| matches!(w, Warning::ExpertDegreeNotDivisible { ep: 32, etp: 2, ranks: 32, .. })));
    // Whole experts on 32 chips, or halves on 16 x 2: the same expert work and weights per
    // chip, but no tensor-parallel traffic around whole experts.
    let split = run(&qwen3_on_256(json!({ "ep": 16 })));
    assert!(split.feasible, "{:?}", split.problems);
    assert!(relative(folded.breakdown.compute_s, split.breakdown.compute_s) < 0.05);
    assert!(folded.link.tp_s < split.link.tp_s);
    assert!(relative(folded.memory.weights_bytes, split.memory.weights_bytes) < 0.01);
}

/// DeepEP sends a token once to each remote domain holding one of its experts and forwards it
/// over NVLink, instead of sending every routed copy on its own: with 8 of 128 experts per token
/// over four 8-GPU servers, about 2.7 copies cross the network instead of 6.
#[test]
fn deepep_sends_a_token_once_per_remote_domain() {
    let all_to_all = run(&qwen3_on_256(json!({ "etp": 1 })));
    let deepep = run(&qwen3_on_256(json!({ "etp": 1, "dispatcher": "deepep" })));
    let ratio = deepep.link.ep_s / all_to_all.link.ep_s;
    assert!(ratio > 0.35 && ratio < 0.55, "{ratio}");
    assert!(deepep.step_s < all_to_all.step_s);
}

/// Placing ranks on 64 of an NVL72 rack's 72 GPUs keeps a 64-rank expert group inside one
/// rack, where the full rack would make it straddle two; the other 8 of each rack sit idle,
/// and a plan needing them is a problem.
#[test]
fn placement_keeps_groups_inside_racks_and_leaves_the_rest_idle() {
    let plan = |placement: Option<u32>, chips: u32| {
        let mut s = json!({
            "model": { "preset": "deepseek-v3" },
            "training": { "tokens": "1T", "global_batch": 1024, "recipe": "fp8" },
            "cluster": { "chip": "gb200", "system": "gb200-nvl72", "chips": chips },
            "parallelism": { "pp": 4, "ep": 64, "tp": 1, "micro_batch": 1 }
        });
        if let Some(used) = placement {
            s["cluster"]["placement"] = json!({ "domain_chips": used });
        }
        Scenario::from_value(s).expect("parses")
    };
    let (full_inputs, full) = plan(None, 256).estimated().expect("resolves");
    let (placed_inputs, placed) = plan(Some(64), 288).estimated().expect("resolves");
    assert_eq!(full_inputs.parallelism.data, 64);
    assert_eq!(placed_inputs.parallelism.data, 64, "DP follows the 256 chips the placement uses");
    assert_eq!(placed_inputs.cluster.usable_chips(), 256);
    assert!(full.warnings.iter().any(|w| matches!(w, Warning::ExpertCrossesDomain { .. })));
    assert!(!placed.warnings.iter().any(|w| matches!(w, Warning::ExpertCrossesDomain { .. })));
    assert!(placed.breakdown.ep_exposed_s < 0.5 * full.breakdown.ep_exposed_s);
    // The 32 idle GPUs count in chip-hours.
    assert!(placed
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::DegreesMismatch { product: 256, chips: 288 })));
    assert!(
        (placed.chip_hours / placed.train_days - 288.0 * 24.0).abs() < 1e-6 * placed.chip_hours
    );
    // 256 chips are three full racks and 40 GPUs of a fourth: placed 64 a rack, 232 of them can
    // be used, fewer than the plan needs.
    let mut short = plan(Some(64), 256);
    short.parallelism.dp = Some(json!(64));
    let (_, e) = short.estimated().expect("resolves");
    assert!(e.problems.iter().any(|w| matches!(
        w,
        Warning::PlacementShort { product: 256, usable: 232, used: 64, domain: 72 }
    )));
    assert!(!e.feasible);
    // More than the domain holds is refused by name.
    let too_many = plan(Some(80), 288).resolve().expect_err("refused");
    assert_eq!(too_many[0].field, "cluster.placement.domain_chips");
}

/// A power cap slows the GEMMs by the published curve and lowers each chip's draw to just
/// under the cap; a cap at or above the board power changes nothing, and one below the
/// measured range is flagged.
#[test]
fn a_power_cap_slows_compute_and_lowers_power() {
    let uncapped = base();
    let at = |cap: f64| {
        let mut i = base();
        i.cluster.power_cap_w = cap;
        run(&i)
    };
    let free = run(&uncapped);
    let tdp = uncapped.cluster.chip.tdp_w;
    let capped = at(0.7 * tdp);
    // 70% of the board keeps about 90% of the GEMM speed; communication keeps its speed.
    let slower = capped.breakdown.compute_s / free.breakdown.compute_s;
    assert!((1.08..1.14).contains(&slower), "compute {slower}");
    assert!(capped.step_s > free.step_s && capped.step_s / free.step_s < slower + 1e-9);
    assert_eq!(capped.link, free.link);
    let per_chip = |e: &Estimate| e.facility.power.chips_w / 1024.0;
    assert!(per_chip(&capped) <= 0.98 * 0.7 * tdp + 1e-6, "{} W", per_chip(&capped));
    assert!(per_chip(&capped) < per_chip(&free));
    // A cap above the board power, or none, is the same plan.
    assert_eq!(at(2.0 * tdp).step_s, free.step_s);
    assert_eq!(at(2.0 * tdp).facility.power.chips_w, free.facility.power.chips_w);
    // Tighter caps are slower; below 30% the curve is not measured and says so.
    assert!(at(0.5 * tdp).step_s > capped.step_s);
    let low = at(0.2 * tdp);
    assert!(low.warnings.iter().any(|w| matches!(w, Warning::CapBelowMeasured { .. })));
    assert_eq!(low.step_s, at(0.3 * tdp).step_s);
}

/// Fewer layers on the first pipeline stage, which holds the most micro-batches in flight,
/// lower the peak memory without slowing the step when the busiest stage is unchanged; too
/// many leave the other stages short and are a problem.
#[test]
fn a_lighter_first_stage_lowers_peak_memory() {
    let plan = |first: Option<u32>| {
        let mut s = json!({
            "model": { "preset": "llama3-70b" },
            "training": { "tokens": "1T", "global_batch": 512 },
            "cluster": { "chip": "ascend-910b", "chips": 32 },
            "parallelism": { "tp": 8, "pp": 4, "micro_batch": 1, "zero": 0 }
        });
        if let Some(f) = first {
            s["parallelism"]["first_stage_layers"] = json!(f);
        }
        Scenario::from_value(s).expect("parses").estimated().expect("resolves").1
    };
    let even = plan(None);
    let uneven = plan(Some(17));
    assert!(uneven.memory.peak_bytes < even.memory.peak_bytes);
    assert!(uneven.memory.activations_bytes < even.memory.activations_bytes);
    // 63 layers over the other three stages: the busiest holds 22, against 20 evenly.
    assert!(uneven.step_s > even.step_s);
    let too_many = plan(Some(78));
    assert!(too_many
        .problems
        .iter()
        .any(|w| matches!(w, Warning::FirstStageTooLarge { first: 78, max: 77 })));
}

/// XLA recomputes stored activations when a compiled step would not fit: a TPU plan a little
/// over its memory fits under the `xla` stack, and pays for it in recomputation, while the same
/// plan under a PyTorch stack does not fit; nothing below full recomputation's memory fits.
#[test]
fn xla_recomputes_to_fit_what_it_can() {
    let plan = |stack: &str, batch: u32| {
        let global = (16 * batch).max(512);
        Scenario::from_value(json!({
            "model": { "layers": 32, "hidden": 10240, "heads": 32, "kv_heads": 32, "head_dim": 256,
                       "ffn": 32768, "ffn_act": "relu", "vocab": 32768, "seq_len": 2048,
                       "attention": "flash", "dropout": false, "tied_embeddings": true },
            "training": { "tokens": "100B", "global_batch": global },
            "cluster": { "chip": "tpu-v5p", "chips": 64, "scale_up_domain": 64 },
            "parallelism": { "tp": 4, "dp": 16, "micro_batch": batch, "zero": 3,
                             "recompute": "selective", "recompute_elementwise": true, "stack": stack }
        }))
        .expect("parses")
        .estimated()
        .expect("resolves")
        .1
    };
    let torch = plan("megatron-core", 32);
    let xla = plan("xla", 32);
    assert!(!torch.memory.fits);
    assert!(xla.memory.fits, "{:?}", xla.memory);
    assert!(xla.memory.compiler_remat > 0.0 && xla.memory.compiler_remat < 1.0);
    // Beyond the norms and activation functions both rerun, XLA reruns what it dropped.
    assert!(xla.breakdown.recompute_s > torch.breakdown.recompute_s);
    assert!(xla.step_s > torch.step_s);
    let roomy = plan("xla", 8);
    assert_eq!(roomy.memory.compiler_remat, 0.0);
    let roomy_torch = plan("megatron-core", 8);
    // The stacks' kernels run at their own shares of the chip's speed; what they rerun is the
    // same share of their compute.
    let rerun = |e: &clusterplan::model::Estimate| e.breakdown.recompute_s / e.breakdown.compute_s;
    assert!((rerun(&roomy) / rerun(&roomy_torch) - 1.0).abs() < 0.01);
    // Four times the batch per replica holds more layer inputs than the chip: no recompute
    // fits it.
    let beyond = plan("xla", 256);
    assert!(!beyond.memory.fits, "{:?}", beyond.memory);
}

/// Scale has a cost: on one plan whose batch grows with its replicas, the step grows with the
/// cluster, as published weak scaling shows it (MegaScale, arXiv:2402.15627, Figure 9:
/// Megatron-LM's 530B model loses 1 point of MFU from 2,240 to 11,200 GPUs): the data-parallel
/// rings span more nodes and keep less of their links' bandwidth (`efficiency::ring_share`),
/// and the slowest of more chips sets the pace.
#[test]
fn the_step_grows_with_the_cluster_on_one_plan() {
    let step = |chips: u32| {
        let dp = chips / 128;
        let s = Scenario::from_value(json!({
            "model": { "preset": "llama3-405b" },
            "training": { "tokens": "15.6T", "global_batch": dp * 16 },
            "cluster": { "chip": "h100-sxm", "chips": chips, "scale_out": "roce-400g" },
            "parallelism": { "tp": 8, "pp": 16, "dp": dp, "virtual_stages": 8, "zero": 1,
                             "recompute": "none", "recompute_elementwise": true }
        }))
        .expect("parses");
        s.estimated().expect("resolves").1.step_s
    };
    let steps: Vec<f64> = [8192, 16_384, 32_768, 65_536, 131_072].into_iter().map(step).collect();
    for pair in steps.windows(2) {
        assert!(pair[1] > pair[0], "{steps:?}");
    }
    assert!(steps[4] > 1.015 * steps[0], "8,192 to 131,072 H100: {steps:?}");
    // MegaScale's weak scaling of the 530B baseline: MFU falls as the cluster grows.
    let (_, rows) = clusterplan::validation::loaded().as_ref().expect("calibration data loads");
    let mfu: Vec<f64> = rows
        .iter()
        .filter(|r| r.run == "megascale-530b-weak")
        .map(|r| clusterplan::validation::check(r).expect("predicts").predicted)
        .collect();
    assert_eq!(mfu.len(), 3);
    assert!(mfu[0] > mfu[1] && mfu[1] > mfu[2], "{mfu:?}");
}

/// A GEMM's speed falls with its contraction depth as the two sources of
/// `efficiency::GEMM_DEPTH_HALF` measured it: DeepGEMM's FP8 GEMMs on H800 at M = 4,096
/// (deepseek-ai/DeepGEMM README at a6d97a1) and BF16 `torch.matmul` on H200
/// (`shared/reference/h200-microbench.md`), each ratio within a tenth.
#[test]
fn gemms_slow_down_with_shallow_contractions_as_measured() {
    use clusterplan::model::efficiency::{depth_share, kernel_s, GEMM_DEPTH_HALF};
    // Uncapped speed ratio of two depths.
    let ratio = |k: f64, deep: f64| (k / (k + GEMM_DEPTH_HALF)) / (deep / (deep + GEMM_DEPTH_HALF));
    // DeepGEMM, N = 7,168 both: K = 2,048 at 1,025 TFLOP/s against K = 16,384 at 1,358.
    for (k, deep, measured) in
        [(2048.0, 16_384.0, 1025.0 / 1358.0), (512.0, 16_384.0, 590.0 / 1358.0)]
    {
        let model = ratio(k, deep);
        assert!((model / measured - 1.0).abs() < 0.10, "K {k}: {model} against {measured}");
    }
    // H200 BF16, every row below the power-limited 16,384 ones: with the tail every short
    // kernel pays (`kernel_s`) and the best single efficiency, the depth curve fits the rows
    // better than no depth at all, and within 7.5 % (root mean square).
    let h200 = [
        (2048.0, 2048.0, 2048.0, 359.0),
        (2048.0, 2048.0, 8192.0, 505.0),
        (4096.0, 1024.0, 4096.0, 456.0),
        (4096.0, 4096.0, 4096.0, 668.0),
        (8192.0, 4096.0, 4096.0, 604.0),
        (8192.0, 16_384.0, 4096.0, 662.0),
        (8192.0, 4096.0, 16_384.0, 686.0),
        (8192.0, 8192.0, 8192.0, 763.0),
    ];
    let rms = |half: f64| {
        let best = (40..=100).map(|e| e as f64 / 100.0).map(|e| {
            let squares: f64 = h200
                .iter()
                .map(|&(m, n, k, tflops)| {
                    let flops = 2.0 * m * n * k;
                    let ideal = flops / (989e12 * e * k / (k + half));
                    (flops / kernel_s(ideal) / 1e12 / tflops).ln().powi(2)
                })
                .sum();
            (squares / h200.len() as f64).sqrt()
        });
        best.fold(f64::INFINITY, f64::min)
    };
    assert!(rms(GEMM_DEPTH_HALF) < 0.075, "{}", rms(GEMM_DEPTH_HALF));
    assert!(rms(GEMM_DEPTH_HALF) < rms(0.0), "{} against {}", rms(GEMM_DEPTH_HALF), rms(0.0));
    // Never faster than the chip's fitted figure, and never slower as the depth grows.
    let mut last = 0.0;
    for k in (0..20).map(|i| 2f64.powi(i)) {
        let s = depth_share(k);
        assert!(s > 0.0 && s <= 1.0 && s >= last, "depth {k}: {s}");
        last = s;
    }
    assert_eq!(depth_share(1e6), 1.0);
}

/// Finer experts of the same work run slower, never faster: splitting every expert in two and
/// routing each token to twice as many keeps the FLOPs, but each grouped GEMM contracts half
/// as deep (the down projection) and produces half as wide (the up projection), over random
/// expert layouts.
#[test]
fn finer_experts_of_the_same_work_never_run_faster() {
    let mut rng = common::Rng(0x5eed_0e0e);
    for _ in 0..40 {
        let experts = 8u32 << rng.below(4); // 8 to 64
        let top_k = 1u32 << rng.below(3); // 1 to 4
        let ffn = 512u32 << rng.below(5); // 512 to 8,192
        let ep = 1u32 << rng.below(4); // 1 to 8
        let step = |experts: u32, top_k: u32, ffn: u32| {
            let e = run(&inputs(json!({
                "model": { "layers": 8, "hidden": 2048, "heads": 16, "kv_heads": 4, "head_dim": 128,
                           "ffn": 8192, "vocab": 32000, "seq_len": 4096,
                           "moe": { "experts": experts, "top_k": top_k, "expert_ffn": ffn } },
                "training": { "tokens": 1e10, "global_batch": 64 },
                "cluster": { "chip": "h100-sxm", "chips": 8, "scale_out": "ib-ndr" },
                "parallelism": { "tp": 1, "pp": 1, "dp": 8, "ep": ep, "micro_batch": 1 }
            })));
            assert!(e.step_s.is_finite() && e.step_s > 0.0, "{:?}", e.problems);
            e.breakdown.compute_s
        };
        let whole = step(experts, top_k, ffn);
        let halves = step(experts * 2, top_k * 2, ffn / 2);
        assert!(
            halves >= whole * (1.0 - 1e-9),
            "{experts} experts of {ffn}, top {top_k}, EP {ep}: {whole} s, halved {halves} s"
        );
    }
}

/// A chip efficiency above every published run of its class is warned of, naming the best
/// run's chip; no catalog chip at its own figure is, on every catalog chip.
#[test]
fn efficiency_claims_above_every_published_run_are_warned_of() {
    let above = |w: &Warning| matches!(w, Warning::EfficiencyAboveClass { .. });
    let plan = |chip: Value| {
        run(&inputs(json!({
            "model": { "preset": "llama3-8b" },
            "training": { "tokens": 1e11, "global_batch": 64 },
            "cluster": { "chip": chip, "chips": 64 },
            "parallelism": { "tp": 1, "pp": 1, "dp": 64 }
        })))
    };
    for chip in presets::CHIPS {
        let e = plan(json!(chip.id));
        assert!(!e.warnings.iter().any(above), "{}: {:?}", chip.id, e.warnings);
    }
    // An H100 claimed at 90 % of its peak: above the best Hopper run.
    let hopper = plan(json!({ "preset": "h100-sxm", "matmul_efficiency": 0.9 }));
    let warned = hopper.warnings.iter().find(|w| above(w));
    assert!(
        matches!(warned, Some(Warning::EfficiencyAboveClass { same_family: true, efficiency, .. }) if *efficiency == 0.9),
        "{:?}",
        hopper.warnings
    );
    // An MTT S4000 has no published run of its family: the best of every accelerator judges it.
    let s4000 = plan(json!({ "preset": "mtt-s4000", "matmul_efficiency": 0.99 }));
    let best = presets::class_best(None).expect("fitted chips");
    match s4000.warnings.iter().find(|w| above(w)) {
        Some(Warning::EfficiencyAboveClass { same_family, best: b, chip, .. }) => {
            assert!(!same_family);
            assert_eq!((*b, *chip), (best.efficiency, best.chip));
        }
        other => panic!("{other:?}"),
    }
    // The same claim in words, both languages.
    let w = s4000.warnings.iter().find(|w| above(w)).expect("warned");
    assert!(w.to_string().contains(best.chip), "{w}");
}

/// A whole iteration's CUDA graph takes the host out of the step: no launch gaps and no MoE
/// dispatcher's wait, dropless or padded. Per-layer and partial graphs are recorded and priced
/// as none, since the published runs that use them do not show their host time going
/// (`model::CudaGraphs`).
#[test]
fn a_full_iteration_cuda_graph_removes_the_host_time() {
    let host = |graphs: &str, capacity: Option<f64>| {
        let e = run(&inputs(json!({
            "model": { "preset": "mixtral-8x7b", "moe": { "capacity_factor": capacity } },
            "training": { "tokens": 1e11, "global_batch": 256 },
            "cluster": { "chip": "h100-sxm", "chips": 64 },
            "parallelism": { "tp": 1, "pp": 1, "dp": 64, "ep": 8, "zero": 3, "recompute": "full",
                             "stack": "megatron-core", "cuda_graphs": graphs }
        })));
        assert!(e.feasible, "{:?}", e.problems);
        e.breakdown.host_s
    };
    for capacity in [None, Some(1.0)] {
        let none = host("none", capacity);
        assert!(none > 0.0, "{capacity:?}");
        assert_eq!(host("layers", capacity), none, "{capacity:?}");
        assert_eq!(host("partial", capacity), none, "{capacity:?}");
        assert_eq!(host("full", capacity), 0.0, "{capacity:?}");
    }
}

/// A benchmark submission's tuned stack runs the whole iteration's graph unless told
/// otherwise; told to run without it, it launches and waits on the host as Megatron-Core does,
/// so "tuned, but without graphs" is a plan one can write.
#[test]
fn a_tuned_stack_without_graphs_waits_on_the_host_as_megatron_core() {
    let step = |stack: &str, graphs: Option<&str>| {
        let mut p = json!({ "tp": 2, "pp": 1, "dp": 32, "ep": 8, "zero": 1, "stack": stack });
        if let Some(g) = graphs {
            p["cuda_graphs"] = json!(g);
        }
        let i = inputs(json!({
            "model": { "preset": "mixtral-8x7b" },
            "training": { "tokens": 1e11, "global_batch": 256 },
            "cluster": { "chip": "h100-sxm", "chips": 64 },
            "parallelism": p
        }));
        (i.parallelism.cuda_graphs, run(&i).breakdown)
    };
    let (graphs, tuned) = step("tuned", None);
    assert_eq!(graphs, clusterplan::model::CudaGraphs::Full);
    assert_eq!(tuned.host_s, 0.0);
    let (_, without) = step("tuned", Some("none"));
    let (_, core) = step("megatron-core", Some("none"));
    assert!(without.host_s > 0.0);
    assert!((without.host_s - core.host_s).abs() <= 1e-12 * core.host_s, "{without:?} {core:?}");
    assert!(without.total() > tuned.total());
}

/// A kernel's time is its ideal plus a tail that fills as the work grows; past 37 tails the
/// tail is whole to the last bit, which is where the model stops taking the exponential.
#[test]
fn a_kernels_tail_is_whole_past_37_tails_to_the_last_bit() {
    use clusterplan::model::efficiency::{kernel_s, GEMM_TAIL_S};
    let mut rng = crate::common::Rng(0x7A11_0037);
    let full = |ideal: f64| ideal + GEMM_TAIL_S * (1.0 - (-ideal / GEMM_TAIL_S).exp());
    for _ in 0..100_000 {
        // From a thousandth of a tail to a thousand tails, log-spaced.
        let ideal = GEMM_TAIL_S * 10f64.powf(-3.0 + rng.below(6_000_001) as f64 / 1e6);
        assert_eq!(kernel_s(ideal).to_bits(), full(ideal).to_bits(), "{ideal}");
    }
    let at = 37.0 * GEMM_TAIL_S;
    for ideal in [at, at * (1.0 + 1e-15), at * 1.0001, 2.0 * at] {
        assert_eq!(kernel_s(ideal).to_bits(), full(ideal).to_bits(), "{ideal}");
    }
}
