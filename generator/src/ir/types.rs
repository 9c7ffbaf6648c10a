//! The types the generated crate declares ([`TypeDef`]) and every use of one ([`TypeRef`]):
//! structs, enums, unions, newtypes and aliases, with the facts the emitters read about them.

use serde_json::Value;

/// A type the generated crate declares.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// Rust identifier of the type (PascalCase, unique in the crate).
    pub name: String,
    /// JSON pointer of the schema this type was made from.
    pub origin: String,
    /// Component name when the type is a component schema.
    pub component: Option<String>,
    /// Documentation from `title` / `description`.
    pub docs: Option<String>,
    /// What kind of type it is.
    pub kind: TypeKind,
    /// Examples given for the schema, with their JSON pointers in the document.
    pub examples: Vec<Example>,
}

/// The shape of a named type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// An object with known properties.
    Struct(StructDef),
    /// A string enumeration; unknown values are kept in a catch-all variant.
    Enum(EnumDef),
    /// `oneOf` / `anyOf`: one of several shapes.
    Union(UnionDef),
    /// A distinct type wrapping another (a scalar component schema).
    Newtype(TypeRef),
    /// Another name for a type (a container component schema).
    Alias(TypeRef),
}

/// An object type.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// Declared properties, in document order.
    pub fields: Vec<Field>,
    /// What happens to properties that are not declared.
    pub additional: Additional,
    /// Rust name of the field that keeps undeclared properties (unique in the struct).
    pub additional_name: String,
}

/// Treatment of undeclared properties of an object.
#[derive(Debug, Clone, PartialEq)]
pub enum Additional {
    /// `additionalProperties: false`: nothing to keep.
    Forbidden,
    /// Unknown properties are kept as JSON so that a round trip loses nothing.
    Any,
    /// `additionalProperties: <schema>`: kept as a typed map.
    Typed(TypeRef),
}

/// One property of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Rust identifier (snake_case, keyword-safe, unique in the struct).
    pub rust_name: String,
    /// Property name on the wire.
    pub wire_name: String,
    /// Type of a present, non-null value.
    pub ty: TypeRef,
    /// Listed in `required`.
    pub required: bool,
    /// The schema admits `null`.
    pub nullable: bool,
    /// Documentation from the property schema.
    pub docs: Option<String>,
    /// `default` of the property schema.
    pub default: Option<Value>,
    /// The type contains the struct itself without an indirection, so the field holds a
    /// `Box` (set after naming, for the whole API at once).
    pub boxed: bool,
}

/// A string enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    /// Known values, in document order.
    pub variants: Vec<EnumVariant>,
    /// The spec says the list is incomplete (`x-extensible-enum`), rather than closed (`enum`).
    /// Both kinds of Rust enum accept unknown values; the flag feeds documentation and the
    /// validator's strict mode.
    pub extensible: bool,
    /// Rust name of the variant that keeps a value the spec does not list.
    pub catch_all: String,
}

/// One known value of a string enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumVariant {
    /// Rust identifier (PascalCase, unique in the enum).
    pub rust_name: String,
    /// The value on the wire.
    pub wire: String,
    /// What the spec says of this value (the `title` or `description` of its `const`).
    pub docs: Option<String>,
}

/// `oneOf` / `anyOf`.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionDef {
    /// The alternatives, in document order.
    pub variants: Vec<UnionVariant>,
    /// Set when the spec names a discriminator property.
    pub discriminator: Option<Discriminator>,
    /// Rust name of the variant that keeps, as JSON, a value no alternative accepts.
    pub catch_all: String,
    /// `oneOf` (a valid value matches exactly one alternative) rather than `anyOf`.
    pub exclusive: bool,
}

/// One alternative of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionVariant {
    /// Rust identifier of the variant.
    pub rust_name: String,
    /// Its payload type.
    pub ty: TypeRef,
    /// What a value must look like to be this alternative, read from its schema once; the
    /// generated deserializer chooses by these facts, not by serde's first success.
    pub facts: VariantFacts,
    /// The alternative's schema as JSON Schema with refs to components (the generated
    /// round-trip tests check that a value landing here satisfies it).
    pub schema: Value,
    /// The payload contains the union itself without an indirection, so the variant holds a
    /// `Box` (set after naming, for the whole API at once).
    pub boxed: bool,
}

