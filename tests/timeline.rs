//! The step as a timeline: over generated plans, every stage's intervals follow one another
//! without overlap and sum to the step, each micro-batch passes forward and backward once a
//! chunk, in 1F1B order; `clusterplan timeline` prints it as Chrome trace JSON.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use clusterplan::evaluation;
use clusterplan::model::timeline::{timeline, Kind};
use common::{random_scenario, Rng};
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
                for kind in [Kind::Forward, Kind::Backward] {
                    let n = mine.iter().filter(|x| x.kind == kind).count() as u32;
                    assert_eq!(
                        n,
                        m * p.virtual_stages.max(1),
                        "case {case}: {kind:?} on stage {stage}"
                    );
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
