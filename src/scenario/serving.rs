//! The `serving` and `rl` sections read into the model's `Serving` and `Rl`: each key is a field
//! or a choice of the table, read through it, and any other key is reported; the defaults that
//! depend on the model and the chip (the weights' format, the smallest instance that holds the
//! model, the mix's request shape) are filled in here.

use std::collections::BTreeMap;

use super::resolve::{clip, leaf, Reader};
use super::{fields, Problem, Raw, Scenario};
use crate::model::rl::Rl;
use crate::model::serving::{Deployment, Engine, Mix, Precision, Serving};
use crate::model::Inputs;
use serde_json::Value;

impl Scenario {
    /// The serving the scenario asks, `None` without a `serving` section (an empty one asks at
    /// the defaults).
    pub(super) fn resolve_serving(&self, r: &mut Reader, inputs: &Inputs) -> Option<Serving> {
        if self.serving.is_empty() && !self.asked_empty.contains(&"serving") {
            return None;
        }
        Some(self.read_serving(r, inputs))
    }

    /// Post-training as the scenario asks, `None` without an `rl` section (an empty one asks at
    /// the defaults); its generators
    /// serve as the `serving` section says, or by its defaults.
    pub(super) fn resolve_rl(&self, r: &mut Reader, inputs: &Inputs) -> Option<Rl> {
        let spec = &self.rl;
        if spec.is_empty() && !self.asked_empty.contains(&"rl") {
            return None;
        }
        unknown(r, "rl", &spec.others, &[]);
        let get = |path: &str| -> Raw { spec.others.get(leaf(path)).cloned() };
        let count = |r: &mut Reader, raw: &Raw, field: &fields::Field| {
            r.count(raw, field, Some(field.fixed() as u32))
        };
        let tokens = |r: &mut Reader, raw: &Raw, field: &fields::Field| {
            r.count(raw, field, Some(field.fixed() as u32)) as f64
        };
        let flag = |r: &mut Reader, raw: &Raw, field: &fields::Field| {
            r.flag(raw, field, field.fixed() > 0.5)
        };
        let mut generation = self.read_serving(r, inputs);
        generation.requests_per_s = 0.0;
        let prompt_tokens =
            tokens(r, &get(fields::RL_PROMPT_TOKENS.path), &fields::RL_PROMPT_TOKENS);
        // A default sample fits the sequence the policy trains on; a typed one longer is a
        // problem the estimate names.
        let room = (inputs.transformer.seq_len as f64 - prompt_tokens).max(1.0);
        let usual = fields::RL_GENERATION_TOKENS_USUAL.min(room) as u32;
        let generation_tokens = r.count(
            &get(fields::RL_GENERATION_TOKENS.path),
            &fields::RL_GENERATION_TOKENS,
            Some(usual),
        ) as f64;
        Some(Rl {
            prompts_per_step: count(
                r,
                &get(fields::RL_PROMPTS_PER_STEP.path),
                &fields::RL_PROMPTS_PER_STEP,
            ),
            samples_per_prompt: count(
                r,
                &get(fields::RL_SAMPLES_PER_PROMPT.path),
                &fields::RL_SAMPLES_PER_PROMPT,
            ),
            prompt_tokens,
            generation_tokens,
            epochs: count(r, &get(fields::RL_EPOCHS.path), &fields::RL_EPOCHS),
            steps: count(r, &get(fields::RL_STEPS.path), &fields::RL_STEPS),
            colocated: flag(r, &get(fields::RL_COLOCATED.path), &fields::RL_COLOCATED),
            generation_chips: r.count(
                &get(fields::RL_GENERATION_CHIPS.path),
                &fields::RL_GENERATION_CHIPS,
                Some(inputs.cluster.n_chips.max(1)),
            ),
            reference: flag(r, &get(fields::RL_REFERENCE.path), &fields::RL_REFERENCE),
            reward_model: flag(r, &get(fields::RL_REWARD_MODEL.path), &fields::RL_REWARD_MODEL),
            critic: flag(r, &get(fields::RL_CRITIC.path), &fields::RL_CRITIC),
            generation,
        })
    }

