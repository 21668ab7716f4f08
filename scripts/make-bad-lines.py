#!/usr/bin/env python3
"""Writes Tests/EventsTests/Resources/bad-lines.jsonl: the bad-input corpus.

Each output line is one case: {"case", "kind", "member", "line" | "hex"} where
"line" is the bad append input as text and "hex" its bytes when they are not
valid text (BOM, invalid UTF-8, CR). The tests decode each case and expect the
named kind and member path. Run from the repository root.
"""
import json, os
DROP = object()
def ev(t, payload, **env):
    d = {"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-1","type":t,"data":payload}
    for k,v in env.items():
        if v is DROP: d.pop(k, None)
        else: d[k]=v
    return json.dumps(d, separators=(",",":"), ensure_ascii=False)
qs = {"attempt":"a-1","quiz":"daily-1","questions":5,"daily":True}
ans = {"attempt":"a-1","question":"q1","choice":1,"correct":True,"skill":"inference"}
def with_(d, **kv):
    d = dict(d)
    for k,v in kv.items():
        if v is DROP: d.pop(k, None)
        else: d[k]=v
    return d
cases = []
def c(name, kind, member, line=None, hexline=None):
    o={"case":name,"kind":kind,"member":member}
    if hexline is not None: o["hex"]=hexline
    else: o["line"]=line
    cases.append(o)
