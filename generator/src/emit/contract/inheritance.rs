//! A `discriminator` on a base schema that others extend with `allOf`: OpenAPI's inheritance.
//! `Pet` names `petType` as its discriminator and `Cat` is `allOf: [Pet, {huntingSkill…}]`; a
//! value checked against `Pet` whose `petType` is `Cat` must be a valid `Cat`. JSON Schema
//! checks it as a `Pet` only, so a cat without its `huntingSkill` passed, and every member
//! only a subtype declares looked undocumented to the drift report.
//!
//! In each bundled file, such a base becomes a dispatcher: the value is checked against the
//! subtype its discriminator names, or against the base alone when it names none (an unknown
//! tag stays lenient, as the bindings are). The subtypes' own `allOf` reach the base as it was
//! written, kept under the dispatcher's `$defs/base`, so a subtype never dispatches again.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::discriminator::{DEPTH, pinned};
use super::{component_of, def_ref};
use crate::ir::inheritance::{all_of_refs, base_discriminator, descendants, mapping};

/// Where a dispatcher keeps the base schema as written.
const BASE: &str = "base";

/// Where a dispatcher keeps the base without its `additionalProperties`, for the subtypes
/// that extend it (see [`close_as_a_whole`]).
const OPEN: &str = "open";

/// The components a base schema stands for (see [`crate::ir::inheritance::subtypes`]): they
/// join every bundle that needs the base.
pub(crate) fn subtypes(
    name: &str,
    schema: &Value,
    components: &BTreeMap<&str, &Value>,
) -> Vec<String> {
    crate::ir::inheritance::subtypes(name, schema, components, component_of)
}

/// Turns every base schema under `root`'s `$defs` (a bundled contract file, refs as
/// `#/$defs/…`) into a dispatcher to its subtypes.
pub(crate) fn dispatch_to_subtypes(root: &mut Value) {
    open_closed_bases(root);
    let Some(Value::Object(defs)) = root.get("$defs") else {
        return;
    };
    let named = named_refs(defs);
    let mut plans: Vec<(String, Plan)> = defs
        .iter()
        .filter_map(|(name, schema)| {
            let discriminator = base_discriminator(schema)?;
            Some((
                name.clone(),
                plan(root, defs, &named, name, discriminator, false)?,
            ))
        })
        .collect();
    if plans.is_empty() {
        return;
    }
    plans.extend(intermediate_plans(root, defs, &named, &plans));
    let plain: BTreeMap<String, String> = plans
        .iter()
        .map(|(name, _)| (def_ref(name), base_ref(name)))
        .collect();
    let extenders: Vec<(String, String)> = plans
        .iter()
        .flat_map(|(base, _)| {
            let reference = def_ref(base);
            defs.iter()
                .filter(move |(_, schema)| all_of_refs(schema).any(|r| r == reference))
                .map(move |(sub, _)| (sub.clone(), base.clone()))
        })
        .collect();
    let closed: BTreeMap<String, Value> = plans
        .iter()
        .filter_map(|(base, _)| Some((base.clone(), closing(defs.get(base)?)?.clone())))
        .collect();
    let Some(Value::Object(defs)) = root.get_mut("$defs") else {
        return;
    };
    // Wherever a component *is* a base (an `allOf` part, a `$ref` alias, an alternative),
    // it is the base as written: only a place that holds a base's value dispatches. This also
    // keeps the dispatch free of cycles, since no component reaches a dispatcher without
    // stepping into a member or an item of its value first.
    for schema in defs.values_mut() {
        to_plain_base(schema, &plain);
    }
    for (sub, base) in extenders {
        let bases: Vec<ClosedBase> = closed
            .get(&base)
            .map(|closing| ClosedBase {
                reference: base_ref(&base),
                open: open_ref(&base),
                closing: closing.clone(),
            })
            .into_iter()
            .collect();
        if let Some(schema) = defs.get_mut(&sub) {
            close_as_a_whole(schema, &bases);
        }
    }
    for (name, plan) in plans {
        if let Some(schema) = defs.get_mut(&name) {
            let base = std::mem::take(schema);
            *schema = dispatcher(&name, base, plan);
        }
    }
}

