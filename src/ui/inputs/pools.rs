//! The pools panel: further pools of other chips beside the cluster (`cluster.pools`), the link
//! between them and how one job spans them, the sites they stand in, and the question "add which
//! chip, how many, to meet the deadline". The panel only edits; the job over the fleet and the
//! answer are the worker's (`app::sections::fleet`), shown in the results (`ui::sections::fleet`).

use yew::prelude::*;

use super::{Form, PanelProps};
use crate::app::state::Edit;
use crate::app::Task;
use crate::model::pools::Across;
use crate::model::presets;
use crate::scenario::{fields, Scenario};
use crate::text::{fill, t};
use crate::ui::fields::SelectField;
use crate::ui::state::Action;

/// The pools panel.
pub fn pools_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let pools = f.len(crate::scenario::paths::CLUSTER_POOLS);
    let add = f.on_edit.reform(|_: MouseEvent| Edit::AddPool);
    let chip_options = super::chip_options();
    let pool = |i: usize| {
        let chip = f.text_at(&format!("cluster.pools.{i}.chip"));
        let on_chip = f.on_edit.reform(move |chip| Edit::PoolChip { at: i, chip });
        // The pool's system: its chip's own server, or a system built of that chip.
        let system = f.text_at(&format!("cluster.pools.{i}.system"));
        let mut systems: Vec<(AttrValue, AttrValue)> =
            vec![("".into(), t("form.chips-own").into())];
        systems.extend(presets::SYSTEMS.iter().filter(|s| s.chip == chip).map(|s| {
            (
                AttrValue::from(s.id),
                AttrValue::from(crate::app::words::preset_name("system", s.id, s.name)),
            )
        }));
        let on_system =
            f.on_edit.reform(move |v: String| Edit::PoolSystem { at: i, system: Some(v) });
        let remove = f.on_edit.reform(move |_: MouseEvent| Edit::RemovePool { at: i });
        let chips = f.number_at(
            &fields::CLUSTER_CHIPS,
            format!("cluster.pools.{i}.chips"),
            &format!("pool-chips-{i}"),
            None,
        );
        html! {
            <div class="measurement" data-testid="pool" data-path={format!("cluster.pools.{i}")}>
                <SelectField testid={format!("pool-chip-{i}")} label={fill("form.pool", &[("n", &(i + 2).to_string())])}
                    options={chip_options.clone()} value={chip} on_change={on_chip}
                    errors={f.errors(&format!("cluster.pools.{i}.chip"))} />
                { f.render(chips) }
                if systems.len() > 1 {
                    <SelectField testid={format!("pool-system-{i}")} label={crate::app::words::label("cluster.system")}
                        options={systems} value={system} on_change={on_system} />
                }
                <button type="button" class="link" data-testid={format!("pool-remove-{i}")} onclick={remove}
                    aria-label={fill("form.pool-remove-named", &[("n", &(i + 2).to_string())])}>{ t("form.pool-remove") }</button>
            </div>
        }
    };
    html! {
        <section class="panel" data-testid="pools-panel">
            <h2>{ t("form.pools") }</h2>
            <p class="reading">{ t("form.pools-hint") }</p>
            { for (0..pools).map(pool) }
            if pools > 0 {
                <div class="grid">
                    { f.render(f.number(&fields::CLUSTER_BETWEEN_POOLS_GBIT_PER_S, "between-pools",
                        f.good.and_then(|g| g.pools.as_ref()).map(|p| p.line_bytes_per_s))) }
                </div>
                { f.toggle(&fields::CLUSTER_BETWEEN_POOLS_RDMA, "between-pools-rdma",
                    f.good.and_then(|g| g.pools.as_ref()).is_some_and(|p| p.rdma)) }
                { f.choice(&fields::PARALLELISM_ACROSS_POOLS, "across-pools", Across::Data) }
            }
            <button type="button" data-testid="pool-add" onclick={add}>{ t("form.pool-add") }</button>
            <FleetAdd scenario={f.state.scenario.clone()} on_action={props.on_action.clone()} lang={crate::text::lang()} />
            { sites_section(&f, pools) }
        </section>
    }
}

/// Properties of the fleet-sizing question.
#[derive(Properties, PartialEq)]
pub struct AddProps {
    pub scenario: Scenario,
    pub on_action: Callback<Action>,
    /// The language spoken, so the words follow a switch.
    pub lang: crate::text::Lang,
}

