//! A synthetic large OpenAPI document built from a real one, for measuring generation at
//! scale: the document's component schemas and paths are copied N times under new names, with
//! every `$ref` to a schema rewritten to the copy, until the YAML text reaches a target size.
//!
//! Shared by `benches/generate.rs` and `examples/synth_spec.rs` (through `#[path]`), so the
//! benchmark and `scripts/bench-generate.sh` measure the same document.

use serde_json::{Map, Value};

const SCHEMA_PREFIX: &str = "#/components/schemas/";

/// YAML text of `base` (YAML or JSON text of an OpenAPI document) with its component schemas
/// and paths replicated until the text is at least `target_bytes` long.
pub fn synthesize(base: &str, target_bytes: usize) -> Result<String, String> {
    let doc: Value = serde_norway::from_str(base).map_err(|e| format!("parse base: {e}"))?;
    let one = to_yaml(&doc)?;
    if one.len() >= target_bytes {
        return Ok(one);
    }
    // Size of one copy, from the text with one copy added; then enough copies for the target.
    let per_copy = to_yaml(&with_copies(&doc, 1)?)?
        .len()
        .saturating_sub(one.len())
        .max(1);
    let mut copies = (target_bytes - one.len()).div_ceil(per_copy);
    loop {
        let text = to_yaml(&with_copies(&doc, copies)?)?;
        if text.len() >= target_bytes {
            return Ok(text);
        }
        copies += 1;
    }
}

fn to_yaml(doc: &Value) -> Result<String, String> {
    serde_norway::to_string(doc).map_err(|e| format!("write YAML: {e}"))
}

/// `doc` with `copies` renamed copies of its component schemas and paths added.
fn with_copies(doc: &Value, copies: usize) -> Result<Value, String> {
    let mut out = doc.clone();
    let schemas = object(doc, &["components", "schemas"])?;
    let paths = object(doc, &["paths"])?;
    let mut new_schemas = schemas.clone();
    let mut new_paths = paths.clone();
    for copy in 1..=copies {
        let suffix = format!("Copy{copy}");
        for (name, schema) in schemas {
            let mut schema = schema.clone();
            rename_refs(&mut schema, &suffix);
            new_schemas.insert(format!("{name}{suffix}"), schema);
        }
        for (path, item) in paths {
            let mut item = item.clone();
            rename_refs(&mut item, &suffix);
            rename_operation_ids(&mut item, &suffix);
            new_paths.insert(format!("/copy{copy}{path}"), item);
        }
    }
    out["components"]["schemas"] = Value::Object(new_schemas);
    out["paths"] = Value::Object(new_paths);
    Ok(out)
}

fn object<'a>(doc: &'a Value, keys: &[&str]) -> Result<&'a Map<String, Value>, String> {
    keys.iter()
        .try_fold(doc, |value, key| value.get(key))
        .and_then(Value::as_object)
        .ok_or_else(|| format!("base document has no object at {}", keys.join(".")))
}

/// Points every `$ref` (and discriminator mapping) to a component schema at its copy.
fn rename_refs(value: &mut Value, suffix: &str) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                match child {
                    Value::String(text) if key == "$ref" => rename_ref(text, suffix),
                    Value::Object(mapping) if key == "mapping" => {
                        for target in mapping.values_mut() {
                            if let Value::String(text) = target {
                                rename_ref(text, suffix);
                            }
                        }
                    }
                    _ => rename_refs(child, suffix),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rename_refs(item, suffix)),
        _ => {}
    }
}

fn rename_ref(reference: &mut String, suffix: &str) {
    if let Some(rest) = reference.strip_prefix(SCHEMA_PREFIX) {
        let end = rest.find('/').unwrap_or(rest.len());
        *reference = format!("{SCHEMA_PREFIX}{}{suffix}{}", &rest[..end], &rest[end..]);
    }
}

/// Operation ids must stay unique: `getAccount` becomes `getAccountCopy1`.
fn rename_operation_ids(path_item: &mut Value, suffix: &str) {
    if let Value::Object(methods) = path_item {
        for operation in methods.values_mut() {
            if let Some(Value::String(id)) = operation.get_mut("operationId") {
                id.push_str(suffix);
            }
        }
    }
}
