//! Properties that hold for every plan: random valid scenarios never panic or produce NaN,
//! breakdowns sum to their totals, memory never falls as sequences grow, offloading
//! activations frees memory and costs no more than its copies, a leaner loss holds less, a
//! sliding window never adds work, the softmax's exponentials never speed attention up, INT8
//! gains no more than its peak and keeps BF16's state, gradients kept in BF16 halve their
//! memory and never slow a step, and more replicas mean fewer tokens per chip. A small deterministic generator keeps runs
//! reproducible.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{random_scenario, Rng};
use clusterplan::model::{self, Estimate, Inputs};
use clusterplan::scenario::Scenario;

fn resolve(s: &Scenario) -> Inputs {
    s.resolve().unwrap_or_else(|e| panic!("generated scenario resolves: {e:?}"))
}

fn numbers(e: &Estimate) -> Vec<(&'static str, f64)> {
    let m = &e.memory;
    let mut v = vec![
        ("step_s", e.step_s),
        ("mfu", e.mfu),
        ("hfu", e.hfu),
        ("tokens_per_s", e.tokens_per_s),
        ("train_days", e.train_days),
        ("chip_hours", e.chip_hours),
        ("steps", e.steps),
        ("peak_bytes", m.peak_bytes),
        ("activations_bytes", m.activations_bytes),
        ("link.dp_s", e.link.dp_s),
        ("link.ep_s", e.link.ep_s),
    ];
    v.extend(e.breakdown.parts());
    v
}

/// No traffic hidden behind compute: what then slows the compute slows the step.
fn overlap_nothing(inputs: &mut Inputs) {
    let p = &mut inputs.parallelism;
    (p.cp_overlap, p.ep_overlap, p.dp_overlap, p.tp_overlap) = (false, false, false, false);
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

#[test]
fn random_plans_are_finite_and_their_breakdowns_sum() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..2000 {
        let s = random_scenario(&mut rng);
        let inputs = resolve(&s);
        let e = model::estimate(&inputs);
        for (name, x) in numbers(&e) {
            assert!(x.is_finite() && x >= 0.0, "case {case}: {name} = {x} for {}", s.to_json());
        }
        assert!(e.step_s > 0.0, "case {case}: zero step time");
        assert!(close(e.breakdown.total(), e.step_s), "case {case}: breakdown does not sum");
        let m = &e.memory;
        let parts = m.weights_bytes
            + m.grads_bytes
            + m.optimizer_bytes
            + m.activations_bytes
            + m.logits_bytes
            + m.transient_bytes
            + m.comm_buffers_bytes
            + m.reserve_bytes;
        assert!(close(parts, m.peak_bytes), "case {case}: memory parts do not sum");
        let phase_max = m.forward_peak_bytes.max(m.backward_peak_bytes).max(m.optimizer_peak_bytes);
        assert!(close(phase_max, m.peak_bytes), "case {case}: peak is not the largest phase");
        assert_eq!(m.fits, m.peak_bytes <= m.hbm_bytes, "case {case}: verdict disagrees");
        assert!(e.hfu >= e.mfu - 1e-12, "case {case}: HFU below MFU");
    }
}

#[test]
fn memory_never_falls_when_sequences_grow() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        let before = model::estimate(&inputs).memory;
        inputs.transformer.seq_len = inputs.transformer.seq_len.saturating_mul(2);
        let after = model::estimate(&inputs).memory;
        assert!(
            after.peak_bytes >= before.peak_bytes,
            "case {case}: peak fell from {} to {} when seq_len doubled ({})",
            before.peak_bytes,
            after.peak_bytes,
            s.to_json()
        );
        assert!(after.activations_bytes + after.logits_bytes >= before.activations_bytes);
    }
}

