//! `servers`, with their variables.

use serde_json::Value;

use super::state::string_at;
use crate::ir::{Server, ServerVariable};

pub(super) fn servers(value: Option<&Value>) -> Vec<Server> {
    let Some(list) = value.and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(Value::as_object)
        .filter_map(|server| {
            Some(Server {
                url: string_at(server, "url")?.to_string(),
                description: string_at(server, "description").map(str::to_string),
                variables: server
                    .get("variables")
                    .and_then(Value::as_object)
                    .map(|vars| {
                        vars.iter()
                            .map(|(name, var)| ServerVariable {
                                name: name.clone(),
                                default: var
                                    .get("default")
                                    .and_then(Value::as_str)
                                    .unwrap_or_default()
                                    .to_string(),
                                allowed: var
                                    .get("enum")
                                    .and_then(Value::as_array)
                                    .map(|v| {
                                        v.iter()
                                            .filter_map(Value::as_str)
                                            .map(str::to_string)
                                            .collect()
                                    })
                                    .unwrap_or_default(),
                                docs: var
                                    .get("description")
                                    .and_then(Value::as_str)
                                    .map(str::to_string),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        })
        .collect()
}
