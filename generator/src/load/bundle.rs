//! Multi-file documents: follows `$ref`s to other files (`common.yaml#/components/schemas/X`,
//! `./paths/users.yaml`, `../models/pet.json`) and bundles what they point at into the root
//! document, so every later stage sees one document with local references only.
//!
//! What a reference points at decides where it goes, as `redocly bundle` and
//! `swagger-cli bundle` do:
//! - a schema (a `$ref` standing where the OpenAPI structure expects a Schema Object) becomes
//!   a component schema of the root, named after the last segment of its pointer (or its
//!   file), so it keeps one Rust type and one contract file however often it is used, and
//!   recursion works; the `$ref` is rewritten to it;
//! - anything else (path items, operations, parameters, responses, request bodies, headers,
//!   examples) is copied in place of the `$ref`.
//!
//! References inside a file are resolved against that file: its local `#/…` references point
//! into it, its relative paths are relative to its directory. Chains and cycles across files
//! are followed (a schema cycle becomes a recursive type; a cycle of non-schema objects is an
//! error). A file that is missing, unreadable, not YAML or JSON, or a pointer that does not
//! resolve in it, is an error naming the file and the pointer of the `$ref`.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::origins::Origins;
use super::pointer::{decode_pointer, escape_segment};
use crate::error::{Error, Result};

/// Where a Schema Object, or something else, is expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Document,
    Components,
    PathItem,
    Operation,
    Parameter,
    RequestBody,
    Response,
    MediaType,
    Encoding,
    Header,
    Callback,
    Example,
    Schema,
    /// Security schemes, links, tags, servers…: no schema inside.
    Other,
}

/// Whether the document has a `$ref` that is not local (`#…`), found as every `$ref` is
/// checked ([`super::refs::collect`]): a key that would be literal data as a keyword
/// (`default`, `value`, `example`, `x-…`) still holds references where it is a name — the
/// `default` response, a property or a component called `value`.
pub(crate) fn has_external_refs(value: &Value) -> bool {
    super::refs::collect(value)
        .iter()
        .any(|site| site.target.as_str().is_some_and(|r| !r.starts_with('#')))
}

/// `path` from `base` (both canonical), `/`-separated, with `..` where it leaves `base`.
fn relative_path(base: &Path, path: &Path) -> String {
    let base: Vec<_> = base.components().collect();
    let path: Vec<_> = path.components().collect();
    let shared = base.iter().zip(&path).take_while(|(a, b)| a == b).count();
    let ups = std::iter::repeat_n("..".to_string(), base.len() - shared);
    let downs = path[shared..]
        .iter()
        .map(|part| part.as_os_str().to_string_lossy().into_owned());
    ups.chain(downs).collect::<Vec<_>>().join("/")
}

/// Bundles every file the root document at `path` refers to into it. Returns the bundled
/// document and the digest of every other file read (their paths and bytes, in path order).
pub(crate) fn bundle(root: Value, path: &Path) -> Result<Bundled> {
    let root_path = std::fs::canonicalize(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let taken: HashSet<String> = root
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().cloned().collect())
        .unwrap_or_default();
    let mut bundler = Bundler {
        root_path: root_path.clone(),
        files: HashMap::new(),
        texts: HashMap::new(),
        hoisted: HashMap::new(),
        taken,
        added: Vec::new(),
        inlining: Vec::new(),
        digests: Vec::new(),
        origins: Origins::new(root_path.clone()),
    };
    bundler.files.insert(root_path.clone(), root.clone());
    let mut root = root;
    for section in ["/components/schemas", "/definitions"] {
        bundler.inline_component_refs(&mut root, section)?;
    }
    bundler.walk(&mut root, Ctx::Document, &root_path, String::new())?;
    bundler.digests.sort();
    let mut digest = xxhash_rust::xxh3::Xxh3::new();
    // Each file by its path from the root document's directory, not its absolute one: the
    // fingerprint is committed, and another checkout of the same files must find it equal.
    let base = root_path.parent().unwrap_or(Path::new(""));
    for (file, bytes) in &bundler.digests {
        digest.update(relative_path(base, file).as_bytes());
        digest.update(&bytes.to_le_bytes());
    }
    let digest = digest.digest();
    let files = bundler
        .digests
        .iter()
        .map(|(file, _)| file.clone())
        .collect();
    let mut origins = std::mem::take(&mut bundler.origins);
    for (file, text) in std::mem::take(&mut bundler.texts) {
        origins.read(file, text);
    }
    if !bundler.added.is_empty() {
        let Value::Object(document) = &mut root else {
            return Ok(Bundled {
                root,
                digest,
                files,
                origins,
            });
        };
        let components = document
            .entry("components")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(components) = components {
            let schemas = components
                .entry("schemas")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(schemas) = schemas {
                for (name, schema) in bundler.added {
                    schemas.insert(name, schema);
                }
            }
        }
    }
    Ok(Bundled {
        root,
        digest,
        files,
        origins,
    })
}

