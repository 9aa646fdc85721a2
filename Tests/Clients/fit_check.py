"""Decodes every .fit file in a folder with Garmin's own FIT SDK (PyPI garmin-fit-sdk) and prints,
as one JSON object, each file's integrity and what a test compares with the ledger's history:
its session's sport, its active sets (reps, weight in kg, category) in order, and its rest sets."""
import json
import os
import sys

from garmin_fit_sdk import Decoder, Stream


def read(path):
    # Each check reads the stream through, so each gets a decoder of its own.
    out = {
        "isFit": Decoder(Stream.from_file(path)).is_fit(),
        "integrity": Decoder(Stream.from_file(path)).check_integrity(),
    }
    messages, errors = Decoder(Stream.from_file(path)).read(convert_types_to_strings=True)
    out["errors"] = [str(e) for e in errors]
    sessions = messages.get("session_mesgs", [])
    out["sessions"] = [{"sport": s.get("sport"), "subSport": s.get("sub_sport")} for s in sessions]
    out["fileType"] = (messages.get("file_id_mesgs") or [{}])[0].get("type")
    sets, rests = [], 0
    for s in messages.get("set_mesgs", []):
        if s.get("set_type") == "rest":
            rests += 1
            continue
        category = s.get("category")
        if isinstance(category, list):
            category = category[0] if category else None
        sets.append({"reps": s.get("repetitions"), "weightKg": s.get("weight"), "category": category,
                     "durationSeconds": s.get("duration")})
    out["sets"] = sets
    out["rests"] = rests
    return out


def main():
    folder = sys.argv[1]
    result = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".fit"):
            result[name] = read(os.path.join(folder, name))
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
