//! The user's own catalog: an entry captured from a plan applies to another and resolves, the
//! catalog round-trips through JSON, a bad file is refused whole, and a scenario that names an
//! entry resolves with `--catalog` on the command line.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::with;
use clusterplan::model::presets::units::TFLOPS;
use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::user_catalog::{CatalogError, Entry, Kind, UserCatalog};
use clusterplan::scenario::Scenario;
use serde_json::json;

/// A plan on a chip not in the catalog: 1,800 TFLOP/s BF16, 192 GB at 6 TB/s, on NVLink 5.
fn own_chip_plan() -> Scenario {
    with(&[(
        "cluster.chip",
        json!({ "name": "X1", "bf16_tflops": 1800, "fp8_tflops": 3600, "hbm_gb": 192, "hbm_tb_per_s": 6, "tdp_w": 1000 }),
    )])
    .with(paths::CLUSTER_SCALE_UP, Some(json!("nvlink5-72")))
    .with(paths::CLUSTER_SCALE_OUT, Some(json!("ib-xdr")))
}

fn catalog_with_x1() -> UserCatalog {
    let mut catalog = UserCatalog::default();
    catalog.put(Entry::capture(Kind::Chip, "X1", &own_chip_plan()).expect("a chip of its own"));
    catalog
}

#[test]
fn an_entry_captured_from_one_plan_applies_to_another() {
    let entry = Entry::capture(Kind::Chip, " X1 ", &own_chip_plan()).expect("captured");
    assert_eq!(entry.name, "X1");
    // A preset is not captured: the built-in catalog has it already.
    assert_eq!(Entry::capture(Kind::Chip, "H100", &Scenario::default_plan()), None);
    assert_eq!(Entry::capture(Kind::Chip, "  ", &own_chip_plan()), None);

    let plan = entry.apply(&Scenario::default_plan());
    assert!(entry.in_use(&plan) && !entry.in_use(&Scenario::default_plan()));
    let inputs = plan.resolve().expect("resolves");
    assert!((inputs.cluster.chip.bf16_flops_per_s / TFLOPS - 1800.0).abs() < 1e-6);
    // The plan carries the chip whole: its link opens it without the catalog.
    let reopened = clusterplan::scenario::url::decode(&clusterplan::scenario::url::encode(&plan))
        .expect("decodes")
        .expect("a plan");
    assert_eq!(reopened.resolve().expect("resolves"), inputs);
}

#[test]
fn the_catalog_round_trips_through_json_and_replaces_by_name() {
    let mut catalog = catalog_with_x1();
    let model = Scenario::default_plan().with(&fields::MODEL_LAYERS, Some(json!(100)));
    catalog.put(Entry::capture(Kind::Model, "My 400B", &model).expect("a model"));
    let system = Scenario::default_plan()
        .with(paths::CLUSTER_SYSTEM, Some(json!({ "preset": "dgx-h100", "nodes_per_rack": 2 })));
    catalog.put(Entry::capture(Kind::System, "Half racks", &system).expect("a system"));
    let read = UserCatalog::parse(&catalog.to_json()).expect("reads back");
    assert_eq!(read, catalog);
    assert_eq!(read.of(Kind::Chip).count(), 1);
    // The same name again replaces the entry rather than adding one.
    catalog.put(
        Entry::capture(
            Kind::Chip,
            "X1",
            &own_chip_plan().with(&fields::CLUSTER_CHIP_HBM_GB, Some(json!(288))),
        )
        .expect("x1"),
    );
    assert_eq!(catalog.of(Kind::Chip).count(), 1);
    catalog.remove(Kind::Chip, "X1");
    assert_eq!(catalog.of(Kind::Chip).count(), 0);
}

#[test]
fn a_bad_catalog_is_refused_whole_and_says_why() {
    let bad_entry = json!({ "clusterplan_catalog": 1, "entries": [
        { "kind": "chip", "name": "ok", "fields": { "cluster.chip": { "name": "ok", "bf16_tflops": 100, "hbm_gb": 80, "hbm_tb_per_s": 3 },
            "cluster.scale_up": "nvlink4-8", "cluster.scale_out": "ib-ndr" } },
        { "kind": "chip", "name": "broken", "fields": { "cluster.chip": { "name": "broken", "bf16_tflops": -5, "hbm_gb": 80, "hbm_tb_per_s": 3 },
            "cluster.scale_up": "nvlink4-8", "cluster.scale_out": "ib-ndr" } },
    ]});
    for (text, want) in [
        ("not json".to_string(), "NotJson"),
        (json!({ "entries": [] }).to_string(), "NotACatalog"),
        (json!({ "clusterplan_catalog": 9, "entries": [] }).to_string(), "Newer"),
        (json!({ "clusterplan_catalog": 1, "entries": [{ "kind": "chip" }] }).to_string(), "Incomplete"),
        (json!({ "clusterplan_catalog": 1, "entries": [{ "kind": "switch", "name": "s", "fields": { "model": {} } }] }).to_string(), "ForeignFields"),
        (bad_entry.to_string(), "BadEntry"),
    ] {
        let error = UserCatalog::parse(&text).expect_err(want);
        assert!(format!("{error:?}").starts_with(want), "{error:?}");
        assert!(!error.to_string().is_empty());
    }
    match UserCatalog::parse(&bad_entry.to_string()) {
        Err(CatalogError::BadEntry { name, errors }) => {
            assert_eq!(name, "broken");
            assert!(errors.iter().any(|e| e.field == "cluster.chip.bf16_tflops"), "{errors:?}");
        }
        other => panic!("{other:?}"),
    }
}
