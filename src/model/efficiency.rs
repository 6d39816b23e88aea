//! How close real kernels and collectives come to their peaks: curves and factors as data.
//!
//! Calculon (Isaev et al. 2023, "Calculon: a methodology and tool for high-level co-design of
//! systems and large language models", SC'23) keeps efficiency figures next to the machine
//! description rather than inside formulas; this module does the same. The chip-specific best
//! GEMM fraction lives on `Chip::matmul_efficiency`; everything here is shared by all chips.

/// Time a GEMM-like kernel loses beyond its ideal duration once it is long enough to fill the
/// chip: prologue, epilogue and the last partial wave of tiles, seconds. Short kernels lose in
/// proportion to their length (a 1 us GEMM runs at about half speed), long ones a fixed amount
/// (a 100 us GEMM at about 80%, a 1 ms one at 97%); the shape of cuBLAS throughput against size
/// (NVIDIA, "Matrix Multiplication Background User's Guide", wave quantization).
pub const GEMM_TAIL_S: f64 = 25e-6;

/// Duration of a kernel whose ideal duration at the achievable rate is `ideal` seconds:
/// `ideal + tail (1 - exp(-ideal / tail))`, which grows with the work, never shrinks.
pub fn kernel_s(ideal: f64) -> f64 {
    let ideal = ideal.max(0.0);
    // Past 37 tails `exp(-37)` is below half an ulp of 1, so the tail is whole, bit for bit,
    // and the exponential (a search asks this of every GEMM of every plan) can be skipped.
    if ideal > 37.0 * GEMM_TAIL_S {
        return ideal + GEMM_TAIL_S;
    }
    ideal + GEMM_TAIL_S * (1.0 - (-ideal / GEMM_TAIL_S).exp())
}

/// Contraction depth at which a GEMM tile's fixed work (its prologue, and the epilogue that
/// writes its output) takes as long as its main loop: a GEMM contracting `k` runs at
/// `k / (k + GEMM_DEPTH_HALF)` of its long-contraction speed. Fitted to two sources, which
/// agree: DeepGEMM's FP8 GEMMs on H800 for M = 4,096 (K = 512 to 16,384: 590 to 1,358
/// TFLOP/s; deepseek-ai/DeepGEMM README at a6d97a1, "Normal GEMMs for dense models") give 675,
/// and BF16 `torch.matmul` on H200 (2,048 to 8,192 cubed: 36 % to 77 % of peak;
/// `data/h200-measured.md`) 550, each with `kernel_s`'s tail. Fine-grained
/// experts are where it shows: Qwen3-30B-A3B's experts contract 768 wide in the forward pass.
pub const GEMM_DEPTH_HALF: f64 = 600.0;

/// Contraction depth from which a GEMM runs at the chip's fitted efficiency
/// (`Chip::matmul_efficiency`); deeper ones run no faster, so no kernel beats the bound a
/// search prunes with (`search::days_bound`).
pub const GEMM_DEPTH_REFERENCE: f64 = 8192.0;

/// Speed of a GEMM contracting `k`, relative to one contracting `GEMM_DEPTH_REFERENCE`: at
/// most 1.
pub fn depth_share(k: f64) -> f64 {
    let share = |k: f64| k / (k + GEMM_DEPTH_HALF);
    (share(k.max(1.0)) / share(GEMM_DEPTH_REFERENCE)).min(1.0)
}

/// Slowdown of a linear layer's three GEMMs of `m x k` by `k x n`, averaged: the forward GEMM
/// contracts `k`, the input gradient `n`, the weight gradient `m` (the tokens), and the
/// backward pass's two GEMMs take as long as the forward one twice.
pub fn depth_slowdown(m: f64, n: f64, k: f64) -> f64 {
    (1.0 / depth_share(k) + 1.0 / depth_share(n) + 1.0 / depth_share(m)) / 3.0
}

/// Fused attention forward throughput relative to the chip's best GEMM rate.
/// FlashAttention-2 reaches about 70% of A100 peak forward against about 80% for cuBLAS GEMMs
/// (Dao 2023, arXiv:2307.08691, Fig. 4-5).
pub const FLASH_FWD_RELATIVE: f64 = 0.85;

