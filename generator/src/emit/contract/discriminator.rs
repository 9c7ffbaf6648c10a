//! `oneOf` with a `discriminator` in the contract's schemas. JSON Schema's `oneOf` fails when a
//! value fits more than one alternative, and the alternatives of a discriminated union often
//! overlap (a `Cat` is also a valid `Dog` when neither forbids the other's members): OpenAPI
//! has the discriminator's value pick the alternative instead. Each alternative is therefore
//! paired with the discriminator values that name it (its `mapping` entries, and the
//! component's own name), so that exactly one alternative can match a tagged value.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// Rewrites every `oneOf` that has a `discriminator` under `schema` (a bundled contract file:
/// refs as `#/$defs/…`).
pub(crate) fn select_by_discriminator(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            rewrite(map);
            for (key, inner) in map.iter_mut() {
                if !matches!(key.as_str(), "enum" | "const" | "examples" | "default") {
                    select_by_discriminator(inner);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(select_by_discriminator),
        _ => {}
    }
}

/// One schema object's `oneOf`, if it has a discriminator.
fn rewrite(map: &mut Map<String, Value>) {
    let Some(property) = map
        .get("discriminator")
        .and_then(|d| d.get("propertyName"))
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return;
    };
    let Some(Value::Array(alternatives)) = map.get("oneOf") else {
        return;
    };
    // The values that name each component: the mapping's, else the component's own name.
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(mapping) = map
        .get("discriminator")
        .and_then(|d| d.get("mapping"))
        .and_then(Value::as_object)
    {
        for (value, target) in mapping {
            if let Some(component) = target.as_str().map(component_name) {
                names.entry(component).or_default().push(value.clone());
            }
        }
    }
    let tagged: Vec<Value> = alternatives
        .iter()
        .map(|alternative| {
            let Some(component) = alternative
                .get("$ref")
                .and_then(Value::as_str)
                .map(component_name)
            else {
                // An inline alternative has no name a value could give.
                return alternative.clone();
            };
            let values = names
                .get(&component)
                .cloned()
                .unwrap_or_else(|| vec![component.clone()]);
            json!({
                "allOf": [
                    {"properties": {&property: {"enum": values}}, "required": [&property]},
                    alternative,
                ]
            })
        })
        .collect();
    map.insert("oneOf".into(), Value::Array(tagged));
}

/// The component a ref or mapping value names: the last segment of `#/$defs/Cat`,
/// `#/components/schemas/Cat` or `Cat`, percent- and pointer-decoded.
fn component_name(target: &str) -> String {
    let last = target.rsplit('/').next().unwrap_or(target);
    let decoded = percent_encoding::percent_decode_str(last).decode_utf8_lossy();
    decoded.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_one_of_without_discriminator_is_left_alone() {
        let schema = json!({"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]});
        let mut rewritten = schema.clone();
        select_by_discriminator(&mut rewritten);
        assert_eq!(rewritten, schema);
    }
}
