//! The rules a finding names: one enum, with each rule's id (the string every report format
//! writes) and its short description (SARIF's `shortDescription`) in one table.
//!
//! The ids are JSON Schema keywords (`required`, `format`, ...), for a schema the payload
//! breaks, and specval's own rules (`status-documented`, `malformed`, ...). A keyword without a
//! variant of its own (`$ref`, `contentEncoding`, a vocabulary's own) is kept as
//! [`Rule::Other`], by name. A rule serializes as its id, and compares, hashes and sorts as
//! its id too, so that a report lists rules in the order of their names.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The table: each rule's variant, id and, when it has one, description (a rule without one is
/// described as ``Contract rule `id` ``).
macro_rules! rules {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $id:literal $(=> $description:literal)?;
    )*) => {
        /// A rule a finding names.
        #[derive(Debug, Clone)]
        pub enum Rule {
            $($(#[$doc])* $variant,)*
            /// Any other rule, by its id: a JSON Schema keyword without a variant of its own.
            Other(String),
        }

        impl Rule {
            /// The id reports write.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Rule::$variant => $id,)*
                    Rule::Other(id) => id,
                }
            }

            /// The rule of an id: its variant, else [`Rule::Other`].
            fn of(id: &str) -> Option<Rule> {
                match id {
                    $($id => Some(Rule::$variant),)*
                    _ => None,
                }
            }

            /// The description of the table, if the rule has one.
            fn known_description(&self) -> Option<&'static str> {
                match self {
                    $(Rule::$variant => rules!(@description $($description)?),)*
                    Rule::Other(_) => None,
                }
            }
        }
    };
    (@description) => { None };
    (@description $description:literal) => { Some($description) };
}

rules! {
    // JSON Schema keywords the contract uses; `required` and `type` are also what a missing
    // parameter or body and a parameter of the wrong type break.
    /// A required property, parameter, header or body is missing.
    Required = "required" => "A required property, parameter, header or body is missing";
    /// A value has the wrong JSON type.
    Type = "type" => "A value has the wrong JSON type";
    /// `format`.
    Format = "format" => "A string does not have the documented format";
    /// `enum`.
    Enum = "enum" => "A value is not one of the documented values";
    /// `const`.
    Const = "const" => "A value differs from the one the contract fixes";
    /// `pattern`.
    Pattern = "pattern" => "A string does not match the documented pattern";
    /// `minLength`.
    MinLength = "minLength" => "A string is shorter than the contract allows";
    /// `maxLength`.
    MaxLength = "maxLength" => "A string is longer than the contract allows";
    /// `minimum`.
    Minimum = "minimum" => "A number is below the documented minimum";
    /// `exclusiveMinimum`.
    ExclusiveMinimum = "exclusiveMinimum" => "A number is below the documented minimum";
    /// `maximum`.
    Maximum = "maximum" => "A number is above the documented maximum";
    /// `exclusiveMaximum`.
    ExclusiveMaximum = "exclusiveMaximum" => "A number is above the documented maximum";
    /// `multipleOf`.
    MultipleOf = "multipleOf" => "A number is not a multiple of the documented step";
    /// `minItems`.
    MinItems = "minItems" => "An array has fewer items than the contract allows";
    /// `maxItems`.
    MaxItems = "maxItems" => "An array has more items than the contract allows";
    /// `uniqueItems`.
    UniqueItems = "uniqueItems" => "An array repeats an item that must be unique";
    /// `minProperties`.
    MinProperties = "minProperties" => "An object has fewer properties than the contract allows";
    /// `maxProperties`.
    MaxProperties = "maxProperties" => "An object has more properties than the contract allows";
    /// `additionalProperties`.
    AdditionalProperties = "additionalProperties"
        => "An object has a property the contract does not allow";
    /// `unevaluatedProperties`.
    UnevaluatedProperties = "unevaluatedProperties"
        => "An object has a property the contract does not allow";
    /// `propertyNames`.
    PropertyNames = "propertyNames"
        => "An object has a property name the contract does not allow";
    /// `dependentRequired`.
    DependentRequired = "dependentRequired"
        => "A property is missing that another property requires";
    /// `oneOf`.
    OneOf = "oneOf" => "A value matches none, or more than one, of the documented alternatives";
    /// `anyOf`.
    AnyOf = "anyOf" => "A value matches none of the documented alternatives";
    /// `allOf`.
    AllOf = "allOf" => "A value breaks one of the schemas it must satisfy";
    /// `not`.
    Not = "not" => "A value matches a schema the contract excludes";
    /// A `false` schema: nothing is allowed there (a member a condition forbids).
    FalseSchema = "falseSchema" => "A member or value stands where the contract allows none";
    /// `contains`.
    Contains = "contains" => "An array lacks the items the contract asks for";
    /// `minContains`.
    MinContains = "minContains" => "An array lacks the items the contract asks for";
    /// `maxContains`.
    MaxContains = "maxContains" => "An array lacks the items the contract asks for";
    /// `if`.
    If = "if" => "A value breaks a conditional rule of the contract";
    /// `then`.
    Then = "then" => "A value breaks a conditional rule of the contract";
    /// `else`.
    Else = "else" => "A value breaks a conditional rule of the contract";

    // About inputs and entries rather than the contract.
    /// An entry that could not be read as an exchange.
    Malformed = "malformed" => "An entry of the traffic could not be read";
    /// An input without a single exchange (an empty capture).
    NoExchanges = "no-exchanges" => "An input holds no exchange (an empty capture)";
    /// An input that could not be opened or read (to the end).
    Unreadable = "unreadable" => "An input could not be read (to the end)";
    /// A body the recording says was sent and does not hold (a HAR saved without content).
    UnrecordedBody = "unrecorded-body"
        => "A body was sent, and the recording does not hold it: it could not be checked";
    /// An entry over the size limit, where reading of its input stopped.
    TooLarge = "too-large" => "An entry is larger than the size limit; reading stopped there";

    // specval's own checks of an exchange.
    /// A request's path is not an operation of the API.
    OperationPath = "operation-path" => "A request's path is not an operation of the API";
    /// A request's method is not an operation of its path.
    OperationMethod = "operation-method" => "A request's method is not an operation of its path";
    /// A path parameter holds an unescaped `/`, which its template gives one segment.
    UnescapedSlash = "unescaped-slash"
        => "A path parameter holds an unescaped / its template does not allow";
    /// A notification was delivered where no webhook is documented.
    WebhookPath = "webhook-path" => "A notification was delivered where no webhook is documented";
    /// A request without credentials was not answered 401 as documented.
    Credentials = "credentials"
        => "A request without credentials was not answered 401 as documented";
    /// A body was sent to an operation that takes none.
    BodyUnexpected = "body-unexpected" => "A body was sent to an operation that takes none";
    /// A body that should be JSON is not.
    Json = "json" => "A body that should be JSON is not";
    /// A `multipart/form-data` body does not read as its parts.
    Multipart = "multipart" => "A multipart body does not read as its parts";
    /// A body's Content-Type is not the documented one.
    ContentType = "content-type" => "A body's Content-Type is not the documented one";
    /// A response status is not documented for the operation.
    StatusDocumented = "status-documented"
        => "A response status is not documented for the operation";
    /// A body's `http_code` differs from the HTTP status.
    HttpCode = "http-code" => "A body's http_code differs from the HTTP status";
    /// A valid notification answered with a rejection (4XX).
    ReplyRejectsValid = "reply-rejects-valid"
        => "A receiver rejected (4XX) a notification that keeps the contract";
    /// A property is not documented (strict mode, a warning).
    UndocumentedProperty = "undocumented-property"
        => "A property is not documented (strict mode)";
    /// A query parameter is not documented for the operation (strict mode, a warning).
    UndocumentedParameter = "undocumented-parameter"
        => "A query parameter is not documented for the operation (strict mode)";
    /// A response carries a body where its status documents none (strict mode, a warning).
    UndocumentedBody = "undocumented-body"
        => "A response carries a body where its status documents none (strict mode)";
    /// A value is not among the documented ones (strict mode, a warning).
    UndocumentedEnumValue = "undocumented-enum-value"
        => "A value is not among the documented ones (strict mode)";
    /// A `readOnly` property sent in a request (strict mode, a warning).
    ReadOnly = "read-only" => "A readOnly property was sent in a request (strict mode)";
    /// A `writeOnly` property returned in a response (strict mode, a warning).
    WriteOnly = "write-only" => "A writeOnly property was returned in a response (strict mode)";
    /// A schema the contract names is not in it.
    Contract = "contract";
    /// `specval proxy` could not reach the upstream (the client was answered 502).
    UpstreamError = "upstream-error";
}

