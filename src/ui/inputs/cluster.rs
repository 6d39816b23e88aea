//! The cluster panel: chip, count, fabrics, the system the chips come in and the scale-out
//! network's build.

use yew::prelude::*;

use super::{preset_source, Form, PanelProps};
use crate::app::words;
use crate::format;
use crate::model::facility::FabricKind;
use crate::model::presets;
use crate::numbers;
use crate::scenario::user_catalog::{Entry, Kind};
use crate::scenario::{fields, leaves};
use crate::ui::fields::{SelectField, Slider};
use crate::ui::state::Action;

/// The chip preset id the scenario names, or `custom`.
pub fn chip_id(scenario: &crate::scenario::Scenario) -> String {
    scenario.chip_ref().preset().unwrap_or("custom").to_string()
}

/// The machine: chip, count, fabrics.
pub fn cluster_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let c = f.good.map(|g| g.inputs.cluster);
    let rules = f.good.map(|g| g.inputs.plant.fabric);
    let chip_id = chip_id(&f.state.scenario);
    let custom = chip_id == "custom";
    let mut options = super::chip_options();
    options.push(("custom".into(), words::t("form.custom-chip").into()));
    // The user's own chips, in a group of their own; one in use is the one selected.
    let mine: Vec<Entry> = props.catalog.of(Kind::Chip).cloned().collect();
    let own = mine.iter().find(|e| e.in_use(&f.state.scenario)).map(|e| format!("my:{}", e.name));
    let groups = if mine.is_empty() {
        Vec::new()
    } else {
        let entries = mine
            .iter()
            .map(|e| (AttrValue::from(format!("my:{}", e.name)), AttrValue::from(e.name.clone())));
        vec![(AttrValue::from(words::t("form.my-chips")), entries.collect())]
    };
    let on_chip = {
        let (on_action, scenario) = (props.on_action.clone(), f.state.scenario.clone());
        Callback::from(move |value: String| match value.strip_prefix("my:") {
            Some(name) => {
                if let Some(e) = mine.iter().find(|e| e.name == name) {
                    let scenario = Box::new(e.apply(&scenario));
                    on_action.emit(Action::Apply { label: e.name.clone(), scenario });
                }
            }
            None => on_action.emit(Action::ChooseChip(value)),
        })
    };
    let selected = own.unwrap_or_else(|| chip_id.clone());
    let detail = presets::chip(&chip_id).map(|p| {
        let ch = &p.chip;
        let figures = format!(
            "{} TFLOP/s BF16 · {} · {} TB/s · {} W",
            numbers::format(fields::CLUSTER_CHIP_BF16_TFLOPS.from_si(ch.bf16_flops_per_s)),
            format::gib(ch.hbm_bytes),
            numbers::format(fields::CLUSTER_CHIP_HBM_TB_PER_S.from_si(ch.hbm_bytes_per_s)),
            numbers::format(ch.tdp_w),
        );
        let unverified: Vec<&str> = p
            .unverified
            .iter()
            .filter_map(|name| fields::chip_figure_path(name))
            .map(words::figure_name)
            .collect();
        let named: Vec<String> = unverified.iter().map(|n| words::in_sentence(n)).collect();
        let unverified = named.join(words::t("text.list"));
        html! {
            <>
                { figures }
                if !unverified.is_empty() {
                    <span class="unverified">{ words::fill("form.unverified", &[("figures", &unverified)]) }</span>
                }
                <br /><span class="source">{ words::t("form.source") }{ preset_source("chip", p.id, p.source) }</span>
            </>
        }
    });
    let fabric_options = |list: Vec<(&'static str, &'static str)>| -> Vec<(AttrValue, AttrValue)> {
        list.into_iter().map(|(id, name)| (AttrValue::from(id), AttrValue::from(name))).collect()
    };
    let up_default = presets::chip(&chip_id).map_or("", |p| p.scale_up);
    let out_default = presets::chip(&chip_id).map_or("", |p| p.scale_out);
    let fabric = |path: &'static str,
                  testid: &'static str,
                  options: Vec<(AttrValue, AttrValue)>,
                  default: &str| {
        let value = f
            .raw_at(path)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or(default.to_string());
        let on_set = f.on_set.clone();
        html! {
            <SelectField testid={testid} label={words::label(path)} help={words::help(path)} options={options} value={value}
                errors={f.errors(path)}
                on_change={Callback::from(move |v: String| on_set.emit(vec![(path.to_string(), Some(v.into()))]))} />
        }
    };
    let n = |x: Option<u32>| x.map(|v| v as f64);
    // The chips slider reaches any count in fine steps, snapped to what one replica takes.
    let snap = f.good.map_or(1, |g| {
        let p = g.inputs.parallelism;
        p.tensor.saturating_mul(p.pipeline).saturating_mul(p.context).max(1)
    });
    html! {
        <section class="panel">
            <h2>{ words::t("form.cluster") }</h2>
            <SelectField testid="chip" label={words::label("cluster.chip")} options={options} {groups} value={selected}
                detail={detail.unwrap_or_default()} errors={f.errors("cluster.chip")} on_change={on_chip} />
            if custom {
                <div class="grid">
                    { for leaves::CHIP.iter().map(|leaf| {
                        f.render(f.number(leaf.field, leaf.testid, c.and_then(|c| (leaf.get)(&c.chip))))
                    }) }
                    { for leaves::SCALE_UP[..1].iter().map(|leaf| {
                        f.render(f.number(leaf.field, leaf.testid, c.and_then(|c| (leaf.get)(&c.scale_up))))
                    }) }
                    { for leaves::SCALE_OUT[..1].iter().map(|leaf| {
                        f.render(f.number(leaf.field, leaf.testid, c.and_then(|c| (leaf.get)(&c.scale_out))))
                    }) }
                </div>
                // Where the node's power and price come from, so none is borrowed unsaid.
                <p class="reading" data-testid="custom-chip-system">{ match f.state.scenario.title().system {
                    Some(system) => words::fill("form.custom-chip-system", &[("system", &system)]),
                    None => words::t("form.custom-chip-generic").to_string(),
                } }</p>
            }
            { f.render(f.number(&fields::CLUSTER_CHIPS, "chips", n(c.map(|c| c.n_chips))).slider(Slider::Fine { max: 20, snap })) }
            if !custom {
                { fabric("cluster.scale_up", "scale-up",
                    fabric_options(presets::SCALE_UP.iter().map(|p| (p.id, words::preset_name("scale_up", p.id, p.name))).collect()), up_default) }
            }
            <div class="grid">
                { f.render(f.number(&fields::CLUSTER_SCALE_UP_DOMAIN_SIZE, "scale-up-domain", n(c.map(|c| c.scale_up.domain_size)))) }
                { f.render(f.number(&fields::CLUSTER_PLACEMENT_DOMAIN_CHIPS, "domain-chips", n(c.map(|c| c.rank_domain())))) }
                { f.render(f.number(&fields::CLUSTER_POWER_CAP_W, "power-cap", c.map(|c| c.chip.tdp_w))) }
                { f.render(f.number(&fields::CLUSTER_CHIPS_PER_NODE, "chips-per-node", n(c.map(|c| c.chips_per_node)))) }
            </div>
            if !custom {
                { fabric("cluster.scale_out", "scale-out",
                    fabric_options(presets::SCALE_OUT.iter().map(|p| (p.id, words::preset_name("scale_out", p.id, p.name))).collect()), out_default) }
            }
            { system_select(&f, &props.on_action) }
            // The servers' price, chips included: the system's, or what a generic server of the
            // chip costs; a chip the catalog prices nowhere leaves it to fill (a warning says so).
            { f.render(f.number(&fields::CLUSTER_SYSTEM_NODE_PRICE_USD, "node-price",
                f.good.map(|g| g.inputs.plant.system.node_price_usd))) }
            { preset_select(&f, "cluster.fabric.switch", "switch", words::t("form.systems-own"),
                presets::SWITCHES.iter().map(|p| (p.id, words::preset_name("switch", p.id, p.name))).collect()) }
            <div class="grid">
                { f.render(f.number(&fields::CLUSTER_FABRIC_PLANES, "planes", rules.map(|r| r.planes as f64))) }
                { f.render(f.number(&fields::CLUSTER_FABRIC_OVERSUBSCRIPTION, "oversubscription",
                    rules.map(|r| r.oversubscription))) }
            </div>
            { f.choice(&fields::CLUSTER_FABRIC_KIND, "fabric-kind",
                f.good.map_or(FabricKind::RailOptimized, |g| g.inputs.plant.fabric.kind)) }
            { f.toggle(&fields::CLUSTER_FABRIC_IN_NETWORK_REDUCTION, "in-network-reduction",
                f.good.is_some_and(|g| g.inputs.cluster.network.in_network_reduction)) }
        </section>
    }
}

