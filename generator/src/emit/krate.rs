//! The crate around the models: `Cargo.toml`, `src/lib.rs`, and `src/contract.rs`, which
//! embeds the contract files so that a server or validator built on the crate needs no files
//! at run time.

use proc_macro2::TokenStream;
use quote::quote;

use super::types::doc_lines;
use super::{GeneratedFile, rust_file};
use crate::error::Result;
use crate::ir::Api;

/// What the crate is called and how it is described.
#[derive(Debug, Clone)]
pub struct CrateInfo {
    /// Package name, e.g. `orchestration-api`.
    pub name: String,
    /// Package version.
    pub version: String,
}

/// A part of the generated code, as far as its dependencies go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The models, support types, credentials and contract: always there.
    Models,
    /// `server` (and the `validation` runtime it shares with `webhooks`).
    Server,
    /// `client` (and the `retry` runtime it shares with `webhooks`).
    Client,
    /// `webhooks`.
    Webhooks,
    /// `JsonSchema` on every model, behind a `schemars` feature.
    Schemars,
}

/// A crate the generated code uses, as the generated `Cargo.toml` declares it, and the parts
/// that need it. One table for the crate's `Cargo.toml`, the [`crate::Builder`]'s check of the
/// including crate's dependencies and the block the documentation shows.
#[derive(Debug, Clone, Copy)]
pub struct Dependency {
    /// The package name, which is also the name the code uses (`-` read as `_`).
    pub name: &'static str,
    /// The version requirement.
    pub version: &'static str,
    /// Whether the crate's default features are wanted.
    pub default_features: bool,
    /// The features the code needs.
    pub features: &'static [&'static str],
    /// The features the client needs besides (`uuid`'s `v4`, for idempotency keys).
    pub client_features: &'static [&'static str],
    /// The parts that use it.
    pub parts: &'static [Part],
    /// Whether the generated crate declares it optional, enabled by its sides' features.
    pub optional_in_crate: bool,
    /// Features the generated crate asks for besides those the code needs: they change no
    /// code, only how it behaves (serde_json's `float_roundtrip`), so a crate that includes
    /// the code may leave them out and the [`crate::Builder`]'s check does not ask for them.
    pub advised: &'static [&'static str],
}

const fn dependency(
    name: &'static str,
    version: &'static str,
    parts: &'static [Part],
) -> Dependency {
    Dependency {
        name,
        version,
        default_features: true,
        features: &[],
        client_features: &[],
        parts,
        optional_in_crate: true,
        advised: &[],
    }
}

/// What the generated code depends on, by package name.
pub const DEPENDENCIES: &[Dependency] = &[
    Dependency {
        default_features: false,
        features: &["http1", "json", "tokio"],
        ..dependency("axum", "0.8", &[Part::Server, Part::Webhooks])
    },
    Dependency {
        optional_in_crate: false,
        ..dependency("base64", "0.22", &[Part::Models])
    },
    Dependency {
        default_features: false,
        features: &["std", "serde"],
        optional_in_crate: false,
        ..dependency("chrono", "0.4", &[Part::Models])
    },
    dependency("fastrand", "2", &[Part::Client, Part::Webhooks]),
    Dependency {
        // Declared by the crate whatever its features, as it always was.
        optional_in_crate: false,
        ..dependency("http", "1", &[Part::Server, Part::Client, Part::Webhooks])
    },
    dependency("httpdate", "1", &[Part::Client, Part::Webhooks]),
    Dependency {
        default_features: false,
        ..dependency("jsonschema", "0.60", &[Part::Server, Part::Webhooks])
    },
    dependency("percent-encoding", "2", &[Part::Server, Part::Client]),
    Dependency {
        default_features: false,
        features: &["json", "query", "form"],
        // The client asks for gzip and reads it (Notion documents `Content-Encoding: gzip`;
        // a server may compress what a request does not refuse); the sender turns it off, as
        // a notification carries only its Content-Type.
        advised: &["gzip"],
        ..dependency("reqwest", "0.13", &[Part::Client, Part::Webhooks])
    },
    Dependency {
        optional_in_crate: false,
        ..dependency("rust_decimal", "1", &[Part::Models])
    },
    Dependency {
        features: &["uuid1", "chrono04"],
        ..dependency("schemars", "1", &[Part::Schemars])
    },
    Dependency {
        features: &["derive"],
        optional_in_crate: false,
        ..dependency("serde", "1", &[Part::Models])
    },
    // Numbers read to the nearest float: without it serde_json reads some a unit off in the
    // last place (`1e-23` as 1.0000000000000001e-23), which a decimal then refuses.
    Dependency {
        optional_in_crate: false,
        advised: &["float_roundtrip"],
        ..dependency("serde_json", "1", &[Part::Models])
    },
    dependency("serde_urlencoded", "0.7", &[Part::Server, Part::Webhooks]),
    Dependency {
        features: &["time"],
        ..dependency("tokio", "1", &[Part::Client, Part::Webhooks])
    },
    Dependency {
        features: &["serde"],
        client_features: &["v4"],
        optional_in_crate: false,
        ..dependency("uuid", "1", &[Part::Models])
    },
];

