//! specgen: reads an OpenAPI document and writes Rust bindings and a JSON Schema contract.
//!
//! The pipeline is load → IR → emitters:
//! - [`load`] parses YAML or JSON (Swagger 2.0, OpenAPI 3.0, 3.1 or 3.2), upgrades 2.0 and
//!   normalises 3.0 forms, and checks refs;
//! - [`ir::build`] turns the document into the typed [`ir::Api`], with every Rust name chosen
//!   once by [`ir::naming`];
//! - [`emit`] writes the crate (models, server, client, webhooks, the embedded contract) and
//!   the contract, reading only the IR; parts of the crate that are the same for every API
//!   live as ordinary Rust under `generator/runtime/` ([`manifest`] among them, which specval
//!   reads too) and are spliced in.
//!
//! Beside the pipeline: [`output`] writes a generation all or nothing and reports drift,
//! [`fingerprint`] lets an unchanged spec skip the work, [`examples`] places each example of
//! the document, and [`diff`] compares two versions of a document.
//!
//! Use the [`Builder`] from a `build.rs`; [`generate`] for the crate's files, [`contract`] for
//! the contract alone (what a validator needs), [`build_ir`] for the IR; the `specgen` binary
//! wraps them.

pub mod builder;
pub mod diff;
pub mod emit;
pub mod error;
pub mod examples;
pub mod fingerprint;
pub mod ir;
pub mod load;
pub mod output;
mod tree;

/// The contract's manifest as types: written by [`emit::contract`], read by specval and by
/// the `validation` module of every generated crate, which has a copy of this file.
#[path = "../runtime/manifest.rs"]
pub mod manifest;

/// A contract file as one self-contained schema, whichever layout the contract was written in
/// (see [`ContractLayout`]): how specval, specgen's example checks and every generated crate
/// (which has a copy of this file) read a contract file.
#[path = "../runtime/definitions.rs"]
pub mod definitions;

/// Where the parameters of a path template begin and end in a path, also within a segment
/// (`{name}:cancel`, `{Sid}.json`): the generated server's rule, which specval applies to
/// recorded traffic too. Every generated server has a copy of this file.
#[path = "../runtime/path.rs"]
pub mod path;

// A form body (`application/x-www-form-urlencoded`) as the JSON object its schema checks: the
// generated servers' reading, which specval applies to recorded traffic too. Every generated
// crate that validates has a copy of this file. (Its own module docs say so; docs written here
// too would have its links read from this scope, where `decode_parts` is not.)
#[path = "../runtime/form.rs"]
pub mod form;

use std::collections::BTreeMap;
use std::path::Path;

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
    /// How the output is laid out: a crate (the default; what the command line writes) or
    /// modules to `include!` (what [`Builder`] writes).
    pub layout: Layout,
    /// Puts each operation behind a cargo feature named after its first tag (`tag-files`),
    /// and each type behind the features of the operations that use it, so that a user of a
    /// large API compiles only what they call (see [`ir::tag_features`]). A crate only: code
    /// to `include!` has no features.
    pub features_per_tag: bool,
    /// Whether each contract file holds the components it needs or refers to shared
    /// definitions (see [`ContractLayout`]).
    pub contract_layout: ContractLayout,
}

/// How the contract's schema files (`schemas/`) hold the components they refer to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ContractLayout {
    /// Self-contained, unless that would make the schema files larger than
    /// [`emit::contract::SHARED_ABOVE`] bytes: then shared.
    #[default]
    Auto,
    /// Each file has the components it reaches under its own `$defs`: any JSON Schema tool
    /// reads one file alone. A spec whose components reach most others (Stripe: every
    /// response reaches nearly every component) repeats them in every file.
    SelfContained,
    /// One definitions document per direction (`definitions/components.json`,
    /// `definitions/requests.json`, `definitions/responses.json`), which each file refers to
    /// (`urn:specgen:{crate}:definitions/responses.json#/$defs/Account`): each component is
    /// written once per direction. [`definitions::Definitions`] reads a file as the
    /// self-contained one.
    Shared,
}

