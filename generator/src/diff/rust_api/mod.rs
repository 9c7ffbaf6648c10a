//! Rust API compatibility of the generated crate: the public surfaces of the crates generated
//! for the two IRs ([`Surface`]), compared item by item by the rules of Cargo's SemVer
//! reference. Every struct has public fields and no `#[non_exhaustive]`, and no enum is
//! non-exhaustive either, so a new field breaks struct literals and a new variant breaks
//! exhaustive matches: both need a major bump. Which code breaks is said per finding.

pub mod surface;

use std::collections::{BTreeMap, BTreeSet};

pub use surface::{Item, Kind, Member, Signature, Surface, Variant};

use super::checks::{Level, RustCheck, Side};
use super::finding::{Bump, Finding, Place, Which};
use crate::load::{Document, join};

/// The bump a Rust check needs when it fires.
pub(crate) fn bump(check: RustCheck) -> Option<Bump> {
    let (_, level, _) = check.spec();
    match check {
        RustCheck::VersionBumpInsufficient => None,
        _ if level == Level::Info => Some(Bump::Minor),
        _ => Some(Bump::Major),
    }
}

/// A type as a reader wants it: no `crate::models::`, no leading `::`.
pub fn short(ty: &str) -> String {
    let mut text = ty
        .replace("crate::models::", "")
        .replace("crate::", "")
        .replace("::std::collections::", "")
        .replace("::std::future::", "")
        .replace("::std::", "std::");
    for krate in ["serde_json", "uuid", "chrono", "http", "axum"] {
        text = text.replace(&format!("::{krate}::"), &format!("{krate}::"));
    }
    text
}

struct Out<'d> {
    old: &'d Document,
    new: &'d Document,
    findings: Vec<Finding>,
}

impl Out<'_> {
    fn push(
        &mut self,
        check: RustCheck,
        which: Which,
        item: &str,
        origin: &Item,
        pointer: Option<String>,
        message: String,
    ) {
        let (id, level, _) = check.spec();
        let doc = match which {
            Which::Old => self.old,
            Which::New => self.new,
        };
        let pointer = pointer
            .filter(|p| doc.pointer(p).is_some())
            .unwrap_or_else(|| origin.origin.clone());
        self.findings.push(Finding {
            id: id.to_string(),
            level,
            side: Some(Side::Rust),
            message,
            place: Place::in_document(doc, which, pointer),
            group: origin.group.clone(),
            uses: Vec::new(),
            absorbed: None,
            item: Some(item.to_string()),
            semver: bump(check),
        });
    }
}

