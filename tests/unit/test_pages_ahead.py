"""sitebuild.pages.ahead: a lesson whose kernel cannot start is left to Sphinx, which executes it as it reads it;
the other lessons are still executed ahead and kept."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from sitebuild import progress
from sitebuild.pages import ahead


def _lesson(folder: Path, name: str) -> ahead.Pending:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 6 * 7")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return ahead.Pending(name, folder / f"{name}.md", nb, None, 1.0)


def test_a_lesson_whose_kernel_does_not_start_is_left_to_sphinx(tmp_path, monkeypatch, capsys):
    good, bad = _lesson(tmp_path, "good"), _lesson(tmp_path, "bad")
    run = ahead._execute

    def execute(app, job):
        if job.docname == "bad":   # what nbclient raises when the kernel dies as it starts (a port taken)
            raise RuntimeError("Kernel died before replying to kernel_info")
        return run(app, job)    # a real kernel

    kept = []
    monkeypatch.setattr(ahead, "_execute", execute)
    monkeypatch.setattr(ahead, "to_execute", lambda app, cache, docnames: [good, bad])
    monkeypatch.setattr(ahead, "kernels_at_once", lambda: 2)
    monkeypatch.setattr(ahead, "_keep", lambda cache, job, result: kept.append(job.docname))
    monkeypatch.setattr("jupyter_cache.get_cache", lambda path: None)
    config = SimpleNamespace(execution_mode="cache", execution_cache_path=str(tmp_path / "cache"),
                             execution_allow_errors=False, execution_timeout=120)
    app = SimpleNamespace(env=SimpleNamespace(mystnb_config=config))
    ahead._on_before_read(app, app.env, ["good", "bad"])
    assert kept == ["good"] and app.sitebuild_ahead == {"good"}
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith(progress.MARK + "left ")]
    assert len(said) == 1 and said[0].startswith(progress.MARK + "left bad "), said
