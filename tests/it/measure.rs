//! Measurements in: every fixture format is read with its warm-up left out and its ranks
//! merged; logs generated from the model at two sizes calibrate the plan at a third to the
//! generator's figure; another chip's log leaves this chip alone; a hostile log changes
//! nothing.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use crate::common::Rng;
use clusterplan::evaluation;
use clusterplan::launch::Plan;
use clusterplan::measure::{self, Format, Measured, Why};
use clusterplan::model::{Recipe, Recompute};
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

fn fixture(name: &str) -> measure::Reading {
    let path = format!("tests/data/logs/{name}");
    let bytes = std::fs::read(&path).expect("fixture");
    measure::read(name, &bytes).unwrap_or_else(|why| panic!("{name}: {why:?}"))
}

fn step_s(r: &measure::Reading) -> f64 {
    match r.measured {
        Measured::StepS(s) => s,
        ref other => panic!("{}: {other:?}", r.name),
    }
}

/// A Megatron-Core log: the printed arguments give the plan and the chips, the first tenth
/// of the iterations (compilation, the first data) is left out, the rest's median kept.
#[test]
fn a_megatron_log_gives_its_plan_and_settled_step() {
    let r = fixture("megatron-core-0.15-fp8.log");
    assert_eq!(r.format, Format::Megatron);
    assert_eq!((r.samples, r.warmup, r.ranks), (27, 3, 1));
    assert!((step_s(&r) - 6.0).abs() < 0.04, "{r:?}");
    assert_eq!(r.world, Some(64));
    let plan = r.plan.as_ref().expect("the plan from the arguments");
    assert_eq!((plan.tp, plan.pp, plan.dp, plan.recipe), (8, 4, Some(2), Recipe::Fp8));
}

/// Several ranks' copies of each iteration, interleaved under `srun -l` prefixes, count once
/// at the slowest; a line cut off at the end is skipped.
#[test]
fn interleaved_ranks_count_once_and_a_truncated_line_is_skipped() {
    let r = fixture("megatron-multirank-truncated.log");
    assert_eq!(r.format, Format::Megatron);
    assert_eq!(r.ranks, 2);
    assert_eq!(r.samples + r.warmup, 12, "{r:?}");
    assert!(r.plan.is_none());
    // The slower rank's copy (rank 63) is the one kept: the median of its iterations after
    // the first two.
    let text = std::fs::read_to_string("tests/data/logs/megatron-multirank-truncated.log")
        .expect("fixture");
    let mut slow: Vec<f64> = text
        .lines()
        .filter(|l| l.starts_with("63:"))
        .filter_map(|l| l.split("(ms): ").nth(1)?.split(' ').next()?.parse().ok())
        .skip(2)
        .collect();
    slow.sort_by(f64::total_cmp);
    let median = 0.5 * (slow[4] + slow[5]) / 1e3;
    assert_eq!(slow.len(), 10);
    assert!((step_s(&r) - median).abs() < 1e-9, "{r:?} vs {median}");
}

#[test]
fn torchtitan_maxtext_and_mlperf_logs_are_read() {
    let t = fixture("torchtitan-0.2.2.log");
    assert_eq!(t.format, Format::Torchtitan);
    assert_eq!(t.measured, Measured::TokensPerChipS(6921.0));
    // Its plan from what it prints at start: FSDP over 8 GPUs, FP8, selective checkpointing.
    let plan = t.plan.as_ref().expect("the plan from its mesh and batch");
    assert_eq!(
        (plan.dp, plan.tp, plan.zero, plan.global_batch, plan.seq_len),
        (Some(8), 1, 3, 8, 8192)
    );
    assert_eq!(
        (plan.recipe, plan.recompute, t.world),
        (Recipe::Fp8, Recompute::Selective, Some(8))
    );
    let m = fixture("maxtext-v0.2.log");
    assert_eq!(m.format, Format::Maxtext);
    assert!((step_s(&m) - 2.864).abs() < 1e-9, "{m:?}");
    // Its plan from the settings it prints at start: FSDP 256 in a slice, 2 slices.
    let plan = m.plan.as_ref().expect("the plan from its settings");
    assert_eq!(
        (plan.dp, plan.tp, plan.zero, plan.global_batch, plan.seq_len),
        (Some(512), 1, 3, 2048, 8192)
    );
    assert_eq!((plan.recompute, m.world), (Recompute::Full, Some(512)));
    let p = fixture("mlperf-v5.0-result_0.txt");
    assert_eq!(p.format, Format::Mllog);
    assert!((step_s(&p) - 8.50).abs() < 1e-9, "{p:?}");
}

