//! The field table: every numeric and yes/no input of a scenario, in one place.
//!
//! Each entry gives the dotted path (which is also the field's label key in the page's text
//! catalogue), the unit the scenario speaks and its factor to SI, the kind of value, where its
//! default comes from, and the plausible range with the reason for it. `resolve` takes its
//! bounds from here, the page its units and formats, and `docs/scenario.md`'s range table is
//! generated from it (a test keeps that table current). A value outside the plausible range is
//! an error: it is a typo or a unit mistake, and estimating it would only print absurd numbers.
//!
//! A *plain* field (`Field::plain`) goes straight into one number of the model's inputs: its
//! entry says where (`place!`), and `resolve` reads it, the form offers it in its section and
//! the docs describe it, all from the entry. Adding one is its entry and its words.

use crate::model::facility::{Cooling, Currency, FabricKind};
use crate::model::pools::Across;
use crate::model::presets::units::{GB, GBIT_PER_S, GB_PER_S, TB_PER_S, TFLOPS, US};
use crate::model::reliability::{Checkpoint, Confidence, Recovery};
use crate::model::serving::Precision;
use crate::model::sites::Exchange;
use crate::model::year::JobKind;
use crate::model::{
    AttentionImpl, CpKind, CrossEntropy, CudaGraphs, Dispatcher, FfnKind, Grads, Inputs,
    LinearKind, MambaKind, Recipe, Recompute, Stack, Warning, Weights,
};
use crate::numbers;
use crate::scenario::{Fix, FixLabel};
use serde_json::Value;

/// What kind of value a field holds; it also decides how the value is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number, shown grouped (`16,384`).
    Count,
    /// A real number, shown in the shortest exact form (`15.6T`, `0.85`).
    Number,
    /// A number above 0 and at most 1.
    Fraction,
    /// `true` or `false`.
    Flag,
}

/// Where a field's value comes from when the scenario does not give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fallback {
    /// A fixed value.
    Fixed(f64),
    /// The preset's figure (chip, fabric or model); required without a preset.
    Preset,
    /// Computed from other fields (documented in `docs/scenario.md`).
    Derived,
    /// Must be given.
    Required,
}

/// One input.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Dotted path in the scenario (`cluster.chip.hbm_tb_per_s`); also the label key.
    pub path: &'static str,
    /// Unit of the scenario value, as datasheets write it; empty for plain counts.
    pub unit: &'static str,
    /// Kind of value.
    pub kind: Kind,
    /// Default when absent.
    pub default: Fallback,
    /// Smallest plausible value (inclusive; for `Number` and `Fraction`, values must also be
    /// above zero unless `min` is zero and zero is meaningful).
    pub min: f64,
    /// Largest plausible value (inclusive).
    pub max: f64,
    /// Why the range is what it is.
    pub why: &'static str,
    /// How the value becomes the model's SI value (`to_si`).
    pub scale: Scale,
    /// Where a plain field's SI value lives in the model's inputs; `None` for a field that
    /// `resolve` reads by its own rules (presets, derived defaults, custom objects).
    pub place: Option<Place>,
}

/// A number of the model's inputs a plain field writes and the form reads back.
#[derive(Clone, Copy)]
pub struct Place {
    pub get: fn(&Inputs) -> f64,
    pub set: fn(&mut Inputs, f64),
}

impl std::fmt::Debug for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Place")
    }
}

/// The place of a number of `model::Inputs`: `place!(plant.facility.usd_per_kwh)`.
macro_rules! place {
    ($($step:ident).+) => {
        Place { get: |i| i.$($step).+, set: |i, x| i.$($step).+ = x }
    };
}

/// How a scenario value becomes the model's SI value: times `mul`, then divided by `div`
/// (TFLOP/s times 10^12; a scale-up bandwidth, quoted in both directions, times 10^9 over 2
/// for one; failures per million hours over 10^6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub mul: f64,
    pub div: f64,
}

/// A value the model takes as it is.
const SI: Scale = Scale { mul: 1.0, div: 1.0 };

impl Field {
    /// The model's value of the scenario value `x`.
    pub fn to_si(&self, x: f64) -> f64 {
        x * self.scale.mul / self.scale.div
    }

    /// The scenario value of the model's value `y`.
    pub fn from_si(&self, y: f64) -> f64 {
        y * self.scale.div / self.scale.mul
    }

    /// The same field converted by `mul / div` into the model's value.
    const fn scaled(self, mul: f64, div: f64) -> Field {
        Field { scale: Scale { mul, div }, ..self }
    }

    /// The same field as a plain one whose value goes to `place`. A plain field needs a fixed
    /// default: one without does not compile.
    const fn plain(self, place: Place) -> Field {
        let _ = self.fixed();
        Field { place: Some(place), ..self }
    }

    /// The key inside its section (`usd_per_kwh`).
    pub fn key(&self) -> &'static str {
        self.path.rsplit('.').next().unwrap_or(self.path)
    }

    /// The `data-testid` of its form input: the key with dashes (`usd-per-kwh`).
    pub fn testid(&self) -> String {
        self.key().replace('_', "-")
    }

    /// The value as the page and messages show it.
    pub fn show(&self, x: f64) -> String {
        numbers::format(x)
    }
}

impl Field {
    /// The fixed default (1 for true, 0 for false). A field without one does not compile
    /// where it is asked in a constant context (`const { F.fixed() }`), which is how
    /// `resolve` asks.
    pub const fn fixed(&self) -> f64 {
        match self.default {
            Fallback::Fixed(x) => x,
            _ => panic!("the field has no fixed default"),
        }
    }

    /// The fixed default, where the field has one (a form's placeholder).
    pub const fn fixed_default(&self) -> Option<f64> {
        match self.default {
            Fallback::Fixed(x) => Some(x),
            _ => None,
        }
    }
}

/// A field's fixed default, checked when the code compiles: `fixed!(PARALLELISM_TP)` does not
/// compile for a field whose default is not fixed.
macro_rules! fixed {
    ($field:ident) => {
        const { $crate::scenario::fields::$field.fixed() }
    };
}
pub(crate) use fixed;

const fn count(
    path: &'static str,
    default: Fallback,
    min: f64,
    max: f64,
    why: &'static str,
) -> Field {
    counted(path, "", default, min, max, why)
}

const fn counted(
    path: &'static str,
    unit: &'static str,
    default: Fallback,
    min: f64,
    max: f64,
    why: &'static str,
) -> Field {
    Field { path, unit, kind: Kind::Count, default, min, max, why, scale: SI, place: None }
}

const fn number(
    path: &'static str,
    unit: &'static str,
    default: Fallback,
    min: f64,
    max: f64,
    why: &'static str,
) -> Field {
    Field { path, unit, kind: Kind::Number, default, min, max, why, scale: SI, place: None }
}

const fn fraction(path: &'static str, default: Fallback) -> Field {
    Field {
        path,
        unit: "",
        kind: Kind::Fraction,
        default,
        min: 0.01,
        max: 1.0,
        why: "a share of a peak: at least 1% (below that a chip or link does no work worth \
              planning with), at most all of it",
        scale: SI,
        place: None,
    }
}

const fn flag(path: &'static str, default: Fallback) -> Field {
    Field {
        path,
        unit: "",
        kind: Kind::Flag,
        default,
        min: 0.0,
        max: 1.0,
        why: "",
        scale: SI,
        place: None,
    }
}

use Fallback::*;

const DEGREE: &str = "a parallel degree beyond 1,024 has no published use and no benefit";

// Every numeric and yes/no field `resolve` reads by its own rules, one constant each, named
// after its path; `resolve` reads each through its constant, so a field missing from the
// table does not compile. Plain fields, which no code names, are written in `FIELDS` itself.

pub static VERSION: Field = count(
    "version",
    Fixed(1.0),
    0.0,
    4_294_967_295.0,
    "a format version; one newer than this build reads is refused",
);
pub static MODEL_LAYERS: Field = count(
    "model.layers",
    Preset,
    1.0,
    1_000.0,
    "the deepest published language models have about 200 layers",
);
pub static MODEL_HIDDEN: Field =
    count("model.hidden", Preset, 1.0, 1e6, "published models stay below 50,000 wide");
pub static MODEL_HEADS: Field =
    count("model.heads", Preset, 1.0, 1e5, "published models have at most a few hundred heads");
pub static MODEL_KV_HEADS: Field =
    count("model.kv_heads", Derived, 1.0, 1e5, "at most the query heads");
pub static MODEL_HEAD_DIM: Field =
    count("model.head_dim", Derived, 1.0, 1e5, "published heads are 64 to 256 wide");
pub static MODEL_FFN: Field =
    count("model.ffn", Preset, 1.0, 1e7, "published feed-forward blocks stay below 100,000 wide");
