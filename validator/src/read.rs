//! Traffic readers: turn a recorded-traffic file into [`Entry`]s, one at a time.
//!
//! Two formats are read, both streamed (an entry reaches the sink as soon as it has been
//! read; the file is never held as one value tree):
//!
//! - [HAR 1.2](har) (`.har`), as browsers, proxies and HTTP toolkits export it;
//! - [JSON Lines](jsonl) (`.jsonl`, `.ndjson`), one exchange per line, for tools that record
//!   traffic themselves.
//!
//! and, for traffic written by hand, [JSON Lines records as one JSON document](records): an
//! array of them, or pretty-printed one after another (held whole, up to the entry limit).
//!
//! Whatever cannot be read as an exchange (bad JSON, a field of the wrong shape, a cut-off
//! file, invalid UTF-8, nesting deeper than serde_json's limit of 128) becomes a
//! [`Malformed`] entry and reading goes on where it can. Bodies are never parsed here, except
//! a JSON Lines `body` given as a JSON value.
//!
//! Common rules of both formats:
//!
//! - The method is uppercased. The path is kept as recorded (percent-encoded, without the
//!   query string or fragment); the query is percent-decoded (`+` is a space).
//! - An empty body text is no body. A base64 body that decodes to UTF-8 is
//!   [`Body::Text`](crate::exchange::Body::Text), otherwise
//!   [`Body::Binary`](crate::exchange::Body::Binary).
//! - A response with status `0` (HAR's "no response", e.g. an aborted request) is no
//!   response.
//! - An exchange whose method is that of one of the `webhook_paths` and whose path ends with
//!   its path template (on any host, after any base path of the receiver:
//!   `https://merchant/hooks/v1/banking/transfers`) is a [`ExchangeKind::Notification`],
//!   every other one an [`ExchangeKind::Operation`] (a JSON Lines record can also say which
//!   it is). The rule is the contract's, [`crate::contract::delivered_at`], which the checks
//!   follow as well.
//!
//! Here what both readers share: the entry points, [`Limits`], and the `Context` that turns
//! a record into an [`Entry`]; `detect.rs` guesses a file's [`Format`], `fields.rs` is the
//! lenient field kit records are deserialized with, `http.rs` the HTTP pieces (method, target,
//! query, body text).

mod attachments;
mod detect;
mod fields;
pub mod har;
mod http;
pub mod jsonl;
mod nesting;
pub mod records;

use std::fs::File;
use std::io::{self, BufRead, BufReader};

use crate::exchange::{Entry, ExchangeKind, Malformed};

pub use detect::{Format, detect};
pub(crate) use fields::describe_string;
use fields::{Field, Id, Pairs, Shape, Status, object_shape, wrong};
pub(crate) use http::parse_query;
use http::{Target, method, split_target, text_body};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Bounds on what one entry may take, so that no input (`/dev/zero`, a file of one huge line)
/// can make a run read without end or grow its memory without bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes one JSON Lines line, or one HAR entry, may have. The parts of a HAR
    /// outside `log.entries` count as entries of their own (before them, and after).
    pub max_entry: usize,
}

impl Limits {
    /// The default [`Limits::max_entry`]: 64 MiB, room for a base64 body of 48 MiB.
    pub const MAX_ENTRY: usize = 64 << 20;
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_entry: Limits::MAX_ENTRY,
        }
    }
}

/// An entry larger than [`Limits::max_entry`]. Nothing after it can be read (a line or entry
/// of unknown end, which may never end), so reading of the input stops there: the reader
/// returns this as an [`io::Error`] of kind `InvalidData`, after every entry before it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{place} is larger than the limit of {limit} bytes (--max-entry-size); reading stopped there"
)]
pub struct TooLarge {
    /// The index the entry would have had.
    pub index: usize,
    /// The line it starts on, when known.
    pub line: Option<usize>,
    /// The limit.
    pub limit: usize,
    /// What it is, for the message (`line 3`, `entry 7 (line 120)`).
    pub place: String,
}

impl TooLarge {
    /// The [`TooLarge`] an I/O error of a reader carries, if it does.
    pub fn of(error: &io::Error) -> Option<&TooLarge> {
        error.get_ref()?.downcast_ref()
    }

    fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, self)
    }
}

/// Streams every entry of a traffic file to `sink`, in input order.
///
/// `source_name` goes into every entry's `source`. `webhook_paths` lists `(METHOD, path)`
/// of the notifications the API sends ([`Contract::webhook_paths`]): an exchange with that
/// method whose path ends with that path template, on any host, is a notification
/// ([`delivered_at`]).
///
/// [`Contract::webhook_paths`]: crate::contract::Contract::webhook_paths
/// [`delivered_at`]: crate::contract::delivered_at
///
/// Returns `Err` only when the input cannot be read at all (an I/O error before anything
/// was read), or not on: an entry over the [`Limits`] (a [`TooLarge`]). Everything else,
/// including an I/O error later on, becomes a [`Malformed`] entry passed to the sink; see
/// [`har`] and [`jsonl`] for where reading goes on after one.
pub fn read(
    source_name: &str,
    reader: impl BufRead,
    format: Format,
    webhook_paths: &[(String, String)],
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    read_limited(
        source_name,
        reader,
        format,
        webhook_paths,
        Limits::default(),
        sink,
    )
}