/// The facts that tell the alternatives of a union apart.
///
/// A lenient alternative (an open object, an enum with a catch-all) accepts nearly any value,
/// so "the first alternative that deserializes" is usually the wrong one. These facts rule
/// alternatives out (wrong JSON type, a required member missing, a tag with another value, a
/// member a closed object does not declare) and rank the rest (tags matched, members declared).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VariantFacts {
    /// JSON types the alternative accepts; empty when it accepts any.
    pub kinds: Vec<JsonKind>,
    /// Members an object must have.
    pub required: Vec<String>,
    /// Members required in one direction only (`readOnly`, `writeOnly`), which a value read
    /// in the other may lack: they rank an alternative, never rule it out.
    pub one_way: Vec<String>,
    /// Members whose value is fixed by a `const` or a closed `enum` (implicit tags), with the
    /// values allowed, in document order.
    pub tags: Vec<(String, Vec<Value>)>,
    /// Members the object declares.
    pub declared: Vec<String>,
    /// `additionalProperties: false`: a member not in `declared` rules the alternative out.
    pub closed: bool,
    /// For a scalar alternative with a closed `enum` or `const`: the values allowed.
    pub values: Option<Vec<Value>>,
    /// For a string alternative whose `pattern` is anchored at its start: every string it
    /// accepts begins with one of these (`^Merged with [0-9]+$` gives `Merged with `).
    /// Empty when the pattern says nothing of the kind.
    pub prefixes: Vec<String>,
    /// For a string alternative: a `format` a model can test without a regex engine or the
    /// contract (`ipv4`, `ipv6`, `email`, `time`, `duration`), which tells `192.0.2.1` from `2001:db8::1` where
    /// both alternatives are `String`s.
    pub format: Option<TextFormat>,
    /// For a number alternative with `minimum`/`maximum` (or their exclusive forms): the
    /// numbers it admits (`0..=10` beside `11..`).
    pub range: Option<NumberRange>,
    /// For a string alternative: its `minLength` and `maxLength`, in characters.
    pub length: Option<(u64, Option<u64>)>,
    /// For an object alternative: the facts of its declared members that say something (a
    /// member whose value, when present, rules the alternative out: `method.type` fixed to
    /// `card` in one alternative and `bank` in the other, an `id` whose pattern begins with
    /// `acct_`), in document order; read one level below the alternative.
    pub members: Vec<(String, VariantFacts)>,
    /// For an array alternative: the facts every item must meet.
    pub items: Option<Box<VariantFacts>>,
    /// For an array alternative: `minItems` and `maxItems`.
    pub item_count: Option<(u64, Option<u64>)>,
    /// For an object alternative: `minProperties` and `maxProperties`.
    pub member_count: Option<(u64, Option<u64>)>,
    /// For a number alternative: `multipleOf`.
    pub multiple_of: Option<f64>,
    /// Values the alternative forbids (`not: {const}`, `not: {enum}`).
    pub excluded: Vec<Value>,
    /// For a string alternative whose `pattern` is anchored at both ends: the characters any
    /// string it accepts is made of, as inclusive ranges (`^[0-9]+$` gives `0-9`, which tells
    /// it from `^[a-z]+$`).
    pub alphabet: Option<Vec<(char, char)>>,
    /// For an array alternative: the facts of its first items, one by one (`prefixItems`);
    /// `items` then rules on the items after them.
    pub prefix_items: Vec<VariantFacts>,
    /// For an object alternative: the facts every member it does not declare must meet (its
    /// `additionalProperties` schema: a map whose values are a closed enum, or objects with
    /// facts of their own). Unset when `patternProperties` claims some of those members.
    pub additional: Option<Box<VariantFacts>>,
}

impl VariantFacts {
    /// Whether these facts rule out more than a JSON type, which a member's or an item's Rust
    /// type already does as it deserializes.
    pub fn says_more_than_its_kind(&self) -> bool {
        !self.required.is_empty()
            || !self.tags.is_empty()
            || self.closed
            || self.values.is_some()
            || !self.prefixes.is_empty()
            || self.format.is_some()
            || self.range.is_some()
            || self.length.is_some()
            || !self.members.is_empty()
            || self.items.is_some()
            || self.item_count.is_some()
            || self.member_count.is_some()
            || self.multiple_of.is_some()
            || self.additional.is_some()
            || !self.excluded.is_empty()
            || self.alphabet.is_some()
            || !self.prefix_items.is_empty()
    }

    /// The facts as a member's or an item's: the members declared only matter to a closed
    /// object or to one whose other members have facts of their own (they rank alternatives,
    /// and only the alternative's own are ranked).
    pub fn nested(mut self) -> VariantFacts {
        if !self.closed && self.additional.is_none() {
            self.declared.clear();
        }
        self
    }
}

/// A number's bounds, each `(value, exclusive)`; `None` is unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct NumberRange {
    /// `minimum`, or `exclusiveMinimum` (exclusive).
    pub min: Option<(f64, bool)>,
    /// `maximum`, or `exclusiveMaximum` (exclusive).
    pub max: Option<(f64, bool)>,
}

/// A string `format` that tells union alternatives apart (see [`VariantFacts::format`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFormat {
    /// `ipv4`: a dotted quad.
    Ipv4,
    /// `ipv6`
    Ipv6,
    /// `email`: holds an `@`.
    Email,
    /// `time`: begins `hh:mm:ss`.
    Time,
    /// `duration`: begins with `P`.
    Duration,
    /// `byte`: base64 text.
    Base64,
}

