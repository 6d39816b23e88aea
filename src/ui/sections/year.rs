//! The cluster's year, as the plots' worker words and draws it (`app::sections::year`): what it
//! answers, the fleet over the weeks and the jobs as a Gantt, the jobs' table, what to buy,
//! the cost and each decision, and the weeks as CSV. Shown only for a plan with a year; the
//! page carries no schedule of its own.

use yew::prelude::*;

use crate::app::sections::year::Year;
use crate::app::state::Action;
use crate::text::t;
use crate::ui::job::{lines, table};

fn picture(svg: &str, testid: &'static str, aria: &'static str) -> Html {
    let drawing = Html::from_html_unchecked(AttrValue::from(svg.to_string()));
    html! {
        <figure class="plot-box">
            <div class="plot" role="img" data-testid={testid} aria-label={t(aria)}>{ drawing }</div>
        </figure>
    }
}

/// The *Year* section, or nothing for a plan without a year.
pub fn year(view: Option<&Year>, on_action: &Callback<Action>) -> Html {
    let Some(y) = view else { return Html::default() };
    if !y.errors.is_empty() {
        return html! {
            <section class="year" data-testid="year">
                <h2>{ t("results.year") }</h2>
                <ul class="problems" data-testid="year-errors" role="alert">
                    { for y.errors.iter().map(|e| html! { <li>{ e.clone() }</li> }) }
                </ul>
            </section>
        };
    }
    let csv = y.csv.clone();
    let onclick = Callback::from(move |_| {
        if let Err(e) = crate::ui::browser::download("clusterplan-year.csv", &csv, "text/csv") {
            web_sys::console::warn_1(&format!("could not save the year's CSV: {e}").into());
        }
    });
    html! {
        <section class="year" data-testid="year">
            <h2>{ t("results.year") }</h2>
            { lines(&y.said) }
            if let Some(buy) = &y.buy { { lines(std::slice::from_ref(buy)) } }
            { picture(&y.fleet_svg, "year-fleet", "plot.year-fleet.aria") }
            { picture(&y.gantt_svg, "year-gantt", "plot.year-gantt.aria") }
            <div class="table-scroll">{ table(&y.jobs, on_action, false) }</div>
            { lines(&y.cost) }
            <details data-testid="year-decisions">
                <summary>{ t("results.year-decisions") }</summary>
                <ul>{ for y.decisions.iter().map(|d| html! { <li>{ d.clone() }</li> }) }</ul>
            </details>
            <button type="button" class="save" data-testid="year-csv" {onclick}>{ t("save.csv") }</button>
        </section>
    }
}
