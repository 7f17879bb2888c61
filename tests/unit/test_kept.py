"""compute.kept: a result is computed once per key and read back in any process; anything it was computed from
changing misses; processes that want one key at once compute it once."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from compute import kept as kept_module
from compute.kept import KEEP, kept, source_files
from conftest import ROOT


def counted(reads=None):
    """A kept function that counts its calls: (function, calls)."""
    calls = []

    def square(x: int, offset: int = 0) -> dict:
        calls.append(x)
        return {"square": x * x + offset}

    return kept(reads)(square), calls


def test_a_result_is_computed_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPUTE_RESULTS", str(tmp_path))
    square, calls = counted()
    assert square(3) == {"square": 9} and square(3) == {"square": 9} and square(x=3, offset=0) == {"square": 9}
    assert calls == [3]                                     # defaults and keywords make the same key
    again, calls_again = counted()                          # another process's function: same name, same module
    assert again(3) == {"square": 9} and calls_again == []
    assert square(4) == {"square": 16} and calls == [3, 4]  # other arguments, another key


def test_a_changed_file_it_reads_misses_and_the_old_bytes_hit_again(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPUTE_RESULTS", str(tmp_path / "results"))
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"first")
    square, calls = counted(reads=lambda x, offset: [weights])
    square(2)
    weights.write_bytes(b"second")
    square(2)
    weights.write_bytes(b"first")
    square(2)
    assert calls == [2, 2]


def test_ensure_computes_and_keeps_a_missing_result_and_reads_nothing_back(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPUTE_RESULTS", str(tmp_path))
    square, calls = counted()
    square.ensure(7)
    assert calls == [7] and square(7) == {"square": 49} and calls == [7]   # kept: the call reads it
    [entry] = tmp_path.glob("*.pkl")
    entry.write_bytes(b"not a pickle")
    square.ensure(7)
    assert calls == [7]                         # there already: not read, not computed again
    assert square(7) == {"square": 49} and calls == [7, 7]                  # the call reads it, and recomputes


def test_off_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPUTE_RESULTS", "off")
    monkeypatch.chdir(tmp_path)
    square, calls = counted()
    square(5), square(5)
    assert calls == [5, 5]


def test_an_entry_cut_short_is_computed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPUTE_RESULTS", str(tmp_path))
    square, calls = counted()
    square(6)
    (entry,) = tmp_path.glob("*.pkl")
    entry.write_bytes(entry.read_bytes()[:10])
    assert square(6) == {"square": 36} and calls == [6, 6]
    assert square(6) == {"square": 36} and calls == [6, 6]   # rewritten whole


def test_a_folder_that_cannot_be_made_computes_as_before(tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv("COMPUTE_RESULTS", str(tmp_path / "a-file" / "results"))
    square, calls = counted()
    assert square(7) == {"square": 49} and square(7) == {"square": 49} and calls == [7, 7]


def test_only_the_newest_entries_of_a_call_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPUTE_RESULTS", str(tmp_path / "results"))
    weights = tmp_path / "model.safetensors"
    square, calls = counted(reads=lambda x, offset: [weights])
    for version in range(KEEP + 3):
        weights.write_bytes(f"version {version}".encode())
        square(8)
    assert len(calls) == KEEP + 3
    assert len(list((tmp_path / "results").glob("*.pkl"))) == KEEP
    square(8)                                              # the newest is among them
    assert len(calls) == KEEP + 3


SLOW = """
import sys, time
sys.path.insert(0, {root!r})
from compute.kept import kept

@kept()
def slow() -> str:
    with open({log!r}, "a") as log:
        log.write("computed\\n")
    time.sleep(1.5)
    return "the result"

print(slow())
"""


def test_two_processes_that_want_one_result_at_once_compute_it_once(tmp_path):
    script = tmp_path / "slow.py"
    script.write_text(SLOW.format(root=str(ROOT), log=str(tmp_path / "log")))
    env = {**os.environ, "COMPUTE_RESULTS": str(tmp_path / "results")}
    runs = [subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE, text=True)
            for _ in range(2)]
    outputs = [run.communicate(timeout=60)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    assert outputs == ["the result\n", "the result\n"]
    assert (tmp_path / "log").read_text() == "computed\n"


def write_tree(root, files):
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


def test_the_source_of_a_result_follows_imports_lazy_ones_and_declared_data(tmp_path):
    write_tree(tmp_path, {
        "compute/__init__.py": "",
        "compute/pkg/__init__.py": "from ..record import R\n\ndef lazy():\n    from ..parents_lazy import x\n",
        "compute/pkg/m.py": "from ..a import g\n",
        "compute/a.py": "from .b import f\n\ndef g():\n    from . import c\n",
        "compute/b.py": 'DATA_FILES = ("words.txt",)\n\ndef f():\n    pass\n',
        "compute/words.txt": "lily tom\n",
        "compute/c.py": "import numpy\n",
        "compute/record.py": "R = 1\n",
        "compute/parents_lazy.py": "x = 1\n",
        "compute/elsewhere.py": "from .a import g\n",
    })
    got = {p.relative_to(tmp_path).as_posix() for p in source_files("compute.pkg.m", tmp_path)}
    assert got == {"compute/__init__.py", "compute/pkg/__init__.py", "compute/pkg/m.py", "compute/a.py",
                   "compute/b.py", "compute/words.txt", "compute/c.py", "compute/record.py"}
    # a lazy import of a package that is only a parent (pkg's) is not followed; nor is a module nothing imports


def test_the_story_measurements_depend_on_their_code_not_on_the_lessons_prose():
    files = {p.relative_to(ROOT).as_posix() for p in source_files("compute.lessons.story.states.evaluation")}
    assert {"compute/published/story.py", "compute/probes.py", "compute/data/story.py",
            "compute/data/handwritten_stories.txt", "compute/nn/attention.py"} <= files
    assert not {"compute/lessons/story/claims.py", "compute/lessons/story/values.py"} & files


def test_results_live_in_the_build_folder_unless_told(monkeypatch, tmp_path):
    monkeypatch.delenv("COMPUTE_RESULTS", raising=False)
    assert kept_module.results_folder() == ROOT / "_build" / "results"
    monkeypatch.setenv("COMPUTE_RESULTS", str(tmp_path))
    assert kept_module.results_folder() == tmp_path
