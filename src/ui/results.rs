//! Headline numbers, how sure they are, problems and warnings, the memory fit bar and the
//! breakdown tables.

use yew::prelude::*;

use super::browser;
use super::fields::help;
use super::format;
use super::state::State;
use super::text;
use crate::charts::{memory_parts, MEMORY_LABELS, STEP_LABELS};
use crate::editor::{self, Confidence};
use crate::model::Severity;
use crate::numbers;
use crate::report;

/// The bill of materials as a table, with a button that copies it as CSV.
fn bom(f: &crate::model::FacilityEstimate, on_copy: &Callback<String>) -> Html {
    let csv = report::bom_csv(f);
    let rows = report::bom_rows(f);
    let onclick = on_copy.reform(move |_| csv.clone());
    html! {
        <details class="tables bom">
            <summary>{ format!("Bill of materials: {} nodes, {} scale-out switches in {} tiers, {} transceivers",
                numbers::format(f.bom.nodes as f64), numbers::format(f.bom.switches() as f64),
                f.bom.tiers, numbers::format(f.bom.transceivers as f64)) }</summary>
            <table data-testid="bom">
                <thead><tr><th>{ "item" }</th><th>{ "tier" }</th><th>{ "count" }</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|(item, tier, count)| html! {
                        <tr><td>{ *item }</td><td>{ *tier }</td><td>{ numbers::format(*count as f64) }</td></tr>
                    }) }
                </tbody>
            </table>
            <button type="button" data-testid="bom-copy" {onclick}>{ "Copy as CSV" }</button>
            { save_button("bom-csv", "clusterplan-bill-of-materials.csv", report::bom_csv(f)) }
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
    html! { <button type="button" class="save" data-testid={testid} {onclick}>{ "Download CSV" }</button> }
}

fn card(testid: &'static str, label: &'static str, value: String, detail: String) -> Html {
    html! {
        <div class="card">
            <div class="card-label">{ label }{ help(text::help(testid)) }</div>
            <div class="card-value" data-testid={testid}>{ value }</div>
            <div class="card-detail">{ detail }</div>
        </div>
    }
}

/// The confidence badge: firm, or what makes the estimate softer, in words.
fn confidence(c: &Confidence) -> Html {
    let mut reasons = Vec::new();
    match c.chip {
        Some(chip) if !c.unverified.is_empty() => {
            let names: Vec<String> =
                c.unverified.iter().map(|p| text::in_sentence(text::figure_name(p))).collect();
            reasons.push(format!("{chip}: {} unverified", names.join(", ")));
        }
        Some(_) => {}
        None => reasons.push("custom chip: its figures are as entered".to_string()),
    }
    if c.efficiency_by_class {
        reasons.push(
            "GEMM and memory efficiency assumed by chip class, not measured in a published run"
                .into(),
        );
    }
    if let Some(max) = c.beyond_validated {
        reasons.push(format!(
            "larger than the largest validated run ({} chips)",
            numbers::format(max as f64)
        ));
    }
    let firm = reasons.is_empty();
    let title = if firm {
        "Validated: this chip's figures are from its datasheet and its efficiency was checked against published runs of this size."
    } else {
        "Estimate: treat these numbers as a guide."
    };
    html! {
        <div class={classes!("confidence", if firm { "firm" } else { "soft" })} data-testid="confidence"
            data-firm={firm.to_string()} title={title}>
            <strong>{ if firm { "validated" } else { "estimate" } }</strong>
            if !firm { { format!(": {}", reasons.join("; ")) } }
        </div>
    }
}

