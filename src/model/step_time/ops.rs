//! Operator costs of one layer for one micro-batch: the rooflines of every GEMM, attention
//! and element-wise kernel, and the collectives of tensor, context and expert parallelism
//! around them, as forward, backward and recompute passes.
//!
//! Depends only on the per-chip shape, not on the pipeline schedule or data parallelism, so a
//! plan search can keep these costs while it varies the rest.

use crate::model::collectives::{
    all_to_all_s, collective_s, expert_copies, rail_forwarded, Collective, Group,
};
use std::cell::OnceCell;
use std::ops::{Add, Mul};

use crate::model::efficiency::{
    depth_slowdown, kernel_s, overlapped, BLOCK_SCALED_GEMM_RELATIVE, ELEMENTWISE_BWD_BYTE_RATIO,
    FLASH_BWD_FLOP_RATIO, FLASH_BWD_RELATIVE, FLASH_FWD_RELATIVE, FP8_GEMM_RELATIVE,
    KERNEL_FLOOR_S, LOSS_BWD_BYTES, LOSS_FWD_BYTES, NORM_BYTES_PER_ELEMENT, NVFP4_BF16_LAYER_SHARE,
    QUANTIZE_INT8_BYTES, QUANTIZE_MXFP8_BYTES, QUANTIZE_NVFP4_BYTES, RESIDUAL_BYTES_PER_ELEMENT,
};
use crate::model::parallelism::Shape;
use crate::model::stages::Stage;
use crate::model::{AttentionImpl, CpKind, CudaGraphs, Dispatcher, GemmFormat, Inputs, Recompute};

use super::ACT_BYTES;

/// One kind of communication in a pass: the seconds it keeps the links busy, and the part of
/// them on the critical path.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Comm {
    pub(super) link: f64,
    pub(super) exposed: f64,
}

impl Comm {
    /// `link` seconds on the links, of which `exposed` wait on the critical path.
    pub(super) fn new(link: f64, exposed: f64) -> Comm {
        Comm { link, exposed }
    }
}

impl Add for Comm {
    type Output = Comm;
    #[inline]
    fn add(self, o: Comm) -> Comm {
        Comm { link: self.link + o.link, exposed: self.exposed + o.exposed }
    }
}

impl Mul<f64> for Comm {
    type Output = Comm;
    #[inline]
    fn mul(self, k: f64) -> Comm {
        Comm { link: self.link * k, exposed: self.exposed * k }
    }
}

/// Time of one pass (forward, backward or recompute) of some layers for one micro-batch:
/// compute, and the tensor-, context- and expert-parallel traffic around it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pass {
    pub(super) compute: f64,
    pub(super) tp: Comm,
    pub(super) cp: Comm,
    pub(super) ep: Comm,
    /// Seconds the GPU waits on the host (`Software::moe_host_s`).
    pub(super) host: f64,
}

impl Pass {
    /// Seconds on the critical path.
    pub(super) fn total(&self) -> f64 {
        self.compute + self.tp.exposed + self.cp.exposed + self.ep.exposed + self.host
    }
}

impl Add for Pass {
    type Output = Pass;
    #[inline]
    fn add(self, o: Pass) -> Pass {
        Pass {
            compute: self.compute + o.compute,
            tp: self.tp + o.tp,
            cp: self.cp + o.cp,
            ep: self.ep + o.ep,
            host: self.host + o.host,
        }
    }
}

impl Mul<f64> for Pass {
    type Output = Pass;
    #[inline]
    fn mul(self, k: f64) -> Pass {
        Pass {
            compute: self.compute * k,
            tp: self.tp * k,
            cp: self.cp * k,
            ep: self.ep * k,
            host: self.host * k,
        }
    }
}

/// Forward, backward and recompute passes of one layer or stage for one micro-batch.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Passes {
    pub(super) fwd: Pass,
    pub(super) bwd: Pass,
    pub(super) recompute: Pass,
}

impl Passes {
    pub(super) fn total(&self) -> f64 {
        self.fwd.total() + self.bwd.total() + self.recompute.total()
    }
}

impl Add for Passes {
    type Output = Passes;
    #[inline]
    fn add(self, o: Passes) -> Passes {
        Passes {
            fwd: self.fwd + o.fwd,
            bwd: self.bwd + o.bwd,
            recompute: self.recompute + o.recompute,
        }
    }
}

impl Mul<f64> for Passes {
    type Output = Passes;
    #[inline]
    fn mul(self, k: f64) -> Passes {
        Passes { fwd: self.fwd * k, bwd: self.bwd * k, recompute: self.recompute * k }
    }
}

/// A layer's token mixers (`Ctx::mixers`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mixers {
    pub(super) passes: Passes,
    /// Forward time of the attention core, seconds.
    pub(super) core_fwd: f64,
}

