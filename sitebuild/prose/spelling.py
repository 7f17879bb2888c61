"""One value, one spelling: a value printed in more than one place prints to the same precision everywhere.

Within a page: a glued value ({glue:text}`name:spec`) prints through its format spec. The same value printed as 0.95 in one
sentence and 0.953 in another reads as two numbers; printed as 95.3% and as 0.953 it reads as one (the same
digits), so a percentage counts two more decimals than it shows. A spec without a precision ("", "d", ",") prints
the value as it is and agrees only with itself.

Across the site: a number the lessons' Python prints (a table cell, a caption, an answer, a figure's words:
compute.present.numbers.shown) is recorded with its unrounded value, its spec and where it was printed; a glued
value prints with its page's spec. The same unrounded value printed to two precisions anywhere on the site (a
page and a table, two lessons) is one value spelled two ways, and stops the build naming both places. A value
that both precisions print exactly (0.5 as 0.5 and 0.50) and whole numbers are left out: they print alike.
"""
from __future__ import annotations

import json
import re
from ast import literal_eval
from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

GLUE = re.compile(r"\{glue(?::text)?\}`(?P<name>[\w.-]+)(?::(?P<spec>[^`]*))?`")
PRECISION = re.compile(r"\.(?P<digits>\d+)(?P<kind>[a-zA-Z%]?)$")


def spelling(spec: str) -> str:
    """What a spec says about the printed digits: 'decimals 3' for .3f and .1%, else the spec itself."""
    m = PRECISION.search(spec or "")
    if not m or m.group("kind") not in ("f", "%", ""):
        return f"spec {spec!r}"
    return f"decimals {int(m.group('digits')) + (2 if m.group('kind') == '%' else 0)}"


def glue_uses(text: str) -> dict[str, list[tuple[int, str]]]:
    """{glue name: [(line, spec), ...]} of a page, in order."""
    uses: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for m in GLUE.finditer(text):
        uses[m.group("name")].append((text.count("\n", 0, m.start()) + 1, m.group("spec") or ""))
    return uses


def two_spellings(path: str, text: str) -> list[str]:
    """One line per value the page prints to two precisions: the page, both lines and both specs."""
    out = []
    for name, uses in glue_uses(text).items():
        first_line, first_spec = uses[0]
        for line, spec in uses[1:]:
            if spelling(spec) != spelling(first_spec):
                out.append(f"{path}, line {line}: {name!r} is printed as {{glue:text}}`{name}:{spec}` here and as "
                           f"{{glue:text}}`{name}:{first_spec}` at line {first_line}: one value, one spelling")
                break
    return out


def site_spellings(root: Path, pages: list[Path]) -> list[str]:
    return [line for p in pages
            for line in two_spellings(p.relative_to(root).as_posix(), p.read_text(encoding="utf-8", errors="replace"))]


def glued_values(build_dir: Path, stem: str) -> dict[str, str]:
    """key -> text/plain of every value the lesson's last run glued (MyST-NB's record of it)."""
    path = build_dir / "jupyter_execute" / "posts" / f"{stem}.glue.json"
    if not path.is_file():
        return {}
    return {key: out["data"]["text/plain"] for key, out in json.loads(path.read_text(encoding="utf-8")).items()
            if "text/plain" in out.get("data", {})}


@dataclass(frozen=True)
class Printing:
    value: float      # the number before it was rounded
    spec: str         # the format it printed with
    glued: bool       # a page's glued value (prose), or a number Python printed (a sentence, a table, a figure)
    where: str        # 'posts/x.md, line 12 (glue s08_d_v)' or 'compute/lessons/x/y.py, line 40'


def glue_printings(root: Path, build_dir: Path, stem: str) -> list[Printing]:
    """Each glued number a lesson page prints, with the spec the page prints it with."""
    values = glued_values(build_dir, stem)
    page = f"posts/{stem}.md"
    out = []
    for name, uses in glue_uses((root / page).read_text(encoding="utf-8")).items():
        try:
            value = literal_eval(values.get(name, "None"))
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, float):
            out += [Printing(value, spec, True, f"{page}, line {line} ({{glue:text}}`{name}:{spec}`)") for line, spec in uses]
    return out


