//! Traffic readers: turn a recorded-traffic file into [`Entry`]s, one at a time.
//!
//! Two formats are read, both streamed (an entry reaches the sink as soon as it has been
//! read; the file is never held as one value tree):
//!
//! - [HAR 1.2](har) (`.har`), as browsers, proxies and HTTP toolkits export it;
//! - [JSON Lines](jsonl) (`.jsonl`, `.ndjson`), one exchange per line, for tools that record
//!   traffic themselves.
//!
//! Whatever cannot be read as an exchange (bad JSON, a field of the wrong shape, a cut-off
//! file, invalid UTF-8, nesting deeper than serde_json's limit of 128) becomes a
//! [`Malformed`] entry and reading goes on where it can. Bodies are never parsed here, except
//! a JSON Lines `body` given as a JSON value.
//!
//! Common rules of both formats:
//!
//! - The method is uppercased. The path is kept as recorded (percent-encoded, without the
//!   query string or fragment); the query is percent-decoded (`+` is a space).
//! - An empty body text is no body. A base64 body that decodes to UTF-8 is
//!   [`Body::Text`], otherwise [`Body::Binary`].
//! - A response with status `0` (HAR's "no response", e.g. an aborted request) is no
//!   response.
//! - An exchange whose method is that of one of the `webhook_paths` and whose path ends with
//!   its path (on any host, after any base path of the receiver:
//!   `https://merchant/hooks/v1/banking/transfers`) is a [`ExchangeKind::Notification`],
//!   every other one an [`ExchangeKind::Operation`] (a JSON Lines record can also say which
//!   it is).

pub mod har;
pub mod jsonl;

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::marker::PhantomData;

use base64::Engine as _;
use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::exchange::{Body, Entry, ExchangeKind, Malformed};

/// A traffic file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// HTTP Archive 1.2: one JSON object, entries under `log.entries`.
    Har,
    /// One JSON object per line (see [`jsonl`]).
    JsonLines,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Har => "HAR",
            Format::JsonLines => "JSON Lines",
        })
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Guesses the format of a traffic file.
///
/// By extension first (case-insensitive): `.har` is [`Format::Har`]; `.jsonl` and `.ndjson`
/// are [`Format::JsonLines`]. Otherwise (any other name, or `-` for standard input) by the
/// first bytes of the content: an object whose first key is `"log"`, or whose first line is
/// a lone `{` (a pretty-printed object, which cannot be a JSON Lines record), is HAR;
/// anything else is JSON Lines.
pub fn detect(path: &str, first_bytes: &[u8]) -> Format {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    if let Some((_, ext)) = name.rsplit_once('.') {
        if ext.eq_ignore_ascii_case("har") {
            return Format::Har;
        }
        if ext.eq_ignore_ascii_case("jsonl") || ext.eq_ignore_ascii_case("ndjson") {
            return Format::JsonLines;
        }
    }
    let bytes = first_bytes.strip_prefix(BOM).unwrap_or(first_bytes);
    let bytes = trim_start(bytes);
    let Some(rest) = bytes.strip_prefix(b"{") else {
        return Format::JsonLines;
    };
    // A lone `{` on the first line: a pretty-printed object.
    let line_end = rest.iter().position(|&b| b == b'\n');
    if let Some(end) = line_end
        && rest[..end].iter().all(u8::is_ascii_whitespace)
    {
        return Format::Har;
    }
    match trim_start(rest).strip_prefix(b"\"log\"") {
        Some(after) if matches!(trim_start(after).first(), Some(b':') | None) => Format::Har,
        _ => Format::JsonLines,
    }
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    &bytes[start..]
}

/// Bounds on what one entry may take, so that no input (`/dev/zero`, a file of one huge line)
/// can make a run read without end or grow its memory without bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes one JSON Lines line, or one HAR entry, may have. The parts of a HAR
    /// outside `log.entries` count as entries of their own (before them, and after).
    pub max_entry: usize,
}

impl Limits {
    /// The default [`Limits::max_entry`]: 64 MiB, room for a base64 body of 48 MiB.
    pub const MAX_ENTRY: usize = 64 << 20;
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_entry: Limits::MAX_ENTRY,
        }
    }
}

/// An entry larger than [`Limits::max_entry`]. Nothing after it can be read (a line or entry
/// of unknown end, which may never end), so reading of the input stops there: the reader
/// returns this as an [`io::Error`] of kind `InvalidData`, after every entry before it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{place} is larger than the limit of {limit} bytes (--max-entry-size); reading stopped there"
)]
pub struct TooLarge {
    /// The index the entry would have had.
    pub index: usize,
    /// The line it starts on, when known.
    pub line: Option<usize>,
    /// The limit.
    pub limit: usize,
    /// What it is, for the message (`line 3`, `entry 7 (line 120)`).
    pub place: String,
}

