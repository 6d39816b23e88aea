//! The transformer being trained and how much of it: shapes, parameter counts and FLOPs.
//!
//! FLOP counts follow Megatron-LM's `num_floating_point_operations` (Narayanan et al. 2021,
//! arXiv:2104.04473, Appendix; with the causal halving of the attention-score term that
//! later Megatron-LM revisions apply). This module knows nothing about chips or parallelism.

/// Feed-forward block kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FfnKind {
    /// Two matrices with GELU (or ReLU) between: GPT-3, OPT, BLOOM.
    Gelu,
    /// Three matrices, gate and up multiplied after SiLU: LLaMA, Mixtral, DeepSeek.
    SwiGlu,
}

impl FfnKind {
    /// Number of `hidden x ffn` weight matrices in one feed-forward block.
    pub fn n_matrices(self) -> f64 {
        match self {
            FfnKind::Gelu => 2.0,
            FfnKind::SwiGlu => 3.0,
        }
    }

    /// Bytes the activation function moves per token and element of the block's width: its
    /// inputs read (two with a gate) and its output written, in BF16.
    pub fn activation_bytes(self) -> f64 {
        match self {
            FfnKind::Gelu => 4.0,
            FfnKind::SwiGlu => 6.0,
        }
    }

    /// Matrices the block's input meets before the activation: the up-projection, and the
    /// gate with SwiGLU.
    pub fn up_matrices(self) -> f64 {
        self.n_matrices() - 1.0
    }
}

/// How attention scores are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttentionImpl {
    /// Fused kernel that never stores the `s x s` score matrix (Dao et al. 2022, FlashAttention).
    Flash,
    /// Scores materialised in memory, softmax and dropout as separate kernels (Megatron-LM 2021).
    Materialized,
}

/// Multi-head latent attention (DeepSeek-V2/V3, arXiv:2412.19437, §2.1.1): queries and keys
/// and values pass through low-rank latents, and a decoupled rotary part rides beside each
/// head's key. `head_dim` is then each head's non-rotary query and key width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mla {
    /// Width of the query latent; 0 projects queries straight from the hidden state.
    pub q_lora_rank: u32,
    /// Width of the key/value latent.
    pub kv_lora_rank: u32,
    /// Width of the rotary part of each query and key head (shared by the heads for keys).
    pub rope_head_dim: u32,
    /// Width of each value head.
    pub v_head_dim: u32,
}

/// Which Mamba mixer a hybrid's `M` layers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MambaKind {
    /// Mamba-2 (SSD; Dao and Gu, arXiv:2405.21060), as Megatron-LM's `MambaMixer` builds it:
    /// an input projection to the gate, the inputs, `B`, `C` and the step sizes, a causal
    /// depthwise convolution, the chunked state-space scan, a gated norm and an output
    /// projection.
    Mamba2,
    /// Mamba-1 (Gu and Dao, arXiv:2312.00752), as `mamba_ssm`'s `Mamba` module and Jamba build
    /// it: an input projection to the inputs and the gate, a causal depthwise convolution, a
    /// projection to the step rank, `B` and `C`, the step's projection back to the inner width,
    /// the selective scan (elementwise, not matrix products) and an output projection.
    Mamba1,
}

/// A Mamba mixer of a hybrid's `M` layers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mamba {
    pub kind: MambaKind,
    /// State size `N` per head group (Mamba-1: per channel).
    pub state: u32,
    /// Heads `H`, each `head_dim` wide: the inner width is `heads * head_dim`.
    pub heads: u32,
    pub head_dim: u32,
    /// Groups `G` sharing `B` and `C`.
    pub groups: u32,
    /// Convolution width.
    pub conv: u32,
    /// Chunk length `Q` of the scan (Mamba-2).
    pub chunk: u32,
    /// Rank of the step sizes' projection (Mamba-1).
    pub dt_rank: u32,
}

/// Which linear-attention mixer a hybrid's `G` layers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinearKind {
    /// Gated DeltaNet (Yang et al., arXiv:2412.06464), as Qwen3-Next and Megatron-LM build it:
    /// one projection to queries, keys, values, the output gate and each head's step and
    /// decay, a short causal convolution over queries, keys and values, the chunked gated
    /// delta rule, a gated norm and an output projection.
    GatedDeltaNet,
    /// RWKV-7 "Goose" time mixing (Peng et al., arXiv:2503.14456): receptance, key and value
    /// projections of token-shifted inputs, low-rank projections to the decay, the in-context
    /// learning rate, the value residual and the gate, the chunked generalised delta rule, a
    /// group norm and an output projection.
    Rwkv7,
}