#[test]
fn offloading_frees_device_memory_at_the_cost_of_its_copies() {
    let mut rng = Rng(0x2F1D_8A5C_03B7_E461);
    let mut freed = 0;
    let mut exposed = 0;
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        let before = model::estimate(&inputs);
        inputs.parallelism.offload_layers = 1 + rng.below(200) as u32;
        // A slow host link on some, so copies outlast the compute beside them.
        if rng.below(2) == 0 {
            inputs.cluster.chip.host_bytes_per_s = 1e9 * (1 + rng.below(8)) as f64;
        }
        let after = model::estimate(&inputs);
        let json = s.to_json();
        assert!(
            after.memory.peak_bytes <= before.memory.peak_bytes * (1.0 + 1e-12),
            "case {case}: offloading {} layers raised the peak from {} to {} ({json})",
            inputs.parallelism.offload_layers,
            before.memory.peak_bytes,
            after.memory.peak_bytes,
        );
        assert!(after.memory.activations_bytes <= before.memory.activations_bytes * (1.0 + 1e-12));
        assert!(close(after.breakdown.total(), after.step_s), "case {case}: parts do not sum");
        // Where the compiler recomputed to fit, offloading spares it some of that instead.
        if before.memory.compiler_remat == 0.0 {
            assert!(after.step_s >= before.step_s * (1.0 - 1e-12), "case {case}: faster ({json})");
            assert!(
                close(after.step_s - after.breakdown.offload_s, before.step_s),
                "case {case}: offloading changed more than its copies ({json})"
            );
        } else {
            assert!(after.breakdown.recompute_s <= before.breakdown.recompute_s * (1.0 + 1e-12));
        }
        let bytes = after.memory.offloaded_bytes;
        let copy_s = bytes / inputs.cluster.chip.host_bytes_per_s;
        assert!(after.breakdown.offload_s <= 2.0 * copy_s * (1.0 + 1e-12), "case {case}");
        freed += usize::from(after.memory.peak_bytes < before.memory.peak_bytes);
        exposed += usize::from(after.breakdown.offload_s > 0.0);
    }
    assert!(freed > 300 && exposed > 20, "{freed} plans freed memory, {exposed} exposed copies");
}

#[test]
fn a_leaner_loss_holds_no_more_and_costs_no_time() {
    use clusterplan::model::CrossEntropy;
    let mut rng = Rng(0x7A3B_19C4_E2D5_6F08);
    let mut freed = 0;
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        let at = |inputs: &mut Inputs, loss: CrossEntropy| {
            inputs.parallelism.cross_entropy = loss;
            model::estimate(inputs)
        };
        let [fp32, fused, in_place, linear] =
            [CrossEntropy::Fp32, CrossEntropy::Fused, CrossEntropy::InPlace, CrossEntropy::Linear]
                .map(|loss| at(&mut inputs, loss));
        let json = s.to_json();
        for (leaner, fuller) in [(&fused, &fp32), (&in_place, &fused), (&linear, &in_place)] {
            assert!(
                leaner.memory.logits_bytes <= fuller.memory.logits_bytes
                    && leaner.memory.peak_bytes <= fuller.memory.peak_bytes * (1.0 + 1e-12),
                "case {case}: a leaner loss holds more ({json})"
            );
            assert!(close(leaner.step_s, fuller.step_s) || leaner.memory.compiler_remat > 0.0);
        }
        freed += usize::from(in_place.memory.logits_bytes < fp32.memory.logits_bytes);
    }
    assert!(freed > 100, "{freed} plans held less with the in-place loss");
}

