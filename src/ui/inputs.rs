//! The four input panels: model, training, cluster, parallelism.
//!
//! Each field shows what the scenario says, or the value a preset or default gives it, and
//! the errors and warnings that concern it.

use serde_json::{json, Value};
use yew::prelude::*;

use super::fields::{Change, NumberField, SelectField, Slider, ToggleField};
use super::format;
use super::state::{Good, State};
use crate::model::presets::{self, units};
use crate::model::{AttentionImpl, FfnKind, Recipe, Recompute, Sharding, Warning};
use crate::scenario::value_at;

/// Properties shared by the panels.
#[derive(Properties, PartialEq, Clone)]
pub struct PanelProps {
    /// Current state.
    pub state: UseReducerHandle<State>,
    /// Called with each change.
    pub on_set: Callback<Vec<Change>>,
}

/// The scenario field a warning concerns, so it is shown next to that input.
fn warning_path(w: &Warning) -> &'static str {
    match w {
        Warning::DoesNotFit { .. } => "parallelism.recompute",
        Warning::DegreesMismatch { .. } => "parallelism.dp",
        Warning::TensorSplitsHeads { .. }
        | Warning::TensorReplicatesKvHeads { .. }
        | Warning::TensorCrossesDomain { .. } => "parallelism.tp",
        Warning::BatchNotDivisible { .. } | Warning::IdleReplicas { .. } => "training.global_batch",
        Warning::LayersNotDivisible { .. } | Warning::FewMicrobatches { .. } => "parallelism.pp",
        Warning::InterleavingNeedsMultiple { .. } => "parallelism.virtual_stages",
        Warning::ExpertCrossesDomain { .. }
        | Warning::ExpertDegreeExceedsExperts { .. }
        | Warning::ExpertDegreeNotDivisible { .. }
        | Warning::ExpertParallelWithoutExperts { .. } => "parallelism.ep",
        Warning::ContextSplitsSequence { .. } => "parallelism.cp",
        Warning::Fp8Unsupported => "training.recipe",
        Warning::SequenceParallelWithoutTensor => "parallelism.sequence_parallel",
        Warning::ShardingWithoutReplicas => "parallelism.zero",
        Warning::VirtualStagesWithoutPipeline => "parallelism.virtual_stages",
    }
}

/// Reads the state for one panel.
struct Form<'a> {
    state: &'a State,
    good: Option<&'a Good>,
    on_set: Callback<Vec<Change>>,
    /// The scenario as JSON, serialized once per render for every field to read.
    json: Value,
}

