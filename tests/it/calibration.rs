//! Calibration from the user's own measurements: the fit meets what was measured, recovers an
//! efficiency the measurements were made with, moves the plan's estimate, narrows its range
//! near the measured size and widens it away from it; bad measurements are named by place.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use clusterplan::evaluation::evaluate;
use clusterplan::model::calibrate::{self, Measured, Run};
use clusterplan::scenario::{url, Problem, Scenario};
use serde_json::{json, Value};

/// Llama 3.1 405B on 10,240 Ascend 910B: TP 8, PP 16, CP 2, so 256 chips per replica.
fn ascend_plan() -> Value {
    json!({
        "model": { "preset": "llama3-405b" },
        "training": { "tokens": "15.6T", "global_batch": 2048, "recipe": "megatron-bf16" },
        "cluster": { "chip": "ascend-910b", "chips": 10240, "system": "atlas-800t-a2" },
        "parallelism": { "tp": 8, "pp": 16, "cp": 2, "micro_batch": 1, "virtual_stages": 4,
                         "zero": 1, "recompute": "none", "sequence_parallel": true }
    })
}

/// A 64-chip run of the plan's model: TP 8, PP 4, CP 2, one replica.
fn small_run() -> Value {
    json!({ "cluster": { "chips": 64 }, "parallelism": { "pp": 4, "virtual_stages": 1, "dp": null } })
}

fn scenario(mut plan: Value, calibration: Value) -> Scenario {
    plan["calibration"] = calibration;
    Scenario::from_value(plan).expect("parses")
}

/// The model's step time of the small run with the catalog's efficiency.
fn small_run_step() -> f64 {
    let s = Scenario::from_value(ascend_plan()).expect("parses").measured_plan(&small_run());
    s.estimated().expect("the small run resolves").1.step_s
}

#[test]
fn one_measurement_is_met_and_moves_the_plan() {
    let base = evaluate(&Scenario::from_value(ascend_plan()).unwrap()).expect("resolves");
    let measured = 1.25 * small_run_step();
    let s = scenario(
        ascend_plan(),
        json!([{ "scenario": small_run(), "measured": { "step_s": measured } }]),
    );
    let good = evaluate(&s).expect("resolves with the measurement");
    let c = good.calibration.as_ref().expect("a fit");
    let fit = &c.fit;
    assert_eq!(c.places, vec![0]);
    assert!(!fit.at_bound, "{fit:?}");
    // The fitted model meets the measurement; a slower run means a lower efficiency.
    assert!(fit.residuals[0].error().abs() < 0.002, "{fit:?}");
    assert!(fit.rms < 0.002, "{fit:?}");
    assert!(fit.efficiency < fit.catalog, "{fit:?}");
    assert_eq!(good.inputs.cluster.chip.matmul_efficiency, fit.efficiency);
    // The 10,240-chip plan slows down, though by less than the 64-chip run (its
    // communication is not what the fit changes).
    let ratio = good.estimate.step_s / base.estimate.step_s;
    assert!(ratio > 1.05 && ratio < 1.25, "the plan's step changed by {ratio}");
    // Its range rests on the measurement now, and its spread is narrower than the published
    // runs gave (the fast end of either may be held to the highest MFU published at the scale).
    let calibrated = good.range.basis.calibrated.expect("the range rests on the measurement");
    assert_eq!((calibrated.runs, calibrated.nearest_chips), (1, 64));
    assert!(
        good.range.basis.spread < base.range.basis.spread,
        "calibrated {:?} against {:?}",
        good.range.basis,
        base.range.basis
    );
    let slow = |r: (f64, f64), days: f64| r.1 / days;
    assert!(
        slow(good.range.train_days, good.estimate.train_days)
            < slow(base.range.train_days, base.estimate.train_days)
    );
    assert!(!good.range.basis.validated);
}

#[test]
fn a_measurement_nearer_the_plan_gives_a_narrower_range() {
    let at = |chips: u32| {
        let run = json!({ "cluster": { "chips": chips }, "parallelism": { "dp": null } });
        let plan = Scenario::from_value(ascend_plan()).unwrap();
        let step = plan.measured_plan(&run).estimated().expect("resolves").1.step_s;
        let s =
            scenario(ascend_plan(), json!([{ "scenario": run, "measured": { "step_s": step } }]));
        let r = evaluate(&s).expect("resolves").range;
        r.train_days.1 / r.train_days.0
    };
    assert!(at(10240) < at(1024), "measured at the plan's size is surest");
    assert!(at(1024) < at(256), "extrapolating further widens the range");
}

