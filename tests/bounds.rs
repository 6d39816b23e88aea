//! Every entry point finishes in under a second with bounded memory on any in-range input: the
//! judge, the failures' simulation, serving and post-training, what moves the answer, the
//! network by tier, the timeline and its trace, the page's plots, the plan search and the
//! sizings and the cluster's year, on generated plans whose fields are set anywhere inside their ranges (further pools
//! and far sites among them), and on the inputs that once ran for minutes or gigabytes.
//!
//! A bound, not a benchmark: the figures a release build reaches are far below it (the
//! benchmarks in `benches/` and `docs/performance.md` time them), and a call past it has lost
//! its bound, not its speed. Memory is the process's peak resident set over the call, started
//! afresh before it. This file is a test binary of its own holding one test, so nothing else
//! runs beside it to share its clock or its memory.
#![cfg(not(target_arch = "wasm32"))]
// The bound is a time, read from the machine's clock; the model itself has none.
#![allow(clippy::disallowed_methods)]

#[path = "it/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use crate::common::{random_scenario, Rng};
use clusterplan::app::jobs;
use clusterplan::app::Task;
use clusterplan::evaluation;
use clusterplan::model::search::Objective;
use clusterplan::scenario::fields::{self, Kind};
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

/// The process's resident memory now and its peak, bytes (`/proc/self/status`: `VmRSS`,
/// `VmHWM`), 0 where the system does not say.
fn resident() -> (usize, usize) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = |key: &str| -> usize {
        let line = status.lines().find(|l| l.starts_with(key)).unwrap_or("");
        line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0) * 1024
    };
    (kb("VmRSS:"), kb("VmHWM:"))
}

/// Starts the peak afresh from what is resident now (Linux: writing 5 to `clear_refs`); where
/// that is refused, the peak stays the process's, which bounds each call all the same.
fn reset_peak() {
    std::fs::write("/proc/self/clear_refs", "5").ok();
}

/// The bounds every call keeps.
const MOST_TIME: Duration = Duration::from_secs(1);
const MOST_BYTES: usize = 500 << 20;

