//! A plan as the launch configuration a framework runs, and the plan read back from one.
//!
//! `launch` writes the judged plan (`model::Inputs`, and the serving deployment the model
//! chose) as the files a team would run: Megatron-LM, MindSpeed-LLM and Megatron-Bridge (NeMo)
//! arguments, torchtitan's TOML and MaxText's YAML for training; SGLang, vLLM, TensorRT-LLM and
//! MindIE for serving. Each writer is written against one release's flag names, cited in
//! `Framework::release`; `read` parses a configuration back to what it says of the plan
//! (degrees, batch, recomputation, precision), so every writer is tested by reading its own
//! output, and a run's printed arguments (Megatron's `arguments` block) give the plan of a log.
//!
//! What a framework cannot express is listed in `Launch::cannot` rather than written wrong.
//! No prose is written into the files: they hold only what the framework reads.

mod maxtext;
mod megatron;
mod serve;
mod torchtitan;

use crate::model::serving::{Precision, ServingEstimate};
use crate::model::{Grads, Inputs, Recipe, Recompute};

/// A framework a plan can be launched on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framework {
    /// Megatron-LM's `pretrain_gpt.py` with Megatron-Core.
    Megatron,
    /// MindSpeed-LLM on Ascend: Megatron's arguments with Ascend's fused kernels.
    MindSpeed,
    /// Megatron-Bridge (NeMo's Megatron recipes) with an override file.
    Nemo,
    /// torchtitan's TOML job file.
    Torchtitan,
    /// MaxText's YAML on TPU slices.
    Maxtext,
    /// SGLang's server.
    Sglang,
    /// vLLM's server.
    Vllm,
    /// TensorRT-LLM's `trtllm-serve`.
    Trtllm,
    /// Huawei's MindIE Service on Ascend.
    Mindie,
}

impl Framework {
    /// Every framework, training first.
    pub const ALL: [Framework; 9] = [
        Framework::Megatron,
        Framework::MindSpeed,
        Framework::Nemo,
        Framework::Torchtitan,
        Framework::Maxtext,
        Framework::Sglang,
        Framework::Vllm,
        Framework::Trtllm,
        Framework::Mindie,
    ];

    /// The name the CLI's `--for` and the page use.
    pub fn id(self) -> &'static str {
        match self {
            Framework::Megatron => "megatron",
            Framework::MindSpeed => "mindspeed",
            Framework::Nemo => "nemo",
            Framework::Torchtitan => "torchtitan",
            Framework::Maxtext => "maxtext",
            Framework::Sglang => "sglang",
            Framework::Vllm => "vllm",
            Framework::Trtllm => "trtllm",
            Framework::Mindie => "mindie",
        }
    }

    /// The framework of an id.
    pub fn of(id: &str) -> Option<Framework> {
        Framework::ALL.into_iter().find(|f| f.id() == id.trim())
    }

    /// Whether it serves a model rather than trains one.
    pub fn serves(self) -> bool {
        matches!(self, Framework::Sglang | Framework::Vllm | Framework::Trtllm | Framework::Mindie)
    }

    /// The release whose flag names the writer follows, and where they are defined.
    pub fn release(self) -> &'static str {
        match self {
            Framework::Megatron => {
                "Megatron-LM core_v0.15 (megatron/training/arguments.py; TransformerConfig and \
                 ModelParallelConfig fields as flags)"
            }
            Framework::MindSpeed => {
                "MindSpeed-LLM 2.1 (Megatron-Core 0.12 arguments with MindSpeed's fused-kernel \
                 flags, examples/mcore)"
            }
            Framework::Nemo => {
                "Megatron-Bridge v0.2.0 (src/megatron/bridge/training/config.py ConfigContainer; \
                 mixed_precision.py recipe names; OmegaConf override files)"
            }
            Framework::Torchtitan => "torchtitan v0.2.2 (torchtitan/config/job_config.py)",
            Framework::Maxtext => "MaxText v0.2 (src/maxtext/configs/base.yml)",
            Framework::Sglang => "SGLang 0.5.6 (python/sglang/srt/server_args.py)",
            Framework::Vllm => "vLLM 0.11.0 (vllm/engine/arg_utils.py, vllm/config/)",
            Framework::Trtllm => {
                "TensorRT-LLM 1.3 (tensorrt_llm/commands/serve.py; llmapi/llm_args.py options YAML)"
            }
            Framework::Mindie => "MindIE Service 2.0 (config.json, BackendConfig; service_parameter_configuration.md)",
        }
    }
}

