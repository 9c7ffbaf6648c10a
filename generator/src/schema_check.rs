//! Every Schema Object of a document, checked with the JSON Schema validator that the generated
//! server, specval and the example round trips compile the contract with.
//!
//! A schema that validator refuses (a `pattern` that is not a regular expression, a
//! `minLength` of -1, a `type` that names no type) would otherwise be found late and far from
//! its place: by the example check, as "generating components/X.json: the schema does not
//! compile", or by the generated server when it first compiles its contract. Checked here,
//! against the document, the error names the keyword's JSON pointer and its line and column.

use jsonschema::Draft;
use rayon::prelude::*;
use serde_json::Value;

use crate::error::Error;
use crate::load::{Document, join};

/// The first schema, in document order, that the contract's validator refuses, as a spec
/// error at the keyword it refuses.
pub(crate) fn first_invalid(doc: &Document) -> Option<Error> {
    let mut roots = Vec::new();
    collect_roots(&doc.root, "#", false, &mut roots);
    roots
        .par_iter()
        .find_map_first(|(at, schema)| check(schema).map(|(path, message)| (at, path, message)))
        .map(|(at, path, message)| {
            let mut pointer = at.clone();
            for segment in path {
                pointer = join(&pointer, &segment);
            }
            doc.spec_error(
                &pointer,
                format!("this schema is not valid JSON Schema (draft 2020-12): {message}"),
            )
        })
}

/// The schemas of the document that stand on their own: each component schema, and each
/// `schema` of a parameter, header or media type, wherever it is (paths, webhooks, callbacks,
/// components). Example values and extensions are data, not schemas, and are not searched.
fn collect_roots<'a>(
    value: &'a Value,
    at: &str,
    in_components: bool,
    out: &mut Vec<(String, &'a Value)>,
) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let inner_at = join(at, key);
                if in_components && key == "schemas" {
                    if let Value::Object(schemas) = inner {
                        for (name, schema) in schemas {
                            out.push((join(&inner_at, name), schema));
                        }
                    }
                } else if key == "schema" {
                    out.push((inner_at, inner));
                } else if !(key.starts_with("x-")
                    || matches!(key.as_str(), "example" | "examples" | "default"))
                {
                    collect_roots(inner, &inner_at, at == "#" && key == "components", out);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                collect_roots(item, &join(at, &index.to_string()), false, out);
            }
        }
        _ => {}
    }
}

/// Why the validator refuses `schema`, if it does: the path of the keyword inside it, as
/// pointer segments, and the validator's message. References are taken out first: they point
/// into the document, not into the schema, and what they point at is checked on its own.
fn check(schema: &Value) -> Option<(Vec<String>, String)> {
    let standalone = without_references(schema);
    let err = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .build(&standalone)
        .err()?;
    let path = err
        .instance_path()
        .as_str()
        .split('/')
        .skip(1)
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
        .collect();
    Some((path, err.to_string()))
}

fn without_references(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| !matches!(key.as_str(), "$ref" | "$dynamicRef"))
                .map(|(key, inner)| (key.clone(), without_references(inner)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_references).collect()),
        other => other.clone(),
    }
}
