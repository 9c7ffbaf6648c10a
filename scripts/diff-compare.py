#!/usr/bin/env python3
"""Runs `specgen diff`, Optic (`optic diff --check`) and Redocly (`redocly diff`) on the same
pairs and tabulates what each reports: the check pairs of generator/tests/diff/checks and the
real pairs (each corpus spec of ../shared/corpus/real against its hand-made next version,
generator/tests/diff/real/<file>.patch).

Usage:
  scripts/diff-compare.py --tools DIR [--specgen BIN] [--out DIR] [--only real|checks] [--jobs N]

DIR holds the npm installs, made outside the repository:
  mkdir -p DIR/optic DIR/redocly
  (cd DIR/redocly && npm init -y && npm install @redocly/cli)
  (cd DIR/optic && npm init -y && npm pkg set overrides.ajv=8.20.0 && npm install @useoptic/optic)
(Optic's spectral dependency pairs ajv-errors with a second copy of ajv and crashes at start;
one ajv for both, through the override, fixes it.) Both tools run offline, without an account.

Optic runs its `breaking-changes` ruleset through a standard file written to OUT with
`skip_when_major_version_changes: false`: by default Optic skips every breaking-change rule when
info.version changes major, and the check pairs bump 1.0.0 to 2.0.0 whenever they break.

Writes OUT/results.json (every pair, every tool's findings) and prints the Markdown tables
the README shows. BIN defaults to the release build in $CARGO_TARGET_DIR (or target/).
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
CHECKS = os.path.join(ROOT, 'generator', 'tests', 'diff', 'checks')
REAL = os.path.join(ROOT, 'generator', 'tests', 'diff', 'real')
CORPUS = os.path.normpath(os.path.join(ROOT, '..', 'shared', 'corpus', 'real'))


def run(args, cwd=None, timeout=600):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def specgen(binary, old, new):
    out = run([binary, 'diff', old, new, '--format', 'json'])
    if out.returncode == 2:
        return {'error': out.stderr.strip()}
    report = json.loads(out.stdout)
    wire = [f for f in report['findings'] if f.get('side') in ('clients', 'servers')]
    return {
        'findings': [(f['level'], f.get('side') or '-', f['id'], f['message']) for f in report['findings']],
        'breaking': any(f['level'] == 'error' for f in wire),
        'clients_breaking': any(f['level'] == 'error' and f['side'] == 'clients' for f in wire),
        'warned': any(f['level'] == 'warning' for f in wire),
        'semver': report['semver']['needed'],
    }


OPTIC_LINE = re.compile(r'^\s*x \[(?P<rule>[^\]]+)\] (?P<message>.*)$')


OPTIC_STANDARD = 'ruleset:\n  - breaking-changes:\n      skip_when_major_version_changes: false\n'


def optic(tools, standard, old, new):
    binary = os.path.join(tools, 'optic', 'node_modules', '.bin', 'optic')
    try:
        out = run([binary, 'diff', old, new, '--check', '--standard', standard], cwd=os.path.dirname(new))
    except subprocess.TimeoutExpired:
        return {'error': 'did not finish in 600 s'}
    text = out.stdout + out.stderr
    found = [(m.group('rule'), m.group('message')) for m in map(OPTIC_LINE.match, text.splitlines()) if m]
    invalid = [line for line in text.splitlines() if line.startswith('invalid openapi')]
    if invalid:
        # Optic validates the new side strictly and stops there, checking nothing.
        return {'error': f'rejects the spec ({len(invalid)} errors), first: {invalid[0]}'}
    if out.returncode != 0 and not found:
        return {'error': text.strip()[-500:]}
    return {'findings': found, 'breaking': bool(found)}


def redocly(tools, old, new):
    binary = os.path.join(tools, 'redocly', 'node_modules', '.bin', 'redocly')
    out = run([binary, 'diff', old, new, '--format', 'json'], cwd=os.path.dirname(new))
    try:
        start = out.stdout.index('{')
        report = json.loads(out.stdout[start:])
    except ValueError:
        return {'error': (out.stdout + out.stderr).strip()[-500:]}
    findings = []
    for change in report.get('changes', []):
        for verdict in change.get('verdicts', []) or [{'ruleId': change.get('kind'), 'impact': change.get('impact'), 'message': change.get('path')}]:
            findings.append((verdict.get('impact'), verdict.get('ruleId'), verdict.get('message') or change.get('path')))
    return {'findings': findings, 'breaking': report.get('bump') == 'major', 'bump': report.get('bump')}


def real_pairs(work):
    pairs = []
    for patch in sorted(os.listdir(REAL)):
        name = patch[:-len('.patch')]
        directory = os.path.join(work, 'real', name)
        os.makedirs(directory, exist_ok=True)
        ext = os.path.splitext(name)[1]
        old = os.path.join(directory, 'old' + ext)
        new = os.path.join(directory, 'new' + ext)
        shutil.copyfile(os.path.join(CORPUS, name), old)
        shutil.copyfile(os.path.join(CORPUS, name), new)
        result = run(['patch', '-s', '-p1', '-o', new, os.path.join(CORPUS, name), os.path.join(REAL, patch)])
        if result.returncode != 0:
            sys.exit(f'patch {patch}: {result.stdout}{result.stderr}')
        pairs.append(('real', name, old, new))
    return pairs


def check_pairs(work):
    pairs = []
    for name in sorted(os.listdir(CHECKS)):
        directory = os.path.join(work, 'checks', name)
        os.makedirs(directory, exist_ok=True)
        for side in ('old', 'new'):
            shutil.copyfile(os.path.join(CHECKS, name, side + '.yaml'), os.path.join(directory, side + '.yaml'))
        pairs.append(('check', name, os.path.join(directory, 'old.yaml'), os.path.join(directory, 'new.yaml')))
    return pairs


def catalogue(binary):
    out = run([binary, 'diff', '--list-checks', '--format', 'json'])
    return {check['id']: check for check in json.loads(out.stdout)}


def category(check):
    side = check['side'] or 'none'
    if side == 'rust':
        return 'Rust API only (no wire change)'
    if check['level'] == 'info':
        return 'breaks nothing (info)'
    if side == 'servers':
        return f'old servers / receivers ({check["level"]})'
    return f'old clients ({check["level"]})'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--tools', required=True)
    target = os.environ.get('CARGO_TARGET_DIR', os.path.join(ROOT, 'target'))
    parser.add_argument('--specgen', default=os.path.join(target, 'release', 'specgen'))
    parser.add_argument('--out', default='/tmp/specgen-diff-compare')
    parser.add_argument('--only', choices=['real', 'checks'])
    parser.add_argument('--jobs', type=int, default=2)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    standard = os.path.join(args.out, 'optic-standard.yml')
    with open(standard, 'w') as f:
        f.write(OPTIC_STANDARD)
    pairs = []
    if args.only in (None, 'real'):
        pairs += real_pairs(args.out)
    if args.only in (None, 'checks'):
        pairs += check_pairs(args.out)

    def one(pair):
        kind, name, old, new = pair
        return {
            'kind': kind,
            'name': name,
            'specgen': specgen(args.specgen, old, new),
            'optic': optic(args.tools, standard, old, new),
            'redocly': redocly(args.tools, old, new),
        }

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(one, pairs))
    with open(os.path.join(args.out, 'results.json'), 'w') as f:
        json.dump(results, f, indent=1)
    print_tables(results, catalogue(args.specgen))


def flag(result):
    if 'error' in result:
        return 'fails to run'
    return 'breaking' if result['breaking'] else 'not breaking'


def print_tables(results, checks):
    real = [r for r in results if r['kind'] == 'real']
    if real:
        print('| pair | specgen (wire: error / warning / info; Rust verdict) | Optic (failed checks) | Redocly (major / minor / patch) |')
        print('|---|---|---|---|')
        for r in real:
            s = r['specgen']
            levels = [f[0] for f in s.get('findings', []) if f[1] != 'rust']
            counts = f"{levels.count('error')} / {levels.count('warning')} / {levels.count('info')}; {s.get('semver')}"
            o = r['optic']
            rd = r['redocly']
            impacts = [f[0] for f in rd.get('findings', [])]
            red = f"{impacts.count('major')} / {impacts.count('minor')} / {impacts.count('patch')}" if 'error' not in rd else 'fails to run'
            if 'error' in o:
                opt = 'rejects the spec' if o['error'].startswith('rejects') else 'fails to run'
            else:
                opt = f"{len(o['findings'])} ({len(set(map(tuple, o['findings'])))} distinct)"
            print(f"| {r['name']} | {counts} | {opt} | {red} |")
        print()
    pairs = [r for r in results if r['kind'] == 'check']
    if not pairs:
        return
    groups = {}
    for r in pairs:
        check = checks.get(r['name'])
        if check is None:
            continue
        groups.setdefault(category(check), []).append(r)
    print('| check pairs (by what specgen expects) | pairs | specgen: wire error | Optic: breaking | Redocly: major | tool failures (Optic / Redocly) |')
    print('|---|---|---|---|---|---|')
    for name in sorted(groups):
        rs = groups[name]
        specgen_yes = sum(1 for r in rs if r['specgen'].get('breaking'))
        optic_yes = sum(1 for r in rs if r['optic'].get('breaking'))
        red_yes = sum(1 for r in rs if r['redocly'].get('breaking'))
        failures = f"{sum(1 for r in rs if 'error' in r['optic'])} / {sum(1 for r in rs if 'error' in r['redocly'])}"
        print(f'| {name} | {len(rs)} | {specgen_yes} | {optic_yes} | {red_yes} | {failures} |')


if __name__ == '__main__':
    main()
