//! From a loaded document to the IR. Walks components, paths and webhooks in document order,
//! turns every schema into a [`TypeRef`], and records a name hint for every type that needs a
//! name. Names are chosen afterwards, all at once, by [`super::naming`].

use std::collections::{BTreeMap, HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::naming::{self, NameHint, Slot};
use super::schema::{docs_of, is_null_schema, operation_docs, scalar_for, string_enum, types_of};
use super::*;
use crate::error::{Error, Result};
use crate::load::{Document, escape_segment};

mod all_of;
mod objects;
mod repair;
mod unions;

/// Choices a caller makes about the IR beyond what the document says.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Rust types to use instead of the generated mapping, keyed by `Component`,
    /// `Component.property` or a JSON pointer to a schema (`#/components/schemas/A/properties/b`).
    pub type_overrides: BTreeMap<String, String>,
}

/// Builds the IR of a document.
pub fn build(doc: &Document, options: &BuildOptions) -> Result<Api> {
    let mut builder = Builder {
        doc,
        overrides: options
            .type_overrides
            .iter()
            .map(|(key, ty)| (override_pointer(key), ty.clone()))
            .collect(),
        slots: IndexMap::new(),
        inlining: HashSet::new(),
        inline_examples: Vec::new(),
        warnings: Vec::new(),
        redirects: HashMap::new(),
    };
    builder.build_api()
}

const COMPONENT_SCHEMAS: &str = "#/components/schemas/";

struct Builder<'a> {
    doc: &'a Document,
    overrides: HashMap<String, String>,
    /// Types to declare, keyed by the JSON pointer of the schema they come from.
    slots: IndexMap<String, Slot>,
    /// Pointers being inlined into a contract schema, to turn a ref cycle into an error.
    inlining: HashSet<String>,
    /// Examples found on inline and nested schemas.
    inline_examples: Vec<SchemaExample>,
    /// Choices made where the document is ambiguous, in the order met.
    warnings: Vec<Warning>,
    /// Component pointers whose type is declared under another pointer (see `component`).
    redirects: HashMap<String, String>,
}

fn override_pointer(key: &str) -> String {
    if key.starts_with("#/") {
        return key.to_string();
    }
    match key.split_once('.') {
        Some((component, property)) => format!(
            "{COMPONENT_SCHEMAS}{}/properties/{}",
            escape_segment(component),
            escape_segment(property)
        ),
        None => format!("{COMPONENT_SCHEMAS}{}", escape_segment(key)),
    }
}

fn spec_error(doc: &Document, pointer: &str, message: impl Into<String>) -> Error {
    Error::Spec {
        pointer: pointer.to_string(),
        location: doc.location(pointer),
        message: message.into(),
    }
}

fn unsupported(
    doc: &Document,
    pointer: &str,
    construct: &str,
    message: impl Into<String>,
) -> Error {
    Error::Unsupported {
        pointer: pointer.to_string(),
        location: doc.location(pointer),
        construct: construct.to_string(),
        message: message.into(),
    }
}

fn child(at: &str, segment: &str) -> String {
    format!("{at}/{}", escape_segment(segment))
}

fn as_object(value: &Value) -> Option<&Map<String, Value>> {
    value.as_object()
}

fn string_at<'v>(map: &'v Map<String, Value>, key: &str) -> Option<&'v str> {
    map.get(key).and_then(Value::as_str)
}

/// A converted schema: its type, and whether it also admits null.
type Converted = (TypeRef, bool);

