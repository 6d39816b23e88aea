//! `Scenario::resolve`: from what the user typed to validated model inputs, or every reason not.
//!
//! Units convert here, once: scenarios speak datasheet units (TFLOP/s, GB, TB/s, Gb/s, us),
//! the model speaks SI base units.

use std::collections::BTreeMap;

pub use super::problem::{Catalog, FixLabel, Problem};
use serde_json::Value;

use super::fields::{self, fixed, Field, Kind};
use super::leaves::{self, Leaf, Rule};
use super::{Raw, Scenario, VERSION};
use crate::model::presets;
use crate::model::{
    AttentionImpl, Chip, Cluster, CpKind, Cross, Dispatcher, FfnKind, Grads, Hybrid, Inputs,
    LinearKind, LinearMixer, Link, Mamba, MambaKind, Mla, Moe, Network, Parallelism, Recipe,
    Recompute, ScaleUp, Sharding, Stack, Training, Transformer, Vision, Weights, Window,
};
use crate::numbers::{self, NumberError};

/// One bad field.
#[derive(Clone, Debug, PartialEq)]
pub struct InputError {
    /// Dotted path of the field (`parallelism.tp`).
    pub field: String,
    /// What is wrong (`message` words it).
    pub problem: Problem,
    /// Edits that would each make the field valid, offered as one-click suggestions.
    pub fixes: Vec<Fix>,
}

/// One way to repair a field: what it does and the edits it makes, by dotted path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does (`9,984 chips`, as `text::fix` words it).
    pub label: FixLabel,
    /// The edits, by dotted path.
    pub changes: Vec<(String, Value)>,
}

impl InputError {
    /// An error with no suggested fix.
    pub fn new(field: &str, problem: Problem) -> InputError {
        InputError { field: field.to_string(), problem, fixes: Vec::new() }
    }
}

/// Collects errors while reading fields, so every problem is reported at once.
#[derive(Default)]
pub(super) struct Reader {
    errors: Vec<InputError>,
}

impl Reader {
    pub(super) fn error(&mut self, field: &str, problem: Problem) {
        self.errors.push(InputError::new(field, problem));
    }

    /// How many problems are reported so far.
    pub(super) fn count_errors(&self) -> usize {
        self.errors.len()
    }

    /// Names the problems reported since the first `since` at `path` instead of their field's
    /// own path (a field read for an entry of a list: `calibration.2.measured.mfu`).
    pub(super) fn place_since(&mut self, since: usize, path: &str) {
        for e in self.errors.iter_mut().skip(since) {
            e.field = path.to_string();
        }
    }

    /// Names the problems reported since the first `since` with `to` in place of the `from`
    /// their paths start with (`sites.wan_gbit_per_s` as `sites.1.wan_gbit_per_s`).
    pub(super) fn prefix_since(&mut self, since: usize, from: &str, to: &str) {
        for e in self.errors.iter_mut().skip(since) {
            if let Some(rest) = e.field.strip_prefix(from) {
                e.field = format!("{to}{rest}");
            }
        }
    }

    /// Every problem reported.
    pub(super) fn into_errors(self) -> Vec<InputError> {
        self.errors
    }

    /// Some field at `path` is already reported, so nothing is computed from its placeholder.
    pub(super) fn failed(&self, path: &str) -> bool {
        self.errors.iter().any(|e| e.field == path)
    }

    /// Reports the keys of `section` that are neither named by it nor plain fields of it.
    pub(super) fn unknown(&mut self, section: &str, keys: &BTreeMap<String, Value>) {
        for key in keys.keys() {
            let key = clip(key);
            let field = if section.is_empty() { key } else { format!("{section}.{key}") };
            if !fields::is_plain(&field) {
                self.error(&field, Problem::UnknownKey);
            }
        }
    }

    /// A plain field's value in its unit: its fixed default when absent.
    pub(super) fn plain(&mut self, raw: Option<&Value>, at: &Field) -> f64 {
        let default = match at.default {
            fields::Fallback::Fixed(x) => x,
            _ => 0.0,
        };
        let Some(value) = raw else { return default };
        if at.kind == Kind::Fraction {
            return self.fraction(&Some(value.clone()), at, default);
        }
        match self.number_value(value, at.path) {
            Some(x) if self.in_range(x, at) => x,
            _ => default,
        }
    }

    /// A number, from a JSON number or a string written the way people write numbers
    /// (`16,384`, `16k`, `14.8T`, `1.6万`; see `crate::numbers`).
    pub(super) fn number_value(&mut self, raw: &Value, field: &str) -> Option<f64> {
        let x = match raw {
            Value::Number(n) => n.as_f64().ok_or(NumberError::NotANumber),
            Value::String(s) => numbers::parse(s),
            _ => Err(NumberError::NotANumber),
        };
        match x {
            Ok(x) if x.is_finite() => Some(x),
            Ok(_) => {
                self.error(field, Problem::Number(NumberError::Overflow));
                None
            }
            Err(NumberError::NotANumber) => {
                self.error(field, Problem::NotANumber { got: short(raw) });
                None
            }
            Err(e) => {
                self.error(field, Problem::Number(e));
                None
            }
        }
    }

    /// Checks `x` against the field table's plausible range; true when it is inside.
    pub(super) fn in_range(&mut self, x: f64, spec: &Field) -> bool {
        let field = spec.path;
        if x < spec.min {
            let problem = if spec.min <= 0.0 {
                Problem::Negative
            } else if spec.kind == Kind::Count && spec.min <= 1.0 {
                Problem::BelowOne
            } else if x <= 0.0 {
                Problem::NotPositive
            } else {
                Problem::TooSmall { min: spec.min }
            };
            self.error(field, problem);
            false
        } else if x > spec.max {
            self.error(field, Problem::TooLarge { max: spec.max });
            false
        } else {
            true
        }
    }

    /// A positive number; `default` when absent.
    pub(super) fn positive(&mut self, raw: &Raw, at: &Field, default: Option<f64>) -> f64 {
        let field = at.path;
        let Some(value) = raw else {
            return default.unwrap_or_else(|| {
                self.error(field, Problem::Required);
                1.0
            });
        };
        match self.number_value(value, field) {
            Some(x) if x <= 0.0 => {
                self.error(field, Problem::NotPositive);
                1.0
            }
            Some(x) if self.in_range(x, at) => x,
            _ => 1.0,
        }
    }

    /// A number zero or above (0 means absent, e.g. no FP8 units).
    pub(super) fn non_negative(&mut self, value: &Value, at: &Field) -> f64 {
        match self.number_value(value, at.path) {
            Some(x) if self.in_range(x, at) => x,
            _ => 0.0,
        }
    }