pub static MODEL_VOCAB: Field = counted(
    "model.vocab",
    "tokens",
    Preset,
    1.0,
    1e7,
    "published vocabularies stay below a million tokens",
);
pub static MODEL_SEQ_LEN: Field = counted(
    "model.seq_len",
    "tokens",
    Preset,
    1.0,
    16_777_216.0,
    "16 M tokens, 16 times the longest published training context",
);
pub static MODEL_TIED_EMBEDDINGS: Field = flag("model.tied_embeddings", Preset);
pub static MODEL_DROPOUT: Field = flag("model.dropout", Preset);
pub static MODEL_CAUSAL: Field = flag("model.causal", Fixed(1.0));
pub static MODEL_CROSS_ATTENTION_TOKENS: Field = count(
    "model.cross_attention.tokens",
    Preset,
    1.0,
    1e6,
    "Wan 2.1 attends to 512 text tokens; PixArt-α to 120",
);
pub static MODEL_CROSS_ATTENTION_WIDTH: Field = count(
    "model.cross_attention.width",
    Preset,
    1.0,
    1e5,
    "the text encoder's width: 4,096 for umT5-XXL and T5-XXL",
);
pub static MODEL_WINDOW_TOKENS: Field = counted(
    "model.window.tokens",
    "tokens",
    Preset,
    1.0,
    16_777_216.0,
    "GPT-OSS's windowed layers attend over 128 tokens, Gemma 3's over 1,024, Mistral 7B's over 4,096",
);
pub static MODEL_WINDOW_GLOBAL_EVERY: Field = count(
    "model.window.global_every",
    Fixed(0.0),
    0.0,
    1024.0,
    "every 2nd layer of GPT-OSS and Gemma 2 attends over the whole sequence, every 6th of Gemma 3; 0: none",
);
pub static MODEL_MTP_LAYERS: Field = count(
    "model.mtp_layers",
    Fixed(0.0),
    0.0,
    64.0,
    "DeepSeek-V3 uses 1 multi-token-prediction module",
);
pub static MODEL_MLA_Q_LORA_RANK: Field = count(
    "model.mla.q_lora_rank",
    Preset,
    0.0,
    1e5,
    "DeepSeek-V3's query latent is 1,536 wide; 0 projects queries straight from the hidden state",
);
pub static MODEL_MLA_KV_LORA_RANK: Field = count(
    "model.mla.kv_lora_rank",
    Preset,
    1.0,
    1e5,
    "DeepSeek-V2 and V3 use a 512-wide key/value latent",
);
pub static MODEL_MLA_ROPE_HEAD_DIM: Field = count(
    "model.mla.rope_head_dim",
    Preset,
    0.0,
    4096.0,
    "DeepSeek-V3's rotary part is 64 wide, half its 128-wide heads",
);
pub static MODEL_MLA_V_HEAD_DIM: Field = count(
    "model.mla.v_head_dim",
    Preset,
    1.0,
    4096.0,
    "as a head: DeepSeek-V3's values are 128 wide",
);
pub static MODEL_MAMBA_STATE: Field = count(
    "model.mamba.state",
    Fixed(128.0),
    1.0,
    4096.0,
    "Mamba-2 uses states of 64 to 256 (Nemotron-H: 128 and 256); 128 is Megatron-LM's default",
);
pub static MODEL_MAMBA_HEADS: Field = count(
    "model.mamba.heads",
    Derived,
    1.0,
    1e5,
    "an inner width of twice the model's by default, as Megatron-LM's expand of 2 gives",
);
pub static MODEL_MAMBA_HEAD_DIM: Field = count(
    "model.mamba.head_dim",
    Fixed(64.0),
    1.0,
    4096.0,
    "Mamba-2 heads are 64 wide in Megatron-LM and Nemotron-H",
);
pub static MODEL_MAMBA_GROUPS: Field = count(
    "model.mamba.groups",
    Fixed(8.0),
    1.0,
    4096.0,
    "groups share B and C; Megatron-LM's default is 8, which caps tensor parallelism at 8",
);
pub static MODEL_MAMBA_CONV: Field =
    count("model.mamba.conv", Fixed(4.0), 1.0, 64.0, "Mamba's causal convolution is 4 wide");
pub static MODEL_MAMBA_CHUNK: Field = count(
    "model.mamba.chunk",
    Fixed(128.0),
    1.0,
    65536.0,
    "the scan's chunks are 128 tokens in Megatron-LM, 256 in the reference kernels",
);
pub static MODEL_MAMBA_DT_RANK: Field = count(
    "model.mamba.dt_rank",
    Derived,
    1.0,
    1e5,
    "Mamba-1's step rank is the width over 16, rounded up, by default (Jamba: 256 at 4,096)",
);
pub static MODEL_LINEAR_HEADS: Field = count(
    "model.linear.heads",
    Derived,
    1.0,
    1e5,
    "one value head per head width of the model's (Qwen3-Next has twice that: 32 of 128 at 2,048)",
);
pub static MODEL_LINEAR_KEY_HEADS: Field = count(
    "model.linear.key_heads",
    Derived,
    1.0,
    1e5,
    "as the value heads; Qwen3-Next shares each query and key head between two value heads",
);
pub static MODEL_LINEAR_HEAD_DIM: Field = count(
    "model.linear.head_dim",
    Fixed(128.0),
    1.0,
    4096.0,
    "Gated DeltaNet heads are 128 wide in Qwen3-Next; RWKV-7's are 64",
);
pub static MODEL_LINEAR_V_HEAD_DIM: Field = count(
    "model.linear.v_head_dim",
    Derived,
    1.0,
    4096.0,
    "as the query and key heads in Qwen3-Next and RWKV-7",
);
pub static MODEL_LINEAR_CONV: Field = count(
    "model.linear.conv",
    Fixed(4.0),
    1.0,
    64.0,
    "Gated DeltaNet's short convolution is 4 wide",
);
pub static MODEL_LINEAR_CHUNK: Field = count(
    "model.linear.chunk",
    Fixed(64.0),
    1.0,
    65536.0,
    "FLA's Gated DeltaNet kernels run chunks of 64 tokens; RWKV-7's of 16",
);
pub static MODEL_LINEAR_LORA: Field = count(
    "model.linear.lora",
    Fixed(0.0),
    0.0,
    1e5,
    "RWKV-7 2.9B's decay, learning-rate, value and gate projections have ranks 96, 96, 64 and 320",
);
pub static MODEL_VISION_LAYERS: Field = count(
    "model.vision.layers",
    Preset,
    1.0,
    1000.0,
    "vision encoders have 24 to 48 layers (Qwen2-VL 32, InternViT-6B 48)",
);
pub static MODEL_VISION_HIDDEN: Field = count(
    "model.vision.hidden",
    Preset,
    1.0,
    1e5,
    "ViT widths run from 768 to 3,200 (InternViT-6B)",
);
pub static MODEL_VISION_HEADS: Field =
    count("model.vision.heads", Preset, 1.0, 1024.0, "ViT heads run from 12 to 25");
pub static MODEL_VISION_FFN: Field =
    count("model.vision.ffn", Preset, 1.0, 1e6, "four times the width in most ViTs");
pub static MODEL_VISION_PATCH: Field =
    count("model.vision.patch", Preset, 1.0, 1024.0, "patches of 14 or 16 pixels are usual");
pub static MODEL_VISION_IMAGE_TOKENS: Field = count(
    "model.vision.image_tokens",
    Preset,
    1.0,
    1e6,
    "a 448 x 448 image in 14-pixel patches is 1,024 tokens; high-resolution tiling gives many thousands",
);
pub static MODEL_VISION_TP: Field = count(
    "model.vision.tp",
    Derived,
    1.0,
    1024.0,
    "at most the language model's tensor parallelism; 1 runs the whole encoder on every tensor rank",
);
pub static MODEL_VISION_IMAGES_PER_SAMPLE: Field = count(
    "model.vision.images_per_sample",
    Fixed(1.0),
    1.0,
    1e4,
    "interleaved documents and video carry many images (frames) a sample",
);
pub static MODEL_MOE_EXPERTS: Field = count(
    "model.moe.experts",
    Preset,
    1.0,
    1e5,
    "the largest published mixtures have a few thousand experts",
);
pub static MODEL_MOE_TOP_K: Field = count(
    "model.moe.top_k",
    Preset,
    1.0,
    1e3,
    "published models route to at most a few dozen experts",
);
pub static MODEL_MOE_SHARED_EXPERTS: Field =
    count("model.moe.shared_experts", Fixed(0.0), 0.0, 1e3, "published models use a few at most");
pub static MODEL_MOE_EXPERT_FFN: Field =
    count("model.moe.expert_ffn", Derived, 1.0, 1e7, "as the dense feed-forward width");
pub static MODEL_MOE_DENSE_LAYERS: Field =
    count("model.moe.dense_layers", Fixed(0.0), 0.0, 1e3, "fewer than the layers");
pub static MODEL_MOE_CAPACITY_FACTOR: Field = number(
    "model.moe.capacity_factor",
    "",
    Derived,
    0.01,
    100.0,
    "a multiple of the balanced load per expert; published runs use 1 to 2",
);
pub static MODEL_MOE_IMBALANCE: Field = number(
    "model.moe.imbalance",
    "",
    Fixed(crate::model::efficiency::ROUTING_IMBALANCE),
    1.0,
    8.0,
    "the busiest rank's tokens over the mean; 1 is perfect balance, published runs lose 8-20 % of a step to it",
);
pub static MODEL_MOE_NODE_LIMIT: Field =
    count("model.moe.node_limit", Derived, 1.0, 1e5, "DeepSeek-V3 uses 4 domains");
pub static TRAINING_TOKENS: Field = number(
    "training.tokens",
    "tokens",
    Required,
    1.0,
    1e16,
    "10 quadrillion: 600 times Llama 3's 15.6 T",
);
pub static TRAINING_GLOBAL_BATCH: Field = counted(
    "training.global_batch",
    "sequences",
    Required,
    1.0,
    1e7,
    "published runs use up to tens of thousands of sequences",
);
pub static TRAINING_MAX_GLOBAL_BATCH_TOKENS: Field = number(
    "training.max_global_batch_tokens",
    "tokens",
    Derived,
    1.0,
    1e10,
    "DeepSeek-V3 trained with 63M tokens a step; 10 billion is 150 times that",
);
pub static CLUSTER_CHIPS: Field =
    counted("cluster.chips", "chips", Required, 1.0, 1e7, "100 times the largest clusters built");
pub static CLUSTER_CHIPS_PER_NODE: Field = counted(
    "cluster.chips_per_node",
    "chips",
    Preset,
    1.0,
    1e5,
    "servers hold 4 to 16 chips; a rack-scale system 72",
);
pub static CLUSTER_SCALE_UP_DOMAIN_SIZE: Field = counted(
    "cluster.scale_up_domain",
    "chips",
    Preset,
    1.0,
    1e6,
    "the largest scale-up domains hold a few thousand chips",
);
pub static CLUSTER_CHIP_BF16_TFLOPS: Field = number(
    "cluster.chip.bf16_tflops",
    "TFLOP/s",
    Preset,
    0.1,
    1e5,
    "100 PFLOP/s, 40 times the densest chip shipping",
)
.scaled(TFLOPS, 1.0);
pub static CLUSTER_CHIP_FP8_TFLOPS: Field = number(
    "cluster.chip.fp8_tflops",
    "TFLOP/s",
    Preset,
    0.0,
    2e5,
    "twice the BF16 ceiling; 0 means no FP8 units",
)
.scaled(TFLOPS, 1.0);
pub static CLUSTER_CHIP_FP4_TFLOPS: Field = number(
    "cluster.chip.fp4_tflops",
    "TFLOP/s",
    Preset,
    0.0,
    4e5,
    "four times the BF16 ceiling; 0 means no FP4 units",
)
.scaled(TFLOPS, 1.0);
pub static CLUSTER_CHIP_INT8_TOPS: Field = number(
    "cluster.chip.int8_tops",
    "TOP/s",
    Fixed(0.0),
    0.0,
    4e5,
    "four times the BF16 ceiling; 0 means no INT8 units or no published figure",
)
.scaled(TFLOPS, 1.0);
pub static CLUSTER_CHIP_FP32_TFLOPS: Field =
    number("cluster.chip.fp32_tflops", "TFLOP/s", Derived, 0.01, 1e5, "as BF16")
        .scaled(TFLOPS, 1.0);
