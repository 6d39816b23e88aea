//! The scenario format: every bad field named, presets resolve, JSON round trips, versions.
#![cfg(not(target_arch = "wasm32"))]

use clusterplan::model::presets;
use clusterplan::scenario::{fields, paths, ParseError, Problem, Scenario};
use serde_json::{json, Value};

fn scenario(value: Value) -> Scenario {
    Scenario::from_value(value).expect("parses")
}

/// Each error as `path: what is wrong`, so tests can name the field by its key.
fn errors(value: Value) -> Vec<String> {
    match scenario(value).resolve() {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|e| format!("{}: {}", e.field, clusterplan::text::input_error(e)))
            .collect(),
    }
}

fn example() -> Value {
    json!({
        "model": { "preset": "gpt3-175b" },
        "training": { "tokens": 3.0e11, "global_batch": 1536, "recipe": "megatron-bf16" },
        "cluster": { "chip": "a100-80gb", "chips": 512, "chips_per_node": 8, "scale_out": "ib-hdr" },
        "parallelism": { "tp": 8, "pp": 8, "dp": 8, "ep": 1, "cp": 1, "micro_batch": 2,
                         "virtual_stages": 1, "zero": 1, "recompute": "full", "sequence_parallel": false }
    })
}

#[test]
fn the_documented_example_resolves() {
    let inputs = scenario(example()).resolve().expect("example resolves");
    assert_eq!(inputs.transformer.n_layers, 96);
    assert_eq!(inputs.parallelism.tensor, 8);
    assert_eq!(inputs.cluster.n_chips, 512);
}

#[test]
fn every_bad_field_is_named_at_once() {
    let mut bad = example();
    bad["parallelism"]["tp"] = json!(-2);
    bad["parallelism"]["pp"] = json!("abc");
    bad["training"]["global_batch"] = json!(2.5);
    bad["cluster"]["chips"] = json!("");
    bad["parallelism"]["recompute"] = json!("sometimes");
    bad["parallelism"]["tpp"] = json!(4);
    let errors = errors(bad);
    let has = |field: &str, words: &str| {
        errors.iter().any(|e| e.starts_with(&format!("{field}: ")) && e.contains(words))
    };
    assert!(has("parallelism.tp", "at least 1"), "{errors:?}");
    assert!(has("parallelism.pp", "not a number"), "{errors:?}");
    assert!(has("training.global_batch", "whole number"), "{errors:?}");
    assert!(has("cluster.chips", "empty"), "{errors:?}");
    assert!(has("parallelism.recompute", "one of none, selective, full"), "{errors:?}");
    assert!(has("parallelism.tpp", "unknown key"), "{errors:?}");
    assert_eq!(errors.len(), 6, "{errors:?}");
}

/// An unknown preset is named with the three known ids nearest it, not the whole catalogue.
#[test]
fn unknown_presets_name_the_nearest_known_ones() {
    let mut bad = example();
    bad["cluster"]["chip"] = json!("h900-sxm");
    bad["model"]["preset"] = json!("llama3-406b");
    let errors = errors(bad);
    let said = |start: &str| errors.iter().find(|e| e.starts_with(start)).expect(start).clone();
    let chip = said("cluster.chip: unknown chip 'h900-sxm'");
    let nearest = chip.rsplit_once("nearest known: ").expect("nearest").1;
    assert_eq!(nearest.split(", ").count(), 3, "{chip}");
    assert!(nearest.starts_with("h100-sxm") && !chip.contains("ascend"), "{chip}");
    let model = said("model.preset: unknown model 'llama3-406b'");
    assert!(model.contains("nearest known: llama3-405b"), "{model}");
}

#[test]
fn missing_required_fields_are_named() {
    let errors = errors(json!({ "model": { "layers": 2 } }));
    for field in [
        "model.hidden",
        "model.heads",
        "model.ffn",
        "model.vocab",
        "model.seq_len",
        "training.tokens",
        "training.global_batch",
        "cluster.chip",
        "cluster.chips",
    ] {
        assert!(
            errors.iter().any(|e| e == &format!("{field}: is required")),
            "{field}: {errors:?}"
        );
    }
}

