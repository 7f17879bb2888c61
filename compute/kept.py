"""Results kept on disk between processes, under a key of everything they were computed from.

The build, a downloaded notebook's run and the tests each measured Part III's models again: the corpus takes
about 15 s to generate, one model's pass over the validation stories about 5 s, and every process that needed
them paid. A function decorated with `@kept(...)` is computed once per key and read back after, in any process:

    key = sha256(the function's name and arguments,
                 the source of its module and of every compute module it imports, followed through their
                 imports (lazy ones included; of a package that is only a parent, its top-level imports),
                 with the data files those modules declare (DATA_FILES),
                 the bytes of the files the call reads (`reads`: a checkpoint's safetensors and manifest),
                 the versions of Python, torch and numpy)

so an edited module, checkpoint or library misses and computes afresh. Processes that want one result at once
take turns (a lock file per function and arguments): one computes, the others read what it wrote. Entries live
in _build/results/ beside compute/ (COMPUTE_RESULTS=<folder> chooses another, COMPUTE_RESULTS=off keeps
nothing); the newest KEEP per function and arguments stay, older ones are removed. A folder that cannot be
written keeps nothing and computes as before.
"""
from __future__ import annotations

import ast
import contextlib
import fcntl
import functools
import gc
import hashlib
import inspect
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

PACKAGE = "compute"
ROOT = Path(__file__).resolve().parent.parent       # the folder that holds compute/
VARIABLE = "COMPUTE_RESULTS"
KEEP = 3                                            # entries kept per function and arguments


def results_folder() -> Path | None:
    """Where kept results live; None when COMPUTE_RESULTS=off."""
    value = os.environ.get(VARIABLE, "")
    if value == "off":
        return None
    return Path(value) if value else ROOT / "_build" / "results"


def module_path(name: str, root: Path = ROOT) -> Path | None:
    """compute.a.b -> compute/a/b.py or compute/a/b/__init__.py under root, if either exists."""
    base = root.joinpath(*name.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def _statements(tree: ast.AST, lazy: bool) -> Iterator[ast.AST]:
    """Every node of the tree; without `lazy`, none inside a function (what importing the module runs)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if lazy or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def named_modules(tree: ast.AST, package: str, lazy: bool = True, root: Path = ROOT) -> set[str]:
    """The compute modules a module's import statements name, relative ones resolved against its `package`
    (`from pkg import f` names pkg; `from pkg import module` names pkg.module)."""
    out: set[str] = set()
    for node in _statements(tree, lazy):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            modules = [f"{base}.{a.name}" for a in node.names if module_path(f"{base}.{a.name}", root)]
            out.update(modules)
            if len(modules) < len(node.names):
                out.add(base)
    return {n for n in out if n.split(".")[0] == PACKAGE}


def source_files(module: str, root: Path = ROOT) -> list[Path]:
    """The files whose contents decide what `module`'s functions compute: its own, every compute module it
    imports (followed through their imports), the packages above them (their top-level imports followed),
    and the data files those modules declare in a module-level DATA_FILES = (...)."""
    followed: dict[str, bool] = {}          # module -> followed with its lazy imports
    todo = [(module, True)]
    files: set[Path] = set()
    while todo:
        name, lazy = todo.pop()
        path = module_path(name, root)
        if path is None or name in followed and (followed[name] or not lazy):
            continue
        followed[name] = lazy
        files.add(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        parents = name.split(".")
        todo += [(".".join(parents[:k]), False) for k in range(1, len(parents))]
        todo += [(n, True) for n in named_modules(tree, package, lazy, root)]
        files.update(path.parent / f for f in declared_files(tree))
    return sorted(files)


def declared_files(tree: ast.Module) -> list[str]:
    """The names in a module-level DATA_FILES = ("...", ...)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["DATA_FILES"]:
            return list(ast.literal_eval(node.value))
    return []


def _file_digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest() if path.is_file() else b"missing"


@functools.lru_cache(maxsize=None)
def source_digest(module: str) -> str:
    """sha256 over the names and contents of source_files(module), and the versions that shape results."""
    import numpy
    import torch
    h = hashlib.sha256(f"{sys.version}\0{torch.__version__}\0{numpy.__version__}\0".encode())
    for path in source_files(module):
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + _file_digest(path))
    return h.hexdigest()


