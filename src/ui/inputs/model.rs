//! The model panel: a preset or custom dimensions, the mixture of experts, and the preset's
//! published plan in one click.

use yew::prelude::*;

use crate::text::{fill, t};

use super::{layers, preset_source, Form, PanelProps};
use crate::app::state;
use crate::format;
use crate::model::presets::{self};
use crate::model::{AttentionImpl, FfnKind, Recipe};
use crate::numbers;
use crate::scenario::fields;
use crate::ui::fields::{SelectField, Slider};
use crate::ui::state::Action;

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
pub fn model_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let shape = f.good.map(|g| g.inputs.transformer);
    let preset =
        f.raw(crate::scenario::paths::MODEL_PRESET).and_then(|v| v.as_str().map(str::to_string));
    let modified = state::model_modified(&f.state.scenario);
    let mut options: Vec<(AttrValue, AttrValue)> = presets::TRANSFORMERS
        .iter()
        .map(|p| {
            let own = crate::app::words::preset_name("model", p.id, p.name);
            let name = if modified && preset.as_deref() == Some(p.id) {
                fill("form.modified", &[("name", own)])
            } else {
                own.to_string()
            };
            (AttrValue::from(p.id), AttrValue::from(name))
        })
        .collect();
    options.push(("custom".into(), t("form.custom-model").into()));
    let on_preset = props.on_action.reform(Action::ChooseModel);
    let detail = f.good.map(|g| {
        fill(
            "form.parameters",
            &[
                ("params", &format::count(g.estimate.params)),
                ("active", &format::count(g.estimate.active_params)),
            ],
        )
    });
    let source_line = preset
        .as_deref()
        .and_then(presets::transformer)
        .map(|p| preset_source("model", p.id, p.source));
    // The model's published plan, one click away.
    let published = preset.as_deref().and_then(|id| {
        let (_, scenario) = crate::validation::published_plan(id)?;
        let inputs = scenario.resolve().ok()?;
        let chip = scenario.chip_ref().preset()?;
        let chip = presets::chip(chip).map_or(chip.to_string(), |c| short_chip(c.name));
        let name = presets::transformer(id).map_or(id, |p| p.name);
        let on_load = props.on_action.reform({
            let id = id.to_string();
            move |_| Action::LoadPublishedPlan(id.clone())
        });
        Some(html! {
            <button type="button" class="published" data-testid="load-published-plan" onclick={on_load}>
                { fill("form.load-published", &[("name", name), ("plan", &plan_summary(&inputs, &chip))]) }
            </button>
        })
    });
    let n = |x: Option<u32>| x.map(|v| v as f64);
    let moe = shape.and_then(|t| t.moe);
    html! {
        <section class="panel">
            <h2>{ t("form.model") }</h2>
            <SelectField testid="model-preset" label={t("form.transformer")} options={options}
                value={preset.unwrap_or_else(|| "custom".into())}
                detail={html! { <>{ detail.unwrap_or_default() }{ for source_line.map(|s| html! { <><br />{ s }</> }) }</> }}
                errors={f.errors("model.preset")} on_change={on_preset} />
            { for published }
            <div class="grid">
                { f.render(f.number(&fields::MODEL_LAYERS, "layers", n(shape.map(|t| t.n_layers)))) }
                { f.render(f.number(&fields::MODEL_HIDDEN, "hidden", n(shape.map(|t| t.hidden)))) }
                { f.render(f.number(&fields::MODEL_HEADS, "heads", n(shape.map(|t| t.n_heads)))) }
                { f.render(f.number(&fields::MODEL_KV_HEADS, "kv-heads", n(shape.map(|t| t.n_kv_heads)))) }
                { f.render(f.number(&fields::MODEL_FFN, "ffn", n(shape.map(|t| t.ffn)))) }
                { f.render(f.number(&fields::MODEL_VOCAB, "vocab", n(shape.map(|t| t.vocab)))) }
            </div>
            { f.render(f.number(&fields::MODEL_SEQ_LEN, "seq-len", n(shape.map(|t| t.seq_len))).slider(Slider::Pow2 { min: 9, max: 20 })) }
            <div class="grid">
                { f.choice(&fields::MODEL_FFN_ACT, "ffn-act", shape.map_or(FfnKind::Gelu, |t| t.ffn_kind)) }
                { attention_choice(&f, shape.as_ref()) }
            </div>
            { layers::pattern_field(&f, shape.as_ref()) }
            if shape.is_some_and(|t| t.mla.is_some()) {
                <div class="grid">
                    { for [&fields::MODEL_MLA_Q_LORA_RANK, &fields::MODEL_MLA_KV_LORA_RANK, &fields::MODEL_MLA_ROPE_HEAD_DIM,
                        &fields::MODEL_MLA_V_HEAD_DIM].into_iter().map(|field| {
                        let value = shape.and_then(|t| t.mla).map(|m| match field.path {
                            "model.mla.q_lora_rank" => m.q_lora_rank,
                            "model.mla.kv_lora_rank" => m.kv_lora_rank,
                            "model.mla.rope_head_dim" => m.rope_head_dim,
                            _ => m.v_head_dim,
                        });
                        f.render(f.number(field, &field.testid(), n(value)))
                    }) }
                </div>
            }
            { layers::object_toggle(&f, state::Block::Moe, "moe", t("form.moe"), moe.is_some()) }
            if let Some(m) = moe {
                <div class="grid">
                    { f.render(f.number(&fields::MODEL_MOE_EXPERTS, "experts", Some(m.n_experts as f64))) }
                    { f.render(f.number(&fields::MODEL_MOE_TOP_K, "top-k", Some(m.top_k as f64))) }
                    { f.render(f.number(&fields::MODEL_MOE_SHARED_EXPERTS, "shared-experts", Some(m.n_shared_experts as f64))) }
                    { f.render(f.number(&fields::MODEL_MOE_EXPERT_FFN, "expert-ffn", Some(m.expert_ffn as f64))) }
                    { f.render(f.number(&fields::MODEL_MOE_DENSE_LAYERS, "dense-layers", Some(m.n_dense_layers as f64))) }
                </div>
            }
            { layers::vision_fields(&f, shape.as_ref()) }
            { layers::prompt_fields(&f, shape.as_ref()) }
        </section>
    }
}

/// A chip's name without its maker, as plans are spoken of ("H800").
fn short_chip(name: &str) -> String {
    let name = name.strip_prefix("NVIDIA ").unwrap_or(name);
    name.split_whitespace().next().unwrap_or(name).to_string()
}

/// The attention select: its kernel, or `mla` for multi-head latent attention, whose kernel is
/// the fused one.
fn attention_choice(f: &Form, shape: Option<&crate::model::Transformer>) -> Html {
    let code = match shape {
        Some(t) if t.mla.is_some() => "mla",
        Some(t) => fields::MODEL_ATTENTION.code(t.attention),
        None => fields::MODEL_ATTENTION.code(AttentionImpl::Flash),
    };
    // `mla` names the fused kernel too, so the table offers it only as an alias.
    let mut options = fields::MODEL_ATTENTION.offered();
    options.push("mla");
    f.select(fields::MODEL_ATTENTION.path, "attention", &options, code)
}
