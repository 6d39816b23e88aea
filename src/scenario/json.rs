//! Reading scenario files strictly: a key written twice in one object is refused by its path
//! (`serde_json` would keep the last silently), a leading byte-order mark is skipped, and an
//! array of scenarios is read one at a time, so a file of hundreds of thousands of them never
//! sits in memory whole.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserializer as _;
use serde_json::{Map, Value};

/// Why a document could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum JsonError {
    /// Not JSON, or cut short.
    Syntax(String),
    /// A key written twice in one object: the item of the top-level array it is in, and its
    /// dotted path there (`parallelism.tp`).
    Duplicate { place: Option<usize>, path: String },
}

/// The text without a leading byte-order mark.
fn text(source: &str) -> &str {
    source.strip_prefix('\u{feff}').unwrap_or(source)
}

/// The value of a JSON document, refusing a key written twice.
pub fn value(source: &str) -> Result<Value, JsonError> {
    let mut de = serde_json::Deserializer::from_str(text(source));
    let mut duplicate = None;
    let value = Strict { path: String::new(), duplicate: &mut duplicate }.deserialize(&mut de);
    finish(&mut de, value, duplicate.map(|path| (None, path)))
}

/// Calls `each` with every top-level item of a document that is an array (with its place), or
/// with the document itself; stops at the first error `each` returns. A key written twice
/// anywhere is an error, as in `value`; items before it have been passed.
pub fn each<E>(
    source: &str,
    mut each: impl FnMut(Option<usize>, Value) -> Result<(), E>,
) -> Result<Result<(), E>, JsonError> {
    let body = text(source);
    if !body.trim_start().starts_with('[') {
        return Ok(each(None, value(source)?));
    }
    let mut de = serde_json::Deserializer::from_str(body);
    let mut duplicate = None;
    let mut outcome = Ok(());
    let items = Items { each: &mut each, duplicate: &mut duplicate, outcome: &mut outcome };
    let read = de.deserialize_seq(items);
    finish(&mut de, read, duplicate)?;
    Ok(outcome)
}

/// The end of a read: the duplicate found first, else serde's error, else the rest of the text
/// must be blank.
fn finish<T>(
    de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    read: Result<T, serde_json::Error>,
    duplicate: Option<(Option<usize>, String)>,
) -> Result<T, JsonError> {
    if let Some((place, path)) = duplicate {
        return Err(JsonError::Duplicate { place, path });
    }
    let value = read.map_err(|e| JsonError::Syntax(e.to_string()))?;
    de.end().map_err(|e| JsonError::Syntax(e.to_string()))?;
    Ok(value)
}

/// Reads one value at `path`, noting the first key written twice.
struct Strict<'a> {
    path: String,
    duplicate: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl Strict<'_> {
    fn at(&mut self, key: &str) -> Strict<'_> {
        let path =
            if self.path.is_empty() { key.to_string() } else { format!("{}.{key}", self.path) };
        Strict { path, duplicate: self.duplicate }
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.at(&items.len().to_string()))? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.at(&key))?;
            if !seen.insert(key.clone()) && self.duplicate.is_none() {
                *self.duplicate = Some(self.at(&key).path);
            }
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// The top-level array, an item at a time.
struct Items<'a, F, E> {
    each: &'a mut F,
    duplicate: &'a mut Option<(Option<usize>, String)>,
    outcome: &'a mut Result<(), E>,
}

impl<'de, F: FnMut(Option<usize>, Value) -> Result<(), E>, E> Visitor<'de> for Items<'_, F, E> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of scenarios")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut place = 0;
        loop {
            let mut found = None;
            let seed = Strict { path: String::new(), duplicate: &mut found };
            let Some(item) = seq.next_element_seed(seed)? else { return Ok(()) };
            if let Some(path) = found {
                *self.duplicate = Some((Some(place), path));
                return Err(de::Error::custom("a key written twice"));
            }
            if self.outcome.is_ok() {
                *self.outcome = (self.each)(Some(place), item);
            }
            place += 1;
        }
    }
}
