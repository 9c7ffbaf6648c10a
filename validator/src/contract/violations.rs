//! Checking instances against the contract's schemas: every violation, named by pointer,
//! keyword and schema location, with instance values masked unless asked for.

use jsonschema::ValidationError;
use serde_json::Value;

use super::{Contract, ContractError, ParameterSpec};
use crate::in_place::Doc;
use crate::rule::Rule;
use specgen::manifest::ValueKind;

/// One violation of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer into the instance.
    pub pointer: String,
    /// Contract file and the pointer of the failing keyword in it.
    pub schema_location: String,
    /// The keyword.
    pub rule: Rule,
    /// For a person.
    pub message: String,
}
impl Contract {
    /// Whether a body read in place conforms to `schema`: the yes-or-no half of
    /// [`Contract::check`] without a `Value` (see `crate::in_place`). `false` also when the
    /// schema is unknown, so that the caller falls back on `check`, which says why.
    pub(crate) fn conforms(&self, schema: &str, body: &Doc<'_>) -> bool {
        let Some(file) = self.schemas.get(schema) else {
            return false;
        };
        let Ok(compiled) = self.compiled_file(file, schema) else {
            return false;
        };
        file.in_place
            .get_or_init(|| super::load::compile_for(&compiled.schema).ok())
            .as_ref()
            .is_some_and(|validator| validator.is_valid(body.root()))
    }

    /// Every rule the instance breaks against a schema file; empty when it conforms.
    /// `show_values` lets instance values appear in messages (masked by default).
    pub fn check(
        &self,
        schema: &str,
        instance: &Value,
        show_values: bool,
    ) -> Result<Vec<Violation>, ContractError> {
        let compiled = self.compiled(schema)?;
        // Most payloads conform: the yes-or-no walk stops early and builds no errors.
        if compiled.validator.is_valid(instance) {
            return Ok(Vec::new());
        }
        let mut violations = Vec::new();
        let judged = Judged {
            file: schema,
            instance: Some(instance),
            schema: Some(&compiled.schema),
        };
        for error in compiled.validator.iter_errors(instance) {
            push_violations(&judged, &error, show_values, &mut violations);
        }
        Ok(without_echoes(violations))
    }

    /// Whether a schema file refuses `instance` for its JSON type alone at the root: a `type`
    /// there, or a union (`anyOf`, `oneOf`, `nullable`) every alternative of which does.
    /// Text recorded as a JSON string is then read as what it holds. `false` for an unknown
    /// file and for an instance it takes.
    pub fn refuses_type(&self, schema: &str, instance: &Value) -> bool {
        let Ok(compiled) = self.compiled(schema) else {
            return false;
        };
        !compiled.validator.is_valid(instance)
            && compiled
                .validator
                .iter_errors(instance)
                .any(|error| refuses_type_at(&error, ""))
    }

    /// Like [`Contract::check`], with a schema named by component or path (`specval message`).
    pub fn validate(
        &self,
        schema: &str,
        instance: &Value,
        show_values: bool,
    ) -> Result<Vec<Violation>, ContractError> {
        let path = self
            .resolve(schema)
            .ok_or_else(|| ContractError::UnknownSchema {
                name: schema.to_string(),
                hint: self.naming_hint(schema),
            })?;
        self.check(path, instance, show_values)
    }

    /// Checks the items of a list parameter against its array schema: each item's text
    /// parsed by the items' kind, and kept as text when it does not parse, so that the schema
    /// names the item and the rule it breaks.
    pub fn check_parameter_items(
        param: &ParameterSpec,
        items: &[&str],
        show_values: bool,
    ) -> Vec<Violation> {
        Self::check_parameter_list(
            param,
            param.items.unwrap_or(ValueKind::Text),
            items,
            show_values,
        )
    }

    /// Checks a list parameter's items, each read as `kind`, against its schema (a list
    /// alternative's items: see [`ParameterSpec::alternative_items`]).
    pub fn check_parameter_list(
        param: &ParameterSpec,
        kind: ValueKind,
        items: &[&str],
        show_values: bool,
    ) -> Vec<Violation> {
        let instance = Value::Array(
            items
                .iter()
                .map(|text| {
                    parameter_instance(kind, text)
                        .unwrap_or_else(|| Value::String(text.to_string()))
                })
                .collect(),
        );
        parameter_violations(param, &instance, show_values)
    }

