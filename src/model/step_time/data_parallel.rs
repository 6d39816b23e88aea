//! Data-parallel traffic of one step under each ZeRO stage, how much of it hides behind the
//! backward pass, and the optimizer's update (Rajbhandari et al. 2020, "ZeRO", arXiv:1910.02054).

use crate::model::collectives::Collective;
use crate::model::efficiency::{with_interference, PREFETCH_OVERLAP};
use crate::model::Sharding;

use super::ops::{Ctx, Passes};

/// Data-parallel traffic of one step: (link seconds, exposed seconds).
pub(super) fn data_parallel(
    ctx: &Ctx,
    busiest: &Passes,
    (dense, experts): (f64, f64),
) -> (f64, f64) {
    let Some((own, job)) = replicas(ctx) else { return (0.0, 0.0) };
    let mine = over(ctx, busiest, (dense, experts), own);
    match job {
        Some(job) => {
            let all = over(ctx, busiest, (dense, experts), job);
            (mine.0.max(all.0), mine.1.max(all.1))
        }
        None => mine,
    }
}

/// Exposed seconds of the parameter gathers of a forward pass with no backward pass: under
/// ZeRO-3 every micro-batch gathers the parameters once, prefetched behind its forward; with
/// the parameters whole on each chip there is nothing to gather.
pub(super) fn forward_gathers(ctx: &Ctx, busiest: &Passes, (dense, experts): (f64, f64)) -> f64 {
    if ctx.inputs.parallelism.sharding != Sharding::Full {
        return 0.0;
    }
    let Some((own, job)) = replicas(ctx) else { return 0.0 };
    let w = ctx.inputs.training.recipe.weight_bytes();
    let gather = |replicas| both(ctx, Collective::AllGather, w, (dense, experts), replicas);
    let link = gather(own).max(job.map_or(0.0, gather));
    let hidden = if ctx.inputs.parallelism.dp_overlap {
        PREFETCH_OVERLAP * busiest.fwd.compute
    } else {
        0.0
    };
    let m = ctx.shape.n_microbatches as f64;
    with_interference(m * link, m * (link - hidden).max(0.0))
}

/// How many times the dense and the expert state are replicated.
type Replicas = (u32, u32);

/// How many times the dense and the expert state are replicated on this cluster, and over the
/// whole job when it spans more replicas (a job over several pools or sites, whose reduction
/// spans their replicas too and takes no less than over this cluster's alone); `None` when
/// nothing is replicated.
fn replicas(ctx: &Ctx) -> Option<(Replicas, Option<Replicas>)> {
    let shape = ctx.shape;
    let replicas = shape.dp_u.saturating_mul(shape.cp_u);
    let experts = shape.expert_replicas();
    if replicas <= 1 && experts <= 1.0 {
        return None;
    }
    let cluster = &ctx.inputs.cluster;
    let job = (cluster.job_replicas(replicas), cluster.job_replicas(experts as u32));
    Some(((replicas, experts as u32), (job.0 > replicas).then_some(job)))
}

