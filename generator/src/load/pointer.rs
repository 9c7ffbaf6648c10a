//! JSON pointers (RFC 6901), bare and as URI fragments (RFC 3986 §3.5).
//!
//! specgen writes every pointer it reports in fragment form (`#/a/b`) because
//! that is what users write in `$ref` and can search for. Fragment form
//! percent-decodes, so [`join`] percent-encodes `%` to keep a pointer it
//! builds decoding back to exactly the same keys; other characters are left
//! as they are so that pointers stay readable (`#/paths/~1pets~1{id}`).

use serde_json::Value;

/// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`.
pub fn escape_segment(s: &str) -> String {
    if !s.contains(['~', '/']) {
        return s.to_owned();
    }
    s.replace('~', "~0").replace('/', "~1")
}

/// Undoes [`escape_segment`]. A `~` not followed by `0` or `1` is not a
/// valid escape; it is kept as written, since this is for turning reference
/// tokens back into names (see [`decode_pointer`] for strict parsing).
pub fn unescape_segment(s: &str) -> String {
    strict_unescape(s).unwrap_or_else(|| s.replace("~1", "/").replace("~0", "~"))
}

/// [`unescape_segment`] that rejects invalid escapes.
fn strict_unescape(s: &str) -> Option<String> {
    if !s.contains('~') {
        return Some(s.to_owned());
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Appends `segment` (an unescaped key or index) to `base`.
///
/// `base` may be in fragment form (`#`, `#/a`) or bare (``, `/a`); the
/// result has the same form. In fragment form `%` is percent-encoded so that
/// [`decode_pointer`] returns the original key.
pub fn join(base: &str, segment: &str) -> String {
    let escaped = escape_segment(segment);
    let mut out = String::with_capacity(base.len() + escaped.len() + 1);
    out.push_str(base);
    out.push('/');
    if base.starts_with('#') {
        push_fragment_segment(&mut out, &escaped);
    } else {
        out.push_str(&escaped);
    }
    out
}

/// Builds a fragment-form pointer (`#/a/b`) from unescaped segments.
pub fn encode_pointer<S: AsRef<str>>(segments: &[S]) -> String {
    let mut out = String::from("#");
    for segment in segments {
        out.push('/');
        push_fragment_segment(&mut out, &escape_segment(segment.as_ref()));
    }
    out
}

/// Splits a pointer into its unescaped segments.
///
/// Accepts fragment form (`#/a/b`, percent-decoded first) and bare form
/// (`/a/b`); `#` and the empty string are the root. `None` when the text is
/// not a pointer: missing leading `/`, a bad `~` escape, or percent-escapes
/// that do not decode to UTF-8.
pub fn decode_pointer(pointer: &str) -> Option<Vec<String>> {
    let bare = match pointer.strip_prefix('#') {
        Some(fragment) => std::borrow::Cow::Owned(percent_decode(fragment)?),
        None => std::borrow::Cow::Borrowed(pointer),
    };
    if bare.is_empty() {
        return Some(Vec::new());
    }
    let rest = bare.strip_prefix('/')?;
    rest.split('/').map(strict_unescape).collect()
}

/// Rewrites any accepted spelling of a pointer into the fragment form that
/// specgen reports, so that pointers can be compared as strings.
pub fn canonical_pointer(pointer: &str) -> Option<String> {
    decode_pointer(pointer).map(|segments| encode_pointer(&segments))
}

/// Looks up unescaped segments in a value: object keys, and array indices
/// written as RFC 6901 requires (decimal, no leading zeros).
pub(crate) fn resolve<'a, S: AsRef<str>>(root: &'a Value, segments: &[S]) -> Option<&'a Value> {
    let mut current = root;
    for segment in segments {
        let segment = segment.as_ref();
        current = match current {
            Value::Object(map) => map.get(segment)?,
            Value::Array(items) => items.get(parse_index(segment)?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// Mutable counterpart of [`resolve`].
pub(crate) fn resolve_mut<'a, S: AsRef<str>>(
    root: &'a mut Value,
    segments: &[S],
) -> Option<&'a mut Value> {
    let mut current = root;
    for segment in segments {
        let segment = segment.as_ref();
        current = match current {
            Value::Object(map) => map.get_mut(segment)?,
            Value::Array(items) => items.get_mut(parse_index(segment)?)?,
            _ => return None,
        };
    }
    Some(current)
}

fn parse_index(segment: &str) -> Option<usize> {
    let well_formed = !segment.is_empty()
        && segment.bytes().all(|b| b.is_ascii_digit())
        && (segment == "0" || !segment.starts_with('0'));
    if well_formed {
        segment.parse().ok()
    } else {
        None
    }
}

fn push_fragment_segment(out: &mut String, escaped: &str) {
    for c in escaped.chars() {
        if c == '%' {
            out.push_str("%25");
        } else {
            out.push(c);
        }
    }
}

/// Decodes `%XX` escapes; a `%` not followed by two hex digits is kept as
/// written, since hand-written `$ref`s are often not strictly encoded.
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes
                .get(i + 1)
                .and_then(|&h| hex_value(h))
                .zip(bytes.get(i + 2).and_then(|&l| hex_value(l)));
            if let Some((high, low)) = hex {
                out.push(high << 4 | low);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    String::from_utf8(out).ok()
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Turns a bare pointer built internally (already `~`-escaped) into the
/// fragment form used in reports.
pub(crate) fn fragment_from_bare(bare: &str) -> String {
    let mut out = String::with_capacity(bare.len() + 1);
    out.push('#');
    push_fragment_segment(&mut out, bare);
    out
}

/// Appends `/` and the escaped `segment` to a bare pointer, without the
/// temporary string of [`escape_segment`]; the walks over whole documents
/// call this for every node.
pub(crate) fn push_segment(bare: &mut String, segment: &str) {
    bare.push('/');
    for c in segment.chars() {
        match c {
            '~' => bare.push_str("~0"),
            '/' => bare.push_str("~1"),
            _ => bare.push(c),
        }
    }
}

/// Appends `/` and an array index to a bare pointer.
pub(crate) fn push_index(bare: &mut String, index: usize) {
    use std::fmt::Write;
    // Writing to a String cannot fail.
    let _ = write!(bare, "/{index}");
}
