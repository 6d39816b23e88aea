//! Megatron-LM, MindSpeed-LLM and Megatron-Bridge: one list of Megatron-Core settings, written
//! as `pretrain_gpt.py` flags (Megatron-LM, MindSpeed-LLM) or as a Megatron-Bridge override
//! file, and read back from either, or from the `arguments` block a Megatron run prints.

use super::{fabric_env, flags, number, words, Cannot, File, Framework, Plan, Site, Unread};
use crate::model::{
    CpKind, CrossEntropy, CudaGraphs, Dispatcher, FfnKind, Grads, Inputs, Recipe, Recompute,
};

/// One setting: Megatron-Core's field name and its values (none for a switch that is on).
type Setting = (&'static str, Vec<String>);

fn one(key: &'static str, v: impl ToString) -> Setting {
    (key, vec![v.to_string()])
}

fn on(key: &'static str) -> Setting {
    (key, Vec::new())
}

/// The recomputation settings: full layers (`recompute_granularity full`, one layer at a time
/// `uniform`), or the named modules (`recompute_modules`: `core_attn` for the attention core,
/// `layernorm` and `moe_act` for the element-wise ops, `mlp` for the dense block the
/// up-projection rerun keeps only the input of).
fn recompute(plan: &Plan) -> Vec<Setting> {
    if plan.recompute == Recompute::Full {
        return vec![
            one("recompute_granularity", "full"),
            one("recompute_method", "uniform"),
            one("recompute_num_layers", 1),
        ];
    }
    let mut modules = Vec::new();
    if plan.recompute == Recompute::Selective {
        modules.push("core_attn");
    }
    if plan.recompute_elementwise == Some(true) {
        modules.extend(["layernorm", "moe_act"]);
    }
    if plan.recompute_mlp_up == Some(true) {
        modules.push("mlp");
    }
    if modules.is_empty() {
        return Vec::new();
    }
    vec![
        one("recompute_granularity", "selective"),
        ("recompute_modules", modules.into_iter().map(str::to_string).collect()),
    ]
}

/// Transformer Engine's recipes as Megatron-Core flags: FP8 with per-tensor current scaling
/// (`tensorwise`, the recipe NeMo's FP8 presets use), MXFP8 and NVFP4.
fn precision(recipe: Recipe) -> Vec<Setting> {
    let mut out = vec![on("bf16")];
    match recipe {
        Recipe::Fp8 => out.extend([one("fp8_format", "hybrid"), one("fp8_recipe", "tensorwise")]),
        Recipe::Mxfp8 => out.extend([one("fp8_format", "e4m3"), one("fp8_recipe", "mxfp8")]),
        Recipe::Nvfp4 => out.extend([one("fp4_format", "e2m1"), one("fp4_recipe", "nvfp4")]),
        Recipe::MegatronBf16 | Recipe::TorchAmp | Recipe::Int8 => {}
    }
    out
}

/// The plan's parallelism, batch, recomputation and precision as Megatron-Core settings.
fn plan_settings(
    framework: Framework,
    inputs: &Inputs,
    plan: &Plan,
    cannot: &mut Vec<Cannot>,
) -> Vec<Setting> {
    let p = &inputs.parallelism;
    let layers = inputs.transformer.n_layers.max(1);
    let mut out = vec![
        one("tensor_model_parallel_size", plan.tp),
        one("pipeline_model_parallel_size", plan.pp),
    ];
    if plan.vp > 1 {
        let chunks = plan.pp * plan.vp;
        if framework == Framework::Nemo {
            out.push(one("virtual_pipeline_model_parallel_size", plan.vp));
        } else if layers % chunks == 0 {
            out.push(one("num_layers_per_virtual_pipeline_stage", layers / chunks));
        } else if framework == Framework::Megatron {
            out.push(one("num_virtual_stages_per_pipeline_rank", plan.vp));
        } else {
            cannot.push(Cannot::Interleaving);
        }
    }
    if p.first_stage_layers > 0 && plan.pp > 1 && framework != Framework::MindSpeed {
        out.push(one("decoder_first_pipeline_num_layers", p.first_stage_layers));
    }
    if plan.cp > 1 {
        out.push(one("context_parallel_size", plan.cp));
        let kind = match p.cp_kind {
            CpKind::Ring => "p2p",
            CpKind::AllGather => "allgather",
            CpKind::Ulysses => "a2a",
            CpKind::Both => "a2a+p2p",
        };
        if p.cp_kind == CpKind::Both {
            cannot.push(Cannot::Context);
        } else {
            out.push(one("cp_comm_type", kind));
        }
    }
    if inputs.transformer.moe.is_some() {
        out.push(one("expert_model_parallel_size", plan.ep));
        out.push(one("expert_tensor_parallel_size", plan.etp));
        let dispatcher = match p.dispatcher {
            Dispatcher::AllToAll => vec![one("moe_token_dispatcher_type", "alltoall")],
            Dispatcher::DeepEp => vec![
                one("moe_token_dispatcher_type", "flex"),
                one("moe_flex_dispatcher_backend", "deepep"),
            ],
        };
        out.extend(dispatcher);
        if p.ep_overlap && framework == Framework::Megatron {
            out.push(on("overlap_moe_expert_parallel_comm"));
        }
    }
    if plan.sequence_parallel == Some(true) {
        out.push(on("sequence_parallel"));
    }
    match plan.zero {
        0 => {}
        1 => out.push(on("use_distributed_optimizer")),
        z if framework == Framework::MindSpeed => cannot.push(Cannot::Zero(z)),
        z => out.extend([
            on("use_megatron_fsdp"),
            one(
                "data_parallel_sharding_strategy",
                if z == 2 { "optim_grads" } else { "optim_grads_params" },
            ),
        ]),
    }
    if inputs.training.grads == Grads::Bf16 && framework != Framework::Nemo {
        out.push(on("grad_reduce_in_bf16"));
    }
    if p.dp_overlap {
        out.push(on("overlap_grad_reduce"));
        if plan.zero >= 1 {
            out.push(on("overlap_param_gather"));
        }
    }
    if p.tp_overlap && plan.sequence_parallel == Some(true) && framework != Framework::MindSpeed {
        out.push(on("tp_comm_overlap"));
    }
    if !p.pp_overlap && plan.vp > 1 {
        out.push(on("no_overlap_p2p_communication"));
    }
    out.extend(recompute(plan));
    if p.offload_layers > 0 {
        out.extend([on("cpu_offloading"), one("cpu_offloading_num_layers", p.offload_layers)]);
    }
    if framework == Framework::Megatron {
        match p.cuda_graphs {
            CudaGraphs::None => {}
            CudaGraphs::Layers => out.push(one("cuda_graph_impl", "transformer_engine")),
            CudaGraphs::Partial => out.extend([
                one("cuda_graph_impl", "transformer_engine"),
                (
                    "cuda_graph_scope",
                    ["attn", "moe_router", "moe_preprocess"].map(str::to_string).to_vec(),
                ),
            ]),
            CudaGraphs::Full => out.push(one("cuda_graph_impl", "full_iteration")),
        }
        match p.cross_entropy {
            CrossEntropy::InPlace => out
                .extend([on("cross_entropy_loss_fusion"), one("cross_entropy_fusion_impl", "te")]),
            CrossEntropy::Linear => out.extend([
                on("cross_entropy_loss_fusion"),
                one("cross_entropy_fusion_impl", "linear"),
            ]),
            CrossEntropy::Fp32 | CrossEntropy::Fused => {}
        }
    }
    out.push(one("micro_batch_size", plan.micro_batch));
    out.push(one("global_batch_size", plan.global_batch));
    out.push(one("seq_length", plan.seq_len));
    let expressible = match framework {
        Framework::MindSpeed => plan.recipe == Recipe::MegatronBf16,
        _ => !matches!(plan.recipe, Recipe::TorchAmp | Recipe::Int8),
    };
    if !expressible {
        cannot.push(Cannot::Recipe(plan.recipe));
    }
    if framework != Framework::Nemo {
        out.extend(precision(if expressible { plan.recipe } else { Recipe::MegatronBf16 }));
    }
    out
}

/// The model's shape as `pretrain_gpt.py` flags (a Megatron-Bridge recipe carries its own).
fn model_settings(inputs: &Inputs) -> Vec<Setting> {
    let t = &inputs.transformer;
    let ffn = (t.ffn as f64 * t.dense_ffn_share()).round() as u32;
    let mut out = vec![
        one("num_layers", t.n_layers),
        one("hidden_size", t.hidden),
        one("ffn_hidden_size", ffn.max(1)),
        one("num_attention_heads", t.n_heads),
        one("kv_channels", t.head_dim),
        one("max_position_embeddings", t.seq_len),
        one("position_embedding_type", "rope"),
        one("normalization", "RMSNorm"),
        on("disable_bias_linear"),
    ];
    if t.ffn_kind == FfnKind::SwiGlu {
        out.push(on("swiglu"));
    }
    if !t.tied_embeddings {
        out.push(on("untie_embeddings_and_output_weights"));
    }
    if !t.dropout {
        out.extend([one("attention_dropout", 0), one("hidden_dropout", 0)]);
    }
    match t.mla {
        Some(m) => {
            out.push(on("multi_latent_attention"));
            if m.q_lora_rank > 0 {
                out.push(one("q_lora_rank", m.q_lora_rank));
            }
            out.extend([
                one("kv_lora_rank", m.kv_lora_rank),
                one("qk_head_dim", t.head_dim),
                one("qk_pos_emb_head_dim", m.rope_head_dim),
                one("v_head_dim", m.v_head_dim),
            ]);
        }
        None if t.n_kv_heads > 0 && t.n_kv_heads < t.n_heads => {
            out.extend([on("group_query_attention"), one("num_query_groups", t.n_kv_heads)]);
        }
        None => {}
    }
    if let Some(moe) = &t.moe {
        out.extend([
            one("num_experts", moe.n_experts),
            one("moe_router_topk", moe.top_k),
            one("moe_ffn_hidden_size", moe.expert_ffn),
            on("moe_grouped_gemm"),
        ]);
        if moe.n_shared_experts > 0 {
            out.push(one(
                "moe_shared_expert_intermediate_size",
                moe.n_shared_experts * moe.expert_ffn,
            ));
        }
        if moe.n_dense_layers > 0 {
            let dense = moe.n_dense_layers.min(t.n_layers);
            out.push(one(
                "moe_layer_freq",
                format!("([0]*{dense}+[1]*{})", t.n_layers.saturating_sub(dense)),
            ));
        }
        if let Some(cf) = moe.capacity_factor {
            out.push(one("moe_expert_capacity_factor", cf));
        }
    }
    if t.mtp_layers > 0 {
        out.push(one("mtp_num_layers", t.mtp_layers));
    }
    out
}

/// MindSpeed-LLM's own switches for Ascend's fused kernels, as its Megatron-Core examples set
/// them (`examples/mcore/llama3/pretrain_llama3_8b_ptd.sh`).
fn mindspeed_settings() -> Vec<Setting> {
    ["use_mcore_models", "use_flash_attn", "use_fused_rmsnorm", "use_fused_swiglu"]
        .into_iter()
        .map(on)
        .chain([on("use_fused_rotary_pos_emb"), on("use_rotary_position_embeddings")])
        .collect()
}

fn flag(key: &str) -> String {
    format!("--{}", key.replace('_', "-"))
}

/// The run's steps: the token budget over the tokens of a step.
fn train_iters(inputs: &Inputs, plan: &Plan) -> u64 {
    let per_step = plan.global_batch as f64 * plan.seq_len as f64;
    (inputs.training.tokens / per_step.max(1.0)).ceil().clamp(1.0, 1e12) as u64
}

/// The launch's files for Megatron-LM, MindSpeed-LLM or Megatron-Bridge.
pub(super) fn write(
    framework: Framework,
    inputs: &Inputs,
    plan: &Plan,
    site: &Site,
) -> (Vec<File>, Vec<Cannot>) {
    let mut cannot = Vec::new();
    if framework == Framework::MindSpeed && site.vendor != "Huawei" {
        cannot.push(Cannot::Vendor);
    }
    let settings = plan_settings(framework, inputs, plan, &mut cannot);
    let per_node = inputs.cluster.chips_per_node.max(1).min(plan.chips().max(1));
    let nodes = plan.chips().div_ceil(per_node);
    let mut head = String::from("#!/usr/bin/env bash\nset -euo pipefail\n");
    if site.vendor == "Huawei" {
        head.push_str("source /usr/local/Ascend/ascend-toolkit/set_env.sh\n");
    }
    head.push_str("export CUDA_DEVICE_MAX_CONNECTIONS=1\n");
    for (k, v) in fabric_env(site) {
        head.push_str(&format!("export {k}={v}\n"));
    }
    head.push_str(&format!(
        "NNODES=${{NNODES:-{nodes}}}\nNODE_RANK=${{NODE_RANK:-0}}\n\
         MASTER_ADDR=${{MASTER_ADDR:-localhost}}\nMASTER_PORT=${{MASTER_PORT:-6000}}\n"
    ));
    let torchrun = format!(
        "torchrun --nnodes \"$NNODES\" --nproc-per-node {per_node} --node-rank \"$NODE_RANK\" \
         --master-addr \"$MASTER_ADDR\" --master-port \"$MASTER_PORT\""
    );
    let vocab = inputs.transformer.vocab;
    let iters = train_iters(inputs, plan);
    let launch = if framework == Framework::Nemo {
        head.push_str("BRIDGE=${BRIDGE:-/opt/Megatron-Bridge}\nRECIPE_SCRIPT=${RECIPE_SCRIPT:-$BRIDGE/examples/recipes/llama/pretrain_llama3_8b.py}\n");
        format!(
            "{head}{torchrun} \\\n  \"$RECIPE_SCRIPT\" --config-file overrides.yaml \
             train.train_iters={iters} \"$@\"\n"
        )
    } else {
        let root = if framework == Framework::MindSpeed {
            "MINDSPEED_LLM=${MINDSPEED_LLM:-/opt/MindSpeed-LLM}\nSCRIPT=$MINDSPEED_LLM/pretrain_gpt.py\n"
        } else {
            "MEGATRON=${MEGATRON:-/opt/Megatron-LM}\nSCRIPT=$MEGATRON/pretrain_gpt.py\n"
        };
        head.push_str(root);
        head.push_str(&format!(
            "DATA_ARGS=(--mock-data --tokenizer-type NullTokenizer --vocab-size {vocab})\n"
        ));
        let mut all = settings;
        all.extend(model_settings(inputs));
        if framework == Framework::MindSpeed {
            all.extend(mindspeed_settings());
        }
        all.extend([one("train_iters", iters), one("log_interval", 1), on("log_throughput")]);
        let mut text = format!("{head}{torchrun} \\\n  \"$SCRIPT\"");
        for (key, values) in &all {
            text.push_str(" \\\n  ");
            text.push_str(&flag(key));
            for v in values {
                text.push(' ');
                text.push_str(&shell_word(v));
            }
        }
        text.push_str(" \\\n  \"${DATA_ARGS[@]}\" \"$@\"\n");
        text
    };
    let check = if framework == Framework::Nemo {
        "#!/usr/bin/env bash\nset -euo pipefail\nbash launch.sh train.train_iters=20 \
         logger.log_interval=1 2>&1 | tee run.log\nclusterplan measure run.log --scenario scenario.json\n"
            .to_string()
    } else {
        "#!/usr/bin/env bash\nset -euo pipefail\nbash launch.sh --train-iters 20 --eval-iters 0 \
         2>&1 | tee run.log\nclusterplan measure run.log --scenario scenario.json\n"
            .to_string()
    };
    let mut files = vec![File { name: "launch.sh", text: launch }];
    if framework == Framework::Nemo {
        let overrides = plan_settings(framework, inputs, plan, &mut Vec::new());
        files.push(File { name: "overrides.yaml", text: nemo_yaml(&overrides, plan.recipe) });
    }
    files.push(File { name: "check.sh", text: check });
    (files, cannot)
}

/// A value as one shell word.
fn shell_word(v: &str) -> String {
    if v.chars().any(|c| matches!(c, '(' | ')' | '*' | '[' | ']' | ' ')) {
        format!("'{v}'")
    } else {
        v.to_string()
    }
}

/// Megatron-Bridge's recipe name for a mixed-precision recipe (`mixed_precision.py`).
fn nemo_precision(recipe: Recipe) -> &'static str {
    match recipe {
        Recipe::Fp8 => "bf16_with_fp8_current_scaling_mixed",
        Recipe::Mxfp8 => "bf16_with_mxfp8_mixed",
        Recipe::Nvfp4 => "bf16_with_nvfp4_mixed",
        Recipe::MegatronBf16 | Recipe::TorchAmp | Recipe::Int8 => "bf16_mixed",
    }
}

