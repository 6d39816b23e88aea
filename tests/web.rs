//! The app in a real headless Chromium (wasm-bindgen-test): mount, edit, read the DOM and the
//! URL fragment. No sleeps: `yew::scheduler::flush` waits for rendering and effects.
//! Also the in-browser benchmarks: one estimate in wasm, input-to-redrawn-cards latency, and
//! the full plan search of the two reference workloads.
#![cfg(target_arch = "wasm32")]

use clusterplan::model;
use clusterplan::scenario::fields;
use clusterplan::scenario::{url, Scenario};
use clusterplan::ui::App;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

fn set_hash(fragment: &str) {
    window()
        .history()
        .expect("history")
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")))
        .expect("replaceState");
}

fn hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Hands the page back to its event loop for a moment, so a long benchmark does not hold it
/// past the test runner's patience between two measurements (a timer of no delay, not a sleep
/// on the network).
async fn breathe() {
    gloo::timers::future::TimeoutFuture::new(0).await;
}

/// Mounts a fresh app into its own element and waits for the first render and effects.
async fn mount() -> Element {
    // The page loads its catalogue as a file; the tests carry it.
    clusterplan::text::install(clusterplan::text::Lang::En, clusterplan::catalogue_source!(En))
        .ok();
    let document = window().document().expect("a document");
    let root = document.create_element("div").expect("a div");
    document.body().expect("a body").append_child(&root).expect("append");
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    root
}

fn text(root: &Element, testid: &str) -> String {
    root.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

fn input(root: &Element, testid: &str) -> HtmlInputElement {
    root.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into().ok())
        .unwrap_or_else(|| panic!("input {testid}"))
}

/// Types `value` into an input as a user would (one input event).
async fn type_into(root: &Element, testid: &str, value: &str) {
    let field = input(root, testid);
    field.set_value(value);
    let event = web_sys::InputEvent::new("input").expect("an input event");
    field.dispatch_event(&event).expect("dispatch");
    yew::scheduler::flush().await;
}

fn number(text: &str) -> f64 {
    text.split_whitespace().next().and_then(|t| t.parse().ok()).unwrap_or(f64::NAN)
}

#[wasm_bindgen_test]
async fn editing_the_chip_count_redraws_the_answer_and_the_link() {
    set_hash(&url::encode(&Scenario::default_plan()));
    let root = mount().await;
    let days_before = number(&text(&root, "train-days"));
    let fragment_before = hash();
    assert!(days_before > 0.0, "days shown: {}", text(&root, "train-days"));
    assert!(text(&root, "mfu").ends_with('%'));
    assert!(text(&root, "memory-per-chip").contains("GiB"));

    // The plots come from their worker (the end-to-end tests draw them); the page keeps a frame
    // for each, and every headline carries its range.
    assert!(root.query_selector("[data-testid=\"plot-scaling\"]").ok().flatten().is_some());
    let range_before = text(&root, "train-days-range");
    assert!(range_before.contains("days"), "a range: {range_before}");

    type_into(&root, "chips", "8192").await;
    let days_after = number(&text(&root, "train-days"));
    assert!(
        days_after > 1.5 * days_before,
        "half the chips, about twice the days: {days_before} -> {days_after}"
    );
    assert_ne!(hash(), fragment_before, "the link follows the edit");
    assert!(hash().starts_with("#s=1."));
    let decoded = url::decode(&hash()).expect("decodes").expect("has a scenario");
    assert_eq!(decoded.get("cluster.chips"), Some(json!(8192)));
    assert_ne!(text(&root, "train-days-range"), range_before, "the range follows the edit");
}

