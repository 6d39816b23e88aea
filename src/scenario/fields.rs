//! The field table: every numeric and yes/no input of a scenario, in one place.
//!
//! Each entry gives the dotted path (which is also the field's label key in the page's text
//! catalogue), the unit the scenario speaks, the kind of value, where its default comes from,
//! and the plausible range with the reason for it. `resolve` takes its bounds from here, the
//! page its units and formats, and `docs/scenario.md`'s range table is generated from it (a
//! test keeps that table current). A value outside the plausible range is an error: it is a
//! typo or a unit mistake, and estimating it would only print absurd numbers.

use crate::model::Warning;
use crate::numbers;

/// What kind of value a field holds; it also decides how the value is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number, shown grouped (`16,384`).
    Count,
    /// A real number, shown in the shortest exact form (`15.6T`, `0.85`).
    Number,
    /// A number above 0 and at most 1.
    Fraction,
    /// `true` or `false`.
    Flag,
}

/// Where a field's value comes from when the scenario does not give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fallback {
    /// A fixed value.
    Fixed(f64),
    /// The preset's figure (chip, fabric or model); required without a preset.
    Preset,
    /// Computed from other fields (documented in `docs/scenario.md`).
    Derived,
    /// Must be given.
    Required,
}

/// One input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    /// Dotted path in the scenario (`cluster.chip.hbm_tb_per_s`); also the label key.
    pub path: &'static str,
    /// Unit of the scenario value, as datasheets write it; empty for plain counts.
    pub unit: &'static str,
    /// Kind of value.
    pub kind: Kind,
    /// Default when absent.
    pub default: Fallback,
    /// Smallest plausible value (inclusive; for `Number` and `Fraction`, values must also be
    /// above zero unless `min` is zero and zero is meaningful).
    pub min: f64,
    /// Largest plausible value (inclusive).
    pub max: f64,
    /// Why the range is what it is.
    pub why: &'static str,
}

impl Field {
    /// The value as the page and messages show it.
    pub fn show(&self, x: f64) -> String {
        numbers::format(x)
    }

    /// The value with its unit (`10,000 TB/s`).
    pub fn show_with_unit(&self, x: f64) -> String {
        if self.unit.is_empty() {
            self.show(x)
        } else {
            format!("{} {}", self.show(x), self.unit)
        }
    }
}

const fn count(
    path: &'static str,
    default: Fallback,
    min: f64,
    max: f64,
    why: &'static str,
) -> Field {
    counted(path, "", default, min, max, why)
}

const fn counted(
    path: &'static str,
    unit: &'static str,
    default: Fallback,
    min: f64,
    max: f64,
    why: &'static str,
) -> Field {
    Field { path, unit, kind: Kind::Count, default, min, max, why }
}

const fn number(
    path: &'static str,
    unit: &'static str,
    default: Fallback,
    min: f64,
    max: f64,
    why: &'static str,
) -> Field {
    Field { path, unit, kind: Kind::Number, default, min, max, why }
}

const fn fraction(path: &'static str, default: Fallback) -> Field {
    Field {
        path,
        unit: "",
        kind: Kind::Fraction,
        default,
        min: 0.0,
        max: 1.0,
        why: "a share of a peak: above 0, at most all of it",
    }
}

const fn flag(path: &'static str, default: Fallback) -> Field {
    Field { path, unit: "", kind: Kind::Flag, default, min: 0.0, max: 1.0, why: "" }
}

use Fallback::*;

const DEGREE: &str = "a parallel degree beyond 1,024 has no published use and no benefit";

