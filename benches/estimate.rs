//! Time of one `estimate` (the facility estimate included) on the two reference plans: a
//! 16,384-chip dense 405B run and a 2,048-chip 671B MoE run. Target: at most 20 us each.
//! Also the fabric graph of a 100,000-chip cluster and the plan-size sweep the page redraws,
//! which rebuilds the fabric at 12 sizes.

use clusterplan::model::search::{evaluate, search, Options};
use clusterplan::model::{estimate, Inputs};
use clusterplan::scenario::Scenario;

/// The two reference workloads (`tests/data/reference-workloads.json`, which the in-browser
/// benchmark reads too): a 16,384-chip dense 405B run and a 2,048-chip 671B MoE run.
const WORKLOADS: &str = include_str!("../tests/data/reference-workloads.json");

fn workload(index: usize) -> Inputs {
    let mut scenarios = Scenario::parse_many(WORKLOADS).expect("reference workloads parse");
    scenarios.swap_remove(index).resolve().expect("reference workload resolves")
}

const DENSE_405B: usize = 0;
const MOE_671B: usize = 1;

#[divan::bench]
fn dense_405b_16384_chips(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    bencher.bench(|| estimate(divan::black_box(&inputs)));
}

#[divan::bench]
fn moe_671b_2048_chips(bencher: divan::Bencher) {
    let inputs = workload(MOE_671B);
    bencher.bench(|| estimate(divan::black_box(&inputs)));
}

/// Inputs serving `model` on `chips` of `chip` at a load and TPOT target, its deployment the
/// smallest that holds it, with the training estimate its prices come from.
fn serving(model: &str, chip: &str, chips: u32) -> (Inputs, clusterplan::model::Estimate) {
    let scenario = Scenario::from_value(serde_json::json!({
        "model": { "preset": model },
        "training": { "tokens": 1e12, "global_batch": 1024 },
        "cluster": { "chip": chip, "chips": chips },
        "serving": { "tokens_per_day": 1e10, "tpot_ms": 50 },
    }))
    .expect("a serving scenario");
    let inputs = scenario.resolve().expect("resolves");
    let e = estimate(&inputs);
    (inputs, e)
}

#[divan::bench]
fn serving_llama3_70b_h100(bencher: divan::Bencher) {
    let (inputs, e) = serving("llama3-70b", "h100-sxm", 1024);
    bencher.bench(|| clusterplan::model::serving::of(divan::black_box(&inputs), &e));
}

#[divan::bench]
fn serving_deepseek_v3_h800(bencher: divan::Bencher) {
    let (inputs, e) = serving("deepseek-v3", "h800", 2048);
    bencher.bench(|| clusterplan::model::serving::of(divan::black_box(&inputs), &e));
}

#[divan::bench]
fn serving_search_deepseek_v3_h800(bencher: divan::Bencher) {
    let (inputs, e) = serving("deepseek-v3", "h800", 2048);
    bencher.bench(|| clusterplan::model::serving::search(divan::black_box(&inputs), &e, 2048));
}

/// A preset of the newer kinds on `chips` H100 with TP 8, PP 4 and no CP.
fn newer(model: &str, chips: u32) -> Inputs {
    let plan = serde_json::json!({
        "model": { "preset": model },
        "training": { "tokens": "10T", "global_batch": 1024, "recipe": "fp8" },
        "cluster": { "chip": "h100-sxm", "chips": chips },
        "parallelism": { "tp": 8, "pp": 4, "cp": 1, "virtual_stages": 1 }
    });
    Scenario::from_value(plan).expect("a scenario").resolve().expect("resolves")
}

/// A hybrid of Mamba-2 and attention: Nemotron-H 56B on 2,048 H100.
#[divan::bench]
fn hybrid_nemotron_h_56b_2048_chips(bencher: divan::Bencher) {
    let inputs = newer("nemotron-h-56b", 2048);
    bencher.bench(|| estimate(divan::black_box(&inputs)));
}

/// A vision-language model, its encoder on the first stage: Qwen2-VL 72B on 2,048 H100.
#[divan::bench]
fn vision_qwen2_vl_72b_2048_chips(bencher: divan::Bencher) {
    let inputs = newer("qwen2-vl-72b", 2048);
    bencher.bench(|| estimate(divan::black_box(&inputs)));
}

/// The other newer kinds on 2,048 H100: Mamba-1 (Jamba), Gated DeltaNet with experts
/// (Qwen3-Next), RWKV-7, and a diffusion transformer (Wan 2.1).
const NEWER_KINDS: [&str; 4] = ["jamba-1.5-mini", "qwen3-next-80b-a3b", "rwkv7-2.9b", "wan2.1-14b"];

#[divan::bench(args = NEWER_KINDS)]
fn newer_kinds_2048_chips(bencher: divan::Bencher, model: &str) {
    let inputs = newer(model, 2048);
    bencher.bench(|| estimate(divan::black_box(&inputs)));
}