/// Every change of the public API between the crates of two documents.
pub fn compare(
    old: &Surface,
    new: &Surface,
    old_doc: &Document,
    new_doc: &Document,
) -> Vec<Finding> {
    let mut out = Out {
        old: old_doc,
        new: new_doc,
        findings: Vec::new(),
    };
    // A module that comes or goes is one finding: what is inside it goes with it.
    let modules = |surface: &Surface| -> BTreeSet<String> {
        surface
            .items
            .iter()
            .filter(|(_, item)| item.kind == Kind::Module)
            .map(|(path, _)| format!("{path}::"))
            .collect()
    };
    let (old_modules, new_modules) = (modules(old), modules(new));
    let inside = |path: &str, modules: &BTreeSet<String>| {
        modules.iter().any(|m| path.starts_with(m.as_str()))
    };
    let gone: BTreeSet<String> = old_modules.difference(&new_modules).cloned().collect();
    let come: BTreeSet<String> = new_modules.difference(&old_modules).cloned().collect();
    // Items that went, and whether another name now holds what they were made from.
    let added: Vec<&String> = new
        .items
        .keys()
        .filter(|p| !old.items.contains_key(*p) && !inside(p, &come))
        .collect();
    let mut renames: BTreeMap<&String, &String> = BTreeMap::new();
    for (path, item) in &old.items {
        if inside(path, &gone) || new.items.contains_key(path) {
            continue;
        }
        let taken: BTreeSet<&String> = renames.values().copied().collect();
        let found = added.iter().find(|p| {
            let candidate = &new.items[**p];
            candidate.identity == item.identity
                && std::mem::discriminant(&candidate.kind) == std::mem::discriminant(&item.kind)
                && !taken.contains(*p)
        });
        if let Some(&new_path) = found {
            renames.insert(path, new_path);
        }
    }
    // A renamed type is one finding, not one more in every signature that names it.
    let renamed = Renames(
        renames
            .iter()
            .filter(|(old_path, _)| {
                !matches!(
                    old.items[**old_path].kind,
                    Kind::Method(_) | Kind::TraitMethod(_)
                )
            })
            .map(|(a, b)| (format!("crate::{a}"), format!("crate::{b}")))
            .collect(),
    );
    for (path, item) in &old.items {
        if inside(path, &gone) {
            continue;
        }
        if let Some(now) = new.items.get(path) {
            compare_item(&mut out, &renamed, path, item, now);
            continue;
        }
        match renames.get(path) {
            Some(&new_path) => {
                let now = &new.items[new_path];
                let check = match item.kind {
                    Kind::Method(_) => RustCheck::MethodRenamed,
                    Kind::TraitMethod(_) => RustCheck::TraitMethodRenamed,
                    _ => RustCheck::TypeRenamed,
                };
                let message = format!("`{path}` is now `{new_path}`");
                out.push(check, Which::New, new_path, now, None, message);
                compare_item(&mut out, &renamed, new_path, item, now);
            }
            None => {
                let check = match item.kind {
                    Kind::Module => RustCheck::ModuleRemoved,
                    Kind::Method(_) => RustCheck::MethodRemoved,
                    Kind::TraitMethod(_) => RustCheck::TraitMethodRemoved,
                    _ => RustCheck::TypeRemoved,
                };
                let message = format!("{} `{path}` removed", item.kind.noun());
                out.push(check, Which::Old, path, item, None, message);
            }
        }
    }
    let targets: BTreeSet<&String> = renames.values().copied().collect();
    for path in added {
        if targets.contains(path) {
            continue;
        }
        let item = &new.items[path];
        let check = match item.kind {
            Kind::Module => RustCheck::ModuleAdded,
            Kind::Method(_) => RustCheck::MethodAdded,
            Kind::TraitMethod(_) => RustCheck::TraitMethodAdded,
            _ => RustCheck::TypeAdded,
        };
        let message = format!("{} `{path}` added", item.kind.noun());
        out.push(check, Which::New, path, item, None, message);
    }
    out.findings
}

/// Renamed types, as `crate::` paths: the old spelling of a type, with them applied, is the
/// new one when nothing else changed.
struct Renames(Vec<(String, String)>);

