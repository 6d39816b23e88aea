//! Serving and post-training worded for the page: each card's value, its range from the
//! held-out serving sources (`validation::serving::Reach`) and the line under it, the
//! problems in words, the serving frontier drawn, the cheapest deployments, and both as CSV.

use serde::Serialize;

use crate::app::{Apply, Card, Line, Row, Table};
use crate::charts;
use crate::evaluation::Evaluation;
use crate::format;
use crate::model::rl::RlEstimate;
use crate::model::serving::ServingEstimate;
use crate::numbers;
use crate::scenario::{fields, Scenario};
use crate::text::{fill, t};
use crate::validation::serving::Reach;

/// A card of `value` with the range of a headline of `x` at `reach`
/// (`validation::serving::Reach::headline`), each end as `show` writes it.
fn ranged(
    reach: &Reach,
    value: String,
    x: f64,
    faster: bool,
    show: impl Fn(f64) -> String,
    detail: String,
) -> Card {
    let (lo, hi) = reach.headline(x, faster);
    Card { value, low: show(lo), high: show(hi), detail, missed: None }
}

/// A card without a range.
fn plain(value: String, detail: String) -> Card {
    Card { value, detail, ..Card::default() }
}

/// The *Serve* cards, in the page's order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ServingCards {
    pub throughput: Card,
    pub ttft: Card,
    pub tpot: Card,
    pub cost: Card,
    pub energy: Card,
    pub chips: Card,
}

/// The cheapest deployments that meet every target: the sentence over them and their table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Deployments {
    pub said: Line,
    pub table: Table,
}

/// Serving the plan's model on its cluster: the cards, the problems and what it assumes in
/// words, whether it is feasible, the frontier (an SVG document), the decode step's parts and
/// the deployments.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Serving {
    pub cards: ServingCards,
    pub problems: Vec<String>,
    pub notes: Vec<String>,
    pub feasible: bool,
    pub frontier: String,
    pub step: Table,
    pub deployments: Deployments,
}

/// The *RL* cards.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RlCards {
    pub step: Card,
    pub generation_share: Card,
}

/// Post-training the plan's model: the cards and the problems in words.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rl {
    pub cards: RlCards,
    pub problems: Vec<String>,
}

/// What the plan serves and post-trains, where it asks, and both as CSV.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Served {
    pub serving: Option<Serving>,
    pub rl: Option<Rl>,
    pub csv: String,
}

impl Served {
    /// Serving and post-training of `good` (`served`, judged from `scenario`), the frontier
    /// `width` pixels wide; `None` where the plan asks neither.
    pub fn of(
        scenario: &Scenario,
        good: &Evaluation,
        served: &crate::evaluation::Served,
        theme: &charts::Theme,
        width: u32,
    ) -> Option<Served> {
        if served.serving.is_none() && served.rl.is_none() {
            return None;
        }
        let serving = served.serving.as_ref().map(|s| {
            let mut cards = serving(good, s, &served.reach);
            for p in &s.problems {
                let card = match missed_card(p) {
                    Some(Target::Ttft) => &mut cards.ttft,
                    Some(Target::Tpot) => &mut cards.tpot,
                    None => continue,
                };
                card.missed.get_or_insert_with(|| crate::text::serving_problem(p));
            }
            let target = good.inputs.serving.map_or(s.tpot_s, |asked| asked.tpot_s);
            let chosen = (s.tpot_s, s.decode_tokens_per_s_per_chip);
            let size = (width, charts::Kind::Frontier.height());
            Serving {
                cards,
                problems: s.problems.iter().map(crate::text::serving_problem).collect(),
                notes: s.notes.iter().map(crate::text::serving_note).collect(),
                feasible: s.feasible,
                frontier: charts::draw_frontier(&s.frontier, chosen, target, theme, size),
                step: step(s),
                deployments: deployments(scenario, good),
            }
        });
        let rl = served.rl.as_ref().map(|r| Rl {
            cards: rl_cards(r),
            problems: r.problems.iter().map(crate::text::rl_problem).collect(),
        });
        let csv = crate::report::serving_csv(served.serving.as_ref(), served.rl.as_ref());
        Some(Served { serving, rl, csv })
    }
}

/// A target a serving card stands for.
enum Target {
    Ttft,
    Tpot,
}

/// The target `p` says is missed, if it says so.
fn missed_card(p: &crate::model::serving::Problem) -> Option<Target> {
    use crate::model::serving::Problem;
    match p {
        Problem::TtftUnreachable { .. } | Problem::TtftAtLoad { .. } => Some(Target::Ttft),
        Problem::TpotUnreachable { .. } => Some(Target::Tpot),
        _ => None,
    }
}

