//! A plan search in the page, worded in the worker from the typed outcome: the counts, how
//! the typed plan fares, the ranked plans each with why it wins or loses and the scenario its
//! Apply button opens, the best plan inside a scale-up domain, and the Pareto front.

use crate::app::{Apply, Line, List, Table, View};
use crate::format;
use crate::model::search::{Against, Objective, Oddity, Outcome, Plan, Verdict};
use crate::model::{Estimate, Parallelism, Recompute};
use crate::numbers;
use crate::scenario::{Scenario, Searchable};
use crate::text::{fill, t};
use crate::validation;

/// A count as the page shows it.
fn n(x: impl Into<f64>) -> String {
    numbers::format(x.into())
}

/// A figure that JSON would carry: finite, else none.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A plan's degrees and schedule in a few words.
pub(super) fn plan_words(p: &Parallelism, dp: Option<u32>) -> String {
    let mut words = vec![format!("TP {}", n(p.tensor)), format!("PP {}", n(p.pipeline))];
    if let Some(dp) = dp {
        words.push(format!("DP {}", n(dp)));
    }
    for (degree, label) in [(p.context, "CP"), (p.expert, "EP"), (p.virtual_stages, "v")] {
        if degree > 1 {
            words.push(format!("{label} {}", n(degree)));
        }
    }
    // Given only where the experts are split unlike the attention.
    if p.expert_tensor != p.tensor {
        words.push(format!("ETP {}", n(p.expert_tensor)));
    }
    words.push(fill("plan.mb", &[("n", &n(p.micro_batch))]));
    words.push(format!("ZeRO-{}", p.sharding.stage()));
    match p.recompute {
        Recompute::None => {}
        Recompute::Selective => words.push(t("plan.recompute.selective").into()),
        Recompute::Full => words.push(t("plan.recompute.full").into()),
    }
    if p.recompute_elementwise {
        words.push(t("plan.light-recompute").into());
    }
    if p.recompute_mlp_up && p.recompute != Recompute::Full {
        words.push(t("plan.mlp-up-recompute").into());
    }
    if p.sequence_parallel {
        words.push("SP".into());
    }
    words.join(" · ")
}

/// Why the best plan wins: its step's largest parts, as shares of the step (ties by id).
fn wins(e: &Estimate) -> String {
    let step = e.step_s;
    if !(step > 0.0) {
        return String::new();
    }
    let mut parts: Vec<(&str, f64)> = e
        .breakdown
        .parts()
        .into_iter()
        .filter(|(_, s)| finite(*s).is_some_and(|s| s > 0.0))
        .collect();
    parts.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let shares: Vec<String> = parts
        .iter()
        .take(3)
        .map(|(id, s)| format!("{} {}", crate::text::part(id), format::percent(s / step)))
        .collect();
    fill("search.wins", &[("shares", &shares.join(t("text.list")))])
}

/// One ranked or offered plan with what the view says of it.
struct Row<'a> {
    plan: &'a Plan,
    /// Its full estimate as applied to the scenario.
    estimate: Option<Estimate>,
    /// It is the typed plan.
    yours: bool,
}

/// The search as the rows see it.
struct Ctx<'a> {
    searchable: &'a Searchable,
    outcome: &'a Outcome,
    /// The typed plan, when it runs, fits and finishes.
    yours: Option<Plan>,
}

