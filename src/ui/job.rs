//! What the page's worker jobs share: the `use_job` hook (start, updates, cancel), the
//! progress bar, and `render`, which lays out a result as the worker worded it
//! (`app::jobs::Job::view`). The search and sizing panel and the accuracy table use them.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{Action, State};
use super::worker::Runner;
use crate::app::{self, Line, Status, Task, View};
use crate::format;
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
                | Task::SearchShard { scenario, .. }
                | Task::Size { scenario, .. }
                | Task::SizePower { scenario, .. }
                | Task::Measure { scenario, .. } => Some(Rc::new(scenario.clone())),
                Task::Launch { .. }
                | Task::Validate
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
                    on_update.emit(app::wire::failed(&[why]));
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

/// A job's result as the worker laid it out (`app::jobs::Job::view`): lines, a table whose rows each
/// apply their scenario, and a list. The Apply buttons are off while `frozen` (the job runs,
/// or the plan was edited since it started, which Apply would undo).
pub fn render(view: &View, on_action: &Callback<Action>, frozen: bool) -> Html {
    html! {
        <>
            { lines(&view.lines) }
            if let Some(table) = &view.table {
                { self::table(table, on_action, frozen) }
            }
            { lines(&view.after) }
            if let Some(list) = &view.list {
                <details class="tables" data-testid={list.testid.clone()}>
                    <summary>{ list.summary.clone() }</summary>
                    <ul>{ for list.items.iter().map(|i| html! { <li>{ i.clone() }</li> }) }</ul>
                </details>
            }
        </>
    }
}

/// Lines of words, each with its test id, marked when bad.
pub fn lines(lines: &[Line]) -> Html {
    lines
        .iter()
        .map(|l| {
            let class = classes!(l.bad.then_some("bad"));
            html! { <p data-testid={l.testid.clone()} {class}>{ l.text.clone() }</p> }
        })
        .collect()
}

pub fn table(table: &app::Table, on_action: &Callback<Action>, frozen: bool) -> Html {
    let applies = table.rows.iter().any(|r| r.apply.is_some());
    html! {
        <table class="job-results" data-testid={table.testid.clone()}>
            <thead><tr>
                { for table.head.iter().map(|h| html! { <th>{ h.clone() }</th> }) }
                if applies { <th></th> }
            </tr></thead>
            <tbody>
                { for table.rows.iter().map(|row| html! {
                    <tr data-testid={row.testid.clone()} class={row.class.clone()}>
                        { for row.cells.iter().map(|c| html! { <td>{ c.clone() }</td> }) }
                        if applies { <td>if let Some(apply) = &row.apply {
                            { apply_button(apply, on_action, frozen) }
                        }</td> }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// The Apply button of `apply`, off while `frozen`.
pub fn apply_button(apply: &app::Apply, on_action: &Callback<Action>, frozen: bool) -> Html {
    let (label, scenario) = (apply.label.clone(), apply.scenario.clone());
    let on_action = on_action.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        on_action.emit(Action::Apply { label: label.clone(), scenario: scenario.clone() });
    });
    html! {
        <button type="button" data-testid={apply.testid.clone()} title={apply.label.clone()}
            disabled={frozen} {onclick}>
            { t("job.apply") }
        </button>
    }
}
