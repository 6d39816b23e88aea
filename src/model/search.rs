//! Plan search: every runnable plan for a workload on a cluster, evaluated and ranked.
//!
//! The space is the one Megatron-LM exposes (Narayanan et al. 2021, arXiv:2104.04473, §3;
//! Korthikanti et al. 2022, arXiv:2205.05198): tensor, context, pipeline, data and expert
//! degrees whose product is the cluster's chips, micro-batches that divide a replica's share
//! of the batch, virtual stages, ZeRO stages, recomputation and sequence parallelism. The
//! overlap flags belong to the software stack (`parallelism.stack`), not to the plan, so they
//! stay as the inputs set them. Calculon (Isaev et al. 2023, SC'23) searches a similar space
//! by running its full model on every point; here each point is first checked for what makes
//! it impossible, then for memory, and only plans that fit are timed.
//!
//! Evaluation reuses the model's own parts (`Shape`, `stages`, `memory::per_chip`,
//! `step_time::step`, `run`), so a ranked plan's numbers are exactly `estimate`'s. Nothing
//! on the way allocates: findings go to a sink that only remembers whether one was a problem.
//! The search advances cell by cell (one cell is a choice of degrees), so a caller can report
//! progress, stream the leaders and stop between cells.

use crate::model::memory::{self, LayerMemory};
use crate::model::parallelism::Shape;
use crate::model::stages::Stage;
use crate::model::step_time::LayerCosts;
use crate::model::warnings::{self, AnyProblem};
use crate::model::{finite, run, stages, step_time, utilisation};
use crate::model::{AttentionImpl, Inputs, Parallelism, Recompute, Sharding, StepBreakdown};

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

    /// The plan's value under this objective; lower is better.
    pub fn of(self, plan: &Plan) -> f64 {
        match self {
            Objective::TrainDays => plan.train_days,
            Objective::EffectiveDays => plan.wall_days(),
            // A run that never finishes costs no less than any that does: its figures cover only
            // the failure-free time.
            Objective::Cost if !plan.finishes() => f64::MAX,
            Objective::Energy if !plan.finishes() => f64::MAX,
            Objective::Cost => plan.run_usd,
            Objective::Energy => plan.energy_mwh,
        }
    }
}

/// What the caller wants from a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// What plans are ranked by.
    pub objective: Objective,
    /// How many of the best plans to keep.
    pub top: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { objective: Objective::TrainDays, top: 10 }
    }
}

/// One plan that runs and fits, with the figures it is ranked by.
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
    /// Share of wall-clock time that trains; zero when failures come faster than the run
    /// recovers, so it never finishes.
    pub goodput: f64,
    /// Amortised cost of the run, USD.
    pub run_usd: f64,
    /// Energy of the run at the site, MWh.
    pub energy_mwh: f64,
}

/// Where a plan falls short of a better one: the part of the step that grew the most.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gap {
    /// The breakdown part's label (`StepBreakdown::parts`).
    pub part: &'static str,
    /// Seconds per step that part adds over the better plan.
    pub seconds: f64,
    /// How much worse the plan is under the objective, as a fraction of the better one.
    pub behind: f64,
}

impl Plan {
    /// The run finishes despite failures.
    pub fn finishes(&self) -> bool {
        self.goodput > 0.0
    }

    /// Days including failures, or `f64::MAX` for a run that never finishes, for ranking.
    pub fn wall_days(&self) -> f64 {
        if self.finishes() {
            self.effective_train_days
        } else {
            f64::MAX
        }
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
        let base = objective.of(best);
        let behind = if base > 0.0 { finite(objective.of(self) / base - 1.0) } else { 0.0 };
        Gap { part, seconds: finite(seconds), behind }
    }
}

/// What became of one plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Something makes it impossible to run as written (`Severity::Problem`).
    Invalid,
    /// It runs out of memory: it needs `need_bytes` of `have_bytes`.
    DoesNotFit { need_bytes: f64, have_bytes: f64 },
    /// It runs and fits.
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
}

impl PerShape {
    fn of(inputs: &Inputs) -> PerShape {
        PerShape { time: None, memory: LayerMemory::of(inputs, &Shape::of(inputs)) }
    }
}

/// How layers and parameters fall on the stages, kept while the search varies ZeRO stages.
struct Staged {
    layout: [Stage; 3],
    params: [(f64, f64); 3],
}

impl Staged {
    fn of(inputs: &Inputs) -> Staged {
        let shape = Shape::of(inputs);
        let layout = stages::stages(&inputs.transformer, &shape);
        Staged { layout, params: step_time::layout_params(inputs, &shape, &layout) }
    }
}

