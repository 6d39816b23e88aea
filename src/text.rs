//! The words of the page, one catalogue per language: `static/text/en.txt` and
//! `static/text/zh-CN.txt`, lines of `key = text` with `{name}` where a value goes, and beside
//! each its explanations of fields and results (`en.help.txt`, `zh-CN.help.txt`), which the page
//! loads once it is drawn, and the words only the search worker speaks (`en.worker.txt`,
//! `zh-CN.worker.txt`), which the page never loads.
//!
//! The page's first load carries no catalogue in its code: it reads the one it needs as a file
//! beside it (or, in `standalone.html`, from the page itself) and installs it before it draws.
//! Native code (the command-line tool, tests) and the worker have both compiled in. A key
//! missing from the installed catalogue shows as the key itself, and `tests/it/text.rs` fails
//! when any key the code uses is missing in either language.

use std::cell::Cell;

use crate::fabric::FabricError;
use crate::model::search::NoPlan;
use crate::model::Warning;
use crate::numbers::NumberError;
use crate::scenario::url::{self, DecodeError};
use crate::scenario::user_catalog::{CatalogError, CATALOG_VERSION};
use crate::scenario::{Catalog, FixLabel, InputError, ParseError, Problem};

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    ZhCn,
}

impl Lang {
    /// Every language, in the switch's order.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The BCP 47 tag (`en`, `zh-CN`), also the catalogue's file name.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language for a browser's tag: any Chinese is `zh-CN`, anything else English.
    pub fn from_code(tag: &str) -> Lang {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Lang::ZhCn
        } else {
            Lang::En
        }
    }

    /// The language's own name, as the switch shows it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "中文",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One language's words, sorted by key.
#[derive(Debug, Default)]
pub struct Catalogue {
    entries: Vec<(&'static str, &'static str)>,
}

impl Catalogue {
    /// Reads `key = text` lines (a text in double quotes keeps its outer spaces); `#` starts a
    /// comment line. A key given twice, or a line
    /// without ` = `, is an error naming the line.
    pub fn parse(source: &'static str) -> Result<Catalogue, String> {
        let mut entries = Vec::new();
        for (n, line) in source.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, text)) = line.split_once(" = ") else {
                return Err(format!("line {}: no ' = ' in {line:?}", n + 1));
            };
            // A text in double quotes keeps its spaces (`text.clause = "; "`).
            let text = text.trim();
            let text = match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                Some(inner) if text.len() >= 2 => inner,
                _ => text,
            };
            entries.push((key.trim(), text));
        }
        entries.sort_by_key(|(key, _)| *key);
        if let Some(pair) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!("{} is given twice", pair[0].0));
        }
        Ok(Catalogue { entries })
    }

    /// The text of `key`.
    pub fn get(&self, key: &str) -> Option<&'static str> {
        let i = self.entries.binary_search_by_key(&key, |(k, _)| k).ok()?;
        Some(self.entries[i].1)
    }

    /// Every key, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|(k, _)| *k)
    }
}

thread_local! {
    static CATALOGUES: [Cell<Option<&'static Catalogue>>; 2] = const { [Cell::new(None), Cell::new(None)] };
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::En) };
}

/// Adds `source` to the catalogue of `lang` (kept for the life of the program): the page
/// installs a language's words, then its explanations (`<lang>.help.txt`) once it is drawn.
pub fn install(lang: Lang, source: &'static str) -> Result<(), String> {
    let mut catalogue = Catalogue::parse(source)?;
    if let Some(before) = CATALOGUES.with(|c| c[lang.index()].get()) {
        catalogue.entries.extend(before.entries.iter().copied());
        catalogue.entries.sort_by_key(|(key, _)| *key);
        catalogue.entries.dedup_by_key(|(key, _)| *key);
    }
    let catalogue: &'static Catalogue = Box::leak(Box::new(catalogue));
    CATALOGUES.with(|c| c[lang.index()].set(Some(catalogue)));
    Ok(())
}

/// Whether `lang`'s own catalogue has `key` (no fallback to English).
pub fn has_key(lang: Lang, key: &str) -> bool {
    catalogue(lang).is_some_and(|c| c.get(key).is_some())
}

