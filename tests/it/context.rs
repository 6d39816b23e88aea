//! Million-token context: context parallelism as all-gather, ring attention, Ulysses
//! all-to-all or both (`parallelism.cp_kind`), with the attention of a causal mask at 1M
//! tokens, memory per rank and the traffic each kind costs.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use clusterplan::model::{estimate, CpKind, Estimate, Inputs, Warning};
use clusterplan::scenario::fields;
use clusterplan::scenario::paths;
use clusterplan::scenario::Scenario;
use serde_json::json;

/// Llama 3 8B at `seq` tokens on `chips` H100, TP 8, CP `cp`, exchanging as `kind`.
fn long(seq: u32, chips: u32, cp: u32, kind: &str) -> (Inputs, Estimate) {
    let inputs = common::plan("llama3-8b", "h100-sxm", chips, 8, 1)
        .with(&fields::MODEL_SEQ_LEN, Some(json!(seq)))
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(16)))
        .with(&fields::TRAINING_TOKENS, Some(json!("100B")))
        .with(&fields::PARALLELISM_CP, Some(json!(cp)))
        .with(&fields::PARALLELISM_RECOMPUTE, Some(json!("full")))
        .with(&fields::PARALLELISM_CP_KIND, Some(json!(kind)))
        .resolve()
        .unwrap_or_else(|e| panic!("{kind}: {e:?}"));
    let e = estimate(&inputs);
    (inputs, e)
}

/// Llama 3 8B at 1,048,576 tokens runs and fits on H100 with context parallelism, whichever
/// way it exchanges; the attention of a causal mask dominates the step.
#[test]
fn llama3_8b_at_a_million_tokens_fits_on_h100_with_cp() {
    for kind in ["allgather", "ring", "both"] {
        let (_, e) = long(1_048_576, 512, 32, kind);
        assert!(e.feasible, "{kind}: {:?}", e.problems);
        assert!(e.memory.fits, "{kind}: {} GiB", e.memory.peak_bytes / 2f64.powi(30));
        assert!(e.step_s > 0.0 && e.train_days.is_finite());
    }
    // The attention core at 1M tokens outweighs every GEMM: more than half the step.
    let (_, e) = long(1_048_576, 512, 32, "ring");
    let (_, short) = long(8192, 512, 1, "ring");
    assert!(
        e.mfu > 0.1 && e.step_s > 20.0 * short.step_s,
        "{} s against {} s",
        e.step_s,
        short.step_s
    );
}

/// Ring attention hides its exchange behind attention; the all-gather leaves it exposed.
/// Ulysses' all-to-all moves queries and outputs as well as keys and values, each rank its own
/// shard: less than gathering every key and value where every head has its own (MHA), more
/// under grouped-query attention at small CP, whose keys and values are a quarter of the
/// queries.
#[test]
fn each_kind_costs_its_own_traffic() {
    let (_, gather) = long(131_072, 64, 8, "allgather");
    let (_, ring) = long(131_072, 64, 8, "ring");
    assert!(ring.breakdown.cp_exposed_s < gather.breakdown.cp_exposed_s);
    assert!(gather.breakdown.cp_exposed_s > 0.0);
    // Llama 3 8B has 32 heads: TP 8 x CP 4 divides them.
    let (inputs, ulysses) = long(131_072, 32, 4, "ulysses");
    assert_eq!(inputs.parallelism.cp_kind, CpKind::Ulysses);
    assert!(ulysses.feasible, "{:?}", ulysses.problems);
    let (_, gather4) = long(131_072, 32, 4, "allgather");
    assert!(ulysses.link.cp_s > gather4.link.cp_s, "GQA: {} s", ulysses.link.cp_s);
    // With a key/value head per query head, Ulysses moves less.
    let mha = |kind: &str| {
        let inputs = Scenario::default_plan()
            .with(paths::MODEL_PRESET, Some(json!("llama3-8b")))
            .with(&fields::MODEL_KV_HEADS, Some(json!(32)))
            .with(&fields::MODEL_SEQ_LEN, Some(json!(131_072)))
            .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(16)))
            .with(paths::CLUSTER_CHIP, Some(json!("h100-sxm")))
            .with(&fields::CLUSTER_CHIPS, Some(json!(32)))
            .with(&fields::PARALLELISM_TP, Some(json!(8)))
            .with(&fields::PARALLELISM_PP, Some(json!(1)))
            .with(&fields::PARALLELISM_CP, Some(json!(4)))
            .with(&fields::PARALLELISM_VIRTUAL_STAGES, Some(json!(1)))
            .with(&fields::PARALLELISM_RECOMPUTE, Some(json!("full")))
            .with(&fields::PARALLELISM_CP_KIND, Some(json!(kind)))
            .resolve()
            .expect("resolves");
        estimate(&inputs).link.cp_s
    };
    assert!(mha("ulysses") < mha("allgather"), "{} against {}", mha("ulysses"), mha("allgather"));
}

