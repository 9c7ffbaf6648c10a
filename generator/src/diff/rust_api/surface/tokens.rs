//! Reading emitted tokens back: a type's spelling ([`type_text`]), paths made absolute
//! (`qualify`), and the fields, variants and signatures of items parsed with syn.

use std::collections::HashMap;

use proc_macro2::{Delimiter, Group as TokenGroup, Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};

use super::items::{Member, Signature, Variant};
use crate::error::{Error, Result};

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
pub(super) fn qualify(tokens: TokenStream, module: &str, locals: &Locals) -> TokenStream {
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
pub(super) type Locals = HashMap<String, Option<&'static str>>;

/// Names declared in the module, and the crate's shared types it imports.
pub(super) fn locals(names: &[&str]) -> Locals {
    let mut map: Locals = names.iter().map(|n| (n.to_string(), None)).collect();
    map.insert("Credentials".into(), Some("credentials"));
    map.insert("Secret".into(), Some("credentials"));
    map.insert("RetryPolicy".into(), Some("retry"));
    map
}

pub(super) fn emit_error(message: String) -> Error {
    Error::Emit {
        file: "the generated crate's API (specgen diff)".into(),
        message,
    }
}

/// A field's type from the tokens `field_tokens` emits: `#[...]* pub name: Type,`.
pub(super) fn field_type(tokens: TokenStream) -> TokenStream {
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
pub(super) fn accessor(tokens: TokenStream) -> Option<(String, TokenStream)> {
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

/// A struct's fields, parsed from emitted tokens.
pub(super) fn struct_fields(item: &syn::ItemStruct, module: &str, locals: &Locals) -> Vec<Member> {
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
pub(super) fn enum_variants(item: &syn::ItemEnum, module: &str, locals: &Locals) -> Vec<Variant> {
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

pub(super) fn signature(sig: &syn::Signature, module: &str, locals: &Locals) -> Signature {
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

pub(super) fn parse<T: syn::parse::Parse>(tokens: TokenStream, what: &str) -> Result<T> {
    syn::parse2(tokens).map_err(|err| emit_error(format!("reading back {what}: {err}")))
}

/// Items of a token stream holding several (an enum and its impls).
pub(super) fn parse_items(tokens: TokenStream, what: &str) -> Result<Vec<syn::Item>> {
    parse::<syn::File>(tokens, what).map(|file| file.items)
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