    /// Checks a parameter's value already read into JSON (an object parameter's members).
    pub fn check_parameter_value(
        param: &ParameterSpec,
        instance: &Value,
        show_values: bool,
    ) -> Vec<Violation> {
        parameter_violations(param, instance, show_values)
    }

    /// Checks a parameter's text against its schema (numbers and booleans parsed first).
    pub fn check_parameter(param: &ParameterSpec, text: &str, show_values: bool) -> Vec<Violation> {
        let Some(instance) = parameter_instance(param.kind, text) else {
            return vec![Violation {
                pointer: String::new(),
                schema_location: "manifest.json".into(),
                rule: Rule::Type,
                message: format!(
                    // Worded as jsonschema words the same error of a list's item.
                    "{} is not of type \"{}\"",
                    if show_values {
                        capped(format!("{text:?}"))
                    } else {
                        "value".into()
                    },
                    match param.kind {
                        ValueKind::Integer => "integer",
                        ValueKind::Number => "number",
                        ValueKind::Boolean => "boolean",
                        ValueKind::Text | ValueKind::Mixed | ValueKind::Json => "string",
                    }
                ),
            }];
        };
        parameter_violations(param, &instance, show_values)
    }
}

/// A parameter's text as the JSON value its schema judges. An integer beyond 64 bits
/// (`99999999999999999999`) is the JSON number it spells, as it is in a body: JSON Schema's
/// `integer` has no range, and only its schema's bounds may refuse it.
fn parameter_instance(kind: ValueKind, text: &str) -> Option<Value> {
    kind.value(text).or_else(|| {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        match kind {
            ValueKind::Integer if whole => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
            _ => None,
        }
    })
}

/// What a parameter's value breaks of its schema.
fn parameter_violations(
    param: &ParameterSpec,
    instance: &Value,
    show_values: bool,
) -> Vec<Violation> {
    // Most values conform: the yes-or-no walk stops early and builds no errors.
    if param.validator.is_valid(instance) {
        return Vec::new();
    }
    let mut violations = Vec::new();
    let judged = Judged {
        file: "manifest.json",
        instance: Some(instance),
        schema: Some(&param.schema),
    };
    for error in param.validator.iter_errors(instance) {
        push_violations(&judged, &error, show_values, &mut violations);
    }
    without_echoes(violations)
}

/// `error` as violations: itself, or where it is a union of a schema and `null` (OpenAPI 3.0's
/// `nullable` beside `allOf` or `$ref`, which the contract spells `anyOf: [<schema>, {type:
/// null}]`; a 3.1 `oneOf` with a null alternative) and the value is not null, what the value
/// breaks of the schema, each at its own member with its own rule: the document has no
/// `anyOf` there for a reader to look for.
fn push_violations(
    judged: &Judged<'_>,
    error: &ValidationError<'_>,
    show_values: bool,
    out: &mut Vec<Violation>,
) {
    match beside_null(error) {
        Some(errors) => {
            let at = error.instance_path().as_str();
            let nullable = if at.is_empty() { "(root)" } else { at };
            for inner in errors {
                let first = out.len();
                push_violations(judged, inner, show_values, out);
                for violation in &mut out[first..] {
                    violation
                        .message
                        .push_str(&format!(" ({nullable} may also be null)"));
                }
            }
        }
        None => out.push(violation(judged, error, show_values)),
    }
}

/// Whether `error` refuses the value at `at` for its JSON type: a `type` there, or a union at
/// `at` every alternative of which does.
fn refuses_type_at(error: &ValidationError<'_>, at: &str) -> bool {
    use jsonschema::error::ValidationErrorKind;
    if error.instance_path().as_str() != at {
        return false;
    }
    match error.kind() {
        ValidationErrorKind::Type { .. } => true,
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            !context.is_empty()
                && context
                    .iter()
                    .all(|errors| errors.iter().any(|e| refuses_type_at(e, at)))
        }
        _ => false,
    }
}

/// The errors of the one alternative that is not `{type: null}`, when `error` is an `anyOf` or
/// `oneOf` of two whose other alternative failed only for not being null.
fn beside_null<'e, 'i>(error: &'e ValidationError<'i>) -> Option<&'e [ValidationError<'i>]> {
    use jsonschema::JsonType;
    use jsonschema::error::{TypeKind, ValidationErrorKind};
    let (ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context }) =
        error.kind()
    else {
        return None;
    };
    let only_not_null = |errors: &[ValidationError<'_>]| {
        !errors.is_empty()
            && errors.iter().all(|e| {
                matches!(
                    e.kind(),
                    ValidationErrorKind::Type {
                        kind: TypeKind::Single(JsonType::Null)
                    }
                )
            })
    };
    match context.as_slice() {
        [first, second] if only_not_null(first) && !only_not_null(second) => Some(second),
        [first, second] if only_not_null(second) && !only_not_null(first) => Some(first),
        _ => None,
    }
}