/// nccl-tests' table gives its collective, ranks and hosts, the time of its smallest and
/// largest message and the bus bandwidth at the largest; bench_serving's results (SGLang's
/// JSON lines, vLLM's file) their throughput and latency percentiles, which calibrate nothing
/// yet.
#[test]
fn fabric_and_serving_measurements_are_read() {
    let n = fixture("nccl-tests-2.16-all_reduce-2nodes.txt");
    let Measured::Fabric(t) = &n.measured else { panic!("{n:?}") };
    assert_eq!((t.collective.as_str(), t.ranks, t.nodes), ("all_reduce_perf", Some(16), Some(2)));
    assert!((t.bus_gb_per_s - 354.62).abs() < 1e-9 && (t.smallest_us - 48.56).abs() < 1e-9);
    assert_eq!((t.smallest_bytes, t.largest_bytes), (8.0, 8589934592.0));
    for name in ["sglang-0.5.6-bench_serving.jsonl", "vllm-0.11-bench_serve.json"] {
        let r = fixture(name);
        assert_eq!(r.format, Format::BenchServing);
        let Measured::Serving { output_tokens_per_s, ttft_p99_ms, tpot_p50_ms, .. } = r.measured
        else {
            panic!("{r:?}")
        };
        let given = |x: Option<f64>, above: f64| x.is_some_and(|x| x > above);
        assert!(given(output_tokens_per_s, 1000.0) && given(ttft_p99_ms, 900.0));
        assert!(given(tpot_p50_ms, 10.0));
    }
    // A figure a file does not give is reported as null, not as zero.
    let mut bench: Value = serde_json::from_slice(
        &std::fs::read("tests/data/logs/vllm-0.11-bench_serve.json").expect("fixture"),
    )
    .expect("JSON");
    bench.as_object_mut().expect("an object").remove("p99_ttft_ms");
    let table = std::fs::read_to_string("tests/data/logs/nccl-tests-2.16-all_reduce-2nodes.txt")
        .expect("fixture")
        .lines()
        .filter(|l| !l.starts_with("#  Rank"))
        .collect::<Vec<_>>()
        .join("\n");
    let logs = [
        ("bench.json".to_string(), serde_json::to_vec(&bench).expect("bytes")),
        ("nccl.txt".to_string(), table.into_bytes()),
    ];
    let report =
        clusterplan::report::measure_json(&evaluation::measure(&logs, None).expect("reads"));
    let read = report["read"].as_array().expect("read");
    assert_eq!(read.len(), 2, "{report}");
    assert!(read[0]["measured"]["ttft_p99_ms"].is_null(), "{report}");
    assert!(read[0]["measured"]["tpot_p50_ms"].as_f64().is_some_and(|x| x > 10.0), "{report}");
    assert!(read[1]["measured"]["ranks"].is_null() && read[1]["measured"]["nodes"].is_null());
    assert!(read[1]["measured"]["bus_gb_per_s"].as_f64().is_some_and(|x| x > 300.0), "{report}");
    // A plan that serves nothing has no serving to calibrate.
    let bench = std::fs::read("tests/data/logs/vllm-0.11-bench_serve.json").expect("fixture");
    let m = evaluation::measure(&[("bench.json".into(), bench)], Some(&Scenario::default_plan()))
        .expect("measures");
    assert!(m.entries.is_empty() && m.serving.is_empty());
    assert_eq!(
        m.unread,
        vec![("bench.json".to_string(), Why::NotCalibrated(Format::BenchServing))]
    );
}

