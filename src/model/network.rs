//! The network tier by tier: what each parallel dimension's collectives send over the
//! scale-up links, the leaf, spine and core switches and between pools in one step, how long
//! each tier is busy with it and its utilisation, the hottest tier marked; for a job over
//! sites, the wide-area link between them too (`with_sites`).
//!
//! Bytes come from the step's own link times (`LinkTimes`, the time each dimension keeps the
//! links busy) and the volumes `collectives::traffic` gives its group: a dimension's buffer
//! bytes are its link time over the seconds a byte of it takes (`collective_s` at two sizes,
//! so each step's latency counts as busy time, erring towards a busier network). A rank's NIC
//! bytes enter its leaf; those between domains under different leaves cross the spine, and
//! between pods the core, in the share of a ring's hops (or an all-to-all's peers) that lie
//! there. Each tier's rate per chip is the NIC's as reached, the top tier's divided by its
//! oversubscription; the scale-up tier runs at its link's.

use crate::model::collectives::{self, Collective, Group, Traffic};
use crate::model::sites::{AcrossSites, Site, SitesEstimate};
use crate::model::{Estimate, Inputs};

/// A tier of the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    ScaleUp,
    Leaf,
    Spine,
    Core,
    BetweenPools,
    BetweenSites,
}

impl Tier {
    /// Its name in JSON and the catalogues (`network.<id>`).
    pub fn id(self) -> &'static str {
        match self {
            Tier::ScaleUp => "scale_up",
            Tier::Leaf => "leaf",
            Tier::Spine => "spine",
            Tier::Core => "core",
            Tier::BetweenPools => "between_pools",
            Tier::BetweenSites => "between_sites",
        }
    }
}

/// A parallel dimension whose collectives load the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Tp,
    Cp,
    Ep,
    Pp,
    Dp,
}

impl Dim {
    pub const ALL: [Dim; 5] = [Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp, Dim::Dp];

    pub fn id(self) -> &'static str {
        match self {
            Dim::Tp => "tp",
            Dim::Cp => "cp",
            Dim::Ep => "ep",
            Dim::Pp => "pp",
            Dim::Dp => "dp",
        }
    }
}

/// One tier's load over a step, per chip and one direction.
#[derive(Clone, Debug, PartialEq)]
pub struct TierLoad {
    pub tier: Tier,
    /// Bytes by dimension, in `Dim::ALL`'s order.
    pub by_dim: [f64; 5],
    pub bytes_per_step: f64,
    /// Seconds the tier is busy with them.
    pub busy_s: f64,
    /// Busy time over the step.
    pub utilisation: f64,
}

/// Every tier the plan's network has, from the scale-up links out, and the hottest.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkLoad {
    pub tiers: Vec<TierLoad>,
    /// Index into `tiers` of the busiest.
    pub hottest: usize,
}

/// A dimension's collective, group and link time.
struct Flow {
    dim: Dim,
    kind: Collective,
    group: Group,
    link_s: f64,
    /// Point-to-point: all bytes on one link kind.
    p2p: bool,
}

/// The share of a group's NIC traffic that leaves a switch reaching `reach` consecutive chips:
/// of a ring's hops between its domains, those between switches; of an all-to-all's remote
/// peers, those under other switches.
fn beyond(group: Group, reach: u64, all_to_all: bool) -> f64 {
    let m = group.n_domains() as f64;
    if m <= 1.0 || reach == 0 || group.span <= reach {
        return 0.0;
    }
    let switches = (group.span as f64 / reach as f64).ceil().min(m);
    if all_to_all {
        (m - m / switches) / (m - 1.0)
    } else {
        ((switches - 1.0) / (m - 1.0)).min(1.0)
    }
}

