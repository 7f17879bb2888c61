"""Publish the built site into site/ all at once, or not at all.

The full output is assembled in a fresh folder next to site/ (same file
system), then exchanged with site/ in one atomic step (Linux renameat2 with
RENAME_EXCHANGE): a reader served from site/ sees the old site or the new one,
never a missing file. Where the exchange is not supported, two renames are the
fallback (a brief gap). Until that step site/ is not touched; if anything
fails, the half-made folder is removed and the previous site/ stays as it was.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import tempfile
from pathlib import Path


STAGING_PREFIX = ".{name}.new-"

# Build by-products that do not belong on the published site. Sphinx's pygments.css
# and MyST-NB's style sheet are written into _static/ but linked by no page (the
# page's one style sheet holds what they gave it: sitebuild/theme/bundle.py). Sphinx
# keeps the last .buildinfo as .buildinfo.bak when the configuration changes.
_NOT_PUBLISHED = shutil.ignore_patterns(
    ".buildinfo", ".buildinfo.bak", ".doctrees", "pygments.css", "mystnb.*.css"
)

_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


def publish(html_dir: Path, handouts: list[Path], site: Path, notebooks: list[Path] = (), base: str = "/") -> None:
    """Make `site` hold a copy of `html_dir` plus `handouts/` and `notebooks/` with the given files.

    The copy's 404.html links from `base`, the path the site is served under (sitebuild.pages.extension)."""
    from sitebuild.figures.files import externalize   # here, so that a build with nothing to do (which looks for
    from sitebuild.pages.extension import root_relative  # leftovers, remove_leftovers) loads neither
    parent = site.parent
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX.format(name=site.name), dir=parent))
    try:
        output = staging / "out"
        shutil.copytree(html_dir, output, ignore=_NOT_PUBLISHED)
        externalize(output)                      # each figure's data in a file of its own (sitebuild.figures.files)
        not_found = output / "404.html"
        if not_found.is_file():
            not_found.write_text(root_relative(not_found.read_text(), base))
        for folder, files in (("handouts", handouts), ("notebooks", notebooks)):
            (output / folder).mkdir(exist_ok=True)
            for file in files:
                shutil.copy2(file, output / folder / file.name)
        fill_sizes(output)
        output.chmod(0o755)
        swap_in(output, site)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


SIZE_MARK = re.compile(r'<span class="pdf-size" data-file="(?P<file>[\w./-]+)"></span>')


def fill_sizes(output: Path) -> None:
    """Each page's empty size mark after a link to a printed file gets the file's size: '(412 KB)'."""
    for page in output.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        filled = SIZE_MARK.sub(lambda m: f'<span class="pdf-size">({human_size(output / m["file"])})</span>', text)
        if filled != text:
            page.write_text(filled, encoding="utf-8")


def human_size(path: Path) -> str:
    n = path.stat().st_size if path.is_file() else 0
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{max(1, round(n / 1e3))} KB"


def exchange(a: Path, b: Path) -> None:
    """Swap two paths atomically (renameat2 RENAME_EXCHANGE); OSError(ENOSYS or EINVAL) where unsupported."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        raise OSError(errno.ENOSYS, "renameat2 is not available") from None
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(b))


def swap_in(new: Path, site: Path) -> None:
    """Replace the folder `site` by `new`; `new` must be on the same file system. `new` then holds the old site."""
    if not site.exists():
        os.rename(new, site)
        return
    try:
        exchange(new, site)
    except OSError as err:
        if err.errno not in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
            raise
        _swap_by_renames(new, site)


def _swap_by_renames(new: Path, site: Path) -> None:
    old = new.parent / "old"
    os.rename(site, old)
    try:
        os.rename(new, site)
    except BaseException:
        os.rename(old, site)  # put the previous site back
        raise
    os.rename(old, new)


def remove_leftovers(site: Path) -> list[Path]:
    """Staging folders an interrupted build left next to `site` (call with the build lock held)."""
    gone = sorted(site.parent.glob(STAGING_PREFIX.format(name=site.name) + "*"))
    for folder in gone:
        shutil.rmtree(folder, ignore_errors=True)
    return gone
