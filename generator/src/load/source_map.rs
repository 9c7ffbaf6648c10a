//! Pointer → (line, column) for the nodes of the source text.
//!
//! serde_norway gives positions only for its own errors, so this re-reads the
//! text with saphyr's event parser, which reports a span for every node, and
//! tracks the JSON pointer of each one. It is built only when a position is
//! first asked for, since most loads never report an error.
//!
//! Keys are bare pointers (`/a/b`, `~`-escaped, not percent-encoded). Nodes
//! that only exist after loading (expanded aliases, merged keys, normalised
//! schemas) have no entry; callers fall back to an ancestor.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::pointer::escape_segment;

/// Positions of the nodes of one parsed text.
#[derive(Debug, Clone, Default)]
pub(crate) struct SourceMap {
    positions: HashMap<Box<str>, (u32, u32)>,
}

impl SourceMap {
    /// 1-based line and column of the node at a bare pointer.
    pub(crate) fn get(&self, bare_pointer: &str) -> Option<(usize, usize)> {
        self.positions
            .get(bare_pointer)
            .map(|&(line, column)| (line as usize, column as usize))
    }
}

enum Frame {
    Sequence {
        /// Length of `path` before this sequence's own pointer was appended.
        parent_len: usize,
        next_index: usize,
    },
    Mapping {
        parent_len: usize,
        /// `None` while waiting for a key; the escaped key while waiting for
        /// its value. `Some(None)` means the key was not a scalar, so the
        /// value has no pointer.
        pending_key: Option<Option<String>>,
    },
    /// Inside a node that has no pointer (a complex key, or the value of
    /// one); counts nesting to know where it ends.
    Skip { depth: usize },
}

/// `text` with every `\uD800`–`\uDFFF` escape written `\u0058`: JSON's surrogate pairs
/// (`\ud83d\udc9a`, as Python's `json.dump` writes every emoji) stop saphyr, which reads YAML's
/// escapes, and every position after them was lost. Same length, same lines and columns; only
/// positions are read from this text, never values.
fn without_surrogate_escapes(text: std::borrow::Cow<'_, str>) -> std::borrow::Cow<'_, str> {
    let is_surrogate = |hex: &[u8]| {
        std::str::from_utf8(hex)
            .ok()
            .and_then(|hex| u16::from_str_radix(hex, 16).ok())
            .is_some_and(|unit| (0xD800..=0xDFFF).contains(&unit))
    };
    let bytes = text.as_bytes();
    let surrogate_at = |at: usize| {
        bytes[at..].starts_with(b"\\u") && bytes.get(at + 2..at + 6).is_some_and(is_surrogate)
    };
    if !(0..bytes.len()).any(surrogate_at) {
        return text;
    }
    let mut out = bytes.to_vec();
    for at in 0..bytes.len() {
        if surrogate_at(at) {
            out[at + 2..at + 6].copy_from_slice(b"0058");
        }
    }
    // Only ASCII hex digits were replaced by ASCII digits: still UTF-8.
    String::from_utf8(out).map_or(text, std::borrow::Cow::Owned)
}

/// Builds the map, or `None` if saphyr cannot read the text at all (the document was still
/// loaded by serde_norway; it just has no positions then). Where saphyr fails part way, the
/// map has the nodes before that point.
pub(crate) fn build(text: &str) -> Option<SourceMap> {
    // A byte order mark past the start (in a comment, say) stops saphyr; libyaml reads past
    // it. As a space it keeps every line and column (they count characters) where they are.
    let text: std::borrow::Cow<'_, str> = if text.contains('\u{feff}') {
        text.replace('\u{feff}', " ").into()
    } else {
        text.into()
    };
    let text = without_surrogate_escapes(text);
    let mut parser = Parser::new_from_str(&text);
    let mut positions: HashMap<Box<str>, (u32, u32)> = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    // Pointer of the innermost open collection.
    let mut path = String::new();
    let mut seen_root = false;

    while let Some(next) = parser.next_event() {
        // saphyr and serde_norway's libyaml disagree on a few texts; the positions read up to
        // where saphyr stops are still those of the text, and later nodes have none.
        let Ok((event, span)) = next else {
            break;
        };
        let start = &span.start;
        let position = (
            u32::try_from(start.line()).ok()?,
            u32::try_from(start.col() + 1).ok()?,
        );
        let opens = matches!(event, Event::MappingStart(..) | Event::SequenceStart(..));
        let is_node = opens || matches!(event, Event::Scalar(..) | Event::Alias(..));

        match event {
            Event::StreamEnd => break,
            Event::DocumentEnd if seen_root => break,
            Event::SequenceEnd | Event::MappingEnd => {
                match stack.pop() {
                    Some(Frame::Skip { depth }) if depth > 1 => {
                        stack.push(Frame::Skip { depth: depth - 1 });
                    }
                    Some(Frame::Skip { .. }) => {}
                    Some(
                        Frame::Sequence { parent_len, .. } | Frame::Mapping { parent_len, .. },
                    ) => {
                        path.truncate(parent_len);
                    }
                    None => return None,
                }
                continue;
            }
            _ if !is_node => continue,
            _ => {}
        }

        // Where does this node sit? `None` = it has no pointer.
        let segment: Option<Option<String>> = match stack.last_mut() {
            None if seen_root => return Some(SourceMap { positions }),
            None => {
                seen_root = true;
                Some(None)
            }
            Some(Frame::Skip { depth }) => {
                if opens {
                    *depth += 1;
                }
                continue;
            }
            Some(Frame::Sequence { next_index, .. }) => {
                let index = *next_index;
                *next_index += 1;
                Some(Some(index.to_string()))
            }
            Some(Frame::Mapping { pending_key, .. }) => match pending_key.take() {
                None => {
                    // This node is a key.
                    *pending_key = Some(match &event {
                        Event::Scalar(text, style, ..) => {
                            Some(escape_segment(&key_text(text, *style)).into_owned())
                        }
                        _ => None,
                    });
                    if opens {
                        stack.push(Frame::Skip { depth: 1 });
                    }
                    continue;
                }
                Some(Some(key)) => Some(Some(key)),
                Some(None) => None,
            },
        };

        let Some(segment) = segment else {
            if opens {
                stack.push(Frame::Skip { depth: 1 });
            }
            continue;
        };

        let parent_len = path.len();
        if let Some(segment) = segment {
            path.push('/');
            path.push_str(&segment);
        }
        positions.insert(path.as_str().into(), position);
        match event {
            Event::SequenceStart(..) => stack.push(Frame::Sequence {
                parent_len,
                next_index: 0,
            }),
            Event::MappingStart(..) => stack.push(Frame::Mapping {
                parent_len,
                pending_key: None,
            }),
            _ => path.truncate(parent_len),
        }
    }
    Some(SourceMap { positions })
}

/// The key as serde_norway will have turned it into a string: plain `~`,
/// `Null`, `TRUE` and so on are null and booleans, which become `"null"`,
/// `"true"`, `"false"`.
fn key_text(text: &str, style: ScalarStyle) -> std::borrow::Cow<'_, str> {
    if style != ScalarStyle::Plain {
        return text.into();
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => "null".into(),
        "true" | "True" | "TRUE" => "true".into(),
        "false" | "False" | "FALSE" => "false".into(),
        _ => text.into(),
    }
}
