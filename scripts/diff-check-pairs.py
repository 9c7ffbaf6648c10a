#!/usr/bin/env python3
"""Writes generator/tests/diff/checks/<check-id>/{old,new}.yaml: one old/new pair per check of
`specgen diff`, the header of each new.yaml listing the exact findings the pair must give
(`# expect: LEVEL SIDE CHECK-ID DOCUMENT#POINTER`). generator/tests/diff_checks.rs holds
specgen to them.

The pairs were written with this script, which keeps their documents alike; the expectations
are stated here, not taken from specgen: the schema checks' levels by the rule restated in
`judge` below (independently of generator/src/diff/checks.rs), the others pair by pair.

Usage: scripts/diff-check-pairs.py   (rewrites the directory; needs PyYAML)
"""

import os
import shutil

import yaml

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'generator', 'tests', 'diff', 'checks')
JSON = 'application/json'

def ref(name):
    return {'$ref': f'#/components/schemas/{name}'}

def esc(seg):
    return seg.replace('~', '~0').replace('/', '~1')

def ptr(*segs):
    return '#/' + '/'.join(esc(str(s)) for s in segs)

def api(version='1.0.0', paths=None, webhooks=None, schemas=None, security=None,
        schemes=None, servers=None):
    d = {'openapi': '3.1.0', 'info': {'title': 'Fixture', 'version': version}}
    if servers is not None:
        d['servers'] = servers
    if security is not None:
        d['security'] = security
    d['paths'] = paths or {}
    if webhooks is not None:
        d['webhooks'] = webhooks
    comps = {}
    if schemas:
        comps['schemas'] = schemas
    if schemes:
        comps['securitySchemes'] = schemes
    if comps:
        d['components'] = comps
    return d

class Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True

def write(check, description, old, new, expect):
    """expect: list of (level, side, id, which, pointer)."""
    d = os.path.join(ROOT, check)
    os.makedirs(d, exist_ok=True)
    head = ''.join(f'# {line}\n' for line in description.strip().splitlines())
    lines = sorted(f'{lv} {sd} {i} {w}{p}' for (lv, sd, i, w, p) in expect)
    exp = ''.join(f'# expect: {l}\n' for l in lines)
    body_old = yaml.dump(old, Dumper=Dumper, sort_keys=False, default_flow_style=None, width=100)
    body_new = yaml.dump(new, Dumper=Dumper, sort_keys=False, default_flow_style=None, width=100)
    with open(os.path.join(d, 'old.yaml'), 'w') as f:
        f.write(f'# The old side of `{check}`: see new.yaml.\n' + body_old)
    with open(os.path.join(d, 'new.yaml'), 'w') as f:
        f.write(head + exp + body_new)


# Schema checks: one pair per flow and facet.

# The rule, restated independently of the Rust code (see checks.rs): a narrowing breaks old
# producers, a widening old consumers; error where the old party is user code and the break
# certain, warning where certain but only the API's own old deployment breaks or where it
# depends on how strict the party is, info otherwise.
EFFECT = {
    'type-changed': ('changes', 'definite'), 'type-widened': ('widens', 'definite'),
    'type-narrowed': ('narrows', 'definite'), 'became-nullable': ('widens', 'definite'),
    'became-not-nullable': ('narrows', 'definite'), 'enum-value-added': ('widens', 'validation'),
    'enum-value-removed': ('narrows', 'validation'), 'became-enum': ('narrows', 'validation'),
    'enum-removed': ('widens', 'validation'), 'extensible-enum-value-added': ('neutral', None),
    'extensible-enum-value-removed': ('narrows', 'validation'),
    'pattern-added': ('narrows', 'potential'), 'pattern-changed': ('changes', 'potential'),
    'pattern-removed': ('widens', 'validation'), 'default-changed': ('default', 'potential'),
    'required-property-added': ('narrows', 'definite'), 'optional-property-added': ('neutral', None),
    'property-added-to-closed-schema': ('widens', 'validation'),
    'required-property-removed': ('removes', 'required'), 'optional-property-removed': ('removes', 'optional'),
    'property-removed-from-closed-schema': ('narrows', 'validation'),
    'property-became-required': ('narrows', 'definite'), 'property-became-optional': ('widens', 'definite'),
    'additional-properties-opened': ('widens', 'potential'), 'additional-properties-closed': ('narrows', 'potential'),
    'alternative-added': ('widens', 'validation'), 'alternative-removed': ('narrows', 'validation'),
    'discriminator-changed': ('changes', 'definite'),
}

FLOWS = {
    # flow: (is HTTP request, API is the HTTP server)
    'request': (True, True), 'response': (False, True),
    'webhook-payload': (True, False), 'webhook-reply': (False, False),
}

def judge(flow, slug):
    if slug.endswith('-tightened'):
        effect = ('narrows', 'validation')
    elif slug.endswith('-relaxed'):
        effect = ('widens', 'validation')
    else:
        effect = EFFECT[slug]
    is_request, api_serves = FLOWS[flow]
    producer = 'clients' if is_request else 'servers'
    consumer = 'servers' if is_request else 'clients'
    user = 'clients' if api_serves else 'servers'
    api_reads = flow in ('request', 'webhook-reply')
    kind, certainty = effect
    if certainty == 'validation':
        certainty = 'definite' if api_reads else 'potential'
    if kind == 'neutral':
        return ('info', '-')
    if kind == 'default':
        if not api_reads:
            return ('info', '-')
        side = user
    elif kind == 'narrows':
        side = producer
    elif kind == 'widens':
        side = consumer
    elif kind == 'changes':
        side = user
    elif kind == 'removes':
        side = user
        certainty = 'definite' if (consumer == user and certainty == 'required') else 'potential'
    if side == user:
        level = 'error' if certainty == 'definite' else 'warning'
    else:
        level = 'warning' if certainty == 'definite' else 'info'
    return (level, side)

