"""Files compute makes for the site itself (the page's JavaScript model, say), added to the built HTML.

Each lesson package may define `site_files() -> {path in the site: bytes}`;
compute.checks.site_files() gathers them. They are made again only when a
compute module or the checkpoint folder changes (the preflight's key), and kept
in _build/site-files between builds.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sitebuild.computechecks import compute_checks
from sitebuild.pages.stamps import tree_hash


def made_files() -> dict[str, bytes]:
    """compute.checks.site_files(), or nothing for a project without it."""
    checks = compute_checks()
    return checks.site_files() if hasattr(checks, "site_files") else {}


def add_site_files(root: Path, build_dir: Path, html_dir: Path) -> list[str]:
    """Write every made file into `html_dir` (from the cache when compute is unchanged); their paths."""
    cache = build_dir / "site-files"
    key_file = build_dir / "site-files.key"
    key = tree_hash(root)
    if not (key_file.is_file() and key_file.read_text() == key and cache.is_dir()):
        shutil.rmtree(cache, ignore_errors=True)
        for name, data in made_files().items():
            (cache / name).parent.mkdir(parents=True, exist_ok=True)
            (cache / name).write_bytes(data)
        cache.mkdir(parents=True, exist_ok=True)
        key_file.write_text(key)
    names = sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file())
    for name in names:
        (html_dir / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cache / name, html_dir / name)
    return names
