//! A Mamba-2 mixer's cost in one layer (SSD; Dao and Gu, arXiv:2405.21060), as Megatron-LM
//! runs it (`megatron/core/ssm/mamba_mixer.py`): the input projection column-parallel over
//! the tensor ranks (heads and groups split among them), a depthwise causal convolution, the
//! chunked scan, a gated norm, and the output projection row-parallel, so the tensor-parallel
//! traffic is an attention block's. Context parallelism swaps the projections' outputs from
//! sequence shards to head shards by an all-to-all before the convolution and the scan's output
//! back after it (`mamba_context_parallel.py`), exposed.

use super::ops::{Comm, Ctx, Pass, Passes};
use super::ACT_BYTES;
use crate::model::collectives::Collective;
use crate::model::efficiency::{kernel_s, KERNEL_FLOOR_S, SSD_SCAN_RELATIVE};
use crate::model::MambaKind;

impl Ctx<'_> {
    /// One Mamba-2 mixer's passes for one micro-batch; nothing for a model without one.
    pub(super) fn mamba_block(&self) -> Passes {
        let t = &self.inputs.transformer;
        let Some(y) = t.hybrid else { return Passes::default() };
        if y.mixer.kind == MambaKind::Mamba1 {
            return self.mamba1_block();
        }
        let m = y.mixer;
        let s = self.shape;
        let (h, tokens) = (t.hidden as f64, s.tokens);
        let norm_tokens = s.norm_tokens(self.inputs.parallelism.sequence_parallel);
        let inner = t.mamba_inner() / s.tp;
        let gn = m.groups as f64 * m.state as f64 / s.tp;
        let heads = m.heads as f64 / s.tp;
        let projected = 2.0 * inner + 2.0 * gn + heads;
        let gemms_fwd = self.gemm(tokens, projected, h) + self.gemm(tokens, h, inner);
        // The scan's matrix products per token: the chunk's C·B^T (2 G Q N), its masked
        // product with the inputs (2 Q d_inner), the chunk states and their read-out
        // (2 N d_inner each), at the rate the scan's kernels are measured at.
        let (q, n) = (m.chunk as f64, m.state as f64);
        let scan_flops = tokens * (4.0 * n * inner + 2.0 * q * inner + 2.0 * gn * q);
        let rate = self.bf16_rate * SSD_SCAN_RELATIVE;
        let scan_fwd = kernel_s(scan_flops / rate).max(KERNEL_FLOOR_S);
        let scan_bwd = kernel_s(2.0 * scan_flops / rate).max(KERNEL_FLOOR_S);
        // The pre-norm and residual on the hidden state; the convolution reads and writes its
        // channels; the gated norm reads the scan's output and the gate and writes its own.
        let elementwise_fwd = self.elementwise(10.0 * norm_tokens * h)
            + self.elementwise(2.0 * ACT_BYTES * tokens * (inner + 2.0 * gn))
            + self.elementwise(3.0 * ACT_BYTES * tokens * inner);
        let kernel = (scan_fwd, scan_bwd);
        self.mixer_passes(gemms_fwd, kernel, elementwise_fwd, (projected, inner))
    }

    /// One Mamba-1 mixer's passes for one micro-batch: the input projection column-parallel,
    /// `x_proj` on each rank's channels (its small output summed over the ranks is not
    /// priced), `dt_proj` to each rank's channels, the output projection row-parallel; the
    /// selective scan keeps its state on chip and runs on the vector units in FP32, so it
    /// takes its nine operations an element or its reads and writes (the inputs, the step
    /// sizes, the gate, `B` and `C` in; the output out), whichever is longer (Gu and Dao 2023,
    /// §3.3.2); its backward reads and writes twice as much.
    fn mamba1_block(&self) -> Passes {
        let t = &self.inputs.transformer;
        let Some(y) = t.hybrid else { return Passes::default() };
        let m = y.mixer;
        let s = self.shape;
        let (h, tokens) = (t.hidden as f64, s.tokens);
        let norm_tokens = s.norm_tokens(self.inputs.parallelism.sequence_parallel);
        let inner = t.mamba_inner() / s.tp;
        let (r, n) = (m.dt_rank as f64, m.state as f64);
        let gemms_fwd = self.gemm(tokens, 2.0 * inner, h)
            + self.gemm(tokens, r + 2.0 * n, inner)
            + self.gemm(tokens, inner, r)
            + self.gemm(tokens, h, inner);
        let fp32 = self.inputs.cluster.chip.fp32_flops_per_s;
        let ops = if fp32 > 0.0 { 9.0 * tokens * inner * n / fp32 } else { 0.0 };
        let scan_fwd = ops.max(self.elementwise(ACT_BYTES * tokens * (4.0 * inner + 2.0 * n)));
        let scan_bwd = 2.0 * scan_fwd;
        // The pre-norm and residual, and the convolution's reads and writes.
        let elementwise_fwd = self.elementwise(10.0 * norm_tokens * h)
            + self.elementwise(2.0 * ACT_BYTES * tokens * inner);
        let exchanged = (2.0 * inner, inner);
        self.mixer_passes(gemms_fwd, (scan_fwd, scan_bwd), elementwise_fwd, exchanged)
    }

    /// A recurrent mixer's passes from its projections' forward time, its kernel's forward
    /// and backward times and its elementwise forward time; context parallelism exchanges
    /// the projections' outputs (`exchanged.0` wide) before the kernel and its output
    /// (`exchanged.1`) after, each an exposed all-to-all.
    pub(super) fn mixer_passes(
        &self,
        gemms_fwd: f64,
        (kernel_fwd, kernel_bwd): (f64, f64),
        elementwise_fwd: f64,
        exchanged: (f64, f64),
    ) -> Passes {
        let s = self.shape;
        let tp = self.tp_block();
        let cp = if s.cp_u > 1 {
            let group = self.group(s.cp_u, s.tp_u);
            let seq = self.inputs.transformer.seq_len as f64;
            let shard = s.micro_batch * seq / s.cp * ACT_BYTES;
            let a2a = |bytes: f64| self.collective(Collective::AllToAll, bytes, group);
            let link = a2a(shard * exchanged.0) + a2a(shard * exchanged.1);
            Comm::new(link, link)
        } else {
            Comm::default()
        };
        let fwd = Pass {
            compute: gemms_fwd + kernel_fwd + elementwise_fwd,
            tp: Comm::new(tp, self.tp_exposed(tp, gemms_fwd)),
            cp,
            ..Pass::default()
        };
        let bwd = Pass {
            compute: 2.0 * gemms_fwd + kernel_bwd + 2.0 * elementwise_fwd,
            tp: Comm::new(tp, self.tp_exposed(tp, 2.0 * gemms_fwd)),
            cp,
            ..Pass::default()
        };
        Passes { fwd, bwd, recompute: Pass::default() }
    }
}
