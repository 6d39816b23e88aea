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
use crate::model::sites::Work;
use crate::model::{estimate, Inputs};
use crate::scenario::fields;
use crate::scenario::paths;
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
        .with(paths::MODEL_PRESET, Some(serde_json::json!("llama3-8b")))
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(serde_json::json!(512)))
        .with(paths::CLUSTER_CHIP, Some(serde_json::json!(chip)))
        .with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(chips)))
        .with(&fields::PARALLELISM_TP, Some(serde_json::json!(2)))
        .with(&fields::PARALLELISM_PP, Some(serde_json::json!(1)))
        .with(&fields::PARALLELISM_CP, Some(serde_json::json!(1)))
        .with(&fields::PARALLELISM_VIRTUAL_STAGES, Some(serde_json::json!(1)))
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
    /// and the Gb/s it needs for 95% of its compute's speed over an unlimited link.
    pub rows: Vec<(&'static str, f64, f64)>,
    /// The same Gb/s as Streaming DiLoCo's simulations count it, the exchange hidden under
    /// compute slowing it not at all (`Work::interference` 0), one a row.
    pub free: Vec<f64>,
}

impl WanCheck {
    fn row(&self, name: &str) -> Option<(f64, f64)> {
        self.rows.iter().find(|r| r.0 == name).map(|r| (r.1, r.2))
    }

    /// As `bandwidth_cut`, with the hidden exchange free, as the paper's simulations count it.
    pub fn bandwidth_cut_free(&self, name: &str) -> f64 {
        let at = |n: &str| self.rows.iter().position(|r| r.0 == n).map(|i| self.free[i]);
        match (at("synchronous"), at(name)) {
            (Some(sync), Some(other)) if other > 0.0 => sync / other,
            _ => 0.0,
        }
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
            .with(paths::MODEL_PRESET, Some(json!("llama3-70b")))
            .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(2048)))
            .with(paths::CLUSTER_CHIP, Some(json!("h100-sxm")))
            .with(&fields::CLUSTER_CHIPS, Some(json!(8192)))
            .with(paths::CLUSTER_SITE, Some(json!("east")))
            .with(
                paths::CLUSTER_POOLS,
                Some(json!([{ "chip": "h100-sxm", "chips": 8192, "site": "west" }])),
            )
            .with(
                paths::CLUSTER_BETWEEN_POOLS,
                Some(json!({ "gbit_per_s": 100_000, "rdma": true })),
            )
            .with(&fields::PARALLELISM_TP, Some(json!(8)))
            .with(&fields::PARALLELISM_PP, Some(json!(4)))
            .with(
                paths::SITES,
                Some(json!([
                    { "name": "east", "wan_gbit_per_s": 100_000 },
                    { "name": "west", "wan_gbit_per_s": 100_000 }
                ])),
            );
        let mut s = s;
        for (key, value) in how.as_object()?.clone() {
            s = s.with_at(&format!("parallelism.{key}"), Some(value));
        }
        let base = s.resolve().ok()?;
        let sites = s.sites().ok()??;
        let e = sites.job(&base);
        let free = sites.job_for(&Work { interference: 0.0, ..Work::of(&base) });
        let steps = match s
            .raw(&crate::scenario::fields::PARALLELISM_DILOCO_INNER_STEPS)
            .and_then(|v| v.as_f64())
        {
            Some(h)
                if s.raw(&crate::scenario::fields::PARALLELISM_ACROSS_SITES)
                    == Some(json!("diloco")) =>
            {
                h
            }
            _ => 1.0,
        };
        // As DiLoCo's papers count it: 95 % of the sites' compute over an unlimited link.
        let (used, hidden) =
            (e.wan.gbit_per_s_for_utilisation, free.wan.gbit_per_s_for_utilisation);
        Some((e.wan.bytes_per_sync / steps, used, hidden))
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
    let (mut rows, mut free) = (Vec::new(), Vec::new());
    for (name, how) in cases {
        let (bytes, gbit, gbit_free) = plan(how)?;
        rows.push((name, bytes, gbit));
        free.push(gbit_free);
    }
    Some(WanCheck { rows, free })
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
            .with(paths::MODEL_PRESET, Some(serde_json::json!("llama3-8b")))
            .with(&fields::TRAINING_GLOBAL_BATCH, Some(serde_json::json!(768)))
            .with(paths::CLUSTER_CHIP, Some(serde_json::json!(chip)))
            .with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(32)))
            .with(&fields::PARALLELISM_TP, Some(serde_json::json!(4)))
            .with(&fields::PARALLELISM_PP, Some(serde_json::json!(1)))
            .with(&fields::PARALLELISM_CP, Some(serde_json::json!(1)))
            .with(&fields::PARALLELISM_VIRTUAL_STAGES, Some(serde_json::json!(1)))
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
    out.push_str(&distance_markdown());
    out.push_str(&scale_markdown());
    out.push_str(&vendor_markdown());
    out
}

