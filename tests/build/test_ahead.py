"""Lessons to execute are executed side by side before Sphinx reads them (sitebuild.pages.ahead), each once, and
MyST-NB takes them from the cache; a lesson that fails there fails the build as it did when Sphinx ran it."""

from __future__ import annotations

import json

import pytest

from helpers import FRONT_MATTER, make_mini_project
from sitebuild.pages import ahead
from sitebuild.pages.sphinx import SphinxError, build_html

# Each run of the lesson appends its name, start and end to runs.jsonl beside the lessons, and takes a few seconds.
TIMED = FRONT_MATTER + """
# Lesson {name}

```{{code-cell}} ipython3
:tags: [remove-cell]

import json, time
from myst_nb import glue

start = time.time()
time.sleep(4)
with open("runs.jsonl", "a") as out:
    out.write(json.dumps({{"name": "{name}", "start": start, "end": time.time()}}) + "\\n")
glue("value", "{name}", display=False)
```

This is lesson {{glue:text}}`value`.
"""


def _project(tmp_path, names, lesson=TIMED):
    (tmp_path / "src").mkdir()
    root = make_mini_project(tmp_path / "src", lesson.format(name=names[0]))
    (root / "posts" / "lesson.md").rename(root / "posts" / f"{names[0]}.md")
    for name in names[1:]:
        (root / "posts" / f"{name}.md").write_text(lesson.format(name=name))
    return root


def _runs(root) -> list[dict]:
    path = root / "posts" / "runs.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_two_lessons_run_side_by_side_once_each_and_their_pages_show_their_values(tmp_path, monkeypatch):
    monkeypatch.setenv(ahead.KERNELS, "2")                             # two at once on a machine of any size
    root = _project(tmp_path, ["one", "two"])
    assert build_html(root, root / "_build") == ["posts/one.md", "posts/two.md"]
    runs = _runs(root)
    assert sorted(r["name"] for r in runs) == ["one", "two"]           # each executed once, not again by MyST-NB
    first, second = sorted(runs, key=lambda r: r["start"])
    assert second["start"] < first["end"]                              # the second began before the first ended
    for name in ("one", "two"):
        page = (root / "_build" / "html" / "posts" / f"{name}.html").read_text()
        assert f'This is lesson <span class="pasted-text">{name}</span>.' in page
    assert build_html(root, root / "_build") == [] and len(_runs(root)) == 2   # a rebuild executes nothing


def test_a_lesson_that_fails_ahead_stops_the_build_naming_its_line(tmp_path, monkeypatch):
    monkeypatch.setenv(ahead.KERNELS, "2")
    root = _project(tmp_path, ["one", "two"])
    broken = root / "posts" / "two.md"
    broken.write_text(broken.read_text().replace("time.sleep(4)", "time.sleep(1)\n1 / 0"))
    with pytest.raises(SphinxError, match=r"^posts/two\.md, line 18: ZeroDivisionError: division by zero$"):
        build_html(root, root / "_build")


def test_a_check_that_fails_beside_the_pages_stops_them_before_a_lesson_ends(tmp_path, monkeypatch):
    """build_html stops sphinx-build and its kernels once `stop` is set (the preflight beside it failed): the
    lessons, each four seconds long, never finish, and the build raises."""
    import threading
    monkeypatch.setenv(ahead.KERNELS, "2")
    root = _project(tmp_path, ["one", "two"])
    stop = threading.Event()
    threading.Timer(1.0, stop.set).start()
    with pytest.raises(SphinxError):
        build_html(root, root / "_build", stop=stop)
    assert _runs(root) == []


def test_the_longest_last_run_starts_first_and_ones_never_run_before_them_by_their_checks_time():
    jobs = [ahead.Pending(name, None, None, None, seconds, check) for name, seconds, check in
            (("short", 10.0, 90.0), ("long", 120.0, 0.0), ("new-small", 0.0, 1.0), ("middle", 50.0, 0.0),
             ("new-big", 0.0, 40.0), ("new-unchecked", 0.0, 0.0))]
    assert [j.docname for j in ahead.longest_first(jobs)] == ["new-big", "new-small", "new-unchecked", "long",
                                                             "middle", "short"]


def test_in_a_cold_build_the_lesson_reading_the_most_modules_starts_first():
    """No run and no check recorded (the checks run beside the lessons): the lesson that reads the most compute
    modules first; on this site, Part III, the longest run."""
    jobs = [ahead.Pending(name, None, None, None, 0.0, 0.0, modules) for name, modules in
            (("few", 20), ("most", 70), ("some", 50))]
    assert [j.docname for j in ahead.longest_first(jobs)] == ["most", "some", "few"]
    from conftest import ROOT
    from sitebuild.pages.stamps import lesson_dependencies
    reads = {p.stem: len(lesson_dependencies(ROOT, p.read_text()).modules) for p in (ROOT / "posts").glob("*.md")}
    assert max(reads, key=reads.get) == "story-models", reads
