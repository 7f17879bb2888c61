"""Part 2B's check-yourself answers, worked again from the question's numbers and the timings file."""
from __future__ import annotations

import json
import re

from conftest import ROOT

from compute.lessons.context import exercises


def test_the_kv_cache_answer_is_the_arithmetic_of_its_question():
    html = exercises.kv_cache_question()
    L, d, T = (int(x.replace(",", "")) for x in re.search(r"L = (\d+) layers of width d = ([\d,]+) and reads up to "
                                                         r"T = ([\d,]+)", html).groups())
    assert f"{2 * L * T * d * 2:,} bytes" in html
    assert f"= {L * (12 * d * d + 2 * T * d):,} multiply-adds" in html


def test_the_crossing_is_where_the_stored_timings_cross():
    rows = json.loads((ROOT / "compute" / "checkpoints" / "context-timings.json").read_text())["results"]
    t = {(r["model"], r["T"]): r["seconds"] for r in rows if r["measure"] == "forward"}
    lengths = sorted(T for m, T in t if m == "average" and ("attend", T) in t)
    slower = [T for T in lengths if t["average", T] > t["attend", T]]
    first = min(T for T in slower if all(u in slower for u in lengths if u >= T))
    assert f"Measured from T = {first:,} on" in exercises.crossing_question()
