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
    let name = title_words(title).join("-");
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

/// The words of a title, lower case, as a package name spells them: split at whatever is not
/// an ASCII letter or digit and where camel case starts a word (`PetStore`: `pet`, `store`;
/// `HTTPServer`: `http`, `server`), but not inside an acronym: a plural one (`APIs`, `URLs`),
/// one with a version (`APIv2`) or one of two letters before its word (`OAuth`), which heck's
/// kebab case cut into `ap-is`, `ap-iv2` and `o-auth`.
fn title_words(title: &str) -> Vec<String> {
    // Transliterated first, so that `Héaders` reads `Headers`, not `h-aders`; an apostrophe
    // joins (`Netlify's` is `netlifys`).
    let title = deunicode::deunicode(title).replace(['\'', '`'], "");
    let mut words = Vec::new();
    for chunk in title.split(|c: char| !c.is_ascii_alphanumeric()) {
        let chars: Vec<char> = chunk.chars().collect();
        let mut word = String::new();
        for (at, &c) in chars.iter().enumerate() {
            let before = at.checked_sub(1).map(|i| chars[i]);
            let starts_word = c.is_ascii_uppercase()
                && match before {
                    // A capital that begins a lower-case word: `PetStore`, not `IoT`, `IoE2`.
                    Some(b) if b.is_ascii_lowercase() || b.is_ascii_digit() => {
                        chars.get(at + 1).is_some_and(char::is_ascii_lowercase)
                    }
                    // The last capital of a run of three or more that a lower-case word of
                    // two letters or more follows: `HTTPServer`, not `APIs`, `APIv2`, `OAuth`.
                    Some(b) if b.is_ascii_uppercase() => {
                        let run = chars[..at]
                            .iter()
                            .rev()
                            .take_while(|c| c.is_ascii_uppercase())
                            .count();
                        let lower = |i: usize| chars.get(i).is_some_and(char::is_ascii_lowercase);
                        run >= 2 && lower(at + 1) && lower(at + 2)
                    }
                    _ => false,
                };
            if starts_word && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
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

#[cfg(test)]
mod tests {
    use super::title_words;

    #[test]
    fn titles_read_as_words_acronyms_whole() {
        let name = |title: &str| title_words(title).join("-");
        assert_eq!(
            name("Payment Orchestration API"),
            "payment-orchestration-api"
        );
        assert_eq!(name("Swagger PetStore"), "swagger-pet-store");
        assert_eq!(name("HTTPServer"), "http-server");
        assert_eq!(name("Finance APIs"), "finance-apis");
        assert_eq!(name("Fulfillment.com APIv2"), "fulfillment-com-apiv2");
        assert_eq!(name("OAuth2 Service"), "oauth2-service");
        assert_eq!(name("URLs and IDs"), "urls-and-ids");
        assert_eq!(name("D&D 5e API"), "d-d-5e-api");
        assert_eq!(name("v2Beta"), "v2-beta");
        assert_eq!(name("  --  "), "");
        assert_eq!(name("Géolocalisation API"), "geolocalisation-api");
        assert_eq!(name("Netlify's API"), "netlifys-api");
        assert_eq!(name("IoE² IoT"), "ioe2-iot");
    }
}
