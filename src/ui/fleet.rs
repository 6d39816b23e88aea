//! The fleet in the results: the one job over every pool with a card per pool (marked in the
//! colour the drawing gives it), the best split found with its Apply, the job over sites, and
//! the fleet drawn. All of it is the worker's (`jobs::fleet::view`, sent with the plots); the
//! page only lays it out.

use serde_json::Value;
use yew::prelude::*;

use super::job::render;
use super::state::Action;
use crate::scenario::Scenario;
use crate::text::t;

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// An Apply button for `apply` (`{label, scenario}`), with `testid`.
pub fn apply_button(apply: &Value, testid: &str, on_action: &Callback<Action>) -> Html {
    let (label, scenario) = (text(&apply["label"]), apply["scenario"].clone());
    let on_action = on_action.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        if let Ok(s) = Scenario::from_value(scenario.clone()) {
            on_action.emit(Action::Apply { label: label.clone(), scenario: Box::new(s) });
        }
    });
    html! { <button type="button" data-testid={testid.to_string()} {onclick}>{ t("job.apply") }</button> }
}

/// The line above the results that says their cards are the first pool alone, and what the
/// whole fleet takes; nothing for one pool at one site.
pub fn headline(view: Option<&Value>) -> Html {
    match view.and_then(|v| v["headline"].as_str()) {
        Some(said) => {
            html! { <p class="fleet-headline" data-testid="fleet-headline">{ said.to_string() }</p> }
        }
        None => html! {},
    }
}

/// The fleet section, or nothing when the plan is one pool at one site.
pub fn fleet(view: Option<&Value>, on_action: &Callback<Action>) -> Html {
    let Some(view) = view.filter(|v| v.is_object()) else { return html! {} };
    let card = |c: &Value| {
        let figures = c["figures"].as_array().cloned().unwrap_or_default();
        html! {
            <article class={classes!("pool-card", c["bad"].as_bool().unwrap_or(false).then_some("bad"))}
                data-testid="pool-card" style={format!("border-left-color:{}", text(&c["colour"]))}>
                <h3>{ text(&c["title"]) }</h3>
                <dl>
                    { for figures.iter().map(|f| html! { <><dt>{ text(&f[0]) }</dt><dd>{ text(&f[1]) }</dd></> }) }
                </dl>
            </article>
        }
    };
    let cards = view["cards"].as_array().cloned().unwrap_or_default();
    let totals = view["totals"].as_array().cloned().unwrap_or_default();
    let total = |c: &Value| {
        html! {
            <div class="card">
                <div class="card-label">{ text(&c["label"]) }</div>
                <div class="card-value" data-testid={text(&c["testid"])}>{ text(&c["value"]) }</div>
            </div>
        }
    };
    let best = &view["best"];
    let drawing = view["drawing"]
        .as_str()
        .map(|svg| Html::from_html_unchecked(AttrValue::from(svg.to_string())));
    html! {
        <section class="fleet" data-testid="fleet">
            <h2>{ text(&view["title"]) }</h2>
            if !totals.is_empty() {
                <div class="cards fleet-totals" data-testid="fleet-totals">{ for totals.iter().map(total) }</div>
            }
            { render(&serde_json::json!({ "lines": view["lines"] }), on_action, false) }
            if !cards.is_empty() {
                <div class="pool-cards" data-testid="pool-cards">{ for cards.iter().map(card) }</div>
            }
            if best.is_object() {
                <p class="reading" data-testid="pool-best">
                    { text(&best["text"]) }{ " " }{ apply_button(&best["apply"], "pool-best-apply", on_action) }
                </p>
            }
            if view["sites"].is_object() { <div class="sites">{ render(&view["sites"], on_action, false) }</div> }
            if let Some(drawing) = drawing {
                <div class="fleet-drawing" data-testid="fleet-drawing" role="img" aria-label={text(&view["title"])}>{ drawing }</div>
            }
        </section>
    }
}