/// A linear-attention mixer: its state per head is `head_dim x v_head_dim`, updated token by
/// token and computed in chunks of `chunk` tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearMixer {
    pub kind: LinearKind,
    /// Value heads (RWKV-7's heads).
    pub heads: u32,
    /// Query and key heads, shared by groups of value heads (Gated DeltaNet); `heads` under
    /// RWKV-7.
    pub key_heads: u32,
    /// Width of a query and key head.
    pub head_dim: u32,
    /// Width of a value head.
    pub v_head_dim: u32,
    /// Width of the short convolution (Gated DeltaNet); RWKV-7 shifts tokens instead.
    pub conv: u32,
    /// Tokens in a chunk of the kernel.
    pub chunk: u32,
    /// Sum of the ranks of the low-rank projections (RWKV-7's decay, learning rate, value
    /// residual and gate); 0 for none.
    pub lora: u32,
}

impl LinearMixer {
    /// Query and key width, `key_heads x head_dim`.
    pub fn key_width(&self) -> f64 {
        self.key_heads as f64 * self.head_dim as f64
    }

    /// Value width, `heads x v_head_dim`, which the output projection reads.
    pub fn value_width(&self) -> f64 {
        self.heads as f64 * self.v_head_dim as f64
    }

    /// Width of the input projection's output per token: Gated DeltaNet's queries, keys,
    /// values, output gate and two scalars a head; RWKV-7's receptance, keys and values.
    pub fn projected(&self) -> f64 {
        let (k, v) = (self.key_width(), self.value_width());
        match self.kind {
            LinearKind::GatedDeltaNet => 2.0 * k + 2.0 * v + 2.0 * self.heads as f64,
            LinearKind::Rwkv7 => 2.0 * k + v,
        }
    }

    /// Channels the short convolution runs over (queries, keys and values); none for RWKV-7.
    pub fn conv_channels(&self) -> f64 {
        match self.kind {
            LinearKind::GatedDeltaNet => 2.0 * self.key_width() + self.value_width(),
            LinearKind::Rwkv7 => 0.0,
        }
    }

    /// Forward FLOPs of the chunked delta-rule kernel per token, over every head: within a
    /// chunk the key products and their triangular solve (about `6 C d_k`), the values'
    /// corrections and outputs (`4 C d_v`), and across chunks the state's update and read-out
    /// (`6 d_k d_v`), as FLA's `chunk_gated_delta_rule` kernels compute them.
    pub fn kernel_flops_per_token(&self) -> f64 {
        let (dk, dv, c) = (self.head_dim as f64, self.v_head_dim as f64, self.chunk as f64);
        self.heads as f64 * (6.0 * dk * dv + 6.0 * c * dk + 4.0 * c * dv)
    }
}

/// A hybrid model's layers, from Megatron-LM's `--hybrid-layer-pattern` (`M` Mamba, `G` Gated
/// DeltaNet or another linear attention, `*` attention, `-` MLP, `E` mixture of experts; one
/// character one sublayer): how many of each. The model's `n_layers` counts mixers or
/// feed-forward blocks, whichever are more; each layer carries its share of every kind, so
/// stages hold them in proportion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hybrid {
    pub attention: u32,
    pub mamba: u32,
    pub linear: u32,
    pub mlp: u32,
    pub moe: u32,
    pub mixer: Mamba,
    pub linear_mixer: LinearMixer,
}

/// A vision encoder ahead of the language model (a ViT with its patch embedding and a
/// projector into the model's width, as Qwen2-VL and Llama 3.2 Vision build it): its layers see
/// `tokens` patch tokens per sample, bidirectionally; the language model's sequence already
/// counts the image tokens it receives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vision {
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    pub ffn: u32,
    /// Side of a square patch, pixels (three colour channels).
    pub patch: u32,
    /// Patch tokens per sample: tokens per image times images per sample.
    pub tokens: u32,
    /// Tensor ranks the encoder is split over, dividing the language model's; the rest of
    /// them compute it again (1: every tensor rank runs the whole encoder, with no tensor
    /// traffic). `None` splits it as the language model is.
    pub tp: Option<u32>,
}

