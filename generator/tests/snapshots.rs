//! Snapshots of what specgen generates: `src/models.rs` for the spec, every corpus document
//! and every fixture, `schemas/manifest.json` for the spec and the webhook example, and
//! `src/client.rs` for the fixture that declares its own idempotency-key headers.
//!
//! Snapshots live in `tests/snapshots/`, named after the document (`spec-openapi`,
//! `corpus-<file>`, `fixture-<file>`). After a deliberate change to the output, review and
//! accept the new ones with `cargo insta review` (or `INSTA_UPDATE=always cargo test -p
//! specgen --test snapshots` and read the diff).

mod common;

use std::path::Path;

use common::{CORPUS, FIXTURES, Outcome};
use specgen::GeneratedFile;

/// Snapshots one generated file under `name.what`, recording where the document is.
fn snapshot(name: &str, what: &str, document: &str, files: &[GeneratedFile], path: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(format!("{path} generated from {document}"));
    settings.bind(|| {
        insta::assert_snapshot!(format!("{name}.{what}"), common::file(files, path));
    });
}

fn spec_document() {
    let options = common::options(Some(common::SPEC_CRATE_NAME.into()), Default::default());
    let files = common::generate(&common::spec_path(), &options);
    let name = common::SPEC_CRATE_NAME;
    snapshot(name, "models", "spec/openapi.yaml", &files, "src/models.rs");
    snapshot(
        name,
        "manifest",
        "spec/openapi.yaml",
        &files,
        "schemas/manifest.json",
    );
}

fn corpus_document(file: &str) {
    let outcome = CORPUS
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, outcome)| *outcome)
        .unwrap_or_else(|| panic!("{file} is not in the corpus table"));
    if outcome != Outcome::Generates {
        // Documents that fail are checked, message and all, by the compile test.
        return;
    }
    let name = common::corpus_crate_name(file);
    let options = common::options(Some(name.clone()), Default::default());
    let files = common::generate(&common::corpus_dir().join(file), &options);
    let document = format!("shared/corpus/{file}");
    snapshot(&name, "models", &document, &files, "src/models.rs");
    if file == "oas31-webhook-example.yaml" {
        snapshot(
            &name,
            "manifest",
            &document,
            &files,
            "schemas/manifest.json",
        );
    }
}

fn fixture_document(file: &str) {
    let fixture = FIXTURES
        .iter()
        .find(|f| f.file == file)
        .unwrap_or_else(|| panic!("{file} is not in the fixture table"));
    let files = common::generate(&fixture.path(), &fixture.options());
    let document = format!("generator/tests/fixtures/{file}");
    snapshot(
        &fixture.crate_name(),
        "models",
        &document,
        &files,
        "src/models.rs",
    );
    // The client of the fixture that declares its own idempotency-key headers: the
    // automatic key follows each header's type.
    if file == "idempotency-header.yaml" {
        snapshot(
            &fixture.crate_name(),
            "client",
            &document,
            &files,
            "src/client.rs",
        );
    }
}

#[test]
fn spec() {
    spec_document();
}

/// One test per document, so that one changed snapshot does not hide another.
macro_rules! documents {
    ($kind:ident: $($test:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                $kind($file);
            }
        )*
    };
}

documents! {corpus_document:
    corpus_oas30_api_with_examples => "oas30-api-with-examples.yaml",
    corpus_oas30_callback_example => "oas30-callback-example.yaml",
    corpus_oas30_link_example => "oas30-link-example.yaml",
    corpus_oas30_petstore_expanded => "oas30-petstore-expanded.yaml",
    corpus_oas30_petstore => "oas30-petstore.yaml",
    corpus_oas30_uspto => "oas30-uspto.yaml",
    corpus_oas31_mega => "oas31-mega.yaml",
    corpus_oas31_webhook_example => "oas31-webhook-example.yaml",
}

documents! {fixture_document:
    fixture_all_of_shapes => "all-of-shapes.yaml",
    fixture_callback_without_payload => "callback-without-payload.yaml",
    fixture_callbacks => "callbacks.yaml",
    fixture_default_only_errors => "default-only-errors.yaml",
    fixture_duplicate_operation_ids => "duplicate-operation-ids.yaml",
    fixture_enums => "enums.yaml",
    fixture_error_items => "error-items.yaml",
    fixture_formats => "formats.yaml",
    fixture_idempotency_header => "idempotency-header.yaml",
    fixture_inheritance => "inheritance.yaml",
    fixture_inline_naming => "inline-naming.yaml",
    fixture_json_media_types => "json-media-types.yaml",
    fixture_json_schema_2020_12 => "json-schema-2020-12.yaml",
    fixture_large_enum => "large-enum.yaml",
    fixture_maps_arrays => "maps-arrays.yaml",
    fixture_multi_file => "multi-file/openapi.yaml",
    fixture_name_collisions => "name-collisions.yaml",
    fixture_names => "names.yaml",
    fixture_nullable_30 => "nullable-30.yaml",
    fixture_nullable_31 => "nullable-31.yaml",
    fixture_overrides => "overrides.yaml",
    fixture_prelude_shadowing => "prelude-shadowing.yaml",
    fixture_problem_members => "problem-members.yaml",
    fixture_query_objects => "query-objects.yaml",
    fixture_recursion => "recursion.yaml",
    fixture_recursive_unions => "recursive-unions.yaml",
    fixture_routes => "routes.yaml",
    fixture_swagger_2 => "swagger-2.yaml",
    fixture_unions => "unions.yaml",
    fixture_unions_undiscriminated => "unions-undiscriminated.yaml",
}

/// The tables, the directories and the tests above name the same documents, so that a new
/// corpus document or fixture cannot go unsnapshotted.
#[test]
fn every_document_has_a_snapshot_test() {
    let source = include_str!("snapshots.rs");
    let corpus: Vec<&str> = CORPUS.iter().map(|(file, _)| *file).collect();
    assert_eq!(
        common::yaml_files(&common::corpus_dir()),
        corpus,
        "shared/corpus/ and the corpus table in tests/common/mod.rs differ"
    );
    let fixtures: Vec<&str> = FIXTURES.iter().map(|f| f.file).collect();
    assert_eq!(
        common::fixture_documents(),
        fixtures,
        "tests/fixtures/ and the fixture table in tests/common/mod.rs differ"
    );
    for file in corpus.iter().chain(&fixtures) {
        assert!(
            source.contains(&format!("=> \"{file}\"")),
            "{file} has no snapshot test in tests/snapshots.rs"
        );
    }
    assert!(Path::new(&common::spec_path()).exists());
}
