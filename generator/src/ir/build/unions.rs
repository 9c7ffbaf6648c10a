//! `oneOf` / `anyOf`: the alternatives, the discriminator when the spec names one, and the
//! facts that tell the alternatives apart when it does not (see [`VariantFacts`]).
//!
//! Properties written beside the union (or in `allOf` parts around it) belong to every
//! alternative: each object alternative becomes a struct of those and its own.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::objects::ObjectShape;
use super::state::{
    Builder, COMPONENT_SCHEMAS, Converted, child, component_name, spec_error, string_at,
    wrap_nullable,
};
use crate::error::Result;
use crate::ir::naming::NameHint;
use crate::ir::schema::{is_null_schema, ref_as_all_of, types_of};
use crate::ir::{
    Discriminator, JsonKind, NumberRange, TextFormat, TypeKind, TypeRef, UnionDef, UnionVariant,
    VariantFacts,
};
use crate::load::escape_segment;

/// Where a union comes from.
pub(super) struct UnionSource<'s> {
    /// Pointer of the schema the union type is declared for.
    pub(super) at: &'s str,
    /// Name hint of that schema.
    pub(super) hint: &'s NameHint,
    /// Documentation of that schema.
    pub(super) docs: Option<String>,
    /// Members every alternative shares.
    pub(super) base: ObjectShape,
    /// The schema holding `oneOf` / `anyOf`.
    pub(super) union: &'s Map<String, Value>,
    /// Its pointer.
    pub(super) union_at: &'s str,
    /// The discriminator object that applies, if any.
    pub(super) discriminator: Option<&'s Value>,
}

/// The key of an alternative's schema that names it when nothing in the spec does (the
/// alternatives `type_lists` makes of a `type` list: `…Object`).
pub(super) const LABEL: &str = "x-specgen-label";

/// One level down, in the depth facts are read at: a member's, an item's or a nested
/// union's alternative.
const LEVEL: usize = 2;

/// The values of a map count half a level: they sit beside the map's own members (Mist's
/// `port_config` entries are what its ports are, one level below the device).
const MAP_VALUES: usize = 1;

/// How deep facts are read through references and nested schemas.
const FACT_DEPTH: usize = 16 * LEVEL;

/// How far below an alternative the facts of members and items are read: its members and
/// items, and theirs. Deeper facts would grow every union's table for rarer wins (a third
/// level doubles Stripe's).
const NESTED_FACT_DEPTH: usize = 2 * LEVEL;

