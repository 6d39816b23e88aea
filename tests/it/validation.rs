//! The model against published training runs (data/calibration.json): every row within its
//! stated tolerance, and docs/accuracy.md equal to what `clusterplan validate` prints.
#![cfg(not(target_arch = "wasm32"))]

use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use clusterplan::validation;

/// The groups of plans meet the accuracy targets, each row predicted with its source left out,
/// or are listed with what the model lacks; a listed group may not grow worse than its figures.
#[test]
fn every_group_meets_the_targets_or_its_gap_is_listed() {
    use clusterplan::validation::{abs_quantiles, fit, gaps, range};
    let (outcomes, left) = fit::left_out_all().as_ref().expect("calibration data loads");
    let points = range::points(outcomes, left);
    let t = gaps::TARGETS;
    let listed = |family: &str, stack: &str, moe: bool| {
        gaps::GAPS.iter().find(|g| g.family == family && g.stack == stack && g.moe == moe)
    };
    let mut wrong = Vec::new();
    let mut judge = |family: &str, stack: &str, moe: bool, mine: Vec<&range::Point>| {
        let errors: Vec<f64> = mine.iter().map(|p| p.error).collect();
        let stats = range::stats(&mine);
        let (median, _) = abs_quantiles(&errors);
        let limit = if moe { t.moe_median } else { t.median };
        let meets = stats.mean.abs() <= t.mean && median <= limit;
        let name = format!("{family} {stack} {}", if moe { "MoE" } else { "dense" });
        match listed(family, stack, moe) {
            Some(_) if meets => wrong.push(format!("{name} meets the targets: remove its gap")),
            Some(g)
                if stats.mean.abs() > g.mean.abs() + gaps::SLACK
                    || median > g.median + gaps::SLACK =>
            {
                wrong.push(format!(
                    "{name} regressed: mean {:+.3} median {:.3} (listed {:+.3}, {:.3})",
                    stats.mean, median, g.mean, g.median
                ))
            }
            None if !meets => wrong.push(format!(
                "{name} misses the targets unlisted: mean {:+.3}, median {:.3}",
                stats.mean, median
            )),
            _ => {}
        }
    };
    for (r, s) in range::regimes(&points) {
        if s.runs >= t.runs {
            let mine: Vec<&range::Point> = points.iter().filter(|p| p.regime == r).collect();
            judge(&r.family, r.stack, r.moe, mine);
        }
    }
    let moe: Vec<&range::Point> = points.iter().filter(|p| p.regime.moe).collect();
    judge("all", "all", true, moe);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every listed gap names a group that exists.
    for g in gaps::GAPS {
        let exists = g.family == "all"
            || points.iter().any(|p| {
                p.regime.family == g.family && p.regime.stack == g.stack && p.regime.moe == g.moe
            });
        assert!(exists, "{} {} lists no rows", g.family, g.stack);
    }
}

