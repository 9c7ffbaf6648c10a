//! A schema whose `type` lists several types (`type: [string, integer]`, as JSON Schema 2020-12
//! and OpenAPI 3.1 allow): a union with one alternative per type, each holding the keywords
//! that apply to its type, so that the binding is typed (`Id::String(String)`,
//! `Id::Integer(i64)`) rather than a `serde_json::Value`. `null` in the list makes the union
//! nullable, as everywhere else; the contract keeps the schema as the spec wrote it.

use serde_json::{Map, Value};

use super::objects::ObjectShape;
use super::state::{Builder, Converted, child};
use super::unions::{LABEL, UnionSource};
use crate::error::Result;
use crate::ir::JsonKind;
use crate::ir::naming::NameHint;
use crate::ir::schema::docs_of;

/// Keywords that constrain values of one type only.
const STRING_KEYWORDS: &[&str] = &[
    "minLength",
    "maxLength",
    "pattern",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];
const NUMBER_KEYWORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];
const ARRAY_KEYWORDS: &[&str] = &[
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
];
const OBJECT_KEYWORDS: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "discriminator",
];

/// Keywords that describe the schema as a whole: they stay with the union, not its
/// alternatives (which would repeat the documentation on every one).
const WHOLE_KEYWORDS: &[&str] = &["type", "title", "description", "examples", "example"];

impl Builder<'_> {
    /// The type of a schema at `at` whose `type` lists `types` (`null` already taken out
    /// into `nullable`); `None` when a listed name is not a JSON Schema type, which leaves the
    /// schema untyped.
    pub(super) fn type_list(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        hint: &NameHint,
        types: &[String],
        nullable: bool,
    ) -> Result<Option<Converted>> {
        let Some(types) = alternatives(types) else {
            return Ok(None);
        };
        if let [only] = types.as_slice() {
            // `[integer, number]` is a number.
            let (ty, n) = self.convert_shape(&Value::Object(alternative(map, only)), at, hint)?;
            return Ok(Some((ty, n || nullable)));
        }
        let union_at = child(at, "x-specgen-type");
        let branches = types
            .iter()
            .map(|ty| Value::Object(alternative(map, ty)))
            .collect();
        let union = Map::from_iter([("oneOf".to_string(), Value::Array(branches))]);
        let (ty, n) = self.union_over(UnionSource {
            at,
            hint,
            docs: docs_of(map),
            base: ObjectShape::default(),
            union: &union,
            union_at: &union_at,
            discriminator: None,
        })?;
        Ok(Some((ty, n || nullable)))
    }
}

/// The types to make alternatives of, in the order listed, each once; `integer` folds into
/// `number` when both are listed (every integer is a number: two alternatives would overlap).
fn alternatives(types: &[String]) -> Option<Vec<&str>> {
    let mut kept: Vec<&str> = Vec::new();
    for ty in types {
        let ty = JsonKind::from_name(ty)
            .filter(|kind| *kind != JsonKind::Null)?
            .name();
        if !kept.contains(&ty) {
            kept.push(ty);
        }
    }
    if kept.contains(&"number") {
        kept.retain(|ty| *ty != "integer");
    }
    Some(kept)
}

/// The schema of the alternative of type `ty`: that type, the keywords that apply to it, and
/// the enum values, `const` and `default` of that type.
fn alternative(map: &Map<String, Value>, ty: &str) -> Map<String, Value> {
    let own: &[&str] = match ty {
        "string" => STRING_KEYWORDS,
        "integer" | "number" => NUMBER_KEYWORDS,
        "array" => ARRAY_KEYWORDS,
        "object" => OBJECT_KEYWORDS,
        _ => &[],
    };
    let others = [
        STRING_KEYWORDS,
        NUMBER_KEYWORDS,
        ARRAY_KEYWORDS,
        OBJECT_KEYWORDS,
    ];
    let mut out = Map::new();
    out.insert("type".to_string(), Value::String(ty.to_string()));
    if ty == "object" {
        // Names the alternative's struct (`SwitchObject`, not `SwitchVariant1`); a title
        // would do too, but would become its documentation.
        out.insert(LABEL.to_string(), Value::String("Object".to_string()));
    }
    for (key, value) in map {
        if WHOLE_KEYWORDS.contains(&key.as_str())
            || (others.iter().any(|list| list.contains(&key.as_str()))
                && !own.contains(&key.as_str()))
        {
            continue;
        }
        match key.as_str() {
            "enum" => {
                let values: Vec<Value> = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|value| is_of_type(value, ty))
                    .cloned()
                    .collect();
                if !values.is_empty() {
                    out.insert(key.clone(), Value::Array(values));
                }
            }
            "const" | "default" if !is_of_type(value, ty) => {}
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    // An enum none of whose values is of this type leaves the alternative unconstrained
    // rather than dropped: the contract, not the binding, says what is valid.
    out
}

/// Whether `value` is an instance of the JSON Schema type `ty`: every integer is a number,
/// and a number without a fraction (`3.0`) an integer.
fn is_of_type(value: &Value, ty: &str) -> bool {
    match (JsonKind::of(value), ty) {
        (kind, ty) if kind.name() == ty => true,
        (JsonKind::Integer, "number") => true,
        (JsonKind::Number, "integer") => value.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_alternative_keeps_the_keywords_of_its_type() {
        let map = json!({
            "type": ["string", "integer", "array"],
            "description": "an id",
            "minLength": 2, "maximum": 9, "items": {"type": "string"},
            "enum": ["ab", 3, ["x"]], "format": "int64", "default": 3
        });
        let map = map.as_object().unwrap();
        assert_eq!(
            Value::Object(alternative(map, "string")),
            json!({"type": "string", "minLength": 2, "enum": ["ab"], "format": "int64"})
        );
        assert_eq!(
            Value::Object(alternative(map, "integer")),
            json!({"type": "integer", "maximum": 9, "enum": [3], "format": "int64", "default": 3})
        );
        assert_eq!(
            Value::Object(alternative(map, "array")),
            json!({"type": "array", "items": {"type": "string"}, "enum": [["x"]], "format": "int64"})
        );
    }

    #[test]
    fn integer_folds_into_number_and_unknown_names_leave_the_schema_untyped() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            alternatives(&names(&["integer", "string", "number", "string"])),
            Some(vec!["string", "number"])
        );
        assert_eq!(alternatives(&names(&["string", "file"])), None);
    }
}
