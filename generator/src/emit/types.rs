//! How an IR type reference is spelled in Rust.

use std::borrow::Cow;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::error::{Error, Result};
use crate::ir::{Scalar, TypeRef};

/// An identifier the naming pass has already made Rust-safe.
pub(crate) fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The Rust type for a reference. Types in the crate are named relative to `models`; std
/// prelude names are never shadowed (the naming pass reserves them).
pub(crate) fn rust_type(ty: &TypeRef, models: &TokenStream) -> Result<TokenStream> {
    rust_type_at(ty, models, &quote!(super::support::))
}

/// [`rust_type`], with the crate's support types under `support` (`my_api::support::` where
/// the type is written outside the crate: a rustdoc example, compiled as another crate).
pub(crate) fn rust_type_at(
    ty: &TypeRef,
    models: &TokenStream,
    support: &TokenStream,
) -> Result<TokenStream> {
    Ok(match ty {
        TypeRef::Named(name) => {
            let name = ident(name);
            quote!(#models #name)
        }
        TypeRef::Scalar(scalar) => scalar_type_at(*scalar, support),
        TypeRef::Array(inner) => {
            let inner = rust_type_at(inner, models, support)?;
            quote!(Vec<#inner>)
        }
        TypeRef::Map(inner) => {
            let inner = rust_type_at(inner, models, support)?;
            quote!(::std::collections::BTreeMap<String, #inner>)
        }
        TypeRef::Object => quote!(::serde_json::Map<String, ::serde_json::Value>),
        TypeRef::Any => quote!(::serde_json::Value),
        TypeRef::Nullable(inner) => {
            let inner = rust_type_at(inner, models, support)?;
            quote!(Option<#inner>)
        }
        TypeRef::Pointer(pointer) => {
            return Err(Error::Emit {
                file: "models".into(),
                message: format!("the type of {pointer} was never named"),
            });
        }
        TypeRef::Custom(path) => {
            let parsed: syn::Type = syn::parse_str(path).map_err(|err| Error::Emit {
                file: "models".into(),
                message: format!("type override `{path}` is not a Rust type: {err}"),
            })?;
            quote!(#parsed)
        }
    })
}

/// The Rust type of a scalar.
pub(crate) fn scalar_type(scalar: Scalar) -> TokenStream {
    scalar_type_at(scalar, &quote!(super::support::))
}

/// [`scalar_type`], with the crate's support types under `support`.
fn scalar_type_at(scalar: Scalar, support: &TokenStream) -> TokenStream {
    match scalar {
        Scalar::String => quote!(String),
        Scalar::Bool => quote!(bool),
        Scalar::I32 => quote!(i32),
        Scalar::I64 => quote!(i64),
        Scalar::U64 => quote!(u64),
        Scalar::F64 => quote!(f64),
        Scalar::Decimal => quote!(#support Decimal),
        Scalar::Uuid => quote!(::uuid::Uuid),
        Scalar::DateTime => quote!(#support DateTime),
        Scalar::Date => quote!(#support Date),
        Scalar::Base64 => quote!(#support Base64),
    }
}

/// Rustdoc attributes for a text, one `#[doc]` per line so prettyplease prints `///` lines.
pub(crate) fn doc_attrs(docs: Option<&str>) -> TokenStream {
    let Some(docs) = docs else {
        return TokenStream::new();
    };
    let lines = doc_lines(docs)
        .into_iter()
        .map(|line| quote!(#[doc = #line]));
    quote!(#(#lines)*)
}

/// A description as rustdoc lines. Markdown is kept, made tidy where rustdoc and clippy care:
/// the continuation lines of a list item are indented to the item's text (a lazy or
/// over-indented continuation is a clippy warning), other indentation is capped at three
/// spaces (enough for nested lists, too little for an indented code block), and bare code
/// fences are marked as text: a description is not Rust, and rustdoc would otherwise run such
/// blocks as doctests.
pub(crate) fn doc_lines(docs: &str) -> Vec<String> {
    // The character and length of the run that opened the code block the line is in.
    let mut fence: Option<(char, usize)> = None;
    // The column of the current list item's text, while its paragraph goes on.
    let mut item_text: Option<usize> = None;
    // The column of the last list item's text, across blank lines: an indented paragraph
    // after one belongs to the item, and clippy wants it at that column.
    let mut list_column: Option<usize> = None;
    // Inside a block quote, whose lazy continuation lines get their `>` written out.
    let mut in_quote = false;
    // A lone carriage return ends a line as a newline does (old Mac text, pasted into some
    // specs' descriptions): rustc refuses a bare CR in a doc comment.
    let docs = if docs.contains('\r') {
        Cow::Owned(docs.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(docs)
    };
    docs.lines()
        .map(|raw| {
            // Tabs count as four spaces, as Markdown reads them (clippy flags tabs in docs).
            let spaced;
            let raw = if raw.contains('\t') {
                spaced = raw.replace('\t', "    ");
                spaced.as_str()
            } else {
                raw
            };
            let line = raw.trim();
            let indent = raw.len() - raw.trim_start().len();
            if let Some((marker, info)) = fence_line(line) {
                match fence {
                    None => {
                        fence = marker.chars().next().map(|mark| (mark, marker.len()));
                        item_text = None;
                        if rustdoc_would_run(info) {
                            return format!(" {marker}text");
                        }
                        return format!(" {line}");
                    }
                    // Closed only by the same character, at least as many, and nothing after
                    // (CommonMark 4.5): a ``` line inside a ~~~ block is the block's text.
                    Some((mark, length))
                        if marker.starts_with(mark)
                            && marker.len() >= length
                            && info.is_empty() =>
                    {
                        fence = None;
                        return format!(" {line}");
                    }
                    Some(_) => {}
                }
            }
            if fence.is_some() {
                return format!(" {}", raw.trim_end());
            }
            if line.is_empty() {
                item_text = None;
                in_quote = false;
                return String::new();
            }
            if line.starts_with('>') {
                in_quote = true;
                item_text = None;
                return format!(" {line}");
            }
            let linked = autolinked(line);
            let line = linked.as_ref();
            if in_quote {
                return format!(" > {line}");
            }
            if let Some(marker) = list_marker(line) {
                let indent = indent.min(3);
                item_text = Some(indent + marker);
                list_column = item_text;
                return format!(" {}{line}", " ".repeat(indent));
            }
            match (item_text, list_column) {
                (Some(column), _) => format!(" {}{line}", " ".repeat(column)),
                (None, Some(column)) if indent > 0 => {
                    item_text = Some(column);
                    format!(" {}{line}", " ".repeat(column))
                }
                _ => {
                    list_column = None;
                    format!(" {}{line}", " ".repeat(indent.min(3)))
                }
            }
        })
        .collect()
}

/// A code fence (CommonMark 4.5): three or more backticks or tildes, then the info string
/// (which a backtick fence may not hold a backtick in). The run and the info string, trimmed.
fn fence_line(line: &str) -> Option<(&str, &str)> {
    let mark = line.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let run = line.len() - line.trim_start_matches(mark).len();
    let (marker, info) = line.split_at(run);
    (run >= 3 && !(mark == '`' && info.contains('`'))).then(|| (marker, info.trim()))
}

/// Whether rustdoc would compile a code block with this info string as a doctest: it takes
/// one for Rust unless a word of the string names something else (`json`, `text`, `sh`).
fn rustdoc_would_run(info: &str) -> bool {
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .all(|word| {
            matches!(
                word,
                "rust"
                    | "ignore"
                    | "should_panic"
                    | "no_run"
                    | "compile_fail"
                    | "test_harness"
                    | "standalone_crate"
            ) || word.starts_with("edition")
        })
}

/// `line` with each bare URL (`see https://example.com/docs.`) made an autolink
/// (`<https://example.com/docs>`), which rustdoc warns about otherwise (`rustdoc::bare_urls`,
/// a failure where docs are built with warnings denied). URLs already in a link, in angle
/// brackets, in quotes or in a code span are left as they are.
fn autolinked(line: &str) -> Cow<'_, str> {
    if !line.contains("http://") && !line.contains("https://") {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    let mut in_code = false;
    while !rest.is_empty() {
        let next_url = ["http://", "https://"]
            .iter()
            .filter_map(|scheme| rest.find(scheme))
            .min();
        let Some(at) = next_url else {
            out.push_str(rest);
            break;
        };
        let before = &rest[..at];
        in_code ^= before.matches('`').count() % 2 == 1;
        out.push_str(before);
        let end = rest[at..]
            .find(|c: char| c.is_whitespace() || "<>\"'`)]".contains(c))
            .map_or(rest.len(), |len| at + len);
        let mut url = &rest[at..end];
        url = url.trim_end_matches(['.', ',', ';', ':', '!', '?']);
        let quoted = out
            .chars()
            .last()
            .is_some_and(|c| matches!(c, '<' | '(' | '[' | '"' | '\'' | '=' | '`'));
        if in_code || quoted || url.len() <= "https://".len() {
            out.push_str(url);
        } else {
            out.push('<');
            out.push_str(url);
            out.push('>');
        }
        rest = &rest[at + url.len()..];
    }
    Cow::Owned(out)
}

/// The width of a Markdown list marker starting `line` with the spaces after it, i.e. the
/// column of the item's text (`- a` → 2, `*   a` → 4, `10. a` → 4).
fn list_marker(line: &str) -> Option<usize> {
    let marker = if line.starts_with(['-', '*', '+']) {
        1
    } else {
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        let delimited = line[digits..].starts_with(['.', ')']);
        if digits == 0 || digits > 9 || !delimited {
            return None;
        }
        digits + 1
    };
    let spaces = line[marker..].chars().take_while(|c| *c == ' ').count();
    // CommonMark: one to four spaces; more start an indented code block in the item.
    (1..=4).contains(&spaces).then_some(marker + spaces)
}

#[cfg(test)]
mod tests {
    use super::doc_lines;

    /// A bare URL is an autolink, as rustdoc wants (`rustdoc::bare_urls`: IoT Hub's
    /// descriptions gave 16 warnings); one already linked, quoted or in code is kept.
    #[test]
    fn a_bare_url_becomes_an_autolink() {
        assert_eq!(
            doc_lines("See https://aka.ms/iothub. Or [this](https://x.io/a) and <https://y.io>."),
            vec![" See <https://aka.ms/iothub>. Or [this](https://x.io/a) and <https://y.io>."]
        );
        assert_eq!(
            doc_lines(
                "Call `curl https://api.example.com/v1` or \"http://q.example\" then http://a.b/c?d=1, done"
            ),
            vec![
                " Call `curl https://api.example.com/v1` or \"http://q.example\" then <http://a.b/c?d=1>, done"
            ]
        );
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line() {
        assert_eq!(
            doc_lines("Format:\r{\r  \"a\": 1\r}\r\nDone."),
            vec![" Format:", " {", "   \"a\": 1", " }", " Done."]
        );
    }

    #[test]
    fn list_continuations_are_indented_to_the_item_text() {
        let docs = "Access:\n\n* `open` - anyone\n* `collaborators` - people who are\n   collaborators here\n1. first line\nsecond line\n*   wide marker\ncontinued\n\nAfter the list.";
        assert_eq!(
            doc_lines(docs),
            vec![
                " Access:",
                "",
                " * `open` - anyone",
                " * `collaborators` - people who are",
                "   collaborators here",
                " 1. first line",
                "    second line",
                " *   wide marker",
                "     continued",
                "",
                " After the list.",
            ]
        );
    }

    /// Linode's shape: an indented block after a blank line inside a list item was indented
    /// past the item's text (clippy's `doc_overindented_list_items`).
    #[test]
    fn an_indented_paragraph_after_a_blank_line_in_a_list_item_keeps_to_its_text() {
        let docs = "- Upload with PUT. For example:\n\n      curl -v \\\n        -H x\n\nAfter.";
        assert_eq!(
            doc_lines(docs),
            vec![
                " - Upload with PUT. For example:",
                "",
                "   curl -v \\",
                "   -H x",
                "",
                " After.",
            ]
        );
    }

    #[test]
    fn tabs_become_spaces() {
        assert_eq!(doc_lines("a\tb\n\t- item"), vec![" a    b", "    - item"]);
    }

    #[test]
    fn block_quote_continuations_get_their_marker() {
        assert_eq!(
            doc_lines("Intro.\n> A note,\nstill the note.\n\nAfter."),
            vec![" Intro.", " > A note,", " > still the note.", "", " After."]
        );
    }

    #[test]
    fn every_fence_rustdoc_would_run_is_text() {
        let docs = "~~~\nlet a = 1;\n```\nstill ~~~'s\n~~~\n````rust,ignore\nx\n````\n\
                    ```json\n{}\n```\n~~~~ sh\nls\n~~~ not a close\n~~~~";
        assert_eq!(
            doc_lines(docs),
            vec![
                " ~~~text",
                " let a = 1;",
                " ```",
                " still ~~~'s",
                " ~~~",
                " ````text",
                " x",
                " ````",
                " ```json",
                " {}",
                " ```",
                " ~~~~ sh",
                " ls",
                " ~~~ not a close",
                " ~~~~",
            ]
        );
    }

    #[test]
    fn fences_are_text_and_keep_their_indentation() {
        assert_eq!(
            doc_lines("```\n{\n    \"a\": 1\n}\n```\n    indented prose"),
            vec![
                " ```text",
                " {",
                "     \"a\": 1",
                " }",
                " ```",
                "    indented prose"
            ]
        );
    }
}
