"""Sphinx extension: a lesson re-executes exactly when a file it reads changes.

Neither Sphinx nor jupyter-cache knows what a lesson's cells read. This
extension works it out from the lesson's text, before anything runs:

* the compute modules its code cells import, followed through compute's own
  imports (every `import` statement in a module counts, lazy ones included),
  with the packages that contain them (of a package no import names, the
  imports its import runs: Part 2B names Part III's subjects, not its models);
* the checkpoint files those modules declare in a module-level
  `CHECKPOINT_FILES = (...)`, looked up in the folder the lesson will read
  (`COMPUTE_CHECKPOINTS`, or compute/checkpoints), and the story models they
  declare in `STORY_MODEL_FILES = (...)` in the folder Part III reads them from
  (`COMPUTE_STORY_MODELS`, or the checkpoint folder);
* the data files those modules declare in a module-level `DATA_FILES = (...)`,
  beside the module (a hand-written story set, say);
* requirements.txt, since the pinned libraries shape the outputs too.

Their paths and contents hash to the lesson's *stamp*. On `source-read` the
stamp goes into a hidden last code cell (`# build stamp: <sha256>`), so the
jupyter-cache key changes exactly when those bytes change, and on
`env-get-outdated` a lesson whose stamp changed is re-read even if its own
file did not. Editing a module no lesson imports (the command line, say)
executes nothing. A test checks the declared set against the files a real
run of each lesson opens.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from myst_nb.core.read import is_myst_markdown_notebook

STAMP_PREFIX = "# build stamp: "
PACKAGE = "compute"
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Dependencies:
    modules: tuple[Path, ...]      # compute/**.py files the lesson's cells import
    checkpoints: tuple[Path, ...]  # files in the checkpoint folder those modules read
    others: tuple[Path, ...]       # requirements.txt
    data: tuple[Path, ...] = ()    # files beside those modules that they read (DATA_FILES)


def checkpoint_folder(root: Path) -> Path:
    """The folder compute reads checkpoints from (compute.store.checkpoint_dir, without importing it)."""
    return Path(os.environ.get("COMPUTE_CHECKPOINTS", root / PACKAGE / "checkpoints"))


def story_folder(root: Path) -> Path:
    """The folder Part III reads its story models from (compute.store.story_models_dir)."""
    return Path(os.environ.get("COMPUTE_STORY_MODELS") or checkpoint_folder(root))


def code_cells(text: str) -> list[str]:
    """The source of every `{code-cell}` of a MyST notebook, without its `:option:` lines."""
    cells = []
    for body in CELL.findall(text):
        lines = body.splitlines()
        while lines and lines[0].startswith(":"):
            lines.pop(0)
        cells.append("\n".join(lines))
    return cells


def module_file(root: Path, name: str) -> Path | None:
    """compute.a.b -> compute/a/b.py or compute/a/b/__init__.py under root, if either exists."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _nodes(tree: ast.AST, lazy: bool = True):
    """Every node of the tree; without `lazy`, none inside a function (what importing the module runs)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if lazy or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def import_source(node: ast.ImportFrom, package: str) -> str:
    """The module a `from ... import` statement reads from, a relative one resolved against `package`."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    return ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))


def imported_names(tree: ast.AST, package: str, lazy: bool = True) -> set[str]:
    """Every module name an AST's imports may load, relative ones resolved against `package` (without `lazy`:
    those its import runs, none inside a function)."""
    names = set()
    for node in _nodes(tree, lazy):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = import_source(node, package)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return {n for n in names if n == PACKAGE or n.startswith(PACKAGE + ".")}


def with_parents(name: str) -> list[str]:
    """compute.a.b -> [compute, compute.a, compute.a.b]: importing a module runs its packages too."""
    parts = name.split(".")
    return [".".join(parts[: k + 1]) for k in range(len(parts))]


def declared_checkpoints(tree: ast.Module, variable: str = "CHECKPOINT_FILES") -> list[str]:
    """The file names in a module-level `CHECKPOINT_FILES = (...)` (or `variable`) of literal strings (or names
    of them), or naming another such tuple of the module."""
    consts = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            consts[node.targets[0].id] = node.value
    value = consts.get(variable)
    if isinstance(value, ast.Name):                   # STORY_MODEL_FILES = CHECKPOINT_FILES
        value = consts.get(value.id)
    if not isinstance(value, (ast.Tuple, ast.List)):
        return []
    out = []
    for elt in value.elts:
        elt = consts.get(elt.id, elt) if isinstance(elt, ast.Name) else elt
        out.append(ast.literal_eval(elt))
    return out


