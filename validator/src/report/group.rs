//! The group a finding is listed under in a report (its operation, or one of four groups
//! for what belongs to none), shared by the text writer and the spool that streams findings
//! back to every writer.

use crate::finding::Finding;
use crate::rule::Rule;

/// The group of findings whose exchange matched no operation.
pub(crate) const UNMATCHED: &str = "(unmatched)";
/// The group of exchanges that are not calls of the API: a browser's CORS preflights and the
/// pages, scripts, styles, images and fonts a web client loads beside its API calls
/// ([`crate::check::Outcome::not_api`]). Counted, not judged.
pub(crate) const NOT_API: &str = "(not API traffic)";
/// The group of entries that could not be read as exchanges.
pub(crate) const MALFORMED: &str = "(malformed)";
/// The group of findings about an input as a whole (empty, unreadable).
pub(crate) const INPUT: &str = "(input)";

/// The group a finding is listed under: its operation, else `(malformed)` for an entry that
/// could not be read (or stopped reading), `(input)` for a finding about an input as a whole,
/// `(unmatched)` for the rest.
pub(crate) fn group(finding: &Finding) -> &str {
    match &finding.operation {
        Some(operation) => operation,
        None if matches!(finding.rule, Rule::Malformed | Rule::TooLarge) => MALFORMED,
        None if matches!(finding.rule, Rule::NoExchanges | Rule::Unreadable) => INPUT,
        None => UNMATCHED,
    }
}
