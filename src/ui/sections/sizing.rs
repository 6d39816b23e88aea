//! The sizing panel: a deadline, the chips to compare, and for each the smallest cluster that
//! meets the deadline with its plan, nodes, racks, power and cost, plotted as days against
//! chip count; or a power, and for each chip the largest cluster its site holds within it.

use yew::prelude::*;

use crate::app::Task;
use crate::model::presets;
use crate::numbers;
use crate::text::{fill, t};
use crate::ui::inputs::chip_id;
use crate::ui::job::{progress, render, JobProps, Running};

/// The catalog chips whose bits are set in `picked`.
fn chosen(picked: u64) -> impl Iterator<Item = &'static presets::ChipPreset> {
    presets::CHIPS.iter().zip(0..64).filter(move |(_, i)| picked & (1 << i) != 0).map(|(c, _)| c)
}

/// The chips to size: the scenario's own first (`None`: as it is, custom figures included),
/// then those `picked`, its own once even if it was ticked before.
fn to_size(scenario: &crate::scenario::Scenario, picked: u64) -> Vec<Option<String>> {
    let own = chip_id(scenario);
    let mut chips = vec![None];
    chips.extend(chosen(picked).filter(|c| c.id != own).map(|c| Some(c.id.to_string())));
    chips
}

/// What the sizing section keeps between renders: the deadline as typed and the chips picked.
pub struct SizingInputs {
    /// The deadline as typed, days.
    pub deadline: UseStateHandle<String>,
    /// The other chips to size, as bits by their place in `presets::CHIPS`.
    pub picked: UseStateHandle<u64>,
    /// The power the site has, as typed, MW.
    pub power: UseStateHandle<String>,
}

/// The hook behind the sizing section's inputs.
#[hook]
pub fn use_sizing_inputs() -> SizingInputs {
    SizingInputs {
        deadline: use_state(|| "90".to_string()),
        picked: use_state(|| 0),
        power: use_state(|| "100".to_string()),
    }
}

/// The sizing section: a deadline, the chips to compare, the table and the plot.
pub fn sizing_section(props: &JobProps, job: &Running, inputs: &SizingInputs) -> Html {
    let SizingInputs { deadline, picked, power } = inputs;
    let own = chip_id(&props.state.scenario);
    let status = (*job.status).clone();
    let parsed = numbers::parse(deadline).ok().filter(|d| *d > 0.0 && d.is_finite());
    let on_deadline = {
        let deadline = deadline.clone();
        Callback::from(move |e: InputEvent| {
            deadline.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value())
        })
    };
    let on_size = {
        let (state, picked, start) = (props.state.clone(), picked.clone(), job.start.clone());
        let dark = props.dark;
        Callback::from(move |_| {
            let Some(deadline_days) = parsed else { return };
            let chips = to_size(&state.scenario, *picked);
            start.emit(Task::Size { scenario: state.scenario.clone(), deadline_days, chips, dark })
        })
    };
    let power_mw = numbers::parse(power).ok().filter(|p| *p > 0.0 && p.is_finite());
    let on_power = {
        let power = power.clone();
        Callback::from(move |e: InputEvent| {
            power.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value())
        })
    };
    let on_size_power = {
        let (state, picked, start) = (props.state.clone(), picked.clone(), job.start.clone());
        Callback::from(move |_| {
            let Some(power_mw) = power_mw else { return };
            let chips = to_size(&state.scenario, *picked);
            start.emit(Task::SizePower { scenario: state.scenario.clone(), power_mw, chips })
        })
    };
    let toggle = |bit: u64| {
        let picked = picked.clone();
        Callback::from(move |_| picked.set(*picked ^ bit))
    };
    let result = status.result.as_ref();
    let stale = job.started_on.as_deref().is_some_and(|s| *s != props.state.scenario);
    html! {
        <section class="panel job" data-testid="size-panel">
            <h2>{ t("size.title") }</h2>
            <p class="job-hint">{ t("size.hint") }</p>
            <div class="job-controls">
                <label>{ t("size.deadline") }{ " " }
                    <input type="text" inputmode="decimal" data-testid="size-deadline" value={(**deadline).clone()}
                        oninput={on_deadline} aria-invalid={parsed.is_none().to_string()} size="6" />
                    { " " }{ t("unit.days") }
                </label>
                <button type="button" class="primary" data-testid="size" onclick={on_size}
                    disabled={status.running || parsed.is_none()}>
                    { t(if status.running { "size.running" } else { "size.start" }) }
                </button>
            </div>
            if parsed.is_none() {
                <p class="bad" data-testid="size-deadline-error">{ t("size.bad-deadline") }</p>
            }
            <div class="job-controls">
                <label>{ t("size.power") }{ " " }
                    <input type="text" inputmode="decimal" data-testid="size-power" value={(**power).clone()}
                        oninput={on_power} aria-invalid={power_mw.is_none().to_string()} size="6" />
                    { " MW" }
                </label>
                <button type="button" data-testid="size-power-start" onclick={on_size_power}
                    disabled={status.running || power_mw.is_none()}>
                    { t("size.power-start") }
                </button>
            </div>
            if power_mw.is_none() {
                <p class="bad" data-testid="size-power-error">{ t("size.bad-power") }</p>
            }
            <details class="size-chips">
                <summary>{ fill("size.other-chips", &[("n", &picked.count_ones().to_string())]) }</summary>
                <div class="chip-choices">
                    { for presets::CHIPS.iter().zip(0..).filter(|(c, _)| c.id != own).map(|(c, i)| html! {
                        <label>
                            <input type="checkbox" data-testid={format!("size-chip-{}", c.id)}
                                checked={**picked & (1 << i) != 0} onchange={toggle(1 << i)} />
                            { format!(" {}", c.name) }
                        </label>
                    }) }
                </div>
            </details>
            { progress(job, "size-progress", "size-cancel") }
            { for status.errors.iter().map(|e| html! { <p class="bad" role="alert">{ e.clone() }</p> }) }
            if let Some(view) = result {
                if stale && !status.running {
                    <p class="stale-note">{ t("size.stale") }</p>
                }
                { render(view, &props.on_action, status.running || stale) }
            }
            if let Some(src) = result.and_then(|view| view.picture("plot-sizing")).filter(|_| !status.running) {
                <img class="plot" data-testid="plot-sizing" src={src.to_string()}
                    alt={t("size.plot-alt")} />
            }
        </section>
    }
}
