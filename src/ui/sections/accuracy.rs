//! The validation table in the page: every published run the model is checked against, its
//! published and predicted value and the error, from the same report as `docs/accuracy.md`.
//! The headline comes from the digest; the table is made in the search worker when opened,
//! so the page does not carry the calibration data.

use yew::prelude::*;

use crate::app::Task;
use crate::text::{fill, t};
use crate::ui::inputs::source;
use crate::ui::job::{render, Running};
use crate::validation::digest;

/// The accuracy table, folded until opened; `job` (the page's `use_job`) makes it. A plain
/// function: a component of its own would cost the page's download about a kilobyte.
pub fn accuracy(job: &Running) -> Html {
    let status = (*job.status).clone();
    let (rows, sources, median, inside) = digest::LEFT_OUT;
    let onclick = {
        let (start, asked) = (job.start.clone(), status.running || status.result.is_some());
        Callback::from(move |_| {
            if !asked {
                start.emit(Task::Validate);
            }
        })
    };
    html! {
        <details class="accuracy" data-testid="accuracy">
            <summary {onclick}>{ fill("accuracy.summary", &[
                ("rows", &rows.to_string()), ("sources", &sources.to_string()),
                ("median", &format!("{:.1}", 100.0 * median)), ("inside", &format!("{:.0}", 100.0 * inside))]) }</summary>
            if status.running {
                <p>{ t("accuracy.running") }</p>
            }
            { for status.errors.iter().map(|e| html! { <p class="bad" role="alert">{ e.clone() }</p> }) }
            if let Some(view) = &status.result {
                <div class="table-scroll">{ render(view, &Callback::noop(), false) }</div>
                <ul>
                    { for view.sources.iter().map(|run| html! {
                        <li><strong>{ run.title.clone() }</strong>{ ": " }{ source(&run.source) }</li>
                    }) }
                </ul>
            }
        </details>
    }
}
