//! The public Rust API of the crate specgen generates for an IR: every type, field, variant,
//! method and trait method a user can name, with its exact type.
//!
//! Types are spelled by the emitters themselves: models' fields through
//! `emit::models::field_tokens`, server, client and webhook items through the functions that
//! emit them (their tokens read back with syn), so the surface cannot drift from the code.
//! Paths are absolute (`crate::models::Pet`, `::serde_json::Value`).

use std::collections::{BTreeMap, HashMap};

use proc_macro2::{Delimiter, Group as TokenGroup, Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};

use crate::diff::finding::Group;
use crate::diff::place;
use crate::emit;
use crate::error::{Error, Result};
use crate::ir::{Additional, Api, Field as IrField, Operation, TypeDef, TypeKind, TypeRef};

/// Every public item, by path (`models::Pet`, `client::Client::get_pet`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surface {
    /// The items.
    pub items: BTreeMap<String, Item>,
}

/// One public item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// What it is.
    pub kind: Kind,
    /// JSON pointer of what it was made from.
    pub origin: String,
    /// What stays the same when its Rust name changes (a schema's pointer, an operation's
    /// method and path), to tell a rename from a removal.
    pub identity: String,
    /// Its group in a changelog.
    pub group: Group,
}

/// The kind of an item, with what user code can rely on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A module that exists only when the API has operations (or webhooks).
    Module,
    /// A struct with public fields.
    Struct {
        /// Its fields.
        fields: Vec<Member>,
        /// Whether it implements `Default`.
        default: bool,
    },
    /// An enum.
    Enum {
        /// Its variants; a payload of several types is a tuple variant.
        variants: Vec<Variant>,
    },
    /// `pub struct Name(pub T)`.
    Newtype(String),
    /// `pub type Name = T`.
    Alias(String),
    /// An inherent method (`Self::name(...)` or `self.name(...)`).
    Method(Signature),
    /// A method of one of the crate's traits (`server::Api`, `webhooks::Webhooks`).
    TraitMethod(Signature),
}

impl Kind {
    /// What kind of item, in prose.
    pub fn noun(&self) -> &'static str {
        match self {
            Kind::Module => "module",
            Kind::Struct { .. } => "struct",
            Kind::Enum { .. } => "enum",
            Kind::Newtype(_) => "newtype",
            Kind::Alias(_) => "type alias",
            Kind::Method(_) => "method",
            Kind::TraitMethod(_) => "trait method",
        }
    }
}

/// A field or an argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Rust name.
    pub name: String,
    /// Type, with absolute paths.
    pub ty: String,
    /// What it stands for on the wire (property or parameter name), to tell renames.
    pub wire: String,
}

/// An enum variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// Rust name.
    pub name: String,
    /// Payload types: none for a unit variant.
    pub payload: Vec<String>,
    /// What it stands for (enum value, status, alternative), to tell renames.
    pub wire: String,
}

/// A method's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The receiver (`&self`), if any.
    pub receiver: Option<String>,
    /// Arguments, in order.
    pub args: Vec<Member>,
    /// Return type (`()` when none).
    pub ret: String,
    /// `async fn`.
    pub is_async: bool,
}

impl Surface {
    /// The surface of the crate generated for `api`.
    pub fn of(api: &Api) -> Result<Surface> {
        let mut surface = Surface::default();
        models(api, &mut surface)?;
        credentials(api, &mut surface)?;
        if !api.operations.is_empty() {
            surface.module("server", "#/paths");
            surface.module("client", "#/paths");
            server(api, &mut surface)?;
            client(api, &mut surface)?;
        }
        if !api.webhooks.is_empty() {
            surface.module("webhooks", "#/webhooks");
            webhooks(api, &mut surface)?;
        }
        Ok(surface)
    }

    fn module(&mut self, name: &str, origin: &str) {
        self.insert(
            name.to_string(),
            Kind::Module,
            origin,
            format!("module {name}"),
        );
    }

