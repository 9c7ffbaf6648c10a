//! Splicing `generator/runtime/` into the output: the parts of the generated crate that are
//! the same for every API, kept as ordinary Rust files so that they are formatted, read by an
//! IDE, compiled and unit-tested as themselves (`generator/tests/runtime/` compiles them in a
//! stand-in for a generated crate and runs their tests). Their `#[cfg(test)]` items are left
//! out of the output, and so are plain `//` comments (which are not tokens): what such a file
//! says to specgen's readers goes in `//` comments, what it says to the crate's in `///` and
//! `//!` docs.
//!
//! A runtime file is either a whole module of the crate (`support.rs`, `retry.rs`,
//! `validation.rs`; [`module_text`]) or the static half of one whose other half depends on the
//! IR (`server.rs`, `client.rs`, `webhooks.rs`; [`fragment`]): a
//! fragment names the generated half's items unqualified, has no `//!` docs, and its `use`
//! items are placed among the module's own. In either, a submodule declared from another
//! runtime file (`#[path = "union.rs"] pub mod union;`) is spliced in as an inline module
//! (`splice/syntax.rs`).
//!
//! Their output never changes for a given specgen, so the build script (`build.rs`) prints
//! them once, with the same printer as every generated file; this module hands out the text.

use std::str::FromStr;

use proc_macro2::TokenStream;

#[cfg(test)]
pub(crate) mod syntax;

/// Every file under `generator/runtime/`, by name.
#[cfg(test)]
const FILES: &[&str] = &[
    "client.rs",
    "definitions.rs",
    "form.rs",
    "manifest.rs",
    "path.rs",
    "retry.rs",
    "server.rs",
    "support.rs",
    "union.rs",
    "validation.rs",
    "webhooks.rs",
];

/// What the build script printed, by the name it wrote it under: `NAME` for a module file,
/// `NAME.uses` and `NAME.items` for a fragment.
const PRINTED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/runtime/printed.rs"));

fn printed(name: &str) -> &'static str {
    PRINTED
        .iter()
        .find(|(printed, _)| *printed == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("the build script prints no runtime text {name}"))
}

/// The module file of the generated crate that is, whole, the runtime file `name`: its `//!`
/// docs and its items, printed.
pub(crate) fn module_text(name: &str) -> &'static str {
    printed(name)
}

/// The static half of a module, in two parts for the emitter to place.
pub(crate) struct Fragment {
    /// Its `use` items, for the head of the module.
    pub uses: TokenStream,
    /// Everything else, printed: for [`crate::emit::Part::Printed`].
    pub items: &'static str,
}

/// The runtime file `name`, the static half of a module.
pub(crate) fn fragment(name: &str) -> Fragment {
    Fragment {
        uses: tokens(printed(&format!("{name}.uses"))),
        items: printed(&format!("{name}.items")),
    }
}

fn tokens(text: &str) -> TokenStream {
    // Printed by the build script from Rust that parsed; a failure is a build defect, caught by
    // `every_runtime_file_splices`.
    TokenStream::from_str(text).unwrap_or_else(|err| panic!("runtime text: {err}"))
}

#[cfg(test)]
mod tests {
    use super::{FILES, PRINTED, fragment, module_text, tokens};

    fn is_module(name: &str) -> bool {
        PRINTED.iter().any(|(printed, _)| *printed == name)
    }

    fn is_fragment(name: &str) -> bool {
        let items = format!("{name}.items");
        PRINTED.iter().any(|(printed, _)| *printed == items)
    }

    #[test]
    fn every_runtime_file_splices() {
        for name in FILES {
            let text = if is_fragment(name) {
                let fragment = fragment(name);
                assert!(!tokens(fragment.items).is_empty(), "{name}");
                format!("{}{}", fragment.uses, fragment.items)
            } else if is_module(name) {
                module_text(name).to_string()
            } else {
                // A submodule only, spliced into the files above.
                let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime"));
                let declared = format!("#[path = \"{name}\"]");
                assert!(
                    FILES
                        .iter()
                        .any(|file| std::fs::read_to_string(dir.join(file))
                            .unwrap()
                            .contains(&declared)),
                    "{name} is neither printed nor a submodule of a runtime file"
                );
                continue;
            };
            assert!(
                !text.contains("mod tests"),
                "{name}: test items are left out"
            );
            assert!(
                !text.contains("#[path"),
                "{name}: submodules are spliced in"
            );
            assert!(
                !text.contains("#[cfg(test)]"),
                "{name}: test items are left out"
            );
        }
        let support = module_text("support.rs");
        assert!(support.contains("pub mod union"), "{support}");
        assert!(support.contains("fn choose"), "union.rs is spliced in");
        let validation = module_text("validation.rs");
        assert!(
            validation.contains("pub const FORMAT"),
            "manifest.rs is spliced in"
        );
        assert!(fragment("server.rs").items.contains("pub fn params"));
        assert!(fragment("server.rs").uses.to_string().contains("use"));
    }

    /// What the build script printed is the runtime files' items: printed again, it is what
    /// printing the files' items gives (a `macro_rules!`, kept as written, prints as the same
    /// run of tokens either way).
    #[test]
    fn the_printed_runtime_is_the_runtime_files_items() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime"));
        let parse = |name: &str| -> syn::File {
            syn::parse_file(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
        };
        let print = |attrs: Vec<syn::Attribute>, items: Vec<syn::Item>| {
            crate::emit::print::print(syn::File {
                shebang: None,
                attrs,
                items,
            })
        };
        let printed =
            |text: &str| crate::emit::print::print(syn::parse_file(text).expect("it parses"));
        for name in FILES.iter().filter(|name| is_module(name)) {
            let (attrs, items) = super::syntax::spliced(parse(name), &parse);
            assert_eq!(printed(module_text(name)), print(attrs, items), "{name}");
        }
        for name in ["server.rs", "client.rs", "webhooks.rs"] {
            let (_, items) = super::syntax::spliced(parse(name), &parse);
            let (uses, rest): (Vec<_>, Vec<_>) = items
                .into_iter()
                .partition(|item| matches!(item, syn::Item::Use(_)));
            assert_eq!(
                printed(fragment(name).items),
                print(Vec::new(), rest),
                "{name}"
            );
            assert_eq!(
                printed(super::printed(&format!("{name}.uses"))),
                print(Vec::new(), uses),
                "{name}"
            );
        }
        assert!(
            module_text("support.rs").contains("macro_rules! open_enum {\n    ($name:ident"),
            "a macro keeps its layout"
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
        assert_eq!(on_disk, FILES);
    }
}