/// Cross-attention to a context the model does not generate (a diffusion transformer's text
/// prompt, as Wan 2.1 and PixArt build it): every layer adds a block whose queries come from the
/// sequence and whose keys and values come from `tokens` context tokens, first projected from
/// their `width` into the model's by two matrices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cross {
    /// Context tokens per sample.
    pub tokens: u32,
    /// Width of the context's embeddings as they arrive (a text encoder's output).
    pub width: u32,
}

/// Sliding-window attention: most attention layers attend over the last `tokens` tokens only,
/// and every `global_every`-th layer over the whole sequence (GPT-OSS alternates windows of
/// 128 with full layers, OpenAI's gpt-oss model card, 2025; Gemma 2 alternates 4,096 with full,
/// arXiv:2408.00118; Gemma 3 keeps one full layer in six over windows of 1,024,
/// arXiv:2503.19786; Mistral 7B windows every layer at 4,096, arXiv:2310.06825).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Keys a query of a windowed layer attends to.
    pub tokens: u32,
    /// Every how many attention layers one attends over the whole sequence; 0: none does.
    pub global_every: u32,
}

impl Window {
    /// Share of the attention layers that attend over the window, not the whole sequence.
    pub fn windowed_share(self) -> f64 {
        if self.global_every == 0 {
            1.0
        } else {
            1.0 - 1.0 / self.global_every as f64
        }
    }

    /// Keys an attention layer holds for a sequence of `context` tokens, averaged over the
    /// attention layers: all of them in a full layer, the last `tokens` in a windowed one (the
    /// KV cache a serving engine keeps for it).
    pub fn cached_tokens(self, context: f64) -> f64 {
        let context = context.max(0.0);
        let windowed = self.windowed_share();
        (1.0 - windowed) * context + windowed * context.min(self.tokens as f64)
    }

    /// Keys a query attends to on average over a causal prompt of `prompt` tokens, averaged over
    /// the attention layers (half the prompt in a full layer).
    pub fn mean_attended(self, prompt: f64) -> f64 {
        let p = prompt.max(0.0);
        if p <= 0.0 {
            return 0.0;
        }
        let windowed = self.windowed_share();
        let band = window_pairs(p, self.tokens as f64, true) / p;
        (1.0 - windowed) * p / 2.0 + windowed * band.min(p / 2.0)
    }
}

/// Mixture-of-experts feed-forward layers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moe {
    /// Routed experts per MoE layer.
    pub n_experts: u32,
    /// Routed experts each token visits.
    pub top_k: u32,
    /// Always-on experts per MoE layer.
    pub n_shared_experts: u32,
    /// Hidden size of one expert's feed-forward block.
    pub expert_ffn: u32,
    /// Leading layers that keep a dense feed-forward block (DeepSeek-V3: 3).
    pub n_dense_layers: u32,
    /// Token capacity per expert as a multiple of the balanced load; `None` is dropless routing.
    pub capacity_factor: Option<f64>,
    /// Node-limited routing: each token reaches experts on at most this many scale-up domains,
    /// and is sent once per domain then forwarded inside it (DeepSeek-V3, arXiv:2412.19437,
    /// §2.1.2 and §3.2.2: M = 4). `None` sends every routed copy on its own.
    pub node_limit: Option<u32>,
    /// Tokens the busiest expert-parallel rank routes to its experts, over the mean, in
    /// dropless routing: the step waits for that rank's experts and exchange. Benchmarks that
    /// force the balance (Megatron-Core's `--moe-router-force-load-balancing`) have 1.
    pub imbalance: f64,
}

impl Moe {
    /// The busiest rank's expert load over the balanced one: padded to the capacity where
    /// there is one, else the routing's imbalance.
    pub fn load(&self) -> f64 {
        self.capacity_factor.unwrap_or(self.imbalance).max(1.0)
    }
}

