//! The cluster's year, worded and drawn in the worker (`sizing::year`): what it answers in a
//! few lines, the jobs as a table, what to buy, the cost, each decision, the fleet's chart and
//! the jobs' Gantt, and the weeks as CSV.

use serde::Serialize;

use crate::app::bricks::{Line, Row, Table};
use crate::charts::{self, Bar, FleetWeeks};
use crate::format::{percent, Money};
use crate::model::year::{Work, DAYS_PER_WEEK};
use crate::report::year::{date, why};
use crate::scenario::Scenario;
use crate::sizing::year::YearAnswer;
use crate::text::{fill, t};

/// The year as the page shows it.
/// The page reads it by hand (`app::wire`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Year {
    /// What the year answers, a line each: the jobs' dates, serving, the fleet's use.
    pub said: Vec<Line>,
    pub jobs: Table,
    /// The smallest purchase that makes every target hold, or that none is needed or none
    /// does.
    pub buy: Option<Line>,
    pub cost: Vec<Line>,
    /// The schedule's decisions, in words.
    pub decisions: Vec<String>,
    /// The fleet and the jobs drawn, SVG documents.
    pub fleet_svg: String,
    pub gantt_svg: String,
    /// The weeks as CSV.
    pub csv: String,
    /// The year's fields the judge refused, in words.
    pub errors: Vec<String>,
}

/// The year of `scenario`, or `None` when it has none.
pub fn drawn(scenario: &Scenario, theme: &charts::Theme, width: u32) -> Option<Year> {
    let answer = match crate::evaluation::year(scenario) {
        Ok(Some(a)) => a,
        Ok(None) => return None,
        Err(errors) => {
            let errors = errors
                .iter()
                .map(|e| {
                    format!(
                        "{} ({}): {}",
                        crate::text::field_name(&e.field),
                        e.field,
                        crate::text::input_error(e)
                    )
                })
                .collect();
            return Some(Year { errors, ..Year::default() });
        }
    };
    let money = scenario.resolve().map_or(Money::USD, |i| Money::of(&i.plant.facility));
    Some(Year {
        said: said(&answer),
        jobs: jobs(&answer),
        buy: Some(buy(&answer)),
        cost: cost(&answer, money),
        decisions: answer.schedule.whys.iter().take(60).map(|w| why(&answer, w)).collect(),
        fleet_svg: charts::draw_year_fleet(&fleet(&answer), theme, (width, 340)),
        gantt_svg: charts::draw_year_gantt(
            &bars(&answer),
            answer.year.weeks,
            theme,
            (width, 90 + 34 * answer.plan.jobs.len() as u32),
        ),
        csv: csv(&answer),
        errors: Vec::new(),
    })
}

fn said(a: &YearAnswer) -> Vec<Line> {
    let s = &a.schedule;
    let mut out = Vec::new();
    let installed = s.weeks.iter().map(|w| w.installed.iter().sum::<u32>()).max().unwrap_or(0);
    let (train, serve): (Vec<usize>, Vec<usize>) =
        (0..a.plan.jobs.len()).partition(|&j| matches!(a.year.jobs[j].work, Work::Train { .. }));
    let missed: Vec<&str> =
        train.iter().filter(|&&j| !s.fates[j].met).map(|&j| a.plan.jobs[j].name.as_str()).collect();
    out.push(Line::new(
        "year-summary",
        fill(
            "year.summary",
            &[
                ("jobs", &crate::numbers::format(a.plan.jobs.len() as f64)),
                ("chips", &crate::numbers::format(installed as f64)),
                ("weeks", &crate::numbers::format(a.year.weeks as f64)),
                ("use", &percent(s.utilisation)),
            ],
        ),
        false,
    ));
    out.push(if missed.is_empty() {
        Line::new("year-deadlines", t("year.deadlines-met"), false)
    } else {
        Line::new(
            "year-deadlines",
            fill("year.deadlines-missed", &[("jobs", &missed.join(", "))]),
            true,
        )
    });
    for &j in &serve {
        let weeks = s.weeks.iter().filter(|w| w.served[j] < 1.0 - 1e-9).count();
        let name = &a.plan.jobs[j].name;
        out.push(if weeks == 0 {
            Line::new("year-serving", fill("year.serving-met", &[("job", name)]), false)
        } else {
            let worst = s.weeks.iter().map(|w| w.served[j]).fold(1.0, f64::min);
            let words = fill(
                "year.serving-missed",
                &[("job", name), ("weeks", &weeks.to_string()), ("share", &percent(worst))],
            );
            Line::new("year-serving", words, true)
        });
    }
    for &j in &a.cannot_run {
        let name = &a.plan.jobs[j].name;
        out.push(Line::new("year-cannot-run", fill("year.cannot-run", &[("job", name)]), true));
    }
    out
}

