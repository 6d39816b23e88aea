//! Serving and RL post-training: what `predict` returns for dense and MoE models on several
//! vendors' chips, and the physics over generated deployments and loads: the frontier trades
//! latency for throughput, the chips needed carry the load at the targets, more chips per
//! instance never hold fewer sequences, and a longer generation lengthens generation only.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use crate::common::Rng;
use clusterplan::evaluation;
use clusterplan::model::serving::{Problem, TPOT_TAIL};
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

fn scenario(model: &str, chip: &str, chips: u32, serving: Value) -> Scenario {
    Scenario::from_value(json!({
        "model": { "preset": model },
        "training": { "tokens": 1e12, "global_batch": 1024 },
        "cluster": { "chip": chip, "chips": chips },
        "serving": serving,
    }))
    .expect("a scenario")
}

fn cli(args: &[&str], s: &Scenario) -> Value {
    common::cli_json(args, s)
}

fn predict(s: &Scenario) -> Value {
    cli(&["predict", "-"], s)
}

/// `predict` gives the serving object for a dense and an MoE model on NVIDIA, Ascend and AMD
/// chips, every figure positive and finite, each range around its value.
#[test]
fn predict_serves_dense_and_moe_models_on_three_vendors() {
    // A first token within 4 s at the load: every one of these meets it at 80 % busy.
    let load = json!({ "tokens_per_day": 1e9, "tpot_ms": 100, "ttft_ms": 4000 });
    for (model, chip, chips) in [
        ("llama3-70b", "h100-sxm", 64),
        ("llama3-70b", "ascend-910b", 64),
        ("llama3-70b", "mi300x", 64),
        ("deepseek-v3", "h800", 512),
        ("deepseek-v3", "ascend-910c", 512),
        ("deepseek-v3", "mi325x", 512),
        ("mixtral-8x7b", "h100-sxm", 64),
    ] {
        let out = predict(&scenario(model, chip, chips, load.clone()));
        let s = &out["serving"];
        for key in [
            "prefill_tokens_per_s",
            "decode_tokens_per_s",
            "ttft_s",
            "tpot_s",
            "max_batch",
            "chips_needed",
            "usd_per_million_input_tokens",
            "usd_per_million_output_tokens",
            "cloud_usd_per_million_output_tokens",
            "power_w",
        ] {
            let x = s[key].as_f64().unwrap_or_else(|| panic!("{model} on {chip}: no {key}"));
            assert!(x.is_finite() && x > 0.0, "{model} on {chip}: {key} = {x}");
        }
        assert_eq!(s["feasible"], json!(true), "{model} on {chip}: {}", s["problems"]);
        let tpot = s["tpot_s"].as_f64().unwrap();
        assert!(tpot * TPOT_TAIL <= 0.1 * (1.0 + 1e-9), "{model} on {chip}: {tpot}");
        let [lo, hi] = [0, 1].map(|i| s["range"]["decode_tokens_per_s"][i].as_f64().unwrap());
        let x = s["decode_tokens_per_s"].as_f64().unwrap();
        assert!(lo <= x && x <= hi, "{model} on {chip}: {lo} {x} {hi}");
        assert!(out.get("rl").is_none());
    }
}

/// A generated deployment and load on a generated chip and model.
fn generated(rng: &mut Rng) -> Scenario {
    let models = ["llama3-8b", "llama3-70b", "llama3-405b", "mixtral-8x7b", "deepseek-v3"];
    let chips = ["h100-sxm", "h200", "b200", "mi300x", "gaudi3", "ascend-910b", "ascend-910c"];
    let model = *rng.pick(&models);
    let chip = *rng.pick(&chips);
    let moe = model == "mixtral-8x7b" || model == "deepseek-v3";
    let tp = rng.pow2(3) as u32;
    let dp = if moe { rng.pow2(5) as u32 } else { 1 };
    let precision = ["bf16", "fp8", "fp4"];
    let mut serving = json!({
        "input_tokens": 64 << rng.below(7),
        "output_tokens": 16 << rng.below(7),
        "tpot_ms": 10 + rng.below(200),
        "ttft_ms": 100_000,
        "requests_per_s": (1 + rng.below(200)) as f64 / 4.0,
        "weights": *rng.pick(&precision),
        "kv_cache": *rng.pick(&precision),
        "tp": tp,
        "dp": dp,
        "disaggregated": rng.below(3) == 0,
        "continuous_batching": rng.below(4) != 0,
    });
    if rng.below(3) == 0 {
        serving["max_batch"] = json!(1 + rng.below(512));
    }
    scenario(model, chip, 1 << 16, serving)
}