/// Ulysses needs the heads to divide among TP x CP ranks; `both` keeps Ulysses inside the
/// domain and runs the rest as a ring, so it always runs.
#[test]
fn ulysses_needs_heads_to_divide_and_both_falls_back_to_a_ring() {
    let (_, e) = long(1_048_576, 512, 32, "ulysses");
    assert!(!e.feasible);
    assert!(
        e.problems.contains(&Warning::UlyssesSplitsHeads { heads: 32, ranks: 256 }),
        "{:?}",
        e.problems
    );
    let (_, both) = long(1_048_576, 512, 32, "both");
    let (_, ring) = long(1_048_576, 512, 32, "ring");
    assert!(both.feasible);
    // On 8-GPU domains TP 8 leaves no room for Ulysses: `both` is the ring.
    assert_eq!(both.step_s, ring.step_s);
}

/// A link written before `cp_kind` keeps its meaning: `cp_overlap` picks the ring, else the
/// all-gather.
#[test]
fn cp_overlap_alone_still_picks_the_kind() {
    let base = Scenario::default_plan();
    let kind = |s: Scenario| s.resolve().expect("resolves").parallelism.cp_kind;
    assert_eq!(kind(base.clone()), CpKind::AllGather);
    assert_eq!(kind(base.with(&fields::PARALLELISM_CP_OVERLAP, Some(json!(true)))), CpKind::Ring);
}

/// DeepSeek-V3's attention is latent (MLA) with its published dimensions: about 187M
/// parameters per layer, 671B in all; written back as explicit dimensions it resolves to the
/// same model, and naming another kernel turns it into ordinary attention.
#[test]
fn deepseek_v3_has_multi_head_latent_attention() {
    let ds = Scenario::default_plan().with(paths::MODEL_PRESET, Some(json!("deepseek-v3")));
    let t = ds.resolve().expect("resolves").transformer;
    let m = t.mla.expect("latent attention");
    assert_eq!(
        (m.q_lora_rank, m.kv_lora_rank, m.rope_head_dim, m.v_head_dim),
        (1536, 512, 64, 128)
    );
    assert!((t.attention_params() / 1e6 - 187.1).abs() < 0.5, "{}", t.attention_params());
    assert!((t.params() / 1e9 - 671.0).abs() < 15.0, "{}", t.params() / 1e9);
    let written = clusterplan::scenario::describe::transformer(&t);
    assert_eq!(written["attention"], json!("mla"));
    let again =
        Scenario::default_plan().with(paths::MODEL, Some(written)).resolve().expect("resolves");
    assert_eq!(again.transformer, t);
    let plain =
        ds.with(&fields::MODEL_ATTENTION, Some(json!("flash"))).resolve().expect("resolves");
    assert!(plain.transformer.mla.is_none());
}

/// The search tries the context-parallel exchanges too: for a long sequence typed with the
/// exposed all-gather it finds a plan with ring attention (or Ulysses in the domain and a ring
/// across) no slower than anything the typed exchange allows, and applying it keeps the kind.
#[test]
fn the_search_tries_each_context_parallel_exchange() {
    use clusterplan::model::search::{search, Options};
    let typed = Scenario::default_plan()
        .with(paths::MODEL_PRESET, Some(json!("llama3-8b")))
        .with(&fields::MODEL_SEQ_LEN, Some(json!(131_072)))
        .with(&fields::TRAINING_GLOBAL_BATCH, Some(json!(32)))
        .with(&fields::TRAINING_TOKENS, Some(json!("100B")))
        .with(paths::CLUSTER_CHIP, Some(json!("h100-sxm")))
        .with(&fields::CLUSTER_CHIPS, Some(json!(128)))
        .with(&fields::PARALLELISM_TP, Some(json!(8)))
        .with(&fields::PARALLELISM_PP, Some(json!(1)))
        .with(&fields::PARALLELISM_CP, Some(json!(8)))
        .with(&fields::PARALLELISM_VIRTUAL_STAGES, Some(json!(1)))
        .with(&fields::PARALLELISM_CP_KIND, Some(json!("allgather")));
    let inputs = typed.resolve().expect("resolves");
    let outcome = search(&inputs, Options { top: 1000, ..Options::default() });
    let best = outcome.ranked[0];
    assert!(best.parallelism.context > 1, "a long sequence is split: {best:?}");
    assert_ne!(best.parallelism.cp_kind, CpKind::AllGather, "{best:?}");
    let split: Vec<CpKind> = outcome
        .ranked
        .iter()
        .filter(|p| p.parallelism.context > 1)
        .map(|p| p.parallelism.cp_kind)
        .collect();
    assert!(split.contains(&CpKind::AllGather) && split.contains(&CpKind::Ring), "{split:?}");
    let applied = typed.with_found(&best, inputs.cluster.n_chips);
    let (_, e) = applied.estimated().expect("applies");
    assert!((e.train_days - best.train_days).abs() <= 1e-9 * best.train_days);
}
