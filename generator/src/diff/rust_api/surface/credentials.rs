//! The items of the generated `credentials` module: the `Credentials` struct, one field per
//! security scheme, and its methods.

use quote::ToTokens;

use super::items::{Kind, Surface};
use super::tokens::{emit_error, locals, signature, struct_fields};
use crate::emit;
use crate::error::Result;
use crate::ir::Api;

pub(super) fn credentials(api: &Api, surface: &mut Surface) -> Result<()> {
    let file = emit::runtime::credentials(api)?;
    let parsed = syn::parse_file(&file.contents)
        .map_err(|err| emit_error(format!("reading back credentials.rs: {err}")))?;
    let local = locals(&[]);
    for item in &parsed.items {
        match item {
            syn::Item::Struct(item) if item.ident == "Credentials" => {
                let mut fields = struct_fields(item, "credentials", &local);
                for field in &mut fields {
                    if let Some(scheme) = api
                        .security_schemes
                        .iter()
                        .find(|s| s.rust_name == field.name)
                    {
                        field.wire = scheme.key.clone();
                    }
                }
                surface.insert(
                    "credentials::Credentials".into(),
                    Kind::Struct {
                        fields,
                        default: true,
                    },
                    "#/components/securitySchemes",
                    "credentials".into(),
                );
            }
            syn::Item::Impl(block)
                if block.self_ty.to_token_stream().to_string() == "Credentials" =>
            {
                for inner in &block.items {
                    if let syn::ImplItem::Fn(method) = inner {
                        let mut sig = signature(&method.sig, "credentials", &local);
                        for arg in &mut sig.args {
                            if let Some(scheme) = api
                                .security_schemes
                                .iter()
                                .find(|s| s.rust_name == arg.name)
                            {
                                arg.wire = scheme.key.clone();
                            }
                        }
                        surface.insert(
                            format!("credentials::Credentials::{}", method.sig.ident),
                            Kind::Method(sig),
                            "#/components/securitySchemes",
                            format!("credentials {}", method.sig.ident),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}
