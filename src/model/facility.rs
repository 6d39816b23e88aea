//! What the cluster as built draws, sheds and costs: power at training load, cooling and the
//! capital and running cost of a run, from the bill of materials and the step's breakdown.
//!
//! Every figure here is either a cited measurement (the constants below) or an assumption the
//! scenario can change (`Facility`); `docs/assumptions.md` lists both with their sources.

mod design;

pub use design::{Design, Storage, POWER_RESPONSE_S};

use crate::model::{finite, Bom, Cluster, Inputs, Switch, System, CABLE_TIERS};

/// How the heat leaves the racks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cooling {
    /// Air through the racks; heat rejected by the room's air handling.
    #[default]
    Air,
    /// Direct liquid: cold plates take most of a node's heat.
    Liquid,
    /// Liquid on the accelerators only, air for the rest.
    Hybrid,
}

/// The money every figure is shown in (`facility.currency`). Prices are entered and the model
/// counts in US dollars; yuan are dollars at the site's rate (`Facility::usd_to_cny`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Currency {
    #[default]
    Usd,
    Cny,
}

/// The site and the prices: assumptions with cited defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Facility {
    /// How racks are cooled.
    pub cooling: Cooling,
    /// Power usage effectiveness: facility power over IT power.
    pub pue: f64,
    /// The most power one rack position can take and cool, watts.
    pub rack_w: f64,
    /// Electricity price, USD per kWh.
    pub usd_per_kwh: f64,
    /// Grid carbon intensity, kg CO2 per kWh (t per MWh).
    pub kg_co2_per_kwh: f64,
    /// Data-centre construction per watt of critical IT load, USD.
    pub build_usd_per_w: f64,
    /// Years the hardware and the building are paid off over.
    pub amortization_years: f64,
    /// Cloud rental per chip-hour, USD.
    pub cloud_usd_per_chip_hour: f64,
    /// Yearly maintenance and support as a share of the hardware's price.
    pub maintenance_share_per_year: f64,
    /// Least power an accelerator is held to while it waits, as a share of its TDP (power
    /// smoothing's floor); 0 for none.
    pub power_floor: f64,
    /// Checkpoints kept on storage at once.
    pub checkpoints_kept: f64,
    /// Price of one storage node, USD.
    pub storage_node_usd: f64,
    /// Temperature of the air the racks take in, °C.
    pub inlet_c: f64,
    /// The money figures are shown in.
    pub currency: Currency,
    /// Yuan per US dollar, for figures shown in yuan.
    pub usd_to_cny: f64,
}

impl Facility {
    /// Share of its speed a chip keeps at the site's inlet temperature
    /// (`efficiency::thermal_speed`): only air-cooled chips slow.
    pub fn thermal_speed(&self) -> f64 {
        crate::model::efficiency::thermal_speed(self.cooling == Cooling::Air, self.inlet_c)
    }
}

/// What a run asks of the site: how busy its accelerators are, how long its steps and the run
/// are, how many tokens it reads, and the checkpoints it writes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    /// Share of a step in kernels (`StepBreakdown::busy_share`).
    pub busy: f64,
    /// One step, seconds.
    pub step_s: f64,
    /// The site's wall-clock time for the run, seconds.
    pub train_s: f64,
    /// Tokens trained.
    pub tokens: f64,
    /// Bytes of one checkpoint.
    pub checkpoint_bytes: f64,
    /// Storage write rate, bytes/s.
    pub storage_bytes_per_s: f64,
}

/// How the cluster's networks are wired (`cluster.fabric.kind`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FabricKind {
    /// One fat tree joining every rail (the DGX SuperPOD design).
    #[default]
    RailOptimized,
    /// Each rail a network of its own (Wang et al. 2023, arXiv:2307.12169).
    RailOnly,
    /// The scale-up domain a 3D torus of 64-chip cubes whose faces meet through optical
    /// circuit switches (TPU v4, Jouppi et al. 2023, arXiv:2304.01433); pods joined by the
    /// scale-out fat tree.
    TorusOcs,
}

/// How the scale-out fabric is built, so it can be rebuilt at another size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FabricRules {
    /// Identical networks, one per scale-out port of a chip.
    pub planes: u32,
    /// Tiers asked for; `None` as the size needs.
    pub tiers: Option<u32>,
    /// Fewest tiers the design builds.
    pub min_tiers: u32,
    /// Nodes per scalable unit of a reference design; `None` for half the switch radix.
    pub unit_nodes: Option<u32>,
    /// Top-tier oversubscription (1 = non-blocking).
    pub oversubscription: f64,
    /// How the networks are wired.
    pub kind: FabricKind,
}

