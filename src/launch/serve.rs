//! Serving engines: the deployment the model chose as SGLang, vLLM and TensorRT-LLM server
//! commands and MindIE's `config.json`, one per role when prefill and decode run apart, and
//! each read back.
//!
//! How the engines split an instance: SGLang's `--tp-size` is every chip of the instance and
//! `--dp-size` with `--enable-dp-attention` its attention ranks; vLLM's tensor and data
//! degrees multiply, `--enable-expert-parallel` spreading the experts over all of them and
//! `--max-num-seqs` counting one data-parallel rank's sequences; TensorRT-LLM's `--tp_size`
//! is every chip, `enable_attention_dp` gives each its own sequences and `--max_batch_size`
//! counts one rank's.

use serde_json::{json, Value};

use super::{flags, number, words, Cannot, File, Framework, Served, Site, Unread};
use crate::model::serving::{Precision, PREFILL_CHUNK};

/// Tokens a step when a launch does not say: the engines' common default.
const CHUNK: u64 = PREFILL_CHUNK as u64;
use crate::model::Inputs;

/// Roles of a launch: one instance, or prefill and decode apart.
fn roles(s: &Served) -> Vec<(&'static str, (u32, u32, u32))> {
    match s.prefill {
        Some(p) => vec![("prefill", p), ("decode", (s.tp, s.dp, s.ep))],
        None => vec![("serve", (s.tp, s.dp, s.ep))],
    }
}

pub(super) fn write(
    framework: Framework,
    inputs: &Inputs,
    s: &Served,
    site: &Site,
) -> (Vec<File>, Vec<Cannot>) {
    let mut cannot = Vec::new();
    let moe = inputs.transformer.moe.is_some();
    let mtp = inputs.transformer.mtp_layers > 0;
    let nvidia = site.vendor == "NVIDIA";
    match framework {
        Framework::Trtllm if !nvidia => cannot.push(Cannot::Vendor),
        Framework::Mindie if site.vendor != "Huawei" => cannot.push(Cannot::Vendor),
        _ => {}
    }
    if let Some(attention) = s.attention_weights {
        cannot.push(Cannot::Checkpoint(attention));
    }
    // SGLang and vLLM keep weights in the host's memory with `--cpu-offload-gb`; TensorRT-LLM's
    // and MindIE's servers have no such setting.
    if s.offload_gib > 0.0 && matches!(framework, Framework::Trtllm | Framework::Mindie) {
        cannot.push(Cannot::Offload);
    }
    let per_node = inputs.cluster.chips_per_node.max(1);
    let mut files = Vec::new();
    for (role, (tp, dp, ep)) in roles(s) {
        let chips = tp.max(1) * dp.max(1);
        let nodes = chips.div_ceil(per_node);
        let name = match role {
            "prefill" => "prefill.sh",
            "decode" => "decode.sh",
            _ => "serve.sh",
        };
        let mut text = String::from("#!/usr/bin/env bash\nset -euo pipefail\n");
        text.push_str(&format!("MODEL=${{MODEL:-/models/{}}}\n", site.model));
        let cmd = match framework {
            Framework::Sglang => sglang(role, (tp, dp, ep), s, nodes, mtp, moe),
            Framework::Vllm => vllm(role, (tp, dp, ep), s, mtp, moe, &mut cannot),
            Framework::Trtllm => trtllm(role, (tp, dp, ep), s, per_node, &mut cannot),
            _ => {
                if dp > 1 || ep > 1 {
                    cannot.push(Cannot::Experts);
                }
                files.push(File {
                    name: if role == "prefill" { "prefill.json" } else { "config.json" },
                    text: mindie(chips, s, inputs),
                });
                continue;
            }
        };
        text.push_str(&cmd);
        if framework == Framework::Trtllm {
            files.push(File {
                name: if role == "prefill" { "prefill.yaml" } else { "extra.yaml" },
                text: trtllm_yaml(role, (tp, dp, ep), s),
            });
        }
        files.push(File { name, text });
    }
    cannot.dedup();
    (files, cannot)
}

fn kv_sglang(p: Precision) -> Option<&'static str> {
    match p {
        Precision::Bf16 => None,
        Precision::Fp8 => Some("fp8_e4m3"),
        Precision::Fp4 => Some("fp4_e2m1"),
    }
}

