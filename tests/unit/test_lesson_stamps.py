"""sitebuild.pages.stamps: a lesson's stamp covers what it reads (its imported modules, their declared
checkpoints, requirements.txt) and nothing else."""

from __future__ import annotations

import os
import time

from sitebuild.pages.stamps import STAMP_PREFIX, code_cells, insert_stamp, lesson_dependencies, stamp_hash

LESSON = """---
file_format: mystnb
---

# A lesson

```{code-cell} ipython3
:tags: [remove-cell]
from compute.lessons.demo import page
```

Text with `code` and a fence of another kind:

```python
import compute.cli  # shown, never run
```

```{code-cell} ipython3
page.show()
```
"""


def _project(tmp_path):
    """compute/ with a lesson package, a model it reads lazily, a checkpoint, and unrelated modules."""
    c = tmp_path / "compute"
    (c / "lessons" / "demo").mkdir(parents=True)
    (c / "checkpoints").mkdir()
    files = {
        "__init__.py": "",
        "cli.py": "from .lessons.demo import page\n",                       # imports the lesson; nothing imports it
        "model.py": 'CHECKPOINT_FILES = (WEIGHTS, "model.json")\nWEIGHTS = "model.safetensors"\n',
        "unrelated.py": "X = 1\n",
        "lessons/__init__.py": "",
        "lessons/demo/__init__.py": "",
        "lessons/demo/page.py": "def show():\n    from ...model import WEIGHTS\n    return WEIGHTS\n",
        "checkpoints/model.safetensors": "weights",
        "checkpoints/model.json": "{}",
        "checkpoints/other.safetensors": "not read by the lesson",
    }
    for name, text in files.items():
        (c / name).write_text(text)
    (tmp_path / "requirements.txt").write_text("numpy==2\n")
    return tmp_path


def _rel(root, paths):
    return sorted(p.relative_to(root).as_posix() for p in paths)


def test_code_cells_are_the_executed_cells_only():
    cells = code_cells(LESSON)
    assert cells == ["from compute.lessons.demo import page", "page.show()"]


def test_dependencies_follow_imports_lazy_ones_and_packages(tmp_path):
    root = _project(tmp_path)
    deps = lesson_dependencies(root, LESSON)
    assert _rel(root, deps.modules) == ["compute/__init__.py", "compute/lessons/__init__.py",
                                        "compute/lessons/demo/__init__.py", "compute/lessons/demo/page.py",
                                        "compute/model.py"]
    assert [p.name for p in deps.checkpoints] == ["model.json", "model.safetensors"]
    assert _rel(root, deps.others) == ["requirements.txt"]


def test_a_package_above_a_module_counts_its_import_not_its_functions(tmp_path):
    """A lesson that imports from compute.lessons.demo.page: the package above it runs its top-level imports, so
    those count; an import inside one of its functions runs only when the function is called, which the lesson
    cannot do without naming the package, and then it counts."""
    root = _project(tmp_path)
    (root / "compute" / "lessons" / "demo" / "__init__.py").write_text(
        "from ...unrelated import X\n\ndef results():\n    from ...cli import page\n    return page\n")
    lesson = LESSON.replace("from compute.lessons.demo import page", "from compute.lessons.demo.page import show")
    deps = _rel(root, lesson_dependencies(root, lesson).modules)
    assert "compute/unrelated.py" in deps and "compute/cli.py" not in deps
    assert "compute/cli.py" in _rel(root, lesson_dependencies(root, LESSON).modules)   # `from the package import`


def test_a_declaration_taken_from_another_module_declares_its_files(tmp_path, monkeypatch):
    """`STORY_MODEL_FILES = CHECKPOINT_FILES`, the name imported from a module that declares it: the files
    named there, in the story-models folder."""
    root = _project(tmp_path)
    monkeypatch.delenv("COMPUTE_CHECKPOINTS", raising=False)
    monkeypatch.setenv("COMPUTE_STORY_MODELS", str(tmp_path / "authors"))
    (root / "compute" / "names.py").write_text('CHECKPOINT_FILES = ("story.safetensors", "story.json")\n')
    (root / "compute" / "lessons" / "demo" / "page.py").write_text(
        "from ...names import CHECKPOINT_FILES\nSTORY_MODEL_FILES = CHECKPOINT_FILES\n")
    authors = [tmp_path / "authors" / "story.json", tmp_path / "authors" / "story.safetensors"]
    assert [p for p in sorted(lesson_dependencies(root, LESSON).checkpoints) if p.parent.name == "authors"] == authors
    (root / "compute" / "lessons" / "demo" / "page.py").write_text("STORY_MODEL_FILES = CHECKPOINT_FILES\n")
    assert lesson_dependencies(root, LESSON).checkpoints == ()    # a name it does not import declares nothing