/// Every numeric and yes/no field, in the order of `docs/scenario.md`.
pub const FIELDS: &[Field] = &[
    count(
        "model.layers",
        Preset,
        1.0,
        1_000.0,
        "the deepest published language models have about 200 layers",
    ),
    count("model.hidden", Preset, 1.0, 1e6, "published models stay below 50,000 wide"),
    count("model.heads", Preset, 1.0, 1e5, "published models have at most a few hundred heads"),
    count("model.kv_heads", Derived, 1.0, 1e5, "at most the query heads"),
    count("model.head_dim", Derived, 1.0, 1e5, "published heads are 64 to 256 wide"),
    count("model.ffn", Preset, 1.0, 1e7, "published feed-forward blocks stay below 100,000 wide"),
    counted(
        "model.vocab",
        "tokens",
        Preset,
        1.0,
        1e7,
        "published vocabularies stay below a million tokens",
    ),
    counted(
        "model.seq_len",
        "tokens",
        Preset,
        1.0,
        16_777_216.0,
        "16 M tokens, 16 times the longest published training context",
    ),
    flag("model.tied_embeddings", Preset),
    flag("model.dropout", Preset),
    count(
        "model.mtp_layers",
        Fixed(0.0),
        0.0,
        64.0,
        "DeepSeek-V3 uses 1 multi-token-prediction module",
    ),
    count(
        "model.moe.experts",
        Preset,
        1.0,
        1e5,
        "the largest published mixtures have a few thousand experts",
    ),
    count(
        "model.moe.top_k",
        Preset,
        1.0,
        1e3,
        "published models route to at most a few dozen experts",
    ),
    count("model.moe.shared_experts", Fixed(0.0), 0.0, 1e3, "published models use a few at most"),
    count("model.moe.expert_ffn", Derived, 1.0, 1e7, "as the dense feed-forward width"),
    count("model.moe.dense_layers", Fixed(0.0), 0.0, 1e3, "fewer than the layers"),
    number(
        "model.moe.capacity_factor",
        "",
        Derived,
        0.01,
        100.0,
        "a multiple of the balanced load per expert; published runs use 1 to 2",
    ),
    count("model.moe.node_limit", Derived, 1.0, 1e5, "DeepSeek-V3 uses 4 domains"),
    number(
        "training.tokens",
        "tokens",
        Required,
        1.0,
        1e16,
        "10 quadrillion: 600 times Llama 3's 15.6 T",
    ),
    counted(
        "training.global_batch",
        "sequences",
        Required,
        1.0,
        1e7,
        "published runs use up to tens of thousands of sequences",
    ),
    counted("cluster.chips", "chips", Required, 1.0, 1e7, "100 times the largest clusters built"),
    counted(
        "cluster.chips_per_node",
        "chips",
        Preset,
        1.0,
        1e5,
        "servers hold 4 to 16 chips; a rack-scale system 72",
    ),
    counted(
        "cluster.scale_up_domain",
        "chips",
        Preset,
        1.0,
        1e6,
        "the largest scale-up domains hold a few thousand chips",
    ),
    number(
        "cluster.chip.bf16_tflops",
        "TFLOP/s",
        Preset,
        0.1,
        1e5,
        "100 PFLOP/s, 40 times the densest chip shipping",
    ),
    number(
        "cluster.chip.fp8_tflops",
        "TFLOP/s",
        Preset,
        0.0,
        2e5,
        "twice the BF16 ceiling; 0 means no FP8 units",
    ),
    number("cluster.chip.fp32_tflops", "TFLOP/s", Derived, 0.01, 1e5, "as BF16"),
    number(
        "cluster.chip.hbm_gb",
        "GB",
        Preset,
        0.1,
        1e5,
        "100 TB, 350 times the largest HBM stack shipping",
    ),
    number(
        "cluster.chip.hbm_tb_per_s",
        "TB/s",
        Preset,
        0.01,
        1e4,
        "10 PB/s, a thousand times HBM3e",
    ),
    number(
        "cluster.chip.tdp_w",
        "W",
        Fixed(700.0),
        1.0,
        1e5,
        "100 kW per chip, 70 times the hottest shipping",
    ),
    fraction("cluster.chip.matmul_efficiency", Fixed(0.6)),
    fraction("cluster.chip.memory_efficiency", Fixed(0.8)),
    number(
        "cluster.chip.price_usd",
        "USD",
        Derived,
        1.0,
        1e8,
        "a chip costing more than a building is a typo",
    ),
    number(
        "cluster.scale_up.bandwidth_gb_per_s",
        "GB/s",
        Preset,
        0.1,
        1e6,
        "1 PB/s per chip, 300 times NVLink 5",
    ),
    counted("cluster.scale_up.domain", "chips", Preset, 1.0, 1e6, "as the scale-up domain"),
    number(
        "cluster.scale_up.latency_us",
        "µs",
        Fixed(5.0),
        0.001,
        1e5,
        "a tenth of a second per step would be no fabric at all",
    ),
    fraction("cluster.scale_up.efficiency", Fixed(0.7)),
    number(
        "cluster.scale_out.gbit_per_s",
        "Gb/s",
        Preset,
        0.1,
        1e6,
        "1 Pb/s per chip, 600 times an 1.6 Tb/s NIC",
    ),
    number(
        "cluster.scale_out.latency_us",
        "µs",
        Fixed(10.0),
        0.001,
        1e5,
        "a tenth of a second per step would be no network at all",
    ),
    fraction("cluster.scale_out.efficiency", Fixed(0.8)),
    counted(
        "cluster.system.nics_per_chip",
        "ports",
        Preset,
        1.0,
        16.0,
        "systems ship 1 or 2 scale-out ports per chip",
    ),
    number(
        "cluster.system.node_max_kw",
        "kW",
        Preset,
        0.01,
        1_000.0,
        "a DGX B300 is 14.5 kW; an NVL72 tray about 6.6 kW",
    ),
    counted(
        "cluster.system.nodes_per_rack",
        "nodes",
        Preset,
        1.0,
        1_000.0,
        "4 DGX per rack; 18 trays in an NVL72 rack",
    ),
    number(
        "cluster.system.node_price_usd",
        "USD",
        Preset,
        0.0,
        1e9,
        "a DGX B300 costs about $0.5 M",
    ),
    number(
        "cluster.power_cap_w",
        "W",
        Derived,
        1.0,
        1e5,
        "at or above the chip's board power a cap changes nothing; published curves reach down to 30% of it",
    ),
    counted(
        "parallelism.first_stage_layers",
        "layers",
        Derived,
        1.0,
        1e5,
        "at most the layers less one for each other stage",
    ),
    counted(
        "cluster.placement.domain_chips",
        "chips",
        Derived,
        1.0,
        1e6,
        "at most the scale-up domain; Megatron-Bridge lays out jobs larger than an NVL72 rack on 64 of its 72 GPUs",
    ),
    counted(
        "cluster.fabric.planes",
        "planes",
        Preset,
        1.0,
        16.0,
        "one plane per scale-out port of a chip",
    ),
    counted(
        "cluster.fabric.tiers",
        "tiers",
        Derived,
        1.0,
        3.0,
        "fat trees of 1 to 3 switch tiers cover 100,000 chips",
    ),
    number(
        "cluster.fabric.oversubscription",
        "",
        Fixed(1.0),
        1.0,
        64.0,
        "1 is non-blocking; Meta's Llama 3 cluster is 1:7 above its pods",
    ),
    counted(
        "cluster.fabric.switch.ports",
        "ports",
        Preset,
        4.0,
        4096.0,
        "a fat tree needs at least 4 ports; the largest boxes have a few hundred",
    ),
    number(
        "cluster.fabric.switch.gbit_per_s",
        "Gb/s",
        Preset,
        1.0,
        1e5,
        "ports run at 100 to 1,600 Gb/s",
    ),
    number(
        "cluster.fabric.switch.power_w",
        "W",
        Fixed(750.0),
        1.0,
        1e5,
        "a 51.2 Tb/s box draws under 1 kW without optics",
    ),
    number(
        "cluster.fabric.switch.price_usd",
        "USD",
        Fixed(35_000.0),
        0.0,
        1e8,
        "switches cost tens of thousands of dollars",
    ),
    number(
        "facility.pue",
        "",
        Derived,
        1.0,
        5.0,
        "a PUE below 1 is impossible; industry average 1.56, hyperscale 1.1",
    ),
    number(
        "facility.rack_kw",
        "kW",
        Derived,
        0.1,
        2_000.0,
        "air racks top out near 30 kW, liquid NVL72 racks at about 140 kW",
    ),
    number(
        "facility.usd_per_kwh",
        "USD/kWh",
        Fixed(0.0806),
        0.0,
        10.0,
        "US industrial average 8.06 cents per kWh in 2023 (EIA)",
    ),
    number(
        "facility.kg_co2_per_kwh",
        "kg/kWh",
        Fixed(0.41),
        0.0,
        5.0,
        "0.41 kg/kWh location-based for Llama 3.1 (Meta model card)",
    ),
    number(
        "facility.build_usd_per_mw",
        "USD/MW",
        Fixed(11.7e6),
        0.0,
        1e9,
        "$11.7 M per MW of IT load, US average 2025 (Cushman & Wakefield)",
    ),
    number(
        "facility.amortization_years",
        "years",
        Fixed(4.0),
        0.1,
        50.0,
        "accelerators are written off over 3 to 6 years",
    ),
    number(
        "facility.cloud_usd_per_chip_hour",
        "USD/h",
        Fixed(2.0),
        0.0,
        1_000.0,
        "$2 per H800-hour, DeepSeek-V3's cost basis",
    ),
    number(
        "reliability.storage_gb_per_s",
        "GB/s",
        Derived,
        0.001,
        1e7,
        "Llama 3's storage reached 7 TB/s at peak for 16,384 GPUs",
    ),
    number(
        "reliability.restart_min",
        "min",
        Fixed(10.0),
        0.0,
        10_000.0,
        "MegaScale detects and diagnoses a fault in under 10 minutes",
    ),
    number(
        "reliability.rates.chip",
        "per M h",
        Fixed(8.95),
        0.0,
        1e6,
        "Llama 3.1: 190 accelerator faults in 16,384 GPUs x 54 days",
    ),
    number("reliability.rates.hbm", "per M h", Fixed(3.39), 0.0, 1e6, "Llama 3.1: 72 HBM3 faults"),
    number(
        "reliability.rates.host",
        "per M h",
        Fixed(20.3),
        0.0,
        1e6,
        "Llama 3.1: 54 host and unattributed interruptions in 2,048 servers",
    ),
    number(
        "reliability.rates.software",
        "per M h",
        Fixed(23.0),
        0.0,
        1e6,
        "Llama 3.1: 61 software and NCCL watchdog interruptions",
    ),
    number("reliability.rates.nic", "per M h", Fixed(0.33), 0.0, 1e6, "Llama 3.1: 7 NIC faults"),
    number(
        "reliability.rates.switch",
        "per M h",
        Fixed(0.7),
        0.0,
        1e6,
        "Alibaba HPN: 0.051% of ToR switches fail each month",
    ),
    number(
        "reliability.rates.link",
        "per M h",
        Fixed(0.78),
        0.0,
        1e6,
        "Alibaba HPN: 0.057% of NIC-ToR links fail each month",
    ),
    count("parallelism.tp", Fixed(1.0), 1.0, 1024.0, DEGREE),
    counted("parallelism.pp", "stages", Fixed(1.0), 1.0, 1024.0, DEGREE),
    count("parallelism.dp", Derived, 1.0, 1e7, "as the chips"),
    count("parallelism.ep", Fixed(1.0), 1.0, 1e5, "as the experts"),
    count("parallelism.etp", Derived, 1.0, 1024.0, DEGREE),
    count("parallelism.cp", Fixed(1.0), 1.0, 1024.0, DEGREE),
    counted("parallelism.micro_batch", "sequences", Fixed(1.0), 1.0, 1e6, "as the global batch"),
    count("parallelism.virtual_stages", Fixed(1.0), 1.0, 1024.0, "Megatron-LM uses a few per rank"),
    count("parallelism.zero", Derived, 0.0, 3.0, "ZeRO has stages 0 to 3"),
    flag("parallelism.sequence_parallel", Derived),
    flag("parallelism.dp_overlap", Derived),
    flag("parallelism.ep_overlap", Fixed(0.0)),
    flag("parallelism.cp_overlap", Fixed(0.0)),
    flag("parallelism.tp_overlap", Derived),
    flag("parallelism.pp_overlap", Derived),
    flag("parallelism.recompute_elementwise", Fixed(0.0)),
];