    /// A fraction in (0, 1]; `default` when absent.
    pub(super) fn fraction(&mut self, raw: &Raw, at: &Field, default: f64) -> f64 {
        let field = at.path;
        let Some(value) = raw else { return default };
        match self.number_value(value, field) {
            Some(x) if x <= 0.0 || x > 1.0 => {
                self.error(field, Problem::NotFraction);
                default
            }
            Some(x) if self.in_range(x, at) => x,
            _ => default,
        }
    }

    /// A whole number in the field table's range; `default` when absent.
    pub(super) fn count(&mut self, raw: &Raw, at: &Field, default: Option<u32>) -> u32 {
        let field = at.path;
        let fallback = at.min.max(1.0) as u32;
        let Some(value) = raw else {
            return default.unwrap_or_else(|| {
                self.error(field, Problem::Required);
                fallback
            });
        };
        let Some(x) = self.number_value(value, field) else { return fallback };
        if x.fract() != 0.0 {
            self.error(field, Problem::NotWhole { got: x });
            fallback
        } else if !self.in_range(x, at) || x > u32::MAX as f64 {
            fallback
        } else {
            x as u32
        }
    }

    pub(super) fn flag(&mut self, raw: &Raw, at: &Field, default: bool) -> bool {
        let field = at.path;
        match raw {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) if s == "true" => true,
            Some(Value::String(s)) if s == "false" => false,
            Some(other) => {
                self.error(field, Problem::NotFlag { got: short(other) });
                default
            }
        }
    }

    /// One of a field's codes; `default` when absent.
    pub(super) fn choice<T: Copy + PartialEq>(
        &mut self,
        raw: &Raw,
        choices: &fields::Choices<T>,
        default: T,
    ) -> T {
        let Some(value) = raw else { return default };
        let text = value.as_str().map(str::trim).unwrap_or("");
        if let Some(t) = choices.value(text) {
            return t;
        }
        let names: Vec<&'static str> = choices.options.iter().map(|(n, _)| *n).collect();
        self.error(choices.path, Problem::NotOneOf { names, got: short(value) });
        default
    }

    pub(super) fn text<'a>(&mut self, raw: &'a Value, field: &str) -> Option<&'a str> {
        match raw.as_str() {
            Some(s) => Some(s.trim()),
            None => {
                self.error(field, Problem::NotText { got: short(raw) });
                None
            }
        }
    }
}

/// A short rendering of a bad value for messages.
pub(super) fn short(value: &Value) -> String {
    clip(&value.to_string())
}

/// Text as a message repeats it: at most 40 characters, the rest cut to "...".
pub(super) fn clip(text: &str) -> String {
    match text.char_indices().nth(37) {
        Some((end, _)) if text.chars().count() > 40 => format!("{}...", &text[..end]),
        _ => text.to_string(),
    }
}

/// Splits a field that is either a preset id or an object with an optional `preset`.
pub(super) fn preset_and_fields<'a>(
    r: &mut Reader,
    raw: &'a Value,
    field: &str,
) -> (Option<&'a str>, Option<&'a serde_json::Map<String, Value>>) {
    match raw {
        Value::String(s) => (Some(s.trim()), None),
        Value::Object(map) => {
            let preset = map.get("preset").and_then(|p| r.text(p, &format!("{field}.preset")));
            (preset, Some(map))
        }
        other => {
            r.error(field, Problem::NotPresetOrObject { got: short(other) });
            (None, None)
        }
    }
}

/// Reports keys of the custom object at `field` that are neither the table's fields inside
/// it (`fields::keys_under`) nor one of `extra` (its name, or an object of its own).
pub(super) fn check_keys(
    r: &mut Reader,
    map: &serde_json::Map<String, Value>,
    field: &str,
    extra: &[&str],
) {
    for key in map.keys() {
        let known = extra.contains(&key.as_str()) || fields::keys_under(field).any(|k| k == key);
        if key != "preset" && !known {
            r.error(&format!("{field}.{}", clip(key)), Problem::UnknownKey);
        }
    }
}

/// The entry of a catalog `(list, id_of)` whose id is `id`; an unknown id is an error on
/// `field` that names the ids nearest it (`nearest`).
pub(super) fn preset<T>(
    r: &mut Reader,
    field: &str,
    catalog: Catalog,
    id: &str,
    list: &'static [T],
    id_of: fn(&T) -> &'static str,
) -> Option<&'static T> {
    let found = list.iter().find(|p| id_of(p) == id);
    if found.is_none() {
        let known = nearest(list.iter().map(id_of), id);
        r.error(field, Problem::Unknown { catalog, id: clip(id), known });
    }
    found
}

/// The ids of a catalog a reader would look for in place of `id`, which it lacks: all of a
/// short one, else the three that take fewest single-character edits to reach from `id`
/// (`h900-sxm` is nearest `h100-sxm`, `h800` and `h200`), not a list of thirty.
pub(super) fn nearest<'a>(known: impl Iterator<Item = &'a str>, id: &str) -> String {
    const SHOWN: usize = 3;
    let mut known: Vec<(usize, &str)> = known.map(|k| (edits(k, id), k)).collect();
    if known.len() > 2 * SHOWN {
        known.sort_by_key(|(d, _)| *d);
        known.truncate(SHOWN);
    }
    known.iter().map(|(_, k)| *k).collect::<Vec<_>>().join(", ")
}

/// Single-character insertions, deletions and substitutions from `a` to `b`, letters of either
/// case alike (Levenshtein's distance).
fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(x != y);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

impl Scenario {
    /// Validates the scenario into model inputs, or lists every bad field; with measurements
    /// (`calibration`), the chip's GEMM efficiency is fitted to them (`resolve_calibrated`).
    pub fn resolve(&self) -> Result<Inputs, Vec<InputError>> {
        self.resolve_calibrated().map(|(inputs, _)| inputs)
    }

