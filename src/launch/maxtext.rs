//! MaxText: the plan as a YAML on top of `base.yml` (MaxText v0.2's
//! `src/maxtext/configs/base.yml`): the mesh inside a slice (`ici_*_parallelism`) and across
//! slices over the data-centre network (`dcn_*_parallelism`), the batch per chip, the remat
//! policy and the quantization; and that YAML read back.

use super::{number, Cannot, File, Plan, Site, Unread};
use crate::model::{Grads, Inputs, Recipe, Recompute, Weights};

/// MaxText's remat policy for a recomputation: everything saved but the attention context
/// (`minimal_with_context` saves it too), every product but the MLP up-projection
/// (`save_dot_except_mlpwi`), or nothing but each layer's input (`full`). MaxText's policies
/// save only named products, so element-wise ops are always rerun.
fn policy(plan: &Plan) -> &'static str {
    match plan.recompute {
        Recompute::Full => "full",
        _ if plan.recompute_mlp_up == Some(true) => "save_dot_except_mlpwi",
        Recompute::Selective => "minimal",
        Recompute::None => "minimal_with_context",
    }
}

pub(super) fn write(inputs: &Inputs, plan: &Plan, site: &Site) -> (Vec<File>, Vec<Cannot>) {
    let mut cannot = Vec::new();
    if site.vendor != "Google" {
        cannot.push(Cannot::Vendor);
    }
    let quantization = match plan.recipe {
        Recipe::Int8 => "int8",
        Recipe::Fp8 => "fp8",
        Recipe::MegatronBf16 => "",
        other => {
            cannot.push(Cannot::Recipe(other));
            ""
        }
    };
    if plan.vp > 1 {
        cannot.push(Cannot::Interleaving);
    }
    // MaxText keeps one copy of the weights, and its moments, in `weight_dtype`.
    let weight_dtype =
        if inputs.training.weights == Weights::Bf16 { "bfloat16" } else { "float32" };
    let chips = plan.chips().max(1);
    // A slice is one scale-up (ICI) domain; the data-parallel replicas span the slices.
    let slice = inputs.cluster.domain_chips.clamp(1, chips);
    let slices = (chips / slice).max(1);
    // MaxText's expert axis is a mesh axis of its own, carved here from the data-parallel
    // ranks as the plan's expert parallelism is.
    let dp_all = plan.dp.unwrap_or(1);
    let ep = if plan.ep > 1 && dp_all % plan.ep == 0 { plan.ep } else { 1 };
    if plan.ep > 1 && ep == 1 {
        cannot.push(Cannot::Experts);
    }
    let dp = dp_all / ep;
    let (dcn_dp, ici_dp) = if dp % slices == 0 { (slices, dp / slices) } else { (1, dp) };
    // FSDP (ZeRO-3) is MaxText's `fsdp` axis; plain data parallelism its `data` axis.
    let (ici_fsdp, ici_data) = if plan.zero == 3 { (ici_dp, 1) } else { (1, ici_dp) };
    // ZeRO-1 and -2 have no axis; nor has ZeRO-3 when the experts take every data rank.
    if plan.zero == 1 || plan.zero == 2 || (plan.zero == 3 && ici_dp * dcn_dp == 1) {
        cannot.push(Cannot::Zero(plan.zero));
    }
    let microbatches = plan.global_batch.div_ceil(plan.micro_batch.max(1) * dp_all).max(1);
    // Without a pipeline the micro-batches are accumulated steps, each of
    // `per_device_batch_size` sequences a chip.
    let accumulation = if plan.pp > 1 { 1 } else { microbatches };
    let per_device = plan.global_batch as f64 / (chips as f64 * accumulation as f64);
    let steps = (inputs.training.tokens / (plan.global_batch as f64 * plan.seq_len as f64).max(1.0))
        .ceil()
        .clamp(1.0, 1e12) as u64;
    let mut yaml = format!(
        "base_config: \"base.yml\"\nrun_name: \"clusterplan\"\nsteps: {steps}\n\
         per_device_batch_size: {per_device}\nmax_target_length: {seq}\n\
         dtype: \"bfloat16\"\nweight_dtype: \"{weight_dtype}\"\nquantization: \"{quantization}\"\n\
         remat_policy: \"{remat}\"\n\
         ici_data_parallelism: {ici_data}\nici_fsdp_parallelism: {ici_fsdp}\n\
         ici_tensor_parallelism: {tp}\nici_context_parallelism: {cp}\n\
         ici_expert_parallelism: {ep}\nici_pipeline_parallelism: {pp}\n\
         dcn_data_parallelism: {dcn_dp}\ndcn_fsdp_parallelism: 1\n",
        seq = plan.seq_len,
        remat = policy(plan),
        tp = plan.tp,
        cp = plan.cp,
        pp = plan.pp,
    );
    if plan.pp > 1 {
        yaml.push_str(&format!("num_pipeline_microbatches: {microbatches}\n"));
    } else if accumulation > 1 {
        yaml.push_str(&format!("gradient_accumulation_steps: {accumulation}\n"));
    }
    let run = "#!/usr/bin/env bash\nset -euo pipefail\n\
               MAXTEXT=${MAXTEXT:-/opt/maxtext}\n\
               python3 -m MaxText.train \"$MAXTEXT/src/maxtext/configs/maxtext-plan.yml\" \"$@\"\n";
    let check =
        "#!/usr/bin/env bash\nset -euo pipefail\nbash launch.sh steps=20 2>&1 | tee run.log\n\
                 clusterplan measure run.log --scenario scenario.json\n";
    let files = vec![
        File { name: "launch.sh", text: run.to_string() },
        File { name: "maxtext-plan.yml", text: yaml },
        File { name: "check.sh", text: check.to_string() },
    ];
    (files, cannot)
}

