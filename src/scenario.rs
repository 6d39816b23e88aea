//! The shareable form of a plan: what the user typed, serializable and versioned.
//!
//! Every leaf is kept as the raw JSON value the user gave, so a wrong type, a negative count
//! or an unknown key can be reported by its dotted path instead of failing the whole parse.
//! `Scenario::resolve` turns a scenario into validated `model::Inputs` or lists every bad field.
//! Compatibility: keys are only ever added with defaults; an existing key never changes
//! meaning; `version` rises only when that promise cannot be kept, and old versions keep
//! decoding. This module knows nothing about the browser or the model's formulas.

mod aside;
mod calibration;
pub mod describe;
mod edit;
pub mod fields;
mod json;
pub mod leaves;
pub mod paths;
mod plant;
mod pools;
mod problem;
mod resolve;
mod serving;
pub mod url;
pub mod user_catalog;
pub mod year;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::{Estimate, Inputs};

pub use aside::Aside;
pub use calibration::{merge, Calibration, MEASURES};
pub use edit::{value_at, Path};
pub use pools::{Pools, Sites, MAX_POOLS, MAX_SITES};
pub use resolve::{Catalog, Fix, FixLabel, InputError, Problem};

/// The newest scenario format this build reads and writes.
pub const VERSION: u64 = 1;

/// A raw leaf value: whatever JSON the user wrote, checked by `resolve`.
pub type Raw = Option<Value>;

/// Defines a scenario section: a struct of the raw leaves `resolve` reads by its own rules,
/// read from a JSON object key by key and written back. Every other key is kept in `others`:
/// the section's plain fields (`fields::plain_under`), which `resolve` reads from the field
/// table, and keys this build does not know, which it reports. Written by hand rather than derived: the
/// derived form of flattened unknown keys costs the app a tenth of its download.
macro_rules! section {
    ($(#[$meta:meta])* $name:ident { $($(#[$doc:meta])* $field:ident,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $($(#[$doc])* pub $field: Raw,)*
            /// The plain fields set, and keys this build does not know.
            pub others: BTreeMap<String, Value>,
        }

        impl $name {
            #[allow(unused_mut)] // a section of plain keys only takes none out
            fn from_map(mut map: Map<String, Value>) -> $name {
                $name {
                    $($field: take(&mut map, stringify!($field)),)*
                    others: map.into_iter().collect(),
                }
            }

            fn to_map(&self) -> Map<String, Value> {
                let mut map = Map::new();
                $(if let Some(v) = &self.$field {
                    map.insert(stringify!($field).to_string(), v.clone());
                })*
                map.extend(self.others.iter().map(|(k, v)| (k.clone(), v.clone())));
                map
            }

            /// Nothing set, so older scenarios serialize as they always did.
            pub fn is_empty(&self) -> bool {
                *self == $name::default()
            }
        }
    };
}

/// Takes a key out of a section: `null` counts as absent, except for `moe`, where `null`
/// removes a preset's experts.
fn take(map: &mut Map<String, Value>, key: &str) -> Raw {
    match map.remove(key) {
        Some(Value::Null) if key != "moe" => None,
        other => other,
    }
}

/// The object at `key` of a scenario, for a section; `Err` names a key that is not an object.
fn object(map: &mut Map<String, Value>, key: &str) -> Result<Map<String, Value>, ParseError> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(inner)) => Ok(inner),
        Some(other) => Err(ParseError::Syntax(format!("'{key}' must be an object, got {other}"))),
    }
}

