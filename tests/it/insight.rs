//! What moves the answer and the network tier by tier: `clusterplan sensitivity` on the
//! default plan gives every uncertain input sorted by its effect on days with failures, two
//! entries recomputed by hand match; `network` in `predict` gives every tier of the fabric
//! with bytes that sum over collectives and utilisation that is busy time over the step, and
//! the page's table (the plots' worker) says the same; a job over sites loads the link between
//! them by its exchange a step; over generated plans the load is finite
//! and a tier never carries more than the NICs send.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within * a.abs().max(b.abs()).max(1e-12)
}

#[test]
fn sensitivity_sorts_every_input_by_its_effect_and_two_entries_match_by_hand() {
    let plan = Scenario::default_plan();
    let out = common::cli_json(&["sensitivity", "-"], &plan);
    let inputs = out["inputs"].as_array().expect("inputs");
    assert!(inputs.len() >= 10, "{} inputs", inputs.len());
    let base = out["effective_days"].as_f64().expect("days");
    let effect = |e: &Value| {
        let d = |k: &str| e[k].as_f64().map_or(f64::INFINITY, |x| (x - base).abs());
        d("effective_days_low").max(d("effective_days_high"))
    };
    for w in inputs.windows(2) {
        assert!(effect(&w[0]) >= effect(&w[1]), "{} before {}", w[0]["input"], w[1]["input"]);
    }
    for key in [
        "input",
        "low",
        "high",
        "effective_days_low",
        "effective_days_high",
        "cost_low",
        "cost_high",
    ] {
        assert!(inputs.iter().all(|e| !e[key].is_null()), "{key} in every entry");
    }
    let top = out["threatens"].as_str().expect("the top entry's decision");
    assert!(!top.is_empty());
    let entry = |id: &str| inputs.iter().find(|e| e["input"] == id).expect(id).clone();

    // By hand: the plan with its GEMM efficiency at 80 %, estimated afresh from the scenario.
    let predicted = common::cli_json(&["predict", "-"], &plan);
    let days = predicted["reliability"]["effective_train_days"].as_f64().expect("days");
    assert!(close(days, base, 1e-9), "{days} vs {base}");
    let gemm = entry("gemm_efficiency");
    let slower = plan.with_at(
        "cluster.chip",
        Some(json!({ "preset": "h100-sxm", "matmul_efficiency": gemm["low"] })),
    );
    let by_hand = common::cli_json(&["predict", "-"], &slower);
    let d = by_hand["reliability"]["effective_train_days"].as_f64().expect("days");
    assert!(close(d, gemm["effective_days_low"].as_f64().unwrap(), 1e-6), "{d} vs {gemm}");
    assert!(d > base * 1.1, "20 % less efficiency costs days: {d} vs {base}");

    // By hand: 30 % dearer power adds 30 % of the run's energy bill and nothing else.
    let power = entry("power_price");
    let energy = predicted["facility"]["cost_usd"]["energy"].as_f64().expect("energy");
    let cost = out["cost_usd"].as_f64().unwrap();
    let added = power["cost_low"].as_f64().unwrap() - cost;
    assert!(close(added, 0.3 * energy, 1e-6), "{added} vs 0.3 x {energy}");
    assert!(close(power["effective_days_low"].as_f64().unwrap(), base, 1e-12));
    // And the model's own error is its range on days with failures.
    let range = &predicted["range"]["effective_train_days"];
    let error = entry("model_error");
    assert!(close(error["effective_days_low"].as_f64().unwrap(), range[1].as_f64().unwrap(), 1e-9));
    assert!(close(
        error["effective_days_high"].as_f64().unwrap(),
        range[0].as_f64().unwrap(),
        1e-9
    ));
}

#[test]
fn network_gives_every_tier_and_the_pages_table_agrees() {
    let plan = Scenario::default_plan();
    let predicted = common::cli_json(&["predict", "-"], &plan);
    let net = &predicted["network"];
    let tiers = net["tiers"].as_array().expect("tiers");
    let names: Vec<&str> = tiers.iter().map(|t| t["tier"].as_str().unwrap()).collect();
    assert_eq!(&names[..2], ["scale_up", "leaf"], "{names:?}");
    let step = predicted["step_s"].as_f64().unwrap();
    for t in tiers {
        let by: f64 =
            t["by_collective"].as_object().unwrap().values().map(|v| v.as_f64().unwrap()).sum();
        let bytes = t["bytes_per_step"].as_f64().unwrap();
        assert!(close(by, bytes, 1e-9), "{t}");
        assert!(close(
            t["utilisation"].as_f64().unwrap(),
            t["busy_s"].as_f64().unwrap() / step,
            1e-9
        ));
    }
    // Tensor parallelism inside the NVLink domain; data parallelism on the NICs.
    assert!(tiers[0]["by_collective"]["tp"].as_f64().unwrap() > 1e9);
    assert!(tiers[1]["by_collective"]["dp"].as_f64().unwrap() > 1e9);
    assert_eq!(tiers.iter().filter(|t| t["hottest"] == true).count(), 1);

    use clusterplan::app::Task;
    let task = Task::Plots { scenario: plan, dark: false, width: 900 };
    let mut job = clusterplan::app::jobs::Job::start(&task).expect("starts");
    while !job.step() {}
    let plots = job.plots().expect("plots");
    let table = &plots.insights.network.table;
    assert_eq!(table.testid, "network-load-table");
    assert_eq!(table.rows.len(), tiers.len(), "a row a tier");
    for (row, t) in table.rows.iter().zip(tiers) {
        let gb = t["bytes_per_step"].as_f64().unwrap() / 1e9;
        assert_eq!(row.cells[1], format!("{} GB", clusterplan::numbers::sig3(gb)));
        let utilisation = t["utilisation"].as_f64().unwrap();
        assert_eq!(row.cells[4], clusterplan::numbers::percent(utilisation));
    }
    assert!(plots.insights.network.plot.contains("<rect"));
    let sweep = &plots.insights.sensitivity.table;
    assert!(sweep.rows.len() >= 10);
    assert!(plots.insights.sensitivity.said.as_ref().is_some_and(|s| !s.text.is_empty()));
    assert!(plots.insights.sensitivity.plot.contains("<rect"));
}

