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
    let mut dispatchers = Vec::new();
    // (route, method router, its gate) for every route and method.
    let mut entries: Vec<(String, TokenStream, TokenStream)> = Vec::new();
    for (route, by_method) in routes(api, base) {
        for (method, ops) in &by_method {
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
        chain_in_statements(&chained)
    };
    Ok((build_router, dispatchers))
}

/// The operations of `api` under `base`, by the route axum is given and method. Routes name
/// each parameter segment by its position, so templates that differ only in parameter names,
/// or that mix a parameter and text in one segment (`{name}:cancel`, `{id}.json`, which axum
/// cannot route), share a route; each handler matches the request against its own template.
pub(crate) fn routes<'a>(
    api: &'a Api,
    base: &str,
) -> Vec<(String, BTreeMap<Method, Vec<&'a Operation>>)> {
    let mut grouped: BTreeMap<String, BTreeMap<Method, Vec<&Operation>>> = BTreeMap::new();
    // A template with a parameter that fills any number of segments is no axum route: see
    // [`spanning`].
    for op in api.operations.iter().filter(|op| !op.spans_segments()) {
        grouped
            .entry(axum_route(&format!(
                "{base}{}",
                crate::path::wire(&op.path)
            )))
            .or_default()
            .entry(op.method)
            .or_default()
            .push(op);
    }
    // The route keeps the parameter names of its first operation, so axum's matched path
    // (what logs show) reads like the spec; read before a broader route lends it operations.
    let texts: BTreeMap<String, String> = grouped
        .iter()
        .map(|(key, by_method)| {
            let first = by_method
                .values()
                .flatten()
                .next()
                .expect("a route has operations");
            let text = server_route_text(&format!("{base}{}", crate::path::wire(&first.path)));
            (key.clone(), text)
        })
        .collect();
    lend_methods_to_narrower_routes(&mut grouped, base);
    grouped
        .into_iter()
        .map(|(key, by_method)| (texts[&key].clone(), by_method))
        .collect()
}

/// Gives a route the methods it lacks that a broader route has, whose template matches every
/// path the route does (`/{kind}/{id}` beside `/things/{id}`): axum picks the route by path
/// alone and answers 405 to a method it lacks, so `PATCH /things/5` never reached
/// `PATCH /{kind}/{id}`, which specval (matching path and method together) sees it as. Each
/// handler matches the request against its own template, so a lent one reads its parameters
/// as usual.
fn lend_methods_to_narrower_routes(
    grouped: &mut BTreeMap<String, BTreeMap<Method, Vec<&Operation>>>,
    base: &str,
) {
    // Split once, and compared only with routes of as many segments: Microsoft Graph has
    // thousands of routes.
    let mut by_length: BTreeMap<usize, Vec<(&str, Vec<&str>)>> = BTreeMap::new();
    for route in grouped.keys() {
        let segments: Vec<&str> = route.split('/').collect();
        by_length
            .entry(segments.len())
            .or_default()
            .push((route.as_str(), segments));
    }
    let mut lent: Vec<(String, Method, Vec<&Operation>)> = Vec::new();
    for routes in by_length.values() {
        for (narrow, narrow_segments) in routes {
            let own = &grouped[*narrow];
            let mut given: BTreeMap<Method, Vec<&Operation>> = BTreeMap::new();
            // Routes whose parameters stand where the narrow one has text, or the same text:
            // only their operations' templates can cover it.
            let broader = routes.iter().filter(|(broad, broad_segments)| {
                broad != narrow
                    && broad_segments
                        .iter()
                        .zip(narrow_segments)
                        .all(|(b, n)| b == n || b.starts_with('{'))
            });
            for (broad, _) in broader {
                for (method, ops) in &grouped[*broad] {
                    if own.contains_key(method) {
                        continue;
                    }
                    let covering = ops.iter().filter(|op| {
                        covers(
                            &format!("{base}{}", crate::path::wire(&op.path)),
                            narrow_segments,
                        )
                    });
                    given.entry(*method).or_default().extend(covering);
                }
            }
            // Several are told apart by the dispatcher, which orders them itself.
            lent.extend(
                given
                    .into_iter()
                    .filter(|(_, ops)| !ops.is_empty())
                    .map(|(method, ops)| (narrow.to_string(), method, ops)),
            );
        }
    }
    for (route, method, ops) in lent {
        if let Some(by_method) = grouped.get_mut(&route) {
            by_method.insert(method, ops);
        }
    }
}

