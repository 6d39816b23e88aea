//! The cluster's year: many jobs on one fleet, week by week. Chips arrive and retire in pools
//! (a chip kind at a site), each site draws at most its power cap, and every week serving's
//! peak takes its chips first, then each training job in turn (by priority, then deadline)
//! takes the fastest size of its own curve that the chips and power left allow.
//!
//! A training job's curve is its own estimate at a ladder of sizes on each chip kind (days with
//! failures and checkpoints, and the site watts a chip draws), made by the judge; the schedule
//! only looks sizes up. A running job moves to another size or pool only when the move, its
//! restart paid, finishes sooner; `elastic` jobs take chips after those that are not. A serving
//! job's demand grows month by month; at its daily peak it needs whole instances of its
//! deployment on a chip kind.
//!
//! The schedule is deterministic and says why it decided each thing (`Why`); the range of a
//! finish is the schedule run again with every job at the ends of its range. What to buy is the
//! smallest purchase of a chip, in whole units, that makes every deadline and serving target
//! hold, at the latest week that still does.

use crate::model::finite;

/// The longest horizon, weeks: five years.
pub const MAX_WEEKS: u32 = 260;
/// Days in a week; weeks in a month (365.25 / 12 / 7).
pub const DAYS_PER_WEEK: f64 = 7.0;
pub const WEEKS_PER_MONTH: f64 = 365.25 / 12.0 / 7.0;

/// What a job of the year is, as its owner names it: training of three kinds or serving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    Pretrain,
    PostTrain,
    FineTune,
    Serve,
}

/// A kind of chip in the fleet: what one chip costs to install and own, and draws when idle.
#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    /// Capex of one chip with its share of nodes, network and building, USD.
    pub capex_usd: f64,
    /// Owning one chip a day beyond energy (amortised hardware and building, maintenance), USD.
    pub usd_per_chip_day: f64,
    /// Renting one chip a day instead, USD.
    pub rent_usd_per_chip_day: f64,
    /// Site watts of one chip switched on but idle (hosts, network, PUE included).
    pub idle_w: f64,
    /// Chips in one unit a purchase is counted in (a node or a scale-up domain).
    pub unit: u32,
}

/// Chips of a kind arriving at a site in `week`, and leaving in `retire` (never when `None`).
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    pub kind: usize,
    pub site: usize,
    pub week: u32,
    pub chips: u32,
    pub retire: Option<u32>,
}

/// A site's power cap from `week` on, site watts (every chip's draw with PUE), until the next
/// cap of the same site.
#[derive(Clone, Debug, PartialEq)]
pub struct Cap {
    pub site: usize,
    pub week: u32,
    pub w: f64,
}

/// One size of a training job on a chip kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    pub chips: u32,
    /// Days the whole job takes at this size, failures and checkpoints included; infinite
    /// when it cannot run there.
    pub days: f64,
    /// Site watts of one of its chips at training load.
    pub w_per_chip: f64,
}

/// A serving job's deployment on a chip kind: whole instances, each serving at the targets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instance {
    pub chips: u32,
    /// Tokens a second one instance serves at its latency targets.
    pub tokens_per_s: f64,
    pub w_per_chip: f64,
}

/// What a job does.
#[derive(Clone, Debug, PartialEq)]
pub enum Work {
    /// Training: per chip kind, its sizes by chips (empty where it cannot run); the tokens it
    /// trains, and its range as multiples of its days (p10, p90).
    Train { sizes: Vec<Vec<Size>>, tokens: f64, range: (f64, f64) },
    /// Serving: per chip kind, its instance (`None` where no deployment meets the targets);
    /// tokens a second on average in week 0, growing by `growth_per_month`, with its daily peak
    /// `peak_over_mean` times the mean.
    Serve {
        instances: Vec<Option<Instance>>,
        tokens_per_s: f64,
        growth_per_month: f64,
        peak_over_mean: f64,
    },
}

/// A job of the year.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub work: Work,
    /// First week it may run; a serving job serves from then to its `deadline` week (the
    /// horizon when `None`).
    pub earliest: u32,
    /// The day it must finish by (training) or the week serving ends.
    pub deadline: Option<f64>,
    /// 0 runs first.
    pub priority: u32,
    /// The job it waits for.
    pub after: Option<usize>,
    /// Chips it holds while it runs: at least, at most.
    pub min: u32,
    pub max: u32,
    /// May change size and pool every week, paying the restart.
    pub elastic: bool,
    /// Days one restart costs (detection, restart, catch-up).
    pub restart_days: f64,
}

/// The year as the schedule sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Year {
    pub weeks: u32,
    pub kinds: Vec<Kind>,
    pub sites: usize,
    pub deliveries: Vec<Delivery>,
    pub caps: Vec<Cap>,
    pub jobs: Vec<Job>,
    /// Electricity, USD per kWh.
    pub usd_per_kwh: f64,
}

