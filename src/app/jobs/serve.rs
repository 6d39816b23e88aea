//! Serving and post-training worded for the page (`app::Serve`, `app::Rl`): each card's
//! value, its range from the held-out serving sources (`validation::serving::Reach`) and
//! the line under it, the problems in words, and the serving frontier drawn.

use crate::app::{Apply, Card, Line, Plots, Row, Table};
use crate::charts;
use crate::evaluation::Evaluation;
use crate::evaluation::Served;
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
    Card { value, low: show(lo), high: show(hi), detail }
}

/// A card without a range.
fn plain(value: String, detail: String) -> Card {
    Card { value, detail, ..Card::default() }
}

/// Serving and post-training of `good` (`served`, judged from `scenario`) worded into `plots`,
/// the frontier `width` pixels wide among its drawings and the cheapest deployments
/// (`deployments`); nothing where it asks neither.
pub(super) fn words(
    plots: &mut Plots,
    scenario: &Scenario,
    good: &Evaluation,
    served: &Served,
    theme: &charts::Theme,
    width: u32,
) {
    if let Some(s) = &served.serving {
        deployments(plots, scenario, good);
        plots.serving_cards = Card::flat(&serving(good, s, &served.reach));
        plots.serving_problems = s.problems.iter().map(crate::text::serving_problem).collect();
        plots.serving_notes = s.notes.iter().map(crate::text::serving_note).collect();
        plots.serving_feasible = s.feasible;
        plots.serving_missed = s
            .problems
            .iter()
            .filter_map(|p| {
                missed_card(p).map(|id| (id.to_string(), crate::text::serving_problem(p)))
            })
            .collect();
        let target = good.inputs.serving.map_or(s.tpot_s, |asked| asked.tpot_s);
        let kind = charts::Kind::Frontier;
        let chosen = (s.tpot_s, s.decode_tokens_per_s_per_chip);
        let size = (width, kind.height());
        let svg = charts::draw_frontier(&s.frontier, chosen, target, theme, size);
        plots.plots.insert(kind.id().to_string(), svg);
    }
    if let Some(r) = &served.rl {
        plots.rl_cards = Card::flat(&rl_cards(r));
        plots.rl_problems = r.problems.iter().map(crate::text::rl_problem).collect();
    }
    if served.serving.is_some() || served.rl.is_some() {
        plots.serving_csv = crate::report::serving_csv(served.serving.as_ref(), served.rl.as_ref());
    }
}

/// The card whose target `p` says is missed, if it says so.
fn missed_card(p: &crate::model::serving::Problem) -> Option<&'static str> {
    use crate::model::serving::Problem;
    match p {
        Problem::TtftUnreachable { .. } | Problem::TtftAtLoad { .. } => Some("serving-ttft"),
        Problem::TpotUnreachable { .. } => Some("serving-tpot"),
        _ => None,
    }
}

fn ms(s: f64) -> String {
    fill("unit.ms", &[("n", &format::sig3(s * 1e3))])
}

/// The *Serve* cards of `s`, serving `good`'s model.
fn serving(good: &Evaluation, s: &ServingEstimate, reach: &Reach) -> [Card; 6] {
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
    [throughput, ttft, tpot, cost, energy, chips]
}

/// The *RL* cards of `r`.
fn rl_cards(r: &RlEstimate) -> Vec<Card> {
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
    vec![step, share]
}

/// Deployments the table offers, cheapest first.
const DEPLOYMENTS: usize = 5;

/// The largest instance the deployment search tries, chips.
const LARGEST_INSTANCE: u32 = 4096;

/// The cheapest deployments of `good`'s serving that meet every target
/// (`model::serving::search`) as the table `serving-deployments`, each with its cost, energy
/// and latency and an Apply that sets its degrees, and the sentence over it.
fn deployments(plots: &mut Plots, scenario: &Scenario, good: &Evaluation) {
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
    plots.tables.push(Table { testid: "serving-deployments".into(), head, rows });
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
    plots.said.push(Line::new("serving-deployments-said", said, found.is_empty()));
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
