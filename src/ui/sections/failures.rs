//! The days with failures as a distribution under the delivered cards: the percentiles of the
//! simulated runs, the chance of meeting the deadline, and the chance of finishing by each day
//! drawn. All of it is the worker's (`app::sections::failures`, sent with the plots); the
//! page only lays it out.

use yew::prelude::*;

use crate::app::sections::failures::Failures;
use crate::text::t;

/// The section, or nothing before the worker's first answer.
pub fn failures(view: Option<&Failures>) -> Html {
    let Some(view) = view else { return html! {} };
    let said = view.said.clone();
    let deadline = view.deadline.clone();
    let drawing = (!view.svg.is_empty())
        .then(|| Html::from_html_unchecked(AttrValue::from(view.svg.clone())));
    html! {
        <section class="finish" data-testid="failures">
            <p class="time-lost" data-testid="failures-spread">
                { said }
                if let Some(deadline) = deadline { { " " }<span data-testid="deadline-chance">{ deadline }</span> }
            </p>
            if let Some(drawing) = drawing {
                <figure class="plot-box">
                    <div class="plot" role="img" data-testid="plot-finish" aria-label={t("plot.finish.aria")}>{ drawing }</div>
                </figure>
            }
        </section>
    }
}
