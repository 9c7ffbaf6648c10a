// Over 600 lines on purpose: about 220 of them are its unit tests (`mod tests`), left out of the output.
//! Lossless value types used by the models.

// `src/support.rs` of every generated crate, spliced in whole by specgen (`emit::support`):
// the few types that make the models lossless. Each keeps the text it was given so that
// serializing writes back exactly what arrived: a date-time keeps its offset and precision,
// a decimal its digits, base64 its alphabet and padding. specgen keeps it as an ordinary Rust
// file so that it is compiled and unit-tested as itself (`generator/tests/runtime/`).

/// What a value that keeps the text it was given (a `text` field) has, and what it parses
/// from: equal, hashed, displayed and written as that text, and read from a JSON string its
/// `FromStr` takes, the refusal naming the text and `$what` it is not.
macro_rules! kept_as_written {
    ($type:ident, $what:literal) => {
        impl PartialEq for $type {
            fn eq(&self, other: &Self) -> bool {
                self.text == other.text
            }
        }

        impl Eq for $type {}

        impl ::std::hash::Hash for $type {
            fn hash<H: ::std::hash::Hasher>(&self, state: &mut H) {
                self.text.hash(state);
            }
        }

        impl ::std::fmt::Display for $type {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.text)
            }
        }

        impl ::serde::Serialize for $type {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.text)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $type {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                text.parse().map_err(|err| {
                    ::serde::de::Error::custom(format_args!(
                        concat!("`{}` is not ", $what, ": {}"),
                        text, err
                    ))
                })
            }
        }
    };
}

/// An RFC 3339 date-time that serializes back exactly as it was written: offset,
/// precision and case included. A `chrono::DateTime<Utc>` would rewrite `+02:00` as `Z`
/// and send a different string than it received.
///
/// Bindings are lenient, so it also reads the ISO 8601 forms real servers send in its place
/// (specval, strict, reports them): an offset without its colon or minutes (`+0200`,
/// `+02`, as Java writes them), and no offset at all (`2023-03-01T19:15:00`, as ASP.NET
/// writes it), which [`DateTime::has_offset`] tells apart. One wrong date-time would
/// otherwise make a client refuse the whole response that holds it.
#[derive(Debug, Clone)]
pub struct DateTime {
    text: String,
    value: ::chrono::DateTime<::chrono::FixedOffset>,
    has_offset: bool,
}

impl DateTime {
    /// The date-time as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The instant, with the offset it was written in; a date-time written without an
    /// offset reads as UTC, a guess [`DateTime::has_offset`] lets the caller refuse.
    pub fn value(&self) -> ::chrono::DateTime<::chrono::FixedOffset> {
        self.value
    }

    /// Whether the text gave its offset (RFC 3339 requires one); without it, the time of
    /// day is the sender's local time, whatever zone that is.
    pub fn has_offset(&self) -> bool {
        self.has_offset
    }
}

impl ::std::str::FromStr for DateTime {
    type Err = ::chrono::ParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let rfc3339 = ::chrono::DateTime::parse_from_rfc3339(text);
        let (value, has_offset) = match rfc3339 {
            Ok(value) => (value, true),
            Err(refusal) => {
                match ::chrono::DateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f%#z") {
                    Ok(value) => (value, true),
                    Err(_) => {
                        let naive =
                            ::chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
                                .map_err(|_| refusal)?;
                        (naive.and_utc().fixed_offset(), false)
                    }
                }
            }
        };
        Ok(DateTime {
            text: text.to_string(),
            value,
            has_offset,
        })
    }
}

impl<Tz: ::chrono::TimeZone> From<::chrono::DateTime<Tz>> for DateTime
where
    Tz::Offset: ::std::fmt::Display,
{
    fn from(value: ::chrono::DateTime<Tz>) -> Self {
        let value = value.fixed_offset();
        DateTime {
            text: value.to_rfc3339(),
            value,
            has_offset: true,
        }
    }
}

kept_as_written!(DateTime, "an RFC 3339 date-time");

#[cfg(feature = "schemars")]
impl ::schemars::JsonSchema for DateTime {
    fn schema_name() -> ::std::borrow::Cow<'static, str> {
        "DateTime".into()
    }

    fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
        ::schemars::json_schema!({ "type": "string", "format": "date-time" })
    }
}

