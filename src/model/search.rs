//! Plan search: every runnable plan for a workload on at most the cluster's chips, evaluated and
//! ranked.
//!
//! The space is the one Megatron-LM exposes (Narayanan et al. 2021, arXiv:2104.04473, §3;
//! Korthikanti et al. 2022, arXiv:2205.05198): tensor, context, pipeline, data and expert
//! degrees whose product is at most the cluster's chips (the rest stay idle, as a plan on the
//! form may leave them), the global batch (the typed one, or raised where the cluster has more
//! replicas than it keeps busy, up to the largest accepted: `cells::batch`), micro-batches that divide a replica's share of the batch, virtual
//! stages, ZeRO stages, recomputation and sequence parallelism. The overlap flags belong to the
//! software stack (`parallelism.stack`), not to the plan, so they stay as the inputs set them.
//! The plan the inputs carry is always judged and placed with the same rule, so a search never
//! contradicts the form: its best is never slower than the typed plan, which it ranks whenever
//! that plan runs and fits. Calculon (Isaev et al. 2023, SC'23) searches a similar space by
//! running its full model on every point; here each point is first checked for what makes it
//! impossible, then for memory, and only plans that fit are timed.
//!
//! Of the degrees, only those that can win are enumerated (`pipeline_degrees`,
//! `data_degrees`): a pipeline degree whose busiest stage holds as much as a smaller degree's
//! only adds stages, bubble and memory; a data-parallel degree beyond the fewest replicas that
//! give each its share of the batch only adds chips that wait.
//!
//! The model's error between plans of one run is about 12 % (`Options::equivalent_within`),
//! so among plans within it of the fastest the search ranks first the one a team would run
//! (`Oddities`: TP inside the scale-up domain and a power of two, PP a power of two or a
//! divisor of the layers, virtual stages that split the layers evenly), and names the fastest
//! beside it. Found plans never give a chunk of the pipeline no layer.
//!
//! Evaluation reuses the model's own parts (`Shape`, `stages`, `memory::per_chip`,
//! `step_time::step`, `run_with`), so a ranked plan's numbers are exactly `estimate`'s. Nothing
//! on the way allocates: findings go to a sink that only remembers whether one was a problem.
//! The search advances cell by cell (one cell is a choice of degrees), so a caller can report
//! progress, stream the leaders and stop between cells.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

mod cells;

pub use cells::{batch, data_degrees, pipeline_degrees, placements};
use cells::{cells, Cell};

use crate::model::collectives::Group;
use crate::model::memory::{self, LayerMemory};
use crate::model::parallelism::Shape;
use crate::model::stages::{self, Stage};
use crate::model::step_time::{LayerCosts, LeastStep, StepBase};
use crate::model::warnings::{self, AnyProblem};
use crate::model::{finite, run_with, step_time, utilisation, Standing};
use crate::model::{
    AttentionImpl, Cluster, CpKind, Inputs, Parallelism, Recompute, Sharding, StepBreakdown,
};

/// The largest tensor-parallel degree tried: beyond 64 every published plan stops (Megatron-LM
/// 2021 Table 1 uses at most 8; Llama 3 at most 8; DeepSeek-V3 1).
pub const MAX_TP: u32 = 64;
/// The largest micro-batch tried, in sequences.
pub const MAX_MICRO_BATCH: u32 = 32;
/// The most virtual stages per pipeline rank tried (Llama 3 405B used 8).
pub const MAX_VIRTUAL_STAGES: u32 = 16;
/// The largest context-parallel degree tried (Llama 3 used 16 for 128K tokens).
pub const MAX_CP: u32 = 32;
/// Context parallelism is tried only while each rank keeps at least this many tokens of a
/// sequence: splitting shorter sequences leaves GEMMs too small to pay for the exchange (Llama
/// 3 report, arXiv:2407.21783, §3.3.2, turns CP on only for its long-context stage).
pub const MIN_CP_CHUNK_TOKENS: u32 = 4096;

/// How far down the typed plan's place is counted exactly: beyond this many better plans it is
/// only known to be beyond them (`Placement::beyond`). Counting every plan that beats a plan
/// far from the best would mean timing nearly every plan of the space, and its exact place
/// there tells nothing its distance from the best does not.
pub const RANK_COUNTED: u64 = 1000;

/// What plans are ranked by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Days of training without failures.
    TrainDays,
    /// Days including checkpoints, interruptions and restarts.
    EffectiveDays,
    /// Amortised cost of the run.
    Cost,
    /// Energy of the run at the site.
    Energy,
}

impl Objective {
    /// Every objective, in the order a menu lists them.
    pub const ALL: [Objective; 4] =
        [Objective::TrainDays, Objective::EffectiveDays, Objective::Cost, Objective::Energy];

    /// The objective's name in scenarios, links and the command line.
    pub fn id(self) -> &'static str {
        match self {
            Objective::TrainDays => "days",
            Objective::EffectiveDays => "effective-days",
            Objective::Cost => "cost",
            Objective::Energy => "energy",
        }
    }

    /// The objective named `id`.
    pub fn from_id(id: &str) -> Option<Objective> {
        Objective::ALL.into_iter().find(|o| o.id() == id)
    }

    /// The plan's value under this objective; lower is better. Every plan ranked finishes, so
    /// each figure covers the whole run.
    pub fn of(self, plan: &Plan) -> f64 {
        match self {
            Objective::TrainDays => plan.train_days,
            Objective::EffectiveDays => plan.effective_train_days,
            Objective::Cost => plan.run_usd,
            Objective::Energy => plan.energy_mwh,
        }
    }
}

/// Plans a search times at most (those that run and fit, the costly ones), the most promising
/// cells first: a space too large, or one its floors prune too little of (a model of almost no
/// work), still answers in about half a second natively, and says it stopped
/// (`Outcome::budget_spent`). DeepSeek-V3 on 2,048 H800 times about 210,000 and Llama 3.1
/// 405B on 16,384 H100 about 29,000.
pub const PLAN_BUDGET: u64 = 600_000;

/// Plans a search judges at most, those that cannot run or fit included (cheap each, but a
/// space of millions of them costs seconds), for each it may time (`PLAN_BUDGET`).
pub const JUDGED_PER_TIMED: u64 = 2;

/// What the caller wants from a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// What plans are ranked by.
    pub objective: Objective,
    /// How many of the best plans to keep.
    pub top: usize,
    /// Plans within this fraction of the best are as good as it as far as the model can tell
    /// (its error against published runs): the search calls them equivalent instead of ranking
    /// on noise. Zero ranks on every difference.
    pub equivalent_within: f64,
    /// Skip the choices of degrees whose ideal time shows that none of their plans could
    /// change the result (`Search::advance`); off, every plan of the space is judged.
    pub skip_hopeless: bool,
    /// A value under the objective that is good enough: the search skips the choices of
    /// degrees that cannot reach it and stops at the first plan that does, so it answers
    /// whether any plan reaches it, not which is best (sizing asks whether a size meets a
    /// deadline). `None` searches for the best.
    pub good_enough: Option<f64>,
    /// Keep the plans a reader weighs against the best: the front of days against cost and the
    /// best plan keeping TP inside its domain. Off (sizing wants the best plan alone), cells
    /// that could only change those are skipped, and `Outcome::pareto` and
    /// `Outcome::best_inside` stay empty.
    pub alternatives: bool,
    /// Plans timed at most (`PLAN_BUDGET`); the cells left once they are are not searched.
    pub budget: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            objective: Objective::TrainDays,
            top: 10,
            equivalent_within: 0.0,
            skip_hopeless: true,
            good_enough: None,
            alternatives: true,
            budget: PLAN_BUDGET,
        }
    }
}

