//! What the page's worker jobs share: the `use_job` hook (start, updates, cancel), the
//! progress bar, and `render`, which lays out a result as the worker worded it
//! (`jobs::Job::view`). The search and sizing panel and the accuracy table use them.

use std::rc::Rc;

use serde_json::Value;
use yew::prelude::*;

use super::state::{Action, State};
use super::worker::Runner;
use crate::format;
use crate::jobs::{Status, Task};
use crate::scenario::Scenario;
use crate::text::t;

/// Properties of a job panel.
#[derive(Properties, PartialEq)]
pub struct JobProps {
    /// Current state.
    pub state: UseReducerHandle<State>,
    /// Applies a plan.
    pub on_action: Callback<Action>,
    /// Plots in the dark colour scheme.
    #[prop_or_default]
    pub dark: bool,
    /// Changes when the window is resized, so plots are redrawn.
    #[prop_or_default]
    pub width: u32,
    /// The language spoken.
    pub lang: crate::text::Lang,
}

/// A job's status and its runner, shared by the search and sizing panels.
pub struct Running {
    /// What the job has reported.
    pub status: UseStateHandle<Rc<Status>>,
    /// The scenario the job was started on.
    pub started_on: UseStateHandle<Option<Rc<Scenario>>>,
    /// Starts a request (cancelling any job under way).
    pub start: Callback<Task>,
    /// Stops the job, keeping what it found.
    pub cancel: Callback<MouseEvent>,
}

/// The hook behind a job panel: starting, updates, cancelling. An update that ends the job
/// lets the worker go on the next turn, not inside its own message handler. Each start is a
/// new generation: updates and clean-ups of a job started before are ignored, so they can
/// neither overwrite nor stop the job after it.
#[hook]
pub fn use_job() -> Running {
    let status = use_state(|| Rc::new(Status::default()));
    let started_on = use_state(|| None::<Rc<Scenario>>);
    let runner = use_mut_ref(|| None::<Runner>);
    // Updates may arrive faster than renders: each reads the newest status, not a stale copy.
    let latest = use_mut_ref(|| Rc::new(Status::default()));
    let generation = use_mut_ref(|| 0u64);
    let start = {
        let (status, started_on, runner, latest, generation) = (
            status.clone(),
            started_on.clone(),
            runner.clone(),
            latest.clone(),
            generation.clone(),
        );
        Callback::from(move |request: Task| {
            *generation.borrow_mut() += 1;
            let mine = *generation.borrow();
            started_on.set(match &request {
                Task::Search { scenario, .. }
                | Task::Size { scenario, .. }
                | Task::SizePower { scenario, .. } => Some(Rc::new(scenario.clone())),
                Task::Validate
                | Task::Compare { .. }
                | Task::Plots { .. }
                | Task::AddToFleet { .. } => None,
            });
            let first = Rc::new(Status::started());
            *latest.borrow_mut() = first.clone();
            status.set(first);
            let on_update = {
                let (status, runner, latest, generation) =
                    (status.clone(), runner.clone(), latest.clone(), generation.clone());
                Callback::from(move |text: String| {
                    if *generation.borrow() != mine {
                        return;
                    }
                    let next = Rc::new(latest.borrow().read(&text));
                    *latest.borrow_mut() = next.clone();
                    let done = !next.running;
                    status.set(next);
                    if done {
                        let (runner, generation) = (runner.clone(), generation.clone());
                        gloo::timers::callback::Timeout::new(0, move || {
                            if *generation.borrow() == mine {
                                drop(runner.borrow_mut().take());
                            }
                        })
                        .forget();
                    }
                })
            };
            // Replacing the runner drops (cancels) the one before.
            match Runner::start(&request, on_update.clone()) {
                Ok(started) => *runner.borrow_mut() = Some(started),
                Err(why) => {
                    drop(runner.borrow_mut().take());
                    on_update
                        .emit(serde_json::json!({ "done": true, "errors": [why] }).to_string());
                }
            }
        })
    };
    let cancel = {
        let (status, runner, latest) = (status.clone(), runner.clone(), latest.clone());
        Callback::from(move |_| {
            *generation.borrow_mut() += 1;
            drop(runner.borrow_mut().take());
            let stopped = Rc::new(latest.borrow().cancelled());
            *latest.borrow_mut() = stopped.clone();
            status.set(stopped);
        })
    };
    Running { status, started_on, start, cancel }
}

/// The progress bar and cancel button of a job under way, or nothing.
pub fn progress(job: &Running, testid: &'static str, cancel_testid: &'static str) -> Html {
    let status = &**job.status;
    if !status.running {
        return html! {};
    }
    let cancel = job.cancel.clone();
    html! {
        <div class="job-progress" title={t("job.background")}>
            <progress data-testid={testid} max="1" value={format!("{:.3}", status.progress)}
                aria-label={t("job.progress")}>{ format::percent(status.progress) }</progress>
            <span>{ format::percent(status.progress) }</span>
            <button type="button" data-testid={cancel_testid} onclick={cancel}>{ t("job.cancel") }</button>
        </div>
    }
}

/// A job's result as the worker laid it out (`jobs::Job::view`): lines, a table whose rows each
/// apply their scenario, and a list. The Apply buttons are off while `frozen` (the job runs,
/// or the plan was edited since it started, which Apply would undo).
pub fn render(view: &Value, on_action: &Callback<Action>, frozen: bool) -> Html {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let table = &view["table"];
    let items = |key: &str| view[key].as_array().cloned().unwrap_or_default();
    let lines = |key: &str| {
        let line = |l: &Value| {
            let class = classes!(l["bad"].as_bool().unwrap_or(false).then_some("bad"));
            html! { <p data-testid={text(&l["testid"])} {class}>{ text(&l["text"]) }</p> }
        };
        items(key).iter().map(line).collect::<Html>()
    };
    let rows = table["rows"].as_array().cloned().unwrap_or_default();
    let applies = rows.iter().any(|r| !r["apply"].is_null());
    html! {
        <>
            { lines("lines") }
            if !table.is_null() {
                <table class="job-results" data-testid={text(&table["testid"])}>
                    <thead><tr>
                        { for table["head"].as_array().into_iter().flatten().map(|h| html! { <th>{ text(h) }</th> }) }
                        if applies { <th></th> }
                    </tr></thead>
                    <tbody>
                        { for rows.iter().map(|row| {
                            let apply = &row["apply"];
                            let (label, scenario) = (text(&apply["label"]), apply["scenario"].clone());
                            let on_action = on_action.clone();
                            let onclick = Callback::from(move |_| {
                                if let Ok(s) = Scenario::from_value(scenario.clone()) {
                                    on_action.emit(Action::Apply { label: label.clone(), scenario: Box::new(s) });
                                }
                            });
                            html! {
                                <tr data-testid={text(&row["testid"])} class={text(&row["class"])}>
                                    { for row["cells"].as_array().into_iter().flatten().map(|c| html! { <td>{ text(c) }</td> }) }
                                    if applies { <td>if !apply.is_null() {
                                        <button type="button" data-testid={text(&apply["testid"])}
                                            disabled={frozen} {onclick}>{ t("job.apply") }</button>
                                    }</td> }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }
            { lines("after") }
            if !view["list"].is_null() {
                <details class="tables" data-testid={text(&view["list"]["testid"])}>
                    <summary>{ text(&view["list"]["summary"]) }</summary>
                    <ul>{ for view["list"]["items"].as_array().into_iter().flatten().map(|i| html! { <li>{ text(i) }</li> }) }</ul>
                </details>
            }
        </>
    }
}
