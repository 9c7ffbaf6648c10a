//! The contract's form of a schema: refs to component schemas kept (the contract bundles
//! them), every other local ref inlined, so that each schema stands alone.

use serde_json::{Map, Value};

use super::state::{Builder, as_object, child, component_target, spec_error, unsupported};
use crate::error::Result;

impl Builder<'_> {
    /// Every component schema in contract form, keyed by component name, in document order.
    pub(super) fn component_contracts(&mut self) -> Result<Vec<(String, Value)>> {
        let mut schemas = Vec::new();
        if let Some(all) = self.doc.pointer("#/components/schemas").and_then(as_object) {
            for (name, schema) in all {
                let at = child("#/components/schemas", name);
                schemas.push((name.clone(), self.contract_schema(schema, &at)?));
            }
        }
        Ok(schemas)
    }

    /// A schema as the contract needs it: refs to component schemas kept (the contract bundles
    /// them), any other local ref replaced by its target so that the schema stands alone.
    pub(super) fn contract_schema(&mut self, schema: &Value, at: &str) -> Result<Value> {
        match schema {
            Value::Object(map) => {
                let mut out = Map::new();
                for (key, value) in map {
                    if key == "$ref"
                        && let Some(reference) = value.as_str()
                        && !is_component_schema_ref(reference)
                    {
                        let target = self.doc.pointer(reference).cloned().ok_or_else(|| {
                            spec_error(self.doc, at, format!("$ref '{reference}' does not exist"))
                        })?;
                        if !self.inlining.insert(reference.to_string()) {
                            return Err(unsupported(
                                self.doc,
                                at,
                                "$ref",
                                format!(
                                    "'{reference}' refers to itself outside components/schemas; move it there to give it a name"
                                ),
                            ));
                        }
                        let inlined = self.contract_schema(&target, reference);
                        self.inlining.remove(reference);
                        if let Value::Object(inlined) = inlined? {
                            for (k, v) in inlined {
                                out.entry(k).or_insert(v);
                            }
                        }
                        continue;
                    }
                    let value = if is_schema_map_keyword(key)
                        && let Value::Object(schemas) = value
                    {
                        let key_at = child(at, key);
                        let mut visited = Map::new();
                        for (name, schema) in schemas {
                            let schema = self.contract_schema(schema, &child(&key_at, name))?;
                            visited.insert(name.clone(), schema);
                        }
                        Value::Object(visited)
                    } else if is_schema_keyword(key) {
                        self.contract_schema(value, &child(at, key))?
                    } else {
                        value.clone()
                    };
                    out.insert(key.clone(), value);
                }
                bound_integer_format(&mut out);
                if enum_of_items(&mut out) {
                    self.warn(
                        at,
                        "`enum` beside `type: array` lists items, which no array equals; the \
                         contract applies it to the array's items",
                    );
                }
                Ok(Value::Object(out))
            }
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| self.contract_schema(item, &child(at, &i.to_string())))
                .collect::<Result<Vec<_>>>()
                .map(Value::Array),
            other => Ok(other.clone()),
        }
    }
}

/// The range an integer format promises (OpenAPI's `int32` and `int64`, and the registry's
/// `int8`, `int16` and unsigned `uint8` to `uint64`), as the `minimum` and `maximum` JSON
/// Schema checks: a value outside it cannot be held by the type a client generated from the
/// spec (an `i32`), so the contract refuses it. A bound the spec gives itself stays as written.
/// `type: number` with such a format (impala.travel's `size`) is an integer too: the format
/// registry defines each as an integer of the JSON type number, the bindings hold it in an
/// `i32` or `i64`, and `2.5` is none.
fn bound_integer_format(schema: &mut Map<String, Value>) {
    let Some((low, high)) = schema
        .get("format")
        .and_then(Value::as_str)
        .and_then(integer_range)
    else {
        return;
    };
    let numeric = match schema.get("type") {
        Some(Value::String(name)) => name == "integer" || name == "number",
        Some(Value::Array(names)) => names
            .iter()
            .any(|name| name == "integer" || name == "number"),
        _ => false,
    };
    if !numeric {
        return;
    }
    match schema.get_mut("type") {
        Some(Value::Array(names)) if !names.iter().any(|name| name == "integer") => {
            for name in names.iter_mut().filter(|name| *name == "number") {
                *name = Value::from("integer");
            }
        }
        Some(name) if name == "number" => *name = Value::from("integer"),
        _ => {}
    }
    schema.entry("minimum").or_insert(low);
    schema.entry("maximum").or_insert(high);
}

