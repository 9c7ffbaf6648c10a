//! One validator for every contract file some example stands under, so that each definition
//! is compiled once rather than once per file that embeds it.
//!
//! A self-contained contract file carries every component it reaches under its `$defs`, so
//! the files of one API repeat the same definitions many times (the interface's 114 files hold
//! 339 copies of 70). jsonschema compiles each location of one schema document once, so the
//! files are put side by side in one document: their definitions merged under its `$defs`,
//! each file's own schema under `properties/<n>`. An example of file `n` is then valid exactly
//! when `{"<n>": example}` is, since `properties` judges only the members present.
//!
//! The combined validator only answers yes or no. A file whose example it refuses is compiled
//! on its own, so that violations are worded and located exactly as before; so is a file that
//! cannot share the document (a definition of the same name with other content, a reference
//! that is not into `#/$defs/`, an identifier or anchor of its own).

use std::collections::HashSet;

use jsonschema::Validator;
use serde_json::{Map, Value};

/// The validator of the files that could share one document, and the property each is under.
pub(super) struct Combined {
    validator: Validator,
    /// The indices, among the schemas given to [`Combined::build`], of the files in the
    /// document; each is under the property named by its index.
    members: HashSet<usize>,
}

impl Combined {
    /// The combined validator of those of `schemas` (self-contained contract files) that can
    /// share a document, or `None` when none can or the document does not compile (each file
    /// is then compiled alone).
    pub(super) fn build(
        schemas: &[Value],
        compile: impl Fn(&Value) -> Option<Validator>,
    ) -> Option<Combined> {
        let mut defs = Map::new();
        let mut properties = Map::new();
        let mut members = HashSet::new();
        for (index, schema) in schemas.iter().enumerate() {
            let Some((own, file_defs)) = shareable(schema) else {
                continue;
            };
            let conflicts = file_defs
                .iter()
                .any(|(name, definition)| defs.get(name).is_some_and(|held| held != definition));
            if conflicts {
                continue;
            }
            for (name, definition) in file_defs {
                defs.entry(name.clone())
                    .or_insert_with(|| definition.clone());
            }
            properties.insert(index.to_string(), own);
            members.insert(index);
        }
        if members.is_empty() {
            return None;
        }
        let mut document = Map::new();
        document.insert("$defs".into(), Value::Object(defs));
        document.insert("properties".into(), Value::Object(properties));
        let validator = compile(&Value::Object(document))?;
        Some(Combined { validator, members })
    }

    /// Whether `example` satisfies the file at `index`; `None` when that file is not in the
    /// combined document.
    pub(super) fn is_valid(&self, index: usize, example: &Value) -> Option<bool> {
        if !self.members.contains(&index) {
            return None;
        }
        let mut wrapped = Map::new();
        wrapped.insert(index.to_string(), example.clone());
        Some(self.validator.is_valid(&Value::Object(wrapped)))
    }
}

/// A file's own schema (without `$schema`, `$id` and `$defs`) and its definitions, when the
/// file reads the same inside the combined document: an object whose every `$ref` points into
/// `#/$defs/`, with no other identifier or anchor that would resolve differently there.
fn shareable(schema: &Value) -> Option<(Value, &Map<String, Value>)> {
    static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
    let root = schema.as_object()?;
    let defs = match root.get("$defs") {
        Some(defs) => defs.as_object()?,
        None => &EMPTY,
    };
    let own: Map<String, Value> = root
        .iter()
        .filter(|(key, _)| !matches!(key.as_str(), "$schema" | "$id" | "$defs"))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let own = Value::Object(own);
    let portable = reads_alike(&own) && defs.values().all(reads_alike);
    portable.then_some((own, defs))
}

/// Whether a schema means the same wherever it is placed beside the shared `$defs`. Member
/// names are not told from keywords here (a property called `$id` counts too): a file wrongly
/// kept out is only compiled on its own.
fn reads_alike(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().all(|(key, value)| match key.as_str() {
            "$ref" => value.as_str().is_some_and(|to| to.starts_with("#/$defs/")),
            "$id" | "$anchor" | "$dynamicAnchor" | "$dynamicRef" | "$recursiveRef"
            | "$recursiveAnchor" | "$schema" | "$vocabulary" => false,
            _ => reads_alike(value),
        }),
        Value::Array(items) => items.iter().all(reads_alike),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Combined;

    fn compile(schema: &serde_json::Value) -> Option<jsonschema::Validator> {
        jsonschema::validator_for(schema).ok()
    }

    #[test]
    fn each_file_is_judged_by_its_own_schema_and_definitions() {
        let schemas = [
            json!({"$id": "urn:a", "$ref": "#/$defs/Account", "$defs": {
                "Account": {"type": "object", "required": ["id"],
                            "properties": {"id": {"$ref": "#/$defs/Id"}}},
                "Id": {"type": "string", "pattern": "^acct_"}}}),
            json!({"$id": "urn:b", "type": "array", "items": {"$ref": "#/$defs/Id"},
                   "$defs": {"Id": {"type": "string", "pattern": "^acct_"}}}),
            // Another `Id`: kept out, so `a`'s and `b`'s stay theirs.
            json!({"$id": "urn:c", "$ref": "#/$defs/Id", "$defs": {"Id": {"type": "integer"}}}),
            // A reference the combined document would resolve elsewhere.
            json!({"$id": "urn:d", "properties": {"self": {"$ref": "#"}}}),
        ];
        let combined = Combined::build(&schemas, compile).expect("a and b share");
        assert_eq!(combined.is_valid(0, &json!({"id": "acct_1"})), Some(true));
        assert_eq!(combined.is_valid(0, &json!({"id": "x"})), Some(false));
        assert_eq!(combined.is_valid(0, &json!({})), Some(false));
        assert_eq!(combined.is_valid(1, &json!(["acct_1"])), Some(true));
        assert_eq!(combined.is_valid(1, &json!({"id": "acct_1"})), Some(false));
        assert_eq!(combined.is_valid(2, &json!(5)), None);
        assert_eq!(combined.is_valid(3, &json!({})), None);
    }
}
