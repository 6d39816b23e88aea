//! The cluster drawing: its parts add up to the bill of materials at every scale, it stays the
//! same size from 64 to 100,000 chips, and every − and + it offers leads to a scenario that
//! resolves.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{with, Rng};
use clusterplan::charts;
use clusterplan::model::presets;
use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use clusterplan::sketch::{self, What, Words};
use serde_json::json;

/// Words of the test's own, so a label can only come from these parameters.
const WORDS: Words = Words {
    tiers: ["t-leaf", "t-spine", "t-core"],
    pod: ["P", "Ps"],
    unit: ["U", "Us"],
    rack: "w-racks",
    node: "w-nodes",
    chips: "w-chips",
    domain: "w-domains",
    one_rack: "w-one-rack",
    switches: "w-switches",
    planes: "w-planes",
    rail_only: "w-rail-only",
    ocs: "w-ocs",
    more: "… {n} w-more",
    each: "{n} w-chips w-each",
    knobs: ["k-cpn", "k-npr", "k-dom", "k-tiers", "k-planes", "k-over"],
    title: "w-title",
};

fn drawn(
    s: &Scenario,
) -> (sketch::Sketch, clusterplan::model::Inputs, clusterplan::model::Estimate) {
    let (inputs, estimate) = s.estimated().unwrap_or_else(|e| panic!("{e:?}"));
    let drawing = sketch::sketch(&inputs, &estimate).expect("the fabric builds");
    (drawing, inputs, estimate)
}

/// The default plan on `chips` chips, split by TP 8 and DP only, so any multiple of 8 runs.
fn plain(chips: u32) -> Scenario {
    with(&[
        ("cluster.chips", json!(chips)),
        ("parallelism.tp", json!(8)),
        ("parallelism.pp", json!(1)),
        ("parallelism.cp", json!(1)),
        ("parallelism.dp", json!(null)),
    ])
}

/// Clusters from 64 to 100,000 chips on every system preset and 1 to 3 tiers.
fn clusters() -> Vec<Scenario> {
    let mut out = vec![Scenario::default_plan()];
    for chips in [64, 1_024, 16_384, 100_000] {
        out.push(plain(chips));
    }
    for system in presets::SYSTEMS {
        for chips in [72, 9_216, 65_536] {
            out.push(
                plain(chips)
                    .with(paths::CLUSTER_SYSTEM, Some(json!(system.id)))
                    .with(&fields::CLUSTER_CHIPS_PER_NODE, None)
                    .with(&fields::CLUSTER_SCALE_UP_DOMAIN_SIZE, None),
            );
        }
    }
    out.push(plain(32_768).with(&fields::CLUSTER_FABRIC_OVERSUBSCRIPTION, Some(json!(7))));
    out.push(with(&[("cluster.fabric.planes", json!(2))]));
    // Rail-only, where a rail's endpoints are whole domains of several nodes (NVL72).
    for chips in [9_216, 65_536] {
        out.push(
            plain(chips)
                .with(paths::CLUSTER_SYSTEM, Some(json!("gb200-nvl72")))
                .with(&fields::CLUSTER_CHIPS_PER_NODE, None)
                .with(&fields::CLUSTER_SCALE_UP_DOMAIN_SIZE, None)
                .with(paths::CLUSTER_FABRIC, Some(json!({ "kind": "rail-only" }))),
        );
    }
    out
}

