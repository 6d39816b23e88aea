//! Catalog networks: scale-up fabrics (NVLink, Infinity Fabric, ICI, HCCS/UB, ...) and
//! scale-out NICs (InfiniBand, RoCE, Omni-Path, TPU DCN), each with its source.
//!
//! `Link::bytes_per_s` is per chip and ONE direction, so a datasheet's aggregate bidirectional
//! figure is halved (NVLink 4: 900 GB/s aggregate -> 450 GB/s). Latency (the alpha of one
//! collective step) and efficiency (large-collective bus bandwidth / line rate) are model
//! calibration figures by fabric class, not datasheet values:
//! NVLink/NVSwitch 3 us and 0.80; other scale-up links and PCIe 5 us and 0.70;
//! InfiniBand 8 us and 0.85; RoCE/Ethernet 10 us and 0.80; Omni-Path 12 us and 0.75.

use super::{units::*, Basis, ScaleOutPreset, ScaleUpPreset};
use crate::model::{Link, ScaleUp};

/// Every catalog scale-up fabric, grouped by vendor.
pub const SCALE_UP: &[ScaleUpPreset] = &[
    // ---------------------------------------------------------------- NVIDIA NVLink
    ScaleUpPreset {
        id: "nvlink2-8",
        name: "NVLink 2, 8 GPUs (DGX-1 V100)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 150.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("NVIDIA V100 datasheet as widely quoted (NVLink 2, 300 GB/s aggregate per GPU); \
                 no datasheet retrieved. DGX-1 wires 8 GPUs as a hybrid cube-mesh, not \
                 through NVSwitch"),
    },
    ScaleUpPreset {
        id: "nvlink3-8",
        name: "NVLink 3 + NVSwitch, 8 GPUs (HGX/DGX A100)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 300.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("A100 datasheet (600 GB/s aggregate per GPU, 8-GPU NVSwitch), quoted in a \
                 secondary compilation"),
    },
    ScaleUpPreset {
        id: "nvlink3-a800",
        name: "NVLink 3 cut to 400 GB/s, 8 GPUs (A800)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 200.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("TechPowerUp / Tom's Hardware news on A800 (Reuters-sourced): NVLink cut from \
                 600 to 400 GB/s aggregate"),
    },
    ScaleUpPreset {
        id: "nvlink4-8",
        name: "NVLink 4 + NVSwitch, 8 GPUs (HGX H100/H200/H20)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 450.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("awesomeagents.ai H100; glennklockwood.com H100 (NVLink 4, 900 GB/s aggregate \
                 per GPU, 8 per HGX)"),
    },
    ScaleUpPreset {
        id: "nvlink4-h800",
        name: "NVLink 4 cut to 400 GB/s, 8 GPUs (H800)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 200.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("philisun.com (400 GB/s aggregate vs 900 on H100); DeepSeek-V3 report §3.2.2 \
                 measured about 160 GB/s achieved NVLink bandwidth per GPU"),
    },
    ScaleUpPreset {
        id: "nvlink4-256",
        name: "NVLink 4 Switch System, up to 256 GPUs",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 450.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 256,
        },
        basis: Basis::Secondary,
        source: source!("awesomeagents.ai H100; glennklockwood.com H100 (NVLink Switch System up to \
                 256 GPUs, 900 GB/s aggregate per GPU)"),
    },
    ScaleUpPreset {
        id: "nvlink5-8",
        name: "NVLink 5 + NVSwitch, 8 GPUs (HGX B200)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 900.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("docs.vultr.com HGX B200 (NV18 topology); datacrunch.io (NVLink 5, 1.8 TB/s \
                 aggregate per GPU, 18 links)"),
    },
    ScaleUpPreset {
        id: "nvlink5-72",
        name: "NVLink 5, 72 GPUs (GB200/GB300 NVL72)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 900.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 72,
        },
        basis: Basis::Secondary,
        source: source!("datacrunch.io NVL72 blog (1.8 TB/s per GPU, 130 TB/s aggregate, 9 switch \
                 trays); xatakaon.com (~5,000 copper cables)"),
    },
    ScaleUpPreset {
        id: "nvlink5-576",
        name: "NVLink 5, 576-GPU domain (NVL576 class)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 900.0 * GB_PER_S, latency_s: 3.0 * US, efficiency: 0.80 },
            domain_size: 576,
        },
        basis: Basis::Unverified,
        source: source!("NVLink 5 per-GPU bandwidth as nvlink5-72 (datacrunch.io); the 576-GPU domain is \
                 NVIDIA's stated NVLink 5 maximum, no datasheet retrieved and no shipping \
                 system sourced"),
    },
    // ---------------------------------------------------------------- AMD Infinity Fabric
    ScaleUpPreset {
        id: "infinity-fabric-8",
        name: "AMD Infinity Fabric, 8 GPUs (MI300X/MI325X UBB)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 448.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("gpu.blog MI300X (896 GB/s aggregate xGMI per GPU, 8-GPU fully connected OAM/UBB)"),
    },
    ScaleUpPreset {
        id: "infinity-fabric-mi250x",
        name: "AMD Infinity Fabric, 4 MI250X (Frontier node)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 200.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 4,
        },
        basis: Basis::Unverified,
        source: source!("Estimate. 8 Infinity Fabric links per MI250X package, Frontier node = \
                 4 MI250X (8 GCDs). AMD's widely quoted peak is 800 GB/s aggregate over 8 links; \
                 about half of them join the package's own two GCDs, so 400 GB/s aggregate \
                 (200 GB/s one direction) off-package is assumed"),
    },
    // ---------------------------------------------------------------- Intel Gaudi
    ScaleUpPreset {
        id: "gaudi-roce-8",
        name: "Gaudi 2 on-die RoCE, 8 cards all-to-all",
        scale_up: ScaleUp {
            // 21 of 24 x 100 GbE ports inside the node: 2.1 Tb/s = 262.5 GB/s per direction.
            link: Link { bytes_per_s: 262.5 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Unverified,
        source: source!("habana.ai/products/networking (24 x 100 GbE RoCE on die; 8-card server is \
                 all-to-all inside); the 21 all-to-all + 3 scale-out port split is unverified"),
    },
    ScaleUpPreset {
        id: "gaudi3-roce-8",
        name: "Gaudi 3 on-die RoCE, 8 cards all-to-all",
        scale_up: ScaleUp {
            // 21 of 24 x 200 GbE ports inside the node: 4.2 Tb/s = 525 GB/s per direction.
            link: Link { bytes_per_s: 525.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Unverified,
        source: source!("habana.ai; yobitel.com (24 x 200 GbE RoCE on die, 8-card all-to-all); the \
                 21 + 3 port split is assumed as on Gaudi 2 (unverified)"),
    },
    // ---------------------------------------------------------------- Google ICI
    ScaleUpPreset {
        id: "ici-v4",
        name: "TPU v4 ICI, 3D torus, 4,096 chips",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 300.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 4096,
        },
        basis: Basis::Unverified,
        source: source!("Domain: cloud.google.com/tpu/docs/v4 (4,096-chip pod, 1.1 PB/s all-reduce per \
                 pod, about 270 GB/s per chip). Bandwidth estimated: 6 ICI links x 400 Gb/s per \
                 direction (glennklockwood.com/garden/processors/TPUv4), no datasheet retrieved"),
    },
    ScaleUpPreset {
        id: "ici-v5e",
        name: "TPU v5e ICI, 2D torus, 256 chips",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 200.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 256,
        },
        basis: Basis::Vendor,
        source: source!("docs.cloud.google.com/tpu/docs/v5e (ICI 1,600 Gbps = 400 GB/s bidirectional per \
                 chip, 4 ports, 2D torus, 256-chip pod)"),
    },
    ScaleUpPreset {
        id: "ici-v5p",
        name: "TPU v5p ICI, 3D torus, 8,960 chips",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 600.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8960,
        },
        basis: Basis::Vendor,
        source: source!("cloud.google.com/tpu/docs/v5p (ICI 4,800 Gbps per chip, 3D torus, 8,960-chip \
                 pod; largest slice 6,144 chips); v5p-training page gives 1,200 GB/s \
                 bidirectional per chip"),
    },
    ScaleUpPreset {
        id: "ici-v6e",
        name: "TPU v6e ICI, 2D torus, 256 chips",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 400.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 256,
        },
        basis: Basis::Vendor,
        source: source!("docs.cloud.google.com/tpu/docs/v6e (ICI 800 GB/s bidirectional per chip, 4 \
                 ports, 2D torus, 256-chip pod)"),
    },
    ScaleUpPreset {
        id: "ici-7x",
        name: "TPU7x ICI, 3D torus, 9,216 chips",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 600.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 9216,
        },
        basis: Basis::Vendor,
        source: source!("docs.cloud.google.com/tpu/docs/tpu7x (ICI 1,200 GB/s bidirectional per chip, \
                 3D torus, 9,216-chip pod)"),
    },
    // ---------------------------------------------------------------- Huawei
    ScaleUpPreset {
        id: "hccs-8",
        name: "Huawei HCCS, 8 Ascend 910B",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 196.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Unverified,
        source: source!("UNVERIFIED estimate: 910B HCCS widely quoted as 392 GB/s aggregate per NPU \
                 (7 links, full mesh of 8), i.e. 196 GB/s one direction; secondary sources give only \
                 Ascend 910's 3 x 240 Gbps HCCS (vengineer.hatenablog.com) and no 910B figure"),
    },
    ScaleUpPreset {
        id: "ub-384",
        name: "Huawei Unified Bus, 384 Ascend 910C (CloudMatrix 384)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 196.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 384,
        },
        basis: Basis::Unverified,
        source: source!("Conflict: 196 GB/s UB per NPU (chinaresearchcollective) vs 784 GB/s \
                 (besthub.dev roadmap); the CloudMatrix384 paper as summarised by besthub.dev \
                 gives 392 GB/s unidirectional per 910C. The lowest, 196 GB/s one direction, is \
                 used; 384-NPU all-to-all domain (capacitymedia.com, winbuzzer.com)"),
    },
    // ---------------------------------------------------------------- Moore Threads
    ScaleUpPreset {
        id: "mtlink-8",
        name: "Moore Threads MTLink 1.0, 8 x S4000 (MCCX D800)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 120.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("io-tech.fi (MTLink 1.0, 240 GB/s per S4000, taken as aggregate); 8 per MCCX \
                 D800 server"),
    },
    ScaleUpPreset {
        id: "mtlink2-8",
        name: "Moore Threads MTLink, 8 x S5000",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 392.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source:
            source!("Vendor marketing via ldeepai.com and reportify.ai (784 GB/s inter-card per S5000, \
                 taken as aggregate); 8-card domain assumed"),
    },
    // ---------------------------------------------------------------- Cambricon
    ScaleUpPreset {
        id: "mlu-link-8",
        name: "Cambricon MLU-Link, 4 MLU370-X8 cards (8 chips)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 100.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            // The bridge joins 4 cards = 8 chips; the catalog chip is the card.
            domain_size: 4,
        },
        basis: Basis::Secondary,
        source: source!("guangxilong.com (MLU-Link 200 GB/s per MLU370-X8 card; bridge links 4 cards / \
                 8 chips all-to-all)"),
    },
    // ---------------------------------------------------------------- Biren
    ScaleUpPreset {
        id: "blink-8",
        name: "Biren BLink, 8 BR100 (OAM)",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 1150.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("techpowerup.com (Hot Chips 34: BLink, 8 lanes, 2.3 TB/s total per BR100)"),
    },
    // ---------------------------------------------------------------- PCIe
    ScaleUpPreset {
        id: "pcie4-8",
        name: "PCIe 4.0 x16 only, 8 cards",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 32.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Secondary,
        source: source!("L40S datasheet table (mullet.se; itcreations.com): no NVLink, PCIe Gen4 x16 \
                 64 GB/s bidirectional"),
    },
    ScaleUpPreset {
        id: "pcie5-8",
        name: "PCIe 5.0 x16 only, 8 cards",
        scale_up: ScaleUp {
            link: Link { bytes_per_s: 64.0 * GB_PER_S, latency_s: 5.0 * US, efficiency: 0.70 },
            domain_size: 8,
        },
        basis: Basis::Unverified,
        source: source!("PCIe 5.0 x16 line rate (twice Gen4's 64 GB/s bidirectional); Gaudi 3 slides list 128 GB/s bidirectional for Gen5 x16"),
    },
];