def doc(flow, version, thing, extra):
    schemas = {'Thing': thing}
    schemas.update(extra)
    body = {'content': {JSON: {'schema': ref('Thing')}}}
    if flow == 'request':
        paths = {'/items': {'post': {'operationId': 'createItem',
                 'requestBody': {'required': True, **body},
                 'responses': {'204': {'description': 'created'}}}}}
        return api(version, paths=paths, schemas=schemas)
    if flow == 'response':
        paths = {'/items': {'get': {'operationId': 'getItem',
                 'responses': {'200': {'description': 'ok', **body}}}}}
        return api(version, paths=paths, schemas=schemas)
    if flow == 'webhook-payload':
        hooks = {'itemChanged': {'post': {'requestBody': {'required': True, **body},
                 'responses': {'200': {'description': 'received'}}}}}
        return api(version, webhooks=hooks, schemas=schemas)
    hooks = {'itemChanged': {'post': {
        'requestBody': {'required': True, 'content': {JSON: {'schema': {'type': 'object'}}}},
        'responses': {'200': {'description': 'received', **body}}}}}
    return api(version, webhooks=hooks, schemas=schemas)

def V(value, **more):
    return {'type': 'object', 'properties': {'value': value}, **more}

PV = ['components', 'schemas', 'Thing', 'properties', 'value']
def P(*rest):
    return ptr(*PV, *rest)
def TH(*rest):
    return ptr('components', 'schemas', 'Thing', *rest)

FIELD_TYPE = ('error', 'rust-field-type-changed', 'new', P())
S = {'type': 'string'}
def animal(name):
    return {'type': 'object', 'required': ['kind'],
            'properties': {'kind': {'type': 'string', 'const': name}, 'tag': {'type': 'string'}}}
ANIMALS = {'Cat': animal('cat'), 'Dog': animal('dog'), 'Bird': animal('bird')}

FACETS = [
    # slug, description, old Thing, new Thing, wire [(facet, which, pointer)], rust [...], extra schemas
    ('type-changed', 'string → boolean', V(S), V({'type': 'boolean'}),
     [('type-changed', 'new', P('type'))], [FIELD_TYPE], {}),
    ('type-widened', 'integer → number', V({'type': 'integer'}), V({'type': 'number'}),
     [('type-widened', 'new', P('type'))], [FIELD_TYPE], {}),
    ('type-narrowed', 'number → integer', V({'type': 'number'}), V({'type': 'integer'}),
     [('type-narrowed', 'new', P('type'))], [FIELD_TYPE], {}),
    ('became-nullable', 'type: string → type: [string, null]', V(S), V({'type': ['string', 'null']}),
     [('became-nullable', 'new', P())], [('error', 'rust-field-option-added', 'new', P())], {}),
    ('became-not-nullable', 'type: [string, null] → type: string', V({'type': ['string', 'null']}), V(S),
     [('became-not-nullable', 'new', P())], [('error', 'rust-field-option-removed', 'new', P())], {}),
    ('enum-value-added', 'enum [a, b] → [a, b, c]', V({'type': 'string', 'enum': ['a', 'b']}),
     V({'type': 'string', 'enum': ['a', 'b', 'c']}),
     [('enum-value-added', 'new', P('enum', 2))], [('warning', 'rust-variant-added', 'new', P())], {}),
    ('enum-value-removed', 'enum [a, b, c] → [a, b]', V({'type': 'string', 'enum': ['a', 'b', 'c']}),
     V({'type': 'string', 'enum': ['a', 'b']}),
     [('enum-value-removed', 'old', P('enum', 2))], [('error', 'rust-variant-removed', 'old', P())], {}),
    ('became-enum', 'a free string restricted to enum [a, b]', V(S), V({'type': 'string', 'enum': ['a', 'b']}),
     [('became-enum', 'new', P('enum'))],
     [FIELD_TYPE, ('info', 'rust-type-added', 'new', P())], {}),
    ('enum-removed', 'enum [a, b] dropped', V({'type': 'string', 'enum': ['a', 'b']}), V(S),
     [('enum-removed', 'new', P())], [FIELD_TYPE, ('error', 'rust-type-removed', 'old', P())], {}),
    ('extensible-enum-value-added', 'x-extensible-enum [a, b] → [a, b, c]',
     V({'type': 'string', 'x-extensible-enum': ['a', 'b']}), V({'type': 'string', 'x-extensible-enum': ['a', 'b', 'c']}),
     [('extensible-enum-value-added', 'new', P('x-extensible-enum', 2))],
     [('warning', 'rust-variant-added', 'new', P())], {}),
    ('extensible-enum-value-removed', 'x-extensible-enum [a, b, c] → [a, b]',
     V({'type': 'string', 'x-extensible-enum': ['a', 'b', 'c']}), V({'type': 'string', 'x-extensible-enum': ['a', 'b']}),
     [('extensible-enum-value-removed', 'old', P('x-extensible-enum', 2))],
     [('error', 'rust-variant-removed', 'old', P())], {}),
]

BOUNDS = [
    # slug, base schema, keyword, tighter value, looser value
    ('max-length', S, 'maxLength', 5, 10),
    ('min-length', S, 'minLength', 2, 1),
    ('maximum', {'type': 'integer'}, 'maximum', 5, 10),
    ('minimum', {'type': 'integer'}, 'minimum', 2, 1),
    ('max-items', {'type': 'array', 'items': S}, 'maxItems', 5, 10),
    ('min-items', {'type': 'array', 'items': S}, 'minItems', 2, 1),
    ('max-properties', {'type': 'object', 'additionalProperties': S}, 'maxProperties', 5, 10),
    ('min-properties', {'type': 'object', 'additionalProperties': S}, 'minProperties', 2, 1),
    ('multiple-of', {'type': 'integer'}, 'multipleOf', 4, 2),
]
for slug, base, keyword, tight, loose in BOUNDS:
    FACETS.append((f'{slug}-tightened', f'{keyword} {loose} → {tight}', V({**base, keyword: loose}),
                   V({**base, keyword: tight}), [(f'{slug}-tightened', 'new', P(keyword))], [], {}))
    FACETS.append((f'{slug}-relaxed', f'{keyword} {tight} → {loose}', V({**base, keyword: tight}),
                   V({**base, keyword: loose}), [(f'{slug}-relaxed', 'new', P(keyword))], [], {}))