#[test]
fn the_fit_recovers_the_efficiency_the_runs_were_made_with() {
    let plan = Scenario::from_value(ascend_plan()).unwrap();
    let truth = 0.55;
    let mut runs = Vec::new();
    for chips in [256u32, 512, 2048] {
        let run = json!({ "cluster": { "chips": chips }, "parallelism": { "dp": null } });
        let mut inputs = plan.measured_plan(&run).resolve().expect("resolves");
        inputs.cluster.chip.matmul_efficiency = truth;
        let e = clusterplan::model::estimate(&inputs);
        // Each kind of figure a user may have.
        let measured = match chips {
            256 => Measured::StepS(e.step_s),
            512 => Measured::TokensPerS(e.tokens_per_s),
            _ => Measured::Mfu(e.mfu),
        };
        inputs.cluster.chip.matmul_efficiency =
            plan.resolve().unwrap().cluster.chip.matmul_efficiency;
        runs.push(Run { inputs, measured });
    }
    let fit = calibrate::fit(&runs).expect("fits");
    assert!((fit.efficiency - truth).abs() < 0.002, "{fit:?}");
    assert!(fit.rms < 0.001, "{fit:?}");
    assert_eq!(fit.chips, vec![256, 512, 2048]);
    assert!(calibrate::fit(&[]).is_none());
}

#[test]
fn measurements_the_chip_cannot_explain_are_flagged() {
    // Ten times faster than the model's catalog figure: beyond the chip's peak, so refused.
    let s = scenario(
        ascend_plan(),
        json!([{ "scenario": small_run(), "measured": { "step_s": 0.1 * small_run_step() } }]),
    );
    let errors = evaluate(&s).expect_err("refused");
    assert!(
        matches!(errors[0].problem, Problem::FitAtBound { high: true, bound } if bound == calibrate::MAX_EFFICIENCY),
        "{errors:?}"
    );
    // Two measurements that no one efficiency explains leave a residual.
    let run_b = json!({ "cluster": { "chips": 256 }, "parallelism": { "dp": null } });
    let step_b = Scenario::from_value(ascend_plan())
        .unwrap()
        .measured_plan(&run_b)
        .estimated()
        .unwrap()
        .1
        .step_s;
    let s = scenario(
        ascend_plan(),
        json!([
            { "scenario": small_run(), "measured": { "step_s": 0.8 * small_run_step() } },
            { "scenario": run_b, "measured": { "step_s": 1.3 * step_b } }
        ]),
    );
    let good = evaluate(&s).expect("resolves");
    let c = good.calibration.as_ref().expect("a fit");
    assert!(c.fit.rms > 0.1, "{:?}", c.fit);
    // The faster run is left slow by the compromise, the slower one fast.
    assert!(c.fit.residuals[0].error() > 0.0 && c.fit.residuals[1].error() < 0.0, "{:?}", c.fit);
    // They disagree by more than runs of one published source do: challenged.
    let basis = good.range.basis.calibrated.expect("calibrated");
    assert!(basis.conflicting && basis.rms > basis.within, "{basis:?}");
    // Two that one efficiency explains are not.
    let s = scenario(
        ascend_plan(),
        json!([
            { "scenario": small_run(), "measured": { "step_s": 1.1 * small_run_step() } },
            { "scenario": run_b, "measured": { "step_s": 1.12 * step_b } }
        ]),
    );
    let basis = evaluate(&s).expect("resolves").range.basis.calibrated.expect("calibrated");
    assert!(!basis.conflicting, "{basis:?}");
}

#[test]
fn a_measurement_not_yet_entered_is_kept_and_left_out() {
    let s = scenario(
        ascend_plan(),
        json!([
            { "scenario": small_run(), "measured": { "step_s": null } },
            { "scenario": small_run(), "measured": { "tokens_per_s": 0.9 * 2048.0 * 8192.0 / small_run_step() } }
        ]),
    );
    let good = evaluate(&s).expect("resolves");
    assert_eq!(good.calibration.expect("the entered one is fitted").places, vec![1]);
    let only_pending =
        scenario(ascend_plan(), json!([{ "scenario": small_run(), "measured": { "mfu": null } }]));
    let good = evaluate(&only_pending).expect("resolves");
    assert!(good.calibration.is_none());
    assert_eq!(good.inputs, Scenario::from_value(ascend_plan()).unwrap().resolve().unwrap());
}

