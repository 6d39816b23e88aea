//! Measurements read from real logs: Megatron-LM and MindSpeed iteration lines (with the plan
//! from the `arguments` block they print at start), torchtitan's and MaxText's step lines,
//! MLPerf Training's `:::MLLOG` records, nccl-tests tables and SGLang/vLLM `bench_serving`
//! results. A training log becomes a `calibration` entry of the scenario (the run's plan as
//! changes, what it measured); an all-reduce table sets the efficiency and latency of the
//! links it ran over (`fit_fabric`); a report says what was read and what was skipped and why.
//!
//! Reading is bounded: a log is scanned once line by line, a line longer than `MAX_LINE` is
//! skipped, at most `MAX_SAMPLES` iterations are kept, and a file whose first bytes hold NULs
//! is refused as binary. Nothing in a log is ever run.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::launch::{self, Plan};
use crate::scenario::fields;
use crate::scenario::{merge, Scenario};

/// What a line of any format read holds, most frequent first; from `TITAN_MARKERS` on, only
/// torchtitan's lines of its plan.
const MARKERS: [&str; 10] = [
    "iteration",
    "step:",
    ":::MLLOG",
    "output_throughput",
    "arguments",
    "Config param",
    "device mesh",
    "Trainer is initialized",
    "activation checkpointing",
    "training active",
];
const TITAN_MARKERS: usize = 6;

/// The longest line read, bytes.
pub const MAX_LINE: usize = 1 << 16;
/// The most iterations kept from one log.
pub const MAX_SAMPLES: usize = 1 << 16;

/// A log's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Megatron-LM, Megatron-Bridge or MindSpeed-LLM iteration lines.
    Megatron,
    /// torchtitan's step lines.
    Torchtitan,
    /// MaxText's step lines.
    Maxtext,
    /// MLPerf Training `:::MLLOG` records.
    Mllog,
    /// nccl-tests' (or rccl-tests', hccl-tests') table.
    Nccl,
    /// SGLang's or vLLM's `bench_serving` result.
    BenchServing,
}

impl Format {
    /// Its id in reports.
    pub fn id(self) -> &'static str {
        match self {
            Format::Megatron => "megatron",
            Format::Torchtitan => "torchtitan",
            Format::Maxtext => "maxtext",
            Format::Mllog => "mllog",
            Format::Nccl => "nccl-tests",
            Format::BenchServing => "bench-serving",
        }
    }
}

/// What a log measured.
#[derive(Clone, Debug, PartialEq)]
pub enum Measured {
    /// Seconds per optimizer step (the median over the iterations kept).
    StepS(f64),
    /// Tokens per second on each chip (torchtitan's `tps`, MaxText's `Tokens/s/device`).
    TokensPerChipS(f64),
    /// A collective's table (nccl-tests).
    Fabric(Table),
    /// Serving: output tokens and requests per second, median and p99 TTFT and TPOT, ms, at
    /// the benchmark's concurrency (0 when unbounded) and mean request lengths; each `None`
    /// when the result does not give it.
    Serving {
        output_tokens_per_s: Option<f64>,
        requests_per_s: Option<f64>,
        ttft_p50_ms: Option<f64>,
        ttft_p99_ms: Option<f64>,
        tpot_p50_ms: Option<f64>,
        tpot_p99_ms: Option<f64>,
        concurrency: Option<f64>,
        input_tokens: Option<f64>,
        output_tokens: Option<f64>,
    },
}

/// What an nccl-tests table measured: its collective over its ranks and nodes, its time at
/// its smallest and largest message, and the bus bandwidth at the largest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The test's program (`all_reduce_perf`), when the table says.
    pub collective: String,
    /// Ranks the header lists, and the hosts they are on (`None` when it lists none).
    pub ranks: Option<u32>,
    pub nodes: Option<u32>,
    /// Bytes and out-of-place microseconds of the smallest and the largest message.
    pub smallest_bytes: f64,
    pub smallest_us: f64,
    pub largest_bytes: f64,
    pub largest_us: f64,
    /// Bus bandwidth at the largest message, GB/s.
    pub bus_gb_per_s: f64,
}

/// The model a log says it ran, where it prints its settings (Megatron's `arguments` block,
/// MaxText's `Config param` lines): depth, widths and experts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Layers and hidden width.
    pub layers: u32,
    pub hidden: u32,
    /// The dense feed-forward width, query heads, key-value heads and head width, where
    /// printed.
    pub ffn: Option<u32>,
    pub heads: Option<u32>,
    pub kv_heads: Option<u32>,
    pub head_dim: Option<u32>,
    /// Routed experts (0 for a dense model), the experts a token takes and an expert's width.
    pub experts: u32,
    pub top_k: Option<u32>,
    pub expert_ffn: Option<u32>,
    /// The vocabulary, padded as the framework pads it, where printed: it tells apart
    /// catalogue models of one shape (Llama 2 70B and Llama 3.1 70B).
    pub vocab: Option<u32>,
}

/// Where each framework prints a shape's figures: layers, hidden, ffn, heads, key-value heads
/// (and the switch that makes them count), head width, experts, experts a token takes, expert
/// width.
struct ShapeKeys {
    layers: &'static str,
    hidden: &'static str,
    ffn: &'static str,
    heads: &'static str,
    kv_heads: &'static str,
    kv_switch: Option<&'static str>,
    head_dim: &'static str,
    experts: &'static str,
    top_k: &'static str,
    expert_ffn: &'static str,
    vocab: &'static str,
}

