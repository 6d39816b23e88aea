//! Mixed fleets against what was published. HexiScale (arXiv:2409.01143) trains 7B to 30B
//! models on heterogeneous GPUs and reports MFU within 0.3 % to 11.6 % of homogeneous high-end
//! GPUs of the same total peak (3.5 % on average). The model's figure for a like case: Llama 3
//! 8B on 128 H100 against 64 H100 beside 200 A100 (the same BF16 peak within 1 %), the split
//! its search finds (`model::pools::best_split`), the pools joined by the fabric both share.
//!
//! DiLoCo (arXiv:2311.08105) exchanges 500 times less than synchronous data parallelism at 500
//! inner steps, and Streaming DiLoCo (arXiv:2501.18512, Table 4) gives the bandwidth each method
//! needs for 95 % compute utilisation; the model's figures for two sites of 8,192 H100 training
//! Llama 3 70B.

use crate::model::pools::{best_split, Across, Between};
use crate::model::{estimate, Inputs};
use crate::scenario::Scenario;

/// MFU of the homogeneous cluster and of the mixed fleet of the same peak, and the gap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FleetCheck {
    pub homogeneous_mfu: f64,
    pub mixed_mfu: f64,
}

impl FleetCheck {
    /// How far the mixed fleet's MFU falls below the homogeneous one's, as a share of it.
    pub fn gap(&self) -> f64 {
        1.0 - self.mixed_mfu / self.homogeneous_mfu
    }
}

/// Llama 3 8B on `chips` of `chip`, TP 2.
fn cluster(chip: &str, chips: u32) -> Option<Inputs> {
    Scenario::default_plan()
        .with("model.preset", Some(serde_json::json!("llama3-8b")))
        .with("training.global_batch", Some(serde_json::json!(512)))
        .with("cluster.chip", Some(serde_json::json!(chip)))
        .with("cluster.chips", Some(serde_json::json!(chips)))
        .with("parallelism.tp", Some(serde_json::json!(2)))
        .with("parallelism.pp", Some(serde_json::json!(1)))
        .with("parallelism.cp", Some(serde_json::json!(1)))
        .with("parallelism.virtual_stages", Some(serde_json::json!(1)))
        .resolve()
        .ok()
}

/// The HexiScale-like case.
pub fn hexiscale() -> Option<FleetCheck> {
    let homogeneous = cluster("h100-sxm", 128)?;
    let pools = [cluster("h100-sxm", 64)?, cluster("a100-80gb", 200)?];
    // The pools share one fabric: the link between them is the smaller pool's 400 Gb/s per GPU.
    let between = Between { bytes_per_s: 64.0 * 400e9 / 8.0, latency_s: 10e-6 };
    let best = best_split(&pools, between);
    let peak: f64 =
        pools.iter().map(|p| p.cluster.n_chips as f64 * p.cluster.chip.bf16_flops_per_s).sum();
    let flops = estimate(&pools[0]).model_flops_per_step;
    let mixed_mfu = flops / (best.job.step_s * peak);
    Some(FleetCheck { homogeneous_mfu: estimate(&homogeneous).mfu, mixed_mfu })
}

/// Two sites' wide-area traffic and the bandwidth each needs, by how they synchronise.
#[derive(Clone, Debug, PartialEq)]
pub struct WanCheck {
    /// Each way of synchronising as the table names it, with the bytes each site sends per step
    /// and the Gb/s it needs for 95% of one site's speed.
    pub rows: Vec<(&'static str, f64, f64)>,
}

impl WanCheck {
    fn row(&self, name: &str) -> Option<(f64, f64)> {
        self.rows.iter().find(|r| r.0 == name).map(|r| (r.1, r.2))
    }

    /// How many times less DiLoCo at 500 inner steps sends per step than synchronous training.
    pub fn traffic_cut_at_500(&self) -> f64 {
        match (self.row("synchronous"), self.row("DiLoCo, H = 500")) {
            (Some(sync), Some(diloco)) if diloco.0 > 0.0 => sync.0 / diloco.0,
            _ => 0.0,
        }
    }

