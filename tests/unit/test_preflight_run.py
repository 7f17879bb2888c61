"""sitebuild.preflight.run: compute's pre-build check, when compute has one."""

from __future__ import annotations

import sys
import types

import pytest

from sitebuild import __main__ as cli
from sitebuild.preflight.run import PreflightError, run_preflight


class CheckpointError(Exception):
    pass


class ClaimError(ValueError):
    pass


class StaleClaimError(ClaimError):
    pass


def _fake_compute(monkeypatch, checks=None):
    """Install a fake `compute` package with the given checks module (None: absent)."""
    monkeypatch.setitem(sys.modules, "compute", types.ModuleType("compute"))
    monkeypatch.setitem(sys.modules, "compute.checks", checks)


def _module(name, preflight):
    module = types.ModuleType(name)
    module.preflight = preflight
    return module


def _raises(exc):
    def preflight():
        raise exc

    return preflight


def test_no_preflight_is_fine(monkeypatch):
    _fake_compute(monkeypatch)
    assert run_preflight() is False


def test_preflight_in_compute_checks_runs(monkeypatch):
    calls = []
    _fake_compute(monkeypatch, checks=_module("compute.checks", lambda: calls.append(1)))
    assert run_preflight() is True
    assert calls == [1]


@pytest.mark.parametrize("exc", [CheckpointError("checkpoint x.safetensors: sha256 mismatch"),
                                 ClaimError("claim 'loss<2' fails: 2.31"),
                                 StaleClaimError("claim is stale")])
def test_expected_errors_become_preflight_errors(monkeypatch, exc):
    _fake_compute(monkeypatch, checks=_module("compute.checks", _raises(exc)))
    with pytest.raises(PreflightError, match=str(exc)):
        run_preflight()


def test_other_errors_propagate(monkeypatch):
    _fake_compute(monkeypatch, checks=_module("compute.checks", _raises(KeyError("bug"))))
    with pytest.raises(KeyError):
        run_preflight()


def test_missing_import_inside_compute_is_not_hidden(monkeypatch, tmp_path):
    package = tmp_path / "compute"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "checks.py").write_text("import no_such_module_here\n")
    for name in ("compute", "compute.checks"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_module_here"):
        run_preflight()


def test_cli_prints_one_line_and_exits_1(monkeypatch, capsys, tmp_path):
    _fake_compute(monkeypatch, checks=_module("compute.checks", _raises(CheckpointError("bad checkpoint"))))
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("old")
    assert cli.main([], root=tmp_path) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "error: bad checkpoint"
    assert (tmp_path / "site" / "index.html").read_text() == "old"


def test_preflight_runs_again_only_when_compute_changes(monkeypatch, tmp_path):
    from sitebuild.preflight.run import run_preflight_if_changed
    calls = []
    _fake_compute(monkeypatch, checks=_module("compute.checks", lambda: calls.append(1)))
    monkeypatch.delenv("COMPUTE_CHECKPOINTS", raising=False)
    (tmp_path / "compute").mkdir()
    module = tmp_path / "compute" / "model.py"
    module.write_text("A = 1\n")
    build = tmp_path / "_build"
    assert run_preflight_if_changed(tmp_path, build) == ["*"]  # checks that know no lessons: all at once
    assert run_preflight_if_changed(tmp_path, build) == []  # nothing changed: skipped
    module.write_text("A = 2\n")
    assert run_preflight_if_changed(tmp_path, build) == ["*"]
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(tmp_path))
    assert run_preflight_if_changed(tmp_path, build) == ["*"]  # redirected checkpoints: always checked
    assert calls == [1, 1, 1]


def _lessons_project(root):
    """compute/lessons/{a,b}: a reads the checkpoint a.safetensors through a module of its own, b reads none."""
    lessons = root / "compute" / "lessons"
    for name in ("a", "b"):
        (lessons / name).mkdir(parents=True)
    (root / "compute" / "__init__.py").write_text("")
    (lessons / "__init__.py").write_text("")
    (lessons / "a" / "__init__.py").write_text("def preflight():\n    from . import weights\n")
    (lessons / "a" / "weights.py").write_text('CHECKPOINT_FILES = ("a.safetensors",)\n')
    (lessons / "b" / "__init__.py").write_text("B = 1\n")
    (root / "compute" / "checkpoints").mkdir()
    (root / "compute" / "checkpoints" / "a.safetensors").write_bytes(b"one")
    (root / "compute" / "checkpoints" / "b.safetensors").write_bytes(b"not read by b")


def test_each_lesson_is_checked_again_only_when_what_it_reads_changes(monkeypatch, tmp_path):
    from sitebuild.preflight.run import run_preflight_if_changed
    calls, failing = [], set()

    def preflight(names=None):
        calls.append(names)
        if set(names) & failing:
            raise ClaimError(f"{names[0]} fails")

    checks = _module("compute.checks", preflight)
    checks.lesson_names = lambda: ["a", "b"]
    _fake_compute(monkeypatch, checks=checks)
    monkeypatch.delenv("COMPUTE_CHECKPOINTS", raising=False)
    monkeypatch.delenv("COMPUTE_STORY_MODELS", raising=False)
    _lessons_project(tmp_path)
    build, folder = tmp_path / "_build", tmp_path / "compute" / "checkpoints"
    assert run_preflight_if_changed(tmp_path, build) == ["a", "b"]
    assert run_preflight_if_changed(tmp_path, build) == []
    (folder / "a.safetensors").write_bytes(b"two")       # a retrained checkpoint: its reader alone
    assert run_preflight_if_changed(tmp_path, build) == ["a"]
    (folder / "b.safetensors").write_bytes(b"read by nobody")
    assert run_preflight_if_changed(tmp_path, build) == []
    (tmp_path / "compute" / "lessons" / "b" / "__init__.py").write_text("B = 2\n")
    failing.add("b")
    with pytest.raises(PreflightError, match="b fails"):
        run_preflight_if_changed(tmp_path, build)
    failing.clear()
    assert run_preflight_if_changed(tmp_path, build) == ["b"]   # a failed check is checked again, a is kept
    (build / "preflight.json").write_text("[1, 2")            # a damaged record: every lesson again
    assert run_preflight_if_changed(tmp_path, build) == ["a", "b"]
    assert calls == [["a"], ["b"], ["a"], ["b"], ["b"], ["a"], ["b"]]


