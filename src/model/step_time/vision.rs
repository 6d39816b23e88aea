//! A vision encoder's cost on the first pipeline stage, where Megatron-LM's multimodal models
//! place it: its layers costed as a transformer of its own over each sample's patch tokens,
//! attending in both directions, split by its own tensor ranks (the language model's unless
//! `model.vision.tp` says fewer, the others computing it again) and not by context, then the
//! projector into the language model's width.

use super::ops::{Ctx, Pass, Passes};
use crate::model::parallelism::Shape;
use crate::model::Inputs;

/// The inputs of the vision encoder alone: its shape, its tensor ranks, no context
/// parallelism.
pub(crate) fn encoder_inputs(inputs: &Inputs) -> Option<Inputs> {
    let encoder = inputs.transformer.encoder()?;
    let mut own = *inputs;
    own.transformer = encoder;
    own.parallelism.context = 1;
    own.parallelism.tensor = inputs.transformer.encoder_tp(inputs.parallelism.tensor);
    Some(own)
}

impl Ctx<'_> {
    /// The vision encoder's passes for one micro-batch; nothing for a model without one.
    pub(super) fn vision_encoder(&self) -> Passes {
        let t = &self.inputs.transformer;
        let (Some(v), Some(inputs)) = (t.vision, encoder_inputs(self.inputs)) else {
            return Passes::default();
        };
        let shape = Shape::of(&inputs);
        let ctx = Ctx::new(&inputs, &shape);
        let layers = ctx.layer(false) * v.layers as f64;
        let (vh, h) = (v.hidden as f64, t.hidden as f64);
        let projector =
            ctx.gemm(shape.tokens, h / shape.tp, vh) + ctx.gemm(shape.tokens, h, h / shape.tp);
        let project = Passes {
            fwd: Pass { compute: projector, ..Pass::default() },
            bwd: Pass { compute: 2.0 * projector, ..Pass::default() },
            recompute: Pass::default(),
        };
        layers + project
    }
}