/// A whole plan as typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    /// Format version; absent means 1.
    pub version: Raw,
    /// The transformer.
    pub model: TransformerSpec,
    /// Token budget, batch and recipe.
    pub training: TrainingSpec,
    /// The machine.
    pub cluster: ClusterSpec,
    /// How the work is split.
    pub parallelism: ParallelismSpec,
    /// The site: cooling, power and prices.
    pub facility: FacilitySpec,
    /// Failures, checkpoints and recovery.
    pub reliability: ReliabilitySpec,
    /// How sizing and the deadline's chance answer.
    pub sizing: SizingSpec,
    /// Serving the model on the cluster; absent, nothing is served.
    pub serving: ServingSpec,
    /// Reinforcement-learning post-training; absent, none.
    pub rl: RlSpec,
    /// The user's own measurements, a list of `{ "scenario": changes, "measured": {..} }`
    /// (`calibration.rs`); the chip's GEMM efficiency is fitted to them.
    pub calibration: Raw,
    /// Sites far apart the cluster's pools stand in, a list of `{ "name", "wan_gbit_per_s",
    /// "wan_latency_ms", "facility" }` (`pools.rs`); default one site.
    pub sites: Raw,
    /// The cluster's year: jobs on the fleet over weeks (`year.rs`); absent, none.
    pub year: Raw,
    /// Keys this build does not know; reported by `resolve`.
    pub unknown: BTreeMap<String, Value>,
    /// `serving` and `rl` written as empty objects: asked for at their defaults, and written
    /// back as they came.
    pub asked_empty: Vec<&'static str>,
}

/// The sections an empty object asks for at their defaults (`Scenario::asked_empty`).
const ASKED_WHEN_EMPTY: [&str; 2] = ["serving", "rl"];

section! {
    /// The site: cooling, power usage effectiveness and rack limit; its prices are plain fields.
    /// Every key has a cited default (`docs/assumptions.md`).
    FacilitySpec {
        /// `air`, `liquid` or `hybrid`; default the system's.
        cooling,
        /// Power usage effectiveness; default by cooling and the year the site was built.
        pue,
        /// The year the site was built or last refitted; default 2026.
        built_year,
        /// Power one rack position takes, kW; default the system's rack as designed.
        rack_kw,
        /// Air the racks take in, °C; default 25.
        inlet_c,
        /// `usd` or `cny`: the money every figure is shown in; default `usd`.
        currency,
        /// Yuan per US dollar, for figures shown in yuan; default 7.19.
        usd_to_cny,
    }
}

section! {
    /// Failures, checkpoints and recovery; every key has a cited default.
    ReliabilitySpec {
        /// `sync`, `async` or `in-memory`; default `async`.
        checkpoint,
        /// Aggregate storage write bandwidth, GB/s; default scales with the chips.
        storage_gb_per_s,
        /// Failures per million component-hours, by class (`chip`, `hbm`, `host`, `software`,
        /// `nic`, `switch`, `link`).
        rates,
        /// `spare`, `wait`, `elastic` or `replica`: how a run goes on after a failure takes
        /// nodes; default `spare`.
        recovery,
        /// Spare nodes the site keeps; default a pool that never runs out.
        spare_nodes,
        /// Hours a failed node is out for repair or replacement; default 24.
        repair_h,
        /// Days the run must finish in; default none.
        deadline_days,
    }
}

section! {
    /// How sizing and the deadline's chance answer.
    SizingSpec {
        /// `central` (the estimate) or `p90` (the upper end of its range); default `central`.
        confidence,
    }
}

section! {
    /// Serving the model: requests, targets, load, formats and the deployment. Every key is a
    /// field or choice of the table (`fields::SERVING_*`), read by `scenario/serving.rs`.
    ServingSpec {}
}

section! {
    /// Reinforcement-learning post-training of the model: every key is a field of the table
    /// (`fields::RL_*`), read by `scenario/serving.rs`.
    RlSpec {}
}