impl Builder<'_> {
    /// A `oneOf` / `anyOf` written in `map` itself, properties beside it shared.
    pub(super) fn union(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        hint: &NameHint,
    ) -> Result<Converted> {
        let mut base = ObjectShape::default();
        base.add(map, at);
        self.union_over(UnionSource {
            at,
            hint,
            docs: crate::ir::schema::docs_of(map),
            base,
            union: map,
            union_at: at,
            discriminator: map.get("discriminator"),
        })
    }

    /// Declares the union type of `source` and returns a reference to it.
    pub(super) fn union_over(&mut self, source: UnionSource<'_>) -> Result<Converted> {
        let at = source.at;
        let (key, branches) = match (source.union.get("oneOf"), source.union.get("anyOf")) {
            (Some(Value::Array(list)), _) => ("oneOf", list.clone()),
            (_, Some(Value::Array(list))) => ("anyOf", list.clone()),
            _ => return Ok((TypeRef::Any, false)),
        };
        let nullable = branches.iter().any(is_null_schema);
        let rest: Vec<(usize, Value)> = branches
            .into_iter()
            .enumerate()
            .filter(|(_, branch)| !is_null_schema(branch))
            .collect();
        if rest.is_empty() {
            return Ok((TypeRef::Any, true));
        }
        if self.slots.contains_key(at)
            && !matches!(self.slots[at].def.kind, TypeKind::Alias(TypeRef::Any))
        {
            return Ok((TypeRef::Pointer(at.to_string()), nullable));
        }
        if !self.slots.contains_key(at) {
            self.reserve(at, source.hint.clone(), source.docs.clone(), None);
        }
        let has_base = !source.base.is_empty();
        let base_schema = match has_base {
            true => Some(self.base_contract(&source.base)?),
            false => None,
        };

        let mut variants = Vec::new();
        let mut refs_to_index = HashMap::new();
        for (index, branch) in &rest {
            let branch_at = child(&child(source.union_at, key), &index.to_string());
            // The same alternative listed twice (Stream's `ChatEvent` lists `AnyEvent` once per
            // tag it maps to it) is one variant: a second would take every value its tags
            // name, the first none. Only the very same schema: 3.1's `{$ref: Base, properties:
            // …}` beside a bare `Base` is another alternative.
            if rest
                .iter()
                .take_while(|(earlier, _)| earlier < index)
                .any(|(_, earlier)| earlier == branch)
            {
                continue;
            }
            if let Some(reference) = branch.get("$ref").and_then(Value::as_str) {
                let reference = crate::load::canonical_pointer(reference)
                    .unwrap_or_else(|| reference.to_string());
                refs_to_index.insert(reference, variants.len());
            }
            let (target, target_at) = self.doc.deref(branch, &branch_at)?;
            let target_map = target.as_object().cloned().unwrap_or_default();
            let mut shape = source.base.clone();
            // A child that extends the union's owner itself (`Cat: {allOf: [Pet, …]}` under
            // `Pet: {properties, oneOf: [Cat, Dog]}`) already has the base's members: it is its
            // own type, not a copy of it with the base merged in.
            let merged = has_base
                && !self.lists_reference_to(&target_map, &target_at, &["allOf"], at)
                && self.gather_object(&target_map, &target_at, &mut shape)?;
            let branch_schema = self.contract_schema(branch, &branch_at)?;
            let variant = if merged {
                let merged_at = format!("{at}/x-specgen-variant/{index}");
                let facts = self.object_facts(&shape, 0)?;
                let variant_hint = match component_name(&target_at) {
                    Some(name) => NameHint::child_of(at, &name),
                    None => NameHint::child_of(at, &label(&target_map, &facts, *index)),
                };
                if !self.slots.contains_key(&merged_at) {
                    self.reserve(&merged_at, variant_hint, None, None);
                }
                let def = self.struct_from_shape(shape, &merged_at)?;
                self.set_kind(&merged_at, TypeKind::Struct(def));
                let schema = match &base_schema {
                    Some(base) => json!({ "allOf": [base, branch_schema] }),
                    None => branch_schema,
                };
                UnionVariant {
                    rust_name: String::new(),
                    ty: TypeRef::Pointer(merged_at),
                    facts,
                    schema,
                    boxed: false,
                }
            } else {
                let mut facts = self.facts_of(branch, &branch_at, 0)?;
                let (ty, n) = self.convert(
                    branch,
                    &branch_at,
                    NameHint::child_of(at, &label(&target_map, &facts, *index)),
                )?;
                if n && !facts.kinds.is_empty() && !facts.kinds.contains(&JsonKind::Null) {
                    facts.kinds.push(JsonKind::Null);
                }
                let schema = match &base_schema {
                    Some(base) => json!({ "allOf": [base, branch_schema] }),
                    None => branch_schema,
                };
                UnionVariant {
                    rust_name: String::new(),
                    ty: wrap_nullable(ty, n),
                    facts,
                    schema,
                    boxed: false,
                }
            };
            variants.push(variant);
        }

        // An alternative that admits null (`{type: object, nullable: true}` as "none") makes
        // the union admit it, so a null stays a null where the union is used.
        let nullable = nullable
            || variants
                .iter()
                .any(|v| matches!(v.ty, TypeRef::Nullable(_)));
        let discriminator = match source.discriminator.and_then(Value::as_object) {
            Some(disc) => Some(self.discriminator(disc, source.union_at, key, &refs_to_index)?),
            None => None,
        };
        self.set_kind(
            at,
            TypeKind::Union(UnionDef {
                variants,
                discriminator,
                catch_all: String::new(),
                exclusive: key == "oneOf",
            }),
        );
        Ok((TypeRef::Pointer(at.to_string()), nullable))
    }

    fn discriminator(
        &mut self,
        disc: &Map<String, Value>,
        at: &str,
        key: &str,
        refs_to_index: &HashMap<String, usize>,
    ) -> Result<Discriminator> {
        let property = string_at(disc, "propertyName")
            .ok_or_else(|| {
                spec_error(
                    self.doc,
                    &child(at, "discriminator"),
                    "discriminator without propertyName",
                )
            })?
            .to_string();
        let mut mapping = Vec::new();
        let mut mapped = HashSet::new();
        if let Some(explicit) = disc.get("mapping").and_then(Value::as_object) {
            for (value, target) in explicit {
                let Some(target) = target.as_str() else {
                    continue;
                };
                let reference = if target.starts_with('#') {
                    crate::load::canonical_pointer(target).unwrap_or_else(|| target.to_string())
                } else {
                    format!("{COMPONENT_SCHEMAS}{}", escape_segment(target))
                };
                let Some(index) = refs_to_index.get(&reference).copied() else {
                    self.warn(
                        &child(&child(at, "discriminator"), "mapping"),
                        format!(
                            "discriminator maps '{value}' to '{target}', which is not one of the \
                             {key} alternatives; a value tagged '{value}' is kept as JSON"
                        ),
                    );
                    continue;
                };
                mapped.insert(index);
                mapping.push((value.clone(), index));
            }
        }
        let mut implicit: Vec<(String, usize)> = refs_to_index
            .iter()
            .filter(|(_, index)| !mapped.contains(index))
            .filter_map(|(reference, index)| component_name(reference).map(|name| (name, *index)))
            .collect();
        implicit.sort_by_key(|(_, index)| *index);
        mapping.extend(implicit);
        Ok(Discriminator {
            property,
            mapping,
            fallback: None,
            untold: Vec::new(),
        })
    }

    /// The facts of an alternative's schema (references followed, `allOf` merged).
    pub(super) fn facts_of(
        &mut self,
        schema: &Value,
        at: &str,
        depth: usize,
    ) -> Result<VariantFacts> {
        if depth > FACT_DEPTH {
            return Ok(VariantFacts::default());
        }
        // A `$ref` with assertions beside it is the `allOf` of both (3.1): its facts are the
        // merged schema's, not the referenced one's alone.
        let beside = schema.as_object().and_then(|map| {
            let reference = map.get("$ref")?.as_str()?;
            self.asserts_beside_ref(map)
                .then(|| ref_as_all_of(map, reference))
        });
        let (map, target_at) = match beside {
            Some(map) => (map, at.to_owned()),
            None => {
                let (target, target_at) = self.doc.deref(schema, at)?;
                let Some(map) = target.as_object().cloned() else {
                    return Ok(VariantFacts::default());
                };
                (map, target_at)
            }
        };
        let mut shape = ObjectShape::default();
        if self.gather_object(&map, &target_at, &mut shape)? {
            let mut facts = self.object_facts(&shape, depth)?;
            facts.member_count = count(&map, "minProperties", "maxProperties");
            if types_of(&map).1 {
                facts.kinds.push(JsonKind::Null);
            }
            return Ok(facts);
        }
        // A nested union: what any of its alternatives accepts.
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = map.get(key).and_then(Value::as_array) {
                let mut kinds = Vec::new();
                for (index, branch) in branches.iter().enumerate() {
                    let branch_at = child(&child(&target_at, key), &index.to_string());
                    let facts = if is_null_schema(branch) {
                        VariantFacts {
                            kinds: vec![JsonKind::Null],
                            ..VariantFacts::default()
                        }
                    } else {
                        self.facts_of(branch, &branch_at, depth + LEVEL)?
                    };
                    if facts.kinds.is_empty() {
                        return Ok(VariantFacts::default());
                    }
                    kinds.extend(facts.kinds);
                }
                kinds.sort();
                kinds.dedup();
                return Ok(VariantFacts {
                    kinds,
                    ..VariantFacts::default()
                });
            }
        }
        let merged = self.merged_keywords(&map, &target_at)?;
        let mut facts = scalar_facts(&merged);
        if let Some(Value::Array(prefix)) = merged.get("prefixItems") {
            if merged.get("items") == Some(&Value::Bool(false)) {
                let (min, max) = facts.item_count.unwrap_or((0, None));
                let len = prefix.len() as u64;
                facts.item_count = Some((min, Some(max.map_or(len, |max| max.min(len)))));
            }
            // Each position's facts, its JSON types at least: a tuple's Rust type may take
            // any item.
            if depth < NESTED_FACT_DEPTH {
                for (index, item) in prefix.iter().enumerate() {
                    let item_at = child(&child(&target_at, "prefixItems"), &index.to_string());
                    let item = self.facts_of(item, &item_at, depth + LEVEL)?;
                    facts.prefix_items.push(item.nested());
                }
            }
        }
        if depth < NESTED_FACT_DEPTH
            && let Some(items) = merged.get("items").filter(|items| items.is_object())
        {
            let items_at = child(&target_at, "items");
            let items = self.facts_of(items, &items_at, depth + LEVEL)?;
            if items.says_more_than_its_kind() {
                facts.items = Some(Box::new(items.nested()));
            }
        }
        Ok(facts)
    }

    /// The shared members as a schema, for the contract form of a merged alternative.
    fn base_contract(&mut self, base: &ObjectShape) -> Result<Value> {
        let mut properties = Map::new();
        for (name, (schema, at)) in &base.properties {
            properties.insert(name.clone(), self.contract_schema(schema, at)?);
        }
        let mut required: Vec<&String> = base.required.iter().collect();
        required.sort();
        let mut out = Map::new();
        if !properties.is_empty() {
            out.insert("properties".into(), Value::Object(properties));
        }
        if !required.is_empty() {
            out.insert("required".into(), json!(required));
        }
        Ok(Value::Object(out))
    }

    /// The facts of an object alternative.
    pub(super) fn object_facts(
        &mut self,
        shape: &ObjectShape,
        depth: usize,
    ) -> Result<VariantFacts> {
        // A `readOnly` or `writeOnly` member is required in one direction only, and one type
        // reads both (Train Travel's card `cvc`, written but never returned): it ranks the
        // alternative rather than rules it out.
        let (mut one_way, mut required): (Vec<String>, Vec<String>) =
            shape.required.iter().cloned().partition(|name| {
                shape
                    .properties
                    .get(name)
                    .is_some_and(|(schema, _)| self.one_way(schema).is_some())
            });
        required.sort();
        one_way.sort();
        let mut tags = Vec::new();
        let mut members = Vec::new();
        for (name, (schema, prop_at)) in &shape.properties {
            let tagged = match self.tag_values(schema, prop_at, depth)? {
                Some(values) => {
                    tags.push((name.clone(), values));
                    true
                }
                None => false,
            };
            if depth < NESTED_FACT_DEPTH {
                let mut facts = self.facts_of(schema, prop_at, depth + LEVEL)?;
                if tagged {
                    // The tag says it already.
                    facts.values = None;
                }
                if facts.says_more_than_its_kind() {
                    members.push((name.clone(), facts.nested()));
                }
            }
        }
        // What members it does not declare must be, unless a base's subtypes may declare them
        // or a pattern claims them.
        let additional = match &shape.additional {
            Some((schema @ Value::Object(_), additional_at))
                if depth < NESTED_FACT_DEPTH && !shape.extended && !shape.patterned =>
            {
                let facts = self.facts_of(schema, additional_at, depth + MAP_VALUES)?;
                facts
                    .says_more_than_its_kind()
                    .then(|| Box::new(facts.nested()))
            }
            _ => None,
        };
        Ok(VariantFacts {
            kinds: vec![JsonKind::Object],
            required,
            one_way,
            tags,
            declared: shape.properties.keys().cloned().collect(),
            // `unevaluatedProperties: false` closes the object over the members its parts
            // declare, unless a pattern or an `additionalProperties` schema evaluates others.
            closed: shape.is_closed()
                || (shape.unevaluated_closed && !shape.patterned && shape.additional.is_none()),
            members,
            additional,
            ..VariantFacts::default()
        })
    }

    /// The values a member may take when its schema fixes them (`const`, or a closed `enum`,
    /// through references, a one-part `allOf` and a nullable wrapper).
    fn tag_values(&mut self, schema: &Value, at: &str, depth: usize) -> Result<Option<Vec<Value>>> {
        if depth > FACT_DEPTH {
            return Ok(None);
        }
        let (target, target_at) = self.doc.deref(schema, at)?;
        let Some(map) = target.as_object() else {
            return Ok(None);
        };
        if let Some(value) = map.get("const") {
            return Ok(Some(vec![value.clone()]));
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            return Ok(Some(values.clone()));
        }
        if let Some(Value::Array(parts)) = map.get("allOf")
            && let [only] = parts.as_slice()
        {
            let part_at = child(&child(&target_at, "allOf"), "0");
            return self.tag_values(only, &part_at, depth + 1);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                let rest: Vec<(usize, &Value)> = branches
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| !is_null_schema(b))
                    .collect();
                if let [(index, only)] = rest.as_slice() {
                    let branch_at = child(&child(&target_at, key), &index.to_string());
                    let values = self.tag_values(only, &branch_at, depth + 1)?;
                    return Ok(values.map(|mut values| {
                        if rest.len() < branches.len() {
                            values.push(Value::Null);
                        }
                        values
                    }));
                }
            }
        }
        Ok(None)
    }
}