fn sglang(
    role: &str,
    (tp, dp, ep): (u32, u32, u32),
    s: &Served,
    nodes: u32,
    mtp: bool,
    moe: bool,
) -> String {
    let mut a =
        format!("python3 -m sglang.launch_server --model-path \"$MODEL\" --tp-size {}", tp * dp);
    if dp > 1 {
        a.push_str(&format!(" --dp-size {dp} --enable-dp-attention"));
    }
    if moe && ep > 1 {
        a.push_str(&format!(" --ep-size {ep}"));
    }
    match s.weights.unwrap_or_default() {
        Precision::Bf16 => {}
        Precision::Fp8 => a.push_str(" --quantization fp8"),
        Precision::Fp4 => a.push_str(" --quantization modelopt_fp4"),
    }
    if let Some(kv) = kv_sglang(s.kv_cache.unwrap_or_default()) {
        a.push_str(&format!(" --kv-cache-dtype {kv}"));
    }
    a.push_str(&format!(" --chunked-prefill-size {}", s.max_tokens));
    a.push_str(&offload(s));
    if overlaps(s, dp, ep, moe) {
        a.push_str(" --enable-two-batch-overlap");
    }
    if role != "prefill" {
        a.push_str(&format!(
            " --max-running-requests {} --cuda-graph-max-bs {}",
            s.max_batch,
            s.max_batch.div_ceil(dp.max(1))
        ));
        if s.draft_tokens > 0 {
            let algorithm = if mtp { "NEXTN" } else { "EAGLE" };
            a.push_str(&format!(
                " --speculative-algorithm {algorithm} --speculative-num-steps {} \
                 --speculative-eagle-topk 1 --speculative-num-draft-tokens {}",
                s.draft_tokens,
                s.draft_tokens + 1
            ));
        }
    }
    if role != "serve" {
        a.push_str(&format!(
            " --disaggregation-mode {role} --disaggregation-transfer-backend nixl"
        ));
    }
    if nodes > 1 {
        a.push_str(&format!(
            " --nnodes {nodes} --node-rank \"${{NODE_RANK:-0}}\" \
             --dist-init-addr \"${{MASTER_ADDR:-localhost}}:5000\""
        ));
    }
    a.push_str(" --host 0.0.0.0 --port 30000 \"$@\"\n");
    a
}

fn vllm(
    role: &str,
    (tp, dp, ep): (u32, u32, u32),
    s: &Served,
    mtp: bool,
    moe: bool,
    cannot: &mut Vec<Cannot>,
) -> String {
    let mut a = format!("vllm serve \"$MODEL\" --tensor-parallel-size {tp}");
    if dp > 1 {
        a.push_str(&format!(" --data-parallel-size {dp}"));
    }
    if moe && ep > 1 {
        // vLLM spreads the experts over every rank of the instance.
        if ep != tp * dp {
            cannot.push(Cannot::Experts);
        }
        a.push_str(" --enable-expert-parallel");
    }
    match s.weights.unwrap_or_default() {
        Precision::Bf16 => {}
        Precision::Fp8 => a.push_str(" --quantization fp8"),
        Precision::Fp4 => a.push_str(" --quantization modelopt_fp4"),
    }
    match s.kv_cache.unwrap_or_default() {
        Precision::Bf16 => {}
        Precision::Fp8 => a.push_str(" --kv-cache-dtype fp8"),
        Precision::Fp4 => cannot.push(Cannot::KvCache(Precision::Fp4)),
    }
    a.push_str(&format!(" --max-num-batched-tokens {}", s.max_tokens));
    a.push_str(&offload(s));
    if overlaps(s, dp, ep, moe) {
        a.push_str(" --enable-dbo");
    }
    if role != "prefill" {
        a.push_str(&format!(" --max-num-seqs {}", s.max_batch.div_ceil(dp.max(1))));
        if s.draft_tokens > 0 {
            let method = if mtp { "mtp" } else { "eagle" };
            a.push_str(&format!(
                " --speculative-config '{{\"method\":\"{method}\",\"num_speculative_tokens\":{}}}'",
                s.draft_tokens
            ));
        }
    }
    if role != "serve" {
        a.push_str(
            " --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'",
        );
    }
    a.push_str(" --host 0.0.0.0 --port 8000 \"$@\"\n");
    a
}

/// The flag keeping `s.offload_gib` of each chip's weights in the host's memory (SGLang's and
/// vLLM's alike), or nothing.
fn offload(s: &Served) -> String {
    if s.offload_gib > 0.0 {
        format!(" --cpu-offload-gb {}", s.offload_gib)
    } else {
        String::new()
    }
}

/// Whether an instance of these degrees runs two micro-batches: the plan asks for them, and
/// the instance has data-parallel attention over experts to overlap (a prefill pool's may
/// differ from the decode pool's).
fn overlaps(s: &Served, dp: u32, ep: u32, moe: bool) -> bool {
    s.two_batch_overlap && dp > 1 && ep > 1 && moe
}

