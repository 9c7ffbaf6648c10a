//! The catalogue: every check `specgen diff` runs, each with a stable id, a level and the side
//! it can break.
//!
//! Sides are the HTTP roles of the two programs an exchange pairs: [`Side::Clients`] is an old
//! HTTP client against a new HTTP server (API clients against the new server; the API's old
//! notification sender against new receivers), [`Side::Servers`] an old HTTP server against a
//! new HTTP client (the API's old server against new clients; old notification receivers
//! against the new sender). [`Side::Rust`] is the public API of the generated crate.
//!
//! Schema checks are made of a [`Flow`] (whose message) and a [`Facet`] (what changed in its
//! schema), and their level follows from one rule (`judge`): a change that narrows a message
//! breaks its old producers, one that widens it breaks its old consumers; the break is an
//! error when the old party is user code (API clients, notification receivers) and certain,
//! a warning when it is certain but only hurts the API's own old deployment (users upgrading
//! before the provider) or when it depends on how strictly the party checks what it reads,
//! and info otherwise.

use std::sync::OnceLock;

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A change worth knowing, that breaks nothing.
    Info,
    /// May break, depending on the party or on the order of deployment.
    Warning,
    /// Breaks existing user code or deployed users.
    Error,
}

impl Level {
    /// The level's name, as `--fail-on` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }

    /// The level named `text` (`warn` is accepted for `warning`).
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "info" => Some(Level::Info),
            "warning" | "warn" => Some(Level::Warning),
            "error" | "err" => Some(Level::Error),
            _ => None,
        }
    }
}

/// Which pairing of old and new programs a change can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Old clients (and the API's old notification sender) against the new server (and new
    /// notification receivers).
    Clients,
    /// Old servers and old notification receivers against new clients (and the new sender).
    Servers,
    /// User code written against the old generated crate, compiled against the new one.
    Rust,
}

impl Side {
    /// Every side, in report order.
    pub const ALL: [Side; 3] = [Side::Clients, Side::Servers, Side::Rust];

    /// The side's name, as `--side` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Clients => "clients",
            Side::Servers => "servers",
            Side::Rust => "rust",
        }
    }

    /// The side named `text`.
    pub fn parse(text: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| side.as_str() == text)
    }

    /// A heading for the side.
    pub fn title(self) -> &'static str {
        match self {
            Side::Clients => "Old clients against the new server",
            Side::Servers => "Old servers and notification receivers against new clients",
            Side::Rust => "Rust API of the generated crate",
        }
    }
}

/// The part of the document a check concerns, for the catalogue's grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Area {
    /// Paths and servers.
    Paths,
    /// Operations.
    Operations,
    /// Parameters.
    Parameters,
    /// Request bodies.
    RequestBodies,
    /// Responses, their statuses, media types and headers.
    Responses,
    /// Schemas of any message.
    Schemas,
    /// Enumerations.
    Enums,
    /// Security requirements and schemes.
    Security,
    /// Webhooks.
    Webhooks,
    /// The generated crate's public Rust API.
    RustApi,
}

impl Area {
    /// A heading for the area.
    pub fn title(self) -> &'static str {
        match self {
            Area::Paths => "Paths",
            Area::Operations => "Operations",
            Area::Parameters => "Parameters",
            Area::RequestBodies => "Request bodies",
            Area::Responses => "Responses",
            Area::Schemas => "Schemas",
            Area::Enums => "Enums",
            Area::Security => "Security",
            Area::Webhooks => "Webhooks",
            Area::RustApi => "Rust API",
        }
    }
}

/// One check of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// Stable id, e.g. `request-max-length-tightened`.
    pub id: String,
    /// Level of every finding of this check.
    pub level: Level,
    /// The side it can break (`None` for changes that break nothing).
    pub side: Option<Side>,
    /// What the document (or crate) area is.
    pub area: Area,
    /// What the check finds.
    pub summary: String,
}

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

/// A JSON Schema bound, compared between versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bound {
    /// `maxLength`
    MaxLength,
    /// `minLength`
    MinLength,
    /// `maximum` / `exclusiveMaximum`
    Maximum,
    /// `minimum` / `exclusiveMinimum`
    Minimum,
    /// `maxItems`
    MaxItems,
    /// `minItems`
    MinItems,
    /// `maxProperties`
    MaxProperties,
    /// `minProperties`
    MinProperties,
    /// `multipleOf`
    MultipleOf,
    /// `uniqueItems`
    UniqueItems,
}

impl Bound {
    /// Every bound.
    pub const ALL: [Bound; 10] = [
        Bound::MaxLength,
        Bound::MinLength,
        Bound::Maximum,
        Bound::Minimum,
        Bound::MaxItems,
        Bound::MinItems,
        Bound::MaxProperties,
        Bound::MinProperties,
        Bound::MultipleOf,
        Bound::UniqueItems,
    ];

