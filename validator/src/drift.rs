//! What a payload holds that its schema does not document: properties the schema does not
//! declare (where unknown properties are allowed) and values outside an enum's list (closed,
//! or `x-extensible-enum`); and, for a message of a known direction, properties OpenAPI says
//! that direction does not send (`readOnly` in a request, `writeOnly` in a response). A walk over the instance beside the schema, cheaper than a second
//! validation: where alternatives (`oneOf`, `anyOf`) are involved, a property counts as
//! documented when any alternative declares it.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use serde_json::Value;
use specgen::load::escape_segment as escape;

/// What kind of undocumented thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A property no schema declares.
    Property,
    /// A string outside the enum's known values.
    EnumValue,
    /// A `readOnly` property in a request: the server sets it, a client does not send it.
    ReadOnly,
    /// A `writeOnly` property in a response: a client sends it, the server does not return
    /// it (a password).
    WriteOnly,
}

/// Which way a message goes, for [`Plan::undocumented_in`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// A request, or a notification's payload.
    Request,
    /// A response, or a notification's reply.
    Response,
}

/// One undocumented thing in a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Property, enum value, or a property sent the wrong way.
    pub kind: Kind,
    /// Where, exactly (`/transactions/0/extra`).
    pub pointer: String,
    /// Where, with array indexes as `*`, for counting (`/transactions/*`).
    pub pattern: String,
    /// Pointer of the schema that should have documented it, inside its file.
    pub schema_pointer: String,
    /// The property name, or the value.
    pub value: String,
}

/// Deep enough for any real payload; deeper parts are not examined.
const MAX_DEPTH: usize = 64;

/// The schema of a member `required` names and no `properties` describes: any value.
static ANY_VALUE: Value = Value::Bool(true);

/// The most places [`Plan::members`] lists for one schema: along every path while they are
/// at most this many, else each schema's members once, the shallowest first. More than a
/// person reads in a coverage report, and enough for every body of this API as it is.
const MAX_MEMBERS: usize = 1_000;

/// The undocumented properties and enum values of `instance` against the schema file
/// `document` (whose `$ref`s point into its own `$defs`). To check many payloads against
/// the same file, build its [`Plan`] once.
pub fn undocumented(document: &Value, instance: &Value) -> Vec<Item> {
    Plan::new(document).undocumented(instance)
}

/// A schema file prepared for the walk: every schema in it, with its `$ref`s followed and
/// its `allOf`/`anyOf`/`oneOf` flattened into the list of schemas that together describe one
/// place, once; walking a payload then only looks its property names up.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Node 0 is the document.
    nodes: Vec<Node>,
}

/// What the schemas describing one place say, merged in their order.
#[derive(Debug, Clone, Default)]
struct Node {
    /// Pointer of the schema the place was first reached at.
    at: String,
    /// Some schema of the place says `readOnly: true`.
    read_only: bool,
    /// Some schema of the place says `writeOnly: true`.
    write_only: bool,
    /// Declared properties, with the schemas (nodes) declaring each.
    properties: FxHashMap<String, Vec<usize>>,
    /// For each of `properties`' nodes, in the same order, the alternatives (`anyOf`, `oneOf`
    /// branches, numbered within this node) its declaration sits in, outermost first; empty
    /// where it applies whatever the alternative. Two declarations apply together when one's
    /// branches begin with the other's.
    branches: FxHashMap<String, Vec<Vec<u32>>>,
    /// Some schema declares properties (an object of them).
    declares: bool,
    /// Some schema allows other names (`additionalProperties` schema, `patternProperties`).
    open_map: bool,
    /// The `additionalProperties` schemas.
    additional: Vec<usize>,
    /// The `items` schemas.
    items: Vec<usize>,
    /// Pointer of the first schema with `properties`: where an undeclared one belongs.
    properties_at: Option<String>,
    /// The known strings of this place: every enum list of its schemas (`enum`, else
    /// `x-extensible-enum`) together, since a value any alternative lists is documented; and
    /// the pointer of the first list. `None` when no schema lists values, or when an
    /// alternative takes any string (`anyOf: [{enum: [...]}, {type: string}]`, the open enum
    /// of OpenAI's and Stainless's specs).
    values: Option<(Vec<String>, String)>,
    /// Per declared property, the values a schema that applies whatever the alternative
    /// (not inside an `anyOf` or `oneOf`) forbids there with `not: {enum}` or `not: {const}`
    /// (the spec's `code` of a status that is not another status's known code).
    excluded: FxHashMap<String, Vec<String>>,
}

impl Plan {
    /// Prepares `document` (whose `$ref`s point into itself).
    pub fn new(document: &Value) -> Plan {
        let mut builder = Builder {
            document,
            nodes: Vec::new(),
            ids: HashMap::new(),
        };
        builder.node(document, String::new());
        Plan {
            nodes: builder.nodes,
        }
    }

