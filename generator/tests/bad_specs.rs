// Over 600 lines on purpose: one case per refused construct, in one test binary.
//! The `specgen` binary on documents it must refuse, and its `check` subcommand.
//!
//! A refused document makes `generate` and `check` exit 2 with a message that says what is
//! wrong and where (a JSON pointer, or a line and column for text that does not parse), never
//! a panic, and leaves an existing generated crate byte for byte as it was.

mod common;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

/// A small document that generates.
const GOOD: &str = r#"openapi: 3.1.0
info:
  title: Good
  version: 1.0.0
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - name: id
          in: path
          required: true
          schema:
            type: string
      responses:
        '200':
          description: The thing
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id:
          type: string
        kind:
          type: string
          enum: [small, large]
"#;

/// A temporary directory with `specs/` for documents and `work/out`, a crate generated from
/// [`GOOD`]. Commands run in `work/`, so nothing can land in the repository.
struct Sandbox {
    dir: TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("temporary directory");
        std::fs::create_dir_all(dir.path().join("specs")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        let sandbox = Sandbox { dir };
        let good = sandbox.spec("good.yaml", GOOD);
        let out = sandbox.run(&["generate".as_ref(), "--spec".as_ref(), good.as_os_str()]);
        assert_success(&out, "generating the good crate");
        sandbox
    }

    /// Writes a document under `specs/`.
    fn spec(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join("specs").join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    fn out(&self) -> PathBuf {
        self.work().join("out")
    }

    /// Runs `specgen <args> --out <work/out>` in `work/`.
    fn run(&self, args: &[&OsStr]) -> Output {
        let out = self.out();
        Command::new(env!("CARGO_BIN_EXE_specgen"))
            .args(args)
            .arg("--out")
            .arg(&out)
            .current_dir(self.work())
            .output()
            .expect("running specgen")
    }

    /// Everything under `work/`: the generated crate, and any staging directory left beside it.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        common::read_tree(&self.work())
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn assert_success(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what}: exit {:?}\n{}",
        output.status.code(),
        stderr(output)
    );
}

/// `generate` accepts a document JSON Schema would refuse in places: each offending keyword
/// is left out of the contract (the validator and the generated server compile it), with a
/// warning naming its pointer, line and column; `check` then agrees with the output. Returns
/// the warnings.
fn assert_repaired(file_name: &str, document: &str, expected: &[&str], gone: &str) -> String {
    let sandbox = Sandbox::new();
    let spec = sandbox.spec(file_name, document);
    let output = sandbox.run(&["generate".as_ref(), "--spec".as_ref(), spec.as_os_str()]);
    assert_success(&output, file_name);
    let text = stderr(&output);
    for fragment in expected {
        assert!(
            text.lines()
                .any(|line| line.starts_with("warning: ") && line.contains(fragment)),
            "no warning with {fragment:?} for {file_name}:\n{text}"
        );
    }
    let contract: String = common::read_tree(&sandbox.out().join("schemas"))
        .into_values()
        .map(|bytes| String::from_utf8(bytes).expect("UTF-8"))
        .collect();
    assert!(
        !contract.contains(gone),
        "{gone} is still in the contract of {file_name}"
    );
    let output = sandbox.run(&["check".as_ref(), "--spec".as_ref(), spec.as_os_str()]);
    assert_success(&output, "check after generate");
    text
}

/// `generate` and `check` both refuse the document with exit 2, without panicking, with
/// every expected fragment in the message, and leave the generated crate alone.
fn assert_refused(file_name: &str, document: &str, expected: &[&str]) -> String {
    let sandbox = Sandbox::new();
    let spec = sandbox.spec(file_name, document);
    let before = sandbox.snapshot();
    let mut message = String::new();
    for subcommand in ["generate", "check"] {
        let output = sandbox.run(&[subcommand.as_ref(), "--spec".as_ref(), spec.as_os_str()]);
        let text = stderr(&output);
        assert!(
            !text.contains("panicked"),
            "{subcommand} panicked on {file_name}:\n{text}"
        );
        assert_eq!(
            output.status.code(),
            Some(2),
            "{subcommand} on {file_name} should exit 2:\n{text}"
        );
        assert!(
            text.starts_with("error: "),
            "{subcommand}: message should start with `error: `:\n{text}"
        );
        for fragment in expected {
            assert!(
                text.contains(fragment),
                "{subcommand} on {file_name}: message lacks `{fragment}`:\n{text}"
            );
        }
        assert_eq!(
            sandbox.snapshot(),
            before,
            "{subcommand} on {file_name} changed the output directory"
        );
        message = text;
    }
    message
}