impl<'a> Builder<'a> {
    fn build_api(&mut self) -> Result<Api> {
        let root = as_object(&self.doc.root).cloned().unwrap_or_default();
        let info = root
            .get("info")
            .and_then(as_object)
            .cloned()
            .unwrap_or_default();

        if let Some(schemas) = self.doc.pointer("#/components/schemas").and_then(as_object) {
            for name in schemas.keys() {
                self.component(name)?;
            }
        }

        let security_schemes = self.security_schemes()?;
        let default_security = self.security_requirements(root.get("security"), "#/security")?;

        let mut operations = Vec::new();
        if let Some(paths) = root.get("paths").and_then(as_object) {
            for (path, item) in paths {
                let at = child("#/paths", path);
                let (item, item_at) = self.doc.deref(item, &at)?;
                let item = item.as_object().cloned().unwrap_or_default();
                for method in Method::ALL {
                    if let Some(op) = item.get(method.key()) {
                        let op_at = child(&item_at, method.key());
                        operations.push(self.operation(
                            op,
                            &op_at,
                            method,
                            path,
                            &item,
                            &item_at,
                            &default_security,
                        )?);
                    }
                }
            }
        }
        for (pointer, message) in disambiguate_operation_ids(&mut operations) {
            self.warn(&pointer, message);
        }
        operations.sort_by(|a, b| (a.path.as_str(), a.method).cmp(&(b.path.as_str(), b.method)));

        let mut webhooks = Vec::new();
        if let Some(hooks) = root.get("webhooks").and_then(as_object) {
            for (name, item) in hooks {
                let at = child("#/webhooks", name);
                let (item, item_at) = self.doc.deref(item, &at)?;
                let item = item.as_object().cloned().unwrap_or_default();
                for method in Method::ALL {
                    if let Some(op) = item.get(method.key()) {
                        let op_at = child(&item_at, method.key());
                        let path = op
                            .get("x-delivery-path")
                            .or_else(|| item.get("x-delivery-path"))
                            .and_then(Value::as_str)
                            .map(str::to_string)
                            .unwrap_or_else(|| format!("/{name}"));
                        let mut operation =
                            self.operation(op, &op_at, method, &path, &item, &item_at, &[])?;
                        if op.get("operationId").is_none() {
                            operation.id = name.clone();
                        }
                        webhooks.push(Webhook {
                            name: name.clone(),
                            operation,
                        });
                    }
                }
            }
        }

        let mut schemas = Vec::new();
        if let Some(all) = self.doc.pointer("#/components/schemas").and_then(as_object) {
            for (name, schema) in all {
                let at = child("#/components/schemas", name);
                schemas.push((name.clone(), self.contract_schema(schema, &at)?));
            }
        }

        let servers = servers(root.get("servers"));
        let slots = std::mem::take(&mut self.slots);
        let mut api = Api {
            title: string_at(&info, "title").unwrap_or("API").to_string(),
            version: string_at(&info, "version").unwrap_or("0.0.0").to_string(),
            description: string_at(&info, "description").map(str::to_string),
            types: Vec::new(),
            operations,
            webhooks,
            security_schemes,
            servers,
            schemas,
            schema_examples: std::mem::take(&mut self.inline_examples),
            warnings: std::mem::take(&mut self.warnings),
            tag_features: None,
        };
        let renamed = naming::assign(&mut api, slots, &self.redirects)?;
        mark_null_accepting_unions(&mut api);
        self.repair_contract(&mut api);
        for (pointer, message) in renamed {
            self.warn(&pointer, message);
        }
        api.warnings.append(&mut self.warnings);
        Ok(api)
    }

    /// Declares the type of a component schema (once) and returns a reference to it.
    fn component(&mut self, name: &str) -> Result<TypeRef> {
        let at = child("#/components/schemas", name);
        if self.slots.contains_key(&at) || self.redirects.contains_key(&at) {
            return Ok(TypeRef::Named(at));
        }
        let schema = self
            .doc
            .pointer(&at)
            .cloned()
            .ok_or_else(|| spec_error(self.doc, &at, "component schema does not exist"))?;
        if schema.get("$ref").is_some() {
            // `A: {$ref: A}` or `A: {$ref: B}, B: {$ref: A}` never reaches a definition.
            self.doc.deref(&schema, &at)?;
        }
        let hint = NameHint::Component(name.to_string());
        let map = schema.as_object().cloned().unwrap_or_default();
        let examples = schema_examples(&map, &at);
        // Reserve the slot first so that a schema referring to itself finds it.
        self.reserve(&at, hint.clone(), docs_of(&map), Some(name.to_string()));
        let (ty, _nullable) = self.convert_body(&schema, &at, &hint)?;
        if let TypeRef::Named(inner) = &ty
            && inner.starts_with(&format!("{at}/"))
            && self.slots.get(inner).is_some_and(|slot| slot.hint == hint)
        {
            // The component only wraps an inline schema (`oneOf: [{…}, {type: null}]`, a
            // one-part `oneOf`): it is that schema's type, under the component's name.
            let wrapper = self.slots.shift_remove(&at);
            if let Some(slot) = self.slots.get_mut(inner) {
                slot.def.component = Some(name.to_string());
                slot.def.examples = examples;
                if slot.def.docs.is_none() {
                    slot.def.docs = wrapper.and_then(|w| w.def.docs);
                }
            }
            self.redirects.insert(at.clone(), inner.clone());
            return Ok(TypeRef::Named(at));
        }
        let kind = match ty {
            TypeRef::Named(ref pointer) if pointer == &at => None,
            TypeRef::Scalar(_) | TypeRef::Custom(_) => Some(TypeKind::Newtype(ty)),
            other => Some(TypeKind::Alias(other)),
        };
        if let Some(slot) = self.slots.get_mut(&at) {
            if let Some(kind) = kind {
                slot.def.kind = kind;
            }
            slot.def.examples = examples;
        }
        Ok(TypeRef::Named(at))
    }

