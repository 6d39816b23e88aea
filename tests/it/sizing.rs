//! Sizing: the smallest cluster that meets a deadline, as a brute force over every whole-node
//! count finds it, monotone in the deadline, with a curve where more chips are never slower.

use clusterplan::model::search;
use clusterplan::scenario::fields;
use clusterplan::scenario::Scenario;
use clusterplan::sizing::{self, Answer};

fn scenario(json: &str) -> Scenario {
    Scenario::parse_many(json).expect("parses").remove(0)
}

fn small() -> Scenario {
    scenario(
        r#"{
      "model": { "preset": "llama3-8b" },
      "training": { "tokens": 1e12, "global_batch": 512 },
      "cluster": { "chip": "h100-sxm", "chips": 64 }
    }"#,
    )
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

/// The answer is the smallest whole-node count that meets the deadline: a brute force that
/// searches every count of whole nodes up to the answer finds none smaller, for deadlines
/// that ask for sizes between the ladder's rungs.
#[test]
fn sizing_agrees_with_every_whole_node_count() {
    let s = small();
    for deadline in [7.0, 11.0, 19.0] {
        let Answer::Meets(sized) = sizing::size(&s, None, deadline).expect("sizes") else {
            panic!("{deadline} days can be met")
        };
        assert!(sized.plan.wall_days() <= deadline);
        assert!(sized.estimate.feasible && sized.estimate.memory.fits);
        assert_eq!(sized.chips % 8, 0, "whole DGX H100 nodes");
        let counts: Vec<u32> = (1..=sized.chips / 8).map(|k| 8 * k).collect();
        let smallest = sizing::curve(&s, None, &counts)
            .into_iter()
            .find(|p| p.best.is_some_and(|b| b.wall_days() <= deadline))
            .map(|p| p.chips);
        assert_eq!(smallest, Some(sized.chips), "{deadline} days");
        assert_eq!(sized.at_most_over(8), 0.0, "a small cluster is sized to the node");
    }
}

/// A later deadline never needs more chips, and each answer meets its deadline.
#[test]
fn a_later_deadline_never_needs_more_chips() {
    let s = small();
    let mut previous = u32::MAX;
    let mut distinct = std::collections::BTreeSet::new();
    for deadline in [2.0, 4.0, 8.0, 16.0, 30.0, 60.0] {
        let answer = sizing::size(&s, None, deadline).expect("sizes");
        let Answer::Meets(sized) = &answer else { panic!("{deadline} days can be met") };
        assert!(sized.plan.effective_train_days <= deadline);
        assert!(sized.chips <= previous, "{deadline} days: {} chips after {previous}", sized.chips);
        previous = sized.chips;
        distinct.insert(sized.chips);
    }
    assert!(distinct.len() >= 4, "the deadlines ask for different sizes: {distinct:?}");
}

/// At 10,000-chip scale the answer is within the stated resolution of the largest size found
/// to miss, and the curve of days against chips never rises.
#[test]
fn a_large_sizing_is_close_and_its_curve_is_monotone() {
    let s = scenario(
        r#"{ "model": { "preset": "llama3-405b" }, "training": { "tokens": "15.6T", "global_batch": 2048 },
             "cluster": { "chip": "h100-sxm", "chips": 16384 }, "parallelism": { "tp": 8, "pp": 16 } }"#,
    );
    let mut sizer = sizing::Sizer::new(&s, None, 90.0).expect("sizes");
    while !sizer.advance() {}
    let Some(Answer::Meets(sized)) = sizer.answer() else { panic!("90 days can be met") };
    assert!(sized.plan.wall_days() <= 90.0);
    assert!(sized.misses_at < sized.chips);
    let over = sized.at_most_over(sizer.unit());
    assert!(over <= sizing::RESOLUTION, "{over}");
    // The size just below the answer's bracket misses: searched, it is slower than the deadline.
    let below = sizing::curve(&s, None, &[sized.misses_at]);
    assert!(below[0].best.is_none_or(|b| b.wall_days() > 90.0));
    // The curve holds both ends of the bracket: a size that misses and one that meets.
    let curve = sizer.curve();
    assert!(curve.iter().any(|p| p.1 > 90.0) && curve.iter().any(|p| p.1 <= 90.0), "{curve:?}");
    for pair in curve.windows(2) {
        assert!(pair[1].0 > pair[0].0 && pair[1].1 <= pair[0].1, "more chips, more days: {pair:?}");
    }
}

