//! Where a document's examples are: every example, its kind, its location and the schema it
//! is checked against, with the operations that show one.

use std::collections::HashSet;

use serde_json::Value;

use crate::findings::Finding;
use crate::pointers::{follow_refs, pointer_push};

/// Base URI under which the checked document is registered when its schemas are compiled,
/// so that `urn:spec#/components/schemas/X` names a schema in it.
pub const DOCUMENT_BASE_URI: &str = "urn:spec";

/// HTTP methods that name operations in a Path Item Object.
pub const HTTP_METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// What kind of object an example belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExampleKind {
    /// `examples`/`example` keyword of a Schema Object.
    Schema,
    /// `example`/`examples` of a Media Type Object (request or response body).
    MediaType,
    /// `example`/`examples` of a Parameter Object.
    Parameter,
    /// `example`/`examples` of a Header Object.
    Header,
}

/// One example together with the schema it must satisfy.
#[derive(Debug, Clone)]
pub struct ExampleSite {
    /// JSON pointer of the example value itself (for an Example Object, its `value`).
    pub location: String,
    /// When the example (or the object holding it) was reached through `$ref`, the location
    /// of the first `$ref` followed.
    pub via: Option<String>,
    /// JSON pointer of the schema the example must validate against.
    pub schema: String,
    /// The example value.
    pub value: Value,
    /// What holds the example.
    pub kind: ExampleKind,
    /// The operation (see [`Operation::label`]) whose request or responses show this
    /// example, for examples reached from `paths`, `webhooks` or callbacks.
    pub operation: Option<String>,
}

/// An operation reached from `paths`, `webhooks`, or a callback in one of those.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// E.g. `GET /banking/accounts` or `POST webhook incomingTransfer`.
    pub label: String,
    /// JSON pointer of the Operation Object.
    pub location: String,
}

/// Everything [`collect_examples`] found.
#[derive(Debug, Clone, Default)]
pub struct ExampleInventory {
    /// Every example, with its schema; the same example may appear more than once when it
    /// is reached along several routes (e.g. a shared response used by two operations).
    pub sites: Vec<ExampleSite>,
    /// Every operation under `paths` and `webhooks` (and their callbacks).
    pub operations: Vec<Operation>,
    /// Problems met on the way: an unresolvable `$ref`, an example with no schema to check
    /// it against, an Example Object without an inline `value`.
    pub problems: Vec<Finding>,
}

/// Walks `document` and collects every example with the schema it must satisfy:
///
/// * `examples` (array) and legacy `example` of every Schema Object: component schemas and
///   inline schemas, and every subschema within them (`properties`, `items`, `allOf`, …);
///   schema `$ref`s are not followed (their targets are walked where they are defined);
/// * `example` and `examples.{name}.value` of every Media Type Object in request bodies and
///   responses under `paths`, `webhooks`, callbacks, and `components` (`requestBodies`,
///   `responses`, `pathItems`, `callbacks`), checked against the media type's `schema`;
/// * `example`/`examples` of every Parameter and Header Object, checked against its
///   `schema` (or, for one with `content`, against that media type's schema).
///
/// Reference Objects (path items, parameters, request bodies, responses, headers, examples,
/// media types, callbacks) are followed.
#[must_use]
pub fn collect_examples(document: &Value) -> ExampleInventory {
    let mut walker = ExampleWalker {
        document,
        inventory: ExampleInventory::default(),
        visited_path_items: HashSet::new(),
    };
    walker.walk_document();
    // Path-level parameters are walked once per operation, and path items both where they
    // are defined and where they are used: report each problem once.
    let mut seen = HashSet::new();
    walker
        .inventory
        .problems
        .retain(|finding| seen.insert(finding.clone()));
    walker.inventory
}

struct ExampleWalker<'a> {
    document: &'a Value,
    inventory: ExampleInventory,
    visited_path_items: HashSet<(String, Option<String>)>,
}

/// Context handed down the walk: the operation (if any) and the first `$ref` followed.
#[derive(Clone, Default)]
struct Route {
    operation: Option<String>,
    via: Option<String>,
}