    /// The id segment.
    pub fn slug(self) -> &'static str {
        match self {
            Bound::MaxLength => "max-length",
            Bound::MinLength => "min-length",
            Bound::Maximum => "maximum",
            Bound::Minimum => "minimum",
            Bound::MaxItems => "max-items",
            Bound::MinItems => "min-items",
            Bound::MaxProperties => "max-properties",
            Bound::MinProperties => "min-properties",
            Bound::MultipleOf => "multiple-of",
            Bound::UniqueItems => "unique-items",
        }
    }

    /// The keyword as the document spells it.
    pub fn keyword(self) -> &'static str {
        match self {
            Bound::MaxLength => "maxLength",
            Bound::MinLength => "minLength",
            Bound::Maximum => "maximum",
            Bound::Minimum => "minimum",
            Bound::MaxItems => "maxItems",
            Bound::MinItems => "minItems",
            Bound::MaxProperties => "maxProperties",
            Bound::MinProperties => "minProperties",
            Bound::MultipleOf => "multipleOf",
            Bound::UniqueItems => "uniqueItems",
        }
    }
}

/// What changed in a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Facet {
    /// The type (or format) changed to one neither wider nor narrower.
    TypeChanged,
    /// The type admits more (`integer` → `number`, a type added, `int32` → `int64`).
    TypeWidened,
    /// The type admits less.
    TypeNarrowed,
    /// `null` became allowed.
    BecameNullable,
    /// `null` is no longer allowed.
    BecameNotNullable,
    /// A value was added to a closed `enum` (or `const`).
    EnumValueAdded,
    /// A value was removed from a closed `enum`.
    EnumValueRemoved,
    /// A closed `enum` now restricts a schema that had none.
    BecameEnum,
    /// The closed `enum` was dropped (or made extensible).
    EnumRemoved,
    /// A value was added to an `x-extensible-enum`.
    ExtensibleEnumValueAdded,
    /// A value was removed from an `x-extensible-enum`.
    ExtensibleEnumValueRemoved,
    /// A bound was set or made stricter.
    Tightened(Bound),
    /// A bound was unset or made looser.
    Relaxed(Bound),
    /// A `pattern` was set.
    PatternAdded,
    /// The `pattern` changed.
    PatternChanged,
    /// The `pattern` was dropped.
    PatternRemoved,
    /// The `default` was set, changed or dropped.
    DefaultChanged,
    /// A new property, required.
    RequiredPropertyAdded,
    /// A new optional property of an open object.
    OptionalPropertyAdded,
    /// A new property where the object was closed (`additionalProperties: false`).
    PropertyAddedToClosedSchema,
    /// A required property was removed.
    RequiredPropertyRemoved,
    /// An optional property was removed.
    OptionalPropertyRemoved,
    /// A property was removed from a closed object, which now refuses it.
    PropertyRemovedFromClosedSchema,
    /// A property became required.
    PropertyBecameRequired,
    /// A property became optional.
    PropertyBecameOptional,
    /// `additionalProperties: false` was dropped.
    AdditionalPropertiesOpened,
    /// `additionalProperties: false` was set.
    AdditionalPropertiesClosed,
    /// A `oneOf` / `anyOf` alternative was added.
    AlternativeAdded,
    /// A `oneOf` / `anyOf` alternative was removed.
    AlternativeRemoved,
    /// The discriminator's property or a mapping changed.
    DiscriminatorChanged,
}

/// What a change does to the set of valid messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Fewer messages are valid: old producers may send what new consumers refuse.
    Narrows,
    /// More messages are valid: new producers may send what old consumers refuse.
    Widens,
    /// Neither: both pairings break.
    Changes,
    /// A member disappears: its old consumers lose it, its old producers are ignored.
    Removes {
        /// It was required, so old consumers counted on it.
        required: bool,
    },
    /// Nothing breaks.
    Neutral,
}

/// How sure the break is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Certainty {
    /// Every conforming party breaks (types, nullability, requiredness).
    Definite,
    /// Only parties that check more than their types break.
    Potential,
    /// A constraint: certain where the API reads the message (it checks its contract),
    /// potential where users read it.
    Validation,
}