/// Why the schedule did something, for the words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Why {
    /// Job `job` waits for job `on` to finish.
    Waits { job: usize, on: usize },
    /// Job `job` cannot get its fewest chips (`min`) in `week`.
    NoRoom { job: usize, week: u32 },
    /// Serving job `job`'s peak takes `chips` chips in `week`, a tenth or more above the last
    /// said.
    Peak { job: usize, week: u32, chips: u32 },
    /// Job `job` starts in `week` on `chips` chips of `kind`.
    Starts { job: usize, week: u32, kind: usize, chips: u32 },
    /// Job `job` changes to `chips` chips of `kind` in `week`, paying a restart.
    Resized { job: usize, week: u32, kind: usize, chips: u32 },
    /// Site `site` cannot power `chips` of its installed chips in `week`.
    Dark { site: usize, week: u32, chips: u32 },
    /// Elastic job `job` runs on `chips` chips of `kind` in serving's daily troughs from
    /// `week`, `hours` a day, paying a restart each time it grows and shrinks.
    Troughs { job: usize, week: u32, kind: usize, chips: u32, hours: f64 },
}

/// Chips a job holds over every pool.
pub fn chips(held: &[u32]) -> u32 {
    held.iter().fold(0, |sum, c| sum.saturating_add(*c))
}

impl Week {
    /// Chips job `j` holds on average over the week, its peak hours and troughs weighed by
    /// their share of the day.
    pub fn average(&self, j: usize) -> f64 {
        let (from, to) = self.held_span[j];
        let peak = chips(&self.held[j]) as f64;
        let low = self.trough_held.get(j).map_or(peak, |h| chips(h) as f64);
        (peak * (1.0 - self.trough) + low * self.trough) * (to - from).max(0.0) / DAYS_PER_WEEK
    }

    /// The most every site draws together, each at its own busiest hour of the week, watts.
    pub fn most_w_all(&self) -> f64 {
        (0..self.site_w.len()).fold(0.0, |sum, i| sum + self.most_w(i))
    }

    /// The most site `site` draws at any hour of the week, watts: at serving's peak or in its
    /// troughs, when elastic training may draw more than serving freed.
    pub fn most_w(&self, site: usize) -> f64 {
        let peak = self.site_w.get(site).copied().unwrap_or(0.0);
        if self.trough > 0.0 {
            peak.max(self.trough_w.get(site).copied().unwrap_or(0.0))
        } else {
            peak
        }
    }
}

/// The day a serving load's peak over its mean stands for: the share of each day it sits in
/// its trough, and its trough over its peak. A load at most twice its mean is at its peak half
/// the day and at `2 - peak/mean` of its mean the other half; a peakier one is at its peak for
/// `mean/peak` of the day and idle the rest. A flat load (1) has no trough.
pub fn day_shape(peak_over_mean: f64) -> (f64, f64) {
    let p = if peak_over_mean.is_finite() { peak_over_mean.max(1.0) } else { 1.0 };
    if p <= 1.0 + 1e-9 {
        (0.0, 1.0)
    } else if p <= 2.0 {
        (0.5, (2.0 - p) / p)
    } else {
        (1.0 - 1.0 / p, 0.0)
    }
}

/// One week of the schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Week {
    /// Installed chips by pool (`Schedule::pools`).
    pub installed: Vec<u32>,
    /// Chips each job holds in each pool (`Schedule::pools`).
    pub held: Vec<Vec<u32>>,
    /// The days of the week (from its start, 0 to 7) each job holds them: less than the
    /// whole week for a job that starts on chips another frees this week, or finishes
    /// within it.
    pub held_span: Vec<(f64, f64)>,
    /// The share of each day serving sits in its trough (every serving load's troughs at the
    /// same hours, the shortest setting it; 0 without one), the chips each job holds in each
    /// pool then (serving fewer, elastic training more, the rest as at the peak), and the
    /// sites' watts then.
    pub trough: f64,
    pub trough_held: Vec<Vec<u32>>,
    pub trough_w: Vec<f64>,
    /// Installed chips held by no job at the week's end, switched on.
    pub idle: u32,
    /// Installed chips left off for want of power.
    pub dark: u32,
    /// Site watts by site at serving's peak, and each site's cap (infinite without one).
    pub site_w: Vec<f64>,
    pub cap_w: Vec<f64>,
    /// Share of each serving job's peak demand served (1 for other jobs or outside its window).
    pub served: Vec<f64>,
    /// Each serving job's peak demand, tokens a second (0 for other jobs).
    pub demand_tokens_per_s: Vec<f64>,
}

/// How one job fared.
#[derive(Clone, Debug, PartialEq)]
pub struct Fate {
    /// Day it first ran, and day it finished (training; `None` when not within the horizon).
    pub start: Option<f64>,
    pub finish: Option<f64>,
    /// Its finish with every job at the low and high ends of its range.
    pub finish_low: Option<f64>,
    pub finish_high: Option<f64>,
    /// Met its deadline (training), or served its whole peak every week (serving).
    pub met: bool,
    /// Restarts it paid.
    pub restarts: u32,
    /// For a missed deadline, the chips of a kind that would meet it from its start, when some
    /// size does: (kind, chips).
    pub to_meet: Option<(usize, u32)>,
    /// Tokens trained or served within the horizon.
    pub tokens: f64,
}

/// What the year costs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spend {
    pub capex_usd: f64,
    pub own_usd: f64,
    pub energy_usd: f64,
    /// Renting the installed chips instead, energy included in the price.
    pub rent_usd: f64,
    pub energy_mwh: f64,
}