impl<'a> Form<'a> {
    fn new(props: &'a PanelProps) -> Form<'a> {
        Form {
            state: &props.state,
            good: props.state.good.as_deref(),
            on_set: props.on_set.clone(),
            json: serde_json::to_value(&props.state.scenario).unwrap_or_default(),
        }
    }

    fn raw(&self, path: &str) -> Option<Value> {
        value_at(&self.json, path).cloned()
    }

    fn notes(&self, path: &str) -> Vec<String> {
        let Some(good) = self.good else { return Vec::new() };
        if self.state.stale() {
            return Vec::new();
        }
        good.estimate
            .warnings
            .iter()
            .filter(|w| warning_path(w) == path)
            .map(|w| w.to_string())
            .collect()
    }

    /// A number field whose value is the scenario's, else `resolved`.
    #[allow(clippy::too_many_arguments)]
    fn number(
        &self,
        path: &str,
        testid: &str,
        label: &str,
        unit: &str,
        resolved: Option<f64>,
        slider: Option<Slider>,
        reading: String,
    ) -> Html {
        let shown = resolved.map(|v| {
            if v.fract() == 0.0 && v.abs() < 1e15 {
                format!("{v:.0}")
            } else {
                format!("{v}")
            }
        });
        // A value the scenario sets is shown as typed; one that a preset or default gives is
        // the placeholder, and emptying a box goes back to it.
        let value = self.raw(path).map(|v| format::raw(&v)).unwrap_or_default();
        html! {
            <NumberField path={path.to_string()} testid={testid.to_string()} label={label.to_string()}
                unit={unit.to_string()} value={value} placeholder={shown.unwrap_or_default()}
                slider={slider} reading={reading} optional=true
                errors={self.state.errors_for(path)} notes={self.notes(path)} on_set={self.on_set.clone()} />
        }
    }

    /// A field that falls back to a derived value when empty ("auto").
    fn auto_number(
        &self,
        path: &str,
        testid: &str,
        label: &str,
        derived: Option<f64>,
        slider: Slider,
    ) -> Html {
        let set = self.raw(path).map(|v| format::raw(&v));
        let reading = if set.is_some() {
            "set by hand; empty the box for automatic"
        } else {
            "automatic: chips ÷ (TP × PP × CP)"
        };
        html! {
            <NumberField path={path.to_string()} testid={testid.to_string()} label={label.to_string()}
                value={set.unwrap_or_default()} placeholder={derived.map(|d| format!("{d:.0}")).unwrap_or_default()}
                slider={slider} optional=true reading={reading}
                errors={self.state.errors_for(path)} notes={self.notes(path)} on_set={self.on_set.clone()} />
        }
    }

    fn toggle(&self, path: &str, testid: &str, label: &str, resolved: bool) -> Html {
        let checked = self.raw(path).and_then(|v| v.as_bool()).unwrap_or(resolved);
        html! {
            <ToggleField path={path.to_string()} testid={testid.to_string()} label={label.to_string()}
                checked={checked} notes={self.notes(path)} on_set={self.on_set.clone()} />
        }
    }

    /// A select that writes its choice to `path` as text.
    fn choice(
        &self,
        path: &str,
        testid: &str,
        label: &str,
        options: &[(&str, &str)],
        resolved: &str,
    ) -> Html {
        let value = self
            .raw(path)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or(resolved.to_string());
        let on_set = self.on_set.clone();
        let p = path.to_string();
        let on_change =
            Callback::from(move |v: String| on_set.emit(vec![(p.clone(), Some(Value::String(v)))]));
        html! {
            <SelectField testid={testid.to_string()} label={label.to_string()}
                options={options.iter().map(|(v, t)| (AttrValue::from(v.to_string()), AttrValue::from(t.to_string()))).collect::<Vec<_>>()}
                value={value} errors={self.state.errors_for(path)} notes={self.notes(path)} on_change={on_change} />
        }
    }
}

/// The transformer: preset or custom dimensions, mixture of experts.
#[function_component(ModelPanel)]
pub fn model_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let t = f.good.map(|g| g.inputs.transformer);
    let preset = f.raw("model.preset").and_then(|v| v.as_str().map(str::to_string));
    let mut options: Vec<(AttrValue, AttrValue)> = presets::TRANSFORMERS
        .iter()
        .map(|p| (AttrValue::from(p.id), AttrValue::from(p.name)))
        .collect();
    options.push(("custom".into(), "Custom dimensions".into()));
    let on_preset = {
        let on_set = f.on_set.clone();
        Callback::from(move |id: String| {
            let model = if id == "custom" {
                t.map(custom_model).unwrap_or_else(|| json!({}))
            } else {
                json!({ "preset": id })
            };
            on_set.emit(vec![("model".into(), Some(model))]);
        })
    };
    let detail = f.good.map(|g| {
        format!(
            "{} parameters, {} active per token",
            format::count(g.estimate.params),
            format::count(g.estimate.active_params)
        )
    });
    let n = |x: Option<u32>| x.map(|v| v as f64);
    let moe = t.and_then(|t| t.moe);
    // What the scenario says wins over the last valid result, which may be stale.
    let moe_on = match f.raw("model.moe") {
        Some(Value::Object(_)) => true,
        Some(Value::Bool(false)) | Some(Value::Null) => false,
        _ => moe.is_some(),
    };
    html! {
        <section class="panel">
            <h2>{ "Model" }</h2>
            <SelectField testid="model-preset" label="Transformer" options={options}
                value={preset.unwrap_or_else(|| "custom".into())} detail={detail.unwrap_or_default()}
                errors={f.state.errors_for("model.preset")} on_change={on_preset} />
            <div class="grid">
                { f.number("model.layers", "layers", "Layers", "", n(t.map(|t| t.n_layers)), None, String::new()) }
                { f.number("model.hidden", "hidden", "Hidden size", "", n(t.map(|t| t.hidden)), None, String::new()) }
                { f.number("model.heads", "heads", "Attention heads", "", n(t.map(|t| t.n_heads)), None, String::new()) }
                { f.number("model.kv_heads", "kv-heads", "KV heads", "", n(t.map(|t| t.n_kv_heads)), None, String::new()) }
                { f.number("model.ffn", "ffn", "FFN size", "", n(t.map(|t| t.ffn)), None, String::new()) }
                { f.number("model.vocab", "vocab", "Vocabulary", "tokens", n(t.map(|t| t.vocab)), None, String::new()) }
            </div>
            { f.number("model.seq_len", "seq-len", "Sequence length", "tokens", n(t.map(|t| t.seq_len)),
                Some(Slider::Pow2 { min: 9, max: 20 }), String::new()) }
            <div class="grid">
                { f.choice("model.ffn_act", "ffn-act", "Feed-forward", &[("gelu", "GELU MLP"), ("swiglu", "SwiGLU")],
                    if t.is_some_and(|t| t.ffn_kind == FfnKind::SwiGlu) { "swiglu" } else { "gelu" }) }
                { f.choice("model.attention", "attention", "Attention", &[("flash", "Flash (fused)"), ("materialized", "Materialised scores")],
                    if t.is_some_and(|t| t.attention == AttentionImpl::Materialized) { "materialized" } else { "flash" }) }
            </div>
            <ToggleField path="model.moe" testid="moe" label="Mixture of experts" checked={moe_on}
                on_set={f.on_set.reform(|changes: Vec<Change>| {
                    changes.into_iter().map(|(path, on)| {
                        let value = if on == Some(Value::Bool(true)) { json!({ "experts": 8, "top_k": 2 }) } else { Value::Bool(false) };
                        (path, Some(value))
                    }).collect::<Vec<_>>()
                })} />
            if let Some(m) = moe {
                <div class="grid">
                    { f.number("model.moe.experts", "experts", "Routed experts", "", Some(m.n_experts as f64), None, String::new()) }
                    { f.number("model.moe.top_k", "top-k", "Experts per token", "", Some(m.top_k as f64), None, String::new()) }
                    { f.number("model.moe.shared_experts", "shared-experts", "Shared experts", "", Some(m.n_shared_experts as f64), None, String::new()) }
                    { f.number("model.moe.expert_ffn", "expert-ffn", "Expert FFN size", "", Some(m.expert_ffn as f64), None, String::new()) }
                    { f.number("model.moe.dense_layers", "dense-layers", "Leading dense layers", "", Some(m.n_dense_layers as f64), None, String::new()) }
                </div>
            }
        </section>
    }
}