fn serving_plan() -> Scenario {
    Scenario::from_value(json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": 1e12, "global_batch": 1024 },
        "cluster": { "chip": "h100-sxm", "chips": 64 },
        "serving": { "tp": 8, "weights": "fp8", "kv_cache": "fp8", "tpot_ms": 50 }
    }))
    .expect("a serving plan")
}

/// A `bench_serving` result as SGLang writes it.
fn bench(tpot_ms: f64, concurrency: u32) -> Vec<u8> {
    let completed = 10 * concurrency;
    json!({
        "backend": "sglang", "max_concurrency": concurrency, "completed": completed,
        "total_input_tokens": completed * 1024, "total_output_tokens": completed * 256,
        "request_throughput": 3.0, "output_throughput": 800.0,
        "median_ttft_ms": 400.0, "p99_ttft_ms": 900.0,
        "median_tpot_ms": tpot_ms, "p99_tpot_ms": 1.2 * tpot_ms,
    })
    .to_string()
    .into_bytes()
}

/// A benchmark written from the model's own time per output token with serving's kernels at
/// 70 % of the catalogue's share is read back to that share, and the fitted plan meets it; a
/// time no share can give sets nothing and says so.
#[test]
fn a_serving_benchmark_sets_servings_kernel_share() {
    let s = serving_plan();
    let catalog = s.resolve().expect("resolves").serving.expect("serving").kernel_share;
    let truth = 0.7 * catalog;
    let slow = s.with(&clusterplan::scenario::fields::SERVING_KERNEL_SHARE, Some(json!(truth)));
    // The generator: the same measurement fitted with the share set gives the time at truth.
    let probe = evaluation::measure(&[("probe.json".into(), bench(30.0, 64))], Some(&slow))
        .expect("measures");
    let at_truth = probe.serving[0].1.before_tpot_s;
    let m = evaluation::measure(&[("bench.json".into(), bench(at_truth * 1e3, 64))], Some(&s))
        .expect("measures");
    let [(_, fit)] = &m.serving[..] else { panic!("{:?} {:?}", m.serving, m.unread) };
    assert!((fit.kernel_share / truth - 1.0).abs() < 0.01, "{fit:?} vs {truth}");
    assert!((fit.after_tpot_s / fit.measured_tpot_s - 1.0).abs() < 0.01, "{fit:?}");
    assert!(fit.before_tpot_s < fit.measured_tpot_s, "{fit:?}");
    assert_eq!(fit.concurrency, 64);
    let measured = m.measured.expect("the plan with the share");
    assert_eq!(
        measured.get("serving.kernel_share"),
        Some(json!((fit.kernel_share * 1e3).round() / 1e3))
    );
    let after = measured.resolve().expect("resolves").serving.expect("serving").kernel_share;
    assert!((after / truth - 1.0).abs() < 0.01);
    // A microsecond a token: no share of an H100 gives it.
    let m =
        evaluation::measure(&[("fast.json".into(), bench(0.001, 64))], Some(&s)).expect("measures");
    assert!(m.serving.is_empty());
    assert_eq!(m.unread, vec![("fast.json".to_string(), Why::ServingBeyond)]);
}

