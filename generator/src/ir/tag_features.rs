//! Per-tag cargo features (`--features-per-tag`): each operation belongs to the feature of its
//! first tag (`tag-<kebab-case tag>`, `untagged` without one), and each named type that only
//! the operations of some features use is compiled only with one of them. A user of a large
//! API compiles what they call: `default-features = false, features = ["client", "tag-files"]`.
//!
//! Always compiled: the types of notifications (webhooks are not behind tag features) and the
//! API's error body, which the client and the server use whatever operation runs.

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
}