/// One plan that runs, fits and finishes, with the figures it is ranked by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The plan.
    pub parallelism: Parallelism,
    /// Seconds per step.
    pub step_s: f64,
    /// Parts of the step; they sum to `step_s`.
    pub breakdown: StepBreakdown,
    /// Peak memory per chip, bytes.
    pub peak_bytes: f64,
    /// Model FLOPs utilisation.
    pub mfu: f64,
    /// Days of training without failures.
    pub train_days: f64,
    /// Days including checkpoints, interruptions and restarts.
    pub effective_train_days: f64,
    /// Share of wall-clock time that trains.
    pub goodput: f64,
    /// Amortised cost of the run, USD.
    pub run_usd: f64,
    /// Energy of the run at the site, MWh.
    pub energy_mwh: f64,
    /// Chips the plan uses: tensor x pipeline x data x context.
    pub chips_used: u32,
    /// Chips of the cluster the plan leaves idle.
    pub idle_chips: u32,
    /// The idle chips' share of the run's amortised hardware, building and maintenance cost,
    /// USD: what they cost while doing nothing.
    pub idle_usd: f64,
    /// Scale-up domains the tensor-parallel group spans; more than one sends its traffic over
    /// the scale-out network, which practitioners avoid.
    pub tp_domains: u32,
    /// Chips of each scale-up domain its ranks are placed on; 0 for all of them
    /// (`Cluster::domain_chips`).
    pub domain_chips: u32,
    /// What makes the plan unlike the plans teams run.
    pub oddities: Oddities,
    /// Sequences per step: the typed batch, or one the search raised
    /// (`Training::max_batch_tokens`).
    pub global_batch: u32,
}

/// What makes a plan unlike those teams run, as published plans show them: tensor parallelism
/// inside a server in powers of two, pipelines of a power of two or a divisor of the layers,
/// interleaving that splits the layers evenly (Megatron-LM 2021 Table 1, Llama 3's 8 x 16,
/// DeepSeek-V3's PP 16, MT-NLG's PP 35 for 105 layers). Among plans the model cannot tell apart
/// the search ranks the most conventional first (`Outcome::ranked`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Oddities(u8);

/// One way a plan is unusual; the more serious, the higher its bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oddity {
    /// The tensor-parallel group spans scale-up domains, so its traffic crosses the network.
    TensorCrossesDomain,
    /// The pipeline degree is neither a power of two nor a divisor of the layers.
    UnevenPipeline,
    /// Virtual stages leave the layers unevenly split: pipeline x virtual stages does not
    /// divide them.
    UnevenInterleaving,
    /// The tensor-parallel degree is not a power of two.
    OddTensor,
}

impl Oddity {
    /// Every oddity, most serious first.
    pub const ALL: [Oddity; 4] = [
        Oddity::TensorCrossesDomain,
        Oddity::UnevenPipeline,
        Oddity::UnevenInterleaving,
        Oddity::OddTensor,
    ];

    /// The oddity's name in the command line's JSON.
    pub fn id(self) -> &'static str {
        match self {
            Oddity::TensorCrossesDomain => "tp_crosses_domain",
            Oddity::UnevenPipeline => "uneven_pipeline",
            Oddity::UnevenInterleaving => "uneven_interleaving",
            Oddity::OddTensor => "odd_tensor",
        }
    }

    fn bit(self) -> u8 {
        match self {
            Oddity::TensorCrossesDomain => 8,
            Oddity::UnevenPipeline => 4,
            Oddity::UnevenInterleaving => 2,
            Oddity::OddTensor => 1,
        }
    }
}

impl Oddities {
    /// How many ranks of seriousness there are (`Oddities::rank` is below it).
    pub const RANKS: usize = 16;

    /// The oddities of a plan with `p`'s degrees whose tensor-parallel group spans `tp_domains`
    /// scale-up domains, for a model of `layers` layers.
    pub fn of(p: &Parallelism, tp_domains: u32, layers: u32) -> Oddities {
        let pp = p.pipeline.max(1);
        let v = p.virtual_stages.max(1);
        let layers = layers.max(1);
        let mut bits = 0;
        if tp_domains > 1 {
            bits |= Oddity::TensorCrossesDomain.bit();
        }
        if !pp.is_power_of_two() && layers % pp != 0 {
            bits |= Oddity::UnevenPipeline.bit();
        }
        if pp > 1 && v > 1 && layers as u64 % (pp as u64 * v as u64) != 0 {
            bits |= Oddity::UnevenInterleaving.bit();
        }
        if !p.tensor.max(1).is_power_of_two() {
            bits |= Oddity::OddTensor.bit();
        }
        Oddities(bits)
    }

    /// None: a conventional plan.
    pub fn none(self) -> bool {
        self.0 == 0
    }

    /// Each oddity of the plan, most serious first.
    pub fn iter(self) -> impl Iterator<Item = Oddity> {
        Oddity::ALL.into_iter().filter(move |o| self.0 & o.bit() != 0)
    }

    /// Lower is more conventional; a more serious oddity outweighs every lesser one together.
    fn rank(self) -> usize {
        self.0 as usize % Self::RANKS
    }
}

/// Where a plan falls short of a better one: the part of the step that grew the most.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gap {
    /// The breakdown part's id (`StepBreakdown::parts`).
    pub part: &'static str,
    /// Seconds per step that part adds over the better plan.
    pub seconds: f64,
    /// How much worse the plan is under the objective, as a fraction of the better one.
    pub behind: f64,
}

/// How a plan compares with another, as fractions of the other's figures (positive: more).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Against {
    /// Days without failures.
    pub days: f64,
    /// Days with failures.
    pub effective_days: f64,
    /// Amortised cost of the run.
    pub run_usd: f64,
    /// Energy of the run.
    pub energy: f64,
    /// Peak memory per chip, bytes more (negative: less).
    pub memory_bytes: f64,
}

impl Plan {
    /// Days including failures.
    pub fn wall_days(&self) -> f64 {
        self.effective_train_days
    }

    /// The tensor-parallel group leaves its scale-up domain.
    pub fn tp_crosses_domain(&self) -> bool {
        self.tp_domains > 1
    }

    /// Why this plan loses to `best` under `objective`.
    pub fn gap(&self, best: &Plan, objective: Objective) -> Gap {
        let mine = self.breakdown.parts();
        let theirs = best.breakdown.parts();
        let (part, seconds) = mine
            .iter()
            .zip(theirs.iter())
            .map(|(&(label, a), &(_, b))| (label, a - b))
            .fold(("compute", f64::NEG_INFINITY), |acc, x| if x.1 > acc.1 { x } else { acc });
        Gap {
            part,
            seconds: finite(seconds),
            behind: relative(objective.of(self), objective.of(best)),
        }
    }

    /// This plan against `other`: what applying it instead of `other` changes.
    pub fn against(&self, other: &Plan) -> Against {
        Against {
            days: relative(self.train_days, other.train_days),
            effective_days: relative(self.effective_train_days, other.effective_train_days),
            run_usd: relative(self.run_usd, other.run_usd),
            energy: relative(self.energy_mwh, other.energy_mwh),
            memory_bytes: finite(self.peak_bytes - other.peak_bytes),
        }
    }
}