/// Fused attention backward throughput relative to the chip's best GEMM rate
/// (FlashAttention-2 backward: about 55-60% of A100 peak; Dao 2023, Fig. 6).
pub const FLASH_BWD_RELATIVE: f64 = 0.70;

/// Backward FLOPs of fused attention per forward FLOP: five matmuls against two, because the
/// scores are recomputed (Dao 2023, §3.1.2).
pub const FLASH_BWD_FLOP_RATIO: f64 = 2.5;

/// Fraction of the FP8 peak an FP8 GEMM reaches relative to a BF16 GEMM's fraction of its peak:
/// per-tile scaling and the FP32 promotion every 128 elements cost issue slots
/// (DeepSeek-V3 report, arXiv:2412.19437, §3.3.2).
pub const FP8_GEMM_RELATIVE: f64 = 0.80;

/// Fraction of its peak a block-scaled MXFP8 or NVFP4 GEMM reaches relative to a BF16 GEMM's
/// fraction of its peak, before quantizing its inputs (`QUANTIZE_*_BYTES`): the scales are
/// applied by the tensor cores themselves on Blackwell, as FP8's per-tile scales cost DeepSeek
/// on Hopper (`FP8_GEMM_RELATIVE`) at most. Transformer Engine's B300 GEMM benchmark gives
/// delayed-scaling FP8 1.61x BF16 against a 2x peak (0.80), MXFP8 1.44x (0.72, its quantizing
/// included) and NVFP4 2.03x against a 6x peak (docs `features/low_precision_training`).
pub const BLOCK_SCALED_GEMM_RELATIVE: f64 = 0.80;

/// Bytes moved per element to quantize a GEMM input to MXFP8: read BF16 (2), write E4M3 (1)
/// and one E8M0 scale per 32 elements (Transformer Engine `MXFP8BlockScaling`).
pub const QUANTIZE_MXFP8_BYTES: f64 = 2.0 + 1.0 + 1.0 / 32.0;

/// Bytes moved per element to quantize a GEMM input to NVFP4: read BF16 once for the tensor's
/// absolute maximum (the FP32 tensor scale) and again to quantize (2 + 2), write E2M1 (0.5)
/// and one E4M3 scale per 16 elements (NVIDIA, arXiv:2509.25149; Transformer Engine
/// `NVFP4BlockScaling`). The weight-gradient GEMM's inputs also pass a 16x16 Hadamard
/// transform, which the backward pass's two GEMMs' worth of quantizing covers.
pub const QUANTIZE_NVFP4_BYTES: f64 = 2.0 + 2.0 + 0.5 + 1.0 / 16.0;

/// Bytes moved per element to quantize a GEMM operand to INT8 on the fly, as Accurate Quantized
/// Training does for every operand of every pass, the weights included: read BF16 for the
/// absolute maximum that sets the scale (2), read it again to scale and round (2), write INT8
/// (1) (AQT's dynamic scales; MaxText `layers/quantizations.py`). The random bits of the
/// gradients' stochastic rounding are not priced.
pub const QUANTIZE_INT8_BYTES: f64 = 2.0 + 2.0 + 1.0;

/// Share of linear layers NVFP4 training keeps in BF16: the first 2 and last 8 of the 12B
/// model's 62 blocks (NVIDIA, arXiv:2509.25149), about 16 %.
pub const NVFP4_BF16_LAYER_SHARE: f64 = 10.0 / 62.0;

/// Bytes a norm moves per element of its tokens' width: its BF16 input read and its output
/// written.
pub const NORM_BYTES_PER_ELEMENT: f64 = 4.0;

/// Bytes a residual addition moves per element: the two BF16 summands read and their sum
/// written.
pub const RESIDUAL_BYTES_PER_ELEMENT: f64 = 6.0;

/// Bytes an element-wise backward kernel moves per byte its forward kernel moved: it reads the
/// saved input and the incoming gradient and writes the outgoing gradient.
pub const ELEMENTWISE_BWD_BYTE_RATIO: f64 = 2.0;