impl Route {
    fn through(&self, via: Option<String>) -> Self {
        Self {
            operation: self.operation.clone(),
            via: self.via.clone().or(via),
        }
    }
}

pub(crate) fn members(value: &Value) -> impl Iterator<Item = (&String, &Value)> {
    value.as_object().into_iter().flatten()
}

impl<'a> ExampleWalker<'a> {
    fn resolve(
        &mut self,
        pointer: &str,
        value: &'a Value,
    ) -> Option<(String, &'a Value, Option<String>)> {
        match follow_refs(self.document, pointer, value) {
            Ok(resolved) => Some(resolved),
            Err(finding) => {
                self.inventory.problems.push(finding);
                None
            }
        }
    }

    fn walk_document(&mut self) {
        let document = self.document;
        for (section, prefix) in [("paths", ""), ("webhooks", "webhook ")] {
            let section_pointer = pointer_push("", section);
            for (name, item) in members(&document[section]) {
                let pointer = pointer_push(&section_pointer, name);
                self.walk_path_item(
                    &pointer,
                    item,
                    Some(format!("{prefix}{name}")),
                    &Route::default(),
                );
            }
        }
        let components = &document["components"];
        let component = |kind: &str| pointer_push("/components", kind);
        for (name, schema) in members(&components["schemas"]) {
            self.walk_schema(&pointer_push(&component("schemas"), name), schema);
        }
        for (name, parameter) in members(&components["parameters"]) {
            let pointer = pointer_push(&component("parameters"), name);
            self.walk_parameter_or_header(
                &pointer,
                parameter,
                ExampleKind::Parameter,
                &Route::default(),
            );
        }
        for (name, header) in members(&components["headers"]) {
            let pointer = pointer_push(&component("headers"), name);
            self.walk_parameter_or_header(&pointer, header, ExampleKind::Header, &Route::default());
        }
        for (name, body) in members(&components["requestBodies"]) {
            let pointer = pointer_push(&component("requestBodies"), name);
            self.walk_request_body(&pointer, body, &Route::default());
        }
        for (name, response) in members(&components["responses"]) {
            let pointer = pointer_push(&component("responses"), name);
            self.walk_response(&pointer, response, &Route::default());
        }
        for (name, item) in members(&components["pathItems"]) {
            let pointer = pointer_push(&component("pathItems"), name);
            self.walk_path_item(&pointer, item, None, &Route::default());
        }
        for (name, callback) in members(&components["callbacks"]) {
            let pointer = pointer_push(&component("callbacks"), name);
            self.walk_callback(&pointer, callback, None, &Route::default());
        }
    }