/// An all-reduce on one H100 node sets the scale-up links, one over two nodes the network's:
/// the fitted model meets the table's largest and smallest message, and the plan's links
/// change, not its chip; a table faster than the plan's links at their full line rate sets
/// nothing and says so.
#[test]
fn an_all_reduce_table_sets_the_links_it_ran_over() {
    let s = plan_at(json!("h100-sxm"), 1024);
    let log =
        std::fs::read("tests/data/logs/nccl-tests-2.16-all_reduce-1node.txt").expect("fixture");
    let m = evaluation::measure(&[("nvlink.txt".into(), log)], Some(&s)).expect("measures");
    let [(file, fit)] = &m.fabric[..] else { panic!("{:?} {:?}", m.fabric, m.unread) };
    assert_eq!((file.as_str(), fit.links), ("nvlink.txt", "scale_up"));
    let Measured::Fabric(t) = &m.readings[0].measured else { panic!() };
    assert!((fit.after_s.1 / (t.largest_us * 1e-6) - 1.0).abs() < 1e-3, "{fit:?}");
    assert!((fit.after_s.0 / (t.smallest_us * 1e-6) - 1.0).abs() < 0.05, "{fit:?}");
    assert!(fit.efficiency > 0.5 && fit.efficiency < 1.0, "{fit:?}");
    let measured = m.measured.expect("the plan with its links");
    assert_eq!(
        measured.get("cluster.scale_up.efficiency"),
        Some(json!((fit.efficiency * 1e3).round() / 1e3))
    );
    assert_eq!(measured.get("cluster.scale_up.preset"), Some(json!("nvlink4-8")));
    let (before, after) = (m.before.expect("before"), m.after.expect("after"));
    assert_eq!(before.inputs.cluster.chip, after.inputs.cluster.chip);
    assert_ne!(before.inputs.cluster.scale_up, after.inputs.cluster.scale_up);
    // Two hosts: the ranks span domains, so the network's links are fitted.
    let two =
        std::fs::read("tests/data/logs/nccl-tests-2.16-all_reduce-2nodes.txt").expect("fixture");
    let m = evaluation::measure(&[("ib.txt".into(), two)], Some(&s)).expect("measures");
    let [(_, fit)] = &m.fabric[..] else { panic!("{:?} {:?}", m.fabric, m.unread) };
    assert_eq!(fit.links, "scale_out");
    assert!(m.measured.expect("measured").get("cluster.scale_out.efficiency").is_some());
    // The one-host table on A100, whose NVLink carries 300 GB/s: 360 GB/s of bus bandwidth is
    // beyond it at full line rate, so nothing is set.
    let a100 = plan_at(json!("a100-80gb"), 1024);
    let log =
        std::fs::read("tests/data/logs/nccl-tests-2.16-all_reduce-1node.txt").expect("fixture");
    let m = evaluation::measure(&[("nvlink.txt".into(), log)], Some(&a100)).expect("measures");
    assert!(m.fabric.is_empty());
    assert_eq!(m.unread, vec![("nvlink.txt".to_string(), Why::FabricBeyond)]);
    assert_eq!(m.after.expect("after").estimate.step_s, m.before.expect("before").estimate.step_s);
}

/// Megatron's printed `arguments` block for a plan, as `_print_args` writes it.
fn header(plan: &Plan, world: u32) -> String {
    let none = |v: u32| if v > 1 { v.to_string() } else { "None".into() };
    let (granularity, recipe) = match plan.recompute {
        Recompute::Full => ("full", "None"),
        Recompute::Selective => ("selective", "None"),
        Recompute::None => ("None", "None"),
    };
    let fp8 = match plan.recipe {
        Recipe::Fp8 => "hybrid",
        _ => recipe,
    };
    let args = [
        ("tensor_model_parallel_size", plan.tp.to_string()),
        ("pipeline_model_parallel_size", plan.pp.to_string()),
        ("virtual_pipeline_model_parallel_size", none(plan.vp)),
        ("context_parallel_size", plan.cp.to_string()),
        ("expert_model_parallel_size", plan.ep.to_string()),
        ("expert_tensor_parallel_size", plan.etp.to_string()),
        ("data_parallel_size", plan.dp.unwrap_or(1).to_string()),
        ("world_size", world.to_string()),
        ("micro_batch_size", plan.micro_batch.to_string()),
        ("global_batch_size", plan.global_batch.to_string()),
        ("seq_length", plan.seq_len.to_string()),
        ("recompute_granularity", granularity.to_string()),
        ("recompute_modules", "['core_attn']".to_string()),
        (
            "sequence_parallel",
            if plan.sequence_parallel == Some(true) { "True" } else { "False" }.into(),
        ),
        ("use_distributed_optimizer", if plan.zero >= 1 { "True" } else { "False" }.into()),
        ("bf16", "True".into()),
        ("fp8", fp8.to_string()),
        ("fp8_recipe", "tensorwise".into()),
    ];
    let mut text = String::from("------------------------ arguments ------------------------\n");
    for (k, v) in args {
        text.push_str(&format!("  {k} {} {v}\n", ".".repeat(48 - k.len())));
    }
    text + "-------------------- end of arguments ---------------------\n"
}

