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
            for warning in &generation.warnings {
                println!("cargo::warning={}", warning.to_string().replace('\n', " "));
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
        let sides = self.sides();
        let lacks = |dep: &&Dependency, dev: bool| {
            let name = dep.name.replace('-', "_");
            !(declared.normal.contains(&name) || dev && declared.dev.contains(&name))
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
                "the code specgen generates for this crate uses crates it does not declare; \
                 add these lines (see specgen::builder's documentation for every side):\n    {}",
                lines.join("\n    ")
            ),
        })
    }
}

/// The dependencies a manifest declares, by the name the code uses (`-` read as `_`).
struct Declared {
    /// `[dependencies]` and every `[target.….dependencies]`.
    normal: Vec<String>,
    /// `[dev-dependencies]` and every `[target.….dev-dependencies]`.
    dev: Vec<String>,
}

fn declared_dependencies(manifest: &str) -> Option<Declared> {
    let document = toml_edit::Document::parse(manifest).ok()?;
    let mut declared = Declared {
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
                into.extend(deps.iter().map(|(name, _)| name.replace('-', "_")));
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
        let manifest = "[package]\nname = \"user\"\n\n[dependencies]\nserde = \"1\"\n\
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
        let models = "[dependencies]\nbase64 = \"0.22\"\nchrono = \"0.4\"\nrust_decimal = \"1\"\n\
                      serde = \"1\"\nserde_json = \"1\"\n\
                      [target.'cfg(unix)'.dependencies]\nuuid = \"1\"\n";
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
}
