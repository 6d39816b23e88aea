//! Catalog systems: servers and rack-scale systems, with the chips they hold, their power,
//! rack layout, cooling and price, and the fabric their reference design uses.
//!
//! A chip without a system here gets a generic server built from the chip's own preset
//! (`presets::generic_system`), so scenarios written before systems existed keep meaning
//! what they meant.

use super::{Basis, SuperPod, SystemPreset};
use crate::model::System;

/// The figure a system's compiler could not confirm from a vendor, when it is only its price.
const NODE_PRICE: &str = "node_price_usd";

/// Every catalog system.
pub const SYSTEMS: &[SystemPreset] = &[
    SystemPreset {
        id: "dgx-a100",
        name: "NVIDIA DGX A100 (8 × A100 80GB)",
        chip: "a100-80gb",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 6_500.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 199_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "nvlink3-8",
        scale_out: "ib-hdr",
        switch: "qm8700",
        superpod: Some(SuperPod { nodes_per_unit: 20, min_tiers: 2 }),
        basis: Basis::Secondary,
        unverified: &["node_max_w", "nodes_per_rack"],
        source: source!(
            "DGX A100: 8 x A100, 8 x 200G HDR compute HCAs (Megatron-LM SC'21 §5); 6.5 kW \
                 maximum (NVIDIA DGX A100 datasheet, not re-read); $199k at launch (vendor launch \
                 price); SuperPOD scalable unit of 20 systems"
        ),
    },
    SystemPreset {
        id: "dgx-h100",
        name: "NVIDIA DGX H100 (8 × H100)",
        chip: "h100-sxm",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 10_200.0,
            node_peak_w: 8_480.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 270_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "nvlink4-8",
        scale_out: "ib-ndr",
        switch: "qm9700",
        superpod: Some(SuperPod { nodes_per_unit: 32, min_tiers: 2 }),
        basis: Basis::Secondary,
        unverified: &[NODE_PRICE],
        source: source!(
            "DGX H100: 10.2 kW maximum, 6 x 3.3 kW PSUs (NVIDIA DGX user guide, as quoted); \
                 8.48 kW measured peak of an 8 x H100 HGX server training at full utilisation, \
                 18 % below its rating (Latif et al., IEEE Access 13, 2025, arXiv:2412.08602); 4 \
                 systems = 40.8 kW per rack (SuperPOD data-centre design guide, as summarised); \
                 SuperPOD H100 reference architecture: scalable units of 32 node positions, 8 \
                 rail leaves each; about $270k (analyst estimate, 2023)"
        ),
    },
    SystemPreset {
        id: "dgx-h200",
        name: "NVIDIA DGX H200 (8 × H200)",
        chip: "h200",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 10_200.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 300_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "nvlink4-8",
        scale_out: "ib-ndr",
        switch: "qm9700",
        superpod: Some(SuperPod { nodes_per_unit: 32, min_tiers: 2 }),
        basis: Basis::Secondary,
        unverified: &[NODE_PRICE],
        source: source!(
            "DGX H200: 10.2 kW maximum like DGX H100 (NVIDIA DGX user guide, as quoted); the \
                 H100 SuperPOD rules; price an estimate above DGX H100's"
        ),
    },
    SystemPreset {
        id: "dgx-b200",
        name: "NVIDIA DGX B200 (8 × B200)",
        chip: "b200",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 14_300.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 515_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "nvlink5-8",
        scale_out: "ib-ndr",
        switch: "qm9700",
        // The B200 reference architecture builds three tiers at every size.
        superpod: Some(SuperPod { nodes_per_unit: 32, min_tiers: 3 }),
        basis: Basis::Secondary,
        unverified: &["node_price_usd", "nodes_per_rack"],
        source: source!(
            "DGX B200 user guide: 14.3 kW maximum, 8 x B200 at 1,000 W, 8 x ConnectX-7 400G; \
                 DGX SuperPOD B200 reference architecture: 32 systems per scalable unit, three \
                 tiers (16 SUs: 128 leaf, 128 spine, 64 core); price a press estimate"
        ),
    },
    SystemPreset {
        id: "dgx-b300",
        name: "NVIDIA DGX B300 (8 × B300)",
        chip: "b300",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 14_500.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 550_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "nvlink5-8",
        scale_out: "ib-xdr",
        switch: "q3400",
        superpod: Some(SuperPod { nodes_per_unit: 72, min_tiers: 2 }),
        basis: Basis::Secondary,
        unverified: &[NODE_PRICE],
        source: source!(
            "DGX SuperPOD B300 XDR reference architecture: 72 systems per scalable unit, 8 leaf \
                 + 4 spine Quantum-X800 switches per unit, four systems and about 56 kW per rack; \
                 14.5 kW per system (as quoted); the GPU is the B300 preset; price an estimate"
        ),
    },
    SystemPreset {
        id: "gb200-nvl72",
        name: "NVIDIA GB200 NVL72 rack (72 × B200, 18 trays)",
        chip: "gb200",
        system: System {
            chips_per_node: 4,
            nics_per_chip: 1,
            node_max_w: 6_700.0,
            node_peak_w: 0.0,
            nodes_per_rack: 18,
            liquid: true,
            node_price_usd: 166_667.0,
            scale_up_switches_per_rack: 9,
        },
        scale_up: "nvlink5-72",
        scale_out: "ib-ndr",
        switch: "qm9700",
        superpod: None,
        basis: Basis::Secondary,
        unverified: &["node_max_w", "node_price_usd"],
        source: source!(
            "GB200 NVL72: 18 compute trays of about 6.5 kW plus 9 NVLink switch trays (3.6 kW \
                 in all), about 120 kW, liquid-cooled (vendor rack specifications via press; \
                 the switch trays' share is added per tray); about $3M per rack (press)"
        ),
    },
    SystemPreset {
        id: "gb300-nvl72",
        name: "NVIDIA GB300 NVL72 rack (72 × B300, 18 trays)",
        chip: "gb300",
        system: System {
            chips_per_node: 4,
            nics_per_chip: 1,
            node_max_w: 6_800.0,
            node_peak_w: 0.0,
            nodes_per_rack: 18,
            liquid: true,
            node_price_usd: 200_000.0,
            scale_up_switches_per_rack: 9,
        },
        scale_up: "nvlink5-72",
        scale_out: "ib-xdr",
        switch: "q3400",
        superpod: None,
        basis: Basis::Secondary,
        unverified: &[NODE_PRICE],
        source: source!(
            "GB300 NVL72 compute tray 6.6 kW, about 94% of it to liquid (analyst teardown, as \
                 quoted), plus the switch trays' share; 120-142 kW per rack (press); ConnectX-8 \
                 800G; price an estimate"
        ),
    },
    SystemPreset {
        id: "mi300x-platform",
        name: "AMD Instinct MI300X platform (8 × MI300X)",
        chip: "mi300x",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 10_000.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 250_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "infinity-fabric-8",
        scale_out: "roce-400g",
        switch: "tomahawk5",
        superpod: None,
        basis: Basis::Unverified,
        unverified: &["node_max_w", "node_price_usd"],
        source: source!(
            "8 x MI300X (750 W) on an OAM board with 8 x 400G NICs; server power and price are \
                 estimates by class"
        ),
    },
    SystemPreset {
        id: "gaudi3-server",
        name: "Intel Gaudi 3 server (8 × Gaudi 3)",
        chip: "gaudi3",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 10_000.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 157_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "gaudi3-roce-8",
        scale_out: "gaudi3-roce-3x200g",
        switch: "tomahawk5",
        superpod: None,
        basis: Basis::Unverified,
        unverified: &["node_max_w", "node_price_usd"],
        source: source!(
            "8 x Gaudi 3 OAM with on-die RoCE ports (habana.ai); an 8-accelerator kit quoted \
                 near $125k plus host (press); power an estimate"
        ),
    },
    SystemPreset {
        id: "atlas-800t-a2",
        name: "Huawei Atlas 800T A2 (8 × Ascend 910B)",
        chip: "ascend-910b",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 6_000.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 150_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "hccs-8",
        scale_out: "roce-200g",
        switch: "h3c-s9827",
        superpod: None,
        basis: Basis::Unverified,
        unverified: &["node_max_w", "node_price_usd"],
        source: source!(
            "8 Ascend NPUs and 2 CPUs per server at about 6 kW (the Ascend 910 server of 2019, \
                 vengineer.hatenablog.com); 200G RoCE per NPU; price an estimate"
        ),
    },
    SystemPreset {
        id: "cloudmatrix-384",
        name: "Huawei CloudMatrix 384 (384 × Ascend 910C)",
        chip: "ascend-910c",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 11_650.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: true,
            node_price_usd: 171_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "ub-384",
        scale_out: "roce-400g",
        switch: "h3c-s9827",
        superpod: None,
        basis: Basis::Unverified,
        unverified: &["node_max_w", "liquid", "node_price_usd"],
        source: source!(
            "384 Ascend 910C and 192 Kunpeng CPUs in 16 racks (12 compute, 4 network), 559 kW \
                 in all, i.e. 11.65 kW per 8-NPU server with the network racks' share \
                 (capacitymedia.com; winbuzzer.com); price about $8.2M per system (press)"
        ),
    },
    SystemPreset {
        id: "kuae-s4000",
        name: "Moore Threads KUAE MCCX D800 (8 × MTT S4000)",
        chip: "mtt-s4000",
        system: System {
            chips_per_node: 8,
            nics_per_chip: 1,
            node_max_w: 5_000.0,
            node_peak_w: 0.0,
            nodes_per_rack: 4,
            liquid: false,
            node_price_usd: 80_000.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "mtlink-8",
        scale_out: "roce-200g",
        switch: "h3c-s9827",
        superpod: None,
        basis: Basis::Unverified,
        unverified: &["node_max_w", "node_price_usd"],
        source: source!(
            "MCCX D800 = 8 x MTT S4000 with MTLink 1.0; KUAE thousand-card cluster = 125 \
                 servers (vendor announcements, io-tech.fi); power and price are estimates"
        ),
    },
    SystemPreset {
        id: "tpu-v4-rack",
        name: "Google TPU v4 rack (64 chips, 16 hosts of 4)",
        chip: "tpu-v4",
        system: System {
            chips_per_node: 4,
            nics_per_chip: 1,
            node_max_w: 1_398.0,
            node_peak_w: 0.0,
            nodes_per_rack: 16,
            liquid: true,
            node_price_usd: 0.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "ici-v4",
        scale_out: "dcn-tpu",
        switch: "tomahawk5",
        superpod: None,
        basis: Basis::Secondary,
        unverified: &["node_max_w", "node_price_usd"],
        source: source!(
            "a 4 x 4 x 4 cube of 64 chips per rack, 16 trays of 4 liquid-cooled chips, a \
                 4,096-chip pod of 64 racks (Jouppi et al., ISCA 2023, arXiv:2304.01433); tray \
                 power the generic server's 1.82 x its chips' 192 W measured maximum; not sold, \
                 so unpriced"
        ),
    },
    SystemPreset {
        id: "tpu-v5p-rack",
        name: "Google TPU v5p rack (64 chips, 16 hosts of 4)",
        chip: "tpu-v5p",
        system: System {
            chips_per_node: 4,
            nics_per_chip: 1,
            node_max_w: 2_548.0,
            node_peak_w: 0.0,
            nodes_per_rack: 16,
            liquid: true,
            node_price_usd: 0.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "ici-v5p",
        scale_out: "dcn-tpu-v5p",
        switch: "tomahawk5",
        superpod: None,
        basis: Basis::Unverified,
        unverified: &["node_max_w", "nodes_per_rack", "liquid", "node_price_usd"],
        source: source!(
            "4-chip hosts, cubes of 64 chips (16 hosts) in an 8,960-chip pod (Google Cloud \
                 TPU v5p documentation); a cube to a rack and liquid cooling as TPU v4's, not \
                 stated; tray power the generic server's 1.82 x its chips' estimated 350 W; not \
                 sold, so unpriced"
        ),
    },
    SystemPreset {
        id: "tpu-7x-rack",
        name: "Google TPU7x Ironwood rack (64 chips, 16 trays of 4)",
        chip: "tpu-7x",
        system: System {
            chips_per_node: 4,
            nics_per_chip: 1,
            node_max_w: 7_280.0,
            node_peak_w: 0.0,
            nodes_per_rack: 16,
            liquid: true,
            node_price_usd: 0.0,
            scale_up_switches_per_rack: 0,
        },
        scale_up: "ici-7x",
        scale_out: "dcn-tpu-100g",
        switch: "tomahawk5",
        superpod: None,
        basis: Basis::Secondary,
        unverified: &["node_max_w", "node_price_usd"],
        source: source!(
            "4-chip trays, 16 to a rack of 64, liquid-cooled, 144 racks in a 9,216-chip pod \
                 (Google Cloud blog, April 2025; Hot Chips 2025 as reported); tray power the \
                 generic server's 1.82 x its chips' estimated 1,000 W, a rack of 116 kW against \
                 'over 100 kW' reported; not sold, so unpriced"
        ),
    },
];
