//! The validation table in the page: every published run the model is checked against, its
//! published and predicted value and the error, from the same report as `docs/accuracy.md`.

use yew::prelude::*;

use super::inputs::source;
use crate::validation;

/// The accuracy table, folded until opened.
#[function_component(Accuracy)]
pub fn accuracy() -> Html {
    // The 32 rows take well under a millisecond; once per page is enough.
    let report = use_memo((), |_| validation::run_all());
    let Ok((runs, outcomes)) = &*report else {
        return html! { <p data-testid="accuracy">{ "The validation data could not be read." }</p> };
    };
    let summary = validation::Summary::of(outcomes);
    html! {
        <details class="accuracy" data-testid="accuracy">
            <summary>{ format!(
                "Accuracy: {} of {} published rows within tolerance, mean error {:.1}%",
                summary.within, summary.rows, 100.0 * summary.mean_abs_error
            ) }</summary>
            <div class="table-scroll">
                <table>
                    <thead><tr>
                        <th>{ "run" }</th><th>{ "row" }</th><th>{ "metric" }</th><th>{ "published" }</th>
                        <th>{ "predicted" }</th><th>{ "error" }</th><th>{ "tolerance" }</th>
                    </tr></thead>
                    <tbody>
                        { for outcomes.iter().map(|o| html! {
                            <tr class={classes!((!o.within()).then_some("miss"))}>
                                <td>{ o.row.run.clone() }</td><td>{ o.row.label.clone() }</td>
                                <td>{ o.row.metric.label() }</td>
                                <td>{ validation::show(o.row.metric, o.row.published) }</td>
                                <td>{ validation::show(o.row.metric, o.predicted) }</td>
                                <td>{ format!("{:+.1}%", 100.0 * o.error) }</td>
                                <td>{ format!("±{:.0}%", 100.0 * o.row.tolerance) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <ul>
                { for outcomes.iter().filter_map(|o| o.row.known_miss.as_ref().map(|why| html! {
                    <li>{ format!("{} {} is outside its tolerance: {why}", o.row.run, o.row.label) }</li>
                })) }
                { for runs.iter().map(|run| html! {
                    <li><strong>{ run.title.clone() }</strong>{ ": " }{ source(&run.source) }</li>
                }) }
            </ul>
        </details>
    }
}