/// The section of Megatron-Bridge's `ConfigContainer` a setting belongs to.
fn nemo_section(key: &str) -> &'static str {
    match key {
        "micro_batch_size" | "global_batch_size" => "train",
        "use_distributed_optimizer"
        | "data_parallel_sharding_strategy"
        | "overlap_grad_reduce"
        | "overlap_param_gather" => "ddp",
        "use_megatron_fsdp" => "dist",
        _ => "model",
    }
}

/// The settings as a Megatron-Bridge override file: one mapping per section.
fn nemo_yaml(settings: &[Setting], recipe: Recipe) -> String {
    let mut text = String::new();
    for section in ["model", "train", "ddp", "optimizer", "dist"] {
        let mut body = String::new();
        for (key, values) in settings {
            let in_section = if section == "optimizer" {
                *key == "use_distributed_optimizer"
            } else {
                nemo_section(key) == section
            };
            if !in_section {
                continue;
            }
            let key = if *key == "no_overlap_p2p_communication" { "overlap_p2p_comm" } else { key };
            let value = match values.as_slice() {
                [] if key == "overlap_p2p_comm" => "false".to_string(),
                [] => "true".to_string(),
                [one] if key != "recompute_modules" && key != "cuda_graph_scope" => one.clone(),
                many => format!("[{}]", many.join(", ")),
            };
            body.push_str(&format!("  {key}: {value}\n"));
        }
        if !body.is_empty() {
            text.push_str(&format!("{section}:\n{body}"));
        }
    }
    text.push_str(&format!("mixed_precision: {}\n", nemo_precision(recipe)));
    text
}