/// Whether `lang`'s catalogue is installed.
pub fn has(lang: Lang) -> bool {
    CATALOGUES.with(|c| c[lang.index()].get().is_some()) || embedded(lang).is_some()
}

/// Speaks `lang` from now on.
pub fn set_lang(lang: Lang) {
    CURRENT.with(|c| c.set(lang));
}

/// The language spoken.
pub fn lang() -> Lang {
    CURRENT.with(Cell::get)
}

/// A language's whole catalogue, words, explanations and the words only the search worker
/// speaks (`<lang>.worker.txt`, which the page never loads), for code that carries it (native
/// builds, the worker, tests).
#[macro_export]
macro_rules! catalogue_source {
    (En) => {
        concat!(
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/text/en.txt")),
            "\n",
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/text/en.help.txt")),
            "\n",
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/text/en.worker.txt"))
        )
    };
    (ZhCn) => {
        concat!(
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/text/zh-CN.txt")),
            "\n",
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/text/zh-CN.help.txt")),
            "\n",
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/text/zh-CN.worker.txt"))
        )
    };
}

/// The catalogues compiled into native builds; the page loads its own (`ui::start`).
#[cfg(not(target_arch = "wasm32"))]
fn embedded(lang: Lang) -> Option<&'static str> {
    Some(match lang {
        Lang::En => catalogue_source!(En),
        Lang::ZhCn => catalogue_source!(ZhCn),
    })
}

#[cfg(target_arch = "wasm32")]
fn embedded(_: Lang) -> Option<&'static str> {
    None
}

fn catalogue(lang: Lang) -> Option<&'static Catalogue> {
    if let Some(c) = CATALOGUES.with(|c| c[lang.index()].get()) {
        return Some(c);
    }
    let source = embedded(lang)?;
    install(lang, source).ok()?;
    CATALOGUES.with(|c| c[lang.index()].get())
}

/// The text of `key` in the language spoken (English where that has no such key, empty where
/// neither has: `tests/it/text.rs` keeps every key the code uses in both).
pub fn t(key: &str) -> &'static str {
    in_lang(lang(), key)
}

/// The text of `key` in `lang`.
pub fn in_lang(lang: Lang, key: &str) -> &'static str {
    catalogue(lang)
        .and_then(|c| c.get(key))
        .or_else(|| catalogue(Lang::En).and_then(|c| c.get(key)))
        .unwrap_or("")
}

/// `key`'s text with each `{name}` replaced by its value.
pub fn fill(key: &str, values: &[(&str, &str)]) -> String {
    substitute(t(key), values)
}