/// Every plan for each newer kind on 2,048 H100, searched whole.
#[divan::bench(args = NEWER_KINDS, sample_count = 3, sample_size = 1)]
fn search_newer_kinds_2048_chips(bencher: divan::Bencher, model: &str) {
    let inputs = newer(model, 2048);
    bencher.bench(|| search(divan::black_box(&inputs), Options::default()));
}

/// Failures as a distribution: 400 simulated runs of the dense reference workload, about 62
/// failure-free days on 16,384 chips and some 530 interruptions each. Target: 50 ms in the page.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn failures_16384_chips_62_days(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    let e = estimate(&inputs);
    bencher.bench(|| clusterplan::model::failures::of(divan::black_box(&inputs), &e));
}

/// One job over two pools (4,096 H800 beside 4,096 Ascend 910B, Llama 3 70B), by data.
#[divan::bench]
fn pools_two_by_data(bencher: divan::Bencher) {
    let fleet = serde_json::json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": "15T", "global_batch": 1024 },
        "cluster": { "chip": "h800", "chips": 4096,
                     "pools": [{ "chip": "ascend-910b", "chips": 4096 }],
                     "between_pools": { "gbit_per_s": 1e5 } },
        "parallelism": { "tp": 8, "pp": 4 }
    });
    let scenario = Scenario::from_value(fleet).expect("a scenario");
    let p = scenario.pools().ok().flatten().expect("two pools");
    bencher.bench(|| {
        clusterplan::model::pools::across(divan::black_box(&p.pools), p.across, p.between)
    });
}

/// One job over two pools at two sites (8,192 H100 each, 1,000 km apart, Llama 3 70B),
/// streamed DiLoCo every 100 steps: each site's job and what it draws, then the sites' job.
#[divan::bench]
fn pools_two_sites_diloco(bencher: divan::Bencher) {
    use clusterplan::model::sites::{across_sites, site};
    let plan = serde_json::json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": "15T", "global_batch": 2048 },
        "cluster": { "chip": "h100-sxm", "chips": 8192, "site": "east",
                     "pools": [{ "chip": "h100-sxm", "chips": 8192, "site": "west" }],
                     "between_pools": { "gbit_per_s": 1e5 } },
        "parallelism": { "tp": 8, "pp": 4, "across_sites": "diloco", "diloco_streaming": true },
        "sites": [{ "name": "east", "wan_gbit_per_s": 10 }, { "name": "west", "wan_gbit_per_s": 10 }]
    });
    let scenario = Scenario::from_value(plan).expect("a scenario");
    let pools = scenario.pools().ok().flatten().expect("two pools");
    let how = scenario.sites().ok().flatten().expect("two sites").how;
    let work = clusterplan::model::sites::Work::of(&pools.pools[0]);
    bencher.bench(|| {
        let sites: Vec<_> = pools
            .pools
            .iter()
            .map(|p| site(std::slice::from_ref(p), pools.across, pools.between, None, 1.25e9, 5e-3))
            .collect();
        across_sites(divan::black_box(&sites), how, &work)
    });
}

/// What moves the answer of the dense reference workload: fourteen inputs moved each way, each
/// end estimated again (`model::sensitivity`), as the plots' worker runs it after every edit.
#[divan::bench]
fn sensitivity_405b_16384_chips(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    let e = estimate(&inputs);
    bencher.bench(|| {
        clusterplan::model::sensitivity::sensitivity(divan::black_box(&inputs), &e, (0.9, 1.3))
    });
}

/// The network's load by tier and the step's timeline of the dense reference workload.
#[divan::bench]
fn network_and_timeline_405b_16384_chips(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    let e = estimate(&inputs);
    let p = inputs.parallelism;
    bencher.bench(|| {
        let load = clusterplan::model::network::load(divan::black_box(&inputs), &e);
        let events = clusterplan::model::timeline::timeline(&e, p.pipeline, p.virtual_stages);
        (load, events)
    });
}

#[divan::bench]
fn fabric_graph_100000_chips(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    let spec = clusterplan::fabric::spec_of(&inputs, 100_000);
    bencher.bench(|| clusterplan::fabric::build(divan::black_box(&spec)));
}

#[divan::bench]
fn scaling_sweep_with_fabric_12_sizes(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    let counts = clusterplan::model::sweep::default_chip_counts();
    bencher.bench(|| clusterplan::fabric::scaling(divan::black_box(&inputs), &counts));
}

/// Every plan for the dense reference workload on 16,384 chips, searched whole.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn search_dense_405b_16384_chips(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    bencher.bench(|| search(divan::black_box(&inputs), Options::default()));
}

/// Sizing three chips (H100, Ascend 910B, MTT S4000) for the dense reference workload in 90
/// days. Target: at most ten times `search_dense_405b_16384_chips` in the same run.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn size_three_chips_405b_90_days(bencher: divan::Bencher) {
    let scenario = Scenario::default_plan();
    bencher.bench(|| {
        ["h100-sxm", "ascend-910b", "mtt-s4000"].map(|chip| {
            clusterplan::sizing::size(divan::black_box(&scenario), Some(chip), 90.0).is_ok()
        })
    });
}