impl TooLarge {
    /// The [`TooLarge`] an I/O error of a reader carries, if it does.
    pub fn of(error: &io::Error) -> Option<&TooLarge> {
        error.get_ref()?.downcast_ref()
    }

    fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, self)
    }
}

/// Streams every entry of a traffic file to `sink`, in input order.
///
/// `source_name` goes into every entry's `source`. `webhook_paths` lists `(METHOD, path)`
/// of the notifications the API sends: an exchange with that method and exactly that path,
/// on any host, is a notification.
///
/// Returns `Err` only when the input cannot be read at all (an I/O error before anything
/// was read), or not on: an entry over the [`Limits`] (a [`TooLarge`]). Everything else,
/// including an I/O error later on, becomes a [`Malformed`] entry passed to the sink; see
/// [`har`] and [`jsonl`] for where reading goes on after one.
pub fn read(
    source_name: &str,
    reader: impl BufRead,
    format: Format,
    webhook_paths: &[(String, String)],
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    read_limited(
        source_name,
        reader,
        format,
        webhook_paths,
        Limits::default(),
        sink,
    )
}

/// [`read`] with other [`Limits`].
pub fn read_limited(
    source_name: &str,
    reader: impl BufRead,
    format: Format,
    webhook_paths: &[(String, String)],
    limits: Limits,
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    match format {
        Format::Har => har::read(source_name, reader, webhook_paths, limits, sink),
        Format::JsonLines => jsonl::read(source_name, reader, webhook_paths, limits, sink),
    }
}

/// Opens `path` (`-` is standard input), detects its format unless `format` is given
/// ([`detect`] on the name and the first buffered bytes), and [`read`]s it with `path` as
/// the source name. Returns the format read.
pub fn read_path(
    path: &str,
    format: Option<Format>,
    webhook_paths: &[(String, String)],
    sink: &mut dyn FnMut(Entry),
) -> io::Result<Format> {
    const CAPACITY: usize = 1 << 16;
    let mut reader: Box<dyn BufRead> = if path == "-" {
        Box::new(BufReader::with_capacity(CAPACITY, io::stdin().lock()))
    } else {
        Box::new(BufReader::with_capacity(CAPACITY, File::open(path)?))
    };
    let format = match format {
        Some(format) => format,
        None => detect(path, reader.fill_buf()?),
    };
    read(path, reader, format, webhook_paths, sink)?;
    Ok(format)
}

/// What both readers need to turn a record into an [`Entry`].
struct Context<'a> {
    source: &'a str,
    webhook_paths: &'a [(String, String)],
}

impl Context<'_> {
    fn kind(&self, method: &str, path: &str) -> ExchangeKind {
        // After any base path of the receiver: a webhook path starts with `/`, so a suffix
        // match is a match of whole segments.
        let webhook = self
            .webhook_paths
            .iter()
            .any(|(m, p)| path.ends_with(p.as_str()) && m.eq_ignore_ascii_case(method));
        if webhook {
            ExchangeKind::Notification
        } else {
            ExchangeKind::Operation
        }
    }

    fn malformed(&self, index: usize, line: Option<usize>, message: String) -> Entry {
        Err(Malformed {
            index,
            source: self.source.to_owned(),
            line,
            message,
        })
    }
}

/// Skips a UTF-8 byte order mark at the start of `reader`.
fn skip_bom(reader: &mut impl BufRead) -> io::Result<()> {
    if reader.fill_buf()?.starts_with(BOM) {
        reader.consume(BOM.len());
    }
    Ok(())
}

/// serde_json's message without its ` at line L column C` suffix, with a plainer word for
/// the recursion limit.
fn bare_message(err: &serde_json::Error) -> String {
    let full = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let bare = full.strip_suffix(&suffix).unwrap_or(&full);
    if bare == "recursion limit exceeded" {
        "nesting too deep (more than 128 levels)".to_owned()
    } else {
        bare.to_owned()
    }
}

// ---------------------------------------------------------------------------------------
// Lenient fields: a record is deserialized straight into typed structs whose fields accept
// any JSON value and remember what was wrong with it, so that a field of the wrong type
// never aborts the parse (which, in a streamed HAR, would end the file) and the message
// can name the field.

