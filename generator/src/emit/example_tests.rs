//! `src/example_tests.rs` of the generated crate: one round-trip test per example in the spec.
//! Each deserializes the example into the generated type for the place it stands and
//! serializes it back, and fails naming the example's JSON pointer. Equality follows the rules
//! in the README: objects compare as maps (key order is free), absent and null stay distinct,
//! numbers compare by value (`1` equals `1.0`).

use proc_macro2::TokenStream;
use quote::quote;

use super::types::{ident, rust_type};
use super::{GeneratedFile, rust_file};
use crate::error::Result;
use crate::examples::Site;

/// The examples test file: a test per example that is valid against its schema; the others
/// are named in the file's documentation with the reason. `None` when nothing is testable.
pub fn emit(checked: &[(&Site<'_>, Vec<String>)]) -> Result<Option<GeneratedFile>> {
    let models = quote!(crate::models::);
    let mut tests = Vec::new();
    let mut skipped = Vec::new();
    let mut names = std::collections::HashSet::new();
    for (site, violations) in checked {
        let Some(ty) = &site.ty else {
            continue;
        };
        let pointer = site.example.pointer.as_str();
        if let Some(first) = violations.first() {
            skipped.push(format!(" - `{pointer}`: {first}"));
            continue;
        }
        let ty = rust_type(ty, &models)?;
        let json = site.example.value.to_string();
        let mut name = crate::ir::naming::snake(pointer, "example");
        while !names.insert(name.clone()) {
            name.push('_');
        }
        let name = ident(&name);
        tests.push(quote! {
            #[test]
            fn #name() {
                round_trip::<#ty>(#pointer, #json);
            }
        });
    }
    if tests.is_empty() {
        return Ok(None);
    }
    let skipped_docs = (!skipped.is_empty()).then(|| {
        let mut lines = vec![
            String::new(),
            " Not tested: these examples contradict their own schema (`specval examples` lists"
                .to_string(),
            " every violation).".to_string(),
            String::new(),
        ];
        lines.extend(skipped);
        quote!(#(#![doc = #lines])*)
    });
    rust_file("src/example_tests.rs", tokens(tests, skipped_docs)).map(Some)
}

fn tokens(tests: Vec<TokenStream>, skipped: Option<TokenStream>) -> TokenStream {
    quote! {
        //! Round trips of every example in the spec through its generated type.
        #skipped

        /// Deserializes the example into `T`, serializes it back, and compares.
        fn round_trip<T: ::serde::de::DeserializeOwned + ::serde::Serialize>(pointer: &str, json: &str) {
            let original: ::serde_json::Value = match ::serde_json::from_str(json) {
                Ok(value) => value,
                Err(err) => panic!("{pointer}: the example is not JSON: {err}"),
            };
            let typed: T = match ::serde_json::from_value(original.clone()) {
                Ok(typed) => typed,
                Err(err) => panic!("{pointer}: the example does not deserialize into {}: {err}", ::std::any::type_name::<T>()),
            };
            let back = match ::serde_json::to_value(&typed) {
                Ok(value) => value,
                Err(err) => panic!("{pointer}: the example does not serialize back: {err}"),
            };
            assert!(
                same_json(&original, &back),
                "{pointer}: the round trip changed the example\n  before: {original}\n  after:  {back}"
            );
        }

        /// JSON equality with numbers compared by value.
        fn same_json(a: &::serde_json::Value, b: &::serde_json::Value) -> bool {
            use ::serde_json::Value;
            match (a, b) {
                (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
                (Value::Array(x), Value::Array(y)) => {
                    x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
                }
                (Value::Object(x), Value::Object(y)) => {
                    x.len() == y.len()
                        && x.iter().all(|(key, x)| y.get(key).is_some_and(|y| same_json(x, y)))
                }
                _ => a == b,
            }
        }

        #(#tests)*
    }
}