/// A decoder-only transformer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transformer {
    /// Decoder layers.
    pub n_layers: u32,
    /// Model (residual stream) width.
    pub hidden: u32,
    /// Query heads.
    pub n_heads: u32,
    /// Key/value heads (GQA/MQA when fewer than `n_heads`).
    pub n_kv_heads: u32,
    /// Width of one head.
    pub head_dim: u32,
    /// Hidden size of the dense feed-forward block.
    pub ffn: u32,
    /// Feed-forward kind.
    pub ffn_kind: FfnKind,
    /// Vocabulary size.
    pub vocab: u32,
    /// Training sequence length, tokens.
    pub seq_len: u32,
    /// Each token attends to those before it only (a language model); `false` is
    /// bidirectional attention (an encoder, a diffusion transformer).
    pub causal: bool,
    /// Input embedding and output projection share one matrix.
    pub tied_embeddings: bool,
    /// Attention kernel.
    pub attention: AttentionImpl,
    /// Dropout layers present (GPT-3 era); adds masks and kernels.
    pub dropout: bool,
    /// Mixture-of-experts layers, if any.
    pub moe: Option<Moe>,
    /// Multi-token-prediction modules (DeepSeek-V3, arXiv:2412.19437, §2.2): each is one more
    /// transformer block of the model's kind, a `2h x h` projection and one more pass through
    /// the shared output layer, all on the last pipeline stage.
    pub mtp_layers: u32,
    /// Multi-head latent attention, if the attention is latent.
    pub mla: Option<Mla>,
    /// A vision encoder ahead of it, if it sees images.
    pub vision: Option<Vision>,
    /// The kinds of its layers, if it is a hybrid; `None` is a transformer, every layer an
    /// attention block and a feed-forward block.
    pub hybrid: Option<Hybrid>,
    /// Cross-attention in every layer, if it attends to a context.
    pub cross: Option<Cross>,
    /// Sliding-window attention, if its attention layers look back over a window.
    pub window: Option<Window>,
}

impl Transformer {
    /// A dense transformer of these dimensions (heads `hidden / n_heads` wide, fused
    /// attention, untied embeddings, nothing else).
    #[allow(clippy::too_many_arguments)]
    pub const fn dense(
        n_layers: u32,
        hidden: u32,
        n_heads: u32,
        n_kv_heads: u32,
        ffn: u32,
        ffn_kind: FfnKind,
        vocab: u32,
        seq_len: u32,
    ) -> Transformer {
        Transformer {
            n_layers,
            hidden,
            n_heads,
            n_kv_heads,
            head_dim: hidden / if n_heads > 0 { n_heads } else { 1 },
            ffn,
            ffn_kind,
            vocab,
            seq_len,
            causal: true,
            tied_embeddings: false,
            attention: AttentionImpl::Flash,
            dropout: false,
            moe: None,
            mtp_layers: 0,
            mla: None,
            vision: None,
            hybrid: None,
            cross: None,
            window: None,
        }
    }

    /// Share of the `s x s` score tiles computed, averaged over the attention layers: half under
    /// a causal mask (Dao 2023, §3.1), all of them in both directions, and a windowed layer's
    /// band (`window_pairs`; fused kernels skip the tiles outside it).
    pub fn score_share(&self) -> f64 {
        let s = self.seq_len.max(1) as f64;
        let full = if self.causal { 0.5 } else { 1.0 };
        let windowed = self.windowed_share();
        let band = self
            .window
            .map_or(full, |w| (window_pairs(s, w.tokens as f64, self.causal) / (s * s)).min(full));
        (1.0 - windowed) * full + windowed * band
    }

    /// Share of the attention layers that attend over a window, not the whole sequence.
    pub fn windowed_share(&self) -> f64 {
        self.window.map_or(0.0, Window::windowed_share)
    }

    /// Keys an attention layer holds for a sequence of `context` tokens, averaged over the
    /// attention layers (`Window::cached_tokens`).
    pub fn cached_tokens(&self, context: f64) -> f64 {
        self.window.map_or(context.max(0.0), |w| w.cached_tokens(context))
    }

    /// Width of one query (and key) head: `head_dim`, plus the rotary part under MLA.
    pub fn qk_head_dim(&self) -> f64 {
        self.head_dim as f64 + self.mla.map_or(0.0, |m| m.rope_head_dim as f64)
    }

    /// Width of one value head: `head_dim`, or MLA's value width.
    pub fn v_head_dim(&self) -> f64 {
        self.mla.map_or(self.head_dim as f64, |m| m.v_head_dim as f64)
    }

    /// Query width, `n_heads * qk_head_dim`.
    pub fn q_dim(&self) -> f64 {
        self.n_heads as f64 * self.qk_head_dim()
    }

    /// Width of the keys or the values (their mean under MLA, whose differ),
    /// `n_kv_heads * head_dim` otherwise.
    pub fn kv_dim(&self) -> f64 {
        self.n_kv_heads as f64 * (self.qk_head_dim() + self.v_head_dim()) / 2.0
    }

    /// Width of the attention output, which the output projection reads: `n_heads` values.
    pub fn out_dim(&self) -> f64 {
        self.n_heads as f64 * self.v_head_dim()
    }

