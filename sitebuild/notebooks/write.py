"""Each lesson as a downloadable Jupyter notebook: posts/<stem>.md -> notebooks/<stem>.ipynb.

The notebook is converted from the lesson's source with jupytext, so it holds
exactly the author's cells: no outputs, and none of the build's additions
(the hidden `# build stamp` cell of sitebuild.pages.stamps is inserted only into
Sphinx's copy of the source). A first markdown cell says how to run it.
Cell ids are numbered, so the same lesson always gives the same file.

The markdown cells read in plain Jupyter as the page reads: each glued value
({glue:text}`key:spec`) is written in as the page prints it, from the values
the lesson's build run glued (`<build>/jupyter_execute/posts/<stem>.glue.json`);
the {claim} and {about} roles that bind sentences for the build
(sitebuild.audit.check) are left out, and so is web-only text (`[...]{.web-only}`);
a `:::{only} tag` (or `:::{only} not tag`) block keeps its text where the
page shows it (the tag names one of compute.conditions' that holds for this
build) and is gone elsewhere;
a MyST label line, `(bh-s04)=`, becomes an HTML anchor of that id, so the
lesson's own links (`#bh-s04`) land; a link to another lesson's page
(`attention-by-hand.md#bh-s04`) points to that page on the site, at the
site's public address. The first cell says where the page and the notebook
are online and which build, source and checkpoints the written-in numbers
are from.

A code cell tagged `train-flag` (the lab's first cell) holds `TRAIN = False`,
how the page is built; the downloaded notebook gets `TRAIN = True`, so that a
learner who runs it trains the models for real.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import jupytext
import nbformat

from sitebuild.pages.claimroles import pasted
from sitebuild.prose.spelling import GLUE, glued_values

HOW_TO_RUN = """\
**How to run this notebook.** It is the lesson *{title}* from the site
*Next-word prediction, computed*: the page is {page}, this notebook
{notebook}. Its cells import `compute`, the package in
the project's repository, so run it from the repository root, in the
project's `.venv` (`./build` creates it): save this file in the repository
root, next to `compute/`, then

```sh
.venv/bin/jupyter execute {stem}.ipynb
```

or open it there in any Jupyter front end with the `.venv`'s Python as the
kernel.

**Where its numbers come from.** The numbers written into the text are those
of the site's build {build}, computed from {checkpoints}.
"""


# sitebuild.audit.check's roles, for the build, not the reader, with the white space before them.
BINDING = re.compile(r"(?P<before>\s*)\{(?:claim|about)\}`[^`]*`")
TARGET = re.compile(r"^\([A-Za-z0-9_-]+\)=[ \t]*\n?", re.MULTILINE)  # a MyST label line: Jupyter shows it raw


ONLY_BLOCK = re.compile(r"^(?P<fence>:{3,})\{only\}[ \t]*(?P<not>not[ \t]+)?(?P<tag>\S+)[ \t]*\n(?P<body>.*?)^(?P=fence)[ \t]*(?:\n|\Z)",
                        re.MULTILINE | re.DOTALL)
WEB_ONLY = re.compile(r"[ \t]*\[(?P<text>[^\]]*)\]\{\.web-only\}", re.S)
LABEL = re.compile(r"^\((?P<id>[A-Za-z0-9_-]+)\)=[ \t]*$", re.MULTILINE)
LESSON_LINK = re.compile(r"\]\((?P<stem>[\w-]+)\.md(?P<anchor>#[\w-]+)?\)")


class NotebookError(Exception):
    """A lesson's markdown names a glued value its build run did not glue."""


def written_in(markdown: str, glue: dict[str, str], where: str = "") -> str:
    """Each {glue:text}`key:spec` replaced by the value as the page prints it (`glue`: key -> text/plain)."""
    def value(m: re.Match) -> str:
        if m["name"] not in glue:
            raise NotebookError(f"{where}: no value is glued as {m['name']!r} (the notebook cannot write it in)")
        return pasted(glue[m["name"]], m["spec"] or "")
    return GLUE.sub(value, markdown)


def for_jupyter(markdown: str, glue: dict[str, str], url: str, where: str = "",
                tags: frozenset[str] = frozenset()) -> str:
    """A lesson's markdown cell as plain Jupyter reads it: roles gone, values written in, web-only text gone,
    an {only} block's text kept where its tag is in `tags` and gone elsewhere, labels as anchors, links to other
    lessons at the site's address."""
    markdown = ONLY_BLOCK.sub(lambda m: m["body"] if (m["tag"] in tags) != bool(m["not"]) else "", markdown)
    text = WEB_ONLY.sub("", LABEL.sub(lambda m: f'<a id="{m["id"]}"></a>', without_bindings(markdown, labels=False)))
    text = LESSON_LINK.sub(lambda m: f"]({url}posts/{m['stem']}.html{m['anchor'] or ''})", text)
    return written_in(text, glue, where)


def without_bindings(markdown: str, labels: bool = True) -> str:
    """A markdown cell without its {claim} and {about} roles (on the site they render as nothing) and without
    MyST's label lines, `(lab-train)=` (Jupyter would print them). A role goes with the white space that joined
    it to the word before, as sitebuild.pages.claimroles renders it; one that opens a paragraph or the cell keeps the
    break before it and takes the spaces after it instead: every other space and line break stays."""
    out, rest = [], markdown
    while (m := BINDING.search(rest)) is not None:
        head = rest[:m.start()] + m["before"]
        if head.strip() == "" and not out or m["before"].count("\n") >= 2:  # it opens the cell or a paragraph
            out.append(head)
            rest = rest[m.end():].lstrip(" \t")
        else:
            out.append(rest[:m.start()])
            rest = rest[m.end():]
    text = "".join(out) + rest
    return TARGET.sub("", text) if labels else text


