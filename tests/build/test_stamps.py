"""Lessons re-execute exactly when a file they read changes, and pages follow the checkpoint folder in use."""

from __future__ import annotations

import os
import re
import time

from helpers import make_mini_project
from sitebuild.pages.sphinx import build_html

LESSON = """\
---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Mini lesson

```{code-cell} ipython3
:tags: [remove-cell]

from compute.reading import value
from myst_nb import glue

glue("value", value(), display=False)
```

The value is {glue:text}`value`.
"""

READING = '''\
import os
from pathlib import Path

CHECKPOINT_FILES = ("value.txt",)


def value():
    folder = Path(os.environ.get("COMPUTE_CHECKPOINTS", Path(__file__).parent / "checkpoints"))
    return (folder / "value.txt").read_text().strip()
'''


def _project(tmp_path):
    (tmp_path / "src").mkdir()
    root = make_mini_project(tmp_path / "src", LESSON)
    (root / "compute" / "reading.py").write_text(READING)
    (root / "compute" / "cli.py").write_text("# the command line: no lesson imports it\n")
    (root / "compute" / "checkpoints" / "value.txt").write_text("1\n")
    return root


def test_lessons_reexecute_exactly_when_what_they_read_changes(tmp_path):
    root = _project(tmp_path)
    build = root / "_build"
    page = build / "html" / "posts" / "lesson.html"

    def shown():
        return re.search(r"The value is (\S+?)\.", re.sub(r"<[^>]+>", "", page.read_text())).group(1)

    assert build_html(root, build) == ["posts/lesson.md"] and shown() == "1"
    assert build_html(root, build) == []

    later = time.time() + 5
    os.utime(root / "compute" / "reading.py", (later, later))        # touched, same content
    (root / "compute" / "cli.py").write_text("# edited\n")           # a module no lesson imports
    (root / "compute" / "checkpoints" / "unread.bin").write_bytes(b"\x00")  # a file no lesson reads
    assert build_html(root, build) == []

    (root / "compute" / "checkpoints" / "value.txt").write_text("2\n")  # what the lesson reads
    assert build_html(root, build) == ["posts/lesson.md"] and shown() == "2"

    (root / "compute" / "reading.py").write_text(READING.replace(".strip()", ".strip() + '0'"))
    assert build_html(root, build) == ["posts/lesson.md"] and shown() == "20"
    assert "build stamp" not in page.read_text()  # the stamp cell is hidden


def test_pages_follow_the_checkpoint_folder_in_use(tmp_path, monkeypatch):
    """Switching COMPUTE_CHECKPOINTS and back never leaves the other folder's numbers on the page."""
    root = _project(tmp_path)
    build = root / "_build"
    page = build / "html" / "posts" / "lesson.html"
    other = tmp_path / "other"
    other.mkdir()
    (other / "value.txt").write_text("7\n")

    def shown():
        return re.search(r"The value is (\S+?)\.", re.sub(r"<[^>]+>", "", page.read_text())).group(1)

    build_html(root, build)
    assert shown() == "1"
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(other))
    assert build_html(root, build) == ["posts/lesson.md"] and shown() == "7"
    monkeypatch.delenv("COMPUTE_CHECKPOINTS")
    build_html(root, build)        # from the cache (the first build's record), but re-read
    assert shown() == "1"
