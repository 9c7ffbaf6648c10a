//! specgen: reads an OpenAPI document and writes Rust bindings and a JSON Schema contract.
//!
//! The pipeline is load → IR → emitters:
//! - [`load`] parses YAML or JSON (OpenAPI 3.0 or 3.1), normalises 3.0 forms and checks refs;
//! - [`ir::build`] turns the document into the typed [`ir::Api`], with every Rust name chosen
//!   once by [`ir::naming`];
//! - [`emit`] writes the crate (models, support types, embedded contract) and the contract.
//!
//! Use the [`Builder`] from a `build.rs`, or [`generate_crate`] and [`output`] directly; the
//! `specgen` binary wraps both.

pub mod builder;
pub mod diff;
pub mod emit;
pub mod error;
pub mod examples;
pub mod ir;
pub mod load;
pub mod output;

/// The runtime that `support::union` of every generated crate is copied from, compiled here so
/// that its unit tests run as part of specgen's.
#[cfg(test)]
#[path = "../runtime/union.rs"]
#[allow(dead_code)] // used by the generated models, not by specgen
mod union_runtime;

use std::collections::BTreeMap;

pub use builder::Builder;
pub use emit::GeneratedFile;
pub use error::{Error, Result};

/// What to generate, beyond what the document says.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Package name of the generated crate; defaults to the document's `info.x-crate-name`,
    /// else the kebab-case of `info.title`.
    pub crate_name: Option<String>,
    /// Rust types replacing the generated mapping, keyed by `Component`, `Component.property`
    /// or a JSON pointer to a schema.
    pub type_overrides: BTreeMap<String, String>,
    /// Leaves out `src/example_tests.rs`, the round-trip test of every example.
    pub no_example_tests: bool,
}

/// A generated crate and what specgen chose along the way.
#[derive(Debug, Clone)]
pub struct Generation {
    /// `Cargo.toml`, `src/` and `schemas/`, sorted by path.
    pub files: Vec<GeneratedFile>,
    /// Choices made where the document is ambiguous (duplicate operation ids, clashing
    /// names, contradictory `allOf`), for the user to see.
    pub warnings: Vec<ir::Warning>,
}

/// The complete generated crate for a document: `Cargo.toml`, `src/`, and `schemas/`, sorted
/// by path.
pub fn generate_crate(doc: &load::Document, options: &Options) -> Result<Vec<GeneratedFile>> {
    generate(doc, options).map(|generation| generation.files)
}

/// The generated crate for a document, with the warnings of the way there.
pub fn generate(doc: &load::Document, options: &Options) -> Result<Generation> {
    let api = build_ir(doc, options)?;
    let info = emit::krate::CrateInfo {
        name: crate_name(doc, options),
        version: semver_or_default(&api.version),
    };
    let crate_ident = info.name.replace('-', "_");
    let sides = emit::krate::Sides {
        server: !api.operations.is_empty(),
        client: !api.operations.is_empty(),
        webhooks: !api.webhooks.is_empty(),
        // Known once the examples are checked (below).
        example_tests: false,
    };
    // The emitters only read the IR, so they run side by side (rayon): on a spec of a
    // megabyte this takes the generation from about 0.73 s to about 0.5 s on two cores. The
    // files are sorted afterwards, so the output does not depend on the order they finish in.
    let (contract_side, code) = rayon::join(
        || -> Result<(Vec<GeneratedFile>, bool)> {
            let contract = emit::contract::emit(&api, &info.name)?;
            let mut files = Vec::new();
            let mut example_tests = false;
            if !options.no_example_tests {
                let sites = examples::sites(&api);
                let checked = examples::check(&api, &sites, &contract)?;
                // `None` when there is no example to test.
                if let Some(file) = emit::example_tests::emit(&api, &checked)? {
                    files.push(file);
                    example_tests = true;
                }
            }
            files.push(emit::krate::contract_rs(&contract)?);
            files.extend(contract);
            Ok((files, example_tests))
        },
        || code_files(&api, &info, &sides, &crate_ident),
    );
    let mut files = code?;
    let (contract_side, example_tests) = contract_side?;
    let sides = emit::krate::Sides {
        example_tests,
        ..sides
    };
    files.push(emit::krate::lib_rs(&api, &sides)?);
    files.extend(contract_side);
    files.sort();
    Ok(Generation {
        files,
        warnings: api.warnings,
    })
}

/// Every Rust file that does not depend on the contract, emitted in parallel.
fn code_files(
    api: &ir::Api,
    info: &emit::krate::CrateInfo,
    sides: &emit::krate::Sides,
    crate_ident: &str,
) -> Result<Vec<GeneratedFile>> {
    type Emitter<'a> = Box<dyn Fn() -> Result<GeneratedFile> + Send + Sync + 'a>;
    let mut emitters: Vec<Emitter<'_>> = vec![
        Box::new(|| Ok(emit::krate::cargo_toml(api, info))),
        Box::new(|| emit::runtime::credentials(api)),
        Box::new(|| emit::models::emit(api)),
        Box::new(emit::support::emit),
    ];
    if sides.server || sides.webhooks {
        emitters.push(Box::new(emit::runtime::validation));
    }
    if sides.client || sides.webhooks {
        emitters.push(Box::new(emit::runtime::retry));
    }
    if sides.server {
        emitters.push(Box::new(|| emit::server::emit(api, crate_ident)));
    }
    if sides.client {
        emitters.push(Box::new(|| emit::client::emit(api)));
    }
    if sides.webhooks {
        emitters.push(Box::new(|| emit::webhooks::emit(api)));
    }
    use rayon::prelude::*;
    emitters.par_iter().map(|emit| emit()).collect()
}

/// The IR of a document, with the options' type overrides applied.
pub fn build_ir(doc: &load::Document, options: &Options) -> Result<ir::Api> {
    ir::build::build(
        doc,
        &ir::build::BuildOptions {
            type_overrides: options.type_overrides.clone(),
        },
    )
}

pub(crate) fn crate_name(doc: &load::Document, options: &Options) -> String {
    if let Some(name) = &options.crate_name {
        return name.clone();
    }
    let info = doc.root.get("info");
    if let Some(name) = info
        .and_then(|i| i.get("x-crate-name"))
        .and_then(serde_json::Value::as_str)
    {
        return name.to_string();
    }
    let title = info
        .and_then(|i| i.get("title"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or("api");
    let name = heck::ToKebabCase::to_kebab_case(
        title
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
            .collect::<String>()
            .as_str(),
    );
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("api-{name}").trim_end_matches('-').to_string()
    } else {
        name
    }
}

/// Cargo wants `MAJOR.MINOR.PATCH`; a document's version is free text.
fn semver_or_default(version: &str) -> String {
    let parts: Vec<&str> = version.trim_start_matches('v').split('.').collect();
    let numeric = parts
        .iter()
        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    match (numeric, parts.len()) {
        (true, 3) => parts.join("."),
        (true, 2) => format!("{}.0", parts.join(".")),
        (true, 1) => format!("{}.0.0", parts[0]),
        _ => "0.1.0".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::semver_or_default;

    #[test]
    fn document_versions_become_cargo_versions() {
        assert_eq!(semver_or_default("1.0.0"), "1.0.0");
        assert_eq!(semver_or_default("v2"), "2.0.0");
        assert_eq!(semver_or_default("1.0"), "1.0.0");
        assert_eq!(semver_or_default("2024-01-preview"), "0.1.0");
    }
}
