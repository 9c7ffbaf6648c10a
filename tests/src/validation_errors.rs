//! Validation errors as a person reads them: each error and its causes, indented, shortened.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;

/// Longest validation message kept before it is cut short.
const MAX_MESSAGE: usize = 300;

fn shorten(text: String) -> String {
    if text.chars().count() <= MAX_MESSAGE {
        text
    } else {
        let mut cut: String = text.chars().take(MAX_MESSAGE).collect();
        cut.push('…');
        cut
    }
}

/// One line for a validation error: what is wrong and which schema keyword said so (the
/// instance path is left to the caller, see [`ValidationError::instance_path`]). Object and
/// array instances are not repeated in the message (they can be the whole document); for
/// `anyOf`/`oneOf` the reasons each alternative failed follow, indented, each with its
/// instance path where that differs.
#[must_use]
pub fn describe_validation_error(error: &ValidationError<'_>) -> String {
    let mut out = String::new();
    describe_into(error, 0, error.instance_path().as_str(), &mut out);
    out
}

fn describe_into(error: &ValidationError<'_>, depth: usize, parent_path: &str, out: &mut String) {
    const MAX_DEPTH: usize = 3;
    const MAX_BRANCH_ERRORS: usize = 5;
    let indent = "    ".repeat(depth);
    let path = error.instance_path().as_str();
    let at = if path == parent_path {
        String::new()
    } else {
        format!("at {path}: ")
    };
    let text = if error.instance().is_object() || error.instance().is_array() {
        error.masked_with("the value").to_string()
    } else {
        error.to_string()
    };
    out.push_str(&format!(
        "{indent}{at}{} [schema keyword {}]",
        shorten(text),
        error.schema_path()
    ));
    let branches = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context
        }
        _ => return,
    };
    if depth >= MAX_DEPTH {
        return;
    }
    for (index, branch) in branches.iter().enumerate() {
        out.push_str(&format!("\n{indent}  alternative {index} fails:"));
        for sub in branch.iter().take(MAX_BRANCH_ERRORS) {
            out.push('\n');
            describe_into(sub, depth + 1, path, out);
        }
        if branch.len() > MAX_BRANCH_ERRORS {
            out.push_str(&format!(
                "\n{indent}    … and {} more",
                branch.len() - MAX_BRANCH_ERRORS
            ));
        }
    }
}