/// Moves an `enum` written beside `type: array` into `items`, where its authors meant it:
/// `{type: array, items: {type: string}, enum: [HK, AU]}` (Zoom, GitLab, Vimeo, GoDaddy and
/// ten more of the APIs.guru directory) lists region codes, which no array equals, so as
/// written every value of the field breaks the contract: the generated server would refuse
/// every request that carries one and the validator flag every answer. Only an enum without
/// an array among its values, beside items that fix no values of their own, is moved. Whether
/// it moved.
fn enum_of_items(schema: &mut Map<String, Value>) -> bool {
    let is_array = schema.get("type").and_then(Value::as_str) == Some("array");
    let lists_items = schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| !values.is_empty() && !values.iter().any(Value::is_array));
    let items_open = match schema.get("items") {
        None | Some(Value::Bool(true)) => true,
        Some(Value::Object(items)) => !items.contains_key("enum") && !items.contains_key("const"),
        Some(_) => false,
    };
    if !(is_array && lists_items && items_open) {
        return false;
    }
    let values = schema.remove("enum").unwrap_or_default();
    let mut items = match schema.remove("items") {
        Some(Value::Object(items)) => items,
        _ => Map::new(),
    };
    items.insert("enum".into(), values);
    schema.insert("items".into(), Value::Object(items));
    true
}

/// The lowest and highest value of an integer format, `None` for any other format.
fn integer_range(format: &str) -> Option<(Value, Value)> {
    fn signed(low: i64, high: i64) -> (Value, Value) {
        (Value::from(low), Value::from(high))
    }
    let unsigned = |high: u64| (Value::from(0), Value::from(high));
    Some(match format {
        "int8" => signed(i8::MIN.into(), i8::MAX.into()),
        "int16" => signed(i16::MIN.into(), i16::MAX.into()),
        "int32" => signed(i32::MIN.into(), i32::MAX.into()),
        "int64" => signed(i64::MIN, i64::MAX),
        "uint8" => unsigned(u8::MAX.into()),
        "uint16" => unsigned(u16::MAX.into()),
        "uint32" => unsigned(u32::MAX.into()),
        "uint64" => unsigned(u64::MAX),
        _ => return None,
    })
}

/// Keywords whose value is a subschema or an array of subschemas.
fn is_schema_keyword(key: &str) -> bool {
    matches!(
        key,
        "additionalProperties"
            | "items"
            | "prefixItems"
            | "allOf"
            | "anyOf"
            | "oneOf"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties"
    )
}

/// Keywords whose value maps names to subschemas.
fn is_schema_map_keyword(key: &str) -> bool {
    matches!(
        key,
        "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions"
    )
}

/// Whether a `$ref` points at a component schema or into one: the contract keeps such refs
/// (it bundles components whole), so recursion there needs no name of its own.
fn is_component_schema_ref(reference: &str) -> bool {
    component_target(reference).is_some()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::enum_of_items;

    fn repaired(schema: Value) -> (bool, Value) {
        let Value::Object(mut map) = schema else {
            unreachable!("an object schema")
        };
        let moved = enum_of_items(&mut map);
        (moved, Value::Object(map))
    }

    #[test]
    fn an_enum_of_items_beside_type_array_moves_into_items() {
        let (moved, schema) = repaired(json!({
            "type": "array", "items": {"type": "string"}, "enum": ["HK", "AU"], "maxItems": 3
        }));
        assert!(moved);
        assert_eq!(
            schema,
            json!({"type": "array", "items": {"type": "string", "enum": ["HK", "AU"]}, "maxItems": 3})
        );
        // Without items, the items are the enum's alone.
        let (moved, schema) = repaired(json!({"type": "array", "enum": [1, 2]}));
        assert!(moved);
        assert_eq!(schema, json!({"type": "array", "items": {"enum": [1, 2]}}));
    }

    #[test]
    fn an_enum_an_array_can_equal_stays() {
        for schema in [
            // Whole arrays listed: a valid enum of arrays.
            json!({"type": "array", "enum": [["a", "b"], "c"]}),
            // Items that fix their own values.
            json!({"type": "array", "items": {"enum": ["x"]}, "enum": ["HK"]}),
            json!({"type": "array", "items": {"const": "x"}, "enum": ["HK"]}),
            json!({"type": "array", "items": false, "enum": ["HK"]}),
            // Not only an array: the enum may be another type's.
            json!({"type": ["array", "string"], "enum": ["HK"]}),
            json!({"type": "string", "enum": ["HK"]}),
            json!({"type": "array", "enum": []}),
        ] {
            let (moved, after) = repaired(schema.clone());
            assert!(!moved, "{schema}");
            assert_eq!(after, schema);
        }
    }
}
