//! Inside the answer, as the plots' worker draws and words it (`app::sections::insight`):
//! what moves the days (the sensitivity table, its sentence and tornado) and the network's
//! load tier by tier (table and bars). Plain functions of the worker's drawing; the page
//! computes none of it.

use yew::prelude::*;

use super::plots::{plot, Kind};
use crate::app::sections::insight::{Insight, Insights};
use crate::text::t;

/// One look: its heading, the worker's sentence, table and plot, under `id`.
fn section(look: &Insight, id: &'static str, title: &str, kind: Kind) -> Html {
    html! {
        <section class="insight" data-testid={id}>
            <h3>{ t(title) }</h3>
            { crate::ui::job::lines(look.said.as_slice()) }
            if !look.table.testid.is_empty() {
                <div class="table-scroll">{ crate::ui::job::table(&look.table, &Callback::noop(), false) }</div>
            }
            { plot((!look.plot.is_empty()).then_some(look.plot.as_str()), kind) }
        </section>
    }
}

/// The sensitivity and the network's load of the plan on screen; nothing before the
/// worker's first drawing.
pub fn insight(drawn: Option<&Insights>) -> Html {
    let Some(d) = drawn else { return Html::default() };
    html! {
        <>
            { section(&d.sensitivity, "sensitivity", "insight.sensitivity", Kind::Sensitivity) }
            { section(&d.network, "network-load", "insight.network", Kind::NetworkLoad) }
        </>
    }
}