/// The network's load over a step of `e`, a plan of `inputs`.
pub fn load(inputs: &Inputs, e: &Estimate) -> NetworkLoad {
    let c = &inputs.cluster;
    let s = crate::model::parallelism::Shape::of(inputs);
    let domain = c.rank_domain();
    let place = |size: u32, stride: u32| Group::place(size, stride, domain);
    let flows = [
        Flow {
            dim: Dim::Tp,
            kind: Collective::AllReduce,
            group: place(s.tp_u, 1),
            link_s: e.link.tp_s,
            p2p: false,
        },
        Flow {
            dim: Dim::Cp,
            kind: Collective::AllGather,
            group: place(s.cp_u, s.tp_u),
            link_s: e.link.cp_s,
            p2p: false,
        },
        Flow {
            dim: Dim::Ep,
            kind: Collective::AllToAll,
            group: place(s.ep_u, s.etp_u),
            link_s: e.link.ep_s,
            p2p: false,
        },
        Flow {
            dim: Dim::Pp,
            kind: Collective::AllGather,
            group: place(s.pp_u, s.tp_u.saturating_mul(s.cp_u).saturating_mul(s.dp_u)),
            link_s: e.link.pp_s,
            p2p: true,
        },
        Flow {
            dim: Dim::Dp,
            kind: Collective::AllReduce,
            group: place(s.dp_u.saturating_mul(s.cp_u), s.tp_u),
            link_s: e.link.dp_s,
            p2p: false,
        },
    ];
    let net = &c.network;
    let nic = c.scale_out.achievable_bytes_per_s();
    let up_rate = c.scale_up.link.achievable_bytes_per_s();
    let tiers = net.tiers.clamp(1, 3);
    let top = |t: u32| {
        if t == tiers && net.oversubscription > 1.0 {
            nic / net.oversubscription
        } else {
            nic
        }
    };
    // Chips a leaf reaches: half its ports down, a rail of that many nodes.
    let leaf_reach = (u64::from(inputs.plant.switch.ports / 2).max(1))
        .saturating_mul(u64::from(c.chips_per_node.max(1)));
    let pod_reach = net.pod_chips;
    let pools = if c.job_chips > c.n_chips && c.n_chips > 0 {
        f64::from(c.job_chips) / f64::from(c.n_chips)
    } else {
        1.0
    };
    let mut rows: Vec<(Tier, [f64; 5], f64)> =
        vec![(Tier::ScaleUp, [0.0; 5], up_rate), (Tier::Leaf, [0.0; 5], top(1))];
    if tiers >= 2 {
        rows.push((Tier::Spine, [0.0; 5], top(2)));
    }
    if tiers >= 3 {
        rows.push((Tier::Core, [0.0; 5], top(3)));
    }
    if pools > 1.0 {
        rows.push((Tier::BetweenPools, [0.0; 5], top(tiers)));
    }
    for (i, f) in flows.iter().enumerate() {
        if !(f.link_s > 0.0) || f.group.size <= 1 {
            continue;
        }
        let moved = if f.p2p {
            // A send to the neighbouring stage: one tensor over one link kind.
            let seconds_per_byte =
                if f.group.crosses_domains() { 1.0 / nic } else { 1.0 / up_rate };
            let bytes = f.link_s / seconds_per_byte;
            if f.group.crosses_domains() {
                Traffic { up: 0.0, out: bytes }
            } else {
                Traffic { up: bytes, out: 0.0 }
            }
        } else {
            let link = c.scale_out_for(f.group.span);
            let time =
                |b: f64| collectives::collective_s(f.kind, b, f.group, &c.scale_up, &link, net);
            let unit = 1 << 26;
            let per_byte = (time(2.0 * unit as f64) - time(unit as f64)) / unit as f64;
            if !(per_byte > 0.0) {
                continue;
            }
            let buffer = f.link_s / per_byte;
            collectives::traffic(f.kind, buffer, f.group, net)
        };
        let a2a = f.kind == Collective::AllToAll;
        for (tier, by, _) in rows.iter_mut() {
            by[i] = match tier {
                Tier::ScaleUp => moved.up,
                Tier::Leaf => moved.out,
                Tier::Spine => moved.out * beyond(f.group, leaf_reach, a2a),
                Tier::Core => moved.out * beyond(f.group, pod_reach, a2a),
                // The data-parallel reduction's step across pools moves its share of the pools
                // apart.
                Tier::BetweenPools if f.dim == Dim::Dp => moved.out * (pools - 1.0) / pools,
                Tier::BetweenPools | Tier::BetweenSites => 0.0,
            };
        }
    }
    let step = e.step_s.max(1e-12);
    let tiers: Vec<TierLoad> = rows
        .into_iter()
        .map(|(tier, by_dim, rate)| {
            let bytes: f64 = by_dim.iter().sum();
            let busy_s = crate::model::finite(bytes / rate.max(1.0));
            TierLoad { tier, by_dim, bytes_per_step: bytes, busy_s, utilisation: busy_s / step }
        })
        .collect();
    NetworkLoad { hottest: hottest(&tiers), tiers }
}

/// Index of the busiest of `tiers`.
fn hottest(tiers: &[TierLoad]) -> usize {
    (0..tiers.len())
        .max_by(|&a, &b| tiers[a].utilisation.total_cmp(&tiers[b].utilisation))
        .unwrap_or(0)
}

/// `load` with the wide-area link out of each site as one more tier, for `job`, the job over
/// `sites` as `how` spans them (`sites::across_sites`): the bytes a site sends a sync
/// (`Wan::bytes_per_sync`, the data-parallel exchange) over the steps between syncs (every
/// step when synchronous, `inner_steps` under DiLoCo), busy at the slowest link of a site the
/// job uses, with the ring's latency a sync, over the job's step. A job on one site adds the
/// tier with nothing on it.
pub fn with_sites(
    mut load: NetworkLoad,
    sites: &[Site],
    how: AcrossSites,
    job: &SitesEstimate,
) -> NetworkLoad {
    let used: Vec<&Site> =
        sites.iter().zip(&job.sites).filter(|(_, part)| part.used).map(|(s, _)| s).collect();
    let steps = match how {
        AcrossSites::Sync => 1.0,
        AcrossSites::Diloco { inner_steps, .. } => f64::from(inner_steps.max(1)),
    };
    let (bandwidth, latency) = used.iter().fold((f64::INFINITY, 0.0f64), |(b, l), s| {
        (b.min(s.wan_bytes_per_s.max(1.0)), l.max(s.wan_latency_s))
    });
    let n = used.len() as f64;
    let bytes = if n > 1.0 { crate::model::finite(job.wan.bytes_per_sync / steps) } else { 0.0 };
    let ring_latency_s = if n > 1.0 { 2.0 * (n - 1.0) * latency / steps } else { 0.0 };
    let busy_s =
        if bytes > 0.0 { crate::model::finite(bytes / bandwidth + ring_latency_s) } else { 0.0 };
    let mut by_dim = [0.0; 5];
    by_dim[Dim::Dp as usize] = bytes;
    let utilisation = if job.step_s > 0.0 { busy_s / job.step_s } else { 0.0 };
    load.tiers.push(TierLoad {
        tier: Tier::BetweenSites,
        by_dim,
        bytes_per_step: bytes,
        busy_s,
        utilisation,
    });
    load.hottest = hottest(&load.tiers);
    load
}
