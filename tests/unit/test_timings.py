"""The stored context timings: checked on load like a checkpoint, one sentence for each kind of damage, and the
`bench context` command that writes them."""
from __future__ import annotations

import json
import re
import os
import shutil
import subprocess

import pytest

from compute.published import timings as published
from compute.store import CheckpointError, checkpoint_dir
from conftest import ROOT
from helpers import cli_error, usage_error
from forked import compute as run_compute

STORED = checkpoint_dir() / published.TIMINGS


@pytest.fixture
def stored() -> dict:
    return json.loads(STORED.read_text())


def load(tmp_path, data=None, text=None):
    path = tmp_path / published.TIMINGS
    path.write_text(text if text is not None else json.dumps(data))
    published._load.cache_clear()
    try:
        return published._load(path)
    finally:
        published._load.cache_clear()


def one_sentence(err, tmp_path) -> str:
    message = str(err.value)
    assert str(tmp_path / published.TIMINGS) in message and "\n" not in message
    return message


def test_the_stored_file_covers_everything_the_lesson_needs():
    t = published.timings()
    for model, measure, lengths in published.needed():
        assert set(lengths) <= set(t.series(model, measure)[0]), (model, measure)
    assert t.repeats >= 3 and t.d == 64
    assert all(r["seconds"] > 0 for r in t.rows)
    assert all(r[k] >= 0 for r in t.rows for k in published.MEMORY)
    assert t.measured_on["last_level_cache_bytes"] > 0


def test_each_record_says_what_one_call_allocated(stored):
    """Averaging as written allocates T x T matrices; the same product with its matrix kept does not."""
    t = published.validate(stored, STORED)
    T = max(t.series("average", "forward")[0])
    assert t.at("average", "forward", T, "largest_bytes") == 4 * T * T
    assert t.at("average", "forward", T, "peak_bytes") >= 2 * 4 * T * T
    assert t.at("average, matrix kept", "forward", T, "largest_bytes") < 4 * T * T


def test_series_come_back_sorted_by_length(tmp_path, stored):
    stored["results"] = list(reversed(stored["results"]))
    T, _ = load(tmp_path, stored).series("attend", "forward")
    assert T == sorted(T) and len(T) > 3


def drop(key):
    def damage(d):
        del d[key]
    return damage


def setter(key, value):
    def damage(d):
        d[key] = value
    return damage


def row(i, key, value):
    def damage(d):
        d["results"][i][key] = value
    return damage


def lose_machine_field(d):
    del d["measured_on"]["cpu"]


def lose_attention_at_2048(d):
    d["results"] = [r for r in d["results"] if not (r["model"] == "attend" and r["T"] == 2048)]


def lose_story_length(model, measure, T):
    def damage(d):
        d["results"] = [r for r in d["results"] if (r["model"], r["measure"], r["T"]) != (model, measure, T)]
    return damage


DAMAGE = [
    (setter("schema", "context-timings/1"), "has schema 'context-timings/1', expected 'context-timings/2'"),
    (setter("units", "milliseconds"), "gives times in 'milliseconds'"),
    (setter("repeats", 0), "has repeats = 0"),
    (drop("d"), "has d = None"),
    (lose_machine_field, "lacks where it was measured"),
    (setter("results", []), "holds no results"),
    (row(3, "seconds", -1.0), "has time -1.0"),
    (row(3, "seconds", "fast"), "has time 'fast'"),
    (row(5, "measure", "backward"), "has measure 'backward'"),
    (row(0, "extra", 1), "is not a {T, allocated_bytes, faults, largest_bytes, measure, model, peak_bytes, seconds} "
                         "record"),
    (row(2, "faults", -1), "has faults = -1"),
    (row(4, "peak_bytes", "much"), "has peak_bytes = 'much'"),
    (lose_attention_at_2048, "has no forward time of attend at T = 2048"),
    (lose_story_length("story-four-head", "token cached", 128),
     "has no token cached time of story-four-head at T = 128"),
    (lose_story_length("story-mlp", "token uncached", 256), "has no token uncached time of story-mlp at T = 256"),
]


@pytest.mark.parametrize("damage, problem", DAMAGE, ids=[p for _, p in DAMAGE])
def test_each_kind_of_damage_is_one_sentence_naming_the_file(tmp_path, stored, damage, problem):
    damage(stored)
    with pytest.raises(CheckpointError) as err:
        load(tmp_path, stored)
    assert problem in one_sentence(err, tmp_path)


def test_a_file_that_is_not_json(tmp_path):
    with pytest.raises(CheckpointError) as err:
        load(tmp_path, text='{"schema": "context-timings/2", ')
    assert "is not valid JSON" in one_sentence(err, tmp_path)


