//! Rewrites OpenAPI 3.0 Schema Objects into their OpenAPI 3.1 (JSON Schema
//! 2020-12) spelling, so that every later stage handles one dialect only.
//!
//! Only places that the OpenAPI 3.0 structure says hold a Schema Object are
//! touched; example payloads and extensions are left alone even when they
//! happen to contain a `nullable` key.
//!
//! One rewrite moves nodes: a `nullable` schema without `type` becomes
//! `anyOf: [<original>, {type: "null"}]`, so everything below it gains an
//! `anyOf/0`. [`Moves`] records where that happened so that `$ref`s into
//! such a schema can be redirected and pointers can be mapped back to the
//! source text for line numbers.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::pointer::{push_index, push_segment};

/// Schemas wrapped in `anyOf` by normalisation, by bare pointer of the
/// wrapper (which is where the original schema was).
#[derive(Debug, Clone, Default)]
pub(crate) struct Moves {
    wrapped: HashSet<String>,
}

impl Moves {
    pub(crate) fn is_empty(&self) -> bool {
        self.wrapped.is_empty()
    }

    /// Maps the segments of a pointer written against the source document to
    /// the normalised document: below a wrapped schema, `anyOf/0` is inserted (not before a
    /// keyword lifted onto the wrapper).
    pub(crate) fn forward(&self, segments: &[String]) -> Vec<String> {
        if self.is_empty() {
            return segments.to_vec();
        }
        let mut out = Vec::with_capacity(segments.len() + 2);
        let mut bare = String::new();
        for segment in segments {
            if self.wrapped.contains(&bare) && !LIFTED.contains(&segment.as_str()) {
                out.push("anyOf".to_owned());
                out.push("0".to_owned());
                bare.push_str("/anyOf/0");
            }
            push_segment(&mut bare, segment);
            out.push(segment.clone());
        }
        out
    }

    /// Maps a pointer into the normalised document back to the source:
    /// `anyOf/0` under a wrapper is dropped, and the added `{type: "null"}`
    /// (`anyOf/1`) maps to the wrapped schema itself.
    pub(crate) fn backward(&self, segments: &[String]) -> Vec<String> {
        if self.is_empty() {
            return segments.to_vec();
        }
        let mut out = Vec::with_capacity(segments.len());
        let mut bare = String::new();
        let mut i = 0;
        while let Some(segment) = segments.get(i) {
            if self.wrapped.contains(&bare) && segment == "anyOf" {
                match segments.get(i + 1).map(String::as_str) {
                    Some("0") => {
                        bare.push_str("/anyOf/0");
                        i += 2;
                        continue;
                    }
                    Some("1") => break,
                    _ => {}
                }
            }
            push_segment(&mut bare, segment);
            out.push(segment.clone());
            i += 1;
        }
        out
    }
}

/// Normalises every Schema Object reachable through the OpenAPI structure.
pub(crate) fn normalize_document(root: &mut Value) -> Moves {
    walk_document(root, true).moves
}

/// Tidies the Schema Objects of a 3.1 document, returning the bare pointers of those whose
/// `nullable: true` it read.
///
/// Removes the `$id` of every Schema Object below the document (3.0 documents lose theirs in
/// [`normalize_document`]). specgen follows JSON-pointer references only, each from the
/// document's root (`#/components/schemas/…`), as OpenAPI authors mean them; under JSON
/// Schema's rules an `$id` would make the `#/…` references inside that schema point into the
/// schema itself, and the contract's bundled copy would no longer compile. A property *named*
/// `$id`, and example data holding one, are not Schema Objects' keywords and stay.
///
/// Reads 3.0's `nullable: true` beside a `type` as 3.0 does, `null` added to the type (and to
/// an `enum`): 3.1 has no such keyword, but documents converted from 3.0 keep it (ReadMe's API,
/// 498 times), and their values are null where it says so; ignored, every such response failed
/// to parse. Beside no `type` it stays unread (a `$ref` would need a wrapper).
pub(crate) fn tidy_3_1(root: &mut Value) -> Vec<String> {
    walk_document(root, false).legacy_nullable
}

fn walk_document(root: &mut Value, from_3_0: bool) -> Walker {
    let mut walker = Walker {
        path: String::new(),
        moves: Moves::default(),
        from_3_0,
        legacy_nullable: Vec::new(),
    };
    let Value::Object(doc) = root else {
        return walker;
    };
    for (key, value) in doc.iter_mut() {
        walker.enter(key, |w| match key.as_str() {
            "paths" | "webhooks" => w.each_entry(value, Walker::path_item),
            "components" => w.components(value),
            _ => {}
        });
    }
    walker
}