section! {
    /// The transformer: a preset id, dimensions, or a preset with some dimensions overridden.
    TransformerSpec {
        /// Transformer preset id (`llama3-405b`).
        preset,
        /// Decoder layers.
        layers,
        /// Model width.
        hidden,
        /// Query heads.
        heads,
        /// Key/value heads; defaults to `heads`.
        kv_heads,
        /// Head width; defaults to `hidden / heads`.
        head_dim,
        /// Dense feed-forward width.
        ffn,
        /// `gelu`, `relu` or `swiglu`.
        ffn_act,
        /// Vocabulary size.
        vocab,
        /// Training sequence length, tokens.
        seq_len,
        /// Input and output embeddings share weights.
        tied_embeddings,
        /// `flash` or `materialized`.
        attention,
        /// Dropout layers present.
        dropout,
        /// Attention looks back only; `false` is bidirectional (a diffusion transformer).
        /// Default the preset's, else `true`.
        causal,
        /// Multi-token-prediction modules (DeepSeek-V3); default the preset's, else 0.
        mtp_layers,
        /// Mixture of experts: an object, or `null`/`false` to make a preset dense.
        moe,
        /// A vision encoder ahead of the model: `layers`, `hidden`, `heads`, `ffn`, `patch`,
        /// `image_tokens` per image and `images_per_sample`; `null` or `false` removes a
        /// preset's; default the preset's, else none.
        vision,
        /// Cross-attention in every layer to a context of `tokens` tokens per sample, `width`
        /// wide as it arrives (a diffusion transformer's text prompt); `null` or `false`
        /// removes a preset's; default the preset's, else none.
        cross_attention,
        /// Sliding-window attention: `tokens`, the window its windowed layers attend over, and
        /// `global_every`, every how many layers one attends over the whole sequence (0: none);
        /// `null` or `false` removes a preset's; default the preset's, else none.
        window,
        /// A hybrid's layers as Megatron-LM's `--hybrid-layer-pattern` writes them (`M` Mamba-2,
        /// `G` linear attention, `*` attention, `-` MLP, `E` experts); default the preset's,
        /// else a transformer.
        hybrid_pattern,
        /// The Mamba-2 mixer of a hybrid: `state`, `heads`, `head_dim`, `groups`, `conv`,
        /// `chunk`; default the preset's, else Megatron-LM's.
        mamba,
        /// The linear-attention mixer of a hybrid's `G` layers: `kind` (`gated_deltanet` or
        /// `rwkv7`), `heads`, `key_heads`, `head_dim`, `v_head_dim`, `conv`, `chunk`, `lora`;
        /// default the preset's, else Qwen3-Next's shape at the model's width.
        linear,
        /// Multi-head latent attention's dimensions (with `attention: "mla"`): `q_lora_rank`,
        /// `kv_lora_rank`, `rope_head_dim`, `v_head_dim`; default the preset's.
        mla,
    }
}

section! {
    /// Token budget, batch and recipe.
    TrainingSpec {
        /// Tokens to train on.
        tokens,
        /// Sequences per optimizer step.
        global_batch,
        /// The largest global batch the search and sizing may raise it to, tokens; default by
        /// the model's size from published runs.
        max_global_batch_tokens,
        /// `megatron-bf16`, `torch-amp` or `fp8`.
        recipe,
        /// The datatype gradients accumulate and reduce in: `fp32` (default) or `bf16`.
        grads,
        /// How weights and moments are kept: `mixed`, `fp32` or `bf16`; default the stack's.
        weights,
    }
}

section! {
    /// The machine.
    ClusterSpec {
        /// Chip preset id, or an object with `preset` and/or figures (see docs/scenario.md).
        chip,
        /// Chips in the cluster.
        chips,
        /// Chips per server; defaults to the chip preset's.
        chips_per_node,
        /// Scale-up fabric id or object; defaults to the chip preset's.
        scale_up,
        /// Chips per scale-up domain, overriding the fabric's.
        scale_up_domain,
        /// Scale-out fabric id or object; defaults to the chip preset's.
        scale_out,
        /// System (server or rack-scale system) id or object; defaults to the chip's system.
        system,
        /// The scale-out fabric's build: `switch`, `planes`, `tiers`, `oversubscription`.
        fabric,
        /// Board power each chip is capped at, W; default none.
        power_cap_w,
        /// How the job's ranks are laid out: `domain_chips`, the chips of each scale-up domain
        /// used (default all of them).
        placement,
        /// Further pools of chips beside the one this cluster describes, each an object of
        /// cluster keys (`chip`, `chips`, `system`, ...) with an optional `parallelism` of its
        /// own plan; default none (`pools.rs`).
        pools,
        /// The link between pools: `gbit_per_s`, required with `pools`, and `rdma`, whether
        /// RDMA works between them (default false: host-staged TCP).
        between_pools,
        /// The site (a name in `sites`) this cluster's pool stands in; default the first.
        site,
    }
}