#[test]
fn every_preset_combination_resolves() {
    for model in presets::TRANSFORMERS {
        for chip in presets::CHIPS {
            let s = scenario(json!({
                "model": { "preset": model.id },
                "training": { "tokens": 1e12, "global_batch": 1024 },
                "cluster": { "chip": chip.id, "chips": 1024 },
                "parallelism": { "tp": 8, "pp": 4 }
            }));
            let inputs =
                s.resolve().unwrap_or_else(|e| panic!("{} on {}: {e:?}", model.id, chip.id));
            assert_eq!(inputs.parallelism.data, 32, "dp defaults to chips / (tp x pp x cp)");
        }
    }
}

#[test]
fn every_preset_reference_exists_and_ids_are_unique() {
    for chip in presets::CHIPS {
        assert!(
            presets::scale_up(chip.scale_up).is_some(),
            "{}: scale-up {}",
            chip.id,
            chip.scale_up
        );
        assert!(
            presets::scale_out(chip.scale_out).is_some(),
            "{}: scale-out {}",
            chip.id,
            chip.scale_out
        );
        assert!(!chip.source.is_empty(), "{} has a source", chip.id);
        let ok = chip
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.');
        assert!(ok, "{} is lowercase and hyphenated", chip.id);
    }
    let mut ids: Vec<&str> = presets::CHIPS.iter().map(|p| p.id).collect();
    ids.extend(presets::SCALE_UP.iter().map(|p| p.id));
    ids.extend(presets::SCALE_OUT.iter().map(|p| p.id));
    ids.extend(presets::TRANSFORMERS.iter().map(|p| p.id));
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "preset ids are unique");
    assert!(presets::CHIPS.len() >= 20, "at least 20 accelerators");
}

#[test]
fn the_catalog_has_every_required_accelerator() {
    for id in [
        "a100-40gb",
        "a100-80gb",
        "a800-80gb",
        "h100-sxm",
        "h800",
        "h20",
        "h200",
        "b200",
        "gb200",
        "l20",
        "l40s",
        "mi300x",
        "mi325x",
        "gaudi2",
        "gaudi3",
        "tpu-v5p",
        "ascend-910b",
        "ascend-910c",
        "mtt-s4000",
        "mlu370-x8",
        "br100",
    ] {
        assert!(presets::chip(id).is_some(), "{id} is in the catalog");
    }
    let unverified = presets::chip("ascend-910b").map(|p| p.unverified).unwrap_or(&[]);
    assert!(unverified.contains(&"bf16_flops_per_s"), "a disputed figure stays marked unverified");
}

#[test]
fn a_custom_chip_can_be_described() {
    let mut s = example();
    s["cluster"] = json!({
        "chip": { "name": "NextGen", "bf16_tflops": 2000, "hbm_gb": 288, "hbm_tb_per_s": 8 },
        "chips": 512,
        "scale_up": { "bandwidth_gb_per_s": 1800, "domain": 72 },
        "scale_out": { "gbit_per_s": 800 }
    });
    let inputs = scenario(s).resolve().expect("custom chip resolves");
    assert_eq!(inputs.cluster.chip.bf16_flops_per_s, 2000e12);
    assert_eq!(inputs.cluster.chip.hbm_bytes, 288e9);
    assert_eq!(inputs.cluster.scale_up.domain_size, 72);
    assert_eq!(
        inputs.cluster.scale_up.link.bytes_per_s, 900e9,
        "datasheet bandwidth is both directions"
    );
    assert_eq!(inputs.cluster.scale_out.bytes_per_s, 100e9);
}

#[test]
fn a_preset_chip_can_be_overridden() {
    let mut s = example();
    s["cluster"]["chip"] = json!({ "preset": "h100-sxm", "hbm_gb": 96 });
    let inputs = scenario(s).resolve().expect("override resolves");
    assert_eq!(inputs.cluster.chip.hbm_bytes, 96e9);
    assert_eq!(
        inputs.cluster.chip.bf16_flops_per_s,
        presets::chip("h100-sxm").map_or(0.0, |p| p.chip.bf16_flops_per_s)
    );
}

