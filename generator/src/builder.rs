//! The build-step API, in the style of prost-build and tonic-build: the crate that builds
//! generates its bindings from `build.rs` and includes them, instead of depending on a
//! generated crate.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     specgen::Builder::new("spec/openapi.yaml")
//!         .server(true)
//!         .client(true)
//!         .type_override("Amount.value", "rust_decimal::Decimal")
//!         .generate()?;
//!     Ok(())
//! }
//! ```
//!
//! and at the root of the crate (`lib.rs` or `main.rs`; the generated modules refer to each
//! other as `crate::models`, …): `include!(concat!(env!("OUT_DIR"), "/api.rs"));`
//!
//! # What is written
//!
//! Generation goes through [`crate::generate`], as for the command line, with
//! [`Layout::Include`]: `$OUT_DIR/api.rs` declares the modules with `#[path]` attributes, and
//! `$OUT_DIR/api/` holds them (`api/src/models.rs`, `api/src/server.rs`, …) with the contract
//! (`api/schemas/`, embedded by the `contract` module). The modules are those of the generated
//! crate: `models` (re-exported), `support`, `credentials`, `contract`, and the sides asked
//! for: `server`, `client`, `webhooks` (with the `validation` and `retry` runtimes they use),
//! and the example round trips under `#[cfg(test)]` with `.example_tests(true)`. No side is
//! behind a cargo feature: what was asked for is there.
//!
//! # The including crate's dependencies
//!
//! The generated code names its dependencies (`::serde`, `::axum`, …), so the including crate
//! declares them. Exactly these, by side (a line two chosen sides share is needed once):
//!
//! ```toml
//! [dependencies]
//! # Always: the models, support types and contract.
//! base64 = "0.22"
//! chrono = { version = "0.4", default-features = false, features = ["std", "serde"] }
//! rust_decimal = "1"
//! serde = { version = "1", features = ["derive"] }
//! serde_json = "1"
//! uuid = { version = "1", features = ["serde"] }
//! # With .server(true):
//! axum = { version = "0.8", default-features = false, features = ["http1", "json", "tokio"] }
//! http = "1"
//! jsonschema = { version = "0.60", default-features = false }
//! percent-encoding = "2"
//! serde_urlencoded = "0.7"
//! # With .client(true); uuid gains the `v4` feature:
//! fastrand = "2"
//! http = "1"
//! httpdate = "1"
//! percent-encoding = "2"
//! reqwest = { version = "0.13", default-features = false, features = ["json", "query", "form"] }
//! tokio = { version = "1", features = ["time"] }
//! uuid = { version = "1", features = ["serde", "v4"] }
//! # With .webhooks(true):
//! axum = { version = "0.8", default-features = false, features = ["http1", "json", "tokio"] }
//! fastrand = "2"
//! http = "1"
//! httpdate = "1"
//! jsonschema = { version = "0.60", default-features = false }
//! reqwest = { version = "0.13", default-features = false, features = ["json", "query", "form"] }
//! serde_urlencoded = "0.7"
//! tokio = { version = "1", features = ["time"] }
//!
//! [dev-dependencies]
//! # With .example_tests(true):
//! jsonschema = { version = "0.60", default-features = false }
//! ```
//!
//! and `specgen = { version = "…", default-features = false }` under `[build-dependencies]`
//! (the default `cli` feature is the command line's). [`Builder::generate`] reads the crate's
//! `Cargo.toml` first and fails, naming each missing line, when one of these is not declared
//! (under `[dependencies]`, a `[target.….dependencies]` table, or, for the example tests,
//! `[dev-dependencies]`); without it the compiler would report every use of a missing crate.
//!
//! Two cargo features of the generated crate are read by the included code too, when the
//! including crate declares them: `schemars` (`schemars::JsonSchema` on every model; declare
//! `schemars = ["dep:schemars"]` with `schemars = { version = "1", optional = true, features =
//! ["uuid1", "chrono04"] }`) and `rustls` (HTTPS for the client and the webhook sender;
//! `rustls = ["reqwest/rustls"]`). [`Builder::generate`] tells cargo to expect them
//! (`cargo::rustc-check-cfg`), so a crate without them builds without `unexpected_cfgs`
//! warnings.