DECLARED = ("CHECKPOINT_FILES", "STORY_MODEL_FILES", "DATA_FILES")


def declared_elsewhere(tree: ast.Module, package: str, variable: str) -> tuple[str, str] | None:
    """(module, name) where a module-level `variable = NAME` takes NAME from another compute module's declaration
    (`from ...published.storyfiles import CHECKPOINT_FILES`, then `STORY_MODEL_FILES = CHECKPOINT_FILES`)."""
    value = next((node.value for node in tree.body if isinstance(node, ast.Assign) and len(node.targets) == 1
                  and isinstance(node.targets[0], ast.Name) and node.targets[0].id == variable), None)
    if not isinstance(value, ast.Name):
        return None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == value.id:
                    return import_source(node, package), alias.name
    return None


@functools.lru_cache(maxsize=1024)
def module_reads(source: str, package: str, lazy: bool = True) -> tuple[frozenset[str], dict[str, tuple[str, ...]],
                                                                     dict[str, tuple[str, str]]]:
    """What a compute module's source imports (imported_names; without `lazy`, those its import runs), the files
    it declares, by variable (declared_checkpoints), and the declarations it takes from another module
    (declared_elsewhere). Remembered by source: the build's keys follow the same modules for every lesson."""
    tree = ast.parse(source)
    elsewhere = {v: ref for v in DECLARED if (ref := declared_elsewhere(tree, package, v))}
    return (frozenset(imported_names(tree, package, lazy)),
            {v: tuple(declared_checkpoints(tree, v)) for v in DECLARED}, elsewhere)


def declared_files(root: Path, path: Path, package: str) -> dict[str, tuple[str, ...]]:
    """The files a compute module declares, by variable, a declaration taken from another module included."""
    _, files, elsewhere = module_reads(path.read_text(encoding="utf-8"), package)
    files = dict(files)
    for variable, (module, name) in elsewhere.items():
        source = module_file(root, module)
        if source is not None:
            files[variable] = module_reads(source.read_text(encoding="utf-8"), module.rpartition(".")[0])[1].get(name, ())
    return files


def lesson_dependencies(root: Path, text: str) -> Dependencies:
    """What a lesson reads: its imported compute modules, their declared checkpoints, requirements.txt. A module
    an import names is followed through all its imports (lazy ones included: a function of it may run them); a
    package above it that no import names, through the imports its import runs (a function of it is not called)."""
    todo = []
    for cell in code_cells(text):
        try:
            todo += [(name, True) for name in imported_names(ast.parse(cell), PACKAGE)]
        except SyntaxError:
            continue  # the kernel will report it; nothing to follow
    followed: dict[str, bool] = {}          # module -> followed with its lazy imports
    seen: dict[str, Path] = {}
    checkpoints: set[Path] = set()
    data: set[Path] = set()
    while todo:
        mod, lazy = todo.pop()
        path = module_file(root, mod)
        if path is None or mod in followed and (followed[mod] or not lazy):
            continue
        followed[mod], seen[mod] = lazy, path
        todo += [(parent, False) for parent in with_parents(mod)[:-1]]
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        todo += [(name, True) for name in module_reads(path.read_text(encoding="utf-8"), package, lazy)[0]]
        files = declared_files(root, path, package)
        checkpoints.update(checkpoint_folder(root) / name for name in files["CHECKPOINT_FILES"])
        checkpoints.update(story_folder(root) / name for name in files["STORY_MODEL_FILES"])
        data.update(path.parent / name for name in files["DATA_FILES"])
    others = tuple(p for p in [root / "requirements.txt"] if p.is_file())
    return Dependencies(tuple(sorted(set(seen.values()))), tuple(sorted(checkpoints)), others, tuple(sorted(data)))


def checkpoint_name(root: Path, path: Path) -> str:
    """A checkpoint file as the stamp names it: its name, and 'story-models/' before it when it is read from a
    story-models folder other than the checkpoint folder (the same file in either is read by other lessons)."""
    return path.name if path.parent == checkpoint_folder(root) else f"story-models/{path.name}"