#[test]
fn json_round_trips() {
    for value in [example(), serde_json::to_value(Scenario::default_plan()).expect("serializes")] {
        let s = scenario(value);
        let again = Scenario::parse_many(&s.to_json()).expect("reparses").remove(0);
        assert_eq!(s, again);
        assert_eq!(s.resolve(), again.resolve());
    }
}

#[test]
fn arrays_parse_and_non_objects_do_not() {
    let two = format!("[{}, {}]", example(), example());
    assert_eq!(Scenario::parse_many(&two).map(|v| v.len()), Ok(2));
    assert!(matches!(Scenario::parse_many("42"), Err(ParseError::Syntax(_))));
    assert!(matches!(Scenario::parse_many("{ not json"), Err(ParseError::Syntax(_))));
    assert!(matches!(Scenario::parse_many("[1, 2]"), Err(ParseError::Syntax(_))));
}

#[test]
fn a_future_version_is_refused_with_its_number() {
    let mut s = example();
    s["version"] = json!(99);
    match Scenario::from_value(s) {
        Err(ParseError::FutureVersion(99)) => {}
        other => panic!("expected a future-version error, got {other:?}"),
    }
}

#[test]
fn moe_can_be_added_to_and_removed_from_a_preset() {
    let mut s = example();
    s["model"] = json!({ "preset": "mixtral-8x7b", "moe": null });
    assert!(scenario(s.clone()).resolve().expect("dense mixtral").transformer.moe.is_none());
    s["model"] = json!({ "preset": "llama3-8b", "moe": { "experts": 8, "top_k": 2 } });
    let moe =
        scenario(s.clone()).resolve().expect("moe llama").transformer.moe.expect("has experts");
    assert_eq!((moe.n_experts, moe.top_k, moe.expert_ffn), (8, 2, 14336));
    s["model"]["moe"]["top_k"] = json!(9);
    assert!(errors(s).iter().any(|e| e.starts_with("model.moe.top_k")));
}

#[test]
fn an_unknown_chip_is_one_error_not_three() {
    let mut bad = example();
    bad["cluster"]["chip"] = json!("nope");
    let errors = errors(bad);
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn a_single_replica_defaults_to_no_sharding() {
    let mut s = example();
    s["cluster"]["chips"] = json!(64);
    s["parallelism"] = json!({ "tp": 8, "pp": 8 });
    let inputs = scenario(s).resolve().expect("resolves");
    assert_eq!(inputs.parallelism.data, 1);
    assert_eq!(inputs.parallelism.sharding, clusterplan::model::Sharding::None);
}

/// `docs/scenario.md`'s range table is generated from the field table; `UPDATE_DOCS=1`
/// rewrites it. Every key in the field table is also described in the reference above it.
#[test]
fn the_documented_ranges_follow_the_field_table() {
    use clusterplan::scenario::fields;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenario.md");
    let doc = std::fs::read_to_string(path).expect("docs/scenario.md");
    let start =
        "<!-- ranges: generated from src/scenario/fields.rs; tests/it/scenario.rs checks it -->\n";
    let end = "<!-- end of ranges -->";
    let (Some(a), Some(b)) = (doc.find(start), doc.find(end)) else { panic!("range markers") };
    let expected = format!("{}{start}{}{}", &doc[..a], fields::markdown(), &doc[b..]);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).expect("write docs/scenario.md");
    }
    assert!(doc == expected, "docs/scenario.md's range table is stale: run with UPDATE_DOCS=1");
    for field in fields::FIELDS {
        let key = field.path.rsplit('.').next().unwrap_or(field.path);
        assert!(doc[..a].contains(&format!("| `{key}` |")), "{} is not described", field.path);
    }
}

