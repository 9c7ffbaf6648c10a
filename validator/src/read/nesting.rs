//! Where a JSON value that does not parse ends: its braces and brackets counted outside
//! strings. The HAR reader skips a broken entry with it, and the reader of records kept as
//! one document a broken record, so that the entries after either are still read.

/// The nesting of a JSON text fed to it byte by byte, from a value's opening brace or
/// bracket on.
#[derive(Debug, Default)]
pub(super) struct Nesting {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Nesting {
    /// Takes the next byte; `true` when it closes the value the first byte opened.
    pub(super) fn closes(&mut self, byte: u8) -> bool {
        if self.in_string {
            match byte {
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_string = false,
                _ => {}
            }
            return false;
        }
        match byte {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                return self.depth == 0;
            }
            _ => {}
        }
        false
    }

    /// The length of the value `text` begins with (its opening brace or bracket first), up
    /// to its closing one included; `None` when it is not closed.
    pub(super) fn length(text: &[u8]) -> Option<usize> {
        if !matches!(text.first(), Some(b'{' | b'[')) {
            return None;
        }
        let mut nesting = Nesting::default();
        text.iter()
            .position(|&byte| nesting.closes(byte))
            .map(|at| at + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::Nesting;

    #[test]
    fn a_value_ends_at_its_own_closing_brace_whatever_its_strings_hold() {
        let text = br#"{"a": "}\"{", "b": [1, {"c": "]"}] "d" 2} {"next": 1}"#;
        let end = Nesting::length(text).unwrap();
        assert_eq!(&text[end..], br#" {"next": 1}"#);
        assert_eq!(Nesting::length(br#"{"a": [1, 2}"#), None);
        assert_eq!(Nesting::length(b"x {}"), None);
    }
}