    fn insert(&mut self, path: String, kind: Kind, origin: &str, identity: String) {
        self.items.insert(
            path,
            Item {
                kind,
                origin: origin.to_string(),
                identity,
                group: place::group(origin),
            },
        );
    }
}

/// A type's spelling: tokens with absolute paths, spaces only where Rust needs them (and
/// around `=`, `+` and after `,`).
pub(crate) fn type_text(tokens: &TokenStream) -> String {
    let mut out = String::new();
    // The last thing written was a word: another word needs a space first.
    let mut word = false;
    for tree in tokens.clone() {
        match tree {
            TokenTree::Ident(ident) => {
                let text = ident.to_string();
                if word {
                    out.push(' ');
                }
                out.push_str(&text);
                word = true;
                if text == "impl" || text == "dyn" {
                    out.push(' ');
                    word = false;
                }
            }
            TokenTree::Punct(punct) => {
                match punct.as_char() {
                    ',' => out.push_str(", "),
                    c @ ('+' | '=') => {
                        let trimmed = out.trim_end().len();
                        out.truncate(trimmed);
                        out.push(' ');
                        out.push(c);
                        out.push(' ');
                    }
                    c => out.push(c),
                }
                word = false;
            }
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                out.push_str(&type_text(&group.stream()));
                out.push_str(close);
                word = false;
            }
            TokenTree::Literal(literal) => {
                if word {
                    out.push(' ');
                }
                out.push_str(&literal.to_string());
                word = true;
            }
        }
    }
    out.trim_end().to_string()
}

/// `super::` (every generated module sits right below the crate root) as `crate::`, and the
/// names a module declares or imports made absolute.
fn qualify(tokens: TokenStream, module: &str, locals: &Locals) -> TokenStream {
    let mut out = Vec::new();
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (index, tree) in trees.iter().enumerate() {
        let after_colons =
            index > 0 && matches!(&trees[index - 1], TokenTree::Punct(p) if p.as_char() == ':');
        match tree {
            TokenTree::Ident(ident) if ident == "super" && !after_colons => {
                out.push(TokenTree::Ident(Ident::new("crate", Span::call_site())));
            }
            TokenTree::Ident(ident) if !after_colons && locals.contains_key(&ident.to_string()) => {
                let home = locals[&ident.to_string()].unwrap_or(module);
                let home = Ident::new(home, Span::call_site());
                out.extend(quote!(crate::#home::));
                out.push(tree.clone());
            }
            TokenTree::Group(group) => {
                let inner = qualify(group.stream(), module, locals);
                out.push(TokenTree::Group(TokenGroup::new(group.delimiter(), inner)));
            }
            other => out.push(other.clone()),
        }
    }
    out.into_iter().collect()
}

/// Names a module uses unqualified: declared there (`None`), or imported from another module.
type Locals = HashMap<String, Option<&'static str>>;

/// Names declared in the module, and the crate's shared types it imports.
fn locals(names: &[&str]) -> Locals {
    let mut map: Locals = names.iter().map(|n| (n.to_string(), None)).collect();
    map.insert("Credentials".into(), Some("credentials"));
    map.insert("Secret".into(), Some("credentials"));
    map.insert("RetryPolicy".into(), Some("retry"));
    map
}

fn emit_error(message: String) -> Error {
    Error::Emit {
        file: "the generated crate's API (specgen diff)".into(),
        message,
    }
}

/// A field's type from the tokens `field_tokens` emits: `#[...]* pub name: Type,`.
fn field_type(tokens: TokenStream) -> TokenStream {
    let mut trees = tokens.into_iter().peekable();
    // Attributes.
    while matches!(trees.peek(), Some(TokenTree::Punct(p)) if p.as_char() == '#') {
        trees.next();
        trees.next();
    }
    // `pub`, the name, `:`.
    trees.next();
    trees.next();
    trees.next();
    let mut ty: Vec<TokenTree> = trees.collect();
    if matches!(ty.last(), Some(TokenTree::Punct(p)) if p.as_char() == ',') {
        ty.pop();
    }
    ty.into_iter().collect()
}

/// The name and return type of an accessor `default_accessor` emits:
/// `#[doc] pub fn name(&self) -> Type { ... }`.
fn accessor(tokens: TokenStream) -> Option<(String, TokenStream)> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let fn_at = trees
        .iter()
        .position(|t| matches!(t, TokenTree::Ident(i) if i == "fn"))?;
    let name = trees.get(fn_at + 1)?.to_string();
    let arrow = trees
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '>'))?;
    let body = trees
        .iter()
        .rposition(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))?;
    Some((name, trees[arrow + 1..body].iter().cloned().collect()))
}

