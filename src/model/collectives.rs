//! Where a parallel group sits on the network, and what a collective over it costs.
//!
//! Groups follow Megatron-LM's rank order (tensor innermost, then context, then data with
//! expert inside it, pipeline outermost), so a group of `size` ranks spaced `stride` apart
//! keeps `domain / stride` members inside one scale-up domain and crosses the scale-out
//! network for the rest. Costs use the alpha-beta model with the ring and hierarchical
//! factors of Thakur, Rabenseifner and Gropp 2005, "Optimization of collective communication
//! operations in MPICH" (IJHPCA 19(1)), and NCCL's choice of the better of ring and tree latency.

use crate::model::efficiency::{ring_share, ALL_TO_ALL_RELATIVE, IN_NETWORK_ALLREDUCE_GAIN};
use crate::model::{Link, Network, ScaleUp};

/// A collective operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    /// Every rank ends with the sum of all ranks' buffers.
    AllReduce,
    /// Every rank ends with the concatenation of all ranks' shards.
    AllGather,
    /// Every rank ends with its shard of the sum.
    ReduceScatter,
    /// Every rank sends a distinct part of its buffer to every other rank.
    AllToAll,
}

/// A parallel group's placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Ranks in the group.
    pub size: u32,
    /// Ranks of the group inside one scale-up domain.
    pub per_domain: u32,
    /// Consecutive chips the group's ranks spread over (size x stride in rank order).
    pub span: u64,
}

impl Group {
    /// Places a group of `size` ranks spaced `stride` apart on domains of `domain` chips.
    ///
    /// A domain holds `domain / stride` ranks of a group's kind. When groups do not tile the
    /// domain exactly (TP=16 on a 72-chip NVL72 rack), some group straddles two domains with
    /// pieces as small as `gcd(domain / stride, size)`; that worst group is the one placed.
    pub fn place(size: u32, stride: u32, domain: u32) -> Group {
        let size = size.max(1);
        let stride = stride.max(1);
        let per_domain = if stride >= domain { 1 } else { gcd(domain / stride, size).max(1) };
        Group { size, per_domain, span: size as u64 * stride as u64 }
    }

    /// The group crosses the scale-out network.
    pub fn crosses_domains(&self) -> bool {
        self.size > self.per_domain
    }

