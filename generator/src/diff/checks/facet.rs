//! What can change in a schema between versions ([`Facet`], with the [`Bound`]s it compares),
//! and what each change does to the set of valid messages (`Effect`, `Certainty`), from
//! which the schema checks' levels follow.

use super::check::Area;

/// A JSON Schema bound, compared between versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bound {
    /// `maxLength`
    MaxLength,
    /// `minLength`
    MinLength,
    /// `maximum` / `exclusiveMaximum`
    Maximum,
    /// `minimum` / `exclusiveMinimum`
    Minimum,
    /// `maxItems`
    MaxItems,
    /// `minItems`
    MinItems,
    /// `maxProperties`
    MaxProperties,
    /// `minProperties`
    MinProperties,
    /// `multipleOf`
    MultipleOf,
    /// `uniqueItems`
    UniqueItems,
}

impl Bound {
    /// Every bound.
    pub const ALL: [Bound; 10] = [
        Bound::MaxLength,
        Bound::MinLength,
        Bound::Maximum,
        Bound::Minimum,
        Bound::MaxItems,
        Bound::MinItems,
        Bound::MaxProperties,
        Bound::MinProperties,
        Bound::MultipleOf,
        Bound::UniqueItems,
    ];

    /// The id segment.
    pub fn slug(self) -> &'static str {
        match self {
            Bound::MaxLength => "max-length",
            Bound::MinLength => "min-length",
            Bound::Maximum => "maximum",
            Bound::Minimum => "minimum",
            Bound::MaxItems => "max-items",
            Bound::MinItems => "min-items",
            Bound::MaxProperties => "max-properties",
            Bound::MinProperties => "min-properties",
            Bound::MultipleOf => "multiple-of",
            Bound::UniqueItems => "unique-items",
        }
    }

    /// The keyword as the document spells it.
    pub fn keyword(self) -> &'static str {
        match self {
            Bound::MaxLength => "maxLength",
            Bound::MinLength => "minLength",
            Bound::Maximum => "maximum",
            Bound::Minimum => "minimum",
            Bound::MaxItems => "maxItems",
            Bound::MinItems => "minItems",
            Bound::MaxProperties => "maxProperties",
            Bound::MinProperties => "minProperties",
            Bound::MultipleOf => "multipleOf",
            Bound::UniqueItems => "uniqueItems",
        }
    }
}

/// What changed in a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Facet {
    /// The type (or format) changed to one neither wider nor narrower.
    TypeChanged,
    /// The type admits more (`integer` → `number`, a type added, `int32` → `int64`).
    TypeWidened,
    /// The type admits less.
    TypeNarrowed,
    /// `null` became allowed.
    BecameNullable,
    /// `null` is no longer allowed.
    BecameNotNullable,
    /// A value was added to a closed `enum` (or `const`).
    EnumValueAdded,
    /// A value was removed from a closed `enum`.
    EnumValueRemoved,
    /// A closed `enum` now restricts a schema that had none.
    BecameEnum,
    /// The closed `enum` was dropped (or made extensible).
    EnumRemoved,
    /// A value was added to an `x-extensible-enum`.
    ExtensibleEnumValueAdded,
    /// A value was removed from an `x-extensible-enum`.
    ExtensibleEnumValueRemoved,
    /// A bound was set or made stricter.
    Tightened(Bound),
    /// A bound was unset or made looser.
    Relaxed(Bound),
    /// A `pattern` was set.
    PatternAdded,
    /// The `pattern` changed.
    PatternChanged,
    /// The `pattern` was dropped.
    PatternRemoved,
    /// The `default` was set, changed or dropped.
    DefaultChanged,
    /// A new property, required.
    RequiredPropertyAdded,
    /// A new optional property of an open object.
    OptionalPropertyAdded,
    /// A new property where the object was closed (`additionalProperties: false`).
    PropertyAddedToClosedSchema,
    /// A required property was removed.
    RequiredPropertyRemoved,
    /// An optional property was removed.
    OptionalPropertyRemoved,
    /// A property was removed from a closed object, which now refuses it.
    PropertyRemovedFromClosedSchema,
    /// A property became required.
    PropertyBecameRequired,
    /// A property became optional.
    PropertyBecameOptional,
    /// `additionalProperties: false` was dropped.
    AdditionalPropertiesOpened,
    /// `additionalProperties: false` was set.
    AdditionalPropertiesClosed,
    /// A `oneOf` / `anyOf` alternative was added.
    AlternativeAdded,
    /// A `oneOf` / `anyOf` alternative was removed.
    AlternativeRemoved,
    /// The discriminator's property or a mapping changed.
    DiscriminatorChanged,
}

