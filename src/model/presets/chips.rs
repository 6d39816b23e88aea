//! Catalog accelerators: dense peak figures, memory, power and price, each with its source.
//!
//! Figures come from the vendor pages, datasheets, papers and press named in each entry's
//! `source`. Estimates are marked in a comment next to the value and named in `unverified`.
//! `matmul_efficiency` and `memory_efficiency` are model calibration figures, not datasheet
//! values, and are documented with the calibration runs.

use super::{units::*, Basis, ChipPreset};
use crate::model::Chip;

/// Every catalog accelerator, grouped by vendor.
pub const CHIPS: &[ChipPreset] = &[
    // ---------------------------------------------------------------- NVIDIA
    ChipPreset {
        id: "v100-sxm2-32gb",
        name: "NVIDIA V100 SXM2 32GB",
        vendor: "NVIDIA",
        family: "Volta",
        chip: Chip {
            bf16_flops_per_s: 125.0 * TFLOPS, // FP16 tensor; V100 has no BF16
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 0.0,
            fp32_flops_per_s: 15.7 * TFLOPS,
            hbm_bytes: 32.0 * DATASHEET_GB,
            hbm_bytes_per_s: 0.9 * TB_PER_S,
            host_bytes_per_s: 16.0 * GB_PER_S, // PCIe Gen3 x16, one way
            exp_per_s: 0.0,
            tdp_w: 300.0,
            matmul_efficiency: 0.72,
            memory_efficiency: 0.80,
            price_usd: Some(11_458.0), // list price, 2018
        },
        scale_up: "nvlink2-8",
        scale_out: "ib-edr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &[],
        source: source!(
            "NVIDIA Tesla V100 datasheet (SXM2 32GB: 125 TFLOPS FP16 tensor, 15.7 FP32, \
                 900 GB/s HBM2, 300 W, NVLink 2 300 GB/s), as widely quoted. 8 per DGX-1; price: $11,458 single-unit list price (Microway, May 2018, as Epoch AI's hardware price data records it). Host link: PCIe Gen3 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "a100-40gb",
        name: "NVIDIA A100 SXM4 40GB",
        vendor: "NVIDIA",
        family: "Ampere",
        chip: Chip {
            bf16_flops_per_s: 312.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 624.0 * TFLOPS, // dense; 1,248 with sparsity (A100 datasheet)
            fp32_flops_per_s: 19.5 * TFLOPS,
            hbm_bytes: 40.0 * DATASHEET_GB,
            hbm_bytes_per_s: 1.555 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 312.0 * TFLOPS / 128.0, // 16 exponentials a clock per SM, 2,048 BF16 FLOPs
            tdp_w: 400.0,
            matmul_efficiency: 0.74,
            memory_efficiency: 0.80,
            price_usd: Some(20_200.0), // DGX A100's $199k at launch over 8 x 1.23
        },
        scale_up: "nvlink3-8",
        scale_out: "ib-hdr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["hbm_bytes_per_s", "price_usd"],
        source: source!(
            "NVIDIA A100 datasheet (quoted in a secondary compilation); Megatron-LM SC'21 \
                 §5 (312 TFLOP/s peak, 8x200 Gb/s HDR per node); DGX A100 $199k (Medium, \
                 MT-NLG write-up); price: the DGX A100's $199k at launch (NVIDIA, May 2020) over 8 \
                 chips and the generic server's 1.23. Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "a100-80gb",
        name: "NVIDIA A100 SXM4 80GB",
        vendor: "NVIDIA",
        family: "Ampere",
        chip: Chip {
            bf16_flops_per_s: 312.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 624.0 * TFLOPS, // dense; 1,248 with sparsity (A100 datasheet)
            fp32_flops_per_s: 19.5 * TFLOPS,
            hbm_bytes: 80.0 * DATASHEET_GB,
            hbm_bytes_per_s: 2.039 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 312.0 * TFLOPS / 128.0, // 16 exponentials a clock per SM, 2,048 BF16 FLOPs
            tdp_w: 400.0,
            matmul_efficiency: 0.74,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "nvlink3-8",
        scale_out: "ib-hdr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &[],
        source: source!(
            "NVIDIA A100 spec table reproduced at jishuzhan.net/article/1872432607539499010; \
                 Luccioni et al. (A100 SXM4 80GB TDP 400 W); Megatron-LM SC'21 §5. Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "a800-80gb",
        name: "NVIDIA A800 SXM4 80GB",
        vendor: "NVIDIA",
        family: "Ampere",
        chip: Chip {
            bf16_flops_per_s: 312.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 624.0 * TFLOPS, // A100 silicon and clocks: 624 dense
            fp32_flops_per_s: 19.5 * TFLOPS,
            hbm_bytes: 80.0 * DATASHEET_GB,
            hbm_bytes_per_s: 2.039 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 312.0 * TFLOPS / 128.0, // 16 exponentials a clock per SM, 2,048 BF16 FLOPs
            tdp_w: 400.0,
            matmul_efficiency: 0.74,
            memory_efficiency: 0.80,
            price_usd: Some(15_250.0), // 108,000 yuan a card, mid-2023
        },
        scale_up: "nvlink3-a800",
        scale_out: "ib-hdr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["int8_ops_per_s"],
        source: source!(
            "China SKU of A100: figures = A100 80GB, NVLink cut 600 -> 400 GB/s \
                 (TechPowerUp / Tom's Hardware news, Reuters-sourced); price: about 108,000 yuan a card on China's grey market (Straits Times, mid-2023) at 7.08 yuan per dollar. Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "h100-sxm",
        name: "NVIDIA H100 SXM5 80GB",
        vendor: "NVIDIA",
        family: "Hopper",
        chip: Chip {
            bf16_flops_per_s: 989.0 * TFLOPS,
            fp8_flops_per_s: 1979.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 1979.0 * TFLOPS, // dense; 3,958 with sparsity (H100 datasheet)
            fp32_flops_per_s: 67.0 * TFLOPS,
            hbm_bytes: 81_559.0 * MIB, // as the device reports it: 81,559 MiB of "80 GB" (H100 80GB)
            hbm_bytes_per_s: 3.35 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 989.0 * TFLOPS / 256.0, // 16 exponentials a clock per SM, 4,096 BF16 FLOPs
            tdp_w: 700.0,
            matmul_efficiency: 0.62,
            memory_efficiency: 0.80,
            price_usd: Some(27_500.0), // midpoint of ~$25-30k street
        },
        scale_up: "nvlink4-8",
        scale_out: "ib-ndr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &[],
        source: source!(
            "NVIDIA H100 product page spec table; glennklockwood.com/garden/processors/h100 \
                 (989.4 dense BF16, 1978.9 FP8, 66.9 FP32); Llama 3 paper §3.3.1 (700 W, \
                 80 GB HBM3, 400 Gbps per GPU); awesomeagents.ai (price ~$25-30k). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "h800",
        name: "NVIDIA H800 SXM 80GB",
        vendor: "NVIDIA",
        family: "Hopper",
        chip: Chip {
            bf16_flops_per_s: 989.0 * TFLOPS,
            fp8_flops_per_s: 1979.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 1979.0 * TFLOPS, // H100 SXM silicon: 3,958 with sparsity, halved
            fp32_flops_per_s: 67.0 * TFLOPS,
            hbm_bytes: 81_559.0 * MIB, // as the device reports it: 81,559 MiB of "80 GB" (H100 80GB)
            hbm_bytes_per_s: 3.35 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 989.0 * TFLOPS / 256.0, // 16 exponentials a clock per SM, 4,096 BF16 FLOPs
            tdp_w: 700.0, // one source; another claims a 550 W firmware cap
            matmul_efficiency: 0.62,
            memory_efficiency: 0.80,
            price_usd: Some(28_700.0), // 8-GPU servers about 2.0 M yuan at launch, over 8 x 1.23
        },
        scale_up: "nvlink4-h800",
        scale_out: "ib-ndr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["tdp_w", "int8_ops_per_s"],
        source: source!(
            "China SKU of H100 (compute = H100, FP64 and NVLink cut): philisun.com \
                 'NVIDIA H800 vs H100'; aiwiki.ai/wiki/nvidia_h800; DeepSeek-V3 report §3.2.2 \
                 (~160 GB/s NVLink, ~50 GB/s IB achieved per GPU); price: 8-GPU H800 servers about 2 million yuan at launch (Reuters, early 2024; Caixin, Oct 2023: 2.3 M before the October 2023 curbs, over 2.7 M after), 2.0 M at 7.08 yuan per dollar (2023 average, Federal Reserve G.5A) over 8 chips and the generic server's 1.23. Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "h20",
        name: "NVIDIA H20 96GB",
        vendor: "NVIDIA",
        family: "Hopper",
        chip: Chip {
            bf16_flops_per_s: 148.0 * TFLOPS,
            fp8_flops_per_s: 296.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 296.0 * TFLOPS, // dense, as third-party spec tables give it
            fp32_flops_per_s: 44.0 * TFLOPS,
            hbm_bytes: 96.0 * DATASHEET_GB,
            hbm_bytes_per_s: 4.0 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 400.0,
            matmul_efficiency: 0.62,
            memory_efficiency: 0.80,
            price_usd: Some(13_500.0), // $12,000-15,000 a card to distributors
        },
        scale_up: "nvlink4-8",
        scale_out: "ib-ndr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["host_bytes_per_s", "int8_ops_per_s"],
        source: source!(
            "willitrunai.com/es/gpus/h20-96gb; zangshuxian.com (FP16 148, FP32 44); \
                 1cnz.cn (FP8 296, 96 GB, 4.0 TB/s, NVLink 900 GB/s); price: Nvidia priced distributor orders at $12,000-15,000 a card (Reuters, early 2024), the middle of the range. Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "h200",
        name: "NVIDIA H200 SXM 141GB",
        vendor: "NVIDIA",
        family: "Hopper",
        chip: Chip {
            bf16_flops_per_s: 989.0 * TFLOPS,
            fp8_flops_per_s: 1979.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 1979.0 * TFLOPS, // dense; 3,958 with sparsity (H200 datasheet)
            fp32_flops_per_s: 67.0 * TFLOPS,
            hbm_bytes: 139.8 * GIB, // as the device reports it (measured: 139.8 GiB of "141 GB")
            hbm_bytes_per_s: 4.8 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 989.0 * TFLOPS / 256.0, // 16 exponentials a clock per SM, 4,096 BF16 FLOPs
            tdp_w: 700.0,
            matmul_efficiency: 0.62,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "nvlink4-8",
        scale_out: "ib-ndr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &[],
        source: source!(
            "lzwjava.github.io H100-vs-H200 table; aiminingco.com/gpu/h200/specs; \
                 aiwiki.ai/wiki/nvidia_h200. Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "b200",
        name: "NVIDIA B200 (HGX, 1,000 W)",
        vendor: "NVIDIA",
        family: "Blackwell",
        chip: Chip {
            bf16_flops_per_s: 2250.0 * TFLOPS,
            fp8_flops_per_s: 4500.0 * TFLOPS,
            fp4_flops_per_s: 9000.0 * TFLOPS,
            int8_ops_per_s: 4500.0 * TFLOPS, // dense; 9 POPS with sparsity (HGX B200 table)
            fp32_flops_per_s: 80.0 * TFLOPS,
            hbm_bytes: 180.0 * DATASHEET_GB, // usable; 192 GB physical (reports vary)
            hbm_bytes_per_s: 8.0 * TB_PER_S, // reports give 7.7-8.0
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 2250.0 * TFLOPS / 512.0, // 16 exponentials a clock per SM, 8,192 BF16 FLOPs
            tdp_w: 1000.0,
            matmul_efficiency: 0.60,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "nvlink5-8",
        scale_out: "ib-ndr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["hbm_bytes", "hbm_bytes_per_s"],
        source: source!(
            "glennklockwood.com/garden/processors/B200 (HGX @1,000 W table); verda.com/blog/\
                 gb300-nvl72-architecture (per-GPU dense table); docs.vultr.com HGX B200 \
                 overview (179 GB visible, 8 TB/s, 1,000 W). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "gb200",
        name: "NVIDIA GB200 (per GPU, NVL72, 1,200 W)",
        vendor: "NVIDIA",
        family: "Blackwell",
        chip: Chip {
            bf16_flops_per_s: 2500.0 * TFLOPS,
            fp8_flops_per_s: 5000.0 * TFLOPS,
            fp4_flops_per_s: 10000.0 * TFLOPS,
            int8_ops_per_s: 5000.0 * TFLOPS, // dense; 10 POPS with sparsity (GB200 NVL72 table)
            fp32_flops_per_s: 90.0 * TFLOPS,
            hbm_bytes: 186.0 * DATASHEET_GB, // ~13.4 TB per 72 GPUs
            hbm_bytes_per_s: 8.0 * TB_PER_S,
            host_bytes_per_s: 225.0 * GB_PER_S, // NVLink-C2C, 900 GB/s both ways per Grace shared by its two GPUs, one way
            exp_per_s: 2500.0 * TFLOPS / 512.0, // 16 exponentials a clock per SM, 8,192 BF16 FLOPs
            tdp_w: 1200.0,
            matmul_efficiency: 0.60,
            memory_efficiency: 0.80,
            price_usd: Some(41_700.0), // NVL72 rack ~$3M / 72 (includes CPUs, switches)
        },
        scale_up: "nvlink5-72",
        scale_out: "ib-xdr",
        chips_per_node: 4,
        basis: Basis::Secondary,
        unverified: &["hbm_bytes", "price_usd", "host_bytes_per_s"],
        source: source!(
            "glennklockwood.com B200 page (GB200 @1,200 W table); datacrunch.io NVL72 blog \
                 (130 TB/s); aiwiki.ai NVL72 (13.4 TB HBM per rack); xatakaon.com (~$3M per \
                 rack, price is rack / 72). Host link: NVLink-C2C to the Grace CPU, 900 GB/s both ways per superchip of two GPUs (NVIDIA GB200 NVL72 product page), 225 GB/s a GPU each way"
        ),
    },
    ChipPreset {
        id: "gb300",
        name: "NVIDIA GB300 (per GPU, NVL72, 1,400 W)",
        vendor: "NVIDIA",
        family: "Blackwell",
        chip: Chip {
            bf16_flops_per_s: 2500.0 * TFLOPS,
            fp8_flops_per_s: 5000.0 * TFLOPS,
            fp4_flops_per_s: 15000.0 * TFLOPS,
            int8_ops_per_s: 165.0 * TFLOPS, // Blackwell Ultra cut INT8: 0.165 POPS dense, a third-party table
            fp32_flops_per_s: 80.0 * TFLOPS,
            hbm_bytes: 279.0 * DATASHEET_GB,
            hbm_bytes_per_s: 8.0 * TB_PER_S,
            host_bytes_per_s: 225.0 * GB_PER_S, // NVLink-C2C, 900 GB/s both ways per Grace shared by its two GPUs, one way
            exp_per_s: 2500.0 * TFLOPS / 256.0, // 32 exponentials a clock per SM, 8,192 BF16 FLOPs
            tdp_w: 1400.0,
            matmul_efficiency: 0.60,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "nvlink5-72",
        scale_out: "ib-xdr",
        chips_per_node: 4,
        basis: Basis::Secondary,
        unverified: &["host_bytes_per_s", "int8_ops_per_s"],
        source: source!(
            "verda.com GB300 blog (dense per-GPU table; rack GPU TDP 100.8 kW = 72 x 1.4 kW). Host link: NVLink-C2C to the Grace CPU, 900 GB/s both ways per superchip of two GPUs (NVIDIA GB200 NVL72 product page), 225 GB/s a GPU each way"
        ),
    },
    ChipPreset {
        id: "b300",
        name: "NVIDIA B300 (HGX, 1,100 W)",
        vendor: "NVIDIA",
        family: "Blackwell",
        chip: Chip {
            bf16_flops_per_s: 2250.0 * TFLOPS,
            fp8_flops_per_s: 4500.0 * TFLOPS,
            fp4_flops_per_s: 13500.0 * TFLOPS, // copies of the HGX table give 13,125-15,000
            int8_ops_per_s: 150.0 * TFLOPS, // Blackwell Ultra cut INT8: 0.15 POPS dense, a third-party table
            fp32_flops_per_s: 80.0 * TFLOPS,   // the GB300's: the same Blackwell Ultra GPU
            hbm_bytes: 270.0 * DATASHEET_GB,   // usable; 288 GB physical
            hbm_bytes_per_s: 8.0 * TB_PER_S,
            host_bytes_per_s: 128.0 * GB_PER_S, // PCIe Gen6 x16, one way
            exp_per_s: 2250.0 * TFLOPS / 256.0, // 32 exponentials a clock per SM, 8,192 BF16 FLOPs
            tdp_w: 1100.0,
            matmul_efficiency: 0.60,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "nvlink5-8",
        scale_out: "ib-xdr",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["fp4_flops_per_s", "fp32_flops_per_s", "hbm_bytes_per_s", "host_bytes_per_s", "int8_ops_per_s"],
        source: source!(
            "HGX B300 table as copied by fibermall.com (8 GPUs: 144 PFLOPS FP4, 72 FP8, 36 BF16 \
                 with sparsity; dense is half, FP4 108 for 8); 270 GB and 1,100 W from NVIDIA's \
                 MLPerf system description B300-SXM-270GBx8; 8 TB/s as for GB300 \
                 (verda.com GB300 blog), as is FP32 (the same GPU). Host link: PCIe Gen6 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "l40s",
        name: "NVIDIA L40S (PCIe)",
        vendor: "NVIDIA",
        family: "Ada",
        chip: Chip {
            bf16_flops_per_s: 362.0 * TFLOPS,
            fp8_flops_per_s: 733.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 733.0 * TFLOPS, // dense; 1,466 with sparsity (L40S datasheet)
            fp32_flops_per_s: 91.6 * TFLOPS,
            hbm_bytes: 48.0 * DATASHEET_GB, // GDDR6
            hbm_bytes_per_s: 0.864 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 0.0,
            tdp_w: 350.0,
            matmul_efficiency: 0.50,
            memory_efficiency: 0.75,
            price_usd: Some(9_000.0), // between $7,500 and about $11,000
        },
        scale_up: "pcie4-8",
        scale_out: "roce-200g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &[],
        source: source!(
            "NVIDIA L40/L40S datasheet table reproduced at mullet.se; omegaco.ae; \
                 itcreations.com (no NVLink; PCIe Gen4 x16); 200G NIC typical (S); 8 cards \
                 per server assumed; price: between the $7,500 MSRP (chipversus.com) and about $11,000 (jishuzhan.net, Dec 2025). Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "l20",
        name: "NVIDIA L20 (PCIe, China SKU)",
        vendor: "NVIDIA",
        family: "Ada",
        chip: Chip {
            bf16_flops_per_s: 119.5 * TFLOPS, // estimate: ~1/3 of L40S (tensor figure not found)
            fp8_flops_per_s: 239.0 * TFLOPS,  // estimate: 2x the BF16 estimate, as on L40S
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 239.0 * TFLOPS, // dense, as commonly quoted
            fp32_flops_per_s: 59.35 * TFLOPS,
            hbm_bytes: 48.0 * DATASHEET_GB, // GDDR6
            hbm_bytes_per_s: 0.864 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 0.0,
            tdp_w: 275.0,
            matmul_efficiency: 0.50,
            memory_efficiency: 0.75,
            price_usd: Some(9_000.0), // one blog's figure
        },
        scale_up: "pcie4-8",
        scale_out: "roce-200g",
        chips_per_node: 8,
        basis: Basis::Unverified,
        unverified: &["bf16_flops_per_s", "fp8_flops_per_s", "price_usd", "host_bytes_per_s", "int8_ops_per_s"],
        source: source!(
            "technical.city/pl/video/L20 (48 GB, 864 GB/s, 275 W, FP32 59.35); topcpu.net; \
                 taoguba.com.cn (L20 ~32% of L40S compute, 200G networking). Tensor TFLOPS not \
                 found: BF16/FP8 estimated at ~1/3 of L40S; price: about $9,000 (jishuzhan.net, Dec 2025), the one published figure found. Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    // ---------------------------------------------------------------- AMD
    ChipPreset {
        id: "mi250x",
        name: "AMD Instinct MI250X (2 GCDs)",
        vendor: "AMD",
        family: "CDNA",
        chip: Chip {
            bf16_flops_per_s: 383.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 383.0 * TFLOPS, // INT8 as BF16 (MI250X datasheet)
            fp32_flops_per_s: 47.9 * TFLOPS, // vector; 95.7 matrix
            hbm_bytes: 128.0 * DATASHEET_GB,
            hbm_bytes_per_s: 3.2 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 0.0,
            tdp_w: 560.0, // AMD table 560 W; a leak said 500 W
            matmul_efficiency: 0.55,
            memory_efficiency: 0.80,
            price_usd: Some(11_000.0), // an estimate
        },
        scale_up: "infinity-fabric-mi250x",
        scale_out: "slingshot-11",
        chips_per_node: 4,
        basis: Basis::Secondary,
        unverified: &["tdp_w", "price_usd"],
        source: source!(
            "zexron.com (AMD spec table: FP16/BF16 383 TF, 128 GB, 3.2 TB/s, 560 W); Tom's \
                 Hardware (500 W leak); Dash et al. 2023 (191.5 TF per GCD); Frontier node = \
                 4 MI250X with HPE Slingshot-11; price: an estimate, no published price found: near the A100's $12,500-15,000 list (Next Platform, 2022) at AMD's usual discount; Frontier's $600 M contract over its 37,632 MI250X, $15.9k each with everything else, bounds it. Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "mi300x",
        name: "AMD Instinct MI300X",
        vendor: "AMD",
        family: "CDNA",
        chip: Chip {
            bf16_flops_per_s: 1307.0 * TFLOPS,
            fp8_flops_per_s: 2615.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 2614.9 * TFLOPS, // dense; 5,229.8 with sparsity (MI300X datasheet)
            fp32_flops_per_s: 81.7 * TFLOPS, // estimate: vector = half the ~163 matrix FP32
            hbm_bytes: 192.0 * DATASHEET_GB,
            hbm_bytes_per_s: 5.3 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 750.0,
            matmul_efficiency: 0.55,
            memory_efficiency: 0.80,
            price_usd: Some(12_500.0), // midpoint of ~$10-15k street
        },
        scale_up: "infinity-fabric-8",
        scale_out: "roce-400g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["fp8_flops_per_s", "fp32_flops_per_s"],
        source: source!(
            "jaredwatkins.com MI300 page (~1.3 PF FP16, ~2.6 PF FP8, 750 W, 5.3 TB/s); \
                 aiwiki.ai MI300X; gpu.blog (896 GB/s xGMI, 164.6 TF matrix FP32); \
                 awesomeagents.ai (price ~$10-15k). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "mi325x",
        name: "AMD Instinct MI325X",
        vendor: "AMD",
        family: "CDNA",
        chip: Chip {
            bf16_flops_per_s: 1307.0 * TFLOPS,
            fp8_flops_per_s: 2615.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 2614.9 * TFLOPS, // dense; 5,229.8 with sparsity (MI325X datasheet)
            fp32_flops_per_s: 81.7 * TFLOPS, // estimate: as MI300X (same CDNA 3 compute)
            hbm_bytes: 256.0 * DATASHEET_GB, // shipping; 288 GB was announced
            hbm_bytes_per_s: 6.0 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 1000.0,
            matmul_efficiency: 0.55,
            memory_efficiency: 0.80,
            price_usd: Some(20_000.0), // MSRP, one source
        },
        scale_up: "infinity-fabric-8",
        scale_out: "roce-400g",
        chips_per_node: 8,
        basis: Basis::Unverified,
        unverified: &[
            "bf16_flops_per_s",
            "fp8_flops_per_s",
            "fp32_flops_per_s",
            "hbm_bytes",
            "hbm_bytes_per_s",
            "tdp_w",
            "price_usd",
        ],
        source: source!(
            "partofstyle.com (announcement: HBM3E, up to 288 GB, 1.3x bandwidth); compute \
                 widely quoted as = MI300X; AMD MI325X datasheet not retrieved; price: $20,000 MSRP (willitrunai.com), one secondary source. Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "mi355x",
        name: "AMD Instinct MI355X",
        vendor: "AMD",
        family: "CDNA",
        chip: Chip {
            bf16_flops_per_s: 2500.0 * TFLOPS,
            fp8_flops_per_s: 5000.0 * TFLOPS,
            fp4_flops_per_s: 10000.0 * TFLOPS,
            int8_ops_per_s: 5000.0 * TFLOPS, // dense; 10.1 POPS with sparsity, as AMD's launch figures are reported
            fp32_flops_per_s: 157.3 * TFLOPS,
            hbm_bytes: 288.0 * DATASHEET_GB,
            hbm_bytes_per_s: 8.0 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 1400.0,
            matmul_efficiency: 0.55,
            memory_efficiency: 0.80,
            price_usd: Some(23_000.0), // analyst's average selling price
        },
        scale_up: "infinity-fabric-8",
        scale_out: "roce-400g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["bf16_flops_per_s", "fp32_flops_per_s", "int8_ops_per_s"],
        source: source!(
            "AMD Instinct MI355X announcement as reported (CDNA 4: 288 GB HBM3E at 8 TB/s, \
                 1,400 W liquid-cooled, 5 PF dense FP8, 10 PF MXFP4 and MXFP6, 157.3 TF FP32 \
                 vector); dense BF16 taken as half the FP8 rate. GEMM efficiency by chip class; price: HSBC's estimated average selling price, $23,000 (September 2025, down from $25,000 in July). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    // ---------------------------------------------------------------- Intel
    ChipPreset {
        id: "gaudi2",
        name: "Intel Gaudi 2",
        vendor: "Intel",
        family: "Gaudi",
        chip: Chip {
            bf16_flops_per_s: 432.0 * TFLOPS,
            fp8_flops_per_s: 865.0 * TFLOPS, // 835 in one press report
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 0.0,
            fp32_flops_per_s: 5.4 * TFLOPS, // estimate: Gaudi 3 vector scaled by TPCs 24/64, /2
            hbm_bytes: 96.0 * DATASHEET_GB,
            hbm_bytes_per_s: 2.45 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 0.0,
            tdp_w: 600.0,
            matmul_efficiency: 0.60,
            memory_efficiency: 0.80,
            price_usd: Some(8_125.0), // $65,000 for a kit of 8
        },
        scale_up: "gaudi-roce-8",
        scale_out: "gaudi2-roce-3x100g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["fp8_flops_per_s", "fp32_flops_per_s"],
        source: source!(
            "yobitel.com Gaudi 2 page; pcguia.pt (432 BF16, 96 GB, 2.45 TB/s, 600 W); \
                 habana.ai/products/networking (24x100GbE on die, 2.4 Tb/s scale-out per \
                 8-card server); price: $65,000 for a kit of 8 Gaudi 2 with the baseboard (Intel at Computex 2024, Reuters; Next Platform, June 2024). Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "gaudi3",
        name: "Intel Gaudi 3 (OAM)",
        vendor: "Intel",
        family: "Gaudi",
        chip: Chip {
            bf16_flops_per_s: 1835.0 * TFLOPS,
            fp8_flops_per_s: 1835.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 0.0,
            fp32_flops_per_s: 14.3 * TFLOPS, // estimate: half the 28.7 TF BF16 vector figure
            hbm_bytes: 128.0 * DATASHEET_GB,
            hbm_bytes_per_s: 3.7 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 900.0,
            matmul_efficiency: 0.60,
            memory_efficiency: 0.80,
            price_usd: Some(15_600.0), // 8-chip UBB kit $125k / 8
        },
        scale_up: "gaudi3-roce-8",
        scale_out: "gaudi3-roce-3x200g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["fp32_flops_per_s"],
        source: source!(
            "yobitel.com Gaudi 3; evokernel-specs; theregister.com 2024-04-09; y-ic.de (kit \
                 price $125k per 8, 28.7 TF BF16 vector). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    // ---------------------------------------------------------------- Google
    ChipPreset {
        id: "tpu-v4",
        name: "Google TPU v4",
        vendor: "Google",
        family: "TPU",
        chip: Chip {
            bf16_flops_per_s: 275.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 275.0 * TFLOPS, // "275 teraflops (bf16 or int8)" (Cloud TPU v4 docs)
            fp32_flops_per_s: 17.2 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 32.0 * GIB,
            hbm_bytes_per_s: 1.2 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16 taken; Google publishes no host link, one way
            exp_per_s: 0.0,
            tdp_w: 192.0, // estimate: maximum measured chip power (no TDP published)
            matmul_efficiency: 0.81,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "ici-v4",
        scale_out: "dcn-tpu",
        chips_per_node: 4,
        basis: Basis::Vendor,
        unverified: &["fp32_flops_per_s", "tdp_w", "host_bytes_per_s"],
        source: source!(
            "cloud.google.com/tpu/docs/v4 (275 TF bf16, 32 GiB, 1,200 GB/s, measured chip \
                 power 90/170/192 W, 4,096-chip pod); 4 chips per host tray. GEMM efficiency \
                 calibrated on MaxText's 22B on 64 and 512 chips (data/calibration.json); PaLM \
                 540B on 6,144 chips (Pathways) checks it, held out. Host link: PCIe Gen4 x16, taken: Google publishes no host link (an assumption)"
        ),
    },
    ChipPreset {
        id: "tpu-v5e",
        name: "Google TPU v5e",
        vendor: "Google",
        family: "TPU",
        chip: Chip {
            bf16_flops_per_s: 197.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 393.0 * TFLOPS, // Cloud TPU v5e docs: 393 TOPs int8
            fp32_flops_per_s: 12.3 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 16.0 * DATASHEET_GB,
            hbm_bytes_per_s: 0.819 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16 taken; Google publishes no host link, one way
            exp_per_s: 0.0,
            tdp_w: 200.0, // estimate: comparable to TPU v4's 192 W maximum
            matmul_efficiency: 0.81,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "ici-v5e",
        scale_out: "dcn-tpu",
        chips_per_node: 8,
        basis: Basis::Vendor,
        unverified: &["fp32_flops_per_s", "tdp_w", "host_bytes_per_s"],
        source: source!(
            "docs.cloud.google.com/tpu/docs/v5e (197 TF bf16, 16 GB, 819 GB/s, ICI 400 GB/s \
                 bidirectional, 256-chip pod, 2 x 100 Gbps NIC per 8-chip host). GEMM \
                 efficiency the TPU family's, calibrated on v4; MaxText's v5e table checks it, \
                 held out. Host link: PCIe Gen4 x16, taken: Google publishes no host link (an assumption)"
        ),
    },
    ChipPreset {
        id: "tpu-v5p",
        name: "Google TPU v5p",
        vendor: "Google",
        family: "TPU",
        chip: Chip {
            bf16_flops_per_s: 459.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 918.0 * TFLOPS, // twice BF16, from the v5p launch as relayed; the Cloud docs list BF16 only
            fp32_flops_per_s: 28.7 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 95.0 * DATASHEET_GB,
            hbm_bytes_per_s: 2.765 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16 taken; Google publishes no host link, one way
            exp_per_s: 0.0,
            tdp_w: 350.0, // estimate: no power figure published
            matmul_efficiency: 0.81,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "ici-v5p",
        scale_out: "dcn-tpu-v5p",
        chips_per_node: 4,
        basis: Basis::Vendor,
        unverified: &["fp32_flops_per_s", "tdp_w", "host_bytes_per_s", "int8_ops_per_s"],
        source: source!(
            "cloud.google.com/tpu/docs/v5p (459 TF bf16, 95 GB, 2,765 GB/s, ICI 4,800 Gbps, \
                 8,960-chip pod); v5p-training page (4-chip VM, DCN 50 Gbps per chip). GEMM \
                 efficiency the TPU family's, calibrated on v4; MaxText's 2023 v5p table and \
                 its 2025 Llama 3.1 405B recipe check it, held out. Host link: PCIe Gen4 x16, taken: Google publishes no host link (an assumption)"
        ),
    },
    ChipPreset {
        id: "tpu-v6e",
        name: "Google TPU v6e (Trillium)",
        vendor: "Google",
        family: "TPU",
        chip: Chip {
            bf16_flops_per_s: 918.0 * TFLOPS,
            fp8_flops_per_s: 0.0, // int8 only, no FP8 units
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 1836.0 * TFLOPS, // Cloud TPU v6e docs: 1,836 TOPs int8
            fp32_flops_per_s: 57.4 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 32.0 * GIB,
            hbm_bytes_per_s: 1.64 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16 taken; Google publishes no host link, one way
            exp_per_s: 0.0,
            tdp_w: 400.0, // estimate: no power figure published
            matmul_efficiency: 0.81,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "ici-v6e",
        scale_out: "dcn-tpu-100g",
        chips_per_node: 8,
        basis: Basis::Vendor,
        unverified: &["fp32_flops_per_s", "tdp_w", "host_bytes_per_s"],
        source: source!(
            "docs.cloud.google.com/tpu/docs/v6e (918 TFLOP/s bf16 and 1,836 TOPS int8 per chip, \
                 32 GB HBM at 1,640 GB/s, ICI 800 GB/s bidirectional over 4 ports, 2D torus, \
                 256-chip pod, 8 chips per host); docs.cloud.google.com/tpu/docs/tpu7x \
                 comparison table (v6e: 32 GiB, DCN 100 Gb/s per chip). GEMM efficiency the \
                 TPU family's. Host link: PCIe Gen4 x16, taken: Google publishes no host link (an assumption)"
        ),
    },
    ChipPreset {
        id: "tpu-7x",
        name: "Google TPU7x (Ironwood)",
        vendor: "Google",
        family: "TPU",
        chip: Chip {
            bf16_flops_per_s: 2307.0 * TFLOPS,
            fp8_flops_per_s: 4614.0 * TFLOPS,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 0.0,
            fp32_flops_per_s: 144.2 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 192.0 * GIB,
            hbm_bytes_per_s: 7.38 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16 taken; Google publishes no host link, one way
            exp_per_s: 0.0,
            tdp_w: 1000.0, // estimate: no power figure published
            matmul_efficiency: 0.81,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "ici-7x",
        scale_out: "dcn-tpu-100g",
        chips_per_node: 4,
        basis: Basis::Vendor,
        unverified: &["fp32_flops_per_s", "tdp_w", "host_bytes_per_s"],
        source: source!(
            "docs.cloud.google.com/tpu/docs/tpu7x (per chip: 2,307 TFLOP/s BF16, 4,614 \
                 TFLOP/s FP8, 192 GiB HBM at 7,380 GB/s, two TensorCores, ICI 1,200 GB/s \
                 bidirectional, DCN 100 Gb/s, 9,216-chip pod, 4 chips per VM). GEMM \
                 efficiency the TPU family's. Host link: PCIe Gen4 x16, taken: Google publishes no host link (an assumption)"
        ),
    },
    // ---------------------------------------------------------------- Huawei
    ChipPreset {
        id: "ascend-910b",
        name: "Huawei Ascend 910B",
        vendor: "Huawei",
        family: "Ascend",
        chip: Chip {
            bf16_flops_per_s: 320.0 * TFLOPS, // disputed: 256 / ~320 / ~376 quoted
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 640.0 * TFLOPS, // commonly cited, not a Huawei datasheet; 910B variants differ
            fp32_flops_per_s: 20.0 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 64.0 * DATASHEET_GB,
            hbm_bytes_per_s: 1.6 * TB_PER_S, // conflicting: 0.4, 0.77, 1.6 TB/s cited
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 400.0,                    // 310-400 W quoted
            matmul_efficiency: 0.68,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "hccs-8",
        scale_out: "roce-200g",
        chips_per_node: 8,
        basis: Basis::Unverified,
        unverified: &[
            "bf16_flops_per_s",
            "fp32_flops_per_s",
            "hbm_bytes",
            "hbm_bytes_per_s",
            "tdp_w",
            "host_bytes_per_s",
            "int8_ops_per_s",
        ],
        // No measured training run calibrates its efficiency yet; Pangu Ultra 135B reports about
        // 52% MFU on 8,192 NPUs, a candidate calibration row.
        source: source!(
            "No Huawei datasheet found. boardor.com (~320 TF, 64 GB); jishuzhan.net (256 TF, \
                 350 W); oryoy.com. Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "ascend-910c",
        name: "Huawei Ascend 910C (dual-die)",
        vendor: "Huawei",
        family: "Ascend",
        chip: Chip {
            bf16_flops_per_s: 780.0 * TFLOPS, // 780-800 quoted
            fp8_flops_per_s: 0.0,             // FP8 arrives with the 950 series
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 0.0,
            fp32_flops_per_s: 48.8 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 128.0 * DATASHEET_GB,
            hbm_bytes_per_s: 3.2 * TB_PER_S, // CloudMatrix 384: 1,229 TB/s / 384
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 800.0,                    // estimate: two ~400 W 910B-class dies
            matmul_efficiency: 0.50,
            memory_efficiency: 0.80,
            price_usd: None,
        },
        scale_up: "ub-384",
        scale_out: "roce-400g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["fp32_flops_per_s", "tdp_w", "host_bytes_per_s"],
        source: source!(
            "winbuzzer.com 2025-04-20 (SemiAnalysis: 780 TF BF16, 49.2 TB, 1,229 TB/s per \
                 384); besthub.dev Ascend roadmap (800 TF, 784 GB/s); chinaresearchcollective \
                 (196 GB/s UB per NPU); CloudMatrix 384 = 48 nodes x 8, 400 Gbps RoCE per NPU \
                 (besthub.dev CloudMatrix384 article). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    // ---------------------------------------------------------------- Moore Threads
    ChipPreset {
        id: "mtt-s4000",
        name: "Moore Threads MTT S4000",
        vendor: "Moore Threads",
        family: "MUSA",
        chip: Chip {
            bf16_flops_per_s: 100.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 200.0 * TFLOPS, // Moore Threads launch figures as reported
            fp32_flops_per_s: 25.0 * TFLOPS,
            hbm_bytes: 48.0 * DATASHEET_GB, // GDDR6
            hbm_bytes_per_s: 0.768 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 450.0, // estimate: widely quoted board power, no datasheet retrieved
            matmul_efficiency: 0.50,
            memory_efficiency: 0.75,
            price_usd: None,
        },
        scale_up: "mtlink-8",
        scale_out: "roce-200g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["tdp_w", "int8_ops_per_s"],
        source: source!(
            "io-tech.fi (2023-12); titancomputers.com; tweakpc.de; techpowerup.com forum \
                 news (KUAE: MCCX D800 = 8 x S4000). Scale-out NIC not sourced (200G assumed). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "mtt-s5000",
        name: "Moore Threads MTT S5000",
        vendor: "Moore Threads",
        family: "MUSA",
        chip: Chip {
            bf16_flops_per_s: 500.0 * TFLOPS, // estimate: half the ~1,000 TF FP8 claim
            fp8_flops_per_s: 1000.0 * TFLOPS, // vendor ~1,000 TF, sparsity not stated
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 0.0,
            fp32_flops_per_s: 31.3 * TFLOPS, // estimate: 1/16 of BF16 (A100 ratio)
            hbm_bytes: 80.0 * DATASHEET_GB,
            hbm_bytes_per_s: 1.6 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 600.0, // estimate: no power figure found
            matmul_efficiency: 0.50,
            memory_efficiency: 0.80,
            price_usd: Some(16_000.0), // an estimate
        },
        scale_up: "mtlink2-8",
        scale_out: "roce-400g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["bf16_flops_per_s", "fp8_flops_per_s", "fp32_flops_per_s", "tdp_w", "price_usd", "host_bytes_per_s"],
        source: source!(
            "Vendor marketing: ldeepai.com article; reportify.ai (MDC 2025 summary: ~1,000 \
                 TF FP8, 80 GB, 1.6 TB/s, 784 GB/s inter-card). Scale-out NIC not sourced \
                 (400G assumed); price: an estimate, no published price found: priced as the Ascend 910B (120,000 yuan, Reuters, early 2024) and the H20 ($12,000-15,000), parts of its class. Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    // ---------------------------------------------------------------- Cambricon
    ChipPreset {
        id: "mlu370-x8",
        name: "Cambricon MLU370-X8 (card: 2 chips)",
        vendor: "Cambricon",
        family: "MLU",
        chip: Chip {
            bf16_flops_per_s: 96.0 * TFLOPS,
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 256.0 * TFLOPS, // Cambricon product figures as commonly cited
            fp32_flops_per_s: 32.0 * TFLOPS,
            hbm_bytes: 48.0 * DATASHEET_GB, // LPDDR5
            hbm_bytes_per_s: 0.6144 * TB_PER_S,
            host_bytes_per_s: 32.0 * GB_PER_S, // PCIe Gen4 x16, one way
            exp_per_s: 0.0,
            tdp_w: 250.0,
            matmul_efficiency: 0.50,
            memory_efficiency: 0.75,
            price_usd: Some(5_000.0), // an estimate
        },
        scale_up: "mlu-link-8",
        scale_out: "roce-200g",
        chips_per_node: 4,
        basis: Basis::Secondary,
        unverified: &["price_usd", "int8_ops_per_s"],
        source: source!(
            "guangxilong.com (Cambricon launch coverage, 2022-03: 96 TF FP16/BF16, 48 GB \
                 LPDDR5, 614.4 GB/s, 250 W, MLU-Link 200 GB/s, bridge joins 4 cards). Node = \
                 one 4-card MLU-Link group; scale-out NIC not sourced (200G assumed); price: an estimate, no published price found: the Ascend 910B's yuan per BF16 TFLOP/s (120,000 yuan, Reuters, early 2024) times its 96 TFLOP/s. Host link: PCIe Gen4 x16 (the vendor's datasheet)"
        ),
    },
    // ---------------------------------------------------------------- Biren
    ChipPreset {
        id: "br100",
        name: "Biren BR100 (OAM)",
        vendor: "Biren",
        family: "BR",
        chip: Chip {
            bf16_flops_per_s: 1024.0 * TFLOPS, // vendor figure; sparsity not stated
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 2048.0 * TFLOPS, // Biren launch figures as commonly cited
            fp32_flops_per_s: 256.0 * TFLOPS,
            hbm_bytes: 64.0 * DATASHEET_GB,
            hbm_bytes_per_s: 1.64 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 550.0,
            matmul_efficiency: 0.50,
            memory_efficiency: 0.80,
            price_usd: Some(15_000.0), // an estimate
        },
        scale_up: "blink-8",
        scale_out: "roce-200g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["bf16_flops_per_s", "price_usd", "int8_ops_per_s"],
        source: source!(
            "tomshardware.com (Biren BR100/BR104 table); techpowerup.com (Hot Chips 34: \
                 550 W, BLink 2.3 TB/s); notebookcheck.com. Scale-out NIC not sourced (200G \
                 assumed); price: an estimate, no published price found: priced as the Ascend 910B-class parts (120,000 yuan, Reuters, early 2024). Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
    ChipPreset {
        id: "br104",
        name: "Biren BR104 (PCIe)",
        vendor: "Biren",
        family: "BR",
        chip: Chip {
            bf16_flops_per_s: 512.0 * TFLOPS, // vendor figure; sparsity not stated
            fp8_flops_per_s: 0.0,
            fp4_flops_per_s: 0.0,
            int8_ops_per_s: 1024.0 * TFLOPS, // Biren launch figures as commonly cited
            fp32_flops_per_s: 128.0 * TFLOPS,
            hbm_bytes: 32.0 * DATASHEET_GB,
            hbm_bytes_per_s: 0.819 * TB_PER_S,
            host_bytes_per_s: 64.0 * GB_PER_S, // PCIe Gen5 x16, one way
            exp_per_s: 0.0,
            tdp_w: 300.0,
            matmul_efficiency: 0.50,
            memory_efficiency: 0.80,
            price_usd: Some(7_500.0), // an estimate
        },
        scale_up: "pcie5-8",
        scale_out: "roce-200g",
        chips_per_node: 8,
        basis: Basis::Secondary,
        unverified: &["bf16_flops_per_s", "price_usd", "int8_ops_per_s"],
        source: source!(
            "tomshardware.com (Biren BR100/BR104 table); techpowerup.com; notebookcheck.com. \
                 PCIe card, 8 per server assumed; scale-out NIC not sourced (200G assumed); price: an estimate, no published price found: half the BR100's, as it is half the chip. Host link: PCIe Gen5 x16 (the vendor's datasheet)"
        ),
    },
];