/// The `additionalProperties` of a schema that closes it to members it does not declare.
fn closing(schema: &Value) -> Option<&Value> {
    schema
        .as_object()
        .filter(|map| closes(map))?
        .get("additionalProperties")
}

fn closes(schema: &Map<String, Value>) -> bool {
    schema
        .get("additionalProperties")
        .is_some_and(|closing| *closing != Value::Bool(true))
}

/// Lets a subtype that extends bases with `allOf` hold the members of all its parts.
///
/// JSON Schema's `additionalProperties` sees only the members declared beside it, so a base
/// that closes its members (`additionalProperties: false`, or Azure's `{type: object}`), or a
/// subtype part that closes its own, refuses every member the other parts declare; OpenAPI's
/// inheritance means the members of all of them. Each closing moves to the subtype as
/// `unevaluatedProperties`, which sees the members every part declares, and the subtype
/// extends each closed base (`bases`: the `$ref` it extends it by, the `$ref` of the base
/// without its closing, and the closing) through its open copy.
fn close_as_a_whole(schema: &mut Value, bases: &[ClosedBase]) {
    let Value::Object(map) = schema else {
        return;
    };
    if map.contains_key("unevaluatedProperties") {
        return;
    }
    let mut closings: Vec<Value> = Vec::new();
    if closes(map) {
        closings.extend(map.remove("additionalProperties"));
    }
    if let Some(Value::Array(parts)) = map.get_mut("allOf") {
        for part in parts {
            let Value::Object(part) = part else {
                continue;
            };
            match part.get_mut("$ref") {
                Some(Value::String(reference)) => {
                    if let Some(base) = bases.iter().find(|base| base.reference == *reference) {
                        reference.clone_from(&base.open);
                        closings.push(base.closing.clone());
                    }
                }
                _ => {
                    if closes(part) {
                        closings.extend(part.remove("additionalProperties"));
                    }
                }
            }
        }
    }
    let unevaluated = match closings.len() {
        0 => return,
        1 => closings.remove(0),
        _ => json!({"allOf": closings}),
    };
    map.insert("unevaluatedProperties".into(), unevaluated);
}

/// A base that closes its members, as its subtypes extend it (see [`close_as_a_whole`]).
struct ClosedBase {
    /// The `$ref` a subtype's `allOf` names it by.
    reference: String,
    /// The `$ref` of its copy without the closing.
    open: String,
    /// Its `additionalProperties`.
    closing: Value,
}

