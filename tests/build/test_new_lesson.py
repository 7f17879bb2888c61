"""A new lesson is a folder and a page: the README's template, written into a copy of the repository and built,
appears on the landing page, in the navigation, on the 404 page, with its handout and notebook, and its claim is
checked by `compute check`; no other file is edited."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, ROOT_READ, run_sitebuild
from helpers import template_files

SKIP = shutil.ignore_patterns(".git", ".venv", "site", ".site.new-*", "__pycache__", "node_modules", "build.lock")

pytestmark = ROOT_READ  # copies the repository with its _build/


@pytest.fixture(scope="module")
def with_hello(built_site, tmp_path_factory):
    """A copy of the repository (with its build cache) plus the template's four files, built."""
    root = tmp_path_factory.mktemp("newlesson") / "repo"
    shutil.copytree(ROOT, root, ignore=SKIP, symlinks=True)
    files = template_files((ROOT / "README.md").read_text())
    for path, text in files.items():
        assert not (root / path).exists(), f"{path} would replace a file"
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    proc = run_sitebuild(root)
    return root, proc


def test_the_new_lesson_builds_and_its_sentence_is_counted(with_hello):
    root, proc = with_hello
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "claims: posts/hello.md: 1 sentence bound to 1 claim" in proc.stdout


def test_the_new_lesson_is_listed_navigated_and_printed(with_hello):
    root, _ = with_hello
    site = root / "site"
    index = BeautifulSoup((site / "index.html").read_text(), "html.parser")
    article = index.find("article")
    assert article.find("a", href="posts/hello.html") is not None          # the lesson list
    assert article.find("a", href="handouts/hello.pdf") is not None        # the handout links
    other = BeautifulSoup((site / "posts" / "lab.html").read_text(), "html.parser")
    nav = other.find("nav", class_="bd-docs-nav")
    assert nav is not None and nav.find("a", href="hello.html") is not None  # the navigation
    missing = BeautifulSoup((site / "404.html").read_text(), "html.parser")
    assert any(a.get("href", "").endswith("posts/hello.html") for a in missing.find_all("a"))
    page = (site / "posts" / "hello.html").read_text()
    assert "The squares of 1 to 5 rise at every step, up to" in page
    ids = subprocess.run([sys.executable, "-c", "from compute.checks import lesson_records; "
                          "print([w.id for r in lesson_records() if r.page == 'hello' for w in r.widgets().values()])"],
                         cwd=root, capture_output=True, text=True, timeout=120).stdout.strip()
    assert ids == "['hello-squares']" and page.count('id="hello-squares"') == 1
    assert (site / "handouts" / "hello.pdf").stat().st_size > 1000
    assert (site / "notebooks" / "hello.ipynb").is_file()


def test_compute_check_runs_the_new_lessons_claim(with_hello):
    root, _ = with_hello
    proc = subprocess.run([sys.executable, "-m", "compute", "check", "hello"], cwd=root, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"squares_rise\s+yes", proc.stdout), proc.stdout
