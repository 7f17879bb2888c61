"""The seed-search record read against the checkpoints: the lesson's pattern, a seed's entry, and where an entry
disagrees with the claims and attention recomputed from its checkpoint (for page_claims.py)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ...data.walkthrough import answer_rows
from ...published.walkthrough import Walkthrough
from .selection import FALL, RISE, WALKTHROUGH


def lesson_pattern() -> str:
    """The lesson's pattern as the record's pattern counts name it: "5 → rise, 13 → fall"."""
    return ", ".join(f"{row} → {word}" for row, word in zip(answer_rows(), (RISE, FALL)))


def entry_of(record: dict, seed: int) -> dict | None:
    """The record's entry for a seed (None where it has none)."""
    return next((e for e in record["entries"] if e["seed"] == seed), None)


def disagreements(entry: dict | None, model: Walkthrough, page_failing: Callable[[Walkthrough], set[str]]
                  ) -> list[str]:
    """Where a record entry and the claims and attention recomputed from its checkpoint disagree (the page's
    claims on the model too, where the entry records them: `page_failing` gives the names of those that fail)."""
    if entry is None:
        return ["no entry"]
    seed, problems = entry["seed"], []
    failing = {c.name for c, o in WALKTHROUGH.check_all(model) if not o.holds}
    if set(entry["failed_claims"]) != failing:
        problems.append(f"seed {seed}: recorded failed claims {sorted(entry['failed_claims'])}, now {sorted(failing)}")
    if "failed_page_claims" in entry:
        failing = page_failing(model)
        if set(entry["failed_page_claims"]) != failing:
            problems.append(f"seed {seed}: recorded failed page claims {sorted(entry['failed_page_claims'])}, "
                            f"now {sorted(failing)}")
    for row in answer_rows():
        rec, a = entry["rows"][str(row)], model["A"][row]
        top = int(np.argmax(a))
        if rec["position"] != top or rec["word"] != model.tokens[top] or abs(rec["weight"] - a[top]) > 1e-6:
            problems.append(f"seed {seed} row {row}: recorded {rec}, now position {top} weight {a[top]:.6f}")
    return problems
