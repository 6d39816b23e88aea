//! The plots as SVG documents: the same drawing code the page shows inline and saves.
#![cfg(not(target_arch = "wasm32"))]

use clusterplan::charts::{self, DARK, LIGHT};
use clusterplan::format::Money;
use clusterplan::model::{self, sweep};
use clusterplan::scenario::Scenario;

const SIZE: charts::Size = (640, 240);

fn default_inputs() -> model::Inputs {
    Scenario::default_plan().resolve().expect("default plan resolves")
}

#[test]
fn step_plot_labels_every_nonzero_part_with_units() {
    let e = model::estimate(&default_inputs());
    let out = charts::draw_step(&e, &LIGHT, SIZE);
    assert!(out.contains("seconds per step"), "x axis has its unit");
    assert!(out.contains("Step time breakdown"));
    for (id, seconds) in e.breakdown.parts() {
        let label = clusterplan::text::part(id);
        assert_eq!(out.contains(label), seconds > 0.0, "{label}: {seconds}");
    }
}

#[test]
fn memory_plot_marks_the_capacity() {
    let e = model::estimate(&default_inputs());
    let out = charts::draw_memory(&e, &DARK, SIZE);
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
    let out = charts::draw_scaling(&points, Some(&current), &LIGHT, SIZE);
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
fn plots_are_drawn_at_the_size_asked_with_their_text_inside() {
    let inputs = default_inputs();
    let e = model::estimate(&inputs);
    let points = clusterplan::fabric::scaling(&inputs, &sweep::default_chip_counts());
    for size in [(360, 240), (960, 420)] {
        for kind in charts::Kind::ALL {
            let svg =
                charts::draw(kind, &e, &points, inputs.cluster.n_chips, Money::USD, &LIGHT, size);
            assert!(svg.starts_with(&format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\"",
                size.0, size.1
            )));
            assert!(svg.ends_with("</svg>"));
            for x in svg
                .split("<text x=\"")
                .skip(1)
                .filter_map(|s| s.split('"').next()?.parse::<f64>().ok())
            {
                assert!((0.0..=size.0 as f64).contains(&x), "{kind:?} text at x {x} of {}", size.0);
            }
            for bad in ["NaN", "inf\""] {
                assert!(!svg.contains(bad), "{kind:?}: {bad}");
            }
        }
    }
}

#[test]
fn plots_survive_degenerate_estimates() {
    let mut inputs = default_inputs();
    inputs.cluster.chip.hbm_bytes = 0.0;
    inputs.training.tokens = 0.0;
    let e = model::estimate(&inputs);
    charts::draw_step(&e, &LIGHT, SIZE);
    charts::draw_memory(&e, &LIGHT, SIZE);
    charts::draw_scaling(&[], None, &LIGHT, SIZE);
}

#[test]
fn power_and_cost_plots_show_parts_that_sum_to_their_totals() {
    let inputs = default_inputs();
    let e = model::estimate(&inputs);
    let power: f64 = e.facility.power.parts().iter().map(|(_, w)| w / 1e6).sum();
    assert!((power - e.facility.power.facility_w / 1e6).abs() < 1e-9 * power.max(1.0));
    let cost: f64 = e.facility.cost.run_parts().iter().map(|(_, usd)| usd / 1e6).sum();
    assert!((cost - e.facility.cost.run_amortized_usd / 1e6).abs() < 1e-9 * cost.max(1.0));
    let out = charts::draw_power(&e, &LIGHT, SIZE);
    for text in ["Site power", "chips:", "IT at maximum", "MW"] {
        assert!(out.contains(text), "{text}");
    }
    let out = charts::draw_cost(&e, Money::USD, &LIGHT, SIZE);
    for text in ["Cost of the run", "energy:", "cloud rental", "$M"] {
        assert!(out.contains(text), "{text}");
    }
    // In yuan, the axis says so and no dollar is left.
    let yuan = Money { currency: clusterplan::model::facility::Currency::Cny, usd_to_cny: 7.19 };
    let out = charts::draw_cost(&e, yuan, &LIGHT, SIZE);
    assert!(out.contains("¥M") && !out.contains('$'), "the cost plot in yuan");
    let points = clusterplan::fabric::scaling(&inputs, &sweep::default_chip_counts());
    let big = points.last().expect("points");
    let small = points.first().expect("points");
    assert!(big.facility_w > 100.0 * small.facility_w, "power grows with the cluster");
    let current = sweep::ScalingPoint::of(inputs.cluster.n_chips, &e);
    let out = charts::draw_plant_scaling(&points, Some(&current), Money::USD, &LIGHT, SIZE);
    for text in ["site power (MW)", "run cost ($M", "this plan: 16,384 chips"] {
        assert!(out.contains(text), "{text}");
    }
    charts::draw_plant_scaling(&[], None, Money::USD, &DARK, SIZE);
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
    let out = charts::draw_effective(&points, Some(&current), &LIGHT, SIZE);
    for text in ["model EFLOP/s", "linear growth", "MFU", "after failures", "goodput"] {
        assert!(out.contains(text), "{text}");
    }
    charts::draw_effective(&[], None, &DARK, SIZE);
}