/// A Megatron log of `n` iterations at `step_s` seconds after two slow warm-up iterations.
fn megatron_log(plan: &Plan, world: u32, step_s: f64, n: u32) -> Vec<u8> {
    let mut text = header(plan, world);
    for i in 1..=n {
        let ms = if i <= 2 { step_s * 5e3 } else { step_s * 1e3 * (1.0 + 0.001 * (i % 3) as f64) };
        text.push_str(&format!(
            " [2026-11-02 10:00:00.000000] iteration {i:8}/{n:8} | consumed samples: {:12} | \
             elapsed time per iteration (ms): {ms:.1} | global batch size: {:5} | lm loss: 9.0E+00 |\n",
            i * plan.global_batch,
            plan.global_batch
        ));
    }
    text.into_bytes()
}

fn plan_at(chip: Value, chips: u32) -> Scenario {
    Scenario::from_value(json!({
        "model": { "preset": "llama3-70b", "seq_len": 8192 },
        "training": { "tokens": 1.5e13, "global_batch": 512, "recipe": "fp8" },
        "cluster": { "chip": chip, "chips": chips },
        "parallelism": { "tp": 8, "pp": 4, "cp": 1, "virtual_stages": 1, "micro_batch": 1,
                         "zero": 1, "recompute": "selective", "sequence_parallel": true }
    }))
    .expect("a scenario")
}

/// Logs written from the model's own step times at 64 and 256 GPUs, with the chip's GEMMs
/// 20 % slower than the catalogue's, calibrate the plan at 2,048 to within 2 % of the
/// generator there.
#[test]
fn logs_at_two_sizes_calibrate_a_third_to_the_generator() {
    let base = plan_at(json!("h100-sxm"), 2048);
    let catalog = base.resolve().expect("resolves").cluster.chip.matmul_efficiency;
    let slow = json!({ "preset": "h100-sxm", "matmul_efficiency": 0.8 * catalog });
    let mut logs = Vec::new();
    for chips in [64, 256] {
        let (inputs, e) = plan_at(slow.clone(), chips).estimated().expect("the generator");
        let plan = Plan::of(&inputs);
        logs.push((format!("run-{chips}.log"), megatron_log(&plan, chips, e.step_s, 20)));
    }
    let m = evaluation::measure(&logs, Some(&base)).expect("measures");
    assert_eq!(m.entries.len(), 2, "{:?}", m.unread);
    let after = m.after.expect("judged with the logs");
    let before = m.before.expect("judged without");
    let truth = plan_at(slow, 2048).estimated().expect("the generator at 2,048").1.step_s;
    let error = after.estimate.step_s / truth - 1.0;
    assert!(error.abs() < 0.02, "calibrated {} vs generator {truth}", after.estimate.step_s);
    assert!((before.estimate.step_s / truth - 1.0).abs() > 0.05, "the logs moved nothing");
    let fit = after.calibration.expect("a fit");
    assert_eq!(fit.places, vec![0, 1]);
}