def test_quick_bench_writes_a_valid_file_the_lesson_refuses_and_check_names_it(tmp_path):
    """--quick measures two lengths: a well-formed file, but not one the lesson can draw from."""
    folder = tmp_path / "checkpoints"
    shutil.copytree(checkpoint_dir(), folder)
    env = {**os.environ, "COMPUTE_CHECKPOINTS": str(folder), "PYTHONPATH": str(ROOT)}
    out = folder / published.TIMINGS
    proc = run_compute("bench", "context", "--quick", cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert str(out) in proc.stdout
    data = json.loads(out.read_text())
    t = published.validate(data, out)
    assert {r["T"] for r in t.rows} == {16, 32}
    assert t.measured_on["threads"] == 1 and t.repeats == 1
    check = run_compute("check", "context", cwd=ROOT, env=env, timeout=600)
    assert check.returncode == 1
    lines = check.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and str(out) in lines[0]
    assert "has no forward time of" in lines[0]


def test_the_lesson_needs_each_story_model_at_every_length_up_to_its_context():
    story = {(m, measure): lengths for m, measure, lengths in published.needed() if m.startswith("story-")}
    assert story[("story-four-head", "token cached")] == (16, 32, 64, 128, 256)
    assert story[("story-mlp", "token uncached")] == (16, 32, 64, 128, 256)
    assert ("story-mlp", "token cached") not in story and len(story) == 8


def test_a_story_length_missing_stops_check_context_naming_the_file(tmp_path, stored):
    """The handout's story figure draws every length up to the context: a file without one is refused."""
    lose_story_length("story-one-head", "token uncached", 64)(stored)
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    (folder / published.TIMINGS).write_text(json.dumps(stored))
    env = {**os.environ, "COMPUTE_CHECKPOINTS": str(folder), "PYTHONPATH": str(ROOT)}
    proc = run_compute("check", "context", cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {folder / published.TIMINGS}: ")
    assert "has no token uncached time of story-one-head at T = 64" in lines[0]


def test_a_claim_the_timings_break_stops_check_context_in_one_line(tmp_path, stored):
    """Well-formed times in which averaging's running sum grows with T: `compute check context` stops with one
    `error:` line naming the claim, its sentence's numbers and what it was checked on."""
    for r in stored["results"]:
        if (r["model"], r["measure"]) == ("average", "token cached"):
            r["seconds"] *= r["T"]
    folder = tmp_path / "checkpoints"
    shutil.copytree(checkpoint_dir(), folder)
    (folder / published.TIMINGS).write_text(json.dumps(stored))
    env = {**os.environ, "COMPUTE_CHECKPOINTS": str(folder), "PYTHONPATH": str(ROOT)}
    proc = run_compute("check", "context", cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert re.search(r"claim running_sum_is_flat fails: .* \[slope \d+\.\d+ over T = 16\.\.", proc.stderr), proc.stderr


def test_bench_refuses_a_bad_repeat_count(capsys):
    assert "must be a whole number above 0" in usage_error(["bench", "context", "--repeats", "0"], capsys)


def never_measures(*args, **kwargs):
    raise AssertionError("timed although --out could not take the timings")


@pytest.mark.parametrize("out, cause", [
    ("a-file/timings.json", "--out cannot be written: {tmp}/a-file is a file, not a folder"),
    ("folder", "--out is a folder, not a file"),
], ids=["under a file", "a folder"])
def test_bench_refuses_an_out_it_cannot_write_before_timing(tmp_path, out, cause, capsys, monkeypatch):
    """--out is checked before the timings, which take minutes, are measured: none is lost to it."""
    from compute.measure import context
    monkeypatch.setattr(context, "measure", never_measures)
    (tmp_path / "a-file").write_text("not a folder\n")
    (tmp_path / "folder").mkdir()
    line = cli_error(["bench", "context", "--quick", "--out", str(tmp_path / out), "--quiet"], capsys)
    assert line == f"error: {tmp_path / out}: {cause.format(tmp=tmp_path)}; nothing was timed"


RECOMPUTED = checkpoint_dir() / published.RECOMPUTE


def test_the_stored_recompute_file_holds_a_new_token_three_ways_at_every_length():
    t = published.recompute_timings()
    for model, measure, lengths in published.recompute_needed():
        assert set(lengths) == set(t.series(model, measure)[0]), (model, measure)
    assert {r["measure"] for r in t.rows} == set(published.NEW_TOKEN) and {r["model"] for r in t.rows} == {"attend"}
    assert t.repeats >= 3 and t.d == 64 and t.measured_on["threads"] == 1


def run_check_with_recompute(tmp_path, data) -> subprocess.CompletedProcess:
    folder = tmp_path / "checkpoints"
    shutil.copytree(checkpoint_dir(), folder)
    (folder / published.RECOMPUTE).write_text(json.dumps(data))
    env = {**os.environ, "COMPUTE_CHECKPOINTS": str(folder), "PYTHONPATH": str(ROOT)}
    return run_compute("check", "context", cwd=ROOT, env=env, timeout=300)


def test_quick_bench_recompute_writes_a_file_check_refuses_naming_the_command(tmp_path):
    out = tmp_path / "r.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = run_compute("bench", "recompute", "--quick", "--out", str(out), cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    t = published.validate(json.loads(out.read_text()), out)
    assert {(r["measure"], r["T"]) for r in t.rows} == {(m, T) for m in published.NEW_TOKEN for T in (16, 32)}
    check = run_check_with_recompute(tmp_path, json.loads(out.read_text()))
    assert check.returncode == 1
    lines = check.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {tmp_path / 'checkpoints' / published.RECOMPUTE}: ")
    assert "has no token uncached time of attend at T = 64" in lines[0] and "bench recompute" in lines[0]


def test_a_cache_slower_than_recomputing_stops_check_context_naming_the_claim(tmp_path):
    data = json.loads(RECOMPUTED.read_text())
    for r in data["results"]:
        if r["measure"] == "token cached":
            r["seconds"] *= 100
    check = run_check_with_recompute(tmp_path, data)
    assert check.returncode == 1 and check.stderr.count("\n") == 1, check.stderr
    assert "claim the_cache_beats_both_ways_at_length fails" in check.stderr, check.stderr
