//! Splicing `generator/runtime/` into the output: the parts of the generated crate that are
//! the same for every API, kept as ordinary Rust files so that they are formatted, read by an
//! IDE, compiled and unit-tested as themselves (`generator/tests/runtime/` compiles them in a
//! stand-in for a generated crate and runs their tests). Their `#[cfg(test)]` items are left
//! out of the output, and so are plain `//` comments (which are not tokens): what such a file
//! says to specgen's readers goes in `//` comments, what it says to the crate's in `///` and
//! `//!` docs.
//!
//! A runtime file is either a whole module of the crate (`support.rs`, `retry.rs`,
//! `validation.rs`; [`module_file`]) or the static half of one whose other half depends on the
//! IR (`server.rs` and `problem_details.rs`, `client.rs`, `webhooks.rs`; [`fragment`]): a fragment names the generated
//! half's items unqualified, has no `//!` docs, and its `use` items are placed among the
//! module's own. In either, a submodule declared from another runtime file
//! (`#[path = "union.rs"] pub mod union;`) is spliced in as an inline module.

use proc_macro2::TokenStream;
use quote::quote;

/// Every file under `generator/runtime/`, by name.
const FILES: &[(&str, &str)] = &[
    ("client.rs", include_str!("../../runtime/client.rs")),
    ("manifest.rs", include_str!("../../runtime/manifest.rs")),
    ("path.rs", include_str!("../../runtime/path.rs")),
    (
        "problem_details.rs",
        include_str!("../../runtime/problem_details.rs"),
    ),
    ("retry.rs", include_str!("../../runtime/retry.rs")),
    ("server.rs", include_str!("../../runtime/server.rs")),
    ("support.rs", include_str!("../../runtime/support.rs")),
    ("union.rs", include_str!("../../runtime/union.rs")),
    ("validation.rs", include_str!("../../runtime/validation.rs")),
    ("webhooks.rs", include_str!("../../runtime/webhooks.rs")),
];

/// The contents of a module file of the generated crate that is, whole, the runtime file
/// `name`: its `//!` docs and its items.
pub(crate) fn module_file(name: &str) -> TokenStream {
    let file = parse(name);
    let attrs = file.attrs;
    let items = items(file.items);
    quote! {
        #(#attrs)*
        #(#items)*
    }
}

/// The static half of a module, the runtime file `name`, in two parts for the emitter to place.
pub(crate) struct Fragment {
    /// Its `use` items, for the head of the module.
    pub uses: TokenStream,
    /// Everything else.
    pub items: TokenStream,
}

/// The runtime file `name`, the static half of a module.
pub(crate) fn fragment(name: &str) -> Fragment {
    let file = parse(name);
    // `include!`, which compiles a fragment in the tests, refuses inner attributes.
    assert!(
        file.attrs.is_empty(),
        "runtime fragment {name} has inner attributes"
    );
    let (uses, rest): (Vec<syn::Item>, Vec<syn::Item>) = items(file.items)
        .into_iter()
        .partition(|item| matches!(item, syn::Item::Use(_)));
    Fragment {
        uses: quote!(#(#uses)*),
        items: quote!(#(#rest)*),
    }
}

/// The runtime file `name`, parsed.
fn parse(name: &str) -> syn::File {
    let source = FILES
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(_, source)| *source)
        .unwrap_or_else(|| panic!("{name} is not a file under generator/runtime/"));
    // The files are part of specgen and each is parsed by its tests; a failure here is a
    // build defect, caught by `every_runtime_file_splices`.
    syn::parse_file(source).unwrap_or_else(|err| panic!("runtime file {name}: {err}"))
}

/// `items` as they go into the output: without test-only items, and with each submodule
/// declared from another runtime file spliced in.
fn items(items: Vec<syn::Item>) -> Vec<syn::Item> {
    items
        .into_iter()
        .filter(|item| !is_test_only(item))
        .map(|item| match item {
            syn::Item::Mod(module) if module.content.is_none() => {
                syn::Item::Mod(splice_submodule(module))
            }
            item => item,
        })
        .collect()
}

/// `#[path = "union.rs"] pub mod union;` as `pub mod union { … }`, the file's `//!` docs and
/// items inside.
fn splice_submodule(mut module: syn::ItemMod) -> syn::ItemMod {
    let position = module
        .attrs
        .iter()
        .position(|attr| attr.path().is_ident("path"))
        .unwrap_or_else(|| {
            panic!(
                "runtime submodule `{}` names no runtime file with #[path]",
                module.ident
            )
        });
    let attr = module.attrs.remove(position);
    let file = match &attr.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value:
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(file),
                    ..
                }),
            ..
        }) => file.value(),
        _ => panic!("#[path] of `{}` is not a string", module.ident),
    };
    let file = parse(&file);
    // Inner attributes print inside the braces.
    module.attrs.extend(file.attrs);
    module.content = Some((syn::token::Brace::default(), items(file.items)));
    module.semi = None;
    module
}

/// Whether an item is compiled only for tests (`#[cfg(test)]`).
fn is_test_only(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Mod(item) => &item.attrs,
        syn::Item::Fn(item) => &item.attrs,
        syn::Item::Use(item) => &item.attrs,
        syn::Item::Impl(item) => &item.attrs,
        syn::Item::Struct(item) => &item.attrs,
        syn::Item::Enum(item) => &item.attrs,
        syn::Item::Const(item) => &item.attrs,
        syn::Item::Static(item) => &item.attrs,
        _ => return false,
    };
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

#[cfg(test)]
mod tests {
    use super::{FILES, fragment, module_file};

    #[test]
    fn every_runtime_file_splices() {
        for (name, _) in FILES {
            let text = match *name {
                "server.rs" | "client.rs" | "webhooks.rs" | "problem_details.rs" => {
                    fragment(name).items.to_string()
                }
                _ => module_file(name).to_string(),
            };
            assert!(
                !text.contains("mod tests"),
                "{name}: test items are left out"
            );
            assert!(
                !text.contains("# [path"),
                "{name}: submodules are spliced in"
            );
        }
        let support = module_file("support.rs").to_string();
        assert!(support.contains("pub mod union"), "{support}");
        assert!(support.contains("fn choose"), "union.rs is spliced in");
        let validation = module_file("validation.rs").to_string();
        assert!(
            validation.contains("pub const FORMAT"),
            "manifest.rs is spliced in"
        );
        assert!(
            fragment("server.rs")
                .items
                .to_string()
                .contains("pub fn params")
        );
    }

    #[test]
    fn every_file_under_runtime_is_listed() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/runtime");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let listed: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
        assert_eq!(on_disk, listed);
    }
}