/// A name for an inline alternative, from what tells it apart: its `title`, the value of its
/// one-value tag (`type: {enum: [ukLocal]}` → `ukLocal`), or its one or two required members;
/// `Variant<index>` when none says anything.
fn label(schema: &Map<String, Value>, facts: &VariantFacts, index: usize) -> String {
    if let Some(title) = schema
        .get("title")
        .or_else(|| schema.get(LABEL))
        .and_then(Value::as_str)
        && !title.trim().is_empty()
        && title != "null"
    {
        return title.to_string();
    }
    let tag = facts
        .tags
        .iter()
        .find_map(|(_, values)| match values.as_slice() {
            [Value::String(value)] => Some(value.clone()),
            _ => None,
        });
    if let Some(tag) = tag {
        return tag;
    }
    match facts.required.as_slice() {
        [one] => one.clone(),
        [first, second] => format!("{first} and {second}"),
        _ => format!("Variant{index}"),
    }
}

/// Facts of a scalar or array schema: its JSON types and, for a closed `enum` or `const`, its
/// values.
fn scalar_facts(map: &Map<String, Value>) -> VariantFacts {
    let (types, nullable) = types_of(map);
    let values = match (map.get("const"), map.get("enum")) {
        (Some(value), _) => Some(vec![value.clone()]),
        (None, Some(Value::Array(values))) => Some(values.clone()),
        _ => None,
    };
    let mut kinds: Vec<JsonKind> = types
        .iter()
        .filter_map(|t| JsonKind::from_name(t))
        .collect();
    if kinds.is_empty() {
        if let Some(values) = &values {
            kinds = values.iter().map(JsonKind::of).collect();
        } else if map.contains_key("items") {
            kinds.push(JsonKind::Array);
        }
    }
    if nullable && !kinds.is_empty() {
        kinds.push(JsonKind::Null);
    }
    kinds.sort();
    kinds.dedup();
    let pattern = map.get("pattern").and_then(Value::as_str);
    let prefixes = pattern.map(pattern_prefixes).unwrap_or_default();
    let alphabet = pattern.and_then(pattern_alphabet);
    let format = map
        .get("format")
        .and_then(Value::as_str)
        .and_then(TextFormat::named);
    VariantFacts {
        kinds,
        values,
        prefixes,
        format,
        range: number_range(map),
        length: string_length(map),
        item_count: count(map, "minItems", "maxItems"),
        excluded: excluded_values(map),
        alphabet,
        multiple_of: map
            .get("multipleOf")
            .and_then(Value::as_f64)
            .filter(|step| *step > 0.0 && step.is_finite()),
        ..VariantFacts::default()
    }
}

