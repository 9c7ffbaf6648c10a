//! Which format a traffic file is in, from its name or its first bytes.

use std::fmt;

use super::BOM;

/// A traffic file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// HTTP Archive 1.2: one JSON object, entries under `log.entries`.
    Har,
    /// One JSON object per line (see [`jsonl`](super::jsonl)).
    JsonLines,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Har => "HAR",
            Format::JsonLines => "JSON Lines",
        })
    }
}

/// Guesses the format of a traffic file.
///
/// By extension first (case-insensitive): `.har` is [`Format::Har`]; `.jsonl` and `.ndjson`
/// are [`Format::JsonLines`]. Otherwise (any other name, or `-` for standard input) by the
/// first bytes of the content: an object whose first key is `"log"`, or whose first line is
/// a lone `{` (a pretty-printed object, which cannot be a JSON Lines record), is HAR;
/// anything else is JSON Lines.
pub fn detect(path: &str, first_bytes: &[u8]) -> Format {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    if let Some((_, ext)) = name.rsplit_once('.') {
        if ext.eq_ignore_ascii_case("har") {
            return Format::Har;
        }
        if ext.eq_ignore_ascii_case("jsonl") || ext.eq_ignore_ascii_case("ndjson") {
            return Format::JsonLines;
        }
    }
    let bytes = first_bytes.strip_prefix(BOM).unwrap_or(first_bytes);
    let bytes = trim_start(bytes);
    let Some(rest) = bytes.strip_prefix(b"{") else {
        return Format::JsonLines;
    };
    // A lone `{` on the first line: a pretty-printed object.
    let line_end = rest.iter().position(|&b| b == b'\n');
    if let Some(end) = line_end
        && rest[..end].iter().all(u8::is_ascii_whitespace)
    {
        return Format::Har;
    }
    match trim_start(rest).strip_prefix(b"\"log\"") {
        Some(after) if matches!(trim_start(after).first(), Some(b':') | None) => Format::Har,
        _ => Format::JsonLines,
    }
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    &bytes[start..]
}