pub static CLUSTER_CHIP_HBM_GB: Field = number(
    "cluster.chip.hbm_gb",
    "GB",
    Preset,
    0.1,
    1e5,
    "100 TB, 350 times the largest HBM stack shipping",
)
.scaled(GB, 1.0);
pub static CLUSTER_CHIP_HBM_TB_PER_S: Field = number(
    "cluster.chip.hbm_tb_per_s",
    "TB/s",
    Preset,
    0.01,
    1e4,
    "10 PB/s, a thousand times HBM3e",
)
.scaled(TB_PER_S, 1.0);
pub static CLUSTER_CHIP_HOST_GB_PER_S: Field = number(
    "cluster.chip.host_gb_per_s",
    "GB/s",
    Fixed(64.0),
    0.1,
    1e5,
    "100 TB/s, a hundred times NVLink-C2C",
)
.scaled(GB_PER_S, 1.0);
pub static CLUSTER_CHIP_EXP_TERA_PER_S: Field = number(
    "cluster.chip.exp_tera_per_s",
    "T/s",
    Fixed(0.0),
    0.0,
    1e4,
    "a thousand times Blackwell Ultra's 9.8 T/s; 0: no figure, attention bound by its GEMMs",
)
.scaled(1e12, 1.0);
pub static CLUSTER_CHIP_TDP_W: Field = number(
    "cluster.chip.tdp_w",
    "W",
    Fixed(700.0),
    1.0,
    1e5,
    "100 kW per chip, 70 times the hottest shipping",
);
pub static CLUSTER_CHIP_MATMUL_EFFICIENCY: Field =
    fraction("cluster.chip.matmul_efficiency", Fixed(0.6));
pub static CLUSTER_CHIP_MEMORY_EFFICIENCY: Field =
    fraction("cluster.chip.memory_efficiency", Fixed(0.8));
pub static CLUSTER_CHIP_PRICE_USD: Field = number(
    "cluster.chip.price_usd",
    "USD",
    Derived,
    1.0,
    1e8,
    "a chip costing more than a building is a typo",
);
pub static CLUSTER_SCALE_UP_BANDWIDTH_GB_PER_S: Field = number(
    "cluster.scale_up.bandwidth_gb_per_s",
    "GB/s",
    Preset,
    0.1,
    1e6,
    "1 PB/s per chip, 300 times NVLink 5",
)
.scaled(GB_PER_S, 2.0);
pub static CLUSTER_SCALE_UP_DOMAIN: Field =
    counted("cluster.scale_up.domain", "chips", Preset, 1.0, 1e6, "as the scale-up domain");
pub static CLUSTER_SCALE_UP_LATENCY_US: Field = number(
    "cluster.scale_up.latency_us",
    "µs",
    Fixed(5.0),
    0.001,
    1e5,
    "a tenth of a second per step would be no fabric at all",
)
.scaled(US, 1.0);
pub static CLUSTER_SCALE_UP_EFFICIENCY: Field = fraction("cluster.scale_up.efficiency", Fixed(0.7));
pub static CLUSTER_SCALE_OUT_GBIT_PER_S: Field = number(
    "cluster.scale_out.gbit_per_s",
    "Gb/s",
    Preset,
    0.1,
    1e6,
    "1 Pb/s per chip, 600 times an 1.6 Tb/s NIC",
)
.scaled(GBIT_PER_S, 1.0);
pub static CLUSTER_SCALE_OUT_LATENCY_US: Field = number(
    "cluster.scale_out.latency_us",
    "µs",
    Fixed(10.0),
    0.001,
    1e5,
    "a tenth of a second per step would be no network at all",
)
.scaled(US, 1.0);
pub static CLUSTER_SCALE_OUT_EFFICIENCY: Field =
    fraction("cluster.scale_out.efficiency", Fixed(0.8));
pub static CLUSTER_SYSTEM_NICS_PER_CHIP: Field = counted(
    "cluster.system.nics_per_chip",
    "ports",
    Preset,
    1.0,
    16.0,
    "systems ship 1 or 2 scale-out ports per chip",
);
pub static CLUSTER_SYSTEM_NODE_MAX_KW: Field = number(
    "cluster.system.node_max_kw",
    "kW",
    Preset,
    0.01,
    1_000.0,
    "a DGX B300 is 14.5 kW; an NVL72 tray about 6.6 kW",
)
.scaled(1000.0, 1.0);
pub static CLUSTER_SYSTEM_NODE_PEAK_KW: Field = number(
    "cluster.system.node_peak_kw",
    "kW",
    Derived,
    0.01,
    1_000.0,
    "an 8 x H100 server peaks at 8.5 kW in training against its 10.2 kW rating",
)
.scaled(1000.0, 1.0);
pub static CLUSTER_SYSTEM_NODES_PER_RACK: Field = counted(
    "cluster.system.nodes_per_rack",
    "nodes",
    Preset,
    1.0,
    1_000.0,
    "4 DGX per rack; 18 trays in an NVL72 rack",
);
pub static CLUSTER_SYSTEM_NODE_PRICE_USD: Field = number(
    "cluster.system.node_price_usd",
    "USD",
    Preset,
    0.0,
    1e9,
    "a DGX B300 costs about $0.5 M",
);
pub static CLUSTER_SYSTEM_LIQUID: Field = flag("cluster.system.liquid", Preset);
pub static CLUSTER_POWER_CAP_W: Field = number(
        "cluster.power_cap_w",
        "W",
        Derived,
        1.0,
        1e5,
        "at or above the chip's board power a cap changes nothing; published curves reach down to 30% of it",
    );
pub static PARALLELISM_FIRST_STAGE_LAYERS: Field = counted(
    "parallelism.first_stage_layers",
    "layers",
    Derived,
    1.0,
    1e5,
    "at most the layers less one for each other stage",
);
pub static PARALLELISM_OFFLOAD_LAYERS: Field = counted(
    "parallelism.offload_layers",
    "layers",
    Fixed(0.0),
    0.0,
    1e5,
    "at most every layer a chip holds",
);
pub static CLUSTER_PLACEMENT_DOMAIN_CHIPS: Field = counted(
        "cluster.placement.domain_chips",
        "chips",
        Derived,
        1.0,
        1e6,
        "at most the scale-up domain; Megatron-Bridge lays out jobs larger than an NVL72 rack on 64 of its 72 GPUs",
    );
pub static CLUSTER_BETWEEN_POOLS_GBIT_PER_S: Field = number(
    "cluster.between_pools.gbit_per_s",
    "Gb/s",
    Derived,
    0.001,
    1e7,
    "from a 1 Mb/s line to 10 Pb/s, more than the largest fabrics' bisection",
)
.scaled(GBIT_PER_S, 1.0);
pub static SITES_WAN_GBIT_PER_S: Field = number(
    "sites.wan_gbit_per_s",
    "Gb/s",
    Required,
    0.001,
    1e7,
    "from a 1 Mb/s line to 10 Pb/s, more than any wide-area link",
)
.scaled(GBIT_PER_S, 1.0);
pub static SITES_WAN_LATENCY_MS: Field = number(
    "sites.wan_latency_ms",
    "ms",
    Fixed(5.0),
    0.0,
    1_000.0,
    "light in fibre covers 1,000 km in 5 ms; a second is more than round the world",
)
.scaled(1.0, 1e3);
pub static PARALLELISM_DILOCO_INNER_STEPS: Field = count(
    "parallelism.diloco_inner_steps",
    Fixed(100.0),
    1.0,
    1e6,
    "DiLoCo's experiments use 50 to 2,000 inner steps",
);
pub static PARALLELISM_DILOCO_STREAMING: Field = flag("parallelism.diloco_streaming", Fixed(0.0));
pub static PARALLELISM_DILOCO_TOKEN_FACTOR: Field = number(
    "parallelism.diloco_token_factor",
    "×",
    Fixed(1.0),
    1.0,
    10.0,
    "DiLoCo matched synchronous training's quality on the same tokens up to 500 inner steps \
     (arXiv:2311.08105); a planner unsure of that at its own H can ask for up to ten times the \
     tokens",
);
pub static CLUSTER_BETWEEN_POOLS_RDMA: Field = flag("cluster.between_pools.rdma", Derived);
pub static PARALLELISM_POOL_SHARES: Field = number(
    "parallelism.pool_shares",
    "",
    Derived,
    0.0,
    1.0,
    "a pool's share of the batch or the layers, from none to all of it; the shares are scaled to \
     sum to 1",
);
pub static CLUSTER_FABRIC_PLANES: Field = counted(
    "cluster.fabric.planes",
    "planes",
    Preset,
    1.0,
    16.0,
    "one plane per scale-out port of a chip",
);
pub static CLUSTER_FABRIC_TIERS: Field = counted(
    "cluster.fabric.tiers",
    "tiers",
    Derived,
    1.0,
    3.0,
    "fat trees of 1 to 3 switch tiers cover 100,000 chips",
);
pub static CLUSTER_FABRIC_IN_NETWORK_REDUCTION: Field =
    flag("cluster.fabric.in_network_reduction", Fixed(0.0));
