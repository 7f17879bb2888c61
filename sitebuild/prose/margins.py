"""How far each claim is from failing, as the lessons' last runs found it: the build's list of fragile claims.

While a lesson runs for the site, compute.claims records each claim it checks with its outcome and margin (the
share of its threshold its numbers have to spare) in the page's record (`<build>/prose/<page>.jsonl`). The
summary says how many claims state a margin and names every one within compute.claims.FRAGILE of failing, so
that an author sees a claim a retrain could flip before it flips.
"""
from __future__ import annotations

import json
from pathlib import Path

FRAGILE = 0.1    # as compute.claims.FRAGILE (a project's compute may have none)


def claim_margins(build_dir: Path, stems: list[str]) -> dict[str, float | None]:
    """{claim: margin (None: stated by no check)} of every claim the lessons' last runs checked."""
    from sitebuild.pages.sphinx import PROSE
    out: dict[str, float | None] = {}
    for stem in stems:
        path = build_dir / PROSE / f"{stem}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines() if path.is_file() else ():
            record = json.loads(line)
            if "claim" in record and record.get("applies", True):
                out[record["claim"]] = record.get("margin")
    return out


def margins_line(margins: dict[str, float | None], as_data: int | None = None) -> str:
    """The summary's line: how many claims state their margin (and, where compute says, their relation as data:
    compute.says), and those within FRAGILE of failing."""
    stated = {name: m for name, m in margins.items() if m is not None}
    fragile = sorted((m, name) for name, m in stated.items() if m < FRAGILE)
    listed = ", ".join(f"{name} ({m:.1%})" for m, name in fragile) or "none"
    data = f", {as_data} their relation as data" if as_data is not None else ""
    return (f"{len(stated)} of {len(margins)} claims checked state their margin{data} (each in "
            f"<build>/{MARGINS_FILE}); within {FRAGILE:.0%} of failing: {listed}")


MARGINS_FILE = "claim-margins.txt"   # in the build folder: every claim's margin, one a line


def write_margins(build_dir: Path, margins: dict[str, float | None]) -> Path:
    """Every claim the lessons' last runs checked, with its margin (the least first; '-' for an exact check, which
    has none), one a line, to the build folder's MARGINS_FILE; the summary names the file."""
    ordered = sorted(margins.items(), key=lambda item: (item[1] is None, item[1] if item[1] is not None else 0, item[0]))
    width = max((len(name) for name in margins), default=0)
    lines = [f"{name:<{width}}  {'-' if m is None else f'{m:.1%}'}" for name, m in ordered]
    path = build_dir / MARGINS_FILE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def claims_as_data() -> int | None:
    """How many claims state their relation as data (compute.checks.claim_says); None in a project without."""
    from sitebuild.computechecks import compute_checks
    checks = compute_checks()
    return len(checks.claim_says()) if hasattr(checks, "claim_says") else None
