//! Failures as a distribution (`model::failures`): many simulated runs give the days to train
//! with their 10th, 50th and 90th percentiles, the median near the expected value when spares
//! never run out, the same numbers for the same inputs, and slower runs when spares run out,
//! when every failure waits for its repair, or faster ones when the run goes on elastically.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{evaluate, with};
use clusterplan::model::failures::{self, Spread};
use clusterplan::scenario::Scenario;
use serde_json::json;

fn spread(s: &Scenario) -> (Spread, f64) {
    let (inputs, e) = s.estimated().expect("evaluates");
    (failures::of(&inputs, &e), e.effective_train_days().expect("finishes"))
}

/// Llama 3.1 405B on 16,384 H100 for about 60 failure-free days: the percentiles are in order,
/// the median is within 2 % of the expected days, and the same link gives the same numbers.
#[test]
fn the_median_run_is_the_expected_one_and_the_spread_is_ordered() {
    let (s, expected) = spread(&Scenario::default_plan());
    assert_eq!(s.days.len(), s.trials, "every run finishes");
    assert!(s.p10_days <= s.p50_days && s.p50_days <= s.p90_days, "{s:?}");
    assert!((s.p50_days / expected - 1.0).abs() < 0.02, "{} against {expected}", s.p50_days);
    assert!(s.p90_days > s.p10_days, "a spread, not a point");
    let (again, _) = spread(&Scenario::default_plan());
    assert_eq!(again, s, "seeded");
    assert!(s.chance_by(s.p90_days) >= 0.9 && s.chance_by(s.p10_days) <= 0.11);
}

/// A deadline between the 10th and 90th percentiles is met by that share of the runs.
#[test]
fn a_deadline_is_met_by_its_share_of_runs() {
    let (base, _) = spread(&Scenario::default_plan());
    let deadline = base.p50_days;
    let (s, _) = spread(&with(&[("reliability.deadline_days", json!(deadline))]));
    let chance = s.deadline_chance.expect("a deadline");
    assert!((0.45..=0.55).contains(&chance), "{chance}");
    assert!(spread(&Scenario::default_plan()).0.deadline_chance.is_none());
}

/// With few spares the run waits for repairs; without spares every failure that takes nodes
/// waits its repair; going on elastically costs less than waiting.
#[test]
fn spares_and_recovery_move_the_spread() {
    let plan = |changes: &[(&str, serde_json::Value)]| {
        let mut all = vec![("reliability.repair_h", json!(48))];
        all.extend(changes.iter().cloned());
        spread(&with(&all)).0
    };
    let pool = plan(&[]);
    let few = plan(&[("reliability.spare_nodes", json!(4))]);
    let wait = plan(&[("reliability.recovery", json!("wait"))]);
    let elastic =
        plan(&[("reliability.recovery", json!("elastic")), ("reliability.spare_nodes", json!(4))]);
    assert!(few.p50_days > pool.p50_days, "{} against {}", few.p50_days, pool.p50_days);
    assert!(wait.p50_days > few.p50_days, "{} against {}", wait.p50_days, few.p50_days);
    assert!(elastic.p50_days < few.p50_days, "{} against {}", elastic.p50_days, few.p50_days);
    assert!(elastic.p50_days >= pool.p50_days * 0.999);
}

/// Replica recovery (fault-tolerant HSDP): only the failed replica restarts, so the run loses a
/// short stall, the step in flight and that replica's share of the rest of its restart rather
/// than a restart and the work since the last checkpoint; the simulated median agrees with the expected days, and a job of
/// one replica recovers as with spares.
#[test]
fn replica_recovery_loses_only_the_failed_replica() {
    let (spare, spare_days) = spread(&Scenario::default_plan());
    let replica = with(&[("reliability.recovery", json!("replica"))]);
    let (inputs, e) = replica.estimated().expect("evaluates");
    assert!(inputs.parallelism.data > 1);
    let (s, expected) = spread(&replica);
    assert!(expected < spare_days, "{expected} against {spare_days}");
    assert!(s.p50_days < spare.p50_days, "{} against {}", s.p50_days, spare.p50_days);
    assert!((s.p50_days / expected - 1.0).abs() < 0.02, "{} against {expected}", s.p50_days);
    // Each failure costs every replica the stall and the step in flight, and far less than a
    // restart with the work since the last checkpoint.
    let r = &e.reliability;
    let stall = clusterplan::model::reliability::REPLICA_STALL_S;
    assert!(r.lost_per_interruption_s >= stall + e.step_s, "{r:?}");
    let spare_lost = evaluate(&Scenario::default_plan()).reliability.lost_per_interruption_s;
    assert!(r.lost_per_interruption_s < 0.5 * spare_lost, "{r:?} against {spare_lost}");
    // One replica: the whole job restarts.
    let one = |recovery: &str| {
        let s = with(&[
            ("reliability.recovery", json!(recovery)),
            ("cluster.chips", json!(256)),
            ("parallelism.dp", json!(1)),
        ]);
        s.estimated().expect("evaluates").1.reliability
    };
    assert_eq!(one("replica"), one("spare"));
}