fn evaluate_with(inputs: &Inputs, per_shape: &mut PerShape, staged: &Staged) -> Verdict {
    let shape = Shape::of(inputs);
    let mut problem = AnyProblem::default();
    warnings::check(inputs, &shape, &mut problem);
    if problem.0 {
        return Verdict::Invalid;
    }
    let Staged { layout, params } = staged;
    let memory = memory::per_chip_with(inputs, &shape, layout, params, &per_shape.memory);
    if !memory.fits {
        return Verdict::DoesNotFit { need_bytes: memory.peak_bytes, have_bytes: memory.hbm_bytes };
    }
    let time = per_shape.time.get_or_insert_with(|| LayerCosts::of(inputs, &shape));
    let (breakdown, _) = step_time::step_with(inputs, &shape, layout, params, time);
    let step_s = finite(breakdown.total());
    let totals = run(inputs, shape.chips_used, &breakdown, step_s);
    let batch = inputs.training.global_batch.max(1) as f64;
    let model_flops = finite(batch * inputs.transformer.model_flops_per_sequence());
    let mfu = utilisation(inputs, shape.chips_used, model_flops, step_s);
    Verdict::Fits(Plan {
        parallelism: inputs.parallelism,
        step_s,
        breakdown,
        peak_bytes: memory.peak_bytes,
        mfu,
        train_days: finite(totals.train_s / 86_400.0),
        effective_train_days: totals.reliability.effective_train_days,
        goodput: totals.reliability.goodput,
        run_usd: totals.facility.cost.run_amortized_usd,
        energy_mwh: totals.facility.energy_mwh,
    })
}

/// Days no plan on these chips can beat: the model FLOPs of the run at the chip's best
/// achievable GEMM rate (its peak in the faster datatype times `matmul_efficiency`) on every
/// chip. Every kernel takes at least its ideal time (`efficiency::kernel_s`), so a search's
/// best is never below it; sizing uses it to skip cluster sizes that cannot meet a deadline.
pub fn days_bound(inputs: &Inputs) -> f64 {
    let chip = &inputs.cluster.chip;
    let fastest = if inputs.fp8_active() {
        chip.bf16_flops_per_s.max(chip.fp8_flops_per_s)
    } else {
        chip.bf16_flops_per_s
    };
    let rate = fastest.max(1.0) * chip.matmul_efficiency.clamp(0.01, 1.0);
    let t = &inputs.transformer;
    let sequences = inputs.training.tokens.max(0.0) / t.seq_len.max(1) as f64;
    let chips = inputs.cluster.n_chips.max(1) as f64;
    finite(sequences * t.model_flops_per_sequence() / (rate * chips) / 86_400.0)
}

/// A choice of degrees; the search tries every schedule and memory option inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    tp: u32,
    cp: u32,
    pp: u32,
    dp: u32,
    ep: u32,
}

/// Where the plan the inputs carry ranks among the plans searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// What became of it.
    pub verdict: Verdict,
    /// 1 + the plans found strictly better; 0 when it does not run or fit.
    pub rank: u64,
    /// How much worse it is than the best plan found, as a fraction (0 when it is the best).
    pub behind: f64,
}

/// The result of a search (or of the part done so far).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The objective plans are ranked by.
    pub objective: Objective,
    /// The best plans, best first (ties keep the order they were found in).
    pub ranked: Vec<Plan>,
    /// Plans that finish and that no other beats on both days (with failures) and cost,
    /// fastest first.
    pub pareto: Vec<Plan>,
    /// Plans enumerated.
    pub searched: u64,
    /// Plans set aside before timing: `invalid` plus `does_not_fit`.
    pub pruned: u64,
    /// Plans that cannot run as written.
    pub invalid: u64,
    /// Plans that run out of memory.
    pub does_not_fit: u64,
    /// Plans timed.
    pub evaluated: u64,
    /// The inputs' own plan among them.
    pub yours: Placement,
    /// Cells (choices of degrees) done and in all.
    pub progress: (usize, usize),
    /// Why no plan is ranked, once the search is done and found none.
    pub none_because: Option<NoPlan>,
}

/// Why a finished search ranks no plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoPlan {
    /// No split of the chips into degrees divides the heads, layers and batch.
    NoSplit { chips: u32, heads: u32, global_batch: u32 },
    /// Plans split, but none fits: the least any needs, and what the chip has, bytes.
    NothingFits { plans: u64, need_bytes: f64, have_bytes: f64 },
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
    searched: u64,
    invalid: u64,
    does_not_fit: u64,
    evaluated: u64,
    yours: Verdict,
    yours_value: f64,
    better_than_yours: u64,
    /// The least memory any plan that does not fit needs, bytes, and the chip's.
    least_need: Option<(f64, f64)>,
}