    /// How many times less bandwidth the way named needs than synchronous training, for 95%
    /// of one site's speed.
    pub fn bandwidth_cut(&self, name: &str) -> f64 {
        match (self.row("synchronous"), self.row(name)) {
            (Some(sync), Some(other)) if other.1 > 0.0 => sync.1 / other.1,
            _ => 0.0,
        }
    }
}

/// Two sites of 8,192 H100 training Llama 3 70B (TP 8, PP 4), 1,000 km apart, over links fast
/// enough that the job uses both however they synchronise.
pub fn diloco() -> Option<WanCheck> {
    use serde_json::json;
    let plan = |how: serde_json::Value| {
        let s = Scenario::default_plan()
            .with("model.preset", Some(json!("llama3-70b")))
            .with("training.global_batch", Some(json!(2048)))
            .with("cluster.chip", Some(json!("h100-sxm")))
            .with("cluster.chips", Some(json!(8192)))
            .with("cluster.site", Some(json!("east")))
            .with(
                "cluster.pools",
                Some(json!([{ "chip": "h100-sxm", "chips": 8192, "site": "west" }])),
            )
            .with("cluster.between_pools", Some(json!({ "gbit_per_s": 100_000, "rdma": true })))
            .with("parallelism.tp", Some(json!(8)))
            .with("parallelism.pp", Some(json!(4)))
            .with(
                "sites",
                Some(json!([
                    { "name": "east", "wan_gbit_per_s": 100_000 },
                    { "name": "west", "wan_gbit_per_s": 100_000 }
                ])),
            );
        let mut s = s;
        for (key, value) in how.as_object()?.clone() {
            s = s.with(&format!("parallelism.{key}"), Some(value));
        }
        let base = s.resolve().ok()?;
        let e = s.sites().ok()??.job(&base);
        let steps = match s.get("parallelism.diloco_inner_steps").and_then(|v| v.as_f64()) {
            Some(h) if s.get("parallelism.across_sites") == Some(json!("diloco")) => h,
            _ => 1.0,
        };
        Some((e.wan.bytes_per_sync / steps, e.wan.gbit_per_s_needed))
    };
    let cases: [(&'static str, serde_json::Value); 4] = [
        ("synchronous", json!({ "across_sites": "sync" })),
        ("DiLoCo, H = 100", json!({ "across_sites": "diloco", "diloco_inner_steps": 100 })),
        ("DiLoCo, H = 500", json!({ "across_sites": "diloco", "diloco_inner_steps": 500 })),
        (
            "Streaming DiLoCo, H = 100",
            json!({ "across_sites": "diloco", "diloco_inner_steps": 100, "diloco_streaming": true }),
        ),
    ];
    let mut rows = Vec::new();
    for (name, how) in cases {
        let (bytes, gbit) = plan(how)?;
        rows.push((name, bytes, gbit));
    }
    Some(WanCheck { rows })
}

/// A job over three kinds of GPU split as a heterogeneity-unaware planner splits it (equal
/// shares of the batch) and as the model's search splits it: tokens per second of each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitCheck {
    pub equal_tokens_per_s: f64,
    pub best_tokens_per_s: f64,
}

impl SplitCheck {
    /// How many times faster the split found is than the equal one.
    pub fn speedup(&self) -> f64 {
        if self.equal_tokens_per_s > 0.0 {
            self.best_tokens_per_s / self.equal_tokens_per_s
        } else {
            0.0
        }
    }
}

/// Metis's like case (USENIX ATC'24 compares against planners that split evenly over three
/// GPU types): Llama 3 8B with TP 4 on 32 H100, 32 A100 80GB and 32 V100 32GB, joined by a
/// 100 Gb/s-per-GPU fabric.
pub fn metis() -> Option<SplitCheck> {
    let pool = |chip: &str| {
        Scenario::default_plan()
            .with("model.preset", Some(serde_json::json!("llama3-8b")))
            .with("training.global_batch", Some(serde_json::json!(768)))
            .with("cluster.chip", Some(serde_json::json!(chip)))
            .with("cluster.chips", Some(serde_json::json!(32)))
            .with("parallelism.tp", Some(serde_json::json!(4)))
            .with("parallelism.pp", Some(serde_json::json!(1)))
            .with("parallelism.cp", Some(serde_json::json!(1)))
            .with("parallelism.virtual_stages", Some(serde_json::json!(1)))
            .resolve()
            .ok()
    };
    let pools = [pool("h100-sxm")?, pool("a100-80gb")?, pool("v100-sxm2-32gb")?];
    let between = Between { bytes_per_s: 32.0 * 100e9 / 8.0, latency_s: 10e-6 };
    let solo: Vec<_> = pools.iter().map(estimate).collect();
    let third = [1.0 / 3.0; 3];
    let equal = crate::model::pools::split(&pools, &solo, Across::Data, &third, between);
    let best = best_split(&pools, between);
    Some(SplitCheck {
        equal_tokens_per_s: equal.tokens_per_s,
        best_tokens_per_s: best.job.tokens_per_s,
    })
}

/// The comparison as a section of `docs/accuracy.md`.
pub fn markdown() -> String {
    let mut out = String::from("\n## Mixed fleets\n\n");
    out.push_str("HexiScale (arXiv:2409.01143) reports heterogeneous GPUs of the same total BF16 peak reaching MFU within 0.3 % to 11.6 % of homogeneous high-end GPUs (3.5 % on average) for 7B to 30B models. The model's like case: Llama 3 8B, TP 2, 512 sequences a step, on 128 H100 against 64 H100 beside 200 A100 80GB (the same peak within 1 %), the mixed fleet split as the model's search finds best, the pools sharing one 400 Gb/s-per-GPU fabric.\n\n");
    out.push_str("| cluster | MFU |\n|---|---:|\n");
    match hexiscale() {
        Some(c) => {
            out.push_str(&format!("| 128 H100 | {:.1}% |\n", 100.0 * c.homogeneous_mfu));
            out.push_str(&format!("| 64 H100 + 200 A100 | {:.1}% |\n\n", 100.0 * c.mixed_mfu));
            let gap = c.gap();
            let said = if gap >= 0.0 {
                format!("{:.1}% below the homogeneous one's", 100.0 * gap)
            } else {
                format!("{:.1}% above the homogeneous one's", -100.0 * gap)
            };
            let verdict = if (0.003..=0.116).contains(&gap) {
                "within HexiScale's published range."
            } else {
                "outside HexiScale's published range of 0.3 % to 11.6 % below: the model has no loss of its own for mixing chips (partitions that cannot follow speed exactly, kernels tuned for one chip; the slowest chip of every pool is waited for, but not kinds of chip that vary more than one), so it reads mixed fleets as efficient as their parts, and a mixed fleet's estimate is likely a few percent fast."
            };
            out.push_str(&format!(
                "The mixed fleet's MFU is {said}: {verdict} HexiScale's configurations are not public in full, so this checks the order of the loss, not a row.\n"
            ));
        }
        None => out.push_str("| (the case does not resolve) | |\n"),
    }
    out.push_str(&metis_markdown());
    out.push_str(&diloco_markdown());
    out
}

/// The Metis comparison.
fn metis_markdown() -> String {
    let mut out = String::from("\nMetis (USENIX ATC'24) trains on three GPU types 1.05 to 8.43 times faster than planners that ignore their differences and split the work evenly. The model's like case: Llama 3 8B, TP 4, 768 sequences a step, on 32 H100, 32 A100 80GB and 32 V100 32GB, split evenly by data and as the model's search splits them.\n\n");
    match metis() {
        Some(c) => {
            let verdict = if (1.05..=8.43).contains(&c.speedup()) {
                "within Metis's published range: an even split waits on the V100s every step"
            } else {
                "outside Metis's published range"
            };
            out.push_str(&format!(
                "| split | tokens/s |\n|---|---:|\n| even | {} |\n| found | {} |\n\nThe split found is {:.2} times faster, {verdict}. Metis's plans also change each pool's parallel degrees, which the model's split leaves as each pool's own.\n",
                crate::numbers::format(c.equal_tokens_per_s.round()),
                crate::numbers::format(c.best_tokens_per_s.round()),
                c.speedup()
            ));
        }
        None => out.push_str("(the case does not resolve)\n"),
    }
    out
}

/// The DiLoCo comparison.
fn diloco_markdown() -> String {
    let mut out = String::from("\nAcross sites, DiLoCo (arXiv:2311.08105) exchanges 500 times less than synchronous data parallelism at 500 inner steps with matched quality, and Streaming DiLoCo (arXiv:2501.18512) reports needing two orders of magnitude less bandwidth than data parallelism. The model's like case: two sites of 8,192 H100 each training Llama 3 70B (TP 8, PP 4, 2,048 sequences a step), 1,000 km apart, over links fast enough that the job uses both sites.\n\n");
    out.push_str("| sites synchronise by | sent per step per site | Gb/s each needs for 95% of one site's speed |\n|---|---:|---:|\n");
    let Some(c) = diloco() else {
        out.push_str("| (the case does not resolve) | | |\n");
        return out;
    };
    for (name, bytes, gbit) in &c.rows {
        out.push_str(&format!(
            "| {name} | {:.3} GB | {} |\n",
            bytes / 1e9,
            crate::numbers::sig3(*gbit)
        ));
    }
    let traffic = c.traffic_cut_at_500();
    // Synchronous gradients cross in the recipe's gradient bytes, the outer gradient in BF16.
    let grad = traffic / 500.0 * crate::model::sites::OUTER_GRADIENT_BYTES;
    let (blocking, streamed) =
        (c.bandwidth_cut("DiLoCo, H = 100"), c.bandwidth_cut("Streaming DiLoCo, H = 100"));
    out.push_str(&format!(
        "\nAt 500 inner steps the model sends {traffic:.0} times less than synchronous training: DiLoCo's 500 times, times {grad:.0} bytes a parameter of synchronous gradients over the outer gradient's 2 (BF16).\n\nStreaming DiLoCo's Table 4 gives the bandwidth each method needs for 95 % compute utilisation at H = 100: data parallelism 268 and 391 Gb/s, DiLoCo 33.9 and 49.4 Gb/s, and Streaming DiLoCo with 4-bit overlapped fragments 1.4 and 1.1 Gb/s, for its 10B and 100B models (under its own step times). Data parallelism thus needs 7.9 times DiLoCo's bandwidth and 190 to 355 times Streaming DiLoCo's. The model's like ratios: {blocking:.1} times ({:.1} at equal gradient precision) and {streamed:.0} times. {}\n",
        blocking * crate::model::sites::OUTER_GRADIENT_BYTES / grad,
        if (150.0..=500.0).contains(&streamed) && (5.0..=12.0).contains(&(blocking * crate::model::sites::OUTER_GRADIENT_BYTES / grad)) {
            "Both ratios are of the paper's order: they follow from the exchange's size, period, fragments and overlap, which the model takes from the papers. What the model cannot check is the quality, which it assumes equal (`parallelism.diloco_token_factor` asks for more tokens)."
        } else {
            "The ratios differ from the paper's: the model's exchange is not the paper's, and what it says about the wide-area link is not confirmed by it."
        }
    ));
    out
}
