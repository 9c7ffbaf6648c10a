//! The generated crate's package name, chosen once with the IR so that nothing reads the
//! document for it afterwards.

use crate::error::{Error, Result};
use crate::load::Document;

/// The generated crate's package name: `option` (the caller's), else `info.x-crate-name`, else
/// derived from `info.title`. A name given by the caller or the document must be one cargo
/// accepts and whose library name (`-` read as `_`) is a Rust identifier; anything else is an
/// error that says why.
pub(super) fn crate_name(doc: &Document, option: Option<&str>) -> Result<String> {
    if let Some(name) = option {
        check_package_name(name).map_err(|message| Error::Option {
            option: format!("crate name `{name}`"),
            message,
        })?;
        return Ok(name.to_string());
    }
    let info = doc.root.get("info");
    if let Some(value) = info.and_then(|i| i.get("x-crate-name")) {
        const AT: &str = "#/info/x-crate-name";
        let Some(name) = value.as_str() else {
            return Err(doc.spec_error(
                AT,
                "x-crate-name must be a string: the package name of the generated crate",
            ));
        };
        check_package_name(name)
            .map_err(|message| doc.spec_error(AT, format!("x-crate-name `{name}`: {message}")))?;
        return Ok(name.to_string());
    }
    let title = info
        .and_then(|i| i.get("title"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or("api");
    let name = heck::ToKebabCase::to_kebab_case(
        title
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
            .collect::<String>()
            .as_str(),
    );
    // Letters, digits and single dashes; it may still start with a digit, be empty, be too
    // long or be a keyword.
    let mut name = if name.is_empty()
        || name.starts_with(|c: char| c.is_ascii_digit())
        || is_keyword(&name)
        || is_builtin_crate(&name.replace('-', "_"))
    {
        format!("api-{name}").trim_end_matches('-').to_string()
    } else {
        name
    };
    if name.len() > MAX_PACKAGE_NAME {
        name.truncate(MAX_PACKAGE_NAME);
        name = name.trim_end_matches('-').to_string();
    }
    Ok(name)
}

/// The longest package name crates.io takes.
const MAX_PACKAGE_NAME: usize = 64;

/// Why `name` cannot be the package name of a generated crate, if it cannot: cargo's rules
/// (ASCII letters, digits, `-` and `_`, not starting with a digit; crates.io's 64 characters),
/// and the library name, `name` with `-` read as `_`, must be a Rust identifier that is not a
/// keyword, since the generated code and its documentation refer to the crate by it.
fn check_package_name(name: &str) -> std::result::Result<(), String> {
    const RULE: &str = "a package name is ASCII letters, digits, `-` and `_`, and starts with a \
                        letter or `_`";
    let Some(first) = name.chars().next() else {
        return Err(format!("the name is empty; {RULE}"));
    };
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(format!("the character {bad:?} is not allowed; {RULE}"));
    }
    if !(first.is_ascii_alphabetic() || first == '_') {
        return Err(format!("the name starts with {first:?}; {RULE}"));
    }
    if name.len() > MAX_PACKAGE_NAME {
        return Err(format!(
            "the name has {} characters; crates.io takes at most {MAX_PACKAGE_NAME}",
            name.len()
        ));
    }
    let library = name.replace('-', "_");
    if library == "_" || is_keyword(&library) {
        return Err(format!(
            "the crate would be called `{library}` in Rust, which is a keyword, not a name"
        ));
    }
    if is_builtin_crate(&library) {
        return Err(format!(
            "the crate would be called `{library}` in Rust, which is one of Rust's own crates: \
             its tests, and every crate that depends on it, would not build"
        ));
    }
    Ok(())
}

/// The crates every Rust program can name without depending on them (the sysroot's), which
/// a crate of the same name shadows: a generated crate called `test` breaks `#[test]` in
/// its own tests and in its dependents (cargo new refuses these names too).
fn is_builtin_crate(library: &str) -> bool {
    ["alloc", "core", "proc_macro", "std", "test"].contains(&library)
}

/// Rust's keywords, strict and reserved, in every edition.
fn is_keyword(word: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
        "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
        "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv",
        "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "try",
        "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
    ];
    KEYWORDS.contains(&word)
}