/// A sliding window only takes attention work away: over generated plans and windows, the
/// model's FLOPs never grow, nor the step with no traffic overlapped (what is overlapped may
/// find less attention to hide behind), a window as long as the sequence changes nothing, and
/// serving's batch and time per token never get worse.
#[test]
fn rerunning_the_mlp_up_projection_holds_no_more_and_never_speeds_up() {
    let mut rng = Rng(0x2C8E_45F1_9AB0_7D63);
    let mut freed = 0;
    for case in 0..800 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        overlap_nothing(&mut inputs);
        inputs.parallelism.recompute_mlp_up = false;
        let kept = model::estimate(&inputs);
        inputs.parallelism.recompute_mlp_up = true;
        let rerun = model::estimate(&inputs);
        let json = s.to_json();
        if inputs.parallelism.recompute == model::Recompute::Full {
            assert!(close(rerun.step_s, kept.step_s), "case {case}: moved under full ({json})");
            assert!(close(rerun.memory.peak_bytes, kept.memory.peak_bytes));
            continue;
        }
        assert!(
            rerun.memory.activations_bytes <= kept.memory.activations_bytes * (1.0 + 1e-12),
            "case {case}: rerunning the up-projection stored more ({json})"
        );
        // The compiler's own rematerialization may shrink once memory is freed.
        assert!(
            rerun.step_s >= kept.step_s * (1.0 - 1e-12) || kept.memory.compiler_remat > 0.0,
            "case {case}: rerunning the up-projection sped the step up ({json})"
        );
        assert!(rerun.hardware_flops_per_step >= kept.hardware_flops_per_step);
        freed += usize::from(rerun.memory.activations_bytes < kept.memory.activations_bytes);
    }
    assert!(freed > 100, "{freed} plans stored less");
}

#[test]
fn a_sliding_window_never_adds_work() {
    use clusterplan::model::{serving, Window};
    let mut rng = Rng(0x5A1D_E3F0_77C4_2B19);
    let mut faster = 0;
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        let full = model::estimate(&inputs);
        let seq = inputs.transformer.seq_len;
        let tokens = 1 + rng.below(2 * seq as u64) as u32;
        let window = Window { tokens, global_every: rng.below(8) as u32 };
        inputs.transformer.window = Some(window);
        let windowed = model::estimate(&inputs);
        let json = s.to_json();
        // Traffic overlapped with attention finds less of it to hide behind; with nothing
        // overlapped, the step only shrinks.
        let mut bare = inputs;
        overlap_nothing(&mut bare);
        let with_window = model::estimate(&bare);
        bare.transformer.window = None;
        let without = model::estimate(&bare);
        assert!(
            with_window.step_s <= without.step_s * (1.0 + 1e-12),
            "case {case}: {window:?} raised the step from {} to {} ({json})",
            without.step_s,
            with_window.step_s
        );
        assert!(
            inputs.transformer.model_flops_per_sequence() <= {
                let mut t = inputs.transformer;
                t.window = None;
                t.model_flops_per_sequence() * (1.0 + 1e-12)
            },
            "case {case}: {window:?} added FLOPs ({json})"
        );
        if tokens >= seq {
            assert!(close(windowed.step_s, full.step_s), "case {case}: a whole-sequence window");
        }
        faster += usize::from(with_window.step_s < without.step_s * (1.0 - 1e-6));
        // Serving the same model, its cache held for a long conversation.
        let mut value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        value["serving"] = serde_json::json!({ "input_tokens": 8192, "output_tokens": 1024 });
        let mut served = resolve(&Scenario::from_value(value).expect("parses"));
        let at = |inputs: &Inputs| {
            serving::of(inputs, &model::estimate(inputs)).expect("serving is asked")
        };
        let plain = at(&served);
        served.transformer.window = Some(window);
        let narrow = at(&served);
        assert!(
            narrow.max_batch >= plain.max_batch,
            "case {case}: the window shrank the batch ({json})"
        );
        if plain.batch == narrow.batch {
            assert!(narrow.tpot_s <= plain.tpot_s * (1.0 + 1e-9), "case {case}: slower ({json})");
        }
    }
    assert!(faster > 150, "{faster} plans ran faster with a window");
}

