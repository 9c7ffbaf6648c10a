//! Schemas to types: every component schema declared once under its own pointer, every other
//! schema converted where it is met, and a slot reserved for each type that needs a name
//! (named afterwards by [`crate::ir::naming`]). Objects, unions and `allOf` have files of their
//! own (`objects.rs`, `unions.rs`, `all_of.rs`).

use serde_json::{Map, Value};

use super::objects::ObjectShape;
use super::state::{
    Builder, COMPONENT_SCHEMAS, Converted, child, component_name, spec_error, string_at,
    wrap_nullable,
};
use crate::error::Result;
use crate::ir::naming::{self, NameHint, Slot};
use crate::ir::schema::{
    ANNOTATIONS, const_alternatives, docs_of, implied_types, is_null_schema, scalar_for,
    string_enum, types_of,
};
use crate::ir::{
    Api, EnumDef, EnumVariant, Example, JsonKind, SchemaExample, TypeDef, TypeKind, TypeRef,
};
use crate::load::OpenApiVersion;

impl Builder<'_> {
    /// Whether loading moved a schema's `example` into `examples` (a document written before
    /// OpenAPI 3.1).
    fn example_was_moved(&self) -> bool {
        !matches!(
            self.doc.version,
            OpenApiVersion::V3_1 | OpenApiVersion::V3_2
        )
    }

    /// Declares the string enumeration at `at`: its values, each with what the spec says of
    /// it.
    fn string_enum_type(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        hint: &NameHint,
        values: Vec<(String, Option<String>)>,
        extensible: bool,
    ) -> TypeRef {
        if !self.slots.contains_key(at) {
            self.reserve(at, hint.clone(), docs_of(map), None);
        }
        let variants = values
            .into_iter()
            .map(|(wire, docs)| EnumVariant {
                rust_name: String::new(),
                wire,
                docs,
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
        TypeRef::Pointer(at.to_string())
    }

    /// Declares the type of a component schema (once) and returns a reference to it.
    pub(super) fn component(&mut self, name: &str) -> Result<TypeRef> {
        let at = child("#/components/schemas", name);
        if self.slots.contains_key(&at) || self.redirects.contains_key(&at) {
            return Ok(TypeRef::Pointer(at));
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
        let examples = schema_examples(&map, &at, self.example_was_moved());
        // Reserve the slot first so that a schema referring to itself finds it.
        self.reserve(&at, hint.clone(), docs_of(&map), Some(name.to_string()));
        let (ty, _nullable) = self.convert_body(&schema, &at, &hint)?;
        if let TypeRef::Pointer(inner) = &ty
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
            return Ok(TypeRef::Pointer(at));
        }
        let kind = match ty {
            TypeRef::Pointer(ref pointer) if pointer == &at => None,
            TypeRef::Scalar(_) | TypeRef::Custom(_) => Some(TypeKind::Newtype(ty)),
            other => Some(TypeKind::Alias(other)),
        };
        if let Some(slot) = self.slots.get_mut(&at) {
            if let Some(kind) = kind {
                slot.def.kind = kind;
            }
            slot.def.examples = examples;
        }
        self.dispatch_to_subtypes(name, &at, &schema)?;
        Ok(TypeRef::Pointer(at))
    }

    pub(super) fn reserve(
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

    pub(super) fn set_kind(&mut self, at: &str, kind: TypeKind) {
        if let Some(slot) = self.slots.get_mut(at) {
            slot.def.kind = kind;
        }
    }

    /// Converts a schema found at `at`, whose type (if it needs a name) is named by `hint`.
    pub(super) fn convert(
        &mut self,
        schema: &Value,
        at: &str,
        hint: NameHint,
    ) -> Result<Converted> {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let map = schema.as_object();
            let nullable = map.is_some_and(|m| types_of(m).1 && self.null_beside_ref_counts(m));
            if let Some(ty) = self.overriding(at) {
                return Ok((TypeRef::Custom(ty), nullable));
            }
            return self
                .convert_ref(reference, at)
                .map(|(ty, n)| (ty, n || nullable));
        }
        self.convert_body(schema, at, &hint)
    }

    /// Whether a `null` a `$ref`'s siblings admit makes the reference nullable. 3.1 applies a
    /// `type` beside a `$ref` with it, as `allOf` would: `type: [string, "null"]` admits null
    /// only where the referenced schema does too, and the contract refuses a null the type
    /// would have let a caller send. 3.0's `nullable: true` beside a `$ref` is honoured by
    /// both.
    fn null_beside_ref_counts(&self, map: &Map<String, Value>) -> bool {
        !matches!(
            self.doc.version,
            OpenApiVersion::V3_1 | OpenApiVersion::V3_2
        ) || map.contains_key("nullable")
    }

    /// Whether a schema with a `$ref` also asserts something of its own beside it, which
    /// OpenAPI 3.1 (JSON Schema 2020-12) applies together with the reference: `{$ref: Base,
    /// properties: {kind: {const: deleted}}}` is a `Base` whose `kind` is `deleted`. Its Rust
    /// type stays the referenced one (a refinement narrows values the type already holds, and
    /// members it adds are kept with the undeclared ones), but a union's alternatives are told
    /// apart by the facts of both (see `unions::facts_of`), and the contract keeps the schema
    /// as written. OpenAPI 3.0 ignores what stands beside a `$ref`, and so does this for its
    /// documents. Annotations do not count, nor do `type` and `format`: `type: [object,
    /// "null"]` beside a `$ref` is how documents write a nullable reference.
    pub(super) fn asserts_beside_ref(&self, map: &Map<String, Value>) -> bool {
        // Beside the annotations, `summary` (an OpenAPI 3.1 reference's own).
        const NOT_ASSERTIONS: &[&str] = &["$ref", "type", "format", "summary"];
        matches!(
            self.doc.version,
            OpenApiVersion::V3_1 | OpenApiVersion::V3_2
        ) && map.keys().any(|key| {
            !key.starts_with("x-")
                && !NOT_ASSERTIONS.contains(&key.as_str())
                && !ANNOTATIONS.contains(&key.as_str())
        })
    }

    pub(super) fn convert_ref(&mut self, reference: &str, at: &str) -> Result<Converted> {
        if let Some(name) = component_name(reference) {
            let target = self.doc.pointer(reference).cloned().unwrap_or(Value::Null);
            let nullable = target.as_object().is_some_and(admits_null);
            return Ok((self.component(&name)?, nullable));
        }
        if let Some(converted) = self.converted_refs.get(reference) {
            return Ok(converted.clone());
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
                return Ok((TypeRef::Pointer(reference.to_string()), false));
            }
            self.warn(
                at,
                format!("'{reference}' contains itself without an object in between; kept as JSON"),
            );
            self.cycles_kept_as_json += 1;
            return Ok((TypeRef::Any, false));
        }
        let cycles_before = self.cycles_kept_as_json;
        let result = self.convert(&target, reference, hint);
        self.inlining.remove(reference);
        if let Ok(converted) = &result
            && self.cycles_kept_as_json == cycles_before
        {
            self.converted_refs
                .insert(reference.to_string(), converted.clone());
        }
        result
    }

    /// Converts a schema that is not a bare `$ref`.
    pub(super) fn convert_body(
        &mut self,
        schema: &Value,
        at: &str,
        hint: &NameHint,
    ) -> Result<Converted> {
        let converted = self.convert_shape(schema, at, hint)?;
        // Examples written on an inline or nested schema (a component's own are on its type).
        if let Some(map) = schema.as_object()
            && !(at.starts_with(COMPONENT_SCHEMAS) && component_name(at).is_some())
            && (map.contains_key("examples") || map.contains_key("example"))
            && self.examples_taken_at.insert(at.to_string())
        {
            let contract = self.contract_schema(schema, at)?;
            let ty = wrap_nullable(converted.0.clone(), converted.1);
            for example in schema_examples(map, at, self.example_was_moved()) {
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
    pub(super) fn convert_shape(
        &mut self,
        schema: &Value,
        at: &str,
        hint: &NameHint,
    ) -> Result<Converted> {
        let Some(map) = schema.as_object() else {
            return Ok((TypeRef::Any, false));
        };
        let (types, mut nullable) = types_of(map);
        let types = match types.is_empty() {
            true => implied_types(map),
            false => types,
        };
        if let Some(ty) = self.overriding(at) {
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
            return Ok((ty, n || (nullable && self.null_beside_ref_counts(map))));
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
                let branches: Vec<&Value> = rest.iter().map(|(_, branch)| *branch).collect();
                if !has_shape
                    && types.iter().all(|t| t == "string")
                    && let Some((values, extensible)) = const_alternatives(&branches)
                {
                    return Ok((
                        self.string_enum_type(map, at, hint, values, extensible),
                        nullable,
                    ));
                }
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
            let values = values.into_iter().map(|wire| (wire, None)).collect();
            return Ok((
                self.string_enum_type(map, at, hint, values, extensible),
                nullable,
            ));
        }

        if types.len() > 1 {
            return Ok(self
                .type_list(map, at, hint, &types, nullable)?
                .unwrap_or((TypeRef::Any, nullable)));
        }
        let is_object = types.iter().any(|t| t == "object")
            || (types.is_empty()
                && (map.contains_key("properties") || map.contains_key("additionalProperties")));
        if is_object {
            let has_properties = map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if has_properties {
                if !self.slots.contains_key(at) {
                    self.reserve(at, hint.clone(), docs_of(map), None);
                }
                let mut shape = ObjectShape::default();
                shape.add(map, at);
                let def = self.struct_from_shape(shape, at)?;
                self.set_kind(at, TypeKind::Struct(def));
                return Ok((TypeRef::Pointer(at.to_string()), nullable));
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
                // A tuple (`prefixItems`, 3.1) holds items of several schemas, and `items` then
                // describes only those after them: a list of JSON values keeps every one.
                let tuple = map.get("prefixItems").is_some_and(Value::is_array);
                let (inner, inner_null) = match map.get("items") {
                    Some(_) if tuple => (TypeRef::Any, false),
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
            Some(ty) => match scalar_for(ty, format_of(map)) {
                Some(scalar) => Ok((TypeRef::Scalar(scalar), nullable)),
                None => Ok((TypeRef::Any, nullable)),
            },
            None => Ok((TypeRef::Any, nullable)),
        }
    }
}

/// A schema's `format`; without one, `byte` for OpenAPI 3.1's `contentEncoding: base64` (or
/// `base64url`), which replaces 3.0's `format: byte`, so both read into `Base64`.
fn format_of(map: &Map<String, Value>) -> Option<&str> {
    string_at(map, "format").or_else(|| {
        string_at(map, "contentEncoding")
            .filter(|encoding| {
                encoding.eq_ignore_ascii_case("base64")
                    || encoding.eq_ignore_ascii_case("base64url")
            })
            .map(|_| "byte")
    })
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
pub(super) fn mark_null_accepting_unions(api: &mut Api) {
    let accepts_null: std::collections::HashSet<String> = api
        .types
        .iter()
        .filter(|def| match &def.kind {
            TypeKind::Union(union) => union.variants.iter().any(|variant| {
                variant.facts.kinds.contains(&JsonKind::Null)
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

/// Notes, for each discriminated union, the alternatives whose struct does not require the
/// discriminator's property (does not declare it, or leaves it optional, as doqs.dev's
/// `ImageField` does with a `default` tag), with the first tag the mapping gives each: the
/// generated serializer writes it where the value holds none (see
/// [`crate::ir::Discriminator::untold`]).
pub(super) fn mark_untold_tags(api: &mut Api) {
    // Each struct's required members.
    let declares: std::collections::HashMap<String, Vec<String>> = api
        .types
        .iter()
        .filter_map(|def| match &def.kind {
            TypeKind::Struct(object) => Some((
                def.name.clone(),
                object
                    .fields
                    .iter()
                    .filter(|field| field.required)
                    .map(|field| field.wire_name.clone())
                    .collect(),
            )),
            _ => None,
        })
        .collect();
    for def in &mut api.types {
        let TypeKind::Union(union) = &mut def.kind else {
            continue;
        };
        let Some(discriminator) = &mut union.discriminator else {
            continue;
        };
        let mut untold: Vec<(usize, String)> = Vec::new();
        for (tag, index) in &discriminator.mapping {
            let Some(TypeRef::Named(name)) = union.variants.get(*index).map(|v| &v.ty) else {
                continue;
            };
            let silent = declares
                .get(name)
                .is_some_and(|fields| !fields.contains(&discriminator.property));
            if silent && !untold.iter().any(|(known, _)| known == index) {
                untold.push((*index, tag.clone()));
            }
        }
        discriminator.untold = untold;
    }
}

/// Makes a field whose type is only a name for any JSON value (`Anything: {description: …}`,
/// `Nothing: {const: null}`, through other aliases) hold that value itself, as a field written
/// `{}` in place does: an optional `Option<Anything>` read a present `null` as absent, and
/// wrote the member back without it.
pub(super) fn hold_any_values_in_place(api: &mut Api) {
    let mut any: std::collections::HashSet<String> = std::collections::HashSet::new();
    // Aliases of aliases: to a fixed point, which a chain of n aliases reaches in n rounds.
    loop {
        let before = any.len();
        for def in &api.types {
            if let TypeKind::Alias(inner) = &def.kind {
                let holds_any = match inner {
                    TypeRef::Any => true,
                    TypeRef::Named(name) => any.contains(name),
                    _ => false,
                };
                if holds_any {
                    any.insert(def.name.clone());
                }
            }
        }
        if any.len() == before {
            break;
        }
    }
    if any.is_empty() {
        return;
    }
    for def in &mut api.types {
        if let TypeKind::Struct(object) = &mut def.kind {
            for field in &mut object.fields {
                if let TypeRef::Named(name) = &field.ty
                    && any.contains(name)
                {
                    field.ty = TypeRef::Any;
                }
            }
        }
    }
}

/// The examples of the schema `map` at `at`. In a document written before 3.1, a lone
/// `examples` item is the schema's `example`, which loading moved (OpenAPI 3.0 has no
/// `examples` on a schema): named `…/example`, as the document writes it.
fn schema_examples(map: &Map<String, Value>, at: &str, moved_example: bool) -> Vec<Example> {
    let mut out = Vec::new();
    if let Some(list) = map.get("examples").and_then(Value::as_array) {
        for (index, value) in list.iter().enumerate() {
            let pointer = if moved_example && list.len() == 1 {
                child(at, "example")
            } else {
                child(&child(at, "examples"), &index.to_string())
            };
            out.push(Example {
                pointer,
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