/// A document with what its other files hold joined in.
pub(crate) struct Bundled {
    /// The document.
    pub(crate) root: Value,
    /// A digest of the other files' names and bytes.
    pub(crate) digest: u64,
    /// The other files read, by canonical path, sorted.
    pub(crate) files: Vec<PathBuf>,
    /// Where each part of `root` was written.
    pub(crate) origins: Origins,
}

struct Bundler {
    root_path: PathBuf,
    /// Every file read, by canonical path (the root included).
    files: HashMap<PathBuf, Value>,
    /// The text of every file read but the root, for the line and column of an error in it.
    texts: HashMap<PathBuf, String>,
    /// Schemas already hoisted: (file, pointer) → component name.
    hoisted: HashMap<(PathBuf, String), String>,
    /// Component names in use.
    taken: HashSet<String>,
    /// Hoisted schemas, in the order they were met.
    added: Vec<(String, Value)>,
    /// Non-schema targets being copied, to refuse a cycle.
    inlining: Vec<(PathBuf, String)>,
    /// Every other file read, with the digest of its bytes.
    digests: Vec<(PathBuf, u64)>,
    /// Where what was copied or hoisted came from.
    origins: Origins,
}

impl Bundler {
    /// A component schema of the root that only points at another file's schema (`Pet:
    /// {$ref: ./schemas/Pet.yaml}`, the usual layout of a document in several files) becomes
    /// that schema under its own name, not a reference to a copy hoisted as `Pet2`: its type,
    /// its contract file and every reference to that file keep the name the user gave it.
    /// `section` is where the root keeps its schemas (`/components/schemas`, or Swagger 2.0's
    /// `/definitions`).
    fn inline_component_refs(&mut self, root: &mut Value, section: &str) -> Result<()> {
        let root_path = self.root_path.clone();
        let Some(Value::Object(schemas)) = root.pointer(section) else {
            return Ok(());
        };
        // Every such component is named first, so that those referring to each other (or to
        // themselves, through their files) read the names.
        let mut pointing = Vec::new();
        for (name, schema) in schemas {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                continue;
            };
            if reference.starts_with('#') {
                continue;
            }
            let at = format!("{section}/{}", escape_segment(name));
            let (file, fragment) = self.locate(reference, &root_path, &at)?;
            let key = (file.clone(), fragment.clone());
            // Two components naming one schema: the second stays a reference to the first.
            if file == root_path || self.hoisted.contains_key(&key) {
                continue;
            }
            self.hoisted.insert(key, name.clone());
            self.origins
                .hoisted(name.clone(), (file.clone(), fragment_segments(&fragment)));
            pointing.push((name.clone(), reference.to_string(), file, fragment, at));
        }
        for (name, reference, file, fragment, at) in pointing {
            let mut target = self.target(&file, &fragment, &reference, &root_path, &at)?;
            let schema_at = format!("{}#{fragment}", file.display());
            self.walk(&mut target, Ctx::Schema, &file, schema_at)?;
            let Some(Value::Object(schemas)) = root.pointer_mut(section) else {
                break;
            };
            if let Some(slot) = schemas.get_mut(&name) {
                // Keywords beside the `$ref` (a description) stay.
                if let (Value::Object(siblings), Value::Object(target_map)) = (&*slot, &mut target)
                {
                    for (key, sibling) in siblings {
                        if key != "$ref" {
                            target_map.insert(key.clone(), sibling.clone());
                        }
                    }
                }
                *slot = target;
            }
        }
        Ok(())
    }

    /// Visits `value`, which stands at `at` (a bare pointer, for messages) in `file`, where
    /// the OpenAPI structure expects `ctx`.
    fn walk(&mut self, value: &mut Value, ctx: Ctx, file: &Path, at: String) -> Result<()> {
        if let Some(reference) = value.get("$ref").and_then(Value::as_str).map(str::to_owned) {
            let is_root = file == self.root_path;
            if !(is_root && reference.starts_with('#')) {
                return self.follow(value, &reference, ctx, file, &at);
            }
        }
        match value {
            Value::Object(map) => {
                // A discriminator's mapping names schemas as its file sees them: read the
                // alternatives before their `$ref`s are rewritten.
                let alternatives = (ctx == Ctx::Schema && map.contains_key("discriminator"))
                    .then(|| alternative_refs(map));
                for (key, inner) in map.iter_mut() {
                    if is_literal(key) {
                        continue;
                    }
                    let child_at = format!("{at}/{}", escape_segment(key));
                    match child_ctx(ctx, key) {
                        Child::One(next) => self.walk(inner, next, file, child_at)?,
                        Child::Map(next) => {
                            if let Value::Object(entries) = inner {
                                for (name, entry) in entries.iter_mut() {
                                    let entry_at = format!("{child_at}/{}", escape_segment(name));
                                    self.walk(entry, next, file, entry_at)?;
                                }
                            }
                        }
                        Child::List(next) => {
                            if let Value::Array(items) = inner {
                                for (index, item) in items.iter_mut().enumerate() {
                                    self.walk(item, next, file, format!("{child_at}/{index}"))?;
                                }
                            }
                        }
                        Child::Skip => {}
                    }
                }
                if let Some(before) = alternatives {
                    self.bundle_discriminator(map, &before, file, &at)?;
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    self.walk(item, ctx, file, format!("{at}/{index}"))?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Replaces the `$ref` object `value` by what the reference means in the root.
    fn follow(
        &mut self,
        value: &mut Value,
        reference: &str,
        ctx: Ctx,
        file: &Path,
        at: &str,
    ) -> Result<()> {
        if ctx == Ctx::Schema {
            let target = self.schema_ref(reference, file, at)?;
            *value = local_ref(value, target.trim_start_matches('#'));
            return Ok(());
        }
        let (target_file, fragment) = self.locate(reference, file, at)?;
        if target_file == self.root_path {
            // A reference back into the root (from another file): local there.
            *value = local_ref(value, &fragment);
            return Ok(());
        }
        let key = (target_file.clone(), fragment.clone());
        if self.inlining.contains(&key) {
            return Err(self.error(
                file,
                at,
                format!("$ref '{reference}' comes back to itself through other files; only schemas may refer to themselves"),
            ));
        }
        let mut target = self.target(&target_file, &fragment, reference, file, at)?;
        self.origins.copied(
            (file.to_path_buf(), self.segments_of(file, at)),
            (target_file.clone(), fragment_segments(&fragment)),
        );
        self.inlining.push(key);
        let target_at = format!("{}#{fragment}", target_file.display());
        let walked = self.walk(&mut target, ctx, &target_file, target_at);
        self.inlining.pop();
        walked?;
        // Keywords beside the `$ref` (a description, a summary) stay.
        if let (Value::Object(siblings), Value::Object(target_map)) = (&*value, &mut target) {
            for (key, sibling) in siblings {
                if key != "$ref" {
                    target_map.insert(key.clone(), sibling.clone());
                }
            }
        }
        *value = target;
        Ok(())
    }

    /// A discriminator's mapping in the root's terms. A value written in another file (a
    /// reference relative to that file, or a bare schema name, which names a component of
    /// that file) or one naming another file becomes the root component that schema was
    /// bundled as. An alternative whose component took another name when bundled (two files
    /// each with a `Cat`) keeps its implicit tag, its name where it was written, as an
    /// explicit entry. `before` are the alternatives' `$ref`s as written.
    fn bundle_discriminator(
        &mut self,
        map: &mut Map<String, Value>,
        before: &[Option<String>],
        file: &Path,
        at: &str,
    ) -> Result<()> {
        let in_root = file == self.root_path;
        let after = alternative_refs(map);
        let Some(Value::Object(discriminator)) = map.get_mut("discriminator") else {
            return Ok(());
        };
        let mapping_at = format!("{at}/discriminator/mapping");
        let mut mapping = match discriminator.remove("mapping") {
            Some(Value::Object(mapping)) => mapping,
            _ => Map::new(),
        };
        for target in mapping.values_mut() {
            let Some(text) = target.as_str() else {
                continue;
            };
            let is_reference = text.contains('#') || text.contains('/');
            let reference = if is_reference {
                text.to_string()
            } else if in_root {
                continue;
            } else {
                format!("#/components/schemas/{}", escape_segment(text))
            };
            if in_root && reference.starts_with('#') {
                continue;
            }
            *target = Value::String(self.schema_ref(&reference, file, &mapping_at)?);
        }
        for (written, bundled) in before.iter().zip(&after) {
            let (Some(written), Some(bundled)) = (written, bundled) else {
                continue;
            };
            if in_root && written.starts_with('#') {
                continue;
            }
            let implicit = last_name(written);
            let renamed = last_name(bundled);
            let mapped = mapping
                .values()
                .any(|target| target.as_str() == Some(bundled));
            if !mapped && implicit != renamed && !mapping.contains_key(&implicit) {
                mapping.insert(implicit, Value::String(bundled.clone()));
            }
        }
        if !mapping.is_empty() {
            discriminator.insert("mapping".into(), Value::Object(mapping));
        }
        Ok(())
    }

    /// The root's reference to the schema `reference` (written in `file`) means: local when
    /// it is in the root (a reference back into it from another file), else the component
    /// it is bundled as. `$ref`s and discriminator mappings share it.
    fn schema_ref(&mut self, reference: &str, file: &Path, at: &str) -> Result<String> {
        let (target_file, fragment) = self.locate(reference, file, at)?;
        if target_file == self.root_path {
            return Ok(format!("#{fragment}"));
        }
        let name = self.hoist(&target_file, &fragment, reference, file, at)?;
        Ok(format!("#/components/schemas/{}", escape_segment(&name)))
    }

    /// Makes the schema at `fragment` of `target_file` a component of the root; its name.
    fn hoist(
        &mut self,
        target_file: &Path,
        fragment: &str,
        reference: &str,
        file: &Path,
        at: &str,
    ) -> Result<String> {
        let key = (target_file.to_path_buf(), fragment.to_string());
        if let Some(name) = self.hoisted.get(&key) {
            return Ok(name.clone());
        }
        let mut schema = self.target(target_file, fragment, reference, file, at)?;
        let name = self.name_for(target_file, fragment);
        // Registered before its own references are followed, so a cycle ends here.
        self.hoisted.insert(key, name.clone());
        self.origins.hoisted(
            name.clone(),
            (target_file.to_path_buf(), fragment_segments(fragment)),
        );
        let schema_at = format!("{}#{fragment}", target_file.display());
        self.walk(&mut schema, Ctx::Schema, target_file, schema_at)?;
        self.added.push((name.clone(), schema));
        Ok(name)
    }

    /// A component name for a hoisted schema: the last segment of its pointer, or the file's
    /// name without extension, numbered when taken.
    fn name_for(&mut self, target_file: &Path, fragment: &str) -> String {
        let from_pointer = decode_pointer(&format!("#{fragment}"))
            .map(|segments| pointer_name(&segments))
            .filter(|name| !name.is_empty());
        let base = from_pointer.unwrap_or_else(|| {
            target_file
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_else(|| "Schema".into())
        });
        let mut name = base.clone();
        let mut n = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}{n}");
            n += 1;
        }
        name
    }

    /// The file and pointer a reference written in `file` means.
    fn locate(&self, reference: &str, file: &Path, at: &str) -> Result<(PathBuf, String)> {
        let (path_part, fragment) = match reference.split_once('#') {
            Some((path, fragment)) => (path, fragment.to_string()),
            None => (reference, String::new()),
        };
        if path_part.contains("://") {
            return Err(Error::Unsupported {
                pointer: self.pointer_text(file, at),
                location: self.location(file, at),
                construct: "remote $ref".into(),
                message: format!(
                    "$ref '{reference}' names a URL; specgen reads local files only (download it beside the document and refer to it by a relative path)"
                ),
            });
        }
        if path_part.is_empty() {
            return Ok((file.to_path_buf(), fragment));
        }
        let decoded = super::percent_decode_lossy(path_part);
        // `..` taken lexically, as URI references resolve (RFC 3986, 5.2.4):
        // `./sub/../cat.yaml` is `./cat.yaml` whether or not `sub` exists.
        let joined = lexically_normal(
            &file
                .parent()
                .unwrap_or_else(|| Path::new("."))
                .join(decoded),
        );
        let canonical = std::fs::canonicalize(&joined).map_err(|err| {
            self.error(
                file,
                at,
                format!(
                    "$ref '{reference}': cannot read {}: {err}",
                    joined.display()
                ),
            )
        })?;
        Ok((canonical, fragment))
    }

    /// A copy of what `fragment` points at in `target_file`.
    fn target(
        &mut self,
        target_file: &Path,
        fragment: &str,
        reference: &str,
        file: &Path,
        at: &str,
    ) -> Result<Value> {
        if !self.files.contains_key(target_file) {
            let text = std::fs::read_to_string(target_file).map_err(|err| {
                self.error(
                    file,
                    at,
                    format!(
                        "$ref '{reference}': cannot read {}: {err}",
                        target_file.display()
                    ),
                )
            })?;
            self.digests.push((
                target_file.to_path_buf(),
                xxhash_rust::xxh3::xxh3_64(text.as_bytes()),
            ));
            let name = target_file.display().to_string();
            let parsed = super::parse::parse_text(&text, &name)
                .map_err(|err| self.error(file, at, format!("$ref '{reference}': {err}")))?;
            self.files.insert(target_file.to_path_buf(), parsed);
            self.texts.insert(target_file.to_path_buf(), text);
        }
        let document = &self.files[target_file];
        let found = decode_pointer(&format!("#{fragment}"))
            .and_then(|segments| super::pointer::resolve(document, &segments).cloned());
        found.ok_or_else(|| {
            self.error(
                file,
                at,
                format!(
                    "$ref '{reference}': '#{fragment}' does not exist in {}",
                    target_file.display()
                ),
            )
        })
    }

    /// The segments of `at`, a place of `file` as [`Bundler::walk`] writes it (the root's
    /// places bare, another file's after its name and `#`).
    fn segments_of(&self, file: &Path, at: &str) -> Vec<String> {
        let prefix = format!("{}#", file.display());
        let bare = at.strip_prefix(&prefix).unwrap_or(at);
        decode_pointer(bare).unwrap_or_default()
    }

    fn pointer_text(&self, file: &Path, at: &str) -> String {
        if file == self.root_path {
            format!("#{at}")
        } else if at.contains('#') {
            at.to_string()
        } else {
            format!("{}#{at}", file.display())
        }
    }

    fn error(&self, file: &Path, at: &str, message: String) -> Error {
        Error::Spec {
            pointer: self.pointer_text(file, at),
            location: self.location(file, at),
            message,
        }
    }

    /// Line and column of `at` in a file other than the root (whose errors get theirs once
    /// the bundling fails, from the root's text).
    fn location(&self, file: &Path, at: &str) -> Option<(usize, usize)> {
        let text = self.texts.get(file)?;
        let doc = super::Document {
            root: self.files.get(file)?.clone(),
            version: super::OpenApiVersion::V3_1,
            source: file.display().to_string(),
            text: Some(text.clone()),
            source_map: std::sync::OnceLock::new(),
            moves: super::Moves::default(),
            renames: Default::default(),
            digest: 0,
            other_files: Vec::new(),
            origins: Default::default(),
            duplicate_key: None,
            legacy_nullable: Vec::new(),
        };
        let fragment = at.rsplit_once('#').map_or(at, |(_, fragment)| fragment);
        doc.location(&format!("#{fragment}"))
    }
}

/// The segments of a reference's fragment (`/components/schemas/A%20B`), as `target` reads
/// it.
fn fragment_segments(fragment: &str) -> Vec<String> {
    decode_pointer(&format!("#{fragment}")).unwrap_or_default()
}

/// A name for the schema at a pointer: its last two meaningful segments
/// (`/components/schemas/Problem/properties/title` → `Problem_title`), with `_item` when it is
/// an array's items (`/Forest/items` → `Forest_item`).
fn pointer_name(segments: &[String]) -> String {
    const STRUCTURAL: &[&str] = &[
        "components",
        "schemas",
        "definitions",
        "$defs",
        "properties",
        "items",
        "additionalProperties",
        "allOf",
        "anyOf",
        "oneOf",
        "content",
        "schema",
    ];
    let mut words: Vec<&str> = segments
        .iter()
        .map(String::as_str)
        .filter(|segment| !STRUCTURAL.contains(segment) && segment.parse::<usize>().is_err())
        .collect();
    let start = words.len().saturating_sub(2);
    words.drain(..start);
    let mut name = words.join("_");
    if segments.last().is_some_and(|last| last == "items") && !name.is_empty() {
        name.push_str("_item");
    }
    name
}

/// `path` with `.` segments dropped and each `..` taking away the segment before it.
fn lexically_normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The `$ref` of each `oneOf`/`anyOf` alternative of a schema, in order (`None` for one
/// written inline).
fn alternative_refs(map: &Map<String, Value>) -> Vec<Option<String>> {
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|key| map.get(*key)?.as_array())
        .flatten()
        .map(|alternative| {
            alternative
                .get("$ref")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .collect()
}

/// The name a reference gives its schema: the last segment of its pointer, else its file's
/// name without extension (`./cat.yaml`: `cat`).
fn last_name(reference: &str) -> String {
    let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    match decode_pointer(&format!("#{fragment}")).and_then(|segments| segments.last().cloned()) {
        Some(last) if !last.is_empty() => last,
        _ => Path::new(path)
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

/// `{"$ref": "#<fragment>"}`, keeping the keywords written beside the original `$ref`.
fn local_ref(original: &Value, fragment: &str) -> Value {
    let mut map = Map::new();
    map.insert("$ref".into(), Value::String(format!("#{fragment}")));
    if let Value::Object(siblings) = original {
        for (key, sibling) in siblings {
            if key != "$ref" {
                map.insert(key.clone(), sibling.clone());
            }
        }
    }
    Value::Object(map)
}

/// Keys whose value is data, never OpenAPI structure.
fn is_literal(key: &str) -> bool {
    matches!(key, "example" | "default" | "const" | "enum" | "value") || key.starts_with("x-")
}

enum Child {
    One(Ctx),
    Map(Ctx),
    List(Ctx),
    Skip,
}

/// What the OpenAPI structure expects under `key` of an object that is a `ctx`.
fn child_ctx(ctx: Ctx, key: &str) -> Child {
    use Child::*;
    match (ctx, key) {
        (Ctx::Document, "paths" | "webhooks") => Map(Ctx::PathItem),
        (Ctx::Document, "components") => One(Ctx::Components),
        // Swagger 2.0's places (upgraded to 3.0 after bundling; no 3.0 document has them).
        (Ctx::Document, "definitions") => Map(Ctx::Schema),
        (Ctx::Document, "parameters") => Map(Ctx::Parameter),
        (Ctx::Document, "responses") => Map(Ctx::Response),
        (Ctx::Response, "schema") => One(Ctx::Schema),
        (Ctx::Components, "schemas") => Map(Ctx::Schema),
        (Ctx::Components, "responses") => Map(Ctx::Response),
        (Ctx::Components, "parameters") => Map(Ctx::Parameter),
        (Ctx::Components, "examples") => Map(Ctx::Example),
        (Ctx::Components, "requestBodies") => Map(Ctx::RequestBody),
        (Ctx::Components, "headers") => Map(Ctx::Header),
        (Ctx::Components, "callbacks") => Map(Ctx::Callback),
        (Ctx::Components, "pathItems") => Map(Ctx::PathItem),
        (Ctx::Components, _) => Map(Ctx::Other),
        (Ctx::PathItem, "parameters") => List(Ctx::Parameter),
        (
            Ctx::PathItem,
            "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace",
        ) => One(Ctx::Operation),
        (Ctx::Operation, "parameters") => List(Ctx::Parameter),
        (Ctx::Operation, "requestBody") => One(Ctx::RequestBody),
        (Ctx::Operation, "responses") => Map(Ctx::Response),
        (Ctx::Operation, "callbacks") => Map(Ctx::Callback),
        (Ctx::Callback, _) => One(Ctx::PathItem),
        (Ctx::Parameter | Ctx::Header, "schema") => One(Ctx::Schema),
        (Ctx::Parameter | Ctx::Header, "content") => Map(Ctx::MediaType),
        (Ctx::Parameter | Ctx::Header | Ctx::MediaType, "examples") => Map(Ctx::Example),
        (Ctx::RequestBody | Ctx::Response, "content") => Map(Ctx::MediaType),
        (Ctx::Response, "headers") => Map(Ctx::Header),
        (Ctx::MediaType, "schema") => One(Ctx::Schema),
        (Ctx::MediaType, "encoding") => Map(Ctx::Encoding),
        (Ctx::Encoding, "headers") => Map(Ctx::Header),
        (
            Ctx::Schema,
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas",
        ) => Map(Ctx::Schema),
        (
            Ctx::Schema,
            "items"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "additionalItems",
        ) => One(Ctx::Schema),
        (Ctx::Schema, "allOf" | "anyOf" | "oneOf" | "prefixItems") => List(Ctx::Schema),
        (Ctx::Schema, "examples") => Skip,
        (Ctx::Example, _) => Skip,
        (Ctx::Schema, _) => Skip,
        _ => One(Ctx::Other),
    }
}
