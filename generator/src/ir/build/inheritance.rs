//! A base schema that subtypes extend (see [`crate::ir::inheritance`]). A value declared as the
//! base may be any subtype, so the base's own struct would read a `Cat` as a `Pet` and keep its
//! members untyped. The component's type is a union instead: one alternative per subtype,
//! chosen by the discriminator, and the base's struct (`PetBase`) for a value tagged as the
//! base itself or with a tag no subtype answers to, as the contract checks such a value
//! against the base alone.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::state::{
    Builder, COMPONENT_SCHEMAS, as_object, child, component_name, component_target,
};
use crate::error::Result;
use crate::ir::inheritance::{self, base_discriminator};
use crate::ir::naming::NameHint;
use crate::ir::{Discriminator, TypeKind, TypeRef, UnionDef, UnionVariant};

/// Where a base's own struct is declared, under the component's pointer.
const BASE: &str = "x-specgen-base";

impl<'a> Builder<'a> {
    /// When the component `name` (at `at`, whose struct is in its slot) is a base with
    /// subtypes: moves that struct to a slot of its own, named `<name>Base`, and makes the
    /// component's type the union of the subtypes and that struct.
    pub(super) fn dispatch_to_subtypes(
        &mut self,
        name: &str,
        at: &str,
        schema: &Value,
    ) -> Result<()> {
        if !matches!(
            self.slots.get(at).map(|slot| &slot.def.kind),
            Some(TypeKind::Struct(_))
        ) {
            return Ok(());
        }
        // A base names its discriminator; an intermediate (a subtype others extend in turn)
        // inherits it, and stands for its own subtypes alone.
        let own = base_discriminator(schema);
        if own.is_none() && schema.get("allOf").is_none() {
            return Ok(());
        }
        let component_of = |reference: &str| component_target(reference).map(|(name, _)| name);
        // Read from the document's components, borrowed, before any type is declared.
        let found = {
            let components = self.component_index();
            match own {
                Some(discriminator) => Some((
                    discriminator,
                    inheritance::subtypes(name, schema, components, component_of),
                )),
                None => inheritance::inherited_discriminator(name, components, component_of).map(
                    |discriminator| {
                        let extending = inheritance::descendants(
                            name,
                            components.iter().map(|(other, schema)| (*other, *schema)),
                            component_of,
                        );
                        let names = extending.into_iter().map(|(other, _)| other.to_string());
                        (discriminator, names.collect())
                    },
                ),
            }
            .map(|(discriminator, subtypes): (&Value, Vec<String>)| {
                (discriminator.clone(), subtypes)
            })
        };
        let Some((discriminator, subtypes)) = found else {
            return Ok(());
        };
        let Some(property) = discriminator.get("propertyName").and_then(Value::as_str) else {
            return Ok(());
        };
        let subtypes: Vec<String> = subtypes.into_iter().filter(|s| s != name).collect();
        if subtypes.is_empty() {
            return Ok(());
        }
        let discriminator = &discriminator;

        let base_at = child(at, BASE);
        let Some(mut base) = self.slots.shift_remove(at) else {
            return Ok(());
        };
        base.hint = NameHint::child_of(at, "Base");
        let (docs, component) = (base.def.docs.clone(), base.def.component.take());
        let examples = std::mem::take(&mut base.def.examples);
        self.slots.insert(base_at.clone(), base);
        self.reserve(at, NameHint::Component(name.to_string()), docs, component);
        if let Some(slot) = self.slots.get_mut(at) {
            slot.def.examples = examples;
        }

        // The values the base itself pins its tag to (Azure's `kind` enum lists every
        // subtype's, and `Invalid`): a subtype inherits that pin, which names no subtype in
        // particular, so it does not draw a tag the mapping leaves out.
        let base_facts = self.facts_of(schema, at, 0)?;
        let inherited_pin = base_facts
            .tags
            .iter()
            .find(|(member, _)| member == property)
            .map(|(_, values)| values.clone());
        let mut variants = Vec::new();
        let mut components = Vec::new();
        for subtype in &subtypes {
            let sub_at = child(COMPONENT_SCHEMAS.trim_end_matches('/'), subtype);
            let reference = json!({ "$ref": sub_at });
            let ty = self.component(subtype)?;
            let mut facts = self.facts_of(&reference, at, 0)?;
            if let Some(pin) = &inherited_pin {
                facts
                    .tags
                    .retain(|(member, values)| !(member == property && values == pin));
            }
            variants.push(UnionVariant {
                rust_name: String::new(),
                ty,
                facts,
                schema: self.contract_schema(&reference, at)?,
                boxed: false,
            });
            components.push(subtype.as_str());
        }
        let reference = json!({ "$ref": at });
        variants.push(UnionVariant {
            rust_name: String::new(),
            ty: TypeRef::Pointer(base_at),
            facts: base_facts,
            schema: self.contract_schema(&reference, at)?,
            boxed: false,
        });
        components.push(name);

        let explicit: Vec<(String, String)> = inheritance::mapping(discriminator).collect();
        let mut mapping: Vec<(String, usize)> = explicit
            .iter()
            .filter_map(|(value, target)| {
                let index = components.iter().position(|c| c == target)?;
                Some((value.clone(), index))
            })
            .collect();
        for (index, component) in components.iter().enumerate() {
            if explicit.iter().any(|(_, target)| target == component) {
                continue;
            }
            // The value Azure's specs give a subtype, else its name (OpenAPI's implicit
            // mapping). A subtype that pins the tag itself is found by that pin as well.
            let value = self
                .doc
                .pointer(&child(COMPONENT_SCHEMAS.trim_end_matches('/'), component))
                .and_then(|schema| schema.get("x-ms-discriminator-value"))
                .and_then(Value::as_str)
                .unwrap_or(component);
            if !mapping.iter().any(|(known, _)| known == value) {
                mapping.push((value.to_string(), index));
            }
        }
        let fallback = Some(variants.len() - 1);
        self.set_kind(
            at,
            TypeKind::Union(UnionDef {
                variants,
                discriminator: Some(Discriminator {
                    property: property.to_string(),
                    mapping,
                    fallback,
                    untold: Vec::new(),
                }),
                catch_all: String::new(),
                exclusive: true,
            }),
        );
        Ok(())
    }

