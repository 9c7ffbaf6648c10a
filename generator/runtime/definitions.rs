//! The contract's shared definitions: reading a contract file as one self-contained schema.
// `support::definitions` in every generated crate (spliced in through `support.rs`), and
// `specgen::definitions`, which specval and specgen's example checks read the contract with.
// One reading, so that every reader of a contract in the shared layout sees the same schema.
//
// specgen writes each contract file self-contained (the components it needs under its own
// `$defs`) unless that would repeat so much that the contract grows past a bound; then every
// schema file refers to one definitions document per direction instead
// (`urn:specgen:{crate}:definitions/responses.json#/$defs/Account`). A reader that wants one
// schema to compile, walk or point into asks [`Definitions::self_contained`], which rebuilds
// the self-contained file: the same schema, byte for byte once printed, as the other layout
// writes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};

/// The folder of the definitions documents, under `schemas/`.
pub const FOLDER: &str = "definitions/";

/// Where a component's definition sits in a definitions document (and in a self-contained
/// file): `#/$defs/<name>`.
const DEFS: &str = "/$defs/";

/// The definitions documents of one contract, each parsed the first time a file needs it.
pub struct Definitions {
    parsed: Mutex<BTreeMap<String, Arc<Value>>>,
}

impl Default for Definitions {
    fn default() -> Definitions {
        Definitions::new()
    }
}

impl Definitions {
    /// No document parsed yet.
    pub const fn new() -> Definitions {
        Definitions {
            parsed: Mutex::new(BTreeMap::new()),
        }
    }

    /// A contract file's text as one self-contained schema; `files` reads a contract file
    /// by its path under `schemas/`.
    pub fn read<'f>(
        &self,
        text: &str,
        files: impl Fn(&str) -> Option<&'f str>,
    ) -> Result<Value, String> {
        let schema: Value = ::serde_json::from_str(text).map_err(|err| err.to_string())?;
        self.self_contained(schema, files)
    }

    /// `schema` (a contract file) with every `$ref` into a definitions document made local
    /// (`#/$defs/…`) and the components those reach, transitively, under its `$defs`, sorted
    /// by name. A file without such a `$ref` (every file of a self-contained contract) is
    /// returned as it is.
    pub fn self_contained<'f>(
        &self,
        mut schema: Value,
        files: impl Fn(&str) -> Option<&'f str>,
    ) -> Result<Value, String> {
        let mut document = None;
        let mut needed = BTreeSet::new();
        localize(&mut schema, &mut document, &mut needed)?;
        let Some(path) = document else {
            return Ok(schema);
        };
        let definitions = self.document(&path, files)?;
        let Some(defs) = definitions.get("$defs").and_then(Value::as_object) else {
            return Err(format!("{path} has no $defs"));
        };
        let mut queue: Vec<String> = needed.iter().cloned().collect();
        while let Some(name) = queue.pop() {
            let definition = defs
                .get(&name)
                .ok_or_else(|| format!("{path} defines no component {name:?}"))?;
            let mut more = BTreeSet::new();
            local_components(definition, &mut more);
            for next in more {
                if needed.insert(next.clone()) {
                    queue.push(next);
                }
            }
        }
        let bundled: Map<String, Value> = needed
            .into_iter()
            .map(|name| {
                let definition = defs[&name].clone();
                (name, definition)
            })
            .collect();
        match &mut schema {
            Value::Object(map) => {
                map.insert("$defs".into(), Value::Object(bundled));
                Ok(schema)
            }
            _ => Err("a contract file that refers to definitions is not an object".into()),
        }
    }

    /// The definitions document at `path`, parsed once.
    fn document<'f>(
        &self,
        path: &str,
        files: impl Fn(&str) -> Option<&'f str>,
    ) -> Result<Arc<Value>, String> {
        let mut parsed = self
            .parsed
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some(document) = parsed.get(path) {
            return Ok(Arc::clone(document));
        }
        let text = files(path).ok_or_else(|| format!("no contract file {path}"))?;
        let document: Value =
            ::serde_json::from_str(text).map_err(|err| format!("{path}: {err}"))?;
        let document = Arc::new(document);
        parsed.insert(path.to_string(), Arc::clone(&document));
        Ok(document)
    }
}

/// The `$ref` of a shared definition as a contract file in the shared layout writes it:
/// `urn:specgen:{crate}:{FOLDER}{document}#{fragment}`, `fragment` as a self-contained file
/// has it (`/$defs/Account/properties/id`, segments percent-encoded).
pub fn shared_ref(crate_name: &str, document: &str, fragment: &str) -> String {
    format!("urn:specgen:{crate_name}:{FOLDER}{document}#{fragment}")
}

