"""Sphinx extension: the lessons Sphinx is about to read and must execute are executed first, side by side.

MyST-NB executes a lesson when Sphinx reads it, one lesson after another, each in a kernel of its own that uses
one core for most of its run. Before Sphinx reads anything (`env-before-read-docs`), this extension makes each
lesson's notebook exactly as MyST-NB will (its text with the stamp cell, sitebuild.pages.stamps.stamped, which
is all that changes a lesson's text on `source-read`; MyST-NB's reader and configuration), asks the jupyter-cache whether it holds it, and executes those it does not,
as many at once as the machine has cores (sitebuild.cores), the longest first
(longest_first). Each executed notebook goes into the cache as MyST-NB would put it there, so when Sphinx then
reads the lesson MyST-NB finds it there, as it finds a lesson unchanged since the last build.

A lesson whose run fails here is left out of the cache: Sphinx executes it again when it reads it, and the
failure is reported as before (sitebuild.pages.sphinx, the lesson, its line and the exception). So is a lesson
whose kernel does not start: a kernel is given free ports, which another process may take before the kernel
binds them (seen once while the tests ran beside a build: "Address already in use"); Sphinx's run of the lesson
starts a kernel of its own.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from sitebuild.cores import KERNELS, at_once as kernels_at_once  # noqa: F401 (KERNELS: the tests set it)


@dataclass
class Pending:
    docname: str
    path: Path
    notebook: object      # the nbformat notebook MyST-NB will read
    read_fmt: dict | None
    last_seconds: float   # how long its last run took (0 when none is recorded)
    check_seconds: float = 0.0  # how long its claims' check took when the preflight last ran it
    modules: int = 0      # how many compute modules it reads (its build stamp's)


def longest_first(pending: list[Pending]) -> list[Pending]:
    """The lessons in the order to start them, the longest first: those with no run recorded by how long their
    claims' check took when the preflight last ran it (which computes what the lesson's run computes: Part III's
    check is the longest, its run too), and in a cold build, where the checks run beside the lessons and none is
    recorded yet, by how many compute modules each reads (Part III reads the most, then the lab); most first; then
    the rest by how long their last run took; ties by name."""
    return sorted(pending, key=lambda p: (bool(p.last_seconds), -(p.last_seconds or p.check_seconds), -p.modules,
                                          p.docname))


def _notebook(app, docname: str):
    """(path, notebook, read format, compute modules it reads) of a lesson as MyST-NB will read it; None for a
    page that is no lesson."""
    from myst_nb.core.read import create_nb_reader
    from sitebuild.pages.stamps import lesson_dependencies, stamped

    path = Path(app.env.doc2path(docname))
    text = path.read_text(encoding="utf-8")
    lesson = stamped(Path(app.srcdir), docname, text)
    if lesson is None:
        return None
    reader = create_nb_reader(str(path), app.env.myst_config, app.env.mystnb_config, lesson[0])
    modules = len(lesson_dependencies(Path(app.srcdir), text).modules)
    return (path, reader.read(lesson[0]), reader.read_fmt, modules) if reader is not None else None


def _last_seconds(records, path: Path) -> float:
    """How long the lesson's newest cached run took; 0 when the cache has none."""
    runs = [r for r in records if Path(r.uri) == path]
    newest = max(runs, key=lambda r: r.created, default=None)
    return float((newest.data or {}).get("execution_seconds") or 0) if newest else 0.0


def _check_seconds(app) -> dict[str, float]:
    """{docname: seconds} of the lessons' checks, as the preflight last recorded them beside the doctrees."""
    from sitebuild.preflight.run import TIMES

    path = Path(app.doctreedir).parent / TIMES
    try:
        times = json.loads(path.read_text()) if path.is_file() else {}
    except ValueError:
        return {}
    return {k: float(v) for k, v in times.items() if isinstance(v, (int, float))} if isinstance(times, dict) else {}


def to_execute(app, cache, docnames) -> list[Pending]:
    """The lessons among `docnames` that MyST-NB would execute: notebooks the jupyter-cache does not hold."""
    records, checks = cache.list_cache_records(), _check_seconds(app)
    pending = []
    for docname in docnames:
        made = _notebook(app, docname)
        if made is None:
            continue
        path, notebook, read_fmt, modules = made
        try:
            cache.match_cache_notebook(notebook)        # cached: MyST-NB takes it from there
        except KeyError:
            pending.append(Pending(docname, path, notebook, read_fmt, _last_seconds(records, path),
                                   checks.get(docname, 0.0), modules))
    return pending


def _execute(app, job: Pending):
    """Run one lesson's notebook in its own kernel, in its folder, as MyST-NB runs it; (job, result)."""
    from jupyter_cache.executors.utils import single_nb_execution

    config = app.env.mystnb_config
    result = single_nb_execution(job.notebook, cwd=str(job.path.parent), allow_errors=config.execution_allow_errors,
                                 timeout=config.execution_timeout, meta_override=True)
    return job, result


def _keep(cache, job: Pending, result) -> None:
    """Put an executed notebook into the cache as MyST-NB does after it executes one."""
    from jupyter_cache.base import CacheBundleIn

    record = (cache.add_nb_to_project(str(job.path), read_data=job.read_fmt) if job.read_fmt
              else cache.add_nb_to_project(str(job.path)))
    cache.cache_notebook_bundle(CacheBundleIn(job.notebook, record.uri, data={"execution_seconds": result.time}),
                                check_validity=False, overwrite=True)


def _on_before_read(app, env, docnames: list[str]) -> None:
    from jupyter_cache import get_cache
    from sitebuild import progress

    app.sitebuild_ahead = set()
    if app.env.mystnb_config.execution_mode != "cache":
        return                                          # MyST-NB keeps no cache to put them in
    cache = get_cache(app.env.mystnb_config.execution_cache_path)
    pending = longest_first(to_execute(app, cache, docnames))
    if len(pending) < 2 or kernels_at_once() < 2:
        return                                          # nothing to run side by side: MyST-NB runs it as it reads
    with ThreadPoolExecutor(max_workers=kernels_at_once()) as pool:
        futures = {pool.submit(_execute, app, job): job for job in pending}
        for done in as_completed(futures):
            try:
                job, result = done.result()
            except Exception as error:  # noqa: BLE001 (any failure to run it here leaves the lesson to Sphinx)
                progress.not_ahead(futures[done].docname, error)
                continue
            if result.err is None:
                _keep(cache, job, result)
                app.sitebuild_ahead.add(job.docname)
                progress.executed_ahead(job.docname, result.time)


def setup(app):
    app.connect("env-before-read-docs", _on_before_read, priority=900)  # after the progress bar's count
    return {"version": "1.0", "parallel_read_safe": False, "parallel_write_safe": True}
