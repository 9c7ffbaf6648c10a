//! The one error type of the crate.
//!
//! Every stage (load, IR, naming, emitters) reports through [`Error`] so that
//! the command line can print any failure the same way: what went wrong, where
//! in the document (as a JSON pointer), and where in the source text when the
//! loader could map the pointer back to a line and column.

use std::fmt;
use std::path::PathBuf;

/// Shorthand for results whose error is the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can make specgen stop.
///
/// Pointers are JSON pointers in URI-fragment form (`#/components/schemas/A`),
/// so they can be pasted into a `$ref` or searched for in the document.
///
/// `Debug` prints the same text as `Display`: a build script's `main` that returns the error
/// with `?` prints it with `Debug`, and the user should read the message, not the variant.
#[derive(thiserror::Error)]
pub enum Error {
    /// The input file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file that was being read.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },

    /// The text is not well-formed YAML or JSON.
    #[error("{source_name}: {message}{}", Loc::pair(.line, .column))]
    Parse {
        /// File name, or `<input>` for text that did not come from a file.
        source_name: String,
        /// 1-based line of the problem, when the parser knew it.
        line: Option<usize>,
        /// 1-based column of the problem, when the parser knew it.
        column: Option<usize>,
        /// The parser's description, without the position (that is in
        /// `line`/`column`).
        message: String,
    },

    /// The document is well-formed but wrong at a particular place.
    #[error("{pointer}: {message}{}", Loc(*.location))]
    Spec {
        /// Where the problem is, e.g. the object holding a dangling `$ref`.
        pointer: String,
        /// 1-based line and column of that place in the source, when known.
        location: Option<(usize, usize)>,
        /// What is wrong there.
        message: String,
    },

    /// The document uses something specgen deliberately does not handle.
    ///
    /// Kept apart from [`Error::Spec`] because the document may be perfectly
    /// valid OpenAPI: the fix is on specgen's side or a rewrite of the spec.
    #[error("{pointer}: unsupported {construct}: {message}{}", Loc(*.location))]
    Unsupported {
        /// Where the construct is used.
        pointer: String,
        /// 1-based line and column of that place in the source, when known.
        location: Option<(usize, usize)>,
        /// Short name of the construct, e.g. `external $ref` or `Swagger 2.0`.
        construct: String,
        /// Why, and what to do instead.
        message: String,
    },

    /// An option given by the caller (`--crate-name`, `--type-override`, a [`crate::Builder`]
    /// setting) cannot be used.
    #[error("{option}: {message}")]
    Option {
        /// The option and the value given, e.g. ``--crate-name `1abc` ``.
        option: String,
        /// What is wrong with it.
        message: String,
    },

    /// Two different parts of the document would produce the same Rust name.
    #[error("two definitions would both be named `{name}`: {first} and {second}")]
    Collision {
        /// The Rust identifier both would get.
        name: String,
        /// Pointer of the definition that got the name first.
        first: String,
        /// Pointer of the definition that wanted it too.
        second: String,
    },

    /// An emitter produced something that failed its own check (generated
    /// tokens that do not parse, a contract that cannot be serialised).
    /// Always a bug in specgen or a bad override, never in the document.
    #[error("generating {file}: {message}")]
    Emit {
        /// The output file (or group of files) being generated.
        file: String,
        /// What went wrong.
        message: String,
    },

    /// Generated output could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or directory being written.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Formats an optional position as ` (line L, column C)`, or nothing.
struct Loc(Option<(usize, usize)>);

impl Loc {
    fn pair(line: &Option<usize>, column: &Option<usize>) -> Self {
        Loc(line.zip(*column))
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some((line, column)) => write!(f, " (line {line}, column {column})"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_display_has_pointer_message_and_location() {
        let err = Error::Spec {
            pointer: "#/paths/~1banking~1accounts/post/requestBody".into(),
            location: Some((12, 9)),
            message: "$ref '#/components/schemas/Nope' does not exist".into(),
        };
        assert_eq!(
            err.to_string(),
            "#/paths/~1banking~1accounts/post/requestBody: $ref '#/components/schemas/Nope' \
             does not exist (line 12, column 9)"
        );
    }

    /// A build script returning the error from `main` prints its `Debug`: the message.
    #[test]
    fn debug_is_the_message() {
        let err = Error::Option {
            option: "crate name `1abc`".into(),
            message: "the name starts with '1'".into(),
        };
        assert_eq!(format!("{err:?}"), err.to_string());
    }

    #[test]
    fn parse_display_without_position() {
        let err = Error::Parse {
            source_name: "<input>".into(),
            line: None,
            column: Some(3),
            message: "bad".into(),
        };
        assert_eq!(err.to_string(), "<input>: bad");
    }
}