/// Interruptions a week of 10,240 Ascend 910B in Atlas 800T A2 servers at the rates the model
/// borrows from Meta's H100 fleet for a chip without published ones.
pub fn ascend_per_week() -> Option<f64> {
    let inputs = Scenario::default_plan()
        .with(paths::CLUSTER_CHIP, Some(serde_json::json!("ascend-910b")))
        .with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(10_240)))
        .with(paths::CLUSTER_SYSTEM, Some(serde_json::json!("atlas-800t-a2")))
        .with(&fields::CLUSTER_CHIPS_PER_NODE, None)
        .resolve()
        .ok()?;
    Some(estimate(&inputs).reliability.interruptions_per_day * 7.0)
}

/// What vendors publish of their clusters' failures against the rates the model borrows.
fn vendor_markdown() -> String {
    let mut out = String::from("
## Failures by vendor

No failure rates by component were found published for accelerators other than NVIDIA's: the model takes Meta's H100 fleet's for every other chip and says so (`Warning::RatesBorrowed`; `reliability.rates` sets a vendor's own). What vendors publish is cluster-wide: China Telecom's domestic pool of 10,000 cards in Shanghai trained a trillion-parameter model with about 1.5 interruptions a week, Huawei gives a CloudMatrix supernode's time between failures as over 24 hours and its 10,000-card clusters 98 % availability, and Moore Threads claims 15 days without failure on KUAE (all press accounts).

");
    match ascend_per_week() {
        Some(week) => out.push_str(&format!(
            "At the borrowed rates, 10,240 Ascend 910B in Atlas 800T A2 servers are interrupted {} times a week, {:.0} times China Telecom's figure: the borrowed rates are the cautious side of what domestic clusters report, so days with failures on them are more likely long than short; a vendor's measured rates, where a buyer has them, belong in `reliability.rates`.
",
            crate::numbers::sig3(week),
            week / 1.5
        )),
        None => out.push_str("(the case does not resolve)
"),
    }
    out
}

/// Goodput at about 100,000 chips, restarting the whole job or only the failed replica.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleCheck {
    pub chips: u32,
    pub replicas: u32,
    /// Minutes between interruptions at the model's own rates.
    pub mtbf_min: f64,
    /// Goodput restarting from checkpoints (`spare`) and replica by replica, at the model's
    /// rates and at the rate the published figures imply (`PUBLISHED_MTBF_MIN`).
    pub synchronous: f64,
    pub per_replica: f64,
    pub synchronous_at_published: f64,
    pub per_replica_at_published: f64,
}

/// Minutes between failures that fault-tolerant HSDP's figures at about 100,000 GPUs imply:
/// a 10-minute stall for each leaving 44 % effective training time means one every
/// 10 / (1 - 0.44) minutes (arXiv:2602.00277, abstract).
pub const PUBLISHED_MTBF_MIN: f64 = 10.0 / (1.0 - 0.44);

