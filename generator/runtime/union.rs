//! Choosing the alternative of a union by what the value is.
//!
//! The structs of the models keep unknown members and the enums unknown values, so nearly any
//! JSON deserializes into nearly any alternative: "the first alternative that deserializes"
//! (serde's `untagged`) is usually the wrong one, and the members it does not declare end up
//! in its catch-all. Instead, each alternative carries facts read from its schema (its JSON
//! types, required members, members whose value is fixed by a `const` or a closed `enum`, the
//! members it declares, whether it is closed) and a value goes to the alternative that:
//!
//! 1. no fact rules out (wrong JSON type, a required member missing, a fixed member with
//!    another value, a member a closed object does not declare, a value outside a closed
//!    enum, a number's range or a string's length, a string without its pattern's prefix,
//!    an array item or a member that breaks facts of its own);
//! 2. fits best: the most fixed members matched, then the most of the value's members
//!    declared, then the most required members; ties go to the first in document order;
//! 3. deserializes and serializes back to the same JSON (nothing dropped or rewritten).
//!
//! When no alternative passes all three, the value is kept as received, as JSON.
//!
//! This module is copied into every generated crate (`support::union`); specgen keeps it as
//! an ordinary Rust file so that it is compiled and unit-tested as itself.

use serde::Serialize;
use serde_json::Value;

/// A value fixed by the spec: a `const`, or one entry of an `enum`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Literal {
    /// A string.
    Str(&'static str),
    /// Any other JSON value, as JSON text.
    Json(&'static str),
}

impl Literal {
    /// Whether `value` is this literal (numbers compare by value: `1` is `1.0`).
    pub fn matches(&self, value: &Value) -> bool {
        match self {
            Literal::Str(text) => value.as_str() == Some(*text),
            Literal::Json(text) => {
                serde_json::from_str::<Value>(text).is_ok_and(|literal| same_json(&literal, value))
            }
        }
    }
}

/// The JSON types an alternative accepts, as bits of [`Alternative::kinds`].
pub mod kind {
    /// `null`.
    pub const NULL: u8 = 1;
    /// `true` or `false`.
    pub const BOOLEAN: u8 = 2;
    /// A number without a fractional part.
    pub const INTEGER: u8 = 4;
    /// Any number.
    pub const NUMBER: u8 = 8;
    /// A string.
    pub const STRING: u8 = 16;
    /// An array.
    pub const ARRAY: u8 = 32;
    /// An object.
    pub const OBJECT: u8 = 64;
}

/// What a value must look like to be one alternative of a union.
#[derive(Debug, Clone, Copy)]
pub struct Alternative {
    /// The JSON types accepted ([`kind`] bits); 0 accepts any.
    pub kinds: u8,
    /// Members an object must have.
    pub required: &'static [&'static str],
    /// Members required in one direction only (`readOnly`, `writeOnly`): one type reads
    /// requests and responses, so a value may lack them, and one that has them all fits
    /// better than one that does not (`{name}` is a new pet before a pet without its `id`).
    pub one_way: &'static [&'static str],
    /// Members whose value is fixed, with the values allowed.
    pub tags: &'static [(&'static str, &'static [Literal])],
    /// Members the alternative declares.
    pub declared: &'static [&'static str],
    /// No members beyond `declared` are allowed.
    pub closed: bool,
    /// For a scalar with a closed `enum` or a `const`: the values allowed.
    pub values: Option<&'static [Literal]>,
    /// For a string with a `pattern` anchored at its start: it begins with one of these.
    /// Empty imposes nothing.
    pub prefixes: &'static [&'static str],
    /// For a string with a `format` this test knows: the value must have it.
    pub format: Option<Format>,
    /// For a number with `minimum`/`maximum` (or their exclusive forms): the value must lie
    /// within.
    pub range: Option<Range>,
    /// For a string with `minLength`/`maxLength`: its length in characters, `(min, max)`.
    pub length: Option<(usize, usize)>,
    /// Members whose value, when present, must meet facts of their own (`method.type` fixed
    /// to `card`; an `id` whose pattern begins with `acct_`).
    pub members: &'static [(&'static str, &'static Alternative)],
    /// For an array: the facts every item must meet.
    pub items: Option<&'static Alternative>,
    /// For an array: `minItems` and `maxItems`.
    pub item_count: Option<(usize, usize)>,
    /// For an object: `minProperties` and `maxProperties`.
    pub member_count: Option<(usize, usize)>,
    /// For a number: `multipleOf`.
    pub multiple_of: Option<f64>,
    /// For an object: the facts every member not in `declared` must meet (its
    /// `additionalProperties`: a map whose values are a closed enum).
    pub additional: Option<&'static Alternative>,
    /// Values the alternative forbids (`not: {const: auto}`).
    pub excluded: &'static [Literal],
    /// For a string with a `pattern` anchored at both ends: every character lies in one of
    /// these inclusive ranges.
    pub alphabet: Option<&'static [(char, char)]>,
    /// For an array: the facts of its first items, one by one (`prefixItems`); `items` rules
    /// on the items after them.
    pub prefix_items: &'static [Alternative],
}

impl Alternative {
    /// Facts that rule nothing out; the generated constants name only what differs.
    pub const ANY: Alternative = Alternative {
        kinds: 0,
        required: &[],
        one_way: &[],
        tags: &[],
        declared: &[],
        closed: false,
        values: None,
        prefixes: &[],
        format: None,
        range: None,
        length: None,
        members: &[],
        items: None,
        item_count: None,
        member_count: None,
        multiple_of: None,
        additional: None,
        excluded: &[],
        alphabet: None,
        prefix_items: &[],
    };
}

/// The numbers an alternative admits: between `min` and `max`, each bound included unless
/// exclusive (an absent bound is infinite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// The lower bound.
    pub min: f64,
    /// `exclusiveMinimum`: the bound itself is not admitted.
    pub min_exclusive: bool,
    /// The upper bound.
    pub max: f64,
    /// `exclusiveMaximum`: the bound itself is not admitted.
    pub max_exclusive: bool,
}

impl Range {
    /// Whether `value`, when a number, lies within: an integer compared exactly where the
    /// bound is a whole number (9007199254740993 is above a maximum of 2^53, though as an
    /// `f64` it is 2^53), any other number as an `f64`. Not a number: nothing to rule on.
    pub fn admits_value(&self, value: &Value) -> bool {
        let whole = value
            .as_i64()
            .map(i128::from)
            .or_else(|| value.as_u64().map(i128::from));
        match (whole, value.as_f64()) {
            (Some(whole), _) => {
                let exact = |bound: f64| {
                    (bound.fract() == 0.0 && bound.abs() < 1e30).then_some(bound as i128)
                };
                let above = match exact(self.min) {
                    Some(min) if self.min_exclusive => whole > min,
                    Some(min) => whole >= min,
                    None => self.admits_min(whole as f64),
                };
                let below = match exact(self.max) {
                    Some(max) if self.max_exclusive => whole < max,
                    Some(max) => whole <= max,
                    None => self.admits_max(whole as f64),
                };
                above && below
            }
            (None, Some(number)) => self.admits(number),
            (None, None) => true,
        }
    }

    fn admits_min(&self, number: f64) -> bool {
        if self.min_exclusive {
            number > self.min
        } else {
            number >= self.min
        }
    }

    fn admits_max(&self, number: f64) -> bool {
        if self.max_exclusive {
            number < self.max
        } else {
            number <= self.max
        }
    }