/// A `format: date` (RFC 3339 `full-date`) that serializes back exactly as it was written.
///
/// Bindings are lenient, so it also reads what servers send in its place (specval, strict,
/// reports them): a month or day of one digit (`2026-2-8`), and a date-time (Asana's
/// `due_at`, .NET's `2020-01-15T00:00:00`), whose date as written it holds. One such value
/// would otherwise make a client refuse the whole response that holds it.
#[derive(Debug, Clone)]
pub struct Date {
    text: String,
    value: ::chrono::NaiveDate,
}

impl Date {
    /// The date as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The date; for a date-time written in its place, the date it gives in its own offset.
    pub fn value(&self) -> ::chrono::NaiveDate {
        self.value
    }
}

impl ::std::str::FromStr for Date {
    type Err = ::chrono::ParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let value = match text.parse::<::chrono::NaiveDate>() {
            Ok(value) => value,
            Err(refusal) => text
                .parse::<DateTime>()
                .map(|written| written.value().date_naive())
                .map_err(|_| refusal)?,
        };
        Ok(Date {
            text: text.to_string(),
            value,
        })
    }
}

impl From<::chrono::NaiveDate> for Date {
    fn from(value: ::chrono::NaiveDate) -> Self {
        Date {
            text: value.to_string(),
            value,
        }
    }
}

kept_as_written!(Date, "a date");

#[cfg(feature = "schemars")]
impl ::schemars::JsonSchema for Date {
    fn schema_name() -> ::std::borrow::Cow<'static, str> {
        "Date".into()
    }

    fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
        ::schemars::json_schema!({ "type": "string", "format": "date" })
    }
}

/// A JSON number kept as a decimal, for amounts. It keeps every digit of numbers up to
/// 15 significant digits, where a binary float would turn `0.1 + 0.2` into
/// `0.30000000000000004`; it serializes back as a JSON number, an integer when it was
/// written as one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Decimal(pub ::rust_decimal::Decimal);

impl Decimal {
    /// The decimal value.
    pub fn value(&self) -> ::rust_decimal::Decimal {
        self.0
    }
}

impl From<::rust_decimal::Decimal> for Decimal {
    fn from(value: ::rust_decimal::Decimal) -> Self {
        Decimal(value)
    }
}

impl From<Decimal> for ::rust_decimal::Decimal {
    fn from(value: Decimal) -> Self {
        value.0
    }
}

impl From<i64> for Decimal {
    fn from(value: i64) -> Self {
        Decimal(value.into())
    }
}

impl ::std::str::FromStr for Decimal {
    type Err = ::rust_decimal::Error;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.parse().map(Decimal)
    }
}

impl ::std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        ::std::fmt::Display::fmt(&self.0, f)
    }
}

impl ::serde::Serialize for Decimal {
    fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use ::rust_decimal::prelude::ToPrimitive;
        if self.0.scale() == 0 {
            // Beyond i64 an integer is still written whole (`12345678901234567890`, read
            // exactly as a u64), not as the float `1.2345678901234567e19`.
            if let Some(integer) = self.0.to_i64() {
                return serializer.serialize_i64(integer);
            }
            if let Some(integer) = self.0.to_u64() {
                return serializer.serialize_u64(integer);
            }
        }
        // Through its digits: Rust reads decimal text to the nearest float, where
        // rust_decimal's own `to_f64` may land a few units off (a full-precision f64 such as
        // 40.247749999999996 came back as 40.24775).
        match self.0.to_string().parse::<f64>() {
            Ok(float) if float.is_finite() => serializer.serialize_f64(float),
            _ => Err(::serde::ser::Error::custom(
                "decimal out of the range of a JSON number",
            )),
        }
    }
}

impl<'de> ::serde::Deserialize<'de> for Decimal {
    fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DecimalVisitor)
    }
}

struct DecimalVisitor;