ARRAY = {'type': 'array', 'items': S}
FACETS += [
    ('unique-items-tightened', 'uniqueItems set', V(ARRAY), V({**ARRAY, 'uniqueItems': True}),
     [('unique-items-tightened', 'new', P('uniqueItems'))], [], {}),
    ('unique-items-relaxed', 'uniqueItems dropped', V({**ARRAY, 'uniqueItems': True}), V(ARRAY),
     [('unique-items-relaxed', 'old', P('uniqueItems'))], [], {}),
    ('pattern-added', 'pattern set', V(S), V({'type': 'string', 'pattern': '^[a-z]+$'}),
     [('pattern-added', 'new', P('pattern'))], [], {}),
    ('pattern-changed', 'pattern changed', V({'type': 'string', 'pattern': '^[a-z]+$'}),
     V({'type': 'string', 'pattern': '^[a-z0-9]+$'}), [('pattern-changed', 'new', P('pattern'))], [], {}),
    ('pattern-removed', 'pattern dropped', V({'type': 'string', 'pattern': '^[a-z]+$'}), V(S),
     [('pattern-removed', 'old', P('pattern'))], [], {}),
    ('default-changed', 'default a → b', V({'type': 'string', 'default': 'a'}),
     V({'type': 'string', 'default': 'b'}), [('default-changed', 'new', P('default'))], [], {}),
    ('required-property-added', 'a new required property `extra`', V(S),
     V(S, required=['extra']) | {'properties': {'value': S, 'extra': S}},
     [('required-property-added', 'new', TH('properties', 'extra'))],
     [('error', 'rust-field-added', 'new', TH('properties', 'extra')),
      ('warning', 'rust-default-removed', 'new', TH())], {}),
    ('optional-property-added', 'a new optional property `extra`', V(S),
     {'type': 'object', 'properties': {'value': S, 'extra': S}},
     [('optional-property-added', 'new', TH('properties', 'extra'))],
     [('warning', 'rust-optional-field-added', 'new', TH('properties', 'extra'))], {}),
    ('property-added-to-closed-schema', 'a new optional property `extra` in an object with additionalProperties: false',
     V(S, additionalProperties=False),
     {'type': 'object', 'additionalProperties': False, 'properties': {'value': S, 'extra': S}},
     [('property-added-to-closed-schema', 'new', TH('properties', 'extra'))],
     [('warning', 'rust-optional-field-added', 'new', TH('properties', 'extra'))], {}),
    ('required-property-removed', 'the required property `extra` removed',
     {'type': 'object', 'required': ['extra'], 'properties': {'value': S, 'extra': S}}, V(S),
     [('required-property-removed', 'old', TH('properties', 'extra'))],
     [('error', 'rust-field-removed', 'old', TH('properties', 'extra')),
      ('info', 'rust-default-added', 'new', TH())], {}),
    ('optional-property-removed', 'the optional property `extra` removed',
     {'type': 'object', 'properties': {'value': S, 'extra': S}}, V(S),
     [('optional-property-removed', 'old', TH('properties', 'extra'))],
     [('error', 'rust-field-removed', 'old', TH('properties', 'extra'))], {}),
    ('property-removed-from-closed-schema', 'the optional property `extra` removed from an object with additionalProperties: false',
     {'type': 'object', 'additionalProperties': False, 'properties': {'value': S, 'extra': S}},
     V(S, additionalProperties=False),
     [('optional-property-removed', 'old', TH('properties', 'extra')),
      ('property-removed-from-closed-schema', 'old', TH('properties', 'extra'))],
     [('error', 'rust-field-removed', 'old', TH('properties', 'extra'))], {}),
    ('property-became-required', '`value` became required', V(S), V(S, required=['value']),
     [('property-became-required', 'new', P())],
     [('error', 'rust-field-option-removed', 'new', P()), ('warning', 'rust-default-removed', 'new', TH())], {}),
    ('property-became-optional', '`value` became optional', V(S, required=['value']), V(S),
     [('property-became-optional', 'new', P())],
     [('error', 'rust-field-option-added', 'new', P()), ('info', 'rust-default-added', 'new', TH())], {}),
    ('additional-properties-opened', 'additionalProperties: false dropped',
     V(S, additionalProperties=False), V(S),
     [('additional-properties-opened', 'new', TH())], [], {}),
    ('additional-properties-closed', 'additionalProperties: false set',
     V(S), V(S, additionalProperties=False),
     [('additional-properties-closed', 'new', TH('additionalProperties'))], [], {}),
    ('alternative-added', 'oneOf [Cat, Dog] → [Cat, Dog, Bird]',
     V({'oneOf': [ref('Cat'), ref('Dog')]}), V({'oneOf': [ref('Cat'), ref('Dog'), ref('Bird')]}),
     [('alternative-added', 'new', P('oneOf', 2))], [('warning', 'rust-variant-added', 'new', P())], ANIMALS),
    ('alternative-removed', 'oneOf [Cat, Dog, Bird] → [Cat, Dog]',
     V({'oneOf': [ref('Cat'), ref('Dog'), ref('Bird')]}), V({'oneOf': [ref('Cat'), ref('Dog')]}),
     [('alternative-removed', 'old', P('oneOf', 2))], [('error', 'rust-variant-removed', 'old', P())], ANIMALS),
    ('discriminator-changed', 'discriminator property kind → tag',
     V({'oneOf': [ref('Cat'), ref('Dog')], 'discriminator': {'propertyName': 'kind'}}),
     V({'oneOf': [ref('Cat'), ref('Dog')], 'discriminator': {'propertyName': 'tag'}}),
     [('discriminator-changed', 'new', P('discriminator'))], [], ANIMALS),
]

RUST_LEVEL_BUMP = {'error': 'major', 'warning': 'major', 'info': 'minor'}

def version_for(rust):
    bumps = {RUST_LEVEL_BUMP[lv] for (lv, *_rest) in rust}
    return '2.0.0' if 'major' in bumps else '1.1.0' if 'minor' in bumps else '1.0.0'

NOUN = {'request': 'the request body of POST /items', 'response': 'the 200 response of GET /items',
        'webhook-payload': 'the payload of webhook itemChanged', 'webhook-reply': 'the reply to webhook itemChanged'}