use std::path::{Path, PathBuf};

use crate::emit::GeneratedFile;
use crate::emit::krate::{DEPENDENCIES, Dependency, EXAMPLE_TEST_DEPENDENCIES, Sides};
use crate::error::{Error, Result};
use crate::{ContractLayout, Include, Layout, Options, fingerprint, load};

/// Generates bindings from a `build.rs` into files for `include!`; see the [module
/// documentation](self).
#[derive(Debug, Clone)]
pub struct Builder {
    spec: PathBuf,
    options: Options,
    include: Include,
    example_tests: bool,
    cargo_directives: bool,
}

impl Builder {
    /// A builder for the OpenAPI document at `spec` (relative to the crate being built). By
    /// default it generates the models, support types and contract only; ask for the rest
    /// with [`Builder::server`], [`Builder::client`], [`Builder::webhooks`] and
    /// [`Builder::example_tests`].
    pub fn new(spec: impl AsRef<Path>) -> Builder {
        Builder {
            spec: spec.as_ref().to_path_buf(),
            options: Options::default(),
            include: Include {
                file: "api.rs".into(),
                server: false,
                client: false,
                webhooks: false,
            },
            example_tests: false,
            cargo_directives: true,
        }
    }

    /// How the contract's schema files hold the components they need (default
    /// [`ContractLayout::Auto`]: self-contained unless that would make them very large).
    pub fn contract_layout(mut self, layout: ContractLayout) -> Builder {
        self.options.contract_layout = layout;
        self
    }

    /// The `server` module: the API as an async trait, served by an axum router that checks
    /// requests against the contract (needs operations in the document).
    pub fn server(mut self, enabled: bool) -> Builder {
        self.include.server = enabled;
        self
    }

    /// The `client` module: a reqwest client with retries and idempotency keys (needs
    /// operations in the document).
    pub fn client(mut self, enabled: bool) -> Builder {
        self.include.client = enabled;
        self
    }

    /// The `webhooks` module: receiver and sender of the document's notifications (needs
    /// webhooks in the document).
    pub fn webhooks(mut self, enabled: bool) -> Builder {
        self.include.webhooks = enabled;
        self
    }

    /// The round trip of every example of the document through its type, as `#[cfg(test)]`
    /// tests of the including crate (default off).
    pub fn example_tests(mut self, enabled: bool) -> Builder {
        self.example_tests = enabled;
        self
    }

    /// Uses `rust_type` for a schema: `key` is `Component`, `Component.property` or a JSON
    /// pointer to a schema.
    pub fn type_override(
        mut self,
        key: impl Into<String>,
        rust_type: impl Into<String>,
    ) -> Builder {
        self.options
            .type_overrides
            .insert(key.into(), rust_type.into());
        self
    }

    /// The package name written into the contract's `$id`s (default: the document's
    /// `info.x-crate-name`, else its title), as `--crate-name`.
    pub fn crate_name(mut self, name: impl Into<String>) -> Builder {
        self.options.crate_name = Some(name.into());
        self
    }

    /// Name of the file to `include!` in the output directory (default `api.rs`); the modules
    /// go in the directory of the same name without `.rs`.
    pub fn file_name(mut self, name: impl Into<String>) -> Builder {
        self.include.file = name.into();
        self
    }

    /// Whether to print cargo directives (default true; turn off outside build scripts):
    /// `cargo::rerun-if-changed` for the spec, `cargo::rustc-check-cfg` for the `schemars`
    /// and `rustls` features the included code reads, and `cargo::warning` for each warning
    /// of the generation.
    pub fn cargo_directives(mut self, enabled: bool) -> Builder {
        self.cargo_directives = enabled;
        self
    }

