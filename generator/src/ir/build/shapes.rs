//! The document's structure, each member of the kind OpenAPI gives it. A member of the wrong
//! kind was read as absent, so `security: {apiKey: []}` (a mapping, not a list of them) left
//! every operation open without a word. Where reading it as absent changes what the generated
//! code does (`security`, `paths`, a path item, an operation, `requestBody`, `content`,
//! `components` and its sections) it is refused, with its pointer, line and column; where it
//! loses only documentation or a hint (`info`, `tags`, `servers`, `callbacks`, a response's
//! `headers`, `webhooks`), a warning says it is left out. Method keys OpenAPI does not read
//! (`GET`, upper case) and path templates with an unclosed `{` are warned about.

use serde_json::{Map, Value};

use super::state::{Builder, child, spec_error};
use crate::error::Result;
use crate::ir::Method;

/// What a member must be.
#[derive(Clone, Copy)]
enum Kind {
    List,
    Mapping,
}

impl Kind {
    fn fits(self, value: &Value) -> bool {
        match self {
            Kind::List => value.is_array(),
            Kind::Mapping => value.is_object(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::List => "a list",
            Kind::Mapping => "a mapping",
        }
    }
}

/// The sections of `components`, each a mapping of names to objects.
const COMPONENT_SECTIONS: [&str; 10] = [
    "schemas",
    "responses",
    "parameters",
    "examples",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "callbacks",
    "pathItems",
];

impl Builder<'_> {
    /// Refuses a member of the document's structure of the wrong kind; warns of method keys
    /// and templates OpenAPI does not read.
    pub(super) fn check_shapes(&mut self) -> Result<()> {
        let Some(root) = self.doc.root.as_object() else {
            return Ok(());
        };
        self.warn_kind(root, "#", "info", Kind::Mapping);
        self.expect_kind(root, "#", "paths", Kind::Mapping)?;
        self.warn_kind(root, "#", "webhooks", Kind::Mapping);
        self.expect_kind(root, "#", "components", Kind::Mapping)?;
        self.servers_and_security(root, "#")?;
        self.warn_kind(root, "#", "tags", Kind::List);
        if let Some(components) = root.get("components").and_then(Value::as_object) {
            for section in COMPONENT_SECTIONS {
                self.expect_kind(components, "#/components", section, Kind::Mapping)?;
            }
        }
        if let Some(paths) = root.get("paths").and_then(Value::as_object) {
            for (path, item) in paths.iter().filter(|(key, _)| !key.starts_with("x-")) {
                let at = child("#/paths", path);
                self.path_item_shape(item, &at)?;
                if path.matches('{').count() != path.matches('}').count() {
                    self.warn(
                        &at,
                        format!(
                            "path `{path}` has a `{{` without its `}}` (or the reverse); the \
                             text is read as it is, not as a parameter"
                        ),
                    );
                }
            }
        }
        if let Some(webhooks) = root.get("webhooks").and_then(Value::as_object) {
            for (name, item) in webhooks.iter().filter(|(key, _)| !key.starts_with("x-")) {
                self.path_item_shape(item, &child("#/webhooks", name))?;
            }
        }
        Ok(())
    }

    fn path_item_shape(&mut self, item: &Value, at: &str) -> Result<()> {
        let Some(item) = self.mapping_shape(item, at)? else {
            return Ok(());
        };
        self.servers_and_security(item, at)?;
        for (key, operation) in item {
            let lower = key.to_ascii_lowercase();
            let method = Method::ALL.iter().find(|method| method.key() == lower);
            match method {
                Some(method) if method.key() == key => {
                    self.operation_shape(operation, &child(at, key))?;
                }
                Some(method) => self.warn(
                    &child(at, key),
                    format!(
                        "`{key}` is not read as an operation: OpenAPI's method keys are lower \
                         case (`{}`)",
                        method.key()
                    ),
                ),
                None => {}
            }
        }
        Ok(())
    }

    fn operation_shape(&mut self, operation: &Value, at: &str) -> Result<()> {
        let Some(operation) = self.mapping_shape(operation, at)? else {
            return Ok(());
        };
        self.servers_and_security(operation, at)?;
        self.warn_kind(operation, at, "tags", Kind::List);
        self.expect_kind(operation, at, "requestBody", Kind::Mapping)?;
        self.warn_kind(operation, at, "callbacks", Kind::Mapping);
        if let Some(body) = operation.get("requestBody").and_then(Value::as_object) {
            self.expect_kind(body, &child(at, "requestBody"), "content", Kind::Mapping)?;
        }
        if let Some(responses) = operation.get("responses").and_then(Value::as_object) {
            let responses_at = child(at, "responses");
            for (status, response) in responses.iter().filter(|(key, _)| !key.starts_with("x-")) {
                let response_at = child(&responses_at, status);
                if let Some(response) = self.mapping_shape(response, &response_at)? {
                    self.expect_kind(response, &response_at, "content", Kind::Mapping)?;
                    self.warn_kind(response, &response_at, "headers", Kind::Mapping);
                }
            }
        }
        Ok(())
    }

    /// `servers` and `security`, which the document, a path item and an operation may have.
    fn servers_and_security(&mut self, holder: &Map<String, Value>, at: &str) -> Result<()> {
        self.warn_kind(holder, at, "servers", Kind::List);
        self.expect_kind(holder, at, "security", Kind::List)?;
        if let Some(requirements) = holder.get("security").and_then(Value::as_array) {
            let security_at = child(at, "security");
            for (index, requirement) in requirements.iter().enumerate() {
                self.mapping_shape(requirement, &child(&security_at, &index.to_string()))?;
            }
        }
        Ok(())
    }

    /// `holder[key]`, when present and not null, should be of `kind`: where reading it as
    /// absent loses nothing the generated code enforces (`tags`, `servers`, `info`), a
    /// warning says so and it is left out, rather than refusing a document that generated.
    fn warn_kind(&mut self, holder: &Map<String, Value>, at: &str, key: &str, kind: Kind) {
        if let Some(value) = holder.get(key)
            && !value.is_null()
            && !kind.fits(value)
        {
            self.warn(
                &child(at, key),
                format!(
                    "`{key}` should be {}, not {}; it is left out",
                    kind.name(),
                    crate::load::kind_of(value)
                ),
            );
        }
    }

    /// `holder[key]`, when present and not null, must be of `kind`.
    fn expect_kind(
        &self,
        holder: &Map<String, Value>,
        at: &str,
        key: &str,
        kind: Kind,
    ) -> Result<()> {
        match holder.get(key) {
            Some(value) if !value.is_null() && !kind.fits(value) => Err(spec_error(
                self.doc,
                &child(at, key),
                format!(
                    "`{key}` must be {}, not {}",
                    kind.name(),
                    crate::load::kind_of(value)
                ),
            )),
            _ => Ok(()),
        }
    }

    /// A value that must be a mapping (null reads as absent).
    fn mapping_shape<'v>(
        &self,
        value: &'v Value,
        at: &str,
    ) -> Result<Option<&'v Map<String, Value>>> {
        match value {
            Value::Object(map) => Ok(Some(map)),
            Value::Null => Ok(None),
            other => Err(spec_error(
                self.doc,
                at,
                format!("must be a mapping, not {}", crate::load::kind_of(other)),
            )),
        }
    }
}
