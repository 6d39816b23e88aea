//! One job over sites far apart (two data centres 1,000 km away): each site runs its pools as
//! one job (`pools::across`), the batch is split between sites in proportion to their speed, and
//! the sites synchronise over the wide-area link.
//!
//! Synchronous data parallelism reduces every step's gradients across sites (a ring over the
//! sites, hierarchical after each site's own reduction), overlapped with the backward pass as
//! the data-parallel reduction inside a site is. DiLoCo (arXiv:2311.08105) trains `H` inner
//! steps at each site and exchanges the outer gradient, one copy of the parameters' size in
//! BF16, once every `H` steps, and training waits for it; its authors found it matches
//! synchronous training's quality at the `H` they tested (50 to 2,000, 500 chosen); that
//! equivalence is assumed, not modelled. Streaming DiLoCo (arXiv:2501.18512, §2) exchanges
//! fragments of three layers each at staggered times within the `H` steps, each in 4 bits
//! (E3M0, no loss against FP32 in its Fig. 11) and overlapped with the next inner step (τ = 1,
//! its main experiments). As with pools, the job never uses a site that only slows it.

use crate::model::efficiency::{interfered, least_rate, OVERLAP_INTERFERENCE};
use crate::model::pools::{across_with, Across, Between, PoolsEstimate, BACKWARD_SHARE};
use crate::model::{estimate, finite, Inputs};

/// How sites synchronise, as a scenario names it (`AcrossSites` adds DiLoCo's settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    Sync,
    Diloco,
}

/// How one job spans sites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcrossSites {
    /// Gradients reduced across sites every step.
    Sync,
    /// The outer gradient exchanged once every `inner_steps` steps; `streaming`, in the
    /// background of the next inner steps (Streaming DiLoCo), else training waits for it.
    Diloco { inner_steps: u32, streaming: bool },
}

/// A site: its own job over its pools, its wide-area link, and what it draws and costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    /// Its job on its share of the global batch, beside the other sites.
    pub job: PoolsEstimate,
    /// Tokens per second of its job alone, on the whole global batch (`site` sets it to the
    /// job's; a site trained on a share of the batch keeps the speed it has alone here).
    pub alone_tokens_per_s: f64,
    /// The wide-area link out of the site: bandwidth, bytes/s, and one-way latency, s.
    pub wan_bytes_per_s: f64,
    pub wan_latency_s: f64,
    /// Power at training load, watts, and capex, USD, of the site's clusters.
    pub power_w: f64,
    /// Power of its clusters built and switched on but left idle by the job, watts: chips at
    /// their idle draw, hosts, network and storage, at the site's PUE.
    pub idle_w: f64,
    pub capex_usd: f64,
    /// What running costs per day at the site beyond energy (amortised hardware and building,
    /// maintenance), USD, and its electricity price, USD per kWh.
    pub cost_per_day_usd: f64,
    pub usd_per_kwh: f64,
}

/// The wide-area traffic of the job.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wan {
    /// Bytes each site sends per synchronisation.
    pub bytes_per_sync: f64,
    /// Seconds each step waits on the exchange: what compute does not hide, and the slowdown
    /// of the compute that hides the rest.
    pub exposed_s: f64,
    /// The wide-area bandwidth each site needs for 95% of the speed of the same chips in one
    /// site (their speeds added), Gb/s; infinite where even an unlimited link falls short.
    pub gbit_per_s_needed: f64,
    /// How much slower than one site the sites run over an unlimited link: each waits for the
    /// slowest chip of every site and for the slowest site's share of the batch.
    pub unlimited_gap: f64,
    /// The bandwidth for 95% of the sites' own speed over an unlimited link (their compute's
    /// utilisation, as DiLoCo's papers count it), Gb/s.
    pub gbit_per_s_for_utilisation: f64,
}

/// One site's part of the job, and what it draws and costs over the run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SitePart {
    /// Its share of the batch; 0 when the job leaves it out, when it is still built, priced
    /// and powered, idle, for the run (`used` false).
    pub share: f64,
    pub used: bool,
    pub power_w: f64,
    pub energy_mwh: f64,
    pub capex_usd: f64,
    pub run_cost_usd: f64,
}

