//! The page's worker jobs, driven natively exactly as the worker drives them: requests survive
//! their JSON, a search and a sizing run to the end in slices, and the page's status reads
//! every update, including broken ones.

use clusterplan::app::jobs::{self, Job};
use clusterplan::app::{self, Status, Task};
use clusterplan::model::search::Objective;
use clusterplan::scenario::fields;
use clusterplan::scenario::Scenario;

fn scenario() -> Scenario {
    Scenario::parse_many(
        r#"{ "model": { "preset": "llama3-8b" }, "training": { "tokens": 1e12, "global_batch": 256 },
             "cluster": { "chip": "h100-sxm", "chips": 64 }, "parallelism": { "tp": 2 } }"#,
    )
    .expect("parses")
    .remove(0)
}

#[test]
fn requests_survive_their_json() {
    for request in [
        Task::Search { scenario: scenario(), objective: Objective::Cost, top: 7 },
        Task::Size {
            scenario: scenario(),
            deadline_days: 12.5,
            chips: vec![None, Some("b200".into())],
            dark: true,
        },
        Task::Validate,
        Task::Compare { pair: Box::new((scenario(), scenario())), dark: true },
        Task::SizePower {
            scenario: scenario(),
            power_mw: 12.5,
            chips: vec![None, Some("b200".into())],
        },
        Task::Launch { scenario: scenario(), framework: "torchtitan".into() },
        Task::Measure {
            scenario: scenario(),
            logs: vec![("run.log".into(), "iteration 1/ 2 | \u{0} \"quoted\"\n".into())],
        },
    ] {
        assert_eq!(Task::from_json(&request.to_json()), Ok(request));
    }
    for bad in
        ["", "[]", r#"{"search": {"objective": "fastest"}}"#, r#"{"size": {"deadline_days": -1}}"#]
    {
        assert!(Task::from_json(bad).is_err(), "{bad}");
    }
    // As the worker receives a task: in the page's language, asking for a sizing's parts.
    let asked = app::Ask {
        lang: Some("zh-CN".into()),
        parts: true,
        workers: Some(3),
        task: Ok(Task::Validate),
    };
    assert_eq!(app::Ask::from_json(&asked.to_json()), asked);
    let plain = app::Ask::new(&Task::Validate, "en");
    assert_eq!(app::Ask::from_json(&plain.to_json()), plain);
    let garbled = app::Ask::from_json("not json");
    assert!(garbled.task.is_err() && garbled.lang.is_none() && !garbled.parts);
}

#[test]
fn a_search_runs_in_slices_to_the_same_end_as_the_command_line() {
    let request = Task::Search { scenario: scenario(), objective: Objective::TrainDays, top: 5 };
    let mut job = Job::start(&request).expect("starts");
    let mut status = Status::started();
    let mut slices = 0;
    let mut last = 0.0;
    while !job.step() {
        slices += 1;
        status = status.read(&job.update(false));
        assert!(status.running && status.progress >= last, "progress never goes back");
        last = status.progress;
    }
    status = status.read(&job.update(true));
    assert!(slices > 1 && !status.running && status.progress == 1.0);
    let view = status.result.expect("a result");
    let rows = &view.table.as_ref().expect("a table").rows;
    assert_eq!(rows.len(), 5);
    // The page's rows are the command line's plans, in order; each row carries the scenario
    // Apply opens, which estimates to the plan's own days.
    let result = jobs::run(&request).expect("runs");
    let plans = result["plans"].as_array().expect("plans");
    assert_eq!(plans.len(), rows.len());
    for (row, plan) in rows.iter().zip(plans) {
        let applied = &row.apply.as_ref().expect("an Apply").scenario;
        let (_, e) = applied.estimated().expect("the applied plan is valid");
        let days = plan["estimate"]["train_days"].as_f64().unwrap();
        assert!((e.train_days - days).abs() <= 1e-9 * days);
        assert_eq!(row.cells[2], format!("{days:.1}"));
    }
}

/// The page's view of a search, worded from the typed result as the worker words it: the
/// counts, where the typed plan ranks, and one row per ranked plan whose Apply opens a
/// scenario that estimates to the days the row shows.
#[test]
fn the_page_view_of_a_search_is_worded_from_the_typed_result() {
    let request = Task::Search { scenario: scenario(), objective: Objective::TrainDays, top: 5 };
    let mut job = Job::start(&request).expect("starts");
    while !job.step() {}
    let view = job.view(true);
    let lines: Vec<&str> = view.lines.iter().map(|l| l.text.as_str()).collect();
    assert!(lines.iter().any(|l| l.contains("plans tried")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("Yours is")), "{lines:?}");
    let rows = &view.table.as_ref().expect("a table").rows;
    assert_eq!(rows.len(), 5);
    for (i, row) in rows.iter().enumerate() {
        let cells = &row.cells;
        assert_eq!(cells[0], (i + 1).to_string());
        assert!(cells[1].starts_with("TP ") && cells[1].contains("PP "), "{cells:?}");
        let applied = &row.apply.as_ref().expect("an Apply").scenario;
        let (_, e) = applied.estimated().expect("the applied plan is valid");
        assert_eq!(cells[2], format!("{:.1}", e.train_days));
    }
}

/// A typed plan with more than `RANK_COUNTED` plans ahead of it is said to be beyond them,
/// with how far it is behind the best.
#[test]
fn a_typed_plan_far_behind_is_worded_as_beyond_the_plans_counted() {
    let far = Scenario::parse_many(
        r#"{ "model": { "preset": "llama3-8b" }, "training": { "tokens": 1e12, "global_batch": 256 },
             "cluster": { "chip": "h100-sxm", "chips": 64 }, "parallelism": { "tp": 8, "pp": 8 } }"#,
    )
    .expect("parses")
    .remove(0);
    let request = Task::Search { scenario: far, objective: Objective::TrainDays, top: 5 };
    let mut job = Job::start(&request).expect("starts");
    while !job.step() {}
    let view = job.view(true);
    let yours = view.lines.iter().map(|l| l.text.as_str()).find(|l| l.starts_with("Yours"));
    let yours = yours.expect("the typed plan's line");
    assert!(yours.starts_with("Yours is beyond the 1,000th of "), "{yours}");
    assert!(yours.contains("slower than the best"), "{yours}");
}