pub static CLUSTER_FABRIC_OVERSUBSCRIPTION: Field = number(
    "cluster.fabric.oversubscription",
    "",
    Fixed(1.0),
    1.0,
    64.0,
    "1 is non-blocking; Meta's Llama 3 cluster is 1:7 above its pods",
);
pub static CLUSTER_FABRIC_SWITCH_PORTS: Field = counted(
    "cluster.fabric.switch.ports",
    "ports",
    Preset,
    4.0,
    4096.0,
    "a fat tree needs at least 4 ports; the largest boxes have a few hundred",
);
pub static CLUSTER_FABRIC_SWITCH_GBIT_PER_S: Field = number(
    "cluster.fabric.switch.gbit_per_s",
    "Gb/s",
    Preset,
    1.0,
    1e5,
    "ports run at 100 to 1,600 Gb/s",
)
.scaled(GBIT_PER_S, 1.0);
pub static CLUSTER_FABRIC_SWITCH_POWER_W: Field = number(
    "cluster.fabric.switch.power_w",
    "W",
    Fixed(750.0),
    1.0,
    1e5,
    "a 51.2 Tb/s box draws under 1 kW without optics",
);
pub static CLUSTER_FABRIC_SWITCH_PRICE_USD: Field = number(
    "cluster.fabric.switch.price_usd",
    "USD",
    Fixed(35_000.0),
    0.0,
    1e8,
    "switches cost tens of thousands of dollars",
);
pub static FACILITY_PUE: Field = number(
    "facility.pue",
    "",
    Derived,
    1.0,
    5.0,
    "a PUE below 1 is impossible; industry average 1.56, new builds 1.3, hyperscale 1.1",
);
pub static FACILITY_BUILT_YEAR: Field = number(
    "facility.built_year",
    "",
    Fixed(2026.0),
    1980.0,
    2040.0,
    "the year the site was built or last refitted: its PUE's default",
);
pub static FACILITY_INLET_C: Field = number(
    "facility.inlet_c",
    "°C",
    Fixed(25.0),
    5.0,
    45.0,
    "ASHRAE's allowable classes span 5 to 45 °C; data halls keep 18 to 27 °C",
);
pub static FACILITY_RACK_KW: Field = number(
    "facility.rack_kw",
    "kW",
    Derived,
    0.1,
    2_000.0,
    "air racks top out near 30 kW, liquid NVL72 racks at about 140 kW",
)
.scaled(1000.0, 1.0);
pub static RELIABILITY_STORAGE_GB_PER_S: Field = number(
    "reliability.storage_gb_per_s",
    "GB/s",
    Derived,
    0.001,
    1e7,
    "Llama 3's storage reached 7 TB/s at peak for 16,384 GPUs",
)
.scaled(GB_PER_S, 1.0);
pub static RELIABILITY_RATES_CHIP: Field = number(
    "reliability.rates.chip",
    "per M h",
    Fixed(8.95),
    0.0,
    1e6,
    "Llama 3.1: 190 accelerator faults in 16,384 GPUs x 54 days",
)
.scaled(1.0, 1e6);
pub static RELIABILITY_RATES_HBM: Field =
    number("reliability.rates.hbm", "per M h", Fixed(3.39), 0.0, 1e6, "Llama 3.1: 72 HBM3 faults")
        .scaled(1.0, 1e6);
pub static RELIABILITY_RATES_HOST: Field = number(
    "reliability.rates.host",
    "per M h",
    Fixed(20.3),
    0.0,
    1e6,
    "Llama 3.1: 54 host and unattributed interruptions in 2,048 servers",
)
.scaled(1.0, 1e6);
pub static RELIABILITY_RATES_SOFTWARE: Field = number(
    "reliability.rates.software",
    "per M h",
    Fixed(23.0),
    0.0,
    1e6,
    "Llama 3.1: 61 software and NCCL watchdog interruptions",
)
.scaled(1.0, 1e6);
pub static RELIABILITY_RATES_NIC: Field =
    number("reliability.rates.nic", "per M h", Fixed(0.33), 0.0, 1e6, "Llama 3.1: 7 NIC faults")
        .scaled(1.0, 1e6);
pub static RELIABILITY_RATES_SWITCH: Field = number(
    "reliability.rates.switch",
    "per M h",
    Fixed(0.7),
    0.0,
    1e6,
    "Alibaba HPN: 0.051% of ToR switches fail each month",
)
.scaled(1.0, 1e6);
pub static RELIABILITY_RATES_LINK: Field = number(
    "reliability.rates.link",
    "per M h",
    Fixed(0.78),
    0.0,
    1e6,
    "Alibaba HPN: 0.057% of NIC-ToR links fail each month",
)
.scaled(1.0, 1e6);
pub static PARALLELISM_TP: Field = count("parallelism.tp", Fixed(1.0), 1.0, 1024.0, DEGREE);
pub static PARALLELISM_PP: Field =
    counted("parallelism.pp", "stages", Fixed(1.0), 1.0, 1024.0, DEGREE);
pub static PARALLELISM_DP: Field = count("parallelism.dp", Derived, 1.0, 1e7, "as the chips");
pub static PARALLELISM_EP: Field = count("parallelism.ep", Fixed(1.0), 1.0, 1e5, "as the experts");
pub static PARALLELISM_ETP: Field = count("parallelism.etp", Derived, 1.0, 1024.0, DEGREE);
pub static PARALLELISM_CP: Field = count("parallelism.cp", Fixed(1.0), 1.0, 1024.0, DEGREE);
pub static PARALLELISM_MICRO_BATCH: Field =
    counted("parallelism.micro_batch", "sequences", Fixed(1.0), 1.0, 1e6, "as the global batch");
pub static PARALLELISM_VIRTUAL_STAGES: Field =
    count("parallelism.virtual_stages", Fixed(1.0), 1.0, 1024.0, "Megatron-LM uses a few per rank");
pub static PARALLELISM_ZERO: Field =
    count("parallelism.zero", Derived, 0.0, 3.0, "ZeRO has stages 0 to 3");
pub static PARALLELISM_SEQUENCE_PARALLEL: Field = flag("parallelism.sequence_parallel", Derived);
pub static PARALLELISM_DP_OVERLAP: Field = flag("parallelism.dp_overlap", Derived);
pub static PARALLELISM_EP_OVERLAP: Field = flag("parallelism.ep_overlap", Fixed(0.0));
pub static PARALLELISM_CP_OVERLAP: Field = flag("parallelism.cp_overlap", Fixed(0.0));
pub static PARALLELISM_TP_OVERLAP: Field = flag("parallelism.tp_overlap", Derived);
pub static PARALLELISM_PP_OVERLAP: Field = flag("parallelism.pp_overlap", Derived);
pub static PARALLELISM_RECOMPUTE_ELEMENTWISE: Field =
    flag("parallelism.recompute_elementwise", Fixed(0.0));
pub static PARALLELISM_RECOMPUTE_MLP_UP: Field = flag("parallelism.recompute_mlp_up", Fixed(0.0));

pub static CALIBRATION_MEASURED_STEP_S: Field =
    number("calibration.measured.step_s", "s", Required, 1e-6, 1e7, "a step of four months");
pub static CALIBRATION_MEASURED_TOKENS_PER_S: Field = number(
    "calibration.measured.tokens_per_s",
    "tokens/s",
    Required,
    1e-6,
    1e12,
    "about 30,000 times the fastest published training run",
);
pub static CALIBRATION_MEASURED_MFU: Field = Field {
    min: 0.001,
    why: "a share of the peak: at least 0.1%, at most all of it",
    ..fraction("calibration.measured.mfu", Required)
};

/// An input that is one of a few codes, each standing for a model value: resolve reads it,
/// describe writes it back, and the form offers it, all from here.
#[derive(Clone, Copy, Debug)]
pub struct Choices<T: 'static> {
    /// Dotted path in the scenario (also the label key; each code's words are
    /// `option.<path>.<code>`).
    pub path: &'static str,
    /// Every code and its value; a value's first code is the one written back and offered,
    /// later ones are accepted aliases.
    pub options: &'static [(&'static str, T)],
}

impl<T: Copy + PartialEq> Choices<T> {
    /// The value a code stands for.
    pub fn value(&self, code: &str) -> Option<T> {
        self.options.iter().find(|(c, _)| *c == code).map(|(_, v)| *v)
    }

    /// The code written for a value.
    pub fn code(&self, value: T) -> &'static str {
        self.options.iter().find(|(_, v)| *v == value).map_or("", |(c, _)| c)
    }

    /// The codes the form offers: each value's own, without aliases.
    pub fn offered(&self) -> Vec<&'static str> {
        let own = |(code, value): &&(&'static str, T)| self.code(*value) == *code;
        self.options.iter().filter(own).map(|(c, _)| *c).collect()
    }
}

pub static MODEL_FFN_ACT: Choices<FfnKind> = Choices {
    path: "model.ffn_act",
    // ReLU costs what GELU does.
    options: &[("gelu", FfnKind::Gelu), ("relu", FfnKind::Gelu), ("swiglu", FfnKind::SwiGlu)],
};
pub static MODEL_ATTENTION: Choices<AttentionImpl> = Choices {
    path: "model.attention",
    // `mla` is the fused kernel over multi-head latent attention (`model.mla`); a code read
    // back from a resolved model is its kernel's, so `describe` writes `mla` itself.
    options: &[
        ("flash", AttentionImpl::Flash),
        ("materialized", AttentionImpl::Materialized),
        ("mla", AttentionImpl::Flash),
    ],
};
pub static TRAINING_RECIPE: Choices<Recipe> = Choices {
    path: "training.recipe",
    options: &[
        ("megatron-bf16", Recipe::MegatronBf16),
        ("torch-amp", Recipe::TorchAmp),
        ("fp8", Recipe::Fp8),
        ("mxfp8", Recipe::Mxfp8),
        ("nvfp4", Recipe::Nvfp4),
        ("int8", Recipe::Int8),
    ],
};
pub static TRAINING_GRADS: Choices<Grads> =
    Choices { path: "training.grads", options: &[("fp32", Grads::Fp32), ("bf16", Grads::Bf16)] };