/// Along every published strong-scaling series (one model on one chip at growing chip
/// counts) the error moves by at most the target per doubling, or the series is listed with
/// what the model lacks; a listed series may not drift further.
#[test]
fn every_series_scales_within_the_target_or_is_listed() {
    use clusterplan::validation::{fit, series};
    let (outcomes, left) = fit::left_out_all().as_ref().expect("calibration data loads");
    let all = series::series(outcomes, left);
    assert!(all.len() >= 20, "the published runs hold strong-scaling series: {}", all.len());
    let mut wrong = Vec::new();
    for s in &all {
        let name = format!("{} ({}, {})", s.run, s.chip, s.model);
        let meets = s.slope.abs() <= series::SLOPE_TARGET;
        match series::drift_of(s) {
            Some(_) if meets => {
                wrong.push(format!("{name} now meets the target: remove its drift"))
            }
            Some(d) if s.slope.abs() > d.slope.abs() + series::SLACK => wrong.push(format!(
                "{name} drifts further: {:+.3} per doubling (listed {:+.3})",
                s.slope, d.slope
            )),
            None if !meets => {
                wrong.push(format!("{name} drifts {:+.3} per doubling unlisted", s.slope))
            }
            _ => {}
        }
    }
    for d in series::DRIFTS {
        if !all.iter().any(|s| s.run == d.run && s.chip == d.chip && s.model == d.model) {
            wrong.push(format!("{} {} is listed but is no series", d.run, d.model));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn known_misses_are_still_misses() {
    // A documented miss that the model now meets must lose its note, so docs/accuracy.md
    // never explains a gap that is gone.
    let (_, outcomes) = validation::run_all().expect("calibration data loads and resolves");
    let known: Vec<_> = outcomes.iter().filter(|o| o.row.known_miss.is_some()).collect();
    assert!(!known.is_empty(), "the report explains the rows it misses");
    for o in &known {
        assert!(
            !o.within(),
            "{} {} is now within tolerance: remove its known_miss note",
            o.row.run,
            o.row.label
        );
    }
}

#[test]
fn required_runs_are_all_present() {
    let (_, rows) = validation::load().expect("calibration data loads");
    let count = |run: &str| rows.iter().filter(|r| r.run == run).count();
    assert_eq!(count("megatron-2021"), 10, "all ten Megatron-LM 2021 Table 1 rows");
    assert!(count("megatron-2022") >= 5, "the Megatron 2022 selective-recompute rows");
    assert_eq!(count("llama-3.1-405b"), 3, "the three Llama 3.1 405B stages");
    for run in ["gpt-3", "opt-175b", "bloom-176b", "llama-65b"] {
        assert!(count(run) >= 1, "{run} is validated");
    }
}

#[test]
fn every_published_plan_is_judged_runnable() {
    // The published plans ran, so none of them may be judged impossible, and none may be
    // judged out of memory unless a held-out row says why (and still does not fit).
    let (_, outcomes) = validation::run_all().expect("calibration data loads");
    assert!(outcomes.len() > 20, "the calibration rows load");
    let mut refused = Vec::new();
    for o in &outcomes {
        let name = format!("{} {}", o.row.run, o.row.label);
        // Memory is judged below, against the row's note.
        let impossible: Vec<_> = o
            .problems
            .iter()
            .filter(|w| !matches!(w, clusterplan::model::Warning::DoesNotFit { .. }))
            .collect();
        if !impossible.is_empty() {
            refused.push(format!("{name} is judged impossible: {impossible:?}"));
        }
        let m = &o.memory;
        let gib = |b: f64| b / 1073741824.0;
        match (&o.row.known_unfit, m.fits) {
            (None, false) => refused.push(format!(
                "{name} is judged not to fit: {:.1} of {:.1} GiB ({m:?})",
                gib(m.peak_bytes),
                gib(m.hbm_bytes)
            )),
            (Some(_), true) => {
                refused.push(format!("{name} now fits: remove its known_unfit note"))
            }
            _ => {}
        }
    }
    assert!(refused.is_empty(), "published plans refused:\n{}", refused.join("\n"));
}

#[test]
fn held_out_rows_are_reported_apart() {
    // The scaling checks that set no figure stay separate from the calibration rows.
    let (runs, outcomes) = validation::run_all().expect("calibration data loads");
    let held: Vec<_> = outcomes.iter().filter(|o| o.row.held_out).collect();
    for run in ["megascale-megatron", "mlperf-gpt3-eos", "megascale-530b-weak", "mt-nlg-530b"] {
        assert!(held.iter().any(|o| o.row.run == run), "{run} is held out");
    }
    assert!(held
        .iter()
        .any(|o| o.row.scenario.get("cluster.chips").and_then(|c| c.as_u64()) >= Some(10_000)));
    let left = vec![0.0; outcomes.len()];
    let doc = validation::markdown(&runs, &outcomes, &left);
    let calibration = doc.find("### Fit sources").expect("a table of the fit sources' rows");
    let held_out = doc.find("### Held-out sources").expect("a table of the held-out sources' rows");
    assert!(calibration < held_out);
    assert!(doc[held_out..].contains("mlperf-gpt3-eos"));
    assert!(!doc[calibration..held_out].contains("mlperf-gpt3-eos"));
}

#[test]
fn accuracy_document_is_current() {
    let (runs, _) = validation::run_all().expect("calibration data loads");
    let (outcomes, left) =
        validation::fit::left_out_all().as_ref().expect("calibration data loads");
    let expected = validation::markdown(&runs, outcomes, left);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/accuracy.md");
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    if std::env::var_os("UPDATE_ACCURACY").is_some() {
        std::fs::write(path, &expected).expect("write docs/accuracy.md");
        return;
    }
    assert!(
        actual == expected,
        "docs/accuracy.md is stale; regenerate with `cargo run --release --bin clusterplan -- validate > docs/accuracy.md`"
    );
}

/// The catalog's chips take the figures fitted to the fit sources; a change to the data or the
/// model that moves a fit must regenerate them (`validation::fit::source`).
#[test]
fn fitted_figures_are_current() {
    let (_, rows) = validation::load().expect("calibration data loads");
    let figures = validation::fit::fit(&rows);
    let expected = validation::fit::source(&figures);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/model/presets/fitted.rs");
    if std::env::var_os("UPDATE_ACCURACY").is_some() {
        std::fs::write(path, &expected).expect("write src/model/presets/fitted.rs");
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "src/model/presets/fitted.rs is stale; regenerate with `UPDATE_ACCURACY=1 cargo test --release --test it validation::`"
    );
    // Every fitted chip rests on at least two plans, and the catalog reads what was fitted.
    for f in &figures.chips {
        assert!(f.rows >= 2, "{} fitted to {} rows", f.of, f.rows);
        let preset = clusterplan::model::presets::chip(f.of).expect("a catalog chip");
        assert!((preset.figures().matmul_efficiency - f.value).abs() < 5e-5, "{}", f.of);
    }
}

/// The page reads the calibration through a digest; it must say what the data says.
#[test]
fn the_digest_is_current() {
    let (_, rows) = validation::load().expect("calibration data loads");
    let (outcomes, left) =
        validation::fit::left_out_all().as_ref().expect("calibration data loads");
    let expected = validation::digest_source(&rows, outcomes, left);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/validation/digest.rs");
    if std::env::var_os("UPDATE_ACCURACY").is_some() {
        std::fs::write(path, &expected).expect("write src/validation/digest.rs");
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "src/validation/digest.rs is stale; regenerate with `UPDATE_ACCURACY=1 cargo test --test it validation::the_digest_is_current`"
    );
    // What the page reads from it is what the rows give.
    assert_eq!(validation::coverage(), validation::coverage_of(&rows));
    // The same plan, its token budget written as people write it.
    for (id, title, scenario) in validation::published_plans(&rows) {
        let (shown_title, shown) = clusterplan::validation::published_plan(id).expect("a plan");
        assert_eq!(shown_title, title, "{id}");
        assert_eq!(shown.resolve().ok(), scenario.resolve().ok(), "{id}");
        let tokens = shown.get("training.tokens");
        assert!(tokens.as_ref().is_none_or(|t| t.is_string()), "{id}: {tokens:?}");
    }
}

#[test]
fn the_readme_quotes_the_current_accuracy() {
    use clusterplan::validation::{abs_quantiles, fit, range};
    let (outcomes, left) = fit::left_out_all().as_ref().expect("calibration data loads");
    let points = range::points(outcomes, left);
    let stats = range::stats(&points.iter().collect::<Vec<_>>());
    let (median, _) = abs_quantiles(left);
    let (inside, rows) = range::coverage(&points, |_| true);
    let (held_inside, held_rows) = range::coverage(&points, |p| p.held_out);
    let mut fit_sources: Vec<&str> =
        points.iter().filter(|p| !p.held_out).map(|p| p.source.as_str()).collect();
    fit_sources.sort_unstable();
    fit_sources.dedup();
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    for quoted in [
        format!("{} published rows from {} sources", stats.rows, stats.sources),
        format!("median absolute error of the step time is {:.1} %", 100.0 * median),
        format!("signed mean {:+.1} %", 100.0 * stats.mean),
        format!("{:.0} % of the published values", 100.0 * inside as f64 / rows as f64),
        format!("({:.0} % on the held-out sources)", 100.0 * held_inside as f64 / held_rows as f64),
        format!("{} fit sources", fit_sources.len()),
        format!("the other {} are held out", stats.sources as usize - fit_sources.len()),
    ] {
        assert!(readme.contains(&quoted), "README should say: {quoted}");
    }
}

#[test]
fn every_published_design_that_follows_our_rules_is_reproduced_exactly() {
    let outcomes = validation::designs::outcomes();
    assert!(outcomes.len() >= 7);
    for o in outcomes.iter().filter(|o| o.design.exact) {
        assert!(
            o.matches(),
            "{}: published {:?}, built {:?}",
            o.design.name,
            o.design.published,
            o.predicted
        );
    }
}

/// Measured server power: within tolerance unless a reason is written down, and a written-down
/// miss still misses (so its note is deleted when the model learns the mechanism).
#[test]
fn measured_system_power_is_reproduced_or_its_miss_explained() {
    let outcomes = validation::power::outcomes();
    assert!(outcomes.len() >= 3);
    for o in &outcomes {
        let m = &o.measured;
        assert!(o.predicted_w > 0.0, "{}: no prediction", m.name);
        assert_eq!(
            o.within(),
            m.known_miss.is_empty(),
            "{}: published {} W, predicted {:.0} W",
            m.name,
            m.published_w,
            o.predicted_w
        );
    }
}

/// Every headline carries a range: low below high, around the estimate when its kind of plan is
/// centred, and none for days with failures when the run never finishes.
#[test]
fn every_headline_has_a_range() {
    use clusterplan::validation::range;
    let s = Scenario::default_plan();
    let (inputs, e) = s.estimated().expect("evaluates");
    let r = range::range(&s, &inputs, &e, None);
    for (name, (lo, hi), value) in [
        ("step", r.step_s, e.step_s),
        ("tokens", r.tokens_per_s, e.tokens_per_s),
        ("mfu", r.mfu, e.mfu),
        ("days", r.train_days, e.train_days),
        ("chip-hours", r.chip_hours, e.chip_hours),
    ] {
        assert!(lo > 0.0 && lo < hi, "{name}: {lo} to {hi}");
        assert!(lo < value * 1.15 && hi > value * 0.85, "{name}: {lo} to {hi} around {value}");
    }
    assert!(r.effective_train_days.is_some());
    let never = s.with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(1_048_576)));
    let (inputs, e) = never.estimated().expect("evaluates");
    assert!(range::range(&never, &inputs, &e, None).effective_train_days.is_none());
}

/// The range widens with distance from what was validated: beyond the largest run of the kind,
/// and for a chip no run of its family backs.
#[test]
fn ranges_widen_away_from_validated_runs() {
    use clusterplan::validation::range;
    let spread = |s: &Scenario| {
        let (inputs, e) = s.estimated().expect("evaluates");
        range::range(s, &inputs, &e, None).basis
    };
    let plan = Scenario::default_plan().with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(4096)));
    let near = spread(&plan);
    let far = spread(&plan.with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(131_072))));
    assert!(far.spread > near.spread && far.beyond.is_some(), "{near:?} {far:?}");
    let own_chip = plan.with(paths::CLUSTER_CHIP, Some(serde_json::json!("custom")));
    if let Ok((inputs, e)) = own_chip.estimated() {
        let custom = range::range(&own_chip, &inputs, &e, None).basis;
        assert_eq!(custom.regime.family, "custom");
        assert!(custom.spread > near.spread, "{custom:?}");
    }
    let gaudi = spread(&plan.with(paths::CLUSTER_CHIP, Some(serde_json::json!("gaudi3"))));
    assert!(gaudi.spread > near.spread && !gaudi.validated, "{gaudi:?}");
}