    /// The undocumented properties and enum values of `instance`.
    pub fn undocumented(&self, instance: &Value) -> Vec<Item> {
        let mut out = Vec::new();
        self.walk(&[0], None, instance, None, 0, None, &mut out);
        out
    }

    /// The undocumented properties and enum values of `instance`, a message going `way`, and
    /// the properties in it that way does not send ([`Kind::ReadOnly`], [`Kind::WriteOnly`]).
    pub fn undocumented_in(&self, instance: &Value, way: Way) -> Vec<Item> {
        let mut out = Vec::new();
        self.walk(&[0], None, instance, None, 0, Some(way), &mut out);
        out
    }

    /// `branches`, when known, are the alternatives each of `ids` was declared in (see
    /// [`Node::branches`]).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        ids: &[usize],
        branches: Option<&[Vec<u32>]>,
        instance: &Value,
        loc: Option<&Loc<'_>>,
        depth: usize,
        way: Option<Way>,
        out: &mut Vec<Item>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let nodes = || ids.iter().map(|&id| &self.nodes[id]);
        match instance {
            Value::Object(object) => {
                let declares = nodes().any(|n| n.declares);
                let open_map = nodes().any(|n| n.open_map);
                let additional = self.merged(ids, |n| &n.additional);
                let mut declared = Vec::new();
                for (name, value) in object {
                    let mut in_branches = None;
                    let children: &[usize] = if let [id] = ids {
                        in_branches = self.nodes[*id].branches.get(name).map(Vec::as_slice);
                        self.nodes[*id]
                            .properties
                            .get(name)
                            .map_or(&[], Vec::as_slice)
                    } else {
                        declared.clear();
                        for node in nodes() {
                            declared.extend(node.properties.get(name).into_iter().flatten());
                        }
                        &declared
                    };
                    if !children.is_empty() {
                        let child = Loc {
                            parent: loc,
                            step: Step::Key(name),
                        };
                        if let Some(item) = self.one_way(children, name, &child, way) {
                            out.push(item);
                        }
                        self.walk(
                            children,
                            in_branches,
                            value,
                            Some(&child),
                            depth + 1,
                            way,
                            out,
                        );
                    } else if !additional.is_empty() {
                        let child = Loc {
                            parent: loc,
                            step: Step::MapKey(name),
                        };
                        self.walk(&additional, None, value, Some(&child), depth + 1, way, out);
                    } else if declares && !open_map {
                        let (parent_pointer, pattern) = spell(loc);
                        out.push(Item {
                            kind: Kind::Property,
                            pointer: format!("{parent_pointer}/{}", escape(name)),
                            pattern,
                            schema_pointer: nodes()
                                .find_map(|n| n.properties_at.clone())
                                .unwrap_or_default(),
                            value: name.clone(),
                        });
                    }
                }
            }
            Value::Array(items) => {
                let item_ids = self.merged(ids, |n| &n.items);
                if item_ids.is_empty() {
                    return;
                }
                for (index, item) in items.iter().enumerate() {
                    let child = Loc {
                        parent: loc,
                        step: Step::Index(index),
                    };
                    self.walk(&item_ids, None, item, Some(&child), depth + 1, way, out);
                }
            }
            Value::String(text) => {
                if let Some((_, at)) = nodes().find_map(|n| n.values.as_ref())
                    && !self.documents(ids, branches, text)
                {
                    let (pointer, pattern) = spell(loc);
                    out.push(Item {
                        kind: Kind::EnumValue,
                        pointer,
                        pattern,
                        schema_pointer: at.clone(),
                        value: text.clone(),
                    });
                }
            }
            _ => {}
        }
    }

    /// The member `name` (at `loc`, described by the schemas `ids`) as sent the wrong `way`:
    /// every declaration of it says so, since a member one alternative marks `readOnly` and
    /// another does not is one a request may send.
    fn one_way(&self, ids: &[usize], name: &str, loc: &Loc<'_>, way: Option<Way>) -> Option<Item> {
        let (kind, marked): (Kind, fn(&Node) -> bool) = match way? {
            Way::Request => (Kind::ReadOnly, |node| node.read_only),
            Way::Response => (Kind::WriteOnly, |node| node.write_only),
        };
        if !ids.iter().all(|&id| marked(&self.nodes[id])) {
            return None;
        }
        let (pointer, pattern) = spell(Some(loc));
        Some(Item {
            kind,
            pointer,
            pattern,
            schema_pointer: self.nodes[ids[0]].at.clone(),
            value: name.to_owned(),
        })
    }

    /// Whether the schemas `ids` of one place document the string `text`. One schema lists
    /// it, or lists nothing. Several come from the alternatives that declare the member (one
    /// condition type's `value` is free text, another's an enum): some alternative's
    /// schemas, with those that apply whatever the alternative, each list it or list nothing.
    /// Without their `branches`, any one of them that lists it or lists nothing documents it.
    fn documents(&self, ids: &[usize], branches: Option<&[Vec<u32>]>, text: &str) -> bool {
        let allows = |id: &usize| {
            self.nodes[*id]
                .values
                .as_ref()
                .is_none_or(|(known, _)| known.iter().any(|known| known == text))
        };
        match branches {
            Some(branches) if ids.len() > 1 && branches.len() == ids.len() => {
                branches.iter().any(|chosen| {
                    ids.iter()
                        .zip(branches)
                        .filter(|(_, within)| chosen.starts_with(within))
                        .all(|(id, _)| allows(id))
                })
            }
            _ => ids.iter().any(allows),
        }
    }

    /// Every place the schema documents, for [`crate::coverage`]: each declared property's
    /// pattern (`/amount/value`, `/transactions/*/status`; `*` for array items and the values
    /// of open maps), and for each place with an enum list (`enum`, else
    /// `x-extensible-enum`) its pattern and values; the document's root is the pattern `""`.
    /// Recursive schemas end where a schema would be entered again below itself. Sorted,
    /// without duplicates.
    ///
    /// Schemas that reach many others through many places (Stripe's expandable fields, where
    /// nearly every resource holds nearly every other) have more places than any report can
    /// list: the places along every path without a cycle grow exponentially with the depth.
    /// Beyond `MAX_MEMBERS` places, each schema's own members are listed once, at the
    /// shallowest place it is met (then by pattern), and deeper meetings list only the
    /// property itself; and no more than `MAX_MEMBERS` places, the shallowest.
    pub fn members(&self) -> Members {
        let mut members = Members::default();
        let mut budget = MAX_MEMBERS;
        if self.count(0, &mut Vec::new(), &mut budget) {
            self.list(0, &mut Vec::new(), &mut String::new(), &mut members);
            return members;
        }
        self.members_once()
    }

    /// Whether the places below `id` along every path number at most `budget` (which it
    /// spends); stops counting once they do not, so that it costs at most the budget.
    fn count(&self, id: usize, stack: &mut Vec<usize>, budget: &mut usize) -> bool {
        if stack.contains(&id) || stack.len() > MAX_DEPTH {
            return true;
        }
        stack.push(id);
        let node = &self.nodes[id];
        for children in node.properties.values() {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            if !children
                .iter()
                .all(|&child| self.count(child, stack, budget))
            {
                return false;
            }
        }
        let within = node
            .items
            .iter()
            .chain(&node.additional)
            .all(|&child| self.count(child, stack, budget));
        stack.pop();
        within
    }

    fn list(&self, id: usize, stack: &mut Vec<usize>, pattern: &mut String, out: &mut Members) {
        if stack.contains(&id) || stack.len() > MAX_DEPTH {
            return;
        }
        stack.push(id);
        let node = &self.nodes[id];
        if let Some((values, _)) = &node.values {
            let known = out.enums.entry(pattern.clone()).or_default();
            known.extend(values.iter().cloned());
        }
        let len = pattern.len();
        let mut names: Vec<&String> = node.properties.keys().collect();
        names.sort_unstable();
        for name in names {
            pattern.push('/');
            pattern.push_str(&escape(name));
            out.properties.insert(pattern.clone());
            if let Some(excluded) = node.excluded.get(name) {
                let known = out.excluded.entry(pattern.clone()).or_default();
                known.extend(excluded.iter().cloned());
            }
            for &child in &node.properties[name] {
                self.list(child, stack, pattern, out);
            }
            pattern.truncate(len);
        }
        pattern.push_str("/*");
        for &child in node.items.iter().chain(&node.additional) {
            self.list(child, stack, pattern, out);
        }
        pattern.truncate(len);
        stack.pop();
    }

    /// [`Plan::members`] with each schema's members listed once: breadth first, so at the
    /// shallowest place a schema is met, and among places of one depth the first by pattern;
    /// at most [`MAX_MEMBERS`] places, the shallowest.
    fn members_once(&self) -> Members {
        let mut members = Members::default();
        let mut expanded = vec![false; self.nodes.len()];
        expanded[0] = true;
        let mut level = vec![(String::new(), 0)];
        while !level.is_empty() {
            level.sort_unstable();
            let mut next = Vec::new();
            for (pattern, id) in level {
                let node = &self.nodes[id];
                if let Some((values, _)) = &node.values {
                    let known = members.enums.entry(pattern.clone()).or_default();
                    known.extend(values.iter().cloned());
                }
                let mut names: Vec<&String> = node.properties.keys().collect();
                names.sort_unstable();
                for name in names {
                    if members.properties.len() >= MAX_MEMBERS {
                        return members;
                    }
                    let place = format!("{pattern}/{}", escape(name));
                    members.properties.insert(place.clone());
                    if let Some(excluded) = node.excluded.get(name) {
                        let known = members.excluded.entry(place.clone()).or_default();
                        known.extend(excluded.iter().cloned());
                    }
                    for &child in &node.properties[name] {
                        if !std::mem::replace(&mut expanded[child], true) {
                            next.push((place.clone(), child));
                        }
                    }
                }
                for &child in node.items.iter().chain(&node.additional) {
                    if !std::mem::replace(&mut expanded[child], true) {
                        next.push((format!("{pattern}/*"), child));
                    }
                }
            }
            level = next;
        }
        members
    }

    /// What of [`Plan::members`] an instance holds: `seen(pattern, None)` for each documented
    /// property present, `seen(pattern, Some(value))` for each string at a place with an enum
    /// list that is one of the list's values. Undocumented things are [`Plan::undocumented`]'s.
    pub fn seen(&self, instance: &Value, seen: &mut dyn FnMut(&str, Option<&str>)) {
        let mut pattern = String::new();
        self.walk_seen(&[0], instance, &mut pattern, 0, seen);
    }

    fn walk_seen(
        &self,
        ids: &[usize],
        instance: &Value,
        pattern: &mut String,
        depth: usize,
        seen: &mut dyn FnMut(&str, Option<&str>),
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let len = pattern.len();
        match instance {
            Value::Object(object) => {
                let additional = self.merged(ids, |n| &n.additional);
                for (name, value) in object {
                    let children: Vec<usize> = ids
                        .iter()
                        .flat_map(|&id| self.nodes[id].properties.get(name).into_iter().flatten())
                        .copied()
                        .collect();
                    if !children.is_empty() {
                        pattern.push('/');
                        pattern.push_str(&escape(name));
                        seen(pattern, None);
                        self.walk_seen(&children, value, pattern, depth + 1, seen);
                    } else if !additional.is_empty() {
                        pattern.push_str("/*");
                        self.walk_seen(&additional, value, pattern, depth + 1, seen);
                    }
                    pattern.truncate(len);
                }
            }
            Value::Array(items) => {
                let item_ids = self.merged(ids, |n| &n.items);
                if item_ids.is_empty() {
                    return;
                }
                pattern.push_str("/*");
                for item in items {
                    self.walk_seen(&item_ids, item, pattern, depth + 1, seen);
                }
                pattern.truncate(len);
            }
            Value::String(text)
                if ids
                    .iter()
                    .filter_map(|&id| self.nodes[id].values.as_ref())
                    .any(|(known, _)| known.iter().any(|known| known == text)) =>
            {
                seen(pattern, Some(text));
            }
            _ => {}
        }
    }

    /// A list of every node's (`additional`, `items`), borrowed when there is one node.
    fn merged<'p>(
        &'p self,
        ids: &[usize],
        list: impl Fn(&'p Node) -> &'p Vec<usize>,
    ) -> std::borrow::Cow<'p, [usize]> {
        match ids {
            [id] => std::borrow::Cow::Borrowed(list(&self.nodes[*id]).as_slice()),
            _ => ids
                .iter()
                .flat_map(|&id| list(&self.nodes[id]).iter().copied())
                .collect::<Vec<_>>()
                .into(),
        }
    }
}

