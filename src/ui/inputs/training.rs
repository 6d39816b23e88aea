//! The training panel: token budget, global batch and precision recipe.

use yew::prelude::*;

use super::{Form, PanelProps};
use crate::model::Recipe;
use crate::ui::fields::Slider;
use crate::ui::format;

/// Token budget, batch, precision.
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