/// The current transformer written out as explicit dimensions.
fn custom_model(t: crate::model::Transformer) -> Value {
    let mut model = json!({
        "layers": t.n_layers, "hidden": t.hidden, "heads": t.n_heads, "kv_heads": t.n_kv_heads,
        "head_dim": t.head_dim, "ffn": t.ffn, "vocab": t.vocab, "seq_len": t.seq_len,
        "ffn_act": if t.ffn_kind == FfnKind::SwiGlu { "swiglu" } else { "gelu" },
        "attention": if t.attention == AttentionImpl::Flash { "flash" } else { "materialized" },
        "tied_embeddings": t.tied_embeddings, "dropout": t.dropout, "mtp_layers": t.mtp_layers,
    });
    if let Some(m) = t.moe {
        model["moe"] = json!({ "experts": m.n_experts, "top_k": m.top_k, "shared_experts": m.n_shared_experts,
            "expert_ffn": m.expert_ffn, "dense_layers": m.n_dense_layers,
            "capacity_factor": m.capacity_factor, "node_limit": m.node_limit });
    }
    model
}

/// Token budget, batch, precision.
#[function_component(TrainingPanel)]
pub fn training_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let i = f.good.map(|g| g.inputs);
    let tokens = i.map(|i| i.training.tokens);
    let batch = i.map(|i| i.training.global_batch as f64);
    let per_step = i.map(|i| i.training.global_batch as f64 * i.transformer.seq_len as f64);
    let recipe = match i.map(|i| i.training.recipe) {
        Some(Recipe::TorchAmp) => "torch-amp",
        Some(Recipe::Fp8) => "fp8",
        _ => "megatron-bf16",
    };
    html! {
        <section class="panel">
            <h2>{ "Training" }</h2>
            { f.number("training.tokens", "tokens", "Tokens to train", "tokens", tokens, Some(Slider::Log10 { min: 9, max: 14 }),
                tokens.map(|t| format!("{} tokens", format::count(t))).unwrap_or_default()) }
            { f.number("training.global_batch", "global-batch", "Global batch", "sequences", batch, Some(Slider::Pow2 { min: 0, max: 16 }),
                per_step.map(|t| format!("{} tokens per step", format::count(t))).unwrap_or_default()) }
            { f.choice("training.recipe", "recipe", "Precision recipe", &[
                ("megatron-bf16", "BF16, FP32 master and Adam (18 B/param)"),
                ("torch-amp", "FP32 weights, AMP (16 B/param)"),
                ("fp8", "FP8 GEMMs, BF16 moments (14 B/param)"),
            ], recipe) }
        </section>
    }
}