def test_each_checks_time_is_recorded_under_its_page_for_the_pages_stage(monkeypatch, tmp_path):
    """The pages stage starts the lessons it executes longest first (sitebuild.pages.ahead); in a cold build it
    knows them by how long their checks took, recorded under each lesson's page."""
    import json
    import time
    from types import SimpleNamespace
    from sitebuild.preflight.run import TIMES, run_preflight_if_changed

    checks = _module("compute.checks", lambda names=None: time.sleep({"a": 0.3, "b": 0.0}[names[0]]))
    checks.lesson_names = lambda: ["a", "b"]
    checks.lesson_records = lambda names: [SimpleNamespace(page=f"page-{n}") for n in names]
    _fake_compute(monkeypatch, checks=checks)
    monkeypatch.delenv("COMPUTE_CHECKPOINTS", raising=False)
    monkeypatch.delenv("COMPUTE_STORY_MODELS", raising=False)
    _lessons_project(tmp_path)
    run_preflight_if_changed(tmp_path, tmp_path / "_build")
    times = json.loads((tmp_path / "_build" / TIMES).read_text())
    assert set(times) == {"posts/page-a", "posts/page-b"} and times["posts/page-a"] >= 0.3 > times["posts/page-b"]


def test_the_warm_ups_run_side_by_side_before_the_first_check_and_a_failed_one_is_passed_over(monkeypatch, tmp_path):
    """compute.checks.WARM_UPS: statements the build runs in processes of their own, at once, before the checks
    (the story corpora, which several checks read); one that fails leaves the check to compute and report."""
    import json
    import time
    from sitebuild.preflight.run import run_preflight_if_changed

    def ran(name):
        return (f"import json, time\nstart = time.time()\ntime.sleep(1.5)\n"
                f"open('{name}.json', 'w').write(json.dumps([start, time.time()]))")
    started = []
    checks = _module("compute.checks", lambda names=None: started.append(time.time()))
    checks.lesson_names = lambda: ["a", "b"]
    checks.WARM_UPS = (ran("one"), "raise SystemExit(3)", ran("two"))
    _fake_compute(monkeypatch, checks=checks)
    monkeypatch.setenv("SITEBUILD_KERNELS", "3")
    monkeypatch.delenv("COMPUTE_CHECKPOINTS", raising=False)
    monkeypatch.delenv("COMPUTE_STORY_MODELS", raising=False)
    _lessons_project(tmp_path)
    assert run_preflight_if_changed(tmp_path, tmp_path / "_build") == ["a", "b"]
    (one_start, one_end), (two_start, two_end) = (json.loads((tmp_path / f"{n}.json").read_text())
                                                  for n in ("one", "two"))
    assert two_start < one_end and one_start < two_end          # side by side
    assert max(one_end, two_end) <= min(started)                # both before the first check
    (tmp_path / "one.json").unlink()
    assert run_preflight_if_changed(tmp_path, tmp_path / "_build") == []
    assert not (tmp_path / "one.json").exists()                 # nothing to check: no warm-up


def test_a_failed_preflight_is_not_remembered(monkeypatch, tmp_path):
    from sitebuild.preflight.run import run_preflight_if_changed
    _fake_compute(monkeypatch, checks=_module("compute.checks", _raises(CheckpointError("bad"))))
    monkeypatch.delenv("COMPUTE_CHECKPOINTS", raising=False)
    for _ in range(2):
        with pytest.raises(PreflightError):
            run_preflight_if_changed(tmp_path, tmp_path / "_build")


def test_beside_the_pages_a_failed_check_is_signalled_at_once_and_raised_when_asked(monkeypatch, tmp_path):
    """The checks run in a thread beside the pages stage: a failure sets `failed` (the pages stage stops on it)
    and result() raises it; a pass sets nothing and result() says what was checked."""
    import threading
    from sitebuild.preflight.run import Beside
    monkeypatch.delenv("COMPUTE_CHECKPOINTS", raising=False)
    _fake_compute(monkeypatch, checks=_module("compute.checks", _raises(CheckpointError("bad checkpoint"))))
    failing = Beside(tmp_path, tmp_path / "_build")
    assert failing.failed.wait(10)
    with pytest.raises(PreflightError, match="^bad checkpoint$"):
        failing.result()
    release, ran = threading.Event(), []

    def slow():
        release.wait(10)
        ran.append(True)
    _fake_compute(monkeypatch, checks=_module("compute.checks", slow))
    (tmp_path / "compute").mkdir()
    (tmp_path / "compute" / "changed.py").write_text("x = 1\n")      # another key: checked again
    passing = Beside(tmp_path, tmp_path / "_build")
    assert not passing.failed.wait(0.3) and ran == []                # running beside the caller, which goes on
    release.set()
    assert passing.result() == ["*"] and ran == [True] and not passing.failed.is_set()
