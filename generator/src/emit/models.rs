//! `src/models.rs` of the generated crate: a serde type for every named type of the IR.
//!
//! Lenient by design: structs keep unknown properties, enums keep unknown values, unions keep
//! what no alternative accepts. Rejecting drift is the validator's job, not deserialization's.

use proc_macro2::TokenStream;
use quote::quote;

use super::types::{doc_attrs, ident, rust_type};
use super::{GeneratedFile, Part};
use crate::error::Result;
use serde_json::Value;

use crate::ir::{
    Additional, Api, EnumDef, Field, JsonKind, Scalar, StructDef, TextFormat, TypeDef, TypeKind,
    TypeRef, UnionDef, VariantFacts,
};

/// The models file.
///
/// The file is the largest the emitters print (a fifth of the crate's Rust on a small spec,
/// the longest single task of a generation), so each type's items are built, parsed and
/// printed side by side (`print_chunk`); the text is the same as printing [`tokens`]
/// whole.
pub fn emit(api: &Api) -> Result<GeneratedFile> {
    use rayon::prelude::*;
    const PATH: &str = "src/models.rs";
    let types = api
        .types
        .par_iter()
        .map(|def| super::print_chunk(PATH, gated_type_def(api, def)?))
        .collect::<Result<Vec<String>>>()?;
    let mut parts = vec![Part::Tokens(header())];
    parts.extend(types.iter().map(|text| Part::Printed(text)));
    super::rust_file_of_parts(PATH, parts)
}

/// The models module's contents.
pub fn tokens(api: &Api) -> Result<TokenStream> {
    let header = header();
    let items = api
        .types
        .iter()
        .map(|def| gated_type_def(api, def))
        .collect::<Result<Vec<_>>>()?;
    Ok(quote! {
        #header
        #(#items)*
    })
}

/// The module's docs and lint settings.
fn header() -> TokenStream {
    quote! {
        //! Types of the API's schemas.
        #![allow(clippy::large_enum_variant, clippy::derive_partial_eq_without_eq)]
        // A field's type spells out the schema's nesting (`Option<Vec<Vec<BTreeMap<String,
        // Vec<Option<i64>>>>>>`); an alias per level would only hide it.
        #![allow(clippy::type_complexity)]
    }
}

/// A type's items, behind the features of the operations that use it.
fn gated_type_def(api: &Api, def: &TypeDef) -> Result<TokenStream> {
    let gate = super::tag_features::named_type(api, &def.name);
    super::tag_features::gate(type_def(api, def)?, &gate)
}

fn type_def(api: &Api, def: &TypeDef) -> Result<TokenStream> {
    let docs = doc_attrs(def.docs.as_deref());
    let name = ident(&def.name);
    let here = TokenStream::new();
    Ok(match &def.kind {
        TypeKind::Struct(object) => struct_def(api, def, object)?,
        TypeKind::Enum(values) => enum_def(def, values),
        TypeKind::Union(union) => union_def(def, union)?,
        TypeKind::Newtype(inner) => {
            // A whole float goes back as it came (AWS's `Double` component), as in a field.
            let whole = holds_float(inner).then(
                || quote!(#[serde(serialize_with = "super::support::whole_floats::serialize")]),
            );
            let inner = rust_type(inner, &here)?;
            quote! {
                #docs
                #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
                #[cfg_attr(feature = "schemars", derive(::schemars::JsonSchema))]
                #[serde(transparent)]
                pub struct #name(#whole pub #inner);

                impl From<#inner> for #name {
                    fn from(value: #inner) -> Self {
                        #name(value)
                    }
                }

                impl ::std::ops::Deref for #name {
                    type Target = #inner;

                    fn deref(&self) -> &#inner {
                        &self.0
                    }
                }
            }
        }
        TypeKind::Alias(inner) => {
            let inner = rust_type(inner, &here)?;
            quote! {
                #docs
                pub type #name = #inner;
            }
        }
    })
}