/// What the example round trips use besides the models' dependencies.
pub const EXAMPLE_TEST_DEPENDENCIES: &[Dependency] = &[Dependency {
    default_features: false,
    ..dependency("jsonschema", "0.60", &[])
}];

impl Dependency {
    /// Whether the generated code with these sides uses it.
    pub fn needed_by(&self, sides: &Sides) -> bool {
        self.parts.iter().any(|part| match part {
            Part::Models => true,
            Part::Server => sides.server,
            Part::Client => sides.client,
            Part::Webhooks => sides.webhooks,
            Part::Schemars => false,
        })
    }

    /// Its `Cargo.toml` line, for code with `sides` (`client` adds [`Self::client_features`]);
    /// `optional` adds `optional = true`.
    pub fn toml_line(&self, sides: &Sides, optional: bool) -> String {
        self.line_with(sides, optional, &[])
    }

    /// Its line in the generated crate's own `Cargo.toml`: [`Self::toml_line`] with the
    /// [`Self::advised`] features.
    pub fn crate_line(&self, sides: &Sides, optional: bool) -> String {
        self.line_with(sides, optional, self.advised)
    }

    fn line_with(&self, sides: &Sides, optional: bool, advised: &[&'static str]) -> String {
        let mut features: Vec<&str> = self.features.to_vec();
        features.extend(advised);
        if sides.client {
            features.extend(self.client_features);
        }
        let mut table = vec![format!("version = \"{}\"", self.version)];
        if optional {
            table.push("optional = true".into());
        }
        if !self.default_features {
            table.push("default-features = false".into());
        }
        if !features.is_empty() {
            let quoted: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
            table.push(format!("features = [{}]", quoted.join(", ")));
        }
        if table.len() == 1 {
            format!("{} = \"{}\"", self.name, self.version)
        } else {
            format!("{} = {{ {} }}", self.name, table.join(", "))
        }
    }
}

/// `Cargo.toml`. Dependencies carry explicit versions so the crate builds on its own, inside a
/// workspace or not.
pub fn cargo_toml(api: &Api, info: &CrateInfo) -> GeneratedFile {
    let description = format!(
        "Typed bindings for {} (generated by specgen; do not edit)",
        api.title
    )
    .replace('\\', "\\\\")
    .replace('"', "\\\"");
    // The crate's own features add the client's (`uuid/v4`), so its lines are the models'.
    let models_only = Sides {
        server: false,
        client: false,
        webhooks: false,
        example_tests: false,
        features: true,
    };
    let dependencies: String = DEPENDENCIES
        .iter()
        .map(|dep| format!("{}\n", dep.crate_line(&models_only, dep.optional_in_crate)))
        .collect();
    let text = format!(
        r#"# @generated by specgen. Do not edit: edit the spec and regenerate.
[package]
name = "{name}"
version = "{version}"
edition = "2024"
description = "{description}"
publish = false

[features]
default = [{default}]
# Derives `schemars::JsonSchema` on every model.
schemars = ["dep:schemars"]
# The API as an async trait, served by an axum router that checks requests against the contract.
server = [{server}]
# A reqwest client with retries and idempotency keys.
client = [{client}]
# Receiver (axum) and sender (reqwest) of the API's notifications.
webhooks = [{webhooks}]
# HTTPS for the client and the sender (rustls).
rustls = ["reqwest?/rustls"]
{tag_features}
[dependencies]
{dependencies}
[dev-dependencies]
axum = {{ version = "0.8", default-features = false, features = ["http1", "json", "tokio"] }}
jsonschema = {{ version = "0.60", default-features = false }}
tokio = {{ version = "1", features = ["macros", "rt-multi-thread", "net"] }}
"#,
        name = info.name,
        version = info.version,
        default = if api.tag_features.is_some() {
            "\"all-tags\""
        } else {
            ""
        },
        tag_features = tag_features_toml(api),
        server = side_feature(Part::Server),
        client = side_feature(Part::Client),
        webhooks = side_feature(Part::Webhooks),
    );
    GeneratedFile::new("Cargo.toml", text)
}

/// What a side's cargo feature enables, from [`DEPENDENCIES`]: each optional dependency that
/// side uses (`"dep:axum"`), and for the client the features it needs besides (`"uuid/v4"`).
fn side_feature(part: Part) -> String {
    let mut entries: Vec<String> = DEPENDENCIES
        .iter()
        .filter(|dep| dep.optional_in_crate && dep.parts.contains(&part))
        .map(|dep| format!("\"dep:{}\"", dep.name))
        .collect();
    if part == Part::Client {
        for dep in DEPENDENCIES {
            for feature in dep.client_features {
                entries.push(format!("\"{}/{feature}\"", dep.name));
            }
        }
    }
    entries.join(", ")
}

/// The per-tag features' lines of `[features]`, when the crate has them.
fn tag_features_toml(api: &Api) -> String {
    let Some(features) = &api.tag_features else {
        return String::new();
    };
    let quoted: Vec<String> = features.all.iter().map(|f| format!("\"{f}\"")).collect();
    let mut text = format!(
        "# Operations by tag (generated with --features-per-tag): each feature compiles its \
         tag's operations and the types only they use; `all-tags` (default) every one.\n\
         all-tags = [{}]\n",
        quoted.join(", ")
    );
    for feature in &features.all {
        text.push_str(&format!("{feature} = []\n"));
    }
    text
}

/// The `[dependencies]` lines the code with `sides` needs in the crate that includes it, one
/// a line, sorted by name.
pub fn include_dependencies(sides: &Sides) -> Vec<(&'static str, String)> {
    DEPENDENCIES
        .iter()
        .filter(|dep| dep.needed_by(sides))
        .map(|dep| (dep.name, dep.toml_line(sides, false)))
        .collect()
}

/// The block of `[dependencies]` the documentation shows for including crates: the models'
/// lines, then what each side adds, then the example tests' `[dev-dependencies]`.
pub fn include_dependencies_doc() -> String {
    let none = Sides {
        server: false,
        client: false,
        webhooks: false,
        example_tests: false,
        features: false,
    };
    let mut out =
        String::from("[dependencies]\n# Always: the models, support types and contract.\n");
    let models = include_dependencies(&none);
    for (_, line) in &models {
        out.push_str(line);
        out.push('\n');
    }
    for (side, label) in [
        (
            Sides {
                server: true,
                ..none
            },
            "server(true)",
        ),
        (
            Sides {
                client: true,
                ..none
            },
            "client(true); uuid gains the `v4` feature",
        ),
        (
            Sides {
                webhooks: true,
                ..none
            },
            "webhooks(true)",
        ),
    ] {
        out.push_str(&format!("# With .{label}:\n"));
        for (name, line) in include_dependencies(&side) {
            let same_as_models = models.iter().any(|(n, l)| *n == name && *l == line);
            if !same_as_models {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out.push_str("\n[dev-dependencies]\n# With .example_tests(true):\n");
    for dep in EXAMPLE_TEST_DEPENDENCIES {
        out.push_str(&dep.toml_line(&none, false));
        out.push('\n');
    }
    out
}

/// Which parts the generated code has.
#[derive(Debug, Clone, Copy)]
pub struct Sides {
    /// `server`: the API trait and its axum router (the API has operations).
    pub server: bool,
    /// `client`: the reqwest client (the API has operations).
    pub client: bool,
    /// `webhooks`: receiver and sender of notifications (the API has webhooks).
    pub webhooks: bool,
    /// The round-trip test of the spec's examples.
    pub example_tests: bool,
    /// Whether each side is behind a cargo feature of the same name (a crate of its own), or
    /// there because the caller asked for it (code to `include!`, whose crate has no such
    /// features).
    pub features: bool,
}

/// `src/lib.rs`.
pub fn lib_rs(api: &Api, sides: &Sides) -> Result<GeneratedFile> {
    // A document without schemas has nothing to re-export.
    let reexport = (!api.types.is_empty()).then(|| {
        // Behind per-tag features, a tag whose operations use no model leaves the module
        // empty: re-exporting nothing is not worth a warning in the user's build.
        let allow = api
            .tag_features
            .is_some()
            .then(|| quote!(#[allow(unused_imports)]));
        quote!(
            #allow
            pub use models::*;
        )
    });
    let mut docs = vec![format!(" {} {}", api.title, api.version), String::new()];
    if let Some(description) = &api.description {
        docs.extend(doc_lines(description));
        docs.push(String::new());
    }
    docs.push(" Generated by specgen from the OpenAPI document; do not edit.".into());
    docs.push(String::new());
    docs.push(
        " Cargo features: `server` (axum), `client` (reqwest), `webhooks` (receiver and".into(),
    );
    docs.push(
        " sender of notifications), `schemars` (`JsonSchema` on every model), `rustls`".into(),
    );
    docs.push(" (HTTPS for the client and the sender).".into());
    let docs = docs.iter().map(|line| quote!(#![doc = #line]));
    let tests = sides.example_tests.then(|| {
        quote! {
            #[cfg(test)]
            #[rustfmt::skip]
            mod example_tests;
        }
    });
    let validation = (sides.server || sides.webhooks).then(|| {
        quote! {
            #[cfg(any(feature = "server", feature = "webhooks"))]
            #[rustfmt::skip]
            pub mod validation;
        }
    });
    let retry = (sides.client || sides.webhooks).then(|| {
        quote! {
            #[cfg(any(feature = "client", feature = "webhooks"))]
            #[rustfmt::skip]
            pub mod retry;
        }
    });
    let server = sides.server.then(|| {
        quote! {
            #[cfg(feature = "server")]
            #[rustfmt::skip]
            pub mod server;
        }
    });
    let client = sides.client.then(|| {
        quote! {
            #[cfg(feature = "client")]
            #[rustfmt::skip]
            pub mod client;
        }
    });
    let webhooks = sides.webhooks.then(|| {
        quote! {
            #[cfg(feature = "webhooks")]
            #[rustfmt::skip]
            pub mod webhooks;
        }
    });
    // With per-tag features and none of them on, the sides' shared code has no caller.
    let no_tag = api.tag_features.as_ref().map(|features| {
        let all = features.all.iter();
        quote!(#![cfg_attr(not(any(#(feature = #all),*)), allow(dead_code, unused_imports))])
    });
    // The API's descriptions are its authors' prose, not rustdoc: a bracket in it
    // (`filter[name_eq]=…`) is no intra-doc link and `<authentication-token>` no HTML tag, so
    // a docs build with warnings denied must not fail on them (ContentGroove, WhatsApp).
    let prose = quote!(#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]);
    rust_file(
        "src/lib.rs",
        quote! {
            #(#docs)*
            #![forbid(unsafe_code)]
            #prose
            #no_tag

            // Generated modules are printed by prettyplease; rustfmt must not restyle them, or
            // `specgen check` would call them stale.
            #[rustfmt::skip]
            pub mod contract;
            #[rustfmt::skip]
            pub mod credentials;
            #[rustfmt::skip]
            pub mod models;
            #[rustfmt::skip]
            pub mod support;
            #validation
            #retry
            #server
            #client
            #webhooks
            #tests

            #reexport
        },
    )
}

/// The file a crate `include!`s (see [`crate::Include`]): each module of the generated code
/// for the sides asked for, declared with a `#[path]` into `dir` (relative to this file), and
/// the models re-exported, as the crate's `lib.rs` does; no cargo features, no crate
/// attributes.
pub fn include_rs(file: &str, dir: &str, api: &Api, sides: &Sides) -> Result<GeneratedFile> {
    let module = |name: &str, public: bool| {
        let path = format!("{dir}/{name}.rs");
        let name = super::types::ident(name);
        let visibility = public.then(|| quote!(pub));
        quote! {
            #[path = #path]
            #visibility mod #name;
        }
    };
    let mut modules = vec![
        module("contract", true),
        module("credentials", true),
        module("models", true),
        module("support", true),
    ];
    if sides.server || sides.webhooks {
        modules.push(module("validation", true));
    }
    if sides.client || sides.webhooks {
        modules.push(module("retry", true));
    }
    for (side, name) in [
        (sides.server, "server"),
        (sides.client, "client"),
        (sides.webhooks, "webhooks"),
    ] {
        if side {
            modules.push(module(name, true));
        }
    }
    if sides.example_tests {
        let tests = module("example_tests", false);
        modules.push(quote! {
            #[cfg(test)]
            #tests
        });
    }
    let reexport = (!api.types.is_empty()).then(|| {
        // Behind per-tag features, a tag whose operations use no model leaves the module
        // empty: re-exporting nothing is not worth a warning in the user's build.
        let allow = api
            .tag_features
            .is_some()
            .then(|| quote!(#[allow(unused_imports)]));
        quote!(
            #allow
            pub use models::*;
        )
    });
    rust_file(
        file,
        quote! {
            #(#modules)*
            #reexport
        },
    )
}

/// `src/contract.rs`: every contract file, embedded, keyed by its path under `schemas/`.
pub fn contract_rs(contract: &[GeneratedFile]) -> Result<GeneratedFile> {
    let mut paths: Vec<String> = contract
        .iter()
        .map(|file| file.path.to_string_lossy().replace('\\', "/"))
        .collect();
    paths.sort();
    let entries: Vec<TokenStream> = paths
        .iter()
        .filter_map(|path| {
            let key = path.strip_prefix("schemas/")?.to_string();
            let include = format!("../{path}");
            Some(quote!((#key, include_str!(#include))))
        })
        .collect();
    rust_file(
        "src/contract.rs",
        quote! {
            //! The contract specgen wrote beside this crate (`schemas/`), embedded: one JSON
            //! Schema per component and message, and `manifest.json`, which maps operations
            //! and webhooks to them; for a large spec, `definitions/` too, which the schemas
            //! refer to (read a schema with [`schema`]).

            /// Every contract file as `(path under schemas/, contents)`, sorted by path.
            pub static FILES: &[(&str, &str)] = &[#(#entries),*];

            /// The contents of one contract file, e.g. `manifest.json`.
            pub fn file(path: &str) -> Option<&'static str> {
                FILES.iter().find(|(p, _)| *p == path).map(|(_, contents)| *contents)
            }

            /// The manifest.
            pub fn manifest() -> &'static str {
                file("manifest.json").unwrap_or("{}")
            }

            /// A contract file as one self-contained schema (the components it needs under its
            /// own `$defs`), whether specgen wrote it so or, for a large spec, referring to the
            /// shared definitions in `definitions/`.
            pub fn schema(path: &str) -> Result<::serde_json::Value, String> {
                static DEFINITIONS: crate::support::definitions::Definitions =
                    crate::support::definitions::Definitions::new();
                let text = file(path).ok_or_else(|| format!("no contract file {path}"))?;
                DEFINITIONS.read(text, file).map_err(|err| format!("{path}: {err}"))
            }
        },
    )
}
