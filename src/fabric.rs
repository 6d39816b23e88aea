//! The scale-out network as a graph (petgraph): a rail-optimised fat tree of 1, 2 or 3 tiers,
//! one graph per plane, from which come the bill of materials and the tier summary the model
//! reads (`model::Network`).
//!
//! Vertices are groups, not boxes, so a 100,000-chip cluster is a graph of a few hundred
//! vertices: the nodes of one scalable unit, that unit's leaf switches (one per rail), a pod's
//! spines, the core. Edge weights count cables. The model never sees the graph; it gets plain
//! counts (`model::Bom`) and the summary.
//!
//! Sizing rules (Leiserson 1985 fat trees, as built rail-optimised in the NVIDIA DGX SuperPOD
//! reference architectures): a leaf gives half its ports to nodes and half to spines; a unit is
//! as many nodes as a leaf has down-ports, with one leaf per rail (GPU index) so that a rail's
//! traffic stays on one leaf; two tiers while every spine can reach every leaf, else pods of
//! half a radix of leaves under their own spines, joined by a core. Uplinks spread evenly, so
//! a tier's switch count is rounded up to a divisor of the uplinks each switch below sends
//! (the SuperPOD B300 tables: 4 units use 18 spines, not 16). Oversubscription thins the top
//! tier's uplinks.

use petgraph::graph::{DiGraph, NodeIndex};

use crate::model::facility::FabricKind;
use crate::model::presets::{self, SystemPreset};
use crate::model::sweep::{self, ScalingPoint};
use crate::model::{estimate, Bom, Inputs, Network, Switch};

/// What the fabric is built from and for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// Chips in the cluster.
    pub chips: u32,
    /// Chips per node.
    pub chips_per_node: u32,
    /// Chips of one scale-up domain; a rail-only network's rails are its positions (a node's
    /// chips where the domain is the node).
    pub domain_chips: u32,
    /// Scale-out ports per chip: one plane each.
    pub planes: u32,
    /// Nodes per rack; a unit that fits in a rack is cabled in copper to its leaves.
    pub nodes_per_rack: u32,
    /// Scale-up switch trays per rack (NVL72's 9), counted in the bill of materials.
    pub scale_up_switches_per_rack: u32,
    /// The switch at every tier.
    pub switch: Switch,
    /// Tiers to build; `None` as the size needs.
    pub tiers: Option<u32>,
    /// Fewest tiers the design builds (a reference architecture's rule).
    pub min_tiers: u32,
    /// Down-ports per leaf per rail (nodes per scalable unit); `None` for half the radix.
    pub unit_nodes: Option<u32>,
    /// Top tier oversubscription: down-links per up-link of the tier below it (1 = none).
    pub oversubscription: f64,
    /// How the networks are wired.
    pub kind: FabricKind,
}

/// A group of identical things in the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vertex {
    /// Nodes of scalable unit `unit`.
    Nodes { unit: u32, count: u32 },
    /// Leaf switches of unit `unit`, one per rail.
    Leaves { unit: u32, count: u32 },
    /// Spine switches of pod `pod`.
    Spines { pod: u32, count: u32 },
    /// Core switches.
    Cores { count: u32 },
}

/// Cables between two groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cables {
    /// Tier index: 0 node-leaf, 1 leaf-spine, 2 spine-core.
    pub tier: usize,
    /// Cables.
    pub count: u64,
    /// Optical (beyond a rack) rather than copper.
    pub optical: bool,
}

/// One plane of the fabric, its bill of materials (all planes) and what collectives feel.
#[derive(Clone, Debug)]
pub struct Fabric {
    /// One plane's graph (every plane is the same).
    pub plane: DiGraph<Vertex, Cables>,
    /// Bill of materials of the whole cluster.
    pub bom: Bom,
    /// The tier summary the model reads.
    pub network: Network,
}