impl<'de> ::serde::de::Visitor<'de> for DecimalVisitor {
    type Value = Decimal;

    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        f.write_str("a number")
    }

    fn visit_i64<E: ::serde::de::Error>(self, value: i64) -> Result<Decimal, E> {
        Ok(Decimal(value.into()))
    }

    fn visit_u64<E: ::serde::de::Error>(self, value: u64) -> Result<Decimal, E> {
        Ok(Decimal(value.into()))
    }

    fn visit_f64<E: ::serde::de::Error>(self, value: f64) -> Result<Decimal, E> {
        // The shortest text that reads back as the same float is the number as written,
        // for every number of up to 15 significant digits.
        let mut text = value.to_string();
        if !text.contains(['.', 'e', 'E']) {
            // Written as a float (`100.0`): keep it one, so it serializes as one.
            text.push_str(".0");
        }
        let decimal = text
            .parse::<::rust_decimal::Decimal>()
            .or_else(|_| ::rust_decimal::Decimal::from_scientific(&text))
            .map_err(|_| E::custom(format_args!("{value} does not fit a decimal")))?;
        // rust_decimal keeps 28 decimal places and rounds the rest away: `6.62607015e-34`
        // would become 0. A value it cannot hold as sent is refused rather than changed.
        match decimal.to_string().parse::<f64>() {
            Ok(back) if back == value => Ok(Decimal(decimal)),
            _ => Err(E::custom(format_args!(
                "{value} does not fit a decimal (28 decimal places) without changing"
            ))),
        }
    }

    fn visit_str<E: ::serde::de::Error>(self, value: &str) -> Result<Decimal, E> {
        value
            .parse()
            .map(Decimal)
            .map_err(|_| E::custom(format_args!("`{value}` is not a decimal number")))
    }
}

#[cfg(feature = "schemars")]
impl ::schemars::JsonSchema for Decimal {
    fn schema_name() -> ::std::borrow::Cow<'static, str> {
        "Decimal".into()
    }

    fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
        ::schemars::json_schema!({ "type": "number" })
    }
}

/// Base64 content (`format: byte`) kept as written, decoded on demand. Decoding is
/// lenient about padding and trailing bits, so valid but non-canonical input decodes, and
/// reads the URL-safe alphabet of RFC 4648 §5 too (`-` and `_`, which Gmail's `raw`
/// messages use); the original text is what serializes back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Base64(String);

impl Base64 {
    /// The base64 text as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The decoded bytes.
    pub fn decode(&self) -> Result<Vec<u8>, ::base64::DecodeError> {
        use ::base64::Engine as _;
        // MIME wraps base64 in lines (RFC 2045), which `format: byte` allows too.
        let unwrapped: String;
        let text = if self.0.contains(|c: char| c.is_ascii_whitespace()) {
            unwrapped = self.0.split_ascii_whitespace().collect();
            unwrapped.trim_end_matches('=')
        } else {
            self.0.trim_end_matches('=')
        };
        // A text is in one alphabet or the other: `-` or `_` say it is the URL-safe one.
        let alphabet = if text.contains(['-', '_']) {
            &::base64::alphabet::URL_SAFE
        } else {
            &::base64::alphabet::STANDARD
        };
        lenient_base64(alphabet).decode(text)
    }

    /// Canonical base64 of some bytes.
    pub fn encode(bytes: impl AsRef<[u8]>) -> Self {
        use ::base64::Engine as _;
        Base64(::base64::engine::general_purpose::STANDARD.encode(bytes))
    }

    /// Base64url of some bytes (RFC 4648 §5, unpadded), for a field that documents it.
    pub fn encode_url_safe(bytes: impl AsRef<[u8]>) -> Self {
        use ::base64::Engine as _;
        Base64(::base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
    }
}

fn lenient_base64(alphabet: &::base64::alphabet::Alphabet) -> ::base64::engine::GeneralPurpose {
    ::base64::engine::GeneralPurpose::new(
        alphabet,
        ::base64::engine::GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(::base64::engine::DecodePaddingMode::Indifferent),
    )
}

impl ::serde::Serialize for Base64 {
    fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Any string is kept, base64 or not (JSON Schema does not assert `format: byte`, and
/// a placeholder like `[file data]` is common): [`Base64::decode`] says whether it is.
impl<'de> ::serde::Deserialize<'de> for Base64 {
    fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Base64)
    }
}

#[cfg(feature = "schemars")]
impl ::schemars::JsonSchema for Base64 {
    fn schema_name() -> ::std::borrow::Cow<'static, str> {
        "Base64".into()
    }

    fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
        ::schemars::json_schema!({ "type": "string", "format": "byte" })
    }
}

/// Deserializes a present field as `Some`, even when it is null: for optional fields
/// whose type holds null itself (`serde_json::Value`), so a null survives a round trip.
pub fn present<'de, T, D>(deserializer: D) -> Result<Option<T>, D::Error>
where
    T: ::serde::Deserialize<'de>,
    D: ::serde::Deserializer<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// Serde glue for optional fields that may also be null: `None` is absent,
