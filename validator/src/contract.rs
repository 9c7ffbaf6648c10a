//! The contract: JSON Schemas and manifest that specgen writes under `schemas/`, each schema
//! compiled once (draft 2020-12, formats checked).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jsonschema::{Draft, Validator};
use serde_json::Value;

use crate::finding::Finding;

/// A contract that cannot be read or compiled.
#[derive(Debug, thiserror::Error)]
pub enum ContractError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not JSON, or not a valid JSON Schema.
    #[error("contract file {path}: {message}")]
    Invalid {
        /// Path under `schemas/`.
        path: String,
        /// Why.
        message: String,
    },
    /// No schema has this name.
    #[error(
        "no schema named '{0}' in the contract (try a component name such as 'Account', or a path such as 'operations/createAccount.request.json')"
    )]
    UnknownSchema(String),
}

/// Compiled schemas, by path under `schemas/`, and the manifest.
pub struct Contract {
    validators: BTreeMap<String, Validator>,
    manifest: Value,
}

impl std::fmt::Debug for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contract")
            .field("schemas", &self.validators.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl Contract {
    /// The contract of this project's API, embedded in `orchestration-api`.
    pub fn embedded() -> Result<Contract, ContractError> {
        Contract::from_files(
            orchestration_api::contract::FILES
                .iter()
                .map(|(path, text)| (path.to_string(), text.to_string())),
        )
    }

    /// A contract from a directory laid out as specgen writes `schemas/`.
    pub fn from_dir(dir: &Path) -> Result<Contract, ContractError> {
        let mut files = Vec::new();
        collect(dir, dir, &mut files)?;
        Contract::from_files(files)
    }

    /// A contract from `(path under schemas/, contents)` pairs.
    pub fn from_files(
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Contract, ContractError> {
        let mut validators = BTreeMap::new();
        let mut manifest = Value::Null;
        for (path, text) in files {
            let value: Value =
                serde_json::from_str(&text).map_err(|err| ContractError::Invalid {
                    path: path.clone(),
                    message: err.to_string(),
                })?;
            if path == "manifest.json" {
                manifest = value;
                continue;
            }
            let validator = jsonschema::options()
                .with_draft(Draft::Draft202012)
                .should_validate_formats(true)
                .build(&value)
                .map_err(|err| ContractError::Invalid {
                    path: path.clone(),
                    message: err.to_string(),
                })?;
            validators.insert(path, validator);
        }
        if manifest.is_null() {
            return Err(ContractError::Invalid {
                path: "manifest.json".into(),
                message: "missing".into(),
            });
        }
        Ok(Contract {
            validators,
            manifest,
        })
    }

    /// The manifest: operations and webhooks with their rules.
    pub fn manifest(&self) -> &Value {
        &self.manifest
    }

    /// Paths of every schema, under `schemas/`.
    pub fn schema_paths(&self) -> impl Iterator<Item = &str> {
        self.validators.keys().map(String::as_str)
    }

    /// The path of a schema given by component name (`Account`) or by path.
    pub fn resolve(&self, name: &str) -> Option<&str> {
        let candidates = [
            name.to_string(),
            format!("components/{name}.json"),
            format!("{name}.json"),
        ];
        candidates.iter().find_map(|c| {
            self.validators
                .get_key_value(c.as_str())
                .map(|(k, _)| k.as_str())
        })
    }

    /// Every rule the instance breaks against the named schema; empty when it conforms.
    pub fn validate(&self, schema: &str, instance: &Value) -> Result<Vec<Finding>, ContractError> {
        let path = self
            .resolve(schema)
            .ok_or_else(|| ContractError::UnknownSchema(schema.to_string()))?;
        let validator = &self.validators[path];
        Ok(validator
            .iter_errors(instance)
            .map(|error| {
                let schema_path = error.schema_path().as_str().to_string();
                let rule = schema_path
                    .rsplit('/')
                    .find(|segment| {
                        !segment.is_empty() && !segment.chars().all(|c| c.is_ascii_digit())
                    })
                    .unwrap_or("schema")
                    .to_string();
                Finding {
                    pointer: error.instance_path().as_str().to_string(),
                    schema_location: format!("{path}#{schema_path}"),
                    rule,
                    message: error.to_string(),
                }
            })
            .collect())
    }
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<(), ContractError> {
    let io = |path: &Path, source| ContractError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "json") {
            let text = std::fs::read_to_string(&path).map_err(|e| io(&path, e))?;
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            out.push((relative, text));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_embedded_contract_compiles_every_schema() {
        let contract = Contract::embedded().unwrap();
        assert!(contract.schema_paths().count() > 50);
        assert!(
            contract.manifest()["operations"]
                .as_array()
                .is_some_and(|ops| ops.len() == 9)
        );
    }

    #[test]
    fn a_conforming_payload_has_no_findings() {
        let contract = Contract::embedded().unwrap();
        let reply = json!({ "received": true });
        assert_eq!(
            contract
                .validate("IncomingTransferNotificationReply", &reply)
                .unwrap(),
            vec![]
        );
    }

    #[test]
    fn findings_name_the_field_and_the_rule() {
        let contract = Contract::embedded().unwrap();
        let request = json!({
            "account_id": "not-a-uuid",
            "onboarding_id": "onb_1",
            "account_type": "CHECKING",
            "currency": "USDX"
        });
        let findings = contract.validate("CreateAccountRequest", &request).unwrap();
        let rules: Vec<(&str, &str)> = findings
            .iter()
            .map(|f| (f.pointer.as_str(), f.rule.as_str()))
            .collect();
        assert!(rules.contains(&("/account_id", "format")), "{findings:?}");
        assert!(rules.contains(&("/currency", "maxLength")), "{findings:?}");
    }

    #[test]
    fn every_component_example_conforms_to_its_contract_schema() {
        let contract = Contract::embedded().unwrap();
        let mut checked = 0;
        for (name, path) in contract.manifest()["components"].as_object().unwrap() {
            let text = orchestration_api::contract::file(path.as_str().unwrap()).unwrap();
            let schema: Value = serde_json::from_str(text).unwrap();
            for example in schema["$defs"][name]["examples"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let findings = contract.validate(name, example).unwrap();
                assert_eq!(findings, vec![], "example of {name}");
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} examples checked");
    }

    #[test]
    fn an_unknown_schema_name_is_an_error() {
        let contract = Contract::embedded().unwrap();
        assert!(matches!(
            contract.validate("Nope", &json!({})),
            Err(ContractError::UnknownSchema(_))
        ));
    }
}