/// Logs written from the model at two micro-batch sizes, with GEMMs 20 % slower than the
/// catalogue's and launches four times its figure, set both: Llama 3.1 8B at 512 tokens a GPU
/// on 1,024 GPUs lands within 1 % of the generator, where the GEMM efficiency alone would
/// leave it fast.
#[test]
fn logs_at_two_shapes_set_the_launch_time() {
    let plan_of = |chips: u32, tp: u32, cp: u32, micro_batch: u32, seq: u32| {
        Scenario::from_value(json!({
            "model": { "preset": "llama3-8b", "seq_len": seq },
            "training": { "tokens": 1e12, "global_batch": 1024, "recipe": "megatron-bf16" },
            "cluster": { "chip": "h100-sxm", "chips": chips },
            "parallelism": { "tp": tp, "pp": 1, "cp": cp, "micro_batch": micro_batch, "zero": 1,
                             "recompute": "selective", "sequence_parallel": true,
                             "stack": "megatron-core" }
        }))
        .expect("a scenario")
    };
    let base = plan_of(1024, 4, 4, 1, 8192);
    let generator = |s: &Scenario| {
        let mut inputs = s.resolve().expect("resolves");
        inputs.cluster.chip.matmul_efficiency *= 0.8;
        inputs.parallelism.software.layer_host_s *= 4.0;
        (inputs, clusterplan::model::estimate(&inputs).step_s)
    };
    let mut logs = Vec::new();
    for micro_batch in [1, 4] {
        let (inputs, step_s) = generator(&plan_of(16, 2, 1, micro_batch, 4096));
        let plan = Plan::of(&inputs);
        logs.push((format!("mbs-{micro_batch}.log"), megatron_log(&plan, 16, step_s, 20)));
    }
    let m = evaluation::measure(&logs, Some(&base)).expect("measures");
    assert_eq!(m.entries.len(), 2, "{:?}", m.unread);
    // The report says what the launches were fitted to.
    let report = clusterplan::report::measure_json(&m);
    assert_eq!(report["fit"]["launches"], "fitted", "{report}");
    let catalog = clusterplan::model::presets::fitted::LAYER_HOST_S
        .iter()
        .find(|f| f.0 == clusterplan::model::Stack::MegatronCore)
        .expect("Megatron-Core's launch time is fitted")
        .1;
    assert!(report["fit"]["layer_host_s"].as_f64().is_some_and(|s| s > 3.5 * catalog));
    assert_eq!(report["fit"]["catalog_layer_host_s"], catalog);
    let after = m.after.expect("judged with the logs");
    let fit = after.calibration.expect("a fit").fit;
    assert_eq!(fit.launches, clusterplan::model::calibrate::Launches::Fitted, "{fit:?}");
    assert!((fit.host_s / fit.host_catalog - 4.0).abs() < 0.1, "{fit:?}");
    let truth = generator(&base).1;
    let error = after.estimate.step_s / truth - 1.0;
    assert!(error.abs() < 0.01, "calibrated {} vs generator {truth}", after.estimate.step_s);
}

/// `log` with these model settings printed in its arguments block.
fn with_model(log: Vec<u8>, settings: &[(&str, &str)]) -> Vec<u8> {
    let mut lines = String::new();
    for (k, v) in settings {
        lines.push_str(&format!("  {k} {} {v}\n", ".".repeat(48 - k.len())));
    }
    String::from_utf8(log)
        .expect("text")
        .replacen(
            "-------------------- end of arguments",
            &(lines + "-------------------- end of arguments"),
            1,
        )
        .into_bytes()
}

