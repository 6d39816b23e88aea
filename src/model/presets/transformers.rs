//! Published transformer shapes.

use super::TransformerPreset;
use crate::model::{
    Cross, FfnKind, Hybrid, LinearKind, LinearMixer, Mamba, MambaKind, Mla, Moe, Transformer,
    Vision,
};

/// The linear-attention mixer of a hybrid without `G` layers, which nothing reads: the field
/// table's Gated DeltaNet at 4,096 wide.
const NO_LINEAR: LinearMixer = LinearMixer {
    kind: LinearKind::GatedDeltaNet,
    heads: 32,
    key_heads: 32,
    head_dim: 128,
    v_head_dim: 128,
    conv: 4,
    chunk: 64,
    lora: 0,
};

/// The Mamba-2 mixer of a hybrid without `M` layers, which nothing reads: Megatron-LM's
/// defaults at 2,048 wide.
const NO_MAMBA: Mamba = Mamba {
    kind: MambaKind::Mamba2,
    state: 128,
    heads: 64,
    head_dim: 64,
    groups: 8,
    conv: 4,
    chunk: 128,
    dt_rank: 128,
};

/// Every transformer preset: a dense decoder (`Transformer::dense`, positional like a row of
/// the papers' architecture tables) that each adjusts from.
pub const TRANSFORMERS: &[TransformerPreset] = &[
    TransformerPreset {
        id: "gpt3-175b",
        name: "GPT-3 175B",
        transformer: Transformer {
            tied_embeddings: true,
            ..Transformer::dense(96, 12288, 96, 96, 49152, FfnKind::Gelu, 50257, 2048)
        },
        source: source!("Brown et al. 2020, arXiv:2005.14165, Table 2.1 (96 layers, d_model 12288, 96 heads, context 2048); GPT-2 BPE vocabulary 50257"),
    },
    TransformerPreset {
        id: "llama2-70b",
        name: "Llama 2 70B",
        transformer: Transformer::dense(80, 8192, 64, 8, 28672, FfnKind::SwiGlu, 32000, 4096),
        source: source!("Touvron et al. 2023, arXiv:2307.09288, Table 1; released config meta-llama/Llama-2-70b-hf (FFN 28672, 8 KV heads)"),
    },
    TransformerPreset {
        id: "llama3-8b",
        name: "Llama 3.1 8B",
        transformer: Transformer::dense(32, 4096, 32, 8, 14336, FfnKind::SwiGlu, 128256, 8192),
        source: source!("Llama Team 2024, arXiv:2407.21783, Table 3; released config meta-llama/Llama-3.1-8B (vocabulary 128256)"),
    },
    TransformerPreset {
        id: "llama3-70b",
        name: "Llama 3.1 70B",
        transformer: Transformer::dense(80, 8192, 64, 8, 28672, FfnKind::SwiGlu, 128256, 8192),
        source: source!("Llama Team 2024, arXiv:2407.21783, Table 3; released config meta-llama/Llama-3.1-70B"),
    },
    TransformerPreset {
        id: "llama3-405b",
        name: "Llama 3.1 405B",
        transformer: Transformer::dense(126, 16384, 128, 8, 53248, FfnKind::SwiGlu, 128256, 8192),
        source: source!("Llama Team 2024, arXiv:2407.21783, Table 3 (126 layers, 16384 wide, 128 heads, 8 KV heads, FFN 53248); released config (vocabulary 128256)"),
    },
    TransformerPreset {
        id: "mixtral-8x7b",
        name: "Mixtral 8x7B",
        transformer: Transformer {
            moe: Some(Moe {
                n_experts: 8,
                top_k: 2,
                n_shared_experts: 0,
                expert_ffn: 14336,
                n_dense_layers: 0,
                capacity_factor: None,
                imbalance: super::super::efficiency::ROUTING_IMBALANCE,
                node_limit: None,
            }),
            ..Transformer::dense(32, 4096, 32, 8, 14336, FfnKind::SwiGlu, 32000, 32768)
        },
        source: source!("Jiang et al. 2024, arXiv:2401.04088, Table 1 (32 layers, dim 4096, 8 KV heads, 8 experts, top-2, hidden 14336) and abstract ('trained with a context size of 32k tokens')"),
    },
    TransformerPreset {
        id: "deepseek-v3",
        name: "DeepSeek-V3 671B",
        transformer: Transformer {
            // Multi-head latent attention: 128 heads, each with a 128-wide key and query and a
            // 64-wide rotary part, 128-wide values, through latents of 1,536 (queries) and
            // 512 (keys and values); about 187M parameters per layer.
            head_dim: 128,
            mla: Some(Mla { q_lora_rank: 1536, kv_lora_rank: 512, rope_head_dim: 64, v_head_dim: 128 }),
            mtp_layers: 1,
            moe: Some(Moe {
                n_experts: 256,
                top_k: 8,
                n_shared_experts: 1,
                expert_ffn: 2048,
                n_dense_layers: 3,
                capacity_factor: None,
                imbalance: super::super::efficiency::ROUTING_IMBALANCE,
                node_limit: Some(4),
            }),
            ..Transformer::dense(61, 7168, 128, 128, 18432, FfnKind::SwiGlu, 129280, 4096)
        },
        source: source!("DeepSeek-AI 2024, arXiv:2412.19437, §4.2 (61 layers, hidden 7168, 256 routed experts, 8 active, 1 shared, expert FFN 2048, first 3 layers dense, sequence 4096), §3.2.2 (tokens reach at most 4 nodes), §2.2 (one multi-token-prediction module), §2.1.1 and the released configuration (MLA: 128 heads, q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128)"),
    },
    TransformerPreset {
        id: "nemotron-h-8b",
        name: "Nemotron-H 8B (hybrid Mamba-2)",
        transformer: Transformer {
            n_layers: 28,
            head_dim: 128,
            hybrid: Some(Hybrid {
                attention: 4,
                mamba: 24,
                linear: 0,
                mlp: 24,
                moe: 0,
                linear_mixer: NO_LINEAR,
                mixer: Mamba {
                    kind: MambaKind::Mamba2,
                    state: 128,
                    heads: 128,
                    head_dim: 64,
                    groups: 8,
                    conv: 4,
                    chunk: 128,
                    dt_rank: 256,
                },
            }),
            ..Transformer::dense(28, 4096, 32, 8, 21504, FfnKind::Gelu, 131072, 8192)
        },
        source: source!("NVIDIA, Nemotron-H, arXiv:2504.03624; Megatron-LM examples/post_training/modelopt/conf/nvidia/Nemotron-H-8B-Base-8K.sh: pattern M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M- (24 Mamba-2, 4 attention, 24 MLP sublayers), hidden 4096, 32 query and 8 KV heads of 128, squared-ReLU MLP of 21504, Mamba-2 with 128 heads of 64, state 128, 8 groups; vocabulary 131072, sequence 8192; convolution 4 and chunk 128 are Megatron-LM's defaults"),
    },
    TransformerPreset {
        id: "nemotron-h-56b",
        name: "Nemotron-H 56B (hybrid Mamba-2)",
        transformer: Transformer {
            n_layers: 64,
            head_dim: 128,
            hybrid: Some(Hybrid {
                attention: 10,
                mamba: 54,
                linear: 0,
                mlp: 54,
                moe: 0,
                linear_mixer: NO_LINEAR,
                mixer: Mamba {
                    kind: MambaKind::Mamba2,
                    state: 256,
                    heads: 256,
                    head_dim: 64,
                    groups: 8,
                    conv: 4,
                    chunk: 128,
                    dt_rank: 512,
                },
            }),
            ..Transformer::dense(64, 8192, 64, 8, 32768, FfnKind::Gelu, 131072, 8192)
        },
        source: source!("NVIDIA, Nemotron-H, arXiv:2504.03624; Megatron-LM Nemotron-H-56B-Base-8K configuration: 118 sublayers (54 Mamba-2, 10 attention, 54 MLP), hidden 8192, 64 query and 8 KV heads of 128, squared-ReLU MLP of 32768, Mamba-2 with 256 heads of 64 and state 256; groups 8, head width 64, convolution 4 and chunk 128 are Megatron-LM's defaults"),
    },
    TransformerPreset {
        id: "jamba-1.5-mini",
        name: "Jamba 1.5 Mini 52B (hybrid Mamba-1 MoE)",
        transformer: Transformer {
            // Blocks of eight layers, the fifth attention and the other seven Mamba-1; every
            // other feed-forward block a mixture of 16 experts.
            hybrid: Some(Hybrid {
                attention: 4,
                mamba: 28,
                linear: 0,
                mlp: 16,
                moe: 16,
                mixer: Mamba {
                    kind: MambaKind::Mamba1,
                    state: 16,
                    heads: 128,
                    head_dim: 64,
                    groups: 1,
                    conv: 4,
                    chunk: 128,
                    dt_rank: 256,
                },
                linear_mixer: NO_LINEAR,
            }),
            moe: Some(Moe {
                n_experts: 16,
                top_k: 2,
                n_shared_experts: 0,
                expert_ffn: 14336,
                n_dense_layers: 16,
                capacity_factor: None,
                imbalance: super::super::efficiency::ROUTING_IMBALANCE,
                node_limit: None,
            }),
            ..Transformer::dense(32, 4096, 32, 8, 14336, FfnKind::SwiGlu, 65536, 8192)
        },
        source: source!("Lieber et al. 2024, Jamba, arXiv:2403.19887, §2-3 (blocks of 8 layers, attention to Mamba 1:7, MoE every other layer, 16 experts, top-2; 12B active of 52B), and Jamba 1.5, arXiv:2408.12570, §2 (Mini is the same architecture, Mamba-1 layers); released config ai21labs/Jamba-v0.1 (32 layers, hidden 4096, 32 query and 8 KV heads, FFN 14336, vocabulary 65536, attention period 8 offset 4, experts period 2 offset 1, Mamba d_state 16, d_conv 4, expand 2, dt_rank 256); training sequence not published, 8192 assumed"),
    },
    TransformerPreset {
        id: "qwen3-next-80b-a3b",
        name: "Qwen3-Next 80B-A3B (hybrid Gated DeltaNet)",
        transformer: Transformer {
            // `GEGEGE*E` twelve times: three Gated DeltaNet layers to one of gated attention,
            // every feed-forward block a mixture of 512 small experts.
            head_dim: 256,
            hybrid: Some(Hybrid {
                attention: 12,
                mamba: 0,
                linear: 36,
                mlp: 0,
                moe: 48,
                mixer: NO_MAMBA,
                linear_mixer: LinearMixer {
                    kind: LinearKind::GatedDeltaNet,
                    heads: 32,
                    key_heads: 16,
                    head_dim: 128,
                    v_head_dim: 128,
                    conv: 4,
                    chunk: 64,
                    lora: 0,
                },
            }),
            moe: Some(Moe {
                n_experts: 512,
                top_k: 10,
                n_shared_experts: 1,
                expert_ffn: 512,
                n_dense_layers: 0,
                capacity_factor: None,
                imbalance: super::super::efficiency::ROUTING_IMBALANCE,
                node_limit: None,
            }),
            mtp_layers: 1,
            ..Transformer::dense(48, 2048, 16, 2, 5120, FfnKind::SwiGlu, 151936, 4096)
        },
        source: source!("Qwen Team 2025, Qwen3-Next; released config Qwen/Qwen3-Next-80B-A3B as mirrored in Megatron-Bridge tests/unit_tests/models/qwen/test_qwen3_next_bridge.py at 067f987d (48 layers, hidden 2048, full attention every 4th layer with 16 query and 2 KV heads of 256, Gated DeltaNet with 16 query/key and 32 value heads of 128 and a convolution of 4, 512 experts of 512 with 10 routed and 1 shared, vocabulary 151936, untied); Megatron-LM's `G` symbol for Gated DeltaNet (megatron/core/models/hybrid/hybrid_layer_allocation.py); chunk 64 is FLA's; sequence 4096 as Megatron-Bridge's Qwen3-Next benchmark recipes; one multi-token-prediction module as Megatron-Bridge's pre-training recipe sets it (src/megatron/bridge/recipes/qwen/qwen3_next.py at 08ce2715, `mtp_num_layers = 1`); the attention's output gate (a quarter of its parameters) is not counted"),
    },
    TransformerPreset {
        id: "rwkv7-2.9b",
        name: "RWKV-7 World 2.9B",
        transformer: Transformer {
            // `G-` 32 times: RWKV-7 time mixing, then a squared-ReLU channel mixing of 4x.
            head_dim: 64,
            hybrid: Some(Hybrid {
                attention: 0,
                mamba: 0,
                linear: 32,
                mlp: 32,
                moe: 0,
                mixer: NO_MAMBA,
                linear_mixer: LinearMixer {
                    kind: LinearKind::Rwkv7,
                    heads: 40,
                    key_heads: 40,
                    head_dim: 64,
                    v_head_dim: 64,
                    conv: 4,
                    chunk: 16,
                    lora: 576,
                },
            }),
            ..Transformer::dense(32, 2560, 40, 40, 10240, FfnKind::Gelu, 65536, 4096)
        },
        source: source!("Peng et al. 2025, RWKV-7 \"Goose\", arXiv:2503.14456, §4 (time mixing with the generalised delta rule, heads of 64; channel mixing of 4x with squared ReLU) and Table 2; BlinkDL/RWKV-LM README (3B: L32-D2560, vocabulary 65536) and RWKV-v7/train_temp/src/model.py (low-rank projections of 96, 96, 64 and 320 at 2,560 wide); chunks of 16 as its CUDA kernels run them; sequence 4096 assumed"),
    },
    TransformerPreset {
        id: "qwen2-vl-72b",
        name: "Qwen2-VL 72B (vision-language)",
        transformer: Transformer {
            vision: Some(Vision { layers: 32, hidden: 1280, heads: 16, ffn: 5120, patch: 14, tokens: 1024, tp: None }),
            ..Transformer::dense(80, 8192, 64, 8, 29568, FfnKind::SwiGlu, 152064, 8192)
        },
        source: source!("Wang et al. 2024, Qwen2-VL, arXiv:2409.12191, §2.1 (a 675M ViT with patch 14, adjacent 2x2 tokens merged by an MLP); released config Qwen/Qwen2-VL-72B-Instruct (language model: 80 layers, hidden 8192, 64 query and 8 KV heads, FFN 29568, vocabulary 152064; vision: depth 32, width 1280, 16 heads, MLP ratio 4); one 448 x 448 image of 1,024 patches per sample and a sequence of 8192 assumed (training lengths vary)"),
    },
    TransformerPreset {
        id: "wan2.1-14b",
        name: "Wan 2.1 14B (video diffusion transformer)",
        transformer: Transformer {
            // Bidirectional self-attention over a clip's latent patches, cross-attention to
            // the prompt; the "vocabulary" is a patch's 64 latent values, in and out.
            causal: false,
            cross: Some(Cross { tokens: 512, width: 4096 }),
            ..Transformer::dense(40, 5120, 40, 40, 13824, FfnKind::Gelu, 64, 37440)
        },
        source: source!("Wan Team 2025, Wan: Open and Advanced Large-Scale Video Generative Models, arXiv:2503.20314, Table 1 (14B: 40 layers, dimension 5120, 40 heads, FFN 13824); Megatron-Bridge src/megatron/bridge/diffusion/models/wan/wan_provider.py and examples/models/wan/README-perf-test.md at 067f987d (GELU MLP, cross-attention to 512 umT5 tokens of width 4096 projected by two matrices, 16 latent channels in patches of 1 x 2 x 2); a 37,440-token clip as Megatron-Bridge's benchmark data, 24 x 104 x 60 latents in those patches (src/megatron/bridge/diffusion/data/wan/wan_mock_datamodule.py at 64113bba); the time embedding and its modulation (about 0.2B parameters) are not counted"),
    },
    TransformerPreset {
        id: "gpt4-moe-1.8t",
        name: "1.8T 16-expert MoE (size reported for GPT-4)",
        transformer: Transformer {
            moe: Some(Moe {
                n_experts: 16,
                top_k: 2,
                n_shared_experts: 0,
                expert_ffn: 43008,
                n_dense_layers: 0,
                capacity_factor: None,
                imbalance: super::super::efficiency::ROUTING_IMBALANCE,
                node_limit: None,
            }),
            ..Transformer::dense(120, 10752, 96, 96, 43008, FfnKind::Gelu, 100256, 8192)
        },
        source: source!("unverified: press reports (SemiAnalysis, July 2023) of about 1.8T parameters, 120 layers, 16 experts of about 111B, 2 routed per token, about 55B shared attention parameters, trained with 8-way tensor and 15-way pipeline parallelism; width chosen to match; the heads are not published: 96 of 112 dimensions, so that the reported tensor-parallel degree of 8 divides them"),
    },
];