fn struct_def(api: &Api, def: &TypeDef, object: &StructDef) -> Result<TokenStream> {
    let docs = doc_attrs(def.docs.as_deref());
    let name = ident(&def.name);
    let here = TokenStream::new();
    let mut fields = Vec::new();
    let mut all_optional = true;
    for field in &object.fields {
        let (tokens, optional) = field_tokens(field, &here)?;
        all_optional &= optional;
        fields.push(tokens);
    }
    let additional_name = ident(&object.additional_name);
    match &object.additional {
        // Closed (`additionalProperties: false`), yet a peer may still send more: keep it
        // rather than drop it silently. The validator is where such members are refused.
        Additional::Forbidden => fields.push(quote! {
            /// Properties the schema does not allow, kept so that nothing is lost (the
            /// validator reports them).
            #[serde(flatten)]
            pub #additional_name: ::serde_json::Map<String, ::serde_json::Value>,
        }),
        Additional::Any => fields.push(quote! {
            /// Properties the schema does not declare, kept so that nothing is lost.
            #[serde(flatten)]
            pub #additional_name: ::serde_json::Map<String, ::serde_json::Value>,
        }),
        Additional::Typed(value) => {
            let value = rust_type(value, &here)?;
            fields.push(quote! {
                /// Properties beyond the declared ones.
                #[serde(flatten)]
                pub #additional_name: ::std::collections::BTreeMap<String, #value>,
            });
        }
    }
    let default = all_optional.then(|| quote!(Default,));
    let accessors: Vec<TokenStream> = object
        .fields
        .iter()
        .filter_map(|field| default_accessor(api, field))
        .collect();
    let accessors = (!accessors.is_empty()).then(|| {
        quote! {
            impl #name {
                #(#accessors)*
            }
        }
    });
    Ok(quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, #default ::serde::Serialize, ::serde::Deserialize)]
        #[cfg_attr(feature = "schemars", derive(::schemars::JsonSchema))]
        pub struct #name {
            #(#fields)*
        }

        #accessors
    })
}

/// `fn <field>_or_default(&self)` for an optional field whose schema has a scalar or enum
/// `default`. The default is not written into the field on deserialization: a round trip must
/// give back what was received, absent fields included.
pub(crate) fn default_accessor(api: &Api, field: &Field) -> Option<TokenStream> {
    default_accessor_in(api, field, &quote!())
}

