"""Publish the built site into site/ all at once, or not at all.

The full output is assembled in a fresh folder next to site/ (same file
system), then swapped in with two renames. Until that swap, site/ is not
touched; if anything fails, the half-made folder is removed and the previous
site/ stays as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

# Build by-products that do not belong on the published site.
# The *webpack-macros.html files are the themes' Jinja macros, copied into
# _static/ with their assets: template source, not pages.
_NOT_PUBLISHED = shutil.ignore_patterns(
    ".buildinfo", ".doctrees", "webpack-macros.html", "sbt-webpack-macros.html"
)


def publish(html_dir: Path, handouts: list[Path], site: Path, notebooks: list[Path] = ()) -> None:
    """Make `site` hold a copy of `html_dir` plus `handouts/` and `notebooks/` with the given files."""
    parent = site.parent
    staging = Path(tempfile.mkdtemp(prefix=f".{site.name}.new-", dir=parent))
    try:
        output = staging / "out"
        shutil.copytree(html_dir, output, ignore=_NOT_PUBLISHED)
        for folder, files in (("handouts", handouts), ("notebooks", notebooks)):
            (output / folder).mkdir(exist_ok=True)
            for file in files:
                shutil.copy2(file, output / folder / file.name)
        output.chmod(0o755)
        swap_in(output, site)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def swap_in(new: Path, site: Path) -> None:
    """Replace the folder `site` by `new` with renames; `new` must be on the same file system."""
    if not site.exists():
        os.rename(new, site)
        return
    old = new.parent / "old"
    os.rename(site, old)
    try:
        os.rename(new, site)
    except BaseException:
        os.rename(old, site)  # put the previous site back
        raise
    shutil.rmtree(old, ignore_errors=True)
