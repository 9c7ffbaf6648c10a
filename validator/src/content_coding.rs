//! Bodies sent compressed (`Content-Encoding: gzip`, `deflate`, `br`), read as what they
//! encode. Live traffic through the tower layer, the proxy and the client checks carries them
//! as sent whenever a client accepts compression, and so do recordings of raw bytes (a JSON
//! Lines `bodyBase64`); checked as they were, every compressed JSON body was "not JSON".
//!
//! A recording that already holds the decoded body under the same header (a browser's HAR:
//! `content.text` is decoded, the header still says `gzip`) is left as it is: only a body that
//! is not text is decoded, and only when every coding the header names decodes it. A coding
//! this module does not know (`zstd`, `compress`) leaves the body as it was.

use std::io::Read;

use crate::exchange::{Body, header};

/// The most bytes a compressed body is decoded to; beyond it the body is checked as sent,
/// so that a small body cannot make the run hold gigabytes.
const MAX_DECODED: u64 = 64 * 1024 * 1024;

/// `body` as its `Content-Encoding` (in `headers`) says it was encoded, decoded; else as it was.
pub fn decoded(body: Option<Body>, headers: &[(String, String)]) -> Option<Body> {
    let Some(Body::Binary(bytes)) = &body else {
        return body;
    };
    let Some(codings) = header(headers, "content-encoding") else {
        return body;
    };
    // Codings are listed in the order they were applied, so they are undone from the last.
    let mut current = bytes.clone();
    let mut changed = false;
    for coding in codings.rsplit(',').map(str::trim) {
        let next = match coding.to_ascii_lowercase().as_str() {
            "" | "identity" => continue,
            "gzip" | "x-gzip" => read_all(flate2::read::MultiGzDecoder::new(&current[..])),
            // `deflate` is zlib-wrapped by the RFC, raw in some servers' hands.
            "deflate" => read_all(flate2::read::ZlibDecoder::new(&current[..]))
                .or_else(|| read_all(flate2::read::DeflateDecoder::new(&current[..]))),
            "br" => read_all(brotli_decompressor::Decompressor::new(&current[..], 4096)),
            _ => None,
        };
        match next {
            Some(next) => {
                current = next;
                changed = true;
            }
            None => return body,
        }
    }
    if !changed {
        return body;
    }
    Some(match String::from_utf8(current) {
        Ok(text) => Body::Text(text),
        Err(err) => Body::Binary(err.into_bytes()),
    })
}

/// Why a body that does not parse may not be what was meant: its `Content-Encoding` names a
/// coding that did not decode it (a truncated gzip stream, `zstd`), so the bytes checked are
/// still encoded. `None` when there is no such header or the body is not left encoded.
pub fn undecoded(body: Option<&Body>, headers: &[(String, String)]) -> Option<String> {
    let Some(Body::Binary(_)) = body else {
        return None;
    };
    let codings = header(headers, "content-encoding")?.trim();
    let identity = codings
        .split(',')
        .all(|coding| matches!(coding.trim().to_ascii_lowercase().as_str(), "" | "identity"));
    (!identity && decoded(body.cloned(), headers).as_ref() == body).then(|| {
        format!("its Content-Encoding, {codings}, does not decode it: the bytes are as sent")
    })
}

/// Everything `reader` gives, unless it fails or gives more than [`MAX_DECODED`] bytes.
fn read_all(reader: impl Read) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut limited = reader.take(MAX_DECODED + 1);
    limited.read_to_end(&mut out).ok()?;
    (out.len() as u64 <= MAX_DECODED).then_some(out)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const JSON: &str = r#"{"id": "acct_1", "balance": {"available": 1.5}}"#;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn headers(coding: &str) -> Vec<(String, String)> {
        vec![("Content-Encoding".into(), coding.into())]
    }

    #[test]
    fn gzip_deflate_and_their_chain_are_undone() {
        let plain = Some(Body::Text(JSON.into()));
        assert_eq!(
            decoded(Some(Body::Binary(gzip(JSON.as_bytes()))), &headers("gzip")),
            plain
        );
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        zlib.write_all(JSON.as_bytes()).unwrap();
        let zlib = zlib.finish().unwrap();
        assert_eq!(
            decoded(Some(Body::Binary(zlib.clone())), &headers("deflate")),
            plain
        );
        // Applied in the order listed: deflate first, then gzip.
        assert_eq!(
            decoded(Some(Body::Binary(gzip(&zlib))), &headers("deflate, GZIP")),
            plain
        );
    }

    #[test]
    fn brotli_is_undone() {
        // `brotli.compress` (Python) of JSON.
        let br = vec![
            11, 23, 128, 123, 34, 105, 100, 34, 58, 32, 34, 97, 99, 99, 116, 95, 49, 34, 44, 32,
            34, 98, 97, 108, 97, 110, 99, 101, 34, 58, 32, 123, 34, 97, 118, 97, 105, 108, 97, 98,
            108, 101, 34, 58, 32, 49, 46, 53, 125, 125, 3,
        ];
        assert_eq!(
            decoded(Some(Body::Binary(br)), &headers("br")),
            Some(Body::Text(JSON.into()))
        );
    }

    #[test]
    fn a_body_already_decoded_or_in_an_unknown_coding_is_left_as_recorded() {
        // A browser's HAR: the text is decoded, the header still names the coding.
        let text = Some(Body::Text(JSON.into()));
        assert_eq!(decoded(text.clone(), &headers("gzip")), text);
        let bytes = Some(Body::Binary(vec![0xff, 0x00, 0x01]));
        assert_eq!(decoded(bytes.clone(), &headers("gzip")), bytes);
        assert_eq!(decoded(bytes.clone(), &headers("zstd")), bytes);
        assert_eq!(decoded(bytes.clone(), &[]), bytes);
        // Not every coding listed decodes it: as recorded.
        let gzipped = Some(Body::Binary(gzip(JSON.as_bytes())));
        assert_eq!(decoded(gzipped.clone(), &headers("gzip, br")), gzipped);
    }

    #[test]
    fn a_body_its_coding_does_not_decode_says_so() {
        let whole = gzip(JSON.as_bytes());
        let cut = Body::Binary(whole[..whole.len() / 2].to_vec());
        let why = undecoded(Some(&cut), &headers("gzip")).unwrap();
        assert_eq!(
            why,
            "its Content-Encoding, gzip, does not decode it: the bytes are as sent"
        );
        let unknown = Body::Binary(b"\x28\xb5\x2f\xfd".to_vec());
        assert!(undecoded(Some(&unknown), &headers("zstd")).is_some());
        // Decoded, sent plain, or no coding named: nothing to say.
        let decoded_body = decoded(Some(Body::Binary(whole)), &headers("gzip"));
        assert_eq!(undecoded(decoded_body.as_ref(), &headers("gzip")), None);
        let plain = Body::Binary(b"not json".to_vec());
        assert_eq!(undecoded(Some(&plain), &headers("identity")), None);
        assert_eq!(undecoded(Some(&plain), &[]), None);
    }
}