def generate_schema_pairs():
    count = 0
    for flow in FLOWS:
        for slug, what, old_thing, new_thing, wire, rust, extra in FACETS:
            check = f'{flow}-{slug}'
            expect = []
            for facet, which, pointer in wire:
                level, side = judge(flow, facet)
                expect.append((level, side, f'{flow}-{facet}', which, pointer))
            for level, rid, which, pointer in rust:
                expect.append((level, 'rust', rid, which, pointer))
            old = doc(flow, '1.0.0', old_thing, extra)
            new = doc(flow, version_for(rust), new_thing, extra)
            write(check, f'`Thing`, {NOUN[flow]}: {what}.', old, new, expect)
            count += 1
    return count


# Structural checks.

OK = {'description': 'ok'}
S = {'type': 'string'}
THING = {'type': 'object', 'properties': {'name': S}}
OTHER = {'type': 'object', 'properties': {'name': S}}
BASE_SCHEMAS = {'Thing': THING}

def get(op_id='listItems', **more):
    return {'operationId': op_id, 'responses': {'200': OK}, **more}

def body(schema=None, required=True, media=(JSON,)):
    schema = schema or ref('Thing')
    return {'required': required, 'content': {m: {'schema': schema} for m in media}}

def op_ptr(path, method, *rest):
    return ptr('paths', path, method, *rest)

ITEMS = op_ptr('/items', 'get')
def R(level, check, which, pointer):
    return (level, 'rust', check, which, pointer)

def removed_operation(path, method, fn, prefix):
    at = op_ptr(path, method)
    return [R('error', 'rust-trait-method-removed', 'old', at),
            R('error', 'rust-method-removed', 'old', at),
            R('error', 'rust-type-removed', 'old', at),
            R('error', 'rust-type-removed', 'old', at)]

def added_operation(path, method):
    at = op_ptr(path, method)
    return [R('error', 'rust-trait-method-added', 'new', at),
            R('info', 'rust-method-added', 'new', at),
            R('info', 'rust-type-added', 'new', at),
            R('info', 'rust-type-added', 'new', at)]

def renamed_operation(at):
    return [R('error', 'rust-type-renamed', 'new', at), R('error', 'rust-type-renamed', 'new', at),
            R('error', 'rust-trait-method-renamed', 'new', at), R('error', 'rust-method-renamed', 'new', at)]

FIXTURES = []
def fixture(check, description, old, new, expect):
    FIXTURES.append((check, description, old, new, expect))

def version(expect):
    rust = [e for e in expect if e[1] == 'rust']
    if any(e[0] in ('error', 'warning') for e in rust):
        return '2.0.0'
    if rust:
        return '1.1.0'
    return '1.0.0'

def pair(check, description, old_kwargs, new_kwargs, expect):
    old = api('1.0.0', **old_kwargs)
    new = api(version(expect), **new_kwargs)
    fixture(check, description, old, new, expect)

# Paths and operations.
two_paths = {'/items': {'get': get()}, '/other': {'get': get('listOther')}}
pair('api-path-removed-without-deprecation', 'The path /other goes, its operation not deprecated.',
     {'paths': two_paths}, {'paths': {'/items': {'get': get()}}},
     [('error', 'clients', 'api-path-removed-without-deprecation', 'old', op_ptr('/other', 'get'))]
     + removed_operation('/other', 'get', 'list_other', 'ListOther'))
pair('api-path-removed-with-deprecation', 'The path /other goes after its operation was deprecated.',
     {'paths': {'/items': {'get': get()}, '/other': {'get': get('listOther', deprecated=True)}}},
     {'paths': {'/items': {'get': get()}}},
     [('warning', 'clients', 'api-path-removed-with-deprecation', 'old', op_ptr('/other', 'get'))]
     + removed_operation('/other', 'get', 'list_other', 'ListOther'))
pair('api-removed-without-deprecation', 'DELETE /items goes, not deprecated; GET /items stays.',
     {'paths': {'/items': {'get': get(), 'delete': get('deleteItems')}}},
     {'paths': {'/items': {'get': get()}}},
     [('error', 'clients', 'api-removed-without-deprecation', 'old', op_ptr('/items', 'delete'))]
     + removed_operation('/items', 'delete', 'delete_items', 'DeleteItems'))
pair('api-removed-with-deprecation', 'DELETE /items goes after it was deprecated.',
     {'paths': {'/items': {'get': get(), 'delete': get('deleteItems', deprecated=True)}}},
     {'paths': {'/items': {'get': get()}}},
     [('warning', 'clients', 'api-removed-with-deprecation', 'old', op_ptr('/items', 'delete'))]
     + removed_operation('/items', 'delete', 'delete_items', 'DeleteItems'))
pair('endpoint-added', 'GET /other is added.',
     {'paths': {'/items': {'get': get()}}}, {'paths': two_paths},
     [('info', '-', 'endpoint-added', 'new', op_ptr('/other', 'get'))] + added_operation('/other', 'get'))
pair('endpoint-deprecated', 'GET /items becomes deprecated.',
     {'paths': {'/items': {'get': get()}}}, {'paths': {'/items': {'get': get(deprecated=True)}}},
     [('info', '-', 'endpoint-deprecated', 'new', ITEMS)])
pair('endpoint-reactivated', 'GET /items is no longer deprecated.',
     {'paths': {'/items': {'get': get(deprecated=True)}}}, {'paths': {'/items': {'get': get()}}},
     [('info', '-', 'endpoint-reactivated', 'new', ITEMS)])
pair('api-operation-id-changed', 'operationId listItems → getItems: nothing on the wire; every Rust name of the operation follows.',
     {'paths': {'/items': {'get': get()}}}, {'paths': {'/items': {'get': get('getItems')}}},
     [('info', '-', 'api-operation-id-changed', 'new', ITEMS)] + renamed_operation(ITEMS))
pair('api-base-path-changed', 'The server URL moves from /v1 to /v2.',
     {'servers': [{'url': 'https://api.example.com/v1'}], 'paths': {'/items': {'get': get()}}},
     {'servers': [{'url': 'https://api.example.com/v2'}], 'paths': {'/items': {'get': get()}}},
     [('error', 'clients', 'api-base-path-changed', 'new', ptr('servers', 0, 'url'))])

# Parameters.
def q(required):
    return {'name': 'q', 'in': 'query', 'required': required, 'schema': S}
