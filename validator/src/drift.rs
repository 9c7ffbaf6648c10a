//! What a payload holds that its schema does not document: properties the schema does not
//! declare (where unknown properties are allowed) and values outside an enum's list (closed,
//! or `x-extensible-enum`). A walk over the instance beside the schema, cheaper than a second
//! validation: where alternatives (`oneOf`, `anyOf`) are involved, a property counts as
//! documented when any alternative declares it.

use serde_json::{Map, Value};

/// What kind of undocumented thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A property no schema declares.
    Property,
    /// A string outside the enum's known values.
    EnumValue,
}

/// One undocumented thing in a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Property or enum value.
    pub kind: Kind,
    /// Where, exactly (`/transactions/0/extra`).
    pub pointer: String,
    /// Where, with array indexes as `*`, for counting (`/transactions/*`).
    pub pattern: String,
    /// Pointer of the schema that should have documented it, inside its file.
    pub schema_pointer: String,
    /// The property name, or the value.
    pub value: String,
}

/// Deep enough for any real payload; deeper parts are not examined.
const MAX_DEPTH: usize = 64;

/// The undocumented properties and enum values of `instance` against the schema file
/// `document` (whose `$ref`s point into its own `$defs`).
pub fn undocumented(document: &Value, instance: &Value) -> Vec<Item> {
    let mut out = Vec::new();
    let mut walker = Walker {
        document,
        out: &mut out,
    };
    walker.walk(&[(document, String::new())], instance, "", "", 0);
    out
}

struct Walker<'d, 'o> {
    document: &'d Value,
    out: &'o mut Vec<Item>,
}

