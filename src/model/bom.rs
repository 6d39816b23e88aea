//! The bill of materials of a cluster as plain counts, built by the `fabric` module from its
//! graph and read by `facility` for power and cost. The model never sees the graph.

/// Cable tiers, from the chips outward, by id (worded as `part.<id>`).
pub const CABLE_TIERS: [&str; 3] = ["node_leaf", "leaf_spine", "spine_core"];

/// What a cluster is built from. Counts of switches, cables and transceivers cover every
/// plane of the scale-out network; the transceivers also a torus's face links.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bom {
    /// Servers (or compute trays of a rack-scale system).
    pub nodes: u64,
    /// Racks of nodes as the system's design places them (before any power limit).
    pub racks: u64,
    /// Scale-up switch trays outside the nodes (NVLink switch trays of NVL72 racks) in the
    /// racks: the system's own, twice as many where a second tier joins the racks.
    pub scale_up_switches: u64,
    /// Second-tier scale-up switch trays joining the racks of a domain larger than one rack
    /// (NVL576's), the optical links from the first tier up to them, and their transceivers
    /// (`fabric::scale_up_tiers`).
    pub scale_up_spines: u64,
    pub scale_up_optical_links: u64,
    pub scale_up_transceivers: u64,
    /// Switch tiers of the scale-out network (1 to 3).
    pub tiers: u32,
    /// Identical scale-out networks (one per NIC port of a chip).
    pub planes: u32,
    /// Leaf switches, all planes.
    pub leaf: u64,
    /// Spine switches, all planes.
    pub spine: u64,
    /// Core switches, all planes.
    pub core: u64,
    /// Scale-out NIC ports (one per chip per plane).
    pub nics: u64,
    /// Cables per tier, node-leaf first (see `CABLE_TIERS`).
    pub cables: [u64; 3],
    /// Of those, the optical ones (the rest are copper inside a rack).
    pub optical: [u64; 3],
    /// Optical transceivers: one per optical cable end, a twin-port module serving two switch
    /// ports, and one per optical link of a torus.
    pub transceivers: u64,
    /// Optical circuit switches joining a torus's cubes.
    pub ocs: u64,
    /// Optical links from the cubes' faces into them, one transceiver each.
    pub ocs_links: u64,
    /// Ways each switch port is split to wire the cluster (1 or 0: not split); the planes and
    /// NIC ports above count the split ones.
    pub port_split: u32,
}

impl Bom {
    /// Scale-out switches of every tier and plane.
    pub fn switches(&self) -> u64 {
        self.leaf + self.spine + self.core
    }

    /// Scale-up switch trays beyond the racks' own, which the system's price holds: the
    /// doubled first tier and the second tier of a domain joining racks.
    pub fn scale_up_added_trays(&self) -> u64 {
        2 * self.scale_up_spines
    }

    /// Cables of every tier.
    pub fn total_cables(&self) -> u64 {
        self.cables.iter().sum()
    }
}
