//! One old/new pair per check of `specgen diff` (`tests/diff/checks/<check-id>/`), each
//! asserting the exact findings the pair gives: the header of its `new.yaml` lists them as
//! `# expect: LEVEL SIDE CHECK-ID DOCUMENT#POINTER` (side `-` for changes that break nothing),
//! wire and Rust API findings alike. Every check of the catalogue has its pair, and every pair
//! finds the check it is named after.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use specgen::diff::{self, Finding, Which};

fn checks_dir() -> PathBuf {
    common::package_dir().join("tests/diff/checks")
}

fn pairs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(checks_dir())
        .expect("tests/diff/checks")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A finding as the fixtures write it.
fn line(finding: &Finding) -> String {
    format!(
        "{} {} {} {}{}",
        finding.level.as_str(),
        finding.side.map_or("-", |side| side.as_str()),
        finding.id,
        match finding.place.document {
            Which::Old => "old",
            Which::New => "new",
        },
        finding.place.pointer
    )
}

fn expected(new: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(new)
        .expect("new.yaml")
        .lines()
        .filter_map(|line| line.strip_prefix("# expect: "))
        .map(str::to_string)
        .collect()
}

fn actual(dir: &Path) -> Result<BTreeSet<String>, String> {
    let load = |name: &str| diff::source::load(&dir.join(name).display().to_string());
    let old = load("old.yaml").map_err(|e| e.to_string())?;
    let new = load("new.yaml").map_err(|e| e.to_string())?;
    let report = diff::diff(&old, &new, &Default::default()).map_err(|e| e.to_string())?;
    Ok(report.findings.iter().map(line).collect())
}

#[test]
fn every_check_has_a_pair() {
    let ids: BTreeSet<String> = diff::checks::catalogue()
        .iter()
        .map(|check| check.id.clone())
        .collect();
    let pairs: BTreeSet<String> = pairs().into_iter().collect();
    let missing: Vec<&String> = ids.difference(&pairs).collect();
    let unknown: Vec<&String> = pairs.difference(&ids).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "checks without a pair: {missing:?}\npairs named after no check: {unknown:?}"
    );
}

#[test]
fn every_pair_gives_exactly_its_findings() {
    let mut wrong = Vec::new();
    for name in pairs() {
        let dir = checks_dir().join(&name);
        let expected = expected(&dir.join("new.yaml"));
        if !expected
            .iter()
            .any(|line| line.split(' ').nth(2) == Some(name.as_str()))
        {
            wrong.push(format!(
                "{name}: its expectations do not name the check itself"
            ));
        }
        match actual(&dir) {
            Err(error) => wrong.push(format!("{name}: {error}")),
            Ok(actual) if actual != expected => {
                let missing: Vec<&String> = expected.difference(&actual).collect();
                let extra: Vec<&String> = actual.difference(&expected).collect();
                wrong.push(format!(
                    "{name}:\n    missing: {missing:#?}\n    unexpected: {extra:#?}"
                ));
            }
            Ok(_) => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} pairs differ:\n{}",
        wrong.len(),
        pairs().len(),
        wrong.join("\n")
    );
}

/// The findings of `old` → `new`, both YAML texts, as [`line`] writes them.
fn findings_between(old: &str, new: &str) -> BTreeSet<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("old.yaml"), old).unwrap();
    std::fs::write(dir.path().join("new.yaml"), new).unwrap();
    actual(dir.path()).expect("both load and diff")
}

/// A union of two alternatives of one Rust type (`String`, `String2`): a document diffed
/// with itself finds nothing, the variants paired by name.
#[test]
fn a_document_diffed_with_itself_finds_nothing_with_two_alternatives_of_one_type() {
    let spec = r##"
openapi: 3.0.3
info: {title: U, version: "1.0.0"}
paths:
  /d:
    get:
      operationId: getD
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/When"}}}
components:
  schemas:
    When:
      oneOf:
        - {type: string, pattern: "^[0-9]{4}$"}
        - {type: string, pattern: "^[0-9]{4}-[0-9]{2}$"}
"##;
    assert_eq!(findings_between(spec, spec), BTreeSet::new());
}

/// A discriminator tag the mapping no longer names (`cat` renamed `kitty`): a value tagged
/// `cat` fits no alternative now, which breaks the senders of requests and the readers of
/// responses.
#[test]
fn a_tag_the_mapping_no_longer_names_breaks_both_sides() {
    let spec = |tag: &str| {
        format!(
            r##"
openapi: 3.0.3
info: {{title: P, version: "1.0.0"}}
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content: {{application/json: {{schema: {{$ref: "#/components/schemas/Pet"}}}}}}
      responses:
        "200":
          description: ok
          content: {{application/json: {{schema: {{$ref: "#/components/schemas/Pet"}}}}}}
components:
  schemas:
    Pet:
      oneOf:
        - {{$ref: "#/components/schemas/Cat"}}
        - {{$ref: "#/components/schemas/Dog"}}
      discriminator:
        propertyName: petType
        mapping: {{{tag}: "#/components/schemas/Cat", dog: "#/components/schemas/Dog"}}
    Cat:
      type: object
      properties: {{petType: {{type: string}}, meow: {{type: boolean}}}}
    Dog:
      type: object
      properties: {{petType: {{type: string}}, bark: {{type: boolean}}}}
"##
        )
    };
    let found = findings_between(&spec("cat"), &spec("kitty"));
    let pointer = "old#/components/schemas/Pet/discriminator";
    assert_eq!(
        found,
        BTreeSet::from([
            format!("error clients request-discriminator-changed {pointer}"),
            format!("error clients response-discriminator-changed {pointer}"),
        ])
    );
}
