//! The plots drawn into SVG strings: the same drawing code the app runs on a canvas.
#![cfg(not(target_arch = "wasm32"))]

use clusterplan::charts::{self, DARK, LIGHT};
use clusterplan::model::{self, sweep};
use clusterplan::scenario::Scenario;
use plotters::prelude::*;

fn svg(
    draw: impl Fn(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> charts::DrawResult,
) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (640, 240)).into_drawing_area();
        draw(&root).expect("draws");
    }
    out
}

fn default_inputs() -> model::Inputs {
    Scenario::default_plan().resolve().expect("default plan resolves")
}

#[test]
fn step_plot_labels_every_nonzero_part_with_units() {
    let e = model::estimate(&default_inputs());
    let out = svg(|root| charts::draw_step(root, &e, &LIGHT));
    assert!(out.contains("seconds per step"), "x axis has its unit");
    assert!(out.contains("Step time breakdown"));
    for (label, (_, seconds)) in charts::STEP_LABELS.iter().zip(e.breakdown.parts()) {
        assert_eq!(out.contains(label), seconds > 0.0, "{label}: {seconds}");
    }
}

#[test]
fn memory_plot_marks_the_capacity() {
    let e = model::estimate(&default_inputs());
    let out = svg(|root| charts::draw_memory(root, &e, &DARK));
    assert!(out.contains("GiB per chip"));
    assert!(out.contains("capacity"));
    assert!(out.contains("weights"));
    assert!(out.to_uppercase().contains("#181A1F"), "dark background used");
}

#[test]
fn scaling_plot_has_both_axes_and_the_current_point() {
    let inputs = default_inputs();
    let points = sweep::scaling(&inputs, &sweep::default_chip_counts());
    assert!(points.len() >= 8, "64 to 100,000 chips for a 128-chip replica");
    assert_eq!(points.last().map(|p| p.chips), Some(100_000));
    assert!(
        points.windows(2).all(|w| w[1].train_days <= w[0].train_days * 1.0001),
        "more chips, fewer days"
    );
    let e = model::estimate(&inputs);
    let current = sweep::ScalingPoint::of(inputs.cluster.n_chips, &e);
    let out = svg(|root| charts::draw_scaling(root, &points, Some(&current), &LIGHT));
    for text in [
        "days to train",
        "MFU (%)",
        "chips (log scale)",
        "this plan: 16,384 chips, ",
        "ideal scaling from this plan",
    ] {
        assert!(out.contains(text), "{text}");
    }
    let verdict = if current.fits { "16,384 chips, fits" } else { "16,384 chips, does not fit" };
    assert!(out.contains(verdict), "the plan's fit status is in the legend");
}