/// The plant: system, switch and the bill of materials built from them, and the site.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plant {
    /// The system the chips come in.
    pub system: System,
    /// The scale-out switch.
    pub switch: Switch,
    /// How the fabric is built.
    pub fabric: FabricRules,
    /// What the cluster is built from.
    pub bom: Bom,
    /// The site and prices.
    pub facility: Facility,
    /// What the system and the switch are called, as the bill of materials names them.
    pub names: Names,
}

/// The names of a plant's parts: the system's and the scale-out switch's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Names {
    pub system: &'static str,
    pub switch: &'static str,
}

impl Plant {
    /// The rate the scale-out network's links run at, bytes/s: one NIC port's (the chip's
    /// scale-out bandwidth over its planes), at most the switch's port rate.
    pub fn link_bytes_per_s(&self, cluster: &Cluster) -> f64 {
        let nic = cluster.scale_out.bytes_per_s / self.fabric.planes.max(1) as f64;
        nic.min(self.switch.port_bytes_per_s)
    }
}

/// Accelerators a liquid-cooled rack holds where the system's own rack is laid out for air:
/// 64, eight servers of eight, as Huawei's liquid-cooled Atlas 900 PoD cabinet holds 64 Ascend
/// 910 (43 kW at most, 47U) and xAI's Colossus racks hold eight liquid-cooled Supermicro HGX
/// H100 servers, where air-cooled halls hold two to four such servers (NVIDIA's DGX H100 design
/// guide: four, 40.8 kW; Meta's Grand Teton racks: two).
pub const LIQUID_RACK_CHIPS: u32 = 64;

/// Servers of `system` a rack holds under `cooling`: its own layout, or as many as
/// `LIQUID_RACK_CHIPS` take when a site cools by liquid a system laid out for air.
pub fn nodes_per_rack(system: &System, cooling: Cooling) -> u32 {
    let own = system.nodes_per_rack.max(1);
    match cooling {
        Cooling::Liquid if !system.liquid => {
            own.max(LIQUID_RACK_CHIPS / system.chips_per_node.clamp(1, LIQUID_RACK_CHIPS))
        }
        _ => own,
    }
}

/// Board power of a chip idling between kernels, as a share of its TDP: 79 W of 700 W on an
/// H200 (measured, `data/h200-measured.md`).
pub const CHIP_IDLE_SHARE: f64 = 79.0 / 700.0;

/// Board power of a chip held to a power cap it would exceed, as a share of the cap: an H100
/// averages 493 W under a 500 W cap and 591 W under 600 W (Ujeniya et al. 2026,
/// arXiv:2604.11391), a V100 146 W under 150 W (Zeus power trace, NSDI'23).
pub const CAP_MET: f64 = 0.98;

/// Board power of a chip running training kernels, as a share of its TDP: 688-693 W of 700 W
/// on an H200 training 1.3B-7B transformers (measured, same source); TPU v4's mean of 170 W
/// against a 192 W maximum (Google Cloud TPU v4 documentation) is 0.89.
pub const CHIP_BUSY_SHARE: f64 = 690.0 / 700.0;

/// Share of a node's non-accelerator maximum (CPUs, memory, NICs, fans, power conversion)
/// drawn during training. BLOOM's Jean Zay run spent 257 MWh on idle and overhead beside
/// 433 MWh of A100 energy (Luccioni et al., JMLR 2023); on a DGX-class node (about half the
/// maximum outside the GPUs) that ratio is reached at about 0.7. An assumption, not a
/// measurement.
pub const HOST_LOAD_SHARE: f64 = 0.7;

/// Power of the optics at one end of an optical link, watts, by the link's rate in Gb/s; a
/// twin-port module's power is shared by its two ports. 100G QSFP28 SR4 modules list under
/// 3.5 W (vendor listings); "an HDR cable can require 6 W per port" (NVIDIA DGX SuperPOD
/// cabling guide); a 400G single-port OSFP draws 8 W typical (NVIDIA MMA4Z00-NS400
/// datasheet) and a twin-port 800G OSFP 15 W for two 400G ports (MMA4Z00-NS); 800G
/// pluggables draw 14-16 W typical (NVIDIA transceiver datasheets).
pub const OPTICS_W_BY_GBIT: [(f64, f64); 4] =
    [(100.0, 3.5), (200.0, 6.0), (400.0, 8.0), (800.0, 15.0)];