section! {
    /// Parallel degrees and schedule.
    ParallelismSpec {
        /// Tensor-parallel degree; default 1.
        tp,
        /// Pipeline stages; default 1.
        pp,
        /// Data-parallel replicas; default: chips / (tp x pp x cp).
        dp,
        /// Expert-parallel degree; default 1.
        ep,
        /// Expert tensor-parallel degree; default: the tensor-parallel degree.
        etp,
        /// Context-parallel degree; default 1.
        cp,
        /// Sequences per micro-batch; default 1.
        micro_batch,
        /// Virtual stages per pipeline rank; default 1.
        virtual_stages,
        /// ZeRO stage 0-3 (3 = FSDP); default 1 (Megatron's distributed optimizer).
        zero,
        /// `none`, `selective` or `full`; default `none`.
        recompute,
        /// Sequence parallelism; default on whenever tp > 1.
        sequence_parallel,
        /// Data-parallel reduction overlapped with backward; default: on with `megatron-core`.
        dp_overlap,
        /// `alltoall` (Megatron-Core's all-to-all dispatcher) or `deepep` (one copy per remote
        /// domain, forwarded inside it); default `alltoall`.
        dispatcher,
        /// What the stack captures in CUDA graphs: `none`, `layers` (each layer), `partial`
        /// (attention and router, not the experts) or `full` (the whole iteration, the only one
        /// priced); default `none`.
        cuda_graphs,
        /// How the loss holds the logits: `fp32` (an FP32 copy and softmax, 6 bytes a logit),
        /// `in-place` (Transformer Engine's, 2) or `linear` (fused with the output layer, one
        /// chunk); default `fp32`.
        cross_entropy,
        /// Expert all-to-all overlapped with another micro-batch (DualPipe); default false.
        ep_overlap,
        /// Context-parallel exchange overlapped with attention (ring attention); default false.
        cp_overlap,
        /// How context parallelism exchanges attention inputs: `allgather`, `ring`, `ulysses`
        /// or `both`; default `ring` with `cp_overlap`, else `allgather`.
        cp_kind,
        /// `megatron-core` (data-, tensor- and pipeline-parallel communication overlapped, as
        /// Megatron-Core's README runs it) or `megatron-baseline` (no overlap flags, as the
        /// 2021-2023 papers ran Megatron-LM); default `megatron-core`.
        stack,
        /// Tensor-parallel communication pipelined with its GEMMs; default: on with `megatron-core`.
        tp_overlap,
        /// Pipeline sends overlapped with compute; default: on with `megatron-core`.
        pp_overlap,
        /// Norms and activation functions recomputed instead of stored; default false.
        recompute_elementwise,
        /// The dense feed-forward blocks' up-projections recomputed instead of stored;
        /// default false.
        recompute_mlp_up,
        /// Layers on the first pipeline stage; default: the model's split.
        first_stage_layers,
        /// Layers of each chip whose stored activations wait in host memory; default 0.
        offload_layers,
        /// How one job spans the cluster's pools: `data`, `pipeline` or `separate`; default
        /// `data`.
        across_pools,
        /// How one job spans `sites`: `sync` or `diloco`; default `sync`.
        across_sites,
        /// DiLoCo's inner steps between exchanges; default 100.
        diloco_inner_steps,
        /// DiLoCo's exchange runs behind the next inner steps (Streaming DiLoCo); default false.
        diloco_streaming,
        /// Tokens DiLoCo needs for the quality synchronous training reaches, as a multiple of
        /// `training.tokens`; default 1 (its published equivalence).
        diloco_token_factor,
        /// Each pool's share of the batch (data) or layers (pipeline), the cluster's own pool
        /// first, scaled to sum to 1; default: in proportion to speed.
        pool_shares,
    }
}

