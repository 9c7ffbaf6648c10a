//! What coverage counts: one documented thing of the contract (an operation, a status, a
//! parameter, a member, an enum value) as a sortable key. The checks make keys as they judge
//! an exchange; the tally in `mod.rs` counts them against the contract's universe.

use serde::Serialize;

use crate::contract::{OperationSpec, ParameterSpec};
use crate::finding::Part;

/// What kind of documented thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// An operation of the API.
    Operation,
    /// A notification (webhook) the API sends.
    Notification,
    /// A documented response status (or class, or `default`).
    Status,
    /// A parameter.
    Parameter,
    /// A property of a request body or notification payload.
    RequestMember,
    /// A property of a response body or a receiver's reply.
    ResponseMember,
    /// A value of an enum list at a body member.
    EnumValue,
}

impl Category {
    /// Every category, in report order.
    pub const ALL: [Category; 7] = [
        Category::Operation,
        Category::Notification,
        Category::Status,
        Category::Parameter,
        Category::RequestMember,
        Category::ResponseMember,
        Category::EnumValue,
    ];

    /// The category's name in reports (plural, as in the totals: `response members`).
    pub fn label(self) -> &'static str {
        match self {
            Category::Operation => "operations",
            Category::Notification => "notifications",
            Category::Status => "statuses",
            Category::Parameter => "parameters",
            Category::RequestMember => "request members",
            Category::ResponseMember => "response members",
            Category::EnumValue => "enum values",
        }
    }

    /// One item's kind in reports (`status`, `request member`).
    pub fn singular(self) -> &'static str {
        match self {
            Category::Operation => "operation",
            Category::Notification => "notification",
            Category::Status => "status",
            Category::Parameter => "parameter",
            Category::RequestMember => "request member",
            Category::ResponseMember => "response member",
            Category::EnumValue => "enum value",
        }
    }
}

/// One documented thing that traffic can exercise.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Key {
    /// operationId, or the webhook's name.
    pub operation: String,
    /// What kind of thing.
    pub category: Category,
    /// Which message a member or enum value is in: `request`, `response 200`,
    /// `notification`, `reply 200`; empty for the other categories.
    pub message: String,
    /// The status key (`404`, `5XX`, `default`), the parameter (`query:merchant_order_id`) or
    /// the member's pattern (`/amount/value`; `""` is the body itself); empty for an operation.
    pub at: String,
    /// The enum value; empty for the other categories.
    pub value: String,
}

impl Key {
    fn new(op: &OperationSpec, category: Category, message: &str, at: &str, value: &str) -> Key {
        Key {
            operation: op.id.clone(),
            category,
            message: message.to_string(),
            at: at.to_string(),
            value: value.to_string(),
        }
    }

    /// The operation (or notification) itself.
    pub fn operation(op: &OperationSpec, category: Category) -> Key {
        Key::new(op, category, "", "", "")
    }

    /// A documented response key.
    pub fn status(op: &OperationSpec, key: &str) -> Key {
        Key::new(op, Category::Status, "", key, "")
    }

    /// A parameter.
    pub fn parameter(op: &OperationSpec, param: &ParameterSpec) -> Key {
        let at = format!("{}:{}", param.location.as_str(), param.name);
        Key::new(op, Category::Parameter, "", &at, "")
    }

    /// A member of a body.
    pub fn member(op: &OperationSpec, category: Category, message: &str, pattern: &str) -> Key {
        Key::new(op, category, message, pattern, "")
    }

    /// An enum value at a member of a body.
    pub fn enum_value(op: &OperationSpec, message: &str, pattern: &str, value: &str) -> Key {
        Key::new(op, Category::EnumValue, message, pattern, value)
    }
}

/// The name of a message for [`Key::message`]: `request`, `notification`, `response 200`,
/// `reply 200`.
pub fn message(part: Part, status_key: Option<&str>) -> String {
    let name = match part {
        Part::Request => "request",
        Part::Notification => "notification",
        Part::Response => "response",
        Part::Reply => "reply",
        Part::Entry => "entry",
    };
    match status_key {
        Some(key) => format!("{name} {key}"),
        None => name.to_string(),
    }
}
