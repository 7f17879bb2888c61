"""What the build asks of every lesson package: its claims, its preflight() and its files for the site."""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from . import lessons


def lesson_names() -> list[str]:
    """The lesson packages under compute/lessons, by name ("byhand", "story", ...)."""
    return sorted(m.name for m in pkgutil.iter_modules(lessons.__path__) if m.ispkg)


def lesson_packages(names: list[str] | None = None) -> list[ModuleType]:
    """The lesson packages called `names` (default: all), imported."""
    return [importlib.import_module(f"{lessons.__name__}.{name}") for name in names or lesson_names()]


def claim_results(names: list[str] | None = None) -> list[tuple[str, list]]:
    """The lessons' claims with their outcomes, under a heading naming what they were checked on."""
    return [r for package in lesson_packages(names) if hasattr(package, "claim_results")
            for r in package.claim_results()]


def claim_lessons(names: list[str] | None = None) -> dict[str, str]:
    """{claim name: lesson} for every claim of the lessons (default: all); a name is one claim site-wide."""
    from .claims import Registry
    out: dict[str, str] = {}
    for name in names or lesson_names():
        try:
            module = importlib.import_module(f"{lessons.__name__}.{name}.claims")
        except ModuleNotFoundError as exc:
            if exc.name == f"{lessons.__name__}.{name}.claims":
                continue
            raise
        for registry in (v for v in vars(module).values() if isinstance(v, Registry)):
            for claim in registry.claims:
                if claim in out:
                    raise ValueError(f"claim {claim!r} is defined by two lessons, {out[claim]} and {name}")
                out[claim] = name
    return out


def preflight(names: list[str] | None = None) -> None:
    """Raise CheckpointError or ClaimError (one line each) unless the lessons (default: all) can be built."""
    for package in lesson_packages(names):
        if hasattr(package, "preflight"):
            package.preflight()


def site_files() -> dict[str, bytes]:
    """Every lesson's files for the site itself (paths relative to the site's root)."""
    out: dict[str, bytes] = {}
    for package in lesson_packages():
        if hasattr(package, "site_files"):
            out.update(package.site_files())
    return out