/// Rates and sizes shared by every operator of one estimate.
pub(super) struct Ctx<'a> {
    pub(super) inputs: &'a Inputs,
    pub(super) shape: &'a Shape,
    /// Achievable GEMM rate of the recipe's datatype, FLOP/s.
    pub(super) gemm_rate: f64,
    /// Bytes moved per element of a GEMM's input to quantize it for a block-scaled recipe
    /// (0 where the rate already covers it), and the share of linear layers kept in BF16.
    pub(super) quantize_bytes: f64,
    pub(super) bf16_share: f64,
    /// Bytes moved per element to quantize a GEMM's weights as it runs (the INT8 recipe's
    /// on-the-fly quantizing; 0 where the weights' low-precision copies are kept).
    pub(super) quantize_weight_bytes: f64,
    /// Achievable BF16 GEMM rate (attention runs in BF16 in every recipe), FLOP/s.
    pub(super) bf16_rate: f64,
    /// Achievable memory bandwidth, bytes/s.
    pub(super) mem_rate: f64,
    /// Exponentials a second a fused attention kernel reaches: the chip's, at the share of
    /// their peak its matrix products reach (`FLASH_FWD_RELATIVE` of the GEMMs' clock and
    /// efficiency), as a kernel that overlaps the two (FlashAttention-3 and -4's pipelines)
    /// keeps both busy; unbounded where the chip gives none.
    pub(super) exp_rate: f64,
    /// `tp_block`, which every block of a layer reads: worked out once.
    tp_block: OnceCell<f64>,
}