    /// Whether `number` lies within.
    pub fn admits(&self, number: f64) -> bool {
        self.admits_min(number) && self.admits_max(number)
    }
}

/// String formats a union tells its alternatives apart by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `ipv4`
    Ipv4,
    /// `ipv6`
    Ipv6,
    /// `email`, `idn-email`: only the `@` is tested, which every address has.
    Email,
    /// `time`: only its beginning `hh:mm:ss` is tested.
    Time,
    /// `duration`: only its leading `P` is tested.
    Duration,
    /// `byte`: base64 text (see [`is_base64`]).
    Base64,
}

impl Format {
    /// Whether `text` may have this format (for `Email`, `Time` and `Duration`, a necessary
    /// condition only).
    pub fn admits(self, text: &str) -> bool {
        match self {
            Format::Ipv4 => text.parse::<::std::net::Ipv4Addr>().is_ok(),
            Format::Ipv6 => text.parse::<::std::net::Ipv6Addr>().is_ok(),
            Format::Email => text.contains('@'),
            Format::Time => {
                let bytes = text.as_bytes();
                bytes.len() >= 8
                    && bytes[..8].iter().enumerate().all(|(i, b)| match i {
                        2 | 5 => *b == b':',
                        _ => b.is_ascii_digit(),
                    })
            }
            Format::Duration => text.starts_with('P'),
            Format::Base64 => is_base64(text),
        }
    }
}

/// Whether `text` is base64 (RFC 4648) as OpenAPI's `format: byte` reads it, and as the
/// contract's check does (`specgen::manifest::is_base64`): either alphabet, padding optional,
/// white space ignored.
pub fn is_base64(text: &str) -> bool {
    let mut digits = 0usize;
    let mut padding = 0usize;
    for byte in text.bytes() {
        match byte {
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b'=' => padding += 1,
            // A digit after padding: the padding was not at the end.
            _ if padding > 0 => return false,
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'+' | b'/' | b'-' | b'_' => digits += 1,
            _ => return false,
        }
    }
    let complete = (digits + padding).is_multiple_of(4);
    padding <= 2 && digits % 4 != 1 && (padding == 0 || complete)
}

/// Whether `count` lies within `(min, max)`, both included.
fn within(count: usize, (min, max): (usize, usize)) -> bool {
    (min..=max).contains(&count)
}

/// Whether `number` may be a multiple of `step`: ruled out only when the quotient is clearly
/// not whole, since `0.3 / 0.1` is `2.9999999999999996` in binary floating point.
fn may_be_multiple(number: f64, step: f64) -> bool {
    let quotient = number / step;
    !quotient.is_finite() || (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
}

/// How well a value fits an alternative: its fixed members matched, the fixed members matched
/// inside its members (Nexmo's events share `id` and `type` and differ in a `body` whose
/// `state` only a member's lists), whether it has every member required in one direction only,
/// members declared, members required. Compared in that order; higher is better.
pub type Fit = (usize, usize, bool, usize, usize);

impl Alternative {
    /// How well `value` fits, or `None` when a fact rules this alternative out.
    pub fn fit(&self, value: &Value) -> Option<Fit> {
        self.fit_with(value, Leeway::None)
    }

    /// [`Alternative::fit`], where `leeway` says which of the lists fixing a value may be
    /// passed over: a value the list did not know yet, which the bindings take.
    fn fit_with(&self, value: &Value, leeway: Leeway<'_>) -> Option<Fit> {
        if self.kinds != 0 && self.kinds & kind_bits(value) == 0 {
            return None;
        }
        if let Some(values) = self.values
            && !values.iter().any(|literal| literal.matches(value))
            && !leeway.value_may_differ(values)
        {
            return None;
        }
        if self.excluded.iter().any(|literal| literal.matches(value)) {
            return None;
        }
        if let Some(range) = self.range
            && !range.admits_value(value)
        {
            return None;
        }
        if let (Some(step), Some(number)) = (self.multiple_of, value.as_f64())
            && !may_be_multiple(number, step)
        {
            return None;
        }
        if let (Some(length), Value::String(text)) = (self.length, value)
            && !within(text.chars().count(), length)
        {
            return None;
        }
        if let Value::Array(list) = value {
            if self
                .item_count
                .is_some_and(|count| !within(list.len(), count))
            {
                return None;
            }
            let mut prefix = self.prefix_items.iter().zip(list);
            if prefix.any(|(facts, item)| facts.fit_with(item, leeway.below()).is_none()) {
                return None;
            }
            let rest = list.get(self.prefix_items.len()..).unwrap_or_default();
            if let Some(items) = self.items
                && rest
                    .iter()
                    .any(|item| items.fit_with(item, leeway.below()).is_none())
            {
                return None;
            }
        }
        if let Value::String(text) = value {
            if !self.prefixes.is_empty()
                && !self.prefixes.iter().any(|prefix| text.starts_with(prefix))
            {
                return None;
            }
            if self.format.is_some_and(|format| !format.admits(text)) {
                return None;
            }
            if let Some(alphabet) = self.alphabet
                && !text.chars().all(|c| {
                    alphabet
                        .iter()
                        .any(|(start, end)| (*start..=*end).contains(&c))
                })
            {
                return None;
            }
        }
        let Some(object) = value.as_object() else {
            return Some((0, 0, true, 0, 0));
        };
        if self.required.iter().any(|name| !object.contains_key(*name)) {
            return None;
        }
        if self
            .member_count
            .is_some_and(|count| !within(object.len(), count))
        {
            return None;
        }
        if let Some(additional) = self.additional {
            let mut others = object
                .iter()
                .filter(|(name, _)| !self.declared.contains(&name.as_str()));
            if others.any(|(_, member)| additional.fit_with(member, leeway.below()).is_none()) {
                return None;
            }
        }
        let mut inner_tags = 0;
        for (name, facts) in self.members {
            if let Some(member) = object.get(*name) {
                let (tags, deeper, ..) = facts.fit_with(member, leeway.below())?;
                inner_tags += tags + deeper;
            }
        }
        let mut tags = 0;
        for (name, allowed) in self.tags {
            if let Some(member) = object.get(*name) {
                if allowed.iter().any(|literal| literal.matches(member)) {
                    tags += 1;
                } else if !leeway.member_may_differ(name, allowed) {
                    return None;
                }
            }
        }
        let declared = object
            .keys()
            .filter(|name| self.declared.contains(&name.as_str()))
            .count();
        if self.closed && declared < object.len() {
            return None;
        }
        let complete = self.one_way.iter().all(|name| object.contains_key(*name));
        Some((tags, inner_tags, complete, declared, self.required.len()))
    }
}

fn kind_bits(value: &Value) -> u8 {
    match value {
        Value::Null => kind::NULL,
        Value::Bool(_) => kind::BOOLEAN,
        Value::Number(number) => {
            let whole = number.is_i64()
                || number.is_u64()
                || number.as_f64().is_some_and(|float| float.fract() == 0.0);
            if whole {
                kind::INTEGER | kind::NUMBER
            } else {
                kind::NUMBER
            }
        }
        Value::String(_) => kind::STRING,
        Value::Array(_) => kind::ARRAY,
        Value::Object(_) => kind::OBJECT,
    }
}

/// Which lists fixing a value a value may be outside of, as the bindings take it (an open
/// enum's `Unknown`), when choosing an alternative.
#[derive(Clone, Copy)]
enum Leeway<'a> {
    /// None: every list rules.
    None,
    /// The members of the object that `own` says only its alternative fixes, with lists of
    /// two values or more, and any list below.
    OwnMembers(&'a dyn Fn(&str) -> bool),
    /// Open lists (two strings or more: a one-value list is a tag) in the members of the
    /// object that `own` says only its alternative fixes, and open lists below.
    OpenLists(&'a dyn Fn(&str) -> bool),
    /// Any list, below the union's own value.
    AnyBelow,
    /// Open lists, below the union's own value.
    OpenBelow,
}

impl Leeway<'_> {
    fn below(self) -> Leeway<'static> {
        match self {
            Leeway::None => Leeway::None,
            Leeway::OwnMembers(_) | Leeway::AnyBelow => Leeway::AnyBelow,
            Leeway::OpenLists(_) | Leeway::OpenBelow => Leeway::OpenBelow,
        }
    }

    fn member_may_differ(self, name: &str, allowed: &[Literal]) -> bool {
        match self {
            Leeway::None => false,
            // A one-value list is a tag: a new value there is another kind of thing.
            Leeway::OwnMembers(own) => own(name) && allowed.len() >= 2,
            Leeway::OpenLists(own) => own(name) && is_open(allowed),
            Leeway::AnyBelow => true,
            Leeway::OpenBelow => is_open(allowed),
        }
    }

    /// Whether the value itself may be outside `values`: never at the union's own level,
    /// where a scalar's list is what tells its alternatives apart.
    fn value_may_differ(self, values: &[Literal]) -> bool {
        matches!(self, Leeway::AnyBelow | Leeway::OpenBelow) && is_open(values)
    }
}

