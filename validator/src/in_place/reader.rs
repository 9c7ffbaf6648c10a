//! Reading JSON text into a [`Doc`](super::Doc)'s tape in one pass over its bytes.
//!
//! Written by hand rather than through serde_json's `Deserializer`: driving serde's visitor
//! for every value and checking each string's UTF-8 on its own was the largest part of the
//! tower layer's cost per exchange. This reader does the structural work only, and the text
//! of strings is scanned eight bytes at a time. Wherever JSON's meaning takes care (a string
//! with escapes, a number that is not a small integer) it asks serde_json for that one token,
//! so every value reads exactly as serde_json reads it. Whatever it does not accept (invalid
//! JSON, a member name given twice, nesting deeper than serde_json's limit) it gives up on,
//! and the caller then reads the body with serde_json, whose verdict and message stand.

use std::borrow::Cow;

use serde_json::Number;

use super::Slot;

/// The deepest nesting serde_json reads (its recursion limit refuses the 128th container):
/// deeper documents are refused by both.
const MAX_DEPTH: usize = 127;

/// The tape of one JSON document, or `None` (see the module documentation).
pub(super) fn read(bytes: &[u8]) -> Option<Vec<Slot<'_>>> {
    // One UTF-8 check of the whole text: every slice taken between ASCII delimiters below is
    // then a `str` without a check of its own.
    let text = std::str::from_utf8(bytes).ok()?;
    let mut reader = Reader {
        text,
        bytes,
        at: 0,
        // About one slot per 12 bytes of a typical API body: one growth at most.
        slots: Vec::with_capacity(bytes.len() / 12 + 4),
        depth: 0,
    };
    reader.skip_whitespace();
    reader.value()?;
    reader.skip_whitespace();
    (reader.at == bytes.len()).then_some(reader.slots)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    slots: Vec<Slot<'a>>,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Consumes `byte` (after whitespace), or gives up.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_whitespace();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// Where the next slot goes.
    fn next_slot(&self) -> Option<u32> {
        u32::try_from(self.slots.len()).ok()
    }

    fn value(&mut self) -> Option<()> {
        let slot = match self.peek()? {
            b'{' => return self.object(),
            b'[' => return self.array(),
            b'"' => Slot::String(self.string()?),
            b't' => self.literal(b"true", Slot::Bool(true))?,
            b'f' => self.literal(b"false", Slot::Bool(false))?,
            b'n' => self.literal(b"null", Slot::Null)?,
            b'-' | b'0'..=b'9' => Slot::Number(self.number()?),
            _ => return None,
        };
        self.slots.push(slot);
        Some(())
    }

    fn literal(&mut self, word: &[u8], slot: Slot<'a>) -> Option<Slot<'a>> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| {
            self.at = end;
            slot
        })
    }

    /// Opens a container: its slot is filled in by [`Reader::close`].
    fn open(&mut self) -> Option<usize> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.at += 1;
        self.slots.push(Slot::Null);
        Some(self.slots.len() - 1)
    }

    fn close(&mut self, at: usize, slot: impl FnOnce(u32) -> Slot<'a>) -> Option<()> {
        self.depth -= 1;
        let end = self.next_slot()?;
        self.slots[at] = slot(end);
        Some(())
    }

    fn array(&mut self) -> Option<()> {
        let at = self.open()?;
        let len = self.items(b']', |reader| {
            reader.skip_whitespace();
            reader.value()
        })?;
        self.close(at, |end| Slot::Array { len, end })
    }

    fn object(&mut self) -> Option<()> {
        let at = self.open()?;
        // One bit per name read, by `sketch`.
        let mut seen = 0u64;
        let len = self.items(b'}', |reader| reader.member(at, &mut seen))?;
        self.close(at, |end| Slot::Object { len, end })
    }

    /// The items of a container up to its closing byte, each read by `item`, separated by
    /// commas: how many there were.
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<u32> {
        let mut len = 0u32;
        self.skip_whitespace();
        if self.peek()? == close {
            self.at += 1;
            return Some(len);
        }
        loop {
            item(self)?;
            len += 1;
            self.skip_whitespace();
            match self.peek()? {
                b',' => self.at += 1,
                byte if byte == close => {
                    self.at += 1;
                    return Some(len);
                }
                _ => return None,
            }
        }
    }

    /// One member of the object whose slot is at `object`.
    fn member(&mut self, object: usize, seen: &mut u64) -> Option<()> {
        self.skip_whitespace();
        if self.peek()? != b'"' {
            return None;
        }
        let name = self.string()?;
        // A `Value` keeps the last of two members with one name, and counts one: the two
        // readings would differ (under `minProperties`, say), so such a body is left to the
        // `Value` path. The earlier names are compared only when one of them shares the new
        // name's sketch.
        let bit = sketch(&name);
        if *seen & bit != 0 && self.names_so_far(object).any(|earlier| earlier == name) {
            return None;
        }
        *seen |= bit;
        self.slots.push(Slot::Key(name));
        self.expect(b':')?;
        self.skip_whitespace();
        self.value()
    }

    /// The names of the members read so far of the object whose slot is at `object`.
    fn names_so_far(&self, object: usize) -> impl Iterator<Item = &str> {
        let slots = &self.slots;
        let mut at = object + 1;
        std::iter::from_fn(move || {
            let Slot::Key(name) = slots.get(at)? else {
                return None;
            };
            // The member's value is complete: skip it whole.
            at = match slots.get(at + 1)? {
                Slot::Array { end, .. } | Slot::Object { end, .. } => *end as usize,
                _ => at + 2,
            };
            Some(name.as_ref())
        })
    }

    /// A string token, its quotes included in what is consumed; borrowed unless it has
    /// escapes, which serde_json decodes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let open = self.at;
        let mut at = open + 1;
        let mut escaped = false;
        loop {
            at += first_special(self.bytes.get(at..)?)?;
            match self.bytes[at] {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    // The escaped byte is never the closing quote; serde_json judges the
                    // escape.
                    at += 2;
                }
                // JSON strings hold no raw control characters.
                _ => return None,
            }
        }
        self.at = at + 1;
        if escaped {
            serde_json::from_str::<String>(&self.text[open..=at])
                .ok()
                .map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(&self.text[open + 1..at]))
        }
    }

    /// A number token, read as serde_json reads it.
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let digits = self.at;
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.skip_digits(),
            _ => return None,
        }
        let integer_digits = self.at - digits;
        let mut plain = true;
        if self.peek() == Some(b'.') {
            plain = false;
            self.at += 1;
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.skip_digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            plain = false;
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.skip_digits();
        }
        let token = &self.text[start..self.at];
        // Up to 18 digits an integer cannot overflow; `-0` is a float to serde_json.
        if plain && integer_digits <= 18 && token != "-0" {
            let magnitude = token
                .bytes()
                .skip(usize::from(negative))
                .fold(0u64, |n, digit| n * 10 + u64::from(digit - b'0'));
            return Some(if negative {
                // 18 digits fit an i64, negated too.
                Number::from(-i64::try_from(magnitude).ok()?)
            } else {
                Number::from(magnitude)
            });
        }
        serde_json::from_str::<Number>(token).ok()
    }

    fn skip_digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
    }
}

