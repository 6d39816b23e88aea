//! The serving and post-training panel: off until the user turns either on, then its requests,
//! targets, load, formats and deployment, and RL's step. Its number fields are tables walked
//! by one loop, so each costs the page's download a row, not a field's code.

use yew::prelude::*;

use super::layers::object_toggle;
use super::{Form, PanelProps};
use crate::app::state::Block;
use crate::model::rl::Rl;
use crate::model::serving::{Engine, Mix, Precision, Serving};
use crate::scenario::fields::{self, Field};
use crate::text::t;

/// A number field of a section, its `data-testid` and its resolved value in SI units.
type Row<T> = (&'static Field, &'static str, fn(&T) -> Option<f64>);

const REQUESTS: [Row<Serving>; 11] = [
    (&fields::SERVING_INPUT_TOKENS, "serving-input-tokens", |s| Some(s.input_tokens)),
    (&fields::SERVING_OUTPUT_TOKENS, "serving-output-tokens", |s| Some(s.output_tokens)),
    (&fields::SERVING_OUTPUT_SPREAD, "serving-output-spread", |s| Some(s.output_spread)),
    (&fields::SERVING_TTFT_MS, "serving-ttft-ms", |s| Some(s.ttft_s)),
    (&fields::SERVING_TPOT_MS, "serving-tpot-ms", |s| Some(s.tpot_s)),
    (&fields::SERVING_REQUESTS_PER_S, "serving-requests-per-s", |s| Some(s.requests_per_s)),
    (&fields::SERVING_TOKENS_PER_DAY, "serving-tokens-per-day", |_| None),
    (&fields::SERVING_MAX_BATCH, "serving-max-batch", |s| {
        (s.max_batch > 0).then_some(s.max_batch as f64)
    }),
    (&fields::SERVING_UTILISATION, "serving-utilisation", |s| Some(s.utilisation)),
    (&fields::SERVING_CONCURRENCY, "serving-concurrency", |s| Some(s.concurrency as f64)),
    (&fields::SERVING_MAX_TOKENS, "serving-max-tokens", |s| Some(s.chunk())),
];

const DECODE: [Row<Serving>; 4] = [
    (&fields::SERVING_TP, "serving-tp", |s| Some(s.decode.tp as f64)),
    (&fields::SERVING_DP, "serving-dp", |s| Some(s.decode.dp as f64)),
    (&fields::SERVING_EP, "serving-ep", |s| Some(s.decode.ep as f64)),
    (&fields::SERVING_EXPERT_TP, "serving-expert-tp", |s| Some(s.decode.etp as f64)),
];

const PREFILL: [Row<Serving>; 6] = [
    (&fields::SERVING_PREFILL_TP, "serving-prefill-tp", |s| Some(s.prefill.tp as f64)),
    (&fields::SERVING_PREFILL_DP, "serving-prefill-dp", |s| Some(s.prefill.dp as f64)),
    (&fields::SERVING_PREFILL_EP, "serving-prefill-ep", |s| Some(s.prefill.ep as f64)),
    (&fields::SERVING_PREFILL_EXPERT_TP, "serving-prefill-expert-tp", |s| {
        Some(s.prefill.etp as f64)
    }),
    (&fields::SERVING_PREFILL_INSTANCES, "serving-prefill-instances", |s| {
        (s.prefill_instances > 0).then_some(s.prefill_instances as f64)
    }),
    (&fields::SERVING_DECODE_INSTANCES, "serving-decode-instances", |s| {
        (s.decode_instances > 0).then_some(s.decode_instances as f64)
    }),
];

/// Speculative decoding and the prompt cache.
const SPEEDUPS: [Row<Serving>; 3] = [
    (&fields::SERVING_DRAFT_TOKENS, "serving-draft-tokens", |s| Some(s.draft_tokens as f64)),
    (&fields::SERVING_ACCEPTANCE_LENGTH, "serving-acceptance-length", |s| {
        Some(s.tokens_per_step())
    }),
    (&fields::SERVING_PREFIX_HIT_RATE, "serving-prefix-hit-rate", |s| Some(s.prefix_hit_rate)),
];

/// Weights kept in the host's memory.
const MEMORY: [Row<Serving>; 1] =
    [(&fields::SERVING_OFFLOAD_GB, "serving-offload-gb", |s| Some(s.offload_bytes))];

