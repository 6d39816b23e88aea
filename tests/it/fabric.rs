//! The fabric graph against published cluster designs: exact switch and cable counts where the
//! design follows the same rules (the DGX SuperPOD reference architectures), structure where it
//! does not. Sources: `docs/accuracy.md`, "Fabric designs".
#![cfg(not(target_arch = "wasm32"))]

use crate::common::Rng;

use clusterplan::fabric::{self, Spec};
use clusterplan::model::facility::FabricKind;
use clusterplan::model::presets;
use clusterplan::model::Bom;

/// The fabric a catalog system's reference design builds for `chips` chips.
fn system_fabric(system: &str, chips: u32) -> Bom {
    let s = presets::system(system).expect("system preset");
    fabric::build(&Spec::for_system(s, chips).expect("its switch")).expect("builds").bom
}

/// A plain fat tree of `switch` for `chips` chips, 8 per node, one plane, no reference rules.
fn plain(chips: u32, switch: &str) -> Spec {
    Spec {
        chips,
        chips_per_node: 8,
        domain_chips: 8,
        planes: 1,
        nodes_per_rack: 4,
        scale_up_switches_per_rack: 0,
        switch: presets::switch(switch).expect("switch preset").switch,
        tiers: None,
        min_tiers: 1,
        unit_nodes: None,
        oversubscription: 1.0,
        kind: FabricKind::RailOptimized,
    }
}

fn switches(b: &Bom) -> (u64, u64, u64) {
    (b.leaf, b.spine, b.core)
}

#[test]
fn dgx_h100_superpod_switch_counts_are_reproduced() {
    // DGX SuperPOD H100 RA: 1 SU = 31 systems, 8 leaf + 4 spine, 256 leaf-spine cables;
    // 4 SUs = 127 systems, 32 leaf + 16 spine.
    let one = system_fabric("dgx-h100", 31 * 8);
    assert_eq!(switches(&one), (8, 4, 0));
    assert_eq!(one.cables[1], 256);
    assert_eq!(one.cables[0], 248, "the RA's 252 node-leaf cables add 4 for its UFM appliances");
    assert_eq!(switches(&system_fabric("dgx-h100", 127 * 8)), (32, 16, 0));
}

#[test]
fn dgx_b200_superpod_builds_three_tiers() {
    // DGX SuperPOD B200 RA: 16 SUs (4,096 GPUs) = 128 leaf + 128 spine + 64 core, 4,096 cables
    // per tier; 64 SUs (16,384 GPUs) = 512 + 512 + 256.
    let b = system_fabric("dgx-b200", 4096);
    assert_eq!(switches(&b), (128, 128, 64));
    assert_eq!(b.cables, [4096, 4096, 4096]);
    assert_eq!(b.tiers, 3);
    assert_eq!(switches(&system_fabric("dgx-b200", 16_384)), (512, 512, 256));
}

#[test]
fn dgx_b300_xdr_superpod_table_is_reproduced() {
    // DGX SuperPOD B300 XDR RA, Table 3: SUs of 72 systems on 144-port Quantum-X800 switches.
    for (units, leaf, spine) in [(1, 8, 4), (2, 16, 8), (4, 32, 18), (8, 64, 36), (18, 144, 72)] {
        let b = system_fabric("dgx-b300", units * 72 * 8);
        assert_eq!(switches(&b), (leaf, spine, 0), "{units} SUs");
        assert_eq!(b.cables[0], b.cables[1], "{units} SUs: as many leaf-spine as node-leaf cables");
    }
    assert_eq!(system_fabric("dgx-b300", 18 * 72 * 8).cables[1], 10_368);
}

#[test]
fn a_minimal_two_tier_fat_tree_of_64_port_switches() {
    // A public worked example: 512 GPUs on 64-port switches = 16 leaf + 8 spine.
    let spec = plain(512, "qm9700");
    let b = fabric::build(&spec).expect("builds").bom;
    assert_eq!((b.leaf, b.spine, b.core), (16, 8, 0));
    // Twice the chips do not fit two tiers of 64-port switches with rails kept apart... until
    // the leaves outnumber a spine's ports: 2,048 chips still do, 4,096 need a core.
    let at = |chips| fabric::build(&Spec { chips, ..spec }).expect("builds").bom.tiers;
    assert_eq!((at(2048), at(4096)), (2, 3));
}

#[test]
fn megascale_needs_three_layers_of_split_tomahawk_4_ports() {
    // MegaScale (NSDI'24 §3.6): 12,288 GPUs, 8 x 200G NICs per server to 8 ToRs, Tomahawk 4
    // ports split into 2 x 200G (128 ports), up to 64 servers under one ToR set, 3-layer Clos.
    let mut switch = presets::switch("tomahawk4").expect("tomahawk4").switch;
    switch.ports *= 2;
    switch.port_bytes_per_s /= 2.0;
    let spec = Spec {
        chips: 12_288,
        chips_per_node: 8,
        domain_chips: 8,
        planes: 1,
        nodes_per_rack: 4,
        scale_up_switches_per_rack: 0,
        switch,
        tiers: None,
        min_tiers: 1,
        unit_nodes: Some(64),
        oversubscription: 1.0,
        kind: FabricKind::RailOptimized,
    };
    let b = fabric::build(&spec).expect("builds").bom;
    assert_eq!(b.tiers, 3);
    assert_eq!(b.leaf, 12_288 / 64, "one ToR per rail per 64 servers");
}

