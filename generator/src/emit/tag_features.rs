//! The `#[cfg(feature = …)]` attributes of per-tag features (see
//! [`crate::ir::tag_features`]): empty when the IR has none, so the emitters call these
//! unconditionally.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use crate::error::{Error, Result};
use crate::ir::{Api, Operation, TypeRef};

/// The attribute gating operation `op` (one of `api.operations`).
pub(crate) fn operation(api: &Api, op: &Operation) -> TokenStream {
    let Some(features) = &api.tag_features else {
        return TokenStream::new();
    };
    let index = api
        .operations
        .iter()
        .position(|candidate| std::ptr::eq(candidate, op));
    match index.and_then(|index| features.operations.get(index)) {
        Some(feature) => quote!(#[cfg(feature = #feature)]),
        None => TokenStream::new(),
    }
}

/// The attribute gating code that needs every operation of `ops`.
pub(crate) fn all_operations(api: &Api, ops: &[&Operation]) -> TokenStream {
    let Some(features) = &api.tag_features else {
        return TokenStream::new();
    };
    let wanted: BTreeSet<&String> = ops
        .iter()
        .filter_map(|op| {
            let index = api
                .operations
                .iter()
                .position(|candidate| std::ptr::eq(candidate, *op))?;
            features.operations.get(index)
        })
        .collect();
    let conditions: Vec<TokenStream> = wanted.into_iter().map(|f| quote!(feature = #f)).collect();
    cfg_of("all", conditions)
}

/// The attribute gating the named type `name`.
pub(crate) fn named_type(api: &Api, name: &str) -> TokenStream {
    match api
        .tag_features
        .as_ref()
        .and_then(|features| features.types.get(name))
    {
        Some(set) => any_of(set),
        None => TokenStream::new(),
    }
}

/// The attribute gating code that uses type `ty`.
pub(crate) fn type_ref(api: &Api, ty: &TypeRef) -> TokenStream {
    let Some(features) = &api.tag_features else {
        return TokenStream::new();
    };
    let sets = features.of_type(api, ty);
    if sets.is_empty() {
        return TokenStream::new();
    }
    let each = sets.iter().map(any_condition).collect();
    cfg_of("all", each)
}

fn any_of(set: &BTreeSet<String>) -> TokenStream {
    let condition = any_condition(set);
    quote!(#[cfg(#condition)])
}

/// `feature = "a"`, or `any(feature = "a", feature = "b")`.
fn any_condition(set: &BTreeSet<String>) -> TokenStream {
    let conditions: Vec<TokenStream> = set.iter().map(|f| quote!(feature = #f)).collect();
    combined("any", conditions)
}

/// `#[cfg(…)]` of `conditions` joined by `op` (`all` or `any`), without the combinator for
/// one condition (clippy's `non_minimal_cfg`).
fn cfg_of(op: &str, conditions: Vec<TokenStream>) -> TokenStream {
    let condition = combined(op, conditions);
    quote!(#[cfg(#condition)])
}

fn combined(op: &str, mut conditions: Vec<TokenStream>) -> TokenStream {
    if conditions.len() == 1 {
        return conditions.remove(0);
    }
    let op = quote::format_ident!("{op}");
    quote!(#op(#(#conditions),*))
}

/// `items` (a sequence of items) with `attribute` on each; `items` as they are when the
/// attribute is empty.
pub(crate) fn gate(items: TokenStream, attribute: &TokenStream) -> Result<TokenStream> {
    if attribute.is_empty() {
        return Ok(items);
    }
    let file: syn::File = syn::parse2(items).map_err(|err| Error::Emit {
        file: "tag features".into(),
        message: format!("generated items do not parse: {err}"),
    })?;
    let attribute: syn::Attribute = syn::parse_quote!(#attribute);
    let items = file.items.into_iter().map(|mut item| {
        if let Some(attrs) = item_attrs(&mut item) {
            attrs.insert(0, attribute.clone());
        }
        item
    });
    Ok(quote!(#(#items)*))
}

fn item_attrs(item: &mut syn::Item) -> Option<&mut Vec<syn::Attribute>> {
    use syn::Item;
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}