const STEP: [Row<Rl>; 6] = [
    (&fields::RL_PROMPTS_PER_STEP, "rl-prompts-per-step", |r| Some(r.prompts_per_step as f64)),
    (&fields::RL_SAMPLES_PER_PROMPT, "rl-samples-per-prompt", |r| {
        Some(r.samples_per_prompt as f64)
    }),
    (&fields::RL_PROMPT_TOKENS, "rl-prompt-tokens", |r| Some(r.prompt_tokens)),
    (&fields::RL_GENERATION_TOKENS, "rl-generation-tokens", |r| Some(r.generation_tokens)),
    (&fields::RL_EPOCHS, "rl-epochs", |r| Some(r.epochs as f64)),
    (&fields::RL_STEPS, "rl-steps", |r| Some(r.steps as f64)),
];

const APART: [Row<Rl>; 1] =
    [(&fields::RL_GENERATION_CHIPS, "rl-generation-chips", |r| Some(r.generation_chips as f64))];

/// A flag of a section, its `data-testid` and its resolved value.
type Flag<T> = (&'static Field, &'static str, fn(&T) -> bool);

const RL_FLAGS: [Flag<Rl>; 4] = [
    (&fields::RL_COLOCATED, "rl-colocated", |r| r.colocated),
    (&fields::RL_REFERENCE, "rl-reference", |r| r.reference),
    (&fields::RL_REWARD_MODEL, "rl-reward-model", |r| r.reward_model),
    (&fields::RL_CRITIC, "rl-critic", |r| r.critic),
];

/// The rows of `rows` as a grid of number fields, each showing `resolved`'s value.
fn grid<T: Copy>(f: &Form, rows: &[Row<T>], resolved: Option<T>) -> Html {
    html! {
        <div class="grid">
            { for rows.iter().map(|(field, id, get)| f.render(f.number(field, id, resolved.as_ref().and_then(get)))) }
        </div>
    }
}

/// Serving the model and post-training it on the cluster's chips.
pub fn serving_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let serving = f.good.and_then(|g| g.inputs.serving);
    let rl = f.good.and_then(|g| g.inputs.rl);
    let served = f.raw(crate::scenario::paths::SERVING).is_some();
    let tuned = f.raw(crate::scenario::paths::RL).is_some();
    let flag = |field: &'static Field, get: fn(&Serving) -> bool| {
        serving.map_or(field.fixed() > 0.5, |s| get(&s))
    };
    let apart = serving.is_some_and(|s| s.disaggregated);
    html! {
        <section class="panel" data-testid="serving-panel">
            <h2>{ t("form.serving") }</h2>
            { object_toggle(&f, Block::Serving, "serving-on", t("form.serving-on"), served) }
            if served {
                { f.choice(&fields::SERVING_MIX, "serving-mix", Mix::Conversation) }
                { grid(&f, &REQUESTS, serving) }
                { f.choice(&fields::SERVING_WEIGHTS, "serving-weights", serving.map_or(Precision::Fp8, |s| s.weights)) }
                { f.choice(&fields::SERVING_ATTENTION_WEIGHTS, "serving-attention-weights", serving.map_or(Precision::Fp8, |s| s.attention())) }
                { f.choice(&fields::SERVING_KV_CACHE, "serving-kv-cache", serving.map_or(Precision::Bf16, |s| s.kv_cache)) }
                { grid(&f, &MEMORY, serving) }
                { f.choice(&fields::SERVING_ENGINE, "serving-engine", serving.map_or(Engine::Any, |s| s.engine)) }
                { grid(&f, &DECODE, serving) }
                { grid(&f, &SPEEDUPS, serving) }
                { f.toggle(&fields::SERVING_DISAGGREGATED, "serving-disaggregated", apart) }
                if apart { { grid(&f, &PREFILL, serving) } }
                { f.toggle(&fields::SERVING_CONTINUOUS_BATCHING, "serving-continuous-batching",
                    flag(&fields::SERVING_CONTINUOUS_BATCHING, |s| s.continuous_batching)) }
                { f.toggle(&fields::SERVING_PORTABLE_KERNELS, "serving-portable-kernels",
                    flag(&fields::SERVING_PORTABLE_KERNELS, |s| s.portable_kernels)) }
                // Two micro-batches only overlap data-parallel attention with experts.
                if serving.is_some_and(|s| s.decode.dp > 1 && s.decode.ep > 1) {
                    { f.toggle(&fields::SERVING_TWO_BATCH_OVERLAP, "serving-two-batch-overlap",
                        flag(&fields::SERVING_TWO_BATCH_OVERLAP, |s| !s.single_batch)) }
                }
            }
            { object_toggle(&f, Block::Rl, "rl-on", t("form.rl-on"), tuned) }
            if tuned {
                { grid(&f, &STEP, rl) }
                if rl.is_some_and(|r| !r.colocated) { { grid(&f, &APART, rl) } }
                { for RL_FLAGS.iter().map(|(field, id, get)| {
                    f.toggle(field, id, rl.as_ref().map_or(field.fixed() > 0.5, get))
                }) }
            }
        </section>
    }
}
