//! The four input panels: model, training, cluster, parallelism.
//!
//! Each field shows what the scenario says, or the value a preset or default gives it, and
//! the errors, problems and warnings that concern it. Units, ranges and formats come from the
//! field table (`scenario::fields`), words from `ui::text`; whole-plan changes (a chip, a
//! model, a published plan) go to the editor as actions.

use serde_json::Value;
use yew::prelude::*;

use super::fields::{Change, NumberField, SelectField, Slider, ToggleField};
use super::format;
use super::state::{Action, Good, State};
use super::text;
use crate::cite;
use crate::editor;
use crate::model::presets::{self, units};
use crate::model::{AttentionImpl, FfnKind, Recipe, Recompute, Sharding, Warning};
use crate::numbers;
use crate::scenario::{fields, value_at};

/// Properties shared by the panels.
#[derive(Properties, PartialEq, Clone)]
pub struct PanelProps {
    /// Current state.
    pub state: UseReducerHandle<State>,
    /// Called with each field change.
    pub on_set: Callback<Vec<Change>>,
    /// Called with whole-plan actions.
    pub on_action: Callback<Action>,
}

/// Reads the state for one panel.
struct Form<'a> {
    state: &'a State,
    good: Option<&'a Good>,
    on_set: Callback<Vec<Change>>,
    /// The scenario as JSON, serialized once per render for every field to read.
    json: Value,
}

impl<'a> Form<'a> {
    fn new(props: &'a PanelProps) -> Form<'a> {
        Form {
            state: &props.state,
            good: props.state.good.as_deref(),
            on_set: props.on_set.clone(),
            json: serde_json::to_value(&props.state.scenario).unwrap_or_default(),
        }
    }

    fn raw(&self, path: &str) -> Option<Value> {
        value_at(&self.json, path).cloned()
    }

    fn errors(&self, path: &str) -> Vec<String> {
        self.state.errors_for(path).iter().map(|e| e.message.clone()).collect()
    }

    /// Findings of the shown estimate that concern `path`, when it is the scenario's own.
    fn findings(
        &self,
        path: &str,
        list: fn(&crate::model::Estimate) -> &Vec<Warning>,
    ) -> Vec<String> {
        let Some(good) = self.good else { return Vec::new() };
        if self.state.stale() {
            return Vec::new();
        }
        list(&good.estimate)
            .iter()
            .filter(|w| fields::warning_field(w) == path)
            .map(|w| w.to_string())
            .collect()
    }

    fn problems(&self, path: &str) -> Vec<String> {
        self.findings(path, |e| &e.problems)
    }

    fn notes(&self, path: &str) -> Vec<String> {
        self.findings(path, |e| &e.warnings)
    }

    /// A number field whose value is the scenario's, else `resolved`, with the table's unit.
    fn number(&self, path: &str, testid: &str, resolved: Option<f64>) -> NumberSpec {
        NumberSpec {
            path: path.to_string(),
            testid: testid.to_string(),
            resolved,
            slider: None,
            reading: String::new(),
            extra_note: None,
            locked: false,
        }
    }

    fn render(&self, spec: NumberSpec) -> Html {
        let path = spec.path.as_str();
        // A value the scenario sets is shown as typed; one that a preset or default gives is
        // the placeholder, and emptying a box goes back to it.
        let value = self.raw(path).map(|v| format::raw(&v)).unwrap_or_default();
        let placeholder = spec.resolved.map(numbers::format).unwrap_or_default();
        let fixes =
            self.state.errors_for(path).iter().flat_map(|e| e.fixes.clone()).collect::<Vec<_>>();
        let mut notes = self.notes(path);
        notes.extend(spec.extra_note);
        html! {
            <NumberField path={path.to_string()} testid={spec.testid} label={text::label(path)}
                unit={text::unit(path)} value={value} placeholder={placeholder}
                slider={spec.slider} slider_readonly={spec.locked} reading={spec.reading} optional=true help={text::help(path)}
                errors={self.errors(path)} fixes={fixes} problems={self.problems(path)} notes={notes}
                on_set={self.on_set.clone()} />
        }
    }

    fn toggle(&self, path: &str, testid: &str, resolved: bool) -> Html {
        let checked = self.raw(path).and_then(|v| v.as_bool()).unwrap_or(resolved);
        html! {
            <ToggleField path={path.to_string()} testid={testid.to_string()} label={text::label(path)}
                checked={checked} help={text::help(path)} notes={self.notes(path)} on_set={self.on_set.clone()} />
        }
    }

    /// A select that writes its choice to `path` as text.
    fn choice(&self, path: &str, testid: &str, options: &[(&str, &str)], resolved: &str) -> Html {
        let value = self
            .raw(path)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or(resolved.to_string());
        let on_set = self.on_set.clone();
        let p = path.to_string();
        let on_change =
            Callback::from(move |v: String| on_set.emit(vec![(p.clone(), Some(Value::String(v)))]));
        html! {
            <SelectField testid={testid.to_string()} label={text::label(path)} help={text::help(path)}
                options={options.iter().map(|(v, t)| (AttrValue::from(v.to_string()), AttrValue::from(t.to_string()))).collect::<Vec<_>>()}
                value={value} errors={self.errors(path)} problems={self.problems(path)} notes={self.notes(path)} on_change={on_change} />
        }
    }
}

/// A number field being described.
struct NumberSpec {
    path: String,
    testid: String,
    resolved: Option<f64>,
    slider: Option<Slider>,
    reading: String,
    extra_note: Option<String>,
    /// The slider only shows the value, which follows other fields.
    locked: bool,
}

impl NumberSpec {
    fn slider(mut self, slider: Slider) -> NumberSpec {
        self.slider = Some(slider);
        self
    }

