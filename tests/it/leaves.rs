//! The leaves of the objects a user writes by hand (a custom chip, scale-up fabric, scale-out
//! network) are defined once: the field table lists exactly them, and `resolve` reads back
//! what `describe` writes for any object inside the table's ranges, refusing each leaf at its
//! own path when it is outside.

use crate::common::Rng;
use clusterplan::model::{Chip, Link, ScaleUp};
use clusterplan::scenario::fields::{self, Kind};
use clusterplan::scenario::leaves::{self, Leaf, Rule};
use clusterplan::scenario::{describe, Scenario};
use serde_json::{json, Map, Value};

/// The paths of an object's leaves.
fn paths<T>(leaves: &[Leaf<T>]) -> Vec<&'static str> {
    leaves.iter().map(|l| l.field.path).collect()
}

#[test]
fn the_table_lists_exactly_the_leaves_of_each_object() {
    for (section, mut listed) in [
        ("cluster.chip", paths(&leaves::CHIP)),
        ("cluster.scale_up", paths(&leaves::SCALE_UP)),
        ("cluster.scale_out", paths(&leaves::SCALE_OUT)),
    ] {
        let mut table: Vec<&str> = fields::FIELDS
            .iter()
            .map(|f| f.path)
            .filter(|p| p.strip_prefix(section).is_some_and(|k| k.starts_with('.')))
            .collect();
        table.sort();
        listed.sort();
        assert_eq!(table, listed, "{section}");
    }
    let mut testids: Vec<&str> = (leaves::CHIP.iter().map(|l| l.testid))
        .chain(leaves::SCALE_UP.iter().map(|l| l.testid))
        .chain(leaves::SCALE_OUT.iter().map(|l| l.testid))
        .collect();
    let n = testids.len();
    testids.sort();
    testids.dedup();
    assert_eq!(testids.len(), n, "each input has its own test id");
}

/// A leaf's rule agrees with its entry: counts are counts, fractions fractions with a fixed
/// default (a fraction is never required), optional leaves may be zero.
#[test]
fn each_rule_agrees_with_its_field() {
    let check = |field: &fields::Field, rule: Rule| match rule {
        Rule::Count => assert_eq!(field.kind, Kind::Count, "{}", field.path),
        Rule::Fraction => {
            assert_eq!(field.kind, Kind::Fraction, "{}", field.path);
            assert!(matches!(field.default, fields::Fallback::Fixed(_)), "{}", field.path);
        }
        Rule::Optional => assert_eq!(field.min, 0.0, "{}", field.path),
        Rule::Positive | Rule::Maybe => assert!(field.min > 0.0, "{}", field.path),
    };
    leaves::CHIP.iter().for_each(|l| check(l.field, l.rule));
    leaves::SCALE_UP.iter().for_each(|l| check(l.field, l.rule));
    leaves::SCALE_OUT.iter().for_each(|l| check(l.field, l.rule));
}

/// A value inside `field`'s range, spread over its decades; whole for counts.
fn inside(field: &fields::Field, rng: &mut Rng) -> f64 {
    let low = field.min.max(field.max * 1e-6).max(1e-3);
    let t = rng.below(1001) as f64 / 1000.0;
    let x = low * (field.max / low).powf(t);
    let x = x.clamp(field.min.max(1e-9), field.max);
    match field.kind {
        Kind::Count => x.round().clamp(field.min.max(1.0), field.max),
        Kind::Fraction => x.min(1.0),
        _ => x,
    }
}

/// An object with each leaf set to a generated value in the model's units (none, now and
/// then, for a leaf that may be absent).
fn generated<T: Copy>(leaves: &[Leaf<T>], start: T, rng: &mut Rng) -> T {
    let mut out = start;
    for leaf in leaves {
        let none = matches!(leaf.rule, Rule::Optional | Rule::Maybe) && rng.below(4) == 0;
        let value = (!none).then(|| leaf.field.to_si(inside(leaf.field, rng)));
        (leaf.set)(&mut out, value);
    }
    out
}

/// The default plan on a custom chip and fabrics (a custom chip names both of its own), with
/// `object` written under `path`.
fn custom(path: &str, object: Map<String, Value>) -> Scenario {
    let base = Scenario::default_plan().resolve().expect("resolves").cluster;
    let mut scenario = Scenario::default_plan();
    for (at, value) in describe::custom_chip(&base) {
        scenario = scenario.with(at, Some(value));
    }
    scenario.with_at(path, Some(Value::Object(object)))
}

