//! Lenient fields: a record is deserialized straight into typed structs whose fields accept
//! any JSON value and remember what was wrong with it, so that a field of the wrong type
//! never aborts the parse (which, in a streamed HAR, would end the file) and the message
//! can name the field.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// One field of a record, as found.
#[derive(Debug, Default)]
pub(super) enum Field<T> {
    /// The key is absent.
    #[default]
    Missing,
    /// `null`.
    Null,
    /// A value of the expected shape.
    Ok(T),
    /// Anything else: what follows the field's name in the message
    /// (` is a number, expected a string`, `[2].name is missing`).
    Wrong(String),
}

impl<T> Field<T> {
    /// The value of a field that must be there.
    pub(super) fn required(self, name: &str, problems: &mut Vec<String>) -> Option<T> {
        match self {
            Field::Ok(value) => Some(value),
            Field::Missing => {
                problems.push(format!("{name} is missing"));
                None
            }
            Field::Null => {
                problems.push(format!("{name} is null"));
                None
            }
            Field::Wrong(what) => {
                problems.push(format!("{name}{what}"));
                None
            }
        }
    }

    /// The value of a field that may be absent or null.
    pub(super) fn optional(self, name: &str, problems: &mut Vec<String>) -> Option<T> {
        match self {
            Field::Ok(value) => Some(value),
            Field::Missing | Field::Null => None,
            Field::Wrong(what) => {
                problems.push(format!("{name}{what}"));
                None
            }
        }
    }

    pub(super) fn is_present(&self) -> bool {
        !matches!(self, Field::Missing | Field::Null)
    }
}

impl Field<String> {
    /// The text, when the field holds one.
    pub(super) fn as_ok(&self) -> Option<&str> {
        match self {
            Field::Ok(text) => Some(text),
            _ => None,
        }
    }
}

/// A JSON number as serde hands it over.
#[derive(Debug, Clone, Copy)]
pub(super) enum Num {
    U(u64),
    I(i64),
    F(f64),
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::U(n) => n.fmt(f),
            Num::I(n) => n.fmt(f),
            Num::F(n) => n.fmt(f),
        }
    }
}

pub(super) fn wrong(found: &str, expected: &str) -> String {
    format!(" is {found}, expected {expected}")
}

/// How many characters of a string from the input a message shows, masked.
const EXCERPT: usize = 24;

/// A string from the input as a message may describe it: its size and a short excerpt in
/// which everything but JSON punctuation is masked (`a string of 5120 bytes, masked:
/// {"xxx":{"xxxxxxx":…`), never its text. A string where an object belongs is often a HAR
/// encoded twice, whose text holds every credential of the capture, and may be megabytes.
pub(crate) fn describe_string(text: &str) -> String {
    let mut excerpt: String = text
        .chars()
        .take(EXCERPT)
        .map(|c| match c {
            '{' | '}' | '[' | ']' | ':' | ',' | '"' => c,
            c if c.is_whitespace() => ' ',
            _ => 'x',
        })
        .collect();
    if text.chars().nth(EXCERPT).is_some() {
        excerpt.push('…');
    }
    let looks_like_json = matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['));
    format!(
        "a string of {} bytes, masked: {excerpt}{}",
        text.len(),
        if looks_like_json {
            " (JSON encoded twice?)"
        } else {
            ""
        }
    )
}

/// How a type is built from each kind of JSON value; the default refuses it.
pub(super) trait Shape: Sized {
    /// For messages: `a string`, `an object`, ...
    const EXPECTED: &'static str;

    fn from_str(value: &str) -> Result<Self, String> {
        let _ = value;
        Err(wrong("a string", Self::EXPECTED))
    }

    fn from_string(value: String) -> Result<Self, String> {
        Self::from_str(&value)
    }

    fn from_num(value: Num) -> Result<Self, String> {
        let _ = value;
        Err(wrong("a number", Self::EXPECTED))
    }

    fn from_bool(value: bool) -> Result<Self, String> {
        let _ = value;
        Err(wrong("a boolean", Self::EXPECTED))
    }

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Result<Self, String>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Err(wrong("an object", Self::EXPECTED)))
    }

    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Self, String>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Err(wrong("an array", Self::EXPECTED)))
    }
}

/// Makes a `#[derive(Deserialize)]` struct (whose fields are all [`Field`]s with
/// `#[serde(default)]`) a [`Shape`] built from a JSON object.
macro_rules! object_shape {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::read::Shape for $ty {
            const EXPECTED: &'static str = "an object";

            fn from_map<'de, A: ::serde::de::MapAccess<'de>>(
                map: A,
            ) -> Result<Result<Self, String>, A::Error> {
                <$ty as ::serde::Deserialize>::deserialize(
                    ::serde::de::value::MapAccessDeserializer::new(map),
                )
                .map(Ok)
            }
        }
    )*};
}
pub(super) use object_shape;