impl Spend {
    /// What running the year costs owned: owning (capex amortised, maintenance) and energy.
    pub fn total_usd(&self) -> f64 {
        self.own_usd + self.energy_usd
    }
}

/// A purchase: chips of a kind at a site, delivered in a week.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Purchase {
    pub kind: usize,
    pub site: usize,
    pub week: u32,
    pub chips: u32,
}

/// The year scheduled.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The pools as (kind, site), in order of first delivery.
    pub pools: Vec<(usize, usize)>,
    pub weeks: Vec<Week>,
    pub fates: Vec<Fate>,
    pub whys: Vec<Why>,
    /// Chip-weeks held by jobs over chip-weeks installed.
    pub utilisation: f64,
    pub spend: Spend,
    /// Every deadline and serving target met.
    pub all_met: bool,
}

impl Year {
    /// The year with a purchase delivered, kept to the end.
    pub fn with(&self, p: Purchase) -> Year {
        let mut y = self.clone();
        let delivery =
            Delivery { kind: p.kind, site: p.site, week: p.week, chips: p.chips, retire: None };
        y.deliveries.push(delivery);
        y
    }
}

impl Schedule {
    /// Tokens trained and served over the year.
    pub fn tokens(&self) -> f64 {
        self.fates.iter().map(|f| f.tokens).sum()
    }

    /// The most the sites draw together in any week, watts.
    pub fn peak_w(&self) -> f64 {
        self.weeks.iter().map(Week::most_w_all).fold(0.0, f64::max)
    }

    /// What a million tokens trained and served costs, owned; infinite when none are.
    pub fn usd_per_million_tokens(&self) -> f64 {
        let tokens = self.tokens();
        if tokens > 0.0 {
            self.spend.total_usd() / tokens * 1e6
        } else {
            f64::INFINITY
        }
    }
}

/// The pools of a year, as (kind, site) in order of first delivery.
fn pools_of(year: &Year) -> Vec<(usize, usize)> {
    let mut pools = Vec::new();
    for d in &year.deliveries {
        if !pools.contains(&(d.kind, d.site)) {
            pools.push((d.kind, d.site));
        }
    }
    pools
}

/// A site's cap in a week: its latest cap from that week or before; infinite without one.
fn cap_w(year: &Year, site: usize, week: u32) -> f64 {
    let mut best: Option<&Cap> = None;
    for c in year.caps.iter().filter(|c| c.site == site && c.week <= week) {
        if best.is_none_or(|b| c.week >= b.week) {
            best = Some(c);
        }
    }
    best.map_or(f64::INFINITY, |c| c.w.max(0.0))
}

/// The order jobs take chips in a week: serving first, then by priority, jobs that are not
/// elastic before elastic ones, earliest deadline, place in the list.
fn order(jobs: &[Job]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| {
        let (ja, jb) = (&jobs[a], &jobs[b]);
        let serve = |j: &Job| !matches!(j.work, Work::Serve { .. });
        let deadline = |j: &Job| j.deadline.unwrap_or(f64::INFINITY);
        (serve(ja), ja.priority, ja.elastic)
            .cmp(&(serve(jb), jb.priority, jb.elastic))
            .then(deadline(ja).total_cmp(&deadline(jb)))
            .then(a.cmp(&b))
    });
    order
}

/// A training job's sizes on one chip kind that it may run at (at least its fewest chips,
/// finishing), by chips, with the place of the fastest of each prefix: the fastest size within
/// a number of chips is one lookup, where a week asks it of every job and pool.
struct Curve {
    sizes: Vec<Size>,
    best: Vec<usize>,
}

impl Curve {
    fn of(sizes: &[Size], min: u32) -> Curve {
        let mut sizes: Vec<Size> = sizes
            .iter()
            .filter(|s| s.chips >= min.max(1) && s.days.is_finite() && s.days > 0.0)
            .copied()
            .collect();
        sizes.sort_by_key(|s| s.chips);
        let mut best: Vec<usize> = Vec::with_capacity(sizes.len());
        for (i, s) in sizes.iter().enumerate() {
            // Fewer chips when more would be no faster.
            match best.last() {
                Some(&b) if sizes[b].days <= s.days => best.push(b),
                _ => best.push(i),
            }
        }
        Curve { sizes, best }
    }

    /// The fastest size within `chips` that `powered` allows.
    fn within(&self, chips: u32, powered: impl Fn(&Size) -> bool) -> Option<Size> {
        let n = self.sizes.partition_point(|s| s.chips <= chips);
        let fastest = self.sizes[self.best[n.checked_sub(1)?]];
        if powered(&fastest) {
            return Some(fastest);
        }
        self.sizes[..n]
            .iter()
            .filter(|s| powered(s))
            .min_by(|a, b| a.days.total_cmp(&b.days).then(a.chips.cmp(&b.chips)))
            .copied()
    }
}

/// Serving's troughs in one week, as elastic training sees them.
struct Troughs<'a> {
    year: &'a Year,
    pools: &'a [(usize, usize)],
    curves: &'a [Vec<Curve>],
    cap: &'a [f64],
    /// Share of each day in the trough.
    share: f64,
}