/// A document in Latin-1 (`Caf\xE9`) was refused with the system's "stream did not contain
/// valid UTF-8", naming neither file nor place.
#[test]
fn bytes_that_are_not_utf8_are_placed_by_line_and_column() {
    let sandbox = Sandbox::new();
    let spec = sandbox.spec("latin1.yaml", "placeholder");
    std::fs::write(
        &spec,
        b"openapi: 3.1.0\ninfo: {title: Caf\xe9, version: '1'}\npaths: {}\n",
    )
    .unwrap();
    let output = sandbox.run(&["generate".as_ref(), "--spec".as_ref(), spec.as_os_str()]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("latin1.yaml: not UTF-8 text (byte 0xE9)")
            && text.contains("(line 2, column 18)"),
        "{text}"
    );
}

#[test]
fn malformed_yaml_is_reported_with_line_and_column() {
    let message = assert_refused(
        "malformed.yaml",
        "openapi: 3.1.0\ninfo:\n  title: Bad\n  version: [1.0\npaths: {}\n",
        &["malformed.yaml: ", "line ", "column "],
    );
    // The flow sequence opened on line 4 is still open when line 5 starts.
    assert!(message.contains("(line 5, column "), "{message}");
}

#[test]
fn malformed_json_is_reported_with_line_and_column() {
    assert_refused(
        "malformed.json",
        "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\"title\": \"Bad\",, \"version\": \"1\"}\n}\n",
        &["malformed.json: ", "(line 3, column "],
    );
}

#[test]
fn a_dangling_ref_names_the_pointer_and_the_target() {
    assert_refused(
        "dangling.yaml",
        r##"openapi: 3.1.0
info: {title: Dangling, version: "1"}
paths: {}
components:
  schemas:
    A:
      type: object
      properties:
        b:
          $ref: "#/components/schemas/Nope"
"##,
        &[
            "#/components/schemas/A/properties/b: $ref '#/components/schemas/Nope' does not exist",
            "(line 10, column ",
        ],
    );
}

#[test]
fn a_swagger_2_definitions_ref_says_which_pointer_would_resolve() {
    assert_refused(
        "definitions.yaml",
        r##"openapi: 3.0.3
info: {title: Habit, version: "1"}
paths: {}
components:
  schemas:
    Task: {type: object}
    Tasks:
      type: array
      items: {$ref: '#/definitions/Task'}
"##,
        &[
            "#/components/schemas/Tasks/items: $ref '#/definitions/Task' does not exist",
            "Swagger 2.0",
            "'#/components/schemas/Task' would resolve",
            "(line 9, column 14)",
        ],
    );
}

/// A member of the document's structure of the wrong kind had been read as absent:
/// `security: {key: []}` (a mapping, not a list of them) left every operation open, and a
/// `requestBody` or `content` written as a list dropped the body. Each is refused with its
/// pointer and line; a method key in upper case and an unclosed template are warned about.
#[test]
fn a_member_of_the_wrong_kind_is_refused_not_read_as_absent() {
    let document = |root: &str, operation: &str| {
        format!(
            r##"openapi: 3.1.0
info: {{title: Shapes, version: "1"}}
{root}
paths:
  /a:
    post:
{operation}
      responses:
        '204': {{description: done}}
components:
  securitySchemes:
    key: {{type: apiKey, in: header, name: x-key}}
"##
        )
    };
    assert_refused(
        "security-mapping.yaml",
        &document("security: {key: []}", ""),
        &[
            "#/security: `security` must be a list, not a mapping",
            "(line 3, column ",
        ],
    );
    assert_refused(
        "operation-security-mapping.yaml",
        &document("", "      security: {key: []}"),
        &["#/paths/~1a/post/security: `security` must be a list, not a mapping"],
    );
    assert_refused(
        "body-list.yaml",
        &document("", "      requestBody: [{content: {}}]"),
        &["#/paths/~1a/post/requestBody: `requestBody` must be a mapping"],
    );
    assert_refused(
        "content-list.yaml",
        &document(
            "",
            "      requestBody: {content: [{application/json: {schema: {type: object}}}]}",
        ),
        &["#/paths/~1a/post/requestBody/content: `content` must be a mapping"],
    );
    assert_refused(
        "paths-list.yaml",
        "openapi: 3.1.0\ninfo: {title: Shapes, version: '1'}\npaths: [/a]\n",
        &["#/paths: `paths` must be a mapping"],
    );
    let text = assert_generates_with_warnings(
        "methods.yaml",
        &document("", "").replace("  /a:\n    post:", "  /b/{id:\n    GET:"),
        &[
            "`GET` is not read as an operation: OpenAPI's method keys are lower case (`get`)",
            "path `/b/{id` has a `{` without its `}`",
        ],
    );
    assert!(!text.contains("panicked"), "{text}");
}