/// Over generated deployments: the frontier runs from batch 1 to the cache's largest, more
/// batch giving more output per chip at a longer time per token; the batch run is the largest
/// meeting the target, and the chips needed carry the load at it.
#[test]
fn the_frontier_is_monotone_and_the_chips_carry_the_load() {
    let mut rng = Rng(0x5E4F_1A7E);
    let mut checked = 0;
    for case in 0..400 {
        let s = generated(&mut rng);
        let good = evaluation::evaluate(&s).unwrap_or_else(|e| panic!("case {case}: {e:?}"));
        let served = evaluation::serve(&good);
        let (Some(v), Some(asked)) = (&served.serving, good.inputs.serving) else {
            panic!("case {case}: no serving")
        };
        for w in v.frontier.windows(2) {
            assert!(w[0].batch < w[1].batch, "case {case}: {:?}", v.frontier);
            assert!(w[1].tpot_s >= w[0].tpot_s * (1.0 - 1e-12), "case {case}: {:?}", v.frontier);
            assert!(
                w[1].tokens_per_s_per_chip >= w[0].tokens_per_s_per_chip * (1.0 - 1e-12),
                "case {case}: {:?}",
                v.frontier
            );
        }
        let parts: f64 = v.step.parts().iter().map(|p| p.1).sum();
        assert!((parts - v.step.total()).abs() <= 1e-12 * parts.max(1.0), "case {case}");
        if !v.feasible {
            continue;
        }
        checked += 1;
        assert!(v.tpot_s * TPOT_TAIL <= asked.tpot_s * (1.0 + 1e-9), "case {case}: {v:?}");
        assert!(v.batch <= v.max_batch.max(1), "case {case}");
        // The chips needed, at the planned utilisation, serve at least the load.
        let rho = v.utilisation;
        let capacity = if asked.disaggregated {
            let decode = v.decode_instances as f64
                * v.decode.chips() as f64
                * v.decode_pool_tokens_per_s_per_chip
                / asked.output_tokens;
            let prefill = v.prefill_instances as f64
                * v.prefill.chips() as f64
                * v.prefill_pool_tokens_per_s_per_chip
                / asked.input_tokens;
            decode.min(prefill) * rho
        } else {
            v.decode_instances as f64 * v.requests_per_s_per_unit * rho
        };
        assert!(
            capacity >= asked.requests_per_s * (1.0 - 1e-9),
            "case {case}: {capacity} < {} requests/s: {v:?}",
            asked.requests_per_s
        );
        // One instance fewer would not carry it.
        if !asked.disaggregated && v.decode_instances > 1 {
            let less = (v.decode_instances - 1) as f64 * v.requests_per_s_per_unit * v.utilisation;
            assert!(less < asked.requests_per_s, "case {case}: more instances than needed");
        }
    }
    assert!(checked > 100, "{checked} feasible cases");
}

/// A larger instance holds at least as many sequences: the cache grows with the chips.
#[test]
fn more_chips_an_instance_hold_more_sequences() {
    for (model, chip) in
        [("llama3-70b", "h100-sxm"), ("llama3-405b", "mi300x"), ("llama3-8b", "ascend-910b")]
    {
        let mut last = 0;
        for tp in [1, 2, 4, 8] {
            let s = scenario(model, chip, 64, json!({ "tp": tp, "weights": "fp8" }));
            let good = evaluation::evaluate(&s).expect("resolves");
            let max = evaluation::serve(&good).serving.expect("serving").max_batch;
            assert!(max >= last, "{model} on {chip}: TP {tp} holds {max} < {last}");
            last = max;
        }
        assert!(last > 0, "{model} on {chip} never fits");
    }
}

fn rl(generation_tokens: u32, colocated: bool) -> Scenario {
    Scenario::from_value(json!({
        "model": { "preset": "llama3-8b", "seq_len": 16384 },
        "training": { "tokens": 1e12, "global_batch": 256 },
        "cluster": { "chip": "h100-sxm", "chips": 64 },
        "parallelism": { "tp": 2, "pp": 1, "dp": 32 },
        "rl": { "generation_tokens": generation_tokens, "colocated": colocated, "generation_chips": 32 },
    }))
    .expect("a scenario")
}

/// RL on the training chips: the step is its split, generation takes a share of it, and
/// doubling the generation lengthens generation and leaves training as it was.
#[test]
fn rl_splits_its_step_and_a_longer_generation_lengthens_generation_only() {
    for colocated in [true, false] {
        let short = evaluation::evaluate(&rl(2048, colocated)).expect("resolves");
        let long = evaluation::evaluate(&rl(4096, colocated)).expect("resolves");
        let (a, b) =
            (evaluation::serve(&short).rl.expect("rl"), evaluation::serve(&long).rl.expect("rl"));
        for r in [&a, &b] {
            let parts = r.generation_s + r.scoring_s + r.training_s + r.handoff_s;
            assert!((parts - r.step_s).abs() <= 1e-9 * r.step_s, "{r:?}");
            assert!(r.generation_share > 0.0 && r.generation_share < 1.0, "{r:?}");
            assert!(r.problems.is_empty(), "{r:?}");
            assert_eq!(r.idle_share == 0.0, colocated, "{r:?}");
        }
        assert!(b.generation_s > a.generation_s * 1.5, "{} vs {}", b.generation_s, a.generation_s);
        assert_eq!(b.training_s, a.training_s);
        assert_eq!(b.scoring_s, a.scoring_s);
        assert!(b.generation_share > a.generation_share);
    }
    let out = predict(&rl(2048, true));
    for key in ["generation_s", "training_s", "handoff_s", "step_s"] {
        assert!(out["rl"][key].as_f64().is_some_and(|x| x > 0.0), "{key}: {}", out["rl"]);
    }
}