impl Search {
    /// A search over every plan for the inputs' workload and cluster.
    pub fn new(inputs: &Inputs, options: Options) -> Search {
        let yours = evaluate(inputs);
        let yours_value = match &yours {
            Verdict::Fits(plan) => options.objective.of(plan),
            _ => f64::INFINITY,
        };
        Search {
            base: *inputs,
            options: Options { top: options.top.max(1), ..options },
            cells: cells(inputs),
            next: 0,
            ranked: Vec::new(),
            pareto: Vec::new(),
            searched: 0,
            invalid: 0,
            does_not_fit: 0,
            evaluated: 0,
            yours,
            yours_value,
            better_than_yours: 0,
            least_need: None,
        }
    }

    /// Searches up to `cells` more cells; true once every cell is done.
    pub fn advance(&mut self, cells: usize) -> bool {
        let end = self.next.saturating_add(cells).min(self.cells.len());
        let mut inputs = self.base;
        while self.next < end {
            let cell = self.cells[self.next];
            self.next += 1;
            self.cell(&mut inputs, cell);
        }
        self.done()
    }

    /// Every cell is done.
    pub fn done(&self) -> bool {
        self.next >= self.cells.len()
    }

    /// The result so far.
    pub fn outcome(&self) -> Outcome {
        let best = self.ranked.first().map(|(v, _)| *v);
        let yours = match self.yours {
            Verdict::Fits(_) => Placement {
                verdict: self.yours,
                rank: self.better_than_yours + 1,
                behind: match best {
                    Some(b) if b > 0.0 && b < self.yours_value => {
                        finite(self.yours_value / b - 1.0)
                    }
                    _ => 0.0,
                },
            },
            verdict => Placement { verdict, rank: 0, behind: 0.0 },
        };
        Outcome {
            objective: self.options.objective,
            ranked: self.ranked.iter().map(|(_, p)| *p).collect(),
            pareto: self.pareto.clone(),
            searched: self.searched,
            pruned: self.invalid + self.does_not_fit,
            invalid: self.invalid,
            does_not_fit: self.does_not_fit,
            evaluated: self.evaluated,
            yours,
            progress: (self.next, self.cells.len()),
            none_because: match (self.done() && self.ranked.is_empty(), self.least_need) {
                (false, _) => None,
                (true, Some((need_bytes, have_bytes))) => {
                    Some(NoPlan::NothingFits { plans: self.searched, need_bytes, have_bytes })
                }
                (true, None) => Some(NoPlan::NoSplit {
                    chips: self.base.cluster.n_chips,
                    heads: self.base.transformer.n_heads,
                    global_batch: self.base.training.global_batch,
                }),
            },
        }
    }

    fn cell(&mut self, inputs: &mut Inputs, c: Cell) {
        let global = inputs.training.global_batch.max(1);
        let per_replica = global / c.dp;
        let layers = inputs.transformer.n_layers.max(1);
        let zero_max = if c.dp as u64 * c.cp as u64 > 1 { 3 } else { 0 };
        let sp_options: &[bool] = if c.tp > 1 { &[true, false] } else { &[false] };
        // Fused attention already recomputes its scores, so selective recomputation is the
        // same plan as none (`memory`, `step_time::ops`): it is tried once.
        let recomputes: &[Recompute] = match inputs.transformer.attention {
            AttentionImpl::Flash => &[Recompute::None, Recompute::Full],
            AttentionImpl::Materialized => {
                &[Recompute::None, Recompute::Selective, Recompute::Full]
            }
        };
        for mb in 1..=per_replica.min(MAX_MICRO_BATCH) {
            if per_replica % mb != 0 {
                continue;
            }
            let microbatches = per_replica / mb;
            let v_max = if c.pp > 1 && microbatches % c.pp == 0 {
                layers.div_ceil(c.pp).min(MAX_VIRTUAL_STAGES)
            } else {
                1
            };
            for &recompute in recomputes {
                let elementwise: &[bool] =
                    if recompute == Recompute::Full { &[false] } else { &[false, true] };
                for &ew in elementwise {
                    for &sp in sp_options {
                        let p = &mut inputs.parallelism;
                        p.tensor = c.tp;
                        p.context = c.cp;
                        p.pipeline = c.pp;
                        p.data = c.dp;
                        p.expert = c.ep;
                        p.micro_batch = mb;
                        p.recompute = recompute;
                        p.recompute_elementwise = ew;
                        p.sequence_parallel = sp;
                        let mut per_shape = PerShape::of(inputs);
                        for v in 1..=v_max {
                            inputs.parallelism.virtual_stages = v;
                            let staged = Staged::of(inputs);
                            for sharding in &SHARDINGS[..=zero_max] {
                                inputs.parallelism.sharding = *sharding;
                                self.consider(inputs, &mut per_shape, &staged);
                            }
                        }
                    }
                }
            }
        }
    }