impl<'a> Ctx<'a> {
    fn row(&self, plan: &'a Plan) -> Row<'a> {
        let chips = plan.chips_used.saturating_add(plan.idle_chips);
        let estimate =
            self.searchable.scenario.with_found(plan, chips).estimated().ok().map(|(_, e)| e);
        let yours = self.yours.is_some_and(|y| y.parallelism == plan.parallelism);
        Row { plan, estimate, yours }
    }

    /// The scenario a row's Apply opens: the plan applied as found on the whole cluster.
    fn applied(&self, plan: &Plan) -> Scenario {
        let chips = self.searchable.inputs.cluster.n_chips;
        self.searchable.scenario.with_found(plan, chips)
    }

    /// What applying `plan` changes against the best plan keeping TP inside a domain, when
    /// its TP crosses domains.
    fn against_inside(&self, plan: &Plan) -> Option<Against> {
        let inside = self.outcome.best_inside.filter(|_| plan.tp_crosses_domain())?;
        Some(plan.against(&inside))
    }

    /// Why a runner-up loses: the part of its step that grew most against the best; or that
    /// the model cannot tell it from the best.
    fn loses(&self, plan: &Plan) -> String {
        let Some(best) = self.outcome.ranked.first() else { return t("search.as-good").into() };
        let gap = plan.gap(best, self.outcome.objective);
        let (seconds, behind) =
            (finite(gap.seconds).unwrap_or(0.0), finite(gap.behind).unwrap_or(0.0));
        if behind < -1e-9 {
            // Faster than the first row, which leads as the more conventional plan.
            return fill("search.ahead", &[("ahead", &format::percent(-behind))]);
        }
        if behind <= 1e-9 {
            return t("search.as-good").into();
        }
        let pct = format::percent(behind);
        if self.outcome.equivalent(plan) {
            return fill("search.equivalent", &[("behind", &pct)]);
        }
        if seconds <= 0.0 {
            // Ranked by cost, energy or failures, a plan can lose with the shorter step.
            return fill("search.behind", &[("behind", &pct)]);
        }
        let part = crate::text::part(gap.part);
        let values =
            [("behind", pct.as_str()), ("part", part), ("seconds", &format::seconds(seconds))];
        fill("search.behind-on", &values)
    }

    /// The money of the site searched.
    fn money(&self) -> format::Money {
        format::Money::of(&self.searchable.inputs.plant.facility)
    }

    /// What else a row should say: that its tensor parallelism leaves the scale-up domain (and
    /// by how much the model prefers it to the best plan that does not), where its ranks sit,
    /// and the chips it leaves idle.
    fn caveats(&self, plan: &Plan) -> Vec<String> {
        let mut out = Vec::new();
        if plan.tp_domains > 1 {
            let faster = -self.against_inside(plan).and_then(|a| finite(a.days)).unwrap_or(0.0);
            out.push(fill(
                if faster > 0.0 { "search.tp-crosses-faster" } else { "search.tp-crosses" },
                &[
                    ("tp", &n(plan.parallelism.tensor)),
                    ("domains", &plan.tp_domains.to_string()),
                    ("faster", &format::percent(faster)),
                ],
            ));
        }
        let p = &plan.parallelism;
        let layers = n(self.searchable.inputs.transformer.n_layers);
        let odd: Vec<String> = plan
            .oddities
            .iter()
            .filter_map(|o| match o {
                // Said above, with its speed against the best plan keeping TP inside.
                Oddity::TensorCrossesDomain => None,
                Oddity::UnevenPipeline => Some(fill(
                    "search.uneven-pipeline",
                    &[("pp", &n(p.pipeline)), ("layers", &layers)],
                )),
                Oddity::UnevenInterleaving => Some(fill(
                    "search.uneven-interleaving",
                    &[("pp", &n(p.pipeline)), ("v", &n(p.virtual_stages)), ("layers", &layers)],
                )),
                Oddity::OddTensor => Some(fill("search.odd-tensor", &[("tp", &n(p.tensor))])),
            })
            .collect();
        if !odd.is_empty() {
            out.push(fill("search.unusual", &[("what", &odd.join(t("text.list")))]));
        }
        if plan.domain_chips != 0 {
            out.push(fill("search.placed", &[("n", &n(plan.domain_chips))]));
        }
        if plan.idle_chips > 0 {
            let usd = finite(plan.idle_usd).unwrap_or(0.0);
            out.push(fill(
                "search.idle",
                &[("n", &n(plan.idle_chips)), ("usd", &self.money().show(usd))],
            ));
        }
        out
    }

    /// A found plan in a few words, with its batch where the search raised it.
    fn words(&self, plan: &Plan) -> String {
        let mut words = plan_words(&plan.parallelism, Some(plan.parallelism.data));
        if plan.global_batch != self.searchable.inputs.training.global_batch {
            words.push_str(" · ");
            words.push_str(&fill("plan.batch", &[("n", &n(plan.global_batch))]));
        }
        words
    }

    /// What applying a row does to the typed plan's figures, in words: "12.0 % slower, 3.0 GiB
    /// less memory"; "yours" on the typed plan's own row.
    fn against_yours(&self, row: &Row) -> String {
        if row.yours {
            return t("search.is-yours").into();
        }
        let Some(yours) = self.yours else { return String::new() };
        let a = row.plan.against(&yours);
        let Some(days) = finite(a.days) else { return String::new() };
        let mut parts = Vec::new();
        let change = |x: f64, more: &str, less: &str| {
            let key = if x > 0.0 { more } else { less };
            fill(key, &[("n", &format::percent(x.abs()))])
        };
        if days.abs() >= 0.0005 {
            parts.push(change(days, "search.slower", "search.faster"));
        }
        let figure = match self.outcome.objective {
            Objective::Cost => Some((a.run_usd, "search.dearer", "search.cheaper")),
            Objective::Energy => Some((a.energy, "search.more-energy", "search.less-energy")),
            Objective::EffectiveDays => {
                Some((a.effective_days, "search.slower-failures", "search.faster-failures"))
            }
            Objective::TrainDays => None,
        };
        if let Some((x, more, less)) =
            figure.filter(|f| finite(f.0).is_some_and(|x| x.abs() >= 0.0005))
        {
            parts.push(change(x, more, less));
        }
        let bytes = finite(a.memory_bytes).unwrap_or(0.0);
        if bytes.abs() >= 0.05 * crate::model::presets::units::GIB {
            let key = if bytes > 0.0 { "search.more-memory" } else { "search.less-memory" };
            parts.push(fill(key, &[("n", &format::gib(bytes.abs()))]));
        }
        if parts.is_empty() {
            return t("search.same-as-yours").into();
        }
        parts.join(t("text.list"))
    }

    /// One plan as a row of the table: its rank (or `first` in its place), plan, days, MFU,
    /// memory, what applying it does to the typed plan, and why it wins or loses.
    fn plan_row(&self, row: &Row, first: String, why: String, apply: Apply) -> crate::app::Row {
        let mut why = vec![why];
        why.extend(self.caveats(row.plan));
        let e = row.estimate.as_ref();
        let figure = |f: fn(&Estimate) -> f64| e.map(f).and_then(finite);
        crate::app::Row {
            testid: "search-row".into(),
            cells: vec![
                first,
                self.words(row.plan),
                figure(|e| e.train_days).map(|d| format!("{d:.1}")).unwrap_or_default(),
                figure(|e| e.mfu).map(format::percent).unwrap_or_default(),
                figure(|e| e.memory.peak_bytes).map(format::gib).unwrap_or_default(),
                self.against_yours(row),
                why.into_iter().filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" · "),
            ],
            apply: Some(apply),
            ..crate::app::Row::default()
        }
    }