/// The rows of the plain fields in `docs/scenario.md`'s section tables are generated from the
/// field table and the fields' help words (`UPDATE_DOCS=1` rewrites them): they close their
/// section's first table, in the table's order.
#[test]
fn the_documented_plain_fields_follow_the_field_table() {
    use clusterplan::scenario::fields;
    use clusterplan::text::Catalogue;
    let en = Catalogue::parse(clusterplan::catalogue_source!(En)).expect("catalogue");
    let help = |f: &fields::Field| {
        let key = format!("help.{}", f.path);
        en.get(&key).unwrap_or_else(|| panic!("{key} is missing")).to_string()
    };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenario.md");
    let doc = std::fs::read_to_string(path).expect("docs/scenario.md");
    let mut expected = doc.clone();
    for section in ["model", "training", "cluster", "parallelism", "facility", "reliability"] {
        let rows = fields::plain_rows(section, help);
        let heading = format!("### `{section}`\n");
        let start = expected.find(&heading).unwrap_or_else(|| panic!("no {heading}"));
        let table = start + expected[start..].find("\n|").expect("a table") + 1;
        let end = table + expected[table..].find("\n\n").expect("the table's end") + 1;
        let plain = |line: &&str| {
            let key = line.split('`').nth(1).unwrap_or("");
            fields::is_plain(&format!("{section}.{key}"))
        };
        let kept: String =
            expected[table..end].lines().filter(|l| !plain(l)).map(|l| format!("{l}\n")).collect();
        expected.replace_range(table..end, &format!("{kept}{rows}"));
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).expect("write docs/scenario.md");
    }
    assert!(doc == expected, "docs/scenario.md's plain fields are stale: run with UPDATE_DOCS=1");
}

#[test]
fn every_unverified_figure_names_a_field() {
    use clusterplan::scenario::fields;
    for chip in presets::CHIPS {
        for name in chip.unverified {
            let path = fields::chip_figure_path(name);
            assert!(path.and_then(fields::field).is_some(), "{}: unverified {name}", chip.id);
        }
    }
}

/// `describe` is the inverse of `resolve`: every catalog chip and fabric, written out as a
/// custom chip, resolves to exactly the figures of the preset.
#[test]
fn every_preset_written_out_resolves_to_itself() {
    use clusterplan::scenario::{describe, leaves};
    let base = Scenario::default_plan().resolve().expect("default resolves");
    for chip in presets::CHIPS {
        let up = presets::scale_up(chip.scale_up).expect("scale-up preset").scale_up;
        let out = presets::scale_out(chip.scale_out).expect("scale-out preset").link;
        let cluster = clusterplan::model::Cluster {
            chip: chip.chip,
            scale_up: up,
            scale_out: out,
            ..base.cluster
        };
        let mut scenario = Scenario::default_plan();
        for (path, value) in describe::custom_chip(&cluster) {
            scenario = scenario.with(path, Some(value));
        }
        let resolved = scenario.resolve().unwrap_or_else(|e| panic!("{}: {e:?}", chip.id));
        let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(b.abs()),
            (a, b) => a == b,
        };
        let got = &resolved.cluster;
        for leaf in &leaves::CHIP {
            let (x, y) = ((leaf.get)(&got.chip), (leaf.get)(&chip.chip));
            assert!(close(x, y), "{} {}: {x:?} != {y:?}", chip.id, leaf.field.path);
        }
        for leaf in &leaves::SCALE_UP {
            let (x, y) = ((leaf.get)(&got.scale_up), (leaf.get)(&up));
            assert!(close(x, y), "{} {}: {x:?} != {y:?}", chip.id, leaf.field.path);
        }
        for leaf in &leaves::SCALE_OUT {
            let (x, y) = ((leaf.get)(&got.scale_out), (leaf.get)(&out));
            assert!(close(x, y), "{} {}: {x:?} != {y:?}", chip.id, leaf.field.path);
        }
    }
}

