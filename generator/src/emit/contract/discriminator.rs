//! `oneOf` (and `anyOf`) with a `discriminator` in the contract's schemas. JSON Schema's `oneOf` fails when a
//! value fits more than one alternative, and the alternatives of a discriminated union often
//! overlap (a `Cat` is also a valid `Dog` when neither forbids the other's members): OpenAPI
//! has the discriminator's value pick the alternative instead. Each alternative is therefore
//! paired with the discriminator values that name it (its `mapping` entries, and the
//! component's own name), so that exactly one alternative can match a tagged value.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::resolve;
use crate::ir::inheritance::mapped_component as component_name;
use crate::load::escape_segment;

/// The values a payload may carry for discriminator tags: each tag as the string the mapping
/// writes it, and as the number too where it reads as one (`1`, `1.5`). A mapping's keys are
/// strings, but a payload whose discriminator property is an integer carries `1`, not `"1"`;
/// the alternative's own schema still judges the property's type.
pub(crate) fn tag_values(tags: &[String]) -> Vec<Value> {
    let mut values = Vec::with_capacity(tags.len());
    for tag in tags {
        values.push(Value::String(tag.clone()));
        if let Ok(number) = serde_json::from_str::<serde_json::Number>(tag) {
            values.push(Value::Number(number));
        }
    }
    values
}