/// `Some(None)` is an explicit null, `Some(Some(v))` a value. Used with
/// `#[serde(default, skip_serializing_if = "Option::is_none", with = ...)]`.
pub mod double_option {
    /// Writes `Some(None)` as null and `Some(Some(v))` as `v`.
    pub fn serialize<T, S>(value: &Option<Option<T>>, serializer: S) -> Result<S::Ok, S::Error>
    where
        T: ::serde::Serialize,
        S: ::serde::Serializer,
    {
        match value {
            Some(inner) => ::serde::Serialize::serialize(inner, serializer),
            None => serializer.serialize_none(),
        }
    }

    /// Reads a present field: null as `Some(None)`, a value as `Some(Some(v))`.
    pub fn deserialize<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
    where
        T: ::serde::Deserialize<'de>,
        D: ::serde::Deserializer<'de>,
    {
        <Option<T> as ::serde::Deserialize>::deserialize(deserializer).map(Some)
    }
}

/// Serde glue for fields that hold `f64` (`format: double` or `float`): a whole number is
/// written as JSON writes it (`100`, where serde writes `100.0`), as JavaScript, Go and most
/// services do, so that a value read from `{"fade": 100}` goes back as it came. Used with
/// `#[serde(serialize_with = "...::whole_floats::serialize")]`, through `Option`, `Vec`,
/// `Box` and maps.
pub mod whole_floats {
    /// A value whose floats are written as [`whole_floats`](self) says.
    pub trait Floats {
        /// Serializes the value, its floats as JSON writes them.
        fn serialize_floats<S: ::serde::Serializer>(
            &self,
            serializer: S,
        ) -> Result<S::Ok, S::Error>;
    }

    /// Serializes `value`, its whole floats as integers.
    pub fn serialize<T: Floats + ?Sized, S: ::serde::Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.serialize_floats(serializer)
    }

    /// Below 2^53 every whole `f64` is exactly an `i64`; `-0.0` keeps its sign as a float.
    const EXACT: f64 = 9_007_199_254_740_992.0;

    impl Floats for f64 {
        fn serialize_floats<S: ::serde::Serializer>(
            &self,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            if self.fract() == 0.0
                && self.abs() < EXACT
                && !(*self == 0.0 && self.is_sign_negative())
            {
                serializer.serialize_i64(*self as i64)
            } else {
                serializer.serialize_f64(*self)
            }
        }
    }

    impl<T: Floats> Floats for Option<T> {
        fn serialize_floats<S: ::serde::Serializer>(
            &self,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match self {
                Some(value) => serializer.serialize_some(&Whole(value)),
                None => serializer.serialize_none(),
            }
        }
    }

    impl<T: Floats + ?Sized> Floats for Box<T> {
        fn serialize_floats<S: ::serde::Serializer>(
            &self,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            (**self).serialize_floats(serializer)
        }
    }

    impl<T: Floats> Floats for Vec<T> {
        fn serialize_floats<S: ::serde::Serializer>(
            &self,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.iter().map(Whole))
        }
    }

    impl<T: Floats> Floats for ::std::collections::BTreeMap<String, T> {
        fn serialize_floats<S: ::serde::Serializer>(
            &self,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.iter().map(|(key, value)| (key, Whole(value))))
        }
    }

    /// A value serialized through [`Floats`].
    struct Whole<'a, T: ?Sized>(&'a T);

    impl<T: Floats + ?Sized> ::serde::Serialize for Whole<'_, T> {
        fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.0.serialize_floats(serializer)
        }
    }
}

/// Deserializes `T` from JSON the way JSON Schema counts numbers: an integer written as an
/// integral float (`1000.0` from a Python service, `1e3`) is an integer, which serde's
/// integer types refuse. The value is first read as it is; only when that fails is it read
/// again with every integral float that fits 64 bits written as an integer, so the common
/// case costs nothing. The first error is kept when the second reading fails too.
pub fn from_json_value<T: ::serde::de::DeserializeOwned>(
    value: ::serde_json::Value,
) -> Result<T, ::serde_json::Error> {
    match T::deserialize(&value) {
        Ok(typed) => Ok(typed),
        Err(err) => {
            let mut value = value;
            if integral_floats_as_integers(&mut value) {
                T::deserialize(&value).map_err(|_| err)
            } else {
                Err(err)
            }
        }
    }
}

/// [`from_json_value`] from JSON text.
pub fn from_json_slice<T: ::serde::de::DeserializeOwned>(
    bytes: &[u8],
) -> Result<T, ::serde_json::Error> {
    match ::serde_json::from_slice(bytes) {
        Ok(typed) => Ok(typed),
        Err(err) => match ::serde_json::from_slice::<::serde_json::Value>(bytes) {
            Ok(mut value) => {
                if integral_floats_as_integers(&mut value) {
                    T::deserialize(&value).map_err(|_| err)
                } else {
                    Err(err)
                }
            }
            Err(_) => Err(err),
        },
    }
}

