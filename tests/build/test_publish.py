"""sitebuild.publish.site and the pipeline: site/ changes all at once, or not at all."""

from __future__ import annotations

import errno
import os
import shutil
import threading

import pytest

from conftest import run_sitebuild
from helpers import make_mini_project, tree_digest
from sitebuild.publish import site as pub


def _old_site(tmp_path):
    site = tmp_path / "site"
    (site / "posts").mkdir(parents=True)
    (site / "index.html").write_text("old index")
    (site / "posts" / "a.html").write_text("old a")
    return site


def _new_build(tmp_path):
    html = tmp_path / "html"
    (html / "posts").mkdir(parents=True)
    (html / "index.html").write_text("new index")
    (html / ".buildinfo").write_text("by-product")
    (html / ".buildinfo.bak").write_text("the last by-product")
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.4")
    return html, pdf


def test_publish_replaces_site(tmp_path):
    site = _old_site(tmp_path)
    html, pdf = _new_build(tmp_path)
    pub.publish(html, [pdf], site)
    assert sorted(tree_digest(site)) == ["handouts/a.pdf", "index.html"]
    assert (site / "index.html").read_text() == "new index"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "html", "site"]  # no leftovers


def test_publish_creates_site(tmp_path):
    html, pdf = _new_build(tmp_path)
    pub.publish(html, [pdf], tmp_path / "site")
    assert (tmp_path / "site" / "handouts" / "a.pdf").exists()


def test_failed_copy_leaves_site_identical(tmp_path, monkeypatch):
    site = _old_site(tmp_path)
    before = tree_digest(site)
    html, pdf = _new_build(tmp_path)

    def broken_copy(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(shutil, "copy2", broken_copy)
    with pytest.raises(OSError):
        pub.publish(html, [pdf], site)
    assert tree_digest(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "html", "site"]


def test_failed_exchange_leaves_site_identical(tmp_path, monkeypatch):
    site = _old_site(tmp_path)
    before = tree_digest(site)
    html, pdf = _new_build(tmp_path)

    def exchange(a, b):
        raise OSError(errno.EIO, "exchange failed")

    monkeypatch.setattr(pub, "exchange", exchange)
    with pytest.raises(OSError):
        pub.publish(html, [pdf], site)
    assert tree_digest(site) == before


def test_fallback_swap_puts_old_site_back(tmp_path, monkeypatch):
    """Where the atomic exchange is unsupported, two renames; if the second fails, the old site returns."""
    site = _old_site(tmp_path)
    before = tree_digest(site)
    html, pdf = _new_build(tmp_path)
    real_rename = os.rename

    def unsupported(a, b):
        raise OSError(errno.ENOSYS, "no renameat2")

    def rename(src, dst):
        if str(dst) == str(site) and os.path.basename(src) == "out":  # new -> site
            raise OSError("rename failed")
        return real_rename(src, dst)

    monkeypatch.setattr(pub, "exchange", unsupported)
    monkeypatch.setattr(pub.os, "rename", rename)
    with pytest.raises(OSError):
        pub.publish(html, [pdf], site)
    monkeypatch.setattr(pub.os, "rename", real_rename)
    assert tree_digest(site) == before


def test_a_reader_never_meets_a_missing_file_during_publishes(tmp_path):
    """One thread reads site/index.html and site/posts/a.html without pause while 80 publishes run."""
    site = _old_site(tmp_path)
    (site / "index.html").write_text("old index")
    html, pdf = _new_build(tmp_path)
    (html / "posts" / "a.html").write_text("new a")
    missing, reads, stop = [], [0], threading.Event()

    def reader():
        while not stop.is_set():
            for name in ("index.html", "posts/a.html"):
                try:
                    (site / name).read_bytes()
                    reads[0] += 1
                except FileNotFoundError:
                    missing.append(name)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for _ in range(80):
            pub.publish(html, [pdf], site)
    finally:
        stop.set()
        thread.join()
    assert reads[0] > 100 and not missing


def test_failing_build_leaves_site_identical(tmp_path):
    """A lesson cell raises: `python -m sitebuild` exits 1, and site/ is byte for byte as before."""
    root = make_mini_project(tmp_path)
    (root / "posts" / "lesson.md").write_text(
        (root / "posts" / "lesson.md").read_text().replace("import compute", "import compute\n1 / 0")
    )
    site = _old_site(root)
    before = tree_digest(site)
    proc = run_sitebuild(root, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[0] == "error: posts/lesson.md, line 14: ZeroDivisionError: division by zero"
    assert "Versions" not in proc.stdout + proc.stderr  # no Sphinx crash report
    assert tree_digest(site) == before
    assert not list(root.glob(".site.new-*"))
