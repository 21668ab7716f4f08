#!/usr/bin/env python3
"""Writes the quiz-app fixtures (docs/import.md) from the seed's own types.

The file is the value redux-persist keeps under the AsyncStorage key
`persist:root` (seed 004, "Architecture & Stack": Redux Toolkit + Redux
Persist; `src/state/slices/appSlice.ts` holds `hints` and `hintsSeeded`):
a JSON object whose members are the slices, each serialised again as a JSON
string, plus `_persist`.

Run from this folder: python3 make-fixtures.py
"""
import json


def root(app, **other):
    d = {"app": json.dumps(app, separators=(",", ":"))}
    for k, v in other.items():
        d[k] = json.dumps(v, separators=(",", ":"))
    d["_persist"] = json.dumps({"version": -1, "rehydrated": True}, separators=(",", ":"))
    return d


def write(name, obj):
    with open(name, "w") as f:
        json.dump(obj, f, separators=(",", ":"))
        f.write("\n")


# seeded with 20, 3 used, ... : 17 left
write("persist-root.json", root({"hints": 17, "hintsSeeded": True}))
# as AsyncStorage.getItem returns it: the same object as one JSON string
with open("persist-root-as-string.json", "w") as f:
    f.write(json.dumps(json.dumps(root({"hints": 17, "hintsSeeded": True}), separators=(",", ":"))) + "\n")
# a first launch that never seeded: nothing to import
write("persist-root-unseeded.json", root({"hints": 0, "hintsSeeded": False}))
write("bad-hints-negative.json", root({"hints": -3, "hintsSeeded": True}))
write("bad-hints-not-integer.json", root({"hints": 17.5, "hintsSeeded": True}))
write("bad-seeded-not-bool.json", root({"hints": 17, "hintsSeeded": "yes"}))
write("bad-app-missing.json", {"_persist": json.dumps({"version": -1, "rehydrated": True})})
write("bad-app-not-a-string.json", {"app": {"hints": 17, "hintsSeeded": True}, "_persist": "{}"})
with open("bad-app-not-json.json", "w") as f:
    f.write(json.dumps({"app": "{\"hints\":17,", "_persist": "{}"}) + "\n")
