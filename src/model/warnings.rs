//! Why a plan is infeasible or suspicious, as typed findings (`text::warning` words them in
//! the language spoken).
//!
//! The model never refuses a plan: it estimates what it can and lists these alongside, each
//! with a severity. `Problem`s make the plan impossible to run as written (a degree that does
//! not divide what it splits, more chips than exist, a micro-batch larger than a replica's
//! share of the batch, more memory than the chip has, interruptions faster than recovery):
//! the estimate is then `feasible: false`, and its numbers are what the
//! nearest runnable plan would roughly cost, nothing more. The same rule serves the
//! command-line tool, the page and the plan search.

use crate::model::collectives::Group;
use crate::model::parallelism::Shape;
use crate::model::{CpKind, Inputs, Recipe, Sharding};

/// One problem with a plan.
#[derive(Clone, Debug, PartialEq)]
pub enum Warning {
    /// Occurs when the peak memory per chip exceeds the chip's memory. `experts` is the routed
    /// experts of an MoE model whose expert-parallel degree can still rise to split them over
    /// more chips (the largest lever on a sparse model's weights), zero otherwise.
    DoesNotFit { need_bytes: f64, have_bytes: f64, experts: u32 },
    /// Occurs when tensor x pipeline x data x context is not the cluster's chip count.
    DegreesMismatch { product: u64, chips: u32 },
    /// Occurs when the plan fits the cluster's chips but not the chips its placement uses
    /// (`used` of each `domain`-chip scale-up domain).
    PlacementShort { product: u64, usable: u32, used: u32, domain: u32 },
    /// Occurs when the tensor-parallel degree does not divide the attention heads.
    TensorSplitsHeads { tp: u32, heads: u32 },
    /// Occurs when there are more tensor ranks than key/value heads, so heads are replicated.
    TensorReplicatesKvHeads { tp: u32, kv_heads: u32 },
    /// Occurs when the global batch is not a multiple of data-parallel replicas x micro-batch.
    BatchNotDivisible { global_batch: u32, dp: u32, micro_batch: u32 },
    /// Occurs when the global batch has fewer sequences than DP x micro-batch.
    IdleReplicas { global_batch: u32, dp: u32, micro_batch: u32 },
    /// Occurs when the layers do not split evenly over pipeline stages and virtual stages
    /// (the stages are then balanced by parameters, as Llama 3 does).
    LayersNotDivisible { layers: u32, pp: u32, virtual_stages: u32 },
    /// Selective recomputation with flash attention changes nothing: what it recomputes (the
    /// attention scores) flash attention never stores.
    SelectiveWithFlash,
    /// Occurs when there are more pipeline stages than layers, so some stage would hold no
    /// layer.
    StagesExceedLayers { layers: u32, pp: u32, virtual_stages: u32 },
    /// Occurs when a pipeline has fewer micro-batches than stages, so most of it idles.
    FewMicrobatches { microbatches: u32, stages: u32 },
    /// Occurs when a pipeline's replicas run fewer than twice as many micro-batches as it has
    /// stages, so its bubble takes a large share of each step (a third at 1F1B); `batch`
    /// sequences a step would give each twice the stages.
    BatchStarved { microbatches: u32, stages: u32, batch: u64 },
    /// Occurs when an interleaved schedule's micro-batches are not a multiple of the stages, so
    /// its last round of micro-batches is partial (Megatron-Core's schedule table runs it; the
    /// 2021 Megatron-LM required a multiple).
    InterleavingNeedsMultiple { microbatches: u32, stages: u32 },
    /// Occurs when an interleaved schedule has fewer micro-batches than pipeline stages, which
    /// Megatron-Core refuses: the micro-batches run per virtual stage in a group must number
    /// from the stages to all of them (`microbatch_group_size_per_vp_stage` in
    /// `forward_backward_pipelining_with_interleaving`).
    InterleavingNeedsMicrobatches { microbatches: u32, stages: u32 },
    /// Occurs when the tensor-parallel group spans several scale-up domains.
    TensorCrossesDomain { tp: u32, domain: u32 },
    /// The scale-up domain is set larger than its fabric links: the fabric as given cannot
    /// build it.
    DomainBeyondFabric { domain: u32, fabric: u32 },
    /// Occurs when the expert-parallel group spans several scale-up domains.
    ExpertCrossesDomain { ep: u32, domain: u32 },
    /// Occurs when the expert-parallel degree exceeds the routed experts.
    ExpertDegreeExceedsExperts { ep: u32, experts: u32 },
    /// Occurs when the expert-parallel degree does not divide the experts, or expert parallel x
    /// expert tensor parallel does not divide the tensor x context x data ranks it is folded
    /// from (Megatron-Core MoE parallel folding, arXiv:2504.14960).
    ExpertDegreeNotDivisible { ep: u32, etp: u32, experts: u32, ranks: u64 },
    /// Occurs when expert parallelism is set for a model without experts.
    ExpertParallelWithoutExperts { ep: u32 },
    /// Occurs when the context-parallel degree does not divide the sequence into 2 x cp chunks.
    ContextSplitsSequence { cp: u32, seq_len: u32 },
    /// Tensor parallelism that does not divide a Mamba-2 mixer's heads or groups.
    TensorSplitsMamba { heads: u32, groups: u32, tp: u32 },
    /// A vision encoder's tensor ranks that do not divide the language model's, or its heads.
    VisionTensorSplit { encoder_tp: u32, tp: u32, heads: u32 },
    /// Tensor parallelism that does not divide a linear-attention mixer's value or key heads.
    TensorSplitsLinear { heads: u32, key_heads: u32, tp: u32 },
    /// Ulysses context parallelism with attention heads that do not divide among the tensor
    /// and context ranks (`ranks` = TP x CP).
    UlyssesSplitsHeads { heads: u32, ranks: u32 },
    /// Occurs when the FP8 recipe is chosen for a chip without FP8 tensor units.
    Fp8Unsupported,
    /// The NVFP4 recipe on a chip without FP4 tensor units (its GEMMs are timed at BF16).
    Fp4Unsupported,
    /// The INT8 recipe on a chip with no INT8 units or no published INT8 figure (its GEMMs are
    /// timed at BF16).
    Int8Unsupported,
    /// Occurs when the first pipeline stage is given more layers than leave one for every
    /// other stage.
    FirstStageTooLarge { first: u32, max: u32 },
    /// Occurs when a power cap is below the share of board power published curves reach.
    CapBelowMeasured { cap_w: f64, tdp_w: f64 },
    /// Occurs when the chip's GEMM efficiency, typed or fitted to a measurement, is above
    /// every published run of its class (`Cluster::class_best`): a claim no run has shown.
    EfficiencyAboveClass { efficiency: f64, best: f64, chip: &'static str, same_family: bool },
    /// Occurs when the estimate's MFU is above every published run's on at least half as many
    /// chips (`best`, run `run` on `chips`): beyond the evidence.
    BeyondPublished { mfu: f64, best: f64, chips: u32, run: &'static str },
    /// Occurs when a measurement shows an MFU (`mfu` on `at` chips) above every published run's
    /// on at least half as many chips: applied, as measured, but beyond the evidence.
    MeasuredBeyondPublished { mfu: f64, at: u32, best: f64, chips: u32, run: &'static str },
    /// Occurs when sequence parallelism is on without tensor parallelism.
    SequenceParallelWithoutTensor,
    /// Occurs when sharding is set with a single data-parallel replica.
    ShardingWithoutReplicas,
    /// Occurs when virtual stages are set without pipeline parallelism.
    VirtualStagesWithoutPipeline,
    /// Occurs when interruptions come faster than the run recovers from each (restart, reading
    /// the checkpoint back and redoing the work since it), so the run never finishes:
    /// `mtbf_s` between interruptions against `lost_s` lost to each.
    NeverFinishes { mtbf_s: f64, lost_s: f64 },
    /// Occurs when a rack of the system, as designed, draws more than its cooling can remove.
    RackTooDense { rack_w: f64, limit_w: f64, liquid: bool },
    /// Occurs when air-cooled chips take in air above the recommended envelope and slow down
    /// (`efficiency::thermal_speed`): `slower` is the share of speed they lose.
    HotInlet { inlet_c: f64, slower: f64 },
    /// Occurs when `tiers` tiers of the `ports`-port switch cannot wire the cluster, so each
    /// port runs split `split` ways (`fabric::PORT_SPLITS`).
    PortsSplit { split: u32, ports: u32, tiers: u32 },
    /// Occurs when the accelerators' failure rates are Meta's H100 fleet's, borrowed for a chip
    /// of another vendor that has published none (`Reliability::rates_borrowed`).
    RatesBorrowed,
    /// Occurs when the servers have no price (a chip the catalog prices nowhere, or a price of
    /// 0 typed), so the hardware's cost counts only the network and the storage.
    ServersUnpriced,
}

/// How much a finding matters, most serious first; warnings are listed in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The plan cannot run as written.
    Problem,
    /// The plan's racks draw more than the site can cool where they stand.
    Fit,
    /// The plan runs, but wastes chips or time the user probably did not mean to.
    Waste,
    /// A setting has no effect, or the model substitutes something (FP8 at BF16 speed).
    Advice,
    /// How the model handles an uneven split, for the record; not a warning.
    Note,
}

impl Severity {
    /// Lowercase name, for markup and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Problem => "problem",
            Severity::Fit => "fit",
            Severity::Waste => "waste",
            Severity::Advice => "advice",
            Severity::Note => "note",
        }
    }
}

