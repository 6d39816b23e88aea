//! The model's kinds of layers beyond a transformer's: the hybrid pattern with its Mamba-2
//! fields, the vision encoder, and a diffusion transformer's attention in both directions and
//! cross-attention to its prompt.

use crate::app::edits::Value;
use yew::prelude::*;

use super::Form;
use crate::app::state::{Block, Edit};
use crate::model::{LinearKind, MambaKind};
use crate::scenario::fields;
use crate::text::{fill, t};
use crate::ui::fields::{toggle_field, Change, ToggleFieldProps};

/// The hybrid pattern as text (`model.hybrid_pattern`: `M` Mamba-2, `*` attention, `-` MLP,
/// `E` experts), with what it makes in plain words; emptied, the model is a transformer again.
/// A hybrid's Mamba-2 fields follow.
pub(super) fn pattern_field(f: &Form, shape: Option<&crate::model::Transformer>) -> Html {
    let path = "model.hybrid_pattern";
    let value = f.raw_at(path).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let on_change = f.on_set.reform(move |e: Event| {
        let text = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
        let text = text.trim().to_string();
        vec![(path.to_string(), (!text.is_empty()).then_some(Value::String(text)))]
    });
    let hybrid = shape.and_then(|t| t.hybrid.map(|y| (t.n_layers, y)));
    let said = match hybrid {
        Some((layers, y)) => fill(
            "form.pattern-reads",
            &[
                ("layers", &layers.to_string()),
                ("mamba", &y.mamba.to_string()),
                ("attention", &y.attention.to_string()),
                ("linear", &y.linear.to_string()),
                ("mlp", &y.mlp.to_string()),
                ("moe", &y.moe.to_string()),
            ],
        ),
        None => t("form.pattern-none").to_string(),
    };
    let mamba = hybrid.filter(|(_, y)| y.mamba > 0).map(|(_, y)| {
        let m = y.mixer;
        let mut fields: Vec<(&'static fields::Field, u32)> = vec![
            (&fields::MODEL_MAMBA_STATE, m.state),
            (&fields::MODEL_MAMBA_HEADS, m.heads),
            (&fields::MODEL_MAMBA_HEAD_DIM, m.head_dim),
            (&fields::MODEL_MAMBA_CONV, m.conv),
        ];
        // Mamba-2's groups and chunks, or Mamba-1's step rank.
        match m.kind {
            MambaKind::Mamba2 => fields.extend([
                (&fields::MODEL_MAMBA_GROUPS, m.groups),
                (&fields::MODEL_MAMBA_CHUNK, m.chunk),
            ]),
            MambaKind::Mamba1 => fields.push((&fields::MODEL_MAMBA_DT_RANK, m.dt_rank)),
        }
        html! {
            <div class="grid">
                { f.choice(&fields::MODEL_MAMBA_KIND, "mamba-kind", m.kind) }
                { for fields.into_iter().map(|(field, v)| f.render(f.number(field, &format!("mamba-{}", field.testid()), Some(v as f64)))) }
            </div>
        }
    });
    let linear = hybrid.filter(|(_, y)| y.linear > 0).map(|(_, y)| {
        let l = y.linear_mixer;
        let mut rows: Vec<(&'static fields::Field, u32)> = vec![
            (&fields::MODEL_LINEAR_HEADS, l.heads),
            (&fields::MODEL_LINEAR_KEY_HEADS, l.key_heads),
            (&fields::MODEL_LINEAR_HEAD_DIM, l.head_dim),
            (&fields::MODEL_LINEAR_V_HEAD_DIM, l.v_head_dim),
            (&fields::MODEL_LINEAR_CHUNK, l.chunk),
        ];
        // Gated DeltaNet's short convolution, or RWKV-7's low-rank projections.
        rows.push(match l.kind {
            LinearKind::GatedDeltaNet => (&fields::MODEL_LINEAR_CONV, l.conv),
            LinearKind::Rwkv7 => (&fields::MODEL_LINEAR_LORA, l.lora),
        });
        html! {
            <div class="grid">
                { f.choice(&fields::MODEL_LINEAR_KIND, "linear-kind", l.kind) }
                { for rows.into_iter().map(|(field, v)| f.render(f.number(field, &format!("linear-{}", field.testid()), Some(v as f64)))) }
            </div>
        }
    });
    html! {
        <>
            <div class="field pattern">
                <label>
                    <span class="label">{ crate::app::words::label(path) }</span>
                    <input type="text" data-testid="hybrid-pattern" value={value}
                        placeholder={t("form.pattern-placeholder")} spellcheck="false" onchange={on_change} />
                </label>
                <p class="reading" data-testid="hybrid-reads">{ said }</p>
            </div>
            { crate::ui::fields::messages(&crate::ui::fields::MessagesProps {
                testid: "hybrid-pattern".into(), errors: f.errors(path), ..Default::default() }) }
            if let Some(mamba) = mamba { { mamba } }
            if let Some(linear) = linear { { linear } }
        </>
    }
}