/// The softmax's exponentials only ever slow attention down: over generated plans, a chip
/// whose exponential units are known (`Chip::exp_per_s`) never trains faster than the same
/// chip without the bound, with nothing overlapped to hide behind the slower attention; and on
/// chips whose units keep up with their matrix products at 128-wide heads (Hopper, Blackwell
/// Ultra) the bound changes nothing for such heads in BF16.
#[test]
fn the_softmax_exponentials_never_speed_attention_up() {
    let mut rng = Rng(0x3C6E_F372_FE94_F82B);
    let mut bound = 0;
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        overlap_nothing(&mut inputs);
        // Heads as narrow as GPT-OSS's or as wide as Llama's, on NVIDIA's generations.
        inputs.transformer.head_dim = *rng.pick(&[64, 128]);
        let chip = *rng.pick(&["a100-80gb", "h100-sxm", "b200", "gb200", "gb300"]);
        inputs.cluster.chip = model::presets::chip(chip).expect("a catalog chip").chip;
        let with = model::estimate(&inputs);
        let exp_per_s = inputs.cluster.chip.exp_per_s;
        inputs.cluster.chip.exp_per_s = 0.0;
        let without = model::estimate(&inputs);
        let json = s.to_json();
        assert!(
            with.step_s >= without.step_s * (1.0 - 1e-12),
            "case {case}: the exponentials sped the step up ({json})"
        );
        let t = &inputs.transformer;
        let wide =
            t.mla.is_none() && t.head_dim >= 128 && inputs.training.recipe != model::Recipe::Fp8;
        let keeps_up = exp_per_s > 0.0 && inputs.cluster.chip.bf16_flops_per_s / exp_per_s <= 256.0;
        if wide && keeps_up {
            assert!(
                close(with.step_s, without.step_s),
                "case {case}: bound at wide heads ({json})"
            );
        }
        bound += usize::from(with.step_s > without.step_s * (1.0 + 1e-9));
    }
    assert!(bound > 60, "{bound} plans were bound by their exponentials");
}

/// INT8 training over generated plans and chips: its state is the BF16 recipe's, so the memory
/// is the same; its step never beats BF16's by more than the ratio of the two peaks (only the
/// linear layers' GEMMs speed up, and they quantize their operands as they run); where the INT8
/// peak is no higher than BF16's (TPU v4, MI250X, Blackwell Ultra) it never wins at all; and a
/// chip with no INT8 figure trains exactly as in BF16, and says so.
#[test]
fn int8_gains_no_more_than_its_peak_and_keeps_the_bf16_state() {
    let mut rng = Rng(0x510E_527F_ADE6_82D1);
    let (mut gained, mut warned) = (0, 0);
    for case in 0..600 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        overlap_nothing(&mut inputs);
        let chip =
            *rng.pick(&["tpu-v4", "tpu-v5e", "tpu-v6e", "h100-sxm", "mi250x", "gb300", "gaudi3"]);
        inputs.cluster.chip = model::presets::chip(chip).expect("a catalog chip").chip;
        inputs.training.recipe = model::Recipe::MegatronBf16;
        let bf16 = model::estimate(&inputs);
        inputs.training.recipe = model::Recipe::Int8;
        let int8 = model::estimate(&inputs);
        let json = s.to_json();
        assert!(
            close(int8.memory.peak_bytes, bf16.memory.peak_bytes),
            "case {case}: INT8 moved the memory ({json})"
        );
        let c = &inputs.cluster.chip;
        let unsupported = int8.warnings.contains(&model::Warning::Int8Unsupported);
        if c.int8_ops_per_s > 0.0 {
            let peaks = (c.int8_ops_per_s / c.bf16_flops_per_s).max(1.0);
            assert!(
                int8.step_s * peaks >= bf16.step_s * (1.0 - 1e-12),
                "case {case}: INT8 gained more than its peak on {chip} ({json})"
            );
            if c.int8_ops_per_s <= c.bf16_flops_per_s {
                assert!(
                    int8.step_s >= bf16.step_s * (1.0 - 1e-12),
                    "case {case}: INT8 won on {chip}, whose INT8 is no faster ({json})"
                );
            }
            assert!(!unsupported, "case {case}: warned on {chip}, which has INT8 units");
            gained += usize::from(int8.step_s < bf16.step_s);
        } else {
            assert!(
                close(int8.step_s, bf16.step_s),
                "case {case}: no INT8 units, yet the step moved"
            );
            assert!(unsupported, "case {case}: no warning on {chip} ({json})");
            warned += 1;
        }
    }
    // Small micro-batches under large weights lose: the weights are quantized every pass.
    assert!(gained > 60, "{gained} plans gained from INT8");
    assert!(warned > 50, "{warned} plans were warned");
}

