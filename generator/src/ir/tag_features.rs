//! Per-tag cargo features (`--features-per-tag`): each operation belongs to the feature of its
//! first tag (`tag-<kebab-case tag>`, `untagged` without one), and each named type that only
//! the operations of some features use is compiled only with one of them. A user of a large
//! API compiles what they call: `default-features = false, features = ["client", "tag-files"]`.
//!
//! Always compiled: the types of notifications (webhooks are not behind tag features), the
//! API's error body, which the client and the server use whatever operation runs, and the
//! types no operation uses, with everything they are built of.

use std::collections::{BTreeMap, BTreeSet};

use heck::ToKebabCase;

use super::{Api, Operation, TypeRef};

/// Which feature each operation and type is behind.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TagFeatures {
    /// The feature of each operation, in the order of [`Api::operations`].
    pub operations: Vec<String>,
    /// The features whose operations use a type, by type name; a type not listed is always
    /// compiled.
    pub types: BTreeMap<String, BTreeSet<String>>,
    /// Every feature, sorted.
    pub all: Vec<String>,
}

impl TagFeatures {
    /// The features of the types `ty` names (itself and what it is built of), when all of
    /// them are gated: an example or a check of `ty` compiles with all of these on.
    pub fn of_type(&self, api: &Api, ty: &TypeRef) -> Vec<BTreeSet<String>> {
        let mut named = BTreeSet::new();
        api.collect_named(ty, false, &mut named);
        named
            .into_iter()
            .filter_map(|name| self.types.get(&name).cloned())
            .collect()
    }
}

/// The feature name of a tag.
fn feature_of(op: &Operation) -> String {
    feature_of_tag(op.tags.first().map(String::as_str))
}

/// The feature name of an operation's first tag, if it has one.
fn feature_of_tag(tag: Option<&str>) -> String {
    match tag {
        Some(tag) => {
            // Transliterated first, as type names are: `Über` is `tag-uber`, and a tag in
            // another script keeps a feature of its own instead of falling into `untagged`.
            let kebab = deunicode::deunicode(tag).to_kebab_case();
            let kebab: String = kebab
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if kebab.is_empty() {
                "untagged".to_string()
            } else {
                format!("tag-{kebab}")
            }
        }
        None => "untagged".to_string(),
    }
}

/// Assigns the features of `api`.
pub fn assign(api: &Api) -> TagFeatures {
    let operations: Vec<String> = api.operations.iter().map(feature_of).collect();
    let mut used_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (op, feature) in api.operations.iter().zip(&operations) {
        let mut named = BTreeSet::new();
        for ty in operation_types(op) {
            api.collect_named(ty, true, &mut named);
        }
        for name in named {
            used_by.entry(name).or_default().insert(feature.clone());
        }
    }
    // What every side uses whatever operation runs.
    let mut always = BTreeSet::new();
    for hook in &api.webhooks {
        for ty in operation_types(&hook.operation) {
            api.collect_named(ty, true, &mut always);
        }
    }
    for op in &api.operations {
        for response in &op.responses {
            if let (true, Some(body)) = (response.status.is_error(), &response.body) {
                api.collect_named(&body.ty, true, &mut always);
            }
        }
    }
    // A type no operation uses is always compiled (a component the document declares for
    // its own sake), and so must be every type it is built of, though operations use those
    // too: gated, they would be missing from a build without those operations' features.
    for def in &api.types {
        if !used_by.contains_key(&def.name) {
            api.collect_named(&TypeRef::Named(def.name.clone()), true, &mut always);
        }
    }
    let types = api
        .types
        .iter()
        .filter(|def| !always.contains(&def.name))
        .filter_map(|def| Some((def.name.clone(), used_by.get(&def.name)?.clone())))
        .collect();
    let all: BTreeSet<String> = operations.iter().cloned().collect();
    TagFeatures {
        operations,
        types,
        all: all.into_iter().collect(),
    }
}

fn operation_types(op: &Operation) -> impl Iterator<Item = &TypeRef> {
    op.parameters
        .iter()
        .map(|param| &param.ty)
        .chain(op.request_body.iter().map(|body| &body.ty))
        .chain(
            op.responses
                .iter()
                .filter_map(|response| response.body.as_ref().map(|body| &body.ty)),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(tags: &[&str]) -> String {
        feature_of_tag(tags.first().copied())
    }

    #[test]
    fn tags_become_kebab_features_transliterated() {
        assert_eq!(
            feature(&["Banking Connectivity"]),
            "tag-banking-connectivity"
        );
        assert_eq!(feature(&["Über", "other"]), "tag-uber");
        assert_eq!(feature(&["用户管理"]), "tag-yong-hu-guan-li");
        assert_eq!(feature(&["a/b"]), "tag-a-b");
        assert_eq!(feature(&["  "]), "untagged");
        assert_eq!(feature(&[]), "untagged");
    }

    #[test]
    fn what_a_type_no_operation_uses_is_built_of_is_never_gated() {
        // `Summary` is used by no operation, so it is always compiled; the `State` it holds is
        // also a `dag` operation's answer, and gated behind `tag-dag` a build of `tag-grid`
        // alone would not find it (Figma's and Airflow's specs, one tag at a time).
        let text = r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /tasks:
    get:
      operationId: listTasks
      tags: [dag]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  state: {$ref: "#/components/schemas/State"}
                  run: {$ref: "#/components/schemas/Run"}
  /grid:
    get:
      operationId: grid
      tags: [grid]
      responses:
        "204": {description: ok}
components:
  schemas:
    State: {type: string, enum: [queued, running]}
    Run: {type: object, properties: {id: {type: string}}}
    Summary:
      type: object
      properties:
        state: {$ref: "#/components/schemas/State"}
"##;
        let doc = crate::load::load_str(text, "test.yaml").expect("the document loads");
        let api = crate::build_ir(&doc, &crate::Options::default()).expect("the IR builds");
        let features = assign(&api);
        assert!(
            !features.types.contains_key("State"),
            "{:?}",
            features.types
        );
        assert!(!features.types.contains_key("Summary"));
        // A type only operations use stays behind their feature.
        assert_eq!(
            features.types.get("Run"),
            Some(&BTreeSet::from(["tag-dag".to_string()]))
        );
    }
}