/// The machine: chip, count, fabrics.
#[function_component(ClusterPanel)]
pub fn cluster_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let c = f.good.map(|g| g.inputs.cluster);
    let chip_raw = f.raw("cluster.chip");
    let chip_id = match &chip_raw {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Object(map)) if map.contains_key("preset") && map.len() == 1 => {
            map.get("preset").and_then(Value::as_str).unwrap_or("custom").to_string()
        }
        _ => "custom".to_string(),
    };
    let custom = chip_id == "custom";
    let mut options: Vec<(AttrValue, AttrValue)> = presets::CHIPS
        .iter()
        .map(|p| (AttrValue::from(p.id), AttrValue::from(format!("{} ({})", p.name, p.vendor))))
        .collect();
    options.push(("custom".into(), "Custom chip…".into()));
    let on_chip = {
        let on_set = f.on_set.clone();
        Callback::from(move |id: String| {
            if id == "custom" {
                let Some(c) = c else { return };
                // Every figure of the current chip and fabrics is copied, so the answer does not
                // move until the user changes one.
                let chip = json!({
                    "name": "Custom chip",
                    "bf16_tflops": c.chip.bf16_flops_per_s / units::TFLOPS,
                    "fp8_tflops": c.chip.fp8_flops_per_s / units::TFLOPS,
                    "fp32_tflops": c.chip.fp32_flops_per_s / units::TFLOPS,
                    "hbm_gb": c.chip.hbm_bytes / units::GB,
                    "hbm_tb_per_s": c.chip.hbm_bytes_per_s / units::TB_PER_S,
                    "tdp_w": c.chip.tdp_w,
                    "matmul_efficiency": c.chip.matmul_efficiency,
                    "memory_efficiency": c.chip.memory_efficiency,
                    "price_usd": c.chip.price_usd,
                });
                let scale_up = json!({
                    "bandwidth_gb_per_s": 2.0 * c.scale_up.link.bytes_per_s / units::GB_PER_S,
                    "domain": c.scale_up.domain_size,
                    "latency_us": c.scale_up.link.latency_s / units::US,
                    "efficiency": c.scale_up.link.efficiency,
                });
                let scale_out = json!({
                    "gbit_per_s": c.scale_out.bytes_per_s / units::GBIT_PER_S,
                    "latency_us": c.scale_out.latency_s / units::US,
                    "efficiency": c.scale_out.efficiency,
                });
                on_set.emit(vec![
                    ("cluster.chip".into(), Some(chip)),
                    ("cluster.scale_up".into(), Some(scale_up)),
                    ("cluster.scale_out".into(), Some(scale_out)),
                ]);
            } else {
                on_set.emit(vec![
                    ("cluster.chip".into(), Some(Value::String(id))),
                    ("cluster.scale_up".into(), None),
                    ("cluster.scale_out".into(), None),
                    ("cluster.scale_up_domain".into(), None),
                    ("cluster.chips_per_node".into(), None),
                ]);
            }
        })
    };
    let detail = presets::chip(&chip_id).map(|p| {
        let ch = &p.chip;
        let mut text = format!(
            "{:.0} TFLOP/s BF16 · {:.0} GB · {:.2} TB/s · {:.0} W — {}",
            ch.bf16_flops_per_s / units::TFLOPS,
            ch.hbm_bytes / units::GB,
            ch.hbm_bytes_per_s / units::TB_PER_S,
            ch.tdp_w,
            p.source
        );
        if !p.unverified.is_empty() {
            text.push_str(&format!(" — unverified: {}", p.unverified.join(", ")));
        }
        text
    });
    let fabric_options = |list: Vec<(&'static str, &'static str)>| -> Vec<(AttrValue, AttrValue)> {
        list.into_iter().map(|(id, name)| (AttrValue::from(id), AttrValue::from(name))).collect()
    };
    let up_default = presets::chip(&chip_id).map_or("", |p| p.scale_up);
    let out_default = presets::chip(&chip_id).map_or("", |p| p.scale_out);
    let fabric = |path: &'static str,
                  testid: &'static str,
                  label: &'static str,
                  options: Vec<(AttrValue, AttrValue)>,
                  default: &str| {
        let value =
            f.raw(path).and_then(|v| v.as_str().map(str::to_string)).unwrap_or(default.to_string());
        let on_set = f.on_set.clone();
        html! {
            <SelectField testid={testid} label={label} options={options} value={value}
                errors={f.state.errors_for(path)}
                on_change={Callback::from(move |v: String| on_set.emit(vec![(path.to_string(), Some(Value::String(v)))]))} />
        }
    };
    let n = |x: Option<u32>| x.map(|v| v as f64);
    html! {
        <section class="panel">
            <h2>{ "Cluster" }</h2>
            <SelectField testid="chip" label="Accelerator" options={options} value={chip_id.clone()}
                detail={detail.unwrap_or_default()} errors={f.state.errors_for("cluster.chip")} on_change={on_chip} />
            if custom {
                <div class="grid">
                    { f.number("cluster.chip.bf16_tflops", "chip-bf16", "BF16 dense", "TFLOP/s", c.map(|c| c.chip.bf16_flops_per_s / units::TFLOPS), None, String::new()) }
                    { f.number("cluster.chip.fp8_tflops", "chip-fp8", "FP8 dense", "TFLOP/s", c.map(|c| c.chip.fp8_flops_per_s / units::TFLOPS), None, String::new()) }
                    { f.number("cluster.chip.hbm_gb", "chip-hbm", "Memory", "GB", c.map(|c| c.chip.hbm_bytes / units::GB), None, String::new()) }
                    { f.number("cluster.chip.hbm_tb_per_s", "chip-bw", "Memory bandwidth", "TB/s", c.map(|c| c.chip.hbm_bytes_per_s / units::TB_PER_S), None, String::new()) }
                    { f.number("cluster.scale_up.bandwidth_gb_per_s", "scale-up-bw", "Scale-up bandwidth", "GB/s both ways", c.map(|c| 2.0 * c.scale_up.link.bytes_per_s / units::GB_PER_S), None, String::new()) }
                    { f.number("cluster.scale_out.gbit_per_s", "scale-out-bw", "Network per chip", "Gb/s", c.map(|c| c.scale_out.bytes_per_s / units::GBIT_PER_S), None, String::new()) }
                </div>
            }
            { f.number("cluster.chips", "chips", "Chips", "chips", n(c.map(|c| c.n_chips)), Some(Slider::Pow2 { min: 3, max: 17 }), String::new()) }
            if !custom {
                { fabric("cluster.scale_up", "scale-up", "Scale-up fabric",
                    fabric_options(presets::SCALE_UP.iter().map(|p| (p.id, p.name)).collect()), up_default) }
            }
            <div class="grid">
                { f.number("cluster.scale_up_domain", "scale-up-domain", "Scale-up domain", "chips", n(c.map(|c| c.scale_up.domain_size)), None, String::new()) }
                { f.number("cluster.chips_per_node", "chips-per-node", "Chips per node", "chips", n(c.map(|c| c.chips_per_node)), None, String::new()) }
            </div>
            if !custom {
                { fabric("cluster.scale_out", "scale-out", "Scale-out network",
                    fabric_options(presets::SCALE_OUT.iter().map(|p| (p.id, p.name)).collect()), out_default) }
            }
        </section>
    }
}