/// Shortest time any kernel takes, launch and synchronisation included, seconds.
/// CUDA kernel launch overhead is about 3-5 us (NVIDIA CUDA C++ Best Practices Guide).
pub const KERNEL_FLOOR_S: f64 = 4e-6;

/// Bus bandwidth a ring collective loses per doubling of the nodes it spans beyond four: the
/// reduce-scatter bus bandwidth of H100 nodes over InfiniBand falls from 360 GB/s at 4 nodes
/// to 345, 320, 300, 280 and 260 GB/s at 8, 16, 32, 64 and 128 (NVIDIA/nccl issue 1229,
/// 2024), about 5.6 % of the 4-node figure per doubling: the inter-node ring's steps, flows
/// colliding on the same spine links under ECMP hashing and congestion at scale (Meta, "RDMA
/// over Ethernet for Distributed AI Training at Meta Scale", SIGCOMM'24, reports up to 40 %
/// collective bandwidth recovered by spreading flows).
pub const RING_LOSS_PER_DOUBLING: f64 = 0.0556;

/// Nodes up to which a ring keeps its link's measured bus bandwidth (`RING_LOSS_PER_DOUBLING`).
pub const RING_FULL_NODES: f64 = 4.0;

/// Least share of its 4-node bus bandwidth a ring keeps however many nodes it spans: the
/// decline is measured to 128 nodes and continued beyond, but not below half.
pub const RING_LEAST_SHARE: f64 = 0.5;

/// Share of its link's bus bandwidth a ring collective over `nodes` scale-up domains reaches.
pub fn ring_share(nodes: f64) -> f64 {
    if nodes <= RING_FULL_NODES {
        return 1.0;
    }
    let doublings = (nodes / RING_FULL_NODES).max(1.0).log2();
    (1.0 - RING_LOSS_PER_DOUBLING * doublings).max(RING_LEAST_SHARE)
}

/// Bytes the fused vocabulary-parallel cross entropy moves per logit in the forward pass and
/// the backward pass. Megatron-Core's fused kernel takes 18.23 ms forward and backward for
/// 8,192 tokens over a 131,072-word vocabulary on an H100 (the unfused one 21.25 ms;
/// linkedin/Liger-Kernel benchmark/data/all_benchmark_data.csv at 2120862b, kernel
/// `megatron_cross_entropy`, liger 0.8.0): 45.5 bytes per logit at 80 % of 3.35 TB/s, split
/// as the passes' reads and writes of the FP32 statistics divide them (10 to 6).
pub const LOSS_FWD_BYTES: f64 = 28.4;
/// See `LOSS_FWD_BYTES`.
pub const LOSS_BWD_BYTES: f64 = 17.1;

/// Tokens the busiest expert-parallel rank routes, over the mean, in dropless training with
/// the usual balancing: with no auxiliary loss, MoE layers of 128 experts over EP 8 on H100
/// lose 18.6 % of their time waiting on the slowest device (FEPLB, arXiv:2604.19654), and
/// Qwen3-235B on 256 H100 runs 8-20 % slower a step with its own routing than with the tokens
/// forced into balance (Megatron-MoE-ModelZoo best_practice/qwen3/readme.md at e8650517):
/// the busiest rank carries about a fifth more than the mean.
pub const ROUTING_IMBALANCE: f64 = 1.2;

/// Fraction of link bandwidth an all-to-all reaches relative to a ring collective:
/// many small messages to many peers (DeepSeek-V3 report §3.2.2 reports ~40 of 50 GB/s on IB).
pub const ALL_TO_ALL_RELATIVE: f64 = 0.8;

/// Share of a link's line rate that host-staged TCP reaches between pools of different vendors
/// (device to host, sockets, host to device), where RDMA reaches nearly all of it. NCCL's socket
/// transport reports 32-48% of a 100 Gb/s line (4-6 GB/s all-reduce bus bandwidth, NVIDIA/nccl
/// issue 450) and 54% of a 25 Gb/s one (1.7 GB/s, NVIDIA/nccl-tests issue 83), against 98% over
/// InfiniBand (12.2 GB/s of 100 Gb/s, NVIDIA/nccl-tests issue 29). User reports, not a study.
pub const HOST_STAGED_SHARE: f64 = 0.45;

