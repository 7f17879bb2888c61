"""The package's shape: every module says its job in its first line, stays small, and imports without cycles;
claims and states never reach into presentation."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from conftest import ROOT

MODULES = sorted([*(ROOT / "compute").rglob("*.py"), *(ROOT / "sitebuild").rglob("*.py")])


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=None)
def module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


@functools.lru_cache(maxsize=None)
def imports(path: Path) -> frozenset[str]:
    """The project modules a file imports, anywhere in it (lazy imports included)."""
    return frozenset(imports_in(ast.parse(path.read_text()), path))


def imports_in(tree: ast.Module, path: Path) -> set[str]:
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            subs = [f"{base}.{a.name}" for a in node.names if module_path(f"{base}.{a.name}")]
            out.update(subs if len(subs) == len(node.names) else [base, *subs])
    return {n for n in out if module_path(n) and n.split(".")[0] in ("compute", "sitebuild")}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_module_opens_with_its_job_and_stays_small(path):
    doc = ast.get_docstring(ast.parse(path.read_text()))
    assert doc and doc.splitlines()[0].strip(), "no opening line saying what the module is for"
    assert len(path.read_text().splitlines()) <= 400


def test_no_import_cycles():
    graph = import_graph()
    done, on_path = set(), []

    def visit(name):
        if name in on_path:
            raise AssertionError("import cycle: " + " -> ".join(on_path[on_path.index(name):] + [name]))
        if name in done:
            return
        on_path.append(name)
        for other in sorted(graph.get(name, ())):
            visit(other)
        on_path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)


def test_claims_and_states_never_import_presentation():
    checked = [*(ROOT / "compute" / "lessons").glob("*/claims.py"), *(ROOT / "compute" / "lessons").glob("*/states/*.py")]
    assert checked
    for path in checked:
        text = path.read_text()
        bad = [n for n in imports(path) if n.startswith("compute.present")] + (["plotly"] if "plotly" in text else [])
        assert not bad, f"{path.relative_to(ROOT)} imports presentation: {bad}"


# --- packages, transitively ---------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def import_graph() -> dict[str, frozenset[str]]:
    """Every project module -> the project modules it imports (made when a test first asks, not as the tests are
    collected: every worker of a parallel run collects this file)."""
    return {module_name(p): imports(p) for p in MODULES}


ABOVE_LESSONS = ("compute.cli", "compute.checks", "compute.__main__", "compute.commands")  # commands, claim registry


def reach(name: str, graph: dict[str, set[str]] | None = None) -> set[str]:
    """Every node `name` leads to in `graph` (default: every project module that importing `name` can run,
    through any chain of imports, lazy ones too)."""
    graph = import_graph() if graph is None else graph
    seen, todo = set(), [name]
    while todo:
        for other in graph.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def top_package(name: str) -> str:
    """compute.lessons.story.states.heads -> compute.lessons; compute.store -> compute.store."""
    return ".".join(name.split(".")[:2])


def test_nothing_below_the_lessons_imports_a_lesson():
    """Training, export, measurement, the published layer and every other package reach no lesson module, through
    any chain of imports; only the commands and the claim registry sit above the lessons."""
    below = [n for n in import_graph() if n.startswith("compute") and not n.startswith("compute.lessons")
             and top_package(n) not in ABOVE_LESSONS and n != "compute"]
    assert "compute.published.story" in below and "compute.training.seedsearch" in below
    bad = {n: sorted(m for m in reach(n) if m.startswith("compute.lessons"))[:3] for n in below}
    assert {n: m for n, m in bad.items() if m} == {}


def test_packages_import_without_cycles():
    """compute's packages (compute.data, compute.published, compute.lessons, ...) form no cycle."""
    packages: dict[str, set[str]] = {}
    for name, deps in import_graph().items():
        if name.startswith("compute.") and top_package(name) not in ABOVE_LESSONS:
            packages.setdefault(top_package(name), set()).update(
                top_package(d) for d in deps if d.startswith("compute.") and top_package(d) not in ABOVE_LESSONS)
    for package, deps in packages.items():
        deps.discard(package)
    cycles = [(a, b) for a in packages for b in packages[a] if a in reach(b, packages)]
    assert cycles == []



@functools.lru_cache(maxsize=None)  # a file's imports, read once for every module that reaches it
def third_party(path: Path) -> frozenset[str]:
    """The top-level names of what a file imports (plotly, numpy, ...)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return frozenset(out)


@functools.lru_cache(maxsize=None)  # a file's imports, read once for every module that reaches it
def runtime_imports(path: Path) -> frozenset[str]:
    """The project modules a file imports when it runs: those under `if TYPE_CHECKING:` left out."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    return frozenset(imports_in(tree, path))


@functools.lru_cache(maxsize=None)  # a file's imports, read once for every module that reaches it
def import_time_imports(path: Path) -> frozenset[str]:
    """The project modules a file imports as it is imported: not those inside functions or TYPE_CHECKING."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            node.body = [] if not isinstance(node, ast.Lambda) else ast.Constant(None)
        elif isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    return frozenset(imports_in(tree, path))


def runtime_reach(name: str) -> set[str]:
    """Every module that importing `name` and calling into it can run: what it imports (lazily too), in turn,
    and the packages that hold each of them, with what those import as they are imported."""
    seen, todo = set(), [(name, False)]
    while todo:
        current, as_package = todo.pop()
        path = module_path(current)
        parts = current.split(".")
        deps = import_time_imports(path) if as_package else runtime_imports(path)
        for other, package in [*((d, False) for d in deps),
                               *((".".join(parts[:k]), True) for k in range(1, len(parts)))]:
            if other not in seen and module_path(other):
                seen.add(other)
                todo.append((other, package))
    return seen


def test_claims_and_states_never_reach_presentation_through_a_helper():
    """A lesson's claims and states import neither compute.present nor plotly when they run, directly, through
    any module they import, or through the packages that hold them."""
    checked = [*(ROOT / "compute" / "lessons").glob("*/claims*.py"),
               *(ROOT / "compute" / "lessons").glob("*/states/*.py")]
    assert len(checked) > 5
    for path in checked:
        reached = runtime_reach(module_name(path)) | {module_name(path)}
        bad = sorted(n for n in reached if n.startswith("compute.present")
                     or "plotly" in third_party(module_path(n)))
        assert not bad, f"{path.relative_to(ROOT)} reaches presentation through {bad}"