    /// Records a warning about the place at `pointer` (once per place and message).
    fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        let message = message.into();
        if self
            .warnings
            .iter()
            .any(|w| w.pointer == pointer && w.message == message)
        {
            return;
        }
        self.warnings.push(Warning {
            pointer: pointer.to_string(),
            location: self.doc.location(pointer),
            message,
        });
    }

    fn reserve(
        &mut self,
        at: &str,
        hint: NameHint,
        docs: Option<String>,
        component: Option<String>,
    ) {
        self.slots.insert(
            at.to_string(),
            Slot {
                hint,
                def: TypeDef {
                    name: String::new(),
                    origin: at.to_string(),
                    component,
                    docs,
                    kind: TypeKind::Alias(TypeRef::Any),
                    examples: Vec::new(),
                },
            },
        );
    }

    fn set_kind(&mut self, at: &str, kind: TypeKind) {
        if let Some(slot) = self.slots.get_mut(at) {
            slot.def.kind = kind;
        }
    }

    /// Converts a schema found at `at`, whose type (if it needs a name) is named by `hint`.
    fn convert(&mut self, schema: &Value, at: &str, hint: NameHint) -> Result<Converted> {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let map = schema.as_object();
            let nullable = map.is_some_and(|m| types_of(m).1);
            if let Some(ty) = self.overrides.get(at).cloned() {
                return Ok((TypeRef::Custom(ty), nullable));
            }
            return self
                .convert_ref(reference, at)
                .map(|(ty, n)| (ty, n || nullable));
        }
        self.convert_body(schema, at, &hint)
    }

    fn convert_ref(&mut self, reference: &str, at: &str) -> Result<Converted> {
        if let Some(name) = component_name(reference) {
            let target = self.doc.pointer(reference).cloned().unwrap_or(Value::Null);
            let nullable = target.as_object().is_some_and(admits_null);
            return Ok((self.component(&name)?, nullable));
        }
        let target = self.doc.pointer(reference).cloned().ok_or_else(|| {
            spec_error(self.doc, at, format!("$ref '{reference}' does not exist"))
        })?;
        let hint = naming::hint_from_pointer(reference);
        if !self.inlining.insert(reference.to_string()) {
            // Recursion through a schema outside components/schemas: its struct, enum or
            // union was declared before its members were read, so it can be named; an array
            // or map that contains itself has no type to name and is kept as JSON.
            if self.slots.contains_key(reference) {
                return Ok((TypeRef::Named(reference.to_string()), false));
            }
            self.warn(
                at,
                format!("'{reference}' contains itself without an object in between; kept as JSON"),
            );
            return Ok((TypeRef::Any, false));
        }
        let result = self.convert(&target, reference, hint);
        self.inlining.remove(reference);
        result
    }

    /// Converts a schema that is not a bare `$ref`.
    fn convert_body(&mut self, schema: &Value, at: &str, hint: &NameHint) -> Result<Converted> {
        let converted = self.convert_shape(schema, at, hint)?;
        // Examples written on an inline or nested schema (a component's own are on its type).
        if let Some(map) = schema.as_object()
            && !(at.starts_with(COMPONENT_SCHEMAS) && component_name(at).is_some())
            && (map.contains_key("examples") || map.contains_key("example"))
            && !self
                .inline_examples
                .iter()
                .any(|e| e.example.pointer.starts_with(&format!("{at}/example")))
        {
            let contract = self.contract_schema(schema, at)?;
            let ty = wrap_nullable(converted.0.clone(), converted.1);
            for example in schema_examples(map, at) {
                self.inline_examples.push(SchemaExample {
                    example,
                    schema: contract.clone(),
                    ty: ty.clone(),
                });
            }
        }
        Ok(converted)
    }

    /// Converts a schema that is not a bare `$ref`, examples aside.
    fn convert_shape(&mut self, schema: &Value, at: &str, hint: &NameHint) -> Result<Converted> {
        let Some(map) = schema.as_object() else {
            return Ok((TypeRef::Any, false));
        };
        let (types, mut nullable) = types_of(map);
        if let Some(ty) = self.overrides.get(at).cloned() {
            return Ok((TypeRef::Custom(ty), nullable));
        }
        if let Some(ty) = string_at(map, "x-rust-type") {
            if let Err(err) = syn::parse_str::<syn::Type>(ty) {
                let at = child(at, "x-rust-type");
                return Err(spec_error(
                    self.doc,
                    &at,
                    format!("x-rust-type `{ty}` is not a Rust type: {err}"),
                ));
            }
            return Ok((TypeRef::Custom(ty.to_string()), nullable));
        }
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let (ty, n) = self.convert_ref(reference, at)?;
            return Ok((ty, n || nullable));
        }

        if map.contains_key("allOf") {
            return self.all_of(map, at, hint, nullable);
        }

        // A nullable anyOf/oneOf: [X, {type: null}] is X, nullable.
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = map.get(key).and_then(Value::as_array) {
                let (nulls, rest): (Vec<_>, Vec<_>) = branches
                    .iter()
                    .enumerate()
                    .partition(|(_, branch)| is_null_schema(branch));
                if !nulls.is_empty() {
                    nullable = true;
                }
                let has_shape = map.contains_key("properties") || map.contains_key("discriminator");
                if rest.len() == 1 && !has_shape {
                    let (index, only) = rest[0];
                    let (ty, n) = self.convert(
                        only,
                        &child(&child(at, key), &index.to_string()),
                        hint.clone(),
                    )?;
                    return Ok((ty, n || nullable));
                }
                if !rest.is_empty() {
                    let (ty, n) = self.union(map, at, hint)?;
                    return Ok((ty, n || nullable));
                }
            }
        }

        if let Some((values, extensible)) = string_enum(map)
            && types.iter().all(|t| t == "string")
        {
            if !self.slots.contains_key(at) {
                self.reserve(at, hint.clone(), docs_of(map), None);
            }
            let variants = values
                .into_iter()
                .map(|wire| EnumVariant {
                    rust_name: String::new(),
                    wire,
                })
                .collect();
            self.set_kind(
                at,
                TypeKind::Enum(EnumDef {
                    variants,
                    extensible,
                    catch_all: String::new(),
                }),
            );
            return Ok((TypeRef::Named(at.to_string()), nullable));
        }

        let is_object = types.iter().any(|t| t == "object")
            || (types.is_empty()
                && (map.contains_key("properties") || map.contains_key("additionalProperties")));
        if types.len() > 1 {
            return Ok((TypeRef::Any, nullable));
        }
        if is_object {
            let has_properties = map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if has_properties {
                if !self.slots.contains_key(at) {
                    self.reserve(at, hint.clone(), docs_of(map), None);
                }
                let mut shape = objects::ObjectShape::default();
                shape.add(map, at);
                let def = self.struct_from_shape(shape, at)?;
                self.set_kind(at, TypeKind::Struct(def));
                return Ok((TypeRef::Named(at.to_string()), nullable));
            }
            return match map.get("additionalProperties") {
                Some(Value::Object(values)) if !values.is_empty() => {
                    let (inner, inner_null) = self.convert(
                        &Value::Object(values.clone()),
                        &child(at, "additionalProperties"),
                        hint.suffixed("Value"),
                    )?;
                    Ok((
                        TypeRef::Map(Box::new(wrap_nullable(inner, inner_null))),
                        nullable,
                    ))
                }
                _ => Ok((TypeRef::Object, nullable)),
            };
        }
        match types.first().map(String::as_str) {
            Some("array") => {
                let (inner, inner_null) = match map.get("items") {
                    Some(items) => {
                        self.convert(items, &child(at, "items"), hint.suffixed("Item"))?
                    }
                    None => (TypeRef::Any, false),
                };
                Ok((
                    TypeRef::Array(Box::new(wrap_nullable(inner, inner_null))),
                    nullable,
                ))
            }
            Some(ty) => match scalar_for(ty, string_at(map, "format")) {
                Some(scalar) => Ok((TypeRef::Scalar(scalar), nullable)),
                None => Ok((TypeRef::Any, nullable)),
            },
            None => Ok((TypeRef::Any, nullable)),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn operation(
        &mut self,
        op: &Value,
        at: &str,
        method: Method,
        path: &str,
        item: &Map<String, Value>,
        item_at: &str,
        default_security: &[Vec<String>],
    ) -> Result<Operation> {
        let op_map = op
            .as_object()
            .ok_or_else(|| spec_error(self.doc, at, "an operation must be an object"))?;
        let id = match string_at(op_map, "operationId") {
            Some(id) => id.to_string(),
            None => derived_operation_id(method, path),
        };
        let words = vec![id.clone()];

        // Path-item parameters first, replaced by operation parameters of the same name and place.
        let mut raw: IndexMap<(String, String), (Value, String)> = IndexMap::new();
        for (source, source_at) in [
            (item.get("parameters"), child(item_at, "parameters")),
            (op_map.get("parameters"), child(at, "parameters")),
        ] {
            if let Some(list) = source.and_then(Value::as_array) {
                for (index, param) in list.iter().enumerate() {
                    let param_at = child(&source_at, &index.to_string());
                    let (param, param_at) = self.doc.deref(param, &param_at)?;
                    let name = param
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    let location = param
                        .get("in")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    raw.insert((name, location), (param.clone(), param_at));
                }
            }
        }
        let mut parameters = Vec::new();
        for ((name, location), (param, param_at)) in raw {
            let location = match location.as_str() {
                "path" => ParamLocation::Path,
                "query" => ParamLocation::Query,
                "header" => ParamLocation::Header,
                "cookie" => ParamLocation::Cookie,
                other => {
                    self.warn(
                        &param_at,
                        format!(
                            "parameter location '{other}' is not one of path, query, header, \
                             cookie; the parameter is left out"
                        ),
                    );
                    continue;
                }
            };
            if name.is_empty() {
                self.warn(&param_at, "parameter without a name; it is left out");
                continue;
            }
            let (schema, schema_at) = match (
                param.get("schema"),
                param.get("content").and_then(Value::as_object),
            ) {
                (Some(schema), _) => (schema.clone(), child(&param_at, "schema")),
                (None, Some(content)) => match content.iter().next() {
                    Some((media, media_obj)) => (
                        media_obj
                            .get("schema")
                            .cloned()
                            .unwrap_or(Value::Bool(true)),
                        child(&child(&child(&param_at, "content"), media), "schema"),
                    ),
                    None => (Value::Bool(true), param_at.clone()),
                },
                _ => (Value::Bool(true), param_at.clone()),
            };
            let (ty, nullable) = self.convert(
                &schema,
                &schema_at,
                NameHint::Words(vec![id.clone(), name.clone()]),
            )?;
            let param_examples = self.example_objects(&param, &param_at)?;
            parameters.push(Parameter {
                examples: param_examples,
                name,
                rust_name: String::new(),
                location,
                required: location == ParamLocation::Path
                    || param
                        .get("required")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                ty: wrap_nullable(ty, nullable),
                schema: self.contract_schema(&schema, &schema_at)?,
                docs: param
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|s| s.trim().to_string()),
            });
        }
        parameters.sort_by_key(|p| p.location);

        let mut examples = Vec::new();
        let request_body = match op_map.get("requestBody") {
            Some(body) => {
                let (body, body_at) = self.doc.deref(body, &child(at, "requestBody"))?;
                let body_map = body.as_object().cloned().unwrap_or_default();
                match self.media(
                    &body_map,
                    &body_at,
                    NameHint::Words(vec![id.clone(), "Request".into()]),
                )? {
                    Some(media) => {
                        examples.extend(media.examples.into_iter().map(|example| MessageExample {
                            part: MessagePart::Request,
                            example,
                        }));
                        Some(RequestBody {
                            required: body_map
                                .get("required")
                                .and_then(Value::as_bool)
                                .unwrap_or(false),
                            content_type: media.content_type,
                            ty: media.ty,
                            schema: media.schema,
                            docs: string_at(&body_map, "description").map(|s| s.trim().to_string()),
                        })
                    }
                    None => None,
                }
            }
            None => None,
        };

        let mut responses = Vec::new();
        if let Some(all) = op_map.get("responses").and_then(Value::as_object) {
            for (key, response) in all {
                let response_at = child(&child(at, "responses"), key);
                let status = parse_status(key).ok_or_else(|| {
                    spec_error(
                        self.doc,
                        &response_at,
                        format!(
                            "'{key}' is not a status code, a status class like 2XX, or default"
                        ),
                    )
                })?;
                let (response, response_at) = self.doc.deref(response, &response_at)?;
                let response_map = response.as_object().cloned().unwrap_or_default();
                let mut hint_words = words.clone();
                hint_words.push(naming::status_word(status));
                hint_words.push("Body".into());
                let body =
                    match self.media(&response_map, &response_at, NameHint::Words(hint_words))? {
                        Some(media) => {
                            examples.extend(media.examples.into_iter().map(|example| {
                                MessageExample {
                                    part: MessagePart::Response(status),
                                    example,
                                }
                            }));
                            Some(ResponseBody {
                                content_type: media.content_type,
                                ty: media.ty,
                                schema: media.schema,
                            })
                        }
                        None => None,
                    };
                responses.push(Response {
                    status,
                    variant: String::new(),
                    docs: string_at(&response_map, "description").map(|s| s.trim().to_string()),
                    body,
                });
            }
        }

        let security = match op_map.get("security") {
            Some(value) => self.security_requirements(Some(value), &child(at, "security"))?,
            None => default_security.to_vec(),
        };
        let _ = item;
        Ok(Operation {
            id,
            fn_name: String::new(),
            type_prefix: String::new(),
            method,
            path: path.to_string(),
            pointer: at.to_string(),
            tags: op_map
                .get("tags")
                .and_then(Value::as_array)
                .map(|tags| {
                    tags.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            docs: operation_docs(op_map),
            parameters,
            request_body,
            responses,
            security,
            deprecated: op_map
                .get("deprecated")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            examples,
        })
    }

    /// The `example` and `examples` (Example Objects, possibly `$ref`s) of a media type or
    /// parameter at `at`.
    fn example_objects(&self, owner: &Value, at: &str) -> Result<Vec<Example>> {
        let mut examples = Vec::new();
        if let Some(value) = owner.get("example") {
            examples.push(Example {
                pointer: child(at, "example"),
                value: value.clone(),
            });
        }
        if let Some(named) = owner.get("examples").and_then(Value::as_object) {
            for (name, example) in named {
                let example_at = child(&child(at, "examples"), name);
                let (example, example_at) = self.doc.deref(example, &example_at)?;
                if let Some(value) = example.get("value") {
                    examples.push(Example {
                        pointer: child(&example_at, "value"),
                        value: value.clone(),
                    });
                }
            }
        }
        Ok(examples)
    }

    /// The JSON media type of a request body or response, converted.
    fn media(
        &mut self,
        owner: &Map<String, Value>,
        owner_at: &str,
        hint: NameHint,
    ) -> Result<Option<Media>> {
        let Some(content) = owner.get("content").and_then(Value::as_object) else {
            return Ok(None);
        };
        let chosen = content
            .iter()
            .find(|(media, _)| is_json_media(media))
            .or_else(|| content.iter().next());
        let Some((content_type, media)) = chosen else {
            return Ok(None);
        };
        let media_at = child(&child(owner_at, "content"), content_type);
        let schema = media.get("schema").cloned().unwrap_or(Value::Bool(true));
        let schema_at = child(&media_at, "schema");
        let (ty, nullable) = if is_json_media(content_type) {
            self.convert(&schema, &schema_at, hint)?
        } else {
            (TypeRef::Any, false)
        };
        let examples = self.example_objects(media, &media_at)?;
        Ok(Some(Media {
            content_type: content_type.clone(),
            ty: wrap_nullable(ty, nullable),
            schema: self.contract_schema(&schema, &schema_at)?,
            examples,
        }))
    }

    /// The scheme names of a `security` list at `at`, each of which must be declared under
    /// `components/securitySchemes` (a requirement naming an undeclared one could never be
    /// checked, and would quietly leave the operation open).
    fn security_requirements(&self, value: Option<&Value>, at: &str) -> Result<Vec<Vec<String>>> {
        let requirements = security_requirements(value);
        let declared = self
            .doc
            .pointer("#/components/securitySchemes")
            .and_then(as_object);
        // Indices of the document's own list (entries that are not objects are skipped
        // above, so the requirements' own positions could point elsewhere).
        let entries = value.and_then(Value::as_array).into_iter().flatten();
        for (index, requirement) in entries.enumerate() {
            let Some(requirement) = requirement.as_object() else {
                continue;
            };
            for name in requirement.keys() {
                if !declared.is_some_and(|schemes| schemes.contains_key(name)) {
                    return Err(spec_error(
                        self.doc,
                        &child(&child(at, &index.to_string()), name),
                        format!(
                            "security names the scheme '{name}', which components/securitySchemes does not declare"
                        ),
                    ));
                }
            }
        }
        Ok(requirements)
    }

    fn security_schemes(&self) -> Result<Vec<SecurityScheme>> {
        let mut out = Vec::new();
        let Some(schemes) = self
            .doc
            .pointer("#/components/securitySchemes")
            .and_then(as_object)
        else {
            return Ok(out);
        };
        for (key, scheme) in schemes {
            let at = child("#/components/securitySchemes", key);
            let (scheme, _) = self.doc.deref(scheme, &at)?;
            let scheme = scheme.as_object().cloned().unwrap_or_default();
            let kind = match (
                string_at(&scheme, "type"),
                string_at(&scheme, "scheme").map(str::to_ascii_lowercase),
            ) {
                (Some("apiKey"), _) => {
                    let name = string_at(&scheme, "name").ok_or_else(|| {
                        spec_error(self.doc, &at, "apiKey security scheme without a name")
                    })?;
                    let location = match string_at(&scheme, "in") {
                        Some("header") => ParamLocation::Header,
                        Some("query") => ParamLocation::Query,
                        Some("cookie") => ParamLocation::Cookie,
                        other => {
                            return Err(spec_error(
                                self.doc,
                                &at,
                                format!(
                                    "apiKey security scheme 'in' must be header, query or cookie, not {other:?}"
                                ),
                            ));
                        }
                    };
                    SecurityKind::ApiKey {
                        name: name.to_string(),
                        location,
                    }
                }
                (Some("http"), Some(s)) if s == "bearer" => SecurityKind::Bearer,
                (Some("http"), Some(s)) if s == "basic" => SecurityKind::Basic,
                (Some(other), _) => SecurityKind::Other(other.to_string()),
                (None, _) => {
                    return Err(spec_error(self.doc, &at, "security scheme without a type"));
                }
            };
            out.push(SecurityScheme {
                key: key.clone(),
                rust_name: String::new(),
                kind,
                docs: string_at(&scheme, "description").map(|s| s.trim().to_string()),
            });
        }
        Ok(out)
    }

    /// A schema as the contract needs it: refs to component schemas kept (the contract bundles
    /// them), any other local ref replaced by its target so that the schema stands alone.
    fn contract_schema(&mut self, schema: &Value, at: &str) -> Result<Value> {
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

/// The component a `$ref` points at or into, and the pointer segments below it
/// (`#/components/schemas/A/definitions/b` → `A`, `[definitions, b]`).
pub(crate) fn component_target(reference: &str) -> Option<(String, Vec<String>)> {
    let segments = crate::load::decode_pointer(reference)?;
    match segments.as_slice() {
        [components, schemas, name, rest @ ..]
            if components == "components" && schemas == "schemas" =>
        {
            Some((name.clone(), rest.to_vec()))
        }
        _ => None,
    }
}

/// The component name when a `$ref` points at `#/components/schemas/<name>` (in any
/// spelling: `~1` escapes and percent-encoding are decoded).
pub(crate) fn component_name(reference: &str) -> Option<String> {
    let segments = crate::load::decode_pointer(reference)?;
    match segments.as_slice() {
        [components, schemas, name] if components == "components" && schemas == "schemas" => {
            Some(name.clone())
        }
        _ => None,
    }
}

struct Media {
    content_type: String,
    ty: TypeRef,
    schema: Value,
    examples: Vec<Example>,
}

/// Whether a schema admits null at its top: `type` lists it, or a `oneOf`/`anyOf` branch is
/// null (OpenAPI 3.0's `nullable` beside a schema without `type` is loaded in that form).
fn admits_null(map: &Map<String, Value>) -> bool {
    types_of(map).1
        || ["oneOf", "anyOf"].iter().any(|key| {
            map.get(*key)
                .and_then(Value::as_array)
                .is_some_and(|branches| branches.iter().any(is_null_schema))
        })
}

/// A field whose union has an alternative that accepts null (`anyOf: [{type: object,
/// nullable: true}, {$ref: …}]`, DigitalOcean's shape) is nullable: as an optional field it
/// must tell a null apart from an absent member, or a round trip drops `"droplet": null`.
fn mark_null_accepting_unions(api: &mut Api) {
    let accepts_null: std::collections::HashSet<String> = api
        .types
        .iter()
        .filter(|def| match &def.kind {
            TypeKind::Union(union) => union.variants.iter().any(|variant| {
                variant.facts.kinds.contains(&crate::ir::JsonKind::Null)
                    || matches!(variant.ty, TypeRef::Nullable(_))
            }),
            _ => false,
        })
        .map(|def| def.name.clone())
        .collect();
    for def in &mut api.types {
        if let TypeKind::Struct(object) = &mut def.kind {
            for field in &mut object.fields {
                if let TypeRef::Named(name) = &field.ty
                    && accepts_null.contains(name)
                {
                    field.nullable = true;
                }
            }
        }
    }
}

fn wrap_nullable(ty: TypeRef, nullable: bool) -> TypeRef {
    if nullable && !matches!(ty, TypeRef::Any | TypeRef::Nullable(_)) {
        TypeRef::Nullable(Box::new(ty))
    } else {
        ty
    }
}

fn is_json_media(media: &str) -> bool {
    let essence = media
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence.ends_with("+json") || essence == "*/*"
}

fn schema_examples(map: &Map<String, Value>, at: &str) -> Vec<Example> {
    let mut out = Vec::new();
    if let Some(list) = map.get("examples").and_then(Value::as_array) {
        for (index, value) in list.iter().enumerate() {
            out.push(Example {
                pointer: child(&child(at, "examples"), &index.to_string()),
                value: value.clone(),
            });
        }
    }
    if let Some(value) = map.get("example") {
        out.push(Example {
            pointer: child(at, "example"),
            value: value.clone(),
        });
    }
    out
}

fn security_requirements(value: Option<&Value>) -> Vec<Vec<String>> {
    value
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_object)
                .map(|requirement| requirement.keys().cloned().collect())
                .collect()
        })
        .unwrap_or_default()
}

