//! The two catalogues (`static/text/en.txt`, `static/text/zh-CN.txt`): the same keys with the
//! same placeholders, every key the code asks for present, and every typed finding and field
//! error worded in both languages.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::Path;

use clusterplan::model::presets;
use clusterplan::scenario::paths;
use clusterplan::scenario::{fields, Scenario};
use clusterplan::text::{self, Catalogue, Lang};

fn catalogue(lang: Lang) -> Catalogue {
    let source = match lang {
        Lang::En => clusterplan::catalogue_source!(En),
        Lang::ZhCn => clusterplan::catalogue_source!(ZhCn),
    };
    Catalogue::parse(source).unwrap_or_else(|e| panic!("{}: {e}", lang.code()))
}

/// The `{name}`s of a text.
fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
}

#[test]
fn both_languages_have_the_same_keys_and_placeholders() {
    let (en, zh) = (catalogue(Lang::En), catalogue(Lang::ZhCn));
    let en_keys: BTreeSet<_> = en.keys().collect();
    let zh_keys: BTreeSet<_> = zh.keys().collect();
    let missing: Vec<_> = en_keys.difference(&zh_keys).collect();
    let extra: Vec<_> = zh_keys.difference(&en_keys).collect();
    assert!(missing.is_empty(), "missing in zh-CN: {missing:?}");
    assert!(extra.is_empty(), "only in zh-CN: {extra:?}");
    for key in en.keys() {
        let (e, z) = (en.get(key).unwrap_or(""), zh.get(key).unwrap_or(""));
        assert_eq!(placeholders(e), placeholders(z), "{key}: {e:?} / {z:?}");
        assert!(!z.trim().is_empty() || e.trim().is_empty(), "{key} is empty in zh-CN");
    }
}

/// Every string literal in the code that looks like a catalogue key.
fn keys_in_code() -> BTreeSet<String> {
    const PREFIXES: &[&str] = &[
        "about.",
        "accuracy.",
        "action.",
        "bom.",
        "card.",
        "chart.",
        "compare.",
        "copy.",
        "error.",
        "export.",
        "fit.",
        "fix.",
        "form.",
        "format.",
        "help.",
        "import.",
        "job.",
        "label.",
        // Not "launch.": a launch's files are named `launch.sh`.
        "launch.cannot.",
        "launch.cop",
        "launch.f",
        "launch.group.",
        "launch.hint",
        "launch.layout",
        "launch.release",
        "launch.title",
        "link.",
        "measure.",
        "notice.",
        "ordinal.",
        "page.",
        "phase.",
        "plan.",
        "report.",
        "results.",
        "save.",
        "search.",
        "size.",
        "sketch.",
        "summary.",
        "sure.",
        "tables.",
        "text.",
        "unit.",
        "warn.",
    ];
    let mut out = BTreeSet::new();
    for (_, code) in sources() {
        for literal in code.split('"').skip(1).step_by(2) {
            let looks_like_key = PREFIXES.iter().any(|p| literal.starts_with(p))
                && literal.len() > 4
                && literal.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
                && !literal.ends_with('.');
            if looks_like_key {
                out.insert(literal.to_string());
            }
        }
    }
    out
}

/// Every Rust file under `src/`, as its path from the package root (`src/ui/page.rs`) and its
/// text.
fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path.strip_prefix(root).expect("under root").to_string_lossy();
                let code = std::fs::read_to_string(&path).expect("read");
                out.push((name.replace('\\', "/"), code));
            }
        }
    }
    out
}

