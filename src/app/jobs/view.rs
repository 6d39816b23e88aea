//! What a search, a sizing, the accuracy report and a comparison look like on the page, worded
//! in the worker from the typed results: lines of text and a table of text cells, each row
//! with the scenario its Apply button opens, and plots as images. The page only lays these
//! out (`ui::job::render`), so none of this wording or formatting weighs on its first load.

use serde_json::Value;

use super::SizedChip;
use crate::app::{self, Apply, Line, List, Picture, Source, Table, View};
use crate::charts::{self, Curve, DARK, LIGHT};
use crate::format;
use crate::model::search::{Against, Objective, Oddity, Outcome, Plan, Verdict};
use crate::model::{Estimate, Parallelism, Recompute};
use crate::numbers;
use crate::scenario::{Scenario, Searchable};
use crate::sizing::Answer;
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

fn line(testid: &str, text: String, bad: bool) -> Line {
    Line::new(testid, text, bad)
}

/// A row of `cells` with `testid`, applying nothing.
fn cells_row(testid: &str, cells: Vec<String>) -> app::Row {
    app::Row { testid: testid.to_string(), cells, ..app::Row::default() }
}

/// A row that says only why a chip has no answer.
fn why_row(testid: &str, chip: String, why: &str) -> app::Row {
    let mut cells = vec![chip];
    cells.extend(std::iter::repeat_n(String::new(), 5));
    cells.push(why.to_string());
    cells_row(testid, cells)
}

