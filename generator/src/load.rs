//! The loader: the first stage of specgen (load → IR → emitters).
//!
//! It turns YAML or JSON text into a [`Document`]: a `serde_json::Value` in
//! OpenAPI 3.1 form whose every `$ref` is known to be local and to resolve,
//! so later stages can look things up without re-checking. OpenAPI 3.0
//! documents are rewritten to 3.1 spelling here (see [`OpenApiVersion`]) so
//! that nothing after this stage needs to know about `nullable`.
//!
//! `$ref`s are left in place, never inlined: schemas may refer to each other
//! in cycles, and later stages need to see the references to name types.

mod bundle;
mod normalize;
mod origins;
mod parse;
mod pointer;
mod refs;
mod source_map;
mod swagger2;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::error::{Error, Result};
use normalize::Moves;
use source_map::SourceMap;

pub use pointer::{
    canonical_pointer, decode_pointer, encode_pointer, escape_segment, join, percent_decode,
    percent_decode_lossy, unescape_segment,
};

/// Deeper documents are rejected rather than risk overflowing the stack in
/// the recursive passes (the parsers already stop at 128 levels; this guards
/// values handed to [`Document::from_value`]).
const MAX_DEPTH: usize = 512;

/// Which OpenAPI version the document declared.
///
/// The content of a [`Document`] is always in 3.1 form; this records what it
/// was written in, for messages and for the few things that differ beyond
/// schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpenApiVersion {
    /// `swagger: "2.0"`; upgraded to OpenAPI 3.0 on load (see the `swagger2` module:
    /// `definitions` become component schemas, body and form parameters request bodies, and
    /// so on), then normalised to 3.1 like a 3.0 document.
    Swagger2,
    /// `openapi: 3.0.x`; schemas were normalised to 3.1 on load.
    V3_0,
    /// `openapi: 3.1.x`.
    V3_1,
    /// `openapi: 3.2.x`, read as the 3.1 it extends: what 3.2 adds (the `query` method,
    /// `additionalOperations`, `querystring` parameters, `itemSchema`) is left out, with a
    /// warning where the IR meets it.
    V3_2,
}

/// A loaded, checked OpenAPI document.
#[derive(Clone)]
pub struct Document {
    /// The document, with 3.0 schemas rewritten into 3.1 form.
    pub root: Value,
    /// The version the document was written in.
    pub version: OpenApiVersion,
    /// File name, or `<input>` (or whatever the caller named it) otherwise;
    /// used in messages.
    pub source: String,
    /// The text it was parsed from, kept to build `source_map` on demand.
    text: Option<String>,
    source_map: OnceLock<Option<SourceMap>>,
    moves: Moves,
    /// Where the Swagger 2.0 upgrade moved things (empty for OpenAPI documents).
    renames: swagger2::Renames,
    /// Digest of every byte the document was read from (all its files).
    digest: u64,
    /// The files its `$ref`s read besides its own.
    other_files: Vec<PathBuf>,
    /// Which file each part came from, when `$ref`s read others.
    origins: Arc<origins::Origins>,
    /// The first member name its JSON text gave twice in one object, of which the last is
    /// read: a warning where the IR is built.
    pub(crate) duplicate_key: Option<parse::DuplicateKey>,
    /// The schemas of a 3.1 document that say `nullable: true` (OpenAPI 3.0's keyword, which
    /// documents converted from 3.0 keep), read as 3.0 reads it: a warning where the IR is
    /// built.
    pub(crate) legacy_nullable: Vec<String>,
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("source", &self.source)
            .field("version", &self.version)
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

/// Reads and loads an OpenAPI document from a file.
///
/// JSON is recognised by a `.json` extension or a leading `{`; anything else
/// is read as YAML. See [`Document::from_value`] for what is checked.
pub fn load_file(path: &Path) -> Result<Document> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let source_name = path.display().to_string();
    let mut text = utf8_text(bytes, &source_name)?;
    strip_bom(&mut text);
    let (root, duplicate_key) = parse::parse_text_noting(&text, &source_name)?;
    // References to other files are followed here, relative to this one; what they point at
    // joins the document (see `bundle`), so nothing later knows there were several files.
    let (root, others, files, origins) = if bundle::has_external_refs(&root) {
        match bundle::bundle(root.clone(), path) {
            Ok(bundled) => (bundled.root, bundled.digest, bundled.files, bundled.origins),
            Err(err) => return Err(with_location(err, root, &source_name, text)),
        }
    } else {
        (root, 0, Vec::new(), origins::Origins::default())
    };
    let mut doc = Document::build_from(root, &source_name, Some(text), origins)?;
    // The other files count too: an edit to one of them is a new input.
    doc.digest ^= others.rotate_left(1);
    doc.other_files = files;
    doc.duplicate_key = duplicate_key;
    Ok(doc)
}