    /// Width the attention scores multiply through per token: half of the query-key and
    /// value widths of every head (`q_dim` without MLA).
    pub fn score_width(&self) -> f64 {
        self.n_heads as f64 * (self.qk_head_dim() + self.v_head_dim()) / 2.0
    }

    /// Share of layers with an attention block: all of a transformer's.
    pub fn attention_share(&self) -> f64 {
        self.hybrid.map_or(1.0, |y| y.attention as f64 / self.n_layers.max(1) as f64)
    }

    /// Share of layers with a Mamba-2 mixer: none of a transformer's.
    pub fn mamba_share(&self) -> f64 {
        self.hybrid.map_or(0.0, |y| y.mamba as f64 / self.n_layers.max(1) as f64)
    }

    /// Share of layers with a linear-attention mixer: none of a transformer's.
    pub fn linear_share(&self) -> f64 {
        self.hybrid.map_or(0.0, |y| y.linear as f64 / self.n_layers.max(1) as f64)
    }

    /// The linear-attention mixer of a hybrid with `G` layers.
    pub fn linear_mixer(&self) -> Option<LinearMixer> {
        self.hybrid.filter(|y| y.linear > 0).map(|y| y.linear_mixer)
    }

    /// Parameters of one linear-attention mixer: the input projection, the convolution, the
    /// low-rank projections (in and out), the output projection, and a few figures a head or
    /// channel (decays, steps, norms, token-shift mixes), taken as 8 a channel.
    pub fn linear_params(&self) -> f64 {
        let Some(l) = self.linear_mixer() else { return 0.0 };
        let h = self.hidden as f64;
        h * l.projected()
            + l.conv_channels() * l.conv as f64
            + 2.0 * h * l.lora as f64
            + l.value_width() * h
            + 8.0 * h
    }

    /// Forward FLOPs of one linear-attention mixer per token, as Megatron-LM's
    /// `gdn_layer_flops` counts them: its matrices and convolution, and `8 H d_k d_v` for the
    /// recurrence (the state's update and read-out).
    pub fn linear_flops_per_token(&self) -> f64 {
        let Some(l) = self.linear_mixer() else { return 0.0 };
        let state = l.heads as f64 * l.head_dim as f64 * l.v_head_dim as f64;
        2.0 * (self.linear_params() - 8.0 * self.hidden as f64) + 8.0 * state
    }

    /// Share of the layers without experts that have a dense feed-forward block: all of a
    /// transformer's.
    pub fn dense_ffn_share(&self) -> f64 {
        let dense = self.n_layers.saturating_sub(self.n_moe_layers()).max(1) as f64;
        self.hybrid.map_or(1.0, |y| (y.mlp as f64 / dense).min(1.0))
    }

    /// Inner width of a Mamba-2 mixer, `heads * head_dim`.
    pub fn mamba_inner(&self) -> f64 {
        self.hybrid.map_or(0.0, |y| y.mixer.heads as f64 * y.mixer.head_dim as f64)
    }

    /// Parameters of one Mamba-2 mixer (Megatron-LM `MambaMixer`): the input projection
    /// `h x (2 d_inner + 2 G N + H)`, the convolution over `d_inner + 2 G N` channels with its
    /// bias, `A`, `D` and the step bias per head, the gated norm, and the output projection.
    /// A Mamba-1 mixer's: the input projection `h x 2 d_inner`, the convolution with its bias,
    /// `x_proj` to the step rank `R`, `B` and `C`, `dt_proj` back with its bias, `A`, `D` and
    /// the output projection (`3 h d_inner + d_inner (2R + 3N + K + 3)`).
    pub fn mamba_params(&self) -> f64 {
        let Some(y) = self.hybrid else { return 0.0 };
        let m = y.mixer;
        let (h, inner) = (self.hidden as f64, self.mamba_inner());
        if m.kind == MambaKind::Mamba1 {
            let (r, n, k) = (m.dt_rank as f64, m.state as f64, m.conv as f64);
            return 3.0 * h * inner + inner * (2.0 * r + 3.0 * n + k + 3.0);
        }
        let gn = m.groups as f64 * m.state as f64;
        let heads = m.heads as f64;
        h * (2.0 * inner + 2.0 * gn + heads)
            + (inner + 2.0 * gn) * (m.conv as f64 + 1.0)
            + 3.0 * heads
            + inner
            + inner * h
    }

