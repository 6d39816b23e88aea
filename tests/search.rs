//! The plan search: it agrees with brute force, ranks only plans that run and fit, and finds
//! plans at least as fast as the published ones on the same clusters.

use clusterplan::model::search::{
    self, evaluate, Objective, Options, Verdict, MAX_CP, MAX_MICRO_BATCH, MAX_TP,
    MAX_VIRTUAL_STAGES, MIN_CP_CHUNK_TOKENS,
};
use clusterplan::model::{estimate, AttentionImpl, Inputs, Recompute, Sharding, Warning};
use clusterplan::scenario::Scenario;
use clusterplan::validation;

fn inputs(json: &str) -> Inputs {
    Scenario::parse_many(json).expect("parses").remove(0).resolve().expect("resolves")
}

/// A small dense model with long sequences (so context parallelism is in play) on 16 chips
/// with little memory, so that some plans do not fit.
const SMALL_DENSE: &str = r#"{
  "model": { "layers": 4, "hidden": 8192, "heads": 64, "kv_heads": 8, "head_dim": 128,
             "ffn": 28672, "vocab": 32000, "seq_len": 8192 },
  "training": { "tokens": 1e11, "global_batch": 16 },
  "cluster": { "chip": "a100-40gb", "chips": 16 },
  "parallelism": { "tp": 2, "pp": 2, "micro_batch": 1 }
}"#;

/// A small mixture of experts on 16 chips, so expert parallelism is in play, with attention
/// scores kept in memory, so selective recomputation is a choice of its own.
const SMALL_MOE: &str = r#"{
  "model": { "layers": 4, "hidden": 2048, "heads": 16, "kv_heads": 16, "head_dim": 128,
             "ffn": 8192, "vocab": 32000, "seq_len": 4096, "attention": "materialized",
             "moe": { "experts": 8, "top_k": 2, "expert_ffn": 2048 } },
  "training": { "tokens": 1e11, "global_batch": 16 },
  "cluster": { "chip": "a100-40gb", "chips": 16 },
  "parallelism": { "tp": 1, "pp": 2, "ep": 4 }
}"#;

