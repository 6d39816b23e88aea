//! The app natively: the page's state and actions (the inputs quoted by users, undo, imports
//! that must not lose work, chip changes that keep the user's network, one validity policy
//! shared with the command-line tool), and every section of the answer through the wire.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use crate::common::{random_scenario, Rng};
use clusterplan::app::sections::compare::Figure;
use clusterplan::app::state::{Action, Notice, State};
use clusterplan::model::{Severity, Warning};
use clusterplan::scenario::fields;
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

fn fresh() -> State {
    State::new(Scenario::default_plan(), None)
}

fn set(state: &mut State, path: &str, value: Value) {
    state.apply(Action::Set(vec![(path.to_string(), Some(value))]));
}

fn estimate(state: &State) -> &clusterplan::model::Estimate {
    &state.good.as_ref().expect("a result").estimate
}

#[test]
fn the_default_plan_opens_with_nothing_to_warn_about() {
    let state = fresh();
    assert!(state.errors.is_empty());
    let e = estimate(&state);
    assert!(e.feasible && e.problems.is_empty() && e.warnings.is_empty(), "{:?}", e.warnings);
}

#[test]
fn ten_thousand_chips_is_taken_idle_with_usable_counts_to_pick() {
    let mut state = fresh();
    set(&mut state, "cluster.chips", json!(10_000));
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    let error = &state.idle.as_ref().expect("taken with chips idle").note;
    assert_eq!(error.field, "cluster.chips");
    let labels: Vec<String> = error.fixes.iter().map(|f| f.label.to_string()).collect();
    assert_eq!(labels, ["9,984 chips", "10,240 chips", "keep 10,000 chips, 16 idle"]);
    // Each fix makes the plan valid; leaving chips idle is a warning, not a problem.
    for fix in &error.fixes {
        let mut next = state.clone();
        next.apply(Action::Set(
            fix.changes.iter().map(|(p, v)| (p.clone(), Some(v.clone()))).collect(),
        ));
        assert!(next.errors.is_empty(), "{}: {:?}", fix.label, next.errors);
        assert!(estimate(&next).feasible, "{}", fix.label);
    }
}

#[test]
fn a_rejected_chip_count_raises_no_second_error() {
    let mut state = fresh();
    for bad in ["abc", "0", "-5", "1e40"] {
        set(&mut state, "cluster.chips", json!(bad));
        assert_eq!(state.errors.len(), 1, "{bad}: {:?}", state.errors);
        assert_eq!(state.errors[0].field, "cluster.chips");
    }
}

#[test]
fn impossible_plans_are_estimated_but_marked_infeasible() {
    let mut state = fresh();
    state.apply(Action::ChooseModel("deepseek-v3".into()));
    for (path, value) in [("parallelism.tp", 1), ("parallelism.cp", 1), ("parallelism.pp", 16)] {
        set(&mut state, path, json!(value));
    }
    set(&mut state, "cluster.chips", json!(256));
    set(&mut state, "parallelism.ep", json!(64));
    let e = estimate(&state);
    assert!(!e.feasible);
    assert!(e
        .problems
        .iter()
        .any(|w| matches!(w, Warning::ExpertDegreeNotDivisible { ep: 64, .. })));

    let mut state = fresh();
    set(&mut state, "parallelism.micro_batch", json!(4096));
    let e = estimate(&state);
    assert!(!e.feasible && e.problems.iter().all(|w| w.severity() == Severity::Problem));
    assert!(e.problems.iter().any(|w| matches!(w, Warning::IdleReplicas { .. })));
}

#[test]
fn absurd_figures_are_refused_in_short_words() {
    let mut state = fresh();
    state.apply(Action::ChooseChip("custom".into()));
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    let days = estimate(&state).train_days;
    set(&mut state, "cluster.chip.hbm_tb_per_s", json!(1e-30));
    set(&mut state, "cluster.chip.bf16_tflops", json!(1e40));
    let messages: Vec<String> = state.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages.iter().any(|m| m.contains("Memory bandwidth: is too small (min 0.01 TB/s)")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("BF16 dense peak: is too large (max 100,000 TFLOP/s)")),
        "{messages:?}"
    );
    assert!(messages.iter().all(|m| m.len() < 80), "{messages:?}");
    // Set aside for the default chip's own figures (the custom chip was taken over from it),
    // the rest of the chip as typed: no absurd days.
    assert_eq!(estimate(&state).train_days, days);
}

#[test]
fn reset_and_undo_return_to_the_plan_before() {
    let mut state = fresh();
    set(&mut state, "parallelism.tp", json!(4));
    let mine = state.scenario.clone();
    let history = state.history;
    state.apply(Action::Reset);
    assert_eq!(state.scenario, Scenario::default_plan());
    assert!(state.history > history, "a whole-plan change adds a history entry");
    assert!(state.notice.as_ref().is_some_and(Notice::undoable));
    state.apply(Action::Undo);
    assert_eq!(state.scenario, mine);
    // The typed edit before it is a step of its own.
    state.apply(Action::Undo);
    assert_eq!(state.scenario, Scenario::default_plan());
    state.apply(Action::Undo);
    assert_eq!(state.notice, Some(Notice::NothingToUndo));
    assert_eq!(state.scenario, Scenario::default_plan());
}

