//! Why a plan is infeasible or suspicious, in words a user understands.
//!
//! The model never refuses a plan: it estimates what it can and lists these alongside.

use std::fmt;

use crate::model::parallelism::Shape;
use crate::model::topology::Group;
use crate::model::{Inputs, Recipe, Sharding};

/// One problem with a plan.
#[derive(Clone, Debug, PartialEq)]
pub enum Warning {
    /// Occurs when the peak memory per chip exceeds the chip's memory.
    DoesNotFit { need_bytes: f64, have_bytes: f64 },
    /// Occurs when tensor x pipeline x data x context is not the cluster's chip count.
    DegreesMismatch { product: u64, chips: u32 },
    /// Occurs when the tensor-parallel degree does not divide the attention heads.
    TensorSplitsHeads { tp: u32, heads: u32 },
    /// Occurs when there are more tensor ranks than key/value heads, so heads are replicated.
    TensorReplicatesKvHeads { tp: u32, kv_heads: u32 },
    /// Occurs when the global batch is not a multiple of data-parallel replicas x micro-batch.
    BatchNotDivisible { global_batch: u32, dp: u32, micro_batch: u32 },
    /// Occurs when the global batch has fewer sequences than DP x micro-batch.
    IdleReplicas { global_batch: u32, dp: u32, micro_batch: u32 },
    /// Occurs when the layers do not split evenly over pipeline stages and virtual stages.
    LayersNotDivisible { layers: u32, stages: u32 },
    /// Occurs when a pipeline has fewer micro-batches than stages, so most of it idles.
    FewMicrobatches { microbatches: u32, stages: u32 },
    /// Occurs when an interleaved schedule's micro-batches are not a multiple of the stages
    /// (Megatron-LM requires it).
    InterleavingNeedsMultiple { microbatches: u32, stages: u32 },
    /// Occurs when the tensor-parallel group spans several scale-up domains.
    TensorCrossesDomain { tp: u32, domain: u32 },
    /// Occurs when the expert-parallel group spans several scale-up domains.
    ExpertCrossesDomain { ep: u32, domain: u32 },
    /// Occurs when the expert-parallel degree exceeds the routed experts.
    ExpertDegreeExceedsExperts { ep: u32, experts: u32 },
    /// Occurs when the expert-parallel degree does not divide the experts or data x context.
    ExpertDegreeNotDivisible { ep: u32 },
    /// Occurs when expert parallelism is set for a model without experts.
    ExpertParallelWithoutExperts { ep: u32 },
    /// Occurs when the context-parallel degree does not divide the sequence into 2 x cp chunks.
    ContextSplitsSequence { cp: u32, seq_len: u32 },
    /// Occurs when the FP8 recipe is chosen for a chip without FP8 tensor units.
    Fp8Unsupported,
    /// Occurs when sequence parallelism is on without tensor parallelism.
    SequenceParallelWithoutTensor,
    /// Occurs when sharding is set with a single data-parallel replica.
    ShardingWithoutReplicas,
    /// Occurs when virtual stages are set without pipeline parallelism.
    VirtualStagesWithoutPipeline,
}

fn gib(bytes: f64) -> f64 {
    bytes / 1073741824.0
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Warning::DoesNotFit { need_bytes, have_bytes } => write!(
                f,
                "does not fit: needs {:.1} GiB per chip but the chip has {:.1} GiB; raise TP, PP or ZeRO, or recompute activations",
                gib(need_bytes),
                gib(have_bytes)
            ),
            Warning::DegreesMismatch { product, chips } => write!(
                f,
                "TP x PP x DP x CP = {product} but the cluster has {chips} chips{}",
                if product < chips as u64 { "; the rest sit idle" } else { "; the plan needs more chips than exist" }
            ),
            Warning::TensorSplitsHeads { tp, heads } => {
                write!(f, "TP={tp} does not divide the {heads} attention heads")
            }
            Warning::TensorReplicatesKvHeads { tp, kv_heads } => write!(
                f,
                "TP={tp} exceeds the {kv_heads} key/value heads, so each is copied on several chips"
            ),
            Warning::BatchNotDivisible { global_batch, dp, micro_batch } => write!(
                f,
                "global batch {global_batch} is not a multiple of DP={dp} x micro-batch {micro_batch}; the last micro-batch is padded"
            ),
            Warning::IdleReplicas { global_batch, dp, micro_batch } => write!(
                f,
                "global batch {global_batch} has fewer sequences than DP={dp} x micro-batch {micro_batch}: some replicas sit idle each step"
            ),
            Warning::LayersNotDivisible { layers, stages } => write!(
                f,
                "{layers} layers do not split evenly over {stages} pipeline stages; the first and last stages get fewer and the busiest sets the pace"
            ),
            Warning::FewMicrobatches { microbatches, stages } => write!(
                f,
                "only {microbatches} micro-batches for {stages} pipeline stages: the pipeline bubble dominates"
            ),
            Warning::InterleavingNeedsMultiple { microbatches, stages } => write!(
                f,
                "interleaved stages need the {microbatches} micro-batches per step to be a multiple of the {stages} pipeline stages"
            ),
            Warning::TensorCrossesDomain { tp, domain } => write!(
                f,
                "TP={tp} spans {} scale-up domains of {domain} chips: tensor-parallel traffic crosses the slower network",
                tp.div_ceil(domain.max(1))
            ),
            Warning::ExpertCrossesDomain { ep, domain } => write!(
                f,
                "EP={ep} spans more than one scale-up domain of {domain} chips: the all-to-all crosses the slower network"
            ),
            Warning::ExpertDegreeExceedsExperts { ep, experts } => {
                write!(f, "EP={ep} is more than the {experts} routed experts")
            }
            Warning::ExpertDegreeNotDivisible { ep } => write!(
                f,
                "EP={ep} must divide both the routed experts and DP x CP"
            ),
            Warning::ExpertParallelWithoutExperts { ep } => {
                write!(f, "EP={ep} has no effect: the model has no experts")
            }
            Warning::ContextSplitsSequence { cp, seq_len } => write!(
                f,
                "CP={cp} does not split the {seq_len}-token sequence into {} equal chunks",
                2 * cp as u64
            ),
            Warning::Fp8Unsupported => {
                write!(f, "this chip has no FP8 tensor units; GEMMs are estimated at BF16 speed")
            }
            Warning::SequenceParallelWithoutTensor => {
                write!(f, "sequence parallelism has no effect without tensor parallelism")
            }
            Warning::ShardingWithoutReplicas => {
                write!(f, "ZeRO sharding has no effect with a single data-parallel replica")
            }
            Warning::VirtualStagesWithoutPipeline => {
                write!(f, "virtual stages have no effect without pipeline parallelism")
            }
        }
    }
}