#[test]
fn plots_drawn_for_a_dense_screen_scale_their_text() {
    let e = model::estimate(&default_inputs());
    let plain = svg(|root| charts::draw_step(root, &e, &LIGHT));
    let dense = svg(|root| charts::draw_step(root, &e, &LIGHT.at_scale(2.0)));
    let sizes = |svg: &str| -> Vec<f64> {
        svg.split("font-size=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next()?.parse().ok())
            .collect()
    };
    let (plain, dense) = (sizes(&plain), sizes(&dense));
    assert!(!plain.is_empty() && plain.len() == dense.len(), "{plain:?} {dense:?}");
    for (p, d) in plain.iter().zip(&dense) {
        assert!((d / p - 2.0).abs() < 1e-9, "text twice as large on a 2x screen: {p} -> {d}");
    }
}

#[test]
fn plots_survive_degenerate_estimates() {
    let mut inputs = default_inputs();
    inputs.cluster.chip.hbm_bytes = 0.0;
    inputs.training.tokens = 0.0;
    let e = model::estimate(&inputs);
    svg(|root| charts::draw_step(root, &e, &LIGHT));
    svg(|root| charts::draw_memory(root, &e, &LIGHT));
    svg(|root| charts::draw_scaling(root, &[], None, &LIGHT));
}

#[test]
fn power_and_cost_plots_show_parts_that_sum_to_their_totals() {
    let inputs = default_inputs();
    let e = model::estimate(&inputs);
    let power: f64 = charts::power_parts(&e).iter().sum();
    assert!((power - e.facility.power.facility_w / 1e6).abs() < 1e-9 * power.max(1.0));
    let cost: f64 = charts::cost_parts(&e).iter().sum();
    assert!((cost - e.facility.cost.run_amortized_usd / 1e6).abs() < 1e-9 * cost.max(1.0));
    let out = svg(|root| charts::draw_power(root, &e, &LIGHT));
    for text in ["Site power", "chips:", "IT at maximum", "MW"] {
        assert!(out.contains(text), "{text}");
    }
    let out = svg(|root| charts::draw_cost(root, &e, &LIGHT));
    for text in ["Cost of the run", "energy:", "cloud rental", "$M"] {
        assert!(out.contains(text), "{text}");
    }
    let points = clusterplan::fabric::scaling(&inputs, &sweep::default_chip_counts());
    let big = points.last().expect("points");
    let small = points.first().expect("points");
    assert!(big.facility_w > 100.0 * small.facility_w, "power grows with the cluster");
    let current = sweep::ScalingPoint::of(inputs.cluster.n_chips, &e);
    let out = svg(|root| charts::draw_plant_scaling(root, &points, Some(&current), &LIGHT));
    for text in ["site power (MW)", "run cost ($M", "this plan: 16,384 chips"] {
        assert!(out.contains(text), "{text}");
    }
    svg(|root| charts::draw_plant_scaling(root, &[], None, &DARK));
}

#[test]
fn the_effective_compute_plot_shows_what_failures_and_mfu_take() {
    let inputs = default_inputs();
    let e = model::estimate(&inputs);
    let points = clusterplan::fabric::scaling(&inputs, &sweep::default_chip_counts());
    assert!(points
        .iter()
        .all(|p| p.goodput > 0.0 && p.goodput <= 1.0 && p.model_flops_per_s > 0.0));
    let current = sweep::ScalingPoint::of(inputs.cluster.n_chips, &e);
    let out = svg(|root| charts::draw_effective(root, &points, Some(&current), &LIGHT));
    for text in ["model EFLOP/s", "linear growth", "MFU", "after failures", "goodput"] {
        assert!(out.contains(text), "{text}");
    }
    svg(|root| charts::draw_effective(root, &[], None, &DARK));
}

#[test]
fn sizing_plot_draws_each_chip_and_the_deadline() {
    let curves = [
        charts::Curve { label: "h100-sxm".into(), points: vec![(8192, 61.0), (12288, 44.0)] },
        charts::Curve { label: "b200".into(), points: vec![(4096, 57.0)] },
    ];
    let out = svg(|root| charts::draw_sizing(root, &curves, 60.0, &LIGHT));
    assert!(out.contains("Days to train against cluster size"));
    assert!(out.contains("h100-sxm") && out.contains("b200"), "a legend entry per chip");
    assert!(out.contains("deadline: 60 days"));
    // Nothing sized yet still draws axes, without panicking.
    let empty = svg(|root| charts::draw_sizing(root, &[], 30.0, &DARK));
    assert!(empty.contains("deadline: 30 days"));
}

/// The sizing plot the worker sends as an image: a whole SVG document, text sized without a
/// font system (there is none in a Web Worker).
#[test]
fn sizing_plot_as_an_svg_document() {
    let curves =
        [charts::Curve { label: "mi300x".into(), points: vec![(1024, 40.0), (2048, 21.0)] }];
    let svg = charts::sizing_svg(&curves, 30.0, &DARK, (720, 300));
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("mi300x") && svg.contains("deadline: 30 days"));
}

/// The breakdowns exported as CSV sum to their totals, as the tables do.
#[test]
fn breakdown_csv_sums_to_its_totals() {
    let e = model::estimate(&default_inputs());
    let csv = clusterplan::report::breakdown_csv(&e);
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let sum = |kind: &str| -> f64 {
        rows.iter()
            .filter(|r| r[0] == kind && r[1] != "total" && r[1] != "peak")
            .map(|r| r[2].parse::<f64>().unwrap())
            .sum()
    };
    let total = |kind: &str, name: &str| -> f64 {
        rows.iter().find(|r| r[0] == kind && r[1] == name).map(|r| r[2].parse().unwrap()).unwrap()
    };
    assert!((sum("step") - total("step", "total")).abs() <= 1e-9 * e.step_s);
    assert!((sum("memory") - total("memory", "peak")).abs() <= 1e-6 * e.memory.peak_bytes);
    assert!(rows.iter().all(|r| r.len() == 4), "no label holds a comma");
}