/// About four in five published values fall inside the range the other sources' errors give
/// their row; at least the share the accuracy report states, on the rows of held-out sources
/// and on all rows.
#[test]
fn ranges_hold_for_most_published_runs() {
    use clusterplan::validation::{fit, range};
    let (outcomes, left) = fit::left_out_all().as_ref().expect("calibration data loads");
    let points = range::points(outcomes, left);
    assert_eq!(points.len(), outcomes.len(), "every row has a regime");
    let share = |held_out_only: bool| {
        let (inside, rows) = range::coverage(&points, |p| !held_out_only || p.held_out);
        inside as f64 / rows.max(1) as f64
    };
    // The figures docs/accuracy.md states: 82 % of the held-out sources' rows, 80 % of all;
    // more than 85 % would mean ranges wider than the evidence asks.
    for (which, held, least) in [("held-out", true, 0.78), ("all", false, 0.79)] {
        let s = share(held);
        assert!((least..=0.85).contains(&s), "{which} rows inside their range: {s}");
    }
}

/// Ranges are narrow where the evidence is: the rows of groups many sources validate are
/// judged by ranges narrower, at the median, than the rows of groups one or two sources do.
#[test]
fn ranges_narrow_where_many_sources_agree() {
    use clusterplan::validation::{fit, range};
    let (outcomes, left) = fit::left_out_all().as_ref().expect("calibration data loads");
    let points = range::points(outcomes, left);
    let standardized = range::standardized(&points);
    let sources = |regime: &range::Regime| {
        let mut named: Vec<&str> =
            points.iter().filter(|p| &p.regime == regime).map(|p| p.source.as_str()).collect();
        named.sort_unstable();
        named.dedup();
        named.len()
    };
    let median_width = |keep: &dyn Fn(usize) -> bool| {
        let mut widths: Vec<f64> = points
            .iter()
            .filter(|p| keep(sources(&p.regime)))
            .map(|p| range::half_width(p, &points, &standardized))
            .collect();
        assert!(widths.len() >= 10, "too few rows to compare: {}", widths.len());
        widths.sort_by(f64::total_cmp);
        widths[widths.len() / 2]
    };
    let (many, few) = (median_width(&|n| n >= 5), median_width(&|n| n <= 2));
    assert!(
        many < few,
        "median half-width {many:.3} with five sources or more, {few:.3} with two or fewer"
    );
}