fn jobs(a: &YearAnswer) -> Table {
    let s = &a.schedule;
    let day = |d: Option<f64>| d.map_or_else(|| "—".to_string(), |d| date(a, d));
    let rows = a
        .plan
        .jobs
        .iter()
        .enumerate()
        .map(|(j, job)| {
            let f = &s.fates[j];
            let kind = t(&format!(
                "option.year.jobs.kind.{}",
                crate::scenario::fields::YEAR_JOBS_KIND.code(job.kind)
            ));
            let serving = matches!(a.year.jobs[j].work, Work::Serve { .. });
            let range = match (f.finish_low, f.finish_high) {
                (Some(lo), hi) if !serving => format!("{} – {}", date(a, lo), day(hi)),
                _ => "—".into(),
            };
            let fix = match f.to_meet {
                Some((kind, chips)) => fill(
                    "year.to-meet",
                    &[("chips", &crate::numbers::format(chips as f64)), ("chip", &a.kinds[kind].1)],
                ),
                None => String::new(),
            };
            let met = if f.met { t("year.met") } else { t("year.missed") };
            let mut row = Row::of(
                &format!("year-job-{j}"),
                vec![
                    job.name.clone(),
                    kind.to_string(),
                    day(f.start),
                    if serving { "—".into() } else { day(f.finish) },
                    range,
                    day(job.deadline),
                    format!("{met} {fix}").trim().to_string(),
                ],
            );
            if !f.met {
                row.class = "miss".into();
            }
            row
        })
        .collect();
    let head = [
        "year.head.job",
        "year.head.kind",
        "year.head.start",
        "year.head.finish",
        "year.head.range",
        "year.head.deadline",
        "year.head.met",
    ];
    let head: Vec<&str> = head.iter().map(|k| t(k)).collect();
    Table::new("year-jobs", &head, rows)
}

fn buy(a: &YearAnswer) -> Line {
    match (&a.buy, a.schedule.all_met) {
        (_, true) => Line::new("year-buy", t("year.buy-none"), false),
        (Some(p), false) => {
            let words = fill(
                "year.buy-this",
                &[
                    ("chips", &crate::numbers::format(p.chips as f64)),
                    ("chip", &a.kinds[p.kind].1),
                    ("date", &date(a, p.week as f64 * DAYS_PER_WEEK)),
                    ("week", &(p.week + 1).to_string()),
                ],
            );
            Line::new("year-buy", words, false)
        }
        (None, false) => Line::new("year-buy", t("year.buy-nothing-does"), true),
    }
}

fn cost(a: &YearAnswer, money: Money) -> Vec<Line> {
    let sp = &a.schedule.spend;
    let per_m = a.schedule.usd_per_million_tokens();
    let per_m = if per_m.is_finite() { money.show(per_m) } else { "—".to_string() };
    vec![
        Line::new(
            "year-cost",
            fill(
                "year.cost",
                &[
                    ("total", &money.show(sp.total_usd())),
                    ("capex", &money.show(sp.capex_usd)),
                    ("energy", &money.show(sp.energy_usd)),
                    ("mwh", &crate::format::mwh(sp.energy_mwh)),
                    ("rent", &money.show(sp.rent_usd)),
                ],
            ),
            false,
        ),
        Line::new(
            "year-unit-cost",
            fill(
                "year.unit-cost",
                &[("per_m", &per_m), ("peak", &crate::format::power(a.schedule.peak_w()))],
            ),
            false,
        ),
    ]
}

fn fleet(a: &YearAnswer) -> FleetWeeks {
    let s = &a.schedule;
    let installed = s.weeks.iter().map(|w| w.installed.iter().sum::<u32>() as f64).collect();
    let jobs = a
        .plan
        .jobs
        .iter()
        .enumerate()
        .map(|(j, job)| (job.name.clone(), s.weeks.iter().map(|w| w.average(j)).collect()))
        .collect();
    let deliveries = a
        .year
        .deliveries
        .iter()
        .filter(|d| d.week > 0)
        .map(|d| {
            let chip = &a.kinds[d.kind].1;
            let words = fill(
                "year.arrives",
                &[
                    ("chips", &crate::numbers::format(d.chips as f64)),
                    ("chip", chip),
                    ("week", &(d.week + 1).to_string()),
                ],
            );
            (d.week, words)
        })
        .collect();
    let caps = a
        .year
        .caps
        .iter()
        .map(|c| {
            let words = fill(
                "year.cap",
                &[("power", &crate::format::power(c.w)), ("week", &(c.week + 1).to_string())],
            );
            (c.week, words)
        })
        .collect();
    FleetWeeks { installed, jobs, deliveries, caps }
}

fn bars(a: &YearAnswer) -> Vec<Bar> {
    let s = &a.schedule;
    a.plan
        .jobs
        .iter()
        .enumerate()
        .map(|(j, job)| {
            let f = &s.fates[j];
            let serving = matches!(a.year.jobs[j].work, Work::Serve { .. });
            // A serving job's bar runs over its window.
            let (finish, low, high) = if serving {
                (Some(job.deadline.unwrap_or(a.year.weeks as f64 * DAYS_PER_WEEK)), None, None)
            } else {
                (f.finish, f.finish_low, f.finish_high)
            };
            Bar {
                name: job.name.clone(),
                start: f.start,
                finish,
                low,
                high,
                deadline: if serving { None } else { job.deadline },
                met: f.met,
            }
        })
        .collect()
}

/// The weeks as CSV: the date, chips installed, each job's average chips, idle and dark chips,
/// and the sites' draw.
fn csv(a: &YearAnswer) -> String {
    let s = &a.schedule;
    let names: Vec<String> = a
        .plan
        .jobs
        .iter()
        .map(|j| format!("{}_chips", j.name.replace([',', '"', '\n'], " ")))
        .collect();
    let mut out =
        format!("week,date,installed_chips,{},idle_chips,dark_chips,power_mw\n", names.join(","));
    for (w, week) in s.weeks.iter().enumerate() {
        let held: Vec<String> =
            (0..a.plan.jobs.len()).map(|j| format!("{:.1}", week.average(j))).collect();
        out.push_str(&format!(
            "{},{},{},{},{},{},{:.3}\n",
            w + 1,
            date(a, w as f64 * DAYS_PER_WEEK),
            week.installed.iter().sum::<u32>(),
            held.join(","),
            week.idle,
            week.dark,
            week.most_w_all() / 1e6
        ));
    }
    out
}
