#!/usr/bin/env python3
"""Drives the fixed traffic of scripts/proxy-compare.sh through one proxy (or straight to the
sandbox), and measures throughput. Standard library only.

  proxy-compare.py traffic ORIGIN PREFIX SANDBOX OUT.json
      Resets and seeds the sandbox (SANDBOX, its own origin), sends every request of TRAFFIC
      to ORIGIN with PREFIX in front of each API path (`/v1` through specval or straight,
      `` through Prism, whose routes are the spec's paths without the server's base path), and
      writes per request: status, and Prism's `sl-violations` header when there is one.
  proxy-compare.py bench ORIGIN PREFIX N CONCURRENCY
      N GETs of one account over keep-alive connections, CONCURRENCY at a time; prints
      requests per second.
"""

import http.client
import json
import sys
import threading
import time
import urllib.parse

PK, SK = "pk_compare_public", "sk_compare_secret"
CREDS = {"public-api-key": PK, "private-secret-key": SK}
ACCOUNT = "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b"
JSON = {"content-type": "application/json"}
GOOD_CREATE = {
    "account_id": ACCOUNT,
    "onboarding_id": "onb_ready",
    "account_type": "CHECKING",
    "currency": "USD",
}
KEY = {"x-idempotency-key": "2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e01"}

# (label, method, api path, headers, body): what each request is meant to show.
TRAFFIC = [
    ("create account (valid)", "POST", "/banking/accounts", {**CREDS, **JSON, **KEY}, GOOD_CREATE),
    ("get account (valid)", "GET", f"/banking/accounts/{ACCOUNT}", CREDS, None),
    ("get unknown account: 404 (valid)", "GET", "/banking/accounts/00000000-0000-4000-8000-000000000000", CREDS, None),
    ("list payments (valid)", "GET", "/payments?merchant_order_id=order-1", CREDS, None),
    ("no credentials: 401", "GET", f"/banking/accounts/{ACCOUNT}", {}, None),
    ("create: body lacks currency, bad uuid", "POST", "/banking/accounts", {**CREDS, **JSON, **KEY},
     {"account_id": "not-a-uuid", "onboarding_id": "onb_ready", "account_type": "CHECKING"}),
    ("create: no x-idempotency-key", "POST", "/banking/accounts", {**CREDS, **JSON}, GOOD_CREATE),
    ("create: text/plain body", "POST", "/banking/accounts", {**CREDS, "content-type": "text/plain", **KEY}, "hello"),
    ("get account: id not a uuid", "GET", "/banking/accounts/not-a-uuid", CREDS, None),
    ("create: unknown enum value", "POST", "/banking/accounts", {**CREDS, **JSON, **KEY},
     {**GOOD_CREATE, "account_type": "BROKERAGE"}),
    ("unknown path", "GET", "/banking/nowhere", CREDS, None),
    ("method not allowed", "DELETE", "/banking/accounts", CREDS, None),
]


def request(conn, method, path, headers, body):
    data = None
    if body is not None:
        data = body if isinstance(body, str) else json.dumps(body)
        data = data.encode()
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    payload = response.read()
    return response, payload


def connect(origin):
    parsed = urllib.parse.urlsplit(origin)
    return http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)


def seed(sandbox):
    conn = connect(sandbox)
    request(conn, "POST", "/_sandbox/reset", {}, None)
    response, payload = request(conn, "POST", "/_sandbox/onboardings", {**CREDS, **JSON},
                                {"id": "onb_ready", "status": "SUCCEEDED"})
    if response.status >= 300:
        sys.exit(f"seeding failed: {response.status} {payload!r}")
    # A payment for the lookup, if the control API takes this shape; the lookup is valid
    # either way (an empty list).
    conn.close()


def traffic(origin, prefix, sandbox, out):
    seed(sandbox)
    results = []
    for label, method, path, headers, body in TRAFFIC:
        conn = connect(origin)
        response, _ = request(conn, method, prefix + path, headers, body)
        violations = response.getheader("sl-violations")
        results.append({
            "label": label,
            "method": method,
            "path": path,
            "status": response.status,
            "violations": json.loads(violations) if violations else [],
        })
        conn.close()
    with open(out, "w") as f:
        json.dump(results, f, indent=1)


def bench(origin, prefix, n, concurrency):
    path = f"{prefix}/banking/accounts/{ACCOUNT}"
    per = n // concurrency
    errors = []

    def worker():
        conn = connect(origin)
        for _ in range(per):
            response, _ = request(conn, "GET", path, CREDS, None)
            if response.status != 200:
                errors.append(response.status)
        conn.close()

    # Warm up (connections, JIT in Prism's case).
    for _ in range(50):
        conn = connect(origin)
        request(conn, "GET", path, CREDS, None)
        conn.close()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        sys.exit(f"{len(errors)} requests failed: {errors[:5]}")
    print(f"{per * concurrency / elapsed:.0f}")


def verdict_specval(findings, index):
    mine = [f for f in findings if f["exchange"] == index]
    if not mine:
        return "ok"
    seen = []
    for f in mine:
        item = f"{f['part']} {f['rule']}" + (f" {f['pointer']}" if f["pointer"] else "")
        if item not in seen:
            seen.append(item)
    return "; ".join(seen)


def verdict_prism(violations):
    if not violations:
        return "ok"
    seen = []
    for v in violations:
        where = ".".join(v.get("location", [])) or "?"
        what = v.get("code") or v.get("message", "")
        item = f"{where} {what}" + (" (warning)" if v.get("severity") == "Warning" else "")
        if item not in seen:
            seen.append(item)
    return "; ".join(seen)


def table(report, direct, specval, prism):
    findings = json.load(open(report))["findings"]
    direct, specval, prism = (json.load(open(p)) for p in (direct, specval, prism))
    print("| # | request | status (direct / specval / Prism) | specval proxy | Prism proxy |")
    print("|---|---|---|---|---|")
    for i, row in enumerate(direct):
        statuses = f"{row['status']} / {specval[i]['status']} / {prism[i]['status']}"
        print(f"| {i} | {row['label']} (`{row['method']} {row['path']}`) | {statuses} | "
              f"{verdict_specval(findings, i)} | {verdict_prism(prism[i]['violations'])} |")


def main():
    if sys.argv[1] == "traffic":
        traffic(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif sys.argv[1] == "bench":
        bench(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif sys.argv[1] == "table":
        table(*sys.argv[2:6])
    elif sys.argv[1] == "count":
        print(len(TRAFFIC))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
