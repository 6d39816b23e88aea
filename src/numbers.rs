//! Numbers as people write them: one parser and one formatter, shared by the scenario's string
//! values (so the command-line tool reads what the page reads) and the page's fields.
//!
//! `parse` accepts `16384`, `16,384`, `16 384`, `16_384`, `16k`, `1.5M`, `405B`, `14.8T`,
//! `2e12`, full-width digits and separators from an East Asian input method (`１６３８４`,
//! `１６，３８４`), and the Chinese myriad units `万` (10^4) and `亿` (10^8) (`1.6万`).
//! `format` writes a value so that `parse` reads back exactly the same `f64`.
//! Std only; it knows nothing of fields, units or the browser.

/// Why a text is not a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Occurs when the text is empty or only spaces.
    Empty,
    /// Occurs when a thousands separator is not followed by exactly three digits
    /// (`1,5`: a decimal comma is not accepted, it would be read a thousand times too large).
    Grouping,
    /// Occurs when the text is not a number in any accepted form.
    NotANumber,
    /// Occurs when the number is too large to represent (`1e400`).
    Overflow,
}

impl std::error::Error for NumberError {}

/// Suffixes and the power of ten each stands for. Upper and lower case `k` are both common;
/// `B` (billion) is how model sizes are written, `G` how rates are; `万亿` (10^12, as Chinese
/// writes trillions of tokens) is tried before `亿`.
const SUFFIXES: &[(&str, i32)] = &[
    ("k", 3),
    ("K", 3),
    ("M", 6),
    ("B", 9),
    ("G", 9),
    ("T", 12),
    ("P", 15),
    ("万亿", 12),
    ("万", 4),
    ("亿", 8),
];

/// Folds full-width forms (U+FF01..U+FF5E) to ASCII and the ideographic space to a space.
fn fold(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        other => other,
    }
}

/// Characters that separate groups of three digits.
fn is_group_separator(c: char) -> bool {
    matches!(c, ',' | '_' | ' ' | '\'' | '\u{A0}' | '\u{2009}' | '\u{202F}')
}

/// Reads a number written the way people write them.
pub fn parse(text: &str) -> Result<f64, NumberError> {
    let folded: String = text.chars().map(fold).collect();
    let t = folded.trim();
    if t.is_empty() {
        return Err(NumberError::Empty);
    }
    let (body, power) = SUFFIXES
        .iter()
        .find_map(|&(suffix, power)| Some((t.strip_suffix(suffix)?.trim_end(), power)))
        .unwrap_or((t, 0));
    let plain = ungroup(body)?;
    if plain.is_empty() || (power != 0 && plain.contains(['e', 'E'])) {
        return Err(NumberError::NotANumber);
    }
    // Only digits, one sign, one point and one exponent: Rust's parser would also take
    // `inf` and `NaN`, which are not numbers anyone means.
    if !plain.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | '+' | '-' | 'e' | 'E')) {
        return Err(NumberError::NotANumber);
    }
    // The suffix joins the exponent, so `14.8T` reads exactly as `14.8e12` does.
    let x: f64 = if power == 0 { plain.parse() } else { format!("{plain}e{power}").parse() }
        .map_err(|_| NumberError::NotANumber)?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(NumberError::Overflow)
    }
}

/// Removes thousands separators, checking each stands before exactly three digits of the
/// integer part.
fn ungroup(body: &str) -> Result<String, NumberError> {
    if !body.contains(is_group_separator) {
        return Ok(body.to_string());
    }
    let (int, rest) = match body.find(['.', 'e', 'E']) {
        Some(i) => body.split_at(i),
        None => (body, ""),
    };
    if rest.contains(is_group_separator) {
        return Err(NumberError::Grouping);
    }
    let int = int.strip_prefix(['-', '+']).map_or(int, |s| s);
    let sign = if body.starts_with('-') { "-" } else { "" };
    let mut groups = int.split(is_group_separator);
    let first = groups.next().unwrap_or("");
    if first.is_empty() || first.len() > 3 {
        return Err(NumberError::Grouping);
    }
    let mut out = format!("{sign}{first}");
    for group in groups {
        if group.len() != 3 || !group.chars().all(|c| c.is_ascii_digit()) {
            return Err(NumberError::Grouping);
        }
        out.push_str(group);
    }
    out.push_str(rest);
    Ok(out)
}

/// A value in the shortest form people read at a glance that `parse` reads back exactly:
/// `16,384`, `2,048`, `15.6T`, `405B`, `0.85`, `1e-30`.
pub fn format(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, exp) = decimal(x.abs());
    let n = digits.len() as i32;
    let integer = exp >= n - 1;
    if integer && exp < 6 {
        return format!("{sign}{}", grouped(&shift(&digits, exp)));
    }
    if (6..18).contains(&exp) {
        // T, B, M with at most four significant digits: 15.6T, 1.5M, 405B.
        let power = [12, 9, 6].into_iter().find(|p| exp >= *p).unwrap_or(6);
        let suffix = match power {
            12 => 'T',
            9 => 'B',
            _ => 'M',
        };
        if n <= 4 || exp - power >= 3 && n <= exp - power + 1 {
            return format!("{sign}{}{suffix}", shift(&digits, exp - power));
        }
    }
    if integer && exp < 15 {
        return format!("{sign}{}", grouped(&shift(&digits, exp)));
    }
    if (-4..3).contains(&exp) || (3..15).contains(&exp) {
        let text = shift(&digits, exp);
        let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
        return if frac.is_empty() {
            format!("{sign}{}", grouped(int))
        } else {
            format!("{sign}{}.{frac}", grouped(int))
        };
    }
    format!("{sign}{:e}", x.abs())
}

