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
    // Given only where the experts are split unlike the attention.
    if p.get("etp").is_some() {
        words.push(format!("ETP {}", n(p, "etp")));
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
        .map(|(k, s)| format!("{} {}", crate::text::part(k), format::percent(s / step)))
        .collect();
    fill("search.wins", &[("shares", &shares.join(t("text.list")))])
}

/// Why a runner-up loses: the part of its step that grew most against the best; or that the
/// model cannot tell it from the best.
fn loses(row: &Value) -> String {
    let part = row["loses_on"]["part"].as_str().map_or(t("tables.step"), crate::text::part);
    let seconds = row["loses_on"]["seconds"].as_f64().unwrap_or(0.0);
    let behind = row["behind"].as_f64().unwrap_or(0.0);
    if behind <= 1e-9 {
        return t("search.as-good").into();
    }
    let pct = format::percent(behind);
    if row["equivalent"].as_bool() == Some(true) {
        return fill("search.equivalent", &[("behind", &pct)]);
    }
    if seconds <= 0.0 {
        // Ranked by cost, energy or failures, a plan can lose with the shorter step.
        return fill("search.behind", &[("behind", &pct)]);
    }
    let values = [("behind", pct.as_str()), ("part", part), ("seconds", &format::seconds(seconds))];
    fill("search.behind-on", &values)
}

/// What else a row should say: that its tensor parallelism leaves the scale-up domain (and by
/// how much the model prefers it to the best plan that does not), and the chips it leaves idle.
fn caveats(row: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let domains = row["tp_domains"].as_u64().unwrap_or(1);
    if domains > 1 {
        let tp = n(&row["parallelism"], "tp");
        let faster = -row["against_inside"]["days"].as_f64().unwrap_or(0.0);
        out.push(fill(
            if faster > 0.0 { "search.tp-crosses-faster" } else { "search.tp-crosses" },
            &[("tp", &tp), ("domains", &domains.to_string()), ("faster", &format::percent(faster))],
        ));
    }
    if let Some(used) = row["domain_chips"].as_u64() {
        out.push(fill("search.placed", &[("n", &numbers::format(used as f64))]));
    }
    if let Some(idle) = row["idle_chips"].as_u64().filter(|&i| i > 0) {
        let usd = row["idle_usd"].as_f64().unwrap_or(0.0);
        out.push(fill(
            "search.idle",
            &[("n", &numbers::format(idle as f64)), ("usd", &format::count(usd))],
        ));
    }
    out
}