/// Start-up a host-staged TCP transfer adds to the network's own latency, seconds: a small
/// NCCL collective takes about 20 us between two nodes over InfiniBand (NVIDIA/nccl-tests
/// issue 150) and 38-46 us over sockets (issue 82, other machines).
pub const HOST_STAGED_LATENCY_S: f64 = 22e-6;

/// Fraction of the chip's achievable BF16 GEMM rate that Mamba-2's chunked scan kernels reach:
/// they are bound by memory and launch latency, not by their small matrix products. The
/// reference Triton kernels (mamba-ssm 2.2) run the forward scan at 80-105 TFLOP/s on H100
/// (vLLM pull request 27299: 1.07-1.29e7 tokens/s at 128 heads of 64, state 128) and its
/// main kernel at 90-110 TFLOP/s on H800 (tile-ai/tilelang's mamba2 benchmark): about 100 of
/// the 593 TFLOP/s an H100 GEMM reaches at `matmul_efficiency` 0.6. No backward figure was
/// found; the backward is taken to run as fast, on twice the work.
pub const SSD_SCAN_RELATIVE: f64 = 0.17;

/// Fraction of the chip's achievable BF16 GEMM rate that Gated DeltaNet's chunked kernels
/// (FLA's `chunk_gated_delta_rule`, Triton, chunks of 64) reach in the forward pass, counting
/// `6 d_k d_v + 6 C d_k + 4 C d_v` FLOPs a token and head: 70 TF/s on H800 at 128-wide heads
/// (PaddlePaddle/flash-attention pull request 133, B1 T8192 H96 and B2 T16384 H16), 0.12 of
/// its 593 TF/s GEMM rate; 119-151 TF/s on B200 (pytorch/helion examples/linear/BENCHMARKS.md
/// at c1e8534a), about 0.09 of its. Taken as 0.1.
pub const DELTA_RULE_FWD_RELATIVE: f64 = 0.1;

/// Backward time of Gated DeltaNet's chunked kernels per forward time: forward and backward
/// together take 4.5-4.7 times the forward alone at every shape of helion's B200 table (same
/// source), more than twice the work because the backward recomputes the chunk states.
pub const DELTA_RULE_BWD_TIME_RATIO: f64 = 3.5;

/// Fraction of the chip's achievable BF16 GEMM rate that RWKV-7's official CUDA kernel
/// (RWKV-LM's backstepping kernel in FP32, chunks of 16) reaches forward and backward, counted
/// as the delta rule's FLOPs: 17 ms for both passes at B8 T4096 and 64 heads of 64 on H100
/// (johanwind/wind_rwkv README, "Kernel benchmarks for RWKV-7", at 59fe6316), 12.9 TF/s of the
/// 593 an H100 GEMM reaches. The chunked BF16 kernel of the same project runs twice as fast.
pub const RWKV7_KERNEL_RELATIVE: f64 = 0.022;

/// Fraction of a micro-batch's compute that can hide the ZeRO-3/FSDP parameter gathers of the
/// next layer (prefetch), the rest competing for the same memory bandwidth and SMs.
pub const PREFETCH_OVERLAP: f64 = 0.9;

/// Compute slowdown per second of communication hidden under it: the collective's kernels take
/// streaming multiprocessors and memory bandwidth from the GEMMs they overlap. Reported
/// slowdowns of overlapped GEMMs are roughly 10-40% (Wang et al. 2023, "Overlap communication
/// with dependent computation via decomposition", ASPLOS'23, §2; Chang et al. 2024, FLUX,
/// arXiv:2406.06858, §1); a quarter of the hidden time is charged back.
pub const OVERLAP_INTERFERENCE: f64 = 0.25;

/// Critical-path seconds of `link` seconds of communication of which all but `exposed` hides
/// under compute: the exposed part plus the slowdown the hidden part causes.
pub fn with_interference(link: f64, exposed: f64) -> f64 {
    interfered(OVERLAP_INTERFERENCE, link, exposed)
}

/// As `with_interference`, `slowdown` charged per second hidden.
pub fn interfered(slowdown: f64, link: f64, exposed: f64) -> f64 {
    exposed + slowdown * (link - exposed).max(0.0)
}

