//! The cluster as built: power at training load against published system figures, cooling,
//! cost, the network's effect on step time, and clear errors for impossible values.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{evaluate, random_scenario, with, Rng};
use clusterplan::model::{Severity, Warning};
use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use serde_json::json;

#[test]
fn power_parts_sum_and_stay_under_the_systems_rating() {
    let e = evaluate(&Scenario::default_plan());
    let f = &e.facility;
    let p = &f.power;
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    assert!(close(p.it_w, p.chips_w + p.hosts_w + p.network_w + p.storage_w));
    assert!(close(p.facility_w, p.it_w * 1.3), "a new air-cooled build's default PUE");
    // A DGX H100 is rated 10.2 kW; at training load it draws less, and more than its GPUs.
    let node_w = (p.chips_w + p.hosts_w) / f.bom.nodes as f64;
    assert!(node_w < 10_200.0 && node_w > 0.7 * 10_200.0, "{node_w} W per DGX H100");
    assert!(p.peak_it_w > p.it_w);
    // Energy is power times the wall-clock time, interruptions included.
    let hours = e.effective_train_days().expect("the default plan finishes") * 24.0;
    assert!(close(f.energy_mwh, p.facility_w * hours / 1e6));
    assert!(close(f.co2_t, f.energy_mwh * 0.41));
}

#[test]
fn chips_waiting_on_the_network_draw_less() {
    // The same plan on a slow network: more of each step waits, so chips draw less on average.
    let fast = evaluate(&Scenario::default_plan());
    let slow = evaluate(&with(&[("cluster.scale_out", json!("roce-100g"))]));
    assert!(slow.step_s > fast.step_s);
    let per_chip = |e: &clusterplan::model::Estimate| e.facility.power.chips_w / 16_384.0;
    assert!(per_chip(&slow) < per_chip(&fast), "{} vs {}", per_chip(&slow), per_chip(&fast));
    assert!(slow.facility.energy_mwh > fast.facility.energy_mwh, "but longer runs use more energy");
}

#[test]
fn an_oversubscribed_top_tier_slows_groups_that_leave_their_pod() {
    // PP 8 leaves DP 128: with CP 2 the data-parallel ring of 256 replicas, 8 chips apart,
    // spreads over 2,048 chips, across pods of 1,024 chips when the core is thinned 1:7.
    let base = with(&[
        ("cluster.system", json!("dgx-h100")),
        ("cluster.fabric", json!({ "switch": "qm9700" })),
        ("parallelism.pp", json!(8)),
    ]);
    let thin = base.with(&fields::CLUSTER_FABRIC_OVERSUBSCRIPTION, Some(json!(7)));
    let (b, t) = (evaluate(&base), evaluate(&thin));
    assert!(t.link.dp_s > 2.0 * b.link.dp_s, "{} -> {}", b.link.dp_s, t.link.dp_s);
    assert!(t.train_days > b.train_days);
    assert!(t.facility.bom.core < b.facility.bom.core, "fewer core switches");
    assert!(t.facility.cost.hardware_usd < b.facility.cost.hardware_usd);
    // Without oversubscription the fabric changes nothing the model feels.
    let plain = evaluate(&with(&[("parallelism.pp", json!(8))]));
    assert_eq!(plain.step_s, b.step_s);
}

#[test]
fn more_planes_mean_more_bandwidth_and_more_switches() {
    let one = evaluate(&Scenario::default_plan());
    let two = evaluate(&with(&[("cluster.fabric", json!({ "planes": 2 }))]));
    assert_eq!(two.facility.bom.switches(), 2 * one.facility.bom.switches());
    assert!(two.link.dp_s < one.link.dp_s);
}

#[test]
fn a_liquid_rack_on_air_is_warned_and_liquid_heat_has_a_flow() {
    let rack = with(&[("cluster.chip", json!("gb200")), ("cluster.chips", json!(9216))]);
    let liquid = evaluate(&rack);
    assert!(
        liquid.facility.cooling.liquid_w
            > 0.9 * (liquid.facility.power.chips_w + liquid.facility.power.hosts_w) * 0.9
    );
    assert!(liquid.facility.cooling.coolant_l_per_min > 0.0);
    assert_eq!(liquid.facility.bom.scale_up_switches, 9 * liquid.facility.cooling.racks);
    assert!(!liquid.warnings.iter().any(|w| matches!(w, Warning::RackTooDense { .. })));
    let air = evaluate(&rack.with(&fields::FACILITY_COOLING, Some(json!("air"))));
    let w = air.warnings.iter().find(|w| matches!(w, Warning::RackTooDense { .. }));
    assert!(w.is_some_and(|w| w.severity() == Severity::Fit), "{:?}", air.warnings);
    assert_eq!(air.facility.cooling.liquid_w, 0.0);
}

