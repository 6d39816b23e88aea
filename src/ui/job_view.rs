//! What a search or a sizing looks like on the page, made in the worker: lines of text and a
//! table of text cells, each row with the scenario its Apply button opens, and a sizing's
//! curves. The page only lays these out (`ui::search::render`), so none of this wording or
//! formatting weighs on the page's first load.

use serde_json::{json, Value};

use super::format;
use crate::charts::{self, Curve, DARK, LIGHT};
use crate::numbers;
use crate::text::{fill, t};

/// The JSON number at `key` as text.
fn n(v: &Value, key: &str) -> String {
    v[key].as_f64().map(numbers::format).unwrap_or_default()
}

fn line(testid: &str, text: String, bad: bool) -> Value {
    json!({ "testid": testid, "text": text, "bad": bad })
}

/// A plan's degrees and schedule in a few words.
fn plan_words(p: &Value, dp: Option<u64>) -> String {
    let mut words = vec![format!("TP {}", n(p, "tp")), format!("PP {}", n(p, "pp"))];
    if let Some(dp) = dp {
        words.push(format!("DP {}", numbers::format(dp as f64)));
    }
    for (key, label) in [("cp", "CP"), ("ep", "EP"), ("virtual_stages", "v")] {
        if p[key].as_u64().unwrap_or(1) > 1 {
            words.push(format!("{label} {}", n(p, key)));
        }
    }
    words.push(fill("plan.mb", &[("n", &n(p, "micro_batch"))]));
    words.push(format!("ZeRO-{}", n(p, "zero")));
    if let Some(mode) = p["recompute"].as_str().filter(|m| *m != "none") {
        words.push(t(&format!("plan.recompute.{mode}")).into());
    }
    if p["recompute_elementwise"].as_bool() == Some(true) {
        words.push(t("plan.light-recompute").into());
    }
    if p["sequence_parallel"].as_bool() == Some(true) {
        words.push("SP".into());
    }
    words.join(" · ")
}

/// Why the best plan wins: its step's largest parts, as shares of the step.
fn wins(estimate: &Value) -> String {
    let step = estimate["step_s"].as_f64().unwrap_or(0.0);
    let Some(parts) = estimate["breakdown"].as_object().filter(|_| step > 0.0) else {
        return String::new();
    };
    let mut parts: Vec<(&str, f64)> = parts
        .iter()
        .filter_map(|(k, v)| Some((k.trim_end_matches("_s"), v.as_f64()?)))
        .filter(|(_, s)| *s > 0.0)
        .collect();
    parts.sort_by(|a, b| b.1.total_cmp(&a.1));
    let shares: Vec<String> = parts
        .iter()
        .take(3)
        .map(|(k, s)| format!("{} {}", t(&format!("step.{k}")), format::percent(s / step)))
        .collect();
    fill("search.wins", &[("shares", &shares.join(t("text.list")))])
}

/// Why a runner-up loses: the part of its step that grew most against the best.
fn loses(row: &Value) -> String {
    let part = t(&format!("step.{}", row["loses_on"]["part"].as_str().unwrap_or("step")));
    let seconds = row["loses_on"]["seconds"].as_f64().unwrap_or(0.0);
    let behind = row["behind"].as_f64().unwrap_or(0.0);
    if behind <= 1e-9 {
        return t("search.as-good").into();
    }
    let behind = format::percent(behind);
    if seconds <= 0.0 {
        // Ranked by cost, energy or failures, a plan can lose with the shorter step.
        return fill("search.behind", &[("behind", &behind)]);
    }
    let values =
        [("behind", behind.as_str()), ("part", part), ("seconds", &format::seconds(seconds))];
    fill("search.behind-on", &values)
}

/// A rank as the language says it: 53rd, 第 53.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "ordinal.th",
        (1, _) => "ordinal.st",
        (2, _) => "ordinal.nd",
        (3, _) => "ordinal.rd",
        _ => "ordinal.th",
    };
    fill(suffix, &[("n", &numbers::format(n as f64))])
}