impl Warning {
    /// The finding that `inputs` need `need_bytes` a chip of the chip's `have_bytes`, with the
    /// experts raising EP could still split.
    pub fn does_not_fit(inputs: &Inputs, need_bytes: f64, have_bytes: f64) -> Warning {
        let experts = match inputs.transformer.moe {
            Some(moe) if Shape::of(inputs).ep_u < moe.n_experts => moe.n_experts,
            _ => 0,
        };
        Warning::DoesNotFit { need_bytes, have_bytes, experts }
    }

    /// How much this matters.
    pub fn severity(&self) -> Severity {
        match self {
            Warning::DegreesMismatch { product, chips } if *product > *chips as u64 => {
                Severity::Problem
            }
            Warning::TensorSplitsHeads { .. }
            | Warning::PlacementShort { .. }
            | Warning::FirstStageTooLarge { .. }
            | Warning::IdleReplicas { .. }
            | Warning::StagesExceedLayers { .. }
            | Warning::ExpertDegreeExceedsExperts { .. }
            | Warning::ExpertDegreeNotDivisible { .. }
            | Warning::ContextSplitsSequence { .. }
            | Warning::UlyssesSplitsHeads { .. }
            | Warning::TensorSplitsMamba { .. }
            | Warning::TensorSplitsLinear { .. }
            | Warning::VisionTensorSplit { .. }
            | Warning::InterleavingNeedsMicrobatches { .. }
            | Warning::NeverFinishes { .. }
            | Warning::DoesNotFit { .. } => Severity::Problem,
            Warning::RackTooDense { .. } => Severity::Fit,
            Warning::DegreesMismatch { .. }
            | Warning::FewMicrobatches { .. }
            | Warning::BatchStarved { .. }
            | Warning::TensorCrossesDomain { .. }
            | Warning::ExpertCrossesDomain { .. }
            | Warning::BatchNotDivisible { .. }
            | Warning::InterleavingNeedsMultiple { .. } => Severity::Waste,
            Warning::TensorReplicatesKvHeads { .. }
            | Warning::ExpertParallelWithoutExperts { .. }
            | Warning::Fp8Unsupported
            | Warning::Fp4Unsupported
            | Warning::Int8Unsupported
            | Warning::CapBelowMeasured { .. }
            | Warning::EfficiencyAboveClass { .. }
            | Warning::BeyondPublished { .. }
            | Warning::MeasuredBeyondPublished { .. }
            | Warning::HotInlet { .. }
            | Warning::ServersUnpriced
            | Warning::RatesBorrowed
            | Warning::SequenceParallelWithoutTensor
            | Warning::ShardingWithoutReplicas
            | Warning::VirtualStagesWithoutPipeline
            | Warning::DomainBeyondFabric { .. } => Severity::Advice,
            Warning::LayersNotDivisible { .. }
            | Warning::SelectiveWithFlash
            | Warning::PortsSplit { .. } => Severity::Note,
        }
    }
}