struct Walker {
    /// Bare pointer of the node being visited.
    path: String,
    moves: Moves,
    /// Rewrite 3.0 spellings (and drop `$id`s); otherwise drop `$id`s and read a typed
    /// `nullable: true`.
    from_3_0: bool,
    /// In a 3.1 document, the schemas whose `nullable: true` was read.
    legacy_nullable: Vec<String>,
}

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

impl Walker {
    fn enter(&mut self, segment: &str, f: impl FnOnce(&mut Self)) {
        let len = self.path.len();
        push_segment(&mut self.path, segment);
        f(self);
        self.path.truncate(len);
    }

    fn enter_index(&mut self, index: usize, f: impl FnOnce(&mut Self)) {
        let len = self.path.len();
        push_index(&mut self.path, index);
        f(self);
        self.path.truncate(len);
    }

    /// Visits every value of a map-of-names (`properties`, `responses`, ...).
    fn each_entry(&mut self, map: &mut Value, visit: fn(&mut Self, &mut Value)) {
        if let Value::Object(map) = map {
            for (key, value) in map.iter_mut() {
                self.enter(key, |w| visit(w, value));
            }
        }
    }

    fn each_item(&mut self, list: &mut Value, visit: fn(&mut Self, &mut Value)) {
        if let Value::Array(items) = list {
            for (index, value) in items.iter_mut().enumerate() {
                self.enter_index(index, |w| visit(w, value));
            }
        }
    }

    /// Visits the value under `key` of an object, if there is one.
    fn field(
        &mut self,
        object: &mut Map<String, Value>,
        key: &str,
        visit: impl FnOnce(&mut Self, &mut Value),
    ) {
        if let Some(value) = object.get_mut(key) {
            self.enter(key, |w| visit(w, value));
        }
    }

    fn components(&mut self, components: &mut Value) {
        let Value::Object(components) = components else {
            return;
        };
        self.field(components, "schemas", |w, v| {
            w.each_entry(v, Walker::schema)
        });
        self.field(components, "parameters", |w, v| {
            w.each_entry(v, Walker::parameter)
        });
        self.field(components, "headers", |w, v| {
            w.each_entry(v, Walker::parameter)
        });
        self.field(components, "responses", |w, v| {
            w.each_entry(v, Walker::response)
        });
        self.field(components, "requestBodies", |w, v| {
            w.each_entry(v, Walker::request_body)
        });
        self.field(components, "callbacks", |w, v| {
            w.each_entry(v, Walker::callback)
        });
        self.field(components, "pathItems", |w, v| {
            w.each_entry(v, Walker::path_item)
        });
    }

    fn path_item(&mut self, item: &mut Value) {
        let Value::Object(item) = item else { return };
        self.field(item, "parameters", |w, v| w.each_item(v, Walker::parameter));
        for method in METHODS {
            self.field(item, method, Walker::operation);
        }
    }

    fn operation(&mut self, operation: &mut Value) {
        let Value::Object(operation) = operation else {
            return;
        };
        self.field(operation, "parameters", |w, v| {
            w.each_item(v, Walker::parameter)
        });
        self.field(operation, "requestBody", Walker::request_body);
        self.field(operation, "responses", |w, v| {
            w.each_entry(v, Walker::response)
        });
        self.field(operation, "callbacks", |w, v| {
            w.each_entry(v, Walker::callback)
        });
    }

    fn callback(&mut self, callback: &mut Value) {
        self.each_entry(callback, Walker::path_item);
    }

    /// Parameter and Header Objects: a schema, or content.
    fn parameter(&mut self, parameter: &mut Value) {
        let Value::Object(parameter) = parameter else {
            return;
        };
        lend_azure_enum(parameter);
        self.field(parameter, "schema", Walker::schema);
        self.field(parameter, "content", Walker::content);
    }

    fn request_body(&mut self, body: &mut Value) {
        let Value::Object(body) = body else { return };
        self.field(body, "content", Walker::content);
    }

    fn response(&mut self, response: &mut Value) {
        let Value::Object(response) = response else {
            return;
        };
        self.field(response, "headers", |w, v| {
            w.each_entry(v, Walker::parameter)
        });
        self.field(response, "content", Walker::content);
    }

    fn content(&mut self, content: &mut Value) {
        self.each_entry(content, Walker::media_type);
    }

    fn media_type(&mut self, media: &mut Value) {
        let Value::Object(media) = media else { return };
        self.field(media, "schema", Walker::schema);
        self.field(media, "encoding", |w, v| w.each_entry(v, Walker::encoding));
    }

    fn encoding(&mut self, encoding: &mut Value) {
        let Value::Object(encoding) = encoding else {
            return;
        };
        self.field(encoding, "headers", |w, v| {
            w.each_entry(v, Walker::parameter)
        });
    }