impl Renames {
    fn apply(&self, ty: &str) -> String {
        let mut text = ty.to_string();
        for (from, to) in &self.0 {
            let mut out = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(at) = rest.find(from.as_str()) {
                let end = at + from.len();
                let whole = !rest[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_');
                out.push_str(&rest[..at]);
                out.push_str(if whole { to } else { from });
                rest = &rest[end..];
            }
            out.push_str(rest);
            text = out;
        }
        text
    }
}

fn compare_item(out: &mut Out, renamed: &Renames, path: &str, old: &Item, new: &Item) {
    match (&old.kind, &new.kind) {
        (Kind::Module, Kind::Module) => {}
        (
            Kind::Struct {
                fields: a,
                default: had,
            },
            Kind::Struct {
                fields: b,
                default: has,
            },
        ) => {
            let a: Vec<Member> = a
                .iter()
                .map(|m| Member {
                    ty: renamed.apply(&m.ty),
                    ..m.clone()
                })
                .collect();
            fields(out, path, (old, new), (&a, b), *has);
            match (had, has) {
                (true, false) => out.push(
                    RustCheck::DefaultRemoved,
                    Which::New,
                    path,
                    new,
                    None,
                    format!("`{path}` no longer implements Default (a field is now required)"),
                ),
                (false, true) => out.push(
                    RustCheck::DefaultAdded,
                    Which::New,
                    path,
                    new,
                    None,
                    format!("`{path}` now implements Default"),
                ),
                _ => {}
            }
        }
        (Kind::Enum { variants: a }, Kind::Enum { variants: b }) => {
            let a: Vec<Variant> = a
                .iter()
                .map(|v| Variant {
                    payload: v.payload.iter().map(|t| renamed.apply(t)).collect(),
                    ..v.clone()
                })
                .collect();
            variants(out, path, new, &a, b)
        }
        (Kind::Newtype(a), Kind::Newtype(b)) | (Kind::Alias(a), Kind::Alias(b)) => {
            if renamed.apply(a) != *b {
                let message = format!("`{path}`: `{}` → `{}`", short(a), short(b));
                out.push(RustCheck::TypeChanged, Which::New, path, new, None, message);
            }
        }
        (Kind::Method(a), Kind::Method(b)) => {
            signature(out, path, new, &renamed_signature(renamed, a), b, false)
        }
        (Kind::TraitMethod(a), Kind::TraitMethod(b)) => {
            signature(out, path, new, &renamed_signature(renamed, a), b, true)
        }
        (a, b) => {
            let message = format!("`{path}`: {} → {}", a.noun(), b.noun());
            out.push(RustCheck::TypeChanged, Which::New, path, new, None, message);
        }
    }
}

fn renamed_signature(renamed: &Renames, sig: &Signature) -> Signature {
    Signature {
        args: sig
            .args
            .iter()
            .map(|m| Member {
                ty: renamed.apply(&m.ty),
                ..m.clone()
            })
            .collect(),
        ret: renamed.apply(&sig.ret),
        ..sig.clone()
    }
}

/// The pointer of a field's property, when the field is one.
fn property_pointer(item: &Item, wire: &str) -> Option<String> {
    Some(join(&join(&item.origin, "properties"), wire))
}

fn fields(
    out: &mut Out,
    path: &str,
    (old_item, item): (&Item, &Item),
    (old, new): (&[Member], &[Member]),
    default: bool,
) {
    let mut matched = vec![false; new.len()];
    for field in old {
        // By what it stands for first: a field whose name moved to another member is renamed.
        let found = new
            .iter()
            .position(|f| f.wire == field.wire)
            .or_else(|| new.iter().position(|f| f.name == field.name));
        let Some(index) = found.filter(|i| !matched[*i]) else {
            let message = format!("`{path}`: field `{}` removed", field.name);
            out.push(
                RustCheck::FieldRemoved,
                Which::Old,
                path,
                old_item,
                property_pointer(old_item, &field.wire),
                message,
            );
            continue;
        };
        matched[index] = true;
        let now = &new[index];
        let pointer = property_pointer(item, &now.wire);
        if now.name != field.name {
            let message = format!("`{path}`: field `{}` is now `{}`", field.name, now.name);
            out.push(
                RustCheck::FieldRenamed,
                Which::New,
                path,
                item,
                pointer.clone(),
                message,
            );
        }
        if now.ty != field.ty {
            let check = if now.ty == format!("Option<{}>", field.ty) {
                RustCheck::FieldOptionAdded
            } else if field.ty == format!("Option<{}>", now.ty) {
                RustCheck::FieldOptionRemoved
            } else {
                RustCheck::FieldTypeChanged
            };
            let message = format!(
                "`{path}`: field `{}`: `{}` → `{}`",
                now.name,
                short(&field.ty),
                short(&now.ty)
            );
            out.push(check, Which::New, path, item, pointer, message);
        }
    }
    for (index, field) in new.iter().enumerate() {
        if matched[index] {
            continue;
        }
        let optional = field.ty.starts_with("Option<");
        let (check, why) = if optional && default {
            (
                RustCheck::OptionalFieldAdded,
                "struct literals without `..Default::default()` break",
            )
        } else if optional {
            (
                RustCheck::FieldAdded,
                "every struct literal must give it: the struct has no Default",
            )
        } else {
            (RustCheck::FieldAdded, "every struct literal must give it")
        };
        let message = format!(
            "`{path}`: field `{}: {}` added; {why}",
            field.name,
            short(&field.ty)
        );
        out.push(
            check,
            Which::New,
            path,
            item,
            property_pointer(item, &field.wire),
            message,
        );
    }
}

fn variants(out: &mut Out, path: &str, item: &Item, old: &[Variant], new: &[Variant]) {
    let mut matched = vec![false; new.len()];
    for variant in old {
        // Among the variants not matched yet: the same alternative under the same name, then
        // under another, then the same name. Two alternatives of one type (`String`,
        // `String2`) are told apart by their names.
        let unmatched = |fits: &dyn Fn(&Variant) -> bool| {
            (0..new.len()).find(|&i| !matched[i] && fits(&new[i]))
        };
        let found = unmatched(&|v| v.wire == variant.wire && v.name == variant.name)
            .or_else(|| unmatched(&|v| v.wire == variant.wire))
            .or_else(|| unmatched(&|v| v.name == variant.name));
        let Some(index) = found else {
            let message = format!("`{path}`: variant `{}` removed", variant.name);
            out.push(
                RustCheck::VariantRemoved,
                Which::Old,
                path,
                item,
                None,
                message,
            );
            continue;
        };
        matched[index] = true;
        let now = &new[index];
        if now.name != variant.name {
            let message = format!("`{path}`: variant `{}` is now `{}`", variant.name, now.name);
            out.push(
                RustCheck::VariantRenamed,
                Which::New,
                path,
                item,
                None,
                message,
            );
        }
        if now.payload != variant.payload {
            let show = |p: &[String]| p.iter().map(|t| short(t)).collect::<Vec<_>>().join(", ");
            let message = format!(
                "`{path}`: variant `{}`: ({}) → ({})",
                now.name,
                show(&variant.payload),
                show(&now.payload)
            );
            out.push(
                RustCheck::VariantPayloadChanged,
                Which::New,
                path,
                item,
                None,
                message,
            );
        }
    }
    for (index, variant) in new.iter().enumerate() {
        if !matched[index] {
            let message = format!(
                "`{path}`: variant `{}` added; exhaustive matches break",
                variant.name
            );
            out.push(
                RustCheck::VariantAdded,
                Which::New,
                path,
                item,
                None,
                message,
            );
        }
    }
}

fn signature(
    out: &mut Out,
    path: &str,
    item: &Item,
    old: &Signature,
    new: &Signature,
    in_trait: bool,
) {
    let mut changes = Vec::new();
    if old.receiver != new.receiver || old.is_async != new.is_async {
        changes.push("receiver or asyncness changed".to_string());
    }
    let types = |args: &[Member]| args.iter().map(|a| a.ty.clone()).collect::<Vec<_>>();
    let mut shifted = Vec::new();
    if types(&old.args) == types(&new.args) {
        // Calls still type-check: any argument that now stands for another parameter is a
        // silent change.
        for (index, (a, b)) in old.args.iter().zip(&new.args).enumerate() {
            if a.wire != b.wire {
                shifted.push(format!(
                    "argument {} `{}` → `{}`",
                    index + 1,
                    a.wire,
                    b.wire
                ));
            }
        }
    } else {
        // By what they stand for: added, removed, retyped; else only their order changed.
        for (index, b) in new.args.iter().enumerate() {
            match old.args.iter().find(|a| a.wire == b.wire) {
                None => changes.push(format!(
                    "argument {} `{}: {}` added",
                    index + 1,
                    b.name,
                    short(&b.ty)
                )),
                Some(a) if a.ty != b.ty => changes.push(format!(
                    "argument `{}`: `{}` → `{}`",
                    b.name,
                    short(&a.ty),
                    short(&b.ty)
                )),
                Some(_) => {}
            }
        }
        for a in &old.args {
            if !new.args.iter().any(|b| b.wire == a.wire) {
                changes.push(format!("argument `{}: {}` removed", a.name, short(&a.ty)));
            }
        }
        if changes.is_empty() {
            let names = |args: &[Member]| {
                args.iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            changes.push(format!(
                "arguments reordered: ({}) → ({})",
                names(&old.args),
                names(&new.args)
            ));
        }
    }
    if old.ret != new.ret {
        changes.push(format!(
            "returns `{}` → `{}`",
            short(&old.ret),
            short(&new.ret)
        ));
    }
    if !changes.is_empty() {
        let check = if in_trait {
            RustCheck::TraitMethodSignatureChanged
        } else {
            RustCheck::MethodSignatureChanged
        };
        let message = format!("`{path}`: {}", changes.join("; "));
        out.push(check, Which::New, path, item, None, message);
    } else if !shifted.is_empty() && !in_trait {
        let message = format!(
            "`{path}`: calls still compile, but pass their values as other parameters: {}",
            shifted.join("; ")
        );
        out.push(
            RustCheck::MethodArgumentsShifted,
            Which::New,
            path,
            item,
            None,
            message,
        );
    }
}
