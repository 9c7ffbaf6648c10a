//! The contract specgen writes under `schemas/` stands on its own: every `$ref` in a schema
//! file (and in each parameter schema of the manifest) is a URI fragment that resolves inside
//! that schema, the manifest points only at files
//! that exist, every schema file is reachable from the manifest, and `src/contract.rs` embeds
//! them all. Checked for the spec, every corpus document that generates and every fixture.

mod common;

use std::collections::BTreeSet;

use common::{CORPUS, FIXTURES, Outcome};
use serde_json::Value;
use specgen::GeneratedFile;

/// Every generated crate: `(document, files)`.
fn all_crates() -> Vec<(String, Vec<GeneratedFile>)> {
    let mut crates = vec![(
        "spec/openapi.yaml".to_string(),
        common::generate(&common::spec_path(), &Default::default()),
    )];
    for (file, outcome) in CORPUS {
        if *outcome == Outcome::Generates {
            let path = common::corpus_dir().join(file);
            crates.push((
                format!("shared/corpus/{file}"),
                common::generate(&path, &Default::default()),
            ));
        }
    }
    for fixture in FIXTURES {
        crates.push((
            format!("tests/fixtures/{}", fixture.file),
            common::generate(&fixture.path(), &fixture.options()),
        ));
    }
    crates
}