/// Parallel degrees and schedule.
#[function_component(ParallelismPanel)]
pub fn parallelism_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let p = f.good.map(|g| g.inputs.parallelism);
    let n = |x: Option<u32>| x.map(|v| v as f64);
    let derived_dp = f.good.map(|g| {
        let q = g.inputs.parallelism;
        g.inputs.cluster.n_chips as f64 / (q.tensor as f64 * q.pipeline as f64 * q.context as f64)
    });
    let zero = match p.map(|p| p.sharding) {
        Some(Sharding::None) => "0",
        Some(Sharding::Gradients) => "2",
        Some(Sharding::Full) => "3",
        _ => "1",
    };
    let recompute = match p.map(|p| p.recompute) {
        Some(Recompute::Selective) => "selective",
        Some(Recompute::Full) => "full",
        _ => "none",
    };
    let on_zero = {
        let on_set = f.on_set.clone();
        Callback::from(move |v: String| {
            on_set.emit(vec![(
                "parallelism.zero".into(),
                Some(Value::from(v.parse::<u64>().unwrap_or(1))),
            )])
        })
    };
    let zero_options: Vec<(AttrValue, AttrValue)> = [
        ("0", "ZeRO-0: replicate everything"),
        ("1", "ZeRO-1: shard optimizer states"),
        ("2", "ZeRO-2: + gradients"),
        ("3", "ZeRO-3 / FSDP: + weights"),
    ]
    .iter()
    .map(|(v, t)| (AttrValue::from(*v), AttrValue::from(*t)))
    .collect();
    html! {
        <section class="panel">
            <h2>{ "Parallelism" }</h2>
            <div class="degrees">
                { f.number("parallelism.tp", "tp", "Tensor (TP)", "", n(p.map(|p| p.tensor)), Some(Slider::Pow2 { min: 0, max: 6 }), String::new()) }
                { f.number("parallelism.pp", "pp", "Pipeline (PP)", "stages", n(p.map(|p| p.pipeline)), Some(Slider::Pow2 { min: 0, max: 7 }), String::new()) }
                { f.auto_number("parallelism.dp", "dp", "Data (DP)", derived_dp, Slider::Pow2 { min: 0, max: 14 }) }
                { f.number("parallelism.cp", "cp", "Context (CP)", "", n(p.map(|p| p.context)), Some(Slider::Pow2 { min: 0, max: 5 }), String::new()) }
                { f.number("parallelism.ep", "ep", "Expert (EP)", "", n(p.map(|p| p.expert)), Some(Slider::Pow2 { min: 0, max: 8 }), String::new()) }
                { f.number("parallelism.micro_batch", "micro-batch", "Micro-batch", "sequences", n(p.map(|p| p.micro_batch)), Some(Slider::Pow2 { min: 0, max: 5 }), String::new()) }
                { f.number("parallelism.virtual_stages", "virtual-stages", "Virtual stages", "per rank", n(p.map(|p| p.virtual_stages)), Some(Slider::Pow2 { min: 0, max: 4 }), String::new()) }
            </div>
            <SelectField testid="zero" label="Sharding" options={zero_options} value={zero}
                errors={f.state.errors_for("parallelism.zero")} notes={f.notes("parallelism.zero")} on_change={on_zero} />
            { f.choice("parallelism.recompute", "recompute", "Activation recomputation",
                &[("none", "None"), ("selective", "Selective (attention core)"), ("full", "Full (whole layers)")], recompute) }
            { f.toggle("parallelism.sequence_parallel", "sp", "Sequence parallelism (with TP)", p.is_some_and(|p| p.sequence_parallel)) }
            { f.toggle("parallelism.dp_overlap", "dp-overlap", "Overlap gradient reduction with backward", p.is_none_or(|p| p.dp_overlap)) }
            { f.toggle("parallelism.ep_overlap", "ep-overlap", "Overlap expert all-to-all (DualPipe)", p.is_some_and(|p| p.ep_overlap)) }
        </section>
    }
}