/// `a` over `b`, less one; zero when `b` is not positive.
fn relative(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        finite(a / b - 1.0)
    } else {
        0.0
    }
}

/// What became of one plan.
// A verdict lives on the stack for one plan at a time; boxing the plan would allocate once for
// every plan the search checks.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Something makes it impossible to run as written (`Severity::Problem`).
    Invalid,
    /// It runs out of memory: it needs `need_bytes` of `have_bytes`.
    DoesNotFit { need_bytes: f64, have_bytes: f64 },
    /// It runs and fits, but interruptions (every `mtbf_s`) come faster than it recovers from
    /// each (`lost_s`), so it never finishes.
    NeverFinishes { mtbf_s: f64, lost_s: f64 },
    /// It runs, fits and finishes.
    Fits(Plan),
}

/// Judges one plan the way `estimate` does, problems and memory first, and times it only when
/// it runs and fits.
pub fn evaluate(inputs: &Inputs) -> Verdict {
    evaluate_with(inputs, &mut PerShape::of(inputs), &Staged::of(inputs))
}

/// What depends only on the per-chip shape (degrees, micro-batch, recomputation and sequence
/// parallelism), kept while the search varies virtual stages and ZeRO stages. The layer times
/// are computed when the first plan of the shape fits.
struct PerShape {
    time: Option<LayerCosts>,
    memory: LayerMemory,
    /// The model's FLOPs a sequence, and what a run's totals take from the inputs, which no
    /// plan changes.
    flops_per_sequence: f64,
    standing: Standing,
}

impl PerShape {
    fn of(inputs: &Inputs) -> PerShape {
        PerShape {
            time: None,
            memory: LayerMemory::of(inputs, &Shape::of(inputs)),
            flops_per_sequence: inputs.transformer.model_flops_per_sequence(),
            standing: Standing::of(inputs),
        }
    }
}

/// How layers and parameters fall on the stages, and the parts of the step no ZeRO stage
/// changes (computed when the first ZeRO stage of the plan fits), kept while the search varies
/// ZeRO stages.
struct Staged {
    layout: [Stage; 3],
    params: [(f64, f64); 3],
    base: std::cell::Cell<Option<StepBase>>,
}

impl Staged {
    fn of(inputs: &Inputs) -> Staged {
        let shape = Shape::of(inputs);
        let layout = stages::stages(&inputs.transformer, &shape);
        Staged {
            layout,
            params: step_time::layout_params(inputs, &shape, &layout),
            base: std::cell::Cell::new(None),
        }
    }
}

fn evaluate_with(inputs: &Inputs, per_shape: &mut PerShape, staged: &Staged) -> Verdict {
    let shape = Shape::of(inputs);
    let mut problem = AnyProblem::default();
    warnings::check(inputs, &shape, &mut problem);
    if problem.0 {
        return Verdict::Invalid;
    }
    let Staged { layout, params, base } = staged;
    let memory = memory::per_chip_with(inputs, &shape, layout, params, &per_shape.memory);
    if !memory.fits {
        return Verdict::DoesNotFit { need_bytes: memory.peak_bytes, have_bytes: memory.hbm_bytes };
    }
    let time = per_shape.time.get_or_insert_with(|| LayerCosts::of(inputs, &shape));
    let step_base = match base.get() {
        Some(b) => b,
        None => {
            let b = step_time::step_base(inputs, &shape, layout, time);
            base.set(Some(b));
            b
        }
    };
    let (breakdown, _) = step_time::step_from(inputs, &shape, params, &step_base);
    let breakdown = breakdown.with_memory(
        memory.compiler_remat,
        memory.offloaded_bytes,
        inputs.cluster.chip.host_bytes_per_s,
    );
    let step_s = finite(breakdown.total());
    let totals = run_with(inputs, &per_shape.standing, shape.chips_used, &breakdown, step_s);
    let Some(effective_train_days) = totals.reliability.effective_train_days else {
        return Verdict::NeverFinishes {
            mtbf_s: totals.reliability.mtbf_h * 3600.0,
            lost_s: totals.reliability.lost_per_interruption_s,
        };
    };
    let batch = inputs.training.global_batch.max(1) as f64;
    let model_flops = finite(batch * per_shape.flops_per_sequence);
    let mfu = utilisation(inputs, shape.chips_used, model_flops, step_s);
    let n_chips = inputs.cluster.n_chips.max(1);
    let idle_chips = n_chips.saturating_sub(shape.chips_used);
    let cost = &totals.facility.cost;
    let capital_usd = cost.run_amortized_usd - totals.facility.cost.energy_usd;
    let tp_domains = Group::place(shape.tp_u, 1, inputs.cluster.rank_domain()).n_domains();
    Verdict::Fits(Plan {
        parallelism: inputs.parallelism,
        step_s,
        breakdown,
        peak_bytes: memory.peak_bytes,
        mfu,
        train_days: finite(totals.train_s / 86_400.0),
        effective_train_days,
        goodput: totals.reliability.goodput,
        run_usd: cost.run_amortized_usd,
        energy_mwh: totals.facility.energy_mwh,
        chips_used: shape.chips_used,
        idle_chips,
        idle_usd: finite(capital_usd.max(0.0) * idle_chips as f64 / n_chips as f64),
        tp_domains,
        domain_chips: inputs.cluster.domain_chips,
        oddities: Oddities::of(&inputs.parallelism, tp_domains, inputs.transformer.n_layers),
        global_batch: inputs.training.global_batch,
    })
}

/// Days no plan on these chips can beat: the model FLOPs of the run at the chip's best
/// achievable GEMM rate (its peak in the faster datatype times the kernel efficiency on the
/// plan's stack, `Inputs::kernel_efficiency`) on every chip. Every kernel takes at least its ideal time (`efficiency::kernel_s`), so a search's
/// best is never below it; sizing uses it to skip cluster sizes that cannot meet a deadline.
pub fn days_bound(inputs: &Inputs) -> f64 {
    let fastest = inputs.fastest_gemm_flops_per_s();
    let rate = fastest.max(1.0) * inputs.kernel_efficiency();
    let t = &inputs.transformer;
    let sequences = inputs.training.tokens.max(0.0) / t.seq_len.max(1) as f64;
    let chips = inputs.cluster.n_chips.max(1) as f64;
    finite(sequences * t.model_flops_per_sequence() / (rate * chips) / 86_400.0)
}

/// The most goodput any plan on the inputs' cluster can have (`reliability::best_goodput`):
/// interruptions and checkpoints depend on the cluster and the model, and on a plan only
/// through how its step rounds the checkpoint interval. Zero when no plan can finish.
pub fn goodput_bound(inputs: &Inputs) -> f64 {
    let standing = Standing::of(inputs);
    crate::model::reliability::best_goodput(
        &inputs.reliability,
        standing.interruptions_per_hour,
        inputs.cluster.n_chips,
        standing.checkpoint_bytes,
    )
}

/// Where the plan the inputs carry ranks among the plans searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// What became of it.
    pub verdict: Verdict,
    /// 1 + the plans found strictly better, at most `RANK_COUNTED` + 1; 0 when it is not ranked
    /// (it does not run, fit or finish, or there was no typed plan).
    pub rank: u64,
    /// At least `RANK_COUNTED` plans are better, so `rank` only says it is beyond them.
    pub beyond: bool,
    /// How much worse it is than the best plan found, as a fraction (0 when it is the best).
    pub behind: f64,
    /// It is behind the best by no more than the model's error (`Options::equivalent_within`),
    /// so the model cannot say the best is really better.
    pub within_error: bool,
}