/// What applying a row does to the typed plan's figures, in words: "12.0 % slower, 3.0 GiB
/// less memory"; "yours" on the typed plan's own row.
fn against_yours(row: &Value, objective: &str) -> String {
    if row["yours"].as_bool() == Some(true) {
        return t("search.is-yours").into();
    }
    let a = &row["against_yours"];
    let Some(days) = a["days"].as_f64() else { return String::new() };
    let mut parts = Vec::new();
    let change = |x: f64, more: &str, less: &str| {
        let key = if x > 0.0 { more } else { less };
        fill(key, &[("n", &format::percent(x.abs()))])
    };
    if days.abs() >= 0.0005 {
        parts.push(change(days, "search.slower", "search.faster"));
    }
    let (figure, more, less) = match objective {
        "cost" => ("run_usd", "search.dearer", "search.cheaper"),
        "energy" => ("energy", "search.more-energy", "search.less-energy"),
        "effective-days" => ("effective_days", "search.slower-failures", "search.faster-failures"),
        _ => ("", "", ""),
    };
    if let Some(x) = a[figure].as_f64().filter(|x| x.abs() >= 0.0005) {
        parts.push(change(x, more, less));
    }
    let bytes = a["memory_bytes"].as_f64().unwrap_or(0.0);
    if bytes.abs() >= 0.05 * 1073741824.0 {
        let key = if bytes > 0.0 { "search.more-memory" } else { "search.less-memory" };
        parts.push(fill(key, &[("n", &format::gib(bytes.abs()))]));
    }
    if parts.is_empty() {
        return t("search.same-as-yours").into();
    }
    parts.join(t("text.list"))
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

/// Where the typed plan ranks, in words; or why it is not ranked.
fn yours(result: &Value) -> String {
    let y = &result["yours"];
    let why: Vec<&str> =
        y["why"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let why = why.join(t("text.list"));
    match (y["verdict"].as_str(), y["rank"].as_u64()) {
        (Some("fits"), Some(1)) => t("search.yours-best").into(),
        (Some("fits"), Some(rank)) => {
            let behind = format::percent(y["behind"].as_f64().unwrap_or(0.0));
            let band = format::percent(result["equivalent_within"].as_f64().unwrap_or(0.0));
            let key = match (result["objective"].as_str(), y["within_error"].as_bool()) {
                (_, Some(true)) => "search.yours-within-error",
                (Some("cost"), _) => "search.yours-dearer",
                (Some("energy"), _) => "search.yours-more-energy",
                _ => "search.yours-slower",
            };
            fill(
                key,
                &[
                    ("rank", &ordinal(rank)),
                    ("of", &n(result, "evaluated")),
                    ("behind", &behind),
                    ("band", &band),
                ],
            )
        }
        (Some("does_not_fit"), _) => fill("search.yours-does-not-fit", &[("why", &why)]),
        (Some("never_finishes"), _) => fill("search.yours-never-finishes", &[("why", &why)]),
        _ => fill("search.yours-cannot-run", &[("why", &why)]),
    }
}

fn apply(testid: &str, label: String, scenario: &Value) -> Value {
    json!({ "testid": testid, "label": label, "scenario": scenario })
}

/// One plan as a row of the table: its rank (or `first` in its place), plan, days, MFU,
/// memory, what applying it does to the typed plan, and why it wins or loses.
fn plan_row(row: &Value, first: String, why: String, objective: &str, apply: Value) -> Value {
    let e = &row["estimate"];
    let mut why = vec![why];
    why.extend(caveats(row));
    json!({
        "testid": "search-row",
        "cells": [
            first,
            plan_words(&row["parallelism"], row["dp"].as_u64()),
            e["train_days"].as_f64().map(|d| format!("{d:.1}")).unwrap_or_default(),
            e["mfu"].as_f64().map(format::percent).unwrap_or_default(),
            e["memory"]["peak_bytes"].as_f64().map(format::gib).unwrap_or_default(),
            against_yours(row, objective),
            why.into_iter().filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" · "),
        ],
        "apply": apply,
    })
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
    if result["never_finish"].as_u64().unwrap_or(0) > 0 {
        let never = n(result, "never_finish");
        lines.push(line("search-never", fill("search.counts-never", &[("n", &never)]), false));
    }
    if done {
        lines.push(line("search-yours", yours(result), false));
    }
    if let Some(why) = result["why"].as_str() {
        lines.push(line("search-why", why.to_string(), true));
    }
    let objective = result["objective"].as_str().unwrap_or("days");
    let mut rows: Vec<Value> = result["plans"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            let rank = row["rank"].as_u64().unwrap_or(0);
            let why = if rank == 1 { wins(&row["estimate"]) } else { loses(row) };
            let label = fill("search.apply-label", &[("rank", &rank.to_string())]);
            plan_row(
                row,
                rank.to_string(),
                why,
                objective,
                apply("search-apply", label, &row["scenario"]),
            )
        })
        .collect();
    let inside = &result["best_inside"];
    if done && !inside.is_null() {
        let label = t("search.inside-apply").to_string();
        let mut row = plan_row(
            inside,
            t("search.inside-rank").into(),
            loses(inside),
            objective,
            apply("search-apply-inside", label, &inside["scenario"]),
        );
        row["testid"] = json!("search-inside");
        rows.push(row);
        let faster = -result["plans"][0]["against_inside"]["days"].as_f64().unwrap_or(0.0);
        let note = fill("search.inside-note", &[("faster", &format::percent(faster.max(0.0)))]);
        lines.push(line("search-inside-note", note, false));
    }
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
            "head": ["#", t("search.head.plan"), t("search.head.days"), "MFU", t("search.head.memory"), t("search.head.against"), t("search.head.why")],
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
    // How close each answer is to the true smallest cluster.
    let bounds: Vec<Value> = result["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let chips = r["chips"].as_u64()?;
            let text = fill(
                "size.bound",
                &[
                    ("chip", r["chip"].as_str().unwrap_or("")),
                    ("chips", &numbers::format(chips as f64)),
                    ("misses", &n(r, "misses_at")),
                    ("over", &format::percent(r["at_most_over"].as_f64().unwrap_or(0.0))),
                    ("unit", &n(r, "unit")),
                ],
            );
            Some(line("size-bound", text, false))
        })
        .collect();
    json!({
        "lines": [],
        "after": bounds,
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
