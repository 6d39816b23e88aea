//! The site as it must be built and as it runs: power provisioned for the peak beside the
//! average, racks and the cooling plant designed for that peak, the swing of the site's draw
//! each step and a power floor against it, and checkpoint storage in the bill of materials,
//! each against the published figure `docs/assumptions.md` cites.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{evaluate, with};
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use serde_json::json;

/// A GB200 NVL72 rack is built for 120-132 kW, though it draws far less at training load; a
/// DGX H100 is rated 10.2 kW and peaks at 8.48 kW in training (measured). The site is
/// provisioned for that peak at its PUE, above what it draws, and its cooling plant is sized
/// from the same peak; the rack stays designed for the rating.
#[test]
fn the_site_is_designed_for_the_peak() {
    let nvl72 = evaluate(&with(&[
        ("cluster.chip", json!("gb200")),
        ("cluster.system", json!("gb200-nvl72")),
        ("cluster.chips", json!(9216)),
        ("parallelism.tp", json!(4)),
        ("parallelism.pp", json!(8)),
    ]));
    let f = &nvl72.facility;
    let design_kw = f.design.rack_w / 1000.0;
    assert!((120.0..=132.0).contains(&design_kw), "NVL72 rack designed for {design_kw} kW");
    assert!(f.cooling.rack_w < f.design.rack_w, "at training load a rack draws less");
    assert!(f.design.coolant_l_per_min > f.cooling.coolant_l_per_min);

    let e = evaluate(&Scenario::default_plan());
    let f = &e.facility;
    assert_eq!(f.design.rack_w, 4.0 * 10_200.0, "four DGX H100 of 10.2 kW a rack");
    let pue = 1.3;
    assert!(
        (f.design.provisioned_w - f.power.peak_it_w * pue).abs() < 1e-6 * f.design.provisioned_w
    );
    let nodes = f.bom.nodes as f64;
    let beyond = f.power.peak_it_w - nodes * 8_480.0;
    assert!(
        (beyond - f.power.network_w - f.power.storage_w).abs() < 1e-6 * f.power.peak_it_w,
        "each node provisioned at its measured 8.48 kW peak"
    );
    // At the measured peak the site runs close to what it is built for, but never beyond.
    assert!(f.design.provisioned_w > f.power.facility_w, "the peak is above the average");
    assert!(f.design.refrigeration_tons > f.cooling.refrigeration_tons);
}

/// 16,384 H100 computing and then waiting together swing the site by megawatts each step
/// (Llama 3: "on the order of tens of megawatts" over its whole cluster); a power floor at 90 %
/// of TDP narrows the swing to at most the 20 % of TDP above it (arXiv:2508.14318) and costs
/// energy.
#[test]
fn the_site_swings_each_step_and_a_floor_narrows_it() {
    let e = evaluate(&Scenario::default_plan());
    let d = &e.facility.design;
    assert!((5e6..20e6).contains(&d.swing_w), "{} MW of swing", d.swing_w / 1e6);
    assert_eq!(d.swing_period_s, e.step_s);
    let floored = evaluate(&with(&[("facility.power_floor", json!(0.9))]));
    let g = &floored.facility;
    assert!(g.design.swing_w <= 0.2 * 700.0 * 16_384.0, "{} MW", g.design.swing_w / 1e6);
    assert!(g.design.swing_w < 0.25 * d.swing_w);
    assert!(g.design.floor_w > 0.0 && g.energy_mwh > e.facility.energy_mwh);
    assert!((g.power.chips_w - e.facility.power.chips_w - g.design.floor_w).abs() < 1.0);
}

/// Checkpoint storage joins the bill of materials: Llama 3 405B on 16,384 H100 writes at 7 TB/s
/// (Llama 3's peak), which takes 108 AI400X2-class nodes of 65 GB/s, and holds three
/// checkpoints of 350 MB per GPU (Llama 3: 1 MB to 4 GB per GPU) beside its tokens; their power
/// and price join the site's.
#[test]
fn checkpoint_storage_is_sized_powered_and_priced() {
    let e = evaluate(&Scenario::default_plan());
    let (s, r) = (&e.facility.storage, &e.reliability);
    let per_gpu = r.checkpoint_bytes / 16_384.0;
    assert!((1e6..4e9).contains(&per_gpu), "{per_gpu} B per GPU");
    assert_eq!(s.bytes_per_s, 7e12);
    assert_eq!(s.nodes, 108);
    assert!(s.capacity_bytes >= 3.0 * r.checkpoint_bytes);
    assert!((r.checkpoint_write_s - r.checkpoint_bytes / 7e12).abs() < 1e-9);
    assert_eq!(e.facility.power.storage_w, 108.0 * 2_200.0);
    assert!(e.facility.bom_rows().contains(&("storage_nodes", "", 108)));
    // Slower storage takes fewer nodes and longer writes; more checkpoints kept, more capacity.
    let slow = evaluate(&with(&[("reliability.storage_gb_per_s", json!(2000))]));
    assert!(slow.facility.storage.nodes < s.nodes);
    assert!(slow.reliability.checkpoint_write_s > r.checkpoint_write_s);
    let kept = evaluate(&with(&[("facility.checkpoints_kept", json!(10))]));
    assert!(kept.facility.storage.capacity_bytes > s.capacity_bytes);
    assert!(e.facility.cost.hardware_usd > slow.facility.cost.hardware_usd);
}

