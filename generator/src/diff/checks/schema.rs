//! Schema checks: whose message a schema belongs to ([`Flow`]) and the rule that gives a
//! change of it (a [`Facet`]) its side and level (see the module documentation of
//! [`super`]).

use super::check::{Level, Side};
use super::facet::{Certainty, Effect, Facet};

/// Whose message a schema belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Flow {
    /// An operation's request: parameters and body, sent by clients, read by the server.
    Request,
    /// An operation's response: body and headers, sent by the server, read by clients.
    Response,
    /// A webhook's payload, sent by the API, read by its users' receivers.
    WebhookPayload,
    /// A webhook receiver's reply, sent by receivers, read by the API's sender.
    WebhookReply,
}

impl Flow {
    /// Every flow.
    pub const ALL: [Flow; 4] = [
        Flow::Request,
        Flow::Response,
        Flow::WebhookPayload,
        Flow::WebhookReply,
    ];

    /// The id prefix of the flow's schema checks.
    pub fn prefix(self) -> &'static str {
        match self {
            Flow::Request => "request",
            Flow::Response => "response",
            Flow::WebhookPayload => "webhook-payload",
            Flow::WebhookReply => "webhook-reply",
        }
    }

    /// The message, in prose.
    pub fn noun(self) -> &'static str {
        match self {
            Flow::Request => "request",
            Flow::Response => "response",
            Flow::WebhookPayload => "webhook payload",
            Flow::WebhookReply => "webhook reply",
        }
    }

    /// Whether the message is an HTTP request (sent by the HTTP client).
    fn is_request(self) -> bool {
        matches!(self, Flow::Request | Flow::WebhookPayload)
    }

    /// Whether the API is the HTTP server of the exchange (operations), rather than its HTTP
    /// client (webhooks).
    fn api_serves(self) -> bool {
        matches!(self, Flow::Request | Flow::Response)
    }

    /// Whether the party that reads the message is the API (its server, or its sender reading
    /// replies), which checks messages against its contract.
    pub fn api_reads(self) -> bool {
        matches!(self, Flow::Request | Flow::WebhookReply)
    }
}

/// The side and level of a schema check: see the module documentation.
pub(super) fn judge(flow: Flow, facet: Facet) -> (Option<Side>, Level) {
    let (effect, certainty) = facet.effect();
    // The HTTP role of a message's producer and consumer.
    let producer = if flow.is_request() {
        Side::Clients
    } else {
        Side::Servers
    };
    let consumer = match producer {
        Side::Clients => Side::Servers,
        _ => Side::Clients,
    };
    // User code: API clients (operations), notification receivers (webhooks).
    let user = if flow.api_serves() {
        Side::Clients
    } else {
        Side::Servers
    };
    let certainty = match certainty {
        Certainty::Validation if flow.api_reads() => Certainty::Definite,
        Certainty::Validation => Certainty::Potential,
        other => other,
    };
    let (side, certainty) = match effect {
        Effect::Neutral => return (None, Level::Info),
        Effect::Narrows => (producer, certainty),
        Effect::Widens => (consumer, certainty),
        Effect::Changes if facet == Facet::DefaultChanged && !flow.api_reads() => {
            return (None, Level::Info);
        }
        Effect::Changes => (user, certainty),
        // Old consumers lose the member; old producers send what is now ignored. The user's
        // view is the one reported: users reading lose it, users sending are ignored.
        Effect::Removes { required } => {
            if consumer == user {
                (
                    user,
                    if required {
                        Certainty::Definite
                    } else {
                        Certainty::Potential
                    },
                )
            } else {
                (user, Certainty::Potential)
            }
        }
    };
    let level = match (side == user, certainty) {
        (true, Certainty::Definite) => Level::Error,
        (true, _) | (false, Certainty::Definite) => Level::Warning,
        (false, _) => Level::Info,
    };
    (Some(side), level)
}

/// The id of a schema check.
pub fn schema_id(flow: Flow, facet: Facet) -> String {
    format!("{}-{}", flow.prefix(), facet.slug())
}

/// The side and level of a schema check.
pub fn schema_level(flow: Flow, facet: Facet) -> (Option<Side>, Level) {
    judge(flow, facet)
}

#[cfg(test)]
mod tests {
    use super::super::facet::Bound;
    use super::*;

    #[test]
    fn the_rule_gives_the_expected_levels() {
        let level = |flow, facet| judge(flow, facet);
        let c = Some(Side::Clients);
        let s = Some(Side::Servers);
        use Facet::*;
        // Old clients against the new server.
        assert_eq!(
            level(Flow::Request, Tightened(Bound::MaxLength)),
            (c, Level::Error)
        );
        assert_eq!(
            level(Flow::Request, RequiredPropertyAdded),
            (c, Level::Error)
        );
        assert_eq!(level(Flow::Request, EnumValueRemoved), (c, Level::Error));
        assert_eq!(level(Flow::Request, PatternAdded), (c, Level::Warning));
        assert_eq!(
            level(Flow::Request, OptionalPropertyRemoved),
            (c, Level::Warning)
        );
        assert_eq!(
            level(Flow::Response, RequiredPropertyRemoved),
            (c, Level::Error)
        );
        assert_eq!(
            level(Flow::Response, OptionalPropertyRemoved),
            (c, Level::Warning)
        );
        assert_eq!(level(Flow::Response, EnumValueAdded), (c, Level::Warning));
        assert_eq!(level(Flow::Response, BecameNullable), (c, Level::Error));
        assert_eq!(level(Flow::Response, TypeChanged), (c, Level::Error));
        assert_eq!(
            level(Flow::Response, PropertyAddedToClosedSchema),
            (c, Level::Warning)
        );
        // Old servers against new clients.
        assert_eq!(level(Flow::Request, EnumValueAdded), (s, Level::Warning));
        assert_eq!(
            level(Flow::Response, RequiredPropertyAdded),
            (s, Level::Warning)
        );
        assert_eq!(
            level(Flow::Response, Tightened(Bound::MaxLength)),
            (s, Level::Info)
        );
        // Notification receivers against the new sender.
        assert_eq!(
            level(Flow::WebhookPayload, PropertyAddedToClosedSchema),
            (s, Level::Warning)
        );
        assert_eq!(
            level(Flow::WebhookPayload, RequiredPropertyRemoved),
            (s, Level::Error)
        );
        assert_eq!(level(Flow::WebhookPayload, TypeChanged), (s, Level::Error));
        assert_eq!(
            level(Flow::WebhookReply, RequiredPropertyAdded),
            (s, Level::Error)
        );
        // Changes that break nobody.
        assert_eq!(
            level(Flow::Response, OptionalPropertyAdded),
            (None, Level::Info)
        );
        assert_eq!(level(Flow::Response, DefaultChanged), (None, Level::Info));
        assert_eq!(level(Flow::Request, DefaultChanged), (c, Level::Warning));
    }
}
