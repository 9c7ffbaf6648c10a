//! Structural checks: the catalogue entries for paths, operations, parameters, bodies,
//! responses, security and webhooks, each with its id, side, level, area and summary.

use super::check::{Area, Level, Side};

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
    /// A status range (`2XX`) became statuses within it (`200`): old servers may answer one the
    /// new clients do not expect.
    ResponseStatusRangeNarrowed,
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
    pub const ALL: [Structural; 45] = [
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
        Structural::ResponseStatusRangeNarrowed,
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
            Structural::ResponseStatusRangeNarrowed => (
                "response-status-range-narrowed",
                S,
                Warning,
                Responses,
                "status range replaced by statuses within it: old servers may answer one new \
                 clients do not expect",
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