/// `search --objective serving-cost` ranks deployments, cheapest a million output tokens first
/// (more output a megawatt breaking ties), every one feasible with its energy and its range;
/// the scenario's own deployment is never cheaper than the best, and expert tensor
/// parallelism is among the splits tried.
#[test]
fn the_serving_search_finds_the_cheapest_deployment() {
    let s = scenario("deepseek-v3", "h800", 1024, json!({ "tokens_per_day": 1e10, "tpot_ms": 80 }));
    let v = cli(&["search", "-", "--objective", "serving-cost", "--top", "40"], &s);
    let found = v["deployments"].as_array().expect("deployments");
    assert!(!found.is_empty() && found.len() <= 40);
    let cost = |d: &Value| d["usd_per_million_output_tokens"].as_f64().unwrap();
    for w in found.windows(2) {
        assert!(cost(&w[0]) <= cost(&w[1]), "not ranked");
    }
    for d in found {
        assert_eq!(d["feasible"], json!(true));
        assert!(d["tokens_per_s_per_mw"].as_f64().is_some_and(|x| x > 0.0), "{d}");
        assert!(d["range"]["usd_per_million_output_tokens"][1].as_f64().unwrap() >= cost(d));
    }
    assert!(found.iter().any(|d| d["decode"]["expert_tp"].as_u64() > Some(1)), "no expert TP");
    let own =
        evaluation::serve(&evaluation::evaluate(&s).expect("resolves")).serving.expect("serving");
    if own.feasible {
        assert!(own.usd_per_million_output_tokens >= cost(&v["best"]) * (1.0 - 1e-9));
    }
}

/// Over generated deployments (dense and MoE, several chips, prompts short and long, loads
/// light and heavy, targets loose and tight, prefill and decode together and apart): whenever
/// the first token at the planned load or the time per token misses its target, the
/// deployment is infeasible with a problem that says so, and the serving search never ranks
/// a deployment that misses one. The colocated case answers to its load.
#[test]
fn a_missed_target_at_the_load_is_never_called_met() {
    use clusterplan::model::serving::search;
    let mut rng = Rng(0x5E7_7A26);
    let models = ["llama3-8b", "llama3-70b", "deepseek-v3", "mixtral-8x7b"];
    let chips = ["h100-sxm", "h800", "ascend-910b", "mi300x", "b200"];
    let (mut missed, mut met) = (0, 0);
    for case in 0..160 {
        let model = models[rng.below(models.len() as u64) as usize];
        let chip = chips[rng.below(chips.len() as u64) as usize];
        let n = 64u32 << rng.below(6);
        let (input, output) = (256u64 << rng.below(7), 64u64 << rng.below(5));
        let load = *rng.pick(&[0.5, 5.0, 50.0, 500.0]);
        let (ttft, tpot) =
            (*rng.pick(&[150.0, 500.0, 2000.0, 8000.0]), *rng.pick(&[15.0, 40.0, 100.0]));
        // A planned busy share, or none: the busiest the target's 99th percentile allows.
        let (apart, busy) = (rng.below(2) == 1, *rng.pick(&[0.5, 0.8, 0.95, 0.0]));
        let mut serving = json!({
            "input_tokens": input, "output_tokens": output, "requests_per_s": load,
            "ttft_ms": ttft, "tpot_ms": tpot, "disaggregated": apart, "utilisation": busy,
        });
        if busy == 0.0 {
            serving.as_object_mut().expect("object").remove("utilisation");
        }
        let s = scenario(model, chip, n, serving.clone());
        let good = evaluation::evaluate(&s).expect("resolves");
        let asked = good.inputs.serving.expect("serving asked");
        let e = evaluation::serve(&good).serving.expect("serving");
        // Targets are 99th percentiles, as benchmarks and service levels state them.
        assert!(e.ttft_p50_s <= e.ttft_p99_s && e.tpot_s <= e.tpot_p99_s, "case {case}");
        let ttft_missed = e.ttft_p99_s > asked.ttft_s * (1.0 + 1e-12);
        let tpot_missed = e.tpot_s * TPOT_TAIL > asked.tpot_s * (1.0 + 1e-12);
        if ttft_missed || tpot_missed {
            missed += 1;
            assert!(!e.feasible, "case {case} {serving}: {e:?}");
            let says = e.problems.iter().any(|p| match p {
                Problem::TtftAtLoad { .. } | Problem::TtftUnreachable { .. } => ttft_missed,
                Problem::TpotUnreachable { .. } => tpot_missed,
                _ => false,
            });
            assert!(says, "case {case} {serving}: {:?}", e.problems);
        } else {
            met += 1;
        }
        for ranked in search(&good.inputs, &good.estimate, n.min(256)) {
            assert!(ranked.feasible, "case {case}: {ranked:?}");
            assert!(ranked.ttft_p99_s <= asked.ttft_s * (1.0 + 1e-12), "case {case}");
            assert!(ranked.tpot_s * TPOT_TAIL <= asked.tpot_s * (1.0 + 1e-12), "case {case}");
        }
        // Colocated, a lighter load leaves the instance less busy and the first token sooner.
        if !asked.disaggregated && e.busy > 0.2 {
            let mut light = serving.clone();
            light["requests_per_s"] = json!(1e-3);
            let light = scenario(model, chip, n, light);
            let l = evaluation::serve(&evaluation::evaluate(&light).expect("resolves"))
                .serving
                .expect("serving");
            assert!(
                l.busy < e.busy && l.ttft_s < e.ttft_s,
                "case {case}: {} vs {}",
                l.ttft_s,
                e.ttft_s
            );
        }
    }
    assert!(missed >= 10 && met >= 10, "both kinds generated: {missed} missed, {met} met");
}

