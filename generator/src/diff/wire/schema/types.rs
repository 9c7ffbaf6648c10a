//! Types, formats and enumerations: which values a schema admits, compared between versions.

use serde_json::Value;

use super::walk::{Walk, keyword_at};
use crate::diff::checks::Facet;
use crate::diff::finding::Which;
use crate::diff::wire::shape::{Located, Shape};

impl<'d> Walk<'_, 'd> {
    /// Types and formats; false when they changed beyond comparison (nothing below is compared).
    pub(super) fn types(&mut self, old: &Shape<'d>, new: &Shape<'d>) -> bool {
        let at = keyword_at(new, "type");
        let facet = match (&old.types, &new.types) {
            (None, None) => None,
            (Some(_), None) => Some(Facet::TypeWidened),
            (None, Some(_)) => Some(Facet::TypeNarrowed),
            (Some(a), Some(b)) => match (covers(b, a), covers(a, b)) {
                (true, true) => None,
                (true, false) => Some(Facet::TypeWidened),
                (false, true) => Some(Facet::TypeNarrowed),
                (false, false) => Some(Facet::TypeChanged),
            },
        };
        if let Some(facet) = facet {
            let what = format!(
                "type {} → {}",
                type_text(old.types.as_ref()),
                type_text(new.types.as_ref())
            );
            self.report(facet, Which::New, &at, what);
            return facet != Facet::TypeChanged;
        }
        self.format(old, new);
        true
    }

    fn format(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        let old_format = old.format.as_ref().and_then(|f| f.value.as_str());
        let new_format = new.format.as_ref().and_then(|f| f.value.as_str());
        if old_format == new_format {
            return;
        }
        let single = new
            .types
            .as_ref()
            .filter(|types| types.len() == 1)
            .and_then(|types| types.iter().next().copied());
        // Integers and numbers: int32 < int64 (the default), float < double (the default).
        let width = |format: Option<&str>| match (single, format) {
            (Some("integer"), None | Some("int64")) => Some(64),
            (Some("integer"), Some("int32")) => Some(32),
            (Some("number"), None | Some("double")) => Some(64),
            (Some("number"), Some("float")) => Some(32),
            _ => None,
        };
        let facet = match (width(old_format), width(new_format)) {
            (Some(a), Some(b)) if a == b => return,
            (Some(a), Some(b)) if b > a => Facet::TypeWidened,
            (Some(_), Some(_)) => Facet::TypeNarrowed,
            _ => match (old_format, new_format) {
                (None, Some(_)) => Facet::TypeNarrowed,
                (Some(_), None) => Facet::TypeWidened,
                _ => Facet::TypeChanged,
            },
        };
        let what = format!(
            "format {} → {}",
            old_format.unwrap_or("(none)"),
            new_format.unwrap_or("(none)")
        );
        let at = new
            .format
            .as_ref()
            .map_or_else(|| new.at.clone(), |f| f.at.clone());
        self.report(facet, Which::New, &at, what);
    }

    pub(super) fn enums(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        match (&old.enumeration, &new.enumeration) {
            (Some((_, old_values)), Some((_, new_values))) => {
                for value in new_values {
                    if !old_values.iter().any(|o| o.value == value.value) {
                        let what = format!("enum value {} added", value_text(value.value));
                        self.report(Facet::EnumValueAdded, Which::New, &value.at, what);
                    }
                }
                for value in old_values {
                    if !new_values.iter().any(|n| n.value == value.value) {
                        let what = format!("enum value {} removed", value_text(value.value));
                        self.report(Facet::EnumValueRemoved, Which::Old, &value.at, what);
                    }
                }
            }
            (None, Some((at, values))) => {
                let what = format!("values restricted to {}", values_text(values));
                self.report(Facet::BecameEnum, Which::New, at, what);
            }
            (Some((_, values)), None) => {
                let (at, what) = match &new.extensible {
                    Some((at, _)) => (at.clone(), "enum made extensible (x-extensible-enum)"),
                    None => (new.at.clone(), "enum restriction dropped"),
                };
                let what = format!("{what}: was {}", values_text(values));
                self.report(Facet::EnumRemoved, Which::New, &at, what);
            }
            (None, None) => {}
        }
        if let (Some((_, old_values)), Some((_, new_values))) = (&old.extensible, &new.extensible) {
            for value in new_values {
                if !old_values.iter().any(|o| o.value == value.value) {
                    let what = format!("x-extensible-enum value {} added", value_text(value.value));
                    self.report(Facet::ExtensibleEnumValueAdded, Which::New, &value.at, what);
                }
            }
            for value in old_values {
                if !new_values.iter().any(|n| n.value == value.value) {
                    let what = format!(
                        "x-extensible-enum value {} removed",
                        value_text(value.value)
                    );
                    self.report(
                        Facet::ExtensibleEnumValueRemoved,
                        Which::Old,
                        &value.at,
                        what,
                    );
                }
            }
        }
    }
}

/// Whether the types `a` admit every value of the types `b` (`number` admits `integer`).
fn covers(a: &std::collections::BTreeSet<&str>, b: &std::collections::BTreeSet<&str>) -> bool {
    b.iter()
        .all(|t| a.contains(t) || (*t == "integer" && a.contains("number")))
}

fn type_text(types: Option<&std::collections::BTreeSet<&str>>) -> String {
    match types {
        None => "any".to_string(),
        Some(types) if types.is_empty() => "none".to_string(),
        Some(types) => types.iter().copied().collect::<Vec<_>>().join("|"),
    }
}

/// A JSON value in a message: strings in backticks, the rest as JSON.
/// A value as a code span: between backticks, more of them than any run the value holds, with
/// a space inside where it begins or ends with one (CommonMark), so that Markdown reports
/// keep it whole (`` x`y ``).
pub(crate) fn value_text(value: &Value) -> String {
    let text = match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    let longest_run = text
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest_run + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || longest_run > 0 {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

fn values_text(values: &[Located]) -> String {
    let shown: Vec<String> = values.iter().map(|l| value_text(l.value)).collect();
    format!("[{}]", shown.join(", "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_value_holding_backticks_is_one_code_span() {
        use serde_json::json;
        assert_eq!(super::value_text(&json!("ok")), "`ok`");
        assert_eq!(super::value_text(&json!(3)), "`3`");
        assert_eq!(super::value_text(&json!("x`y|z")), "`` x`y|z ``");
        assert_eq!(super::value_text(&json!("``a")), "``` ``a ```");
    }
}