/// How the generated code is laid out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Layout {
    /// A crate of its own: `Cargo.toml`, `src/lib.rs` with a cargo feature per side (server,
    /// client, webhooks) and every side the document has, `src/…` and `schemas/`.
    #[default]
    Crate,
    /// Modules for another crate to `include!`: see [`Include`].
    Include(Include),
}

/// Modules for another crate to `include!`, as a build script generates them: the sides the
/// caller chose, without cargo features (the including crate has none of the generated
/// crate's), in the crate's own files.
///
/// `file` (e.g. `api.rs`) declares the modules with `#[path]` attributes relative to itself;
/// the modules are the generated crate's `src/` files and its contract, under the directory
/// named after `file` (`api/src/models.rs`, `api/schemas/manifest.json`, …), so that the
/// contract module finds `../schemas/` as in the crate. rustc reads a `#[path]` inside an
/// included file relative to that file, so the whole tree can live in `$OUT_DIR`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include {
    /// The file to `include!`, relative to the output directory (`api.rs`).
    pub file: String,
    /// The `server` module (when the document has operations).
    pub server: bool,
    /// The `client` module (when the document has operations).
    pub client: bool,
    /// The `webhooks` module (when the document has webhooks).
    pub webhooks: bool,
}

impl Include {
    /// The directory beside [`Include::file`] that holds the modules: its name without `.rs`.
    pub fn dir(&self) -> &str {
        self.file.strip_suffix(".rs").unwrap_or(&self.file)
    }
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
///
/// An error that names a place in the document carries its line and column where the text
/// gives them.
pub fn generate(doc: &load::Document, options: &Options) -> Result<Generation> {
    generate_located(doc, options).map_err(|err| doc.locate(err))
}

fn generate_located(doc: &load::Document, options: &Options) -> Result<Generation> {
    let api = build_ir(doc, options)?;
    let info = emit::krate::CrateInfo {
        name: api.crate_name.clone(),
        version: semver_or_default(&api.version),
    };
    let crate_ident = info.name.replace('-', "_");
    let has_operations = !api.operations.is_empty();
    let has_webhooks = !api.webhooks.is_empty();
    let mut api = api;
    if options.features_per_tag && has_operations && options.layout == Layout::Crate {
        api.tag_features = Some(ir::tag_features::assign(&api));
    }
    let sides = match &options.layout {
        Layout::Crate => emit::krate::Sides {
            server: has_operations,
            client: has_operations,
            webhooks: has_webhooks,
            // Known once the examples are checked (below).
            example_tests: false,
            features: true,
        },
        Layout::Include(include) => {
            for (asked, there, side, what) in [
                (include.server, has_operations, "server", "paths"),
                (include.client, has_operations, "client", "paths"),
                (include.webhooks, has_webhooks, "webhooks", "webhooks"),
            ] {
                if asked && !there {
                    api.warnings.push(ir::Warning {
                        pointer: format!("#/{what}"),
                        location: None,
                        message: format!(
                            "the {side} module was asked for, but the document has no \
                             operation under {what}; it is left out"
                        ),
                    });
                }
            }
            emit::krate::Sides {
                server: include.server && has_operations,
                client: include.client && has_operations,
                webhooks: include.webhooks && has_webhooks,
                example_tests: false,
                features: false,
            }
        }
    };
    let api = api;
    // The emitters only read the IR, so they run side by side (rayon): on a spec of a
    // megabyte this takes the generation from about 0.73 s to about 0.5 s on two cores. The
    // files are sorted afterwards, so the output does not depend on the order they finish in.
    // (Schemas JSON Schema would refuse were repaired in the IR, each with a located warning,
    // so the contract compiles.)
    let (contract_side, code) = rayon::join(
        || contract_side(&api, &info, options),
        || code_files(&api, &info, &sides, &crate_ident),
    );
    let mut files = code?;
    let (contract_side, example_tests) = contract_side?;
    let sides = emit::krate::Sides {
        example_tests,
        ..sides
    };
    files.extend(contract_side);
    match &options.layout {
        Layout::Crate => files.push(emit::krate::lib_rs(&api, &sides)?),
        Layout::Include(include) => {
            // The crate's files, less what only a crate has, under the include directory.
            for file in &mut files {
                file.path = Path::new(include.dir()).join(&file.path);
            }
            files.push(emit::krate::include_rs(
                &include.file,
                &format!("{}/src", include.dir()),
                &api,
                &sides,
            )?);
        }
    }
    files.sort();
    let fingerprint = fingerprint::file(fingerprint::inputs(doc, options), &files);
    files.insert(0, fingerprint);
    files.sort();
    Ok(Generation {
        files,
        warnings: api.warnings,
    })
}

/// The contract, the example round trips (when asked for and when there are examples; the
/// `bool` says whether there are) and `src/contract.rs`, which embeds the contract.
fn contract_side(
    api: &ir::Api,
    info: &emit::krate::CrateInfo,
    options: &Options,
) -> Result<(Vec<GeneratedFile>, bool)> {
    let contract = emit::contract::emit(api, &info.name, options.contract_layout)?;
    let mut files = Vec::new();
    let mut example_tests = false;
    if !options.no_example_tests {
        let sites = examples::sites(api);
        let checked = examples::check(api, &sites, &contract)?;
        // `None` when there is no example to test.
        if let Some(file) = emit::example_tests::emit(api, &checked)? {
            files.push(file);
            example_tests = true;
        }
    }
    files.push(emit::krate::contract_rs(&contract)?);
    files.extend(contract);
    Ok((files, example_tests))
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
        Box::new(|| emit::runtime::credentials(api)),
        Box::new(|| emit::models::emit(api)),
        Box::new(emit::support::emit),
    ];
    if sides.features {
        emitters.push(Box::new(|| Ok(emit::krate::cargo_toml(api, info))));
    }
    if sides.server || sides.webhooks {
        emitters.push(Box::new(emit::runtime::validation));
    }
    if sides.client || sides.webhooks {
        emitters.push(Box::new(emit::runtime::retry));
    }
    if sides.server {
        emitters.push(Box::new(|| {
            emit::server::emit(api, crate_ident, sides.features)
        }));
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

/// A document's contract alone, with the IR it was made from: what a validator needs,
/// without the Rust code (nothing is formatted).
#[derive(Debug, Clone)]
pub struct ContractOnly {
    /// The IR.
    pub api: ir::Api,
    /// The contract's files as `(path under schemas/, contents)`: `manifest.json` and a JSON
    /// Schema per component and message, sorted by path.
    pub files: Vec<(String, String)>,
}

/// The contract of a document (`schemas/` of the crate [`generate`] would write, the same
/// bytes), with its IR. An error that names a place in the document carries its line and
/// column where the text gives them.
pub fn contract(doc: &load::Document, options: &Options) -> Result<ContractOnly> {
    let located = || -> Result<ContractOnly> {
        let api = build_ir(doc, options)?;
        let mut files: Vec<(String, String)> =
            emit::contract::emit(&api, &api.crate_name, options.contract_layout)?
                .into_iter()
                .filter_map(|file| {
                    let path = file.path.to_string_lossy().replace('\\', "/");
                    let path = path.strip_prefix("schemas/")?.to_string();
                    Some((path, file.contents))
                })
                .collect();
        files.sort();
        Ok(ContractOnly { api, files })
    };
    located().map_err(|err| doc.locate(err))
}

/// Gives rayon's global pool threads with stacks deep enough for the IR pass (256 MiB each,
/// reserved, not used), for a program that builds IRs on them (`specgen diff`
/// builds two side by side). [`build_ir`] and [`diff::diff`] call it first; once the pool
/// exists (a program that used rayon before) it changes nothing.
pub fn configure_threads() {
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(DEEP_STACK / 4)
        .build_global();
}

/// Builds what every generation needs whatever the document, on the calling thread: the JSON
/// Schema 2020-12 meta-schema's validator, which the IR checks every schema against. It is
/// built once per process, the first time it is needed (2-3 ms, about a twentieth of
/// generating a small spec); a caller with a spare core can run this while it loads the
/// document, as the `specgen` binary and [`Builder`] do, so that the generation does not wait
/// for it.
pub fn warm_up() {
    let _ = jsonschema::draft202012::meta::validator();
}

/// The IR of a document, with the options' crate name and type overrides applied (an error
/// when either, or the document's `x-crate-name`, is not one a crate can have).
pub fn build_ir(doc: &load::Document, options: &Options) -> Result<ir::Api> {
    let options = ir::build::BuildOptions {
        crate_name: options.crate_name.clone(),
        type_overrides: options.type_overrides.clone(),
    };
    configure_threads();
    with_deep_stack(|| ir::build::build(doc, &options)).map_err(|err| doc.locate(err))
}

/// Room for the IR pass's recursion: a type is built after the types it refers to, so a
/// chain of schemas each referring to the next (5,000 of them in generated specs) is that
/// many calls deep, where a main thread's 8 MiB overflows at about 450 and a build script's
/// or a worker's less. Reserved, not used: the pages are touched only as deep as it goes.
const DEEP_STACK: usize = 1 << 30;

/// Runs `work` on a thread with [`DEEP_STACK`] (on this one when no such thread can be had,
/// or when this one is a rayon worker: the work uses rayon, and a worker blocked waiting for
/// it could leave the pool without a thread to run it; the workers have deep stacks of their
/// own instead, [`configure_threads`]).
fn with_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if rayon::current_thread_index().is_some() {
        return work();
    }
    let slot = std::sync::Mutex::new(Some(work));
    let run = || {
        let work = slot.lock().ok().and_then(|mut slot| slot.take());
        work.map(|work| work())
    };
    let joined = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("specgen-ir".into())
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, run)
            .ok()
            .map(|handle| handle.join())
    });
    match joined {
        Some(Ok(Some(value))) => value,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        // No thread could be had: the work is still in its slot.
        _ => run().expect("the work has not run"),
    }
}

