//! Time of one `estimate` (the facility estimate included) on the two reference plans: a
//! 16,384-chip dense 405B run and a 2,048-chip 671B MoE run. Target: at most 20 us each.
//! Also the fabric graph of a 100,000-chip cluster and the plan-size sweep the page redraws,
//! which rebuilds the fabric at 12 sizes.

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

fn main() {
    divan::main();
}