/// What a change does to the set of valid messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Effect {
    /// Fewer messages are valid: old producers may send what new consumers refuse.
    Narrows,
    /// More messages are valid: new producers may send what old consumers refuse.
    Widens,
    /// Neither: both pairings break.
    Changes,
    /// A member disappears: its old consumers lose it, its old producers are ignored.
    Removes {
        /// It was required, so old consumers counted on it.
        required: bool,
    },
    /// Nothing breaks.
    Neutral,
}

/// How sure the break is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Certainty {
    /// Every conforming party breaks (types, nullability, requiredness).
    Definite,
    /// Only parties that check more than their types break.
    Potential,
    /// A constraint: certain where the API reads the message (it checks its contract),
    /// potential where users read it.
    Validation,
}

impl Facet {
    /// Every facet.
    pub fn all() -> Vec<Facet> {
        let mut facets = vec![
            Facet::TypeChanged,
            Facet::TypeWidened,
            Facet::TypeNarrowed,
            Facet::BecameNullable,
            Facet::BecameNotNullable,
            Facet::EnumValueAdded,
            Facet::EnumValueRemoved,
            Facet::BecameEnum,
            Facet::EnumRemoved,
            Facet::ExtensibleEnumValueAdded,
            Facet::ExtensibleEnumValueRemoved,
        ];
        for bound in Bound::ALL {
            facets.push(Facet::Tightened(bound));
            facets.push(Facet::Relaxed(bound));
        }
        facets.extend([
            Facet::PatternAdded,
            Facet::PatternChanged,
            Facet::PatternRemoved,
            Facet::DefaultChanged,
            Facet::RequiredPropertyAdded,
            Facet::OptionalPropertyAdded,
            Facet::PropertyAddedToClosedSchema,
            Facet::RequiredPropertyRemoved,
            Facet::OptionalPropertyRemoved,
            Facet::PropertyRemovedFromClosedSchema,
            Facet::PropertyBecameRequired,
            Facet::PropertyBecameOptional,
            Facet::AdditionalPropertiesOpened,
            Facet::AdditionalPropertiesClosed,
            Facet::AlternativeAdded,
            Facet::AlternativeRemoved,
            Facet::DiscriminatorChanged,
        ]);
        facets
    }

    /// The id segment after the flow's prefix.
    pub fn slug(self) -> String {
        let fixed = match self {
            Facet::TypeChanged => "type-changed",
            Facet::TypeWidened => "type-widened",
            Facet::TypeNarrowed => "type-narrowed",
            Facet::BecameNullable => "became-nullable",
            Facet::BecameNotNullable => "became-not-nullable",
            Facet::EnumValueAdded => "enum-value-added",
            Facet::EnumValueRemoved => "enum-value-removed",
            Facet::BecameEnum => "became-enum",
            Facet::EnumRemoved => "enum-removed",
            Facet::ExtensibleEnumValueAdded => "extensible-enum-value-added",
            Facet::ExtensibleEnumValueRemoved => "extensible-enum-value-removed",
            Facet::Tightened(bound) => return format!("{}-tightened", bound.slug()),
            Facet::Relaxed(bound) => return format!("{}-relaxed", bound.slug()),
            Facet::PatternAdded => "pattern-added",
            Facet::PatternChanged => "pattern-changed",
            Facet::PatternRemoved => "pattern-removed",
            Facet::DefaultChanged => "default-changed",
            Facet::RequiredPropertyAdded => "required-property-added",
            Facet::OptionalPropertyAdded => "optional-property-added",
            Facet::PropertyAddedToClosedSchema => "property-added-to-closed-schema",
            Facet::RequiredPropertyRemoved => "required-property-removed",
            Facet::OptionalPropertyRemoved => "optional-property-removed",
            Facet::PropertyRemovedFromClosedSchema => "property-removed-from-closed-schema",
            Facet::PropertyBecameRequired => "property-became-required",
            Facet::PropertyBecameOptional => "property-became-optional",
            Facet::AdditionalPropertiesOpened => "additional-properties-opened",
            Facet::AdditionalPropertiesClosed => "additional-properties-closed",
            Facet::AlternativeAdded => "alternative-added",
            Facet::AlternativeRemoved => "alternative-removed",
            Facet::DiscriminatorChanged => "discriminator-changed",
        };
        fixed.to_string()
    }

