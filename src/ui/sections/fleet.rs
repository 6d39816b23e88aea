//! The fleet in the results: the one job over every pool with a card per pool (marked in the
//! colour the drawing gives it), the best split found with its Apply, the job over sites, and
//! the fleet drawn. All of it is the worker's (`app::sections::fleet::view`, sent with the plots); the
//! page only lays it out.

use yew::prelude::*;

use crate::app::sections::fleet::{Fleet, PoolCard, Total};
use crate::ui::job::{apply_button, lines, render};
use crate::ui::state::Action;

/// The line above the results that says their cards are the first pool alone, and what the
/// whole fleet takes; nothing for one pool at one site.
pub fn headline(view: Option<&Fleet>) -> Html {
    match view.and_then(|v| v.headline.as_ref()) {
        Some(said) => {
            html! { <p class="fleet-headline" data-testid="fleet-headline">{ said.clone() }</p> }
        }
        None => html! {},
    }
}

fn card(c: &PoolCard) -> Html {
    html! {
        <article class={classes!("pool-card", c.bad.then_some("bad"))}
            data-testid="pool-card" style={format!("border-left-color:{}", c.colour)}>
            <h3>{ c.title.clone() }</h3>
            <dl>
                { for c.figures.iter().map(|(k, v)| html! { <><dt>{ k.clone() }</dt><dd>{ v.clone() }</dd></> }) }
            </dl>
        </article>
    }
}

fn total(c: &Total) -> Html {
    html! {
        <div class="card">
            <div class="card-label">{ c.label.clone() }</div>
            <div class="card-value" data-testid={c.testid.clone()}>{ c.value.clone() }</div>
        </div>
    }
}

/// The fleet section, or nothing when the plan is one pool at one site.
pub fn fleet(view: Option<&Fleet>, on_action: &Callback<Action>) -> Html {
    let Some(view) = view else { return html! {} };
    let drawing =
        view.drawing.as_ref().map(|svg| Html::from_html_unchecked(AttrValue::from(svg.clone())));
    html! {
        <section class="fleet" data-testid="fleet">
            <h2>{ view.title.clone() }</h2>
            if !view.totals.is_empty() {
                <div class="cards fleet-totals" data-testid="fleet-totals">{ for view.totals.iter().map(total) }</div>
            }
            { lines(&view.lines) }
            if !view.cards.is_empty() {
                <div class="pool-cards" data-testid="pool-cards">{ for view.cards.iter().map(card) }</div>
            }
            if let Some(best) = &view.best {
                <p class="reading" data-testid="pool-best">
                    { best.text.clone() }{ " " }{ apply_button(&best.apply, on_action, false) }
                </p>
            }
            if let Some(sites) = &view.sites { <div class="sites">{ render(sites, on_action, false) }</div> }
            if let Some(drawing) = drawing {
                <div class="fleet-drawing" data-testid="fleet-drawing" role="img" aria-label={view.title.clone()}>{ drawing }</div>
            }
        </section>
    }
}