fn ms(s: f64) -> String {
    fill("unit.ms", &[("n", &format::sig3(s * 1e3))])
}

/// The *Serve* cards of `s`, serving `good`'s model.
fn serving(good: &Evaluation, s: &ServingEstimate, reach: &Reach) -> ServingCards {
    let money = format::Money::of(&good.inputs.plant.facility);
    let per_chip = |x: f64| fill("card.serving-throughput.value", &[("n", &format::count(x))]);
    let price = |x: f64| fill("card.serving-cost-per-mtok.value", &[("usd", &money.show(x))]);
    let count = |x: f64| numbers::format(x);
    let throughput = ranged(
        reach,
        per_chip(s.decode_tokens_per_s_per_chip),
        s.decode_tokens_per_s_per_chip,
        true,
        per_chip,
        fill(
            "card.serving-throughput.detail",
            &[
                ("total", &format::count(s.decode_tokens_per_s)),
                ("chips", &count(s.chips_needed as f64)),
                ("prefill", &format::count(s.prefill_tokens_per_s_per_chip)),
            ],
        ),
    );
    let ttft = ranged(
        reach,
        format::seconds(s.ttft_s),
        s.ttft_s,
        false,
        format::seconds,
        fill(
            "card.serving-ttft.detail",
            &[
                ("p50", &format::seconds(s.ttft_p50_s)),
                ("p99", &format::seconds(s.ttft_p99_s)),
                ("busy", &format::percent(s.busy)),
                ("round", &ms(s.prefill_round_s)),
            ],
        ),
    );
    let tpot = ranged(
        reach,
        ms(s.tpot_s),
        s.tpot_s,
        false,
        ms,
        fill(
            "card.serving-tpot.detail",
            &[
                ("p99", &ms(s.tpot_p99_s)),
                ("batch", &count(s.batch as f64)),
                ("max", &count(s.max_batch as f64)),
                ("emitted", &format::sig3(s.tokens_per_step)),
            ],
        ),
    );
    let cost = ranged(
        reach,
        price(s.usd_per_million_output_tokens),
        s.usd_per_million_output_tokens,
        false,
        price,
        fill(
            "card.serving-cost-per-mtok.detail",
            &[
                ("input", &money.show(s.usd_per_million_input_tokens)),
                ("cloud", &money.show(s.cloud_usd_per_million_output_tokens)),
            ],
        ),
    );
    let per_mw = |x: f64| fill("card.serving-energy.value", &[("n", &format::count(x))]);
    let energy = ranged(
        reach,
        per_mw(s.tokens_per_s_per_mw),
        s.tokens_per_s_per_mw,
        true,
        per_mw,
        fill(
            "card.serving-energy.detail",
            &[
                ("joules", &format::sig3(s.joules_per_token)),
                ("kwh", &format::sig3(s.joules_per_token / 3.6)),
            ],
        ),
    );
    let whole = |x: f64| count(x.ceil());
    let chips = ranged(
        reach,
        count(s.chips_needed as f64),
        s.chips_needed as f64,
        false,
        whole,
        fill(
            "card.serving-chips-needed.detail",
            &[
                ("day", &money.show(s.usd_per_day)),
                ("power", &format::power(s.power_w)),
                ("left", &count(s.chips_left as f64)),
                ("rest", &money.show(s.training_usd_per_day)),
            ],
        ),
    );
    ServingCards { throughput, ttft, tpot, cost, energy, chips }
}

/// The *RL* cards of `r`.
fn rl_cards(r: &RlEstimate) -> RlCards {
    let step = plain(
        format::seconds(r.step_s),
        fill("card.rl-step-time.detail", &[("days", &format::days(r.days))]),
    );
    let share = plain(
        format::percent(r.generation_share),
        fill(
            "card.rl-generation-share.detail",
            &[
                ("generation", &format::seconds(r.generation_s)),
                ("scoring", &format::seconds(r.scoring_s)),
                ("training", &format::seconds(r.training_s)),
                ("handoff", &format::seconds(r.handoff_s)),
                ("idle", &format::percent(r.idle_share)),
            ],
        ),
    );
    RlCards { step, generation_share: share }
}

/// Deployments the table offers, cheapest first.
const DEPLOYMENTS: usize = 5;