/// A run that never finishes is not simulated (its percentiles are infinite, its deadline
/// missed), and a run interrupted very often is simulated fewer times, so the worker stays
/// quick.
#[test]
fn hopeless_and_stormy_runs_stay_cheap() {
    let never = with(&[("reliability.rates", json!({ "chip": 5000 }))]);
    let (inputs, e) = never.estimated().expect("evaluates");
    assert!(e.effective_train_days().is_none());
    let s = failures::of(&inputs, &e);
    assert_eq!((s.trials, s.days.len()), (0, 0));
    assert!(s.p50_days.is_infinite());
    let stormy = with(&[("reliability.rates", json!({ "chip": 150 }))]);
    let (inputs, e) = stormy.estimated().expect("evaluates");
    let s = failures::of(&inputs, &e);
    assert!(e.effective_train_days().is_some(), "still finishes");
    assert!(s.trials < failures::TRIALS && s.trials >= 50, "{} runs", s.trials);
    assert!(s.fewer_runs, "the answer says fewer runs were simulated");
    assert!(s.p10_days <= s.p50_days && s.p50_days <= s.p90_days);
    assert!(!spread(&Scenario::default_plan()).0.fewer_runs);
    // So many interruptions a run that each stops at the event limit: counted as the longest
    // and said to be, never taken for finished.
    let endless = with(&[
        ("reliability.rates", json!({ "software": 2000 })),
        ("reliability.restart_min", json!(0.01)),
        ("training.tokens", json!("600T")),
    ]);
    let (inputs, e) = endless.estimated().expect("evaluates");
    let s = failures::of(&inputs, &e);
    assert!(
        s.cut_short > 0,
        "{} cut short of {} runs, {} interruptions expected",
        s.cut_short,
        s.trials,
        e.reliability.expected_interruptions
    );
    assert_eq!(s.days.len() + s.cut_short, s.trials);
}

/// The simulation is bounded in time as well as in events, and a figure it cannot give is not
/// known rather than zero: the stormiest in-range fleets (two B200 going on elastically, every
/// host failing hourly, repairs of 100,000 hours) finish with percentiles that are positive or
/// not known, and a deadline none of the stopped runs had passed has no chance given.
#[test]
fn a_spread_is_never_zero_and_never_unbounded() {
    let base = [
        ("cluster.chip", json!("b200")),
        ("cluster.chips", json!(2)),
        ("parallelism.tp", json!(1)),
        ("parallelism.pp", json!(1)),
        ("parallelism.cp", json!(1)),
        ("model.preset", json!("llama3-8b")),
        ("training.tokens", json!("20B")),
        ("reliability.recovery", json!("elastic")),
        ("reliability.rates", json!({ "host": 1e6 })),
        ("reliability.repair_h", json!(1e5)),
        ("reliability.deadline_days", json!(36_500)),
    ];
    for spares in [None, Some(0), Some(1)] {
        let mut changes = base.to_vec();
        if let Some(n) = spares {
            changes.push(("reliability.spare_nodes", json!(n)));
        }
        let s = with(&changes);
        let Ok((inputs, e)) = s.estimated() else { panic!("{spares:?}: resolves") };
        let spread = failures::of(&inputs, &e);
        let events_bound = failures::TOTAL_EVENTS + failures::MAX_EVENTS;
        assert!(spread.trials <= failures::TRIALS, "{spares:?}");
        assert!(spread.cut_short * failures::MAX_EVENTS <= events_bound, "{spares:?}");
        for (q, x) in [(10, spread.p10_days), (50, spread.p50_days), (90, spread.p90_days)] {
            assert!(x > 0.0, "{spares:?}: p{q} = {x}");
            assert!(x.is_infinite() || spread.days.len() * 10 >= q, "{spares:?}: p{q}");
        }
        if spread.cut_short > 0 && spread.cut_short_days < 36_500.0 {
            assert_eq!(spread.deadline_chance, None, "{spares:?}: not known");
        }
    }
}