/// What an elastic job takes in serving's troughs: a size in a pool, its progress over the
/// week with it, and the restarts it pays for it.
struct Lent {
    pool: usize,
    size: Size,
    gain: f64,
    restarts: u32,
}

impl Troughs<'_> {
    /// Site watts one chip of `size` draws above idle in pool `p`.
    fn extra(&self, p: usize, size: &Size) -> f64 {
        (size.w_per_chip - self.year.kinds[self.pools[p].0].idle_w).max(0.0)
    }

    /// The fastest week job `j` can have with serving's troughs: its peak-hours size (`base`,
    /// in its pool) grown in the troughs with the chips free then (`lend`), within
    /// each site's cap at the troughs' draw (`drawn`), or, holding none, the troughs alone.
    /// Each day it grows and shrinks again (two restarts; one start where it holds nothing at
    /// the peak). `None` unless that beats its week without them (`plain`: progress and the
    /// days its restarts took).
    fn best(
        &self,
        j: usize,
        base: Option<(usize, Size)>,
        lend: &[u32],
        drawn: &[f64],
        plain: (f64, f64),
        scale: f64,
    ) -> Option<Lent> {
        let job = &self.year.jobs[j];
        let restarts = if base.is_some() { 14 } else { 7 };
        let low_days = self.share * DAYS_PER_WEEK;
        let lost = restarts as f64 * job.restart_days.max(0.0);
        let peak_gain = base.map_or(0.0, |(_, b)| {
            ((1.0 - self.share) * DAYS_PER_WEEK - plain.1).max(0.0) / (b.days * scale)
        });
        let pools: Vec<usize> = match base {
            Some((p, _)) => vec![p],
            None => (0..self.pools.len()).collect(),
        };
        pools
            .into_iter()
            .filter_map(|p| {
                let (kind, site) = self.pools[p];
                let curve = self.curves[j].get(kind)?;
                let held = base.map_or(0, |(_, b)| b.chips);
                let held_w = base.map_or(0.0, |(q, b)| self.extra(q, &b) * b.chips as f64);
                let room = lend[p].saturating_add(held).min(job.max);
                let powered = |s: &Size| {
                    drawn[site] - held_w + self.extra(p, s) * s.chips as f64 <= self.cap[site]
                };
                let size = curve.within(room, powered)?;
                if size.chips <= held || base.is_some_and(|(_, b)| size.days >= b.days) {
                    return None;
                }
                let gain = peak_gain + (low_days - lost).max(0.0) / (size.days * scale);
                Some(Lent { pool: p, size, gain, restarts })
            })
            .filter(|l| l.gain > plain.0 * (1.0 + 1e-9))
            .max_by(|a, b| a.gain.total_cmp(&b.gain).then(b.pool.cmp(&a.pool)))
    }
}