    fn reading(mut self, reading: String) -> NumberSpec {
        self.reading = reading;
        self
    }
}

/// A source text with its arXiv references as links.
pub fn source(text: &str) -> Html {
    html! {
        <>
            { for cite::segments(text).into_iter().map(|s| match s {
                cite::Segment::Text(t) => html! { { t.to_string() } },
                cite::Segment::Link { text, .. } => html! {
                    <a href={s.href().unwrap_or_default()} target="_blank" rel="noopener noreferrer">{ text.to_string() }</a>
                },
            }) }
        </>
    }
}

/// What a published plan is, in a few words: "2,048 H800, PP 16, EP 64, FP8".
fn plan_summary(inputs: &crate::model::Inputs, chip: &str) -> String {
    let p = &inputs.parallelism;
    let mut parts = vec![format!("{} {chip}", numbers::format(inputs.cluster.n_chips as f64))];
    for (name, degree) in
        [("TP", p.tensor), ("PP", p.pipeline), ("CP", p.context), ("EP", p.expert)]
    {
        if degree > 1 {
            parts.push(format!("{name} {degree}"));
        }
    }
    if inputs.training.recipe == Recipe::Fp8 {
        parts.push("FP8".into());
    }
    parts.join(", ")
}

/// The transformer: preset or custom dimensions, mixture of experts, published plan.
#[function_component(ModelPanel)]
pub fn model_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let t = f.good.map(|g| g.inputs.transformer);
    let preset = f.raw("model.preset").and_then(|v| v.as_str().map(str::to_string));
    let modified = editor::model_modified(&f.state.scenario);
    let mut options: Vec<(AttrValue, AttrValue)> = presets::TRANSFORMERS
        .iter()
        .map(|p| {
            let name = if modified && preset.as_deref() == Some(p.id) {
                format!("{} (modified)", p.name)
            } else {
                p.name.to_string()
            };
            (AttrValue::from(p.id), AttrValue::from(name))
        })
        .collect();
    options.push(("custom".into(), "Custom dimensions".into()));
    let on_preset = props.on_action.reform(Action::ChooseModel);
    let detail = f.good.map(|g| {
        format!(
            "{} parameters, {} active per token",
            format::count(g.estimate.params),
            format::count(g.estimate.active_params)
        )
    });
    let source_line = preset.as_deref().and_then(presets::transformer).map(|p| source(p.source));
    // The model's published plan, one click away.
    let published = preset.as_deref().and_then(|id| {
        let (_, scenario) = editor::published_plan(id)?;
        let inputs = scenario.resolve().ok()?;
        let chip = scenario.get("cluster.chip").and_then(|v| v.as_str().map(str::to_string))?;
        let chip = presets::chip(&chip).map_or(chip.clone(), |c| short_chip(c.name));
        let name = presets::transformer(id).map_or(id, |p| p.name);
        let on_load = props.on_action.reform({
            let id = id.to_string();
            move |_| Action::LoadPublishedPlan(id.clone())
        });
        Some(html! {
            <button type="button" class="published" data-testid="load-published-plan" onclick={on_load}>
                { format!("Load {name}'s published plan: {}", plan_summary(&inputs, &chip)) }
            </button>
        })
    });
    let n = |x: Option<u32>| x.map(|v| v as f64);
    let moe = t.and_then(|t| t.moe);
    // What the scenario says wins over the last valid result, which may be stale.
    let moe_on = match f.raw("model.moe") {
        Some(Value::Object(_)) => true,
        Some(Value::Bool(false)) | Some(Value::Null) => false,
        _ => moe.is_some(),
    };
    html! {
        <section class="panel">
            <h2>{ "Model" }</h2>
            <SelectField testid="model-preset" label="Transformer" options={options}
                value={preset.unwrap_or_else(|| "custom".into())}
                detail={html! { <>{ detail.unwrap_or_default() }{ for source_line.map(|s| html! { <><br />{ s }</> }) }</> }}
                errors={f.errors("model.preset")} on_change={on_preset} />
            { for published }
            <div class="grid">
                { f.render(f.number("model.layers", "layers", n(t.map(|t| t.n_layers)))) }
                { f.render(f.number("model.hidden", "hidden", n(t.map(|t| t.hidden)))) }
                { f.render(f.number("model.heads", "heads", n(t.map(|t| t.n_heads)))) }
                { f.render(f.number("model.kv_heads", "kv-heads", n(t.map(|t| t.n_kv_heads)))) }
                { f.render(f.number("model.ffn", "ffn", n(t.map(|t| t.ffn)))) }
                { f.render(f.number("model.vocab", "vocab", n(t.map(|t| t.vocab)))) }
            </div>
            { f.render(f.number("model.seq_len", "seq-len", n(t.map(|t| t.seq_len))).slider(Slider::Pow2 { min: 9, max: 20 })) }
            <div class="grid">
                { f.choice("model.ffn_act", "ffn-act", &[("gelu", "GELU MLP"), ("swiglu", "SwiGLU")],
                    if t.is_some_and(|t| t.ffn_kind == FfnKind::SwiGlu) { "swiglu" } else { "gelu" }) }
                { f.choice("model.attention", "attention", &[("flash", "Flash (fused)"), ("materialized", "Materialised scores")],
                    if t.is_some_and(|t| t.attention == AttentionImpl::Materialized) { "materialized" } else { "flash" }) }
            </div>
            <ToggleField path="model.moe" testid="moe" label="Mixture of experts" checked={moe_on}
                on_set={f.on_set.reform(|changes: Vec<Change>| {
                    changes.into_iter().map(|(path, on)| {
                        let value = if on == Some(Value::Bool(true)) { serde_json::json!({ "experts": 8, "top_k": 2 }) } else { Value::Bool(false) };
                        (path, Some(value))
                    }).collect::<Vec<_>>()
                })} />
            if let Some(m) = moe {
                <div class="grid">
                    { f.render(f.number("model.moe.experts", "experts", Some(m.n_experts as f64))) }
                    { f.render(f.number("model.moe.top_k", "top-k", Some(m.top_k as f64))) }
                    { f.render(f.number("model.moe.shared_experts", "shared-experts", Some(m.n_shared_experts as f64))) }
                    { f.render(f.number("model.moe.expert_ffn", "expert-ffn", Some(m.expert_ffn as f64))) }
                    { f.render(f.number("model.moe.dense_layers", "dense-layers", Some(m.n_dense_layers as f64))) }
                </div>
            }
        </section>
    }
}

