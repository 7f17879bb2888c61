"""A clean build of the same sources gives the tested site byte for byte: pages, search index, handouts,
notebooks. On a fresh clone (CI) the tested site is itself a cold build, so this compares two cold builds;
on an author's machine it is a warm one, so this also checks that a warm build leaves nothing stale.
Slow (one cold build in its own copy of the repository); one test. The copy reads compute's kept measurements
(compute.kept: the corpus, the probe passes) from the repository's _build/results, keyed by the bytes they were
computed from; every lesson still executes, and tests/lessons/test_kept_results.py checks that a kept
measurement equals a fresh one.
"""

from __future__ import annotations

import shutil
import subprocess

from compute.kept import results_folder
from conftest import ROOT, ROOT_READ, run_sitebuild
from helpers import tree_digest
from sitebuild.handouts import source_epoch
from sitebuild.sitecheck import figure_specs, html_pages, visible_text

pytestmark = ROOT_READ  # reads site/ byte for byte while it is the tested build


def _clean_copy(dest):
    """The repository's files (tracked, and new ones git does not ignore) copied to `dest`."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():  # a tracked file deleted in the work tree is skipped
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def _cold_build(dest):
    """A build of a clean copy, dated like the repository's (the copy has no git history)."""
    root = _clean_copy(dest)
    kept = results_folder()
    proc = run_sitebuild(root, env={"SOURCE_DATE_EPOCH": str(source_epoch(ROOT)),
                                    "COMPUTE_RESULTS": str(kept) if kept else "off"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "from cache: none" in proc.stdout  # a cold build: every lesson executed
    return root / "site"


def test_a_clean_build_gives_the_tested_site_byte_for_byte(built_site, tmp_path):
    site_a, site_b = built_site, _cold_build(tmp_path / "clean")
    bytes_a, bytes_b = tree_digest(site_a), tree_digest(site_b)
    assert sorted(bytes_a) == sorted(bytes_b)
    assert any(name.endswith(".pdf") for name in bytes_a) and any(name.endswith(".ipynb") for name in bytes_a)
    different = [name for name in bytes_a if bytes_a[name] != bytes_b[name]]
    # what the reader sees first, for a readable failure; then every byte
    first = {p.relative_to(site_a).as_posix(): p.read_text() for p in html_pages(site_a)}
    second = {p.relative_to(site_b).as_posix(): p.read_text() for p in html_pages(site_b)}
    assert any(figure_specs(html) for html in first.values())
    different_text = [p for p in first if visible_text(first[p]) != visible_text(second[p])]
    assert not different_text, f"visible text differs between builds: {different_text}"
    different_figures = [p for p in first if figure_specs(first[p]) != figure_specs(second[p])]
    assert not different_figures, f"plotly figure data differs between builds: {different_figures}"
    assert not different, f"files differ between builds: {different}"