/// Bases without a discriminator that close their members (`additionalProperties: false`, or
/// Azure's `{type: object}`: Graph RBAC's `UserBase`) and that other components of the bundle,
/// or the file's own schemas, extend with `allOf`: each such subtype holds the members of all
/// its parts ([`close_as_a_whole`]), through an open copy of the base kept in the base's own
/// `$defs` (which leaves the base, where it is used as itself, as written). Without it, every
/// member a subtype declares was refused: the generated server answered 400 to its own
/// client's `UserUpdateParameters`.
fn open_closed_bases(root: &mut Value) {
    let Some(Value::Object(defs)) = root.get("$defs") else {
        return;
    };
    let closed: BTreeMap<String, ClosedBase> = defs
        .iter()
        .filter(|(_, schema)| base_discriminator(schema).is_none())
        .filter(|(_, schema)| schema.get("$defs").is_none())
        .filter_map(|(name, schema)| {
            let closing = closing(schema)?.clone();
            Some((
                name.clone(),
                ClosedBase {
                    reference: def_ref(name),
                    open: open_ref(name),
                    closing,
                },
            ))
        })
        .collect();
    if closed.is_empty() {
        return;
    }
    let extended = |schema: &Value| -> Vec<&str> {
        all_of_refs(schema)
            .filter_map(|reference| {
                closed
                    .iter()
                    .find(|(_, base)| base.reference == reference)
                    .map(|(name, _)| name.as_str())
            })
            .collect()
    };
    let mut opened: Vec<String> = Vec::new();
    let mut subtypes: Vec<String> = Vec::new();
    for (name, schema) in defs {
        let bases = extended(schema);
        if !bases.is_empty() {
            subtypes.push(name.clone());
            opened.extend(bases.into_iter().map(str::to_string));
        }
    }
    let roots = own_roots(root);
    for index in &roots {
        let schema = match index {
            Some(index) => &root[super::ROOTS][*index],
            None => &*root,
        };
        opened.extend(extended(schema).into_iter().map(str::to_string));
    }
    if opened.is_empty() {
        return;
    }
    let bases: Vec<ClosedBase> = closed.into_values().collect();
    let Some(Value::Object(defs)) = root.get_mut("$defs") else {
        return;
    };
    for name in &opened {
        if let Some(Value::Object(base)) = defs.get_mut(name)
            && !base.contains_key("$defs")
        {
            let mut open = base.clone();
            open.remove("additionalProperties");
            base.insert("$defs".into(), json!({ OPEN: open }));
        }
    }
    for name in subtypes {
        if let Some(schema) = defs.get_mut(&name) {
            close_as_a_whole(schema, &bases);
        }
    }
    for index in roots {
        match index {
            Some(index) => close_as_a_whole(&mut root[super::ROOTS][index], &bases),
            None => close_as_a_whole(root, &bases),
        }
    }
}

/// The file's own schemas that may extend a base: the root itself (`None`), or each of the
/// shared layout's roots (`Some(index)` under `roots`).
fn own_roots(root: &Value) -> Vec<Option<usize>> {
    match root.get(super::ROOTS).and_then(Value::as_array) {
        Some(roots) => (0..roots.len()).map(Some).collect(),
        None => vec![None],
    }
}

/// A base's discriminator property and the values that name each subtype.
struct Plan {
    property: String,
    /// Subtype component → the discriminator values that name it.
    targets: BTreeMap<String, Vec<Value>>,
}

/// The plans of the subtypes that others extend in turn (Bitbucket's `account` extends
/// `object`, the base, and `user` and `team` extend `account`): a value declared as such an
/// intermediate whose tag names one of its own subtypes is that subtype, by the discriminator
/// it inherits.
fn intermediate_plans(
    root: &Value,
    defs: &Map<String, Value>,
    named: &BTreeMap<String, &str>,
    bases: &[(String, Plan)],
) -> Vec<(String, Plan)> {
    let mut out: Vec<(String, Plan)> = Vec::new();
    for (base, _) in bases {
        let Some(discriminator) = defs.get(base).and_then(base_discriminator) else {
            continue;
        };
        let extending = descendants_in(defs, named, base);
        for (other, _) in &extending {
            let extended = extending.iter().any(|(_, parent)| parent == other);
            let planned = bases.iter().chain(&out).any(|(name, _)| name == other);
            if extended
                && !planned
                && let Some(plan) = plan(root, defs, named, other, discriminator, true)
            {
                out.push((other.to_string(), plan));
            }
        }
    }
    out
}

/// Every component's `$ref`, as `def_ref` spells it, read back as the component it names.
fn named_refs(defs: &Map<String, Value>) -> BTreeMap<String, &str> {
    defs.keys()
        .map(|key| (def_ref(key), key.as_str()))
        .collect()
}

/// [`descendants`] of `name` among the bundle's `defs`, whose refs `named` reads back.
fn descendants_in<'d>(
    defs: &'d Map<String, Value>,
    named: &BTreeMap<String, &str>,
    name: &str,
) -> Vec<(&'d str, String)> {
    descendants(
        name,
        defs.iter().map(|(other, schema)| (other.as_str(), schema)),
        |reference| named.get(reference).map(|key| (*key).to_string()),
    )
}

