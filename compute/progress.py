"""What a long command is doing while it does it: the site's build, and python -m compute's train, bench and
export.

Each stage prints a line as it starts. On a terminal a stage of many items (lessons, pages, figures, prints,
training steps, seeds) also draws a bar under way, rewritten in place; elsewhere (a CI log, a pipe) the stage's
line is all, so a log reads one line per stage. The command ends with the time each stage took. Quiet: nothing
but the result.

The command sets the progress in use (`using`); the steps report through `stage` and `advance`, which do
nothing when no command is listening (a test, a notebook, calling a step on its own).
"""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator, TextIO

BAR = 24       # characters of a bar
REDRAW = 0.1   # s: a bar is drawn again at most this often (a training step takes a millisecond), and at its end


class Progress:
    def __init__(self, out: TextIO | None = None, quiet: bool = False, tty: bool | None = None):
        self._out = out
        self.quiet = quiet
        self.tty = self.out.isatty() if tty is None else tty
        self.times: list[tuple[str, float]] = []
        self._stage: str | None = None
        self.failed: str | None = None
        self._done = 0
        self._total = 0
        self._drawn = False
        self._last = 0.0

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
        except BaseException:
            self.failed = name                     # the stage an error ended (sitebuild's one-line errors)
            raise
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
        now = time.monotonic()
        if now - self._last < REDRAW and self._done < self._total:
            return
        self._last = now
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


@contextmanager
def command(quiet: bool = False) -> Iterator[Progress]:
    """A command's progress in use (python -m compute train, bench, export): its stages as they start and, at its
    end, the time each took; quiet, neither (the command's result and errors are its own lines)."""
    progress = Progress(quiet=quiet)
    with using(progress):
        yield progress
    if progress.times:
        progress.say(progress.report())
