"""Helpers for build tests: a miniature copy of the project in a temporary folder, a folder's digest, the
files of the authors' guide's lesson template (docs/authors.md), a small story file in the real format, and
commands started as a terminal starts them."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FRONT_MATTER = """\
---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---
"""

LESSON = FRONT_MATTER + """
# Mini lesson

```{code-cell} ipython3
:tags: [remove-cell]

import compute
from myst_nb import glue

glue("value", compute.VALUE, display=False)
```

The value is {glue:text}`value`.
"""


def make_mini_project(dest: Path, lesson: str = LESSON) -> Path:
    """conf.py, sitebuild/ and _static/ of this repo, a small index, a one-line compute (and compute.progress, which
    the build reports through), one lesson; no readers' guide."""
    shutil.copy2(ROOT / "conf.py", dest / "conf.py")
    (dest / "index.md").write_text("# Mini site\n\n```{toctree}\n:glob:\n\nposts/*\n```\n")
    for name in ("sitebuild", "_static"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "compute" / "checkpoints").mkdir(parents=True)
    (dest / "compute" / "__init__.py").write_text("VALUE = 1\n")
    shutil.copy2(ROOT / "compute" / "progress.py", dest / "compute" / "progress.py")   # what the build reports through
    (dest / "posts").mkdir()
    (dest / "posts" / "lesson.md").write_text(lesson)
    return dest


def tree_digest(folder: Path) -> dict[str, str]:
    """{relative path: sha256} of every file under `folder`."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def template_files(guide: str) -> dict[str, str]:
    """The files of the "Adding a lesson" section of the authors' guide (docs/authors.md, its text given): each
    `path`, then its fenced block."""
    section = guide.split("## Adding a lesson", 1)[1].split("\n## ", 1)[0]
    files = {}
    for m in re.finditer(r"^`([\w/.-]+)`, [^\n]*:\n\n(`{3,4})\w*\n(.*?)^\2$", section, re.S | re.M):
        files[m.group(1)] = m.group(3)
    return files


def usage_error(argv: list[str], capsys) -> str:
    """`python -m compute ARGV` refused by its parser, run in this process (a subprocess would spend seconds
    importing torch to print one line): asserts exit status 2, returns what it wrote to stderr. The exit
    status of a real process is checked in tests/unit/test_store.py."""
    import pytest
    from compute.cli import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err


def cli_error(argv: list[str], capsys) -> str:
    """`python -m compute ARGV` run in this process, failing as it should: main() returns 1 (the process's exit
    status, compute/__main__.py) having written one line, `error: ...`, to stderr; that line."""
    from compute.cli import main

    assert main(argv) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


# For every drawn figure: its legend's box and its axis titles' boxes, where they overlap.
TITLES_OVER_LEGEND_JS = r"""
() => {
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const out = [];
  let legends = 0;
  for (const gd of document.querySelectorAll('.plotly-graph-div')) {
    const box = gd.querySelector('.legend .bg');
    if (!box) continue;
    legends += 1;
    const legend = box.getBoundingClientRect();
    for (const t of gd.querySelectorAll('.g-xtitle text, .g-ytitle text, [class^="g-x"][class$="title"] text, [class^="g-y"][class$="title"] text')) {
      const r = t.getBoundingClientRect();
      if (r.width && overlap(r, legend)) out.push(gd.id + ': "' + t.textContent + '" over the legend');
    }
  }
  return {legends, out};
}
"""


def torch_loss_and_grads(seed: int):
    """The walkthrough model's float64 loss at this seed's initial weights, and every gradient by torch's autograd,
    flat in the page's order: what the page's trainer and compute's exact run are checked against."""
    import numpy as np
    import torch

    from compute.data.walkthrough import training_batch
    from compute.models.walkthrough import named_tensors, parameter_shapes
    from compute.training.walkthrough import batch_loss, initial_model

    model = initial_model(seed).to(torch.float64)
    x, y = training_batch(model.cfg.context)
    loss = batch_loss(model, x, y)
    loss.backward()
    tensors = named_tensors(model)
    return loss.item(), np.concatenate([tensors[n].grad.numpy().ravel() for n in parameter_shapes()])