/// The year scheduled, each job's days scaled by its own of `scales` (1 for the estimate, and
/// for a job it has none for).
fn run(year: &Year, scales: &[f64]) -> Schedule {
    let scale_of =
        |j: usize| scales.get(j).copied().filter(|x| x.is_finite() && *x > 0.0).unwrap_or(1.0);
    let pools = pools_of(year);
    let weeks = year.weeks.min(MAX_WEEKS);
    let n = year.jobs.len();
    let order = order(&year.jobs);
    let curves: Vec<Vec<Curve>> = year
        .jobs
        .iter()
        .map(|job| match &job.work {
            Work::Train { sizes, .. } => sizes.iter().map(|c| Curve::of(c, job.min)).collect(),
            Work::Serve { .. } => Vec::new(),
        })
        .collect();
    let mut progress = vec![0.0f64; n];
    let mut fates: Vec<Fate> = (0..n)
        .map(|_| Fate {
            start: None,
            finish: None,
            finish_low: None,
            finish_high: None,
            met: true,
            restarts: 0,
            to_meet: None,
            tokens: 0.0,
        })
        .collect();
    let mut holding: Vec<Option<(usize, u32)>> = vec![None; n];
    let mut peak_chips = vec![0u32; n];
    let mut waited = vec![false; n];
    let mut stalled = vec![false; n];
    // The pool and chips each elastic job last took in serving's troughs, to say each change.
    let mut lent_last: Vec<Option<(usize, u32)>> = vec![None; n];
    let mut whys = Vec::new();
    let mut out = Vec::with_capacity(weeks as usize);
    let mut spend = Spend::default();
    let (mut held_weeks, mut installed_weeks) = (0.0, 0.0);
    for week in 0..weeks {
        let installed: Vec<u32> = pools
            .iter()
            .map(|&(kind, site)| {
                year.deliveries
                    .iter()
                    .filter(|d| (d.kind, d.site) == (kind, site) && d.week <= week)
                    .filter(|d| d.retire.is_none_or(|r| r > week))
                    .fold(0u32, |sum, d| sum.saturating_add(d.chips))
            })
            .collect();
        let mut free = installed.clone();
        // Every installed chip starts the week idle; a site over its cap leaves its most
        // power-hungry idle chips off.
        let cap: Vec<f64> = (0..year.sites).map(|s| cap_w(year, s, week)).collect();
        let mut site_w = vec![0.0f64; year.sites];
        let mut dark = 0u32;
        for (p, &(kind, site)) in pools.iter().enumerate() {
            let idle = year.kinds[kind].idle_w.max(0.0);
            let room = if idle > 0.0 {
                ((cap[site] - site_w[site]) / idle).floor()
            } else {
                f64::INFINITY
            };
            let on = (free[p] as f64).min(room.max(0.0)) as u32;
            if on < free[p] {
                let off = free[p] - on;
                dark += off;
                whys.push(Why::Dark { site, week, chips: off });
                free[p] = on;
            }
            site_w[site] += on as f64 * idle;
        }
        let mut held = vec![vec![0u32; pools.len()]; n];
        let mut held_span = vec![(0.0f64, 0.0f64); n];
        // Chips a job finishing this week frees: how many, from when, and the site watts a chip
        // of theirs drew above idle (the least, where several finish).
        let mut late = vec![(0u32, 0.0f64, f64::INFINITY); pools.len()];
        let mut served = vec![1.0f64; n];
        let mut demand = vec![0.0f64; n];
        let week_start = week as f64 * DAYS_PER_WEEK;
        // Serving's troughs this week: every load's at the same hours, the shortest setting
        // them. What serving frees then (by pool), and what that and elastic training change
        // in each site's draw.
        let serving_now =
            |job: &Job| week >= job.earliest && !job.deadline.is_some_and(|d| week_start >= d);
        let trough = year
            .jobs
            .iter()
            .filter(|job| serving_now(job))
            .filter_map(|job| match job.work {
                Work::Serve { peak_over_mean, .. } => Some(day_shape(peak_over_mean).0),
                Work::Train { .. } => None,
            })
            .filter(|share| *share > 0.0)
            .reduce(f64::min)
            .unwrap_or(0.0);
        let mut lend = vec![0u32; pools.len()];
        let mut trough_dw = vec![0.0f64; year.sites];
        let mut serve_trough: Vec<Option<Vec<u32>>> = vec![None; n];
        // A training job's gain this week and the days its restarts took, where it could run
        // (or ran) the whole week: what serving's troughs are weighed against.
        let mut whole_week: Vec<Option<(f64, f64)>> = vec![None; n];
        for &j in &order {
            let job = &year.jobs[j];
            if week < job.earliest {
                continue;
            }
            match &job.work {
                Work::Serve { instances, tokens_per_s, growth_per_month, peak_over_mean } => {
                    if job.deadline.is_some_and(|d| week_start >= d) {
                        continue;
                    }
                    let months = (week - job.earliest) as f64 / WEEKS_PER_MONTH;
                    let peak = tokens_per_s.max(0.0)
                        * (1.0 + growth_per_month.max(-0.99)).powf(months)
                        * peak_over_mean.max(1.0);
                    demand[j] = finite(peak);
                    let mut left = demand[j];
                    let mut took = 0u32;
                    // Instances from the pools serving the most tokens per watt first.
                    let mut by: Vec<usize> = (0..pools.len())
                        .filter(|&p| instances.get(pools[p].0).copied().flatten().is_some())
                        .collect();
                    let per_w = |p: usize| {
                        let i = instances[pools[p].0].unwrap_or(Instance {
                            chips: 1,
                            tokens_per_s: 0.0,
                            w_per_chip: 1.0,
                        });
                        i.tokens_per_s / (i.chips as f64 * i.w_per_chip.max(1e-9))
                    };
                    by.sort_by(|&a, &b| per_w(b).total_cmp(&per_w(a)).then(a.cmp(&b)));
                    let mut counts: Vec<(usize, u32)> = Vec::new();
                    for p in by {
                        if left <= 0.0 {
                            break;
                        }
                        let Some(inst) = instances[pools[p].0] else { continue };
                        if inst.chips == 0 || inst.tokens_per_s <= 0.0 {
                            continue;
                        }
                        let site = pools[p].1;
                        let extra = inst.w_per_chip - year.kinds[pools[p].0].idle_w;
                        let by_power = if extra > 0.0 {
                            ((cap[site] - site_w[site]) / (extra * inst.chips as f64)).floor()
                        } else {
                            f64::INFINITY
                        };
                        let wanted = (left / inst.tokens_per_s).ceil();
                        let fit = (free[p] / inst.chips) as f64;
                        let count = wanted.min(fit).min(by_power.max(0.0)).max(0.0) as u32;
                        let chips = count * inst.chips;
                        free[p] -= chips;
                        site_w[site] += chips as f64 * extra.max(0.0);
                        left -= count as f64 * inst.tokens_per_s;
                        took += chips;
                        held[j][p] += chips;
                        held_span[j] = (0.0, DAYS_PER_WEEK);
                        counts.push((p, count));
                    }
                    // In the troughs it keeps the instances its trough load needs, the first
                    // pools' first; the rest are free then.
                    if trough > 0.0 {
                        let mut low = demand[j] * day_shape(*peak_over_mean).1;
                        let mut kept = vec![0u32; pools.len()];
                        for &(p, count) in &counts {
                            let Some(inst) = instances[pools[p].0] else { continue };
                            let need = (low.max(0.0) / inst.tokens_per_s).ceil();
                            let keep = need.min(count as f64) as u32;
                            low -= keep as f64 * inst.tokens_per_s;
                            kept[p] = keep * inst.chips;
                            let freed = (count - keep) * inst.chips;
                            lend[p] += freed;
                            let (kind, site) = pools[p];
                            let extra = (inst.w_per_chip - year.kinds[kind].idle_w).max(0.0);
                            trough_dw[site] -= freed as f64 * extra;
                        }
                        serve_trough[j] = Some(kept);
                    }
                    served[j] = if demand[j] > 0.0 {
                        ((demand[j] - left.max(0.0)) / demand[j]).clamp(0.0, 1.0)
                    } else {
                        1.0
                    };
                    if served[j] < 1.0 - 1e-9 {
                        fates[j].met = false;
                    }
                    // Said when the peak first takes chips, and again each time it grows by a
                    // tenth or more over the last said.
                    if took as f64 > peak_chips[j] as f64 * 1.1 {
                        peak_chips[j] = took;
                        whys.push(Why::Peak { job: j, week, chips: took });
                    }
                    // Tokens served this week: the mean demand, as far as the peak was met.
                    fates[j].tokens +=
                        demand[j] / peak_over_mean.max(1.0) * served[j] * DAYS_PER_WEEK * 86_400.0;
                    if fates[j].start.is_none() && took > 0 {
                        fates[j].start = Some(week_start);
                    }
                }
                Work::Train { sizes, tokens, .. } => {
                    if fates[j].finish.is_some() {
                        continue;
                    }
                    // Ready from the later of its week and its predecessor's finish.
                    let mut ready = week_start;
                    if let Some(on) = job.after.filter(|&a| a < n && a != j) {
                        match fates[on].finish {
                            Some(f) if f < week_start + DAYS_PER_WEEK => ready = ready.max(f),
                            _ => {
                                if !waited[j] {
                                    waited[j] = true;
                                    whys.push(Why::Waits { job: j, on });
                                }
                                continue;
                            }
                        }
                    }
                    // Chips free all week, and those a job finishing this week frees from its
                    // finish on.
                    // Whether the site can power a size at this job's draw.
                    let powered = |p: usize, s: &Size, site_w: &[f64]| {
                        let (kind, site) = pools[p];
                        let extra = (s.w_per_chip - year.kinds[kind].idle_w).max(0.0);
                        site_w[site] + extra * s.chips as f64 <= cap[site]
                    };
                    let room =
                        |p: usize, free: &[u32], late: &[(u32, f64, f64)], site_w: &[f64]| {
                            let curve = curves[j].get(pools[p].0)?;
                            let chips = free[p].saturating_add(late[p].0).min(job.max);
                            curve.within(chips, |s| powered(p, s, site_w))
                        };
                    let fastest = (0..pools.len())
                        .filter_map(|p| room(p, &free, &late, &site_w).map(|s| (p, s)))
                        .min_by(|a, b| {
                            a.1.days.total_cmp(&b.1.days).then(a.1.chips.cmp(&b.1.chips))
                        });
                    // A running job moves only when the move, restart paid, finishes sooner
                    // than staying.
                    let stay = holding[j].filter(|&(p, chips)| free[p] >= chips);
                    let stay = stay.and_then(|(p, chips)| {
                        let here = sizes[pools[p].0]
                            .iter()
                            .find(|s| s.chips == chips && powered(p, s, &site_w))?;
                        let left = 1.0 - progress[j];
                        let moving = fastest.map_or(f64::INFINITY, |(_, there)| {
                            left * there.days * scale_of(j) + job.restart_days.max(0.0)
                        });
                        (left * here.days * scale_of(j) <= moving).then_some((p, *here))
                    });
                    let chosen = stay.or(fastest);
                    let Some((p, size)) = chosen else {
                        if !stalled[j] {
                            stalled[j] = true;
                            whys.push(Why::NoRoom { job: j, week });
                        }
                        if ready <= week_start {
                            whole_week[j] = Some((0.0, 0.0));
                        }
                        continue;
                    };
                    stalled[j] = false;
                    let (kind, site) = pools[p];
                    let extra = (size.w_per_chip - year.kinds[kind].idle_w).max(0.0);
                    if size.chips > free[p] {
                        // It takes chips freed this week: it starts once they are, and they
                        // draw its load in place of the finished job's.
                        let freed = size.chips - free[p];
                        late[p].0 -= freed;
                        ready = ready.max(late[p].1);
                        site_w[site] += extra * free[p] as f64
                            + (extra - late[p].2.min(extra)).max(0.0) * freed as f64;
                        free[p] = 0;
                    } else {
                        free[p] -= size.chips;
                        site_w[site] += extra * size.chips as f64;
                    }
                    let week_end = week_start + DAYS_PER_WEEK;
                    let mut days = week_end - ready;
                    match holding[j] {
                        None => whys.push(Why::Starts { job: j, week, kind, chips: size.chips }),
                        Some(h) if h != (p, size.chips) => {
                            days -= job.restart_days.max(0.0);
                            fates[j].restarts += 1;
                            whys.push(Why::Resized { job: j, week, kind, chips: size.chips });
                        }
                        Some(_) => {}
                    }
                    holding[j] = Some((p, size.chips));
                    if fates[j].start.is_none() {
                        fates[j].start = Some(ready);
                    }
                    let total = size.days * scale_of(j);
                    let gained = days.max(0.0) / total;
                    let mut until = week_end;
                    if progress[j] + gained >= 1.0 {
                        let need = (1.0 - progress[j]) * total;
                        let lost = (week_end - ready) - days;
                        let finish = ready + lost.max(0.0) + need;
                        fates[j].finish = Some(finish);
                        progress[j] = 1.0;
                        holding[j] = None;
                        // Its chips are free from its finish for the jobs after it.
                        if finish < week_end {
                            let drew = (size.w_per_chip - year.kinds[kind].idle_w).max(0.0);
                            late[p] = (
                                late[p].0 + size.chips,
                                late[p].1.max(finish),
                                late[p].2.min(drew),
                            );
                            until = finish;
                        }
                    } else {
                        progress[j] += gained;
                        if ready <= week_start {
                            whole_week[j] = Some((gained, DAYS_PER_WEEK - days.max(0.0)));
                        }
                    }
                    held[j][p] = size.chips;
                    held_span[j] = (
                        (ready - week_start).clamp(0.0, DAYS_PER_WEEK),
                        (until - week_start).clamp(0.0, DAYS_PER_WEEK),
                    );
                    fates[j].tokens = tokens * progress[j];
                }
            }
        }
        // Chips idle at serving's peak, switched on.
        let free_all: u32 = free.iter().sum();
        let late_all: u32 = late.iter().map(|l| l.0).sum();
        let on = free_all + late_all;
        let mut trough_held = held.clone();
        for (j, kept) in serve_trough.into_iter().enumerate() {
            if let Some(kept) = kept {
                trough_held[j] = kept;
            }
        }
        if trough > 0.0 {
            let troughs =
                Troughs { year, pools: &pools, curves: &curves, cap: &cap, share: trough };
            for &j in &order {
                let Some(plain) = whole_week[j] else { continue };
                let job = &year.jobs[j];
                if !job.elastic || fates[j].finish.is_some() {
                    continue;
                }
                let Work::Train { sizes, tokens, .. } = &job.work else { continue };
                let base = held[j].iter().position(|&c| c > 0).and_then(|p| {
                    let size = sizes[pools[p].0].iter().find(|s| s.chips == held[j][p])?;
                    Some((p, *size))
                });
                let drawn: Vec<f64> = site_w.iter().zip(&trough_dw).map(|(a, b)| a + b).collect();
                // What serving frees in its troughs, and what no job holds at the peak either.
                let spare: Vec<u32> =
                    lend.iter().zip(&free).map(|(a, b)| a.saturating_add(*b)).collect();
                let Some(lent) = troughs.best(j, base, &spare, &drawn, plain, scale_of(j)) else {
                    continue;
                };
                let before = progress[j] - plain.0;
                let (kind, site) = pools[lent.pool];
                let base_chips = base.map_or(0, |(_, b)| b.chips);
                let more = lent.size.chips - base_chips;
                let from_serving = more.min(lend[lent.pool]);
                lend[lent.pool] -= from_serving;
                free[lent.pool] -= more - from_serving;
                trough_dw[site] += troughs.extra(lent.pool, &lent.size) * lent.size.chips as f64
                    - base.map_or(0.0, |(p, b)| troughs.extra(p, &b) * b.chips as f64);
                trough_held[j][lent.pool] = lent.size.chips;
                held_span[j] = (0.0, DAYS_PER_WEEK);
                if fates[j].start.is_none() {
                    fates[j].start = Some(week_start);
                }
                let mut restarts = lent.restarts as f64;
                if before + lent.gain >= 1.0 {
                    // Finishing within the week, at the week's mean pace.
                    let share = ((1.0 - before) / lent.gain).clamp(0.0, 1.0);
                    let finish = week_start + share * DAYS_PER_WEEK;
                    fates[j].finish = Some(finish);
                    progress[j] = 1.0;
                    holding[j] = None;
                    held_span[j].1 = share * DAYS_PER_WEEK;
                    restarts = (restarts * share).ceil();
                } else {
                    progress[j] = before + lent.gain;
                }
                fates[j].restarts += restarts as u32;
                fates[j].tokens = tokens * progress[j];
                if lent_last[j] != Some((lent.pool, lent.size.chips)) {
                    let hours = trough * 24.0;
                    let chips = lent.size.chips;
                    whys.push(Why::Troughs { job: j, week, kind, chips, hours });
                }
                lent_last[j] = Some((lent.pool, lent.size.chips));
            }
        }
        let trough_w: Vec<f64> = site_w.iter().zip(&trough_dw).map(|(a, b)| a + b).collect();
        let all: u32 = installed.iter().sum();
        installed_weeks += all as f64;
        // Owning every installed chip, and energy for what the sites drew.
        for (p, &(kind, _)) in pools.iter().enumerate() {
            let k = &year.kinds[kind];
            spend.own_usd += installed[p] as f64 * k.usd_per_chip_day * DAYS_PER_WEEK;
            spend.rent_usd += installed[p] as f64 * k.rent_usd_per_chip_day * DAYS_PER_WEEK;
        }
        let (peak_w, low_w): (f64, f64) = (site_w.iter().sum(), trough_w.iter().sum());
        let drawn = peak_w * (1.0 - trough) + low_w * trough;
        let mwh = drawn * DAYS_PER_WEEK * 24.0 / 1e6;
        spend.energy_mwh += mwh;
        spend.energy_usd += mwh * 1e3 * year.usd_per_kwh;
        let this = Week {
            installed,
            held,
            held_span,
            trough,
            trough_held,
            trough_w,
            idle: on,
            dark,
            site_w,
            cap_w: cap,
            served,
            demand_tokens_per_s: demand,
        };
        held_weeks += (0..n).fold(0.0, |sum, j| sum + this.average(j));
        out.push(this);
    }
    let horizon = weeks as f64 * DAYS_PER_WEEK;
    for (j, job) in year.jobs.iter().enumerate() {
        if let Work::Train { sizes, .. } = &job.work {
            let due = job.deadline.unwrap_or(horizon);
            fates[j].met = fates[j].finish.is_some_and(|f| f <= due + 1e-9);
            if !fates[j].met {
                fates[j].to_meet = to_meet(job, sizes, fates[j].start, due, scale_of(j));
            }
        }
    }
    spend.capex_usd = year
        .deliveries
        .iter()
        .filter(|d| d.week < weeks)
        .map(|d| d.chips as f64 * year.kinds.get(d.kind).map_or(0.0, |k| k.capex_usd))
        .sum();
    let all_met = fates.iter().all(|f| f.met);
    Schedule {
        pools,
        weeks: out,
        fates,
        whys,
        utilisation: if installed_weeks > 0.0 { held_weeks / installed_weeks } else { 0.0 },
        spend,
        all_met,
    }
}