/// Every NVIDIA benchmark row's CUDA graphs are as its release's recipe sets them, as
/// `data/cuda-graphs.json` records each with the file, tag and setting it was read from.
#[test]
fn cuda_graphs_are_as_the_recipes_record() {
    let recorded: serde_json::Value =
        serde_json::from_str(include_str!("../../data/cuda-graphs.json")).expect("JSON");
    let (_, rows) = validation::loaded().as_ref().expect("calibration data loads");
    let mut checked = 0;
    for (run, labels) in recorded.as_object().expect("runs") {
        for (label, entry) in labels.as_object().expect("rows") {
            let row = rows.iter().find(|r| &r.run == run && &r.label == label);
            let row = row.unwrap_or_else(|| panic!("{run} {label} is a calibration row"));
            let set = row.scenario.get("parallelism.cuda_graphs");
            let set = set.as_ref().and_then(|v| v.as_str()).unwrap_or("none");
            assert_eq!(Some(set), entry["cuda_graphs"].as_str(), "{run} {label}");
            assert!(entry["evidence"].as_str().is_some_and(|e| e.contains('@')), "{run} {label}");
            checked += 1;
        }
    }
    assert_eq!(checked, 153);
    // No other row names CUDA graphs the record does not hold.
    for row in rows.iter().filter(|r| r.scenario.get("parallelism.cuda_graphs").is_some()) {
        assert!(recorded[&row.run][&row.label].is_object(), "{} {}", row.run, row.label);
    }
}

