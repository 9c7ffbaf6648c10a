//! Constraints on values: length, size and range bounds, `multipleOf`, `uniqueItems`,
//! `pattern` and `default`, compared between versions.

use super::walk::{Walk, keyword_at};
use crate::diff::checks::{Bound, Facet};
use crate::diff::finding::Which;
use crate::diff::wire::shape::{Located, Shape};

impl<'d> Walk<'_, 'd> {
    pub(super) fn bounds(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        for (bound, upper) in [
            (Bound::MaxLength, true),
            (Bound::MinLength, false),
            (Bound::MaxItems, true),
            (Bound::MinItems, false),
            (Bound::MaxProperties, true),
            (Bound::MinProperties, false),
        ] {
            let key = bound.keyword();
            let a = old.keywords.get(key);
            let b = new.keywords.get(key);
            let bound_of = |located: Option<&Located>| {
                located.and_then(|l| l.value.as_f64()).map(|v| (v, false))
            };
            self.bound(bound, upper, (bound_of(a), a), (bound_of(b), b));
        }
        for (bound, upper, exclusive) in [
            (Bound::Maximum, true, "exclusiveMaximum"),
            (Bound::Minimum, false, "exclusiveMinimum"),
        ] {
            let (a, a_at) = limit(old, bound.keyword(), exclusive, upper);
            let (b, b_at) = limit(new, bound.keyword(), exclusive, upper);
            self.bound(bound, upper, (a, a_at), (b, b_at));
        }
        self.multiple_of(old, new);
        let unique = |shape: &Shape| {
            shape
                .keywords
                .get("uniqueItems")
                .and_then(|l| l.value.as_bool())
                .unwrap_or(false)
        };
        match (unique(old), unique(new)) {
            (false, true) => {
                let at = keyword_at(new, "uniqueItems");
                let what = "uniqueItems set".to_string();
                self.report(Facet::Tightened(Bound::UniqueItems), Which::New, &at, what);
            }
            (true, false) => {
                let at = keyword_at(old, "uniqueItems");
                let what = "uniqueItems dropped".to_string();
                self.report(Facet::Relaxed(Bound::UniqueItems), Which::Old, &at, what);
            }
            _ => {}
        }
    }

    /// One bound: `(value, exclusive)` on each side, with where it is written.
    fn bound(
        &mut self,
        bound: Bound,
        upper: bool,
        old: (Option<(f64, bool)>, Option<&Located>),
        new: (Option<(f64, bool)>, Option<&Located>),
    ) {
        let name = bound.keyword();
        let shown = |(v, exclusive): (f64, bool)| {
            if exclusive {
                format!("{} (exclusive)", number_text(v))
            } else {
                number_text(v)
            }
        };
        let (facet, which, at, what) = match (old.0, new.0) {
            (None, None) => return,
            (None, Some(b)) => (
                Facet::Tightened(bound),
                Which::New,
                new.1,
                format!("{name} set to {}", shown(b)),
            ),
            (Some(a), None) => (
                Facet::Relaxed(bound),
                Which::Old,
                old.1,
                format!("{name} {} dropped", shown(a)),
            ),
            (Some(a), Some(b)) => {
                if a == b {
                    return;
                }
                // Stricter: a lower upper bound (or the same one made exclusive), a higher lower
                // bound.
                let stricter = if a.0 == b.0 {
                    b.1 && !a.1
                } else if upper {
                    b.0 < a.0
                } else {
                    b.0 > a.0
                };
                let facet = if stricter {
                    Facet::Tightened(bound)
                } else {
                    Facet::Relaxed(bound)
                };
                (
                    facet,
                    Which::New,
                    new.1,
                    format!("{name} {} → {}", shown(a), shown(b)),
                )
            }
        };
        let at = at.map(|l| l.at.clone()).unwrap_or_default();
        self.report(facet, which, &at, what);
    }

    fn multiple_of(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        let get = |shape: &Shape<'d>| shape.keywords.get("multipleOf").cloned();
        let (a, b) = (get(old), get(new));
        let value = |l: &Located| l.value.as_f64().filter(|v| *v > 0.0);
        let (facet, which, at, what) = match (&a, &b) {
            (None, Some(b)) => (
                Facet::Tightened(Bound::MultipleOf),
                Which::New,
                b.at.clone(),
                format!("multipleOf set to {}", b.value),
            ),
            (Some(a), None) => (
                Facet::Relaxed(Bound::MultipleOf),
                Which::Old,
                a.at.clone(),
                format!("multipleOf {} dropped", a.value),
            ),
            (Some(a_at), Some(b_at)) => {
                let (Some(a), Some(b)) = (value(a_at), value(b_at)) else {
                    return;
                };
                if a == b {
                    return;
                }
                // Every multiple of b is one of a when b is a multiple of a: looser otherwise.
                let looser = (a / b).fract() == 0.0;
                let facet = if looser {
                    Facet::Relaxed(Bound::MultipleOf)
                } else {
                    Facet::Tightened(Bound::MultipleOf)
                };
                (
                    facet,
                    Which::New,
                    b_at.at.clone(),
                    format!("multipleOf {} → {}", a_at.value, b_at.value),
                )
            }
            (None, None) => return,
        };
        self.report(facet, which, &at, what);
    }

    pub(super) fn pattern_and_default(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        let pattern = |shape: &Shape<'d>| shape.keywords.get("pattern").cloned();
        match (pattern(old), pattern(new)) {
            (None, Some(b)) => {
                let what = format!("pattern {} set", b.value);
                self.report(Facet::PatternAdded, Which::New, &b.at, what);
            }
            (Some(a), None) => {
                let what = format!("pattern {} dropped", a.value);
                self.report(Facet::PatternRemoved, Which::Old, &a.at, what);
            }
            (Some(a), Some(b)) if a.value != b.value => {
                let what = format!("pattern {} → {}", a.value, b.value);
                self.report(Facet::PatternChanged, Which::New, &b.at, what);
            }
            _ => {}
        }
        let default = |shape: &Shape<'d>| shape.keywords.get("default").cloned();
        let (which, at, what) = match (default(old), default(new)) {
            (None, Some(b)) => (Which::New, b.at, format!("default {} set", b.value)),
            (Some(a), None) => (Which::Old, a.at, format!("default {} dropped", a.value)),
            (Some(a), Some(b)) if a.value != b.value => (
                Which::New,
                b.at,
                format!("default {} → {}", a.value, b.value),
            ),
            _ => return,
        };
        self.report(Facet::DefaultChanged, which, &at, what);
    }
}

/// An upper (or lower) limit from `maximum` and `exclusiveMaximum`: the stricter of both.
fn limit<'a, 'd>(
    shape: &'a Shape<'d>,
    inclusive: &str,
    exclusive: &str,
    upper: bool,
) -> (Option<(f64, bool)>, Option<&'a Located<'d>>) {
    let inclusive = shape.keywords.get(inclusive);
    let exclusive = shape.keywords.get(exclusive);
    let a = inclusive.and_then(|l| l.value.as_f64()).map(|v| (v, false));
    let b = exclusive.and_then(|l| l.value.as_f64()).map(|v| (v, true));
    match (a, b) {
        (Some(a), Some(b)) => {
            let b_stricter = if upper { b.0 <= a.0 } else { b.0 >= a.0 };
            if b_stricter {
                (Some(b), exclusive)
            } else {
                (Some(a), inclusive)
            }
        }
        (Some(a), None) => (Some(a), inclusive),
        (None, Some(b)) => (Some(b), exclusive),
        (None, None) => (None, None),
    }
}

fn number_text(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}
