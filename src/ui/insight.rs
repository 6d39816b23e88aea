//! Inside the answer, as the plots' worker draws and words it (`app::Plots`): the step as a
//! timeline, what moves the days (the sensitivity table, its sentence and tornado) and the
//! network's load tier by tier (table and bars). Plain functions of the worker's drawing; the
//! page computes none of it.

use yew::prelude::*;

use super::plot::{plot, Kind};
use crate::app::Plots;
use crate::text::t;

/// One section: its heading, the worker's sentence (`<id>-said`), table (`<id>-table`) and
/// plot under `id`.
fn section(p: &Plots, id: &'static str, title: &str, kind: Kind) -> Html {
    let said = p.said(&format!("{id}-said")).cloned();
    html! {
        <section class="insight" data-testid={id}>
            <h3>{ t(title) }</h3>
            { super::job::lines(said.as_slice()) }
            if let Some(table) = p.table(&format!("{id}-table")) {
                <div class="table-scroll">{ super::job::table(table, &Callback::noop(), false) }</div>
            }
            { plot(p.plot(kind.id()), kind) }
        </section>
    }
}

/// The timeline, the sensitivity and the network's load of the plan on screen; the timeline
/// saves the whole step as a Chrome trace (`on_trace`), for Perfetto.
pub fn insight(plots: Option<&Plots>, on_trace: Callback<MouseEvent>) -> Html {
    let timeline = html! {
        <section class="insight" data-testid="step-timeline">
            { plot(plots.and_then(|p| p.plot(Kind::Timeline.id())), Kind::Timeline) }
            <button type="button" class="save" data-testid="timeline-trace" onclick={on_trace}
                title={t("save.trace-title")}>{ t("save.trace") }</button>
        </section>
    };
    let Some(p) = plots else { return timeline };
    html! {
        <>
            { timeline }
            { section(p, "sensitivity", "insight.sensitivity", Kind::Sensitivity) }
            { section(p, "network-load", "insight.network", Kind::NetworkLoad) }
        </>
    }
}