/// The result of a search (or of the part done so far).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The objective plans are ranked by.
    pub objective: Objective,
    /// The best plans, best first (ties keep the order they were found in, the typed plan
    /// first); of the plans within `equivalent_within` of the fastest, the most conventional
    /// (fewest and least serious `Oddities`, the typed plan counting as conventional) leads.
    pub ranked: Vec<Plan>,
    /// The plan best under the objective, when a more conventional one within the model's
    /// error leads `ranked` in its place.
    pub fastest: Option<Plan>,
    /// Plans that no other beats on both days (with failures) and cost, fastest first.
    pub pareto: Vec<Plan>,
    /// Plans enumerated (the typed plan included).
    pub searched: u64,
    /// Per-chip shapes whose layer costs were worked out (`step_time::LayerCosts`), the
    /// search's costliest step: cells differing in batch, pipeline or data parallelism cost
    /// theirs again, so there are often more than plans.
    pub costed: u64,
    /// Plans set aside before timing: `invalid` plus `does_not_fit`.
    pub pruned: u64,
    /// Plans that cannot run as written.
    pub invalid: u64,
    /// Plans that run out of memory.
    pub does_not_fit: u64,
    /// Plans timed that never finish: interruptions outpace recovery.
    pub never_finish: u64,
    /// Plans timed that finish, the ones ranked.
    pub evaluated: u64,
    /// The typed plan among them.
    pub yours: Placement,
    /// The best plan whose tensor-parallel group stays inside a scale-up domain, for comparing
    /// plans that leave it.
    pub best_inside: Option<Plan>,
    /// The fraction within which plans count as equivalent to the best.
    pub equivalent_within: f64,
    /// Cells (choices of degrees) done and in all.
    pub progress: (usize, usize),
    /// Cells skipped because their ideal time shows that no plan in them could rank, be
    /// placed ahead of the typed plan, join the front or be the best plan keeping TP inside.
    pub skipped_cells: u64,
    /// Why no plan is ranked, once the search is done and found none.
    pub none_because: Option<NoPlan>,
    /// The search timed its budget of plans (`Options::budget`) and left the cells after them:
    /// the best it ranks is the best of the most promising part of the space.
    pub budget_spent: bool,
}

impl Outcome {
    /// `plan` is as good as the best, as far as the model can tell.
    pub fn equivalent(&self, plan: &Plan) -> bool {
        self.fastest.as_ref().or(self.ranked.first()).is_some_and(|best| {
            self.objective.of(plan) <= self.objective.of(best) * (1.0 + self.equivalent_within)
        })
    }
}

/// Why a finished search ranks no plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoPlan {
    /// Plans split, but none fits: the least any needs, and what the chip has, bytes.
    NothingFits { plans: u64, need_bytes: f64, have_bytes: f64 },
    /// Plans fit, but on this cluster interruptions come faster than any recovers: every
    /// `mtbf_s` against `lost_s` lost to each (of the fastest plan that fits).
    NeverFinishes { plans: u64, mtbf_s: f64, lost_s: f64 },
    /// No plan runs as written (a setting every plan shares rules them all out).
    NoneRuns { plans: u64 },
}

/// A search in progress; `advance` does a number of cells at a time.
#[derive(Clone, Debug)]
pub struct Search {
    base: Inputs,
    options: Options,
    cells: Vec<Cell>,
    next: usize,
    ranked: Vec<(f64, Plan)>,
    pareto: Vec<Plan>,
    /// Per-chip shapes whose layer costs were worked out (`Outcome::costed`).
    costed: u64,
    searched: u64,
    invalid: u64,
    does_not_fit: u64,
    never_finish: u64,
    evaluated: u64,
    /// The typed plan, if there is one.
    typed: Option<Parallelism>,
    yours: Verdict,
    yours_value: f64,
    better_than_yours: u64,
    /// The best `RANK_COUNTED` values found while a typed plan fits, the worst on top: once it
    /// is full and its worst beats the typed plan, the typed plan is beyond them and no plan
    /// worse than that worst can change its place.
    counted: BinaryHeap<Value>,
    best_inside: Option<(f64, Plan)>,
    /// The best plan found of each rank of `Oddities` (the typed plan at rank 0).
    best_by_oddity: [Option<(f64, Plan)>; Oddities::RANKS],
    /// The least memory any plan that does not fit needs, bytes, and the chip's.
    least_need: Option<(f64, f64)>,
    /// Why the plans that fit never finish (the last one seen).
    never: Option<(f64, f64)>,
    /// Cost and energy of a day at the least power the cluster can draw (every chip idle):
    /// with a cell's days bound, the least any of its plans can cost.
    floor_per_day: (f64, f64),
    /// The most goodput any plan can have on the cluster (`goodput_bound`): with a cell's days
    /// bound, its least days with failures.
    goodput_bound: f64,
    skipped_cells: u64,
    /// A plan reached `Options::good_enough`: the search stopped before the cells from `next`.
    stopped: bool,
    /// The budget of plans was judged: the search stopped before the cells from `next`.
    spent: bool,
    /// Cells skipped because they could not reach `Options::good_enough`, kept for
    /// `go_on_to_best`.
    deferred: Vec<Cell>,
    /// The layer costs and least step of each shape of the cell being searched, in the order
    /// `cell` tries them, kept to be filled again.
    costs: Vec<(LayerCosts, LeastStep)>,
    /// For a shard of a search (`Search::shard`): every plan it ranked, put on the front or
    /// kept as best of a kind, with the order one search would have found it in (`found`).
    journal: Option<Vec<(u64, Plan)>>,
    /// The order of the next plan considered: its cell's place, then its place in the cell.
    found: u64,
}

/// What a shard of a search found (`Search::found_by_shard`), to be put together with the
/// others' (`Search::merged`): the plans it keeps with their order, and its counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Shard {
    pub plans: Vec<(u64, Plan)>,
    pub counts: ShardCounts,
}

/// A shard's counts, the typed plan's judgement left out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShardCounts {
    pub searched: u64,
    pub invalid: u64,
    pub does_not_fit: u64,
    pub never_finish: u64,
    pub evaluated: u64,
    pub better_than_yours: u64,
    pub skipped_cells: u64,
    pub cells: u64,
    /// The least memory a plan that did not fit needs and the chip's, bytes.
    pub least_need: Option<(f64, f64)>,
    /// Why plans that fit never finish (`mtbf_s`, `lost_s`).
    pub never: Option<(f64, f64)>,
    /// The shard judged its share of the budget and left cells.
    pub budget_spent: bool,
}

impl Search {
    /// A search over every plan for the inputs' workload and cluster, placing the inputs' own
    /// plan among them.
    pub fn new(inputs: &Inputs, options: Options) -> Search {
        Search::placing(inputs, Some(inputs.parallelism), options)
    }