pub static TRAINING_WEIGHTS: Choices<Weights> = Choices {
    path: "training.weights",
    options: &[("mixed", Weights::Mixed), ("fp32", Weights::Fp32), ("bf16", Weights::Bf16)],
};
pub static PARALLELISM_RECOMPUTE: Choices<Recompute> = Choices {
    path: "parallelism.recompute",
    options: &[
        ("none", Recompute::None),
        ("selective", Recompute::Selective),
        ("full", Recompute::Full),
    ],
};
pub static PARALLELISM_DISPATCHER: Choices<Dispatcher> = Choices {
    path: "parallelism.dispatcher",
    options: &[("alltoall", Dispatcher::AllToAll), ("deepep", Dispatcher::DeepEp)],
};
pub static PARALLELISM_CUDA_GRAPHS: Choices<CudaGraphs> = Choices {
    path: "parallelism.cuda_graphs",
    options: &[
        ("none", CudaGraphs::None),
        ("layers", CudaGraphs::Layers),
        ("partial", CudaGraphs::Partial),
        ("full", CudaGraphs::Full),
    ],
};
pub static PARALLELISM_CROSS_ENTROPY: Choices<CrossEntropy> = Choices {
    path: "parallelism.cross_entropy",
    options: &[
        ("fp32", CrossEntropy::Fp32),
        ("in-place", CrossEntropy::InPlace),
        ("linear", CrossEntropy::Linear),
        ("fp32-fused", CrossEntropy::Fused),
    ],
};
pub static PARALLELISM_STACK: Choices<Stack> = Choices {
    path: "parallelism.stack",
    options: &[
        ("megatron-core", Stack::MegatronCore),
        ("megatron-baseline", Stack::MegatronBaseline),
        ("pytorch-fsdp", Stack::PytorchFsdp),
        ("xla", Stack::Xla),
        ("tuned", Stack::Tuned),
    ],
};
pub static RELIABILITY_CHECKPOINT: Choices<Checkpoint> = Choices {
    path: "reliability.checkpoint",
    options: &[
        ("sync", Checkpoint::Sync),
        ("async", Checkpoint::Async),
        ("in-memory", Checkpoint::InMemory),
    ],
};
pub static RELIABILITY_RECOVERY: Choices<Recovery> = Choices {
    path: "reliability.recovery",
    options: &[
        ("spare", Recovery::Spare),
        ("wait", Recovery::Wait),
        ("elastic", Recovery::Elastic),
        ("replica", Recovery::Replica),
    ],
};
pub static RELIABILITY_REPAIR_H: Field = number(
    "reliability.repair_h",
    "h",
    Fixed(24.0),
    0.0,
    100_000.0,
    "an assumption: a failed node is repaired or replaced within a day",
)
.scaled(3600.0, 1.0);
pub static RELIABILITY_SPARE_NODES: Field = count(
    "reliability.spare_nodes",
    Derived,
    0.0,
    1e6,
    "sites keep a few percent of their nodes as spares",
);
pub static RELIABILITY_DEADLINE_DAYS: Field = number(
    "reliability.deadline_days",
    "days",
    Derived,
    0.01,
    36_500.0,
    "a deadline is a number of days from the start",
);
pub static SIZING_CONFIDENCE: Choices<Confidence> = Choices {
    path: "sizing.confidence",
    options: &[("central", Confidence::Central), ("p90", Confidence::P90)],
};
pub static PARALLELISM_ACROSS_POOLS: Choices<Across> = Choices {
    path: "parallelism.across_pools",
    options: &[
        ("data", Across::Data),
        ("pipeline", Across::Pipeline),
        ("separate", Across::Separate),
    ],
};
pub static PARALLELISM_ACROSS_SITES: Choices<Exchange> = Choices {
    path: "parallelism.across_sites",
    options: &[("sync", Exchange::Sync), ("diloco", Exchange::Diloco)],
};
pub static PARALLELISM_CP_KIND: Choices<CpKind> = Choices {
    path: "parallelism.cp_kind",
    options: &[
        ("allgather", CpKind::AllGather),
        ("ring", CpKind::Ring),
        ("ulysses", CpKind::Ulysses),
        ("both", CpKind::Both),
    ],
};
pub static MODEL_MAMBA_KIND: Choices<MambaKind> = Choices {
    path: "model.mamba.kind",
    options: &[("mamba2", MambaKind::Mamba2), ("mamba1", MambaKind::Mamba1)],
};
pub static MODEL_LINEAR_KIND: Choices<LinearKind> = Choices {
    path: "model.linear.kind",
    options: &[("gated_deltanet", LinearKind::GatedDeltaNet), ("rwkv7", LinearKind::Rwkv7)],
};
/// `cluster.fabric.kind`: how the networks are wired.
pub static CLUSTER_FABRIC_KIND: Choices<FabricKind> = Choices {
    path: "cluster.fabric.kind",
    options: &[
        ("rail-optimized", FabricKind::RailOptimized),
        ("rail-only", FabricKind::RailOnly),
        ("torus-ocs", FabricKind::TorusOcs),
    ],
};
pub static FACILITY_COOLING: Choices<Cooling> = Choices {
    path: "facility.cooling",
    options: &[("air", Cooling::Air), ("liquid", Cooling::Liquid), ("hybrid", Cooling::Hybrid)],
};

/// Yuan per US dollar, for money shown in yuan: the 2025 annual average of the Federal
/// Reserve's noon buying rates, 7.1875 (FRED series AEXCHUS).
pub static FACILITY_USD_TO_CNY: Field = number(
    "facility.usd_to_cny",
    "CNY/USD",
    Fixed(7.19),
    0.01,
    1_000.0,
    "7.19 yuan a dollar, the 2025 average (Federal Reserve, FRED AEXCHUS)",
);
pub static FACILITY_CURRENCY: Choices<Currency> = Choices {
    path: "facility.currency",
    options: &[("usd", Currency::Usd), ("cny", Currency::Cny)],
};

/// The field of a measured figure by its key (`step_s`, `tokens_per_s`, `mfu`).
pub fn measured(key: &str) -> &'static Field {
    match key {
        "mfu" => &CALIBRATION_MEASURED_MFU,
        "tokens_per_s" => &CALIBRATION_MEASURED_TOKENS_PER_S,
        _ => &CALIBRATION_MEASURED_STEP_S,
    }
}

// Serving the model (`serving`) and post-training it (`rl`).
pub static SERVING_INPUT_TOKENS: Field = counted(
    "serving.input_tokens",
    "tokens",
    Derived,
    1.0,
    10_000_000.0,
    "a prompt of one token up to ten million, beyond any published context window",
);
pub static SERVING_OUTPUT_TOKENS: Field = counted(
    "serving.output_tokens",
    "tokens",
    Derived,
    1.0,
    1_000_000.0,
    "at least the first token, at most a million generated",
);
pub static SERVING_OUTPUT_SPREAD: Field = number(
    "serving.output_spread",
    "",
    Derived,
    0.0,
    10.0,
    "outputs of one length up to a spread ten times their mean, beyond any published trace",
);
pub static SERVING_TTFT_MS: Field = number(
    "serving.ttft_ms",
    "ms",
    Fixed(2000.0),
    1.0,
    3_600_000.0,
    "MLPerf Inference's Llama 2 70B server target is 2 s to the first token",
)
.scaled(1.0, 1000.0);
pub static SERVING_TPOT_MS: Field = number(
    "serving.tpot_ms",
    "ms",
    Fixed(50.0),
    0.1,
    60_000.0,
    "50 ms a token (20 a second per user) is the decode target of DeepSeek's and Huawei's \
     published deployments; MLPerf's interactive target is 40 ms",
)
.scaled(1.0, 1000.0);
pub static SERVING_REQUESTS_PER_S: Field = number(
    "serving.requests_per_s",
    "1/s",
    Derived,
    0.0,
    1e9,
    "a load of none up to a billion requests a second",
);
pub static SERVING_TOKENS_PER_DAY: Field = number(
    "serving.tokens_per_day",
    "tokens",
    Derived,
    0.0,
    1e18,
    "a load of none up to a quintillion tokens a day (prompt and output)",
);
pub static SERVING_MAX_BATCH: Field = count(
    "serving.max_batch",
    Derived,
    1.0,
    1_000_000.0,
    "an engine's cap on sequences decoded at once (vLLM's max_num_seqs)",
);
pub static SERVING_TP: Field = count("serving.tp", Derived, 1.0, 1024.0, DEGREE);
pub static SERVING_DP: Field = count("serving.dp", Derived, 1.0, 1024.0, DEGREE);
pub static SERVING_EP: Field = count("serving.ep", Derived, 1.0, 4096.0, DEGREE);
pub static SERVING_PREFILL_TP: Field = count("serving.prefill_tp", Derived, 1.0, 1024.0, DEGREE);
pub static SERVING_PREFILL_DP: Field = count("serving.prefill_dp", Derived, 1.0, 1024.0, DEGREE);
pub static SERVING_PREFILL_EP: Field = count("serving.prefill_ep", Derived, 1.0, 4096.0, DEGREE);
pub static SERVING_DISAGGREGATED: Field = flag("serving.disaggregated", Fixed(0.0));
pub static SERVING_CONTINUOUS_BATCHING: Field = flag("serving.continuous_batching", Fixed(1.0));
pub static SERVING_PORTABLE_KERNELS: Field = flag("serving.portable_kernels", Fixed(0.0));
pub static SERVING_TWO_BATCH_OVERLAP: Field = flag("serving.two_batch_overlap", Fixed(1.0));
pub static SERVING_UTILISATION: Field = fraction("serving.utilisation", Derived);
pub static SERVING_EXPERT_TP: Field = count("serving.expert_tp", Fixed(1.0), 1.0, 1024.0, DEGREE);
pub static SERVING_PREFILL_EXPERT_TP: Field =
    count("serving.prefill_expert_tp", Derived, 1.0, 1024.0, DEGREE);
pub static SERVING_DRAFT_TOKENS: Field = count(
    "serving.draft_tokens",
    Fixed(0.0),
    0.0,
    64.0,
    "published speculative decoding drafts up to a few tokens a step; 64 is far beyond any",
);
pub static SERVING_ACCEPTANCE_LENGTH: Field = counted(
    "serving.acceptance_length",
    "tokens",
    Derived,
    1.0,
    65.0,
    "a step emits at least the target model's own token and at most every draft token and it",
);
pub static SERVING_PREFIX_HIT_RATE: Field = number(
    "serving.prefix_hit_rate",
    "",
    Fixed(0.0),
    0.0,
    0.99,
    "a share of the prompt's tokens found cached: none up to nearly all",
);
pub static SERVING_OFFLOAD_GB: Field = number(
    "serving.offload_gb",
    "GB",
    Fixed(0.0),
    0.0,
    100_000.0,
    "weights a chip keeps in the host's memory: none up to 100 TB, beyond any host's memory",
)
.scaled(GB, 1.0);
pub static SERVING_MAX_TOKENS: Field = count(
    "serving.max_tokens",
    Fixed(8192.0),
    16.0,
    1_048_576.0,
    "vLLM's max_num_batched_tokens and SGLang's chunked_prefill_size: published launches set \
     512 (vLLM on TPU) up to tens of thousands; a million is beyond any",
);
/// Why a pool's instances are bounded where they are.
const POOLS: &str = "published disaggregated deployments fix their pools: one to a few prefill \
                     instances beside one to a few dozen decode ones (DeepSeek's, SGLang's \
                     3P9D, Moreh's 2P3D)";
pub static SERVING_PREFILL_INSTANCES: Field =
    count("serving.prefill_instances", Derived, 1.0, 4096.0, POOLS);
pub static SERVING_DECODE_INSTANCES: Field =
    count("serving.decode_instances", Derived, 1.0, 4096.0, POOLS);