/// Whether a list is an open enum's, which the bindings read a new value of: two strings or
/// more.
fn is_open(allowed: &[Literal]) -> bool {
    allowed.len() >= 2
        && allowed
            .iter()
            .all(|literal| matches!(literal, Literal::Str(_)))
}

/// The alternatives `value` may be, best fit first; ties keep document order.
///
/// Where none fits, an object is ranked once more, taking a value the spec did not list
/// (Adyen added `priority: "hyperspeed"` to a bank transfer's category) in a member that
/// only its own alternative fixes, when another member it fixes matches (`type: "bank"`):
/// the bindings take the new value, so that alternative keeps the object whole. A member
/// other alternatives fix too tells them apart, and a new value there stays unknown.
/// Where that finds none either, it is ranked taking a new value in any open list (two
/// strings or more) that no other alternative fixes at the top, and in open lists at any
/// depth (DigitalOcean's new droplet `status` inside the one alternative that holds a
/// `droplet`): a new status is drift the bindings read, not another alternative.
pub fn rank(value: &Value, alternatives: &[Alternative]) -> Vec<usize> {
    let ranked = |fits: &mut Vec<(usize, Fit)>| {
        fits.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        fits.iter().map(|(index, _)| *index).collect::<Vec<_>>()
    };
    let mut fits: Vec<(usize, Fit)> = alternatives
        .iter()
        .enumerate()
        .filter_map(|(index, alternative)| alternative.fit(value).map(|fit| (index, fit)))
        .collect();
    if !fits.is_empty() || !value.is_object() {
        return ranked(&mut fits);
    }
    let relaxed_by = |open: bool| {
        let mut relaxed: Vec<(usize, Fit)> = Vec::new();
        for (index, alternative) in alternatives.iter().enumerate() {
            // A member no other alternative fixes otherwise: a list they share word for word
            // (Vercel's configurations each list the same four `source`s) tells nothing apart.
            let its_own = |name: &str| {
                let mine = alternative
                    .tags
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, allowed)| *allowed);
                !alternatives.iter().enumerate().any(|(other, them)| {
                    other != index
                        && them
                            .tags
                            .iter()
                            .any(|(n, allowed)| *n == name && Some(*allowed) != mine)
                })
            };
            let leeway = if open {
                Leeway::OpenLists(&its_own)
            } else {
                Leeway::OwnMembers(&its_own)
            };
            if let Some(fit) = alternative.fit_with(value, leeway)
                && (open || fit.0 > 0)
            {
                relaxed.push((index, fit));
            }
        }
        relaxed
    };
    let mut relaxed = relaxed_by(false);
    if relaxed.is_empty() {
        relaxed = relaxed_by(true);
    }
    ranked(&mut relaxed)
}

/// The alternatives a value whose discriminator tag maps to none of them may still be: those
/// whose own schema pins the tag member (a `const` or `enum` that holds the tag), best fit
/// first. An alternative that takes any tag is no candidate: a tag the document does not
/// name is no value of it, and the value is kept as JSON, as the contract refuses it.
pub fn rank_pinned(value: &Value, alternatives: &[Alternative], property: &str) -> Vec<usize> {
    let mut order = rank(value, alternatives);
    order.retain(|&index| {
        alternatives[index]
            .tags
            .iter()
            .any(|(name, _)| *name == property)
    });
    order
}

/// Serializes `inner`, an alternative whose struct does not hold its discriminator's
/// `property` or holds it as an optional member, with the member `property: tag` added where `inner` did not write one: a value
/// built in code is then read back as the alternative it is. (Written through a JSON value,
/// so its members come out in that value's order.)
pub fn tagged<T: Serialize, S: serde::Serializer>(
    inner: &T,
    property: &str,
    tag: &str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(inner).map_err(serde::ser::Error::custom)?;
    if let Value::Object(object) = &mut value
        && !object.contains_key(property)
    {
        object.insert(property.to_string(), Value::String(tag.to_string()));
    }
    value.serialize(serializer)
}

/// The value of a discriminator member, when it is a string.
pub fn tag<'v>(value: &'v Value, property: &str) -> Option<&'v str> {
    value.get(property).and_then(Value::as_str)
}

/// Deserializes a union value: tries the alternatives in `order` with `build`, and keeps the
/// first that serializes back to the same JSON without any part of it kept as JSON by a union
/// within (a nested `oneOf` whose own alternatives all refuse the value holds it whole in its
/// catch-all, which would swallow values meant for the alternatives after it) and without a
/// `null` read as absent (a member the alternative does not make nullable: the value breaks
/// that alternative, and another may take it whole); failing that, the first that serializes
/// back at all, with nulls dropped before nested catch-alls; otherwise `keep`s the value as
/// received. `union` names the type, for [`decisions`].
pub fn choose<T: Serialize>(
    union: &'static str,
    value: Value,
    order: impl IntoIterator<Item = usize>,
    build: impl Fn(usize, &Value) -> Option<T>,
    keep: impl FnOnce(Value) -> T,
) -> T {
    // The value with every integral float written as an integer, for an alternative whose
    // integers refuse `2.0`, which JSON Schema counts as the integer 2; made once, when first
    // needed, and `None` when the value has no such float.
    let integral = std::cell::OnceCell::new();
    let attempt = |index: usize| {
        let mark = decisions::mark();
        build(index, &value).or_else(|| {
            let integral = integral.get_or_init(|| {
                let mut integral = value.clone();
                super::integral_floats_as_integers(&mut integral).then_some(integral)
            });
            decisions::rewind(mark);
            build(index, integral.as_ref()?)
        })
    };
    // The first candidate that keeps the value only through a nested catch-all, with the
    // decisions made building it. Kept, not built again at the end: a union nested in itself
    // (`Node: anyOf [integer, array of Node]`) would build each level twice, and a body of a
    // few dozen bytes would take seconds.
    // Ranked by what the candidate loses: a `null` read as absent, then a nested catch-all.
    let mut fallback: Option<(u8, usize, T, Vec<decisions::Decision>)> = None;
    for index in order {
        let mark = decisions::mark();
        let kept_before = kept_as_json();
        if let Some(candidate) = attempt(index)
            && let Some(exact) = keeps(&candidate, &value)
        {
            let nested = kept_as_json() != kept_before;
            if exact && !nested {
                decisions::record(union, Some(index), &value);
                return candidate;
            }
            let loss = match (nested, exact) {
                (false, _) => 0,
                (true, true) => 1,
                (true, false) => 2,
            };
            if fallback.as_ref().is_none_or(|(worst, ..)| loss < *worst) {
                fallback = Some((loss, index, candidate, decisions::take_since(mark)));
                continue;
            }
        }
        decisions::rewind(mark);
    }
    if let Some((_, index, candidate, made)) = fallback {
        decisions::restore(made);
        decisions::record(union, Some(index), &value);
        return candidate;
    }
    decisions::record(union, None, &value);
    KEPT_AS_JSON.with(|kept| kept.set(kept.get() + 1));
    keep(value)
}