/// What `resolve` makes of `object` written under `path` (see `custom`).
fn resolved(path: &str, object: Map<String, Value>) -> clusterplan::model::Cluster {
    custom(path, object).resolve().unwrap_or_else(|e| panic!("{path}: {e:?}")).cluster
}

/// Every leaf of `a` and `b` agrees to within rounding of the unit's factor.
fn same<T>(leaves: &[Leaf<T>], a: &T, b: &T, case: usize) {
    for leaf in leaves {
        let (x, y) = ((leaf.get)(a), (leaf.get)(b));
        let close = match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
            // An optional rate of none is kept as zero.
            (None, Some(z)) | (Some(z), None) => leaf.rule == Rule::Optional && z == 0.0,
            (None, None) => true,
        };
        assert!(close, "case {case}, {}: wrote {x:?}, read {y:?}", leaf.field.path);
    }
}

#[test]
fn what_describe_writes_resolve_reads_back_for_any_object() {
    let mut rng = Rng(0x1EAF_0B1E);
    let base = Scenario::default_plan().resolve().expect("resolves").cluster;
    for case in 0..200 {
        let chip: Chip = generated(&leaves::CHIP, base.chip, &mut rng);
        let got = resolved("cluster.chip", describe::chip(&chip)).chip;
        same(&leaves::CHIP, &chip, &got, case);
        let up: ScaleUp = generated(&leaves::SCALE_UP, base.scale_up, &mut rng);
        let got = resolved("cluster.scale_up", describe::scale_up(&up)).scale_up;
        same(&leaves::SCALE_UP, &up, &got, case);
        let out: Link = generated(&leaves::SCALE_OUT, base.scale_out, &mut rng);
        let got = resolved("cluster.scale_out", describe::scale_out(&out)).scale_out;
        same(&leaves::SCALE_OUT, &out, &got, case);
    }
}

/// A leaf above its range is refused at its own path, and only there; the rest of the object
/// still reads.
#[test]
fn a_leaf_out_of_range_is_refused_at_its_path() {
    let base = Scenario::default_plan().resolve().expect("resolves").cluster;
    let objects = [
        ("cluster.chip", describe::chip(&base.chip), paths(&leaves::CHIP)),
        ("cluster.scale_up", describe::scale_up(&base.scale_up), paths(&leaves::SCALE_UP)),
        ("cluster.scale_out", describe::scale_out(&base.scale_out), paths(&leaves::SCALE_OUT)),
    ];
    for (section, object, leaf_paths) in objects {
        for path in leaf_paths {
            let field = fields::field(path).expect("a field");
            let mut wrong = object.clone();
            wrong.insert(field.key().to_string(), json!(field.max * 10.0 + 1.0));
            let errors = custom(section, wrong).resolve().expect_err(path);
            let at: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
            assert_eq!(at, [path], "{section}");
        }
    }
}

/// Without a preset under it, a custom chip needs its rates and memory, and takes every other
/// figure from its fallback: FP32 at a sixteenth of BF16, no FP8, no price.
#[test]
fn a_chip_from_nothing_needs_its_rates_and_derives_the_rest() {
    let as_object = |v: Value| serde_json::from_value::<Map<String, Value>>(v).expect("object");
    let empty = custom("cluster.chip", as_object(json!({ "name": "x" })));
    let errors = empty.resolve().expect_err("rates are required");
    let mut at: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
    at.sort();
    assert_eq!(
        at,
        ["cluster.chip.bf16_tflops", "cluster.chip.hbm_gb", "cluster.chip.hbm_tb_per_s"]
    );
    let chip = json!({ "bf16_tflops": 800, "hbm_gb": 96, "hbm_tb_per_s": 3 });
    let c = custom("cluster.chip", as_object(chip))
        .resolve()
        .expect("the rest has fallbacks")
        .cluster
        .chip;
    assert!((c.fp32_flops_per_s - 50e12).abs() < 1e3, "{}", c.fp32_flops_per_s);
    assert_eq!((c.fp8_flops_per_s, c.price_usd), (0.0, None));
    assert_eq!(c.tdp_w, fields::CLUSTER_CHIP_TDP_W.fixed());
    assert_eq!(c.matmul_efficiency, fields::CLUSTER_CHIP_MATMUL_EFFICIENCY.fixed());
}
