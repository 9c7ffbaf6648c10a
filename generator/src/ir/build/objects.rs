//! Objects: the members gathered from one schema or from several (`allOf` parts, a union's
//! shared properties and one alternative), and the struct made of them.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::state::{Builder, child, wrap_nullable};
use crate::error::Result;
use crate::ir::naming::NameHint;
use crate::ir::schema::docs_of;
use crate::ir::{Additional, Field, StructDef};

/// Properties gathered from one schema or several, with their pointers.
#[derive(Debug, Clone, Default)]
pub(super) struct ObjectShape {
    /// Declared properties: schema and pointer, in the order first seen.
    pub(super) properties: IndexMap<String, (Value, String)>,
    /// Names listed in any part's `required`.
    pub(super) required: HashSet<String>,
    /// The last `additionalProperties` seen, with its pointer.
    pub(super) additional: Option<(Value, String)>,
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
    /// The struct of a gathered shape; property types are named under `at`.
    pub(super) fn struct_from_shape(&mut self, shape: ObjectShape, at: &str) -> Result<StructDef> {
        let mut fields = Vec::new();
        for (wire, (schema, prop_at)) in &shape.properties {
            let prop_map = schema.as_object();
            let (ty, nullable) = self.convert(schema, prop_at, NameHint::child_of(at, wire))?;
            let docs = prop_map.and_then(docs_of);
            fields.push(Field {
                rust_name: String::new(),
                wire_name: wire.clone(),
                ty,
                required: shape.required.contains(wire),
                nullable,
                docs,
                default: prop_map.and_then(|m| m.get("default")).cloned(),
                boxed: false,
            });
        }
        let additional = match &shape.additional {
            Some((Value::Bool(false), _)) => Additional::Forbidden,
            Some((Value::Object(values), add_at)) if !values.is_empty() => {
                let (inner, inner_null) = self.convert(
                    &Value::Object(values.clone()),
                    add_at,
                    NameHint::child_of(at, "Value"),
                )?;
                Additional::Typed(wrap_nullable(inner, inner_null))
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
