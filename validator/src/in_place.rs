//! JSON bodies read in place, for the yes-or-no schema check of live traffic.
//!
//! A live check (the tower layer, the client checks, the proxy) mostly asks one question of a
//! body: does it conform? Parsing it into a [`serde_json::Value`] to answer costs more than the
//! answer: every key and string becomes its own allocation and every object an index map
//! hashed with SipHash (the workspace builds serde_json with `preserve_order`). [`Doc`] is one
//! flat list of slots read in one pass ([`reader`]), with strings borrowed from the body's
//! bytes, and the jsonschema crate validates it through its custom-representation API
//! ([`jsonschema::options_for`]) with the same compiled rules. Only a body that does *not*
//! conform (or that the reader leaves to serde_json) is parsed into a `Value` and judged the
//! usual way, so findings are the same whichever path answered.

use std::borrow::Cow;

use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node, NodeIdentity, Object, cmp};
use serde_json::{Number, Value};

mod reader;

/// One JSON document read into a single flat list of slots (a tape): each value is one slot,
/// and a container's slot is followed by its contents, so reading a body costs one growing
/// list instead of one allocation per object, array and member list. Strings are borrowed
/// from the text where they hold no escapes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Doc<'a> {
    slots: Vec<Slot<'a>>,
}

/// One slot of a [`Doc`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Slot<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    /// An array of `len` items, which fill the slots up to `end` (exclusive).
    Array {
        len: u32,
        end: u32,
    },
    /// An object of `len` members, each a [`Slot::Key`] and its value's slots, up to `end`.
    Object {
        len: u32,
        end: u32,
    },
    /// A member's name (names are unique within an object: see [`Doc::parse`]).
    Key(Cow<'a, str>),
}

impl<'a> Doc<'a> {
    /// Reads one JSON document (surrounding whitespace allowed), or `None` when it is not JSON
    /// or an object in it names a member twice.
    pub(crate) fn parse(bytes: &'a [u8]) -> Option<Doc<'a>> {
        reader::read(bytes).map(|slots| Doc { slots })
    }

    /// The document's value.
    pub(crate) fn root(&self) -> Cursor<'_> {
        Cursor {
            slots: &self.slots,
            at: 0,
        }
    }

    /// The member `name` of an object.
    pub(crate) fn get(&self, name: &str) -> Option<Cursor<'_>> {
        self.root().member(name)
    }

    /// The same value as a `serde_json::Value`: for messages and comparisons, off the hot path.
    #[cfg(test)]
    pub(crate) fn to_value(&self) -> Value {
        self.root().value()
    }
}

/// A value of a [`Doc`]: its slots and where it begins.
#[derive(Clone, Copy)]
pub(crate) struct Cursor<'a> {
    slots: &'a [Slot<'a>],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn slot(&self) -> &'a Slot<'a> {
        &self.slots[self.at]
    }

    fn at(&self, at: usize) -> Cursor<'a> {
        Cursor {
            slots: self.slots,
            at,
        }
    }

    /// Where the value after this one begins.
    fn after(&self) -> usize {
        match self.slot() {
            Slot::Array { end, .. } | Slot::Object { end, .. } => *end as usize,
            _ => self.at + 1,
        }
    }

    /// The member `name` of an object.
    pub(crate) fn member(&self, name: &str) -> Option<Cursor<'a>> {
        let Slot::Object { len, .. } = self.slot() else {
            return None;
        };
        let mut members = MembersIter {
            next: self.at(self.at + 1),
            left: *len as usize,
        };
        members
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value)
    }

    /// The same value as a `serde_json::Value`: for messages and comparisons, off the hot path.
    pub(crate) fn value(&self) -> Value {
        match self.slot() {
            Slot::Null => Value::Null,
            Slot::Bool(b) => Value::Bool(*b),
            Slot::Number(n) => Value::Number(n.clone()),
            Slot::String(s) | Slot::Key(s) => Value::String(s.to_string()),
            Slot::Array { len, .. } => Value::Array(
                ItemsIter {
                    next: self.at(self.at + 1),
                    left: *len as usize,
                }
                .map(|item| item.value())
                .collect(),
            ),
            Slot::Object { len, .. } => Value::Object(
                MembersIter {
                    next: self.at(self.at + 1),
                    left: *len as usize,
                }
                .map(|(key, value)| (key.to_string(), value.value()))
                .collect(),
            ),
        }
    }
}

/// [`Doc`] as a representation the jsonschema crate validates.
pub(crate) struct InPlace;

