//! The comparison: plan A (pinned) beside plan B (the form), every headline figure, step part
//! and bill-of-materials count with B's change against A (`app::sections::compare`).

use yew::prelude::*;

use crate::app::sections::compare as figures;
use crate::app::Status;
use crate::format::{self, Money};
use crate::numbers;
use crate::text::{fill, t};
use crate::ui::state::{Action, State};

/// A figure's name and how its values are shown; money in the side's own.
fn shown(figure: figures::Figure) -> (&'static str, fn(f64, Money) -> String) {
    use figures::Measure;
    let label = match figure {
        figures::Figure::Part(id) => format::part(id),
        _ => t(figure.label()),
    };
    let show: fn(f64, Money) -> String = match figure.measure() {
        Measure::Days => |d, _| format!("{d:.1}"),
        Measure::Share => |x, _| format::percent(x),
        Measure::Seconds => |s, _| format::seconds(s),
        Measure::Bytes => |b, _| format::gib(b),
        Measure::Count => |n, _| numbers::format(n.round()),
        Measure::Watts => |w, _| fill("unit.mw", &[("n", &format::sig3(w / 1e6))]),
        Measure::Money => |usd, m| m.show(usd),
        Measure::MegawattHours => |mwh, _| format::mwh(mwh),
    };
    (label, show)
}

/// B's change against A: a share below doubling (`+12.5 %`), a factor from there (`11.0×`), a
/// share's in points (`+4.0 pts`); then whether that is better or worse.
fn change(d: &figures::Difference) -> Html {
    let amount = if d.a == 0.0 {
        t("compare.new").to_string()
    } else if d.change.abs() < 0.0005 {
        t("compare.same").to_string()
    } else if let Some(points) = d.points() {
        fill("compare.points", &[("n", &format!("{points:+.1}"))])
    } else if d.change >= 1.0 {
        format!("{:.1}×", d.b / d.a)
    } else {
        format!("{:+.1} %", 100.0 * d.change)
    };
    match d.better() {
        Some(better) => {
            let (class, word) =
                if better { ("better", "compare.better") } else { ("worse", "compare.worse") };
            html! { <>{ amount }{ " " }<span class={class}>{ t(word) }</span></> }
        }
        None => html! { { amount } },
    }
}

/// Plan A beside plan B, when a plan is pinned. A plain function rather than a component: it
/// keeps no state of its own, and each component costs the page's download about a kilobyte.
pub fn compare(state: &State, on_action: &Callback<Action>, plots: &Status) -> Html {
    let Some(pinned) = &state.pinned else { return html! {} };
    let (Some(a), Some(b)) = (pinned.good.as_ref(), state.good.as_ref()) else {
        let fix = html! { <p class="bad">{ t("compare.fix") }</p> };
        return html! { <section class="panel compare" data-testid="compare-panel">{ fix }</section> };
    };
    let rows = figures::compare(&a.estimate, &b.estimate);
    let end = on_action.reform(|_| Action::EndCompare);
    // Each side by what it is, under its letter; a side that cannot run says so beside its
    // numbers, which are dimmed: they are what-if figures.
    let side = |key: &str,
                testid: &str,
                scenario: &crate::scenario::Scenario,
                e: &crate::model::Estimate| {
        let why = e.problems.first().map(crate::text::warning);
        html! {
            <th data-testid={testid.to_string()}>
                <span class="side">{ t(key) }</span><br />{ crate::app::words::plan_title(scenario) }
                if let Some(why) = why {
                    <p class="bad" data-testid={format!("{testid}-cannot-run")}>
                        { fill("compare.cannot-run", &[("why", &why)]) }
                    </p>
                }
            </th>
        }
    };
    let dim = |e: &crate::model::Estimate| (!e.feasible).then_some("what-if");
    html! {
        <section class="panel compare" data-testid="compare-panel">
            <h2>{ t("compare.title") }</h2>
            <table class="job-results">
                <thead><tr>
                    <th></th>
                    { side("compare.a", "compare-name-a", &pinned.scenario, &a.estimate) }
                    { side("compare.b", "compare-name-b", &state.scenario, &b.estimate) }
                    <th>{ t("compare.change") }</th>
                </tr></thead>
                <tbody>
                    { for rows.iter().filter(|d| d.a != 0.0 || d.b != 0.0).map(|d| {
                        let (label, show) = shown(d.figure);
                        let (money_a, money_b) = (Money::of(&a.inputs.plant.facility), Money::of(&b.inputs.plant.facility));
                        let id = |side: &str| match d.figure {
                            figures::Figure::TrainDays => Some(format!("train-days-{side}")),
                            figures::Figure::Mfu => Some(format!("mfu-{side}")),
                            _ => None,
                        };
                        html! {
                            <tr class={classes!(d.figure.built().then_some("bom-row"))}>
                                <td>{ label }</td>
                                <td class={classes!(dim(&a.estimate))} data-testid={id("a")}>{ show(d.a, money_a) }</td>
                                <td class={classes!(dim(&b.estimate))} data-testid={id("b")}>{ show(d.b, money_b) }</td>
                                <td data-testid={id("change")}>{ change(d) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            // Overlaid plots, drawn by the worker a moment after the last edit.
            { for plots.result.iter().flat_map(|view| &view.pictures).map(|p| html! {
                <img class="plot" data-testid={p.testid.clone()} src={p.url.clone()} alt={t("compare.title")} />
            }) }
            <button type="button" data-testid="compare-end" onclick={end}>{ t("compare.end") }</button>
        </section>
    }
}