impl<'d> Walker<'d, '_> {
    /// Follows `$ref` (local to the file) and flattens `allOf`/`anyOf`/`oneOf` into the list
    /// of schemas that together describe one place, each with its pointer.
    fn gather(
        &self,
        schema: &'d Value,
        pointer: String,
        into: &mut Vec<(&'d Value, String)>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(map) = schema.as_object() else {
            return;
        };
        into.push((schema, pointer.clone()));
        if let Some(reference) = map.get("$ref").and_then(Value::as_str)
            && let Some(fragment) = reference.strip_prefix('#')
            && let Some(target) = self.document.pointer(&decode(fragment))
        {
            self.gather(target, fragment.to_string(), into, depth + 1);
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            if let Some(branches) = map.get(key).and_then(Value::as_array) {
                for (index, branch) in branches.iter().enumerate() {
                    self.gather(branch, format!("{pointer}/{key}/{index}"), into, depth + 1);
                }
            }
        }
    }

    fn walk(
        &mut self,
        schemas: &[(&'d Value, String)],
        instance: &Value,
        pointer: &str,
        pattern: &str,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut all = Vec::new();
        for (schema, at) in schemas {
            self.gather(schema, at.clone(), &mut all, depth);
        }
        match instance {
            Value::Object(object) => self.object(&all, object, pointer, pattern, depth),
            Value::Array(items) => {
                let item_schemas: Vec<(&'d Value, String)> = all
                    .iter()
                    .filter_map(|(schema, at)| {
                        schema
                            .get("items")
                            .map(|items| (items, format!("{at}/items")))
                    })
                    .collect();
                if item_schemas.is_empty() {
                    return;
                }
                for (index, item) in items.iter().enumerate() {
                    self.walk(
                        &item_schemas,
                        item,
                        &format!("{pointer}/{index}"),
                        &format!("{pattern}/*"),
                        depth + 1,
                    );
                }
            }
            Value::String(text) => self.enum_value(&all, text, pointer, pattern),
            _ => {}
        }
    }

    fn object(
        &mut self,
        all: &[(&'d Value, String)],
        object: &Map<String, Value>,
        pointer: &str,
        pattern: &str,
        depth: usize,
    ) {
        // A schema that declares no properties documents none: nothing there is drift.
        let declares = all
            .iter()
            .any(|(schema, _)| schema.get("properties").is_some_and(Value::is_object));
        let open_map = all.iter().any(|(schema, _)| {
            matches!(schema.get("additionalProperties"), Some(Value::Object(_)))
                || schema.get("patternProperties").is_some()
        });
        for (name, value) in object {
            let escaped = name.replace('~', "~0").replace('/', "~1");
            let child_pointer = format!("{pointer}/{escaped}");
            let child_pattern = format!("{pattern}/{escaped}");
            let declared: Vec<(&'d Value, String)> = all
                .iter()
                .filter_map(|(schema, at)| {
                    schema
                        .get("properties")
                        .and_then(|p| p.get(name))
                        .map(|s| (s, format!("{at}/properties/{escaped}")))
                })
                .collect();
            if !declared.is_empty() {
                self.walk(&declared, value, &child_pointer, &child_pattern, depth + 1);
                continue;
            }
            let additional: Vec<(&'d Value, String)> = all
                .iter()
                .filter_map(|(schema, at)| match schema.get("additionalProperties") {
                    Some(s @ Value::Object(_)) => Some((s, format!("{at}/additionalProperties"))),
                    _ => None,
                })
                .collect();
            if !additional.is_empty() {
                self.walk(
                    &additional,
                    value,
                    &child_pointer,
                    &format!("{pattern}/*"),
                    depth + 1,
                );
            } else if declares && !open_map {
                let schema_pointer = all
                    .iter()
                    .find(|(schema, _)| schema.get("properties").is_some())
                    .map(|(_, at)| at.clone())
                    .unwrap_or_default();
                self.out.push(Item {
                    kind: Kind::Property,
                    pointer: child_pointer,
                    pattern: pattern.to_string(),
                    schema_pointer,
                    value: name.clone(),
                });
            }
        }
    }

    fn enum_value(
        &mut self,
        all: &[(&'d Value, String)],
        text: &str,
        pointer: &str,
        pattern: &str,
    ) {
        for (schema, at) in all {
            let (list, keyword) = match (schema.get("enum"), schema.get("x-extensible-enum")) {
                (Some(Value::Array(list)), _) => (list, "enum"),
                (None, Some(Value::Array(list))) => (list, "x-extensible-enum"),
                _ => continue,
            };
            if !list.iter().any(|known| known.as_str() == Some(text)) {
                self.out.push(Item {
                    kind: Kind::EnumValue,
                    pointer: pointer.to_string(),
                    pattern: pattern.to_string(),
                    schema_pointer: format!("{at}/{keyword}"),
                    value: text.to_string(),
                });
            }
            return;
        }
    }
}

/// A URI fragment as a JSON pointer (percent-decoding).
fn decode(fragment: &str) -> String {
    crate::contract::percent_decode(fragment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "$ref": "#/$defs/Transfer",
            "$defs": {
                "Transfer": {
                    "type": "object",
                    "properties": {
                        "status": { "$ref": "#/$defs/Status" },
                        "amount": { "type": "object", "properties": { "value": { "type": "number" } } },
                        "tags": { "type": "object", "additionalProperties": { "type": "string" } },
                        "legs": { "type": "array", "items": { "$ref": "#/$defs/Leg" } },
                        "raw": { "description": "anything" }
                    }
                },
                "Status": { "type": "string", "x-extensible-enum": ["PENDING", "COMPLETED"] },
                "Leg": { "oneOf": [
                    { "type": "object", "properties": { "a": { "type": "string" } } },
                    { "type": "object", "properties": { "b": { "type": "string" } } }
                ] }
            }
        })
    }

    #[test]
    fn undeclared_properties_and_unknown_enum_values_are_found() {
        let instance = json!({
            "status": "CANCELLED",
            "amount": { "value": 1, "unit": "minor" },
            "tags": { "free": "form" },
            "legs": [ { "a": "x" }, { "b": "y", "c": "z" } ],
            "raw": { "whatever": true },
            "risk": 3
        });
        let items = undocumented(&schema(), &instance);
        let found: Vec<(Kind, &str, &str)> = items
            .iter()
            .map(|i| (i.kind, i.pattern.as_str(), i.value.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                (Kind::EnumValue, "/status", "CANCELLED"),
                (Kind::Property, "/amount", "unit"),
                (Kind::Property, "/legs/*", "c"),
                (Kind::Property, "", "risk"),
            ]
        );
        assert_eq!(items[2].pointer, "/legs/1/c");
        assert_eq!(items[0].schema_pointer, "/$defs/Status/x-extensible-enum");
    }

    #[test]
    fn a_documented_payload_has_no_drift() {
        let instance =
            json!({ "status": "PENDING", "legs": [ { "a": "x" } ], "amount": { "value": 2 } });
        assert_eq!(undocumented(&schema(), &instance), vec![]);
    }
}