    /// The scenario's own inputs, its measurements aside.
    pub(super) fn resolve_own(&self) -> Result<Inputs, Vec<InputError>> {
        let mut r = Reader::default();
        if let Some(v) = &self.version {
            let version = r.count(&Some(v.clone()), &fields::VERSION, Some(1));
            if version as u64 > VERSION {
                r.error(
                    "version",
                    Problem::NewerVersion { version: version as u64, reads: VERSION },
                );
            }
        }
        r.unknown("", &self.unknown);
        let transformer = self.resolve_transformer(&mut r);
        let mut training = self.resolve_training(&mut r);
        let mut cluster = self.resolve_cluster(&mut r);
        let chip_id = match &self.cluster.chip {
            Some(Value::String(id)) => Some(id.trim()),
            Some(Value::Object(map)) => map.get("preset").and_then(Value::as_str),
            _ => None,
        };
        let family = chip_id.and_then(presets::chip).map(|p| p.family);
        let parallelism = self.resolve_parallelism(&mut r, cluster.usable_chips(), family);
        // The stack sets how the weights are kept unless told.
        training.weights = r.choice(
            &self.training.weights,
            &fields::TRAINING_WEIGHTS,
            parallelism.stack.weights(),
        );
        let plant = self.resolve_plant(&mut r, chip_id, &mut cluster);
        let reliability = self.resolve_reliability(&mut r, cluster.n_chips);
        let mut inputs = Inputs {
            transformer,
            training,
            cluster,
            parallelism,
            plant,
            reliability,
            serving: None,
            rl: None,
        };
        inputs.serving = self.resolve_serving(&mut r, &inputs);
        inputs.rl = self.resolve_rl(&mut r, &inputs);
        for field in fields::FIELDS {
            if let Some(place) = field.place {
                let x = r.plain(self.plain_value(field), field);
                (place.set)(&mut inputs, field.to_si(x));
            }
        }
        if r.errors.is_empty() {
            Ok(inputs)
        } else {
            Err(r.errors)
        }
    }

    /// The value a plain field is set to, if any: kept among its section's other keys.
    fn plain_value(&self, field: &Field) -> Option<&Value> {
        let (section, key) = field.path.split_once('.')?;
        let others = match section {
            "model" => &self.model.others,
            "training" => &self.training.others,
            "cluster" => &self.cluster.others,
            "parallelism" => &self.parallelism.others,
            "facility" => &self.facility.others,
            "reliability" => &self.reliability.others,
            _ => return None,
        };
        others.get(key)
    }

    fn resolve_transformer(&self, r: &mut Reader) -> Transformer {
        let m = &self.model;
        r.unknown("model", &m.others);
        let base = match &m.preset {
            Some(raw) => match r.text(raw, "model.preset") {
                Some(id) => {
                    preset(r, "model.preset", Catalog::Model, id, presets::TRANSFORMERS, |p| p.id)
                        .map(|p| p.transformer)
                }
                None => None,
            },
            None => None,
        };
        let required = |x: Option<u32>| if base.is_some() { x } else { None };
        let b = base.as_ref();
        // A hybrid pattern sets the layers: its mixers or feed-forward blocks, whichever more.
        let counts = m
            .hybrid_pattern
            .as_ref()
            .and_then(|v| r.text(v, "model.hybrid_pattern"))
            .and_then(|p| pattern_counts(r, p));
        let layers_default = counts.map(|c| c.layers()).or(required(b.map(|t| t.n_layers)));
        let n_layers = match counts {
            Some(c) => c.layers(),
            None => r.count(&m.layers, &fields::MODEL_LAYERS, layers_default),
        };
        let hidden = r.count(&m.hidden, &fields::MODEL_HIDDEN, required(b.map(|t| t.hidden)));
        let n_heads = r.count(&m.heads, &fields::MODEL_HEADS, required(b.map(|t| t.n_heads)));
        let kv_default = if m.heads.is_some() || b.is_none() {
            n_heads
        } else {
            b.map_or(n_heads, |t| t.n_kv_heads)
        };
        let n_kv_heads = r.count(&m.kv_heads, &fields::MODEL_KV_HEADS, Some(kv_default));
        let reshaped = m.hidden.is_some() || m.heads.is_some() || b.is_none();
        let head_default =
            if reshaped { (hidden / n_heads.max(1)).max(1) } else { b.map_or(1, |t| t.head_dim) };
        let head_dim = r.count(&m.head_dim, &fields::MODEL_HEAD_DIM, Some(head_default));
        let ffn = r.count(&m.ffn, &fields::MODEL_FFN, required(b.map(|t| t.ffn)));
        let vocab = r.count(&m.vocab, &fields::MODEL_VOCAB, required(b.map(|t| t.vocab)));
        let seq_len = r.count(&m.seq_len, &fields::MODEL_SEQ_LEN, required(b.map(|t| t.seq_len)));
        let ffn_kind =
            r.choice(&m.ffn_act, &fields::MODEL_FFN_ACT, b.map_or(FfnKind::Gelu, |t| t.ffn_kind));
        let attention = r.choice(
            &m.attention,
            &fields::MODEL_ATTENTION,
            b.map_or(AttentionImpl::Flash, |t| t.attention),
        );
        // Latent attention where the model says `mla`, or gives its dimensions, or its preset
        // has it and the model names no other kernel.
        let said = m.attention.as_ref().and_then(Value::as_str).map(str::trim);
        let latent = match said {
            Some(code) => code == "mla",
            None => m.mla.is_some() || b.is_some_and(|t| t.mla.is_some()),
        };
        let mla = latent.then(|| self.resolve_mla(r, b.and_then(|t| t.mla)));
        let tied_embeddings = r.flag(
            &m.tied_embeddings,
            &fields::MODEL_TIED_EMBEDDINGS,
            b.is_some_and(|t| t.tied_embeddings),
        );
        let dropout = r.flag(&m.dropout, &fields::MODEL_DROPOUT, b.is_some_and(|t| t.dropout));
        let causal = r.flag(&m.causal, &fields::MODEL_CAUSAL, b.is_none_or(|t| t.causal));
        let mtp_layers = r.count(
            &m.mtp_layers,
            &fields::MODEL_MTP_LAYERS,
            Some(b.map_or(fixed!(MODEL_MTP_LAYERS) as u32, |t| t.mtp_layers)),
        );
        if n_kv_heads > n_heads || n_heads % n_kv_heads.max(1) != 0 {
            r.error("model.kv_heads", Problem::KvHeads { heads: n_heads, got: n_kv_heads });
        }
        if seq_len as f64 > 16.0 * 1048576.0 {
            r.error("model.seq_len", Problem::SequenceTooLong { tokens: seq_len });
        }
        let moe = match &m.moe {
            None => b.and_then(|t| t.moe),
            Some(Value::Null) | Some(Value::Bool(false)) => None,
            Some(Value::Object(map)) => {
                check_keys(r, map, "model.moe", &[]);
                let base_moe = b.and_then(|t| t.moe);
                let get = |path: &str| map.get(leaf(path)).cloned();
                let n_experts = r.count(
                    &get(fields::MODEL_MOE_EXPERTS.path),
                    &fields::MODEL_MOE_EXPERTS,
                    base_moe.map(|x| x.n_experts),
                );
                let top_k = r.count(
                    &get(fields::MODEL_MOE_TOP_K.path),
                    &fields::MODEL_MOE_TOP_K,
                    base_moe.map(|x| x.top_k),
                );
                let n_shared_experts =
                    r.count(
                        &get(fields::MODEL_MOE_SHARED_EXPERTS.path),
                        &fields::MODEL_MOE_SHARED_EXPERTS,
                        Some(base_moe.map_or(fixed!(MODEL_MOE_SHARED_EXPERTS) as u32, |x| {
                            x.n_shared_experts
                        })),
                    );
                let expert_ffn = r.count(
                    &get(fields::MODEL_MOE_EXPERT_FFN.path),
                    &fields::MODEL_MOE_EXPERT_FFN,
                    Some(base_moe.map_or(ffn, |x| x.expert_ffn)),
                );
                let n_dense_layers = r.count(
                    &get(fields::MODEL_MOE_DENSE_LAYERS.path),
                    &fields::MODEL_MOE_DENSE_LAYERS,
                    Some(
                        base_moe
                            .map_or(fixed!(MODEL_MOE_DENSE_LAYERS) as u32, |x| x.n_dense_layers),
                    ),
                );
                let capacity_factor = match get(fields::MODEL_MOE_CAPACITY_FACTOR.path) {
                    None => base_moe.and_then(|x| x.capacity_factor),
                    Some(Value::Null) => None,
                    Some(v) => Some(r.positive(&Some(v), &fields::MODEL_MOE_CAPACITY_FACTOR, None)),
                };
                let node_limit = match get(fields::MODEL_MOE_NODE_LIMIT.path) {
                    None => base_moe.and_then(|x| x.node_limit),
                    Some(Value::Null) => None,
                    Some(v) => Some(r.count(&Some(v), &fields::MODEL_MOE_NODE_LIMIT, None)),
                };
                let imbalance = r.positive(
                    &get(fields::MODEL_MOE_IMBALANCE.path),
                    &fields::MODEL_MOE_IMBALANCE,
                    Some(base_moe.map_or(fixed!(MODEL_MOE_IMBALANCE), |x| x.imbalance)),
                );
                if top_k > n_experts {
                    let problem = Problem::TopKExceedsExperts { experts: n_experts, got: top_k };
                    r.error("model.moe.top_k", problem);
                }
                if n_dense_layers >= n_layers {
                    r.error("model.moe.dense_layers", Problem::DenseLayers { layers: n_layers });
                }
                Some(Moe {
                    n_experts,
                    top_k,
                    n_shared_experts,
                    expert_ffn,
                    n_dense_layers,
                    capacity_factor,
                    node_limit,
                    imbalance,
                })
            }
            Some(other) => {
                r.error("model.moe", Problem::NotObject { got: short(other), or_null: true });
                None
            }
        };
        let hybrid = self.resolve_hybrid(r, counts, b.and_then(|t| t.hybrid), hidden);
        let vision = self.resolve_vision(r, b.and_then(|t| t.vision));
        let cross = self.resolve_cross(r, b.and_then(|t| t.cross));
        let window = self.resolve_window(r, b.and_then(|t| t.window));
        // Under a pattern with experts, the layers without them are the dense ones.
        let moe = match (moe, hybrid) {
            (Some(mut moe), Some(y)) if y.moe > 0 => {
                moe.n_dense_layers = n_layers.saturating_sub(y.moe);
                Some(moe)
            }
            (None, Some(y)) if y.moe > 0 => {
                r.error("model.moe", Problem::Required);
                None
            }
            (moe, _) => moe,
        };
        Transformer {
            n_layers,
            hidden,
            n_heads,
            n_kv_heads,
            head_dim,
            ffn,
            ffn_kind,
            vocab,
            seq_len,
            causal,
            tied_embeddings,
            attention,
            dropout,
            moe,
            mtp_layers,
            mla,
            vision,
            hybrid,
            cross,
            window,
        }
    }

