//! One job over pools of different chips (`model::pools`): never faster than the pools apart
//! added up, never slower than its fastest pool alone, and a split in proportion to speed beats
//! an equal split when the chips differ.
#![cfg(not(target_arch = "wasm32"))]

use clusterplan::model::pools::{across, split, Across, Between};
use clusterplan::model::{estimate, Inputs};
use clusterplan::scenario::Scenario;
use serde_json::json;

/// Llama 3 70B on `chips` chips of `chip`, TP 8 and PP 4.
fn pool(chip: &str, chips: u32) -> Inputs {
    Scenario::default_plan()
        .with("model.preset", Some(json!("llama3-70b")))
        .with("cluster.chip", Some(json!(chip)))
        .with("cluster.chips", Some(json!(chips)))
        .with("parallelism.tp", Some(json!(8)))
        .with("parallelism.pp", Some(json!(4)))
        .with("parallelism.cp", Some(json!(1)))
        .with("parallelism.virtual_stages", Some(json!(1)))
        .resolve()
        .unwrap_or_else(|e| panic!("{chip}: {e:?}"))
}

/// A link of `gbit` Gb/s with 1 ms of latency.
fn link(gbit: f64) -> Between {
    Between { bytes_per_s: gbit * 1e9 / 8.0, latency_s: 1e-3 }
}

fn fleet() -> Vec<Inputs> {
    vec![pool("h800", 4096), pool("ascend-910b", 4096)]
}

#[test]
fn a_job_over_pools_is_bounded_by_its_pools() {
    let pools = fleet();
    let apart: f64 = pools.iter().map(|p| estimate(p).tokens_per_s).sum();
    let fastest = pools.iter().map(|p| estimate(p).tokens_per_s).fold(0.0, f64::max);
    for how in [Across::Data, Across::Pipeline] {
        for gbit in [10.0, 400.0, 3200.0, 1e6] {
            let job = across(&pools, how, link(gbit));
            assert!(
                job.tokens_per_s <= apart * (1.0 + 1e-9),
                "{how:?} at {gbit} Gb/s: {} over {apart}",
                job.tokens_per_s
            );
            assert!(
                job.tokens_per_s >= fastest * (1.0 - 1e-9),
                "{how:?} at {gbit} Gb/s: {} under {fastest}",
                job.tokens_per_s
            );
            let shares: f64 = job.parts.iter().map(|p| p.share).sum();
            assert!((shares - 1.0).abs() < 1e-9, "{how:?}: shares add to {shares}");
            assert!(job.train_days.is_finite() && job.train_days > 0.0);
        }
    }
    // Apart, the speeds add up.
    let separate = across(&pools, Across::Separate, link(10.0));
    assert!((separate.tokens_per_s / apart - 1.0).abs() < 1e-9);
}

#[test]
fn a_split_in_proportion_to_speed_beats_an_equal_one() {
    let pools = fleet();
    let solo: Vec<_> = pools.iter().map(estimate).collect();
    let (a, b) = (solo[0].tokens_per_s, solo[1].tokens_per_s);
    assert!(a > 1.3 * b || b > 1.3 * a, "the pools differ: {a} and {b} tokens/s");
    let proportional = [a / (a + b), b / (a + b)];
    for how in [Across::Data, Across::Pipeline] {
        let fair = split(&pools, &solo, how, &proportional, link(1e5));
        let equal = split(&pools, &solo, how, &[0.5, 0.5], link(1e5));
        assert!(fair.step_s < equal.step_s, "{how:?}: {} against {}", fair.step_s, equal.step_s);
        // The faster pool waits less than the slower one's whole step.
        let waits = fair.parts.iter().map(|p| p.waits_s).fold(0.0, f64::max);
        assert!(waits < 0.2 * fair.step_s, "{how:?}: waits {waits} of {}", fair.step_s);
    }
}

#[test]
fn a_slow_link_leaves_data_parallelism_on_one_pool() {
    let pools = fleet();
    let job = across(&pools, Across::Data, link(10.0));
    let used = job.parts.iter().filter(|p| p.share > 0.0).count();
    assert_eq!(
        used, 1,
        "gradients of 70B over 10 Gb/s cost more than the second pool gains: {job:?}"
    );
    let fast = across(&pools, Across::Data, link(1e5));
    assert_eq!(fast.parts.iter().filter(|p| p.share > 0.0).count(), 2);
    assert!(fast.link_s < 0.05 * fast.step_s, "{fast:?}");
}