/// Every system laid out for air, cooled by liquid, packs 64 chips a rack (as liquid-cooled
/// Atlas 900 and HGX H100 racks do) unless its own layout holds more, so it takes no more racks
/// and each designed rack holds more; a system built for liquid keeps its own rack.
#[test]
fn a_liquid_site_packs_a_system_laid_out_for_air_denser() {
    use clusterplan::model::presets;
    for system in presets::SYSTEMS {
        let chips = 64 * system.system.chips_per_node;
        let on = |cooling: &str| {
            evaluate(&with(&[
                ("cluster.system", json!(system.id)),
                ("cluster.chip", json!(system.chip)),
                ("cluster.chips", json!(chips)),
                ("parallelism", json!({})),
                ("facility.cooling", json!(cooling)),
            ]))
        };
        let (air, liquid) = (on("air"), on("liquid"));
        let (a, l) = (&air.facility.cooling, &liquid.facility.cooling);
        let per_rack = |e: &clusterplan::model::Estimate| {
            e.facility.bom.nodes as f64 / e.facility.cooling.racks as f64
        };
        if system.system.liquid {
            assert_eq!(a.racks, l.racks, "{}: its own rack", system.id);
        } else {
            assert!(l.racks <= a.racks, "{}: {} racks against {}", system.id, l.racks, a.racks);
            let packed = (per_rack(&liquid) * system.system.chips_per_node as f64).round();
            let own = system.system.nodes_per_rack * system.system.chips_per_node;
            assert_eq!(packed as u32, own.max(64), "{}", system.id);
        }
    }
}

#[test]
fn servers_spread_over_more_racks_under_a_lower_rack_limit() {
    let design = evaluate(&Scenario::default_plan());
    let limited = evaluate(&with(&[("facility.rack_kw", json!(21))]));
    assert_eq!(limited.facility.cooling.racks, 2 * design.facility.cooling.racks);
}

#[test]
fn cost_follows_its_assumptions() {
    let base = evaluate(&Scenario::default_plan());
    let dear = evaluate(&with(&[
        ("facility.usd_per_kwh", json!(0.16)),
        ("facility.cloud_usd_per_chip_hour", json!(4)),
    ]));
    let c = |e: &clusterplan::model::Estimate| e.facility.cost;
    assert!((c(&dear).energy_usd / c(&base).energy_usd - 0.16 / 0.0806).abs() < 1e-9);
    assert!((c(&dear).run_cloud_usd / c(&base).run_cloud_usd - 2.0).abs() < 1e-9);
    assert!(c(&base).capex_usd == c(&base).hardware_usd + c(&base).facility_usd);
    assert!(c(&base).run_amortized_usd > c(&base).energy_usd);
}

#[test]
fn impossible_values_name_their_field() {
    for (path, value, words) in [
        ("cluster.fabric.oversubscription", json!(0.5), "too small (min 1)"),
        (
            "cluster.fabric.switch",
            json!({ "ports": 3, "gbit_per_s": 400 }),
            "Switch ports: is too small (min 4 ports)",
        ),
        ("cluster.system", json!({ "preset": "dgx-h100", "node_price_usd": -5 }), "zero or more"),
        ("facility.pue", json!(0.9), "too small"),
        ("facility.cooling", json!("ice"), "one of air, liquid, hybrid"),
        ("cluster.fabric.tiers", json!(1), "one tier"),
        ("cluster.system", json!("dgx-z"), "unknown system"),
    ] {
        let s = Scenario::default_plan().with_at(path, Some(value.clone()));
        let errors: Vec<String> = match s.resolve() {
            Ok(_) => panic!("{path} = {value} should be refused"),
            Err(e) => e.iter().map(|e| e.to_string()).collect(),
        };
        assert!(errors.iter().any(|e| e.contains(words)), "{path} = {value}: {errors:?}");
    }
}

