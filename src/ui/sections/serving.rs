//! What serving and post-training deliver on the plan's cluster, as the plots' worker words
//! them (`app::sections::serving`): the *Serve* cards with their ranges, the *RL* cards with
//! the step's split, the frontier, the decode step's parts, the cheapest deployments, and
//! both as CSV. Shown only for a scenario that asks (`serving`, `rl`), once the worker's
//! drawing for it has come; the page carries no serving model of its own.

use yew::prelude::*;

use super::plots::{plot, Kind};
use crate::app::sections::serving::{Rl, Served, Serving};
use crate::app::state::Action;
use crate::app::Card;
use crate::text::t;
use crate::ui::results::marked;

/// The cards `cards` under their `data-testid`s, in order, those that miss their target red.
fn cards(cards: &[(&'static str, &Card)]) -> Html {
    html! {
        <div class="cards">
            { for cards.iter().map(|(id, c)| {
                let range = (!c.low.is_empty()).then(|| (c.low.clone(), c.high.clone()));
                marked(id, c.value.clone(), range, c.detail.clone(), c.missed.is_some())
            }) }
        </div>
    }
}

/// The targets the deployment misses at its load, said over the cards.
fn target_missed(cards: &[&Card]) -> Html {
    let missed: Vec<&String> = cards.iter().filter_map(|c| c.missed.as_ref()).collect();
    if missed.is_empty() {
        return Html::default();
    }
    html! {
        <div class="card missed target-missed" data-testid="serving-target-missed" role="alert">
            <div class="card-label">{ t("serve.target-missed") }</div>
            { for missed.iter().map(|said| html! { <div class="card-detail">{ (*said).clone() }</div> }) }
        </div>
    }
}

fn problems(testid: &'static str, said: &[String]) -> Html {
    if said.is_empty() {
        return Html::default();
    }
    html! {
        <ul class="problems" data-testid={testid}>{ for said.iter().map(|p| html! { <li>{ p.clone() }</li> }) }</ul>
    }
}

fn serve(s: &Serving, on_action: &Callback<Action>) -> Html {
    let c = &s.cards;
    let d = &s.deployments;
    html! {
        <section class="serve" data-testid="serve-results" data-feasible={s.feasible.to_string()}>
            <h2>{ t("results.serve") }</h2>
            { target_missed(&[&c.ttft, &c.tpot]) }
            { problems("serving-problems", &s.problems) }
            if !s.notes.is_empty() {
                <ul class="notes" data-testid="serving-notes">
                    { for s.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                </ul>
            }
            { cards(&[
                ("serving-throughput", &c.throughput),
                ("serving-ttft", &c.ttft),
                ("serving-tpot", &c.tpot),
                ("serving-cost-per-mtok", &c.cost),
                ("serving-energy", &c.energy),
                ("serving-chips-needed", &c.chips),
            ]) }
            { plot(Some(s.frontier.as_str()), Kind::Frontier) }
            <h3>{ t("serve.step") }</h3>
            <div class="table-scroll">{ crate::ui::job::table(&s.step, on_action, false) }</div>
            <h3>{ t("serve.deployments") }</h3>
            { crate::ui::job::lines(std::slice::from_ref(&d.said)) }
            <div class="table-scroll">{ crate::ui::job::table(&d.table, on_action, false) }</div>
        </section>
    }
}

fn rl(r: &Rl) -> Html {
    let c = &r.cards;
    html! {
        <section class="serve" data-testid="rl-results" data-feasible={r.problems.is_empty().to_string()}>
            <h2>{ t("results.rl") }</h2>
            { problems("rl-problems", &r.problems) }
            { cards(&[("rl-step-time", &c.step), ("rl-generation-share", &c.generation_share)]) }
        </section>
    }
}

/// The *Serve* and *RL* results of the plan on screen, the cheapest deployments each with an
/// Apply (`on_action`), and a button that saves them as CSV; nothing where the plan asks
/// neither.
pub fn serving(served: Option<&Served>, on_action: &Callback<Action>) -> Html {
    let Some(s) = served else {
        return Html::default();
    };
    let csv = s.csv.clone();
    let onclick = Callback::from(move |_| {
        if let Err(e) = crate::ui::browser::download("clusterplan-serving.csv", &csv, "text/csv") {
            web_sys::console::warn_1(&format!("could not save the serving CSV: {e}").into());
        }
    });
    html! {
        <>
            if let Some(serving) = &s.serving { { serve(serving, on_action) } }
            if let Some(r) = &s.rl { { rl(r) } }
            <button type="button" class="save" data-testid="serving-csv" {onclick}>{ t("save.csv") }</button>
        </>
    }
}
