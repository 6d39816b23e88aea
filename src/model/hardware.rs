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
    /// Dense FP4 (NVFP4) tensor throughput, FLOP/s; 0 when the chip has no FP4 tensor unit.
    pub fp4_flops_per_s: f64,
    /// Dense INT8 tensor throughput, operations/s; 0 when the chip has none or no figure is
    /// published. INT8 training (`Recipe::Int8`) runs its GEMMs here.
    pub int8_ops_per_s: f64,
    /// Non-tensor FP32 throughput, FLOP/s.
    pub fp32_flops_per_s: f64,
    /// Device memory (HBM or GDDR) capacity, bytes.
    pub hbm_bytes: f64,
    /// Device memory bandwidth, bytes/s.
    pub hbm_bytes_per_s: f64,
    /// The link to the host's memory, one direction, bytes/s: PCIe, or NVLink-C2C where the
    /// chip shares a package with its CPU. Activations offloaded to the host cross it.
    pub host_bytes_per_s: f64,
    /// Exponentials per second of the special-function units the softmax runs on (`MUFU.EX2`);
    /// 0 where no figure is known, and attention is taken as bound by its matrix products.
    /// NVIDIA's SMs issue 16 a clock from Ampere to Blackwell while their dense BF16 tensor
    /// FLOPs a clock went 2,048, 4,096, 8,192 (Zadouri et al. 2026, "FlashAttention-4",
    /// Dao-AILab/flash-attention `assets/fa4_paper.pdf`: tensor throughput doubles from H100
    /// to B200 while the exponential units stay unchanged), and Blackwell Ultra doubles them (NVIDIA, "Making Softmax More Efficient with NVIDIA
    /// Blackwell Ultra", technical blog, 2026): a fused attention kernel's forward pass, one
    /// exponential a query-key pair, is bound by them on Blackwell at 128-wide heads.
    pub exp_per_s: f64,
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
    /// Board power each chip is capped at, W (`nvidia-smi -pl`); 0 without a cap.
    pub power_cap_w: f64,
    /// Chips of each scale-up domain the job places ranks on (64 of an NVL72 rack's 72, as
    /// NVIDIA's Megatron-Bridge launcher lays out jobs larger than a rack); 0 when it uses
    /// them all.
    pub domain_chips: u32,
    /// Chips in one server (node); a scale-up domain spans one or more nodes.
    pub chips_per_node: u32,
    /// Scale-up fabric.
    pub scale_up: ScaleUp,
    /// Chips the scale-up fabric as given links (its own domain); `scale_up.domain_size` may be
    /// set larger, which it cannot build (`Warning::DomainBeyondFabric`).
    pub fabric_domain: u32,
    /// Scale-out fabric; `bytes_per_s` is the NIC bandwidth per chip.
    pub scale_out: Link,
    /// How the scale-out network is built, as far as collectives feel it.
    pub network: Network,
    /// Chips of the whole synchronous job this cluster trains in, with other pools or sites
    /// (`pools::split`, `scenario::Sites`): its data-parallel reduction spans their replicas
    /// too, laid out as its own. 0 (or `n_chips`) when the cluster trains alone.
    pub job_chips: u32,
    /// The best GEMM efficiency published runs show for chips of this one's class, against
    /// which a typed or measured figure is judged (`Warning::EfficiencyAboveClass`); `None`
    /// where nothing was fitted.
    pub class_best: Option<ClassBest>,
}

/// The highest chip GEMM efficiency fitted to published runs in a class of chips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassBest {
    /// The efficiency (`Chip::matmul_efficiency`).
    pub efficiency: f64,
    /// The catalog chip whose runs show it, by name.
    pub chip: &'static str,
    /// It is of the chip's own family; otherwise the family has no published runs and the
    /// best of every accelerator stands for it.
    pub same_family: bool,
}

impl Cluster {
    /// Chips per scale-up domain that ranks are placed on: groups are laid out on domains of
    /// this many chips.
    pub fn rank_domain(&self) -> u32 {
        let domain = self.scale_up.domain_size.max(1);
        match self.domain_chips {
            0 => domain,
            used => used.min(domain),
        }
    }

    /// Data-parallel replicas of the job for `replicas` of this cluster's own: as many more as
    /// the job's chips are to the cluster's (`job_chips`).
    pub fn job_replicas(&self, replicas: u32) -> u32 {
        if self.job_chips <= self.n_chips || self.n_chips == 0 {
            return replicas;
        }
        let scale = self.job_chips as f64 / self.n_chips as f64;
        (replicas as f64 * scale).round().min(u32::MAX as f64) as u32
    }

