//! `components/securitySchemes` and the `security` requirements of the document and its
//! operations: every scheme a requirement names must be declared.

use serde_json::Value;

use super::state::{Builder, as_object, child, spec_error, string_at};
use crate::error::Result;
use crate::ir::{Credential, Operation, ParamLocation, SecurityKind, SecurityScheme};

impl Builder<'_> {
    /// The scheme names of a `security` list at `at`, each of which must be declared under
    /// `components/securitySchemes` (a requirement naming an undeclared one could never be
    /// checked, and would quietly leave the operation open).
    pub(super) fn security_requirements(
        &self,
        value: Option<&Value>,
        at: &str,
    ) -> Result<Vec<Vec<String>>> {
        let requirements = security_requirements(value);
        let declared = self
            .doc
            .pointer("#/components/securitySchemes")
            .and_then(as_object);
        // Indices of the document's own list (entries that are not objects are skipped
        // above, so the requirements' own positions could point elsewhere).
        let entries = value.and_then(Value::as_array).into_iter().flatten();
        for (index, requirement) in entries.enumerate() {
            let Some(requirement) = requirement.as_object() else {
                continue;
            };
            for name in requirement.keys() {
                if !declared.is_some_and(|schemes| schemes.contains_key(name)) {
                    return Err(spec_error(
                        self.doc,
                        &child(&child(at, &index.to_string()), name),
                        format!(
                            "security names the scheme '{name}', which components/securitySchemes does not declare"
                        ),
                    ));
                }
            }
        }
        Ok(requirements)
    }

    pub(super) fn security_schemes(&mut self) -> Result<Vec<SecurityScheme>> {
        let mut out = Vec::new();
        let mut unchecked = Vec::new();
        let Some(schemes) = self
            .doc
            .pointer("#/components/securitySchemes")
            .and_then(as_object)
        else {
            return Ok(out);
        };
        for (key, scheme) in schemes {
            let at = child("#/components/securitySchemes", key);
            let (scheme, _) = self.doc.deref(scheme, &at)?;
            let scheme = scheme.as_object().cloned().unwrap_or_default();
            let kind = match (
                string_at(&scheme, "type"),
                string_at(&scheme, "scheme").map(str::to_ascii_lowercase),
            ) {
                (Some("apiKey"), _) => {
                    let name = string_at(&scheme, "name").ok_or_else(|| {
                        spec_error(self.doc, &at, "apiKey security scheme without a name")
                    })?;
                    let location = match string_at(&scheme, "in") {
                        Some("header") => ParamLocation::Header,
                        Some("query") => ParamLocation::Query,
                        Some("cookie") => ParamLocation::Cookie,
                        other => {
                            return Err(spec_error(
                                self.doc,
                                &at,
                                format!(
                                    "apiKey security scheme 'in' must be header, query or cookie, not {other:?}"
                                ),
                            ));
                        }
                    };
                    SecurityKind::ApiKey {
                        name: name.to_string(),
                        location,
                    }
                }
                (Some("http"), Some(s)) if s == "bearer" => SecurityKind::Bearer,
                (Some("http"), Some(s)) if s == "basic" => SecurityKind::Basic,
                // Any other HTTP scheme is an `Authorization` value in that scheme: a server
                // that took it for no credential at all ran the handler of every such operation
                // for anyone (Twitter's `OAuth`, PAYONE's HMAC).
                (Some("http"), Some(_)) => match string_at(&scheme, "scheme").map(str::trim) {
                    Some(word) if !word.is_empty() && !word.contains(' ') => {
                        SecurityKind::Http(word.to_string())
                    }
                    _ => SecurityKind::Other("http".to_string()),
                },
                (Some(other), _) => {
                    if other == "mutualTLS" {
                        unchecked.push(at.clone());
                    }
                    SecurityKind::Other(other.to_string())
                }
                (None, _) => {
                    return Err(spec_error(self.doc, &at, "security scheme without a type"));
                }
            };
            out.push(SecurityScheme {
                key: key.clone(),
                rust_name: String::new(),
                kind,
                docs: string_at(&scheme, "description").map(|s| s.trim().to_string()),
            });
        }
        for at in unchecked {
            self.warn(
                &at,
                "the generated server does not check a client certificate (mutualTLS): it is \
                 verified where TLS ends, in front of the server; an operation that requires \
                 this scheme alone is open to every caller as generated. The generated client \
                 presents one only from a reqwest::Client built with an identity (`http_client`)",
            );
        }
        Ok(out)
    }
}

/// Whether a `security` list, as written, names no scheme: `[]`, or requirements that are
/// all `{}` (anonymous access).
pub(super) fn names_no_scheme(value: &Value) -> bool {
    value.as_array().is_some_and(|list| {
        list.iter()
            .all(|requirement| requirement.as_object().is_some_and(|r| r.is_empty()))
    })
}

fn security_requirements(value: Option<&Value>) -> Vec<Vec<String>> {
    value
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_object)
                .map(|requirement| requirement.keys().cloned().collect())
                .collect()
        })
        .unwrap_or_default()
}

/// The credentials of the API, in scheme order: each scheme the generated code can carry that
/// some operation asks for, required when every secured operation asks for it.
pub(super) fn credentials(schemes: &[SecurityScheme], operations: &[Operation]) -> Vec<Credential> {
    let secured: Vec<&Vec<Vec<String>>> = operations
        .iter()
        .map(|op| &op.security)
        .filter(|security| !security.is_empty())
        .collect();
    schemes
        .iter()
        .filter_map(|scheme| {
            let (location, name) = match &scheme.kind {
                SecurityKind::ApiKey { name, location } => (*location, name.clone()),
                // Basic, and the schemes whose tokens are bearer tokens, share `Authorization`.
                kind if matches!(kind, SecurityKind::Basic | SecurityKind::Http(_))
                    || kind.is_bearer_token() =>
                {
                    (ParamLocation::Header, "authorization".to_string())
                }
                // Mutual TLS, and types this version does not know: not a header's business.
                _ => return None,
            };
            let used = secured
                .iter()
                .any(|security| security.iter().any(|req| req.contains(&scheme.key)));
            if !used {
                return None;
            }
            let required = secured
                .iter()
                .all(|security| security.iter().all(|req| req.contains(&scheme.key)));
            Some(Credential {
                scheme: scheme.clone(),
                location,
                name,
                required,
            })
        })
        .collect()
}