/// The fixed default of the field at `path` (1 for true, 0 for false); 0 for a field whose
/// default is not fixed, which `tests/scenario.rs` rules out for every path `resolve` asks.
pub fn fixed(path: &str) -> f64 {
    match field(path).map(|f| f.default) {
        Some(Fallback::Fixed(x)) => x,
        _ => 0.0,
    }
}

/// The field at `path`, if it is in the table.
pub fn field(path: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.path == path)
}

/// The input a finding concerns, so the page shows it next to that field and the command-line
/// tool names it.
pub fn warning_field(w: &Warning) -> &'static str {
    match w {
        Warning::DoesNotFit { .. } => "parallelism.recompute",
        Warning::DegreesMismatch { .. } => "parallelism.dp",
        Warning::PlacementShort { .. } => "cluster.placement.domain_chips",
        Warning::FirstStageTooLarge { .. } => "parallelism.first_stage_layers",
        Warning::TensorSplitsHeads { .. }
        | Warning::TensorReplicatesKvHeads { .. }
        | Warning::TensorCrossesDomain { .. } => "parallelism.tp",
        Warning::BatchNotDivisible { .. } => "training.global_batch",
        // More replicas than sequences: the data-parallel degree is what is wrong.
        Warning::IdleReplicas { global_batch, dp, .. } if dp > global_batch => "parallelism.dp",
        Warning::IdleReplicas { .. } => "parallelism.micro_batch",
        Warning::LayersNotDivisible { .. }
        | Warning::StagesExceedLayers { .. }
        | Warning::FewMicrobatches { .. } => "parallelism.pp",
        Warning::InterleavingNeedsMultiple { .. }
        | Warning::InterleavingNeedsMicrobatches { .. } => "parallelism.virtual_stages",
        Warning::ExpertCrossesDomain { .. }
        | Warning::ExpertDegreeExceedsExperts { .. }
        | Warning::ExpertDegreeNotDivisible { .. }
        | Warning::ExpertParallelWithoutExperts { .. } => "parallelism.ep",
        Warning::ContextSplitsSequence { .. } => "parallelism.cp",
        Warning::Fp8Unsupported => "training.recipe",
        Warning::CapBelowMeasured { .. } => "cluster.power_cap_w",
        Warning::SequenceParallelWithoutTensor => "parallelism.sequence_parallel",
        Warning::ShardingWithoutReplicas => "parallelism.zero",
        Warning::VirtualStagesWithoutPipeline => "parallelism.virtual_stages",
        Warning::RackTooDense { .. } => "facility.cooling",
        Warning::NeverFinishes { .. } => "cluster.chips",
    }
}