/// One file of a launch: its suggested name and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// The name the other files call it by.
    pub name: &'static str,
    /// What it holds.
    pub text: String,
}

/// A plan as a framework's launch: the files, where the ranks sit, and what the framework
/// cannot express.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// The framework.
    pub framework: Framework,
    /// The files, the one to run first.
    pub files: Vec<File>,
    /// What runs where.
    pub layout: Layout,
    /// What of the plan the files could not say.
    pub cannot: Vec<Cannot>,
}

/// Something of the plan a framework has no setting for; the files leave it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cannot {
    /// The mixed-precision recipe.
    Recipe(Recipe),
    /// The sharding of state over data-parallel ranks (ZeRO stage).
    Zero(u32),
    /// The plan has no serving deployment to launch.
    NoServing,
    /// The framework's chips are another vendor's.
    Vendor,
    /// Pipeline interleaving.
    Interleaving,
    /// Context parallelism.
    Context,
    /// Expert parallelism across data-parallel ranks.
    Experts,
    /// The KV cache's precision.
    KvCache(Precision),
    /// The framework ships no definition of the model.
    Model,
    /// Attention's projections in a format of their own beside the other weights: the
    /// checkpoint sets it, no flag does.
    Checkpoint(Precision),
    /// Weights kept in the host's memory and copied in at each forward pass.
    Offload,
    /// Gradients accumulated and reduced in BF16.
    Grads,
}

impl Cannot {
    /// The finding's id (`launch.cannot.<id>` in the catalogues).
    pub fn id(self) -> &'static str {
        match self {
            Cannot::Recipe(_) => "recipe",
            Cannot::Zero(_) => "zero",
            Cannot::NoServing => "no-serving",
            Cannot::Vendor => "vendor",
            Cannot::Interleaving => "interleaving",
            Cannot::Context => "context",
            Cannot::Experts => "experts",
            Cannot::KvCache(_) => "kv-cache",
            Cannot::Model => "model",
            Cannot::Checkpoint(_) => "checkpoint",
            Cannot::Offload => "offload",
            Cannot::Grads => "grads",
        }
    }
}

/// What runs where: nodes, ranks on each, and each parallel group's extent.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Nodes the job takes.
    pub nodes: u32,
    /// Ranks (chips) on each node.
    pub per_node: u32,
    /// The groups, fastest-varying first (Megatron's `tp-cp-ep-dp-pp` order).
    pub groups: Vec<Group>,
}

/// One kind of parallel group: its size, the rank stride between its members and whether a
/// group stays inside one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// `tp`, `cp`, `ep`, `dp` or `pp`.
    pub kind: &'static str,
    /// Ranks in one group.
    pub size: u32,
    /// Rank distance between neighbours in the group.
    pub stride: u32,
    /// Every group of this kind sits inside one node.
    pub in_node: bool,
}

/// What a launch configuration says of the plan; `None` where the framework has no setting for
/// it (its own rule decides).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Tensor-parallel degree.
    pub tp: u32,
    /// Pipeline stages.
    pub pp: u32,
    /// Virtual stages (model chunks) per pipeline rank.
    pub vp: u32,
    /// Context-parallel degree.
    pub cp: u32,
    /// Expert-parallel degree.
    pub ep: u32,
    /// Expert tensor-parallel degree.
    pub etp: u32,
    /// Data-parallel degree, where the configuration states it.
    pub dp: Option<u32>,
    /// Sequences per micro-batch.
    pub micro_batch: u32,
    /// Sequences per optimizer step.
    pub global_batch: u32,
    /// Tokens per sequence.
    pub seq_len: u32,
    /// Recomputation.
    pub recompute: Recompute,
    /// Norms and activations rerun, where the framework names it.
    pub recompute_elementwise: Option<bool>,
    /// The MLP up-projection rerun, where the framework names it.
    pub recompute_mlp_up: Option<bool>,
    /// Mixed-precision recipe.
    pub recipe: Recipe,
    /// The datatype gradients are reduced in (FP32 where the framework names none).
    pub grads: Grads,
    /// ZeRO stage: 0 none, 1 optimizer, 2 and gradients, 3 and weights.
    pub zero: u32,
    /// Sequence parallelism, where the framework names it.
    pub sequence_parallel: Option<bool>,
}

