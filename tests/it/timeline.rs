//! The step as a timeline: over generated plans, every stage's intervals follow one another
//! without overlap and sum to the step, each micro-batch passes forward and backward once a
//! chunk, in 1F1B order; `clusterplan timeline` prints it as Chrome trace JSON.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use crate::common::{random_scenario, Rng};
use clusterplan::evaluation;
use clusterplan::model::timeline::{timeline, Kind, MAX_CHUNKS, MAX_EVENTS};
use serde_json::Value;

#[test]
fn every_stage_sums_to_the_step_in_schedule_order() {
    let mut rng = Rng(0x7113_E11E);
    let mut checked = 0;
    for case in 0..300 {
        let s = random_scenario(&mut rng);
        let Ok(good) = evaluation::evaluate(&s) else { continue };
        let e = &good.estimate;
        let p = &good.inputs.parallelism;
        let events = timeline(e, p.pipeline, p.virtual_stages);
        let m = e.n_microbatches.max(1);
        for stage in 0..p.pipeline.max(1) {
            let mine: Vec<_> = events.iter().filter(|x| x.stage == stage).collect();
            let sum: f64 = mine.iter().map(|x| x.dur_s).sum();
            assert!(
                (sum - e.step_s).abs() <= 1e-9 * e.step_s.max(1e-12),
                "case {case}: {sum} != {}",
                e.step_s
            );
            for w in mine.windows(2) {
                assert!(w[1].start_s >= w[0].start_s + w[0].dur_s - 1e-12, "case {case}: overlap");
            }
            let last = mine.last().map_or(0.0, |x| x.start_s + x.dur_s);
            assert!(
                (last - e.step_s).abs() <= 1e-9 * e.step_s.max(1e-12),
                "case {case}: ends at {last}"
            );
            if e.breakdown.compute_s > 0.0 {
                // Every pass is shown (a chunk an interval, up to MAX_CHUNKS) or stands in the
                // summary of the steady state.
                let chunks =
                    if p.virtual_stages > MAX_CHUNKS { 1 } else { p.virtual_stages.max(1) };
                let shown: u64 = [Kind::Forward, Kind::Backward]
                    .iter()
                    .map(|k| mine.iter().filter(|x| x.kind == *k).count() as u64)
                    .sum();
                assert_eq!(shown % chunks as u64, 0, "case {case}: whole passes");
                let summarised: u64 = mine.iter().map(|x| x.passes).sum();
                assert_eq!(shown / chunks as u64 + summarised, 2 * m as u64, "case {case}");
                if summarised > 0 {
                    continue;
                }
                // 1F1B: micro-batch i's backward never comes before its forward, and a stage
                // holds at most as many forwards in flight as stages after it, plus one.
                let mut in_flight = 0i64;
                let mut most = 0i64;
                for x in mine.iter().filter(|x| x.chunk.unwrap_or(0) == 0) {
                    match x.kind {
                        Kind::Forward => in_flight += 1,
                        Kind::Backward => in_flight -= 1,
                        _ => {}
                    }
                    assert!(in_flight >= 0, "case {case}: a backward before its forward");
                    most = most.max(in_flight);
                }
                assert!(most <= (p.pipeline - stage) as i64, "case {case}: {most} in flight");
            }
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked} plans checked");
}

/// However many micro-batches, stages and chunks a plan has, its timeline holds about
/// `MAX_EVENTS` intervals and still sums to the step on every stage: the passes between the
/// first and last a stage shows stand in one summary of the steady state.
#[test]
fn the_timeline_is_bounded_whatever_the_plan() {
    use serde_json::json;
    let mut checked = 0;
    for (pp, batch, v, chips) in
        [(8, 30_000, 1, 8), (8, 100_000, 1, 8), (1024, 1_000_000, 1, 1024), (16, 65_536, 1024, 16)]
    {
        let s = clusterplan::scenario::Scenario::from_value(json!({
            "model": { "preset": "llama3-405b" },
            "training": { "tokens": "15.6T", "global_batch": batch },
            "cluster": { "chip": "h100-sxm", "chips": chips },
            "parallelism": { "tp": 1, "pp": pp, "virtual_stages": v },
        }))
        .expect("a scenario");
        let Ok(good) = evaluation::evaluate(&s) else { continue };
        let (e, p) = (&good.estimate, &good.inputs.parallelism);
        let events = timeline(e, p.pipeline, p.virtual_stages);
        assert!(
            events.len() <= MAX_EVENTS + 16 * p.pipeline as usize,
            "{pp} x {batch}: {}",
            events.len()
        );
        assert!(events.iter().any(|x| x.kind == Kind::Steady), "{pp} x {batch}: summarised");
        for stage in 0..p.pipeline {
            let sum: f64 = events.iter().filter(|x| x.stage == stage).map(|x| x.dur_s).sum();
            assert!((sum - e.step_s).abs() <= 1e-9 * e.step_s, "{pp} x {batch}: stage {stage}");
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}

fn trace(scenario: &clusterplan::scenario::Scenario) -> Value {
    common::cli_json(&["timeline", "-"], scenario)
}

/// The default plan (interleaved) and the same plan without interleaving, as traces: complete
/// events with names, microsecond times and a thread a stage that sum to the step within 1 %.
#[test]
fn the_trace_opens_in_a_trace_viewer_and_sums_to_the_step() {
    let interleaved = clusterplan::scenario::Scenario::default_plan();
    let plain = interleaved.with_at("parallelism.virtual_stages", Some(serde_json::json!(1)));
    for s in [interleaved, plain] {
        let good = evaluation::evaluate(&s).expect("the default plan resolves");
        let v = trace(&s);
        let events = v["traceEvents"].as_array().expect("traceEvents");
        let stages = good.inputs.parallelism.pipeline;
        let names = events.iter().filter(|e| e["ph"] == "M" && e["name"] == "thread_name").count();
        assert_eq!(names as u32, stages);
        let mut sums = vec![0.0; stages as usize];
        for e in events.iter().filter(|e| e["ph"] == "X") {
            assert!(e["name"].is_string() && e["cat"].is_string() && e["pid"].is_u64());
            let (ts, dur) = (e["ts"].as_f64().expect("ts"), e["dur"].as_f64().expect("dur"));
            assert!(ts >= 0.0 && dur > 0.0);
            sums[e["tid"].as_u64().expect("tid") as usize] += dur;
        }
        let step_us = good.estimate.step_s * 1e6;
        for (stage, sum) in sums.iter().enumerate() {
            assert!((sum - step_us).abs() <= 0.01 * step_us, "stage {stage}: {sum} of {step_us}");
        }
        let chunks = good.inputs.parallelism.virtual_stages;
        let chunked = events.iter().any(|e| e["args"]["chunk"].as_u64() == Some(1));
        assert_eq!(chunked, chunks > 1, "{chunks} virtual stages");
    }
}

/// The bars of a Gantt drawing: (y, x, width, title) of each `<rect>` with a title.
fn bars(svg: &str) -> Vec<(i64, f64, f64, String)> {
    let attr = |r: &str, name: &str| -> f64 {
        let r = &format!(" {r}");
        let from = r.find(&format!(" {name}=\"")).map(|i| i + name.len() + 3).unwrap_or(0);
        r[from..].split('"').next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
    };
    svg.split("<rect ")
        .skip(1)
        .filter_map(|r| {
            let title = r.split_once("<title>")?.1.split_once("</title>")?.0.to_string();
            Some((attr(r, "y") as i64, attr(r, "x"), attr(r, "width"), title))
        })
        .collect()
}

#[test]
fn the_gantt_drawing_spans_the_step_on_every_stage_drawn_with_a_title_a_bar() {
    use clusterplan::charts::{draw_timeline, LIGHT};
    let mut rng = Rng(0x6A47_7000);
    let mut drawn = 0;
    for case in 0..200 {
        let s = random_scenario(&mut rng);
        let Ok(good) = evaluation::evaluate(&s) else { continue };
        let (e, p) = (&good.estimate, &good.inputs.parallelism);
        if !(e.step_s > 0.0) {
            continue;
        }
        let events = timeline(e, p.pipeline, p.virtual_stages);
        let svg = draw_timeline(&events, p.pipeline, e.step_s, &LIGHT, (900, 300));
        let bars = bars(&svg);
        assert!(bars.len() < 6000, "case {case}: {} bars", bars.len());
        let mut rows: Vec<i64> = bars.iter().map(|b| b.0).collect();
        rows.dedup();
        rows.sort_unstable();
        rows.dedup();
        let want = p.pipeline.clamp(1, clusterplan::charts::TIMELINE_ROWS) as usize;
        assert_eq!(rows.len(), want, "case {case}: rows drawn");
        let first = bars.iter().filter(|b| b.0 == rows[0]);
        let (start, end) =
            first.fold((f64::MAX, 0.0f64), |(lo, hi), b| (lo.min(b.1), hi.max(b.1 + b.2)));
        for row in &rows {
            let mine: Vec<_> = bars.iter().filter(|b| b.0 == *row).collect();
            // Bars follow one another across the whole axis, within rounding.
            let mut at = start;
            for b in &mine {
                assert!((b.1 - at).abs() <= 0.15, "case {case}: row {row} gap at {at}: {b:?}");
                at = b.1 + b.2;
            }
            assert!((at - end).abs() <= 0.15, "case {case}: row {row} ends at {at} of {end}");
            assert!(
                mine.iter().all(|b| b.3.contains(" ms")),
                "case {case}: a bar without its time"
            );
        }
        drawn += 1;
    }
    assert!(drawn > 100, "{drawn} drawn");
}

#[test]
fn the_page_draws_the_timeline_in_its_plots_for_a_1f1b_and_an_interleaved_plan() {
    for (v, chunk) in [(1, false), (4, true)] {
        use clusterplan::app::Task;
        let s = clusterplan::scenario::Scenario::default_plan()
            .with(&clusterplan::scenario::fields::PARALLELISM_VIRTUAL_STAGES, Some(v.into()));
        let task = Task::Plots { scenario: s, dark: false, width: 900 };
        let mut job = clusterplan::app::jobs::Job::start(&task).expect("starts");
        while !job.step() {}
        let plots = job.plots().expect("plots");
        let svg = &plots.timeline.svg;
        let bars = bars(svg);
        assert!(bars.iter().any(|b| b.3.contains("forward")), "forwards drawn");
        assert!(bars.iter().any(|b| b.3.contains("slowest chip")), "the step's tail drawn");
        assert!(bars.iter().any(|b| b.3.contains("pipeline bubble")), "the fill and drain drawn");
        assert_eq!(bars.iter().any(|b| b.3.contains("chunk")), chunk, "chunks with v = {v}");
    }
}