/// A file's bytes as text; bytes that are not UTF-8 are a parse error at their line and
/// column (the operating system's "stream did not contain valid UTF-8" said neither).
fn utf8_text(bytes: Vec<u8>, source_name: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|err| {
        let valid = err.utf8_error().valid_up_to();
        let bytes = err.as_bytes();
        let before = &bytes[..valid];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |at| at + 1);
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        Error::Parse {
            source_name: source_name.to_string(),
            line: Some(line),
            column: Some(column),
            message: format!(
                "not UTF-8 text (byte 0x{:02X}); OpenAPI documents are UTF-8",
                bytes[valid]
            ),
        }
    })
}

/// The error with the line and column of its pointer in `text`, when it names a place in
/// that document and has none yet.
fn with_location(err: Error, root: Value, source_name: &str, text: String) -> Error {
    // The unbundled root, only to map pointers back to the text.
    let doc = Document {
        root,
        version: OpenApiVersion::V3_1,
        source: source_name.to_owned(),
        text: Some(text),
        source_map: OnceLock::new(),
        moves: Moves::default(),
        renames: swagger2::Renames::default(),
        digest: 0,
        other_files: Vec::new(),
        origins: Arc::default(),
        duplicate_key: None,
        legacy_nullable: Vec::new(),
    };
    doc.locate(err)
}

fn strip_bom(text: &mut String) {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
}

/// Loads an OpenAPI document from text; `source_name` is used in messages
/// (and a `.json` suffix on it selects the JSON parser first).
pub fn load_str(text: &str, source_name: &str) -> Result<Document> {
    load_text(text.to_owned(), source_name)
}

fn load_text(mut text: String, source_name: &str) -> Result<Document> {
    strip_bom(&mut text);
    let (root, duplicate_key) = parse::parse_text_noting(&text, source_name)?;
    let mut doc = Document::build(root, source_name, Some(text))?;
    doc.duplicate_key = duplicate_key;
    Ok(doc)
}

impl Document {
    /// Loads a document that is already in memory as a JSON value, with the
    /// same normalisation and checks as [`load_str`], but without source
    /// positions.
    ///
    /// Fails if the version is not OpenAPI 3.0.x, 3.1.x or 3.2.x, if a `$ref` is
    /// not local (`#/...`), or if a `$ref` does not resolve; the first such
    /// problem in document order is reported.
    pub fn from_value(value: Value, source_name: &str) -> Result<Document> {
        Document::build(value, source_name, None)
    }

    fn build(root: Value, source_name: &str, text: Option<String>) -> Result<Document> {
        Document::build_from(root, source_name, text, origins::Origins::default())
    }