/// Whether the template `broad` matches every path the route of `narrow` segments (as
/// [`axum_route`] writes it) does: as many segments, each of the template's a whole parameter
/// (`{kind}`) or the same text, where the route's is text.
fn covers(broad: &str, narrow: &[&str]) -> bool {
    let broad: Vec<&str> = broad.split('/').collect();
    broad.len() == narrow.len()
        && broad.iter().zip(narrow).all(|(template, route)| {
            let parameter = template.starts_with('{')
                && template.ends_with('}')
                && template.matches('{').count() == 1;
            parameter || (template == route && !route.starts_with('{'))
        })
}

/// The most `.route(…)` calls chained in one expression. A method chain is a nested
/// expression, which prettyplease (and rustc) walk recursively: Microsoft Graph's 5,000 routes
/// in one chain overflowed the printing thread's stack.
const ROUTES_PER_CHAIN: usize = 64;

/// `Router::new()` followed by `calls`: one chain while they are few (as a person writes it), a
/// statement per [`ROUTES_PER_CHAIN`] calls beyond that.
fn chain_in_statements(calls: &[TokenStream]) -> TokenStream {
    if calls.len() <= ROUTES_PER_CHAIN {
        return quote!(::axum::Router::new() #(#calls)*);
    }
    let chunks: Vec<&[TokenStream]> = calls.chunks(ROUTES_PER_CHAIN).collect();
    let (first, rest) = chunks
        .split_first()
        .expect("more calls than one chain holds");
    let (last, middle) = rest.split_last().expect("more calls than one chain holds");
    let middle = middle
        .iter()
        .map(|chunk| quote!(let router = router #(#chunk)*;));
    quote! {
        ({
            let router = ::axum::Router::new() #(#first)*;
            #(#middle)*
            router #(#last)*
        })
    }
}

/// The route a template is grouped under: every segment holding a parameter, or text axum
/// would read as one (see [`routed_by_position`]), becomes `{p<n>}`, `n` its position, so
/// templates that differ only in parameter names meet.
fn axum_route(template: &str) -> String {
    template
        .split('/')
        .enumerate()
        .map(|(index, segment)| {
            if segment.contains('{') || routed_by_position(segment) || encoded_in_requests(segment)
            {
                format!("{{p{index}}}")
            } else {
                segment.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The route axum is given for a template: a segment that is one parameter with a plain name
/// keeps it; a segment mixing text and parameters (which axum refuses), a parameter whose
/// name axum reads otherwise (`{*path}`, `{na me}`) and text axum refuses or reads as a
/// parameter (see [`routed_by_position`]) become `{p<n>}`. Every handler matches the request
/// against its own template, so a positional segment takes only what the template allows.
pub(crate) fn route_text(template: &str) -> String {
    route_text_by(template, routed_by_position)
}

/// [`route_text`] for the server, whose handlers match their own template: text a request
/// carries percent-encoded is routed by position too (see [`encoded_in_requests`]).
fn server_route_text(template: &str) -> String {
    route_text_by(template, |segment| {
        routed_by_position(segment) || encoded_in_requests(segment)
    })
}

fn route_text_by(template: &str, positional: impl Fn(&str) -> bool) -> String {
    template
        .split('/')
        .enumerate()
        .map(|(index, segment)| {
            let plain_parameter = segment
                .strip_prefix('{')
                .and_then(|rest| rest.strip_suffix('}'))
                .is_some_and(|name| {
                    !name.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                });
            if (segment.contains('{') && !plain_parameter) || positional(segment) {
                format!("{{p{index}}}")
            } else {
                segment.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Text axum 0.8 refuses in a route, as the way version 0.7 wrote parameters (`/users/:id`,
/// `/files/*`; Express-style templates some specs keep), unless the router turns that check
/// off, which a router merged into the user's own would turn back on.
fn routed_by_position(segment: &str) -> bool {
    segment.starts_with([':', '*'])
}

/// Text a request carries percent-encoded (`/café`, `/price list`: anything but RFC 3986's
/// unreserved characters, sub-delimiters, `:` and `@`), which axum compares as sent
/// (`caf%C3%A9`, or `caf%c3%a9` from another client): the server routes it by position, and
/// each handler's template matching reads it however it was encoded.
fn encoded_in_requests(segment: &str) -> bool {
    !segment
        .bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@{}".contains(&byte))
}

/// A handler for operations sharing a route and method (`/v1/{name}:cancel` and
/// `/v1/{name}:run`; `/search?type=user` and `/search?type=repo`): the first whose template
/// the request matches, in [`Operation::dispatch_order`].
fn dispatcher(ops: &[&Operation], base: &str, index: usize) -> (Ident, TokenStream) {
    let name = format_ident!("dispatch_{index}");
    let arms = dispatch_arms(ops, base, quote!())
        .into_iter()
        .map(|(_, arm)| arm);
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

/// The router's fallbacks, where operations whose path has a parameter filling any number of
/// segments (`/{+scope}/providers/…`, see [`crate::path::spans_segments`]) are found: axum's
/// routes hold a catch-all only at their end, so such operations are tried, method by method
/// as a dispatcher tries its operations, where no route matched the path (`fallback_`) or
/// none had the method (`method_fallback_`), before the 404 or 405. `None` when the API has
/// none: the plain `not_found` and `method_not_allowed` are the fallbacks.
pub(super) fn spanning(api: &Api, base: &str) -> Result<Option<TokenStream>> {
    let mut by_method: BTreeMap<Method, Vec<&Operation>> = BTreeMap::new();
    for op in api.operations.iter().filter(|op| op.spans_segments()) {
        by_method.entry(op.method).or_default().push(op);
    }
    if by_method.is_empty() {
        return Ok(None);
    }
    let mut arms = Vec::new();
    for (method, ops) in &by_method {
        let verb = format_ident!("{}", method.key().to_ascii_uppercase());
        // Each behind its operation's feature, where operations are.
        arms.extend(
            dispatch_arms(
                ops,
                base,
                quote!(request.method() == ::http::Method::#verb &&),
            )
            .into_iter()
            .map(|(op, arm)| {
                let gate = super::tag_features::operation(api, op);
                quote!(#gate #arm)
            }),
        );
    }
    let mut templates: BTreeMap<String, Vec<&Operation>> = BTreeMap::new();
    for op in by_method.values().flatten() {
        templates
            .entry(format!("{base}{}", op.matching_template()))
            .or_default()
            .push(op);
    }
    let templates = templates.iter().map(|(template, ops)| {
        let gate = super::tag_features::all_operations(api, ops);
        quote!(#gate #template,)
    });
    Ok(Some(quote! {
        async fn fallback_<A: Api>(
            shared: ::axum::extract::State<Arc<Shared<A>>>,
            request: ::axum::extract::Request,
        ) -> Response {
            spanning_::<A>(shared, request, false).await
        }

        async fn method_fallback_<A: Api>(
            shared: ::axum::extract::State<Arc<Shared<A>>>,
            request: ::axum::extract::Request,
        ) -> Response {
            spanning_::<A>(shared, request, true).await
        }

        /// The operation of a path with a parameter filling several segments; else 405 where
        /// the path is known (`path_known`: a route has it) or such a template matches it,
        /// and 404.
        async fn spanning_<A: Api>(
            ::axum::extract::State(shared): ::axum::extract::State<Arc<Shared<A>>>,
            request: ::axum::extract::Request,
            path_known: bool,
        ) -> Response {
            // Unused where per-tag features leave out every such operation.
            let _ = &shared;
            #(#arms)*
            let templates: &[&'static str] = &[#(#templates)*];
            if path_known
                || templates
                    .iter()
                    .any(|template| path::params(template, request.uri().path()).is_some())
            {
                return method_not_allowed(request.method().clone(), request.uri().clone()).await;
            }
            not_found(request.uri().clone()).await
        }
    }))
}

/// One `if` per operation, in the order a dispatcher tries them (see [`dispatcher`]), each
/// returning its handler's answer when the request is the operation's.
fn dispatch_arms<'a>(
    ops: &[&'a Operation],
    base: &str,
    condition: TokenStream,
) -> Vec<(&'a Operation, TokenStream)> {
    let mut ordered: Vec<&&Operation> = ops.iter().collect();
    ordered.sort_by_key(|op| op.dispatch_order());
    let arms = ordered.iter().enumerate().map(|(index, op)| {
        let template = format!("{base}{}", op.matching_template());
        let handler = format_ident!("handle_{}", op.fn_name);
        let asked = op.asks();
        let asks = if asked.is_empty() {
            quote!()
        } else {
            let pairs = asked.iter().map(|(name, value)| match value {
                Some(value) => quote!((#name, Some(#value))),
                None => quote!((#name, None)),
            });
            quote!(&& asked(&[#(#pairs),*], &request))
        };
        // Paths that differ only in their parameters' names (Xero's `/Contacts/{ContactID}`
        // and `/Contacts/{ContactNumber}`): the first whose parameters keep its schemas, as
        // specval reads the request; the last takes what none of them fits, to refuse it.
        let shape = op.route_shape();
        let told_by_values = ordered[index + 1..]
            .iter()
            .any(|later| later.route_shape() == shape && later.asks() == asked);
        let fits = if told_by_values {
            let id = &op.id;
            quote!(&& path_fits(#id, #template, &request))
        } else {
            quote!()
        };
        let arm = quote! {
            if #condition path::params(#template, request.uri().path()).is_some() #asks #fits {
                return #handler::<A>(::axum::extract::State(shared), request).await;
            }
        };
        (**op, arm)
    });
    arms.collect()
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::{ROUTES_PER_CHAIN, chain_in_statements};

    /// Documents to read: this API's spec, every fixture, the corpus, and every document under
    /// `SPECGEN_ROUTES_DIR` (the APIs.guru directory, for a sweep).
    fn documents() -> Vec<std::path::PathBuf> {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>, deep: bool) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    if deep {
                        walk(&path, out, deep);
                    }
                } else if path
                    .extension()
                    .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
                {
                    out.push(path);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = vec![root.join("../spec/openapi.yaml")];
        walk(&root.join("tests/fixtures"), &mut out, false);
        walk(&root.join("../../shared/corpus"), &mut out, false);
        walk(&root.join("../../shared/corpus/real"), &mut out, false);
        if let Some(dir) = std::env::var_os("SPECGEN_ROUTES_DIR") {
            walk(std::path::Path::new(&dir), &mut out, true);
        }
        out
    }

    /// axum checks a route when the router is built and panics on one it refuses, so such a
    /// route made a generated server unusable for every request: a template without its
    /// leading `/`, or with a segment axum 0.8 refuses (`/users/:id`, `/files/*`, Express
    /// style) or reads as a catch-all (`{*path}`). Every route of every document is given to
    /// a real axum router here.
    #[test]
    fn axum_accepts_every_route_of_every_document() {
        let documents = documents();
        let mut built = 0;
        let mut refused = Vec::new();
        for path in &documents {
            let Ok(doc) = crate::load::load_file(path) else {
                continue;
            };
            let Ok(api) = crate::build_ir(&doc, &crate::Options::default()) else {
                continue;
            };
            let routes = super::routes(&api, &api.base_path());
            let outcome = std::panic::catch_unwind(|| {
                let mut router = axum::Router::<()>::new();
                for (route, _) in &routes {
                    router = router.route(route, axum::routing::any(|| async {}));
                }
                // The webhook receiver's routes, as `emit::webhooks` gives them: a path and
                // a method each.
                let mut receiver = axum::Router::<()>::new();
                for (path, method) in super::super::webhooks::receiver_routes(&api).keys() {
                    let method = axum::routing::MethodFilter::try_from(
                        http::Method::from_bytes(method.as_http().as_bytes())
                            .expect("an HTTP method"),
                    )
                    .expect("a method axum routes");
                    receiver = receiver.route(path, axum::routing::on(method, || async {}));
                }
            });
            match outcome {
                Ok(()) => built += 1,
                Err(panic) => refused.push(format!(
                    "{}: {}",
                    path.display(),
                    panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                )),
            }
        }
        assert!(refused.is_empty(), "axum refused:\n{}", refused.join("\n"));
        assert!(built > 30, "only {built} documents were routed");
        println!("routed {built} of {} documents", documents.len());
    }

    /// The deepest run of nested method calls in the router expression, and the paths of its
    /// `route` calls, each chain read from its last call inwards.
    #[derive(Default)]
    struct Calls {
        deepest: usize,
        routes: Vec<String>,
    }

    impl Calls {
        fn expr(&mut self, expr: &syn::Expr, depth: usize) {
            match expr {
                syn::Expr::MethodCall(call) => {
                    if call.method == "route"
                        && let Some(syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(path),
                            ..
                        })) = call.args.first()
                    {
                        self.routes.push(path.value());
                    }
                    self.deepest = self.deepest.max(depth + 1);
                    self.expr(&call.receiver, depth + 1);
                }
                syn::Expr::Paren(paren) => self.expr(&paren.expr, depth),
                syn::Expr::Block(block) => {
                    for stmt in &block.block.stmts {
                        match stmt {
                            syn::Stmt::Local(syn::Local {
                                init: Some(init), ..
                            }) => self.expr(&init.expr, 0),
                            syn::Stmt::Expr(expr, _) => self.expr(expr, 0),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn calls(n: usize) -> (syn::Expr, Vec<String>) {
        let paths: Vec<String> = (0..n).map(|i| format!("/r{i}")).collect();
        let tokens: Vec<_> = paths
            .iter()
            .map(|path| quote!(.route(#path, ::axum::routing::get(h))))
            .collect();
        (syn::parse2(chain_in_statements(&tokens)).unwrap(), paths)
    }

    #[test]
    fn a_few_routes_are_one_chain() {
        let (expr, paths) = calls(ROUTES_PER_CHAIN);
        assert!(matches!(expr, syn::Expr::MethodCall(_)), "one chain");
        let mut seen = Calls::default();
        seen.expr(&expr, 0);
        assert_eq!(seen.routes.iter().rev().cloned().collect::<Vec<_>>(), paths);
    }

    /// Thousands of routes stay in order, in chains no deeper than a person would write.
    #[test]
    fn many_routes_are_chained_a_bounded_depth_deep() {
        for n in [ROUTES_PER_CHAIN + 1, 2 * ROUTES_PER_CHAIN, 5_000] {
            let (expr, paths) = calls(n);
            let mut seen = Calls::default();
            seen.expr(&expr, 0);
            // Each chain is visited from its last call inwards.
            let mut routes = Vec::new();
            for chain in seen.routes.chunks(ROUTES_PER_CHAIN) {
                routes.extend(chain.iter().rev().cloned());
            }
            assert_eq!(routes, paths, "{n} routes");
            assert!(
                seen.deepest <= ROUTES_PER_CHAIN,
                "{n} routes: {}",
                seen.deepest
            );
        }
    }
}
