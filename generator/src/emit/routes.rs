//! How the generated server's router is built: operations grouped by axum route and method,
//! the route text axum is given, a dispatcher where several operations share one route and
//! method, and the `Router` expression itself (chained, or one `route` call per feature gate).

use std::collections::BTreeMap;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::error::Result;
use crate::ir::{Api, Method, Operation};

/// The expression that builds the router (without its fallbacks and state), and the
/// dispatchers it names, for every operation of `api` under `base`.
pub(super) fn router(api: &Api, base: &str) -> Result<(TokenStream, Vec<TokenStream>)> {
    // Operations by axum route and method. Routes name each parameter segment by its
    // position, so templates that differ only in parameter names, or that mix a parameter and
    // text in one segment (`{name}:cancel`, `{id}.json`, which axum cannot route), share a
    // route; each handler matches the request against its own template.
    let mut routes: BTreeMap<String, BTreeMap<Method, Vec<&Operation>>> = BTreeMap::new();
    for op in &api.operations {
        routes
            .entry(axum_route(&format!("{base}{}", op.path)))
            .or_default()
            .entry(op.method)
            .or_default()
            .push(op);
    }
    let mut dispatchers = Vec::new();
    // (route, method router, its gate) for every route and method.
    let mut entries: Vec<(String, TokenStream, TokenStream)> = Vec::new();
    for by_method in routes.values() {
        // The route keeps the parameter names of its first operation, so axum's matched
        // path (what logs show) reads like the spec.
        let first = by_method
            .values()
            .flatten()
            .next()
            .expect("a route has operations");
        let route = route_text(&format!("{base}{}", first.path));
        for (method, ops) in by_method {
            let verb = format_ident!("{}", method.key());
            let (target, gate) = match ops.as_slice() {
                [only] => {
                    let handler = format_ident!("handle_{}", only.fn_name);
                    (
                        quote!(#handler::<A>),
                        super::tag_features::operation(api, only),
                    )
                }
                several => {
                    let (name, tokens) = dispatcher(several, base, dispatchers.len());
                    let gate = super::tag_features::all_operations(api, several);
                    dispatchers.push(super::tag_features::gate(tokens, &gate)?);
                    (quote!(#name::<A>), gate)
                }
            };
            entries.push((route.clone(), quote!(#verb(#target)), gate));
        }
    }
    let build_router = if api.tag_features.is_some() {
        // Each method of a route behind its operation's feature: one `route` call each (axum
        // merges the methods of a path).
        let statements = entries.iter().map(|(route, method, gate)| {
            quote! {
                #gate
                let router = router.route(#route, ::axum::routing::#method);
            }
        });
        quote! {
            ({
                let router = ::axum::Router::new();
                #(#statements)*
                router
            })
        }
    } else {
        let mut chained: Vec<TokenStream> = Vec::new();
        let mut index = 0;
        while index < entries.len() {
            let route = &entries[index].0;
            let mut methods = Vec::new();
            while index < entries.len() && &entries[index].0 == route {
                methods.push(entries[index].1.clone());
                index += 1;
            }
            let first = &methods[0];
            let rest = &methods[1..];
            chained.push(quote!(.route(#route, ::axum::routing::#first #(.#rest)*)));
        }
        quote!(::axum::Router::new() #(#chained)*)
    };
    Ok((build_router, dispatchers))
}

/// The route a template is grouped under: every segment holding a parameter becomes
/// `{p<n>}`, `n` its position, so templates that differ only in parameter names meet.
fn axum_route(template: &str) -> String {
    template
        .split('/')
        .enumerate()
        .map(|(index, segment)| {
            if segment.contains('{') {
                format!("{{p{index}}}")
            } else {
                segment.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The route axum is given for a template: a segment that is one parameter keeps its name,
/// a segment mixing text and parameters (which axum refuses) becomes `{p<n>}`.
fn route_text(template: &str) -> String {
    template
        .split('/')
        .enumerate()
        .map(|(index, segment)| {
            let whole = segment.starts_with('{')
                && segment.ends_with('}')
                && segment.matches('{').count() == 1;
            if segment.contains('{') && !whole {
                format!("{{p{index}}}")
            } else {
                segment.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A handler for operations sharing a route and method (`/v1/{name}:cancel` and
/// `/v1/{name}:run`): the first whose template the path matches, the one with the most text
/// first.
fn dispatcher(ops: &[&Operation], base: &str, index: usize) -> (Ident, TokenStream) {
    let name = format_ident!("dispatch_{index}");
    let mut ordered: Vec<&&Operation> = ops.iter().collect();
    ordered.sort_by_key(|op| {
        let literal: usize = op
            .path
            .split('{')
            .map(|part| part.split_once('}').map_or(part, |(_, text)| text).len())
            .sum();
        (std::cmp::Reverse(literal), op.path.clone())
    });
    let arms = ordered.iter().map(|op| {
        let template = format!("{base}{}", op.path);
        let handler = format_ident!("handle_{}", op.fn_name);
        quote! {
            if path::params(#template, request.uri().path()).is_some() {
                return #handler::<A>(::axum::extract::State(shared), request).await;
            }
        }
    });
    let tokens = quote! {
        async fn #name<A: Api>(
            ::axum::extract::State(shared): ::axum::extract::State<Arc<Shared<A>>>,
            request: ::axum::extract::Request,
        ) -> Response {
            #(#arms)*
            not_found(request.uri().clone()).await
        }
    };
    (name, tokens)
}
