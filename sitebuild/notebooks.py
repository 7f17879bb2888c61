"""Each lesson as a downloadable Jupyter notebook: posts/<stem>.md -> notebooks/<stem>.ipynb.

The notebook is converted from the lesson's source with jupytext, so it holds
exactly the author's cells: no outputs, and none of the build's additions
(the hidden `# build stamp` cell of sitebuild.stamps is inserted only into
Sphinx's copy of the source). A first markdown cell says how to run it.
Cell ids are numbered, so the same lesson always gives the same file.

The {claim} and {about} roles that bind sentences for the build
(sitebuild.audit) are left out of the markdown cells.

A code cell tagged `train-flag` (the lab's first cell) holds `TRAIN = False`,
how the page is built; the downloaded notebook gets `TRAIN = True`, so that a
learner who runs it trains the models for real.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import jupytext
import nbformat

HOW_TO_RUN = """\
**How to run this notebook.** It is the lesson *{title}* from the site
*Next-word prediction, computed*. Its cells import `compute`, the package in
the project's repository, so run it from the repository root, in the
project's `.venv` (`./build` creates it): save this file in the repository
root, next to `compute/`, then

```sh
.venv/bin/jupyter execute {stem}.ipynb
```

or open it there in any Jupyter front end with the `.venv`'s Python as the
kernel. Numbers written as `{{glue:text}}` roles in the text are filled in
from the cells' results on the website only.
"""


# sitebuild.audit's roles, for the build, not the reader, with the white space before them.
BINDING = re.compile(r"(?P<before>\s*)\{(?:claim|about)\}`[^`]*`")
TARGET = re.compile(r"^\([A-Za-z0-9_-]+\)=[ \t]*\n?", re.MULTILINE)  # a MyST label line: Jupyter shows it raw


def without_bindings(markdown: str) -> str:
    """A markdown cell without its {claim} and {about} roles (on the site they render as nothing) and without
    MyST's label lines, `(lab-train)=` (Jupyter would print them). A role goes with the white space that joined
    it to the word before, as sitebuild.claimroles renders it; one that opens a paragraph or the cell keeps the
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
    return TARGET.sub("", "".join(out) + rest)


TRAIN_FLAG = "train-flag"
TRAIN_OFF = re.compile(r"^TRAIN = False\b", re.MULTILINE)


def train_for_real(cell: nbformat.NotebookNode) -> None:
    """In a cell tagged train-flag, TRAIN = False becomes TRAIN = True (ValueError if it is not there)."""
    if TRAIN_FLAG not in cell.get("metadata", {}).get("tags", []):
        return
    if not TRAIN_OFF.search(cell.source):
        raise ValueError(f"a cell tagged {TRAIN_FLAG} must set TRAIN = False on a line of its own")
    cell.source = TRAIN_OFF.sub("TRAIN = True", cell.source, count=1)


def lesson_notebook(source: Path) -> nbformat.NotebookNode:
    """The MyST notebook `source` as a Jupyter notebook: outputs stripped, how-to-run cell first."""
    nb = jupytext.read(source, fmt="md:myst")
    nb.metadata.pop("jupytext", None)  # not paired with a text file once downloaded
    nb.metadata.pop("file_format", None)  # MyST-NB's marker, meaningless in Jupyter
    title = next((without_bindings(line[2:]).strip() for c in nb.cells if c.cell_type == "markdown"
                  for line in c.source.splitlines() if line.startswith("# ")), source.stem)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(HOW_TO_RUN.format(title=title, stem=source.stem)))
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
        if cell.cell_type == "markdown":
            cell.source = without_bindings(cell.source)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            train_for_real(cell)
    nbformat.validate(nb)
    return nb


def make_notebooks(root: Path, stems: list[str], out_dir: Path) -> list[Path]:
    """Write `out_dir`/<stem>.ipynb for each posts/<stem>.md (out_dir is emptied first)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    paths = []
    for stem in stems:
        path = out_dir / f"{stem}.ipynb"
        nbformat.write(lesson_notebook(root / "posts" / f"{stem}.md"), path)
        paths.append(path)
    return paths