/// Megatron-LM's argument names (`megatron/training/arguments.py`; `num_query_groups` counts
/// only with `group_query_attention`).
const MEGATRON_SHAPE: ShapeKeys = ShapeKeys {
    layers: "num_layers",
    hidden: "hidden_size",
    ffn: "ffn_hidden_size",
    heads: "num_attention_heads",
    kv_heads: "num_query_groups",
    kv_switch: Some("group_query_attention"),
    head_dim: "kv_channels",
    experts: "num_experts",
    top_k: "moe_router_topk",
    expert_ffn: "moe_ffn_hidden_size",
    vocab: "padded_vocab_size",
};

/// MaxText's config keys (`configs/base.yml`; `num_experts: 1` is a dense model).
const MAXTEXT_SHAPE: ShapeKeys = ShapeKeys {
    layers: "base_num_decoder_layers",
    hidden: "base_emb_dim",
    ffn: "base_mlp_dim",
    heads: "base_num_query_heads",
    kv_heads: "base_num_kv_heads",
    kv_switch: None,
    head_dim: "head_dim",
    experts: "num_experts",
    top_k: "num_experts_per_tok",
    expert_ffn: "base_moe_mlp_dim",
    vocab: "vocab_size",
};

impl Shape {
    /// The shape `settings` (key and value) print, where they give layers and hidden width.
    fn read<'a>(
        settings: impl Iterator<Item = (&'a str, &'a str)>,
        keys: &ShapeKeys,
    ) -> Option<Shape> {
        let settings: Vec<(&str, &str)> = settings.collect();
        let get = |key: &str| {
            settings.iter().find(|(k, _)| *k == key).and_then(|(_, v)| v.trim().parse::<u32>().ok())
        };
        let on = |key: &str| settings.iter().any(|(k, v)| *k == key && v.trim() == "True");
        let heads = get(keys.heads);
        let kv_heads = match keys.kv_switch {
            Some(switch) if !on(switch) => heads,
            _ => get(keys.kv_heads).or(heads),
        };
        let experts = get(keys.experts).filter(|e| *e > 1).unwrap_or(0);
        Some(Shape {
            layers: get(keys.layers).filter(|x| *x > 0)?,
            hidden: get(keys.hidden).filter(|x| *x > 0)?,
            ffn: get(keys.ffn),
            heads,
            kv_heads,
            head_dim: get(keys.head_dim),
            experts,
            top_k: get(keys.top_k).filter(|_| experts > 0),
            expert_ffn: get(keys.expert_ffn).filter(|_| experts > 0),
            vocab: get(keys.vocab),
        })
    }

    /// The shape is `t`'s: the same layers, width, heads and experts, and for a dense model
    /// the same feed-forward width.
    pub fn is(&self, t: &crate::model::Transformer) -> bool {
        let experts = t.moe.as_ref().map_or(0, |m| m.n_experts);
        self.layers == t.n_layers
            && self.hidden == t.hidden
            && self.heads.is_none_or(|h| h == t.n_heads)
            && self.experts == experts
            && (experts > 0 || t.hybrid.is_some() || self.ffn.is_none_or(|f| f == t.ffn))
    }

    /// The model as changes to a scenario's `model` section: a catalogue model of this shape,
    /// else this shape over the plan's `preset` when both are dense or both mixtures of
    /// experts, else `None`: no model the scenario can name.
    fn model(&self, preset: &Value, plan: &crate::model::Transformer) -> Option<Value> {
        // Of the catalogue's models of this shape, the one whose vocabulary is nearest.
        let gap = |t: &crate::model::Transformer| self.vocab.map_or(0, |v| v.abs_diff(t.vocab));
        let named = crate::model::presets::TRANSFORMERS
            .iter()
            .filter(|p| self.is(&p.transformer))
            .min_by_key(|p| gap(&p.transformer));
        if let Some(p) = named {
            return Some(json!({ "preset": p.id }));
        }
        if (self.experts > 0) != plan.moe.is_some() || plan.hybrid.is_some() {
            return None;
        }
        let mut model = json!({ "preset": preset, "layers": self.layers, "hidden": self.hidden });
        let given = |v: Option<u32>| v.filter(|v| *v > 0);
        let sizes = [
            given(self.ffn).map(|v| json!({ "ffn": v })),
            given(self.heads).map(|v| json!({ "heads": v })),
            given(self.kv_heads).map(|v| json!({ "kv_heads": v })),
            given(self.head_dim).map(|v| json!({ "head_dim": v })),
        ];
        let moe = (self.experts > 0).then(|| json!({ "moe": { "experts": self.experts } }));
        let moe_sizes = [
            given(self.top_k).map(|k| json!({ "moe": { "top_k": k } })),
            given(self.expert_ffn).map(|f| json!({ "moe": { "expert_ffn": f } })),
        ];
        let moe_sizes = moe_sizes.into_iter().filter(|_| self.experts > 0);
        for part in sizes.into_iter().chain([moe]).chain(moe_sizes).flatten() {
            merge(&mut model, &part);
        }
        Some(model)
    }
}