/// Reads a MaxText YAML (or `key=value` overrides): the mesh's axes, the batch per chip,
/// the remat policy and the quantization.
pub(super) fn read(text: &str) -> Result<Plan, Unread> {
    let mut seen: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        for part in line.split_whitespace().filter(|p| p.contains('=')) {
            if let Some((k, v)) = part.split_once('=') {
                seen.push((k.to_string(), v.trim_matches('"').to_string()));
            }
        }
        if let Some((k, v)) = line.split_once(':') {
            seen.push((k.trim().to_string(), v.trim().trim_matches(['"', '\'']).to_string()));
        }
    }
    let get = |key: &str| seen.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let axis = |key: &'static str| -> Result<u32, Unread> {
        match get(key) {
            None | Some("-1") => Ok(1),
            Some(v) => number(key, v),
        }
    };
    let tp = axis("ici_tensor_parallelism")? * axis("dcn_tensor_parallelism")?;
    let pp = axis("ici_pipeline_parallelism")? * axis("dcn_pipeline_parallelism")?;
    let cp = axis("ici_context_parallelism")? * axis("dcn_context_parallelism")?;
    let ep = axis("ici_expert_parallelism")? * axis("dcn_expert_parallelism")?;
    let fsdp = axis("ici_fsdp_parallelism")? * axis("dcn_fsdp_parallelism")?;
    let data = axis("ici_data_parallelism")? * axis("dcn_data_parallelism")?;
    let dp = fsdp * data * ep;
    let chips = tp * pp * cp * dp;
    let per_device: f64 = match get("per_device_batch_size") {
        Some(v) => v.parse().map_err(|_| Unread::Bad("per_device_batch_size", v.to_string()))?,
        None => return Err(Unread::Missing("per_device_batch_size")),
    };
    let accumulation = axis("gradient_accumulation_steps")?.max(1);
    let global = (per_device * chips as f64 * accumulation as f64).round() as u32;
    let micro = if pp > 1 {
        let m = axis("num_pipeline_microbatches")?.max(1);
        (global / (m * dp.max(1))).max(1)
    } else {
        (global / (dp.max(1) * accumulation)).max(1)
    };
    let (recompute, mlp_up) = match get("remat_policy").unwrap_or("full") {
        "full" => (Recompute::Full, false),
        "save_dot_except_mlpwi" | "save_dot_except_mlp" => (Recompute::None, true),
        "minimal" | "save_qkv_proj" | "save_out_proj" => (Recompute::Selective, false),
        _ => (Recompute::None, false),
    };
    let recipe = match get("quantization").unwrap_or("") {
        "int8" => Recipe::Int8,
        "fp8" | "fp8_full" | "nanoo_fp8" => Recipe::Fp8,
        "" => Recipe::MegatronBf16,
        other => return Err(Unread::Bad("quantization", other.to_string())),
    };
    Ok(Plan {
        tp,
        pp,
        vp: 1,
        cp,
        ep,
        etp: tp,
        dp: Some(dp),
        micro_batch: micro,
        global_batch: global,
        seq_len: match get("max_target_length") {
            Some(v) => number("max_target_length", v)?,
            None => 2048,
        },
        recompute,
        recompute_elementwise: None,
        recompute_mlp_up: Some(mlp_up),
        recipe,
        grads: Grads::Fp32,
        zero: if fsdp > 1 { 3 } else { 0 },
        sequence_parallel: None,
    })
}
