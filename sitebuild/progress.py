"""What the build is doing while it does it.

Each stage prints a line as it starts. On a terminal a stage of many items (lessons, pages, figures, prints)
also draws a bar under way, rewritten in place; elsewhere (a CI log, a pipe) the stage's line is all, so a log
reads one line per stage. The build ends with the time each stage took. Quiet: nothing but the result.

The build sets the progress in use (`using`); the steps report through `stage` and `advance`, which do nothing
when no build is listening (a test calling a step on its own).
"""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator, TextIO

BAR = 24       # characters of a bar


class Progress:
    def __init__(self, out: TextIO | None = None, quiet: bool = False, tty: bool | None = None):
        self._out = out
        self.quiet = quiet
        self.tty = self.out.isatty() if tty is None else tty
        self.times: list[tuple[str, float]] = []
        self._stage: str | None = None
        self._done = 0
        self._total = 0
        self._drawn = False

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def _write(self, text: str, always: bool = False) -> None:
        if always or not self.quiet:
            self.out.write(text)
            self.out.flush()

    def _clear(self) -> None:
        if self._drawn:
            self._write("\r\033[K")
            self._drawn = False

    def say(self, line: str, always: bool = False) -> None:
        """A line of its own, the bar drawn again under it; `always`: shown when quiet too (a warning)."""
        self._clear()
        self._write(line if line.endswith("\n") else line + "\n", always)
        self._bar("")

    @contextmanager
    def stage(self, name: str, what: str = "") -> Iterator["Progress"]:
        """A stage of the build: its line (`name`, and `what` it does), then its items, then its time."""
        self._clear()
        self._stage, self._done, self._total = name, 0, 0
        self._write(f"{name}: {what} ...\n" if what else f"{name} ...\n")
        start = time.monotonic()
        try:
            yield self
        finally:
            self._clear()
            self.times.append((name, time.monotonic() - start))
            self._stage = None

    def expect(self, total: int) -> None:
        """The stage's number of items, once known."""
        self._total = total

    def advance(self, label: str = "") -> None:
        """One item of the stage done: `label` names it (on a terminal, beside the bar)."""
        self._done += 1
        self._bar(label)

    def _bar(self, label: str) -> None:
        if not self.tty or self.quiet or self._stage is None or not self._total:
            return
        filled = BAR * min(self._done, self._total) // self._total
        self._write(f"\r\033[K  [{'#' * filled}{'.' * (BAR - filled)}] {self._done}/{self._total} {label}"[:120])
        self._drawn = True

    def report(self) -> str:
        """The time each stage took, on one line."""
        return "stages: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.times)


_SILENT = Progress(quiet=True, tty=False)
_current = _SILENT


@contextmanager
def using(progress: Progress) -> Iterator[Progress]:
    global _current
    _current, before = progress, _current
    try:
        yield progress
    finally:
        _current = before


def current() -> Progress:
    return _current


def stage(name: str, what: str = ""):
    return _current.stage(name, what)


def advance(label: str = "") -> None:
    _current.advance(label)


def warn(line: str) -> None:
    """A line the author must see (Sphinx's warnings), quiet or not."""
    _current.say(line, always=True)


def expect(total: int) -> None:
    _current.expect(total)


# --- Sphinx's part: it runs in a child process, so it reports on its output, in lines the build takes out ----
MARK = "@@sitebuild-progress "


def _emit(text: str) -> None:
    print(MARK + text, flush=True)


def _on_before_read(app, env, docnames: list[str]) -> None:
    app.sitebuild_started = time.time()
    _emit(f"total {len(docnames)}")


def _on_source_read(app, docname: str, source: list[str]) -> None:
    _emit(f"reading {docname}")


def _on_doctree_read(app, doctree) -> None:
    """A lesson's notebook, executed now or taken from the cache (MyST-NB's record of its execution: a cached
    one carries the time it was executed then)."""
    from myst_nb.sphinx_ import NbMetadataCollector

    data = NbMetadataCollector.get_exec_data(app.env, app.env.docname)
    if data:
        fresh = (data.get("mtime") or 0) >= getattr(app, "sitebuild_started", 0) - 1
        _emit(f"lesson {app.env.docname} {'executed' if fresh else 'cached'} {data.get('runtime') or 0:.1f}")


def setup(app):
    app.connect("env-before-read-docs", _on_before_read)
    app.connect("source-read", _on_source_read)
    app.connect("doctree-read", _on_doctree_read)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}


def sphinx_line(line: str) -> bool:
    """Take a line of Sphinx's output that is the build's progress (True), or leave it to be shown."""
    if not line.startswith(MARK):
        return False
    kind, _, rest = line[len(MARK):].strip().partition(" ")
    if kind == "total":
        expect(int(rest))
    elif kind == "reading":
        advance(rest)
    elif kind == "lesson":
        docname, how, seconds = rest.split(" ")
        current().say(f"  {docname}.md: executed in {float(seconds):.1f} s" if how == "executed"
                      else f"  {docname}.md: taken from the cache")
    return True