#[test]
fn a_security_requirement_naming_an_undeclared_scheme_is_refused() {
    let document = |security: &str| {
        format!(
            r##"openapi: 3.1.0
info: {{title: Security, version: "1"}}
{security}
paths:
  /a:
    get:
      responses:
        '204': {{description: done}}
components:
  securitySchemes:
    key: {{type: apiKey, in: header, name: x-key}}
"##
        )
    };
    assert_refused(
        "undeclared.yaml",
        &document(
            "security:
  - key: []
    keyy: []",
        ),
        &[
            "#/security/0/keyy: security names the scheme 'keyy', which components/securitySchemes does not declare",
            "(line 5, column ",
        ],
    );
    let operation = document("").replace(
        "    get:
",
        "    get:
      security:
        - other: []
",
    );
    assert_refused(
        "undeclared-op.yaml",
        &operation,
        &["#/paths/~1a/get/security/0/other: security names the scheme 'other'"],
    );
}

#[test]
fn a_dangling_ref_in_an_operation_names_the_pointer() {
    assert_refused(
        "dangling-op.yaml",
        r##"openapi: 3.1.0
info: {title: Dangling, version: "1"}
paths:
  /a:
    post:
      requestBody:
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/Nope"
      responses:
        '204': {description: done}
"##,
        &[
            "#/paths/~1a/post/requestBody/content/application~1json/schema: \
             $ref '#/components/schemas/Nope' does not exist",
        ],
    );
}

#[test]
fn an_external_ref_to_a_missing_file_names_the_file_the_pointer_and_the_line() {
    assert_refused(
        "external.yaml",
        r##"openapi: 3.1.0
info: {title: External, version: "1"}
paths: {}
components:
  schemas:
    A:
      type: object
      properties:
        b:
          $ref: "other.yaml#/X"
"##,
        &[
            "#/components/schemas/A/properties/b: $ref 'other.yaml#/X': cannot read ",
            "other.yaml",
            "(line 10, column ",
        ],
    );
}

/// `generate` accepts the document (exit 0), prints every expected fragment among its
/// `warning:` lines on stderr, and writes the crate. Returns stderr.
fn assert_generates_with_warnings(file_name: &str, document: &str, expected: &[&str]) -> String {
    let sandbox = Sandbox::new();
    let spec = sandbox.spec(file_name, document);
    let output = sandbox.run(&["generate".as_ref(), "--spec".as_ref(), spec.as_os_str()]);
    assert_success(&output, file_name);
    let text = stderr(&output);
    let warnings: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    for fragment in expected {
        assert!(
            warnings.iter().any(|line| line.contains(fragment)),
            "{file_name}: no warning mentions `{fragment}`:\n{text}"
        );
    }
    assert!(sandbox.out().join("src/models.rs").exists());
    text
}

#[test]
fn all_of_parts_that_contradict_each_other_keep_the_value_as_json() {
    let text = assert_generates_with_warnings(
        "allof.yaml",
        r##"openapi: 3.1.0
info: {title: AllOf, version: "1"}
paths: {}
components:
  schemas:
    A:
      allOf:
        - type: string
        - type: object
          properties:
            b: {type: string}
"##,
        &[
            "#/components/schemas/A: allOf combines parts of different shapes",
            "kept as JSON",
            "(line 7, column 7)",
        ],
    );
    assert_eq!(text.matches("warning: ").count(), 1, "{text}");
}

#[test]
fn a_duplicate_operation_id_is_disambiguated_with_a_warning_per_operation() {
    let text = assert_generates_with_warnings(
        "duplicate-operation.yaml",
        r##"openapi: 3.1.0
info: {title: Duplicate, version: "1"}
paths:
  /a:
    get: {operationId: listThings, responses: {'204': {description: done}}}
  /b:
    post: {operationId: listThings, responses: {'204': {description: done}}}
"##,
        &[
            "#/paths/~1a/get: operationId 'listThings' is used by 2 operations (GET /a, POST /b); \
             this one is generated as 'listThings_get'",
            "#/paths/~1b/post: operationId 'listThings' is used by 2 operations (GET /a, POST /b); \
             this one is generated as 'listThings_post'",
        ],
    );
    assert_eq!(text.matches("warning: ").count(), 2, "{text}");
}