#[test]
fn a_sizing_gives_a_row_and_a_curve_per_chip() {
    let request = Task::Size {
        scenario: scenario(),
        deadline_days: 20.0,
        chips: vec![None, Some("b200".into()), Some("no-such-chip".into())],
        dark: false,
    };
    let result = jobs::run(&request).expect("runs");
    let rows = result["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["chip"], "h100-sxm");
    assert!(rows[0]["apply_chip"].is_null(), "the scenario's own chip, as it is");
    assert_eq!(rows[1]["apply_chip"], "b200");
    for row in &rows[..2] {
        let days = row["effective_train_days"].as_f64().expect("days");
        assert!(days <= 20.0);
        let sized = Scenario::from_value(row["scenario"].clone()).expect("a scenario");
        assert_eq!(sized.get("cluster.chips").and_then(|v| v.as_u64()), row["chips"].as_u64());
    }
    assert!(rows[2]["chips"].is_null());
    // The page names the field in words, not by its key.
    let why = rows[2]["why"].as_str().expect("why");
    assert!(why.contains("Accelerator") && !why.contains("cluster.chip"), "{why}");
    assert_eq!(result["curves"].as_array().map(Vec::len), Some(2));
}

/// A sizing no cluster meets because the largest batch accepted keeps more chips from going
/// faster says so, with the days failures add at that size, and offers to accept twice the
/// batch; accepted, the fastest cluster found is faster.
#[test]
fn a_sizing_held_back_by_the_batch_says_so_and_offers_a_larger_one() {
    let held = Scenario::parse_many(
        r#"{ "model": { "preset": "llama3-405b" }, "training": { "tokens": "15.6T", "global_batch": 2048 },
             "cluster": { "chip": "h100-sxm", "chips": 16384 }, "parallelism": {} }"#,
    )
    .expect("parses")
    .remove(0);
    let request =
        Task::Size { scenario: held.clone(), deadline_days: 10.0, chips: vec![None], dark: false };
    let mut job = Job::start(&request).expect("starts");
    while !job.step() {}
    let view = job.view(true);
    let row = &view.table.as_ref().expect("a table").rows[0];
    let why = row.cells.last().expect("why");
    assert!(why.contains("The batch is the limit: 8,192 sequences (67.1 M tokens)"), "{why}");
    assert!(why.contains("Failures and restarts add"), "{why}");
    let apply = row.apply.as_ref().expect("an offer to accept a larger batch");
    assert_eq!(apply.testid, "size-raise-batch");
    let raised = &apply.scenario;
    let tokens = raised.get(fields::TRAINING_MAX_GLOBAL_BATCH_TOKENS.path).and_then(|v| v.as_f64());
    assert_eq!(tokens, Some(2.0 * 8192.0 * 8192.0));
    let fastest = |s: &Scenario| match clusterplan::sizing::size(s, None, 10.0).expect("sizes") {
        clusterplan::sizing::Answer::Misses { fastest: Some(p), batch } => {
            (p.best.expect("a plan").effective_train_days, batch)
        }
        other => panic!("{other:?}"),
    };
    let (before, batch) = fastest(&held);
    assert!(batch.is_some());
    let (after, _) = fastest(raised);
    assert!(after < 0.95 * before, "{after} days against {before}");
}

