#!/usr/bin/env python3
"""Writes the daily-quiz fixtures (docs/import.md) from the seed's own types.

The file is the app's UserDefaults as JSON: each key the app wrote
(`quizHistory`, `quizProgress.YYYYMMDD`) with the value its JSONEncoder
encoded, embedded as a JSON value. JSONEncoder's defaults: `Date` as seconds
since 2001-01-01T00:00:00Z (`.deferredToDate`), `UUID` as its uppercase
string, `Double` as a number, optionals that are nil omitted (`completedAt`,
`finalScore`), `[Int?]` with `null` for unanswered questions. Member names
and types exactly as `QuizProgress` (seed 000, Phase 1) and
`QuizHistoryEntry` (Phase 5) declare them.

Run from this folder: python3 make-fixtures.py
"""
import copy, json
from datetime import datetime, timezone

REF = datetime(2001, 1, 1, tzinfo=timezone.utc)


def since2001(local, micro):
    """A Date as JSONEncoder writes it: the instant `local` plus `micro` microseconds."""
    whole = int((datetime.fromisoformat(local) - REF).total_seconds())
    return float("%d.%06d" % (whole, micro)) if micro else float(whole)


def entry(uid, local, title, score, total, micro_date, micro_done):
    return {"id": uid, "date": since2001(local, micro_date), "quizTitle": title,
            "score": score, "totalQuestions": total,
            "percentage": score * 100.0 / total,
            "completedAt": since2001(local, micro_done)}


# Local times are on +03:00 (the import is run with --utc-offset +03:00).
history = [
    entry("5B1F6E0C-2D4A-4E8B-9C31-7A0F2B6D8E41", "2025-10-17T09:00:00+03:00", "Quran Basics", 4, 5, 412071, 412318),
    entry("C9E2A7B4-61F0-4D3C-8A95-0B7E4F1D2C63", "2025-10-18T20:15:30+03:00", "Prophets of Islam", 3, 5, 250113, 250402),
    entry("0A7D3F92-8C1B-4E6A-B5D4-9F2E1C7A3B85", "2025-10-20T07:05:45+03:00", "Five Pillars", 5, 5, 412071, 412318),
    entry("E4B8C1D7-3A9F-4F2E-8D06-5C1B7A9E0F27", "2025-10-21T08:10:00+03:00", "Hadith Collections", 2, 5, 412071, 412318),
    entry("7F3A9B2E-4C8D-4A1F-9E6B-2D5C8F0A1B39", "2025-10-21T08:20:30+03:00", "Hadith Collections", 5, 5, 412071, 412318),
    # 01:30 on the 22nd at +03:00 is 22:30 on the 21st in UTC
    entry("2D6E9A1C-B7F3-4E05-A8C2-6F9D3B1E7A54", "2025-10-22T01:30:00+03:00", "Islamic Months", 4, 5, 412071, 412318),
]

progress_16 = {  # completed before history tracking existed: no history entry
    "date": "20251016", "quizTitle": "Seerah Milestones", "currentIndex": 4,
    "score": 3, "userAnswers": [2, 0, 1, 3, 1], "isCompleted": True,
    "completedAt": since2001("2025-10-16T21:40:12+03:00", 500217), "finalScore": 3}
progress_22 = {  # the same completion as the last history entry
    "date": "20251022", "quizTitle": "Islamic Months", "currentIndex": 4,
    "score": 4, "userAnswers": [0, 1, 1, 2, 3], "isCompleted": True,
    "completedAt": history[5]["completedAt"], "finalScore": 4}
progress_23 = {  # in progress: 2 of 5 answered, 1 right
    "date": "20251023", "quizTitle": "Ramadan Facts", "currentIndex": 2,
    "score": 1, "userAnswers": [1, 3, None, None, None], "isCompleted": False}

good = {"quizHistory": history,
        "quizProgress.20251016": progress_16,
        "quizProgress.20251022": progress_22,
        "quizProgress.20251023": progress_23,
        "AppleLanguages": ["en"]}   # another app key: ignored


def write(name, obj):
    with open(name, "w") as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write("\n")


write("userdefaults.json", good)


def bad(name, change):
    d = copy.deepcopy(good)
    change(d)
    write("bad-%s.json" % name, d)


bad("history-score-above-total", lambda d: d["quizHistory"][1].update(score=6))
bad("history-total-zero", lambda d: d["quizHistory"][2].update(totalQuestions=0, score=0, percentage=0.0))
bad("history-id-not-uuid", lambda d: d["quizHistory"][0].update(id="entry-1"))
bad("history-duplicate-id", lambda d: d["quizHistory"][4].update(id=d["quizHistory"][3]["id"]))
bad("history-date-not-a-date", lambda d: d["quizHistory"][3].update(date="yesterday"))
bad("history-completed-before-date", lambda d: d["quizHistory"][0].update(completedAt=d["quizHistory"][0]["date"] - 60))
bad("history-missing-member", lambda d: d["quizHistory"][5].pop("totalQuestions"))
bad("progress-date-not-key", lambda d: d["quizProgress.20251023"].update(date="20251024"))
bad("progress-key-not-a-day", lambda d: d.update({"quizProgress.20251332": d.pop("quizProgress.20251023")}))
bad("progress-score-above-answered", lambda d: d["quizProgress.20251023"].update(score=3))
bad("progress-completed-without-completedAt", lambda d: d["quizProgress.20251016"].pop("completedAt"))
bad("progress-answer-not-a-count", lambda d: d["quizProgress.20251023"]["userAnswers"].__setitem__(1, -1))
bad("progress-no-questions", lambda d: d["quizProgress.20251023"].update(userAnswers=[], score=0, currentIndex=0))
bad("history-not-an-array", lambda d: d.update(quizHistory={"0": d["quizHistory"][0]}))
with open("bad-not-json.json", "w") as f:
    f.write('{"quizHistory": [\n')
