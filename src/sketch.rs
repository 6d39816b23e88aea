//! The cluster as a drawing: the fabric graph (`fabric`) summed into what a whiteboard shows,
//! the top switch tier as a band, pods (or scalable units) as boxes with their counts, and one
//! rack opened up into nodes, chips and the scale-up domain. 16,384 chips are not 16,384
//! boxes: every group is drawn once with its count, so the drawing reads the same at 64 chips
//! and at 100,000.
//!
//! `sketch` computes the numbers (natively testable: the parts add up to the bill of
//! materials); `layout` lays them out as shapes with the words it is given, and the places of
//! the parts and buttons the page puts over the drawing; `charts::draw_sketch` draws it. The
//! drawing is also a way to edit: each `Knob` carries the values its − and + buttons set, so
//! the page only dispatches them.

mod fleet;
mod layout;

pub use fleet::{fleet, FleetLayout, PoolMark, SiteMark};
pub use layout::{
    info, layout, text_width, Button, Ink, KnobRow, Layout, Place, Shape, Spot, Words, HEIGHT,
    TEXT, WIDTH,
};

use crate::fabric::{self, Vertex};
use crate::model::facility::{self, Share};
use crate::model::{Estimate, Inputs};

/// What a part of the drawing is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// Switches of a tier (0 leaf, 1 spine, 2 core), every plane.
    Switches(usize),
    /// Pods (3 tiers) or scalable units (2 tiers), or the one group of a single tier.
    Groups,
    Racks,
    Nodes,
    Domains,
    Chips,
}

/// One kind of thing in the cluster, with what all of them draw and cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    pub what: What,
    /// How many.
    pub count: u64,
    /// Chips in each (0 for switches).
    pub chips_each: u64,
    /// Power of all of them at training load, watts (switches: with their optics' share).
    pub power_w: f64,
    /// Price of all of them, USD.
    pub cost_usd: f64,
}

impl Part {
    fn of(what: What, count: u64, chips_each: u64, share: Share) -> Part {
        Part { what, count, chips_each, power_w: share.power_w, cost_usd: share.cost_usd }
    }
}

/// A setting the drawing edits: its scenario path, value, and the values − and + set
/// (`None` where the step would leave the field's range or break the fabric).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    pub path: &'static str,
    pub value: f64,
    pub down: Option<f64>,
    pub up: Option<f64>,
}

/// A group box: a pod or unit, or several identical ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Group {
    /// Identical groups this box stands for.
    pub copies: u64,
    pub nodes: u64,
    pub chips: u64,
    /// Switches inside one group, one plane: leaves, and spines under three tiers.
    pub leaves: u64,
    pub spines: u64,
}

/// The drawing's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Sketch {
    pub tiers: u32,
    pub planes: u32,
    /// Each rail is a network of its own, with no switch joining them.
    pub rail_only: bool,
    /// Optical circuit switches joining a torus's cubes (0 for none).
    pub ocs: u64,
    pub oversubscription: f64,
    pub chips_per_node: u32,
    pub nodes_per_rack: u32,
    pub domain: u32,
    /// Groups under the top tier, identical ones merged, in order.
    pub groups: Vec<Group>,
    /// Every kind of part, switches from the top tier down, then groups to chips.
    pub parts: Vec<Part>,
    /// In `Words::knobs` order: chips per node, nodes per rack, scale-up domain, tiers,
    /// planes, oversubscription.
    pub knobs: [Knob; 6],
    /// Site power and capex of the whole cluster.
    pub facility_w: f64,
    pub capex_usd: f64,
    /// The money the site shows its prices in.
    pub money: crate::format::Money,
}