/// The vision encoder: on or off (on starts from Qwen2-VL's 675M ViT and one 448 x 448 image a
/// sample), and its figures while on.
pub(super) fn vision_fields(f: &Form, shape: Option<&crate::model::Transformer>) -> Html {
    let vision = shape.and_then(|t| t.vision);
    let toggle = object_toggle(f, Block::Vision, "vision", t("form.vision"), vision.is_some());
    let figures = vision.map(|v| {
        let per_image = match f.raw(&fields::MODEL_VISION_IMAGES_PER_SAMPLE) {
            Some(_) => None,
            None => Some(v.tokens as f64),
        };
        // The encoder splits as the language model does unless told otherwise.
        let lm_tp = f.good.map(|g| g.inputs.parallelism.tensor);
        let tp = v.tp.or(lm_tp).map(|x| x as f64);
        let rows: [(&'static fields::Field, Option<f64>); 8] = [
            (&fields::MODEL_VISION_LAYERS, Some(v.layers as f64)),
            (&fields::MODEL_VISION_HIDDEN, Some(v.hidden as f64)),
            (&fields::MODEL_VISION_HEADS, Some(v.heads as f64)),
            (&fields::MODEL_VISION_FFN, Some(v.ffn as f64)),
            (&fields::MODEL_VISION_PATCH, Some(v.patch as f64)),
            (&fields::MODEL_VISION_IMAGE_TOKENS, per_image),
            (&fields::MODEL_VISION_IMAGES_PER_SAMPLE, Some(1.0)),
            (&fields::MODEL_VISION_TP, tp),
        ];
        html! {
            <div class="grid">
                { for rows.into_iter().map(|(field, v)| f.render(f.number(field, &format!("vision-{}", field.testid()), v))) }
            </div>
        }
    });
    html! {
        <>
            { toggle }
            if let Some(figures) = figures { { figures } }
        </>
    }
}

/// Attention in both directions (a diffusion transformer's), cross-attention to a prompt (on
/// starts from Wan 2.1's 512 umT5 tokens of 4,096) and a sliding window (on starts from
/// GPT-OSS's), each with its figures while on.
pub(super) fn prompt_fields(f: &Form, shape: Option<&crate::model::Transformer>) -> Html {
    let cross = shape.and_then(|t| t.cross);
    let toggle = object_toggle(
        f,
        Block::CrossAttention,
        "cross-attention",
        t("form.cross-attention"),
        cross.is_some(),
    );
    let figures = cross.map(|c| {
        counts_grid(
            f,
            "cross",
            [
                (&fields::MODEL_CROSS_ATTENTION_TOKENS, c.tokens),
                (&fields::MODEL_CROSS_ATTENTION_WIDTH, c.width),
            ],
        )
    });
    let window = shape.and_then(|t| t.window);
    let window_toggle =
        object_toggle(f, Block::Window, "window", t("form.window"), window.is_some());
    let window_figures = window.map(|w| {
        counts_grid(
            f,
            "window",
            [
                (&fields::MODEL_WINDOW_TOKENS, w.tokens),
                (&fields::MODEL_WINDOW_GLOBAL_EVERY, w.global_every),
            ],
        )
    });
    html! {
        <>
            { f.toggle(&fields::MODEL_CAUSAL, "causal", shape.is_none_or(|t| t.causal)) }
            { toggle }
            if let Some(figures) = figures { { figures } }
            { window_toggle }
            if let Some(figures) = window_figures { { figures } }
        </>
    }
}

/// A block's whole-number figures in a grid, each input's test id prefixed with the block's.
fn counts_grid<const N: usize>(
    f: &Form,
    prefix: &str,
    rows: [(&'static fields::Field, u32); N],
) -> Html {
    html! {
        <div class="grid">
            { for rows.into_iter().map(|(field, v)| f.render(f.number(field, &format!("{prefix}-{}", field.testid()), Some(v as f64)))) }
        </div>
    }
}

/// A toggle for an optional block of the model (`app::state::Block`), on from its starting
/// figures or off. It shows what the scenario says, or else whether the model has it.
pub(super) fn object_toggle(
    f: &Form,
    block: Block,
    testid: &'static str,
    label: &str,
    resolved: bool,
) -> Html {
    let path = block.path();
    let checked = match f.raw_at(path) {
        Some(Value::Object(_)) => true,
        Some(Value::Bool(false)) | Some(Value::Null) => false,
        _ => resolved,
    };
    let on_edit = f.on_edit.clone();
    let on_set = Callback::from(move |changes: Vec<Change>| {
        let on = changes.iter().any(|(_, v)| *v == Some(Value::Bool(true)));
        on_edit.emit(Edit::Block { block, on });
    });
    toggle_field(ToggleFieldProps {
        path: path.into(),
        testid: testid.into(),
        label: label.to_string().into(),
        checked,
        on_set,
        ..Default::default()
    })
}
