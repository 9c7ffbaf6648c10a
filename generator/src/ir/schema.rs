//! Reading a Schema Object: which Rust shape it becomes. Pure functions over JSON values; the
//! builder in [`super::build`] decides what gets a named type.

use serde_json::{Map, Value};

use super::{JsonKind, Scalar};

/// Keywords that only describe a schema; a part made of these alone constrains nothing.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "example",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "externalDocs",
    "xml",
    "$comment",
    "$schema",
    "$id",
    "$anchor",
    "nullable",
    "discriminator",
];

/// The JSON Schema `type` names of a schema, without `"null"`, plus whether null is allowed.
pub(crate) fn types_of(schema: &Map<String, Value>) -> (Vec<String>, bool) {
    let mut nullable = false;
    let mut types = Vec::new();
    match schema.get("type") {
        Some(Value::String(one)) => types.push(one.clone()),
        Some(Value::Array(many)) => {
            for entry in many.iter().filter_map(Value::as_str) {
                types.push(entry.to_string());
            }
        }
        _ => {}
    }
    if let Some(at) = types.iter().position(|t| t == "null") {
        types.remove(at);
        nullable = true;
    }
    if schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.iter().any(Value::is_null))
    {
        nullable = true;
    }
    (types, nullable)
}

/// The type a schema without `type` implies by the values it allows: a `const`'s, or the one
/// JSON type every `enum` value (`null` aside) shares (`{const: card}` is a string, `{enum:
/// [1, 2]}` an integer); none when they differ or nothing says.
pub(crate) fn implied_types(schema: &Map<String, Value>) -> Vec<String> {
    let values: Vec<&Value> = match (schema.get("const"), schema.get("enum")) {
        (Some(value), _) => vec![value],
        (None, Some(Value::Array(values))) => values.iter().collect(),
        _ => return Vec::new(),
    };
    let mut kinds = values
        .into_iter()
        .filter(|value| !value.is_null())
        .map(JsonKind::of);
    let Some(mut kind) = kinds.next() else {
        return Vec::new();
    };
    for other in kinds {
        match (kind, other) {
            (a, b) if a == b => {}
            (JsonKind::Integer, JsonKind::Number) | (JsonKind::Number, JsonKind::Integer) => {
                kind = JsonKind::Number;
            }
            _ => return Vec::new(),
        }
    }
    vec![kind.name().to_string()]
}

/// True for `{"type": "null"}` (alone or with annotations only): the null branch of a
/// nullable `anyOf`/`oneOf`.
pub(crate) fn is_null_schema(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            matches!(map.get("type"), Some(Value::String(t)) if t == "null")
                || matches!(map.get("const"), Some(Value::Null))
                || map
                    .get("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|values| values.len() == 1 && values[0].is_null())
        }
        _ => false,
    }
}

/// The scalar for a primitive JSON Schema type and format; `None` for non-scalars.
pub(crate) fn scalar_for(ty: &str, format: Option<&str>) -> Option<Scalar> {
    Some(match (ty, format) {
        ("string", Some("uuid")) => Scalar::Uuid,
        ("string", Some("date-time")) => Scalar::DateTime,
        ("string", Some("date")) => Scalar::Date,
        ("string", Some("byte")) => Scalar::Base64,
        ("string", _) => Scalar::String,
        ("boolean", _) => Scalar::Bool,
        ("integer", Some("int32")) => Scalar::I32,
        // The one integer format whose values an `i64` cannot all hold (Docker's and Gitea's
        // sizes and ids, Bungie's hashes).
        ("integer", Some("uint64")) => Scalar::U64,
        ("integer", _) => Scalar::I64,
        // `float` is read into f64 too: every float32 a peer writes fits it exactly, and so
        // does a value written with more digits (an API that widens its float32 sends
        // 0.00743999984115362, which an f32 would give back as 0.00744).
        ("number", Some("float" | "double")) => Scalar::F64,
        ("number", Some("int32")) => Scalar::I32,
        ("number", Some("int64")) => Scalar::I64,
        ("number", _) => Scalar::Decimal,
        _ => return None,
    })
}

/// The string values of a closed `enum` or an `x-extensible-enum`, when every value is a
/// string (null allowed and skipped). The flag says whether the list is extensible.
pub(crate) fn string_enum(schema: &Map<String, Value>) -> Option<(Vec<String>, bool)> {
    let (values, extensible) = match (schema.get("enum"), schema.get("x-extensible-enum")) {
        (Some(Value::Array(values)), _) => (values, false),
        (None, Some(Value::Array(values))) => (values, true),
        _ => return None,
    };
    let mut out: Vec<String> = Vec::new();
    for value in values {
        match value {
            // A value listed twice (real specs have them) is one variant.
            Value::String(s) if out.contains(s) => {}
            Value::String(s) => out.push(s.clone()),
            Value::Null => {}
            _ => return None,
        }
    }
    (!out.is_empty()).then_some((out, extensible))
}

/// String values, each with what the spec says of it.
pub(crate) type Documented = Vec<(String, Option<String>)>;

