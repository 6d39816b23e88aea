//! The choices of degrees a search tries (`Cell`): tensor, context, pipeline, data and expert
//! degrees on each placement worth trying, each with the days no plan of it can beat.

use super::{MAX_CP, MAX_TP, MIN_CP_CHUNK_TOKENS};
use crate::model::stages;
use crate::model::{finite, Cluster, Inputs};

/// A choice of degrees; the search tries every schedule and memory option inside it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Cell {
    pub(super) tp: u32,
    pub(super) cp: u32,
    pub(super) pp: u32,
    pub(super) dp: u32,
    pub(super) ep: u32,
    pub(super) etp: u32,
    /// Chips of each scale-up domain the ranks are placed on (`Cluster::domain_chips`).
    pub(super) domain_chips: u32,
    /// The global batch, sequences: the typed one, or one raised up to the largest accepted
    /// (`batches`).
    pub(super) batch: u32,
    /// Days no plan of the cell beats: each chip of a replica does at least its share of the
    /// model FLOPs of its share of the batch (padding included) at the chip's best rate.
    pub(super) days_bound: f64,
    /// Days no plan of the cell beats, at least `days_bound`: raised by `Search::floor` from
    /// the cell's layer costs before it is searched.
    pub(super) floor_days: f64,
    /// Its place in the whole search's order, most promising first (`Search::placing`), which
    /// orders the plans of searches over its shards as one search would find them.
    pub(super) index: u32,
}

/// Every choice of degrees and batch worth trying on at most the cluster's chips (the batch of
/// `batch`): tensor parallelism
/// dividing the heads, context parallelism only for long sequences, the pipeline degrees of
/// `pipeline_degrees`, the data-parallel degrees of `data_degrees`, and for models with
/// experts, expert parallelism dividing the experts, with expert tensor parallelism equal to the
/// tensor-parallel degree or 1, folded over the tensor x context x data ranks. Degrees that split no
/// divisor are the model's problems too; checking them here only saves time.
pub(super) fn cells(inputs: &Inputs) -> Vec<Cell> {
    let mut out = Vec::new();
    for domain_chips in placements(&inputs.cluster) {
        let mut placed = *inputs;
        placed.cluster.domain_chips = domain_chips;
        cells_placed(&placed, &mut out);
    }
    out
}

/// The placements worth trying: the one the cluster sets, or with none set, every chip of
/// each domain and, on a scale-up domain that is not a power of two (72-GPU NVL72 racks,
/// 384-NPU CloudMatrix), its largest power of two, which keeps groups of powers of two
/// inside domains (Megatron-Bridge places jobs larger than an NVL72 rack on 64 of its GPUs).
pub fn placements(cluster: &Cluster) -> Vec<u32> {
    let domain = cluster.scale_up.domain_size.max(1);
    if cluster.domain_chips != 0 && cluster.domain_chips < domain {
        return vec![cluster.domain_chips];
    }
    let power_of_two = 1u32 << (31 - domain.leading_zeros());
    if power_of_two < domain && power_of_two >= 8 {
        vec![0, power_of_two]
    } else {
        vec![0]
    }
}

