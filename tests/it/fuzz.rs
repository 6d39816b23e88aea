//! A fuzzer over every key of the scenario: generated plans with any of the field table's
//! numbers and flags set in range, beyond it or to the wrong kind of value, any choice set to
//! any of its options or to none, further pools and far sites now and then. Whatever it makes,
//! the judge answers without a panic, refuses with the fields it names or estimates with every
//! figure finite, its breakdown summing to its step; a job over pools lies between its fastest
//! pool and the pools apart; every site is built, powered and priced, used or not, and the
//! fleet's totals add up. `FUZZ_CASES` sets how many scenarios it makes (100,000 by default).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use crate::common::{random_scenario, Rng};
use clusterplan::evaluation;
use clusterplan::scenario::fields::{self, Kind};
use clusterplan::scenario::Scenario;
use serde_json::{json, Value};

/// A value for `field`: mostly inside its range, sometimes at its ends, beyond them, or of the
/// wrong kind.
fn value_for(field: &fields::Field, rng: &mut Rng) -> Value {
    let (lo, hi) = (field.min, field.max);
    let inside = |rng: &mut Rng| {
        let u = rng.below(1_000_001) as f64 / 1e6;
        if lo > 0.0 && hi / lo > 100.0 {
            (lo.ln() + u * (hi.ln() - lo.ln())).exp()
        } else {
            lo + u * (hi - lo)
        }
    };
    match rng.below(20) {
        0 => json!(lo),
        1 => json!(hi),
        2 => json!(-1.0 - inside(rng)),
        3 => json!(hi * 10.0 + 1.0),
        4 => json!("not a number"),
        5 => Value::Null,
        6 => json!(1e308),
        _ => match field.kind {
            Kind::Flag => json!(rng.below(2) == 1),
            Kind::Count => json!(inside(rng).round()),
            Kind::Number | Kind::Fraction => json!(inside(rng)),
        },
    }
}

/// One scenario: a generated plan with a few keys of every kind changed, and now and then a
/// second pool, at a site of its own.
fn scenario(rng: &mut Rng) -> Scenario {
    let mut s = random_scenario(rng);
    let training: Vec<&fields::Field> =
        fields::FIELDS.iter().copied().filter(|f| !is_serving(f.path)).collect();
    for _ in 0..1 + rng.below(6) {
        let field = *rng.pick(&training);
        s = s.with_at(field.path, Some(value_for(field, rng)));
    }
    let mut choices = fields::choices().to_vec();
    choices.retain(|(path, _)| !is_serving(path));
    for _ in 0..rng.below(3) {
        let (path, options) = rng.pick(&choices);
        let value = match rng.below(10) {
            0 => json!("no such option"),
            _ => json!(*rng.pick(options)),
        };
        s = s.with_at(path, Some(value));
    }
    if rng.below(4) == 0 {
        s = common::with_pool(s, rng);
    }
    s
}

/// A key of serving or post-training, which a generator of its own sets (`serving_keys`), so
/// the training keys' stream stays as it was.
fn is_serving(path: &str) -> bool {
    path.starts_with("serving.") || path.starts_with("rl.")
}

/// A third of scenarios serve or post-train: a few of their keys set, from a stream of its own.
fn serving_keys(mut s: Scenario, rng: &mut Rng) -> Scenario {
    if rng.below(3) != 0 {
        return s;
    }
    let keys: Vec<&fields::Field> =
        fields::FIELDS.iter().copied().filter(|f| is_serving(f.path)).collect();
    for _ in 0..1 + rng.below(5) {
        let field = *rng.pick(&keys);
        s = s.with_at(field.path, Some(value_for(field, rng)));
    }
    let choices: Vec<_> = fields::choices().into_iter().filter(|(p, _)| is_serving(p)).collect();
    if rng.below(2) == 0 {
        let (path, options) = rng.pick(&choices);
        s = s.with_at(path, Some(json!(*rng.pick(options))));
    }
    s
}

fn finite(x: f64) -> bool {
    x.is_finite()
}

