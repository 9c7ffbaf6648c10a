//! The examples of a document and the schema each must satisfy: a component schema's own
//! examples, an operation's request and response bodies (per status), a webhook's payload and
//! reply, and parameters. specgen turns the valid ones into round-trip tests; specval lists
//! the ones that contradict their schema.

use std::collections::HashMap;
use std::sync::Arc;

use jsonschema::{Draft, Validator};
use serde_json::Value;

use crate::emit::GeneratedFile;
use crate::emit::contract::ContractFiles;
use crate::error::{Error, Result};
use crate::ir::{Api, Example, MessagePart, Operation, TypeRef};

mod combined;

/// The schema an example stands under.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A contract file (`components/Account.json`, `operations/x.request.json`, ...).
    File(String),
    /// A schema with no contract file of its own (a parameter's, a property's), inline; its
    /// refs to components are bundled when it is checked.
    Inline(Value),
}

/// One example and where it must fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Site<'a> {
    /// The example and its JSON pointer in the document.
    pub example: &'a Example,
    /// The schema it must satisfy.
    pub target: Target,
    /// The generated Rust type for its place, when it has one (for round trips).
    pub ty: Option<TypeRef>,
    /// What the place is, for people: `component Account`, `createAccount response 201`.
    pub place: String,
}

/// Every example of the API, sorted by pointer.
pub fn sites(api: &Api) -> Vec<Site<'_>> {
    let names = ContractFiles::of(api);
    let mut out = Vec::new();
    for def in &api.types {
        let Some(component) = &def.component else {
            continue;
        };
        for example in &def.examples {
            // A nullable component's `null` is held where the component is used, as an
            // `Option` of its type (`type: [string, "null"]` with `enum: [on, off, null]`).
            let named = TypeRef::Named(def.name.clone());
            let ty = if example.value.is_null() {
                TypeRef::Nullable(Box::new(named))
            } else {
                named
            };
            out.push(Site {
                example,
                target: Target::File(names.component(component)),
                ty: Some(ty),
                place: format!("component {component}"),
            });
        }
    }
    for nested in &api.schema_examples {
        out.push(Site {
            example: &nested.example,
            target: Target::Inline(nested.schema.clone()),
            ty: Some(nested.ty.clone()),
            place: "schema".to_string(),
        });
    }
    for op in &api.operations {
        operation_sites(op, "operations", &op.id, &names, &mut out);
    }
    for hook in &api.webhooks {
        operation_sites(&hook.operation, "webhooks", &hook.name, &names, &mut out);
    }
    out.sort_by(|a, b| a.example.pointer.cmp(&b.example.pointer));
    out.dedup_by(|a, b| a.example.pointer == b.example.pointer);
    out
}

fn operation_sites<'a>(
    op: &'a Operation,
    folder: &str,
    id: &str,
    names: &ContractFiles,
    out: &mut Vec<Site<'a>>,
) {
    for message in &op.examples {
        let (target, ty, place) = match &message.part {
            MessagePart::Request => (
                names.request(folder, id),
                op.request_body.as_ref().map(|b| b.ty.clone()),
                format!("{} request", op.id),
            ),
            MessagePart::Response(status) => {
                let body = op
                    .responses
                    .iter()
                    .find(|r| r.status == *status)
                    .and_then(|r| r.body.as_ref());
                (
                    names.response(folder, id, &status.key()),
                    body.map(|b| b.ty.clone()),
                    format!("{} response {}", op.id, status.key()),
                )
            }
        };
        out.push(Site {
            example: &message.example,
            target: Target::File(target),
            ty,
            place,
        });
    }
    for param in &op.parameters {
        for example in &param.examples {
            out.push(Site {
                example,
                target: Target::Inline(param.schema.clone()),
                ty: Some(param.ty.clone()),
                place: format!("{} parameter {}", op.id, param.name),
            });
        }
    }
}