/// The values `not` forbids when it names nothing but them (`not: {const: auto}`, `not:
/// {enum: [a, b]}`): beside another keyword (`not: {enum: [a], type: integer}`) the value is
/// forbidden only when it also meets that keyword.
fn excluded_values(map: &Map<String, Value>) -> Vec<Value> {
    let Some(Value::Object(not)) = map.get("not") else {
        return Vec::new();
    };
    let only_values = not
        .keys()
        .all(|key| matches!(key.as_str(), "const" | "enum" | "title" | "description"));
    match (not.get("const"), not.get("enum")) {
        _ if !only_values => Vec::new(),
        (Some(value), _) => vec![value.clone()],
        (None, Some(Value::Array(values))) => values.clone(),
        _ => Vec::new(),
    }
}

/// A lower and an optional upper bound on a count (`minItems`/`maxItems`,
/// `minProperties`/`maxProperties`), when either is written.
fn count(map: &Map<String, Value>, min: &str, max: &str) -> Option<(u64, Option<u64>)> {
    let min = map.get(min).and_then(Value::as_u64);
    let max = map.get(max).and_then(Value::as_u64);
    (min.is_some() || max.is_some()).then(|| (min.unwrap_or(0), max))
}

/// `minLength` and `maxLength`, when either is written.
fn string_length(map: &Map<String, Value>) -> Option<(u64, Option<u64>)> {
    count(map, "minLength", "maxLength")
}