#[test]
fn no_scenario_breaks_the_judge_or_its_answers() {
    let cases: u64 =
        std::env::var("FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let mut rng = Rng(0xF022_5EED);
    let (mut estimated, mut refused, mut fleets, mut sited) = (0u64, 0u64, 0u64, 0u64);
    let mut served = 0u64;
    for case in 0..cases {
        let s = serving_keys(scenario(&mut rng), &mut Rng(case ^ 0x5E4E_F00D));
        let good = match evaluation::evaluate(&s) {
            Ok(good) => good,
            Err(errors) => {
                assert!(!errors.is_empty(), "case {case}: refused without a field");
                assert!(errors.iter().all(|e| !e.field.is_empty()), "case {case}: {errors:?}");
                refused += 1;
                continue;
            }
        };
        estimated += 1;
        let e = &good.estimate;
        for (name, x) in [
            ("step", e.step_s),
            ("tokens/s", e.tokens_per_s),
            ("days", e.train_days),
            ("mfu", e.mfu),
            ("peak memory", e.memory.peak_bytes),
            ("capex", e.facility.cost.capex_usd),
            ("power", e.facility.power.facility_w),
            ("energy", e.facility.energy_mwh),
            ("goodput", e.reliability.goodput),
        ]
        .into_iter()
        .chain(e.breakdown.parts())
        {
            assert!(finite(x) && x >= 0.0, "case {case}: {name} is {x}");
        }
        if e.problems.is_empty() {
            assert!(e.step_s > 0.0 && e.train_days > 0.0, "case {case}: a run that finishes in 0");
            let parts = e.breakdown.total();
            assert!(
                (parts - e.step_s).abs() <= 1e-6 * e.step_s,
                "case {case}: {parts} != {}",
                e.step_s
            );
        }
        if let Some(days) = e.effective_train_days() {
            assert!(days >= e.train_days * (1.0 - 1e-12), "case {case}: {days} < {}", e.train_days);
        }
        let asked = evaluation::serve(&good);
        if let Some(v) = &asked.serving {
            served += 1;
            let figures = [
                v.ttft_s,
                v.tpot_s,
                v.decode_tokens_per_s,
                v.prefill_tokens_per_s,
                v.usd_per_million_output_tokens,
                v.power_w,
            ];
            assert!(figures.iter().all(|x| finite(*x) && *x >= 0.0), "case {case}: {v:?}");
            assert!(v.step.parts().iter().all(|(_, x)| finite(*x) && *x >= 0.0), "case {case}");
            for w in v.frontier.windows(2) {
                assert!(
                    w[1].tpot_s >= w[0].tpot_s * (1.0 - 1e-9)
                        && w[1].tokens_per_s_per_chip >= w[0].tokens_per_s_per_chip * (1.0 - 1e-9),
                    "case {case}: {:?}",
                    v.frontier
                );
            }
        }
        if let Some(r) = &asked.rl {
            let parts = r.generation_s + r.scoring_s + r.training_s + r.handoff_s;
            assert!(finite(r.step_s) && (parts - r.step_s).abs() <= 1e-9 * r.step_s.max(1.0));
        }
        if case % 89 == 0 && e.problems.is_empty() {
            // Every framework's launch of a plan the judge takes: files of text for what it
            // can say, reasons for what it cannot, and its own files read back.
            for framework in clusterplan::launch::Framework::ALL {
                let l = evaluation::launch(&s, framework);
                let Ok(l) = l else { continue };
                let files: Vec<(&str, &str)> =
                    l.files.iter().map(|f| (f.name, f.text.as_str())).collect();
                assert!(
                    !files.is_empty() || !l.cannot.is_empty(),
                    "case {case}: {framework:?} wrote nothing and said nothing"
                );
                if !files.is_empty() {
                    let read = clusterplan::launch::read(framework, &files);
                    assert!(read.is_ok(), "case {case}: {framework:?} {read:?}");
                }
            }
        }
        if case % 97 == 0 {
            let spread = evaluation::failures(&good);
            assert!(
                spread.p10_days <= spread.p50_days && spread.p50_days <= spread.p90_days,
                "case {case}"
            );
        }
        if let Some(p) = &good.pools {
            fleets += 1;
            let solo: Vec<_> = p.pools.iter().map(clusterplan::model::estimate).collect();
            let job = p.job();
            let apart: f64 = solo.iter().map(|e| e.tokens_per_s).sum();
            // Pools pipelined over layers of different kinds (DeepSeek's dense first layers
            // before its MoE layers, a vision encoder first, prediction modules last) may each
            // take the kind they run best, and so beat their speeds apart: the bound holds where
            // every layer is alike or the pools split the batch.
            let t = &good.inputs.transformer;
            let alike = t.moe.is_none_or(|m| m.n_dense_layers == 0)
                && t.vision.is_none()
                && t.mtp_layers == 0;
            let by_layers = p.across == clusterplan::model::pools::Across::Pipeline;
            assert!(
                finite(job.tokens_per_s)
                    && (job.tokens_per_s <= apart * (1.0 + 1e-9) || (by_layers && !alike)),
                "case {case}: {job:?} against {apart} apart in {}",
                serde_json::to_string(&s).unwrap_or_default()
            );
            let fastest = solo.iter().map(|e| e.tokens_per_s).fold(0.0, f64::max);
            assert!(
                job.tokens_per_s >= fastest * (1.0 - 1e-9),
                "case {case}: {job:?} under {fastest}"
            );
            let shares: f64 = job.parts.iter().map(|p| p.share).sum();
            assert!(
                job.tokens_per_s == 0.0 || (shares - 1.0).abs() < 1e-9,
                "case {case}: shares {shares}"
            );
            if job.tokens_per_s > 0.0 {
                assert!(job.train_days.is_finite() && job.train_days > 0.0, "case {case}: {job:?}");
            }
            let totals = clusterplan::model::pools::totals(&p.pools, &solo, &job);
            let capex: f64 = solo.iter().map(|e| e.facility.cost.capex_usd).sum();
            assert!((totals.capex_usd - capex).abs() <= 1e-9 * capex.max(1.0), "case {case}");
        }
        if let Ok(Some(sites)) = s.sites() {
            sited += 1;
            let job = sites.job(&good.inputs);
            for (part, (name, site)) in job.sites.iter().zip(&sites.sites) {
                assert_eq!(part.used, part.share > 0.0, "case {case}: {name}");
                assert!(
                    part.capex_usd.is_finite() && part.power_w.is_finite(),
                    "case {case}: {part:?}"
                );
                if site.job.tokens_per_s > 0.0 {
                    assert!(
                        job.tokens_per_s >= site.alone_tokens_per_s * (1.0 - 1e-9),
                        "case {case}: {name}"
                    );
                }
            }
            let power: f64 = job.sites.iter().map(|p| p.power_w).sum();
            assert!((job.power_w - power).abs() <= 1e-9 * power.max(1.0), "case {case}");
        }
    }
    eprintln!(
        "{estimated} estimated, {refused} refused, {fleets} fleets, {sited} with sites, {served} served"
    );
    assert!(served > cases / 40, "{served} served");
    // The generator reaches every outcome, not only refusals.
    assert!(
        estimated > cases / 10 && refused > cases / 10,
        "{estimated} estimated, {refused} refused"
    );
    assert!(fleets > cases / 50 && sited > cases / 100, "{fleets} fleets, {sited} with sites");
}

/// Logs cut, spliced and corrupted at generated places, from every fixture: the reader
/// answers each with a reading or a reason, every figure finite.
#[test]
fn no_log_breaks_the_reader() {
    let dir = std::path::Path::new("tests/data/logs");
    let mut fixtures: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .expect("the fixtures")
        .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 8);
    let mut rng = Rng(0x106_F022);
    let (mut read, mut refused) = (0, 0);
    for case in 0..3000 {
        let a = rng.pick(&fixtures).clone();
        let b = rng.pick(&fixtures).clone();
        let mut log = match rng.below(4) {
            0 => a[..rng.below(a.len() as u64 + 1) as usize].to_vec(),
            1 => {
                let cut = rng.below(a.len() as u64 + 1) as usize;
                let from = rng.below(b.len() as u64 + 1) as usize;
                [&a[..cut], &b[from..]].concat()
            }
            2 => a
                .iter()
                .map(|&x| if rng.below(50) == 0 { (rng.next() & 0xFF) as u8 } else { x })
                .collect(),
            _ => a.split(|&x| x == b'\n').rev().flat_map(|l| [l, b"\n"].concat()).collect(),
        };
        if rng.below(10) == 0 {
            log.truncate(0);
        }
        match clusterplan::measure::read("fuzzed.log", &log) {
            Ok(r) => {
                read += 1;
                let figures: Vec<f64> = match &r.measured {
                    clusterplan::measure::Measured::StepS(s) => vec![*s],
                    clusterplan::measure::Measured::TokensPerChipS(t) => vec![*t],
                    clusterplan::measure::Measured::Fabric(t) => {
                        vec![t.bus_gb_per_s, t.smallest_us, t.largest_us, t.largest_bytes]
                    }
                    clusterplan::measure::Measured::Serving {
                        output_tokens_per_s,
                        ttft_p99_ms,
                        ..
                    } => [*output_tokens_per_s, *ttft_p99_ms].into_iter().flatten().collect(),
                };
                assert!(figures.iter().all(|x| x.is_finite()), "case {case}: {r:?}");
            }
            Err(_) => refused += 1,
        }
    }
    assert!(read > 300 && refused > 100, "{read} read, {refused} refused");
}