/// One of 64 bits for a member name, from its length and its first and last bytes: names
/// with different bits differ.
fn sketch(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let first = bytes.first().copied().unwrap_or(0);
    let last = bytes.last().copied().unwrap_or(0);
    let mix = bytes.len() ^ (usize::from(first) << 1) ^ (usize::from(last) << 3);
    1 << (mix % 64)
}

/// Where the first byte that ends a plain run of string text is: a quote, a backslash or a
/// control character. Eight bytes at a time (API strings are too short for memchr's setup to
/// pay), with the classic "has a zero byte" test on each of the three conditions.
fn first_special(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte's high bit is set where it is zero; borrows can only mark bytes after a true
    // zero, so the lowest mark is exact.
    let zero = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS;
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().ok()?);
        let marks = zero(word ^ (ONES * u64::from(b'"')))
            | zero(word ^ (ONES * u64::from(b'\\')))
            // Below 0x20: subtracting 0x20 borrows into the high bit of such a byte only.
            | (word.wrapping_sub(ONES * 0x20) & !word & HIGHS);
        if marks != 0 {
            return Some(offset + marks.trailing_zeros() as usize / 8);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
        .map(|at| offset + at)
}

#[cfg(test)]
mod tests {
    use super::first_special;

    #[test]
    fn the_first_quote_backslash_or_control_byte_is_found_at_any_offset() {
        let naive = |bytes: &[u8]| {
            bytes
                .iter()
                .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
        };
        // Every byte value, alone and after text, at every position of two words and a tail,
        // with bytes on either side of the three conditions' edges before it.
        let fillers: [&[u8]; 3] = [b"abcdefghijklmnopqrs", "é€😀ÿ".as_bytes(), b"!#[]^_ \x7f"];
        for filler in fillers {
            for len in 0..filler.len() {
                for byte in 0..=255u8 {
                    let mut text = filler[..len].to_vec();
                    text.push(byte);
                    text.extend_from_slice(b"tail\"x");
                    assert_eq!(first_special(&text), naive(&text), "{text:?}");
                }
                assert_eq!(first_special(&filler[..len]), naive(&filler[..len]));
            }
        }
    }
}