/// The page's sizing by power: the largest cluster of each chip whose site is provisioned
/// within the power, its row applying that cluster with its plan; a power too small for one
/// node says so.
#[test]
fn a_sizing_by_power_gives_the_largest_cluster_of_each_chip() {
    let request = Task::SizePower {
        scenario: scenario(),
        power_mw: 5.0,
        chips: vec![None, Some("ascend-910b".into())],
    };
    let result = jobs::run(&request).expect("runs");
    let rows = result["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    for row in rows {
        let chips = row["chips"].as_u64().expect("a size");
        assert!(chips >= 8 && row["provisioned_mw"].as_f64().is_some_and(|mw| mw <= 5.0), "{row}");
        let sized = Scenario::from_value(row["scenario"].clone()).expect("a scenario");
        assert_eq!(sized.get("cluster.chips").and_then(|v| v.as_u64()), Some(chips));
        let (_, e) = sized.estimated().expect("evaluates");
        assert!(e.facility.design.provisioned_w <= 5e6, "{row}");
    }
    let mut job = Job::start(&request).expect("starts");
    while !job.step() {}
    let view = job.view(true);
    let table = view.table.as_ref().expect("a table");
    assert_eq!(table.testid, "size-power-table");
    assert!(table.rows.iter().all(|r| r.apply.is_some()), "{view:?}");
    let tiny = Task::SizePower { scenario: scenario(), power_mw: 0.001, chips: vec![None] };
    let none = jobs::run(&tiny).expect("runs");
    assert!(none["rows"][0]["chips"].is_null() && none["rows"][0]["why"].is_string(), "{none}");
}

/// A job starts from the plan the page shows: a refused field is set aside, as the page sets
/// it aside, so the search answers for the plan on screen rather than refusing.
#[test]
fn a_request_with_a_refused_field_searches_the_plan_shown() {
    let mut bad = scenario();
    bad.training.global_batch = Some(serde_json::json!(-5));
    let shown = clusterplan::evaluation::shown(&bad).expect("shown without it");
    assert!(shown.refused.iter().any(|e| e.field == "training.global_batch"));
    let task = Task::Search { scenario: bad, objective: Objective::TrainDays, top: 3 };
    let found = jobs::run(&task).expect("searches");
    let plans = found["plans"].as_array().expect("plans");
    assert!(!plans.is_empty(), "{found}");
    let batch = shown.good.inputs.training.global_batch;
    assert!(plans
        .iter()
        .all(|p| p["plan"]["global_batch"].as_u64().is_none_or(|b| b >= batch as u64)));
}

