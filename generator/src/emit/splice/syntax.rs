//! What of a runtime file goes into the output, as syntax: its items without the test-only
//! ones, each submodule declared from another runtime file (`#[path = "union.rs"] pub mod
//! union;`) spliced in as an inline module. Shared by specgen's build script, which prints the
//! runtime files once (`build.rs`), and by specgen's tests.

/// The inner attributes and the items of `file` as they go into the output; `parse` gives the
/// runtime file a `#[path]` names.
pub(crate) fn spliced(
    file: syn::File,
    parse: &dyn Fn(&str) -> syn::File,
) -> (Vec<syn::Attribute>, Vec<syn::Item>) {
    (file.attrs, items(file.items, parse))
}

fn items(items: Vec<syn::Item>, parse: &dyn Fn(&str) -> syn::File) -> Vec<syn::Item> {
    items
        .into_iter()
        .filter(|item| !is_test_only(item))
        .map(|item| match item {
            syn::Item::Mod(module) if module.content.is_none() => {
                syn::Item::Mod(splice_submodule(module, parse))
            }
            item => item,
        })
        .collect()
}

/// `#[path = "union.rs"] pub mod union;` as `pub mod union { … }`, the file's `//!` docs and
/// items inside.
fn splice_submodule(mut module: syn::ItemMod, parse: &dyn Fn(&str) -> syn::File) -> syn::ItemMod {
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
    module.content = Some((syn::token::Brace::default(), items(file.items, parse)));
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