thread_local! {
    /// How many union values this thread has kept as JSON, no alternative keeping them whole.
    static KEPT_AS_JSON: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many union values this thread has kept as JSON so far: a reader compares the count
/// before and after reading a value to learn whether a union within kept some part of it
/// whole (the client: an empty body no alternative takes).
pub fn kept_as_json() -> u64 {
    KEPT_AS_JSON.with(std::cell::Cell::get)
}

/// Whether `candidate` serializes to the JSON it was read from: `Some(true)` exactly,
/// `Some(false)` but for members received as `null` and written back absent, `None` not at
/// all. Through text, as a user gets it: an `f32` of 21.4 writes `21.4`, though widened to
/// `f64` it reads 21.399999618530273. A dropped `null` still keeps the value: an optional
/// member the document does not mark nullable reads `null` as absent (Mastodon's
/// `in_reply_to_id`, which its API sends as `null`), and would otherwise send every such
/// value to the catch-all.
fn keeps<T: Serialize>(candidate: &T, value: &Value) -> Option<bool> {
    let back = serde_json::to_vec(candidate)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())?;
    if same(value, &back, false) {
        Some(true)
    } else {
        same(value, &back, true).then_some(false)
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`), UUIDs by value (RFC 9562
/// reads them in any case and writes them in lower case, as `uuid::Uuid` does), and object
/// members in any order.
pub fn same_json(a: &Value, b: &Value) -> bool {
    same(a, b, false)
}

/// [`same_json`]; with `null_as_absent`, a member `a` holds as `null` may be absent from `b`.
fn same(a: &Value, b: &Value, null_as_absent: bool) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::String(x), Value::String(y)) => {
            x == y || (x.eq_ignore_ascii_case(y) && is_hyphenated_uuid(x))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y, null_as_absent))
        }
        (Value::Object(x), Value::Object(y)) => {
            let matched = x.iter().all(|(key, x)| match y.get(key) {
                Some(y) => same(x, y, null_as_absent),
                None => null_as_absent && x.is_null(),
            });
            matched && y.keys().all(|key| x.contains_key(key))
        }
        _ => a == b,
    }
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hexadecimal digits of either case.
fn is_hyphenated_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// The choices made while deserializing, for tests that prove each value landed in the right
/// alternative. Off unless [`decisions::observe`] is running on the thread, and then the only
/// cost is a copy of each union's value.
pub mod decisions {
    use std::cell::RefCell;

    use serde_json::Value;

    /// One union value and where it went.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Decision {
        /// The union type.
        pub union: &'static str,
        /// The alternative chosen (its index in document order); `None` when the value was
        /// kept as JSON.
        pub variant: Option<usize>,
        /// The value.
        pub value: Value,
    }

    thread_local! {
        static LOG: RefCell<Option<Vec<Decision>>> = const { RefCell::new(None) };
    }

    /// Runs `f` and returns what it returned with every union decision it made on this thread
    /// (for the final result only: alternatives tried and given up leave nothing behind).
    pub fn observe<R>(f: impl FnOnce() -> R) -> (R, Vec<Decision>) {
        let outer = LOG.with(|log| log.borrow_mut().replace(Vec::new()));
        let result = f();
        let decisions = LOG.with(|log| std::mem::replace(&mut *log.borrow_mut(), outer));
        (result, decisions.unwrap_or_default())
    }

    pub(super) fn mark() -> usize {
        LOG.with(|log| log.borrow().as_ref().map_or(0, Vec::len))
    }

    pub(super) fn rewind(mark: usize) {
        LOG.with(|log| {
            if let Some(log) = log.borrow_mut().as_mut() {
                log.truncate(mark);
            }
        });
    }

    /// The decisions made since `mark`, taken out of the log (none when nothing observes).
    pub(super) fn take_since(mark: usize) -> Vec<Decision> {
        LOG.with(|log| {
            log.borrow_mut()
                .as_mut()
                .map(|log| log.split_off(mark.min(log.len())))
                .unwrap_or_default()
        })
    }

    /// Puts back decisions [`take_since`] took out.
    pub(super) fn restore(decisions: Vec<Decision>) {
        LOG.with(|log| {
            if let Some(log) = log.borrow_mut().as_mut() {
                log.extend(decisions);
            }
        });
    }

    pub(super) fn record(union: &'static str, variant: Option<usize>, value: &Value) {
        LOG.with(|log| {
            if let Some(log) = log.borrow_mut().as_mut() {
                log.push(Decision {
                    union,
                    variant,
                    value: value.clone(),
                });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const CARD: Alternative = Alternative {
        kinds: kind::OBJECT,
        tags: &[("type", &[Literal::Str("scheme"), Literal::Str("card")])],
        declared: &["type", "number", "cvc"],
        closed: true,
        ..Alternative::ANY
    };
    const IDEAL: Alternative = Alternative {
        kinds: kind::OBJECT,
        required: &["issuer"],
        tags: &[("type", &[Literal::Str("ideal")])],
        declared: &["type", "issuer"],
        ..Alternative::ANY
    };
    const OPEN: Alternative = Alternative {
        kinds: kind::OBJECT,
        declared: &["note"],
        ..Alternative::ANY
    };

    #[test]
    fn a_tag_with_another_value_rules_an_alternative_out() {
        let card = json!({"type": "scheme", "number": "4111"});
        assert_eq!(rank(&card, &[IDEAL, OPEN, CARD]), vec![2, 1]);
        let ideal = json!({"type": "ideal", "issuer": "1121"});
        assert_eq!(rank(&ideal, &[CARD, OPEN, IDEAL]), vec![2, 1]);
    }

    /// Nexmo's events: every alternative declares `id`, `type` and `body`; a member event's
    /// body lists the member's `state`, a text event's says nothing of it.
    #[test]
    fn tags_inside_members_rank_alternatives_after_their_own() {
        const MEMBER: Alternative = Alternative {
            kinds: kind::OBJECT,
            tags: &[("state", &[Literal::Str("INVITED"), Literal::Str("JOINED")])],
            ..Alternative::ANY
        };
        const TEXT_EVENT: Alternative = Alternative {
            kinds: kind::OBJECT,
            declared: &["id", "type", "body"],
            ..Alternative::ANY
        };
        const MEMBER_EVENT: Alternative = Alternative {
            kinds: kind::OBJECT,
            declared: &["id", "type", "body"],
            members: &[("body", &MEMBER)],
            ..Alternative::ANY
        };
        let invited = json!({"id": 1, "type": "member:invited", "body": {"state": "INVITED"}});
        assert_eq!(rank(&invited, &[TEXT_EVENT, MEMBER_EVENT]), vec![1, 0]);
        let text = json!({"id": 2, "type": "text", "body": {"text": "hi"}});
        assert_eq!(rank(&text, &[TEXT_EVENT, MEMBER_EVENT]), vec![0, 1]);
        // A fixed member of the alternative's own still comes first.
        const TAGGED_TEXT: Alternative = Alternative {
            tags: &[("type", &[Literal::Str("text")])],
            ..TEXT_EVENT
        };
        let tagged = json!({"type": "text", "body": {"state": "JOINED"}});
        assert_eq!(rank(&tagged, &[MEMBER_EVENT, TAGGED_TEXT]), vec![1, 0]);
    }

    /// Adyen's transfer categories: a new `priority` in a bank category still makes it the
    /// bank category (the bindings take the value); a new `type`, which every alternative
    /// fixes, makes it none.
    #[test]
    fn a_new_value_in_a_member_only_its_alternative_fixes_keeps_the_alternative() {
        const BANK: Alternative = Alternative {
            kinds: kind::OBJECT,
            tags: &[
                ("type", &[Literal::Str("bank")]),
                ("priority", &[Literal::Str("fast"), Literal::Str("regular")]),
            ],
            declared: &["type", "priority"],
            ..Alternative::ANY
        };
        const INTERNAL: Alternative = Alternative {
            kinds: kind::OBJECT,
            tags: &[("type", &[Literal::Str("internal")])],
            declared: &["type"],
            ..Alternative::ANY
        };
        let hyperspeed = json!({"type": "bank", "priority": "hyperspeed"});
        assert_eq!(rank(&hyperspeed, &[INTERNAL, BANK]), vec![1]);
        assert!(
            rank(
                &json!({"type": "card", "priority": "fast"}),
                &[INTERNAL, BANK]
            )
            .is_empty()
        );

        // Known values keep the strict ranking.
        assert_eq!(
            rank(
                &json!({"type": "bank", "priority": "fast"}),
                &[INTERNAL, BANK]
            ),
            vec![1]
        );
    }

    /// DigitalOcean's droplet creation answers one droplet or several: a status the list
    /// did not name yet, inside either, is drift the bindings read (an open enum's
    /// `Unknown`), so the value is still the alternative that holds it; a new value of a
    /// one-value list (a tag) is not.
    #[test]
    fn a_new_value_of_an_open_list_below_the_top_keeps_the_alternative() {
        const DROPLET: Alternative = Alternative {
            kinds: kind::OBJECT,
            tags: &[
                (
                    "status",
                    &[
                        Literal::Str("new"),
                        Literal::Str("active"),
                        Literal::Str("off"),
                    ],
                ),
                ("kind", &[Literal::Str("droplet")]),
            ],
            declared: &["id", "status", "kind"],
            ..Alternative::ANY
        };
        const DROPLETS: Alternative = Alternative {
            kinds: kind::ARRAY,
            items: Some(&DROPLET),
            ..Alternative::ANY
        };
        const SINGLE: Alternative = Alternative {
            kinds: kind::OBJECT,
            required: &["droplet"],
            declared: &["droplet"],
            members: &[("droplet", &DROPLET)],
            ..Alternative::ANY
        };
        const MULTIPLE: Alternative = Alternative {
            kinds: kind::OBJECT,
            required: &["droplets"],
            declared: &["droplets"],
            members: &[("droplets", &DROPLETS)],
            ..Alternative::ANY
        };
        let both = [SINGLE, MULTIPLE];
        let one = json!({"droplet": {"id": 1, "status": "resizing"}});
        assert_eq!(rank(&one, &both), vec![0]);
        let several =
            json!({"droplets": [{"id": 1, "status": "active"}, {"id": 2, "status": "resizing"}]});
        assert_eq!(rank(&several, &both), vec![1]);
        // Known values keep the strict ranking; a new tag is no droplet.
        assert_eq!(rank(&json!({"droplet": {"status": "off"}}), &both), vec![0]);
        let volume = json!({"droplet": {"id": 1, "status": "active", "kind": "volume"}});
        assert!(rank(&volume, &both).is_empty());
        // An open list that every alternative fixes at the top tells them apart: a new value
        // there is none of them.
        const ACTIVE: Alternative = Alternative {
            kinds: kind::OBJECT,
            tags: &[("state", &[Literal::Str("on"), Literal::Str("idle")])],
            ..Alternative::ANY
        };
        const GONE: Alternative = Alternative {
            kinds: kind::OBJECT,
            tags: &[("state", &[Literal::Str("deleted"), Literal::Str("purged")])],
            ..Alternative::ANY
        };
        assert!(rank(&json!({"state": "asleep"}), &[ACTIVE, GONE]).is_empty());
        // Nor is a scalar union's own value taken outside its lists.
        const COLOURS: Alternative = Alternative {
            kinds: kind::STRING,
            values: Some(&[Literal::Str("red"), Literal::Str("green")]),
            ..Alternative::ANY
        };
        const SIZES: Alternative = Alternative {
            kinds: kind::STRING,
            values: Some(&[Literal::Str("small"), Literal::Str("large")]),
            ..Alternative::ANY
        };
        assert!(rank(&json!("blue"), &[COLOURS, SIZES]).is_empty());
    }

    /// Vercel's configurations: both alternatives list the same `source`s, so a new source
    /// tells them no more apart than a known one does, and the value is still the one its
    /// other members say; a new value of the one-value `type` is another kind, none of them.
    #[test]
    fn a_list_every_alternative_shares_does_not_rule_them_out() {
        const SOURCES: &[Literal] = &[Literal::Str("marketplace"), Literal::Str("deploy-button")];
        const INTEGRATION: Alternative = Alternative {
            kinds: kind::OBJECT,
            required: &["id", "type"],
            tags: &[
                ("type", &[Literal::Str("integration-configuration")]),
                ("source", SOURCES),
            ],
            declared: &["id", "type", "source"],
            ..Alternative::ANY
        };
        const PROJECTS: Alternative = Alternative {
            kinds: kind::OBJECT,
            required: &["id", "projectSelection"],
            tags: &[
                (
                    "projectSelection",
                    &[Literal::Str("all"), Literal::Str("selected")],
                ),
                ("source", SOURCES),
            ],
            declared: &["id", "projectSelection", "source"],
            ..Alternative::ANY
        };
        let both = [INTEGRATION, PROJECTS];
        let new_source = json!({"id": "a", "type": "integration-configuration", "source": "cli"});
        assert_eq!(rank(&new_source, &both), vec![0]);
        let projects = json!({"id": "a", "projectSelection": "all", "source": "cli"});
        assert_eq!(rank(&projects, &both), vec![1]);
        let new_type =
            json!({"id": "a", "type": "integration-configuration-v2", "source": "marketplace"});
        assert!(
            rank(&new_type, &both).is_empty(),
            "{:?}",
            rank(&new_type, &both)
        );
    }

    #[test]
    fn required_members_closed_objects_and_kinds_rule_out() {
        assert!(IDEAL.fit(&json!({"type": "ideal"})).is_none());
        assert!(CARD.fit(&json!({"type": "card", "extra": 1})).is_none());
        assert!(CARD.fit(&json!("scheme")).is_none());
        let integer = Alternative {
            kinds: kind::INTEGER,
            ..Alternative::ANY
        };
        assert!(integer.fit(&json!(3)).is_some());
        assert!(integer.fit(&json!(3.0)).is_some());
        assert!(integer.fit(&json!(3.5)).is_none());
    }

    #[test]
    fn more_declared_members_fit_better() {
        let first = Alternative {
            declared: &["a"],
            ..OPEN
        };
        let second = Alternative {
            declared: &["a", "b"],
            ..OPEN
        };
        assert_eq!(rank(&json!({"a": 1, "b": 2}), &[first, second]), vec![1, 0]);
        assert_eq!(rank(&json!({"a": 1}), &[first, second]), vec![0, 1]);
    }

    #[test]
    fn values_outside_a_closed_enum_rule_out() {
        let colours = Alternative {
            kinds: kind::STRING,
            values: Some(&[Literal::Str("red"), Literal::Json("null")]),
            ..Alternative::ANY
        };
        assert!(colours.fit(&json!("red")).is_some());
        assert!(colours.fit(&json!("blue")).is_none());
        assert!(Literal::Json("1.0").matches(&json!(1)));
    }

    #[test]
    fn a_string_without_a_patterns_prefix_rules_out() {
        let replaced = Alternative {
            kinds: kind::STRING | kind::NULL,
            prefixes: &["Replaced by serie ", "Replaced by tournament "],
            ..OPEN
        };
        let merged = Alternative {
            kinds: kind::STRING,
            prefixes: &["Merged with "],
            ..OPEN
        };
        let any = Alternative {
            kinds: kind::STRING,
            ..OPEN
        };
        let alternatives = [replaced, merged, any];
        assert_eq!(rank(&json!("Merged with 9638"), &alternatives), vec![1, 2]);
        assert_eq!(
            rank(&json!("Replaced by serie 7"), &alternatives),
            vec![0, 2]
        );
        assert_eq!(rank(&json!("Deleted"), &alternatives), vec![2]);
        // A pattern judges strings only.
        assert_eq!(rank(&json!(null), &alternatives), vec![0]);
    }

    #[test]
    fn a_number_outside_its_range_rules_out() {
        let small = Alternative {
            kinds: kind::INTEGER,
            range: Some(Range {
                min: 0.0,
                min_exclusive: false,
                max: 10.0,
                max_exclusive: false,
            }),
            ..OPEN
        };
        let large = Alternative {
            range: Some(Range {
                min: 10.0,
                min_exclusive: true,
                max: f64::INFINITY,
                max_exclusive: false,
            }),
            ..small
        };
        let alternatives = [small, large];
        assert_eq!(rank(&json!(5), &alternatives), vec![0]);
        assert_eq!(rank(&json!(10), &alternatives), vec![0]);
        assert_eq!(rank(&json!(11), &alternatives), vec![1]);
        assert_eq!(rank(&json!(-1), &alternatives), Vec::<usize>::new());
    }

    #[test]
    fn an_integer_is_compared_with_its_bounds_exactly() {
        // 2^53 + 1 is 2^53 as an f64.
        let small = Alternative {
            kinds: kind::INTEGER,
            range: Some(Range {
                min: f64::NEG_INFINITY,
                min_exclusive: false,
                max: 9_007_199_254_740_992.0,
                max_exclusive: false,
            }),
            ..Alternative::ANY
        };
        let any = Alternative {
            kinds: kind::INTEGER,
            ..Alternative::ANY
        };
        assert_eq!(
            rank(&json!(9_007_199_254_740_992_u64), &[small, any]),
            vec![0, 1]
        );
        assert_eq!(
            rank(&json!(9_007_199_254_740_993_u64), &[small, any]),
            vec![1]
        );
        assert_eq!(rank(&json!(1.5), &[small, any]), Vec::<usize>::new());
    }

    #[test]
    fn a_member_that_breaks_its_own_facts_rules_out() {
        const ACCT: Alternative = Alternative {
            kinds: kind::STRING,
            prefixes: &["acct_"],
            ..OPEN
        };
        const ENT: Alternative = Alternative {
            prefixes: &["ent_"],
            ..ACCT
        };
        let account = Alternative {
            required: &["id"],
            members: &[("id", &ACCT)],
            ..OPEN
        };
        let entity = Alternative {
            members: &[("id", &ENT)],
            ..account
        };
        let alternatives = [account, entity];
        assert_eq!(rank(&json!({"id": "ent_1"}), &alternatives), vec![1]);
        assert_eq!(rank(&json!({"id": "acct_1"}), &alternatives), vec![0]);
        // A member's facts are all of its facts: here its type.
        assert_eq!(rank(&json!({"id": 7}), &alternatives), Vec::<usize>::new());
        // Items, and a string's length.
        let short = Alternative {
            kinds: kind::STRING,
            length: Some((0, 2)),
            ..OPEN
        };
        let accounts = Alternative {
            kinds: kind::ARRAY,
            items: Some(&ACCT),
            ..OPEN
        };
        assert!(short.fit(&json!("ab")).is_some() && short.fit(&json!("abc")).is_none());
        assert!(accounts.fit(&json!(["acct_1", "acct_2"])).is_some());
        assert!(accounts.fit(&json!(["acct_1", "ent_2"])).is_none());
    }

    #[test]
    fn a_string_without_its_format_rules_out() {
        let ipv4 = Alternative {
            kinds: kind::STRING,
            format: Some(Format::Ipv4),
            ..OPEN
        };
        let ipv6 = Alternative {
            format: Some(Format::Ipv6),
            ..ipv4
        };
        let email = Alternative {
            format: Some(Format::Email),
            ..ipv4
        };
        let alternatives = [ipv4, ipv6, email];
        assert_eq!(rank(&json!("192.0.2.1"), &alternatives), vec![0]);
        assert_eq!(rank(&json!("2001:db8::1"), &alternatives), vec![1]);
        assert_eq!(rank(&json!("ops@example.com"), &alternatives), vec![2]);
        assert_eq!(
            rank(&json!("192.0.2.256"), &alternatives),
            Vec::<usize>::new()
        );
    }

    #[test]
    fn counts_of_items_and_members_rule_out() {
        // Mist's and GitHub's shapes: one list of exactly two, one of any length.
        let pair = Alternative {
            kinds: kind::ARRAY,
            item_count: Some((2, 2)),
            ..Alternative::ANY
        };
        let list = Alternative {
            kinds: kind::ARRAY,
            ..Alternative::ANY
        };
        assert_eq!(rank(&json!([1, 2]), &[pair, list]), vec![0, 1]);
        assert_eq!(rank(&json!([1, 2, 3]), &[pair, list]), vec![1]);
        assert_eq!(rank(&json!([]), &[pair, list]), vec![1]);
        let one_member = Alternative {
            kinds: kind::OBJECT,
            member_count: Some((0, 1)),
            ..Alternative::ANY
        };
        let any_object = Alternative {
            kinds: kind::OBJECT,
            ..Alternative::ANY
        };
        let alternatives = [one_member, any_object];
        assert_eq!(rank(&json!({"a": 1}), &alternatives), vec![0, 1]);
        assert_eq!(rank(&json!({"a": 1, "b": 2}), &alternatives), vec![1]);
    }

    #[test]
    fn a_number_that_is_no_multiple_rules_out() {
        let cents = Alternative {
            kinds: kind::NUMBER,
            multiple_of: Some(0.01),
            ..Alternative::ANY
        };
        let tenths = Alternative {
            multiple_of: Some(0.1),
            ..cents
        };
        // Binary floating point makes neither quotient whole; both are multiples.
        assert!(tenths.fit(&json!(0.3)).is_some());
        assert!(cents.fit(&json!(19.99)).is_some());
        assert!(tenths.fit(&json!(0.35)).is_none());
        assert!(cents.fit(&json!(0.001)).is_none());
        let even = Alternative {
            kinds: kind::INTEGER,
            multiple_of: Some(2.0),
            ..Alternative::ANY
        };
        assert_eq!(rank(&json!(3), &[even, cents]), vec![1]);
        assert_eq!(rank(&json!(4), &[even, cents]), vec![0, 1]);
    }

    #[test]
    fn a_member_outside_a_maps_closed_values_rules_out() {
        // Mist's gateway ports take usages `lan` and `wan`; a switch's any other.
        const GATEWAY_PORT: Alternative = Alternative {
            kinds: kind::OBJECT,
            tags: &[("usage", &[Literal::Str("lan"), Literal::Str("wan")])],
            ..Alternative::ANY
        };
        let gateway = Alternative {
            kinds: kind::OBJECT,
            declared: &["name"],
            additional: Some(&GATEWAY_PORT),
            ..Alternative::ANY
        };
        let any = Alternative {
            kinds: kind::OBJECT,
            ..Alternative::ANY
        };
        let alternatives = [gateway, any];
        assert_eq!(
            rank(&json!({"ge-0/0/1": {"usage": "wan"}}), &alternatives),
            vec![0, 1]
        );
        assert_eq!(
            rank(&json!({"ge-0/0/1": {"usage": "uplink"}}), &alternatives),
            vec![1]
        );
        // A declared member is not the map's to rule on.
        assert_eq!(
            rank(
                &json!({"name": "edge", "ge-0/0/1": {"usage": "lan"}}),
                &alternatives
            ),
            vec![0, 1]
        );
    }

    #[test]
    fn a_string_outside_its_patterns_alphabet_rules_out() {
        let digits = Alternative {
            kinds: kind::STRING,
            alphabet: Some(&[('0', '9')]),
            ..Alternative::ANY
        };
        let letters = Alternative {
            alphabet: Some(&[('a', 'z')]),
            ..digits
        };
        let alternatives = [digits, letters];
        assert_eq!(rank(&json!("123"), &alternatives), vec![0]);
        assert_eq!(rank(&json!("abc"), &alternatives), vec![1]);
        assert_eq!(rank(&json!("ab1"), &alternatives), Vec::<usize>::new());
    }

    #[test]
    fn a_time_and_a_duration_are_told_apart() {
        let time = Alternative {
            kinds: kind::STRING,
            format: Some(Format::Time),
            ..Alternative::ANY
        };
        let duration = Alternative {
            format: Some(Format::Duration),
            ..time
        };
        let alternatives = [time, duration];
        assert_eq!(rank(&json!("PT1H30M"), &alternatives), vec![1]);
        assert_eq!(rank(&json!("13:45:00Z"), &alternatives), vec![0]);
        assert_eq!(rank(&json!("soon"), &alternatives), Vec::<usize>::new());
    }

    #[test]
    fn a_candidate_that_loses_data_is_passed_over_and_the_value_kept() {
        #[derive(Debug, PartialEq, serde::Serialize)]
        enum Choice {
            Lossy(u8),
            Raw(Value),
        }
        let value = json!({"a": 1});
        let ((), decisions) = decisions::observe(|| {
            let chosen = choose(
                "Choice",
                value.clone(),
                [0],
                |_, _| Some(Choice::Lossy(1)),
                Choice::Raw,
            );
            assert_eq!(chosen, Choice::Raw(json!({"a": 1})));
        });
        assert_eq!(decisions.len(), 1);
        assert_eq!(decisions[0].variant, None);
    }

    /// A candidate that keeps the value only by reading a `null` as absent (a member it does
    /// not make nullable) gives way to one that keeps it exactly, which the value fits; with
    /// none, it still takes the value rather than the catch-all.
    #[test]
    fn a_candidate_that_drops_a_null_gives_way_to_one_that_keeps_it() {
        #[derive(Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        enum Step {
            Buttons { actions: Vec<Value> },
            Loose(Value),
            Raw(Value),
        }
        let value = json!({"actions": [{"action": null, "id": "x"}]});
        let dropping = || Step::Buttons {
            actions: vec![json!({"id": "x"})],
        };
        let chosen = choose(
            "Step",
            value.clone(),
            [0, 1],
            |index, value| match index {
                0 => Some(dropping()),
                _ => Some(Step::Loose(value.clone())),
            },
            Step::Raw,
        );
        assert_eq!(chosen, Step::Loose(value.clone()));
        let alone = choose(
            "Step",
            value.clone(),
            [0],
            |_, _| Some(dropping()),
            Step::Raw,
        );
        assert_eq!(alone, dropping());
    }

    /// A discriminator tag the mapping does not name goes only to an alternative whose own
    /// schema pins the tag member to it; one that takes any tag is no candidate.
    #[test]
    fn an_unmapped_tag_goes_only_where_the_alternatives_schema_pins_it() {
        const OFFER: Alternative = Alternative {
            kinds: kind::OBJECT,
            required: &["Type"],
            declared: &["Type"],
            ..Alternative::ANY
        };
        const FREE: Alternative = Alternative {
            tags: &[("Type", &[Literal::Str("free")])],
            ..OFFER
        };
        assert!(rank_pinned(&json!({"Type": "FreeItem"}), &[OFFER], "Type").is_empty());
        assert_eq!(
            rank_pinned(&json!({"Type": "free"}), &[OFFER, FREE], "Type"),
            [1]
        );
    }

    /// A member required in one direction only (`readOnly` `id`, `writeOnly` `cvc`) ranks an
    /// alternative and never rules it out: a response card without its `cvc` is still a card,
    /// and `{name}` is a new pet before a pet without its `id`.
    #[test]
    fn a_member_required_one_way_ranks_an_alternative_and_does_not_rule_it_out() {
        const PET: Alternative = Alternative {
            kinds: kind::OBJECT,
            required: &["name"],
            one_way: &["id"],
            declared: &["id", "name", "since"],
            ..Alternative::ANY
        };
        const NEW_PET: Alternative = Alternative {
            kinds: kind::OBJECT,
            required: &["name"],
            declared: &["name"],
            ..Alternative::ANY
        };
        const CLOSED_NEW_PET: Alternative = Alternative {
            closed: true,
            ..NEW_PET
        };
        assert_eq!(rank(&json!({"name": "Rex"}), &[PET, NEW_PET]), [1, 0]);
        assert_eq!(
            rank(&json!({"id": "p1", "name": "Rex"}), &[PET, NEW_PET]),
            [0, 1]
        );
        assert_eq!(
            rank(
                &json!({"name": "Rex", "since": 2020}),
                &[PET, CLOSED_NEW_PET]
            ),
            [0]
        );
    }

    /// `anyOf: [{type: integer}, {type: string}]` given `2.0`: JSON Schema counts it as the
    /// integer 2, which the integer alternative keeps (a Python service writes it so), not the
    /// catch-all; a list of them too, and `2.5` stays out of it.
    #[test]
    fn an_integral_float_lands_in_the_integer_alternative() {
        #[derive(Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        enum Id {
            Integer(i64),
            Integers(Vec<i64>),
            Text(String),
            Unknown(Value),
        }
        let read = |value: Value| {
            let order = rank(
                &value,
                &[
                    Alternative {
                        kinds: kind::INTEGER,
                        ..Alternative::ANY
                    },
                    Alternative {
                        kinds: kind::ARRAY,
                        ..Alternative::ANY
                    },
                    Alternative {
                        kinds: kind::STRING,
                        ..Alternative::ANY
                    },
                ],
            );
            choose(
                "Id",
                value,
                order,
                |index, value| match index {
                    0 => serde::Deserialize::deserialize(value).ok().map(Id::Integer),
                    1 => serde::Deserialize::deserialize(value)
                        .ok()
                        .map(Id::Integers),
                    _ => serde::Deserialize::deserialize(value).ok().map(Id::Text),
                },
                Id::Unknown,
            )
        };
        assert_eq!(read(json!(2.0)), Id::Integer(2));
        assert_eq!(read(json!([1.0, 2])), Id::Integers(vec![1, 2]));
        assert_eq!(read(json!(2.5)), Id::Unknown(json!(2.5)));
        assert_eq!(read(json!("2")), Id::Text("2".into()));
    }

    /// `oneOf: [{oneOf: [{minLength: 5}, {type: integer}]}, {maxLength: 4}]`: a short string no
    /// alternative of the inner union takes is kept in the inner union's catch-all, which
    /// keeps it whole; the outer union passes over that for the alternative that types it, and
    /// falls back to it only when no other keeps the value.
    #[test]
    fn a_nested_unions_catch_all_does_not_swallow_the_next_alternative() {
        #[derive(Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        enum Inner {
            Long(String),
            Unknown(Value),
        }
        #[derive(Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        enum Outer {
            Inner(Inner),
            Short(String),
            Unknown(Value),
        }
        let inner = |value: &Value| {
            let fits = value.as_str().is_some_and(|text| text.len() >= 5);
            let order = if fits { vec![0] } else { vec![] };
            choose(
                "Inner",
                value.clone(),
                order,
                |_, value| value.as_str().map(|text| Inner::Long(text.to_owned())),
                Inner::Unknown,
            )
        };
        let outer = |value: Value, short: bool| {
            choose(
                "Outer",
                value,
                if short { vec![0, 1] } else { vec![0] },
                |index, value| match index {
                    0 => Some(Outer::Inner(inner(value))),
                    _ => value.as_str().map(|text| Outer::Short(text.to_owned())),
                },
                Outer::Unknown,
            )
        };
        assert_eq!(outer(json!("ab"), true), Outer::Short("ab".into()));
        assert_eq!(
            outer(json!("abcdef"), true),
            Outer::Inner(Inner::Long("abcdef".into()))
        );
        // No other alternative keeps it: the inner union's catch-all still does.
        assert_eq!(
            outer(json!("ab"), false),
            Outer::Inner(Inner::Unknown(json!("ab")))
        );
    }

    /// `Node: anyOf [integer, array of Node]` with a leaf no alternative types (an integer
    /// beyond `i64`): each level keeps its array through the innermost catch-all, and is
    /// built once, not once more per level above it (which made 69 bytes take 10 seconds).
    #[test]
    fn a_union_nested_in_itself_builds_each_level_once() {
        #[derive(Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        enum Node {
            Integer(i64),
            Nodes(Vec<Node>),
            Unknown(Value),
        }
        fn read(value: &Value, builds: &std::cell::Cell<usize>) -> Node {
            let order = if value.is_array() { vec![1] } else { vec![0] };
            choose(
                "Node",
                value.clone(),
                order,
                |index, value| {
                    builds.set(builds.get() + 1);
                    match index {
                        0 => value.as_i64().map(Node::Integer),
                        _ => value.as_array().map(|items| {
                            Node::Nodes(items.iter().map(|item| read(item, builds)).collect())
                        }),
                    }
                },
                Node::Unknown,
            )
        }
        let depth = 24;
        let mut value = json!(100000000000000000000.0);
        for _ in 0..depth {
            value = json!([value]);
        }
        let builds = std::cell::Cell::new(0);
        let (node, decisions) = decisions::observe(|| read(&value, &builds));
        // One build per level, and the leaf's one attempt.
        assert_eq!(builds.get(), depth + 1);
        let mut inner = &node;
        for _ in 0..depth {
            match inner {
                Node::Nodes(items) => inner = &items[0],
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(*inner, Node::Unknown(json!(100000000000000000000.0)));
        // Every level's decision is recorded once, innermost first.
        assert_eq!(decisions.len(), depth + 1);
        assert_eq!(decisions[0].variant, None);
        assert!(decisions[1..].iter().all(|d| d.variant == Some(1)));
    }

    /// `oneOf: [Status, ScheduledStatus]` as Mastodon documents it: members its API sends as
    /// `null` are not marked nullable. A status with such a null is still a `Status`, and a
    /// scheduled one whose `params` hold one still a `ScheduledStatus` where nothing else
    /// keeps it, not the catch-all. An alternative that keeps the value exactly (here a
    /// `Status` loose enough to hold `params` as an extra member) is the one the value fits,
    /// as the contract judges it, and wins.
    #[test]
    fn a_null_for_an_optional_member_does_not_send_the_value_elsewhere() {
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct Status {
            id: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            in_reply_to_id: Option<String>,
            #[serde(flatten)]
            rest: serde_json::Map<String, Value>,
        }
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct Params {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            in_reply_to_id: Option<String>,
        }
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct Scheduled {
            id: String,
            params: Params,
        }
        #[derive(Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        enum Created {
            Scheduled(Scheduled),
            Status(Status),
            Unknown(Value),
        }
        let read = |value: Value| {
            let order = if value.get("params").is_some() {
                vec![0, 1]
            } else {
                vec![1]
            };
            choose(
                "Created",
                value,
                order,
                |index, value| match index {
                    0 => <Scheduled as serde::Deserialize>::deserialize(value)
                        .ok()
                        .map(Created::Scheduled),
                    _ => <Status as serde::Deserialize>::deserialize(value)
                        .ok()
                        .map(Created::Status),
                },
                Created::Unknown,
            )
        };
        assert!(matches!(
            read(json!({"id": "1", "in_reply_to_id": null})),
            Created::Status(Status {
                in_reply_to_id: None,
                ..
            })
        ));
        assert!(matches!(
            read(json!({"id": "2", "params": {"in_reply_to_id": null}})),
            Created::Status(_)
        ));
        let scheduled_only = choose(
            "Created",
            json!({"id": "2", "params": {"in_reply_to_id": null}}),
            [0],
            |_, value| {
                <Scheduled as serde::Deserialize>::deserialize(value)
                    .ok()
                    .map(Created::Scheduled)
            },
            Created::Unknown,
        );
        assert!(matches!(scheduled_only, Created::Scheduled(_)));
        // Not where a member is missing from what the alternative writes back otherwise.
        assert!(matches!(
            read(json!({"id": "3", "in_reply_to_id": 7})),
            Created::Unknown(_)
        ));
        // The round trips the example tests check stay exact.
        assert!(!same_json(&json!({"a": null}), &json!({})));
    }

    #[test]
    fn uuids_compare_by_value_other_strings_exactly() {
        let upper = json!("7B4E8C2E-4B5A-4C1F-9A43-2D8C1B0E6F11");
        let lower = json!("7b4e8c2e-4b5a-4c1f-9a43-2d8c1b0e6f11");
        assert!(same_json(&upper, &lower));
        assert!(!same_json(&json!("Hello"), &json!("hello")));
        assert!(!same_json(&json!("7B4E8C2E"), &json!("7b4e8c2e")));
    }

    #[test]
    fn floats_compare_as_the_text_a_user_gets() {
        #[derive(serde::Serialize)]
        struct Wrapper(f32);
        assert_eq!(keeps(&Wrapper(21.4), &json!(21.4)), Some(true));
        assert_eq!(keeps(&Wrapper(21.5), &json!(21.4)), None);
    }
}
