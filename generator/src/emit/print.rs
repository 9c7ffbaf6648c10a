//! Printing a generated file: prettyplease's layout, plus what a person writing the file by
//! hand would add and prettyplease does not: a blank line between top-level items (`use`
//! lines stay together) and a space after `///`.

use syn::visit_mut::VisitMut;

/// `file` as formatted Rust source.
pub(crate) fn print(mut file: syn::File) -> String {
    SpacedDocs.visit_file_mut(&mut file);
    let items = std::mem::take(&mut file.items);
    let mut out = prettyplease::unparse(&file);
    let mut after_use = false;
    let mut single = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: Vec::with_capacity(1),
    };
    for item in items {
        let is_use = matches!(item, syn::Item::Use(_));
        let uses_together = after_use && is_use;
        if !out.is_empty() && !uses_together {
            out.push('\n');
        }
        single.items.push(item);
        out.push_str(&prettyplease::unparse(&single));
        single.items.clear();
        after_use = is_use;
    }
    out
}

/// Puts a space after `///` (and `//!`): doc text written without one prints as `///Text`.
struct SpacedDocs;

impl VisitMut for SpacedDocs {
    fn visit_attribute_mut(&mut self, attribute: &mut syn::Attribute) {
        if let syn::Meta::NameValue(doc) = &mut attribute.meta
            && doc.path.is_ident("doc")
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &mut doc.value
        {
            let value = text.value();
            if !value.is_empty() && !value.starts_with([' ', '\n']) {
                *text = syn::LitStr::new(&format!(" {value}"), text.span());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::print;

    #[test]
    fn items_are_apart_uses_together_and_docs_spaced() {
        let file: syn::File = syn::parse2(quote! {
            //! The module.
            use a::b;
            use c::d;
            #[doc = "No space."]
            pub struct A;
            /// Has one.
            pub struct B;
            #[doc = ""]
            pub fn f() {}
        })
        .unwrap();
        assert_eq!(
            print(file),
            "//! The module.\n\nuse a::b;\nuse c::d;\n\n/// No space.\npub struct A;\n\n/// Has one.\npub struct B;\n\n///\npub fn f() {}\n"
        );
    }
}