P0 = op_ptr('/items', 'get', 'parameters', 0)
SIG = R('error', 'rust-method-signature-changed', 'new', ITEMS)
pair('request-parameter-added-required', 'A required query parameter q is added.',
     {'paths': {'/items': {'get': get()}}}, {'paths': {'/items': {'get': get(parameters=[q(True)])}}},
     [('error', 'clients', 'request-parameter-added-required', 'new', P0),
      R('error', 'rust-field-added', 'new', ITEMS), SIG])
pair('request-parameter-added-optional', 'An optional query parameter q is added.',
     {'paths': {'/items': {'get': get()}}}, {'paths': {'/items': {'get': get(parameters=[q(False)])}}},
     [('info', '-', 'request-parameter-added-optional', 'new', P0),
      R('error', 'rust-field-added', 'new', ITEMS), SIG])
pair('request-parameter-removed', 'The optional query parameter q goes.',
     {'paths': {'/items': {'get': get(parameters=[q(False)])}}}, {'paths': {'/items': {'get': get()}}},
     [('warning', 'clients', 'request-parameter-removed', 'old', P0),
      R('error', 'rust-field-removed', 'old', ITEMS), SIG])
pair('request-parameter-became-required', 'The query parameter q becomes required.',
     {'paths': {'/items': {'get': get(parameters=[q(False)])}}},
     {'paths': {'/items': {'get': get(parameters=[q(True)])}}},
     [('error', 'clients', 'request-parameter-became-required', 'new', P0),
      R('error', 'rust-field-option-removed', 'new', ITEMS), SIG])
pair('request-parameter-became-optional', 'The query parameter q becomes optional.',
     {'paths': {'/items': {'get': get(parameters=[q(True)])}}},
     {'paths': {'/items': {'get': get(parameters=[q(False)])}}},
     [('warning', 'servers', 'request-parameter-became-optional', 'new', P0),
      R('error', 'rust-field-option-added', 'new', ITEMS), SIG])

# Request bodies.
POST = op_ptr('/items', 'post')
RB = op_ptr('/items', 'post', 'requestBody')
def post(**more):
    return {'operationId': 'createItem', 'responses': {'204': {'description': 'created'}}, **more}
BODY_SIGS = [R('error', 'rust-trait-method-signature-changed', 'new', POST),
             R('error', 'rust-method-signature-changed', 'new', POST)]
def posts(old, new, check, description, expect):
    pair(check, description, {'paths': {'/items': {'post': old}}, 'schemas': BASE_SCHEMAS},
         {'paths': {'/items': {'post': new}}, 'schemas': BASE_SCHEMAS}, expect)
posts(post(), post(requestBody=body()), 'request-body-added-required', 'A required request body is added.',
      [('error', 'clients', 'request-body-added-required', 'new', RB)] + BODY_SIGS)
posts(post(), post(requestBody=body(required=False)), 'request-body-added-optional', 'An optional request body is added.',
      [('info', '-', 'request-body-added-optional', 'new', RB)] + BODY_SIGS)
posts(post(requestBody=body()), post(), 'request-body-removed', 'The request body goes.',
      [('warning', 'clients', 'request-body-removed', 'old', RB)] + BODY_SIGS)
posts(post(requestBody=body(required=False)), post(requestBody=body()), 'request-body-became-required',
      'The request body becomes required.',
      [('error', 'clients', 'request-body-became-required', 'new', RB)] + BODY_SIGS)
posts(post(requestBody=body()), post(requestBody=body(required=False)), 'request-body-became-optional',
      'The request body becomes optional.',
      [('warning', 'servers', 'request-body-became-optional', 'new', RB)] + BODY_SIGS)
XML = 'application/xml'
posts(post(requestBody=body(media=(JSON, XML))), post(requestBody=body()), 'request-media-type-removed',
      'application/xml is no longer accepted for the request body.',
      [('error', 'clients', 'request-media-type-removed', 'old', ptr('paths', '/items', 'post', 'requestBody', 'content', XML))])
posts(post(requestBody=body()), post(requestBody=body(media=(JSON, XML))), 'request-media-type-added',
      'application/xml is accepted too.',
      [('warning', 'servers', 'request-media-type-added', 'new', ptr('paths', '/items', 'post', 'requestBody', 'content', XML))])

# Responses.
def gets(old_responses, new_responses, check, description, expect, schemas=BASE_SCHEMAS):
    pair(check, description,
         {'paths': {'/items': {'get': {'operationId': 'listItems', 'responses': old_responses}}}, 'schemas': schemas},
         {'paths': {'/items': {'get': {'operationId': 'listItems', 'responses': new_responses}}}, 'schemas': schemas},
         expect)
def resp(status, *rest):
    return ptr('paths', '/items', 'get', 'responses', status, *rest)
ACCEPTED = {'description': 'accepted'}
NOT_FOUND = {'description': 'not found'}
gets({'200': OK, '202': ACCEPTED}, {'200': OK}, 'response-success-status-removed', 'The 202 response goes.',
     [('error', 'clients', 'response-success-status-removed', 'old', resp('202')),
      R('error', 'rust-type-removed', 'old', ITEMS), SIG, R('error', 'rust-variant-removed', 'old', ITEMS)])
gets({'200': OK, '404': NOT_FOUND}, {'200': OK}, 'response-error-status-removed', 'The 404 response goes.',
     [('warning', 'clients', 'response-error-status-removed', 'old', resp('404')),
      R('error', 'rust-variant-removed', 'old', ITEMS)])
gets({'200': OK}, {'200': OK, '202': ACCEPTED}, 'response-success-status-added', 'A 202 response is added.',
     [('warning', 'clients', 'response-success-status-added', 'new', resp('202')),
      R('info', 'rust-type-added', 'new', ITEMS), SIG, R('warning', 'rust-variant-added', 'new', ITEMS)])
gets({'200': OK}, {'200': OK, '404': NOT_FOUND}, 'response-error-status-added', 'A 404 response is added.',
     [('info', '-', 'response-error-status-added', 'new', resp('404')),
      R('warning', 'rust-variant-added', 'new', ITEMS)])
def with_body(*media, **more):
    return {'description': 'ok', 'content': {m: {'schema': ref('Thing')} for m in media}, **more}
gets({'200': with_body(JSON, XML)}, {'200': with_body(JSON)}, 'response-media-type-removed',
     'The 200 response is no longer offered as application/xml.',
     [('error', 'clients', 'response-media-type-removed', 'old', resp('200', 'content', XML))])