/// What the plan costs, from the newest valid estimate; `on_copy` copies text (the bill of
/// materials as CSV) to the clipboard. A plain function, as the panels are (`inputs`).
pub fn results(state: &State, on_copy: &Callback<String>) -> Html {
    let Some(good) = state.good.as_deref() else {
        return html! { <section class="results stale" data-testid="results" data-feasible="false"><p>{ "Fix the marked fields to see an estimate." }</p></section> };
    };
    let e = &good.estimate;
    let m = &e.memory;
    let fill =
        if m.hbm_bytes > 0.0 { (m.peak_bytes / m.hbm_bytes * 100.0).min(100.0) } else { 100.0 };
    let step_total = e.step_s.max(1e-30);
    let memory = memory_parts(e);
    let sure = editor::confidence(&state.scenario, &good.inputs);
    let f = &e.facility;
    let r = &e.reliability;
    let feasible = e.feasible && !state.stale();
    let days = if e.train_days < 1e5 {
        format!("{:.1} days", e.train_days)
    } else {
        format!("{} days", numbers::format(e.train_days.round()))
    };
    html! {
        <section class={classes!("results", state.stale().then_some("stale"), (!e.feasible).then_some("infeasible"))}
            data-testid="results" data-feasible={feasible.to_string()}
            title={if state.stale() { "Showing the last valid plan; fix the marked fields" } else { "" }}>
            if state.stale() {
                <div class="stale-note">{ "Showing the last valid plan while the marked fields are fixed." }</div>
            }
            if !e.problems.is_empty() {
                <div class="problems" data-testid="problems" role="alert">
                    <strong>{ "This plan cannot run as written:" }</strong>
                    <ul>{ for e.problems.iter().map(|w| html! { <li>{ w.to_string() }</li> }) }</ul>
                    <span class="problems-hint">{ "The numbers below are dimmed: they only suggest what a runnable plan near it would cost." }</span>
                </div>
            }
            { confidence(&sure) }
            <div class="cards">
                { card("train-days", "Days to train", days,
                    format!("{} steps, no failures", format::count(e.steps))) }
                { card("mfu", "MFU", format::percent(e.mfu), format!("HFU {}", format::percent(e.hfu))) }
                { card("tokens-per-s", "Throughput", format!("{} tokens/s", format::count(e.tokens_per_s)),
                    format!("{} chips busy", numbers::format(e.chips_used as f64))) }
                { card("step-time", "Step time", format::seconds(e.step_s), format::microbatches(e.n_microbatches)) }
                { card("chip-hours", "Chip-hours", format!("{} chip-hours", format::count(e.chip_hours)),
                    format!("{} chips", numbers::format(good.inputs.cluster.n_chips as f64))) }
                <div class="card memory">
                    <div class="card-label">{ "Memory per chip" }{ help(text::help("memory-per-chip")) }</div>
                    <div class="card-value" data-testid="memory-per-chip">
                        { format!("{} of {}", format::gib(m.peak_bytes), format::gib(m.hbm_bytes)) }
                    </div>
                    <div class={classes!("fit-bar", (!m.fits).then_some("over"))} role="meter"
                        aria-label="memory used" aria-valuenow={format!("{fill:.0}")} aria-valuemin="0" aria-valuemax="100">
                        <div class="fit-fill" style={format!("width: {fill:.1}%")}></div>
                    </div>
                    <div class="card-detail">
                        <span class={classes!((!m.fits).then_some("bad"))} data-testid="fits">
                            { if m.fits { "fits" } else { "does not fit" } }
                        </span>
                        { format!(" · of the {} the device reports", format::gib(m.hbm_bytes)) }
                    </div>
                </div>
            </div>
            <div class="cards plant" data-testid="plant-cards">
                { card("facility-mw", "Site power", format!("{} MW", format::sig3(f.power.facility_w / 1e6)),
                    format!("{} MW IT at PUE {}", format::sig3(f.power.it_w / 1e6), format::sig3(good.inputs.plant.facility.pue))) }
                { card("energy", "Energy per run", format!("{} MWh", format::sig3(f.energy_mwh)),
                    format!("{} t CO₂", format::sig3(f.co2_t))) }
                { card("capex", "Capex", format!("${}", format::count(f.cost.capex_usd)),
                    format!("${} hardware, ${} building", format::count(f.cost.hardware_usd), format::count(f.cost.facility_usd))) }
                { card("run-cost", "Cost per run", format!("${}", format::count(f.cost.run_amortized_usd)),
                    format!("${} rented; ${} per M tokens", format::count(f.cost.run_cloud_usd), format::sig3(f.cost.per_million_tokens_usd))) }
            </div>
            <div class="cards delivered" data-testid="delivered-cards">
                { card("goodput", "Goodput", format::percent(r.goodput),
                    format!("{} interruptions over the run", format::sig3(r.expected_interruptions))) }
                { card("effective-days", "Days with failures", format!("{:.1} days", e.effective_train_days.min(1e6)),
                    format!("{:.1} without; checkpoint every {}", e.train_days.min(1e6), format::seconds(r.checkpoint_interval_s))) }
                { card("mtbf", "Mean time between interruptions", format!("{} h", format::sig3(r.mtbf_h)),
                    format!("{} a day on this cluster", format::sig3(r.interruptions_per_day))) }
            </div>
            <div class="time-lost" data-testid="time-lost">
                { format!("Time lost over the run: restarts {} h · redone work {} h · checkpoints {} h",
                    format::sig3(r.restart_total_s / 3600.0), format::sig3(r.lost_work_total_s / 3600.0),
                    format::sig3(r.checkpoint_total_s / 3600.0)) }
                <br />
                { format!("A vendor claim of 15 days between failures and 99% effective time (Moore Threads KUAE) allows {} failures per million chip-hours at this size, against {} calibrated on Llama 3.1, and at most {} h lost per failure.",
                    format::sig3(r.vendor_claim.per_million_chip_hours), format::sig3(r.vendor_claim.calibrated_per_million_chip_hours),
                    format::sig3(r.vendor_claim.max_lost_per_interruption_h)) }
            </div>
            if !e.warnings.is_empty() {
                <ul class="warnings" data-testid="warnings">
                    { for e.warnings.iter().map(|w| html! {
                        <li class={if w.severity() == Severity::Fit { "fit" } else { "advice" }}
                            data-severity={w.severity().as_str()}>{ w.to_string() }</li>
                    }) }
                </ul>
            }
            if !e.notes.is_empty() {
                <ul class="notes" data-testid="notes">
                    { for e.notes.iter().map(|w| html! { <li>{ w.to_string() }</li> }) }
                </ul>
            }
            { bom(f, on_copy) }
            <details class="tables">
                <summary>{ "Breakdown tables" }</summary>
                { save_button("breakdown-csv", "clusterplan-breakdown.csv", report::breakdown_csv(e)) }
                <table>
                    <thead><tr><th>{ "Step part" }</th><th>{ "seconds" }</th><th>{ "share" }</th></tr></thead>
                    <tbody>
                        { for STEP_LABELS.iter().zip(e.breakdown.parts()).map(|(label, (_, s))| html! {
                            <tr><td>{ *label }</td><td>{ format!("{s:.3}") }</td><td>{ format::percent(s / step_total) }</td></tr>
                        }) }
                        <tr class="total"><td>{ "step" }</td><td>{ format!("{:.3}", e.step_s) }</td><td>{ "100.0 %" }</td></tr>
                    </tbody>
                </table>
                <table>
                    <thead><tr><th>{ "Memory part" }</th><th>{ "per chip" }</th></tr></thead>
                    <tbody>
                        { for MEMORY_LABELS.iter().zip(memory).map(|(label, b)| html! {
                            <tr><td>{ *label }</td><td>{ format::gib(b) }</td></tr>
                        }) }
                        <tr class="total"><td>{ format!("peak ({} phase)", format::phase(m.peak_phase)) }</td><td>{ format::gib(m.peak_bytes) }</td></tr>
                    </tbody>
                </table>
                <table>
                    <thead><tr><th>{ "Link busy per step" }</th><th>{ "seconds" }</th><th>{ "exposed" }</th></tr></thead>
                    <tbody>
                        <tr><td>{ "tensor parallel" }</td><td>{ format!("{:.3}", e.link.tp_s) }</td><td>{ format!("{:.3}", e.breakdown.tp_exposed_s) }</td></tr>
                        <tr><td>{ "context parallel" }</td><td>{ format!("{:.3}", e.link.cp_s) }</td><td>{ format!("{:.3}", e.breakdown.cp_exposed_s) }</td></tr>
                        <tr><td>{ "expert all-to-all" }</td><td>{ format!("{:.3}", e.link.ep_s) }</td><td>{ format!("{:.3}", e.breakdown.ep_exposed_s) }</td></tr>
                        <tr><td>{ "pipeline" }</td><td>{ format!("{:.3}", e.link.pp_s) }</td><td>{ format!("{:.3}", e.breakdown.pp_exposed_s) }</td></tr>
                        <tr><td>{ "data parallel" }</td><td>{ format!("{:.3}", e.link.dp_s) }</td><td>{ format!("{:.3}", e.breakdown.dp_exposed_s) }</td></tr>
                    </tbody>
                </table>
            </details>
        </section>
    }
}