impl Plan {
    /// The plan the model judged.
    pub fn of(inputs: &Inputs) -> Plan {
        let p = &inputs.parallelism;
        Plan {
            tp: p.tensor.max(1),
            pp: p.pipeline.max(1),
            vp: if p.pipeline > 1 { p.virtual_stages.max(1) } else { 1 },
            cp: p.context.max(1),
            ep: p.expert.max(1),
            etp: p.expert_tensor.max(1),
            dp: Some(p.data.max(1)),
            micro_batch: p.micro_batch.max(1),
            global_batch: inputs.training.global_batch.max(1),
            seq_len: inputs.transformer.seq_len.max(1),
            recompute: p.recompute,
            recompute_elementwise: Some(p.recompute_elementwise),
            recompute_mlp_up: Some(p.recompute_mlp_up),
            recipe: inputs.training.recipe,
            grads: inputs.training.grads,
            zero: p.sharding.stage(),
            sequence_parallel: Some(p.sequence_parallel && p.tensor > 1),
        }
    }

    /// Chips one copy of the model takes with its data-parallel replicas.
    pub fn chips(&self) -> u32 {
        [self.tp, self.pp, self.cp, self.dp.unwrap_or(1)]
            .into_iter()
            .fold(1u32, |a, d| a.saturating_mul(d.max(1)))
    }
}

/// What a serving launch says of the deployment.
#[derive(Clone, Debug, PartialEq)]
pub struct Served {
    /// Attention tensor-parallel degree of a decode instance.
    pub tp: u32,
    /// Attention data-parallel ranks of a decode instance (DP attention when above 1).
    pub dp: u32,
    /// Expert-parallel degree of a decode instance.
    pub ep: u32,
    /// The prefill instance's degrees where prefill runs on pools of its own.
    pub prefill: Option<(u32, u32, u32)>,
    /// Precision of the weights, where the launch states it (TensorRT-LLM and MindIE take
    /// it from the checkpoint).
    pub weights: Option<Precision>,
    /// Precision of the KV cache, where the launch states it.
    pub kv_cache: Option<Precision>,
    /// Attention's projections' own format where it differs from `weights` (a mixed-precision
    /// checkpoint's: `serving.attention_weights`); no launch states it.
    pub attention_weights: Option<Precision>,
    /// Sequences a decode instance runs at once.
    pub max_batch: u32,
    /// Draft tokens per step of speculative decoding (0 none).
    pub draft_tokens: u32,
    /// Tokens one attention rank runs in a step at most (`serving.max_tokens`).
    pub max_tokens: u32,
    /// Weights each chip keeps in the host's memory, GiB as the engines' `--cpu-offload-gb`
    /// counts them, to the hundredth (0 none).
    pub offload_gib: f64,
    /// Two micro-batches hide the expert exchange of data-parallel attention with experts
    /// (SGLang's `--enable-two-batch-overlap`, vLLM's `--enable-dbo`).
    pub two_batch_overlap: bool,
}

/// Bytes in the gibibyte the engines' `--cpu-offload-gb` counts in.
const GIB: f64 = 1_073_741_824.0;

impl Served {
    /// The deployment the model chose for the scenario's serving.
    pub fn of(inputs: &Inputs, estimate: &ServingEstimate) -> Option<Served> {
        let serving = inputs.serving.as_ref()?;
        let d = estimate.decode;
        let p = estimate.prefill;
        Some(Served {
            tp: d.tp.max(1),
            dp: d.dp.max(1),
            ep: d.ep.max(1),
            prefill: serving.disaggregated.then_some((p.tp.max(1), p.dp.max(1), p.ep.max(1))),
            weights: Some(serving.weights),
            kv_cache: Some(serving.kv_cache),
            attention_weights: Some(serving.attention()).filter(|a| *a != serving.weights),
            max_batch: estimate.batch.max(1),
            draft_tokens: serving.draft_tokens,
            max_tokens: serving.chunk().min(u32::MAX as f64) as u32,
            offload_gib: (serving.offload_bytes / GIB * 100.0).round() / 100.0,
            two_batch_overlap: !serving.single_batch
                && d.dp > 1
                && d.ep > 1
                && inputs.transformer.moe.is_some(),
        })
    }

