//! Cutting a JSON Lines input into chunks of whole lines, found with `memchr` and copied in
//! bulk, not parsed yet: parsing happens elsewhere (in parallel, in a run).

use std::io::{self, BufRead};

use crate::exchange::Entry;
use crate::read::{BOM, Context, Limits, TooLarge};

/// Whole lines of a JSON Lines file in one buffer, not parsed yet, so that parsing can happen
/// elsewhere (in parallel) and no line costs an allocation of its own.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    /// The lines, one after another, each with its line break.
    pub(crate) bytes: Vec<u8>,
    /// The non-blank ones.
    pub(crate) lines: Vec<LineAt>,
}

/// Where a non-blank line is in its [`Chunk`], and which it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineAt {
    start: usize,
    end: usize,
    /// Its index among the records of the file (blank lines do not count).
    pub(crate) index: usize,
    /// Its 1-based line number.
    pub(crate) line: usize,
}

impl Chunk {
    /// The bytes of a line of this chunk (a byte order mark at the start of the file left out).
    pub(crate) fn line(&self, at: &LineAt) -> &[u8] {
        &self.bytes[at.start..at.end]
    }
}

/// How large a [`Chunk`] gets before [`split`] hands it over: whichever comes first (a line
/// is never cut, so one long line makes a chunk of its own, up to [`Limits::max_entry`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChunkSizes {
    /// Non-blank lines.
    pub(crate) lines: usize,
    /// Bytes.
    pub(crate) bytes: usize,
}

/// What [`split`] yields: lines to parse, or an entry already decided (a read error, last).
pub(crate) enum Split {
    Lines(Chunk),
    Entry(Box<Entry>),
}

/// Splits a JSON Lines file into chunks of whole lines, without parsing them: the line breaks
/// are found with `memchr` in what the reader has buffered and copied in bulk, so the thread
/// that reads does little per line. A line longer than `limits.max_entry` ends the file with a
/// [`TooLarge`] (after the lines before it have been handed over), and is never held whole.
pub(crate) fn split(
    source_name: &str,
    mut reader: impl BufRead,
    limits: Limits,
    sizes: ChunkSizes,
    sink: &mut dyn FnMut(Split),
) -> io::Result<()> {
    let context = Context {
        source: source_name,
        webhook_paths: &[],
    };
    let mut splitter = Splitter {
        chunk: Chunk::default(),
        partial: 0,
        line: 0,
        index: 0,
        sizes,
    };
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) if splitter.line == 0 && splitter.partial_len() == 0 => return Err(err),
            Err(err) => {
                let message = format!("line {}: read error, stopped: {err}", splitter.line + 1);
                let entry = context.malformed(splitter.index, Some(splitter.line + 1), message);
                splitter.finish(false, sink);
                sink(Split::Entry(Box::new(entry)));
                return Ok(());
            }
        };
        if available.is_empty() {
            splitter.finish(true, sink);
            return Ok(());
        }
        let mut taken = 0;
        for at in memchr::memchr_iter(b'\n', available) {
            let piece = &available[taken..=at];
            if splitter.partial_len() + piece.len() > limits.max_entry {
                return Err(splitter.too_large(limits, sink));
            }
            splitter.chunk.bytes.extend_from_slice(piece);
            taken = at + 1;
            splitter.end_line(sink);
        }
        let rest = &available[taken..];
        if splitter.partial_len() + rest.len() > limits.max_entry {
            return Err(splitter.too_large(limits, sink));
        }
        splitter.chunk.bytes.extend_from_slice(rest);
        let consumed = available.len();
        reader.consume(consumed);
    }
}

/// The state of [`split`].
struct Splitter {
    chunk: Chunk,
    /// Where the line being read starts in `chunk.bytes`.
    partial: usize,
    /// Lines ended so far (blank ones included).
    line: usize,
    /// Non-blank lines so far.
    index: usize,
    sizes: ChunkSizes,
}

impl Splitter {
    /// Bytes of the line being read so far.
    fn partial_len(&self) -> usize {
        self.chunk.bytes.len() - self.partial
    }

    /// The line being read ends at the end of `chunk.bytes`; hands the chunk over when full.
    fn end_line(&mut self, sink: &mut dyn FnMut(Split)) {
        self.line += 1;
        let mut start = self.partial;
        let end = self.chunk.bytes.len();
        self.partial = end;
        if self.line == 1 && self.chunk.bytes[start..end].starts_with(BOM) {
            start += BOM.len();
        }
        if self.chunk.bytes[start..end]
            .iter()
            .all(u8::is_ascii_whitespace)
        {
            return;
        }
        self.chunk.lines.push(LineAt {
            start,
            end,
            index: self.index,
            line: self.line,
        });
        self.index += 1;
        if self.chunk.lines.len() >= self.sizes.lines || end >= self.sizes.bytes {
            self.hand_over(sink);
        }
    }

