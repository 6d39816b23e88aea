//! The page's words: field labels and the explanation of every term, keyed by the field
//! table's paths, and the wording of typed notices, all looked up in the catalogue of the
//! language spoken (`static/text/<lang>.txt`), so a language is a file, not a hunt through the
//! components. No Yew here, so native tests read what the page says.

use crate::app::state::{Kept, Notice, Removed};
use crate::model::presets;
use crate::scenario::fields;
pub use crate::text::{field_name, fill, input_error, t, warning};

/// The field table's path of a field by its scenario path: a measurement's field by its own,
/// a further pool's (`cluster.pools.1.chips`) as the cluster's, a site's (`sites.0.name`) as
/// `sites.name`.
fn table_path(path: &str) -> String {
    let path = crate::text::field_key(path);
    // A year job's own changes to the plan are the plan's fields.
    if let Some(inner) = path
        .strip_prefix("year.jobs.")
        .and_then(|rest| rest.split_once('.'))
        .and_then(|(_, rest)| rest.strip_prefix("scenario."))
    {
        return inner.to_string();
    }
    let entry = |list: &str, section: &str| {
        let rest = path.strip_prefix(list)?.split_once('.')?.1;
        Some(format!("{section}.{rest}"))
    };
    entry("cluster.pools.", "cluster")
        .or_else(|| entry("sites.", "sites"))
        .or_else(|| entry("year.jobs.", "year.jobs"))
        .or_else(|| entry("year.deliveries.", "year.deliveries"))
        .or_else(|| entry("year.power.", "year.power"))
        .unwrap_or_else(|| path.to_string())
}

/// The label of a field, by its scenario path.
pub fn label(path: &str) -> &'static str {
    t(&format!("label.{}", table_path(path)))
}

/// What a field or result means, shown on hover and keyboard focus.
pub fn help(key: &str) -> &'static str {
    t(&format!("help.{}", table_path(key)))
}

/// A `fields` path as the user reads it (`Memory bandwidth`), for messages about figures.
pub fn figure_name(path: &str) -> &'static str {
    match label(path) {
        "" => t("text.a-figure"),
        name => name,
    }
}

/// A label inside a sentence: "Memory bandwidth" becomes "memory bandwidth", while an
/// abbreviation ("BF16 dense peak") keeps its capitals.
pub fn in_sentence(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_ascii_lowercase() => {
            std::iter::once(first.to_ascii_lowercase()).chain(label.chars().skip(1)).collect()
        }
        _ => label.to_string(),
    }
}

/// The display name of a preset id at a fabric path, in the language spoken.
fn fabric_name(path: &str, value: &serde_json::Value) -> String {
    let id = value.as_str().unwrap_or_default();
    let name = match path {
        "cluster.scale_out" => {
            presets::scale_out(id).map(|p| preset_name("scale_out", p.id, p.name))
        }
        "cluster.scale_up" => presets::scale_up(id).map(|p| preset_name("scale_up", p.id, p.name)),
        _ => None,
    };
    name.map_or_else(|| crate::format::raw(value), str::to_string)
}

fn kept(k: &Kept) -> String {
    let yours = fabric_name(k.path, &k.yours);
    let what = in_sentence(label(k.path));
    match &k.usual {
        Some(usual) => fill(
            "notice.kept-usual",
            &[("what", &what), ("yours", &yours), ("usual", &fabric_name(k.path, usual))],
        ),
        None => fill("notice.kept", &[("what", &what), ("yours", &yours)]),
    }
}