    /// Chips of one decode instance.
    pub fn chips(&self) -> u32 {
        self.tp.max(1).saturating_mul(self.dp.max(1))
    }
}

/// What a configuration was read as.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    /// A training plan.
    Training(Plan),
    /// A serving deployment.
    Serving(Served),
}

/// Why a configuration could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// A setting the plan needs is missing.
    Missing(&'static str),
    /// A setting holds a value that is not one the framework takes.
    Bad(&'static str, String),
}

/// Where the plan's chips come from and what they run on, for the files' environment.
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    /// The catalogue's vendor of the chip (`NVIDIA`, `AMD`, `Huawei`, `Google`, `Intel` …).
    pub vendor: String,
    /// The scale-out fabric's catalogue id (`ib-ndr`, `roce-400g`, `efa` …), empty if custom.
    pub scale_out: String,
    /// The model's catalogue id (empty if custom): a checkpoint path's default, and the
    /// model a framework ships a definition of.
    pub model: String,
}

/// The plan as `framework`'s launch; `served` is the serving deployment the model chose, if
/// the scenario serves.
pub fn launch(
    inputs: &Inputs,
    served: Option<&ServingEstimate>,
    site: &Site,
    framework: Framework,
) -> Launch {
    let layout = layout(inputs, framework);
    let (files, cannot) = if framework.serves() {
        match served.and_then(|e| Served::of(inputs, e)) {
            Some(s) => serve::write(framework, inputs, &s, site),
            None => (Vec::new(), vec![Cannot::NoServing]),
        }
    } else {
        let plan = Plan::of(inputs);
        let (files, mut cannot) = match framework {
            Framework::Megatron | Framework::MindSpeed | Framework::Nemo => {
                megatron::write(framework, inputs, &plan, site)
            }
            Framework::Torchtitan => torchtitan::write(inputs, &plan, site),
            _ => maxtext::write(inputs, &plan, site),
        };
        // Megatron-LM's `--grad-reduce-in-bf16` is the one flag for it: a Megatron-Bridge
        // override file names the mixed-precision preset, whose own `grad_reduce_in_fp32`
        // overrides the DDP setting; torchtitan reduces FSDP's gradients in FP32, MaxText in
        // the weights' datatype.
        let bf16_flag = matches!(framework, Framework::Megatron | Framework::MindSpeed);
        if inputs.training.grads == Grads::Bf16 && !bf16_flag {
            cannot.push(Cannot::Grads);
        }
        (files, cannot)
    };
    Launch { framework, files, layout, cannot }
}

/// Reads the files of a configuration `framework` takes, by name and text (a launch script,
/// an override file or job file; for Megatron also the `arguments` block a run prints), back
/// to the plan it launches.
pub fn read(framework: Framework, files: &[(&str, &str)]) -> Result<Read, Unread> {
    let joined = |ends: &[&str]| -> String {
        let chosen: Vec<&str> = files
            .iter()
            .filter(|(n, _)| ends.is_empty() || ends.iter().any(|e| n.ends_with(e)))
            .map(|f| f.1)
            .collect();
        match chosen.is_empty() {
            true => files.iter().map(|f| f.1).collect::<Vec<_>>().join("\n"),
            false => chosen.join("\n"),
        }
    };
    match framework {
        Framework::Megatron | Framework::MindSpeed => {
            megatron::read_args(&joined(&[])).map(Read::Training)
        }
        Framework::Nemo => {
            megatron::read_overrides(&joined(&[".yaml", ".yml"])).map(Read::Training)
        }
        Framework::Torchtitan => torchtitan::read(&joined(&[".toml"])).map(Read::Training),
        Framework::Maxtext => maxtext::read(&joined(&[".yml", ".yaml"])).map(Read::Training),
        _ => serve::read(framework, files).map(Read::Serving),
    }
}

/// Reads the `arguments` block a Megatron-LM, Megatron-Bridge or MindSpeed run prints at
/// start (`  name ........ value` lines) as its plan.
pub fn read_printed(text: &str) -> Result<Plan, Unread> {
    megatron::read_args(text)
}

pub use megatron::printed_argument;