    /// Gives the base's struct to each alternative of a base's union that would hold the
    /// union itself: a subtype that adds nothing (`Dog: {allOf: [Pet]}`) is the base's type,
    /// and its alternative holding that would choose again, without end. Run once every
    /// component is converted, as a subtype may have been before its base.
    pub(super) fn hold_the_base_where_a_subtype_adds_nothing(&mut self) {
        let bases: Vec<(String, String)> = self
            .slots
            .keys()
            .filter_map(|pointer| {
                let union_at = pointer.strip_suffix(&format!("/{BASE}"))?;
                Some((union_at.to_string(), pointer.clone()))
            })
            .collect();
        for (union_at, base_at) in bases {
            let Some(TypeKind::Union(union)) = self.slots.get(&union_at).map(|s| &s.def.kind)
            else {
                continue;
            };
            let circular: Vec<(usize, String)> = union
                .variants
                .iter()
                .enumerate()
                .filter(|(_, variant)| self.stands_for(&variant.ty, &union_at))
                .map(|(index, variant)| {
                    let subtype = match &variant.ty {
                        TypeRef::Pointer(pointer) => component_name(pointer),
                        _ => None,
                    };
                    (index, subtype.unwrap_or_default())
                })
                .collect();
            if let Some(TypeKind::Union(union)) =
                self.slots.get_mut(&union_at).map(|s| &mut s.def.kind)
            {
                for (index, subtype) in circular {
                    let variant = &mut union.variants[index];
                    variant.ty = TypeRef::Pointer(base_at.clone());
                    variant.rust_name = subtype;
                }
            }
        }
    }

    /// Whether `ty` is the type at `at`, through aliases and redirects.
    fn stands_for(&self, ty: &TypeRef, at: &str) -> bool {
        let mut current = ty;
        // Aliases chain at most once per component; the bound keeps a cycle finite.
        for _ in 0..=self.slots.len() {
            let TypeRef::Pointer(pointer) = current else {
                return false;
            };
            let pointer = self.redirects.get(pointer).unwrap_or(pointer);
            if pointer == at {
                return true;
            }
            match self.slots.get(pointer).map(|slot| &slot.def.kind) {
                Some(TypeKind::Alias(inner)) => current = inner,
                _ => return false,
            }
        }
        false
    }

    /// The document's component schemas by name, read once.
    fn component_index(&mut self) -> &BTreeMap<&'a str, &'a Value> {
        let doc = self.doc;
        self.component_index.get_or_insert_with(|| {
            doc.pointer("#/components/schemas")
                .and_then(as_object)
                .map(|all| all.iter().map(|(k, v)| (k.as_str(), v)).collect())
                .unwrap_or_default()
        })
    }
}