impl Facet {
    /// Every facet.
    pub fn all() -> Vec<Facet> {
        let mut facets = vec![
            Facet::TypeChanged,
            Facet::TypeWidened,
            Facet::TypeNarrowed,
            Facet::BecameNullable,
            Facet::BecameNotNullable,
            Facet::EnumValueAdded,
            Facet::EnumValueRemoved,
            Facet::BecameEnum,
            Facet::EnumRemoved,
            Facet::ExtensibleEnumValueAdded,
            Facet::ExtensibleEnumValueRemoved,
        ];
        for bound in Bound::ALL {
            facets.push(Facet::Tightened(bound));
            facets.push(Facet::Relaxed(bound));
        }
        facets.extend([
            Facet::PatternAdded,
            Facet::PatternChanged,
            Facet::PatternRemoved,
            Facet::DefaultChanged,
            Facet::RequiredPropertyAdded,
            Facet::OptionalPropertyAdded,
            Facet::PropertyAddedToClosedSchema,
            Facet::RequiredPropertyRemoved,
            Facet::OptionalPropertyRemoved,
            Facet::PropertyRemovedFromClosedSchema,
            Facet::PropertyBecameRequired,
            Facet::PropertyBecameOptional,
            Facet::AdditionalPropertiesOpened,
            Facet::AdditionalPropertiesClosed,
            Facet::AlternativeAdded,
            Facet::AlternativeRemoved,
            Facet::DiscriminatorChanged,
        ]);
        facets
    }

    /// The id segment after the flow's prefix.
    pub fn slug(self) -> String {
        let fixed = match self {
            Facet::TypeChanged => "type-changed",
            Facet::TypeWidened => "type-widened",
            Facet::TypeNarrowed => "type-narrowed",
            Facet::BecameNullable => "became-nullable",
            Facet::BecameNotNullable => "became-not-nullable",
            Facet::EnumValueAdded => "enum-value-added",
            Facet::EnumValueRemoved => "enum-value-removed",
            Facet::BecameEnum => "became-enum",
            Facet::EnumRemoved => "enum-removed",
            Facet::ExtensibleEnumValueAdded => "extensible-enum-value-added",
            Facet::ExtensibleEnumValueRemoved => "extensible-enum-value-removed",
            Facet::Tightened(bound) => return format!("{}-tightened", bound.slug()),
            Facet::Relaxed(bound) => return format!("{}-relaxed", bound.slug()),
            Facet::PatternAdded => "pattern-added",
            Facet::PatternChanged => "pattern-changed",
            Facet::PatternRemoved => "pattern-removed",
            Facet::DefaultChanged => "default-changed",
            Facet::RequiredPropertyAdded => "required-property-added",
            Facet::OptionalPropertyAdded => "optional-property-added",
            Facet::PropertyAddedToClosedSchema => "property-added-to-closed-schema",
            Facet::RequiredPropertyRemoved => "required-property-removed",
            Facet::OptionalPropertyRemoved => "optional-property-removed",
            Facet::PropertyRemovedFromClosedSchema => "property-removed-from-closed-schema",
            Facet::PropertyBecameRequired => "property-became-required",
            Facet::PropertyBecameOptional => "property-became-optional",
            Facet::AdditionalPropertiesOpened => "additional-properties-opened",
            Facet::AdditionalPropertiesClosed => "additional-properties-closed",
            Facet::AlternativeAdded => "alternative-added",
            Facet::AlternativeRemoved => "alternative-removed",
            Facet::DiscriminatorChanged => "discriminator-changed",
        };
        fixed.to_string()
    }

    fn summary(self) -> String {
        let fixed = match self {
            Facet::TypeChanged => "type or format changed to an incompatible one",
            Facet::TypeWidened => "type or format admits more values",
            Facet::TypeNarrowed => "type or format admits fewer values",
            Facet::BecameNullable => "null became allowed",
            Facet::BecameNotNullable => "null is no longer allowed",
            Facet::EnumValueAdded => "enum value added",
            Facet::EnumValueRemoved => "enum value removed",
            Facet::BecameEnum => "values restricted to an enum",
            Facet::EnumRemoved => "enum restriction dropped or made extensible",
            Facet::ExtensibleEnumValueAdded => "x-extensible-enum value added",
            Facet::ExtensibleEnumValueRemoved => "x-extensible-enum value removed",
            Facet::Tightened(bound) => {
                return format!("`{}` set or made stricter", bound.keyword());
            }
            Facet::Relaxed(bound) => return format!("`{}` unset or made looser", bound.keyword()),
            Facet::PatternAdded => "pattern set",
            Facet::PatternChanged => "pattern changed",
            Facet::PatternRemoved => "pattern dropped",
            Facet::DefaultChanged => "default value set, changed or dropped",
            Facet::RequiredPropertyAdded => "new required property",
            Facet::OptionalPropertyAdded => "new optional property",
            Facet::PropertyAddedToClosedSchema => {
                "new property where the object was closed (additionalProperties: false)"
            }
            Facet::RequiredPropertyRemoved => "required property removed",
            Facet::OptionalPropertyRemoved => "optional property removed",
            Facet::PropertyRemovedFromClosedSchema => {
                "property removed from a closed object, which now refuses it"
            }
            Facet::PropertyBecameRequired => "property became required",
            Facet::PropertyBecameOptional => "property became optional",
            Facet::AdditionalPropertiesOpened => "additionalProperties: false dropped",
            Facet::AdditionalPropertiesClosed => "additionalProperties: false set",
            Facet::AlternativeAdded => "oneOf/anyOf alternative added",
            Facet::AlternativeRemoved => "oneOf/anyOf alternative removed",
            Facet::DiscriminatorChanged => "discriminator property or mapping changed",
        };
        fixed.to_string()
    }

