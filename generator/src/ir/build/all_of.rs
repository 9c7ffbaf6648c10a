//! `allOf` in the shapes real documents write it, each to one Rust type:
//!
//! - a reference with annotations or a nullable wrapper (`allOf: [$ref]` beside
//!   `description` or `nullable: true`, the OpenAPI 3.0 idiom for a nullable reference): the
//!   referenced type itself;
//! - objects (references and inline parts, nested `allOf` flattened): one struct with every
//!   part's properties and `required`;
//! - an object beside a union (`allOf: [Base, {oneOf: [...], discriminator}]`): the union, each
//!   alternative merged with the object's properties;
//! - scalars, enums and arrays refined by other parts (`allOf: [{type: string}, {format:
//!   uuid}]`): the parts' keywords merged into one schema.
//!
//! A combination nothing can satisfy (an object and a string) keeps the value as JSON, with a
//! warning; it is never an error. The contract keeps the `allOf` as written, so the validator
//! stays exact whatever Rust type is chosen.

use serde_json::{Map, Value};

use super::objects::ObjectShape;
use super::state::{Builder, Converted, child};
use super::unions::UnionSource;
use crate::error::Result;
use crate::ir::naming::NameHint;
use crate::ir::schema::{ANNOTATIONS, docs_of, is_null_schema, types_of};
use crate::ir::{TypeKind, TypeRef};

/// Keywords that make a part an object.
const OBJECT_KEYWORDS: &[&str] = &[
    "properties",
    "additionalProperties",
    "patternProperties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "unevaluatedProperties",
    "dependentRequired",
    "dependentSchemas",
];

/// Keywords that give a part a shape other than an object.
const OTHER_KEYWORDS: &[&str] = &["enum", "const", "items", "prefixItems", "x-extensible-enum"];

/// What one flattened part of an `allOf` contributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartKind {
    /// Properties, `required`, `additionalProperties`.
    Object,
    /// `oneOf` / `anyOf` with more than one non-null alternative.
    Union,
    /// A scalar, enum or array shape.
    Other,
    /// Constraints that keep the type (`format`, `pattern`, bounds): merged, never alone.
    Refinement,
}

/// One part of an `allOf`, references followed and nested `allOf` flattened.
#[derive(Debug, Clone)]
pub(super) struct Part {
    /// The part as written (possibly a `$ref`).
    raw: Value,
    /// Where it is written.
    site: String,
    /// The part with references followed, without its own `allOf`.
    map: Map<String, Value>,
    /// Pointer of `map`.
    at: String,
    kind: PartKind,
}

fn classify(map: &Map<String, Value>) -> Option<PartKind> {
    for key in ["oneOf", "anyOf"] {
        if let Some(branches) = map.get(key).and_then(Value::as_array)
            && branches.iter().filter(|b| !is_null_schema(b)).count() > 0
        {
            return Some(PartKind::Union);
        }
    }
    let (types, _) = types_of(map);
    if types.iter().any(|t| t == "object") {
        return Some(PartKind::Object);
    }
    if !types.is_empty() || OTHER_KEYWORDS.iter().any(|k| map.contains_key(*k)) {
        return Some(PartKind::Other);
    }
    if OBJECT_KEYWORDS.iter().any(|k| map.contains_key(*k)) {
        return Some(PartKind::Object);
    }
    let constrains = map.keys().any(|key| {
        !ANNOTATIONS.contains(&key.as_str()) && !key.starts_with("x-") && key != "allOf"
    });
    constrains.then_some(PartKind::Refinement)
}

/// Whether an object part says so only by keywords that bind objects alone: no `type`, and
/// no `properties` or `required`, which name members that only an object can have.
fn only_implies_an_object(map: &Map<String, Value>) -> bool {
    !map.contains_key("type") && !map.contains_key("properties") && !map.contains_key("required")
}