#[test]
fn every_key_the_code_asks_for_is_in_both_catalogues() {
    let (en, zh) = (catalogue(Lang::En), catalogue(Lang::ZhCn));
    let mut asked = keys_in_code();
    assert!(asked.len() > 200, "found only {} keys in the code", asked.len());
    // Keys made from data: field labels, plot names, parts and step parts.
    for path in [
        "cluster.chip",
        "cluster.chips",
        "cluster.chips_per_node",
        "cluster.scale_up_domain",
        "cluster.scale_up",
        "cluster.scale_out",
        "cluster.system",
        "cluster.fabric.switch",
        "cluster.fabric.planes",
        "cluster.fabric.oversubscription",
        "parallelism.zero",
    ] {
        asked.insert(format!("label.{path}"));
    }
    for kind in clusterplan::charts::Kind::ALL {
        asked.insert(format!("plot.{}.aria", kind.id()));
    }
    // Each gap the model is known to have, in a line the search shows.
    for gap in clusterplan::validation::gaps::GAPS {
        asked.insert(gap.key());
    }
    for (path, codes) in clusterplan::scenario::fields::choices() {
        for code in codes {
            asked.insert(format!("option.{path}.{code}"));
        }
    }
    let e = clusterplan::model::estimate(&Scenario::default_plan().resolve().expect("resolves"));
    let f = &e.facility;
    let ids = (e.breakdown.parts().into_iter().map(|(id, _)| id))
        .chain(e.memory.parts().into_iter().map(|(id, _)| id))
        .chain(f.power.parts().into_iter().map(|(id, _)| id))
        .chain(f.cost.run_parts().into_iter().map(|(id, _)| id))
        .chain(f.bom_rows().into_iter().flat_map(|(item, tier, _)| [item, tier]));
    for id in ids.filter(|id| !id.is_empty()) {
        asked.insert(format!("part.{id}"));
    }
    let missing: Vec<_> =
        asked.iter().filter(|k| en.get(k).is_none() || zh.get(k).is_none()).collect();
    assert!(missing.is_empty(), "keys the code uses but a catalogue lacks: {missing:?}");
}

/// The words only the search worker speaks (`<lang>.worker.txt`) stay out of the page's
/// catalogue, so no code the page runs may ask for them: only the worker's wording (every
/// file of `app/sections/` but the comparison's figures), the jobs and reports it makes, sizing, and the search's `NoPlan`
/// in `text.rs`. Keys made from data (`plan.recompute.{mode}`, `accuracy.head.{column}`) are
/// looked for by their prefix.
#[test]
fn the_words_only_the_worker_speaks_are_not_asked_for_by_the_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let worker = [
        "src/charts.rs",
        "src/charts/failures.rs",
        "src/charts/svg.rs",
        "src/charts/sketch.rs",
        "src/charts/timeline.rs",
        "src/charts/tornado.rs",
        "src/charts/load.rs",
        "src/charts/year.rs",
        "src/app/jobs.rs",
        "src/report.rs",
        "src/report/year.rs",
        "src/sizing.rs",
        "src/text.rs",
    ];
    let mut keys: Vec<String> = Vec::new();
    for lang in ["en", "zh-CN"] {
        let source = std::fs::read_to_string(root.join(format!("static/text/{lang}.worker.txt")))
            .expect("the worker's words");
        let own: Vec<String> = source
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once(" = ").map(|(k, _)| k.to_string()))
            .collect();
        assert!(own.len() > 50, "{lang}: {} worker keys", own.len());
        keys.extend(own);
    }
    let prefixes = ["\"plan.recompute.{", "\"accuracy.head.{"];
    for (name, code) in sources() {
        // The comparison's figures are laid out by the page itself.
        let worded_by_the_worker =
            name.starts_with("src/app/sections/") && name != "src/app/sections/compare.rs";
        if worker.contains(&name.as_str()) || worded_by_the_worker || name.starts_with("src/bin/") {
            continue;
        }
        for key in &keys {
            assert!(!code.contains(&format!("\"{key}\"")), "{name} asks for the worker's {key}");
        }
        for prefix in prefixes {
            assert!(!code.contains(prefix), "{name} makes keys {prefix}…}} the page lacks");
        }
    }
}

/// Every field has its label in both languages (the form and messages name it by it), and a
/// plain field, which the form offers and the docs describe from the table alone, its help.
#[test]
fn every_field_is_worded_in_both_languages() {
    let (en, zh) = (catalogue(Lang::En), catalogue(Lang::ZhCn));
    for field in fields::FIELDS.iter().filter(|f| f.path != "version") {
        let key = format!("label.{}", field.path);
        assert!(en.get(&key).is_some() && zh.get(&key).is_some(), "{key}");
        if field.place.is_some() {
            let key = format!("help.{}", field.path);
            assert!(en.get(&key).is_some() && zh.get(&key).is_some(), "{key}");
        }
    }
}

/// A value beyond a field's range is refused in words with the bound and its unit, in both
/// languages, every placeholder filled (`{n} ms` was once shown as is).
#[test]
fn every_bound_is_worded_with_its_unit() {
    use clusterplan::scenario::{InputError, Problem};
    for lang in Lang::ALL {
        text::set_lang(lang);
        for field in fields::FIELDS {
            for problem in
                [Problem::TooSmall { min: field.min }, Problem::TooLarge { max: field.max }]
            {
                let said = text::input_error(&InputError::new(field.path, problem));
                assert!(
                    !said.contains('{') && !said.contains('}'),
                    "{lang:?} {}: {said}",
                    field.path
                );
            }
        }
    }
    text::set_lang(Lang::En);
}

