//! One job over pools of different chips (a fleet of H800 beside Ascend 910B): each pool is a
//! whole cluster description with the plan it runs its part with, and the job splits the work
//! between the pools by data (each runs data-parallel replicas on its share of the batch) or by
//! pipeline (each holds a contiguous share of the layers), in proportion to speed, as Metis
//! (USENIX ATC'24) and HexiScale (arXiv:2409.01143) split heterogeneous clusters; or the pools
//! run apart, each its own job, which is the baseline to beat.
//!
//! What the pools exchange crosses the link between them, which the scenario states (host-staged
//! TCP unless RDMA works between vendors): gradients once a step after each pool's own
//! reduction (hierarchical data parallelism: a ring over the pools), or activations and their
//! gradients at each pool boundary (pipeline sends, overlapped with compute as Megatron-Core
//! overlaps them, all but the first micro-batch's).
//!
//! A job never runs on a pool that would only slow it: the split chosen is the fastest of the
//! proportional split over every pool and each pool alone, so it is never slower than its fastest
//! pool, and never faster than the pools apart added up.

use crate::model::efficiency::{least_rate, overlapped};
use crate::model::{estimate, finite, step_and_fit, Estimate, Inputs};

/// How one job spans its pools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Across {
    /// Contiguous layers on each pool, in proportion to its speed.
    Pipeline,
    /// Data-parallel replicas on each pool, the batch split in proportion to speed, gradients
    /// reduced across pools once a step.
    Data,
    /// Each pool its own job (the tokens split in proportion to speed): the baseline.
    Separate,
}

/// The link between pools: bandwidth of the whole link, bytes/s, and latency, s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Between {
    pub bytes_per_s: f64,
    pub latency_s: f64,
}

impl Between {
    /// The link as its transport uses it: `line_bytes_per_s` of line rate, and `latency_s` of
    /// the network's own start-up. Between vendors without RDMA, every transfer is staged
    /// through host memory and sent over TCP, which reaches a share of the line rate and adds
    /// its own start-up (`efficiency::HOST_STAGED_*`).
    pub fn stated(line_bytes_per_s: f64, rdma: bool, latency_s: f64) -> Between {
        use crate::model::efficiency::{HOST_STAGED_LATENCY_S, HOST_STAGED_SHARE};
        if rdma {
            Between { bytes_per_s: line_bytes_per_s, latency_s }
        } else {
            Between {
                bytes_per_s: line_bytes_per_s * HOST_STAGED_SHARE,
                latency_s: latency_s + HOST_STAGED_LATENCY_S,
            }
        }
    }
}

/// One pool's part of the job.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PoolPart {
    /// Its chips.
    pub chips: u32,
    /// Its share of the batch (data), of the layers (pipeline) or of the tokens (separate); 0
    /// when the job leaves it out.
    pub share: f64,
    /// Seconds of each step it computes.
    pub busy_s: f64,
    /// Seconds of each step it waits, for slower pools and for the link.
    pub waits_s: f64,
    /// Its part fits in its chips' memory.
    pub fits: bool,
    /// Its model FLOPs utilisation over the job's step: the work of its share at the job's
    /// pace, waits included.
    pub mfu: f64,
}

/// A job over pools.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoolsEstimate {
    /// Seconds per optimizer step (for separate jobs, the time the pools together take for one
    /// global batch).
    pub step_s: f64,
    /// Seconds of each step spent on the link between pools, not hidden behind compute.
    pub link_s: f64,
    pub tokens_per_s: f64,
    /// Failure-free days to train the token budget.
    pub train_days: f64,
    /// Each pool's part, in the order given.
    pub parts: Vec<PoolPart>,
    /// Every pool used fits its part.
    pub fits: bool,
    /// The link between pools the job needs for 95 % of its speed over an unlimited one, Gb/s
    /// (0 when nothing crosses it, infinite when its latency alone costs more).
    pub gbit_per_s_needed: f64,
}

