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
            for response in entry["responses"].as_object().into_iter().flatten() {
                if let Some(path) = response.1["schema"].as_str() {
                    named.insert(path.to_string());
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