#[test]
fn a_bad_import_keeps_the_plan_and_says_why() {
    let mut state = fresh();
    set(&mut state, "parallelism.tp", json!(4));
    let mine = state.scenario.clone();
    for text in
        ["{ not json", r#"{"model": {"preset": "nope"}, "cluster": {"chips": "many"}}"#, "[{}, {}]"]
    {
        state.apply(Action::Import { name: "bad.json".into(), text: text.into() });
        assert_eq!(state.scenario, mine, "{text}");
        assert!(state.errors.is_empty());
        match &state.notice {
            Some(Notice::ImportRejected { name, problems }) => {
                assert_eq!(name, "bad.json");
                assert!(!problems.is_empty());
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    let good = Scenario::default_plan().with(&fields::CLUSTER_CHIPS, Some(json!(8192)));
    state.apply(Action::Import { name: "good.json".into(), text: good.to_json() });
    assert_eq!(state.scenario, good);
    state.apply(Action::Undo);
    assert_eq!(state.scenario, mine);
}

#[test]
fn changing_the_chip_keeps_the_network_the_user_chose() {
    // The default plan runs on RoCE 400G, not the H100's usual InfiniBand NDR.
    let mut state = fresh();
    state.apply(Action::ChooseChip("h200".into()));
    assert_eq!(state.scenario.get("cluster.scale_out"), Some(json!("roce-400g")));
    match &state.notice {
        Some(Notice::ChipChanged { kept, .. }) => {
            assert!(kept
                .iter()
                .any(|k| k.path == "cluster.scale_out" && k.yours == json!("roce-400g")))
        }
        other => panic!("{other:?}"),
    }
    // A network that merely came with the previous chip follows the new one.
    set(&mut state, "cluster.scale_out", json!("ib-ndr"));
    state.apply(Action::ChooseChip("h100-sxm".into()));
    state.apply(Action::ChooseChip("mi300x".into()));
    assert_eq!(state.scenario.get("cluster.scale_out"), None);
    state.apply(Action::Undo);
    assert_eq!(state.scenario.get("cluster.chip"), Some(json!("h100-sxm")));
}

#[test]
fn a_server_price_typed_for_one_chip_goes_with_it() {
    // The H800 comes in a generic server: its price typed makes an object of keys, no preset.
    let mut state = fresh();
    state.apply(Action::ChooseChip("h800".into()));
    set(&mut state, "cluster.system.node_price_usd", json!(300_000.0));
    assert_eq!(state.scenario.get("cluster.system"), Some(json!({ "node_price_usd": 300_000.0 })));
    let nodes = estimate(&state).facility.bom.nodes as f64;
    assert!(estimate(&state).facility.cost.hardware_usd > 300_000.0 * nodes);
    // The H100's own system comes with it, priced as its own, and the notice says what went.
    state.apply(Action::ChooseChip("h100-sxm".into()));
    assert_eq!(state.scenario.get("cluster.system"), None);
    match &state.notice {
        Some(Notice::ChipChanged { replaced, .. }) => assert!(replaced.contains(&"cluster.system")),
        other => panic!("{other:?}"),
    }
    state.apply(Action::Undo);
    assert_eq!(state.scenario.get("cluster.system"), Some(json!({ "node_price_usd": 300_000.0 })));
    // A catalog system's price typed keeps the system.
    state.apply(Action::ChooseChip("h100-sxm".into()));
    set(&mut state, "cluster.system.node_price_usd", json!(250_000.0));
    let system = state.scenario.get("cluster.system").expect("set");
    assert_eq!(system["preset"], json!("dgx-h100"), "{system}");
}

#[test]
fn measurements_made_on_one_chip_stay_with_it_when_the_chip_changes() {
    let mut state = fresh();
    let measured = json!([{ "scenario": { "cluster": { "chips": 256 }, "parallelism": { "dp": null } },
                            "measured": { "tokens_per_s": 40000 } }]);
    set(&mut state, "calibration", measured.clone());
    assert!(state.good.as_ref().is_some_and(|g| g.calibration.is_some()));
    state.apply(Action::ChooseChip("h200".into()));
    // Kept, pinned to the chip it was made on, and not applied to the new one.
    let kept = state.scenario.get("calibration").expect("kept");
    assert_eq!(kept[0]["scenario"]["cluster"]["chip"], json!("h100-sxm"));
    assert!(state.good.as_ref().is_some_and(|g| g.calibration.is_none()));
    assert_eq!(state.scenario.measured_elsewhere().len(), 1);
    assert!(
        matches!(&state.notice, Some(Notice::ChipChanged { set_aside: 1, .. })),
        "{:?}",
        state.notice
    );
    state.apply(Action::Undo);
    assert_eq!(state.scenario.get("calibration"), Some(measured));
}

#[test]
fn published_plans_load_in_one_click_and_mixtures_hint_at_expert_parallelism() {
    let mut state = fresh();
    state.apply(Action::ChooseModel("deepseek-v3".into()));
    assert!(matches!(state.notice, Some(Notice::MoeWithoutEp { .. })));
    state.apply(Action::LoadPublishedPlan("deepseek-v3".into()));
    let good = state.good.as_ref().expect("a result");
    assert!(state.errors.is_empty());
    assert_eq!(good.inputs.cluster.n_chips, 2048);
    assert_eq!((good.inputs.parallelism.pipeline, good.inputs.parallelism.expert), (16, 64));
    assert!(good.estimate.feasible);
    assert!(clusterplan::validation::published_plan("llama3-405b").is_some());
}

#[test]
fn an_edited_preset_is_marked_modified() {
    let mut state = fresh();
    assert!(!clusterplan::app::state::model_modified(&state.scenario));
    set(&mut state, "model.layers", json!(100));
    assert!(clusterplan::app::state::model_modified(&state.scenario));
}

/// The same scenarios through the page's reducer, the shared policy and the command-line
/// tool give the same verdict.
#[test]
fn the_page_and_the_command_line_share_one_validity_policy() {
    let mut rng = Rng(0xBADC_0FFE);
    let scenarios: Vec<Scenario> = (0..60).map(|_| random_scenario(&mut rng)).collect();
    let (code, printed, said) = predict_all(&scenarios);
    assert_eq!(code, Some(0), "{said}");
    let mut infeasible = 0;
    for (idx, scenario) in scenarios.iter().enumerate() {
        let (_, shared) = scenario.estimated().expect("generated scenarios resolve");
        let page = State::new(scenario.clone(), None);
        let shown = &page.good.as_ref().expect("a result").estimate;
        assert_eq!(shown, &shared, "scenario {idx}");
        assert_eq!(printed[idx]["feasible"], json!(shared.feasible), "scenario {idx}");
        assert_eq!(printed[idx]["problems"].as_array().map(Vec::len), Some(shared.problems.len()));
        infeasible += usize::from(!shared.feasible);
    }
    assert!(infeasible > 0 && infeasible < scenarios.len(), "both verdicts occur: {infeasible}");
}

/// `scenario` with up to two further pools and sometimes two sites, each field now and then
/// out of place: an unknown chip, no chips, a link that cannot carry anything, an unknown way
/// to span the pools, a pool in a site no one named.
fn with_fleet(scenario: Scenario, rng: &mut Rng) -> Scenario {
    let mut v = serde_json::to_value(&scenario).expect("json");
    let bad = |rng: &mut Rng| rng.below(6) == 0;
    let sited = rng.below(2) == 0;
    let pools: Vec<Value> = (0..rng.below(3))
        .map(|_| {
            let chip = if bad(rng) {
                "no-such-chip"
            } else {
                *rng.pick(&["h100-sxm", "ascend-910b", "a100-80gb"])
            };
            let chips = if bad(rng) { 0 } else { 8 * rng.pow2(8) };
            let mut pool = json!({ "chip": chip, "chips": chips });
            if sited {
                pool["site"] = json!(if bad(rng) { "north" } else { "west" });
            }
            pool
        })
        .collect();
    if !pools.is_empty() {
        v["cluster"]["pools"] = json!(pools);
        let gbit = if bad(rng) { -5.0 } else { 100.0 * rng.pow2(8) as f64 };
        v["cluster"]["between_pools"] = json!({ "gbit_per_s": gbit });
        let across =
            if bad(rng) { "sideways" } else { *rng.pick(&["data", "pipeline", "separate"]) };
        v["parallelism"]["across_pools"] = json!(across);
    }
    if sited {
        v["cluster"]["site"] = json!("east");
        let wan = if bad(rng) { 0.0 } else { 10.0 * rng.pow2(6) as f64 };
        v["sites"] = json!([{ "name": "east", "wan_gbit_per_s": wan },
                            { "name": "west", "wan_gbit_per_s": 10, "wan_latency_ms": 5 }]);
        v["parallelism"]["across_sites"] = json!(*rng.pick(&["sync", "diloco"]));
    }
    Scenario::from_value(v).expect("a generated fleet parses")
}

/// `clusterplan predict` of `scenarios` as one array: its exit code, stdout and stderr.
fn predict_all(scenarios: &[Scenario]) -> (Option<i32>, Value, String) {
    let input =
        Value::Array(scenarios.iter().map(|s| serde_json::to_value(s).expect("json")).collect());
    let out = Command::new(env!("CARGO_BIN_EXE_clusterplan"))
        .args(["predict", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(input.to_string().as_bytes())?;
            child.wait_with_output()
        })
        .expect("the tool runs");
    let printed = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), printed, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Generated scenarios with further pools and sites, some fields out of place, through the
/// page's reducer, the judge (`evaluation`) and the command-line tool: the page marks exactly
/// the fields the judge refuses and the tool names; where all three accept a scenario, they
/// give the same estimate and the same job over its pools and sites.
#[test]
fn the_page_and_the_command_line_judge_pools_and_sites_alike() {
    let mut rng = Rng(0xF1EE_7500);
    let scenarios: Vec<Scenario> =
        (0..48).map(|_| with_fleet(random_scenario(&mut rng), &mut rng)).collect();
    let (mut refused, mut good) = (Vec::new(), Vec::new());
    let idle = |e: &clusterplan::scenario::InputError| {
        e.fixes.iter().any(|f| matches!(f.label, clusterplan::scenario::FixLabel::KeepIdle { .. }))
    };
    for (idx, scenario) in scenarios.iter().enumerate() {
        let page = State::new(scenario.clone(), None);
        match clusterplan::evaluation::check(scenario) {
            Ok(()) => {
                assert!(page.errors.is_empty(), "scenario {idx}: {:?}", page.errors);
                good.push(scenario.clone());
            }
            Err(errors) => {
                // The page marks every field the judge refuses, and the shown estimate is the
                // scenario with them set aside; a count that does not divide is taken idle.
                let shown = clusterplan::evaluation::shown(scenario);
                let marked = shown.as_ref().map_or_else(|e| e.clone(), |s| s.refused.clone());
                assert_eq!(page.errors, marked, "scenario {idx}");
                for e in errors.iter().filter(|e| !idle(e)) {
                    assert!(page.errors.contains(e), "scenario {idx}: the page marks {}", e.field);
                }
                if let Ok(shown) = &shown {
                    let again = clusterplan::evaluation::evaluate(&shown.estimated);
                    assert!(again.is_ok(), "scenario {idx}: what is set aside never reaches it");
                    let page_days = page.good.as_ref().map(|g| g.estimate.train_days);
                    assert_eq!(page_days, Some(shown.good.estimate.train_days), "scenario {idx}");
                }
                refused.push((idx, errors));
            }
        }
    }
    let fleet_errors = refused.iter().flat_map(|(_, e)| e).filter(|e| {
        e.field.starts_with("cluster.pools")
            || e.field.starts_with("sites")
            || e.field.starts_with("cluster.between_pools")
            || e.field.contains("across_")
    });
    assert!(fleet_errors.count() >= 5, "pools and sites go wrong: {refused:?}");
    assert!(good.iter().filter(|s| s.cluster.pools.is_some()).count() >= 5, "and right");

    // The tool refuses the same scenarios, naming each field the page marks.
    let (code, _, said) = predict_all(&scenarios);
    assert_eq!(code, Some(2), "{said}");
    for (idx, errors) in &refused {
        for e in errors.iter().filter(|e| !idle(e)) {
            let named = format!("scenario {idx}: ");
            let line = said.lines().find(|l| l.contains(&named) && l.contains(&e.field));
            assert!(line.is_some(), "scenario {idx}: the tool names {}: {said}", e.field);
        }
    }
    // And estimates the rest as the page shows them, the pools' and sites' jobs included.
    let (code, printed, said) = predict_all(&good);
    assert_eq!(code, Some(0), "{said}");
    for (idx, scenario) in good.iter().enumerate() {
        let page = State::new(scenario.clone(), None);
        let shown = page.good.as_ref().expect("a result");
        let json = &printed[idx];
        // JSON's numbers are read back to within a unit in the last place.
        let near = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() <= 1e-12 * b.abs());
        assert!(near(json["train_days"].as_f64(), shown.estimate.train_days), "good {idx}");
        assert_eq!(json["pools"].is_object(), shown.pools.is_some(), "good {idx}");
        let sites = scenario.sites().expect("the sites resolve");
        assert_eq!(json["sites"].is_object(), sites.is_some(), "good {idx}");
        if let Some(pools) = &shown.pools {
            let tokens = pools.job().tokens_per_s;
            assert!(near(json["pools"]["tokens_per_s"].as_f64(), tokens), "good {idx}");
        }
    }
}

/// Applying a plan the search found is one undoable whole-plan change: the form, the estimate
/// and the link follow it, and Undo brings the typed plan back.
#[test]
fn applying_a_searched_plan_is_undoable() {
    let mut state = fresh();
    let typed = state.scenario.clone();
    let days = estimate(&state).train_days;
    let inputs = typed.resolve().expect("resolves");
    let best = clusterplan::model::search::search(&inputs, Default::default()).ranked[0];
    let history = state.history;
    state.apply(Action::Apply {
        label: "the search's plan #1".into(),
        scenario: Box::new(typed.with_found(&best, inputs.cluster.n_chips)),
    });
    assert!(matches!(&state.notice, Some(Notice::Applied { label }) if label.contains("#1")));
    assert_eq!(state.history, history + 1, "a new browser-history entry");
    assert!((estimate(&state).train_days - best.train_days).abs() <= 1e-9 * best.train_days);
    assert!(best.train_days <= days, "the best plan is no slower than the typed one");
    state.apply(Action::Undo);
    assert_eq!(state.scenario, typed);
}

/// Pinning a plan as A keeps it while the form edits B; the comparison lists both, and ending
/// it keeps B.
#[test]
fn a_pinned_plan_stays_while_b_is_edited() {
    let mut state = fresh();
    let a_days = estimate(&state).train_days;
    state.apply(Action::Compare);
    let pinned = state.pinned.clone().expect("A is pinned");
    set(&mut state, "cluster.chips", serde_json::json!(8192));
    let b = estimate(&state).clone();
    assert!(b.train_days > a_days, "half the chips take longer");
    let a = &pinned.good.as_ref().expect("A has a result").estimate;
    assert_eq!(a.train_days, a_days, "A is as pinned");
    let rows = clusterplan::app::sections::compare::compare(a, &b);
    let days = rows.iter().find(|d| d.figure == Figure::TrainDays).expect("days");
    assert!((days.change - (b.train_days / a_days - 1.0)).abs() < 1e-12);
    // Slower is worse; MFU moves in points; how much is built is no score.
    assert_eq!(days.better(), Some(false));
    let mfu = rows.iter().find(|d| d.figure == Figure::Mfu).expect("MFU");
    assert_eq!(mfu.points(), Some(100.0 * (b.mfu - a.mfu)));
    assert_eq!(mfu.better(), Some(b.mfu > a.mfu));
    assert!(days.points().is_none());
    for d in &rows {
        if d.figure.built() || d.figure == Figure::Chips || d.figure == Figure::Memory {
            assert_eq!(d.better(), None, "{:?}", d.figure);
        }
        if d.a == d.b {
            assert_eq!(d.better(), None, "{:?}", d.figure);
        }
    }
    let shown = |f: Figure| rows.iter().any(|d| d.figure == f);
    assert!(shown(Figure::Part("bubble")) && shown(Figure::Nodes) && shown(Figure::Energy));
    assert_eq!(rows.len(), Figure::all().len());
    let nodes = rows.iter().find(|d| d.figure == Figure::Nodes).expect("nodes");
    assert_eq!((nodes.a, nodes.b), (a.facility.bom.nodes as f64, b.facility.bom.nodes as f64));
    // A comparison link opens both sides; a single link ends the comparison.
    let mut opened = fresh();
    opened.apply(Action::OpenPair(Box::new((pinned.scenario.clone(), state.scenario.clone()))));
    assert_eq!(opened.pinned.as_ref().map(|p| &p.scenario), Some(&pinned.scenario));
    assert_eq!(estimate(&opened).train_days, b.train_days);
    opened.apply(Action::Open(Box::new(pinned.scenario.clone())));
    assert!(opened.pinned.is_none());
    state.apply(Action::EndCompare);
    assert!(state.pinned.is_none() && estimate(&state).train_days == b.train_days);
}

/// Choosing a system says what came with it and what of the user's it replaced, with Undo, and
/// Redo goes forward again; any other change empties Redo.
#[test]
fn a_system_change_says_what_came_with_it_and_undoes_and_redoes() {
    let mut state = fresh();
    set(&mut state, "cluster.scale_out", json!("ib-ndr"));
    let before = state.scenario.clone();
    state.apply(Action::ChooseSystem("kuae-s4000".into()));
    let Some(Notice::SystemChanged { system, chip, replaced }) = state.notice.clone() else {
        panic!("{:?}", state.notice)
    };
    assert!(system.contains("KUAE"), "{system}");
    assert_eq!(chip.as_deref(), Some("Moore Threads MTT S4000"));
    assert_eq!(replaced, vec!["cluster.scale_out"]);
    let words = clusterplan::app::words::notice(state.notice.as_ref().expect("a notice"));
    assert!(words.contains("MTT S4000") && words.contains("network"), "{words}");
    assert!(state.notice.as_ref().is_some_and(Notice::undoable));
    let after = state.scenario.clone();
    state.apply(Action::Undo);
    assert_eq!(state.scenario, before);
    assert_eq!(state.redo.len(), 1);
    state.apply(Action::Redo);
    assert_eq!(state.scenario, after);
    assert_eq!(state.notice, Some(Notice::Redone));
    state.apply(Action::Undo);
    set(&mut state, "cluster.chips", json!(2048));
    assert!(state.redo.is_empty(), "an edit after Undo leaves nothing to redo");
}

/// An edit inside a system that is not set keeps the chip's own system rather than falling
/// back to a generic server, so capex follows nodes per rack (fewer racks, a little less).
#[test]
fn a_drawn_edit_keeps_the_system() {
    let mut state = fresh();
    let capex = |s: &State| estimate(s).facility.cost.capex_usd;
    let mut last = capex(&state);
    for nodes in [5, 6, 8] {
        set(&mut state, "cluster.system.nodes_per_rack", json!(nodes));
        assert_eq!(state.scenario.get("cluster.system.preset"), Some(json!("dgx-h100")));
        let now = capex(&state);
        assert!(now < last && now > 0.95 * last, "{nodes} nodes per rack: {now} after {last}");
        last = now;
    }
}

/// A scale-up domain larger than its fabric links is flagged, and the drawing offers no step
/// beyond it.
#[test]
fn a_domain_beyond_its_fabric_is_flagged_and_not_offered() {
    let mut state = fresh();
    set(&mut state, "cluster.chip", json!("ascend-910b"));
    let drawing = |s: &State| {
        let good = s.good.as_ref().expect("a result");
        clusterplan::sketch::sketch(&good.inputs, &good.estimate).expect("a drawing")
    };
    let domain =
        drawing(&state).knobs.iter().find(|k| k.path == "cluster.scale_up_domain").copied();
    assert_eq!(domain.map(|k| (k.value, k.up)), Some((8.0, None)), "HCCS links 8 chips");
    set(&mut state, "cluster.scale_up_domain", json!(16));
    let flagged = estimate(&state)
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::DomainBeyondFabric { domain: 16, fabric: 8 }));
    assert!(flagged, "{:?}", estimate(&state).warnings);
}

/// A chip count the plan does not divide is taken with its idle chips: not refused (the field
/// is not marked), the idle chips warned of and the round counts offered beside it; any other
/// refused field is set aside, and the estimate is the plan without it.
#[test]
fn any_chip_count_answers_at_once() {
    let mut state = fresh();
    for (chips, idle) in [(10_000u32, 16u64), (15_000, 152)] {
        set(&mut state, "cluster.chips", json!(chips));
        assert_eq!(state.idle.as_ref().map(|i| i.chips), Some(idle), "{chips}");
        assert!(state.errors.is_empty(), "{:?}", state.errors);
        let good = state.good.as_ref().expect("a result");
        assert_eq!(good.inputs.cluster.n_chips, chips);
        assert_eq!(good.estimate.chips_used as u64, chips as u64 - idle);
        assert!(good.estimate.warnings.iter().any(|w| matches!(
            w,
            clusterplan::model::Warning::DegreesMismatch { chips: c, .. } if *c == chips
        )));
        let note = state.idle_for("cluster.chips").expect("the count's note");
        assert!(note.fixes.len() >= 2, "round counts offered");
    }
    let before = state.good.as_ref().expect("a result").estimate.train_days;
    set(&mut state, "training.tokens", json!("lots"));
    assert_eq!(state.errors_for("training.tokens").len(), 1, "{:?}", state.errors);
    assert_eq!(state.idle.as_ref().map(|i| i.chips), Some(152), "still taken idle");
    // Tokens must be given, so the refused count is set aside for the default plan's, which
    // this plan had: nothing moved.
    let usual = state.scenario.with_at("training.tokens", Some(json!("15.6T")));
    let shown = clusterplan::evaluation::shown(&usual).expect("the plan without it");
    assert!(shown.refused.is_empty());
    let good = state.good.as_ref().expect("the plan without the refused tokens");
    assert_eq!(good.estimate.train_days, shown.good.estimate.train_days);
    assert_eq!(good.estimate.train_days, before);
}

/// The pools panel's edits: a pool added is of the cluster's chip and size; a new chip leaves
/// its system; the last pool removed takes the link and the way the job spans pools with it,
/// says so, and Undo brings them back; an edit of a pool the list lacks changes nothing.
#[test]
fn pools_are_added_changed_and_removed_with_what_goes_with_them() {
    use clusterplan::app::state::{Edit, Removed};
    let mut state = fresh();
    let chips = state.good.as_ref().expect("a result").inputs.cluster.n_chips;
    state.apply(Action::Edit(Edit::AddPool));
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    let pool = state.scenario.get("cluster.pools.0").expect("a pool");
    assert_eq!(pool["chip"], state.scenario.get("cluster.chip").expect("a chip"));
    assert_eq!(pool["chips"], json!(chips));
    assert!(state.good.as_ref().is_some_and(|g| g.pools.is_some()), "the job spans two pools");
    set(&mut state, "cluster.pools.0.system", json!("dgx-h100"));
    set(&mut state, "parallelism.across_pools", json!("pipeline"));
    state.apply(Action::Edit(Edit::PoolChip { at: 0, chip: "ascend-910b".into() }));
    assert_eq!(state.scenario.get("cluster.pools.0.chip"), Some(json!("ascend-910b")));
    assert_eq!(state.scenario.get("cluster.pools.0.system"), None, "the H100's system stays");
    let before = state.scenario.clone();
    let unchanged = state.clone();
    state.apply(Action::Edit(Edit::RemovePool { at: 3 }));
    assert_eq!(state.scenario, unchanged.scenario, "no pool 5 to remove");
    state.apply(Action::Edit(Edit::RemovePool { at: 0 }));
    for gone in ["cluster.pools", "parallelism.across_pools", "cluster.between_pools"] {
        assert_eq!(state.scenario.get(gone), None, "{gone}");
    }
    assert_eq!(state.notice, Some(Notice::Removed(Removed::Pool { n: 2 })));
    assert!(state.notice.as_ref().is_some_and(Notice::undoable));
    state.apply(Action::Undo);
    assert_eq!(state.scenario, before);
}

/// The first site added places the cluster at a site of its own, so the plan has two sites
/// that a job spans; each further site takes the next letter.
#[test]
fn sites_are_added_two_at_first_then_one_at_a_time() {
    use clusterplan::app::state::Edit;
    let mut state = fresh();
    state.apply(Action::Edit(Edit::AddSite));
    let names = |s: &State| -> Vec<String> {
        let sites = s.scenario.get("sites").and_then(|v| v.as_array().cloned());
        sites.unwrap_or_default().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names(&state), ["A", "B"]);
    assert_eq!(state.scenario.get("cluster.site"), Some(json!("A")));
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    state.apply(Action::Edit(Edit::AddSite));
    assert_eq!(names(&state), ["A", "B", "C"]);
}

/// The measurements panel's edits: a measurement starts as the form's plan (its model, chip,
/// degrees, batch and chips) with its figure to enter; another kind of figure keeps the
/// number; removing one says so and Undo brings it back.
#[test]
fn measurements_start_from_the_plan_and_keep_their_number() {
    use clusterplan::app::state::{Edit, Removed};
    let mut state = fresh();
    set(&mut state, "parallelism.tp", json!(4));
    state.apply(Action::Edit(Edit::AddMeasurement));
    let entry = state.scenario.get("calibration.0").expect("a measurement");
    let inputs = &state.good.as_ref().expect("a result").inputs;
    assert_eq!(entry["scenario"]["parallelism"]["tp"], json!(4));
    assert_eq!(entry["scenario"]["cluster"]["chips"], json!(inputs.cluster.n_chips));
    assert_eq!(entry["scenario"]["training"]["global_batch"], json!(inputs.training.global_batch));
    assert_eq!(entry["scenario"]["model"], state.scenario.get("model").unwrap_or(Value::Null));
    assert_eq!(entry["measured"], json!({ "step_s": null }));
    set(&mut state, "calibration.0.measured.step_s", json!(12.5));
    state.apply(Action::Edit(Edit::MeasurementMetric { at: 0, key: "mfu".into() }));
    assert_eq!(state.scenario.get("calibration.0.measured"), Some(json!({ "mfu": 12.5 })));
    state.apply(Action::Edit(Edit::MeasurementMetric { at: 0, key: "no-such".into() }));
    assert_eq!(state.scenario.get("calibration.0.measured"), Some(json!({ "mfu": 12.5 })));
    state.apply(Action::Edit(Edit::MeasurementModel { at: 0, preset: "llama3-70b".into() }));
    assert_eq!(
        state.scenario.get("calibration.0.scenario.model"),
        Some(json!({ "preset": "llama3-70b" }))
    );
    let before = state.scenario.clone();
    state.apply(Action::Edit(Edit::RemoveMeasurement { at: 0 }));
    assert_eq!(state.scenario.get("calibration"), None);
    assert_eq!(state.notice, Some(Notice::Removed(Removed::Measurement { n: 1 })));
    state.apply(Action::Undo);
    assert_eq!(state.scenario, before);
}

/// The model's optional blocks: ticked, each starts from its published figures and the model
/// has it; unticked, the model has none, even where its preset had one.
#[test]
fn optional_blocks_start_from_their_figures_and_turn_off() {
    use clusterplan::app::state::{Block, Edit};
    let mut state = fresh();
    let t = |s: &State| s.good.as_ref().expect("a result").inputs.transformer;
    for (block, has) in [
        (Block::Vision, (|t: clusterplan::model::Transformer| t.vision.is_some()) as fn(_) -> bool),
        (Block::CrossAttention, |t| t.cross.is_some()),
        (Block::Moe, |t| t.moe.is_some()),
    ] {
        assert!(!has(t(&state)), "{block:?} is off in the default plan");
        state.apply(Action::Edit(Edit::Block { block, on: true }));
        assert!(state.errors.is_empty(), "{block:?}: {:?}", state.errors);
        assert!(has(t(&state)), "{block:?} on");
        state.apply(Action::Edit(Edit::Block { block, on: false }));
        assert!(!has(t(&state)), "{block:?} off");
    }
    set(&mut state, "model", json!({ "preset": "mixtral-8x7b" }));
    assert!(t(&state).moe.is_some());
    state.apply(Action::Edit(Edit::Block { block: Block::Moe, on: false }));
    assert!(t(&state).moe.is_none(), "off overrides the preset");
}

/// A measurement the judge refuses never reaches an estimate: the plan shows its days without
/// it, through a switch of system and back, on side B of a comparison, and in a fresh open of
/// the same scenario, where the refusal is named the same.
#[test]
fn a_refused_measurement_is_inert_everywhere() {
    use clusterplan::app::state::Edit;
    let mut state = fresh();
    state.apply(Action::ChooseModel("llama3-70b".into()));
    set(&mut state, "cluster.chips", json!(4096));
    state.apply(Action::Compare);
    state.apply(Action::ChooseSystem("kuae-s4000".into()));
    let own = estimate(&state).train_days;
    state.apply(Action::Edit(Edit::AddMeasurement));
    set(&mut state, "calibration.0.scenario.cluster.chips", json!(1024));
    set(&mut state, "calibration.0.measured.step_s", json!(20));
    assert!(
        state.errors.iter().any(|e| e.field.starts_with("calibration.0")),
        "a step the chip cannot reach is refused: {:?}",
        state.errors
    );
    assert_eq!(estimate(&state).train_days, own, "and not applied");
    state.apply(Action::ChooseSystem("dgx-h100".into()));
    let h100 = estimate(&state).train_days;
    assert_ne!(h100, own);
    state.apply(Action::ChooseSystem("kuae-s4000".into()));
    assert_eq!(estimate(&state).train_days, own, "the S4000 shows its own days again");
    let refused: Vec<String> = state.errors.iter().map(|e| e.field.clone()).collect();
    assert!(refused.iter().any(|f| f.starts_with("calibration.0")), "{refused:?}");
    // Side A stays what was pinned; side B is the S4000's own plan.
    let a = state.pinned.as_ref().and_then(|p| p.good.clone()).expect("side A");
    assert_ne!(a.estimate.train_days, own);
    // A fresh open of the scenario (a link, a reload, a saved file) shows the same.
    let opened = State::new(state.scenario.clone(), None);
    assert_eq!(estimate(&opened).train_days, own);
    assert_eq!(opened.errors, state.errors);
}

/// Typed edits are undone as a whole: the keys typed into one box are one step, another field
/// starts another, Redo goes forward again, and opening a link is a step too.
#[test]
fn undo_covers_typed_edits_and_opened_links() {
    let mut state = fresh();
    for typed in [1, 10, 100, 1000, 10000] {
        set(&mut state, "cluster.chips", json!(typed));
    }
    assert_eq!(state.undo.len(), 1, "one box typed into is one step");
    set(&mut state, "parallelism.tp", json!(4));
    set(&mut state, "cluster.chips", json!(2048));
    assert_eq!(state.undo.len(), 3);
    let last = state.scenario.clone();
    state.apply(Action::Undo);
    state.apply(Action::Undo);
    assert_eq!(state.scenario.get("cluster.chips"), Some(json!(10000)));
    assert_eq!(state.scenario.get("parallelism.tp"), Some(json!(8)));
    state.apply(Action::Undo);
    assert_eq!(state.scenario, Scenario::default_plan());
    state.apply(Action::Redo);
    state.apply(Action::Redo);
    state.apply(Action::Redo);
    assert_eq!(state.scenario, last);
    let history = state.history;
    state.apply(Action::Open(Box::new(Scenario::default_plan())));
    assert_eq!(state.history, history, "the browser already holds the link's entry");
    assert!(state.notice.as_ref().is_some_and(Notice::undoable));
    state.apply(Action::Undo);
    assert_eq!(state.scenario, last, "opening a link is undone");
}

/// A plan that trains on two pools, serves and post-trains, so every section has something
/// to show.
fn every_section() -> Scenario {
    Scenario::from_value(json!({
        "model": { "preset": "llama3-8b" },
        "training": { "tokens": 1e12, "global_batch": 256 },
        "cluster": { "chip": "h100-sxm", "chips": 64, "pools": [{ "chip": "ascend-910b", "chips": 64 }] },
        "parallelism": { "tp": 2 },
        "serving": { "tokens_per_day": 1e9, "tpot_ms": 100 },
        "rl": { "generation_tokens": 1024 },
        "year": { "weeks": 12, "deliveries": [{ "chip": "h100-sxm", "chips": 64 }],
                  "jobs": [{ "name": "train", "deadline": 1 },
                           { "name": "chat", "kind": "serve", "tokens_per_day": 1e9 }] },
    }))
    .expect("a scenario")
}

/// Each section a plan shows on every edit (`app::Drawn`), drawn by the worker, sent as an
/// update and read back as the page reads it, is the same typed value; and each has something
/// to show, so the comparison could fail.
#[test]
fn every_drawn_section_survives_the_wire() {
    use clusterplan::app::jobs::Job;
    use clusterplan::app::{wire, Task};
    use clusterplan::charts::Kind;
    for (dark, width) in [(true, 600), (false, 1200)] {
        let task = Task::Plots { scenario: every_section(), dark, width };
        let mut job = Job::start(&task).expect("starts");
        while !job.step() {}
        let drawn = job.plots().cloned().expect("drawn");
        assert_eq!(drawn.error, None);
        let read = wire::drawn(&job.update(true)).expect("the page reads it");
        let kinds: Vec<Kind> = drawn.plots.drawn.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, Kind::ALL, "every plot, each by its kind");
        assert!(drawn.plots.drawn.iter().all(|(_, svg)| svg.starts_with("<svg")));
        assert_eq!(read.plots, drawn.plots, "plots");
        assert!(drawn.sketch.as_ref().is_some_and(|s| s.starts_with("<svg")));
        assert_eq!(read.sketch, drawn.sketch, "sketch");
        assert!(drawn.timeline.svg.starts_with("<svg"));
        assert_eq!(read.timeline, drawn.timeline, "timeline");
        let insights = &drawn.insights;
        assert!(
            !insights.sensitivity.table.rows.is_empty() && !insights.network.table.rows.is_empty()
        );
        assert!(insights.network.said.is_some());
        assert_eq!(read.insights, drawn.insights, "insight");
        let served = drawn.served.as_ref().expect("serves and post-trains");
        let serving = served.serving.as_ref().expect("serves");
        assert!(!serving.cards.tpot.value.is_empty() && !serving.cards.chips.value.is_empty());
        assert!(!serving.deployments.table.head.is_empty() && serving.frontier.starts_with("<svg"));
        let step = &serving.step.rows;
        assert!(step.len() >= 3 && step.iter().all(|r| r.cells.len() == 3), "{step:?}");
        assert_eq!(step.last().map(|r| r.testid.as_str()), Some("serving-step-total"));
        assert!(served.rl.as_ref().is_some_and(|r| !r.cards.step.value.is_empty()));
        assert!(!served.csv.is_empty());
        assert_eq!(read.served, drawn.served, "serving");
        assert!(drawn.fleet.as_ref().is_some_and(|f| f.cards.len() == 2), "{:?}", drawn.fleet);
        assert_eq!(read.fleet, drawn.fleet, "fleet");
        assert!(drawn.failures.as_ref().is_some_and(|f| !f.svg.is_empty()));
        assert_eq!(read.failures, drawn.failures, "failures");
        let year = drawn.year.as_ref().expect("a year");
        assert!(year.errors.is_empty(), "{:?}", year.errors);
        assert!(year.fleet_svg.starts_with("<svg") && year.gantt_svg.starts_with("<svg"));
        assert_eq!(year.jobs.rows.len(), 2);
        assert!(year.buy.is_some() && !year.csv.is_empty() && !year.said.is_empty());
        assert_eq!(read.year, drawn.year, "year");
        assert_eq!(read, drawn, "the whole");
    }
    // The page's reader takes what it is sent, never panicking: garbage reads as nothing, an
    // update still under way or with an error is not shown, and parts that are missing or of
    // the wrong kind read as empty.
    assert_eq!(wire::drawn("not json"), None);
    assert_eq!(wire::drawn(r#"{"done": true, "result": 5}"#), None);
    assert_eq!(wire::drawn(r#"{"done": false, "result": {}}"#), None);
    assert_eq!(wire::drawn(r#"{"done": true, "result": {"error": "no"}}"#), None);
    let odd = r#"{"done": true, "result": {"plots": [["step", 1], ["nowhere", "<svg/>"], 3],
        "served": {"serving": {"cards": 7}}, "insights": [], "timeline": false}}"#;
    let odd = wire::drawn(odd).expect("an object reads");
    assert!(odd.plots.drawn.is_empty(), "{:?}", odd.plots);
    assert_eq!(odd.served.and_then(|s| s.serving).map(|s| s.cards), Some(Default::default()));
    assert_eq!(odd.timeline.svg, "");
}

/// A target missed is said on its own card: a first token wanted within a millisecond marks
/// the TTFT card alone, with the sentence the problem gives.
#[test]
fn a_missed_target_is_said_on_its_card() {
    use clusterplan::app::jobs::Job;
    use clusterplan::app::Task;
    let asked = every_section().with(&fields::SERVING_TTFT_MS, Some(json!(1)));
    let mut job =
        Job::start(&Task::Plots { scenario: asked, dark: false, width: 800 }).expect("starts");
    while !job.step() {}
    let drawn = job.plots().expect("drawn");
    let cards = &drawn.served.as_ref().and_then(|s| s.serving.as_ref()).expect("serves").cards;
    assert!(cards.ttft.missed.as_ref().is_some_and(|s| !s.is_empty()), "{:?}", cards.ttft);
    assert_eq!(cards.tpot.missed, None);
    assert_eq!(cards.throughput.missed, None);
}

/// Every section that is a job of its own (a search, a sizing, the accuracy report, a
/// comparison, the fleet's question, a sizing by power, a launch and a log read) reaches the
/// page as the worker made it: each view, sent as an update and read back as the page reads
/// it, is the same value.
#[test]
fn every_view_survives_the_wire() {
    use clusterplan::app::jobs::Job;
    use clusterplan::app::{Status, Task, View};
    use clusterplan::model::search::Objective;
    let plan = || every_section().with(clusterplan::scenario::paths::CLUSTER_POOLS, None);
    let b = plan().with(&fields::CLUSTER_CHIPS, Some(json!(128)));
    let tasks = [
        Task::Search { scenario: plan(), objective: Objective::TrainDays, top: 3 },
        Task::Size {
            scenario: plan(),
            deadline_days: 20.0,
            chips: vec![None, Some("no-such-chip".into())],
            dark: false,
        },
        Task::Validate,
        Task::Compare { pair: Box::new((plan(), b)), dark: false },
        Task::AddToFleet { scenario: plan(), chip: "ascend-910b".into(), deadline_days: 5.0 },
        Task::SizePower { scenario: plan(), power_mw: 5.0, chips: vec![None] },
        Task::Launch { scenario: plan(), framework: "megatron".into() },
        Task::Measure {
            scenario: plan(),
            logs: vec![(
                "run.log".into(),
                std::fs::read_to_string("tests/data/logs/megatron-core-0.15-fp8.log").expect("log"),
            )],
        },
    ];
    for task in tasks {
        let mut job = Job::start(&task).expect("starts");
        while !job.step() {}
        let view = job.view(true);
        assert_ne!(view, View::default(), "{task:?} shows something");
        let read = Status::started().read(&job.update(true));
        assert!(read.errors.is_empty(), "{:?}", read.errors);
        assert_eq!(read.result.as_ref(), Some(&view), "{task:?}");
    }
}

/// The year panel's edits: a job added takes the next free name and is of the kind asked; a
/// job renamed is followed by the jobs that ran after it; a job removed frees them, says so and
/// Undo brings it back; a delivery added repeats the last a quarter later, the cluster written
/// out first where the year had none; an edit of an entry the list lacks changes nothing.
#[test]
fn the_year_is_edited_job_by_job_and_delivery_by_delivery() {
    use clusterplan::app::edits::example_year;
    use clusterplan::app::state::{Edit, Removed};
    let mut state = fresh();
    let year = example_year(&state.scenario);
    set(&mut state, "year", year);
    let job = |s: &State, i: usize, key: &str| s.scenario.get(&format!("year.jobs.{i}.{key}"));
    state.apply(Action::Edit(Edit::AddYearJob { serve: false }));
    state.apply(Action::Edit(Edit::AddYearJob { serve: true }));
    assert_eq!(job(&state, 3, "name"), Some(json!("job 4")));
    assert_eq!(job(&state, 3, "kind"), Some(json!("fine_tune")));
    let tokens = state.good.as_ref().expect("a result").inputs.training.tokens;
    let tuned = job(&state, 3, "scenario.training.tokens").expect("its tokens");
    let tuned = clusterplan::numbers::parse(tuned.as_str().expect("written as people write it"));
    let hundredth = tokens / 100.0;
    assert!(tuned.is_ok_and(|t| (t / hundredth - 1.0).abs() < 0.005), "{tuned:?} of {tokens}");
    assert_eq!(job(&state, 4, "name"), Some(json!("job 5")));
    assert_eq!(job(&state, 4, "kind"), Some(json!("serve")));
    set(&mut state, "year.jobs.3.name", json!("job 6"));
    state.apply(Action::Edit(Edit::AddYearJob { serve: false }));
    assert_eq!(job(&state, 5, "name"), Some(json!("job 7")), "a name no job has");

    // A job's own model is the preset alone, whatever keys the plan's model has, before the
    // job's model is chosen or after.
    let preset = Some("llama3-8b".to_string());
    for layers_first in [true, false] {
        state.apply(Action::Set(vec![("model.layers".into(), None)]));
        if layers_first {
            set(&mut state, "model.layers", json!(40));
        }
        state.apply(Action::Edit(Edit::YearJobModel { at: 3, preset: preset.clone() }));
        set(&mut state, "model.layers", json!(40));
        let model = job(&state, 3, "scenario.model").expect("the job's model");
        assert_eq!(model, json!({ "preset": "llama3-8b" }));
        let plan = state.scenario.year().expect("reads").expect("a year");
        let read = &plan.jobs[3].scenario;
        assert_eq!(read.model.preset, Some(json!("llama3-8b")));
        assert_eq!(read.model.layers, None, "the plan's layers are not the job's");
    }
    state.apply(Action::Edit(Edit::YearJobModel { at: 3, preset: None }));
    assert_eq!(job(&state, 3, "scenario.model"), None);
    state.apply(Action::Set(vec![("model.layers".into(), None)]));

    state.apply(Action::Edit(Edit::RenameYearJob { at: 0, name: " base ".into() }));
    assert_eq!(job(&state, 0, "name"), Some(json!("base")));
    assert_eq!(job(&state, 1, "after"), Some(json!("base")), "RL follows the new name");
    let unchanged = state.scenario.clone();
    state.apply(Action::Edit(Edit::RenameYearJob { at: 0, name: "chat".into() }));
    state.apply(Action::Edit(Edit::RenameYearJob { at: 0, name: "  ".into() }));
    state.apply(Action::Edit(Edit::RenameYearJob { at: 9, name: "x".into() }));
    state.apply(Action::Edit(Edit::RemoveYearJob { at: 9 }));
    state.apply(Action::Edit(Edit::RemoveDelivery { at: 9 }));
    assert_eq!(state.scenario, unchanged, "no blank or taken name, no job or delivery 10");

    let before = state.scenario.clone();
    state.apply(Action::Edit(Edit::RemoveYearJob { at: 0 }));
    assert_eq!(job(&state, 0, "name"), Some(json!("rl")));
    assert_eq!(job(&state, 0, "after"), None, "RL starts on its own");
    assert_eq!(state.notice, Some(Notice::Removed(Removed::YearJob { n: 1 })));
    state.apply(Action::Undo);
    assert_eq!(state.scenario, before);

    let deliveries =
        |s: &State| s.scenario.get("year.deliveries").and_then(|v| v.as_array().cloned());
    let last = deliveries(&state).and_then(|d| d.last().cloned()).expect("a delivery");
    state.apply(Action::Edit(Edit::AddDelivery));
    let added = deliveries(&state).and_then(|d| d.last().cloned()).expect("a delivery");
    assert_eq!(added["chip"], last["chip"]);
    assert_eq!(added["chips"], last["chips"]);
    assert_eq!(added["week"], json!(last["week"].as_u64().unwrap() + 13));
    state.apply(Action::Edit(Edit::RemoveDelivery { at: 2 }));
    assert_eq!(state.notice, Some(Notice::Removed(Removed::Delivery { n: 3 })));
    assert_eq!(state.scenario, before);

    set(&mut state, "year.deliveries", Value::Null);
    state.apply(Action::Edit(Edit::AddDelivery));
    let chips = state.good.as_ref().expect("a result").inputs.cluster.n_chips;
    assert_eq!(
        state.scenario.get("year.deliveries"),
        Some(json!([{ "chip": "cluster", "chips": chips, "week": 0 },
            { "chip": "cluster", "chips": chips, "week": 13 }]))
    );
    state.apply(Action::Edit(Edit::RemoveDelivery { at: 1 }));
    state.apply(Action::Edit(Edit::RemoveDelivery { at: 0 }));
    assert_eq!(state.scenario.get("year.deliveries"), None, "the cluster in week 0 again");

    // A first cap is the cluster's site at its own draw, rounded up to a megawatt; the next
    // repeats the last a quarter later.
    let mw = (estimate(&state).facility.power.facility_w / 1e6).ceil();
    state.apply(Action::Edit(Edit::AddPowerCap));
    set(&mut state, "year.power.0.site", json!("A"));
    state.apply(Action::Edit(Edit::AddPowerCap));
    assert_eq!(
        state.scenario.get("year.power"),
        Some(json!([{ "week": 0, "mw": mw, "site": "A" }, { "site": "A", "mw": mw, "week": 13 }]))
    );
    state.apply(Action::Edit(Edit::RemovePowerCap { at: 1 }));
    assert_eq!(state.notice, Some(Notice::Removed(Removed::PowerCap { n: 2 })));
    state.apply(Action::Edit(Edit::RemovePowerCap { at: 0 }));
    assert_eq!(state.scenario.get("year.power"), None);

    // A year listing no jobs runs the plan's training: a job added writes it out first; the
    // last job removed leaves a year of none.
    state.apply(Action::Set(vec![("year.jobs".into(), None)]));
    state.apply(Action::Edit(Edit::AddYearJob { serve: true }));
    assert_eq!(job(&state, 0, "name"), Some(json!("training")));
    assert_eq!(job(&state, 1, "name"), Some(json!("job 2")));
    state.apply(Action::Edit(Edit::RemoveYearJob { at: 1 }));
    state.apply(Action::Edit(Edit::RemoveYearJob { at: 0 }));
    assert_eq!(state.scenario.get("year.jobs"), Some(json!([])));
    let plan = state.scenario.year().expect("reads").expect("a year");
    assert!(plan.jobs.is_empty(), "no job, not the plan's training");
}

/// The year's lists stop at their bounds: no job past `MAX_JOBS`, no delivery or power cap past
/// `MAX_DELIVERIES` or the horizon.
#[test]
fn the_year_form_adds_no_more_than_a_year_holds() {
    use clusterplan::app::state::Edit;
    use clusterplan::scenario::year::{
        cap_added, delivery_added, job_added, MAX_DELIVERIES, MAX_JOBS,
    };
    let jobs = (0..MAX_JOBS + 3).fold(Vec::new(), |jobs, _| job_added(Some(jobs), false, 1e12));
    assert_eq!(jobs.len(), MAX_JOBS);
    // A five-year horizon holds more than the list's bound of quarters apart.
    let deliveries = (0..MAX_DELIVERIES + 3).fold(Vec::new(), |d, _| delivery_added(d, 64, 260));
    assert_eq!(deliveries.len(), 20, "a quarter apart, 20 fit in 260 weeks");
    assert_eq!(deliveries[1]["week"], json!(13));
    let caps = (0..MAX_DELIVERIES + 3).fold(Vec::new(), |c, _| cap_added(c, 30.0, 52));
    assert_eq!(caps.len(), 4, "weeks 0, 13, 26 and 39 of 52");
    // A week written as people write it is read as one.
    let later = delivery_added(vec![json!({ "chip": "b200", "chips": 8, "week": "20" })], 8, 52);
    assert_eq!(later[1]["week"], json!(33));
    let later = delivery_added(vec![json!({ "chip": "b200", "chips": 8, "week": 20.0 })], 8, 52);
    assert_eq!(later[1]["week"], json!(33));

    // The form shows an Add only where it would change the year: not past the horizon, not
    // at a list's bound.
    let mut s = Scenario::default_plan();
    let adds = |s: &Scenario| {
        [Edit::AddDelivery, Edit::AddPowerCap, Edit::AddYearJob { serve: false }]
            .map(|e| e.changes_anything(s, None))
    };
    s.year = Some(json!({ "weeks": 52, "deliveries": [{ "chip": "b200", "chips": 8, "week": 20 }],
        "power": [{ "week": 0, "mw": 30 }] }));
    assert_eq!(adds(&s), [true, true, true]);
    s.year = Some(json!({ "weeks": 52, "deliveries": [{ "chip": "b200", "chips": 8, "week": 40 }],
        "power": [{ "week": 40, "mw": 30 }], "jobs": jobs }));
    assert_eq!(adds(&s), [false, false, false], "week 53 is past the horizon; jobs are full");
}