/// A benchmark at a fixed concurrency is a closed loop: an instance never decodes more at once
/// than its share of the clients, and more clients never bring the first token sooner (more
/// decodes beside each prompt, a busier prefill, clients waiting for a place). A smaller step
/// budget never brings it sooner either (the prompt takes more steps), and past the room a
/// prompt needs beside the batch's decodes the budget changes nothing of the first token.
#[test]
fn a_closed_loop_and_the_steps_budget_never_bring_the_first_token_sooner() {
    let mut rng = Rng(0xC105_ED10);
    let models = ["llama3-8b", "llama3-70b", "mixtral-8x7b", "deepseek-v3"];
    let chips = ["h100-sxm", "b200", "mi300x", "ascend-910c", "tpu-v6e"];
    let (mut waited, mut stepped) = (0, 0);
    for case in 0..120 {
        let model = *rng.pick(&models);
        let chip = *rng.pick(&chips);
        let n = 8u32 << rng.below(4);
        let clients = 1u64 << rng.below(13);
        let budget = 256u64 << rng.below(7);
        let apart = rng.below(4) == 0;
        let continuous = apart || rng.below(5) != 0;
        let input = 128u64 << rng.below(6);
        let serving = |clients: u64, budget: u64| {
            json!({
                "input_tokens": input,
                "output_tokens": 256, "tpot_ms": 60_000, "ttft_ms": 3_600_000,
                "concurrency": clients, "max_tokens": budget,
                "disaggregated": apart, "continuous_batching": continuous,
            })
        };
        let at = |clients: u64, budget: u64| {
            let s = scenario(model, chip, n, serving(clients, budget));
            evaluation::serve(&evaluation::evaluate(&s).expect("resolves"))
                .serving
                .expect("serving")
        };
        let e = at(clients, budget);
        let unit = e.decode.chips() + if apart { e.prefill.chips() } else { 0 };
        let instances = (n / unit.max(1)).max(1) as u64;
        let share = clients.div_ceil(instances);
        assert!(e.batch as u64 <= share, "case {case}: batch {} of {share} clients", e.batch);
        let more = at(clients * 2, budget);
        assert!(
            more.ttft_s >= e.ttft_s * (1.0 - 1e-9),
            "case {case}: {} < {}",
            more.ttft_s,
            e.ttft_s
        );
        if (more.batch as u64) < 2 * share.min(u32::MAX as u64) && more.ttft_p50_s > e.ttft_p50_s {
            waited += 1;
        }
        let smaller = at(clients, budget / 2);
        assert!(
            smaller.ttft_s >= e.ttft_s * (1.0 - 1e-9),
            "case {case}: budget {} gives {} < {}",
            budget / 2,
            smaller.ttft_s,
            e.ttft_s
        );
        if smaller.ttft_s > e.ttft_s * (1.0 + 1e-6) {
            stepped += 1;
        }
    }
    assert!(
        waited >= 10 && stepped >= 10,
        "both effects generated: {waited} waited, {stepped} stepped"
    );
}

/// A loop of one client never queues: its first token is the same at every percentile,
/// colocated or with prefill apart, with draft tokens or without, and apart (where it is the
/// prompt's prefill, the cache's trip and one step) the same whatever its output's length.
#[test]
fn one_client_alone_never_waits() {
    for (apart, drafts) in [(false, 0), (true, 0), (false, 3), (true, 3)] {
        let first = |output: u32| {
            let serving = json!({
                "input_tokens": 512, "output_tokens": output, "tpot_ms": 60_000,
                "ttft_ms": 3_600_000, "concurrency": 1, "disaggregated": apart,
                "draft_tokens": drafts,
            });
            let s = scenario("llama3-8b", "h100-sxm", 16, serving);
            evaluation::serve(&evaluation::evaluate(&s).expect("resolves"))
                .serving
                .expect("serving")
        };
        let (short, long) = (first(16), first(64));
        assert_eq!(short.batch, 1, "apart {apart}");
        for e in [&short, &long] {
            assert!(
                (e.ttft_p99_s - e.ttft_p50_s).abs() <= 1e-12 * e.ttft_s,
                "apart {apart}: {e:?}"
            );
        }
        assert!(
            !apart || (long.ttft_s / short.ttft_s - 1.0).abs() < 0.02,
            "apart {apart}: {} s after 16 tokens, {} s after 64",
            short.ttft_s,
            long.ttft_s
        );
    }
}

/// Prefill and decode pools a deployment fixes never serve more a chip than the same
/// instances in the ratio of their capacities (the slower pool idles the other), and the load
/// takes whole units, with instances in the pools' ratio.
#[test]
fn fixed_pools_never_beat_the_ratio_of_their_capacities() {
    let mut rng = Rng(0xF1ED_9001);
    let models = ["llama3-70b", "mixtral-8x7b", "deepseek-v3"];
    let chips = ["h100-sxm", "b200", "mi300x", "ascend-910c"];
    let mut slower = 0;
    for case in 0..100 {
        let model = *rng.pick(&models);
        let chip = *rng.pick(&chips);
        let (p, d) = (1 + rng.below(4), 1 + rng.below(12));
        let mut serving = json!({
            "input_tokens": 256 << rng.below(5), "output_tokens": 64 << rng.below(5),
            "tpot_ms": 60_000, "ttft_ms": 3_600_000, "disaggregated": true,
            "requests_per_s": 1 + rng.below(500),
        });
        let at = |serving: &Value| {
            let s = scenario(model, chip, 4096, serving.clone());
            evaluation::serve(&evaluation::evaluate(&s).expect("resolves"))
                .serving
                .expect("serving")
        };
        let balanced = at(&serving);
        serving["prefill_instances"] = json!(p);
        serving["decode_instances"] = json!(d);
        let fixed = at(&serving);
        assert!(
            fixed.decode_tokens_per_s_per_chip
                <= balanced.decode_tokens_per_s_per_chip * (1.0 + 1e-9),
            "case {case}: {p}P{d}D serves {} a chip, the capacities' ratio {}",
            fixed.decode_tokens_per_s_per_chip,
            balanced.decode_tokens_per_s_per_chip
        );
        if fixed.decode_tokens_per_s_per_chip < balanced.decode_tokens_per_s_per_chip * 0.99 {
            slower += 1;
        }
        assert_eq!(fixed.prefill_instances * d, fixed.decode_instances * p, "case {case}");
    }
    assert!(slower >= 20, "fixed pools that idle: {slower}");
}

