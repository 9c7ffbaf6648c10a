//! What the build keeps while it walks the document, and the small helpers every job of the
//! build shares: pointers, errors, warnings, nullability.

use std::collections::{BTreeMap, HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::ir::naming::Slot;
use crate::ir::{SchemaExample, TypeRef, Warning};
use crate::load::{Document, escape_segment};

pub(super) const COMPONENT_SCHEMAS: &str = "#/components/schemas/";

/// One build of the IR: the document, and what has been found in it so far.
pub(super) struct Builder<'a> {
    pub(super) doc: &'a Document,
    /// The caller's type overrides, by the pointer of the schema each replaces.
    pub(super) overrides: HashMap<String, String>,
    /// The pointers of the overrides applied so far.
    pub(super) overrides_applied: HashSet<String>,
    /// Types to declare, keyed by the JSON pointer of the schema they come from.
    pub(super) slots: IndexMap<String, Slot>,
    /// Pointers being inlined into a contract schema, to turn a ref cycle into an error.
    pub(super) inlining: HashSet<String>,
    /// Examples found on inline and nested schemas.
    pub(super) inline_examples: Vec<SchemaExample>,
    /// The schemas whose examples are in `inline_examples` (a schema reached twice, through
    /// two references, contributes its examples once).
    pub(super) examples_taken_at: HashSet<String>,
    /// Choices made where the document is ambiguous, in the order met.
    pub(super) warnings: Vec<Warning>,
    /// Component pointers whose type is declared under another pointer (see `component`).
    pub(super) redirects: HashMap<String, String>,
    /// The type of every schema outside `components/schemas` reached through a `$ref`, once
    /// converted: a schema referred to from many places (Azure's specs point into other
    /// schemas' properties hundreds of times) is converted once, not once per path to it,
    /// which grew exponentially with the depth of such references.
    pub(super) converted_refs: HashMap<String, Converted>,
    /// How many times a reference cycle without an object in between was kept as JSON: a
    /// conversion during which this grew depended on what was being inlined around it, so
    /// its result is not remembered.
    pub(super) cycles_kept_as_json: usize,
    /// The document's component schemas by name, read once when inheritance needs them.
    pub(super) component_index: Option<BTreeMap<&'a str, &'a Value>>,
}

impl<'a> Builder<'a> {
    /// Whether the schema `map` (at `at`) lists the schema at `target` by reference under
    /// one of `keys` (`allOf`; `oneOf` and `anyOf`): how a child's `allOf` names its parent,
    /// and a parent's union its children.
    pub(super) fn lists_reference_to(
        &self,
        map: &Map<String, Value>,
        at: &str,
        keys: &[&str],
        target: &str,
    ) -> bool {
        keys.iter()
            .filter_map(|key| Some((*key, map.get(*key)?.as_array()?)))
            .any(|(key, items)| {
                items.iter().enumerate().any(|(index, item)| {
                    item.get("$ref").is_some()
                        && self
                            .doc
                            .deref(item, &child(&child(at, key), &index.to_string()))
                            .is_ok_and(|(_, item_at)| item_at == target)
                })
            })
    }

    /// A builder for `doc`, with the caller's type overrides (keyed as
    /// [`super::BuildOptions::type_overrides`]).
    pub(super) fn new(doc: &'a Document, type_overrides: &BTreeMap<String, String>) -> Builder<'a> {
        Builder {
            doc,
            overrides: type_overrides
                .iter()
                .map(|(key, ty)| (override_pointer(key), ty.clone()))
                .collect(),
            overrides_applied: HashSet::new(),
            slots: IndexMap::new(),
            inlining: HashSet::new(),
            inline_examples: Vec::new(),
            examples_taken_at: HashSet::new(),
            warnings: Vec::new(),
            redirects: HashMap::new(),
            converted_refs: HashMap::new(),
            cycles_kept_as_json: 0,
            component_index: None,
        }
    }

    /// The type the caller gave for the schema at `at`, if any (and it is then applied).
    pub(super) fn overriding(&mut self, at: &str) -> Option<String> {
        let ty = self.overrides.get(at)?.clone();
        self.overrides_applied.insert(at.to_string());
        Some(ty)
    }

    /// A warning for each type override that named no schema of the document (a typo, or a
    /// property since removed): it changed nothing, which the caller should hear.
    pub(super) fn warn_unapplied_overrides(&mut self, type_overrides: &BTreeMap<String, String>) {
        for key in type_overrides.keys() {
            let pointer = override_pointer(key);
            if !self.overrides_applied.contains(&pointer) {
                self.warn(
                    &pointer,
                    format!(
                        "type override `{key}` names no schema of the document \
                         ({pointer}); it is not applied"
                    ),
                );
            }
        }
    }

    /// Records a warning about the place at `pointer` (once per place and message).
    pub(super) fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        let message = message.into();
        // Compared as written: the pointer a warning keeps is the user's, not the loader's.
        let written = self.doc.written_pointer(pointer);
        if self
            .warnings
            .iter()
            .any(|w| w.pointer == written && w.message == message)
        {
            return;
        }
        self.warnings.push(Warning {
            pointer: written,
            location: self.doc.location(pointer),
            message,
        });
    }
}

/// Every type override must be a Rust type.
pub(super) fn check_type_overrides(type_overrides: &BTreeMap<String, String>) -> Result<()> {
    for (key, ty) in type_overrides {
        if let Err(err) = syn::parse_str::<syn::Type>(ty) {
            return Err(Error::Option {
                option: format!("type override {key}={ty}"),
                message: format!("type override `{ty}` is not a Rust type: {err}"),
            });
        }
    }
    Ok(())
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

pub(super) fn spec_error(doc: &Document, pointer: &str, message: impl Into<String>) -> Error {
    doc.spec_error(pointer, message)
}

pub(super) fn unsupported(
    doc: &Document,
    pointer: &str,
    construct: &str,
    message: impl Into<String>,
) -> Error {
    doc.unsupported(pointer, construct, message)
}

pub(super) fn child(at: &str, segment: &str) -> String {
    format!("{at}/{}", escape_segment(segment))
}

pub(super) fn as_object(value: &Value) -> Option<&Map<String, Value>> {
    value.as_object()
}

pub(super) fn string_at<'v>(map: &'v Map<String, Value>, key: &str) -> Option<&'v str> {
    map.get(key).and_then(Value::as_str)
}

/// A converted schema: its type, and whether it also admits null.
pub(super) type Converted = (TypeRef, bool);

pub(super) fn wrap_nullable(ty: TypeRef, nullable: bool) -> TypeRef {
    if nullable && !matches!(ty, TypeRef::Any | TypeRef::Nullable(_)) {
        TypeRef::Nullable(Box::new(ty))
    } else {
        ty
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_accept_component_property_and_pointer_keys() {
        assert_eq!(
            override_pointer("Amount.value"),
            "#/components/schemas/Amount/properties/value"
        );
        assert_eq!(override_pointer("Amount"), "#/components/schemas/Amount");
        assert_eq!(override_pointer("#/x/y"), "#/x/y");
    }
}