/// The plan of `name` by `discriminator` when it has a subtype in `defs`: its own (a base),
/// or one it `inherited` from the base it extends, when only its own subtypes' values are
/// its to dispatch.
fn plan(
    root: &Value,
    defs: &Map<String, Value>,
    named: &BTreeMap<String, &str>,
    name: &str,
    discriminator: &Value,
    inherited: bool,
) -> Option<Plan> {
    let property = discriminator.get("propertyName")?.as_str()?.to_string();
    let extending = descendants_in(defs, named, name);
    let mut targets: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (value, target) in mapping(discriminator) {
        let own = !inherited || extending.iter().any(|(other, _)| *other == target);
        if defs.contains_key(&target) && own {
            targets
                .entry(target)
                .or_default()
                .extend(super::discriminator::tag_values(&[value]));
        }
    }
    for (other, parent) in extending {
        if targets.contains_key(other) {
            continue;
        }
        let component = &defs[other];
        // The values a subtype answers to: the one Azure's specs give it
        // (`x-ms-discriminator-value`), those it pins the property to itself (not the list of
        // every subtype's value it inherits from its parent), or else its own name.
        let values = component
            .get("x-ms-discriminator-value")
            .filter(|value| value.is_string())
            .map(|value| vec![value.clone()])
            .or_else(|| {
                pinned(
                    root,
                    Some(&without(component, &def_ref(&parent))),
                    &property,
                    DEPTH,
                )
            })
            .unwrap_or_else(|| vec![Value::String(other.to_string())]);
        targets.insert(other.to_string(), values);
    }
    (!targets.is_empty()).then_some(Plan { property, targets })
}

/// `schema` without the `allOf` parts that are `reference`.
fn without(schema: &Value, reference: &str) -> Value {
    let mut schema = schema.clone();
    if let Some(Value::Array(parts)) = schema.get_mut("allOf") {
        parts.retain(|part| part.get("$ref").and_then(Value::as_str) != Some(reference));
    }
    schema
}

/// The dispatcher that replaces the base `name`: each subtype for the values that name it,
/// the base as written for a value that names none.
fn dispatcher(name: &str, base: Value, plan: Plan) -> Value {
    let Plan { property, targets } = plan;
    let tagged = |values: Vec<Value>| {
        json!({
            "type": "object",
            "properties": {&property: {"enum": values}},
            "required": [&property],
        })
    };
    let mut every_value = Vec::new();
    let mut parts: Vec<Value> = targets
        .into_iter()
        .map(|(target, values)| {
            every_value.extend(values.iter().cloned());
            // A mapping back to the base itself names the base as written.
            let reference = if target == name {
                base_ref(name)
            } else {
                def_ref(&target)
            };
            json!({"if": tagged(values), "then": {"$ref": reference}})
        })
        .collect();
    parts.push(json!({"if": tagged(every_value), "else": {"$ref": base_ref(name)}}));
    let mut kept = Map::new();
    if closing(&base).is_some() {
        let mut open = base.clone();
        if let Value::Object(open) = &mut open {
            open.remove("additionalProperties");
        }
        kept.insert(OPEN.into(), open);
    }
    kept.insert(BASE.into(), base);
    json!({"$defs": kept, "allOf": parts})
}

/// Rewrites the refs to a base that judge the same value as `schema` itself (through
/// `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`) to the base as written.
fn to_plain_base(schema: &mut Value, plain: &BTreeMap<String, String>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::String(reference)) = map.get_mut("$ref")
        && let Some(base) = plain.get(reference.as_str())
    {
        *reference = base.clone();
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(parts)) = map.get_mut(key) {
            for part in parts {
                to_plain_base(part, plain);
            }
        }
    }
    for key in ["not", "if", "then", "else"] {
        if let Some(part) = map.get_mut(key) {
            to_plain_base(part, plain);
        }
    }
}

fn base_ref(name: &str) -> String {
    format!("{}/$defs/{BASE}", def_ref(name))
}

