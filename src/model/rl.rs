//! Reinforcement-learning post-training: each step generates samples with the policy (the
//! serving model at its batch), scores them with the reference and reward models, trains the
//! policy (the training model's own step) and hands the new weights to the generators.
//!
//! Synchronous and on-policy, as verl, OpenRLHF and NeMo-RL run PPO and GRPO by default: the
//! phases follow one another, so the step is their sum. Every sample is generated to the
//! generation budget (the step waits for its longest sample) and trained padded to the
//! model's sequence length, so a longer generation lengthens generation and not training.

use crate::model::serving::{self, Prices, Serving};
use crate::model::{finite, Estimate, Inputs};

/// What the user asks of post-training.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rl {
    /// Prompts each RL step draws.
    pub prompts_per_step: u32,
    /// Samples generated for each prompt (GRPO's group).
    pub samples_per_prompt: u32,
    /// Prompt tokens per sample.
    pub prompt_tokens: f64,
    /// Tokens generated per sample, at most.
    pub generation_tokens: f64,
    /// Passes of policy training over each step's samples (PPO epochs).
    pub epochs: u32,
    /// RL steps of the run.
    pub steps: u32,
    /// Generation runs on the training chips, in turn with training (verl's hybrid engine).
    pub colocated: bool,
    /// Chips that generate when not colocated; the training plan keeps its own.
    pub generation_chips: u32,
    /// A frozen reference model scores every sample (its KL term).
    pub reference: bool,
    /// A reward model scores every sample; without, the reward is a rule.
    pub reward_model: bool,
    /// A critic is trained beside the policy (PPO); GRPO has none.
    pub critic: bool,
    /// How the generators serve: their deployment and formats (the `serving` section's, or the
    /// smallest instance that holds the policy).
    pub generation: Serving,
}

/// One RL step, in parts that sum to it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RlEstimate {
    /// Generating every sample, seconds.
    pub generation_s: f64,
    /// Scoring them with the reference and reward models, seconds.
    pub scoring_s: f64,
    /// Training the policy (and critic), seconds.
    pub training_s: f64,
    /// Moving the new weights to the generators, seconds.
    pub handoff_s: f64,
    /// The step, seconds.
    pub step_s: f64,
    /// Share of the step spent generating.
    pub generation_share: f64,
    /// Share of the chips' time idle: generators waiting for training and trainers for
    /// generation when they are apart.
    pub idle_share: f64,
    /// Days of the run's steps.
    pub days: f64,
    /// Sequences each generating instance runs at once.
    pub batch: u32,
    /// Chips that generate.
    pub generation_chips: u64,
    /// Problems, worded by the caller.
    pub problems: Vec<Problem>,
}

/// Why an RL step cannot run as asked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Problem {
    /// A sample is longer than the sequences the policy trains on.
    SampleTooLong { tokens: f64, seq_len: u32 },
    /// The generators cannot hold one sample (`serving::Problem::DoesNotFit`).
    GenerationDoesNotFit,
    /// Fewer generating chips than one instance.
    TooFewGenerationChips { have: u64, need: u32 },
}

/// Post-training as `inputs` ask it (`Inputs::rl`), its training step that of `estimate`;
/// `None` when they ask none.
pub fn of(inputs: &Inputs, estimate: &Estimate) -> Option<RlEstimate> {
    let rl = inputs.rl?;
    Some(self::estimate(inputs, estimate, &rl, &Prices::of(inputs, estimate)))
}