/// A plan's degrees and schedule in a few words.
fn plan_words(p: &Parallelism, dp: Option<u32>) -> String {
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
    fn plan_row(&self, row: &Row, first: String, why: String, apply: Apply) -> app::Row {
        let mut why = vec![why];
        why.extend(self.caveats(row.plan));
        let e = row.estimate.as_ref();
        let figure = |f: fn(&Estimate) -> f64| e.map(f).and_then(finite);
        app::Row {
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
            ..app::Row::default()
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
pub fn search(searchable: &Searchable, outcome: &Outcome, done: bool) -> View {
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
    let mut lines = vec![line("search-counts", fill(key, &counts), false)];
    if outcome.never_finish > 0 {
        let never = fill("search.counts-never", &[("n", &count(outcome.never_finish))]);
        lines.push(line("search-never", never, false));
    }
    if outcome.budget_spent {
        let budget = count(crate::model::search::PLAN_BUDGET);
        lines.push(line("search-budget", fill("search.budget-spent", &[("n", &budget)]), false));
    }
    if done {
        lines.push(line("search-yours", cx.yours_line(), false));
        if let Some(note) = cx.beyond_error() {
            lines.push(line("search-beyond-error", note, false));
        }
        if let Some(note) = cx.published_note() {
            lines.push(line("search-published", note, false));
        }
    }
    if let Some(why) = outcome.none_because {
        lines.push(line("search-why", why.to_string(), true));
    }
    let mut rows: Vec<app::Row> = outcome
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
        lines.push(line("search-inside-note", note, false));
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
    View { lines, table: Some(table("search-results", &head, rows)), list, ..View::default() }
}

/// A table of `rows` under `head`.
fn table(testid: &str, head: &[&str], rows: Vec<app::Row>) -> Table {
    Table { testid: testid.into(), head: head.iter().map(|h| h.to_string()).collect(), rows }
}

/// An SVG document as a `data:` URL for an `<img>`, where no script in it can run.
fn svg_url(svg: &str) -> String {
    let mut out = String::from("data:image/svg+xml,");
    for b in svg.bytes() {
        if b.is_ascii_alphanumeric() || b" .,:;=/-_()'".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A chip as people read it: a catalog chip by its name (`NVIDIA H100 SXM5 80GB`), any other
/// as it is called.
fn shown(chip: &str) -> String {
    crate::model::presets::chip(chip).map_or(chip, |p| p.name).to_string()
}

/// A sizing of `scenario`'s workload as the page shows it: a row per chip, how close each
/// answer is to the true smallest cluster, and the plot of days against chips, drawn for the
/// dark colour scheme when `dark`. A chip held back by the largest batch accepted offers to
/// accept twice it.
pub fn size(
    scenario: &Scenario,
    deadline_days: f64,
    chips: &[SizedChip],
    confidence: crate::model::Confidence,
    money: format::Money,
    dark: bool,
) -> View {
    let rows: Vec<app::Row> = chips
        .iter()
        .map(|c| {
            let chip = shown(&c.name);
            let sized = match &c.result {
                Ok(Some(Answer::Meets(sized))) => sized,
                Ok(Some(answer)) => {
                    let why = crate::report::sizing_why(deadline_days, answer)
                        .unwrap_or_else(|| t("size.none").into());
                    let mut row = why_row("size-row", chip, &why);
                    if let Answer::Misses { batch: Some(b), .. } = answer {
                        let tokens = 2.0 * b.tokens;
                        let label = fill("size.raise-batch", &[("tokens", &format::count(tokens))]);
                        let field = &crate::scenario::fields::TRAINING_MAX_GLOBAL_BATCH_TOKENS;
                        let raised = scenario.with(field, Some(tokens.into()));
                        row.apply = Some(Apply::new("size-raise-batch", label, raised));
                    }
                    return row;
                }
                Ok(None) => return why_row("size-row", chip, t("size.none")),
                Err(why) => return why_row("size-row", chip, why),
            };
            let e = &sized.estimate;
            let count = n(sized.chips);
            let bom = &e.facility.bom;
            let mw = finite(e.facility.power.facility_w / 1e6);
            let capex = finite(e.facility.cost.capex_usd);
            let label = fill("size.apply-label", &[("n", &count), ("chip", &chip)]);
            app::Row {
                testid: "size-row".into(),
                cells: vec![
                    chip.clone(),
                    count.clone(),
                    format!("{} / {}", n(bom.nodes as f64), n(bom.racks as f64)),
                    mw.map(|mw| fill("unit.mw", &[("n", &format::sig3(mw))])).unwrap_or_default(),
                    capex.map(|usd| money.show(usd)).unwrap_or_default(),
                    held_days(sized),
                    plan_words(&sized.plan.parallelism, None),
                ],
                apply: Some(Apply::new("size-apply", label, sized.scenario.clone())),
                ..app::Row::default()
            }
        })
        .collect();
    let bounds: Vec<Line> = chips
        .iter()
        .filter_map(|c| match &c.result {
            Ok(Some(Answer::Meets(sized))) => Some((c, sized)),
            _ => None,
        })
        .map(|(c, sized)| {
            let over = finite(sized.at_most_over(c.unit)).unwrap_or(0.0);
            let text = fill(
                "size.bound",
                &[
                    ("chip", &shown(&c.name)),
                    ("chips", &n(sized.chips)),
                    ("misses", &n(sized.misses_at)),
                    ("over", &format::percent(over)),
                    ("unit", &n(c.unit)),
                ],
            );
            line("size-bound", text, false)
        })
        .chain(chips.iter().filter(|c| c.budget_spent).map(|c| {
            let budget = n(crate::sizing::SIZING_BUDGET as f64);
            let text = fill("size.budget-spent", &[("chip", &shown(&c.name)), ("n", &budget)]);
            line("size-budget", text, false)
        }))
        .collect();
    // A chip whose sizing could not start has no curve.
    let curves: Vec<Curve> = chips
        .iter()
        .filter(|c| c.result.is_ok())
        .map(|c| Curve { label: shown(&c.name), points: c.curve.clone() })
        .collect();
    let held = match confidence {
        crate::model::Confidence::Central => "size.held.central",
        crate::model::Confidence::P90 => "size.held.p90",
    };
    let head = [
        t("size.head.chip"),
        t("size.head.chips"),
        t("size.head.nodes"),
        t("size.head.power"),
        t("size.head.capex"),
        t("size.head.days"),
        t("search.head.plan"),
    ];
    let theme = if dark { &DARK } else { &LIGHT };
    let plot = svg_url(&charts::sizing_svg(&curves, deadline_days, theme, (720, 300)));
    View {
        lines: vec![line("size-held", t(held).to_string(), false)],
        after: bounds,
        table: Some(table("size-results", &head, rows)),
        pictures: vec![Picture { testid: "plot-sizing".into(), url: plot }],
        ..View::default()
    }
}

/// A sizing by power as the page shows it: a row per chip with its largest cluster within the
/// power, its nodes and racks, the power its site is provisioned for, capex, days and plan,
/// and the scenario its Apply button opens; or why not one unit fits. `sized` is
/// `PowerSizing`'s JSON (`report::power_row`'s rows with their scenarios).
pub fn power(sized: &Value, money: format::Money) -> View {
    let mw = sized["power_mw"].as_f64().unwrap_or(0.0);
    let rows: Vec<app::Row> = sized["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            let chip = shown(row["chip"].as_str().unwrap_or_default());
            let testid = format!("size-power-row-{}", row["chip"].as_str().unwrap_or_default());
            let Some(chips) = row["chips"].as_f64() else {
                return why_row(&testid, chip, row["why"].as_str().unwrap_or_default());
            };
            let figure = |key: &str| row[key].as_f64().filter(|x| x.is_finite());
            let days = figure("effective_train_days").or(figure("train_days"));
            let plan = row["plan"]
                .as_object()
                .map(|p| {
                    ["tp", "pp", "cp", "ep"]
                        .iter()
                        .filter_map(|k| {
                            p.get(*k)
                                .and_then(Value::as_u64)
                                .filter(|d| *d > 1)
                                .map(|d| format!("{} {d}", k.to_uppercase()))
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .map(|words| if words.is_empty() { "TP 1 PP 1".to_string() } else { words });
            let label = fill("size.apply-label", &[("n", &n(chips)), ("chip", &chip)]);
            let scenario = Scenario::from_value(row["scenario"].clone()).ok();
            app::Row {
                testid,
                cells: vec![
                    chip,
                    n(chips),
                    format!(
                        "{} / {}",
                        n(figure("nodes").unwrap_or(0.0)),
                        n(figure("racks").unwrap_or(0.0))
                    ),
                    figure("provisioned_mw")
                        .map(|x| fill("unit.mw", &[("n", &format::sig3(x))]))
                        .unwrap_or_default(),
                    figure("capex_usd").map(|usd| money.show(usd)).unwrap_or_default(),
                    days.map(|d| format!("{d:.1}")).unwrap_or_default(),
                    plan.unwrap_or_else(|| t("size.power-no-plan").into()),
                ],
                apply: scenario.map(|s| Apply::new("size-power-apply", label, s)),
                ..app::Row::default()
            }
        })
        .collect();
    let said = fill("size.power-held", &[("mw", &numbers::format(mw))]);
    let head = [
        t("size.head.chip"),
        t("size.head.chips"),
        t("size.head.nodes"),
        t("size.head.provisioned"),
        t("size.head.capex"),
        t("size.head.days"),
        t("search.head.plan"),
    ];
    View {
        lines: vec![line("size-power-held", said, false)],
        table: Some(table("size-power-table", &head, rows)),
        ..View::default()
    }
}

/// The days with failures of a sized cluster, and those the deadline was held to when they are
/// its range's upper end (`62.1 → 71.4`).
fn held_days(sized: &crate::sizing::Sized) -> String {
    let Some(d) = finite(sized.plan.effective_train_days) else { return String::new() };
    if sized.held_to > 1.0 {
        format!("{d:.1} → {:.1}", d * sized.held_to)
    } else {
        format!("{d:.1}")
    }
}

/// The accuracy report as the page shows it: every published row with its error, the misses
/// explained, and each run's sources (the page renders those as links).
pub fn accuracy(report: &Result<(Vec<validation::Run>, Vec<validation::Outcome>), String>) -> View {
    let (runs, outcomes) = match report {
        Ok(report) => report,
        Err(error) => {
            let text = fill("accuracy.error", &[("why", error)]);
            return View::said(vec![line("accuracy-error", text, true)]);
        }
    };
    let rows: Vec<app::Row> = outcomes
        .iter()
        .map(|o| {
            let metric = o.row.metric;
            app::Row {
                class: if o.within() { "" } else { "miss" }.into(),
                cells: vec![
                    o.row.run.clone(),
                    o.row.label.clone(),
                    metric.label().to_string(),
                    validation::show(metric, o.row.published),
                    validation::show(metric, o.predicted),
                    format!("{:+.1}%", 100.0 * finite(o.error).unwrap_or(0.0)),
                    format!("±{:.0}%", 100.0 * finite(o.row.tolerance).unwrap_or(0.0)),
                ],
                ..app::Row::default()
            }
        })
        .collect();
    let misses: Vec<Line> = outcomes
        .iter()
        .filter_map(|o| {
            let why = o.row.known_miss.as_deref()?;
            let values = [("run", o.row.run.as_str()), ("label", &o.row.label), ("why", why)];
            Some(line("accuracy-miss", fill("accuracy.miss", &values), false))
        })
        .collect();
    let head = ["run", "row", "metric", "published", "predicted", "error", "tolerance"]
        .map(|h| t(&format!("accuracy.head.{h}")));
    let sources =
        runs.iter().map(|r| Source { title: r.title.clone(), source: r.source.clone() }).collect();
    View {
        table: Some(table("accuracy-table", &head, rows)),
        after: misses,
        sources,
        ..View::default()
    }
}

/// Plan A against plan B as the page shows it: each drawing as a picture (`compare-step`,
/// `compare-scaling`), or why they could not be drawn.
pub fn compare(drawn: &Result<(String, String), &'static str>) -> View {
    match drawn {
        Ok((step, scaling)) => View {
            pictures: vec![
                Picture { testid: "compare-step".into(), url: svg_url(step) },
                Picture { testid: "compare-scaling".into(), url: svg_url(scaling) },
            ],
            ..View::default()
        },
        Err(why) => View::said(vec![line("compare-error", why.to_string(), true)]),
    }
}
