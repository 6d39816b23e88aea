//! Headline numbers, how sure they are, problems and warnings, the memory fit bar and the
//! breakdown tables.

use yew::prelude::*;

use super::browser;
use super::fields::help_stop as help;
use super::state::{Evaluation, State};
use crate::app::words;
use crate::format;
use crate::model::reliability::Checkpoint;
use crate::model::Severity;
use crate::numbers;
use crate::report;
use crate::text::{fill, t};
use crate::validation::{self, Confidence};

/// The bill of materials as a table, with a button that copies it as CSV.
fn bom(good: &Evaluation, on_copy: &Callback<String>) -> Html {
    let (plant, f) = (&good.inputs.plant, &good.estimate.facility);
    let csv = report::bom_csv(plant, f);
    let rows = crate::model::facility::priced_bom(plant, f);
    let money = format::Money::of(&plant.facility);
    let onclick = on_copy.reform(move |_| csv.clone());
    html! {
        <details class="tables bom">
            <summary>{ fill("bom.summary", &[
                ("nodes", &numbers::format(f.bom.nodes as f64)), ("switches", &numbers::format(f.bom.switches() as f64)),
                ("tiers", &f.bom.tiers.to_string()), ("transceivers", &numbers::format(f.bom.transceivers as f64))]) }</summary>
            <table data-testid="bom">
                <thead><tr><th>{ t("bom.item") }</th><th>{ t("bom.tier") }</th><th>{ t("bom.count") }</th><th>{ t("bom.model") }</th>
                    <th>{ t("bom.unit-price") }</th><th>{ t("bom.price") }</th><th>{ t("bom.power") }</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|row| html! {
                        <tr><td>{ format::part(row.item) }</td><td>{ format::part(row.tier) }</td>
                            <td>{ numbers::format(row.count as f64) }</td><td>{ row.model }</td>
                            <td>{ row.unit_usd.map(|u| money.show(u)).unwrap_or_default() }</td>
                            <td>{ row.unit_usd.map(|_| money.show(row.price_usd())).unwrap_or_default() }</td>
                            <td>{ row.unit_w.map(|_| format::power(row.power_w())).unwrap_or_default() }</td></tr>
                    }) }
                </tbody>
            </table>
            <button type="button" data-testid="bom-copy" {onclick}>{ t("bom.copy") }</button>
            { save_button("bom-csv", "clusterplan-bill-of-materials.csv", report::bom_csv(plant, f)) }
        </details>
    }
}

/// A button that downloads `csv` as the file `name`.
fn save_button(testid: &'static str, name: &'static str, csv: String) -> Html {
    let onclick = Callback::from(move |_| {
        if let Err(e) = browser::download(name, &csv, "text/csv") {
            web_sys::console::warn_1(&format!("could not save {name}: {e}").into());
        }
    });
    html! { <button type="button" class="save" data-testid={testid} {onclick}>{ t("save.csv") }</button> }
}

fn card(testid: &'static str, value: String, detail: String) -> Html {
    ranged(testid, value, None, detail)
}

/// A headline card with its likely range, [p10, p90], under the value.
pub(super) fn ranged(
    testid: &'static str,
    value: String,
    range: Option<(String, String)>,
    detail: String,
) -> Html {
    marked(testid, value, range, detail, false)
}

/// The same, drawn as a miss (`bad`) where the card's target is not met.
pub(super) fn marked(
    testid: &'static str,
    value: String,
    range: Option<(String, String)>,
    detail: String,
    bad: bool,
) -> Html {
    html! {
        <div class={classes!("card", bad.then_some("missed"))}>
            <div class="card-label">{ t(&format!("card.{testid}")) }{ help(words::help(testid)) }</div>
            <div class="card-value" data-testid={testid}>{ value }</div>
            if let Some((lo, hi)) = range {
                <div class="card-range" data-testid={format!("{testid}-range")} title={t("card.range-title")}>
                    { fill("card.range", &[("lo", &lo), ("hi", &hi)]) }
                </div>
            }
            <div class="card-detail">{ detail }</div>
        </div>
    }
}

/// Both ends of a range, each as `show` writes a value.
fn ends(range: (f64, f64), show: impl Fn(f64) -> String) -> Option<(String, String)> {
    Some((show(range.0), show(range.1)))
}