/// Power of the optics at one end of an optical link of `gbit` Gb/s, watts: straight between
/// the rates of `OPTICS_W_BY_GBIT` on logarithmic scales, at the nearest rate's energy per bit
/// outside them.
pub fn optics_w_per_end(gbit: f64) -> f64 {
    if !(gbit > 0.0) {
        return 0.0;
    }
    let table = &OPTICS_W_BY_GBIT;
    let (first, last) = (table[0], table[table.len() - 1]);
    if gbit <= first.0 {
        return first.1 * gbit / first.0;
    }
    if gbit >= last.0 {
        return last.1 * gbit / last.0;
    }
    for pair in table.windows(2) {
        let ((r0, w0), (r1, w1)) = (pair[0], pair[1]);
        // The listed rates exactly (every catalog link), without logarithms: a plan search
        // prices every plan's site.
        if gbit == r0 {
            return w0;
        }
        if gbit == r1 {
            return w1;
        }
        if gbit < r1 {
            let t = (gbit / r0).ln() / (r1 / r0).ln();
            return (w0.ln() + t * (w1 / w0).ln()).exp();
        }
    }
    last.1
}

/// Power of a scale-out network's optics, watts: both ends of every optical cable, at the rate
/// its links run: the NIC's, where the switch's ports are faster (the fabric counts as many
/// up-links as down-links, so they run at the NIC's rate too).
pub fn optics_w(bom: &Bom, link_bytes_per_s: f64) -> f64 {
    let cables: u64 = bom.optical.iter().sum();
    2.0 * cables as f64 * optics_w_per_end(gbit(link_bytes_per_s))
}

/// A rate in bytes/s as Gb/s, as optics are rated.
fn gbit(bytes_per_s: f64) -> f64 {
    bytes_per_s / crate::model::presets::units::GBIT_PER_S
}

/// Power of one optical circuit switch, watts (an assumption: MEMS mirrors hold their
/// positions with little power and no figure was published; TPU v4's switches and optics
/// together are "<3% of system power", Jouppi et al. 2023, arXiv:2304.01433).
pub const OCS_W: f64 = 100.0;

/// Price of one optical circuit switch, USD (an assumption: no price was published; TPU v4's
/// switches and optics together are "<5% of system cost", same source).
pub const OCS_USD: f64 = 50_000.0;

/// Optical links of one chip of a 3D torus: two in each dimension.
pub const TORUS_LINKS_PER_CHIP: f64 = 6.0;

/// Power of one scale-up switch tray, watts: an NVL72 rack's 9 NVLink switch trays draw about
/// 3.6 kW (vendor rack specifications via press).
pub const SCALE_UP_SWITCH_W: f64 = 400.0;

/// Share of a liquid-cooled node's heat that leaves through the liquid: 6.2 of 6.6 kW on a
/// GB300 NVL72 compute tray (analyst teardown, as quoted).
pub const LIQUID_HEAT_SHARE: f64 = 6.2 / 6.6;

/// Temperature rise of the liquid loop, kelvin: the design rule of about 1.5 L/min per kW at
/// most 10 K (Open Compute Project liquid-cooling guidance, as quoted).
pub const COOLANT_RISE_K: f64 = 10.0;

/// Water's heat capacity, kJ per kg and kelvin (one litre weighs about a kilogram).
const WATER_KJ_PER_KG_K: f64 = 4.18;

/// One refrigeration ton: 12,000 BTU/h = 3.517 kW (definition).
pub const REFRIGERATION_TON_W: f64 = 3517.0;

/// Price of one optical transceiver, USD (an assumption: 400G-800G pluggables at volume).
pub const TRANSCEIVER_USD: f64 = 800.0;

/// Price of one 1.6 Tb/s transceiver of a second scale-up tier, USD (an assumption: twice an
/// 800G module's `TRANSCEIVER_USD`).
pub const SCALE_UP_TRANSCEIVER_USD: f64 = 1_600.0;

/// Rate of one such transceiver, Gb/s, as optics are rated (`optics_w_per_end`).
pub const SCALE_UP_TRANSCEIVER_GBIT: f64 = 1_600.0;

/// Price of one scale-up switch tray beyond those a rack-scale system's price holds, USD (an
/// assumption: no tray is sold alone; a 128-port 400G Ethernet box is priced at $40,000
/// (`presets::switches`, tomahawk5), and a tray has 144 ports of 400 Gb/s each way).
pub const SCALE_UP_TRAY_USD: f64 = 45_000.0;

/// What the optics of a second scale-up tier draw, watts.
fn scale_up_optics_w(bom: &Bom) -> f64 {
    bom.scale_up_transceivers as f64 * optics_w_per_end(SCALE_UP_TRANSCEIVER_GBIT)
}

/// Price of one cable, USD (an assumption: direct-attach copper and fibre at volume).
pub const CABLE_USD: f64 = 150.0;

/// Price of a rack with its power distribution, USD (an assumption).
pub const RACK_USD: f64 = 30_000.0;

