//! From a loaded document to the IR. Walks components, paths and webhooks in document order,
//! turns every schema into a [`super::TypeRef`], and records a name hint for every type that
//! needs a name. Names are chosen afterwards, all at once, by [`super::naming`]; what needs
//! the names (boxing, nullable unions, contract repairs) is settled after that.
//!
//! Each job has a file: `crate_name.rs` (the package name), `types.rs` (schemas to types),
//! `objects.rs`, `unions.rs` and `all_of.rs` (the shapes that need more than one schema),
//! `operations.rs`, `security.rs`, `servers.rs`, `shapes.rs` (members of the wrong kind),
//! `contract.rs` (schemas in contract form),
//! `repair.rs` (contract schemas JSON Schema would refuse) and `boxing.rs` (recursive members);
//! `state.rs` holds what they share.

use std::collections::BTreeMap;

use super::Api;
use super::naming;
use crate::error::Result;
use crate::load::Document;
use servers::servers;
use state::{Builder, as_object, check_type_overrides, string_at};
use types::{hold_any_values_in_place, mark_null_accepting_unions, mark_untold_tags};

mod all_of;
mod boxing;
mod contract;
mod crate_name;
mod inheritance;
mod objects;
mod operations;
mod path_params;
mod repair;
mod security;
mod servers;
mod shapes;
mod state;
mod type_lists;
mod types;
mod unions;

pub(crate) use state::component_target;

/// Choices a caller makes about the IR beyond what the document says.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Package name of the generated crate, instead of the document's (see
    /// [`crate::Options::crate_name`]).
    pub crate_name: Option<String>,
    /// Rust types to use instead of the generated mapping, keyed by `Component`,
    /// `Component.property` or a JSON pointer to a schema (`#/components/schemas/A/properties/b`).
    pub type_overrides: BTreeMap<String, String>,
}

/// Builds the IR of a document.
pub fn build(doc: &Document, options: &BuildOptions) -> Result<Api> {
    // The caller's options and the crate's name first: they are cheap to check.
    let crate_name = crate_name::crate_name(doc, options.crate_name.as_deref())?;
    check_type_overrides(&options.type_overrides)?;
    let mut builder = Builder::new(doc, &options.type_overrides);
    builder.check_shapes()?;
    let mut api = builder.build_api(crate_name)?;
    builder.warn_unapplied_overrides(&options.type_overrides);
    if let Some(duplicate) = &doc.duplicate_key {
        builder.warnings.insert(
            0,
            crate::ir::Warning {
                pointer: duplicate.pointer.clone(),
                location: Some(duplicate.location),
                message: format!(
                    "member name `{}` is given twice in one object; the last one is read, as \
                     JSON parsers do (the first is left out; in YAML a name given twice is an \
                     error)",
                    duplicate.name
                ),
            },
        );
    }
    if let Some(first) = doc.legacy_nullable.first() {
        let others = doc.legacy_nullable.len() - 1;
        let pointer = format!("#{first}/nullable");
        builder.warnings.insert(
            0,
            crate::ir::Warning {
                location: doc.location(&pointer),
                pointer,
                message: format!(
                    "`nullable` is OpenAPI 3.0's keyword, not 3.1's; read as 3.0 reads it (the \
                     value may be null) here{}; write `type: [..., 'null']` to say it in 3.1",
                    match others {
                        0 => String::new(),
                        1 => " and in 1 other schema".to_string(),
                        n => format!(" and in {n} other schemas"),
                    }
                ),
            },
        );
    }
    api.warnings.append(&mut builder.warnings);
    Ok(api)
}

impl Builder<'_> {
    fn build_api(&mut self, crate_name: String) -> Result<Api> {
        let root = as_object(&self.doc.root).cloned().unwrap_or_default();
        let info = root
            .get("info")
            .and_then(as_object)
            .cloned()
            .unwrap_or_default();

        if let Some(schemas) = self.doc.pointer("#/components/schemas").and_then(as_object) {
            for name in schemas.keys() {
                self.component(name)?;
            }
        }
        self.hold_the_base_where_a_subtype_adds_nothing();

        let security_schemes = self.security_schemes()?;
        let default_security = self.security_requirements(root.get("security"), "#/security")?;
        let operations = self.operations(&root, &default_security)?;
        let mut webhooks = self.webhooks(&root)?;
        let callbacks = self.callbacks(&root, &webhooks)?;
        webhooks.extend(callbacks);
        let schemas = self.component_contracts()?;
        let servers = servers(root.get("servers"));
        let slots = std::mem::take(&mut self.slots);
        let mut api = Api {
            crate_name,
            title: string_at(&info, "title").unwrap_or("API").to_string(),
            version: string_at(&info, "version").unwrap_or("0.0.0").to_string(),
            description: string_at(&info, "description").map(str::to_string),
            types: Vec::new(),
            operations,
            webhooks,
            security_schemes,
            credentials: Vec::new(),
            servers,
            schemas,
            schema_examples: std::mem::take(&mut self.inline_examples),
            warnings: std::mem::take(&mut self.warnings),
            tag_features: None,
        };
        let renamed = naming::assign(&mut api, slots, &self.redirects)?;
        // After naming: a credential carries its scheme's Rust name.
        api.credentials = security::credentials(&api.security_schemes, &api.operations);
        boxing::break_alias_cycles(&mut api);
        boxing::mark_recursive_members(&mut api);
        mark_null_accepting_unions(&mut api);
        mark_untold_tags(&mut api);
        hold_any_values_in_place(&mut api);
        self.repair_contract(&mut api);
        for (pointer, message) in renamed {
            self.warn(&pointer, message);
        }
        api.warnings.append(&mut self.warnings);
        Ok(api)
    }
}