    fn schema(&mut self, schema: &mut Value) {
        if let Value::Object(object) = schema
            && object.get("$id").is_some_and(Value::is_string)
        {
            object.shift_remove("$id");
        }
        int_or_string(schema);
        open_azure_enum(schema);
        if !self.from_3_0 {
            if typed_nullable(schema) {
                self.legacy_nullable.push(self.path.clone());
            }
            return self.subschemas(schema);
        }
        if rewrite_schema(schema) {
            self.moves.wrapped.insert(self.path.clone());
            // The original now lives at anyOf/0.
            if let Some(inner) = schema.get_mut("anyOf").and_then(|v| v.get_mut(0)) {
                self.enter("anyOf", |w| w.enter_index(0, |w| w.subschemas(inner)));
            }
        } else {
            self.subschemas(schema);
        }
    }

    fn subschemas(&mut self, schema: &mut Value) {
        let Value::Object(schema) = schema else {
            return;
        };
        for (key, value) in schema.iter_mut() {
            match key.as_str() {
                "properties" | "patternProperties" | "$defs" | "definitions"
                | "dependentSchemas" => {
                    self.enter(key, |w| w.each_entry(value, Walker::schema));
                }
                "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                    self.enter(key, |w| w.each_item(value, Walker::schema));
                }
                "items" if value.is_array() => {
                    self.enter(key, |w| w.each_item(value, Walker::schema))
                }
                "items"
                | "additionalProperties"
                | "additionalItems"
                | "not"
                | "contains"
                | "propertyNames"
                | "if"
                | "then"
                | "else"
                | "unevaluatedItems"
                | "unevaluatedProperties" => self.enter(key, |w| w.schema(value)),
                _ => {}
            }
        }
    }
}

/// Kubernetes' `int-or-string` (`type: string, format: int-or-string`, or
/// `x-kubernetes-int-or-string: true`), which Kubernetes and the APIs built on its conventions
/// (OpenShift, CRDs) use for ports and percentages, is an integer or a string (`targetPort:
/// 8080` or `"http"`): the schema says so with a list of types. Its `type: string` alone would
/// refuse every integer such an API sends.
fn int_or_string(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    let named = object.get("format").and_then(Value::as_str) == Some("int-or-string")
        || object.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true));
    let combined = ["anyOf", "oneOf", "allOf", "$ref"]
        .iter()
        .any(|key| object.contains_key(*key));
    let string_or_untyped = match object.get("type") {
        None => true,
        Some(Value::String(name)) => name == "string",
        Some(_) => false,
    };
    if named && !combined && string_or_untyped {
        object.insert("type".to_owned(), serde_json::json!(["integer", "string"]));
    }
}

/// Azure's open enum: `enum` with `x-ms-enum: {modelAsString: true}` (378 of the APIs.guru
/// directory's 641 Azure documents) lists the values known today, and AutoRest's clients must
/// take new ones, which the services add. It is `x-extensible-enum`, the open list the rest of
/// specgen reads: the bindings take any string, and specval reports a new value as drift, not
/// as a broken `enum`. A list that is not all strings stays closed.
fn open_azure_enum(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    let open = object
        .get("x-ms-enum")
        .and_then(|extension| extension.get("modelAsString"))
        == Some(&Value::Bool(true));
    let strings = match object.get("enum") {
        Some(Value::Array(values)) => values.iter().all(|v| v.is_string() || v.is_null()),
        _ => false,
    };
    if open && strings && !object.contains_key("x-extensible-enum") {
        let values = object.shift_remove("enum").unwrap_or_default();
        object.insert("x-extensible-enum".to_owned(), values);
    }
}

/// Azure writes a parameter's or header's `x-ms-enum` on the Parameter Object, beside the
/// type keywords of Swagger 2.0 that the upgrade moves into its `schema` (241 parameters of
/// 83 APIs.guru documents, `api-version`'s kin): it describes the schema's `enum` (or, for an
/// array, its items'), so it goes there, where [`open_azure_enum`] reads it. Left on the
/// parameter, the list stayed closed: the server refused, and specval reported as a broken
/// `enum`, the new values AutoRest's clients send. A schema that says its own `x-ms-enum`
/// keeps it.
fn lend_azure_enum(parameter: &mut Map<String, Value>) {
    let Some(extension) = parameter.get("x-ms-enum").cloned() else {
        return;
    };
    let Some(Value::Object(schema)) = parameter.get_mut("schema") else {
        return;
    };
    let target = if schema.contains_key("enum") {
        Some(schema)
    } else {
        match schema.get_mut("items") {
            Some(Value::Object(items)) if items.contains_key("enum") => Some(items),
            _ => None,
        }
    };
    if let Some(target) = target
        && !target.contains_key("x-ms-enum")
        && !target.contains_key("$ref")
    {
        target.insert("x-ms-enum".to_owned(), extension);
    }
}

