import Foundation
import Testing

/// The report checked against an independent computation: a Python script
/// (standard library only) reads the raw log lines, applies the spec's rules
/// itself and must produce the very same JSON object as `report --format json`.
@Suite("report --format json agrees with an independent Python computation")
struct ReportIndependentTests {
    /// The spec's report section, implemented from scratch in Python.
    static let script = #"""
import json, sys
from fractions import Fraction
from datetime import date, timedelta

log_path, report_path = sys.argv[1], sys.argv[2]
frm = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
to = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None

def pct(part, whole):
    return None if whole == 0 else (200 * part + whole) // (2 * whole)

def new_day():
    return dict(users=set(), started=0, finished=0, scores=[], answers=0, correct=0,
                hints=0, pc=0, pf=0, subs=0, skills={})

QUIZ = ('quiz.started', 'answer.selected', 'hint.used', 'quiz.finished', 'quiz.abandoned')
per_day, learners = {}, {}
seen_days = []

with open(log_path, encoding='utf-8') as f:
    for line in f:
        e = json.loads(line)
        if e['v'] not in (1, 2):
            continue
        u, t, d = e['user'], e['type'], e['data']
        me = learners.setdefault(u, dict(attempts={}, epoch=0, active=set(), grants=[], paused=set()))
        own = e['at'][:10]
        a = me['attempts'].get(d.get('attempt')) if t in QUIZ else None
        # a quiz.started is on its own day (a reused id starts nothing)
        day = a['day'] if a is not None and t != 'quiz.started' else own
        # the streak at TO uses only the events on days up to TO
        in_streak = to is None or day <= to
        seen_days.append(day)
        r = per_day.setdefault(day, new_day())
        if t not in ('hints.granted', 'streak.freeze_granted', 'streak.paused'):
            r['users'].add(u)

        def count(correct, skill):
            r['answers'] += 1
            r['correct'] += 1 if correct else 0
            if skill is not None:
                s = r['skills'].setdefault(skill, [0, 0])
                s[0] += 1 if correct else 0
                s[1] += 1