/// The bounds a schema sets on a number: `minimum`/`maximum`, and `exclusiveMinimum`/
/// `exclusiveMaximum` as numbers (3.1) or as flags on the others (3.0); the stricter bound
/// when both are written.
fn number_range(map: &Map<String, Value>) -> Option<NumberRange> {
    let bound = |inclusive: &str, exclusive: &str, stricter: fn(f64, f64) -> bool| {
        let lower = inclusive == "minimum";
        let flag = map.get(exclusive).and_then(Value::as_bool).unwrap_or(false);
        let written = map
            .get(inclusive)
            .and_then(|value| widened(value, lower))
            .map(|value| (value, flag));
        let exclusive = map
            .get(exclusive)
            .and_then(|value| widened(value, lower))
            .map(|value| (value, true));
        match (written, exclusive) {
            (Some(a), Some(b)) => Some(if stricter(b.0, a.0) || b.0 == a.0 {
                b
            } else {
                a
            }),
            (a, b) => a.or(b),
        }
    };
    let range = NumberRange {
        min: bound("minimum", "exclusiveMinimum", |a, b| a > b),
        max: bound("maximum", "exclusiveMaximum", |a, b| a < b),
    };
    (range.min.is_some() || range.max.is_some()).then_some(range)
}

/// A bound as an `f64`, rounded outward (a lower bound down, an upper one up) where the
/// integer written has no `f64` of its own (beyond 2^53): a fact may be weaker than the
/// schema, never stricter.
fn widened(value: &Value, lower: bool) -> Option<f64> {
    let float = value.as_f64()?;
    let written = value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from));
    Some(match written {
        Some(written) if lower && (float as i128) > written => float.next_down(),
        Some(written) if !lower && (float as i128) < written => float.next_up(),
        _ => float,
    })
}