/// Checks examples against the contract files: for each site, the violations (empty when the
/// example is valid), as `pointer: message`.
pub fn check<'s>(
    api: &Api,
    sites: &'s [Site<'s>],
    contract: &[GeneratedFile],
) -> Result<Vec<(&'s Site<'s>, Vec<String>)>> {
    let files = contract.iter().filter_map(|file| {
        let path = file.path.to_string_lossy().replace('\\', "/");
        Some((
            path.strip_prefix("schemas/")?.to_string(),
            file.contents.as_str(),
        ))
    });
    check_with(api, sites, files, |error, _| {
        let at = error.instance_path().as_str();
        let at = if at.is_empty() { "(root)" } else { at };
        format!("{at}: {error}")
    })
}

/// The one example-checking loop, for specgen (which keeps the valid examples as round-trip
/// tests) and specval (which lists the invalid ones): each site checked against its contract
/// file (`files`: `(path under schemas/, contents)`) or its inline schema with the components
/// bundled in, and each violation handed to `describe` with where its schema is (the contract
/// file's path, or `<place> schema` for an inline one).
pub fn check_with<'s, 'f, V>(
    api: &Api,
    sites: &'s [Site<'s>],
    files: impl IntoIterator<Item = (String, &'f str)>,
    mut describe: impl FnMut(&jsonschema::ValidationError<'_>, &str) -> V,
) -> Result<Vec<(&'s Site<'s>, Vec<V>)>> {
    let components: std::collections::BTreeMap<&str, &Value> = api
        .schemas
        .iter()
        .map(|(name, schema)| (name.as_str(), schema))
        .collect();
    let files: HashMap<String, &str> = files.into_iter().collect();
    let compiled = compile_files(sites, &files)?;
    let mut out = Vec::new();
    for (at, site) in sites.iter().enumerate() {
        let violations = match &site.target {
            Target::File(path) => match compiled.get(&at) {
                Some(validator) => validator
                    .iter_errors(&site.example.value)
                    .map(|error| describe(&error, path))
                    .collect(),
                None => Vec::new(),
            },
            Target::Inline(schema) => {
                let bundled = crate::emit::contract::bundle(schema, &components)?;
                let location = format!("{} schema", site.place);
                compile(&bundled, &site.place)?
                    .iter_errors(&site.example.value)
                    .map(|error| describe(&error, &location))
                    .collect()
            }
        };
        out.push((site, violations));
    }
    Ok(out)
}

/// Judges every site under a contract file, returning by the site's index the validator of
/// its own file for each site the combined validator refused or could not judge (a site under
/// a file that is not there is valid): first all at once through one validator of the
/// files side by side ([`combined`]), then, for the sites it refuses or cannot judge, each
/// file read and compiled alone, so their violations are those of the file itself. Files
/// that differ only in their `$id` (the error answers of many operations are one `Error`
/// schema each) are one schema. Reading, the yes-or-no check and the files compiled alone run
/// side by side (rayon): compiling is most of the cost of checking examples, and it would
/// otherwise run on one core beside the Rust emitters. The first error in the sites' order is
/// the one reported, whichever thread met it.
fn compile_files(
    sites: &[Site<'_>],
    files: &HashMap<String, &str>,
) -> Result<HashMap<usize, Arc<Validator>>> {
    use rayon::prelude::*;
    // Each distinct schema (by its text without the `$id`), and the schema of each site.
    let mut schemas: Vec<&str> = Vec::new();
    let mut by_text: HashMap<String, usize> = HashMap::new();
    let mut by_path: HashMap<&str, usize> = HashMap::new();
    let mut site_schema: Vec<Option<usize>> = Vec::with_capacity(sites.len());
    for site in sites {
        let Target::File(path) = &site.target else {
            site_schema.push(None);
            continue;
        };
        if let Some(&index) = by_path.get(path.as_str()) {
            site_schema.push(Some(index));
            continue;
        }
        let text = files.get(path.as_str()).ok_or_else(|| Error::Emit {
            file: format!("schemas/{path}"),
            message: "no contract file for this example's schema".into(),
        })?;
        let index = *by_text.entry(without_id(text)).or_insert_with(|| {
            schemas.push(path);
            schemas.len() - 1
        });
        by_path.insert(path, index);
        site_schema.push(Some(index));
    }
    let definitions = crate::definitions::Definitions::new();
    let read = schemas
        .par_iter()
        .map(|path| {
            definitions
                .read(files[*path], |path| files.get(path).copied())
                .map_err(|message| Error::Emit {
                    file: format!("schemas/{path}"),
                    message,
                })
        })
        .collect::<Result<Vec<Value>>>()?;
    let combined = combined::Combined::build(&read, |schema| compile(schema, "").ok());
    // The schemas some site needs compiled alone.
    let alone: std::collections::BTreeSet<usize> = sites
        .par_iter()
        .zip(&site_schema)
        .filter_map(|(site, schema)| {
            let index = (*schema)?;
            let valid = combined
                .as_ref()
                .and_then(|combined| combined.is_valid(index, &site.example.value));
            (valid != Some(true)).then_some(index)
        })
        .collect();
    let alone: Vec<usize> = alone.into_iter().collect();
    let compiled = alone
        .par_iter()
        .map(|&index| compile(&read[index], schemas[index]).map(Arc::new))
        .collect::<Vec<Result<_>>>();
    let mut validators = HashMap::new();
    for (index, validator) in alone.into_iter().zip(compiled) {
        validators.insert(index, validator?);
    }
    Ok(site_schema
        .iter()
        .enumerate()
        .filter_map(|(at, schema)| Some((at, Arc::clone(validators.get(&(*schema)?)?))))
        .collect())
}

/// A contract file's text without its top-level `$id` member, the one line in which files of
/// one schema differ (specgen prints every file alike: two spaces before a top-level member).
fn without_id(text: &str) -> String {
    const ID: &str = "\n  \"$id\": ";
    match text.find(ID) {
        Some(at) => {
            let end = text[at + 1..]
                .find('\n')
                .map_or(text.len(), |line_end| at + 1 + line_end);
            format!("{}{}", &text[..at], &text[end..])
        }
        None => text.to_owned(),
    }
}

fn compile(schema: &Value, name: &str) -> Result<Validator> {
    let options = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true);
    crate::manifest::FORMATS
        .into_iter()
        .fold(options, |options, (name, check)| {
            options.with_format(name, check)
        })
        .build(schema)
        .map_err(|err| Error::Emit {
            file: name.to_string(),
            message: format!("the schema does not compile: {err}"),
        })
}

#[cfg(test)]
mod tests {
    use super::without_id;

    /// An example is named as the document writes it: a 3.0 schema's `example` (which
    /// loading moves into 3.1's `examples`) as `…/example`, a 3.1 list's items by index.
    #[test]
    fn examples_are_named_as_the_document_writes_them() {
        let pointers = |text: &str| -> Vec<String> {
            let doc = crate::load::load_str(text, "api.yaml").expect("loads");
            let api = crate::build_ir(&doc, &crate::Options::default()).expect("builds");
            super::sites(&api)
                .iter()
                .map(|site| site.example.pointer.clone())
                .collect()
        };
        let document = |version: &str, examples: &str| {
            format!(
                "openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  \
                 schemas:\n    Thing:\n      type: object\n      properties:\n        year: \
                 {{type: integer, {examples}}}\n"
            )
        };
        assert_eq!(
            pointers(&document("3.0.3", "example: 2019")),
            ["#/components/schemas/Thing/properties/year/example"]
        );
        assert_eq!(
            pointers(&document("3.1.0", "examples: [2019, 2020]")),
            [
                "#/components/schemas/Thing/properties/year/examples/0",
                "#/components/schemas/Thing/properties/year/examples/1"
            ]
        );
    }

    #[test]
    fn files_of_one_schema_differ_only_in_their_id() {
        let file = |id: &str| {
            format!(
                "{{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \
                 \"$id\": \"urn:specgen:x:operations/{id}.json\",\n  \"$ref\": \"#/$defs/Error\"\n}}"
            )
        };
        assert_eq!(without_id(&file("a.404")), without_id(&file("b.400")));
        assert!(!without_id(&file("a.404")).contains("$id"));
        // A member named `$id` below the top level is the schema's own.
        let nested = "{\n  \"properties\": {\n    \"$id\": {}\n  }\n}";
        assert_eq!(without_id(nested), nested);
    }
}