/// The confidence badge: firm, or what makes the estimate softer, in words.
fn confidence(c: &Confidence) -> Html {
    let mut reasons = Vec::new();
    match c.chip {
        Some(chip) if !c.unverified.is_empty() => {
            let names: Vec<String> =
                c.unverified.iter().map(|p| words::in_sentence(words::figure_name(p))).collect();
            reasons.push(fill(
                "sure.unverified",
                &[("chip", chip), ("figures", &names.join(t("text.list")))],
            ));
        }
        Some(_) => {}
        None => reasons.push(t("sure.custom-chip").into()),
    }
    if c.efficiency_by_class {
        reasons.push(t("sure.by-class").into());
    }
    if let Some(max) = c.beyond_validated {
        reasons.push(fill("sure.beyond", &[("chips", &numbers::format(max as f64))]));
    }
    if let Some(runs) = c.few_runs {
        reasons.push(fill("sure.few-runs", &[("runs", &runs.to_string())]));
    }
    if let Some(runs) = c.calibrated {
        reasons.push(fill("sure.calibrated", &[("runs", &runs.to_string())]));
    }
    if let Some((mean, median)) = c.known_gap {
        let mean = format!("{}{}", if mean > 0.0 { "+" } else { "" }, numbers::percent(mean));
        let median = numbers::percent(median);
        reasons.push(fill("sure.known-gap", &[("mean", &mean), ("median", &median)]));
    }
    let firm = reasons.is_empty();
    let plus_minus = format::percent(c.plus_minus);
    html! {
        <div class={classes!("confidence", if firm { "firm" } else { "soft" })} data-testid="confidence"
            data-firm={firm.to_string()} title={t(if firm { "sure.firm-title" } else { "sure.soft-title" })}>
            <strong>{ if firm { t("sure.firm").to_string() } else { fill("sure.soft", &[("pm", &plus_minus)]) } }</strong>
            if !firm { { t("text.colon") }{ reasons.join(t("text.clause")) } }
        </div>
    }
}

/// The headline cards: days, MFU, throughput, step, chip-hours, each with its range, and the
/// memory per chip with its fit bar.
fn headline(good: &Evaluation) -> Html {
    let (e, range) = (&good.estimate, &good.range);
    let m = &e.memory;
    let filled =
        if m.hbm_bytes > 0.0 { (m.peak_bytes / m.hbm_bytes * 100.0).min(100.0) } else { 100.0 };
    let chips = format::count(good.inputs.cluster.n_chips as f64);
    let days = fill("card.train-days.detail", &[("steps", &format::count(e.steps))]);
    let mfu = fill("card.mfu.detail", &[("hfu", &format::percent(e.hfu))]);
    let tokens = fill("card.tokens-per-s.value", &[("n", &format::count(e.tokens_per_s))]);
    let used = fill("card.tokens-per-s.detail", &[("chips", &format::count(e.chips_used as f64))]);
    let hours = fill("card.chip-hours.value", &[("n", &format::count(e.chip_hours))]);
    let on = fill("card.chip-hours.detail", &[("chips", &chips)]);
    let (peak, hbm) = (format::gib(m.peak_bytes), format::gib(m.hbm_bytes));
    let memory = fill("card.memory-per-chip.value", &[("peak", &peak), ("hbm", &hbm)]);
    html! {
        <div class="cards">
            { ranged("train-days", format::days(e.train_days), ends(range.train_days, format::days), days) }
            { ranged("mfu", format::percent(e.mfu), ends(range.mfu, format::percent), mfu) }
            { ranged("tokens-per-s", tokens, ends(range.tokens_per_s, format::count), used) }
            { ranged("step-time", format::seconds(e.step_s), ends(range.step_s, format::seconds),
                format::microbatches(e.n_microbatches)) }
            { ranged("chip-hours", hours, ends(range.chip_hours, format::count), on) }
            <div class="card memory">
                <div class="card-label">{ t("card.memory-per-chip") }{ help(words::help("memory-per-chip")) }</div>
                <div class="card-value" data-testid="memory-per-chip">{ memory }</div>
                <div class={classes!("fit-bar", (!m.fits).then_some("over"))} role="meter"
                    aria-label={t("card.memory-per-chip.meter")} aria-valuenow={format!("{filled:.0}")}
                    aria-valuemin="0" aria-valuemax="100">
                    <div class="fit-fill" style={format!("width: {filled:.1}%")}></div>
                </div>
                <div class="card-detail">
                    <span class={classes!((!m.fits).then_some("bad"))} data-testid="fits">
                        { t(if m.fits { "fit.fits" } else { "fit.does-not-fit" }) }
                    </span>
                    { fill("card.memory-per-chip.detail", &[("hbm", &hbm)]) }
                </div>
            </div>
        </div>
    }
}