/// Why a fabric cannot be built as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FabricError {
    /// Occurs when one tier is asked for but the endpoints outnumber the switch's ports.
    OneTierTooSmall { endpoints: u64, ports: u32 },
    /// Occurs when a switch has too few ports to split into down- and up-links.
    TooFewPorts { ports: u32 },
    /// Occurs when a torus of cubes is asked for with a scale-up domain smaller than a cube.
    DomainBelowCube { domain: u32 },
    /// Occurs when `tiers` tiers of `ports`-port switches cannot join `endpoints` chips even
    /// with each port split `PORT_SPLITS` ways: a spine reaches at most `ports` leaves, a core
    /// at most `ports` pods.
    Unwireable { endpoints: u64, ports: u32, tiers: u32 },
}

/// Ways a switch's ports may be split, fewest first, when its radix cannot wire the cluster in
/// the tiers asked for: a 51.2 Tb/s switch's 64 ports of 800G (or NDR's 64 of 400G) run as 128
/// at half the rate (breakout cables), each chip's NIC then on twice the planes at half the
/// rate, so its bandwidth stays.
pub const PORT_SPLITS: [u32; 3] = [1, 2, 4];

/// Chips in one cube of a torus pod: 4 x 4 x 4 in a rack (TPU v4; Jouppi et al. 2023,
/// arXiv:2304.01433).
pub const CUBE_CHIPS: u32 = 64;

/// Optical links leaving a cube: 16 on each of its 6 faces (6,144 for a 4,096-chip pod).
pub const CUBE_LINKS: u64 = 96;

/// Ports of an optical circuit switch a torus uses: Palomar's 136, 128 of them in service;
/// 48 switches join a 4,096-chip TPU v4 pod's 6,144 links (HPCwire 2023, quoting Google).
pub const OCS_PORTS: u64 = 128;

/// The smallest divisor of `links` that is at least `min` (or `min` when none is): switches
/// over which each switch below can spread its `links` uplinks evenly.
fn even_spread(min: u64, links: u64) -> u64 {
    (min.max(1)..=links).find(|d| links % d == 0).unwrap_or(min.max(1))
}

/// Builds the fabric: as asked, or, where the switch's radix cannot wire it in the tiers
/// asked for, with its ports split (`PORT_SPLITS`, the split in `Bom::port_split`).
pub fn build(spec: &Spec) -> Result<Fabric, FabricError> {
    let mut last = FabricError::TooFewPorts { ports: spec.switch.ports };
    for split in PORT_SPLITS {
        match build_split(spec, split) {
            // Said of the switch as it is, unsplit.
            Err(FabricError::Unwireable { endpoints, tiers, .. }) => {
                last = FabricError::Unwireable { endpoints, ports: spec.switch.ports, tiers }
            }
            built => return built,
        }
    }
    Err(last)
}

/// Specs whose counts are remembered: a year resolves each chip's cluster at the same ladder
/// of sizes once for every job, and building the graph each time was a fifth of its time.
const REMEMBERED: usize = 1024;