/// An empty `serving` or `rl` section asks for the answer at its defaults, and stays in the
/// scenario as written (its link and file keep it).
#[test]
fn an_empty_section_asks_at_the_defaults() {
    let base = scenario("llama3-70b", "h100-sxm", 512, json!({ "tpot_ms": 100 }));
    for key in ["serving", "rl"] {
        let mut v = base.to_value();
        v.as_object_mut().expect("an object").remove("serving");
        v[key] = json!({});
        let s = Scenario::from_value(v).expect("a scenario");
        assert_eq!(s.to_value()[key], json!({}), "{key} kept as written");
        let url = clusterplan::scenario::url::encode(&s);
        let back = clusterplan::scenario::url::decode(&format!("#{url}")).expect("decodes");
        assert_eq!(back, Some(s.clone()), "{key} through the link");
        let out = predict(&s);
        assert!(out[key].is_object(), "{key}: {out}");
        assert!(out[key]["step_s"].as_f64().or(out[key]["ttft_s"].as_f64()).is_some(), "{key}");
    }
}

/// An empty `rl` section's samples fit the sequence the policy trains on: a model of short
/// sequences generates what its sequence leaves after the prompt, a long one the usual
/// trace; a longer sample typed is a problem in words.
#[test]
fn default_rl_samples_fit_the_models_sequence() {
    for (model, seq_len, generated) in [("llama2-70b", 4096, 3584.0), ("llama3-405b", 8192, 4096.0)]
    {
        let typed = |rl: Value| {
            let mut s = scenario(model, "h100-sxm", 1024, json!({})).to_value();
            s.as_object_mut().expect("an object").remove("serving");
            s["rl"] = rl;
            s["parallelism"] = json!({ "tp": 8, "pp": 8 });
            let s = Scenario::from_value(s).expect("a scenario");
            let good = evaluation::evaluate(&s).expect("resolves");
            assert_eq!(good.inputs.transformer.seq_len, seq_len);
            let rl = good.inputs.rl.expect("rl asked");
            (rl.prompt_tokens + rl.generation_tokens, evaluation::serve(&good).rl.expect("rl"))
        };
        let (tokens, r) = typed(json!({}));
        assert_eq!(tokens, 512.0 + generated, "{model}");
        assert!(tokens <= seq_len as f64 && r.problems.is_empty(), "{model}: {r:?}");
        let (_, r) = typed(json!({ "generation_tokens": seq_len }));
        assert!(!r.problems.is_empty(), "{model}: {r:?}");
    }
}

/// FP8 or FP4 weights on a chip without such tensor units are said to run at the rate the chip
/// has, and run at it: the Ascend 910B has no FP8 units, the H100 has FP8 but no FP4.
#[test]
fn weights_in_a_format_the_chip_lacks_are_said_to_run_wider() {
    use clusterplan::model::serving::{Note, Precision};
    for (chip, weights, runs_at) in [
        ("ascend-910b", "fp8", Some(Precision::Bf16)),
        ("h100-sxm", "fp4", Some(Precision::Fp8)),
        ("h100-sxm", "fp8", None),
        ("b200", "fp4", None),
    ] {
        let s = scenario("llama3-70b", chip, 512, json!({ "weights": weights }));
        let e = evaluation::serve(&evaluation::evaluate(&s).expect("resolves"))
            .serving
            .expect("serving");
        let said: Vec<Precision> = e
            .notes
            .iter()
            .map(|n| match n {
                Note::NoUnits { runs_at, .. } => *runs_at,
            })
            .collect();
        assert_eq!(said.first().copied(), runs_at, "{chip} {weights}: {:?}", e.notes);
        let out = predict(&s);
        assert_eq!(
            out["serving"]["notes"].as_array().map(Vec::len),
            Some(usize::from(runs_at.is_some()))
        );
    }
}

/// `size --tokens-per-day` gives each chip the chips and megawatts its cheapest deployment
/// needs for the load, each inside its range; over generated loads, models and chips, more
/// tokens a day never take fewer chips or less power, and a chip that cannot meet the targets
/// says so instead of a size.
#[test]
fn serving_sizes_grow_with_the_load_on_every_chip() {
    let chips = ["h100-sxm", "ascend-910c", "gb200", "mi300x", "gaudi3", "mlu370-x8"];
    let mut rng = Rng(0x51_2E5);
    let mut served = 0;
    for _ in 0..6 {
        let model = *rng.pick(&["llama3-8b", "llama3-70b", "deepseek-v3", "mixtral-8x7b"]);
        let tpot = *rng.pick(&[30.0, 50.0, 100.0]);
        let s = scenario(model, "h100-sxm", 1024, json!({ "tpot_ms": tpot }));
        let low = 1e8 * (1u64 << rng.below(6)) as f64;
        let at = |load: f64| {
            let load = load.to_string();
            let mut args = vec!["size", "-", "--tokens-per-day", load.as_str()];
            for chip in chips {
                args.extend(["--chip", chip]);
            }
            cli(&args, &s)["rows"].as_array().expect("rows").clone()
        };
        let (few, many) = (at(low), at(low * 10.0));
        assert_eq!(few.len(), chips.len());
        for (a, b) in few.iter().zip(&many) {
            if a["serves"] != json!(true) {
                assert!(a.get("chips_needed").is_none(), "{a}");
                continue;
            }
            served += 1;
            let n = a["chips_needed"].as_f64().unwrap();
            let range = &a["chips_needed_range"];
            assert!(
                n >= 1.0 && range[0].as_f64() <= Some(n) && range[1].as_f64() >= Some(n),
                "{a}"
            );
            assert!(a["power_mw"].as_f64().is_some_and(|mw| mw > 0.0), "{a}");
            assert_eq!(a["serving"]["feasible"], json!(true), "{a}");
            if b["serves"] == json!(true) {
                assert!(b["chips_needed"].as_f64().unwrap() >= n, "{model} {tpot}: {a} then {b}");
                assert!(b["power_mw"].as_f64() >= a["power_mw"].as_f64(), "{a} then {b}");
            }
        }
    }
    assert!(served >= 12, "{served} chips served their loads");
}

