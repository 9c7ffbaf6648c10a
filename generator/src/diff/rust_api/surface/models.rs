//! The items of the generated `models` module: every type of the IR, with its fields or
//! variants, and the `<field>_or_default` accessors.

use quote::quote;

use super::items::{Kind, Member, Signature, Surface, Variant};
use super::tokens::{Locals, accessor, field_type, locals, qualify, type_text};
use crate::emit;
use crate::error::Result;
use crate::ir::{Additional, Api, Field as IrField, TypeDef, TypeKind, TypeRef};

pub(super) fn models(api: &Api, surface: &mut Surface) -> Result<()> {
    let here = quote!(crate::models::);
    let none = Locals::new();
    for def in &api.types {
        let path = format!("models::{}", def.name);
        let identity = def.origin.clone();
        let kind = match &def.kind {
            TypeKind::Struct(object) => {
                let mut fields = Vec::new();
                let mut default = true;
                for field in &object.fields {
                    let (tokens, optional) =
                        emit::models::field_tokens(field, &quote!(crate::models::))?;
                    default &= optional;
                    fields.push(Member {
                        name: field.rust_name.clone(),
                        ty: type_text(&qualify(field_type(tokens), "models", &none)),
                        wire: field.wire_name.clone(),
                    });
                    accessor_item(api, def, field, surface);
                }
                let additional = match &object.additional {
                    Additional::Forbidden | Additional::Any => {
                        quote!(::serde_json::Map<String, ::serde_json::Value>)
                    }
                    Additional::Typed(value) => {
                        let value = emit::types::rust_type(value, &here)?;
                        quote!(::std::collections::BTreeMap<String, #value>)
                    }
                };
                fields.push(Member {
                    name: object.additional_name.clone(),
                    ty: type_text(&qualify(additional, "models", &none)),
                    wire: "(undeclared properties)".into(),
                });
                Kind::Struct { fields, default }
            }
            TypeKind::Enum(values) => {
                let mut variants: Vec<Variant> = values
                    .variants
                    .iter()
                    .map(|v| Variant {
                        name: v.rust_name.clone(),
                        payload: Vec::new(),
                        wire: v.wire.clone(),
                    })
                    .collect();
                variants.push(Variant {
                    name: values.catch_all.clone(),
                    payload: vec!["String".into()],
                    wire: "(catch-all)".into(),
                });
                Kind::Enum { variants }
            }
            TypeKind::Union(union) => {
                let mut variants = Vec::new();
                for variant in &union.variants {
                    let mut ty = emit::types::rust_type(&variant.ty, &here)?;
                    if variant.boxed {
                        ty = quote!(Box<#ty>);
                    }
                    variants.push(Variant {
                        name: variant.rust_name.clone(),
                        payload: vec![type_text(&qualify(ty, "models", &none))],
                        wire: alternative_identity(&variant.ty),
                    });
                }
                variants.push(Variant {
                    name: union.catch_all.clone(),
                    payload: vec!["::serde_json::Value".into()],
                    wire: "(catch-all)".into(),
                });
                Kind::Enum { variants }
            }
            TypeKind::Newtype(inner) => Kind::Newtype(model_type(inner)?),
            TypeKind::Alias(inner) => Kind::Alias(model_type(inner)?),
        };
        surface.insert(path, kind, &def.origin, identity);
    }
    Ok(())
}

/// What a union alternative stands for: the type it holds.
fn alternative_identity(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Named(name) => name.clone(),
        other => format!("{other:?}"),
    }
}

fn model_type(ty: &TypeRef) -> Result<String> {
    let tokens = emit::types::rust_type(ty, &quote!(crate::models::))?;
    Ok(type_text(&qualify(tokens, "models", &Locals::new())))
}

/// The `<field>_or_default` accessor of a field, if the models emit one.
fn accessor_item(api: &Api, def: &TypeDef, field: &IrField, surface: &mut Surface) {
    let Some((name, ret)) = emit::models::default_accessor(api, field).and_then(accessor) else {
        return;
    };
    let ret = qualify(ret, "models", &locals(&[def.name.as_str()]));
    surface.insert(
        format!("models::{}::{name}", def.name),
        Kind::Method(Signature {
            receiver: Some("&self".into()),
            args: Vec::new(),
            ret: type_text(&ret),
            is_async: false,
        }),
        &def.origin,
        format!("{} default of {}", def.origin, field.wire_name),
    );
}