#[test]
fn operation_ids_that_become_the_same_function_name_are_told_apart_by_path() {
    assert_generates_with_warnings(
        "function-collision.yaml",
        r##"openapi: 3.1.0
info: {title: Functions, version: "1"}
paths:
  /a:
    get: {operationId: get-thing, responses: {'204': {description: done}}}
  /b:
    get: {operationId: get_thing, responses: {'204': {description: done}}}
"##,
        &[
            "#/paths/~1a/get: operationId 'get-thing' makes the same Rust name as another \
             operation's (GET /a, GET /b); this one is generated as 'get-thing_get_a'",
            "#/paths/~1b/get: operationId 'get_thing' makes the same Rust name as another \
             operation's (GET /a, GET /b); this one is generated as 'get_thing_get_b'",
        ],
    );
}

#[test]
fn component_names_that_become_the_same_type_name_keep_the_exact_one_and_number_the_other() {
    assert_generates_with_warnings(
        "collision.yaml",
        r##"openapi: 3.1.0
info: {title: Collision, version: "1"}
paths: {}
components:
  schemas:
    foo_bar: {type: string}
    FooBar: {type: integer}
"##,
        &[
            "#/components/schemas/foo_bar: `FooBar` is taken by #/components/schemas/FooBar; \
           this component is generated as `FooBar2`",
        ],
    );
}

#[test]
fn swagger_1_is_unsupported() {
    assert_refused(
        "swagger.yaml",
        "swagger: \"1.2\"\ninfo: {title: Old, version: \"1\"}\npaths: {}\n",
        &[
            "#/swagger: unsupported Swagger 1.2",
            "Swagger 2.0 and OpenAPI 3",
        ],
    );
}

#[test]
fn an_unknown_openapi_version_is_unsupported() {
    assert_refused(
        "future.yaml",
        "openapi: 4.0.0\ninfo: {title: Future, version: \"1\"}\npaths: {}\n",
        &["#/openapi: unsupported OpenAPI 4.0.0"],
    );
}

#[test]
fn an_empty_document_is_refused() {
    assert_refused(
        "empty.yaml",
        "",
        &[
            "#: an OpenAPI document must be a mapping at the top level, found nothing (null) (line 1, column 1)",
        ],
    );
}

#[test]
fn a_missing_document_is_refused() {
    assert_refused_args(
        &["--spec", "../specs/does-not-exist.yaml"],
        &["cannot read ../specs/does-not-exist.yaml"],
    );
}

#[test]
fn a_type_override_without_a_type_is_refused() {
    assert_refused_args(
        &["--type-override", "Thing"],
        &["--type-override takes KEY=TYPE, got `Thing`"],
    );
}

#[test]
fn a_type_override_that_is_not_rust_is_refused() {
    assert_refused_args(
        &["--type-override", "Thing=not a type"],
        &["type override `not a type` is not a Rust type"],
    );
}

#[test]
fn a_ref_cycle_between_components_is_refused() {
    assert_refused(
        "ref-cycle.yaml",
        r##"openapi: 3.1.0
info: {title: Cycle, version: "1"}
paths: {}
components:
  schemas:
    A:
      $ref: "#/components/schemas/B"
    B:
      $ref: "#/components/schemas/A"
"##,
        &["#/components/schemas/A", "#/components/schemas/B", "cycle"],
    );
}

#[test]
fn a_component_that_refers_to_itself_is_refused() {
    assert_refused(
        "self-ref.yaml",
        r##"openapi: 3.1.0
info: {title: Cycle, version: "1"}
paths: {}
components:
  schemas:
    A:
      $ref: "#/components/schemas/A"
"##,
        &["#/components/schemas/A", "cycle"],
    );
}