/// Where `check` puts what it finds: the estimate keeps every finding; the plan search only
/// asks whether any makes the plan impossible, without allocating.
pub(crate) trait Findings {
    fn push(&mut self, warning: Warning);
}

impl Findings for Vec<Warning> {
    fn push(&mut self, warning: Warning) {
        Vec::push(self, warning);
    }
}

/// A sink that only remembers whether a `Severity::Problem` went by.
#[derive(Default)]
pub(crate) struct AnyProblem(pub bool);

impl Findings for AnyProblem {
    fn push(&mut self, warning: Warning) {
        self.0 |= warning.severity() == Severity::Problem;
    }
}

/// Appends every warning that the inputs alone imply (memory is checked after estimating).
pub(crate) fn check(inputs: &Inputs, shape: &Shape, out: &mut impl Findings) {
    let t = &inputs.transformer;
    let p = &inputs.parallelism;
    let c = &inputs.cluster;
    let product = shape.tp_u as u128 * shape.pp_u as u128 * shape.dp_u as u128 * shape.cp_u as u128;
    if product != c.n_chips as u128 {
        let product = product.min(u64::MAX as u128) as u64;
        out.push(Warning::DegreesMismatch { product, chips: c.n_chips });
    }
    if p.recompute == crate::model::Recompute::Selective
        && t.attention == crate::model::AttentionImpl::Flash
    {
        out.push(Warning::SelectiveWithFlash);
    }
    if p.first_stage_layers > 0 && shape.pp_u > 1 {
        let max = t.n_layers.saturating_sub(shape.pp_u - 1);
        if p.first_stage_layers > max {
            out.push(Warning::FirstStageTooLarge { first: p.first_stage_layers, max });
        }
    }
    let usable = c.usable_chips();
    if product > usable as u128 && product <= c.n_chips as u128 {
        out.push(Warning::PlacementShort {
            product: product as u64,
            usable,
            used: c.rank_domain(),
            domain: c.scale_up.domain_size,
        });
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
    let chunks = shape.pp_u as u64 * p.virtual_stages.max(1) as u64;
    let layers = (t.n_layers, shape.pp_u, p.virtual_stages.max(1));
    // Llama 3 405B ran 126 layers in PP 16 x 8 virtual stages, with the first and last stage's
    // spare chunks empty (Llama 3 report, arXiv:2407.21783, §3.3.2); only a pipeline rank
    // with no layer at all cannot work.
    if shape.pp_u > t.n_layers {
        out.push(Warning::StagesExceedLayers {
            layers: layers.0,
            pp: layers.1,
            virtual_stages: layers.2,
        });
    } else if t.n_layers as u64 % chunks.max(1) != 0 {
        out.push(Warning::LayersNotDivisible {
            layers: layers.0,
            pp: layers.1,
            virtual_stages: layers.2,
        });
    }
    if shape.pp_u > 1 && shape.n_microbatches < shape.pp_u && p.virtual_stages > 1 {
        out.push(Warning::InterleavingNeedsMicrobatches {
            microbatches: shape.n_microbatches,
            stages: shape.pp_u,
        });
    } else if shape.pp_u > 1 && shape.n_microbatches < shape.pp_u {
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
    let m = shape.n_microbatches;
    if shape.pp_u > 1 && m >= shape.pp_u && m < 2 * shape.pp_u {
        let micro_batch = p.micro_batch.max(1) as u64;
        out.push(Warning::BatchStarved {
            microbatches: m,
            stages: shape.pp_u,
            batch: shape.dp_u as u64 * micro_batch * 2 * shape.pp_u as u64,
        });
    }
    if c.fabric_domain > 0 && c.scale_up.domain_size > c.fabric_domain {
        out.push(Warning::DomainBeyondFabric {
            domain: c.scale_up.domain_size,
            fabric: c.fabric_domain,
        });
    }
    let domain = c.rank_domain();
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
                || shape.expert_ranks() % (shape.ep_u as u64 * shape.etp_u as u64) != 0
            {
                out.push(Warning::ExpertDegreeNotDivisible {
                    ep: shape.ep_u,
                    etp: shape.etp_u,
                    experts: moe.n_experts,
                    ranks: shape.expert_ranks(),
                });
            }
            // Expert ranks follow expert tensor parallelism, innermost (Megatron-Core's expert
            // rank order: ETP, EP, expert DP).
            if Group::place(shape.ep_u, shape.etp_u, domain).crosses_domains() {
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
    if let Some(y) = t.hybrid.filter(|y| y.mamba > 0) {
        let (heads, groups, tp) = (y.mixer.heads, y.mixer.groups, shape.tp_u.max(1));
        // Mamba-1's `B` and `C` are shared by every channel: only its channels split.
        let grouped = y.mixer.kind == crate::model::MambaKind::Mamba2;
        if heads % tp != 0 || (grouped && groups % tp != 0) {
            out.push(Warning::TensorSplitsMamba { heads, groups, tp });
        }
    }
    if let Some(v) = t.vision {
        let (tp, heads) = (shape.tp_u.max(1), v.heads);
        let encoder_tp = v.tp.unwrap_or(tp).max(1);
        if encoder_tp > tp || tp % encoder_tp != 0 || heads % encoder_tp != 0 {
            out.push(Warning::VisionTensorSplit { encoder_tp, tp, heads });
        }
    }
    if let Some(l) = t.linear_mixer() {
        let (heads, key_heads, tp) = (l.heads, l.key_heads, shape.tp_u.max(1));
        if heads % tp != 0 || key_heads % tp != 0 {
            out.push(Warning::TensorSplitsLinear { heads, key_heads, tp });
        }
    }
    let ranks = shape.tp_u.saturating_mul(shape.cp_u).max(1);
    if p.cp_kind == CpKind::Ulysses && shape.cp_u > 1 && t.n_heads % ranks != 0 {
        out.push(Warning::UlyssesSplitsHeads { heads: t.n_heads, ranks });
    }
    let recipe = inputs.training.recipe;
    if matches!(recipe, Recipe::Fp8 | Recipe::Mxfp8) && !(c.chip.fp8_flops_per_s > 0.0) {
        out.push(Warning::Fp8Unsupported);
    }
    if recipe == Recipe::Nvfp4 && !(c.chip.fp4_flops_per_s > 0.0) {
        out.push(Warning::Fp4Unsupported);
    }
    if recipe == Recipe::Int8 && !(c.chip.int8_ops_per_s > 0.0) {
        out.push(Warning::Int8Unsupported);
    }
    if c.cap_share() < crate::model::efficiency::CAP_MEASURED_FROM {
        out.push(Warning::CapBelowMeasured { cap_w: c.power_cap_w, tdp_w: c.chip.tdp_w });
    }
    if let Some(best) = c.class_best {
        // Rounded as the catalog keeps fitted figures, so a chip at its own fit is not above it.
        if c.chip.matmul_efficiency > best.efficiency + 5e-5 {
            out.push(Warning::EfficiencyAboveClass {
                efficiency: c.chip.matmul_efficiency,
                best: best.efficiency,
                chip: best.chip,
                same_family: best.same_family,
            });
        }
    }
    let thermal = inputs.plant.facility.thermal_speed();
    if thermal < 1.0 {
        let inlet_c = inputs.plant.facility.inlet_c;
        out.push(Warning::HotInlet { inlet_c, slower: 1.0 - thermal });
    }
    let bom = &inputs.plant.bom;
    if bom.port_split > 1 {
        let (split, ports, tiers) = (bom.port_split, inputs.plant.switch.ports, bom.tiers);
        out.push(Warning::PortsSplit { split, ports, tiers });
    }
    if inputs.reliability.rates_borrowed {
        out.push(Warning::RatesBorrowed);
    }
    if inputs.plant.system.node_price_usd <= 0.0 {
        out.push(Warning::ServersUnpriced);
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
