//! Plans out: every framework's launch, read back, says the plan's degrees, batch,
//! recomputation and precision (or names what it cannot); a Megatron run's printed arguments
//! give its plan; the command line prints a launch and refuses a framework it does not know.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use crate::common::Rng;
use clusterplan::evaluation;
use clusterplan::launch::{self, Cannot, Framework, Plan, Read, Served};
use clusterplan::model::Recipe;
use clusterplan::scenario::Scenario;
use serde_json::json;

fn files(l: &launch::Launch) -> Vec<(&str, &str)> {
    l.files.iter().map(|f| (f.name, f.text.as_str())).collect()
}

/// The fields of `read` that differ from `plan`, leaving out what the launch said it cannot
/// express and what the framework leaves to its own rule (`None`).
fn differences(plan: &Plan, read: &Plan, cannot: &[Cannot], moe: bool) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut check = |name, same: bool| {
        if !same {
            out.push(name);
        }
    };
    check("tp", plan.tp == read.tp);
    check("pp", plan.pp == read.pp);
    check("cp", plan.cp == read.cp);
    if moe && !cannot.contains(&Cannot::Experts) {
        check("ep", plan.ep == read.ep);
    }
    if !cannot.contains(&Cannot::Interleaving) {
        check("vp", plan.vp == read.vp);
    }
    check("micro_batch", plan.micro_batch == read.micro_batch);
    check("global_batch", plan.global_batch == read.global_batch);
    check("seq_len", plan.seq_len == read.seq_len);
    check("recompute", plan.recompute == read.recompute);
    if let Some(e) = read.recompute_elementwise {
        check("recompute_elementwise", plan.recompute_elementwise == Some(e));
    }
    if let Some(m) = read.recompute_mlp_up {
        check("recompute_mlp_up", plan.recompute_mlp_up == Some(m));
    }
    if !cannot.iter().any(|c| matches!(c, Cannot::Recipe(_))) {
        check("recipe", plan.recipe == read.recipe);
    }
    if !cannot.contains(&Cannot::Grads) {
        check("grads", plan.grads == read.grads);
    }
    let dp = plan.dp.unwrap_or(1);
    if dp > 1 && !cannot.iter().any(|c| matches!(c, Cannot::Zero(_))) {
        check("zero", plan.zero == read.zero);
    }
    if let Some(d) = read.dp {
        check("dp", plan.dp == Some(d));
    }
    if let Some(sp) = read.sequence_parallel {
        check("sequence_parallel", plan.sequence_parallel == Some(sp));
    }
    out
}

/// Over generated plans (every preset model, chip and degree the generator makes): each
/// training framework's files read back to the plan the model judged, and the ones the
/// framework can say whole are most of them.
#[test]
fn every_training_launch_reads_back_to_its_plan() {
    let mut rng = Rng(0x1A0_7C4E);
    let mut exact = [0u32; 5];
    let mut judged = 0;
    for _ in 0..400 {
        let s = common::random_scenario(&mut rng);
        let Ok((inputs, e)) = s.estimated() else { continue };
        if !e.feasible {
            continue;
        }
        judged += 1;
        let plan = Plan::of(&inputs);
        let moe = inputs.transformer.moe.is_some();
        for (k, framework) in Framework::ALL.into_iter().filter(|f| !f.serves()).enumerate() {
            let l = evaluation::launch(&s, framework).expect("a judged plan launches");
            assert!(!l.files.is_empty(), "{framework:?}");
            let read = match launch::read(framework, &files(&l)) {
                Ok(Read::Training(p)) => p,
                other => panic!("{framework:?} reads back {other:?}\n{:#?}", l.files),
            };
            let diff = differences(&plan, &read, &l.cannot, moe);
            assert!(
                diff.is_empty(),
                "{framework:?}: {diff:?}\nplan {plan:?}\nread {read:?}\n{}",
                l.files[0].text
            );
            if l.cannot.is_empty() {
                exact[k] += 1;
            }
            // Megatron-LM has a flag for everything the model plans but a recipe outside
            // Transformer Engine's and the two-level context split.
            if framework == Framework::Megatron {
                for c in &l.cannot {
                    assert!(
                        matches!(
                            c,
                            Cannot::Recipe(Recipe::TorchAmp | Recipe::Int8) | Cannot::Context
                        ),
                        "Megatron cannot say {c:?}"
                    );
                }
            }
        }
    }
    assert!(judged >= 60, "only {judged} feasible generated plans");
    for (k, n) in exact.iter().enumerate() {
        assert!(*n > 0, "framework {k} said no generated plan whole: {exact:?}");
    }
}

