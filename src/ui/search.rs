//! The plan search and sizing panel: the objective, start, progress and cancel, the ranked
//! plans with why each wins or loses, where the typed plan ranks, and Apply (`job::render`);
//! the sizing section is `sizing.rs`.

use yew::prelude::*;

use super::job::{progress, render, use_job, JobProps};
use super::sizing::{sizing_section, use_sizing_inputs};
use crate::jobs::Task;
use crate::model::search::Objective;

/// The plan search and the sizing, one component so the page carries one component's weight.
#[function_component(SearchPanel)]
pub fn search_panel(props: &JobProps) -> Html {
    let job = use_job();
    let sizing_job = use_job();
    let sizing_inputs = use_sizing_inputs();
    let objective = use_state(|| Objective::TrainDays);
    let status = (*job.status).clone();
    let on_search = {
        let (state, objective, start) = (props.state.clone(), objective.clone(), job.start.clone());
        Callback::from(move |_| {
            start.emit(Task::Search {
                scenario: state.scenario.clone(),
                objective: *objective,
                top: 10,
            })
        })
    };
    let on_objective = {
        let objective = objective.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            objective.set(Objective::from_id(&value).unwrap_or(Objective::TrainDays));
        })
    };
    let stale = job.started_on.as_deref().is_some_and(|s| *s != props.state.scenario);
    html! {
        <>
        <section class="panel job" data-testid="search-panel">
            <h2>{ "Find the best plan" }</h2>
            <p class="job-hint">{ "Tries every split of these chips into tensor, pipeline, data, context and expert parallelism, with every micro-batch, interleaving, ZeRO stage and recomputation, and ranks the plans that fit." }</p>
            <div class="job-controls">
                <label>{ "Rank by " }
                    <select data-testid="search-objective" onchange={on_objective} disabled={status.running}>
                        { for [
                            (Objective::TrainDays, "fewest days (no failures)"),
                            (Objective::EffectiveDays, "fewest days with failures"),
                            (Objective::Cost, "lowest cost of the run"),
                            (Objective::Energy, "least energy"),
                        ].iter().map(|(o, words)| html! {
                            <option value={o.id()} selected={*o == *objective}>{ *words }</option>
                        }) }
                    </select>
                </label>
                <button type="button" class="primary" data-testid="search" onclick={on_search} disabled={status.running}>
                    { if status.running { "Searching…" } else { "Search every plan" } }
                </button>
            </div>
            { progress(&job, "search-progress", "search-cancel") }
            { for status.errors.iter().map(|e| html! { <p class="bad" role="alert">{ e.clone() }</p> }) }
            if stale && !status.running && status.result.is_some() {
                <p class="stale-note">{ "These plans were found for the plan as it was; search again to follow your edits (Apply would undo them)." }</p>
            }
            if let Some(view) = &status.result {
                { render(view, &props.on_action, status.running || stale) }
            }
        </section>
        { sizing_section(props, &sizing_job, &sizing_inputs) }
        </>
    }
}