/// Rewrites every float with no fractional part that fits `i64` or `u64` as that integer;
/// whether any was.
fn integral_floats_as_integers(value: &mut ::serde_json::Value) -> bool {
    use ::serde_json::Value;
    match value {
        Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or(f64::NAN);
            let integer = if float.fract() != 0.0 || !float.is_finite() {
                None
            } else if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&float) {
                Some(::serde_json::Number::from(float as i64))
            } else if (0.0..18_446_744_073_709_551_616.0).contains(&float) {
                Some(::serde_json::Number::from(float as u64))
            } else {
                None
            };
            match integer {
                Some(integer) => {
                    *number = integer;
                    true
                }
                None => false,
            }
        }
        Value::Array(items) => items.iter_mut().fold(false, |changed, item| {
            integral_floats_as_integers(item) | changed
        }),
        Value::Object(members) => members.values_mut().fold(false, |changed, member| {
            integral_floats_as_integers(member) | changed
        }),
        _ => false,
    }
}

#[path = "union.rs"]
pub mod union;

/// The schema of a string enum that keeps unknown values: one of `known`, or any
/// string. Built at run time because `json_schema!` hits the macro recursion limit on
/// enums of a few hundred values.
#[cfg(feature = "schemars")]
pub fn open_enum_schema(known: &[&str]) -> ::schemars::Schema {
    let known: Vec<::serde_json::Value> = known.iter().map(|value| (*value).into()).collect();
    let mut schema = ::serde_json::Map::new();
    schema.insert("type".into(), "string".into());
    schema.insert(
        "anyOf".into(),
        ::serde_json::json!([{ "enum": known }, { "type": "string" }]),
    );
    schema.into()
}

/// The impls every open enum of the models has beyond its own (`KNOWN`, `as_str`, `From<&str>`):
/// conversions, `Display`, serde and schemars, each through `as_str` or `From<&str>`.
/// `$catch_all` is the variant that keeps a value the spec does not list.
// One macro rather than these impls written out for every enum: they are the same for each,
// and a spec with hundreds of enums (Box has 366) made them a third of the models' code.
// Invoked from the models module, so `super::support` resolves from there.
#[allow(unused_macros)] // a spec without enums invokes it nowhere
macro_rules! open_enum {
    ($name:ident, $catch_all:ident) => {
        impl From<String> for $name {
            fn from(value: String) -> Self {
                match $name::from(value.as_str()) {
                    $name::$catch_all(_) => $name::$catch_all(value),
                    known => known,
                }
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;

            fn from_str(value: &str) -> Result<Self, ::std::convert::Infallible> {
                Ok(value.into())
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map($name::from)
            }
        }

        #[cfg(feature = "schemars")]
        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                super::support::open_enum_schema($name::KNOWN)
            }
        }
    };
}
#[allow(unused_imports)] // a spec without enums invokes it nowhere
pub(crate) use open_enum;