/// [`read`] with other [`Limits`].
pub fn read_limited(
    source_name: &str,
    reader: impl BufRead,
    format: Format,
    webhook_paths: &[(String, String)],
    limits: Limits,
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    match format {
        Format::Har => har::read(source_name, reader, webhook_paths, limits, sink),
        Format::JsonLines => jsonl::read(source_name, reader, webhook_paths, limits, sink),
        Format::JsonRecords => records::read(source_name, reader, webhook_paths, limits, sink),
    }
}

/// `reader` itself, or its content decompressed when it is gzip (a `.har.gz` a CI job kept),
/// told by its first bytes whatever the file is called; and whether it was.
pub fn decompressed<'r>(
    mut reader: Box<dyn BufRead + Send + 'r>,
) -> io::Result<(Box<dyn BufRead + Send + 'r>, bool)> {
    const GZIP: [u8; 2] = [0x1f, 0x8b];
    if reader.fill_buf()?.starts_with(&GZIP) {
        let decoder = flate2::bufread::MultiGzDecoder::new(reader);
        return Ok((Box::new(BufReader::with_capacity(1 << 16, decoder)), true));
    }
    Ok((reader, false))
}

/// Opens `path` (`-` is standard input), detects its format unless `format` is given
/// ([`detect`] on the name and the first buffered bytes), and [`read`]s it with `path` as
/// the source name. Returns the format read.
pub fn read_path(
    path: &str,
    format: Option<Format>,
    webhook_paths: &[(String, String)],
    sink: &mut dyn FnMut(Entry),
) -> io::Result<Format> {
    const CAPACITY: usize = 1 << 16;
    let reader: Box<dyn BufRead + Send> = if path == "-" {
        Box::new(BufReader::with_capacity(CAPACITY, io::stdin()))
    } else {
        Box::new(BufReader::with_capacity(CAPACITY, File::open(path)?))
    };
    let (mut reader, _) = decompressed(reader)?;
    let format = match format {
        Some(format) => format,
        None => detect(path, reader.fill_buf()?),
    };
    read(path, reader, format, webhook_paths, sink)?;
    Ok(format)
}

/// What both readers need to turn a record into an [`Entry`].
struct Context<'a> {
    source: &'a str,
    webhook_paths: &'a [(String, String)],
}

impl Context<'_> {
    fn kind(&self, method: &str, path: &str) -> ExchangeKind {
        let webhook = self
            .webhook_paths
            .iter()
            .any(|(m, p)| crate::contract::delivered_at(m, p, method, path));
        if webhook {
            ExchangeKind::Notification
        } else {
            ExchangeKind::Operation
        }
    }

    fn malformed(&self, index: usize, line: Option<usize>, message: String) -> Entry {
        Err(Malformed {
            index,
            source: self.source.to_owned(),
            line,
            message,
        })
    }
}

/// Skips a UTF-8 byte order mark at the start of `reader`.
fn skip_bom(reader: &mut impl BufRead) -> io::Result<()> {
    if reader.fill_buf()?.starts_with(BOM) {
        reader.consume(BOM.len());
    }
    Ok(())
}

/// A JSON text that serde_json refuses for a value it cannot hold, not for its grammar or its
/// depth: what its message says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unholdable {
    /// A number beyond a double (`1e400`), which RFC 8259 (6) lets a reader refuse.
    NumberOutOfRange,
    /// A surrogate escape without its other half (`"\ud800"`), which encodes no character.
    LoneSurrogate,
}

/// What of [`Unholdable`] serde_json's `message` says, if anything: its only messages for a
/// lone surrogate name neither (`unexpected end of hex escape` after a leading half, `lone
/// leading surrogate` for a trailing one).
pub(crate) fn unholdable(message: &str) -> Option<Unholdable> {
    if message.starts_with("number out of range") {
        Some(Unholdable::NumberOutOfRange)
    } else if message.starts_with("unexpected end of hex escape")
        || message.starts_with("lone leading surrogate in hex escape")
    {
        Some(Unholdable::LoneSurrogate)
    } else {
        None
    }
}

/// serde_json's message without its ` at line L column C` suffix, with a plainer word for
/// the recursion limit.
fn bare_message(err: &serde_json::Error) -> String {
    let full = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let bare = full.strip_suffix(&suffix).unwrap_or(&full);
    if bare == "recursion limit exceeded" {
        "nesting too deep (more than 128 levels)".to_owned()
    } else {
        bare.to_owned()
    }
}