/// A notice in words.
pub fn notice(n: &Notice) -> String {
    match n {
        Notice::Reset => t("notice.reset").into(),
        Notice::Imported { name } => fill("notice.imported", &[("name", name)]),
        Notice::ImportRejected { name, problems } => {
            fill("notice.import-rejected", &[("name", name), ("problems", &problems.join("; "))])
        }
        Notice::LoadedPlan { title, error, miss } => {
            let loaded = fill("notice.loaded-plan", &[("title", title)]);
            let by = crate::numbers::percent(error.abs());
            let key = if *error >= 0.0 { "notice.published-slow" } else { "notice.published-fast" };
            let mut said = format!("{loaded} {}", fill(key, &[("by", &by)]));
            if !miss.is_empty() {
                said = format!("{said} {}", fill("notice.published-miss", &[("why", miss)]));
            }
            said
        }
        Notice::ChipChanged { chip, kept: list, replaced, set_aside } => {
            let mut parts = vec![fill("notice.chip-set", &[("chip", chip)])];
            if !replaced.is_empty() {
                let names: Vec<String> = replaced.iter().map(|p| in_sentence(label(p))).collect();
                parts.push(fill("notice.chip-brought", &[("what", &names.join(t("text.and")))]));
            }
            parts.extend(list.iter().map(kept));
            if *set_aside > 0 {
                parts.push(fill("notice.chip-measurements", &[("n", &set_aside.to_string())]));
            }
            parts.join(t("text.clause")) + t("text.stop")
        }
        Notice::MoeWithoutEp { model } => fill("notice.moe-without-ep", &[("model", model)]),
        Notice::Applied { label } => fill("notice.applied", &[("label", label)]),
        Notice::Comparing => t("notice.comparing").into(),
        Notice::SystemChanged { system, chip, replaced } => {
            let mut parts = vec![match chip {
                Some(chip) => fill("notice.system-chip", &[("system", system), ("chip", chip)]),
                None => fill("notice.system-set", &[("system", system)]),
            }];
            if !replaced.is_empty() {
                let names: Vec<String> = replaced.iter().map(|p| in_sentence(label(p))).collect();
                parts.push(fill("notice.system-replaced", &[("what", &names.join(t("text.and")))]));
            }
            parts.join(t("text.clause")) + t("text.stop")
        }
        Notice::Undone => t("notice.undone").into(),
        Notice::Redone => t("notice.redone").into(),
        Notice::NothingToUndo => t("notice.nothing-to-undo").into(),
        Notice::OpenedLink => t("notice.opened-link").into(),
        Notice::Removed(Removed::Pool { n }) => {
            fill("notice.pool-removed", &[("n", &n.to_string())])
        }
        Notice::Removed(Removed::Measurement { n }) => {
            fill("notice.measurement-removed", &[("n", &n.to_string())])
        }
        Notice::Removed(Removed::YearJob { n }) => {
            fill("notice.year-job-removed", &[("n", &n.to_string())])
        }
        Notice::Removed(Removed::Delivery { n }) => {
            fill("notice.delivery-removed", &[("n", &n.to_string())])
        }
        Notice::Removed(Removed::PowerCap { n }) => {
            fill("notice.power-cap-removed", &[("n", &n.to_string())])
        }
        Notice::Text(text) => text.clone(),
    }
}

/// The unit a field is shown in, from the field table, in words of the language spoken where
/// it is a word (`chips`), as written where it is a symbol (`TB/s`).
pub fn unit(path: &str) -> &'static str {
    let unit = fields::field(&table_path(path)).map_or("", |f| f.unit);
    match t(&format!("unit.{unit}")) {
        "" => unit,
        word => word,
    }
}

/// A price field's `value` (entered in dollars, as the model counts) in the site's money when
/// that is yuan (`≈ ¥1.8 M`, `≈ ¥0.576/kWh`), so a price reads as the site counts it; `None`
/// for a field not in dollars or a site counting in dollars.
pub fn in_site_money(
    path: &str,
    value: Option<f64>,
    money: crate::format::Money,
) -> Option<String> {
    let per = fields::field(&table_path(path))?.unit.strip_prefix("USD")?;
    let value = value.filter(|v| v.is_finite())?;
    (money.currency == crate::model::facility::Currency::Cny)
        .then(|| fill("form.in-site-money", &[("money", &format!("{}{per}", money.show(value)))]))
}

