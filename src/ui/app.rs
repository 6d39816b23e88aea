//! `App`: owns the state, keeps the URL and local storage in step, lays out the page.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::browser;
use super::fields::Change;
use super::inputs::{ClusterPanel, ModelPanel, ParallelismPanel, TrainingPanel};
use super::plot::{Plot, PlotKind};
use super::results::Results;
use super::state::{Action, State};
use crate::scenario::Scenario;

/// What the estimate assumes and leaves out, as the README's Assumptions and Limitations say.
const ABOUT: [&str; 8] = [
    "An analytical model of every operator, collective and pipeline stage, validated against published runs (Megatron-LM 2021 and 2022, Llama 3.1 405B, GPT-3, OPT, BLOOM, LLaMA, DeepSeek-V3): 29 of 32 rows within ±10% (throughput) or ±15% (days); see docs/accuracy.md.",
    "Each operator takes the larger of its FLOP time at the chip's achievable GEMM rate and its memory time at the achievable bandwidth.",
    "Collectives use the alpha-beta model; a group stays on the scale-up fabric as far as Megatron-LM's rank order allows and crosses the network for the rest.",
    "Tensor-parallel and expert all-to-all traffic is exposed unless an overlap is switched on; data-parallel reduction overlaps the backward pass when enabled.",
    "MFU counts model FLOPs as Megatron-LM does (causal attention counted once) over the BF16 dense peak; HFU adds recomputation.",
    "Memory follows Korthikanti et al.'s activation accounting at the busiest pipeline stage and the worst phase of a step.",
    "Days to train assume no failures or restarts; power, cooling and cost are not modelled yet.",
    "Figures marked unverified in the chip description are estimates; most non-NVIDIA efficiency figures are by chip class.",
];