/// The places a schema documents ([`Plan::members`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Members {
    /// Patterns of the declared properties.
    pub properties: std::collections::BTreeSet<String>,
    /// Patterns of the places with an enum list, with the list's string values.
    pub enums: std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    /// Patterns of places where some values of their enum lists are forbidden (`not`), with
    /// those values: no conforming instance holds them there.
    pub excluded: std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
}

/// Builds a [`Plan`]: one node per schema (by address), filled after its children so that
/// recursive schemas end.
struct Builder<'d> {
    document: &'d Value,
    nodes: Vec<Node>,
    ids: HashMap<*const Value, usize>,
}

impl<'d> Builder<'d> {
    fn node(&mut self, schema: &'d Value, pointer: String) -> usize {
        if let Some(&id) = self.ids.get(&std::ptr::from_ref(schema)) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.ids.insert(std::ptr::from_ref(schema), id);
        let mut all = Vec::new();
        self.gather(
            schema,
            pointer.clone(),
            &mut all,
            0,
            &mut Vec::new(),
            &mut 0,
        );
        let flagged = |keyword: &str| {
            all.iter()
                .any(|(schema, _, _)| schema.get(keyword) == Some(&Value::Bool(true)))
        };
        let mut node = Node {
            read_only: flagged("readOnly"),
            write_only: flagged("writeOnly"),
            at: pointer,
            ..Node::default()
        };
        // Per property, the only values the declarations that apply whatever the
        // alternative allow (`const: ACTIVE` beside a `$ref` to a four-value enum).
        let mut pinned: FxHashMap<String, Vec<String>> = FxHashMap::default();
        for (schema, at, branches) in &all {
            if let Some(Value::Object(properties)) = schema.get("properties") {
                node.declares = true;
                for (name, property) in properties {
                    let child = self.node(property, format!("{at}/properties/{}", escape(name)));
                    node.properties.entry(name.clone()).or_default().push(child);
                    node.branches
                        .entry(name.clone())
                        .or_default()
                        .push(branches.clone());
                    if branches.is_empty() {
                        let (excluded, allowed) = self.restrictions(property);
                        if !excluded.is_empty() {
                            node.excluded
                                .entry(name.clone())
                                .or_default()
                                .extend(excluded);
                        }
                        if let Some(allowed) = allowed {
                            let kept = pinned.entry(name.clone()).or_insert(allowed.clone());
                            kept.retain(|value| allowed.contains(value));
                        }
                    }
                }
            }
            if node.properties_at.is_none() && schema.get("properties").is_some() {
                node.properties_at = Some(at.clone());
            }
            match schema.get("additionalProperties") {
                Some(additional @ Value::Object(_)) => {
                    node.open_map = true;
                    let child = self.node(additional, format!("{at}/additionalProperties"));
                    node.additional.push(child);
                }
                // Written out, `true` says what `{}` says: any member, each documented (Open
                // Banking's `SupplementaryData`); the default it spells is left unwritten.
                Some(Value::Bool(true)) => node.open_map = true,
                _ if schema.get("patternProperties").is_some() => node.open_map = true,
                _ => {}
            }
            if let Some(items) = schema.get("items") {
                let child = self.node(items, format!("{at}/items"));
                node.items.push(child);
            }
            let list = match (schema.get("enum"), schema.get("x-extensible-enum")) {
                (Some(Value::Array(list)), _) => Some((list, "enum")),
                (None, Some(Value::Array(list))) => Some((list, "x-extensible-enum")),
                _ => None,
            };
            if let Some((list, keyword)) = list {
                let (known, _) = node
                    .values
                    .get_or_insert_with(|| (Vec::new(), format!("{at}/{keyword}")));
                for value in list.iter().filter_map(Value::as_str) {
                    if !known.iter().any(|known| known == value) {
                        known.push(value.to_owned());
                    }
                }
            }
        }
        // A member named in `required` alone (intellifi's `Blob` requires a `key` it never
        // describes) is documented all the same, as any value.
        for (schema, at, branches) in &all {
            let Some(Value::Array(required)) = schema.get("required") else {
                continue;
            };
            for name in required.iter().filter_map(Value::as_str) {
                if !node.properties.contains_key(name) {
                    let child = self.node(&ANY_VALUE, format!("{at}/required"));
                    node.properties
                        .entry(name.to_owned())
                        .or_default()
                        .push(child);
                    node.branches
                        .entry(name.to_owned())
                        .or_default()
                        .push(branches.clone());
                }
            }
        }
        if all
            .iter()
            .any(|(schema, at, _)| takes_any_string(schema, at))
        {
            node.values = None;
        }
        // The values of a member's enum lists outside what its pinning allows.
        for (name, allowed) in &pinned {
            for &child in &node.properties[name] {
                if let Some((values, _)) = &self.nodes[child].values {
                    let outside = values.iter().filter(|value| !allowed.contains(value));
                    node.excluded
                        .entry(name.clone())
                        .or_default()
                        .extend(outside.cloned());
                }
            }
        }
        self.nodes[id] = node;
        id
    }