impl Ctx<'_> {
    pub(super) fn new<'a>(inputs: &'a Inputs, shape: &'a Shape) -> Ctx<'a> {
        let chip = &inputs.cluster.chip;
        // A power cap and a hot inlet slow the SM clock, so every GEMM-like kernel, not memory
        // traffic.
        // The stack's kernels reach their share of the chip's best (a tuned submission's).
        let share = inputs.parallelism.software.kernel_share.clamp(0.05, 1.5);
        let eff = inputs.kernel_efficiency()
            * crate::model::efficiency::capped_speed(inputs.cluster.cap_share())
            * inputs.plant.facility.thermal_speed();
        let bf16_rate = (chip.bf16_flops_per_s * eff).max(1.0);
        // The family's low-precision GEMMs reach their own share of the model's figure.
        let low = eff * inputs.parallelism.software.low_precision_share.clamp(0.3, 2.0);
        let block = |peak: f64| (peak * low * BLOCK_SCALED_GEMM_RELATIVE).max(1.0);
        // The rate, the bytes that quantize a GEMM's input and its weights as it runs, and the
        // share of layers kept in BF16.
        let (gemm_rate, quantize_bytes, quantize_weight_bytes, bf16_share) =
            match inputs.gemm_format() {
                GemmFormat::Bf16 => (bf16_rate, 0.0, 0.0, 0.0),
                GemmFormat::Fp8 => {
                    ((chip.fp8_flops_per_s * low * FP8_GEMM_RELATIVE).max(1.0), 0.0, 0.0, 0.0)
                }
                GemmFormat::Mxfp8 => (block(chip.fp8_flops_per_s), QUANTIZE_MXFP8_BYTES, 0.0, 0.0),
                GemmFormat::Nvfp4 => {
                    (block(chip.fp4_flops_per_s), QUANTIZE_NVFP4_BYTES, 0.0, NVFP4_BF16_LAYER_SHARE)
                }
                // Scales applied to the accumulated products, outside the contraction, as a
                // tensor-scaled FP8 GEMM's; every operand quantized as it runs.
                GemmFormat::Int8 => (
                    (chip.int8_ops_per_s * low * FP8_GEMM_RELATIVE).max(1.0),
                    QUANTIZE_INT8_BYTES,
                    QUANTIZE_INT8_BYTES,
                    0.0,
                ),
            };
        let mem_rate =
            (chip.hbm_bytes_per_s * chip.memory_efficiency.clamp(0.01, 1.0) * share).max(1.0);
        let exp_rate = if chip.exp_per_s > 0.0 {
            (chip.exp_per_s * eff * FLASH_FWD_RELATIVE).max(1.0)
        } else {
            f64::INFINITY
        };
        Ctx {
            inputs,
            shape,
            gemm_rate,
            quantize_bytes,
            bf16_share,
            quantize_weight_bytes,
            bf16_rate,
            mem_rate,
            exp_rate,
            tp_block: OnceCell::new(),
        }
    }

    /// Roofline time of `batch` linear-layer GEMMs of `m x k` by `k x n` at `rate`, each as
    /// slow as its contraction depths make it (`depth_slowdown`; a grouped GEMM of small
    /// experts runs below a dense one of the same work).
    pub(super) fn gemm_at(&self, rate: f64, m: f64, n: f64, k: f64, batch: f64) -> f64 {
        self.matmul_at(rate / depth_slowdown(m, n, k), m, n, k, batch)
    }

    /// Roofline time of `batch` GEMMs of `m x k` by `k x n` at `rate`, however deep: the
    /// materialized attention's scores and weighted sums, priced as the runs fitted them.
    pub(super) fn matmul_at(&self, rate: f64, m: f64, n: f64, k: f64, batch: f64) -> f64 {
        let flops = 2.0 * m * n * k * batch;
        let ideal = flops / rate;
        let compute = kernel_s(ideal);
        let bytes = ACT_BYTES * batch * (m * k + k * n + m * n);
        compute.max(bytes / self.mem_rate).max(KERNEL_FLOOR_S)
    }

    /// A linear layer's GEMM of `m x k` by `k x n` in the recipe's datatype: with a
    /// block-scaled recipe, its input quantized first, and the layers kept in BF16 at BF16.
    pub(super) fn gemm(&self, m: f64, n: f64, k: f64) -> f64 {
        let low = self.gemm_at(self.gemm_rate, m, n, k, 1.0);
        if self.quantize_bytes <= 0.0 {
            return low;
        }
        let quantized = low + self.quantize(m, n, k, 1.0);
        let kept = self.bf16_share;
        (1.0 - kept) * quantized + kept * self.gemm_at(self.bf16_rate, m, n, k, 1.0)
    }

    /// Time of quantizing the operands of `batch` GEMMs of `m x k` by `k x n` as they run: the
    /// input, and with the INT8 recipe the weights too. A pass's GEMMs quantize what they read;
    /// the backward pass, priced at twice the forward, then quantizes the weights twice and the
    /// inputs and output gradients once each where it reads the weights once and the inputs
    /// once and the output gradients twice (the same where `2mn = mk + kn`).
    pub(super) fn quantize(&self, m: f64, n: f64, k: f64, batch: f64) -> f64 {
        let weights = self.quantize_weight_bytes * k * n;
        self.elementwise(batch * (self.quantize_bytes * m * k + weights))
    }

    /// Time of a memory-bound kernel moving `bytes`.
    pub(super) fn elementwise(&self, bytes: f64) -> f64 {
        (bytes / self.mem_rate).max(KERNEL_FLOOR_S)
    }

    pub(super) fn group(&self, size: u32, stride: u32) -> Group {
        Group::place(size, stride, self.inputs.cluster.rank_domain())
    }

    pub(super) fn collective(&self, kind: Collective, bytes: f64, group: Group) -> f64 {
        let c = &self.inputs.cluster;
        collective_s(kind, bytes, group, &c.scale_up, &c.scale_out_for(group.span), &c.network)
    }

    /// Tensor-parallel traffic around one block (attention or MLP) in one pass: an all-reduce,
    /// or with sequence parallelism an all-gather before and a reduce-scatter after.
    pub(super) fn tp_block(&self) -> f64 {
        *self.tp_block.get_or_init(|| self.tensor_block(self.shape.tp_u, 1.0))
    }

    /// The same over a group of `size` chips sharing the tokens of `share` tensor-parallel
    /// groups' worth of ranks (`etp / tp` for the expert tensor-parallel group, whose members
    /// each bring their own sequence-parallel shard).
    fn tensor_block(&self, size: u32, share: f64) -> f64 {
        let s = self.shape;
        if size <= 1 {
            return 0.0;
        }
        let bytes = s.tokens * share * self.inputs.transformer.hidden as f64 * ACT_BYTES;
        let group = self.group(size, 1);
        if self.inputs.parallelism.sequence_parallel {
            self.collective(Collective::AllGather, bytes, group)
                + self.collective(Collective::ReduceScatter, bytes, group)
        } else {
            self.collective(Collective::AllReduce, bytes, group)
        }
    }

    /// Critical-path seconds of `link` seconds of tensor-parallel traffic around GEMMs taking
    /// `gemms` seconds. Megatron-Core's overlap (`--tp-comm-overlap`, Transformer Engine's
    /// userbuffers) splits each all-gather and reduce-scatter into chunks pipelined with the GEMM
    /// that consumes or produces it, so only those GEMMs can hide it, not the rest of the layer;
    /// it needs sequence parallelism (Megatron-LM's argument checks) and a tensor-parallel group
    /// inside one NVLink domain (Transformer Engine, `examples/pytorch/comm_gemm_overlap`:
    /// "tensor-parallel GPUs must be on a single node, and connected over NVLink/NVSwitch").
    /// Elsewhere the traffic is exposed.
    pub(super) fn tp_exposed(&self, link: f64, gemms: f64) -> f64 {
        self.tensor_exposed(link, gemms, self.shape.tp_u)
    }

    /// `tp_exposed` for a tensor-parallel group of `size` chips (the expert tensor-parallel
    /// group around routed experts).
    fn tensor_exposed(&self, link: f64, gemms: f64, size: u32) -> f64 {
        let p = &self.inputs.parallelism;
        let inside = !self.group(size, 1).crosses_domains();
        if p.tp_overlap && p.sequence_parallel && inside {
            overlapped(link, gemms)
        } else {
            link
        }
    }

    /// Attention block: norm, QKV, attention core, output projection, residual.
    /// Returns the passes and the attention core's forward compute (for selective recompute).
    pub(super) fn attention_block(&self) -> (Passes, f64) {
        let t = &self.inputs.transformer;
        let s = self.shape;
        let sp = self.inputs.parallelism.sequence_parallel;
        let h = t.hidden as f64;
        let tokens = s.tokens;
        let norm_tokens = s.norm_tokens(sp);
        let q = t.q_dim() / s.tp;
        // With more tensor ranks than key/value heads each rank keeps a copy of one head.
        let kv = (t.kv_dim() / s.tp).max(t.head_dim as f64);
        let dropout_bytes = if t.dropout { 1.0 } else { 0.0 };

        let norm = self.elementwise(NORM_BYTES_PER_ELEMENT * norm_tokens * h);
        let residual =
            self.elementwise((RESIDUAL_BYTES_PER_ELEMENT + dropout_bytes) * norm_tokens * h);
        let (projections, latent_norms) = match t.mla {
            None => (self.gemm(tokens, q + 2.0 * kv, h), 0.0),
            Some(_) => self.latent_projections(),
        };
        let gemms_fwd = projections + self.gemm(tokens, h, t.out_dim() / s.tp);
        let elementwise_fwd = norm + residual + latent_norms;

        let (core_fwd, core_bwd) = self.attention_core();

        let tp = self.tp_block();
        let (cp_fwd, cp_bwd) = self.context_exchange(core_fwd, core_bwd);
        let fwd = Pass {
            compute: gemms_fwd + elementwise_fwd + core_fwd,
            tp: Comm::new(tp, self.tp_exposed(tp, gemms_fwd)),
            cp: cp_fwd,
            ..Pass::default()
        };
        let bwd = Pass {
            compute: 2.0 * gemms_fwd + ELEMENTWISE_BWD_BYTE_RATIO * elementwise_fwd + core_bwd,
            tp: Comm::new(tp, self.tp_exposed(tp, 2.0 * gemms_fwd)),
            cp: cp_bwd,
            ..Pass::default()
        };
        (Passes { fwd, bwd, recompute: Pass::default() }, core_fwd)
    }

    /// Multi-head latent attention's projections in the forward pass, and the norms of its
    /// latents: the down-projections to the query and key/value latents (with the shared
    /// rotary key) are replicated on every tensor rank, as Megatron-Core runs them, and the
    /// up-projections to each rank's heads split among them (arXiv:2412.19437, §2.1.1).
    pub(super) fn latent_projections(&self) -> (f64, f64) {
        let t = &self.inputs.transformer;
        let Some(m) = t.mla else { return (0.0, 0.0) };
        let s = self.shape;
        let (tokens, h) = (s.tokens, t.hidden as f64);
        let heads = t.n_heads as f64 / s.tp;
        let (q_lora, kv_lora) = (m.q_lora_rank as f64, m.kv_lora_rank as f64);
        let query_down = if m.q_lora_rank > 0 {
            self.gemm(tokens, q_lora, h)
        } else {
            self.gemm(tokens, heads * t.qk_head_dim(), h)
        };
        let kv_down = self.gemm(tokens, kv_lora + m.rope_head_dim as f64, h);
        let norms = self.elementwise(NORM_BYTES_PER_ELEMENT * tokens * (q_lora + kv_lora));
        (query_down + kv_down + self.latent_up(), norms)
    }

    /// Multi-head latent attention's up-projections from the latents to each rank's heads,
    /// forward: what DeepSeek-V3 recomputes in the backward pass instead of storing their
    /// outputs (§3.4).
    pub(super) fn latent_up(&self) -> f64 {
        let t = &self.inputs.transformer;
        let Some(m) = t.mla else { return 0.0 };
        let (heads, tokens) = (t.n_heads as f64 / self.shape.tp, self.shape.tokens);
        let query = if m.q_lora_rank > 0 {
            self.gemm(tokens, heads * t.qk_head_dim(), m.q_lora_rank as f64)
        } else {
            0.0
        };
        let width = heads * (t.head_dim as f64 + t.v_head_dim());
        query + self.gemm(tokens, width, m.kv_lora_rank as f64)
    }

    /// Forward and backward time of the attention core (scores, softmax, weighted sum).
    pub(super) fn attention_core(&self) -> (f64, f64) {
        let t = &self.inputs.transformer;
        let s = self.shape;
        let heads = t.n_heads as f64 / s.tp;
        let (dqk, dv) = (t.qk_head_dim(), t.v_head_dim());
        let sq = t.seq_len as f64 / s.cp;
        let sk = t.seq_len as f64;
        let b = s.micro_batch;
        match t.attention {
            AttentionImpl::Flash => {
                // Causal: only half of the score tiles are computed (Dao 2023, §3.1).
                self.flash_core(b * heads * sq * sk * t.score_share(), dqk + dv)
            }
            AttentionImpl::Materialized => {
                let batch = b * heads;
                let scores = self.matmul_at(self.bf16_rate, sq, sk, dqk, batch);
                let weighted = self.matmul_at(self.bf16_rate, sq, dv, sk, batch);
                let elements = batch * sq * sk;
                // Fused scale-mask-softmax reads and writes the scores (4 B/element); dropout
                // reads and writes them again and stores a 1-byte mask (Korthikanti et al. 2022, §4.1).
                let dropout = if t.dropout { 5.0 } else { 0.0 };
                let softmax = self.elementwise((4.0 + dropout) * elements);
                let fwd = scores + weighted + softmax;
                let bwd = 2.0 * (scores + weighted) + ELEMENTWISE_BWD_BYTE_RATIO * softmax;
                (fwd, bwd)
            }
        }
    }

    /// Forward and backward time of a fused attention kernel over `pairs` query-key pairs
    /// (summed over heads and samples) with query-key and value widths summing to `width`.
    /// Each pass takes the longer of its matrix products and its exponentials, one a pair
    /// (the backward pass recomputes them), where the chip's are known (`Chip::exp_per_s`).
    pub(super) fn flash_core(&self, pairs: f64, width: f64) -> (f64, f64) {
        let flops = 2.0 * pairs * width;
        let exp_s = pairs / self.exp_rate;
        let fwd_ideal = (flops / (self.bf16_rate * FLASH_FWD_RELATIVE)).max(exp_s);
        let bwd_ideal =
            (FLASH_BWD_FLOP_RATIO * flops / (self.bf16_rate * FLASH_BWD_RELATIVE)).max(exp_s);
        (kernel_s(fwd_ideal).max(KERNEL_FLOOR_S), kernel_s(bwd_ideal).max(KERNEL_FLOOR_S))
    }

    /// The Ulysses degree of a context-parallel group: all of it under `ulysses`; under `both`
    /// the largest share of it whose ranks, with their tensor ranks, fit in one scale-up domain
    /// and divide the heads; 1 otherwise.
    pub(super) fn ulysses_degree(&self) -> u32 {
        let s = self.shape;
        let heads = self.inputs.transformer.n_heads;
        match self.inputs.parallelism.cp_kind {
            CpKind::Ulysses => s.cp_u,
            CpKind::Both => {
                let domain = self.inputs.cluster.rank_domain().max(1);
                (1..=s.cp_u)
                    .rev()
                    .find(|&u| {
                        s.cp_u % u == 0
                            && s.tp_u.saturating_mul(u) <= domain
                            && heads % s.tp_u.saturating_mul(u).max(1) == 0
                    })
                    .unwrap_or(1)
            }
            CpKind::AllGather | CpKind::Ring => 1,
        }
    }

    /// Context-parallel exchange of one layer's attention, forward and backward: link seconds
    /// and the part exposed, given the attention core's time in each pass.
    ///
    /// All-gather and ring move every rank's keys and values to every other (an all-gather in
    /// the forward pass, and their gradients reduce-scattered in the backward: Llama 3 report,
    /// arXiv:2407.21783, §3.3.2); the all-gather's latency "is exposed in the critical path",
    /// while ring attention hides its blocks behind the attention they feed, charging
    /// interference. Ulysses swaps each rank's sequence shard of queries, keys and values for
    /// a head shard of the whole sequence by an all-to-all, and the output back, exposed, with
    /// gradients the same way in the backward pass (arXiv:2309.14509, §3); where fewer key/value
    /// heads than ranks, each rank still receives one. `both` runs Ulysses inside a domain and
    /// a ring across domains over the head shards it leaves.
    pub(super) fn context_exchange(&self, core_fwd: f64, core_bwd: f64) -> (Comm, Comm) {
        let s = self.shape;
        if s.cp_u <= 1 {
            return (Comm::default(), Comm::default());
        }
        let t = &self.inputs.transformer;
        let kv = (t.kv_dim() / s.tp).max(t.head_dim as f64);
        let (q, seq, dh) = (t.q_dim() / s.tp, t.seq_len as f64, t.head_dim as f64);
        let u = self.ulysses_degree().max(1);
        let ring = s.cp_u / u;
        // Ulysses over `u` ranks: each sends its sequence shard of q, k, v, then of the output.
        let (a2a_fwd, a2a_bwd) = if u > 1 {
            let group = self.group(u, s.tp_u);
            let shard = s.micro_batch * seq / s.cp * ACT_BYTES;
            let inputs = shard * (q + 2.0 * kv.max(u as f64 * dh));
            let a2a = |bytes: f64| self.collective(Collective::AllToAll, bytes, group);
            let pass = a2a(inputs) + a2a(shard * t.out_dim() / s.tp);
            (pass, pass)
        } else {
            (0.0, 0.0)
        };
        // A ring (or all-gather) over the rest, of the keys and values of each rank's heads.
        let (ring_fwd, ring_bwd) = if ring > 1 {
            let group = self.group(ring, s.tp_u.saturating_mul(u));
            let bytes = 2.0 * s.micro_batch * seq * (kv / u as f64).max(dh) * ACT_BYTES;
            let gather = self.collective(Collective::AllGather, bytes, group);
            let scatter = self.collective(Collective::ReduceScatter, bytes, group);
            (gather, gather + scatter)
        } else {
            (0.0, 0.0)
        };
        let hidden = |link: f64, attention: f64| {
            if self.inputs.parallelism.cp_overlap {
                overlapped(link, attention)
            } else {
                link
            }
        };
        (
            Comm::new(a2a_fwd + ring_fwd, a2a_fwd + hidden(ring_fwd, core_fwd)),
            Comm::new(a2a_bwd + ring_bwd, a2a_bwd + hidden(ring_bwd, core_bwd)),
        )
    }

    /// Dense feed-forward block: norm, up (and gate), activation, down, residual.
    pub(super) fn dense_ffn(&self) -> Passes {
        let t = &self.inputs.transformer;
        let s = self.shape;
        let ffn = t.ffn as f64 / s.tp;
        let (gemms, act) = self.ffn_core(s.tokens, ffn, 1.0);
        self.ffn_passes(gemms, act, 0.0, (self.tp_block(), s.tp_u))
    }

    /// GEMM and activation time of a feed-forward core of width `ffn` (already sharded) over
    /// `tokens`, as `batch` equal experts.
    pub(super) fn ffn_core(&self, tokens: f64, ffn: f64, batch: f64) -> (f64, f64) {
        let t = &self.inputs.transformer;
        let h = t.hidden as f64;
        let n_in = t.ffn_kind.up_matrices();
        let mut gemms = self.gemm_at(self.gemm_rate, tokens, n_in * ffn, h, batch)
            + self.gemm_at(self.gemm_rate, tokens, h, ffn, batch);
        // The INT8 recipe quantizes every operand as it runs (block-scaled recipes fuse their
        // inputs' quantizing into the norm and the activation function).
        if self.quantize_weight_bytes > 0.0 {
            gemms +=
                self.quantize(tokens, n_in * ffn, h, batch) + self.quantize(tokens, h, ffn, batch);
        }
        (gemms, self.activation(tokens, ffn, batch))
    }

    /// Time of a feed-forward core's activation function over `tokens` at width `ffn`, as
    /// `batch` equal experts: its inputs read and its output written.
    fn activation(&self, tokens: f64, ffn: f64, batch: f64) -> f64 {
        let act_bytes = self.inputs.transformer.ffn_kind.activation_bytes();
        self.elementwise(act_bytes * tokens * ffn * batch)
    }

    /// Wraps a feed-forward core with its norm, residual and tensor-parallel traffic (`tp`:
    /// link seconds per pass over a tensor-parallel group of `size` chips).
    pub(super) fn ffn_passes(
        &self,
        gemms: f64,
        elementwise: f64,
        ep: f64,
        (tp, size): (f64, u32),
    ) -> Passes {
        let t = &self.inputs.transformer;
        let norm_tokens = self.shape.norm_tokens(self.inputs.parallelism.sequence_parallel);
        let h = t.hidden as f64;
        let dropout_bytes = if t.dropout { 1.0 } else { 0.0 };
        let around = self.elementwise(NORM_BYTES_PER_ELEMENT * norm_tokens * h)
            + self.elementwise((RESIDUAL_BYTES_PER_ELEMENT + dropout_bytes) * norm_tokens * h);
        let elementwise = elementwise + around;
        let fwd = Pass {
            compute: gemms + elementwise,
            tp: Comm::new(tp, self.tensor_exposed(tp, gemms, size)),
            ep: Comm::new(ep, ep),
            ..Pass::default()
        };
        let bwd = Pass {
            compute: 2.0 * gemms + ELEMENTWISE_BWD_BYTE_RATIO * elementwise,
            tp: Comm::new(tp, self.tensor_exposed(tp, 2.0 * gemms, size)),
            ep: Comm::new(ep, ep),
            ..Pass::default()
        };
        Passes { fwd, bwd, recompute: Pass::default() }
    }

    /// Mixture-of-experts block: router, dispatch, routed and shared experts, combine; tokens
    /// are balanced. Routed experts are split over the expert tensor-parallel group, whose
    /// members gather their tokens before and reduce-scatter after (with the tensor-parallel
    /// degree, the classic layout, that is the block's sequence-parallel gather); shared experts
    /// are a dense block over the attention's tensor-parallel group, which gathers its own
    /// tokens when the two groups differ (Megatron-Core MoE parallel folding, arXiv:2504.14960).
    pub(super) fn moe_ffn(&self) -> Passes {
        let t = &self.inputs.transformer;
        let Some(moe) = t.moe else { return self.dense_ffn() };
        let s = self.shape;
        let h = t.hidden as f64;
        let n_experts = moe.n_experts.max(1) as f64;
        let k = moe.top_k as f64;
        // The busiest rank's experts and exchange set the pace.
        let cf = moe.load();
        let ((routed, routed_act), (shared, shared_act)) = self.expert_cores(moe);
        let router = self.gemm_at(self.bf16_rate, s.tokens, n_experts, h, 1.0);
        let norm_tokens = s.norm_tokens(self.inputs.parallelism.sequence_parallel);
        // Permute before and unpermute after the experts: read and write every routed copy.
        let permute = self.elementwise(2.0 * 2.0 * ACT_BYTES * norm_tokens * k * cf * h);
        let ep = if s.ep_u > 1 { 2.0 * self.expert_exchange(norm_tokens * cf, moe) } else { 0.0 };
        // The classic layout's expert group is the tensor-parallel group (`tp_block`).
        let tensor = if s.etp_u == s.tp_u {
            self.tp_block()
        } else {
            let experts = self.tensor_block(s.etp_u, s.etp / s.tp);
            if moe.n_shared_experts > 0 {
                experts + self.tp_block()
            } else {
                experts
            }
        };
        // Gathers over the larger of the two groups decide where the traffic can hide.
        let group = s.etp_u.max(s.tp_u);
        let elementwise = routed_act + shared_act + permute;
        let mut passes =
            self.ffn_passes(routed + shared + router, elementwise, ep, (tensor, group));
        // The dispatcher's wait on the host, half in each direction, unless the whole
        // iteration's CUDA graph holds it (`CudaGraphs`).
        let p = &self.inputs.parallelism;
        let wait = match p.dispatcher {
            _ if p.cuda_graphs == CudaGraphs::Full => 0.0,
            Dispatcher::AllToAll => p.software.moe_host_s,
            Dispatcher::DeepEp => p.software.moe_host_deepep_s,
        };
        let host = 0.5 * wait.max(0.0);
        passes.fwd.host += host;
        passes.bwd.host += host;
        passes
    }

    /// GEMM and activation time of an MoE layer's (routed, shared) experts on one chip.
    fn expert_cores(&self, moe: crate::model::Moe) -> ((f64, f64), (f64, f64)) {
        let s = self.shape;
        let n_experts = moe.n_experts.max(1) as f64;
        let k = moe.top_k as f64 * moe.load();
        let local_experts = (n_experts / s.ep).max(1.0);
        let expert_ffn = moe.expert_ffn as f64 / s.etp;
        // Tokens the EP group routes, spread evenly over all experts (Fedus et al. 2021, §2.1):
        // each expert tensor-parallel group brings `etp / tp` of a tensor-parallel group's tokens.
        let tokens_per_expert = s.tokens * s.etp / s.tp * k * s.ep.min(n_experts) / n_experts;
        // Dropless, each group runs in whole tiles of the grouped GEMM (`grouped_waste_rows`).
        let waste = match moe.capacity_factor {
            None if local_experts > 1.0 => self.inputs.parallelism.software.grouped_waste_rows,
            _ => 0.0,
        };
        let routed = self.ffn_core(tokens_per_expert + waste.max(0.0), expert_ffn, local_experts);
        let shared = if moe.n_shared_experts > 0 {
            let width = moe.n_shared_experts as f64 * moe.expert_ffn as f64 / s.tp;
            self.ffn_core(s.tokens, width, 1.0)
        } else {
            (0.0, 0.0)
        };
        (routed, shared)
    }

    /// One pass's expert all-to-all (dispatch out and combine back) for `tokens` local tokens.
    ///
    /// With Megatron-Core's all-to-all dispatcher every routed copy travels on its own, so a
    /// fraction `(n - k) / n` of the `top_k` copies crosses the network. With DeepEP's kernels,
    /// or node-limited routing (which needs them), a token goes once to each distinct remote
    /// domain holding one of its experts (at most `node_limit`; `m (1 - (1 - 1/m)^top_k)`
    /// domains on average for balanced routing over `m`) and is forwarded inside the domain
    /// (DeepSeek-V3 §3.2.2). Under the FP8 recipe the
    /// dispatch is sent in FP8 and the combine in BF16 (DeepSeek-V3 §3.3.2).
    /// Returns the average of the dispatch and combine times.
    pub(super) fn expert_exchange(&self, tokens: f64, moe: crate::model::Moe) -> f64 {
        let s = self.shape;
        let c = &self.inputs.cluster;
        let h = self.inputs.transformer.hidden as f64;
        let k = moe.top_k as f64;
        let group = self.group(s.ep_u, s.etp_u);
        let per_domain = group.per_domain as f64;
        let forwarded =
            self.inputs.parallelism.dispatcher == Dispatcher::DeepEp || moe.node_limit.is_some();
        let (inside_copies, outside_copies) = expert_copies(k, group, forwarded, moe.node_limit);
        let dispatch_bytes = if self.inputs.fp8_active() { 1.0 } else { ACT_BYTES };
        let one = |bytes_per_element: f64| {
            let unit = tokens * h * bytes_per_element;
            let outside = unit * outside_copies;
            let forwarded = rail_forwarded(&c.network, outside, per_domain);
            all_to_all_s(
                unit * inside_copies + forwarded,
                outside,
                group,
                &c.scale_up,
                &c.scale_out_for(group.span),
            )
        };
        0.5 * (one(dispatch_bytes) + one(ACT_BYTES))
    }

    /// Input embedding on the first stage: a lookup and, under tensor parallelism, the
    /// vocabulary-parallel reduction of its output.
    pub(super) fn embedding(&self) -> Passes {
        let s = self.shape;
        let h = self.inputs.transformer.hidden as f64;
        let lookup = self.elementwise(4.0 * s.tokens * h);
        let tp = if s.tp_u > 1 {
            let bytes = s.tokens * h * ACT_BYTES;
            // Sequence parallelism leaves the embedding sharded: a reduce-scatter suffices.
            let kind = if self.inputs.parallelism.sequence_parallel {
                Collective::ReduceScatter
            } else {
                Collective::AllReduce
            };
            self.collective(kind, bytes, self.group(s.tp_u, 1))
        } else {
            0.0
        };
        Passes {
            fwd: Pass { compute: lookup, tp: Comm::new(tp, tp), ..Pass::default() },
            bwd: Pass { compute: ELEMENTWISE_BWD_BYTE_RATIO * lookup, ..Pass::default() },
            recompute: Pass::default(),
        }
    }

    /// Output projection and cross-entropy on the last stage (vocabulary-parallel).
    pub(super) fn logits(&self) -> Passes {
        let t = &self.inputs.transformer;
        let s = self.shape;
        let h = t.hidden as f64;
        let vocab = t.vocab as f64 / s.tp;
        let norm =
            self.elementwise(4.0 * s.norm_tokens(self.inputs.parallelism.sequence_parallel) * h);
        let gemm = self.gemm_at(self.bf16_rate, s.tokens, vocab, h, 1.0);
        // Logits in BF16, softmax statistics and loss in FP32, as Megatron-Core's fused
        // vocabulary-parallel cross entropy moves them (`LOSS_FWD_BYTES`).
        let loss_fwd = self.elementwise(LOSS_FWD_BYTES * s.tokens * vocab);
        let loss_bwd = self.elementwise(LOSS_BWD_BYTES * s.tokens * vocab);
        let tp = self.tp_block() / 2.0;
        Passes {
            fwd: Pass { compute: norm + gemm + loss_fwd, tp: Comm::new(tp, tp), ..Pass::default() },
            bwd: Pass {
                compute: 2.0 * norm + 2.0 * gemm + loss_bwd,
                tp: Comm::new(tp, tp),
                ..Pass::default()
            },
            recompute: Pass::default(),
        }
    }

    /// One layer of the given kind with its recompute pass filled in.
    pub(super) fn layer(&self, moe: bool) -> Passes {
        self.layer_with(moe, self.mixers())
    }

    /// A layer's token mixers, which layers with and without experts share: its attention
    /// block, or a hybrid's share of each kind of mixer, and the attention core's forward
    /// time, which selective recomputation runs again. A kind no layer has is not costed.
    pub(super) fn mixers(&self) -> Mixers {
        let t = &self.inputs.transformer;
        if t.hybrid.is_none() {
            let (passes, core_fwd) = self.attention_block();
            return Mixers { passes, core_fwd };
        }
        let mut mixers = Mixers { passes: Passes::default(), core_fwd: 0.0 };
        let attention = t.attention_share();
        if attention > 0.0 {
            let (passes, core_fwd) = self.attention_block();
            mixers = Mixers { passes: passes * attention, core_fwd: core_fwd * attention };
        }
        if t.mamba_share() > 0.0 {
            mixers.passes = mixers.passes + self.mamba_block() * t.mamba_share();
        }
        if t.linear_share() > 0.0 {
            mixers.passes = mixers.passes + self.linear_block() * t.linear_share();
        }
        mixers
    }

    /// A layer of the kind `moe` says around `mixers` (`Ctx::mixers`).
    pub(super) fn layer_with(&self, moe: bool, mixers: Mixers) -> Passes {
        let t = &self.inputs.transformer;
        let Mixers { passes: mixers, core_fwd } = mixers;
        // A hybrid's layer carries its share of feed-forward blocks.
        let ffn = match (moe, t.hybrid) {
            (true, _) => self.moe_ffn(),
            (false, None) => self.dense_ffn(),
            (false, Some(_)) if t.dense_ffn_share() > 0.0 => self.dense_ffn() * t.dense_ffn_share(),
            (false, Some(_)) => Passes::default(),
        };
        let mut layer = mixers + ffn;
        if t.cross.is_some() {
            layer = layer + self.cross_block();
        }
        if self.inputs.parallelism.ep_overlap {
            // Another micro-batch's attention and experts run while this one's tokens travel.
            for pass in [&mut layer.fwd, &mut layer.bwd] {
                pass.ep.exposed = overlapped(pass.ep.link, pass.compute);
            }
        }
        // Launches one at a time, unless the whole iteration's CUDA graph holds them.
        let p = &self.inputs.parallelism;
        let launched =
            if p.cuda_graphs == CudaGraphs::Full { 0.0 } else { p.software.layer_host_s };
        let launches = 0.5 * launched.max(0.0);
        layer.fwd.host += launches;
        layer.bwd.host += launches;
        let elementwise = if self.inputs.parallelism.recompute_elementwise {
            self.elementwise_fwd(moe) + self.latent_up()
        } else {
            0.0
        } + if p.recompute_mlp_up && !moe { self.mlp_up_fwd() } else { 0.0 };
        layer.recompute = match self.inputs.parallelism.recompute {
            Recompute::None => Pass { compute: elementwise, ..Pass::default() },
            Recompute::Full => layer.fwd,
            Recompute::Selective => match self.inputs.transformer.attention {
                // The fused kernel already recomputes scores in its backward pass.
                AttentionImpl::Flash => Pass { compute: elementwise, ..Pass::default() },
                AttentionImpl::Materialized => {
                    Pass { compute: core_fwd + elementwise, ..Pass::default() }
                }
            },
        };
        layer
    }

    /// Forward time of the dense feed-forward block's up-projection (and gate), and of its
    /// activation function unless `recompute_elementwise` reruns that already: what
    /// `recompute_mlp_up` runs again in the backward pass. A hybrid's layer carries its share.
    fn mlp_up_fwd(&self) -> f64 {
        let t = &self.inputs.transformer;
        let s = self.shape;
        let ffn = t.ffn as f64 / s.tp;
        let n_in = t.ffn_kind.up_matrices();
        let h = t.hidden as f64;
        let mut up = self.gemm_at(self.gemm_rate, s.tokens, n_in * ffn, h, 1.0);
        if self.quantize_weight_bytes > 0.0 {
            up += self.quantize(s.tokens, n_in * ffn, h, 1.0);
        }
        if !self.inputs.parallelism.recompute_elementwise {
            up += self.activation(s.tokens, ffn, 1.0);
        }
        match t.hybrid {
            None => up,
            Some(_) => up * t.dense_ffn_share(),
        }
    }

    /// Forward time of a layer's two norms and its feed-forward activation function, which
    /// `recompute_elementwise` runs again in the backward pass (with MLA's up-projections,
    /// `latent_up`).
    fn elementwise_fwd(&self, moe: bool) -> f64 {
        let t = &self.inputs.transformer;
        let s = self.shape;
        let h = t.hidden as f64;
        let norms = 2.0
            * self.elementwise(
                NORM_BYTES_PER_ELEMENT
                    * s.norm_tokens(self.inputs.parallelism.sequence_parallel)
                    * h,
            );
        let act = match (moe, t.moe) {
            (true, Some(m)) => {
                let ((_, routed), (_, shared)) = self.expert_cores(m);
                routed + shared
            }
            _ => self.ffn_core(s.tokens, t.ffn as f64 / s.tp, 1.0).1,
        };
        norms + act
    }

    /// Parameters on one chip of `stage`, before data-parallel sharding:
    /// (dense part, routed-expert part).
    pub(super) fn stage_params(&self, stage: &Stage) -> (f64, f64) {
        let t = &self.inputs.transformer;
        let s = self.shape;
        let layers = stage.layers() as f64;
        let dense_layers = stage.dense_layers as f64;
        let moe_layers = stage.moe_layers as f64;
        let block = layers * t.mixer_params()
            + dense_layers * t.dense_ffn_share() * t.ffn_params(t.ffn as f64)
            + moe_layers * t.shared_expert_params();
        // Each end of a pipeline holds one vocabulary matrix (a tied one is kept on both).
        let embedding = if s.pp_u <= 1 {
            t.embedding_params()
        } else if stage.first || stage.last {
            t.vocab as f64 * t.hidden as f64
        } else {
            0.0
        };
        // The first stage holds the vision encoder whole, split over its own tensor ranks.
        let embedding = match t.vision {
            Some(_) if stage.first => {
                let copies = s.tp / t.encoder_tp(self.inputs.parallelism.tensor) as f64;
                embedding + t.vision_params() * copies
            }
            _ => embedding,
        };
        let mtp = stage.mtp_layers as f64;
        let mtp_dense =
            mtp * (t.mtp_params() - if t.moe.is_some() { t.routed_expert_params() } else { 0.0 });
        let mtp_experts = if t.moe.is_some() { mtp * t.routed_expert_params() } else { 0.0 };
        let dense = (block + embedding + mtp_dense) / s.tp;
        let experts = (moe_layers * t.routed_expert_params() + mtp_experts) / (s.etp * s.ep);
        (dense, experts)
    }
}