/// A preset's name in the language spoken (`kind` `chip`, `model`, `scale_up`, `scale_out`,
/// `switch` or `system`): its own where the catalogue gives one (`RoCE，每卡 400 Gb/s`), else as
/// published.
pub fn preset_name(kind: &str, id: &str, name: &'static str) -> &'static str {
    match t(&format!("preset.{kind}.{id}")) {
        "" => name,
        own => own,
    }
}

/// The cluster drawing's words, in the language spoken.
pub fn sketch_words() -> crate::sketch::Words {
    crate::sketch::Words {
        tiers: [t("sketch.leaf"), t("sketch.spine"), t("sketch.core")],
        pod: [t("sketch.pod"), t("sketch.pods")],
        unit: [t("sketch.unit"), t("sketch.units")],
        rack: t("sketch.racks"),
        node: t("sketch.nodes"),
        chips: t("sketch.chips"),
        domain: t("sketch.domains"),
        one_rack: t("sketch.one-rack"),
        switches: t("sketch.switches"),
        planes: t("sketch.planes"),
        rail_only: t("sketch.rail-only"),
        ocs: t("sketch.ocs"),
        more: t("sketch.more"),
        each: t("sketch.each"),
        knobs: [
            t("sketch.knob.chips-per-node"),
            t("sketch.knob.nodes-per-rack"),
            t("sketch.knob.domain"),
            t("sketch.knob.tiers"),
            t("sketch.knob.planes"),
            t("sketch.knob.oversubscription"),
        ],
        title: t("sketch.title"),
    }
}

pub use crate::text::decode_error;

/// A plan in a few words, for a legend: `NVIDIA H100 SXM5 80GB × 16,384`.
pub fn plan_short(scenario: &crate::scenario::Scenario) -> String {
    let title = scenario.title();
    let chip = title.chip.unwrap_or_else(|| t("title.custom-chip").to_string());
    // A count the judge refuses (0, a fraction) is no count of the plan shown.
    match title.chips.filter(|n| *n >= 1.0 && n.fract() == 0.0) {
        Some(n) => format!("{chip} × {}", crate::numbers::format(n)),
        None => chip,
    }
}

/// What a plan is, in a line: `NVIDIA H100 SXM5 80GB × 16,384 · NVIDIA DGX H100 · Llama 3.1
/// 405B` (the compared sides, the report's title, the phone's headline).
pub fn plan_title(scenario: &crate::scenario::Scenario) -> String {
    let title = scenario.title();
    let mut parts = vec![plan_short(scenario)];
    parts.extend(title.system);
    let model = title.model.unwrap_or_else(|| t("title.custom-model").to_string());
    parts.push(match title.model_changes.is_empty() {
        true => model,
        false => fill("title.modified-model", &[("model", &model)]),
    });
    parts.join(" · ")
}

/// What a report prints first (`data-testid="report-inputs"`): every input the estimate rests
/// on, as `(what, value)` rows in the language spoken, from the plan's names and its resolved
/// inputs (so defaults show as the values used).
pub fn report_inputs(
    scenario: &crate::scenario::Scenario,
    i: &crate::model::Inputs,
) -> Vec<(String, String)> {
    use crate::format;
    use crate::numbers::format as n;
    let title = scenario.title();
    let p = &i.parallelism;
    let f = &i.plant.facility;
    let t_ = &i.transformer;
    let option = |path: &str, code: &str| t(&format!("option.{path}.{code}")).to_string();
    let none = || t("report.custom").to_string();
    let model = match (title.model, title.model_changes.is_empty()) {
        (Some(model), false) => {
            // Each change by its label and value (`Routed experts 384`), a key without a
            // label by its path.
            let changes: Vec<String> = title
                .model_changes
                .iter()
                .map(|(path, value)| {
                    let name = match label(path) {
                        "" => path.strip_prefix("model.").unwrap_or(path),
                        name => name,
                    };
                    let value = match value.as_f64() {
                        Some(x) => crate::numbers::hint(x),
                        None => format::raw(value),
                    };
                    format!("{name} {value}")
                })
                .collect();
            fill("report.model-modified", &[("model", &model), ("keys", &changes.join(", "))])
        }
        (Some(model), true) => model,
        (None, _) => t("title.custom-model").to_string(),
    };
    let shape = fill(
        "report.shape",
        &[
            ("layers", &n(t_.n_layers as f64)),
            ("hidden", &n(t_.hidden as f64)),
            ("params", &format::count(i.transformer.params())),
        ],
    );
    let degrees = fill(
        "report.degrees",
        &[
            ("tp", &p.tensor.to_string()),
            ("pp", &p.pipeline.to_string()),
            ("dp", &n(p.data as f64)),
            ("cp", &p.context.to_string()),
            ("ep", &p.expert.to_string()),
        ],
    );
    let schedule = match p.virtual_stages {
        1 => fill("report.schedule-plain", &[("mb", &p.micro_batch.to_string())]),
        v => fill(
            "report.schedule",
            &[("mb", &p.micro_batch.to_string()), ("virtual", &v.to_string())],
        ),
    };
    let batch = fill(
        "report.batch",
        &[("sequences", &n(i.training.global_batch as f64)), ("tokens", &n(t_.seq_len as f64))],
    );
    let zero = p.sharding.stage();
    let cooling = fill(
        "report.cooling",
        &[
            ("cooling", &option("facility.cooling", fields::FACILITY_COOLING.code(f.cooling))),
            ("pue", &crate::numbers::sig3(f.pue)),
        ],
    );
    let money = format::Money::of(f);
    let prices = fill(
        "report.prices",
        &[
            ("kwh", &money.show(f.usd_per_kwh)),
            ("build", &money.show(f.build_usd_per_w * 1e6)),
            ("years", &crate::numbers::format(f.amortization_years)),
            ("cloud", &money.show(f.cloud_usd_per_chip_hour)),
        ],
    );
    let mut rows = vec![
        (t("report.model").to_string(), format!("{model} ({shape})")),
        (label("cluster.chip").to_string(), title.chip.unwrap_or_else(none)),
        (label("cluster.chips").to_string(), n(i.cluster.n_chips as f64)),
        (label("cluster.system").to_string(), title.system.unwrap_or_else(none)),
        (label("cluster.scale_up").to_string(), title.scale_up.unwrap_or_else(none)),
        (label("cluster.scale_out").to_string(), title.scale_out.unwrap_or_else(none)),
        (t("report.parallelism").to_string(), degrees),
        (t("report.schedule-label").to_string(), schedule),
        (label("training.global_batch").to_string(), batch),
        (label("training.tokens").to_string(), format::count(i.training.tokens)),
        (
            label("training.recipe").to_string(),
            option("training.recipe", fields::TRAINING_RECIPE.code(i.training.recipe)),
        ),
        (
            label("parallelism.stack").to_string(),
            option("parallelism.stack", fields::PARALLELISM_STACK.code(p.stack)),
        ),
        (
            label("parallelism.recompute").to_string(),
            option("parallelism.recompute", fields::PARALLELISM_RECOMPUTE.code(p.recompute)),
        ),
        (label("parallelism.zero").to_string(), zero.to_string()),
        (label("facility.cooling").to_string(), cooling),
        (t("report.prices-label").to_string(), prices),
        (
            label("reliability.checkpoint").to_string(),
            option(
                "reliability.checkpoint",
                fields::RELIABILITY_CHECKPOINT.code(i.reliability.checkpoint),
            ),
        ),
    ];
    if let Some(s) = i.serving {
        let ms = |x: f64| crate::numbers::sig3(x * 1e3);
        let degrees = |d: crate::model::serving::Deployment| {
            fill(
                "report.serving-degrees",
                &[("tp", &n(d.tp as f64)), ("dp", &n(d.dp as f64)), ("ep", &n(d.ep as f64))],
            )
        };
        let prefill =
            if s.disaggregated { degrees(s.prefill) } else { t("report.together").into() };
        rows.push((
            t("report.serving").to_string(),
            fill(
                "report.serving-value",
                &[
                    ("input", &n(s.input_tokens)),
                    ("output", &n(s.output_tokens)),
                    ("ttft", &ms(s.ttft_s)),
                    ("tpot", &ms(s.tpot_s)),
                    ("load", &crate::numbers::sig3(s.requests_per_s)),
                    (
                        "weights",
                        &option("serving.weights", fields::SERVING_WEIGHTS.code(s.weights)),
                    ),
                    ("kv", &option("serving.kv_cache", fields::SERVING_KV_CACHE.code(s.kv_cache))),
                    ("decode", &degrees(s.decode)),
                    ("prefill", &prefill),
                ],
            ),
        ));
    }
    if let Some(r) = i.rl {
        rows.push((
            t("report.rl").to_string(),
            fill(
                "report.rl-value",
                &[
                    ("prompts", &n(r.prompts_per_step as f64)),
                    ("samples", &n(r.samples_per_prompt as f64)),
                    ("generation", &n(r.generation_tokens)),
                    ("steps", &n(r.steps as f64)),
                ],
            ),
        ));
    }
    rows
}