    /// Generates into `$OUT_DIR`, from a build script. First checks that the crate being built
    /// (`$CARGO_MANIFEST_DIR/Cargo.toml`) declares every dependency the chosen sides need,
    /// and fails naming the missing `Cargo.toml` lines otherwise.
    pub fn generate(self) -> Result<PathBuf> {
        let out_dir = std::env::var_os("OUT_DIR").ok_or_else(|| Error::Write {
            path: PathBuf::from("$OUT_DIR"),
            source: std::io::Error::other(
                "OUT_DIR is not set: call generate() from a build script, or use generate_to()",
            ),
        })?;
        if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
            self.check_dependencies(&Path::new(&dir).join("Cargo.toml"))?;
        }
        self.generate_to(out_dir)
    }

    /// Generates into `out_dir` (see the [module documentation](self)) and returns the path of
    /// the file to `include!`. Every file is written whole (through a temporary file and a
    /// rename), and the modules' directory is replaced as a whole.
    pub fn generate_to(self, out_dir: impl AsRef<Path>) -> Result<PathBuf> {
        let out_dir = out_dir.as_ref();
        if self.cargo_directives {
            println!("cargo::rerun-if-changed={}", self.spec.display());
            println!("cargo::rustc-check-cfg=cfg(feature, values(\"schemars\", \"rustls\"))");
        }
        let file = Path::new(&self.include.file);
        if file.extension().is_none_or(|ext| ext != "rs")
            || file.components().count() != 1
            || self.include.dir().is_empty()
        {
            return Err(Error::Option {
                option: format!("file name `{}`", self.include.file),
                message: "the file to include must be a plain file name ending in .rs".into(),
            });
        }
        // On another core while the document loads (see `crate::warm_up`).
        rayon::spawn(crate::warm_up);
        let doc = load::load_file(&self.spec)?;
        if self.cargo_directives {
            for line in other_files_watched(&doc) {
                println!("{line}");
            }
        }
        let options = self.options();
        // The fingerprint sits in the modules' directory, so replacing that directory keeps
        // it with the files it describes.
        let fingerprint_path = format!("{}/{}", self.include.dir(), fingerprint::FILE);
        let inputs = fingerprint::inputs(&doc, &options);
        let include_path = out_dir.join(&self.include.file);
        if fingerprint::lists_current_files(out_dir, Path::new(&fingerprint_path), inputs, false) {
            return Ok(include_path);
        }
        let generation = crate::generate(&doc, &options)?;
        if self.cargo_directives {
            for warning in crate::ir::Warning::summarized(&generation.warnings) {
                println!("cargo::warning={}", warning.replace('\n', " "));
            }
        }
        let mut files: Vec<GeneratedFile> = generation
            .files
            .into_iter()
            .filter(|file| file.path != Path::new(fingerprint::FILE))
            .collect();
        files.push(fingerprint::file_at(&fingerprint_path, inputs, &files));
        let (include, modules): (Vec<GeneratedFile>, Vec<GeneratedFile>) = files
            .into_iter()
            .partition(|file| file.path == Path::new(&self.include.file));
        replace_dir(
            &out_dir.join(self.include.dir()),
            self.include.dir(),
            &modules,
        )?;
        write_files(out_dir, &include)?;
        Ok(include_path)
    }

    fn options(&self) -> Options {
        Options {
            no_example_tests: !self.example_tests,
            layout: Layout::Include(self.include.clone()),
            ..self.options.clone()
        }
    }

    /// The sides as the generated code will have them, for the dependency check.
    fn sides(&self) -> Sides {
        Sides {
            server: self.include.server,
            client: self.include.client,
            webhooks: self.include.webhooks,
            example_tests: self.example_tests,
            features: false,
        }
    }

    /// Fails, naming each missing line, when the manifest at `manifest` does not declare a
    /// dependency the chosen sides need. A manifest that cannot be read or parsed is left to
    /// cargo, which has already read it.
    fn check_dependencies(&self, manifest: &Path) -> Result<()> {
        let Ok(text) = std::fs::read_to_string(manifest) else {
            return Ok(());
        };
        let Some(declared) = declared_dependencies(&text) else {
            return Ok(());
        };
        if let Some(edition) = &declared.edition
            && edition.as_str() < "2024"
        {
            return Err(Error::Option {
                option: format!("the edition of {}", manifest.display()),
                message: format!(
                    "the generated code is Rust 2024 (it uses let chains, Rust 1.88 or later) and \
                     this crate is edition {edition}: set `edition = \"2024\"` under [package], \
                     or generate a crate of its own with `specgen generate` and depend on it"
                ),
            });
        }
        let sides = self.sides();
        let lacks = |dep: &&Dependency, dev: bool| {
            let name = dep.name.replace('-', "_");
            let found = declared
                .normal
                .iter()
                .chain(dev.then_some(&declared.dev).into_iter().flatten())
                .find(|found| found.name == name);
            match found {
                None => true,
                Some(found) => !found.has_features(dep, &sides),
            }
        };
        let missing: Vec<String> = DEPENDENCIES
            .iter()
            .filter(|dep| dep.needed_by(&sides) && lacks(dep, false))
            .map(|dep| dep.toml_line(&sides, false))
            .collect();
        let missing_dev: Vec<String> = EXAMPLE_TEST_DEPENDENCIES
            .iter()
            .filter(|dep| self.example_tests && lacks(dep, true))
            .map(|dep| dep.toml_line(&sides, false))
            .collect();
        if missing.is_empty() && missing_dev.is_empty() {
            return Ok(());
        }
        let mut lines = Vec::new();
        if !missing.is_empty() {
            lines.push("[dependencies]".to_string());
            lines.extend(missing);
        }
        if !missing_dev.is_empty() {
            lines.push("[dev-dependencies]".to_string());
            lines.extend(missing_dev);
        }
        Err(Error::Option {
            option: format!("the dependencies of {}", manifest.display()),
            message: format!(
                "the code specgen generates for this crate uses crates it does not declare, or \
                 features of them it does not enable; add or replace these lines (see \
                 specgen::builder's documentation for every side):\n    {}",
                lines.join("\n    ")
            ),
        })
    }
}

