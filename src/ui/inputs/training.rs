//! The training panel: token budget, global batch, precision recipe and gradients' datatype.

use yew::prelude::*;

use crate::text::{fill, t};

use super::{Form, PanelProps};
use crate::format;
use crate::model::{Grads, Recipe, Weights};
use crate::scenario::fields;
use crate::ui::fields::Slider;

/// Token budget, batch, precision.
pub fn training_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let i = f.good.map(|g| g.inputs);
    let tokens = i.map(|i| i.training.tokens);
    let batch = i.map(|i| i.training.global_batch as f64);
    let per_step = i.map(|i| i.training.global_batch as f64 * i.transformer.seq_len as f64);
    let recipe = i.map_or(Recipe::MegatronBf16, |i| i.training.recipe);
    let grads = i.map_or(Grads::Fp32, |i| i.training.grads);
    let weights = i.map_or(Weights::Mixed, |i| i.training.weights);
    // The largest batch the search and sizing may raise to: typed, or published practice.
    let largest = i.map(|i| i.max_batch_sequences() as f64 * i.transformer.seq_len.max(1) as f64);
    let largest_sequences = i.map(|i| i.max_batch_sequences() as f64);
    html! {
        <section class="panel">
            <h2>{ t("form.training") }</h2>
            { f.render(f.number(&fields::TRAINING_TOKENS, "tokens", tokens).slider(Slider::Log10 { min: 9, max: 14 })
                .reading(tokens.map(|n| fill("form.tokens", &[("n", &format::count(n))])).unwrap_or_default())) }
            { f.render(f.number(&fields::TRAINING_GLOBAL_BATCH, "global-batch", batch).slider(Slider::Pow2 { min: 0, max: 16 })
                .reading(per_step.map(|n| fill("form.tokens-per-step", &[("n", &format::count(n))])).unwrap_or_default())) }
            { f.render(f.number(&fields::TRAINING_MAX_GLOBAL_BATCH_TOKENS, "max-global-batch-tokens", largest)
                .reading(largest_sequences.map(|n| fill("form.largest-batch", &[("n", &crate::numbers::format(n))])).unwrap_or_default())) }
            { f.choice(&fields::TRAINING_RECIPE, "recipe", recipe) }
            { f.choice(&fields::TRAINING_GRADS, "grads", grads) }
            { f.choice(&fields::TRAINING_WEIGHTS, "weights", weights) }
        </section>
    }
}
