//! The analytical model: `estimate(&Inputs) -> Estimate`.
//!
//! Pure Rust with no dependencies beyond `std`. It knows nothing about the browser, serde,
//! URLs, files or plotting. `estimate` is total: it never panics, never returns NaN, and
//! reports infeasible plans (memory overflow, degrees that do not multiply) as `Warning`s
//! inside the result. No clock, no randomness: the same inputs give the same estimate.

mod bom;
pub mod calibrate;
pub mod collectives;
pub mod efficiency;
pub mod facility;
pub mod failures;
mod hardware;
mod memory;
pub mod network;
mod parallelism;
pub mod pools;
pub mod presets;
pub mod reliability;
pub mod rl;
pub mod search;
pub mod sensitivity;
pub mod serving;
pub mod sites;
mod stages;
mod step_time;
pub mod sweep;
pub mod timeline;
pub mod units;
mod warnings;
mod workload;
pub mod year;

pub use bom::{Bom, CABLE_TIERS};
pub use facility::{FacilityEstimate, Plant};
pub use hardware::{Chip, ClassBest, Cluster, Link, Network, ScaleUp, Switch, System};
pub use memory::{MemoryUse, Phase};
pub use parallelism::{
    CpKind, CrossEntropy, CudaGraphs, Dispatcher, GemmFormat, Grads, Parallelism, Recipe,
    Recompute, Sharding, Software, Stack, Training, Weights,
};
pub use reliability::{Confidence, Reliability, ReliabilityEstimate};
pub use step_time::{LinkTimes, StepBreakdown};
pub use warnings::{Severity, Warning};
pub use workload::{
    AttentionImpl, Cross, FfnKind, Hybrid, LinearKind, LinearMixer, Mamba, MambaKind, Mla, Moe,
    Transformer, Vision, Window,
};

/// Everything the model needs, validated by `scenario::Scenario::resolve`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inputs {
    /// The network being trained.
    pub transformer: Transformer,
    /// Token budget, batch and precision recipe.
    pub training: Training,
    /// The machine.
    pub cluster: Cluster,
    /// How the work is split.
    pub parallelism: Parallelism,
    /// The cluster as built: system, switch, bill of materials and site.
    pub plant: Plant,
    /// Failures, checkpoints and recovery.
    pub reliability: Reliability,
    /// Serving the model on the cluster, when asked.
    pub serving: Option<serving::Serving>,
    /// Reinforcement-learning post-training, when asked.
    pub rl: Option<rl::Rl>,
}

impl Inputs {
    /// GEMMs run in FP8: the FP8 recipe on a chip that has FP8 tensor units.
    pub fn fp8_active(&self) -> bool {
        self.training.recipe == Recipe::Fp8 && self.cluster.chip.fp8_flops_per_s > 0.0
    }

    /// The datatype linear-layer GEMMs run in: the recipe's, where the chip has its tensor
    /// units, else BF16.
    pub fn gemm_format(&self) -> GemmFormat {
        let chip = &self.cluster.chip;
        match self.training.recipe {
            Recipe::Fp8 if chip.fp8_flops_per_s > 0.0 => GemmFormat::Fp8,
            Recipe::Mxfp8 if chip.fp8_flops_per_s > 0.0 => GemmFormat::Mxfp8,
            Recipe::Nvfp4 if chip.fp4_flops_per_s > 0.0 => GemmFormat::Nvfp4,
            Recipe::Int8 if chip.int8_ops_per_s > 0.0 => GemmFormat::Int8,
            _ => GemmFormat::Bf16,
        }
    }

    /// The share of the chip's peaks its kernels reach on the plan's stack: the chip's best
    /// (`Chip::matmul_efficiency`) times the stack's share of it (`Software::kernel_share`).
    pub fn kernel_efficiency(&self) -> f64 {
        self.cluster.chip.matmul_efficiency.clamp(0.01, 1.0)
            * self.parallelism.software.kernel_share.clamp(0.05, 1.5)
    }

    /// The largest global batch the search may use, sequences: `Training::max_batch_tokens`,
    /// or published practice for the model's size (`parallelism::published_batch_tokens`),
    /// never below the typed batch.
    pub fn max_batch_sequences(&self) -> u32 {
        let t = &self.training;
        let tokens = if t.max_batch_tokens > 0.0 {
            t.max_batch_tokens
        } else {
            parallelism::published_batch_tokens(self.transformer.params())
        };
        let sequences = (tokens / self.transformer.seq_len.max(1) as f64).floor();
        (finite(sequences).min(u32::MAX as f64) as u32).max(t.global_batch.max(1))
    }