#[test]
fn oversubscription_thins_the_top_tier_and_bounds_the_pod() {
    let base = plain(16_384, "qm9700");
    let full = fabric::build(&base).expect("builds");
    let thin = fabric::build(&Spec { oversubscription: 7.0, ..base }).expect("builds");
    assert_eq!(full.bom.leaf, thin.bom.leaf);
    assert!(thin.bom.core * 6 < full.bom.core, "{} vs {}", thin.bom.core, full.bom.core);
    assert_eq!(full.network.share(16_384), 1.0);
    assert!(thin.network.pod_chips < 16_384);
    assert_eq!(thin.network.share(thin.network.pod_chips + 1), 1.0 / 7.0);
    assert_eq!(thin.network.share(thin.network.pod_chips), 1.0);
}

#[test]
fn planes_multiply_the_network_and_the_graph_stays_small() {
    let spec = Spec { planes: 2, ..plain(60_000, "qm9700") };
    let two = fabric::build(&spec).expect("builds");
    let one = fabric::build(&Spec { planes: 1, ..spec }).expect("builds");
    assert_eq!(two.bom.switches(), 2 * one.bom.switches());
    assert_eq!(two.bom.nics, 120_000);
    assert!(two.plane.node_count() < 2_000, "{} vertices", two.plane.node_count());
    let optics = two.bom.optical.iter().sum::<u64>();
    assert!(two.bom.transceivers >= optics, "at least one module per optical cable");
}

#[test]
fn impossible_fabrics_are_errors_not_panics() {
    let spec = Spec { tiers: Some(1), ..plain(1024, "qm9700") };
    assert!(fabric::build(&spec).is_err());
    let mut tiny = spec;
    tiny.tiers = None;
    tiny.switch.ports = 3;
    assert!(fabric::build(&tiny).is_err());
    for chips in [1, 7, 8, 9, 65_536, 4_000_000] {
        let b = fabric::build(&Spec { chips, tiers: None, ..spec }).expect("builds").bom;
        assert!(b.leaf >= 1 && b.nics == chips as u64 * b.port_split as u64, "{chips}");
    }
    // Three tiers of 64 ports split in four reach 256^3 / 4 = 4,194,304 chips, and no more.
    let huge = fabric::build(&Spec { chips: 10_000_000, tiers: None, ..spec });
    assert!(matches!(huge, Err(fabric::FabricError::Unwireable { tiers: 3, ports: 64, .. })));
}

/// 131,072 H100 on 64-port switches: three tiers of 64 ports reach 65,536 chips, so each port
/// runs split in two (128 ports at 200G) and each chip's 400G NIC on two planes; the network
/// doubles with the chips, no tier is left unconnected.
#[test]
fn beyond_three_tiers_of_its_radix_a_switch_runs_its_ports_split() {
    let at = |chips| fabric::build(&plain(chips, "qm9700")).expect("builds").bom;
    let (half, full) = (at(65_536), at(131_072));
    assert_eq!((half.port_split, full.port_split), (1, 2));
    assert_eq!((half.planes, full.planes), (1, 2));
    assert_eq!(full.switches(), 2 * half.switches(), "{full:?}");
    assert_eq!(full.tiers, 3);
}