/// Power draws, watts. `it` is the sum of the parts above it; `facility` is `it` times PUE.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Power {
    /// Accelerator boards at training load (idle ones at idle).
    pub chips_w: f64,
    /// Hosts: CPUs, memory, NICs, fans, power conversion.
    pub hosts_w: f64,
    /// Scale-out switches and their transceivers, scale-up switch trays, and a torus's optical
    /// circuit switches with the transceivers of its face links.
    pub network_w: f64,
    /// Of `network_w`, the scale-out network's transceivers.
    pub optics_w: f64,
    /// Checkpoint storage nodes.
    pub storage_w: f64,
    /// All IT equipment.
    pub it_w: f64,
    /// IT times PUE: what the site draws from the grid.
    pub facility_w: f64,
    /// IT at every power supply's maximum, the figure the electrical design must carry.
    pub peak_it_w: f64,
}

impl Power {
    /// What the site draws, split into parts with their ids (worded as `part.<id>`), watts:
    /// the IT parts, then what PUE adds; they sum to `facility_w`.
    pub fn parts(&self) -> [(&'static str, f64); 5] {
        [
            ("chips", self.chips_w),
            ("hosts", self.hosts_w),
            ("network", self.network_w),
            ("storage", self.storage_w),
            ("cooling_and_losses", self.facility_w - self.it_w),
        ]
    }
}

/// How the heat leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CoolingLoad {
    /// Average power of one rack as placed under the rack limit, watts.
    pub rack_w: f64,
    /// Racks needed under the rack power limit.
    pub racks: u64,
    /// Heat into the liquid loop, watts.
    pub liquid_w: f64,
    /// Heat into the air, watts.
    pub air_w: f64,
    /// Coolant flow for the liquid heat at the loop's temperature rise, litres per minute.
    pub coolant_l_per_min: f64,
    /// All heat to reject, in refrigeration tons.
    pub refrigeration_tons: f64,
    /// One node draws more at its maximum than a rack position can take.
    pub node_exceeds_rack: bool,
}

/// What the cluster and the run cost, USD.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    /// Systems, scale-out switches, transceivers, cables and racks.
    pub hardware_usd: f64,
    /// The building, per MW of IT load.
    pub facility_usd: f64,
    /// Hardware and building.
    pub capex_usd: f64,
    /// Electricity for the run.
    pub energy_usd: f64,
    /// The run's share of the hardware's price over the amortisation period.
    pub run_hardware_usd: f64,
    /// The run's share of the building's cost over the amortisation period.
    pub run_building_usd: f64,
    /// Maintenance and support during the run.
    pub run_maintenance_usd: f64,
    /// The run's cost: its shares of hardware and building, maintenance and energy (the four
    /// parts above and `energy_usd` sum to it).
    pub run_amortized_usd: f64,
    /// The run on rented chips.
    pub run_cloud_usd: f64,
    /// Amortised cost of one day of the cluster, with energy and maintenance.
    pub per_day_usd: f64,
    /// Amortised cost per million tokens trained.
    pub per_million_tokens_usd: f64,
}

impl Cost {
    /// The run's amortised cost split into parts with their ids (worded as `part.<id>`), USD;
    /// they sum to `run_amortized_usd`.
    pub fn run_parts(&self) -> [(&'static str, f64); 4] {
        [
            ("hardware_share", self.run_hardware_usd),
            ("building_share", self.run_building_usd),
            ("maintenance", self.run_maintenance_usd),
            ("energy", self.energy_usd),
        ]
    }
}

/// The plant's power, cooling and cost for one run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FacilityEstimate {
    /// Bill of materials (racks as the design places them; `cooling.racks` under the limit).
    pub bom: Bom,
    /// Power draws at training load.
    pub power: Power,
    /// Energy of the run at the site, MWh.
    pub energy_mwh: f64,
    /// Emissions of that energy, tonnes CO2.
    pub co2_t: f64,
    /// Heat and cooling.
    pub cooling: CoolingLoad,
    /// Capital and run cost.
    pub cost: Cost,
    /// The peak the site is built for and the swing it runs with.
    pub design: Design,
    /// Checkpoint storage.
    pub storage: Storage,
}

impl FacilityEstimate {
    /// The bill of materials as `(item, tier, count)` rows with their ids (worded as
    /// `part.<id>`; the tier is empty where an item has none): racks as placed under the rack
    /// power limit, then cables and their optical share per tier.
    pub fn bom_rows(&self) -> Vec<(&'static str, &'static str, u64)> {
        let b = &self.bom;
        let mut rows = vec![
            ("nodes", "", b.nodes),
            ("racks", "", self.cooling.racks),
            ("storage_nodes", "", self.storage.nodes),
            ("scale_up_switch_trays", "", b.scale_up_switches.saturating_sub(b.scale_up_spines)),
            ("optical_circuit_switches", "", b.ocs),
            ("leaf_switches", "", b.leaf),
            ("spine_switches", "", b.spine),
            ("core_switches", "", b.core),
            ("nic_ports", "", b.nics),
            ("transceivers", "", b.transceivers),
        ];
        for (idx, tier) in CABLE_TIERS.iter().enumerate() {
            rows.push(("cables", tier, b.cables[idx]));
            rows.push(("of_which_optical", tier, b.optical[idx]));
        }
        rows
    }
}