    pub(super) fn summary(self) -> String {
        let fixed = match self {
            Facet::TypeChanged => "type or format changed to an incompatible one",
            Facet::TypeWidened => "type or format admits more values",
            Facet::TypeNarrowed => "type or format admits fewer values",
            Facet::BecameNullable => "null became allowed",
            Facet::BecameNotNullable => "null is no longer allowed",
            Facet::EnumValueAdded => "enum value added",
            Facet::EnumValueRemoved => "enum value removed",
            Facet::BecameEnum => "values restricted to an enum",
            Facet::EnumRemoved => "enum restriction dropped or made extensible",
            Facet::ExtensibleEnumValueAdded => "x-extensible-enum value added",
            Facet::ExtensibleEnumValueRemoved => "x-extensible-enum value removed",
            Facet::Tightened(bound) => {
                return format!("`{}` set or made stricter", bound.keyword());
            }
            Facet::Relaxed(bound) => return format!("`{}` unset or made looser", bound.keyword()),
            Facet::PatternAdded => "pattern set",
            Facet::PatternChanged => "pattern changed",
            Facet::PatternRemoved => "pattern dropped",
            Facet::DefaultChanged => "default value set, changed or dropped",
            Facet::RequiredPropertyAdded => "new required property",
            Facet::OptionalPropertyAdded => "new optional property",
            Facet::PropertyAddedToClosedSchema => {
                "new property where the object was closed (additionalProperties: false)"
            }
            Facet::RequiredPropertyRemoved => "required property removed",
            Facet::OptionalPropertyRemoved => "optional property removed",
            Facet::PropertyRemovedFromClosedSchema => {
                "property removed from a closed object, which now refuses it"
            }
            Facet::PropertyBecameRequired => "property became required",
            Facet::PropertyBecameOptional => "property became optional",
            Facet::AdditionalPropertiesOpened => "additionalProperties: false dropped",
            Facet::AdditionalPropertiesClosed => "additionalProperties: false set",
            Facet::AlternativeAdded => "oneOf/anyOf alternative added",
            Facet::AlternativeRemoved => "oneOf/anyOf alternative removed",
            Facet::DiscriminatorChanged => "discriminator property or mapping changed",
        };
        fixed.to_string()
    }

    pub(super) fn area(self) -> Area {
        match self {
            Facet::EnumValueAdded
            | Facet::EnumValueRemoved
            | Facet::BecameEnum
            | Facet::EnumRemoved
            | Facet::ExtensibleEnumValueAdded
            | Facet::ExtensibleEnumValueRemoved => Area::Enums,
            _ => Area::Schemas,
        }
    }

    pub(super) fn effect(self) -> (Effect, Certainty) {
        use Certainty::*;
        use Effect::*;
        match self {
            Facet::TypeChanged => (Changes, Definite),
            Facet::TypeWidened | Facet::BecameNullable | Facet::PropertyBecameOptional => {
                (Widens, Definite)
            }
            Facet::TypeNarrowed
            | Facet::BecameNotNullable
            | Facet::RequiredPropertyAdded
            | Facet::PropertyBecameRequired => (Narrows, Definite),
            Facet::EnumValueAdded
            | Facet::EnumRemoved
            | Facet::Relaxed(_)
            | Facet::PatternRemoved
            | Facet::PropertyAddedToClosedSchema
            | Facet::AlternativeAdded => (Widens, Validation),
            Facet::EnumValueRemoved
            | Facet::BecameEnum
            | Facet::ExtensibleEnumValueRemoved
            | Facet::Tightened(_)
            | Facet::PropertyRemovedFromClosedSchema
            | Facet::AlternativeRemoved => (Narrows, Validation),
            Facet::AdditionalPropertiesOpened => (Widens, Potential),
            Facet::AdditionalPropertiesClosed => (Narrows, Potential),
            // A pattern's language cannot be compared: the new one may accept every old value.
            Facet::PatternAdded => (Narrows, Potential),
            Facet::PatternChanged => (Changes, Potential),
            Facet::DiscriminatorChanged => (Changes, Definite),
            Facet::RequiredPropertyRemoved => (Removes { required: true }, Definite),
            Facet::OptionalPropertyRemoved => (Removes { required: false }, Potential),
            // Consumers were told to expect values beyond the list.
            Facet::ExtensibleEnumValueAdded | Facet::OptionalPropertyAdded => (Neutral, Potential),
            // What an absent member means changes for the one who reads it; only the API's
            // reading (of requests and replies) acts on defaults.
            Facet::DefaultChanged => (Changes, Potential),
        }
    }
}
