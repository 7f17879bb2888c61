"""Each lesson as a Jupyter notebook (site/notebooks/<stem>.ipynb) that runs top to bottom, reading no
compute file its build stamp does not cover."""

from __future__ import annotations

import re
import sys

import jupytext
import nbformat
import pytest
from bs4 import BeautifulSoup
from nbclient import NotebookClient

from conftest import LESSONS, ROOT
from reads import REPORT_AUDIT, START_AUDIT, story_models_elsewhere, undeclared_reads
from sitebuild.notebooks.write import train_for_real
from sitebuild.pages.extension import notebook_href
from sitebuild.pages.stamps import STAMP_PREFIX


def _notebook(site, stem):
    return nbformat.read(site / "notebooks" / f"{stem}.ipynb", as_version=4)


def test_one_notebook_per_lesson(built_site):
    assert sorted(p.stem for p in (built_site / "notebooks").glob("*.ipynb")) == sorted(LESSONS)


@pytest.mark.parametrize("stem", LESSONS)
def test_notebook_holds_the_lessons_cells_and_no_outputs(built_site, stem):
    nb = _notebook(built_site, stem)
    nbformat.validate(nb)
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    for words in ("How to run", "repository root", ".venv", f"{stem}.ipynb"):
        assert words in first.source
    lesson = jupytext.read(ROOT / "posts" / f"{stem}.md", fmt="md:myst")
    for cell in lesson.cells:
        if cell.cell_type == "code":
            train_for_real(cell)        # the lab's flag cell: TRAIN = True in the download
    assert [c.cell_type for c in nb.cells[1:]] == [c.cell_type for c in lesson.cells]
    assert [c.source for c in nb.cells[1:] if c.cell_type == "code"] == [c.source for c in lesson.cells
                                                                         if c.cell_type == "code"]
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        assert STAMP_PREFIX.strip() not in cell.source  # the build's stamp cell stays out
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


# What plain Jupyter would show raw: MyST roles, web-only spans, directives, label lines, links to the sources.
RAW = re.compile(r"\{glue|\{claim\}|\{about\}|\{\.web-only\}|^:::|\.md\)|\.md#|^\([\w-]+\)=|```\{", re.M)


@pytest.mark.parametrize("stem", LESSONS)
def test_the_notebooks_markdown_reads_in_plain_jupyter(built_site, stem):
    """No MyST markup left raw; every link inside the notebook lands on an anchor it holds; links to other
    lessons go to the site's pages (by its public address, or relative to the notebook's place in the site when it
    has none); the first cell says where the page is and what the numbers are from."""
    nb = _notebook(built_site, stem)
    markdown = [c.source for c in nb.cells if c.cell_type == "markdown"]
    text = "\n\n".join(markdown)
    assert [m.group() for m in RAW.finditer(text)] == []
    anchors = set(re.findall(r'<a id="([\w-]+)"></a>', text))
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert [l for l in links if l.startswith("#") and l[1:] not in anchors] == []
    for link in links:   # the site's public address, or (a site built without one) a page of the site itself
        assert link.startswith(("#", "http://", "https://", "../")), link
        if link.startswith("../"):
            assert (built_site / "notebooks" / link.split("#")[0]).resolve().is_file(), link
    first = markdown[0]
    assert f"posts/{stem}.html" in first and f"notebooks/{stem}.ipynb" in first
    assert "Where its numbers come from" in first and "build of " in first


@pytest.mark.parametrize("stem", LESSONS)
def test_the_notebook_writes_in_the_numbers_the_page_prints(built_site, stem):
    """Each value the page prints from glue (outside web-only text) is written into the notebook's markdown, in
    the page's order: the notebook reads with its numbers in place."""
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    values = [s.get_text() for s in page.select("article .pasted-text")
              if not s.find_parent(class_="web-only") and not s.find_parent(class_="print-only")]
    nb = _notebook(built_site, stem)
    text = "\n".join(c.source for c in nb.cells[1:] if c.cell_type == "markdown")
    at, missing = 0, []
    for v in values:
        found = text.find(v, at)
        if found < 0:
            missing.append(v)
        else:
            at = found + len(v)
    assert missing == [], (stem, missing[:5], len(values))
    assert values or stem == "lab"              # a lesson's prose cites numbers (the lab's, in its exercises)


PRINTED_APART = {"attention-by-hand", "story-models"}   # optional sections; Part III's listings


def test_lesson_pages_link_their_notebook(built_site):
    for stem in LESSONS:
        html = (built_site / "posts" / f"{stem}.html").read_text()
        appendix = (f'<a href="../handouts/{stem}-appendix.pdf">appendix</a> · ' if stem in PRINTED_APART
                    else "")               # optional material prints apart
        assert (f'<p class="handout-link"><a href="../handouts/{stem}.pdf">PDF handout</a> · '
                f'<a href="../handouts/{stem}-student.pdf">student edition</a> · '
                f'<a href="../handouts/{stem}-key.pdf">answer key</a> · ' + appendix +
                f'<a href="../notebooks/{stem}.ipynb" download>Jupyter notebook</a> · '
                f'<a href="../slides/{stem}.html">Present (slides)</a> · '
                f'<a href="../handouts/{stem}-slides.pdf">slides as PDF</a>') in html


# The lab's download trains for real; tests/lessons/test_lab_notebook.py runs it on a small budget and checks
# its answers.
@pytest.mark.notebooks
@pytest.mark.parametrize("stem", [s for s in LESSONS if s != "lab"])   # the lab's: test_lab_notebook.py
def test_notebook_runs_top_to_bottom(built_site, stem, monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # keep compute/ free of __pycache__
    # Part III's models from a folder of their own (copies of the published ones): a lesson that reads them there
    # must say so in its stamp, and only Part III does (sitebuild.pages.stamps)
    monkeypatch.setenv("COMPUTE_STORY_MODELS", str(story_models_elsewhere(tmp_path / "story-models")))
    nb = _notebook(built_site, stem)
    nb.cells.insert(0, nbformat.v4.new_code_cell(START_AUDIT))
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    nb.cells.append(nbformat.v4.new_code_cell(REPORT_AUDIT))
    # Raises CellExecutionError, naming the cell, if any cell fails.
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    _, *lesson_cells, check, audit = [c for c in nb.cells if c.cell_type == "code"]
    assert check.outputs[0]["text"].strip() == sys.executable  # the venv's own kernel
    # the build's cache key (sitebuild.pages.stamps) covers every compute file the lesson read
    missing, read = undeclared_reads(stem, audit.outputs[0]["text"].strip().splitlines()[-1])
    assert read, "the run read nothing from compute/: the audit saw nothing"
    assert not missing, f"{stem} reads files its build stamp does not cover: {missing}"
    outputs = [o for c in lesson_cells for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = [o for o in outputs if o.output_type in ("display_data", "execute_result")]
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    assert shown, f"{stem}: nothing displayed"
    tables = any("<table" in o.get("data", {}).get("text/html", "") for o in shown)
    assert tables == bool(page.select("div.cell_output table"))     # the page's tables, in the notebook too


def test_notebook_href_only_for_lessons():
    assert notebook_href("posts/attention") == "../notebooks/attention.ipynb"
    assert notebook_href("index") is None and notebook_href("404") is None