/// 405B on Ascend 910B with Llama 3's batch of 2,048: beyond 32,768 chips the typed batch
/// leaves replicas hungry, and the search raises it, so more chips keep finishing sooner
/// rather than going flat.
#[test]
fn a_sizing_curve_never_goes_flat_for_want_of_batch() {
    let s = scenario(
        r#"{ "model": { "preset": "llama3-405b" }, "training": { "tokens": "15.6T", "global_batch": 2048 },
             "cluster": { "chip": "ascend-910b", "chips": 16384 }, "parallelism": {} }"#,
    );
    let counts = [32_768, 36_864, 43_520, 49_152];
    let points = sizing::curve(&s, None, &counts);
    let days: Vec<f64> = points.iter().map(|p| p.best.expect("a plan").wall_days()).collect();
    for (pair, chips) in days.windows(2).zip(counts.windows(2)) {
        let gain = pair[0] / pair[1];
        let ideal = chips[1] as f64 / chips[0] as f64;
        assert!(gain > 1.0 + 0.5 * (ideal - 1.0), "{chips:?} chips: {pair:?} days");
    }
    assert!(points.last().and_then(|p| p.best).is_some_and(|b| b.global_batch > 2048));
}

/// No plan beats the ideal time, so skipping sizes by it loses nothing.
#[test]
fn no_plan_beats_the_ideal_time() {
    let s = small();
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
    let s = small();
    let a100 = chips(&sizing::size(&s, Some("a100-80gb"), 10.0).expect("sizes"));
    let h100 = chips(&sizing::size(&s, Some("h100-sxm"), 10.0).expect("sizes"));
    let b200 = chips(&sizing::size(&s, Some("b200"), 10.0).expect("sizes"));
    assert!(a100.is_some() && h100.is_some() && b200.is_some());
    assert!(b200 <= h100 && h100 <= a100, "{b200:?} {h100:?} {a100:?}");
}

#[test]
fn an_unknown_chip_is_named_by_its_field() {
    let errors = sizing::size(&small(), Some("no-such-chip"), 10.0).expect_err("unknown chip");
    assert!(errors.iter().any(|e| e.field == "cluster.chip"), "{errors:?}");
}

/// A deadline shorter than the ideal time on the largest cluster considered is missed at
/// once, without searching.
#[test]
fn an_impossible_deadline_is_missed() {
    let mut sizer = sizing::Sizer::new(&small(), None, 1e-4).expect("sizes");
    assert!(sizer.sizes().is_empty(), "every size is ruled out by the ideal time");
    assert!(sizer.advance());
    assert!(chips(sizer.answer().expect("answered")).is_none());
}

/// Typed degrees that do not divide the chips do not stop a sizing: it chooses its own plans.
#[test]
fn typed_degrees_never_block_a_sizing() {
    let s = small()
        .with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(100)))
        .with(&fields::PARALLELISM_TP, Some(serde_json::json!(8)));
    let s = s.with(&fields::PARALLELISM_PP, Some(serde_json::json!(3)));
    assert!(s.resolve().is_err());
    assert!(chips(&sizing::size(&s, None, 10.0).expect("sizes")).is_some());
}

/// Past some size failures come faster than a run recovers from them: such plans are never
/// offered, and the sizing's answer finishes.
#[test]
fn a_run_that_never_finishes_is_never_offered() {
    let s = scenario(
        r#"{ "model": { "preset": "deepseek-v3" }, "training": { "tokens": 14.8e12, "global_batch": 15360 },
             "cluster": { "chip": "ascend-910b", "chips": 393216 } }"#,
    );
    let inputs = s.resolve().expect("resolves");
    let outcome = search::search(&inputs, search::Options::default());
    assert!(outcome.never_finish > 0, "some plans on 393,216 chips never finish");
    assert!(outcome.ranked.iter().all(|p| p.goodput > 0.0));
    let answer = sizing::size(&s, Some("ascend-910b"), 10.0).expect("sizes");
    if let Answer::Meets(sized) = answer {
        assert!(
            sized.plan.goodput > 0.0 && sized.plan.wall_days() <= 10.0,
            "{} chips",
            sized.chips
        );
        assert!(sized.estimate.reliability.finishes());
    }
}

/// The page keeps the chips picked for sizing as one bit per catalog chip in a `u64`.
#[test]
fn the_catalog_fits_the_pages_chip_choice() {
    assert!(clusterplan::model::presets::CHIPS.len() <= 64);
}