/// The shortest digits that round-trip `x` (positive, finite) and the power of ten of the first.
fn decimal(x: f64) -> (String, i32) {
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (digits.to_string(), exp.parse().unwrap_or(0))
}

/// `digits` (first digit at 10^`exp`) written out in plain decimal notation.
fn shift(digits: &str, exp: i32) -> String {
    let n = digits.len() as i32;
    if exp < 0 {
        format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
    } else if exp >= n - 1 {
        format!("{digits}{}", "0".repeat((exp - n + 1) as usize))
    } else {
        let (int, frac) = digits.split_at((exp + 1) as usize);
        format!("{int}.{frac}")
    }
}

/// An integer's digits with commas between groups of three.
fn grouped(int: &str) -> String {
    let mut out = String::with_capacity(int.len() + int.len() / 3);
    for (idx, c) in int.chars().enumerate() {
        if idx > 0 && (int.len() - idx) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A derived figure as a hint beside what is typed: `format` of it to six significant
/// digits, so a rate converted between units reads `6,408.69`, not `6,408.69140625`.
pub fn hint(x: f64) -> String {
    if !(x.is_finite() && x != 0.0) {
        return format(x);
    }
    let places = 5 - x.abs().log10().floor() as i32;
    let rounded = if places > 0 {
        let scale = 10f64.powi(places);
        (x * scale).round() / scale
    } else {
        let scale = 10f64.powi(-places);
        (x / scale).round() * scale
    };
    format(rounded)
}

/// A fraction as a percentage with one decimal (`0.123` is `12.3 %`).
pub fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// A figure to three significant digits, grouped (`26.2`, `43,700`, `0.412`).
pub fn sig3(x: f64) -> String {
    if !(x.is_finite() && x != 0.0) {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if magnitude >= 2 {
        let scale = 10f64.powi(magnitude - 2);
        format((x / scale).round() * scale)
    } else {
        format!("{x:.*}", (2 - magnitude) as usize)
    }
}

/// A count as Chinese reads it, to three significant digits: in 万亿 (10^12), 亿 (10^8) and
/// 万 (10^4) from ten thousand up (`1.64万`, `2,290万`, `1.2亿`, `15.6万亿`), plain below;
/// `parse` reads it back.
pub fn wan(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    let (v, unit) = match x.abs() {
        a if a >= 1e12 => (x / 1e12, "万亿"),
        a if a >= 1e8 => (x / 1e8, "亿"),
        a if a >= 1e4 => (x / 1e4, "万"),
        _ => return sig3(x),
    };
    format!("{}{unit}", sig3(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_keep_six_figures() {
        for (x, want) in [
            (6408.69140625, "6,408.69"),
            (16_384.0, "16,384"),
            (0.123456789, "0.123457"),
            (15.6e12, "15.6T"),
            (1_234_567.0, "1,234,570"),
        ] {
            assert_eq!(hint(x), want, "{x}");
        }
    }

    #[test]
    fn counts_in_wan_and_yi_read_back() {
        for (x, want) in [
            (16_384.0, "1.64万"),
            (2.29e7, "2,290万"),
            (1.2e8, "1.20亿"),
            (15.6e12, "15.6万亿"),
            (512.0, "512"),
        ] {
            assert_eq!(wan(x), want);
            let back = parse(want).expect("reads back");
            assert!((back - x).abs() <= 0.005 * x, "{want} is {back}, not {x}");
        }
    }

    #[test]
    fn reads_the_forms_people_write() {
        for (text, want) in [
            ("16384", 16384.0),
            ("16,384", 16384.0),
            ("16 384", 16384.0),
            ("16k", 16000.0),
            ("1.5M", 1.5e6),
            ("14.8T", 14.8e12),
            ("2e12", 2e12),
            ("１６３８４", 16384.0),
            ("１６，３８４", 16384.0),
            ("1.6万", 16000.0),
            ("3亿", 3e8),
            ("1.5万亿", 1.5e12),
            ("15.6 万亿", 15.6e12),
            ("-0.5", -0.5),
            ("405B", 405e9),
        ] {
            assert_eq!(parse(text), Ok(want), "{text}");
        }
        for text in ["", "abc", "1,5", "1e3k", "inf", "NaN", "1,2345", "12.3,456"] {
            assert!(parse(text).is_err(), "{text} should not parse");
        }
        assert_eq!(parse("1e400"), Err(NumberError::Overflow));
    }

    #[test]
    fn writes_short_forms() {
        for (x, want) in [
            (16384.0, "16,384"),
            (2048.0, "2,048"),
            (15.6e12, "15.6T"),
            (405e9, "405B"),
            (0.85, "0.85"),
            (1e-30, "1e-30"),
            (1e40, "1e40"),
            (1234.5, "1,234.5"),
        ] {
            assert_eq!(format(x), want);
        }
    }
}