/// What one log gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The file's name.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// What it measured.
    pub measured: Measured,
    /// Lines read.
    pub lines: u64,
    /// Iterations (or rows) the figure is the median of.
    pub samples: u32,
    /// Iterations left out as warm-up.
    pub warmup: u32,
    /// Copies of one iteration's line (ranks that each printed it); the slowest is kept.
    pub ranks: u32,
    /// Lines skipped: too long, or not valid text.
    pub skipped_lines: u64,
    /// The run's plan, from the arguments the log prints at start.
    pub plan: Option<Plan>,
    /// The run's chips, from the log.
    pub world: Option<u32>,
    /// The model the log says it ran.
    pub shape: Option<Shape>,
}

/// Why a log gave nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// It is not text.
    Binary,
    /// No line of any format read.
    NoLines { lines: u64 },
    /// A training log whose plan neither it nor the scenario gives.
    NoPlan,
    /// A figure that calibrates no setting of the scenario yet (serving's, a collective other
    /// than all-reduce, a table that lists no ranks).
    NotCalibrated(Format),
    /// A table faster than the scenario's fabric at its line rate: its ranks or fabric are not
    /// the scenario's.
    FabricBeyond,
    /// A serving benchmark faster or slower than serving's kernels could be at the ends of
    /// their share (`SHARE_RANGE`): its deployment is not the scenario's.
    ServingBeyond,
    /// A training log of a model neither the plan's nor in the catalogue, and not of the plan
    /// model's kind (dense or mixture of experts) for its shape to be written over it.
    OtherModel(Shape),
}

impl Why {
    /// The reason's id (`measure.why.<id>` in the catalogues).
    pub fn id(&self) -> &'static str {
        match self {
            Why::Binary => "binary",
            Why::NoLines { .. } => "no-lines",
            Why::NoPlan => "no-plan",
            Why::NotCalibrated(_) => "not-calibrated",
            Why::FabricBeyond => "fabric-beyond",
            Why::ServingBeyond => "serving-beyond",
            Why::OtherModel(_) => "other-model",
        }
    }
}

/// The median of some numbers (0 for none).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.retain(|x| x.is_finite());
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        0.5 * (xs[n / 2 - 1] + xs[n / 2])
    }
}

/// The number after `key` in `line` (commas and a trailing unit dropped).
fn after(line: &str, key: &str) -> Option<f64> {
    let rest = &line[line.find(key)? + key.len()..];
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | ',' | 'e' | 'E' | '-' | '+')))
        .unwrap_or(rest.len());
    rest[..end].replace(',', "").parse().ok()
}