fn serving_scenario(rng: &mut Rng) -> Scenario {
    let model = *rng.pick(&["llama3-70b", "llama3-8b", "deepseek-v3", "mixtral-8x7b"]);
    let chip = *rng.pick(&["h100-sxm", "b200", "h20", "ascend-910b", "mi300x"]);
    let moe = model == "deepseek-v3" || model == "mixtral-8x7b";
    let tp = rng.pow2(3) as u32;
    let dp = if moe { rng.pow2(4) as u32 } else { 1 };
    let mut serving = json!({
        "input_tokens": 512 << rng.below(4),
        "output_tokens": 128 << rng.below(4),
        "tpot_ms": 20 + rng.below(100),
        "ttft_ms": 100_000,
        "weights": *rng.pick(&["bf16", "fp8"]),
        "kv_cache": *rng.pick(&["bf16", "fp8"]),
        "tp": tp,
        "dp": dp,
        "disaggregated": rng.below(3) == 0,
    });
    if moe {
        serving["ep"] = json!(tp * dp);
    }
    if rng.below(3) == 0 {
        serving["draft_tokens"] = json!(1 + rng.below(3));
    }
    if rng.below(2) == 0 {
        serving["max_tokens"] = json!(512 << rng.below(6));
    }
    if rng.below(3) == 0 {
        serving["attention_weights"] = json!(*rng.pick(&["bf16", "fp8"]));
    }
    if rng.below(3) == 0 {
        serving["offload_gb"] = json!(1.0 + rng.below(400) as f64 / 8.0);
    }
    if rng.below(3) == 0 {
        serving["two_batch_overlap"] = json!(false);
    }
    Scenario::from_value(json!({
        "model": { "preset": model },
        "training": { "tokens": 1e12, "global_batch": 1024 },
        "cluster": { "chip": chip, "chips": 4096 },
        "serving": serving,
    }))
    .expect("a scenario")
}

