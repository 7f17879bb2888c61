"""A lesson's record: what the site, the command line and the tests know of a lesson, declared once in its package.

Every lesson package under compute/lessons sets `LESSON = Lesson(...)` in its __init__.py. The landing page's
list, handout links and navigation, the 404 page's list, `python -m compute check`, the build's pre-check and
every test that loops over lessons read these records (compute.checks.lesson_records()); no list of lessons is typed
anywhere else.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


def _none() -> None:
    return None


def _no_claims() -> list:
    return []


def _no_files() -> dict[str, bytes]:
    return {}


def _no_widgets() -> dict:
    return {}


def _no_words() -> str:
    return ""


def _no_values() -> dict[str, object]:
    return {}


@dataclass(frozen=True)
class Lesson:
    page: str                      # the page's stem: posts/<page>.md, posts/<page>.html, handouts/<page>.pdf
    order: int                     # its place in the landing page's list and the navigation
    does: str                      # "What you will do": MyST, each sentence bound to a claim or marked
    handout: str                   # the handout link's words: "<handout> (PDF)"
    reading: str = ", plus the figures"   # what follows "about N min of text" in the list (MyST)
    # The front box of the page and handout (sitebuild.pages.frontbox): what the reader will be able to do (3 to 5
    # sentences, plain text with roles, each bound or marked), what to read first (a sentence; links written
    # [words](page.md#anchor)), and, for a lesson that is run, its measured run time in words.
    objectives: tuple[str, ...] = ()
    first: str = ""
    run_time: Callable[[], str] = _no_words
    models: str = ""               # the landing page's "Builds on": the models the lesson reads (MyST)
    claim_results: Callable[[], list] = _no_claims   # [(heading, [(claim, outcome), ...])]: `compute check`
    preflight: Callable[[], None] = _none            # raises CheckpointError or ClaimError (one line each)
    site_files: Callable[[], dict[str, bytes]] = _no_files   # files the page needs under site/ (_static/...)
    widgets: Callable[[], dict] = _no_widgets   # {name: compute.present.widgets.Widget}: the page's figures
    values: Callable[[], dict[str, object]] = _no_values  # the numbers and words its prose cites ({glue:text}`name`)
    # What its sentences compare, by group: {group: {name: (spelling, ...)}}; a claim's statement and a sentence
    # bound to it are read for these names (sitebuild.audit.coverage): a sentence names no subject its claims do not.
    subjects: dict[str, dict[str, tuple[str, ...]]] = None
    # Spellings that name several subjects at once ("both transformers": one-head and four-head).
    wholes: dict[str, tuple[str, ...]] = None
    # The glued values that are settings, chosen rather than computed (a learning rate, a window's width): a
    # sentence marked {about}`method` or `design` may cite these, never a computed value.
    settings: tuple[str, ...] = ()
    package: str = ""              # the lesson package's name (byhand, story, ...): set by compute.checks

    def __post_init__(self):
        if not self.page or "/" in self.page or self.page.endswith(".md"):
            raise ValueError(f"a lesson's page is the stem of its posts/ file, not {self.page!r}")