/// The line without ANSI colour codes.
fn plain(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Iterations by number, each the slowest of its copies, and how many copies there were.
#[derive(Default)]
struct Iterations {
    by_step: BTreeMap<u64, (f64, u32)>,
    dropped: u64,
}

impl Iterations {
    fn add(&mut self, step: u64, value: f64) {
        if !value.is_finite() || value <= 0.0 {
            return;
        }
        if let Some(slot) = self.by_step.get_mut(&step) {
            slot.0 = slot.0.max(value);
            slot.1 += 1;
        } else if self.by_step.len() < MAX_SAMPLES {
            self.by_step.insert(step, (value, 1));
        } else {
            self.dropped += 1;
        }
    }

    /// The median after warm-up: the first logged iteration and the first tenth of them
    /// (compilation, allocator growth, the first data), and how many each.
    fn settled(&self) -> Option<(f64, u32, u32, u32)> {
        let all: Vec<(f64, u32)> = self.by_step.values().copied().collect();
        if all.is_empty() {
            return None;
        }
        let warmup = if all.len() == 1 { 0 } else { 1.max(all.len().div_ceil(10)) };
        let kept: Vec<f64> = all[warmup..].iter().map(|v| v.0).collect();
        let ranks = all.iter().map(|v| v.1).max().unwrap_or(1);
        Some((median(kept.clone()), kept.len() as u32, warmup as u32, ranks))
    }
}

/// What a torchtitan log says of its plan: the mesh (`Building device mesh with parallelism:
/// pp=…, dp_replicate=…, dp_shard=…, cp=…, tp=…, ep=…, etp=…`), the batch (`Trainer is
/// initialized with local batch size …, global batch size …, … sequence length …`), the
/// checkpointing it applied (`Applied full activation checkpointing to the model`; none when
/// it says nothing) and a low-precision recipe (`Float8 training active …`, `MX training
/// active …`).
#[derive(Default)]
struct TitanPlan {
    mesh: Option<[u32; 7]>,
    batch: Option<(u32, u32, u32)>,
    recompute: Option<crate::model::Recompute>,
    recipe: Option<crate::model::Recipe>,
}

impl TitanPlan {
    /// Takes what `line` says; true when it said something.
    fn read(&mut self, line: &str) -> bool {
        use crate::model::{Recipe, Recompute};
        let count = |key: &str| after(line, key).map(|x| x.clamp(1.0, 1e6) as u32);
        if line.contains("Building device mesh with parallelism:") {
            let keys = ["pp=", "dp_replicate=", "dp_shard=", "cp=", "tp=", "ep=", "etp="];
            let mut mesh = [1u32; 7];
            for (slot, key) in mesh.iter_mut().zip(keys) {
                // `cp=` is also the tail of no other key; `tp=` of `etp=`: match whole words.
                let at = line.match_indices(key).find(|(i, _)| {
                    *i == 0
                        || !line.as_bytes()[i - 1].is_ascii_alphanumeric()
                            && line.as_bytes()[i - 1] != b'_'
                });
                if let Some(v) = at.and_then(|(i, _)| after(&line[i..], key)) {
                    *slot = v.clamp(1.0, 1e6) as u32;
                }
            }
            self.mesh = Some(mesh);
            return true;
        }
        if line.contains("Trainer is initialized with") {
            if let (Some(local), Some(global), Some(seq)) =
                (count("local batch size"), count("global batch size"), count("sequence length"))
            {
                self.batch = Some((local, global, seq));
            }
            return true;
        }
        if line.contains("activation checkpointing to the model") {
            self.recompute = Some(if line.contains("Applied full") {
                Recompute::Full
            } else {
                Recompute::Selective
            });
            return true;
        }
        if line.contains("Float8 training active") {
            self.recipe = Some(Recipe::Fp8);
            return true;
        }
        if line.contains("MX training active") {
            self.recipe = Some(Recipe::Mxfp8);
            return true;
        }
        false
    }

    /// The plan, when the log printed its mesh and batch.
    fn plan(&self) -> Option<Plan> {
        let [pp, replicate, shard, cp, tp, ep, etp] = self.mesh?;
        let (local, global, seq) = self.batch?;
        Some(Plan {
            tp,
            pp,
            vp: 1,
            cp,
            ep,
            etp,
            dp: Some(replicate.saturating_mul(shard)),
            // With a pipeline the rank's batch is cut into micro-batches of one sequence
            // (`pipeline_parallel_microbatch_size`'s default).
            micro_batch: if pp > 1 { 1 } else { local },
            global_batch: global,
            seq_len: seq,
            recompute: self.recompute.unwrap_or(crate::model::Recompute::None),
            recompute_elementwise: None,
            recompute_mlp_up: None,
            recipe: self.recipe.unwrap_or(crate::model::Recipe::MegatronBf16),
            grads: crate::model::Grads::Fp32,
            zero: if shard > 1 { 3 } else { 0 },
            sequence_parallel: None,
        })
    }
}

/// Reads one log. `name` is what the report calls it.
pub fn read(name: &str, bytes: &[u8]) -> Result<Reading, Why> {
    let head = &bytes[..bytes.len().min(1 << 16)];
    if head.contains(&0) {
        return Err(Why::Binary);
    }
    let mut lines = 0u64;
    let mut skipped_lines = 0u64;
    let mut megatron = Iterations::default();
    let mut titan_steps = Iterations::default();
    let mut maxtext = Iterations::default();
    let mut mllog_step = Iterations::default();
    let mut mllog_throughput = Iterations::default();
    let mut gbs: Option<f64> = None;
    let mut header = String::new();
    // MaxText prints every setting at start (`Config param KEY: VALUE`, pyconfig.py).
    let mut maxtext_config = String::new();
    // torchtitan prints its mesh, batch, checkpointing and low-precision recipe (v0.2.2's
    // parallel_dims.py, train.py, activation_checkpoint.py, quantization/).
    let mut titan = TitanPlan::default();
    let mut in_args = false;
    let mut nccl: Vec<(f64, f64, f64)> = Vec::new();
    let mut hosts: Vec<String> = Vec::new();
    let mut nccl_ranks = 0u32;
    let mut collective = String::new();
    let mut serving: Option<Measured> = None;
    for raw in bytes.split(|&b| b == b'\n') {
        lines += 1;
        if raw.len() > MAX_LINE {
            skipped_lines += 1;
            continue;
        }
        let Ok(text) = std::str::from_utf8(raw) else {
            skipped_lines += 1;
            continue;
        };
        // Most lines of a long log are none of these: pass them without copying. The first
        // marker found says which; torchtitan's plan lines are looked at only for theirs.
        let marker = MARKERS.iter().position(|m| text.contains(m));
        let marked = in_args
            || marker.is_some()
            || text.trim_start().starts_with(|c: char| c.is_ascii_digit() || c == '#');
        if !marked {
            continue;
        }
        let line = plain(text.trim_end_matches('\r'));
        let line = line.as_ref();
        if line.contains("------------------------ arguments") {
            in_args = true;
            continue;
        }
        if line.contains("end of arguments") {
            in_args = false;
            continue;
        }
        if in_args {
            if header.len() < MAX_LINE * 4 {
                header.push_str(line);
                header.push('\n');
            }
            continue;
        }
        if let Some(setting) = line.split("Config param ").nth(1) {
            if maxtext_config.len() < MAX_LINE * 4 {
                maxtext_config.push_str(setting);
                maxtext_config.push('\n');
            }
            continue;
        }
        if marker.is_some_and(|m| m >= TITAN_MARKERS) && titan.read(line) {
            continue;
        }
        if line.contains("elapsed time per iteration (ms):") {
            if let (Some(step), Some(ms)) =
                (after(line, "iteration"), after(line, "elapsed time per iteration (ms):"))
            {
                megatron.add(step as u64, ms / 1e3);
                if let Some(b) = after(line, "global batch size:") {
                    gbs = Some(b);
                }
            }
        } else if line.contains("tps:") && line.contains("step:") {
            if let (Some(step), Some(tps)) = (after(line, "step:"), after(line, "tps:")) {
                titan_steps.add(step as u64, tps);
            }
        } else if line.contains("completed step:") && line.contains("seconds:") {
            if let (Some(step), Some(s)) = (after(line, "completed step:"), after(line, "seconds:"))
            {
                maxtext.add(step as u64, s);
            }
        } else if let Some(record) = line.find(":::MLLOG").map(|i| &line[i + 8..]) {
            let Ok(v) = serde_json::from_str::<MlLog>(record.trim()) else { continue };
            match v.key.as_str() {
                "global_batch_size" => gbs = v.value.as_f64().or(gbs),
                "tracked_stats" => {
                    let step = v.metadata.step.as_f64().unwrap_or(0.0) as u64;
                    let stats: Tracked = serde_json::from_value(v.value).unwrap_or_default();
                    if let Some(t) = stats.train_step_time {
                        mllog_step.add(step, t);
                    }
                    if let Some(t) = stats.throughput {
                        mllog_throughput.add(step, t);
                    }
                }
                _ => {}
            }
        } else if let Some(row) = nccl_row(line) {
            nccl.push(row);
        } else if let Some(rank) = line.strip_prefix("#  Rank") {
            // `#  Rank  0 Group  0 Pid  1234 on node001 device  0 [0x18] NVIDIA H100 …`
            nccl_ranks = nccl_ranks.saturating_add(1);
            let host = rank.split(" on ").nth(1).and_then(|h| h.split_whitespace().next());
            if let Some(host) = host.filter(|h| !hosts.iter().any(|k| k == h)) {
                if hosts.len() < MAX_SAMPLES {
                    hosts.push(host.to_string());
                }
            }
        } else if let Some(name) = line.strip_prefix("# Collective test concluded:") {
            collective = name.trim().chars().take(64).collect();
        } else if line.trim_start().starts_with('{') && line.contains("output_throughput") {
            if let Ok(v) = serde_json::from_str::<Value>(&python_json(line.trim())) {
                serving = Some(served(&v));
            }
        }
    }
    // A whole JSON file (vLLM's `--save-result`) is one object over several lines.
    let object = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if serving.is_none() && object && bytes.len() < (1 << 24) {
        let text = String::from_utf8_lossy(bytes);
        if let Ok(v) = serde_json::from_str::<Value>(&python_json(&text)) {
            if v.get("output_throughput").is_some() {
                serving = Some(served(&v));
            }
        }
    }
    let plan = (!header.is_empty()).then(|| launch::read_printed(&header).ok()).flatten();
    let world = header
        .lines()
        .filter_map(launch::printed_argument)
        .find(|(k, _)| *k == "world_size")
        .and_then(|(_, v)| v.parse().ok());
    let reading = |format, measured, (samples, warmup, ranks): (u32, u32, u32)| Reading {
        name: name.to_string(),
        format,
        measured,
        lines,
        samples,
        warmup,
        ranks,
        skipped_lines,
        plan: plan.clone(),
        world,
        shape: Shape::read(header.lines().filter_map(launch::printed_argument), &MEGATRON_SHAPE),
    };
    if let Some((s, n, w, r)) = megatron.settled() {
        return Ok(reading(Format::Megatron, Measured::StepS(s), (n, w, r)));
    }
    if let Some((s, n, w, r)) = mllog_step.settled() {
        return Ok(reading(Format::Mllog, Measured::StepS(s), (n, w, r)));
    }
    if let (Some((samples_per_s, n, w, r)), Some(b)) = (mllog_throughput.settled(), gbs) {
        return Ok(reading(Format::Mllog, Measured::StepS(b / samples_per_s), (n, w, r)));
    }
    if let Some((t, n, w, r)) = titan_steps.settled() {
        let mut read = reading(Format::Torchtitan, Measured::TokensPerChipS(t), (n, w, r));
        if let Some(plan) = titan.plan() {
            read.world = Some(plan.chips());
            read.plan = Some(plan);
        }
        return Ok(read);
    }
    if let Some((s, n, w, r)) = maxtext.settled() {
        let mut read = reading(Format::Maxtext, Measured::StepS(s), (n, w, r));
        let settings = maxtext_config.lines().filter_map(|l| l.split_once(':'));
        read.shape = Shape::read(settings.map(|(k, v)| (k.trim(), v)), &MAXTEXT_SHAPE);
        if !maxtext_config.is_empty() {
            let config = [("config.yml", maxtext_config.as_str())];
            if let Ok(launch::Read::Training(plan)) =
                launch::read(launch::Framework::Maxtext, &config)
            {
                read.world = Some(plan.chips());
                read.plan = Some(plan);
            }
        }
        return Ok(read);
    }
    if let Some(m) = serving {
        return Ok(reading(Format::BenchServing, m, (1, 0, 1)));
    }
    if !nccl.is_empty() {
        let smallest = nccl.iter().min_by(|a, b| a.0.total_cmp(&b.0)).copied().unwrap_or_default();
        let largest = nccl.iter().max_by(|a, b| a.0.total_cmp(&b.0)).copied().unwrap_or_default();
        let m = Measured::Fabric(Table {
            collective,
            ranks: (nccl_ranks > 0).then_some(nccl_ranks),
            nodes: (!hosts.is_empty()).then_some(hosts.len() as u32),
            smallest_bytes: smallest.0,
            smallest_us: smallest.1,
            largest_bytes: largest.0,
            largest_us: largest.1,
            bus_gb_per_s: largest.2,
        });
        return Ok(reading(Format::Nccl, m, (nccl.len() as u32, 0, 1)));
    }
    Err(Why::NoLines { lines })
}

/// A `bench_serving` result's figures (the keys SGLang's `bench_serving.py` and vLLM's
/// `vllm bench serve` write).
fn served(v: &Value) -> Measured {
    let f = |k: &str| v[k].as_f64().filter(|x| x.is_finite() && *x >= 0.0);
    let per_request = |k: &str| Some(f(k)? / f("completed").filter(|n| *n >= 1.0)?);
    Measured::Serving {
        output_tokens_per_s: f("output_throughput"),
        requests_per_s: f("request_throughput"),
        ttft_p50_ms: f("median_ttft_ms"),
        ttft_p99_ms: f("p99_ttft_ms"),
        tpot_p50_ms: f("median_tpot_ms"),
        tpot_p99_ms: f("p99_tpot_ms"),
        concurrency: f("max_concurrency"),
        input_tokens: per_request("total_input_tokens"),
        output_tokens: per_request("total_output_tokens"),
    }
}

/// Python's JSON as JSON: `json.dumps` writes an unbounded request rate as `Infinity` (SGLang's
/// and vLLM's benchmarks run at `request_rate=inf` by default), and a missing figure as `NaN`;
/// both become `null`.
fn python_json(text: &str) -> String {
    text.replace(": -Infinity", ": null").replace(": Infinity", ": null").replace(": NaN", ": null")
}

/// A data row of an nccl-tests table: size in bytes, out-of-place time in microseconds and
/// bus bandwidth in GB/s (`size count type redop root time algbw busbw #wrong ...`,
/// nccl-tests' `src/common.cu`).
fn nccl_row(line: &str) -> Option<(f64, f64, f64)> {
    if !line.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let cols: Vec<&str> = line.split_whitespace().take(9).collect();
    if cols.len() < 9 {
        return None;
    }
    let size: f64 = cols[0].parse().ok()?;
    let _count: u64 = cols[1].parse().ok()?;
    if !matches!(cols[2], "float" | "half" | "bfloat16" | "double" | "int8" | "uint8" | "int32") {
        return None;
    }
    let time: f64 = cols[5].parse().ok()?;
    let busbw: f64 = cols[7].parse().ok()?;
    Some((size, time, busbw))
}

/// One `:::MLLOG` record: its key, its value and the step it was logged at.
#[derive(serde::Deserialize)]
struct MlLog {
    key: String,
    #[serde(default)]
    value: Value,
    #[serde(default)]
    metadata: MlLogAt,
}

/// Where an `:::MLLOG` record was logged: its step, a number when it is one.
#[derive(Default, serde::Deserialize)]
struct MlLogAt {
    #[serde(default)]
    step: Value,
}

/// The value of an `:::MLLOG` `tracked_stats` record: the step's time and throughput.
#[derive(Default, serde::Deserialize)]
struct Tracked {
    train_step_time: Option<f64>,
    throughput: Option<f64>,
}

/// A plan as changes to a scenario: degrees, batch, recomputation and precision.
pub fn plan_changes(plan: &Plan, world: Option<u32>) -> Value {
    let mut parallelism = json!({
        "tp": plan.tp, "pp": plan.pp, "cp": plan.cp, "ep": plan.ep,
        "virtual_stages": plan.vp, "micro_batch": plan.micro_batch, "zero": plan.zero,
        "recompute": fields::PARALLELISM_RECOMPUTE.code(plan.recompute),
        "dp": null,
    });
    let given = [
        plan.sequence_parallel.map(|sp| json!({ "sequence_parallel": sp })),
        plan.recompute_elementwise.map(|e| json!({ "recompute_elementwise": e })),
        (plan.etp != plan.tp).then(|| json!({ "etp": plan.etp })),
    ];
    for part in given.into_iter().flatten() {
        merge(&mut parallelism, &part);
    }
    let mut changes = json!({
        "parallelism": parallelism,
        "training": { "global_batch": plan.global_batch,
                      "recipe": fields::TRAINING_RECIPE.code(plan.recipe),
                      "grads": fields::TRAINING_GRADS.code(plan.grads) },
        "model": { "seq_len": plan.seq_len },
    });
    let chips = world.or(plan.dp.map(|_| plan.chips()));
    if let Some(chips) = chips {
        merge(&mut changes, &json!({ "cluster": { "chips": chips } }));
    }
    changes
}

/// The readings as `calibration` entries of `scenario` (each naming the scenario's chip and
/// stack, so it calibrates only them), and the readings that gave none with why.
pub fn entries(
    readings: &[Reading],
    scenario: Option<&Scenario>,
) -> (Vec<Value>, Vec<(String, Why)>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let plan_model = scenario.and_then(|s| s.resolve().ok()).map(|i| i.transformer);
    let pinned = |mut changes: Value, model: Option<Value>| {
        if let Some(s) = scenario {
            let v = s.to_value();
            if let Some(chip) = v.pointer("/cluster/chip") {
                merge(&mut changes, &json!({ "cluster": { "chip": chip } }));
            }
            if let Some(stack) = v.pointer("/parallelism/stack") {
                merge(&mut changes, &json!({ "parallelism": { "stack": stack } }));
            }
            // The run's model is the one its log names, else the plan's, named as the plan
            // names it.
            match model {
                Some(Value::Object(model)) => {
                    // None of the plan's own changes to its model carry to another model.
                    if let Some(Value::Object(own)) = v.get("model") {
                        let unset: Map<String, Value> = own
                            .keys()
                            .filter(|k| *k != "seq_len")
                            .map(|k| (k.clone(), Value::Null))
                            .collect();
                        merge(&mut changes, &json!({ "model": unset }));
                    }
                    merge(&mut changes, &json!({ "model": model }));
                }
                _ => {
                    if let Some(preset) = v.pointer("/model/preset") {
                        merge(&mut changes, &json!({ "model": { "preset": preset } }));
                    }
                }
            }
        }
        changes
    };
    for r in readings {
        let changes = match (&r.plan, scenario) {
            (Some(plan), _) => plan_changes(plan, r.world),
            (None, Some(_)) => json!({ "parallelism": {} }),
            (None, None) => {
                skipped.push((r.name.clone(), Why::NoPlan));
                continue;
            }
        };
        let measured = match &r.measured {
            Measured::StepS(s) => json!({ "step_s": s }),
            Measured::TokensPerChipS(t) => {
                let chips = r.world.or_else(|| {
                    scenario.and_then(|s| s.resolve().ok()).map(|i| {
                        let p = &i.parallelism;
                        p.tensor.max(1) * p.pipeline.max(1) * p.data.max(1) * p.context.max(1)
                    })
                });
                match chips {
                    Some(c) => json!({ "tokens_per_s": t * c as f64 }),
                    None => {
                        skipped.push((r.name.clone(), Why::NoPlan));
                        continue;
                    }
                }
            }
            // A fabric's table sets the links, not a calibration entry (`fit_fabric`).
            Measured::Fabric(_) => continue,
            // A serving benchmark sets serving's kernel share (`fit_serving`).
            Measured::Serving { .. } => continue,
        };
        // A log that names a model other than the plan's measured that model.
        let model = match (r.shape, &plan_model, scenario) {
            (Some(shape), Some(t), Some(s)) if !shape.is(t) => {
                let preset = s.to_value().pointer("/model/preset").cloned().unwrap_or(Value::Null);
                match shape.model(&preset, t) {
                    Some(model) => Some(model),
                    None => {
                        skipped.push((r.name.clone(), Why::OtherModel(shape)));
                        continue;
                    }
                }
            }
            _ => None,
        };
        out.push(json!({ "scenario": pinned(changes, model), "measured": measured }));
    }
    (out, skipped)
}

/// A fabric fitted to an nccl-tests all-reduce: which links (`scale_out` when the ranks span
/// scale-up domains, else `scale_up`), the share of their line rate large messages reach and
/// the latency of one step, as the model's all-reduce times them
/// (`model::collectives::collective_s`); and the model's times of the table's smallest and
/// largest messages before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct FabricFit {
    /// `scale_out` or `scale_up`.
    pub links: &'static str,
    pub efficiency: f64,
    pub latency_us: f64,
    /// The model's seconds for the smallest and the largest message, with the scenario's
    /// fabric and with the fit.
    pub before_s: (f64, f64),
    pub after_s: (f64, f64),
}

