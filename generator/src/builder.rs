//! The build-step API, in the style of prost-build and tonic-build:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     specgen::Builder::new("spec/openapi.yaml")
//!         .type_override("Amount.value", "rust_decimal::Decimal")
//!         .generate()?;
//!     Ok(())
//! }
//! ```
//!
//! and in the crate: `include!(concat!(env!("OUT_DIR"), "/api.rs"));`

use std::path::{Path, PathBuf};

use quote::quote;

use crate::emit::{self, GeneratedFile};
use crate::error::{Error, Result};
use crate::{Options, build_ir, load};

/// Generates bindings from a `build.rs` into one file for `include!`.
#[derive(Debug, Clone)]
pub struct Builder {
    spec: PathBuf,
    options: Options,
    file_name: String,
    cargo_directives: bool,
}

impl Builder {
    /// A builder for the OpenAPI document at `spec` (relative to the crate being built).
    pub fn new(spec: impl AsRef<Path>) -> Builder {
        Builder {
            spec: spec.as_ref().to_path_buf(),
            options: Options::default(),
            file_name: "api.rs".into(),
            cargo_directives: true,
        }
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

    /// Name of the generated file in the output directory (default `api.rs`).
    pub fn file_name(mut self, name: impl Into<String>) -> Builder {
        self.file_name = name.into();
        self
    }

    /// Whether to print `cargo:rerun-if-changed` for the spec (default true; turn off outside
    /// build scripts).
    pub fn cargo_directives(mut self, enabled: bool) -> Builder {
        self.cargo_directives = enabled;
        self
    }

    /// Generates into `$OUT_DIR`.
    pub fn generate(self) -> Result<PathBuf> {
        let out_dir = std::env::var_os("OUT_DIR").ok_or_else(|| Error::Write {
            path: PathBuf::from("$OUT_DIR"),
            source: std::io::Error::other(
                "OUT_DIR is not set: call generate() from a build script, or use generate_to()",
            ),
        })?;
        self.generate_to(out_dir)
    }

    /// Generates into `out_dir`: the `include!` file and, beside it, the contract under
    /// `schemas/`. Returns the path of the `include!` file.
    pub fn generate_to(self, out_dir: impl AsRef<Path>) -> Result<PathBuf> {
        let out_dir = out_dir.as_ref();
        if self.cargo_directives {
            println!("cargo:rerun-if-changed={}", self.spec.display());
        }
        let doc = load::load_file(&self.spec)?;
        let api = build_ir(&doc, &self.options)?;
        let models = emit::models::tokens(&api)?;
        let support = emit::support::tokens();
        let file = emit::rust_file(
            &self.file_name,
            quote! {
                pub mod support {
                    // The models offer `schemars::JsonSchema` behind a `schemars` feature,
                    // which the including crate may not declare.
                    #![allow(unexpected_cfgs)]
                    #support
                }
                pub mod models {
                    #![allow(unexpected_cfgs)]
                    #models
                }
                pub use models::*;
            },
        )?;
        let crate_name = crate::crate_name(&doc, &self.options)?;
        let mut files = vec![file];
        files.extend(emit::contract::emit(&api, &crate_name)?);
        write_files(out_dir, &files)?;
        Ok(out_dir.join(&self.file_name))
    }
}

/// Writes each file through a temporary file and a rename, so a reader never sees half a file.
fn write_files(out_dir: &Path, files: &[GeneratedFile]) -> Result<()> {
    for file in files {
        let path = out_dir.join(&file.path);
        let dir = path.parent().unwrap_or(out_dir);
        std::fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
        std::io::Write::write_all(&mut temp, file.contents.as_bytes()).map_err(|source| {
            Error::Write {
                path: path.clone(),
                source,
            }
        })?;
        temp.persist(&path).map_err(|err| Error::Write {
            path: path.clone(),
            source: err.error,
        })?;
    }
    Ok(())
}
