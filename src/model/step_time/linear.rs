//! A linear-attention mixer's cost in one layer (Gated DeltaNet as Megatron-LM's `G` layer and
//! Qwen3-Next run it; RWKV-7's time mixing): the input projection column-parallel over the
//! tensor ranks (heads split among them), the short convolution or RWKV-7's token shift and
//! low-rank projections, the chunked delta-rule kernel, a gated norm, and the output projection
//! row-parallel, so the tensor-parallel traffic is an attention block's. Context parallelism
//! swaps sequence shards for head shards by an all-to-all before the kernel and back after it,
//! as for Mamba-2, exposed.

use super::ops::{Ctx, Passes};
use super::ACT_BYTES;
use crate::model::efficiency::{
    kernel_s, DELTA_RULE_BWD_TIME_RATIO, DELTA_RULE_FWD_RELATIVE, KERNEL_FLOOR_S,
    RWKV7_KERNEL_RELATIVE,
};
use crate::model::LinearKind;

impl Ctx<'_> {
    /// One linear-attention mixer's passes for one micro-batch; nothing for a model without.
    pub(super) fn linear_block(&self) -> Passes {
        let t = &self.inputs.transformer;
        let Some(l) = t.linear_mixer() else { return Passes::default() };
        let s = self.shape;
        let (h, tokens) = (t.hidden as f64, s.tokens);
        let norm_tokens = s.norm_tokens(self.inputs.parallelism.sequence_parallel);
        let projected = l.projected() / s.tp;
        let values = l.value_width() / s.tp;
        let channels = l.conv_channels() / s.tp;
        // The low-rank projections are small and replicated: down to the ranks, up to the width.
        let lora = l.lora as f64;
        let gemms_fwd = self.gemm(tokens, projected, h)
            + self.gemm(tokens, h, values)
            + if lora > 0.0 {
                self.gemm(tokens, lora, h) + self.gemm(tokens, h, lora)
            } else {
                0.0
            };
        // The kernels at their measured rates: FLA's Gated DeltaNet with a backward of 3.5
        // forward times, RWKV-7's CUDA kernel on twice the work.
        let kernel_flops = tokens * l.kernel_flops_per_token() / s.tp;
        let (relative, bwd_ratio) = match l.kind {
            LinearKind::GatedDeltaNet => (DELTA_RULE_FWD_RELATIVE, DELTA_RULE_BWD_TIME_RATIO),
            LinearKind::Rwkv7 => (RWKV7_KERNEL_RELATIVE, 2.0),
        };
        let kernel_fwd = kernel_s(kernel_flops / (self.bf16_rate * relative)).max(KERNEL_FLOOR_S);
        let kernel_bwd = (bwd_ratio * kernel_fwd).max(KERNEL_FLOOR_S);
        // The pre-norm and residual; the convolution reads and writes its channels, or RWKV-7
        // mixes each projection's input with the token before (two reads, six writes); the
        // gated norm reads the kernel's output and the gate and writes its own.
        let mixing = match l.kind {
            LinearKind::GatedDeltaNet => 2.0 * ACT_BYTES * tokens * channels,
            LinearKind::Rwkv7 => 8.0 * ACT_BYTES * tokens * h,
        };
        let elementwise_fwd = self.elementwise(10.0 * norm_tokens * h)
            + self.elementwise(mixing)
            + self.elementwise(3.0 * ACT_BYTES * tokens * values);
        let kernel = (kernel_fwd, kernel_bwd);
        self.mixer_passes(gemms_fwd, kernel, elementwise_fwd, (projected, values))
    }
}
