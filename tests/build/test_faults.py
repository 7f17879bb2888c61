"""The build under faults: concurrent builds, a killed or interrupted build, a typo in a lesson, line numbers."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import LESSON, make_mini_project, start_as_from_a_terminal, tree_digest
from sitebuild.tmpdir import private_tmp_path
from sitebuild.sitecheck import visible_text


def _project(tmp_path, lesson=LESSON):
    (tmp_path / "src").mkdir()
    return make_mini_project(tmp_path / "src", lesson)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A miniature project built once, for the tests that start from a published site."""
    root = _project(tmp_path_factory.mktemp("built"))
    proc = subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return root


def _copy(built: Path, tmp_path: Path) -> Path:
    """A copy of the built miniature project, site/ and build cache included."""
    return Path(shutil.copytree(built, tmp_path / "src", symlinks=True))


def _start(root: Path) -> subprocess.Popen:
    return start_as_from_a_terminal([sys.executable, "-m", "sitebuild"], cwd=root, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)


def _processes_in(root: Path) -> list[int]:
    """Live processes whose working folder lies in `root` (sphinx-build runs in it, the kernel in posts/)."""
    return _live(lambda proc: Path(os.readlink(proc / "cwd")).is_relative_to(root.resolve()))


def _live(test) -> list[int]:
    """The ids of live processes for which test(/proc/<pid>) holds (processes that end meanwhile are skipped)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and test(proc):
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


def test_two_builds_at_once_take_turns(built, tmp_path):
    root = _copy(built, tmp_path)
    first, second = _start(root), _start(root)
    outs = [p.communicate(timeout=120) for p in (first, second)]
    assert first.returncode == second.returncode == 0, outs
    assert sum("waiting: another build of this site is running" in out for out, _ in outs) <= 1
    assert all("site/ published" in out for out, _ in outs)
    assert "The value is 1 ." in visible_text((root / "site" / "posts" / "lesson.html").read_text())


def test_a_second_build_waits_for_the_first(tmp_path):
    marker = tmp_path / "kernel-started"
    slow = LESSON.replace("import compute", f"import compute, time\nopen({str(marker)!r}, 'w').close()\ntime.sleep(6)")
    root = _project(tmp_path, slow)
    first = _start(root)
    deadline = time.time() + 60
    while not marker.exists() and time.time() < deadline:  # its lesson runs: it holds the lock
        time.sleep(0.2)
    second = _start(root)
    out2, _ = second.communicate(timeout=120)
    first.communicate(timeout=120)
    assert first.returncode == second.returncode == 0
    assert "waiting: another build of this site is running" in out2


def test_a_killed_build_leaves_no_worker_behind(tmp_path):
    marker = tmp_path / "kernel-started"
    slow = LESSON.replace("import compute", f"import compute, time\nopen({str(marker)!r}, 'w').close()\ntime.sleep(60)")
    root = _project(tmp_path, slow)
    build = _start(root)
    deadline = time.time() + 60
    while not marker.exists() and time.time() < deadline:
        time.sleep(0.2)
    assert marker.exists(), "the lesson never started"
    assert _processes_in(root)
    os.kill(build.pid, signal.SIGKILL)
    build.wait()
    deadline = time.time() + 5
    while _processes_in(root) and time.time() < deadline:
        time.sleep(0.2)
    assert _processes_in(root) == []


def test_ctrl_c_prints_one_line_and_keeps_the_site(built, tmp_path):
    marker = tmp_path / "kernel-started"
    root = _copy(built, tmp_path)
    before = tree_digest(root / "site")
    (root / "posts" / "lesson.md").write_text(
        LESSON.replace("import compute", f"import compute, time\nopen({str(marker)!r}, 'w').close()\ntime.sleep(60)"))
    build = _start(root)
    deadline = time.time() + 60
    while not marker.exists() and time.time() < deadline:
        time.sleep(0.2)
    os.killpg(build.pid, signal.SIGINT)           # what a terminal sends to the whole foreground group
    out, err = build.communicate(timeout=60)
    assert build.returncode == 130
    assert err.strip() == "error: interrupted; site/ was left unchanged.", err
    assert tree_digest(root / "site") == before


def _chromium_in_group(pgid: int) -> bool:
    """Whether a Chromium process runs in this process group (the build's browser, printing or typesetting)."""
    def chromium_of_the_group(proc: Path) -> bool:
        return os.getpgid(int(proc.name)) == pgid and b"chromium" in (proc / "cmdline").read_bytes()
    return bool(_live(chromium_of_the_group))


def test_ctrl_c_while_chromium_prints_prints_one_line_and_keeps_the_site(built, tmp_path):
    root = _copy(built, tmp_path)
    before = tree_digest(root / "site")
    (root / "posts" / "lesson.md").write_text(LESSON + "\nA new sentence, so the handout is printed again.\n")
    build = _start(root)
    deadline = time.time() + 120
    while not _chromium_in_group(build.pid) and time.time() < deadline and build.poll() is None:
        time.sleep(0.05)
    assert _chromium_in_group(build.pid), "the build never started Chromium"
    os.killpg(build.pid, signal.SIGINT)           # the terminal's Ctrl-C, to the build, Playwright and Chromium
    out, err = build.communicate(timeout=60)
    assert build.returncode == 130, (out, err)
    assert err.strip() == "error: interrupted; site/ was left unchanged.", err
    assert tree_digest(root / "site") == before
    deadline = time.time() + 10
    while _chromium_in_group(build.pid) and time.time() < deadline:
        time.sleep(0.2)
    assert not _chromium_in_group(build.pid), "Chromium outlived the interrupted build"


def test_leftovers_of_an_interrupted_build_are_cleared(tmp_path):
    root = _project(tmp_path)
    (root / ".site.new-abc123" / "out").mkdir(parents=True)
    profile = private_tmp_path(root) / "playwright_chromiumdev_profile-XYZ"
    profile.mkdir(parents=True)
    assert subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True).returncode == 0
    assert not (root / ".site.new-abc123").exists() and not profile.exists()
    assert not private_tmp_path(root).exists()    # a build that succeeded leaves no temporary folder behind