/// `template` with each `{name}` replaced by its value.
pub fn substitute(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A span of time in the unit that reads best: seconds below 90, minutes below 90, then hours.
pub fn duration(s: f64) -> String {
    let s = if s.is_finite() { s.max(0.0) } else { 0.0 };
    let (n, key) = if s < 90.0 {
        (format!("{s:.0}"), "unit.duration-s")
    } else if s < 90.0 * 60.0 {
        (format!("{:.1}", s / 60.0), "unit.duration-min")
    } else {
        (format!("{:.1}", s / 3600.0), "unit.duration-h")
    };
    fill(key, &[("n", &n)])
}

/// A finding about a plan in words, in the language spoken.
pub fn warning(w: &Warning) -> String {
    let n = |x: u64| crate::numbers::format(x as f64);
    let gib = |b: f64| format!("{:.1}", b / crate::model::presets::units::GIB);
    match *w {
        Warning::DoesNotFit { need_bytes, have_bytes, experts } => {
            let key = if experts > 0 { "warn.does-not-fit.moe" } else { "warn.does-not-fit" };
            let (need, have, experts) = (gib(need_bytes), gib(have_bytes), n(experts as u64));
            fill(key, &[("need", &need), ("have", &have), ("experts", &experts)])
        }
        Warning::DegreesMismatch { product, chips } => {
            let key =
                if product < chips as u64 { "warn.degrees-idle" } else { "warn.degrees-short" };
            fill(key, &[("product", &n(product)), ("chips", &n(chips as u64))])
        }
        Warning::FirstStageTooLarge { first, max } => fill(
            "warn.first-stage-too-large",
            &[("first", &n(first as u64)), ("max", &n(max as u64))],
        ),
        Warning::PlacementShort { product, usable, used, domain } => fill(
            "warn.placement-short",
            &[
                ("product", &n(product)),
                ("usable", &n(usable as u64)),
                ("used", &n(used as u64)),
                ("domain", &n(domain as u64)),
            ],
        ),
        Warning::TensorSplitsHeads { tp, heads } => {
            fill("warn.tp-heads", &[("tp", &n(tp as u64)), ("heads", &n(heads as u64))])
        }
        Warning::TensorReplicatesKvHeads { tp, kv_heads } => {
            fill("warn.tp-kv-heads", &[("tp", &n(tp as u64)), ("kv", &n(kv_heads as u64))])
        }
        Warning::BatchNotDivisible { global_batch, dp, micro_batch } => fill(
            "warn.batch-padded",
            &[
                ("batch", &n(global_batch as u64)),
                ("dp", &n(dp as u64)),
                ("mb", &n(micro_batch as u64)),
            ],
        ),
        Warning::IdleReplicas { global_batch, dp, micro_batch } => {
            let values = [
                ("batch", n(global_batch as u64)),
                ("dp", n(dp as u64)),
                ("mb", n(micro_batch as u64)),
                ("each", n(global_batch as u64 / dp.max(1) as u64)),
            ];
            let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let key =
                if global_batch >= dp { "warn.idle-replicas" } else { "warn.idle-replicas-none" };
            fill(key, &values)
        }
        Warning::LayersNotDivisible { layers, pp, virtual_stages } => {
            let chunks = pp as u64 * virtual_stages as u64;
            let key = if virtual_stages > 1 {
                "warn.layers-uneven-virtual"
            } else {
                "warn.layers-uneven"
            };
            fill(
                key,
                &[
                    ("pp", &n(pp as u64)),
                    ("v", &n(virtual_stages as u64)),
                    ("chunks", &n(chunks)),
                    ("layers", &n(layers as u64)),
                ],
            )
        }
        Warning::StagesExceedLayers { layers, pp, .. } => fill(
            "warn.stages-exceed-layers",
            &[("pp", &n(pp as u64)), ("layers", &n(layers as u64))],
        ),
        Warning::FewMicrobatches { microbatches, stages } => fill(
            "warn.few-microbatches",
            &[("mb", &n(microbatches as u64)), ("stages", &n(stages as u64))],
        ),
        Warning::BatchStarved { microbatches, stages, batch } => fill(
            "warn.batch-starved",
            &[("mb", &n(microbatches as u64)), ("stages", &n(stages as u64)), ("batch", &n(batch))],
        ),
        Warning::InterleavingNeedsMultiple { microbatches, stages } => fill(
            "warn.interleaving-multiple",
            &[("mb", &n(microbatches as u64)), ("stages", &n(stages as u64))],
        ),
        Warning::InterleavingNeedsMicrobatches { microbatches, stages } => fill(
            "warn.interleaving-microbatches",
            &[("mb", &n(microbatches as u64)), ("stages", &n(stages as u64))],
        ),
        Warning::SelectiveWithFlash => t("warn.selective-with-flash").into(),
        Warning::DomainBeyondFabric { domain, fabric } => fill(
            "warn.domain-beyond-fabric",
            &[("domain", &n(domain as u64)), ("fabric", &n(fabric as u64))],
        ),
        Warning::TensorCrossesDomain { tp, domain } => fill(
            "warn.tp-crosses",
            &[
                ("tp", &n(tp as u64)),
                ("domains", &n(tp.div_ceil(domain.max(1)) as u64)),
                ("domain", &n(domain as u64)),
            ],
        ),
        Warning::ExpertCrossesDomain { ep, domain } => {
            fill("warn.ep-crosses", &[("ep", &n(ep as u64)), ("domain", &n(domain as u64))])
        }
        Warning::ExpertDegreeExceedsExperts { ep, experts } => {
            fill("warn.ep-experts", &[("ep", &n(ep as u64)), ("experts", &n(experts as u64))])
        }
        Warning::ExpertDegreeNotDivisible { ep, etp, experts, ranks } => fill(
            "warn.ep-divide",
            &[
                ("ep", &n(ep as u64)),
                ("etp", &n(etp as u64)),
                ("experts", &n(experts as u64)),
                ("ranks", &n(ranks)),
            ],
        ),
        Warning::ExpertParallelWithoutExperts { ep } => {
            fill("warn.ep-no-experts", &[("ep", &n(ep as u64))])
        }
        Warning::ContextSplitsSequence { cp, seq_len } => fill(
            "warn.cp-sequence",
            &[("cp", &n(cp as u64)), ("seq", &n(seq_len as u64)), ("chunks", &n(2 * cp as u64))],
        ),
        Warning::TensorSplitsMamba { heads, groups, tp } => fill(
            "warn.tp-mamba",
            &[("heads", &n(heads as u64)), ("groups", &n(groups as u64)), ("tp", &n(tp as u64))],
        ),
        Warning::VisionTensorSplit { encoder_tp, tp, heads } => fill(
            "warn.tp-vision",
            &[
                ("encoder", &n(encoder_tp as u64)),
                ("tp", &n(tp as u64)),
                ("heads", &n(heads as u64)),
            ],
        ),
        Warning::TensorSplitsLinear { heads, key_heads, tp } => fill(
            "warn.tp-linear",
            &[("heads", &n(heads as u64)), ("keys", &n(key_heads as u64)), ("tp", &n(tp as u64))],
        ),
        Warning::UlyssesSplitsHeads { heads, ranks } => {
            fill("warn.ulysses-heads", &[("heads", &n(heads as u64)), ("ranks", &n(ranks as u64))])
        }
        Warning::Fp8Unsupported => t("warn.fp8-unsupported").into(),
        Warning::Fp4Unsupported => t("warn.fp4-unsupported").into(),
        Warning::Int8Unsupported => t("warn.int8-unsupported").into(),
        Warning::CapBelowMeasured { cap_w, tdp_w } => fill(
            "warn.cap-below-measured",
            &[("cap", &n(cap_w.round() as u64)), ("tdp", &n(tdp_w.round() as u64))],
        ),
        Warning::EfficiencyAboveClass { efficiency, best, chip, same_family } => fill(
            if same_family { "warn.efficiency-above-family" } else { "warn.efficiency-above-all" },
            &[
                ("efficiency", &crate::numbers::percent(efficiency)),
                ("best", &crate::numbers::percent(best)),
                ("chip", chip),
            ],
        ),
        Warning::BeyondPublished { mfu, best, chips, run } => fill(
            "warn.beyond-published",
            &[
                ("mfu", &crate::numbers::percent(mfu)),
                ("best", &crate::numbers::percent(best)),
                ("chips", &n(chips as u64)),
                ("run", run),
            ],
        ),
        Warning::MeasuredBeyondPublished { mfu, at, best, chips, run } => fill(
            "warn.measured-beyond-published",
            &[
                ("mfu", &crate::numbers::percent(mfu)),
                ("at", &n(at as u64)),
                ("best", &crate::numbers::percent(best)),
                ("chips", &n(chips as u64)),
                ("run", run),
            ],
        ),
        Warning::ServersUnpriced => t("warn.servers-unpriced").into(),
        Warning::RatesBorrowed => t("warn.rates-borrowed").into(),
        Warning::PortsSplit { split, ports, tiers } => {
            // A rail-optimised fat tree of radix k joins k^2/2 chips in two tiers, k^3/4 in three.
            let k = ports as f64;
            let most = if tiers <= 2 { k * k / 2.0 } else { k * k * k / 4.0 };
            fill(
                "warn.ports-split",
                &[
                    ("tiers", &tiers.to_string()),
                    ("ports", &crate::numbers::format(k)),
                    ("most", &crate::numbers::format(most)),
                    ("split", &split.to_string()),
                    ("split_ports", &crate::numbers::format(k * split as f64)),
                ],
            )
        }
        Warning::SequenceParallelWithoutTensor => t("warn.sp-without-tp").into(),
        Warning::ShardingWithoutReplicas => t("warn.zero-without-dp").into(),
        Warning::VirtualStagesWithoutPipeline => t("warn.virtual-without-pp").into(),
        Warning::NeverFinishes { mtbf_s, lost_s } => {
            fill("warn.never-finishes", &[("mtbf", &duration(mtbf_s)), ("lost", &duration(lost_s))])
        }
        Warning::HotInlet { inlet_c, slower } => fill(
            "warn.hot-inlet",
            &[("inlet", &format!("{inlet_c:.0}")), ("slower", &format!("{:.1}", slower * 100.0))],
        ),
        Warning::RackTooDense { rack_w, limit_w, liquid } => fill(
            if liquid { "warn.rack-dense-liquid" } else { "warn.rack-dense-air" },
            &[
                ("rack", &format!("{:.0}", rack_w / 1000.0)),
                ("limit", &format!("{:.0}", limit_w / 1000.0)),
            ],
        ),
    }
}

/// Why serving cannot meet what is asked, in words.
pub fn serving_problem(p: &crate::model::serving::Problem) -> String {
    use crate::model::serving::Problem;
    let gib = |b: f64| format!("{:.1}", b / crate::model::presets::units::GIB);
    let ms = |s: f64| format!("{:.1}", s * 1000.0);
    let n = |x: f64| crate::numbers::format(x);
    match *p {
        Problem::DoesNotFit { need_bytes, have_bytes } => {
            fill("serve.does-not-fit", &[("need", &gib(need_bytes)), ("have", &gib(have_bytes))])
        }
        Problem::ExpertsDoNotDivide { ep, chips } => {
            fill("serve.ep-divides", &[("ep", &n(ep as f64)), ("chips", &n(chips as f64))])
        }
        Problem::TpotUnreachable { best_s, target_s } => {
            fill("serve.tpot-unreachable", &[("best", &ms(best_s)), ("target", &ms(target_s))])
        }
        Problem::TtftUnreachable { best_s, target_s } => {
            fill("serve.ttft-unreachable", &[("best", &ms(best_s)), ("target", &ms(target_s))])
        }
        Problem::TooFewChips { need, have } => {
            fill("serve.too-few-chips", &[("need", &n(need as f64)), ("have", &n(have as f64))])
        }
        Problem::TtftAtLoad { ttft_s, target_s, busy, busy_at_most, chips } => fill(
            "serve.ttft-at-load",
            &[
                ("ttft", &ms(ttft_s)),
                ("target", &ms(target_s)),
                ("over", &ms(ttft_s - target_s)),
                ("busy", &crate::numbers::percent(busy)),
                ("most", &crate::numbers::percent(busy_at_most)),
                ("chips", &n(chips as f64)),
            ],
        ),
    }
}

/// What serving assumes that the user may not expect, in words.
pub fn serving_note(n: &crate::model::serving::Note) -> String {
    use crate::model::serving::{Note, Precision};
    let name = |p: Precision| match p {
        Precision::Bf16 => "BF16",
        Precision::Fp8 => "FP8",
        Precision::Fp4 => "FP4",
    };
    match *n {
        Note::NoUnits { weights, runs_at } => {
            fill("serve.no-units", &[("weights", name(weights)), ("runs", name(runs_at))])
        }
    }
}

/// Why post-training cannot run as asked, in words.
pub fn rl_problem(p: &crate::model::rl::Problem) -> String {
    use crate::model::rl::Problem;
    let n = |x: f64| crate::numbers::format(x);
    match *p {
        Problem::SampleTooLong { tokens, seq_len } => {
            fill("rl.sample-too-long", &[("tokens", &n(tokens)), ("seq", &n(seq_len as f64))])
        }
        Problem::GenerationDoesNotFit => t("rl.does-not-fit").to_string(),
        Problem::TooFewGenerationChips { have, need } => {
            fill("rl.too-few-chips", &[("have", &n(have as f64)), ("need", &n(need as f64))])
        }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&warning(self))
    }
}