/// Fits the links an all-reduce table ran over to its times: the share of the line rate by
/// bisection on the largest message, then the step latency from the smallest (the model's
/// time is affine in it), twice over.
pub fn fit_fabric(table: &Table, inputs: &crate::model::Inputs) -> Result<FabricFit, Why> {
    use crate::model::collectives::{collective_s, Collective, Group};
    let ranks = table.ranks.unwrap_or(0);
    if !table.collective.starts_with("all_reduce") || ranks < 2 {
        return Err(Why::NotCalibrated(Format::Nccl));
    }
    let c = &inputs.cluster;
    // A domain no larger than a host is the ranks the test ran on each host (a test of 4 of 8
    // GPUs a host reaches the others over the network); a rack-scale domain spans hosts.
    let domain = c.rank_domain().max(1);
    let per_node = ranks.div_ceil(table.nodes.unwrap_or(1).max(1)).max(1);
    let domain = if domain <= c.chips_per_node.max(1) { domain.min(per_node) } else { domain };
    let out = ranks > domain;
    let group = Group::place(ranks, 1, domain);
    let time = |bytes: f64, efficiency: f64, latency_s: f64| {
        let (mut up, mut link) = (c.scale_up, c.scale_out);
        if out {
            link.efficiency = efficiency;
            link.latency_s = latency_s;
        } else {
            up.link.efficiency = efficiency;
            up.link.latency_s = latency_s;
        }
        collective_s(Collective::AllReduce, bytes, group, &up, &link, &c.network)
    };
    let (large, small) = (table.largest_bytes, table.smallest_bytes);
    let (t_large, t_small) = (table.largest_us * 1e-6, table.smallest_us * 1e-6);
    let own = if out { c.scale_out } else { c.scale_up.link };
    let before_s =
        (time(small, own.efficiency, own.latency_s), time(large, own.efficiency, own.latency_s));
    let (mut efficiency, mut latency_s) = (own.efficiency, own.latency_s);
    for _ in 0..2 {
        if time(large, 1.0, latency_s) > t_large {
            return Err(Why::FabricBeyond);
        }
        let (mut lo, mut hi) = (0.01, 1.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if time(large, mid, latency_s) > t_large {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        efficiency = 0.5 * (lo + hi);
        let (at0, at1) = (time(small, efficiency, 0.0), time(small, efficiency, 1e-6));
        let per_us = at1 - at0;
        if per_us > 0.0 {
            latency_s = ((t_small - at0) / per_us).clamp(0.1, 1000.0) * 1e-6;
        }
    }
    let after_s = (time(small, efficiency, latency_s), time(large, efficiency, latency_s));
    Ok(FabricFit {
        links: if out { "scale_out" } else { "scale_up" },
        efficiency,
        latency_us: latency_s * 1e6,
        before_s,
        after_s,
    })
}

/// `scenario` with the fitted links' efficiency and latency, the preset they were fitted on
/// kept.
pub fn with_fabric(scenario: &Scenario, fit: &FabricFit) -> Scenario {
    use crate::scenario::paths;
    let (path, efficiency, latency) = if fit.links == "scale_out" {
        (
            paths::CLUSTER_SCALE_OUT,
            &fields::CLUSTER_SCALE_OUT_EFFICIENCY,
            &fields::CLUSTER_SCALE_OUT_LATENCY_US,
        )
    } else {
        (
            paths::CLUSTER_SCALE_UP,
            &fields::CLUSTER_SCALE_UP_EFFICIENCY,
            &fields::CLUSTER_SCALE_UP_LATENCY_US,
        )
    };
    let mut s = scenario.clone();
    // Links that follow the chip's are named by its preset first, so the edit keeps them.
    if s.get(path.as_str()).is_none() {
        let own = scenario.chip_preset().map(|c| {
            if fit.links == "scale_out" {
                c.scale_out
            } else {
                c.scale_up
            }
        });
        if let Some(id) = own {
            s = s.with(path, Some(json!(id)));
        }
    }
    let round = |x: f64, digits: i32| (x * 10f64.powi(digits)).round() / 10f64.powi(digits);
    s.with(efficiency, Some(json!(round(fit.efficiency.min(1.0), 3))))
        .with(latency, Some(json!(round(fit.latency_us, 2))))
}

/// Serving's kernel share fitted to a `bench_serving` result: the share at which the model's
/// median time per output token, at the benchmark's concurrency and request lengths on the
/// scenario's deployment, is the one measured; with the share the scenario had and the
/// model's times per output token before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct ServingFit {
    pub kernel_share: f64,
    pub catalog_share: f64,
    pub measured_tpot_s: f64,
    pub before_tpot_s: f64,
    pub after_tpot_s: f64,
    pub concurrency: u32,
}

/// Fits serving's kernel share to a benchmark's median time per output token by bisection
/// over the share's range (the time falls as the share grows): the scenario's serving with
/// the benchmark's request lengths, its concurrency as the batch, and no latency target to
/// cut the batch.
pub fn fit_serving(m: &Measured, scenario: &Scenario) -> Result<ServingFit, Why> {
    use crate::model::serving::{self, SHARE_RANGE};
    let Measured::Serving { tpot_p50_ms, concurrency, input_tokens, output_tokens, .. } = *m else {
        return Err(Why::NotCalibrated(Format::BenchServing));
    };
    let usable = |x: Option<f64>| x.filter(|x| x.is_finite() && *x > 0.0);
    let (Some(tpot_p50_ms), Some(concurrency), Some(input_tokens), Some(output_tokens)) =
        (usable(tpot_p50_ms), usable(concurrency), usable(input_tokens), usable(output_tokens))
    else {
        return Err(Why::NotCalibrated(Format::BenchServing));
    };
    let mut inputs = scenario.resolve().map_err(|_| Why::NoPlan)?;
    let estimate = crate::model::estimate(&inputs);
    let Some(asked) = inputs.serving.as_mut() else {
        return Err(Why::NotCalibrated(Format::BenchServing));
    };
    asked.input_tokens = input_tokens;
    asked.output_tokens = output_tokens;
    asked.max_batch = concurrency.round().clamp(1.0, 1e6) as u32;
    asked.tpot_s = 1e6;
    asked.ttft_s = 1e6;
    asked.requests_per_s = 0.0;
    let catalog_share = if asked.kernel_share > 0.0 { asked.kernel_share } else { 1.0 };
    let tpot = |share: f64| {
        let mut at = inputs;
        if let Some(s) = at.serving.as_mut() {
            s.kernel_share = share;
        }
        serving::of(&at, &estimate).map_or(f64::NAN, |e| e.tpot_s)
    };
    let measured = tpot_p50_ms * 1e-3;
    let (lo_end, hi_end) = (tpot(SHARE_RANGE.1), tpot(SHARE_RANGE.0));
    if !(lo_end <= measured && measured <= hi_end) {
        return Err(Why::ServingBeyond);
    }
    let (mut lo, mut hi) = SHARE_RANGE;
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if tpot(mid) > measured {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let kernel_share = 0.5 * (lo + hi);
    Ok(ServingFit {
        kernel_share,
        catalog_share,
        measured_tpot_s: measured,
        before_tpot_s: tpot(catalog_share),
        after_tpot_s: tpot(kernel_share),
        concurrency: concurrency.round().clamp(1.0, 1e6) as u32,
    })
}