#[test]
fn the_parts_add_up_to_the_bill_of_materials() {
    for s in clusters() {
        let (d, inputs, estimate) = drawn(&s);
        let bom = estimate.facility.bom;
        let chips: u64 = d.groups.iter().map(|g| g.copies * g.chips).sum();
        let nodes: u64 = d.groups.iter().map(|g| g.copies * g.nodes).sum();
        assert_eq!(chips, inputs.cluster.n_chips as u64, "{s:?}");
        assert_eq!(nodes, bom.nodes);
        let leaves: u64 = d.groups.iter().map(|g| g.copies * g.leaves).sum();
        assert_eq!(leaves * bom.planes as u64, bom.leaf);
        if bom.tiers == 3 {
            let spines: u64 = d.groups.iter().map(|g| g.copies * g.spines).sum();
            assert_eq!(spines * bom.planes as u64, bom.spine);
        }
        let count = |w: What| d.parts.iter().find(|p| p.what == w).map(|p| p.count);
        assert_eq!(count(What::Nodes), Some(bom.nodes));
        assert_eq!(count(What::Chips), Some(inputs.cluster.n_chips as u64));
        for (t, n) in [bom.leaf, bom.spine, bom.core].into_iter().enumerate() {
            let expect = (t < bom.tiers as usize).then_some(n);
            assert_eq!(count(What::Switches(t)), expect, "tier {t} of {:?}", bom);
        }
        // Switch parts' power adds up to the network's, less the scale-up trays.
        let switch_w: f64 =
            d.parts.iter().filter(|p| matches!(p.what, What::Switches(_))).map(|p| p.power_w).sum();
        let trays = bom.scale_up_switches as f64 * clusterplan::model::facility::SCALE_UP_SWITCH_W;
        let network = estimate.facility.power.network_w - trays;
        assert!((switch_w - network).abs() <= 1e-6 * network.max(1.0), "{switch_w} vs {network}");
    }
}

/// The drawing as the worker draws it, in `dark` or light colours.
fn svg(d: &sketch::Sketch, dark: bool) -> String {
    charts::draw_sketch(
        &sketch::layout(d, &WORDS),
        if dark { &charts::DARK } else { &charts::LIGHT },
    )
}

#[test]
fn the_drawing_stays_small_and_well_formed_at_any_scale() {
    for s in clusters() {
        let (d, inputs, _) = drawn(&s);
        let layout = sketch::layout(&d, &WORDS);
        for dark in [false, true] {
            let svg = svg(&d, dark);
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            assert!(svg.len() < 40_000, "{} bytes for {} chips", svg.len(), inputs.cluster.n_chips);
            assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
            assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
            for bad in ["NaN", "inf<", "inf\"", "&&", "<<"] {
                assert!(!svg.contains(bad), "{bad} in {svg}");
            }
            // At most four group boxes, whatever the count.
            let total: u64 = d.groups.iter().map(|g| g.copies).sum();
            let boxes = layout.spots.iter().filter(|s| s.boxed).count();
            assert!(boxes <= 1 + 1 + 4, "{boxes} boxes for {total} groups");
            assert_eq!(total > 4, svg.contains("w-more"));
            // Every count it claims is in it.
            let chips = clusterplan::numbers::format(inputs.cluster.n_chips as f64);
            assert!(svg.contains(&format!("{chips} {}", WORDS.chips)), "{chips} missing");
            assert!(!svg.contains(" chips"), "a word not from the parameters");
        }
    }
}

/// A torus of cubes counts its optical circuit switches on the top tier.
#[test]
fn a_torus_counts_its_optical_circuit_switches() {
    let torus = with(&[
        ("cluster.chip", json!("tpu-v4")),
        ("cluster.chips", json!(4096)),
        ("cluster.fabric", json!({ "kind": "torus-ocs" })),
        ("parallelism.pp", json!(4)),
    ]);
    let (d, _, _) = drawn(&torus);
    assert_eq!(d.ocs, 48);
    assert!(svg(&d, false).contains("48 w-ocs"));
    let spots = sketch::layout(&d, &WORDS).spots;
    assert!(spots.iter().any(|s| s.info.contains("48 w-ocs")), "the narrow page's list says it");
    let (plain, _, _) = drawn(&Scenario::default_plan());
    assert!(!svg(&plain, false).contains("w-ocs"));
}

/// A rail-only network says so on its top tier, and a rail-optimised one does not.
#[test]
fn a_rail_only_network_says_so() {
    let rails = with(&[("cluster.fabric", json!({ "kind": "rail-only" }))]);
    let (d, _, _) = drawn(&rails);
    assert!(d.rail_only);
    assert!(svg(&d, false).contains("w-rail-only"));
    let (plain, _, _) = drawn(&Scenario::default_plan());
    assert!(!svg(&plain, false).contains("w-rail-only"));
}

