//! A `discriminator` on a base schema that subtypes extend with `allOf`, as Azure's specs
//! write it: the contract dispatches to the subtype and stays resolvable, and the base's Rust
//! type chooses the subtype by the tag, and the base's own struct holds an unknown subtype's members
//! whatever the base says of members it does not declare.

mod common;

use serde_json::Value;

const SPEC: &str = r#"openapi: 3.0.1
info: {title: Rules, version: 1.0.0}
paths:
  /rules:
    get:
      operationId: listRules
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Rule'}}
components:
  schemas:
    Rule:
      type: object
      required: [kind]
      properties: {kind: {type: string}}
      additionalProperties: {type: object}
      discriminator: {propertyName: kind}
    NatRule:
      x-ms-discriminator-value: nat
      allOf:
        - $ref: '#/components/schemas/Rule'
        - properties: {ports: {type: array, items: {type: integer}}}
"#;

#[test]
fn a_base_that_subtypes_extend_dispatches_and_its_type_keeps_their_members() {
    let doc = specgen::load::load_str(SPEC, "rules.yaml").unwrap();
    let files = specgen::generate_crate(&doc, &Default::default()).unwrap();
    let file = |suffix: &str| {
        files
            .iter()
            .find(|f| {
                f.path
                    .to_string_lossy()
                    .replace('\\', "/")
                    .ends_with(suffix)
            })
            .unwrap_or_else(|| panic!("no {suffix}"))
    };
    let schema: Value =
        serde_json::from_str(&file("schemas/operations/listRules.response.200.json").contents)
            .unwrap();
    let mut refs = Vec::new();
    common::collect_refs(&schema, &mut refs);
    assert!(refs.iter().any(|r| r == "#/$defs/NatRule"), "{refs:?}");
    for reference in refs {
        assert_eq!(
            common::ref_problem(&schema, &reference),
            None,
            "{reference}"
        );
    }
    // A rule may be any subtype: its type chooses by the tag, a nat rule's `ports` typed
    // in `NatRule`; a tag no subtype answers to is the base's struct, where a member such
    // as `ports` is no `{type: object}` and is kept as JSON, not refused.
    let models = &file("src/models.rs").contents;
    let body = |start: &str| {
        models
            .split(start)
            .nth(1)
            .and_then(|rest| rest.split("\n}").next())
            .unwrap_or_else(|| panic!("{start}"))
            .to_string()
    };
    let rule = body("pub enum Rule {");
    assert!(rule.contains("NatRule(NatRule)"), "{rule}");
    assert!(rule.contains("Base(RuleBase)"), "{rule}");
    assert!(models.contains("Some(\"nat\") => vec![0]"));
    let nat = body("pub struct NatRule {");
    assert!(nat.contains("pub ports: Option<Vec<i64>>"), "{nat}");
    let base = body("pub struct RuleBase {");
    assert!(
        base.contains("additional_properties: ::serde_json::Map<String, ::serde_json::Value>"),
        "{base}"
    );
}
