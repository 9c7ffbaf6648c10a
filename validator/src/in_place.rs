//! JSON bodies read in place, for the yes-or-no schema check of live traffic.
//!
//! A live check (the tower layer, the client checks, the proxy) mostly asks one question of a
//! body: does it conform? Parsing it into a [`serde_json::Value`] to answer costs more than the
//! answer: every key and string becomes its own allocation and every object an index map
//! hashed with SipHash (the workspace builds serde_json with `preserve_order`). [`Doc`] keeps
//! strings borrowed from the body's bytes and objects as plain member lists, and the jsonschema
//! crate validates it through its custom-representation API ([`jsonschema::options_for`]) with
//! the same compiled rules. Only a body that does *not* conform is parsed into a `Value` and
//! judged the usual way, so findings are the same whichever path answered.

use std::borrow::Cow;
use std::fmt;

use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node, NodeIdentity, Object, cmp};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// One JSON value borrowing its strings from the text it was read from where it can.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Doc<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json reads it.
    Number(Number),
    /// A string: borrowed unless it holds escapes.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Doc<'a>>),
    /// An object's members in document order (names are unique: see [`Doc::parse`]).
    Object(Vec<(Cow<'a, str>, Doc<'a>)>),
}

impl<'a> Doc<'a> {
    /// Reads one JSON document (surrounding whitespace allowed), or `None` when it is not JSON
    /// or an object in it names a member twice.
    pub(crate) fn parse(bytes: &'a [u8]) -> Option<Doc<'a>> {
        serde_json::from_slice(bytes).ok()
    }

    /// The member `name` of an object.
    pub(crate) fn get(&self, name: &str) -> Option<&Doc<'a>> {
        match self {
            Doc::Object(members) => members.iter().find(|(key, _)| key == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The same value as a `serde_json::Value`: for messages and comparisons, off the hot path.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Doc::Null => Value::Null,
            Doc::Bool(b) => Value::Bool(*b),
            Doc::Number(n) => Value::Number(n.clone()),
            Doc::String(s) => Value::String(s.to_string()),
            Doc::Array(items) => Value::Array(items.iter().map(Doc::to_value).collect()),
            Doc::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Doc<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = Doc<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Doc<'de>, E> {
        Ok(Doc::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Doc<'de>, E> {
        Ok(Doc::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Doc<'de>, E> {
        Ok(Doc::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Doc<'de>, E> {
        // JSON text has no NaN or infinity, so serde_json never hands one over.
        Ok(Number::from_f64(value).map_or(Doc::Null, Doc::Number))
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Doc<'de>, E> {
        Ok(Doc::String(Cow::Borrowed(value)))
    }

    fn visit_str<E>(self, value: &str) -> Result<Doc<'de>, E> {
        Ok(Doc::String(Cow::Owned(value.to_owned())))
    }

    fn visit_string<E>(self, value: String) -> Result<Doc<'de>, E> {
        Ok(Doc::String(Cow::Owned(value)))
    }

    fn visit_unit<E>(self) -> Result<Doc<'de>, E> {
        Ok(Doc::Null)
    }

    fn visit_none<E>(self) -> Result<Doc<'de>, E> {
        Ok(Doc::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Doc<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Doc::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc<'de>, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Doc<'de>)> = Vec::new();
        while let Some(Key(key)) = map.next_key()? {
            // A `Value` keeps the last of two members with one name, and counts one: the two
            // readings would differ (under `minProperties`, say), so such a body is left to
            // the `Value` path.
            if members.iter().any(|(name, _)| *name == key) {
                return Err(de::Error::custom("a member name appears twice"));
            }
            members.push((key, map.next_value()?));
        }
        Ok(Doc::Object(members))
    }
}

/// An object's member name, borrowed when it has no escapes (`Cow<str>`'s own `Deserialize`
/// always copies).
struct Key<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Key<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(value)))
            }

            fn visit_str<E: de::Error>(self, value: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(value.to_owned())))
            }

            fn visit_string<E>(self, value: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(value)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// [`Doc`] as a representation the jsonschema crate validates.
pub(crate) struct InPlace;

impl Json for InPlace {
    type Node<'a> = &'a Doc<'a>;
    type PreparedKey = String;
    type StringBuffer = Option<Doc<'static>>;

    // A lookup is a scan of the member list, so a pass over the members is the cheaper way
    // to answer several lookups on one object.
    const KEYS_PER_LOOKUP: usize = 64;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut Option<Doc<'static>>,
        string: &str,
        f: impl FnOnce(<Self as Json>::Node<'_>) -> T,
    ) -> T {
        f(buffer.insert(Doc::String(Cow::Owned(string.to_owned()))))
    }
}

impl<'a> Node<'a, InPlace> for &'a Doc<'a> {
    type Object = Members<'a>;
    type Array = &'a [Doc<'a>];
    type Number = &'a Number;

    fn as_object(&self) -> Option<Members<'a>> {
        match self {
            Doc::Object(members) => Some(Members(members)),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&'a [Doc<'a>]> {
        match self {
            Doc::Array(items) => Some(items),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self {
            Doc::String(text) => Some(Cow::Borrowed(text.as_ref())),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<&'a Number> {
        match self {
            Doc::Number(number) => Some(number),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self {
            Doc::Bool(value) => Some(*value),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self, Doc::Null)
    }

    fn json_type(&self) -> JsonType {
        match self {
            Doc::Null => JsonType::Null,
            Doc::Bool(_) => JsonType::Boolean,
            Doc::Number(_) => JsonType::Number,
            Doc::String(_) => JsonType::String,
            Doc::Array(_) => JsonType::Array,
            Doc::Object(_) => JsonType::Object,
        }
    }

    // `enum` and `const` compare every string and flag this way: answered without building a
    // `Value`, except for numbers (compared mathematically) and containers.
    fn equals_value(&self, expected: &Value) -> bool {
        match (self, expected) {
            (Doc::String(text), Value::String(wanted)) => text == wanted,
            (Doc::String(_), _) => false,
            (Doc::Bool(value), Value::Bool(wanted)) => value == wanted,
            (Doc::Bool(_), _) => false,
            (Doc::Null, expected) => expected.is_null(),
            (Doc::Number(number), Value::Number(wanted)) => cmp::equal_numbers(number, wanted),
            _ => cmp::equal(&self.to_value(), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(Doc::to_value(self))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(
            std::ptr::from_ref::<Doc<'a>>(self) as usize
        ))
    }
}

/// An object of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) struct Members<'a>(&'a [(Cow<'a, str>, Doc<'a>)]);

impl<'a> Object<'a, InPlace> for Members<'a> {
    type Node = &'a Doc<'a>;
    type MemberName = &'a str;
    type MembersIter = MembersIter<'a>;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, key: &String) -> Option<&'a Doc<'a>> {
        self.0.iter().find(|(name, _)| name == key).map(|(_, v)| v)
    }

    fn members(&self) -> MembersIter<'a> {
        MembersIter(self.0.iter())
    }
}

/// The members of a [`Members`], in document order.
pub(crate) struct MembersIter<'a>(std::slice::Iter<'a, (Cow<'a, str>, Doc<'a>)>);

