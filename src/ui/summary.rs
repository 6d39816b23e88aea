//! The headline bar a phone keeps in sight (`data-testid="summary"`): what the plan is, the
//! days it takes with failures, the cost of the run, the site's power and whether it fits; in
//! a comparison, both sides' days. A plain function over the state, as the panels are.

use yew::prelude::*;

use super::state::State;
use crate::app::words::plan_short;
use crate::format;
use crate::text::{fill, t};

/// Days with failures as the headline says them, or that the run never finishes.
fn days(e: &crate::model::Estimate) -> String {
    format::days(e.effective_train_days().unwrap_or(f64::INFINITY))
}

/// The bar, or nothing before the first estimate.
pub fn summary(state: &State) -> Html {
    let Some(good) = state.good.as_deref() else { return html! {} };
    let e = &good.estimate;
    let f = &e.facility;
    let class = classes!("summary", (!e.feasible).then_some("infeasible"));
    let fits = t(if e.memory.fits { "fit.fits" } else { "fit.does-not-fit" });
    let cost = format::Money::of(&good.inputs.plant.facility).show(f.cost.run_amortized_usd);
    let mw = fill("unit.mw", &[("n", &format::sig3(f.power.facility_w / 1e6))]);
    let a = state.pinned.as_ref().and_then(|p| p.good.as_ref()).map(|a| days(&a.estimate));
    let headline = match a {
        Some(a) => fill("summary.compare", &[("a", &a), ("b", &days(e))]),
        None => fill("summary.days", &[("days", &days(e))]),
    };
    html! {
        <div {class} data-testid="summary" aria-hidden="true">
            <span class="what" data-testid="summary-what">{ plan_short(&state.scenario) }</span>
            <span data-testid="summary-days">{ headline }</span>
            <span data-testid="summary-cost">{ fill("summary.cost", &[("usd", &cost)]) }</span>
            <span data-testid="summary-mw">{ mw }</span>
            <span class={classes!((!e.memory.fits).then_some("bad"))}>{ fits }</span>
            if !e.feasible { <span class="bad">{ t("summary.cannot-run") }</span> }
        </div>
    }
}