    /// `model.window` over the preset's; `null` or `false` removes it.
    fn resolve_window(&self, r: &mut Reader, base: Option<Window>) -> Option<Window> {
        let map = match removable_object(r, &self.model.window, "model.window") {
            None => return base,
            Some(None) => return None,
            Some(Some(map)) => map,
        };
        let get = |path: &str| map.get(leaf(path)).cloned();
        let tokens = r.count(
            &get(fields::MODEL_WINDOW_TOKENS.path),
            &fields::MODEL_WINDOW_TOKENS,
            base.map(|w| w.tokens),
        );
        let global_every = r.count(
            &get(fields::MODEL_WINDOW_GLOBAL_EVERY.path),
            &fields::MODEL_WINDOW_GLOBAL_EVERY,
            Some(base.map_or(fixed!(MODEL_WINDOW_GLOBAL_EVERY) as u32, |w| w.global_every)),
        );
        Some(Window { tokens, global_every })
    }

    /// `model.cross_attention` over the preset's; `null` or `false` removes it.
    fn resolve_cross(&self, r: &mut Reader, base: Option<Cross>) -> Option<Cross> {
        let map = match removable_object(r, &self.model.cross_attention, "model.cross_attention") {
            None => return base,
            Some(None) => return None,
            Some(Some(map)) => map,
        };
        let get = |path: &str| map.get(leaf(path)).cloned();
        let tokens = r.count(
            &get(fields::MODEL_CROSS_ATTENTION_TOKENS.path),
            &fields::MODEL_CROSS_ATTENTION_TOKENS,
            base.map(|c| c.tokens),
        );
        let width = r.count(
            &get(fields::MODEL_CROSS_ATTENTION_WIDTH.path),
            &fields::MODEL_CROSS_ATTENTION_WIDTH,
            base.map(|c| c.width),
        );
        Some(Cross { tokens, width })
    }