E="invalid_envelope"; D="invalid_data"
# envelope
c("missing at", E, "at", ev("quiz.started", qs, at=DROP))
c("missing user", E, "user", ev("quiz.started", qs, user=DROP))
c("missing type", E, "type", ev("quiz.started", qs, type=DROP))
c("missing data", E, "data", ev("quiz.started", qs, data=DROP))
c("at is a number", E, "at", ev("quiz.started", qs, at=1729487700))
c("at without offset", E, "at", ev("quiz.started", qs, at="2025-10-21T08:15:00"))
c("at impossible date 2025-02-30", E, "at", ev("quiz.started", qs, at="2025-02-30T08:15:00Z"))
c("at 24:00:00", E, "at", ev("quiz.started", qs, at="2025-10-21T24:00:00Z"))
c("at second 60", E, "at", ev("quiz.started", qs, at="2025-12-31T23:59:60Z"))
c("at ten fractional digits", E, "at", ev("quiz.started", qs, at="2025-10-21T08:15:00.1234567890Z"))
c("at offset hour 24", E, "at", ev("quiz.started", qs, at="2025-10-21T08:15:00+24:00"))
c("at date only", E, "at", ev("quiz.started", qs, at="2025-10-21"))
c("at space separator", E, "at", ev("quiz.started", qs, at="2025-10-21 08:15:00Z"))
c("at without seconds", E, "at", ev("quiz.started", qs, at="2025-10-21T08:15Z"))
c("at month 13", E, "at", ev("quiz.started", qs, at="2025-13-01T08:15:00Z"))
c("at 2023-02-29 (not a leap year)", E, "at", ev("quiz.started", qs, at="2023-02-29T08:15:00Z"))
c("user empty", E, "user", ev("quiz.started", qs, user=""))
c("user 129 characters", E, "user", ev("quiz.started", qs, user="u"*129))
c("user with U+0001", E, "user", ev("quiz.started", qs, user="u\u0001x"))
c("user with C1 control U+0085", E, "user", ev("quiz.started", qs, user="u\u0085x"))
c("user is null", E, "user", ev("quiz.started", qs, user=None))
c("device with a tab", E, "device", ev("quiz.started", qs, device="phone\t1"))
c("device is a number", E, "device", ev("quiz.started", qs, device=7))
c("type unknown", E, "type", ev("quiz.paused", qs))
c("type is a number", E, "type", ev("quiz.started", qs, type=3))
c("data is an array", E, "data", ev("quiz.started", [qs]))
c("data is a string", E, "data", ev("quiz.started", "a-1"))
c("id empty", E, "id", ev("quiz.started", qs, id=""))
c("id 65 characters", E, "id", ev("quiz.started", qs, id="e"*65))
c("id with a space", E, "id", ev("quiz.started", qs, id="e 1"))
c("id with a slash", E, "id", ev("quiz.started", qs, id="../etc"))
c("id is a number", E, "id", ev("quiz.started", qs, id=1))
c("v 2 at append", E, "v", ev("quiz.started", qs, v=2))
c("v 0", E, "v", ev("quiz.started", qs, v=0))
c("v 1.0 is not an integer", E, "v", '{"v":1.0,' + ev("quiz.started", qs)[1:])
c("seq given at append", E, "seq", ev("quiz.started", qs, seq=4))
c("prev given at append", E, "prev", ev("quiz.started", qs, prev="0"*64))
c("unknown envelope member", E, "extra", ev("quiz.started", qs, extra=1))
# quiz.started
c("quiz.started without attempt", D, "data.attempt", ev("quiz.started", with_(qs, attempt=DROP)))
c("quiz.started without quiz", D, "data.quiz", ev("quiz.started", with_(qs, quiz=DROP)))
c("quiz.started without questions", D, "data.questions", ev("quiz.started", with_(qs, questions=DROP)))
c("questions 0", D, "data.questions", ev("quiz.started", with_(qs, questions=0)))
c("questions negative", D, "data.questions", ev("quiz.started", with_(qs, questions=-5)))
c("questions 5.0 where an integer is due", D, "data.questions", ev("quiz.started", qs).replace('"questions":5', '"questions":5.0'))
c("questions 1e0 where an integer is due", D, "data.questions", ev("quiz.started", qs).replace('"questions":5', '"questions":1e0'))
c("questions as a string", D, "data.questions", ev("quiz.started", with_(qs, questions="5")))
c("daily as a string", D, "data.daily", ev("quiz.started", with_(qs, daily="yes")))
c("title empty", D, "data.title", ev("quiz.started", with_(qs, title="")))
c("title 257 characters", D, "data.title", ev("quiz.started", with_(qs, title="t"*257)))
c("attempt 257 characters (multibyte)", D, "data.attempt", ev("quiz.started", with_(qs, attempt="é"*257)))
c("category is a number", D, "data.category", ev("quiz.started", with_(qs, category=4)))
c("diagnostic is 1", D, "data.diagnostic", ev("quiz.started", with_(qs, diagnostic=1)))
c("difficulty is an object", D, "data.difficulty", ev("quiz.started", with_(qs, difficulty={"level":1})))
# answer.selected
c("answer without choice", D, "data.choice", ev("answer.selected", with_(ans, choice=DROP)))
c("choice negative", D, "data.choice", ev("answer.selected", with_(ans, choice=-1)))
c("choice 1.5", D, "data.choice", ev("answer.selected", ans).replace('"choice":1', '"choice":1.5'))
c("correct as a string", D, "data.correct", ev("answer.selected", with_(ans, correct="true")))
c("answer without correct", D, "data.correct", ev("answer.selected", with_(ans, correct=DROP)))
c("correct_choice negative", D, "data.correct_choice", ev("answer.selected", with_(ans, correct_choice=-2)))
c("ms negative", D, "data.ms", ev("answer.selected", with_(ans, ms=-1)))
c("ms beyond 64 bits", D, "data.ms", ev("answer.selected", ans)[:-2] + ',"ms":123456789012345678901234567890}}')
c("skill empty", D, "data.skill", ev("answer.selected", with_(ans, skill="")))
c("question is a number", D, "data.question", ev("answer.selected", with_(ans, question=2)))
c("answer without attempt", D, "data.attempt", ev("answer.selected", with_(ans, attempt=DROP)))
# hint.used
hu = {"attempt":"a-1","question":"q1","hint":"fifty_fifty"}
c("hint kind unknown", D, "data.hint", ev("hint.used", with_(hu, hint="skip")))
c("hint missing", D, "data.hint", ev("hint.used", with_(hu, hint=DROP)))
c("hint without question", D, "data.question", ev("hint.used", with_(hu, question=DROP)))
# finish / abandon
c("quiz.finished attempt null", D, "data.attempt", ev("quiz.finished", {"attempt":None}))
c("quiz.finished attempt 300 characters", D, "data.attempt", ev("quiz.finished", {"attempt":"a"*300}))
c("quiz.abandoned without attempt", D, "data.attempt", ev("quiz.abandoned", {}))
# puzzles
pz = {"puzzle":"p-1","encoding":"caesar","seconds":42.5}
c("puzzle.completed without seconds", D, "data.seconds", ev("puzzle.completed", with_(pz, seconds=DROP)))
c("puzzle.completed seconds 0", D, "data.seconds", ev("puzzle.completed", with_(pz, seconds=0)))
c("puzzle.completed seconds negative", D, "data.seconds", ev("puzzle.completed", with_(pz, seconds=-3)))
c("puzzle.completed seconds as a string", D, "data.seconds", ev("puzzle.completed", with_(pz, seconds="12")))
c("puzzle.completed without encoding", D, "data.encoding", ev("puzzle.completed", with_(pz, encoding=DROP)))
c("puzzle.failed seconds 0", D, "data.seconds", ev("puzzle.failed", with_(pz, seconds=0)))
c("puzzle.failed seconds overflow 1e400", D, "data.seconds", ev("puzzle.failed", pz).replace('42.5', '1e400'))
c("puzzle.failed without puzzle", D, "data.puzzle", ev("puzzle.failed", with_(pz, puzzle=DROP)))
# submissions
sub = {"content":"lesson-1","kind":"lesson","category":"reading","answers":[
    {"question":"q1","choice":0,"correct":True,"skill":"inference"},
    {"question":"q2","choice":1,"correct":False},
    {"question":"q3","choice":2,"correct":True}]}