/// Serving's shares of the chips' fitted speed are those fitted to every serving source; the
/// scenarios read them from `src/model/presets/serving_fitted.rs`.
#[test]
fn the_serving_shares_are_current() {
    let shares = validation::serving::shares().expect("serving data loads");
    let expected = validation::serving_fit::source(&shares);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/model/presets/serving_fitted.rs");
    if std::env::var_os("UPDATE_ACCURACY").is_some() {
        std::fs::write(path, &expected).expect("write src/model/presets/serving_fitted.rs");
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "src/model/presets/serving_fitted.rs is stale; regenerate with `UPDATE_ACCURACY=1 cargo test --release --test it validation::`"
    );
    // Every share is inside its bounds and rests on rows; the families with the most sources
    // are set by more than one.
    for f in &shares.families {
        assert!((0.2..=1.5).contains(&f.value) && f.rows > 0, "{f:?}");
    }
    assert!(shares.families.iter().any(|f| f.sources.len() >= 3 && f.of == "CDNA"));
}

/// Serving's range and accuracy summary are those of `data/serving.json`'s held-out sources;
/// the page and the command line read them from `serving_digest.rs`.
#[test]
fn the_serving_digest_is_current() {
    let (sources, outcomes) = validation::serving::run().expect("serving data loads");
    let expected = validation::serving::digest_source(&sources, &outcomes);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/validation/serving_digest.rs");
    if std::env::var_os("UPDATE_ACCURACY").is_some() {
        std::fs::write(path, &expected).expect("write src/validation/serving_digest.rs");
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "src/validation/serving_digest.rs is stale; regenerate with `UPDATE_ACCURACY=1 cargo test --release --test it validation::`"
    );
    // The README's headline quotes the same figures.
    let (lo, hi) = validation::serving::ranges_without(&sources, &outcomes, None)[0];
    let (_, held, median, mean) = validation::serving::held_out_summary(&sources, &outcomes);
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    for quoted in [
        format!("against {} published measurements from {} sources", outcomes.len(), sources.len()),
        format!("on the {held} held-out sources"),
        format!(
            "the throughput is {:.0} %, the signed mean {:+.0} %",
            100.0 * median,
            100.0 * mean
        ),
        format!("the range {lo:.2} to {hi:.2} times the estimate where a measured group"),
    ] {
        assert!(readme.contains(&quoted), "README should say: {quoted}");
    }
}