/// Why a scenario document could not be read at all.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseError {
    /// Occurs when the text is not JSON, or not an object (or array of objects).
    Syntax(String),
    /// Occurs when the document says it is from a newer format than this build reads.
    FutureVersion(u64),
    /// Occurs when one object writes a key twice: the scenario's place in an array, and the
    /// key's dotted path in it.
    DuplicateKey { place: Option<usize>, path: String },
}

impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Scenario, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Scenario::from_value(value).map_err(serde::de::Error::custom)
    }
}

impl std::error::Error for ParseError {}

/// A plan's names (`Scenario::title`); `None` where the part has no name (a custom chip
/// without one, a model given by its dimensions).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Title {
    pub chip: Option<String>,
    pub chips: Option<f64>,
    pub system: Option<String>,
    pub model: Option<String>,
    /// The fields of the model section that change its preset, by path with their values
    /// (`model.moe.experts` 384, `model.seq_len` 4096), in the order written; empty for a
    /// preset as published or a model of its own dimensions.
    pub model_changes: Vec<(String, Value)>,
    pub scale_up: Option<String>,
    pub scale_out: Option<String>,
}

/// A scenario ready for the plan search (`Scenario::for_search`).
#[derive(Clone, Debug)]
pub struct Searchable {
    /// The scenario found plans are applied to (`Scenario::with_plan`).
    pub scenario: Scenario,
    /// Its inputs: the workload and cluster the search splits.
    pub inputs: Inputs,
    /// The typed plan, or why the scenario does not resolve with it.
    pub typed: Result<crate::model::Parallelism, Vec<InputError>>,
}

/// How a scenario names its chip (`cluster.chip`): the one reader of that key's forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChipRef<'a> {
    /// Not named: the default chip.
    Default,
    /// A catalogue chip, by id (`"h100-sxm"`, or `{ "preset": "h100-sxm" }` alone).
    Preset(&'a str),
    /// A chip of the user's own figures, with the preset it starts from and the name it
    /// gives itself, where it has them.
    Custom { preset: Option<&'a str>, name: Option<&'a str> },
}

impl<'a> ChipRef<'a> {
    /// The chip a raw `cluster.chip` names.
    pub fn of(raw: Option<&'a Value>) -> ChipRef<'a> {
        match raw {
            None | Some(Value::Null) => ChipRef::Default,
            Some(Value::String(id)) => ChipRef::Preset(id),
            Some(Value::Object(map)) => {
                let text = |key: &str| map.get(key).and_then(Value::as_str);
                match text("preset") {
                    Some(id) if map.len() == 1 => ChipRef::Preset(id),
                    preset => ChipRef::Custom { preset, name: text("name") },
                }
            }
            Some(_) => ChipRef::Custom { preset: None, name: None },
        }
    }

    /// The catalogue chip's id, when the chip is one unchanged.
    pub fn preset(self) -> Option<&'a str> {
        match self {
            ChipRef::Preset(id) => Some(id),
            _ => None,
        }
    }
}

