//! A fleet as the page shows it, worded in the worker: the one job over the cluster's pools
//! with a card per pool, the best split found (with the scenario that applies it), the job over
//! sites with each site's power and cost, the convergence DiLoCo is assumed to keep, and the
//! fleet drawn (`sketch::fleet`); and the answer to "add which chip, how many, to meet the
//! deadline" (`sizing::add_to_fleet`). The page only lays these out (`ui::sections::fleet`), so none of
//! the mixed-fleet model weighs on its first load.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::app::{self, Apply, Line, View};
use crate::charts::{self, Theme};
use crate::evaluation::Evaluation;
use crate::format;
use crate::model::pools::{best_split, Across, PoolPart};
use crate::model::presets;
use crate::numbers;
use crate::scenario::{fields, Scenario, Sites};
use crate::sizing::{add_to_fleet, Addition};
use crate::sketch::{self, PoolMark, SiteMark};
use crate::text::{fill, t};

/// A card of the fleet's totals: its label, its value, and the test id the value carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Total {
    pub testid: String,
    pub label: String,
    pub value: String,
}

/// A pool's card: its title, its figures as (label, value), in the pool's colour, `bad` when
/// its part of the job does not fit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PoolCard {
    pub title: String,
    pub colour: String,
    pub figures: Vec<(String, String)>,
    pub bad: bool,
}

/// The best split of the job over the pools, in words, with the scenario that applies it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestSplit {
    pub text: String,
    pub apply: Apply,
}

/// A fleet of several pools or sites: the headline over the results, the whole fleet's totals,
/// the job's lines, a card per pool, the best split, the job over sites and the drawing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Fleet {
    pub title: String,
    pub headline: Option<String>,
    pub lines: Vec<Line>,
    pub cards: Vec<PoolCard>,
    pub totals: Vec<Total>,
    pub best: Option<BestSplit>,
    pub sites: Option<View>,
    /// The fleet drawn, an SVG document.
    pub drawing: Option<String>,
}

fn line(testid: &str, text: String, bad: bool) -> Line {
    Line::new(testid, text, bad)
}

/// Each pool's chip by name: the cluster's own first, then the further pools'.
fn pool_names(scenario: &Scenario) -> Vec<String> {
    let name = |p: Option<&presets::ChipPreset>| {
        p.map_or_else(|| t("title.custom-chip").to_string(), |p| p.name.to_string())
    };
    let mut names = vec![name(scenario.chip_preset())];
    if let Some(Value::Array(list)) = scenario.raw(crate::scenario::paths::CLUSTER_POOLS) {
        names
            .extend(list.iter().map(|item| {
                name(item.get("chip").and_then(Value::as_str).and_then(presets::chip))
            }));
    }
    names
}