/// One RL step of `rl` on `inputs`'s cluster, its training step that of `estimate`.
pub fn estimate(inputs: &Inputs, estimate: &Estimate, rl: &Rl, prices: &Prices) -> RlEstimate {
    let serving = &rl.generation;
    let t = &inputs.transformer;
    let mut problems = Vec::new();
    let samples = rl.prompts_per_step.max(1) as f64 * rl.samples_per_prompt.max(1) as f64;
    let (prompt, generation) = (rl.prompt_tokens.max(1.0), rl.generation_tokens.max(1.0));
    if prompt + generation > t.seq_len as f64 {
        problems.push(Problem::SampleTooLong { tokens: prompt + generation, seq_len: t.seq_len });
    }

    // Generation: the serving model with the samples' shape, every instance's batch as large as
    // its cache allows, no latency target.
    let generating = Serving {
        input_tokens: prompt,
        output_tokens: generation,
        ttft_s: f64::MAX,
        tpot_s: f64::MAX,
        requests_per_s: 0.0,
        disaggregated: false,
        continuous_batching: true,
        concurrency: 0,
        ..*serving
    };
    let kernel = inputs.cluster.chip.matmul_efficiency;
    let served = serving::estimate(t, &inputs.cluster, &generating, kernel, prices);
    let instance = served.decode.chips().max(1);
    let chips =
        if rl.colocated { estimate.chips_used.max(1) as u64 } else { rl.generation_chips as u64 };
    let instances = chips / instance as u64;
    if instances == 0 {
        problems.push(Problem::TooFewGenerationChips { have: chips, need: instance });
    }
    if served.max_batch == 0 {
        problems.push(Problem::GenerationDoesNotFit);
    }
    let per_instance = (samples / instances.max(1) as f64).ceil();
    let batch = (served.max_batch.max(1) as f64).min(per_instance).max(1.0);
    let rounds = (per_instance / batch).ceil();
    let per_round = generating.chunk() * served.decode.dp.max(1) as f64;
    let prefill_s = (batch * prompt / per_round).ceil() * served.prefill_round_s;
    let step = serving::decode_step_at(t, &inputs.cluster, &generating, kernel, batch as u32);
    let generation_s = finite(rounds * (prefill_s + generation * step.total()));

    // Training: the policy's steps over the samples, padded to its sequences.
    let global_batch = inputs.training.global_batch.max(1) as f64;
    let policy_s = rl.epochs.max(1) as f64 * (samples / global_batch).ceil() * estimate.step_s;
    // A forward pass over every sample on the training plan, with nothing stored, recomputed
    // or reduced for a backward pass (`Estimate::forward_s`).
    let forward_s = (samples / global_batch).ceil() * estimate.forward_s;
    let critic = if rl.critic { policy_s + forward_s } else { 0.0 };
    let training_s = finite(policy_s + critic);
    // Scoring: a forward pass of each scoring model over every sample.
    let scorers = rl.reference as u32 + rl.reward_model as u32;
    let scoring_s = finite(scorers as f64 * forward_s);

    // Hand-off: the new weights to every generating instance, over the scale-up links on the
    // same chips (resharding), over the NICs to chips apart (a broadcast each instance's chips
    // receive in parallel).
    let bytes = t.params() * serving.weights.bytes();
    let c = &inputs.cluster;
    let link = if rl.colocated { c.scale_up.link } else { c.scale_out };
    let handoff_s =
        finite(link.latency_s + bytes / (link.achievable_bytes_per_s() * instance as f64).max(1.0));

    let step_s = generation_s + scoring_s + training_s + handoff_s;
    let trainers = estimate.chips_used.max(1) as f64;
    let idle_share = if rl.colocated || step_s <= 0.0 {
        0.0
    } else {
        let g = chips as f64;
        (g * (step_s - generation_s) + trainers * (step_s - training_s - scoring_s))
            / ((g + trainers) * step_s)
    };
    RlEstimate {
        generation_s,
        scoring_s,
        training_s,
        handoff_s,
        step_s: finite(step_s),
        generation_share: if step_s > 0.0 { finite(generation_s / step_s) } else { 0.0 },
        idle_share: finite(idle_share),
        days: finite(rl.steps as f64 * step_s / 86_400.0),
        batch: batch as u32,
        generation_chips: chips,
        problems,
    }
}