/// The decode step at the batch run as the table `serving-step`: each part that takes any time
/// (`model::serving::DecodeStep::parts`), its time and its share, and the step they sum to.
fn step(s: &ServingEstimate) -> Table {
    let total = s.step.total();
    let share = |x: f64| if total > 0.0 { format::percent(x / total) } else { String::new() };
    let mut rows: Vec<Row> = s
        .step
        .parts()
        .iter()
        .filter(|(_, x)| *x > 0.0)
        .map(|(id, x)| {
            Row::of("serving-step-part", vec![crate::text::part(id).to_string(), ms(*x), share(*x)])
        })
        .collect();
    rows.push(Row::of(
        "serving-step-total",
        vec![
            fill("serve.step.total", &[("batch", &numbers::format(s.batch as f64))]),
            ms(total),
            share(total),
        ],
    ));
    let head = ["part", "time", "share"].map(|h| t(&format!("serve.step.{h}")).to_string());
    Table { testid: "serving-step".into(), head: head.to_vec(), rows }
}

/// The largest instance the deployment search tries, chips.
const LARGEST_INSTANCE: u32 = 4096;

/// The cheapest deployments of `good`'s serving that meet every target
/// (`model::serving::search`) as the table `serving-deployments`, each with its cost, energy
/// and latency and an Apply that sets its degrees, and the sentence over it.
fn deployments(scenario: &Scenario, good: &Evaluation) -> Deployments {
    let largest = good.inputs.cluster.n_chips.clamp(1, LARGEST_INSTANCE);
    let found = crate::model::serving::search(&good.inputs, &good.estimate, largest);
    let money = format::Money::of(&good.inputs.plant.facility);
    let head = ["deployment", "throughput", "tpot", "ttft", "cost", "energy"];
    let head = head.iter().map(|h| t(&format!("serving.deployments.{h}")).to_string()).collect();
    let apart = good.inputs.serving.is_some_and(|s| s.disaggregated);
    let moe = good.inputs.transformer.moe.is_some();
    let rows = found
        .iter()
        .take(DEPLOYMENTS)
        .map(|e| {
            let d = &e.decode;
            let named = deployment(d, moe);
            let mut applied = scenario.clone();
            for (field, prefill, value) in [
                (&fields::SERVING_TP, &fields::SERVING_PREFILL_TP, d.tp),
                (&fields::SERVING_DP, &fields::SERVING_PREFILL_DP, d.dp),
                (&fields::SERVING_EP, &fields::SERVING_PREFILL_EP, d.ep),
                (&fields::SERVING_EXPERT_TP, &fields::SERVING_PREFILL_EXPERT_TP, d.etp),
            ] {
                applied = applied.with(field, Some(value.into()));
                if apart {
                    applied = applied.with(prefill, Some(value.into()));
                }
            }
            let label = fill("serving.deployments.apply", &[("deployment", &named)]);
            Row {
                testid: "serving-deployment".into(),
                cells: vec![
                    named,
                    format::count(e.decode_tokens_per_s_per_chip),
                    ms(e.tpot_p99_s),
                    format::seconds(e.ttft_p99_s),
                    money.show(e.usd_per_million_output_tokens),
                    format::count(e.tokens_per_s_per_mw),
                ],
                apply: Some(Apply::new("serving-deployment-apply", label, applied)),
                ..Row::default()
            }
        })
        .collect();
    let table = Table { testid: "serving-deployments".into(), head, rows };
    let said = match found.first() {
        Some(best) => fill(
            "serving.deployments.best",
            &[
                ("deployment", &deployment(&best.decode, moe)),
                ("cost", &money.show(best.usd_per_million_output_tokens)),
                ("mw", &format::count(best.tokens_per_s_per_mw)),
                ("n", &found.len().to_string()),
            ],
        ),
        None => t("serving.deployments.none").to_string(),
    };
    let said = Line::new("serving-deployments-said", said, found.is_empty());
    Deployments { said, table }
}

/// A deployment's degrees in words: `TP 8 (8 chips)` for a dense model, `TP 1 · DP 8 · EP 8 ·
/// expert TP 1 (8 chips)` for a mixture of experts.
fn deployment(d: &crate::model::serving::Deployment, moe: bool) -> String {
    fill(
        if moe { "serving.deployment-moe" } else { "serving.deployment" },
        &[
            ("tp", &d.tp.to_string()),
            ("dp", &d.dp.to_string()),
            ("ep", &d.ep.to_string()),
            ("etp", &d.etp.to_string()),
            ("chips", &numbers::format(d.chips() as f64)),
        ],
    )
}