/// Over generated deployments: attention's projections kept at a wider format than the other
/// weights (a mixed-precision checkpoint, NVIDIA's FP4 DeepSeek-R1 keeping them in BF16) hold
/// more bytes a chip, leave no larger batch and never serve faster; named at the weights' own
/// format they change nothing.
#[test]
fn attention_kept_wider_never_serves_faster() {
    let mut rng = Rng(0xA77E_0001);
    let mut heavier = 0;
    for case in 0..120 {
        let base = generated(&mut rng);
        let mut raw = serde_json::to_value(&base).expect("serializes");
        let weights = raw["serving"]["weights"].clone();
        let estimate = |v: &Value| {
            let s = Scenario::from_value(v.clone()).expect("a scenario");
            evaluation::serve(&evaluation::evaluate(&s).expect("resolves"))
                .serving
                .expect("serving")
        };
        let plain = estimate(&raw);
        raw["serving"]["attention_weights"] = weights.clone();
        let same = estimate(&raw);
        assert_eq!(same.decode_tokens_per_s_per_chip, plain.decode_tokens_per_s_per_chip);
        assert_eq!(same.weight_bytes_per_chip, plain.weight_bytes_per_chip);
        assert_eq!(same.ttft_s, plain.ttft_s, "case {case}");
        raw["serving"]["attention_weights"] = json!("bf16");
        let wide = estimate(&raw);
        assert!(
            wide.weight_bytes_per_chip >= plain.weight_bytes_per_chip,
            "case {case}: {weights} {} -> {}",
            plain.weight_bytes_per_chip,
            wide.weight_bytes_per_chip
        );
        assert!(wide.max_batch <= plain.max_batch, "case {case}");
        // Where the chip multiplies the narrower format no faster than BF16 after its scaling
        // (Gaudi 3's FP8 peak is its BF16 peak), BF16 projections may compute sooner.
        let chip = raw["cluster"]["chip"].as_str().unwrap_or_default();
        if chip == "gaudi3" {
            continue;
        }
        assert!(
            wide.decode_tokens_per_s_per_chip <= plain.decode_tokens_per_s_per_chip * (1.0 + 1e-9),
            "case {case} on {chip}: {weights} {} -> {}",
            plain.decode_tokens_per_s_per_chip,
            wide.decode_tokens_per_s_per_chip
        );
        assert!(
            wide.prefill_tokens_per_s_per_chip
                <= plain.prefill_tokens_per_s_per_chip * (1.0 + 1e-9)
        );
        heavier += usize::from(wide.weight_bytes_per_chip > plain.weight_bytes_per_chip);
    }
    assert!(heavier > 40, "only {heavier} cases had narrower weights to widen");
}

/// Over every catalog model and tensor-parallel degrees 1 to 64: the GEMMs outside the experts
/// keep a share of the chip's fitted speed in (0, 1], never more as tensor parallelism splits
/// their contractions finer, all of it where every contraction is at least the reference depth
/// (Llama 3.1 405B whole), and a tenth less or more for one as narrow as Llama 3.1 8B split 8 ways.
#[test]
fn splitting_the_dense_gemms_never_speeds_them() {
    use clusterplan::model::presets::TRANSFORMERS;
    use clusterplan::model::serving::dense_depth_share;
    for preset in TRANSFORMERS {
        let t = &preset.transformer;
        let mut last = 1.0;
        for tp in [1u32, 2, 4, 8, 16, 32, 64] {
            let share = dense_depth_share(t, tp, t.params() / tp as f64);
            assert!(share > 0.0 && share <= 1.0, "{} tp {tp}: {share}", preset.id);
            assert!(share <= last + 1e-12, "{} tp {tp}: {share} after {last}", preset.id);
            last = share;
        }
    }
    let of = |id: &str, tp: u32| {
        let t = &clusterplan::model::presets::transformer(id).expect("preset").transformer;
        let routed = t.n_moe_layers() as f64 * t.routed_expert_params();
        dense_depth_share(t, tp, (t.params() - routed) / tp as f64)
    };
    assert_eq!(of("llama3-405b", 1), 1.0);
    assert!(of("llama3-8b", 8) < 0.9 && of("llama3-8b", 8) < of("llama3-8b", 1));
}

