//! The page's words: field labels and the explanation of every term, keyed by the field
//! table's paths, and the wording of typed notices. One catalogue, so a second language is a
//! second table, not a hunt through the components.

use crate::editor::{Kept, Notice};
use crate::model::presets;
use crate::scenario::fields;

/// The label of a field, by its scenario path.
pub fn label(path: &str) -> &'static str {
    match path {
        "model.layers" => "Layers",
        "model.hidden" => "Hidden size",
        "model.heads" => "Attention heads",
        "model.kv_heads" => "KV heads",
        "model.ffn" => "FFN size",
        "model.vocab" => "Vocabulary",
        "model.seq_len" => "Sequence length",
        "model.ffn_act" => "Feed-forward",
        "model.attention" => "Attention",
        "model.moe.experts" => "Routed experts",
        "model.moe.top_k" => "Experts per token",
        "model.moe.shared_experts" => "Shared experts",
        "model.moe.expert_ffn" => "Expert FFN size",
        "model.moe.dense_layers" => "Leading dense layers",
        "training.tokens" => "Tokens to train",
        "training.global_batch" => "Global batch",
        "training.recipe" => "Precision recipe",
        "cluster.chip" => "Accelerator",
        "cluster.chips" => "Chips",
        "cluster.chips_per_node" => "Chips per node",
        "cluster.scale_up" => "Scale-up fabric",
        "cluster.scale_up_domain" => "Scale-up domain",
        "cluster.scale_out" => "Scale-out network",
        "cluster.chip.bf16_tflops" => "BF16 dense peak",
        "cluster.chip.fp8_tflops" => "FP8 dense peak",
        "cluster.chip.fp32_tflops" => "FP32 peak",
        "cluster.chip.hbm_gb" => "Memory",
        "cluster.chip.hbm_tb_per_s" => "Memory bandwidth",
        "cluster.chip.tdp_w" => "Board power",
        "cluster.chip.matmul_efficiency" => "GEMM efficiency",
        "cluster.chip.memory_efficiency" => "Memory efficiency",
        "cluster.chip.price_usd" => "Price",
        "cluster.scale_up.bandwidth_gb_per_s" => "Scale-up bandwidth",
        "cluster.scale_out.gbit_per_s" => "Network per chip",
        "cluster.system" => "System",
        "cluster.fabric.switch" => "Scale-out switch",
        "cluster.fabric.planes" => "Network planes",
        "cluster.fabric.tiers" => "Switch tiers",
        "cluster.fabric.oversubscription" => "Oversubscription above the pods",
        "facility.cooling" => "Cooling",
        "facility.pue" => "PUE",
        "facility.rack_kw" => "Rack power limit",
        "facility.usd_per_kwh" => "Electricity",
        "facility.kg_co2_per_kwh" => "Grid carbon",
        "facility.build_usd_per_mw" => "Building cost",
        "facility.amortization_years" => "Paid off over",
        "facility.cloud_usd_per_chip_hour" => "Cloud price",
        "reliability.checkpoint" => "Checkpoints",
        "reliability.storage_gb_per_s" => "Storage write bandwidth",
        "reliability.restart_min" => "Restart after a failure",
        "parallelism.tp" => "Tensor (TP)",
        "parallelism.pp" => "Pipeline (PP)",
        "parallelism.dp" => "Data (DP)",
        "parallelism.cp" => "Context (CP)",
        "parallelism.ep" => "Expert (EP)",
        "parallelism.micro_batch" => "Micro-batch",
        "parallelism.virtual_stages" => "Virtual stages",
        "parallelism.zero" => "Sharding (ZeRO)",
        "parallelism.recompute" => "Activation recomputation",
        "parallelism.sequence_parallel" => "Sequence parallelism (SP, with TP)",
        "parallelism.dp_overlap" => "Overlap gradient reduction with backward",
        "parallelism.ep_overlap" => "Overlap expert all-to-all (DualPipe)",
        "parallelism.cp_overlap" => "Overlap context exchange (ring attention)",
        "parallelism.stack" => "Software stack",
        "parallelism.tp_overlap" => "Overlap tensor-parallel communication with GEMMs",
        "parallelism.pp_overlap" => "Overlap pipeline sends with compute",
        "parallelism.recompute_elementwise" => "Recompute norms and activation functions",
        _ => "",
    }
}