/// What the cluster of `inputs` draws built and switched on but left idle, watts: its chips at
/// their idle draw, hosts, network and storage as `f` has them, at the site's PUE.
pub fn idle_w(inputs: &Inputs, f: &FacilityEstimate) -> f64 {
    let chips_w = inputs.cluster.n_chips as f64 * inputs.cluster.chip.tdp_w * CHIP_IDLE_SHARE;
    let p = &f.power;
    finite((chips_w + p.hosts_w + p.network_w + p.storage_w) * inputs.plant.facility.pue.max(1.0))
}

/// What one node's host draws in training, watts: the share `HOST_LOAD_SHARE` of what its
/// maximum leaves beyond its chips' board power.
pub fn host_w(system: &System, tdp_w: f64) -> f64 {
    let host_max = (system.node_max_w - system.chips_per_node as f64 * tdp_w).max(0.0);
    host_max * HOST_LOAD_SHARE
}

/// What one node draws while all its chips run kernels, watts: the chips at training load
/// and the host.
pub fn node_training_w(system: &System, tdp_w: f64) -> f64 {
    let tdp = tdp_w.max(0.0);
    system.chips_per_node as f64 * tdp * CHIP_BUSY_SHARE + host_w(system, tdp)
}

/// What the plant draws and costs whatever runs on it: the chips' levels of draw, the hosts',
/// the network's, the racks as placed and designed, and the hardware's price without its
/// storage. A plan search computes it once for many plans and prices each on it (`assess_on`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Standing {
    /// A chip's draw while it waits, watts.
    idle_w: f64,
    /// The top and the trough of a step's draw per chip (the trough at a power floor).
    top_w: f64,
    low_w: f64,
    hosts_w: f64,
    network_w: f64,
    optics_w: f64,
    /// Nodes per rack as placed under the rack limit, and the racks.
    per_rack: u64,
    racks: u64,
    /// A node's maximum, and a rack's as designed.
    node_max_w: f64,
    rack_design_w: f64,
    /// Systems, switches, optics, cables and racks.
    hardware_usd: f64,
}

/// What `plant` draws and costs on `cluster` whatever runs on it.
pub fn standing(plant: &Plant, cluster: &Cluster) -> Standing {
    let s = &plant.system;
    let f = &plant.facility;
    let bom = &plant.bom;
    let nodes = bom.nodes as f64;
    let tdp = cluster.chip.tdp_w.max(0.0);
    let idle_w = tdp * CHIP_IDLE_SHARE;
    // A chip under a cap it reaches draws just under it (CAP_MET).
    let mut running_w = tdp * CHIP_BUSY_SHARE;
    if cluster.power_cap_w > 0.0 {
        running_w = running_w.min(CAP_MET * cluster.power_cap_w).max(idle_w);
    }
    // The trough of a step is idle or the power floor; the floor's excess over idle is paid
    // for in energy.
    let (top_w, low_w) = design::chip_levels(running_w, idle_w, tdp, f);
    let optics_w = optics_w(bom, plant.link_bytes_per_s(cluster)) + scale_up_optics_w(bom);
    // A torus's face links run at one of a chip's six link rates; their far ends are the
    // circuit switches' mirrors.
    let mut torus_w = 0.0;
    if bom.ocs_links > 0 {
        let link = cluster.scale_up.link.bytes_per_s / TORUS_LINKS_PER_CHIP;
        torus_w = bom.ocs as f64 * OCS_W + bom.ocs_links as f64 * optics_w_per_end(gbit(link));
    }
    let network_w = bom.switches() as f64 * plant.switch.power_w
        + optics_w
        + torus_w
        + (bom.scale_up_switches + bom.scale_up_spines) as f64 * SCALE_UP_SWITCH_W;
    // Racks: the design's layout, fewer nodes per rack where its maximum exceeds the limit.
    let node_max_w = s.node_max_w.max(1.0);
    let fits = (f.rack_w * 1.05 / node_max_w).floor().max(1.0) as u64;
    let per_rack = (nodes_per_rack(s, f.cooling) as u64).min(fits);
    let racks = bom.nodes.div_ceil(per_rack.max(1));
    // The rack as designed: its nodes at their maximum, with its share of scale-up trays.
    let trays = bom.scale_up_switches as f64 / racks.max(1) as f64;
    let rack_design_w = per_rack as f64 * node_max_w + trays * SCALE_UP_SWITCH_W;
    let hardware_usd = nodes * s.node_price_usd
        + bom.switches() as f64 * plant.switch.price_usd
        + bom.transceivers as f64 * TRANSCEIVER_USD
        + bom.ocs as f64 * OCS_USD
        + (bom.total_cables() + bom.ocs_links + bom.scale_up_optical_links) as f64 * CABLE_USD
        + bom.scale_up_added_trays() as f64 * SCALE_UP_TRAY_USD
        + bom.scale_up_transceivers as f64 * SCALE_UP_TRANSCEIVER_USD
        + racks as f64 * RACK_USD;
    Standing {
        idle_w,
        top_w,
        low_w,
        hosts_w: nodes * host_w(s, tdp),
        network_w,
        optics_w,
        per_rack,
        racks,
        node_max_w,
        rack_design_w,
        hardware_usd,
    }
}

