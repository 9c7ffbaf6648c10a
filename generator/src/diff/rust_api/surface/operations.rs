//! The items generated for each operation and webhook: the `server` module's parameter
//! structs, response enums and trait methods, the `client` module's methods and success enums,
//! and the `webhooks` module's receiver and sender methods.

use quote::quote;

use super::items::{Kind, Surface};
use super::tokens::{
    Locals, emit_error, enum_variants, locals, parse, parse_items, qualify, signature,
    struct_fields, type_text,
};
use crate::diff::place;
use crate::emit;
use crate::error::Result;
use crate::ir::{Api, Operation, ParamLocation};

/// The names of an operation's response headers structs.
fn header_types(op: &Operation) -> impl Iterator<Item = String> + '_ {
    op.responses
        .iter()
        .filter(|response| !response.headers_type.is_empty())
        .map(|response| response.headers_type.clone())
}

fn operation_identity(op: &Operation) -> String {
    place::operation_label(op.method.key(), &op.path)
}

pub(super) fn server(api: &Api, surface: &mut Surface) -> Result<()> {
    let mut names: Vec<String> = Vec::new();
    for op in &api.operations {
        names.push(format!("{}Params", op.type_prefix));
        names.push(format!("{}Response", op.type_prefix));
        names.extend(header_types(op));
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let local = locals(&names);
    for op in &api.operations {
        let label = operation_identity(op);
        // The struct, then the impl of its `…_or_default()` accessors, when it has any.
        let items = parse_items(emit::server::params_struct(api, op), "a parameters struct")?;
        let params = items
            .iter()
            .find_map(|item| match item {
                syn::Item::Struct(item) => Some(item.clone()),
                _ => None,
            })
            .ok_or_else(|| emit_error("reading back a parameters struct: no struct".into()))?;
        let accessors = items.iter().flat_map(|item| match item {
            syn::Item::Impl(block) => block.items.iter().collect(),
            _ => Vec::new(),
        });
        for accessor in accessors {
            if let syn::ImplItem::Fn(method) = accessor {
                surface.insert(
                    format!("server::{}::{}", params.ident, method.sig.ident),
                    Kind::Method(signature(&method.sig, "server", &local)),
                    &op.pointer,
                    format!("{label} params {}", method.sig.ident),
                );
            }
        }
        let mut fields = struct_fields(&params, "server", &local);
        for field in &mut fields {
            if let Some(param) = op.parameters.iter().find(|p| p.rust_name == field.name) {
                field.wire = format!("{} {}", param.location.as_str(), param.name);
            }
        }
        surface.insert(
            format!("server::{}", params.ident),
            Kind::Struct {
                fields,
                default: false,
            },
            &op.pointer,
            format!("{label} params"),
        );
        for item in parse_items(emit::server::response_enum(op)?, "a response enum")? {
            match item {
                syn::Item::Enum(item) => surface.insert(
                    format!("server::{}", item.ident),
                    Kind::Enum {
                        variants: enum_variants(&item, "server", &local),
                    },
                    &op.pointer,
                    format!("{label} responses"),
                ),
                syn::Item::Struct(item) => {
                    insert_header_struct(&item, "server", &local, op, surface)
                }
                _ => {}
            }
        }
        let method: syn::TraitItemFn = parse(emit::server::trait_method(op)?, "a trait method")?;
        surface.insert(
            format!("server::Api::{}", method.sig.ident),
            Kind::TraitMethod(signature(&method.sig, "server", &local)),
            &op.pointer,
            label,
        );
    }
    Ok(())
}

/// A response's headers struct (and its `impl`, skipped), as `module` declares it.
fn insert_header_structs(
    items: proc_macro2::TokenStream,
    module: &str,
    local: &Locals,
    op: &Operation,
    surface: &mut Surface,
) -> Result<()> {
    for item in parse_items(items, "a headers struct")? {
        if let syn::Item::Struct(item) = item {
            insert_header_struct(&item, module, local, op, surface);
        }
    }
    Ok(())
}

fn insert_header_struct(
    item: &syn::ItemStruct,
    module: &str,
    local: &Locals,
    op: &Operation,
    surface: &mut Surface,
) {
    let derives_default = item.attrs.iter().any(|attr| {
        attr.path().is_ident("derive")
            && quote!(#attr)
                .to_string()
                .split(|c: char| !c.is_alphanumeric())
                .any(|word| word == "Default")
    });
    surface.insert(
        format!("{module}::{}", item.ident),
        Kind::Struct {
            fields: struct_fields(item, module, local),
            default: derives_default,
        },
        &op.pointer,
        format!("{} response headers", operation_identity(op)),
    );
}

pub(super) fn client(api: &Api, surface: &mut Surface) -> Result<()> {
    let mut names: Vec<String> = ["ClientError", "ErrorBody"].map(String::from).to_vec();
    names.extend(
        api.operations
            .iter()
            .map(|op| format!("{}Success", op.type_prefix)),
    );
    names.extend(api.operations.iter().flat_map(header_types));
    names.push("WithHeaders".into());
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let local = locals(&names);
    let error_body = match emit::operations::error_body_type(api) {
        Some(ty) => emit::operations::body_type(&ty)?,
        None => quote!(::serde_json::Value),
    };
    surface.insert(
        "client::ErrorBody".into(),
        Kind::Alias(type_text(&qualify(error_body, "client", &local))),
        "#/paths",
        "error body".into(),
    );
    for op in &api.operations {
        let label = operation_identity(op);
        let successes = emit::client::success(op)?;
        if let Some(item) = successes.item {
            let item: syn::ItemEnum = parse(item, "a success enum")?;
            surface.insert(
                format!("client::{}", item.ident),
                Kind::Enum {
                    variants: enum_variants(&item, "client", &local),
                },
                &op.pointer,
                format!("{label} successes"),
            );
        }
        for items in successes.header_types {
            insert_header_structs(items, "client", &local, op, surface)?;
        }
        let method: syn::ImplItemFn = parse(
            emit::client::method(api, op, &successes.ty, successes.arms)?,
            "a client method",
        )?;
        let mut sig = signature(&method.sig, "client", &local);
        // What an argument stands for on the wire: a path parameter by the place it fills
        // in the template (renaming `{itemUuid}` to `{itemId}` sends the same value to the
        // same segment), any other by its location and name.
        let variables: Vec<&str> = op
            .path
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
            .collect();
        for arg in &mut sig.args {
            if let Some(param) = op.parameters.iter().find(|p| p.rust_name == arg.name) {
                let place = variables.iter().position(|name| *name == param.name);
                arg.wire = match (param.location, place) {
                    (ParamLocation::Path, Some(place)) => {
                        format!("path parameter {} of the template", place + 1)
                    }
                    _ => format!("{} {}", param.location.as_str(), param.name),
                };
            }
        }
        surface.insert(
            format!("client::Client::{}", method.sig.ident),
            Kind::Method(sig),
            &op.pointer,
            label,
        );
    }
    Ok(())
}

pub(super) fn webhooks(api: &Api, surface: &mut Surface) -> Result<()> {
    let local = locals(&["HandlerError", "Delivery", "Sender"]);
    for hook in &api.webhooks {
        let parts = emit::webhooks::Parts::of(hook)?;
        let label = place::webhook_label(&hook.name);
        let receiver: syn::TraitItemFn = parse(
            emit::webhooks::receiver_method(hook, &parts),
            "a receiver method",
        )?;
        surface.insert(
            format!("webhooks::Webhooks::{}", receiver.sig.ident),
            Kind::TraitMethod(signature(&receiver.sig, "webhooks", &local)),
            &hook.operation.pointer,
            format!("{label} receiver"),
        );
        let sender: syn::ImplItemFn = parse(
            emit::webhooks::sender_method(hook, &parts),
            "a sender method",
        )?;
        surface.insert(
            format!("webhooks::Sender::{}", sender.sig.ident),
            Kind::Method(signature(&sender.sig, "webhooks", &local)),
            &hook.operation.pointer,
            format!("{label} sender"),
        );
    }
    Ok(())
}