/// A figure to three significant digits without trailing zeros (`10`, `2.5`).
fn short(x: f64) -> String {
    let s = format::sig3(x);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Each of `pools` pools' site by its place in `names`: the site it names, the first where it
/// names none.
fn site_places(scenario: &Scenario, names: &[String], pools: usize) -> Vec<usize> {
    let at = |raw: Option<Value>| {
        let name = raw.as_ref().and_then(Value::as_str).map(str::to_string);
        name.and_then(|n| names.iter().position(|s| *s == n)).unwrap_or(0)
    };
    (0..pools)
        .map(|place| match place {
            0 => at(scenario.raw(crate::scenario::paths::CLUSTER_SITE)),
            _ => at(scenario.get(&format!("cluster.pools.{}.site", place - 1))),
        })
        .collect()
}

/// A link's bandwidth in Gb/s, or that none would do.
fn gbit_words(gbit: f64) -> String {
    if gbit.is_finite() {
        format!("{} Gb/s", format::sig3(gbit))
    } else {
        t("fleet.need-none").to_string()
    }
}

/// A pool's share in words: of the batch, the layers or the tokens.
fn share_words(how: Across, share: f64) -> String {
    let key = match how {
        Across::Data => "fleet.share.data",
        Across::Pipeline => "fleet.share.pipeline",
        Across::Separate => "fleet.share.separate",
    };
    fill(key, &[("share", &format::percent(share))])
}

/// The fleet of `scenario` as the page shows it, from its judged result `good` (its pools and
/// sites resolved), drawn `width` pixels wide, or none when it is one pool at one site.
pub fn view(scenario: &Scenario, good: &Evaluation, theme: &Theme, width: u32) -> Option<Fleet> {
    // With sites, each pool's part is its part of its site's job.
    let sited = scenario.sites().ok().flatten();
    if good.pools.is_none() && sited.is_none() {
        return None;
    }
    let names = pool_names(scenario);
    let found = sited.as_ref();
    let places = found.map(|s| site_places(scenario, &s.names(), names.len()));
    // A pool's share is of the whole job's batch, as the site table gives its site's: its
    // share of its site's job times the site's of the job (none for a site left idle).
    let at_sites: Option<Vec<(PoolPart, String)>> =
        found.zip(places.as_ref()).map(|(s, places)| {
            let job = s.job(&good.inputs);
            places
                .iter()
                .enumerate()
                .map(|(i, &site)| {
                    let k = places[..i].iter().filter(|&&p| p == site).count();
                    let of_site = job.sites.get(site).map_or(0.0, |p| p.share);
                    let part = s
                        .sites
                        .get(site)
                        .and_then(|(_, x)| x.job.parts.get(k))
                        .map(|p| PoolPart { share: p.share * of_site, ..*p });
                    let name = s.sites.get(site).map(|(n, _)| n.clone()).unwrap_or_default();
                    (part.unwrap_or_default(), name)
                })
                .collect()
        });
    let mut lines = Vec::new();
    let mut cards = Vec::new();
    let mut best_view = None;
    let mut marks: Vec<PoolMark> = Vec::new();
    let mut link_words = String::new();
    // Failure-free days of the one job over the whole fleet, and its totals.
    let mut days = None;
    let mut totals = None;
    // The cluster's own chips, from its resolved pool.
    let mut own_chips = None;
    match &good.pools {
        Some(p) => {
            let solo: Vec<_> = p.pools.iter().map(crate::model::estimate).collect();
            let job = p.job();
            days = Some(job.train_days);
            totals = Some(crate::model::pools::totals(&p.pools, &solo, &job));
            own_chips = p.pools.first().map(|i| i.cluster.n_chips);
            if at_sites.is_none() {
                // Separate jobs share no link and are not one job.
                let key = match p.across {
                    Across::Separate => "fleet.pool-separate",
                    Across::Data | Across::Pipeline => "fleet.pool-job",
                };
                lines.push(line(
                    "pool-job",
                    fill(
                        key,
                        &[
                            ("days", &format::days(job.train_days)),
                            ("tps", &format::count(job.tokens_per_s)),
                            ("link", &format::seconds(job.link_s)),
                            ("need", &gbit_words(job.gbit_per_s_needed)),
                        ],
                    ),
                    !job.fits,
                ));
            }
            let money = format::Money::of(&good.inputs.plant.facility);
            for (place, ((part, e), name)) in job.parts.iter().zip(&solo).zip(&names).enumerate() {
                let (part, site) = match &at_sites {
                    Some(parts) => (
                        parts.get(place).map_or(*part, |p| p.0),
                        parts.get(place).map(|p| p.1.as_str()),
                    ),
                    None => (*part, None),
                };
                let (mut card, mark) = pool_card(&part, e, name, p.across, site, money);
                card.colour = charts::pool_colour(theme, place).to_string();
                cards.push(card);
                marks.push(mark);
            }
            // The search over splits splits pools in one place, so it is not offered over
            // sites, whose job it would contradict.
            if at_sites.is_none() {
                best_view = best(scenario, p);
            }
            // The link between pools joins pools at one site; pools at sites apart are
            // joined by the wide-area links instead, said with the sites.
            let shared = places
                .as_ref()
                .is_none_or(|at| at.iter().enumerate().any(|(i, site)| at[..i].contains(site)));
            if shared {
                let (said, short_words) = link(p);
                lines.push(line("pool-link", said, false));
                link_words = short_words;
            }
        }
        None => marks.push(PoolMark { name: names[0].clone(), detail: String::new(), site: 0 }),
    }
    if let Some(places) = &places {
        for (mark, place) in marks.iter_mut().zip(places) {
            mark.site = *place;
        }
    }
    let (sites_view, site_marks, site_job) = sites(sited.as_ref(), good);
    let site_days = site_job.as_ref().map(|e| e.train_days);
    let totals_view = fleet_totals(good, totals, site_job.as_ref());
    // The results' cards are the cluster's own pool alone; the headline says so beside the
    // whole fleet's days.
    let headline = site_days.or(days).map(|d| {
        // Sites without further pools: the cluster resolves as itself.
        let chips = own_chips.unwrap_or(good.inputs.cluster.n_chips);
        let n = numbers::format(chips as f64);
        let own = fill("fleet.pool-chips", &[("chip", &names[0]), ("n", &n)]);
        let said = fill("fleet.headline", &[("pool", &own), ("days", &format::days(d))]);
        // Days over sites by DiLoCo rest on its convergence: said beside them.
        match sited.as_ref().and_then(|s| diloco_assumed(s, good)) {
            Some(assumed) => format!("{said} {assumed}"),
            None => said,
        }
    });
    let drawing = (!marks.is_empty()).then(|| {
        let layout = sketch::fleet(
            &marks,
            &site_marks,
            t("fleet.one-site"),
            &link_words,
            t("fleet.wan"),
            f64::from(width),
        );
        charts::draw_fleet(&layout, theme)
    });
    Some(Fleet {
        title: t("fleet.title").into(),
        headline,
        lines,
        cards,
        totals: totals_view,
        best: best_view,
        sites: sites_view,
        drawing,
    })
}

/// The whole fleet's cards (`fleet-days`, `fleet-effective-days`, `fleet-cost`, `fleet-power`):
/// the one job's days, with failures, and what every pool and site costs and draws. Over
/// sites, the sites' job at the pools' goodput.
fn fleet_totals(
    good: &Evaluation,
    pools: Option<crate::model::pools::FleetTotals>,
    sites: Option<&crate::model::sites::SitesEstimate>,
) -> Vec<Total> {
    let e = &good.estimate;
    let mut f = pools.unwrap_or(crate::model::pools::FleetTotals {
        train_days: e.train_days,
        effective_train_days: e.effective_train_days(),
        capex_usd: e.facility.cost.capex_usd,
        power_w: e.facility.power.facility_w,
    });
    if let Some(s) = sites {
        let goodput = f.effective_train_days.map(|d| f.train_days / d);
        f.effective_train_days = goodput.filter(|g| *g > 0.0).map(|g| s.train_days / g);
        (f.train_days, f.capex_usd, f.power_w) = (s.train_days, s.capex_usd, s.power_w);
    }
    let money = format::Money::of(&good.inputs.plant.facility);
    let effective = f.effective_train_days.map_or(f64::INFINITY, |d| d);
    let total = |testid: &str, label: &str, value: String| Total {
        testid: testid.into(),
        label: t(label).into(),
        value,
    };
    let mw = fill("unit.mw", &[("n", &format::sig3(f.power_w / 1e6))]);
    vec![
        total("fleet-days", "fleet.total.days", format::days(f.train_days)),
        total("fleet-effective-days", "fleet.total.effective-days", format::days(effective)),
        total("fleet-cost", "fleet.total.cost", money.show(f.capex_usd)),
        total("fleet-power", "fleet.total.power", mw),
    ]
}

/// A pool's card (its title, figures and whether its part fits) and its mark in the drawing:
/// `part` of the job, `solo` its estimate alone (for what it draws and costs), at `site` when
/// the fleet spans sites (whose rows then carry power and price).
fn pool_card(
    part: &PoolPart,
    solo: &crate::model::Estimate,
    name: &str,
    how: Across,
    site: Option<&str>,
    money: format::Money,
) -> (PoolCard, PoolMark) {
    let title =
        fill("fleet.pool-chips", &[("chip", name), ("n", &numbers::format(part.chips as f64))]);
    let used = part.share > 0.0;
    let detail = match (used, site) {
        (false, _) => t("fleet.unused").to_string(),
        (true, Some(site)) => {
            fill("fleet.at-site", &[("share", &share_words(how, part.share)), ("site", site)])
        }
        (true, None) => share_words(how, part.share),
    };
    let mut figures = vec![(t("fleet.card.share"), detail.clone())];
    if used {
        let fits = t(if part.fits { "fit.fits" } else { "fit.does-not-fit" }).to_string();
        figures.extend([
            (t("fleet.card.busy"), format::seconds(part.busy_s)),
            (t("fleet.card.waits"), format::seconds(part.waits_s)),
            (t("fleet.card.mfu"), format::percent(part.mfu)),
            (t("fleet.card.memory"), fits),
        ]);
    }
    if used && site.is_none() {
        let f = &solo.facility;
        let mw = format::sig3(f.power.facility_w / 1e6);
        figures.push((t("fleet.card.power"), fill("unit.mw", &[("n", &mw)])));
        figures.push((t("fleet.card.capex"), money.show(f.cost.capex_usd)));
    }
    let card = PoolCard {
        title: title.clone(),
        colour: String::new(),
        figures: figures.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        bad: used && !part.fits,
    };
    (card, PoolMark { name: title, detail, site: 0 })
}

/// The best split found over the pools (`model::pools::best_split`): how much it beats the
/// fastest pool alone, how far it stays below the pools apart, and the scenario that applies
/// it; none when no split fits.
fn best(scenario: &Scenario, p: &crate::scenario::Pools) -> Option<BestSplit> {
    let best = best_split(&p.pools, p.between);
    let how = best.how?;
    let shares: Vec<f64> = best.job.parts.iter().map(|p| p.share).collect();
    let code = fields::PARALLELISM_ACROSS_POOLS.code(how);
    let listed = shares.iter().map(|s| format::percent(*s)).collect::<Vec<_>>().join(" / ");
    let text = fill(
        "fleet.pool-best",
        &[
            ("how", t(&format!("option.parallelism.across_pools.{code}"))),
            ("shares", &listed),
            ("days", &format::days(best.job.train_days)),
            ("gain", &format::percent(best.gain_over_alone())),
            ("short", &format::percent(best.short_of_apart())),
        ],
    );
    let applied = scenario
        .clone()
        .with(&fields::PARALLELISM_ACROSS_POOLS, Some(json!(code)))
        .with(&fields::PARALLELISM_POOL_SHARES, Some(json!(shares)));
    Some(BestSplit { text, apply: Apply::new("pool-best-apply", t("fleet.apply-best"), applied) })
}

/// The link between pools in words: in full (line rate and transport, with the share of the
/// line host-staged TCP reaches), and short for the drawing.
fn link(p: &crate::scenario::Pools) -> (String, String) {
    let gbit = short(p.line_bytes_per_s * 8.0 / 1e9);
    let transport = if p.rdma {
        t("fleet.transport.rdma").to_string()
    } else {
        let share = p.between.bytes_per_s / p.line_bytes_per_s.max(1.0);
        fill("fleet.transport.tcp", &[("share", &format::percent(share))])
    };
    let kind = if p.rdma { "RDMA" } else { "TCP" };
    (
        fill("fleet.link", &[("gbit", &gbit), ("transport", &transport)]),
        fill("fleet.link-short", &[("gbit", &gbit), ("transport", kind)]),
    )
}

/// The job over the scenario's sites in the page's layout (`ui::job::render`): its line, the
/// convergence assumed, and a row per site; and the sites as drawn, with each pool's mark moved
/// to its site.
fn sites(
    found: Option<&Sites>,
    good: &Evaluation,
) -> (Option<View>, Vec<SiteMark>, Option<crate::model::sites::SitesEstimate>) {
    let Some(found) = found else { return (None, Vec::new(), None) };
    let names = found.names();
    let e = found.job(&good.inputs);
    // The link needed is measured against one site of the same chips; what an unlimited link
    // still loses to it is said with it.
    let gap = format::percent(e.wan.unlimited_gap);
    let key = if e.wan.gbit_per_s_needed.is_finite() {
        "fleet.sites-job"
    } else {
        "fleet.sites-job-none"
    };
    let mut lines = vec![line(
        "sites-job",
        fill(
            key,
            &[
                ("days", &format::days(e.train_days)),
                ("exposed", &format::seconds(e.wan.exposed_s)),
                ("needed", &format::sig3(e.wan.gbit_per_s_needed)),
                ("gap", &gap),
            ],
        ),
        false,
    )];
    if let Some(assumed) = diloco_assumed(found, good) {
        lines.push(line("sites-assumption", assumed, false));
    }
    let rows: Vec<app::Row> = names
        .iter()
        .zip(&e.sites)
        .map(|(name, p)| app::Row {
            testid: "site-row".into(),
            cells: vec![
                name.clone(),
                if p.used { format::percent(p.share) } else { t("fleet.site-idle").to_string() },
                fill("unit.mw", &[("n", &format::sig3(p.power_w / 1e6))]),
                format::Money::of(&good.inputs.plant.facility).show(p.run_cost_usd),
            ],
            ..app::Row::default()
        })
        .collect();
    let head = [
        "fleet.site-head.site",
        "fleet.site-head.share",
        "fleet.site-head.power",
        "fleet.site-head.cost",
    ];
    let head = head.map(|h| t(h).to_string()).to_vec();
    let table = app::Table { testid: "sites-table".into(), head, rows };
    let view = View { lines, table: Some(table), ..View::default() };
    let marks = found
        .sites
        .iter()
        .map(|(name, site)| SiteMark {
            name: name.clone(),
            wan: fill(
                "fleet.wan-link",
                &[
                    ("gbit", &short(site.wan_bytes_per_s * 8.0 / 1e9)),
                    ("ms", &short(site.wan_latency_s * 1e3)),
                ],
            ),
        })
        .collect();
    (Some(view), marks, Some(e))
}

/// What a job over sites by DiLoCo assumes, in words, for the days it is said beside: that it
/// reaches synchronous training's loss on the token budget times the factor asked, the scale
/// at which that was shown, and the model's own size.
fn diloco_assumed(found: &Sites, good: &Evaluation) -> Option<String> {
    let crate::model::sites::AcrossSites::Diloco { .. } = found.how else { return None };
    let factor = short(found.tokens_factor());
    let params = format::count(good.inputs.transformer.params());
    Some(fill("fleet.assumes", &[("factor", &factor), ("params", &params)]))
}

/// The answer to adding `chip` to the fleet to meet `deadline_days`, in the page's layout: its
/// line, and a row whose Apply opens the fleet with the pool added.
pub fn addition(scenario: &Scenario, chip: &str, deadline_days: f64) -> View {
    let name = presets::chip(chip).map_or(chip.to_string(), |p| p.name.to_string());
    match add_to_fleet(scenario, chip, deadline_days) {
        Err(errors) => {
            let words: Vec<String> = errors.iter().map(ToString::to_string).collect();
            View::said(vec![line("fleet-add-answer", words.join("; "), true)])
        }
        Ok(None) => View::said(vec![line("fleet-add-answer", t("fleet.fleet-none").into(), true)]),
        Ok(Some(a)) if a.chips == 0 => {
            let days = format::days(a.job.job.train_days);
            let said = fill("fleet.fleet-met", &[("days", &days)]);
            View::said(vec![line("fleet-add-answer", said, false)])
        }
        Ok(Some(a)) => {
            let money = scenario
                .resolve()
                .map_or(format::Money::USD, |inputs| format::Money::of(&inputs.plant.facility));
            addition_view(&a, &name, money)
        }
    }
}

fn addition_view(a: &Addition, name: &str, money: format::Money) -> View {
    let n = numbers::format(a.chips as f64);
    let text = fill(
        "fleet.fleet-answer",
        &[
            ("n", &n),
            ("chip", name),
            ("days", &format::days(a.job.job.train_days)),
            ("mw", &format::sig3(a.power_w / 1e6)),
            ("usd", &money.show(a.capex_usd)),
        ],
    );
    let label = fill("fleet.pool-chips", &[("chip", name), ("n", &n)]);
    View {
        lines: vec![line("fleet-add-answer", text, false)],
        apply: Some(Apply::new("fleet-add-apply", label, a.scenario.clone())),
        ..View::default()
    }
}