    /// Scale-up domains the group spans.
    pub fn n_domains(&self) -> u32 {
        self.size.div_ceil(self.per_domain.max(1))
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Bytes one rank of `group` sends over the scale-up links and over its NIC for `kind`, where
/// `bytes` is the full buffer on each rank (as `collective_s` takes it): the ring and
/// hierarchical volumes `collective_s` times.
///
/// Hierarchical form: a reduce-scatter inside the domain, the cross-domain step on `1/k` of
/// the data on every chip's own NIC in parallel (rail-optimised fabrics), then an all-gather
/// inside the domain. A group with several ranks in each of several domains runs all-gather
/// and reduce-scatter as one ring through every rank (NCCL has no tree for them), its channels
/// leaving each domain through all `k` of its chips' NICs, each carrying `1/k` of the data.
pub fn traffic(kind: Collective, bytes: f64, group: Group, network: &Network) -> Traffic {
    if group.size <= 1 || !(bytes > 0.0) {
        return Traffic::default();
    }
    let (k, m) = (group.per_domain.max(1) as f64, group.n_domains() as f64);
    let n = group.size as f64;
    match kind {
        Collective::AllReduce => {
            Traffic { up: 2.0 * (k - 1.0) / k * bytes, out: 2.0 * (m - 1.0) / m * (bytes / k) }
        }
        Collective::AllGather | Collective::ReduceScatter if k > 1.0 && m > 1.0 => {
            Traffic { up: (n - 1.0) / n * bytes, out: (n - 1.0) / n * bytes / k }
        }
        Collective::AllGather | Collective::ReduceScatter => {
            Traffic { up: (k - 1.0) / k * bytes, out: (m - 1.0) / m * (bytes / k) }
        }
        Collective::AllToAll => {
            let outside = (n - k) / n * bytes;
            Traffic {
                up: (k - 1.0) / n * bytes + rail_forwarded(network, outside, k),
                out: outside,
            }
        }
    }
}

/// Bytes a rank sends in one direction over each kind of link.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Traffic {
    /// Over the scale-up domain's links.
    pub up: f64,
    /// Over its NIC, into the scale-out network.
    pub out: f64,
}

/// Seconds for `kind` over `group`, where `bytes` is the full buffer on each rank
/// (the reduced buffer for all-reduce, the gathered buffer for all-gather and reduce-scatter,
/// the send buffer for all-to-all): `traffic`'s volumes over the links, and the latency of
/// each step.
pub fn collective_s(
    kind: Collective,
    bytes: f64,
    group: Group,
    scale_up: &ScaleUp,
    scale_out: &Link,
    network: &Network,
) -> f64 {
    if group.size <= 1 || !(bytes > 0.0) {
        return 0.0;
    }
    let (ranks_in, domains) = (group.per_domain.max(1), group.n_domains());
    let (k, m) = (ranks_in as f64, domains as f64);
    let up = scale_up.link.achievable_bytes_per_s();
    // A ring over many nodes reaches less of its link's bus bandwidth (`ring_share`).
    let out = scale_out.achievable_bytes_per_s() * ring_share(m);
    let alpha_up = scale_up.link.latency_s;
    let alpha_out = scale_out.latency_s;
    let moved = traffic(kind, bytes, group, network);
    match kind {
        // Switches that reduce the data as it passes carry it at the measured gain of NVLink
        // SHARP over a ring (`IN_NETWORK_ALLREDUCE_GAIN`). NCCL pipelines its chunks through
        // the scale-up and network stages, so the slower stage sets the time, not their sum:
        // all-reduce on p5 (8 H100, 8 x 400 Gb/s EFA a node) reaches 355-357 GB/s of bus
        // bandwidth at 4-16 nodes (crazyguitar/aws-gpu-communication-benchmark,
        // data/nccl_all_reduce.csv), where the two stages added give at most about 260 GB/s
        // at full line rate and the slower alone about 500.
        Collective::AllReduce => {
            let gain = if network.in_network_reduction { IN_NETWORK_ALLREDUCE_GAIN } else { 1.0 };
            (moved.up / up).max(moved.out / out) / gain
                + 2.0 * (steps(ranks_in) * alpha_up + steps(domains) * alpha_out)
        }
        // One ring through every rank: each step waits for the network's latency (NCCL's
        // documentation of its algorithms; Thakur et al. 2005 for the ring's `(n - 1) / n`).
        Collective::AllGather | Collective::ReduceScatter if k > 1.0 && m > 1.0 => {
            let n = group.size as f64;
            moved.up / up.min(k * out) + (n - 1.0) * alpha_out
        }
        Collective::AllGather | Collective::ReduceScatter => {
            moved.up / up
                + moved.out / out
                + steps(ranks_in) * alpha_up
                + steps(domains) * alpha_out
        }
        Collective::AllToAll => all_to_all_s(moved.up, moved.out, group, scale_up, scale_out),
    }
}

/// Copies of each token an expert all-to-all over `group` sends inside a domain and over the
/// network, for `top_k` experts a token. Every routed copy on its own (Megatron-Core's
/// all-to-all dispatcher): `(n - k) / n` of them cross the network. `forwarded` (DeepEP's
/// kernels, which node-limited routing needs): once to each distinct remote domain holding one
/// of its experts (at most `node_limit`; `m (1 - (1 - 1/m)^top_k)` domains on average for
/// balanced routing over `m`), then forwarded inside it (DeepSeek-V3, arXiv:2412.19437,
/// §3.2.2).
pub fn expert_copies(
    top_k: f64,
    group: Group,
    forwarded: bool,
    node_limit: Option<u32>,
) -> (f64, f64) {
    let n = group.size as f64;
    let per_domain = group.per_domain as f64;
    let domains = group.n_domains() as f64;
    if forwarded && domains > 1.0 {
        let limit = node_limit.map_or(f64::INFINITY, |l| l as f64);
        let distinct = domains * (1.0 - (1.0 - 1.0 / domains).powf(top_k));
        let remote = distinct.min(limit) * (domains - 1.0) / domains;
        (top_k * (per_domain - 1.0) / per_domain.max(1.0), remote)
    } else {
        (top_k * (per_domain - 1.0) / n, top_k * (n - per_domain) / n)
    }
}

/// Steps a ring over `n` ranks takes, or a double binary tree's depth (twice the rounded-up
/// log2 of `n`) when that is shorter: NCCL picks the faster.
fn steps(n: u32) -> f64 {
    let depth = u32::BITS - n.saturating_sub(1).leading_zeros();
    n.saturating_sub(1).min(2 * depth) as f64
}

/// Bytes of `outside` that a rail-only network first sends across the scale-up domain to the
/// chip on the destination's rail: all but the share bound for its own rail, one in
/// `per_domain` (Wang et al. 2023, arXiv:2307.12169, route all-to-all this way); none on a
/// network that joins its rails.
pub fn rail_forwarded(network: &Network, outside: f64, per_domain: f64) -> f64 {
    if network.rail_only && per_domain > 1.0 {
        outside * (per_domain - 1.0) / per_domain
    } else {
        0.0
    }
}

/// Seconds for an all-to-all in which each rank sends `inside_bytes` to peers in its own
/// domain and `outside_bytes` over its NIC; both links work at once.
pub fn all_to_all_s(
    inside_bytes: f64,
    outside_bytes: f64,
    group: Group,
    scale_up: &ScaleUp,
    scale_out: &Link,
) -> f64 {
    if group.size <= 1 {
        return 0.0;
    }
    let inside =
        inside_bytes.max(0.0) / (scale_up.link.achievable_bytes_per_s() * ALL_TO_ALL_RELATIVE);
    let outside =
        outside_bytes.max(0.0) / (scale_out.achievable_bytes_per_s() * ALL_TO_ALL_RELATIVE);
    let alpha = if group.crosses_domains() { scale_out.latency_s } else { scale_up.link.latency_s };
    inside.max(outside) + 2.0 * alpha
}

/// Seconds to send `bytes` to one neighbour over the domain's links or the network.
pub fn point_to_point_s(
    bytes: f64,
    crosses_domain: bool,
    scale_up: &ScaleUp,
    scale_out: &Link,
) -> f64 {
    if !(bytes > 0.0) {
        return 0.0;
    }
    let link = if crosses_domain { scale_out } else { &scale_up.link };
    link.latency_s + bytes / link.achievable_bytes_per_s()
}

#[cfg(test)]
mod tests {
    /// The integer count of steps is the ring's `n - 1` or the tree's `2 ceil(log2 n)`, exactly
    /// as the floating-point formula gives them, for every group size up to a million.
    #[test]
    fn steps_are_the_ring_or_the_tree_depth() {
        for n in 1..=1u32 << 20 {
            let x = n as f64;
            let expected = (x - 1.0).min(2.0 * x.log2().ceil()).max(0.0);
            assert_eq!(super::steps(n), expected, "n = {n}");
        }
    }
}