#[test]
fn bad_measurements_are_named_by_their_place() {
    let errors = |calibration: Value| {
        let e = scenario(ascend_plan(), calibration).resolve().expect_err("rejected");
        e.into_iter().map(|e| (e.field, e.problem)).collect::<Vec<_>>()
    };
    assert_eq!(
        errors(json!({ "step_s": 3 })),
        vec![("calibration".to_string(), Problem::NotList { got: "{\"step_s\":3}".into() })]
    );
    let found = errors(json!([
        { "scenario": small_run(), "measured": { "step_s": 3, "mfu": 0.4 } },
        { "scenario": small_run() },
        { "scenario": { "cluster": { "chip": "h100-sxm" } }, "measured": { "step_s": 3 } },
        { "scenario": { "cluster": { "chips": 0 } }, "measured": { "step_s": 3 } },
        { "scenario": small_run(), "measured": { "mfu": 1.5 } },
        { "scenario": small_run(), "measured": { "step_s": -2 } },
        { "scenario": small_run(), "measured": { "step_s": 3 }, "note": "x" }
    ]));
    let fields: Vec<&str> = found.iter().map(|(f, _)| f.as_str()).collect();
    for expected in [
        "calibration.0.measured",
        "calibration.1.measured",
        "calibration.3.scenario.cluster.chips",
        "calibration.4.measured.mfu",
        "calibration.5.measured.step_s",
        "calibration.6.note",
    ] {
        assert!(fields.contains(&expected), "{expected} not in {fields:?}");
    }
    assert!(found.contains(&(
        "calibration.0.measured".into(),
        Problem::OneOf { names: vec!["step_s", "tokens_per_s", "mfu"] }
    )));
    // A measurement on another chip is no error: it is kept for that chip.
    assert!(!fields.iter().any(|f| f.starts_with("calibration.2")), "{fields:?}");
    // In words, the place and the field the user knows.
    let e = scenario(
        ascend_plan(),
        json!([{ "scenario": { "cluster": { "chips": 0 } }, "measured": { "step_s": 3 } }]),
    )
    .resolve()
    .expect_err("rejected");
    assert!(e[0].to_string().starts_with("Measurement 1, Chips"), "{}", e[0]);
}

#[test]
fn the_link_and_the_search_carry_the_measurements() {
    let s = scenario(
        ascend_plan(),
        json!([{ "scenario": small_run(), "measured": { "step_s": 1.3 * small_run_step() } }]),
    );
    let back = url::decode(&url::encode(&s)).expect("decodes").expect("a scenario");
    assert_eq!(back, s);
    assert_eq!(back.resolve(), s.resolve());
    // The search starts from the fitted chip, so its plans and the form agree.
    let searchable = s.for_search().expect("searchable");
    let fitted = evaluate(&s).unwrap().inputs.cluster.chip.matmul_efficiency;
    assert_eq!(searchable.inputs.cluster.chip.matmul_efficiency, fitted);
    let applied = s.with_plan(&searchable.inputs.parallelism, 10240);
    assert_eq!(applied.calibration, s.calibration, "applying a plan keeps the measurements");
}

