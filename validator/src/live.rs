//! Bodies of live traffic buffered for the checks, and the body that passes the buffered
//! bytes on. Used by the tower layer ([`crate::layer`]) and the proxy (`crate::proxy`); the
//! messages become an exchange's halves in [`crate::http_exchange`], as for the client
//! checks, so that all three judge exactly what a recording of the same traffic would be
//! judged on.

use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use http::HeaderMap;
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;

/// What buffering a body gave.
pub(crate) enum Buffered {
    /// The whole body (the body passed on holds the same bytes).
    Whole(Bytes),
    /// Larger than the limit: passed on as a stream.
    TooLarge,
    /// Failed while read: passed on up to the failure.
    Failed,
}

/// Reads `body` up to `limit` bytes.
pub(crate) async fn buffer<B>(body: B, limit: usize) -> (Buffered, ContractBody<B>)
where
    B: Body<Data = Bytes>,
{
    if body.size_hint().lower() > limit as u64 {
        return (
            Buffered::TooLarge,
            ContractBody::stream(VecDeque::new(), body),
        );
    }
    let mut body = Box::pin(body);
    let mut data: Vec<Bytes> = Vec::new();
    let mut size = 0usize;
    let mut trailers: Option<HeaderMap> = None;
    loop {
        match body.frame().await {
            None => break,
            Some(Ok(frame)) => match frame.into_data() {
                Ok(chunk) => {
                    size += chunk.len();
                    data.push(chunk);
                    if size > limit {
                        let prefix = data.into_iter().map(Frame::data).collect();
                        return (
                            Buffered::TooLarge,
                            ContractBody {
                                kind: Kind::Stream {
                                    prefix,
                                    rest: Some(body),
                                    error: None,
                                },
                            },
                        );
                    }
                }
                Err(frame) => {
                    if let Ok(more) = frame.into_trailers() {
                        match &mut trailers {
                            Some(all) => all.extend(more),
                            None => trailers = Some(more),
                        }
                    }
                }
            },
            Some(Err(error)) => {
                let mut prefix: VecDeque<Frame<Bytes>> =
                    data.into_iter().map(Frame::data).collect();
                prefix.extend(trailers.map(Frame::trailers));
                return (
                    Buffered::Failed,
                    ContractBody {
                        kind: Kind::Stream {
                            prefix,
                            rest: None,
                            error: Some(error),
                        },
                    },
                );
            }
        }
    }
    let whole = match data.len() {
        0 => Bytes::new(),
        1 => data.pop().unwrap_or_default(),
        _ => {
            let mut all = BytesMut::with_capacity(size);
            for chunk in data {
                all.extend_from_slice(&chunk);
            }
            all.freeze()
        }
    };
    (
        Buffered::Whole(whole.clone()),
        ContractBody::full(whole, trailers),
    )
}

/// A body the layer passes on: the buffered bytes of one it read whole, or, for one over the
/// limit, what it read of it followed by the rest as it comes.
pub struct ContractBody<B: Body> {
    kind: Kind<B>,
}

enum Kind<B: Body> {
    Full {
        data: Option<Bytes>,
        trailers: Option<HeaderMap>,
    },
    Stream {
        prefix: VecDeque<Frame<Bytes>>,
        rest: Option<Pin<Box<B>>>,
        error: Option<B::Error>,
    },
}

// No field is pinned structurally: the inner body is boxed and pinned on its own, and the
// buffered bytes, frames and error are only moved out.
impl<B: Body> Unpin for ContractBody<B> {}

impl<B: Body> fmt::Debug for ContractBody<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Full { data, .. } => f
                .debug_struct("ContractBody::Full")
                .field("len", &data.as_ref().map_or(0, Bytes::len))
                .finish(),
            Kind::Stream { prefix, .. } => f
                .debug_struct("ContractBody::Stream")
                .field("prefix_frames", &prefix.len())
                .finish(),
        }
    }
}

impl<B: Body> ContractBody<B> {
    pub(crate) fn full(data: Bytes, trailers: Option<HeaderMap>) -> Self {
        ContractBody {
            kind: Kind::Full {
                data: (!data.is_empty()).then_some(data),
                trailers,
            },
        }
    }

    pub(crate) fn stream(prefix: VecDeque<Frame<Bytes>>, rest: B) -> Self {
        ContractBody {
            kind: Kind::Stream {
                prefix,
                rest: Some(Box::pin(rest)),
                error: None,
            },
        }
    }
}

impl<B> Body for ContractBody<B>
where
    B: Body<Data = Bytes>,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = self.get_mut();
        match &mut this.kind {
            Kind::Full { data, trailers } => {
                if let Some(data) = data.take() {
                    return Poll::Ready(Some(Ok(Frame::data(data))));
                }
                Poll::Ready(trailers.take().map(|t| Ok(Frame::trailers(t))))
            }
            Kind::Stream {
                prefix,
                rest,
                error,
            } => {
                if let Some(frame) = prefix.pop_front() {
                    return Poll::Ready(Some(Ok(frame)));
                }
                if let Some(error) = error.take() {
                    return Poll::Ready(Some(Err(error)));
                }
                match rest {
                    Some(rest) => rest.as_mut().poll_frame(cx),
                    None => Poll::Ready(None),
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Full { data, trailers } => data.is_none() && trailers.is_none(),
            Kind::Stream {
                prefix,
                rest,
                error,
            } => {
                prefix.is_empty()
                    && error.is_none()
                    && rest.as_ref().is_none_or(|rest| rest.is_end_stream())
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full { data, .. } => {
                SizeHint::with_exact(data.as_ref().map_or(0, |d| d.len() as u64))
            }
            Kind::Stream { prefix, rest, .. } => {
                let read: u64 = prefix
                    .iter()
                    .filter_map(Frame::data_ref)
                    .map(|d| d.len() as u64)
                    .sum();
                let rest = rest.as_ref().map(|r| r.size_hint()).unwrap_or_default();
                let mut hint = SizeHint::new();
                if let Some(upper) = rest.upper() {
                    hint.set_upper(upper.saturating_add(read));
                }
                hint.set_lower(rest.lower().saturating_add(read));
                hint
            }
        }
    }
}