/// Power, cooling and cost of `work` on `chips_used` of the cluster's chips, with the peak the
/// site is built for, the swing it runs with and the storage its checkpoints need.
pub fn assess(plant: &Plant, cluster: &Cluster, chips_used: u32, work: &Work) -> FacilityEstimate {
    assess_on(&standing(plant, cluster), plant, cluster, chips_used, work)
}

/// `assess`, on the plant's `Standing` computed before.
pub fn assess_on(
    st: &Standing,
    plant: &Plant,
    cluster: &Cluster,
    chips_used: u32,
    work: &Work,
) -> FacilityEstimate {
    let (busy, train_s, tokens) = (work.busy, work.train_s, work.tokens);
    let s = &plant.system;
    let f = &plant.facility;
    let bom = plant.bom;
    let nodes = bom.nodes as f64;
    let n_chips = cluster.n_chips;
    let used = chips_used.min(n_chips) as f64;
    let idle = n_chips.saturating_sub(chips_used) as f64;
    let Standing { idle_w, top_w, low_w, hosts_w, network_w, optics_w, .. } = *st;
    let (per_rack, racks, node_max) = (st.per_rack, st.racks, st.node_max_w);
    let busy_w = low_w + (top_w - low_w) * busy;
    let chips_w = used * busy_w + idle * idle_w;
    let floor_w = used * (low_w - idle_w) * (1.0 - busy.clamp(0.0, 1.0));
    let storage = design::storage(f, work.storage_bytes_per_s, work.checkpoint_bytes, tokens);
    let storage_w = storage.power_w;
    let it_w = chips_w + hosts_w + network_w + storage_w;
    let pue = f.pue.max(1.0);
    // The site is built for each node's measured peak where one is published, else for its
    // maximum (`System::provisioned_w`).
    let peak_it_w = nodes * s.provisioned_w() + network_w + storage_w;
    let facility_w = it_w * pue;
    let power =
        Power { chips_w, hosts_w, network_w, optics_w, storage_w, it_w, facility_w, peak_it_w };

    let node_w = if nodes > 0.0 { (chips_w + hosts_w) / nodes } else { 0.0 };
    let liquid_share = match f.cooling {
        Cooling::Air => 0.0,
        Cooling::Liquid => LIQUID_HEAT_SHARE,
        Cooling::Hybrid => {
            if chips_w + hosts_w > 0.0 {
                chips_w / (chips_w + hosts_w)
            } else {
                0.0
            }
        }
    };
    let liquid_w = (chips_w + hosts_w) * liquid_share;
    let cooling = CoolingLoad {
        rack_w: node_w * per_rack as f64,
        racks,
        liquid_w,
        air_w: it_w - liquid_w,
        coolant_l_per_min: coolant_l_per_min(liquid_w),
        refrigeration_tons: it_w / REFRIGERATION_TON_W,
        node_exceeds_rack: node_max > f.rack_w,
    };
    let nodes_peak = nodes * s.provisioned_w();
    let peak_liquid_share =
        if peak_it_w > 0.0 { liquid_share * nodes_peak / peak_it_w } else { 0.0 };
    let swing = design::Swing {
        chips: used,
        per_chip_w: top_w - low_w,
        busy,
        step_s: work.step_s,
        floor_w,
    };
    let design = design::design(f, &power, st.rack_design_w, peak_liquid_share, &swing);

    let hours = train_s.max(0.0) / 3600.0;
    let energy_mwh = power.facility_w * hours / 1e6;
    let years = f.amortization_years.max(0.1);
    let hardware_usd = st.hardware_usd + storage.cost_usd;
    let facility_usd = peak_it_w * f.build_usd_per_w;
    let capex_usd = hardware_usd + facility_usd;
    let energy_usd = energy_mwh * 1000.0 * f.usd_per_kwh;
    let days = hours / 24.0;
    let run_hardware_usd = hardware_usd / (years * 365.0) * days;
    let run_building_usd = facility_usd / (years * 365.0) * days;
    let run_maintenance_usd = hardware_usd * f.maintenance_share_per_year / 365.0 * days;
    let run_amortized_usd = run_hardware_usd + run_building_usd + run_maintenance_usd + energy_usd;
    let per_day_usd = if days > 0.0 { run_amortized_usd / days } else { 0.0 };
    let cost = Cost {
        hardware_usd,
        facility_usd,
        capex_usd,
        energy_usd,
        run_hardware_usd,
        run_building_usd,
        run_maintenance_usd,
        run_amortized_usd,
        run_cloud_usd: n_chips as f64 * hours * f.cloud_usd_per_chip_hour,
        per_day_usd,
        per_million_tokens_usd: if tokens > 0.0 { run_amortized_usd / tokens * 1e6 } else { 0.0 },
    };
    let mut out = FacilityEstimate {
        bom: Bom { racks, ..bom },
        power,
        energy_mwh,
        co2_t: energy_mwh * f.kg_co2_per_kwh,
        cooling,
        cost,
        design,
        storage,
    };
    clean(&mut out);
    out
}

