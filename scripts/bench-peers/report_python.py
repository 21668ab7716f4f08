#!/usr/bin/env python3
"""The report's per-day numbers from a log, with Python's standard library only.

A peer for scripts/bench: it folds the same rules as `progress-ledger report`
(docs/reports.md) for the `days` rows and prints them as JSON, one object per
day with the report's members. It trusts the log (no verification, no SHA-256):
it is a lower bound of what a script would cost.

Rules: an attempt's answers, hints, finish and abandon count on the day its
first quiz.started is on (when it was started earlier in the log); a reused
attempt id is not counted again; only the first answer to a question of a
running attempt counts; only the first end counts; active users are users
with an event other than hints.granted on the day.
"""
import json
import sys
from fractions import Fraction


def percent(part, whole):
    return None if whole == 0 else (200 * part + whole) // (2 * whole)


def main(path):
    attempts = {}   # (user, attempt) -> [day, questions, score, ended, answered questions]
    days = {}

    def tally(day):
        t = days.get(day)
        if t is None:
            t = days[day] = {"users": set(), "started": 0, "finished": 0, "scores": [], "answers": 0,
                             "correct": 0, "hints": 0, "pc": 0, "pf": 0, "subs": 0}
        return t

    with open(path, "rb") as f:
        for raw in f:
            e = json.loads(raw)
            if e.get("v") != 1:
                continue
            user, kind, d = e["user"], e["type"], e["data"]
            day = e["at"][:10]  # the local date, as written
            if kind == "quiz.started":
                key = (user, d["attempt"])
                a = attempts.get(key)
                if a is not None:
                    t = tally(day)  # a reused id starts nothing, on its own day (docs/reports.md)
                else:
                    attempts[key] = [day, d["questions"], 0, False, set()]
                    t = tally(day)
                    t["started"] += 1
            elif kind == "answer.selected":
                a = attempts.get((user, d["attempt"]))
                if a is not None:
                    day = a[0]
                t = tally(day)
                if a is not None and not a[3] and d["question"] not in a[4]:
                    a[4].add(d["question"])
                    t["answers"] += 1
                    if d["correct"]:
                        a[2] += 1
                        t["correct"] += 1
            elif kind == "hint.used":
                a = attempts.get((user, d["attempt"]))
                if a is not None:
                    day = a[0]
                t = tally(day)
                t["hints"] += 1
            elif kind in ("quiz.finished", "quiz.abandoned"):
                a = attempts.get((user, d["attempt"]))
                if a is not None:
                    day = a[0]
                t = tally(day)
                if a is not None and not a[3]:
                    a[3] = True
                    if kind == "quiz.finished":
                        t["finished"] += 1
                        t["scores"].append(Fraction(a[2], a[1]))
            else:
                t = tally(day)
                if kind == "puzzle.completed":
                    t["pc"] += 1
                elif kind == "puzzle.failed":
                    t["pf"] += 1
                elif kind == "submission.made":
                    t["subs"] += 1
                    for answer in d["answers"]:
                        t["answers"] += 1
                        if answer["correct"]:
                            t["correct"] += 1
            if kind != "hints.granted":
                t["users"].add(user)

    rows = []
    if days:
        from datetime import date, timedelta
        first, last = date.fromisoformat(min(days)), date.fromisoformat(max(days))
        day = first
        while day <= last:
            t = days.get(day.isoformat())
            if t is None:
                t = {"users": (), "started": 0, "finished": 0, "scores": [], "answers": 0, "correct": 0,
                     "hints": 0, "pc": 0, "pf": 0, "subs": 0}
            mean = None
            if t["scores"]:
                x = sum(t["scores"], Fraction(0)) * 100 / len(t["scores"])
                mean = (x + Fraction(1, 2)).__floor__()
            rows.append({"day": day.isoformat(), "active_users": len(t["users"]), "quizzes_started": t["started"],
                         "quizzes_finished": t["finished"], "completion_rate": percent(t["finished"], t["started"]),
                         "mean_score_percent": mean, "answers": t["answers"],
                         "accuracy": percent(t["correct"], t["answers"]), "hints_used": t["hints"],
                         "puzzles_completed": t["pc"], "puzzles_failed": t["pf"], "submissions": t["subs"]})
            day += timedelta(days=1)
    json.dump(rows, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
