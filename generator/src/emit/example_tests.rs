//! `src/example_tests.rs` of the generated crate: every example in the spec, round-tripped
//! through the generated type for the place it stands, and proven to land in the right
//! alternative of every union it passes through.
//!
//! The examples are a table, checked by one generic function instantiated once per type, so a
//! spec with a thousand examples costs a thousand table rows, not a thousand test functions.
//! Each example:
//! - deserializes into its type, serializes back (through text, as a peer would read it) and
//!   compares equal by the README's rules: objects as maps, absent and null distinct, numbers
//!   by value;
//! - for each union value met on the way, lands in an alternative whose schema it satisfies,
//!   never in the union's catch-all: an equal round trip through the wrong alternative (the
//!   lost members sitting in its `additional_properties`) fails here.
//!
//! With `SPECGEN_UNION_REPORT=<file>` set, the test appends one JSON line per union value to
//! the file (example, union, alternative), which `scripts/sweep-corpus.sh` counts.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::contract::{ContractFiles, bundle_as_contract};
use super::types::rust_type;
use super::{GeneratedFile, rust_file};
use crate::error::{Error, Result};
use crate::examples::Site;
use crate::ir::build::component_target;
use crate::ir::{Api, TypeKind, TypeRef};

/// The examples test file: a row per example that is valid against its schema; the others
/// are named in the file's documentation with the reason. `None` when nothing is testable.
pub fn emit(api: &Api, checked: &[(&Site<'_>, Vec<String>)]) -> Result<Option<GeneratedFile>> {
    let models = quote!(crate::models::);
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    let mut roots = Vec::new();
    for (site, violations) in checked {
        let Some(ty) = &site.ty else {
            continue;
        };
        let pointer = site.example.pointer.as_str();
        if let Some(first) = violations.first() {
            skipped.push(format!(" - `{pointer}`: {first}"));
            continue;
        }
        if let Some(reason) = misfit(api, ty, &site.example.value, &mut String::new()) {
            skipped.push(format!(" - `{pointer}`: {reason}"));
            continue;
        }
        roots.push(ty.clone());
        // With per-tag features, an example of a type behind features is tested with them.
        let gate = super::tag_features::type_ref(api, ty);
        let ty = rust_type(ty, &models)?;
        let json = site.example.value.to_string();
        rows.push(quote!(#gate (#pointer, #json, round_trip::<#ty>)));
    }
    if rows.is_empty() {
        return Ok(None);
    }
    let unions = union_table(api, &roots)?;
    // With per-tag features every row may be gated off (a tag built alone whose types have no
    // example), and an unused function fails `-D warnings`.
    let dead_code = api.tag_features.is_some().then(
        || quote!(#[allow(dead_code, reason = "a build of tags without examples calls nothing")]),
    );
    let skipped_docs = (!skipped.is_empty()).then(|| {
        let mut lines = vec![
            String::new(),
            " Not tested: these examples contradict their own schema (`specval examples` lists"
                .to_string(),
            " every violation), or hold a JSON type their schema allows only by omission (an"
                .to_string(),
            " array where a schema with `properties` but no `type` describes an object)."
                .to_string(),
            String::new(),
        ];
        lines.extend(skipped);
        quote!(#(#![doc = #lines])*)
    });
    rust_file(
        "src/example_tests.rs",
        tokens(rows, unions, skipped_docs, dead_code),
    )
    .map(Some)
}

/// Why `value` cannot be held by the Rust type `ty` although its schema accepts it, if so: a
/// JSON type the schema allows only by omission, like an array under a schema with
/// `properties` but no `type` (JSON Schema applies `properties` to objects only, so anything
/// else passes). `at` is the path so far, for the message.
fn misfit(api: &Api, ty: &TypeRef, value: &Value, at: &mut String) -> Option<String> {
    let kind = |expected: &str| {
        let found = match value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        };
        let place = if at.is_empty() {
            "the example"
        } else {
            at.as_str()
        };
        Some(format!(
            "{place} is {found}, where the generated type holds {expected}"
        ))
    };
    match ty {
        TypeRef::Any | TypeRef::Custom(_) | TypeRef::Pointer(_) => None,
        TypeRef::Nullable(_) if value.is_null() => None,
        TypeRef::Nullable(inner) => misfit(api, inner, value, at),
        TypeRef::Object if value.is_object() => None,
        TypeRef::Object => kind("an object"),
        TypeRef::Array(item) => match value {
            Value::Array(items) => items.iter().enumerate().find_map(|(index, item_value)| {
                let len = at.len();
                at.push_str(&format!("/{index}"));
                let found = misfit(api, item, item_value, at);
                at.truncate(len);
                found
            }),
            _ => kind("an array"),
        },
        TypeRef::Map(inner) => match value {
            Value::Object(map) => map.iter().find_map(|(name, member)| {
                let len = at.len();
                at.push_str(&format!("/{name}"));
                let found = misfit(api, inner, member, at);
                at.truncate(len);
                found
            }),
            _ => kind("an object"),
        },
        TypeRef::Scalar(_) => None,
        TypeRef::Named(name) => match api.type_named(name).map(|def| &def.kind) {
            Some(TypeKind::Struct(object)) => match value {
                Value::Object(map) => object.fields.iter().find_map(|field| {
                    let member = map.get(&field.wire_name)?;
                    if member.is_null() && (field.nullable || !field.required) {
                        return None;
                    }
                    let len = at.len();
                    at.push_str(&format!("/{}", field.wire_name));
                    let found = misfit(api, &field.ty, member, at);
                    at.truncate(len);
                    found
                }),
                _ => kind("an object"),
            },
            Some(TypeKind::Newtype(inner) | TypeKind::Alias(inner)) => {
                misfit(api, inner, value, at)
            }
            // A union keeps what fits no alternative; an enum is read from a string, and a
            // non-string contradicts its schema (checked before).
            _ => None,
        },
    }
}

/// `(union, [(alternative, schema)])` for every union reachable from the examples' types, the
/// schema being a contract file (`File`) or an inline bundle (`Inline`).
fn union_table(api: &Api, roots: &[TypeRef]) -> Result<Vec<TokenStream>> {
    let components: BTreeMap<&str, &Value> = api
        .schemas
        .iter()
        .map(|(name, schema)| (name.as_str(), schema))
        .collect();
    let names = ContractFiles::of(api);
    let mut rows = Vec::new();
    for name in reachable(api, roots) {
        let Some(TypeKind::Union(union)) = api.type_named(&name).map(|def| &def.kind) else {
            continue;
        };
        let mut alternatives = Vec::new();
        for variant in &union.variants {
            let label = variant.rust_name.as_str();
            let schema = match component_file(&variant.schema, &names) {
                Some(path) => quote!(Schema::File(#path)),
                None => {
                    let bundled = bundle_as_contract(&variant.schema, &components)?;
                    let text = serde_json::to_string(&bundled).map_err(|err| Error::Emit {
                        file: "src/example_tests.rs".into(),
                        message: err.to_string(),
                    })?;
                    quote!(Schema::Inline(#text))
                }
            };
            alternatives.push(quote!((#label, #schema)));
        }
        rows.push(quote!((#name, &[#(#alternatives),*])));
    }
    Ok(rows)
}

/// The contract file of a schema that is only a reference to a component.
fn component_file(schema: &Value, names: &ContractFiles) -> Option<String> {
    let map = schema.as_object()?;
    if map.len() != 1 {
        return None;
    }
    let (name, rest) = component_target(map.get("$ref")?.as_str()?)?;
    rest.is_empty().then(|| names.component(&name))
}

/// Names of the types reachable from `roots`, sorted.
fn reachable(api: &Api, roots: &[TypeRef]) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for root in roots {
        api.collect_named(root, true, &mut seen);
    }
    seen
}

fn tokens(
    rows: Vec<TokenStream>,
    unions: Vec<TokenStream>,
    skipped: Option<TokenStream>,
    dead_code: Option<TokenStream>,
) -> TokenStream {
    quote! {
        //! Every example in the spec through its generated type: the round trip is equal, and
        //! each union value lands in an alternative whose schema it satisfies.
        #skipped

        use ::serde_json::Value;

        use crate::support::union::{decisions, same_json};

        /// Where an alternative's schema lives.
        #[allow(dead_code)]
        enum Schema {
            /// A contract file under `schemas/`, embedded in `crate::contract`.
            File(&'static str),
            /// A self-contained schema.
            Inline(&'static str),
        }

        /// Every example: its JSON pointer in the spec, its JSON, and its round trip.
        #[allow(clippy::type_complexity)]
        static EXAMPLES: &[(&str, &str, fn(&str) -> Result<Vec<decisions::Decision>, String>)] = &[#(#rows),*];

        /// Every union the examples can pass through, with the schema of each alternative.
        #[allow(clippy::type_complexity)]
        static UNIONS: &[(&str, &[(&str, Schema)])] = &[#(#unions),*];

        /// Deserializes an example into `T`, serializes it back through text and compares;
        /// returns the union choices made on the way.
        #dead_code
        fn round_trip<T: ::serde::de::DeserializeOwned + ::serde::Serialize>(json: &str) -> Result<Vec<decisions::Decision>, String> {
            let original: Value = ::serde_json::from_str(json).map_err(|err| format!("the example is not JSON: {err}"))?;
            let (typed, choices) = decisions::observe(|| crate::support::from_json_value::<T>(original.clone()));
            let typed = typed.map_err(|err| format!("the example does not deserialize into {}: {err}", ::std::any::type_name::<T>()))?;
            let text = ::serde_json::to_string(&typed).map_err(|err| format!("the example does not serialize back: {err}"))?;
            let back: Value = ::serde_json::from_str(&text).map_err(|err| format!("serialized back, the example is not JSON: {err}"))?;
            if !same_json(&original, &back) {
                return Err(format!("the round trip changed the example\n  before: {original}\n  after:  {back}"));
            }
            Ok(choices)
        }

        /// `format: uri` as the contract reads it (specgen's `manifest::is_uri`, which this
        /// module cannot reach without the validating features): any URI reference.
        fn is_uri(text: &str) -> bool {
            static REFERENCE: ::std::sync::OnceLock<Option<::jsonschema::Validator>> = ::std::sync::OnceLock::new();
            has_format(&REFERENCE, "uri-reference", text)
        }

        /// `format: duration` as the contract reads it (specgen's `manifest::is_duration`):
        /// RFC 3339's, and a fraction on the seconds (`PT9.87S`).
        fn is_duration(text: &str) -> bool {
            static DURATION: ::std::sync::OnceLock<Option<::jsonschema::Validator>> = ::std::sync::OnceLock::new();
            let whole_seconds = text
                .strip_suffix('S')
                .and_then(|rest| rest.rsplit_once(['.', ',']))
                .filter(|(whole, fraction)| {
                    whole.ends_with(|c: char| c.is_ascii_digit())
                        && !fraction.is_empty()
                        && fraction.bytes().all(|b| b.is_ascii_digit())
                })
                .map(|(whole, _)| format!("{whole}S"));
            has_format(&DURATION, "duration", whole_seconds.as_deref().unwrap_or(text))
        }

        /// Whether `text` has JSON Schema's `format` (the jsonschema crate's check, compiled once).
        fn has_format(check: &::std::sync::OnceLock<Option<::jsonschema::Validator>>, format: &str, text: &str) -> bool {
            check
                .get_or_init(|| {
                    ::jsonschema::options()
                        .with_draft(::jsonschema::Draft::Draft202012)
                        .should_validate_formats(true)
                        .build(&::serde_json::json!({ "format": format }))
                        .ok()
                })
                .as_ref()
                .is_none_or(|check| check.is_valid(&Value::String(text.to_owned())))
        }

        /// Checks that a union value landed in an alternative whose schema it satisfies.
        fn landed_right(choice: &decisions::Decision) -> Result<&'static str, String> {
            let alternatives = UNIONS
                .iter()
                .find(|(union, _)| *union == choice.union)
                .map(|(_, alternatives)| *alternatives)
                .ok_or_else(|| format!("no alternatives listed for union `{}`", choice.union))?;
            let Some(index) = choice.variant else {
                return Err(format!("a `{}` value landed in no alternative and was kept as JSON: {}", choice.union, choice.value));
            };
            let (variant, schema) = &alternatives[index];
            let schema: Value = match schema {
                Schema::File(path) => crate::contract::schema(path)?,
                Schema::Inline(text) => ::serde_json::from_str(text).map_err(|err| format!("the schema of `{}::{variant}` is not JSON: {err}", choice.union))?,
            };
            let validator = ::jsonschema::options()
                .with_draft(::jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .with_format("uri", is_uri)
                .with_format("duration", is_duration)
                .with_format("byte", crate::support::union::is_base64)
                .build(&schema)
                .map_err(|err| format!("the schema of `{}::{variant}` does not compile: {err}", choice.union))?;
            let errors: Vec<String> = validator.iter_errors(&choice.value).map(|err| format!("{}: {err}", err.instance_path())).collect();
            if errors.is_empty() {
                Ok(variant)
            } else {
                Err(format!("a `{}` value landed in `{variant}`, whose schema it does not satisfy ({}): {}", choice.union, errors.join("; "), choice.value))
            }
        }

        #[test]
        fn examples_round_trip_into_the_right_alternative() {
            let report = ::std::env::var_os("SPECGEN_UNION_REPORT");
            let mut lines = String::new();
            let mut failures = Vec::new();
            let mut unions = 0;
            for (pointer, json, round_trip) in EXAMPLES {
                match round_trip(json) {
                    Err(err) => failures.push(format!("{pointer}: {err}")),
                    Ok(choices) => {
                        for choice in &choices {
                            match landed_right(choice) {
                                Ok(variant) => {
                                    unions += 1;
                                    let line = ::serde_json::json!({ "example": pointer, "union": choice.union, "variant": variant });
                                    lines.push_str(&format!("{line}\n"));
                                }
                                Err(err) => failures.push(format!("{pointer}: {err}")),
                            }
                        }
                    }
                }
            }
            if let Some(path) = report {
                use ::std::io::Write as _;
                let written = ::std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .and_then(|mut file| file.write_all(lines.as_bytes()));
                if let Err(err) = written {
                    failures.push(format!("SPECGEN_UNION_REPORT: {err}"));
                }
            }
            println!(
                "specgen examples: {} round-tripped, {unions} union values in an alternative whose schema they satisfy",
                EXAMPLES.len() - failures.len().min(EXAMPLES.len())
            );
            assert!(
                failures.is_empty(),
                "{} failure(s) among the {} examples:\n{}",
                failures.len(),
                EXAMPLES.len(),
                failures.join("\n")
            );
        }
    }
}
