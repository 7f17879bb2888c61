"""Sphinx extension: lessons re-execute when compute/ changes, and only then.

Neither Sphinx nor jupyter-cache knows that a lesson's cells read compute/
(its modules and checkpoints). On `source-read` of each notebook under
posts/, this extension

* notes every compute/ file and folder as a Sphinx dependency, so the page is
  re-read when one changes (folders: a file added or removed); and
* inserts a hidden first code cell `# build stamp: <sha256>` whose hash covers
  those files' paths and contents, so the jupyter-cache key changes exactly
  when their contents change. A touched but unchanged file re-reads the page
  but hits the cache: nothing executes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from myst_nb.core.read import is_myst_markdown_notebook

STAMP_PREFIX = "# build stamp: "


def stamped_files(root: Path) -> list[Path]:
    """The files a lesson's output depends on: compute/**/*.py and compute/checkpoints/**."""
    compute = root / "compute"
    files = set(compute.rglob("*.py"))
    files.update(p for p in (compute / "checkpoints").rglob("*") if p.is_file())
    return sorted(p for p in files if "__pycache__" not in p.parts)


def stamp_hash(root: Path) -> str:
    """sha256 over the stamped files' repo-relative paths and contents."""
    h = hashlib.sha256()
    for path in stamped_files(root):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def insert_stamp(text: str, stamp: str) -> str:
    """Return the MyST notebook `text` with a hidden stamp cell right after its front matter.

    The cell takes four lines; source line numbers after it shift by four.
    """
    cell = f"```{{code-cell}} ipython3\n:tags: [remove-cell]\n{STAMP_PREFIX}{stamp}\n```\n"
    lines = text.splitlines(keepends=True)
    end = 0
    if lines and lines[0].startswith("---"):
        for i, line in enumerate(lines[1:], 1):
            if line.startswith(("---", "...")):
                end = i + 1
                break
    return "".join(lines[:end]) + cell + "".join(lines[end:])


def _on_source_read(app, docname: str, source: list[str]) -> None:
    if not docname.startswith("posts/") or not is_myst_markdown_notebook(source[0]):
        return
    root = Path(app.srcdir)
    compute = root / "compute"
    for path in stamped_files(root):
        app.env.note_dependency(path)
    if compute.is_dir():
        for folder in [compute, *compute.rglob("*")]:
            if folder.is_dir() and "__pycache__" not in folder.parts:
                app.env.note_dependency(folder)
    source[0] = insert_stamp(source[0], stamp_hash(root))


def setup(app):
    app.connect("source-read", _on_source_read)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