/// A serving range never narrows with distance from what was measured, and a chip family or
/// an engine no measurement covers widens it: a plan on a Cambricon card under MindIE is given
/// a wider range than one on an H100 under TensorRT-LLM, which a measured group covers.
#[test]
fn serving_ranges_widen_with_distance() {
    use clusterplan::model::serving::{Engine, Serving};
    use validation::serving::{Group, Reach};
    let ranges = validation::serving_digest::RANGES;
    for d in 1..ranges.len() {
        assert!(ranges[d].0 <= ranges[d - 1].0 && ranges[d].1 >= ranges[d - 1].1, "{ranges:?}");
    }
    let width = |r: &Reach| r.range.1 / r.range.0;
    for (engine, _) in Engine::NAMED {
        for moe in [false, true] {
            for disaggregated in [false, true] {
                let asked = Serving {
                    engine: Engine::named(engine).unwrap(),
                    disaggregated,
                    ..Serving::default()
                };
                let near = Reach::of(&Group::of("Hopper", &asked, moe));
                let far = Reach::of(&Group::of("MLU", &asked, moe));
                assert!(far.distance >= near.distance.max(1), "{near:?} {far:?}");
                assert!(width(&far) > width(&near) * 1.01, "{engine} {near:?} {far:?}");
                assert!(near.range.0 <= 1.0 && near.range.1 >= 1.0, "{near:?}");
            }
        }
    }
    let measured = Serving { engine: Engine::TensorRtLlm, ..Serving::default() };
    assert_eq!(Reach::of(&Group::of("Hopper", &measured, false)).distance, 0);
}