/// The same with the dense and the expert state replicated `replicas` times.
fn over(
    ctx: &Ctx,
    busiest: &Passes,
    (dense, experts): (f64, f64),
    (replicas, expert_replicas): (u32, u32),
) -> (f64, f64) {
    let shape = ctx.shape;
    let p = &ctx.inputs.parallelism;
    let recipe = ctx.inputs.training.recipe;
    let g = ctx.inputs.training.grad_bytes();
    let both = |kind: Collective, bytes_per_param: f64| {
        both(ctx, kind, bytes_per_param, (dense, experts), (replicas, expert_replicas))
    };
    let w = recipe.weight_bytes();
    let m = shape.n_microbatches as f64;
    let fwd_window = busiest.fwd.compute;
    let bwd_window = busiest.bwd.compute + busiest.recompute.compute;
    match p.sharding {
        Sharding::None | Sharding::Optimizer => {
            // One reduction after the last micro-batch; the full gradient buffer accumulates.
            let (reduce, gather) = if p.sharding == Sharding::None {
                (both(Collective::AllReduce, g), 0.0)
            } else {
                (both(Collective::ReduceScatter, g), both(Collective::AllGather, w))
            };
            let link = reduce + gather;
            let exposed = if p.dp_overlap {
                chunked(reduce, bwd_window, shape) + chunked(gather, fwd_window, shape)
            } else {
                link
            };
            (link, with_interference(link, exposed))
        }
        Sharding::Gradients => {
            // Sharded gradients cannot accumulate locally: every micro-batch reduce-scatters
            // its gradients (DeepSpeed ZeRO-2, FSDP SHARD_GRAD_OP; ZeRO §5.2).
            let reduce = both(Collective::ReduceScatter, g);
            let gather = both(Collective::AllGather, w);
            let link = m * reduce + gather;
            let exposed = if p.dp_overlap {
                m * (reduce - bwd_window).max(0.0) + (gather - fwd_window).max(0.0)
            } else {
                link
            };
            (link, with_interference(link, exposed))
        }
        Sharding::Full => {
            // Parameters gathered for the forward and again for the backward of every
            // micro-batch, gradients reduce-scattered after each (ZeRO §5.3).
            let per_mb = 2.0 * both(Collective::AllGather, w) + both(Collective::ReduceScatter, g);
            let hidden =
                if p.dp_overlap { PREFETCH_OVERLAP * (fwd_window + bwd_window) } else { 0.0 };
            let link = m * per_mb;
            (link, with_interference(link, m * (per_mb - hidden).max(0.0)))
        }
    }
}

/// Exposed part of a once-per-step gradient reduction (or parameter gather) of `link`
/// seconds, overlapped with one micro-batch's backward (or forward) of `window` seconds.
///
/// The traffic goes in buckets per model chunk. Without interleaving, the buckets reduce while
/// the last micro-batch's backward runs through the earlier layers. With `v` virtual stages,
/// a chunk's gradients are final after the last round of its backward, and its reduction
/// overlaps the following chunks' rounds of `min(m, p)` micro-batches each; only the last
/// chunk's reduction and the next step's first gather stay exposed (MegaScale,
/// arXiv:2402.15627, §3.2: the exposed share is `1 / (2 vpp)` of the data-parallel traffic).
fn chunked(link: f64, window: f64, shape: &crate::model::parallelism::Shape) -> f64 {
    let v = if shape.pp_u > 1 { shape.v } else { 1.0 };
    let per_chunk = link / v;
    let round = (shape.n_microbatches as f64).min(shape.pp).max(1.0) * window / v;
    (per_chunk - window / v).max(0.0) + (v - 1.0) * (per_chunk - round).max(0.0)
}

/// Adam update time: a memory-bound sweep over this chip's optimizer shard
/// (plus one read of the gradients for the global norm used in clipping).
pub(super) fn optimizer_s(ctx: &Ctx, (dense, experts): (f64, f64)) -> f64 {
    let shape = ctx.shape;
    let replicas = (shape.dp * shape.cp).max(1.0);
    let (dense, experts) = match ctx.inputs.parallelism.sharding {
        Sharding::None => (dense, experts),
        _ => (dense / replicas, experts / shape.expert_replicas()),
    };
    let training = &ctx.inputs.training;
    let bytes = (dense + experts) * (training.optimizer_traffic_bytes() + training.grad_bytes());
    ctx.elementwise(bytes)
}

/// Seconds of one collective of `kind` over the dense state, replicated `replicas` times, and
/// over the expert state, replicated `expert_replicas` times, at `bytes_per_param`.
fn both(
    ctx: &Ctx,
    kind: Collective,
    bytes_per_param: f64,
    (dense, experts): (f64, f64),
    (replicas, expert_replicas): (u32, u32),
) -> f64 {
    let shape = ctx.shape;
    let dense_group = ctx.group(replicas, shape.tp_u);
    // Expert state is replicated over the expert-data-parallel group, outermost in the folded
    // order (ETP, EP, expert DP).
    let expert_group = ctx.group(expert_replicas, shape.etp_u.saturating_mul(shape.ep_u));
    ctx.collective(kind, dense * bytes_per_param, dense_group)
        + ctx.collective(kind, experts * bytes_per_param, expert_group)
}