TRAIN_FLAG = "train-flag"
TRAIN_OFF = re.compile(r"^TRAIN = False\b", re.MULTILINE)


def train_for_real(cell: nbformat.NotebookNode) -> None:
    """In a cell tagged train-flag, TRAIN = False becomes TRAIN = True (ValueError if it is not there)."""
    if TRAIN_FLAG not in cell.get("metadata", {}).get("tags", []):
        return
    if not TRAIN_OFF.search(cell.source):
        raise ValueError(f"a cell tagged {TRAIN_FLAG} must set TRAIN = False on a line of its own")
    cell.source = TRAIN_OFF.sub("TRAIN = True", cell.source, count=1)


@dataclass(frozen=True)
class Provenance:
    """Where a lesson's notebook is online and what its written-in numbers are from."""
    url: str = "http://localhost:8000/"     # the site's public address, ending in /
    build: str = "of an unknown source"     # 'of 2026-12-03 (source 435a1f0)'
    glue: dict = field(default_factory=dict)  # key -> text/plain of each value the lesson glued
    checkpoints: tuple[tuple[str, str], ...] = ()   # (file name, sha256 prefix)
    tags: frozenset[str] = frozenset()                # the {only} tags this build publishes (conditions_holding)

    def words(self, trains: bool = False) -> str:
        if trains:
            return ("the published checkpoints; this download sets TRAIN = True, so its cells train new models and "
                    "print that run's own numbers")
        if not self.checkpoints:
            return "the lesson's own code and hand-set numbers (it reads no checkpoint); run, the cells give them again"
        names = [f"`{name}` (sha256 {digest})" for name, digest in self.checkpoints]
        return ("the checkpoint" + ("s " if len(names) > 1 else " ") + ", ".join(names)
                + "; run with the same checkpoints, the cells give them again")


def lesson_notebook(source: Path, made: Provenance = Provenance()) -> nbformat.NotebookNode:
    """The MyST notebook `source` as a Jupyter notebook: outputs stripped, how-to-run cell first, markdown as
    plain Jupyter reads it."""
    nb = jupytext.read(source, fmt="md:myst")
    nb.metadata.pop("jupytext", None)  # not paired with a text file once downloaded
    nb.metadata.pop("file_format", None)  # MyST-NB's marker, meaningless in Jupyter
    title = next((without_bindings(line[2:]).strip() for c in nb.cells if c.cell_type == "markdown"
                  for line in c.source.splitlines() if line.startswith("# ")), source.stem)
    stem = source.stem
    first = HOW_TO_RUN.format(title=title, stem=stem, page=f"{made.url}posts/{stem}.html",
                              notebook=f"{made.url}notebooks/{stem}.ipynb", build=made.build,
                              checkpoints=made.words(trains=any(
                                  TRAIN_FLAG in c.get("metadata", {}).get("tags", []) for c in nb.cells)))
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(first))
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
        if cell.cell_type == "markdown" and i:
            cell.source = for_jupyter(cell.source, made.glue, made.url, f"posts/{stem}.md", made.tags)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            train_for_real(cell)
    nbformat.validate(nb)
    return nb


def build_words(root: Path, epoch: int) -> str:
    """'of 2026-12-03 (source 435a1f0)': the day of the source's last commit and the commit, when it is one.
    SOURCE_COMMIT names the commit of a copy without git history (as SOURCE_DATE_EPOCH dates it)."""
    day = datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%d")
    if os.environ.get("SOURCE_COMMIT"):
        return f"of {day} (source {os.environ['SOURCE_COMMIT'][:7]})"
    try:
        out = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=root, capture_output=True, text=True,
                             timeout=10)
        commit = out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        commit = ""
    return f"of {day}" + (f" (source {commit})" if commit else "")


def checkpoint_digests(root: Path, source: Path) -> tuple[tuple[str, str], ...]:
    from sitebuild.pages.stamps import lesson_dependencies
    deps = lesson_dependencies(root, source.read_text(encoding="utf-8"))
    return tuple((p.name, hashlib.sha256(p.read_bytes()).hexdigest()[:12]) for p in deps.checkpoints if p.is_file())


def conditions_holding() -> frozenset[str]:
    """The tags of compute's conditions that hold for this build (compute.conditions); none in a project without
    them. conf.py gives Sphinx the same tags."""
    try:
        from compute.conditions import holding
    except ModuleNotFoundError as exc:
        if exc.name in ("compute", "compute.conditions"):
            return frozenset()
        raise
    return frozenset(holding())


def make_notebooks(root: Path, stems: list[str], out_dir: Path, build_dir: Path | None = None,
                   url: str = "http://localhost:8000/", epoch: int = 0) -> list[Path]:
    """Write `out_dir`/<stem>.ipynb for each posts/<stem>.md (out_dir is emptied first), the values of the
    lessons' build run (in `build_dir`) written in."""
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    paths, build, tags = [], build_words(root, epoch), conditions_holding()
    for stem in stems:
        source = root / "posts" / f"{stem}.md"
        made = Provenance(url, build, glued_values(build_dir, stem) if build_dir else {},
                          checkpoint_digests(root, source), tags)
        path = out_dir / f"{stem}.ipynb"
        nbformat.write(lesson_notebook(source, made), path)
        paths.append(path)
    return paths
