//! `Scenario::year`: the cluster's year (`year`), many jobs on one fleet over weeks, read and
//! checked for `evaluation::year`, which estimates each job and hands `model::year` plain
//! figures.
//!
//! ```json
//! "year": {
//!   "start": "2027-01-04", "weeks": 52,
//!   "deliveries": [ { "chip": "h100-sxm", "chips": 8192 },
//!                   { "week": 20, "chip": "gb300", "chips": 4608, "site": "north" } ],
//!   "power": [ { "site": "north", "mw": 30 } ],
//!   "buy": ["gb300"],
//!   "jobs": [
//!     { "name": "pretrain", "kind": "pretrain", "deadline": "2027-07-01", "chips": { "min": 4096 } },
//!     { "name": "rl", "kind": "post_train", "after": "pretrain", "deadline": 40,
//!       "scenario": { "training": { "tokens": "200B" } } },
//!     { "name": "chat", "kind": "serve", "tokens_per_day": "20B", "growth_per_month": 0.15 }
//!   ]
//! }
//! ```
//!
//! A job's `scenario` is merged over the scenario's own (its measurements and year left out), as
//! a measurement's changes are. Weeks count from `start`; a deadline or first week may be a week
//! or a date. Without `deliveries` the fleet is the cluster, installed in week 0; without `jobs`,
//! the year runs the scenario's own training once. Every bad field is named by its place
//! (`year.jobs.1.deadline`).

use serde_json::{Map, Value};

use super::calibration::merge;
use super::fields::{self, fixed};
use super::resolve::{check_keys, short, Reader};
use super::{Catalog, InputError, Problem, Scenario};
pub use crate::model::year::JobKind;

/// Jobs and deliveries a year may hold: as many as a page shows and its schedule, estimates
/// and purchase search answer in well under a second.
pub const MAX_JOBS: usize = 24;
pub const MAX_DELIVERIES: usize = 48;
/// Kinds of chip (delivered or bought) and sites a year may hold: each job is estimated on every
/// chip, and every week asks each pool.
pub const MAX_CHIPS: usize = 4;
pub const MAX_SITES: usize = 8;

/// The first day of a year that does not give its own.
pub const DEFAULT_START: &str = "2027-01-04";

/// The jobs with one more, named by the next free `job N`: a fine-tune of the scenario's model
/// on a hundredth of its `tokens` (`serve` false), or a serving load of a billion tokens a
/// day. A year without a `jobs` list (`None`) runs the scenario's own training: it is written
/// out first, as `training`. As they were at `MAX_JOBS`.
pub fn job_added(jobs: Option<Vec<Value>>, serve: bool, tokens: f64) -> Vec<Value> {
    let mut jobs = jobs.unwrap_or_else(|| vec![serde_json::json!({ "name": "training" })]);
    if jobs.len() >= MAX_JOBS {
        return jobs;
    }
    let taken =
        |name: &str| jobs.iter().any(|j| j.get("name").and_then(Value::as_str) == Some(name));
    let name = (jobs.len() + 1..).map(|n| format!("job {n}")).find(|n| !taken(n));
    jobs.push(if serve {
        serde_json::json!({ "name": name, "kind": "serve", "tokens_per_day": "1B" })
    } else {
        // Written as people write token counts (`156B`), three significant figures.
        let tokens = crate::numbers::sig3((tokens / 100.0).max(1e6));
        serde_json::json!({ "name": name, "kind": "fine_tune", "priority": 2,
            "scenario": { "training": { "tokens": tokens } } })
    });
    jobs
}

/// The jobs with job `at` called `name` (trimmed), the jobs that ran after it running after
/// the new name; `None` for a blank name, one another job has, or a job the list lacks.
pub fn job_renamed(mut jobs: Vec<Value>, at: usize, name: &str) -> Option<Vec<Value>> {
    let name = name.trim();
    let old = jobs.get(at)?.get("name").cloned();
    let clash = jobs
        .iter()
        .enumerate()
        .any(|(i, j)| i != at && j.get("name").and_then(Value::as_str) == Some(name));
    if name.is_empty() || clash {
        return None;
    }
    for (i, job) in jobs.iter_mut().enumerate() {
        let Value::Object(map) = job else { continue };
        if i == at {
            map.insert("name".into(), Value::from(name));
        } else if old.is_some() && map.get("after") == old.as_ref() {
            map.insert("after".into(), Value::from(name));
        }
    }
    Some(jobs)
}