/// The fewest chips of one kind that finish a job from its start (or first week) by `due`,
/// with no restart: the kind needing the fewest.
fn to_meet(
    job: &Job,
    sizes: &[Vec<Size>],
    start: Option<f64>,
    due: f64,
    scale: f64,
) -> Option<(usize, u32)> {
    let from = start.unwrap_or(job.earliest as f64 * DAYS_PER_WEEK);
    sizes
        .iter()
        .enumerate()
        .filter_map(|(kind, curve)| {
            curve
                .iter()
                .filter(|s| s.chips >= job.min && from + s.days * scale <= due)
                .map(|s| s.chips)
                .min()
                .map(|chips| (kind, chips))
        })
        .min_by_key(|&(kind, chips)| (chips, kind))
}

/// The year scheduled, each finish with its range.
pub fn schedule(year: &Year) -> Schedule {
    let ends = |end: fn((f64, f64)) -> f64| -> Vec<f64> {
        let range = |j: &Job| match j.work {
            Work::Train { range, .. } => end(range),
            Work::Serve { .. } => 1.0,
        };
        year.jobs.iter().map(range).collect()
    };
    let mut mid = run(year, &[]);
    // Every job at the same end of its own range.
    let low = run(year, &ends(|r| r.0));
    let high = run(year, &ends(|r| r.1));
    for (j, fate) in mid.fates.iter_mut().enumerate() {
        fate.finish_low = low.fates[j].finish;
        fate.finish_high = high.fates[j].finish;
    }
    mid
}

