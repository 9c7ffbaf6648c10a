//! Schemas the document gets wrong in a way JSON Schema cannot compile: `type: {…}` (a schema
//! written where a type name belongs), Swagger 2.0's `required: true` on a property, a type
//! name misspelt. Real specs have them, and one such keyword would make the whole contract
//! fail to load in the validator and the generated server. Each offending keyword is left out
//! of the contract, with a warning naming where it is; the schema keeps everything else.

use serde_json::Value;

use super::{Builder, child};
use crate::ir::{Api, TypeKind};

/// How many passes repair makes; each removes every keyword the meta-schema rejects, and a
/// removal can only reveal errors below it, so a handful always suffices.
const PASSES: usize = 8;

/// Removes from `schema` the keywords that make it invalid against the JSON Schema 2020-12
/// meta-schema. Returns the JSON pointer (relative to `schema`) and the reason of each removal.
pub(super) fn repair(schema: &mut Value) -> Vec<(String, String)> {
    let validator = jsonschema::draft202012::meta::validator();
    let mut removed = Vec::new();
    for _ in 0..PASSES {
        if validator.is_valid(schema) {
            break;
        }
        let mut offending: Vec<(Vec<String>, String)> = validator
            .iter_errors(schema)
            .map(|error| {
                let path = error
                    .instance_path()
                    .as_str()
                    .split('/')
                    .skip(1)
                    .map(crate::load::unescape_segment)
                    .collect::<Vec<_>>();
                (path, error.to_string())
            })
            .collect();
        offending.sort();
        offending.dedup_by(|a, b| a.0 == b.0);
        let mut progress = false;
        for (path, message) in offending {
            let keyword = keyword_path(schema, &path);
            if keyword.is_empty() {
                continue;
            }
            let (last, parent) = keyword.split_last().expect("not empty");
            if let Some(Value::Object(map)) = resolve_mut(schema, parent)
                && map.remove(last).is_some()
            {
                progress = true;
                removed.push((
                    crate::load::encode_pointer(&keyword).replacen('#', "", 1),
                    message,
                ));
            }
        }
        if !progress {
            break;
        }
    }
    removed
}

impl Builder<'_> {
    /// Repairs every schema of the contract (see the module), warning at the place in the
    /// document each removed keyword comes from.
    pub(super) fn repair_contract(&mut self, api: &mut Api) {
        let mut found: Vec<(String, String)> = Vec::new();
        let mut note = |place: &str, removals: Vec<(String, String)>| {
            for (pointer, message) in removals {
                found.push((format!("{place}{pointer}"), message));
            }
        };
        for (name, schema) in &mut api.schemas {
            note(&child("#/components/schemas", name), repair(schema));
        }
        let operations = api
            .operations
            .iter_mut()
            .chain(api.webhooks.iter_mut().map(|hook| &mut hook.operation));
        for op in operations {
            for param in &mut op.parameters {
                let place = format!("{} (parameter {})", op.pointer, param.name);
                note(&place, repair(&mut param.schema));
            }
            if let Some(body) = &mut op.request_body {
                note(&child(&op.pointer, "requestBody"), repair(&mut body.schema));
            }
            for response in &mut op.responses {
                if let Some(body) = &mut response.body {
                    let place = child(&child(&op.pointer, "responses"), &response.status.key());
                    note(&place, repair(&mut body.schema));
                }
            }
        }
        for def in &mut api.types {
            if let TypeKind::Union(union) = &mut def.kind {
                for variant in &mut union.variants {
                    note(&def.origin, repair(&mut variant.schema));
                }
            }
        }
        for example in &mut api.schema_examples {
            let place = example.example.pointer.clone();
            note(&place, repair(&mut example.schema));
        }
        for (pointer, message) in found {
            self.warn(
                &pointer,
                format!("not valid JSON Schema ({message}); left out of the contract"),
            );
        }
    }
}

/// The path of the keyword holding the value at `path`: the path itself when its last step is
/// a key of an object, else (an array entry) the array's key.
fn keyword_path(schema: &Value, path: &[String]) -> Vec<String> {
    let mut keyword = path.to_vec();
    while let Some((_, parent)) = keyword.split_last() {
        if matches!(resolve(schema, parent), Some(Value::Object(_))) {
            return keyword;
        }
        keyword.pop();
    }
    keyword
}

fn resolve<'v>(value: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(value, |node, step| match node {
        Value::Object(map) => map.get(step),
        Value::Array(items) => items.get(step.parse::<usize>().ok()?),
        _ => None,
    })
}

fn resolve_mut<'v>(value: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, step| match node {
        Value::Object(map) => map.get_mut(step),
        Value::Array(items) => items.get_mut(step.parse::<usize>().ok()?),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::repair;
    use serde_json::json;

    #[test]
    fn keywords_the_meta_schema_rejects_are_removed_and_named() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "kind": {"type": {"enum": ["a"], "type": "string"}, "description": "kept"},
                "name": {"type": "string", "required": true},
                "size": {"type": "integer", "minimum": 0}
            }
        });
        let removed = repair(&mut schema);
        let pointers: Vec<&str> = removed.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            ["/properties/kind/type", "/properties/name/required"]
        );
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "kind": {"description": "kept"},
                    "name": {"type": "string"},
                    "size": {"type": "integer", "minimum": 0}
                }
            })
        );
    }

    #[test]
    fn a_bad_array_entry_removes_its_keyword() {
        let mut schema = json!({"required": ["a", 3], "type": "object"});
        let removed = repair(&mut schema);
        assert_eq!(removed.len(), 1);
        assert_eq!(schema, json!({"type": "object"}));
    }

    #[test]
    fn a_valid_schema_is_left_alone() {
        let mut schema = json!({"type": ["string", "null"], "pattern": "^a"});
        assert!(repair(&mut schema).is_empty());
        assert_eq!(schema, json!({"type": ["string", "null"], "pattern": "^a"}));
    }
}
