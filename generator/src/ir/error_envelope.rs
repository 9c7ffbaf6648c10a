//! How a generated server words the requests it rejects before any handler runs (a parameter
//! or body that breaks the contract, missing credentials, an unknown path or method): in the
//! error body the spec documents, when the server can fill it, else as RFC 9457 problem
//! details. Derived once from the IR, so the server emitter only renders it.
//!
//! The documented body is the one most error responses (4xx and 5xx) use ([`error_body`]).
//! The server can fill it when it is an object whose required members are all among those it
//! knows how to fill: a code (`code`, `error_code`, `errorCode`, `error`: a string, or an enum
//! that has the server's codes, [`REJECTION_CODES`]), the messages (`messages`, `errors`,
//! `errorMessages`, `details`: an array of strings, or of objects the server can fill with a
//! message and a code, JSON:API's `errors: [{code, detail}]`; or `message`, `detail`,
//! `error_description`: one string) and the HTTP status (`http_code`, `status`,
//! `status_code`, `statusCode`, or `code` as a number: an integer). It must hold a code or a
//! message: an envelope without either would say nothing about the rejection. RFC 9457's
//! `type` and `title`, as text members, are filled too (`about:blank` and the reason phrase)
//! where the body requires either or has both: Adyen's `RestServiceError` extends problem
//! details with its `errorCode`. Where the body holds such an envelope in its member `error`
//! and requires nothing else (`{"error": {"code": …, "message": …}}`: Azure's `CloudError`,
//! Microsoft Graph, Google's APIs), the server fills that one.

use std::collections::BTreeMap;

use super::{Api, Operation, Scalar, StatusSpec, TypeKind, TypeRef};

/// The codes the generated server answers an operation's rejections with (400 and 401). An
/// enum of codes must list them; the 404 and 405 of a path or method that is no operation
/// (`NOT_FOUND`, `METHOD_NOT_ALLOWED`) answer no documented operation, so no enum binds them.
pub const REJECTION_CODES: [&str; 2] = ["VALIDATION_ERROR", "NOT_AUTHENTICATED"];

pub use crate::manifest::{ErrorEnvelope, Messages};

const CODE_NAMES: [&str; 4] = ["code", "error_code", "errorCode", "error"];
/// `errorMessages`: Jira's (and Atlassian's) `ErrorCollection`.
const LIST_NAMES: [&str; 4] = ["messages", "errors", "errorMessages", "details"];
const TEXT_NAMES: [&str; 3] = ["message", "detail", "error_description"];
/// What an item of a list of error objects may call its message, most telling first.
const ITEM_TEXT_NAMES: [&str; 6] = [
    "message",
    "detail",
    "error_description",
    "description",
    "reason",
    "title",
];
/// `code` last: a number there (Google's `error.code`) is the HTTP status; a string, the code.
const STATUS_NAMES: [&str; 5] = ["http_code", "status", "status_code", "statusCode", "code"];
/// The member an error body may hold its envelope in.
const NESTING_MEMBER: &str = "error";
/// RFC 9457's members an error body may take beside its own (Adyen's `RestServiceError`
/// requires them with its `errorCode`): `type` (`about:blank`) and `title` (the reason
/// phrase).
const PROBLEM_MEMBERS: [&str; 2] = ["type", "title"];

/// Whether a member's wire name is one of the names above, however the document spells its
/// words: `error_messages` (Klarna), `errorMessages` (Jira) and `ErrorMessages` are one name,
/// as are `Code` and `Message` (Open Banking) and `code` and `message`.
fn same_name(wire: &str, name: &str) -> bool {
    let mut wire = wire.bytes().filter(|byte| !matches!(byte, b'_' | b'-'));
    let mut name = name.bytes().filter(|byte| !matches!(byte, b'_' | b'-'));
    loop {
        match (wire.next(), name.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a.eq_ignore_ascii_case(&b) => {}
            _ => return false,
        }
    }
}

