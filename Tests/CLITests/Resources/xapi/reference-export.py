#!/usr/bin/env python3
"""A reference of docs/xapi.md in Python: the statements `export --format xapi` prints.

Usage: reference-export.py LOG [--user U] [--homepage URL] [--activity-base IRI]

Writes the statements as JSON lines to stdout, byte for byte as docs/xapi.md
specifies them, so the Swift exporter's output can be compared with it and
scripts/xapi-validate can be tried on a whole demo log before the exporter
exists. Reads a single v1 log (no DIR).
"""
import hashlib, json, re, sys, uuid
from datetime import datetime
from decimal import Decimal, ROUND_HALF_UP

NS = uuid.UUID("6f1d3c2a-8b4e-4c5d-9a7f-2e8b1c0d4f53")
ADL = "http://adlnet.gov/expapi/verbs/"
T_ASSESSMENT = "http://adlnet.gov/expapi/activities/assessment"
T_QUESTION = "http://adlnet.gov/expapi/activities/question"
T_LESSON = "http://adlnet.gov/expapi/activities/lesson"
T_GAME = "http://activitystrea.ms/schema/1.0/game"
RFC = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$")
UNRESERVED = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def name_uuid(name):
    b = bytearray(hashlib.sha256(NS.bytes + name.encode("utf-8")).digest()[:16])
    b[6] = (b[6] & 0x0F) | 0x80
    b[8] = (b[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(b)))


def seg(s):
    if s in (".", ".."):
        return s.replace(".", "%2E")
    return "".join(chr(c) if c in UNRESERVED else "%%%02X" % c for c in s.encode("utf-8"))


def instant(at):
    """Exact seconds since the epoch as a Decimal."""
    m = RFC.match(at)
    base = datetime.fromisoformat(m.group(1) + ("+00:00" if m.group(3) == "Z" else m.group(3)))
    return Decimal(int(base.timestamp())) + (Decimal("0." + m.group(2)) if m.group(2) else 0)


def secs_text(d):
    """projections.md seconds: integer when whole, else decimal without trailing zeros."""
    d = Decimal(d)
    if d == d.to_integral_value():
        return str(int(d))
    t = format(d.quantize(Decimal("0.000000001")), "f").rstrip("0").rstrip(".")
    return t


class Raw(float):
    """A number written with a given text (json.dumps would write 0.6667 fine, but 1 as 1.0)."""