/// The smallest purchase that makes every deadline and serving target hold, of one of
/// `kinds` at `site`: for each kind the fewest whole units delivered in week 0, then the
/// latest week that still holds; the kind whose purchase costs least. `None` when everything
/// holds already or no purchase of up to `most` chips of a kind does.
pub fn buy(year: &Year, kinds: &[usize], site: usize, most: u32) -> Option<Purchase> {
    if run(year, &[]).all_met {
        return None;
    }
    let holds = |p: Purchase| run(&year.with(p), &[]).all_met;
    let mut best: Option<(f64, Purchase)> = None;
    for &kind in kinds {
        let Some(k) = year.kinds.get(kind) else { continue };
        let unit = k.unit.max(1);
        let at = |units: u32| Purchase { kind, site, week: 0, chips: units.saturating_mul(unit) };
        // Doubling to a count that holds, then halving down to the fewest.
        let top = (most / unit).max(1);
        let mut hi = 1u32;
        while hi < top && !holds(at(hi)) {
            hi = (hi * 2).min(top);
        }
        if !holds(at(hi)) {
            continue;
        }
        let mut lo = hi / 2;
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if holds(at(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let mut found = at(hi);
        // The latest week that still holds with that count, by halving: week 0 holds, and a
        // later delivery rarely helps where an earlier one does not.
        let (mut lo, mut hi) = (0, year.weeks.min(MAX_WEEKS).saturating_sub(1));
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if holds(Purchase { week: mid, ..found }) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        found.week = lo;
        let usd = found.chips as f64 * k.capex_usd;
        if best.as_ref().is_none_or(|(b, _)| usd < *b) {
            best = Some((usd, found));
        }
    }
    best.map(|(_, p)| p)
}