/// A safe answer (`sizing.confidence: p90`) holds each plan's days to the upper end of its
/// range: it never needs fewer chips than the central answer, its plan meets the deadline at
/// those days, and the deadline's chance it gives is never higher.
#[test]
fn a_safe_answer_holds_the_days_to_the_range_upper_end() {
    let central = small();
    let safe = central.with(&fields::SIZING_CONFIDENCE, Some(serde_json::json!("p90")));
    for deadline in [11.0, 19.0] {
        let (Answer::Meets(c), Answer::Meets(p)) = (
            sizing::size(&central, None, deadline).expect("sizes"),
            sizing::size(&safe, None, deadline).expect("sizes"),
        ) else {
            panic!("{deadline} days can be met")
        };
        assert_eq!(c.held_to, 1.0);
        assert!(p.held_to > 1.05, "the range's upper end is above the estimate: {}", p.held_to);
        assert!(p.chips > c.chips, "{deadline} days: {} safe against {} central", p.chips, c.chips);
        assert!(p.plan.wall_days() * p.held_to <= deadline);
    }
    // The deadline's chance at the range's upper end: a deadline just past the estimate is
    // likely met at the estimate's days and not at the range's upper end.
    let at64 = |s: &Scenario| s.with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(64)));
    let days = clusterplan::evaluation::evaluate(&at64(&central))
        .expect("evaluates")
        .estimate
        .effective_train_days()
        .expect("finishes");
    let chance = |s: &Scenario| {
        let s =
            at64(s).with(&fields::RELIABILITY_DEADLINE_DAYS, Some(serde_json::json!(days * 1.02)));
        let good = clusterplan::evaluation::evaluate(&s).expect("evaluates");
        clusterplan::evaluation::failures(&good).deadline_chance.expect("a deadline")
    };
    assert!(
        chance(&central) > 0.5 && chance(&safe) < 0.5,
        "{} {}",
        chance(&central),
        chance(&safe)
    );
    // An unknown choice is refused on its own field.
    let bad = central.with(&fields::SIZING_CONFIDENCE, Some(serde_json::json!("p99")));
    let errors = bad.resolve().expect_err("refused");
    assert!(errors.iter().any(|e| e.field == "sizing.confidence"), "{errors:?}");
}

/// The largest cluster within a power, for three chips and powers from 2 to 60 MW: provisioned
/// within it, one unit more is not, and more power never means fewer chips.
#[test]
fn the_largest_cluster_within_a_power_is_within_it_and_one_unit_more_is_not() {
    let base = Scenario::default_plan();
    for chip in ["h100-sxm", "ascend-910b", "mtt-s4000"] {
        let mut last = 0;
        for mw in [2.0, 7.5, 20.0, 60.0] {
            let found = sizing::within_power(&base, Some(chip), mw * 1e6)
                .expect("resolves")
                .unwrap_or_else(|| panic!("{chip}: nothing in {mw} MW"));
            let provisioned = found.estimate.facility.design.provisioned_w;
            assert!(provisioned <= mw * 1e6, "{chip} in {mw} MW: {provisioned} W");
            let more = sizing::at(&base, Some(chip), found.chips + found.unit);
            let (_, e) = more.estimated().expect("resolves");
            assert!(
                e.facility.design.provisioned_w > mw * 1e6,
                "{chip}: {} fit in {mw} MW",
                found.chips + found.unit
            );
            assert!(found.chips >= last, "{chip}: {} chips in {mw} MW after {last}", found.chips);
            assert!(found.plan.is_some() && found.estimate.feasible, "{chip} in {mw} MW runs");
            last = found.chips;
        }
    }
    // Less than a node's worth of power holds no cluster.
    assert!(sizing::within_power(&base, Some("h100-sxm"), 5_000.0).expect("resolves").is_none());
}

/// 100 MW of a new air-cooled build holds about as many H100 as published builds put in it:
/// xAI's Colossus, 100,000 H100 on 150 MW approved from the grid (about 1.5 kW a GPU all in;
/// Tennessee Valley Authority approval as reported, November 2024), and a modelled 100,000-H100
/// cluster at about 1.42 kW of IT a GPU (SemiAnalysis, June 2024) at a new build's PUE of 1.2 to
/// 1.3: 1.4 to 1.6 kW a GPU, so 62,500 to 71,400 H100 in 100 MW.
#[test]
fn a_hundred_megawatts_holds_what_published_h100_builds_hold() {
    let base = Scenario::default_plan();
    let found = sizing::within_power(&base, Some("h100-sxm"), 100e6)
        .expect("resolves")
        .expect("a cluster in 100 MW");
    let per_gpu_kw = 100e3 / found.chips as f64;
    assert!((1.4..=1.6).contains(&per_gpu_kw), "{} H100: {per_gpu_kw:.2} kW a GPU", found.chips);
}