fn models(api: &Api, surface: &mut Surface) -> Result<()> {
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

/// A struct's fields, parsed from emitted tokens.
fn struct_fields(item: &syn::ItemStruct, module: &str, locals: &Locals) -> Vec<Member> {
    item.fields
        .iter()
        .map(|field| {
            let name = field
                .ident
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            Member {
                wire: name.clone(),
                name,
                ty: type_text(&qualify(field.ty.to_token_stream(), module, locals)),
            }
        })
        .collect()
}

/// An enum's variants, parsed from emitted tokens.
fn enum_variants(item: &syn::ItemEnum, module: &str, locals: &Locals) -> Vec<Variant> {
    item.variants
        .iter()
        .map(|variant| Variant {
            name: variant.ident.to_string(),
            payload: variant
                .fields
                .iter()
                .map(|f| type_text(&qualify(f.ty.to_token_stream(), module, locals)))
                .collect(),
            // The status the doc comment starts with (`` `201` ``), else the name.
            wire: doc_status(&variant.attrs).unwrap_or_else(|| variant.ident.to_string()),
        })
        .collect()
}

/// The status a response variant's first doc line names (`` `404`: not found ``).
fn doc_status(attrs: &[syn::Attribute]) -> Option<String> {
    let first = attrs.iter().find(|a| a.path().is_ident("doc"))?;
    let syn::Meta::NameValue(meta) = &first.meta else {
        return None;
    };
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(text),
        ..
    }) = &meta.value
    else {
        return None;
    };
    let text = text.value();
    let status = text
        .trim()
        .strip_prefix('`')?
        .split('`')
        .next()?
        .to_string();
    Some(status)
}

fn signature(sig: &syn::Signature, module: &str, locals: &Locals) -> Signature {
    let mut receiver = None;
    let mut args = Vec::new();
    for input in &sig.inputs {
        match input {
            syn::FnArg::Receiver(r) => receiver = Some(type_text(&r.to_token_stream())),
            syn::FnArg::Typed(typed) => {
                let name = type_text(&typed.pat.to_token_stream());
                args.push(Member {
                    wire: name.clone(),
                    name,
                    ty: type_text(&qualify(typed.ty.to_token_stream(), module, locals)),
                });
            }
        }
    }
    let ret = match &sig.output {
        syn::ReturnType::Default => "()".to_string(),
        syn::ReturnType::Type(_, ty) => type_text(&qualify(ty.to_token_stream(), module, locals)),
    };
    Signature {
        receiver,
        args,
        ret,
        is_async: sig.asyncness.is_some(),
    }
}

fn parse<T: syn::parse::Parse>(tokens: TokenStream, what: &str) -> Result<T> {
    syn::parse2(tokens).map_err(|err| emit_error(format!("reading back {what}: {err}")))
}

/// Items of a token stream holding several (an enum and its impls).
fn parse_items(tokens: TokenStream, what: &str) -> Result<Vec<syn::Item>> {
    parse::<syn::File>(tokens, what).map(|file| file.items)
}

fn operation_identity(op: &Operation) -> String {
    place::operation_label(op.method.key(), &op.path)
}

