"""Sphinx extension: reading times of the lessons, for the landing page.

On `source-read` of index.md it counts the prose words of every posts/*.md
(front matter, code cells and display math left out), turns them into
minutes at WORDS_PER_MINUTE, and hands them to the page as MyST
substitutions `{{ minutes_<stem> }}` (stem with '-' as '_'). The lessons are
noted as dependencies, so the landing page is re-read when one changes.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

WORDS_PER_MINUTE = 200

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_CODE_CELL = re.compile(r"^```.*?^```", re.S | re.M)
_DISPLAY_MATH = re.compile(r"^\$\$.*?^\$\$", re.S | re.M)
_LABEL = re.compile(r"^\(.*?\)=$", re.M)
_BINDING = re.compile(r"\{(?:claim|about)\}`[^`]*`")  # sitebuild.audit.check's roles render as nothing


def prose_words(text: str) -> int:
    """Words a reader reads: the Markdown text without front matter, code cells, display math and the roles
    that bind sentences to claims."""
    for pattern in (_FRONT_MATTER, _CODE_CELL, _DISPLAY_MATH, _LABEL, _BINDING):
        text = pattern.sub(" ", text)
    return len(re.findall(r"[A-Za-z0-9][\w'’-]*", text))


def reading_minutes(path: Path) -> int:
    """Minutes to read a lesson's prose, rounded up (figures and tables take longer)."""
    return max(1, math.ceil(prose_words(path.read_text()) / WORDS_PER_MINUTE))


def substitutions(root: Path) -> dict[str, str]:
    return {f"minutes_{p.stem.replace('-', '_')}": str(reading_minutes(p))
            for p in sorted((root / "posts").glob("*.md"))}


def front_matter(values: dict[str, str]) -> str:
    lines = ["---", "myst:", "  substitutions:"] + [f'    {k}: "{v}"' for k, v in values.items()] + ["---", ""]
    return "\n".join(lines)


def _on_source_read(app, docname: str, source: list[str]) -> None:
    if docname != "index":
        return
    root = Path(app.srcdir)
    for lesson in (root / "posts").glob("*.md"):
        app.env.note_dependency(lesson)
    source[0] = front_matter(substitutions(root)) + source[0]


def setup(app):
    app.connect("source-read", _on_source_read)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