/// The jobs without job `at`, the jobs that ran after it starting on their own; `None` for a
/// job the list lacks.
pub fn job_removed(mut jobs: Vec<Value>, at: usize) -> Option<Vec<Value>> {
    if at >= jobs.len() {
        return None;
    }
    let gone = jobs.remove(at).get("name").cloned();
    for job in &mut jobs {
        if let Value::Object(map) = job {
            if gone.is_some() && map.get("after") == gone.as_ref() {
                map.remove("after");
            }
        }
    }
    Some(jobs)
}

/// A job's own model: `preset` alone (a job's model with a preset replaces the scenario's
/// whole, see `job_scenario`); `None` (the scenario's model) without a preset.
pub fn job_model(preset: Option<&str>) -> Option<Value> {
    let preset = preset.map(str::trim).filter(|p| !p.is_empty())?;
    Some(serde_json::json!({ "preset": preset }))
}

/// A job's scenario as JSON: `changes` merged over `base` key by key, as calibration entries
/// are, except a `model` that names a `preset`, which is the job's whole model: the
/// scenario's own layers or widths, written or changed after the job was, are not the job's.
fn job_scenario(base: &Scenario, changes: &Map<String, Value>) -> Value {
    let mut value = base.to_value();
    let names_preset = |m: &Value| m.get("preset").is_some_and(|p| !p.is_null());
    if changes.get("model").is_some_and(names_preset) {
        if let Value::Object(map) = &mut value {
            map.insert("model".into(), Value::Object(Map::new()));
        }
    }
    merge(&mut value, &Value::Object(changes.clone()));
    value
}

/// The deliveries with the last repeated a quarter (13 weeks) later, of the same chip, count
/// and site; a year without deliveries has the cluster's `chips` in week 0, written out first.
/// As they were at `MAX_DELIVERIES` or when the next would arrive past the horizon (`weeks`).
pub fn delivery_added(mut deliveries: Vec<Value>, chips: u32, weeks: u32) -> Vec<Value> {
    if deliveries.is_empty() {
        deliveries.push(serde_json::json!({ "chip": "cluster", "chips": chips, "week": 0 }));
    }
    quarter_later(deliveries, &["chip", "chips", "site"], weeks)
}

/// The power caps with one more: the last site's cap a quarter (13 weeks) later, the same
/// megawatts; a year without caps starts with the cluster's site at `mw` from week 0. As they
/// were at `MAX_DELIVERIES`, the bound of caps too, or past the horizon (`weeks`).
pub fn cap_added(mut caps: Vec<Value>, mw: f64, weeks: u32) -> Vec<Value> {
    if caps.is_empty() {
        caps.push(serde_json::json!({ "week": 0, "mw": mw }));
        return caps;
    }
    quarter_later(caps, &["site", "mw"], weeks)
}

/// The list with its last entry's `keys` again 13 weeks after its `week` (a number or text as
/// people write it); as it was at `MAX_DELIVERIES`, when that week is past the horizon
/// (`weeks`), or when its last entry is no object.
fn quarter_later(mut list: Vec<Value>, keys: &[&str], weeks: u32) -> Vec<Value> {
    let Some(Value::Object(last)) = list.last().filter(|_| list.len() < MAX_DELIVERIES) else {
        return list;
    };
    let week = match last.get("week") {
        Some(Value::String(text)) => crate::numbers::parse(text).unwrap_or(0.0),
        Some(v) => v.as_f64().unwrap_or(0.0),
        None => 0.0,
    };
    let next_week = (week.max(0.0).round() as u32).saturating_add(13);
    if next_week >= weeks {
        return list;
    }
    let mut next: Map<String, Value> =
        keys.iter().filter_map(|&k| Some((k.to_string(), last.get(k)?.clone()))).collect();
    next.insert("week".into(), Value::from(next_week));
    list.push(Value::Object(next));
    list
}