/// Rewrites every `oneOf` and `anyOf` that has a `discriminator` under `root` (a bundled
/// contract file: refs as `#/$defs/…`). A `oneOf`'s alternatives each require the values that
/// name them. An `anyOf` never fails on overlapping alternatives, but it let a value tagged
/// `cat` pass as a dog; it gains one condition per named alternative instead (a value tagged
/// `cat` must be a cat), so a tag that names no alternative (some specs tag with status codes)
/// is left to the `anyOf` as written.
pub(crate) fn select_by_discriminator(root: &mut Value) {
    let mut places = Vec::new();
    find(root, &mut String::new(), &mut places);
    for (pointer, union) in places {
        let Some(Value::Object(map)) = root.pointer(&pointer) else {
            continue;
        };
        let Some((property, named)) = named_alternatives(root, map, union) else {
            continue;
        };
        let Some(Value::Object(map)) = root.pointer_mut(&pointer) else {
            continue;
        };
        // The tags that name an alternative other than the default one: a value carrying none
        // of them (or no tag at all) is the default's (OpenAPI 3.2's `defaultMapping`).
        let others: Vec<String> = named
            .iter()
            .filter_map(|(_, naming)| match naming {
                Naming::Tags(values) => Some(values.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        let tagged_otherwise = json!({
            "properties": {&property: {"enum": tag_values(&others)}},
            "required": [&property],
        });
        if union == "oneOf" {
            let mut tagged: Vec<Value> = named
                .into_iter()
                .map(|(alternative, naming)| match naming {
                    Naming::Tags(values) => json!({
                        "allOf": [
                            {"properties": {&property: {"enum": tag_values(&values)}}, "required": [&property]},
                            alternative,
                        ]
                    }),
                    Naming::Default => json!({
                        "allOf": [{"not": tagged_otherwise.clone()}, alternative]
                    }),
                    Naming::Itself => alternative,
                })
                .collect();
            // One component listed twice (Stream's `ChatEvent` names `AnyEvent` twice among
            // its 53) would make every value it tags fit two alternatives, which `oneOf`
            // refuses: the tag names one, so the copies are one.
            let mut seen: Vec<Value> = Vec::with_capacity(tagged.len());
            tagged.retain(|alternative| {
                let first = !seen.contains(alternative);
                if first {
                    seen.push(alternative.clone());
                }
                first
            });
            map.insert(union.into(), Value::Array(tagged));
            continue;
        }
        let conditions: Vec<Value> = named
            .into_iter()
            .filter_map(|(alternative, naming)| match naming {
                Naming::Tags(values) => Some(json!({
                    "if": {
                        "type": "object",
                        "properties": {&property: {"enum": tag_values(&values)}},
                        "required": [&property],
                    },
                    "then": alternative,
                })),
                Naming::Default => Some(json!({
                    "if": {"type": "object", "not": tagged_otherwise.clone()},
                    "then": alternative,
                })),
                Naming::Itself => None,
            })
            .collect();
        // No alternative is named (each pins its own tag): the `anyOf` tells them apart.
        if conditions.is_empty() {
            continue;
        }
        match map.entry("allOf") {
            serde_json::map::Entry::Occupied(mut parts) => {
                if let Value::Array(parts) = parts.get_mut() {
                    parts.extend(conditions);
                }
            }
            serde_json::map::Entry::Vacant(slot) => {
                slot.insert(Value::Array(conditions));
            }
        }
    }
}

/// The keywords whose alternatives a discriminator chooses among.
const UNIONS: [&str; 2] = ["oneOf", "anyOf"];

/// The pointers of the schema objects with a discriminated `oneOf` or `anyOf`, with the
/// keyword. `pointer` is where `value` is; it is extended in place while the walk goes down and
/// copied only where a union is found, since most schema objects have none.
fn find(value: &Value, pointer: &mut String, out: &mut Vec<(String, &'static str)>) {
    fn descend(
        inner: &Value,
        segment: &dyn std::fmt::Display,
        pointer: &mut String,
        out: &mut Vec<(String, &'static str)>,
    ) {
        if matches!(inner, Value::Object(_) | Value::Array(_)) {
            use std::fmt::Write as _;
            let len = pointer.len();
            let _ = write!(pointer, "/{segment}");
            find(inner, pointer, out);
            pointer.truncate(len);
        }
    }
    match value {
        Value::Object(map) => {
            if map.contains_key("discriminator")
                && let Some(union) = UNIONS.into_iter().find(|key| map.contains_key(*key))
            {
                out.push((pointer.clone(), union));
            }
            for (key, inner) in map {
                if !matches!(key.as_str(), "enum" | "const" | "examples" | "default") {
                    descend(inner, &escape_segment(key), pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                descend(item, &index, pointer, out);
            }
        }
        _ => {}
    }
}

/// How a discriminator's value picks an alternative.
enum Naming {
    /// These tags name it.
    Tags(Vec<String>),
    /// OpenAPI 3.2's `defaultMapping`: a value without a tag, or with one that names no
    /// other alternative.
    Default,
    /// It needs no tag requirement: inline, or pinning the tag itself (`enum: [cat]`).
    Itself,
}

/// One schema object's discriminator property and its `oneOf` (or `anyOf`: `union`)
/// alternatives, each with how the discriminator names it.
fn named_alternatives(
    root: &Value,
    map: &Map<String, Value>,
    union: &str,
) -> Option<(String, Vec<(Value, Naming)>)> {
    let property = map
        .get("discriminator")?
        .get("propertyName")?
        .as_str()?
        .to_string();
    let Value::Array(alternatives) = map.get(union)? else {
        return None;
    };
    // The values the mapping gives each component.
    let mut mapped: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(mapping) = map
        .get("discriminator")
        .and_then(|d| d.get("mapping"))
        .and_then(Value::as_object)
    {
        for (value, target) in mapping {
            if let Some(component) = target.as_str().map(component_name) {
                mapped.entry(component).or_default().push(value.clone());
            }
        }
    }
    let default = map
        .get("discriminator")
        .and_then(|d| d.get("defaultMapping"))
        .and_then(Value::as_str)
        .map(component_name);
    let named = alternatives
        .iter()
        .map(|alternative| {
            let Some(reference) = alternative.get("$ref").and_then(Value::as_str) else {
                // An inline alternative has no name a value could give.
                return (alternative.clone(), Naming::Itself);
            };
            let component = component_name(reference);
            let naming = match mapped.get(&component) {
                _ if default.as_ref() == Some(&component) => Naming::Default,
                Some(values) => Naming::Tags(values.clone()),
                // An alternative that pins the tag itself (`enum: [cat]`) is told apart by
                // it already, whatever its component is called.
                None if pinned(root, resolve(root, reference), &property, DEPTH).is_some() => {
                    Naming::Itself
                }
                None => Naming::Tags(vec![component]),
            };
            (alternative.clone(), naming)
        })
        .collect();
    Some((property, named))
}

/// How deep `$ref`s and `allOf`s are followed to find a pinned tag.
pub(super) const DEPTH: usize = 8;

/// The values `schema` constrains `property` to (its `enum`, or its `const`), in its own
/// `properties` or those of what it refers to or its `allOf` parts; `None` when it does not.
pub(super) fn pinned(
    root: &Value,
    schema: Option<&Value>,
    property: &str,
    depth: usize,
) -> Option<Vec<Value>> {
    let schema = schema?;
    let own = schema.get("properties").and_then(|p| p.get(property));
    if let Some(values) = own.and_then(|p| p.get("enum")).and_then(Value::as_array) {
        return Some(values.clone());
    }
    if let Some(value) = own.and_then(|p| p.get("const")) {
        return Some(vec![value.clone()]);
    }
    if depth == 0 {
        return None;
    }
    let referred = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| pinned(root, resolve(root, reference), property, depth - 1));
    referred.or_else(|| {
        schema
            .get("allOf")
            .and_then(Value::as_array)?
            .iter()
            .find_map(|part| pinned(root, Some(part), property, depth - 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A discriminator property that is an integer carries `1` in a payload, where the
    /// mapping writes the key `"1"`: both spellings name the alternative, whose own schema
    /// then judges the type. Before, only the string was accepted, so every valid payload
    /// was refused.
    #[test]
    fn a_numeric_tag_names_its_alternative_as_a_number_too() {
        let kind = |extra: Value| {
            let mut schema = json!({"type": "object", "required": ["kind"], "properties": {"kind": {"type": "integer"}}});
            schema["properties"]
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            schema
        };
        let mut root = json!({
            "$defs": {
                "Cat": kind(json!({"meow": {"type": "boolean"}})),
                "Dog": kind(json!({"bark": {"type": "boolean"}})),
            },
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            "discriminator": {"propertyName": "kind", "mapping": {"1": "#/components/schemas/Cat", "2": "#/components/schemas/Dog"}}
        });
        select_by_discriminator(&mut root);
        let validator = jsonschema::validator_for(&root).unwrap();
        assert!(validator.is_valid(&json!({"kind": 1, "meow": true})));
        assert!(validator.is_valid(&json!({"kind": 2, "bark": false})));
        assert!(
            !validator.is_valid(&json!({"kind": 1, "meow": "no"})),
            "a cat's meow"
        );
        assert!(!validator.is_valid(&json!({"kind": 3})), "no alternative");
        assert!(
            !validator.is_valid(&json!({"kind": "1"})),
            "the cat's kind is an integer"
        );
        assert_eq!(
            tag_values(&["1.5".into(), "cat".into()]),
            [json!("1.5"), json!(1.5), json!("cat")]
        );
    }

    /// Stream's `ChatEvent` lists `AnyEvent` twice: a value its tag names is that one
    /// alternative, not two, so `oneOf` takes it.
    #[test]
    fn a_component_listed_twice_is_one_alternative() {
        let mut root = json!({
            "$defs": {
                "AnyEvent": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}},
                "Created": {"type": "object", "required": ["type", "cid"], "properties": {"type": {"type": "string"}, "cid": {"type": "string"}}},
            },
            "oneOf": [{"$ref": "#/$defs/AnyEvent"}, {"$ref": "#/$defs/AnyEvent"}, {"$ref": "#/$defs/Created"}],
            "discriminator": {"propertyName": "type", "mapping": {"any": "#/components/schemas/AnyEvent", "custom": "#/components/schemas/AnyEvent", "created": "#/components/schemas/Created"}}
        });
        select_by_discriminator(&mut root);
        let validator = jsonschema::validator_for(&root).unwrap();
        assert!(validator.is_valid(&json!({"type": "any"})));
        assert!(validator.is_valid(&json!({"type": "custom"})));
        assert!(validator.is_valid(&json!({"type": "created", "cid": "c"})));
        assert!(!validator.is_valid(&json!({"type": "created"})));
        assert_eq!(root["oneOf"].as_array().map(Vec::len), Some(2));
    }

    /// OpenAPI 3.2's `defaultMapping` names the alternative of a value whose tag is absent or
    /// names no other alternative; one the mapping names is still the mapped alternative's.
    #[test]
    fn the_default_mapping_takes_what_no_tag_names() {
        let pet = |required: Value, kind: Value| json!({"type": "object", "required": required, "properties": {"kind": kind, "name": {"type": "string"}}});
        for union in ["oneOf", "anyOf"] {
            let mut root = json!({
                "$defs": {
                    "Cat": pet(json!(["kind", "name"]), json!({"const": "cat"})),
                    "Dog": pet(json!(["kind", "name"]), json!({"type": "string"})),
                    "GenericPet": pet(json!(["name"]), json!({"type": "string"})),
                },
                union: [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}, {"$ref": "#/$defs/GenericPet"}],
                "discriminator": {
                    "propertyName": "kind",
                    "mapping": {"cat": "#/components/schemas/Cat", "dog": "#/components/schemas/Dog"},
                    "defaultMapping": "#/components/schemas/GenericPet"
                }
            });
            select_by_discriminator(&mut root);
            let validator = jsonschema::validator_for(&root).unwrap();
            for valid in [
                json!({"kind": "cat", "name": "Tom"}),
                json!({"kind": "dog", "name": "Rex"}),
                json!({"name": "Rex"}),
                json!({"kind": "parrot", "name": "Polly"}),
            ] {
                assert!(validator.is_valid(&valid), "{union}: {valid}");
            }
            // A dog is judged as a dog, not let through as the default.
            assert!(
                !validator.is_valid(&json!({"kind": "dog"})),
                "{union}: a dog without a name"
            );
            assert!(
                !validator.is_valid(&json!({"kind": "parrot"})),
                "{union}: a parrot without a name"
            );
        }
    }

    #[test]
    fn each_alternative_is_chosen_by_the_values_that_name_it() {
        let mut schema = json!({
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}, {"type": "null"}],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {"cat": "#/components/schemas/Cat", "kitten": "Cat"}
            }
        });
        select_by_discriminator(&mut schema);
        assert_eq!(
            schema["oneOf"],
            json!([
                {"allOf": [
                    {"properties": {"kind": {"enum": ["cat", "kitten"]}}, "required": ["kind"]},
                    {"$ref": "#/$defs/Cat"}
                ]},
                {"allOf": [
                    {"properties": {"kind": {"enum": ["Dog"]}}, "required": ["kind"]},
                    {"$ref": "#/$defs/Dog"}
                ]},
                {"type": "null"}
            ])
        );
    }

    #[test]
    fn an_alternative_that_pins_the_tag_keeps_its_own_values() {
        let mut schema = json!({
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            "discriminator": {"propertyName": "kind"},
            "$defs": {
                "Cat": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"kind": {"enum": ["cat"]}}}]},
                "Dog": {"properties": {"kind": {"type": "string"}}},
                "Base": {"properties": {"kind": {"type": "string"}}}
            }
        });
        select_by_discriminator(&mut schema);
        assert_eq!(schema["oneOf"][0], json!({"$ref": "#/$defs/Cat"}));
        assert_eq!(
            schema["oneOf"][1]["allOf"][0],
            json!({"properties": {"kind": {"enum": ["Dog"]}}, "required": ["kind"]})
        );
    }

    #[test]
    fn an_any_of_gains_a_condition_per_named_alternative() {
        let mut schema = json!({
            "anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            "discriminator": {"propertyName": "kind"}
        });
        select_by_discriminator(&mut schema);
        assert_eq!(
            schema["anyOf"],
            json!([{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}])
        );
        let condition = |name: &str| {
            json!({
                "if": {"type": "object", "properties": {"kind": {"enum": [name]}}, "required": ["kind"]},
                "then": {"$ref": format!("#/$defs/{name}")},
            })
        };
        assert_eq!(schema["allOf"], json!([condition("Cat"), condition("Dog")]));
    }

    #[test]
    fn an_any_of_whose_alternatives_pin_their_tags_is_left_alone() {
        let schema = json!({
            "anyOf": [{"$ref": "#/$defs/Cat"}],
            "discriminator": {"propertyName": "kind"},
            "$defs": {"Cat": {"properties": {"kind": {"const": "cat"}}}}
        });
        let mut rewritten = schema.clone();
        select_by_discriminator(&mut rewritten);
        assert_eq!(rewritten, schema);
    }

    #[test]
    fn a_one_of_without_discriminator_is_left_alone() {
        let schema = json!({"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]});
        let mut rewritten = schema.clone();
        select_by_discriminator(&mut rewritten);
        assert_eq!(rewritten, schema);
    }
}
