//! The generated crate's shared runtime: credentials (`src/credentials.rs`), the contract's
//! request and payload rules compiled once (`src/validation.rs`, for the server and the
//! webhook receiver), and retry with backoff and `Retry-After` plus the HTTPS check
//! (`src/retry.rs`, for the client and the webhook sender). Only `credentials.rs` depends on
//! the IR: it has one field per security scheme; the other two are `generator/runtime/`
//! files, spliced in whole.

use quote::quote;

use super::types::{doc_attrs, ident};
use super::{GeneratedFile, rust_file};
use crate::error::Result;
use crate::ir::{Api, ParamLocation, SecurityKind};

/// `src/credentials.rs`.
pub fn credentials(api: &Api) -> Result<GeneratedFile> {
    let fields = &api.credentials;
    let mut declarations = Vec::new();
    let mut params = Vec::new();
    let mut inits = Vec::new();
    for field in fields {
        let name = ident(&field.scheme.rust_name);
        let basic = field.scheme.kind == SecurityKind::Basic;
        let where_ = match (&field.scheme.kind, field.location) {
            (kind, _) if kind.is_bearer_token() => "the `Authorization: Bearer` header".to_string(),
            (SecurityKind::Basic, _) => "the `Authorization: Basic` header".to_string(),
            (SecurityKind::Http(word), _) => {
                format!("the `Authorization` header as `{word} <this value>`")
            }
            (_, location) => format!("the `{}` {}", field.name, location_word(location)),
        };
        let ty = if basic {
            quote!(BasicAuth)
        } else {
            quote!(Secret)
        };
        let mut text = field.scheme.docs.clone().unwrap_or_default();
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(&format!(
            "Sent in {where_} (security scheme `{}`).",
            field.scheme.key
        ));
        let docs = doc_attrs(Some(&text));
        if field.required {
            declarations.push(quote! { #docs pub #name: #ty, });
            params.push(quote!(#name: impl Into<#ty>));
            inits.push(quote!(#name: #name.into()));
        } else {
            declarations.push(quote! { #docs pub #name: Option<#ty>, });
            inits.push(quote!(#name: None));
        }
    }
    // A user name and password, only where a scheme asks for them: other APIs' crates stay
    // as they were.
    let basic_auth = fields
        .iter()
        .any(|field| field.scheme.kind == SecurityKind::Basic)
        .then(|| {
            quote! {
                /// A user name and password for HTTP Basic authentication (RFC 7617). `Debug`
                /// shows neither: a user name (an account id, an e-mail) identifies the caller.
                #[derive(Clone, Default, PartialEq, Eq)]
                pub struct BasicAuth {
                    /// The user name.
                    pub username: String,
                    /// The password.
                    pub password: Secret,
                }

                impl BasicAuth {
                    /// A user name and its password.
                    pub fn new(username: impl Into<String>, password: impl Into<Secret>) -> BasicAuth {
                        BasicAuth { username: username.into(), password: password.into() }
                    }
                }

                impl ::std::fmt::Debug for BasicAuth {
                    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str("BasicAuth { username: [redacted], password: [redacted] }")
                    }
                }
            }
        });
    rust_file(
        "src/credentials.rs",
        quote! {
            //! Credentials the API's security schemes ask for. Their values are never printed:
            //! `Debug` shows `[redacted]`.

            /// A secret value; `Debug` and `Display` never show it.
            #[derive(Clone, Default, PartialEq, Eq)]
            pub struct Secret(String);

            impl Secret {
                /// Wraps a secret value.
                pub fn new(value: impl Into<String>) -> Secret {
                    Secret(value.into())
                }

                /// The value, for sending it; never log it.
                pub fn expose(&self) -> &str {
                    &self.0
                }
            }

            impl ::std::fmt::Debug for Secret {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    f.write_str("[redacted]")
                }
            }

            impl ::std::fmt::Display for Secret {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    f.write_str("[redacted]")
                }
            }

            impl From<&str> for Secret {
                fn from(value: &str) -> Secret {
                    Secret(value.to_string())
                }
            }

            impl From<String> for Secret {
                fn from(value: String) -> Secret {
                    Secret(value)
                }
            }

            #basic_auth

            /// The credentials a caller presents.
            #[derive(Debug, Clone, Default, PartialEq, Eq)]
            pub struct Credentials {
                #(#declarations)*
            }

            impl Credentials {
                /// Credentials with every required value.
                pub fn new(#(#params),*) -> Credentials {
                    Credentials { #(#inits),* }
                }
            }
        },
    )
}

/// How a parameter's location reads in a sentence ("the `x` header").
pub(crate) fn location_word(location: ParamLocation) -> &'static str {
    match location {
        ParamLocation::Header => "header",
        ParamLocation::Query => "query parameter",
        ParamLocation::Cookie => "cookie",
        ParamLocation::Path => "path parameter",
    }
}

/// `src/retry.rs`: `generator/runtime/retry.rs`, the same for every API.
pub fn retry() -> Result<GeneratedFile> {
    Ok(super::printed_file(
        "src/retry.rs",
        super::splice::module_text("retry.rs"),
    ))
}

/// `src/validation.rs`: `generator/runtime/validation.rs` (with `manifest.rs`), the same for
/// every API.
pub fn validation() -> Result<GeneratedFile> {
    Ok(super::printed_file(
        "src/validation.rs",
        super::splice::module_text("validation.rs"),
    ))
}