#[test]
fn findings_and_field_errors_are_worded_in_both_languages() {
    let chips = presets::CHIPS.len();
    let bad = [
        ("cluster.chips", serde_json::json!(10_000)),
        ("parallelism.tp", serde_json::json!(-3)),
        ("parallelism.pp", serde_json::json!("1,5")),
        ("model.kv_heads", serde_json::json!(7)),
        ("cluster.chip", serde_json::json!("no-such-chip")),
        ("cluster.fabric.tiers", serde_json::json!(1)),
        ("parallelism.zero", serde_json::json!(5)),
    ];
    for lang in Lang::ALL {
        text::set_lang(lang);
        for (path, value) in &bad {
            let s = Scenario::default_plan().with_at(path, Some(value.clone()));
            let errors = s.resolve().expect_err(path);
            for e in errors {
                let words = text::input_error(&e);
                assert!(!words.is_empty() && !words.contains('{'), "{lang:?} {path}: {words:?}");
                for fix in &e.fixes {
                    assert!(!fix.label.to_string().is_empty());
                }
            }
        }
        // A plan with many findings: every one is worded.
        let s = Scenario::default_plan()
            .with(&fields::PARALLELISM_TP, Some(serde_json::json!(3)))
            .with(&fields::PARALLELISM_PP, Some(serde_json::json!(200)))
            .with(&fields::PARALLELISM_DP, Some(serde_json::json!(1)))
            .with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(1200)));
        let e = clusterplan::model::estimate(&s.resolve().expect("resolves"));
        assert!(e.problems.len() + e.warnings.len() >= 2);
        for w in e.problems.iter().chain(&e.warnings).chain(&e.notes) {
            let words = w.to_string();
            assert!(!words.is_empty() && !words.contains('{'), "{lang:?}: {words:?}");
        }
    }
    text::set_lang(Lang::En);
    assert!(chips > 10);
}

#[test]
fn chinese_words_are_chinese() {
    let (en, zh) = (catalogue(Lang::En), catalogue(Lang::ZhCn));
    let mut same = Vec::new();
    for key in en.keys() {
        let (e, z) = (en.get(key).unwrap_or(""), zh.get(key).unwrap_or(""));
        // A sentence left in English (more than two words, no Chinese character).
        let words = e
            .split_whitespace()
            .filter(|w| !w.contains('{') && w.chars().filter(char::is_ascii_alphabetic).count() > 1)
            .count();
        if words > 2 && !z.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
            same.push(key);
        }
    }
    assert!(same.is_empty(), "left in English in zh-CN: {same:?}");
}

