//! A cross-attention block's cost in one layer (a diffusion transformer's attention to its
//! text prompt, as Megatron-Bridge runs Wan 2.1): a norm, the query projection of the layer's
//! tokens, the key and value projections of the whole context on every context-parallel rank
//! (the context is short and each rank's queries need all of it), a fused attention kernel
//! over the context, the output projection and the residual. Its tensor-parallel traffic is
//! an attention block's; it needs no context-parallel exchange.

use super::ops::{Comm, Ctx, Pass, Passes};
use crate::model::efficiency::ELEMENTWISE_BWD_BYTE_RATIO;

impl Ctx<'_> {
    /// One cross-attention block's passes for one micro-batch; nothing for a model without.
    pub(super) fn cross_block(&self) -> Passes {
        let t = &self.inputs.transformer;
        let Some(c) = t.cross else { return Passes::default() };
        let s = self.shape;
        let h = t.hidden as f64;
        let heads = t.n_heads as f64 / s.tp;
        let width = heads * t.head_dim as f64;
        let context = s.micro_batch * c.tokens as f64;
        let norm_tokens = s.norm_tokens(self.inputs.parallelism.sequence_parallel);
        let gemms_fwd = self.gemm(s.tokens, width, h)
            + self.gemm(context, 2.0 * width, h)
            + self.gemm(s.tokens, h, width);
        let elementwise_fwd = self.elementwise(10.0 * norm_tokens * h);
        let queries = s.micro_batch * t.seq_len as f64 / s.cp;
        let (core_fwd, core_bwd) =
            self.flash_core(queries * c.tokens as f64 * heads, 2.0 * t.head_dim as f64);
        let tp = self.tp_block();
        let fwd = Pass {
            compute: gemms_fwd + elementwise_fwd + core_fwd,
            tp: Comm::new(tp, self.tp_exposed(tp, gemms_fwd)),
            ..Pass::default()
        };
        let bwd = Pass {
            compute: 2.0 * gemms_fwd + ELEMENTWISE_BWD_BYTE_RATIO * elementwise_fwd + core_bwd,
            tp: Comm::new(tp, self.tp_exposed(tp, 2.0 * gemms_fwd)),
            ..Pass::default()
        };
        Passes { fwd, bwd, recompute: Pass::default() }
    }
}