/// Switches that reduce as data passes (SHARP) speed all-reduce by NVLink SHARP's measured
/// 480 against 370 GB/s on eight H100: a plan reducing gradients by all-reduce (ZeRO 0) waits
/// less on data parallelism, while one reducing them by reduce-scatter (the distributed
/// optimizer) is unchanged. The bill of materials is the same.
#[test]
fn in_network_reduction_speeds_all_reduce_only() {
    let plan = |zero: u32, on: bool| {
        evaluate(&with(&[
            ("parallelism.zero", json!(zero)),
            ("cluster.fabric", json!({ "in_network_reduction": on })),
        ]))
    };
    let (ring, reduced) = (plan(0, false), plan(0, true));
    let ratio = ring.link.dp_s / reduced.link.dp_s;
    assert!(ratio > 1.15 && ratio < 480.0 / 370.0 + 1e-9, "{ratio}");
    assert!(reduced.step_s <= ring.step_s);
    assert_eq!(ring.facility.bom, reduced.facility.bom);
    let (scattered, scattered_on) = (plan(1, false), plan(1, true));
    assert_eq!(scattered.link.dp_s, scattered_on.link.dp_s);
}

/// A rail-only fabric (arXiv:2307.12169) joins no rails: at 16,384 DGX H100 each rail's 2,048
/// NICs need two tiers where the rail-optimised fat tree needs three, so it takes fewer
/// switches, optics and power (34 % of the cost, under the paper's 38-77 %; at GB300 NVL72's
/// 72 rails, inside it); a dense plan whose traffic stays on its rails is as fast, and
/// an expert all-to-all that crosses rails is no faster (its bytes for other rails first cross
/// NVLink).
#[test]
fn rail_only_saves_the_top_tier_and_forwards_across_rails() {
    use clusterplan::model::facility::{CABLE_USD, SCALE_UP_SWITCH_W, TRANSCEIVER_USD};
    let kind = |kind: &str, model: &str| {
        let mut changes = vec![("cluster.fabric", json!({ "kind": kind }))];
        if model == "moe" {
            changes.extend([
                ("model.preset", json!("deepseek-v3")),
                ("cluster.chips", json!(2048)),
                ("parallelism.tp", json!(1)),
                ("parallelism.pp", json!(16)),
                ("parallelism.ep", json!(64)),
                ("parallelism.cp", json!(1)),
                ("training.global_batch", json!(15360)),
            ]);
        }
        with(&changes).estimated().expect("evaluates")
    };
    let (fat, fat_e) = kind("rail-optimized", "dense");
    let (rail, rail_e) = kind("rail-only", "dense");
    let (b, r) = (&fat_e.facility.bom, &rail_e.facility.bom);
    assert_eq!((b.tiers, r.tiers), (3, 2));
    assert!(r.switches() < b.switches() && r.transceivers < b.transceivers);
    let price = fat.plant.switch.price_usd;
    let network_usd = |bom: &clusterplan::model::Bom| {
        bom.switches() as f64 * price
            + bom.transceivers as f64 * TRANSCEIVER_USD
            + bom.total_cables() as f64 * CABLE_USD
    };
    let saved = 1.0 - network_usd(r) / network_usd(b);
    assert!((0.25..0.45).contains(&saved), "{saved}");
    assert!(rail_e.facility.power.network_w < fat_e.facility.power.network_w);
    assert!(rail.cluster.network.rail_only);
    assert_eq!(rail_e.step_s, fat_e.step_s, "rail-aligned traffic is as fast");
    // 9,216 chips of an NVL72 rack system, by fabric kind: the bill of materials and the
    // scale-out network's power (without the racks' NVLink trays).
    let nvl72 = |chip: &str, kind: &str| {
        let f = evaluate(
            &with(&[
                ("cluster.chip", json!(chip)),
                ("cluster.system", json!(format!("{chip}-nvl72"))),
                ("cluster.chips", json!(9216)),
                ("cluster.fabric", json!({ "kind": kind })),
                ("parallelism.tp", json!(4)),
                ("parallelism.pp", json!(8)),
            ])
            // The rack's own InfiniBand network, not the default plan's RoCE.
            .with(paths::CLUSTER_SCALE_OUT, None),
        )
        .facility;
        let trays_w = f.bom.scale_up_switches as f64 * SCALE_UP_SWITCH_W;
        (f.bom, f.power.network_w - trays_w)
    };
    // In an NVL72 rack the rails are the rack's 72 positions: each rail of 9,216 GB200 has
    // 128 NICs and needs two tiers where the whole cluster needs three.
    let ((fat72, _), (rail72, _)) = (nvl72("gb200", "rail-optimized"), nvl72("gb200", "rail-only"));
    assert_eq!((fat72.tiers, rail72.tiers), (3, 2));
    assert_eq!(rail72.switches() % 72, 0, "every rail alike: {}", rail72.switches());
    assert!(rail72.switches() < fat72.switches());
    // With the 72 rails of a GB300 NVL72 rack and 144-port switches, a rail of 9,216 chips is
    // one switch: the saving is inside the paper's 38-77 % of cost and 37-75 % of power.
    let gb300 = |kind: &str| nvl72("gb300", kind);
    let ((fat300, fat300_w), (rail300, rail300_w)) = (gb300("rail-optimized"), gb300("rail-only"));
    assert_eq!((fat300.tiers, rail300.tiers), (2, 1));
    let q3400 = clusterplan::model::presets::switch("q3400").expect("q3400").switch.price_usd;
    let usd = |bom: &clusterplan::model::Bom| {
        bom.switches() as f64 * q3400
            + bom.transceivers as f64 * TRANSCEIVER_USD
            + bom.total_cables() as f64 * CABLE_USD
    };
    let saved = 1.0 - usd(&rail300) / usd(&fat300);
    assert!((0.38..=0.77).contains(&saved), "GB300 NVL72 network cost saved: {saved}");
    let saved_w = 1.0 - rail300_w / fat300_w;
    assert!((0.37..=0.75).contains(&saved_w), "GB300 NVL72 network power saved: {saved_w}");
    let (_, fat_moe) = kind("rail-optimized", "moe");
    let (_, rail_moe) = kind("rail-only", "moe");
    assert!(rail_moe.link.ep_s >= fat_moe.link.ep_s);
}

