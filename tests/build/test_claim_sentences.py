"""Sentences that cannot drift, in a miniature project with one claim: the audit, a failing claim named
at its sentence, and glued numbers that never round to 100 %."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bs4 import BeautifulSoup

from helpers import ROOT, make_mini_project, tree_digest
from sitebuild.sitecheck import visible_text

CLAIMS = '''\
from ...claims import Outcome, Registry

SHARE = 0.9997
LIMIT = 1.0
MINI = Registry()


@MINI.claim(f"The share is below {LIMIT}.")
def share_below_limit():
    return Outcome(SHARE < LIMIT, f"share {SHARE}")
'''

PACKAGE = '''\
from ..record import Lesson


def preflight():
    from . import claims
    if IN_PREFLIGHT:
        claims.MINI.require_all(source="the mini lesson")


IN_PREFLIGHT = True
LESSON = Lesson(page="lesson", order=1, handout="the mini lesson", does="One share {about}`method`.",
                preflight=preflight)
'''

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
from myst_nb import glue
from compute.lessons.mini import claims

claims.MINI.require_all(source="the mini lesson")
glue("share", claims.SHARE, display=False)
```

## The share

The share is {glue:text}`share:.1%`,
which is below the limit {claim}`share_below_limit`.
We compute it the same way every time {about}`method`.

We round it
the same way
{about}`method` in every
place {about}`method`
and on every
line
{about}`method`.
"""
SHARE_LINE = LESSON.splitlines().index("The share is {glue:text}`share:.1%`,") + 1


def _project(tmp_path: Path, lesson: str = LESSON) -> Path:
    (tmp_path / "src").mkdir()
    root = make_mini_project(tmp_path / "src", lesson)
    for name in ("claims.py", "checks.py", "buildrecord.py", "says.py", "strength.py"):
        shutil.copy2(ROOT / "compute" / name, root / "compute" / name)
    (root / "compute" / "present").mkdir()
    (root / "compute" / "present" / "__init__.py").write_text("")
    for name in ("numbers.py", "prose.py"):    # the site's printing of numbers, which records what it prints
        shutil.copy2(ROOT / "compute" / "present" / name, root / "compute" / "present" / name)
    mini = root / "compute" / "lessons" / "mini"
    mini.mkdir(parents=True)
    (root / "compute" / "lessons" / "__init__.py").write_text("")
    shutil.copy2(ROOT / "compute" / "lessons" / "record.py", root / "compute" / "lessons" / "record.py")
    (mini / "__init__.py").write_text(PACKAGE)
    (mini / "claims.py").write_text(CLAIMS)
    return root


def _planted(built, tmp_path: Path, added: str, files: dict[str, str | Path] | None = None
             ) -> tuple[Path, subprocess.CompletedProcess, dict]:
    """A copy of the built mini project with `added` at the end of its lesson (and `files`: a path in the copy ->
    its text, or the file to copy there), built: the copy, the build's result, and the digest of the site/ the
    copy had before it."""
    good, _ = built
    root = tmp_path / "copy"
    shutil.copytree(good, root, symlinks=True)
    for path, content in (files or {}).items():
        if isinstance(content, Path):
            shutil.copy2(content, root / path)
        else:
            (root / path).write_text(content)
    lesson = root / "posts" / "lesson.md"
    lesson.write_text(lesson.read_text() + added)
    before = tree_digest(root / "site")
    return root, _build(root), before