/// A value the judge refuses is marked at its field and named over the results, and set aside:
/// the answer is the plan's without it, as a fresh open of the link shows it; the value fixed,
/// the plan answers as before.
#[wasm_bindgen_test]
async fn a_bad_value_is_marked_and_set_aside() {
    set_hash(&url::encode(&Scenario::default_plan()));
    let root = mount().await;
    let days = text(&root, "train-days");
    type_into(&root, "pp", "-3").await;
    assert!(text(&root, "error-pp").contains("at least 1"), "error: {}", text(&root, "error-pp"));
    assert!(text(&root, "refused").contains("at least 1"), "named: {}", text(&root, "refused"));
    let typed = url::decode(&hash()).expect("decodes").expect("has a scenario");
    assert_eq!(typed.get("parallelism.pp"), Some(json!(-3)), "the link keeps what was typed");
    let shown = clusterplan::evaluation::shown(&typed).expect("the rest answers");
    let set_aside = format!("{:.1} days", shown.good.estimate.train_days);
    assert_eq!(text(&root, "train-days"), set_aside, "the plan without the refused value");
    type_into(&root, "pp", "16").await;
    assert!(root.query_selector("[data-testid=\"refused\"]").ok().flatten().is_none());
    assert_eq!(text(&root, "train-days"), days, "fixed, the plan answers as before");
}

#[wasm_bindgen_test]
async fn a_shared_link_opens_the_same_plan() {
    let shared = Scenario::default_plan().with(&fields::CLUSTER_CHIPS, Some(json!(4096)));
    set_hash(&url::encode(&shared));
    let root = mount().await;
    assert_eq!(input(&root, "chips").value(), "4096");
    let expected = model::estimate(&shared.resolve().expect("resolves"));
    assert_eq!(text(&root, "train-days"), format!("{:.1} days", expected.train_days));
}

#[wasm_bindgen_test]
async fn a_tampered_link_falls_back_with_a_notice() {
    for fragment in ["s=1.eyJtb2RlbCI6", "s=7.abc", "s=1.%%%", "s=1.W10"] {
        set_hash(fragment);
        let root = mount().await;
        let notice = text(&root, "notice");
        assert!(notice.contains("link"), "{fragment}: notice {notice:?}");
        assert!(number(&text(&root, "train-days")) > 0.0, "{fragment}: default plan shown");
    }
}

/// Not a test of speed: prints the in-browser timings the README reports.
#[wasm_bindgen_test]
async fn benchmark_in_browser() {
    let performance = window().performance().expect("performance");
    let inputs = Scenario::default_plan().resolve().expect("resolves");
    let runs = 20_000;
    let start = performance.now();
    let mut days = 0.0;
    for _ in 0..runs {
        days += model::estimate(&inputs).train_days;
    }
    let per_estimate_us = (performance.now() - start) * 1000.0 / runs as f64;
    assert!(days > 0.0);

    set_hash(&url::encode(&Scenario::default_plan()));
    let root = mount().await;
    let edits = 40;
    let start = performance.now();
    for k in 0..edits {
        let chips = if k % 2 == 0 { "8192" } else { "16384" };
        type_into(&root, "chips", chips).await;
    }
    let per_edit_ms = (performance.now() - start) / edits as f64;
    console_log!("in-browser benchmark: one estimate {per_estimate_us:.2} us; input to redrawn cards {per_edit_ms:.2} ms");
    web_sys::console::log_1(
        &format!("BENCH estimate_us={per_estimate_us:.2} input_to_redraw_ms={per_edit_ms:.2}")
            .into(),
    );
}

/// Not a test of speed: prints the time of the full plan search of each reference workload
/// (`tests/data/reference-workloads.json`, as the native benchmark) in wasm, the shipped
/// profile when run as `scripts/test.sh` runs it.
#[wasm_bindgen_test]
async fn search_benchmark_in_browser() {
    let performance = window().performance().expect("performance");
    let workloads =
        Scenario::parse_many(include_str!("data/reference-workloads.json")).expect("parses");
    for (name, scenario) in ["dense_405b_16384", "moe_671b_2048"].iter().zip(workloads) {
        let inputs = scenario.resolve().expect("resolves");
        let mut times = Vec::new();
        let mut outcome = None;
        for _ in 0..3 {
            breathe().await;
            let start = performance.now();
            outcome = Some(model::search::search(&inputs, Default::default()));
            times.push(performance.now() - start);
        }
        times.sort_by(f64::total_cmp);
        let o = outcome.expect("searched");
        assert!(!o.ranked.is_empty(), "{name}: plans found");
        let ms = times[1];
        web_sys::console::log_1(
            &format!(
                "BENCH search_{name}_ms={ms:.0} searched={} pruned={} evaluated={} evaluated_per_s={:.0}",
                o.searched,
                o.pruned,
                o.evaluated,
                o.evaluated as f64 / (ms / 1000.0)
            )
            .into(),
        );
    }
}