    /// Forward FLOPs of one Mamba-2 mixer per token, as Megatron-LM's `mamba_layer_flops`
    /// counts them: the two projections, and `7 d_inner N` for the scan. A Mamba-1 mixer's:
    /// its four projections and convolution, and `9 d_inner N` for the selective scan (Gu and
    /// Dao 2023, §3.3.2: `O(BLDN)`, nine operations an element in its reference scan).
    pub fn mamba_flops_per_token(&self) -> f64 {
        let Some(y) = self.hybrid else { return 0.0 };
        let (h, inner) = (self.hidden as f64, self.mamba_inner());
        if y.mixer.kind == MambaKind::Mamba1 {
            let m = y.mixer;
            let (r, n, k) = (m.dt_rank as f64, m.state as f64, m.conv as f64);
            let matrices = 3.0 * h * inner + inner * (r + 2.0 * n) + r * inner;
            return 2.0 * matrices + 2.0 * k * inner + 9.0 * inner * n;
        }
        let gn = y.mixer.groups as f64 * y.mixer.state as f64;
        2.0 * h * (2.0 * inner + 2.0 * gn + y.mixer.heads as f64)
            + 7.0 * inner * y.mixer.state as f64
            + 2.0 * inner * h
    }

    /// Parameters of an average layer's mixers: its share of an attention block and of a
    /// Mamba-2 mixer.
    pub fn mixer_params(&self) -> f64 {
        self.attention_share() * self.attention_params()
            + self.mamba_share() * self.mamba_params()
            + self.linear_share() * self.linear_params()
            + self.cross_params()
    }

    /// Parameters of one cross-attention block: query, key, value and output projections of
    /// a multi-head block of the model's heads (keys and values read the projected context).
    pub fn cross_params(&self) -> f64 {
        let Some(_) = self.cross else { return 0.0 };
        let h = self.hidden as f64;
        let heads = self.n_heads as f64 * self.head_dim as f64;
        4.0 * h * heads
    }

    /// Parameters of the context's projection into the model's width (two matrices).
    pub fn context_projector_params(&self) -> f64 {
        let Some(c) = self.cross else { return 0.0 };
        let h = self.hidden as f64;
        c.width as f64 * h + h * h
    }

    /// Forward FLOPs of the cross-attention of one sample that do not scale with its
    /// sequence: projecting the context and, in every layer, its keys and values.
    pub fn cross_context_flops(&self) -> f64 {
        let Some(c) = self.cross else { return 0.0 };
        let ctx = c.tokens as f64;
        let heads = self.n_heads as f64 * self.head_dim as f64;
        2.0 * ctx * self.context_projector_params()
            + self.n_layers as f64 * 2.0 * ctx * 2.0 * self.hidden as f64 * heads
    }

    /// Forward FLOPs of one token's cross-attention in one layer: its query and output
    /// projections, and its scores over every context token.
    pub fn cross_flops_per_token(&self) -> f64 {
        let Some(c) = self.cross else { return 0.0 };
        let heads = self.n_heads as f64 * self.head_dim as f64;
        2.0 * 2.0 * self.hidden as f64 * heads + 4.0 * c.tokens as f64 * heads
    }

    /// Tensor ranks the vision encoder is split over when the language model's are `tp`: its
    /// own degree, at most the language model's; `tp` without an encoder.
    pub fn encoder_tp(&self, tp: u32) -> u32 {
        let tp = tp.max(1);
        self.vision.and_then(|v| v.tp).map_or(tp, |e| e.clamp(1, tp))
    }

    /// The vision encoder as a transformer of its own (multi-head attention, GELU MLP), its
    /// sequence the patch tokens of one sample.
    pub fn encoder(&self) -> Option<Transformer> {
        let v = self.vision?;
        let tokens = v.tokens.max(1);
        let vit = Transformer::dense(
            v.layers,
            v.hidden,
            v.heads,
            v.heads,
            v.ffn,
            FfnKind::Gelu,
            0,
            tokens,
        );
        Some(Transformer {
            head_dim: vit.head_dim.max(1),
            tied_embeddings: true,
            causal: false,
            ..vit
        })
    }

    /// Parameters of the vision encoder: its layers, the patch embedding and the projector
    /// (two matrices into the model's width).
    pub fn vision_params(&self) -> f64 {
        let (Some(v), Some(e)) = (self.vision, self.encoder()) else { return 0.0 };
        let (vh, h) = (v.hidden as f64, self.hidden as f64);
        let patch = 3.0 * (v.patch as f64).powi(2) * vh;
        e.n_layers as f64 * (e.attention_params() + e.ffn_params(e.ffn as f64))
            + patch
            + vh * h
            + h * h
    }

