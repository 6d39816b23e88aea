//! The shareable form of a plan: what the user typed, serializable and versioned.
//!
//! Every leaf is kept as the raw JSON value the user gave, so a wrong type, a negative count
//! or an unknown key can be reported by its dotted path instead of failing the whole parse.
//! `Scenario::resolve` turns a scenario into validated `model::Inputs` or lists every bad field.
//! Compatibility: keys are only ever added with defaults; an existing key never changes
//! meaning; `version` rises only when that promise cannot be kept, and old versions keep
//! decoding. This module knows nothing about the browser or the model's formulas.

pub mod describe;
mod edit;
pub mod fields;
mod plant;
mod resolve;
pub mod url;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{Estimate, Inputs};

pub use edit::value_at;
pub use resolve::{Fix, InputError};

/// The newest scenario format this build reads and writes.
pub const VERSION: u64 = 1;

/// A raw leaf value: whatever JSON the user wrote, checked by `resolve`.
pub type Raw = Option<Value>;

/// A whole plan as typed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Format version; absent means 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Raw,
    /// The transformer.
    #[serde(default)]
    pub model: ModelSpec,
    /// Token budget, batch and recipe.
    #[serde(default)]
    pub training: TrainingSpec,
    /// The machine.
    #[serde(default)]
    pub cluster: ClusterSpec,
    /// How the work is split.
    #[serde(default)]
    pub parallelism: ParallelismSpec,
    /// The site: cooling, power and prices.
    #[serde(default, skip_serializing_if = "FacilitySpec::is_empty")]
    pub facility: FacilitySpec,
    /// Failures, checkpoints and recovery.
    #[serde(default, skip_serializing_if = "ReliabilitySpec::is_empty")]
    pub reliability: ReliabilitySpec,
    /// Keys this build does not know; reported by `resolve`.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// The site: cooling, power usage effectiveness, rack limit and prices. Every key has a cited
/// default (`docs/assumptions.md`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FacilitySpec {
    /// `air`, `liquid` or `hybrid`; default the system's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cooling: Raw,
    /// Power usage effectiveness; default by cooling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pue: Raw,
    /// Power one rack position takes, kW; default the system's rack as designed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_kw: Raw,
    /// Electricity, USD per kWh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_kwh: Raw,
    /// Grid carbon intensity, kg CO2 per kWh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kg_co2_per_kwh: Raw,
    /// Building cost per MW of IT load, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_usd_per_mw: Raw,
    /// Years hardware and building are paid off over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amortization_years: Raw,
    /// Cloud rental, USD per chip-hour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cloud_usd_per_chip_hour: Raw,
    /// Keys this build does not know.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// Failures, checkpoints and recovery; every key has a cited default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReliabilitySpec {
    /// `sync`, `async` or `in-memory`; default `async`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Raw,
    /// Aggregate storage write bandwidth, GB/s; default scales with the chips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_gb_per_s: Raw,
    /// Detection, restart and catch-up per interruption, minutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_min: Raw,
    /// Failures per million component-hours, by class (`chip`, `hbm`, `host`, `software`,
    /// `nic`, `switch`, `link`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rates: Raw,
    /// Keys this build does not know.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

impl ReliabilitySpec {
    /// Nothing set, so older scenarios serialize as they always did.
    pub fn is_empty(&self) -> bool {
        *self == ReliabilitySpec::default()
    }
}

impl FacilitySpec {
    /// Nothing set, so older scenarios serialize as they always did.
    pub fn is_empty(&self) -> bool {
        *self == FacilitySpec::default()
    }
}