    /// Where the typed plan ranks, in words; or why it is not ranked.
    /// When the best plan beats the typed one (a published plan, on the seeds) by more than the
    /// model's error for plans of its kind (its range's upper end), a word of caution: how far
    /// published runs of that kind fall from the model, and what the model is known to miss
    /// there (`validation::gaps`).
    fn beyond_error(&self) -> Option<String> {
        let placed = &self.outcome.yours;
        if !matches!(placed.verdict, Verdict::Fits(_)) || placed.rank <= 1 {
            return None;
        }
        let s = self.searchable;
        let basis = validation::range::basis_of(&s.scenario, &s.inputs, None);
        let error = validation::range::held_to(&basis, crate::model::Confidence::P90) - 1.0;
        if placed.behind <= error {
            return None;
        }
        let r = &basis.regime;
        let kind = fill(
            if r.moe { "search.kind-moe" } else { "search.kind-dense" },
            &[("family", &r.family)],
        );
        let mut note = fill(
            "search.beyond-error",
            &[
                ("behind", &format::percent(finite(placed.behind).unwrap_or(0.0))),
                ("kind", &kind),
                ("error", &format::percent(finite(error).unwrap_or(0.0))),
            ],
        );
        if let Some(gap) = validation::gaps::of(&r.family, r.stack, r.moe) {
            note.push(' ');
            note.push_str(&fill("search.known-gap", &[("gap", t(&gap.key()))]));
        }
        Some(note)
    }