    /// [`Document::build`] of a bundle, whose parts came from the files `origins` names.
    fn build_from(
        root: Value,
        source_name: &str,
        text: Option<String>,
        origins: origins::Origins,
    ) -> Result<Document> {
        let digest = text
            .as_deref()
            .map(|text| xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
            .unwrap_or_else(|| xxhash_rust::xxh3::xxh3_64(root.to_string().as_bytes()));
        let mut doc = Document {
            root,
            version: OpenApiVersion::V3_1,
            source: source_name.to_owned(),
            text,
            source_map: OnceLock::new(),
            moves: Moves::default(),
            renames: swagger2::Renames::default(),
            digest,
            other_files: Vec::new(),
            origins: Arc::new(origins),
            duplicate_key: None,
            legacy_nullable: Vec::new(),
        };
        if refs::depth_exceeds(&doc.root, MAX_DEPTH) {
            return Err(doc.unsupported(
                "#",
                "nesting depth",
                format!("the document nests objects and arrays more than {MAX_DEPTH} levels deep"),
            ));
        }
        if !doc.root.is_object() {
            let found = kind_of(&doc.root);
            return Err(doc.spec_error(
                "#",
                format!("an OpenAPI document must be a mapping at the top level, found {found}"),
            ));
        }
        doc.version = doc.detect_version()?;
        if doc.version == OpenApiVersion::Swagger2 {
            doc.renames = swagger2::upgrade(&mut doc.root);
        }
        if matches!(doc.version, OpenApiVersion::V3_0 | OpenApiVersion::Swagger2) {
            doc.moves = normalize::normalize_document(&mut doc.root);
        } else {
            doc.legacy_nullable = normalize::tidy_3_1(&mut doc.root);
        }
        doc.check_refs()?;
        Ok(doc)
    }

    fn detect_version(&self) -> Result<OpenApiVersion> {
        const READS: &str =
            "specgen reads Swagger 2.0 and OpenAPI 3.0.x, 3.1.x and 3.2.x documents";
        if let Some(swagger) = self.root.get("swagger") {
            let version = scalar_text(swagger);
            if version == "2.0" && self.root.get("openapi").is_none() {
                return Ok(OpenApiVersion::Swagger2);
            }
            return Err(self.unsupported(
                "#/swagger",
                format!("Swagger {version}"),
                format!("{READS}; convert this one to OpenAPI 3 first"),
            ));
        }
        let Some(declared) = self.root.get("openapi") else {
            return Err(Error::Unsupported {
                pointer: "#/openapi".into(),
                // Where it is missing from: the top-level mapping.
                location: self.location("#"),
                construct: "document without an `openapi` version".into(),
                message: format!("{READS}; add e.g. `openapi: 3.1.0` at the top level"),
            });
        };
        let version = scalar_text(declared);
        let is = |minor: &str| version == minor || version.starts_with(&format!("{minor}."));
        if is("3.0") {
            Ok(OpenApiVersion::V3_0)
        } else if is("3.1") {
            Ok(OpenApiVersion::V3_1)
        } else if is("3.2") {
            Ok(OpenApiVersion::V3_2)
        } else {
            Err(self.unsupported("#/openapi", format!("OpenAPI {version}"), READS))
        }
    }

    /// Checks that every `$ref` is local and resolves, redirecting those that
    /// point below a schema that normalisation wrapped in `anyOf`.
    fn check_refs(&mut self) -> Result<()> {
        let mut rewrites: Vec<(String, String)> = Vec::new();
        for site in refs::collect(&self.root) {
            let holder = pointer::fragment_from_bare(&site.holder);
            let Some(target) = site.target.as_str() else {
                let found = kind_of(site.target);
                return Err(self.spec_error(
                    &holder,
                    format!("$ref must be a string holding a JSON pointer, found {found}"),
                ));
            };
            if !target.starts_with('#') {
                return Err(self.unsupported(
                    &holder,
                    "external $ref",
                    format!(
                        "$ref '{target}' points outside this document; references to other \
                         files are followed only when the document is loaded from its file"
                    ),
                ));
            }
            if target != "#" && !target.starts_with("#/") {
                return Err(self.unsupported(
                    &holder,
                    "$ref to an anchor",
                    format!(
                        "$ref '{target}' names a plain-name fragment ($anchor); \
                         specgen only follows JSON-pointer references (#/...)"
                    ),
                ));
            }
            let Some(segments) = decode_pointer(target) else {
                return Err(self.spec_error(
                    &holder,
                    format!("$ref '{target}' is not a valid JSON pointer"),
                ));
            };
            let moved = self.moves.forward(&segments);
            if pointer::resolve(&self.root, &moved).is_none() {
                if self.version == OpenApiVersion::Swagger2 {
                    let written = swagger2::written_ref(target);
                    return Err(
                        self.spec_error(&holder, format!("$ref '{written}' does not exist"))
                    );
                }
                let hint = self
                    .resolving_alternative(&segments)
                    .map(|pointer| format!("; '{pointer}' would resolve"))
                    .unwrap_or_default();
                let habit = if segments.first().is_some_and(|s| s == "definitions") {
                    " (`#/definitions/` is where Swagger 2.0 kept schemas; OpenAPI 3 keeps them \
                     under `#/components/schemas/`)"
                } else {
                    ""
                };
                return Err(self.spec_error(
                    &holder,
                    format!("$ref '{target}' does not exist{habit}{hint}"),
                ));
            }
            if moved != segments {
                rewrites.push((site.holder, encode_pointer(&moved)));
            }
        }
        for (holder, target) in rewrites {
            let holder_segments = decode_pointer(&holder).unwrap_or_default();
            if let Some(Value::Object(object)) =
                pointer::resolve_mut(&mut self.root, &holder_segments)
            {
                object.insert("$ref".to_owned(), Value::String(target));
            }
        }
        Ok(())
    }

    /// A pointer that exists for a dangling reference's last segment, when there is exactly
    /// one obvious one: the component schema of that name (`#/definitions/Task` →
    /// `#/components/schemas/Task`).
    fn resolving_alternative(&self, segments: &[String]) -> Option<String> {
        let name = segments.last()?;
        let candidate = ["components", "schemas", name.as_str()];
        (segments != candidate && pointer::resolve(&self.root, &candidate).is_some())
            .then(|| encode_pointer(&candidate))
    }

    /// Resolves a JSON pointer written as a URI fragment
    /// (`#/components/schemas/A`, percent-decoded) or bare
    /// (`/components/schemas/A`).
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        pointer::resolve(&self.root, &decode_pointer(pointer)?)
    }