/// The transformer: a preset id, dimensions, or a preset with some dimensions overridden.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelSpec {
    /// Transformer preset id (`llama3-405b`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Raw,
    /// Decoder layers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Raw,
    /// Model width.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Raw,
    /// Query heads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heads: Raw,
    /// Key/value heads; defaults to `heads`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_heads: Raw,
    /// Head width; defaults to `hidden / heads`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_dim: Raw,
    /// Dense feed-forward width.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ffn: Raw,
    /// `gelu`, `relu` or `swiglu`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ffn_act: Raw,
    /// Vocabulary size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vocab: Raw,
    /// Training sequence length, tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq_len: Raw,
    /// Input and output embeddings share weights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tied_embeddings: Raw,
    /// `flash` or `materialized`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention: Raw,
    /// Dropout layers present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropout: Raw,
    /// Multi-token-prediction modules (DeepSeek-V3); default the preset's, else 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mtp_layers: Raw,
    /// Mixture of experts: an object, or `null`/`false` to make a preset dense.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "keep_null")]
    pub moe: Raw,
    /// Keys this build does not know.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// Token budget, batch and recipe.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingSpec {
    /// Tokens to train on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Raw,
    /// Sequences per optimizer step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_batch: Raw,
    /// `megatron-bf16`, `torch-amp` or `fp8`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe: Raw,
    /// Keys this build does not know.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// The machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClusterSpec {
    /// Chip preset id, or an object with `preset` and/or figures (see docs/scenario.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chip: Raw,
    /// Chips in the cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips: Raw,
    /// Chips per server; defaults to the chip preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips_per_node: Raw,
    /// Scale-up fabric id or object; defaults to the chip preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_up: Raw,
    /// Chips per scale-up domain, overriding the fabric's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_up_domain: Raw,
    /// Scale-out fabric id or object; defaults to the chip preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_out: Raw,
    /// System (server or rack-scale system) id or object; defaults to the chip's system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Raw,
    /// The scale-out fabric's build: `switch`, `planes`, `tiers`, `oversubscription`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fabric: Raw,
    /// Keys this build does not know.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// Parallel degrees and schedule.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ParallelismSpec {
    /// Tensor-parallel degree; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tp: Raw,
    /// Pipeline stages; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pp: Raw,
    /// Data-parallel replicas; default: chips / (tp x pp x cp).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dp: Raw,
    /// Expert-parallel degree; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ep: Raw,
    /// Context-parallel degree; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Raw,
    /// Sequences per micro-batch; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub micro_batch: Raw,
    /// Virtual stages per pipeline rank; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_stages: Raw,
    /// ZeRO stage 0-3 (3 = FSDP); default 1 (Megatron's distributed optimizer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zero: Raw,
    /// `none`, `selective` or `full`; default `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recompute: Raw,
    /// Sequence parallelism; default on whenever tp > 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence_parallel: Raw,
    /// Data-parallel reduction overlapped with backward; default true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dp_overlap: Raw,
    /// Expert all-to-all overlapped with another micro-batch (DualPipe); default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ep_overlap: Raw,
    /// Context-parallel exchange overlapped with attention (ring attention); default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp_overlap: Raw,
    /// Keys this build does not know.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// Reads a present key as `Some`, even when its value is `null` (serde would make that `None`).
fn keep_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
    Value::deserialize(d).map(Some)
}

/// Why a scenario document could not be read at all.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseError {
    /// Occurs when the text is not JSON, or not an object (or array of objects).
    Syntax(String),
    /// Occurs when the document says it is from a newer format than this build reads.
    FutureVersion(u64),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Syntax(e) => write!(f, "not a scenario: {e}"),
            ParseError::FutureVersion(v) => write!(
                f,
                "scenario format version {v} is newer than this build reads (up to {VERSION})"
            ),
        }
    }
}

impl std::error::Error for ParseError {}

impl Scenario {
    /// Reads one scenario from a JSON value.
    pub fn from_value(value: Value) -> Result<Scenario, ParseError> {
        if !value.is_object() {
            return Err(ParseError::Syntax("expected a JSON object".to_string()));
        }
        let scenario: Scenario =
            serde_json::from_value(value).map_err(|e| ParseError::Syntax(e.to_string()))?;
        if let Some(v) = scenario.version.as_ref().and_then(Value::as_u64) {
            if v > VERSION {
                return Err(ParseError::FutureVersion(v));
            }
        }
        Ok(scenario)
    }

    /// Reads one scenario, or a JSON array of them, from text.
    pub fn parse_many(text: &str) -> Result<Vec<Scenario>, ParseError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| ParseError::Syntax(e.to_string()))?;
        match value {
            Value::Array(items) => items.into_iter().map(Scenario::from_value).collect(),
            other => Ok(vec![Scenario::from_value(other)?]),
        }
    }

    /// The one validity policy the command-line tool, the page and the plan search share: a
    /// scenario whose fields do not resolve is rejected with every bad field; one that
    /// resolves is always estimated, and the estimate says whether it can run
    /// (`Estimate::feasible`, `Estimate::problems`) and what is suspicious about it.
    pub fn evaluate(&self) -> Result<(Inputs, Estimate), Vec<InputError>> {
        let inputs = self.resolve()?;
        let estimate = crate::model::estimate(&inputs);
        Ok((inputs, estimate))
    }

    /// The scenario as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The plan the app opens with: Llama 3.1 405B on 16,384 H100s with Meta's tensor and
    /// pipeline degrees (Llama 3 report, arXiv:2407.21783, Table 4), and context parallelism of
    /// 2 so that standard Megatron activations fit without recomputation.
    pub fn default_plan() -> Scenario {
        // The data-parallel degree is left to follow the chip count.
        let json = serde_json::json!({
            "model": { "preset": "llama3-405b" },
            "training": { "tokens": "15.6T", "global_batch": 2048, "recipe": "megatron-bf16" },
            "cluster": { "chip": "h100-sxm", "chips": 16384, "scale_out": "roce-400g" },
            "parallelism": { "tp": 8, "pp": 16, "cp": 2, "micro_batch": 1, "virtual_stages": 4,
                             "zero": 1, "recompute": "none", "sequence_parallel": true }
        });
        Scenario::from_value(json).unwrap_or_default()
    }
}