/// Not a test of speed: prints the time of 400 simulated runs of the dense reference workload
/// (about 62 failure-free days on 16,384 chips), as the plots worker runs them each edit.
#[wasm_bindgen_test]
fn failures_benchmark_in_browser() {
    let performance = window().performance().expect("performance");
    let inputs = Scenario::default_plan().resolve().expect("resolves");
    let e = model::estimate(&inputs);
    let mut times = Vec::new();
    let mut spread = None;
    for _ in 0..5 {
        let start = performance.now();
        spread = Some(model::failures::of(&inputs, &e));
        times.push(performance.now() - start);
    }
    times.sort_by(f64::total_cmp);
    let s = spread.expect("simulated");
    assert!(s.p10_days <= s.p50_days && s.p50_days <= s.p90_days);
    web_sys::console::log_1(
        &format!("BENCH failures_16384_chips_ms={:.1} runs={}", times[2], s.trials).into(),
    );
}

/// Not a test of speed: prints the time of the serving-cost search the plots' worker runs each
/// edit of a plan that serves (`model::serving::search`): DeepSeek-V3 on up to 2,048 H800, as
/// the native benchmark's `serving_search_deepseek_v3_h800`.
#[wasm_bindgen_test]
async fn serving_search_benchmark_in_browser() {
    let performance = window().performance().expect("performance");
    let plan = json!({
        "model": { "preset": "deepseek-v3" },
        "training": { "tokens": 1e12, "global_batch": 1024 },
        "cluster": { "chip": "h800", "chips": 2048 },
        "serving": { "tokens_per_day": 1e10, "tpot_ms": 50 }
    });
    let inputs = Scenario::from_value(plan).expect("a scenario").resolve().expect("resolves");
    let e = model::estimate(&inputs);
    breathe().await;
    let start = performance.now();
    let found = model::serving::search(&inputs, &e, 2048);
    let ms = performance.now() - start;
    assert!(!found.is_empty(), "deployments found");
    web_sys::console::log_1(
        &format!("BENCH serving_search_deepseek_v3_2048_ms={ms:.1} found={}", found.len()).into(),
    );
}

/// Not a test of speed: prints the time of the cluster's year as the plots' worker draws it
/// (`app::sections::year`): 20 jobs over 52 weeks on three chips (`tests/data/year-20-jobs.json`,
/// as the native benchmark's `year_20_jobs_52_weeks_3_chips`).
#[wasm_bindgen_test]
async fn year_benchmark_in_browser() {
    let performance = window().performance().expect("performance");
    let text = include_str!("data/year-20-jobs.json");
    let scenario = Scenario::parse_many(text).expect("parses").swap_remove(0);
    breathe().await;
    let start = performance.now();
    let year = clusterplan::app::sections::year::drawn(&scenario, &clusterplan::charts::LIGHT, 900);
    let ms = performance.now() - start;
    let year = year.expect("a year");
    assert!(year.errors.is_empty() && year.gantt_svg.starts_with("<svg"), "{:?}", year.errors);
    web_sys::console::log_1(&format!("BENCH year_20_jobs_ms={ms:.1}").into());
}

