"""What the build is doing while it does it: compute.progress (stages, bars, the time each took), and the report
of Sphinx's child process, whose lessons executed or taken from the cache are stages of the build."""
from __future__ import annotations

import sys
import time

from compute.progress import Progress, advance, current, expect, stage, using, warn  # noqa: F401 (the build's)

# --- Sphinx's part: it runs in a child process, so it reports on its output, in lines the build takes out ----
MARK = "@@sitebuild-progress "


def _emit(text: str) -> None:
    """One line, written whole: the lessons run ahead say they are done from threads of their own, and print()
    writes a line's text and its end apart, so two such lines could share one (seen once in a fresh-clone run)."""
    sys.stdout.write(MARK + text + "\n")
    sys.stdout.flush()


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
    if data and app.env.docname not in getattr(app, "sitebuild_ahead", ()):   # said when it was executed
        fresh = (data.get("mtime") or 0) >= getattr(app, "sitebuild_started", 0) - 1
        _emit(f"lesson {app.env.docname} {'executed' if fresh else 'cached'} {data.get('runtime') or 0:.1f}")


def executed_ahead(docname: str, seconds: float) -> None:
    """A lesson executed before Sphinx read it (sitebuild.pages.ahead), said as it finishes."""
    _emit(f"lesson {docname} executed {seconds:.1f}")


def not_ahead(docname: str, error: BaseException) -> None:
    """A lesson whose run before Sphinx read it raised (its kernel did not start, or died): Sphinx executes it."""
    said = str(error).strip().splitlines()
    _emit(f"left {docname} {type(error).__name__}: {said[-1] if said else ''}")


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
    elif kind == "left":
        docname, _, why = rest.partition(" ")
        current().say(f"  {docname}.md: not executed ahead ({why}); executed as Sphinx reads it")
    return True
