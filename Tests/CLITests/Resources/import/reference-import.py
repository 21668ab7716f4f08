#!/usr/bin/env python3
"""A reference of docs/import.md in Python: the events `import` must make.

Usage: reference-import.py --from KIND FILE... --user U [--device D]
           [--utc-offset +HH:MM] [--at TIME] [--kind K --content C --category C]
           [--log OUT]

Prints the events as JSON lines (what `import --dry-run` lists), or with
`--log OUT` writes them as a fresh v1 log (seq from 1, prev chained) so that
`progress-ledger state OUT --user U --json` can be compared with the
expected-*.json files. Bad rows are printed as `FILE: ROW: MEMBER: rule` and
the exit status is 1 (nothing written). Written beside the fixtures to check
the hand-derived expectations; the Swift importer is the product.
"""
import csv, hashlib, io, json, os, re, sqlite3, sys
from datetime import datetime, timedelta, timezone
from decimal import Decimal, ROUND_HALF_UP

RFC = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$")
UUID = re.compile(r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
REF2001 = datetime(2001, 1, 1, tzinfo=timezone.utc)


class Bad(Exception):
    pass


def opts(argv):
    o = {"files": [], "device": None, "offset": "+00:00", "at": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--"):
            o[a[2:].replace("-", "_")] = argv[i + 1]
            i += 2
        else:
            o["files"].append(a)
            i += 1
    return o


def tz_of(off):
    m = re.match(r"^([+-])(\d{2}):(\d{2})$", off)
    sign = 1 if m.group(1) == "+" else -1
    return timezone(sign * timedelta(hours=int(m.group(2)), minutes=int(m.group(3))))


def fmt(instant_utc, frac_digits, o):
    """An instant (aware datetime + exact nanoseconds as a fraction string) in --utc-offset."""
    dt, frac = instant_utc
    local = dt.astimezone(tz_of(o["utc_offset"] if "utc_offset" in o else o["offset"]))
    s = local.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        s += "." + frac
    return s + local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:]


def parse_rfc(s):
    if not isinstance(s, str):
        raise Bad("not an RFC 3339 time with an offset: %s" % json.dumps(s))
    m = RFC.match(s)
    if not m:
        raise Bad("not an RFC 3339 time with an offset: %s" % json.dumps(s))
    base = datetime.fromisoformat(s[:19] + ("+00:00" if m.group(8) == "Z" else m.group(8)))
    return (base.astimezone(timezone.utc), (m.group(7) or "")[1:])


def parse_since2001(v):
    """JSONEncoder .deferredToDate: seconds since 2001, rounded to ms half up."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise Bad("not a date (seconds since 2001-01-01 or RFC 3339): %s" % json.dumps(v))
    ms = int((Decimal(repr(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    whole, rest = divmod(ms, 1000)
    return (REF2001 + timedelta(seconds=whole), "%03d" % rest)


def parse_date(v):
    return parse_rfc(v) if isinstance(v, str) else parse_since2001(v)


def key_of(inst):
    return (inst[0], Decimal("0." + inst[1]) if inst[1] else Decimal(0))


def rowhash(o, rowkey):
    return hashlib.sha256(("%s\n%s" % (o["user"], rowkey)).encode()).hexdigest()[:32]


def seconds_json(x):
    """A REAL as a JSON number: integral without fraction, else shortest round-trip."""
    if float(x).is_integer():
        return int(x)
    return float(repr(float(x)))


def is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


# --- daily-quiz -------------------------------------------------------------

def daily_quiz(o):
    kind = "daily-quiz"
    values, origin = {}, {}
    for f in o["files"]:
        try:
            d = json.load(open(f))
        except ValueError as e:
            raise Bad("%s: not JSON: %s" % (f, e))
        if not isinstance(d, dict):
            raise Bad("%s: not a JSON object of UserDefaults keys" % f)
        for k, v in d.items():
            if k == "quizHistory" or k.startswith("quizProgress."):
                if k in values:
                    raise Bad("%s: %s: also in %s" % (f, k, origin[k]))
                values[k], origin[k] = v, f
    attempts = []   # (sort key, rank, events)
    hist = values.get("quizHistory", [])
    if not isinstance(hist, list):
        raise Bad("%s: quizHistory: not an array" % origin["quizHistory"])
    seen = {}
    entries = []
    for i, e in enumerate(hist):
        where = "%s: quizHistory[%d]" % (origin["quizHistory"], i)
        try:
            for m in ("id", "date", "quizTitle", "score", "totalQuestions", "completedAt"):
                if m not in e:
                    raise Bad("%s: missing" % m)
            if not isinstance(e["id"], str) or not UUID.match(e["id"]):
                raise Bad("id: not a UUID: %s" % json.dumps(e["id"]))
            if e["id"].upper() in seen:
                raise Bad("id: %s already at quizHistory[%d]" % (e["id"], seen[e["id"].upper()]))
            seen[e["id"].upper()] = i
            if not isinstance(e["quizTitle"], str) or not 1 <= len(e["quizTitle"]) <= 256:
                raise Bad("quizTitle: not a string of 1 to 256 characters")
            if not isinstance(e["totalQuestions"], int) or isinstance(e["totalQuestions"], bool) or e["totalQuestions"] < 1:
                raise Bad("totalQuestions: not an integer >= 1: %s" % json.dumps(e["totalQuestions"]))
            if not is_count(e["score"]) or e["score"] > e["totalQuestions"]:
                raise Bad("score: not a count up to totalQuestions %d: %s" % (e["totalQuestions"], json.dumps(e["score"])))
            try:
                start = parse_date(e["date"])
            except Bad as b:
                raise Bad("date: %s" % b)
            try:
                done = parse_date(e["completedAt"])
            except Bad as b:
                raise Bad("completedAt: %s" % b)
            if key_of(done) < key_of(start):
                raise Bad("completedAt: before date")
        except Bad as b:
            raise Bad("%s: %s" % (where, b))
        entries.append((e, start, done))
    for e, start, done in entries:
        h = rowhash(o, "quizHistory/" + e["id"].upper())
        att = "%s:%s" % (kind, h)
        at0 = fmt(start, 3, o)
        evs = [(att + ":start", at0, "quiz.started",
                {"attempt": att, "quiz": e["quizTitle"], "questions": e["totalQuestions"], "daily": True,
                 "title": e["quizTitle"], "imported": kind, "assumed": ["at"]})]
        for q in range(e["totalQuestions"]):
            evs.append(("%s:q%d" % (h, q), at0, "answer.selected",
                        {"attempt": att, "question": str(q), "choice": 0, "correct": q < e["score"],
                         "imported": kind, "assumed": ["at", "question", "choice", "correct"]}))
        evs.append((h + ":finish", fmt(done, 3, o), "quiz.finished", {"attempt": att, "imported": kind}))
        attempts.append((key_of(start), 0, e["id"].upper(), evs, fmt(start, 3, o)[:10], e, done))
    # progress keys
    for k in sorted(values):
        if not k.startswith("quizProgress."):
            continue
        p = values[k]
        where = "%s: %s" % (origin[k], k)
        try:
            ymd = k[len("quizProgress."):]
            try:
                day = datetime.strptime(ymd, "%Y%m%d") if re.match(r"^\d{8}$", ymd) else None
            except ValueError:
                day = None
            if day is None:
                raise Bad("key: not quizProgress.YYYYMMDD with a real date")
            if not isinstance(p, dict):
                raise Bad("not a QuizProgress object")
            for m in ("date", "quizTitle", "currentIndex", "score", "userAnswers", "isCompleted"):
                if m not in p:
                    raise Bad("%s: missing" % m)
            if p["date"] != ymd:
                raise Bad("date: %s is not the key's day %s" % (json.dumps(p["date"]), ymd))
            ua = p["userAnswers"]
            if not isinstance(ua, list) or len(ua) < 1:
                raise Bad("userAnswers: not an array of at least one question")
            for i, c in enumerate(ua):
                if c is not None and not is_count(c):
                    raise Bad("userAnswers[%d]: not null or a count: %s" % (i, json.dumps(c)))
            answered = [i for i, c in enumerate(ua) if c is not None]
            if not isinstance(p["isCompleted"], bool):
                raise Bad("isCompleted: not a bool")
            score = p.get("finalScore") if p["isCompleted"] and p.get("finalScore") is not None else p["score"]
            if not is_count(score) or score > len(answered):
                raise Bad("%s: %s is more than the %d answered questions" % (
                    "finalScore" if p["isCompleted"] and p.get("finalScore") is not None else "score",
                    json.dumps(score), len(answered)))
            done = None
            if p["isCompleted"]:
                if p.get("completedAt") is None:
                    raise Bad("completedAt: missing on a completed QuizProgress")
                try:
                    done = parse_date(p["completedAt"])
                except Bad as b:
                    raise Bad("completedAt: %s" % b)
        except Bad as b:
            raise Bad("%s: %s" % (where, b))
        daystr = "%s-%s-%s" % (ymd[:4], ymd[4:6], ymd[6:])
        if p["isCompleted"]:
            if any(a[4] == daystr and a[5]["quizTitle"] == p["quizTitle"] and a[5]["score"] == score
                   and a[5]["totalQuestions"] == len(ua) for a in attempts if a[1] == 0):
                continue   # the history entry is this completion
        midnight = (datetime.fromisoformat(daystr + "T00:00:00" + o["offset"]).astimezone(timezone.utc), "000")
        if p["isCompleted"]:
            start = done if fmt(done, 3, o)[:10] == daystr else midnight
        else:
            start = midnight
            for a in attempts:
                if a[1] == 0 and a[4] == daystr and key_of(a[6]) > key_of(start):
                    start = a[6]
        h = rowhash(o, "%s@%s" % (k, o["device"] or ""))
        att = "%s:%s" % (kind, h)
        at0 = fmt(start, 3, o)
        evs = [(att + ":start", at0, "quiz.started",
                {"attempt": att, "quiz": p["quizTitle"], "questions": len(ua), "daily": True,
                 "title": p["quizTitle"], "imported": kind, "assumed": ["at"]})]
        for n, q in enumerate(answered):
            evs.append(("%s:q%d" % (h, q), at0, "answer.selected",
                        {"attempt": att, "question": str(q), "choice": ua[q], "correct": n < score,
                         "imported": kind, "assumed": ["at", "correct"]}))
        if p["isCompleted"]:
            evs.append((h + ":finish", fmt(done, 3, o), "quiz.finished", {"attempt": att, "imported": kind}))
        attempts.append((key_of(start), 1, k, evs, daystr, p, done))
    attempts.sort(key=lambda a: (a[0], a[1], a[2]))
    out = []
    for a in attempts:
        for eid, at, t, d in a[3]:
            if not eid.startswith(kind):
                eid = kind + ":" + eid
            out.append((eid, at, t, d))
    return out


# --- cryptogram -------------------------------------------------------------

COLS = ["attempt_id", "puzzle_id", "encoding_type", "completed_at", "failed_at", "completion_time"]


def cryptogram(o):
    kind = "cryptogram"
    rows = []
    for f in o["files"]:
        if open(f, "rb").read(16) == b"SQLite format 3\x00":
            db = sqlite3.connect("file:%s?mode=ro" % f, uri=True)
            try:
                cur = db.execute("SELECT rowid, %s FROM puzzle_progress_attempts ORDER BY rowid" % ", ".join(COLS))
            except sqlite3.Error as e:
                raise Bad("%s: puzzle_progress_attempts: %s" % (f, e))
            for r in cur:
                rows.append(("%s: rowid %d (attempt_id %s)" % (f, r[0], r[1]), dict(zip(COLS, r[1:]))))
        else:
            text = open(f, newline="").read()
            lines = list(csv.reader(io.StringIO(text)))
            header = lines[0] if lines else []
            missing = [c for c in COLS if c not in header]
            if missing:
                raise Bad("%s: line 1: %s: missing from the header" % (f, missing[0]))
            # unquoted empty = NULL, "" = empty string: read quoting by hand
            raw_lines = text.splitlines()
            for n, vals in enumerate(lines[1:], start=2):
                raw = raw_lines[n - 1]
                fields = re.findall(r'(?:^|,)("(?:[^"]|"")*"|[^,]*)', raw)
                r = {}
                for c, v, rv in zip(header, vals, fields):
                    r[c] = None if rv == "" else v
                if r.get("completion_time") is not None:
                    try:
                        r["completion_time"] = float(r["completion_time"])
                    except ValueError:
                        pass
                rows.append(("%s: line %d" % (f, n), r))
    seen, evs = {}, []
    for where, r in rows:
        try:
            for c in ("attempt_id", "puzzle_id", "encoding_type"):
                if not isinstance(r[c], str) or not 1 <= len(r[c]) <= 256:
                    raise Bad("%s: not a string of 1 to 256 characters: %s" % (c, json.dumps(r[c])))
            if r["attempt_id"] in seen:
                raise Bad("attempt_id: %s already at %s" % (r["attempt_id"], seen[r["attempt_id"]]))
            seen[r["attempt_id"]] = where
            if (r["completed_at"] is None) == (r["failed_at"] is None):
                raise Bad("completed_at, failed_at: exactly one must be set")
            t = r["completion_time"]
            if t is not None and (isinstance(t, (str, bytes)) or not t > 0):
                raise Bad("completion_time: not a number > 0: %s" % json.dumps(t))
            if r["completed_at"] is not None:
                if t is None:
                    raise Bad("completion_time: required for a completed attempt")
                try:
                    inst = parse_rfc(r["completed_at"])
                except Bad as b:
                    raise Bad("completed_at: %s" % b)
                typ = "puzzle.completed"
            else:
                try:
                    inst = parse_rfc(r["failed_at"])
                except Bad as b:
                    raise Bad("failed_at: %s" % b)
                typ = "puzzle.failed"
        except Bad as b:
            raise Bad("%s: %s" % (where, b))
        d = {"puzzle": r["puzzle_id"], "encoding": r["encoding_type"]}
        if t is not None:
            d["seconds"] = seconds_json(t)
        d["imported"] = kind
        evs.append((key_of(inst), r["attempt_id"],
                    ("%s:%s" % (kind, rowhash(o, r["attempt_id"])), fmt(inst, None, o), typ, d)))
    evs.sort(key=lambda e: (e[0], e[1]))
    return [e[2] for e in evs]


# --- sat-attempts -----------------------------------------------------------

def sat(o):
    kind, k, content = "sat-attempts", o["kind"], o["content"]
    member = "passage_id" if k == "passage" else "lesson_id"
    seen, evs = {}, []
    for f in o["files"]:
        try:
            arr = json.load(open(f))
        except ValueError as e:
            raise Bad("%s: not JSON: %s" % (f, e))
        if not isinstance(arr, list):
            raise Bad("%s: not a JSON array of attempts" % f)
        for i, r in enumerate(arr):
            where = "%s: [%d]" % (f, i)
            try:
                if not isinstance(r.get("id"), (str, int)) or isinstance(r.get("id"), bool) or r.get("id") == "":
                    raise Bad("id: missing")
                rid = str(r["id"])
                where += " (id %s)" % rid
                if rid in seen:
                    raise Bad("id: already at %s" % seen[rid])
                seen[rid] = "%s: [%d]" % (f, i)
                if member in r and r[member] is not None and str(r[member]) != content:
                    raise Bad("%s: %s is not --content %s" % (member, r[member], content))
                for m in ("correct_count", "total_questions"):
                    if not is_count(r.get(m)):
                        raise Bad("%s: not a count" % m)
                secs = r.get("time_spent_seconds")
                if secs is not None and not is_count(secs):
                    raise Bad("time_spent_seconds: not a count: %s" % json.dumps(secs))
                if r.get("completed_at") is None:
                    raise Bad("completed_at: missing")
                try:
                    inst = parse_rfc(r["completed_at"])
                except Bad as b:
                    raise Bad("completed_at: %s" % b)
                ans = r.get("answers") or []
                answers, assumed = [], None
                if not ans and r["total_questions"] > 0:
                    if r["correct_count"] > r["total_questions"]:
                        raise Bad("correct_count: more than total_questions")
                    answers = [{"question": str(q), "choice": 0, "correct": q < r["correct_count"]}
                               for q in range(r["total_questions"])]
                    assumed = ["answers"]
                else:
                    if len(ans) != r["total_questions"]:
                        raise Bad("answers: %d items, total_questions is %d" % (len(ans), r["total_questions"]))
                    qs = set()
                    for j, a in enumerate(ans):
                        q = a.get("question_id")
                        if not isinstance(q, str) or not 1 <= len(q) <= 256:
                            raise Bad("answers[%d].question_id: not a string of 1 to 256 characters" % j)
                        if q in qs:
                            raise Bad("answers[%d].question_id: %s already answered in this attempt" % (j, q))
                        qs.add(q)
                        if not is_count(a.get("selected_option_index")):
                            raise Bad("answers[%d].selected_option_index: not a count: %s" % (j, json.dumps(a.get("selected_option_index"))))
                        if not isinstance(a.get("is_correct"), bool):
                            raise Bad("answers[%d].is_correct: not a bool: %s" % (j, json.dumps(a.get("is_correct"))))
                        answers.append({"question": q, "choice": a["selected_option_index"], "correct": a["is_correct"]})
                    c = sum(1 for a in answers if a["correct"])
                    if c != r["correct_count"]:
                        raise Bad("correct_count: %d, the answers have %d correct" % (r["correct_count"], c))
            except Bad as b:
                raise Bad("%s: %s" % (where, b))
            d = {"content": content, "kind": k, "category": o["category"]}
            if secs is not None:
                d["seconds"] = secs
            d["answers"] = answers
            d["imported"] = kind
            if assumed:
                d["assumed"] = assumed
            evs.append((key_of(inst), rid, ("%s:%s" % (kind, rowhash(o, "%s/%s/%s" % (k, content, rid))),
                                            fmt(inst, None, o), "submission.made", d)))
    evs.sort(key=lambda e: (e[0], e[1]))
    return [e[2] for e in evs]


# --- quiz-app ---------------------------------------------------------------

def quiz_app(o):
    kind = "quiz-app"
    f = o["files"][0]
    try:
        root = json.load(open(f))
        if isinstance(root, str):
            root = json.loads(root)
    except ValueError as e:
        raise Bad("%s: not JSON: %s" % (f, e))
    if not isinstance(root, dict):
        raise Bad("%s: not the persist:root object" % f)
    if "app" not in root:
        raise Bad("%s: app: missing" % f)
    if not isinstance(root["app"], str):
        raise Bad("%s: app: not a JSON string (redux-persist stores each slice as one)" % f)
    try:
        app = json.loads(root["app"])
    except ValueError:
        raise Bad("%s: app: not JSON inside the string" % f)
    if not is_count(app.get("hints")):
        raise Bad("%s: app.hints: not a count: %s" % (f, json.dumps(app.get("hints"))))
    if not isinstance(app.get("hintsSeeded"), bool):
        raise Bad("%s: app.hintsSeeded: not a bool: %s" % (f, json.dumps(app.get("hintsSeeded"))))
    if app["hints"] == 0:
        return []
    if o.get("at"):
        inst = parse_rfc(o["at"])
        at = o["at"]
    else:
        mt = int(os.stat(f).st_mtime)
        at = fmt((datetime.fromtimestamp(mt, timezone.utc), ""), None, o)
    return [("%s:%s" % (kind, rowhash(o, "persist:root/app.hints@%s" % (o["device"] or ""))), at,
             "hints.granted", {"amount": app["hints"], "reason": "seed" if app["hintsSeeded"] else "grant",
                               "imported": kind, "assumed": ["at", "reason"]})]


def main(argv):
    o = opts(argv)
    o["offset"] = o.get("utc_offset", "+00:00")
    kinds = {"daily-quiz": daily_quiz, "cryptogram": cryptogram, "sat-attempts": sat, "quiz-app": quiz_app}
    try:
        events = kinds[o["from"]](o)
    except Bad as b:
        print(b)
        return 1
    lines, prev = [], "0" * 64
    for n, (eid, at, t, d) in enumerate(events, start=1):
        env = {"v": 1, "seq": n, "id": eid, "at": at, "user": o["user"]}
        if o["device"]:
            env["device"] = o["device"]
        env.update({"type": t, "data": d, "prev": prev})
        line = json.dumps(env, separators=(",", ":"), ensure_ascii=False)
        prev = hashlib.sha256(line.encode()).hexdigest()
        lines.append(line)
    if o.get("log"):
        with open(o["log"], "w") as fh:
            fh.write("".join(l + "\n" for l in lines))
    else:
        for eid, at, t, d in events:
            print(json.dumps({"id": eid, "at": at, "type": t, "data": d}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
