"""The executed lessons MyST-NB keeps (its jupyter-cache, _build/.jupyter_cache), checked before Sphinx reads them.

Each record of the cache is a lesson's notebook as it ran, outputs and all (executed/<hashkey>/base.ipynb).
After the pages stage, every record is sealed (sitebuild.sealed: its notebook's size and digest, in
_build/execution-seals.json); before the next one, a record whose notebook is not as sealed (missing, cut short,
edited) is removed from the cache, so the lesson executes again, and the summary says so. A record made by a
build that was stopped before sealing is kept if its notebook reads as one whose code is what its key says and
whose every code cell ran; else it goes too.
"""
from __future__ import annotations

from pathlib import Path

from sitebuild import sealed

SEALS = "execution-seals.json"     # in the build folder: {hashkey: seal of its executed notebook}


def cache_dir(build_dir: Path) -> Path:
    return build_dir / ".jupyter_cache"


def _notebook(folder: Path, hashkey: str) -> Path:
    return folder / "executed" / hashkey / "base.ipynb"


def _unsealed_flaw(cache, path: Path, hashkey: str) -> str | None:
    """What is wrong with a notebook no build sealed: unreadable, not the code its key names, or not run."""
    import nbformat
    if not path.is_file():
        return f"{path.name} is missing"
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as exc:                                 # nbformat's errors: not JSON, not a notebook
        return f"{path.name} is not a readable notebook ({type(exc).__name__})"
    if cache.create_hashed_notebook(nb)[1] != hashkey:
        return f"{path.name} does not hold the code its key names"
    if any(c.cell_type == "code" and c.get("execution_count") is None for c in nb.cells):
        return f"{path.name} has a code cell that did not run"
    return None


def check(build_dir: Path, root: Path) -> None:
    """Remove every damaged record from the cache (noting each, sitebuild.sealed.heal) before Sphinx reads it."""
    folder = cache_dir(build_dir)
    if not (folder / "global.db").exists():
        return
    from jupyter_cache import get_cache
    cache = get_cache(str(folder))
    seals, flaw = sealed.read_json(build_dir / SEALS, {})
    if flaw or not isinstance(seals, dict):
        seals = {}
    for record in cache.list_cache_records():
        path = _notebook(folder, record.hashkey)
        if record.hashkey in seals:
            flaw = sealed.file_flaw(path, seals[record.hashkey])
        else:
            flaw = _unsealed_flaw(cache, path, record.hashkey)
        if flaw:
            sealed.heal(f"execution of {_shown(record.uri, root)}", flaw)
            cache.remove_cache(record.pk)


def seal(build_dir: Path) -> None:
    """Seal every record of the cache as it is now (after the pages stage, passed or failed: what it executed
    stays usable); seals of records the cache no longer holds go."""
    folder = cache_dir(build_dir)
    if not (folder / "global.db").exists():
        return
    from jupyter_cache import get_cache
    seals, _ = sealed.read_json(build_dir / SEALS, {})
    seals = seals if isinstance(seals, dict) else {}
    now = {}
    for record in get_cache(str(folder)).list_cache_records():
        path = _notebook(folder, record.hashkey)
        if record.hashkey in seals:                     # sealed before: kept only while it holds
            if not sealed.file_flaw(path, seals[record.hashkey]):
                now[record.hashkey] = seals[record.hashkey]
        elif path.is_file():                             # executed this build (or checked by check())
            now[record.hashkey] = sealed.digest(path)
    sealed.write_json(build_dir / SEALS, now)


def _shown(uri: str, root: Path) -> str:
    """A record's notebook as the author knows it: posts/<name>.md (a record made in another copy of the project
    names that copy's path: its last two parts)."""
    path = Path(uri)
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else f"{path.parent.name}/{path.name}"
