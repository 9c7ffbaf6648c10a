//! Findings: one problem a check found, at a JSON pointer, and the list of them rendered for
//! a person.

use std::fmt;

/// One problem found by a check: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Finding {
    /// JSON pointer of the offending place in the checked document (`""` is the root).
    pub location: String,
    /// What is wrong there, for a person to read.
    pub message: String,
}

impl Finding {
    /// A finding at `location` saying `message`.
    pub fn new(location: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            location: location.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let location = if self.location.is_empty() {
            "(document root)"
        } else {
            &self.location
        };
        write!(f, "{location}: {}", self.message)
    }
}

/// Renders findings as a numbered list under a heading, one finding per entry, for a
/// failing test's message.
#[must_use]
pub fn render_findings(heading: &str, findings: &[Finding]) -> String {
    let mut out = format!("{heading} ({} problem(s)):\n", findings.len());
    for (index, finding) in findings.iter().enumerate() {
        let text = finding.to_string().replace('\n', "\n      ");
        out.push_str(&format!("  {:>3}. {text}\n", index + 1));
    }
    out
}
