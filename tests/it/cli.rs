//! The command-line tool end to end: predict, catalog, exit codes and messages.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::run_cli as run;
use clusterplan::model::presets;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

fn example() -> Value {
    json!({
        "model": { "layers": 96, "hidden": 12288, "heads": 96, "kv_heads": 96, "ffn": 49152,
                   "ffn_act": "gelu", "vocab": 51200, "seq_len": 2048, "attention": "flash",
                   "moe": { "experts": 256, "top_k": 8, "shared_experts": 1, "expert_ffn": 2048, "dense_layers": 3 } },
        "training": { "tokens": 3.0e11, "global_batch": 1536, "recipe": "megatron-bf16" },
        "cluster": { "chip": "a100-80gb", "chips": 512, "chips_per_node": 8, "scale_out": "ib-hdr" },
        "parallelism": { "tp": 8, "pp": 8, "dp": 8, "ep": 1, "cp": 1, "micro_batch": 2, "virtual_stages": 1,
                         "zero": 1, "recompute": "full", "sequence_parallel": false }
    })
}

fn assert_estimate(e: &Value) {
    for key in ["step_s", "mfu", "hfu", "tokens_per_s", "train_days", "chip_hours"] {
        assert!(e[key].as_f64().is_some_and(|x| x.is_finite() && x > 0.0), "{key} in {e}");
    }
    assert!(e["memory"]["peak_bytes"].as_f64().is_some_and(|x| x > 0.0));
    assert!(e["memory"]["fits"].is_boolean());
    assert!(e["warnings"].is_array());
    let parts: f64 =
        e["breakdown"].as_object().expect("breakdown").values().filter_map(Value::as_f64).sum();
    let step = e["step_s"].as_f64().unwrap_or(0.0);
    assert!((parts - step).abs() <= 1e-9 * step, "breakdown sums to step_s");
}

#[test]
fn predict_reads_the_issue_example_from_a_file() {
    let path =
        std::env::temp_dir().join(format!("clusterplan-example-{}.json", std::process::id()));
    std::fs::write(&path, example().to_string()).expect("write example");
    let out = run(&["predict", path.to_str().expect("utf-8 path")], "");
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_estimate(&e);
}