/// The strings a `oneOf` / `anyOf` of constants allows, each with its docs: 3.1's enum with a
/// word per value (`oneOf: [{const: asset, title: Asset}, …]`), and an `enum` split across
/// alternatives. `None` unless every alternative fixes strings (`const`, or `enum` of strings)
/// and says nothing else that constrains them, but for at most one plain `{type: string}`
/// beside them, which makes the list open (`anyOf: [{type: string}, {const: a}]`: the known
/// values and any other string), as `x-extensible-enum` does. `nulls` are left out by the
/// caller.
pub(crate) fn const_alternatives(branches: &[&Value]) -> Option<(Documented, bool)> {
    // Nothing but the fixed values, annotations, extensions and `type: string`.
    let only_says = |map: &Map<String, Value>| {
        map.iter().all(|(key, value)| {
            key.starts_with("x-")
                || ["const", "enum"].contains(&key.as_str())
                || ANNOTATIONS.contains(&key.as_str())
                || (key == "type"
                    && (value == "string"
                        || value.as_array().is_some_and(|types| types == &["string"])))
        })
    };
    let mut values: Documented = Vec::new();
    let mut open = false;
    for branch in branches {
        let map = branch.as_object()?;
        if !only_says(map) {
            return None;
        }
        let fixed: Vec<&Value> = match (map.get("const"), map.get("enum")) {
            (Some(value), None) => vec![value],
            (None, Some(Value::Array(listed))) => listed.iter().collect(),
            (None, None) if !open && map.contains_key("type") => {
                open = true;
                continue;
            }
            _ => return None,
        };
        let docs = (fixed.len() == 1).then(|| docs_of(map)).flatten();
        for value in fixed {
            let wire = value.as_str()?;
            if !values.iter().any(|(known, _)| known == wire) {
                values.push((wire.to_string(), docs.clone()));
            }
        }
    }
    (values.len() >= 2 || (open && !values.is_empty())).then_some((values, open))
}

/// Documentation for a schema: its description, else its title.
pub(crate) fn docs_of(schema: &Map<String, Value>) -> Option<String> {
    let text = schema
        .get("description")
        .or_else(|| schema.get("title"))
        .and_then(Value::as_str)?
        .trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Summary and description of an operation, joined.
pub(crate) fn operation_docs(op: &Map<String, Value>) -> Option<String> {
    let parts: Vec<&str> = ["summary", "description"]
        .iter()
        .filter_map(|key| op.get(*key).and_then(Value::as_str))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// A schema with a `$ref` and assertions beside it as the `allOf` 2020-12 makes of it: the
/// siblings where they are, the reference a part of `allOf`, after any parts of the schema's
/// own, which keep their indices (and so their pointers in the document).
pub(crate) fn ref_as_all_of(map: &Map<String, Value>, reference: &str) -> Map<String, Value> {
    let mut merged: Map<String, Value> = map
        .iter()
        .filter(|(key, _)| key.as_str() != "$ref")
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let mut parts = match merged.remove("allOf") {
        Some(Value::Array(own)) => own,
        _ => Vec::new(),
    };
    parts.push(serde_json::json!({ "$ref": reference }));
    merged.insert("allOf".to_owned(), Value::Array(parts));
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn null_in_a_type_array_makes_the_schema_nullable() {
        let (types, nullable) = types_of(&obj(json!({"type": ["string", "null"]})));
        assert_eq!(types, vec!["string".to_string()]);
        assert!(nullable);
    }

    #[test]
    fn number_without_format_is_a_lossless_decimal() {
        assert_eq!(scalar_for("number", None), Some(Scalar::Decimal));
        assert_eq!(scalar_for("number", Some("double")), Some(Scalar::F64));
        assert_eq!(
            scalar_for("string", Some("date-time")),
            Some(Scalar::DateTime)
        );
        assert_eq!(scalar_for("object", None), None);
    }

    #[test]
    fn extensible_enums_are_read_from_the_extension() {
        let (values, open) = string_enum(&obj(json!({"x-extensible-enum": ["A", "B"]}))).unwrap();
        assert_eq!(values, vec!["A", "B"]);
        assert!(open);
        assert!(string_enum(&obj(json!({"enum": [1, 2]}))).is_none());
        let (values, _) = string_enum(&obj(json!({"enum": ["A", "B", "A"]}))).unwrap();
        assert_eq!(values, vec!["A", "B"]);
    }

    #[test]
    fn a_const_or_an_enum_of_one_type_implies_that_type() {
        let implied = |schema: serde_json::Value| implied_types(&obj(schema));
        assert_eq!(implied(json!({"const": "card"})), ["string"]);
        assert_eq!(implied(json!({"const": 5})), ["integer"]);
        assert_eq!(implied(json!({"enum": [1, 2.5, null]})), ["number"]);
        assert_eq!(implied(json!({"enum": [true, false]})), ["boolean"]);
        assert!(implied(json!({"enum": [1, "two"]})).is_empty());
        assert!(implied(json!({"const": null})).is_empty());
        assert!(implied(json!({"description": "anything"})).is_empty());
    }
}
