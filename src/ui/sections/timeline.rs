//! The step as a timeline of its pipeline stages, as the plots' worker draws it
//! (`app::sections::timeline`), with a button that saves the whole step as a Chrome trace
//! for Perfetto.

use yew::prelude::*;

use super::plots::{plot, Kind};
use crate::app::sections::timeline::Timeline;
use crate::text::t;

/// The timeline of the plan on screen, an empty frame while it comes; `on_trace` saves the
/// trace.
pub fn timeline(drawn: Option<&Timeline>, on_trace: Callback<MouseEvent>) -> Html {
    html! {
        <section class="insight" data-testid="step-timeline">
            { plot(drawn.map(|d| d.svg.as_str()), Kind::Timeline) }
            <button type="button" class="save" data-testid="timeline-trace" onclick={on_trace}
                title={t("save.trace-title")}>{ t("save.trace") }</button>
        </section>
    }
}