#[test]
fn predict_handles_every_model_preset_from_stdin() {
    let scenarios: Vec<Value> = presets::TRANSFORMERS
        .iter()
        .map(|p| {
            json!({
                "model": { "preset": p.id },
                "training": { "tokens": 1e12, "global_batch": 512 },
                "cluster": { "chip": "h100-sxm", "chips": 1024 },
                "parallelism": { "tp": 8, "pp": 4, "recompute": "full" }
            })
        })
        .collect();
    let out = run(&["predict", "-"], &Value::Array(scenarios).to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let estimates: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let estimates = estimates.as_array().expect("an array in, an array out");
    assert_eq!(estimates.len(), presets::TRANSFORMERS.len());
    estimates.iter().for_each(assert_estimate);
}

#[test]
fn bad_input_exits_2_naming_each_field() {
    let mut bad = example();
    bad["parallelism"]["tp"] = json!(0);
    bad["cluster"]["chip"] = json!("z9000");
    let out = run(&["predict", "-"], &bad.to_string());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Tensor (TP) [parallelism.tp]: must be at least 1"), "{stderr}");
    assert!(stderr.contains("Accelerator [cluster.chip]: unknown chip 'z9000'"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout for invalid input");
}

#[test]
fn malformed_files_exit_2_without_panicking() {
    for text in ["", "{", "null", "[{}, 3]", "{\"model\": 7}", "\u{0}\u{1}"] {
        let out = run(&["predict", "-"], text);
        assert_eq!(out.status.code(), Some(2), "input {text:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("error: "), "input {text:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "input {text:?}: {stderr}");
    }
    let out = run(&["predict", "/nonexistent/scenario.json"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn catalog_lists_every_preset_with_a_source() {
    let out = run(&["catalog"], "");
    assert!(out.status.success());
    let catalog: Value = serde_json::from_slice(&out.stdout).expect("catalog is JSON");
    let chips = catalog["chips"].as_array().expect("chips");
    assert_eq!(chips.len(), presets::CHIPS.len());
    for chip in chips {
        assert!(chip["id"].is_string() && chip["source"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(chip["bf16_tflops"].as_f64().is_some_and(|x| x > 0.0));
    }
    for key in ["scale_up", "scale_out", "systems", "switches", "models"] {
        assert!(catalog[key].as_array().is_some_and(|a| !a.is_empty()), "{key}");
    }
}

/// Each model is listed in the scenario's keys: its attention kind (`mla` for DeepSeek-V3),
/// its layer pattern and mixers, its encoder or cross-attention; given back as a scenario's
/// model, the listing is the preset's model.
#[test]
fn catalog_models_are_written_in_the_scenarios_keys() {
    let out = run(&["catalog"], "");
    let catalog: Value = serde_json::from_slice(&out.stdout).expect("catalog is JSON");
    let models = catalog["models"].as_array().expect("models");
    assert_eq!(models.len(), presets::TRANSFORMERS.len());
    for model in models {
        let id = model["id"].as_str().expect("id");
        let mut keys = model.clone();
        for key in ["id", "name", "params", "active_params", "source"] {
            keys.as_object_mut().expect("an object").remove(key);
        }
        let listed =
            Scenario::default_plan().with(paths::MODEL, Some(keys)).resolve().expect("resolves");
        let preset = presets::transformer(id).expect("a preset");
        assert_eq!(listed.transformer, preset.transformer, "{id}");
    }
    let by_id = |id: &str| models.iter().find(|m| m["id"] == id).expect(id);
    assert_eq!(by_id("deepseek-v3")["attention"], "mla");
    assert_eq!(by_id("deepseek-v3")["mla"]["kv_lora_rank"], 512);
    assert_eq!(by_id("qwen3-next-80b-a3b")["linear"]["kind"], "gated_deltanet");
    assert_eq!(by_id("wan2.1-14b")["causal"], false);
}

#[test]
fn unknown_commands_print_usage_and_exit_2() {
    let out = run(&["frobnicate"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage: clusterplan"));
}

#[test]
fn predict_prints_the_facility_and_bom_prints_csv() {
    let scenario = json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": 15e12, "global_batch": 1024 },
        "cluster": { "chip": "b200", "chips": 4096, "system": "dgx-b200" },
        "parallelism": { "tp": 8, "pp": 4 }
    });
    let out = run(&["predict", "-"], &scenario.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let f = &e["facility"];
    assert_eq!(f["network"]["switches"]["leaf"], json!(128));
    assert_eq!(f["network"]["switches"]["spine"], json!(128));
    assert_eq!(f["network"]["switches"]["core"], json!(64));
    for key in ["chips", "hosts", "network", "it", "facility"] {
        assert!(f["power_w"][key].as_f64().is_some_and(|x| x > 0.0), "power_w.{key}");
    }
    for key in ["hardware", "facility", "capex", "run_amortized", "run_cloud", "energy"] {
        assert!(f["cost_usd"][key].as_f64().is_some_and(|x| x > 0.0), "cost_usd.{key}");
    }
    for key in ["rack_kw", "liquid_w", "air_w", "coolant_l_per_min", "refrigeration_tons"] {
        assert!(f["cooling"][key].as_f64().is_some(), "cooling.{key}");
    }
    assert!(f["energy_mwh"].as_f64().is_some_and(|x| x > 0.0) && f["co2_t"].as_f64().is_some());

    let csv = run(&["bom", "-"], &scenario.to_string());
    assert!(csv.status.success());
    let text = String::from_utf8_lossy(&csv.stdout);
    assert!(
        text.starts_with("item,tier,count,unit_price_usd,price_usd,model,unit_power_w,power_w\n"),
        "{text}"
    );
    assert!(
        text.contains("\nleaf_switches,,128,") && text.contains("\ncore_switches,,64,"),
        "{text}"
    );

    let mut bad = scenario.clone();
    bad["cluster"]["fabric"] =
        json!({ "switch": { "ports": 3, "gbit_per_s": 400 }, "oversubscription": 0 });
    bad["facility"] = json!({ "pue": 0.8 });
    let out = run(&["bom", "-"], &bad.to_string());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for field in ["cluster.fabric.switch.ports", "cluster.fabric.oversubscription", "facility.pue"]
    {
        assert!(stderr.contains(field), "{field} in {stderr}");
    }
}

#[test]
fn the_catalog_says_which_chips_a_published_run_calibrates() {
    let out = run(&["catalog"], "");
    let catalog: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let chips = catalog["chips"].as_array().expect("chips");
    let of =
        |id: &str| chips.iter().find(|c| c["id"] == json!(id)).map(|c| c["efficiency"].clone());
    assert_eq!(of("h100-sxm"), Some(json!("fitted to published runs")));
    // Pangu Ultra and MindSpeed-LLM fit the 910B; its successor takes the family's figure,
    // and a chip of a family no fit source covers keeps its class figure.
    assert_eq!(of("ascend-910b"), Some(json!("fitted to published runs")));
    assert_eq!(of("ascend-910c"), Some(json!("as its family's fitted chips")));
    assert_eq!(of("mtt-s4000"), Some(json!("by chip class")));
}

fn small_search_scenario() -> Value {
    json!({
        "model": { "preset": "llama3-8b" },
        "training": { "tokens": 1e12, "global_batch": 256 },
        "cluster": { "chip": "h100-sxm", "chips": 64 },
        "parallelism": { "tp": 2, "pp": 2 }
    })
}

#[test]
fn search_prints_ranked_plans_the_front_and_the_counts() {
    let out = run(&["search", "-", "--top", "4"], &small_search_scenario().to_string());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let plans = v["plans"].as_array().expect("plans");
    assert_eq!(plans.len(), 4);
    for plan in plans {
        assert_estimate(&plan["estimate"]);
        assert!(plan["parallelism"]["tp"].as_u64().is_some());
    }
    let days: Vec<f64> =
        plans.iter().map(|p| p["estimate"]["train_days"].as_f64().unwrap()).collect();
    assert!(days.windows(2).all(|w| w[0] <= w[1]), "ranked by days: {days:?}");
    assert!(plans[1]["loses_on"]["part"].is_string());
    assert!(!v["pareto"].as_array().expect("pareto").is_empty());
    let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k}"));
    assert_eq!(n("searched"), n("pruned") + n("evaluated"));
    // The typed plan is placed: at its rank, or beyond the plans whose count is kept.
    let (rank, beyond) = (&v["yours"]["rank"], &v["yours"]["beyond"]);
    assert!(rank.as_u64().is_some_and(|r| r >= 1) != (beyond == true), "{rank} {beyond}");
    // The best plan, written back into the scenario, predicts the same days.
    let mut applied = small_search_scenario();
    applied["parallelism"] = plans[0]["parallelism"].clone();
    let out = run(&["predict", "-"], &applied.to_string());
    let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let (a, b) = (e["train_days"].as_f64().unwrap(), days[0]);
    assert!((a - b).abs() <= 1e-9 * b, "{a} against {b}");
}

#[test]
fn search_by_cost_and_bad_options_exit_2() {
    let text = small_search_scenario().to_string();
    let out = run(&["search", "-", "--objective", "cost", "--top", "3"], &text);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["objective"], "cost");
    for (args, says) in [
        (vec!["search", "-", "--objective", "fastest"], "--objective"),
        (vec!["search", "-", "--top", "0"], "--top"),
        (vec!["search", "-", "--colour", "red"], "unknown option"),
        (vec!["size", "-"], "--deadline-days"),
        (vec!["size", "-", "--deadline-days", "-3"], "--deadline-days"),
    ] {
        let out = run(&args, &text);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}");
    }
    let mut bad = small_search_scenario();
    bad["training"]["global_batch"] = json!(-1);
    let out = run(&["search", "-"], &bad.to_string());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("training.global_batch"));
}

#[test]
fn a_search_with_no_plan_says_why() {
    let mut s = small_search_scenario();
    s["model"] = json!({ "preset": "llama3-405b" });
    s["cluster"] = json!({ "chip": "a100-40gb", "chips": 2 });
    s["parallelism"] = json!({});
    let out = run(&["search", "-"], &s.to_string());
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["plans"].as_array().map(Vec::len), Some(0));
    let why = v["why"].as_str().expect("why");
    assert!(why.contains("GiB"), "{why}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no plan fits"));
}

/// A chip count the typed degrees do not divide: `predict` estimates the plan on the largest
/// count it divides, as the page does, names the field and its round counts in words and says
/// how many chips sit idle; `search` tries every split of at most the chips and places the
/// typed plan with its idle chips, as the page shows it, and `size` chooses its own plans.
#[test]
fn a_chip_count_the_typed_degrees_do_not_divide_still_searches_and_sizes() {
    let mut s = small_search_scenario();
    s["cluster"]["chips"] = json!(70);
    let text = s.to_string();
    let out = run(&["predict", "-"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("note: Chips [cluster.chips]: 70 chips do not divide"), "{said}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let idle = v["idle_kept"].as_u64().expect("idle chips");
    let used = v["chips_used"].as_u64().expect("chips used");
    assert!(idle > 0 && used + idle == 70, "{used} used, {idle} idle");
    assert!(said.contains(&format!("estimated with {idle} chips idle")), "{said}");
    assert!(v["train_days"].as_f64().is_some_and(|d| d > 0.0));
    let out = run(&["search", "-", "--top", "3"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["yours"]["verdict"], "fits", "placed with its idle chips: {}", v["yours"]);
    assert_eq!(v["yours"]["why"].as_array().map(Vec::len), Some(0));
    let plans = v["plans"].as_array().expect("plans");
    assert_eq!(plans.len(), 3);
    for plan in plans {
        let used = plan["chips_used"].as_u64().expect("chips used");
        assert!(used <= 70 && used + plan["idle_chips"].as_u64().expect("idle") == 70);
    }
    let out = run(&["size", "-", "--deadline-days", "30"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(v["rows"][0]["chips"].as_u64().is_some(), "{v}");
    assert!(v["rows"][0]["at_most_over"].as_f64().is_some_and(|x| (0.0..=0.01).contains(&x)));
    let points = v["curves"][0]["points"].as_array().expect("points");
    for pair in points.windows(2) {
        assert!(pair[1][1].as_f64() <= pair[0][1].as_f64(), "the curve never rises: {pair:?}");
    }
    // From the power a site has: the largest cluster of each of three chips within 30 MW.
    let chips = ["--chip", "h100-sxm", "--chip", "ascend-910b", "--chip", "mtt-s4000"];
    let out = run(&[&["size", "-", "--power-mw", "30"][..], &chips].concat(), &text);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    for row in rows {
        let mw = row["provisioned_mw"].as_f64().expect("provisioned");
        assert!(mw <= 30.0 && mw > 25.0, "{row}");
        assert!(row["chips"].as_u64().is_some_and(|n| n > 1000) && row["racks"].as_u64().is_some());
        assert!(
            row["capex_usd"].as_f64().is_some() && row["effective_train_days"].as_f64().is_some()
        );
    }
    let both = run(&["size", "-", "--power-mw", "30", "--deadline-days", "9"], &text);
    assert_eq!(both.status.code(), Some(2));
}

/// A run whose interruptions outpace recovery: `effective_train_days` is null, never 0,
/// `reliability.finishes` is false, and a problem says why in words.
#[test]
fn a_run_that_never_finishes_has_no_days_with_failures() {
    let mut s = example();
    s["cluster"] = json!({ "chip": "h100-sxm", "chips": 1048576 });
    s["parallelism"] = json!({ "tp": 8, "pp": 16, "cp": 2, "dp": 2048 });
    s["training"]["global_batch"] = json!(2048);
    let out = run(&["predict", "-"], &s.to_string());
    assert_eq!(out.status.code(), Some(0));
    let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(e["effective_train_days"].is_null(), "{}", e["effective_train_days"]);
    assert_eq!(e["reliability"]["finishes"], false);
    assert!(e["reliability"]["effective_train_days"].is_null());
    assert_eq!(e["feasible"], false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the run never finishes"), "{stderr}");
    assert!(stderr.contains("Chips [cluster.chips]: an interruption every"), "{stderr}");
}

/// A plan that runs out of memory is not feasible: a chip of 1 GB, or 405B on one server. A
/// problem names the memory, and the figures stay for what-ifs.
#[test]
fn a_plan_that_does_not_fit_is_not_feasible() {
    let mut tiny = example();
    tiny["cluster"]["chip"] = json!({ "preset": "h100-sxm", "hbm_gb": 1 });
    let mut one_server = example();
    one_server["model"] = json!({ "preset": "llama3-405b" });
    one_server["cluster"] = json!({ "chip": "h100-sxm", "chips": 8 });
    one_server["parallelism"] = json!({ "tp": 8, "pp": 1 });
    for s in [tiny, one_server] {
        let out = run(&["predict", "-"], &s.to_string());
        let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(e["feasible"], false, "{}", e["problems"]);
        let problems = e["problems"].as_array().expect("problems");
        assert!(
            problems
                .iter()
                .any(|p| p["message"].as_str().is_some_and(|m| m.contains("does not fit"))),
            "{problems:?}"
        );
        assert!(e["train_days"].as_f64().is_some_and(|d| d > 0.0), "the figures are kept");
    }
}

#[test]
fn size_prints_one_row_per_chip() {
    let text = small_search_scenario().to_string();
    let out = run(
        &["size", "-", "--deadline-days", "10", "--chip", "h100-sxm", "--chip", "mi300x"],
        &text,
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    for (row, chip) in rows.iter().zip(["h100-sxm", "mi300x"]) {
        assert_eq!(row["chip"], chip);
        assert!(row["chips"].as_u64().is_some_and(|n| n >= 8));
        assert!(row["train_days"].as_f64().is_some_and(|d| d > 0.0 && d <= 10.0));
        assert!(row["plan"]["tp"].as_u64().is_some());
        assert!(row["facility_mw"].as_f64().is_some_and(|mw| mw > 0.0));
    }
    // Without --chip, the scenario's own chip.
    let out = run(&["size", "-", "--deadline-days", "10"], &text);
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["rows"][0]["chip"], "h100-sxm");
    // An unknown chip is named by its field, before any chip is sized.
    let out =
        run(&["size", "-", "--deadline-days", "10", "--chip", "h100-sxm", "--chip", "nope"], &text);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing sized, nothing printed");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cluster.chip"));
}

/// A scenario may name an entry of the user's own catalog (the page's export) with `--catalog`.
#[test]
fn predict_reads_a_scenario_that_names_an_entry_of_the_catalog() {
    use clusterplan::scenario::user_catalog::{Entry, Kind, UserCatalog};
    use clusterplan::scenario::Scenario;
    let own = Scenario::default_plan()
        .with(
            paths::CLUSTER_CHIP,
            Some(json!({ "name": "X1", "bf16_tflops": 1800, "hbm_gb": 192, "hbm_tb_per_s": 6 })),
        )
        .with(paths::CLUSTER_SCALE_UP, Some(json!("nvlink5-72")))
        .with(paths::CLUSTER_SCALE_OUT, Some(json!("ib-xdr")));
    let mut catalog = UserCatalog::default();
    catalog.put(Entry::capture(Kind::Chip, "X1", &own).expect("a chip of its own"));
    let dir = std::env::temp_dir().join(format!("clusterplan-catalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mine.json");
    std::fs::write(&file, catalog.to_json()).expect("write");
    let named = Scenario::default_plan()
        .with(paths::CLUSTER_CHIP, Some(json!("X1")))
        .to_value()
        .to_string();

    let with_catalog = run(&["predict", "-", "--catalog", file.to_str().expect("path")], &named);
    assert!(with_catalog.status.success(), "{}", String::from_utf8_lossy(&with_catalog.stderr));
    let estimate: Value = serde_json::from_slice(&with_catalog.stdout).expect("json");
    assert!(estimate["step_s"].as_f64().is_some_and(|s| s > 0.0));
    let without = run(&["predict", "-"], &named);
    assert_eq!(without.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&without.stderr).contains("unknown chip 'X1'"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn predict_fits_the_chip_to_the_users_measurements() {
    let plain = example();
    let mut measured = example();
    let run_changes = json!({ "cluster": { "chips": 64 }, "parallelism": { "dp": 1 } });
    // Slower than the catalog's figure by a fifth.
    let model_step = Scenario::from_value(example()).expect("parses").measured_plan(&run_changes);
    let step = (1.2 * model_step.estimated().expect("resolves").1.step_s * 10.0).round() / 10.0;
    measured["calibration"] = json!([{ "scenario": run_changes, "measured": { "step_s": step } }]);
    let out = run(&["predict", "-"], &json!([plain, measured]).to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let both: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let (plain, fitted) = (&both[0], &both[1]);
    assert!(plain["calibration"].is_null());
    assert!(plain["range"]["basis"]["calibrated"].is_null());
    assert_estimate(fitted);
    let fit = &fitted["calibration"];
    let run0 = &fit["runs"][0];
    assert_eq!((run0["place"].as_u64(), run0["chips"].as_u64()), (Some(0), Some(64)));
    assert_eq!(run0["measured_step_s"].as_f64(), Some(step));
    assert!(run0["error"].as_f64().is_some_and(|e| e.abs() < 0.01), "{fit}");
    assert_ne!(fit["efficiency"], fit["catalog_efficiency"]);
    assert_ne!(fitted["step_s"], plain["step_s"], "the fit moves the plan");
    assert_eq!(fitted["range"]["basis"]["calibrated"]["runs"].as_u64(), Some(1));
    // A bad measurement is named by its place.
    let mut bad = example();
    bad["calibration"] = json!([{ "measured": { "step_s": "fast" } }]);
    let out = run(&["predict", "-"], &bad.to_string());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Measurement 1, Step time (s) [calibration.0.measured.step_s]"),
        "{stderr}"
    );
}

/// Files people get wrong, each refused (exit 2) with the field or key named and nothing
/// printed on stdout, or read as meant.
#[test]
fn malformed_scenarios_are_refused_by_name() {
    let default =
        serde_json::to_value(clusterplan::scenario::Scenario::default_plan()).expect("json");
    // A key written twice: serde would keep the last, so a plan could change silently.
    let twice = r#"{"parallelism": {"tp": 8, "tp": 4}}"#;
    let out = run(&["predict", "-"], twice);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("'parallelism.tp' is written twice"), "{said}");
    // The same inside an array names the scenario.
    let out = run(
        &["predict", "-"],
        &format!("[{}, {{\"cluster\": {{\"chips\": 8, \"chips\": 16}}}}]", default),
    );
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("scenario 1: the key 'cluster.chips' is written twice"), "{said}");

    // Names must be text.
    for (path, value) in [
        ("cluster.system", json!({ "preset": "dgx-h100", "name": true })),
        ("cluster.system", json!({ "preset": "dgx-h100", "name": {} })),
        ("cluster.fabric", json!({ "switch": { "preset": "qm9700", "name": 3.5 } })),
    ] {
        let mut s = default.clone();
        let (section, key) = path.split_once('.').expect("a path");
        s[section][key] = value;
        let out = run(&["predict", "-"], &s.to_string());
        assert_eq!(out.status.code(), Some(2), "{path}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(".name") && said.contains("text"), "{path}: {said}");
    }

    // An efficiency of almost nothing is a typo, not months of training.
    let mut s = default.clone();
    s["cluster"]["chip"] = json!({ "preset": "h100-sxm", "matmul_efficiency": 5e-324 });
    let out = run(&["predict", "-"], &s.to_string());
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("cluster.chip.matmul_efficiency") && said.contains("0.01"), "{said}");

    // A huge unknown id is named, not echoed whole.
    let mut s = default.clone();
    s["cluster"]["chip"] = json!("x".repeat(1_000_000));
    let out = run(&["predict", "-"], &s.to_string());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() < 4_000, "{} bytes on stderr", out.stderr.len());
    assert!(String::from_utf8_lossy(&out.stderr).contains("xxx..."));

    // A byte-order mark, as some editors write, is no error.
    let out = run(&["predict", "-"], &format!("\u{feff}{default}"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_estimate(&serde_json::from_slice(&out.stdout).expect("JSON"));
}

/// A long array is read and written one scenario at a time: the output is the array of
/// estimates, in order, as one pretty JSON document.
#[test]
fn a_long_array_is_estimated_in_order() {
    let one = serde_json::to_value(clusterplan::scenario::Scenario::default_plan()).expect("json");
    let mut many = Vec::new();
    for chips in [1024, 2048, 4096] {
        let mut s = one.clone();
        s["cluster"]["chips"] = json!(chips);
        many.push(s);
    }
    let out = run(&["predict", "-"], &Value::Array(many).to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let estimates: Vec<Value> = serde_json::from_str(&text).expect("one JSON array");
    assert_eq!(estimates.len(), 3);
    let days: Vec<f64> =
        estimates.iter().map(|e| e["train_days"].as_f64().unwrap_or(0.0)).collect();
    assert!(days[0] > days[1] && days[1] > days[2], "{days:?}");
    // Laid out as a pretty array: each item's lines indented by two spaces.
    assert!(text.starts_with("[\n  {\n    \"") && text.ends_with("\n  }\n]\n"), "the layout");
    assert_eq!(text.matches("\n  },\n  {\n").count(), 2, "three items");
    let out = run(&["predict", "-"], "[]");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[]\n");
}

/// A cluster of two pools: the one job over both, by data, with each pool's part; a pool's
/// errors are named by its place, and the link between pools must be given.
#[test]
fn predict_spans_a_job_over_pools() {
    let fleet = json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": "15T", "global_batch": 1024 },
        "cluster": { "chip": "h800", "chips": 4096,
                     "pools": [{ "chip": "ascend-910b", "chips": 4096 }],
                     "between_pools": { "gbit_per_s": 1e5 } },
        "parallelism": { "tp": 8, "pp": 4, "across_pools": "data" }
    });
    let out = run(&["predict", "-"], &fleet.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let pools = &e["pools"];
    assert_eq!(pools["across"], "data");
    assert_eq!(pools["pools"].as_array().map(Vec::len), Some(2));
    let (alone, together) =
        (e["tokens_per_s"].as_f64().unwrap_or(0.0), pools["tokens_per_s"].as_f64().unwrap_or(0.0));
    assert!(together >= alone, "the second pool never slows the job: {together} < {alone}");
    let best = &pools["best"];
    assert!(best["tokens_per_s"].as_f64().unwrap_or(0.0) >= together * (1.0 - 1e-9), "{best}");
    assert!(best["gain_over_alone"].as_f64().is_some_and(|g| g >= 0.0), "{best}");

    let mut bad = fleet.clone();
    bad["cluster"]["pools"][0]["chip"] = json!("no-such-chip");
    bad["cluster"]["between_pools"] = json!({ "gbit_per_s": -1 });
    let out = run(&["predict", "-"], &bad.to_string());
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("cluster.pools.0.chip"), "{said}");
    assert!(said.contains("cluster.between_pools.gbit_per_s"), "{said}");
    // Without a link, the pools' own fabric joins them: as wide as the smaller pool's ports.
    let mut joined = fleet.clone();
    joined["cluster"].as_object_mut().map(|c| c.remove("between_pools"));
    let out = run(&["predict", "-"], &joined.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(e["pools"]["tokens_per_s"].as_f64() >= e["tokens_per_s"].as_f64(), "{e}");
}

/// Two sites 1,000 km apart behind a 10 Gb/s link: DiLoCo every 100 inner steps, streamed,
/// keeps nearly the speed of one site of all the chips (100 steps of 2,048 sequences cover the
/// 113 s the 141 GB exchange takes); each site's power adds up to the total.
#[test]
fn predict_spans_a_job_over_two_sites() {
    let plan = json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": "15T", "global_batch": 2048 },
        "cluster": { "chip": "h100-sxm", "chips": 8192, "site": "east",
                     "pools": [{ "chip": "h100-sxm", "chips": 8192, "site": "west" }],
                     "between_pools": { "gbit_per_s": 1e5 } },
        "parallelism": { "tp": 8, "pp": 4, "across_sites": "diloco", "diloco_inner_steps": 100, "diloco_streaming": true },
        "sites": [{ "name": "east", "wan_gbit_per_s": 10 },
                  { "name": "west", "wan_gbit_per_s": 10, "wan_latency_ms": 5, "facility": { "usd_per_kwh": 0.05 } }]
    });
    let out = run(&["predict", "-"], &plan.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let sites = &e["sites"];
    let parts = sites["sites"].as_array().cloned().unwrap_or_default();
    assert_eq!(parts.len(), 2, "{sites}");
    assert_eq!(parts[1]["name"], "west");
    let power: f64 = parts.iter().filter_map(|s| s["power_w"].as_f64()).sum();
    assert!((power - sites["power_w"].as_f64().unwrap_or(0.0)).abs() < 1e-6 * power);
    // The same 16,384 chips in one site, on the same plan and global batch: DiLoCo keeps 90 %
    // to 100 % of its speed, the data-parallel traffic each site no longer sends across all the
    // chips outweighed by what its hidden exchange slows.
    let mut one = plan.clone();
    one["cluster"] = json!({ "chip": "h100-sxm", "chips": 16384 });
    one["parallelism"] = json!({ "tp": 8, "pp": 4 });
    one.as_object_mut().map(|m| m.remove("sites"));
    let out = run(&["predict", "-"], &one.to_string());
    let one: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let one_site = one["tokens_per_s"].as_f64().unwrap_or(0.0);
    let both = sites["tokens_per_s"].as_f64().unwrap_or(0.0);
    assert!(both >= 0.9 * one_site && both <= one_site, "{both} against {one_site}");
    assert!(sites["wan"]["gbit_per_s_needed"].as_f64().is_some_and(|g| g > 0.0));

    let mut bad = plan.clone();
    bad["cluster"]["pools"][0]["site"] = json!("north");
    bad["sites"][0]["wan_gbit_per_s"] = json!(-1);
    let out = run(&["predict", "-"], &bad.to_string());
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("sites.0.wan_gbit_per_s"), "{said}");
    assert!(said.contains("north"), "{said}");
}

/// The README's example: the two commands it shows print the figures it shows, rounded as
/// shown, so the README cannot drift from the tool.
#[test]
fn the_readmes_example_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    assert!(readme.contains("$ clusterplan example > run.json"), "the README shows the example");
    let asked = "$ clusterplan size run.json --deadline-days 90 --chip h100-sxm --chip ascend-910b";
    assert!(readme.contains(asked), "the README shows the sizing");
    let example = run(&["example"], "");
    assert_eq!(example.status.code(), Some(0));
    let args =
        ["size", "-", "--deadline-days", "90", "--chip", "h100-sxm", "--chip", "ascend-910b"];
    let out = run(&args, &String::from_utf8_lossy(&example.stdout));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    for row in rows {
        let chip = row["chip"].as_str().expect("chip");
        // The sizing's rows, after its command.
        let from = readme.find(asked).unwrap_or(0);
        let at = from
            + readme[from..]
                .find(&format!("{{ \"chip\": \"{chip}\""))
                .expect("the README shows the chip");
        let shown = &readme[at..at + readme[at..].find("} ]").unwrap_or(readme.len() - at)];
        let shown = shown.split("\n    {").next().unwrap_or(shown);
        let f = |key: &str| row[key].as_f64().unwrap_or(f64::NAN);
        let plan = |key: &str| row["plan"][key].as_u64().unwrap_or(0);
        for expected in [
            format!("\"chips\": {}", row["chips"]),
            format!("\"effective_train_days\": {:.2}", f("effective_train_days")),
            format!("\"mfu\": {:.3}", f("mfu")),
            format!("\"facility_mw\": {:.2}", f("facility_mw")),
            format!("\"tp\": {}, \"pp\": {}", plan("tp"), plan("pp")),
            format!("\"virtual_stages\": {}", plan("virtual_stages")),
        ] {
            assert!(shown.contains(&expected), "the README's {chip} row lacks {expected}: {shown}");
        }
    }
}