/// A fabric of a random switch, one or two planes and an oversubscription of 1 to 8.
fn random_fabric(rng: &mut Rng) -> serde_json::Value {
    let switches = ["qm9700", "q3400", "tomahawk5", "h3c-s9827"];
    json!({
        "switch": *rng.pick(&switches),
        "planes": 1 + rng.below(2),
        "oversubscription": 1 + rng.below(8),
    })
}

#[test]
fn random_plants_never_produce_nan_or_negative_figures() {
    let mut rng = Rng(0x0FAB_41C5);
    let systems =
        ["dgx-h100", "dgx-b200", "gb200-nvl72", "atlas-800t-a2", "kuae-s4000", "mi300x-platform"];
    for case in 0..200 {
        let s = random_scenario(&mut rng)
            .with(paths::CLUSTER_SYSTEM, Some(json!(*rng.pick(&systems))))
            .with(&fields::CLUSTER_CHIPS_PER_NODE, None)
            .with(paths::CLUSTER_FABRIC, Some(random_fabric(&mut rng)))
            .with(&fields::FACILITY_COOLING, Some(json!(*rng.pick(&["air", "liquid", "hybrid"]))));
        let Ok((_, e)) = s.estimated() else { continue };
        let f = &e.facility;
        for x in [
            f.power.it_w,
            f.power.facility_w,
            f.energy_mwh,
            f.cost.capex_usd,
            f.cost.run_amortized_usd,
            f.cooling.air_w,
            f.cooling.liquid_w,
        ] {
            assert!(x.is_finite() && x >= 0.0, "case {case}: {x}");
        }
        assert!(f.bom.leaf >= 1 && f.bom.nodes >= 1, "case {case}");
    }
}

/// The bill of materials' priced rows sum to the hardware's cost on any generated cluster
/// (every chip, its own system or a named one, any switch, planes and oversubscription), in
/// dollars and, at the site's rate, in yuan.
#[test]
fn the_priced_bill_of_materials_sums_to_the_hardware_cost() {
    let mut rng = Rng(0x0B0_4D11);
    let systems = [None, Some("dgx-h100"), Some("gb200-nvl72"), Some("atlas-800t-a2")];
    let mut priced = 0;
    for case in 0..300 {
        let mut s = random_scenario(&mut rng)
            .with(paths::CLUSTER_FABRIC, Some(random_fabric(&mut rng)))
            .with(&fields::FACILITY_CURRENCY, Some(json!(*rng.pick(&["usd", "cny"]))))
            .with(&fields::FACILITY_USD_TO_CNY, Some(json!(5.0 + rng.below(5) as f64)));
        if let Some(system) = *rng.pick(&systems) {
            s = s
                .with(paths::CLUSTER_SYSTEM, Some(json!(system)))
                .with(&fields::CLUSTER_CHIPS_PER_NODE, None);
            // NVL72 racks joined eight at a time by a second NVLink tier, half the time.
            if system == "gb200-nvl72" && rng.below(2) == 0 {
                s = s.with(paths::CLUSTER_SCALE_UP, Some(json!("nvlink5-576")));
            }
        }
        let Ok((inputs, e)) = s.estimated() else { continue };
        let rows = clusterplan::model::facility::priced_bom(&inputs.plant, &e.facility);
        let sum: f64 = rows.iter().map(|row| row.price_usd()).sum();
        let hardware = e.facility.cost.hardware_usd;
        assert!(
            (sum - hardware).abs() <= 1e-9 * hardware.max(1.0),
            "case {case}: {sum} vs {hardware}"
        );
        // Their power adds up to the IT load, and every switch and node row names its model.
        let power: f64 = rows.iter().map(|row| row.power_w()).sum();
        let it = e.facility.power.it_w;
        assert!((power - it).abs() <= 1e-6 * it.max(1.0), "case {case}: {power} W vs {it}");
        for row in rows.iter().filter(|r| r.count > 0) {
            assert!(row.unit_w.is_none_or(|w| w >= 0.0), "case {case}: {row:?}");
            if row.item == "nodes"
                || row.item.ends_with("_switches") && row.item != "optical_circuit_switches"
            {
                assert!(!row.model.is_empty(), "case {case}: {row:?}");
            }
        }
        // The file says the same in the site's money.
        let money = clusterplan::format::Money::of(&inputs.plant.facility);
        let csv = clusterplan::report::bom_csv(&inputs.plant, &e.facility);
        let head = format!(
            "item,tier,count,unit_price_{0},price_{0},model,unit_power_w,power_w\n",
            money.code()
        );
        assert!(csv.starts_with(&head), "case {case}: {csv}");
        let in_file: f64 =
            csv.lines().skip(1).filter_map(|l| l.split(',').nth(4)?.parse::<f64>().ok()).sum();
        let want = money.amount(hardware);
        assert!(
            (in_file - want).abs() <= 1e-6 * want.max(1.0) + 0.01 * rows.len() as f64,
            "case {case}"
        );
        priced += 1;
    }
    assert!(priced > 100, "only {priced} of the generated clusters resolved");
}

