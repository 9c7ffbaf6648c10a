//! How an IR type reference is spelled in Rust.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::error::{Error, Result};
use crate::ir::{Scalar, TypeRef};

/// An identifier the naming pass has already made Rust-safe.
pub(crate) fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The Rust type for a reference. Types in the crate are named relative to `models`; std
/// prelude names are never shadowed (the naming pass reserves them).
pub(crate) fn rust_type(ty: &TypeRef, models: &TokenStream) -> Result<TokenStream> {
    Ok(match ty {
        TypeRef::Named(name) => {
            let name = ident(name);
            quote!(#models #name)
        }
        TypeRef::Scalar(scalar) => scalar_type(*scalar),
        TypeRef::Array(inner) => {
            let inner = rust_type(inner, models)?;
            quote!(Vec<#inner>)
        }
        TypeRef::Map(inner) => {
            let inner = rust_type(inner, models)?;
            quote!(::std::collections::BTreeMap<String, #inner>)
        }
        TypeRef::Object => quote!(::serde_json::Map<String, ::serde_json::Value>),
        TypeRef::Any => quote!(::serde_json::Value),
        TypeRef::Nullable(inner) => {
            let inner = rust_type(inner, models)?;
            quote!(Option<#inner>)
        }
        TypeRef::Custom(path) => {
            let parsed: syn::Type = syn::parse_str(path).map_err(|err| Error::Emit {
                file: "models".into(),
                message: format!("type override `{path}` is not a Rust type: {err}"),
            })?;
            quote!(#parsed)
        }
    })
}

/// The Rust type of a scalar.
pub(crate) fn scalar_type(scalar: Scalar) -> TokenStream {
    match scalar {
        Scalar::String => quote!(String),
        Scalar::Bool => quote!(bool),
        Scalar::I32 => quote!(i32),
        Scalar::I64 => quote!(i64),
        Scalar::F32 => quote!(f32),
        Scalar::F64 => quote!(f64),
        Scalar::Decimal => quote!(super::support::Decimal),
        Scalar::Uuid => quote!(::uuid::Uuid),
        Scalar::DateTime => quote!(super::support::DateTime),
        Scalar::Date => quote!(::chrono::NaiveDate),
        Scalar::Base64 => quote!(super::support::Base64),
    }
}

/// Rustdoc attributes for a text, one `#[doc]` per line so prettyplease prints `///` lines.
pub(crate) fn doc_attrs(docs: Option<&str>) -> TokenStream {
    let Some(docs) = docs else {
        return TokenStream::new();
    };
    let lines = doc_lines(docs)
        .into_iter()
        .map(|line| quote!(#[doc = #line]));
    quote!(#(#lines)*)
}

/// A description as rustdoc lines. Indentation is capped at three spaces (enough for list
/// continuations, too little for an indented code block) and bare code fences are marked as
/// text: a description is not Rust, and rustdoc would otherwise run such blocks as doctests.
pub(crate) fn doc_lines(docs: &str) -> Vec<String> {
    let mut in_fence = false;
    docs.lines()
        .map(|raw| {
            let line = raw.trim();
            let indent = (raw.len() - raw.trim_start().len()).min(3);
            if let Some(info) = line.strip_prefix("```") {
                let opening = !in_fence;
                in_fence = !in_fence;
                if opening && info.trim().is_empty() {
                    return " ```text".to_string();
                }
            }
            if line.is_empty() {
                String::new()
            } else {
                format!(" {}{line}", " ".repeat(indent))
            }
        })
        .collect()
}