    /// `model.vision` over the preset's encoder; `null` or `false` removes it. One image per
    /// sample unless `images_per_sample` says otherwise.
    fn resolve_vision(&self, r: &mut Reader, base: Option<Vision>) -> Option<Vision> {
        let map = match removable_object(r, &self.model.vision, "model.vision") {
            None => return base,
            Some(None) => return None,
            Some(Some(map)) => map,
        };
        let get = |path: &str| map.get(leaf(path)).cloned();
        let mut count =
            |key: &str, field: &Field, preset: Option<u32>| r.count(&get(key), field, preset);
        let layers = count("layers", &fields::MODEL_VISION_LAYERS, base.map(|v| v.layers));
        let hidden = count("hidden", &fields::MODEL_VISION_HIDDEN, base.map(|v| v.hidden));
        let heads = count("heads", &fields::MODEL_VISION_HEADS, base.map(|v| v.heads));
        let ffn = count("ffn", &fields::MODEL_VISION_FFN, base.map(|v| v.ffn));
        let patch = count("patch", &fields::MODEL_VISION_PATCH, base.map(|v| v.patch));
        let per_image =
            count("image_tokens", &fields::MODEL_VISION_IMAGE_TOKENS, base.map(|v| v.tokens));
        let images = count("images_per_sample", &fields::MODEL_VISION_IMAGES_PER_SAMPLE, Some(1));
        let tp = match get(fields::MODEL_VISION_TP.path) {
            None => base.and_then(|v| v.tp),
            raw => Some(r.count(&raw, &fields::MODEL_VISION_TP, None)),
        };
        let tokens = per_image.saturating_mul(images);
        Some(Vision { layers, hidden, heads, ffn, patch, tokens, tp })
    }

    /// The hybrid's layers: the pattern's counts (or the preset's) with `model.mamba`'s mixer
    /// over the preset's or Megatron-LM's defaults; `None` for a transformer.
    fn resolve_hybrid(
        &self,
        r: &mut Reader,
        counts: Option<PatternCounts>,
        base: Option<Hybrid>,
        hidden: u32,
    ) -> Option<Hybrid> {
        let counts = counts.or_else(|| {
            base.map(|y| PatternCounts {
                attention: y.attention,
                mamba: y.mamba,
                linear: y.linear,
                mlp: y.mlp,
                moe: y.moe,
            })
        })?;
        let map = object_keys_and(r, &self.model.mamba, "model.mamba", &["kind"]);
        let get = |path: &str| map.get(leaf(path)).cloned();
        let old = base.map(|y| y.mixer);
        let mut count = |key: &str, field: &Field, preset: Option<u32>| {
            r.count(&get(key), field, Some(preset.unwrap_or_else(|| field.fixed() as u32)))
        };
        let head_dim = count("head_dim", &fields::MODEL_MAMBA_HEAD_DIM, old.map(|m| m.head_dim));
        let state = count("state", &fields::MODEL_MAMBA_STATE, old.map(|m| m.state));
        let groups = count("groups", &fields::MODEL_MAMBA_GROUPS, old.map(|m| m.groups));
        let conv = count("conv", &fields::MODEL_MAMBA_CONV, old.map(|m| m.conv));
        let chunk = count("chunk", &fields::MODEL_MAMBA_CHUNK, old.map(|m| m.chunk));
        // Megatron-LM's default: an inner width of twice the model's.
        let derived = old.map_or(2 * hidden / head_dim.max(1), |m| m.heads).max(1);
        let heads = r.count(
            &get(fields::MODEL_MAMBA_HEADS.path),
            &fields::MODEL_MAMBA_HEADS,
            Some(derived),
        );
        let kind = r.choice(
            &get(fields::MODEL_MAMBA_KIND.path),
            &fields::MODEL_MAMBA_KIND,
            old.map_or(MambaKind::Mamba2, |m| m.kind),
        );
        // `mamba_ssm`'s "auto": the width over 16, rounded up.
        let auto = old.map_or(hidden.div_ceil(16), |m| m.dt_rank).max(1);
        let dt_rank = r.count(
            &get(fields::MODEL_MAMBA_DT_RANK.path),
            &fields::MODEL_MAMBA_DT_RANK,
            Some(auto),
        );
        let mixer = Mamba { kind, state, heads, head_dim, groups, conv, chunk, dt_rank };
        let linear_mixer = self.resolve_linear(r, base.map(|y| y.linear_mixer), hidden);
        let PatternCounts { attention, mamba, linear, mlp, moe } = counts;
        Some(Hybrid { attention, mamba, linear, mlp, moe, mixer, linear_mixer })
    }

    /// `model.linear` over the preset's mixer (`old`) or the field table's defaults: heads one
    /// per head width of the model's, keys and values alike.
    fn resolve_linear(&self, r: &mut Reader, old: Option<LinearMixer>, hidden: u32) -> LinearMixer {
        let map = object_keys_and(r, &self.model.linear, "model.linear", &["kind"]);
        let get = |path: &str| map.get(leaf(path)).cloned();
        let kind = r.choice(
            &get(fields::MODEL_LINEAR_KIND.path),
            &fields::MODEL_LINEAR_KIND,
            old.map_or(LinearKind::GatedDeltaNet, |l| l.kind),
        );
        let mut count = |key: &str, field: &Field, preset: Option<u32>| {
            r.count(&get(key), field, Some(preset.unwrap_or_else(|| field.fixed() as u32)))
        };
        let head_dim = count("head_dim", &fields::MODEL_LINEAR_HEAD_DIM, old.map(|l| l.head_dim));
        let conv = count("conv", &fields::MODEL_LINEAR_CONV, old.map(|l| l.conv));
        let chunk = count("chunk", &fields::MODEL_LINEAR_CHUNK, old.map(|l| l.chunk));
        let lora = count("lora", &fields::MODEL_LINEAR_LORA, old.map(|l| l.lora));
        let v_head_dim = count(
            "v_head_dim",
            &fields::MODEL_LINEAR_V_HEAD_DIM,
            old.map_or(Some(head_dim), |l| Some(l.v_head_dim)),
        );
        let derived = old.map_or(hidden / v_head_dim.max(1), |l| l.heads).max(1);
        let heads = count("heads", &fields::MODEL_LINEAR_HEADS, Some(derived));
        let key_heads = count(
            "key_heads",
            &fields::MODEL_LINEAR_KEY_HEADS,
            Some(old.map_or(heads, |l| l.key_heads)),
        );
        LinearMixer { kind, heads, key_heads, head_dim, v_head_dim, conv, chunk, lora }
    }

    /// `model.mla`'s dimensions over the preset's (`base`).
    fn resolve_mla(&self, r: &mut Reader, base: Option<Mla>) -> Mla {
        let map = object_keys(r, &self.model.mla, "model.mla");
        let get = |path: &str| map.get(leaf(path)).cloned();
        Mla {
            q_lora_rank: r.count(
                &get(fields::MODEL_MLA_Q_LORA_RANK.path),
                &fields::MODEL_MLA_Q_LORA_RANK,
                Some(base.map_or(0, |m| m.q_lora_rank)),
            ),
            kv_lora_rank: r.count(
                &get(fields::MODEL_MLA_KV_LORA_RANK.path),
                &fields::MODEL_MLA_KV_LORA_RANK,
                base.map(|m| m.kv_lora_rank),
            ),
            rope_head_dim: r.count(
                &get(fields::MODEL_MLA_ROPE_HEAD_DIM.path),
                &fields::MODEL_MLA_ROPE_HEAD_DIM,
                Some(base.map_or(0, |m| m.rope_head_dim)),
            ),
            v_head_dim: r.count(
                &get(fields::MODEL_MLA_V_HEAD_DIM.path),
                &fields::MODEL_MLA_V_HEAD_DIM,
                base.map(|m| m.v_head_dim),
            ),
        }
    }

