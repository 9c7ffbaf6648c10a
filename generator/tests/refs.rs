//! `$ref`s spelled in the less common ways the JSON pointer and URI rules allow, followed to
//! the same Rust type and kept resolvable in the contract.

mod common;

use serde_json::Value;
use specgen::GeneratedFile;

fn generate(text: &str) -> specgen::Result<Vec<GeneratedFile>> {
    let doc = specgen::load::load_str(text, "refs.yaml")?;
    specgen::generate_crate(&doc, &Default::default())
}

/// Every `$ref` in every contract file resolves in that file.
fn assert_contract_refs_resolve(files: &[GeneratedFile]) {
    for file in files {
        let path = file.path.to_string_lossy().replace('\\', "/");
        if !path.starts_with("schemas/") {
            continue;
        }
        let schema: Value = serde_json::from_str(&file.contents).unwrap();
        let mut refs = Vec::new();
        common::collect_refs(&schema, &mut refs);
        for reference in refs {
            if let Some(problem) = common::ref_problem(&schema, &reference) {
                panic!("{path}: $ref '{reference}' {problem}");
            }
        }
    }
}

/// An operation whose request body is `Holder`, so the contract has to bundle it.
const OPERATION: &str = r#"openapi: 3.1.0
info: {title: Refs, version: 1.0.0}
paths:
  /holders:
    post:
      operationId: postHolder
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Holder'
      responses:
        '204': {description: done}
"#;

#[test]
fn component_names_with_slash_and_tilde_are_followed() {
    let text = format!(
        "{OPERATION}{}",
        r#"components:
  schemas:
    Holder:
      type: object
      properties:
        slash:
          $ref: '#/components/schemas/a~1b'
        tilde:
          $ref: '#/components/schemas/c~0d'
    a/b:
      type: object
      properties:
        v: {type: string}
    c~d:
      type: string
"#
    );
    let files = generate(&text).unwrap_or_else(|e| panic!("{e}"));
    let models = common::file(&files, "src/models.rs");
    assert!(models.contains("pub slash: Option<AB>,"), "{models}");
    assert!(models.contains("pub tilde: Option<CD>,"), "{models}");
    assert!(models.contains("pub struct AB {"), "{models}");
    assert!(models.contains("pub struct CD(pub String);"), "{models}");
    assert_contract_refs_resolve(&files);
}

#[test]
fn a_percent_encoded_ref_is_the_same_component() {
    let text = format!(
        "{OPERATION}{}",
        r#"components:
  schemas:
    Holder:
      type: object
      properties:
        line:
          $ref: '#/components/schemas/Order%20Line'
    Order Line:
      type: object
      properties:
        sku: {type: string}
"#
    );
    let files = generate(&text).unwrap_or_else(|e| panic!("{e}"));
    let models = common::file(&files, "src/models.rs");
    assert!(models.contains("pub line: Option<OrderLine>,"), "{models}");
    assert_eq!(
        models.matches("pub struct ").count(),
        2,
        "one struct per component:\n{models}"
    );
    assert_contract_refs_resolve(&files);
}

#[test]
fn a_ref_to_a_subschema_is_inlined_in_the_contract() {
    let text = format!(
        "{OPERATION}{}",
        r#"components:
  schemas:
    Holder:
      type: object
      properties:
        point:
          type: object
          properties:
            x: {type: integer}
        other_point:
          $ref: '#/components/schemas/Holder/properties/point'
"#
    );
    let files = generate(&text).unwrap_or_else(|e| panic!("{e}"));
    let models = common::file(&files, "src/models.rs");
    assert!(
        models.contains("pub point: Option<HolderPoint>,"),
        "{models}"
    );
    assert!(
        models.contains("pub other_point: Option<HolderPoint>,"),
        "{models}"
    );
    assert_contract_refs_resolve(&files);
}

/// Azure's specs point into other schemas' properties (`#/components/schemas/X/properties/y`)
/// hundreds of times, through chains of such references. Each referenced schema is one type,
/// converted once: this chain of 24 levels, each pointing twice at the next, took 2^24
/// conversions (a generation that did not end) when every path to a schema converted it again.
#[test]
fn a_schema_reached_by_many_refs_into_properties_is_one_type() {
    const DEPTH: usize = 24;
    let mut components = String::from(
        "components:\n  schemas:\n    Holder:\n      type: object\n      properties:\n        top:\n          $ref: '#/components/schemas/Level0/properties/inner'\n",
    );
    for level in 0..DEPTH {
        let next = if level + 1 < DEPTH {
            format!(
                "          properties:\n            left:\n              $ref: '#/components/schemas/Level{n}/properties/inner'\n            right:\n              $ref: '#/components/schemas/Level{n}/properties/inner'\n",
                n = level + 1
            )
        } else {
            "          properties:\n            leaf: {type: string}\n".to_string()
        };
        components.push_str(&format!(
            "    Level{level}:\n      type: object\n      properties:\n        inner:\n          type: object\n{next}"
        ));
    }
    let files = generate(&format!("{OPERATION}{components}")).unwrap();
    let models = files
        .iter()
        .find(|f| f.path.ends_with("src/models.rs"))
        .unwrap();
    // One struct per level's `inner` (both `left` and `right` name the same type), the
    // components themselves, and `Holder`.
    for level in 0..DEPTH - 1 {
        let inner = format!("pub struct Level{level}Inner {{");
        assert_eq!(models.contents.matches(&inner).count(), 1, "{inner}");
        let next = format!("Level{}Inner", level + 1);
        assert!(
            models
                .contents
                .contains(&format!("pub left: Option<{next}>"))
                && models
                    .contents
                    .contains(&format!("pub right: Option<{next}>")),
            "Level{level}Inner's members are both {next}"
        );
    }
    assert_contract_refs_resolve(&files);
}

/// A chain of schemas each referring to the next, as generated specs have (each an object
/// whose member is the next, or a bare alias of it): the IR pass builds a type after those it
/// refers to, 600 calls deep, which overflowed the stack (an abort, no message) at about
/// 450 on a main thread and 110 on a test thread, whose stack is 2 MiB, as this one is.
#[test]
fn a_chain_of_600_references_generates_and_diffs() {
    let chain = |link: &dyn Fn(usize) -> String| {
        let mut schemas = String::new();
        for i in 0..600 {
            schemas.push_str(&format!("    S{i}: {}\n", link(i + 1)));
        }
        schemas.push_str("    S600: {type: string}\n");
        format!(
            "openapi: 3.1.0\ninfo: {{title: Chain, version: 1.0.0}}\npaths:\n  /s:\n    get:\n      \
             operationId: getS\n      responses:\n        '200':\n          description: ok\n          \
             content: {{application/json: {{schema: {{$ref: '#/components/schemas/S0'}}}}}}\n\
             components:\n  schemas:\n{schemas}"
        )
    };
    let objects = chain(&|next| {
        format!(
            "{{type: object, properties: {{v: {{type: string}}, next: {{$ref: '#/components/schemas/S{next}'}}}}}}"
        )
    });
    let aliases = chain(&|next| format!("{{$ref: '#/components/schemas/S{next}'}}"));
    for text in [&objects, &aliases] {
        let files = generate(text).expect("generates");
        assert!(files.iter().any(|f| f.path.ends_with("src/models.rs")));
    }
    let old = specgen::load::load_str(&objects, "old.yaml").unwrap();
    let new = specgen::load::load_str(&aliases, "new.yaml").unwrap();
    let report = specgen::diff::diff(&old, &new, &Default::default()).expect("diffs");
    assert!(!report.findings.is_empty());
}
