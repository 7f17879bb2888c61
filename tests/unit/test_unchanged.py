"""sitebuild.unchanged: a build does nothing only when nothing it reads changed, nor what it left."""
from __future__ import annotations

import os
import subprocess

import pytest

from sitebuild.unchanged import inputs_key, last_result, remember, source_files

OPTIONS = {"base": "/", "url": None}


def _project(root, git: bool):
    files = {"posts/a.md": "# A\n", "compute/model.py": "X = 1\n", "conf.py": "", "tests/test_a.py": "",
             "docs/readers.md": "guide\n", "docs/authors.md": "for authors\n", "_build/html/a.html": "<p>",
             "site/a.html": "<p>", ".gitignore": "_build/\nsite/\n*.log\n", "build.log": "ignored"}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    if git:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


@pytest.fixture(params=[True, False], ids=["git", "no-git"])
def project(request, tmp_path, monkeypatch):
    for name in ("COMPUTE_CHECKPOINTS", "COMPUTE_STORY_MODELS", "SOURCE_DATE_EPOCH", "SOURCE_COMMIT"):
        monkeypatch.delenv(name, raising=False)
    return _project(tmp_path, request.param)


def test_the_inputs_are_the_checkouts_files_but_tests_and_contributors_docs(project):
    names = source_files(project)
    assert {"posts/a.md", "compute/model.py", "conf.py", "docs/readers.md"} <= set(names)
    assert not {"tests/test_a.py", "docs/authors.md", "_build/html/a.html", "site/a.html"} & set(names)
    if (project / ".git").is_dir():
        assert "build.log" not in names      # what git ignores


def test_the_inputs_key_changes_with_what_the_build_reads_and_nothing_else(project, tmp_path_factory, monkeypatch):
    key = inputs_key(project, OPTIONS, 0)
    (project / "tests" / "test_a.py").write_text("edited")
    (project / "docs" / "authors.md").write_text("edited")
    (project / "_build" / "html" / "a.html").write_text("an output")
    assert inputs_key(project, OPTIONS, 0) == key
    assert inputs_key(project, {**OPTIONS, "base": "/x/"}, 0) != key
    assert inputs_key(project, OPTIONS, 1) != key                         # another last commit
    (project / "posts" / "b.md").write_text("# B\n")                      # a new lesson
    assert inputs_key(project, OPTIONS, 0) != key
    (project / "posts" / "b.md").unlink()
    (project / "docs" / "readers.md").write_text("a new guide\n")
    assert inputs_key(project, OPTIONS, 0) != key
    (project / "docs" / "readers.md").write_text("guide\n")
    assert inputs_key(project, OPTIONS, 0) == key
    outside = tmp_path_factory.mktemp("checkpoints")
    (outside / "w.safetensors").write_bytes(b"one")
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(outside))
    with_folder = inputs_key(project, OPTIONS, 0)
    assert with_folder != key
    (outside / "w.safetensors").write_bytes(b"two")                       # a retrained checkpoint outside
    assert inputs_key(project, OPTIONS, 0) != with_folder


def test_the_last_result_holds_while_nothing_was_changed_or_damaged(project):
    key = inputs_key(project, OPTIONS, 0)
    assert last_result(project, key) is None                              # no build yet
    remember(project, key, {"pages": 1})
    assert last_result(project, key) == {"pages": 1}
    assert last_result(project, inputs_key(project, {**OPTIONS, "url": "https://example.org/"}, 0)) is None
    page = project / "site" / "a.html"
    page.write_text("<p>")                                                # rewritten: same bytes, a new time
    os.utime(page, ns=(page.stat().st_atime_ns, page.stat().st_mtime_ns + 1_000_000))
    assert last_result(project, key) is None
    remember(project, key, {"pages": 1})
    (project / "_build" / "html" / "a.html").unlink()                     # a cache file removed
    assert last_result(project, key) is None
    remember(project, key, {"pages": 1})
    (project / "_build" / "results").mkdir()
    (project / "_build" / "results" / "kept.pkl").write_bytes(b"x")      # compute.kept's: not this build's
    assert last_result(project, key) == {"pages": 1}
    (project / "_build" / "last-build.json").write_text("{")              # a damaged record
    assert last_result(project, key) is None