/// A chip's name without its maker, as plans are spoken of ("H800").
fn short_chip(name: &str) -> String {
    let name = name.strip_prefix("NVIDIA ").unwrap_or(name);
    name.split_whitespace().next().unwrap_or(name).to_string()
}

/// Token budget, batch, precision.
#[function_component(TrainingPanel)]
pub fn training_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let i = f.good.map(|g| g.inputs);
    let tokens = i.map(|i| i.training.tokens);
    let batch = i.map(|i| i.training.global_batch as f64);
    let per_step = i.map(|i| i.training.global_batch as f64 * i.transformer.seq_len as f64);
    let recipe = match i.map(|i| i.training.recipe) {
        Some(Recipe::TorchAmp) => "torch-amp",
        Some(Recipe::Fp8) => "fp8",
        _ => "megatron-bf16",
    };
    html! {
        <section class="panel">
            <h2>{ "Training" }</h2>
            { f.render(f.number("training.tokens", "tokens", tokens).slider(Slider::Log10 { min: 9, max: 14 })
                .reading(tokens.map(|t| format!("{} tokens", format::count(t))).unwrap_or_default())) }
            { f.render(f.number("training.global_batch", "global-batch", batch).slider(Slider::Pow2 { min: 0, max: 16 })
                .reading(per_step.map(|t| format!("{} tokens per step", format::count(t))).unwrap_or_default())) }
            { f.choice("training.recipe", "recipe", &[
                ("megatron-bf16", "BF16, FP32 master and Adam (18 B/param)"),
                ("torch-amp", "FP32 weights, AMP (16 B/param)"),
                ("fp8", "FP8 GEMMs, BF16 moments (14 B/param)"),
            ], recipe) }
        </section>
    }
}