/// Why a search ranks no plan, in words.
impl std::fmt::Display for NoPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let gib = |b: f64| format!("{:.1}", b / crate::model::presets::units::GIB);
        f.write_str(&match *self {
            NoPlan::NeverFinishes { plans, mtbf_s, lost_s } => fill(
                "search.never-finishes",
                &[
                    ("plans", &crate::numbers::format(plans as f64)),
                    ("mtbf", &duration(mtbf_s)),
                    ("lost", &duration(lost_s)),
                ],
            ),
            NoPlan::NoneRuns { plans } => {
                fill("search.none-runs", &[("plans", &crate::numbers::format(plans as f64))])
            }
            NoPlan::NothingFits { plans, need_bytes, have_bytes } => fill(
                "search.nothing-fits",
                &[
                    ("plans", &crate::numbers::format(plans as f64)),
                    ("need", &gib(need_bytes)),
                    ("have", &gib(have_bytes)),
                ],
            ),
        })
    }
}

/// A step, memory, power or cost part's or a bill-of-materials item's name, by the id the
/// model gives it (`StepBreakdown::parts`, `MemoryUse::parts` and the like).
pub fn part(id: &str) -> &'static str {
    t(&format!("part.{id}"))
}

/// The place in the `calibration` list a measurement's field is at, and the field's path
/// within the measurement, without its `scenario.` (`calibration.1.scenario.cluster.chips`
/// is `(1, "cluster.chips")`; `calibration.1.measured.mfu` is `(1, "measured.mfu")`).
pub fn measurement_field(path: &str) -> Option<(usize, &str)> {
    let rest = path.strip_prefix("calibration.")?;
    let (place, inner) = rest.split_once('.').unwrap_or((rest, ""));
    Some((place.parse().ok()?, inner.strip_prefix("scenario.").unwrap_or(inner)))
}