impl Rule {
    /// The short description SARIF gives the rule.
    pub fn description(&self) -> Cow<'static, str> {
        match self.known_description() {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(format!("Contract rule `{}`", self.as_str())),
        }
    }
}

impl From<&str> for Rule {
    fn from(id: &str) -> Rule {
        Rule::of(id).unwrap_or_else(|| Rule::Other(id.to_owned()))
    }
}

impl From<String> for Rule {
    fn from(id: String) -> Rule {
        Rule::of(&id).unwrap_or(Rule::Other(id))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Rule {}

impl PartialEq<str> for Rule {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Hash for Rule {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Rule {
    fn partial_cmp(&self, other: &Rule) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rule {
    fn cmp(&self, other: &Rule) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Rule, D::Error> {
        String::deserialize(deserializer).map(Rule::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_is_its_id_both_ways() {
        for id in [
            "required",
            "maxLength",
            "status-documented",
            "upstream-error",
            "$ref",
        ] {
            let rule = Rule::from(id);
            assert_eq!(rule.as_str(), id);
            assert_eq!(serde_json::to_string(&rule).unwrap(), format!("\"{id}\""));
            let back: Rule = serde_json::from_str(&format!("\"{id}\"")).unwrap();
            assert_eq!(back, rule);
        }
        assert!(matches!(Rule::from("format"), Rule::Format));
        assert!(matches!(Rule::from("$ref"), Rule::Other(_)));
        assert_eq!(Rule::Other("format".into()), Rule::Format);
    }

    #[test]
    fn a_rule_without_a_description_names_itself() {
        assert_eq!(
            Rule::Json.description(),
            "A body that should be JSON is not"
        );
        assert_eq!(Rule::from("$ref").description(), "Contract rule `$ref`");
        assert_eq!(
            Rule::UpstreamError.description(),
            "Contract rule `upstream-error`"
        );
    }
}