/// Each pool on its own, the whole job: its speed when it runs alone.
fn alone(pools: &[Inputs]) -> Vec<Estimate> {
    pools.iter().map(estimate).collect()
}

/// Tokens in one global batch.
fn batch_tokens(i: &Inputs) -> f64 {
    i.training.global_batch as f64 * i.transformer.seq_len as f64
}

/// The job over `pools` (each describing the same model and training), spanning them as `how`
/// says over the link `between`.
pub fn across(pools: &[Inputs], how: Across, between: Between) -> PoolsEstimate {
    across_with(pools, &alone(pools), how, between, None)
}

/// The same, with each pool's estimate alone (`solo`) already made, and the shares the user
/// gave (`given`, one per pool, scaled to sum to 1) in place of the split by speed: a split
/// given is kept as it is, even where a pool alone would be faster.
pub fn across_with(
    pools: &[Inputs],
    solo: &[Estimate],
    how: Across,
    between: Between,
    given: Option<&[f64]>,
) -> PoolsEstimate {
    let Some(first) = pools.first() else { return PoolsEstimate::default() };
    let mut best = match given.and_then(|g| normalised(g, pools.len())) {
        Some(shares) => split(pools, solo, how, &shares, between),
        None => {
            let speeds: Vec<f64> = solo.iter().map(|e| e.tokens_per_s.max(0.0)).collect();
            let mut shares = normalised(&speeds, pools.len()).unwrap_or_default();
            // One pool on the whole batch has nothing to balance and no other pool to drop:
            // each round and each pool alone would give this same job again.
            let alone = shares == [1.0];
            // By data, a pool on less of the batch runs fewer micro-batches and so less
            // efficiently than alone: shares follow each pool's speed on its own share, a few
            // rounds, until their steps meet.
            if how == Across::Data && !alone {
                for _ in 0..BALANCE_ROUNDS {
                    let job = split(pools, solo, how, &shares, between);
                    let rates: Vec<f64> = job
                        .parts
                        .iter()
                        .map(|p| if p.busy_s > 0.0 { p.share / p.busy_s } else { 0.0 })
                        .collect();
                    match normalised(&rates, pools.len()) {
                        Some(next) => shares = next,
                        None => break,
                    }
                }
            }
            let mut best = split(pools, solo, how, &shares, between);
            // A pool runs whole rounds of micro-batches on its replicas, so a share between two
            // whole rounds costs a round it half uses: each pool's share is also tried at the
            // whole rounds either side, the last taking what is left.
            if how == Across::Data && !alone {
                for candidate in whole_rounds(pools, &shares) {
                    let job = split(pools, solo, how, &candidate, between);
                    if job.tokens_per_s > best.tokens_per_s {
                        best = job;
                    }
                }
            }
            // A pool alone, when the others would only slow the job.
            for i in (0..pools.len()).filter(|_| !alone) {
                let only: Vec<f64> =
                    (0..pools.len()).map(|j| f64::from(u8::from(i == j))).collect();
                let candidate = split(pools, solo, how, &only, between);
                if candidate.tokens_per_s > best.tokens_per_s {
                    best = candidate;
                }
            }
            best
        }
    };
    best.train_days = if best.tokens_per_s > 0.0 {
        finite(first.training.tokens / best.tokens_per_s / 86_400.0)
    } else {
        f64::INFINITY
    };
    best
}

/// The whole fleet as one result: the job's days, its days with failures (an interruption of
/// any pool it uses stops it all), and what every pool costs and draws, built whether or not
/// the job uses it (those it leaves out idle).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FleetTotals {
    pub train_days: f64,
    /// `None` when interruptions come faster than the job recovers.
    pub effective_train_days: Option<f64>,
    pub capex_usd: f64,
    pub power_w: f64,
}