impl Json for InPlace {
    type Node<'a> = Cursor<'a>;
    type PreparedKey = String;
    type StringBuffer = Vec<Slot<'static>>;

    // A lookup is a scan of the member list, so a pass over the members is the cheaper way
    // to answer several lookups on one object.
    const KEYS_PER_LOOKUP: usize = 64;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut Vec<Slot<'static>>,
        string: &str,
        f: impl FnOnce(Cursor<'_>) -> T,
    ) -> T {
        buffer.clear();
        buffer.push(Slot::String(Cow::Owned(string.to_owned())));
        f(Cursor {
            slots: buffer,
            at: 0,
        })
    }
}

impl<'a> Node<'a, InPlace> for Cursor<'a> {
    type Object = Members<'a>;
    type Array = Items<'a>;
    type Number = &'a Number;

    fn as_object(&self) -> Option<Members<'a>> {
        match self.slot() {
            Slot::Object { len, .. } => Some(Members {
                first: self.at(self.at + 1),
                len: *len as usize,
            }),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<Items<'a>> {
        match self.slot() {
            Slot::Array { len, .. } => Some(Items {
                first: self.at(self.at + 1),
                len: *len as usize,
            }),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self.slot() {
            Slot::String(text) => Some(Cow::Borrowed(text.as_ref())),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<&'a Number> {
        match self.slot() {
            Slot::Number(number) => Some(number),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.slot() {
            Slot::Bool(value) => Some(*value),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.slot(), Slot::Null)
    }

    fn json_type(&self) -> JsonType {
        match self.slot() {
            Slot::Null => JsonType::Null,
            Slot::Bool(_) => JsonType::Boolean,
            Slot::Number(_) => JsonType::Number,
            Slot::String(_) | Slot::Key(_) => JsonType::String,
            Slot::Array { .. } => JsonType::Array,
            Slot::Object { .. } => JsonType::Object,
        }
    }

    // `enum` and `const` compare every string and flag this way: answered without building a
    // `Value`, except for numbers (compared mathematically) and containers.
    fn equals_value(&self, expected: &Value) -> bool {
        match (self.slot(), expected) {
            (Slot::String(text), Value::String(wanted)) => text == wanted,
            (Slot::String(_), _) => false,
            (Slot::Bool(value), Value::Bool(wanted)) => value == wanted,
            (Slot::Bool(_), _) => false,
            (Slot::Null, expected) => expected.is_null(),
            (Slot::Number(number), Value::Number(wanted)) => cmp::equal_numbers(number, wanted),
            _ => cmp::equal(&self.value(), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.value())
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(
            std::ptr::from_ref::<Slot<'a>>(self.slot()) as usize,
        ))
    }
}

/// An object of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) struct Members<'a> {
    /// The first member's name (when there is one).
    first: Cursor<'a>,
    len: usize,
}

impl<'a> Object<'a, InPlace> for Members<'a> {
    type Node = Cursor<'a>;
    type MemberName = &'a str;
    type MembersIter = MembersIter<'a>;

    fn len(&self) -> usize {
        self.len
    }

    fn get(&self, key: &String) -> Option<Cursor<'a>> {
        self.members()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value)
    }

    fn members(&self) -> MembersIter<'a> {
        MembersIter {
            next: self.first,
            left: self.len,
        }
    }
}

/// The members of an object, in document order.
pub(crate) struct MembersIter<'a> {
    /// The next member's name.
    next: Cursor<'a>,
    left: usize,
}

impl<'a> Iterator for MembersIter<'a> {
    type Item = (&'a str, Cursor<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let Slot::Key(name) = self.next.slot() else {
            // The tape is built with a name before each value; never another slot.
            return None;
        };
        let value = self.next.at(self.next.at + 1);
        self.next = value.at(value.after());
        Some((name.as_ref(), value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

/// An array of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) struct Items<'a> {
    /// The first item (when there is one).
    first: Cursor<'a>,
    len: usize,
}

impl<'a> Array<'a, InPlace> for Items<'a> {
    type Node = Cursor<'a>;
    type ElementsIter = ItemsIter<'a>;

    fn len(&self) -> usize {
        self.len
    }

    fn elements(&self) -> ItemsIter<'a> {
        ItemsIter {
            next: self.first,
            left: self.len,
        }
    }
}

/// The items of an array, in order.
pub(crate) struct ItemsIter<'a> {
    next: Cursor<'a>,
    left: usize,
}