    fn area(self) -> Area {
        match self {
            Facet::EnumValueAdded
            | Facet::EnumValueRemoved
            | Facet::BecameEnum
            | Facet::EnumRemoved
            | Facet::ExtensibleEnumValueAdded
            | Facet::ExtensibleEnumValueRemoved => Area::Enums,
            _ => Area::Schemas,
        }
    }

    fn effect(self) -> (Effect, Certainty) {
        use Certainty::*;
        use Effect::*;
        match self {
            Facet::TypeChanged => (Changes, Definite),
            Facet::TypeWidened | Facet::BecameNullable | Facet::PropertyBecameOptional => {
                (Widens, Definite)
            }
            Facet::TypeNarrowed
            | Facet::BecameNotNullable
            | Facet::RequiredPropertyAdded
            | Facet::PropertyBecameRequired => (Narrows, Definite),
            Facet::EnumValueAdded
            | Facet::EnumRemoved
            | Facet::Relaxed(_)
            | Facet::PatternRemoved
            | Facet::PropertyAddedToClosedSchema
            | Facet::AlternativeAdded => (Widens, Validation),
            Facet::EnumValueRemoved
            | Facet::BecameEnum
            | Facet::ExtensibleEnumValueRemoved
            | Facet::Tightened(_)
            | Facet::PropertyRemovedFromClosedSchema
            | Facet::AlternativeRemoved => (Narrows, Validation),
            Facet::AdditionalPropertiesOpened => (Widens, Potential),
            Facet::AdditionalPropertiesClosed => (Narrows, Potential),
            // A pattern's language cannot be compared: the new one may accept every old value.
            Facet::PatternAdded => (Narrows, Potential),
            Facet::PatternChanged => (Changes, Potential),
            Facet::DiscriminatorChanged => (Changes, Definite),
            Facet::RequiredPropertyRemoved => (Removes { required: true }, Definite),
            Facet::OptionalPropertyRemoved => (Removes { required: false }, Potential),
            // Consumers were told to expect values beyond the list.
            Facet::ExtensibleEnumValueAdded | Facet::OptionalPropertyAdded => (Neutral, Potential),
            // What an absent member means changes for the one who reads it; only the API's
            // reading (of requests and replies) acts on defaults.
            Facet::DefaultChanged => (Changes, Potential),
        }
    }
}

/// The side and level of a schema check: see the module documentation.
fn judge(flow: Flow, facet: Facet) -> (Option<Side>, Level) {
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

/// Checks on the structure of the document: paths, operations, parameters, bodies, responses,
/// security and webhooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Structural {
    /// A whole path went, none of its operations deprecated.
    PathRemovedWithoutDeprecation,
    /// A whole path went, every operation of it deprecated.
    PathRemovedWithDeprecation,
    /// An operation went, not deprecated.
    OperationRemovedWithoutDeprecation,
    /// A deprecated operation went.
    OperationRemovedWithDeprecation,
    /// A new operation.
    OperationAdded,
    /// An operation became deprecated.
    OperationDeprecated,
    /// An operation is no longer deprecated.
    OperationReactivated,
    /// The `operationId` changed.
    OperationIdChanged,
    /// The servers' base path changed.
    BasePathChanged,
    /// A new required parameter.
    ParameterAddedRequired,
    /// A new optional parameter.
    ParameterAddedOptional,
    /// A parameter went.
    ParameterRemoved,
    /// A parameter became required.
    ParameterBecameRequired,
    /// A parameter became optional.
    ParameterBecameOptional,
    /// A request body, required, where there was none.
    RequestBodyAddedRequired,
    /// An optional request body where there was none.
    RequestBodyAddedOptional,
    /// The request body went.
    RequestBodyRemoved,
    /// The request body became required.
    RequestBodyBecameRequired,
    /// The request body became optional.
    RequestBodyBecameOptional,
    /// A request media type went.
    RequestMediaTypeRemoved,
    /// A request media type was added.
    RequestMediaTypeAdded,
    /// A success status went.
    ResponseSuccessStatusRemoved,
    /// An error status (or `default`) went.
    ResponseErrorStatusRemoved,
    /// A new success status.
    ResponseSuccessStatusAdded,
    /// A new error status.
    ResponseErrorStatusAdded,
    /// A response media type went.
    ResponseMediaTypeRemoved,
    /// A response media type was added.
    ResponseMediaTypeAdded,
    /// A response lost its body.
    ResponseBodyRemoved,
    /// A response gained a body.
    ResponseBodyAdded,
    /// A required response header went.
    ResponseRequiredHeaderRemoved,
    /// An optional response header went.
    ResponseOptionalHeaderRemoved,
    /// A response header became optional.
    ResponseHeaderBecameOptional,
    /// A new response header.
    ResponseHeaderAdded,
    /// An operation without security now requires it.
    SecurityAdded,
    /// An operation no longer requires security.
    SecurityRemoved,
    /// A way to authenticate that old clients may use is no longer accepted.
    SecurityRequirementRemoved,
    /// A new way to authenticate.
    SecurityRequirementAdded,
    /// A requirement asks for a new OAuth scope.
    SecurityScopeAdded,
    /// A requirement asks for fewer scopes.
    SecurityScopeRemoved,
    /// A security scheme that operations use changed how the credential travels.
    SecuritySchemeChanged,
    /// A new webhook.
    WebhookAdded,
    /// A webhook went.
    WebhookRemoved,
    /// A webhook is delivered with another method or to another path.
    WebhookDeliveryChanged,
    /// The reply status the sender expects changed.
    WebhookReplyStatusChanged,
}