    /// The power cap as a share of the chip's board power; 1 without a cap or above it.
    pub fn cap_share(&self) -> f64 {
        let tdp = self.chip.tdp_w;
        if self.power_cap_w > 0.0 && tdp > 0.0 {
            (self.power_cap_w / tdp).min(1.0)
        } else {
            1.0
        }
    }

    /// Chips a job can use under the placement: `domain_chips` of each whole domain, and as
    /// many of the last, partial one.
    pub fn usable_chips(&self) -> u32 {
        let domain = self.scale_up.domain_size.max(1);
        let used = self.rank_domain();
        (self.n_chips / domain) * used + (self.n_chips % domain).min(used)
    }

    /// The scale-out link a group whose ranks span `span_chips` consecutive chips gets: the NIC
    /// rate, divided by the top tier's oversubscription when the group leaves its pod.
    pub fn scale_out_for(&self, span_chips: u64) -> Link {
        Link {
            bytes_per_s: self.scale_out.bytes_per_s * self.network.share(span_chips),
            ..self.scale_out
        }
    }
}

/// The scale-out network as collectives feel it, summarised from the fabric (built by the
/// `fabric` module from its graph; the model never sees the graph).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Network {
    /// Chips under one pod, below the top switch tier: a group inside one gets the NIC's full
    /// rate in a non-blocking fat tree.
    pub pod_chips: u64,
    /// Oversubscription of the top tier (7 for Meta's Llama 3 aggregation layer at 1:7): a
    /// group spread over pods gets this fraction of its NIC rate across them, and the slowest
    /// link paces a ring (Llama 3 report, arXiv:2407.21783, §3.3.1).
    pub oversubscription: f64,
    /// Switch tiers of the fabric (1 to 3).
    pub tiers: u32,
    /// The switches reduce all-reduce data as it passes (InfiniBand SHARP, NVLink SHARP).
    pub in_network_reduction: bool,
    /// Each rail is a network of its own (Wang et al. 2023, arXiv:2307.12169): traffic to
    /// another rail first crosses the scale-up domain to the chip on that rail.
    pub rail_only: bool,
}

impl Network {
    /// A non-blocking network of any size: every group gets the NIC's full rate.
    pub const NON_BLOCKING: Network = Network {
        pod_chips: u64::MAX,
        oversubscription: 1.0,
        tiers: 1,
        in_network_reduction: false,
        rail_only: false,
    };

    /// The share of the NIC rate a group spanning `span_chips` consecutive chips gets.
    pub fn share(&self, span_chips: u64) -> f64 {
        if span_chips > self.pod_chips && self.oversubscription > 1.0 {
            1.0 / self.oversubscription
        } else {
            1.0
        }
    }
}

/// A server or rack-scale system: how chips are packaged, powered and bought.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct System {
    /// Chips in one node (a server, or a compute tray of a rack-scale system).
    pub chips_per_node: u32,
    /// Scale-out network ports per chip (one per rail plane).
    pub nics_per_chip: u32,
    /// Node power at its maximum (the power supplies' rating), watts.
    pub node_max_w: f64,
    /// Node power at its measured peak in training, where published, watts; 0 where not. A
    /// site is provisioned for it rather than for `node_max_w` (`System::provisioned_w`).
    pub node_peak_w: f64,
    /// Nodes in one rack as the system's reference design places them.
    pub nodes_per_rack: u32,
    /// Needs direct liquid cooling.
    pub liquid: bool,
    /// Price of one node, USD.
    pub node_price_usd: f64,
    /// Scale-up switch trays in one rack (9 NVLink switch trays in an NVL72 rack; 0 where the
    /// switches sit on the node's own board).
    pub scale_up_switches_per_rack: u32,
}

impl System {
    /// What one node is provisioned for: its measured peak in training where one is
    /// published, its maximum otherwise, never above the maximum, watts.
    pub fn provisioned_w(&self) -> f64 {
        if self.node_peak_w > 0.0 {
            self.node_peak_w.min(self.node_max_w)
        } else {
            self.node_max_w
        }
    }
}

/// A scale-out switch model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Switch {
    /// Ports at `port_bytes_per_s` (a twin-port cage counts as two).
    pub ports: u32,
    /// Line rate of one port, bytes/s.
    pub port_bytes_per_s: f64,
    /// Power at typical load without optics, watts.
    pub power_w: f64,
    /// Price, USD.
    pub price_usd: f64,
    /// Ports served by one transceiver (2 for twin-port OSFP modules).
    pub ports_per_transceiver: u32,
}
