//! Bodies: capturing the first bytes of a body while passing it on whole, and recording
//! them as text or base64.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use base64::Engine as _;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt as _;
use serde_json::{Map, Value};

/// What was seen of a body.
pub(super) struct Captured {
    /// The first `limit` bytes of its data.
    pub(super) bytes: Vec<u8>,
    /// Its full length, when it was read to the end.
    pub(super) total: Option<usize>,
    /// Why it could not be read to the end, when it could not.
    pub(super) error: Option<String>,
}

/// Reads `body` up to `limit` bytes (plus at most one frame), and returns what was seen and a
/// body that yields exactly what `body` would have: the frames read, then an error met, then
/// the rest of `body`.
pub(super) async fn capture(mut body: Body, limit: usize) -> (Captured, Body) {
    let mut frames = VecDeque::new();
    let mut bytes = Vec::new();
    let mut seen = 0usize;
    let mut error = None;
    let mut done = false;
    while seen <= limit {
        match body.frame().await {
            None => {
                done = true;
                break;
            }
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    let room = limit.saturating_sub(bytes.len());
                    bytes.extend_from_slice(&data[..data.len().min(room)]);
                    seen += data.len();
                }
                frames.push_back(frame);
            }
            Some(Err(err)) => {
                error = Some(err);
                break;
            }
        }
    }
    let captured = Captured {
        bytes,
        total: done.then_some(seen),
        error: error.as_ref().map(ToString::to_string),
    };
    let replay = Replay {
        frames,
        error,
        rest: (!done).then_some(body),
    };
    (captured, Body::new(replay))
}

/// Yields buffered frames, then a buffered error, then the rest of the original body.
struct Replay {
    frames: VecDeque<Frame<Bytes>>,
    error: Option<axum::Error>,
    rest: Option<Body>,
}

impl http_body::Body for Replay {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if let Some(frame) = this.frames.pop_front() {
            return Poll::Ready(Some(Ok(frame)));
        }
        if let Some(error) = this.error.take() {
            return Poll::Ready(Some(Err(error)));
        }
        match this.rest.as_mut() {
            Some(rest) => Pin::new(rest).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.frames.is_empty()
            && self.error.is_none()
            && self
                .rest
                .as_ref()
                .is_none_or(http_body::Body::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        let buffered: u64 = self
            .frames
            .iter()
            .filter_map(Frame::data_ref)
            .map(|data| data.len() as u64)
            .sum();
        match (&self.error, &self.rest) {
            (None, None) => SizeHint::with_exact(buffered),
            (None, Some(rest)) => {
                let hint = rest.size_hint();
                let mut sum = SizeHint::new();
                sum.set_lower(hint.lower().saturating_add(buffered));
                if let Some(upper) = hint.upper() {
                    sum.set_upper(upper.saturating_add(buffered));
                }
                sum
            }
            (Some(_), _) => SizeHint::new(),
        }
    }
}

/// The HAR fields for a body's text: `text`, and `encoding: "base64"` when it is not UTF-8.
pub(super) fn body_text(captured: &Captured, fields: &mut Map<String, Value>) {
    match std::str::from_utf8(&captured.bytes) {
        Ok(text) => {
            fields.insert("text".into(), text.into());
        }
        Err(_) => {
            let encoded = base64::engine::general_purpose::STANDARD.encode(&captured.bytes);
            fields.insert("text".into(), encoded.into());
            fields.insert("encoding".into(), "base64".into());
        }
    }
    let note = match (&captured.error, captured.total) {
        (Some(error), _) => Some(format!(
            "incomplete: reading the body failed after {} bytes: {error}",
            captured.bytes.len()
        )),
        (None, None) => Some(format!(
            "truncated: only the first {} bytes were recorded",
            captured.bytes.len()
        )),
        (None, Some(_)) => None,
    };
    if let Some(note) = note {
        fields.insert("_truncated".into(), true.into());
        fields.insert("comment".into(), note.into());
    }
}

/// A HAR `bodySize`: the full length, or -1 when it is unknown.
pub(super) fn body_size(captured: &Captured) -> Value {
    match captured.total {
        Some(total) if captured.error.is_none() => total.into(),
        _ => (-1).into(),
    }
}