/// Every fabric built, over generated sizes, switches, node sizes, units and oversubscription,
/// can be wired: no spine reaches more leaves, no core more pods, than its ports (split ones
/// counted); what cannot be wired is an error, never a bill of materials.
#[test]
fn every_fabric_built_can_be_wired() {
    use petgraph::visit::EdgeRef;
    use petgraph::Direction::Incoming;
    let mut rng = Rng(0xFAB_71E5);
    let ids: Vec<&str> = presets::SWITCHES.iter().map(|s| s.id).collect();
    let (mut built, mut split) = (0, 0);
    for case in 0..3_000 {
        let scale = 4 + rng.below(18);
        let chips = 1 + rng.below(1 << scale) as u32;
        let switch = ids[rng.below(ids.len() as u64) as usize];
        let mut spec = plain(chips, switch);
        spec.chips_per_node = *rng.pick(&[1, 4, 8]);
        spec.unit_nodes = *rng.pick(&[None, Some(16), Some(32)]);
        spec.oversubscription = 1.0 + rng.below(4) as f64;
        spec.planes = 1 + rng.below(2) as u32;
        let f = match fabric::build(&spec) {
            Ok(f) => f,
            Err(e) => {
                let needed = matches!(e, fabric::FabricError::Unwireable { .. });
                let k = spec.switch.ports as u64 * 4;
                assert!(needed && chips as u64 > k * k / 2, "case {case}: {e:?} for {chips} chips");
                continue;
            }
        };
        built += 1;
        let b = &f.bom;
        split += usize::from(b.port_split > 1);
        let k = spec.switch.ports as u64 * b.port_split.max(1) as u64;
        let spines: Vec<_> = fabric::vertices(&f)
            .filter(|(_, v)| matches!(v, fabric::Vertex::Spines { .. }))
            .map(|(i, _)| i)
            .collect();
        assert!(spines.len() as u64 <= k.max(1), "case {case}: {} pods on {k} ports", spines.len());
        for s in spines {
            let leaves: u64 = f
                .plane
                .edges_directed(s, Incoming)
                .map(|e| match f.plane[e.source()] {
                    fabric::Vertex::Leaves { count, .. } => count as u64,
                    _ => 0,
                })
                .sum();
            assert!(leaves <= k, "case {case}: a pod of {leaves} leaves on {k}-port spines");
        }
        assert_eq!(b.nics, chips as u64 * b.planes as u64, "case {case}");
        assert_eq!(b.planes, spec.planes * b.port_split.max(1), "case {case}");
    }
    assert!(built > 2_500 && split > 50, "{built} built, {split} split");
}

#[test]
fn every_system_names_parts_the_catalog_has() {
    let fields = [
        "chips_per_node",
        "nics_per_chip",
        "node_max_w",
        "nodes_per_rack",
        "liquid",
        "node_price_usd",
        "scale_up_switches_per_rack",
    ];
    for s in presets::SYSTEMS {
        assert!(presets::chip(s.chip).is_some(), "{}: chip {}", s.id, s.chip);
        assert!(presets::scale_up(s.scale_up).is_some(), "{}: scale-up {}", s.id, s.scale_up);
        assert!(presets::scale_out(s.scale_out).is_some(), "{}: scale-out {}", s.id, s.scale_out);
        assert!(presets::switch(s.switch).is_some(), "{}: switch {}", s.id, s.switch);
        assert!(!s.source.is_empty());
        for name in s.unverified {
            assert!(fields.contains(name), "{}: unverified {name}", s.id);
        }
    }
    for chip in presets::CHIPS {
        let system = presets::system_for_chip(chip.id).expect("every chip has a system");
        assert_eq!(system.chip, chip.id);
    }
}

#[test]
fn a_chip_comes_in_the_system_its_preset_describes() {
    for chip in presets::CHIPS {
        let system = presets::system_for_chip(chip.id).expect("a system");
        let catalog =
            presets::SYSTEMS.iter().any(|s| s.chip == chip.id && s.scale_up == chip.scale_up);
        if catalog {
            assert_eq!(system.scale_up, chip.scale_up, "{}", chip.id);
        }
    }
    assert_eq!(presets::system_for_chip("gb300").map(|s| s.id), Some("gb300-nvl72"));
}

/// What a plan reads of its fabric (`counted`) is what building it gives, asked first and
/// asked again from memory, over generated specs: every kind, switch, node and plane, and
/// more specs than are remembered, so the memory is emptied and refilled on the way.
#[test]
fn a_fabric_counted_is_the_fabric_built_first_and_from_memory() {
    let mut rng = Rng(0xC0_0E7ED);
    let ids: Vec<&str> = presets::SWITCHES.iter().map(|s| s.id).collect();
    let kinds = [FabricKind::RailOptimized, FabricKind::RailOnly, FabricKind::TorusOcs];
    let specs: Vec<Spec> = (0..1_500)
        .map(|_| {
            let scale = 3 + rng.below(16);
            let switch = *rng.pick(&ids);
            let mut spec = plain(1 + rng.below(1 << scale) as u32, switch);
            spec.chips_per_node = *rng.pick(&[1, 4, 8]);
            spec.domain_chips = *rng.pick(&[8, 64, 72]);
            spec.unit_nodes = *rng.pick(&[None, Some(16), Some(32)]);
            spec.oversubscription = 1.0 + rng.below(4) as f64;
            spec.planes = 1 + rng.below(2) as u32;
            spec.tiers = *rng.pick(&[None, None, Some(2), Some(3)]);
            spec.kind = *rng.pick(&kinds);
            spec
        })
        .collect();
    let mut errors = 0;
    // Every spec once (the memory fills, empties and fills again), then the last 400 again,
    // which the memory then holds.
    let again = specs.len() - 400;
    for (round, from) in [(0, 0), (1, again)] {
        for (case, spec) in specs.iter().enumerate().skip(from) {
            let built = fabric::build(spec).map(|f| (f.bom, f.network));
            errors += usize::from(built.is_err());
            assert_eq!(fabric::counted(spec), built, "round {round}, case {case}: {spec:?}");
        }
    }
    assert!(errors > 0 && errors < specs.len(), "both fabrics and errors: {errors}");
}