/// A measurement belongs to the chip and stack it was made on: on an H100 plan, a run measured
/// on MTT S4000 changes nothing and is listed as measured elsewhere; on the S4000 plan it
/// calibrates. Naming the plan's own chip is the same as naming none.
#[test]
fn a_measurement_calibrates_only_its_own_chip_and_stack() {
    let plan = |chip: &str| {
        json!({
            "model": { "preset": "llama3-70b" },
            "training": { "tokens": "2T", "global_batch": 1024 },
            "cluster": { "chip": chip, "chips": 1024 },
            "parallelism": { "tp": 8, "pp": 4 }
        })
    };
    let measured = json!([{ "scenario": { "cluster": { "chip": "mtt-s4000", "chips": 1024 } },
                            "measured": { "mfu": 0.2 } }]);
    let h100 = scenario(plan("h100-sxm"), measured.clone());
    let alone = Scenario::from_value(plan("h100-sxm")).expect("parses");
    assert_eq!(h100.resolve().expect("resolves"), alone.resolve().expect("resolves"));
    assert!(evaluate(&h100).expect("resolves").calibration.is_none());
    let elsewhere = h100.measured_elsewhere();
    assert_eq!(elsewhere.len(), 1);
    assert_eq!(elsewhere[0].0, 0);
    assert!(elsewhere[0].1.contains("S4000"), "{elsewhere:?}");

    let s4000 = scenario(plan("mtt-s4000"), measured);
    let fitted = evaluate(&s4000).expect("resolves");
    assert!(fitted.calibration.is_some(), "the S4000 plan is calibrated");
    assert!(s4000.measured_elsewhere().is_empty());
    let plain =
        Scenario::from_value(plan("mtt-s4000")).expect("parses").resolve().expect("resolves");
    assert_ne!(fitted.inputs.cluster.chip.matmul_efficiency, plain.cluster.chip.matmul_efficiency);

    // Another stack is elsewhere too.
    let other_stack = json!([{ "scenario": { "parallelism": { "stack": "pytorch-fsdp" } },
                               "measured": { "mfu": 0.2 } }]);
    let h100 = scenario(plan("h100-sxm"), other_stack);
    assert!(evaluate(&h100).expect("resolves").calibration.is_none());
    assert_eq!(h100.measured_elsewhere()[0].1, "pytorch-fsdp");
}

/// A measurement that would put the chip at its ceiling (an MFU no H100 run reaches) is
/// refused with its reason, not applied; one at the floor likewise.
#[test]
fn a_fit_at_a_bound_of_the_chip_is_refused() {
    let plan = json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": "2T", "global_batch": 1024 },
        "cluster": { "chip": "h100-sxm", "chips": 1024 },
        "parallelism": { "tp": 8, "pp": 4 }
    });
    for (mfu, high) in [(0.97, true), (0.002, false)] {
        let s = scenario(plan.clone(), json!([{ "scenario": {}, "measured": { "mfu": mfu } }]));
        let errors = s.resolve().expect_err("refused");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].field, "calibration.0.measured");
        assert!(
            matches!(errors[0].problem, Problem::FitAtBound { high: h, .. } if h == high),
            "{errors:?}"
        );
        assert!(errors[0].to_string().contains("not applied"), "{}", errors[0]);
    }
}

/// A claim beyond the evidence is challenged: a measured MFU above every published run on as
/// many chips is applied with a warning naming the highest, a plan whose MFU goes beyond every
/// published run at its scale says so, and no range's fast end reaches an MFU no published run
/// at that scale has shown (over generated BF16 plans).
#[test]
fn a_claim_beyond_every_published_run_is_challenged() {
    use clusterplan::model::Warning;
    use clusterplan::validation::best_published;
    let plan = json!({
        "model": { "preset": "llama3-70b" },
        "training": { "tokens": "2T", "global_batch": 1024, "recipe": "megatron-bf16" },
        "cluster": { "chip": "mtt-s4000", "chips": 10_240, "system": "kuae-s4000" },
        "parallelism": { "tp": 8, "pp": 4 }
    });
    let run = json!({ "cluster": { "chips": 1024 }, "parallelism": { "dp": null } });
    for (mfu, beyond_at_1024) in [(0.6, false), (0.7, true)] {
        let s = scenario(plan.clone(), json!([{ "scenario": run, "measured": { "mfu": mfu } }]));
        let good = evaluate(&s).expect("resolves");
        let w = &good.estimate.warnings;
        let measured = w.iter().any(|w| matches!(w, Warning::MeasuredBeyondPublished { .. }));
        assert_eq!(measured, beyond_at_1024, "{mfu}: {w:?}");
        let best = best_published(good.estimate.chips_used).expect("published at this scale");
        let beyond = w.iter().any(|w| matches!(w, Warning::BeyondPublished { .. }));
        assert_eq!(
            beyond,
            good.estimate.mfu > best.mfu,
            "{mfu}: {} against {best:?}",
            good.estimate.mfu
        );
        assert!(good.range.mfu.1 <= best.mfu.max(good.estimate.mfu) * (1.0 + 1e-12));
    }
    let mut rng = common::Rng(0xB0B_F16);
    let mut judged = 0;
    for _ in 0..300 {
        let s = common::random_scenario(&mut rng);
        let Ok(good) = evaluate(&s) else { continue };
        if !clusterplan::validation::bf16(&good.inputs) {
            continue;
        }
        let Some(best) = best_published(good.estimate.chips_used) else { continue };
        judged += 1;
        assert!(good.range.mfu.1 <= best.mfu.max(good.estimate.mfu) * (1.0 + 1e-12), "{s:?}");
    }
    assert!(judged > 50, "{judged} judged");
}