fn message(error: &ValidationError<'_>, show_values: bool) -> String {
    // jsonschema's own words (`"x" is not a "email"`) read wrongly for most format names.
    if let jsonschema::error::ValidationErrorKind::Format { format } = error.kind() {
        return if show_values {
            capped(format!(
                "{} does not match format \"{format}\"",
                error.instance()
            ))
        } else {
            format!("value does not match format \"{format}\"")
        };
    }
    // A value of another type than the one allowed (`"true"` where `true` stands) reads, in
    // jsonschema's words, as if the value were that one (`true was expected`): say its type.
    if let jsonschema::error::ValidationErrorKind::Constant { expected_value } = error.kind() {
        let sent = json_type(error.instance());
        if sent != json_type(expected_value) {
            let shown = match show_values {
                true => format!(": {}", error.instance()),
                false => String::new(),
            };
            return capped(format!("{expected_value} was expected, not {sent}{shown}"));
        }
    }
    if show_values {
        capped(error.to_string())
    } else {
        error.masked().to_string()
    }
}

/// A JSON value's type, with its article, for a message (`a string`, `an object`, `null`).
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The most characters of a message that quotes a value (`--show-values`): a 5 MiB string
/// quoted whole would make a report of megabytes per finding.
const MESSAGE_CHARS: usize = 1_000;

/// `message` cut to [`MESSAGE_CHARS`], saying how much was left out.
fn capped(message: String) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        Some((cut, _)) => {
            let rest = message[cut..].chars().count();
            format!("{}… ({rest} more characters)", &message[..cut])
        }
        None => message,
    }
}

/// How far a union's value (at `at`) is from an alternative it fails with `errors`: an
/// alternative of another JSON type is furthest (OpenAI's `stop`, five strings, is an array
/// too many, not a string), then one whose tag holds another value, then the fewest errors. A
/// tag is a direct member whose `const` fails, or whose `enum` fails and is a tag's: one
/// value (Spotify's queue items' `type: {enum: [track]}`), or a member whose list fails in
/// other alternatives too (`tag_members`: Adyen's payment methods' `type` lists), unlike a
/// member only one alternative lists (a customer's `tax_exempt` beside a deleted customer).
fn distance(at: &str, errors: &[ValidationError<'_>], tag_members: &[&str]) -> (bool, bool, usize) {
    use jsonschema::JsonType;
    use jsonschema::error::{TypeKind, ValidationErrorKind};
    // A number that an `integer` refuses is of that alternative's family (JSON Schema counts
    // `1.5` out only for not being whole): nearer than an object's alternative.
    let of_its_family = |e: &ValidationError<'_>, kind: &TypeKind| {
        e.instance().is_number()
            && match kind {
                TypeKind::Single(single) => *single == JsonType::Integer,
                TypeKind::Multiple(set) => set.contains(JsonType::Integer),
            }
    };
    let other_type = errors.iter().any(|e| {
        e.instance_path().as_str() == at
            && matches!(e.kind(), ValidationErrorKind::Type { kind } if !of_its_family(e, kind))
    });
    let other_tag = errors.iter().any(|e| {
        let path = e.instance_path();
        let path = path.as_str();
        let tag = match e.kind() {
            ValidationErrorKind::Constant { .. } => true,
            ValidationErrorKind::Enum { options } => {
                options.as_array().is_some_and(|list| list.len() == 1)
                    || tag_members.contains(&path)
            }
            _ => false,
        };
        tag && is_member_of(path, at)
    });
    (other_type, other_tag, errors.len())
}