#[test]
fn a_crate_name_cargo_would_refuse_is_an_error_not_a_panic() {
    for (name, why) in [
        (
            "my crate!",
            "the character ' ' is not allowed; a package name is ASCII letters",
        ),
        (
            "1abc",
            "the name starts with '1'; a package name is ASCII letters",
        ),
        ("", "the name is empty; a package name is ASCII letters"),
        (
            "fn",
            "the crate would be called `fn` in Rust, which is a keyword",
        ),
        // Rust's own crates: a crate called `test` breaks `#[test]` wherever it is a
        // dependency.
        (
            "test",
            "the crate would be called `test` in Rust, which is one of Rust's own crates",
        ),
        (
            "proc-macro",
            "the crate would be called `proc_macro` in Rust, which is one of Rust's own crates",
        ),
    ] {
        assert_refused_args(
            &["--crate-name", name],
            &[&format!("error: crate name `{name}`: {why}")],
        );
    }
}

#[test]
fn an_x_crate_name_cargo_would_refuse_names_its_pointer_and_line() {
    for (name, why) in [
        ("my crate!", "the character ' ' is not allowed"),
        ("1abc", "the name starts with '1'"),
        ("", "the name is empty"),
    ] {
        assert_refused(
            "crate-name.yaml",
            &format!(
                "openapi: 3.1.0\ninfo:\n  title: Named\n  version: '1'\n  x-crate-name: '{name}'\npaths: {{}}\n"
            ),
            &[
                &format!("#/info/x-crate-name: x-crate-name `{name}`: {why}"),
                "(line 5, column 17)",
            ],
        );
    }
}

#[test]
fn an_x_rust_type_that_is_not_rust_names_its_pointer_and_line() {
    assert_refused(
        "rust-type.yaml",
        r##"openapi: 3.1.0
info: {title: Types, version: "1"}
paths: {}
components:
  schemas:
    Money:
      type: string
      x-rust-type: "not a type"
"##,
        &[
            "#/components/schemas/Money/x-rust-type: x-rust-type `not a type` is not a Rust type",
            "(line 8, column 20)",
        ],
    );
}

/// A `pattern` that is not a regular expression, under a schema with an example: the example
/// check failed with "generating components/Code.json: the schema does not compile", naming no
/// place in the document. Real specs have such patterns (Python's `\A`, sizes the regex engine
/// refuses), so the pattern is dropped with a located warning, not the document refused.
#[test]
fn a_pattern_that_is_not_a_regex_is_dropped_with_its_pointer_and_line() {
    assert_repaired(
        "pattern.yaml",
        r##"openapi: 3.1.0
info: {title: Patterns, version: "1"}
paths: {}
components:
  schemas:
    Code:
      type: object
      properties:
        code:
          type: string
          pattern: "[a-"
      examples:
        - code: abc
"##,
        &[
            "#/components/schemas/Code/properties/code/pattern: pattern \"[a-\" is not an \
           ECMA-262 regular expression the validator compiles; it is left out of the contract \
           (line 11, column 20)",
        ],
        "[a-",
    );
}

/// A keyword with a value JSON Schema does not allow (here in a parameter's schema, which has
/// no contract file of its own): was "generating get_a parameter q: the schema does not
/// compile".
#[test]
fn a_schema_keyword_with_a_wrong_value_is_dropped_with_its_pointer_and_line() {
    assert_repaired(
        "min-length.yaml",
        r##"openapi: 3.1.0
info: {title: Lengths, version: "1"}
paths:
  /a:
    get:
      parameters:
        - name: q
          in: query
          schema: {type: string, minLength: -1}
          example: abc
      responses:
        '204': {description: done}
"##,
        &[
            "#/paths/~1a/get/parameters/0/schema/minLength: -1 is less than the minimum of 0; \
           `minLength` is left out of the contract (line 9, column 45)",
        ],
        "\"minLength\"",
    );
}

/// Without an example nothing compiled the schema: specgen wrote a crate whose server
/// panicked when it first compiled its contract; now the keyword is dropped. In a 3.0 document, under `nullable` (which
/// loading rewrites), the pointer and line are still those of the document.
#[test]
fn an_invalid_schema_without_examples_is_repaired_too() {
    assert_repaired(
        "type.yaml",
        r##"openapi: 3.0.3
info: {title: Types, version: "1"}
paths: {}
components:
  schemas:
    A:
      type: object
      nullable: true
      properties:
        b: {type: strin}
"##,
        &[
            "#/components/schemas/A/properties/b/type: type \"strin\" is not a JSON Schema type \
             (array, boolean, integer, null, number, object or string); `type` is left out of \
             the contract (line 10, column 19)",
        ],
        "strin",
    );
}