/// A job over sites.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SitesEstimate {
    pub step_s: f64,
    pub tokens_per_s: f64,
    pub train_days: f64,
    pub wan: Wan,
    pub sites: Vec<SitePart>,
    /// Sums over the sites used.
    pub power_w: f64,
    pub energy_mwh: f64,
    pub capex_usd: f64,
    pub run_cost_usd: f64,
}

/// Bytes per parameter of DiLoCo's outer gradient: BF16, as cautious as the original paper
/// allows (it does not quantize).
pub const OUTER_GRADIENT_BYTES: f64 = 2.0;

/// Bytes per parameter of Streaming DiLoCo's outer gradient: 4 bits (E3M0), which its authors
/// found as good as FP32 (arXiv:2501.18512, §2.4, Fig. 11).
pub const STREAMED_GRADIENT_BYTES: f64 = 0.5;

/// Layers in each of Streaming DiLoCo's fragments: three at every model size it trained
/// (arXiv:2501.18512, §3.3.1).
pub const FRAGMENT_LAYERS: u32 = 3;

/// Inner steps a fragment's exchange overlaps: one in Streaming DiLoCo's main experiments,
/// with no loss up to ten (arXiv:2501.18512, §3.3.2).
pub const OVERLAP_STEPS: f64 = 1.0;

/// What a job over sites trains, as their exchange sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    /// Parameters, and the bytes a synchronous reduction moves for each.
    pub params: f64,
    pub grad_bytes: f64,
    /// Transformer layers, which Streaming DiLoCo groups into fragments.
    pub layers: u32,
    /// Tokens a step and in the run.
    pub batch_tokens: f64,
    pub tokens: f64,
    /// Compute slowdown per second of exchange hidden under it: a reduction inside a site's
    /// (`efficiency::OVERLAP_INTERFERENCE`), since the collective's kernels hold their
    /// streaming multiprocessors for as long as the wide-area link takes; Streaming DiLoCo's
    /// simulations take it as 0.
    pub interference: f64,
}

impl Work {
    /// The work of `i`'s model and training.
    pub fn of(i: &Inputs) -> Work {
        Work {
            params: i.transformer.params(),
            grad_bytes: i.training.grad_bytes(),
            layers: i.transformer.n_layers,
            batch_tokens: i.training.global_batch as f64 * i.transformer.seq_len as f64,
            tokens: i.training.tokens,
            interference: OVERLAP_INTERFERENCE,
        }
    }
}

/// The job over `sites` for `work`, spanning the sites as `how` says.
pub fn across_sites(sites: &[Site], how: AcrossSites, work: &Work) -> SitesEstimate {
    let Work { params, grad_bytes, .. } = *work;
    let sync_bytes = match how {
        AcrossSites::Sync => params * grad_bytes,
        AcrossSites::Diloco { streaming: false, .. } => params * OUTER_GRADIENT_BYTES,
        AcrossSites::Diloco { streaming: true, .. } => params * STREAMED_GRADIENT_BYTES,
    };
    let fragments = work.layers.div_ceil(FRAGMENT_LAYERS).max(1) as f64;
    let mut best = SitesEstimate::default();
    let all: Vec<bool> = sites.iter().map(|s| s.job.tokens_per_s > 0.0).collect();
    let mut candidates = vec![all];
    candidates.extend((0..sites.len()).map(|i| (0..sites.len()).map(|j| i == j).collect()));
    let mut every = Wan::default();
    for (i, used) in candidates.into_iter().enumerate() {
        let e = with(sites, &used, how, (sync_bytes, fragments), work);
        // What every site together would need and lose, whichever the job uses.
        if i == 0 {
            every = e.wan;
        }
        if e.tokens_per_s > best.tokens_per_s {
            best = e;
        }
    }
    best.wan.gbit_per_s_needed = every.gbit_per_s_needed;
    best.wan.unlimited_gap = every.unlimited_gap;
    best.wan.gbit_per_s_for_utilisation = every.gbit_per_s_for_utilisation;
    best
}