/// The default plan (Llama 3.1 405B, TP 8, PP 16, CP 2) on 98,304 H100 with each recovery.
pub fn at_scale() -> Option<ScaleCheck> {
    let chips = 98_304;
    let at = |recovery: &str, rates: f64| -> Option<crate::model::Estimate> {
        let s = Scenario::default_plan()
            .with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(chips)))
            .with(&fields::RELIABILITY_RECOVERY, Some(serde_json::json!(recovery)));
        let mut inputs = s.resolve().ok()?;
        let r = &mut inputs.reliability.rates;
        for rate in [
            &mut r.chip,
            &mut r.hbm,
            &mut r.host,
            &mut r.software,
            &mut r.nic,
            &mut r.switch,
            &mut r.link,
        ] {
            *rate *= rates;
        }
        Some(estimate(&inputs))
    };
    let own = at("spare", 1.0)?;
    let mtbf_min = own.reliability.mtbf_h * 60.0;
    let scale = mtbf_min / PUBLISHED_MTBF_MIN;
    let replicas = Scenario::default_plan()
        .with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(chips)))
        .resolve()
        .ok()?
        .parallelism
        .data;
    Some(ScaleCheck {
        chips,
        replicas,
        mtbf_min,
        synchronous: own.reliability.goodput,
        per_replica: at("replica", 1.0)?.reliability.goodput,
        synchronous_at_published: at("spare", scale)?.reliability.goodput,
        per_replica_at_published: at("replica", scale)?.reliability.goodput,
    })
}

/// The 100,000-chip comparison.
fn scale_markdown() -> String {
    let mut out = String::from("
## Failures at 100,000 chips

Meta's fault-tolerant HSDP (\"Training LLMs with Fault Tolerant HSDP on 100,000 GPUs\", arXiv:2602.00277, abstract) restarts only the failed data-parallel replica: at about 100,000 GPUs it cuts the stall of each failure's recovery from 10 minutes to 3 and raises effective training time from 44 % (synchronous, restarting the whole job) to 80 %, a failure every 17.9 minutes as those figures imply. The model's like case: the default plan (Llama 3.1 405B, TP 8, PP 16, CP 2) on 98,304 H100, restarting from checkpoints on spares (`reliability.recovery: spare`) or replica by replica (`replica`, whose stall `REPLICA_STALL_S` is the paper's 3 minutes), at the model's own failure rates and at the paper's.

");
    let Some(c) = at_scale() else {
        out.push_str(
            "(the case does not resolve)
",
        );
        return out;
    };
    let pct = |x: f64| format!("{:.0}%", 100.0 * x);
    out.push_str(
        "| failures | restarting the job | replica by replica | gain |
|---|---:|---:|---:|
",
    );
    out.push_str(&format!(
        "| published (arXiv:2602.00277), one every 17.9 min | 44% | 80% | 1.82x |\n| the model at its own rates, one every {:.0} min | {} | {} | {:.2}x |\n| the model at the paper's rate | {} | {} | {:.2}x |\n\n",
        c.mtbf_min,
        pct(c.synchronous),
        pct(c.per_replica),
        c.per_replica / c.synchronous,
        pct(c.synchronous_at_published),
        pct(c.per_replica_at_published),
        c.per_replica_at_published / c.synchronous_at_published,
    ));
    let (sync_gap, replica_gap) =
        (c.synchronous_at_published - 0.44, c.per_replica_at_published - 0.80);
    out.push_str(&format!(
        "The model's rates, from Llama 3's 419 interruptions of 16,384 H100 in 54 days, interrupt 98,304 chips less often than the paper's fleet; at the paper's rate the model restarting the job reads {:+.0} points against the paper (each interruption costs the 10-minute restart and half a checkpoint interval of work redone, where the paper counts the stall alone), and replica by replica {:+.0} points ({} replicas of 256 chips; the paper's losses beyond the stall are not published). {}\n",
        100.0 * sync_gap,
        100.0 * replica_gap,
        crate::numbers::format(c.replicas as f64),
        if replica_gap > 0.0 {
            "The per-replica figure is the optimistic one: what else a rejoining replica costs the others (its peers sending it their state, a smaller batch meanwhile) is not modelled."
        } else {
            "Neither is above the paper's."
        }
    ));
    out
}