/// A 200 KB document of 100,000 nested flow sequences took about two minutes to refuse.
#[test]
fn absurdly_deep_nesting_is_refused_with_line_and_column() {
    let text = format!("{}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    assert_refused(
        "deep.yaml",
        &text,
        &[
            "deep.yaml: the document nests collections more than 128 levels deep",
            "(line 1, column ",
        ],
    );
    // JSON is told the same, not in serde_json's "recursion limit exceeded".
    let json = format!(
        "{{\"openapi\": \"3.1.0\", \"x\": {}{}}}\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    assert_refused(
        "deep.json",
        &json,
        &[
            "deep.json: the document nests collections more than 128 levels deep",
            "(line 1, column ",
        ],
    );
}

/// Like [`assert_refused`], for the good document with extra arguments.
fn assert_refused_args(args: &[&str], expected: &[&str]) {
    let sandbox = Sandbox::new();
    let good = sandbox.spec("good.yaml", GOOD);
    let before = sandbox.snapshot();
    for subcommand in ["generate", "check"] {
        let mut all: Vec<&OsStr> = vec![subcommand.as_ref()];
        if !args.contains(&"--spec") {
            all.extend(["--spec".as_ref(), good.as_os_str()]);
        }
        all.extend(args.iter().map(|arg| OsStr::new(*arg)));
        let output = sandbox.run(&all);
        let text = stderr(&output);
        assert!(!text.contains("panicked"), "{subcommand} panicked:\n{text}");
        assert_eq!(output.status.code(), Some(2), "{subcommand}:\n{text}");
        for fragment in expected {
            assert!(
                text.contains(fragment),
                "{subcommand}: message lacks `{fragment}`:\n{text}"
            );
        }
        assert_eq!(
            sandbox.snapshot(),
            before,
            "{subcommand} changed the output"
        );
    }
}

fn check(sandbox: &Sandbox) -> Output {
    let good = sandbox.dir.path().join("specs").join("good.yaml");
    sandbox.run(&["check".as_ref(), "--spec".as_ref(), good.as_os_str()])
}

#[test]
fn check_passes_on_fresh_output() {
    let sandbox = Sandbox::new();
    let output = check(&sandbox);
    assert_success(&output, "check right after generate");
    assert!(
        stderr(&output).contains("is up to date"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn check_names_a_changed_file() {
    let sandbox = Sandbox::new();
    let models = sandbox.out().join("src").join("models.rs");
    let mut text = std::fs::read_to_string(&models).unwrap();
    text.push_str("// edited by hand\n");
    std::fs::write(&models, text).unwrap();
    let output = check(&sandbox);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(message.contains("1 file(s) differ"), "{message}");
    assert!(message.contains("changed: src/models.rs"), "{message}");
    assert!(message.contains("-// edited by hand"), "{message}");
}

#[test]
fn check_summarises_a_change_that_touches_many_files() {
    // A new title touches every contract file (its `$id`): the files are named, and only the
    // first three changed ones show their diff.
    let sandbox = Sandbox::new();
    sandbox.spec("good.yaml", &GOOD.replace("title: Good", "title: Better"));
    let output = check(&sandbox);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    let changed = message.matches("\n  changed: ").count();
    assert!(changed > 3, "{message}");
    assert_eq!(message.matches("\n    --- on disk").count(), 3, "{message}");
    assert!(
        message.contains("(how the first 3 changed files differ is shown;"),
        "{message}"
    );
}

#[test]
fn check_names_missing_and_extra_files() {
    let sandbox = Sandbox::new();
    std::fs::remove_file(sandbox.out().join("schemas").join("manifest.json")).unwrap();
    std::fs::write(sandbox.out().join("src").join("extra.rs"), "").unwrap();
    let output = check(&sandbox);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains("missing: schemas/manifest.json"),
        "{message}"
    );
    assert!(
        message.contains("not generated (extra): src/extra.rs"),
        "{message}"
    );
}

/// `check` on a stale crate prints the `generate` command with every option it was given,
/// quoted for the shell: pasted into a shell, that command brings the crate up to date.
#[test]
fn check_prints_the_generate_command_with_the_options_given() {
    let sandbox = Sandbox::new();
    let spec = sandbox.spec("it's good.yaml", GOOD);
    let run_check = |cargo: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_specgen"));
        command
            .args(["check".as_ref(), "--spec".as_ref(), spec.as_os_str()])
            .args(["--out", "out", "--crate-name", "my-api"])
            .args([
                "--type-override",
                "Thing.kind=Box<str>",
                "--no-example-tests",
            ])
            .current_dir(sandbox.work());
        if cargo {
            command.env("CARGO", "cargo");
        } else {
            command.env_remove("CARGO");
        }
        command.output().expect("running specgen")
    };
    let options = format!(
        "generate --spec '{}' --out out --crate-name my-api --type-override 'Thing.kind=Box<str>' \
         --no-example-tests",
        spec.display().to_string().replace('\'', r"'\''")
    );

    let output = run_check(true);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains(&format!("Run `cargo run -p specgen -- {options}`.")),
        "{message}"
    );

    let output = run_check(false);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    let command = message
        .split_once("Run `")
        .and_then(|(_, rest)| rest.split_once("`."))
        .map(|(command, _)| command.to_string())
        .unwrap_or_else(|| panic!("no command in:\n{message}"));
    assert!(command.ends_with(&options), "{command}");
    let ran = Command::new("sh")
        .args(["-c", &command])
        .current_dir(sandbox.work())
        .output()
        .expect("running the printed command");
    assert_success(&ran, "the printed command");
    let output = run_check(false);
    assert_success(&output, "check after running the printed command");
}

