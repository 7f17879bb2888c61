"""Everything the build checks before any lesson runs: each lesson package's claims and preflight()."""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from . import lessons


def lesson_packages() -> list[ModuleType]:
    """The lesson packages under compute/lessons, imported, by name."""
    names = sorted(m.name for m in pkgutil.iter_modules(lessons.__path__) if m.ispkg)
    return [importlib.import_module(f"{lessons.__name__}.{name}") for name in names]


def claim_results() -> list[tuple[str, list]]:
    """Every lesson's claims with their outcomes, under a heading naming what they were checked on."""
    return [r for package in lesson_packages() if hasattr(package, "claim_results") for r in package.claim_results()]


def preflight() -> None:
    """Raise CheckpointError or ClaimError (one line each) unless every lesson can be built."""
    for package in lesson_packages():
        if hasattr(package, "preflight"):
            package.preflight()