/// The `cargo::rerun-if-changed` lines for the files the document's `$ref`s read: an edit
/// to one of them is an edit to the document.
fn other_files_watched(doc: &load::Document) -> Vec<String> {
    doc.other_files()
        .iter()
        .map(|file| format!("cargo::rerun-if-changed={}", file.display()))
        .collect()
}

/// What a manifest declares that the generated code relies on.
struct Declared {
    /// `package.edition`, when written there (not inherited from the workspace).
    edition: Option<String>,
    /// `[dependencies]` and every `[target.….dependencies]`.
    normal: Vec<DeclaredDependency>,
    /// `[dev-dependencies]` and every `[target.….dev-dependencies]`.
    dev: Vec<DeclaredDependency>,
}

/// One declared dependency.
struct DeclaredDependency {
    /// The name the code uses (`-` read as `_`).
    name: String,
    /// Its features, or `None` where the manifest does not say them all (`workspace = true`).
    features: Option<Vec<String>>,
    /// Whether its default features are on.
    default_features: bool,
}

/// Features a crate's default features bring, of those the generated code needs, and the
/// features that include others (`tokio`'s `full`): a declaration with them needs no more.
const IMPLIED_FEATURES: &[(&str, &str, &str)] = &[
    ("axum", "default", "http1"),
    ("axum", "default", "json"),
    ("axum", "default", "tokio"),
    ("chrono", "default", "std"),
    ("tokio", "full", "time"),
];

impl DeclaredDependency {
    /// Whether it enables every feature `dep` needs for `sides`.
    fn has_features(&self, dep: &Dependency, sides: &Sides) -> bool {
        let Some(features) = &self.features else {
            return true;
        };
        let on = |feature: &str| {
            features.iter().any(|declared| declared == feature)
                || IMPLIED_FEATURES.iter().any(|(name, by, implied)| {
                    *name == dep.name
                        && *implied == feature
                        && (*by == "default" && self.default_features
                            || features.iter().any(|declared| declared == by))
                })
        };
        let client = if sides.client {
            dep.client_features
        } else {
            &[]
        };
        dep.features.iter().chain(client).all(|feature| on(feature))
    }
}