    /// A search over every plan for the workload and cluster of `base`, placing `typed` (the
    /// plan as the user wrote it, on `base`'s cluster) when there is one. `base`'s own degrees
    /// play no part: the search tries every split of at most its chips.
    pub fn placing(base: &Inputs, typed: Option<Parallelism>, options: Options) -> Search {
        let mut cells = cells(base);
        // Most promising first, so the bar for skipping rises early.
        cells.sort_by(|a, b| a.days_bound.total_cmp(&b.days_bound));
        for (i, cell) in cells.iter_mut().enumerate() {
            cell.index = i as u32;
        }
        let day = crate::model::facility::Work {
            train_s: 86_400.0,
            tokens: base.training.tokens,
            ..Default::default()
        };
        let idle_day = crate::model::facility::assess(&base.plant, &base.cluster, 0, &day);
        let mut search = Search {
            base: *base,
            options: Options {
                top: options.top.max(1),
                equivalent_within: finite(options.equivalent_within).max(0.0),
                ..options
            },
            cells,
            next: 0,
            ranked: Vec::new(),
            pareto: Vec::new(),
            searched: 0,
            costed: 0,
            invalid: 0,
            does_not_fit: 0,
            never_finish: 0,
            evaluated: 0,
            typed,
            yours: Verdict::Invalid,
            yours_value: f64::INFINITY,
            better_than_yours: 0,
            counted: BinaryHeap::new(),
            best_inside: None,
            best_by_oddity: [None; Oddities::RANKS],
            least_need: None,
            never: None,
            floor_per_day: (idle_day.cost.run_amortized_usd, idle_day.energy_mwh),
            goodput_bound: goodput_bound(base),
            skipped_cells: 0,
            stopped: false,
            spent: false,
            deferred: Vec::new(),
            costs: Vec::new(),
            journal: None,
            found: 0,
        };
        if let Some(plan) = typed {
            let mut inputs = *base;
            inputs.parallelism = plan;
            // The typed plan goes first, so that among equals it keeps the lead.
            search.yours =
                search.consider(&inputs, &mut PerShape::of(&inputs), &Staged::of(&inputs));
            if let Verdict::Fits(plan) = search.yours {
                search.yours_value = search.options.objective.of(&plan);
            }
            search.better_than_yours = 0;
        }
        search
    }

    /// Searches up to `cells` more cells; true once every cell is done.
    pub fn advance(&mut self, cells: usize) -> bool {
        let end = self.next.saturating_add(cells).min(self.cells.len());
        let mut inputs = self.base;
        let mut costs = std::mem::take(&mut self.costs);
        while self.next < end && !self.stopped {
            let judged = self.options.budget.saturating_mul(JUDGED_PER_TIMED);
            // Shapes costed count as plans judged: cells set aside by their floor cost theirs.
            if self.evaluated >= self.options.budget || self.searched.max(self.costed) >= judged {
                self.spent = true;
                break;
            }
            let mut cell = self.cells[self.next];
            self.next += 1;
            // The typed plan, judged first, comes before every cell's.
            self.found = (u64::from(cell.index) + 1) << 32;
            costs.clear();
            // A cell the days bound does not set aside is set aside by its floor, if it can be:
            // no bar to reach and no ranked plan to beat leave nothing to set it aside for.
            let could = self.options.good_enough.is_some()
                || (self.options.skip_hopeless && self.ranked.len() >= self.options.top);
            if could && !self.skipped(&cell) {
                cell.floor_days = self.floor(&mut inputs, cell, &mut costs).max(cell.days_bound);
            }
            let short = self.options.good_enough.is_some_and(|bar| self.least(&cell) > bar);
            if short {
                self.skipped_cells += 1;
                self.deferred.push(cell);
            } else if self.options.skip_hopeless && self.hopeless(&cell) {
                self.skipped_cells += 1;
            } else {
                self.cell(&mut inputs, cell, &costs);
            }
            let reached = |bar: f64| self.ranked.first().is_some_and(|(v, _)| *v <= bar);
            self.stopped = self.options.good_enough.is_some_and(reached);
        }
        self.costs = costs;
        self.done()
    }

    /// `cell` is set aside as it stands: it cannot reach the bar, or cannot change the result.
    fn skipped(&self, cell: &Cell) -> bool {
        self.options.good_enough.is_some_and(|bar| self.least(cell) > bar)
            || (self.options.skip_hopeless && self.hopeless(cell))
    }

    /// Goes on as a search for the best after one that stopped at a plan good enough: the
    /// cells not yet searched and those set aside for not reaching the bar are searched by the
    /// next `advance`, so the two together judge exactly what one search for the best would.
    pub fn go_on_to_best(&mut self) {
        self.options.good_enough = None;
        self.stopped = false;
        let deferred = std::mem::take(&mut self.deferred);
        self.skipped_cells -= deferred.len() as u64;
        let next = self.next;
        self.cells.splice(next..next, deferred);
        self.cells[next..].sort_by(|a, b| a.days_bound.total_cmp(&b.days_bound));
    }

    /// The least value under the objective any plan of `cell` can have: its days bound, and
    /// cost and energy at least at an idle cluster's rate for those days.
    fn least(&self, cell: &Cell) -> f64 {
        self.least_of(cell.floor_days)
    }

    /// The least value under the objective a plan of at least `days` days without failures
    /// can have.
    fn least_of(&self, days: f64) -> f64 {
        let (usd_per_day, mwh_per_day) = self.floor_per_day;
        match self.options.objective {
            Objective::TrainDays => days,
            Objective::EffectiveDays => self.least_wall_days_of(days),
            Objective::Cost => usd_per_day * days,
            Objective::Energy => mwh_per_day * days,
        }
    }

    /// The least days with failures any plan of `cell` can have: its days bound at the most
    /// goodput the cluster allows (infinite when no plan on it can finish).
    fn least_wall_days(&self, cell: &Cell) -> f64 {
        self.least_wall_days_of(cell.floor_days)
    }

    fn least_wall_days_of(&self, days: f64) -> f64 {
        if self.goodput_bound > 0.0 {
            days / self.goodput_bound
        } else {
            f64::INFINITY
        }
    }

    /// No plan of `cell` can change the result: its least value under the objective is worse
    /// than the last ranked plan and the typed plan, its least days and cost are both beaten by
    /// a plan on the front, and it cannot be the best plan keeping TP inside a domain. Every
    /// figure a plan is ranked by grows with its time (cost and energy at least as fast as an
    /// idle cluster's), so the cell's days bound bounds them all.
    fn hopeless(&self, cell: &Cell) -> bool {
        let days = cell.floor_days;
        let (usd_per_day, _) = self.floor_per_day;
        let least = self.least(cell);
        let Some(&(last, _)) = self.ranked.get(self.options.top - 1) else { return false };
        let yours = if matches!(self.yours, Verdict::Fits(_)) { self.place_bar() } else { 0.0 };
        if least <= last.max(yours) {
            return false;
        }
        let alternatives = self.options.alternatives;
        let usd = usd_per_day * days;
        let wall_days = self.least_wall_days(cell);
        if alternatives
            && !self.pareto.iter().any(|q| q.wall_days() <= wall_days && q.run_usd <= usd)
        {
            return false;
        }
        let cluster = Cluster { domain_chips: cell.domain_chips, ..self.base.cluster };
        let tp_domains = Group::place(cell.tp, 1, cluster.rank_domain()).n_domains();
        let inside = tp_domains <= 1;
        if alternatives && inside && !self.best_inside.is_some_and(|(v, _)| v < least) {
            return false;
        }
        // It could still hold the most conventional plan within the model's error: its least
        // oddities (virtual stages aside) are below those of every plan found as fast.
        let shape = Parallelism {
            tensor: cell.tp,
            pipeline: cell.pp,
            virtual_stages: 1,
            ..self.base.parallelism
        };
        let rank = Oddities::of(&shape, tp_domains, self.base.transformer.n_layers).rank();
        let band = 1.0 + self.options.equivalent_within;
        let fastest = self.fastest().map_or(f64::INFINITY, |(v, _)| v);
        least > fastest * band
            || self.best_by_oddity[..=rank].iter().flatten().any(|&(v, _)| v <= least)
    }