def python_printings(build_dir: Path, stem: str) -> list[Printing]:
    """Each number a lesson's Python printed at its last run (compute.present.prose.printed)."""
    from sitebuild.pages.sphinx import PROSE
    path = build_dir / PROSE / f"{stem}.jsonl"
    if not path.is_file():
        return []
    records = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return list(dict.fromkeys(Printing(r["value"], r["spec"], False, r["where"]) for r in records if "value" in r))


def honest_format(value: float, spec: str) -> str:
    """The site's own printing of a number (compute.present.numbers), imported when a build has run lessons."""
    from compute.present.numbers import honest_format as printing
    return printing(value, spec)


def decimals(spec: str) -> int | None:
    """The decimals a spec shows, as a fraction (.1% shows 3): None for a spec without a precision."""
    said = spelling(spec)
    return int(said.split()[1]) if said.startswith("decimals") else None


def exact_at(value: float, places: int | None) -> bool:
    """Whether `places` decimals print `value` exactly (0.25 at 2 or more); None: the shortest repr's decimals."""
    return places is not None and round(value, places) == value


def as_reader_rounds(value: float, fine: str, coarse: str) -> str:
    """What a reader gets rounding the `fine` print of `value` to the `coarse` spec's precision (half up), printed
    as the coarse spec prints."""
    shown = format(value, fine)
    digits = Decimal(shown.rstrip("%").replace(",", "")) / (100 if shown.endswith("%") else 1)
    places = decimals(coarse) - (2 if coarse.endswith("%") else 0)
    rounded = (digits * (100 if coarse.endswith("%") else 1)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    return format(rounded, coarse[:-1] + "f") + "%" if coarse.endswith("%") else format(rounded, coarse)


def disagree(value: float, a: Printing, b: Printing) -> bool:
    """Whether two prints of one value disagree: two glued prose values in different spellings, or a coarser print
    that is not what a reader gets rounding the finer one (0.445 beside 0.44)."""
    if value.is_integer() or spelling(a.spec) == spelling(b.spec):
        return False
    da, db = decimals(a.spec), decimals(b.spec)
    if da is None or db is None:
        return not exact_at(value, da if db is None else db)
    if exact_at(value, min(da, db)):
        return False      # both print the value exactly (0.25 and 0.250): most likely two quantities that agree
    if a.glued and b.glued:
        return True
    fine, coarse = (a, b) if da > db else (b, a)
    if honest_format(value, fine.spec) != format(value, fine.spec) or \
            honest_format(value, coarse.spec) != format(value, coarse.spec):
        return False      # a print the site widened or bounded (0.0004, <0.0001): no rounding to compare
    return as_reader_rounds(value, fine.spec, coarse.spec) != format(value, coarse.spec)


def value_spellings(printings: list[Printing]) -> list[str]:
    """One line per value printed in ways that disagree: the value, both places and both specs."""
    by_value: dict[float, list[Printing]] = defaultdict(list)
    for p in printings:
        by_value[p.value].append(p)
    out = []
    for value, ps in by_value.items():
        pair = next(((a, b) for i, a in enumerate(ps) for b in ps[i + 1:] if disagree(value, a, b)), None)
        if pair:
            first, other = pair
            out.append(f"{other.where}: the value {value!r} prints as {honest_format(value, other.spec)!r} here and "
                       f"as {honest_format(value, first.spec)!r} at {first.where}: one value, one spelling")
    return out


def site_value_spellings(root: Path, build_dir: Path, stems: list[str]) -> list[str]:
    """The values the site prints to two precisions, anywhere across its lessons (glued and Python-printed)."""
    return value_spellings([p for stem in stems
                            for p in glue_printings(root, build_dir, stem) + python_printings(build_dir, stem)])