/// The totals of `job` over `pools`, each with its estimate alone (`solo`). The job checkpoints
/// as its first pool used does; its interruptions are every used pool's together.
pub fn totals(pools: &[Inputs], solo: &[Estimate], job: &PoolsEstimate) -> FleetTotals {
    let used = |i: usize| job.parts.get(i).is_some_and(|p| p.share > 0.0);
    let (mut capex_usd, mut power_w, mut per_day) = (0.0, 0.0, 0.0);
    let mut first: Option<&Estimate> = None;
    for (i, (inputs, e)) in pools.iter().zip(solo).enumerate() {
        capex_usd += e.facility.cost.capex_usd;
        if used(i) {
            power_w += e.facility.power.facility_w;
            per_day += e.reliability.interruptions_per_day;
            first = first.or(Some(e));
        } else {
            power_w += crate::model::facility::idle_w(inputs, &e.facility);
        }
    }
    let effective_train_days = first.and_then(|e| {
        let r = &e.reliability;
        let mtbf_s = if per_day > 0.0 { 86_400.0 / per_day } else { f64::INFINITY };
        let (interval, stall, lost) =
            (r.checkpoint_interval_s, r.checkpoint_stall_s, r.lost_per_interruption_s);
        let goodput = crate::model::reliability::goodput_losing(interval, stall, mtbf_s, lost);
        (goodput > 0.0).then(|| finite(job.train_days / goodput))
    });
    FleetTotals { train_days: job.train_days, effective_train_days, capex_usd, power_w }
}

/// Share of a step's compute in the backward pass, which a synchronous reduction across pools
/// or sites overlaps: two of its three matmul passes (Narayanan et al. 2021, arXiv:2104.04473,
/// §3).
pub const BACKWARD_SHARE: f64 = 2.0 / 3.0;

/// Rounds of balancing a split by data on each pool's speed at its share (`across_with`):
/// three bring two pools' steps within about a percent of each other.
const BALANCE_ROUNDS: usize = 3;

/// `shares` with one pool's share moved to the whole rounds of micro-batches just below and
/// just above it (its replicas times its micro-batch, in sequences of the global batch), the
/// last pool used taking what is left: two tries for each pool but the last.
fn whole_rounds(pools: &[Inputs], shares: &[f64]) -> Vec<Vec<f64>> {
    let Some(first) = pools.first() else { return Vec::new() };
    let batch = first.training.global_batch.max(1) as f64;
    let Some(last) = shares.iter().rposition(|s| *s > 0.0) else { return Vec::new() };
    let mut out = Vec::new();
    for (i, (p, &share)) in pools.iter().zip(shares).enumerate() {
        if i == last || share <= 0.0 || share >= 1.0 {
            continue;
        }
        let round =
            (p.parallelism.data.max(1) as f64 * p.parallelism.micro_batch.max(1) as f64).min(batch);
        let rounds = share * batch / round;
        for whole in [rounds.floor(), rounds.ceil()] {
            let moved = whole * round / batch - share;
            if whole < 1.0 || moved == 0.0 || shares[last] - moved <= 0.0 {
                continue;
            }
            let mut candidate = shares.to_vec();
            candidate[i] += moved;
            candidate[last] -= moved;
            out.push(candidate);
        }
    }
    out
}

/// `weights` scaled to sum to 1, when there is one per pool and they sum to more than 0.
fn normalised(weights: &[f64], pools: usize) -> Option<Vec<f64>> {
    let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    (weights.len() == pools && total > 0.0 && total.is_finite())
        .then(|| weights.iter().map(|w| w.max(0.0) / total).collect())
}