# A small story file in the TinyStories format, for training on a file: its own names and things, curly quotes
# and dashes, one held-out story that repeats a training story.
NAMES = ("Lily", "Tom", "Mia", "Ben", "Sue")
THINGS = ("ball", "kite", "cake", "boat")
N_STORIES = 220      # 11 held out (every 20th); one of them repeats a training story, so 10 validate
REPEAT = (39, 0)     # the 40th story (held out) repeats the first (training)


def letters(i: int) -> str:
    """A word for the number i ('bj' for 19): each story's own word, so no two texts are the same."""
    return "".join("abcdefghij"[int(d)] for d in str(i))


def tiny_story(i: int) -> str:
    """A story in the format's own style: curly quotes, an em and an en dash, a blank line inside."""
    name, thing = NAMES[i % len(NAMES)], THINGS[i // 5 % len(THINGS)]
    held = f" {name} said qq{letters(i)}." if (i + 1) % 20 == 0 else ""   # a word only validation has
    return (f"Once upon a time, {name} found a {thing} \u2014 a big one.\n\n"
            f"\u201cLook!\u201d said {name}. \u2018It is mine,\u2019 {name} thought \u2013 and smiled.{held}\n"
            f"It was day {letters(i)}.")


def tiny_texts() -> list[str]:
    texts = [tiny_story(i) for i in range(N_STORIES)]
    texts[REPEAT[0]] = texts[REPEAT[1]]
    return texts


def write_file(path: Path, texts: list[str], close_last: bool) -> Path:
    from compute.data.tinystories import SEPARATOR
    body = "".join(f"{t}\n{SEPARATOR}\n" for t in texts[:-1]) + texts[-1] + (f"\n{SEPARATOR}\n" if close_last
                                                                             else "\n")
    path.write_text(body, encoding="utf-8")
    return path


def ctrl_c_at_default() -> None:
    """In the child, before it runs: Ctrl-C (SIGINT) at its default action, as a terminal's foreground command has
    it. A test run started in the background of a script inherits SIGINT ignored (POSIX), and a command that
    ignores it cannot be interrupted by the test that interrupts it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_as_from_a_terminal(argv: list[str], **popen) -> subprocess.Popen:
    """`argv` started in a process group of its own with Ctrl-C at its default: what the test's os.killpg(pid,
    SIGINT) sends reaches it and every process it starts, as a terminal's Ctrl-C would."""
    return subprocess.Popen(argv, start_new_session=True, preexec_fn=ctrl_c_at_default, **popen)


@contextmanager
def as_from_a_terminal(argv: list[str], **popen):
    """start_as_from_a_terminal, and its whole process group killed when the test ends however it ends, so that
    nothing it started outlives a failed test (a seed search left running takes the cores of the rest of the
    run)."""
    proc = start_as_from_a_terminal(argv, **popen)
    try:
        yield proc
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


# Each figure's JSON, from its file on the published site (sitebuild/figures/files.py) or from the page.
SPECS_JS = """() => Promise.all([...document.querySelectorAll('script.plotly-figure-spec')]
  .map(async (s) => s.dataset.src ? (await fetch(s.dataset.src)).json() : JSON.parse(s.textContent)))"""


def typeset(tmp_path, body: str) -> bytes:
    """A PDF set by Typst with the prints' template (its margins, headings, code boxes) around `body`."""
    from sitebuild.prints.typeset import compile_typst, sources
    html = tmp_path / "html"
    html.mkdir(exist_ok=True)
    source = sources(html) / "planted.typ"
    source.write_text(f'#import "/prints/chapter.typ": *\n#show: chapter.with(short: "Planted")\n{body}\n')
    compile_typst(source, tmp_path, tmp_path / "planted.pdf", "handout")
    return (tmp_path / "planted.pdf").read_bytes()
