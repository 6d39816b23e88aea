//! The head of a printed report (`data-testid="report-head"`, print only): what the plan is by
//! name, the link that reopens it on one line, and every input the estimate rests on
//! (`report-inputs`), so page 1 says what was estimated before what came out.

use yew::prelude::*;

use super::browser::{self, ShareLink};
use super::state::State;
use crate::app::words::{plan_title, report_inputs};
use crate::text::t;

/// The report's head.
pub fn report_head(state: &State) -> Html {
    let pinned = state.pinned.as_ref().map(|p| &p.scenario);
    let link = match browser::share_link(&state.scenario, pinned) {
        ShareLink::Web(link) | ShareLink::Fragment(link) => link,
    };
    let inputs = state.good.as_deref().map(|good| {
        let rows = report_inputs(&state.scenario, &good.inputs);
        html! {
            <table class="report-inputs" data-testid="report-inputs">
                <caption>{ t("report.inputs") }</caption>
                <tbody>
                    { for rows.into_iter().map(|(what, value)| html! { <tr><th>{ what }</th><td>{ value }</td></tr> }) }
                </tbody>
            </table>
        }
    });
    html! {
        <section class="print-only report-head" data-testid="report-head">
            <strong>{ t("report.title") }</strong>
            <span class="report-plan">{ plan_title(&state.scenario) }</span>
            <a class="report-link" data-testid="report-link" href={link.clone()}>{ link }</a>
            if let Some(inputs) = inputs { { inputs } }
        </section>
    }
}