    /// The chip's fastest peak for the recipe's GEMMs, FLOP/s: what no plan's GEMMs beat.
    pub fn fastest_gemm_flops_per_s(&self) -> f64 {
        let chip = &self.cluster.chip;
        let low = match self.gemm_format() {
            GemmFormat::Bf16 => 0.0,
            GemmFormat::Fp8 | GemmFormat::Mxfp8 => chip.fp8_flops_per_s,
            GemmFormat::Nvfp4 => chip.fp4_flops_per_s,
            GemmFormat::Int8 => chip.int8_ops_per_s,
        };
        chip.bf16_flops_per_s.max(low)
    }
}

/// What a training plan costs. Every breakdown sums to its total.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Time of one optimizer step (one global batch), seconds.
    pub step_s: f64,
    /// Parts of `step_s`; they sum to it.
    pub breakdown: StepBreakdown,
    /// One forward pass over a step's tokens with no backward pass and no update, seconds:
    /// what evaluating as many tokens, or a scoring model's pass over a batch, costs on the
    /// plan (`step_time::forward_pass_s`).
    pub forward_s: f64,
    /// Time each parallel dimension keeps its links busy per step, seconds (hidden or not).
    pub link: LinkTimes,
    /// Memory per chip on the busiest pipeline stage.
    pub memory: MemoryUse,
    /// Model FLOPs utilisation: model FLOPs (Megatron-LM convention, causal attention counted
    /// once) per second over the BF16 dense peak of the chips the plan uses.
    pub mfu: f64,
    /// Hardware FLOPs utilisation: as `mfu`, plus the FLOPs of activation recomputation.
    pub hfu: f64,
    /// Tokens trained per second by the whole job.
    pub tokens_per_s: f64,
    /// Model FLOPs of one step.
    pub model_flops_per_step: f64,
    /// Executed FLOPs of one step (model FLOPs plus recomputation).
    pub hardware_flops_per_step: f64,
    /// Optimizer steps to train on `Training::tokens`.
    pub steps: f64,
    /// Wall-clock days of training at `step_s`, with no failures.
    pub train_days: f64,
    /// Chip-hours of the whole cluster (`Cluster::n_chips`) for the run.
    pub chip_hours: f64,
    /// Chips the plan uses: tensor x pipeline x data x context.
    pub chips_used: u32,
    /// Micro-batches each pipeline runs per step.
    pub n_microbatches: u32,
    /// Total parameters.
    pub params: f64,
    /// Parameters one token passes through.
    pub active_params: f64,
    /// False when the plan cannot run as written, does not fit in memory or never finishes;
    /// `problems` says which. The figures are kept for what-ifs.
    pub feasible: bool,
    /// What makes the plan impossible to run as written, to fit or to finish
    /// (`Severity::Problem`).
    pub problems: Vec<Warning>,
    /// What makes the plan suspicious: not fitting first, then waste, then advice.
    pub warnings: Vec<Warning>,
    /// How the model handled the plan where it had a choice (`Severity::Note`).
    pub notes: Vec<Warning>,
    /// Power, cooling and cost of the cluster as built, for this run.
    pub facility: FacilityEstimate,
    /// Failures, checkpoints and goodput.
    pub reliability: ReliabilityEstimate,
}

impl Estimate {
    /// Days to train including checkpoints, interruptions and restarts; `None` when
    /// interruptions come faster than the run recovers (`reliability.finishes()` is false, and
    /// `problems` says so).
    pub fn effective_train_days(&self) -> Option<f64> {
        self.reliability.effective_train_days
    }
}