impl<'de, T: Shape> Deserialize<'de> for Field<T> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FieldVisitor(PhantomData))
    }
}

struct FieldVisitor<T>(PhantomData<T>);

fn field<T, E>(result: Result<T, String>) -> Result<Field<T>, E> {
    Ok(match result {
        Ok(value) => Field::Ok(value),
        Err(what) => Field::Wrong(what),
    })
}

impl<'de, T: Shape> Visitor<'de> for FieldVisitor<T> {
    type Value = Field<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTED)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Field::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Field::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        field(T::from_bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        field(T::from_num(Num::U(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        field(T::from_num(Num::I(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        field(T::from_num(Num::F(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        field(T::from_str(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        field(T::from_string(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        field(T::from_map(map)?)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        field(T::from_seq(seq)?)
    }
}

impl Shape for String {
    const EXPECTED: &'static str = "a string";

    fn from_str(value: &str) -> Result<Self, String> {
        Ok(value.to_owned())
    }

    fn from_string(value: String) -> Result<Self, String> {
        Ok(value)
    }
}

/// A string, or a number or boolean taken as its text (header and query values).
struct Scalar(String);

impl Shape for Scalar {
    const EXPECTED: &'static str = "a string";

    fn from_str(value: &str) -> Result<Self, String> {
        Ok(Scalar(value.to_owned()))
    }

    fn from_string(value: String) -> Result<Self, String> {
        Ok(Scalar(value))
    }

    fn from_num(value: Num) -> Result<Self, String> {
        Ok(Scalar(value.to_string()))
    }

    fn from_bool(value: bool) -> Result<Self, String> {
        Ok(Scalar(value.to_string()))
    }
}

/// The items of a list whose every item must have the shape `T`; otherwise what is wrong with
/// the first that has not, at its index (`[2] is null`).
fn items<'de, T: Shape, A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Vec<T>, String>, A::Error> {
    let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(8));
    let mut problem = None;
    let mut position = 0;
    while let Some(item) = seq.next_element::<Field<T>>()? {
        match item {
            Field::Ok(item) => items.push(item),
            Field::Wrong(what) => {
                problem.get_or_insert_with(|| format!("[{position}]{what}"));
            }
            Field::Null | Field::Missing => {
                problem.get_or_insert_with(|| format!("[{position}] is null"));
            }
        }
        position += 1;
    }
    Ok(problem.map_or(Ok(items), Err))
}

/// The value of a name in the object form of headers or a query: one [`Scalar`], or a list
/// of them for a name given several times (`{"tag": ["a", "b"]}`, as Node.js and many
/// loggers write repeated headers), which stands for the name repeated, in order.
struct Values(Vec<String>);

impl Shape for Values {
    const EXPECTED: &'static str = "a string or an array of strings";

    fn from_str(value: &str) -> Result<Self, String> {
        Ok(Values(vec![value.to_owned()]))
    }

    fn from_string(value: String) -> Result<Self, String> {
        Ok(Values(vec![value]))
    }

    fn from_num(value: Num) -> Result<Self, String> {
        Ok(Values(vec![value.to_string()]))
    }

    fn from_bool(value: bool) -> Result<Self, String> {
        Ok(Values(vec![value.to_string()]))
    }

    fn from_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Result<Self, String>, A::Error> {
        Ok(items::<Scalar, A>(seq)?
            .map(|values| Values(values.into_iter().map(|Scalar(v)| v).collect())))
    }
}

/// An entry id: a string, or a number taken as its text.
pub(super) struct Id(pub(super) String);

impl Shape for Id {
    const EXPECTED: &'static str = "a string";

    fn from_str(value: &str) -> Result<Self, String> {
        Ok(Id(value.to_owned()))
    }

    fn from_string(value: String) -> Result<Self, String> {
        Ok(Id(value))
    }

    fn from_num(value: Num) -> Result<Self, String> {
        Ok(Id(value.to_string()))
    }
}

/// An HTTP status: `0` (no response) or 100–999.
pub(super) struct Status(pub(super) u16);

impl Shape for Status {
    const EXPECTED: &'static str = "an HTTP status code";

    /// Written by hand as text (`"200"`, `"404 Not Found"`): its leading code is meant.
    fn from_str(value: &str) -> Result<Self, String> {
        let text = value.trim();
        let code = text.split_once(' ').map_or(text, |(code, _)| code);
        match code.parse::<u64>() {
            Ok(status) if code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit()) => {
                Self::from_num(Num::U(status))
            }
            _ => Err(wrong(&describe_string(value), Self::EXPECTED)),
        }
    }

    fn from_num(value: Num) -> Result<Self, String> {
        let status = match value {
            // Playwright's mark of a request that got no answer: none, as `0` is.
            Num::I(-1) => Some(0),
            Num::U(n) => Some(n),
            Num::I(n) => u64::try_from(n).ok(),
            Num::F(n) if n.fract() == 0.0 && (0.0..1000.0).contains(&n) => Some(n as u64),
            Num::F(_) => None,
        };
        match status {
            Some(n @ (0 | 100..=999)) => Ok(Status(n as u16)),
            _ => Err(format!(" is {value}, expected {}", Self::EXPECTED)),
        }
    }
}

/// Name/value pairs: `{"name": "value", ...}`, `[["name", "value"], ...]` or
/// `[{"name": ..., "value": ...}, ...]`.
pub(super) struct Pairs(pub(super) Vec<(String, String)>);

impl Shape for Pairs {
    const EXPECTED: &'static str = "an array of name/value pairs or an object";

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Result<Self, String>, A::Error> {
        let mut pairs = Vec::new();
        let mut problem = None;
        while let Some(name) = map.next_key::<String>()? {
            match map.next_value::<Field<Values>>()? {
                Field::Ok(Values(values)) => {
                    pairs.extend(values.into_iter().map(|value| (name.clone(), value)));
                }
                Field::Wrong(what) => {
                    problem.get_or_insert_with(|| {
                        format!(".{}{what}", crate::finding::shorten(&name, 64))
                    });
                }
                Field::Null | Field::Missing => {
                    problem.get_or_insert_with(|| {
                        format!(".{} is null", crate::finding::shorten(&name, 64))
                    });
                }
            }
        }
        Ok(problem.map_or(Ok(Pairs(pairs)), Err))
    }

    fn from_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Result<Self, String>, A::Error> {
        Ok(items::<Pair, A>(seq)?.map(|pairs| {
            Pairs(
                pairs
                    .into_iter()
                    .map(|Pair(name, value)| (name, value))
                    .collect(),
            )
        }))
    }
}

/// One pair: `["name", "value"]` or `{"name": ..., "value": ...}` (other keys ignored).
struct Pair(String, String);

impl Shape for Pair {
    const EXPECTED: &'static str = "a name/value pair";

    /// A header line as it is written on the wire: `"Content-Type: application/json"`.
    fn from_str(value: &str) -> Result<Self, String> {
        match value.split_once(':') {
            Some((name, value)) if !name.trim().is_empty() && !name.contains(' ') => {
                Ok(Pair(name.trim().to_owned(), value.trim().to_owned()))
            }
            _ => Err(wrong(
                &format!("{}, not a `Name: value` line", describe_string(value)),
                Self::EXPECTED,
            )),
        }
    }

    fn from_map<'de, A: MapAccess<'de>>(map: A) -> Result<Result<Self, String>, A::Error> {
        let raw = NameValue::deserialize(de::value::MapAccessDeserializer::new(map))?;
        let mut problems = Vec::new();
        let name = raw.name.required(".name", &mut problems);
        let value = raw.value.required(".value", &mut problems);
        Ok(match (name, value) {
            (Some(Scalar(name)), Some(Scalar(value))) => Ok(Pair(name, value)),
            _ => Err(problems.swap_remove(0)),
        })
    }

    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Self, String>, A::Error> {
        let name = seq.next_element::<Field<Scalar>>()?;
        let value = match name {
            Some(_) => seq.next_element::<Field<Scalar>>()?,
            None => None,
        };
        let mut extra = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            extra += 1;
        }
        let mut problems = Vec::new();
        let name = name.unwrap_or_default().required("[0]", &mut problems);
        let value = value.unwrap_or_default().required("[1]", &mut problems);
        Ok(match (name, value) {
            _ if extra > 0 => Err(format!(" has {} items, expected 2", extra + 2)),
            (Some(Scalar(name)), Some(Scalar(value))) => Ok(Pair(name, value)),
            _ => Err(problems.swap_remove(0)),
        })
    }
}

#[derive(Deserialize)]
struct NameValue {
    #[serde(default)]
    name: Field<Scalar>,
    #[serde(default)]
    value: Field<Scalar>,
}

/// Any JSON value, kept as it is.
impl Shape for serde_json::Value {
    const EXPECTED: &'static str = "a JSON value";

    fn from_str(value: &str) -> Result<Self, String> {
        Ok(serde_json::Value::String(value.to_owned()))
    }

    fn from_string(value: String) -> Result<Self, String> {
        Ok(serde_json::Value::String(value))
    }

    fn from_num(value: Num) -> Result<Self, String> {
        Ok(match value {
            Num::U(n) => n.into(),
            Num::I(n) => n.into(),
            Num::F(n) => n.into(),
        })
    }

    fn from_bool(value: bool) -> Result<Self, String> {
        Ok(serde_json::Value::Bool(value))
    }

    fn from_map<'de, A: MapAccess<'de>>(map: A) -> Result<Result<Self, String>, A::Error> {
        serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map)).map(Ok)
    }

    fn from_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Result<Self, String>, A::Error> {
        serde_json::Value::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Ok)
    }
}