/// A job of the year, read.
#[derive(Clone, Debug, PartialEq)]
pub struct YearJob {
    pub name: String,
    pub kind: JobKind,
    /// The scenario the job runs: the year's own with the job's changes merged in.
    pub scenario: Scenario,
    /// First week it may run.
    pub earliest: u32,
    /// Day (from `start`) it must finish by, or serving ends.
    pub deadline: Option<f64>,
    pub priority: u32,
    /// Place of the job it waits for.
    pub after: Option<usize>,
    pub min: Option<u32>,
    pub max: Option<u32>,
    pub elastic: bool,
    /// Serving: tokens a day in its first week, growth a month, peak over mean.
    pub tokens_per_day: f64,
    pub growth_per_month: f64,
    pub peak_over_mean: f64,
}

/// Chips arriving, read; `chip` is a catalog id, `None` for the cluster's own chip.
#[derive(Clone, Debug, PartialEq)]
pub struct YearDelivery {
    pub chip: Option<String>,
    pub site: String,
    pub week: u32,
    pub chips: u32,
    pub retire: Option<u32>,
}

/// The year, read.
#[derive(Clone, Debug, PartialEq)]
pub struct YearPlan {
    /// Days from 1970-01-01 of the first day.
    pub start_day: i64,
    pub weeks: u32,
    pub deliveries: Vec<YearDelivery>,
    /// Power caps: site, first week, megawatts.
    pub power: Vec<(String, u32, f64)>,
    /// Chips a purchase may be of (catalog ids; `None` the cluster's own), and its site.
    pub buy: Vec<Option<String>>,
    pub buy_site: String,
    pub jobs: Vec<YearJob>,
}

impl YearPlan {
    /// The sites named, in order of first mention.
    pub fn sites(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let named = self.deliveries.iter().map(|d| &d.site);
        for s in named.chain(self.power.iter().map(|p| &p.0)).chain([&self.buy_site]) {
            if !out.contains(s) {
                out.push(s.clone());
            }
        }
        out
    }
}

/// Days from 1970-01-01 of a date written `YYYY-MM-DD` (the proleptic Gregorian calendar).
pub fn day_of(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1900..=2200).contains(&y) || !(1..=12).contains(&m) || d < 1 || d > days_in[m as usize - 1]
    {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm, public domain).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// The date `YYYY-MM-DD` of a day counted from 1970-01-01.