pub static SERVING_CONCURRENCY: Field = count(
    "serving.concurrency",
    Fixed(0.0),
    0.0,
    100_000_000.0,
    "clients of a closed loop, as a benchmark's max_concurrency: none (arrivals at random) up \
     to a hundred million",
);
pub static SERVING_KERNEL_SHARE: Field = number(
    "serving.kernel_share",
    "",
    Derived,
    0.2,
    1.5,
    "the share of the chip's fitted kernel speed serving's kernels reach, as a measured \
     benchmark sets it: from a fifth up to half again (engines that beat training's kernels)",
);
pub static SERVING_MIX: Choices<crate::model::serving::Mix> = Choices {
    path: "serving.mix",
    options: &[
        ("conversation", crate::model::serving::Mix::Conversation),
        ("coding", crate::model::serving::Mix::Coding),
    ],
};
/// The formats serving stores weights and the cache in, by their names in a scenario.
const PRECISIONS: &[(&str, Precision)] =
    &[("bf16", Precision::Bf16), ("fp8", Precision::Fp8), ("fp4", Precision::Fp4)];
pub static SERVING_WEIGHTS: Choices<Precision> =
    Choices { path: "serving.weights", options: PRECISIONS };
pub static SERVING_ENGINE: Choices<crate::model::serving::Engine> =
    Choices { path: "serving.engine", options: &crate::model::serving::Engine::NAMED };
pub static SERVING_ATTENTION_WEIGHTS: Choices<Precision> =
    Choices { path: "serving.attention_weights", options: PRECISIONS };
pub static SERVING_KV_CACHE: Choices<Precision> =
    Choices { path: "serving.kv_cache", options: PRECISIONS };
pub static RL_PROMPTS_PER_STEP: Field = count(
    "rl.prompts_per_step",
    Fixed(512.0),
    1.0,
    10_000_000.0,
    "DAPO (arXiv 2503.14476) draws 512 prompts a step",
);
pub static RL_SAMPLES_PER_PROMPT: Field = count(
    "rl.samples_per_prompt",
    Fixed(16.0),
    1.0,
    10_000.0,
    "DAPO samples 16 responses a prompt; GRPO's published groups are 8 to 64",
);
pub static RL_PROMPT_TOKENS: Field = counted(
    "rl.prompt_tokens",
    "tokens",
    Fixed(512.0),
    1.0,
    10_000_000.0,
    "an assumption: a math or coding prompt of a few hundred tokens",
);
/// Tokens a sample generates unless told: a reasoning trace of a few thousand, or what the
/// model's sequence leaves after the prompt where that is less.
pub const RL_GENERATION_TOKENS_USUAL: f64 = 4096.0;
pub static RL_GENERATION_TOKENS: Field = counted(
    "rl.generation_tokens",
    "tokens",
    Derived,
    1.0,
    10_000_000.0,
    "an assumption: a reasoning trace of a few thousand tokens (DAPO allows 20,480)",
);
pub static RL_EPOCHS: Field = count(
    "rl.epochs",
    Fixed(1.0),
    1.0,
    100.0,
    "on-policy GRPO and DAPO update once per batch; PPO takes a few passes",
);
pub static RL_STEPS: Field = count(
    "rl.steps",
    Fixed(1000.0),
    1.0,
    10_000_000.0,
    "an assumption: published RL runs take hundreds to a few thousand steps",
);
pub static RL_COLOCATED: Field = flag("rl.colocated", Fixed(1.0));
pub static RL_GENERATION_CHIPS: Field = count(
    "rl.generation_chips",
    Derived,
    1.0,
    10_000_000.0,
    "chips apart from the trainers that generate; default as many as train",
);
pub static RL_REFERENCE: Field = flag("rl.reference", Fixed(1.0));
pub static RL_REWARD_MODEL: Field = flag("rl.reward_model", Fixed(0.0));
pub static RL_CRITIC: Field = flag("rl.critic", Fixed(0.0));

pub static YEAR_WEEKS: Field = count(
    "year.weeks",
    Fixed(52.0),
    1.0,
    260.0,
    "a week to five years: beyond that the fleet and the jobs are guesses",
);
pub static YEAR_DELIVERIES_WEEK: Field = count(
    "year.deliveries.week",
    Fixed(0.0),
    0.0,
    259.0,
    "a week of the horizon, counted from its start",
);
pub static YEAR_DELIVERIES_CHIPS: Field = count(
    "year.deliveries.chips",
    Required,
    1.0,
    1_048_576.0,
    "one chip to a million, ten times the largest clusters built",
);
pub static YEAR_DELIVERIES_RETIRE: Field = count(
    "year.deliveries.retire",
    Derived,
    1.0,
    260.0,
    "the week the chips leave, after they arrive; absent, they stay",
);
pub static YEAR_POWER_WEEK: Field = count(
    "year.power.week",
    Fixed(0.0),
    0.0,
    259.0,
    "the week the cap starts, counted from the horizon's start",
);
pub static YEAR_POWER_MW: Field = number(
    "year.power.mw",
    "MW",
    Required,
    0.01,
    10_000.0,
    "what the site may draw from the grid, PUE included: 10 kW to 10 GW",
);
pub static YEAR_JOBS_KIND: Choices<JobKind> = Choices {
    path: "year.jobs.kind",
    options: &[
        ("pretrain", JobKind::Pretrain),
        ("post_train", JobKind::PostTrain),
        ("fine_tune", JobKind::FineTune),
        ("serve", JobKind::Serve),
    ],
};
pub static YEAR_JOBS_EARLIEST: Field = number(
    "year.jobs.earliest",
    "weeks",
    Fixed(0.0),
    0.0,
    259.0,
    "a week of the horizon or a date within it",
);
pub static YEAR_JOBS_DEADLINE: Field = number(
    "year.jobs.deadline",
    "weeks",
    Derived,
    0.0,
    260.0,
    "a week of the horizon or a date; absent, the horizon's end",
);
pub static YEAR_JOBS_PRIORITY: Field =
    count("year.jobs.priority", Fixed(2.0), 0.0, 9.0, "0 takes chips first, 9 last");
pub static YEAR_JOBS_CHIPS_MIN: Field = count(
    "year.jobs.chips.min",
    Derived,
    1.0,
    1_048_576.0,
    "the fewest chips the job runs on; default its plan's smallest unit",
);
pub static YEAR_JOBS_CHIPS_MAX: Field = count(
    "year.jobs.chips.max",
    Derived,
    1.0,
    1_048_576.0,
    "the most chips the job takes; default every chip of the fleet",
);
pub static YEAR_JOBS_ELASTIC: Field = flag("year.jobs.elastic", Fixed(0.0));
pub static YEAR_JOBS_TOKENS_PER_DAY: Field = number(
    "year.jobs.tokens_per_day",
    "tokens",
    Required,
    1_000.0,
    1e15,
    "a thousand tokens a day to a quadrillion, a hundred times the largest published services",
);
pub static YEAR_JOBS_GROWTH_PER_MONTH: Field = number(
    "year.jobs.growth_per_month",
    "",
    Fixed(0.0),
    -0.5,
    2.0,
    "a load halving to one tripling every month",
);
pub static YEAR_JOBS_PEAK_OVER_MEAN: Field = number(
    "year.jobs.peak_over_mean",
    "",
    Fixed(1.0),
    1.0,
    10.0,
    "the daily peak over the day's mean; 1 is a flat load",
);

/// Every choice input's path and the codes the form offers for it.
pub fn choices() -> [(&'static str, Vec<&'static str>); 27] {
    [
        (YEAR_JOBS_KIND.path, YEAR_JOBS_KIND.offered()),
        (PARALLELISM_ACROSS_SITES.path, PARALLELISM_ACROSS_SITES.offered()),
        (PARALLELISM_CP_KIND.path, PARALLELISM_CP_KIND.offered()),
        (PARALLELISM_ACROSS_POOLS.path, PARALLELISM_ACROSS_POOLS.offered()),
        (MODEL_FFN_ACT.path, MODEL_FFN_ACT.offered()),
        (MODEL_ATTENTION.path, MODEL_ATTENTION.offered()),
        (MODEL_MAMBA_KIND.path, MODEL_MAMBA_KIND.offered()),
        (MODEL_LINEAR_KIND.path, MODEL_LINEAR_KIND.offered()),
        (TRAINING_RECIPE.path, TRAINING_RECIPE.offered()),
        (TRAINING_GRADS.path, TRAINING_GRADS.offered()),
        (TRAINING_WEIGHTS.path, TRAINING_WEIGHTS.offered()),
        (PARALLELISM_RECOMPUTE.path, PARALLELISM_RECOMPUTE.offered()),
        (PARALLELISM_DISPATCHER.path, PARALLELISM_DISPATCHER.offered()),
        (PARALLELISM_CUDA_GRAPHS.path, PARALLELISM_CUDA_GRAPHS.offered()),
        (PARALLELISM_CROSS_ENTROPY.path, PARALLELISM_CROSS_ENTROPY.offered()),
        (PARALLELISM_STACK.path, PARALLELISM_STACK.offered()),
        (RELIABILITY_CHECKPOINT.path, RELIABILITY_CHECKPOINT.offered()),
        (RELIABILITY_RECOVERY.path, RELIABILITY_RECOVERY.offered()),
        (SIZING_CONFIDENCE.path, SIZING_CONFIDENCE.offered()),
        (FACILITY_COOLING.path, FACILITY_COOLING.offered()),
        (FACILITY_CURRENCY.path, FACILITY_CURRENCY.offered()),
        (CLUSTER_FABRIC_KIND.path, CLUSTER_FABRIC_KIND.offered()),
        (SERVING_MIX.path, SERVING_MIX.offered()),
        (SERVING_WEIGHTS.path, SERVING_WEIGHTS.offered()),
        (SERVING_ATTENTION_WEIGHTS.path, SERVING_ATTENTION_WEIGHTS.offered()),
        (SERVING_KV_CACHE.path, SERVING_KV_CACHE.offered()),
        (SERVING_ENGINE.path, SERVING_ENGINE.offered()),
    ]
}