/// How many of an object `value`'s members the alternative at `pointer` (in the self-contained
/// `schema`) does not declare: a value that carries every member of one alternative and fails
/// it twice is closer to it than to another that it fails once for a member it lacks. Zero
/// where the alternative declares no members, or the value is no object.
fn strangers(schema: Option<&Value>, pointer: &str, value: &Value) -> usize {
    let (Some(schema), Some(members)) = (schema, value.as_object()) else {
        return 0;
    };
    let mut declared: Vec<&str> = Vec::new();
    let mut open = false;
    let mut pending: Vec<(&Value, usize)> = schema
        .pointer(pointer)
        .map(|at| (at, 0))
        .into_iter()
        .collect();
    while let Some((at, depth)) = pending.pop() {
        if depth > 16 {
            continue;
        }
        if let Some(properties) = at.get("properties").and_then(Value::as_object) {
            declared.extend(properties.keys().map(String::as_str));
        }
        open |= at.get("patternProperties").is_some();
        if let Some(target) = at
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix('#'))
            .and_then(|pointer| schema.pointer(pointer))
        {
            pending.push((target, depth + 1));
        }
        for part in at
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            pending.push((part, depth + 1));
        }
    }
    if declared.is_empty() || open {
        return 0;
    }
    members
        .keys()
        .filter(|name| !declared.contains(&name.as_str()))
        .count()
}

/// The member of the value at `at` that every alternative of `context` refuses for not being
/// its one value (a `const`, or an `enum` of one), with the values they take, when there are
/// at least two of them: a tag whose value is none of the known ones.
fn unknown_tag<'e>(
    at: &str,
    context: &'e [Vec<ValidationError<'_>>],
) -> Option<(&'e str, Vec<Value>)> {
    use jsonschema::error::ValidationErrorKind;
    let mut member: Option<&str> = None;
    let mut values: Vec<Value> = Vec::new();
    for errors in context {
        let (path, value) = errors.iter().find_map(|e| {
            let path = e.instance_path().as_str();
            let value = match e.kind() {
                ValidationErrorKind::Constant { expected_value } => (**expected_value).clone(),
                ValidationErrorKind::Enum { options } => match options.as_array()?.as_slice() {
                    [only] => only.clone(),
                    _ => return None,
                },
                _ => return None,
            };
            is_member_of(path, at).then_some((path, value))
        })?;
        if member.is_some_and(|member| member != path) {
            return None;
        }
        member = Some(path);
        if !values.contains(&value) {
            values.push(value);
        }
    }
    (values.len() > 1).then_some((member?, values))
}

/// Whether `path` is a member of the value at `at`.
fn is_member_of(path: &str, at: &str) -> bool {
    path.strip_prefix(at)
        .is_some_and(|rest| rest.starts_with('/') && !rest[1..].contains('/'))
}

/// The direct members of the value at `at` whose `enum` fails in more than one of the
/// alternatives (`context`): a vocabulary the alternatives share, so a tag.
fn shared_enum_members<'e>(at: &str, context: &'e [Vec<ValidationError<'_>>]) -> Vec<&'e str> {
    use jsonschema::error::ValidationErrorKind;
    let mut counted: Vec<(&str, usize)> = Vec::new();
    for errors in context {
        let mut members: Vec<&str> = errors
            .iter()
            .filter(|e| matches!(e.kind(), ValidationErrorKind::Enum { .. }))
            .map(|e| e.instance_path().as_str())
            .filter(|path| is_member_of(path, at))
            .collect();
        members.sort_unstable();
        members.dedup();
        for member in members {
            match counted.iter_mut().find(|(seen, _)| *seen == member) {
                Some((_, count)) => *count += 1,
                None => counted.push((member, 1)),
            }
        }
    }
    counted
        .into_iter()
        .filter(|(_, count)| *count > 1)
        .map(|(member, _)| member)
        .collect()
}

/// What a validation error was raised against.
pub(crate) struct Judged<'a> {
    /// The contract file of the schema.
    pub file: &'a str,
    /// The instance checked, when the caller has it: it lets a message name what the error
    /// alone does not.
    pub instance: Option<&'a Value>,
    /// The schema, self-contained, when the caller has it: the closest alternative of a failed
    /// union is weighed by the members each declares.
    pub schema: Option<&'a Value>,
}

