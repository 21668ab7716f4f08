#!/usr/bin/env python3
"""Writes the sat-attempts fixtures (docs/import.md) from the seed's own types.

Each file is one response of seed 002 section 4.3 (`GET /progress/passages/
<passage_id>/attempts`) or 4.4 (`.../lessons/<lesson_id>/attempts`): a JSON
array of attempts with the members the seed lists (id, passage_id or
lesson_id, score, correct_count, total_questions, time_spent_seconds,
completed_at, answers). The seed abbreviates `answers` as `[...]`; its items
are taken to be the items of the submit response (section 4.1):
question_id, selected_option_index, correct_answer_index, is_correct,
explanation, annotations.

Run from this folder: python3 make-fixtures.py
"""
import copy, json

PASSAGE = "3f6b2c1e-9a47-4d8e-b5c2-1e7f0a9d4c38"
LESSON = "8d2e4f6a-1b3c-4e5d-9f7a-2c4e6b8d0a13"
Q = ["a1c3e5f7-0000-4000-8000-00000000000%d" % i for i in range(1, 6)]
LQ = ["b2d4f6a8-0000-4000-8000-00000000000%d" % i for i in range(1, 4)]


def answers(qids, picks, rights):
    out = []
    for q, pick, right in zip(qids, picks, rights):
        out.append({"question_id": q, "selected_option_index": pick,
                    "correct_answer_index": right, "is_correct": pick == right,
                    "explanation": "The passage states...",
                    "annotations": [{"id": "9e8d7c6b-0000-4000-8000-000000000001",
                                     "start_char": 45, "end_char": 89,
                                     "selected_text": "essential for human health",
                                     "explanation": "This phrase directly supports answer B"}]})
    return out


def row(rid, key, content, picks, rights, secs, at, qids):
    a = answers(qids, picks, rights)
    c = sum(1 for x in a if x["is_correct"])
    return {"id": rid, key: content, "score": round(100 * c / len(a)) if a else None,
            "correct_count": c, "total_questions": len(a),
            "time_spent_seconds": secs, "completed_at": at, "answers": a}


RIGHT = [1, 2, 0, 3, 1]
passage = [
    row("61a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8", "passage_id", PASSAGE, [1, 2, 0, 3, 0], RIGHT, 300, "2025-01-15T10:30:00Z", Q),
    row("72b3c4d5-e6f7-4081-92a3-b4c5d6e7f809", "passage_id", PASSAGE, [1, 2, 0, 3, 1], RIGHT, 240, "2025-01-20T18:05:00Z", Q),
    row("83c4d5e6-f708-4192-a3b4-c5d6e7f8091a", "passage_id", PASSAGE, [1, 0, 0, 1, 1], RIGHT, 280, "2025-02-02T08:00:00Z", Q),
]
lesson = [
    row("94d5e6f7-0819-42a3-b4c5-d6e7f8091a2b", "lesson_id", LESSON, [0, 2, 1], [0, 2, 1], 120, "2025-01-16T09:00:00Z", LQ),
    # a history item without its answers: only the counts (the made-up rule)
    {"id": "a5e6f708-192a-43b4-c5d6-e7f8091a2b3c", "lesson_id": LESSON, "score": 67,
     "correct_count": 2, "total_questions": 3, "time_spent_seconds": 95,
     "completed_at": "2025-01-18T09:00:00Z", "answers": []},
]


def write(name, obj):
    with open(name, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


write("passage-attempts.json", passage)
write("lesson-attempts.json", lesson)


def bad(name, change, base=passage):
    d = copy.deepcopy(base)
    change(d)
    write("bad-%s.json" % name, d)


bad("answers-not-total", lambda d: d[1]["answers"].pop())
bad("correct-count-mismatch", lambda d: d[0].update(correct_count=5))
bad("duplicate-question", lambda d: d[2]["answers"][4].update(question_id=Q[0]))
bad("choice-not-a-count", lambda d: d[0]["answers"][2].update(selected_option_index=-1))
bad("is-correct-not-bool", lambda d: d[0]["answers"][2].update(is_correct="yes"))
bad("completed-at-missing", lambda d: d[1].update(completed_at=None))
bad("completed-at-not-rfc3339", lambda d: d[1].update(completed_at="20 Jan 2025"))
bad("other-content", lambda d: d[2].update(passage_id=LESSON))
bad("seconds-not-a-count", lambda d: d[0].update(time_spent_seconds=299.5))
bad("duplicate-id", lambda d: d[2].update(id=d[0]["id"]))
bad("id-missing", lambda d: d[1].pop("id"))
bad("not-an-array", lambda d: None, base={"attempts": passage})