#[test]
fn the_status_reads_errors_and_garbage_without_panicking() {
    let started = Status::started();
    let failed = started.read(r#"{"done": true, "errors": ["the search could not start"]}"#);
    assert!(!failed.running && failed.errors == ["the search could not start"]);
    let garbage = started.read("not json");
    assert!(!garbage.running && !garbage.errors.is_empty());
    let partial = started.read(
        r#"{"done": false, "progress": 0.25, "result": {"lines": [{"testid": "t", "text": "so far"}]}}"#,
    );
    assert!(partial.running && partial.progress == 0.25);
    let said = partial.result.as_ref().map(|v| v.lines[0].text.as_str());
    assert_eq!(said, Some("so far"));
    // A result that is not a view is an error, and what was found before stays.
    let broken = partial.read(r#"{"done": false, "result": {"lines": "not a list"}}"#);
    assert!(!broken.running && !broken.errors.is_empty() && broken.result == partial.result);
    let cancelled = partial.cancelled();
    assert!(!cancelled.running && cancelled.result == partial.result, "what was found stays");
}

/// The accuracy table the page opens is the same report `clusterplan validate` prints.
#[test]
fn the_accuracy_job_predicts_every_published_row() {
    let report = jobs::run(&Task::Validate).expect("runs");
    let (runs, outcomes) = clusterplan::validation::run_all().expect("loads");
    let rows = report["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), outcomes.len());
    assert_eq!(report["runs"].as_array().map(Vec::len), Some(runs.len()));
    let within = rows.iter().filter(|r| r["within"] == true).count();
    assert_eq!(within, outcomes.iter().filter(|o| o.within()).count());
    assert_eq!(
        (within, rows.len()),
        (clusterplan::validation::digest::SUMMARY.0, clusterplan::validation::digest::SUMMARY.1)
    );
}

/// Plan A against plan B draws both steps on one axis and both scaling curves on one chart.
#[test]
fn a_comparison_draws_both_plans() {
    let b = scenario().with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(128)));
    let result =
        jobs::run(&Task::Compare { pair: Box::new((scenario(), b)), dark: true }).expect("runs");
    // The raw drawings, as the command line gets them (the page's are pictures).
    let step = result["step"].as_str().expect("the step drawing");
    assert!(step.starts_with("<svg") && step.contains("plan A against plan B"));
    assert!(step.contains(": A ") && step.contains(", B "), "both values in the legend");
    let scaling = result["scaling"].as_str().expect("the scaling drawing");
    assert!(scaling.contains("plan A") && scaling.contains("plan B"));
}

/// Whatever progress an update claims, the status shows a share between 0 and 1.
#[test]
fn progress_is_a_share_whatever_the_update_says() {
    let status = Status::started();
    for (claimed, shown) in [(7.0, 1.0), (-1.0, 0.0), (1e308, 1.0), (0.25, 0.25)] {
        let update = format!(r#"{{"done": false, "progress": {claimed}}}"#);
        assert_eq!(status.read(&update).progress, shown, "{claimed}");
    }
    let kept = status.read(r#"{"done": false, "progress": 0.5}"#);
    assert_eq!(kept.read(r#"{"done": false, "progress": "much"}"#).progress, 0.5);
}

/// A sizing of several chips split into one sizing per chip (as the page's worker runs them
/// side by side) and put back together from their parts gives the whole sizing's result and
/// view exactly: answers that meet, that miss with the fastest size found, and a chip that is
/// not in the catalog.
#[test]
fn a_sizing_split_by_chip_and_merged_is_the_whole_sizing() {
    let mut fastest_seen = 0;
    for deadline_days in [20.0, 0.2] {
        let request = Task::Size {
            scenario: scenario(),
            deadline_days,
            chips: vec![None, Some("mtt-s4000".into()), Some("no-such-chip".into())],
            dark: false,
        };
        let mut whole = Job::start(&request).expect("starts");
        while !whole.step() {}
        let parts: Vec<serde_json::Value> = Job::split(&request, 4)
            .expect("several chips split")
            .iter()
            .map(|one| {
                let mut job = Job::start(one).expect("starts");
                while !job.step() {}
                job.parts().expect("a sizing has parts")
            })
            .collect();
        let merged = Job::merged(&request, &parts).expect("merges");
        assert_eq!(merged.result(), whole.result(), "{deadline_days} days");
        assert_eq!(merged.view(true), whole.view(true), "{deadline_days} days");
        assert!((merged.progress() - 1.0).abs() < 1e-12);
        let rows = whole.result()["rows"].as_array().cloned().unwrap_or_default();
        fastest_seen += rows.iter().filter(|r| r["fastest"].is_object()).count();
        // Part of the parts: the chips done so far, in order.
        let first = Job::merged(&request, &parts[..1]).expect("merges");
        assert_eq!(first.result()["rows"].as_array().map(Vec::len), Some(1));
        assert!(first.progress() < 1.0);
    }
    assert!(fastest_seen > 0, "a chip that misses the deadline shows its fastest size");
    let one =
        Task::Size { scenario: scenario(), deadline_days: 5.0, chips: vec![None], dark: false };
    assert!(Job::split(&one, 4).is_none(), "one chip is sized in one job");
    assert!(Job::merged(&Task::Validate, &[]).is_err());
}

/// A typed plan the search beats by more than the model's error for plans of its kind gets a
/// word of caution, naming what the model is known to miss there; a typed plan near the best
/// gets none.
#[test]
fn a_plan_that_beats_yours_beyond_the_models_error_is_cautioned() {
    let note = |changes: &[(&str, serde_json::Value)]| {
        let mut s = scenario();
        for (path, value) in changes {
            s = s.with_at(path, Some(value.clone()));
        }
        let request = Task::Search { scenario: s, objective: Objective::TrainDays, top: 3 };
        let mut job = Job::start(&request).expect("starts");
        while !job.step() {}
        let view = job.view(true);
        view.lines.into_iter().find(|l| l.testid == "search-beyond-error").map(|l| l.text)
    };
    // Eight-way tensor and pipeline splits of an 8B model on 64 chips: far behind the best.
    let poor = [("parallelism.tp", serde_json::json!(8)), ("parallelism.pp", serde_json::json!(8))];
    let said = note(&poor).expect("a poor typed plan is cautioned");
    assert!(
        said.contains("more than the model's error") && !said.contains("known to miss"),
        "{said}"
    );
    let fsdp = [&poor[..], &[("parallelism.stack", serde_json::json!("pytorch-fsdp"))]].concat();
    let said = note(&fsdp).expect("cautioned on FSDP too");
    assert!(said.contains("known to miss here: FSDP runs spread both ways"), "{said}");
    assert_eq!(note(&[]), None, "the typed plan near the best is not cautioned");
}

/// The page's search on a pool of workers: split into a shard a worker, each shard's parts
/// put together, it shows the same ranked plans, front and typed plan's place as one worker's
/// search, and the pool's parts survive the wire.
#[test]
fn a_search_on_several_workers_shows_what_one_worker_shows() {
    for objective in [Objective::TrainDays, Objective::Cost] {
        let request = Task::Search { scenario: scenario(), objective, top: 5 };
        let one = jobs::run(&request).expect("runs");
        assert!(Job::split(&request, 1).is_none(), "one worker searches alone");
        for workers in [2, 3, 4] {
            let tasks = Job::split(&request, workers).expect("a shard a worker");
            assert_eq!(tasks.len(), workers);
            let parts: Vec<serde_json::Value> = tasks
                .iter()
                .map(|task| {
                    let sent = Task::from_json(&task.to_json()).expect("reads back");
                    let mut job = Job::start(&sent).expect("starts");
                    while !job.step() {}
                    job.parts().expect("a shard's parts")
                })
                .collect();
            let merged = Job::merged(&request, &parts).expect("puts together");
            let pool = merged.result();
            for key in ["plans", "pareto", "best_inside", "yours"] {
                assert_eq!(pool[key], one[key], "{workers} workers, {objective:?}: {key}");
            }
            let view = merged.view(true);
            let mut alone = Job::start(&request).expect("starts");
            while !alone.step() {}
            assert_eq!(view.table, alone.view(true).table, "{workers} workers: the page's table");
        }
    }
}

/// Searching a model's published plan: where the search finds a faster plan, the page says how
/// the model reads the published run and whether the gain is inside its error on runs like it
/// (DeepSeek-V3's plan, which the model reads about a fifth slow).
#[test]
fn a_plan_found_faster_than_a_published_one_is_weighed_against_the_models_error() {
    let (_, published) = clusterplan::validation::published_plan("deepseek-v3").expect("a plan");
    let task = Task::Search { scenario: published, objective: Objective::TrainDays, top: 5 };
    let mut job = Job::start(&task).expect("starts");
    while !job.step() {}
    let view = job.view(true);
    let said = view.lines.iter().find(|l| l.testid == "search-published");
    let yours = view.lines.iter().find(|l| l.testid == "search-yours").map(|l| l.text.clone());
    if let Some(l) = said {
        assert!(l.text.contains("DeepSeek-V3") && l.text.contains("slow"), "{}", l.text);
    } else {
        assert!(yours.as_deref().is_some_and(|y| y.starts_with("Yours is the best")), "{yours:?}");
    }
    // The notice of the loaded plan says the same reading.
    let mut state =
        clusterplan::app::state::State::new(clusterplan::scenario::Scenario::default_plan(), None);
    state.apply(clusterplan::app::state::Action::LoadPublishedPlan("deepseek-v3".into()));
    let notice = clusterplan::app::words::notice(state.notice.as_ref().expect("a notice"));
    assert!(notice.contains("slower than the run was"), "{notice}");
    state.apply(clusterplan::app::state::Action::LoadPublishedPlan("llama3-8b".into()));
    let notice = clusterplan::app::words::notice(state.notice.as_ref().expect("a notice"));
    assert!(notice.contains("faster than the run was") && notice.contains("tolerance"), "{notice}");
}

/// "Run this plan" in the worker: the launch's files as blocks to copy, where its ranks sit
/// and, for a framework that cannot say all of the plan, why; an unknown framework is refused.
#[test]
fn a_launch_job_gives_files_to_copy_and_what_it_cannot_say() {
    let request = Task::Launch { scenario: scenario(), framework: "megatron".into() };
    let mut job = Job::start(&request).expect("starts");
    while !job.step() {}
    let view = job.view(true);
    let names: Vec<&str> = view.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["launch.sh", "check.sh"]);
    assert!(
        view.blocks[0].text.contains("--tensor-model-parallel-size 2"),
        "{}",
        view.blocks[0].text
    );
    assert!(view.lines.iter().any(|l| l.testid == "launch-layout" && l.text.contains("8 ranks")));
    let mut serving = Job::start(&Task::Launch { scenario: scenario(), framework: "vllm".into() })
        .expect("starts");
    while !serving.step() {}
    let said = serving.view(true);
    assert!(said.blocks.is_empty());
    assert!(said.lines.iter().any(|l| l.bad && l.text.contains("serving")), "{:?}", said.lines);
    assert!(
        Job::start(&Task::Launch { scenario: scenario(), framework: "deepspeed".into() }).is_err()
    );
}

/// Logs read in the worker: a line for what each gave or why not, and the plan with the
/// measurements added as the view's Apply; a log of nothing offers nothing to apply.
#[test]
fn a_measure_job_words_each_log_and_offers_the_measured_plan() {
    let log = std::fs::read_to_string("tests/data/logs/megatron-core-0.15-fp8.log").expect("log");
    let request = Task::Measure {
        scenario: scenario(),
        logs: vec![("run.log".into(), log), ("noise.log".into(), "nothing\n".repeat(100))],
    };
    let mut job = Job::start(&request).expect("starts");
    while !job.step() {}
    let view = job.view(true);
    assert!(view.lines.iter().any(|l| l.testid == "measure-read" && l.text.contains("run.log")));
    assert!(view
        .lines
        .iter()
        .any(|l| l.testid == "measure-skipped" && l.bad && l.text.contains("noise.log")));
    let apply = view.apply.expect("the measured plan");
    let entries =
        apply.scenario.calibration.as_ref().and_then(|c| c.as_array()).map_or(0, Vec::len);
    assert_eq!(entries, 1);
    let request =
        Task::Measure { scenario: scenario(), logs: vec![("noise.log".into(), "x\n".into())] };
    let mut job = Job::start(&request).expect("starts");
    while !job.step() {}
    assert!(job.view(true).apply.is_none());
}