/// One validation error as a [`Violation`] of the schema in `judged.file`: masked unless
/// `show_values`, and for a failed `oneOf`/`anyOf` naming the closest alternative.
pub(crate) fn violation(
    judged: &Judged<'_>,
    error: &ValidationError<'_>,
    show_values: bool,
) -> Violation {
    let file = judged.file;
    let root = judged.instance;
    use jsonschema::error::ValidationErrorKind;
    let mut text = message(error, show_values);
    let mut rule = Rule::from(error.kind().keyword());
    // A `false` schema under `properties` forbids that member (`sender: false` in a
    // conditional's `then`): name the member rather than echo the schema.
    let schema_path = error.schema_path().as_str();
    if let ValidationErrorKind::FalseSchema = error.kind()
        && let Some(name) = forbidden_member(schema_path)
    {
        let conditional = schema_path.contains("/then/") || schema_path.contains("/else/");
        text = if conditional {
            format!(
                "member `{name}` is not allowed here (a condition of the schema, if/then, forbids it)"
            )
        } else {
            format!("member `{name}` is not allowed here")
        };
    }
    // `additionalProperties: false` beside no `properties` (the members declared only inside
    // a `oneOf` beside it, as PeerTube writes) allows no member at all, and jsonschema
    // reports it as a bare `false` schema: name the members it refused.
    if let ValidationErrorKind::FalseSchema = error.kind()
        && schema_path.ends_with("/additionalProperties")
        && let Some(Value::Object(members)) =
            root.and_then(|root| root.pointer(error.instance_path().as_str()))
        && !members.is_empty()
    {
        let names: Vec<String> = members.keys().map(|name| format!("'{name}'")).collect();
        let verb = if names.len() == 1 { "was" } else { "were" };
        rule = Rule::from("additionalProperties");
        text = format!(
            "Additional properties are not allowed ({} {verb} unexpected; this schema declares \
             no properties of its own, so its `additionalProperties: false` allows none)",
            names.join(", ")
        );
    }
    // `dependentRequired` reads as a missing member (jsonschema reports it as `required`),
    // though the schema's `required` does not list it: say which rule asks for it.
    if let ValidationErrorKind::Required { property } = error.kind()
        && schema_path.contains("/dependentRequired")
    {
        rule = Rule::DependentRequired;
        text = format!(
            "{property} is required by dependentRequired: a member present beside it asks for it"
        );
    }
    // `items: false` after `prefixItems`: an item beyond those the tuple lists, which
    // jsonschema reports as a bare `false` schema.
    if let ValidationErrorKind::FalseSchema = error.kind()
        && schema_path.ends_with("/items")
        && let Some(index) = error
            .instance_path()
            .as_str()
            .rsplit('/')
            .next()
            .and_then(|last| last.parse::<usize>().ok())
    {
        text = format!(
            "item {index} is not allowed: the array takes no items beyond those its \
             prefixItems list (items: false)"
        );
    }
    // An empty list admits nothing, and jsonschema's message would end at "not one of ".
    if let ValidationErrorKind::Enum { options } = error.kind()
        && options.as_array().is_some_and(Vec::is_empty)
    {
        text = "no value is allowed here: the schema's enum lists none".to_string();
    }
    // A list of one: "is not one of "INCOMING"" reads oddly.
    if let ValidationErrorKind::Enum { options } = error.kind()
        && let Some([only]) = options.as_array().map(Vec::as_slice)
    {
        let value = if show_values {
            error.instance().to_string()
        } else {
            "value".into()
        };
        text = format!("{value} is not {only}, the only value allowed here");
    }
    // jsonschema names the first two values of a longer list and counts the rest ("or 2
    // other candidates"): a reader fixing the value needs them all.
    if let ValidationErrorKind::Enum { options } = error.kind()
        && let Some(values) = options.as_array()
        && values.len() > 3
    {
        let value = if show_values {
            error.instance().to_string()
        } else {
            "value".into()
        };
        text = format!("{value} is not one of {}", listed(values));
    }
    // `not` of a list of values (a known error code that this status is not documented
    // with): say which values are excluded, rather than echo the schema as JSON.
    if let ValidationErrorKind::Not { schema } = error.kind()
        && let Some(excluded) = excluded_values(schema)
    {
        let value = if show_values {
            error.instance().to_string()
        } else {
            "value".into()
        };
        text = format!("{value} is one of the values excluded here ({excluded})");
    }
    // Every alternative refused for its own one-value tag (a `type` the document does not list
    // yet): no alternative is closer than another, so name the tag and the values it takes.
    if let ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } =
        error.kind()
        && let at = error.instance_path().as_str()
        && let Some((member, values)) = unknown_tag(at, context)
    {
        let name = member
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .replace("~1", "/")
            .replace("~0", "~");
        let value = match root.and_then(|root| root.pointer(member)) {
            Some(value) if show_values => format!("{value}, "),
            _ => String::new(),
        };
        text = format!(
            "{text}: its member `{name}` ({value}a tag, each alternative taking one value) is \
             none of {}",
            listed(&values)
        );
    } else if let ValidationErrorKind::OneOfNotValid { context }
    | ValidationErrorKind::AnyOf { context } = error.kind()
        && let at = error.instance_path().as_str()
        && let tag_members = shared_enum_members(at, context)
        && let value = root.and_then(|root| root.pointer(at))
        && let Some((index, branch)) = context
            .iter()
            .enumerate()
            .filter(|(_, errors)| !errors.is_empty())
            .min_by_key(|(index, errors)| {
                let (other_type, other_tag, count) = distance(at, errors, &tag_members);
                let strangers = value.map_or(0, |value| {
                    let alternative = format!("{}/{index}", error.schema_path().as_str());
                    strangers(judged.schema, &alternative, value)
                });
                (other_type, other_tag, strangers, count)
            })
    {
        // Each reason worded as it would be on its own (an enum's whole list, a pattern's
        // component), not as jsonschema's bare message.
        // `allOf` parts that say the same thing fail alike: each reason once.
        let mut reasons: Vec<String> = Vec::new();
        for e in branch {
            let at = e.instance_path().as_str();
            let at = if at.is_empty() { "(root)" } else { at };
            let reason = format!("{at}: {}", violation(judged, e, show_values).message);
            if !reasons.contains(&reason) {
                reasons.push(reason);
            }
        }
        let more = reasons.len().saturating_sub(3);
        reasons.truncate(3);
        // Named as the pointer segment (`oneOf/1`, counted from 0 as the schema path beside
        // it is) and, where it is a component, by its name.
        let union_path = error.schema_path().as_str();
        let keyword = union_path.rsplit('/').next().unwrap_or("oneOf");
        text = format!(
            "{text}; closest is {keyword}/{} ({}), which fails: {}{}",
            alternative_name(judged.schema, union_path, index),
            branch[0].schema_path().as_str(),
            reasons.join("; "),
            if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            }
        );
    }
    // A `oneOf` that more than one alternative accepts: name them, so that the reader sees
    // which schemas overlap (jsonschema says only "more than one").
    if let ValidationErrorKind::OneOfMultipleValid { context } = error.kind() {
        let accepting: Vec<String> = context
            .iter()
            .enumerate()
            .filter(|(_, errors)| errors.is_empty())
            .map(|(index, _)| {
                format!(
                    "oneOf/{}",
                    alternative_name(judged.schema, schema_path, index)
                )
            })
            .collect();
        if accepting.len() > 1 {
            text = format!(
                "{text}: {} each accept it, where oneOf takes exactly one",
                accepting.join(" and ")
            );
        }
    }
    // A pattern is hard to read back as the rule it encodes; the component it belongs to
    // (`Timestamp`, `AccountId`) names that rule. A long one (an ISO 8601 timestamp's is 330
    // characters) is left to the schema location the finding names.
    if let ValidationErrorKind::Pattern { pattern } = error.kind()
        && let Some(component) = named_definition(schema_path, "pattern")
    {
        text = if pattern.chars().count() > LONGEST_QUOTED_PATTERN {
            let value = if show_values {
                error.instance().to_string()
            } else {
                "value".into()
            };
            format!("{value} does not match the pattern of {component}")
        } else {
            format!("{text} (the pattern of {component})")
        };
    }
    Violation {
        pointer: error.instance_path().as_str().to_string(),
        schema_location: format!("{file}#{schema_path}"),
        rule,
        message: text,
    }
}

