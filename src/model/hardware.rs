//! What a cluster is made of: the accelerator, its scale-up links and its scale-out network.
//!
//! Plain figures in SI base units (bytes, bytes per second, FLOP per second, watts, seconds).
//! This module does not know where a figure came from; `presets` carries the sources.

/// One accelerator, as the model sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chip {
    /// Dense (no 2:4 sparsity) BF16/FP16 tensor throughput, FLOP/s.
    pub bf16_flops_per_s: f64,
    /// Dense FP8 tensor throughput, FLOP/s; 0 when the chip has no FP8 tensor unit.
    pub fp8_flops_per_s: f64,
    /// Non-tensor FP32 throughput, FLOP/s.
    pub fp32_flops_per_s: f64,
    /// Device memory (HBM or GDDR) capacity, bytes.
    pub hbm_bytes: f64,
    /// Device memory bandwidth, bytes/s.
    pub hbm_bytes_per_s: f64,
    /// Board power limit (TDP), watts.
    pub tdp_w: f64,
    /// Best fraction of `bf16_flops_per_s` a large, well-shaped GEMM sustains in training
    /// (clock throttling under the power cap, kernel tails). Scales every GEMM on this chip.
    pub matmul_efficiency: f64,
    /// Fraction of `hbm_bytes_per_s` that streaming element-wise kernels reach.
    pub memory_efficiency: f64,
    /// Street price of one chip, USD, when public.
    pub price_usd: Option<f64>,
}

/// A network a chip talks over: the scale-up links inside a domain, or the scale-out NIC.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Line rate per chip in one direction, bytes/s.
    pub bytes_per_s: f64,
    /// Per-message latency of one collective step (alpha in the alpha-beta model), seconds.
    pub latency_s: f64,
    /// Fraction of the line rate that large collectives reach (NCCL "bus bandwidth" / line rate).
    pub efficiency: f64,
}

impl Link {
    /// Achievable bandwidth per chip in one direction, bytes/s.
    pub fn achievable_bytes_per_s(&self) -> f64 {
        (self.bytes_per_s * self.efficiency).max(1.0)
    }
}

/// The scale-up fabric (NVLink, Infinity Fabric, HCCS, MTLink, PCIe): fast links inside a domain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleUp {
    /// Per-chip link.
    pub link: Link,
    /// Chips that reach each other over `link` (8 for an HGX board, 72 for NVL72).
    pub domain_size: u32,
}

/// The whole machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    /// The accelerator, all chips alike.
    pub chip: Chip,
    /// Chips in the cluster (the job may use fewer; see `Parallelism`).
    pub n_chips: u32,
    /// Chips in one server (node); a scale-up domain spans one or more nodes.
    pub chips_per_node: u32,
    /// Scale-up fabric.
    pub scale_up: ScaleUp,
    /// Scale-out fabric; `bytes_per_s` is the NIC bandwidth per chip.
    pub scale_out: Link,
}