def call_key(fn: Callable, arguments: dict, reads: Iterable[Path]) -> tuple[str, str]:
    """(slot, key): the slot names the function and its arguments; the key adds everything else it depends on."""
    slot_hash = hashlib.sha256(f"{fn.__module__}.{fn.__qualname__}{sorted(arguments.items())!r}".encode())
    slot = f"{fn.__qualname__}-{slot_hash.hexdigest()[:12]}"
    h = hashlib.sha256(f"{slot}\0{source_digest(fn.__module__)}\0".encode())
    for path in reads:
        h.update(f"{Path(path).name}\0".encode() + _file_digest(Path(path)))
    return slot, h.hexdigest()[:24]


def kept(reads: Callable[..., Iterable[Path]] | None = None):
    """Decorate a function whose result is kept on disk under call_key; `reads(*args, **kwargs)` lists the
    files a call reads besides compute's source (a checkpoint's files). Its arguments must have a stable repr
    (strings, numbers, tuples of them) and its result must pickle."""
    def decorate(fn):
        signature = inspect.signature(fn)

        def slot_and_key(args, kwargs) -> tuple[str, str]:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return call_key(fn, bound.arguments, reads(*bound.args, **bound.kwargs) if reads else ())

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            folder = results_folder()
            if folder is None:
                return fn(*args, **kwargs)
            return _kept_call(folder, *slot_and_key(args, kwargs), lambda: fn(*args, **kwargs))

        def ensure(*args, **kwargs) -> None:
            """Compute and keep the call's result unless it is kept already; nothing is read back (a process that
            only prepares it for others: sitebuild.preflight.run's warm-ups)."""
            folder = results_folder()
            if folder is None:
                return
            slot, key = slot_and_key(args, kwargs)
            if not (folder / f"{slot}-{key}.pkl").is_file():
                _kept_call(folder, slot, key, lambda: fn(*args, **kwargs))

        wrapper.uncached, wrapper.ensure = fn, ensure
        return wrapper
    return decorate


@contextlib.contextmanager
def _collector_paused():
    """Python's cycle collector off while a pickle of millions of small objects (the corpus) is read: it would
    walk them again and again as they are made (measured: the corpus reads in 1.3 s instead of 3.4 s)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _read(path: Path):
    """(value, True) for a readable entry, else (None, False). Entries are pickles this project wrote into its
    own build folder, trusted as the rest of _build/ is (a folder from elsewhere is never read)."""
    try:
        with open(path, "rb") as f, _collector_paused():
            value = pickle.load(f)
    except Exception:                            # absent, cut short or from other code: compute it again
        return None, False
    try:
        os.utime(path)                           # recently used: pruned last
    except OSError:
        pass
    return value, True


def _kept_call(folder: Path, slot: str, key: str, compute: Callable[[], object]):
    path = folder / f"{slot}-{key}.pkl"
    value, found = _read(path)
    if found:
        return value
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / f"{slot}.lock", "a")
    except OSError:
        return compute()                         # nowhere to keep it
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)         # released when the file closes, or the process ends
        value, found = _read(path)               # another process may have computed it meanwhile
        if found:
            return value
        value = compute()
        _write(path, value)
        _prune(folder, slot)
    return value


def _write(path: Path, value: object) -> None:
    """Write atomically: a reader sees the whole entry or none."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass


def _prune(folder: Path, slot: str) -> None:
    """Keep the KEEP most recently used entries of a slot."""
    def used(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0
    for old in sorted(folder.glob(f"{slot}-*.pkl"), key=used, reverse=True)[KEEP:]:
        old.unlink(missing_ok=True)