/// Every plan of the search's space, found the slow way: every combination of every setting,
/// each run through `estimate`, kept when the estimate finds nothing that rules it out of the
/// space (`admissible`). Returns each kept plan's days to train and run cost.
fn brute_force(base: &Inputs) -> Vec<(f64, f64)> {
    let n = base.cluster.n_chips;
    let experts = base.transformer.moe.map_or(1, |m| m.n_experts);
    let mut kept = Vec::new();
    let mut inputs = *base;
    for tp in 1..=n {
        for cp in 1..=n {
            for pp in 1..=n {
                if (tp * cp * pp) == 0 || n % (tp * cp * pp) != 0 {
                    continue;
                }
                let dp = n / (tp * cp * pp);
                for ep in 1..=experts {
                    for mb in 1..=base.training.global_batch {
                        for v in 1..=base.transformer.n_layers {
                            for zero in [
                                Sharding::None,
                                Sharding::Optimizer,
                                Sharding::Gradients,
                                Sharding::Full,
                            ] {
                                for rc in [Recompute::None, Recompute::Selective, Recompute::Full] {
                                    for ew in [false, true] {
                                        for sp in [false, true] {
                                            let p = &mut inputs.parallelism;
                                            *p = base.parallelism;
                                            p.tensor = tp;
                                            p.context = cp;
                                            p.pipeline = pp;
                                            p.data = dp;
                                            p.expert = ep;
                                            p.micro_batch = mb;
                                            p.virtual_stages = v;
                                            p.sharding = zero;
                                            p.recompute = rc;
                                            p.recompute_elementwise = ew;
                                            p.sequence_parallel = sp;
                                            if admissible(&inputs) {
                                                let e = estimate(&inputs);
                                                kept.push((
                                                    e.train_days,
                                                    e.facility.cost.run_amortized_usd,
                                                ));
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    kept
}

/// The search's space in the model's own words: the estimate raises no problem, the plan fits,
/// uses every chip, splits the batch evenly and sets nothing that has no effect; plus the
/// search's stated limits, and one plan for settings that make no difference (the light
/// recompute under full recompute, selective recompute with fused attention).
fn admissible(inputs: &Inputs) -> bool {
    let p = &inputs.parallelism;
    let t = &inputs.transformer;
    let within_limits = p.tensor <= MAX_TP
        && p.micro_batch <= MAX_MICRO_BATCH
        && p.virtual_stages <= MAX_VIRTUAL_STAGES.min(t.n_layers.div_ceil(p.pipeline))
        && (p.context == 1
            || (p.context <= MAX_CP && t.seq_len / p.context >= MIN_CP_CHUNK_TOKENS))
        && !(p.recompute == Recompute::Full && p.recompute_elementwise)
        && !(p.recompute == Recompute::Selective && t.attention == AttentionImpl::Flash)
        && !(t.moe.is_none() && p.expert > 1);
    if !within_limits {
        return false;
    }
    let e = estimate(inputs);
    // Megatron-LM's interleaved schedule needs the micro-batches to be a multiple of the
    // stages; the model warns of it only when the pipeline has enough micro-batches at all.
    let interleaving_runs = p.virtual_stages == 1 || e.n_microbatches % p.pipeline == 0;
    e.feasible
        && interleaving_runs
        && e.memory.fits
        && !e.warnings.iter().any(|w| {
            matches!(
                w,
                Warning::DegreesMismatch { .. }
                    | Warning::BatchNotDivisible { .. }
                    | Warning::InterleavingNeedsMultiple { .. }
                    | Warning::SequenceParallelWithoutTensor
                    | Warning::ShardingWithoutReplicas
                    | Warning::VirtualStagesWithoutPipeline
            )
        })
}

fn sorted(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

fn agrees_with_brute_force(json: &str) {
    let base = inputs(json);
    let brute = brute_force(&base);
    assert!(brute.len() > 20, "the small scenario has a real choice: {} plans", brute.len());
    for objective in [Objective::TrainDays, Objective::Cost] {
        let outcome = search::search(&base, Options { objective, top: 25 });
        assert_eq!(outcome.evaluated as usize, brute.len(), "same plans run and fit");
        let pick =
            |&(days, usd): &(f64, f64)| if objective == Objective::Cost { usd } else { days };
        let expected = sorted(brute.iter().map(pick).collect());
        let found: Vec<f64> = outcome.ranked.iter().map(|p| objective.of(p)).collect();
        assert_eq!(found.len(), 25.min(expected.len()));
        for (f, e) in found.iter().zip(&expected) {
            assert!(close(*f, *e), "{objective:?}: search {f} against brute force {e}");
        }
        // The user's plan is placed among the same plans.
        if let Verdict::Fits(yours) = outcome.yours.verdict {
            let better = expected.iter().filter(|&&v| v < objective.of(&yours)).count();
            assert_eq!(outcome.yours.rank, better as u64 + 1);
        }
    }
    // The front of days against cost holds exactly the plans nothing beats on both.
    let outcome = search::search(&base, Options::default());
    let dominated =
        |(d, c): (f64, f64)| brute.iter().any(|&(d2, c2)| d2 <= d && c2 <= c && (d2 < d || c2 < c));
    let front: Vec<(f64, f64)> = outcome.pareto.iter().map(|p| (p.train_days, p.run_usd)).collect();
    assert!(!front.is_empty());
    for point in &front {
        assert!(!dominated(*point), "a dominated plan on the front: {point:?}");
    }
    let on_front = brute.iter().filter(|&&point| !dominated(point)).map(|p| p.1);
    for usd in on_front {
        assert!(front.iter().any(|&(_, c)| close(c, usd)), "front misses a plan costing {usd}");
    }
}

#[test]
fn agrees_with_brute_force_on_a_small_dense_model() {
    agrees_with_brute_force(SMALL_DENSE);
}

#[test]
fn agrees_with_brute_force_on_a_small_mixture_of_experts() {
    agrees_with_brute_force(SMALL_MOE);
}

#[test]
fn counts_add_up_and_some_plans_do_not_fit() {
    let outcome = search::search(&inputs(SMALL_DENSE), Options::default());
    assert_eq!(outcome.searched, outcome.pruned + outcome.evaluated);
    assert_eq!(outcome.pruned, outcome.invalid + outcome.does_not_fit);
    assert!(outcome.does_not_fit > 0, "the 40 GB chip rules some plans out");
    assert_eq!(outcome.progress.0, outcome.progress.1);
}

/// Every ranked plan, run through `estimate` as the page would run it, fits, runs, and has the
/// numbers the search ranked it by; so no plan that does not fit can be ranked at all, let
/// alone above one that does.
#[test]
fn ranks_only_plans_that_run_and_fit_with_the_estimates_own_numbers() {
    for json in [SMALL_DENSE, SMALL_MOE] {
        let base = inputs(json);
        let outcome = search::search(&base, Options { objective: Objective::TrainDays, top: 50 });
        for plan in &outcome.ranked {
            let mut at = base;
            at.parallelism = plan.parallelism;
            let e = estimate(&at);
            assert!(e.feasible && e.memory.fits, "{:?}", plan.parallelism);
            assert!(close(e.step_s, plan.step_s));
            assert!(close(e.train_days, plan.train_days));
            assert!(close(e.effective_train_days, plan.effective_train_days));
            assert!(close(e.memory.peak_bytes, plan.peak_bytes));
            assert!(close(e.mfu, plan.mfu));
        }
        for pair in outcome.ranked.windows(2) {
            assert!(pair[0].train_days <= pair[1].train_days);
        }
    }
}

/// A plan that does not fit is not placed: it has no rank, and the verdict says how much it
/// needs.
#[test]
fn a_plan_that_does_not_fit_gets_no_rank() {
    let mut base = inputs(SMALL_DENSE);
    base.parallelism.tensor = 1;
    base.parallelism.pipeline = 1;
    base.parallelism.data = 16;
    base.parallelism.micro_batch = 1;
    base.parallelism.recompute = Recompute::None;
    base.parallelism.sharding = Sharding::None;
    let verdict = evaluate(&base);
    let Verdict::DoesNotFit { need_bytes, have_bytes } = verdict else {
        panic!("the unsharded plan should not fit in 40 GB: {verdict:?}")
    };
    assert!(need_bytes > have_bytes);
    let outcome = search::search(&base, Options::default());
    assert_eq!(outcome.yours.rank, 0);
    assert!(!outcome.ranked.is_empty(), "other plans do fit");
}

/// Runners-up say what they lose on, and by how much.
#[test]
fn runners_up_name_the_part_they_lose_on() {
    let outcome = search::search(&inputs(SMALL_DENSE), Options::default());
    let best = outcome.ranked[0];
    for plan in &outcome.ranked[1..] {
        let gap = plan.gap(&best, outcome.objective);
        assert!(gap.behind >= 0.0);
        assert!(plan.breakdown.parts().iter().any(|(label, _)| *label == gap.part));
        if gap.behind > 1e-9 {
            assert!(gap.seconds > 0.0, "a slower plan is slower somewhere: {gap:?}");
        }
    }
}

/// The search, on the cluster of each published run of Megatron-LM 2021 (Table 1) and Llama
/// 3.1 405B, finds a plan at least as fast as the one the authors ran (with the same software
/// stack, which sets the overlaps).
#[test]
fn finds_plans_at_least_as_fast_as_the_published_ones() {
    let (_, rows) = validation::loaded().as_ref().expect("calibration data loads");
    let mut checked = 0;
    for row in rows.iter().filter(|r| r.run == "megatron-2021" || r.run == "llama-3.1-405b") {
        let published = row.scenario.resolve().expect("published plan resolves");
        let theirs = estimate(&published);
        let outcome =
            search::search(&published, Options { objective: Objective::TrainDays, top: 3 });
        let best = outcome.ranked.first().unwrap_or_else(|| panic!("{}: no plan found", row.label));
        assert!(
            best.train_days <= theirs.train_days * (1.0 + 1e-9),
            "{} {}: search {:.2} days, published plan {:.2}",
            row.run,
            row.label,
            best.train_days,
            theirs.train_days
        );
        // The published plan itself is placed, not just beaten.
        assert!(outcome.yours.rank >= 1, "{}: the published plan is ranked", row.label);
        checked += 1;
    }
    assert!(checked >= 11, "Table 1 and Llama 3.1 rows: {checked}");
}

#[test]
fn objectives_rank_by_their_own_figure() {
    let base = inputs(SMALL_DENSE);
    for objective in Objective::ALL {
        assert_eq!(Objective::from_id(objective.id()), Some(objective));
        let outcome = search::search(&base, Options { objective, top: 10 });
        for pair in outcome.ranked.windows(2) {
            assert!(objective.of(&pair[0]) <= objective.of(&pair[1]), "{objective:?}");
        }
    }
}

/// Stopping and going on gives the same answer as searching at once.
#[test]
fn a_search_done_in_pieces_equals_one_done_at_once() {
    let base = inputs(SMALL_MOE);
    let whole = search::search(&base, Options::default());
    let mut s = search::Search::new(&base, Options::default());
    let mut rounds = 0;
    while !s.advance(1) {
        rounds += 1;
        let part = s.outcome();
        assert!(part.progress.0 < part.progress.1);
    }
    assert!(rounds > 1);
    assert_eq!(s.outcome(), whole);
}