/// The site's cards: power, energy, capex and the run's cost.
fn plant(good: &Evaluation) -> Html {
    let f = &good.estimate.facility;
    let (c, money) = (&f.cost, format::Money::of(&good.inputs.plant.facility));
    let usd = |x: f64| money.show(x);
    let mw = fill("unit.mw", &[("n", &format::sig3(f.power.facility_w / 1e6))]);
    let (it, pue) =
        (format::sig3(f.power.it_w / 1e6), format::sig3(good.inputs.plant.facility.pue));
    let power = fill("card.facility-mw.detail", &[("it", &it), ("pue", &pue)]);
    let mwh = format::mwh(f.energy_mwh);
    let co2 = fill("card.energy.detail", &[("t", &format::sig3(f.co2_t))]);
    let (hardware, building) = (usd(c.hardware_usd), usd(c.facility_usd));
    let capex = fill("card.capex.detail", &[("hardware", &hardware), ("building", &building)]);
    let (rented, per) = (usd(c.run_cloud_usd), usd(c.per_million_tokens_usd));
    let run = fill("card.run-cost.detail", &[("rented", &rented), ("per", &per)]);
    html! {
        <div class="cards plant" data-testid="plant-cards">
            { card("facility-mw", mw, power) }
            { card("energy", mwh, co2) }
            { card("capex", usd(c.capex_usd), capex) }
            { card("run-cost", usd(c.run_amortized_usd), run) }
        </div>
    }
}

/// What failures leave of the run: goodput, days with failures, time between interruptions,
/// where the time goes, and, on a vendor's own chips, what its reliability claim implies.
fn delivered(good: &Evaluation, vendor: Option<&str>) -> Html {
    let (e, r) = (&good.estimate, &good.estimate.reliability);
    let goodput = if r.finishes() {
        fill("card.goodput.detail", &[("n", &format::sig3(r.expected_interruptions))])
    } else {
        let mtbf = crate::text::duration(r.mtbf_h * 3600.0);
        let lost = crate::text::duration(r.lost_per_interruption_s);
        fill("card.goodput.never", &[("mtbf", &mtbf), ("lost", &lost)])
    };
    let days = format::days(e.effective_train_days().unwrap_or(f64::INFINITY));
    let ends_at = good.range.effective_train_days.and_then(|r| ends(r, format::days));
    let without = format::days(e.train_days);
    let every = match r.checkpoint_steps {
        n if n <= 1.0 => t("card.checkpoint.every-step").to_string(),
        n => fill("card.checkpoint.every-steps", &[("n", &crate::numbers::format(n))]),
    };
    let kind = match good.inputs.reliability.checkpoint {
        Checkpoint::Sync => "card.effective-days.detail.sync",
        Checkpoint::Async => "card.effective-days.detail.async",
        Checkpoint::InMemory => "card.effective-days.detail.in-memory",
    };
    let effective = fill(
        kind,
        &[
            ("without", &without),
            ("every", &every),
            ("interval", &crate::text::duration(r.checkpoint_interval_s)),
            ("stall", &format::seconds(r.checkpoint_stall_s)),
            ("write", &crate::text::duration(r.checkpoint_write_s)),
        ],
    );
    let hours = |s: f64| format::sig3(s / 3600.0);
    let lost = fill(
        "results.time-lost",
        &[
            ("restarts", &hours(r.restart_total_s)),
            ("redone", &hours(r.lost_work_total_s)),
            ("checkpoints", &hours(r.checkpoint_total_s)),
        ],
    );
    let v = &r.vendor_claim;
    let claimed = vendor == Some(crate::model::reliability::VENDOR_CLAIM.vendor);
    let claim = fill(
        "results.vendor-claim",
        &[
            ("allowed", &format::sig3(v.per_million_chip_hours)),
            ("calibrated", &format::sig3(v.calibrated_per_million_chip_hours)),
            ("lost", &format::sig3(v.max_lost_per_interruption_h)),
        ],
    );
    html! {
        <>
            <div class="cards delivered" data-testid="delivered-cards">
                { card("goodput", format::percent(r.goodput), goodput) }
                { ranged("effective-days", days, ends_at, effective) }
                { card("mtbf", fill("unit.hours", &[("n", &format::sig3(r.mtbf_h))]),
                    fill("card.mtbf.detail", &[("n", &format::sig3(r.interruptions_per_day))])) }
            </div>
            <div class="time-lost" data-testid="time-lost">
                { lost }
                if claimed { <br /><span data-testid="vendor-claim">{ claim }</span> }
            </div>
        </>
    }
}