    /// Where the typed plan is its model's published plan and the search finds a faster one:
    /// how the model reads that published run, and how far its error on runs like it spreads,
    /// so a plan found faster by less is not taken for one the run's authors missed.
    fn published_note(&self) -> Option<String> {
        let placed = &self.outcome.yours;
        if !matches!(placed.verdict, Verdict::Fits(_)) || placed.rank <= 1 {
            return None;
        }
        let s = self.searchable;
        let model = s.scenario.raw(crate::scenario::paths::MODEL_PRESET)?;
        let model = model.as_str()?;
        let (title, published) = validation::published_plan(model)?;
        if published != s.scenario {
            return None;
        }
        let (error, _) = validation::published_reading(model)?;
        let basis = validation::range::basis_of(&s.scenario, &s.inputs, None);
        let spread = validation::range::held_to(&basis, crate::model::Confidence::P90) - 1.0;
        let behind = finite(placed.behind).unwrap_or(0.0);
        let key =
            if behind <= spread { "search.published-within" } else { "search.published-beyond" };
        Some(fill(
            key,
            &[
                ("title", &title),
                ("read", &format::percent(error.abs())),
                ("way", t(if error >= 0.0 { "search.read-slow" } else { "search.read-fast" })),
                ("behind", &format::percent(behind)),
                ("error", &format::percent(finite(spread).unwrap_or(0.0))),
            ],
        ))
    }

    fn yours_line(&self) -> String {
        let placed = &self.outcome.yours;
        let why = crate::report::typed_plan_why(self.searchable, &placed.verdict);
        let why = why.join(t("text.list"));
        match (&placed.verdict, placed.rank) {
            (Verdict::Fits(_), 1) => t("search.yours-best").into(),
            (Verdict::Fits(_), rank) if rank > 0 => {
                let behind = format::percent(finite(placed.behind).unwrap_or(0.0));
                let band = format::percent(finite(self.outcome.equivalent_within).unwrap_or(0.0));
                let key = match self.outcome.objective {
                    _ if placed.within_error => "search.yours-within-error",
                    Objective::Cost => "search.yours-dearer",
                    Objective::Energy => "search.yours-more-energy",
                    _ => "search.yours-slower",
                };
                let rank = if placed.beyond {
                    fill("search.rank-beyond", &[("nth", &ordinal(rank - 1))])
                } else {
                    ordinal(rank)
                };
                let values = [
                    ("rank", rank.as_str()),
                    ("of", &n(self.outcome.evaluated as f64)),
                    ("behind", &behind),
                    ("band", &band),
                ];
                fill(key, &values)
            }
            (Verdict::DoesNotFit { .. }, _) => fill("search.yours-does-not-fit", &[("why", &why)]),
            (Verdict::NeverFinishes { .. }, _) => {
                fill("search.yours-never-finishes", &[("why", &why)])
            }
            _ => fill("search.yours-cannot-run", &[("why", &why)]),
        }
    }
}

/// A rank as the language says it: 53rd, 第 53.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "ordinal.th",
        (1, _) => "ordinal.st",
        (2, _) => "ordinal.nd",
        (3, _) => "ordinal.rd",
        _ => "ordinal.th",
    };
    fill(suffix, &[("n", &numbers::format(n as f64))])
}