/// Estimates step time, memory and run totals for one training plan.
pub fn estimate(inputs: &Inputs) -> Estimate {
    // Per-chip shapes and the pipeline layout are derived once and shared by every part.
    let shape = parallelism::Shape::of(inputs);
    let layout = stages::stages(&inputs.transformer, &shape);
    let mut findings = Vec::new();
    warnings::check(inputs, &shape, &mut findings);

    let Step { breakdown, link, memory, params, base } = step_of(inputs, &shape, &layout);
    let forward_s = step_time::forward_pass_s(inputs, &shape, &params, &base);
    let step_s = finite(breakdown.total());
    if !memory.fits {
        findings.push(Warning::does_not_fit(inputs, memory.peak_bytes, memory.hbm_bytes));
    }

    let t = &inputs.transformer;
    let batch = inputs.training.global_batch.max(1) as f64;
    let model_flops_per_step = finite(batch * t.model_flops_per_sequence());
    let hardware_flops_per_step =
        finite(model_flops_per_step + batch * step_time::recompute_flops_per_sequence(inputs));
    let chips_used = shape.chips_used;
    let ratio = |flops: f64| utilisation(inputs, chips_used, flops, step_s);
    let total_params = t.params();
    let standing = Standing::with_params(inputs, total_params);
    let Run { steps, train_s, tokens_per_s, reliability, facility } =
        run_with(inputs, &standing, chips_used, &breakdown, step_s);
    if !reliability.finishes() {
        findings.push(Warning::NeverFinishes {
            mtbf_s: reliability.mtbf_h * 3600.0,
            lost_s: reliability.lost_per_interruption_s,
        });
    }
    if facility.cooling.node_exceeds_rack || rack_too_dense(inputs) {
        findings.push(Warning::RackTooDense {
            rack_w: inputs.plant.system.node_max_w
                * inputs.plant.system.nodes_per_rack.max(1) as f64,
            limit_w: rack_limit_w(inputs),
            liquid: inputs.plant.facility.cooling != facility::Cooling::Air,
        });
    }
    // Stable, so findings of one severity keep the order `check` gives them.
    findings.sort_by_key(Warning::severity);
    // Sorted, the findings run problems, then warnings, then notes: each group is moved out
    // whole, and the warnings keep the findings' own allocation.
    let notes = findings.split_off(findings.partition_point(|w| w.severity() != Severity::Note));
    let problems = match findings.partition_point(|w| w.severity() == Severity::Problem) {
        0 => Vec::new(),
        n => {
            let rest = findings.split_off(n);
            std::mem::replace(&mut findings, rest)
        }
    };
    let warnings = findings;
    Estimate {
        step_s,
        breakdown,
        forward_s,
        link,
        memory,
        mfu: ratio(model_flops_per_step),
        hfu: ratio(hardware_flops_per_step),
        tokens_per_s,
        model_flops_per_step,
        hardware_flops_per_step,
        steps,
        train_days: finite(train_s / 86_400.0),
        chip_hours: finite(train_s / 3_600.0 * inputs.cluster.n_chips as f64),
        chips_used,
        n_microbatches: shape.n_microbatches,
        params: finite(total_params),
        active_params: finite(t.active_of(total_params)),
        feasible: problems.is_empty(),
        problems,
        warnings,
        notes,
        facility,
        reliability,
    }
}

/// One step of the plan and what each chip holds, without the run around them (facility,
/// failures, findings): what a job over pools needs of each pool's part, many times over.
/// Returns the step's seconds and whether it fits, as `estimate` gives them.
pub fn step_and_fit(inputs: &Inputs) -> (f64, bool) {
    let shape = parallelism::Shape::of(inputs);
    let layout = stages::stages(&inputs.transformer, &shape);
    let Step { breakdown, memory, .. } = step_of(inputs, &shape, &layout);
    (finite(breakdown.total()), memory.fits)
}

/// One step of a plan as `estimate` and `step_and_fit` need it, with what a forward-only
/// pass is worked out from when asked for (`step_time::forward_pass_s`).
struct Step {
    breakdown: StepBreakdown,
    link: LinkTimes,
    memory: MemoryUse,
    params: [(f64, f64); 3],
    base: step_time::StepBase,
}

/// The step's parts, its links' times and the memory of each chip, for `estimate` and
/// `step_and_fit` alike.
fn step_of(inputs: &Inputs, shape: &parallelism::Shape, layout: &[stages::Stage; 3]) -> Step {
    let params = step_time::layout_params(inputs, shape, layout);
    let base =
        step_time::step_base(inputs, shape, layout, &step_time::LayerCosts::of(inputs, shape));
    let (breakdown, link) = step_time::step_from(inputs, shape, &params, &base);
    let memory = memory::per_chip_with(
        inputs,
        shape,
        layout,
        &params,
        &memory::LayerMemory::of(inputs, shape),
    );
    let breakdown = breakdown.with_memory(
        memory.compiler_remat,
        memory.offloaded_bytes,
        inputs.cluster.chip.host_bytes_per_s,
    );
    Step { breakdown, link, memory, params, base }
}

/// `flops` per step of `step_s` seconds over the BF16 dense peak of `chips_used` chips: MFU
/// for model FLOPs, HFU for executed ones; `estimate` and the plan search share it.
pub(crate) fn utilisation(inputs: &Inputs, chips_used: u32, flops: f64, step_s: f64) -> f64 {
    let peak = inputs.cluster.chip.bf16_flops_per_s.max(1.0) * chips_used.max(1) as f64;
    if step_s > 0.0 {
        finite(flops / step_s / peak)
    } else {
        0.0
    }
}

/// What one step time makes of the whole run.
pub(crate) struct Run {
    /// Optimizer steps to train on the token budget.
    pub steps: f64,
    /// Seconds of training without failures.
    pub train_s: f64,
    /// Tokens trained per second.
    pub tokens_per_s: f64,
    /// Failures, checkpoints and goodput.
    pub reliability: ReliabilityEstimate,
    /// Power, energy and cost at the site.
    pub facility: FacilityEstimate,
}