/// What OpenAPI 3.0 reads beside a `$ref`: nothing, by its letter ("any sibling elements
/// SHALL be ignored"), so the assertions written there (SoundCloud's `required: [title]`
/// beside its `Track`) go. Kept: `nullable`, `readOnly` and `writeOnly`, which documents
/// write there meaning them and which both the bindings and the contract honour, the
/// annotations, and extensions.
const READ_BESIDE_REF: [&str; 12] = [
    "$ref",
    "nullable",
    "readOnly",
    "writeOnly",
    "description",
    "title",
    "summary",
    "example",
    "examples",
    "deprecated",
    "default",
    "externalDocs",
];

/// Rewrites one schema object in place (not its subschemas). Returns true if
/// it was wrapped in `anyOf`.
fn rewrite_schema(schema: &mut Value) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };

    if object.contains_key("$ref") {
        object.retain(|key, _| key.starts_with("x-") || READ_BESIDE_REF.contains(&key.as_str()));
    }

    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        match object.get(flag) {
            Some(Value::Bool(true)) => match object.get(bound) {
                Some(limit) if limit.is_number() => {
                    let limit = limit.clone();
                    object.insert(flag.to_owned(), limit);
                    object.shift_remove(bound);
                }
                // `exclusiveMinimum: true` without a minimum restricts nothing.
                _ => {
                    object.shift_remove(flag);
                }
            },
            Some(Value::Bool(false)) => {
                object.shift_remove(flag);
            }
            _ => {}
        }
    }

    if !object.contains_key("examples")
        && let Some(example) = object.shift_remove("example")
    {
        object.insert("examples".to_owned(), Value::Array(vec![example]));
    }

    let nullable = matches!(object.shift_remove("nullable"), Some(Value::Bool(true)));
    if !nullable {
        return false;
    }

    let has_type = match object.get_mut("type") {
        Some(Value::String(name)) => {
            if name != "null" {
                let name = std::mem::take(name);
                object.insert(
                    "type".to_owned(),
                    Value::Array(vec![Value::String(name), "null".into()]),
                );
            }
            true
        }
        Some(Value::Array(names)) => {
            if !names.iter().any(|n| n == "null") {
                names.push("null".into());
            }
            true
        }
        _ => false,
    };
    let combined = ["$ref", "allOf", "anyOf", "oneOf", "not"]
        .iter()
        .any(|k| object.contains_key(*k));
    // An enum alone already limits the values, so listing null in it is
    // enough; with `$ref` or a combinator, only a wrapper can add null.
    if let Some(Value::Array(values)) = object.get_mut("enum")
        && (has_type || !combined)
    {
        if !values.iter().any(Value::is_null) {
            values.push(Value::Null);
        }
        return false;
    }
    if has_type {
        return false;
    }

    let mut original = std::mem::take(schema);
    let mut null_schema = Map::new();
    null_schema.insert("type".to_owned(), "null".into());
    let mut wrapper = Map::new();
    if let Value::Object(inner) = &mut original {
        for key in LIFTED {
            if let Some(value) = inner.shift_remove(*key) {
                wrapper.insert((*key).to_owned(), value);
            }
        }
        if let Some(description) = inner.get("description") {
            wrapper.insert("description".to_owned(), description.clone());
        }
    }
    wrapper.insert(
        "anyOf".to_owned(),
        Value::Array(vec![original, Value::Object(null_schema)]),
    );
    *schema = Value::Object(wrapper);
    true
}

/// Reads `nullable: true` beside a `type` (in a 3.1 document, where it is no keyword) as 3.0
/// does: `null` joins the type, and an `enum` that lists values; whether it did.
fn typed_nullable(schema: &mut Value) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };
    if object.get("nullable") != Some(&Value::Bool(true)) {
        return false;
    }
    match object.get_mut("type") {
        Some(Value::String(name)) if name != "null" => {
            let name = std::mem::take(name);
            object.insert(
                "type".to_owned(),
                Value::Array(vec![Value::String(name), "null".into()]),
            );
        }
        Some(Value::Array(names)) => {
            if !names.iter().any(|n| n == "null") {
                names.push("null".into());
            }
        }
        Some(Value::String(_)) => {}
        _ => return false,
    }
    if let Some(Value::Array(values)) = object.get_mut("enum")
        && !values.iter().any(Value::is_null)
    {
        values.push(Value::Null);
    }
    object.shift_remove("nullable");
    true
}

/// Keywords that say something of the value whichever type it has, moved from a `nullable`
/// schema to the `anyOf` wrapper that adds null: an `example: null` or `default: null` is the
/// wrapper's (the non-null branch refuses it), and a `readOnly` property stays one when it may
/// be null (`{nullable: true, readOnly: true, allOf: [$ref]}`, common in 3.0 documents), since
/// direction is read from the property's own schema.
const LIFTED: &[&str] = &["examples", "default", "readOnly", "writeOnly", "deprecated"];