#[test]
fn generate_restores_its_own_output() {
    let sandbox = Sandbox::new();
    let before = sandbox.snapshot();
    std::fs::write(sandbox.out().join("src").join("models.rs"), "// edited\n").unwrap();
    std::fs::write(sandbox.out().join("stray.txt"), "x").unwrap();
    let good = sandbox.dir.path().join("specs").join("good.yaml");
    let output = sandbox.run(&["generate".as_ref(), "--spec".as_ref(), good.as_os_str()]);
    assert_success(&output, "regenerating");
    assert_eq!(sandbox.snapshot(), before);
    assert_success(&check(&sandbox), "check after regenerating");
}

#[test]
fn generate_refuses_a_directory_it_did_not_write() {
    let sandbox = Sandbox::new();
    let mine = sandbox.work().join("mine");
    std::fs::create_dir_all(mine.join("src")).unwrap();
    std::fs::write(mine.join("Cargo.toml"), "[package]\nname = \"mine\"\n").unwrap();
    std::fs::write(mine.join("src").join("lib.rs"), "// hand-written\n").unwrap();
    let before = sandbox.snapshot();
    let good = sandbox.dir.path().join("specs").join("good.yaml");
    let run = |subcommand: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_specgen"))
            .args([subcommand.as_ref(), "--spec".as_ref(), good.as_os_str()])
            .args(["--out".as_ref(), mine.as_os_str()])
            .current_dir(sandbox.work())
            .output()
            .unwrap();
        (output.status.code(), stderr(&output))
    };
    let (code, message) = run("generate");
    assert_eq!(code, Some(2), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    assert!(message.contains("refusing to replace it"), "{message}");
    assert!(message.contains("lacks the @generated marker"), "{message}");
    assert_eq!(sandbox.snapshot(), before);
    assert!(Path::new(&mine.join("src").join("lib.rs")).exists());
    // `check` says the same, rather than call it stale and send the user to `generate`.
    let (code, message) = run("check");
    assert_eq!(code, Some(2), "{message}");
    assert!(
        message.contains("was not generated by specgen"),
        "{message}"
    );
    assert!(!message.contains("Run `"), "{message}");
    // A directory without any Cargo.toml is named as such.
    std::fs::remove_file(mine.join("Cargo.toml")).unwrap();
    let (_, message) = run("generate");
    assert!(
        message.contains("it has no Cargo.toml of specgen's"),
        "{message}"
    );
}

/// Found by the loader fuzz run: a `security` list with an entry that is not an object put
/// the error at the wrong index, a place not in the document, so without line and column.
/// Such an entry is itself refused now, at its own index; an undeclared scheme after it
/// would be placed at its own.
#[test]
fn an_undeclared_scheme_after_an_entry_that_is_not_an_object_is_placed() {
    assert_refused(
        "security-index.yaml",
        "openapi: 3.1.0\ninfo: {title: S, version: '1'}\nsecurity:\n  - just text\n  - missing: []\npaths: {}\n",
        &[
            "#/security/0: must be a mapping, not a string",
            "(line 4, column",
        ],
    );
    assert_refused(
        "security-index-2.yaml",
        "openapi: 3.1.0\ninfo: {title: S, version: '1'}\nsecurity:\n  - {}\n  - missing: []\npaths: {}\n",
        &[
            "#/security/1/missing: security names the scheme 'missing'",
            "(line 5, column",
        ],
    );
}

