//! The plan search and sizing panel: the objective, start, progress and cancel, the ranked
//! plans with why each wins or loses, where the typed plan ranks, and Apply (`job::render`);
//! the sizing section is `sizing.rs`.

use yew::prelude::*;

use super::sizing::{sizing_section, use_sizing_inputs};
use crate::app::Task;
use crate::model::search::Objective;
use crate::text::t;
use crate::ui::job::{progress, render, use_job, JobProps};

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
        <section class="panel job" id="search" tabindex="-1" data-testid="search-panel"
            aria-labelledby="search-title">
            <h2 id="search-title">{ t("search.title") }</h2>
            <p class="job-hint">{ t("search.hint") }</p>
            <div class="job-controls">
                <label>{ t("search.rank-by") }{ " " }
                    <select data-testid="search-objective" onchange={on_objective} disabled={status.running}>
                        { for [
                            (Objective::TrainDays, "search.by.days"),
                            (Objective::EffectiveDays, "search.by.effective-days"),
                            (Objective::Cost, "search.by.cost"),
                            (Objective::Energy, "search.by.energy"),
                        ].iter().map(|(o, key)| html! {
                            <option value={o.id()} selected={*o == *objective}>{ t(key) }</option>
                        }) }
                    </select>
                </label>
                <button type="button" class="primary" data-testid="search" onclick={on_search} disabled={status.running}>
                    { t(if status.running { "search.running" } else { "search.start" }) }
                </button>
            </div>
            { progress(&job, "search-progress", "search-cancel") }
            { for status.errors.iter().map(|e| html! { <p class="bad" role="alert">{ e.clone() }</p> }) }
            if stale && !status.running && status.result.is_some() {
                <p class="stale-note">{ t("search.stale") }</p>
            }
            if let Some(view) = &status.result {
                { render(view, &props.on_action, status.running || stale) }
            }
        </section>
        { sizing_section(props, &sizing_job, &sizing_inputs) }
        </>
    }
}