fn servers(value: Option<&Value>) -> Vec<Server> {
    let Some(list) = value.and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(Value::as_object)
        .filter_map(|server| {
            Some(Server {
                url: string_at(server, "url")?.to_string(),
                description: string_at(server, "description").map(str::to_string),
                variables: server
                    .get("variables")
                    .and_then(Value::as_object)
                    .map(|vars| {
                        vars.iter()
                            .map(|(name, var)| ServerVariable {
                                name: name.clone(),
                                default: var
                                    .get("default")
                                    .and_then(Value::as_str)
                                    .unwrap_or_default()
                                    .to_string(),
                                allowed: var
                                    .get("enum")
                                    .and_then(Value::as_array)
                                    .map(|v| {
                                        v.iter()
                                            .filter_map(Value::as_str)
                                            .map(str::to_string)
                                            .collect()
                                    })
                                    .unwrap_or_default(),
                                docs: var
                                    .get("description")
                                    .and_then(Value::as_str)
                                    .map(str::to_string),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        })
        .collect()
}

fn parse_status(key: &str) -> Option<StatusSpec> {
    if key == "default" {
        return Some(StatusSpec::Default);
    }
    let upper = key.to_ascii_uppercase();
    if let Some(class) = upper.strip_suffix("XX")
        && class.len() == 1
    {
        let class: u8 = class.parse().ok()?;
        return (1..=5).contains(&class).then_some(StatusSpec::Range(class));
    }
    let code: u16 = key.parse().ok()?;
    (100..=599)
        .contains(&code)
        .then_some(StatusSpec::Code(code))
}

fn derived_operation_id(method: Method, path: &str) -> String {
    format!("{}_{}", method.key(), path_words(path, false))
}

/// The segments of a path joined by `_`, parameters without braces (or, with `mark_params`,
/// as `by_<name>`, so that `/a/{id}` and `/a/id` differ).
fn path_words(path: &str, mark_params: bool) -> String {
    path.split('/')
        .filter(|segment| !segment.is_empty())
        .map(
            |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(param) if mark_params => format!("by_{param}"),
                Some(param) => param.to_string(),
                None => segment.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("_")
}

/// Makes operation ids unique as Rust names: operations whose ids are equal (a duplicate
/// `operationId`) or become the same function name (`listRules`, `list_rules`) each get their
/// method, and where the method does not tell them apart their path, appended, so the generated
/// names say where they came from. Returns a warning for each renamed operation.
fn disambiguate_operation_ids(operations: &mut [Operation]) -> Vec<(String, String)> {
    let mut groups: IndexMap<String, Vec<usize>> = IndexMap::new();
    for (index, op) in operations.iter().enumerate() {
        groups
            .entry(naming::snake(&op.id, "operation"))
            .or_default()
            .push(index);
    }
    let mut warnings = Vec::new();
    for members in groups.values().filter(|members| members.len() > 1) {
        let methods: HashSet<Method> = members.iter().map(|&i| operations[i].method).collect();
        let by_method_alone = methods.len() == members.len();
        let same_id = members
            .iter()
            .all(|&i| operations[i].id == operations[members[0]].id);
        let others: Vec<String> = members
            .iter()
            .map(|&i| format!("{} {}", operations[i].method.as_http(), operations[i].path))
            .collect();
        for &i in members {
            let op = &mut operations[i];
            let written = op.id.clone();
            op.id = if by_method_alone {
                format!("{written}_{}", op.method.key())
            } else if written == derived_operation_id(op.method, &op.path) {
                // Derived from method and path already: tell `{id}` from a literal `id`.
                format!("{}_{}", op.method.key(), path_words(&op.path, true))
            } else {
                format!(
                    "{written}_{}_{}",
                    op.method.key(),
                    path_words(&op.path, false)
                )
            };
            let why = if written == derived_operation_id(op.method, &op.path) {
                format!(
                    "{} operations without an operationId derive the same name '{written}'",
                    members.len()
                )
            } else if same_id {
                format!(
                    "operationId '{written}' is used by {} operations",
                    members.len()
                )
            } else {
                format!("operationId '{written}' makes the same Rust name as another operation's")
            };
            warnings.push((
                op.pointer.clone(),
                format!(
                    "{why} ({}); this one is generated as '{}'",
                    others.join(", "),
                    op.id
                ),
            ));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_parse_codes_classes_and_default() {
        assert_eq!(parse_status("201"), Some(StatusSpec::Code(201)));
        assert_eq!(parse_status("2XX"), Some(StatusSpec::Range(2)));
        assert_eq!(parse_status("default"), Some(StatusSpec::Default));
        assert_eq!(parse_status("20"), None);
        assert_eq!(parse_status("9XX"), None);
    }

    #[test]
    fn overrides_accept_component_property_and_pointer_keys() {
        assert_eq!(
            override_pointer("Amount.value"),
            "#/components/schemas/Amount/properties/value"
        );
        assert_eq!(override_pointer("Amount"), "#/components/schemas/Amount");
        assert_eq!(override_pointer("#/x/y"), "#/x/y");
    }

    #[test]
    fn operation_ids_are_derived_when_absent() {
        assert_eq!(
            derived_operation_id(Method::Get, "/pets/{petId}"),
            "get_pets_petId"
        );
    }
}