fn declared_dependencies(manifest: &str) -> Option<Declared> {
    let document = toml_edit::Document::parse(manifest).ok()?;
    let mut declared = Declared {
        // Cargo reads a package without an `edition` as 2015.
        edition: document
            .get("package")
            .and_then(|package| match package.get("edition") {
                None => Some("2015".to_string()),
                Some(edition) => edition.as_str().map(str::to_string),
            }),
        normal: Vec::new(),
        dev: Vec::new(),
    };
    let mut read = |table: &toml_edit::Table| {
        for (key, deps) in table.iter() {
            let into = match key {
                "dependencies" => &mut declared.normal,
                "dev-dependencies" | "dev_dependencies" => &mut declared.dev,
                _ => continue,
            };
            if let Some(deps) = deps.as_table_like() {
                into.extend(
                    deps.iter()
                        .map(|(name, spec)| declared_dependency(name, spec)),
                );
            }
        }
    };
    read(document.as_table());
    if let Some(targets) = document
        .get("target")
        .and_then(toml_edit::Item::as_table_like)
    {
        for (_, target) in targets.iter() {
            if let Some(target) = target.as_table() {
                read(target);
            }
        }
    }
    Some(declared)
}

/// A dependency as declared: `name = "1"`, or a table with `features` and `default-features`.
fn declared_dependency(name: &str, spec: &toml_edit::Item) -> DeclaredDependency {
    let mut declared = DeclaredDependency {
        name: name.replace('-', "_"),
        features: Some(Vec::new()),
        default_features: true,
    };
    let Some(table) = spec.as_table_like() else {
        return declared;
    };
    if table.contains_key("workspace") {
        declared.features = None;
        return declared;
    }
    if let Some(features) = table.get("features").and_then(toml_edit::Item::as_array) {
        declared.features = Some(
            features
                .iter()
                .filter_map(|feature| feature.as_str().map(str::to_string))
                .collect(),
        );
    }
    let default = table
        .get("default-features")
        .or_else(|| table.get("default_features"))
        .and_then(toml_edit::Item::as_bool);
    declared.default_features = default.unwrap_or(true);
    declared
}

fn write_error(path: &Path, source: std::io::Error) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes each file through a temporary file and a rename, so a reader never sees half a file.
fn write_files(out_dir: &Path, files: &[GeneratedFile]) -> Result<()> {
    for file in files {
        let path = out_dir.join(&file.path);
        let dir = path.parent().unwrap_or(out_dir);
        std::fs::create_dir_all(dir).map_err(|source| write_error(dir, source))?;
        let mut temp =
            tempfile::NamedTempFile::new_in(dir).map_err(|source| write_error(&path, source))?;
        std::io::Write::write_all(&mut temp, file.contents.as_bytes())
            .map_err(|source| write_error(&path, source))?;
        temp.persist(&path)
            .map_err(|err| write_error(&path, err.error))?;
    }
    Ok(())
}