/// Coolant flow that carries `liquid_w` of heat at the loop's temperature rise, L/min.
fn coolant_l_per_min(liquid_w: f64) -> f64 {
    liquid_w / 1000.0 * 60.0 / (WATER_KJ_PER_KG_K * COOLANT_RISE_K)
}

/// What one kind of part of the cluster draws at training load and what all of it costs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Share {
    pub power_w: f64,
    pub cost_usd: f64,
}

/// The cluster's power and price split by the parts a drawing of it shows. Shares overlap
/// (the racks hold the nodes, the nodes the chips); `all` is every part together.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Split {
    /// Each scale-out switch tier, leaf first: its switches, with the transceivers of the
    /// tier's optical cables (transceivers shared out by optical cables).
    pub tiers: [Share; 3],
    /// Racks: what the nodes in them draw, and the racks themselves (`RACK_USD`).
    pub racks: Share,
    /// Nodes: chips and hosts, at the system's price per node.
    pub nodes: Share,
    /// Chips alone (priced within their nodes).
    pub chips: Share,
    /// All IT power and the hardware's price.
    pub all: Share,
}

/// One row of the bill of materials: what it is (`item`, worded as `part.<id>`, and `tier`,
/// empty where it has none), how many, its model where one is named, and what one costs and
/// draws at training load, `None` where it is priced or powered within another row (NIC ports
/// and the racks' own scale-up trays in the nodes' price, NIC ports in the nodes' power; the
/// optical cables among the cables; cables and racks draw nothing of their own).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BomRow {
    pub item: &'static str,
    pub tier: &'static str,
    pub count: u64,
    pub model: &'static str,
    pub unit_usd: Option<f64>,
    pub unit_w: Option<f64>,
}

/// The bill of materials of `f`, built as `plant`, each row with the unit price the hardware's
/// cost counts it at and the unit power the IT load counts it at: the rows' prices sum to
/// `cost.hardware_usd`, their power to `power.it_w`. A torus's face links, which
/// `FacilityEstimate::bom_rows` leaves out, are cables at the end, and a second scale-up tier's
/// parts after them.
pub fn priced_bom(plant: &Plant, f: &FacilityEstimate) -> Vec<BomRow> {
    let (b, p) = (&f.bom, &f.power);
    let switch = &plant.switch;
    let each = |total: f64, count: u64| (count > 0).then(|| total / count as f64);
    let up_optics_w = scale_up_optics_w(b);
    let out_optics_w = (p.optics_w - up_optics_w).max(0.0);
    let trays_w = (b.scale_up_switches + b.scale_up_spines) as f64 * SCALE_UP_SWITCH_W;
    // What the network draws beyond its switches, optics and trays: a torus's links and
    // their circuit switches.
    let torus_w = p.network_w - b.switches() as f64 * switch.power_w - p.optics_w - trays_w;
    let links_w = (torus_w - b.ocs as f64 * OCS_W).max(0.0);
    let names = &plant.names;
    let mut rows: Vec<BomRow> = f
        .bom_rows()
        .into_iter()
        .map(|(item, tier, count)| {
            let (model, unit_usd, unit_w) = match item {
                "nodes" => (
                    names.system,
                    Some(plant.system.node_price_usd),
                    each(p.chips_w + p.hosts_w, count),
                ),
                "racks" => ("", Some(RACK_USD), None),
                "storage_nodes" => {
                    ("", Some(plant.facility.storage_node_usd), each(p.storage_w, count))
                }
                "optical_circuit_switches" => ("", Some(OCS_USD), Some(OCS_W)),
                "scale_up_switch_trays" => ("", None, Some(SCALE_UP_SWITCH_W)),
                "leaf_switches" | "spine_switches" | "core_switches" => {
                    (names.switch, Some(switch.price_usd), Some(switch.power_w))
                }
                "transceivers" => ("", Some(TRANSCEIVER_USD), each(out_optics_w, count)),
                "cables" => ("", Some(CABLE_USD), None),
                _ => ("", None, None),
            };
            BomRow { item, tier, count, model, unit_usd, unit_w }
        })
        .collect();
    let row = |item, count, unit_usd: f64, unit_w| BomRow {
        item,
        tier: "",
        count,
        model: "",
        unit_usd: Some(unit_usd),
        unit_w,
    };
    if b.ocs_links > 0 {
        rows.push(row("torus_links", b.ocs_links, CABLE_USD, each(links_w, b.ocs_links)));
    }
    if b.scale_up_spines > 0 {
        let added = b.scale_up_added_trays();
        rows.push(row("scale_up_trays_added", added, SCALE_UP_TRAY_USD, Some(SCALE_UP_SWITCH_W)));
        rows.push(row("scale_up_optical_links", b.scale_up_optical_links, CABLE_USD, None));
        let modules = b.scale_up_transceivers;
        rows.push(row(
            "scale_up_transceivers",
            modules,
            SCALE_UP_TRANSCEIVER_USD,
            each(up_optics_w, modules),
        ));
    }
    rows
}