/// Over generated deployments, with and without draft tokens: a decode instance emits its
/// batch's tokens once per time per output token (Little's law), each step emitting the drafts'
/// accepted tokens too; with prefill beside it, prefill's share of the time is not the pool's.
#[test]
fn a_decode_pool_emits_its_batch_every_time_per_token() {
    let mut rng = Rng(0xD4AF_7001);
    let mut drafted = 0;
    for case in 0..150 {
        let mut raw = serde_json::to_value(generated(&mut rng)).expect("serializes");
        let drafts = rng.below(4);
        raw["serving"]["draft_tokens"] = json!(drafts);
        let s = Scenario::from_value(raw.clone()).expect("a scenario");
        let e = evaluation::serve(&evaluation::evaluate(&s).expect("resolves"))
            .serving
            .expect("serving");
        if e.batch == 0 || !(e.tpot_s > 0.0) {
            continue;
        }
        let emitted = e.decode_pool_tokens_per_s_per_chip * e.decode.chips() as f64 * e.tpot_s;
        let batch = e.batch as f64;
        if raw["serving"]["disaggregated"] == json!(true) {
            assert!((emitted / batch - 1.0).abs() < 1e-9, "case {case}: {emitted} of {batch}");
        } else {
            assert!(emitted >= batch * (1.0 - 1e-9), "case {case}: {emitted} of {batch}");
        }
        drafted += usize::from(drafts > 0 && e.tokens_per_step > 1.0);
    }
    assert!(drafted > 50, "only {drafted} cases with drafts");
}

