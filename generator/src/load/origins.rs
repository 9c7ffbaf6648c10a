//! Where each part of a bundled document was written.
//!
//! Bundling (see `bundle`) joins other files into the root document, so every later stage
//! sees one document and names places in it: `#/components/schemas/Thing/properties/name`.
//! A user wrote `Thing` in `schemas.yaml`, though, and a message pointing into the bundle, at
//! the root's first line, sends them to the wrong file. This maps a place of the bundle back
//! to the file and pointer it came from, and gives its line and column in that file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::source_map::{self, SourceMap};

/// A place in one file: the file and the unescaped segments of a pointer into it.
pub(crate) type Place = (PathBuf, Vec<String>);

/// The way back from a bundled document's places to the files they were written in.
#[derive(Debug, Default)]
pub(crate) struct Origins {
    /// The root document's file (canonical).
    root: PathBuf,
    /// A `$ref` to another file's non-schema object (a path item, a parameter, a response…)
    /// is replaced by a copy of it: where the `$ref` stood → where the copied object is.
    copies: HashMap<Place, Place>,
    /// A schema of another file becomes a component of the root: its name there → where it
    /// was written.
    hoisted: HashMap<String, Place>,
    /// Every other file read, for the line and column of a place in it.
    files: HashMap<PathBuf, OtherFile>,
}

#[derive(Debug)]
struct OtherFile {
    text: String,
    /// Built when a position in this file is first asked for.
    positions: OnceLock<Option<SourceMap>>,
}

impl Origins {
    /// Origins of a document whose root is the file `root`.
    pub(crate) fn new(root: PathBuf) -> Origins {
        Origins {
            root,
            ..Origins::default()
        }
    }

    /// Records that the `$ref` at `site` was replaced by a copy of what is at `target`.
    pub(crate) fn copied(&mut self, site: Place, target: Place) {
        self.copies.insert(site, target);
    }

    /// Records that the schema at `target` became the root's component schema `name`.
    pub(crate) fn hoisted(&mut self, name: String, target: Place) {
        self.hoisted.insert(name, target);
    }

    /// Records the text of another file read.
    pub(crate) fn read(&mut self, file: PathBuf, text: String) {
        self.files.insert(
            file,
            OtherFile {
                text,
                positions: OnceLock::new(),
            },
        );
    }

    /// Where the bundled document's place `segments` was written, when that is another file
    /// than the root; `None` for a place of the root file itself.
    pub(crate) fn place(&self, segments: &[String]) -> Option<Place> {
        if self.copies.is_empty() && self.hoisted.is_empty() {
            return None;
        }
        let hoisted = match segments {
            [components, schemas, name, rest @ ..]
                if components == "components" && schemas == "schemas" =>
            {
                self.hoisted.get(name).map(|origin| (origin, rest))
            }
            // A Swagger 2.0 document's place, before its upgrade moved `definitions`.
            [definitions, name, rest @ ..] if definitions == "definitions" => {
                self.hoisted.get(name).map(|origin| (origin, rest))
            }
            _ => None,
        };
        let (mut file, mut at) = match hoisted {
            Some(((file, written), rest)) => (file.clone(), [written.as_slice(), rest].concat()),
            None => (self.root.clone(), segments.to_vec()),
        };
        // Each step goes into the file a copy came from. Copies of copies end: bundling
        // refuses a cycle of non-schema references; the bound is only a guard.
        for _ in 0..64 {
            let copied = (0..=at.len()).rev().find_map(|len| {
                self.copies
                    .get(&(file.clone(), at[..len].to_vec()))
                    .map(|target| (len, target))
            });
            let Some((len, (target_file, target_at))) = copied else {
                break;
            };
            at = [target_at.as_slice(), &at[len..]].concat();
            file = target_file.clone();
        }
        (file != self.root).then_some((file, at))
    }

    /// The positions of the nodes of another file's text, or `None` when it was not read or
    /// cannot be mapped.
    pub(crate) fn positions(&self, file: &Path) -> Option<&SourceMap> {
        let other = self.files.get(file)?;
        other
            .positions
            .get_or_init(|| {
                // As for the root: positions are a nicety, never a crash.
                std::panic::catch_unwind(|| source_map::build(&other.text))
                    .ok()
                    .flatten()
            })
            .as_ref()
    }
}
