//! One message's walk through its two schemas: the pairs already compared, where a finding
//! is reported, and the pointer a keyword's finding points at.

use std::collections::HashMap;

use crate::diff::checks::{Facet, Flow};
use crate::diff::collect::{Collector, Key};
use crate::diff::finding::Which;
use crate::diff::wire::shape::Shape;

/// Pairs of schemas already compared (`None` while the comparison is under way: a cycle).
pub(crate) type Memo = HashMap<(String, String, Flow), Option<Vec<Key>>>;

/// One message's schemas being compared.
pub(crate) struct Walk<'c, 'd> {
    pub out: &'c mut Collector<'d>,
    pub memo: &'c mut Memo,
    pub flow: Flow,
    /// The operation or webhook whose message this is.
    pub use_: &'c str,
}

impl Walk<'_, '_> {
    pub(super) fn report(&mut self, facet: Facet, which: Which, pointer: &str, what: String) {
        self.out
            .schema(self.flow, facet, which, pointer, what, self.use_);
    }
}

/// The pointer of a keyword of the schema, or of the schema when it lacks it.
pub(super) fn keyword_at(shape: &Shape, keyword: &str) -> String {
    match shape.value.and_then(|v| v.get(keyword)) {
        Some(_) => crate::load::join(&shape.at, keyword),
        None => shape.at.clone(),
    }
}
