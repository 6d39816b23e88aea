//! The number parser and formatter: every value the formatter writes reads back exactly, and
//! every field accepts numbers as people write them.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{random_scenario, Rng};
use clusterplan::numbers::{format, parse};
use clusterplan::scenario::fields::{Kind, FIELDS};
use clusterplan::scenario::Scenario;
use serde_json::Value;

/// Random finite values over every magnitude a field can hold, whole and fractional.
fn random_value(rng: &mut Rng) -> f64 {
    let exponent = rng.below(60) as i32 - 30;
    let mantissa = (rng.below(1 << 40) as f64) / (1u64 << 40) as f64 * 10.0;
    match rng.below(4) {
        0 => (mantissa * 10f64.powi(exponent)).max(f64::MIN_POSITIVE),
        1 => rng.below(10_000_000) as f64,
        2 => (rng.below(1000) as f64) * 10f64.powi(rng.below(13) as i32),
        _ => -(rng.below(1 << 20) as f64) / 64.0,
    }
}

#[test]
fn the_parser_reads_back_every_formatted_value_exactly() {
    let mut rng = Rng(0x005E_ED0F_7E57);
    for _ in 0..20_000 {
        let x = random_value(&mut rng);
        let text = format(x);
        assert_eq!(parse(&text), Ok(x), "{x:e} was written as {text}");
        assert!(text.len() <= 28, "{x:e} was written long: {text}");
    }
}

#[test]
fn every_field_round_trips_its_range_through_the_formatter() {
    for field in FIELDS.iter().filter(|f| f.kind != Kind::Flag) {
        for x in [field.min, field.max, (field.min + field.max) / 2.0, field.max / 3.0] {
            let x = if field.kind == Kind::Count { x.round() } else { x };
            assert_eq!(parse(&field.show(x)), Ok(x), "{}: {x}", field.path);
        }
    }
}

/// Rewrites a plain number the way a person might type it.
fn as_typed(x: f64, rng: &mut Rng) -> Value {
    let text = format(x);
    let text = match rng.below(4) {
        0 => text,
        1 => text.replace(',', " "),
        // Full-width digits and separators, as a Chinese input method types them.
        2 => text
            .chars()
            .map(|c| match c {
                '0'..='9' | ',' | '.' => char::from_u32(c as u32 + 0xFEE0).unwrap_or(c),
                other => other,
            })
            .collect(),
        _ if x >= 1e4 && x % 1e4 == 0.0 => format!("{}万", x / 1e4),
        _ => format!("  {text} "),
    };
    Value::String(text)
}

#[test]
fn numbers_written_as_people_write_them_resolve_like_plain_numbers() {
    let mut rng = Rng(0xF00D_CAFE);
    for case in 0..300 {
        let plain = random_scenario(&mut rng);
        let mut json = serde_json::to_value(&plain).expect("scenario serializes");
        for path in [
            "training.tokens",
            "training.global_batch",
            "cluster.chips",
            "parallelism.tp",
            "parallelism.pp",
            "parallelism.dp",
            "model.seq_len",
        ] {
            let (section, key) = path.split_once('.').expect("dotted");
            let x = json[section][key].as_f64().expect("generated as a number");
            json[section][key] = as_typed(x, &mut rng);
        }
        let typed = Scenario::from_value(json.clone()).expect("parses");
        assert_eq!(typed.resolve(), plain.resolve(), "case {case}: {json}");
    }
}

#[test]
fn the_forms_quoted_by_users_are_read() {
    // One chip per replica, so any chip count divides the plan.
    let mut base = Scenario::default_plan();
    for path in ["parallelism.tp", "parallelism.pp", "parallelism.cp", "parallelism.virtual_stages"]
    {
        base = base.with_at(path, Some(Value::from(1)));
    }
    for (path, text, want) in [
        ("cluster.chips", "16k", 16_000.0),
        ("cluster.chips", "16,384", 16_384.0),
        ("cluster.chips", "１６３８４", 16_384.0),
        ("cluster.chips", "1.6万", 16_000.0),
        ("training.tokens", "14.8T", 14.8e12),
        ("training.tokens", "2e12", 2e12),
    ] {
        let s = base.with_at(path, Some(Value::String(text.into())));
        let inputs = s.resolve().unwrap_or_else(|e| panic!("{path} = {text}: {e:?}"));
        let got = if path == "cluster.chips" {
            inputs.cluster.n_chips as f64
        } else {
            inputs.training.tokens
        };
        assert_eq!(got, want, "{path} = {text}");
    }
}

/// A value in a form box: as typed (never rewritten while typing), and a figure a program
/// wrote to six digits.
#[test]
fn form_values_read_as_people_write_them() {
    use clusterplan::format::raw;
    use serde_json::json;
    for (value, shown) in [
        (json!(51.2071770832896), "51.2072"),
        (json!(0.0806), "0.0806"),
        (json!(0.85), "0.85"),
        (json!(16384), "16384"),
        (json!(15600000), "15600000"),
        (json!("15.6万亿"), "15.6万亿"),
    ] {
        assert_eq!(raw(&value), shown, "{value}");
    }
}

/// A count in human units is rounded before its unit is chosen: 999,950 reads 1.00 M, never
/// 1000 k, and every count's figure stays below 1,000 of its unit.
#[test]
fn counts_never_read_a_thousand_of_a_unit() {
    clusterplan::text::set_lang(clusterplan::text::Lang::En);
    assert_eq!(clusterplan::format::count(999_950.0), "1.00 M");
    for exp in 0..150 {
        let x = 10f64.powf(exp as f64 / 10.0) * 0.9999;
        let said = clusterplan::format::count(x);
        let figure: f64 = said.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(f64::NAN);
        assert!(figure < 1000.0 || !said.contains(' '), "{x}: {said}");
    }
}
