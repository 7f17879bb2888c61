"""The lessons, read from their records (each package's LESSON): the list in order, their claims, their
preflight() and their files for the site."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace
from types import ModuleType

from . import lessons
from .lessons.record import Lesson


def lesson_names() -> list[str]:
    """The lesson packages under compute/lessons, by name ("byhand", "story", ...)."""
    return sorted(m.name for m in pkgutil.iter_modules(lessons.__path__) if m.ispkg)


def lesson_packages(names: list[str] | None = None) -> list[ModuleType]:
    """The lesson packages called `names` (default: all), imported."""
    return [importlib.import_module(f"{lessons.__name__}.{name}") for name in names or lesson_names()]


def lesson_records(names: list[str] | None = None) -> list[Lesson]:
    """The records of the lesson packages called `names` (default: all), in the order the site lists them;
    ValueError naming a package without one, or two records with one page or place."""
    records = []
    for package in lesson_packages(names):
        record = getattr(package, "LESSON", None)
        if not isinstance(record, Lesson):
            raise ValueError(f"{package.__name__} declares no LESSON = Lesson(...) in its __init__.py")
        records.append(replace(record, package=package.__name__.rpartition(".")[2]))
    for field in ("page", "order"):
        values = [getattr(r, field) for r in records]
        twice = sorted({v for v in values if values.count(v) > 1}, key=str)
        if twice:
            raise ValueError(f"two lessons declare the same {field}: {', '.join(map(str, twice))}")
    return sorted(records, key=lambda r: r.order)


def lesson_pages() -> list[str]:
    """Every lesson's page stem, in the site's order."""
    return [r.page for r in lesson_records()]


def claim_results(names: list[str] | None = None) -> list[tuple[str, list]]:
    """The lessons' claims with their outcomes, under a heading naming what they were checked on."""
    return [r for record in lesson_records(names) for r in record.claim_results()]


def claim_lessons(names: list[str] | None = None) -> dict[str, str]:
    """{claim name: lesson} for every claim of the lessons (default: all); a name is one claim site-wide."""
    return {claim: lesson for claim, (lesson, _) in _claims(names).items()}


def claim_statements(names: list[str] | None = None) -> dict[str, str]:
    """{claim name: its statement}: what each claim of the lessons (default: all) says it checks."""
    return {claim: statement for claim, (_, statement) in _claims(names).items()}


def claim_strengths(names: list[str] | None = None) -> dict[str, list[str]]:
    """{claim name: the words of strength it checks at their limits} (compute.strength) for every claim of the
    lessons (default: all)."""
    return {claim: [w.word for w in record.strengths] for _, registry in _registries(names)
            for claim, record in registry.claims.items()}


def claim_says(names: list[str] | None = None) -> dict[str, list[dict]]:
    """{claim name: what it states, as data (compute.says)} for every claim of the lessons (default: all) that
    states it so."""
    return {claim: [s.as_data() for s in record.says] for _, registry in _registries(names)
            for claim, record in registry.claims.items() if record.says}


def claim_conditions(names: list[str] | None = None) -> dict[str, str]:
    """{claim name: the condition it needs} for every claim of the lessons (default: all) that needs one
    (compute.conditions): its sentences sit in the page's `{only} <condition>` blocks."""
    return {claim: record.only.name for _, registry in _registries(names) for claim, record in registry.claims.items()
            if record.only}


def _registries(names: list[str] | None):
    """(lesson, registry) for every claims registry of the lessons (default: all)."""
    from .claims import Registry
    for name in names or lesson_names():
        try:
            module = importlib.import_module(f"{lessons.__name__}.{name}.claims")
        except ModuleNotFoundError as exc:
            if exc.name == f"{lessons.__name__}.{name}.claims":
                continue
            raise
        yield from ((name, v) for v in vars(module).values() if isinstance(v, Registry))


def _claims(names: list[str] | None = None) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for name, registry in _registries(names):
        for claim, record in registry.claims.items():
            if claim in out:
                raise ValueError(f"claim {claim!r} is defined by two lessons, {out[claim][0]} and {name}")
            out[claim] = (name, record.statement)
    return out


# Measurements several lessons' checks read, independent of one another, each kept on disk (compute.kept): the
# build computes them side by side before the checks (sitebuild.preflight.run), each in a process of its own, and
# the checks read them back. The two story corpora take about 15 s each to generate; then Part III's measurements
# from the end of its page back (compute.lessons.story.states.warm), beside Part III's own run, which reads them
# there. Python statements, not imports: what they import is no part of a lesson's key
# (sitebuild.preflight.run.lesson_key).
WARM_UPS = (
    "from compute.published.corpus import generated_corpus\ngenerated_corpus.ensure()",
    "from compute.conditions import GENERATED_STORIES\nfrom compute.published.corpus import generated_corpus\n"
    "if GENERATED_STORIES.holds():\n    generated_corpus.ensure(relations=True)",
    "from compute.lessons.story.states import warm\nwarm.late_measurements()",
    "from compute.lessons.story.states import warm\nwarm.every_models_samples()",
)


def preflight(names: list[str] | None = None) -> None:
    """Raise CheckpointError or ClaimError (one line each) unless the lessons (default: all) can be built."""
    for record in lesson_records(names):
        record.preflight()


def site_files() -> dict[str, bytes]:
    """Every lesson's files for the site itself (paths relative to the site's root)."""
    out: dict[str, bytes] = {}
    for record in lesson_records():
        out.update(record.site_files())
    return out
