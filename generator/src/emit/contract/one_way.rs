//! `readOnly` and `writeOnly` in a message's schema. OpenAPI makes a required property that is
//! `readOnly` required in responses only, and a `writeOnly` one in requests only: a request
//! leaves out the server-assigned `id` its schema requires. JSON Schema has no notion of
//! direction, so each message's bundle drops from `required` the properties its direction
//! does not send.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::resolve;
use crate::load::escape_segment;

/// Which way a message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// A request body (or a notification's payload, which the API sends as a request).
    Request,
    /// A response body (or a notification's reply).
    Response,
}

impl Flow {
    /// The keyword of properties this direction does not send.
    fn absent(self) -> &'static str {
        match self {
            Flow::Request => "readOnly",
            Flow::Response => "writeOnly",
        }
    }
}

/// Keys whose values are data, not schemas: a `required` in an example says nothing.
const DATA: &[&str] = &["enum", "const", "default", "example", "examples"];

/// Keys whose schemas judge the same instance as the schema they sit in, so properties
/// declared beside them count for their `required`.
const SAME_INSTANCE: &[&str] = &["allOf", "anyOf", "oneOf"];

/// How deep `$ref`s and `allOf`s are followed to find where a property is declared: a bound,
/// not a cycle check (schemas may refer to themselves).
const DEPTH: usize = 16;

/// Drops from every `required` of a bundled message schema (refs as `#/$defs/…`, resolved in
/// `root`) the properties `flow` does not send.
pub(crate) fn relax_required(root: &mut Value, flow: Flow) {
    let mut edits = Vec::new();
    collect(root, root, String::new(), &[], flow, &mut edits);
    for (pointer, names) in edits {
        if let Some(Value::Array(required)) = root
            .pointer_mut(&pointer)
            .and_then(|schema| schema.get_mut("required"))
        {
            required.retain(|name| name.as_str().is_none_or(|name| !names.contains(name)));
        }
    }
}

/// Finds the `required` lists to relax under `value` (at `pointer`), with `context` the
/// property declarations of the schemas that judge the same instance around it.
fn collect<'r>(
    root: &'r Value,
    value: &'r Value,
    pointer: String,
    context: &[&'r Map<String, Value>],
    flow: Flow,
    edits: &mut Vec<(String, BTreeSet<String>)>,
) {
    match value {
        Value::Object(map) => {
            let mut declared = context.to_vec();
            declarations(root, map, DEPTH, &mut declared);
            if let Some(Value::Array(required)) = map.get("required") {
                let absent: BTreeSet<String> = required
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|name| {
                        declared.iter().any(|properties| {
                            properties
                                .get(*name)
                                .is_some_and(|schema| marked(root, schema, flow.absent()))
                        })
                    })
                    .map(str::to_string)
                    .collect();
                if !absent.is_empty() {
                    edits.push((pointer.clone(), absent));
                }
            }
            for (key, inner) in map {
                if DATA.contains(&key.as_str()) || key.starts_with("x-") {
                    continue;
                }
                let at = format!("{pointer}/{}", escape_segment(key));
                if SAME_INSTANCE.contains(&key.as_str()) {
                    if let Value::Array(parts) = inner {
                        for (index, part) in parts.iter().enumerate() {
                            collect(root, part, format!("{at}/{index}"), &declared, flow, edits);
                        }
                    }
                } else {
                    collect(root, inner, at, &[], flow, edits);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                collect(root, item, format!("{pointer}/{index}"), &[], flow, edits);
            }
        }
        _ => {}
    }
}

/// The `properties` maps that declare members of `schema`'s instance: its own, and those of
/// the schemas it refers to and of its `allOf` members.
fn declarations<'r>(
    root: &'r Value,
    schema: &'r Map<String, Value>,
    depth: usize,
    out: &mut Vec<&'r Map<String, Value>>,
) {
    if let Some(Value::Object(properties)) = schema.get("properties") {
        out.push(properties);
    }
    if depth == 0 {
        return;
    }
    if let Some(Value::Object(target)) = schema.get("$ref").and_then(|r| resolve(root, r.as_str()?))
    {
        declarations(root, target, depth - 1, out);
    }
    if let Some(Value::Array(parts)) = schema.get("allOf") {
        for part in parts.iter().filter_map(Value::as_object) {
            declarations(root, part, depth - 1, out);
        }
    }
}

/// Whether a property's schema carries `keyword: true`, itself or through the schema it
/// refers to (`$ref`, or a lone `allOf` member as 3.0 documents wrap one).
fn marked(root: &Value, schema: &Value, keyword: &str) -> bool {
    let mut schema = schema;
    for _ in 0..DEPTH {
        let Some(map) = schema.as_object() else {
            return false;
        };
        if map.get(keyword) == Some(&Value::Bool(true)) {
            return true;
        }
        let next = match (map.get("$ref"), map.get("allOf")) {
            (Some(reference), _) => reference.as_str().and_then(|r| resolve(root, r)),
            (None, Some(Value::Array(parts))) if parts.len() == 1 => parts.first(),
            _ => None,
        };
        match next {
            Some(next) => schema = next,
            None => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn relaxed(mut schema: Value, flow: Flow) -> Value {
        relax_required(&mut schema, flow);
        schema
    }

    #[test]
    fn a_request_need_not_send_what_only_the_server_writes() {
        let schema = json!({
            "$ref": "#/$defs/Pet",
            "$defs": {
                "Pet": {
                    "type": "object",
                    "required": ["id", "name", "password", "owner"],
                    "properties": {
                        "id": {"type": "string", "readOnly": true},
                        "name": {"type": "string"},
                        "password": {"type": "string", "writeOnly": true},
                        "owner": {"$ref": "#/$defs/Owner%20Id"}
                    }
                },
                "Owner Id": {"type": "string", "readOnly": true}
            }
        });
        let request = relaxed(schema.clone(), Flow::Request);
        assert_eq!(
            request["$defs"]["Pet"]["required"],
            json!(["name", "password"])
        );
        let response = relaxed(schema, Flow::Response);
        assert_eq!(
            response["$defs"]["Pet"]["required"],
            json!(["id", "name", "owner"])
        );
    }

    #[test]
    fn properties_declared_in_another_all_of_part_count() {
        let schema = json!({
            "allOf": [
                {"$ref": "#/$defs/Base"},
                {"required": ["id", "kind"]}
            ],
            "$defs": {
                "Base": {
                    "properties": {
                        "id": {"allOf": [{"type": "integer"}], "readOnly": true},
                        "kind": {"type": "string"}
                    }
                }
            }
        });
        let request = relaxed(schema, Flow::Request);
        assert_eq!(request["allOf"][1]["required"], json!(["kind"]));
    }

    #[test]
    fn examples_and_unmarked_properties_are_left_alone() {
        let schema = json!({
            "type": "object",
            "required": ["id"],
            "properties": {"id": {"type": "string", "readOnly": false}},
            "examples": [{"required": ["id"], "properties": {"id": {"readOnly": true}}}]
        });
        assert_eq!(relaxed(schema.clone(), Flow::Request), schema);
    }
}