/// Settings by Megatron-Core field name, from flags, an override file or a printed block.
#[derive(Default)]
struct Seen(Vec<(String, Vec<String>)>);

impl Seen {
    fn get(&self, key: &str) -> Option<&[String]> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_slice())
    }

    /// A switch: on when named with no value, or with a true value.
    fn on(&self, key: &str) -> bool {
        match self.get(key) {
            Some([]) => true,
            Some([v]) => matches!(v.as_str(), "true" | "True" | "1"),
            _ => false,
        }
    }

    fn text(&self, key: &str) -> Option<&str> {
        match self.get(key)? {
            [v] if v != "None" && v != "null" => Some(v.as_str()),
            _ => None,
        }
    }

    fn number(&self, key: &'static str, default: Option<u32>) -> Result<u32, Unread> {
        match (self.text(key), default) {
            (Some(v), _) => number(key, v),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(Unread::Missing(key)),
        }
    }

    fn list(&self, key: &str) -> Vec<String> {
        let Some(values) = self.get(key) else { return Vec::new() };
        values
            .iter()
            .flat_map(|v| v.split([',', '[', ']', '\'', '"', ' ']))
            .filter(|s| !s.is_empty() && *s != "None")
            .map(str::to_string)
            .collect()
    }

    /// The plan the settings describe.
    fn plan(&self) -> Result<Plan, Unread> {
        let tp = self.number("tensor_model_parallel_size", Some(1))?;
        let pp = self.number("pipeline_model_parallel_size", Some(1))?;
        let vp = match (
            self.text("virtual_pipeline_model_parallel_size"),
            self.text("num_virtual_stages_per_pipeline_rank"),
            self.text("num_layers_per_virtual_pipeline_stage"),
        ) {
            (Some(v), _, _) => number("virtual_pipeline_model_parallel_size", v)?,
            (None, Some(v), _) => number("num_virtual_stages_per_pipeline_rank", v)?,
            (None, None, Some(per_chunk)) => {
                let per_chunk = number("num_layers_per_virtual_pipeline_stage", per_chunk)?;
                let layers = self.number("num_layers", None)?;
                layers / (per_chunk.max(1) * pp.max(1))
            }
            (None, None, None) => 1,
        };
        let granularity = self.text("recompute_granularity");
        let modules = self.list("recompute_modules");
        let named = |m: &str| modules.iter().any(|x| x == m);
        let (recompute, elementwise, mlp_up) = match granularity {
            Some("full") => (Recompute::Full, false, false),
            Some("selective") => {
                let attention = modules.is_empty() || named("core_attn");
                (
                    if attention { Recompute::Selective } else { Recompute::None },
                    named("layernorm") || named("moe_act"),
                    named("mlp"),
                )
            }
            Some(other) => return Err(Unread::Bad("recompute_granularity", other.to_string())),
            None => (Recompute::None, false, false),
        };
        let recipe = match (
            self.text("fp8_recipe"),
            self.text("fp4_recipe"),
            self.text("mixed_precision"),
        ) {
            (_, _, Some(name)) => match name {
                "bf16_with_fp8_current_scaling_mixed"
                | "bf16_with_fp8_delayed_scaling_mixed"
                | "bf16_with_fp8_subchannel_scaling_mixed" => Recipe::Fp8,
                "bf16_with_mxfp8_mixed" => Recipe::Mxfp8,
                "bf16_with_nvfp4_mixed" => Recipe::Nvfp4,
                "bf16_mixed" => Recipe::MegatronBf16,
                other => return Err(Unread::Bad("mixed_precision", other.to_string())),
            },
            _ if self.text("fp4_format").is_some() => Recipe::Nvfp4,
            _ if self.text("fp8_format").is_some() => match self.text("fp8_recipe") {
                Some("mxfp8") => Recipe::Mxfp8,
                _ => Recipe::Fp8,
            },
            _ => Recipe::MegatronBf16,
        };
        let zero = if self.on("use_megatron_fsdp") {
            match self.text("data_parallel_sharding_strategy") {
                Some("optim_grads") => 2,
                Some("optim") => 1,
                Some("no_shard") => 0,
                _ => 3,
            }
        } else if self.on("use_distributed_optimizer") {
            1
        } else {
            0
        };
        let dp = match self.text("data_parallel_size") {
            Some(v) => Some(number("data_parallel_size", v)?),
            None => None,
        };
        Ok(Plan {
            tp,
            pp,
            vp: vp.max(1),
            cp: self.number("context_parallel_size", Some(1))?,
            ep: self.number("expert_model_parallel_size", Some(1))?,
            etp: self.number("expert_tensor_parallel_size", Some(tp))?,
            dp,
            micro_batch: self.number("micro_batch_size", None)?,
            global_batch: self.number("global_batch_size", None)?,
            seq_len: self.number("seq_length", None)?,
            recompute,
            recompute_elementwise: Some(elementwise),
            recompute_mlp_up: Some(mlp_up),
            recipe,
            grads: if self.on("grad_reduce_in_bf16") { Grads::Bf16 } else { Grads::Fp32 },
            zero,
            sequence_parallel: Some(self.on("sequence_parallel")),
        })
    }
}