def test_an_unclosed_code_fence_stops_the_build(tmp_path):
    broken = LESSON.replace("```\n\nThe value", "\nThe value")  # the code cell's closing fence is gone
    broken += "\nMore text after.\n"
    root = _project(tmp_path, broken)
    proc = subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True)
    assert proc.returncode == 1
    assert not (root / "site").exists()
    first = proc.stderr.strip().splitlines()[0]
    assert first.startswith("error: ") and ("raw markup" in first or "posts/lesson.md" in first), proc.stderr


def test_warnings_name_the_lines_an_author_sees(tmp_path):
    text = LESSON.replace("The value is {glue:text}`value`.",
                          "First line of a paragraph,\nsecond line {glue:text}`nosuchkey:.2f` here.\n\n"
                          "```{figure} missing.png\n:name: fig-x\n```")
    root = _project(tmp_path, text)
    lines = text.splitlines()
    glue_line = next(i for i, line in enumerate(lines, 1) if "nosuchkey" in line)
    figure_line = next(i for i, line in enumerate(lines, 1) if "missing.png" in line)
    # A CI runner may ask for colour (FORCE_COLOR); the messages must still name the lines.
    env = {**os.environ, "FORCE_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True, env=env)
    assert proc.returncode == 1
    assert f"posts/lesson.md:{glue_line}: WARNING: No key 'nosuchkey'" in proc.stdout
    assert f"posts/lesson.md:{figure_line}: WARNING: image file not readable" in proc.stdout


def test_a_failed_warning_build_does_not_pass_on_a_rebuild(tmp_path):
    """Sphinx forgets warnings between builds: a rebuild with nothing changed must fail again, not publish."""
    text = LESSON.replace("{glue:text}`value`", "{glue:text}`nosuchkey`")
    root = _project(tmp_path, text)
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True)
        assert proc.returncode == 1 and "nosuchkey" in proc.stdout
    assert not (root / "site").exists()