    /// Above what no plan can change the typed plan's place: its own value, or, once
    /// `RANK_COUNTED` plans found beat it, the worst of the best `RANK_COUNTED`.
    fn place_bar(&self) -> f64 {
        match self.counted.peek() {
            Some(&Value(worst)) if self.counted.len() as u64 >= RANK_COUNTED => {
                self.yours_value.min(worst)
            }
            _ => self.yours_value,
        }
    }

    /// The best plan found under the objective, with its value.
    fn fastest(&self) -> Option<(f64, Plan)> {
        self.best_by_oddity.iter().flatten().copied().min_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The most conventional plan within the model's error of the fastest, when it is not the
    /// fastest itself.
    fn conventional(&self) -> Option<(f64, Plan)> {
        let (fastest, _) = self.fastest()?;
        let band = fastest * (1.0 + self.options.equivalent_within);
        let first = self.best_by_oddity.iter().flatten().find(|(v, _)| *v <= band).copied()?;
        (first.0 > fastest).then_some(first)
    }

    /// Every cell is done, or a plan reached `Options::good_enough`.
    pub fn done(&self) -> bool {
        self.next >= self.cells.len() || self.stopped || self.spent
    }

    /// Cells left when the search stopped at a plan good enough or at its budget.
    fn left(&self) -> usize {
        if self.stopped || self.spent {
            self.cells.len() - self.next
        } else {
            0
        }
    }

    /// The result so far.
    pub fn outcome(&self) -> Outcome {
        let best = self.ranked.first().map(|(v, _)| *v);
        let mut ranked: Vec<Plan> = self.ranked.iter().map(|(_, p)| *p).collect();
        let conventional = self.conventional();
        if let Some((_, plan)) = conventional {
            ranked.retain(|p| p != &plan);
            ranked.insert(0, plan);
            ranked.truncate(self.options.top);
        }
        let band = self.options.equivalent_within;
        let yours = match self.yours {
            Verdict::Fits(_) => {
                let behind = match best {
                    Some(b) if b > 0.0 && b < self.yours_value => {
                        finite(self.yours_value / b - 1.0)
                    }
                    _ => 0.0,
                };
                Placement {
                    verdict: self.yours,
                    rank: self.better_than_yours.min(RANK_COUNTED) + 1,
                    beyond: self.better_than_yours >= RANK_COUNTED,
                    behind,
                    within_error: behind <= band,
                }
            }
            verdict => {
                Placement { verdict, rank: 0, beyond: false, behind: 0.0, within_error: false }
            }
        };
        let none_because = if self.done() && self.ranked.is_empty() {
            Some(match (self.never, self.least_need) {
                (Some((mtbf_s, lost_s)), _) => {
                    NoPlan::NeverFinishes { plans: self.searched, mtbf_s, lost_s }
                }
                (None, Some((need_bytes, have_bytes))) => {
                    NoPlan::NothingFits { plans: self.searched, need_bytes, have_bytes }
                }
                (None, None) => NoPlan::NoneRuns { plans: self.searched },
            })
        } else {
            None
        };
        Outcome {
            objective: self.options.objective,
            ranked,
            fastest: conventional.and(self.ranked.first().map(|(_, p)| *p)),
            pareto: self.pareto.clone(),
            searched: self.searched,
            costed: self.costed,
            pruned: self.invalid + self.does_not_fit,
            invalid: self.invalid,
            does_not_fit: self.does_not_fit,
            never_finish: self.never_finish,
            evaluated: self.evaluated,
            yours,
            best_inside: self.best_inside.map(|(_, p)| p),
            equivalent_within: band,
            progress: (self.next + self.left(), self.cells.len()),
            skipped_cells: self.skipped_cells + self.left() as u64,
            none_because,
            budget_spent: self.spent,
        }
    }

    /// Every plan of cell `c`. With the layer costs and least steps of its shapes (`floor`),
    /// a search for the best plan alone skips the virtual stages of a shape that cannot come
    /// near its bar (`shape_bar`).
    fn cell(&mut self, inputs: &mut Inputs, c: Cell, costs: &[(LayerCosts, LeastStep)]) {
        let zero_max = if c.dp as u64 * c.cp as u64 > 1 { 3 } else { 0 };
        let typed = self.base.parallelism;
        let steps = steps_of(inputs, c.batch);
        let mut at = 0;
        each_shape(inputs, c, &typed, |inputs, v_max| {
            let mut per_shape = PerShape::of(inputs);
            let known = costs.get(at).copied();
            at += 1;
            self.costed += u64::from(known.is_none());
            per_shape.time = known.map(|(layers, _)| layers);
            for v in 1..=v_max {
                let bar = self.shape_bar();
                let short = |(_, least): (LayerCosts, LeastStep)| {
                    bar.is_some_and(|bar| self.least_of(days_of(steps, least.at(v))) > bar)
                };
                if known.is_some_and(short) {
                    continue;
                }
                inputs.parallelism.virtual_stages = v;
                let staged = Staged::of(inputs);
                self.shardings(inputs, &mut per_shape, &staged, zero_max);
            }
        });
    }

    /// Above what a plan can be set aside unjudged, within a cell that is searched: with the
    /// best plan alone asked for (no typed plan to place, no alternatives), the model's error
    /// beyond the best plan found so far or the bar to reach, whichever is lower. The best is
    /// at most either, and the plan shown in its place is within the error of it
    /// (`conventional`), so nothing set aside could be either; and once a plan reaches the bar,
    /// `go_on_to_best` finds what one search for the best would.
    fn shape_bar(&self) -> Option<f64> {
        let o = &self.options;
        if o.top != 1 || o.alternatives || self.typed.is_some() {
            return None;
        }
        let best = self.ranked.first().map(|(v, _)| *v);
        let bar = match (best, o.good_enough) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(bar * (1.0 + o.equivalent_within))
    }

    /// The days no plan of cell `c` beats, from its layer costs: the least step of each of its
    /// per-chip shapes (`step_time::LeastStep`, with the most virtual stages the shape allows)
    /// over the cell's steps. The layer costs and least step of its shapes, in the order
    /// `cell` tries them, are left in `costs`.
    fn floor(
        &mut self,
        inputs: &mut Inputs,
        c: Cell,
        costs: &mut Vec<(LayerCosts, LeastStep)>,
    ) -> f64 {
        costs.clear();
        let mut least = f64::INFINITY;
        let mut costed = 0;
        each_shape(inputs, c, &self.base.parallelism, |inputs, v_max| {
            let shape = Shape::of(inputs);
            let layers = LayerCosts::of(inputs, &shape);
            costed += 1;
            let layout = stages::stages(&inputs.transformer, &shape);
            let step = LeastStep::of(inputs, &shape, &layout, &layers);
            least = least.min(step.at(v_max));
            costs.push((layers, step));
        });
        self.costed += costed;
        days_of(steps_of(inputs, c.batch), least)
    }

    /// Every ZeRO stage of one plan. ZeRO-2, ZeRO-1 and ZeRO-0 shard less and less of the same
    /// state with nothing else changed, so once one of them does not fit, those after it do not
    /// either, and they are counted without being judged; whether a plan can run does not
    /// depend on its ZeRO stage, so one that cannot settles the rest too. ZeRO-3, which adds
    /// gathered layers, is judged on its own.
    fn shardings(
        &mut self,
        inputs: &mut Inputs,
        per_shape: &mut PerShape,
        staged: &Staged,
        zero_max: usize,
    ) {
        let order: &[Sharding] = if zero_max == 0 {
            &[Sharding::None]
        } else {
            &[Sharding::Gradients, Sharding::Optimizer, Sharding::None, Sharding::Full]
        };
        let mut settled: Option<Verdict> = None;
        for &sharding in order {
            inputs.parallelism.sharding = sharding;
            // The typed plan was placed first.
            if self.is_typed(inputs) {
                continue;
            }
            match settled {
                Some(Verdict::Invalid) => {
                    self.searched += 1;
                    self.invalid += 1;
                }
                Some(Verdict::DoesNotFit { .. }) if sharding != Sharding::Full => {
                    self.searched += 1;
                    self.does_not_fit += 1;
                }
                _ => {
                    let verdict = self.consider(inputs, per_shape, staged);
                    if matches!(verdict, Verdict::Invalid | Verdict::DoesNotFit { .. }) {
                        settled = Some(verdict);
                    }
                }
            }
        }
    }

    fn consider(&mut self, inputs: &Inputs, per_shape: &mut PerShape, staged: &Staged) -> Verdict {
        self.searched += 1;
        let found = self.found;
        self.found += 1;
        let verdict = evaluate_with(inputs, per_shape, staged);
        let plan = match verdict {
            Verdict::Invalid => {
                self.invalid += 1;
                return verdict;
            }
            Verdict::DoesNotFit { need_bytes, have_bytes } => {
                self.does_not_fit += 1;
                if self.least_need.is_none_or(|(least, _)| need_bytes < least) {
                    self.least_need = Some((need_bytes, have_bytes));
                }
                return verdict;
            }
            Verdict::NeverFinishes { mtbf_s, lost_s } => {
                self.never_finish += 1;
                self.never = Some((mtbf_s, lost_s));
                return verdict;
            }
            Verdict::Fits(plan) => plan,
        };
        self.evaluated += 1;
        let value = self.options.objective.of(&plan);
        if value < self.yours_value {
            self.better_than_yours += 1;
        }
        if matches!(self.yours, Verdict::Fits(_)) {
            self.counted.push(Value(value));
            if self.counted.len() as u64 > RANK_COUNTED {
                self.counted.pop();
            }
        }
        let typed = self.is_typed(inputs);
        if self.keep(plan, value, typed) {
            if let Some(journal) = &mut self.journal {
                journal.push((found, plan));
            }
        }
        verdict
    }

    /// Ranks `plan` (of `value` under the objective; `typed`, the typed plan), keeps it as the
    /// best keeping TP inside or of its kind, and on the front, as each deserves; true if any
    /// kept it.
    fn keep(&mut self, plan: Plan, value: f64, typed: bool) -> bool {
        let mut kept = false;
        let full = self.ranked.len() >= self.options.top;
        if !full || value < self.ranked[self.ranked.len() - 1].0 {
            let at = self.ranked.partition_point(|(v, _)| *v <= value);
            self.ranked.insert(at, (value, plan));
            self.ranked.truncate(self.options.top);
            kept = true;
        }
        let alternatives = self.options.alternatives;
        if alternatives
            && !plan.tp_crosses_domain()
            && self.best_inside.is_none_or(|(v, _)| value < v)
        {
            self.best_inside = Some((value, plan));
            kept = true;
        }
        // The typed plan is the user's choice: conventional for its ranking.
        let rank = if typed { 0 } else { plan.oddities.rank() };
        if self.best_by_oddity[rank].is_none_or(|(v, _)| value < v) {
            self.best_by_oddity[rank] = Some((value, plan));
            kept = true;
        }
        if alternatives {
            kept |= self.keep_on_front(plan);
        }
        kept
    }

    /// `inputs` carry the typed plan at the typed batch.
    fn is_typed(&self, inputs: &Inputs) -> bool {
        self.typed == Some(inputs.parallelism)
            && inputs.training.global_batch == self.base.training.global_batch
    }

    /// Adds `plan` to the front of days against cost unless a plan there is at least as good
    /// on both, and drops the plans it beats; true if it joined.
    fn keep_on_front(&mut self, plan: Plan) -> bool {
        let point = |p: &Plan| (p.wall_days(), p.run_usd);
        let (days, usd) = point(&plan);
        if self.pareto.iter().any(|q| q.wall_days() <= days && q.run_usd <= usd) {
            return false;
        }
        self.pareto.retain(|q| !(days <= q.wall_days() && usd <= q.run_usd));
        let at = self.pareto.partition_point(|q| point(q) < (days, usd));
        self.pareto.insert(at, plan);
        true
    }

    /// The shard `k` of `n` of the search `Search::placing` would make: every `n`th of its
    /// cells from the `k`th, in its order, the typed plan judged as it would be. The shards
    /// searched and put together (`merged`) rank the plans one search ranks, in its order.
    pub fn shard(
        base: &Inputs,
        typed: Option<Parallelism>,
        options: Options,
        k: usize,
        n: usize,
    ) -> Search {
        let n = n.max(1);
        // The shards share the one search's budget.
        let options = Options { budget: options.budget.div_ceil(n as u64), ..options };
        let mut search = Search::placing(base, typed, options);
        search.cells.retain(|c| c.index as usize % n == k % n);
        search.journal = Some(Vec::new());
        search
    }

    /// What this shard found, for `merged`: the plans it still keeps at its end (its best,
    /// its front, its best keeping TP inside and best of each kind) with their order, and its
    /// counts without the typed plan's judgement, which every shard makes. A plan one search
    /// keeps is kept by its shard too (nothing outside the shard can beat it there), and what
    /// a shard let go was beaten by a plan it keeps, so these put together keep what one
    /// search keeps.
    pub fn found_by_shard(&self) -> Shard {
        let typed = u64::from(self.typed.is_some());
        let typed_fits = u64::from(matches!(self.yours, Verdict::Fits(_)) && self.typed.is_some());
        let (invalid, does_not_fit, never) = match self.yours {
            Verdict::Invalid if self.typed.is_some() => (1, 0, 0),
            Verdict::DoesNotFit { .. } if self.typed.is_some() => (0, 1, 0),
            Verdict::NeverFinishes { .. } if self.typed.is_some() => (0, 0, 1),
            _ => (0, 0, 0),
        };
        // A plan is one choice of degrees, batch and domain: the search judges each once.
        let same = |a: &Plan, b: &Plan| {
            a.parallelism == b.parallelism
                && a.global_batch == b.global_batch
                && a.domain_chips == b.domain_chips
        };
        let kept: Vec<&Plan> = (self.ranked.iter().map(|(_, p)| p))
            .chain(self.best_inside.iter().map(|(_, p)| p))
            .chain(self.best_by_oddity.iter().flatten().map(|(_, p)| p))
            .chain(self.pareto.iter())
            .collect();
        let journal = self.journal.as_deref().unwrap_or_default();
        Shard {
            plans: journal
                .iter()
                .filter(|(_, plan)| kept.iter().any(|k| same(k, plan)))
                .copied()
                .collect(),
            counts: ShardCounts {
                searched: self.searched - typed,
                invalid: self.invalid - invalid,
                does_not_fit: self.does_not_fit - does_not_fit,
                never_finish: self.never_finish - never,
                evaluated: self.evaluated - typed_fits,
                better_than_yours: self.better_than_yours,
                skipped_cells: self.skipped_cells,
                cells: self.cells.len() as u64,
                least_need: self.least_need,
                never: self.never,
                budget_spent: self.spent,
            },
        }
    }

    /// The search `placing` would make, put together from what its shards found: every plan
    /// they kept offered again in the order one search finds them, so it ranks the same plans
    /// in the same order, with the same front, best plan keeping TP inside and typed plan's
    /// place; its counts are the shards' summed.
    pub fn merged(
        base: &Inputs,
        typed: Option<Parallelism>,
        options: Options,
        shards: &[Shard],
    ) -> Search {
        let mut search = Search::placing(base, typed, options);
        search.next = search.cells.len();
        let mut plans: Vec<(u64, Plan)> =
            shards.iter().flat_map(|s| s.plans.iter().copied()).collect();
        plans.sort_by_key(|(found, _)| *found);
        for (_, plan) in plans {
            let value = search.options.objective.of(&plan);
            search.keep(plan, value, false);
        }
        for shard in shards {
            let c = &shard.counts;
            search.searched += c.searched;
            search.invalid += c.invalid;
            search.does_not_fit += c.does_not_fit;
            search.never_finish += c.never_finish;
            search.evaluated += c.evaluated;
            search.better_than_yours += c.better_than_yours;
            search.skipped_cells += c.skipped_cells;
            if let Some((need, have)) = c.least_need {
                if search.least_need.is_none_or(|(least, _)| need < least) {
                    search.least_need = Some((need, have));
                }
            }
            search.never = search.never.or(c.never);
            search.spent |= c.budget_spent;
        }
        search
    }
}

/// A plan's value under the objective, ordered totally (`f64::total_cmp`) for a heap.
#[derive(Clone, Copy, Debug)]
struct Value(f64);

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Steps to train the inputs' tokens at a batch of `batch` sequences.
fn steps_of(inputs: &Inputs, batch: u32) -> f64 {
    let tokens_per_step = batch.max(1) as f64 * inputs.transformer.seq_len.max(1) as f64;
    (inputs.training.tokens.max(0.0) / tokens_per_step).ceil()
}

/// Days without failures of `steps` steps of `step_s` seconds each, a hair under, as a cell's
/// days bound, so that rounding never sets aside a plan that ties.
fn days_of(steps: f64, step_s: f64) -> f64 {
    finite(steps * step_s / 86_400.0) * (1.0 - 1e-9)
}

/// Sets `inputs` to each per-chip shape of cell `c` in the order the search tries them (micro-
/// batch, recomputation, sequence parallelism, context-parallel exchange; `typed` gives the
/// exchange's overlap where CP is off), calling `f` with the most virtual stages the shape's
/// micro-batches allow. Virtual stages and ZeRO stages, which leave the layer costs as they are,
/// are `f`'s to vary.
fn each_shape(
    inputs: &mut Inputs,
    c: Cell,
    typed: &Parallelism,
    mut f: impl FnMut(&mut Inputs, u32),
) {
    inputs.cluster.domain_chips = c.domain_chips;
    inputs.training.global_batch = c.batch;
    // Found plans split the layers by the model's rule (`Scenario::with_plan` clears a
    // typed first stage).
    inputs.parallelism.first_stage_layers = 0;
    let global = inputs.training.global_batch.max(1);
    let per_replica = global.div_ceil(c.dp);
    let layers = inputs.transformer.n_layers.max(1);
    let sp_options: &[bool] = if c.tp > 1 { &[true, false] } else { &[false] };
    // Fused attention already recomputes its scores, so selective recomputation is the
    // same plan as none (`memory`, `step_time::ops`): it is tried once.
    let recomputes: &[Recompute] = match inputs.transformer.attention {
        AttentionImpl::Flash => &[Recompute::None, Recompute::Full],
        AttentionImpl::Materialized => &[Recompute::None, Recompute::Selective, Recompute::Full],
    };
    let kinds = cp_kinds(inputs, c.tp, c.cp, typed.cp_kind);
    for mb in 1..=per_replica.min(MAX_MICRO_BATCH) {
        if per_replica % mb != 0 {
            continue;
        }
        let microbatches = per_replica / mb;
        // Interleaving needs a pipeline with a micro-batch for every stage, and a layer
        // for every chunk (a typed plan may leave chunks empty, as Llama 3's 16 x 8 for 126
        // layers does; the search does not).
        let v_max = if c.pp > 1 && microbatches >= c.pp {
            (layers / c.pp).clamp(1, MAX_VIRTUAL_STAGES)
        } else {
            1
        };
        for &recompute in recomputes {
            let elementwise: &[bool] =
                if recompute == Recompute::Full { &[false] } else { &[false, true] };
            for &ew in elementwise {
                let choices = sp_options.iter().flat_map(|sp| kinds.iter().map(move |k| (*sp, *k)));
                for (sp, kind) in choices {
                    let p = &mut inputs.parallelism;
                    p.cp_kind = kind;
                    p.cp_overlap = cp_overlap_of(kind, c.cp, typed.cp_overlap);
                    p.tensor = c.tp;
                    p.context = c.cp;
                    p.pipeline = c.pp;
                    p.data = c.dp;
                    p.expert = c.ep;
                    p.expert_tensor = c.etp;
                    p.micro_batch = mb;
                    p.recompute = recompute;
                    p.recompute_elementwise = ew;
                    p.sequence_parallel = sp;
                    f(inputs, v_max);
                }
            }
        }
    }
}

/// Searches every plan at once.
pub fn search(inputs: &Inputs, options: Options) -> Outcome {
    let mut s = Search::new(inputs, options);
    s.advance(usize::MAX);
    s.outcome()
}

/// The context-parallel exchanges a plan with `tp` and `cp` ranks is tried with: the typed one,
/// ring attention, and Ulysses inside the scale-up domain with a ring across where a domain has
/// room for more than one Ulysses rank beside the tensor ranks that divides the heads (else it
/// would be the ring again); without CP, the typed one alone.
pub fn cp_kinds(inputs: &Inputs, tp: u32, cp: u32, typed: CpKind) -> Vec<CpKind> {
    if cp <= 1 {
        return vec![typed];
    }
    let domain = inputs.cluster.rank_domain().max(1);
    let heads = inputs.transformer.n_heads;
    let room = (2..=cp).any(|u| {
        let ranks = tp.saturating_mul(u);
        cp % u == 0 && ranks <= domain && heads % ranks.max(1) == 0
    });
    let mut kinds = vec![typed];
    for kind in [CpKind::Ring, CpKind::Both] {
        if !kinds.contains(&kind) && (kind != CpKind::Both || room) {
            kinds.push(kind);
        }
    }
    kinds
}

/// Whether a plan's context-parallel exchange overlaps attention: the ring's and `both`'s do,
/// the all-gather's and Ulysses' do not; without CP, as typed.
pub fn cp_overlap_of(kind: CpKind, cp: u32, typed: bool) -> bool {
    if cp <= 1 {
        typed
    } else {
        matches!(kind, CpKind::Ring | CpKind::Both)
    }
}