/// Llama 3.1 8B on H100 at `chips` with this tensor-parallel size, micro-batch and sequence:
/// a model small enough per GPU that launches weigh.
fn small_model(chips: u32, tp: u32, cp: u32, micro_batch: u32, seq: u32) -> Scenario {
    Scenario::from_value(json!({
        "model": { "preset": "llama3-8b", "seq_len": seq },
        "training": { "tokens": 1e12, "global_batch": 1024, "recipe": "megatron-bf16" },
        "cluster": { "chip": "h100-sxm", "chips": chips },
        "parallelism": { "tp": tp, "pp": 1, "cp": cp, "micro_batch": micro_batch,
                         "zero": 1, "recompute": "selective", "sequence_parallel": tp > 1,
                         "stack": "megatron-core" }
    }))
    .expect("a scenario")
}

/// `inputs` as the generator runs them: GEMMs at `efficiency`, launches at `host_s`.
fn generated(mut inputs: clusterplan::model::Inputs, efficiency: f64, host_s: f64) -> f64 {
    inputs.cluster.chip.matmul_efficiency = efficiency;
    inputs.parallelism.software.layer_host_s = host_s;
    clusterplan::model::estimate(&inputs).step_s
}

/// Over generated generators (GEMMs at 60-115 % of the catalog's efficiency, launches at 0 to
/// 1 ms a layer) and pairs of runs of different shapes (tensor-parallel size, micro-batch,
/// sequence): where the runs separate launches from GEMMs the fit recovers both, and the plan
/// at a third shape and 64 times the size lands on the generator's step; where they do not
/// (one shape at two sizes) the catalog's launch time is kept.
#[test]
fn runs_of_two_shapes_fit_the_launch_time_too() {
    let mut rng = common::Rng(0x1a0c4);
    // Tokens a GPU's layer runs a micro-batch: 1,024, 2,048, 4,096, 8,192 and 16,384.
    let shapes = [(8, 1, 8192), (1, 1, 2048), (4, 2, 8192), (2, 4, 4096), (1, 2, 8192)];
    let (mut fitted, mut cases) = (0, 0);
    for _ in 0..24 {
        let a = *rng.pick(&shapes);
        let b = *rng.pick(&shapes);
        let plan = small_model(1024, 4, 4, 1, 8192).resolve().expect("the plan resolves");
        let catalog = (plan.cluster.chip.matmul_efficiency, plan.parallelism.software.layer_host_s);
        let truth = (
            catalog.0 * (0.6 + 0.55 * rng.below(1000) as f64 / 1000.0),
            1e-3 * rng.below(1000) as f64 / 1000.0,
        );
        let run = |(tp, mb, seq): (u32, u32, u32), chips: u32| {
            let inputs = small_model(chips, tp, 1, mb, seq).resolve().expect("a run resolves");
            Run { inputs, measured: Measured::StepS(generated(inputs, truth.0, truth.1)) }
        };
        let runs = [run(a, 16), run(b, 64)];
        let fit = calibrate::fit(&runs).expect("fits");
        assert!(fit.residuals.iter().all(|r| r.error().is_finite()), "{fit:?}");
        cases += 1;
        if a == b {
            // One shape at two sizes: a slow launch and a slow GEMM look alike.
            assert_eq!(fit.launches, calibrate::Launches::OneShape, "{a:?} {fit:?}");
            assert_eq!(fit.host_s, fit.host_catalog);
            continue;
        }
        assert_eq!(fit.launches, calibrate::Launches::Fitted, "{a:?} {b:?} {fit:?}");
        fitted += 1;
        assert!((fit.efficiency / truth.0 - 1.0).abs() < 0.005, "{truth:?} {fit:?}");
        assert!((fit.host_s - truth.1).abs() < 5e-6, "{truth:?} {fit:?}");
        assert!(fit.rms < 1e-3, "{fit:?}");
        let after = clusterplan::model::estimate(&calibrate::apply(&plan, &fit)).step_s;
        let want = generated(plan, truth.0, truth.1);
        assert!((after / want - 1.0).abs() < 0.005, "{after} vs the generator's {want}");
    }
    assert!(fitted * 2 > cases, "{fitted} of {cases} pairs had two shapes");
}