    fn read_serving(&self, r: &mut Reader, inputs: &Inputs) -> Serving {
        let spec = &self.serving;
        let choices = [
            fields::SERVING_MIX.path,
            fields::SERVING_WEIGHTS.path,
            fields::SERVING_ATTENTION_WEIGHTS.path,
            fields::SERVING_KV_CACHE.path,
            fields::SERVING_ENGINE.path,
        ];
        unknown(r, "serving", &spec.others, &choices);
        let get = |path: &str| -> Raw { spec.others.get(leaf(path)).cloned() };
        let chip = &inputs.cluster.chip;
        let mix = r.choice(&get(fields::SERVING_MIX.path), &fields::SERVING_MIX, Mix::Conversation);
        let (mix_in, mix_out) = mix.tokens();
        let input_tokens = r.count(
            &get(fields::SERVING_INPUT_TOKENS.path),
            &fields::SERVING_INPUT_TOKENS,
            Some(mix_in as u32),
        ) as f64;
        let output_tokens = r.count(
            &get(fields::SERVING_OUTPUT_TOKENS.path),
            &fields::SERVING_OUTPUT_TOKENS,
            Some(mix_out as u32),
        ) as f64;
        // The mix's spread where its lengths are the mix's, else requests of one length.
        let typed = get(fields::SERVING_OUTPUT_TOKENS.path).is_some();
        let output_spread = match &get(fields::SERVING_OUTPUT_SPREAD.path) {
            None | Some(Value::Null) => {
                if typed {
                    0.0
                } else {
                    mix.spread()
                }
            }
            Some(v) => r.non_negative(v, &fields::SERVING_OUTPUT_SPREAD),
        };
        let ms = |r: &mut Reader, raw: &Raw, field: &fields::Field| {
            field.to_si(r.positive(raw, field, Some(field.fixed())))
        };
        let ttft_s = ms(r, &get(fields::SERVING_TTFT_MS.path), &fields::SERVING_TTFT_MS);
        let tpot_s = ms(r, &get(fields::SERVING_TPOT_MS.path), &fields::SERVING_TPOT_MS);
        let own = if chip.fp8_flops_per_s > 0.0 { Precision::Fp8 } else { Precision::Bf16 };
        let weights = r.choice(&get(fields::SERVING_WEIGHTS.path), &fields::SERVING_WEIGHTS, own);
        // A mixed-precision checkpoint's attention, else the weights' format.
        let attention_weights = match &get(fields::SERVING_ATTENTION_WEIGHTS.path) {
            None | Some(Value::Null) => None,
            raw => Some(r.choice(raw, &fields::SERVING_ATTENTION_WEIGHTS, weights)),
        };
        let kv_cache = r.choice(
            &get(fields::SERVING_KV_CACHE.path),
            &fields::SERVING_KV_CACHE,
            Precision::Bf16,
        );
        let requests_per_s = match (
            &get(fields::SERVING_REQUESTS_PER_S.path),
            &get(fields::SERVING_TOKENS_PER_DAY.path),
        ) {
            (Some(v), _) => r.non_negative(v, &fields::SERVING_REQUESTS_PER_S),
            (None, Some(v)) => {
                r.non_negative(v, &fields::SERVING_TOKENS_PER_DAY)
                    / 86_400.0
                    / (input_tokens + output_tokens)
            }
            (None, None) => 0.0,
        };
        let max_batch = match &get(fields::SERVING_MAX_BATCH.path) {
            None | Some(Value::Null) => 0,
            raw => r.count(raw, &fields::SERVING_MAX_BATCH, None),
        };
        let t = &inputs.transformer;
        let smallest = Deployment::smallest(t, chip, weights, inputs.cluster.rank_domain());
        let degrees = |r: &mut Reader,
                       raws: [&super::Raw; 4],
                       at: [&fields::Field; 4],
                       base: Deployment| {
            let tp = r.count(raws[0], at[0], Some(base.tp));
            let dp = r.count(raws[1], at[1], Some(base.dp));
            let moe = t.moe.is_some();
            let etp = if moe { r.count(raws[3], at[3], Some(base.etp.max(1))) } else { 1 };
            // Expert degree by default: every chip of the instance holds experts.
            let ep =
                if moe { r.count(raws[2], at[2], Some((tp * dp / etp.max(1)).max(1))) } else { 1 };
            Deployment { tp, dp, ep, etp }
        };
        let decode = degrees(
            r,
            [
                &get(fields::SERVING_TP.path),
                &get(fields::SERVING_DP.path),
                &get(fields::SERVING_EP.path),
                &get(fields::SERVING_EXPERT_TP.path),
            ],
            [
                &fields::SERVING_TP,
                &fields::SERVING_DP,
                &fields::SERVING_EP,
                &fields::SERVING_EXPERT_TP,
            ],
            smallest,
        );
        let prefill = degrees(
            r,
            [
                &get(fields::SERVING_PREFILL_TP.path),
                &get(fields::SERVING_PREFILL_DP.path),
                &get(fields::SERVING_PREFILL_EP.path),
                &get(fields::SERVING_PREFILL_EXPERT_TP.path),
            ],
            [
                &fields::SERVING_PREFILL_TP,
                &fields::SERVING_PREFILL_DP,
                &fields::SERVING_PREFILL_EP,
                &fields::SERVING_PREFILL_EXPERT_TP,
            ],
            decode,
        );
        let draft_tokens = r.count(
            &get(fields::SERVING_DRAFT_TOKENS.path),
            &fields::SERVING_DRAFT_TOKENS,
            Some(0),
        );
        let acceptance_length = match &get(fields::SERVING_ACCEPTANCE_LENGTH.path) {
            None | Some(Value::Null) => 0.0,
            Some(v) => r.non_negative(v, &fields::SERVING_ACCEPTANCE_LENGTH),
        };
        let prefix_hit_rate = match &get(fields::SERVING_PREFIX_HIT_RATE.path) {
            None | Some(Value::Null) => 0.0,
            Some(v) => r.non_negative(v, &fields::SERVING_PREFIX_HIT_RATE),
        };
        let offload_bytes = match &get(fields::SERVING_OFFLOAD_GB.path) {
            None | Some(Value::Null) => 0.0,
            Some(v) => {
                fields::SERVING_OFFLOAD_GB.to_si(r.non_negative(v, &fields::SERVING_OFFLOAD_GB))
            }
        };
        let max_tokens = r.count(
            &get(fields::SERVING_MAX_TOKENS.path),
            &fields::SERVING_MAX_TOKENS,
            Some(fields::SERVING_MAX_TOKENS.fixed() as u32),
        ) as f64;
        let concurrency =
            r.count(&get(fields::SERVING_CONCURRENCY.path), &fields::SERVING_CONCURRENCY, Some(0));
        let instances = |r: &mut Reader, field: &fields::Field| match &get(field.path) {
            None | Some(Value::Null) => 0,
            raw => r.count(raw, field, None),
        };
        let prefill_instances = instances(r, &fields::SERVING_PREFILL_INSTANCES);
        let decode_instances = instances(r, &fields::SERVING_DECODE_INSTANCES);
        let flag = |r: &mut Reader, raw: &Raw, field: &fields::Field| {
            r.flag(raw, field, field.fixed() > 0.5)
        };
        let utilisation = &fields::SERVING_UTILISATION;
        let family = self.chip_preset().map(|c| c.family);
        let engine = r.choice(
            &get(fields::SERVING_ENGINE.path),
            &fields::SERVING_ENGINE,
            Engine::usual(family),
        );
        // A measured benchmark's share (`measure::fit_serving`), else the fitted one of the
        // chip family and engine.
        let kernel_share = match &get(fields::SERVING_KERNEL_SHARE.path) {
            None | Some(Value::Null) => crate::model::presets::serving_share(family, engine),
            Some(v) => r.non_negative(v, &fields::SERVING_KERNEL_SHARE),
        };
        Serving {
            input_tokens,
            output_tokens,
            ttft_s,
            tpot_s,
            requests_per_s,
            weights,
            attention_weights,
            kv_cache,
            max_batch,
            decode,
            prefill,
            disaggregated: flag(
                r,
                &get(fields::SERVING_DISAGGREGATED.path),
                &fields::SERVING_DISAGGREGATED,
            ),
            continuous_batching: flag(
                r,
                &get(fields::SERVING_CONTINUOUS_BATCHING.path),
                &fields::SERVING_CONTINUOUS_BATCHING,
            ),
            portable_kernels: flag(
                r,
                &get(fields::SERVING_PORTABLE_KERNELS.path),
                &fields::SERVING_PORTABLE_KERNELS,
            ),
            single_batch: !flag(
                r,
                &get(fields::SERVING_TWO_BATCH_OVERLAP.path),
                &fields::SERVING_TWO_BATCH_OVERLAP,
            ),
            utilisation: r.fraction(&get(fields::SERVING_UTILISATION.path), utilisation, 0.0),
            draft_tokens,
            acceptance_length,
            prefix_hit_rate,
            engine,
            kernel_share,
            expert_share: crate::model::presets::serving_expert_share(family),
            latent_share: crate::model::presets::serving_latent_share(family),
            offload_bytes,
            output_spread,
            max_tokens,
            prefill_instances,
            decode_instances,
            concurrency,
        }
    }
}

/// Reports each key of `section` that is neither a field of the table nor one of `choices`.
fn unknown(r: &mut Reader, section: &str, keys: &BTreeMap<String, Value>, choices: &[&str]) {
    for key in keys.keys() {
        let path = format!("{section}.{}", clip(key));
        if fields::field(&path).is_none() && !choices.contains(&path.as_str()) {
            r.error(&path, Problem::UnknownKey);
        }
    }
}