/// The body type most error responses (4xx, 5xx, `4XX`, `5XX`) document: a named type; on a
/// tie, the first by name. A document that words its errors under `default` alone (Azure's
/// `200` beside `default: CloudError`) has them there: the `default` responses of operations
/// that document a success of their own count then.
pub fn error_body(api: &Api) -> Option<TypeRef> {
    most_documented(api, |_, status| status.is_error()).or_else(|| {
        most_documented(api, |op, status| {
            status == StatusSpec::Default && documents_success(op)
        })
    })
}

/// Whether `op` documents a success (a 2xx code or range) besides any `default`.
fn documents_success(op: &Operation) -> bool {
    op.responses.iter().any(|r| match r.status {
        StatusSpec::Code(code) => (200..300).contains(&code),
        StatusSpec::Range(class) => class == 2,
        StatusSpec::Default => false,
    })
}

/// The named body type the responses `counted` picks document most often; on a tie, the
/// first by name.
fn most_documented(api: &Api, counted: impl Fn(&Operation, StatusSpec) -> bool) -> Option<TypeRef> {
    let mut counts: BTreeMap<&TypeRef, usize> = BTreeMap::new();
    for op in &api.operations {
        for response in &op.responses {
            if let (true, Some(body)) = (counted(op, response.status), &response.body)
                && matches!(body.ty, TypeRef::Named(_))
            {
                *counts.entry(&body.ty).or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .max_by_key(|(ty, count)| (*count, std::cmp::Reverse((*ty).clone())))
        .map(|(ty, _)| ty.clone())
}

impl Api {
    /// How the generated server words the requests it rejects.
    pub fn error_envelope(&self) -> ErrorEnvelope {
        let Some(TypeRef::Named(name)) = error_body(self) else {
            return ErrorEnvelope::ProblemDetails;
        };
        let Some(def) = self.struct_named(&name) else {
            return ErrorEnvelope::ProblemDetails;
        };
        if let Some(envelope) = self.fillable_envelope(def) {
            return envelope;
        }
        // `{"error": {"code": …, "message": …}}` (Azure's `CloudError`, Microsoft Graph,
        // Google): the envelope one member down, when nothing else is required beside it.
        let nested = def
            .fields
            .iter()
            .find(|field| field.wire_name == NESTING_MEMBER);
        let others_required = def
            .fields
            .iter()
            .any(|field| field.required && field.wire_name != NESTING_MEMBER);
        if let Some(field) = nested
            && !others_required
            && let TypeRef::Named(inner) = self.resolve(&field.ty)
            && let Some(inner) = self.struct_named(inner)
            && let Some(inner) = self.fillable_envelope(inner)
        {
            return ErrorEnvelope::Nested {
                member: NESTING_MEMBER.to_string(),
                inner: Box::new(inner),
            };
        }
        ErrorEnvelope::ProblemDetails
    }

    /// The struct a type name names.
    fn struct_named(&self, name: &str) -> Option<&super::StructDef> {
        match self.type_named(name).map(|ty| &ty.kind) {
            Some(TypeKind::Struct(def)) => Some(def),
            _ => None,
        }
    }

    /// The envelope an error object makes, when the server can fill it (see the module
    /// documentation).
    fn fillable_envelope(&self, def: &super::StructDef) -> Option<ErrorEnvelope> {
        // Each member is chosen by the names' order of preference, never by where the
        // document (or a tool that sorted its keys, as APIs.guru does Azure's) put it.
        let named = |names: &[&str], fits: &dyn Fn(&super::Field) -> bool| {
            names.iter().find_map(|name| {
                def.fields
                    .iter()
                    .find(|field| same_name(&field.wire_name, name) && fits(field))
                    .map(|field| field.wire_name.clone())
            })
        };
        let code = named(&CODE_NAMES, &|field| self.takes_codes(&field.ty));
        let status = named(&STATUS_NAMES, &|field| {
            code.as_deref() != Some(field.wire_name.as_str())
                && matches!(
                    self.resolve(&field.ty),
                    TypeRef::Scalar(Scalar::I32 | Scalar::I64 | Scalar::U64)
                )
        });
        let text = named(&TEXT_NAMES, &|field| self.is_text(&field.ty)).map(Messages::Text);
        let list = named(
            &LIST_NAMES,
            &|field| matches!(&field.ty, TypeRef::Array(item) if self.is_text(item)),
        )
        .map(Messages::List);
        let items = LIST_NAMES.iter().find_map(|name| {
            let field = def
                .fields
                .iter()
                .find(|field| same_name(&field.wire_name, name))?;
            let TypeRef::Array(item) = self.resolve(&field.ty) else {
                return None;
            };
            let (text, code) = self.error_item(item)?;
            Some(Messages::Items {
                list: field.wire_name.clone(),
                text,
                code,
            })
        });
        // Where the messages go: a place the body requires, else one message text (what
        // clients print: Azure's `error.message` beside its `details`), else a list; both a
        // text and a list where the body requires both (Open Banking's `Message` and
        // `Errors`).
        let required = |messages: &Messages| {
            messages.members().iter().any(|wire| {
                def.fields
                    .iter()
                    .any(|field| field.required && field.wire_name == *wire)
            })
        };
        let required_list = [&list, &items]
            .into_iter()
            .flatten()
            .find(|messages| required(messages));
        let mut messages = match (text.as_ref().filter(|text| required(text)), required_list) {
            (Some(Messages::Text(text)), Some(list)) => Some(Messages::Both {
                text: text.clone(),
                list: Box::new(list.clone()),
            }),
            _ => {
                let candidates = [text, list, items];
                candidates
                    .iter()
                    .flatten()
                    .find(|messages| required(messages))
                    .or_else(|| candidates.iter().flatten().next())
                    .cloned()
            }
        };
        // RFC 9457's `type` and `title`, when they are text the body requires, or both are
        // there (the shape of problem details extended with the API's own members).
        let problem: Vec<String> = {
            let texts: Vec<&super::Field> = PROBLEM_MEMBERS
                .iter()
                .filter_map(|name| {
                    def.fields
                        .iter()
                        .find(|field| field.wire_name == *name && self.is_text(&field.ty))
                })
                .collect();
            if texts.len() == PROBLEM_MEMBERS.len() || texts.iter().any(|field| field.required) {
                texts.iter().map(|field| field.wire_name.clone()).collect()
            } else {
                Vec::new()
            }
        };
        let filled = |wire: &str| {
            code.as_deref() == Some(wire)
                || status.as_deref() == Some(wire)
                || problem.iter().any(|member| member == wire)
                || messages
                    .as_ref()
                    .is_some_and(|messages| messages.members().contains(&wire))
        };
        let fillable = def
            .fields
            .iter()
            .filter(|field| field.required)
            .all(|field| filled(&field.wire_name));
        if !fillable || (code.is_none() && messages.is_none()) {
            return None;
        }
        if messages.is_none()
            && let Some(code) = &code
            && def.fields.iter().any(|field| {
                &field.wire_name == code
                    && matches!(self.resolve(&field.ty), TypeRef::Scalar(Scalar::String))
            })
        {
            messages = Some(Messages::AfterCode);
        }
        let documented = ErrorEnvelope::Documented {
            code,
            messages,
            status,
        };
        Some(if problem.is_empty() {
            documented
        } else {
            ErrorEnvelope::WithProblemMembers {
                members: problem,
                inner: Box::new(documented),
            }
        })
    }

    /// Through newtypes, aliases and nullability.
    pub(crate) fn resolve<'a>(&'a self, ty: &'a TypeRef) -> &'a TypeRef {
        match ty {
            TypeRef::Nullable(inner) => self.resolve(inner),
            TypeRef::Named(name) => match self.type_named(name).map(|def| &def.kind) {
                Some(TypeKind::Newtype(inner) | TypeKind::Alias(inner)) => self.resolve(inner),
                _ => ty,
            },
            _ => ty,
        }
    }

    /// The members an error object of a list takes the message and the code in, when it
    /// is an object the server can fill: a text member for the message, and every required
    /// member among the two.
    fn error_item(&self, item: &TypeRef) -> Option<(String, Option<String>)> {
        let TypeRef::Named(name) = self.resolve(item) else {
            return None;
        };
        let Some(TypeKind::Struct(def)) = self.type_named(name).map(|ty| &ty.kind) else {
            return None;
        };
        let text = ITEM_TEXT_NAMES.iter().find_map(|wanted| {
            def.fields
                .iter()
                .find(|field| same_name(&field.wire_name, wanted) && self.is_text(&field.ty))
                .map(|field| field.wire_name.clone())
        })?;
        let code = def
            .fields
            .iter()
            .find(|field| {
                CODE_NAMES
                    .iter()
                    .any(|name| same_name(&field.wire_name, name))
                    && self.takes_codes(&field.ty)
            })
            .map(|field| field.wire_name.clone());
        let fillable = def
            .fields
            .iter()
            .filter(|field| field.required)
            .all(|field| {
                field.wire_name == text || code.as_deref() == Some(field.wire_name.as_str())
            });
        fillable.then_some((text, code))
    }

    fn is_text(&self, ty: &TypeRef) -> bool {
        matches!(self.resolve(ty), TypeRef::Scalar(Scalar::String))
    }

    /// A string, or an enum that lists every code the server answers with.
    fn takes_codes(&self, ty: &TypeRef) -> bool {
        match self.resolve(ty) {
            TypeRef::Scalar(Scalar::String) => true,
            TypeRef::Named(name) => match self.type_named(name).map(|def| &def.kind) {
                Some(TypeKind::Enum(def)) => REJECTION_CODES
                    .iter()
                    .all(|code| def.variants.iter().any(|variant| variant.wire == *code)),
                _ => false,
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envelope(error_schema: &str) -> ErrorEnvelope {
        let spec = format!(
            "openapi: 3.1.0
info: {{title: T, version: '1'}}
paths:
  /a:
    get:
      operationId: getA
      responses:
        '200': {{description: ok}}
        '400':
          description: bad
          content:
            application/json:
              schema: {{$ref: '#/components/schemas/Problem'}}
        '404':
          description: missing
          content:
            application/json:
              schema: {{$ref: '#/components/schemas/Problem'}}
components:
  schemas:
    Problem: {error_schema}
"
        );
        api_of(&spec).error_envelope()
    }

    fn api_of(spec: &str) -> Api {
        let doc = crate::load::load_str(spec, "test.yaml").expect("loads");
        crate::build_ir(&doc, &crate::Options::default()).expect("builds")
    }

    #[test]
    fn this_apis_envelope_is_filled_as_documented() {
        let spec = crate::load::load_file(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml"),
        )
        .unwrap();
        let api = crate::build_ir(&spec, &crate::Options::default()).unwrap();
        assert_eq!(
            api.error_envelope(),
            ErrorEnvelope::Documented {
                code: Some("code".into()),
                messages: Some(Messages::List("messages".into())),
                status: Some("http_code".into()),
            }
        );
    }

    #[test]
    fn a_message_and_status_envelope_is_filled() {
        assert_eq!(
            envelope(
                "{type: object, required: [message], properties: {message: {type: string}, status: {type: integer}, trace: {type: string}}}"
            ),
            ErrorEnvelope::Documented {
                code: None,
                messages: Some(Messages::Text("message".into())),
                status: Some("status".into()),
            }
        );
    }

    /// `{"error": {"code", "message"}}`, as Azure's `CloudError` and Google's APIs word their
    /// errors: the envelope one member down, a number in `code` the HTTP status.
    #[test]
    fn an_envelope_in_the_member_error_is_filled_there() {
        let nested = |inner: &ErrorEnvelope| ErrorEnvelope::Nested {
            member: "error".into(),
            inner: Box::new(inner.clone()),
        };
        let azure = envelope(
            "{type: object, properties: {error: {type: object, properties: {code: {type: string}, message: {type: string}, target: {type: string}}}}}",
        );
        assert_eq!(
            azure,
            nested(&ErrorEnvelope::Documented {
                code: Some("code".into()),
                messages: Some(Messages::Text("message".into())),
                status: None,
            })
        );
        let (body, media) = azure.body(400, "Bad Request", "VALIDATION_ERROR", &["a".into()]);
        assert_eq!(
            (body, media),
            (
                serde_json::json!({"error": {"code": "VALIDATION_ERROR", "message": "a"}}),
                "application/json"
            )
        );
        // Sorted keys (APIs.guru sorts Azure's): `details`, a list of error objects, comes
        // before `message`; the message still goes where clients read it.
        let sorted = envelope(
            "{type: object, properties: {error: {$ref: '#/components/schemas/Body'}}}
    Body: {type: object, properties: {code: {type: string}, details: {type: array, items: {$ref: '#/components/schemas/Body'}}, message: {type: string}, target: {type: string}}}",
        );
        assert_eq!(azure, sorted);
        let google = envelope(
            "{type: object, required: [error], properties: {error: {type: object, required: [code, message], properties: {code: {type: integer}, message: {type: string}, status: {type: string}}}}}",
        );
        assert_eq!(
            google,
            nested(&ErrorEnvelope::Documented {
                code: None,
                messages: Some(Messages::Text("message".into())),
                status: Some("code".into()),
            })
        );
        // Stripe's: a required `type` from a list without the server's codes.
        let stripe = envelope(
            "{type: object, required: [error], properties: {error: {type: object, required: [type], properties: {type: {type: string, enum: [api_error, card_error]}, message: {type: string}}}}}",
        );
        assert_eq!(stripe, ErrorEnvelope::ProblemDetails);
        // Something else required beside it, which the server cannot fill.
        let beside = envelope(
            "{type: object, required: [error, request_id], properties: {request_id: {type: string}, error: {type: object, properties: {message: {type: string}}}}}",
        );
        assert_eq!(beside, ErrorEnvelope::ProblemDetails);
    }

    #[test]
    fn an_envelope_with_a_required_member_the_server_cannot_fill_is_left_for_problem_details() {
        assert_eq!(
            envelope(
                "{type: object, required: [message, request_id], properties: {message: {type: string}, request_id: {type: string}}}"
            ),
            ErrorEnvelope::ProblemDetails
        );
    }

    #[test]
    fn a_closed_code_enum_without_the_servers_codes_is_not_used() {
        assert_eq!(
            envelope(
                "{type: object, required: [code], properties: {code: {type: string, enum: [E1, E2]}, message: {type: string}}}"
            ),
            ErrorEnvelope::ProblemDetails
        );
        assert_eq!(
            envelope(
                "{type: object, properties: {code: {type: string, enum: [E1]}, message: {type: string}}}"
            ),
            ErrorEnvelope::Documented {
                code: None,
                messages: Some(Messages::Text("message".into())),
                status: None,
            }
        );
    }

    /// `{error: string}` alone (MailScript): the reasons follow the code there, where they had
    /// been left out and the caller told only `VALIDATION_ERROR`. A code member that is an
    /// enum keeps the code alone.
    #[test]
    fn a_free_text_code_member_carries_the_reasons_when_nothing_else_can() {
        assert_eq!(
            envelope("{type: object, required: [error], properties: {error: {type: string}}}"),
            ErrorEnvelope::Documented {
                code: Some("error".into()),
                messages: Some(Messages::AfterCode),
                status: None,
            }
        );
        assert_eq!(
            envelope(
                "{type: object, properties: {code: {type: string, enum: [VALIDATION_ERROR, NOT_AUTHENTICATED]}}}"
            ),
            ErrorEnvelope::Documented {
                code: Some("code".into()),
                messages: None,
                status: None,
            }
        );
    }

    /// JSON:API's `errors: [{status, code, title, detail}]`, and an error list whose items
    /// require a member the server cannot fill (which stays problem details: strings in
    /// their place would be a body the API's own client cannot read).
    #[test]
    fn a_list_of_error_objects_gets_one_object_per_message() {
        let item = |required: &str| {
            format!(
                "{{type: object, properties: {{errors: {{type: array, items: {{type: object, {required} \
                 properties: {{status: {{type: string}}, code: {{type: string}}, title: {{type: string}}, \
                 detail: {{type: string}}, source: {{type: object}}}}}}}}}}}}"
            )
        };
        assert_eq!(
            envelope(&item("")),
            ErrorEnvelope::Documented {
                code: None,
                messages: Some(Messages::Items {
                    list: "errors".into(),
                    text: "detail".into(),
                    code: Some("code".into()),
                }),
                status: None,
            }
        );
        assert_eq!(
            envelope(&item("required: [code, detail],")),
            envelope(&item(""))
        );
        assert_eq!(
            envelope(&item("required: [source],")),
            ErrorEnvelope::ProblemDetails
        );
    }

    /// Azure words every error under `default` beside a `200`: that is the API's error body.
    /// A `default` that is an operation's only answer is its success, and says nothing of
    /// errors; an error status, where one documents a body, wins over `default`.
    #[test]
    fn errors_worded_under_default_alone_are_the_error_body() {
        let body = |responses: &str| {
            let spec = format!(
                "openapi: 3.0.3
info: {{title: T, version: '1'}}
paths:
  /a:
    get:
      operationId: getA
      responses: {responses}
components:
  schemas:
    CloudError: {{type: object, properties: {{error: {{type: object}}}}}}
    Thing: {{type: object, properties: {{id: {{type: string}}}}}}
    Problem: {{type: object, properties: {{code: {{type: string}}}}}}
"
            );
            error_body(&api_of(&spec))
        };
        let named = |name: &str| Some(TypeRef::Named(name.to_string()));
        let cloud = "{'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}, default: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/CloudError'}}}}}";
        assert_eq!(body(cloud), named("CloudError"));
        let only_default = "{default: {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}";
        assert_eq!(body(only_default), None);
        let both = "{'200': {description: ok}, '400': {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}}, default: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/CloudError'}}}}}";
        assert_eq!(body(both), named("Problem"));
    }

    /// Adyen's `RestServiceError`: problem details extended with `errorCode`, all of it
    /// required. The server fills `type` and `title` as RFC 9457 has them, beside the code,
    /// the detail and the status; an optional `title` alone is left alone.
    #[test]
    fn problem_details_extended_with_a_code_are_filled_whole() {
        let adyen = envelope(
            "{type: object, required: [errorCode, type, title, detail, status], properties: {errorCode: {type: string}, type: {type: string}, title: {type: string}, detail: {type: string}, status: {type: integer, format: int32}, requestId: {type: string}, invalidFields: {type: array, items: {type: object}}}}",
        );
        assert_eq!(
            adyen,
            ErrorEnvelope::WithProblemMembers {
                members: vec!["type".into(), "title".into()],
                inner: Box::new(ErrorEnvelope::Documented {
                    code: Some("errorCode".into()),
                    messages: Some(Messages::Text("detail".into())),
                    status: Some("status".into()),
                }),
            }
        );
        let (body, media) = adyen.body(
            401,
            "Unauthorized",
            "NOT_AUTHENTICATED",
            &["credentials missing".into()],
        );
        assert_eq!(
            (body, media),
            (
                serde_json::json!({
                    "type": "about:blank",
                    "title": "Unauthorized",
                    "errorCode": "NOT_AUTHENTICATED",
                    "detail": "credentials missing",
                    "status": 401,
                }),
                "application/json"
            )
        );
        assert_eq!(
            envelope(
                "{type: object, required: [message], properties: {message: {type: string}, title: {type: string}}}"
            ),
            ErrorEnvelope::Documented {
                code: None,
                messages: Some(Messages::Text("message".into())),
                status: None,
            }
        );
    }

    /// Jira's `ErrorCollection`: `errorMessages`, a list of strings, beside `errors`, a map
    /// of field names to messages, and `status`.
    #[test]
    fn an_error_messages_list_takes_the_messages() {
        assert_eq!(
            envelope(
                "{type: object, properties: {errorMessages: {type: array, items: {type: string}}, errors: {type: object, additionalProperties: {type: string}}, status: {type: integer, format: int32}}}"
            ),
            ErrorEnvelope::Documented {
                code: None,
                messages: Some(Messages::List("errorMessages".into())),
                status: Some("status".into()),
            }
        );
    }

    /// The names are read however the document spells their words: Klarna's `ErrorV2`
    /// (`error_code`, `error_messages`) is Jira's `errorMessages` in snake case; before, its
    /// list went unfilled and the reasons were glued to the code.
    #[test]
    fn member_names_are_read_in_any_case_and_separator() {
        assert_eq!(
            envelope(
                "{type: object, properties: {error_code: {type: string}, error_messages: {type: array, items: {type: string}}, correlation_id: {type: string}}}"
            ),
            ErrorEnvelope::Documented {
                code: Some("error_code".into()),
                messages: Some(Messages::List("error_messages".into())),
                status: None,
            }
        );
        assert!(same_name("ErrorMessages", "errorMessages"));
        assert!(same_name("error-code", "errorCode"));
        assert!(!same_name("errorMessage", "errorMessages"));
    }

    /// Open Banking's `OBErrorResponse1` requires a `Code`, a `Message` and `Errors`, objects
    /// of an `ErrorCode` and a `Message`, and nothing else: the server fills all three (the
    /// reasons joined in `Message`, one by one in `Errors`). Before, it answered problem
    /// details, which the API's own client could not read and specval refused.
    #[test]
    fn a_body_requiring_a_message_and_a_list_gets_both() {
        let spec = "openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a:
    get:
      operationId: getA
      responses:
        '200': {description: ok}
        '400': {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/OBErrorResponse1'}}}}
components:
  schemas:
    OBErrorResponse1:
      type: object
      additionalProperties: false
      required: [Code, Message, Errors]
      properties:
        Code: {type: string}
        Id: {type: string}
        Message: {type: string}
        Errors: {type: array, minItems: 1, items: {$ref: '#/components/schemas/OBError1'}}
    OBError1:
      type: object
      additionalProperties: false
      required: [ErrorCode, Message]
      properties:
        ErrorCode: {type: string}
        Message: {type: string}
        Path: {type: string}
";
        let ob = api_of(spec).error_envelope();
        let items = Messages::Items {
            list: "Errors".into(),
            text: "Message".into(),
            code: Some("ErrorCode".into()),
        };
        assert_eq!(
            ob,
            ErrorEnvelope::Documented {
                code: Some("Code".into()),
                messages: Some(Messages::Both {
                    text: "Message".into(),
                    list: Box::new(items),
                }),
                status: None,
            }
        );
        let (body, media) = ob.body(
            400,
            "Bad Request",
            "VALIDATION_ERROR",
            &["a".into(), "b".into()],
        );
        assert_eq!(
            (body, media),
            (
                serde_json::json!({
                    "Code": "VALIDATION_ERROR",
                    "Message": "a; b",
                    "Errors": [
                        {"ErrorCode": "VALIDATION_ERROR", "Message": "a"},
                        {"ErrorCode": "VALIDATION_ERROR", "Message": "b"},
                    ],
                }),
                "application/json"
            )
        );
    }

    #[test]
    fn no_documented_error_body_means_problem_details() {
        assert_eq!(
            envelope("{type: object, properties: {count: {type: integer}}}"),
            ErrorEnvelope::ProblemDetails
        );
        assert_eq!(envelope("{type: string}"), ErrorEnvelope::ProblemDetails);
    }
}