/// Serving is judged by source on several vendors' chips, held-out sources kept apart, and its
/// range holds on sources it never saw: each held-out source, left out, is given the range the
/// others make at each row's distance from what they measured, and that range holds three to
/// nine rows in ten, its low end at or below the measured on 85 % (a buyer sizing from the low
/// end orders enough). The held-out errors do
/// not grow past the figures `docs/accuracy.md` reports.
#[test]
fn serving_is_validated_by_source_on_several_vendors() {
    let (sources, outcomes) = validation::serving::run().expect("serving data loads");
    let held = sources.iter().filter(|s| s.held_out).count();
    assert!(held >= 10 && sources.len() >= 12, "{held} held out of {}", sources.len());
    assert!(outcomes.len() >= 60, "{} rows", outcomes.len());
    for chip in ["h100-sxm", "b200", "mi300x", "gaudi2", "gaudi3", "ascend-910c", "tpu-v5e"] {
        assert!(outcomes.iter().any(|o| o.chip == chip), "no serving row on {chip}");
    }
    let (lo, hi) = validation::serving::range(&sources, &outcomes);
    assert!(lo > 0.0 && lo <= hi, "{lo} {hi}");
    let (inside, above_low, rows) = validation::serving::left_out_coverage(&sources, &outcomes);
    // The range holds three rows in four to nine in ten: honest, and not so wide as to say
    // nothing.
    assert!(
        inside * 4 >= rows * 3 && inside * 10 <= rows * 9,
        "{inside} of {rows} held-out rows inside their left-out range"
    );
    assert!(
        above_low * 20 >= rows * 17,
        "{above_low} of {rows} held-out rows at or above the low end"
    );
    let (_, _, median, _) = validation::serving::held_out_summary(&sources, &outcomes);
    let p90 = validation::serving::held_out_p90(&sources, &outcomes);
    assert!(median <= 0.30 && p90 <= 1.28, "held-out median {median}, p90 {p90}");
    // Every source, judged with its own rows left out of the shares' fit.
    let all: Vec<f64> = outcomes.iter().map(|o| o.error()).collect();
    let mut abs: Vec<f64> = all.iter().map(|e| e.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let median_all = abs[abs.len() / 2];
    let p90_all = abs[(abs.len() * 9).div_ceil(10) - 1];
    assert!(
        median_all <= 0.23 && p90_all <= 0.70,
        "left-out median over every source {median_all}, p90 {p90_all}"
    );
}

/// The confidence names a chip's weak figures only where the plan reads them: MTT S4000's
/// INT8 peak, commonly cited but not the vendor's datasheet, weakens an INT8 plan and not a
/// BF16 one, whose other weak figure (the board power) it still names.
#[test]
fn confidence_names_only_the_weak_figures_a_plan_reads() {
    let unverified = |recipe: &str| {
        let json = format!(
            r#"{{"model": {{"preset": "llama3-8b"}}, "training": {{"tokens": 1e11, "global_batch": 256, "recipe": "{recipe}"}},
               "cluster": {{"chip": "mtt-s4000", "chips": 64}}, "parallelism": {{"tp": 2, "pp": 1}}}}"#
        );
        let value = serde_json::from_str(&json).expect("JSON");
        let s = Scenario::from_value(value).expect("a scenario");
        let inputs = s.resolve().expect("it resolves");
        let e = clusterplan::model::estimate(&inputs);
        let range = validation::range::range(&s, &inputs, &e, None);
        validation::confidence(&s, &inputs, &range).unverified
    };
    let bf16 = unverified("megatron-bf16");
    assert!(bf16.contains(&"cluster.chip.tdp_w"), "{bf16:?}");
    assert!(!bf16.contains(&"cluster.chip.int8_tops"), "{bf16:?}");
    assert!(unverified("int8").contains(&"cluster.chip.int8_tops"));
}

/// The figures at the frontier's scale (runs on 1,024 chips or more) never grow past those
/// last measured, so a change that helps small runs cannot quietly cost the large ones.
#[test]
fn errors_at_scale_do_not_regress() {
    use clusterplan::validation::scale::{band, Kind, RECORDED, SLACK};
    use clusterplan::validation::{fit, range};
    let (outcomes, left) = fit::left_out_all().as_ref().expect("calibration data loads");
    let points = range::points(outcomes, left);
    let all = band(&points, Kind::All, true, false);
    let moe = band(&points, Kind::Moe, true, false);
    assert!(all.rows >= 60 && all.sources >= 10, "the large band holds {} rows", all.rows);
    assert!(moe.rows >= 5, "the large band holds {} MoE rows", moe.rows);
    let figures = [
        ("median", all.median, RECORDED.median),
        ("p90", all.p90, RECORDED.p90),
        ("MoE median", moe.median, RECORDED.moe_median),
    ];
    for (name, now, recorded) in figures {
        assert!(
            now <= recorded + SLACK,
            "at scale the {name} grew to {now:.3} (recorded {recorded:.3})"
        );
    }
}