/// Fixed defaults live in the field table only (`resolve` asks them through `fields::fixed!`,
/// which does not compile for a field without one), and the reference tables of
/// `docs/scenario.md` state the same value.
#[test]
fn fixed_defaults_come_from_the_field_table_and_match_the_docs() {
    use clusterplan::scenario::fields::{self, Fallback, Kind};
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/scenario.md")).expect("docs");
    for field in fields::FIELDS {
        let Fallback::Fixed(x) = field.default else { continue };
        let key = field.path.rsplit('.').next().unwrap_or(field.path);
        let expected = match field.kind {
            Kind::Flag if x != 0.0 => "`true`".to_string(),
            Kind::Flag => "`false`".to_string(),
            _ => clusterplan::numbers::format(x),
        };
        let documented = doc
            .lines()
            .filter(|l| l.starts_with(&format!("| `{key}` |")))
            .any(|l| l.split('|').nth(3).is_some_and(|cell| cell.trim().starts_with(&expected)));
        assert!(documented, "docs/scenario.md should give {} the default {expected}", field.path);
    }
}

/// Each field's unit conversion is the one place a scenario value becomes the model's: it
/// inverts exactly enough to read back what it wrote, and the datasheet conventions hold
/// (TFLOP/s in FLOP/s; a scale-up bandwidth quoted for both directions is twice one's).
#[test]
fn each_field_converts_its_unit_once_and_back() {
    use clusterplan::scenario::fields::{self, FIELDS};
    for field in FIELDS {
        for x in [field.min.max(1e-3), 1.0, 7.25, field.max.min(1e9)] {
            let back = field.from_si(field.to_si(x));
            assert!((back - x).abs() <= 1e-12 * x.abs(), "{}: {x} came back as {back}", field.path);
        }
    }
    assert_eq!(fields::CLUSTER_CHIP_BF16_TFLOPS.to_si(989.0), 989e12);
    assert_eq!(fields::CLUSTER_SCALE_UP_BANDWIDTH_GB_PER_S.to_si(900.0), 450e9);
    assert_eq!(fields::CLUSTER_SCALE_OUT_GBIT_PER_S.to_si(400.0), 50e9);
    let restart = fields::field("reliability.restart_min").expect("a field");
    assert_eq!(restart.to_si(10.0), 600.0);
    assert_eq!(fields::PARALLELISM_TP.to_si(8.0), 8.0);
}

/// A plain field needs no code of its own, so the table must be right: its default is what
/// resolve gives when the key is absent, a set value reaches the model in SI units at the
/// place the entry names, it moves the estimate, and an implausible value is refused by name.
#[test]
fn every_plain_field_reaches_the_model_and_moves_the_estimate() {
    use clusterplan::model::estimate;
    use clusterplan::scenario::fields::{self, Fallback};
    let base = Scenario::default_plan();
    let inputs = base.resolve().expect("default resolves");
    let before = format!("{:?}", estimate(&inputs));
    let mut checked = 0;
    for field in fields::FIELDS {
        let Some(place) = field.place else { continue };
        let Fallback::Fixed(default) = field.default else {
            panic!("{}: no fixed default", field.path)
        };
        assert_eq!((place.get)(&inputs), field.to_si(default), "{}: default", field.path);
        // Twice the default, or halfway to the least where that is too much; a default of
        // nothing (no power floor) is moved halfway up its range.
        let x = if default == 0.0 {
            (field.min + field.max) / 2.0
        } else if default * 2.0 <= field.max {
            default * 2.0
        } else {
            (default + field.min) / 2.0
        };
        let set = base.with_at(field.path, Some(json!(x))).resolve().expect("a plausible value");
        let got = (place.get)(&set);
        assert!((got - field.to_si(x)).abs() <= 1e-12 * got.abs(), "{}: {got}", field.path);
        assert_ne!(format!("{:?}", estimate(&set)), before, "{} moves nothing", field.path);
        let wrong = base.with_at(field.path, Some(json!(field.max * 10.0 + 1.0))).resolve();
        assert!(
            wrong.is_err_and(|e| e.iter().any(|e| e.field == field.path)),
            "{}: an implausible value is refused",
            field.path
        );
        checked += 1;
    }
    assert!(checked >= 7, "{checked} plain fields");
}