/// Every numeric and yes/no field, in the order of `docs/scenario.md`: the constants above, and
/// the plain fields defined here.
pub static FIELDS: &[&Field] = &[
    &VERSION,
    &MODEL_LAYERS,
    &MODEL_HIDDEN,
    &MODEL_HEADS,
    &MODEL_KV_HEADS,
    &MODEL_HEAD_DIM,
    &MODEL_FFN,
    &MODEL_VOCAB,
    &MODEL_SEQ_LEN,
    &MODEL_TIED_EMBEDDINGS,
    &MODEL_DROPOUT,
    &MODEL_CAUSAL,
    &MODEL_MTP_LAYERS,
    &MODEL_CROSS_ATTENTION_TOKENS,
    &MODEL_CROSS_ATTENTION_WIDTH,
    &MODEL_WINDOW_TOKENS,
    &MODEL_WINDOW_GLOBAL_EVERY,
    &MODEL_VISION_LAYERS,
    &MODEL_VISION_HIDDEN,
    &MODEL_VISION_HEADS,
    &MODEL_VISION_FFN,
    &MODEL_VISION_PATCH,
    &MODEL_VISION_IMAGE_TOKENS,
    &MODEL_VISION_IMAGES_PER_SAMPLE,
    &MODEL_VISION_TP,
    &MODEL_MAMBA_STATE,
    &MODEL_MAMBA_HEADS,
    &MODEL_MAMBA_HEAD_DIM,
    &MODEL_MAMBA_GROUPS,
    &MODEL_MAMBA_CONV,
    &MODEL_MAMBA_CHUNK,
    &MODEL_MAMBA_DT_RANK,
    &MODEL_LINEAR_HEADS,
    &MODEL_LINEAR_KEY_HEADS,
    &MODEL_LINEAR_HEAD_DIM,
    &MODEL_LINEAR_V_HEAD_DIM,
    &MODEL_LINEAR_CONV,
    &MODEL_LINEAR_CHUNK,
    &MODEL_LINEAR_LORA,
    &MODEL_MLA_Q_LORA_RANK,
    &MODEL_MLA_KV_LORA_RANK,
    &MODEL_MLA_ROPE_HEAD_DIM,
    &MODEL_MLA_V_HEAD_DIM,
    &MODEL_MOE_EXPERTS,
    &MODEL_MOE_TOP_K,
    &MODEL_MOE_SHARED_EXPERTS,
    &MODEL_MOE_EXPERT_FFN,
    &MODEL_MOE_DENSE_LAYERS,
    &MODEL_MOE_CAPACITY_FACTOR,
    &MODEL_MOE_IMBALANCE,
    &MODEL_MOE_NODE_LIMIT,
    &TRAINING_TOKENS,
    &TRAINING_GLOBAL_BATCH,
    &TRAINING_MAX_GLOBAL_BATCH_TOKENS,
    &CLUSTER_CHIPS,
    &CLUSTER_CHIPS_PER_NODE,
    &CLUSTER_SCALE_UP_DOMAIN_SIZE,
    &CLUSTER_CHIP_BF16_TFLOPS,
    &CLUSTER_CHIP_FP8_TFLOPS,
    &CLUSTER_CHIP_FP4_TFLOPS,
    &CLUSTER_CHIP_INT8_TOPS,
    &CLUSTER_CHIP_FP32_TFLOPS,
    &CLUSTER_CHIP_HBM_GB,
    &CLUSTER_CHIP_HBM_TB_PER_S,
    &CLUSTER_CHIP_HOST_GB_PER_S,
    &CLUSTER_CHIP_EXP_TERA_PER_S,
    &CLUSTER_CHIP_TDP_W,
    &CLUSTER_CHIP_MATMUL_EFFICIENCY,
    &CLUSTER_CHIP_MEMORY_EFFICIENCY,
    &CLUSTER_CHIP_PRICE_USD,
    &CLUSTER_SCALE_UP_BANDWIDTH_GB_PER_S,
    &CLUSTER_SCALE_UP_DOMAIN,
    &CLUSTER_SCALE_UP_LATENCY_US,
    &CLUSTER_SCALE_UP_EFFICIENCY,
    &CLUSTER_SCALE_OUT_GBIT_PER_S,
    &CLUSTER_SCALE_OUT_LATENCY_US,
    &CLUSTER_SCALE_OUT_EFFICIENCY,
    &CLUSTER_SYSTEM_NICS_PER_CHIP,
    &CLUSTER_SYSTEM_NODE_MAX_KW,
    &CLUSTER_SYSTEM_NODE_PEAK_KW,
    &CLUSTER_SYSTEM_NODES_PER_RACK,
    &CLUSTER_SYSTEM_NODE_PRICE_USD,
    &CLUSTER_SYSTEM_LIQUID,
    &CLUSTER_POWER_CAP_W,
    &PARALLELISM_FIRST_STAGE_LAYERS,
    &PARALLELISM_OFFLOAD_LAYERS,
    &CLUSTER_PLACEMENT_DOMAIN_CHIPS,
    &CLUSTER_BETWEEN_POOLS_GBIT_PER_S,
    &SITES_WAN_GBIT_PER_S,
    &SITES_WAN_LATENCY_MS,
    &PARALLELISM_DILOCO_INNER_STEPS,
    &PARALLELISM_DILOCO_STREAMING,
    &PARALLELISM_DILOCO_TOKEN_FACTOR,
    &CLUSTER_BETWEEN_POOLS_RDMA,
    &PARALLELISM_POOL_SHARES,
    &CLUSTER_FABRIC_PLANES,
    &CLUSTER_FABRIC_TIERS,
    &CLUSTER_FABRIC_OVERSUBSCRIPTION,
    &CLUSTER_FABRIC_IN_NETWORK_REDUCTION,
    &CLUSTER_FABRIC_SWITCH_PORTS,
    &CLUSTER_FABRIC_SWITCH_GBIT_PER_S,
    &CLUSTER_FABRIC_SWITCH_POWER_W,
    &CLUSTER_FABRIC_SWITCH_PRICE_USD,
    &FACILITY_PUE,
    &FACILITY_BUILT_YEAR,
    &FACILITY_RACK_KW,
    &FACILITY_INLET_C,
    &FACILITY_USD_TO_CNY,
    &number(
        "facility.usd_per_kwh",
        "USD/kWh",
        Fixed(0.0806),
        0.0,
        10.0,
        "US industrial average 8.06 cents per kWh in 2023 (EIA)",
    )
    .plain(place!(plant.facility.usd_per_kwh)),
    &number(
        "facility.kg_co2_per_kwh",
        "kg/kWh",
        Fixed(0.41),
        0.0,
        5.0,
        "0.41 kg/kWh location-based for Llama 3.1 (Meta model card)",
    )
    .plain(place!(plant.facility.kg_co2_per_kwh)),
    &number(
        "facility.build_usd_per_mw",
        "USD/MW",
        Fixed(11.7e6),
        0.0,
        1e9,
        "$11.7 M per MW of IT load, US average 2025 (Cushman & Wakefield)",
    )
    .scaled(1.0, 1e6)
    .plain(place!(plant.facility.build_usd_per_w)),
    &number(
        "facility.amortization_years",
        "years",
        Fixed(4.0),
        0.1,
        50.0,
        "accelerators are written off over 3 to 6 years",
    )
    .plain(place!(plant.facility.amortization_years)),
    &number(
        "facility.cloud_usd_per_chip_hour",
        "USD/h",
        Fixed(2.0),
        0.0,
        1_000.0,
        "$2 per H800-hour, DeepSeek-V3's cost basis",
    )
    .plain(place!(plant.facility.cloud_usd_per_chip_hour)),
    &number(
        "facility.maintenance_share_per_year",
        "",
        Fixed(0.05),
        0.0,
        1.0,
        "support contracts cost a few percent of the hardware's price a year",
    )
    .plain(place!(plant.facility.maintenance_share_per_year)),
    &number(
        "facility.power_floor",
        "",
        Fixed(0.0),
        0.0,
        0.9,
        "GB200 power smoothing holds a GPU at up to 90 % of its TDP (arXiv 2508.14318)",
    )
    .plain(place!(plant.facility.power_floor)),
    &number(
        "facility.checkpoints_kept",
        "",
        Fixed(3.0),
        1.0,
        1_000.0,
        "training frameworks keep the last 3 to 5 checkpoints",
    )
    .plain(place!(plant.facility.checkpoints_kept)),
    &number(
        "facility.storage_node_usd",
        "USD",
        Fixed(400_000.0),
        0.0,
        1e8,
        "an assumption: no public price of an AI400X2-class appliance was found; use a quote",
    )
    .plain(place!(plant.facility.storage_node_usd)),
    &RELIABILITY_STORAGE_GB_PER_S,
    &number(
        "reliability.restart_min",
        "min",
        Fixed(10.0),
        0.0,
        10_000.0,
        "MegaScale detects and diagnoses a fault in under 10 minutes",
    )
    .scaled(60.0, 1.0)
    .plain(place!(reliability.restart_s)),
    &number(
        "reliability.min_checkpoint_interval_s",
        "s",
        Fixed(300.0),
        0.0,
        1e6,
        "DeepSeek saves every 5 minutes (Fire-Flyer AI-HPC, SC24, section VII-A); hourly is usual",
    )
    .plain(place!(reliability.min_checkpoint_interval_s)),
    &RELIABILITY_REPAIR_H,
    &RELIABILITY_SPARE_NODES,
    &RELIABILITY_DEADLINE_DAYS,
    &RELIABILITY_RATES_CHIP,
    &RELIABILITY_RATES_HBM,
    &RELIABILITY_RATES_HOST,
    &RELIABILITY_RATES_SOFTWARE,
    &RELIABILITY_RATES_NIC,
    &RELIABILITY_RATES_SWITCH,
    &RELIABILITY_RATES_LINK,
    &PARALLELISM_TP,
    &PARALLELISM_PP,
    &PARALLELISM_DP,
    &PARALLELISM_EP,
    &PARALLELISM_ETP,
    &PARALLELISM_CP,
    &PARALLELISM_MICRO_BATCH,
    &PARALLELISM_VIRTUAL_STAGES,
    &PARALLELISM_ZERO,
    &PARALLELISM_SEQUENCE_PARALLEL,
    &PARALLELISM_DP_OVERLAP,
    &PARALLELISM_EP_OVERLAP,
    &PARALLELISM_CP_OVERLAP,
    &PARALLELISM_TP_OVERLAP,
    &PARALLELISM_PP_OVERLAP,
    &PARALLELISM_RECOMPUTE_ELEMENTWISE,
    &PARALLELISM_RECOMPUTE_MLP_UP,
    &CALIBRATION_MEASURED_STEP_S,
    &CALIBRATION_MEASURED_TOKENS_PER_S,
    &CALIBRATION_MEASURED_MFU,
    &SERVING_INPUT_TOKENS,
    &SERVING_OUTPUT_TOKENS,
    &SERVING_OUTPUT_SPREAD,
    &SERVING_TTFT_MS,
    &SERVING_TPOT_MS,
    &SERVING_REQUESTS_PER_S,
    &SERVING_TOKENS_PER_DAY,
    &SERVING_MAX_BATCH,
    &SERVING_TP,
    &SERVING_DP,
    &SERVING_EP,
    &SERVING_PREFILL_TP,
    &SERVING_PREFILL_DP,
    &SERVING_PREFILL_EP,
    &SERVING_DISAGGREGATED,
    &SERVING_CONTINUOUS_BATCHING,
    &SERVING_PORTABLE_KERNELS,
    &SERVING_TWO_BATCH_OVERLAP,
    &SERVING_UTILISATION,
    &SERVING_EXPERT_TP,
    &SERVING_PREFILL_EXPERT_TP,
    &SERVING_DRAFT_TOKENS,
    &SERVING_ACCEPTANCE_LENGTH,
    &SERVING_PREFIX_HIT_RATE,
    &SERVING_OFFLOAD_GB,
    &SERVING_MAX_TOKENS,
    &SERVING_PREFILL_INSTANCES,
    &SERVING_DECODE_INSTANCES,
    &SERVING_CONCURRENCY,
    &SERVING_KERNEL_SHARE,
    &RL_PROMPTS_PER_STEP,
    &RL_SAMPLES_PER_PROMPT,
    &RL_PROMPT_TOKENS,
    &RL_GENERATION_TOKENS,
    &RL_EPOCHS,
    &RL_STEPS,
    &RL_COLOCATED,
    &RL_GENERATION_CHIPS,
    &RL_REFERENCE,
    &RL_REWARD_MODEL,
    &RL_CRITIC,
    &YEAR_WEEKS,
    &YEAR_DELIVERIES_WEEK,
    &YEAR_DELIVERIES_CHIPS,
    &YEAR_DELIVERIES_RETIRE,
    &YEAR_POWER_WEEK,
    &YEAR_POWER_MW,
    &YEAR_JOBS_EARLIEST,
    &YEAR_JOBS_DEADLINE,
    &YEAR_JOBS_PRIORITY,
    &YEAR_JOBS_CHIPS_MIN,
    &YEAR_JOBS_CHIPS_MAX,
    &YEAR_JOBS_ELASTIC,
    &YEAR_JOBS_TOKENS_PER_DAY,
    &YEAR_JOBS_GROWTH_PER_MONTH,
    &YEAR_JOBS_PEAK_OVER_MEAN,
];