/// What a run's totals take from the inputs whatever the plan: the checkpoint's size, the
/// cluster's interruptions per hour and the site's standing draws and prices (a plan search
/// computes it once for each shape of plans, not for each plan).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Standing {
    pub checkpoint_bytes: f64,
    pub interruptions_per_hour: f64,
    pub site: facility::Standing,
}

impl Standing {
    pub(crate) fn of(inputs: &Inputs) -> Standing {
        Standing::with_params(inputs, inputs.transformer.params())
    }

    /// `of` for a model of `params` parameters (`Transformer::params`), already counted.
    fn with_params(inputs: &Inputs, params: f64) -> Standing {
        let r = &inputs.reliability;
        Standing {
            checkpoint_bytes: checkpoint_bytes(inputs, params),
            interruptions_per_hour: reliability::interruptions_per_hour(
                &r.rates,
                &inputs.plant.bom,
                inputs.cluster.n_chips,
            ),
            site: facility::standing(&inputs.plant, &inputs.cluster),
        }
    }
}

/// Bytes one checkpoint of a model of `params` parameters writes: the weights and the
/// optimizer state.
fn checkpoint_bytes(inputs: &Inputs, params: f64) -> f64 {
    let recipe = inputs.training.recipe;
    finite(params * (recipe.weight_bytes() + recipe.optimizer_bytes()))
}

/// Steps, days, failures and the site for a plan of `step_s` seconds split as `breakdown` on
/// `chips_used` chips, from what the inputs give whatever the plan (`Standing`); `estimate`
/// and the plan search share it.
pub(crate) fn run_with(
    inputs: &Inputs,
    standing: &Standing,
    chips_used: u32,
    breakdown: &StepBreakdown,
    step_s: f64,
) -> Run {
    let checkpoint_bytes = standing.checkpoint_bytes;
    let t = &inputs.transformer;
    let tokens_per_step = inputs.training.global_batch.max(1) as f64 * t.seq_len.max(1) as f64;
    let tokens_per_s = if step_s > 0.0 { finite(tokens_per_step / step_s) } else { 0.0 };
    let steps = finite((inputs.training.tokens.max(0.0) / tokens_per_step).ceil());
    let train_s = steps * step_s;
    let reliability = reliability::assess_at(
        &inputs.reliability,
        standing.interruptions_per_hour,
        (inputs.cluster.n_chips, inputs.parallelism.data),
        finite(checkpoint_bytes),
        train_s,
        step_s,
    );
    let work = facility::Work {
        busy: breakdown.busy_share(step_s),
        step_s,
        // The site runs for the whole wall-clock time, interruptions included; a run that never
        // finishes is costed for its failure-free time only, and flagged as a problem.
        train_s: reliability.effective_train_days.map_or(train_s, |days| days * 86_400.0),
        tokens: inputs.training.tokens,
        checkpoint_bytes: finite(checkpoint_bytes),
        storage_bytes_per_s: inputs.reliability.storage_bytes_per_s,
    };
    let facility =
        facility::assess_on(&standing.site, &inputs.plant, &inputs.cluster, chips_used, &work);
    Run { steps, train_s, tokens_per_s, reliability, facility }
}

/// The most a rack can shed with the site's cooling: what the user set, and at most what the
/// cooling can remove at all. Air: about 60 kW, the densest air-cooled design published (the
/// DGX SuperPOD B300 reference architecture's 56 kW racks, with contained aisles; typical air
/// rooms manage 25-30 kW, Uptime Institute survey summaries). Direct liquid: about 145 kW, the
/// top of GB300 NVL72 rack quotes (120-142 kW, press). Hybrid: in between, an assumption.
fn rack_limit_w(inputs: &Inputs) -> f64 {
    let practical: f64 = match inputs.plant.facility.cooling {
        facility::Cooling::Air => 60_000.0,
        facility::Cooling::Hybrid => 100_000.0,
        facility::Cooling::Liquid => 145_000.0,
    };
    practical.min(inputs.plant.facility.rack_w.max(1.0))
}

/// A rack-scale system (one scale-up domain per rack, which cannot be spread over more racks)
/// draws more at its maximum than the cooling can remove. Servers are spread instead: the
/// facility estimate places fewer per rack.
fn rack_too_dense(inputs: &Inputs) -> bool {
    let s = &inputs.plant.system;
    s.scale_up_switches_per_rack > 0
        && s.node_max_w * s.nodes_per_rack.max(1) as f64 > rack_limit_w(inputs) * 1.05
}

/// Replaces NaN and infinities by zero so no result ever carries them.
pub(crate) fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}