    /// Hands the complete lines over (the chunk holds no partial line when called).
    fn hand_over(&mut self, sink: &mut dyn FnMut(Split)) {
        // About the size of the last one: a long line does not make every chunk after it large.
        let next = Chunk {
            bytes: Vec::with_capacity(self.chunk.bytes.len().min(self.sizes.bytes) + (64 << 10)),
            lines: Vec::with_capacity(self.chunk.lines.len().min(self.sizes.lines)),
        };
        let chunk = std::mem::replace(&mut self.chunk, next);
        self.partial = 0;
        if !chunk.lines.is_empty() {
            sink(Split::Lines(chunk));
        }
    }

    /// The input ended (`complete`: a last line without a line break is a line), or
    /// stopped (what was read of the line being read is dropped).
    fn finish(&mut self, complete: bool, sink: &mut dyn FnMut(Split)) {
        if complete && self.partial_len() > 0 {
            self.end_line(sink);
        }
        self.chunk.bytes.truncate(self.partial);
        self.hand_over(sink);
    }

    /// A line over the limit: the lines before it are handed over; its error.
    fn too_large(&mut self, limits: Limits, sink: &mut dyn FnMut(Split)) -> io::Error {
        self.finish(false, sink);
        TooLarge {
            index: self.index,
            line: Some(self.line + 1),
            limit: limits.max_entry,
            place: format!("line {}", self.line + 1),
        }
        .into_io()
    }
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use super::*;

    /// `(index, line number, bytes)` of each line read.
    type Lines = Vec<(usize, usize, Vec<u8>)>;

    /// What a plain reading of the file gives: each line (up to and including `\n`, the last
    /// one without), the byte order mark left out of the first, blank lines skipped; then the
    /// line over the limit, if any. `(index, line, bytes)`.
    fn expected(input: &[u8], limit: usize) -> (Lines, Option<usize>) {
        let mut lines = Vec::new();
        let (mut index, mut number) = (0, 0);
        let mut rest = input;
        while !rest.is_empty() {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |at| at + 1);
            let (line, after) = rest.split_at(end);
            rest = after;
            if line.len() > limit {
                return (lines, Some(number + 1));
            }
            number += 1;
            let line = match line.strip_prefix(BOM) {
                Some(stripped) if number == 1 => stripped,
                _ => line,
            };
            if !line.iter().all(u8::is_ascii_whitespace) {
                lines.push((index, number, line.to_vec()));
                index += 1;
            }
        }
        (lines, None)
    }

    fn split_all(
        input: &[u8],
        limit: usize,
        sizes: ChunkSizes,
        buffer: usize,
    ) -> (Lines, Option<usize>, usize) {
        let mut lines = Vec::new();
        let mut chunks = 0;
        let reader = BufReader::with_capacity(buffer, input);
        let limits = Limits { max_entry: limit };
        let result = split("t.jsonl", reader, limits, sizes, &mut |item| match item {
            Split::Lines(chunk) => {
                chunks += 1;
                assert!(!chunk.lines.is_empty(), "an empty chunk was handed over");
                for at in &chunk.lines {
                    lines.push((at.index, at.line, chunk.line(at).to_vec()));
                }
            }
            Split::Entry(entry) => panic!("unexpected entry {entry:?}"),
        });
        let too_large = result.err().map(|err| {
            let large = TooLarge::of(&err).expect("a TooLarge");
            large.line.expect("a line")
        });
        (lines, too_large, chunks)
    }

    #[test]
    fn chunks_hold_the_lines_a_plain_reading_finds_whatever_their_size() {
        let inputs: [&[u8]; 7] = [
            b"{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n",
            b"\xEF\xBB\xBF{\"a\":1}\n\n  \n{\"b\":2}\r\n{\"c\":3}",
            b"\n\n\n{\"a\":1}\n\t\n{\"bb\":22}\n\n",
            b"{\"a\":1}\n{\"long\":\"0123456789012345678901234567890123456789\"}\n{\"c\":3}\n",
            b"",
            b"   ",
            b"x\ny\n\xEF\xBB\xBFz",
        ];
        let sizes = [(1, 1 << 20), (2, 1 << 20), (1024, 1), (1024, 20), (3, 40)];
        for input in inputs {
            for limit in [1 << 20, 60, 12, 9, 1] {
                let (want, want_large) = expected(input, limit);
                for (lines, bytes) in sizes {
                    for buffer in [1, 2, 7, 1 << 16] {
                        let sizes = ChunkSizes { lines, bytes };
                        let (got, large, chunks) = split_all(input, limit, sizes, buffer);
                        let case = format!(
                            "{:?}, limit {limit}, {lines} lines or {bytes} bytes, buffer {buffer}",
                            String::from_utf8_lossy(input)
                        );
                        assert_eq!(got, want, "{case}");
                        assert_eq!(large, want_large, "{case}");
                        if lines == 1 {
                            assert_eq!(chunks, want.len(), "one line a chunk: {case}");
                        }
                    }
                }
            }
        }
    }
}
