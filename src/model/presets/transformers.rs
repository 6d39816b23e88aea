//! Published transformer shapes.

use super::TransformerPreset;
use crate::model::{Cross, FfnKind, Hybrid, Mamba2, Mla, Moe, Transformer, Vision};

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
                node_limit: None,
            }),
            ..Transformer::dense(32, 4096, 32, 8, 14336, FfnKind::SwiGlu, 32000, 4096)
        },
        source: source!("Jiang et al. 2024, arXiv:2401.04088, Table 1 (32 layers, dim 4096, 8 KV heads, 8 experts, top-2, hidden 14336); training sequence length not published, 4096 assumed (context is 32768)"),
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
                mlp: 24,
                moe: 0,
                mixer: Mamba2 { state: 128, heads: 128, head_dim: 64, groups: 8, conv: 4, chunk: 128 },
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
                mlp: 54,
                moe: 0,
                mixer: Mamba2 { state: 256, heads: 256, head_dim: 64, groups: 8, conv: 4, chunk: 128 },
            }),
            ..Transformer::dense(64, 8192, 64, 8, 32768, FfnKind::Gelu, 131072, 8192)
        },
        source: source!("NVIDIA, Nemotron-H, arXiv:2504.03624; Megatron-LM Nemotron-H-56B-Base-8K configuration: 118 sublayers (54 Mamba-2, 10 attention, 54 MLP), hidden 8192, 64 query and 8 KV heads of 128, squared-ReLU MLP of 32768, Mamba-2 with 256 heads of 64 and state 256; groups 8, head width 64, convolution 4 and chunk 128 are Megatron-LM's defaults"),
    },
    TransformerPreset {
        id: "qwen2-vl-72b",
        name: "Qwen2-VL 72B (vision-language)",
        transformer: Transformer {
            vision: Some(Vision { layers: 32, hidden: 1280, heads: 16, ffn: 5120, patch: 14, tokens: 1024 }),
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
        source: source!("Wan Team 2025, Wan: Open and Advanced Large-Scale Video Generative Models, arXiv:2503.20314, Table 1 (14B: 40 layers, dimension 5120, 40 heads, FFN 13824); Megatron-Bridge src/megatron/bridge/diffusion/models/wan/wan_provider.py and examples/models/wan/README-perf-test.md at 067f987d (GELU MLP, cross-attention to 512 umT5 tokens of width 4096 projected by two matrices, 16 latent channels in patches of 1 x 2 x 2, a 37,440-token clip); the time embedding and its modulation (about 0.2B parameters) are not counted"),
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
                node_limit: None,
            }),
            ..Transformer::dense(120, 10752, 84, 84, 43008, FfnKind::Gelu, 100256, 8192)
        },
        source: source!("unverified: press reports (SemiAnalysis, July 2023) of about 1.8T parameters, 120 layers, 16 experts of about 111B, 2 routed per token, about 55B shared attention parameters; width chosen to match"),
    },
];