/// The literal texts every string matching `pattern` begins with, when the pattern is anchored
/// at the start of the string (`^Replaced by (serie|tournament) [0-9]+$` gives `Replaced by
/// serie ` and `Replaced by tournament `); empty when it is not, or when the set is unbounded.
///
/// Unions of strings told apart only by their patterns (pandascore's deletion reasons) need
/// this: a model crate has no regex engine, but a prefix test rules the wrong alternatives out.
/// Each prefix is a necessary condition, never a sufficient one, so a fact can only be missing,
/// never wrong: a pattern in a syntax regex-syntax does not read (a look-ahead, a
/// back-reference, an ECMA-only escape) gives none, and its classes (`\d`, `.`) are at least
/// as wide as ECMA-262's, which JSON Schema's patterns follow.
fn pattern_prefixes(pattern: &str) -> Vec<String> {
    use regex_syntax::hir::Look;
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    let Ok(hir) = regex_syntax::Parser::new().parse(pattern) else {
        return Vec::new();
    };
    // Literal prefixes are prefixes of the match; only `^` makes them the string's.
    if !hir.properties().look_set_prefix().contains(Look::Start) {
        return Vec::new();
    }
    // A class of several characters ends a prefix rather than multiplying it (`[0-9]` would
    // make ten), and a long list of alternatives is left unread: the facts stay small.
    let seq = Extractor::new()
        .kind(ExtractKind::Prefix)
        .limit_class(1)
        .limit_total(16)
        .extract(&hir);
    let Some(literals) = seq.literals() else {
        return Vec::new();
    };
    let mut prefixes = Vec::with_capacity(literals.len());
    for literal in literals {
        match std::str::from_utf8(literal.as_bytes()) {
            // An empty prefix says nothing, and so says nothing for the whole set.
            Ok("") | Err(_) => return Vec::new(),
            Ok(text) => prefixes.push(text.to_owned()),
        }
    }
    prefixes.sort();
    prefixes.dedup();
    prefixes
}