/// Every plan for the MoE reference workload on 2,048 chips, searched whole.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn search_moe_671b_2048_chips(bencher: divan::Bencher) {
    let inputs = workload(MOE_671B);
    bencher.bench(|| search(divan::black_box(&inputs), Options::default()));
}

/// One plan judged as the search judges it: problems, memory, then time.
#[divan::bench]
fn search_evaluate_one_plan(bencher: divan::Bencher) {
    let inputs = workload(DENSE_405B);
    bencher.bench(|| evaluate(divan::black_box(&inputs)));
}

/// The example plan as Megatron-LM's launch (files, layout), from the scenario.
#[divan::bench]
fn launch_megatron_405b_16384_chips(bencher: divan::Bencher) {
    let scenario = clusterplan::scenario::Scenario::default_plan();
    let framework = clusterplan::launch::Framework::Megatron;
    bencher.bench(|| clusterplan::evaluation::launch(divan::black_box(&scenario), framework));
}

/// A plan judged with two measured runs of two shapes, which fit the chip's GEMM efficiency
/// and the stack's launch time on every edit: Llama 3.1 405B on 10,240 Ascend 910B from 70B
/// runs on 64 chips at micro-batches 1 and 2.
#[divan::bench]
fn calibrated_two_shapes_405b_10240_chips(bencher: divan::Bencher) {
    let run = |micro_batch: u32, step_s: f64| {
        serde_json::json!({
            "scenario": { "model": { "preset": "llama3-70b" }, "cluster": { "chips": 64 },
                          "parallelism": { "pp": 4, "micro_batch": micro_batch },
                          "training": { "global_batch": 128 } },
            "measured": { "step_s": step_s }
        })
    };
    let scenario = clusterplan::scenario::Scenario::from_value(serde_json::json!({
        "model": { "preset": "llama3-405b" },
        "training": { "tokens": "15.6T", "global_batch": 2048, "recipe": "megatron-bf16" },
        "cluster": { "chip": "ascend-910b", "chips": 10240, "system": "atlas-800t-a2" },
        "parallelism": { "tp": 8, "pp": 16, "cp": 2, "micro_batch": 1, "virtual_stages": 4,
                         "zero": 1, "recompute": "none", "sequence_parallel": true },
        "calibration": [run(1, 56.0), run(2, 54.0)]
    }))
    .expect("the scenario");
    bencher.bench(|| clusterplan::evaluation::evaluate(divan::black_box(&scenario)));
}

/// A hostile log read whole: 100 MB of lines no format knows.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn measure_100mb_log(bencher: divan::Bencher) {
    let line = b"[rank3]: INFO step done, nothing to see here; iteration counters reset 12345\n";
    let log: Vec<u8> = line.iter().copied().cycle().take(100 << 20).collect();
    bencher.bench(|| clusterplan::measure::read("noise.log", divan::black_box(&log)));
}

/// A Megatron log of 10,000 iterations read into its step.
#[divan::bench]
fn measure_megatron_10000_iterations(bencher: divan::Bencher) {
    let mut log = String::new();
    for i in 1..=10_000 {
        log.push_str(&format!(
            " [2026-11-02 10:00:00.000000] iteration {i:8}/   10000 | consumed samples: {:12} | \
             elapsed time per iteration (ms): {:.1} | global batch size:  2048 | lm loss: 9.0E+00 |\n",
            i * 2048,
            6000.0 + (i % 7) as f64
        ));
    }
    let log = log.into_bytes();
    bencher.bench(|| clusterplan::measure::read("run.log", divan::black_box(&log)));
}

/// The year of `tests/data/year-20-jobs.json` (which the in-browser benchmark reads too): 12
/// training jobs and 8 serving over 52 weeks on H100, GB300 and Ascend 910B, every job estimated
/// at its sizes on each chip, scheduled, its range and what to buy. Target: 50 ms.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn year_20_jobs_52_weeks_3_chips(bencher: divan::Bencher) {
    let text = include_str!("../tests/data/year-20-jobs.json");
    let scenario = Scenario::parse_many(text).expect("parses").swap_remove(0);
    bencher.bench(|| clusterplan::sizing::year::answer(divan::black_box(&scenario)));
}

fn main() {
    // What each search covers, so plans per second can be read off the times below.
    for (name, index) in
        [("dense 405B, 16,384 chips", DENSE_405B), ("MoE 671B, 2,048 chips", MOE_671B)]
    {
        let o = search(&workload(index), Options::default());
        println!(
            "search {name}: {} plans searched, {} pruned ({} cannot run, {} do not fit), {} evaluated, {} of {} choices of degrees skipped",
            o.searched, o.pruned, o.invalid, o.does_not_fit, o.evaluated, o.skipped_cells, o.progress.1
        );
    }
    divan::main();
}
