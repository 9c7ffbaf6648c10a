//! Printing a generated file: prettyplease's layout, plus what a person writing the file by
//! hand would add and prettyplease does not: a blank line between top-level items (`use`
//! lines stay together) and a space after `///`.

use syn::visit_mut::VisitMut;

/// `file` as formatted Rust source.
pub(crate) fn print(file: syn::File) -> String {
    let mut printer = Printer::default();
    printer.file(file);
    printer.finish()
}

/// A file printed part by part: parsed parts item by item, and parts printed beforehand (the
/// runtime files, printed once at specgen's build) as they are. The result is the same as
/// printing the whole file at once.
#[derive(Default)]
pub(crate) struct Printer {
    out: String,
    after_use: bool,
}

impl Printer {
    /// Appends a parsed part: its inner attributes (which only the first part may have), then
    /// its items.
    pub(crate) fn file(&mut self, mut file: syn::File) {
        SpacedDocs.visit_file_mut(&mut file);
        let items = std::mem::take(&mut file.items);
        self.out.push_str(&prettyplease::unparse(&file));
        let mut single = syn::File {
            shebang: None,
            attrs: Vec::new(),
            items: Vec::with_capacity(1),
        };
        for item in items {
            let is_use = matches!(item, syn::Item::Use(_));
            self.separate(is_use);
            single.items.push(item);
            self.out.push_str(&prettyplease::unparse(&single));
            single.items.clear();
            self.after_use = is_use;
        }
    }

    /// Appends items printed beforehand by [`print`], none of them a `use` item.
    pub(crate) fn printed(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.separate(false);
        self.out.push_str(text);
        self.after_use = false;
    }

    /// A blank line before every item but the first, except between `use` items.
    fn separate(&mut self, is_use: bool) {
        let first = self.out.is_empty();
        let uses_together = self.after_use && is_use;
        if !first && !uses_together {
            self.out.push('\n');
        }
    }

    /// The printed file.
    pub(crate) fn finish(self) -> String {
        self.out
    }
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