/// The job over the sites `used`; `exchange` is the bytes of one synchronisation and the
/// fragments a streamed one goes in.
fn with(
    sites: &[Site],
    used: &[bool],
    how: AcrossSites,
    exchange: (f64, f64),
    work: &Work,
) -> SitesEstimate {
    let (sync_bytes, fragments) = exchange;
    let Work { batch_tokens, tokens, interference, .. } = *work;
    let n = used.iter().filter(|u| **u).count() as f64;
    // A site alone trains the whole batch; beside others, its share of it.
    let speed_of = |s: &Site| if n > 1.0 { s.job.tokens_per_s } else { s.alone_tokens_per_s };
    let speed: f64 = sites.iter().zip(used).filter(|(_, u)| **u).map(|(s, _)| speed_of(s)).sum();
    if speed <= 0.0 {
        return SitesEstimate::default();
    }
    // The slowest link out of a site used sets the ring's pace.
    let (bandwidth, latency) = sites
        .iter()
        .zip(used)
        .filter(|(_, u)| **u)
        .fold((f64::INFINITY, 0.0f64), |(b, l), (s, _)| {
            (b.min(s.wan_bytes_per_s.max(1.0)), l.max(s.wan_latency_s))
        });
    let ring_bytes = if n > 1.0 { 2.0 * (n - 1.0) / n * sync_bytes } else { 0.0 };
    let ring_latency = if n > 1.0 { 2.0 * (n - 1.0) * latency } else { 0.0 };
    // Beside others, the slowest site's step on its share of the batch sets the pace.
    let slowest = sites.iter().zip(used).filter(|(_, u)| **u).map(|(s, _)| s.job.step_s);
    let c = if n > 1.0 { slowest.fold(0.0, f64::max) } else { 0.0 }.max(batch_tokens / speed);
    // Seconds each step waits on the exchange at a bandwidth (bytes/s): what compute leaves
    // exposed, and the slowdown what it hides causes (`Work::interference`).
    let waits = |bandwidth: f64| -> f64 {
        if n <= 1.0 {
            return 0.0;
        }
        let sync_s = ring_bytes / bandwidth + ring_latency;
        match how {
            AcrossSites::Sync => {
                interfered(interference, sync_s, (sync_s - BACKWARD_SHARE * c).max(0.0))
            }
            AcrossSites::Diloco { inner_steps, streaming: false } => {
                sync_s / inner_steps.max(1) as f64
            }
            AcrossSites::Diloco { inner_steps, streaming: true } => {
                // Fragments at staggered times, each behind the next inner step; and the link
                // must carry every fragment within the H steps.
                let (h, p) = (inner_steps.max(1) as f64, fragments);
                let fragment_s = sync_s / p + ring_latency * (1.0 - 1.0 / p);
                let each = (fragment_s - OVERLAP_STEPS * c).max(0.0);
                let behind = (p * fragment_s - h * c).max(0.0);
                interfered(interference, p * fragment_s / h, (p * each).max(behind) / h)
            }
        }
    };
    let exposed_s = waits(bandwidth);
    // A synchronous step waits for the slowest chip of every site, not of its own alone
    // (`efficiency::slowest_of`): each site's step already holds its own chips' straggling.
    let straggler_s = match how {
        AcrossSites::Sync if n > 1.0 => {
            let chips = |s: &Site| -> u32 {
                s.job.parts.iter().filter(|p| p.share > 0.0).map(|p| p.chips).sum()
            };
            let in_use = || sites.iter().zip(used).filter(|(_, u)| **u).map(|(s, _)| s);
            let all: u32 = in_use().map(chips).sum();
            let slowest = crate::model::efficiency::slowest_of;
            in_use().map(|s| (slowest(all) - slowest(chips(s))).max(0.0) * c).fold(0.0, f64::max)
        }
        _ => 0.0,
    };
    // One site of the same chips steps as their speeds added; over an unlimited link the
    // sites still lose the slowest site's share and the slowest chip of every site. The link
    // needed is the one that keeps the whole within 95 % of one site's speed (its waits at most
    // a nineteenth of one site's step, less what an unlimited link already loses).
    let one_site = batch_tokens / speed;
    let lost = (c - one_site).max(0.0) + straggler_s;
    let allowance = one_site / 19.0 - lost;
    let needed = if allowance > 0.0 { least_rate(allowance, waits) } else { f64::INFINITY };
    let for_utilisation = least_rate(c / 19.0, waits);
    let unlimited_gap = if n > 1.0 { finite(lost / one_site) } else { 0.0 };
    let step_s = finite(c + exposed_s + straggler_s);
    let tokens_per_s = finite(batch_tokens / step_s);
    let train_days = finite(tokens / tokens_per_s / 86_400.0);
    let gbit = |rate: f64| match rate {
        _ if ring_bytes <= 0.0 => 0.0,
        x if x.is_finite() => finite(x * 8.0 / 1e9),
        _ => f64::INFINITY,
    };
    let (gbit_per_s_needed, gbit_per_s_for_utilisation) = (gbit(needed), gbit(for_utilisation));
    let hours = train_days * 24.0;
    let parts: Vec<SitePart> = sites
        .iter()
        .zip(used)
        .map(|(s, &u)| {
            // A site the job leaves out stands idle for the run, built and paid for.
            let power_w = if u { s.power_w } else { s.idle_w };
            let energy_mwh = power_w * hours / 1e6;
            SitePart {
                share: if u { speed_of(s) / speed } else { 0.0 },
                used: u,
                power_w,
                energy_mwh,
                capex_usd: s.capex_usd,
                run_cost_usd: s.cost_per_day_usd * train_days + energy_mwh * 1000.0 * s.usd_per_kwh,
            }
        })
        .collect();
    let sum = |f: fn(&SitePart) -> f64| -> f64 { parts.iter().map(f).sum() };
    SitesEstimate {
        step_s,
        tokens_per_s,
        train_days,
        wan: Wan {
            bytes_per_sync: ring_bytes,
            exposed_s,
            gbit_per_s_needed,
            unlimited_gap,
            gbit_per_s_for_utilisation,
        },
        power_w: sum(|p| p.power_w),
        energy_mwh: sum(|p| p.energy_mwh),
        capex_usd: sum(|p| p.capex_usd),
        run_cost_usd: sum(|p| p.run_cost_usd),
        sites: parts,
    }
}