/// The schema without `allOf` and annotations: what it adds beside its `allOf`.
fn own_part(map: &Map<String, Value>) -> Map<String, Value> {
    map.iter()
        .filter(|(key, _)| key.as_str() != "allOf")
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

impl Builder<'_> {
    /// Converts a schema with `allOf` (and maybe properties or a union beside it).
    pub(super) fn all_of(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        hint: &NameHint,
        nullable: bool,
    ) -> Result<Converted> {
        // `allOf: [$ref]` with nothing but annotations beside it is the referenced type; so is
        // a nullable wrapper around one (OpenAPI 3.0 writes `nullable: true` beside it).
        let items = map
            .get("allOf")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut written = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let site = child(&child(at, "allOf"), &index.to_string());
            let (target, _) = self.doc.deref(item, &site)?;
            let keeps = target
                .as_object()
                .is_some_and(|m| classify(m).is_some() || m.contains_key("allOf"));
            if keeps {
                written.push((item.clone(), site));
            }
        }
        let own = own_part(map);
        if let [(item, site)] = written.as_slice()
            && item.get("$ref").is_some()
            && classify(&own).is_none_or(|kind| kind == PartKind::Refinement)
        {
            let (ty, n) = self.convert(item, site, hint.clone())?;
            return Ok((ty, n || nullable));
        }

        let parts = self.parts_of(map, at)?;

        let count = |kind| parts.iter().filter(|p: &&Part| p.kind == kind).count();
        let (unions, objects, others) = (
            count(PartKind::Union),
            count(PartKind::Object),
            count(PartKind::Other),
        );
        if unions == 0 && objects == 0 && others == 0 {
            // Annotations and refinements only: the merged keywords say what little there is.
            let merged = merge_keywords(map, &parts);
            let shape = self.convert_shape(&Value::Object(merged), at, hint)?;
            return Ok((shape.0, shape.1 || nullable));
        }
        if unions > 1 || (unions == 1 && others > 0) || (objects > 0 && others > 0) {
            self.warn(
                at,
                "allOf combines parts of different shapes (objects, unions, scalars or arrays); \
                 the value is kept as JSON (serde_json::Value)",
            );
            return Ok((TypeRef::Any, nullable));
        }
        if unions == 1 {
            let union = parts
                .iter()
                .find(|p| p.kind == PartKind::Union)
                .cloned()
                .expect("counted above");
            let mut base = ObjectShape::default();
            let mut discriminator = None;
            for part in parts.iter().filter(|p| p.kind == PartKind::Object) {
                base.add(&part.map, &part.at);
                discriminator = discriminator.or_else(|| part.map.get("discriminator").cloned());
            }
            let discriminator = union
                .map
                .get("discriminator")
                .or_else(|| map.get("discriminator"))
                .cloned()
                .or(discriminator);
            let (ty, n) = self.union_over(UnionSource {
                at,
                hint,
                docs: docs_of(map),
                base,
                union: &union.map,
                union_at: &union.at,
                discriminator: discriminator.as_ref(),
            })?;
            return Ok((ty, n || nullable));
        }
        if others > 0 {
            if others == 1
                && let Some(part) = parts.iter().find(|p| p.kind == PartKind::Other)
                && part.raw.get("$ref").is_some()
            {
                let (ty, n) = self.convert(&part.raw.clone(), &part.site.clone(), hint.clone())?;
                return Ok((ty, n || nullable));
            }
            let merged = merge_keywords(map, &parts);
            let (ty, n) = self.convert_shape(&Value::Object(merged), at, hint)?;
            return Ok((ty, n || nullable));
        }
        // Objects only: one struct with every part's members.
        if !self.slots.contains_key(at) {
            self.reserve(at, hint.clone(), docs_of(map), None);
        }
        let mut shape = ObjectShape::default();
        for part in parts.iter().filter(|p| p.kind == PartKind::Object) {
            shape.add(&part.map, &part.at);
        }
        let def = self.struct_from_shape(shape, at)?;
        self.set_kind(at, TypeKind::Struct(def));
        Ok((TypeRef::Pointer(at.to_string()), nullable))
    }

    /// The parts of the schema `map` at `at`, its `allOf` flattened.
    fn parts_of(&mut self, map: &Map<String, Value>, at: &str) -> Result<Vec<Part>> {
        let mut parts = Vec::new();
        let raw = Value::Object(map.clone());
        self.flatten(map, at, at, &raw, &mut parts, &mut Vec::new())?;
        // Object keywords written without `type` (`additionalProperties: false`, as Pydantic
        // writes beside a constrained string) bind only objects: beside a scalar, enum or
        // array part they constrain nothing that part allows, so they refine it.
        if parts.iter().any(|p| p.kind == PartKind::Other) {
            for part in &mut parts {
                if part.kind == PartKind::Object && only_implies_an_object(&part.map) {
                    part.kind = PartKind::Refinement;
                }
            }
        }
        Ok(parts)
    }

    /// Appends the parts of `map` (at `at`, written as `raw` at `site`): its `allOf` items,
    /// flattened, then what it says beside them.
    fn flatten(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        site: &str,
        raw: &Value,
        parts: &mut Vec<Part>,
        visiting: &mut Vec<String>,
    ) -> Result<()> {
        if visiting.iter().any(|seen| seen == at) || visiting.len() > 64 {
            self.warn(
                at,
                "allOf refers back to itself; the cycle adds nothing and is left out",
            );
            return Ok(());
        }
        visiting.push(at.to_string());
        if let Some(items) = map.get("allOf").and_then(Value::as_array) {
            for (index, item) in items.iter().enumerate() {
                let item_site = child(&child(at, "allOf"), &index.to_string());
                let (target, target_at) = self.doc.deref(item, &item_site)?;
                let Some(target_map) = target.as_object().cloned() else {
                    continue;
                };
                self.flatten(&target_map, &target_at, &item_site, item, parts, visiting)?;
            }
        }
        visiting.pop();
        let mut own = own_part(map);
        // A parent of a hierarchy (`Pet: {properties, oneOf: [Cat, Dog], discriminator}`)
        // that a child extends (`Cat: {allOf: [Pet, {lives}]}`) gives the child its members,
        // not its union: the child is one of the union's alternatives, and a Cat that were a
        // union of Cat and Dog would contain itself without end.
        if let Some(root) = visiting.first()
            && self.lists_reference_to(&own, at, &["oneOf", "anyOf"], root)
        {
            for key in ["oneOf", "anyOf", "discriminator"] {
                own.shift_remove(key);
            }
        }
        if let Some(kind) = classify(&own) {
            // A union written as `oneOf: [X, null]` is X, made nullable: flatten X instead.
            if kind == PartKind::Union
                && let Some((branch, branch_at)) = single_branch(&own, at)
            {
                let (target, target_at) = self.doc.deref(&branch, &branch_at)?;
                if let Some(target_map) = target.as_object().cloned() {
                    return self.flatten(
                        &target_map,
                        &target_at,
                        &branch_at,
                        &branch,
                        parts,
                        visiting,
                    );
                }
            }
            let raw = if map.contains_key("allOf") {
                Value::Object(own.clone())
            } else {
                raw.clone()
            };
            parts.push(Part {
                raw,
                site: site.to_string(),
                map: own,
                at: at.to_string(),
                kind,
            });
        }
        Ok(())
    }
}