/// A log names the model it ran: a catalogue model is measured as itself (and calibrates the
/// chip as that model's runs do), another dense shape as that shape over the plan's model, the
/// plan's own as the plan's; a mixture of experts no model of the plan's kind can carry is left
/// out with why.
#[test]
fn a_log_measures_the_model_it_names() {
    let base = plan_at(json!("h100-sxm"), 2048);
    let catalog = base.resolve().expect("resolves").cluster.chip.matmul_efficiency;
    // Llama 3.1 8B run at TP 8 on 64 GPUs, its GEMMs at 90 % of the catalogue's efficiency.
    let eight = base.measured_plan(&json!({
        "model": { "preset": "llama3-8b" }, "cluster": { "chips": 64 }, "parallelism": { "pp": 1, "dp": null }
    }));
    let mut inputs = eight.resolve().expect("the 8B run resolves");
    inputs.cluster.chip.matmul_efficiency = 0.9 * catalog;
    let step = clusterplan::model::estimate(&inputs).step_s;
    let log = megatron_log(&Plan::of(&inputs), 64, step, 20);
    let shape = |layers: &str, hidden: &str, ffn: &str, heads: &str, vocab: &str| {
        vec![
            ("num_layers", layers.to_string()),
            ("hidden_size", hidden.to_string()),
            ("ffn_hidden_size", ffn.to_string()),
            ("num_attention_heads", heads.to_string()),
            ("group_query_attention", "True".to_string()),
            ("num_query_groups", "8".to_string()),
            ("padded_vocab_size", vocab.to_string()),
            ("num_experts", "None".to_string()),
        ]
    };
    let logged = |settings: Vec<(&str, String)>| {
        let settings: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
        with_model(log.clone(), &settings)
    };
    let measured = |bytes: Vec<u8>| {
        evaluation::measure(&[("run.log".to_string(), bytes)], Some(&base)).expect("measures")
    };
    let m = measured(logged(shape("32", "4096", "14336", "32", "128256")));
    assert_eq!(
        m.readings[0].shape.map(|s| (s.layers, s.hidden, s.kv_heads)),
        Some((32, 4096, Some(8)))
    );
    assert_eq!(m.entries[0]["scenario"]["model"]["preset"], "llama3-8b", "{:?}", m.entries);
    let fit = m.after.expect("judged").calibration.expect("a fit").fit;
    assert!((fit.efficiency / (0.9 * catalog) - 1.0).abs() < 0.01, "{fit:?}");
    // The entries alone: these logs' steps are the 8B model's, which no other model explains.
    let entries = |bytes: Vec<u8>| {
        let read = measure::read("run.log", &bytes).expect("reads");
        measure::entries(&[read], Some(&base))
    };
    // The plan's own model, by shape: the plan's preset.
    let (e, _) = entries(logged(shape("80", "8192", "28672", "64", "128256")));
    assert_eq!(e[0]["scenario"]["model"]["preset"], "llama3-70b");
    assert!(e[0]["scenario"]["model"].get("layers").is_none(), "{e:?}");
    // Llama 2 70B has Llama 3.1 70B's shape and another vocabulary: the plan's model is taken.
    let (e, _) = entries(logged(shape("80", "8192", "28672", "64", "32000")));
    assert_eq!(e[0]["scenario"]["model"]["preset"], "llama3-70b");
    // A dense shape no catalogue model has: written over the plan's model.
    let (e, _) = entries(logged(shape("40", "8192", "28672", "64", "128256")));
    let model = &e[0]["scenario"]["model"];
    assert_eq!(
        (model["preset"].as_str(), model["layers"].as_u64()),
        (Some("llama3-70b"), Some(40))
    );
    // A mixture of experts no catalogue model has, on a dense plan: left out, with why.
    let mut moe = shape("24", "2048", "5632", "16", "151936");
    moe.retain(|(k, _)| *k != "num_experts");
    moe.extend([("num_experts", "48".to_string()), ("moe_router_topk", "4".to_string())]);
    let (e, skipped) = entries(logged(moe));
    assert!(e.is_empty(), "{e:?}");
    assert!(matches!(&skipped[..], [(_, Why::OtherModel(s))] if s.experts == 48), "{skipped:?}");
}

