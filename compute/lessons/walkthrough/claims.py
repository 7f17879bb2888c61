"""The trained walkthrough's claims: each a sentence of the lesson, checked on the published checkpoint.

Two registries, each a claim per sentence it backs:

* WALKTHROUGH (selection.py), the selection claims: what a model must show for
  the lesson to be told about it. The seed search checks them on every seed it
  trains and publishes the first seed that passes them all.
* PAGE (page_claims.py), the page's further sentences about the published
  checkpoint, its training run, the training data, the alternative seed and the
  seed-search record.

require_all checks both; check_all is the selection claims only (as the seed search
and `compute train` use it), check_page the page's.
"""
from __future__ import annotations

from ...claims import Claim, ClaimError, Outcome
from .page_claims import ANSWER_CLAIMS, CONVERGENCE_CLAIMS, PAGE
from ...published.walkthrough import Walkthrough
from .selection import (COIN_FLIP, CUE_FALL, CUE_RISE, DOMINANT, FALL, FAST, LOSS_CEILING, RISE, ROW_FAST, ROW_SLOW,
                        SLOW, SURE, WALKTHROUGH, coin_flip_positions, cue_key_coordinate, cue_value_coordinate,
                        mean_loss)

__all__ = ["ANSWER_CLAIMS", "COIN_FLIP", "CONVERGENCE_CLAIMS", "CUE_FALL", "CUE_RISE", "DOMINANT", "FALL", "FAST",
           "LOSS_CEILING", "PAGE", "RISE", "ROW_FAST", "ROW_SLOW", "SLOW", "SURE", "WALKTHROUGH", "check_all",
           "check_page", "coin_flip_positions", "cue_key_coordinate", "cue_value_coordinate", "mean_loss",
           "require_all"]


def check_all(wt: Walkthrough, names: list[str] | None = None) -> list[tuple[Claim, Outcome]]:
    """Every selection claim (or the named ones) with its outcome: what the seed search checks on each seed."""
    return WALKTHROUGH.check_all(wt, names=names)


def check_page(wt: Walkthrough, names: list[str] | None = None) -> list[tuple[Claim, Outcome]]:
    """The page's further claims (or the named ones) on the published checkpoint, with their outcomes."""
    return PAGE.check_all(wt, names=names)


def require_all(wt: Walkthrough, source: str = "") -> None:
    """Raise ClaimError naming each broken walkthrough claim (selection and page) and its numbers."""
    broken = []
    for registry in (WALKTHROUGH, PAGE):
        try:
            registry.require_all(wt)
        except ClaimError as err:
            broken.append(str(err))
    if broken:
        raise ClaimError("; ".join(broken) + (f" ({source})" if source else ""))