/// Where the typed plan ranks, in words.
fn yours(result: &Value) -> String {
    let y = &result["yours"];
    match (y["verdict"].as_str(), y["rank"].as_u64()) {
        (Some("fits"), Some(1)) => t("search.yours-best").into(),
        (Some("fits"), Some(rank)) => fill(
            match result["objective"].as_str() {
                Some("cost") => "search.yours-dearer",
                Some("energy") => "search.yours-more-energy",
                _ => "search.yours-slower",
            },
            &[
                ("rank", &ordinal(rank)),
                ("of", &n(result, "evaluated")),
                ("behind", &format::percent(y["behind"].as_f64().unwrap_or(0.0))),
            ],
        ),
        (Some("does_not_fit"), _) => t("search.yours-does-not-fit").into(),
        _ => t("search.yours-cannot-run").into(),
    }
}

fn apply(testid: &str, label: String, scenario: &Value) -> Value {
    json!({ "testid": testid, "label": label, "scenario": scenario })
}

/// A search's result as the page shows it.
pub fn search(result: &Value, done: bool) -> Value {
    let mut lines = vec![line(
        "search-counts",
        fill(
            if done { "search.counts" } else { "search.counts-so-far" },
            &[
                ("searched", &n(result, "searched")),
                ("invalid", &n(result, "invalid")),
                ("unfit", &n(result, "does_not_fit")),
                ("timed", &n(result, "evaluated")),
            ],
        ),
        false,
    )];
    if done {
        lines.push(line("search-yours", yours(result), false));
    }
    if let Some(why) = result["why"].as_str() {
        lines.push(line("search-why", why.to_string(), true));
    }
    let rows: Vec<Value> = result["plans"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            let e = &row["estimate"];
            let rank = row["rank"].as_u64().unwrap_or(0);
            json!({
                "testid": "search-row",
                "cells": [
                    rank.to_string(),
                    plan_words(&row["parallelism"], row["dp"].as_u64()),
                    e["train_days"].as_f64().map(|d| format!("{d:.1}")).unwrap_or_default(),
                    e["mfu"].as_f64().map(format::percent).unwrap_or_default(),
                    e["memory"]["peak_bytes"].as_f64().map(format::gib).unwrap_or_default(),
                    if rank == 1 { wins(e) } else { loses(row) },
                ],
                "apply": apply("search-apply", fill("search.apply-label", &[("rank", &rank.to_string())]), &row["scenario"]),
            })
        })
        .collect();
    let pareto: Vec<String> = result["pareto"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            fill(
                "search.front-item",
                &[
                    ("days", &format!("{:.1}", p["effective_train_days"].as_f64().unwrap_or(0.0))),
                    ("usd", &format::sig3(p["run_usd"].as_f64().unwrap_or(0.0) / 1e6)),
                    ("plan", &plan_words(&p["parallelism"], None)),
                ],
            )
        })
        .collect();
    let mut view = json!({
        "lines": lines,
        "table": {
            "testid": "search-results",
            "head": ["#", t("search.head.plan"), t("search.head.days"), "MFU", t("search.head.memory"), t("search.head.why")],
            "rows": rows,
        },
    });
    if done && pareto.len() > 1 {
        view["list"] = json!({
            "testid": "search-pareto",
            "summary": t("search.front"),
            "items": pareto,
        });
    }
    view
}

/// The sizing's curves (`jobs`: `{"chip", "points": [[chips, days], ...]}`) for the plot.
fn curves(result: &Value) -> Vec<Curve> {
    result["curves"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| Curve {
            label: c["chip"].as_str().unwrap_or("").to_string(),
            points: c["points"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| Some((p[0].as_u64()? as u32, p[1].as_f64()?)))
                .collect(),
        })
        .collect()
}