/// Critical-path seconds of `link` seconds of communication overlapped with `window` seconds
/// of compute: what the window cannot cover, plus interference for what it does.
pub fn overlapped(link: f64, window: f64) -> f64 {
    with_interference(link, (link - window).max(0.0))
}

/// The least bandwidth, bytes/s, at which a step waits at most `budget` seconds on a link,
/// `waits(bandwidth)` being those seconds and falling as the bandwidth grows; infinite where
/// no bandwidth is enough. Searched from a milli-byte to 10^21 bytes a second, to a relative
/// 10^-12: the links priced wait piecewise linearly in the inverse of the bandwidth, so false
/// position in that inverse (Illinois' variant, which halves a stale end's weight; Dowell and
/// Jarratt 1971) lands in a few steps where bisection takes fifty; every third step halves the
/// bracket's logarithm, so no shape is slower than bisection by more than a third.
pub fn least_rate(budget: f64, waits: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (1e-3f64, 1e21f64);
    let over = |b: f64| waits(b) - budget;
    let mut f_hi = over(hi);
    if !(f_hi <= 0.0) {
        return f64::INFINITY;
    }
    let mut f_lo = over(lo);
    if f_lo <= 0.0 {
        return lo;
    }
    // `lo` waits too long (`f_lo > 0`), `hi` does not (`f_hi <= 0`). A false-position point
    // lands on the threshold itself where the wait is linear, so the point a hair across it
    // is tried next, closing the bracket at once.
    const HAIR: f64 = 1e-12;
    let mut kept = 0i8;
    let mut step = 0u32;
    while hi > lo * (1.0 + HAIR) && step < 200 {
        step += 1;
        let (u_lo, u_hi) = (1.0 / lo, 1.0 / hi);
        let u = u_hi + (u_lo - u_hi) * (-f_hi / (f_lo - f_hi));
        let secant = step % 3 != 0 && u > 0.0 && 1.0 / u > lo && 1.0 / u < hi;
        let mid = if secant { 1.0 / u } else { (lo * hi).sqrt() };
        if !(mid > lo && mid < hi) {
            break;
        }
        let f = over(mid);
        let across = if f <= 0.0 {
            hi = mid;
            f_hi = f;
            if kept == 1 {
                f_lo *= 0.5;
            }
            kept = 1;
            mid / (1.0 + 0.5 * HAIR)
        } else {
            lo = mid;
            f_lo = f;
            if kept == -1 {
                f_hi *= 0.5;
            }
            kept = -1;
            mid * (1.0 + 0.5 * HAIR)
        };
        if secant && across > lo && across < hi {
            let g = over(across);
            if g <= 0.0 {
                hi = across;
                f_hi = g;
            } else {
                lo = across;
                f_lo = g;
            }
        }
    }
    hi
}

/// Spread of speed among chips of one model, as a standard deviation relative to the median:
/// Sinha et al. 2022 ("Not All GPUs Are Created Equal", SC'22, arXiv:2208.11035) measure an
/// average 8% spread between the fastest and slowest of the thousands of identical GPUs in each
/// of five clusters, from power management and manufacturing variation. For a normal spread
/// the range over `n` chips is about `2 z(n)` standard deviations, and `z` is about 3.4 for a
/// few thousand chips, so the deviation is about 8% / 6.8.
pub const CHIP_SPEED_SPREAD: f64 = 0.08 / 6.8;

/// Slowdown of a synchronous step on `n` chips relative to a median chip: the expected
/// slowest of `n` draws, `CHIP_SPEED_SPREAD * z(n)`, with `z(n)` the expected largest of `n`
/// standard normals by Blom's formula, `Phi^-1((n - 0.375) / (n + 0.25))` (Blom 1958). Every
/// chip waits for the slowest at each collective, so the whole job runs at its pace (MegaScale,
/// arXiv:2402.15627, §5: "training efficiency is predominantly determined by the slowest
/// machine"; Llama 3 report, arXiv:2407.21783, §3.3.4).
pub fn slowest_of(n: u32) -> f64 {
    if n <= 1 {
        return 0.0;
    }
    let n = n as f64;
    CHIP_SPEED_SPREAD * normal_quantile((n - 0.375) / (n + 0.25))
}