/// The job with the work split by `shares` (summing to 1): the share of the batch, the layers
/// or the tokens each pool takes.
pub fn split(
    pools: &[Inputs],
    solo: &[Estimate],
    how: Across,
    shares: &[f64],
    between: Between,
) -> PoolsEstimate {
    let Some(first) = pools.first() else { return PoolsEstimate::default() };
    let tokens = batch_tokens(first);
    let used = shares.iter().filter(|s| **s > 0.0).count();
    let bandwidth = between.bytes_per_s.max(1.0);
    let mut parts: Vec<PoolPart> = pools
        .iter()
        .zip(solo)
        .zip(shares)
        .map(|((p, e), &share)| PoolPart {
            chips: p.cluster.n_chips,
            share,
            busy_s: 0.0,
            waits_s: 0.0,
            fits: share <= 0.0 || e.memory.fits,
            mfu: 0.0,
        })
        .collect();
    let mut needed = 0.0;
    let (compute_s, link_s) = match how {
        Across::Separate => {
            // Apart, each runs at its own speed on its share of the tokens.
            let speed: f64 = solo
                .iter()
                .zip(shares)
                .filter(|(_, s)| **s > 0.0)
                .map(|(e, _)| e.tokens_per_s)
                .sum();
            let step = if speed > 0.0 { tokens / speed } else { f64::INFINITY };
            for part in &mut parts {
                part.busy_s = if part.share > 0.0 { step } else { 0.0 };
            }
            (step, 0.0)
        }
        Across::Data => {
            // Each pool's replicas on its share of the batch; then the gradients, reduced in
            // each pool, go once round a ring over the pools. Each pool's reduction is one
            // with every pool's replicas (`Cluster::job_chips`).
            // (The pools of a site in a job over sites already span them all.)
            let in_use = || pools.iter().zip(shares).filter(|(_, s)| **s > 0.0).map(|(p, _)| p);
            let job_chips = in_use()
                .map(|p| p.cluster.n_chips)
                .fold(0, u32::saturating_add)
                .max(in_use().map(|p| p.cluster.job_chips).max().unwrap_or(0));
            // Whole sequences for each pool; the last pool used takes what rounding leaves, so
            // the pools together run the global batch, no more and no less.
            let whole_batch = first.training.global_batch.max(1) as f64;
            let last = shares.iter().rposition(|s| *s > 0.0);
            let mut given = 0.0;
            for (i, (((part, p), e), &share)) in
                parts.iter_mut().zip(pools).zip(solo).zip(shares).enumerate()
            {
                if share <= 0.0 {
                    continue;
                }
                // The whole batch is the pool alone.
                if share >= 1.0 {
                    part.busy_s = e.step_s;
                    part.fits = e.memory.fits;
                    continue;
                }
                let mut own = *p;
                let batch = if Some(i) == last {
                    (whole_batch - given).max(1.0)
                } else {
                    (whole_batch * share).round().clamp(1.0, (whole_batch - given - 1.0).max(1.0))
                };
                given += batch;
                own.training.global_batch = batch as u32;
                own.cluster.job_chips = job_chips;
                (part.busy_s, part.fits) = step_and_fit(&own);
                // Less of the batch only adds to a pool's bubble and leaves more of its
                // reduction unhidden, so its share never goes faster a token than the whole
                // batch does alone (what the rounding of a share's micro-batches could show).
                let whole = p.training.global_batch.max(1) as f64;
                part.busy_s = part.busy_s.max(e.step_s * batch / whole);
            }
            // (Counted only where a ring runs: one pool alone has none.)
            let gradients = if used > 1 {
                first.transformer.params() * first.training.grad_bytes()
            } else {
                0.0
            };
            let n = used as f64;
            let ring = |bandwidth: f64| {
                if used > 1 {
                    2.0 * (n - 1.0) / n * gradients / bandwidth
                        + 2.0 * (n - 1.0) * between.latency_s
                } else {
                    0.0
                }
            };
            // Hierarchical: each bucket, reduced in its pool, goes round the pools while the
            // backward pass computes the next (with data-parallel overlap), on the link between
            // pools rather than the pools' own fabrics; what the backward pass leaves is exposed,
            // and what it hides slows it as a reduction inside a pool does
            // (`efficiency::overlapped`).
            // One synchronous step waits for the slowest chip of every pool, beyond the
            // slowest of its own that each pool's step holds (`efficiency::slowest_of`).
            let all: u32 = parts.iter().filter(|p| p.share > 0.0).map(|p| p.chips).sum();
            let slowest = crate::model::efficiency::slowest_of;
            for part in parts.iter_mut().filter(|p| p.share > 0.0 && used > 1) {
                part.busy_s *= 1.0 + (slowest(all) - slowest(part.chips)).max(0.0);
            }
            let compute = parts.iter().map(|p| p.busy_s).fold(0.0, f64::max);
            let window = if first.parallelism.dp_overlap { BACKWARD_SHARE * compute } else { 0.0 };
            let waits = |bandwidth: f64| overlapped(ring(bandwidth), window);
            // Waiting at most a nineteenth of the compute.
            if used > 1 {
                needed = least_rate(compute / 19.0, waits);
            }
            (compute, waits(bandwidth))
        }
        Across::Pipeline => {
            // Contiguous whole layers on each pool in the order given, the last used pool taking
            // what rounding leaves and the output layer; each pool's time and memory are its own
            // plan's over its layers. The
            // activations, and their gradients coming back, cross each boundary between pools
            // every micro-batch, overlapped with compute but for the first.
            let layers = first.transformer.n_layers.max(1);
            let mut given = 0;
            let last = shares.iter().rposition(|s| *s > 0.0);
            for (i, (((part, p), e), &share)) in
                parts.iter_mut().zip(pools).zip(solo).zip(shares).enumerate()
            {
                if share <= 0.0 {
                    continue;
                }
                // Every layer is the pool alone.
                if share >= 1.0 {
                    given = layers;
                    part.share = 1.0;
                    part.busy_s = e.step_s;
                    part.fits = e.memory.fits;
                    continue;
                }
                let own_layers = if Some(i) == last {
                    layers.saturating_sub(given).max(1)
                } else {
                    ((layers as f64 * share).round() as u32)
                        .clamp(1, layers.saturating_sub(given).max(1))
                };
                given += own_layers;
                let mut own = *p;
                own.transformer.n_layers = own_layers;
                // Only the last pool runs the output layer and the loss; the others pass their
                // activations on (their own estimate would count a vocabulary matrix each).
                if Some(i) != last {
                    own.transformer.vocab = 0;
                }
                part.share = own_layers as f64 / layers as f64;
                (part.busy_s, part.fits) = step_and_fit(&own);
            }
            let compute = parts.iter().map(|p| p.busy_s).fold(0.0, f64::max);
            let boundaries = used.saturating_sub(1) as f64;
            let activation_bytes = first.transformer.hidden as f64 * 2.0;
            let bytes = 2.0 * boundaries * tokens * activation_bytes;
            let micro_batches = (first.training.global_batch as f64
                / (first.parallelism.micro_batch.max(1) as f64
                    * first.parallelism.data.max(1) as f64))
                .max(1.0);
            // The first micro-batch's sends wait; the rest hide behind compute, slowing it as
            // a pipeline's sends inside a pool do (`efficiency::overlapped`).
            let waits = |bandwidth: f64| {
                if boundaries > 0.0 {
                    let per_step = bytes / bandwidth;
                    overlapped(per_step, compute)
                        + per_step / micro_batches
                        + 2.0 * boundaries * between.latency_s
                } else {
                    0.0
                }
            };
            if boundaries > 0.0 {
                needed = least_rate(compute / 19.0, waits);
            }
            let link = waits(bandwidth);
            (compute, link)
        }
    };
    let step_s = finite(compute_s + link_s);
    for (part, e) in parts.iter_mut().zip(solo) {
        if part.share > 0.0 {
            part.waits_s = (step_s - part.busy_s).max(0.0);
            // Its share of the whole batch's model FLOPs, which alone it does at its MFU in
            // its own step, spread over the job's step.
            if step_s > 0.0 {
                part.mfu = finite(e.mfu * e.step_s * part.share / step_s);
            }
        }
    }
    let tokens_per_s = if step_s > 0.0 { finite(tokens / step_s) } else { 0.0 };
    let fits = parts.iter().all(|p| p.fits);
    let gbit_per_s_needed = if needed.is_finite() { finite(needed * 8.0 / 1e9) } else { needed };
    PoolsEstimate { step_s, link_s, tokens_per_s, train_days: 0.0, parts, fits, gbit_per_s_needed }
}

