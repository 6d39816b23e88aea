//! One job over sites far apart (two data centres 1,000 km away): each site runs its pools as
//! one job (`pools::across`), the batch is split between sites in proportion to their speed, and
//! the sites synchronise over the wide-area link.
//!
//! Synchronous data parallelism reduces every step's gradients across sites (a ring over the
//! sites, hierarchical after each site's own reduction). DiLoCo (arXiv:2311.08105) trains `H`
//! inner steps at each site and exchanges the outer gradient, one copy of the parameters' size,
//! once every `H` steps, which its authors found to match synchronous training's quality at the
//! `H` they tested (up to 500 inner steps); that equivalence is assumed, not modelled. The
//! exchange blocks training, or with Streaming DiLoCo (arXiv:2501.18512) runs behind the next
//! inner steps. As with pools, the job never uses a site that only slows it.

use crate::model::pools::{across_with, Across, Between, PoolsEstimate};
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
    pub job: PoolsEstimate,
    /// The wide-area link out of the site: bandwidth, bytes/s, and one-way latency, s.
    pub wan_bytes_per_s: f64,
    pub wan_latency_s: f64,
    /// Power at training load, watts, and capex, USD, of the site's clusters.
    pub power_w: f64,
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
    /// Seconds of each step spent synchronising, not hidden.
    pub exposed_s: f64,
    /// The wide-area bandwidth each site needs for 95% of the speed of the same chips in one
    /// site, Gb/s.
    pub gbit_per_s_needed: f64,
}

/// One site's part of the job, and what it draws and costs over the run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SitePart {
    /// Its share of the batch; 0 when the job leaves it out.
    pub share: f64,
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

/// Bytes per parameter of DiLoCo's outer gradient: BF16. Streaming DiLoCo exchanges it in as
/// few as 4 bits without loss (arXiv:2501.18512); BF16 is the cautious choice.
pub const OUTER_GRADIENT_BYTES: f64 = 2.0;

/// The job over `sites` for a model of `params` parameters whose gradients are reduced at
/// `grad_bytes` bytes each, spanning the sites as `how` says, for `tokens` of training in steps
/// of `batch_tokens`.
pub fn across_sites(
    sites: &[Site],
    how: AcrossSites,
    params: f64,
    grad_bytes: f64,
    batch_tokens: f64,
    tokens: f64,
) -> SitesEstimate {
    let sync_bytes = match how {
        AcrossSites::Sync => params * grad_bytes,
        AcrossSites::Diloco { .. } => params * OUTER_GRADIENT_BYTES,
    };
    let mut best = SitesEstimate::default();
    let all: Vec<bool> = sites.iter().map(|s| s.job.tokens_per_s > 0.0).collect();
    let mut candidates = vec![all];
    candidates.extend((0..sites.len()).map(|i| (0..sites.len()).map(|j| i == j).collect()));
    let mut needed = 0.0;
    for (i, used) in candidates.into_iter().enumerate() {
        let e = with(sites, &used, how, sync_bytes, batch_tokens, tokens);
        // What every site together would need, whichever the job uses.
        if i == 0 {
            needed = e.wan.gbit_per_s_needed;
        }
        if e.tokens_per_s > best.tokens_per_s {
            best = e;
        }
    }
    best.wan.gbit_per_s_needed = needed;
    best
}

fn with(
    sites: &[Site],
    used: &[bool],
    how: AcrossSites,
    sync_bytes: f64,
    batch_tokens: f64,
    tokens: f64,
) -> SitesEstimate {
    let speed: f64 =
        sites.iter().zip(used).filter(|(_, u)| **u).map(|(s, _)| s.job.tokens_per_s).sum();
    if speed <= 0.0 {
        return SitesEstimate::default();
    }
    let n = used.iter().filter(|u| **u).count() as f64;
    // The slowest link out of a site used sets the ring's pace.
    let (bandwidth, latency) = sites
        .iter()
        .zip(used)
        .filter(|(_, u)| **u)
        .fold((f64::INFINITY, 0.0f64), |(b, l), (s, _)| {
            (b.min(s.wan_bytes_per_s.max(1.0)), l.max(s.wan_latency_s))
        });
    let (every, hidden) = match how {
        AcrossSites::Sync => (1.0, false),
        AcrossSites::Diloco { inner_steps, streaming } => (inner_steps.max(1) as f64, streaming),
    };
    let ring_bytes = if n > 1.0 { 2.0 * (n - 1.0) / n * sync_bytes } else { 0.0 };
    let ring_latency = if n > 1.0 { 2.0 * (n - 1.0) * latency } else { 0.0 };
    let sync_s = ring_bytes / bandwidth + ring_latency;
    let compute_s = batch_tokens / speed;
    // Streaming, the exchange runs behind the next `every` inner steps and only what they do
    // not cover waits.
    let exposed_s =
        if hidden { (sync_s - every * compute_s).max(0.0) / every } else { sync_s / every };
    let step_s = finite(compute_s + exposed_s);
    let tokens_per_s = finite(batch_tokens / step_s);
    let train_days = finite(tokens / tokens_per_s / 86_400.0);
    // 95% of the speed in one site allows a nineteenth of the step's compute to wait; streaming
    // hides the inner steps' time as well.
    let cover = if hidden { every * compute_s } else { 0.0 };
    let allowed = compute_s / 19.0 + cover / every - ring_latency / every;
    let gbit_per_s_needed = if ring_bytes > 0.0 && allowed > 0.0 {
        finite(ring_bytes / every / allowed * 8.0 / 1e9)
    } else {
        0.0
    };
    let hours = train_days * 24.0;
    let parts: Vec<SitePart> = sites
        .iter()
        .zip(used)
        .map(|(s, &u)| {
            if !u {
                return SitePart::default();
            }
            let energy_mwh = s.power_w * hours / 1e6;
            SitePart {
                share: s.job.tokens_per_s / speed,
                power_w: s.power_w,
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
        wan: Wan { bytes_per_sync: ring_bytes, exposed_s, gbit_per_s_needed },
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
    for (e, part) in solo.iter().zip(&job.parts) {
        if part.share <= 0.0 {
            continue;
        }
        let f = &e.facility;
        let c = &f.cost;
        power_w += f.power.facility_w;
        capex_usd += c.capex_usd;
        // What a day costs beyond energy: the hardware and building paid off, maintenance.
        let not_energy = if c.run_amortized_usd > 0.0 {
            (c.run_amortized_usd - c.energy_usd) / c.run_amortized_usd
        } else {
            0.0
        };
        cost_per_day_usd += c.per_day_usd * not_energy;
    }
    let usd_per_kwh = pools.first().map_or(0.0, |p| p.plant.facility.usd_per_kwh);
    Site { job, wan_bytes_per_s, wan_latency_s, power_w, capex_usd, cost_per_day_usd, usd_per_kwh }
}