/// Alternative `index` of the union at `union_path` (a schema path ending at `oneOf`), with
/// the component it refers to where the schema has it (`1 (Snmp3Credential)`).
fn alternative_name(schema: Option<&Value>, union_path: &str, index: usize) -> String {
    let component = schema
        .and_then(|schema| schema.pointer(&format!("{union_path}/{index}")))
        .and_then(|alternative| alternative.get("$ref"))
        .and_then(Value::as_str)
        .and_then(|reference| reference.rsplit('/').next())
        .map(|name| name.replace("~1", "/").replace("~0", "~"));
    match component {
        Some(name) => format!("{index} ({name})"),
        None => index.to_string(),
    }
}

/// The longest pattern a message quotes when a component's name can stand for it.
const LONGEST_QUOTED_PATTERN: usize = 60;

/// The component whose own `keyword` a schema path ends at (`/$defs/Timestamp/pattern`:
/// `Timestamp`), decoded from its pointer segment.
fn named_definition(schema_path: &str, keyword: &str) -> Option<String> {
    let rest = schema_path.strip_suffix(keyword)?.strip_suffix('/')?;
    let (before, name) = rest.rsplit_once('/')?;
    before
        .ends_with("/$defs")
        .then(|| name.replace("~1", "/").replace("~0", "~"))
}

