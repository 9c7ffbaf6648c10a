//! JSON Lines records kept as one JSON document, as hand-written traffic often is: an array
//! of records (`[{"request": …}, {"request": …}]`), or records pretty-printed one after
//! another, each over as many lines as it takes.
//!
//! Each record is read exactly as a [JSON Lines](super::jsonl) line is, with the same fields,
//! findings and messages; its line is the one it starts on. The document is held whole, up to
//! [`Limits::max_entry`] bytes (a larger one stops with a [`TooLarge`]): such files are
//! written by hand, and streaming stays the JSON Lines and HAR readers' job. A record that is
//! not JSON (a comma left out) is one malformed entry at the line it starts on, and reading
//! goes on after its closing brace, found as the HAR reader finds a broken entry's: by
//! counting braces outside strings. Text whose end cannot be found so (a brace left out, the
//! input cut short) ends the reading with that malformed entry. A record holding a byte that
//! is not UTF-8 is malformed too, and the records around it are read.

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

use serde::de::IgnoredAny;

use super::nesting::Nesting;
use super::{BOM, Context, Limits, TooLarge, jsonl};
use crate::exchange::Entry;

/// Reads a document of records; see the [module documentation](self).
pub fn read(
    source_name: &str,
    reader: impl BufRead,
    webhook_paths: &[(String, String)],
    limits: Limits,
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    let context = Context {
        source: source_name,
        webhook_paths,
    };
    let mut bytes = Vec::new();
    reader
        .take(limits.max_entry as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > limits.max_entry {
        return Err(TooLarge {
            index: 0,
            line: Some(1),
            limit: limits.max_entry,
            place: "the JSON document of records".into(),
        }
        .into_io());
    }
    let bytes = bytes.strip_prefix(BOM).unwrap_or(&bytes);
    let (text, not_utf8) = lossy(bytes);
    Records {
        text: &text,
        not_utf8: &not_utf8,
        at: 0,
        index: 0,
        counted: (0, 1),
        context: &context,
    }
    .read(sink);
    Ok(())
}

/// The text of `bytes` with each sequence that is not UTF-8 replaced by U+FFFD (lines stay
/// where they were), and where each was: its offset in the text and its first byte. The
/// records around such a byte are read; the one holding it is malformed.
fn lossy(bytes: &[u8]) -> (Cow<'_, str>, Vec<(usize, u8)>) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(text), Vec::new());
    }
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut not_utf8 = Vec::new();
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if let Some(&first) = chunk.invalid().first() {
            not_utf8.push((text.len(), first));
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    (Cow::Owned(text), not_utf8)
}

struct Records<'t> {
    text: &'t str,
    /// Where the input was not UTF-8 ([`lossy`]).
    not_utf8: &'t [(usize, u8)],
    at: usize,
    index: usize,
    /// A byte offset and its line: lines are counted on from there, never from the start.
    counted: (usize, usize),
    context: &'t Context<'t>,
}

impl Records<'_> {
    fn read(mut self, sink: &mut dyn FnMut(Entry)) {
        self.skip_whitespace();
        let in_array = self.text[self.at..].starts_with('[');
        if in_array {
            self.at += 1;
        }
        loop {
            self.skip_whitespace();
            if in_array && self.text[self.at..].starts_with(']') {
                self.at += 1;
                self.skip_whitespace();
                if self.at < self.text.len() {
                    sink(self.malformed("text after the array of records"));
                }
                return;
            }
            if self.at == self.text.len() {
                if in_array {
                    sink(self.malformed("the array of records is not closed (`]`)"));
                }
                return;
            }
            if !self.record(sink) {
                return;
            }
            if in_array {
                self.skip_whitespace();
                match self.text[self.at..].chars().next() {
                    Some(',') => {
                        self.at += 1;
                        self.skip_whitespace();
                        // A comma too many (`},,{`): said once, and the records after it read.
                        if self.text[self.at..].starts_with(',') {
                            sink(self.malformed("more than one `,` between records"));
                            self.index += 1;
                            while self.text[self.at..].starts_with(',') {
                                self.at += 1;
                                self.skip_whitespace();
                            }
                        }
                    }
                    Some(']') => {}
                    // The comma between two records left out: said, and the next read.
                    Some('{') => {
                        sink(self.malformed("expected `,` between records"));
                        self.index += 1;
                    }
                    None => {
                        sink(self.malformed("the array of records is not closed (`]`)"));
                        return;
                    }
                    Some(_) => {
                        sink(self.malformed("expected `,` or `]` after a record"));
                        return;
                    }
                }
            }
        }
    }

    /// The record at `at`, handed to `sink`; `false` when the text is not JSON there.
    fn record(&mut self, sink: &mut dyn FnMut(Entry)) -> bool {
        let rest = &self.text[self.at..];
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<IgnoredAny>();
        match values.next() {
            Some(Ok(IgnoredAny)) => {
                let end = values.byte_offset();
                let line = self.line();
                if let Some(malformed) = self.not_utf8_within(end) {
                    sink(malformed);
                    self.index += 1;
                    self.at += end;
                    return true;
                }
                sink(jsonl::record(
                    &rest.as_bytes()[..end],
                    self.index,
                    line,
                    self.context,
                ));
                self.index += 1;
                self.at += end;
                true
            }
            Some(Err(err)) if err.is_eof() => {
                // The text ends inside the record: serde_json's place is past the last line
                // (column 0), so the record is told by the line it starts on.
                let message = format!(
                    "the input ends inside the record that starts here: {}",
                    super::bare_message(&err)
                );
                sink(
                    self.context
                        .malformed(self.index, Some(self.line()), message),
                );
                false
            }
            Some(Err(err)) => {
                // The records after it are read when its own end is found.
                let end = Nesting::length(rest.as_bytes());
                let not_utf8 = end.and_then(|end| self.not_utf8_within(end));
                let malformed = not_utf8.unwrap_or_else(|| {
                    let line = self.line() + err.line().saturating_sub(1);
                    let message = format!(
                        "line {line}, column {}: {}",
                        err.column(),
                        super::bare_message(&err)
                    );
                    self.context.malformed(self.index, Some(line), message)
                });
                sink(malformed);
                let Some(end) = end else {
                    return false;
                };
                self.index += 1;
                self.at += end;
                true
            }
            None => false,
        }
    }

    /// The malformed entry of the record at `at`, `len` bytes long, when it holds a byte
    /// that is not UTF-8 (a Latin-1 `é`): told by the record's line and the byte's.
    fn not_utf8_within(&mut self, len: usize) -> Option<Entry> {
        let &(offset, byte) = self
            .not_utf8
            .iter()
            .find(|(offset, _)| (self.at..self.at + len).contains(offset))?;
        let line = self.line();
        let byte_line = line + line_at(&self.text.as_bytes()[self.at..], offset - self.at) - 1;
        Some(self.context.malformed(
            self.index,
            Some(line),
            format!("line {byte_line}: not valid UTF-8 (byte 0x{byte:02X})"),
        ))
    }

    fn skip_whitespace(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    /// The line `at` is on, from 1.
    fn line(&mut self) -> usize {
        let (from, line) = self.counted;
        let line = line + line_at(&self.text.as_bytes()[from..], self.at - from) - 1;
        self.counted = (self.at, line);
        line
    }

    fn malformed(&mut self, what: &str) -> Entry {
        let line = self.line();
        self.context
            .malformed(self.index, Some(line), format!("line {line}: {what}"))
    }
}

fn line_at(bytes: &[u8], at: usize) -> usize {
    1 + bytes[..at].iter().filter(|&&byte| byte == b'\n').count()
}