/// The numbers of the drawing of `inputs`' cluster, from its fabric graph; `None` when the
/// fabric cannot be built (the page then shows the field's error instead).
pub fn sketch(inputs: &Inputs, estimate: &Estimate) -> Option<Sketch> {
    let chips = inputs.cluster.n_chips;
    let spec = fabric::spec_of(inputs, chips);
    let built = fabric::build(&spec).ok()?;
    let plane = &built.plane;
    let bom = &built.bom;

    // Each group's nodes and switches, walking the graph up from the nodes.
    let mut raw: Vec<Group> = Vec::new();
    let mut group_of_unit: Vec<usize> = Vec::new();
    let three = bom.tiers == 3;
    for (i, v) in fabric::vertices(&built) {
        let Vertex::Nodes { count, .. } = *v else { continue };
        let leaves: Vec<_> = plane.neighbors(i).collect();
        let leaf_count: u64 = leaves
            .iter()
            .map(|&l| match plane[l] {
                Vertex::Leaves { count, .. } => count as u64,
                _ => 0,
            })
            .sum();
        let pod = if three {
            leaves.iter().flat_map(|&l| plane.neighbors(l)).find_map(|s| match plane[s] {
                Vertex::Spines { pod, count } => Some((pod as usize, count as u64)),
                _ => None,
            })
        } else {
            None
        };
        let (slot, spines) = match pod {
            Some((p, spines)) => (p, spines),
            None if bom.tiers == 2 => (group_of_unit.len(), 0),
            None => (0, 0),
        };
        group_of_unit.push(slot);
        if raw.len() <= slot {
            raw.resize(slot + 1, Group { copies: 1, nodes: 0, chips: 0, leaves: 0, spines });
        }
        let g = &mut raw[slot];
        g.nodes += count as u64;
        g.leaves += leaf_count;
    }
    let per_node = spec.chips_per_node.max(1) as u64;
    let mut left = chips as u64;
    for g in &mut raw {
        g.chips = (g.nodes * per_node).min(left);
        left -= g.chips;
    }
    let mut groups: Vec<Group> = Vec::new();
    for g in raw {
        match groups.last_mut() {
            Some(last) if Group { copies: last.copies, ..g } == *last => last.copies += 1,
            _ => groups.push(g),
        }
    }

    let f = &estimate.facility;
    let split = facility::split(&inputs.plant, f);
    let tier_switches = [bom.leaf, bom.spine, bom.core];
    let mut parts: Vec<Part> = (0..bom.tiers.min(3) as usize)
        .rev()
        .map(|t| Part::of(What::Switches(t), tier_switches[t], 0, split.tiers[t]))
        .collect();
    let group_count: u64 = groups.iter().map(|g| g.copies).sum();
    let domain = inputs.cluster.scale_up.domain_size.max(1);
    let racks = f.cooling.racks;
    let chips64 = chips as u64;
    let each = |n: u64| if n > 0 { chips64.div_ceil(n) } else { 0 };
    parts.extend([
        Part::of(What::Groups, group_count, each(group_count), split.all),
        Part::of(What::Racks, racks, each(racks), split.racks),
        Part::of(What::Nodes, bom.nodes, per_node, split.nodes),
        Part::of(What::Domains, chips64.div_ceil(domain as u64), domain as u64, split.chips),
        Part::of(What::Chips, chips64, 1, split.chips),
    ]);

    let builds = |tiers: Option<u32>| fabric::build(&fabric::Spec { tiers, ..spec }).is_ok();
    let most = chips.min(inputs.cluster.fabric_domain.max(1));
    let cpn = spec.chips_per_node;
    let o = inputs.plant.fabric.oversubscription;
    let step = |v: f64, lo: f64, hi: f64, d: f64| {
        (Some(v - d).filter(|x| *x >= lo), Some(v + d).filter(|x| *x <= hi))
    };
    let (rack_down, rack_up) = step(spec.nodes_per_rack as f64, 1.0, 1000.0, 1.0);
    // The planes asked for; a switch with its ports split builds more (`Bom::port_split`).
    let planes = (bom.planes / bom.port_split.max(1)).max(1);
    let (planes_down, planes_up) = step(planes as f64, 1.0, 16.0, 1.0);
    let (o_down, o_up) = step(o.round(), 1.0, 64.0, 1.0);
    let tiers = bom.tiers;
    let knobs = [
        Knob {
            path: "cluster.chips_per_node",
            value: cpn as f64,
            down: (cpn > 1).then(|| (cpn / 2).max(1) as f64),
            up: (cpn < chips).then(|| (cpn * 2).min(chips) as f64),
        },
        Knob {
            path: "cluster.system.nodes_per_rack",
            value: spec.nodes_per_rack as f64,
            down: rack_down,
            up: rack_up,
        },
        Knob {
            path: "cluster.scale_up_domain",
            value: domain as f64,
            down: (domain > 1).then(|| (domain / 2).max(1) as f64),
            // No larger than the scale-up fabric links.
            up: (domain < most).then(|| (domain * 2).min(most) as f64),
        },
        Knob {
            path: "cluster.fabric.tiers",
            value: tiers as f64,
            down: (tiers > 1 && builds(Some(tiers - 1))).then(|| (tiers - 1) as f64),
            up: (tiers < 3 && builds(Some(tiers + 1))).then(|| (tiers + 1) as f64),
        },
        Knob {
            path: "cluster.fabric.planes",
            value: planes as f64,
            down: planes_down,
            up: planes_up,
        },
        Knob {
            path: "cluster.fabric.oversubscription",
            value: o,
            down: if o > 1.0 { o_down.or(Some(1.0)) } else { None },
            up: if tiers > 1 { o_up } else { None },
        },
    ];
    Some(Sketch {
        tiers,
        planes: bom.planes,
        rail_only: built.network.rail_only,
        ocs: bom.ocs,
        oversubscription: o,
        chips_per_node: cpn,
        nodes_per_rack: spec.nodes_per_rack,
        domain,
        groups,
        parts,
        knobs,
        facility_w: f.power.facility_w,
        capex_usd: f.cost.capex_usd,
        money: crate::format::Money::of(&inputs.plant.facility),
    })
}