#[test]
fn sizing_plot_draws_each_chip_and_the_deadline() {
    let curves = [
        charts::Curve { label: "h100-sxm".into(), points: vec![(8192, 61.0), (12288, 44.0)] },
        charts::Curve { label: "b200".into(), points: vec![(4096, 57.0)] },
    ];
    let out = charts::sizing_svg(&curves, 60.0, &LIGHT, SIZE);
    assert!(out.contains("Days to train against cluster size"));
    assert!(out.contains("h100-sxm") && out.contains("b200"), "a legend entry per chip");
    assert!(out.contains("deadline: 60 days"));
    // Nothing sized yet still draws axes, without panicking.
    let empty = charts::sizing_svg(&[], 30.0, &DARK, SIZE);
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

/// Writes every plot to look at: `PLOTS_OUT=/tmp cargo test --test it charts::`.
#[test]
fn plots_can_be_written_out() {
    let Some(dir) = std::env::var_os("PLOTS_OUT") else { return };
    let inputs = default_inputs();
    let e = model::estimate(&inputs);
    let points = clusterplan::fabric::scaling(&inputs, &sweep::default_chip_counts());
    for (i, kind) in charts::Kind::ALL.into_iter().enumerate() {
        let theme = if i % 2 == 0 { &LIGHT } else { &DARK };
        let svg =
            charts::draw(kind, &e, &points, inputs.cluster.n_chips, Money::USD, theme, (720, 300));
        std::fs::write(std::path::Path::new(&dir).join(format!("plot-{}.svg", kind.id())), svg)
            .unwrap();
    }
}

/// A plot's words come in with its look: a Chinese plot while the program speaks English.
#[test]
fn a_plot_speaks_the_words_it_is_given() {
    use clusterplan::text::{self, Lang};
    let e = model::estimate(&default_inputs());
    text::set_lang(Lang::En);
    let chinese = charts::Theme { words: |k| text::in_lang(Lang::ZhCn, k), ..LIGHT };
    let svg = charts::draw_step(&e, &chinese, SIZE);
    assert!(svg.contains(text::in_lang(Lang::ZhCn, "chart.step")), "the Chinese caption");
    assert!(!svg.contains("Step time breakdown"));
    assert!(charts::draw_step(&e, &LIGHT, SIZE).contains("Step time breakdown"));
}

/// The IT maximum is compared with IT power, not with the site's (which adds cooling and
/// losses): below it, the power plot says so; a cap on what the plant may draw still flags
/// a plan that needs more.
#[test]
fn the_power_plot_compares_it_with_it() {
    let e = model::estimate(&default_inputs());
    let p = &e.facility.power;
    assert!(p.it_w < p.peak_it_w && p.facility_w > p.peak_it_w, "the case the plot once got wrong");
    let out = charts::draw_power(&e, &LIGHT, SIZE);
    assert!(out.contains("IT at maximum") && !out.contains("exceeded"), "{out}");
    let mut busy = e.clone();
    busy.facility.power.peak_it_w = p.it_w * 0.9;
    assert!(charts::draw_power(&busy, &LIGHT, SIZE).contains("exceeded"));
}

/// Every `<text>` of an SVG document with its left `x`, its font size and its words.
fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    let attr = |tag: &str, name: &str| -> Option<f64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.trim_end_matches("px").parse().ok()
    };
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let words = rest.split("</text>").next()?.trim();
            let words = words.replace("&apos;", "'").replace("&quot;", "\"").replace("&amp;", "&");
            Some((attr(tag, "x")?, attr(tag, "font-size").unwrap_or(0.0), words))
        })
        .collect()
}