impl Structural {
    /// Every structural check.
    pub const ALL: [Structural; 44] = [
        Structural::PathRemovedWithoutDeprecation,
        Structural::PathRemovedWithDeprecation,
        Structural::OperationRemovedWithoutDeprecation,
        Structural::OperationRemovedWithDeprecation,
        Structural::OperationAdded,
        Structural::OperationDeprecated,
        Structural::OperationReactivated,
        Structural::OperationIdChanged,
        Structural::BasePathChanged,
        Structural::ParameterAddedRequired,
        Structural::ParameterAddedOptional,
        Structural::ParameterRemoved,
        Structural::ParameterBecameRequired,
        Structural::ParameterBecameOptional,
        Structural::RequestBodyAddedRequired,
        Structural::RequestBodyAddedOptional,
        Structural::RequestBodyRemoved,
        Structural::RequestBodyBecameRequired,
        Structural::RequestBodyBecameOptional,
        Structural::RequestMediaTypeRemoved,
        Structural::RequestMediaTypeAdded,
        Structural::ResponseSuccessStatusRemoved,
        Structural::ResponseErrorStatusRemoved,
        Structural::ResponseSuccessStatusAdded,
        Structural::ResponseErrorStatusAdded,
        Structural::ResponseMediaTypeRemoved,
        Structural::ResponseMediaTypeAdded,
        Structural::ResponseBodyRemoved,
        Structural::ResponseBodyAdded,
        Structural::ResponseRequiredHeaderRemoved,
        Structural::ResponseOptionalHeaderRemoved,
        Structural::ResponseHeaderBecameOptional,
        Structural::ResponseHeaderAdded,
        Structural::SecurityAdded,
        Structural::SecurityRemoved,
        Structural::SecurityRequirementRemoved,
        Structural::SecurityRequirementAdded,
        Structural::SecurityScopeAdded,
        Structural::SecurityScopeRemoved,
        Structural::SecuritySchemeChanged,
        Structural::WebhookAdded,
        Structural::WebhookRemoved,
        Structural::WebhookDeliveryChanged,
        Structural::WebhookReplyStatusChanged,
    ];

