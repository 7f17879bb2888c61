"""Sentences that Python writes into a page (captions, summaries, table captions, answers, box texts), kept for
the build's comparison audit.

A lesson's Python writes prose as much as its page does, and the same rule holds: a sentence that compares or
characterises computed values rests on a claim. Python text binds the same way, with the same roles inside the
string: `caption="Bank's row with a fraction λ of its update added {about}`method`."`. Every such text goes
through `said(text, where)`, which returns it without its roles (they print as nothing, as on the page) and,
while the site builds (sitebuild sets SITEBUILD_PROSE for each lesson's kernel), records the text as written and
the module and line that wrote it; the build audits the record (sitebuild.prose.audit) as it audits the page.
A text is recorded each time it is written: the build counts each text and place once.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
from pathlib import Path

# The folder sitebuild gives each lesson's kernel (SITEBUILD_PROSE_DIR): the kernel writes its record to
# kernel-<pid>.jsonl, one JSON object a line, and the lesson's last cell names it after its page
# (sitebuild.pages.stamps).
RECORD = "SITEBUILD_PROSE_DIR"
ROLE = re.compile(r"(?P<before>\s*)\{(?:claim|about)\}`[^`]*`")
ROOT = Path(__file__).resolve().parents[2]


def without_roles(text: str) -> str:
    """The text as it prints: each {claim} or {about} role gone with the white space before it."""
    return ROLE.sub("", text)


PRESENT = Path(__file__).resolve().parent


def written_at() -> str:
    """'compute/lessons/x/y.py, line N': the first frame up the stack outside compute/present (and outside
    code a dataclass generates), where a lesson wrote the text."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith("<") and Path(name).resolve().parent != PRESENT:
            return located(name, frame.f_lineno)
        frame = frame.f_back
    return "an unknown place"


def located(filename: str, line: int) -> str:
    path = Path(filename).resolve()
    try:
        name = path.relative_to(ROOT).as_posix()
    except ValueError:
        name = path.name
    return f"{name}, line {line}"


def defined(fn) -> str | None:
    """Where a function (a summary, a caption) is written, if it is a named function of the project."""
    code = getattr(fn, "__code__", None)
    if code is None or getattr(fn, "__name__", "") == "<lambda>":
        return None
    return located(code.co_filename, code.co_firstlineno)


def _record(entry: dict) -> None:
    folder = os.environ.get(RECORD)
    if folder:
        with open(os.path.join(folder, f"kernel-{os.getpid()}.jsonl"), "a", encoding="utf-8") as out:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")


def printed(value: float, spec: str, text: str) -> str:
    """`text`, the number `value` printed with `spec`, recorded with where it was printed while the site builds:
    the build checks that one value prints one way across the site (sitebuild.prose.spelling)."""
    if os.environ.get(RECORD) and math.isfinite(value) and not float(value).is_integer():
        _record({"value": float(value), "spec": spec, "printed": text, "where": written_at()})
    return text


def said(text: str, where: str | None = None) -> str:
    """`text` as it prints (roles removed), recorded with `where` (default: the caller's module and line) while
    the site builds."""
    if not text:
        return text
    if os.environ.get(RECORD):
        _record({"text": text, "where": where or written_at()})
    return without_roles(text)