impl Scenario {
    /// How the scenario names its chip.
    pub fn chip_ref(&self) -> ChipRef<'_> {
        ChipRef::of(self.cluster.chip.as_ref())
    }

    /// Reads one scenario from a JSON value.
    pub fn from_value(value: Value) -> Result<Scenario, ParseError> {
        if !value.is_object() {
            return Err(ParseError::Syntax("expected a JSON object".to_string()));
        }
        let Value::Object(mut map) = value else {
            return Err(ParseError::Syntax("expected a JSON object".to_string()));
        };
        let asked_empty: Vec<&'static str> = ASKED_WHEN_EMPTY
            .into_iter()
            .filter(|key| map.get(*key).and_then(Value::as_object).is_some_and(Map::is_empty))
            .collect();
        let scenario = Scenario {
            version: take(&mut map, "version"),
            model: TransformerSpec::from_map(object(&mut map, "model")?),
            training: TrainingSpec::from_map(object(&mut map, "training")?),
            cluster: ClusterSpec::from_map(object(&mut map, "cluster")?),
            parallelism: ParallelismSpec::from_map(object(&mut map, "parallelism")?),
            facility: FacilitySpec::from_map(object(&mut map, "facility")?),
            reliability: ReliabilitySpec::from_map(object(&mut map, "reliability")?),
            sizing: SizingSpec::from_map(object(&mut map, "sizing")?),
            serving: ServingSpec::from_map(object(&mut map, "serving")?),
            rl: RlSpec::from_map(object(&mut map, "rl")?),
            calibration: take(&mut map, "calibration"),
            sites: take(&mut map, "sites"),
            year: take(&mut map, "year"),
            unknown: map.into_iter().collect(),
            asked_empty,
        };
        if let Some(v) = scenario.version.as_ref().and_then(Value::as_u64) {
            if v > VERSION {
                return Err(ParseError::FutureVersion(v));
            }
        }
        Ok(scenario)
    }

    /// The catalog chip the scenario's cluster is built from (by id, or a custom chip that
    /// starts from a preset), if any.
    pub fn chip_preset(&self) -> Option<&'static crate::model::presets::ChipPreset> {
        let id = match self.cluster.chip.as_ref()? {
            Value::String(id) => id.as_str(),
            Value::Object(map) => map.get("preset")?.as_str()?,
            _ => return None,
        };
        crate::model::presets::chip(id.trim())
    }

    /// What the plan is, as people name it: the chip, how many, the system and the model, by
    /// their display names (a custom part by the name it was given, if any).
    pub fn title(&self) -> Title {
        use crate::model::presets;
        let named = |raw: &Raw| match raw {
            Some(Value::Object(map)) => map.get("name").and_then(Value::as_str).map(str::to_string),
            _ => None,
        };
        let preset_id = |raw: &Raw| match raw {
            Some(Value::String(id)) => Some(id.trim().to_string()),
            Some(Value::Object(map)) => {
                map.get("preset").and_then(Value::as_str).map(str::to_string)
            }
            _ => None,
        };
        let chip_preset = self.chip_preset();
        let chip = named(&self.cluster.chip).or_else(|| chip_preset.map(|p| p.name.to_string()));
        let system =
            named(&self.cluster.system).or_else(|| match preset_id(&self.cluster.system) {
                Some(id) => presets::system(&id).map(|p| p.name.to_string()),
                None => chip_preset
                    .and_then(|c| presets::system_for_chip(c.id))
                    .map(|p| p.name.to_string()),
            });
        let model = preset_id(&self.model.preset)
            .and_then(|id| presets::transformer(&id).map(|p| p.name.to_string()));
        let chips = self.cluster.chips.as_ref().and_then(|v| match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => crate::numbers::parse(s).ok(),
            _ => None,
        });
        let fabric =
            |raw: &Raw, of_chip: Option<&'static str>, find: fn(&str) -> Option<&'static str>| {
                named(raw).or_else(|| {
                    preset_id(raw)
                        .or(of_chip.map(str::to_string))
                        .and_then(|id| find(&id))
                        .map(str::to_string)
                })
            };
        let scale_up = fabric(&self.cluster.scale_up, chip_preset.map(|c| c.scale_up), |id| {
            presets::scale_up(id).map(|p| p.name)
        });
        let scale_out = fabric(&self.cluster.scale_out, chip_preset.map(|c| c.scale_out), |id| {
            presets::scale_out(id).map(|p| p.name)
        });
        let model_changes = match model {
            Some(_) => {
                let mut changes = Vec::new();
                for (key, value) in self.model.to_map().into_iter().filter(|(k, _)| k != "preset") {
                    match value {
                        Value::Object(inner) => changes.extend(
                            inner.into_iter().map(|(k, v)| (format!("model.{key}.{k}"), v)),
                        ),
                        value => changes.push((format!("model.{key}"), value)),
                    }
                }
                changes
            }
            None => Vec::new(),
        };
        Title { chip, chips, system, model, model_changes, scale_up, scale_out }
    }

    /// Reads one scenario, or a JSON array of them, from text.
    pub fn parse_many(text: &str) -> Result<Vec<Scenario>, ParseError> {
        let mut scenarios = Vec::new();
        Scenario::each(text, |_, s| scenarios.push(s))?;
        Ok(scenarios)
    }

    /// Calls `each` with every scenario of a document, one object or an array of them (with
    /// its place), reading one at a time: a file of any length is never in memory whole. A
    /// key written twice is refused by its path, a leading byte-order mark skipped.
    pub fn each(
        text: &str,
        mut each: impl FnMut(Option<usize>, Scenario),
    ) -> Result<(), ParseError> {
        let read =
            json::each(text, |place, value| Scenario::from_value(value).map(|s| each(place, s)));
        match read {
            Ok(outcome) => outcome,
            Err(json::JsonError::Syntax(why)) => Err(ParseError::Syntax(why)),
            Err(json::JsonError::Duplicate { place, path }) => {
                Err(ParseError::DuplicateKey { place, path })
            }
        }
    }

    /// The scenario to estimate instead when its only error is a chip count the plan does not
    /// divide: the plan kept on the largest count it divides, with the chips left idle
    /// (`FixLabel::KeepIdle`), so that any count answers. `None` for any other error.
    pub fn idle_kept(&self, errors: &[InputError]) -> Option<(u64, Scenario)> {
        let [only] = errors else { return None };
        only.fixes.iter().find_map(|f| match f.label {
            FixLabel::KeepIdle { idle, .. } => Some((
                idle,
                f.changes
                    .iter()
                    .fold(self.clone(), |s, (path, v)| s.with_at(path, Some(v.clone()))),
            )),
            _ => None,
        })
    }

    /// The scenario's own plan resolved (its measurements applied) and estimated, its pools
    /// and sites aside: what a search, a sizing and the rows of their results judge each
    /// candidate by. A whole scenario, as the page, the worker and the command line show it,
    /// is judged by `evaluation::evaluate`, the one judge.
    pub fn estimated(&self) -> Result<(Inputs, Estimate), Vec<InputError>> {
        let inputs = self.resolve()?;
        let estimate = crate::model::estimate(&inputs);
        Ok((inputs, estimate))
    }

    /// The scenario with `plan`'s degrees and schedule (`describe::plan`) in place of its own,
    /// the overlaps as they were. On a cluster of `n_chips` that the plan fills, the
    /// data-parallel degree is left to follow the chips; a plan that leaves chips idle keeps
    /// its own.
    pub fn with_plan(&self, plan: &crate::model::Parallelism, n_chips: u32) -> Scenario {
        let mut s = self.clone();
        let mut keys = describe::plan(plan);
        let p = &mut s.parallelism;
        for (key, slot) in [
            ("tp", &mut p.tp),
            ("pp", &mut p.pp),
            ("cp", &mut p.cp),
            ("ep", &mut p.ep),
            ("etp", &mut p.etp),
            ("micro_batch", &mut p.micro_batch),
            ("virtual_stages", &mut p.virtual_stages),
            ("zero", &mut p.zero),
            ("recompute", &mut p.recompute),
            ("sequence_parallel", &mut p.sequence_parallel),
            ("recompute_elementwise", &mut p.recompute_elementwise),
            ("cp_kind", &mut p.cp_kind),
        ] {
            *slot = keys.remove(key);
        }
        // Found plans split the layers by the model's rule.
        p.first_stage_layers = None;
        let used = [plan.tensor, plan.pipeline, plan.data, plan.context]
            .iter()
            .fold(1u64, |product, &d| product.saturating_mul(d.max(1) as u64));
        p.dp = (used != n_chips as u64).then(|| Value::from(plan.data));
        s
    }

    /// The scenario with a plan the search found in place of its own (`with_plan`), on the
    /// placement it was found on (`cluster.placement`).
    pub fn with_found(&self, plan: &crate::model::search::Plan, n_chips: u32) -> Scenario {
        let mut s = self.with_plan(&plan.parallelism, n_chips);
        s.cluster.placement = match plan.domain_chips {
            0 => None,
            used => Some(serde_json::json!({ "domain_chips": used })),
        };
        // A batch the search raised is part of the plan.
        let typed = s.resolve_own().ok().map(|i| i.training.global_batch);
        if typed.is_some_and(|b| b != plan.global_batch) {
            s.training.global_batch = Some(Value::from(plan.global_batch));
        }
        s
    }

    /// Where a plan search starts: the scenario to apply found plans to, its inputs, and the
    /// typed plan to place among them. When the scenario resolves, that is the scenario itself
    /// and its plan. When only its plan keeps it from resolving (degrees that do not divide the
    /// chips, a degree out of range), the search still runs on the cluster without the plan,
    /// and the typed plan's errors say why it is not placed: the typed degrees never block a
    /// search. Errs when the scenario is wrong beyond its plan.
    pub fn for_search(&self) -> Result<Searchable, Vec<InputError>> {
        match self.resolve() {
            Ok(inputs) => {
                Ok(Searchable { scenario: self.clone(), typed: Ok(inputs.parallelism), inputs })
            }
            Err(errors) => {
                let scenario = self.without_plan();
                let inputs = scenario.resolve()?;
                Ok(Searchable { scenario, inputs, typed: Err(errors) })
            }
        }
    }

    /// The scenario with its parallel degrees and schedule cleared, so that any chip count
    /// resolves (every chip one data-parallel rank); the software stack and its overlaps are
    /// kept. The plan search and sizing start from it when the typed degrees do not divide
    /// the chips.
    pub fn without_plan(&self) -> Scenario {
        let mut s = self.clone();
        let p = &mut s.parallelism;
        for key in [
            &mut p.tp,
            &mut p.pp,
            &mut p.dp,
            &mut p.cp,
            &mut p.ep,
            &mut p.etp,
            &mut p.micro_batch,
            &mut p.virtual_stages,
            &mut p.zero,
            &mut p.recompute,
            &mut p.sequence_parallel,
            &mut p.recompute_elementwise,
            &mut p.first_stage_layers,
        ] {
            *key = None;
        }
        s
    }

    /// The scenario as a JSON value, keys in the format's order.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        if let Some(v) = &self.version {
            map.insert("version".into(), v.clone());
        }
        map.insert("model".into(), Value::Object(self.model.to_map()));
        map.insert("training".into(), Value::Object(self.training.to_map()));
        map.insert("cluster".into(), Value::Object(self.cluster.to_map()));
        map.insert("parallelism".into(), Value::Object(self.parallelism.to_map()));
        if !self.facility.is_empty() {
            map.insert("facility".into(), Value::Object(self.facility.to_map()));
        }
        if !self.reliability.is_empty() {
            map.insert("reliability".into(), Value::Object(self.reliability.to_map()));
        }
        if !self.sizing.is_empty() {
            map.insert("sizing".into(), Value::Object(self.sizing.to_map()));
        }
        if !self.serving.is_empty() || self.asked_empty.contains(&"serving") {
            map.insert("serving".into(), Value::Object(self.serving.to_map()));
        }
        if !self.rl.is_empty() || self.asked_empty.contains(&"rl") {
            map.insert("rl".into(), Value::Object(self.rl.to_map()));
        }
        if let Some(v) = &self.calibration {
            map.insert("calibration".into(), v.clone());
        }
        if let Some(v) = &self.sites {
            map.insert("sites".into(), v.clone());
        }
        if let Some(v) = &self.year {
            map.insert("year".into(), v.clone());
        }
        map.extend(self.unknown.iter().map(|(k, v)| (k.clone(), v.clone())));
        Value::Object(map)
    }

    /// The scenario as compact JSON.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// The scenario as JSON laid out to be read, as a file saves it.
    pub fn to_pretty_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_value()).unwrap_or_default()
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