    fn resolve_training(&self, r: &mut Reader) -> Training {
        let t = &self.training;
        r.unknown("training", &t.others);
        let tokens = r.positive(&t.tokens, &fields::TRAINING_TOKENS, None);
        let global_batch = r.count(&t.global_batch, &fields::TRAINING_GLOBAL_BATCH, None);
        let recipe = r.choice(&t.recipe, &fields::TRAINING_RECIPE, Recipe::MegatronBf16);
        // Without it, the search takes published practice for the model's size (0).
        let max_batch_tokens = r.positive(
            &t.max_global_batch_tokens,
            &fields::TRAINING_MAX_GLOBAL_BATCH_TOKENS,
            Some(0.0),
        );
        let grads = r.choice(&t.grads, &fields::TRAINING_GRADS, Grads::Fp32);
        // Set from the stack once it is read (`resolve`).
        let weights = Weights::Mixed;
        Training { tokens, global_batch, recipe, grads, weights, max_batch_tokens }
    }

    fn resolve_cluster(&self, r: &mut Reader) -> Cluster {
        let c = &self.cluster;
        r.unknown("cluster", &c.others);
        let (chip, preset) = resolve_chip(r, &c.chip);
        // Only a chip described from scratch lacks default fabrics; an unknown id is already reported.
        let custom = matches!(&c.chip, Some(Value::Object(map)) if !map.contains_key("preset"));
        let n_chips = r.count(&c.chips, &fields::CLUSTER_CHIPS, None);
        // A system named explicitly brings its own fabrics and node size; otherwise the chip's.
        let system = self.named_system();

        let mut scale_up = match &c.scale_up {
            Some(raw) => resolve_scale_up(r, raw),
            None => system
                .and_then(|s| presets::scale_up(s.scale_up))
                .or_else(|| preset.and_then(|p| presets::scale_up(p.scale_up)))
                .map(|p| p.scale_up)
                .unwrap_or_else(|| {
                    if custom {
                        r.error("cluster.scale_up", Problem::RequiredForCustomChip);
                    }
                    presets::SCALE_UP[0].scale_up
                }),
        };
        let fabric_domain = scale_up.domain_size;
        scale_up.domain_size = r.count(
            &c.scale_up_domain,
            &fields::CLUSTER_SCALE_UP_DOMAIN_SIZE,
            Some(scale_up.domain_size),
        );
        let scale_out = match &c.scale_out {
            Some(raw) => resolve_scale_out(r, raw),
            None => system
                .and_then(|s| presets::scale_out(s.scale_out))
                .or_else(|| preset.and_then(|p| presets::scale_out(p.scale_out)))
                .map(|p| p.link)
                .unwrap_or_else(|| {
                    if custom {
                        r.error("cluster.scale_out", Problem::RequiredForCustomChip);
                    }
                    presets::SCALE_OUT[0].link
                }),
        };
        let node_default = system
            .map(|s| s.system.chips_per_node)
            .unwrap_or_else(|| preset.map_or(scale_up.domain_size.min(8), |p| p.chips_per_node));
        let chips_per_node =
            r.count(&c.chips_per_node, &fields::CLUSTER_CHIPS_PER_NODE, Some(node_default));
        let domain_chips = self.resolve_placement(r, scale_up.domain_size);
        let power_cap_w = match &c.power_cap_w {
            None => 0.0,
            raw => r.positive(raw, &fields::CLUSTER_POWER_CAP_W, None),
        };
        Cluster {
            chip,
            n_chips,
            power_cap_w,
            domain_chips,
            chips_per_node,
            scale_up,
            fabric_domain,
            scale_out,
            network: Network::NON_BLOCKING,
            job_chips: 0,
            class_best: presets::class_best(preset.map(|p| p.family)),
        }
    }

    /// The chips of each scale-up domain the job uses (`cluster.placement.domain_chips`), at
    /// most the domain's size; 0, all of them, by default.
    fn resolve_placement(&self, r: &mut Reader, domain: u32) -> u32 {
        const FIELD: &fields::Field = &fields::CLUSTER_PLACEMENT_DOMAIN_CHIPS;
        const PATH: &str = FIELD.path;
        let map = match &self.cluster.placement {
            None | Some(Value::Null) => return 0,
            Some(Value::Object(map)) => map,
            Some(other) => {
                let problem = Problem::NotObject { got: short(other), or_null: true };
                r.error("cluster.placement", problem);
                return 0;
            }
        };
        for key in map.keys().filter(|k| *k != "domain_chips") {
            r.error(&format!("cluster.placement.{key}"), Problem::UnknownKey);
        }
        let used = r.count(&map.get("domain_chips").cloned(), FIELD, Some(domain));
        if used > domain {
            r.error(PATH, Problem::TooLarge { max: domain as f64 });
            return 0;
        }
        if used == domain {
            0
        } else {
            used
        }
    }

