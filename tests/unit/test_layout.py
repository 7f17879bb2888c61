"""The package's shape: every module says its job in its first line, stays small, and imports without cycles;
claims and states never reach into presentation."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import ROOT

MODULES = sorted([*(ROOT / "compute").rglob("*.py"), *(ROOT / "sitebuild").rglob("*.py")])


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def imports(path: Path) -> set[str]:
    """The project modules a file imports, anywhere in it (lazy imports included)."""
    tree = ast.parse(path.read_text())
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
    graph = {module_name(p): imports(p) for p in MODULES}
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
