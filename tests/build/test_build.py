"""The full build: what site/ holds, and that a no-change rebuild does no work."""

from __future__ import annotations

import re
import shutil
import time

import pytest

from conftest import LESSONS, ROOT, ROOT_BUILD, run_sitebuild
from helpers import tree_digest
from sitebuild.pages.sphinx import cache_records

pytestmark = ROOT_BUILD  # builds in the repository itself


def test_site_has_pages_and_three_prints_per_lesson_and_each_deck_as_a_pdf(built_site):
    assert (built_site / "index.html").exists()
    assert (built_site / "search.html").exists()
    for stem in LESSONS:
        assert (built_site / "posts" / f"{stem}.html").exists()
    decks = sorted(p.stem for p in (built_site / "slides").glob("*.html"))
    assert set(LESSONS) <= set(decks) and "attention-by-hand-route" in decks
    listings = [stem for stem in LESSONS                 # optional material: an appendix of its own
                if re.search(r'class="[^"]*\bprint-appendix\b', (built_site / "posts" / f"{stem}.html").read_text())]
    assert listings == ["attention-by-hand", "story-models"]   # optional sections; Part III's listings
    assert sorted(p.stem for p in (built_site / "handouts").glob("*.pdf")) == sorted(
        [f"{stem}{edition}" for stem in LESSONS for edition in ("", "-student", "-key")]
        + [f"{stem}-appendix" for stem in listings] + [f"{deck}-slides" for deck in decks])


def test_site_holds_no_build_by_products(built_site):
    for name in ("jupyter_execute", ".doctrees", "doctrees", ".jupyter_cache", ".buildinfo", ".buildinfo.bak"):
        assert not list(built_site.rglob(name)), name


def test_no_external_urls_in_page_heads(built_site):
    for page in built_site.rglob("*.html"):
        head = page.read_text().split("</head>")[0]
        for attr in ('src="http', "src='http", 'href="http', "src=\"//", 'href="//'):
            assert attr not in head, f"{page}: {attr}"


def test_plotly_js_only_on_pages_with_figures(built_site):
    for page in built_site.rglob("*.html"):
        html = page.read_text()
        has_figure = 'class="plotly-graph-div"' in html
        assert ("plotly-lesson.min.js" in html) == has_figure, page


def test_lesson_pages_link_their_handout(built_site):
    for stem in LESSONS:
        html = (built_site / "posts" / f"{stem}.html").read_text()
        assert f'<a href="../handouts/{stem}.pdf">PDF handout</a>' in html


def test_index_lists_every_lesson(built_site):
    html = (built_site / "index.html").read_text()
    for stem in LESSONS:
        assert f'href="posts/{stem}.html"' in html


def test_rebuild_with_nothing_changed_does_no_work(built_site):
    """The stages run when what the last build left was touched (a file of site/ rewritten), and find nothing
    to do; the build after it runs none (sitebuild.unchanged)."""
    from sitebuild.__main__ import UNCHANGED
    records = cache_records(ROOT / "_build" / ".jupyter_cache")
    index = built_site / "index.html"
    index.write_bytes(index.read_bytes())      # the same bytes, a new time: site/ is not as the build left it
    for ran in (True, False):
        start = time.monotonic()
        proc = run_sitebuild()
        seconds = time.monotonic() - start
        assert proc.returncode == 0, proc.stdout + proc.stderr
        lines = proc.stdout.splitlines()
        assert "executed: none" in lines and "checked beside the pages: none" in lines
        assert f"({0} printed, {len(LESSONS)} unchanged)" in proc.stdout
        assert cache_records(ROOT / "_build" / ".jupyter_cache") == records
        assert (lines[-2] != UNCHANGED and lines[-2].startswith("stages: audit")) if ran else lines[-2] == UNCHANGED
        assert seconds < 60, f"no-change rebuild took {seconds:.0f} s"


def _build_with_checkpoints(folder):
    import os
    import subprocess
    import sys
    env = {**os.environ, "COMPUTE_CHECKPOINTS": str(folder)}
    return subprocess.run([sys.executable, "-m", "sitebuild"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def _corrupt(folder):
    (folder / "walkthrough.safetensors").write_bytes(b"garbage")
    return "checkpoint is corrupt or truncated"


def _other_seed(folder):
    # A valid checkpoint of another seed: it loads, but the lesson's claims fail, each named at its sentence.
    for suffix in (".safetensors", ".json"):
        shutil.copy2(folder / f"walkthrough-alt{suffix}", folder / f"walkthrough{suffix}")
    return "rests on claim row_13_attends_fall, which fails"


def _missing(folder):
    (folder / "walkthrough.safetensors").unlink()
    return "checkpoint file not found"


@pytest.mark.parametrize("damage", [_corrupt, _other_seed, _missing], ids=["corrupt", "other-seed", "missing"])
def test_bad_checkpoint_fails_the_build_and_keeps_the_last_site(built_site, tmp_path, damage):
    for p in (ROOT / "compute" / "checkpoints").iterdir():
        shutil.copy2(p, tmp_path / p.name)
    problem = damage(tmp_path)
    before = tree_digest(built_site)
    proc = _build_with_checkpoints(tmp_path)
    assert proc.returncode == 1
    *errors, last = proc.stderr.splitlines()
    assert last == "site/ was left unchanged." and errors
    assert all(e.startswith("error: ") and str(tmp_path / "walkthrough.safetensors") in e for e in errors)
    named = [e for e in errors if problem in e]
    assert named, proc.stderr
    if damage is _other_seed:  # each line names a sentence that cites the claim, by file and line
        lesson = (ROOT / "posts" / "trained-walkthrough.md").read_text().splitlines()
        for e in named:
            line = int(re.match(r"error: posts/trained-walkthrough\.md, line (\d+): ", e).group(1))
            assert any("row_13_attends_fall" in text for text in lesson[line - 1:line + 4]), e
    assert tree_digest(built_site) == before


def test_no_table_on_any_page_prints_nan(built_site):
    """A table cell says what a missing value means (compute.present.tables), never "nan"."""
    import re
    from bs4 import BeautifulSoup
    bad = []
    for page in sorted(built_site.rglob("*.html")):
        if "_static" in page.parts:
            continue
        for td in BeautifulSoup(page.read_text(), "html.parser").select("table td"):
            if re.fullmatch(r"\s*-?(?:nan|NaN|inf)\s*", td.get_text()):
                bad.append(f"{page.relative_to(built_site)}: {td}")
    assert bad == []