    fn resolve_parallelism(
        &self,
        r: &mut Reader,
        n_chips: u32,
        family: Option<&'static str>,
    ) -> Parallelism {
        let p = &self.parallelism;
        r.unknown("parallelism", &p.others);
        let tensor = r.count(&p.tp, &fields::PARALLELISM_TP, Some(fixed!(PARALLELISM_TP) as u32));
        let pipeline = r.count(&p.pp, &fields::PARALLELISM_PP, Some(fixed!(PARALLELISM_PP) as u32));
        let context = r.count(&p.cp, &fields::PARALLELISM_CP, Some(fixed!(PARALLELISM_CP) as u32));
        let degrees_ok =
            !["parallelism.tp", "parallelism.pp", "parallelism.cp"].iter().any(|f| r.failed(f));
        let model_parallel = (tensor as u64 * pipeline as u64 * context as u64).max(1);
        let data = match &p.dp {
            Some(_) => r.count(&p.dp, &fields::PARALLELISM_DP, None),
            // Nothing is said about a chip count or degree that is itself wrong.
            None if r.failed("cluster.chips") || !degrees_ok => 1,
            None if n_chips as u64 % model_parallel == 0 => {
                (n_chips as u64 / model_parallel).max(1) as u32
            }
            None => {
                r.errors.push(chips_do_not_divide(n_chips, [tensor, pipeline, context]));
                1
            }
        };
        // Megatron's distributed optimizer (ZeRO-1) wherever there are replicas to shard over.
        let zero_default = if data as u64 * context as u64 > 1 { 1 } else { 0 };
        let zero = r.count(&p.zero, &fields::PARALLELISM_ZERO, Some(zero_default));
        let sharding = Sharding::of_stage(zero as u64).unwrap_or_else(|| {
            r.error("parallelism.zero", Problem::ZeroStage { got: zero.to_string() });
            Sharding::Optimizer
        });
        // The software stack sets the defaults of the overlaps it implements.
        let stack = r.choice(&p.stack, &fields::PARALLELISM_STACK, Stack::MegatronCore);
        // Ring attention overlaps; a kind given sets the overlap that goes with it.
        let overlap = r.flag(
            &p.cp_overlap,
            &fields::PARALLELISM_CP_OVERLAP,
            fixed!(PARALLELISM_CP_OVERLAP) != 0.0,
        );
        let typed = if overlap { CpKind::Ring } else { CpKind::AllGather };
        let cp_kind = r.choice(&p.cp_kind, &fields::PARALLELISM_CP_KIND, typed);
        let cp_overlap = matches!(cp_kind, CpKind::Ring | CpKind::Both);
        Parallelism {
            tensor,
            pipeline,
            data,
            expert: r.count(&p.ep, &fields::PARALLELISM_EP, Some(fixed!(PARALLELISM_EP) as u32)),
            // Megatron-Core's expert tensor parallelism follows the tensor-parallel degree unless
            // set (`--expert-tensor-parallel-size`).
            expert_tensor: r.count(&p.etp, &fields::PARALLELISM_ETP, Some(tensor)),
            context,
            sequence_parallel: r.flag(
                &p.sequence_parallel,
                &fields::PARALLELISM_SEQUENCE_PARALLEL,
                tensor > 1,
            ),
            virtual_stages: r.count(
                &p.virtual_stages,
                &fields::PARALLELISM_VIRTUAL_STAGES,
                Some(fixed!(PARALLELISM_VIRTUAL_STAGES) as u32),
            ),
            micro_batch: r.count(
                &p.micro_batch,
                &fields::PARALLELISM_MICRO_BATCH,
                Some(fixed!(PARALLELISM_MICRO_BATCH) as u32),
            ),
            first_stage_layers: r.count(
                &p.first_stage_layers,
                &fields::PARALLELISM_FIRST_STAGE_LAYERS,
                Some(0),
            ),
            offload_layers: r.count(
                &p.offload_layers,
                &fields::PARALLELISM_OFFLOAD_LAYERS,
                Some(fixed!(PARALLELISM_OFFLOAD_LAYERS) as u32),
            ),
            sharding,
            recompute: r.choice(&p.recompute, &fields::PARALLELISM_RECOMPUTE, Recompute::None),
            dp_overlap: r.flag(
                &p.dp_overlap,
                &fields::PARALLELISM_DP_OVERLAP,
                stack.overlaps_data(),
            ),
            stack,
            software: presets::software(stack, family),
            dispatcher: r.choice(
                &p.dispatcher,
                &fields::PARALLELISM_DISPATCHER,
                Dispatcher::AllToAll,
            ),
            cuda_graphs: r.choice(&p.cuda_graphs, &fields::PARALLELISM_CUDA_GRAPHS, stack.graphs()),
            cross_entropy: r.choice(
                &p.cross_entropy,
                &fields::PARALLELISM_CROSS_ENTROPY,
                stack.loss(),
            ),
            ep_overlap: r.flag(
                &p.ep_overlap,
                &fields::PARALLELISM_EP_OVERLAP,
                fixed!(PARALLELISM_EP_OVERLAP) != 0.0,
            ),
            cp_overlap,
            cp_kind,
            tp_overlap: r.flag(
                &p.tp_overlap,
                &fields::PARALLELISM_TP_OVERLAP,
                stack.overlaps_model(),
            ),
            pp_overlap: r.flag(
                &p.pp_overlap,
                &fields::PARALLELISM_PP_OVERLAP,
                stack.overlaps_model(),
            ),
            recompute_elementwise: r.flag(
                &p.recompute_elementwise,
                &fields::PARALLELISM_RECOMPUTE_ELEMENTWISE,
                fixed!(PARALLELISM_RECOMPUTE_ELEMENTWISE) != 0.0,
            ),
            recompute_mlp_up: r.flag(
                &p.recompute_mlp_up,
                &fields::PARALLELISM_RECOMPUTE_MLP_UP,
                fixed!(PARALLELISM_RECOMPUTE_MLP_UP) != 0.0,
            ),
        }
    }
}

/// The error for a chip count that the plan's degrees do not divide, on `cluster.chips`, with
/// the nearest usable counts on both sides and the choice of leaving the rest idle as fixes.
fn chips_do_not_divide(n_chips: u32, [tp, pp, cp]: [u32; 3]) -> InputError {
    let unit = (tp as u64 * pp as u64 * cp as u64).max(1);
    let below = n_chips as u64 / unit * unit;
    let above = below + unit;
    let mut fixes = Vec::new();
    let mut options = Vec::new();
    for count in [below, above] {
        if count >= 1 && count <= fields::field("cluster.chips").map_or(1e7, |f| f.max) as u64 {
            fixes.push(Fix {
                label: FixLabel::Chips(count),
                changes: vec![("cluster.chips".to_string(), Value::from(count))],
            });
            options.push(count);
        }
    }
    if below >= 1 {
        fixes.push(Fix {
            label: FixLabel::KeepIdle { chips: n_chips as u64, idle: n_chips as u64 - below },
            changes: vec![("parallelism.dp".to_string(), Value::from(below / unit))],
        });
    }
    let problem = Problem::ChipsDoNotDivide { chips: n_chips as u64, tp, pp, cp, options };
    InputError { field: "cluster.chips".to_string(), problem, fixes }
}