/// The case the launch time is for: a small model on many GPUs (512 tokens a GPU at TP 4 × CP
/// 4), planned from runs at 16 and 64 GPUs whose GEMMs run at 80 % of the catalog's rate and
/// whose launches take four times its figure. GEMM efficiency alone, fitted to runs of one
/// shape, leaves the plan more than 5 % fast (6.6 %); runs at two micro-batch sizes set both figures
/// and land on the generator.
#[test]
fn launch_time_carries_to_small_shards() {
    let plan = small_model(1024, 4, 4, 1, 8192).resolve().expect("the plan resolves");
    let truth =
        (0.8 * plan.cluster.chip.matmul_efficiency, 4.0 * plan.parallelism.software.layer_host_s);
    let run = |chips: u32, mb: u32| {
        let inputs = small_model(chips, 2, 1, mb, 4096).resolve().expect("a run resolves");
        Run { inputs, measured: Measured::StepS(generated(inputs, truth.0, truth.1)) }
    };
    let want = generated(plan, truth.0, truth.1);
    let planned = |runs: &[Run]| {
        let fit = calibrate::fit(runs).expect("fits");
        (clusterplan::model::estimate(&calibrate::apply(&plan, &fit)).step_s / want - 1.0, fit)
    };
    let (one_shape, fit) = planned(&[run(16, 1), run(64, 1)]);
    assert_eq!(fit.launches, calibrate::Launches::OneShape);
    assert!(one_shape < -0.05, "GEMMs alone: {one_shape}");
    let (two_shapes, fit) = planned(&[run(16, 1), run(16, 4)]);
    assert_eq!(fit.launches, calibrate::Launches::Fitted);
    assert!(two_shapes.abs() < 0.005, "both: {two_shapes}");
}

/// Launch time is kept where no run launches kernels one at a time (whole-iteration CUDA
/// graphs) and where the runs ask for more fixed time than launching could take; a large
/// model's runs, where launches weigh little, fit what they were made with.
#[test]
fn launch_time_is_kept_where_runs_cannot_set_it() {
    let shapes = [(2, 1, 4096), (2, 4, 4096)];
    let runs = |graphs: bool, extra_s: f64| -> Vec<Run> {
        shapes
            .iter()
            .map(|&(tp, mb, seq)| {
                let mut s = small_model(16, tp, 1, mb, seq);
                if graphs {
                    s = s.measured_plan(&json!({ "parallelism": { "cuda_graphs": "full" } }));
                }
                let inputs = s.resolve().expect("resolves");
                let step = clusterplan::model::estimate(&inputs).step_s;
                // The smaller micro-batch runs four times the micro-batches: more fixed time.
                let extra = if mb == 1 { extra_s } else { 0.0 };
                Run { inputs, measured: Measured::StepS(step + extra) }
            })
            .collect()
    };
    let fit = calibrate::fit(&runs(true, 0.0)).expect("fits");
    assert_eq!(fit.launches, calibrate::Launches::Unseen, "{fit:?}");
    assert_eq!(fit.host_s, fit.host_catalog);
    let fit = calibrate::fit(&runs(false, 100.0)).expect("fits");
    assert_eq!(fit.launches, calibrate::Launches::Beyond, "{fit:?}");
    assert_eq!(fit.host_s, fit.host_catalog);
    // Llama 3.1 405B's layers at TP 8 take tens of milliseconds; its runs, made with the
    // catalog's figures, give them back.
    let plan = Scenario::from_value(ascend_plan()).expect("parses");
    let big: Vec<Run> = [1u32, 2]
        .iter()
        .map(|&mb| {
            let changes = json!({ "cluster": { "chips": 64 },
                                  "parallelism": { "pp": 4, "virtual_stages": 1, "dp": null, "micro_batch": mb } });
            let inputs = plan.measured_plan(&changes).resolve().expect("resolves");
            Run { inputs, measured: Measured::StepS(clusterplan::model::estimate(&inputs).step_s) }
        })
        .collect();
    let fit = calibrate::fit(&big).expect("fits");
    assert_eq!(fit.launches, calibrate::Launches::Fitted, "{fit:?}");
    assert!((fit.host_s - fit.host_catalog).abs() < 1e-6, "{fit:?}");
    assert!((fit.efficiency / fit.catalog - 1.0).abs() < 1e-3, "{fit:?}");
}