/// The keys of the fields directly inside the object at `section` (`cluster.chip`:
/// `bf16_tflops`, `hbm_gb`, ...): what a custom object may set.
pub fn keys_under(section: &str) -> impl Iterator<Item = &'static str> + '_ {
    FIELDS.iter().filter_map(move |f| {
        let key = f.path.strip_prefix(section)?.strip_prefix('.')?;
        (!key.contains('.')).then_some(key)
    })
}

/// The field at `path`, if it is in the table.
pub fn field(path: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.path == path).copied()
}

/// The plain fields directly inside `section`, in the table's order.
pub fn plain_under(section: &str) -> impl Iterator<Item = &'static Field> + '_ {
    FIELDS.iter().copied().filter(move |f| {
        f.place.is_some()
            && f.path.strip_prefix(section).and_then(|k| k.strip_prefix('.')) == Some(f.key())
    })
}

/// Whether `path` is a plain field (a section keeps it beside the keys it names).
pub fn is_plain(path: &str) -> bool {
    field(path).is_some_and(|f| f.place.is_some())
}

/// The one-click edits that answer a finding, shown beside its field (`warning_field`).
pub fn warning_fixes(w: &Warning) -> Vec<Fix> {
    match *w {
        Warning::BatchStarved { batch, .. } => vec![Fix {
            label: FixLabel::GlobalBatch(batch),
            changes: vec![(TRAINING_GLOBAL_BATCH.path.to_string(), Value::from(batch))],
        }],
        _ => Vec::new(),
    }
}

/// The input a serving problem concerns (`model::serving::Problem`), so the command-line tool
/// names it: the target missed, the figure that does not fit, the load.
pub fn serving_problem_field(p: &crate::model::serving::Problem) -> &'static str {
    use crate::model::serving::Problem;
    match p {
        Problem::DoesNotFit { .. } => "serving.kv_cache",
        Problem::ExpertsDoNotDivide { .. } => "serving.ep",
        Problem::TpotUnreachable { .. } => "serving.tpot_ms",
        Problem::TtftUnreachable { .. } | Problem::TtftAtLoad { .. } => "serving.ttft_ms",
        Problem::TooFewChips { .. } => "serving.requests_per_s",
    }
}

/// The input a finding concerns, so the page shows it next to that field and the command-line
/// tool names it.
pub fn warning_field(w: &Warning) -> &'static str {
    match w {
        Warning::DoesNotFit { .. } => "parallelism.recompute",
        Warning::DegreesMismatch { .. } => "parallelism.dp",
        Warning::PlacementShort { .. } => "cluster.placement.domain_chips",
        Warning::FirstStageTooLarge { .. } => "parallelism.first_stage_layers",
        Warning::TensorSplitsHeads { .. }
        | Warning::TensorReplicatesKvHeads { .. }
        | Warning::TensorCrossesDomain { .. } => "parallelism.tp",
        Warning::DomainBeyondFabric { .. } => "cluster.scale_up_domain",
        Warning::BatchNotDivisible { .. } | Warning::BatchStarved { .. } => "training.global_batch",
        // More replicas than sequences: the data-parallel degree is what is wrong.
        Warning::IdleReplicas { global_batch, dp, .. } if dp > global_batch => "parallelism.dp",
        Warning::IdleReplicas { .. } => "parallelism.micro_batch",
        Warning::LayersNotDivisible { .. }
        | Warning::StagesExceedLayers { .. }
        | Warning::FewMicrobatches { .. } => "parallelism.pp",
        Warning::InterleavingNeedsMultiple { .. }
        | Warning::InterleavingNeedsMicrobatches { .. } => "parallelism.virtual_stages",
        Warning::ExpertCrossesDomain { .. }
        | Warning::ExpertDegreeExceedsExperts { .. }
        | Warning::ExpertDegreeNotDivisible { .. }
        | Warning::ExpertParallelWithoutExperts { .. } => "parallelism.ep",
        Warning::ContextSplitsSequence { .. } => "parallelism.cp",
        Warning::UlyssesSplitsHeads { .. } => "parallelism.cp_kind",
        Warning::TensorSplitsMamba { .. } | Warning::TensorSplitsLinear { .. } => "parallelism.tp",
        Warning::VisionTensorSplit { .. } => "model.vision.tp",
        Warning::Fp8Unsupported | Warning::Fp4Unsupported | Warning::Int8Unsupported => {
            "training.recipe"
        }
        Warning::SelectiveWithFlash => "parallelism.recompute",
        Warning::CapBelowMeasured { .. } => "cluster.power_cap_w",
        Warning::EfficiencyAboveClass { .. } => "cluster.chip.matmul_efficiency",
        Warning::BeyondPublished { .. } => "cluster.chips",
        Warning::MeasuredBeyondPublished { .. } => "calibration",
        Warning::SequenceParallelWithoutTensor => "parallelism.sequence_parallel",
        Warning::ShardingWithoutReplicas => "parallelism.zero",
        Warning::VirtualStagesWithoutPipeline => "parallelism.virtual_stages",
        Warning::RackTooDense { .. } => "facility.cooling",
        Warning::HotInlet { .. } => "facility.inlet_c",
        Warning::ServersUnpriced => "cluster.system.node_price_usd",
        Warning::RatesBorrowed => "reliability.rates.chip",
        Warning::PortsSplit { .. } => "cluster.fabric.switch",
        Warning::NeverFinishes { .. } => "cluster.chips",
    }
}

/// The scenario path of a `model::Chip` figure, as the catalog's `unverified` lists name them.
pub fn chip_figure_path(name: &str) -> Option<&'static str> {
    Some(match name {
        "bf16_flops_per_s" => "cluster.chip.bf16_tflops",
        "fp8_flops_per_s" => "cluster.chip.fp8_tflops",
        "fp4_flops_per_s" => "cluster.chip.fp4_tflops",
        "int8_ops_per_s" => "cluster.chip.int8_tops",
        "fp32_flops_per_s" => "cluster.chip.fp32_tflops",
        "hbm_bytes" => "cluster.chip.hbm_gb",
        "hbm_bytes_per_s" => "cluster.chip.hbm_tb_per_s",
        "host_bytes_per_s" => "cluster.chip.host_gb_per_s",
        "exp_per_s" => "cluster.chip.exp_tera_per_s",
        "tdp_w" => "cluster.chip.tdp_w",
        "matmul_efficiency" => "cluster.chip.matmul_efficiency",
        "memory_efficiency" => "cluster.chip.memory_efficiency",
        "price_usd" => "cluster.chip.price_usd",
        _ => return None,
    })
}

/// The rows of `docs/scenario.md`'s table of `section` for its plain fields, as Markdown:
/// key, type, default, unit and what it means (`help` words a field).
pub fn plain_rows(section: &str, help: impl Fn(&Field) -> String) -> String {
    let mut out = String::new();
    for f in plain_under(section) {
        let kind = match (f.kind, f.min) {
            (Kind::Fraction, _) => "fraction".to_string(),
            (_, min) if min <= 0.0 => "0 or more".to_string(),
            (Kind::Count, min) => format!("count, at least {}", f.show(min)),
            (_, min) => format!("number, at least {}", f.show(min)),
        };
        let default = if let Fallback::Fixed(x) = f.default { f.show(x) } else { String::new() };
        out.push_str(&format!(
            "| `{}` | {kind} | {default} | {} | {} |\n",
            f.key(),
            f.unit,
            help(f)
        ));
    }
    out
}

/// The range table of `docs/scenario.md`, as Markdown.
pub fn markdown() -> String {
    let mut out =
        String::from("| Key | Kind | Unit | Plausible range | Why |\n|---|---|---|---|---|\n");
    for f in FIELDS.iter().filter(|f| f.kind != Kind::Flag) {
        let kind = match f.kind {
            Kind::Count => "count",
            Kind::Number => "number",
            Kind::Fraction => "fraction",
            Kind::Flag => "flag",
        };
        let low = f.show(f.min);
        out.push_str(&format!(
            "| `{}` | {kind} | {} | {low} to {} | {} |\n",
            f.path,
            f.unit,
            f.show(f.max),
            f.why
        ));
    }
    out
}