def _build(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    root = _project(tmp_path_factory.mktemp("claims"))
    return root, _build(root)


def test_a_bound_lesson_builds_and_the_build_counts_its_sentences(built):
    root, proc = built
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "claims: posts/lesson.md: 1 sentence bound to 1 claim, 2 marked (method 2)" in proc.stdout


STAGES = ["audit", "preflight", "pages", "prose", "math", "figures", "decks", "prints", "slide PDFs", "notebooks",
          "publish"]


def test_the_build_says_each_stage_as_it_starts_and_their_times_at_the_end(built):
    """Its output to a file (no terminal): a line per stage, in order, each lesson executed or taken from the
    cache, the result, then the time each stage took; no bar."""
    _, proc = built
    lines = proc.stdout.splitlines()
    starts = [line.split(":")[0].removesuffix(" ...") for line in lines if line.endswith(" ...")]
    assert starts == STAGES, lines
    assert "  posts/lesson.md: executed in" in proc.stdout
    assert lines.index("pages: Sphinx; each lesson executed or taken from the cache ...") < lines.index(
        next(line for line in lines if line.startswith("  posts/lesson.md:"))) < next(
        i for i, line in enumerate(lines) if line.startswith("site/ published"))
    times = lines[-2]
    assert times.startswith("stages: ") and [part.rsplit(" ", 2)[0] for part in times[8:].split(", ")] == STAGES
    assert lines[-1].startswith("took ") and "\r" not in proc.stdout


def test_a_quiet_build_prints_one_line(built):
    root, _ = built
    proc = subprocess.run([sys.executable, "-m", "sitebuild", "--quiet"], cwd=root, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0 and proc.stderr == ""
    assert len(proc.stdout.splitlines()) == 1 and proc.stdout.startswith("site/ published: "), proc.stdout


def test_a_glued_share_of_0_9997_never_prints_as_100_percent(built):
    root, _ = built
    html = (root / "site" / "posts" / "lesson.html").read_text()
    assert "The share is <span" in html and "99.97%" in html and "100.0%" not in html


def test_the_binding_roles_render_as_nothing(built):
    root, _ = built
    text = visible_text((root / "site" / "posts" / "lesson.html").read_text())
    assert "share_below_limit" not in text and "method" not in text and "{" not in text
    assert "below the limit. We compute" in text and "every time." in text  # the space before a role went too
    # a role at a line's start takes its own line break, not the paragraph's first (docutils Text nodes compare
    # equal by their text, and the first equal one was once removed instead)
    assert "We round it the same way in every place and on every line." in text


@pytest.mark.parametrize("where", ["preflight", "cell"])
def test_a_failing_bound_claim_stops_the_build_naming_its_sentence(built, tmp_path, where):
    good, _ = built
    root = tmp_path / "copy"
    shutil.copytree(good, root, symlinks=True)
    claims = root / "compute" / "lessons" / "mini" / "claims.py"
    claims.write_text(claims.read_text().replace("LIMIT = 1.0", "LIMIT = 0.5"))  # the tolerance moved
    if where == "cell":  # only the lesson's first cell checks the claim
        init = root / "compute" / "lessons" / "mini" / "__init__.py"
        init.write_text(init.read_text().replace("IN_PREFLIGHT = True", "IN_PREFLIGHT = False"))
    before = tree_digest(root / "site")
    proc = _build(root)
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    line = LESSON.splitlines().index("The share is {glue:text}`share:.1%`,") + 1
    assert first == (f'error: posts/lesson.md, line {line}: "The share is <share>, which is below the limit." rests on '
                     "claim share_below_limit, which fails: The share is below 0.5. [share 0.9997] (the mini lesson)"
                     ), proc.stderr
    assert tree_digest(root / "site") == before
    # the sentence named is the one the section's slide shows (the deck is cut from the page: one source)
    slide = BeautifulSoup((root / "site" / "slides" / "lesson.html").read_text(), "html.parser").select_one(
        "section[data-section] .deck-lead")
    assert " ".join(slide.get_text().split()).startswith("The share is 99.97%, which is below the limit.")


def test_a_planted_unbound_comparison_stops_the_build_naming_file_and_line(built, tmp_path):
    root, proc, before = _planted(built, tmp_path, "\nThe share rises\nwith every build.\n")
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    line = len(LESSON.splitlines()) + 2  # after the blank line that opens the new paragraph
    assert len(errors) == 1 and errors[0].startswith(f"error: posts/lesson.md, line {line}: unbound comparison "
                                                     "(rises, every) in \"The share rises with every build.\"")
    assert tree_digest(root / "site") == before
    lesson = root / "posts" / "lesson.md"
    lesson.write_text(lesson.read_text().replace("every build.", "every build {about}`method`."))
    assert _build(root).returncode == 0


@pytest.mark.parametrize("planted, says", [
    # bound to a claim that checks something else: the claim says "below", the sentence "rises with every"
    ("The share rises with every build {claim}`share_below_limit`.",
     '"The share rises with every build." rests on claim share_below_limit, which does not cover: rises (rises); '
     "every (every)"),
    # a false comparison marked as method: numbers set against each other are never method
    ("The share is 0.9 against 0.4 {about}`method`.",
     '"The share is 0.9 against 0.4." is marked {about}`method` but cites computed values (0.9 against 0.4)'),
    # a computed value glued into a sentence marked as design
    ("The share is {glue:text}`share:.1%` by design {about}`design`.",
     '"The share is <share> by design." is marked {about}`design` but cites computed values (share)'),
    # a word of comparison the first word list missed
    ("The share dwarfs the limit.", 'unbound comparison (dwarfs) in "The share dwarfs the limit."'),
    # one value, two spellings: 99.97% above, 1.00 here
    ("In two decimals the share is {glue:text}`share:.2f` {claim}`share_below_limit`.",
     "'share' is printed as {glue:text}`share:.2f` here and as {glue:text}`share:.1%` at line "
     f"{SHARE_LINE}: one value, one spelling"),
])
def test_a_planted_sentence_its_claims_do_not_cover_stops_the_build(built, tmp_path, planted, says):
    root, proc, before = _planted(built, tmp_path, f"\n{planted}\n")
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    line = len(LESSON.splitlines()) + 2
    at = f"error: posts/lesson.md, line {line}: "
    assert errors and all(e.startswith(at) for e in errors), proc.stderr          # every finding at the sentence
    assert any(e.startswith(at + says) for e in errors), proc.stderr
    assert tree_digest(root / "site") == before


def test_an_unknown_glue_name_stops_the_build_naming_file_and_line(built, tmp_path):
    root, proc, before = _planted(built, tmp_path, "\nThe share is {glue:text}`no_such_value:.2f`, below the limit "
                                                   "{claim}`share_below_limit`.\n")
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    line = len(LESSON.splitlines()) + 2
    assert first == f"error: posts/lesson.md, line {line}: no value is glued as 'no_such_value'", proc.stderr
    assert tree_digest(root / "site") == before


WORDS = '''\
from ...present.prose import said


def caption(text):
    return said(text)
'''


@pytest.mark.parametrize("planted, says", [
    ("The share rises with every build.", 'unbound comparison (rises, every) in "The share rises with every build."'),
    # a reading may name the pick, nothing more
    ("The largest share rises {about}`reading`.",
     '"The largest share rises." is marked {about}`reading` but says more than which values were picked (rises)'),
])
def test_a_sentence_python_writes_is_audited_where_it_is_written(built, tmp_path, planted, says):
    """A caption or summary that a lesson's Python writes (compute.present.prose.said) binds as the page's prose
    does: an unbound comparison in it stops the build, named at the module and line that wrote it."""
    cell = ("\n```{code-cell} ipython3\n:tags: [remove-input]\nfrom compute.lessons.mini import words\n"
            f"print(words.caption({planted!r}))\n```\n")
    root, proc, before = _planted(built, tmp_path, cell, {
        "compute/present/prose.py": ROOT / "compute" / "present" / "prose.py",
        "compute/lessons/mini/words.py": WORDS})
    assert proc.returncode == 1, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: compute/lessons/mini/words.py, line 5: {says}: bind it to a claim with "
                      "{claim}`name`" + ("" if "reading" in planted else " or mark it {about}`method` (or design, "
                                         "general)")], proc.stderr
    assert tree_digest(root / "site") == before
    # bound, the same sentence builds, and the page prints it without its role
    lesson = root / "posts" / "lesson.md"
    lesson.write_text(lesson.read_text().replace(repr(planted), repr("The share is below the limit "
                                                                     "{claim}`share_below_limit`.")))
    proc = _build(root)
    assert proc.returncode == 0, proc.stderr
    page = visible_text((root / "site" / "posts" / "lesson.html").read_text())
    assert "The share is below the limit." in page and "{claim}" not in page