/// The values of an `enum`, as JSON, the way jsonschema writes a short list (`"A", "B" or
/// "C"`); past `MAX_LISTED` values, the count of the rest.
fn listed(values: &[Value]) -> String {
    const MAX_LISTED: usize = 30;
    let shown: Vec<String> = values
        .iter()
        .take(MAX_LISTED)
        .map(Value::to_string)
        .collect();
    match (values.len() > MAX_LISTED, shown.split_last()) {
        (true, _) => format!("{} or {} more", shown.join(", "), values.len() - MAX_LISTED),
        (false, Some((last, [_, ..]))) => {
            format!("{} or {last}", shown[..shown.len() - 1].join(", "))
        }
        (false, _) => shown.join(", "),
    }
}

/// The values a `not` schema of only `enum` or `const` excludes, as JSON, comma-separated.
fn excluded_values(schema: &Value) -> Option<String> {
    let object = schema.as_object()?;
    let values: Vec<&Value> = match (object.len(), object.get("enum"), object.get("const")) {
        (1, Some(Value::Array(values)), None) => values.iter().collect(),
        (1, None, Some(value)) => vec![value],
        _ => return None,
    };
    Some(
        values
            .iter()
            .map(|value| value.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// The member a `false` schema under `properties` stands for: the last step of the schema
/// path when the step before is `properties`, decoded from its JSON pointer escape.
fn forbidden_member(schema_path: &str) -> Option<String> {
    let (parent, name) = schema_path.rsplit_once('/')?;
    parent
        .ends_with("/properties")
        .then(|| name.replace("~1", "/").replace("~0", "~"))
}

/// Drops an `unevaluatedProperties` violation that only echoes another one inside the same
/// object: a member whose own schema it breaks counts as not evaluated (JSON Schema keeps no
/// annotations from a failed part), so the one mistake would be reported twice. The contract
/// closes a subtype that way (see specgen's `emit/contract/inheritance.rs`). Drops too a
/// violation that says what an earlier one says of the same place: `allOf` parts that each
/// say `type: object` (Asana's `UserCompact` and the `AsanaResource` it extends) refuse a
/// `null` once each, and it is one mistake. And of a value that a `const`, an `enum` and a
/// `type` all refuse at one place (a response's `status: {const: ACTIVE}` over the
/// component's enum, a `null` where an enum of strings stands), keeps the narrowest: the
/// `const` says the one value, an `enum` every value and so their type; and a `format` where
/// the `type` is already refused.
pub(crate) fn without_echoes(mut violations: Vec<Violation>) -> Vec<Violation> {
    let mut seen = std::collections::HashSet::new();
    violations.retain(|v| seen.insert((v.pointer.clone(), v.rule.clone(), v.message.clone())));
    let narrower = |rule: &Rule| match rule {
        Rule::Enum => vec![Rule::Const],
        Rule::Type => vec![Rule::Const, Rule::Enum],
        // A value of another type needs no word on its format (`x` where an `int64` integer
        // stands is not an integer; that its text is none either says it again).
        Rule::Format => vec![Rule::Type],
        _ => Vec::new(),
    };
    let echoes: Vec<bool> = violations
        .iter()
        .map(|candidate| {
            // Inside the object, or of the object itself: a part that requires a member the
            // value lacks (Just Eat's `currency`) fails whole, so the members it declares
            // count as not evaluated, and were reported as not allowed.
            let unevaluated = candidate.rule == Rule::UnevaluatedProperties
                && violations.iter().any(|other| {
                    other.rule != Rule::UnevaluatedProperties
                        && other
                            .pointer
                            .strip_prefix(candidate.pointer.as_str())
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                });
            let narrower = narrower(&candidate.rule);
            let said_narrower = !narrower.is_empty()
                && violations.iter().any(|other| {
                    other.pointer == candidate.pointer && narrower.contains(&other.rule)
                });
            unevaluated || said_narrower
        })
        .collect();
    let mut echo = echoes.into_iter();
    violations.retain(|_| !echo.next().unwrap_or(false));
    violations
}