    /// Id, side, level, area and summary.
    pub fn spec(self) -> (&'static str, Option<Side>, Level, Area, &'static str) {
        use Area::*;
        use Level::*;
        const C: Option<Side> = Some(Side::Clients);
        const S: Option<Side> = Some(Side::Servers);
        match self {
            Structural::PathRemovedWithoutDeprecation => (
                "api-path-removed-without-deprecation",
                C,
                Error,
                Paths,
                "path removed, its operations not deprecated first",
            ),
            Structural::PathRemovedWithDeprecation => (
                "api-path-removed-with-deprecation",
                C,
                Warning,
                Paths,
                "path removed after its operations were deprecated (clients still calling it break)",
            ),
            Structural::OperationRemovedWithoutDeprecation => (
                "api-removed-without-deprecation",
                C,
                Error,
                Operations,
                "operation removed without being deprecated first",
            ),
            Structural::OperationRemovedWithDeprecation => (
                "api-removed-with-deprecation",
                C,
                Warning,
                Operations,
                "deprecated operation removed (clients still calling it break)",
            ),
            Structural::OperationAdded => {
                ("endpoint-added", None, Info, Operations, "operation added")
            }
            Structural::OperationDeprecated => (
                "endpoint-deprecated",
                None,
                Info,
                Operations,
                "operation deprecated",
            ),
            Structural::OperationReactivated => (
                "endpoint-reactivated",
                None,
                Info,
                Operations,
                "operation no longer deprecated",
            ),
            Structural::OperationIdChanged => (
                "api-operation-id-changed",
                None,
                Info,
                Operations,
                "operationId changed (nothing on the wire; the Rust names follow it)",
            ),
            Structural::BasePathChanged => (
                "api-base-path-changed",
                C,
                Error,
                Paths,
                "the base path of the first server changed",
            ),
            Structural::ParameterAddedRequired => (
                "request-parameter-added-required",
                C,
                Error,
                Parameters,
                "new required parameter",
            ),
            Structural::ParameterAddedOptional => (
                "request-parameter-added-optional",
                None,
                Info,
                Parameters,
                "new optional parameter",
            ),
            Structural::ParameterRemoved => (
                "request-parameter-removed",
                C,
                Warning,
                Parameters,
                "parameter removed: what old clients send is ignored",
            ),
            Structural::ParameterBecameRequired => (
                "request-parameter-became-required",
                C,
                Error,
                Parameters,
                "parameter became required",
            ),
            Structural::ParameterBecameOptional => (
                "request-parameter-became-optional",
                S,
                Warning,
                Parameters,
                "parameter became optional: old servers require what new clients may leave out",
            ),
            Structural::RequestBodyAddedRequired => (
                "request-body-added-required",
                C,
                Error,
                RequestBodies,
                "required request body added",
            ),
            Structural::RequestBodyAddedOptional => (
                "request-body-added-optional",
                None,
                Info,
                RequestBodies,
                "optional request body added",
            ),
            Structural::RequestBodyRemoved => (
                "request-body-removed",
                C,
                Warning,
                RequestBodies,
                "request body removed: what old clients send is ignored",
            ),
            Structural::RequestBodyBecameRequired => (
                "request-body-became-required",
                C,
                Error,
                RequestBodies,
                "request body became required",
            ),
            Structural::RequestBodyBecameOptional => (
                "request-body-became-optional",
                S,
                Warning,
                RequestBodies,
                "request body became optional: old servers require what new clients may leave out",
            ),
            Structural::RequestMediaTypeRemoved => (
                "request-media-type-removed",
                C,
                Error,
                RequestBodies,
                "request media type removed",
            ),
            Structural::RequestMediaTypeAdded => (
                "request-media-type-added",
                S,
                Warning,
                RequestBodies,
                "request media type added: old servers refuse it",
            ),
            Structural::ResponseSuccessStatusRemoved => (
                "response-success-status-removed",
                C,
                Error,
                Responses,
                "success status removed",
            ),
            Structural::ResponseErrorStatusRemoved => (
                "response-error-status-removed",
                C,
                Warning,
                Responses,
                "error status (or default) removed",
            ),
            Structural::ResponseSuccessStatusAdded => (
                "response-success-status-added",
                C,
                Warning,
                Responses,
                "success status added: old clients do not know it",
            ),
            Structural::ResponseErrorStatusAdded => (
                "response-error-status-added",
                None,
                Info,
                Responses,
                "error status added",
            ),
            Structural::ResponseMediaTypeRemoved => (
                "response-media-type-removed",
                C,
                Error,
                Responses,
                "response media type removed",
            ),
            Structural::ResponseMediaTypeAdded => (
                "response-media-type-added",
                None,
                Info,
                Responses,
                "response media type added",
            ),
            Structural::ResponseBodyRemoved => (
                "response-body-removed",
                C,
                Error,
                Responses,
                "response body removed",
            ),
            Structural::ResponseBodyAdded => (
                "response-body-added",
                None,
                Info,
                Responses,
                "response body added where there was none",
            ),
            Structural::ResponseRequiredHeaderRemoved => (
                "response-required-header-removed",
                C,
                Error,
                Responses,
                "required response header removed",
            ),
            Structural::ResponseOptionalHeaderRemoved => (
                "response-optional-header-removed",
                C,
                Warning,
                Responses,
                "optional response header removed",
            ),
            Structural::ResponseHeaderBecameOptional => (
                "response-header-became-optional",
                C,
                Error,
                Responses,
                "response header became optional",
            ),
            Structural::ResponseHeaderAdded => (
                "response-header-added",
                None,
                Info,
                Responses,
                "response header added",
            ),
            Structural::SecurityAdded => (
                "api-security-added",
                C,
                Error,
                Security,
                "an operation open to anyone now requires credentials",
            ),
            Structural::SecurityRemoved => (
                "api-security-removed",
                S,
                Warning,
                Security,
                "an operation no longer requires credentials: old servers refuse new clients' calls",
            ),
            Structural::SecurityRequirementRemoved => (
                "api-security-requirement-removed",
                C,
                Error,
                Security,
                "a way to authenticate is no longer accepted",
            ),
            Structural::SecurityRequirementAdded => (
                "api-security-requirement-added",
                None,
                Info,
                Security,
                "a new way to authenticate is accepted",
            ),
            Structural::SecurityScopeAdded => (
                "api-security-scope-added",
                C,
                Error,
                Security,
                "a security requirement asks for a new scope",
            ),
            Structural::SecurityScopeRemoved => (
                "api-security-scope-removed",
                None,
                Info,
                Security,
                "a security requirement asks for fewer scopes",
            ),
            Structural::SecuritySchemeChanged => (
                "security-scheme-changed",
                C,
                Error,
                Security,
                "a security scheme in use changed its type or where the credential travels",
            ),
            Structural::WebhookAdded => ("webhook-added", None, Info, Webhooks, "webhook added"),
            Structural::WebhookRemoved => (
                "webhook-removed",
                S,
                Warning,
                Webhooks,
                "webhook removed: receivers no longer get it",
            ),
            Structural::WebhookDeliveryChanged => (
                "webhook-delivery-changed",
                S,
                Error,
                Webhooks,
                "webhook delivered with another method or to another path",
            ),
            Structural::WebhookReplyStatusChanged => (
                "webhook-reply-status-changed",
                S,
                Error,
                Webhooks,
                "the reply status the sender expects changed",
            ),
        }
    }
}

