//! OpenAPI's inheritance, read from component schemas: a base names a `discriminator` and has
//! no `oneOf`/`anyOf` of its own, and subtypes extend it with `allOf` (`Cat: {allOf: [Pet,
//! {…}]}`) or are named by its mapping. Both the Rust types (a base's type dispatches to its
//! subtypes) and the contract (a base's schema does) read it here, so they agree on what a
//! base is and which components it stands for.

use std::collections::BTreeMap;

use serde_json::Value;

/// The components a base schema stands for, when `schema` (the component `name`, as the spec
/// writes it) is one: those its `discriminator` maps values to, then those whose `allOf`
/// extends it, directly or not; each once, in that order. `component_of` reads a `$ref` as
/// the component it names.
pub(crate) fn subtypes(
    name: &str,
    schema: &Value,
    components: &BTreeMap<&str, &Value>,
    component_of: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let Some(discriminator) = base_discriminator(schema) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let mapped = mapping(discriminator)
        .map(|(_, target)| target)
        .filter(|target| components.contains_key(target.as_str()));
    let extended = descendants(
        name,
        components.iter().map(|(other, schema)| (*other, *schema)),
        component_of,
    )
    .into_iter()
    .map(|(other, _)| other.to_string());
    for subtype in mapped.chain(extended) {
        if !out.contains(&subtype) {
            out.push(subtype);
        }
    }
    out
}

/// The components that extend `base` with `allOf`, directly or through others that do
/// (`Lion` extends `Cat`, which extends `Pet`: OpenAPI's inheritance is transitive), each
/// with the component it extends directly; in the order met, parents before children.
/// `component_of` reads a `$ref` as the component it names.
pub(crate) fn descendants<'c>(
    base: &str,
    components: impl Iterator<Item = (&'c str, &'c Value)> + Clone,
    component_of: impl Fn(&str) -> Option<String>,
) -> Vec<(&'c str, String)> {
    let mut found: Vec<(&'c str, String)> = Vec::new();
    let mut ancestors = vec![base.to_string()];
    loop {
        let before = found.len();
        for (other, component) in components.clone() {
            if other == base || found.iter().any(|(known, _)| *known == other) {
                continue;
            }
            let parent = all_of_refs(component)
                .filter_map(&component_of)
                .find(|referred| ancestors.contains(referred));
            if let Some(parent) = parent {
                ancestors.push(other.to_string());
                found.push((other, parent));
            }
        }
        if found.len() == before {
            return found;
        }
    }
}

/// The discriminator of a schema that is a base: it has one, and no `oneOf` or `anyOf` of its
/// own to choose among (that case is a discriminated union's).
pub(crate) fn base_discriminator(schema: &Value) -> Option<&Value> {
    let discriminator = schema.get("discriminator")?;
    let choices = schema.get("oneOf").is_some() || schema.get("anyOf").is_some();
    (!choices && discriminator.get("propertyName")?.is_string()).then_some(discriminator)
}

/// A discriminator's mapping: (value, component named).
pub(crate) fn mapping(discriminator: &Value) -> impl Iterator<Item = (String, String)> + '_ {
    discriminator
        .get("mapping")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(value, target)| Some((value.clone(), mapped_component(target.as_str()?))))
}

/// The component a ref or mapping value names: the last segment of `#/$defs/Cat`,
/// `#/components/schemas/Cat` or `Cat`, percent- and pointer-decoded.
pub(crate) fn mapped_component(target: &str) -> String {
    let last = target.rsplit('/').next().unwrap_or(target);
    let decoded = percent_encoding::percent_decode_str(last).decode_utf8_lossy();
    decoded.replace("~1", "/").replace("~0", "~")
}

/// The `$ref`s among a schema's `allOf` parts.
pub(crate) fn all_of_refs(schema: &Value) -> impl Iterator<Item = &str> {
    schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("$ref").and_then(Value::as_str))
}

/// The discriminator a component inherits from a base it extends through `allOf`, directly or
/// through others (Bitbucket's `account` extends `object`, which names `type`): such an
/// intermediate's value is the subtype of its own that its tag names. `None` for a component
/// that extends no base. `component_of` reads a `$ref` as the component it names.
pub(crate) fn inherited_discriminator<'c>(
    name: &str,
    components: &BTreeMap<&str, &'c Value>,
    component_of: impl Fn(&str) -> Option<String>,
) -> Option<&'c Value> {
    let mut seen = vec![name.to_string()];
    let mut current = vec![name.to_string()];
    while !current.is_empty() {
        let mut parents = Vec::new();
        for component in &current {
            let Some(schema) = components.get(component.as_str()) else {
                continue;
            };
            for parent in all_of_refs(schema).filter_map(&component_of) {
                if seen.contains(&parent) {
                    continue;
                }
                if let Some(discriminator) = components
                    .get(parent.as_str())
                    .and_then(|schema| base_discriminator(schema))
                {
                    return Some(discriminator);
                }
                seen.push(parent.clone());
                parents.push(parent);
            }
        }
        current = parents;
    }
    None
}