fn open_ref(name: &str) -> String {
    format!("{}/$defs/{OPEN}", def_ref(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pets() -> Value {
        json!({
            "$ref": "#/$defs/Pet",
            "$defs": {
                "Pet": {
                    "type": "object",
                    "required": ["petType"],
                    "properties": {"petType": {"type": "string", "enum": ["kitty", "dog", "fox", "Wolf"]}},
                    "discriminator": {"propertyName": "petType", "mapping": {"kitty": "#/components/schemas/Cat"}}
                },
                "Cat": {"allOf": [{"$ref": "#/$defs/Pet"}, {"required": ["hunts"]}]},
                "Dog": {"allOf": [{"$ref": "#/$defs/Pet"}, {"properties": {"petType": {"const": "dog"}}}]},
                "Fox": {"allOf": [{"$ref": "#/$defs/Pet"}], "x-ms-discriminator-value": "fox"},
                "Wolf": {"allOf": [{"$ref": "#/$defs/Pet"}]},
                "Owner": {"properties": {"pet": {"$ref": "#/$defs/Pet"}}}
            }
        })
    }

    #[test]
    fn a_base_dispatches_to_the_subtype_its_tag_names() {
        let mut root = pets();
        dispatch_to_subtypes(&mut root);
        let pet = &root["$defs"]["Pet"];
        let tagged = |values: Value| json!({"type": "object", "properties": {"petType": {"enum": values}}, "required": ["petType"]});
        assert_eq!(
            pet["allOf"],
            json!([
                {"if": tagged(json!(["kitty"])), "then": {"$ref": "#/$defs/Cat"}},
                {"if": tagged(json!(["dog"])), "then": {"$ref": "#/$defs/Dog"}},
                {"if": tagged(json!(["fox"])), "then": {"$ref": "#/$defs/Fox"}},
                // The base's list of every value is not the subtype's own.
                {"if": tagged(json!(["Wolf"])), "then": {"$ref": "#/$defs/Wolf"}},
                {"if": tagged(json!(["kitty", "dog", "fox", "Wolf"])), "else": {"$ref": "#/$defs/Pet/$defs/base"}}
            ])
        );
        assert_eq!(pet["$defs"]["base"]["required"], json!(["petType"]));
        // The subtypes extend the base as written; a member typed Pet still dispatches.
        assert_eq!(
            root["$defs"]["Cat"]["allOf"][0],
            json!({"$ref": "#/$defs/Pet/$defs/base"})
        );
        assert_eq!(
            root["$defs"]["Owner"]["properties"]["pet"],
            json!({"$ref": "#/$defs/Pet"})
        );
        assert_eq!(root["$ref"], json!("#/$defs/Pet"));
    }

    #[test]
    fn a_subtype_holds_the_members_of_every_part_it_is_made_of() {
        let mut root = json!({
            "$ref": "#/$defs/Rule",
            "$defs": {
                "Rule": {
                    "properties": {"kind": {"type": "string"}},
                    "additionalProperties": {"type": "object"},
                    "discriminator": {"propertyName": "kind"}
                },
                "Nat": {
                    "allOf": [
                        {"$ref": "#/$defs/Rule"},
                        {"properties": {"port": {"type": "string"}}, "additionalProperties": false}
                    ]
                },
                "Filter": {"allOf": [{"$ref": "#/$defs/Rule"}], "properties": {"action": {}}}
            }
        });
        dispatch_to_subtypes(&mut root);
        let defs = &root["$defs"];
        assert_eq!(
            defs["Nat"],
            json!({
                "allOf": [
                    {"$ref": "#/$defs/Rule/$defs/open"},
                    {"properties": {"port": {"type": "string"}}}
                ],
                "unevaluatedProperties": {"allOf": [{"type": "object"}, false]}
            })
        );
        assert_eq!(
            defs["Filter"]["unevaluatedProperties"],
            json!({"type": "object"})
        );
        assert_eq!(
            defs["Rule"]["$defs"]["open"].get("additionalProperties"),
            None
        );
        // An untagged value is still the base as written, closed as it was.
        assert_eq!(
            defs["Rule"]["$defs"]["base"]["additionalProperties"],
            json!({"type": "object"})
        );
    }

    /// Graph RBAC's `UserBase` closes its members with `additionalProperties: {type: object}`
    /// and has no discriminator; `UserUpdateParameters` extends it with members of its own,
    /// beside its `allOf`, and a request body extends it inline. Each subtype holds the members
    /// of every part; `UserBase` used as itself stays closed.
    #[test]
    fn a_closed_base_without_a_discriminator_is_extended_whole() {
        let base = json!({
            "properties": {"mail": {"type": "string"}},
            "additionalProperties": {"type": "object"}
        });
        let mut root = json!({
            "allOf": [{"$ref": "#/$defs/UserBase"}, {"properties": {"password": {"type": "string"}}}],
            "$defs": {
                "UserBase": base.clone(),
                "UserUpdate": {
                    "allOf": [{"$ref": "#/$defs/UserBase"}],
                    "properties": {"displayName": {"type": "string"}}
                },
                "Holder": {"properties": {"user": {"$ref": "#/$defs/UserBase"}}},
                "Open": {"properties": {"a": {}}},
                "Plain": {"allOf": [{"$ref": "#/$defs/Open"}], "properties": {"b": {}}}
            }
        });
        dispatch_to_subtypes(&mut root);
        let defs = &root["$defs"];
        assert_eq!(
            defs["UserUpdate"],
            json!({
                "allOf": [{"$ref": "#/$defs/UserBase/$defs/open"}],
                "properties": {"displayName": {"type": "string"}},
                "unevaluatedProperties": {"type": "object"}
            })
        );
        assert_eq!(
            root["allOf"][0],
            json!({"$ref": "#/$defs/UserBase/$defs/open"})
        );
        assert_eq!(root["unevaluatedProperties"], json!({"type": "object"}));
        // The base as itself is as written, and its open copy has no closing.
        let mut written = defs["UserBase"].clone();
        let open = written.as_object_mut().unwrap().remove("$defs").unwrap();
        assert_eq!(written, base);
        assert_eq!(
            open["open"],
            json!({"properties": {"mail": {"type": "string"}}})
        );
        assert_eq!(
            defs["Holder"]["properties"]["user"],
            json!({"$ref": "#/$defs/UserBase"})
        );
        // A base that does not close its members is left alone.
        assert_eq!(
            defs["Plain"],
            json!({"allOf": [{"$ref": "#/$defs/Open"}], "properties": {"b": {}}})
        );
        assert_eq!(defs["Open"], json!({"properties": {"a": {}}}));
    }

    #[test]
    fn a_schema_without_subtypes_or_with_choices_is_left_alone() {
        for schema in [
            json!({"$ref": "#/$defs/Pet", "$defs": {"Pet": {"discriminator": {"propertyName": "t"}}}}),
            json!({"$defs": {
                "Pet": {"discriminator": {"propertyName": "t"}, "oneOf": [{"$ref": "#/$defs/Cat"}]},
                "Cat": {"allOf": [{"$ref": "#/$defs/Pet"}]}
            }}),
        ] {
            let mut rewritten = schema.clone();
            dispatch_to_subtypes(&mut rewritten);
            assert_eq!(rewritten, schema);
        }
    }

    #[test]
    fn the_bundle_of_a_base_takes_its_subtypes() {
        let pet = json!({"discriminator": {"propertyName": "t", "mapping": {"c": "Cat"}}});
        let cat = json!({"properties": {"t": {"type": "string"}}});
        let dog = json!({"allOf": [{"$ref": "#/components/schemas/Pet"}]});
        let other = json!({"allOf": [{"$ref": "#/components/schemas/Owner"}]});
        let components: BTreeMap<&str, &Value> = [
            ("Pet", &pet),
            ("Cat", &cat),
            ("Dog", &dog),
            ("Other", &other),
        ]
        .into_iter()
        .collect();
        assert_eq!(subtypes("Pet", &pet, &components), ["Cat", "Dog"]);
        assert!(subtypes("Dog", &dog, &components).is_empty());
    }
}