/// The most ranges an alphabet fact holds: beyond, the pattern's classes are too wide to say
/// much (Unicode's letters), and the fact would only grow the union's table.
const ALPHABET_RANGES: usize = 16;

/// The most characters an alphabet fact admits: more, and it rules nearly nothing out.
const ALPHABET_CHARACTERS: u32 = 1_000;

/// The characters every string matching `pattern` is made of, when the pattern is anchored at
/// both ends (`^[0-9]+$`, `^[A-Z]{2}-\d{4}$`): every character of such a match comes from one
/// of its literals or classes. `\d`, `\w` and `\s` are ASCII, as ECMA-262 (and the contract's
/// pattern checks) read them. `None` when the pattern is not anchored so, is not read, or its
/// classes are too wide to tell anything apart.
fn pattern_alphabet(pattern: &str) -> Option<Vec<(char, char)>> {
    use regex_syntax::hir::{Class, HirKind, Look};
    let ascii = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .build()
        .parse(pattern)
        .ok();
    let hir = match ascii {
        Some(hir) => hir,
        None => regex_syntax::Parser::new().parse(pattern).ok()?,
    };
    let looks = (
        hir.properties().look_set_prefix(),
        hir.properties().look_set_suffix(),
    );
    if !looks.0.contains(Look::Start) || !looks.1.contains(Look::End) {
        return None;
    }
    fn gather(hir: &regex_syntax::hir::Hir, ranges: &mut Vec<(char, char)>) -> Option<()> {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Literal(literal) => {
                for c in std::str::from_utf8(&literal.0).ok()?.chars() {
                    ranges.push((c, c));
                }
            }
            HirKind::Class(Class::Unicode(class)) => {
                ranges.extend(class.ranges().iter().map(|r| (r.start(), r.end())));
            }
            HirKind::Class(Class::Bytes(class)) => {
                for range in class.ranges() {
                    // A byte class beyond ASCII is no character class.
                    if !range.end().is_ascii() {
                        return None;
                    }
                    ranges.push((char::from(range.start()), char::from(range.end())));
                }
            }
            HirKind::Repetition(repetition) => gather(&repetition.sub, ranges)?,
            HirKind::Capture(capture) => gather(&capture.sub, ranges)?,
            HirKind::Concat(parts) | HirKind::Alternation(parts) => {
                for part in parts {
                    gather(part, ranges)?;
                }
            }
        }
        Some(())
    }
    let mut ranges = Vec::new();
    gather(&hir, &mut ranges)?;
    ranges.sort_unstable();
    let mut merged: Vec<(char, char)> = Vec::new();
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if u32::from(start) <= u32::from(last.1) + 1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    // A class nearly everything is in (`.`, `[^a]`) tells nothing apart.
    let covered: u32 = merged
        .iter()
        .map(|(start, end)| u32::from(*end) - u32::from(*start) + 1)
        .sum();
    (merged.len() <= ALPHABET_RANGES && covered <= ALPHABET_CHARACTERS).then_some(merged)
}

#[cfg(test)]
mod tests {
    use super::{number_range, pattern_alphabet, pattern_prefixes};