/// Reads `pretrain_gpt.py` flags (a launch script, Megatron or MindSpeed) or the `arguments`
/// block a Megatron run prints at start (`  name ....... value`).
pub(super) fn read_args(text: &str) -> Result<Plan, Unread> {
    let mut seen = Seen::default();
    for line in text.lines() {
        if let Some((name, value)) = printed_argument(line) {
            let value = match value {
                "True" => Vec::new(),
                "False" => continue,
                v => vec![v.to_string()],
            };
            // The printed names are the fields', where the flags differ.
            let name = match name {
                "fp8" => "fp8_format",
                "fp4" => "fp4_format",
                other => other,
            };
            seen.0.push((name.to_string(), value));
        }
    }
    if seen.0.is_empty() {
        for (name, values) in flags(&words(text)) {
            seen.0.push((name.replace('-', "_"), values));
        }
    }
    seen.plan()
}

/// One line of Megatron's printed `arguments` block: the name, a run of dots, the value.
pub fn printed_argument(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let (name, rest) = line.split_once(' ')?;
    let rest = rest.trim_start();
    let dots = rest.len() - rest.trim_start_matches('.').len();
    if dots < 2 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name, rest[dots..].trim()))
}

/// Reads a Megatron-Bridge override file: `section:` lines, `  key: value` under them, and
/// `mixed_precision:` at the top level.
pub(super) fn read_overrides(text: &str) -> Result<Plan, Unread> {
    let mut seen = Seen::default();
    let mut section = String::new();
    for line in text.lines() {
        let body = line.split('#').next().unwrap_or("");
        if body.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = body.split_once(':') else { continue };
        let (key, value) = (key.trim(), value.trim().trim_matches('"'));
        if !body.starts_with(' ') {
            section = key.to_string();
            if !value.is_empty() {
                seen.0.push((key.to_string(), vec![value.to_string()]));
            }
            continue;
        }
        let key = match (section.as_str(), key) {
            ("model", "overlap_p2p_comm") if value == "false" => {
                seen.0.push(("no_overlap_p2p_communication".into(), Vec::new()));
                continue;
            }
            (_, k) => k.to_string(),
        };
        seen.0.push((key, vec![value.to_string()]));
    }
    seen.plan()
}