/// The scenario path of a `model::Chip` figure, as the catalog's `unverified` lists name them.
pub fn chip_figure_path(name: &str) -> Option<&'static str> {
    Some(match name {
        "bf16_flops_per_s" => "cluster.chip.bf16_tflops",
        "fp8_flops_per_s" => "cluster.chip.fp8_tflops",
        "fp32_flops_per_s" => "cluster.chip.fp32_tflops",
        "hbm_bytes" => "cluster.chip.hbm_gb",
        "hbm_bytes_per_s" => "cluster.chip.hbm_tb_per_s",
        "tdp_w" => "cluster.chip.tdp_w",
        "matmul_efficiency" => "cluster.chip.matmul_efficiency",
        "memory_efficiency" => "cluster.chip.memory_efficiency",
        "price_usd" => "cluster.chip.price_usd",
        _ => return None,
    })
}

/// The range table of `docs/scenario.md`, as Markdown.
pub fn markdown() -> String {
    let mut out =
        String::from("| Key | Kind | Unit | Plausible range | Why |\n|---|---|---|---|---|\n");
    for f in FIELDS.iter().filter(|f| f.kind != Kind::Flag) {
        let kind = match f.kind {
            Kind::Count => "count",
            Kind::Number => "number",
            Kind::Fraction => "fraction",
            Kind::Flag => "flag",
        };
        let low = if f.kind == Kind::Fraction { "above 0".to_string() } else { f.show(f.min) };
        out.push_str(&format!(
            "| `{}` | {kind} | {} | {low} to {} | {} |\n",
            f.path,
            f.unit,
            f.show(f.max),
            f.why
        ));
    }
    out
}