/// The best way found to span `pools`: how, the shares it gives each pool, and its job; beside
/// the best pool alone and the pools apart, the baseline and the bound.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BestSplit {
    pub how: Option<Across>,
    pub job: PoolsEstimate,
    /// Tokens per second of the fastest pool alone, and of the pools apart added up.
    pub alone_tokens_per_s: f64,
    pub apart_tokens_per_s: f64,
}

impl BestSplit {
    /// How much faster than the fastest pool alone (0.25 for 25 %).
    pub fn gain_over_alone(&self) -> f64 {
        if self.alone_tokens_per_s > 0.0 {
            self.job.tokens_per_s / self.alone_tokens_per_s - 1.0
        } else {
            0.0
        }
    }

    /// How far below the pools apart added up (0.1 for 10 % below).
    pub fn short_of_apart(&self) -> f64 {
        if self.apart_tokens_per_s > 0.0 {
            1.0 - self.job.tokens_per_s / self.apart_tokens_per_s
        } else {
            0.0
        }
    }
}

/// Searches the splits of one job over `pools`: by data and by pipeline, each pool's share from
/// 0.6 to 1.4 times its share by speed (of two pools; more pools keep the shares by speed), and
/// each pool alone. Proportion to speed is the first guess (Metis, HexiScale); a pool's fixed
/// per-step costs and whole layers move the best a little off it.
pub fn best_split(pools: &[Inputs], between: Between) -> BestSplit {
    let solo = alone(pools);
    let speeds: Vec<f64> = solo.iter().map(|e| e.tokens_per_s.max(0.0)).collect();
    let total: f64 = speeds.iter().sum();
    let alone_best = speeds.iter().copied().fold(0.0, f64::max);
    // No split found yet: none runs, so it never finishes (not in 0 days).
    let none = PoolsEstimate { train_days: f64::INFINITY, ..PoolsEstimate::default() };
    let mut best = BestSplit {
        how: None,
        job: none,
        alone_tokens_per_s: alone_best,
        apart_tokens_per_s: total,
    };
    if total <= 0.0 || pools.is_empty() {
        return best;
    }
    let fair: Vec<f64> = speeds.iter().map(|s| s / total).collect();
    let mut tries: Vec<Vec<f64>> = vec![fair.clone()];
    if pools.len() == 2 {
        for k in 0..=8 {
            let first = (fair[0] * (0.6 + 0.1 * k as f64)).clamp(0.0, 1.0);
            tries.push(vec![first, 1.0 - first]);
        }
    }
    tries.extend(
        (0..pools.len()).map(|i| (0..pools.len()).map(|j| f64::from(u8::from(i == j))).collect()),
    );
    for how in [Across::Data, Across::Pipeline] {
        // The job as the scenario runs it (by data, balanced on each pool's speed at its share)
        // is a candidate too, so the best found is never slower than it.
        let own = std::iter::once(across_with(pools, &solo, how, between, None));
        for job in own.chain(tries.iter().map(|shares| split(pools, &solo, how, shares, between))) {
            if job.fits && job.tokens_per_s > best.job.tokens_per_s {
                best.how = Some(how);
                best.job = job;
            }
        }
    }
    if let Some(first) = pools.first() {
        best.job.train_days = if best.job.tokens_per_s > 0.0 {
            finite(first.training.tokens / best.job.tokens_per_s / 86_400.0)
        } else {
            f64::INFINITY
        };
    }
    best
}
