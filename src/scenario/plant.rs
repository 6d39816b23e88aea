//! Resolving the cluster as built: `cluster.system`, `cluster.fabric` and `facility` into the
//! model's `Plant`, building the fabric graph on the way for its bill of materials and the tier
//! summary the model reads.
//!
//! Every key defaults so that a scenario written before these keys existed keeps its meaning:
//! the system follows the chip, the fabric is non-blocking, the site takes cited defaults.

use serde_json::Value;

use super::fields::{self, fixed};
use super::resolve::{
    check_keys, leaf, preset, preset_and_fields, short, Catalog, Problem, Reader,
};
use super::{paths, Scenario};
use crate::fabric::{self, Spec};
use crate::model::facility::{Cooling, Currency, FabricKind, FabricRules, Facility, Names, Plant};
use crate::model::presets::{self, units::*, SystemPreset};
use crate::model::reliability::{
    Checkpoint, Confidence, Recovery, Reliability, DEFAULT_RATES, STORAGE_BYTES_PER_S_PER_CHIP,
};
use crate::model::{Chip, Cluster, Switch, System};

/// A site built in this year or later is a new build, with a new build's PUE.
pub const NEW_BUILD_YEAR: f64 = 2020.0;

/// PUE when the scenario gives none, by cooling and the year the site was built. A new build
/// (from `NEW_BUILD_YEAR`) cooled by air runs at 1.3: most new builds fall between 1.2 and 1.4
/// (Uptime Institute, 2020), newer and larger sites reach 1.3 or better (Uptime Institute
/// survey, 2024), and China's new large data centres are held below 1.3 from 2023 (MIIT
/// three-year plan, 2021). Liquid cooling runs at about 1.1, as hyperscale sites do (Meta 1.09
/// for its buildings completed in 2021; Google's fleet 1.09 in 2024; AWS expects 1.08 of its
/// direct-to-chip designs). An older air-cooled site runs at the industry's average, 1.56 in
/// 2024 (Uptime Institute survey). Hybrid is halfway, an assumption.
pub fn default_pue(cooling: Cooling, built_year: f64) -> f64 {
    let new = built_year >= NEW_BUILD_YEAR;
    match (cooling, new) {
        (Cooling::Air, true) => 1.3,
        (Cooling::Air, false) => 1.56,
        (Cooling::Liquid, _) => 1.1,
        (Cooling::Hybrid, true) => 1.2,
        (Cooling::Hybrid, false) => 1.33,
    }
}

/// The system a custom chip comes in: a generic server around the chip's own figures.
fn generic(chip: &Chip, chips_per_node: u32) -> SystemPreset {
    SystemPreset {
        id: "custom",
        name: "Generic server",
        chip: "custom",
        system: presets::generic_server(chip, chips_per_node),
        scale_up: "",
        scale_out: "",
        switch: "",
        superpod: None,
        basis: presets::Basis::Unverified,
        unverified: &[],
        source: "",
    }
}

/// A switch whose ports match the NIC rate, InfiniBand or Ethernet, for systems without a
/// reference design of that kind: NVIDIA's Quantum (HDR, NDR, XDR) or Spectrum-4 (128 x 400G,
/// 64 x 800G) boxes, a Tomahawk 4 box below 400G Ethernet.
fn switch_for_rate(nic_bytes_per_s: f64, infiniband: bool) -> &'static presets::SwitchPreset {
    let by_rate = |id| presets::switch(id).expect("catalog switch");
    let rate = if nic_bytes_per_s <= 200.0 * GBIT_PER_S {
        0
    } else if nic_bytes_per_s <= 400.0 * GBIT_PER_S {
        1
    } else {
        2
    };
    match (infiniband, rate) {
        (true, 0) => by_rate("qm8700"),
        (true, 1) => by_rate("qm9700"),
        (true, _) => by_rate("q3400"),
        (false, 0) => by_rate("tomahawk4"),
        (false, 1) => by_rate("sn5600-400g"),
        (false, _) => by_rate("sn5600"),
    }
}

/// Whether a scale-out preset is InfiniBand (`ib-*`) or Ethernet (`roce-*`); `None` for the
/// others, whose systems' switches stand.
fn infiniband(scale_out_id: &str) -> Option<bool> {
    if scale_out_id.starts_with("ib-") {
        Some(true)
    } else if scale_out_id.starts_with("roce-") {
        Some(false)
    } else {
        None
    }
}