/// One field of a record, as found.
#[derive(Debug, Default)]
enum Field<T> {
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
    fn required(self, name: &str, problems: &mut Vec<String>) -> Option<T> {
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
    fn optional(self, name: &str, problems: &mut Vec<String>) -> Option<T> {
        match self {
            Field::Ok(value) => Some(value),
            Field::Missing | Field::Null => None,
            Field::Wrong(what) => {
                problems.push(format!("{name}{what}"));
                None
            }
        }
    }

    fn is_present(&self) -> bool {
        !matches!(self, Field::Missing | Field::Null)
    }
}

/// A JSON number as serde hands it over.
#[derive(Debug, Clone, Copy)]
enum Num {
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

fn wrong(found: &str, expected: &str) -> String {
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
trait Shape: Sized {
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
use object_shape;

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

/// An entry id: a string, or a number taken as its text.
struct Id(String);

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
struct Status(u16);

impl Shape for Status {
    const EXPECTED: &'static str = "an HTTP status code";

    fn from_num(value: Num) -> Result<Self, String> {
        let status = match value {
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
struct Pairs(Vec<(String, String)>);

impl Shape for Pairs {
    const EXPECTED: &'static str = "an array of name/value pairs or an object";

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Result<Self, String>, A::Error> {
        let mut pairs = Vec::new();
        let mut problem = None;
        while let Some(name) = map.next_key::<String>()? {
            match map.next_value::<Field<Scalar>>()? {
                Field::Ok(Scalar(value)) => pairs.push((name, value)),
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

    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Self, String>, A::Error> {
        let mut pairs = Vec::with_capacity(seq.size_hint().unwrap_or(8));
        let mut problem = None;
        let mut position = 0;
        while let Some(pair) = seq.next_element::<Field<Pair>>()? {
            match pair {
                Field::Ok(Pair(name, value)) => pairs.push((name, value)),
                Field::Wrong(what) => {
                    problem.get_or_insert_with(|| format!("[{position}]{what}"));
                }
                Field::Null | Field::Missing => {
                    problem.get_or_insert_with(|| format!("[{position}] is null"));
                }
            }
            position += 1;
        }
        Ok(problem.map_or(Ok(Pairs(pairs)), Err))
    }
}

/// One pair: `["name", "value"]` or `{"name": ..., "value": ...}` (other keys ignored).
struct Pair(String, String);

impl Shape for Pair {
    const EXPECTED: &'static str = "a name/value pair";

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

// ---------------------------------------------------------------------------------------
// Shared conversions.

/// Uppercases a method in place, refusing an empty one.
fn method(mut method: String, name: &str, problems: &mut Vec<String>) -> Option<String> {
    if method.is_empty() {
        problems.push(format!("{name} is empty"));
        return None;
    }
    method.make_ascii_uppercase();
    Some(method)
}

/// Splits a URL (`https://host/p?q#f`) or an origin-form target (`/p?q`) into the path as
/// written (`/` when the URL has none) and the raw query string.
fn split_target(target: &str) -> Result<(String, Option<&str>), String> {
    let target = target.split_once('#').map_or(target, |(before, _)| before);
    let after_authority = if target.starts_with('/') {
        target
    } else {
        match target.split_once("://") {
            Some((scheme, rest))
                if !scheme.is_empty()
                    && scheme
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
            {
                &rest[rest.find(['/', '?']).unwrap_or(rest.len())..]
            }
            _ => return Err(" is neither an absolute URL nor a path starting with /".into()),
        }
    };
    let (path, query) = match after_authority.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (after_authority, None),
    };
    let path = if path.is_empty() { "/" } else { path };
    Ok((path.to_owned(), query))
}

/// Parses a query string into decoded pairs (`application/x-www-form-urlencoded` rules:
/// `+` is a space; a name without `=` has an empty value; empty pieces are skipped).
pub(crate) fn parse_query(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect()
}

/// A body recorded as text, possibly base64: empty is no body; decoded bytes are text when
/// they are UTF-8.
fn text_body(text: String, base64: bool, name: &str, problems: &mut Vec<String>) -> Option<Body> {
    if text.is_empty() {
        return None;
    }
    if !base64 {
        return Some(Body::Text(text));
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    let decoded = if text.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: String = text.split_ascii_whitespace().collect();
        engine.decode(compact)
    } else {
        engine.decode(&text)
    };
    match decoded {
        Ok(bytes) if bytes.is_empty() => None,
        Ok(bytes) => Some(match String::from_utf8(bytes) {
            Ok(text) => Body::Text(text),
            Err(err) => Body::Binary(err.into_bytes()),
        }),
        Err(err) => {
            problems.push(format!("{name} is not valid base64 ({err})"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_query;

    #[test]
    fn a_query_string_is_decoded_as_a_form() {
        let pairs = |query: &str| -> Vec<(String, String)> { parse_query(query) };
        let owned = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(
            pairs("a=1&b=x+y&c&&d=%2B%zz&e=%C3%A9&f=%FF"),
            owned(&[
                ("a", "1"),
                ("b", "x y"),
                ("c", ""),
                ("d", "+%zz"),
                ("e", "é"),
                ("f", "\u{FFFD}")
            ])
        );
    }
}
