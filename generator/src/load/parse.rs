//! Text → `serde_json::Value`, for both YAML and JSON input.
//!
//! YAML goes through a custom visitor instead of `serde_norway::Value`
//! because OpenAPI in YAML routinely has non-string mapping keys (`200:`
//! under `responses`), which must become JSON object keys, and because doing
//! it in one pass keeps the parser's line and column on every error.

use std::fmt;

use saphyr_parser::Event;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde_json::{Map, Number, Value};

use crate::error::Error;

/// Parses `text` as JSON when it looks like JSON (a `.json` name or a leading
/// `{`), since serde_json reports errors better; as YAML (of which JSON is a
/// subset) otherwise, and when text that merely starts with `{` turns out to
/// be a YAML flow mapping.
pub(crate) fn parse_text(text: &str, source_name: &str) -> Result<Value, Error> {
    parse_text_noting(text, source_name).map(|(value, _)| value)
}

/// A member name given twice in one JSON object: JSON allows it (RFC 8259 says names SHOULD
/// be unique), and the last is read, as serde_json and most parsers do; YAML forbids it, and
/// such a YAML document is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DuplicateKey {
    /// The member's name.
    pub name: String,
    /// JSON pointer of the member, as written (`#/paths/~1pets`).
    pub pointer: String,
    /// 1-based line and column where the second one stands.
    pub location: (usize, usize),
}

/// [`parse_text`], and the first member name a JSON text gives twice in one object.
pub(crate) fn parse_text_noting(
    text: &str,
    source_name: &str,
) -> Result<(Value, Option<DuplicateKey>), Error> {
    let json_file = source_name.to_ascii_lowercase().ends_with(".json");
    if json_file || text.trim_start().starts_with('{') {
        DUPLICATE_AT.with(|at| at.borrow_mut().take());
        match serde_json::from_str::<UniqueKeys>(text) {
            Ok(UniqueKeys(value)) => Ok((value, None)),
            // A name given twice: read again as serde_json reads it (the last one wins), and
            // noted, with the path the error passed on its way out.
            Err(err) if DUPLICATE_AT.with(|at| at.borrow().is_some()) => {
                let steps = DUPLICATE_AT
                    .with(|at| at.borrow_mut().take())
                    .unwrap_or_default();
                let pointer = steps.iter().rev().fold(String::from("#"), |pointer, step| {
                    format!("{pointer}/{}", crate::load::escape_segment(step))
                });
                let value = serde_json::from_str::<Value>(text)
                    .map_err(|json_err| json_error(&json_err, source_name))?;
                let duplicate = DuplicateKey {
                    name: steps.first().cloned().unwrap_or_default(),
                    pointer,
                    location: (err.line(), err.column()),
                };
                Ok((value, Some(duplicate)))
            }
            // YAML is lenient enough to accept broken JSON (`"a": }` is a
            // null), so a file that says it is JSON gets no second chance.
            Err(json_err) if json_file => Err(json_error(&json_err, source_name)),
            Err(json_err) => parse_yaml(text, source_name)
                .map(|value| (value, None))
                .map_err(|_| json_error(&json_err, source_name)),
        }
    } else {
        parse_yaml(text, source_name).map(|value| (value, None))
    }
}

thread_local! {
    /// The path to a member name given twice, innermost step first, filled while
    /// [`UniqueKeys`]' error passes out of each object and array: nothing is spent on the
    /// path of a document without one.
    static DUPLICATE_AT: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// A JSON value whose objects give each member name once: a second one is an error, at its
/// line and column, with [`DUPLICATE_AT`] holding its path.
struct UniqueKeys(Value);

impl<'de> de::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(UniqueKeysVisitor)
            .map(UniqueKeys)
    }
}

/// Adds a step to [`DUPLICATE_AT`]'s path, when a duplicate was found.
fn passing_out_of(step: impl FnOnce() -> String) {
    DUPLICATE_AT.with(|at| {
        if let Some(path) = at.borrow_mut().as_mut() {
            path.push(step());
        }
    });
}

struct UniqueKeysVisitor;