/// Keys of the custom system, fabric and switch objects beyond their fields in the table.
const SYSTEM_EXTRA: &[&str] = &["name", "chips_per_node"];
const FABRIC_EXTRA: &[&str] = &["switch", "kind"];
const SWITCH_EXTRA: &[&str] = &["name"];

impl Scenario {
    /// The system preset the scenario names (explicitly), for the cluster's defaults.
    pub(super) fn named_system(&self) -> Option<&'static SystemPreset> {
        let id = match self.cluster.system.as_ref()? {
            Value::String(id) => id.trim(),
            Value::Object(map) => map.get("preset")?.as_str()?.trim(),
            _ => return None,
        };
        presets::system(id)
    }

    /// The plant: system, switch, bill of materials and site; sets the cluster's network
    /// summary and multiplies its NIC rate by the planes.
    pub(super) fn resolve_plant(
        &self,
        r: &mut Reader,
        chip_id: Option<&str>,
        cluster: &mut Cluster,
    ) -> Plant {
        let base = match &self.cluster.system {
            None => chip_id
                .and_then(presets::system_for_chip)
                .unwrap_or_else(|| generic(&cluster.chip, cluster.chips_per_node)),
            Some(raw) => {
                let (id, _) = preset_and_fields(r, raw, "cluster.system");
                match id {
                    Some(id) => {
                        match preset(
                            r,
                            "cluster.system",
                            Catalog::System,
                            id,
                            presets::SYSTEMS,
                            |p| p.id,
                        ) {
                            Some(p) => *p,
                            None => generic(&cluster.chip, cluster.chips_per_node),
                        }
                    }
                    // Keys without a preset: a chip the catalog builds no system around keeps
                    // its own generic server (its switch and fabrics), as without the keys.
                    None => chip_id
                        .and_then(presets::system_for_chip)
                        .filter(|own| presets::system(own.id).is_none())
                        .unwrap_or_else(|| generic(&cluster.chip, cluster.chips_per_node)),
                }
            }
        };
        let mut system = base.system;
        system.chips_per_node = cluster.chips_per_node;
        // A server the catalog does not list follows the chip as resolved (its power and price
        // typed or the preset's) and the node's chips as set.
        if presets::system(base.id).is_none() {
            let own = presets::generic_server(&cluster.chip, system.chips_per_node);
            (system.node_max_w, system.node_price_usd) = (own.node_max_w, own.node_price_usd);
        }
        if let Some(Value::Object(map)) = &self.cluster.system {
            check_keys(r, map, "cluster.system", SYSTEM_EXTRA);
            if let Some(name) = map.get("name") {
                r.text(name, "cluster.system.name");
            }
            let get = |path: &str| map.get(leaf(path)).cloned();
            system.nics_per_chip = r.count(
                &get(fields::CLUSTER_SYSTEM_NICS_PER_CHIP.path),
                &fields::CLUSTER_SYSTEM_NICS_PER_CHIP,
                Some(system.nics_per_chip),
            );
            let kw = &fields::CLUSTER_SYSTEM_NODE_MAX_KW;
            let default = Some(kw.from_si(system.node_max_w));
            system.node_max_w =
                kw.to_si(r.positive(&get(fields::CLUSTER_SYSTEM_NODE_MAX_KW.path), kw, default));
            // A measured peak of one's own; without one, the preset's, which a maximum typed
            // below it caps (`System::provisioned_w`).
            let peak = &fields::CLUSTER_SYSTEM_NODE_PEAK_KW;
            if let Some(raw) = get(fields::CLUSTER_SYSTEM_NODE_PEAK_KW.path) {
                system.node_peak_w = peak.to_si(r.positive(&Some(raw), peak, None));
            }
            system.nodes_per_rack = r.count(
                &get(fields::CLUSTER_SYSTEM_NODES_PER_RACK.path),
                &fields::CLUSTER_SYSTEM_NODES_PER_RACK,
                Some(system.nodes_per_rack),
            );
            system.liquid = r.flag(
                &get(fields::CLUSTER_SYSTEM_LIQUID.path),
                &fields::CLUSTER_SYSTEM_LIQUID,
                system.liquid,
            );
            system.node_price_usd = match get(fields::CLUSTER_SYSTEM_NODE_PRICE_USD.path) {
                None => system.node_price_usd,
                Some(v) => r.non_negative(&v, &fields::CLUSTER_SYSTEM_NODE_PRICE_USD),
            };
            if map.contains_key("chips_per_node") {
                let other = "cluster.chips_per_node";
                r.error("cluster.system.chips_per_node", Problem::SetBy { other });
            }
        }

        // The fabric.
        let fabric_map = match &self.cluster.fabric {
            None | Some(Value::Null) => None,
            Some(Value::Object(map)) => {
                check_keys(r, map, "cluster.fabric", FABRIC_EXTRA);
                Some(map)
            }
            Some(other) => {
                r.error("cluster.fabric", Problem::NotObject { got: short(other), or_null: false });
                None
            }
        };
        let get = |path: &str| fabric_map.and_then(|m| m.get(leaf(path)).cloned());
        let own_switch = presets::switch(base.switch).or_else(|| presets::switch("qm9700"));
        // A RoCE network is built of Ethernet switches and an InfiniBand one of InfiniBand
        // switches, whatever the system's reference design uses.
        let scale_out_id = match &self.cluster.scale_out {
            Some(Value::String(id)) => Some(id.trim()),
            Some(Value::Object(map)) => map.get("preset").and_then(Value::as_str),
            Some(_) => None,
            None => Some(base.scale_out),
        };
        let kind_asked = scale_out_id.and_then(infiniband);
        let (switch, own, switch_name) = match get(paths::CLUSTER_FABRIC_SWITCH.as_str()) {
            None => match presets::switch(base.switch) {
                Some(p) if kind_asked.is_none_or(|ib| ib == p.infiniband) => {
                    (p.switch, true, p.name)
                }
                reference => {
                    let ib = kind_asked.or(reference.map(|p| p.infiniband)).unwrap_or(true);
                    let p = switch_for_rate(cluster.scale_out.bytes_per_s, ib);
                    (p.switch, false, p.name)
                }
            },
            Some(raw) => {
                let named = match &raw {
                    Value::String(id) => presets::switch(id.trim()).map(|p| p.name),
                    _ => None,
                };
                let switch = self.resolve_switch(r, &raw, own_switch.map(|p| p.switch));
                (switch, false, named.unwrap_or("Custom switch"))
            }
        };
        let planes = r.count(
            &get(fields::CLUSTER_FABRIC_PLANES.path),
            &fields::CLUSTER_FABRIC_PLANES,
            Some(system.nics_per_chip),
        );
        let tiers = match get(fields::CLUSTER_FABRIC_TIERS.path) {
            None | Some(Value::Null) => None,
            Some(v) => Some(r.count(&Some(v), &fields::CLUSTER_FABRIC_TIERS, None)),
        };
        let oversubscription = match get(fields::CLUSTER_FABRIC_OVERSUBSCRIPTION.path) {
            None => fixed!(CLUSTER_FABRIC_OVERSUBSCRIPTION),
            // The field table's range refuses anything below 1 (1 = non-blocking, 7 = 1:7).
            Some(v) => {
                r.positive(&Some(v), &fields::CLUSTER_FABRIC_OVERSUBSCRIPTION, None).max(1.0)
            }
        };
        let kind = r.choice(
            &get(fields::CLUSTER_FABRIC_KIND.path),
            &fields::CLUSTER_FABRIC_KIND,
            FabricKind::RailOptimized,
        );
        // A reference architecture's rules hold with its own switch and a kind that keeps its
        // fat tree (a torus's pods are joined by it).
        let rules = base.superpod.filter(|_| own && kind != FabricKind::RailOnly);
        let spec = Spec {
            chips: cluster.n_chips,
            chips_per_node: system.chips_per_node,
            domain_chips: cluster.scale_up.domain_size,
            planes,
            nodes_per_rack: system.nodes_per_rack,
            scale_up_switches_per_rack: system.scale_up_switches_per_rack,
            switch,
            tiers,
            min_tiers: rules.map_or(1, |p| p.min_tiers),
            unit_nodes: rules.map(|p| p.nodes_per_unit),
            oversubscription,
            kind,
        };
        let built = match fabric::counted(&spec) {
            Ok(f) => Some(f),
            Err(e) => {
                let field = match e {
                    fabric::FabricError::DomainBelowCube { .. } => "cluster.fabric.kind",
                    _ if tiers.is_some() => "cluster.fabric.tiers",
                    _ => "cluster.fabric.switch",
                };
                r.error(field, Problem::Fabric(e));
                None
            }
        };
        cluster.scale_out.bytes_per_s *= planes.max(1) as f64;
        if let Some((_, network)) = built {
            cluster.network = network;
        }
        let reducing = &fields::CLUSTER_FABRIC_IN_NETWORK_REDUCTION;
        cluster.network.in_network_reduction =
            r.flag(&get(fields::CLUSTER_FABRIC_IN_NETWORK_REDUCTION.path), reducing, false);
        let facility = self.resolve_facility(r, &system);
        let fabric = FabricRules {
            planes,
            tiers,
            min_tiers: spec.min_tiers,
            unit_nodes: spec.unit_nodes,
            oversubscription,
            kind,
        };
        let names = Names { system: base.name, switch: switch_name };
        let bom = built.map(|(bom, _)| bom).unwrap_or_default();
        Plant { system, switch, fabric, bom, facility, names }
    }

    fn resolve_switch(&self, r: &mut Reader, raw: &Value, fallback: Option<Switch>) -> Switch {
        let field = paths::CLUSTER_FABRIC_SWITCH.as_str();
        let (id, map) = preset_and_fields(r, raw, field);
        let base = match id {
            Some(id) => preset(r, field, Catalog::Switch, id, presets::SWITCHES, |p| p.id)
                .map(|p| p.switch)
                .or(fallback),
            None => None,
        };
        let Some(map) = map else {
            return base.or(fallback).unwrap_or(presets::SWITCHES[0].switch);
        };
        check_keys(r, map, field, SWITCH_EXTRA);
        if let Some(name) = map.get("name") {
            r.text(name, &format!("{field}.name"));
        }
        let get = |path: &str| map.get(leaf(path)).cloned();
        let ports = r.count(
            &get(fields::CLUSTER_FABRIC_SWITCH_PORTS.path),
            &fields::CLUSTER_FABRIC_SWITCH_PORTS,
            base.map(|s| s.ports),
        );
        let gbit = r.positive(
            &get(fields::CLUSTER_FABRIC_SWITCH_GBIT_PER_S.path),
            &fields::CLUSTER_FABRIC_SWITCH_GBIT_PER_S,
            base.map(|s| fields::CLUSTER_FABRIC_SWITCH_GBIT_PER_S.from_si(s.port_bytes_per_s)),
        );
        let power_w = r.positive(
            &get(fields::CLUSTER_FABRIC_SWITCH_POWER_W.path),
            &fields::CLUSTER_FABRIC_SWITCH_POWER_W,
            Some(base.map_or(fixed!(CLUSTER_FABRIC_SWITCH_POWER_W), |s| s.power_w)),
        );
        let price_usd = match get(fields::CLUSTER_FABRIC_SWITCH_PRICE_USD.path) {
            None => base.map_or(fixed!(CLUSTER_FABRIC_SWITCH_PRICE_USD), |s| s.price_usd),
            Some(v) => r.non_negative(&v, &fields::CLUSTER_FABRIC_SWITCH_PRICE_USD),
        };
        Switch {
            ports,
            port_bytes_per_s: fields::CLUSTER_FABRIC_SWITCH_GBIT_PER_S.to_si(gbit),
            power_w,
            price_usd,
            ports_per_transceiver: base.map_or(1, |s| s.ports_per_transceiver),
        }
    }

    /// Failures, checkpoints and recovery.
    pub(super) fn resolve_reliability(&self, r: &mut Reader, chips: u32) -> Reliability {
        let spec = &self.reliability;
        r.unknown("reliability", &spec.others);
        let checkpoint =
            r.choice(&spec.checkpoint, &fields::RELIABILITY_CHECKPOINT, Checkpoint::Async);
        let storage_field = &fields::RELIABILITY_STORAGE_GB_PER_S;
        let storage_default =
            storage_field.from_si(STORAGE_BYTES_PER_S_PER_CHIP * chips.max(1) as f64);
        let storage = r.positive(&spec.storage_gb_per_s, storage_field, Some(storage_default));
        let mut rates = DEFAULT_RATES;
        // The default rates are Meta's, measured on H100: a chip of another vendor, or the
        // user's own, borrows its accelerator and HBM rates unless they are given.
        let given = |key: &str| spec.rates.as_ref().and_then(|v| v.get(key)).is_some();
        let nvidia = self.chip_preset().is_some_and(|c| c.vendor == "NVIDIA");
        let measured = given("chip") && given("hbm");
        let rates_borrowed = !(nvidia || measured);
        match &spec.rates {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                check_keys(r, map, "reliability.rates", &[]);
                for (key, field, rate) in [
                    ("chip", &fields::RELIABILITY_RATES_CHIP, &mut rates.chip),
                    ("hbm", &fields::RELIABILITY_RATES_HBM, &mut rates.hbm),
                    ("host", &fields::RELIABILITY_RATES_HOST, &mut rates.host),
                    ("software", &fields::RELIABILITY_RATES_SOFTWARE, &mut rates.software),
                    ("nic", &fields::RELIABILITY_RATES_NIC, &mut rates.nic),
                    ("switch", &fields::RELIABILITY_RATES_SWITCH, &mut rates.switch),
                    ("link", &fields::RELIABILITY_RATES_LINK, &mut rates.link),
                ] {
                    if let Some(v) = map.get(key) {
                        *rate = field.to_si(r.non_negative(v, field));
                    }
                }
            }
            Some(other) => {
                let problem = Problem::NotObject { got: short(other), or_null: false };
                r.error("reliability.rates", problem)
            }
        }
        let recovery = r.choice(&spec.recovery, &fields::RELIABILITY_RECOVERY, Recovery::Spare);
        r.unknown("sizing", &self.sizing.others);
        let confidence =
            r.choice(&self.sizing.confidence, &fields::SIZING_CONFIDENCE, Confidence::Central);
        let spare_nodes = match &spec.spare_nodes {
            None | Some(Value::Null) => None,
            raw => Some(r.count(raw, &fields::RELIABILITY_SPARE_NODES, None)),
        };
        let repair = &fields::RELIABILITY_REPAIR_H;
        let repair_h = match &spec.repair_h {
            None | Some(Value::Null) => repair.fixed(),
            Some(v) => r.non_negative(v, repair),
        };
        let deadline_days = match &spec.deadline_days {
            None | Some(Value::Null) => None,
            raw => Some(r.positive(raw, &fields::RELIABILITY_DEADLINE_DAYS, None)),
        };
        Reliability {
            checkpoint,
            storage_bytes_per_s: storage_field.to_si(storage),
            recovery,
            spare_nodes,
            repair_s: repair.to_si(repair_h),
            deadline_days,
            rates,
            rates_borrowed,
            confidence,
            // Plain fields, set from the field table.
            ..Reliability::default()
        }
    }

    fn resolve_facility(&self, r: &mut Reader, system: &System) -> Facility {
        let f = &self.facility;
        r.unknown("facility", &f.others);
        let own = if system.liquid { Cooling::Liquid } else { Cooling::Air };
        let cooling = r.choice(&f.cooling, &fields::FACILITY_COOLING, own);
        let year = &fields::FACILITY_BUILT_YEAR;
        let built_year = r.positive(&f.built_year, year, Some(year.fixed()));
        let pue = r.positive(&f.pue, &fields::FACILITY_PUE, Some(default_pue(cooling, built_year)));
        let rack_kw = &fields::FACILITY_RACK_KW;
        let per_rack = crate::model::facility::nodes_per_rack(system, cooling);
        let design_rack_kw = rack_kw.from_si(per_rack as f64 * system.node_max_w);
        let inlet = &fields::FACILITY_INLET_C;
        let rate = &fields::FACILITY_USD_TO_CNY;
        Facility {
            cooling,
            pue,
            rack_w: rack_kw.to_si(r.positive(&f.rack_kw, rack_kw, Some(design_rack_kw.max(1.0)))),
            inlet_c: r.positive(&f.inlet_c, inlet, Some(inlet.fixed())),
            currency: r.choice(&f.currency, &fields::FACILITY_CURRENCY, Currency::Usd),
            usd_to_cny: r.positive(&f.usd_to_cny, rate, Some(rate.fixed())),
            // Prices and the grid: plain fields, set from the field table.
            ..Facility::default()
        }
    }
}