    #[test]
    fn an_anchored_patterns_alphabet_is_its_classes_and_literals() {
        assert_eq!(pattern_alphabet("^[0-9]+$"), Some(vec![('0', '9')]));
        assert_eq!(
            pattern_alphabet("^[A-Z]{2}-\\d{4}$"),
            Some(vec![('-', '-'), ('0', '9'), ('A', 'Z')])
        );
        assert_eq!(pattern_alphabet("^(ab|cd)$"), Some(vec![('a', 'd')]));
        // Unanchored at either end, or too wide: nothing said.
        assert_eq!(pattern_alphabet("[0-9]+$"), None);
        assert_eq!(pattern_alphabet("^[0-9]+"), None);
        assert_eq!(pattern_alphabet("^.+$"), None);
        assert_eq!(pattern_alphabet("^[^a]+$"), None);
        assert_eq!(pattern_alphabet("^é+$"), Some(vec![('é', 'é')]));
    }
    use crate::ir::NumberRange;

    #[test]
    fn number_bounds_read_in_either_version_the_stricter_kept() {
        let range = |schema: serde_json::Value| number_range(schema.as_object().unwrap());
        assert_eq!(
            range(serde_json::json!({"minimum": 0, "maximum": 10})),
            Some(NumberRange {
                min: Some((0.0, false)),
                max: Some((10.0, false))
            })
        );
        // OpenAPI 3.0's flags and 3.1's numbers say the same.
        let open = Some(NumberRange {
            min: Some((10.0, true)),
            max: None,
        });
        assert_eq!(
            range(serde_json::json!({"minimum": 10, "exclusiveMinimum": true})),
            open
        );
        assert_eq!(range(serde_json::json!({"exclusiveMinimum": 10})), open);
        assert_eq!(
            range(serde_json::json!({"minimum": 10, "exclusiveMinimum": 10})),
            open
        );
        assert_eq!(
            range(serde_json::json!({"minimum": 12, "exclusiveMinimum": 10})),
            Some(NumberRange {
                min: Some((12.0, false)),
                max: None
            })
        );
        assert_eq!(range(serde_json::json!({"type": "integer"})), None);
        // 2^53 + 3 has no f64: rounded to the nearest it would be 2^53 + 4, stricter than the
        // schema; as a lower bound it is rounded down instead.
        let big = range(serde_json::json!({"minimum": 9_007_199_254_740_995_u64})).unwrap();
        assert!((big.min.unwrap().0 as i128) <= 9_007_199_254_740_995);
        let big = range(serde_json::json!({"maximum": 9_007_199_254_740_995_u64})).unwrap();
        assert!((big.max.unwrap().0 as i128) >= 9_007_199_254_740_995);
    }

    #[test]
    fn an_anchored_pattern_gives_the_literals_every_match_begins_with() {
        assert_eq!(
            pattern_prefixes("^Replaced by (serie|tournament) [0-9]+$"),
            ["Replaced by serie ", "Replaced by tournament "]
        );
        assert_eq!(pattern_prefixes("^Merged with [0-9]+$"), ["Merged with "]);
        assert_eq!(
            pattern_prefixes("^(acct|ent)_[a-z0-9]+$"),
            ["acct_", "ent_"]
        );
        assert_eq!(pattern_prefixes("^Deleted$"), ["Deleted"]);
    }

    #[test]
    fn a_pattern_that_does_not_fix_the_start_gives_nothing() {
        // Unanchored: the literal may be anywhere in the string.
        assert!(pattern_prefixes("Merged with [0-9]+").is_empty());
        // Anchored in one branch only.
        assert!(pattern_prefixes("^a|b").is_empty());
        // Anchored, but the first character is any of many.
        assert!(pattern_prefixes("^[0-9]{3}-x$").is_empty());
        assert!(pattern_prefixes("^.*x$").is_empty());
        // Anchored, with an optional literal: either may begin the string.
        assert_eq!(pattern_prefixes("^(v1)?x"), ["v1x", "x"]);
        // ECMA-262 syntax regex-syntax does not read: no fact rather than a wrong one.
        assert!(pattern_prefixes("^(?=x)x").is_empty());
        assert!(pattern_prefixes("^(a)\\1").is_empty());
        assert!(pattern_prefixes("[").is_empty());
    }
}