/// The planner page.
#[function_component(App)]
pub fn app() -> Html {
    let opening = use_memo((), |_| browser::initial_scenario());
    let state = use_reducer({
        let opening = opening.clone();
        move || State::new(opening.0.clone(), opening.1.clone())
    });
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    // A link that could not be read stays in the address bar until the first edit, so the
    // user can still copy or fix it.
    let keep_link = use_mut_ref(|| opening.2 == browser::Origin::BrokenLink);
    let dark = use_state(browser::prefers_dark);

    // The link and local storage always hold the scenario as typed, valid or not.
    {
        let keep_link = keep_link.clone();
        use_effect_with(state.scenario.clone(), move |scenario| {
            if !keep_link.replace(false) {
                browser::save(scenario);
            }
        });
    }
    // A link pasted into the address bar of an open page opens its plan.
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            let listener = browser::on_hash_change(move || {
                let action = match browser::linked_scenario() {
                    Ok(Some(scenario)) => Action::Replace(
                        Box::new(scenario),
                        Some("Opened the plan in the link.".into()),
                    ),
                    Ok(None) => return,
                    Err(notice) => Action::Notify(notice),
                };
                state.dispatch(action);
            });
            move || drop(listener)
        });
    }
    // Plots follow the colour scheme when the system switches it.
    {
        let dark = dark.clone();
        use_effect_with((), move |_| {
            let listener = browser::on_scheme_change(move || dark.set(browser::prefers_dark()));
            move || drop(listener)
        });
    }

    // One callback for the whole life of the page, so fields whose values did not change skip
    // re-rendering.
    let on_set = use_callback(state.dispatcher(), |changes: Vec<Change>, dispatcher| {
        dispatcher.dispatch(Action::Set(changes))
    });
    let on_copy = {
        let state = state.clone();
        Callback::from(move |_| {
            let link = browser::share_link(&state.scenario);
            let Some(promise) = browser::copy(&link) else {
                state.dispatch(Action::Notify(format!("Copy this link to share the plan: {link}")));
                return;
            };
            let state = state.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let message = match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(_) => "Link copied: it opens this plan.".to_string(),
                    Err(_) => format!("The browser did not allow copying; share this link: {link}"),
                };
                state.dispatch(Action::Notify(message));
            });
        })
    };
    let on_export = {
        let state = state.clone();
        Callback::from(move |_| {
            let json = serde_json::to_string_pretty(&state.scenario).unwrap_or_default();
            if let Err(e) = browser::download("clusterplan-scenario.json", &json) {
                state.dispatch(Action::Notify(format!("Could not export the scenario: {e}")));
            }
        })
    };
    let on_import = {
        let state = state.clone();
        let reader = reader.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else { return };
            let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
            let name = file.name();
            let state = state.clone();
            let task =
                gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |text| {
                    let action = match text
                        .map_err(|e| e.to_string())
                        .and_then(|t| Scenario::parse_many(&t).map_err(|e| e.to_string()))
                    {
                        Ok(mut list) if list.len() == 1 => Action::Replace(
                            Box::new(list.remove(0)),
                            Some(format!("Imported {name}.")),
                        ),
                        Ok(_) => Action::Notify(format!(
                            "{name} holds several scenarios; import one at a time."
                        )),
                        Err(e) => Action::Notify(format!("Could not import {name}: {e}")),
                    };
                    state.dispatch(action);
                });
            *reader.borrow_mut() = Some(task);
            input.set_value("");
        })
    };
    // A real button opens the hidden file picker, so the keyboard reaches it too.
    let file_input = use_node_ref();
    let on_pick = {
        let file_input = file_input.clone();
        Callback::from(move |_| {
            if let Some(input) = file_input.cast::<HtmlInputElement>() {
                input.click();
            }
        })
    };
    let on_reset = {
        let state = state.clone();
        Callback::from(move |_| {
            state.dispatch(Action::Replace(
                Box::new(Scenario::default_plan()),
                Some("Back to the default plan.".into()),
            ))
        })
    };

    let good = state.good.clone();
    html! {
        <>
            <header class="top">
                <div class="title">
                    <h1>{ "clusterplan" }</h1>
                    <span class="tagline">{ "How long, how much memory, how many chip-hours: a training plan for a large cluster" }</span>
                </div>
                <nav class="actions">
                    <button onclick={on_copy} data-testid="copy-link">{ "Copy link" }</button>
                    <button onclick={on_export} data-testid="export">{ "Export JSON" }</button>
                    <button onclick={on_pick}>{ "Import JSON" }</button>
                    <input ref={file_input} type="file" accept=".json,application/json" onchange={on_import}
                        data-testid="import" aria-label="Import a scenario file" hidden=true />
                    <button onclick={on_reset} data-testid="reset">{ "Reset" }</button>
                </nav>
            </header>
            <div class="notice" data-testid="notice" role="status" aria-live="polite">
                { state.notice.clone().unwrap_or_default() }
            </div>
            <main class="layout">
                <div class="inputs">
                    <ModelPanel state={state.clone()} on_set={on_set.clone()} />
                    <TrainingPanel state={state.clone()} on_set={on_set.clone()} />
                    <ClusterPanel state={state.clone()} on_set={on_set.clone()} />
                    <ParallelismPanel state={state.clone()} on_set={on_set} />
                </div>
                <div class="outputs">
                    <Results state={state.clone()} />
                    if let Some(good) = good {
                        <div class={classes!("plots", state.stale().then_some("stale"))}>
                            <Plot kind={PlotKind::Step} good={good.clone()} dark={*dark} testid="plot-step" label="Step time breakdown in seconds" height={230} />
                            <Plot kind={PlotKind::Memory} good={good.clone()} dark={*dark} testid="plot-memory" label="Memory per chip against capacity in GiB" height={230} />
                            <Plot kind={PlotKind::Scaling} good={good} dark={*dark} testid="plot-scaling" label="Days to train and MFU against chip count" height={320} />
                        </div>
                    }
                    <footer class="about">
                        <details>
                            <summary>{ "How these numbers are made" }</summary>
                            <ul>
                                { for ABOUT.iter().map(|line| html! { <li>{ *line }</li> }) }
                            </ul>
                        </details>
                        { "Nothing leaves this page: it makes no network requests, and the plan lives in the link." }
                    </footer>
                </div>
            </main>
        </>
    }
}