fn resolve_chip(r: &mut Reader, raw: &Raw) -> (Chip, Option<&'static presets::ChipPreset>) {
    let fallback = presets::CHIPS[0];
    let Some(raw) = raw else {
        r.error("cluster.chip", Problem::Required);
        return (fallback.figures(), None);
    };
    let (id, fields) = preset_and_fields(r, raw, "cluster.chip");
    let preset = match id {
        Some(id) => match preset(r, "cluster.chip", Catalog::Chip, id, presets::CHIPS, |p| p.id) {
            Some(p) => Some(p),
            None => return (fallback.figures(), None),
        },
        None => None,
    };
    let Some(map) = fields else {
        return (preset.map_or(fallback.figures(), |p| p.figures()), preset);
    };
    check_keys(r, map, "cluster.chip", &["name"]);
    let chip = read_leaves(r, map, &leaves::CHIP, preset.map(|p| p.figures()), fallback.figures());
    if let Some(name) = map.get("name") {
        r.text(name, "cluster.chip.name");
    }
    (chip, preset)
}

fn resolve_scale_up(r: &mut Reader, raw: &Value) -> ScaleUp {
    let field = "cluster.scale_up";
    let (id, fields) = preset_and_fields(r, raw, field);
    let base = match id {
        Some(id) => {
            preset(r, field, Catalog::ScaleUp, id, presets::SCALE_UP, |p| p.id).map(|p| p.scale_up)
        }
        None => None,
    };
    let Some(map) = fields else { return base.unwrap_or(presets::SCALE_UP[0].scale_up) };
    check_keys(r, map, field, &[]);
    read_leaves(r, map, &leaves::SCALE_UP, base, presets::SCALE_UP[0].scale_up)
}

fn resolve_scale_out(r: &mut Reader, raw: &Value) -> Link {
    let field = "cluster.scale_out";
    let (id, fields) = preset_and_fields(r, raw, field);
    let base = match id {
        Some(id) => {
            preset(r, field, Catalog::ScaleOut, id, presets::SCALE_OUT, |p| p.id).map(|p| p.link)
        }
        None => None,
    };
    let Some(map) = fields else { return base.unwrap_or(presets::SCALE_OUT[0].link) };
    check_keys(r, map, field, &[]);
    read_leaves(r, map, &leaves::SCALE_OUT, base, presets::SCALE_OUT[0].link)
}

/// An object read through its leaves from the keys of `map`, over `base` (a preset's figures)
/// where the object names one, else over `blank` with each leaf's own fallback.
fn read_leaves<T: Copy>(
    r: &mut Reader,
    map: &serde_json::Map<String, Value>,
    leaves: &[Leaf<T>],
    base: Option<T>,
    blank: T,
) -> T {
    let mut out = base.unwrap_or(blank);
    for leaf in leaves {
        let at = leaf.field;
        let raw = map.get(at.key()).cloned();
        let default = match &base {
            Some(b) => (leaf.get)(b).map(|x| at.from_si(x)),
            None => leaf.fallback(&out),
        };
        let value = match (leaf.rule, raw) {
            (Rule::Positive, raw) => Some(r.positive(&raw, at, default)),
            (Rule::Fraction, raw) => Some(r.fraction(&raw, at, default.unwrap_or(1.0))),
            (Rule::Count, raw) => Some(r.count(&raw, at, default.map(|x| x as u32)) as f64),
            (Rule::Optional | Rule::Maybe, None) => default,
            (Rule::Optional | Rule::Maybe, Some(Value::Null)) => None,
            (Rule::Optional, Some(v)) => Some(r.non_negative(&v, at)),
            (Rule::Maybe, Some(v)) => Some(r.positive(&Some(v), at, None)),
        };
        (leaf.set)(&mut out, value.map(|x| at.to_si(x)));
    }
    out
}

/// Sublayers of a hybrid pattern by kind.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PatternCounts {
    attention: u32,
    mamba: u32,
    linear: u32,
    mlp: u32,
    moe: u32,
}

impl PatternCounts {
    /// Layers: the mixers or the feed-forward blocks, whichever are more.
    fn layers(&self) -> u32 {
        (self.attention + self.mamba + self.linear).max(self.mlp + self.moe).max(1)
    }
}

/// Counts Megatron-LM's `--hybrid-layer-pattern` symbols (`M` Mamba, `G` Gated DeltaNet or
/// another linear attention, `*` attention, `-` MLP, `E` mixture of experts; `|` marks a
/// pipeline boundary and spaces are ignored); any other symbol is an error of
/// `model.hybrid_pattern`.
fn pattern_counts(r: &mut Reader, pattern: &str) -> Option<PatternCounts> {
    let mut c = PatternCounts { attention: 0, mamba: 0, linear: 0, mlp: 0, moe: 0 };
    for symbol in pattern.chars() {
        match symbol {
            'M' => c.mamba += 1,
            'G' => c.linear += 1,
            '*' => c.attention += 1,
            '-' => c.mlp += 1,
            'E' => c.moe += 1,
            '|' | ' ' => {}
            other => {
                let names = vec!["M", "G", "*", "-", "E", "|"];
                r.error(
                    "model.hybrid_pattern",
                    Problem::NotOneOf { names, got: other.to_string() },
                );
                return None;
            }
        }
    }
    if c.attention + c.mamba + c.linear + c.mlp + c.moe == 0 {
        r.error("model.hybrid_pattern", Problem::Required);
        return None;
    }
    Some(c)
}

/// The keys of an optional object field (`model.mla`), checked against the field table; an
/// absent one has none, and anything but an object is an error of its own.
fn object_keys(r: &mut Reader, raw: &Raw, at: &str) -> serde_json::Map<String, Value> {
    object_keys_and(r, raw, at, &[])
}

/// An optional object that may take away a preset's (`model.vision`): `None` when absent, to
/// keep the preset's; `Some(None)` for `null` or `false`, to remove it; else its keys.
fn removable_object(
    r: &mut Reader,
    raw: &Raw,
    at: &str,
) -> Option<Option<serde_json::Map<String, Value>>> {
    match raw {
        None => None,
        Some(Value::Null) | Some(Value::Bool(false)) => Some(None),
        raw => Some(Some(object_keys(r, raw, at))),
    }
}

/// `object_keys` with `extra` keys allowed beside the field table's (a choice's).
fn object_keys_and(
    r: &mut Reader,
    raw: &Raw,
    at: &str,
    extra: &[&str],
) -> serde_json::Map<String, Value> {
    match raw {
        None => serde_json::Map::new(),
        Some(Value::Object(map)) => {
            check_keys(r, map, at, extra);
            map.clone()
        }
        Some(other) => {
            r.error(at, Problem::NotObject { got: short(other), or_null: false });
            serde_json::Map::new()
        }
    }
}

/// The key of a field's `path` inside the object that holds it: `tpot_ms` of
/// `serving.tpot_ms`, `ports` of `cluster.fabric.switch.ports`.
pub(super) fn leaf(path: &str) -> &str {
    path.rsplit_once('.').map_or(path, |(_, key)| key)
}