/// What the page lays over the drawing is inside it, and its buttons are the knobs' steps.
#[test]
fn the_parts_and_buttons_lie_on_the_drawing() {
    for s in clusters() {
        let (d, _, _) = drawn(&s);
        let layout = sketch::layout(&d, &WORDS);
        let inside = |p: &sketch::Place| {
            p.x >= 0.0 && p.y >= 0.0 && p.x + p.w <= sketch::WIDTH && p.y + p.h <= sketch::HEIGHT
        };
        for spot in &layout.spots {
            assert!(inside(&spot.place) && spot.place.w >= 8.0 && spot.place.h >= 8.0, "{spot:?}");
        }
        assert!(layout.spots.iter().any(|s| s.info.contains(" kW")));
        let knobs = if d.tiers > 1 { 6 } else { 5 };
        assert_eq!(layout.buttons.len(), 2 * knobs);
        // The phone's list offers the same knobs with their drawn values.
        assert_eq!(layout.rows.len(), knobs);
        for (row, knob) in layout.rows.iter().zip(&d.knobs) {
            assert_eq!(row.knob, *knob);
            assert!(row.label.starts_with("k-") && !row.value.is_empty(), "{row:?}");
        }
        for (pair, knob) in layout.buttons.chunks(2).zip(&d.knobs) {
            assert!(inside(&pair[0].place) && inside(&pair[1].place));
            assert_eq!((pair[0].path, pair[0].to, pair[1].to), (knob.path, knob.down, knob.up));
            assert!(pair[1].label.ends_with('+') && pair[1].label.starts_with("k-"));
        }
    }
}

#[test]
fn every_offered_step_resolves_and_moves_its_field() {
    let mut rng = Rng(7);
    let mut tried = 0;
    for s in clusters() {
        let (d, _, _) = drawn(&s);
        for knob in d.knobs {
            for to in [knob.down, knob.up].into_iter().flatten() {
                if rng.below(3) != 0 {
                    continue;
                }
                assert_ne!(to, knob.value, "{}", knob.path);
                let next = s.with_at(knob.path, Some(json!(to)));
                let (after, _, _) = drawn(&next);
                let moved = after.knobs.iter().find(|k| k.path == knob.path).map(|k| k.value);
                assert_eq!(moved, Some(to), "{} to {to}", knob.path);
                tried += 1;
            }
        }
    }
    assert!(tried > 20, "{tried}");
}

#[test]
fn the_ends_of_a_range_offer_no_step_beyond_it() {
    let one =
        with(&[("cluster.fabric.planes", json!(1)), ("cluster.fabric.oversubscription", json!(1))]);
    let (d, _, _) = drawn(&one);
    let knob = |p: &str| *d.knobs.iter().find(|k| k.path == p).unwrap();
    assert_eq!(knob("cluster.fabric.planes").down, None);
    assert_eq!(knob("cluster.fabric.oversubscription").down, None);
    assert_eq!(knob("cluster.fabric.planes").up, Some(2.0));
    // 64 chips on a 64-port switch fit one tier; 3 tiers are the most there are.
    let (d, _, _) = drawn(&plain(64).with(&fields::CLUSTER_FABRIC_TIERS, Some(json!(3))));
    assert_eq!(d.tiers, 3);
    assert_eq!(d.knobs[3].up, None);
    // A cluster too large for one tier never offers it.
    let (d, _, _) = drawn(&plain(16_384));
    assert!(d.tiers >= 2);
    if d.tiers == 2 {
        assert_eq!(d.knobs[3].down, None);
    }
}

/// Writes drawings to look at: `SKETCH_OUT=/tmp cargo test --test it sketch::`.
#[test]
fn drawings_can_be_written_out() {
    let Some(dir) = std::env::var_os("SKETCH_OUT") else { return };
    for (i, s) in clusters().iter().enumerate() {
        let (d, _, _) = drawn(s);
        std::fs::write(
            std::path::Path::new(&dir).join(format!("sketch-{i}.svg")),
            svg(&d, i % 2 == 1),
        )
        .unwrap();
    }
}