    /// `name` is the path template or `webhook X` for operations that count as the API's
    /// own; `None` for path items under `components`.
    fn walk_path_item(
        &mut self,
        pointer: &str,
        item: &'a Value,
        name: Option<String>,
        route: &Route,
    ) {
        let Some((pointer, item, via)) = self.resolve(pointer, item) else {
            return;
        };
        if !self
            .visited_path_items
            .insert((pointer.clone(), name.clone()))
        {
            return;
        }
        let route = route.through(via);
        let mut any_operation = false;
        for method in HTTP_METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            any_operation = true;
            let operation_pointer = pointer_push(&pointer, method);
            let label = name
                .as_ref()
                .map(|name| format!("{} {name}", method.to_uppercase()));
            if let Some(label) = &label {
                self.inventory.operations.push(Operation {
                    label: label.clone(),
                    location: operation_pointer.clone(),
                });
            }
            let operation_route = Route {
                operation: label.clone(),
                via: route.via.clone(),
            };
            // Path-level parameters belong to every operation of the path.
            self.walk_parameters(&pointer, item, &operation_route);
            self.walk_operation(
                &operation_pointer,
                operation,
                label.as_deref(),
                &operation_route,
            );
        }
        if !any_operation {
            self.walk_parameters(&pointer, item, &route);
        }
    }

    fn walk_parameters(&mut self, holder_pointer: &str, holder: &'a Value, route: &Route) {
        let list_pointer = pointer_push(holder_pointer, "parameters");
        for (index, parameter) in holder["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let pointer = format!("{list_pointer}/{index}");
            self.walk_parameter_or_header(&pointer, parameter, ExampleKind::Parameter, route);
        }
    }

    fn walk_operation(
        &mut self,
        pointer: &str,
        operation: &'a Value,
        label: Option<&str>,
        route: &Route,
    ) {
        self.walk_parameters(pointer, operation, route);
        if let Some(body) = operation.get("requestBody") {
            self.walk_request_body(&pointer_push(pointer, "requestBody"), body, route);
        }
        let responses_pointer = pointer_push(pointer, "responses");
        for (status, response) in members(&operation["responses"]) {
            self.walk_response(&pointer_push(&responses_pointer, status), response, route);
        }
        let callbacks_pointer = pointer_push(pointer, "callbacks");
        for (name, callback) in members(&operation["callbacks"]) {
            let callback_name = label.map(|label| format!("{label} callback {name}"));
            self.walk_callback(
                &pointer_push(&callbacks_pointer, name),
                callback,
                callback_name,
                route,
            );
        }
    }

    fn walk_callback(
        &mut self,
        pointer: &str,
        callback: &'a Value,
        name: Option<String>,
        route: &Route,
    ) {
        let Some((pointer, callback, via)) = self.resolve(pointer, callback) else {
            return;
        };
        let route = route.through(via);
        for (expression, item) in members(callback) {
            if expression.starts_with("x-") {
                continue;
            }
            let item_name = name.as_ref().map(|name| format!("{name} {expression}"));
            let route = Route {
                operation: None,
                via: route.via.clone(),
            };
            self.walk_path_item(&pointer_push(&pointer, expression), item, item_name, &route);
        }
    }

    fn walk_request_body(&mut self, pointer: &str, body: &'a Value, route: &Route) {
        let Some((pointer, body, via)) = self.resolve(pointer, body) else {
            return;
        };
        self.walk_content(&pointer, body, ExampleKind::MediaType, &route.through(via));
    }

    fn walk_response(&mut self, pointer: &str, response: &'a Value, route: &Route) {
        let Some((pointer, response, via)) = self.resolve(pointer, response) else {
            return;
        };
        let route = route.through(via);
        self.walk_content(&pointer, response, ExampleKind::MediaType, &route);
        self.walk_headers(&pointer, response, &route);
    }

    fn walk_headers(&mut self, holder_pointer: &str, holder: &'a Value, route: &Route) {
        let headers_pointer = pointer_push(holder_pointer, "headers");
        for (name, header) in members(&holder["headers"]) {
            let pointer = pointer_push(&headers_pointer, name);
            self.walk_parameter_or_header(&pointer, header, ExampleKind::Header, route);
        }
    }

    /// The `content` map of a request body, response, parameter or header.
    fn walk_content(
        &mut self,
        holder_pointer: &str,
        holder: &'a Value,
        kind: ExampleKind,
        route: &Route,
    ) {
        let content_pointer = pointer_push(holder_pointer, "content");
        for (media_type, object) in members(&holder["content"]) {
            let pointer = pointer_push(&content_pointer, media_type);
            let Some((pointer, object, via)) = self.resolve(&pointer, object) else {
                continue;
            };
            let route = route.through(via);
            self.walk_example_holder(&pointer, object, kind, &route);
            let encoding_pointer = pointer_push(&pointer, "encoding");
            for (property, encoding) in members(&object["encoding"]) {
                self.walk_headers(&pointer_push(&encoding_pointer, property), encoding, &route);
            }
        }
    }

    fn walk_parameter_or_header(
        &mut self,
        pointer: &str,
        object: &'a Value,
        kind: ExampleKind,
        route: &Route,
    ) {
        let Some((pointer, object, via)) = self.resolve(pointer, object) else {
            return;
        };
        let route = route.through(via);
        if object.get("content").is_some() {
            self.walk_content(&pointer, object, kind, &route);
        }
        self.walk_example_holder(&pointer, object, kind, &route);
    }

    /// A Media Type, Parameter or Header Object: its `schema` and its `example`/`examples`.
    fn walk_example_holder(
        &mut self,
        pointer: &str,
        holder: &'a Value,
        kind: ExampleKind,
        route: &Route,
    ) {
        let schema_pointer = holder.get("schema").map(|schema| {
            let schema_pointer = pointer_push(pointer, "schema");
            self.walk_schema(&schema_pointer, schema);
            schema_pointer
        });
        let mut found: Vec<(String, Value, Option<String>)> = Vec::new();
        if let Some(example) = holder.get("example") {
            found.push((pointer_push(pointer, "example"), example.clone(), None));
        }
        let examples_pointer = pointer_push(pointer, "examples");
        for (name, example) in members(&holder["examples"]) {
            let example_pointer = pointer_push(&examples_pointer, name);
            let Some((resolved, example, via)) = self.resolve(&example_pointer, example) else {
                continue;
            };
            if let Some(value) = example.get("value") {
                found.push((pointer_push(&resolved, "value"), value.clone(), via));
            } else if example.get("externalValue").is_some() {
                self.inventory.problems.push(Finding::new(
                    resolved,
                    "Example Object has only an `externalValue`, which cannot be checked here; give its `value` inline",
                ));
            } else {
                self.inventory.problems.push(Finding::new(
                    resolved,
                    "Example Object has neither `value` nor `externalValue`",
                ));
            }
        }
        for (location, value, via) in found {
            match &schema_pointer {
                Some(schema) => self.inventory.sites.push(ExampleSite {
                    location,
                    via: route.via.clone().or(via),
                    schema: schema.clone(),
                    value,
                    kind,
                    operation: route.operation.clone(),
                }),
                None => self.inventory.problems.push(Finding::new(
                    location,
                    format!(
                        "example has no `schema` beside it (at {pointer}) to be checked against"
                    ),
                )),
            }
        }
    }

    /// A Schema Object and all its subschemas; `$ref`s are not followed.
    fn walk_schema(&mut self, pointer: &str, schema: &'a Value) {
        const SINGLE: [&str; 12] = [
            "additionalProperties",
            "items",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
            "not",
            "if",
            "then",
            "else",
            "contentSchema",
            "additionalItems",
        ];
        const LISTS: [&str; 4] = ["prefixItems", "allOf", "anyOf", "oneOf"];
        const MAPS: [&str; 5] = [
            "properties",
            "patternProperties",
            "$defs",
            "definitions",
            "dependentSchemas",
        ];
        let Value::Object(map) = schema else {
            return;
        };
        let mut push = |location: String, value: &Value| {
            self.inventory.sites.push(ExampleSite {
                location,
                via: None,
                schema: pointer.to_string(),
                value: value.clone(),
                kind: ExampleKind::Schema,
                operation: None,
            });
        };
        if let Some(Value::Array(examples)) = map.get("examples") {
            let examples_pointer = pointer_push(pointer, "examples");
            for (index, example) in examples.iter().enumerate() {
                push(format!("{examples_pointer}/{index}"), example);
            }
        }
        if let Some(example) = map.get("example") {
            push(pointer_push(pointer, "example"), example);
        }
        for keyword in SINGLE {
            if let Some(sub) = map.get(keyword) {
                self.walk_schema(&pointer_push(pointer, keyword), sub);
            }
        }
        for keyword in LISTS {
            if let Some(Value::Array(subs)) = map.get(keyword) {
                for (index, sub) in subs.iter().enumerate() {
                    self.walk_schema(&format!("{}/{index}", pointer_push(pointer, keyword)), sub);
                }
            }
        }
        for keyword in MAPS {
            let keyword_pointer = pointer_push(pointer, keyword);
            for (name, sub) in members(map.get(keyword).unwrap_or(&Value::Null)) {
                self.walk_schema(&pointer_push(&keyword_pointer, name), sub);
            }
        }
    }
}