/// The cells of `cells` on the placement `inputs` sets, appended to `out`.
fn cells_placed(inputs: &Inputs, out: &mut Vec<Cell>) {
    let domain_chips = inputs.cluster.domain_chips;
    let n = inputs.cluster.usable_chips().max(1);
    let t = &inputs.transformer;
    let typed = inputs.training.global_batch.max(1);
    let largest = inputs.max_batch_sequences();
    let pipelines = pipeline_degrees(inputs);
    // Each batch tried with its divisors, worked out once.
    let mut divisors_of: Vec<(u32, Vec<u32>)> = Vec::new();
    let bound = CellBound::of(inputs);
    let expert_degrees: Vec<u32> =
        t.moe.map_or(vec![1], |m| divisors(m.n_experts.max(1)).collect());
    for tp in (1..=MAX_TP.min(n)).filter(|&d| t.n_heads % d == 0) {
        let cps = (1..=MAX_CP).filter(|&d| {
            d == 1 || (t.seq_len / d >= MIN_CP_CHUNK_TOKENS && t.seq_len % (2 * d) == 0)
        });
        for cp in cps.filter(|&cp| tp as u64 * cp as u64 <= n as u64) {
            for &pp in pipelines.iter().filter(|&&pp| tp as u64 * cp as u64 * pp as u64 <= n as u64)
            {
                let replicas = n / (tp * cp * pp);
                {
                    let batch = batch(typed, largest, replicas, pp);
                    let at = match divisors_of.iter().position(|(b, _)| *b == batch) {
                        Some(at) => at,
                        None => {
                            divisors_of.push((batch, divisors(batch).collect()));
                            divisors_of.len() - 1
                        }
                    };
                    let most = replicas.min(batch);
                    let dps = data_degrees_of(batch, most, pp, &divisors_of[at].1);
                    for dp in dps.into_iter().flatten() {
                        let days_bound = bound.days(tp * cp * pp, batch, batch.div_ceil(dp));
                        let cell = Cell {
                            tp,
                            cp,
                            pp,
                            dp,
                            ep: 1,
                            etp: tp,
                            domain_chips,
                            days_bound,
                            floor_days: days_bound,
                            batch,
                            index: 0,
                        };
                        if t.moe.is_none() {
                            out.push(cell);
                            continue;
                        }
                        // Experts folded over the stage's tensor x context x data ranks, split
                        // either as the attention is (ETP = TP) or not at all (ETP = 1).
                        let ranks = tp as u64 * cp as u64 * dp as u64;
                        for etp in if tp > 1 { vec![tp, 1] } else { vec![1] } {
                            let fits = |e: &&u32| ranks % (**e as u64 * etp as u64) == 0;
                            for &ep in expert_degrees.iter().filter(fits) {
                                out.push(Cell { ep, etp, ..cell });
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The global batch worth trying for a pipeline of `pp` stages with room for `replicas`
/// replicas: the typed one, or where that leaves replicas without 2 x PP sequences each (a
/// pipeline's bubble then grows past a third of its step), the smallest doubling of it that
/// gives them, up to the largest accepted (`largest`). On the same chips a larger batch only
/// shortens the bubble and spreads each step's fixed costs, so the typed batch cannot rank
/// above the raised one; teams raise the batch only as far as the cluster needs (Llama 3's
/// 16M tokens at 16K GPUs, arXiv:2407.21783, §3.4.1).
pub fn batch(typed: u32, largest: u32, replicas: u32, pp: u32) -> u32 {
    let typed = typed.max(1);
    let wanted = replicas.max(1) as u64 * 2 * pp.max(1) as u64;
    let mut raised = typed as u64;
    while raised < wanted && raised * 2 <= largest as u64 {
        raised *= 2;
    }
    raised as u32
}

/// What a cell's days bound is made of: tokens, sequence length, model FLOPs per sequence,
/// the chip's best rate.
struct CellBound {
    tokens: f64,
    seq_len: f64,
    flops_per_sequence: f64,
    rate: f64,
}

impl CellBound {
    fn of(inputs: &Inputs) -> CellBound {
        let fastest = inputs.fastest_gemm_flops_per_s();
        let t = &inputs.transformer;
        CellBound {
            tokens: inputs.training.tokens.max(0.0),
            seq_len: t.seq_len.max(1) as f64,
            flops_per_sequence: t.model_flops_per_sequence(),
            rate: fastest.max(1.0) * inputs.kernel_efficiency(),
        }
    }

    /// Days for replicas of `chips` chips each running `share` of a `batch`-sequence step.
    fn days(&self, chips: u32, batch: u32, share: u32) -> f64 {
        let steps = (self.tokens / (batch.max(1) as f64 * self.seq_len)).ceil();
        let step = share as f64 * self.flops_per_sequence / (chips.max(1) as f64 * self.rate);
        // A hair under, so rounding never skips a plan that ties.
        finite(steps * step / 86_400.0) * (1.0 - 1e-9)
    }
}

/// The pipeline degrees worth trying: each one whose busiest stage (`stages::busiest`, the
/// output layer counted) holds less than with any fewer stages. A degree that does not lighten
/// the busiest stage sets the same pace with more bubble, more micro-batches in flight and
/// fewer replicas, so it cannot win.
pub fn pipeline_degrees(inputs: &Inputs) -> Vec<u32> {
    let t = &inputs.transformer;
    let mut out = Vec::new();
    let mut lightest = f64::INFINITY;
    for pp in 1..=t.n_layers.max(1) {
        let work = stages::busiest(t, pp);
        if work < lightest - 1e-9 {
            lightest = work;
            out.push(pp);
        }
    }
    out
}

/// The data-parallel degrees worth trying with at most `most` replicas: for each of three
/// shares of the batch, the fewest replicas that give every replica at most that share (more
/// replicas at the same share only add chips that wait). The shares: the smallest the chips
/// allow (its last micro-batch may be padded, as the form allows); the smallest that splits
/// the batch evenly; and the smallest that is a multiple of the pipeline stages, so that an
/// interleaved schedule runs whole rounds of micro-batches.
pub fn data_degrees(global: u32, most: u32, pp: u32) -> [Option<u32>; 3] {
    let batch_divisors: Vec<u32> = divisors(global.max(1)).collect();
    data_degrees_of(global, most, pp, &batch_divisors)
}

/// `data_degrees` with the batch's divisors at hand.
fn data_degrees_of(global: u32, most: u32, pp: u32, batch_divisors: &[u32]) -> [Option<u32>; 3] {
    let most = most.max(1);
    let fewest = |share: u32| global.div_ceil(share.max(1));
    let smallest = fewest(global.div_ceil(most));
    let even = batch_divisors.iter().copied().filter(|&d| d <= most).max().unwrap_or(1);
    let rounds = fewest(global.div_ceil(most).div_ceil(pp.max(1)).saturating_mul(pp.max(1)));
    let mut out = [Some(smallest), Some(even), Some(rounds)];
    if out[1] == out[0] {
        out[1] = None;
    }
    if out[2] == out[0] || out[2] == out[1] {
        out[2] = None;
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
