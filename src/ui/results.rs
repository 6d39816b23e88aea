//! Headline numbers, the memory fit bar, breakdown tables and warnings.

use yew::prelude::*;

use super::format;
use super::state::State;
use crate::charts::{memory_parts, MEMORY_LABELS, STEP_LABELS};

/// Properties of the results panel.
#[derive(Properties, PartialEq)]
pub struct ResultsProps {
    /// Current state.
    pub state: UseReducerHandle<State>,
}

fn card(testid: &'static str, label: &'static str, value: String, detail: String) -> Html {
    html! {
        <div class="card">
            <div class="card-label">{ label }</div>
            <div class="card-value" data-testid={testid}>{ value }</div>
            <div class="card-detail">{ detail }</div>
        </div>
    }
}

/// What the plan costs, from the newest valid estimate.
#[function_component(Results)]
pub fn results(props: &ResultsProps) -> Html {
    let state = &props.state;
    let Some(good) = state.good.as_deref() else {
        return html! { <section class="results stale" data-testid="results"><p>{ "Fix the marked fields to see an estimate." }</p></section> };
    };
    let e = &good.estimate;
    let m = &e.memory;
    let fill =
        if m.hbm_bytes > 0.0 { (m.peak_bytes / m.hbm_bytes * 100.0).min(100.0) } else { 100.0 };
    let step_total = e.step_s.max(1e-30);
    let memory = memory_parts(e);
    html! {
        <section class={classes!("results", state.stale().then_some("stale"))} data-testid="results"
            title={if state.stale() { "Showing the last valid plan; fix the marked fields" } else { "" }}>
            if state.stale() {
                <div class="stale-note">{ "Showing the last valid plan while the marked fields are fixed." }</div>
            }
            <div class="cards">
                { card("train-days", "Days to train", format!("{:.1} days", e.train_days),
                    format!("{} steps, no failures", format::count(e.steps))) }
                { card("mfu", "MFU", format::percent(e.mfu), format!("HFU {}", format::percent(e.hfu))) }
                { card("tokens-per-s", "Throughput", format!("{} tokens/s", format::count(e.tokens_per_s)),
                    format!("{} chips busy", e.chips_used)) }
                { card("step-time", "Step time", format::seconds(e.step_s), format!("{} micro-batches", e.n_microbatches)) }
                { card("chip-hours", "Chip-hours", format!("{} chip-hours", format::count(e.chip_hours)),
                    format!("{} chips", good.inputs.cluster.n_chips)) }
                <div class="card memory">
                    <div class="card-label">{ "Memory per chip" }</div>
                    <div class="card-value" data-testid="memory-per-chip">
                        { format!("{} of {}", format::gib(m.peak_bytes), format::gib(m.hbm_bytes)) }
                    </div>
                    <div class={classes!("fit-bar", (!m.fits).then_some("over"))} role="meter"
                        aria-valuenow={format!("{fill:.0}")} aria-valuemin="0" aria-valuemax="100">
                        <div class="fit-fill" style={format!("width: {fill:.1}%")}></div>
                    </div>
                    <div class="card-detail">
                        <span class={classes!((!m.fits).then_some("bad"))} data-testid="fits">
                            { if m.fits { "fits" } else { "does not fit" } }
                        </span>
                        { format!(" · the chip's {:.0} GB is {}", m.hbm_bytes / 1e9, format::gib(m.hbm_bytes)) }
                    </div>
                </div>
            </div>
            if !e.warnings.is_empty() {
                <ul class="warnings" data-testid="warnings">
                    { for e.warnings.iter().map(|w| html! { <li>{ w.to_string() }</li> }) }
                </ul>
            }
            <details class="tables">
                <summary>{ "Breakdown tables" }</summary>
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
                        <tr class="total"><td>{ format!("peak ({:?} phase)", m.peak_phase).to_lowercase() }</td><td>{ format::gib(m.peak_bytes) }</td></tr>
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