#[test]
fn a_long_legend_entry_wraps_inside_a_narrow_chart() {
    let weeks = 52;
    let fleet = charts::FleetWeeks {
        installed: vec![4096.0; weeks],
        jobs: vec![("pre-training".into(), vec![2048.0; weeks])],
        deliveries: vec![
            (0, "4,096 H100 SXM 80GB at the first site, week 1".into()),
            (13, "2,304 GB300 NVL72 at the second site, week 14".into()),
            (26, "1,024 Ascend 910B at the second site, week 27".into()),
        ],
        caps: vec![(20, "the second site's cap rises to 48 MW, week 21".into())],
    };
    let mut lines = Vec::new();
    for (width, theme) in [(360u32, &LIGHT), (360, &DARK), (1400, &LIGHT)] {
        let svg = charts::draw_year_fleet(&fleet, theme, (width, 340));
        let legend: Vec<_> = texts(&svg).into_iter().filter(|t| t.1 == 11.0).collect();
        assert!(legend.iter().any(|t| t.2.contains("GB300")), "the deliveries are in the legend");
        for (x, size, words) in &legend {
            let right = x + charts::text_width(words, *size);
            assert!(right <= width as f64, "{words:?} ends at {right:.0} px of {width}");
        }
        lines.push(legend.len());
    }
    // Four entries: the job, the chips installed, the deliveries and the cap; wide, a line each.
    assert_eq!(lines[2], 4, "{lines:?}");
    assert!(lines[0] > 6 && lines[0] == lines[1], "{lines:?}");
}

/// The fleet chart leaves room above the chips for its legend: no week's chips reach under it,
/// wide or narrow, the fleet full to the chips installed every week.
#[test]
fn the_year_fleets_legend_covers_no_weeks_chips() {
    let weeks = 52;
    let full = |deliveries: Vec<(u32, String)>| charts::FleetWeeks {
        installed: vec![12_800.0; weeks],
        jobs: vec![
            ("pre-training".into(), vec![8_192.0; weeks]),
            ("chat".into(), vec![4_608.0; weeks]),
        ],
        deliveries,
        caps: vec![],
    };
    let short = full(vec![(20, "4,608 GB300 arrive in week 21".into())]);
    let long = full(vec![
        (0, "8,192 H100 SXM 80GB at the first site, week 1".into()),
        (20, "4,608 GB300 NVL72 at the second site, week 21".into()),
    ]);
    for (fleet, width) in [(&short, 360u32), (&short, 700), (&long, 700), (&long, 1400)] {
        let svg = charts::draw_year_fleet(fleet, &LIGHT, (width, 340));
        let attr = |tag: &str, name: &str| -> f64 {
            let at = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
            tag[at..].split('"').next().and_then(|v| v.parse().ok()).expect(name)
        };
        // The legend's last line, and the box's bottom 12 px below its middle (`legend_box`).
        let last = svg
            .split("<text")
            .skip(1)
            .filter(|t| t.contains("font-size=\"11"))
            .map(|t| attr(t, "y"))
            .fold(0.0, f64::max);
        let highest = svg
            .split("<rect")
            .skip(1)
            .filter(|t| t.contains("opacity=\"0.85\""))
            .map(|t| attr(t, "y"))
            .fold(f64::INFINITY, f64::min);
        assert!(highest.is_finite() && last > 0.0, "{width} px: blocks and a legend drawn");
        assert!(
            highest >= last + 12.0 - 1.0,
            "{width} px: chips at {highest}, legend to {last} + 12"
        );
    }
}