/// The definitions document (path under `schemas/`) and fragment of a shared definition's
/// `$ref`; `None` for any other.
fn shared_target(reference: &str) -> Option<(&str, &str)> {
    let rest = reference.strip_prefix("urn:specgen:")?;
    let (document, fragment) = rest.split_once('#')?;
    // A crate name has no `:`; the path follows it.
    let (_, path) = document.split_once(':')?;
    path.starts_with(FOLDER).then_some((path, fragment))
}

/// Rewrites every `$ref` into a definitions document under `value` as a local one, noting the
/// document (one per file) and the components the refs name.
fn localize(
    value: &mut Value,
    document: &mut Option<String>,
    needed: &mut BTreeSet<String>,
) -> Result<(), String> {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                if key == "$ref"
                    && let Some((path, fragment)) = inner.as_str().and_then(shared_target)
                {
                    match document {
                        Some(known) if known != path => {
                            return Err(format!(
                                "a contract file refers to two definitions documents, {known} and {path}"
                            ));
                        }
                        _ => *document = Some(path.to_string()),
                    }
                    let name = component(fragment).ok_or_else(|| {
                        format!("a $ref into {path} names no component: #{fragment}")
                    })?;
                    needed.insert(name);
                    *inner = Value::String(format!("#{fragment}"));
                } else {
                    localize(inner, document, needed)?;
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                localize(item, document, needed)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The components the local `$ref`s under `value` name.
fn local_components(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner) {
                    ("$ref", Value::String(reference)) => {
                        if let Some(name) = reference.strip_prefix('#').and_then(component) {
                            out.insert(name);
                        }
                    }
                    _ => local_components(inner, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| local_components(item, out)),
        _ => {}
    }
}

/// The component a fragment (`/$defs/Order%20Line/properties/id`) points at or into, decoded
/// (`Order Line`).
fn component(fragment: &str) -> Option<String> {
    let rest = fragment.strip_prefix(DEFS)?;
    let segment = rest.split('/').next()?;
    let decoded = percent_decode(segment)?;
    Some(decoded.replace("~1", "/").replace("~0", "~"))
}

/// `%XX` escapes decoded; `None` when they do not make UTF-8. (Hand-written: the generated
/// crate has no percent-encoding dependency, and a fragment needs nothing more.)
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte == b'%' && at + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[at + 1..at + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(byte);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn files(path: &str) -> Option<&'static str> {
        (path == "definitions/responses.json").then_some(
            r##"{"$defs": {
                "Order Line": {"type": "object", "properties": {"sku": {"$ref": "#/$defs/Sku"}}},
                "Sku": {"type": "string"},
                "Unused": {"type": "integer"}
            }}"##,
        )
    }

    #[test]
    fn a_file_of_the_shared_layout_reads_as_the_self_contained_one() {
        let file = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "urn:specgen:shop:operations/list/response-200.json",
            "type": "array",
            "items": {"$ref": "urn:specgen:shop:definitions/responses.json#/$defs/Order%20Line"}
        });
        let read = Definitions::new().self_contained(file, files).unwrap();
        assert_eq!(
            read,
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "urn:specgen:shop:operations/list/response-200.json",
                "type": "array",
                "items": {"$ref": "#/$defs/Order%20Line"},
                "$defs": {
                    "Order Line": {"type": "object", "properties": {"sku": {"$ref": "#/$defs/Sku"}}},
                    "Sku": {"type": "string"}
                }
            })
        );
        let keys: Vec<&String> = read.as_object().unwrap().keys().collect();
        assert_eq!(keys.last().map(|key| key.as_str()), Some("$defs"));
    }

    #[test]
    fn a_self_contained_file_is_left_as_it_is() {
        let file = json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}});
        let read = Definitions::new()
            .self_contained(file.clone(), files)
            .unwrap();
        assert_eq!(read, file);
    }

    #[test]
    fn a_missing_definition_or_document_is_an_error_not_a_panic() {
        let definitions = Definitions::new();
        let missing = json!({"$ref": "urn:specgen:shop:definitions/responses.json#/$defs/Nope"});
        let err = definitions.self_contained(missing, files).unwrap_err();
        assert!(err.contains("Nope"), "{err}");
        let elsewhere = json!({"$ref": "urn:specgen:shop:definitions/requests.json#/$defs/Sku"});
        let err = definitions.self_contained(elsewhere, files).unwrap_err();
        assert!(err.contains("definitions/requests.json"), "{err}");
    }

    #[test]
    fn a_fragment_names_its_component_decoded() {
        assert_eq!(
            component("/$defs/a~1b%20c/properties/x").as_deref(),
            Some("a/b c")
        );
        assert_eq!(component("/properties/x"), None);
        assert_eq!(component("/$defs/%zz"), None);
    }
}