/// The chip preset id the scenario names, or `custom`.
pub fn chip_id(scenario_chip: Option<&Value>) -> String {
    match scenario_chip {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Object(map)) if map.contains_key("preset") && map.len() == 1 => {
            map.get("preset").and_then(Value::as_str).unwrap_or("custom").to_string()
        }
        _ => "custom".to_string(),
    }
}

/// The machine: chip, count, fabrics.
#[function_component(ClusterPanel)]
pub fn cluster_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let c = f.good.map(|g| g.inputs.cluster);
    let chip_id = chip_id(f.raw("cluster.chip").as_ref());
    let custom = chip_id == "custom";
    let mut options: Vec<(AttrValue, AttrValue)> = presets::CHIPS
        .iter()
        .map(|p| (AttrValue::from(p.id), AttrValue::from(format!("{} ({})", p.name, p.vendor))))
        .collect();
    options.push(("custom".into(), "Custom chip…".into()));
    let on_chip = props.on_action.reform(Action::ChooseChip);
    let detail = presets::chip(&chip_id).map(|p| {
        let ch = &p.chip;
        let figures = format!(
            "{} TFLOP/s BF16 · {} · {} TB/s · {} W",
            numbers::format(ch.bf16_flops_per_s / units::TFLOPS),
            format::gib(ch.hbm_bytes),
            numbers::format(ch.hbm_bytes_per_s / units::TB_PER_S),
            numbers::format(ch.tdp_w),
        );
        let unverified: Vec<&str> = p
            .unverified
            .iter()
            .filter_map(|name| fields::chip_figure_path(name))
            .map(text::figure_name)
            .collect();
        html! {
            <>
                { figures }
                if !unverified.is_empty() {
                    <span class="unverified">{ format!(" · unverified: {}", unverified.iter().map(|n| text::in_sentence(n)).collect::<Vec<_>>().join(", ")) }</span>
                }
                <br /><span class="source">{ "Source: " }{ source(p.source) }</span>
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
        let value =
            f.raw(path).and_then(|v| v.as_str().map(str::to_string)).unwrap_or(default.to_string());
        let on_set = f.on_set.clone();
        html! {
            <SelectField testid={testid} label={text::label(path)} help={text::help(path)} options={options} value={value}
                errors={f.errors(path)}
                on_change={Callback::from(move |v: String| on_set.emit(vec![(path.to_string(), Some(Value::String(v)))]))} />
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
            <h2>{ "Cluster" }</h2>
            <SelectField testid="chip" label="Accelerator" options={options} value={chip_id.clone()}
                detail={detail.unwrap_or_default()} errors={f.errors("cluster.chip")} on_change={on_chip} />
            if custom {
                <div class="grid">
                    { f.render(f.number("cluster.chip.bf16_tflops", "chip-bf16", c.map(|c| c.chip.bf16_flops_per_s / units::TFLOPS))) }
                    { f.render(f.number("cluster.chip.fp8_tflops", "chip-fp8", c.map(|c| c.chip.fp8_flops_per_s / units::TFLOPS))) }
                    { f.render(f.number("cluster.chip.hbm_gb", "chip-hbm", c.map(|c| c.chip.hbm_bytes / units::GB))) }
                    { f.render(f.number("cluster.chip.hbm_tb_per_s", "chip-bw", c.map(|c| c.chip.hbm_bytes_per_s / units::TB_PER_S))) }
                    { f.render(f.number("cluster.scale_up.bandwidth_gb_per_s", "scale-up-bw", c.map(|c| 2.0 * c.scale_up.link.bytes_per_s / units::GB_PER_S))) }
                    { f.render(f.number("cluster.scale_out.gbit_per_s", "scale-out-bw", c.map(|c| c.scale_out.bytes_per_s / units::GBIT_PER_S))) }
                </div>
            }
            { f.render(f.number("cluster.chips", "chips", n(c.map(|c| c.n_chips))).slider(Slider::Fine { max: 20, snap })) }
            if !custom {
                { fabric("cluster.scale_up", "scale-up",
                    fabric_options(presets::SCALE_UP.iter().map(|p| (p.id, p.name)).collect()), up_default) }
            }
            <div class="grid">
                { f.render(f.number("cluster.scale_up_domain", "scale-up-domain", n(c.map(|c| c.scale_up.domain_size)))) }
                { f.render(f.number("cluster.chips_per_node", "chips-per-node", n(c.map(|c| c.chips_per_node)))) }
            </div>
            if !custom {
                { fabric("cluster.scale_out", "scale-out",
                    fabric_options(presets::SCALE_OUT.iter().map(|p| (p.id, p.name)).collect()), out_default) }
            }
            { system_select(&f) }
            { preset_select(&f, "cluster.fabric.switch", "switch", "The system's own",
                presets::SWITCHES.iter().map(|p| (p.id, p.name)).collect()) }
            <div class="grid">
                { f.render(f.number("cluster.fabric.planes", "planes", f.good.map(|g| g.inputs.plant.fabric.planes as f64))) }
                { f.render(f.number("cluster.fabric.oversubscription", "oversubscription", f.good.map(|g| g.inputs.plant.fabric.oversubscription))) }
            </div>
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
    let value = f.raw(path).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let mut options: Vec<(AttrValue, AttrValue)> = vec![("".into(), auto.into())];
    options.extend(list.into_iter().map(|(id, name)| (AttrValue::from(id), AttrValue::from(name))));
    let on_set = f.on_set.clone();
    let on_change = Callback::from(move |v: String| {
        let value = if v.is_empty() { None } else { Some(Value::String(v)) };
        on_set.emit(vec![(path.to_string(), value)]);
    });
    html! {
        <SelectField testid={testid} label={text::label(path)} help={text::help(path)} options={options}
            value={value} errors={f.errors(path)} notes={f.notes(path)} on_change={on_change} />
    }
}

/// The system select: choosing a system also chooses its chip, and its node size and fabrics
/// follow it.
fn system_select(f: &Form) -> Html {
    let path = "cluster.system";
    let value = f.raw(path).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let mut options: Vec<(AttrValue, AttrValue)> = vec![("".into(), "The chip's own".into())];
    options
        .extend(presets::SYSTEMS.iter().map(|p| (AttrValue::from(p.id), AttrValue::from(p.name))));
    let on_set = f.on_set.clone();
    let on_change = Callback::from(move |v: String| {
        let mut changes: Vec<Change> = vec![(path.to_string(), None)];
        if let Some(system) = presets::system(&v) {
            changes = vec![
                (path.to_string(), Some(Value::String(v.clone()))),
                ("cluster.chip".into(), Some(Value::String(system.chip.to_string()))),
            ];
            for cleared in [
                "cluster.scale_up",
                "cluster.scale_out",
                "cluster.chips_per_node",
                "cluster.scale_up_domain",
            ] {
                changes.push((cleared.into(), None));
            }
        }
        on_set.emit(changes);
    });
    let detail = presets::system(&value)
        .map(|p| html! { <span class="source">{ "Source: " }{ source(p.source) }</span> });
    html! {
        <SelectField testid="system" label={text::label(path)} help={text::help(path)} options={options}
            value={value} detail={detail.unwrap_or_default()} errors={f.errors(path)} on_change={on_change} />
    }
}

/// The site: cooling, PUE, rack limit and prices.
#[function_component(FacilityPanel)]
pub fn facility_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let site = f.good.map(|g| g.inputs.plant.facility);
    let rel = f.good.map(|g| g.inputs.reliability);
    let checkpoint = match rel.map(|r| r.checkpoint) {
        Some(crate::model::reliability::Checkpoint::Sync) => "sync",
        Some(crate::model::reliability::Checkpoint::InMemory) => "in-memory",
        _ => "async",
    };
    let cooling = match site.map(|s| s.cooling) {
        Some(crate::model::facility::Cooling::Liquid) => "liquid",
        Some(crate::model::facility::Cooling::Hybrid) => "hybrid",
        _ => "air",
    };
    html! {
        <section class="panel">
            <h2>{ "Facility" }</h2>
            { f.choice("facility.cooling", "cooling", &[("air", "Air"), ("liquid", "Direct liquid"), ("hybrid", "Hybrid: liquid on the chips")], cooling) }
            <div class="grid">
                { f.render(f.number("facility.pue", "pue", site.map(|s| s.pue))) }
                { f.render(f.number("facility.rack_kw", "rack-kw", site.map(|s| s.rack_w / 1000.0))) }
                { f.render(f.number("facility.usd_per_kwh", "usd-per-kwh", site.map(|s| s.usd_per_kwh))) }
                { f.render(f.number("facility.cloud_usd_per_chip_hour", "cloud-price", site.map(|s| s.cloud_usd_per_chip_hour))) }
                { f.render(f.number("facility.amortization_years", "amortization", site.map(|s| s.amortization_years))) }
                { f.render(f.number("facility.kg_co2_per_kwh", "co2", site.map(|s| s.kg_co2_per_kwh))) }
            </div>
            <h2>{ "Failures and checkpoints" }</h2>
            { f.choice("reliability.checkpoint", "checkpoint", &[("async", "Asynchronous (copy to host memory, write in the background)"),
                ("sync", "Synchronous (training waits for storage)"), ("in-memory", "In peers' memory (fast restarts)")], checkpoint) }
            <div class="grid">
                { f.render(f.number("reliability.storage_gb_per_s", "storage", rel.map(|r| r.storage_bytes_per_s / 1e9))) }
                { f.render(f.number("reliability.restart_min", "restart", rel.map(|r| r.restart_s / 60.0))) }
            </div>
        </section>
    }
}

/// Parallel degrees and schedule.
#[function_component(ParallelismPanel)]
pub fn parallelism_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let p = f.good.map(|g| g.inputs.parallelism);
    let n = |x: Option<u32>| x.map(|v| v as f64);
    let zero = match p.map(|p| p.sharding) {
        Some(Sharding::None) => "0",
        Some(Sharding::Gradients) => "2",
        Some(Sharding::Full) => "3",
        _ => "1",
    };
    let recompute = match p.map(|p| p.recompute) {
        Some(Recompute::Selective) => "selective",
        Some(Recompute::Full) => "full",
        _ => "none",
    };
    let on_zero = {
        let on_set = f.on_set.clone();
        Callback::from(move |v: String| {
            on_set.emit(vec![(
                "parallelism.zero".into(),
                Some(Value::from(v.parse::<u64>().unwrap_or(1))),
            )])
        })
    };
    let zero_options: Vec<(AttrValue, AttrValue)> = [
        ("0", "ZeRO-0: replicate everything"),
        ("1", "ZeRO-1: shard optimizer states"),
        ("2", "ZeRO-2: + gradients"),
        ("3", "ZeRO-3 / FSDP: + weights"),
    ]
    .iter()
    .map(|(v, t)| (AttrValue::from(*v), AttrValue::from(*t)))
    .collect();
    // DP follows the chips unless set by hand; its slider then only shows the value.
    let dp_auto = f.raw("parallelism.dp").is_none();
    let mut dp = f
        .number("parallelism.dp", "dp", n(p.map(|p| p.data)))
        .slider(Slider::Pow2 { min: 0, max: 20 });
    dp.reading = if dp_auto {
        "automatic: chips ÷ (TP × PP × CP); type a number to set it".into()
    } else {
        "set by hand; empty the box for automatic".into()
    };
    let moe_without_ep = f
        .good
        .is_some_and(|g| g.inputs.transformer.moe.is_some() && g.inputs.parallelism.expert <= 1);
    let mut ep = f
        .number("parallelism.ep", "ep", n(p.map(|p| p.expert)))
        .slider(Slider::Pow2 { min: 0, max: 8 });
    if moe_without_ep {
        ep.extra_note = Some("a mixture of experts with EP 1 keeps every expert on every chip; raise EP to spread them".into());
    }
    dp.locked = dp_auto;
    html! {
        <section class="panel">
            <h2>{ "Parallelism" }</h2>
            <div class="degrees">
                { f.render(f.number("parallelism.tp", "tp", n(p.map(|p| p.tensor))).slider(Slider::Pow2 { min: 0, max: 6 })) }
                { f.render(f.number("parallelism.pp", "pp", n(p.map(|p| p.pipeline))).slider(Slider::Pow2 { min: 0, max: 7 })) }
                { f.render(dp) }
                { f.render(f.number("parallelism.cp", "cp", n(p.map(|p| p.context))).slider(Slider::Pow2 { min: 0, max: 5 })) }
                { f.render(ep) }
                { f.render(f.number("parallelism.micro_batch", "micro-batch", n(p.map(|p| p.micro_batch))).slider(Slider::Pow2 { min: 0, max: 5 })) }
                { f.render(f.number("parallelism.virtual_stages", "virtual-stages", n(p.map(|p| p.virtual_stages))).slider(Slider::Pow2 { min: 0, max: 4 })) }
            </div>
            <SelectField testid="zero" label={text::label("parallelism.zero")} help={text::help("parallelism.zero")} options={zero_options} value={zero}
                errors={f.errors("parallelism.zero")} notes={f.notes("parallelism.zero")} on_change={on_zero} />
            { f.choice("parallelism.recompute", "recompute",
                &[("none", "None"), ("selective", "Selective (attention core)"), ("full", "Full (whole layers)")], recompute) }
            { f.toggle("parallelism.sequence_parallel", "sp", p.is_some_and(|p| p.sequence_parallel)) }
            { f.toggle("parallelism.dp_overlap", "dp-overlap", p.is_none_or(|p| p.dp_overlap)) }
            { f.toggle("parallelism.ep_overlap", "ep-overlap", p.is_some_and(|p| p.ep_overlap)) }
            { f.toggle("parallelism.cp_overlap", "cp-overlap", p.is_some_and(|p| p.cp_overlap)) }
        </section>
    }
}