/// "Add which chip, how many, to meet the deadline": the fewest chips of a kind to add beside
/// the fleet, asked of the worker (`app::sections::fleet::addition`), with days, MW and capex, and Apply.
#[function_component(FleetAdd)]
pub fn fleet_add(props: &AddProps) -> Html {
    let chip = use_state(|| "ascend-910b".to_string());
    let deadline = use_state(|| "90".to_string());
    let job = crate::ui::job::use_job();
    let ask = {
        let (chip, deadline, start, scenario) =
            (chip.clone(), deadline.clone(), job.start.clone(), props.scenario.clone());
        Callback::from(move |_: MouseEvent| {
            let deadline_days = crate::numbers::parse(&deadline).unwrap_or(0.0);
            let (scenario, chip) = (scenario.clone(), (*chip).clone());
            start.emit(Task::AddToFleet { scenario, chip, deadline_days });
        })
    };
    let options = super::chip_options();
    let on_chip = {
        let chip = chip.clone();
        Callback::from(move |v: String| chip.set(v))
    };
    let on_deadline = {
        let deadline = deadline.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                deadline.set(input.value());
            }
        })
    };
    let status = &*job.status;
    let said = match (&status.result, status.errors.is_empty()) {
        (_, false) => {
            html! { <p class="bad" data-testid="fleet-add-answer">{ status.errors.join("; ") }</p> }
        }
        (Some(view), true) => html! {
            <div class="fleet-answer">
                { crate::ui::job::render(view, &props.on_action, false) }
                if let Some(apply) = &view.apply {
                    { crate::ui::job::apply_button(apply, &props.on_action, false) }
                }
            </div>
        },
        _ => html! {},
    };
    html! {
        <div class="fleet-add">
            <SelectField testid="fleet-add-chip" label={t("form.fleet-chip")} options={options}
                value={(*chip).clone()} on_change={on_chip} />
            <label>{ t("form.fleet-deadline") }{ " " }
                <input type="text" inputmode="decimal" size="6" value={(*deadline).clone()} oninput={on_deadline}
                    data-testid="fleet-deadline" /></label>
            { " " }<button type="button" data-testid="fleet-add" onclick={ask} disabled={status.running}>{ t("form.fleet-ask") }</button>
            { said }
        </div>
    }
}

/// The sites section: sites far apart (`sites`), which site each pool stands in, and how they
/// synchronise (with DiLoCo's inner steps, streaming and tokens-to-quality factor).
pub fn sites_section(f: &Form, pools: usize) -> Html {
    let sites = f.len(crate::scenario::paths::SITES);
    let names: Vec<String> = (0..sites)
        .map(|i| f.text_at(&format!("sites.{i}.name")))
        .filter(|name| !name.is_empty())
        .collect();
    let add = f.on_edit.reform(|_: MouseEvent| Edit::AddSite);
    let options: Vec<(AttrValue, AttrValue)> =
        names.iter().map(|n| (AttrValue::from(n.clone()), AttrValue::from(n.clone()))).collect();
    let site_of = |path: String, testid: String, label: String| {
        let value = f
            .raw_at(&path)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| names.first().cloned().unwrap_or_default());
        let on_set = f.on_set.clone();
        let on_change =
            Callback::from(move |v: String| on_set.emit(vec![(path.clone(), Some(v.into()))]));
        html! { <SelectField {testid} {label} options={options.clone()} {value} {on_change} /> }
    };
    html! {
        <>
            <h2>{ t("form.sites") }</h2>
            <p class="reading">{ t("form.sites-hint") }</p>
            if !names.is_empty() {
                { for names.iter().enumerate().map(|(i, name)| site_link(f, i, name)) }
                { site_of("cluster.site".into(), "cluster-site".into(), fill("form.pool-site", &[("n", "1")])) }
                { for (0..pools).map(|i| site_of(format!("cluster.pools.{i}.site"), format!("pool-site-{i}"),
                    fill("form.pool-site", &[("n", &(i + 2).to_string())]))) }
                { f.choice(&fields::PARALLELISM_ACROSS_SITES, "across-sites", crate::model::sites::Exchange::Sync) }
                <div class="grid">
                    { f.render(f.number(&fields::PARALLELISM_DILOCO_INNER_STEPS, "diloco-inner-steps", fixed(&fields::PARALLELISM_DILOCO_INNER_STEPS))) }
                </div>
                { f.toggle(&fields::PARALLELISM_DILOCO_STREAMING, "diloco-streaming", false) }
                <div class="grid">
                    { f.render(f.number(&fields::PARALLELISM_DILOCO_TOKEN_FACTOR, "diloco-token-factor", fixed(&fields::PARALLELISM_DILOCO_TOKEN_FACTOR))) }
                </div>
            }
            <button type="button" data-testid="site-add" onclick={add}>{ t("form.site-add") }</button>
        </>
    }
}

/// A field's fixed default in SI units, which its box shows until the scenario sets it.
fn fixed(field: &'static fields::Field) -> Option<f64> {
    Some(field.to_si(field.fixed()))
}

/// One site's wide-area link: its bandwidth and latency, under its name.
fn site_link(f: &Form, i: usize, name: &str) -> Html {
    let latency = &fields::SITES_WAN_LATENCY_MS;
    html! {
        <fieldset class="measurement" data-testid="site" data-path={format!("sites.{i}")}>
            <legend>{ fill("form.site-named", &[("name", name)]) }</legend>
            <div class="grid">
                { f.render(f.number_at(&fields::SITES_WAN_GBIT_PER_S, format!("sites.{i}.wan_gbit_per_s"), &format!("site-wan-{i}"), None)) }
                { f.render(f.number_at(latency, format!("sites.{i}.wan_latency_ms"), &format!("site-latency-{i}"), fixed(latency))) }
            </div>
        </fieldset>
    }
}
