//! Which fields and union alternatives hold a `Box`: those whose type contains their own type
//! without an indirection in between (a `Vec` or a map already is one), which Rust could not
//! give a size. Decided once here, after naming; the emitters read [`Field::boxed`] and
//! [`UnionVariant::boxed`].
//!
//! [`Field::boxed`]: crate::ir::Field::boxed
//! [`UnionVariant::boxed`]: crate::ir::UnionVariant::boxed

use std::collections::{HashMap, HashSet};

use crate::ir::{Api, TypeKind, TypeRef};

/// Sets `boxed` on every field and alternative whose type reaches back to its own type.
pub(super) fn mark_recursive_members(api: &mut Api) {
    let mut edges: HashMap<&str, Vec<&str>> = HashMap::new();
    for def in &api.types {
        let targets = edges.entry(def.name.as_str()).or_default();
        match &def.kind {
            TypeKind::Struct(object) => {
                for field in &object.fields {
                    targets.extend(direct_target(&field.ty));
                }
            }
            TypeKind::Union(union) => {
                for variant in &union.variants {
                    targets.extend(direct_target(&variant.ty));
                }
            }
            TypeKind::Newtype(inner) | TypeKind::Alias(inner) => {
                targets.extend(direct_target(inner))
            }
            TypeKind::Enum(_) => {}
        }
    }
    let reaches = |from: &str, to: &str| -> bool {
        let mut stack = vec![from];
        let mut seen = HashSet::new();
        while let Some(node) = stack.pop() {
            if node == to {
                return true;
            }
            if seen.insert(node) {
                stack.extend(edges.get(node).into_iter().flatten().copied());
            }
        }
        false
    };
    let recursive =
        |owner: &str, ty: &TypeRef| direct_target(ty).is_some_and(|t| reaches(t, owner));
    // (type index, member index) of each member to box.
    let mut boxed = Vec::new();
    for (index, def) in api.types.iter().enumerate() {
        match &def.kind {
            TypeKind::Struct(object) => {
                for (member, field) in object.fields.iter().enumerate() {
                    if recursive(&def.name, &field.ty) {
                        boxed.push((index, member));
                    }
                }
            }
            TypeKind::Union(union) => {
                for (member, variant) in union.variants.iter().enumerate() {
                    if recursive(&def.name, &variant.ty) {
                        boxed.push((index, member));
                    }
                }
            }
            _ => {}
        }
    }
    for (index, member) in boxed {
        match &mut api.types[index].kind {
            TypeKind::Struct(object) => object.fields[member].boxed = true,
            TypeKind::Union(union) => union.variants[member].boxed = true,
            _ => {}
        }
    }
}

fn direct_target(ty: &TypeRef) -> Option<&str> {
    match ty {
        TypeRef::Named(name) => Some(name),
        TypeRef::Nullable(inner) => direct_target(inner),
        _ => None,
    }
}