/// Optics draw by the rate their links run at: 100G modules under 3.5 W, HDR's 6 W a port,
/// 400G's 8 W, 800G's 15 W (`docs/assumptions.md`), so an EDR-era fabric's optics draw well
/// under half of an NDR-era one's for the same cluster, and its network less in all.
#[test]
fn optics_draw_by_the_rate_their_links_run_at() {
    use clusterplan::model::facility::{optics_w_per_end, OPTICS_W_BY_GBIT};
    for (gbit, w) in OPTICS_W_BY_GBIT {
        assert!((optics_w_per_end(gbit) - w).abs() < 1e-9, "{gbit} Gb/s");
    }
    let mut last = 0.0;
    for gbit in [25.0, 100.0, 150.0, 200.0, 300.0, 400.0, 600.0, 800.0, 1600.0] {
        let w = optics_w_per_end(gbit);
        assert!(w > last, "{gbit} Gb/s draws {w} W, not above {last} W");
        last = w;
    }
    assert!((optics_w_per_end(1600.0) - 30.0).abs() < 1e-9, "800G's energy per bit beyond");
    assert_eq!(optics_w_per_end(0.0), 0.0);

    let at = |fabric: &str| evaluate(&with(&[("cluster.scale_out", json!(fabric))])).facility;
    let (edr, ndr) = (at("ib-edr"), at("ib-ndr"));
    assert_eq!(edr.bom.optical, ndr.bom.optical, "the same cables");
    let ratio = edr.power.optics_w / ndr.power.optics_w;
    assert!((ratio - 3.5 / 8.0).abs() < 1e-9, "EDR optics over NDR's: {ratio}");
    assert!(edr.power.network_w < ndr.power.network_w);
}

