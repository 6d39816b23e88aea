//! What serving and post-training deliver on the plan's cluster: the *Serve* cards with their
//! ranges and the frontier the worker draws, and the *RL* cards with the step's split. Shown
//! only for a scenario that asks (`serving`, `rl`).

use yew::prelude::*;

use super::plot::{plot, Kind};
use super::results::ranged as card;
use super::state::Evaluation;
use crate::format;
use crate::model::rl::RlEstimate;
use crate::model::serving::ServingEstimate;
use crate::numbers;
use crate::text::{fill, t};
use crate::validation::serving::headline;

/// Both ends of a headline's range (`validation::serving::headline`), each as `show` writes it.
fn range(x: f64, faster: bool, show: impl Fn(f64) -> String) -> Option<(String, String)> {
    let (lo, hi) = headline(x, faster);
    Some((show(lo), show(hi)))
}

fn ms(s: f64) -> String {
    fill("unit.ms", &[("n", &format::sig3(s * 1e3))])
}

fn serve_cards(good: &Evaluation, s: &ServingEstimate, frontier: Option<&str>) -> Html {
    let money = format::Money::of(&good.inputs.plant.facility);
    let per_chip = |x: f64| fill("card.serving-throughput.value", &[("n", &format::count(x))]);
    let throughput = fill(
        "card.serving-throughput.detail",
        &[
            ("total", &format::count(s.decode_tokens_per_s)),
            ("chips", &format::count(s.chips_needed as f64)),
            ("prefill", &format::count(s.prefill_tokens_per_s_per_chip)),
        ],
    );
    let ttft = fill("card.serving-ttft.detail", &[("round", &ms(s.prefill_round_s))]);
    let tpot = fill(
        "card.serving-tpot.detail",
        &[
            ("batch", &numbers::format(s.batch as f64)),
            ("max", &numbers::format(s.max_batch as f64)),
        ],
    );
    let price = |x: f64| fill("card.serving-cost-per-mtok.value", &[("usd", &money.show(x))]);
    let cost = fill(
        "card.serving-cost-per-mtok.detail",
        &[
            ("input", &money.show(s.usd_per_million_input_tokens)),
            ("cloud", &money.show(s.cloud_usd_per_million_output_tokens)),
        ],
    );
    let chips = fill(
        "card.serving-chips-needed.detail",
        &[
            ("left", &numbers::format(s.chips_left as f64)),
            ("power", &format::power(s.power_w)),
            ("day", &money.show(s.usd_per_day)),
            ("rest", &money.show(s.training_usd_per_day)),
        ],
    );
    let chips_range = {
        let (lo, hi) = headline(s.chips_needed as f64, false);
        Some((numbers::format(lo.ceil()), numbers::format(hi.ceil())))
    };
    html! {
        <section class="serve" data-testid="serve-results" data-feasible={s.feasible.to_string()}>
            <h2>{ t("results.serve") }</h2>
            if !s.problems.is_empty() {
                <ul class="problems" data-testid="serving-problems">
                    { for s.problems.iter().map(|p| html! { <li>{ crate::text::serving_problem(p) }</li> }) }
                </ul>
            }
            <div class="cards">
                { card("serving-throughput", per_chip(s.decode_tokens_per_s_per_chip),
                    range(s.decode_tokens_per_s_per_chip, true, per_chip), throughput) }
                { card("serving-ttft", ms(s.ttft_s), range(s.ttft_s, false, ms), ttft) }
                { card("serving-tpot", ms(s.tpot_s), range(s.tpot_s, false, ms), tpot) }
                { card("serving-cost-per-mtok", price(s.usd_per_million_output_tokens),
                    range(s.usd_per_million_output_tokens, false, price), cost) }
                { card("serving-chips-needed", numbers::format(s.chips_needed as f64), chips_range, chips) }
            </div>
            { plot(frontier, Kind::Frontier) }
        </section>
    }
}

fn rl_cards(r: &RlEstimate) -> Html {
    let days = fill("card.rl-step-time.detail", &[("days", &format::days(r.days))]);
    let split = fill(
        "card.rl-generation-share.detail",
        &[
            ("generation", &format::seconds(r.generation_s)),
            ("scoring", &format::seconds(r.scoring_s)),
            ("training", &format::seconds(r.training_s)),
            ("handoff", &format::seconds(r.handoff_s)),
            ("idle", &format::percent(r.idle_share)),
        ],
    );
    html! {
        <section class="serve" data-testid="rl-results" data-feasible={r.problems.is_empty().to_string()}>
            <h2>{ t("results.rl") }</h2>
            if !r.problems.is_empty() {
                <ul class="problems" data-testid="rl-problems">
                    { for r.problems.iter().map(|p| html! { <li>{ crate::text::rl_problem(p) }</li> }) }
                </ul>
            }
            <div class="cards">
                { card("rl-step-time", format::seconds(r.step_s), None, days) }
                { card("rl-generation-share", format::percent(r.generation_share), None, split) }
            </div>
        </section>
    }
}

/// The *Serve* and *RL* results of `good`, where the scenario asks for them, with a button that
/// saves them as CSV; `frontier` is the worker's drawing of the serving frontier once it has
/// come.
pub fn serving(good: Option<&Evaluation>, frontier: Option<&str>) -> Html {
    let Some(good) = good else { return Html::default() };
    if good.serving.is_none() && good.rl.is_none() {
        return Html::default();
    }
    let csv = crate::report::serving_csv(good.serving.as_ref(), good.rl.as_ref());
    let onclick = Callback::from(move |_| {
        if let Err(e) = super::browser::download("clusterplan-serving.csv", &csv, "text/csv") {
            web_sys::console::warn_1(&format!("could not save the serving CSV: {e}").into());
        }
    });
    html! {
        <>
            if let Some(s) = &good.serving { { serve_cards(good, s, frontier) } }
            if let Some(r) = &good.rl { { rl_cards(r) } }
            <button type="button" class="save" data-testid="serving-csv" {onclick}>{ t("save.csv") }</button>
        </>
    }
}