impl<'de> Visitor<'de> for UniqueKeysVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    // Scalars as the YAML reading makes them: one rule for both.
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        ValueVisitor.visit_bool(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        ValueVisitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        ValueVisitor.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        ValueVisitor.visit_f64(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        ValueVisitor.visit_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        ValueVisitor.visit_string(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        ValueVisitor.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        loop {
            match seq.next_element::<UniqueKeys>() {
                Ok(Some(UniqueKeys(item))) => items.push(item),
                Ok(None) => return Ok(Value::Array(items)),
                Err(err) => {
                    passing_out_of(|| items.len().to_string());
                    return Err(err);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            if map.contains_key(&key) {
                let message = format!("member name `{key}` given twice");
                DUPLICATE_AT.with(|at| *at.borrow_mut() = Some(vec![key]));
                return Err(de::Error::custom(message));
            }
            match access.next_value::<UniqueKeys>() {
                Ok(UniqueKeys(value)) => {
                    map.insert(key, value);
                }
                Err(err) => {
                    passing_out_of(|| key);
                    return Err(err);
                }
            }
        }
        Ok(Value::Object(map))
    }
}

/// The deepest nesting of collections a YAML document may have: serde_norway's own limit, which
/// it reports only after it has read every token of the text.
pub(crate) const MAX_YAML_DEPTH: usize = 128;

/// Up to this many flow collections (`[`, `{`) in a text, libyaml stays fast however deeply
/// they nest (its cost grows with the depth times the tokens inside), so the depth pass can
/// wait until serde_norway has failed: a small document is parsed once, not twice.
const FLOW_OPENERS_PARSED_ONCE: usize = 1024;

fn parse_yaml(text: &str, source_name: &str) -> Result<Value, Error> {
    let checked_first = could_nest_deeply(text);
    let saphyr_error = if checked_first {
        check_depth(text, source_name)?
    } else {
        None
    };
    match serde_norway::from_str::<Json>(text) {
        Ok(Json(value)) => Ok(value),
        Err(err) => {
            // The depth pass's own findings (too deep, a second document) come first, as they
            // would have had it run first.
            let saphyr_error = if checked_first {
                saphyr_error
            } else {
                check_depth(text, source_name)?
            };
            let own = err.location().map(|l| (l.line(), l.column()));
            // Some of serde_norway's errors have no position (a text of several documents,
            // as libyaml reads it); saphyr's, where it failed too, is the place to look.
            let location = own.or(saphyr_error);
            Err(Error::Parse {
                source_name: source_name.to_owned(),
                line: location.map(|l| l.0),
                column: location.map(|l| l.1),
                message: strip_position(&err.to_string(), own),
            })
        }
    }
}

/// Whether `text` holds enough flow collections to make libyaml slow if they nested: more
/// than [`FLOW_OPENERS_PARSED_ONCE`] of `[` and `{` (every one counted, in strings too, so the
/// count is never below the depth).
fn could_nest_deeply(text: &str) -> bool {
    let openers = text.bytes().filter(|byte| matches!(byte, b'[' | b'{'));
    openers.take(FLOW_OPENERS_PARSED_ONCE + 1).count() > FLOW_OPENERS_PARSED_ONCE
}

/// Refuses a text that nests collections deeper than [`MAX_YAML_DEPTH`], at the line and
/// column of the first collection too deep, before serde_norway reads it; and a text of
/// several YAML documents, at the start of the second (serde_norway refuses it without a
/// position).
///
/// serde_norway reads the whole text into events (libyaml's scanner) before it deserializes
/// and counts depth, and that scanner walks its stack of open flow collections for every token
/// (`yaml_parser_stale_simple_keys`): `[[[[…]]]]` 100,000 deep took about two minutes to
/// refuse. saphyr's event parser gives the events one by one, so this pass stops at the first
/// collection too deep (its own scanner stops at 255 open flow collections), and costs one
/// linear pass on a document that is not too deep. Anything saphyr cannot read is left to
/// serde_norway, whose messages these are.
///
/// Returns where saphyr found the text wrong, if it did, for an error of serde_norway's that
/// has no position.
fn check_depth(text: &str, source_name: &str) -> Result<Option<(usize, usize)>, Error> {
    let too_deep = |marker: &saphyr_parser::Marker| Error::Parse {
        source_name: source_name.to_owned(),
        line: Some(marker.line()),
        column: Some(marker.col() + 1),
        message: format!(
            "the document nests collections more than {MAX_YAML_DEPTH} levels deep; \
             specgen refuses deeper nesting"
        ),
    };
    let mut parser = saphyr_parser::Parser::new_from_str(text);
    let mut depth = 0usize;
    let mut documents = 0usize;
    while let Some(next) = parser.next_event() {
        match next {
            Ok((event, span)) => match event {
                // serde_norway refuses a second document without saying where it is.
                Event::DocumentStart(..) => {
                    documents += 1;
                    if documents > 1 {
                        return Err(Error::Parse {
                            source_name: source_name.to_owned(),
                            line: Some(span.start.line()),
                            column: Some(span.start.col() + 1),
                            message: "a second YAML document begins here; an OpenAPI \
                                      document is one YAML document"
                                .into(),
                        });
                    }
                }
                Event::SequenceStart(..) | Event::MappingStart(..) => {
                    depth += 1;
                    if depth > MAX_YAML_DEPTH {
                        return Err(too_deep(&span.start));
                    }
                }
                Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
                Event::StreamEnd => break,
                _ => {}
            },
            Err(err) if err.info() == "recursion limit exceeded" => {
                return Err(too_deep(err.marker()));
            }
            Err(err) => return Ok(Some((err.marker().line(), err.marker().col() + 1))),
        }
    }
    Ok(None)
}

fn json_error(err: &serde_json::Error, source_name: &str) -> Error {
    // serde_json uses line 0 / column 0 for errors without a position.
    let location = (err.line() > 0).then(|| (err.line(), err.column()));
    let message = strip_position(&err.to_string(), location);
    // serde_json's own words for its limit, as YAML's is told.
    let message = if message == "recursion limit exceeded" {
        format!(
            "the document nests collections more than {MAX_YAML_DEPTH} levels deep; specgen \
             refuses deeper nesting"
        )
    } else {
        message
    };
    Error::Parse {
        source_name: source_name.to_owned(),
        line: location.map(|l| l.0),
        column: location.map(|l| l.1),
        message,
    }
}

/// Removes the parser's own " at line L column C" so that the position is
/// not printed twice (`Error::Parse` prints it from its fields).
fn strip_position(message: &str, location: Option<(usize, usize)>) -> String {
    match location {
        Some((line, column)) => {
            message.replacen(&format!(" at line {line} column {column}"), "", 1)
        }
        None => message.to_owned(),
    }
}

/// A `serde_json::Value` that deserializes from YAML with stringified keys.
struct Json(Value);

impl<'de> de::Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor).map(Json)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
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

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        match i64::try_from(v) {
            Ok(small) => Ok(Value::from(small)),
            Err(_) => self.visit_f64(v as f64),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        match u64::try_from(v) {
            Ok(small) => Ok(Value::from(small)),
            Err(_) => self.visit_f64(v as f64),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("the number {v} cannot be represented in JSON")))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
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

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(Json(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        // YAML merge keys (`<<: *base`): explicit keys win wherever they
        // appear, so merged entries are added only once the mapping is read.
        let mut merges: Vec<Map<String, Value>> = Vec::new();
        while let Some(key) = access.next_key_seed(KeySeed { taken: &map })? {
            let Json(value) = access.next_value()?;
            if key == "<<" {
                match value {
                    Value::Object(source) => merges.push(source),
                    Value::Array(sources) => {
                        for source in sources {
                            match source {
                                Value::Object(source) => merges.push(source),
                                _ => {
                                    return Err(de::Error::custom(
                                        "expected a mapping for merging",
                                    ));
                                }
                            }
                        }
                    }
                    _ => {
                        return Err(de::Error::custom(
                            "expected a mapping or list of mappings for merging",
                        ));
                    }
                }
                continue;
            }
            // `KeySeed` has already rejected keys that are taken.
            map.insert(key, value);
        }
        for source in merges {
            for (key, value) in source {
                map.entry(key).or_insert(value);
            }
        }
        Ok(Value::Object(map))
    }

    /// A node with a custom tag (`!Thing value`): OpenAPI gives tags no
    /// meaning, so keep the value and drop the tag.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (_tag, variant) = data.variant::<de::IgnoredAny>()?;
        variant.newtype_variant::<Json>().map(|Json(value)| value)
    }
}

/// Deserializes a mapping key of any scalar type into its string form, the
/// way JSON would have spelled it (`200` → `"200"`, `true` → `"true"`).
///
/// Duplicates are rejected here rather than after the key is read so that
/// serde_norway attaches the position of the offending key to the error.
struct KeySeed<'m> {
    taken: &'m Map<String, Value>,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(KeyVisitor { taken: self.taken })
    }
}