/// Checks on the public API of the generated crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RustCheck {
    /// `server`, `client` or `webhooks` no longer generated.
    ModuleRemoved,
    /// A new module.
    ModuleAdded,
    /// A type went.
    TypeRemoved,
    /// A type has a new name.
    TypeRenamed,
    /// A new type.
    TypeAdded,
    /// A type changed kind, or what a newtype wraps or an alias names changed.
    TypeChanged,
    /// A struct field went.
    FieldRemoved,
    /// A struct field has a new name.
    FieldRenamed,
    /// A field's type changed.
    FieldTypeChanged,
    /// `T` became `Option<T>`.
    FieldOptionAdded,
    /// `Option<T>` became `T`.
    FieldOptionRemoved,
    /// A new field every struct literal must give: not an `Option`, or the struct has no
    /// `Default`.
    FieldAdded,
    /// A new `Option` field on a struct that keeps `Default`.
    OptionalFieldAdded,
    /// The struct no longer derives `Default`.
    DefaultRemoved,
    /// The struct now derives `Default`.
    DefaultAdded,
    /// An enum variant went.
    VariantRemoved,
    /// An enum variant has a new name.
    VariantRenamed,
    /// A variant's payload changed.
    VariantPayloadChanged,
    /// A new variant.
    VariantAdded,
    /// An inherent method or function went.
    MethodRemoved,
    /// A method has a new name.
    MethodRenamed,
    /// A method's arguments or return type changed.
    MethodSignatureChanged,
    /// A method's positional arguments keep their types but mean other parameters.
    MethodArgumentsShifted,
    /// A new method.
    MethodAdded,
    /// A new method of `server::Api` or `webhooks::Webhooks`.
    TraitMethodAdded,
    /// A trait method went.
    TraitMethodRemoved,
    /// A trait method has a new name.
    TraitMethodRenamed,
    /// A trait method's signature changed.
    TraitMethodSignatureChanged,
    /// `info.version` moved by less than the crate needs.
    VersionBumpInsufficient,
}

impl RustCheck {
    /// Every Rust check.
    pub const ALL: [RustCheck; 29] = [
        RustCheck::ModuleRemoved,
        RustCheck::ModuleAdded,
        RustCheck::TypeRemoved,
        RustCheck::TypeRenamed,
        RustCheck::TypeAdded,
        RustCheck::TypeChanged,
        RustCheck::FieldRemoved,
        RustCheck::FieldRenamed,
        RustCheck::FieldTypeChanged,
        RustCheck::FieldOptionAdded,
        RustCheck::FieldOptionRemoved,
        RustCheck::FieldAdded,
        RustCheck::OptionalFieldAdded,
        RustCheck::DefaultRemoved,
        RustCheck::DefaultAdded,
        RustCheck::VariantRemoved,
        RustCheck::VariantRenamed,
        RustCheck::VariantPayloadChanged,
        RustCheck::VariantAdded,
        RustCheck::MethodRemoved,
        RustCheck::MethodRenamed,
        RustCheck::MethodSignatureChanged,
        RustCheck::MethodArgumentsShifted,
        RustCheck::MethodAdded,
        RustCheck::TraitMethodAdded,
        RustCheck::TraitMethodRemoved,
        RustCheck::TraitMethodRenamed,
        RustCheck::TraitMethodSignatureChanged,
        RustCheck::VersionBumpInsufficient,
    ];