/// What a field or result means, shown on hover and keyboard focus.
pub fn help(key: &str) -> &'static str {
    match key {
        "cluster.system" => "The server or rack-scale system the chips come in: node size, power, rack layout, cooling and price. Its reference design also sets the network's switch and rules.",
        "cluster.fabric.switch" => "The switch at every tier of the scale-out fat tree; its radix decides how many tiers and switches the cluster needs.",
        "cluster.fabric.planes" => "Identical scale-out networks, one per NIC port of a chip: each plane adds bandwidth and a full set of switches.",
        "cluster.fabric.oversubscription" => "Down-links per up-link below the top tier (7 for Meta's 1:7): fewer core switches, but groups that leave their pod get a seventh of the bandwidth.",
        "facility.cooling" => "Air, direct liquid (cold plates take about 94% of the heat) or hybrid (liquid on the accelerators only). Sets the default PUE and the rack density the site can cool.",
        "facility.pue" => "Power usage effectiveness: site power over IT power. 1.56 is the industry average (mostly air), about 1.1 at hyperscale liquid-cooled sites.",
        "reliability.checkpoint" => "How the training state is saved: synchronously (training waits for storage), asynchronously (a copy to host memory, written in the background), or kept in peers' memory so restarts need not read storage.",
        "reliability.restart_min" => "Detection, restart and catch-up after an interruption; the work since the last checkpoint is lost on top.",
        "facility.rack_kw" => "Power one rack position can take; servers spread over more racks below it.",
        "facility-mw" => "Average power the site draws while training: chips at the share of the step they compute, hosts, network, times PUE.",
        "energy" => "Energy of the whole run at the site, and its emissions at the grid's carbon intensity.",
        "goodput" => "Share of wall-clock time that trains: interruptions (from the cluster's component counts and per-component failure rates calibrated on Llama 3.1 405B) cost a restart and the work since the last checkpoint; checkpoints cost their stall.",
        "effective-days" => "Days to train including checkpoints, interruptions and restarts.",
        "mtbf" => "Mean time between unexpected interruptions of the whole job: one failing GPU, host, NIC, switch or cable stops it.",
        "capex" => "What the cluster costs to buy and house: systems, switches, optics, cables, racks, and the building per MW of IT load.",
        "run-cost" => "The run's share of the capex over the years it is paid off, plus maintenance and energy; and the same run on rented chips.",
        "parallelism.tp" => "Tensor parallelism: each layer's matrices split over this many chips, which exchange activations twice per layer; keep it inside the scale-up domain.",
        "parallelism.pp" => "Pipeline parallelism: the layers split into this many stages that pass activations along; idle time at the start and end of each step is the bubble.",
        "parallelism.dp" => "Data parallelism: copies of the model, each on its own share of the batch, whose gradients are reduced every step. Automatic: chips ÷ (TP × PP × CP).",
        "parallelism.cp" => "Context parallelism: each sequence split over this many chips, which exchange keys and values for attention; for long sequences.",
        "parallelism.ep" => "Expert parallelism: a mixture's experts spread over this many chips, carved out of DP × CP; tokens travel to their experts by all-to-all.",
        "parallelism.micro_batch" => "Sequences each pipeline processes at a time; the global batch is split into micro-batches per data-parallel replica.",
        "parallelism.virtual_stages" => "Virtual stages (interleaved 1F1B): each pipeline rank holds this many non-adjacent chunks of layers, which shrinks the bubble for more pipeline traffic.",
        "parallelism.zero" => "ZeRO sharding over the data-parallel ranks: 1 shards the optimizer state (Megatron's distributed optimizer), 2 also gradients, 3 also weights (FSDP).",
        "parallelism.recompute" => "Recompute activations in the backward pass instead of keeping them: selective reruns attention scores, full reruns whole layers (about a third more compute).",
        "parallelism.sequence_parallel" => "Sequence parallelism (SP): norms and dropout split along the sequence inside the tensor-parallel group, so their activations are not replicated.",
        "parallelism.dp_overlap" => "Reduce gradients while the backward pass still runs, hiding most data-parallel traffic.",
        "parallelism.ep_overlap" => "DualPipe (DeepSeek-V3): expert all-to-all hidden behind another micro-batch's compute.",
        "parallelism.cp_overlap" => "Ring attention: the context-parallel key/value exchange hidden behind attention compute.",
        "parallelism.stack" => "Megatron-Core as its README runs its scaling tables overlaps data-, tensor- and pipeline-parallel communication with compute; the Megatron-LM baseline of the 2021-2023 papers overlaps none. Each overlap can also be set on its own below.",
        "parallelism.tp_overlap" => "Tensor-parallel all-gathers and reduce-scatters split into chunks that travel while the GEMMs run (Megatron-Core --tp-comm-overlap).",
        "parallelism.pp_overlap" => "Pipeline sends and receives travel while the next chunk computes (Megatron-Core's interleaved schedule).",
        "parallelism.recompute_elementwise" => "Keep only the inputs of norms and of the feed-forward activation and rerun them in the backward pass (DeepSeek-V3): about a third less activation memory for a few percent more time.",
        "training.recipe" => "Which precision the weights, gradients and optimizer state are kept in, and whether GEMMs run in FP8.",
        "cluster.scale_up" => "The fast fabric inside a server or rack (NVLink, HCCS, Infinity Fabric): where tensor and expert parallelism should stay.",
        "cluster.scale_out" => "The network between scale-up domains (InfiniBand, RoCE): what data and pipeline parallelism cross.",
        "cluster.chips" => "Chips in the cluster; every one counts in chip-hours, used or idle.",
        "train-days" => "Wall-clock days to train on all the tokens at this step time, with no failures, restarts or checkpoint stalls.",
        "mfu" => "MFU, model FLOPs utilisation: the model's FLOPs per second (Megatron-LM's count, causal attention once) over the BF16 dense peak of the chips used. HFU adds recomputed FLOPs.",
        "tokens-per-s" => "Tokens trained per second by the whole cluster.",
        "step-time" => "Time of one optimizer step: every micro-batch through the pipeline, exposed communication, bubble, optimizer, and the wait for the slowest chip (identical chips differ by about 8% in speed; the whole job runs at the pace of the slowest of its chips).",
        "chip-hours" => "Days to train times every chip in the cluster, in hours.",
        "memory-per-chip" => "Peak memory of a chip on the busiest pipeline stage, against the memory a chip has: weights, gradients, optimizer state, activations and buffers.",
        _ => "",
    }
}