gets({'200': with_body(JSON)}, {'200': with_body(JSON, XML)}, 'response-media-type-added',
     'The 200 response is offered as application/xml too.',
     [('info', '-', 'response-media-type-added', 'new', resp('200', 'content', XML))])
gets({'200': with_body(JSON)}, {'200': OK}, 'response-body-removed', 'The 200 response loses its body.',
     [('error', 'clients', 'response-body-removed', 'old', resp('200', 'content')),
      R('error', 'rust-variant-payload-changed', 'new', ITEMS), SIG])
gets({'200': OK}, {'200': with_body(JSON)}, 'response-body-added', 'The 200 response gains a body.',
     [('info', '-', 'response-body-added', 'new', resp('200', 'content')),
      R('error', 'rust-variant-payload-changed', 'new', ITEMS), SIG])
def with_header(required):
    return {'description': 'ok', 'headers': {'X-Rate': {'required': required, 'schema': {'type': 'integer'}}}}
gets({'200': with_header(True)}, {'200': OK}, 'response-required-header-removed',
     'The required response header X-Rate goes.',
     [('error', 'clients', 'response-required-header-removed', 'old', resp('200', 'headers', 'X-Rate'))])
gets({'200': with_header(False)}, {'200': OK}, 'response-optional-header-removed',
     'The optional response header X-Rate goes.',
     [('warning', 'clients', 'response-optional-header-removed', 'old', resp('200', 'headers', 'X-Rate'))])
gets({'200': with_header(True)}, {'200': with_header(False)}, 'response-header-became-optional',
     'The response header X-Rate becomes optional.',
     [('error', 'clients', 'response-header-became-optional', 'new', resp('200', 'headers', 'X-Rate'))])
gets({'200': OK}, {'200': with_header(False)}, 'response-header-added', 'A response header X-Rate is added.',
     [('info', '-', 'response-header-added', 'new', resp('200', 'headers', 'X-Rate'))])

# Security.
API_KEY = {'type': 'apiKey', 'in': 'header', 'name': 'X-Key'}
BEARER = {'type': 'http', 'scheme': 'bearer'}
OAUTH = {'type': 'oauth2', 'flows': {'clientCredentials': {'tokenUrl': 'https://auth.example.com/token',
                                                           'scopes': {'read': 'read', 'write': 'write'}}}}
SCHEMES = {'apiKey': API_KEY, 'bearer': BEARER, 'oauth': OAUTH}
SEC = ptr('paths', '/items', 'get', 'security')
CRED = ptr('components', 'securitySchemes')
def secured(old_security, new_security, check, description, expect, old_schemes=SCHEMES, new_schemes=SCHEMES):
    def op(security):
        return get(**({'security': security} if security is not None else {}))
    pair(check, description, {'paths': {'/items': {'get': op(old_security)}}, 'schemes': old_schemes},
         {'paths': {'/items': {'get': op(new_security)}}, 'schemes': new_schemes}, expect)
secured(None, [{'apiKey': []}], 'api-security-added', 'GET /items, open to anyone, now asks for an API key.',
        [('error', 'clients', 'api-security-added', 'new', SEC),
         R('error', 'rust-field-added', 'new', CRED), R('error', 'rust-method-signature-changed', 'new', CRED),
         R('error', 'rust-field-added', 'new', ITEMS)])
secured([{'apiKey': []}], None, 'api-security-removed', 'GET /items no longer asks for credentials.',
        [('warning', 'servers', 'api-security-removed', 'new', ITEMS),
         R('error', 'rust-field-removed', 'old', CRED), R('error', 'rust-method-signature-changed', 'new', CRED),
         R('error', 'rust-field-removed', 'old', ITEMS)])
secured([{'apiKey': []}], [{'bearer': []}], 'api-security-requirement-removed',
        'GET /items takes a bearer token instead of an API key.',
        [('error', 'clients', 'api-security-requirement-removed', 'new', SEC),
         ('info', '-', 'api-security-requirement-added', 'new', SEC),
         R('error', 'rust-field-removed', 'old', CRED), R('error', 'rust-field-added', 'new', CRED),
         R('error', 'rust-method-arguments-shifted', 'new', CRED)])
secured([{'apiKey': []}], [{'apiKey': []}, {'bearer': []}], 'api-security-requirement-added',
        'GET /items also takes a bearer token.',
        [('info', '-', 'api-security-requirement-added', 'new', SEC),
         R('error', 'rust-field-option-added', 'new', CRED), R('warning', 'rust-optional-field-added', 'new', CRED),
         R('error', 'rust-method-signature-changed', 'new', CRED)])
secured([{'oauth': ['read']}], [{'oauth': ['read', 'write']}], 'api-security-scope-added',
        'GET /items asks for the write scope too.',
        [('error', 'clients', 'api-security-scope-added', 'new', SEC)])
secured([{'oauth': ['read', 'write']}], [{'oauth': ['read']}], 'api-security-scope-removed',
        'GET /items no longer asks for the write scope.',
        [('info', '-', 'api-security-scope-removed', 'new', SEC)])
secured([{'apiKey': []}], [{'apiKey': []}], 'security-scheme-changed',
        'The API key moves from the X-Key header to the key query parameter.',
        [('error', 'clients', 'security-scheme-changed', 'new', ptr('components', 'securitySchemes', 'apiKey'))],
        new_schemes={**SCHEMES, 'apiKey': {'type': 'apiKey', 'in': 'query', 'name': 'key'}})

# Webhooks.
def hook(**more):
    return {'post': {'requestBody': body(), 'responses': {'200': {'description': 'received'}}, **more}}
def hooks(old, new, check, description, expect):
    pair(check, description, {'webhooks': old, 'schemas': BASE_SCHEMAS},
         {'webhooks': new, 'schemas': BASE_SCHEMAS}, expect)
REMOVED = ptr('webhooks', 'itemRemoved', 'post')
hooks({'itemChanged': hook()}, {'itemChanged': hook(), 'itemRemoved': hook()}, 'webhook-added',
      'A webhook itemRemoved is added.',
      [('info', '-', 'webhook-added', 'new', REMOVED),
       R('error', 'rust-trait-method-added', 'new', REMOVED), R('info', 'rust-method-added', 'new', REMOVED)])