    /// Model FLOPs of the vision encoder for one sample, forward and backward: its matrices on
    /// every patch token, and attention over all of them in both directions.
    pub fn vision_flops_per_sequence(&self) -> f64 {
        let (Some(v), Some(e)) = (self.vision, self.encoder()) else { return 0.0 };
        let t = v.tokens as f64;
        let scores = e.n_layers as f64 * 4.0 * t * t * v.hidden as f64;
        3.0 * (2.0 * t * self.vision_params() + scores)
    }

    /// Layers whose feed-forward block is a mixture of experts.
    pub fn n_moe_layers(&self) -> u32 {
        match self.moe {
            Some(moe) => self.n_layers.saturating_sub(moe.n_dense_layers),
            None => 0,
        }
    }

    /// Parameters of one attention block (QKV and output projections; norms ignored). Under
    /// MLA: the query down- and up-projections (or one projection without a query latent),
    /// the key/value down-projection with the shared rotary key, its up-projection to every
    /// head's key and value, and the output projection.
    pub fn attention_params(&self) -> f64 {
        let h = self.hidden as f64;
        let Some(m) = self.mla else {
            return h * (self.q_dim() + 2.0 * self.kv_dim()) + self.out_dim() * h;
        };
        let heads = self.n_heads as f64;
        let (q_lora, kv_lora) = (m.q_lora_rank as f64, m.kv_lora_rank as f64);
        let query = if m.q_lora_rank > 0 {
            (h + heads * self.qk_head_dim()) * q_lora
        } else {
            h * self.q_dim()
        };
        let kv_up = kv_lora * heads * (self.head_dim as f64 + self.v_head_dim());
        query + h * (kv_lora + m.rope_head_dim as f64) + kv_up + self.out_dim() * h
    }

    /// Parameters of one dense feed-forward block of width `ffn`.
    pub fn ffn_params(&self, ffn: f64) -> f64 {
        self.ffn_kind.n_matrices() * self.hidden as f64 * ffn
    }

    /// Parameters of all routed experts of one MoE layer.
    pub fn routed_expert_params(&self) -> f64 {
        match self.moe {
            Some(moe) => moe.n_experts as f64 * self.ffn_params(moe.expert_ffn as f64),
            None => 0.0,
        }
    }

    /// Parameters of one MoE layer's shared experts and router.
    pub fn shared_expert_params(&self) -> f64 {
        match self.moe {
            Some(moe) => {
                moe.n_shared_experts as f64 * self.ffn_params(moe.expert_ffn as f64)
                    + self.hidden as f64 * moe.n_experts as f64
            }
            None => 0.0,
        }
    }

    /// Embedding (and untied output) parameters.
    pub fn embedding_params(&self) -> f64 {
        let copies = if self.tied_embeddings { 1.0 } else { 2.0 };
        copies * self.vocab as f64 * self.hidden as f64
    }

    /// Total parameters (multi-token-prediction modules included).
    pub fn params(&self) -> f64 {
        let n_dense = (self.n_layers - self.n_moe_layers()) as f64;
        let n_moe = self.n_moe_layers() as f64;
        self.n_layers as f64 * self.mixer_params()
            + n_dense * self.dense_ffn_share() * self.ffn_params(self.ffn as f64)
            + n_moe * (self.routed_expert_params() + self.shared_expert_params())
            + self.embedding_params()
            + self.mtp_layers as f64 * self.mtp_params()
            + self.vision_params()
            + self.context_projector_params()
    }

    /// Parameters of one multi-token-prediction module: a block of the model's last kind and
    /// the projection of `[hidden; embedding]` back to `hidden`.
    pub fn mtp_params(&self) -> f64 {
        let h = self.hidden as f64;
        let ffn = if self.moe.is_some() {
            self.routed_expert_params() + self.shared_expert_params()
        } else {
            self.ffn_params(self.ffn as f64)
        };
        self.attention_params() + ffn + 2.0 * h * h
    }

    /// Parameters a token passes through (MoE: only its `top_k` routed experts).
    pub fn active_params(&self) -> f64 {
        self.active_of(self.params())
    }

    /// `active_params` of a model of `params` parameters (`Transformer::params`).
    pub fn active_of(&self, params: f64) -> f64 {
        let Some(moe) = self.moe else { return params };
        let n_moe = self.n_moe_layers() as f64;
        let inactive = (moe.n_experts.saturating_sub(moe.top_k)) as f64
            * self.ffn_params(moe.expert_ffn as f64);
        params - (n_moe + self.mtp_layers as f64) * inactive
    }