impl TextFormat {
    /// The format a `format` keyword names, when it is one of these.
    pub fn named(format: &str) -> Option<TextFormat> {
        match format {
            "ipv4" => Some(TextFormat::Ipv4),
            "ipv6" => Some(TextFormat::Ipv6),
            "email" | "idn-email" => Some(TextFormat::Email),
            "time" => Some(TextFormat::Time),
            "duration" => Some(TextFormat::Duration),
            "byte" => Some(TextFormat::Base64),
            _ => None,
        }
    }
}

/// A JSON value's type, as JSON Schema's `type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonKind {
    /// `null`
    Null,
    /// `boolean`
    Boolean,
    /// `integer`: a number without a fractional part.
    Integer,
    /// `number` (integers included).
    Number,
    /// `string`
    String,
    /// `array`
    Array,
    /// `object`
    Object,
}

impl JsonKind {
    /// The kind of a JSON value (a number written with a fraction or an exponent is a
    /// `number`, as serde_json reads it).
    pub fn of(value: &serde_json::Value) -> JsonKind {
        use serde_json::Value;
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => JsonKind::Integer,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }

    /// The JSON Schema `type` name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Boolean => "boolean",
            JsonKind::Integer => "integer",
            JsonKind::Number => "number",
            JsonKind::String => "string",
            JsonKind::Array => "array",
            JsonKind::Object => "object",
        }
    }

    /// The kind for a JSON Schema `type` name.
    pub fn from_name(name: &str) -> Option<JsonKind> {
        Some(match name {
            "null" => JsonKind::Null,
            "boolean" => JsonKind::Boolean,
            "integer" => JsonKind::Integer,
            "number" => JsonKind::Number,
            "string" => JsonKind::String,
            "array" => JsonKind::Array,
            "object" => JsonKind::Object,
            _ => return None,
        })
    }
}

/// A discriminator: which property selects the alternative, and the values for each.
#[derive(Debug, Clone, PartialEq)]
pub struct Discriminator {
    /// Wire name of the property.
    pub property: String,
    /// Discriminator value to index into [`UnionDef::variants`], in document order.
    pub mapping: Vec<(String, usize)>,
    /// The alternative that takes a value whose tag the mapping does not name, when no
    /// alternative pins that tag: an inheritance base's own struct, as the contract checks
    /// such a value against the base alone. Without one, such a value is kept as JSON.
    pub fallback: Option<usize>,
    /// Alternatives whose struct does not declare the property (Flinkster's geometries name
    /// their `type` only in the base's discriminator) or declares it optional (a tag with a
    /// `default`), with the tag to write where the value holds none: a value built in code
    /// may carry no tag of its own, and without it no reader could tell it from the others,
    /// while the contract requires it ("MUST be present", OpenAPI's Discriminator Object)
    /// (set after naming, for the whole API at once).
    pub untold: Vec<(usize, String)>,
}

/// A use of a type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeRef {
    /// A type declared in [`super::Api::types`], by Rust name.
    Named(String),
    /// A type that will be declared but has no name yet, by the JSON pointer of its schema.
    /// Only the builder makes these; the naming pass replaces each with [`TypeRef::Named`],
    /// so an [`super::Api`] the emitters read has none.
    Pointer(String),
    /// A scalar.
    Scalar(Scalar),
    /// `type: array`.
    Array(Box<TypeRef>),
    /// An object used as a dictionary (`additionalProperties` only).
    Map(Box<TypeRef>),
    /// A JSON object whose properties are not described.
    Object,
    /// Anything: the schema does not constrain the value.
    Any,
    /// A nullable value inside a container or alias (fields track nullability themselves).
    Nullable(Box<TypeRef>),
    /// A Rust type chosen by the user (`x-rust-type` or [`crate::Builder::type_override`]).
    Custom(String),
}

/// Scalar types, each a deliberate mapping of a JSON Schema type and format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// `type: string`.
    String,
    /// `type: boolean`.
    Bool,
    /// `integer`, `format: int32`.
    I32,
    /// `integer` (default `int64`).
    I64,
    /// `integer`, `format: uint64`.
    U64,
    /// `number`, `format: double` or `float` (f64 holds every float32 exactly).
    F64,
    /// `number` without a format: a decimal that keeps every digit it was given.
    Decimal,
    /// `string`, `format: uuid`.
    Uuid,
    /// `string`, `format: date-time`: kept as written, offset included.
    DateTime,
    /// `string`, `format: date`.
    Date,
    /// `string`, `format: byte`: base64 kept as written, decoded on demand.
    Base64,
}

/// An example value and where it stands in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// JSON pointer of the example value in the document.
    pub pointer: String,
    /// The example.
    pub value: Value,
}