/// A plan is named by its parts' display names, never by ids.
#[test]
fn a_plan_is_named_by_its_parts() {
    use clusterplan::app::words::plan_title;
    assert_eq!(
        plan_title(&Scenario::default_plan()),
        "NVIDIA H100 SXM5 80GB × 16,384 · NVIDIA DGX H100 (8 × H100) · Llama 3.1 405B"
    );
    let ascend = Scenario::default_plan()
        .with(paths::CLUSTER_CHIP, Some(json!("ascend-910b")))
        .with(paths::CLUSTER_SYSTEM, Some(json!("atlas-800t-a2")))
        .with(&fields::CLUSTER_CHIPS, Some(json!(10240)));
    let title = plan_title(&ascend);
    assert!(
        title.starts_with("Huawei Ascend 910B × 10,240 · ") && !title.contains("ascend-910b"),
        "{title}"
    );
    let custom = Scenario::default_plan()
        .with(paths::CLUSTER_CHIP, Some(json!({ "name": "X1", "bf16_tflops": 100 })));
    assert!(plan_title(&custom).starts_with("X1 × 16,384 · "), "{}", plan_title(&custom));
    // A preset with a dimension changed is no longer the published model, and says so.
    let variant = Scenario::default_plan()
        .with(paths::MODEL, Some(json!({ "preset": "deepseek-v3", "moe": { "n_experts": 384 } })));
    assert!(
        plan_title(&variant).ends_with("DeepSeek-V3 671B (modified)"),
        "{}",
        plan_title(&variant)
    );
    assert_eq!(variant.title().model_changes, [("model.moe.n_experts".to_string(), json!(384))]);
    let published =
        Scenario::default_plan().with(paths::MODEL, Some(json!({ "preset": "deepseek-v3" })));
    assert!(plan_title(&published).ends_with("· DeepSeek-V3 671B"), "{}", plan_title(&published));
}

/// Every place code may name (`paths`, besides the table's fields and choices) is one the
/// scenario knows: a section it reads, or a key of a section that lands where it is read and
/// is never reported as unknown.
#[test]
fn every_named_place_is_one_the_scenario_knows() {
    for path in paths::ALL {
        let at = path.as_str();
        match at.split_once('.') {
            None => {
                let empty =
                    if matches!(at, "calibration" | "sites") { json!([]) } else { json!({}) };
                let s = Scenario::from_value(json!({ at: empty })).expect(at);
                assert!(s.unknown.is_empty(), "{at} is a section");
            }
            Some(_) => {
                let s = Scenario::default_plan().with(path, Some(json!("marker")));
                assert_eq!(s.get(at), Some(json!("marker")), "{at} is kept");
                let errors = s.resolve().err().unwrap_or_default();
                let unknown = errors.iter().any(|e| e.problem == Problem::UnknownKey);
                assert!(!unknown, "{at}: {errors:?}");
            }
        }
    }
    // The check tells a place it does not know.
    let s = Scenario::default_plan().with_at("cluster.nowhere", Some(json!("marker")));
    let errors = s.resolve().expect_err("an unknown key");
    assert!(errors
        .iter()
        .any(|e| e.field == "cluster.nowhere" && e.problem == Problem::UnknownKey));
}

/// The one reader of `cluster.chip`: a catalogue id however written, a chip of one's own
/// figures with what it starts from and calls itself, or none.
#[test]
fn the_chip_is_read_in_every_form() {
    use clusterplan::scenario::ChipRef;
    let chip =
        |v: Value| Scenario::from_value(json!({ "cluster": { "chip": v } })).expect("parses");
    assert_eq!(chip(json!("h100-sxm")).chip_ref(), ChipRef::Preset("h100-sxm"));
    assert_eq!(chip(json!({ "preset": "h100-sxm" })).chip_ref(), ChipRef::Preset("h100-sxm"));
    assert_eq!(
        chip(json!({ "preset": "h100-sxm", "tdp_w": 600 })).chip_ref(),
        ChipRef::Custom { preset: Some("h100-sxm"), name: None }
    );
    let own = chip(json!({ "name": "Mine", "bf16_tflops": 500 }));
    assert_eq!(own.chip_ref(), ChipRef::Custom { preset: None, name: Some("Mine") });
    assert_eq!(own.chip_ref().preset(), None);
    assert_eq!(Scenario::from_value(json!({})).expect("parses").chip_ref(), ChipRef::Default);
}