impl<'a> Iterator for ItemsIter<'a> {
    type Item = Cursor<'a>;

    fn next(&mut self) -> Option<Cursor<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let item = self.next;
        self.next = item.at(item.after());
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
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
            doc.get("c").map(|c| c.slot()),
            Some(Slot::String(Cow::Borrowed("plain")))
        ));
        assert!(matches!(
            doc.get("b\"").map(|b| b.slot()),
            Some(Slot::String(Cow::Owned(_)))
        ));
        assert_eq!(doc.get("a").map(|a| a.value()), Some(value["a"].clone()));
        assert!(doc.get("e").is_none());
        assert_eq!(Doc::parse(b"{\"a\": 1"), None);
        assert_eq!(Doc::parse(b"not json"), None);
        assert_eq!(Doc::parse(b"{} {}"), None);
        assert_eq!(Doc::parse(br#"{"a": 1, "b": {"a": 2, "a": 3}}"#), None);
        // One name in an object and in the objects it holds is no repetition.
        let nested = br#"{"a": {"a": [{"a": 1}, {"a": 2}]}, "b": {"a": 3}}"#;
        let value: Value = serde_json::from_slice(nested).unwrap();
        assert_eq!(Doc::parse(nested).map(|doc| doc.to_value()), Some(value));
        assert_eq!(Doc::parse(b"{\"s\": \"\xff\"}"), None);
    }

    #[test]
    fn every_token_reads_as_serde_json_reads_it_and_what_it_refuses_is_refused() {
        let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        let texts = [
            r#""plain""#.to_string(),
            r#""tab\tquote\"slash\/back\\ é \u00e9 \ud83d\ude00""#.to_string(),
            r#"["\"", "\\", "a\"b"]"#.to_string(),
            "0 ".to_string(),
            " -0".to_string(),
            "-1".to_string(),
            "-999999999999999999".to_string(),
            "999999999999999999".to_string(),
            "9999999999999999999".to_string(),
            "18446744073709551616".to_string(),
            "-9223372036854775809".to_string(),
            "1.5".to_string(),
            "1.0".to_string(),
            "1e2".to_string(),
            "1E-2".to_string(),
            "-0.0e+0".to_string(),
            "0.30000000000000004".to_string(),
            "2.2250738585072011e-308".to_string(),
            "\t{ \"a\" :\n[ true ,false,null ] , \"b\":{}, \"c\": [] }\r\n".to_string(),
            deep(127),
            // Refused by both:
            deep(128),
            "1e400".to_string(),
            "01".to_string(),
            "1.".to_string(),
            ".5".to_string(),
            "-".to_string(),
            "+1".to_string(),
            "1e".to_string(),
            "[1,]".to_string(),
            "{\"a\":1,}".to_string(),
            "{\"a\" 1}".to_string(),
            "{a: 1}".to_string(),
            "[1 2]".to_string(),
            "tru".to_string(),
            "nul".to_string(),
            "\"unterminated".to_string(),
            "\"raw\ncontrol\"".to_string(),
            r#""bad \x escape""#.to_string(),
            r#""lone \ud83d surrogate""#.to_string(),
            r#""ends with \""#.to_string(),
            "'single'".to_string(),
            String::new(),
            "   ".to_string(),
            "[] []".to_string(),
        ];
        let mut accepted = 0;
        for text in &texts {
            let ours = Doc::parse(text.as_bytes()).map(|doc| doc.to_value());
            let theirs = serde_json::from_str::<Value>(text).ok();
            assert_eq!(ours, theirs, "{text:?}");
            if let (Some(Value::Number(ours)), Some(Value::Number(theirs))) = (&ours, &theirs) {
                // The same kind of number too (`-0` is a float, `1.0` is not an integer).
                assert_eq!(
                    (ours.is_u64(), ours.is_i64(), ours.is_f64()),
                    (theirs.is_u64(), theirs.is_i64(), theirs.is_f64()),
                    "{text:?}"
                );
            }
            accepted += usize::from(ours.is_some());
        }
        assert_eq!(accepted, 20, "the table's first 20 texts are JSON");
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
            assert_eq!(fast.is_valid(doc.root()), slow.is_valid(&value), "{case}");
            verdicts.push(slow.is_valid(&value));
        }
        // The cases exercise both verdicts: the valid document, its escaped twin and the one
        // with a null `nested` pass; every other edit breaks one rule.
        assert_eq!(verdicts.iter().filter(|v| **v).count(), 3, "{verdicts:?}");
    }
}