/// Over generated chip pairs: a log measured on another chip, whatever it says, leaves this
/// chip's efficiency and estimate as they were.
#[test]
fn another_chips_log_leaves_this_chip_alone() {
    let mut rng = Rng(0xC41B_0002);
    let chips = ["h100-sxm", "b200", "ascend-910b", "mi300x", "h20", "gaudi3"];
    for _ in 0..12 {
        let ours = *rng.pick(&chips);
        let theirs = *rng.pick(&chips);
        if ours == theirs {
            continue;
        }
        let here = plan_at(json!(ours), 1024);
        let there = plan_at(json!(theirs), 64);
        let (inputs, e) = there.estimated().expect("their run");
        let factor = 0.5 + rng.below(100) as f64 / 50.0;
        let log = megatron_log(&Plan::of(&inputs), 64, e.step_s * factor, 12);
        let r = measure::read("theirs.log", &log).expect("reads");
        let (entries, _) = measure::entries(&[r], Some(&there));
        assert_eq!(entries.len(), 1);
        let mut with = here.clone();
        with.calibration = Some(Value::Array(entries));
        let before = evaluation::evaluate(&here).expect("ours");
        let after = evaluation::evaluate(&with).expect("ours with their log");
        assert!(after.calibration.is_none(), "{theirs}'s log calibrated {ours}");
        assert_eq!(
            after.inputs.cluster.chip.matmul_efficiency,
            before.inputs.cluster.chip.matmul_efficiency
        );
        assert_eq!(after.estimate.step_s, before.estimate.step_s);
    }
}

/// A binary file, a log of no known lines (100 MB of them) and an empty one are reported
/// with their reason, and the scenario judged with them is the scenario judged without.
#[test]
fn a_hostile_log_is_reported_and_changes_nothing() {
    let scenario = plan_at(json!("h100-sxm"), 1024);
    let mut binary = vec![0u8; 4096];
    binary.extend_from_slice(b"iteration 1/ 2 | elapsed time per iteration (ms): 1.0 |\n");
    let line = b"INFO something happened that is not an iteration, again and again\n";
    let noise: Vec<u8> = line.iter().copied().cycle().take(100 << 20).collect();
    let logs = vec![
        ("binary.bin".to_string(), binary),
        ("noise.log".to_string(), noise),
        ("empty.log".to_string(), Vec::new()),
    ];
    let m = evaluation::measure(&logs, Some(&scenario)).expect("measures");
    assert!(m.entries.is_empty() && m.readings.is_empty());
    assert_eq!(m.unread[0], ("binary.bin".to_string(), Why::Binary));
    assert!(matches!(m.unread[1].1, Why::NoLines { lines } if lines > 1_000_000));
    assert!(matches!(m.unread[2].1, Why::NoLines { .. }));
    let (before, after) = (m.before.expect("before"), m.after.expect("after"));
    assert_eq!(before.estimate.step_s, after.estimate.step_s);
    assert!(after.calibration.is_none());
}

/// `clusterplan measure` prints the entries, what it read and the fit with the days before
/// and after.
#[test]
fn the_command_line_measures_a_log() {
    let s = plan_at(json!("h100-sxm"), 64);
    let out = common::cli_json(
        &["measure", "tests/data/logs/megatron-core-0.15-fp8.log", "--scenario", "-"],
        &s,
    );
    assert_eq!(out["read"][0]["format"], "megatron");
    assert_eq!(out["calibration"][0]["scenario"]["cluster"]["chips"], 64);
    assert_eq!(out["calibration"][0]["scenario"]["cluster"]["chip"], "h100-sxm");
    assert!(out["fit"]["runs"][0]["measured_step_s"].as_f64().unwrap_or(0.0) > 5.9);
    assert!(
        out["before"]["train_days"].as_f64().is_some()
            && out["after"]["train_days"].as_f64().is_some()
    );
}