def stamp_hash(root: Path, text: str) -> str:
    """sha256 over the names and contents of everything the lesson `text` reads (a missing file counts too)."""
    deps = lesson_dependencies(root, text)
    h = hashlib.sha256()
    for kind, paths in (("module", deps.modules), ("checkpoint", deps.checkpoints), ("other", deps.others),
                        ("data", deps.data)):
        for path in paths:
            name = checkpoint_name(root, path) if kind == "checkpoint" else path.relative_to(root).as_posix()
            h.update(f"{kind}:{name}\0".encode())
            h.update(hashlib.sha256(path.read_bytes()).digest() if path.is_file() else b"missing")
    return h.hexdigest()


def tree_hash(root: Path) -> str:
    """sha256 over every file of compute (modules and their data) and of the checkpoint folder (the preflight's
    key)."""
    h = hashlib.sha256()
    files = sorted(p for p in (root / PACKAGE).rglob("*") if p.is_file()) if (root / PACKAGE).is_dir() else []
    for folder in dict.fromkeys((checkpoint_folder(root), story_folder(root))):
        files += sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []
        h.update(str(folder.resolve()).encode() + b"\0")
    for path in files:
        if "__pycache__" not in path.parts:
            h.update(str(path).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


# The stamp cell's second job: the sentences the lesson's Python wrote while it ran (compute.present.prose) were
# recorded under the kernel's pid; at the end they are filed under the page's name (sitebuild.prose.audit audits them).
# A lesson taken from the cache keeps the record of its last run.
PROSE_FILING = """import os as _os
_d = _os.environ.get("SITEBUILD_PROSE_DIR")
if _d:
    _k, _p = (_os.path.join(_d, _n) for _n in (f"kernel-{{_os.getpid()}}.jsonl", "{page}.jsonl"))
    _os.replace(_k, _p) if _os.path.exists(_k) else open(_p, "w").close()"""


def insert_stamp(text: str, stamp: str, page: str = "") -> str:
    """Return the MyST notebook `text` with a hidden stamp cell appended at its end (which, given the page's
    name, files the sentences its Python wrote: PROSE_FILING).

    At the end, the cell shifts no line of the lesson: warnings and errors name the lines an
    author sees in the .md file.
    """
    filing = "\n" + PROSE_FILING.format(page=page) if page else ""
    cell = f"```{{code-cell}} ipython3\n:tags: [remove-cell]\n{STAMP_PREFIX}{stamp}{filing}\n```\n"
    return text + ("" if text.endswith("\n") or not text else "\n") + "\n" + cell


def _is_lesson(docname: str, text: str) -> bool:
    return docname.startswith("posts/") and is_myst_markdown_notebook(text)


def stamped(root: Path, docname: str, text: str) -> tuple[str, str] | None:
    """A lesson's text as MyST-NB reads it, with its stamp cell, and the stamp; None for a page that is no lesson.
    (sitebuild.pages.ahead makes each lesson's notebook from it before Sphinx reads the lesson.)"""
    if not _is_lesson(docname, text):
        return None
    stamp = stamp_hash(root, text)
    return insert_stamp(text, stamp, docname.split("/")[-1]), stamp


def _on_source_read(app, docname: str, source: list[str]) -> None:
    lesson = stamped(Path(app.srcdir), docname, source[0])
    if lesson is not None:
        source[0], app.env.compute_stamps[docname] = lesson


def _on_env_get_outdated(app, env, added, changed, removed) -> list[str]:
    """Lessons whose stamp changed since they were read: their files may not have, what they read has."""
    stale = []
    for docname, stamp in env.compute_stamps.items():
        path = Path(env.doc2path(docname))
        if docname in removed or not path.is_file():
            continue
        if stamp_hash(Path(app.srcdir), path.read_text(encoding="utf-8")) != stamp:
            stale.append(docname)
    return stale


def _on_builder_inited(app) -> None:
    if not hasattr(app.env, "compute_stamps"):
        app.env.compute_stamps = {}


def _on_purge(app, env, docname: str) -> None:
    env.compute_stamps.pop(docname, None)


def _on_merge(app, env, docnames, other) -> None:
    env.compute_stamps.update({d: other.compute_stamps[d] for d in docnames if d in other.compute_stamps})


def setup(app):
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-get-outdated", _on_env_get_outdated)
    app.connect("env-purge-doc", _on_purge)
    app.connect("env-merge-info", _on_merge)
    app.connect("source-read", _on_source_read)
    return {"version": "2.0", "env_version": 2, "parallel_read_safe": True, "parallel_write_safe": True}