/// Problems with the `$ref`s of the schema files whose path starts with `prefix`, as found
/// by `check` (`common::ref_problem` or `common::uri_fragment_problem`).
fn ref_problems(prefix: &str, check: fn(&Value, &str) -> Option<String>) -> Vec<String> {
    let mut problems = Vec::new();
    for (document, files) in all_crates() {
        for (path, schema) in common::contract_schemas(&files) {
            if !path.starts_with(prefix) {
                continue;
            }
            let mut refs = Vec::new();
            common::collect_refs(&schema, &mut refs);
            for reference in refs {
                if let Some(problem) = check(&schema, &reference) {
                    problems.push(format!("{document}: {path}: $ref '{reference}' {problem}"));
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

fn assert_no_problems(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn refs_in_schema_files_resolve_in_their_file() {
    assert_no_problems(&ref_problems("schemas/", common::ref_problem));
}

#[test]
fn refs_in_schema_files_are_uri_fragments() {
    assert_no_problems(&ref_problems("schemas/", |_, reference| {
        common::uri_fragment_problem(reference)
    }));
}

#[test]
fn the_manifest_and_the_embedded_contract_name_exactly_the_schema_files() {
    let mut problems = Vec::new();
    for (document, files) in all_crates() {
        let schema_files: BTreeSet<String> = files
            .iter()
            .map(|f| f.path.to_string_lossy().replace('\\', "/"))
            .filter_map(|p| p.strip_prefix("schemas/").map(str::to_string))
            .filter(|p| p != "manifest.json")
            .collect();
        let manifest: Value =
            serde_json::from_str(common::file(&files, "schemas/manifest.json")).unwrap();
        let mut named = BTreeSet::new();
        for entry in manifest["operations"]
            .as_array()
            .into_iter()
            .chain(manifest["webhooks"].as_array())
            .flatten()
        {
            if let Some(path) = entry["requestBody"]["schema"].as_str() {
                named.insert(path.to_string());
            }
            for member in ["fieldSchemas", "jsonSchemas"] {
                for (_, path) in entry["requestBody"][member]
                    .as_object()
                    .into_iter()
                    .flatten()
                {
                    named.insert(path.as_str().unwrap_or_default().to_string());
                }
            }
            for response in entry["responses"].as_object().into_iter().flatten() {
                if let Some(path) = response.1["schema"].as_str() {
                    named.insert(path.to_string());
                }
                for (_, path) in response.1["jsonSchemas"].as_object().into_iter().flatten() {
                    named.insert(path.as_str().unwrap_or_default().to_string());
                }
            }
        }
        for path in manifest["components"].as_object().into_iter().flatten() {
            named.insert(path.1.as_str().unwrap_or_default().to_string());
        }
        for missing in named.difference(&schema_files) {
            problems.push(format!(
                "{document}: the manifest names {missing}, not generated"
            ));
        }
        for unnamed in schema_files.difference(&named) {
            problems.push(format!(
                "{document}: schemas/{unnamed} is not in the manifest"
            ));
        }
        let embedded = common::file(&files, "src/contract.rs");
        for path in schema_files
            .iter()
            .chain(["manifest.json".to_string()].iter())
        {
            let include = format!("\"../schemas/{path}\"");
            if !embedded.contains(&include) {
                problems.push(format!("{document}: src/contract.rs does not embed {path}"));
            }
        }
    }
    assert_no_problems(&problems);
}

#[test]
fn the_contract_alone_is_the_crates_schemas_byte_for_byte() {
    for (document, path, options) in [(
        "spec/openapi.yaml".to_string(),
        common::spec_path(),
        specgen::Options::default(),
    )]
    .into_iter()
    .chain(FIXTURES.iter().map(|fixture| {
        (
            format!("tests/fixtures/{}", fixture.file),
            fixture.path(),
            fixture.options(),
        )
    })) {
        let doc = specgen::load::load_file(&path).expect("loads");
        let crate_files = common::generate(&path, &options);
        let from_crate: Vec<(String, String)> = crate_files
            .iter()
            .filter_map(|file| {
                let path = file.path.to_string_lossy().replace('\\', "/");
                Some((
                    path.strip_prefix("schemas/")?.to_string(),
                    file.contents.clone(),
                ))
            })
            .collect();
        let alone = specgen::contract(&doc, &options).expect("the contract alone");
        assert!(!alone.files.is_empty(), "{document}");
        assert_eq!(alone.files, from_crate, "{document}");
    }
}

/// `(document, path, options)` of every document whose contract the layouts are compared on:
/// the spec, the generating corpus documents, the real specs and every fixture.
fn documents() -> Vec<(String, std::path::PathBuf, specgen::Options)> {
    let mut out = vec![(
        "spec/openapi.yaml".to_string(),
        common::spec_path(),
        specgen::Options::default(),
    )];
    for (file, outcome) in CORPUS {
        if *outcome == Outcome::Generates {
            let path = common::corpus_dir().join(file);
            out.push((format!("shared/corpus/{file}"), path, Default::default()));
        }
    }
    for file in common::REAL_CORPUS {
        let path = common::real_corpus_dir().join(file);
        out.push((
            format!("shared/corpus/real/{file}"),
            path,
            Default::default(),
        ));
    }
    for fixture in FIXTURES {
        out.push((
            format!("tests/fixtures/{}", fixture.file),
            fixture.path(),
            fixture.options(),
        ));
    }
    out
}

/// The contract of `doc` in `layout`, `(path under schemas/, contents)`.
fn contract_in(
    doc: &specgen::load::Document,
    options: &specgen::Options,
    layout: specgen::ContractLayout,
) -> Vec<(String, String)> {
    let options = specgen::Options {
        contract_layout: layout,
        ..options.clone()
    };
    specgen::contract(doc, &options)
        .expect("the contract alone")
        .files
}

/// The shared layout writes each component once per direction, and a file read through
/// `specgen::definitions` is the self-contained layout's file, byte for byte once printed: the
/// same transforms (discriminators, inheritance, readOnly/writeOnly) over the same schemas.
/// Every document is also compared with the files it would have self-contained, so a reader
/// that forgets the definitions (a ref it cannot resolve) fails here, not on a large spec.
#[test]
fn a_shared_file_reads_as_the_self_contained_file() {
    use specgen::ContractLayout::{SelfContained, Shared};
    let mut compared = 0;
    let mut with_definitions = 0;
    for (document, path, options) in documents() {
        let doc = specgen::load::load_file(&path).expect("loads");
        let alone = contract_in(&doc, &options, SelfContained);
        let shared = contract_in(&doc, &options, Shared);
        let files: std::collections::HashMap<&str, &str> = shared
            .iter()
            .map(|(path, text)| (path.as_str(), text.as_str()))
            .collect();
        let definitions = specgen::definitions::Definitions::new();
        for (path, text) in &alone {
            let shared_text = files
                .get(path.as_str())
                .unwrap_or_else(|| panic!("{document}: no {path} in the shared layout"));
            if path == "manifest.json" {
                assert_eq!(shared_text, text, "{document}: the manifest");
                continue;
            }
            let read = definitions
                .read(shared_text, |path| files.get(path).copied())
                .unwrap_or_else(|err| panic!("{document}: {path}: {err}"));
            let mut printed = serde_json::to_string_pretty(&read).unwrap();
            printed.push('\n');
            assert_eq!(&printed, text, "{document}: {path}");
            compared += 1;
            if shared_text != text {
                with_definitions += 1;
            }
        }
        let definition_files = shared
            .iter()
            .filter(|(path, _)| path.starts_with(specgen::definitions::FOLDER))
            .count();
        assert_eq!(
            shared.len(),
            alone.len() + definition_files,
            "{document}: the shared layout writes the same files and its definitions"
        );
    }
    assert!(compared > 1000, "{compared} files compared");
    assert!(
        with_definitions > 500,
        "{with_definitions} files refer to definitions"
    );
}

/// In the shared layout, every `$ref` of a schema file is local or points into a definitions
/// document where its fragment resolves: what a JSON Schema tool given every file (by `$id`)
/// needs.
#[test]
fn refs_of_the_shared_layout_resolve_in_their_definitions_document() {
    let mut problems = Vec::new();
    for (document, path, options) in documents() {
        let doc = specgen::load::load_file(&path).expect("loads");
        let shared = contract_in(&doc, &options, specgen::ContractLayout::Shared);
        let parsed: std::collections::HashMap<String, Value> = shared
            .iter()
            .map(|(path, text)| (path.clone(), serde_json::from_str(text).expect("JSON")))
            .collect();
        for (path, schema) in &parsed {
            if path == "manifest.json" {
                continue;
            }
            let mut refs = Vec::new();
            common::collect_refs(schema, &mut refs);
            for reference in refs {
                let (target, fragment) = match reference.split_once('#') {
                    Some(("", _)) => (schema, reference.clone()),
                    Some((id, fragment)) => {
                        let file = id.rsplit_once(':').map_or("", |(_, file)| file);
                        match parsed.get(file) {
                            Some(target) if file.starts_with("definitions/") => {
                                (target, format!("#{fragment}"))
                            }
                            _ => {
                                problems.push(format!("{document}: {path}: {reference}"));
                                continue;
                            }
                        }
                    }
                    None => {
                        problems.push(format!("{document}: {path}: {reference}"));
                        continue;
                    }
                };
                if let Some(problem) = common::ref_problem(target, &fragment) {
                    problems.push(format!("{document}: {path}: {reference} {problem}"));
                }
            }
        }
    }
    assert_no_problems(&problems);
}

/// A message documented in two JSON media types with a schema each (JSON Merge Patch beside
/// JSON, GeoJSON beside plain JSON) keeps both in the contract, each file named after its
/// media type and holding that type's schema; the client asks for a success's own type at
/// full weight and for a type only errors use at a lower one, so that a server choosing
/// between GeoJSON and JSON answers in the one the client reads.
#[test]
fn each_json_media_type_keeps_its_own_schema() {
    let fixture = FIXTURES
        .iter()
        .find(|fixture| fixture.file == "json-media-types.yaml")
        .expect("the fixture is listed");
    let files = common::generate(&fixture.path(), &fixture.options());
    let manifest: Value =
        serde_json::from_str(common::file(&files, "schemas/manifest.json")).unwrap();
    let operation = |id: &str| {
        manifest["operations"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|entry| entry["operationId"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} is in the manifest"))
    };
    let patch = operation("patchItem");
    assert_eq!(
        patch["requestBody"]["jsonSchemas"],
        serde_json::json!({
            "application/merge-patch+json": "operations/patchItem.request.merge-patch-json.json"
        })
    );
    let list = operation("listFacilities");
    assert_eq!(
        list["responses"]["200"]["contentType"],
        "application/geo+json"
    );
    assert_eq!(
        list["responses"]["200"]["jsonSchemas"],
        serde_json::json!({
            "application/json": "operations/listFacilities.response.200.json.json"
        })
    );
    // Each file holds its own type's schema.
    let schemas = common::contract_schemas(&files);
    let required = |path: &str| {
        let (_, schema) = schemas
            .iter()
            .find(|(file, _)| file.strip_prefix("schemas/") == Some(path))
            .unwrap_or_else(|| panic!("{path} is written"));
        let text = schema.to_string();
        ["\"data\"", "\"features\"", "minProperties", "\"name\""]
            .into_iter()
            .filter(|word| text.contains(word))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        required("operations/listFacilities.response.200.json.json"),
        ["\"data\""]
    );
    assert_eq!(
        required("operations/listFacilities.response.200.json"),
        ["\"features\""]
    );
    assert_eq!(
        required("operations/patchItem.request.merge-patch-json.json"),
        ["minProperties", "\"name\""]
    );
    let client = common::file(&files, "src/client.rs");
    for accept in [
        "\"application/geo+json, application/json;q=0.9\"",
        "\"application/json, application/problem+json;q=0.9\"",
    ] {
        assert!(client.contains(accept), "{accept} is not sent");
    }
}
