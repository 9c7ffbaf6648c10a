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
    /// JSON Lines records as one JSON document: an array of them, or records written one
    /// after another over several lines each (see [`records`](super::records)).
    JsonRecords,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Har => "HAR",
            Format::JsonLines => "JSON Lines",
            Format::JsonRecords => "JSON records",
        })
    }
}

/// Guesses the format of a traffic file.
///
/// `.har` (case-insensitive) is [`Format::Har`]. Otherwise by the first bytes of the
/// content: an array (`[`) is [`Format::JsonRecords`], records in a JSON document, as
/// hand-written traffic is often kept; so is an object pretty-printed over several lines (a
/// lone `{` on its first line, which no JSON Lines record can be) whose first member is a
/// record's (`id`, `kind`, `request`, `response`). A pretty-printed object whose first key
/// is `"log"` is HAR whatever the name (a HAR saved as `.jsonl`; no record has a `log`), and
/// so is any other pretty-printed object, and a one-line object whose first key is `"log"`,
/// unless the name says JSON Lines (`.jsonl`, `.ndjson`). Everything else is JSON Lines.
pub fn detect(path: &str, first_bytes: &[u8]) -> Format {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    // `traffic.har.gz` is read decompressed: its name without `.gz` says what it holds.
    let name = match name.len().checked_sub(3) {
        Some(cut) if name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(".gz") => {
            &name[..cut]
        }
        _ => name,
    };
    let extension = name.rsplit_once('.').map(|(_, ext)| ext);
    if extension.is_some_and(|ext| ext.eq_ignore_ascii_case("har")) {
        return Format::Har;
    }
    let lines_by_name = extension
        .is_some_and(|ext| ext.eq_ignore_ascii_case("jsonl") || ext.eq_ignore_ascii_case("ndjson"));
    let bytes = first_bytes.strip_prefix(BOM).unwrap_or(first_bytes);
    let bytes = trim_start(bytes);
    if bytes.starts_with(b"[") {
        return Format::JsonRecords;
    }
    let Some(rest) = bytes.strip_prefix(b"{") else {
        return Format::JsonLines;
    };
    // A lone `{` on the first line: a pretty-printed object.
    let line_end = rest.iter().position(|&b| b == b'\n');
    if let Some(end) = line_end
        && rest[..end].iter().all(u8::is_ascii_whitespace)
    {
        let first_key = trim_start(rest);
        // A HAR saved under a JSON Lines name is still a HAR: no record has a `log`.
        if first_key.starts_with(b"\"log\"") {
            return Format::Har;
        }
        let is_record = RECORD_KEYS
            .iter()
            .any(|key| first_key.starts_with(format!("\"{key}\"").as_bytes()));
        return match (is_record, lines_by_name) {
            (true, _) | (false, true) => Format::JsonRecords,
            (false, false) => Format::Har,
        };
    }
    if lines_by_name {
        return Format::JsonLines;
    }
    match trim_start(rest).strip_prefix(b"\"log\"") {
        Some(after) if matches!(trim_start(after).first(), Some(b':') | None) => Format::Har,
        _ => Format::JsonLines,
    }
}

/// The members a JSON Lines record may begin with.
const RECORD_KEYS: [&str; 4] = ["id", "kind", "request", "response"];

fn trim_start(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    &bytes[start..]
}