/// The path whose label, help and unit a field takes: a measurement's field takes the plan's.
pub fn field_key(path: &str) -> &str {
    measurement_field(path).map_or(path, |(_, inner)| inner)
}

/// A field's name as people read it: its label in the language spoken (`Chips`), or its path
/// when it has none (an unknown key is named as written).
pub fn field_name(path: &str) -> String {
    // A measurement's field: "Measurement 2, Chips" for `calibration.1.scenario.cluster.chips`.
    if let Some((place, inner)) = measurement_field(path) {
        let which = fill("label.measurement", &[("n", &(place + 1).to_string())]);
        return match inner {
            "" => which,
            inner => format!("{which}{}{}", t("text.list"), field_name(inner)),
        };
    }
    match t(&format!("label.{path}")) {
        "" => path.to_string(),
        label => label.to_string(),
    }
}

/// A bad field as a sentence: its name in words, then what is wrong with it.
impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", field_name(&self.field), input_error(self))
    }
}

/// What is wrong with a field, in words of the language spoken.
pub fn input_error(e: &InputError) -> String {
    let unit = |x: f64| {
        let spec = crate::scenario::fields::field(&e.field);
        let shown = spec.map_or_else(|| crate::numbers::format(x), |f| f.show(x));
        // A unit the catalogue words as a template ("{n} ms") takes the number in its place.
        match spec.map_or("", |f| f.unit) {
            "" => shown,
            u => match t(&format!("unit.{u}")) {
                "" => format!("{shown} {u}"),
                word if word.contains("{n}") => substitute(word, &[("n", &shown)]),
                word => format!("{shown} {word}"),
            },
        }
    };
    let n = |x: u64| crate::numbers::format(x as f64);
    match &e.problem {
        Problem::UnknownKey => t("error.unknown-key").into(),
        Problem::Number(why) => number_error(*why),
        Problem::NotANumber { got } => fill("error.not-a-number", &[("got", got)]),
        Problem::Negative => t("error.negative").into(),
        Problem::BelowOne => t("error.below-one").into(),
        Problem::NotPositive => t("error.not-positive").into(),
        Problem::TooSmall { min } => fill("error.too-small", &[("min", &unit(*min))]),
        Problem::TooLarge { max } => fill("error.too-large", &[("max", &unit(*max))]),
        Problem::Required => t("error.required").into(),
        Problem::NotFraction => t("error.not-fraction").into(),
        Problem::NotWhole { got } => {
            fill("error.not-whole", &[("got", &crate::numbers::format(*got))])
        }
        Problem::NotFlag { got } => fill("error.not-flag", &[("got", got)]),
        Problem::NotOneOf { names, got } => {
            fill("error.not-one-of", &[("names", &names.join(", ")), ("got", got)])
        }
        Problem::NotText { got } => fill("error.not-text", &[("got", got)]),
        Problem::NotPresetOrObject { got } => fill("error.not-preset-or-object", &[("got", got)]),
        Problem::NotObject { got, or_null } => fill(
            if *or_null { "error.not-object-or-null" } else { "error.not-object" },
            &[("got", got)],
        ),
        Problem::SetBy { other } => fill("error.set-by", &[("other", other)]),
        Problem::Unknown { catalog, id, known } => {
            let what = t(match catalog {
                Catalog::Model => "error.catalog.model",
                Catalog::Chip => "error.catalog.chip",
                Catalog::ScaleUp => "error.catalog.scale-up",
                Catalog::ScaleOut => "error.catalog.scale-out",
                Catalog::System => "error.catalog.system",
                Catalog::Switch => "error.catalog.switch",
                Catalog::Site => "error.catalog.site",
                Catalog::Job => "error.catalog.job",
            });
            fill("error.unknown", &[("what", what), ("id", id), ("known", known)])
        }
        Problem::NewerVersion { version, reads } => fill(
            "error.newer-version",
            &[("version", &version.to_string()), ("reads", &reads.to_string())],
        ),
        Problem::KvHeads { heads, got } => {
            fill("error.kv-heads", &[("heads", &n(*heads as u64)), ("got", &n(*got as u64))])
        }
        Problem::SequenceTooLong { tokens } => {
            fill("error.sequence-too-long", &[("tokens", &n(*tokens as u64))])
        }
        Problem::TopKExceedsExperts { experts, got } => {
            fill("error.top-k", &[("experts", &n(*experts as u64)), ("got", &n(*got as u64))])
        }
        Problem::DenseLayers { layers } => {
            fill("error.dense-layers", &[("layers", &n(*layers as u64))])
        }
        Problem::RequiredForCustomChip => t("error.required-custom-chip").into(),
        Problem::ZeroStage { got } => fill("error.zero-stage", &[("got", got)]),
        Problem::NotList { got } => fill("error.not-list", &[("got", got)]),
        Problem::NotDate { got } => fill("error.not-date", &[("got", got)]),
        Problem::TooManyOf { catalog, most, got } => {
            let key = if *catalog == Catalog::Site {
                "error.too-many-sites"
            } else {
                "error.too-many-chips"
            };
            fill(key, &[("most", &most.to_string()), ("got", &got.to_string())])
        }
        Problem::TooMany { most, got } => {
            fill("error.too-many", &[("most", &n(*most as u64)), ("got", &n(*got as u64))])
        }
        Problem::OnePerPool { pools, got } => {
            fill("error.one-per-pool", &[("pools", &n(*pools as u64)), ("got", &n(*got as u64))])
        }
        Problem::OneOf { names } => fill("error.one-of", &[("names", &names.join(", "))]),
        Problem::FitAtBound { high, bound } => fill(
            if *high { "error.fit-at-ceiling" } else { "error.fit-at-floor" },
            &[("bound", &crate::numbers::percent(*bound))],
        ),
        Problem::NotTimeable => t("error.not-timeable").into(),
        Problem::Fabric(why) => fabric_error(*why),
        Problem::ChipsDoNotDivide { chips, tp, pp, cp, options } => {
            let unit = *tp as u64 * *pp as u64 * *cp as u64;
            let options: Vec<String> = options.iter().map(|c| n(*c)).collect();
            fill(
                "error.chips-do-not-divide",
                &[
                    ("chips", &n(*chips)),
                    ("tp", &tp.to_string()),
                    ("pp", &pp.to_string()),
                    ("cp", &cp.to_string()),
                    ("unit", &n(unit)),
                    ("options", &options.join(t("error.or"))),
                ],
            )
        }
    }
}

