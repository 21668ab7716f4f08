#!/usr/bin/env python3
"""Cross-checks the hand-derived expected-*.json against a real build.

Usage: check-expected.py PROGRESS_LEDGER_BINARY

For each good fixture, reference-import.py (docs/import.md in Python) writes
the events into a fresh log, the binary's `state --json` folds it, and every
member stated in `expect` is compared (members not stated are not checked).
Also: every bad-rows.json case is refused by the reference. Until the Swift
importer exists this checks the expectations and the rules against each
other; after, the Swift tests do the same with `import` itself.
"""
import json, os, subprocess, sys, tempfile, hashlib

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1]
failures = 0


def cmp(e, g, path):
    global failures
    if isinstance(e, dict):
        for k, v in e.items():
            if not isinstance(g, dict) or k not in g:
                print("%s: missing" % (path + "." + k)); failures += 1
            else:
                cmp(v, g[k], path + "." + k)
    elif isinstance(e, list):
        if not isinstance(g, list) or len(e) != len(g):
            print("%s: %d items expected, got %r" % (path, len(e), g)); failures += 1
            return
        for i, (a, b) in enumerate(zip(e, g)):
            cmp(a, b, "%s[%d]" % (path, i))
    elif e != g or type(e) != type(g):
        print("%s: expected %r, got %r" % (path, e, g)); failures += 1


def build_log(import_arg_lists):
    lines = []
    for args in import_arg_lists:
        out = subprocess.run([sys.executable, "reference-import.py"] + args, cwd=HERE,
                             capture_output=True, text=True, check=True).stdout
        for l in out.splitlines():
            lines.append(json.loads(l))
    prev, text, ids = "0" * 64, "", set()
    user = import_arg_lists[0][import_arg_lists[0].index("--user") + 1]
    for n, e in enumerate(lines, start=1):
        if e["id"] in ids:
            continue   # the same event twice: the ledger appends nothing
        ids.add(e["id"])
        env = {"v": 1, "seq": len(ids), "id": e["id"], "at": e["at"], "user": user,
               "type": e["type"], "data": e["data"], "prev": prev}
        line = json.dumps(env, separators=(",", ":"), ensure_ascii=False)
        prev = hashlib.sha256(line.encode()).hexdigest()
        text += line + "\n"
    fd, path = tempfile.mkstemp(suffix=".log")
    os.write(fd, text.encode()); os.close(fd)
    return path, len(ids)


def state(log, args):
    r = subprocess.run([BIN, "state", log] + args, capture_output=True, text=True)
    return json.loads(r.stdout)


for name in ("daily-quiz", "cryptogram", "sat-attempts", "quiz-app"):
    x = json.load(open(os.path.join(HERE, "expected-%s.json" % name)))
    variants = [("import", x.get("imports") or [x["import"]])]
    for alt in ("import_csv", "import_as_string"):
        if alt in x:
            variants.append((alt, [x[alt]]))
    for label, imports in variants:
        log, n = build_log(imports)
        want = x["events_appended"] if isinstance(x["events_appended"], int) else sum(x["events_appended"])
        if n != want:
            print("%s %s: %d events, expected %d" % (name, label, n, want)); failures += 1
        cmp(x["expect"], state(log, x["state"]), "%s(%s)" % (name, label))
        # importing twice appends nothing
        log2, n2 = build_log(imports + imports)
        if n2 != n:
            print("%s %s: importing twice made %d events, once %d" % (name, label, n2, n)); failures += 1
        os.unlink(log); os.unlink(log2)
    if "unseeded" in x:
        log, n = build_log([x["unseeded"]["import"]])
        if n != x["unseeded"]["events_appended"]:
            print("%s unseeded: %d events" % (name, n)); failures += 1
        cmp(x["unseeded"]["expect"], state(log, x["state"]), name + "(unseeded)")
        os.unlink(log)

for c in json.load(open(os.path.join(HERE, "bad-rows.json")))["cases"]:
    r = subprocess.run([sys.executable, "reference-import.py", "--from", c["from"], c["file"],
                        "--user", "learner-7"] + c["args"], cwd=HERE, capture_output=True, text=True)
    if r.returncode != 1 or r.stdout.strip() != c["reference_message"]:
        print("bad row %s: %r" % (c["file"], r.stdout)); failures += 1

print("check-expected: %d failures" % failures)
sys.exit(1 if failures else 0)