/// The breakdown tables: the step's parts, memory's parts, and each link's busy and exposed time.
fn tables(e: &crate::model::Estimate) -> Html {
    let m = &e.memory;
    let step_total = e.step_s.max(1e-30);
    let b = &e.breakdown;
    let links = [
        ("tables.tp", e.link.tp_s, b.tp_exposed_s),
        ("tables.cp", e.link.cp_s, b.cp_exposed_s),
        ("tables.ep", e.link.ep_s, b.ep_exposed_s),
        ("tables.pp", e.link.pp_s, b.pp_exposed_s),
        ("tables.dp", e.link.dp_s, b.dp_exposed_s),
    ];
    let peak = fill("tables.peak", &[("phase", format::phase(m.peak_phase))]);
    let head = |keys: &[&str]| html! { <thead><tr>{ for keys.iter().map(|k| html! { <th>{ t(k) }</th> }) }</tr></thead> };
    html! {
        <details class="tables" data-testid="breakdown-tables">
            <summary>{ t("tables.title") }</summary>
            { save_button("breakdown-csv", "clusterplan-breakdown.csv", report::breakdown_csv(e)) }
            <table>
                { head(&["tables.step-part", "tables.seconds", "tables.share"]) }
                <tbody>
                    { for b.parts().into_iter().map(|(id, s)| html! {
                        <tr><td>{ format::part(id) }</td><td>{ format!("{s:.3}") }</td>
                            <td>{ format::percent(s / step_total) }</td></tr>
                    }) }
                    <tr class="total"><td>{ t("tables.step") }</td><td>{ format!("{:.3}", e.step_s) }</td>
                        <td>{ "100.0 %" }</td></tr>
                </tbody>
            </table>
            <table>
                { head(&["tables.memory-part", "tables.per-chip"]) }
                <tbody>
                    { for m.parts().into_iter().map(|(id, b)| html! {
                        <tr><td>{ format::part(id) }</td><td>{ format::gib(b) }</td></tr>
                    }) }
                    <tr class="total"><td>{ peak }</td><td>{ format::gib(m.peak_bytes) }</td></tr>
                </tbody>
            </table>
            <table>
                { head(&["tables.link", "tables.seconds", "tables.exposed"]) }
                <tbody>
                    { for links.into_iter().map(|(key, busy, exposed)| html! {
                        <tr><td>{ t(key) }</td><td>{ format!("{busy:.3}") }</td><td>{ format!("{exposed:.3}") }</td></tr>
                    }) }
                </tbody>
            </table>
        </details>
    }
}

/// The inputs refused and set aside, each named with what is wrong and a button that takes
/// the user to it: the estimate below is the plan without them.
fn refused(state: &State) -> Html {
    if state.errors.is_empty() {
        return Html::default();
    }
    let item = |e: &crate::scenario::InputError| {
        let path = e.field.clone();
        let onclick = Callback::from(move |_: MouseEvent| super::browser::focus_field(&path));
        html! {
            <li data-field={e.field.clone()}>
                <strong>{ words::field_name(&e.field) }</strong>{ ": " }{ words::input_error(e) }{ " " }
                <button type="button" class="link" data-testid="refused-jump" {onclick}>{ t("results.refused-jump") }</button>
            </li>
        }
    };
    html! {
        <div class="refused" data-testid="refused" role="alert">
            <strong>{ t("results.refused") }</strong>
            <ul>{ for state.errors.iter().map(item) }</ul>
        </div>
    }
}

/// What the plan costs, from the newest valid estimate; `on_copy` copies text (the bill of
/// materials as CSV) to the clipboard. A plain function, as the panels are (`inputs`).
pub fn results(state: &State, on_copy: &Callback<String>) -> Html {
    let Some(good) = state.good.as_deref() else {
        let none = html! { <p>{ t("results.none") }</p> };
        return html! { <section class="results stale" data-testid="results" data-feasible="false">{ none }</section> };
    };
    let e = &good.estimate;
    let sure = validation::confidence(&state.scenario, &good.inputs, &good.range);
    let class = classes!("results", (!e.feasible).then_some("infeasible"));
    html! {
        <section {class} id="results" tabindex="-1" data-testid="results" data-feasible={e.feasible.to_string()}>
            { refused(state) }
            if !e.problems.is_empty() {
                <div class="problems" data-testid="problems" role="alert">
                    <strong>{ t("results.problems") }</strong>
                    <ul>{ for e.problems.iter().map(|w| html! { <li>{ words::warning(w) }</li> }) }</ul>
                    <span class="problems-hint">{ t("results.problems-hint") }</span>
                </div>
            }
            { confidence(&sure) }
            { headline(good) }
            { plant(good) }
            { super::site::site_design(good) }
            { delivered(good, state.scenario.chip_preset().map(|p| p.vendor)) }
            if !e.warnings.is_empty() {
                <ul class="warnings" data-testid="warnings">
                    { for e.warnings.iter().map(|w| html! {
                        <li class={if w.severity() == Severity::Fit { "fit" } else { "advice" }}
                            data-severity={w.severity().as_str()}>{ words::warning(w) }</li>
                    }) }
                </ul>
            }
            if !e.notes.is_empty() {
                <ul class="notes" data-testid="notes">
                    { for e.notes.iter().map(|w| html! { <li>{ words::warning(w) }</li> }) }
                </ul>
            }
            { bom(good, on_copy) }
            { tables(e) }
        </section>
    }
}