/// Every chip comes in a priced server but those the catalog prices nowhere (Google's TPUs,
/// rented, never sold), which say so; the H800's is within a quarter of its cited price.
#[test]
fn every_chip_is_priced_or_says_it_is_not() {
    for chip in clusterplan::model::presets::CHIPS {
        let e = evaluate(&with(&[("cluster.chip", json!(chip.id))]));
        let unpriced = e.warnings.contains(&Warning::ServersUnpriced);
        let tpu = chip.id.starts_with("tpu-");
        assert_eq!(unpriced, tpu, "{}: unpriced {unpriced}", chip.id);
        if !tpu {
            // At least the network's share of a node: no server priced at a few dollars.
            let per_chip = e.facility.cost.hardware_usd / 16_384.0;
            assert!(per_chip > 4_000.0, "{}: ${per_chip:.0} of hardware a chip", chip.id);
        }
    }
    // 8-GPU H800 servers at about 2 million yuan at launch (Reuters, early 2024), at 2023's
    // 7.08 yuan a dollar: $35,300 a GPU with its share of the server.
    let (inputs, _) = with(&[("cluster.chip", json!("h800"))]).estimated().expect("resolves");
    let per_gpu = inputs.plant.system.node_price_usd / inputs.plant.system.chips_per_node as f64;
    assert!((per_gpu / 35_300.0 - 1.0).abs() <= 0.25, "H800 at ${per_gpu:.0} a GPU");
    // A price typed for the servers is what they cost, and the warning goes.
    let typed = evaluate(&with(&[
        ("cluster.chip", json!("tpu-v5p")),
        ("cluster.system.node_price_usd", json!(100_000.0)),
    ]));
    assert!(!typed.warnings.contains(&Warning::ServersUnpriced));
    assert!(typed.facility.cost.hardware_usd > 100_000.0 * typed.facility.bom.nodes as f64);
}

/// A RoCE network is built of Ethernet switches and an InfiniBand one of InfiniBand switches,
/// whatever system the chips come in; the same cluster on each differs in switches, power
/// and cost.
#[test]
fn roce_and_infiniband_networks_are_built_of_their_own_switches() {
    let kind = |inputs: &clusterplan::model::Inputs| {
        let found =
            clusterplan::model::presets::SWITCHES.iter().find(|p| p.switch == inputs.plant.switch);
        found.map(|p| p.infiniband)
    };
    for system in [None, Some("dgx-h100"), Some("gb200-nvl72"), Some("atlas-800t-a2")] {
        for (scale_out, ib) in [
            ("roce-100g", false),
            ("roce-200g", false),
            ("roce-400g", false),
            ("roce-800g", false),
            ("ib-hdr", true),
            ("ib-ndr", true),
            ("ib-xdr", true),
        ] {
            let mut s = with(&[("cluster.scale_out", json!(scale_out))]);
            if let Some(system) = system {
                s = s
                    .with(paths::CLUSTER_SYSTEM, Some(json!(system)))
                    .with(&fields::CLUSTER_CHIPS_PER_NODE, None);
            }
            let (inputs, _) = s.estimated().expect("resolves");
            assert_eq!(kind(&inputs), Some(ib), "{scale_out} in {system:?}");
        }
    }
    let on = |scale_out: &str| evaluate(&with(&[("cluster.scale_out", json!(scale_out))])).facility;
    let (roce, ib) = (on("roce-400g"), on("ib-ndr"));
    assert_ne!(roce.bom.switches(), ib.bom.switches());
    assert_ne!(roce.power.network_w, ib.power.network_w);
    assert_ne!(roce.cost.hardware_usd, ib.cost.hardware_usd);
}

