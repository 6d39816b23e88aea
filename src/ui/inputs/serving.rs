//! The serving and post-training panel: off until the user turns either on, then its requests,
//! targets, load, formats and deployment, and RL's step.

use yew::prelude::*;

use super::layers::object_toggle;
use super::{Form, PanelProps};
use crate::editor::Block;
use crate::model::serving::{Mix, Precision, Serving};
use crate::scenario::fields;
use crate::text::t;

/// Serving the model and post-training it on the cluster's chips.
pub fn serving_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let serving = f.good.and_then(|g| g.inputs.serving);
    let rl = f.good.and_then(|g| g.inputs.rl);
    let served = f.raw("serving").is_some();
    let tuned = f.raw("rl").is_some();
    html! {
        <section class="panel" data-testid="serving-panel">
            <h2>{ t("form.serving") }</h2>
            { object_toggle(&f, Block::Serving, "serving-on", t("form.serving-on"), served) }
            if served { { serving_fields(&f, serving) } }
            { object_toggle(&f, Block::Rl, "rl-on", t("form.rl-on"), tuned) }
            if tuned { { rl_fields(&f, rl) } }
        </section>
    }
}

fn serving_fields(f: &Form, s: Option<Serving>) -> Html {
    let number = |field: &'static fields::Field, testid: &str, x: Option<f64>| {
        f.render(f.number(field, testid, x))
    };
    let degree = |field: &'static fields::Field, testid: &str, x: Option<u32>| {
        number(field, testid, x.map(f64::from))
    };
    let weights = s.map_or(Precision::Fp8, |s| s.weights);
    let kv = s.map_or(Precision::Bf16, |s| s.kv_cache);
    let apart = s.is_some_and(|s| s.disaggregated);
    html! {
        <>
            { f.choice(&fields::SERVING_MIX, "serving-mix", Mix::Conversation) }
            <div class="grid">
                { number(&fields::SERVING_INPUT_TOKENS, "serving-input-tokens", s.map(|s| s.input_tokens)) }
                { number(&fields::SERVING_OUTPUT_TOKENS, "serving-output-tokens", s.map(|s| s.output_tokens)) }
                { number(&fields::SERVING_TTFT_MS, "serving-ttft-ms", s.map(|s| s.ttft_s)) }
                { number(&fields::SERVING_TPOT_MS, "serving-tpot-ms", s.map(|s| s.tpot_s)) }
                { number(&fields::SERVING_REQUESTS_PER_S, "serving-requests-per-s", s.map(|s| s.requests_per_s)) }
                { number(&fields::SERVING_TOKENS_PER_DAY, "serving-tokens-per-day", None) }
                { number(&fields::SERVING_MAX_BATCH, "serving-max-batch", s.and_then(|s| (s.max_batch > 0).then_some(s.max_batch as f64))) }
                { number(&fields::SERVING_UTILISATION, "serving-utilisation", s.map(|s| s.utilisation)) }
            </div>
            { f.choice(&fields::SERVING_WEIGHTS, "serving-weights", weights) }
            { f.choice(&fields::SERVING_KV_CACHE, "serving-kv-cache", kv) }
            <div class="grid">
                { degree(&fields::SERVING_TP, "serving-tp", s.map(|s| s.decode.tp)) }
                { degree(&fields::SERVING_DP, "serving-dp", s.map(|s| s.decode.dp)) }
                { degree(&fields::SERVING_EP, "serving-ep", s.map(|s| s.decode.ep)) }
            </div>
            { f.toggle(&fields::SERVING_DISAGGREGATED, "serving-disaggregated", apart) }
            if apart {
                <div class="grid">
                    { degree(&fields::SERVING_PREFILL_TP, "serving-prefill-tp", s.map(|s| s.prefill.tp)) }
                    { degree(&fields::SERVING_PREFILL_DP, "serving-prefill-dp", s.map(|s| s.prefill.dp)) }
                    { degree(&fields::SERVING_PREFILL_EP, "serving-prefill-ep", s.map(|s| s.prefill.ep)) }
                </div>
            }
            { f.toggle(&fields::SERVING_CONTINUOUS_BATCHING, "serving-continuous-batching",
                s.is_none_or(|s| s.continuous_batching)) }
        </>
    }
}

fn rl_fields(f: &Form, r: Option<crate::model::rl::Rl>) -> Html {
    let count = |field: &'static fields::Field, testid: &str, x: Option<f64>| {
        f.render(f.number(field, testid, x))
    };
    html! {
        <>
            <div class="grid">
                { count(&fields::RL_PROMPTS_PER_STEP, "rl-prompts-per-step", r.map(|r| r.prompts_per_step as f64)) }
                { count(&fields::RL_SAMPLES_PER_PROMPT, "rl-samples-per-prompt", r.map(|r| r.samples_per_prompt as f64)) }
                { count(&fields::RL_PROMPT_TOKENS, "rl-prompt-tokens", r.map(|r| r.prompt_tokens)) }
                { count(&fields::RL_GENERATION_TOKENS, "rl-generation-tokens", r.map(|r| r.generation_tokens)) }
                { count(&fields::RL_EPOCHS, "rl-epochs", r.map(|r| r.epochs as f64)) }
                { count(&fields::RL_STEPS, "rl-steps", r.map(|r| r.steps as f64)) }
            </div>
            { f.toggle(&fields::RL_COLOCATED, "rl-colocated", r.is_none_or(|r| r.colocated)) }
            if r.is_some_and(|r| !r.colocated) {
                <div class="grid">
                    { count(&fields::RL_GENERATION_CHIPS, "rl-generation-chips", r.map(|r| r.generation_chips as f64)) }
                </div>
            }
            { f.toggle(&fields::RL_REFERENCE, "rl-reference", r.is_none_or(|r| r.reference)) }
            { f.toggle(&fields::RL_REWARD_MODEL, "rl-reward-model", r.is_some_and(|r| r.reward_model)) }
            { f.toggle(&fields::RL_CRITIC, "rl-critic", r.is_some_and(|r| r.critic)) }
        </>
    }
}
