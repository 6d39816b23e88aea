//! Inside the answer, as the plots' worker draws and words it (`page::Plots`): the step as a
//! timeline, what moves the days (the sensitivity table, its sentence and tornado) and the
//! network's load tier by tier (table and bars). Plain functions of the worker's drawing; the
//! page computes none of it.

use yew::prelude::*;

use super::plot::{plot, Kind};
use crate::page::Plots;
use crate::text::t;

/// A table the worker worded (`Plots::tables`): headings, then a row of cells each.
fn table(rows: &[Vec<String>], testid: &'static str) -> Html {
    let Some((head, body)) = rows.split_first() else { return Html::default() };
    html! {
        <div class="table-scroll">
            <table data-testid={testid}>
                <thead><tr>{ for head.iter().map(|h| html! { <th>{ h.clone() }</th> }) }</tr></thead>
                <tbody>
                    { for body.iter().map(|row| html! {
                        <tr>{ for row.iter().map(|c| html! { <td>{ c.clone() }</td> }) }</tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// One section: its heading, the worker's sentence, table and plot under `id`.
fn section(p: &Plots, id: &'static str, title: &str, table_id: &'static str, kind: Kind) -> Html {
    let rows = p.tables.get(id).map(Vec::as_slice).unwrap_or_default();
    html! {
        <section class="insight" data-testid={id}>
            <h3>{ t(title) }</h3>
            if let Some(said) = p.said.get(id) {
                <p data-testid={format!("{id}-said")}>{ said.clone() }</p>
            }
            { table(rows, table_id) }
            { plot(p.plot(kind.id()), kind) }
        </section>
    }
}

/// The timeline, the sensitivity and the network's load of the plan on screen.
pub fn insight(plots: Option<&Plots>) -> Html {
    let timeline = html! {
        <section class="insight" data-testid="step-timeline">
            { plot(plots.and_then(|p| p.plot(Kind::Timeline.id())), Kind::Timeline) }
        </section>
    };
    let Some(p) = plots else { return timeline };
    html! {
        <>
            { timeline }
            { section(p, "sensitivity", "insight.sensitivity", "sensitivity-table", Kind::Sensitivity) }
            { section(p, "network-load", "insight.network", "network-load-table", Kind::NetworkLoad) }
        </>
    }
}