        if t == 'quiz.started':
            if a is None:
                me['attempts'][d['attempt']] = dict(day=own, q=d['questions'], answered=set(), score=0,
                                                    ended=False, daily=d.get('daily') is True, epoch=me['epoch'])
                r['started'] += 1
        elif t == 'answer.selected':
            if a is not None and not a['ended'] and d['question'] not in a['answered']:
                a['answered'].add(d['question'])
                a['score'] += 1 if d['correct'] else 0
                count(d['correct'], d.get('skill'))
        elif t == 'hint.used':
            r['hints'] += 1
        elif t in ('quiz.finished', 'quiz.abandoned'):
            if a is not None and not a['ended']:
                a['ended'] = True
                if t == 'quiz.finished':
                    r['finished'] += 1
                    r['scores'].append(Fraction(a['score'], a['q']))
                    if a['daily'] and a['epoch'] == me['epoch'] and in_streak:
                        me['active'].add(a['day'])
        elif t == 'puzzle.completed':
            r['pc'] += 1
        elif t == 'puzzle.failed':
            r['pf'] += 1
        elif t == 'submission.made':
            r['subs'] += 1
            for ans in d['answers']:
                count(ans['correct'], ans.get('skill'))
        elif t == 'progress.reset':
            if d['scope'] in ('all', 'quizzes') and in_streak:
                me['epoch'] += 1
                me['active'] = set()
        elif t == 'streak.freeze_granted':
            if in_streak:
                me['grants'].append((day, d['amount']))
        elif t == 'streak.paused':
            if in_streak:
                x, end = date.fromisoformat(d['from']), date.fromisoformat(d['to'])
                while x <= end:
                    me['paused'].add(x.isoformat())
                    x += timedelta(days=1)

first = frm or (min(seen_days) if seen_days else None)
last = to or (max(seen_days) if seen_days else None)

def counts(r):
    n = len(r['scores'])
    mean = None if n == 0 else int(Fraction(100) * sum(r['scores']) / n + Fraction(1, 2))
    return {"active_users": len(r['users']), "quizzes_started": r['started'], "quizzes_finished": r['finished'],
            "completion_rate": pct(r['finished'], r['started']), "mean_score_percent": mean,
            "answers": r['answers'], "accuracy": pct(r['correct'], r['answers']), "hints_used": r['hints'],
            "puzzles_completed": r['pc'], "puzzles_failed": r['pf'], "submissions": r['subs']}

rows, total = [], new_day()
d = date.fromisoformat(first)
while d <= date.fromisoformat(last):
    r = per_day.get(d.isoformat(), new_day())
    rows.append(dict(day=d.isoformat(), **counts(r)))
    total['users'] |= r['users']
    for k in ('started', 'finished', 'answers', 'correct', 'hints', 'pc', 'pf', 'subs'):
        total[k] += r[k]
    total['scores'] += r['scores']
    for k, (c, n) in r['skills'].items():
        s = total['skills'].setdefault(k, [0, 0])
        s[0] += c
        s[1] += n
    d += timedelta(days=1)

def current_streak(me, at):
    # projections.md's day walk: every day from the first active or grant day to AT.
    starts = list(me['active']) + [g[0] for g in me['grants']]
    if not starts:
        return 0
    held, run = 0, None
    x, end = date.fromisoformat(min(starts)), date.fromisoformat(at)
    while x <= end:
        day = x.isoformat()
        for (on, amount) in me['grants']:
            if on == day:
                held = min(2, held + amount)
        if day in me['active']:
            run = (run or 0) + 1
        elif day in me['paused'] or day == at:
            pass
        elif run is not None and held > 0:
            held -= 1
        else:
            run = None
        x += timedelta(days=1)
    return run or 0

dist = {}
for u in total['users']:
    c = current_streak(learners[u], last)
    dist[c] = dist.get(c, 0) + 1

expected = {
    "from": first, "to": last, "days": rows, "totals": counts(total),
    "skills": [{"skill": k, "correct": c, "answers": n, "accuracy": pct(c, n)}
               for k, (c, n) in sorted(total['skills'].items(), key=lambda kv: kv[0].encode('utf-8'))],
    "streaks": {"day": last, "distribution": [{"current": c, "users": n} for c, n in sorted(dist.items())]},
}
with open(report_path, encoding='utf-8') as f:
    actual = json.load(f)
if actual != expected:
    for key in expected:
        if actual.get(key) != expected[key]:
            print("MISMATCH in", key)
            if key == 'days':
                for a, b in zip(actual.get('days', []), expected['days']):
                    if a != b:
                        print(" report:  ", a)
                        print(" expected:", b)
                        break
            else:
                print(" report:  ", json.dumps(actual.get(key))[:800])
                print(" expected:", json.dumps(expected[key])[:800])
    sys.exit(1)
print("ok", len(rows), "days", expected['totals']['active_users'], "users",
      expected['totals']['quizzes_started'], "starts", expected['totals']['answers'], "answers")
"""#

    /// Runs the report and the script on the same log and range.
    private func check(_ log: String, in dir: TemporaryDirectory, from: String = "", to: String = "") throws -> String {
        var args = ["report", log, "--format", "json", "--out", dir.path("report.json")]
        if !from.isEmpty { args += ["--from", from] }
        if !to.isEmpty { args += ["--to", to] }
        let r = try CLI.run(args)
        try #require(r.status == 0, "report failed: \(r.stderr)")
        let py = try CLI.python(Self.script, [log, dir.path("report.json"), from, to])
        #expect(py.status == 0, "\(py.stdout)\(py.stderr)")
        return py.stdout
    }

    @Test("a demo log: every day, the totals, the skills and the streaks match")
    func demoLog() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 14, days: 12, seed: 7)
        let out = try check(log, in: dir)
        // The script saw real data, not an empty report.
        #expect(out.hasPrefix("ok 12 days 14 users"), "\(out)")
    }

    @Test("a past range: --from/--to rows and the streaks at --to match", arguments: [("2025-10-08", "2025-10-12"), ("2025-10-03", "2025-10-07")])
    func pastRange(from: String, to: String) throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 10, days: 10, seed: 3)
        let out = try check(log, in: dir, from: from, to: to)
        #expect(out.hasPrefix("ok 5 days"), "\(out)")
    }
}