#[test]
fn a_forward_pass_costs_less_than_a_training_step() {
    let mut rng = Rng(0x9B05_688C_2B3E_6C1F);
    for case in 0..800 {
        let s = random_scenario(&mut rng);
        let inputs = resolve(&s);
        let e = model::estimate(&inputs);
        let json = s.to_json();
        assert!(e.forward_s.is_finite(), "case {case}: forward pass not finite ({json})");
        if !(e.step_s > 0.0) {
            continue;
        }
        // Nothing is stored for a backward pass, recomputed, reduced or updated.
        assert!(
            e.forward_s < e.step_s,
            "case {case}: forward {} s, step {} s ({json})",
            e.forward_s,
            e.step_s
        );
        // The backward pass does at most three times the forward's work.
        assert!(
            e.forward_s >= e.breakdown.compute_s / 4.0,
            "case {case}: forward {} s under a quarter of the compute {} s ({json})",
            e.forward_s,
            e.breakdown.compute_s
        );
    }
}

#[test]
fn doubling_data_parallelism_halves_tokens_per_chip() {
    let mut rng = Rng(0x94D0_49BB_1331_11EB);
    for case in 0..500 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        let tokens_per_chip = |i: &Inputs| {
            let e = model::estimate(i);
            e.n_microbatches as f64
                * i.parallelism.micro_batch as f64
                * i.transformer.seq_len as f64
                / i.parallelism.context as f64
        };
        let before = tokens_per_chip(&inputs);
        inputs.parallelism.data *= 2;
        inputs.cluster.n_chips *= 2;
        if inputs.training.global_batch % (inputs.parallelism.data * inputs.parallelism.micro_batch)
            != 0
        {
            continue;
        }
        let after = tokens_per_chip(&inputs);
        assert!(close(after * 2.0, before), "case {case}: {before} -> {after}");
    }
}

#[test]
fn arbitrary_inputs_never_panic_or_produce_nan() {
    // Fields set directly, bypassing `resolve`: zeros, huge values and nonsense combinations.
    let mut rng = Rng(0xBF58_476D_1CE4_E5B9);
    let base = resolve(&Scenario::default_plan());
    let wild = [0u32, 1, 2, 3, 7, 8, 1000, 65536, u32::MAX];
    for case in 0..3000 {
        let mut i = base;
        let mut w = || *rng.pick(&wild);
        i.transformer.n_layers = w();
        i.transformer.hidden = w();
        i.transformer.n_heads = w();
        i.transformer.n_kv_heads = w();
        i.transformer.head_dim = w();
        i.transformer.ffn = w();
        i.transformer.vocab = w();
        i.transformer.seq_len = w();
        i.training.global_batch = w();
        i.cluster.n_chips = w();
        i.cluster.scale_up.domain_size = w();
        i.parallelism.tensor = w();
        i.parallelism.pipeline = w();
        i.parallelism.data = w();
        i.parallelism.context = w();
        i.parallelism.expert = w();
        i.parallelism.micro_batch = w();
        i.parallelism.virtual_stages = w();
        if case % 3 == 0 {
            i.cluster.chip.bf16_flops_per_s = 0.0;
            i.cluster.chip.hbm_bytes_per_s = f64::NAN;
            i.training.tokens = -1.0;
        }
        let e = model::estimate(&i);
        for (name, x) in numbers(&e) {
            assert!(x.is_finite(), "case {case}: {name} = {x}");
        }
    }
}