/// Over generated deployments: each engine's commands (both roles where prefill runs apart)
/// read back to the deployment the model chose: degrees, batch, precisions, drafts; attention
/// kept in a format of its own is named as the checkpoint's, which no flag sets; weights kept
/// in the host's memory read back from SGLang's and vLLM's flag and are named by the others.
#[test]
fn every_serving_launch_reads_back_to_its_deployment() {
    let mut rng = Rng(0x5E7E_0001);
    let (mut checked, mut attention, mut offloaded, mut overlapped, mut prefills) = (0, 0, 0, 0, 0);
    for _ in 0..120 {
        let s = serving_scenario(&mut rng);
        let Ok(good) = evaluation::evaluate(&s) else { continue };
        let Some(estimate) = evaluation::serve(&good).serving else { continue };
        let want = Served::of(&good.inputs, &estimate).expect("a deployment");
        for framework in [Framework::Sglang, Framework::Vllm, Framework::Trtllm, Framework::Mindie]
        {
            let l = evaluation::launch(&s, framework).expect("launches");
            let got = match launch::read(framework, &files(&l)) {
                Ok(Read::Serving(got)) => got,
                other => panic!("{framework:?} reads back {other:?}\n{:#?}", l.files),
            };
            let split = l.cannot.contains(&Cannot::Experts);
            if framework != Framework::Mindie && !split {
                assert_eq!(
                    (got.tp, got.dp, got.ep),
                    (want.tp, want.dp, want.ep),
                    "{framework:?}\n{:#?}",
                    l.files
                );
                assert_eq!(got.prefill, want.prefill, "{framework:?}\n{:#?}", l.files);
                assert_eq!(got.draft_tokens, want.draft_tokens, "{framework:?}");
                assert_eq!(got.max_tokens, want.max_tokens, "{framework:?}");
            }
            if framework == Framework::Mindie && !split {
                assert_eq!(got.tp, want.chips(), "{:#?}", l.files);
                assert_eq!(got.max_tokens, want.max_tokens, "{:#?}", l.files);
            }
            // An engine's per-rank batch counts the instance's, rounded up to whole ranks.
            let ranks = if framework == Framework::Mindie { 1 } else { got.dp.max(1) };
            assert!(
                split || got.max_batch >= want.max_batch && got.max_batch < want.max_batch + ranks,
                "{framework:?}: {} vs {}",
                got.max_batch,
                want.max_batch
            );
            if let Some(kv) = got.kv_cache {
                assert_eq!(Some(kv), want.kv_cache, "{framework:?}");
            }
            if let Some(w) = got.weights {
                assert_eq!(Some(w), want.weights, "{framework:?}");
            }
            // Attention's own format is the checkpoint's: every engine says it cannot set it,
            // and none says so of a plan whose attention keeps the weights' format.
            let said: Vec<_> =
                l.cannot.iter().filter(|c| matches!(c, Cannot::Checkpoint(_))).collect();
            match want.attention_weights {
                Some(a) => assert_eq!(said, vec![&Cannot::Checkpoint(a)], "{framework:?}"),
                None => assert!(said.is_empty(), "{framework:?}: {said:?}"),
            }
            attention += usize::from(want.attention_weights.is_some());
            // Weights kept in the host's memory: SGLang and vLLM carry them in a flag that
            // reads back to the hundredth of a GiB; the others say they cannot.
            let unsaid = l.cannot.contains(&Cannot::Offload);
            match framework {
                Framework::Sglang | Framework::Vllm => {
                    assert_eq!(got.offload_gib, want.offload_gib, "{framework:?}\n{:#?}", l.files);
                    assert!(!unsaid, "{framework:?}");
                    assert_eq!(got.two_batch_overlap, want.two_batch_overlap, "{framework:?}");
                    // A prefill pool without data-parallel attention over experts has nothing
                    // to overlap, whatever the decode pool does.
                    if let (Some((_, dp, ep)), Some(file)) =
                        (want.prefill, l.files.iter().find(|f| f.name == "prefill.sh"))
                    {
                        let flagged = file.text.contains("--enable-two-batch-overlap")
                            || file.text.contains("--enable-dbo");
                        let asked = s.to_value()["serving"]["two_batch_overlap"] != json!(false);
                        let wanted = asked && dp > 1 && ep > 1;
                        assert_eq!(flagged, wanted, "{framework:?}: {}", file.text);
                        prefills += 1;
                    }
                }
                _ => assert_eq!(unsaid, want.offload_gib > 0.0, "{framework:?}"),
            }
            offloaded += usize::from(want.offload_gib > 0.0);
            overlapped += usize::from(want.two_batch_overlap);
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} deployments");
    assert!(attention >= 20, "only {attention} launches with attention's own format");
    assert!(offloaded >= 20, "only {offloaded} launches with weights offloaded");
    assert!(overlapped >= 10, "only {overlapped} launches with two batches overlapped");
    assert!(prefills >= 10, "only {prefills} prefill pools checked");
}

/// A training framework asked to serve, or a scenario with no serving, says so instead of
/// writing files.
#[test]
fn a_launch_without_serving_says_so() {
    let s = Scenario::default_plan();
    let l = evaluation::launch(&s, Framework::Sglang).expect("launches");
    assert!(l.files.is_empty());
    assert_eq!(l.cannot, vec![Cannot::NoServing]);
}

/// The `arguments` block Megatron-LM prints at start (`_print_args`: the name, dots to column
/// 48, the value) gives the run's plan, MindSpeed and Megatron-Bridge runs alike.
#[test]
fn a_megatron_runs_printed_arguments_give_its_plan() {
    let text =
        std::fs::read_to_string("tests/data/logs/megatron-core-0.15-fp8.log").expect("fixture");
    let plan = launch::read_printed(&text).expect("a plan");
    assert_eq!((plan.tp, plan.pp, plan.cp, plan.vp, plan.dp), (8, 4, 1, 1, Some(2)));
    assert_eq!((plan.micro_batch, plan.global_batch, plan.seq_len), (1, 64, 8192));
    assert_eq!(plan.recipe, clusterplan::model::Recipe::Fp8);
    assert_eq!(plan.zero, 1);
    assert_eq!(plan.recompute, clusterplan::model::Recompute::None);
    assert_eq!(plan.sequence_parallel, Some(true));
}

/// `clusterplan launch` prints the files as JSON, one file alone with `--file`, and exits 2
/// for a framework it does not know.
#[test]
fn the_command_line_prints_a_launch() {
    let s = Scenario::default_plan();
    let out = common::cli_json(&["launch", "-", "--for", "megatron"], &s);
    assert_eq!(out["for"], "megatron");
    let names: Vec<&str> =
        out["files"].as_array().expect("files").iter().filter_map(|f| f["name"].as_str()).collect();
    assert_eq!(names, ["launch.sh", "check.sh"]);
    assert!(out["files"][0]["text"]
        .as_str()
        .unwrap_or("")
        .contains("--tensor-model-parallel-size 8"));
    assert!(out["layout"]["nodes"].as_u64().unwrap_or(0) > 0);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_clusterplan"))
        .args(["launch", "tests/data/none.json", "--for", "deepspeed"])
        .output()
        .expect("runs")
        .status;
    assert_eq!(status.code(), Some(2));
}

/// The guide shows the Megatron arguments of the README's example plan as the tool writes
/// them today.
#[test]
fn the_guide_shows_the_example_plans_megatron_launch() {
    let s = Scenario::default_plan();
    let l = evaluation::launch(&s, Framework::Megatron).expect("launches");
    let guide = std::fs::read_to_string("docs/guide.md").expect("docs/guide.md");
    let block = format!("```bash\n{}```", l.files[0].text);
    if std::env::var("UPDATE_DOCS").is_ok() && !guide.contains(&block) {
        let start =
            guide.find("<!-- launch -->").expect("a launch marker") + "<!-- launch -->\n".len();
        let end = guide.find("<!-- /launch -->").expect("its end");
        let updated = format!("{}{block}\n{}", &guide[..start], &guide[end..]);
        std::fs::write("docs/guide.md", updated).expect("writes");
        return;
    }
    assert!(guide.contains(&block), "docs/guide.md's launch block is stale (UPDATE_DOCS=1)");
}