/// A `fields` path as the user reads it (`Memory bandwidth`), for messages about figures.
pub fn figure_name(path: &str) -> &'static str {
    match label(path) {
        "" => "a figure",
        name => name,
    }
}

/// A label inside a sentence: "Memory bandwidth" becomes "memory bandwidth", while an
/// abbreviation ("BF16 dense peak") keeps its capitals.
pub fn in_sentence(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_lowercase() => {
            first.to_lowercase().chain(label.chars().skip(1)).collect()
        }
        _ => label.to_string(),
    }
}

/// The display name of a preset id at a fabric path.
fn preset_name(path: &str, value: &serde_json::Value) -> String {
    let id = value.as_str().unwrap_or_default();
    let name = match path {
        "cluster.scale_out" => presets::scale_out(id).map(|p| p.name),
        "cluster.scale_up" => presets::scale_up(id).map(|p| p.name),
        _ => None,
    };
    name.map_or_else(|| crate::ui::format::raw(value), str::to_string)
}

fn kept(k: &Kept) -> String {
    let yours = preset_name(k.path, &k.yours);
    match &k.usual {
        Some(usual) => format!(
            "kept your {} {yours} (the chip usually comes with {})",
            in_sentence(label(k.path)),
            preset_name(k.path, usual)
        ),
        None => format!("kept your {} of {yours}", in_sentence(label(k.path))),
    }
}

/// A notice in words.
pub fn notice(n: &Notice) -> String {
    match n {
        Notice::Reset => "Back to the default plan.".into(),
        Notice::Imported { name } => format!("Imported {name}."),
        Notice::ImportRejected { name, problems } => format!(
            "Did not import {name}; your plan is unchanged. {}",
            problems.join("; ")
        ),
        Notice::LoadedPlan { title } => format!("Loaded the published plan of {title}."),
        Notice::ChipChanged { chip, kept: list, replaced } => {
            let mut text = format!("Chip set to {chip}");
            if !replaced.is_empty() {
                let names: Vec<String> =
                    replaced.iter().map(|p| in_sentence(label(p))).collect();
                text.push_str(&format!("; its own {} came with it", names.join(" and ")));
            }
            for k in list {
                text.push_str("; ");
                text.push_str(&kept(k));
            }
            text.push('.');
            text
        }
        Notice::MoeWithoutEp { model } => format!(
            "{model} is a mixture of experts: with EP 1 every chip holds every expert. Raise Expert (EP) or load its published plan."
        ),
        Notice::Applied { label } => format!("Applied {label}; the link now opens it."),
        Notice::Comparing => "Pinned this plan as A: edit it into plan B and compare them side by side; the link carries both.".into(),
        Notice::Undone => "Undone: back to the plan before.".into(),
        Notice::NothingToUndo => "Nothing to undo.".into(),
        Notice::OpenedLink => "Opened the plan in the link.".into(),
        Notice::Text(text) => text.clone(),
    }
}

/// The unit a field is shown in, from the field table.
pub fn unit(path: &str) -> &'static str {
    fields::field(path).map_or("", |f| f.unit)
}

/// The cluster drawing's words.
pub const SKETCH: crate::sketch::Words = crate::sketch::Words {
    tiers: ["leaf", "spine", "core"],
    pod: ["Pod", "pods"],
    unit: ["Unit", "units"],
    rack: "racks",
    node: "nodes",
    chips: "chips",
    domain: "scale-up domains",
    one_rack: "One rack",
    switches: "switches",
    planes: "planes",
    more: "more",
    each: "each",
    knobs: [
        "chips per node",
        "nodes per rack",
        "scale-up domain",
        "tiers",
        "planes",
        "oversubscription",
    ],
    title: "The cluster as built",
};

/// What the save buttons of a drawing say.
pub const SAVE_PNG: &str = "Save as a PNG image";
pub const SAVE_SVG: &str = "Save as an SVG drawing";