fn server(api: &Api, surface: &mut Surface) -> Result<()> {
    let mut names: Vec<String> = Vec::new();
    for op in &api.operations {
        names.push(format!("{}Params", op.type_prefix));
        names.push(format!("{}Response", op.type_prefix));
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let local = locals(&names);
    for op in &api.operations {
        let label = operation_identity(op);
        let params: syn::ItemStruct =
            parse(emit::server::params_struct(api, op), "a parameters struct")?;
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
            if let syn::Item::Enum(item) = item {
                surface.insert(
                    format!("server::{}", item.ident),
                    Kind::Enum {
                        variants: enum_variants(&item, "server", &local),
                    },
                    &op.pointer,
                    format!("{label} responses"),
                );
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

fn client(api: &Api, surface: &mut Surface) -> Result<()> {
    let mut names: Vec<String> = ["ClientError", "ErrorBody"].map(String::from).to_vec();
    names.extend(
        api.operations
            .iter()
            .map(|op| format!("{}Success", op.type_prefix)),
    );
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
        let (success_type, success_item, arms) = emit::client::success(op)?;
        if let Some(item) = success_item {
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
        let method: syn::ImplItemFn = parse(
            emit::client::method(api, op, &success_type, arms)?,
            "a client method",
        )?;
        let mut sig = signature(&method.sig, "client", &local);
        for arg in &mut sig.args {
            if let Some(param) = op.parameters.iter().find(|p| p.rust_name == arg.name) {
                arg.wire = format!("{} {}", param.location.as_str(), param.name);
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

fn webhooks(api: &Api, surface: &mut Surface) -> Result<()> {
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

fn credentials(api: &Api, surface: &mut Surface) -> Result<()> {
    let file = emit::runtime::credentials(api)?;
    let parsed = syn::parse_file(&file.contents)
        .map_err(|err| emit_error(format!("reading back credentials.rs: {err}")))?;
    let local = locals(&[]);
    for item in &parsed.items {
        match item {
            syn::Item::Struct(item) if item.ident == "Credentials" => {
                let mut fields = struct_fields(item, "credentials", &local);
                for field in &mut fields {
                    if let Some(scheme) = api
                        .security_schemes
                        .iter()
                        .find(|s| s.rust_name == field.name)
                    {
                        field.wire = scheme.key.clone();
                    }
                }
                surface.insert(
                    "credentials::Credentials".into(),
                    Kind::Struct {
                        fields,
                        default: true,
                    },
                    "#/components/securitySchemes",
                    "credentials".into(),
                );
            }
            syn::Item::Impl(block)
                if block.self_ty.to_token_stream().to_string() == "Credentials" =>
            {
                for inner in &block.items {
                    if let syn::ImplItem::Fn(method) = inner {
                        let mut sig = signature(&method.sig, "credentials", &local);
                        for arg in &mut sig.args {
                            if let Some(scheme) = api
                                .security_schemes
                                .iter()
                                .find(|s| s.rust_name == arg.name)
                            {
                                arg.wire = scheme.key.clone();
                            }
                        }
                        surface.insert(
                            format!("credentials::Credentials::{}", method.sig.ident),
                            Kind::Method(sig),
                            "#/components/securitySchemes",
                            format!("credentials {}", method.sig.ident),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_spelled_compactly() {
        let tokens = quote!(Option<::std::collections::BTreeMap<String, crate::models::Pet>>);
        assert_eq!(
            type_text(&tokens),
            "Option<::std::collections::BTreeMap<String, crate::models::Pet>>"
        );
        let tokens = quote!(impl ::std::future::Future<Output = Result<(), HandlerError>> + Send);
        assert_eq!(
            type_text(&qualify(tokens, "webhooks", &locals(&["HandlerError"]))),
            "impl ::std::future::Future<Output = Result<(), crate::webhooks::HandlerError>> + Send"
        );
        assert_eq!(type_text(&quote!(&'a mut str)), "&'a mut str");
        assert_eq!(
            type_text(&quote!(Option<&super::support::Decimal>)),
            "Option<&super::support::Decimal>"
        );
    }
}