/// Gradients accumulated and reduced in BF16 hold exactly half the memory of FP32 ones, never
/// raise the peak, never move more over the data-parallel links and never slow the step.
#[test]
fn bf16_gradients_halve_their_memory_and_never_slow_a_step() {
    use clusterplan::model::Grads;
    let mut rng = Rng(0x51A7_0C3E_9B24_D7F1);
    let (mut faster, mut halved) = (0, 0);
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        inputs.training.grads = Grads::Fp32;
        let wide = model::estimate(&inputs);
        inputs.training.grads = Grads::Bf16;
        let narrow = model::estimate(&inputs);
        let json = s.to_json();
        // The breakdown is the busiest stage's in its peak phase: compare it where there is
        // one stage and both peak in the same phase.
        let phase = |m: &clusterplan::model::MemoryUse| {
            [m.forward_peak_bytes, m.backward_peak_bytes, m.optimizer_peak_bytes]
                .iter()
                .position(|&b| b == m.peak_bytes)
        };
        if inputs.parallelism.pipeline == 1 && phase(&narrow.memory) == phase(&wide.memory) {
            assert!(
                close(narrow.memory.grads_bytes, 0.5 * wide.memory.grads_bytes),
                "case {case}: gradients {} against {} ({json})",
                narrow.memory.grads_bytes,
                wide.memory.grads_bytes
            );
            halved += 1;
        }
        assert!(
            narrow.memory.peak_bytes <= wide.memory.peak_bytes * (1.0 + 1e-12),
            "case {case}: peak grew ({json})"
        );
        assert!(
            narrow.link.dp_s <= wide.link.dp_s * (1.0 + 1e-12),
            "case {case}: more data-parallel traffic ({json})"
        );
        assert!(narrow.step_s <= wide.step_s * (1.0 + 1e-12), "case {case}: slower step ({json})");
        assert!(close(narrow.breakdown.total(), narrow.step_s), "case {case}: parts do not sum");
        faster += usize::from(narrow.step_s < wide.step_s * (1.0 - 1e-9));
    }
    assert!(faster > 100, "halving the reduction sped up only {faster} of 1,000 plans");
    assert!(halved > 20, "only {halved} plans compared their gradients' memory");
}

/// Weights kept in BF16 with their moments hold no more than either FP32 way of keeping them
/// and never slow a step; one FP32 copy holds no more than Megatron's mixed state once the
/// state is sharded whole (ZeRO-3), where only the bytes a parameter differ (the BF16 copy).
#[test]
fn bf16_weights_hold_least_and_fp32_ones_less_than_mixed_when_sharded() {
    use clusterplan::model::{Sharding, Weights};
    let mut rng = Rng(0x7E1F_93A5_0C2D_B864);
    let (mut sharded, mut smaller) = (0, 0);
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let mut inputs = resolve(&s);
        let json = s.to_json();
        let at = |inputs: &mut Inputs, weights| {
            inputs.training.weights = weights;
            model::estimate(inputs)
        };
        let mixed = at(&mut inputs, Weights::Mixed);
        let fp32 = at(&mut inputs, Weights::Fp32);
        let bf16 = at(&mut inputs, Weights::Bf16);
        let least = mixed.memory.peak_bytes.min(fp32.memory.peak_bytes);
        assert!(
            bf16.memory.peak_bytes <= least * (1.0 + 1e-12),
            "case {case}: BF16 state holds more ({json})"
        );
        assert!(
            bf16.step_s <= mixed.step_s.min(fp32.step_s) * (1.0 + 1e-12),
            "case {case}: BF16 state slows the step ({json})"
        );
        assert!(close(bf16.breakdown.total(), bf16.step_s), "case {case}: parts do not sum");
        if inputs.parallelism.sharding == Sharding::Full {
            sharded += 1;
            assert!(
                fp32.memory.peak_bytes <= mixed.memory.peak_bytes * (1.0 + 1e-12),
                "case {case}: one FP32 copy holds more than mixed state sharded whole ({json})"
            );
        }
        smaller += usize::from(bf16.memory.peak_bytes < least * (1.0 - 1e-9));
    }
    assert!(sharded > 50, "only {sharded} plans sharded their state whole");
    assert!(smaller > 500, "BF16 state held less in only {smaller} of 1,000 plans");
}