/// The slowest and the most memory-hungry call of each entry point, for the report.
#[derive(Default)]
struct Worst {
    rows: Vec<(&'static str, Duration, usize, String)>,
}

impl Worst {
    /// Runs `f` as `entry` on `case`, holding it to the bounds.
    fn call<T>(&mut self, entry: &'static str, case: &str, f: impl FnOnce() -> T) -> T {
        reset_peak();
        let (before, _) = resident();
        let start = Instant::now();
        let out = f();
        let took = start.elapsed();
        let bytes = resident().1.saturating_sub(before);
        assert!(took < MOST_TIME, "{entry} took {took:?} on {case}");
        assert!(bytes < MOST_BYTES, "{entry} held {} MB on {case}", bytes >> 20);
        match self.rows.iter_mut().find(|r| r.0 == entry) {
            Some(row) => {
                if took > row.1 {
                    (row.1, row.3) = (took, case.to_string());
                }
                row.2 = row.2.max(bytes);
            }
            None => self.rows.push((entry, took, bytes, case.to_string())),
        }
        out
    }
}

/// A value inside `field`'s range: anywhere from one end to the other, log-spaced where the
/// range spans decades, whole for counts.
fn inside(field: &fields::Field, rng: &mut Rng) -> Value {
    let (lo, hi) = (field.min, field.max);
    let u = rng.below(1_000_001) as f64 / 1e6;
    let x = if lo > 0.0 && hi / lo > 100.0 {
        (lo.ln() + u * (hi.ln() - lo.ln())).exp()
    } else {
        lo + u * (hi - lo)
    };
    match field.kind {
        Kind::Flag => json!(rng.below(2) == 1),
        Kind::Count => json!(x.round().clamp(lo.ceil(), hi.floor())),
        Kind::Number | Kind::Fraction => json!(x.clamp(lo, hi)),
    }
}

/// A generated plan with a few fields set inside their ranges, now and then serving, RL, a
/// further pool and far sites.
fn generated(rng: &mut Rng) -> Scenario {
    let mut s = random_scenario(rng);
    for _ in 0..1 + rng.below(6) {
        let field = *rng.pick(fields::FIELDS);
        s = s.with_at(field.path, Some(inside(field, rng)));
    }
    for _ in 0..rng.below(3) {
        let choices = fields::choices();
        let (path, options) = rng.pick(&choices);
        s = s.with_at(path, Some(json!(*rng.pick(options))));
    }
    if rng.below(3) == 0 {
        s = common::with_pool(s, rng);
    }
    s
}

/// A year over `s` with as much as its ranges allow, now and then at their ends: up to 260 weeks,
/// 24 jobs of every kind with their own models and token counts, and deliveries of up to four
/// chips at up to eight sites, up to a million chips each.
fn generated_year(s: &Scenario, rng: &mut Rng) -> Scenario {
    use clusterplan::scenario::year::{MAX_CHIPS, MAX_DELIVERIES, MAX_JOBS, MAX_SITES};
    let most = rng.below(4) == 0;
    let weeks = if most { 260 } else { 1 + rng.below(260) };
    let chips: Vec<&str> =
        (0..MAX_CHIPS).map(|_| rng.pick(clusterplan::model::presets::CHIPS).id).collect();
    let deliveries: Vec<Value> = (0..if most { MAX_DELIVERIES as u64 } else { 1 + rng.below(8) })
        .map(|i| {
            json!({ "chip": chips[(i as usize) % chips.len()], "week": rng.below(weeks),
                    "chips": if most { 1u64 << 20 } else { 1 + rng.below(1 << 16) },
                    "site": format!("s{}", rng.below(MAX_SITES as u64)) })
        })
        .collect();
    let kinds = ["pretrain", "post_train", "fine_tune", "serve"];
    let jobs: Vec<Value> = (0..if most { MAX_JOBS as u64 } else { 1 + rng.below(MAX_JOBS as u64) })
        .map(|i| {
            let model = rng.pick(clusterplan::model::presets::TRANSFORMERS).id;
            json!({ "name": format!("j{i}"), "kind": *rng.pick(&kinds), "priority": rng.below(10),
                    "earliest": rng.below(weeks), "deadline": rng.below(weeks + 1),
                    "elastic": rng.below(2) == 0, "tokens_per_day": 1e3 + rng.below(1 << 40) as f64,
                    "growth_per_month": rng.below(200) as f64 / 100.0,
                    "scenario": { "model": { "preset": model },
                                  "training": { "tokens": 1e9 * (1 + rng.below(20_000)) as f64 } } })
        })
        .collect();
    let power = json!([{ "site": "s0", "mw": 1 + rng.below(1000) }]);
    let year = json!({ "weeks": weeks, "deliveries": deliveries, "jobs": jobs, "power": power });
    s.with_at("year", Some(year))
}

/// The inputs that once ran without bound: a timeline of 405B on 8 H100 at TP 1 × PP 8 with a
/// global batch of 30,000 and 100,000 sequences (24 s and 4.9 GB, then past 9 GB), and two B200
/// going on elastically with every host failing once an hour and repairs of 100,000 hours.
fn reproducers() -> Vec<Scenario> {
    let timeline = |batch: u32| {
        Scenario::from_value(json!({
            "model": { "preset": "llama3-405b" },
            "training": { "tokens": "15.6T", "global_batch": batch },
            "cluster": { "chip": "h100-sxm", "chips": 8 },
            "parallelism": { "tp": 1, "pp": 8 }
        }))
        .expect("a scenario")
    };
    let storm = Scenario::from_value(json!({
        "model": { "preset": "llama3-8b" },
        "training": { "tokens": "1T", "global_batch": 64 },
        "cluster": { "chip": "b200", "chips": 2 },
        "parallelism": { "tp": 1, "pp": 1 },
        "reliability": { "recovery": "elastic", "rates": { "host": 1e6 }, "repair_h": 1e5,
                         "spare_nodes": 0, "deadline_days": 36_500 }
    }))
    .expect("a scenario");
    vec![timeline(30_000), timeline(100_000), storm]
}

#[test]
fn every_entry_point_finishes_in_a_second_with_bounded_memory() {
    let mut worst = Worst::default();
    let mut rng = Rng(0xB0_0D5);
    let cases: Vec<Scenario> =
        reproducers().into_iter().chain((0..400).map(|_| generated(&mut rng))).collect();
    let mut shown = 0;
    let log = std::fs::read("tests/data/logs/megatron-core-0.15-fp8.log").expect("a log");
    let noise: Vec<u8> = b"INFO nothing to read here\n".repeat(40_000);
    for (i, s) in cases.iter().enumerate() {
        let case = format!("case {i}: {}", serde_json::to_string(s).unwrap_or_default());
        let Ok(sh) = worst.call("judge", &case, || evaluation::shown(s)) else { continue };
        shown += 1;
        let good = &sh.good;
        worst.call("failures", &case, || evaluation::failures(good));
        worst.call("serve", &case, || evaluation::serve(good));
        worst.call("sensitivity", &case, || evaluation::sensitivity(good));
        worst.call("network", &case, || evaluation::network(&sh.estimated, good));
        worst.call("timeline", &case, || {
            let p = &good.inputs.parallelism;
            let events = clusterplan::model::timeline::timeline(
                &good.estimate,
                p.pipeline,
                p.virtual_stages,
            );
            clusterplan::report::timeline_json(&events, p.pipeline).to_string().len()
        });
        let plots = Task::Plots { scenario: s.clone(), dark: false, width: 900 };
        let drawn = worst.call("plots", &case, || jobs::run(&plots).map(|v| v.to_string().len()));
        assert!(drawn.is_ok(), "plots of {case}: {drawn:?}");
        if i % 2 == 0 {
            let search =
                Task::Search { scenario: s.clone(), objective: Objective::TrainDays, top: 10 };
            worst.call("search", &case, || jobs::run(&search).is_ok());
        }
        if i % 4 == 0 {
            let size = Task::Size {
                scenario: s.clone(),
                deadline_days: 90.0,
                chips: vec![None],
                dark: false,
            };
            worst.call("size", &case, || jobs::run(&size).is_ok());
            let power = Task::SizePower { scenario: s.clone(), power_mw: 100.0, chips: vec![None] };
            worst.call("size power", &case, || jobs::run(&power).is_ok());
        }
        if i % 4 == 2 {
            // Plan A against the next case as plan B, and the chips a fleet adds of another.
            let b = cases[(i + 1) % cases.len()].clone();
            let compare = Task::Compare { pair: Box::new((s.clone(), b)), dark: false };
            worst.call("compare", &case, || jobs::run(&compare).is_ok());
            let add = Task::AddToFleet {
                scenario: s.clone(),
                chip: "ascend-910b".into(),
                deadline_days: 90.0,
            };
            worst.call("add to fleet", &case, || jobs::run(&add).is_ok());
        }
        if i % 3 == 0 {
            for framework in clusterplan::launch::Framework::ALL {
                worst.call("launch", &case, || evaluation::launch(s, framework).is_ok());
            }
            // A run's log read into the plan, beside a log of nothing.
            let logs =
                [("run.log".to_string(), log.clone()), ("noise.log".to_string(), noise.clone())];
            worst.call("measure", &case, || evaluation::measure(&logs, Some(s)).is_ok());
        }
        if i % 3 == 1 {
            // Two measured runs of two shapes, slower or faster than the model says: the fit of
            // the chip's efficiency and the stack's launch time runs inside the judge.
            let run = |micro_batch: u32, chips: u32, factor: f64| {
                json!({
                    "scenario": { "cluster": { "chips": chips },
                                  "parallelism": { "micro_batch": micro_batch, "dp": null } },
                    "measured": { "step_s": good.estimate.step_s * factor }
                })
            };
            let factor = |rng: &mut Rng| 0.3 + 3.0 * rng.below(1000) as f64 / 1000.0;
            let chips = good.inputs.cluster.n_chips;
            let entries = json!([run(1, chips, factor(&mut rng)), run(2, chips, factor(&mut rng))]);
            let measured = s.with(clusterplan::scenario::paths::CALIBRATION, Some(entries));
            worst.call("judge measured", &case, || evaluation::shown(&measured).is_ok());
        }
        if i % 4 == 3 {
            let year = generated_year(s, &mut rng);
            let case = format!("case {i}: {}", serde_json::to_string(&year).unwrap_or_default());
            worst.call("year", &case, || evaluation::year(&year).map(|y| y.is_some()).is_ok());
        }
        if good.inputs.serving.is_some() {
            worst.call("serving search", &case, || {
                let max = good.inputs.cluster.n_chips.min(4096);
                clusterplan::model::serving::search(&good.inputs, &good.estimate, max).len()
            });
            worst.call("serving sizing", &case, || {
                clusterplan::sizing::to_serve(s, Some("ascend-910c"), 1e10).is_ok()
            });
        }
    }
    for (entry, took, bytes, case) in &worst.rows {
        let case: String = case
            .chars()
            .take(if std::env::var_os("BOUNDS_WHOLE").is_some() { usize::MAX } else { 200 })
            .collect();
        eprintln!("{entry:>15}: at most {took:>10.2?} and {:>6} KB, slowest {case}", bytes >> 10);
    }
    assert!(shown > 300, "{shown} of {} cases shown", cases.len());
}