/// Not a test of speed: prints the time of the full plan search for each newer kind of model
/// on 2,048 H100 (as the native benchmark's `search_newer_kinds_2048_chips`).
#[wasm_bindgen_test]
async fn search_benchmark_of_newer_kinds_in_browser() {
    let performance = window().performance().expect("performance");
    let models = [
        "nemotron-h-56b",
        "qwen2-vl-72b",
        "jamba-1.5-mini",
        "qwen3-next-80b-a3b",
        "rwkv7-2.9b",
        "wan2.1-14b",
    ];
    for model in models {
        let plan = json!({
            "model": { "preset": model },
            "training": { "tokens": "10T", "global_batch": 1024, "recipe": "fp8" },
            "cluster": { "chip": "h100-sxm", "chips": 2048 },
            "parallelism": { "tp": 8, "pp": 4, "cp": 1, "virtual_stages": 1 }
        });
        let inputs = Scenario::from_value(plan).expect("a scenario").resolve().expect("resolves");
        breathe().await;
        let start = performance.now();
        let outcome = model::search::search(&inputs, Default::default());
        let ms = performance.now() - start;
        assert!(!outcome.ranked.is_empty(), "{model}: plans found");
        web_sys::console::log_1(
            &format!("BENCH search_{model}_ms={ms:.0} searched={}", outcome.searched).into(),
        );
    }
}

/// Not a test of speed: prints the time the worker takes for a whole search job as the page
/// asks for it (the search, then each ranked plan's full estimate and scenario for the
/// result), and for a 90-day sizing of the dense reference workload on its own chip and on
/// three chips (H100, Ascend 910B, MTT S4000; target 3 s).
#[wasm_bindgen_test]
async fn job_benchmark_in_browser() {
    use clusterplan::app::jobs;
    use clusterplan::app::Task;
    use clusterplan::model::search::Objective;
    let performance = window().performance().expect("performance");
    let dense = Scenario::parse_many(include_str!("data/reference-workloads.json"))
        .expect("parses")
        .remove(0);
    let search = Task::Search { scenario: dense.clone(), objective: Objective::TrainDays, top: 10 };
    let size =
        Task::Size { scenario: dense.clone(), deadline_days: 90.0, chips: vec![None], dark: false };
    let three = ["h100-sxm", "ascend-910b", "mtt-s4000"].map(|c| Some(c.to_string())).to_vec();
    let size_three = Task::Size { scenario: dense, deadline_days: 90.0, chips: three, dark: false };
    for (name, task) in [
        ("search_job_dense_405b_16384", search),
        ("size_job_dense_405b_90_days", size),
        ("size_job_three_chips_405b_90_days", size_three),
    ] {
        breathe().await;
        let start = performance.now();
        let result = jobs::run(&task).expect("runs");
        let ms = performance.now() - start;
        assert!(!result.is_null(), "{name}: a result");
        web_sys::console::log_1(&format!("BENCH {name}_ms={ms:.0}").into());
    }
}

#[wasm_bindgen_test]
async fn a_broken_link_stays_until_the_first_edit() {
    set_hash("s=1.eyJtb2RlbCI6");
    let root = mount().await;
    assert!(text(&root, "notice").contains("link"));
    assert_eq!(hash(), "#s=1.eyJtb2RlbCI6", "the unreadable link is left for the user");
    type_into(&root, "chips", "8192").await;
    assert!(url::decode(&hash()).is_ok_and(|s| s.is_some()), "the first edit writes a good link");
}

#[wasm_bindgen_test]
async fn a_pasted_link_opens_its_plan() {
    set_hash(&url::encode(&Scenario::default_plan()));
    let root = mount().await;
    let other = Scenario::default_plan().with(&fields::CLUSTER_CHIPS, Some(json!(2048)));
    set_hash(&url::encode(&other));
    // What the browser does when the address bar's fragment changes.
    let event = web_sys::Event::new("hashchange").expect("an event");
    window().dispatch_event(&event).expect("dispatch");
    yew::scheduler::flush().await;
    assert_eq!(input(&root, "chips").value(), "2048");
}

#[wasm_bindgen_test]
async fn long_numbers_are_shown_as_typed() {
    set_hash(&url::encode(&Scenario::default_plan()));
    let root = mount().await;
    for typed in ["1", "15", "15600000", "15600000000000"] {
        type_into(&root, "tokens", typed).await;
        assert_eq!(input(&root, "tokens").value(), typed, "the box is not rewritten while typing");
    }
    assert!(text(&root, "train-days").contains("days"));
}