/// What a one-click fix does, in words.
pub fn fix(label: &FixLabel) -> String {
    let n = |x: u64| crate::numbers::format(x as f64);
    match label {
        FixLabel::Chips(chips) => fill("fix.chips", &[("chips", &n(*chips))]),
        FixLabel::KeepIdle { chips, idle } => {
            fill("fix.keep-idle", &[("chips", &n(*chips)), ("idle", &n(*idle))])
        }
        FixLabel::GlobalBatch(batch) => fill("fix.global-batch", &[("batch", &n(*batch))]),
    }
}

/// Why a written number does not read.
pub fn number_error(e: NumberError) -> String {
    t(match e {
        NumberError::Empty => "error.number.empty",
        NumberError::Grouping => "error.number.grouping",
        NumberError::NotANumber => "error.number.not-a-number",
        NumberError::Overflow => "error.number.overflow",
    })
    .into()
}

/// Why a fabric cannot be built as asked.
pub fn fabric_error(e: FabricError) -> String {
    let n = |x: u64| crate::numbers::format(x as f64);
    match e {
        FabricError::OneTierTooSmall { endpoints, ports } => {
            fill("error.fabric.one-tier", &[("ports", &n(ports as u64)), ("chips", &n(endpoints))])
        }
        FabricError::TooFewPorts { ports } => {
            fill("error.fabric.ports", &[("ports", &n(ports as u64))])
        }
        FabricError::DomainBelowCube { domain } => {
            fill("error.fabric.cube", &[("domain", &n(domain as u64))])
        }
        FabricError::Unwireable { endpoints, ports, tiers } => fill(
            "error.fabric.unwireable",
            &[("tiers", &tiers.to_string()), ("ports", &n(ports as u64)), ("chips", &n(endpoints))],
        ),
    }
}