/// The only non-null alternative of a `oneOf`/`anyOf`, when there is exactly one.
fn single_branch(map: &Map<String, Value>, at: &str) -> Option<(Value, String)> {
    for key in ["oneOf", "anyOf"] {
        if let Some(branches) = map.get(key).and_then(Value::as_array) {
            let rest: Vec<(usize, &Value)> = branches
                .iter()
                .enumerate()
                .filter(|(_, b)| !is_null_schema(b))
                .collect();
            if let [(index, only)] = rest.as_slice() {
                return Some(((*only).clone(), child(&child(at, key), &index.to_string())));
            }
        }
    }
    None
}

/// The keywords of every part in one schema (the first part to say something wins), with the
/// annotations of the schema holding the `allOf`.
fn merge_keywords(outer: &Map<String, Value>, parts: &[Part]) -> Map<String, Value> {
    let mut merged = Map::new();
    for part in parts {
        for (key, value) in &part.map {
            if key == "oneOf" || key == "anyOf" {
                continue;
            }
            merged.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    for key in ["description", "title"] {
        if let Some(value) = outer.get(key) {
            merged.insert(key.to_string(), value.clone());
        }
    }
    merged
}

impl Builder<'_> {
    /// Adds the members of an object schema (its `allOf` parts flattened) to `shape`; false,
    /// with `shape` untouched, when the schema is not an object.
    pub(super) fn gather_object(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        shape: &mut ObjectShape,
    ) -> Result<bool> {
        let parts = self.parts_of(map, at)?;
        let shaped = parts
            .iter()
            .any(|p| matches!(p.kind, PartKind::Union | PartKind::Other));
        if shaped || !parts.iter().any(|p| p.kind == PartKind::Object) {
            return Ok(false);
        }
        for part in parts.iter().filter(|p| p.kind == PartKind::Object) {
            shape.add(&part.map, &part.at);
        }
        Ok(true)
    }

    /// The keywords of a schema with its `allOf` parts merged (first part to say something
    /// wins), for reading facts off a scalar or array shape.
    pub(super) fn merged_keywords(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
    ) -> Result<Map<String, Value>> {
        if !map.contains_key("allOf") {
            return Ok(map.clone());
        }
        let parts = self.parts_of(map, at)?;
        Ok(merge_keywords(map, &parts))
    }
}