/// Replaces the directory `dir` with `files` (whose paths start with `prefix/`): they are
/// written into a new directory beside it, which then takes its place, so a failure leaves the
/// previous modules whole and no module of an earlier generation lingers.
fn replace_dir(dir: &Path, prefix: &str, files: &[GeneratedFile]) -> Result<()> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|source| write_error(parent, source))?;
    let staging = tempfile::Builder::new()
        .prefix(".specgen-new-")
        .tempdir_in(parent)
        .map_err(|source| write_error(parent, source))?;
    for file in files {
        let relative = file.path.strip_prefix(prefix).unwrap_or(&file.path);
        let path = staging.path().join(relative);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| write_error(dir, source))?;
        }
        std::fs::write(&path, &file.contents).map_err(|source| write_error(&path, source))?;
    }
    let old = tempfile::Builder::new()
        .prefix(".specgen-old-")
        .tempdir_in(parent)
        .map_err(|source| write_error(parent, source))?;
    if dir.exists() {
        std::fs::rename(dir, old.path().join("previous"))
            .map_err(|source| write_error(dir, source))?;
    }
    if let Err(source) = std::fs::rename(staging.path(), dir) {
        let _ = std::fs::rename(old.path().join("previous"), dir);
        return Err(write_error(dir, source));
    }
    // Renamed into place: nothing left to delete.
    let _ = staging.keep();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modification_times(dir: &Path) -> Vec<(PathBuf, std::time::SystemTime)> {
        let mut files = Vec::new();
        crate::tree::list_files(dir, dir, &mut files);
        files.sort();
        files
            .into_iter()
            .map(|path| {
                let time = std::fs::metadata(dir.join(&path))
                    .and_then(|m| m.modified())
                    .unwrap();
                (path, time)
            })
            .collect()
    }

    /// A build script that runs again on an unchanged spec writes nothing, so nothing that
    /// includes the output is rebuilt for it; an edit of the spec writes again.
    #[test]
    fn a_second_run_on_an_unchanged_spec_writes_nothing() {
        let out = tempfile::tempdir().unwrap();
        let spec_dir = tempfile::tempdir().unwrap();
        let spec = spec_dir.path().join("api.yaml");
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/routes.yaml"),
        )
        .unwrap();
        std::fs::write(&spec, &text).unwrap();
        let builder = || Builder::new(&spec).cargo_directives(false);
        builder().generate_to(out.path()).unwrap();
        let first = modification_times(out.path());
        assert!(first.len() > 2, "{first:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
        builder().generate_to(out.path()).unwrap();
        assert_eq!(modification_times(out.path()), first);

        std::fs::write(&spec, text.replacen("paths:", "# edited\npaths:", 1)).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        builder().generate_to(out.path()).unwrap();
        assert_ne!(modification_times(out.path()), first);
    }

    /// The dependency block of the module documentation is the one the dependency table
    /// renders, so the two cannot drift apart.
    #[test]
    fn the_documented_dependencies_are_the_generated_codes() {
        let source = include_str!("builder.rs");
        let documented: String = source
            .lines()
            .skip_while(|line| *line != "//! ```toml")
            .skip(1)
            .take_while(|line| *line != "//! ```")
            .map(|line| format!("{}\n", line.trim_start_matches("//!").trim_start()))
            .collect();
        assert_eq!(documented, crate::emit::krate::include_dependencies_doc());
    }

    /// The README shows the same block.
    #[test]
    fn the_readme_shows_the_generated_codes_dependencies() {
        let readme = include_str!("../../README.md");
        let block = crate::emit::krate::include_dependencies_doc();
        assert!(
            readme.contains(&format!("```toml\n{block}```\n")),
            "README.md lacks this block under `From a build script`:\n{block}"
        );
    }

    fn missing(manifest: &str, builder: Builder) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Cargo.toml");
        std::fs::write(&path, manifest).unwrap();
        match builder.check_dependencies(&path) {
            Ok(()) => String::new(),
            Err(err) => err.to_string(),
        }
    }

    #[test]
    fn a_missing_dependency_is_named_with_its_line() {
        let manifest = "[package]\nname = \"user\"\nedition = \"2024\"\n\n[dependencies]\n\
                        serde = { version = \"1\", features = [\"derive\"] }\n\
                        serde_json = \"1\"\nuuid.workspace = true\n";
        let message = missing(manifest, Builder::new("spec.yaml"));
        for line in [
            "base64 = \"0.22\"",
            "chrono = { version = \"0.4\", default-features = false, features = [\"std\", \"serde\"] }",
            "rust_decimal = \"1\"",
        ] {
            assert!(message.contains(&format!("\n    {line}")), "{message}");
        }
        assert!(!message.contains("serde ="), "{message}");
        assert!(!message.contains("uuid"), "{message}");
        assert!(!message.contains("axum"), "{message}");
    }

    #[test]
    fn the_check_follows_the_sides_chosen() {
        let models = "[dependencies]\nbase64 = \"0.22\"\n\
                      chrono = { version = \"0.4\", features = [\"serde\"] }\n\
                      rust_decimal = \"1\"\n\
                      serde = { version = \"1\", features = [\"derive\", \"rc\"] }\n\
                      serde_json = \"1\"\n\
                      [target.'cfg(unix)'.dependencies]\n\
                      uuid = { version = \"1\", features = [\"serde\"] }\n";
        assert_eq!(missing(models, Builder::new("spec.yaml")), "");
        let message = missing(models, Builder::new("spec.yaml").client(true));
        assert!(message.contains("\n    reqwest = "), "{message}");
        assert!(
            message.contains("\n    percent-encoding = \"2\""),
            "{message}"
        );
        assert!(!message.contains("axum"), "{message}");
        let message = missing(models, Builder::new("spec.yaml").example_tests(true));
        assert!(
            message.contains("[dev-dependencies]\n    jsonschema = "),
            "{message}"
        );
        let with_dev = format!("{models}[dev-dependencies]\njsonschema = \"0.60\"\n");
        assert_eq!(
            missing(&with_dev, Builder::new("spec.yaml").example_tests(true)),
            ""
        );
    }

    /// A dependency declared without a feature the code uses fails as a missing one would,
    /// naming the whole line (the compiler would say `no method named query`).
    #[test]
    fn a_dependency_without_a_feature_the_code_uses_is_named_with_its_line() {
        let manifest = "[package]\nedition = \"2024\"\n[dependencies]\nbase64 = \"0.22\"\n\
                        chrono = \"0.4\"\nrust_decimal = \"1\"\nserde = \"1\"\n\
                        serde_json = \"1\"\nuuid = { version = \"1\", features = [\"serde\"] }\n\
                        axum = \"0.8\"\nhttp = \"1\"\njsonschema = \"0.60\"\n\
                        percent-encoding = \"2\"\nserde_urlencoded = \"0.7\"\nfastrand = \"2\"\n\
                        httpdate = \"1\"\n\
                        reqwest = { version = \"0.13\", default-features = false, features = [\"json\"] }\n\
                        tokio = { version = \"1\", features = [\"full\"] }\n";
        let message = missing(
            manifest,
            Builder::new("spec.yaml").server(true).client(true),
        );
        for line in [
            "chrono = { version = \"0.4\", default-features = false, features = [\"std\", \"serde\"] }",
            "serde = { version = \"1\", features = [\"derive\"] }",
            "uuid = { version = \"1\", features = [\"serde\", \"v4\"] }",
            "reqwest = { version = \"0.13\", default-features = false, features = [\"json\", \"query\", \"form\"] }",
        ] {
            assert!(message.contains(&format!("\n    {line}")), "{message}");
        }
        // Default features bring what axum needs, and tokio's `full` has `time`.
        assert!(!message.contains("axum"), "{message}");
        assert!(!message.contains("tokio"), "{message}");
        // Models alone want no `v4`.
        let message = missing(manifest, Builder::new("spec.yaml"));
        assert!(!message.contains("uuid"), "{message}");
    }

    #[test]
    fn every_file_the_document_reads_is_watched() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let doc = load::load_file(&fixtures.join("multi-file/openapi.yaml")).unwrap();
        let watched = other_files_watched(&doc);
        for file in [
            "common/parameters.yaml",
            "common/responses.yaml",
            "paths/users.yaml",
            "schemas/address.yaml",
            "schemas/forest.yaml",
            "schemas/tree node.yaml",
            "schemas/user.json",
        ] {
            let path = std::fs::canonicalize(fixtures.join("multi-file").join(file)).unwrap();
            let line = format!("cargo::rerun-if-changed={}", path.display());
            assert!(watched.contains(&line), "{line} not in {watched:#?}");
        }
        assert_eq!(watched.len(), 7, "{watched:#?}");
        // A document of one file has no other.
        let single = load::load_file(&fixtures.join("routes.yaml")).unwrap();
        assert_eq!(other_files_watched(&single), Vec::<String>::new());
    }

    #[test]
    fn a_crate_of_an_edition_before_2024_is_told_so() {
        let manifest = |edition: &str| {
            format!(
                "[package]\nname = \"user\"\n{edition}\n[dependencies]\nbase64 = \"0.22\"\n\
                 chrono = {{ version = \"0.4\", features = [\"serde\"] }}\nrust_decimal = \"1\"\n\
                 serde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\
                 uuid = {{ version = \"1\", features = [\"serde\"] }}\n"
            )
        };
        let message = missing(&manifest("edition = \"2021\""), Builder::new("spec.yaml"));
        assert!(message.contains("edition 2021"), "{message}");
        assert!(message.contains("edition = \"2024\""), "{message}");
        let message = missing(&manifest(""), Builder::new("spec.yaml"));
        assert!(message.contains("edition 2015"), "{message}");
        assert_eq!(
            missing(&manifest("edition = \"2024\""), Builder::new("spec.yaml")),
            ""
        );
        // Inherited from the workspace: cargo knows, the check does not guess.
        assert_eq!(
            missing(
                &manifest("edition.workspace = true"),
                Builder::new("spec.yaml")
            ),
            ""
        );
    }
}