hooks({'itemChanged': hook(), 'itemRemoved': hook()}, {'itemChanged': hook()}, 'webhook-removed',
      'The webhook itemRemoved goes.',
      [('warning', 'servers', 'webhook-removed', 'old', REMOVED),
       R('error', 'rust-trait-method-removed', 'old', REMOVED), R('error', 'rust-method-removed', 'old', REMOVED)])
CHANGED = ptr('webhooks', 'itemChanged', 'post')
hooks({'itemChanged': hook(**{'x-delivery-path': '/hooks/item'})},
      {'itemChanged': hook(**{'x-delivery-path': '/hooks/items'})}, 'webhook-delivery-changed',
      'The webhook itemChanged is delivered to another path.',
      [('error', 'servers', 'webhook-delivery-changed', 'new', CHANGED)])
hooks({'itemChanged': hook()},
      {'itemChanged': {'post': {'requestBody': body(), 'responses': {'202': {'description': 'received'}}}}},
      'webhook-reply-status-changed', 'Receivers of itemChanged must now answer 202, not 200.',
      [('error', 'servers', 'webhook-reply-status-changed', 'new', ptr('webhooks', 'itemChanged', 'post', 'responses'))])



# Rust API checks.

S = {'type': 'string'}
OK = {'description': 'ok'}
def C(*rest):
    return ptr('components', 'schemas', *rest)

def schemas_only(check, description, old, new, expect, paths=None):
    pair(check, description, {'schemas': old, 'paths': paths or {}}, {'schemas': new, 'paths': paths or {}}, expect)

items = {'/items': {'get': get()}}
pair('rust-module-removed', 'The API loses its only operation: the crate has no server or client any more.',
     {'paths': items}, {'paths': {}},
     [('error', 'clients', 'api-path-removed-without-deprecation', 'old', ITEMS),
      R('error', 'rust-module-removed', 'old', ptr('paths')), R('error', 'rust-module-removed', 'old', ptr('paths'))])
pair('rust-module-added', 'The API gains its first operation: the crate gains a server and a client.',
     {'paths': {}}, {'paths': items},
     [('info', '-', 'endpoint-added', 'new', ITEMS),
      R('info', 'rust-module-added', 'new', ptr('paths')), R('info', 'rust-module-added', 'new', ptr('paths'))])
thing = {'type': 'object', 'properties': {'a': S}}
schemas_only('rust-type-removed', 'The component Tag, used by no operation, goes.',
             {'Thing': thing, 'Tag': S}, {'Thing': thing},
             [R('error', 'rust-type-removed', 'old', C('Tag'))])
pair('rust-type-renamed', 'operationId listItems → getItems renames the operation\'s types and methods.',
     {'paths': items}, {'paths': {'/items': {'get': get('getItems')}}},
     [('info', '-', 'api-operation-id-changed', 'new', ITEMS)] + renamed_operation(ITEMS))
schemas_only('rust-type-added', 'A component Tag is added.', {'Thing': thing}, {'Thing': thing, 'Tag': S},
             [R('info', 'rust-type-added', 'new', C('Tag'))])
schemas_only('rust-type-changed', 'The component Code, a string, becomes an integer: its newtype wraps i64.',
             {'Code': S}, {'Code': {'type': 'integer'}},
             [R('error', 'rust-type-changed', 'new', C('Code'))])
two = {'type': 'object', 'properties': {'a': S, 'b': S}}
schemas_only('rust-field-removed', 'Thing loses its property b.', {'Thing': two}, {'Thing': thing},
             [R('error', 'rust-field-removed', 'old', C('Thing', 'properties', 'b'))])
schemas_only('rust-field-renamed',
             'Thing gains fooBar, which takes the Rust name foo_bar: the property foo_bar is now field foo_bar_2.',
             {'Thing': {'type': 'object', 'properties': {'foo_bar': S}}},
             {'Thing': {'type': 'object', 'properties': {'fooBar': S, 'foo_bar': S}}},
             [R('error', 'rust-field-renamed', 'new', C('Thing', 'properties', 'foo_bar')),
              R('warning', 'rust-optional-field-added', 'new', C('Thing', 'properties', 'fooBar'))])
schemas_only('rust-field-type-changed', 'Thing.a, a string, becomes an integer.',
             {'Thing': thing}, {'Thing': {'type': 'object', 'properties': {'a': {'type': 'integer'}}}},
             [R('error', 'rust-field-type-changed', 'new', C('Thing', 'properties', 'a'))])
req_a = {'type': 'object', 'required': ['a'], 'properties': {'a': S, 'b': S}}
schemas_only('rust-field-option-added', 'Thing.a becomes optional: its field an Option (and Thing gets Default).',
             {'Thing': req_a}, {'Thing': two},
             [R('error', 'rust-field-option-added', 'new', C('Thing', 'properties', 'a')),
              R('info', 'rust-default-added', 'new', C('Thing'))])
schemas_only('rust-field-option-removed', 'Thing.a becomes required: its field no longer an Option.',
             {'Thing': two}, {'Thing': req_a},
             [R('error', 'rust-field-option-removed', 'new', C('Thing', 'properties', 'a')),
              R('warning', 'rust-default-removed', 'new', C('Thing'))])
schemas_only('rust-field-added', 'Thing gains a required property b: every struct literal must give it.',
             {'Thing': thing}, {'Thing': {'type': 'object', 'required': ['b'], 'properties': {'a': S, 'b': S}}},
             [R('error', 'rust-field-added', 'new', C('Thing', 'properties', 'b')),
              R('warning', 'rust-default-removed', 'new', C('Thing'))])
schemas_only('rust-optional-field-added', 'Thing gains an optional property b.',
             {'Thing': thing}, {'Thing': two},
             [R('warning', 'rust-optional-field-added', 'new', C('Thing', 'properties', 'b'))])
opt_a = {'type': 'object', 'properties': {'a': S}}
req_only_a = {'type': 'object', 'required': ['a'], 'properties': {'a': S}}
schemas_only('rust-default-removed', 'Thing.a becomes required: Thing no longer implements Default.',
             {'Thing': opt_a}, {'Thing': req_only_a},
             [R('error', 'rust-field-option-removed', 'new', C('Thing', 'properties', 'a')),
              R('warning', 'rust-default-removed', 'new', C('Thing'))])
