//! A user crate written against a generated crate: it names every public item of the crate's
//! surface ([`specgen::diff::rust_api::Surface`]) in the most demanding way legal Rust allows
//! (every struct built with a literal naming every field, every enum matched exhaustively with
//! its payloads' types spelled out, every trait implemented, every method called with
//! arguments of the types it takes and its result taken as the type it returns). Compiled
//! against the crate it was written for, it must build; against a new crate, it fails exactly
//! when something user code may rely on changed: a major change.

use std::fmt::Write;

use specgen::diff::rust_api::{Kind, Signature, Surface};

/// A type of the surface as the user crate spells it: the generated crate is `api`.
fn ty(text: &str) -> String {
    text.replace("crate::", "api::")
}

/// `api::a::B` for the surface path `a::B`.
fn path(surface_path: &str) -> String {
    format!("api::{surface_path}")
}

/// The `X` of `impl ::std::future::Future<Output = X> + Send`.
fn future_output(ret: &str) -> Option<&str> {
    let start = ret.find("Output = ")? + "Output = ".len();
    let end = ret.rfind("> + Send")?;
    Some(&ret[start..end])
}

/// The Cargo.toml of a probe using the generated crate `package` (in `../package`).
pub fn cargo_toml(name: &str, package: &str) -> String {
    format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
api = {{ path = "../{package}", package = "{package}", features = ["server", "client", "webhooks"] }}
axum = {{ version = "0.8", default-features = false }}
chrono = {{ version = "0.4", default-features = false, features = ["std", "serde"] }}
http = "1"
serde_json = "1"
uuid = "1"
"#
    )
}

/// The probe's `src/lib.rs` for a surface.
pub fn source(surface: &Surface) -> String {
    let mut out = String::from(
        "//! Uses every public item of the generated crate `api`, as a user may.\n\
         #![allow(unused, clippy::all, non_snake_case, non_camel_case_types)]\n\n\
         pub struct Probe;\n\n",
    );
    let mut traits: Vec<(String, Vec<(String, &Signature)>)> = Vec::new();
    for (index, (item_path, item)) in surface.items.iter().enumerate() {
        let name = path(item_path);
        match &item.kind {
            Kind::Module => {}
            Kind::Struct { fields, default } => {
                let args: Vec<String> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| format!("f{i}: {}", ty(&f.ty)))
                    .collect();
                let inits: Vec<String> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| format!("{}: f{i}", f.name))
                    .collect();
                let _ = writeln!(
                    out,
                    "pub fn build_{index}({}) -> {name} {{ {name} {{ {} }} }}",
                    args.join(", "),
                    inits.join(", ")
                );
                if *default {
                    let _ = writeln!(
                        out,
                        "pub fn default_{index}() -> {name} {{ Default::default() }}"
                    );
                }
            }
            Kind::Enum { variants } => {
                let arms: Vec<String> = variants
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        if v.payload.is_empty() {
                            format!("{name}::{} => {i},", v.name)
                        } else {
                            let binds: Vec<String> =
                                (0..v.payload.len()).map(|j| format!("p{j}")).collect();
                            let checks: Vec<String> = v
                                .payload
                                .iter()
                                .enumerate()
                                .map(|(j, t)| format!("let _: &{} = p{j};", ty(t)))
                                .collect();
                            format!(
                                "{name}::{}({}) => {{ {} {i} }}",
                                v.name,
                                binds.join(", "),
                                checks.join(" ")
                            )
                        }
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "pub fn match_{index}(x: &{name}) -> usize {{ match x {{ {} }} }}",
                    arms.join(" ")
                );
            }
            Kind::Newtype(inner) => {
                let inner = ty(inner);
                let _ = writeln!(
                    out,
                    "pub fn wrap_{index}(x: {inner}) -> {name} {{ {name}(x) }}\n\
                     pub fn unwrap_{index}(x: {name}) -> {inner} {{ x.0 }}"
                );
            }
            Kind::Alias(target) => {
                let target = ty(target);
                let _ = writeln!(
                    out,
                    "pub fn alias_{index}(x: {target}) -> {name} {{ x }}\n\
                     pub fn unalias_{index}(x: {name}) -> {target} {{ x }}"
                );
            }
            Kind::Method(sig) => {
                let (owner, method) = item_path.rsplit_once("::").unwrap_or_default();
                let owner = path(owner);
                let mut args: Vec<String> = Vec::new();
                if sig.receiver.is_some() {
                    args.push(format!("this: &{owner}"));
                }
                args.extend(
                    sig.args
                        .iter()
                        .enumerate()
                        .map(|(i, a)| format!("a{i}: {}", ty(&a.ty))),
                );
                let values: Vec<String> = (0..sig.args.len()).map(|i| format!("a{i}")).collect();
                let call = match sig.receiver {
                    Some(_) => format!("this.{method}({})", values.join(", ")),
                    None => format!("{owner}::{method}({})", values.join(", ")),
                };
                let (asyncness, call) = if sig.is_async {
                    ("async ", format!("{call}.await"))
                } else {
                    ("", call)
                };
                let _ = writeln!(
                    out,
                    "pub {asyncness}fn call_{index}({}) -> {} {{ {call} }}",
                    args.join(", "),
                    ty(&sig.ret)
                );
            }
            Kind::TraitMethod(sig) => {
                let (owner, method) = item_path.rsplit_once("::").unwrap_or_default();
                let owner = path(owner);
                match traits.iter_mut().find(|(name, _)| *name == owner) {
                    Some((_, methods)) => methods.push((method.to_string(), sig)),
                    None => traits.push((owner, vec![(method.to_string(), sig)])),
                }
            }
        }
    }
    for (owner, methods) in traits {
        let _ = writeln!(out, "\nimpl {owner} for Probe {{");
        for (method, sig) in methods {
            let args: Vec<String> = sig
                .args
                .iter()
                .enumerate()
                .map(|(i, a)| format!(", a{i}: {}", ty(&a.ty)))
                .collect();
            let output = future_output(&sig.ret)
                .map(ty)
                .unwrap_or_else(|| "()".into());
            let _ = writeln!(
                out,
                "    fn {method}(&self{}) -> {} {{ async {{ let value: {output} = todo!(); value }} }}",
                args.concat(),
                ty(&sig.ret)
            );
        }
        let _ = writeln!(out, "}}");
    }
    out
}