    /// What the schemas of one place that apply whatever the alternative say of its string
    /// values: those they forbid with `not: {enum: [...]}` or `not: {const: ...}`, and the
    /// only ones their `const`s and `enum`s together allow, if they name any.
    fn restrictions(&self, schema: &'d Value) -> (Vec<String>, Option<Vec<String>>) {
        let mut all = Vec::new();
        self.gather(schema, String::new(), &mut all, 0, &mut Vec::new(), &mut 0);
        let mut excluded = Vec::new();
        let mut allowed: Option<Vec<String>> = None;
        for (schema, _, branches) in all {
            if !branches.is_empty() {
                continue;
            }
            let listed = match (schema.get("const"), schema.get("enum")) {
                (Some(value), _) => Some(vec![value]),
                (None, Some(Value::Array(list))) => Some(list.iter().collect()),
                _ => None,
            };
            if let Some(listed) = listed {
                let listed: Vec<String> = listed
                    .into_iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect();
                match &mut allowed {
                    Some(kept) => kept.retain(|value| listed.contains(value)),
                    None => allowed = Some(listed),
                }
            }
            let Some(not) = schema.get("not") else {
                continue;
            };
            let values = match (not.get("enum"), not.get("const")) {
                (Some(Value::Array(list)), _) => list.iter().collect(),
                (None, Some(value)) => vec![value],
                _ => Vec::new(),
            };
            excluded.extend(
                values
                    .into_iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned),
            );
        }
        (excluded, allowed)
    }

    /// Follows `$ref` (local to the file) and flattens `allOf`/`anyOf`/`oneOf` and the
    /// branches of `if` into the list of schemas that together describe one place, each with
    /// its pointer and the alternatives it sits in (`branches`, numbered by `counter` in the
    /// order met; empty when it is reached through `$ref` and `allOf` only, and so applies
    /// whatever the alternative).
    fn gather(
        &self,
        schema: &'d Value,
        pointer: String,
        into: &mut Vec<(&'d Value, String, Vec<u32>)>,
        depth: usize,
        branches: &mut Vec<u32>,
        counter: &mut u32,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(map) = schema.as_object() else {
            return;
        };
        into.push((schema, pointer.clone(), branches.clone()));
        if let Some(reference) = map.get("$ref").and_then(Value::as_str)
            && let Some(fragment) = reference.strip_prefix('#')
            && let Some(target) = resolve(self.document, fragment)
        {
            let at = fragment.to_string();
            self.gather(target, at, into, depth + 1, branches, counter);
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            if let Some(list) = map.get(key).and_then(Value::as_array) {
                for (index, branch) in list.iter().enumerate() {
                    let at = format!("{pointer}/{key}/{index}");
                    let alternative = key != "allOf";
                    if alternative {
                        *counter += 1;
                        branches.push(*counter);
                    }
                    self.gather(branch, at, into, depth + 1, branches, counter);
                    if alternative {
                        branches.pop();
                    }
                }
            }
        }
        // The branches of a condition, as alternatives: how the contract picks the subtype a
        // discriminator names (the `if` only tells them apart).
        for key in ["then", "else"] {
            if let Some(branch) = map.get(key) {
                *counter += 1;
                branches.push(*counter);
                let at = format!("{pointer}/{key}");
                self.gather(branch, at, into, depth + 1, branches, counter);
                branches.pop();
            }
        }
    }
}