pub fn date_of(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

impl Scenario {
    /// The scenario's year, or `None` when it has none; every bad field at once.
    pub fn year(&self) -> Result<Option<YearPlan>, Vec<InputError>> {
        let Some(raw) = &self.year else { return Ok(None) };
        let mut r = Reader::default();
        let Value::Object(map) = raw else {
            r.error("year", Problem::NotObject { got: short(raw), or_null: false });
            return Err(r.into_errors());
        };
        check_keys(&mut r, map, "year", &["start", "deliveries", "power", "buy", "jobs"]);
        let start_day = match map.get("start") {
            None => day_of(DEFAULT_START).unwrap_or(0),
            Some(v) => date(&mut r, v, "year.start").unwrap_or(0),
        };
        let weeks = r.count(&map.get("weeks").cloned(), &fields::YEAR_WEEKS, Some(52));
        let deliveries = self.deliveries(&mut r, map.get("deliveries"), weeks);
        let power = power(&mut r, map.get("power"));
        let buy = match map.get("buy") {
            None => Vec::new(),
            Some(Value::Array(ids)) => ids
                .iter()
                .enumerate()
                .filter_map(|(i, v)| chip_id(&mut r, v, &format!("year.buy.{i}")))
                .collect(),
            Some(other) => {
                r.error("year.buy", Problem::NotList { got: short(other) });
                Vec::new()
            }
        };
        let buy_site =
            deliveries.first().map(|d: &YearDelivery| d.site.clone()).unwrap_or_default();
        let jobs = self.jobs(&mut r, map.get("jobs"), start_day, weeks);
        let mut chips: Vec<&Option<String>> = Vec::new();
        for c in deliveries.iter().map(|d| &d.chip).chain(&buy) {
            if !chips.contains(&c) {
                chips.push(c);
            }
        }
        if chips.len() > MAX_CHIPS {
            let (most, got) = (MAX_CHIPS, chips.len());
            r.error("year.deliveries", Problem::TooManyOf { catalog: Catalog::Chip, most, got });
        }
        let errors = r.into_errors();
        if !errors.is_empty() {
            return Err(errors);
        }
        let plan = YearPlan { start_day, weeks, deliveries, power, buy, buy_site, jobs };
        let sites = plan.sites().len();
        if sites > MAX_SITES {
            let problem =
                Problem::TooManyOf { catalog: Catalog::Site, most: MAX_SITES, got: sites };
            return Err(vec![InputError::new("year.deliveries", problem)]);
        }
        Ok(Some(plan))
    }

    fn deliveries(&self, r: &mut Reader, raw: Option<&Value>, weeks: u32) -> Vec<YearDelivery> {
        let items = match raw {
            None => {
                // The cluster's chips as the cluster reads them ("16k" too); a bad count is
                // the cluster's own problem, reported there, so this reading keeps none.
                let chips =
                    Reader::default().count(&self.cluster.chips, &fields::CLUSTER_CHIPS, None);
                return vec![YearDelivery {
                    chip: None,
                    site: String::new(),
                    week: 0,
                    chips,
                    retire: None,
                }];
            }
            Some(raw) => entries(r, raw, "year.deliveries", MAX_DELIVERIES),
        };
        let mut out = Vec::new();
        for (place, map) in items {
            let since = r.count_errors();
            check_keys(r, map, "year.deliveries", &["chip", "site"]);
            let chip = map.get("chip").and_then(|v| chip_id(r, v, "year.deliveries.chip"));
            let site = site(r, map.get("site"), "year.deliveries.site");
            let week = r.count(&map.get("week").cloned(), &fields::YEAR_DELIVERIES_WEEK, Some(0));
            let chips = r.count(&map.get("chips").cloned(), &fields::YEAR_DELIVERIES_CHIPS, None);
            let retire = match map.get("retire") {
                None | Some(Value::Null) => None,
                Some(v) => {
                    let at = r.count(&Some(v.clone()), &fields::YEAR_DELIVERIES_RETIRE, None);
                    if at <= week {
                        let problem = Problem::TooSmall { min: week as f64 + 1.0 };
                        r.error("year.deliveries.retire", problem);
                    }
                    Some(at)
                }
            };
            if week >= weeks {
                r.error("year.deliveries.week", Problem::TooLarge { max: weeks as f64 - 1.0 });
            }
            r.prefix_since(since, "year.deliveries", &format!("year.deliveries.{place}"));
            out.push(YearDelivery { chip: chip.flatten(), site, week, chips, retire });
        }
        out
    }

    fn jobs(&self, r: &mut Reader, raw: Option<&Value>, start: i64, weeks: u32) -> Vec<YearJob> {
        let mut base = self.clone();
        base.calibration = None;
        base.year = None;
        let items = match raw {
            None => {
                return vec![YearJob {
                    name: "training".into(),
                    kind: JobKind::Pretrain,
                    scenario: base,
                    earliest: 0,
                    deadline: None,
                    priority: fixed!(YEAR_JOBS_PRIORITY) as u32,
                    after: None,
                    min: None,
                    max: None,
                    elastic: false,
                    tokens_per_day: 0.0,
                    growth_per_month: 0.0,
                    peak_over_mean: 1.0,
                }];
            }
            Some(raw) => entries(r, raw, "year.jobs", MAX_JOBS),
        };
        let names: Vec<(usize, String)> = items
            .iter()
            .map(|&(i, map)| match map.get("name").and_then(Value::as_str) {
                Some(name) => (i, name.trim().to_string()),
                None => (i, format!("job {}", i + 1)),
            })
            .collect();
        let mut out = Vec::new();
        for (place, map) in items {
            let since = r.count_errors();
            let extra = ["name", "kind", "scenario", "after", "earliest", "deadline", "chips"];
            check_keys(r, map, "year.jobs", &extra);
            if let Some(v) = map.get("name") {
                r.text(v, "year.jobs.name");
            }
            let kind =
                r.choice(&map.get("kind").cloned(), &fields::YEAR_JOBS_KIND, JobKind::Pretrain);
            let scenario = match map.get("scenario") {
                None => base.clone(),
                Some(Value::Object(changes)) => {
                    match Scenario::from_value(job_scenario(&base, changes)) {
                        Ok(s) => s,
                        Err(_) => {
                            let got = short(&Value::Object(changes.clone()));
                            r.error(
                                "year.jobs.scenario",
                                Problem::NotObject { got, or_null: false },
                            );
                            base.clone()
                        }
                    }
                }
                Some(other) => {
                    let problem = Problem::NotObject { got: short(other), or_null: false };
                    r.error("year.jobs.scenario", problem);
                    base.clone()
                }
            };
            // The job's own fields, named in it; a chip count its plan does not divide is
            // no error here, as the year sizes each job afresh.
            if let Err(found) = scenario.resolve() {
                for e in found {
                    if !matches!(e.problem, Problem::ChipsDoNotDivide { .. }) {
                        r.error(&format!("year.jobs.scenario.{}", e.field), e.problem);
                    }
                }
            }
            let earliest = match map.get("earliest") {
                None => 0,
                Some(v) => week_or_date(r, v, &fields::YEAR_JOBS_EARLIEST, start)
                    .map_or(0, |d| (d / 7.0).floor().max(0.0) as u32),
            };
            if earliest >= weeks {
                r.error("year.jobs.earliest", Problem::TooLarge { max: weeks as f64 - 1.0 });
            }
            let deadline = map
                .get("deadline")
                .filter(|v| !v.is_null())
                .and_then(|v| week_or_date(r, v, &fields::YEAR_JOBS_DEADLINE, start));
            let priority = r.count(
                &map.get("priority").cloned(),
                &fields::YEAR_JOBS_PRIORITY,
                Some(fixed!(YEAR_JOBS_PRIORITY) as u32),
            );
            let after = match map.get("after") {
                None | Some(Value::Null) => None,
                Some(v) => match r.text(v, "year.jobs.after") {
                    // The job's place among the jobs read.
                    Some(name) => match names.iter().position(|(_, n)| n == name) {
                        Some(i) if names[i].0 != place => Some(i),
                        _ => {
                            let known = names
                                .iter()
                                .filter(|(i, _)| *i != place)
                                .map(|(_, n)| n.as_str())
                                .collect::<Vec<_>>()
                                .join(", ");
                            let id = name.to_string();
                            r.error(
                                "year.jobs.after",
                                Problem::Unknown { catalog: Catalog::Job, id, known },
                            );
                            None
                        }
                    },
                    None => None,
                },
            };
            let (min, max) = match map.get("chips") {
                None => (None, None),
                Some(Value::Object(c)) => {
                    check_keys(r, c, "year.jobs.chips", &[]);
                    let min = c
                        .get("min")
                        .map(|v| r.count(&Some(v.clone()), &fields::YEAR_JOBS_CHIPS_MIN, None));
                    let max = c
                        .get("max")
                        .map(|v| r.count(&Some(v.clone()), &fields::YEAR_JOBS_CHIPS_MAX, None));
                    if let (Some(lo), Some(hi)) = (min, max) {
                        if hi < lo {
                            let problem = Problem::TooSmall { min: lo as f64 };
                            r.error("year.jobs.chips.max", problem);
                        }
                    }
                    (min, max)
                }
                Some(other) => {
                    let problem = Problem::NotObject { got: short(other), or_null: false };
                    r.error("year.jobs.chips", problem);
                    (None, None)
                }
            };
            let elastic = r.flag(&map.get("elastic").cloned(), &fields::YEAR_JOBS_ELASTIC, false);
            let serving = kind == JobKind::Serve;
            let tokens_per_day = if serving {
                r.positive(
                    &map.get("tokens_per_day").cloned(),
                    &fields::YEAR_JOBS_TOKENS_PER_DAY,
                    None,
                )
            } else {
                0.0
            };
            let growth_field = &fields::YEAR_JOBS_GROWTH_PER_MONTH;
            let growth_per_month = match map.get("growth_per_month") {
                None => fixed!(YEAR_JOBS_GROWTH_PER_MONTH),
                Some(v) => match r.number_value(v, growth_field.path) {
                    Some(x) if r.in_range(x, growth_field) => x,
                    _ => 0.0,
                },
            };
            let peak_field = &fields::YEAR_JOBS_PEAK_OVER_MEAN;
            let peak_over_mean = r.positive(
                &map.get("peak_over_mean").cloned(),
                peak_field,
                Some(fixed!(YEAR_JOBS_PEAK_OVER_MEAN)),
            );
            r.prefix_since(since, "year.jobs", &format!("year.jobs.{place}"));
            out.push(YearJob {
                name: names
                    .iter()
                    .find(|(i, _)| *i == place)
                    .map_or_else(String::new, |n| n.1.clone()),
                kind,
                scenario,
                earliest,
                deadline,
                priority,
                after,
                min,
                max,
                elastic,
                tokens_per_day,
                growth_per_month,
                peak_over_mean,
            });
        }
        out
    }
}

/// The objects of the list `raw` at `list`, with their places; a value that is no list, a list
/// longer than `most` or an entry that is no object is reported.
fn entries<'a>(
    r: &mut Reader,
    raw: &'a Value,
    list: &str,
    most: usize,
) -> Vec<(usize, &'a Map<String, Value>)> {
    let items = match raw {
        Value::Array(items) if items.len() > most => {
            r.error(list, Problem::TooMany { most, got: items.len() });
            return Vec::new();
        }
        Value::Array(items) => items,
        other => {
            r.error(list, Problem::NotList { got: short(other) });
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (place, item) in items.iter().enumerate() {
        match item {
            Value::Object(map) => out.push((place, map)),
            other => {
                let problem = Problem::NotObject { got: short(other), or_null: false };
                r.error(&format!("{list}.{place}"), problem);
            }
        }
    }
    out
}

/// A date, as days from 1970-01-01.
fn date(r: &mut Reader, raw: &Value, field: &str) -> Option<i64> {
    let found = raw.as_str().and_then(day_of);
    if found.is_none() {
        r.error(field, Problem::NotDate { got: short(raw) });
    }
    found
}

/// A week (a number) or a date (`YYYY-MM-DD`), as days from `start`.
fn week_or_date(r: &mut Reader, raw: &Value, at: &fields::Field, start: i64) -> Option<f64> {
    match raw {
        Value::String(s) if s.contains('-') && s.trim().len() == 10 => {
            let day = date(r, raw, at.path)?;
            if day < start {
                r.error(at.path, Problem::NotDate { got: short(raw) });
                return None;
            }
            Some((day - start) as f64)
        }
        _ => {
            let week = r.number_value(raw, at.path)?;
            r.in_range(week, at).then_some(week * 7.0)
        }
    }
}

/// A catalog chip id (`Some(None)` for `"cluster"`, the cluster's own chip).
fn chip_id(r: &mut Reader, raw: &Value, field: &str) -> Option<Option<String>> {
    let id = r.text(raw, field)?;
    if id == "cluster" {
        return Some(None);
    }
    let known = crate::model::presets::CHIPS;
    super::resolve::preset(r, field, Catalog::Chip, id, known, |c| c.id)
        .map(|c| Some(c.id.to_string()))
}

/// A site's name; the cluster's own site (empty) when absent.
fn site(r: &mut Reader, raw: Option<&Value>, field: &str) -> String {
    match raw {
        None | Some(Value::Null) => String::new(),
        Some(v) => r.text(v, field).unwrap_or_default().to_string(),
    }
}

/// The sites' power caps.
fn power(r: &mut Reader, raw: Option<&Value>) -> Vec<(String, u32, f64)> {
    let Some(raw) = raw else { return Vec::new() };
    let mut out = Vec::new();
    for (place, map) in entries(r, raw, "year.power", MAX_DELIVERIES) {
        let since = r.count_errors();
        check_keys(r, map, "year.power", &["site"]);
        let site = site(r, map.get("site"), "year.power.site");
        let week = r.count(&map.get("week").cloned(), &fields::YEAR_POWER_WEEK, Some(0));
        let mw = r.positive(&map.get("mw").cloned(), &fields::YEAR_POWER_MW, None);
        r.prefix_since(since, "year.power", &format!("year.power.{place}"));
        out.push((site, week, mw));
    }
    out
}
