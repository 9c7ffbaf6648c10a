//! Objects: the members gathered from one schema or from several (`allOf` parts, a union's
//! shared properties and one alternative), and the struct made of them.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::state::{Builder, child, wrap_nullable};
use crate::error::Result;
use crate::ir::naming::NameHint;
use crate::ir::schema::docs_of;
use crate::ir::{Additional, Field, StructDef, TypeRef};

/// Properties gathered from one schema or several, with their pointers.
#[derive(Debug, Clone, Default)]
pub(super) struct ObjectShape {
    /// Declared properties: schema and pointer, in the order first seen.
    pub(super) properties: IndexMap<String, (Value, String)>,
    /// Names listed in any part's `required`.
    pub(super) required: HashSet<String>,
    /// The last `additionalProperties` seen, with its pointer.
    pub(super) additional: Option<(Value, String)>,
    /// A part has `patternProperties`: some members it does not declare by name are not
    /// `additionalProperties`' to rule on.
    pub(super) patterned: bool,
    /// A part says `unevaluatedProperties: false`: no member beyond those declared.
    pub(super) unevaluated_closed: bool,
    /// A part is a base that subtypes extend: it has a `discriminator` and no union of its
    /// own. Its value may be any subtype, so members it does not declare are the subtype's.
    pub(super) extended: bool,
}

impl ObjectShape {
    /// Adds what one schema (at `at`) says about members.
    pub(super) fn add(&mut self, map: &Map<String, Value>, at: &str) {
        if let Some(props) = map.get("properties").and_then(Value::as_object) {
            for (name, schema) in props {
                let prop_at = child(&child(at, "properties"), name);
                self.properties
                    .insert(name.clone(), (schema.clone(), prop_at));
            }
        }
        if let Some(required) = map.get("required").and_then(Value::as_array) {
            self.required.extend(
                required
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string),
            );
        }
        if let Some(additional) = map.get("additionalProperties") {
            self.additional = Some((additional.clone(), child(at, "additionalProperties")));
        }
        if map.contains_key("patternProperties") {
            self.patterned = true;
        }
        if map.get("unevaluatedProperties") == Some(&Value::Bool(false)) {
            self.unevaluated_closed = true;
        }
        if map.contains_key("discriminator")
            && !map.contains_key("oneOf")
            && !map.contains_key("anyOf")
        {
            self.extended = true;
        }
    }

    /// Whether it says anything an alternative would inherit.
    pub(super) fn is_empty(&self) -> bool {
        self.properties.is_empty() && self.required.is_empty()
    }

    /// `additionalProperties: false`.
    pub(super) fn is_closed(&self) -> bool {
        matches!(self.additional, Some((Value::Bool(false), _)))
    }
}

impl Builder<'_> {
    /// Which of `readOnly` and `writeOnly` a property's schema is marked with, if either: on
    /// the schema itself, or on the schema it refers to (`$ref`, or a lone `allOf` member as
    /// 3.0 documents wrap one).
    pub(super) fn one_way(&self, schema: &Value) -> Option<&'static str> {
        let mut schema = schema;
        // A bound, not a cycle check: refs that loop say nothing about direction.
        for _ in 0..16 {
            let map = schema.as_object()?;
            if let Some(keyword) = ["readOnly", "writeOnly"]
                .into_iter()
                .find(|key| map.get(*key) == Some(&Value::Bool(true)))
            {
                return Some(keyword);
            }
            let next = match (map.get("$ref"), map.get("allOf")) {
                (Some(Value::String(reference)), _) => self.doc.pointer(reference),
                (None, Some(Value::Array(parts))) if parts.len() == 1 => parts.first(),
                _ => None,
            };
            schema = next?;
        }
        None
    }

    /// The struct of a gathered shape; property types are named under `at`.
    pub(super) fn struct_from_shape(&mut self, shape: ObjectShape, at: &str) -> Result<StructDef> {
        let mut fields = Vec::new();
        for (wire, (schema, prop_at)) in &shape.properties {
            let prop_map = schema.as_object();
            let (ty, nullable) = self.convert(schema, prop_at, NameHint::child_of(at, wire))?;
            let mut docs = prop_map.and_then(docs_of);
            // One type serves both directions, and a `readOnly` (`writeOnly`) property listed
            // in `required` is required in responses (requests) only: OpenAPI says a request
            // (response) leaves it out. Required in the type, it would refuse those messages.
            let one_way = self
                .one_way(schema)
                .filter(|_| shape.required.contains(wire));
            let required = shape.required.contains(wire) && one_way.is_none();
            if let Some(keyword) = one_way {
                let side = match keyword {
                    "readOnly" => "responses (`readOnly`); requests leave it out",
                    _ => "requests (`writeOnly`); responses leave it out",
                };
                let note = format!("Required in {side}.");
                docs = Some(match docs {
                    Some(text) => format!("{text}\n\n{note}"),
                    None => note,
                });
            }
            fields.push(Field {
                rust_name: String::new(),
                wire_name: wire.clone(),
                ty,
                required,
                nullable,
                docs,
                default: prop_map.and_then(|m| m.get("default")).cloned(),
                boxed: false,
            });
        }
        let additional = match &shape.additional {
            // A subtype's members would have to fit the base's rule for others (Azure writes
            // `{type: object}`, meaning "anything"): kept as JSON, whatever they are.
            _ if shape.extended => Additional::Any,
            Some((Value::Bool(false), _)) => Additional::Forbidden,
            Some((Value::Object(values), add_at)) if !values.is_empty() => {
                let (inner, inner_null) = self.convert(
                    &Value::Object(values.clone()),
                    add_at,
                    NameHint::child_of(at, "Value"),
                )?;
                match inner {
                    // A free-form object for the members it does not declare (Azure's way to
                    // say "anything"): a member that is no object is kept as JSON all the
                    // same, not refused with the whole value; the validator judges it.
                    TypeRef::Object => Additional::Any,
                    inner => Additional::Typed(wrap_nullable(inner, inner_null)),
                }
            }
            _ => Additional::Any,
        };
        Ok(StructDef {
            fields,
            additional,
            additional_name: String::new(),
        })
    }
}