schemas_only('rust-default-added', 'Thing.a becomes optional: Thing now implements Default.',
             {'Thing': req_only_a}, {'Thing': opt_a},
             [R('error', 'rust-field-option-added', 'new', C('Thing', 'properties', 'a')),
              R('info', 'rust-default-added', 'new', C('Thing'))])
def color(*values):
    return {'Color': {'type': 'string', 'enum': list(values)}}
schemas_only('rust-variant-removed', 'The enum Color loses green.', color('red', 'green'), color('red'),
             [R('error', 'rust-variant-removed', 'old', C('Color'))])
schemas_only('rust-variant-renamed',
             'Color gains a_b, which takes the Rust name AB: the value a-b is now variant AB2.',
             color('a-b'), color('a_b', 'a-b'),
             [R('error', 'rust-variant-renamed', 'new', C('Color')), R('warning', 'rust-variant-added', 'new', C('Color'))])
def returning(name):
    return {'paths': {'/items': {'get': {'operationId': 'listItems', 'responses': {'200': {
        'description': 'ok', 'content': {JSON: {'schema': ref(name)}}}}}}},
            'schemas': {'Thing': thing, 'Other': thing}}
pair('rust-variant-payload-changed',
     'GET /items answers Other instead of Thing (the same schema, another component): nothing on the wire.',
     returning('Thing'), returning('Other'),
     [R('error', 'rust-variant-payload-changed', 'new', ITEMS), SIG])
schemas_only('rust-variant-added', 'The enum Color gains green.', color('red'), color('red', 'green'),
             [R('warning', 'rust-variant-added', 'new', C('Color'))])
with_default = {'type': 'object', 'properties': {'a': {'type': 'string', 'default': 'x'}}}
schemas_only('rust-method-removed', 'Thing.a loses its default: its `a_or_default` accessor goes.',
             {'Thing': with_default}, {'Thing': thing},
             [R('error', 'rust-method-removed', 'old', C('Thing'))])
schemas_only('rust-method-renamed',
             'Thing gains fooBar, which takes the Rust name foo_bar: foo_bar_or_default is now foo_bar_2_or_default.',
             {'Thing': {'type': 'object', 'properties': {'foo_bar': {'type': 'string', 'default': 'x'}}}},
             {'Thing': {'type': 'object', 'properties': {'fooBar': S, 'foo_bar': {'type': 'string', 'default': 'x'}}}},
             [R('error', 'rust-field-renamed', 'new', C('Thing', 'properties', 'foo_bar')),
              R('error', 'rust-method-renamed', 'new', C('Thing')),
              R('warning', 'rust-optional-field-added', 'new', C('Thing', 'properties', 'fooBar'))])
schemas_only('rust-method-signature-changed',
             'Thing.n, an integer with a default, becomes int32: its field and accessor now use i32.',
             {'Thing': {'type': 'object', 'properties': {'n': {'type': 'integer', 'default': 1}}}},
             {'Thing': {'type': 'object', 'properties': {'n': {'type': 'integer', 'format': 'int32', 'default': 1}}}},
             [R('error', 'rust-field-type-changed', 'new', C('Thing', 'properties', 'n')),
              R('error', 'rust-method-signature-changed', 'new', C('Thing'))])
def two_params(first, second):
    return {'paths': {'/items': {'get': get(parameters=[
        {'name': first, 'in': 'query', 'schema': S}, {'name': second, 'in': 'query', 'schema': S}])}}}
pair('rust-method-arguments-shifted',
     'The query parameters a and b swap places: Client::list_items(a, b) still compiles, and sends a as b.',
     two_params('a', 'b'), two_params('b', 'a'),
     [R('error', 'rust-method-arguments-shifted', 'new', ITEMS)])
schemas_only('rust-method-added', 'Thing.a gains a default: an `a_or_default` accessor is added.',
             {'Thing': thing}, {'Thing': with_default},
             [R('info', 'rust-method-added', 'new', C('Thing'))])
two_ops = {'/items': {'get': get()}, '/other': {'get': get('listOther')}}
pair('rust-trait-method-added', 'GET /other is added: every implementation of server::Api lacks it.',
     {'paths': items}, {'paths': two_ops},
     [('info', '-', 'endpoint-added', 'new', op_ptr('/other', 'get'))] + added_operation('/other', 'get'))
pair('rust-trait-method-removed', 'GET /other goes: implementations of server::Api define a method the trait lacks.',
     {'paths': two_ops}, {'paths': items},
     [('error', 'clients', 'api-path-removed-without-deprecation', 'old', op_ptr('/other', 'get'))]
     + removed_operation('/other', 'get', 'list_other', 'ListOther'))
pair('rust-trait-method-renamed', 'operationId listItems → getItems renames server::Api::list_items.',
     {'paths': items}, {'paths': {'/items': {'get': get('getItems')}}},
     [('info', '-', 'api-operation-id-changed', 'new', ITEMS)] + renamed_operation(ITEMS))
POST = op_ptr('/items', 'post')
def taking(name):
    return {'paths': {'/items': {'post': post(requestBody=body(ref(name)))}},
            'schemas': {'Thing': thing, 'Other': thing}}
pair('rust-trait-method-signature-changed',
     'POST /items takes Other instead of Thing (the same schema, another component): nothing on the wire.',
     taking('Thing'), taking('Other'),
     [R('error', 'rust-trait-method-signature-changed', 'new', POST),
      R('error', 'rust-method-signature-changed', 'new', POST)])
fixture_old = api('1.0.0', schemas={'Thing': two})
fixture_new = api('1.0.0', schemas={'Thing': thing})
fixture('rust-version-bump-insufficient',
                   'Thing loses its property b, a major change, and info.version stays 1.0.0.',
                   fixture_old, fixture_new,
                   [R('error', 'rust-field-removed', 'old', C('Thing', 'properties', 'b')),
                    R('warning', 'rust-version-bump-insufficient', 'new', ptr('info', 'version'))])


if __name__ == '__main__':
    shutil.rmtree(ROOT, ignore_errors=True)
    count = generate_schema_pairs()
    for check, description, old, new, expect in FIXTURES:
        write(check, description, old, new, expect)
    print(f'{count + len(FIXTURES)} pairs written to {os.path.normpath(ROOT)}')
