//! The page's words: field labels and the explanation of every term, keyed by the field
//! table's paths, and the wording of typed notices, all looked up in the catalogue of the
//! language spoken (`static/text/<lang>.txt`), so a language is a file, not a hunt through the
//! components. No Yew here, so native tests read what the page says.

use crate::editor::{Kept, Notice};
use crate::model::presets;
use crate::scenario::fields;
pub use crate::text::{fill, t, warning};

/// The label of a field, by its scenario path.
pub fn label(path: &str) -> &'static str {
    t(&format!("label.{}", crate::text::field_key(path)))
}

/// What a field or result means, shown on hover and keyboard focus.
pub fn help(key: &str) -> &'static str {
    t(&format!("help.{}", crate::text::field_key(key)))
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

/// The display name of a preset id at a fabric path.
fn preset_name(path: &str, value: &serde_json::Value) -> String {
    let id = value.as_str().unwrap_or_default();
    let name = match path {
        "cluster.scale_out" => presets::scale_out(id).map(|p| p.name),
        "cluster.scale_up" => presets::scale_up(id).map(|p| p.name),
        _ => None,
    };
    name.map_or_else(|| crate::format::raw(value), str::to_string)
}

fn kept(k: &Kept) -> String {
    let yours = preset_name(k.path, &k.yours);
    let what = in_sentence(label(k.path));
    match &k.usual {
        Some(usual) => fill(
            "notice.kept-usual",
            &[("what", &what), ("yours", &yours), ("usual", &preset_name(k.path, usual))],
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
        Notice::LoadedPlan { title } => fill("notice.loaded-plan", &[("title", title)]),
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
        Notice::Undone => t("notice.undone").into(),
        Notice::NothingToUndo => t("notice.nothing-to-undo").into(),
        Notice::OpenedLink => t("notice.opened-link").into(),
        Notice::Text(text) => text.clone(),
    }
}

/// The unit a field is shown in, from the field table, in words of the language spoken where
/// it is a word (`chips`), as written where it is a symbol (`TB/s`).
pub fn unit(path: &str) -> &'static str {
    let unit = fields::field(crate::text::field_key(path)).map_or("", |f| f.unit);
    match t(&format!("unit.{unit}")) {
        "" => unit,
        word => word,
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
    match title.chips {
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
    parts.push(title.model.unwrap_or_else(|| t("title.custom-model").to_string()));
    parts.join(" · ")
}