fn trtllm(
    role: &str,
    (tp, dp, ep): (u32, u32, u32),
    s: &Served,
    per_node: u32,
    cannot: &mut Vec<Cannot>,
) -> String {
    // Attention data parallelism gives every rank its own sequences: TP 1 within it.
    if dp > 1 && tp > 1 {
        cannot.push(Cannot::Experts);
    }
    let ranks = tp * dp;
    let yaml = if role == "prefill" { "prefill.yaml" } else { "extra.yaml" };
    let per_rank = if dp > 1 { s.max_batch.div_ceil(dp) } else { s.max_batch };
    let server_role = match role {
        "prefill" => " --server_role CONTEXT",
        "decode" => " --server_role GENERATION",
        _ => "",
    };
    format!(
        "trtllm-serve \"$MODEL\" --backend pytorch --tp_size {ranks} --ep_size {ep} \
         --gpus_per_node {gpus} --max_batch_size {per_rank} --max_num_tokens {tokens} \
         --kv_cache_free_gpu_memory_fraction 0.9 --extra_llm_api_options {yaml}{server_role} \
         --host 0.0.0.0 --port 8000 \"$@\"\n",
        ep = ep.max(1),
        gpus = per_node.min(ranks.max(1)),
        tokens = s.max_tokens,
    )
}

fn trtllm_yaml(role: &str, (tp, dp, _): (u32, u32, u32), s: &Served) -> String {
    let mut y = format!("enable_attention_dp: {}\n", dp > 1 && tp <= 1);
    if role != "serve" {
        y.push_str("cache_transceiver_config:\n  backend: DEFAULT\n");
    }
    if s.kv_cache == Some(Precision::Fp8) {
        y.push_str("kv_cache_config:\n  dtype: fp8\n");
    }
    let per_rank = if dp > 1 { s.max_batch.div_ceil(dp) } else { s.max_batch };
    y.push_str(&format!(
        "cuda_graph_config:\n  enable_padding: true\n  max_batch_size: {per_rank}\n"
    ));
    if s.draft_tokens > 0 {
        y.push_str(&format!(
            "speculative_config:\n  decoding_type: MTP\n  num_nextn_predict_layers: {}\n",
            s.draft_tokens
        ));
    }
    y
}

/// MindIE Service's `config.json` (its `BackendConfig`): the instance's world size and
/// devices, its batch and the lengths of a request.
fn mindie(chips: u32, s: &Served, inputs: &Inputs) -> String {
    let serving = inputs.serving.unwrap_or_default();
    let input = serving.input_tokens.round().max(1.0) as u64;
    let total = (serving.input_tokens + serving.output_tokens).round().max(1.0) as u64;
    let config = json!({
        "BackendConfig": {
            "npuDeviceIds": [(0..chips.min(64)).collect::<Vec<_>>()],
            "ModelDeployConfig": {
                "maxSeqLen": total,
                "maxInputTokenLen": input,
                "ModelConfig": [{ "modelName": "model", "modelWeightPath": "/models/model",
                                  "worldSize": chips }]
            },
            "ScheduleConfig": { "maxBatchSize": s.max_batch, "maxPrefillTokens": s.max_tokens }
        }
    });
    serde_json::to_string_pretty(&config).unwrap_or_default() + "\n"
}