/// Upper quantile of the standard normal for `p` in (0.5, 1), within 4.5e-4
/// (Abramowitz and Stegun 1964, 26.2.23).
fn normal_quantile(p: f64) -> f64 {
    let q = (1.0 - p).clamp(1e-300, 0.5);
    let t = (-2.0 * q.ln()).sqrt();
    let num = 2.515517 + 0.802853 * t + 0.010328 * t * t;
    let den = 1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t;
    (t - num / den).max(0.0)
}

/// Lowest power cap, as a share of board power, that published measurements cover; below it
/// the speed curves of different chips part ways (an A40 keeps a quarter of its speed at a
/// third of its power, an H100 nearly two fifths).
pub const CAP_MEASURED_FROM: f64 = 0.3;

/// Share of a chip's uncapped GEMM speed it keeps under a power cap of `cap` of its board
/// power (1 without a cap or above the board power): `(1 - e^(-4 (x - 0.2))) / (1 - e^(-3.2))`,
/// through the published curves of training under `nvidia-smi -pl`. Llama 3 8B continued
/// pre-training on H100 SXM keeps 0.92 of its speed at 500 W, 0.82 at 400 W and 0.59 at
/// 300 W (Mayr et al. 2026, arXiv:2603.16164, Table 4); BERT fine-tuning on V100 keeps 0.89 at
/// 70% and 0.80 at 60% of its limit (Zeus, You et al. NSDI'23, its released power trace). The
/// cap throttles the SM clock, so memory bandwidth and links keep their speed.
pub fn capped_speed(cap: f64) -> f64 {
    if !(cap > 0.0 && cap < 1.0) {
        return 1.0;
    }
    let x = cap.max(CAP_MEASURED_FROM);
    (1.0 - (-4.0 * (x - 0.2)).exp()) / (1.0 - (-3.2f64).exp())
}

/// Upper end of the inlet temperatures data halls are run at, °C: ASHRAE TC 9.9's recommended
/// envelope of 18-27 °C (as widely quoted). The calibration runs ran in such halls, so their
/// speed is the speed at or below it.
pub const INLET_RECOMMENDED_C: f64 = 27.0;

/// Speed an air-cooled chip loses per kelvin its die runs hotter, as a share: two 8 x H100
/// nodes ran 46 TFLOP/s per GPU on air at 54-72 °C and 54 on liquid at 41-50 °C (Latif et al.
/// 2025, arXiv:2507.16781), 15 % slower for about 17.5 K; Llama 3's 1-2 % swing of throughput
/// between day and night from "higher mid-day temperatures" (arXiv:2407.21783, §3.3.4) is the
/// same slope over a swing of a degree or two.
pub const AIR_THROTTLE_PER_K: f64 = (1.0 - 46.0 / 54.0) / 17.5;

/// Share of its speed a chip keeps at a site's inlet temperature `inlet_c`: an air-cooled chip
/// slows by `AIR_THROTTLE_PER_K` for every degree above `INLET_RECOMMENDED_C` (the die follows
/// the air it is cooled by), one on a cold plate (liquid, hybrid) keeps its speed. Never below
/// half.
pub fn thermal_speed(air_cooled: bool, inlet_c: f64) -> f64 {
    if !air_cooled || !(inlet_c > INLET_RECOMMENDED_C) {
        return 1.0;
    }
    (1.0 - AIR_THROTTLE_PER_K * (inlet_c - INLET_RECOMMENDED_C)).max(0.5)
}

/// All-reduce speed with in-network reduction over a ring's on the same links: NVLink SHARP on
/// eight H100 reaches about 480 GB/s of bus bandwidth where rings reach 370 (NCCL maintainers,
/// NVIDIA/nccl-tests issue 212 and NVIDIA/nccl issue 1442: "a 30% improvement"). Switches that
/// reduce (InfiniBand SHARP) halve the data a rank sends, as NVLink SHARP does; no measured
/// gain of their own at scale was found, so they take the same.
pub const IN_NETWORK_ALLREDUCE_GAIN: f64 = 480.0 / 370.0;
