//! torchtitan: the plan as a job TOML (`torchtitan/config/job_config.py` of v0.2.2) and a
//! `torchrun` line, and the TOML read back.

use super::{fabric_env, number, Cannot, File, Plan, Site, Unread};
use crate::model::{Grads, Inputs, Recipe, Recompute};

/// torchtitan's model and flavour for the catalogue's models it ships, with their layers
/// (`torchtitan/models/llama3/__init__.py`, `deepseek_v3/__init__.py`).
const FLAVORS: [(&str, &str, &str, u32); 4] = [
    ("llama3-8b", "llama3", "8B", 32),
    ("llama3-70b", "llama3", "70B", 80),
    ("llama3-405b", "llama3", "405B", 126),
    ("deepseek-v3", "deepseek_v3", "671B", 61),
];

fn flavor(model: &str) -> Option<(&'static str, &'static str)> {
    FLAVORS.iter().find(|f| f.0 == model).map(|f| (f.1, f.2))
}

/// Layers of a torchtitan model's flavour.
fn layers(name: &str, flavor: &str) -> Option<u32> {
    FLAVORS.iter().find(|f| f.1 == name && f.2 == flavor).map(|f| f.3)
}

pub(super) fn write(inputs: &Inputs, plan: &Plan, site: &Site) -> (Vec<File>, Vec<Cannot>) {
    let mut cannot = Vec::new();
    let known = flavor(&site.model);
    if known.is_none() {
        cannot.push(Cannot::Model);
    }
    let (name, flavor) = known.unwrap_or(("llama3", "custom"));
    let known = known.is_some();
    // FSDP shards over the data-parallel ranks as ZeRO-3 does; ZeRO-1 and -2 have no setting,
    // so replicas without sharding are plain data parallelism (`data_parallel_replicate`).
    let dp = plan.dp.unwrap_or(1);
    let (replicate, shard) = match plan.zero {
        3 => (1, dp),
        0 => (dp, 1),
        z => {
            cannot.push(Cannot::Zero(z));
            (1, dp)
        }
    };
    let converters = match plan.recipe {
        Recipe::Fp8 => "[\"quantize.linear.float8\"]",
        Recipe::Mxfp8 => "[\"quantize.linear.mx\"]",
        Recipe::MegatronBf16 | Recipe::TorchAmp => "[]",
        other => {
            cannot.push(Cannot::Recipe(other));
            "[]"
        }
    };
    let param = if plan.recipe == Recipe::TorchAmp { "float32" } else { "bfloat16" };
    let mode = match plan.recompute {
        Recompute::None => "none",
        Recompute::Selective => "selective",
        Recompute::Full => "full",
    };
    let schedule = if plan.vp > 1 { "Interleaved1F1B" } else { "1F1B" };
    let steps = (inputs.training.tokens / (plan.global_batch as f64 * plan.seq_len as f64).max(1.0))
        .ceil()
        .clamp(1.0, 1e12) as u64;
    let per_replica = plan.global_batch.div_ceil(dp).max(1);
    // Without pipelining a rank's batch is one micro-batch and the global batch accumulates
    // them; with it, the rank's whole share is split into the pipeline's micro-batches.
    let local = if plan.pp > 1 { per_replica } else { plan.micro_batch };
    let mut stages = String::new();
    if plan.vp > 1 {
        let chunks = plan.pp * plan.vp;
        let layers = inputs.transformer.n_layers;
        if layers % chunks == 0 && known {
            stages = format!("pipeline_parallel_layers_per_stage = {}\n", layers / chunks);
        } else {
            cannot.push(Cannot::Interleaving);
        }
    }
    let toml = format!(
        "[job]\ndump_folder = \"./outputs\"\n\n\
         [metrics]\nlog_freq = 1\n\n\
         [model]\nname = \"{name}\"\nflavor = \"{flavor}\"\nconverters = {converters}\n\n\
         [training]\nlocal_batch_size = {local}\nglobal_batch_size = {global}\n\
         seq_len = {seq}\nsteps = {steps}\nmixed_precision_param = \"{param}\"\n\n\
         [parallelism]\ndata_parallel_replicate_degree = {replicate}\n\
         data_parallel_shard_degree = {shard}\ntensor_parallel_degree = {tp}\n\
         pipeline_parallel_degree = {pp}\npipeline_parallel_schedule = \"{schedule}\"\n\
         {stages}pipeline_parallel_microbatch_size = {mb}\ncontext_parallel_degree = {cp}\n\
         expert_parallel_degree = {ep}\nexpert_tensor_parallel_degree = {etp}\n\n\
         [activation_checkpoint]\nmode = \"{mode}\"\nselective_ac_option = \"op\"\n\n\
         [compile]\nenable = true\n",
        global = plan.global_batch,
        seq = plan.seq_len,
        tp = plan.tp,
        pp = plan.pp,
        mb = plan.micro_batch,
        cp = plan.cp,
        ep = plan.ep,
        etp = plan.etp,
    );
    let per_node = inputs.cluster.chips_per_node.max(1).min(plan.chips().max(1));
    let nodes = plan.chips().div_ceil(per_node);
    let mut run = String::from("#!/usr/bin/env bash\nset -euo pipefail\n");
    for (k, v) in fabric_env(site) {
        run.push_str(&format!("export {k}={v}\n"));
    }
    run.push_str(&format!(
        "NNODES=${{NNODES:-{nodes}}}\nNODE_RANK=${{NODE_RANK:-0}}\n\
         MASTER_ADDR=${{MASTER_ADDR:-localhost}}\nMASTER_PORT=${{MASTER_PORT:-29500}}\n\
         torchrun --nnodes \"$NNODES\" --nproc-per-node {per_node} --node-rank \"$NODE_RANK\" \
         --master-addr \"$MASTER_ADDR\" --master-port \"$MASTER_PORT\" \\\n  \
         -m torchtitan.train --job.config_file train.toml \"$@\"\n"
    ));
    let check = "#!/usr/bin/env bash\nset -euo pipefail\nbash launch.sh --training.steps 20 \
                 2>&1 | tee run.log\nclusterplan measure run.log --scenario scenario.json\n";
    let files = vec![
        File { name: "launch.sh", text: run },
        File { name: "train.toml", text: toml },
        File { name: "check.sh", text: check.to_string() },
    ];
    (files, cannot)
}