/// Whether `schema`, reached at `at`, is an alternative (a branch of `anyOf` or `oneOf`) that
/// takes any string: then no enum list beside it closes the place.
fn takes_any_string(schema: &Value, at: &str) -> bool {
    let Some(last) = at.rsplit('/').nth(1) else {
        return false;
    };
    if last != "anyOf" && last != "oneOf" {
        return false;
    }
    let Some(map) = schema.as_object() else {
        return false;
    };
    // A `pattern` or `format` does not close it: a string that passes one and is in no list
    // is documented by that alternative.
    let constrained = [
        "enum",
        "const",
        "x-extensible-enum",
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
    ]
    .iter()
    .any(|key| map.contains_key(*key));
    let string = match map.get("type") {
        Some(Value::String(kind)) => kind == "string",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "string"),
        _ => false,
    };
    string && !constrained
}

/// One step from a parent to a child of the instance. Nothing is formatted while walking:
/// pointers are only spelled out for the (rare) undocumented things.
#[derive(Clone, Copy)]
enum Step<'i> {
    /// A declared property: `/name` in both the pointer and the pattern.
    Key(&'i str),
    /// An array item: `/3` in the pointer, `/*` in the pattern.
    Index(usize),
    /// A value of an open map: `/name` in the pointer, `/*` in the pattern.
    MapKey(&'i str),
}

/// Where in the instance, as a chain of steps on the walker's stack.
struct Loc<'a> {
    parent: Option<&'a Loc<'a>>,
    step: Step<'a>,
}

