//! The cluster's year as JSON (`clusterplan year FILE`, the page's download): its weeks, jobs,
//! serving, utilisation, cost and what to buy, dates written out, each decision worded.

use serde_json::{json, Value};

use crate::model::year::{Purchase, Why, Work, DAYS_PER_WEEK};
use crate::scenario::year::date_of;
use crate::sizing::year::YearAnswer;
use crate::text::fill;

/// A number, or null where there is none.
fn n(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// The date of a day of the year.
pub fn date(a: &YearAnswer, day: f64) -> String {
    date_of(a.plan.start_day + day.floor().max(0.0) as i64)
}

/// A decision of the schedule in words.
pub fn why(a: &YearAnswer, why: &Why) -> String {
    let job = |j: usize| a.plan.jobs.get(j).map_or(String::new(), |j| j.name.clone());
    let chip = |k: usize| a.kinds.get(k).map_or(String::new(), |k| k.1.clone());
    let week = |w: u32| format!("{} ({})", w + 1, date(a, w as f64 * DAYS_PER_WEEK));
    let count = |c: u32| crate::numbers::format(c as f64);
    match *why {
        Why::Waits { job: j, on } => fill("year.why.waits", &[("job", &job(j)), ("on", &job(on))]),
        Why::NoRoom { job: j, week: w } => {
            fill("year.why.no-room", &[("job", &job(j)), ("week", &week(w))])
        }
        Why::Peak { job: j, week: w, chips } => {
            fill("year.why.peak", &[("job", &job(j)), ("week", &week(w)), ("chips", &count(chips))])
        }
        Why::Starts { job: j, week: w, kind, chips } => fill(
            "year.why.starts",
            &[
                ("job", &job(j)),
                ("week", &week(w)),
                ("chips", &count(chips)),
                ("chip", &chip(kind)),
            ],
        ),
        Why::Resized { job: j, week: w, kind, chips } => fill(
            "year.why.resized",
            &[
                ("job", &job(j)),
                ("week", &week(w)),
                ("chips", &count(chips)),
                ("chip", &chip(kind)),
            ],
        ),
        Why::Troughs { job: j, week: w, kind, chips, hours } => fill(
            "year.why.troughs",
            &[
                ("job", &job(j)),
                ("week", &week(w)),
                ("chips", &count(chips)),
                ("chip", &chip(kind)),
                ("hours", &format!("{hours:.0}")),
            ],
        ),
        Why::Dark { site, week: w, chips } => {
            let site = a.sites.get(site).cloned().unwrap_or_default();
            fill("year.why.dark", &[("site", &site), ("week", &week(w)), ("chips", &count(chips))])
        }
    }
}

/// A purchase as an object.
pub fn purchase(a: &YearAnswer, p: &Purchase) -> Value {
    json!({
        "chip": a.kinds.get(p.kind).map(|k| k.0.clone().unwrap_or_else(|| "cluster".into())),
        "chip_name": a.kinds.get(p.kind).map(|k| k.1.clone()),
        "chips": p.chips,
        "week": p.week,
        "date": date(a, p.week as f64 * DAYS_PER_WEEK),
        "site": a.sites.get(p.site),
        "capex_usd": n(p.chips as f64 * a.year.kinds.get(p.kind).map_or(0.0, |k| k.capex_usd)),
    })
}

/// The year as JSON.
pub fn year_json(a: &YearAnswer) -> Value {
    let s = &a.schedule;
    let jobs = &a.plan.jobs;
    let pool_name = |p: usize| {
        let (kind, site) = s.pools[p];
        json!({ "chip": a.kinds[kind].1, "site": a.sites.get(site) })
    };
    let weeks: Vec<Value> = s
        .weeks
        .iter()
        .enumerate()
        .map(|(w, week)| {
            // Chips each job holds on average over the week: two jobs may hold the same chips
            // in one week, one until it finishes and the next from then.
            let allocated: serde_json::Map<String, Value> = jobs
                .iter()
                .enumerate()
                .map(|(j, job)| (job.name.clone(), n(week.average(j))))
                .collect();
            let sites: Vec<Value> = (0..a.sites.len())
                .map(|i| {
                    json!({
                        "site": a.sites[i],
                        "power_mw": n(week.most_w(i) / 1e6),
                        "cap_mw": n(week.cap_w[i] / 1e6),
                    })
                })
                .collect();
            json!({
                "week": w,
                "date": date(a, w as f64 * DAYS_PER_WEEK),
                "installed": week.installed.iter().sum::<u32>(),
                "installed_by_pool": week.installed.iter().enumerate().map(|(p, c)| {
                    crate::report::joined(pool_name(p), [Some(json!({ "chips": c }))])
                }).collect::<Vec<_>>(),
                "allocated": allocated,
                "idle": week.idle,
                "dark": week.dark,
                "power_mw": n(week.most_w_all() / 1e6),
                "trough_hours": n(week.trough * 24.0),
                "sites": sites,
            })
        })
        .collect();
    let day = |d: Option<f64>| d.map(|d| date(a, d));
    let job_rows: Vec<Value> = jobs
        .iter()
        .zip(&s.fates)
        .enumerate()
        .filter(|(j, _)| matches!(a.year.jobs[*j].work, Work::Train { .. }))
        .map(|(j, (job, f))| {
            let said: Vec<String> =
                s.whys.iter().filter(|w| why_job(w) == Some(j)).map(|w| why(a, w)).collect();
            json!({
                "name": job.name,
                "kind": crate::scenario::fields::YEAR_JOBS_KIND.code(job.kind),
                "start": day(f.start),
                "finish": day(f.finish),
                "finish_low": day(f.finish_low),
                "finish_high": day(f.finish_high),
                "finish_day": f.finish.map(n),
                "deadline": day(job.deadline),
                "met": f.met,
                "restarts": f.restarts,
                "can_run": !a.cannot_run.contains(&j),
                "chips_to_meet": f.to_meet.map(|(kind, chips)| json!({
                    "chip": a.kinds[kind].1, "chips": chips,
                })),
                "tokens": n(f.tokens),
                "said": said,
            })
        })
        .collect();
    let serving: Vec<Value> = jobs
        .iter()
        .enumerate()
        .filter(|(j, _)| matches!(a.year.jobs[*j].work, Work::Serve { .. }))
        .map(|(j, job)| {
            let by_week: Vec<Value> = s
                .weeks
                .iter()
                .enumerate()
                .map(|(w, week)| {
                    json!({
                        "week": w,
                        "demand_tokens_per_s": n(week.demand_tokens_per_s[j]),
                        "served": n(week.served[j]),
                        "chips": crate::model::year::chips(&week.held[j]),
                        "trough_chips": week.trough_held.get(j).map(|h| crate::model::year::chips(h)),
                    })
                })
                .collect();
            let said: Vec<String> =
                s.whys.iter().filter(|w| why_job(w) == Some(j)).map(|w| why(a, w)).collect();
            json!({
                "name": job.name,
                "said": said,
                "met": s.fates[j].met,
                "can_run": !a.cannot_run.contains(&j),
                "weeks_missed": s.weeks.iter().filter(|w| w.served[j] < 1.0 - 1e-9).count(),
                "tokens": n(s.fates[j].tokens),
                "weeks": by_week,
            })
        })
        .collect();
    let spend = &s.spend;
    let peak_mw = s.peak_w() / 1e6;
    json!({
        "start": date(a, 0.0),
        "weeks": weeks,
        "jobs": job_rows,
        "serving": serving,
        "utilisation": n(s.utilisation),
        "all_met": s.all_met,
        "cost": {
            "capex_usd": n(spend.capex_usd),
            "own_usd": n(spend.own_usd),
            "energy_usd": n(spend.energy_usd),
            "total_usd": n(spend.total_usd()),
            "rent_instead_usd": n(spend.rent_usd),
            "energy_mwh": n(spend.energy_mwh),
            "peak_mw": n(peak_mw),
            "usd_per_million_tokens": n(s.usd_per_million_tokens()),
            "usd_per_mw": n(if peak_mw > 0.0 { spend.total_usd() / peak_mw } else { f64::INFINITY }),
        },
        "buy": a.buy.iter().map(|p| purchase(a, p)).collect::<Vec<_>>(),
        "bought_all_met": a.bought.as_ref().map(|b| b.all_met),
        "said": s.whys.iter().filter(|w| why_job(w).is_none()).map(|w| why(a, w)).collect::<Vec<_>>(),
    })
}

/// The job a decision is about, if any.
pub fn why_job(w: &Why) -> Option<usize> {
    match *w {
        Why::Waits { job, .. }
        | Why::NoRoom { job, .. }
        | Why::Peak { job, .. }
        | Why::Starts { job, .. }
        | Why::Resized { job, .. }
        | Why::Troughs { job, .. } => Some(job),
        Why::Dark { .. } => None,
    }
}