/// A header that frames the message (`Content-Length`, `Transfer-Encoding`) is the HTTP
/// library's to write: Egnyte's Swagger 2.0 document makes `Content-Length` a parameter, and
/// the client sent what the caller gave, so a request waited for bytes that never came. It
/// is ignored with a warning, in Swagger 2.0 as in OpenAPI 3; the request's other headers
/// stay parameters.
#[test]
fn a_framing_header_parameter_is_ignored_with_a_warning() {
    let text = assert_generates_with_warnings(
        "framing.yaml",
        r##"swagger: "2.0"
info: {title: Framing, version: "1"}
paths:
  /fs-content/{path}:
    post:
      operationId: upload
      consumes: [application/octet-stream]
      parameters:
        - {name: path, in: path, required: true, type: string}
        - {name: Content-Length, in: header, type: integer}
        - {name: transfer-encoding, in: header, type: string}
        - {name: X-Sha512-Checksum, in: header, type: string}
        - {name: body, in: body, schema: {type: string, format: binary}}
      responses: {'200': {description: done}}
"##,
        &[
            "a header parameter named Content-Length is ignored",
            "a header parameter named transfer-encoding is ignored",
        ],
    );
    assert_eq!(text.matches("warning: ").count(), 2, "{text}");
}

/// A title that would make one of Rust's own crates (`info.title: test`) is prefixed, as a
/// keyword's is: the crate builds its tests and its dependents'.
#[test]
fn a_title_that_names_a_builtin_crate_is_prefixed() {
    for (title, package) in [
        ("test", "api-test"),
        ("Core", "api-core"),
        ("std", "api-std"),
        ("proc macro", "api-proc-macro"),
    ] {
        let sandbox = Sandbox::new();
        let spec = sandbox.spec(
            "title.yaml",
            &format!("openapi: 3.1.0\ninfo: {{title: {title}, version: '1'}}\npaths: {{}}\n"),
        );
        let output = sandbox.run(&["generate".as_ref(), "--spec".as_ref(), spec.as_os_str()]);
        assert_success(&output, title);
        let manifest = std::fs::read_to_string(sandbox.out().join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains(&format!("name = \"{package}\"")),
            "{title}: {manifest}"
        );
    }
}

/// An operation's `responses` or `parameters` of the wrong kind is refused, naming where,
/// rather than read as if the operation had none.
#[test]
fn responses_or_parameters_of_the_wrong_kind_are_refused_where_they_are() {
    assert_refused(
        "responses.yaml",
        "openapi: 3.0.3\ninfo: {title: X, version: \"1\"}\npaths:\n  /a:\n    get:\n      \
         operationId: getA\n      responses: 7\n",
        &[
            "#/paths/~1a/get/responses",
            "`responses` must be an object of statuses, not a number",
            "line 7",
        ],
    );
    assert_refused(
        "parameters.yaml",
        "openapi: 3.0.3\ninfo: {title: X, version: \"1\"}\npaths:\n  /a:\n    get:\n      \
         operationId: getA\n      parameters: \"x\"\n      responses: {\"200\": {description: ok}}\n",
        &[
            "#/paths/~1a/get/parameters",
            "`parameters` must be a list, not a string",
        ],
    );
}

/// A type override whose key names nothing in the document (a typo, a property since
/// removed) changes nothing, and says so.
#[test]
fn a_type_override_that_names_nothing_is_warned_about() {
    let sandbox = Sandbox::new();
    let spec = sandbox.spec(
        "override.yaml",
        "openapi: 3.1.0\ninfo: {title: O, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    \
         Amount:\n      type: object\n      properties:\n        value: {type: string}\n",
    );
    let output = sandbox.run(&[
        "generate".as_ref(),
        "--spec".as_ref(),
        spec.as_os_str(),
        "--type-override".as_ref(),
        "Amount.valeu=rust_decimal::Decimal".as_ref(),
        "--type-override".as_ref(),
        "Amount.value=rust_decimal::Decimal".as_ref(),
    ]);
    assert_success(&output, "override.yaml");
    let text = stderr(&output);
    let warnings: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("warning: "))
        .collect();
    assert_eq!(warnings.len(), 1, "{text}");
    assert!(
        warnings[0].contains("type override `Amount.valeu` names no schema"),
        "{text}"
    );
    let models = std::fs::read_to_string(sandbox.out().join("src/models.rs")).unwrap();
    assert!(models.contains("rust_decimal::Decimal"), "{models}");
}