def test_stamp_changes_with_what_the_lesson_reads(tmp_path):
    root = _project(tmp_path)
    before = stamp_hash(root, LESSON)
    for name, text in (("compute/lessons/demo/page.py", "def show():\n    return 2\n"),
                       ("compute/checkpoints/model.safetensors", "new weights"),
                       ("requirements.txt", "numpy==3\n")):
        old = (root / name).read_text()
        (root / name).write_text(text)
        assert stamp_hash(root, LESSON) != before, name
        (root / name).write_text(old)
        assert stamp_hash(root, LESSON) == before, name


def test_stamp_ignores_what_the_lesson_does_not_read(tmp_path):
    root = _project(tmp_path)
    before = stamp_hash(root, LESSON)
    (root / "compute" / "cli.py").write_text("print('edited')\n")
    (root / "compute" / "unrelated.py").write_text("X = 2\n")
    (root / "compute" / "checkpoints" / "other.safetensors").write_text("edited")
    later = time.time() + 10
    os.utime(root / "compute" / "model.py", (later, later))  # touched, same content
    assert stamp_hash(root, LESSON) == before


def test_stamp_follows_the_checkpoint_folder_in_use(tmp_path, monkeypatch):
    root = _project(tmp_path)
    before = stamp_hash(root, LESSON)
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "model.safetensors").write_text("weights")
    (other / "model.json").write_text("{}")
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(other))
    assert stamp_hash(root, LESSON) == before          # the same bytes: the same pages
    (other / "model.safetensors").write_text("other weights")
    assert stamp_hash(root, LESSON) != before          # other bytes: the lesson runs again
    (other / "model.json").unlink()
    assert stamp_hash(root, LESSON) != before          # a missing file counts too


def test_the_stamp_cell_goes_last_and_shifts_no_line():
    text = "---\nfile_format: mystnb\n---\n\n# Title\n\nText.\n"
    out = insert_stamp(text, "abc")
    assert out.startswith(text)
    assert out.endswith(f"```{{code-cell}} ipython3\n:tags: [remove-cell]\n{STAMP_PREFIX}abc\n```\n")
    assert code_cells(out)[-1] == f"{STAMP_PREFIX}abc"
    assert insert_stamp("# Title", "abc").startswith("# Title\n\n```")


def test_data_files_a_module_declares_beside_it_are_part_of_the_stamp(tmp_path):
    root = _project(tmp_path)
    page = root / "compute" / "lessons" / "demo" / "page.py"
    page.write_text('DATA_FILES = ("stories.txt",)\n' + page.read_text())
    data = page.with_name("stories.txt")
    data.write_text("## 1. A story\n")
    (page.with_name("other.txt")).write_text("not declared")
    deps = lesson_dependencies(root, LESSON)
    assert _rel(root, deps.data) == ["compute/lessons/demo/stories.txt"]
    before = stamp_hash(root, LESSON)
    page.with_name("other.txt").write_text("changed, but no lesson reads it")
    assert stamp_hash(root, LESSON) == before
    data.write_text("## 1. Another story\n")
    assert stamp_hash(root, LESSON) != before


def test_a_retrained_checkpoint_changes_the_keys_of_its_readers_alone(tmp_path, monkeypatch):
    """Replacing one published checkpoint (the walkthrough's by its alternative seed's, the four-head story
    model's by its second seed's) changes the build stamp of the pages that read it and the preflight key of the
    lessons that read it, and of nothing else: a rebuild after a retrain re-executes and re-checks only those."""
    from conftest import ROOT
    from compute.checks import lesson_names
    from sitebuild.preflight.run import lesson_key
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    for path in (ROOT / "compute" / "checkpoints").iterdir():
        (folder / path.name).symlink_to(path)
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(folder))
    monkeypatch.delenv("COMPUTE_STORY_MODELS", raising=False)
    pages = {p.stem: p.read_text() for p in sorted((ROOT / "posts").glob("*.md"))}

    def keys():
        return ({stem: stamp_hash(ROOT, text) for stem, text in pages.items()},
                {name: lesson_key(ROOT, name) for name in lesson_names()})

    def replaced(name, by):
        before = keys()
        (folder / name).unlink()
        (folder / name).symlink_to(ROOT / "compute" / "checkpoints" / by)
        after = keys()
        return ({k for k in before[0] if before[0][k] != after[0][k]},
                {k for k in before[1] if before[1][k] != after[1][k]})

    assert replaced("walkthrough.safetensors", "walkthrough-alt.safetensors") == ({"trained-walkthrough"},
                                                                                  {"walkthrough"})
    pages_changed, checks_changed = replaced("story-four-head.safetensors", "story-four-head-seed1.safetensors")
    assert "story-models" in pages_changed and "story" in checks_changed
    assert not pages_changed & {"attention-by-hand", "trained-walkthrough"}, pages_changed
    assert not checks_changed & {"byhand", "walkthrough"}, checks_changed