/// The pointer and the pattern of a place.
fn spell(loc: Option<&Loc<'_>>) -> (String, String) {
    let mut steps = Vec::new();
    let mut at = loc;
    while let Some(loc) = at {
        steps.push(loc.step);
        at = loc.parent;
    }
    let (mut pointer, mut pattern) = (String::new(), String::new());
    for step in steps.into_iter().rev() {
        match step {
            Step::Key(name) => {
                let name = escape(name);
                pointer.push('/');
                pointer.push_str(&name);
                pattern.push('/');
                pattern.push_str(&name);
            }
            Step::Index(index) => {
                pointer.push_str(&format!("/{index}"));
                pattern.push_str("/*");
            }
            Step::MapKey(name) => {
                pointer.push('/');
                pointer.push_str(&escape(name));
                pattern.push_str("/*");
            }
        }
    }
    (pointer, pattern)
}

/// The node a local `$ref` fragment (`/$defs/Name`) points to; without allocating unless a
/// segment needs unescaping (`%XX`, `~0`, `~1`).
fn resolve<'d>(document: &'d Value, fragment: &str) -> Option<&'d Value> {
    if fragment.is_empty() {
        return Some(document);
    }
    if fragment.contains(['%', '~']) {
        return document.pointer(&decode(fragment));
    }
    let mut node = document;
    for segment in fragment.strip_prefix('/')?.split('/') {
        node = match node {
            Value::Object(map) => map.get(segment)?,
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// A URI fragment as a JSON pointer (percent-decoding).
fn decode(fragment: &str) -> String {
    specgen::load::percent_decode_lossy(fragment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "$ref": "#/$defs/Transfer",
            "$defs": {
                "Transfer": {
                    "type": "object",
                    "properties": {
                        "status": { "$ref": "#/$defs/Status" },
                        "amount": { "type": "object", "properties": { "value": { "type": "number" } } },
                        "tags": { "type": "object", "additionalProperties": { "type": "string" } },
                        "legs": { "type": "array", "items": { "$ref": "#/$defs/Leg" } },
                        "raw": { "description": "anything" }
                    }
                },
                "Status": { "type": "string", "x-extensible-enum": ["PENDING", "COMPLETED"] },
                "Leg": { "oneOf": [
                    { "type": "object", "properties": { "a": { "type": "string" } } },
                    { "type": "object", "properties": { "b": { "type": "string" } } }
                ] }
            }
        })
    }

    #[test]
    fn undeclared_properties_and_unknown_enum_values_are_found() {
        let instance = json!({
            "status": "CANCELLED",
            "amount": { "value": 1, "unit": "minor" },
            "tags": { "free": "form" },
            "legs": [ { "a": "x" }, { "b": "y", "c": "z" } ],
            "raw": { "whatever": true },
            "risk": 3
        });
        let items = undocumented(&schema(), &instance);
        let found: Vec<(Kind, &str, &str)> = items
            .iter()
            .map(|i| (i.kind, i.pattern.as_str(), i.value.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                (Kind::EnumValue, "/status", "CANCELLED"),
                (Kind::Property, "/amount", "unit"),
                (Kind::Property, "/legs/*", "c"),
                (Kind::Property, "", "risk"),
            ]
        );
        assert_eq!(items[2].pointer, "/legs/1/c");
        assert_eq!(items[0].schema_pointer, "/$defs/Status/x-extensible-enum");
    }

    #[test]
    fn a_value_any_alternative_lists_is_documented() {
        // A discriminator as the contract writes it: each alternative pins the property to
        // its own value, so the place's values are all the alternatives' together.
        let pets = json!({
            "oneOf": [
                { "allOf": [ { "properties": { "kind": { "enum": ["cat"] } } }, { "$ref": "#/$defs/Cat" } ] },
                { "allOf": [ { "properties": { "kind": { "enum": ["dog"] } } }, { "$ref": "#/$defs/Dog" } ] }
            ],
            "$defs": {
                "Cat": { "type": "object", "properties": { "kind": { "type": "string" } } },
                "Dog": { "type": "object", "properties": { "kind": { "type": "string" } } }
            }
        });
        assert_eq!(undocumented(&pets, &json!({ "kind": "dog" })), vec![]);
        assert_eq!(undocumented(&pets, &json!({ "kind": "cat" })), vec![]);
        let bird = undocumented(&pets, &json!({ "kind": "bird" }));
        assert_eq!(bird.len(), 1, "{bird:?}");
        assert_eq!(
            (bird[0].kind, bird[0].value.as_str()),
            (Kind::EnumValue, "bird")
        );
        assert_eq!(
            Plan::new(&pets).members().enums["/kind"]
                .iter()
                .collect::<Vec<_>>(),
            vec!["cat", "dog"]
        );

        // The open enum: known values beside "any string" leave no value undocumented.
        let model = json!({ "properties": { "model": { "anyOf": [
            { "type": "string", "enum": ["gpt-4o", "gpt-4.1"] },
            { "type": "string" }
        ] } } });
        assert_eq!(
            undocumented(&model, &json!({ "model": "my-fine-tune" })),
            vec![]
        );
        // Two closed lists as alternatives are still closed.
        let closed = json!({ "properties": { "unit": { "oneOf": [
            { "type": "string", "enum": ["kg"] },
            { "type": "string", "enum": ["lb"] }
        ] } } });
        assert_eq!(undocumented(&closed, &json!({ "unit": "lb" })), vec![]);
        assert_eq!(undocumented(&closed, &json!({ "unit": "st" })).len(), 1);
    }

    /// Stripe's shape: every resource may hold every other, expanded (`anyOf: [string,
    /// {$ref}]`). The places along every path without a cycle number 14! here; the listing
    /// ends, with every resource's members listed at the shallowest place it is met.
    #[test]
    fn members_of_schemas_that_all_reach_each_other_are_listed_once_each() {
        let names: Vec<String> = (0..14).map(|i| format!("r{i:02}")).collect();
        let mut defs = serde_json::Map::new();
        for name in &names {
            let mut properties = serde_json::Map::new();
            properties.insert("id".into(), json!({ "type": "string" }));
            properties.insert("kind".into(), json!({ "enum": [name] }));
            for other in names.iter().filter(|other| *other != name) {
                properties.insert(
                    other.clone(),
                    json!({ "anyOf": [ { "type": "string" }, { "$ref": format!("#/$defs/{other}") } ] }),
                );
            }
            defs.insert(
                name.clone(),
                json!({ "type": "object", "properties": properties }),
            );
        }
        let document = json!({ "$ref": "#/$defs/r00", "$defs": defs });
        let members = Plan::new(&document).members();
        // The root's own places, and one level below each of its properties.
        assert!(members.properties.contains("/id"));
        assert!(members.properties.contains("/r01"));
        assert!(members.properties.contains("/r01/id"));
        assert!(members.properties.contains("/r01/r02"));
        assert_eq!(
            members.enums["/kind"].iter().collect::<Vec<_>>(),
            vec!["r00"]
        );
        assert_eq!(
            members.enums["/r01/kind"].iter().collect::<Vec<_>>(),
            vec!["r01"]
        );
        assert!(
            members.properties.len() <= MAX_MEMBERS,
            "{} places",
            members.properties.len()
        );
        // A document within the budget is listed along every path, as before.
        let small = json!({ "type": "object", "properties": {
            "a": { "$ref": "#/$defs/leaf" }, "b": { "$ref": "#/$defs/leaf" } },
            "$defs": { "leaf": { "type": "object", "properties": { "x": { "type": "object", "properties": { "y": { "type": "string" } } } } } } });
        let listed: Vec<String> = Plan::new(&small).members().properties.into_iter().collect();
        assert_eq!(listed, ["/a", "/a/x", "/a/x/y", "/b", "/b/x", "/b/x/y"]);
    }

    #[test]
    fn members_list_every_documented_place_and_seen_finds_them_in_a_payload() {
        let plan = Plan::new(&schema());
        let members = plan.members();
        let properties: Vec<&str> = members.properties.iter().map(String::as_str).collect();
        assert_eq!(
            properties,
            vec![
                "/amount",
                "/amount/value",
                "/legs",
                "/legs/*/a",
                "/legs/*/b",
                "/raw",
                "/status",
                "/tags"
            ]
        );
        assert_eq!(
            members.enums["/status"].iter().collect::<Vec<_>>(),
            vec!["COMPLETED", "PENDING"]
        );
        let mut seen = Vec::new();
        plan.seen(
            &json!({ "status": "PENDING", "legs": [ { "b": "x" } ], "risk": 1, "raw": "CANCELLED" }),
            &mut |at, value| seen.push((at.to_string(), value.map(str::to_string))),
        );
        seen.sort();
        assert_eq!(
            seen,
            vec![
                ("/legs".to_string(), None),
                ("/legs/*/b".to_string(), None),
                ("/raw".to_string(), None),
                ("/status".to_string(), None),
                ("/status".to_string(), Some("PENDING".to_string())),
            ]
        );
    }

    /// Mailchimp's segment conditions: a `oneOf` of objects that each declare `value`, free
    /// text in one and an enum in another. A value the free-text alternative takes is no
    /// undocumented enum value; one outside every alternative that lists values is, and so
    /// is one outside the list that applies whatever the alternative.
    #[test]
    fn a_member_one_alternative_leaves_free_is_not_held_to_anothers_enum() {
        let schema = json!({ "properties": { "conditions": { "items": {
            "allOf": [{ "properties": { "op": { "enum": ["started", "unknown", "is"] } } }],
            "oneOf": [
                { "properties": { "op": { "enum": ["started"] }, "value": { "type": "string" } } },
                { "properties": { "op": { "enum": ["unknown"] }, "value": { "enum": ["unknown"] } } },
                { "properties": { "value": { "enum": ["a", "b"] } } }
            ]
        } } } });
        let found = |instance: Value| {
            undocumented(&schema, &instance)
                .into_iter()
                .map(|item| (item.pointer, item.value))
                .collect::<Vec<_>>()
        };
        let free = json!({ "conditions": [{ "op": "started", "value": "2a4e0d3b" }] });
        assert_eq!(found(free), vec![]);
        assert_eq!(found(json!({ "conditions": [{ "value": "b" }] })), vec![]);
        assert_eq!(
            found(json!({ "conditions": [{ "op": "paused", "value": "x" }] })),
            vec![("/conditions/0/op".to_string(), "paused".to_string())]
        );
    }

    #[test]
    fn an_object_open_to_any_member_in_so_many_words_has_no_undocumented_member() {
        for open in [json!(true), json!({})] {
            let schema = json!({
                "type": "object",
                "properties": {"data": {
                    "type": "object",
                    "properties": {},
                    "additionalProperties": open
                }, "id": {"type": "string"}}
            });
            let found = undocumented(&schema, &json!({"data": {"AnyBankField": 1}, "id": "a"}));
            assert!(found.is_empty(), "{open}: {found:?}");
        }
        // Left unwritten, the default documents nothing.
        let closed = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        assert_eq!(
            undocumented(&closed, &json!({"id": "a", "other": 1})).len(),
            1
        );
    }

    #[test]
    fn a_documented_payload_has_no_drift() {
        let instance =
            json!({ "status": "PENDING", "legs": [ { "a": "x" } ], "amount": { "value": 2 } });
        assert_eq!(undocumented(&schema(), &instance), vec![]);
    }
}
