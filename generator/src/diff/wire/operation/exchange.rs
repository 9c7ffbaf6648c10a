//! The two versions of one exchange (an operation or a webhook), and the report of a flag of
//! it that flipped between them.

use serde_json::Value;

use crate::diff::checks::{Flow, Structural};
use crate::diff::collect::Collector;
use crate::diff::finding::Which;

/// An operation object in one document.
#[derive(Debug, Clone)]
pub(crate) struct Op<'d> {
    /// The operation object.
    pub value: &'d Value,
    /// Its pointer.
    pub at: String,
    /// The path item holding it (for path-level parameters).
    pub item: &'d Value,
    /// The path item's pointer.
    pub item_at: String,
    /// The path template (operations) or delivery path (webhooks).
    pub path: String,
}

/// The two versions of one exchange.
pub(crate) struct Pair<'a, 'd> {
    pub old: &'a Op<'d>,
    pub new: &'a Op<'d>,
    /// `GET /pets` or `webhook newPet`.
    pub use_: &'a str,
    /// A webhook: the API sends the request.
    pub webhook: bool,
}

impl Pair<'_, '_> {
    pub(super) fn request_flow(&self) -> Flow {
        if self.webhook {
            Flow::WebhookPayload
        } else {
            Flow::Request
        }
    }

    pub(super) fn response_flow(&self) -> Flow {
        if self.webhook {
            Flow::WebhookReply
        } else {
            Flow::Response
        }
    }
}

/// A flag of the exchange that flipped: `on` reports it becoming true, `off` false.
pub(super) struct Flip<'a> {
    pub(super) on: Structural,
    pub(super) off: Structural,
    /// What the flag is about, e.g. `GET /pets: parameter id (query)`.
    pub(super) label: &'a str,
    /// How to say it became true, and false.
    pub(super) words: (&'a str, &'a str),
}

impl Flip<'_> {
    pub(super) fn report(&self, out: &mut Collector, flags: (bool, bool), at: &str, use_: &str) {
        let (check, word) = match flags {
            (false, true) => (self.on, self.words.0),
            (true, false) => (self.off, self.words.1),
            _ => return,
        };
        out.structural(
            check,
            Which::New,
            at,
            format!("{} {word}", self.label),
            use_,
        );
    }
}