    /// Feed-forward width a token effectively passes through in an MoE layer.
    pub fn moe_active_ffn(&self) -> f64 {
        match self.moe {
            Some(moe) => (moe.top_k as f64 + moe.n_shared_experts as f64) * moe.expert_ffn as f64,
            None => self.ffn as f64,
        }
    }

    /// Model FLOPs for one sequence, forward and backward, by Megatron-LM's convention:
    /// `12 s L h^2 [ (1 + kv/q + s/2h) q/h + ffn/h * (3/2 if gated) ] + 6 s h V`
    /// (Narayanan et al. 2021 Appendix; the `/2` counts only the causal half of the scores, and
    /// goes under bidirectional attention, as Megatron-Bridge counts Wan 2.1's).
    pub fn model_flops_per_sequence(&self) -> f64 {
        let s = self.seq_len as f64;
        let h = self.hidden as f64;
        let scores = 4.0 * self.score_share() * s * self.score_width();
        let attention = 2.0 * (self.attention_params()) + scores; // per token, fwd
        let mixer = self.attention_share() * attention
            + self.mamba_share() * self.mamba_flops_per_token()
            + self.linear_share() * self.linear_flops_per_token()
            + self.cross_flops_per_token();
        let n_dense = (self.n_layers - self.n_moe_layers()) as f64;
        let n_moe = self.n_moe_layers() as f64;
        let dense_ffn = 2.0 * self.ffn_params(self.ffn as f64);
        let moe_ffn = 2.0 * self.ffn_params(self.moe_active_ffn());
        let last_ffn = if self.moe.is_some() { moe_ffn } else { dense_ffn };
        let dense_ffn = self.dense_ffn_share() * dense_ffn;
        let mtp = self.mtp_layers as f64
            * (attention + last_ffn + 2.0 * 2.0 * h * h + 2.0 * h * self.vocab as f64);
        let per_token_fwd = self.n_layers as f64 * mixer
            + n_dense * dense_ffn
            + n_moe * moe_ffn
            + 2.0 * h * self.vocab as f64
            + mtp;
        3.0 * (s * per_token_fwd + self.cross_context_flops()) + self.vision_flops_per_sequence()
    }

    /// Parameters a token passes through in an average decoder layer, the unit in which
    /// pipeline stages are balanced (as DeepSpeed's parameter-balanced partitioning does; it
    /// does not depend on the sequence length, so neither does the placement).
    pub fn layer_active_params(&self) -> f64 {
        let n = self.n_layers.max(1) as f64;
        let n_moe = self.n_moe_layers() as f64;
        let ffn = ((n - n_moe) * self.dense_ffn_share() * self.ffn_params(self.ffn as f64)
            + n_moe * self.ffn_params(self.moe_active_ffn()))
            / n;
        self.mixer_params() + ffn
    }

    /// Work on the last pipeline stage beyond its layers, in layers: the output layer and
    /// each multi-token-prediction module with its own output pass.
    pub fn head_layers(&self) -> f64 {
        let h = self.hidden as f64;
        let output = h * self.vocab as f64;
        let mtp = self.mtp_layers as f64;
        let layer = self.layer_active_params().max(1.0);
        (output + mtp * (layer + 2.0 * h * h + output)) / layer
    }

    /// Forward FLOPs of the attention-score product (`QK^T` and `PV`) for one sequence, the
    /// causal half of it under a causal mask.
    pub fn attention_score_flops_per_sequence(&self) -> f64 {
        let s = self.seq_len as f64;
        let scores = 4.0 * self.score_share() * s * s * self.score_width();
        self.attention_share() * self.n_layers as f64 * scores
    }
}

/// Query-key pairs of a sequence of `s` tokens under a window of `w` keys: each query's last
/// `w` under a causal mask (`w s - w^2 / 2` once `w` is within `s`), `w` each way in both
/// directions (`2 w s - w^2`), and never more than the unwindowed count.
pub fn window_pairs(s: f64, w: f64, causal: bool) -> f64 {
    let (s, w) = (s.max(0.0), w.max(0.0).min(s.max(0.0)));
    if causal {
        (w * s - w * w / 2.0).min(s * s / 2.0)
    } else {
        (2.0 * w * s - w * w).min(s * s)
    }
}