struct KeyVisitor<'m> {
    taken: &'m Map<String, Value>,
}

impl KeyVisitor<'_> {
    fn key<E: de::Error>(&self, key: String) -> Result<String, E> {
        if self.taken.contains_key(&key) {
            return Err(E::custom(format!("duplicate mapping key `{key}`")));
        }
        Ok(key)
    }
}

impl<'de> Visitor<'de> for KeyVisitor<'_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a scalar mapping key")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        self.key(v.to_string())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        self.key(v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        self.key(v.to_string())
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<String, E> {
        self.key(v.to_string())
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<String, E> {
        self.key(v.to_string())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        self.key(match Number::from_f64(v) {
            Some(number) => number.to_string(),
            None => v.to_string(),
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        self.key(v.to_owned())
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        self.key(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        self.key("null".to_owned())
    }

    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        self.key("null".to_owned())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<String, A::Error> {
        let (_tag, variant) = data.variant::<de::IgnoredAny>()?;
        variant.newtype_variant_seed(KeySeed { taken: self.taken })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _seq: A) -> Result<String, A::Error> {
        Err(de::Error::custom(
            "a sequence cannot be a mapping key in OpenAPI",
        ))
    }

    fn visit_map<A: MapAccess<'de>>(self, _map: A) -> Result<String, A::Error> {
        Err(de::Error::custom(
            "a mapping cannot be a mapping key in OpenAPI",
        ))
    }
}