    /// Id, level and summary.
    pub fn spec(self) -> (&'static str, Level, &'static str) {
        use Level::*;
        match self {
            RustCheck::ModuleRemoved => (
                "rust-module-removed",
                Error,
                "module no longer generated (its cargo feature is empty)",
            ),
            RustCheck::ModuleAdded => ("rust-module-added", Info, "module added"),
            RustCheck::TypeRemoved => ("rust-type-removed", Error, "type removed"),
            RustCheck::TypeRenamed => ("rust-type-renamed", Error, "type renamed"),
            RustCheck::TypeAdded => ("rust-type-added", Info, "type added"),
            RustCheck::TypeChanged => (
                "rust-type-changed",
                Error,
                "type changed kind, or what it wraps or names changed",
            ),
            RustCheck::FieldRemoved => ("rust-field-removed", Error, "struct field removed"),
            RustCheck::FieldRenamed => ("rust-field-renamed", Error, "struct field renamed"),
            RustCheck::FieldTypeChanged => (
                "rust-field-type-changed",
                Error,
                "struct field's type changed",
            ),
            RustCheck::FieldOptionAdded => (
                "rust-field-option-added",
                Error,
                "struct field became an Option",
            ),
            RustCheck::FieldOptionRemoved => (
                "rust-field-option-removed",
                Error,
                "struct field is no longer an Option",
            ),
            RustCheck::FieldAdded => (
                "rust-field-added",
                Error,
                "new field every struct literal must give (not an Option, or the struct has no Default)",
            ),
            RustCheck::OptionalFieldAdded => (
                "rust-optional-field-added",
                Warning,
                "new Option field: struct literals without `..Default::default()` break",
            ),
            RustCheck::DefaultRemoved => (
                "rust-default-removed",
                Warning,
                "struct no longer implements Default",
            ),
            RustCheck::DefaultAdded => {
                ("rust-default-added", Info, "struct now implements Default")
            }
            RustCheck::VariantRemoved => ("rust-variant-removed", Error, "enum variant removed"),
            RustCheck::VariantRenamed => ("rust-variant-renamed", Error, "enum variant renamed"),
            RustCheck::VariantPayloadChanged => (
                "rust-variant-payload-changed",
                Error,
                "enum variant's payload changed",
            ),
            RustCheck::VariantAdded => (
                "rust-variant-added",
                Warning,
                "enum variant added: exhaustive matches break",
            ),
            RustCheck::MethodRemoved => ("rust-method-removed", Error, "method removed"),
            RustCheck::MethodRenamed => ("rust-method-renamed", Error, "method renamed"),
            RustCheck::MethodSignatureChanged => (
                "rust-method-signature-changed",
                Error,
                "method's arguments or return type changed",
            ),
            RustCheck::MethodArgumentsShifted => (
                "rust-method-arguments-shifted",
                Error,
                "method's arguments keep their types but stand for other parameters: calls compile and send values as the wrong parameter",
            ),
            RustCheck::MethodAdded => ("rust-method-added", Info, "method added"),
            RustCheck::TraitMethodAdded => (
                "rust-trait-method-added",
                Error,
                "trait method added: every implementation breaks",
            ),
            RustCheck::TraitMethodRemoved => (
                "rust-trait-method-removed",
                Error,
                "trait method removed: implementations defining it break",
            ),
            RustCheck::TraitMethodRenamed => {
                ("rust-trait-method-renamed", Error, "trait method renamed")
            }
            RustCheck::TraitMethodSignatureChanged => (
                "rust-trait-method-signature-changed",
                Error,
                "trait method's signature changed",
            ),
            RustCheck::VersionBumpInsufficient => (
                "rust-version-bump-insufficient",
                Warning,
                "info.version (the crate's version) moves by less than the changes need",
            ),
        }
    }
}

/// The whole catalogue, in a stable order: schema checks by flow, structural checks, Rust
/// checks.
pub fn catalogue() -> &'static [Check] {
    static CATALOGUE: OnceLock<Vec<Check>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let mut checks = Vec::new();
        for check in Structural::ALL {
            let (id, side, level, area, summary) = check.spec();
            checks.push(Check {
                id: id.to_string(),
                level,
                side,
                area,
                summary: summary.to_string(),
            });
        }
        for flow in Flow::ALL {
            for facet in Facet::all() {
                let (side, level) = judge(flow, facet);
                checks.push(Check {
                    id: schema_id(flow, facet),
                    level,
                    side,
                    area: facet.area(),
                    summary: format!("{}: {}", flow.noun(), facet.summary()),
                });
            }
        }
        for check in RustCheck::ALL {
            let (id, level, summary) = check.spec();
            checks.push(Check {
                id: id.to_string(),
                level,
                side: Some(Side::Rust),
                area: Area::RustApi,
                summary: summary.to_string(),
            });
        }
        checks
    })
}

/// The check with this id.
pub fn find(id: &str) -> Option<&'static Check> {
    catalogue().iter().find(|check| check.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<&str> = catalogue().iter().map(|c| c.id.as_str()).collect();
        let count = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), count);
    }

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