/// The page's own build leaves the catalog's sources out (`--features page`) and loads them
/// from `static/text/sources.txt` once it is drawn; the file says what the presets say.
#[test]
fn the_sources_file_is_current() {
    let expected = presets::sources_catalogue();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/text/sources.txt");
    if std::env::var_os("UPDATE_TEXT").is_some() {
        std::fs::write(&path, &expected).expect("write static/text/sources.txt");
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(actual == expected, "static/text/sources.txt is stale: run with UPDATE_TEXT=1");
    let parsed = Catalogue::parse(Box::leak(actual.into_boxed_str())).expect("a catalogue");
    for chip in presets::CHIPS {
        assert_eq!(parsed.get(&format!("source.chip.{}", chip.id)), Some(chip.source.trim()));
        assert!(!chip.source.trim().is_empty(), "{} has a source", chip.id);
    }
    assert!(parsed.get("source.model.llama3-405b").is_some_and(|s| s.contains("arXiv")));
}

/// What the page says after an edit is worded natively (`app::words`), in both languages: a
/// chip change names the chip, what came with it and the measurements made on another chip.
#[test]
fn the_page_words_a_chip_change_in_both_languages() {
    use clusterplan::app::state::Notice;
    let change = Notice::ChipChanged {
        chip: "H200".into(),
        kept: Vec::new(),
        replaced: vec!["cluster.scale_out"],
        set_aside: 2,
    };
    text::set_lang(Lang::En);
    let en = clusterplan::app::words::notice(&change);
    text::set_lang(Lang::ZhCn);
    let zh = clusterplan::app::words::notice(&change);
    text::set_lang(Lang::En);
    assert_eq!(
        en,
        "Chip set to H200; its own scale-out network came with it; your measurements (2) were \
         made on another chip: they are kept for it and not applied to this one."
    );
    assert!(
        zh.starts_with("芯片已设为 H200") && zh.contains("横向扩展网络") && zh.ends_with('。'),
        "{zh}"
    );
}

/// A printed report lists every input the estimate rests on by name, defaults included, never
/// by id, in both languages.
#[test]
fn a_report_lists_its_inputs_by_name() {
    use clusterplan::app::words::report_inputs;
    let scenario = Scenario::default_plan();
    let inputs = scenario.resolve().expect("resolves");
    for lang in [Lang::En, Lang::ZhCn] {
        text::set_lang(lang);
        let rows = report_inputs(&scenario, &inputs);
        text::set_lang(Lang::En);
        let all: String = rows.iter().map(|(what, value)| format!("{what}: {value}\n")).collect();
        assert!(rows.iter().all(|(what, value)| !what.is_empty() && !value.is_empty()), "{all}");
        for want in [
            "Llama 3.1 405B",
            "NVIDIA H100 SXM5 80GB",
            "16,384",
            "NVIDIA DGX H100",
            "TP 8",
            "PP 16",
            "DP 64",
            "CP 2",
            "EP 1",
            "PUE 1.3",
            "0.0806",
        ] {
            assert!(all.contains(want), "{lang:?} lacks {want}:\n{all}");
        }
        for id in ["h100-sxm", "dgx-h100", "llama3-405b", "roce-400g", "megatron-core"] {
            assert!(!all.contains(id), "{lang:?} names {id}:\n{all}");
        }
    }
    // A modified preset names what was changed.
    let variant = scenario
        .with(paths::MODEL, Some(serde_json::json!({ "preset": "llama3-405b", "seq_len": 4096 })));
    let inputs = variant.resolve().expect("resolves");
    let rows = report_inputs(&variant, &inputs);
    assert!(
        rows[0].1.starts_with("Llama 3.1 405B, modified: Sequence length 4,096 ("),
        "{:?}",
        rows[0]
    );
    let variant = scenario.with(
        paths::MODEL,
        Some(serde_json::json!({ "preset": "deepseek-v3", "moe": { "experts": 384, "top_k": 8 } })),
    );
    let rows = report_inputs(&variant, &variant.resolve().expect("resolves"));
    let modified = "DeepSeek-V3 671B, modified: Routed experts 384, Experts per token 8 (";
    assert!(rows[0].1.starts_with(modified), "{:?}", rows[0]);
}

/// A further pool's and a site's fields are named and measured as the table's own.
#[test]
fn list_entries_take_their_fields_words() {
    use clusterplan::app::words::{label, unit};
    assert_eq!(label("cluster.pools.1.chips"), label("cluster.chips"));
    assert!(!label("cluster.pools.1.chips").is_empty());
    assert_eq!(unit("cluster.pools.0.chips"), unit("cluster.chips"));
    assert_eq!(label("sites.0.wan_gbit_per_s"), label("sites.wan_gbit_per_s"));
    assert_eq!(unit("sites.2.wan_gbit_per_s"), "Gb/s");
}

/// A preset's name in Chinese (`preset.<kind>.<id>`) is of a preset that exists, under the
/// name English leaves as published (empty), and keeps the figures of that name.
#[test]
fn preset_names_in_chinese_are_of_presets_that_exist() {
    let (en, zh) = (catalogue(Lang::En), catalogue(Lang::ZhCn));
    let mut named = 0;
    for key in zh.keys().filter(|k| k.starts_with("preset.")) {
        let (kind, id) = key["preset.".len()..].split_once('.').expect("preset.<kind>.<id>");
        let published = match kind {
            "chip" => presets::chip(id).map(|p| p.name),
            "model" => presets::transformer(id).map(|p| p.name),
            "scale_up" => presets::scale_up(id).map(|p| p.name),
            "scale_out" => presets::scale_out(id).map(|p| p.name),
            "switch" => presets::switch(id).map(|p| p.name),
            "system" => presets::system(id).map(|p| p.name),
            _ => None,
        };
        let published = published.unwrap_or_else(|| panic!("{key} names no preset"));
        assert_eq!(en.get(key), Some(""), "{key}: English keeps the published name");
        let own = zh.get(key).unwrap_or_default();
        // The numbers of each, in any order (`4 × 100 Gb/s per 8-GPU node` says 8, 4, 100).
        let digits = |s: &'static str| {
            let mut numbers: Vec<&str> =
                s.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty()).collect();
            numbers.sort_unstable();
            numbers
        };
        assert_eq!(digits(own), digits(published), "{key}: {own} / {published}");
        named += 1;
    }
    assert!(named > 50, "{named}");
}