/// Reads a server command (or both roles' commands, prefill first), a TensorRT-LLM options
/// YAML given after its command, or MindIE's `config.json`.
pub(super) fn read(framework: Framework, files: &[(&str, &str)]) -> Result<Served, Unread> {
    if framework == Framework::Mindie {
        let text = files.iter().find(|(n, _)| n.ends_with(".json")).map_or("", |f| f.1);
        let v: Value =
            serde_json::from_str(text).map_err(|e| Unread::Bad("config.json", e.to_string()))?;
        let b = &v["BackendConfig"];
        let world = b["ModelDeployConfig"]["ModelConfig"][0]["worldSize"]
            .as_u64()
            .ok_or(Unread::Missing("worldSize"))?;
        let batch =
            b["ScheduleConfig"]["maxBatchSize"].as_u64().ok_or(Unread::Missing("maxBatchSize"))?;
        let tokens = b["ScheduleConfig"]["maxPrefillTokens"].as_u64().unwrap_or(CHUNK);
        return Ok(Served {
            tp: world as u32,
            dp: 1,
            ep: 1,
            prefill: None,
            weights: None,
            kv_cache: None,
            attention_weights: None,
            max_batch: batch as u32,
            draft_tokens: 0,
            max_tokens: tokens.min(u32::MAX as u64) as u32,
            offload_gib: 0.0,
            two_batch_overlap: false,
        });
    }
    let start = match framework {
        Framework::Sglang => "sglang.launch_server",
        Framework::Vllm => "vllm",
        _ => "trtllm-serve",
    };
    let commands: Vec<&str> =
        files.iter().flat_map(|f| f.1.lines()).filter(|l| l.contains(start)).collect();
    let mut decode = None;
    let mut prefill = None;
    for line in commands {
        let f = flags(&words(line));
        let get = |k: &str| {
            f.iter()
                .rev()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.first().map(String::as_str).unwrap_or(""))
        };
        let num = |k: &'static str, d: u32| -> Result<u32, Unread> {
            get(k).map_or(Ok(d), |v| number(k, v))
        };
        let has = |k: &str| f.iter().any(|(n, _)| n == k);
        let (tp, dp, ep, batch, draft, kv, weights, role, tokens) = match framework {
            Framework::Sglang => {
                let all = num("tp-size", 1)?;
                let dp = if has("enable-dp-attention") { num("dp-size", 1)? } else { 1 };
                let kv = match get("kv-cache-dtype") {
                    Some("fp8_e4m3") | Some("fp8_e5m2") => Precision::Fp8,
                    Some("fp4_e2m1") => Precision::Fp4,
                    _ => Precision::Bf16,
                };
                (
                    all / dp.max(1),
                    dp,
                    num("ep-size", 1)?,
                    num("max-running-requests", 0)?,
                    num("speculative-num-steps", 0)?,
                    kv,
                    quantization(get("quantization")),
                    get("disaggregation-mode").unwrap_or("serve").to_string(),
                    num("chunked-prefill-size", CHUNK as u32)?,
                )
            }
            Framework::Vllm => {
                let tp = num("tensor-parallel-size", 1)?;
                let dp = num("data-parallel-size", 1)?;
                let ep = if has("enable-expert-parallel") { tp * dp } else { 1 };
                let kv = match get("kv-cache-dtype") {
                    Some(v) if v.starts_with("fp8") => Precision::Fp8,
                    _ => Precision::Bf16,
                };
                let draft = match get("speculative-config") {
                    Some(c) => {
                        let v: Speculative = serde_json::from_str(c)
                            .map_err(|e| Unread::Bad("speculative-config", e.to_string()))?;
                        v.num_speculative_tokens.unwrap_or(0)
                    }
                    None => 0,
                };
                let role = if has("kv-transfer-config") { "disaggregated" } else { "serve" };
                (
                    tp,
                    dp,
                    ep,
                    num("max-num-seqs", 0)? * dp,
                    draft,
                    kv,
                    quantization(get("quantization")),
                    role.to_string(),
                    num("max-num-batched-tokens", CHUNK as u32)?,
                )
            }
            _ => {
                let ranks = num("tp_size", 1)?;
                let named = get("extra_llm_api_options").unwrap_or("");
                let yaml = files.iter().find(|f| f.0 == named).map_or("", |f| f.1);
                let adp = yaml.contains("enable_attention_dp: true");
                let kv = if yaml.contains("dtype: fp8") { Precision::Fp8 } else { Precision::Bf16 };
                let draft = yaml
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("num_nextn_predict_layers:"))
                    .map_or(Ok(0), |v| number("num_nextn_predict_layers", v))?;
                let (tp, dp) = if adp { (1, ranks) } else { (ranks, 1) };
                let batch = num("max_batch_size", 0)? * dp;
                let role = match get("server_role") {
                    Some("CONTEXT") => "prefill",
                    _ => "serve",
                };
                let tokens = num("max_num_tokens", CHUNK as u32)?;
                (tp, dp, num("ep_size", 1)?, batch, draft, kv, None, role.to_string(), tokens)
            }
        };
        let offload_gib = match get("cpu-offload-gb") {
            Some(v) => match v.parse::<f64>() {
                Ok(gib) if gib.is_finite() && gib >= 0.0 => gib,
                _ => return Err(Unread::Bad("cpu-offload-gb", v.to_string())),
            },
            None => 0.0,
        };
        let served = Served {
            tp,
            dp,
            ep,
            prefill: None,
            weights,
            kv_cache: Some(kv),
            attention_weights: None,
            max_batch: batch,
            draft_tokens: draft,
            max_tokens: tokens,
            offload_gib,
            two_batch_overlap: has("enable-two-batch-overlap") || has("enable-dbo"),
        };
        if role == "prefill" || (role == "disaggregated" && prefill.is_none() && decode.is_none()) {
            prefill = Some(served);
        } else {
            decode = Some(served);
        }
    }
    match (decode, prefill) {
        (Some(mut d), p) => {
            d.prefill = p.map(|p| (p.tp, p.dp, p.ep));
            Ok(d)
        }
        (None, Some(_)) => Err(Unread::Missing("decode")),
        (None, None) => Err(Unread::Missing(start)),
    }
}

/// The weights' precision an engine's `--quantization` names.
fn quantization(q: Option<&str>) -> Option<Precision> {
    Some(match q {
        Some("fp8") => Precision::Fp8,
        Some(v) if v.contains("fp4") => Precision::Fp4,
        _ => Precision::Bf16,
    })
}

/// vLLM's `--speculative-config`: the draft tokens a step proposes.
#[derive(serde::Deserialize)]
struct Speculative {
    num_speculative_tokens: Option<u32>,
}
