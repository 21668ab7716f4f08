#!/usr/bin/env python3
"""The report's per-day numbers from a log, as DuckDB SQL over the JSON lines.

A peer for scripts/bench (run it with the DuckDB of .venv-bench): the same
`days` rows as `progress-ledger report`, the same rules as
scripts/bench-peers/report_python.py, written as SQL. `at` is read as text,
so each event's local date (the learner's day) is its first ten characters.
It trusts the log (no verification, no SHA-256). Usage:

    report_duckdb.py LOG [--threads N]
"""
import json
import sys
from datetime import date, timedelta
from fractions import Fraction

import duckdb

SQL = """
WITH e AS (
    SELECT seq, "user" AS u, type, substr("at", 1, 10) AS own_day, data
    FROM read_json(?, format = 'newline_delimited', columns = {
        'v': 'BIGINT', 'seq': 'BIGINT', 'user': 'VARCHAR', 'type': 'VARCHAR', 'at': 'VARCHAR',
        'data': 'STRUCT(attempt VARCHAR, question VARCHAR, correct BOOLEAN, questions BIGINT,
                        answers STRUCT(correct BOOLEAN)[])'})
    WHERE v = 1
),
starts AS (      -- the first start of each attempt
    SELECT u, data.attempt AS attempt, min(seq) AS start_seq,
           arg_min(own_day, seq) AS aday, arg_min(data.questions, seq) AS questions
    FROM e WHERE type = 'quiz.started' GROUP BY ALL
),
att AS (         -- attempt events, with their attempt when it was started earlier in the log
    SELECT e.seq, e.u, e.type, e.own_day, e.data.attempt AS attempt, e.data.question AS question,
           e.data.correct AS correct, s.start_seq, s.aday, s.questions
    FROM e LEFT JOIN starts s ON s.u = e.u AND s.attempt = e.data.attempt AND s.start_seq <= e.seq
    WHERE e.type IN ('quiz.started', 'answer.selected', 'hint.used', 'quiz.finished', 'quiz.abandoned')
),
ends AS (        -- the first end of each started attempt
    SELECT u, attempt, min(seq) AS end_seq, arg_min(type, seq) AS end_type
    FROM att WHERE type IN ('quiz.finished', 'quiz.abandoned') AND start_seq IS NOT NULL GROUP BY ALL
),
firsts AS (      -- counted answers: the first to each question of a running attempt
    SELECT * FROM (
        SELECT a.u, a.attempt, a.aday, a.correct,
               row_number() OVER (PARTITION BY a.u, a.attempt, a.question ORDER BY a.seq) AS k
        FROM att a LEFT JOIN ends n ON n.u = a.u AND n.attempt = a.attempt
        WHERE a.type = 'answer.selected' AND a.start_seq IS NOT NULL AND (n.end_seq IS NULL OR a.seq < n.end_seq)
    ) WHERE k = 1
),
finished AS (    -- finished attempts: day, questions, score
    SELECT s.aday AS day, s.questions, count(f.correct) FILTER (WHERE f.correct) AS score
    FROM ends n JOIN starts s USING (u, attempt) LEFT JOIN firsts f USING (u, attempt)
    WHERE n.end_type = 'quiz.finished' GROUP BY n.u, n.attempt, s.aday, s.questions
),
daily AS (
    -- a start is on its own day, a reused id's too (it starts nothing: docs/reports.md)
    SELECT CASE WHEN e.type = 'quiz.started' THEN e.own_day ELSE coalesce(a.aday, e.own_day) END AS day,
           e.u, e.type, e.data
    FROM e LEFT JOIN att a ON a.seq = e.seq
)
SELECT 'users' AS what, day, count(DISTINCT u) AS n, NULL AS q FROM daily WHERE type <> 'hints.granted' GROUP BY day
UNION ALL SELECT 'started', aday, count(*), NULL FROM starts GROUP BY aday
UNION ALL SELECT 'answers', aday, count(*), NULL FROM firsts GROUP BY aday
UNION ALL SELECT 'correct', aday, count(*), NULL FROM firsts WHERE correct GROUP BY aday
UNION ALL SELECT 'answers', day, sum(len(data.answers)), NULL FROM daily WHERE type = 'submission.made' GROUP BY day
UNION ALL SELECT 'correct', day, sum(len(list_filter(data.answers, lambda x: x.correct))), NULL
          FROM daily WHERE type = 'submission.made' GROUP BY day
UNION ALL SELECT 'hints', day, count(*), NULL FROM daily WHERE type = 'hint.used' GROUP BY day
UNION ALL SELECT 'pc', day, count(*), NULL FROM daily WHERE type = 'puzzle.completed' GROUP BY day
UNION ALL SELECT 'pf', day, count(*), NULL FROM daily WHERE type = 'puzzle.failed' GROUP BY day
UNION ALL SELECT 'subs', day, count(*), NULL FROM daily WHERE type = 'submission.made' GROUP BY day
UNION ALL SELECT 'finished', day, count(*), NULL FROM finished GROUP BY day
UNION ALL SELECT 'score', day, sum(score), questions FROM finished GROUP BY day, questions
UNION ALL SELECT 'count', day, count(*), questions FROM finished GROUP BY day, questions
UNION ALL SELECT 'any', day, 0, NULL FROM daily GROUP BY day
"""


def percent(part, whole):
    return None if whole == 0 else (200 * part + whole) // (2 * whole)


def main():
    path = sys.argv[1]
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 2
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    days = {}
    for what, day, n, q in con.execute(SQL, [path]).fetchall():
        t = days.setdefault(day, {"sums": {}, "counts": {}})
        if what == "score":
            t["sums"][q] = t["sums"].get(q, 0) + int(n)
        elif what == "count":
            t["counts"][q] = t["counts"].get(q, 0) + int(n)
        elif what != "any":
            t[what] = t.get(what, 0) + int(n)
    rows = []
    if days:
        day, last = date.fromisoformat(min(days)), date.fromisoformat(max(days))
        while day <= last:
            t = days.get(day.isoformat(), {"sums": {}, "counts": {}})
            g = lambda k: t.get(k, 0)
            finished = sum(t["counts"].values())
            mean = None
            if finished:
                x = sum((Fraction(s, q) for q, s in t["sums"].items()), Fraction(0)) * 100 / finished
                mean = (x + Fraction(1, 2)).__floor__()
            rows.append({"day": day.isoformat(), "active_users": g("users"), "quizzes_started": g("started"),
                         "quizzes_finished": g("finished"), "completion_rate": percent(g("finished"), g("started")),
                         "mean_score_percent": mean, "answers": g("answers"), "accuracy": percent(g("correct"), g("answers")),
                         "hints_used": g("hints"), "puzzles_completed": g("pc"), "puzzles_failed": g("pf"),
                         "submissions": g("subs")})
            day += timedelta(days=1)
    json.dump(rows, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