/// A server the catalog does not list follows the chip as resolved: its price typed and the
/// node's chips as set.
#[test]
fn a_generic_server_follows_its_chips() {
    let node = |changes: &[(&str, serde_json::Value)]| {
        let (inputs, _) = with(changes).estimated().expect("resolves");
        (inputs.plant.system.node_price_usd, inputs.plant.system.node_max_w)
    };
    let (price8, w8) = node(&[("cluster.chip", json!("h800"))]);
    let (price4, w4) =
        node(&[("cluster.chip", json!("h800")), ("cluster.chips_per_node", json!(4))]);
    assert!((price4 * 2.0 - price8).abs() < 1e-6 && (w4 * 2.0 - w8).abs() < 1e-6);
    let custom = json!({ "preset": "h800", "price_usd": 40_000.0 });
    let (typed, _) = node(&[("cluster.chip", custom)]);
    assert!((typed - 8.0 * 40_000.0 * 1.23).abs() < 1e-6, "{typed}");
}

/// Every constant and site default of the facility estimate is listed with its source.
#[test]
fn every_assumption_is_documented() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/assumptions.md"))
        .expect("docs/assumptions.md");
    let read = |path: &str| std::fs::read_to_string(format!("{root}/{path}")).expect(path);
    let code = read("src/model/facility.rs") + &read("src/model/facility/design.rs");
    let constants: Vec<&str> = code
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .filter_map(|l| l.split(':').next())
        .collect();
    assert!(constants.len() >= 10);
    for name in constants {
        assert!(doc.contains(&format!("`{name}`")), "docs/assumptions.md does not list {name}");
    }
    for field in
        clusterplan::scenario::fields::FIELDS.iter().filter(|f| f.path.starts_with("facility."))
    {
        assert!(
            doc.contains(&format!("`{}`", field.path)),
            "docs/assumptions.md does not list {}",
            field.path
        );
    }
}

/// NVL576 joins eight NVL72 racks by a second NVLink tier, built, powered and priced: for 576
/// GPUs twice the racks' 72 trays in the racks, 72 more above them, 10,368 optical links and
/// 5,184 transceivers of 1.6 Tb/s, so it costs and draws more than NVL72 racks of the same chips.
#[test]
fn nvl576_builds_and_prices_a_second_nvlink_tier() {
    let at = |chips: u32, scale_up: &str| {
        let s = Scenario::default_plan()
            .with(paths::CLUSTER_CHIP, Some(json!("gb200")))
            .with(&fields::CLUSTER_CHIPS, Some(json!(chips)))
            .with(paths::CLUSTER_SYSTEM, Some(json!("gb200-nvl72")))
            .with(paths::CLUSTER_SCALE_OUT, None)
            .with(paths::CLUSTER_SCALE_UP, Some(json!(scale_up)))
            .with(
                paths::PARALLELISM,
                Some(json!({ "tp": 4, "pp": 1, "cp": 1, "virtual_stages": 1 })),
            );
        s.estimated().expect("resolves").1.facility
    };
    let (nvl72, nvl576) = (at(576, "nvlink5-72"), at(576, "nvlink5-576"));
    assert_eq!((nvl72.bom.scale_up_switches, nvl72.bom.scale_up_spines), (72, 0));
    let b = &nvl576.bom;
    assert_eq!((b.scale_up_switches, b.scale_up_spines), (144, 72));
    assert_eq!((b.scale_up_optical_links, b.scale_up_transceivers), (10_368, 5_184));
    for chips in [576, 9_216] {
        let (small, large) = (at(chips, "nvlink5-72"), at(chips, "nvlink5-576"));
        assert!(large.cost.hardware_usd > small.cost.hardware_usd, "{chips}");
        assert!(large.power.network_w > small.power.network_w, "{chips}");
        assert_eq!(large.bom.nodes, small.bom.nodes, "{chips}");
    }
    // One rack needs no second tier, whatever the domain may span.
    assert_eq!(at(72, "nvlink5-576").bom.scale_up_spines, 0);
}
