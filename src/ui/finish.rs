//! The days with failures as a distribution under the delivered cards: the percentiles of the
//! simulated runs, the chance of meeting the deadline, and the chance of finishing by each day
//! drawn. All of it is the worker's (`jobs::failures_view`, sent with the plots); the page only
//! lays it out.

use serde_json::Value;
use yew::prelude::*;

use crate::text::t;

/// The section, or nothing before the worker's first answer.
pub fn finish(view: Option<&Value>) -> Html {
    let Some(view) = view.filter(|v| v.is_object()) else { return html! {} };
    let said = view["said"].as_str().unwrap_or_default().to_string();
    let deadline = view["deadline"].as_str().map(str::to_string);
    let drawing =
        view["svg"].as_str().map(|svg| Html::from_html_unchecked(AttrValue::from(svg.to_string())));
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
