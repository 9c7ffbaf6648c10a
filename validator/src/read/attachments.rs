//! Bodies a HAR keeps in files beside it: Playwright's `recordHar` with `content: "attach"`
//! writes each body to a file named after its SHA-1 (`3f2a….json`) next to the HAR, and the
//! entry's `postData` or `content` names it in `_file` (`_sha1` in older releases) instead of
//! holding its `text`.

use std::path::{Path, PathBuf};

use crate::exchange::Body;

/// Where a HAR's attached bodies are, and how large one may be.
pub(super) struct Attachments {
    /// The HAR's own directory; `None` for standard input, which has none.
    dir: Option<PathBuf>,
    /// The most bytes one body may have (`--max-entry-size`, as the entry holding it would).
    max: u64,
}

/// Why an attached body was not read, for the entry's finding.
pub(super) enum Unread {
    /// Not a bare file name: a path elsewhere (`../x`, `/etc/x`) is never followed, since the
    /// HAR may come from anyone.
    NotAName,
    /// The file is not beside the HAR, or cannot be read.
    Missing,
    /// Larger than the limit: its size.
    TooLarge(u64),
}

impl Attachments {
    /// The attachments of the HAR read from `source` (a path; `-` is standard input).
    pub(super) fn beside(source: &str, max: usize) -> Attachments {
        let dir = (source != "-").then(|| {
            Path::new(source)
                .parent()
                .map_or_else(PathBuf::new, Path::to_path_buf)
        });
        Attachments {
            dir,
            max: max as u64,
        }
    }

    /// The body the attached file `name` holds: its text, or its bytes when they are no
    /// UTF-8; `None` for an empty file.
    pub(super) fn body(&self, name: &str) -> Result<Option<Body>, Unread> {
        let bare = !name.is_empty()
            && !name.starts_with('.')
            && !name.contains(['/', '\\', ':'])
            && Path::new(name).file_name().is_some_and(|file| file == name);
        if !bare {
            return Err(Unread::NotAName);
        }
        let path = self.dir.as_ref().ok_or(Unread::Missing)?.join(name);
        let size = std::fs::metadata(&path).map_err(|_| Unread::Missing)?.len();
        if size > self.max {
            return Err(Unread::TooLarge(size));
        }
        let bytes = std::fs::read(&path).map_err(|_| Unread::Missing)?;
        if bytes.is_empty() {
            return Ok(None);
        }
        Ok(Some(match String::from_utf8(bytes) {
            Ok(text) => Body::Text(text),
            Err(err) => Body::Binary(err.into_bytes()),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bare_name_beside_the_har_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ab12.json"), br#"{"id": 1}"#).unwrap();
        std::fs::write(dir.path().join("empty.dat"), b"").unwrap();
        std::fs::write(dir.path().join("bin.dat"), [0xff, 0x00]).unwrap();
        let har = dir.path().join("traffic.har");
        let attachments = Attachments::beside(har.to_str().unwrap(), 64);
        assert!(matches!(
            attachments.body("ab12.json"),
            Ok(Some(Body::Text(text))) if text == r#"{"id": 1}"#
        ));
        assert!(matches!(attachments.body("empty.dat"), Ok(None)));
        assert!(matches!(
            attachments.body("bin.dat"),
            Ok(Some(Body::Binary(_)))
        ));
        assert!(matches!(
            attachments.body("gone.json"),
            Err(Unread::Missing)
        ));
        for elsewhere in [
            "../ab12.json",
            "/etc/passwd",
            "sub/ab12.json",
            "..",
            ".hidden",
            "",
        ] {
            assert!(
                matches!(attachments.body(elsewhere), Err(Unread::NotAName)),
                "{elsewhere}"
            );
        }
        let small = Attachments::beside(har.to_str().unwrap(), 4);
        assert!(matches!(small.body("ab12.json"), Err(Unread::TooLarge(9))));
        // Standard input has no directory to look in.
        let stdin = Attachments::beside("-", 64);
        assert!(matches!(stdin.body("ab12.json"), Err(Unread::Missing)));
    }
}
