"""A lesson's {only} blocks (compute.conditions) are published where their condition holds and nowhere else, in
every medium: the page, its handout and its notebook.

The tested site is built from the published story models, trained on the generated corpus, so Part III shows its
`generated_stories` blocks and none of its `not generated_stories` ones. A build from a story file's models shows the
reverse; the tiny models a test can train cannot pass the page's claims, so that build stops before it publishes
(tests/build/test_new_lesson.py). Sphinx's side of it is checked here instead on the page's own blocks: a Sphinx
build without the tag keeps exactly what the downloaded notebook keeps (sitebuild.notebooks.write.for_jupyter), and one
with it keeps the other blocks."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from conftest import ROOT
from sitebuild.notebooks.write import ONLY_BLOCK, conditions_holding, for_jupyter

PAGE = ROOT / "posts" / "story-models.md"
STEM = PAGE.stem
ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`")                     # {glue:text}`x:.3f`, {claim}`name`, {about}`design`


def plain_run(body: str, words: int = 8) -> str:
    """The first words of the longest run of plain words in a block: what every medium prints as written (no
    value, role, quote mark or dash, which a medium may set otherwise)."""
    runs = re.findall(r"(?:^|(?<=\s))[A-Za-z][A-Za-z ,\n-]*", ROLE.sub("|", body), re.MULTILINE)
    return " ".join(max(runs, key=lambda r: len(r.split())).split()[:words])


def page_blocks() -> list[tuple[str, str, str]]:
    """Each {only} block of Part III: ("not " or "", its tag, a run of its words)."""
    return [("not " if m["not"] else "", m["tag"], plain_run(m["body"])) for m in ONLY_BLOCK.finditer(PAGE.read_text())]


def shown_and_hidden(tags: frozenset[str]) -> tuple[list[str], list[str]]:
    """The blocks' runs of words that a build with `tags` publishes, and those it leaves out."""
    shown = [run for neg, tag, run in page_blocks() if (tag in tags) != bool(neg)]
    hidden = [run for neg, tag, run in page_blocks() if (tag in tags) == bool(neg)]
    return shown, hidden


def spaced(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def test_the_page_has_blocks_for_both_corpora_each_with_words_of_its_own():
    blocks = page_blocks()
    assert {neg for neg, _, _ in blocks} == {"", "not "} and {tag for _, tag, _ in blocks} == {"generated_stories"}
    runs = [run for _, _, run in blocks]
    assert all(len(run.split()) >= 5 for run in runs), runs
    text = spaced(re.sub(ONLY_BLOCK, "", PAGE.read_text()))
    assert not [run for run in runs if run in text]              # no run is also said outside the blocks


def test_the_tested_site_was_built_from_the_generated_stories():
    assert "generated_stories" in conditions_holding()


@pytest.fixture(scope="module")
def published(built_site) -> dict[str, str]:
    """Part III's text in each medium of the tested site."""
    article = BeautifulSoup((built_site / "posts" / f"{STEM}.html").read_text(), "html.parser").select_one("article")
    handout = "".join(page.extract_text() for page in PdfReader(built_site / "handouts" / f"{STEM}.pdf").pages)
    notebook = json.loads((built_site / "notebooks" / f"{STEM}.ipynb").read_text())
    cells = "\n\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    return {"page": spaced(article.get_text(" ")), "handout": "".join(spaced(handout).split()),
            "notebook": spaced(cells)}


@pytest.mark.parametrize("medium", ["page", "handout", "notebook"])
def test_the_generated_corpus_blocks_are_published_and_the_story_file_ones_are_not(published, medium):
    shown, hidden = shown_and_hidden(conditions_holding())
    text = published[medium]
    found = (lambda run: "".join(run.split()) in text) if medium == "handout" else (lambda run: run in text)
    assert shown and hidden
    assert [run for run in shown if not found(run)] == []
    assert [run for run in hidden if found(run)] == []


def sphinx_text(source: str, tags: frozenset[str], folder: Path) -> str:
    """`source` built by Sphinx with MyST's colon fences (as the site's conf.py reads pages) and `tags`: the
    body's text."""
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "conf.py").write_text('extensions = ["myst_parser"]\nmyst_enable_extensions = ["colon_fence"]\n')
    (folder / "src" / "index.md").write_text("# Blocks\n\n" + source)
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html",
                           *(a for t in sorted(tags) for a in ("-t", t)), str(folder / "src"), str(folder / "out")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return spaced(BeautifulSoup((folder / "out" / "index.html").read_text(), "html.parser")
                  .select_one("[role=main]").get_text(" "))


@pytest.mark.parametrize("tags", [frozenset(), frozenset({"generated_stories"})], ids=["story file", "generated"])
def test_sphinx_keeps_the_blocks_the_notebook_keeps(tags, tmp_path):
    source = "\n\n".join(f":::{{only}} {neg}{tag}\n{run}.\n:::" for neg, tag, run in page_blocks())
    html = sphinx_text(source, tags, tmp_path)
    notebook = spaced(for_jupyter(source, {}, "http://localhost:8000/", tags=tags))
    shown, hidden = shown_and_hidden(tags)
    assert shown and hidden
    for run in shown:
        assert run in html and run in notebook, run
    for run in hidden:
        assert run not in html and run not in notebook, run