/// Heat: air-cooled chips throttle above the 27 °C data halls are kept under, about 15 % for
/// the 17.5 K between air- and liquid-cooled H100 dies (Latif et al. 2025), and a swing of two
/// degrees is Llama 3's 1-2 % between day and night; chips on liquid keep their speed, so
/// liquid shows its speed as well as its PUE.
#[test]
fn a_hot_inlet_slows_air_cooled_chips_only() {
    use clusterplan::model::facility::{Cooling, Facility};
    use clusterplan::model::Warning;
    let thermal_speed = Facility::thermal_speed;
    let air = |inlet_c: f64| Facility { cooling: Cooling::Air, inlet_c, ..Facility::default() };
    assert_eq!(thermal_speed(&air(25.0)), 1.0);
    assert_eq!(thermal_speed(&air(27.0)), 1.0);
    let swing = 1.0 - thermal_speed(&air(29.0));
    assert!((0.01..=0.02).contains(&swing), "two degrees over: {swing}");
    let hot = 1.0 - thermal_speed(&air(27.0 + 17.5));
    assert!((hot - (1.0 - 46.0 / 54.0)).abs() < 1e-12, "{hot}");
    let liquid = Facility { cooling: Cooling::Liquid, inlet_c: 40.0, ..Facility::default() };
    assert_eq!(thermal_speed(&liquid), 1.0);

    let at = |cooling: &str, inlet: f64| {
        evaluate(&with(&[("facility.cooling", json!(cooling)), ("facility.inlet_c", json!(inlet))]))
    };
    let base = evaluate(&Scenario::default_plan());
    assert_eq!(at("air", 25.0).step_s, base.step_s, "25 °C is the default");
    let (cool, warm) = (at("air", 25.0), at("air", 32.0));
    assert!(warm.step_s > cool.step_s * 1.02, "{} against {}", warm.step_s, cool.step_s);
    assert!(warm.breakdown.compute_s > cool.breakdown.compute_s);
    assert_eq!(warm.link.dp_s, cool.link.dp_s, "links keep their speed");
    let warned = warm.warnings.iter().find_map(|w| match w {
        Warning::HotInlet { inlet_c, slower } => Some((*inlet_c, *slower)),
        _ => None,
    });
    let (inlet_c, slower) = warned.expect("the page says why");
    assert_eq!(inlet_c, 32.0);
    assert!((slower - 5.0 * (1.0 - 46.0 / 54.0) / 17.5).abs() < 1e-12);
    assert!(!cool.warnings.iter().any(|w| matches!(w, Warning::HotInlet { .. })));
    assert_eq!(at("liquid", 32.0).step_s, at("liquid", 25.0).step_s, "cold plates keep the speed");
    assert!(at("liquid", 32.0).step_s < warm.step_s);
}

/// A torus of cubes joined by optical circuit switches, as TPU v4 pods are built: a 4,096-chip
/// pod's 64 cubes send 96 face links each through 48 switches (Jouppi et al. 2023; HPCwire
/// quoting Google), one transceiver a link. The switches and their optics join the bill of
/// materials, the power and the price, not the step: the torus is the chip's own scale-up
/// domain. A domain smaller than a cube is refused by the kind's field.
#[test]
fn a_torus_of_cubes_is_joined_by_optical_circuit_switches() {
    use clusterplan::model::facility::{
        optics_w_per_end, CABLE_USD, OCS_USD, OCS_W, TRANSCEIVER_USD,
    };
    let tpu = |kind: &str| {
        with(&[
            ("cluster.chip", json!("tpu-v4")),
            ("cluster.chips", json!(4096)),
            ("cluster.fabric", json!({ "kind": kind })),
            ("parallelism.pp", json!(4)),
        ])
        .estimated()
        .expect("evaluates")
    };
    let ((_, flat), (inputs, torus)) = (tpu("rail-optimized"), tpu("torus-ocs"));
    let (b, t) = (&flat.facility.bom, &torus.facility.bom);
    assert_eq!((b.ocs, b.ocs_links), (0, 0));
    assert_eq!((t.ocs, t.ocs_links), (48, 6144));
    assert_eq!(t.transceivers, b.transceivers + 6144);
    assert_eq!((t.leaf, t.spine, t.core), (b.leaf, b.spine, b.core), "pods joined as before");
    let link_gbit = inputs.cluster.scale_up.link.bytes_per_s * 8.0 / 1e9 / 6.0;
    let added_w = 48.0 * OCS_W + 6144.0 * optics_w_per_end(link_gbit);
    let dw = torus.facility.power.network_w - flat.facility.power.network_w;
    assert!((dw - added_w).abs() < 1e-6 * added_w, "{dw} W against {added_w} W");
    let dusd = torus.facility.cost.hardware_usd - flat.facility.cost.hardware_usd;
    let parts_usd = 48.0 * OCS_USD + 6144.0 * (TRANSCEIVER_USD + CABLE_USD);
    assert!((dusd - parts_usd).abs() < 1e-3, "{dusd} USD against {parts_usd} USD");
    assert_eq!(torus.facility.power.optics_w, flat.facility.power.optics_w, "scale-out optics");
    assert_eq!(torus.step_s, flat.step_s);
    let rows = torus.facility.bom_rows();
    assert!(rows.contains(&("optical_circuit_switches", "", 48)));

    let h100 = with(&[("cluster.fabric", json!({ "kind": "torus-ocs" }))]).estimated();
    let errors = h100.expect_err("an 8-GPU domain holds no cube");
    assert!(errors.iter().any(|e| e.field == "cluster.fabric.kind"), "{errors:?}");
}
