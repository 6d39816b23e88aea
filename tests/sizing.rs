//! Sizing: the smallest cluster that meets a deadline, monotone in the deadline, never
//! skipping a size that could have met it.

use clusterplan::model::search;
use clusterplan::scenario::Scenario;
use clusterplan::sizing::{self, Answer};

fn scenario() -> Scenario {
    Scenario::parse_many(
        r#"{
      "model": { "preset": "llama3-8b" },
      "training": { "tokens": 1e12, "global_batch": 512 },
      "cluster": { "chip": "h100-sxm", "chips": 64 }
    }"#,
    )
    .expect("parses")
    .remove(0)
}

fn chips(answer: &Answer) -> Option<u32> {
    match answer {
        Answer::Meets(s) => Some(s.chips),
        Answer::Misses { .. } => None,
    }
}

#[test]
fn the_ladder_climbs_in_steps_of_at_most_a_half() {
    let ladder = sizing::ladder(8, 100_000);
    assert_eq!(&ladder[..8], &[8, 16, 24, 32, 48, 64, 96, 128]);
    for pair in ladder[1..].windows(2) {
        assert!(pair[1] > pair[0] && pair[1] * 2 <= pair[0] * 3, "{pair:?}");
    }
    assert!(*ladder.last().unwrap() <= 100_000);
}

/// A later deadline never needs more chips, and each answer meets its deadline.
#[test]
fn a_later_deadline_never_needs_more_chips() {
    let s = scenario();
    let mut previous = u32::MAX;
    let mut distinct = std::collections::BTreeSet::new();
    for deadline in [2.0, 4.0, 8.0, 16.0, 30.0, 60.0] {
        let answer = sizing::size(&s, None, deadline).expect("sizes");
        let Answer::Meets(sized) = &answer else { panic!("{deadline} days can be met") };
        assert!(sized.plan.effective_train_days <= deadline);
        assert!(sized.estimate.feasible && sized.estimate.memory.fits);
        assert!(sized.chips <= previous, "{deadline} days: {} chips after {previous}", sized.chips);
        previous = sized.chips;
        distinct.insert(sized.chips);
    }
    assert!(distinct.len() >= 3, "the deadlines ask for different sizes: {distinct:?}");
}

/// The answer is the smallest: every size below it on the ladder misses the deadline when
/// searched in full, including the sizes the ideal-time bound skipped.
#[test]
fn no_smaller_size_meets_the_deadline() {
    let s = scenario();
    let deadline = 10.0;
    let Answer::Meets(sized) = sizing::size(&s, None, deadline).expect("sizes") else {
        panic!("10 days can be met")
    };
    let smaller: Vec<u32> =
        sizing::ladder(8, sizing::MAX_CHIPS).into_iter().filter(|&n| n < sized.chips).collect();
    assert!(!smaller.is_empty());
    for point in sizing::curve(&s, None, &smaller) {
        if let Some(best) = point.best {
            assert!(best.wall_days() > deadline, "{} chips meet it too", point.chips);
        }
    }
}

/// No plan beats the ideal time, so skipping sizes by it loses nothing.
#[test]
fn no_plan_beats_the_ideal_time() {
    let s = scenario();
    for chips in [8, 64, 512] {
        let inputs = sizing::at(&s, None, chips).resolve().expect("resolves");
        let bound = search::days_bound(&inputs);
        let best = sizing::best_plan(&inputs).expect("a plan fits");
        assert!(bound > 0.0 && best.train_days >= bound, "{chips}: {} < {bound}", best.train_days);
    }
}

/// Other chips are sized on the same workload; a faster chip needs no more of them.
#[test]
fn chips_compare_on_the_same_deadline() {
    let s = scenario();
    let a100 = chips(&sizing::size(&s, Some("a100-80gb"), 10.0).expect("sizes"));
    let h100 = chips(&sizing::size(&s, Some("h100-sxm"), 10.0).expect("sizes"));
    let b200 = chips(&sizing::size(&s, Some("b200"), 10.0).expect("sizes"));
    assert!(a100.is_some() && h100.is_some() && b200.is_some());
    assert!(b200 <= h100 && h100 <= a100, "{b200:?} {h100:?} {a100:?}");
}

#[test]
fn an_unknown_chip_is_named_by_its_field() {
    let errors = sizing::size(&scenario(), Some("no-such-chip"), 10.0).expect_err("unknown chip");
    assert!(errors.iter().any(|e| e.field == "cluster.chip"), "{errors:?}");
}

/// A deadline shorter than the ideal time on the largest cluster considered is missed at
/// once, without searching.
#[test]
fn an_impossible_deadline_is_missed() {
    let mut sizer = sizing::Sizer::new(&scenario(), None, 1e-4).expect("sizes");
    assert!(sizer.sizes().is_empty(), "every size is ruled out by the ideal time");
    assert!(sizer.advance());
    assert!(chips(sizer.answer().expect("answered")).is_none());
}

/// Past some size failures come faster than a run recovers from them (goodput zero): such a
/// plan never finishes, so it meets no deadline and ranks last by days with failures.
#[test]
fn a_run_that_never_finishes_meets_no_deadline() {
    let s = Scenario::parse_many(
        r#"{ "model": { "preset": "deepseek-v3" }, "training": { "tokens": 14.8e12, "global_batch": 15360 },
             "cluster": { "chip": "ascend-910b", "chips": 393216 } }"#,
    )
    .expect("parses")
    .remove(0);
    let inputs = s.resolve().expect("resolves");
    // Ranked without failures, the fastest plan on 393,216 chips never finishes with them.
    let fastest = search::search(&inputs, search::Options::default()).ranked[0];
    assert!(!fastest.finishes(), "goodput {}", fastest.goodput);
    assert_eq!(search::Objective::EffectiveDays.of(&fastest), f64::MAX);
    // Its cost and energy cover only the failure-free time, so they cannot rank it either,
    // and the front of days against cost holds only runs that finish.
    assert_eq!(search::Objective::Cost.of(&fastest), f64::MAX);
    assert_eq!(search::Objective::Energy.of(&fastest), f64::MAX);
    let by_cost =
        search::search(&inputs, search::Options { objective: search::Objective::Cost, top: 3 });
    assert!(by_cost.pareto.iter().all(|p| p.finishes()));
    let answer = sizing::size(&s, Some("ascend-910b"), 10.0).expect("sizes");
    if let Answer::Meets(sized) = answer {
        assert!(sized.plan.finishes() && sized.plan.wall_days() <= 10.0, "{} chips", sized.chips);
    }
}

/// The page keeps the chips picked for sizing as one bit per catalog chip in a `u64`.
#[test]
fn the_catalog_fits_the_pages_chip_choice() {
    assert!(clusterplan::model::presets::CHIPS.len() <= 64);
}