/// A job over two sites loads the wide-area link between them: each site's bytes a sync, over
/// the steps between syncs, busy at the link's rate with the ring's latency, utilisation over
/// the job's step; the page's table has the row; a job at one site has no such tier.
#[test]
fn a_job_over_sites_loads_the_link_between_them() {
    let sites = |how: &str, inner_steps: u32| {
        common::plan("llama3-70b", "h800", 4096, 8, 4)
            .with_at("cluster.site", Some(json!("east")))
            .with_at(
                "cluster.pools",
                Some(json!([{ "chip": "h800", "chips": 4096, "site": "west" }])),
            )
            .with_at(
                "sites",
                Some(json!([{ "name": "east", "wan_gbit_per_s": 40_000 },
                            { "name": "west", "wan_gbit_per_s": 80_000, "wan_latency_ms": 5 }])),
            )
            .with_at("parallelism.across_sites", Some(json!(how)))
            .with_at("parallelism.diloco_inner_steps", Some(json!(inner_steps)))
    };
    let tier = |p: &Value| {
        p["network"]["tiers"]
            .as_array()
            .expect("tiers")
            .iter()
            .find(|t| t["tier"] == "between_sites")
            .cloned()
    };
    let one_site = common::cli_json(&["predict", "-"], &Scenario::default_plan());
    assert!(tier(&one_site).is_none(), "one site has no link between sites");
    for (how, steps) in [("sync", 1.0), ("diloco", 50.0)] {
        let s = sites(how, 50);
        let p = common::cli_json(&["predict", "-"], &s);
        let t = tier(&p).expect("a tier between sites");
        let per_sync = p["sites"]["wan"]["bytes_per_sync"].as_f64().unwrap();
        let bytes = t["bytes_per_step"].as_f64().unwrap();
        assert!(per_sync > 1e9, "{how}: {per_sync}");
        assert!(close(bytes, per_sync / steps, 1e-9), "{how}: {bytes} a step of {per_sync}");
        assert!(close(t["by_collective"]["dp"].as_f64().unwrap(), bytes, 1e-9), "{t}");
        // The slower site's link (40 Tb/s) and the ring's latency (2 hops of 5 ms a sync).
        let busy = t["busy_s"].as_f64().unwrap();
        assert!(close(busy, bytes / 5e12 + 2.0 * 5e-3 / steps, 1e-9), "{how}: {busy}");
        let step = p["sites"]["step_s"].as_f64().unwrap();
        assert!(close(t["utilisation"].as_f64().unwrap(), busy / step, 1e-9), "{how}");
        let hottest = p["network"]["tiers"].as_array().unwrap().iter();
        let hottest = hottest.filter(|t| t["hottest"] == true).count();
        assert_eq!(hottest, 1);

        use clusterplan::app::Task;
        let task = Task::Plots { scenario: s, dark: false, width: 900 };
        let mut job = clusterplan::app::jobs::Job::start(&task).expect("starts");
        while !job.step() {}
        let table = &job.plots().expect("drawn").insights.network.table;
        let row = table.rows.last().expect("rows");
        assert!(row.cells[0].contains("between sites"), "{:?}", row.cells);
        assert_eq!(row.cells[1], format!("{} GB", clusterplan::numbers::sig3(bytes / 1e9)));
    }
}

#[test]
fn over_generated_plans_the_network_load_is_finite_and_bounded_by_what_the_nics_send() {
    let mut rng = common::Rng(0x4E7_10AD);
    let mut seen = 0;
    for case in 0..300 {
        let s = common::random_scenario(&mut rng);
        let Ok(good) = clusterplan::evaluation::evaluate(&s) else { continue };
        let load = clusterplan::evaluation::network(&s, &good);
        assert!(load.hottest < load.tiers.len(), "case {case}");
        let leaf = load.tiers.iter().find(|t| t.tier == clusterplan::model::network::Tier::Leaf);
        let leaf = leaf.map_or(0.0, |t| t.bytes_per_step);
        for t in &load.tiers {
            assert!(t.bytes_per_step.is_finite() && t.bytes_per_step >= 0.0, "case {case}: {t:?}");
            assert!(t.utilisation.is_finite() && t.utilisation >= 0.0, "case {case}: {t:?}");
            use clusterplan::model::network::Tier;
            if !matches!(t.tier, Tier::ScaleUp | Tier::BetweenSites) {
                // Switch tiers above the leaf carry part of what the NICs send, never more (a
                // site's wide-area link carries the whole site's exchange).
                assert!(t.bytes_per_step <= leaf * (1.0 + 1e-9), "case {case}: {t:?} over {leaf}");
            }
        }
        let sweep = clusterplan::evaluation::sensitivity(&good);
        assert_eq!(sweep.entries.len(), clusterplan::model::sensitivity::Input::ALL.len());
        seen += 1;
    }
    assert!(seen > 100, "{seen}");
}
