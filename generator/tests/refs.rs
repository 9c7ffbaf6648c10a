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