    /// The schema `schema` stands for: itself, or where its local `$ref`s and lone `allOf`s
    /// lead (at most eight steps; one that leads nowhere ends the walk there).
    pub fn referenced_schema<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut at = schema;
        for _ in 0..8 {
            let next = match (at.get("$ref").and_then(Value::as_str), at.get("allOf")) {
                (Some(target), _) => self.pointer(target),
                (None, Some(Value::Array(parts))) if parts.len() == 1 => parts.first(),
                _ => None,
            };
            match next {
                Some(next) => at = next,
                None => break,
            }
        }
        at
    }

    /// Follows a chain of `$ref`s starting at `value`, which sits at pointer
    /// `at`, and returns the first value that is not a reference together
    /// with its pointer in fragment form (`at` itself, canonicalised, if
    /// `value` is not a reference).
    ///
    /// Keywords next to a `$ref` are ignored here: callers that care about
    /// 3.1 sibling keywords must look at `value` themselves. A chain that
    /// loops back on itself (A = `$ref` B, B = `$ref` A) is an error, as are
    /// non-local and dangling references (possible when `value` did not come
    /// from this document).
    pub fn deref<'a>(&'a self, value: &'a Value, at: &str) -> Result<(&'a Value, String)> {
        let mut current = value;
        let mut current_at = canonical_pointer(at).unwrap_or_else(|| at.to_owned());
        let mut chain: Vec<String> = vec![current_at.clone()];
        while let Some(target) = current.get("$ref").and_then(Value::as_str) {
            if !target.starts_with("#/") && target != "#" {
                return Err(self.unsupported(
                    &current_at,
                    "external $ref",
                    format!("$ref '{target}' is not a local reference (#/...)"),
                ));
            }
            // Refs in the document were redirected on load; ones in values
            // from elsewhere may still point below a wrapped 3.0 schema.
            let moved = decode_pointer(target).map(|segments| self.moves.forward(&segments));
            let Some(target_at) = moved.map(|segments| encode_pointer(&segments)) else {
                return Err(self.spec_error(
                    &current_at,
                    format!("$ref '{target}' is not a valid JSON pointer"),
                ));
            };
            if chain.contains(&target_at) {
                chain.push(target_at);
                let first = chain.first().cloned().unwrap_or_default();
                return Err(self.spec_error(
                    &first,
                    format!(
                        "$ref cycle never reaches a definition: {}",
                        chain.join(" -> ")
                    ),
                ));
            }
            let Some(next) = self.pointer(&target_at) else {
                return Err(self.spec_error(&current_at, format!("$ref '{target}' does not exist")));
            };
            chain.push(target_at.clone());
            current = next;
            current_at = target_at;
        }
        Ok((current, current_at))
    }

    /// The files the document's `$ref`s read besides its own (canonical paths, sorted): a
    /// build script watches them as it watches the document.
    pub fn other_files(&self) -> &[PathBuf] {
        &self.other_files
    }

    /// A digest of every byte the document was read from, its other files included: equal
    /// digests mean the same input (see [`crate::fingerprint`]).
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// Line and column (1-based) of the node at `pointer` in the source text.
    ///
    /// `None` when the document did not come from text, when the pointer is
    /// invalid, or when neither the node nor (for nodes that exist only after
    /// loading, such as normalised schemas or YAML alias expansions) an
    /// ancestor has a position.
    pub fn location(&self, pointer: &str) -> Option<(usize, usize)> {
        let segments = decode_pointer(pointer)?;
        if segments.is_empty() && self.text.as_deref().is_some_and(|t| t.trim().is_empty()) {
            // An empty text has no node, not even a root; its beginning is where it is wrong.
            return Some((1, 1));
        }
        let root_map = self.positions();
        let source_segments = self.source_segments(&segments, root_map);
        // A place another file holds is found in that file's text.
        let (map, written) = match self.origins.place(&source_segments) {
            Some((file, in_file)) => (self.origins.positions(&file)?, in_file),
            None => (root_map?, source_segments),
        };
        let mut bare = String::new();
        let mut nearest = map.get("");
        let mut exact = written.is_empty() && nearest.is_some();
        for segment in &written {
            pointer::push_segment(&mut bare, segment);
            exact = false;
            if let Some(position) = map.get(&bare) {
                nearest = Some(position);
                exact = true;
            }
        }
        if exact || pointer::resolve(&self.root, &segments).is_some() {
            nearest
        } else {
            None
        }
    }

    /// The pointer as the user wrote the place: for a Swagger 2.0 document, where it was
    /// before the upgrade to OpenAPI 3 (`#/definitions/Pet` for `#/components/schemas/Pet`);
    /// and in any document, where it was before the normalisation (a lone `example` for the
    /// `examples/0` made of it, a schema without the `anyOf` that wraps a nullable one).
    ///
    /// A place that a `$ref` brought in from another file is named in that file:
    /// `/specs/schemas.yaml#/Thing/properties/name` rather than the bundled
    /// `#/components/schemas/Thing/properties/name`.
    pub fn written_pointer(&self, pointer: &str) -> String {
        let Some(segments) = decode_pointer(pointer) else {
            return pointer.to_owned();
        };
        let source = self.source_segments(&segments, self.positions());
        match self.origins.place(&source) {
            Some((file, in_file)) => format!("{}{}", file.display(), encode_pointer(&in_file)),
            None => encode_pointer(&source),
        }
    }

    /// The file a place was written in, when a `$ref` brought it from another file than the
    /// document's own; its line and column ([`Document::location`]) are in that file.
    pub fn written_file(&self, pointer: &str) -> Option<PathBuf> {
        let segments = decode_pointer(pointer)?;
        let source = self.source_segments(&segments, self.positions());
        self.origins.place(&source).map(|(file, _)| file)
    }

    /// The positions of the source text's nodes, read once when first asked for.
    fn positions(&self) -> Option<&source_map::SourceMap> {
        self.source_map
            .get_or_init(|| {
                // Positions are a nicety: a bug in the second parser must
                // not turn a loaded document into a crash.
                let text = self.text.as_deref()?;
                std::panic::catch_unwind(|| source_map::build(text))
                    .ok()
                    .flatten()
            })
            .as_ref()
    }

    /// The segments of a place of the loaded document as the source wrote it: before the
    /// Swagger 2.0 upgrade and the normalisation, and, given the source's positions, an
    /// `examples/0` that the normalisation made of a lone `example` as that `example`.
    fn source_segments(
        &self,
        segments: &[String],
        positions: Option<&source_map::SourceMap>,
    ) -> Vec<String> {
        let mut source = self.renames.backward(&self.moves.backward(segments));
        let Some(positions) = positions else {
            return source;
        };
        let mut bare = String::new();
        let mut at = 0;
        while at < source.len() {
            let lone_example = source[at] == "examples"
                && source.get(at + 1).is_some_and(|index| index == "0")
                && positions.get(&format!("{bare}/examples")).is_none()
                && positions.get(&format!("{bare}/example")).is_some();
            if lone_example {
                source.splice(at..at + 2, ["example".to_owned()]);
            }
            pointer::push_segment(&mut bare, &source[at]);
            at += 1;
        }
        source
    }

    /// `err` with the line and column of its pointer in this document, when it names a place
    /// in the document and has no position yet.
    pub fn locate(&self, err: Error) -> Error {
        match err {
            Error::Spec {
                pointer,
                location: None,
                message,
            } => Error::Spec {
                location: self.location(&pointer),
                pointer: self.written_pointer(&pointer),
                message,
            },
            Error::Unsupported {
                pointer,
                location: None,
                construct,
                message,
            } => Error::Unsupported {
                location: self.location(&pointer),
                pointer: self.written_pointer(&pointer),
                construct,
                message,
            },
            other => other,
        }
    }

    /// An [`Error::Spec`] at `pointer`, with its source position if known;
    /// for later stages reporting problems in this document.
    pub fn spec_error(&self, pointer: &str, message: impl Into<String>) -> Error {
        Error::Spec {
            pointer: self.written_pointer(pointer),
            location: self.location(pointer),
            message: message.into(),
        }
    }

    /// An [`Error::Unsupported`] at `pointer`, with its source position if
    /// known.
    pub fn unsupported(
        &self,
        pointer: &str,
        construct: impl Into<String>,
        message: impl Into<String>,
    ) -> Error {
        Error::Unsupported {
            pointer: self.written_pointer(pointer),
            location: self.location(pointer),
            construct: construct.into(),
            message: message.into(),
        }
    }
}

/// The text of a version field, whether written as a string or (unquoted in
/// YAML) as a number: `openapi: 3.0` is the float 3.0.
fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// What kind of YAML or JSON value `value` is, for a message: `a number`, `a mapping`, ….
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing (null)",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a sequence",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests;