/// A select over catalog presets at `path`, with a first option that clears it (the default).
fn preset_select(
    f: &Form,
    path: &'static str,
    testid: &'static str,
    auto: &'static str,
    list: Vec<(&'static str, &'static str)>,
) -> Html {
    let value = f.raw_at(path).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let mut options: Vec<(AttrValue, AttrValue)> = vec![("".into(), auto.into())];
    options.extend(list.into_iter().map(|(id, name)| (AttrValue::from(id), AttrValue::from(name))));
    let on_set = f.on_set.clone();
    let on_change = Callback::from(move |v: String| {
        let value = if v.is_empty() { None } else { Some(v.into()) };
        on_set.emit(vec![(path.to_string(), value)]);
    });
    html! {
        <SelectField testid={testid} label={words::label(path)} help={words::help(path)} options={options}
            value={value} errors={f.errors(path)} notes={f.notes(path)} on_change={on_change} />
    }
}

/// The system select: choosing a system also chooses its chip, and its node size and fabrics
/// follow it (`Action::ChooseSystem`, which says so with Undo).
fn system_select(f: &Form, on_action: &Callback<Action>) -> Html {
    let path = "cluster.system";
    // A system given by id, or a preset with keys of the user's (`{"preset": "dgx-h100", ...}`).
    let value = f
        .raw_at(path)
        .and_then(|v| v.as_str().or_else(|| v.get("preset")?.as_str()).map(str::to_string))
        .unwrap_or_default();
    let mut options: Vec<(AttrValue, AttrValue)> =
        vec![("".into(), words::t("form.chips-own").into())];
    options.extend(presets::SYSTEMS.iter().map(|p| {
        (AttrValue::from(p.id), AttrValue::from(words::preset_name("system", p.id, p.name)))
    }));
    let on_change = on_action.reform(Action::ChooseSystem);
    let detail = presets::system(&value).map(
        |p| html! { <span class="source">{ words::t("form.source") }{ preset_source("system", p.id, p.source) }</span> },
    );
    html! {
        <SelectField testid="system" label={words::label(path)} help={words::help(path)} options={options}
            value={value} detail={detail.unwrap_or_default()} errors={f.errors(path)} on_change={on_change} />
    }
}