impl BomRow {
    /// What the row costs in all, USD (0 where it is priced within another).
    pub fn price_usd(&self) -> f64 {
        self.unit_usd.unwrap_or(0.0) * self.count as f64
    }

    /// What the row draws in all at training load, watts (0 where another row holds it).
    pub fn power_w(&self) -> f64 {
        self.unit_w.unwrap_or(0.0) * self.count as f64
    }
}

/// The split of `f`, the plant `plant`'s power and cost, by the parts a drawing shows.
pub fn split(plant: &Plant, f: &FacilityEstimate) -> Split {
    let bom = &f.bom;
    let switch = &plant.switch;
    // The scale-out tiers' optics: a second scale-up tier's are the scale-up fabric's.
    let optics_w = (f.power.optics_w - scale_up_optics_w(bom)).max(0.0);
    let optical: u64 = bom.optical.iter().sum();
    let switches = [bom.leaf, bom.spine, bom.core];
    let tiers = std::array::from_fn(|t| {
        let share = if optical > 0 { bom.optical[t] as f64 / optical as f64 } else { 0.0 };
        let n = switches[t] as f64;
        Share { power_w: n * switch.power_w + optics_w * share, cost_usd: n * switch.price_usd }
    });
    let racks = f.cooling.racks as f64;
    let nodes = bom.nodes as f64;
    let p = &f.power;
    Split {
        tiers,
        racks: Share { power_w: f.cooling.rack_w * racks, cost_usd: racks * RACK_USD },
        nodes: Share {
            power_w: p.chips_w + p.hosts_w,
            cost_usd: nodes * plant.system.node_price_usd,
        },
        chips: Share { power_w: p.chips_w, cost_usd: 0.0 },
        all: Share { power_w: p.it_w, cost_usd: f.cost.hardware_usd },
    }
}

/// No NaN or infinity leaves the model.
fn clean(e: &mut FacilityEstimate) {
    // Each field in place, straight-line (a plan search cleans every plan it times).
    macro_rules! finite_all {
        ($($x:expr),* $(,)?) => { $( $x = finite($x); )* };
    }
    let p = &mut e.power;
    finite_all!(p.chips_w, p.hosts_w, p.network_w, p.optics_w, p.storage_w, p.it_w);
    finite_all!(p.facility_w, p.peak_it_w);
    finite_all!(
        e.energy_mwh,
        e.co2_t,
        e.cooling.rack_w,
        e.cooling.liquid_w,
        e.cooling.air_w,
        e.cooling.coolant_l_per_min,
        e.cooling.refrigeration_tons,
        e.cost.hardware_usd,
        e.cost.facility_usd,
        e.cost.capex_usd,
        e.cost.energy_usd,
        e.cost.run_hardware_usd,
        e.cost.run_building_usd,
        e.cost.run_maintenance_usd,
        e.cost.run_amortized_usd,
        e.cost.run_cloud_usd,
        e.cost.per_day_usd,
        e.cost.per_million_tokens_usd,
        e.design.provisioned_w,
        e.design.rack_w,
        e.design.refrigeration_tons,
        e.design.coolant_l_per_min,
        e.design.swing_w,
        e.design.swing_period_s,
        e.design.floor_w,
        e.storage.capacity_bytes,
        e.storage.bytes_per_s,
        e.storage.power_w,
        e.storage.cost_usd,
    );
}