/// [`default_accessor`], naming an enum type after `here` (`crate::models::` outside the models
/// module).
pub(crate) fn default_accessor_in(
    api: &Api,
    field: &Field,
    here: &TokenStream,
) -> Option<TokenStream> {
    if field.required || field.nullable {
        return None;
    }
    let value = field.default.as_ref()?;
    let field_name = ident(&field.rust_name);
    // Copy scalars take a constant; the others build their default only when it is needed.
    let (ty, body) = match (&field.ty, value) {
        (TypeRef::Scalar(Scalar::Bool), Value::Bool(b)) => {
            (quote!(bool), quote!(self.#field_name.unwrap_or(#b)))
        }
        (TypeRef::Scalar(Scalar::I64), Value::Number(n)) => {
            let n = n.as_i64()?;
            (quote!(i64), quote!(self.#field_name.unwrap_or(#n)))
        }
        (TypeRef::Scalar(Scalar::U64), Value::Number(n)) => {
            let n = n.as_u64()?;
            (quote!(u64), quote!(self.#field_name.unwrap_or(#n)))
        }
        (TypeRef::Scalar(Scalar::I32), Value::Number(n)) => {
            let n = i32::try_from(n.as_i64()?).ok()?;
            (quote!(i32), quote!(self.#field_name.unwrap_or(#n)))
        }
        (TypeRef::Scalar(Scalar::F64), Value::Number(n)) => {
            let n = n.as_f64()?;
            (quote!(f64), quote!(self.#field_name.unwrap_or(#n)))
        }
        (TypeRef::Scalar(Scalar::String), Value::String(s)) if s.is_empty() => (
            quote!(String),
            quote!(self.#field_name.clone().unwrap_or_default()),
        ),
        (TypeRef::Scalar(Scalar::String), Value::String(s)) => (
            quote!(String),
            quote!(self.#field_name.clone().unwrap_or_else(|| #s.to_string())),
        ),
        (TypeRef::Scalar(Scalar::Decimal), Value::Number(n)) => {
            let text = n.to_string();
            (
                quote!(super::support::Decimal),
                quote!(self.#field_name.unwrap_or_else(|| #text.parse().unwrap_or_default())),
            )
        }
        (TypeRef::Named(name), Value::String(s))
            if matches!(
                api.type_named(name).map(|d| &d.kind),
                Some(TypeKind::Enum(_))
            ) =>
        {
            let name = ident(name);
            (
                quote!(#here #name),
                quote!(self.#field_name.clone().unwrap_or_else(|| #here #name::from(#s))),
            )
        }
        _ => return None,
    };
    let method = ident(&format!(
        "{}_or_default",
        field.rust_name.trim_end_matches('_')
    ));
    let text = format!(
        " `{}`, or its default `{value}` when absent.",
        field.wire_name
    );
    Some(quote! {
        #[doc = #text]
        pub fn #method(&self) -> #ty {
            #body
        }
    })
}

/// A struct field and whether it may be left out (so the struct can derive `Default`).
pub(crate) fn field_tokens(field: &Field, here: &TokenStream) -> Result<(TokenStream, bool)> {
    let mut docs_text = field.docs.clone().unwrap_or_default();
    if let Some(default) = &field.default {
        if !docs_text.is_empty() {
            docs_text.push_str("\n\n");
        }
        docs_text.push_str(&format!("Default when absent: `{default}`."));
    }
    let docs = doc_attrs((!docs_text.is_empty()).then_some(docs_text.as_str()));
    let name = ident(&field.rust_name);
    let wire = &field.wire_name;
    let mut args = Vec::new();
    if field.rust_name != field.wire_name {
        args.push(quote!(rename = #wire));
    }
    let mut inner = rust_type(&field.ty, here)?;
    if field.boxed {
        inner = quote!(Box<#inner>);
    }
    // An unconstrained value holds null itself, so it is never wrapped in a second Option;
    // when optional, a present null must stay `Some(Value::Null)`, not collapse into absent.
    let unconstrained = field.ty == TypeRef::Any;
    let nullable = field.nullable && !unconstrained;
    if unconstrained && !field.required {
        args.push(quote!(default));
        args.push(quote!(skip_serializing_if = "Option::is_none"));
        args.push(quote!(deserialize_with = "super::support::present"));
        let serde = quote!(#[serde(#(#args),*)]);
        return Ok((
            quote! {
                #docs
                #serde
                pub #name: Option<#inner>,
            },
            true,
        ));
    }
    // A float that is a whole number goes back as it came (`100`, not serde's `100.0`).
    let floats = holds_float(&field.ty);
    let whole_floats = quote!(serialize_with = "super::support::whole_floats::serialize");
    let (ty, optional) = match (field.required, nullable) {
        (true, false) => (inner.clone(), false),
        // Must be present, may be null: `None` is written as null.
        (true, true) => (quote!(Option<#inner>), true),
        (false, false) => {
            args.push(quote!(default));
            args.push(quote!(skip_serializing_if = "Option::is_none"));
            (quote!(Option<#inner>), true)
        }
        // Absent, null and a value are three different things (a PATCH can clear a field).
        (false, true) => {
            args.push(quote!(default));
            args.push(quote!(skip_serializing_if = "Option::is_none"));
            if floats {
                args.push(quote!(
                    deserialize_with = "super::support::double_option::deserialize"
                ));
            } else {
                args.push(quote!(with = "super::support::double_option"));
            }
            (quote!(Option<Option<#inner>>), true)
        }
    };
    if floats {
        args.push(whole_floats);
    }
    let serde = (!args.is_empty()).then(|| quote!(#[serde(#(#args),*)]));
    // schemars reads serde's `with` as a type; tell it the schema is that of a nullable value.
    // (`serialize_with` alone it reads past, to the field's type.)
    let schemars = (!field.required && nullable).then(|| {
        let nullable = type_text(&quote!(Option<#inner>));
        quote!(#[cfg_attr(feature = "schemars", schemars(with = #nullable))])
    });
    Ok((
        quote! {
            #docs
            #serde
            #schemars
            pub #name: #ty,
        },
        optional,
    ))
}

/// Whether a field's type holds `f64`s that are its own (through lists, maps and null; a
/// named type writes its own fields).
fn holds_float(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Scalar(Scalar::F64) => true,
        TypeRef::Array(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => {
            holds_float(inner)
        }
        _ => false,
    }
}

fn enum_def(def: &TypeDef, values: &EnumDef) -> TokenStream {
    let mut docs_text = def.docs.clone().unwrap_or_default();
    if values.extensible {
        if !docs_text.is_empty() {
            docs_text.push_str("\n\n");
        }
        docs_text.push_str("The spec lists these values as incomplete: expect others.");
    }
    let docs = doc_attrs((!docs_text.is_empty()).then_some(docs_text.as_str()));
    let name = ident(&def.name);
    let catch_all = ident(&values.catch_all);
    let variants: Vec<_> = values
        .variants
        .iter()
        .map(|v| ident(&v.rust_name))
        .collect();
    let wires: Vec<_> = values.variants.iter().map(|v| v.wire.as_str()).collect();
    let variant_docs = values.variants.iter().map(|variant| {
        let wire = &variant.wire;
        // Control characters as their escapes: a value may hold a carriage return, which
        // rustc refuses in a doc comment, or a newline, which would end the comment.
        let shown: String = wire
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        match &variant.docs {
            // What the spec says of the value (3.1's `oneOf` of `const`s with titles).
            Some(said) => doc_attrs(Some(&format!("`{shown}`: {said}"))),
            None => {
                let text = format!(" `{shown}`");
                quote!(#[doc = #text])
            }
        }
    });
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name {
            #(#variant_docs #variants,)*
            /// A value this version of the spec does not list, kept as received.
            #catch_all(String),
        }

        impl #name {
            /// Every value the spec lists, in its order.
            pub const KNOWN: &'static [&'static str] = &[#(#wires),*];

            /// The value on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(#name::#variants => #wires,)*
                    #name::#catch_all(value) => value,
                }
            }

            /// Whether the spec lists this value.
            pub fn is_known(&self) -> bool {
                !matches!(self, #name::#catch_all(_))
            }
        }

        impl From<&str> for #name {
            fn from(value: &str) -> Self {
                match value {
                    #(#wires => #name::#variants,)*
                    other => #name::#catch_all(other.to_string()),
                }
            }
        }

        super::support::open_enum!(#name, #catch_all);
    }
}

fn union_def(def: &TypeDef, union: &UnionDef) -> Result<TokenStream> {
    let docs = doc_attrs(def.docs.as_deref());
    let name = ident(&def.name);
    let here = TokenStream::new();
    let catch_all = ident(&union.catch_all);
    let mut variants = Vec::new();
    let mut payloads = Vec::new();
    // The serde attribute each payload's field takes, if any.
    let mut wholes = Vec::new();
    let mut builds = Vec::new();
    for (index, variant) in union.variants.iter().enumerate() {
        let variant_name = ident(&variant.rust_name);
        let payload = rust_type(&variant.ty, &here)?;
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        if variant.boxed {
            payloads.push(quote!(Box<#payload>));
            wholes.push(None);
            builds.push(quote! {
                #index => ::serde::Deserialize::deserialize(value).ok().map(|inner| #name::#variant_name(Box::new(inner))),
            });
        } else {
            // A whole float goes back as it came, as in a struct's field.
            let whole = holds_float(&variant.ty).then(
                || quote!(#[serde(serialize_with = "super::support::whole_floats::serialize")]),
            );
            payloads.push(payload);
            wholes.push(whole);
            builds.push(quote! {
                #index => ::serde::Deserialize::deserialize(value).ok().map(#name::#variant_name),
            });
        }
        variants.push(variant_name);
    }
    let type_name = def.name.as_str();
    let schema_impl = quote! {
        #[cfg(feature = "schemars")]
        impl ::schemars::JsonSchema for #name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                #type_name.into()
            }

            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                ::schemars::json_schema!({
                    "anyOf": [#(generator.subschema_for::<#payloads>()),*]
                })
            }
        }
    };
    let alternatives: Vec<TokenStream> = union
        .variants
        .iter()
        .map(|v| alternative(&v.facts))
        .collect();
    let uses_literals = union.variants.iter().any(|v| uses_literals(&v.facts));
    let imports = if uses_literals {
        quote!(
            use super::support::union::{self, Alternative, Literal};
        )
    } else {
        quote!(
            use super::support::union::{self, Alternative};
        )
    };
    let order = match &union.discriminator {
        Some(discriminator) if discriminator.mapping.is_empty() => {
            quote!(union::rank(&value, ALTERNATIVES))
        }
        None => quote!(union::rank(&value, ALTERNATIVES)),
        Some(discriminator) => {
            let property = discriminator.property.as_str();
            let arms = discriminator.mapping.iter().map(|(value, index)| {
                let index = proc_macro2::Literal::usize_unsuffixed(*index);
                quote!(Some(#value) => vec![#index],)
            });
            // A missing tag still has a shape: choose by the facts then. A tag the mapping
            // does not name goes only to an alternative whose schema pins it, else to the
            // fallback (an inheritance base's own struct) or is kept.
            let unmapped = match discriminator.fallback {
                // An `anyOf`'s contract leaves a tag that names no alternative to the `anyOf` as
                // written (Airflow's schedule `__type: "Weekly"`): chosen by the facts, as if
                // untagged, rather than kept as JSON.
                None if !union.exclusive => quote!(Some(_) => union::rank(&value, ALTERNATIVES),),
                Some(fallback) => {
                    let fallback = proc_macro2::Literal::usize_unsuffixed(fallback);
                    quote! {
                        Some(_) => {
                            let mut order = union::rank_pinned(&value, ALTERNATIVES, #property);
                            order.push(#fallback);
                            order
                        }
                    }
                }
                None => quote!(Some(_) => union::rank_pinned(&value, ALTERNATIVES, #property),),
            };
            quote! {
                match union::tag(&value, #property) {
                    #(#arms)*
                    #unmapped
                    None => union::rank(&value, ALTERNATIVES),
                }
            }
        }
    };
    let how = if union
        .discriminator
        .as_ref()
        .is_some_and(|d| d.fallback.is_some())
    {
        "Chooses the alternative by the discriminator (by the facts of each alternative when \
         the tag is missing; a tag the mapping does not name where an alternative's schema \
         pins it, else as the base)"
    } else if union.discriminator.is_some() {
        "Chooses the alternative by the discriminator (by the facts of each alternative when \
         the tag is missing; a tag the mapping does not name only where an alternative's schema \
         pins it)"
    } else {
        "Chooses the alternative the value really is, by the facts of each alternative's \
         schema (see `support::union`), not by which deserializes first"
    };
    let how = format!(" {how}; a value no alternative keeps whole is kept as JSON.");
    let untold = union
        .discriminator
        .as_ref()
        .filter(|discriminator| !discriminator.untold.is_empty());
    // Alternatives whose struct does not hold the tag get it written, so that a value built
    // in code is read back as itself; the others serialize as the derive would.
    let (derive, serialize) = match untold {
        None => (
            quote!(#[derive(Debug, Clone, PartialEq, ::serde::Serialize)] #[serde(untagged)]),
            TokenStream::new(),
        ),
        Some(discriminator) => {
            let property = discriminator.property.as_str();
            let arms = union.variants.iter().enumerate().map(|(index, variant)| {
                let variant_name = ident(&variant.rust_name);
                let told = discriminator.untold.iter().find(|(at, _)| *at == index);
                let body = match (told, &wholes[index]) {
                    (Some((_, tag)), _) => quote!(
                        super::support::union::tagged(inner, #property, #tag, serializer)
                    ),
                    (None, Some(_)) => {
                        quote!(super::support::whole_floats::serialize(inner, serializer))
                    }
                    (None, None) => quote!(::serde::Serialize::serialize(inner, serializer)),
                };
                quote!(#name::#variant_name(inner) => #body,)
            });
            let serialize = quote! {
                impl ::serde::Serialize for #name {
                    fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                        match self {
                            #(#arms)*
                            #name::#catch_all(value) => ::serde::Serialize::serialize(value, serializer),
                        }
                    }
                }
            };
            (quote!(#[derive(Debug, Clone, PartialEq)]), serialize)
        }
    };
    // The serde attributes only a derived `Serialize` reads.
    let wholes: Vec<Option<TokenStream>> = match untold {
        None => wholes,
        Some(_) => wholes.iter().map(|_| None).collect(),
    };
    Ok(quote! {
        #docs
        #derive
        pub enum #name {
            #(#variants(#wholes #payloads),)*
            /// A value no alternative keeps whole, kept as received.
            #catch_all(::serde_json::Value),
        }

        #serialize

        #[doc = #how]
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                #imports
                const ALTERNATIVES: &[Alternative] = &[#(#alternatives),*];
                let value = ::serde_json::Value::deserialize(deserializer)?;
                let order = #order;
                Ok(union::choose(
                    #type_name,
                    value,
                    order,
                    |index, value| match index {
                        #(#builds)*
                        _ => None,
                    },
                    #name::#catch_all,
                ))
            }
        }

        #schema_impl
    })
}

/// Whether the facts (a member's or an item's included) name a `Literal`.
fn uses_literals(facts: &VariantFacts) -> bool {
    !facts.tags.is_empty()
        || facts.values.is_some()
        || facts
            .members
            .iter()
            .any(|(_, member)| uses_literals(member))
        || facts.items.as_deref().is_some_and(uses_literals)
        || facts.additional.as_deref().is_some_and(uses_literals)
        || !facts.excluded.is_empty()
        || facts.prefix_items.iter().any(uses_literals)
}

/// The facts of one alternative, as a `support::union::Alternative` constant that names only
/// the facts it has (the rest come from `Alternative::ANY`, which rules nothing out).
fn alternative(facts: &VariantFacts) -> TokenStream {
    let mut fields: Vec<TokenStream> = Vec::new();
    let kinds = facts
        .kinds
        .iter()
        .fold(0u8, |bits, kind| bits | kind_bit(*kind));
    if kinds != 0 {
        let kinds = proc_macro2::Literal::u8_unsuffixed(kinds);
        fields.push(quote!(kinds: #kinds));
    }
    if !facts.required.is_empty() {
        let required = &facts.required;
        fields.push(quote!(required: &[#(#required),*]));
    }
    if !facts.one_way.is_empty() {
        let one_way = &facts.one_way;
        fields.push(quote!(one_way: &[#(#one_way),*]));
    }
    if !facts.tags.is_empty() {
        let tags = facts.tags.iter().map(|(member, values)| {
            let values = values.iter().map(literal);
            quote!((#member, &[#(#values),*]))
        });
        fields.push(quote!(tags: &[#(#tags),*]));
    }
    if !facts.declared.is_empty() {
        let declared = &facts.declared;
        fields.push(quote!(declared: &[#(#declared),*]));
    }
    if facts.closed {
        fields.push(quote!(closed: true));
    }
    if let Some(values) = &facts.values {
        let values = values.iter().map(literal);
        fields.push(quote!(values: Some(&[#(#values),*])));
    }
    if !facts.prefixes.is_empty() {
        let prefixes = &facts.prefixes;
        fields.push(quote!(prefixes: &[#(#prefixes),*]));
    }
    if let Some(format) = facts.format {
        let format = match format {
            TextFormat::Ipv4 => quote!(Ipv4),
            TextFormat::Ipv6 => quote!(Ipv6),
            TextFormat::Email => quote!(Email),
            TextFormat::Time => quote!(Time),
            TextFormat::Duration => quote!(Duration),
            TextFormat::Base64 => quote!(Base64),
        };
        fields.push(quote!(format: Some(union::Format::#format)));
    }
    if let Some(range) = facts.range {
        let bound = |bound: Option<(f64, bool)>, unbounded: TokenStream| match bound {
            Some((value, exclusive)) => {
                let value = proc_macro2::Literal::f64_unsuffixed(value);
                (quote!(#value), exclusive)
            }
            None => (unbounded, false),
        };
        let (min, min_exclusive) = bound(range.min, quote!(f64::NEG_INFINITY));
        let (max, max_exclusive) = bound(range.max, quote!(f64::INFINITY));
        fields.push(quote!(range: Some(union::Range {
            min: #min,
            min_exclusive: #min_exclusive,
            max: #max,
            max_exclusive: #max_exclusive,
        })));
    }
    if let Some(step) = facts.multiple_of {
        let step = proc_macro2::Literal::f64_unsuffixed(step);
        fields.push(quote!(multiple_of: Some(#step)));
    }
    for (field, count) in [
        ("length", facts.length),
        ("item_count", facts.item_count),
        ("member_count", facts.member_count),
    ] {
        if let Some((min, max)) = count {
            let field = quote::format_ident!("{field}");
            let min = proc_macro2::Literal::u64_unsuffixed(min);
            let max = match max {
                Some(max) => {
                    let max = proc_macro2::Literal::u64_unsuffixed(max);
                    quote!(#max)
                }
                None => quote!(usize::MAX),
            };
            fields.push(quote!(#field: Some((#min, #max))));
        }
    }
    if !facts.members.is_empty() {
        let members = facts.members.iter().map(|(member, facts)| {
            let facts = alternative(facts);
            quote!((#member, &#facts))
        });
        fields.push(quote!(members: &[#(#members),*]));
    }
    if let Some(items) = &facts.items {
        let items = alternative(items);
        fields.push(quote!(items: Some(&#items)));
    }
    if let Some(additional) = &facts.additional {
        let additional = alternative(additional);
        fields.push(quote!(additional: Some(&#additional)));
    }
    if !facts.excluded.is_empty() {
        let excluded = facts.excluded.iter().map(literal);
        fields.push(quote!(excluded: &[#(#excluded),*]));
    }
    if let Some(alphabet) = &facts.alphabet {
        let ranges = alphabet.iter().map(|(start, end)| quote!((#start, #end)));
        fields.push(quote!(alphabet: Some(&[#(#ranges),*])));
    }
    if !facts.prefix_items.is_empty() {
        let prefix = facts.prefix_items.iter().map(alternative);
        fields.push(quote!(prefix_items: &[#(#prefix),*]));
    }
    quote! {
        Alternative {
            #(#fields,)*
            ..Alternative::ANY
        }
    }
}

fn kind_bit(kind: JsonKind) -> u8 {
    match kind {
        JsonKind::Null => 1,
        JsonKind::Boolean => 2,
        // An integer value also counts as a number (see `kind_bits` in `support::union`).
        JsonKind::Integer => 4,
        JsonKind::Number => 8,
        JsonKind::String => 16,
        JsonKind::Array => 32,
        JsonKind::Object => 64,
    }
}

fn literal(value: &Value) -> TokenStream {
    match value {
        Value::String(text) => quote!(Literal::Str(#text)),
        other => {
            let text = other.to_string();
            quote!(Literal::Json(#text))
        }
    }
}

/// A type as a person writes it (`Option<Vec<String>>`), for the string schemars reads as a
/// type: printed by prettyplease, where the token printer would space every token
/// (`Option < Vec < String > >`).
fn type_text(ty: &TokenStream) -> String {
    let Ok(ty) = syn::parse2::<syn::Type>(ty.clone()) else {
        return ty.to_string();
    };
    let printed = prettyplease::unparse(&syn::parse_quote!(type T = #ty;));
    printed
        .trim()
        .strip_prefix("type T = ")
        .and_then(|rest| rest.strip_suffix(';'))
        .map_or_else(|| printed.trim().to_string(), str::to_string)
}

#[cfg(test)]
mod tests {
    /// Printing each type on its own and joining the texts gives what printing the whole
    /// module at once gives, on every fixture and OAS example (structs, enums, unions,
    /// newtypes, aliases, docs, feature gates).
    #[test]
    fn the_models_printed_type_by_type_are_the_models_printed_whole() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut specs: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("tests/fixtures"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "yaml" || e == "json"))
            .collect();
        specs.push(root.join("../spec/openapi.yaml"));
        specs.sort();
        let mut compared = 0;
        for spec in &specs {
            let Ok(doc) = crate::load::load_file(spec) else {
                continue;
            };
            let Ok(mut api) = crate::build_ir(&doc, &crate::Options::default()) else {
                continue;
            };
            for gated in [false, true] {
                if gated && !api.operations.is_empty() {
                    api.tag_features = Some(crate::ir::tag_features::assign(&api));
                }
                let whole =
                    super::super::rust_file("src/models.rs", super::tokens(&api).unwrap()).unwrap();
                let by_type = super::emit(&api).unwrap();
                assert_eq!(by_type.contents, whole.contents, "{}", spec.display());
                compared += 1;
            }
        }
        assert!(compared >= 20, "only {compared} models compared");
    }
}