def scaled(raw, mx):
    q = (Decimal(raw) / Decimal(mx)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    t = format(q, "f").rstrip("0").rstrip(".")
    return json.loads(t)   # int for "0"/"1", float otherwise


def main(argv):
    log = argv[0]
    opts = {"--user": None, "--homepage": "https://progress-ledger.example/",
            "--activity-base": "https://progress-ledger.example/activities/"}
    for i in range(1, len(argv), 2):
        opts[argv[i]] = argv[i + 1]
    B = opts["--activity-base"]
    if not B.endswith("/"):
        B += "/"
    attempts = {}
    out = []
    for raw in open(log, "rb").read().split(b"\n"):
        if not raw:
            continue
        ev = json.loads(raw)
        if ev.get("v") not in (1, 2):  # version 2 adds streak.freeze_granted and streak.paused: they map to nothing
            continue
        u = ev["user"]
        if opts["--user"] is not None and u != opts["--user"]:
            continue
        t, d = ev["type"], ev["data"]
        verb, obj, result, ctx = None, None, {}, {}
        ext = {"event": ev["id"]}
        key = (u, d.get("attempt"))
        a = attempts.get(key)
        if t == "quiz.started":
            if a is not None:
                continue
            a = attempts[key] = {"quiz": d["quiz"], "questions": d["questions"], "start": ev["at"],
                                 "answered": set(), "correct": 0, "ended": False}
            verb = (ADL + "initialized", "initialized")
            obj = (B + "quizzes/" + seg(d["quiz"]), T_ASSESSMENT)
            if d.get("category") is not None:
                ext["category"] = d["category"]
            ctx = {"registration": name_uuid("registration\n%s\n%s" % (u, d["attempt"]))}
        elif t in ("answer.selected", "hint.used", "quiz.finished", "quiz.abandoned"):
            if a is None or a["ended"]:
                continue
            quiz_id = B + "quizzes/" + seg(a["quiz"])
            if t == "answer.selected":
                if d["question"] in a["answered"]:
                    continue
                a["answered"].add(d["question"])
                if d["correct"]:
                    a["correct"] += 1
                verb = (ADL + "answered", "answered")
                obj = (quiz_id + "/questions/" + seg(d["question"]), T_QUESTION)
                result["success"] = d["correct"]
                result["response"] = str(d["choice"])
                if d.get("ms") is not None:
                    result["duration"] = "PT%sS" % secs_text(Decimal(d["ms"]) / 1000)
                ctx["contextActivities"] = {"parent": [{"objectType": "Activity", "id": quiz_id}]}
                if d.get("skill") is not None:
                    ext["skill"] = d["skill"]
            elif t == "hint.used":
                verb = (B + "verbs/used-hint", "used hint")
                obj = (quiz_id + "/questions/" + seg(d["question"]), T_QUESTION)
                ctx["contextActivities"] = {"parent": [{"objectType": "Activity", "id": quiz_id}]}
                ext["hint"] = d["hint"]
            else:
                a["ended"] = True
                done = t == "quiz.finished"
                verb = (ADL + ("completed" if done else "terminated"), "completed" if done else "terminated")
                obj = (quiz_id, T_ASSESSMENT)
                result["score"] = {"scaled": scaled(a["correct"], a["questions"]), "raw": a["correct"],
                                   "min": 0, "max": a["questions"]}
                result["completion"] = done
                dur = instant(ev["at"]) - instant(a["start"])
                if dur >= 0:
                    result["duration"] = "PT%sS" % secs_text(dur)
            ctx = {"registration": name_uuid("registration\n%s\n%s" % (u, d["attempt"])), **ctx}
        elif t in ("puzzle.completed", "puzzle.failed"):
            ok = t == "puzzle.completed"
            verb = (ADL + ("passed" if ok else "failed"), "passed" if ok else "failed")
            obj = (B + "puzzles/" + seg(d["puzzle"]) + "/" + seg(d["encoding"]), T_GAME)
            result["success"] = ok
            result["completion"] = ok
            if d.get("seconds") is not None:
                result["duration"] = "PT%sS" % secs_text(Decimal(repr(d["seconds"])) if isinstance(d["seconds"], float) else d["seconds"])
        elif t == "submission.made":
            verb = (ADL + "completed", "completed")
            if d["kind"] == "lesson":
                obj = (B + "lessons/" + seg(d["content"]), T_LESSON)
            else:
                obj = (B + "passages/" + seg(d["content"]), T_ASSESSMENT)
            n = len(d["answers"])
            if n:
                c = sum(1 for x in d["answers"] if x["correct"])
                result["score"] = {"scaled": scaled(c, n), "raw": c, "min": 0, "max": n}
            result["completion"] = True
            if d.get("seconds") is not None:
                result["duration"] = "PT%sS" % secs_text(d["seconds"])
            ext["category"] = d["category"]
            if d.get("diagnostic") is True:
                ext["diagnostic"] = True
        else:
            continue
        ctx["extensions"] = {B + "extensions/" + k: ext[k]
                             for k in ("event", "category", "skill", "hint", "diagnostic") if k in ext}
        st = {"id": name_uuid("statement\n%s\n%s" % (u, ev["id"])),
              "actor": {"objectType": "Agent", "account": {"homePage": opts["--homepage"], "name": u}},
              "verb": {"id": verb[0], "display": {"en-US": verb[1]}},
              "object": {"objectType": "Activity", "id": obj[0], "definition": {"type": obj[1]}}}
        if result:
            st["result"] = {k: result[k] for k in ("score", "success", "completion", "response", "duration") if k in result}
        st["context"] = {k: ctx[k] for k in ("registration", "contextActivities", "extensions") if k in ctx}
        st["timestamp"] = ev["at"]
        st["version"] = "1.0.3"
        out.append(json.dumps(st, separators=(",", ":"), ensure_ascii=False))
    sys.stdout.write("".join(l + "\n" for l in out))


if __name__ == "__main__":
    main(sys.argv[1:])