/// Where each parallel group's ranks sit: Megatron's default order puts tensor-parallel ranks
/// next to each other, then context, data and pipeline ranks (`--rank-order tp-cp-ep-dp-pp`,
/// megatron/core/parallel_state.py); the other frameworks build their meshes in the same
/// order of nearness.
fn layout(inputs: &Inputs, framework: Framework) -> Layout {
    let per_node = inputs.cluster.chips_per_node.max(1);
    let (chips, order): (u32, Vec<(&'static str, u32)>) = if framework.serves() {
        let d = inputs.serving.as_ref().map(|s| s.decode).unwrap_or_default();
        let chips = d.tp.max(1).saturating_mul(d.dp.max(1));
        (chips, vec![("tp", d.tp.max(1)), ("dp", d.dp.max(1))])
    } else {
        let plan = Plan::of(inputs);
        let order =
            vec![("tp", plan.tp), ("cp", plan.cp), ("dp", plan.dp.unwrap_or(1)), ("pp", plan.pp)];
        (plan.chips(), order)
    };
    let in_node = |size: u32, span: u32| size <= 1 || (span <= per_node && per_node % span == 0);
    let mut stride = 1u32;
    let mut groups = Vec::new();
    for (kind, size) in order {
        let span = stride.saturating_mul(size);
        groups.push(Group { kind, size, stride, in_node: in_node(size, span) });
        stride = span;
    }
    // Expert groups take neighbouring data-parallel ranks (Megatron-Core's expert rank order
    // `tp-ep-dp-pp`): their stride is the tensor and context ranks'.
    if !framework.serves() {
        let plan = Plan::of(inputs);
        if inputs.transformer.moe.is_some() && plan.ep > 1 {
            let stride = plan.tp.saturating_mul(plan.cp);
            let span = stride.saturating_mul(plan.ep);
            let group =
                Group { kind: "ep", size: plan.ep, stride, in_node: in_node(plan.ep, span) };
            groups.insert(2.min(groups.len()), group);
        }
    }
    Layout { nodes: chips.div_ceil(per_node).max(1), per_node: per_node.min(chips.max(1)), groups }
}

/// The environment the fabric and the vendor's collectives need, as `export` lines: the
/// RoCE GID index NCCL needs for RoCE v2 (NCCL's environment documentation, `NCCL_IB_GID_INDEX`),
/// libfabric's EFA provider with GPU-direct RDMA (aws-ofi-nccl, doc/efa-env-var.md), and
/// HCCL's connection timeout on Ascend as MindSpeed-LLM's scripts set it.
fn fabric_env(site: &Site) -> Vec<(&'static str, &'static str)> {
    let mut env = Vec::new();
    let out = site.scale_out.as_str();
    if out.starts_with("roce") || out.contains("-roce-") {
        env.push(("NCCL_IB_GID_INDEX", "3"));
    }
    if out.starts_with("efa") {
        env.push(("FI_PROVIDER", "efa"));
        env.push(("FI_EFA_USE_DEVICE_RDMA", "1"));
    }
    if site.vendor == "Huawei" {
        env.push(("HCCL_CONNECT_TIMEOUT", "1200"));
    }
    env
}

/// Splits a shell command into words: quotes dropped, line continuations joined, comments and
/// `export` lines skipped.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with("export ") {
            continue;
        }
        for w in line.split_whitespace() {
            let w = w.trim_matches(|c| c == '"' || c == '\'');
            if w != "\\" && !w.is_empty() {
                out.push(w.to_string());
            }
        }
    }
    out
}

/// Flags and their values in a list of words: `--name v1 v2` and `--name=v`.
fn flags(words: &[String]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for w in words {
        if let Some(name) = w.strip_prefix("--") {
            match name.split_once('=') {
                Some((n, v)) => out.push((n.to_string(), vec![v.to_string()])),
                None => out.push((name.to_string(), Vec::new())),
            }
        } else if let Some((_, values)) = out.last_mut() {
            values.push(w.clone());
        }
    }
    out
}

/// A whole number a setting holds.
fn number(name: &'static str, value: &str) -> Result<u32, Unread> {
    let v = value.trim().trim_matches(|c| c == '"' || c == '\'').replace('_', "");
    v.parse::<u32>().map_err(|_| Unread::Bad(name, value.to_string()))
}
