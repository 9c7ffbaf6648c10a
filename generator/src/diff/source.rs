//! Where the two documents come from: a file, or `REV:PATH` read from git (so CI can diff a
//! pull request's spec against its base branch without checking the base out).

use std::path::Path;
use std::process::Command;

use crate::error::{Error, Result};
use crate::load::{self, Document};

/// Loads `spec`: a file when one exists at that path, else `REV:PATH` through `git show`, in
/// the repository of the current directory. As with `git show`, `PATH` is relative to the
/// repository's root (`REV:./PATH` for one relative to the current directory).
///
/// A document read from git is loaded from its text alone: a `$ref` to another file is
/// refused (with the loader's message), since the files it points at are those of that
/// revision, not of the working tree.
pub fn load(spec: &str) -> Result<Document> {
    let path = Path::new(spec);
    if path.exists() {
        return load::load_file(path);
    }
    let Some((rev, file)) = spec
        .split_once(':')
        .filter(|(rev, file)| !rev.is_empty() && !file.is_empty())
    else {
        return load::load_file(path);
    };
    let output = Command::new("git")
        .arg("show")
        .arg(format!("{rev}:{file}"))
        .output()
        .map_err(|err| Error::Io {
            path: spec.into(),
            source: std::io::Error::other(format!("running `git show {spec}`: {err}")),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(Error::Io {
            path: spec.into(),
            source: std::io::Error::other(format!(
                "no such file, and `git show {spec}` failed: {}",
                stderr.trim()
            )),
        });
    }
    let text = String::from_utf8(output.stdout).map_err(|_| Error::Io {
        path: spec.into(),
        source: std::io::Error::other("the file at that revision is not UTF-8"),
    })?;
    load::load_str(&text, spec)
}