/// A site of `pools` (each a whole cluster with its site's prices), spanned as `how` says over
/// the link `between` inside it (split as `given`, one share per pool, or by speed), behind a wide-area link of `wan_bytes_per_s` and
/// `wan_latency_s`: its job, and what its clusters draw and cost.
pub fn site(
    pools: &[Inputs],
    how: Across,
    between: Between,
    given: Option<&[f64]>,
    wan_bytes_per_s: f64,
    wan_latency_s: f64,
) -> Site {
    let solo: Vec<_> = pools.iter().map(estimate).collect();
    let job = across_with(pools, &solo, how, between, given);
    let (mut power_w, mut capex_usd, mut cost_per_day_usd) = (0.0, 0.0, 0.0);
    let mut idle_w = 0.0;
    for ((e, part), inputs) in solo.iter().zip(&job.parts).zip(pools) {
        let f = &e.facility;
        let c = &f.cost;
        // Every pool of the site is built and paid for, used or not.
        capex_usd += c.capex_usd;
        let pool_idle_w = crate::model::facility::idle_w(inputs, f);
        idle_w += pool_idle_w;
        power_w += if part.share > 0.0 { f.power.facility_w } else { pool_idle_w };
        // What a day costs beyond energy: the hardware and building paid off, maintenance.
        let not_energy = if c.run_amortized_usd > 0.0 {
            (c.run_amortized_usd - c.energy_usd) / c.run_amortized_usd
        } else {
            0.0
        };
        cost_per_day_usd += c.per_day_usd * not_energy;
    }
    let usd_per_kwh = pools.first().map_or(0.0, |p| p.plant.facility.usd_per_kwh);
    let alone_tokens_per_s = job.tokens_per_s;
    Site {
        job,
        alone_tokens_per_s,
        wan_bytes_per_s,
        wan_latency_s,
        power_w,
        idle_w,
        capex_usd,
        cost_per_day_usd,
        usd_per_kwh,
    }
}