    fn consider(&mut self, inputs: &Inputs, per_shape: &mut PerShape, staged: &Staged) {
        self.searched += 1;
        let plan = match evaluate_with(inputs, per_shape, staged) {
            Verdict::Invalid => {
                self.invalid += 1;
                return;
            }
            Verdict::DoesNotFit { need_bytes, have_bytes } => {
                self.does_not_fit += 1;
                if self.least_need.is_none_or(|(least, _)| need_bytes < least) {
                    self.least_need = Some((need_bytes, have_bytes));
                }
                return;
            }
            Verdict::Fits(plan) => plan,
        };
        self.evaluated += 1;
        let value = self.options.objective.of(&plan);
        if value < self.yours_value {
            self.better_than_yours += 1;
        }
        let full = self.ranked.len() >= self.options.top;
        if !full || value < self.ranked[self.ranked.len() - 1].0 {
            let at = self.ranked.partition_point(|(v, _)| *v <= value);
            self.ranked.insert(at, (value, plan));
            self.ranked.truncate(self.options.top);
        }
        self.keep_on_front(plan);
    }

    /// Adds `plan` to the front of days against cost unless a plan there is at least as good
    /// on both, and drops the plans it beats.
    fn keep_on_front(&mut self, plan: Plan) {
        if !plan.finishes() {
            return;
        }
        let point = |p: &Plan| (p.wall_days(), p.run_usd);
        let (days, usd) = point(&plan);
        if self.pareto.iter().any(|q| q.wall_days() <= days && q.run_usd <= usd) {
            return;
        }
        self.pareto.retain(|q| !(days <= q.wall_days() && usd <= q.run_usd));
        let at = self.pareto.partition_point(|q| point(q) < (days, usd));
        self.pareto.insert(at, plan);
    }
}

const SHARDINGS: [Sharding; 4] =
    [Sharding::None, Sharding::Optimizer, Sharding::Gradients, Sharding::Full];

/// Searches every plan at once.
pub fn search(inputs: &Inputs, options: Options) -> Outcome {
    let mut s = Search::new(inputs, options);
    s.advance(usize::MAX);
    s.outcome()
}

/// Every choice of degrees that can run: tensor parallelism dividing the heads, context
/// parallelism only for long sequences, no more stages than layers, no more replicas than
/// sequences in the batch, each replica an equal share of it, expert parallelism (models with
/// experts only) dividing the experts and the data x context ranks. Degrees that split no
/// divisor are the model's problems too; checking them here only saves time.
fn cells(inputs: &Inputs) -> Vec<Cell> {
    let n = inputs.cluster.n_chips.max(1);
    let t = &inputs.transformer;
    let global = inputs.training.global_batch.max(1);
    let mut out = Vec::new();
    for tp in divisors(n).filter(|&d| d <= MAX_TP && t.n_heads % d == 0) {
        for cp in divisors(n / tp).filter(|&d| {
            d == 1
                || (d <= MAX_CP && t.seq_len / d >= MIN_CP_CHUNK_TOKENS && t.seq_len % (2 * d) == 0)
        }) {
            for pp in divisors(n / tp / cp).filter(|&d| d <= t.n_layers.max(1)) {
                let dp = n / tp / cp / pp;
                if dp > global || global % dp != 0 {
                    continue;
                }
                match t.moe {
                    Some(moe) => {
                        let ranks = dp as u64 * cp as u64;
                        for ep in divisors(moe.n_experts.max(1)).filter(|&e| ranks % e as u64 == 0)
                        {
                            out.push(Cell { tp, cp, pp, dp, ep });
                        }
                    }
                    None => out.push(Cell { tp, cp, pp, dp, ep: 1 }),
                }
            }
        }
    }
    out
}

/// The divisors of `n`, ascending.
fn divisors(n: u32) -> impl Iterator<Item = u32> {
    let n = n.max(1);
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut d = 1u32;
    while (d as u64) * (d as u64) <= n as u64 {
        if n % d == 0 {
            small.push(d);
            if d != n / d {
                large.push(n / d);
            }
        }
        d += 1;
    }
    small.into_iter().chain(large.into_iter().rev())
}
