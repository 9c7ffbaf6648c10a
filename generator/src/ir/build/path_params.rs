//! Path parameters reconciled with the path template they belong to. OpenAPI requires each
//! `{name}` of a template to have a path parameter and each path parameter to have a `{name}`,
//! but specs taken from vendors break it both ways. Left alone, a variable without a parameter
//! reached the generated client as the literal text `{itemId}`, and a parameter without a
//! variable was required by the generated server and by the contract although no request can
//! carry it, so the operation answered 400 to every call. Each repair is a warning.

use serde_json::json;

use super::state::Builder;
use crate::error::Result;
use crate::ir::{Operation, ParamLocation, Parameter, Scalar, TypeRef};

impl Builder<'_> {
    /// Makes `op`'s path parameters and its template's variables agree:
    /// - a parameter spelt as a variable in another case takes the template's spelling;
    /// - a parameter named by the template's query instead (`/alerts?lat={lat}`, where `lat`
    ///   is declared `in: path`) becomes that query parameter;
    /// - any other parameter without a variable is left out;
    /// - a variable without a parameter gets one: a required string.
    pub(super) fn reconcile_path_parameters(&mut self, op: &mut Operation) -> Result<()> {
        let variables = template_variables(crate::path::wire(&op.path));
        let from_query = query_variables(&op.path);
        let declared: Vec<(String, ParamLocation)> = op
            .parameters
            .iter()
            .map(|p| (p.name.clone(), p.location))
            .collect();
        let declared =
            |name: &str, location| declared.iter().any(|d| d.0 == name && d.1 == location);
        let mut warnings = Vec::new();
        let mut kept = Vec::with_capacity(op.parameters.len());
        for mut param in std::mem::take(&mut op.parameters) {
            if param.location != ParamLocation::Path || variables.contains(&param.name) {
                kept.push(param);
                continue;
            }
            if let Some(variable) = variables
                .iter()
                .find(|v| v.eq_ignore_ascii_case(&param.name) && !declared(v, ParamLocation::Path))
            {
                warnings.push(format!(
                    "path parameter `{}` is written `{{{variable}}}` in the path; it is read \
                     by that spelling",
                    param.name
                ));
                param.name = variable.clone();
                kept.push(param);
            } else if let Some((query_name, _)) = from_query.iter().find(|(name, variable)| {
                variable == &param.name && !declared(name, ParamLocation::Query)
            }) {
                warnings.push(format!(
                    "path parameter `{}` is not in the path but in its query (`{query_name}=\
                     {{{}}}`); it is generated as that query parameter",
                    param.name, param.name
                ));
                param.name = query_name.clone();
                param.location = ParamLocation::Query;
                kept.push(param);
            } else {
                warnings.push(format!(
                    "path parameter `{}` has no `{{{}}}` in the path `{}`, so no request can \
                     carry it; it is left out",
                    param.name, param.name, op.path
                ));
            }
        }
        for variable in &variables {
            if declares(&kept, variable, ParamLocation::Path) {
                continue;
            }
            warnings.push(format!(
                "`{{{variable}}}` in the path has no path parameter; it is generated as a \
                 required string"
            ));
            kept.push(Parameter {
                name: variable.clone(),
                rust_name: String::new(),
                location: ParamLocation::Path,
                required: true,
                ty: TypeRef::Scalar(Scalar::String),
                schema: self.contract_schema(&json!({"type": "string"}), &op.pointer)?,
                style: None,
                explode: None,
                content_type: None,
                allow_empty_value: false,
                allow_reserved: false,
                object: None,
                docs: None,
                examples: Vec::new(),
                idempotency_key: false,
            });
        }
        kept.sort_by_key(|p| p.location);
        op.parameters = kept;
        for message in warnings {
            self.warn(&op.pointer, message);
        }
        Ok(())
    }
}

fn declares(parameters: &[Parameter], name: &str, location: ParamLocation) -> bool {
    parameters
        .iter()
        .any(|p| p.location == location && p.name == name)
}

/// The `{name}`s of a path (without its query or fragment), each once, in order.
fn template_variables(path: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        if !name.is_empty() && !out.iter().any(|seen| seen == name) {
            out.push(name.to_string());
        }
        rest = &rest[open + close + 1..];
    }
    out
}

/// The `name={variable}` pairs of a template's query (`/alerts?lat={lat}&lon={lon}`), as
/// `(name, variable)`.
fn query_variables(path: &str) -> Vec<(String, String)> {
    let Some((_, query)) = path.split('#').next().unwrap_or_default().split_once('?') else {
        return Vec::new();
    };
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter_map(|(name, value)| {
            let variable = value.strip_prefix('{')?.strip_suffix('}')?;
            (!name.is_empty() && !variable.is_empty())
                .then(|| (name.to_string(), variable.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_read_from_the_path_and_named_pairs_from_its_query() {
        assert_eq!(
            template_variables("/a/{id}/b/{Sid}.json/{id}/{name}:cancel"),
            ["id", "Sid", "name"]
        );
        assert!(template_variables("/a/{/b").is_empty());
        assert_eq!(
            query_variables("/alerts?lat={lat}&lon={lon}&type=user&x"),
            [("lat".into(), "lat".into()), ("lon".into(), "lon".into())]
        );
        assert!(query_variables("/files/{id}#add_shared_link").is_empty());
    }
}
