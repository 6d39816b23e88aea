//! What serving and post-training deliver on the plan's cluster, as the plots' worker words
//! them (`app::Plots::serving_cards`): the *Serve* cards with their ranges, the *RL* cards
//! with the step's split, the frontier, and both as CSV. Shown only for a scenario that asks
//! (`serving`, `rl`), once the worker's drawing for it has come; the page carries no serving
//! model of its own.

use yew::prelude::*;

use super::plot::{plot, Kind};
use super::results::marked;
use crate::app::state::Action;
use crate::app::{Card, Plots};
use crate::text::t;

const SERVE: [&str; 6] = [
    "serving-throughput",
    "serving-ttft",
    "serving-tpot",
    "serving-cost-per-mtok",
    "serving-energy",
    "serving-chips-needed",
];
const RL: [&str; 2] = ["rl-step-time", "rl-generation-share"];

/// The cards of `cards` under the `data-testid`s `ids`, in order, those of `missed` drawn red.
fn cards(ids: &[&'static str], flat: &[String], missed: &[(String, String)]) -> Html {
    let cards = Card::read(flat);
    html! {
        <div class="cards">
            { for ids.iter().zip(cards).map(|(id, c)| {
                let range = (!c.low.is_empty()).then(|| (c.low.clone(), c.high.clone()));
                let bad = missed.iter().any(|(m, _)| m == id);
                marked(id, c.value.clone(), range, c.detail.clone(), bad)
            }) }
        </div>
    }
}

/// The targets the deployment misses at its load, said over the cards.
fn target_missed(missed: &[(String, String)]) -> Html {
    if missed.is_empty() {
        return Html::default();
    }
    html! {
        <div class="card missed target-missed" data-testid="serving-target-missed" role="alert">
            <div class="card-label">{ t("serve.target-missed") }</div>
            { for missed.iter().map(|(_, said)| html! { <div class="card-detail">{ said.clone() }</div> }) }
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

fn serve(s: &Plots, on_action: &Callback<Action>) -> Html {
    html! {
        <section class="serve" data-testid="serve-results" data-feasible={s.serving_feasible.to_string()}>
            <h2>{ t("results.serve") }</h2>
            { target_missed(&s.serving_missed) }
            { problems("serving-problems", &s.serving_problems) }
            if !s.serving_notes.is_empty() {
                <ul class="notes" data-testid="serving-notes">
                    { for s.serving_notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                </ul>
            }
            { cards(&SERVE, &s.serving_cards, &s.serving_missed) }
            { plot(s.plot(Kind::Frontier.id()), Kind::Frontier) }
            <h3>{ t("serve.deployments") }</h3>
            { super::job::lines(s.said("serving-deployments-said").cloned().as_slice()) }
            if let Some(table) = s.table("serving-deployments") {
                <div class="table-scroll">{ super::job::table(table, on_action, false) }</div>
            }
        </section>
    }
}

fn rl(s: &Plots) -> Html {
    html! {
        <section class="serve" data-testid="rl-results" data-feasible={s.rl_problems.is_empty().to_string()}>
            <h2>{ t("results.rl") }</h2>
            { problems("rl-problems", &s.rl_problems) }
            { cards(&RL, &s.rl_cards, &[]) }
        </section>
    }
}

/// The *Serve* and *RL* results in the worker's `plots` of the plan on screen, the cheapest
/// deployments each with an Apply (`on_action`), and a button that saves them as CSV; nothing
/// where the plan asks neither.
pub fn serving(plots: Option<&Plots>, on_action: &Callback<Action>) -> Html {
    let Some(s) = plots.filter(|p| !p.serving_csv.is_empty()) else {
        return Html::default();
    };
    let csv = s.serving_csv.clone();
    let onclick = Callback::from(move |_| {
        if let Err(e) = super::browser::download("clusterplan-serving.csv", &csv, "text/csv") {
            web_sys::console::warn_1(&format!("could not save the serving CSV: {e}").into());
        }
    });
    html! {
        <>
            if !s.serving_cards.is_empty() { { serve(s, on_action) } }
            if !s.rl_cards.is_empty() { { rl(s) } }
            <button type="button" class="save" data-testid="serving-csv" {onclick}>{ t("save.csv") }</button>
        </>
    }
}
