//! The scenario in a URL fragment: `#s=<version>.<base64url of the scenario's JSON>`.
//!
//! Version 1 is the compact JSON of `Scenario` in unpadded base64url (RFC 4648 §5). Decoding is
//! data only: a fragment can describe a plan, never run anything. Every version ever written
//! keeps decoding (tests/data/golden-fragments.json).

use super::{ParseError, Scenario};

/// Fragment format this build writes.
pub const FRAGMENT_VERSION: u64 = 1;

/// Longest fragment payload accepted, characters; a real scenario is under 2 KB.
const MAX_PAYLOAD: usize = 64 * 1024;

/// Why a fragment did not give a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Occurs when the `s=` value lacks its `<version>.` prefix.
    NoVersion,
    /// Occurs when the fragment was written by a newer format than this build reads.
    FutureVersion(u64),
    /// Occurs when the payload is not base64url (a character outside the alphabet, a bad length).
    NotBase64,
    /// Occurs when the payload is not UTF-8 JSON describing a scenario (truncated or tampered).
    NotScenario(String),
    /// Occurs when the payload is implausibly long.
    TooLong,
}

impl std::error::Error for DecodeError {}

/// The fragment (without `#`) for a scenario.
pub fn encode(scenario: &Scenario) -> String {
    format!("s={FRAGMENT_VERSION}.{}", base64url_encode(scenario.to_json().as_bytes()))
}

/// The fragment (without `#`) of a comparison: side A as `s=`, side B as `b=`. A reader that
/// knows no comparison opens side A, as it would any link.
pub fn encode_pair(a: &Scenario, b: &Scenario) -> String {
    format!("{}&b={FRAGMENT_VERSION}.{}", encode(a), base64url_encode(b.to_json().as_bytes()))
}

/// The scenario in a fragment (with or without the leading `#`); `Ok(None)` when it holds none.
pub fn decode(fragment: &str) -> Result<Option<Scenario>, DecodeError> {
    decode_part(fragment, "s=")
}

/// Side B of a comparison in a fragment (its `b=` part); `Ok(None)` when there is none.
pub fn decode_b(fragment: &str) -> Result<Option<Scenario>, DecodeError> {
    decode_part(fragment, "b=")
}

fn decode_part(fragment: &str, key: &str) -> Result<Option<Scenario>, DecodeError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let Some(value) = fragment.split('&').find_map(|part| part.strip_prefix(key)) else {
        return Ok(None);
    };
    let (version, payload) = value.split_once('.').ok_or(DecodeError::NoVersion)?;
    let version: u64 = version.parse().map_err(|_| DecodeError::NoVersion)?;
    if version > FRAGMENT_VERSION {
        return Err(DecodeError::FutureVersion(version));
    }
    if version == 0 {
        return Err(DecodeError::NoVersion);
    }
    if payload.len() > MAX_PAYLOAD {
        return Err(DecodeError::TooLong);
    }
    let bytes = base64url_decode(payload).ok_or(DecodeError::NotBase64)?;
    let text = String::from_utf8(bytes).map_err(|_| DecodeError::NotScenario("not text".into()))?;
    let mut scenarios = Scenario::parse_many(&text).map_err(|e| match e {
        ParseError::FutureVersion(v) => DecodeError::FutureVersion(v),
        ParseError::Syntax(why) => DecodeError::NotScenario(why),
        e @ ParseError::DuplicateKey { .. } => DecodeError::NotScenario(e.to_string()),
    })?;
    if scenarios.len() != 1 || !text.trim_start().starts_with('{') {
        return Err(DecodeError::NotScenario("expected one scenario".into()));
    }
    Ok(scenarios.pop())
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Unpadded base64url (RFC 4648 §5).
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes unpadded (or padded) base64url; `None` on any character outside the alphabet or
/// an impossible length.
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut n: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        n = n << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits & 0xff) as u8);
        }
    }
    // Leftover bits must be zero in a canonical encoding.
    if n & ((1 << bits) - 1) != 0 {
        return None;
    }
    Some(out)
}