/// Cargo wants `MAJOR.MINOR.PATCH`, each a number without leading zeros, and takes a
/// pre-release (`2.0.0-beta.1`); a document's version is free text (`11.1.00`, `v2`,
/// `2024-01-preview`).
fn semver_or_default(version: &str) -> String {
    let version = version.trim().trim_start_matches(['v', 'V']);
    if let Ok(exact) = semver::Version::parse(version) {
        return exact.to_string();
    }
    // `2.0-draft`: the numbers made whole, the pre-release kept where Cargo takes it (not a
    // date's, `2024-01-preview`, whose first number is no version).
    if let Some((numbers, pre)) = version.split_once('-')
        && numbers.contains('.')
    {
        let whole = format!("{}-{pre}", semver_or_default(numbers));
        if !whole.starts_with("0.1.0-") && semver::Version::parse(&whole).is_ok() {
            return whole;
        }
    }
    let numbers: Option<Vec<u64>> = version
        .split('.')
        .map(|part| {
            let digits = !part.is_empty() && part.chars().all(|c| c.is_ascii_digit());
            digits.then(|| part.parse().ok()).flatten()
        })
        .collect();
    match numbers.as_deref() {
        Some(&[major, minor, patch]) => format!("{major}.{minor}.{patch}"),
        Some(&[major, minor]) => format!("{major}.{minor}.0"),
        Some(&[major]) => format!("{major}.0.0"),
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
        // Cargo refuses a leading zero (`11.1.00`, TrueSight's spec).
        assert_eq!(semver_or_default("11.1.00"), "11.1.0");
        assert_eq!(semver_or_default("01.02"), "1.2.0");
        assert_eq!(semver_or_default("1.0.0.0"), "0.1.0");
        assert_eq!(semver_or_default("99999999999999999999"), "0.1.0");
        // A pre-release is kept (Mojaloop's `2.0-draft`).
        assert_eq!(semver_or_default("2.0.0-beta.1"), "2.0.0-beta.1");
        assert_eq!(semver_or_default("v2.0-draft"), "2.0.0-draft");
        assert_eq!(semver_or_default("1.0.0+build.5"), "1.0.0+build.5");
        assert_eq!(semver_or_default("2024-01-preview"), "0.1.0");
    }
}