/// The published long-distance runs against the model's two sites.
fn distance_markdown() -> String {
    let mut out = String::from("
Published runs between sites far apart report 95 % to 98 % of one site's efficiency: China Telecom over 500 km (1,024 cards, a 100B model, >97 %, an 800G link at 32:1 convergence) and 409.61 km with Huawei (>97 %), China Unicom with the Shanghai AI Laboratory over more than 1,500 km on domestic GPUs (≥95 %), and the Future Network Test Facility over about 2,000 km (about 98 %), all from press accounts. The model's like cases: two sites of H100 training Llama 3 70B (TP 8, PP 4, 2,048 sequences a step), a kilometre of fibre 5 µs one way, against the same chips in one site.

");
    out.push_str(
        "| sites synchronise by | H100 | apart | wide-area link | share of one site's speed |
|---|---:|---:|---:|---:|
",
    );
    let mut shares = Vec::new();
    for (name, how, gbit, chips, km) in DISTANCE_CASES {
        let number = crate::numbers::format;
        let case =
            format!("| {name} | 2 × {} | {} km | {gbit} Gb/s |", number(chips as f64), number(km));
        let share = distance(how, gbit, chips, km);
        match share {
            Some(share) => out.push_str(&format!("{case} {:.2}% |\n", 100.0 * share)),
            None => out.push_str(&format!("{case} (does not resolve) |\n")),
        }
        shares.push(share.unwrap_or(0.0));
    }
    let pct = |i: usize| format!("{:.1} %", 100.0 * shares[i]);
    let verdict = if shares[0] <= 0.98 && shares[2] <= 0.97 {
        "not above the published figures"
    } else {
        "above the published figures, so an estimate across sites is likely fast"
    };
    out.push_str(&format!("
Synchronous training keeps {} of one site on 3,200 Gb/s and {} on China Telecom's 800 Gb/s over 500 km, {verdict}: beyond the step's straggler and the ring over every replica, each second of exchange the backward pass hides slows it by a quarter of a second, as a reduction inside a site does (`efficiency::OVERLAP_INTERFERENCE`; the collective's kernels hold their streaming multiprocessors for as long as the wide-area link takes). The long-haul transport's own losses (RDMA over thousands of kilometres of fibre, the 32:1 convergence at the sites' edge) are not modelled beyond that. Streamed DiLoCo reads {} of one site over 10 Gb/s: each site reduces its gradients over its own replicas, fewer than all, and the fragments it exchanges behind the next inner step slow that step as any hidden exchange does. Over 100 Gb/s it reads {}: the fragments slow the step less than the smaller reduction saves, a gain one site would have too if it ran DiLoCo between halves of itself. Its quality is assumed, not modelled (`parallelism.diloco_token_factor`). Streaming DiLoCo's own simulations reach 95 % compute utilisation at 1 to 5 Gb/s for its 1B to 100B models (arXiv:2501.18512, Fig. 4), where the model's 70B needs the bandwidth of the DiLoCo table above.
", pct(0), pct(2), pct(4), pct(5)));
    out
}

/// The long-distance cases: how the sites synchronise (DiLoCo's inner steps, streamed), the
/// wide-area link in Gb/s, the H100 at each site and the kilometres between them.
pub const DISTANCE_CASES: [(&str, Option<u32>, f64, u32, f64); 6] = [
    ("synchronous", None, 3200.0, 2048, 1500.0),
    ("synchronous", None, 800.0, 2048, 1500.0),
    ("synchronous", None, 800.0, 512, 500.0),
    ("synchronous", None, 100.0, 2048, 1500.0),
    ("Streaming DiLoCo, H = 100", Some(100), 10.0, 2048, 1500.0),
    ("Streaming DiLoCo, H = 100", Some(100), 100.0, 2048, 1500.0),
];

/// Two sites of `chips` H100 `km` apart on `gbit` Gb/s, synchronous or DiLoCo every `inner`
/// steps streamed, as a share of the same chips' speed in one site. Light in fibre covers a
/// kilometre in 5 µs.
pub fn distance(inner: Option<u32>, gbit: f64, chips: u32, km: f64) -> Option<f64> {
    use serde_json::json;
    let base = Scenario::default_plan()
        .with(paths::MODEL_PRESET, Some(json!("llama3-70b")))
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(2048)))
        .with(paths::PARALLELISM, Some(json!({ "tp": 8, "pp": 4, "cp": 1, "virtual_stages": 1 })));
    let one = estimate(
        &base.clone().with(&fields::CLUSTER_CHIPS, Some(json!(2 * chips))).resolve().ok()?,
    );
    let ms = km * 0.005;
    let mut two = base
        .with(&fields::CLUSTER_CHIPS, Some(json!(chips)))
        .with(paths::CLUSTER_SITE, Some(json!("east")))
        .with(
            paths::CLUSTER_POOLS,
            Some(json!([{ "chip": "h100-sxm", "chips": chips, "site": "west", "scale_out": "roce-400g" }])),
        )
        .with(
            paths::SITES,
            Some(json!([
                { "name": "east", "wan_gbit_per_s": gbit, "wan_latency_ms": ms },
                { "name": "west", "wan_gbit_per_s": gbit, "wan_latency_ms": ms }
            ])),
        );
    if let Some(h) = inner {
        two = two
            .with(&fields::PARALLELISM_ACROSS_SITES, Some(json!("diloco")))
            .with(&fields::PARALLELISM_DILOCO_INNER_STEPS, Some(json!(h)))
            .with(&fields::PARALLELISM_DILOCO_STREAMING, Some(json!(true)));
    }
    let inputs = two.resolve().ok()?;
    let job = two.sites().ok()??.job(&inputs);
    Some(job.tokens_per_s / one.tokens_per_s)
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
    out.push_str("| sites synchronise by | sent per step per site | Gb/s each needs for 95% of its compute over an unlimited link | the same, hidden exchange free |\n|---|---:|---:|---:|\n");
    let Some(c) = diloco() else {
        out.push_str("| (the case does not resolve) | | | |\n");
        return out;
    };
    for ((name, bytes, gbit), free) in c.rows.iter().zip(&c.free) {
        out.push_str(&format!(
            "| {name} | {:.3} GB | {} | {} |\n",
            bytes / 1e9,
            crate::numbers::sig3(*gbit),
            crate::numbers::sig3(*free)
        ));
    }
    let traffic = c.traffic_cut_at_500();
    // Synchronous gradients cross in the recipe's gradient bytes, the outer gradient in BF16.
    let grad = traffic / 500.0 * crate::model::sites::OUTER_GRADIENT_BYTES;
    let cut = |free: bool, name: &str| {
        if free {
            c.bandwidth_cut_free(name)
        } else {
            c.bandwidth_cut(name)
        }
    };
    let equal = crate::model::sites::OUTER_GRADIENT_BYTES / grad;
    let ratios = |free: bool| {
        let (blocking, streamed) =
            (cut(free, "DiLoCo, H = 100"), cut(free, "Streaming DiLoCo, H = 100"));
        (blocking, blocking * equal, streamed)
    };
    let (free, charged) = (ratios(true), ratios(false));
    let of_order = (150.0..=500.0).contains(&free.2) && (5.0..=12.0).contains(&free.1);
    out.push_str(&format!(
        "\nAt 500 inner steps the model sends {traffic:.0} times less than synchronous training: DiLoCo's 500 times, times {grad:.0} bytes a parameter of synchronous gradients over the outer gradient's 2 (BF16).\n\nStreaming DiLoCo's Table 4 gives the bandwidth each method needs for 95 % compute utilisation at H = 100: data parallelism 268 and 391 Gb/s, DiLoCo 33.9 and 49.4 Gb/s, and Streaming DiLoCo with 4-bit overlapped fragments 1.4 and 1.1 Gb/s, for its 10B and 100B models (under its own step times). Data parallelism thus needs 7.9 times DiLoCo's bandwidth and 190 to 355 times Streaming DiLoCo's. Its simulations let an exchange hidden under compute cost nothing; so counted, the model's like ratios are {:.1} times ({:.1} at equal gradient precision) and {:.0} times. {} The model itself charges the compute a quarter of every second of exchange it hides, as it does a reduction inside a site (`efficiency::OVERLAP_INTERFERENCE`): synchronous training, which hides the most, then needs {:.1} times DiLoCo's bandwidth ({:.1} at equal precision) and {:.0} times Streaming DiLoCo's.\n",
        free.0,
        free.1,
        free.2,
        if of_order {
            "Both are of the paper's order: they follow from the exchange's size, period, fragments and overlap, which the model takes from the papers. What the model cannot check is the quality, which it assumes equal (`parallelism.diloco_token_factor` asks for more tokens)."
        } else {
            "They differ from the paper's: the model's exchange is not the paper's."
        },
        charged.0,
        charged.1,
        charged.2,
    ));
    out
}