/// Every catalog scale-out fabric; `link.bytes_per_s` is the NIC bandwidth per chip.
pub const SCALE_OUT: &[ScaleOutPreset] = &[
    // ---------------------------------------------------------------- InfiniBand
    ScaleOutPreset {
        id: "ib-edr",
        name: "InfiniBand EDR, 100 Gb/s per chip",
        link: Link { bytes_per_s: 100.0 * GBIT_PER_S, latency_s: 8.0 * US, efficiency: 0.85 },
        basis: Basis::Unverified,
        source: source!(
            "EDR 100 Gb/s per port as widely quoted (V100 era); no datasheet retrieved. \
                 A DGX-1 has 4 EDR ports per 8 GPUs, i.e. half this per GPU"
        ),
    },
    ScaleOutPreset {
        id: "ib-hdr",
        name: "InfiniBand HDR, 200 Gb/s per chip",
        link: Link { bytes_per_s: 200.0 * GBIT_PER_S, latency_s: 8.0 * US, efficiency: 0.85 },
        basis: Basis::Vendor,
        source: source!(
            "Megatron-LM SC'21 §5 (Selene: 8 x 200 Gb/s HDR compute HCAs per DGX A100 node, \
                 3-level fat tree)"
        ),
    },
    ScaleOutPreset {
        id: "ib-ndr",
        name: "InfiniBand NDR, 400 Gb/s per chip",
        link: Link { bytes_per_s: 400.0 * GBIT_PER_S, latency_s: 8.0 * US, efficiency: 0.85 },
        basis: Basis::Secondary,
        source: source!(
            "itctshop.com InfiniBand switch guide; yobitel.com Quantum-2 page (400 Gb/s \
                 ports, 64 x 400G per switch); Databricks DBRX blog (3.2 Tb/s IB per 8-GPU node)"
        ),
    },
    ScaleOutPreset {
        id: "ib-xdr",
        name: "InfiniBand XDR, 800 Gb/s per chip",
        link: Link { bytes_per_s: 800.0 * GBIT_PER_S, latency_s: 8.0 * US, efficiency: 0.85 },
        basis: Basis::Secondary,
        source: source!(
            "ziash.github.io NVIDIA NCA study guide; quantum-computing.news (Quantum-X800, \
                 144 x 800G; ConnectX-8 SuperNIC 800G)"
        ),
    },
    // ---------------------------------------------------------------- RoCE / Ethernet
    ScaleOutPreset {
        id: "roce-100g",
        name: "RoCE, 100 Gb/s per chip",
        link: Link { bytes_per_s: 100.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Secondary,
        source: source!(
            "100 GbE RoCE ports as on Gaudi 2 (habana.ai) and Ascend 910 servers \
                 (vengineer.hatenablog.com, 2 x 100G per server)"
        ),
    },
    ScaleOutPreset {
        id: "roce-200g",
        name: "RoCE, 200 Gb/s per chip",
        link: Link { bytes_per_s: 200.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Vendor,
        source: source!(
            "MegaScale NSDI'24 §3.6 (8 x 200G RoCE NICs per server, multi-rail, Tomahawk 4 \
                 3-layer Clos at 1:1)"
        ),
    },
    ScaleOutPreset {
        id: "roce-400g",
        name: "RoCE, 400 Gb/s per chip",
        link: Link { bytes_per_s: 400.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Vendor,
        source: source!(
            "Llama 3 paper §3.3.1 (Meta RoCE cluster, 400 Gbps per GPU; 3-layer Clos, 1:7 \
                 oversubscription above 3,072-GPU pods)"
        ),
    },
    ScaleOutPreset {
        id: "roce-800g",
        name: "RoCE, 800 Gb/s per chip",
        link: Link { bytes_per_s: 800.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Secondary,
        source: source!(
            "800G Ethernet ports: Broadcom Tomahawk 5 (convergedigest, 64 x 800G); NVIDIA \
                 Spectrum-4 (router-switch.com)"
        ),
    },
    ScaleOutPreset {
        id: "gaudi2-roce-3x100g",
        name: "Gaudi 2 on-die RoCE scale-out, 3 x 100 GbE per card",
        link: Link { bytes_per_s: 300.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Vendor,
        source: source!(
            "habana.ai/products/networking (8-card Gaudi 2 server exposes 2.4 Tb/s \
                 scale-out, i.e. 300 Gb/s per card)"
        ),
    },
    ScaleOutPreset {
        id: "gaudi3-roce-3x200g",
        name: "Gaudi 3 on-die RoCE scale-out, 3 x 200 GbE per card",
        link: Link { bytes_per_s: 600.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Unverified,
        source: source!(
            "Assumes Gaudi 2's 21 + 3 port split on Gaudi 3's 24 x 200 GbE (habana.ai; \
                 yobitel.com); not confirmed"
        ),
    },
    ScaleOutPreset {
        id: "slingshot-11",
        name: "HPE Slingshot-11, 200 Gb/s per chip (Frontier)",
        link: Link { bytes_per_s: 200.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Unverified,
        source: source!(
            "Slingshot-11 is Frontier's MI250X fabric (HPE); \
                 200 Gb/s per NIC, one NIC per MI250X, as widely quoted"
        ),
    },
    // ---------------------------------------------------------------- Omni-Path
    ScaleOutPreset {
        id: "opa-100g",
        name: "Omni-Path, 100 Gb/s per chip",
        link: Link { bytes_per_s: 100.0 * GBIT_PER_S, latency_s: 12.0 * US, efficiency: 0.75 },
        basis: Basis::Unverified,
        source: source!("Omni-Path 100 Gb/s per port as widely quoted; no datasheet retrieved"),
    },
    ScaleOutPreset {
        id: "opa-4x100-per-node",
        name: "Omni-Path, 4 x 100 Gb/s per 8-GPU node (Jean Zay)",
        link: Link { bytes_per_s: 50.0 * GBIT_PER_S, latency_s: 12.0 * US, efficiency: 0.75 },
        basis: Basis::Unverified,
        source: source!(
            "BLOOM paper (Jean Zay A100 nodes: 4 x 100 Gb/s Omni-Path per 8 GPUs = 50 Gb/s \
                 per GPU); no datasheet retrieved"
        ),
    },
    // ---------------------------------------------------------------- Google DCN
    ScaleOutPreset {
        id: "dcn-tpu",
        name: "TPU data-centre network, 25 Gb/s per chip",
        link: Link { bytes_per_s: 25.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Vendor,
        source: source!(
            "docs.cloud.google.com/tpu/docs/v5e (2 x 100 Gbps NIC per 8-chip host, 6.4 Tbps \
                 DCN per pod). Also used for TPU v4, whose DCN figure is not sourced"
        ),
    },
    ScaleOutPreset {
        id: "dcn-tpu-v5p",
        name: "TPU v5p data-centre network, 50 Gb/s per chip",
        link: Link { bytes_per_s: 50.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Vendor,
        source: source!(
            "cloud.google.com/tpu/docs/v5p-training (DCN bandwidth 50 Gbps per chip); the \
                 public documentation says only 'DCN'"
        ),
    },
    ScaleOutPreset {
        id: "dcn-tpu-100g",
        name: "TPU data-centre network, 100 Gb/s per chip",
        link: Link { bytes_per_s: 100.0 * GBIT_PER_S, latency_s: 10.0 * US, efficiency: 0.80 },
        basis: Basis::Vendor,
        source: source!(
            "docs.cloud.google.com/tpu/docs/tpu7x comparison table (DCN 100 Gb/s per chip for \
                 v6e and TPU7x)"
        ),
    },
];