/// Over generated deployments: every decode step moves its tokens' activations through the
/// norms and residual additions of every layer, so its `activations` part is never shorter than
/// those bytes at the chip's full memory bandwidth, and it is part of the step's total.
#[test]
fn a_decode_step_moves_its_tokens_activations() {
    let mut rng = Rng(0xAC7_1F00);
    let mut checked = 0;
    for case in 0..200 {
        let s = generated(&mut rng);
        let good = evaluation::evaluate(&s).unwrap_or_else(|e| panic!("case {case}: {e:?}"));
        let e = evaluation::serve(&good).serving.expect("serving");
        if e.batch == 0 {
            continue;
        }
        let t = &good.inputs.transformer;
        let per_rank = e.batch as f64 / e.decode.dp.max(1) as f64;
        let norms = per_rank * t.n_layers as f64 * 2.0 * (4.0 + 6.0) * t.hidden as f64;
        let least = norms / good.inputs.cluster.chip.hbm_bytes_per_s;
        let part = e.step.activation_traffic_s;
        assert!(part >= least * (1.0 - 1e-9), "case {case}: {part} s under {least} s");
        let sum: f64 = e.step.parts().iter().map(|(_, s)| s).sum();
        assert!((sum / e.step.total() - 1.0).abs() < 1e-12, "case {case}");
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

/// Prefill computes the output head for a prompt's last token only: Llama 3.1 8B with four
/// times its vocabulary (its head then 28 % of the weights outside the embedding, not 7 %)
/// prefills a prompt of 8,192 tokens within a percent as fast, while each decoded token, which
/// does go through the head, slows by more than a tenth.
#[test]
fn prefill_computes_the_head_once_a_prompt() {
    let serve = |vocab: u32| {
        let s = Scenario::from_value(json!({
            "model": { "preset": "llama3-8b", "vocab": vocab },
            "training": { "tokens": 1e12, "global_batch": 1024 },
            "cluster": { "chip": "h100-sxm", "chips": 8 },
            "serving": { "input_tokens": 8192, "output_tokens": 1, "tp": 1, "weights": "bf16",
                         "max_batch": 1, "max_tokens": 8192 },
        }))
        .expect("a scenario");
        let good = evaluation::evaluate(&s).expect("resolves");
        evaluation::serve(&good).serving.expect("serving")
    };
    let (small, large) = (serve(128_256), serve(4 * 128_256));
    let prefill = large.prefill_round_s / small.prefill_round_s;
    assert!(prefill > 1.0 - 1e-9 && prefill < 1.01, "prefill {prefill}");
    let decode = large.step.total() / small.step.total();
    assert!(decode > 1.1, "decode {decode}");
}

/// Over generated deployments: weights kept in the host's memory leave HBM by exactly what is
/// kept there (never more than a chip holds), so the cache holds at least as many sequences;
/// each forward pass copies them in over the host link, so a decode step at any batch is
/// slower by at least that copy, and a prefill round never faster. A model too large for its
/// chips fits once enough of it is offloaded.
#[test]
fn offloaded_weights_free_memory_and_cost_their_copy() {
    let mut rng = Rng(0x0FF1_0AD5);
    let mut checked = 0;
    for case in 0..200 {
        let s = generated(&mut rng);
        let gb: f64 = [1.0, 8.0, 40.0, 400.0][rng.below(4) as usize];
        let mut v = s.to_value();
        v["serving"]["offload_gb"] = json!(gb);
        let offloaded = Scenario::from_value(v).expect("a scenario");
        let serve = |s: &Scenario| {
            let good = evaluation::evaluate(s).unwrap_or_else(|e| panic!("case {case}: {e:?}"));
            let host = good.inputs.cluster.chip.host_bytes_per_s;
            (evaluation::serve(&good).serving.expect("serving"), host)
        };
        let ((plain, host), (kept, _)) = (serve(&s), serve(&offloaded));
        let freed = plain.weight_bytes_per_chip - kept.weight_bytes_per_chip;
        let expected = (gb * 1e9).min(plain.weight_bytes_per_chip);
        assert!((freed - expected).abs() <= 1e-9 * expected, "case {case}: {freed} of {expected}");
        assert!(kept.max_batch >= plain.max_batch, "case {case}");
        let copy = freed / host;
        assert!((kept.step.offload_copy_s / copy - 1.0).abs() < 1e-9, "case {case}");
        assert_eq!(plain.step.offload_copy_s, 0.0, "case {case}");
        // At the same batch, the copy is added to the step and nothing hides it.
        for p in &plain.frontier {
            if let Some(k) = kept.frontier.iter().find(|k| k.batch == p.batch) {
                assert!(k.tpot_s >= p.tpot_s * (1.0 - 1e-12), "case {case}: batch {}", p.batch);
            }
        }
        if kept.batch == plain.batch && freed > 0.0 {
            let slower = kept.step.total() - plain.step.total();
            assert!((slower / copy - 1.0).abs() < 1e-9, "case {case}: {slower} for {copy}");
        }
        assert!(kept.prefill_round_s >= plain.prefill_round_s * (1.0 - 1e-12), "case {case}");
        checked += 1;
    }
    assert!(checked > 150, "{checked}");
    // Llama 3.1 405B in BF16 on one H100 node's worth of TP 4 holds 203 GB a chip: it does not
    // fit in 80 GB, and does with 140 GB of each chip's weights offloaded.
    let one = |offload: f64| {
        let s = scenario(
            "llama3-405b",
            "h100-sxm",
            4,
            json!({ "input_tokens": 1024, "output_tokens": 256, "weights": "bf16", "tp": 4,
                    "tpot_ms": 60_000, "ttft_ms": 3_600_000, "offload_gb": offload }),
        );
        let good = evaluation::evaluate(&s).expect("resolves");
        evaluation::serve(&good).serving.expect("serving")
    };
    let (tight, offloaded) = (one(0.0), one(140.0));
    assert!(tight.problems.iter().any(|p| matches!(p, Problem::DoesNotFit { .. })));
    assert!(!offloaded.problems.iter().any(|p| matches!(p, Problem::DoesNotFit { .. })));
    assert!(offloaded.max_batch > 0 && offloaded.step.offload_copy_s > 1.0, "{:?}", offloaded.step);
}

/// Over generated deployments: on portable kernels every decode step at a batch takes
/// `PORTABLE_DECODE` times as long and every prefill round `PORTABLE_PREFILL` times, so the
/// frontier gives fewer tokens a chip at every batch and the cache holds the same sequences.
#[test]
fn portable_kernels_slow_every_step_by_their_published_ratio() {
    use clusterplan::model::serving::{PORTABLE_DECODE, PORTABLE_PREFILL};
    let mut rng = Rng(0x9047_AB1E);
    let mut checked = 0;
    for case in 0..200 {
        let s = generated(&mut rng);
        let mut v = s.to_value();
        v["serving"]["portable_kernels"] = json!(true);
        let portable = Scenario::from_value(v).expect("a scenario");
        let serve = |s: &Scenario| {
            let good = evaluation::evaluate(s).unwrap_or_else(|e| panic!("case {case}: {e:?}"));
            evaluation::serve(&good).serving.expect("serving")
        };
        let (tuned, slow) = (serve(&s), serve(&portable));
        assert_eq!(tuned.max_batch, slow.max_batch, "case {case}");
        let round = slow.prefill_round_s / tuned.prefill_round_s;
        assert!((round / PORTABLE_PREFILL - 1.0).abs() < 1e-9, "case {case}: {round}");
        for p in &tuned.frontier {
            if let Some(q) = slow.frontier.iter().find(|q| q.batch == p.batch) {
                assert!(q.tokens_per_s_per_chip < p.tokens_per_s_per_chip, "case {case}");
            }
        }
        if tuned.batch == slow.batch && tuned.batch > 0 {
            let step = slow.step.total() / tuned.step.total();
            assert!((step / PORTABLE_DECODE - 1.0).abs() < 1e-9, "case {case}: {step}");
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
}

/// Over generated deployments: without two-batch overlap a step runs as one batch, its expert
/// exchange exposed, so no decode step at any batch and no prefill round is faster than with
/// it; deployments without data-parallel attention over experts do not change at all.
#[test]
fn two_batch_overlap_only_ever_hides_the_exchange() {
    let mut rng = Rng(0x7B0_0E1A);
    let (mut moved, mut same) = (0, 0);
    for case in 0..300 {
        let s = generated(&mut rng);
        let mut v = s.to_value();
        v["serving"]["two_batch_overlap"] = json!(false);
        let single = Scenario::from_value(v).expect("a scenario");
        let serve = |s: &Scenario| {
            let good = evaluation::evaluate(s).unwrap_or_else(|e| panic!("case {case}: {e:?}"));
            evaluation::serve(&good).serving.expect("serving")
        };
        let (two, one) = (serve(&s), serve(&single));
        assert!(one.prefill_round_s >= two.prefill_round_s * (1.0 - 1e-12), "case {case}");
        for p in &two.frontier {
            if let Some(q) = one.frontier.iter().find(|q| q.batch == p.batch) {
                assert!(q.tpot_s >= p.tpot_s * (1.0 - 1e-12), "case {case}: batch {}", p.batch);
            }
        }
        let d = two.decode;
        if !(d.dp > 1 && d.ep > 1) {
            assert_eq!(one.frontier, two.frontier, "case {case}");
            same += 1;
        } else if one.frontier != two.frontier {
            moved += 1;
        }
    }
    assert!(moved > 20 && same > 20, "{moved} moved, {same} unchanged");
}