impl<'a> Iterator for MembersIter<'a> {
    type Item = (&'a str, &'a Doc<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(name, value)| (name.as_ref(), value))
    }
}

impl<'a> Array<'a, InPlace> for &'a [Doc<'a>] {
    type Node = &'a Doc<'a>;
    type ElementsIter = std::slice::Iter<'a, Doc<'a>>;

    fn len(&self) -> usize {
        <[Doc<'a>]>::len(self)
    }

    fn elements(&self) -> std::slice::Iter<'a, Doc<'a>> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn validator(schema: &Value) -> jsonschema::Validator<InPlace> {
        jsonschema::options_for::<InPlace>()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(schema)
            .unwrap()
    }

    #[test]
    fn reads_the_same_value_as_serde_json_keeping_escape_free_strings_borrowed() {
        let text = br#" {"a": [1, -2, 2.5, 18446744073709551615, true, null], "b\"": "x\ny", "c": "plain", "d": {}} "#;
        let doc = Doc::parse(text).unwrap();
        let value: Value = serde_json::from_slice(text).unwrap();
        assert_eq!(doc.to_value(), value);
        assert!(matches!(
            doc.get("c"),
            Some(Doc::String(Cow::Borrowed("plain")))
        ));
        assert!(matches!(doc.get("b\""), Some(Doc::String(Cow::Owned(_)))));
        assert_eq!(Doc::parse(b"{\"a\": 1"), None);
        assert_eq!(Doc::parse(b"not json"), None);
        assert_eq!(Doc::parse(b"{} {}"), None);
        assert_eq!(Doc::parse(br#"{"a": 1, "b": {"a": 2, "a": 3}}"#), None);
    }

    #[test]
    fn a_schema_gives_the_same_verdict_in_place_as_on_a_value() {
        let schema = json!({
            "type": "object",
            "required": ["id", "status", "amount", "tags", "when"],
            "properties": {
                "id": {"type": "string", "format": "uuid"},
                "status": {"enum": ["ACTIVE", "CLOSED"]},
                "amount": {"type": "number", "minimum": 0, "multipleOf": 0.5},
                "count": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "uniqueItems": true},
                "when": {"type": "string", "format": "date-time"},
                "kind": {"const": 1},
                "nested": {"$ref": "#/$defs/nested"}
            },
            "additionalProperties": false,
            "$defs": {"nested": {"type": ["object", "null"], "properties": {"x": {"type": "boolean"}}}}
        });
        let fast = validator(&schema);
        let slow = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&schema)
            .unwrap();
        let valid = r#"{"id": "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b", "status": "ACTIVE", "amount": 2.5, "count": 3, "tags": ["a", "bc"], "when": "2024-05-14T15:20:11Z", "kind": 1.0, "nested": {"x": true}}"#;
        let cases = [
            valid.to_string(),
            valid.replace("ACTIVE", "OPEN"),
            valid.replace("2.5", "2.4"),
            valid.replace("\"count\": 3", "\"count\": 3.5"),
            valid.replace("\"bc\"", "\"a\""),
            valid.replace("\"bc\"", "\"bcde\""),
            valid.replace("15:20:11Z", "25:20:11Z"),
            valid.replace("6f1a2b3c", "zz"),
            valid.replace("\"kind\": 1.0", "\"kind\": 2"),
            valid.replace("\"x\": true", "\"x\": 1"),
            valid.replace("{\"x\": true}", "null"),
            valid.replace("\"count\": 3,", "\"count\": 3, \"extra\": 0,"),
            valid.replace("\"status\": \"ACTIVE\",", ""),
            valid.replace("\"ACTIVE\"", "\"ACT\\u0049VE\""),
        ];
        let mut verdicts = Vec::new();
        for case in &cases {
            let value: Value = serde_json::from_str(case).unwrap();
            let doc = Doc::parse(case.as_bytes()).unwrap();
            assert_eq!(fast.is_valid(&doc), slow.is_valid(&value), "{case}");
            verdicts.push(slow.is_valid(&value));
        }
        // The cases exercise both verdicts: the valid document, its escaped twin and the one
        // with a null `nested` pass; every other edit breaks one rule.
        assert_eq!(verdicts.iter().filter(|v| **v).count(), 3, "{verdicts:?}");
    }
}
