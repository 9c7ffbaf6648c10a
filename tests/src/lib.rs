//! Cross-crate test helpers: where the workspace, the spec and `../shared` live, and
//! reusable checks on an OpenAPI 3.1 document held as a [`serde_json::Value`].
//!
//! Every check here takes the document as a `&Value` and returns the problems it found as
//! a list of [`Finding`]s (an empty list means the check passed), so a test can run it on
//! `spec/openapi.yaml`, on a corpus document, or on a deliberately broken in-memory
//! document, and [`render_findings`] turns the list into a message a person can read.
//!
//! | check | function |
//! |---|---|
//! | the document validates against the official OpenAPI 3.1 schema | [`official_schema_findings`] |
//! | every `$ref` is a local JSON pointer that resolves | [`dangling_refs`] |
//! | every example validates against its own schema | [`check_examples`] |
//! | every component schema has an example | [`component_schemas_without_examples`] |
//! | every operation shows an example | [`operations_without_examples`] |
//!
//! Locations are JSON pointers into the document (RFC 6901), e.g.
//! `/paths/~1banking~1accounts/get/responses/200/content/application~1json/example`.

mod example_checks;
mod examples;
mod findings;
pub mod har;
pub mod inmemory;
mod official_schema;
mod paths;
mod pointers;
mod validation_errors;

pub use example_checks::{
    DocumentSchemas, ExampleCheck, check_examples, component_schemas_without_examples,
    operations_without_examples,
};
pub use examples::{
    DOCUMENT_BASE_URI, ExampleInventory, ExampleKind, ExampleSite, HTTP_METHODS, Operation,
    collect_examples,
};
pub use findings::{Finding, render_findings};
pub use official_schema::{
    OFFICIAL_SCHEMA_FILES, OfficialSchemas, SCHEMA_BASE_ID, official_schema_findings,
};
pub use paths::{
    corpus_dir, load_yaml, openapi_schema_dir, parse_yaml, shared_dir, spec_path, workspace_root,
};
pub use pointers::{
    RefSite, collect_refs, dangling_refs, escape_pointer_token, follow_refs, percent_decode,
    pointer_from_tokens, pointer_push, pointer_to_uri_fragment, resolve_local_ref,
    unescape_pointer_token,
};
pub use validation_errors::describe_validation_error;