/// Reads a torchtitan job TOML: `[section]` headers and `key = value` lines.
pub(super) fn read(text: &str) -> Result<Plan, Unread> {
    let mut section = String::new();
    let mut seen: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.trim().to_string();
        } else if let Some((k, v)) = line.split_once('=') {
            let v = v.trim().trim_matches('"').to_string();
            seen.push((format!("{section}.{}", k.trim()), v));
        }
    }
    let get = |key: &str| seen.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let num = |key: &'static str, default: Option<u32>| -> Result<u32, Unread> {
        match (get(key), default) {
            (Some(v), _) => number(key, v),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(Unread::Missing(key)),
        }
    };
    let tp = num("parallelism.tensor_parallel_degree", Some(1))?;
    let pp = num("parallelism.pipeline_parallel_degree", Some(1))?;
    let replicate = num("parallelism.data_parallel_replicate_degree", Some(1))?;
    let shard = match get("parallelism.data_parallel_shard_degree") {
        Some("-1") | None => None,
        Some(v) => Some(number("parallelism.data_parallel_shard_degree", v)?),
    };
    let vp = match get("parallelism.pipeline_parallel_layers_per_stage") {
        Some(per) if pp > 1 => {
            let per = number("parallelism.pipeline_parallel_layers_per_stage", per)?.max(1);
            let name = get("model.name").unwrap_or("");
            let flavor = get("model.flavor").unwrap_or("");
            let Some(layers) = layers(name, flavor) else {
                return Err(Unread::Bad("model.flavor", flavor.to_string()));
            };
            (layers / (per * pp)).max(1)
        }
        _ => 1,
    };
    let local = num("training.local_batch_size", Some(8))?;
    let micro =
        if pp > 1 { num("parallelism.pipeline_parallel_microbatch_size", Some(1))? } else { local };
    let recompute = match get("activation_checkpoint.mode").unwrap_or("selective") {
        "none" => Recompute::None,
        "full" => Recompute::Full,
        "selective" => Recompute::Selective,
        other => return Err(Unread::Bad("activation_checkpoint.mode", other.to_string())),
    };
    let converters = get("model.converters").unwrap_or("[]");
    let recipe = if converters.contains("float8") {
        Recipe::Fp8
    } else if converters.contains(".mx") {
        Recipe::Mxfp8
    } else if get("training.mixed_precision_param") == Some("float32") {
        Recipe::TorchAmp
    } else {
        Recipe::MegatronBf16
    };
    let dp = shard.map(|s| s * replicate);
    Ok(Plan {
        tp,
        pp,
        vp,
        cp: num("parallelism.context_parallel_degree", Some(1))?,
        ep: num("parallelism.expert_parallel_degree", Some(1))?,
        etp: num("parallelism.expert_tensor_parallel_degree", Some(1))?,
        dp,
        micro_batch: micro,
        global_batch: num("training.global_batch_size", None)?,
        seq_len: num("training.seq_len", Some(2048))?,
        recompute,
        recompute_elementwise: None,
        recompute_mlp_up: None,
        recipe,
        grads: Grads::Fp32,
        zero: if shard.unwrap_or(2) > 1 { 3 } else { 0 },
        sequence_parallel: None,
    })
}