/// Appends every warning that the inputs alone imply (memory is checked after estimating).
pub(crate) fn check(inputs: &Inputs, shape: &Shape, out: &mut Vec<Warning>) {
    let t = &inputs.transformer;
    let p = &inputs.parallelism;
    let c = &inputs.cluster;
    let product = shape.tp_u as u128 * shape.pp_u as u128 * shape.dp_u as u128 * shape.cp_u as u128;
    if product != c.n_chips as u128 {
        let product = product.min(u64::MAX as u128) as u64;
        out.push(Warning::DegreesMismatch { product, chips: c.n_chips });
    }
    if t.n_heads % shape.tp_u != 0 {
        out.push(Warning::TensorSplitsHeads { tp: shape.tp_u, heads: t.n_heads });
    } else if t.n_kv_heads < shape.tp_u {
        out.push(Warning::TensorReplicatesKvHeads { tp: shape.tp_u, kv_heads: t.n_kv_heads });
    }
    let per_step = shape.dp_u as u64 * shape.micro_batch as u64;
    if (inputs.training.global_batch as u64) < per_step {
        out.push(Warning::IdleReplicas {
            global_batch: inputs.training.global_batch,
            dp: shape.dp_u,
            micro_batch: p.micro_batch.max(1),
        });
    } else if inputs.training.global_batch as u64 % per_step.max(1) != 0 {
        out.push(Warning::BatchNotDivisible {
            global_batch: inputs.training.global_batch,
            dp: shape.dp_u,
            micro_batch: p.micro_batch.max(1),
        });
    }
    let stages = shape.pp_u.saturating_mul(p.virtual_stages.max(1));
    if t.n_layers % stages.max(1) != 0 {
        out.push(Warning::LayersNotDivisible { layers: t.n_layers, stages });
    }
    if shape.pp_u > 1 && shape.n_microbatches < shape.pp_u {
        out.push(Warning::FewMicrobatches {
            microbatches: shape.n_microbatches,
            stages: shape.pp_u,
        });
    } else if shape.pp_u > 1 && p.virtual_stages > 1 && shape.n_microbatches % shape.pp_u != 0 {
        out.push(Warning::InterleavingNeedsMultiple {
            microbatches: shape.n_microbatches,
            stages: shape.pp_u,
        });
    }
    let domain = c.scale_up.domain_size.max(1);
    if Group::place(shape.tp_u, 1, domain).crosses_domains() {
        out.push(Warning::TensorCrossesDomain { tp: shape.tp_u, domain });
    }
    match t.moe {
        Some(moe) => {
            if shape.ep_u > moe.n_experts {
                out.push(Warning::ExpertDegreeExceedsExperts {
                    ep: shape.ep_u,
                    experts: moe.n_experts,
                });
            } else if moe.n_experts % shape.ep_u != 0
                || (shape.dp_u as u64 * shape.cp_u as u64) % shape.ep_u as u64 != 0
            {
                out.push(Warning::ExpertDegreeNotDivisible { ep: shape.ep_u });
            }
            if Group::place(shape.ep_u, shape.tp_u.saturating_mul(shape.cp_u), domain)
                .crosses_domains()
            {
                out.push(Warning::ExpertCrossesDomain { ep: shape.ep_u, domain });
            }
        }
        None if shape.ep_u > 1 => {
            out.push(Warning::ExpertParallelWithoutExperts { ep: shape.ep_u })
        }
        None => {}
    }
    if shape.cp_u > 1 && t.seq_len as u64 % (2 * shape.cp_u as u64) != 0 {
        out.push(Warning::ContextSplitsSequence { cp: shape.cp_u, seq_len: t.seq_len });
    }
    if inputs.training.recipe == Recipe::Fp8 && !(c.chip.fp8_flops_per_s > 0.0) {
        out.push(Warning::Fp8Unsupported);
    }
    if p.sequence_parallel && shape.tp_u <= 1 {
        out.push(Warning::SequenceParallelWithoutTensor);
    }
    if p.sharding != Sharding::None && shape.dp_u as u64 * shape.cp_u as u64 <= 1 {
        out.push(Warning::ShardingWithoutReplicas);
    }
    if p.virtual_stages > 1 && shape.pp_u <= 1 {
        out.push(Warning::VirtualStagesWithoutPipeline);
    }
}
