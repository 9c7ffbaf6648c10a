//! Which fields and union alternatives hold a `Box`: those whose type contains their own type
//! without an indirection in between (a `Vec` or a map already is one), which Rust could not
//! give a size. Decided once here, after naming; the emitters read [`Field::boxed`] and
//! [`UnionVariant::boxed`].
//!
//! Before that, aliases that name themselves (`Nested: {type: array, items: {$ref: Nested}}`,
//! a tree as a map of trees) become newtypes: `type Nested = Vec<Nested>` is a cycle rustc
//! refuses, `struct Nested(pub Vec<Nested>)` is a type.
//!
//! [`Field::boxed`]: crate::ir::Field::boxed
//! [`UnionVariant::boxed`]: crate::ir::UnionVariant::boxed

use std::collections::{HashMap, HashSet};

use crate::ir::{Api, TypeKind, TypeRef};

/// Turns every alias on a cycle of aliases (one that names itself, or names an alias that
/// names it back, through lists, maps or nullability) into a newtype of the same type.
pub(super) fn break_alias_cycles(api: &mut Api) {
    let aliases: HashMap<&str, Vec<&str>> = api
        .types
        .iter()
        .filter_map(|def| match &def.kind {
            TypeKind::Alias(inner) => {
                let mut named = Vec::new();
                names_in(inner, &mut named);
                Some((def.name.as_str(), named))
            }
            _ => None,
        })
        .collect();
    let on_cycle: HashSet<String> = aliases
        .keys()
        .filter(|start| {
            let mut stack: Vec<&str> = aliases[*start].clone();
            let mut seen = HashSet::new();
            while let Some(node) = stack.pop() {
                if node == **start {
                    return true;
                }
                if seen.insert(node) {
                    stack.extend(aliases.get(node).into_iter().flatten().copied());
                }
            }
            false
        })
        .map(|name| name.to_string())
        .collect();
    for def in &mut api.types {
        if on_cycle.contains(&def.name)
            && let TypeKind::Alias(inner) = &def.kind
        {
            def.kind = TypeKind::Newtype(inner.clone());
        }
    }
}

/// Every type name `ty` mentions, at any depth.
fn names_in<'t>(ty: &'t TypeRef, out: &mut Vec<&'t str>) {
    match ty {
        TypeRef::Named(name) => out.push(name),
        TypeRef::Array(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => {
            names_in(inner, out)
        }
        _ => {}
    }
}

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