impl std::fmt::Display for NumberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&number_error(*self))
    }
}

impl std::fmt::Display for FabricError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&fabric_error(*self))
    }
}

impl std::fmt::Display for FixLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&fix(self))
    }
}

/// Why a link could not be opened.
pub fn decode_error(e: &DecodeError) -> String {
    match e {
        DecodeError::NoVersion => t("link.no-version").into(),
        DecodeError::FutureVersion(v) => fill(
            "link.future-version",
            &[("version", &v.to_string()), ("reads", &url::FRAGMENT_VERSION.to_string())],
        ),
        DecodeError::NotBase64 => t("link.not-base64").into(),
        DecodeError::NotScenario(why) => fill("link.not-scenario", &[("why", why)]),
        DecodeError::TooLong => t("link.too-long").into(),
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&decode_error(self))
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&match self {
            ParseError::Syntax(why) => fill("import.not-a-scenario", &[("why", why)]),
            ParseError::FutureVersion(v) => fill(
                "import.newer-version",
                &[("version", &v.to_string()), ("reads", &crate::scenario::VERSION.to_string())],
            ),
            ParseError::DuplicateKey { place: None, path } => {
                fill("import.duplicate-key", &[("key", path)])
            }
            ParseError::DuplicateKey { place: Some(n), path } => {
                fill("import.duplicate-key-in", &[("key", path), ("n", &n.to_string())])
            }
        })
    }
}

/// Why a catalog file was refused, in words.
pub fn catalog_error(e: &CatalogError) -> String {
    match e {
        CatalogError::NotJson(why) => fill("catalog.not-json", &[("why", why)]),
        CatalogError::NotACatalog => t("catalog.not-a-catalog").into(),
        CatalogError::Newer(v) => fill(
            "catalog.newer",
            &[("version", &v.to_string()), ("reads", &CATALOG_VERSION.to_string())],
        ),
        CatalogError::Incomplete => t("catalog.incomplete").into(),
        CatalogError::ForeignFields { name, kind } => {
            fill("catalog.foreign-fields", &[("name", name), ("fields", &kind.paths().join(", "))])
        }
        CatalogError::BadEntry { name, errors } => {
            let why: Vec<String> = errors.iter().map(ToString::to_string).collect();
            fill("catalog.bad-entry", &[("name", name), ("why", &why.join(t("text.clause")))])
        }
    }
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&catalog_error(self))
    }
}
