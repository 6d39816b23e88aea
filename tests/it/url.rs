//! The URL fragment codec: round trips, golden fragments from every format version, and
//! damaged fragments that must fail cleanly.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{random_scenario, Rng};
use clusterplan::scenario::fields;
use clusterplan::scenario::url::{self, base64url_decode, base64url_encode, DecodeError};
use clusterplan::scenario::Scenario;
use serde_json::Value;

#[test]
fn random_scenarios_round_trip_through_the_fragment() {
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    for case in 0..1000 {
        let s = random_scenario(&mut rng);
        let fragment = url::encode(&s);
        assert!(fragment.starts_with("s=1."), "{fragment}");
        let back = url::decode(&format!("#{fragment}")).expect("decodes").expect("has a scenario");
        assert_eq!(back, s, "case {case}");
        assert_eq!(back.resolve(), s.resolve(), "case {case}: same inputs, so the same numbers");
    }
}

#[test]
fn golden_fragments_from_every_version_still_decode() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/golden-fragments.json"
    ))
    .expect("golden fragments");
    let golden: Vec<Value> = serde_json::from_str(&text).expect("golden fragments are JSON");
    assert!(golden.len() >= 3);
    for entry in golden {
        let fragment = entry["fragment"].as_str().expect("fragment");
        let expected =
            Scenario::from_value(entry["scenario"].clone()).expect("expected scenario parses");
        let decoded = url::decode(fragment).expect("decodes").expect("has a scenario");
        assert_eq!(decoded, expected, "{fragment}");
        assert!(decoded.resolve().is_ok(), "{fragment} still resolves");
    }
}

#[test]
fn fragments_without_a_scenario_are_not_errors() {
    assert_eq!(url::decode(""), Ok(None));
    assert_eq!(url::decode("#"), Ok(None));
    assert_eq!(url::decode("#section-2"), Ok(None));
}

#[test]
fn damaged_fragments_fail_with_a_reason() {
    let good = url::encode(&Scenario::default_plan());
    let truncated = &good[..good.len() / 2];
    assert!(matches!(
        url::decode(truncated),
        Err(DecodeError::NotScenario(_) | DecodeError::NotBase64)
    ));
    assert_eq!(url::decode("s=9.abc"), Err(DecodeError::FutureVersion(9)));
    assert_eq!(url::decode("s=abc"), Err(DecodeError::NoVersion));
    assert_eq!(url::decode("s=x.abc"), Err(DecodeError::NoVersion));
    assert_eq!(url::decode("s=1.%%%"), Err(DecodeError::NotBase64));
    assert!(
        matches!(url::decode("s=1.W10"), Err(DecodeError::NotScenario(_))),
        "an array is not a scenario"
    );
    let future = format!("s=1.{}", base64url_encode(br#"{"version": 5}"#));
    assert_eq!(url::decode(&future), Err(DecodeError::FutureVersion(5)));
    let huge = format!("s=1.{}", "A".repeat(100_000));
    assert_eq!(url::decode(&huge), Err(DecodeError::TooLong));
}

#[test]
fn flipped_characters_never_panic() {
    let good = url::encode(&Scenario::default_plan());
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let alphabet: Vec<char> = "ABCxyz019-_=.%{}\"".chars().collect();
    for _ in 0..3000 {
        let mut chars: Vec<char> = good.chars().collect();
        let at = 4 + rng.below(chars.len() as u64 - 4) as usize;
        chars[at] = *rng.pick(&alphabet);
        let cut = 4 + rng.below(chars.len() as u64 - 3) as usize;
        let damaged: String = chars[..cut].iter().collect();
        if let Ok(Some(s)) = url::decode(&damaged) {
            // A flip can land in a value; the scenario may then be invalid, never a crash.
            let _ = s.resolve();
        }
    }
}

#[test]
fn base64url_round_trips_any_bytes() {
    let mut rng = Rng(7);
    for len in 0..200 {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = base64url_encode(&bytes);
        assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(base64url_decode(&text), Some(bytes));
    }
    assert_eq!(base64url_encode(b"hello"), "aGVsbG8");
    assert_eq!(base64url_decode("aGVsbG8"), Some(b"hello".to_vec()));
    assert_eq!(base64url_decode("aGVsbG9"), None, "non-zero leftover bits are rejected");
}

#[test]
fn edits_by_path_match_the_error_paths() {
    let s = Scenario::default_plan();
    let edited = s.with(&fields::PARALLELISM_TP, Some(Value::from(-1)));
    assert_eq!(edited.get("parallelism.tp"), Some(Value::from(-1)));
    let errors = edited.resolve().expect_err("negative tp");
    assert!(errors.iter().any(|e| e.field == "parallelism.tp"));
    let chip = s.with(&fields::CLUSTER_CHIP_HBM_GB, Some(Value::from(96)));
    assert_eq!(
        chip.get("cluster.chip.preset"),
        Some(Value::from("h100-sxm")),
        "a preset id becomes an object"
    );
    assert_eq!(chip.resolve().map(|i| i.cluster.chip.hbm_bytes), Ok(96e9));
    assert_eq!(s.with(&fields::PARALLELISM_CP, None).get("parallelism.cp"), None, "None clears");
}

#[test]
fn clearing_a_missing_key_changes_nothing() {
    let s = Scenario::default_plan();
    assert_eq!(s.with(&fields::CLUSTER_SCALE_UP_DOMAIN, None), s, "no empty parent appears");
    assert_eq!(s.with_at("nowhere.at.all", None), s);
}

/// A comparison travels as `s=` (plan A) and `b=` (plan B); a reader that knows only `s=`
/// opens plan A, as links always opened.
#[test]
fn a_comparison_link_carries_both_plans() {
    let a = Scenario::default_plan();
    let b = a.with(&fields::CLUSTER_CHIPS, Some(serde_json::json!(8192)));
    let fragment = url::encode_pair(&a, &b);
    assert!(fragment.starts_with("s=1.") && fragment.contains("&b=1."), "{fragment}");
    assert_eq!(url::decode(&fragment), Ok(Some(a.clone())));
    assert_eq!(url::decode_b(&format!("#{fragment}")), Ok(Some(b)));
    assert_eq!(url::decode_b(&url::encode(&a)), Ok(None), "a single plan has no side B");
}