/// A search's result as the page shows it.
pub fn view(searchable: &Searchable, outcome: &Outcome, done: bool) -> View {
    let yours = match outcome.yours.verdict {
        Verdict::Fits(plan) => Some(plan),
        _ => None,
    };
    let cx = Ctx { searchable, outcome, yours };
    let money = cx.money();
    let count = |x: u64| n(x as f64);
    let counts = [
        ("searched", count(outcome.searched)),
        ("invalid", count(outcome.invalid)),
        ("unfit", count(outcome.does_not_fit)),
        ("timed", count(outcome.evaluated)),
    ];
    let counts: Vec<(&str, &str)> = counts.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let key = if done { "search.counts" } else { "search.counts-so-far" };
    let mut lines = vec![Line::new("search-counts", fill(key, &counts), false)];
    if outcome.never_finish > 0 {
        let never = fill("search.counts-never", &[("n", &count(outcome.never_finish))]);
        lines.push(Line::new("search-never", never, false));
    }
    if outcome.budget_spent {
        let budget = count(crate::model::search::PLAN_BUDGET);
        lines.push(Line::new(
            "search-budget",
            fill("search.budget-spent", &[("n", &budget)]),
            false,
        ));
    }
    if done {
        lines.push(Line::new("search-yours", cx.yours_line(), false));
        if let Some(note) = cx.beyond_error() {
            lines.push(Line::new("search-beyond-error", note, false));
        }
        if let Some(note) = cx.published_note() {
            lines.push(Line::new("search-published", note, false));
        }
    }
    if let Some(why) = outcome.none_because {
        lines.push(Line::new("search-why", why.to_string(), true));
    }
    let mut rows: Vec<crate::app::Row> = outcome
        .ranked
        .iter()
        .enumerate()
        .map(|(i, plan)| {
            let rank = i + 1;
            let row = cx.row(plan);
            let why = if rank == 1 {
                let mut why = row.estimate.as_ref().map(wins).unwrap_or_default();
                if let Some(fastest) = &outcome.fastest {
                    let behind = plan.gap(fastest, outcome.objective).behind;
                    let behind = format::percent(finite(behind).unwrap_or(0.0));
                    why.push_str(" · ");
                    why.push_str(&fill("search.conventional-first", &[("behind", &behind)]));
                }
                why
            } else {
                cx.loses(plan)
            };
            let label = fill("search.apply-label", &[("rank", &rank.to_string())]);
            let apply = Apply::new("search-apply", label, cx.applied(plan));
            cx.plan_row(&row, rank.to_string(), why, apply)
        })
        .collect();
    // The best plan keeping tensor parallelism inside a scale-up domain, when the best does not.
    let best = outcome.ranked.first();
    let crossing = best.is_some_and(Plan::tp_crosses_domain);
    if let Some(inside) = outcome.best_inside.as_ref().filter(|_| done && crossing) {
        let label = t("search.inside-apply").to_string();
        let apply = Apply::new("search-apply-inside", label, cx.applied(inside));
        let first = t("search.inside-rank").into();
        let mut row = cx.plan_row(&cx.row(inside), first, cx.loses(inside), apply);
        row.testid = "search-inside".into();
        rows.push(row);
        let faster =
            -best.and_then(|b| cx.against_inside(b)).and_then(|a| finite(a.days)).unwrap_or(0.0);
        let note = fill("search.inside-note", &[("faster", &format::percent(faster.max(0.0)))]);
        lines.push(Line::new("search-inside-note", note, false));
    }
    let pareto: Vec<String> = outcome
        .pareto
        .iter()
        .map(|p| {
            fill(
                "search.front-item",
                &[
                    ("days", &format!("{:.1}", finite(p.effective_train_days).unwrap_or(0.0))),
                    ("usd", &money.show(finite(p.run_usd).unwrap_or(0.0))),
                    ("plan", &plan_words(&p.parallelism, None)),
                ],
            )
        })
        .collect();
    let head = [
        "#",
        t("search.head.plan"),
        t("search.head.days"),
        "MFU",
        t("search.head.memory"),
        t("search.head.against"),
        t("search.head.why"),
    ];
    let list = (done && pareto.len() > 1).then(|| List {
        testid: "search-pareto".into(),
        summary: t("search.front").into(),
        items: pareto,
    });
    View { lines, table: Some(Table::new("search-results", &head, rows)), list, ..View::default() }
}
