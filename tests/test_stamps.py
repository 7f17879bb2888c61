"""sitebuild.stamps: the build stamp follows compute/'s contents, and lessons re-execute on it."""

from __future__ import annotations

import os
import re
import time

from helpers import make_mini_project
from sitebuild.html import build_html
from sitebuild.stamps import STAMP_PREFIX, insert_stamp, stamp_hash, stamped_files


def _compute(tmp_path):
    (tmp_path / "compute" / "checkpoints").mkdir(parents=True)
    (tmp_path / "compute" / "__init__.py").write_text("")
    (tmp_path / "compute" / "model.py").write_text("W = 1\n")
    (tmp_path / "compute" / "checkpoints" / "tiny.safetensors").write_bytes(b"\x00\x01")
    (tmp_path / "compute" / "notes.txt").write_text("not a dependency")
    return tmp_path


def test_stamped_files_are_py_and_checkpoints(tmp_path):
    root = _compute(tmp_path)
    (root / "compute" / "__pycache__").mkdir()
    (root / "compute" / "__pycache__" / "model.cpython-311.py").write_text("")
    names = [p.relative_to(root).as_posix() for p in stamped_files(root)]
    assert names == ["compute/__init__.py", "compute/checkpoints/tiny.safetensors", "compute/model.py"]


def test_stamp_changes_with_a_compute_file(tmp_path):
    root = _compute(tmp_path)
    before = stamp_hash(root)
    (root / "compute" / "model.py").write_text("W = 2\n")
    assert stamp_hash(root) != before


def test_stamp_changes_with_a_checkpoint(tmp_path):
    root = _compute(tmp_path)
    before = stamp_hash(root)
    (root / "compute" / "checkpoints" / "tiny.safetensors").write_bytes(b"\x00\x02")
    assert stamp_hash(root) != before


def test_stamp_changes_when_a_file_is_added(tmp_path):
    root = _compute(tmp_path)
    before = stamp_hash(root)
    (root / "compute" / "extra.py").write_text("")
    assert stamp_hash(root) != before


def test_stamp_stays_when_nothing_changes(tmp_path):
    root = _compute(tmp_path)
    before = stamp_hash(root)
    later = time.time() + 10
    os.utime(root / "compute" / "model.py", (later, later))  # touched, same content
    (root / "compute" / "notes.txt").write_text("edited, but not a dependency")
    assert stamp_hash(root) == before


def test_stamp_without_compute_folder(tmp_path):
    assert stamped_files(tmp_path) == []
    assert len(stamp_hash(tmp_path)) == 64


def test_insert_stamp_after_front_matter():
    text = "---\nfile_format: mystnb\n---\n\n# Title\n"
    out = insert_stamp(text, "abc")
    assert out.startswith("---\nfile_format: mystnb\n---\n```{code-cell} ipython3\n:tags: [remove-cell]\n")
    assert f"{STAMP_PREFIX}abc\n```\n\n# Title\n" in out


def test_insert_stamp_without_front_matter():
    assert insert_stamp("# Title\n", "abc").endswith("```\n# Title\n")


def test_lessons_reexecute_exactly_when_compute_changes(tmp_path):
    """Built twice with nothing changed: no execution. compute/ edited: the lesson re-executes."""
    root = make_mini_project(tmp_path)
    build = root / "_build"
    page = build / "html" / "posts" / "lesson.html"

    def page_text():
        return re.sub(r"<[^>]+>", "", page.read_text())

    assert build_html(root, build) == ["posts/lesson.md"]
    assert "The value is 1." in page_text()

    assert build_html(root, build) == []

    later = time.time() + 5
    os.utime(root / "compute" / "__init__.py", (later, later))  # re-read, but same stamp
    assert build_html(root, build) == []

    (root / "compute" / "__init__.py").write_text("VALUE = 2\n")
    assert build_html(root, build) == ["posts/lesson.md"]
    assert "The value is 2." in page_text()

    (root / "compute" / "checkpoints" / "new.safetensors").write_bytes(b"\x00")
    assert build_html(root, build) == ["posts/lesson.md"]
    assert "build stamp" not in page.read_text()  # the stamp cell is hidden