c("submission kind exam", D, "data.kind", ev("submission.made", with_(sub, kind="exam")))
c("submission without category", D, "data.category", ev("submission.made", with_(sub, category=DROP)))
c("submission answers not an array", D, "data.answers", ev("submission.made", with_(sub, answers={"q1":1})))
c("submission without answers", D, "data.answers", ev("submission.made", with_(sub, answers=DROP)))
bad = json.loads(json.dumps(sub)); bad["answers"][2]["choice"]="2"
c("submission answers[2].choice as a string", D, "data.answers[2].choice", ev("submission.made", bad))
bad = json.loads(json.dumps(sub)); bad["answers"][1]="q2"
c("submission answers[1] not an object", D, "data.answers[1]", ev("submission.made", bad))
bad = json.loads(json.dumps(sub)); bad["answers"][1]["question"]="q1"
c("submission questions repeat", D, "data.answers[1].question", ev("submission.made", bad))
bad = json.loads(json.dumps(sub)); del bad["answers"][0]["correct"]
c("submission answers[0] without correct", D, "data.answers[0].correct", ev("submission.made", bad))
c("submission seconds 2.5", D, "data.seconds", ev("submission.made", with_(sub, seconds=2.5)))
c("submission diagnostic as a string", D, "data.diagnostic", ev("submission.made", with_(sub, diagnostic="no")))
# hints.granted / progress.reset
c("hints amount 0", D, "data.amount", ev("hints.granted", {"amount":0,"reason":"seed"}))
c("hints reason gift", D, "data.reason", ev("hints.granted", {"amount":3,"reason":"gift"}))
c("hints amount out of range", D, "data.amount", ev("hints.granted", {"amount":1,"reason":"seed"}).replace('"amount":1','"amount":99999999999999999999999'))
c("hints amount 3.0", D, "data.amount", ev("hints.granted", {"amount":3,"reason":"seed"}).replace('"amount":3','"amount":3.0'))
c("reset scope everything", D, "data.scope", ev("progress.reset", {"scope":"everything"}))
c("reset without scope", D, "data.scope", ev("progress.reset", {}))
# line level
ok = ev("quiz.started", qs)
c("array line", "not_object", None, "[1,2]")
c("string line", "not_object", None, '"quiz.started"')
c("number line", "not_object", None, "42")
c("null line", "not_object", None, "null")
c("truncated object", "not_json", None, ok[:40])
c("trailing garbage", "not_json", None, ok + " x")
c("two objects on one line", "not_json", None, ok + ok)
c("trailing comma", "not_json", None, ok[:-1] + ",}")
c("single quotes", "not_json", None, ok.replace('"', "'"))
c("unquoted member name", "not_json", None, ok.replace('"user"', 'user'))
c("leading zero", "not_json", None, ok.replace('"questions":5', '"questions":05'))
c("NaN", "not_json", None, ok.replace('"questions":5', '"questions":NaN'))
c("raw control character in a string", "not_json", None, ok.replace('daily-1', 'daily\u00011'))
c("bad escape", "not_json", None, ok.replace('daily-1', 'daily\\x1'))
c("nested 200 deep in data", "not_json", None, ok[:-2] + ',"deep":' + "["*200 + "]"*200 + "}}")
c("duplicate envelope member", "duplicate_member", "user", ok[:-1] + ',"user":"u-2"}')
c("duplicate data member", "duplicate_member", "quiz", ok.replace('"quiz":"daily-1"', '"quiz":"daily-1","quiz":"daily-2"'))
c("lone surrogate escape", "encoding", None, ok.replace('daily-1', 'daily\\ud800'))
c("byte order mark", "encoding", None, hexline=("efbbbf" + ok.encode().hex()))
c("invalid UTF-8 byte 0xff", "encoding", None, hexline=ok.encode().replace(b"daily-1", b"daily\xff1").hex())
c("overlong UTF-8 encoding", "encoding", None, hexline=ok.encode().replace(b"daily-1", b"daily\xc0\xaf1").hex())
c("UTF-8 encoded surrogate", "encoding", None, hexline=ok.encode().replace(b"daily-1", b"daily\xed\xa0\x801").hex())
c("truncated UTF-8 sequence", "encoding", None, hexline=ok.encode().replace(b"daily-1", b"daily\xe2\x821").hex())
c("CR line ending", "line_ending", None, hexline=(ok.encode()+b"\r").hex())
c("blank line", "blank_line", None, "")
out = os.path.join("Tests", "EventsTests", "Resources", "bad-lines.jsonl")
with open(out, "w", encoding="utf-8") as f:
    for o in cases: f.write(json.dumps(o, ensure_ascii=False) + "\n")
print(f"{len(cases)} cases written to {out}")
