//! A `multipart/form-data` body as its named parts, read with multer (the parser behind
//! axum's `Multipart`), so that each part can be checked as a field of the body's schema
//! (see [`specgen::form::decode_parts`]).

use std::convert::Infallible;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;

/// The media type of a body made of named parts.
pub const FORM_DATA: &str = "multipart/form-data";

/// The boundary a multipart body is built with when a recording lists its fields but not the
/// body (HAR's `postData.params`) and names no boundary of its own.
pub const RECORDED_FIELDS_BOUNDARY: &str = "specval-recorded-fields";

/// One part of the body.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Its name, from its `Content-Disposition`.
    pub name: String,
    /// Its content, as text (bytes that are not UTF-8 become U+FFFD: a file's content is
    /// checked only as the string its schema says it is).
    pub text: String,
    /// Whether its own Content-Type is JSON.
    pub json: bool,
}

/// The `boundary` parameter of a Content-Type value, unquoted.
pub fn boundary_of(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| value.trim().trim_matches('"'))
            .filter(|value| !value.is_empty())
    })
}

/// The boundary a message declares: that of the first of its media types (its Content-Type
/// header, then a recording's own, HAR's `mimeType`) that gives one.
pub fn declared_boundary(media_types: [Option<&str>; 2]) -> Option<&str> {
    media_types.into_iter().flatten().find_map(boundary_of)
}

/// The named parts of `body`, split at `boundary` (the Content-Type's), else at the boundary
/// its first line opens (a hand-written recording may leave the parameter out). Lines may end
/// in a bare `\n` where the body has no `\r\n` at all: a hand-written body, read as meant.
/// Parts without a name are left out; an error says why the body does not read as parts.
pub fn parts(body: &[u8], boundary: Option<&str>) -> Result<Vec<Part>, String> {
    let body = with_crlf(body);
    let boundary = match boundary {
        Some(declared) => {
            let delimiter = format!("--{declared}");
            if memchr::memmem::find(&body, delimiter.as_bytes()).is_none() {
                return Err(format!(
                    "its parts are not separated by the boundary its Content-Type declares \
                     ({declared:?})"
                ));
            }
            declared.to_string()
        }
        None => opening_boundary(&body).ok_or_else(|| {
            "no boundary: the Content-Type names none, and the body does not open with one"
                .to_string()
        })?,
    };
    let stream =
        futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(Bytes::from(body))));
    let mut multipart = multer::Multipart::new(stream, boundary);
    let read = async move {
        let mut parts = Vec::new();
        while let Some(field) = multipart.next_field().await.map_err(|e| e.to_string())? {
            let name = field.name().map(str::to_string);
            let json = field.content_type().is_some_and(|media| {
                media.subtype() == "json" || media.suffix().is_some_and(|suffix| suffix == "json")
            });
            let bytes = field.bytes().await.map_err(|e| e.to_string())?;
            if let Some(name) = name {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                parts.push(Part { name, text, json });
            }
        }
        Ok(parts)
    };
    // The whole body is in memory, so the parser never waits.
    now(read).unwrap_or_else(|| Err("the parser waited for more input".to_string()))
}

/// `body` with its bare `\n` line ends as `\r\n`, when it has no `\r\n` at all.
fn with_crlf(body: &[u8]) -> Vec<u8> {
    if memchr::memmem::find(body, b"\r\n").is_some() || !body.contains(&b'\n') {
        return body.to_vec();
    }
    let mut fixed = Vec::with_capacity(body.len() + body.len() / 16);
    for &byte in body {
        if byte == b'\n' {
            fixed.push(b'\r');
        }
        fixed.push(byte);
    }
    fixed
}

/// The boundary the body's first line opens: `--BOUNDARY`.
fn opening_boundary(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body.get(..body.len().min(256))?).ok()?;
    let line = text.trim_start().lines().next()?;
    let boundary = line.strip_prefix("--")?.trim_end();
    (!boundary.is_empty()).then(|| boundary.to_string())
}

/// The output of a future that completes without waiting, polled once.
fn now<F: Future>(future: F) -> Option<F::Output> {
    let future = pin!(future);
    match future.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => Some(output),
        Poll::Pending => None,
    }
}

/// A multipart body made of `fields` (name, value, file name, Content-Type), as HAR lists a
/// form's fields when it keeps no text: what was sent, in the shape [`parts`] reads.
pub fn body_of<'a>(
    fields: impl IntoIterator<Item = (&'a str, &'a str, Option<&'a str>, Option<&'a str>)>,
    boundary: &str,
) -> String {
    let mut body = String::new();
    for (name, value, file_name, content_type) in fields {
        body.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name={}",
            quoted(name)
        ));
        if let Some(file_name) = file_name {
            body.push_str(&format!("; filename={}", quoted(file_name)));
        }
        body.push_str("\r\n");
        if let Some(content_type) = content_type {
            body.push_str(&format!("Content-Type: {content_type}\r\n"));
        }
        body.push_str(&format!("\r\n{value}\r\n"));
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    body
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(name: &str, text: &str, json: bool) -> Part {
        Part {
            name: name.into(),
            text: text.into(),
            json,
        }
    }

    #[test]
    fn parts_have_names_texts_and_json_marks() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"attributes\"\r\n\
                    Content-Type: application/json\r\n\r\n{\"name\":\"a\"}\r\n\
                    --XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\
                    Content-Type: text/plain\r\n\r\nline 1\r\nline 2\r\n--XyZ--\r\n";
        assert_eq!(
            parts(body.as_bytes(), Some("XyZ")).unwrap(),
            vec![
                part("attributes", r#"{"name":"a"}"#, true),
                part("file", "line 1\r\nline 2", false)
            ]
        );
        // Without the parameter, the first line gives the boundary.
        assert_eq!(parts(body.as_bytes(), None).unwrap().len(), 2);
    }

    #[test]
    fn a_hand_written_body_may_end_its_lines_in_newlines() {
        let body = "--b\nContent-Disposition: form-data; name=\"n\"\n\n7\n--b--\n";
        assert_eq!(
            parts(body.as_bytes(), Some("b")).unwrap(),
            vec![part("n", "7", false)]
        );
    }

    #[test]
    fn a_body_that_is_not_its_parts_is_an_error() {
        let body =
            "--other\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n7\r\n--other--\r\n";
        let declared = parts(body.as_bytes(), Some("XyZ")).unwrap_err();
        assert!(declared.contains("\"XyZ\""), "{declared}");
        assert!(
            parts(b"name=Tom", None)
                .unwrap_err()
                .contains("no boundary")
        );
        let unterminated = "--b\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n7";
        assert!(parts(unterminated.as_bytes(), Some("b")).is_err());
    }

    #[test]
    fn the_boundary_parameter_is_read_quoted_or_not() {
        assert_eq!(
            boundary_of("multipart/form-data; boundary=XyZ"),
            Some("XyZ")
        );
        assert_eq!(
            boundary_of("multipart/form-data;Boundary=\"a b\""),
            Some("a b")
        );
        assert_eq!(boundary_of("multipart/form-data"), None);
    }

    #[test]
    fn recorded_fields_make_the_body_that_was_sent() {
        let body = body_of(
            [
                ("n", "7", None, None),
                ("file", "abc", Some("a \"b\".txt"), Some("text/plain")),
            ],
            RECORDED_FIELDS_BOUNDARY,
        );
        assert_eq!(
            parts(body.as_bytes(), Some(RECORDED_FIELDS_BOUNDARY)).unwrap(),
            vec![part("n", "7", false), part("file", "abc", false)]
        );
    }
}