def _build(root: Path, *python: str) -> subprocess.CompletedProcess:
    """`python -m sitebuild` in `root` (with `python`: those statements first, then the build's main())."""
    if not python:
        return subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True)
    code = "\n".join([*python, "from sitebuild.__main__ import main", "raise SystemExit(main())"])
    return subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)


def _one_error(proc: subprocess.CompletedProcess) -> str:
    """The failed build's one `error:` line (then only the line saying site/ was kept), no traceback."""
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and len(lines) == 2 and lines[0].startswith("error: "), proc.stderr
    assert lines[1] == "site/ was left unchanged." and "Traceback" not in proc.stdout + proc.stderr
    return lines[0]


def test_damaged_prints_and_executions_are_made_again_and_named(built, tmp_path):
    """A kept handout cut short, a slide PDF deleted, an executed lesson cut short: each is made again (the
    lesson executes again) and named in the summary, and site/ gets the same bytes an intact cache gives."""
    root = _copy(built, tmp_path)
    before = tree_digest(root / "site")
    handout, deck = root / "_build" / "handouts" / "lesson.pdf", root / "_build" / "deckprints" / "lesson-slides.pdf"
    handout.write_bytes(handout.read_bytes()[:2000])
    deck.unlink()
    notebook, = (root / "_build" / ".jupyter_cache" / "executed").glob("*/base.ipynb")
    notebook.write_text(notebook.read_text()[:-100])
    proc = _build(root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    remade = [line for line in proc.stdout.splitlines() if line.startswith("remade, its kept copy damaged: ")]
    assert any("execution of posts/lesson.md: base.ipynb has" in line for line in remade), proc.stdout
    assert any("print lesson.pdf: lesson.pdf has 2,000 bytes" in line for line in remade), proc.stdout
    assert any("print lesson-slides.pdf: lesson-slides.pdf is missing" in line for line in remade), proc.stdout
    assert "executed: posts/lesson.md" in proc.stdout
    assert tree_digest(root / "site") == before
    again = _build(root)                                  # the next build: nothing left to heal
    assert again.returncode == 0 and "remade" not in again.stdout, again.stdout


def test_an_unreadable_stamp_record_reprints_and_says_so(built, tmp_path):
    root = _copy(built, tmp_path)
    before = tree_digest(root / "site")
    (root / "_build" / "handouts" / "stamps.json").write_text('{"lesson": {"page": ')
    proc = _build(root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "remade, its kept copy damaged: handouts/stamps.json: stamps.json is not readable JSON" in proc.stdout
    assert "1 printed" in proc.stdout and tree_digest(root / "site") == before


def test_a_site_that_cannot_be_replaced_is_one_line(built, tmp_path):
    """The file system refusing the last step (site/ on a read-only disk, say): one line naming the stage, the
    cause and the folder; site/ as it was."""
    root = _copy(built, tmp_path)
    (root / "posts" / "lesson.md").write_text(LESSON + "\nA new sentence, so the site is published again.\n")
    before = tree_digest(root / "site")
    proc = _build(root, "import errno, sitebuild.publish.site as site",
                  "def refused(new, old): raise OSError(errno.EROFS, 'Read-only file system', str(old))",
                  "site.swap_in = refused")
    line = _one_error(proc)
    assert line == "error: the publish stage could not use the file system: Read-only file system: site", line
    assert tree_digest(root / "site") == before


def test_the_build_folder_removed_mid_build_is_one_line(built, tmp_path):
    """_build/ deleted while the build runs (here: as the figure stage starts, its pages just typeset): one line
    naming the stage, the cause and the file; site/ as it was."""
    root = _copy(built, tmp_path)
    (root / "posts" / "lesson.md").write_text(LESSON + "\nA new sentence, so the site is published again.\n")
    before = tree_digest(root / "site")
    proc = _build(root, "import shutil, sitebuild.build as build", "finish = build.Drawing.finish",
                  "def removed(drawing): shutil.rmtree(drawing.html_dir.parent); return finish(drawing)",
                  "build.Drawing.finish = removed")
    line = _one_error(proc)
    assert re.fullmatch(r"error: the (figures|decks) stage could not use the file system: "
                        r"No such file or directory: _build/html/\S+", line), line
    assert tree_digest(root / "site") == before
