"""One value, one spelling: a value a page glues in more than one place prints to the same precision everywhere.

A glued value ({glue:text}`name:spec`) prints through its format spec. The same value printed as 0.95 in one
sentence and 0.953 in another reads as two numbers; printed as 95.3% and as 0.953 it reads as one (the same
digits), so a percentage counts two more decimals than it shows. A spec without a precision ("", "d", ",") prints
the value as it is and agrees only with itself.
"""
from __future__ import annotations

import re
from collections import defaultdict
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