thread_local! {
    /// `counted`'s answers by spec, emptied when full.
    static COUNTED: std::cell::RefCell<std::collections::HashMap<[u64; 16], Counted>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// What a resolved plan needs of its fabric: the bill of materials and the network.
type Counted = Result<(Bom, Network), FabricError>;

/// `build`'s bill of materials and network, without keeping the graph; the same answer for
/// the same spec, remembered for the last `REMEMBERED` specs asked.
pub fn counted(spec: &Spec) -> Counted {
    let s = spec;
    let w = &s.switch;
    let key = [
        s.chips as u64,
        s.chips_per_node as u64,
        s.domain_chips as u64,
        s.planes as u64,
        s.nodes_per_rack as u64,
        s.scale_up_switches_per_rack as u64,
        w.ports as u64,
        w.port_bytes_per_s.to_bits(),
        w.power_w.to_bits(),
        w.price_usd.to_bits(),
        w.ports_per_transceiver as u64,
        s.tiers.map_or(u64::MAX, u64::from),
        s.min_tiers as u64,
        s.unit_nodes.map_or(u64::MAX, u64::from),
        s.oversubscription.to_bits(),
        s.kind as u64,
    ];
    let known = COUNTED.with(|m| m.try_borrow().ok().and_then(|m| m.get(&key).copied()));
    if let Some(answer) = known {
        return answer;
    }
    let answer = build(spec).map(|f| (f.bom, f.network));
    COUNTED.with(|m| {
        if let Ok(mut m) = m.try_borrow_mut() {
            if m.len() >= REMEMBERED {
                m.clear();
            }
            m.insert(key, answer);
        }
    });
    answer
}

/// The fabric of `spec` with each switch port split `split` ways.
fn build_split(spec: &Spec, split: u32) -> Result<Fabric, FabricError> {
    let s = spec.switch;
    let split_spec = Spec {
        planes: spec.planes.max(1) * split,
        switch: Switch {
            ports: s.ports.saturating_mul(split),
            port_bytes_per_s: s.port_bytes_per_s / split as f64,
            ports_per_transceiver: s.ports_per_transceiver.max(1) * split,
            ..s
        },
        // A scalable unit's leaf serves as many more nodes as it has ports.
        unit_nodes: spec.unit_nodes.map(|u| u.saturating_mul(split)),
        ..*spec
    };
    let spec = &split_spec;
    let mut fabric = match spec.kind {
        FabricKind::RailOnly if spec.rails() > 1 => rail_only(spec)?,
        _ => fat_tree(spec)?,
    };
    fabric.bom.port_split = split;
    if spec.kind == FabricKind::TorusOcs {
        if spec.domain_chips < CUBE_CHIPS {
            return Err(FabricError::DomainBelowCube { domain: spec.domain_chips });
        }
        // Every cube's face links go to the switches; the switches hold no transceivers.
        let cubes = (spec.chips.max(1) as u64).div_ceil(CUBE_CHIPS as u64);
        let b = &mut fabric.bom;
        b.ocs_links = cubes * CUBE_LINKS;
        b.ocs = b.ocs_links.div_ceil(OCS_PORTS);
        b.transceivers += b.ocs_links;
    }
    Ok(fabric)
}

/// The rail-optimised fat tree of `spec`.
fn fat_tree(spec: &Spec) -> Result<Fabric, FabricError> {
    let k = spec.switch.ports;
    let chips = spec.chips.max(1) as u64;
    let per_node = spec.chips_per_node.max(1) as u64;
    let nodes = chips.div_ceil(per_node);
    let planes = spec.planes.max(1);
    let o = if spec.oversubscription.is_finite() { spec.oversubscription.max(1.0) } else { 1.0 };
    let mut g = DiGraph::new();

    let one_tier_fits = chips <= k as u64;
    let forced = spec.tiers.map(|t| t.clamp(1, 3));
    if forced == Some(1) && !one_tier_fits {
        return Err(FabricError::OneTierTooSmall { endpoints: chips, ports: k });
    }
    if k < 4 && !(forced == Some(1) || (one_tier_fits && spec.min_tiers <= 1)) {
        return Err(FabricError::TooFewPorts { ports: k });
    }
    let single = forced == Some(1) || (forced.is_none() && spec.min_tiers <= 1 && one_tier_fits);
    let rack_nodes = spec.nodes_per_rack.max(1) as u64;
    if single {
        let n = g.add_node(Vertex::Nodes { unit: 0, count: nodes as u32 });
        let leaf = g.add_node(Vertex::Leaves { unit: 0, count: 1 });
        let optical = nodes > rack_nodes;
        g.add_edge(n, leaf, Cables { tier: 0, count: chips, optical });
        return Ok(finish(g, spec, nodes, 1, planes, Network::NON_BLOCKING));
    }

    // Leaves: one per rail per unit; down-ports to the unit's nodes, the rest up.
    let unit = spec.unit_nodes.map_or((k / 2) as u64, |u| u as u64).clamp(1, k as u64 - 1);
    let units = nodes.div_ceil(unit);
    let rails = per_node;
    let leaves = units * rails;
    let two_tier_up =
        |down: u64| -> u64 { ((down as f64 / o).ceil() as u64).clamp(1, k as u64 - down) };
    let full_up = (k as u64 - unit).max(1);
    let tiers = match forced {
        Some(t) => t.max(2),
        None if leaves <= k as u64 && spec.min_tiers <= 2 => 2,
        None => 3,
    };
    // Every spine reaches every leaf below it, every core every pod: a switch's ports bound both.
    if tiers == 2 && leaves > k as u64 {
        return Err(FabricError::Unwireable { endpoints: chips, ports: k, tiers });
    }
    let leaf_up = if tiers == 2 { two_tier_up(unit) } else { full_up };
    let mut leaf_nodes = Vec::with_capacity(units as usize);
    for u in 0..units {
        let in_unit = (nodes - u * unit).min(unit);
        let n = g.add_node(Vertex::Nodes { unit: u as u32, count: in_unit as u32 });
        let l = g.add_node(Vertex::Leaves { unit: u as u32, count: rails as u32 });
        // A unit cabled inside its rack uses copper; rail leaves across racks need optics.
        g.add_edge(n, l, Cables { tier: 0, count: in_unit * rails, optical: unit > rack_nodes });
        leaf_nodes.push(l);
    }

    let network = if tiers == 2 {
        let spines = even_spread((leaves * leaf_up).div_ceil(k as u64), leaf_up);
        let s = g.add_node(Vertex::Spines { pod: 0, count: spines as u32 });
        for &l in &leaf_nodes {
            g.add_edge(l, s, Cables { tier: 1, count: rails * leaf_up, optical: true });
        }
        let pod_chips = if o > 1.0 { unit * per_node } else { u64::MAX };
        Network { pod_chips, oversubscription: o, tiers: 2, ..Network::NON_BLOCKING }
    } else {
        // Pods: as many whole units as a spine's down-ports reach, one link per leaf.
        let spine_down = (k / 2) as u64;
        let units_per_pod = (spine_down / rails).max(1);
        let pods = units.div_ceil(units_per_pod);
        if pods > k as u64 || rails > spine_down {
            return Err(FabricError::Unwireable { endpoints: chips, ports: k, tiers });
        }
        let spine_up = ((spine_down as f64 / o).ceil() as u64).clamp(1, k as u64 - spine_down);
        let mut spine_nodes = Vec::new();
        let mut total_spines = 0;
        for p in 0..pods {
            let first = p * units_per_pod;
            let in_pod = (units - first).min(units_per_pod);
            let spines = even_spread((in_pod * rails * leaf_up).div_ceil(spine_down), leaf_up);
            total_spines += spines;
            let s = g.add_node(Vertex::Spines { pod: p as u32, count: spines as u32 });
            for &l in &leaf_nodes[first as usize..(first + in_pod) as usize] {
                g.add_edge(l, s, Cables { tier: 1, count: rails * leaf_up, optical: true });
            }
            spine_nodes.push((s, spines));
        }
        let cores = (total_spines * spine_up).div_ceil(k as u64);
        let c = g.add_node(Vertex::Cores { count: cores as u32 });
        for (s, spines) in spine_nodes {
            g.add_edge(s, c, Cables { tier: 2, count: spines * spine_up, optical: true });
        }
        let pod_chips = if o > 1.0 { units_per_pod * unit * per_node } else { u64::MAX };
        Network { pod_chips, oversubscription: o, tiers: 3, ..Network::NON_BLOCKING }
    };
    Ok(finish(g, spec, nodes, tiers, planes, network))
}

/// A rail-only fabric (Wang et al. 2023, arXiv:2307.12169): one network per rail, over the
/// NICs of the chips at that position of every scale-up domain, built as the fat tree of a
/// cluster of one-chip nodes, and no switch joining the rails (traffic for another rail first
/// crosses the domain). Its graph has one rail's shape, with every switch group and cable
/// counted once per rail and every group of domains as the nodes they hold.
fn rail_only(spec: &Spec) -> Result<Fabric, FabricError> {
    let chips = spec.chips.max(1) as u64;
    let rails = (spec.rails() as u64).min(chips) as u32;
    let per_rail = chips.div_ceil(rails as u64);
    let per_node = spec.chips_per_node.max(1);
    let nodes = chips.div_ceil(per_node as u64);
    // A rail's endpoints are its domains: as many to a rack as the rack's nodes hold.
    let domain_nodes = (rails / per_node).max(1);
    let rail = fat_tree(&Spec {
        chips: per_rail as u32,
        chips_per_node: 1,
        nodes_per_rack: (spec.nodes_per_rack / domain_nodes).max(1),
        scale_up_switches_per_rack: 0,
        kind: FabricKind::RailOptimized,
        ..*spec
    })?;
    // Every rail's switches and cables in one graph: each group as many times as rails.
    let mut plane = rail.plane.map(
        |_, v| match *v {
            Vertex::Leaves { unit, count } => Vertex::Leaves { unit, count: count * rails },
            Vertex::Spines { pod, count } => Vertex::Spines { pod, count: count * rails },
            Vertex::Cores { count } => Vertex::Cores { count: count * rails },
            Vertex::Nodes { unit, count } => Vertex::Nodes { unit, count: count * domain_nodes },
        },
        |_, c| Cables { count: c.count * rails as u64, ..*c },
    );
    // The last domain may be partial: its unit holds only the nodes there are.
    let drawn: u64 = plane
        .node_weights()
        .map(|v| if let Vertex::Nodes { count, .. } = v { *count as u64 } else { 0 })
        .sum();
    let last = plane.node_indices().rev().find(|&i| matches!(plane[i], Vertex::Nodes { .. }));
    if let (Some(i), Some(extra)) = (last, drawn.checked_sub(nodes)) {
        if let Vertex::Nodes { count, .. } = &mut plane[i] {
            *count = count.saturating_sub(extra as u32);
        }
    }
    let pod_chips = rail.network.pod_chips.saturating_mul(rails as u64);
    let network = Network { pod_chips, rail_only: true, ..rail.network };
    Ok(finish(plane, spec, nodes, rail.bom.tiers, spec.planes.max(1), network))
}

/// Ports of one scale-up switch tray: two NVLink 5 switch chips of 72 ports each (NVL72's
/// 9 trays give its 72 GPUs 18 links each: 1,296 ports).
pub const SCALE_UP_TRAY_PORTS: u64 = 144;

/// Scale-up links each optical module of the second tier carries: a 1.6 Tb/s module holds four
/// NVLink 5 links of 400 Gb/s each way.
pub const SCALE_UP_LINKS_PER_MODULE: u64 = 4;

/// The scale-up switch trays of `spec`'s racks, and the second tier a domain larger than a
/// rack needs (NVL576: eight NVL72 racks). No such design was published; it is built as a
/// non-blocking two-tier fat tree of the racks' own trays: each rack's first tier doubles so
/// that half its ports go up, in optics, to second-tier trays as many as the racks' own. For
/// 576 GPUs that is 144 first-tier and 72 second-tier trays, 10,368 optical links and 5,184
/// transceivers of 1.6 Tb/s.
fn scale_up_tiers(bom: &mut Bom, spec: &Spec) {
    let own = bom.racks * spec.scale_up_switches_per_rack as u64;
    let rack_chips = spec.nodes_per_rack as u64 * spec.chips_per_node as u64;
    let joined = own > 0 && bom.racks > 1 && spec.domain_chips as u64 > rack_chips;
    bom.scale_up_switches = if joined { 2 * own } else { own };
    if joined {
        bom.scale_up_spines = own;
        bom.scale_up_optical_links = own * SCALE_UP_TRAY_PORTS;
        bom.scale_up_transceivers =
            (2 * bom.scale_up_optical_links).div_ceil(SCALE_UP_LINKS_PER_MODULE);
    }
}

/// Counts the bill of materials off the graph and multiplies it by the planes.
fn finish(
    plane: DiGraph<Vertex, Cables>,
    spec: &Spec,
    nodes: u64,
    tiers: u32,
    planes: u32,
    network: Network,
) -> Fabric {
    let p = planes as u64;
    let mut bom = Bom {
        nodes,
        racks: nodes.div_ceil(spec.nodes_per_rack.max(1) as u64),
        tiers,
        planes,
        nics: spec.chips.max(1) as u64 * p,
        ..Bom::default()
    };
    scale_up_tiers(&mut bom, spec);
    for v in plane.node_weights() {
        match *v {
            Vertex::Leaves { count, .. } => bom.leaf += count as u64 * p,
            Vertex::Spines { count, .. } => bom.spine += count as u64 * p,
            Vertex::Cores { count } => bom.core += count as u64 * p,
            Vertex::Nodes { .. } => {}
        }
    }
    let per_module = spec.switch.ports_per_transceiver.max(1) as u64;
    for e in plane.edge_references() {
        let c = e.weight();
        bom.cables[c.tier] += c.count * p;
        if c.optical {
            bom.optical[c.tier] += c.count * p;
            // One module at each end; a twin-port module serves two switch ports.
            let switch_ends = if c.tier == 0 { 1 } else { 2 };
            let nic_end = if c.tier == 0 { c.count } else { 0 };
            bom.transceivers += (nic_end + (switch_ends * c.count).div_ceil(per_module)) * p;
        }
    }
    Fabric { plane, bom, network }
}

impl Spec {
    /// Rails of a rail-only network: the positions of a scale-up domain, where the domain is
    /// a whole number of nodes (72 in an NVL72 rack), else the chips of a node.
    pub fn rails(&self) -> u32 {
        let node = self.chips_per_node.max(1);
        let domain = self.domain_chips;
        if domain > node && domain % node == 0 {
            domain
        } else {
            node
        }
    }

    /// The fabric a catalog system's reference design builds for `chips` chips, with its own
    /// switch and rules, non-blocking; `None` when its switch is not in the catalog.
    pub fn for_system(system: &SystemPreset, chips: u32) -> Option<Spec> {
        let s = &system.system;
        Some(Spec {
            chips,
            chips_per_node: s.chips_per_node,
            domain_chips: presets::scale_up(system.scale_up).map_or(0, |u| u.scale_up.domain_size),
            planes: s.nics_per_chip,
            nodes_per_rack: s.nodes_per_rack,
            scale_up_switches_per_rack: s.scale_up_switches_per_rack,
            switch: presets::switch(system.switch)?.switch,
            tiers: None,
            min_tiers: system.superpod.map_or(1, |p| p.min_tiers),
            unit_nodes: system.superpod.map(|p| p.nodes_per_unit),
            oversubscription: 1.0,
            kind: FabricKind::RailOptimized,
        })
    }
}

/// The fabric spec the inputs' plant was built from, at `chips` chips.
pub fn spec_of(inputs: &Inputs, chips: u32) -> Spec {
    let p = &inputs.plant;
    Spec {
        chips,
        chips_per_node: p.system.chips_per_node,
        domain_chips: inputs.cluster.scale_up.domain_size,
        planes: p.fabric.planes,
        nodes_per_rack: p.system.nodes_per_rack,
        scale_up_switches_per_rack: p.system.scale_up_switches_per_rack,
        switch: p.switch,
        tiers: p.fabric.tiers,
        min_tiers: p.fabric.min_tiers,
        unit_nodes: p.fabric.unit_nodes,
        oversubscription: p.fabric.oversubscription,
        kind: p.fabric.kind,
    }
}

/// The same plan at other cluster sizes, growing data parallelism as `model::sweep` does, with
/// the fabric rebuilt at each size, so its power and cost scale with what would be bought.
/// Sizes too small for one replica, or whose fabric cannot be built, are left out.
pub fn scaling(inputs: &Inputs, chip_counts: &[u32]) -> Vec<ScalingPoint> {
    chip_counts
        .iter()
        .filter_map(|&chips| {
            let mut at = sweep::at_size(inputs, chips)?;
            let fabric = build(&spec_of(inputs, chips)).ok()?;
            at.cluster.network = Network {
                in_network_reduction: inputs.cluster.network.in_network_reduction,
                ..fabric.network
            };
            at.plant.bom = fabric.bom;
            Some(ScalingPoint::of(chips, &estimate(&at)))
        })
        .collect()
}

/// The index of every vertex of one kind, for drawings and tests.
pub fn vertices(fabric: &Fabric) -> impl Iterator<Item = (NodeIndex, &Vertex)> {
    fabric.plane.node_indices().map(move |i| (i, &fabric.plane[i]))
}
