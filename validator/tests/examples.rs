//! Examples as tests: `specval examples` finds examples that contradict their schema, specgen
//! emits round-trip tests only for the valid ones, and the README's table of counts is true.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const DOCUMENT: &str = r##"openapi: 3.1.0
info: {title: Examples, version: "1"}
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - name: id
          in: path
          required: true
          schema: {type: string, format: uuid}
          examples:
            good: {value: 0b7c3a38-2f3c-4d6b-9d4e-5a4c3b2a1f00}
            bad: {value: not-a-uuid}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
              examples:
                good: {value: {name: lamp, size: 3}}
                wrongType: {value: {name: lamp, size: big}}
components:
  schemas:
    Thing:
      type: object
      required: [name]
      properties:
        name: {type: string}
        size: {type: integer, examples: [2, -1.5]}
      examples:
        - {name: chair}
        - {size: 4}
"##;

#[test]
fn invalid_examples_are_listed_with_their_pointer_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("examples.yaml");
    std::fs::write(&spec, DOCUMENT).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_specval"))
        .args(["examples", "--spec"])
        .arg(&spec)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    for (pointer, rule) in [
        (
            "#/paths/~1things~1{id}/get/parameters/0/examples/bad/value",
            "format",
        ),
        (
            "#/paths/~1things~1{id}/get/responses/200/content/application~1json/examples/wrongType/value",
            "type",
        ),
        ("#/components/schemas/Thing/examples/1", "required"),
        (
            "#/components/schemas/Thing/properties/size/examples/1",
            "type",
        ),
    ] {
        assert!(
            text.lines()
                .any(|line| line.starts_with(pointer) && line.contains(&format!("rule {rule}"))),
            "{pointer} ({rule}) not listed:\n{text}"
        );
    }
    assert!(text.contains("8 examples"), "{text}");
    assert!(text.contains("4 valid"), "{text}");

    let report = specval::examples::check_document(&spec).unwrap();
    assert_eq!((report.found, report.valid), (8, 4));
}

/// One mistake is one violation, as `specval message` says it: a string where an enum of
/// booleans stands is refused by `type` and `enum` alike, and the `enum` says it (every value
/// and so their type). It was listed twice.
#[test]
fn an_example_refused_by_type_and_enum_at_one_place_is_one_violation() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("flag.yaml");
    std::fs::write(
        &spec,
        "openapi: 3.0.3\ninfo: {title: Flag, version: '1'}\npaths: {}\ncomponents:\n  \
         schemas:\n    Flag: {type: boolean, enum: [true, false], example: 'false'}\n",
    )
    .unwrap();
    let report = specval::examples::check_document(&spec).unwrap();
    assert_eq!((report.found, report.valid), (1, 0));
    let rules: Vec<String> = report
        .invalid
        .iter()
        .map(|invalid| invalid.rule.to_string())
        .collect();
    assert_eq!(rules.len(), 1, "{rules:?}");
    assert_eq!(rules, ["enum"]);
}

#[test]
fn examples_are_reported_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("examples.yaml");
    std::fs::write(&spec, DOCUMENT).unwrap();
    let run = |format: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_specval"))
            .args(["examples", "--format", format, "--spec"])
            .arg(&spec)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{format}");
        String::from_utf8(output.stdout).unwrap()
    };
    // JUnit: a testcase per example, a failure per invalid one.
    let junit = run("junit");
    let xml = roxmltree::Document::parse(&junit).expect("JUnit is XML");
    let count = |tag: &str| xml.descendants().filter(|n| n.has_tag_name(tag)).count();
    assert_eq!((count("testcase"), count("failure")), (8, 4), "{junit}");

    // SARIF: a result per violation, at the line of its example in the document.
    let sarif: serde_json::Value = serde_json::from_str(&run("sarif")).expect("SARIF is JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 4);
    let line_of = |needle: &str| DOCUMENT.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let lines: Vec<u64> = results
        .iter()
        .map(|r| {
            assert!(
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .ends_with("examples.yaml")
            );
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .expect("startLine")
        })
        .collect();
    for needle in [
        "bad: {value: not-a-uuid}",
        "wrongType:",
        "- {size: 4}",
        "examples: [2, -1.5]",
    ] {
        let line = line_of(needle) as u64;
        assert!(
            lines.contains(&line),
            "no result at line {line} ({needle}): {lines:?}"
        );
    }
}

#[test]
fn only_schema_valid_examples_become_round_trip_tests() {
    let doc = specgen::load::load_str(DOCUMENT, "examples.yaml").unwrap();
    let files = specgen::generate_crate(&doc, &specgen::Options::default()).unwrap();
    let tests = files
        .iter()
        .find(|f| f.path.ends_with("src/example_tests.rs"))
        .expect("example tests are generated");
    assert_eq!(
        tests.contents.matches("round_trip::<").count(),
        4,
        "{}",
        tests.contents
    );
    assert!(
        tests
            .contents
            .contains("Not tested: these examples contradict their own schema")
    );
    assert!(
        tests
            .contents
            .contains("#/components/schemas/Thing/examples/1")
    );
    assert!(
        !tests
            .contents
            .contains("\"#/components/schemas/Thing/examples/1\""),
        "the invalid example is no row of the table"
    );
    assert!(
        tests
            .contents
            .contains("\"#/components/schemas/Thing/examples/0\""),
        "the valid example is a row of the table"
    );
    let off = specgen::Options {
        no_example_tests: true,
        ..specgen::Options::default()
    };
    let files = specgen::generate_crate(&doc, &off).unwrap();
    assert!(
        !files
            .iter()
            .any(|f| f.path.ends_with("src/example_tests.rs"))
    );
}

/// The README's examples table is what the tools count today.
#[test]
fn the_readme_table_of_examples_is_current() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let start = readme
        .find("<!-- examples-table")
        .expect("table start marker");
    let end = readme
        .find("<!-- /examples-table -->")
        .expect("table end marker");
    let rows: Vec<Vec<String>> = readme[start..end]
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| document"))
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect();
    let corpus = workspace().join("../shared/corpus");
    let mut documents = vec![(
        "spec/openapi.yaml".to_string(),
        workspace().join("spec/openapi.yaml"),
    )];
    for (prefix, dir) in [("", corpus.clone()), ("real/", corpus.join("real"))] {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".json"))
            .collect();
        names.sort();
        documents.extend(
            names
                .into_iter()
                .map(|n| (format!("{prefix}{n}"), dir.join(n))),
        );
    }
    let mut expected = Vec::new();
    for (name, path) in documents {
        let report = specval::examples::check_document(&path).unwrap();
        let doc = specgen::load::load_file(&path).unwrap();
        let files = specgen::generate_crate(&doc, &specgen::Options::default()).unwrap();
        let tests = files
            .iter()
            .find(|f| f.path.ends_with("src/example_tests.rs"))
            .map_or(0, |f| f.contents.matches("round_trip::<").count());
        expected.push(vec![
            name,
            report.found.to_string(),
            report.valid.to_string(),
            tests.to_string(),
        ]);
    }
    assert_eq!(rows, expected, "update the examples table in README.md");
}
