//! Time of one `estimate` (the facility estimate included) on the two reference plans: a
//! 16,384-chip dense 405B run and a 2,048-chip 671B MoE run. Target: at most 20 us each.
//! Also the fabric graph of a 100,000-chip cluster and the plan-size sweep the page redraws,
//! which rebuilds the fabric at 12 sizes.

use clusterplan::model::search::{evaluate, search, Options};
use clusterplan::model::{estimate, Inputs};
use clusterplan::scenario::Scenario;

fn inputs(json: &str) -> Inputs {
    let scenario = Scenario::parse_many(json).expect("benchmark scenario parses").remove(0);
    scenario.resolve().expect("benchmark scenario resolves")
}

const DENSE_405B: &str = r#"{
  "model": { "preset": "llama3-405b" },
  "training": { "tokens": 15.6e12, "global_batch": 2048 },
  "cluster": { "chip": "h100-sxm", "chips": 16384, "scale_out": "roce-400g" },
  "parallelism": { "tp": 8, "pp": 16, "dp": 128, "virtual_stages": 4, "zero": 1 }
}"#;

const MOE_671B: &str = r#"{
  "model": { "preset": "deepseek-v3" },
  "training": { "tokens": 14.8e12, "global_batch": 15360, "recipe": "fp8" },
  "cluster": { "chip": "h800", "chips": 2048, "scale_out": "ib-ndr" },
  "parallelism": { "tp": 1, "pp": 16, "dp": 128, "ep": 64, "zero": 1, "ep_overlap": true }
}"#;

#[divan::bench]
fn dense_405b_16384_chips(bencher: divan::Bencher) {
    let inputs = inputs(DENSE_405B);
    bencher.bench(|| estimate(divan::black_box(&inputs)));
}

#[divan::bench]
fn moe_671b_2048_chips(bencher: divan::Bencher) {
    let inputs = inputs(MOE_671B);
    bencher.bench(|| estimate(divan::black_box(&inputs)));
}

#[divan::bench]
fn fabric_graph_100000_chips(bencher: divan::Bencher) {
    let inputs = inputs(DENSE_405B);
    let spec = clusterplan::fabric::spec_of(&inputs, 100_000);
    bencher.bench(|| clusterplan::fabric::build(divan::black_box(&spec)));
}

#[divan::bench]
fn scaling_sweep_with_fabric_12_sizes(bencher: divan::Bencher) {
    let inputs = inputs(DENSE_405B);
    let counts = clusterplan::model::sweep::default_chip_counts();
    bencher.bench(|| clusterplan::fabric::scaling(divan::black_box(&inputs), &counts));
}

/// Every plan for the dense reference workload on 16,384 chips, searched whole.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn search_dense_405b_16384_chips(bencher: divan::Bencher) {
    let inputs = inputs(DENSE_405B);
    bencher.bench(|| search(divan::black_box(&inputs), Options::default()));
}

/// Every plan for the MoE reference workload on 2,048 chips, searched whole.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn search_moe_671b_2048_chips(bencher: divan::Bencher) {
    let inputs = inputs(MOE_671B);
    bencher.bench(|| search(divan::black_box(&inputs), Options::default()));
}

/// One plan judged as the search judges it: problems, memory, then time.
#[divan::bench]
fn search_evaluate_one_plan(bencher: divan::Bencher) {
    let inputs = inputs(DENSE_405B);
    bencher.bench(|| evaluate(divan::black_box(&inputs)));
}

fn main() {
    // What each search covers, so plans per second can be read off the times below.
    for (name, json) in
        [("dense 405B, 16,384 chips", DENSE_405B), ("MoE 671B, 2,048 chips", MOE_671B)]
    {
        let o = search(&inputs(json), Options::default());
        println!(
            "search {name}: {} plans searched, {} pruned ({} cannot run, {} do not fit), {} evaluated",
            o.searched, o.pruned, o.invalid, o.does_not_fit, o.evaluated
        );
    }
    divan::main();
}