#[cfg(test)]
mod tests {
    #[test]
    fn an_integer_written_as_an_integral_float_reads_as_an_integer() {
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Counts {
            total: i64,
            pages: Vec<u32>,
            ratio: f64,
        }
        let read: Counts =
            super::from_json_slice(br#"{"total": 1000.0, "pages": [1e1, 2], "ratio": 2.0}"#)
                .unwrap();
        assert_eq!(
            read,
            Counts {
                total: 1000,
                pages: vec![10, 2],
                ratio: 2.0
            }
        );
        let value = serde_json::json!({"total": 3.0, "pages": [], "ratio": 0.5});
        assert_eq!(super::from_json_value::<Counts>(value).unwrap().total, 3);
        // A fraction stays a type error, reported as serde first saw it.
        let err = super::from_json_slice::<Counts>(br#"{"total": 1.5, "pages": [], "ratio": 1}"#)
            .unwrap_err();
        assert!(err.to_string().contains("1.5"), "{err}");
    }

    use serde_json::{Value, json};

    use super::*;

    /// An open enum as the models declare one, with the rest from [`open_enum`].
    #[derive(Debug, Clone, PartialEq)]
    enum Colour {
        Red,
        Unlisted(String),
    }

    impl Colour {
        const KNOWN: &'static [&'static str] = &["red"];

        fn as_str(&self) -> &str {
            match self {
                Colour::Red => "red",
                Colour::Unlisted(value) => value,
            }
        }
    }

    impl From<&str> for Colour {
        fn from(value: &str) -> Self {
            match value {
                "red" => Colour::Red,
                other => Colour::Unlisted(other.to_string()),
            }
        }
    }

    open_enum!(Colour, Unlisted);

    #[test]
    fn an_open_enum_reads_and_writes_listed_and_unlisted_values() {
        assert_eq!(
            serde_json::from_value::<Colour>(json!("red")).unwrap(),
            Colour::Red
        );
        let blue = Colour::Unlisted("blue".into());
        assert_eq!(
            serde_json::from_value::<Colour>(json!("blue")).unwrap(),
            blue
        );
        assert_eq!(serde_json::to_value(&blue).unwrap(), json!("blue"));
        assert_eq!(serde_json::to_value(Colour::Red).unwrap(), json!("red"));
        assert_eq!("red".parse::<Colour>().unwrap(), Colour::Red);
        assert_eq!(Colour::from(String::from("blue")), blue);
        assert_eq!(Colour::from(String::from("red")), Colour::Red);
        assert_eq!(blue.to_string(), "blue");
        assert_eq!(Colour::KNOWN, ["red"]);
    }

    /// `text` read as a `T` and written back.
    fn round_trip<T: ::serde::de::DeserializeOwned + ::serde::Serialize>(value: Value) -> Value {
        let read: T = serde_json::from_value(value).unwrap();
        serde_json::to_value(&read).unwrap()
    }

    #[test]
    fn a_date_time_writes_back_as_written() {
        for text in [
            "2024-05-01T10:00:00+02:00",
            "2024-05-01T08:00:00.120Z",
            "2024-05-01t08:00:00.123456789z",
            "2024-05-01T08:00:00-00:00",
        ] {
            assert_eq!(round_trip::<DateTime>(json!(text)), json!(text));
            let value: DateTime = text.parse().unwrap();
            assert_eq!((value.as_str(), value.to_string().as_str()), (text, text));
        }
    }

    #[test]
    fn a_date_time_servers_write_without_rfc_3339_offset_is_read_and_written_back() {
        for (text, instant, has_offset) in [
            ("2023-03-01T19:15:00", "2023-03-01T19:15:00+00:00", false),
            (
                "2023-03-01T19:15:00.1234567",
                "2023-03-01T19:15:00.123456700+00:00",
                false,
            ),
            (
                "2023-03-01T19:15:00.000+0200",
                "2023-03-01T19:15:00+02:00",
                true,
            ),
            ("2023-03-01T19:15:00-05", "2023-03-01T19:15:00-05:00", true),
        ] {
            let value: DateTime = serde_json::from_value(json!(text)).unwrap();
            assert_eq!(
                (value.value().to_rfc3339(), value.has_offset()),
                (instant.to_string(), has_offset),
                "{text}"
            );
            assert_eq!(serde_json::to_value(&value).unwrap(), json!(text));
        }
        assert!(
            "2023-03-01T19:15:00Z"
                .parse::<DateTime>()
                .unwrap()
                .has_offset()
        );
    }

    #[test]
    fn a_date_is_written_back_as_written_and_read_from_what_servers_send_instead() {
        for (text, date) in [
            ("2026-02-08", "2026-02-08"),
            ("2026-2-8", "2026-02-08"),
            ("2019-09-15T02:06:58.147Z", "2019-09-15"),
            ("2020-01-15T00:00:00", "2020-01-15"),
            ("2020-01-15T23:30:00-05:00", "2020-01-15"),
        ] {
            let value: Date = serde_json::from_value(json!(text)).unwrap();
            assert_eq!(value.value().to_string(), date, "{text}");
            assert_eq!(serde_json::to_value(&value).unwrap(), json!(text));
            assert_eq!(value.to_string(), text);
        }
        let built = Date::from(::chrono::NaiveDate::from_ymd_opt(2026, 2, 8).unwrap());
        assert_eq!(built.as_str(), "2026-02-08");
        for text in ["2026-02-30", "08/02/2026", "2026-02", "tomorrow"] {
            let refused = serde_json::from_value::<Date>(json!(text)).unwrap_err();
            assert!(
                refused.to_string().contains("is not a date"),
                "{text}: {refused}"
            );
        }
    }

    #[test]
    fn base64_in_either_alphabet_decodes() {
        let bytes = [0xfb_u8, 0xff, 0xbf, b'h', b'i'];
        for text in ["+/+/aGk=", "+/+/aGk", "-_-_aGk", "-_-_aGk=", "+/+/\r\naGk="] {
            let value: Base64 = serde_json::from_value(json!(text)).unwrap();
            assert_eq!(value.decode().unwrap(), bytes, "{text}");
            assert_eq!(serde_json::to_value(&value).unwrap(), json!(text));
        }
        assert_eq!(Base64::encode(bytes).as_str(), "+/+/aGk=");
        assert_eq!(Base64::encode_url_safe(bytes).as_str(), "-_-_aGk");
        assert!(
            Base64("-/+_".into()).decode().is_err(),
            "one text, one alphabet"
        );
    }

    #[test]
    fn whole_floats_are_written_as_json_writes_them() {
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Clip {
            #[serde(serialize_with = "super::whole_floats::serialize")]
            fade: f64,
            #[serde(
                default,
                skip_serializing_if = "Option::is_none",
                serialize_with = "super::whole_floats::serialize"
            )]
            start: Option<f64>,
            #[serde(serialize_with = "super::whole_floats::serialize")]
            points: Vec<Option<f64>>,
            #[serde(default, serialize_with = "super::whole_floats::serialize")]
            gains: ::std::collections::BTreeMap<String, Box<f64>>,
        }
        for text in [
            r#"{"fade":100,"start":-1,"points":[0,1.5,null,-0.0],"gains":{"a":2,"b":0.25}}"#,
            r#"{"fade":1e300,"points":[9007199254740993,12345678901234567]}"#,
        ] {
            let clip: Clip = serde_json::from_str(text).unwrap();
            let back = serde_json::to_string(&clip).unwrap();
            let expected = if text.contains("1e300") {
                // Beyond 2^53 a float is written as a float: its digits are not all its own.
                r#"{"fade":1e+300,"points":[9007199254740992.0,1.2345678901234568e+16],"gains":{}}"#
            } else {
                r#"{"fade":100,"start":-1,"points":[0,1.5,null,-0.0],"gains":{"a":2,"b":0.25}}"#
            };
            assert_eq!(back, expected);
        }
    }

    #[test]
    fn date_times_are_equal_when_written_alike() {
        let local: DateTime = "2024-05-01T10:00:00+02:00".parse().unwrap();
        let utc: DateTime = "2024-05-01T08:00:00Z".parse().unwrap();
        // The same instant, each with the offset it was written in...
        assert_eq!(local.value(), utc.value());
        assert_eq!(local.value().offset().local_minus_utc(), 2 * 3600);
        // ...but not the same text, which is what is sent back.
        assert_ne!(local, utc);
        assert_eq!(local, "2024-05-01T10:00:00+02:00".parse().unwrap());
    }

    #[test]
    fn a_date_time_from_chrono_is_written_in_rfc_3339() {
        let instant = ::chrono::DateTime::parse_from_rfc3339("2024-05-01T08:00:00Z")
            .unwrap()
            .with_timezone(&::chrono::Utc);
        let value = DateTime::from(instant);
        assert_eq!(value.as_str(), "2024-05-01T08:00:00+00:00");
        assert_eq!(value.value(), instant);
    }

    #[test]
    fn a_date_time_that_is_not_rfc_3339_is_refused_with_its_text() {
        for text in [
            "2024-05-01",
            "2024-05-01T08:00",
            "08:00:00",
            "2024-02-30T08:00:00",
            "yesterday",
        ] {
            let err = serde_json::from_value::<DateTime>(json!(text)).unwrap_err();
            assert!(
                err.to_string()
                    .contains(&format!("`{text}` is not an RFC 3339 date-time")),
                "{err}"
            );
        }
        assert!(serde_json::from_value::<DateTime>(json!(5)).is_err());
    }

    #[test]
    fn a_decimal_keeps_its_digits_and_its_form() {
        // Integers stay integers, numbers written with a point stay so.
        for number in [
            "0",
            "-3",
            "100",
            "100.0",
            "0.1",
            "12.5",
            "-0.007",
            "123456789.12345",
            // Every digit of a full-precision float, as geographic coordinates carry them.
            "40.247749999999996",
            "-105.18816086351444",
        ] {
            let value: Value = serde_json::from_str(number).unwrap();
            let back = round_trip::<Decimal>(value);
            assert_eq!(back.to_string(), number);
        }
        // Beyond an f64's integers, as long as an i64 holds them, and beyond an i64 as long
        // as the JSON reader gives them whole (a u64): not `1.2345678901234567e19`.
        for whole in [
            "9007199254740993",
            "9223372036854775808",
            "12345678901234567890",
            "18446744073709551615",
        ] {
            let big: Decimal = serde_json::from_str(whole).unwrap();
            assert_eq!(serde_json::to_string(&big).unwrap(), whole);
        }
    }

    #[test]
    fn decimals_add_without_binary_rounding() {
        let tenth: Decimal = serde_json::from_str("0.1").unwrap();
        let fifth: Decimal = serde_json::from_str("0.2").unwrap();
        let sum = Decimal(tenth.value() + fifth.value());
        assert_eq!(serde_json::to_string(&sum).unwrap(), "0.3");
        assert_eq!(sum, "0.3".parse().unwrap());
        assert_eq!(sum.to_string(), "0.3");
    }

    #[test]
    fn a_decimal_reads_a_numeric_string_and_refuses_the_rest() {
        let value: Decimal = serde_json::from_value(json!("12.50")).unwrap();
        assert_eq!(value.to_string(), "12.50");
        assert_eq!(Decimal::from(7).value(), ::rust_decimal::Decimal::from(7));
        let err = serde_json::from_value::<Decimal>(json!("twelve")).unwrap_err();
        assert!(
            err.to_string().contains("`twelve` is not a decimal number"),
            "{err}"
        );
        let err = serde_json::from_str::<Decimal>("1e30").unwrap_err();
        assert!(err.to_string().contains("does not fit a decimal"), "{err}");
        // Beyond 28 decimal places a value would round to another (to 0 here): refused.
        let err = serde_json::from_str::<Decimal>("6.62607015e-34").unwrap_err();
        assert!(err.to_string().contains("without changing"), "{err}");
        // What fits keeps every digit, to the last of 28 places.
        let small: Decimal = serde_json::from_str("1.5e-20").unwrap();
        assert_eq!(serde_json::to_string(&small).unwrap(), "1.5e-20");
        // Read to the nearest float (serde_json's `float_roundtrip`, which the generated
        // crate asks for): a tiny rate within 28 places is kept, not refused as a unit off.
        for text in ["1e-23", "1e-25", "1e-28", "0.00000000000000000000001"] {
            let tiny: Decimal = serde_json::from_str(text).unwrap();
            let back: f64 = serde_json::to_string(&tiny).unwrap().parse().unwrap();
            assert_eq!(back, text.parse::<f64>().unwrap(), "{text}");
        }
        assert!(serde_json::from_value::<Decimal>(json!(true)).is_err());
    }

    #[test]
    fn base64_keeps_its_text_and_decodes_leniently() {
        for (text, bytes) in [
            ("aGk=", &b"hi"[..]),
            // Without padding.
            ("aGk", b"hi"),
            // Trailing bits set: not canonical, still the same bytes.
            ("aGl=", b"hi"),
            ("", b""),
        ] {
            assert_eq!(round_trip::<Base64>(json!(text)), json!(text));
            let value: Base64 = serde_json::from_value(json!(text)).unwrap();
            assert_eq!(value.as_str(), text);
            assert_eq!(value.decode().unwrap(), bytes, "{text}");
        }
        assert_eq!(Base64::encode(b"hi").as_str(), "aGk=");
    }

    #[test]
    fn text_that_is_not_base64_is_kept_and_fails_to_decode() {
        let value: Base64 = serde_json::from_value(json!("[file data]")).unwrap();
        assert_eq!(value.as_str(), "[file data]");
        assert!(value.decode().is_err());
        assert!(serde_json::from_value::<Base64>(json!(1)).is_err());
    }

    #[derive(Debug, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
    struct Patch {
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "double_option"
        )]
        note: Option<Option<String>>,
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        extra: Option<Value>,
    }

    #[test]
    fn absent_null_and_a_value_stay_apart() {
        for (json, note, extra) in [
            (json!({}), None, None),
            (
                json!({"note": null, "extra": null}),
                Some(None),
                Some(Value::Null),
            ),
            (
                json!({"note": "hi", "extra": [1]}),
                Some(Some("hi".to_string())),
                Some(json!([1])),
            ),
        ] {
            let patch: Patch = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(patch, Patch { note, extra }, "{json}");
            assert_eq!(serde_json::to_value(&patch).unwrap(), json);
        }
    }
}

#[path = "definitions.rs"]
pub mod definitions;