/// An SVG document as a `data:` URL for an `<img>`, where no script in it can run.
fn svg_url(svg: &str) -> String {
    let mut out = String::from("data:image/svg+xml,");
    for b in svg.bytes() {
        if b.is_ascii_alphanumeric() || b" .,:;=/-_()'".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A sizing's result as the page shows it, with its plot drawn for the dark colour scheme when
/// `dark`.
pub fn size(result: &Value, dark: bool) -> Value {
    let rows: Vec<Value> = result["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let chip = r["chip"].as_str().unwrap_or("").to_string();
            let Some(chips) = r["chips"].as_u64() else {
                let why = r["why"].as_str().unwrap_or(t("size.none"));
                return json!({ "testid": "size-row", "cells": [chip, "", "", "", "", "", why] });
            };
            let count = numbers::format(chips as f64);
            json!({
                "testid": "size-row",
                "cells": [
                    chip.clone(),
                    count.clone(),
                    format!("{} / {}", n(r, "nodes"), n(r, "racks")),
                    r["facility_mw"].as_f64().map(|mw| fill("unit.mw", &[("n", &format::sig3(mw))])).unwrap_or_default(),
                    r["capex_usd"].as_f64().map(|usd| fill("unit.usd", &[("n", &format::count(usd))])).unwrap_or_default(),
                    r["effective_train_days"].as_f64().map(|d| format!("{d:.1}")).unwrap_or_default(),
                    plan_words(&r["plan"], None),
                ],
                "apply": apply("size-apply", fill("size.apply-label", &[("n", &count), ("chip", &chip)]), &r["scenario"]),
            })
        })
        .collect();
    json!({
        "lines": [],
        "table": {
            "testid": "size-results",
            "head": [t("size.head.chip"), t("size.head.chips"), t("size.head.nodes"), t("size.head.power"), t("size.head.capex"), t("size.head.days"), t("search.head.plan")],
            "rows": rows,
        },
        "plot": svg_url(&charts::sizing_svg(
            &curves(result),
            result["deadline_days"].as_f64().unwrap_or(0.0),
            if dark { &DARK } else { &LIGHT },
            (720, 300),
        )),
    })
}

/// The accuracy report as the page shows it: every published row with its error, the misses
/// explained, and each run's sources (the page renders those as links).
pub fn accuracy(result: &Value) -> Value {
    if let Some(error) = result["error"].as_str() {
        return json!({ "lines": [line("accuracy-error", fill("accuracy.error", &[("why", error)]), true)] });
    }
    let rows: Vec<Value> = result["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let within = r["within"].as_bool().unwrap_or(false);
            json!({
                "class": if within { "" } else { "miss" },
                "cells": [
                    r["run"], r["label"], r["metric"], r["published"], r["predicted"],
                    format!("{:+.1}%", 100.0 * r["error"].as_f64().unwrap_or(0.0)),
                    format!("±{:.0}%", 100.0 * r["tolerance"].as_f64().unwrap_or(0.0)),
                ],
            })
        })
        .collect();
    let misses: Vec<Value> = result["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let why = r["known_miss"].as_str()?;
            let run = r["run"].as_str().unwrap_or_default();
            let label = r["label"].as_str().unwrap_or_default();
            Some(line(
                "accuracy-miss",
                fill("accuracy.miss", &[("run", run), ("label", label), ("why", why)]),
                false,
            ))
        })
        .collect();
    let head = ["run", "row", "metric", "published", "predicted", "error", "tolerance"]
        .map(|h| t(&format!("accuracy.head.{h}")));
    json!({
        "table": {
            "testid": "accuracy-table",
            "head": head,
            "rows": rows,
        },
        "after": misses,
        "sources": result["runs"],
    })
}

/// Plan A against plan B as the page shows it: each drawing as an image's `data:` URL.
pub fn compare(result: &Value) -> Value {
    let url = |key: &str| result[key].as_str().map(svg_url);
    json!({ "step": url("step"), "scaling": url("scaling"), "error": result["error"] })
}
