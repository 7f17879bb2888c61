"""The trained walkthrough's claims: each a sentence of the lesson, checked on the published checkpoint.

Two registries, each a claim per sentence it backs:

* WALKTHROUGH (selection.py), the selection claims: what a model must show for
  the lesson to be told about it. The seed search checks them on every seed it
  trains and publishes the first seed that passes them all.
* PAGE (page_claims.py), the page's further sentences about the published
  checkpoint, its training run, the training data, the alternative seed and the
  seed-search record.

require_all checks both; check_all is the selection claims only, check_page the page's.
The seed search checks every seed on the selection claims and on the page's claims
about a model alone (check_seed); `compute train walkthrough` checks what it is about
to publish on every claim of the page, its search record and alternative included
(check_publication), before it writes anything.
"""
from __future__ import annotations

from ...claims import Claim, ClaimError, Outcome, checked
import inspect

from .page_claims import ANSWER_CLAIMS, CONVERGENCE_CLAIMS, PAGE, SEARCH_CLAIMS, model_claims
from ...published.walkthrough import Walkthrough
from .selection import (COIN_FLIP, CUE_FALL, CUE_RISE, DOMINANT, FALL, FAST, LOSS_CEILING, RISE, ROW_FAST, ROW_SLOW,
                        SLOW, SURE, WALKTHROUGH, coin_flip_positions, cue_key_coordinate, cue_value_coordinate,
                        mean_loss)

__all__ = ["ANSWER_CLAIMS", "COIN_FLIP", "CONVERGENCE_CLAIMS", "CUE_FALL", "CUE_RISE", "DOMINANT", "FALL", "FAST",
           "LOSS_CEILING", "PAGE", "RISE", "ROW_FAST", "ROW_SLOW", "SEARCH_CLAIMS", "SLOW", "SURE", "WALKTHROUGH",
           "check_all", "check_page", "check_publication", "check_seed", "model_claims", "coin_flip_positions",
           "cue_key_coordinate", "cue_value_coordinate", "mean_loss",
           "require_all"]


def check_all(wt: Walkthrough, names: list[str] | None = None) -> list[tuple[Claim, Outcome]]:
    """Every selection claim (or the named ones) with its outcome: what the seed search checks on each seed."""
    return WALKTHROUGH.check_all(wt, names=names)


def check_page(wt: Walkthrough, names: list[str] | None = None) -> list[tuple[Claim, Outcome]]:
    """The page's further claims (or the named ones) on the published checkpoint, with their outcomes."""
    return PAGE.check_all(wt, names=names)


def check_seed(wt: Walkthrough) -> list[tuple[Claim, Outcome]]:
    """The page's claims about one trained model alone (not its search): what the seed search checks on each seed
    besides the selection claims."""
    return PAGE.check_all(wt, names=list(model_claims()))


def check_publication(wt: Walkthrough, record: dict | None = None, alt: Walkthrough | None = None
                      ) -> list[tuple[Claim, Outcome]]:
    """Every claim of the page on a model about to be published, with the seed-search record and the alternative
    it would be published with (by default those stored in the checkpoint folder)."""
    given = {"record": record, "alt": alt}
    results = check_all(wt)
    for claim in PAGE.claims.values():
        takes = inspect.signature(claim.check).parameters
        results.append((claim, checked(claim, wt, **{k: v for k, v in given.items() if k in takes and v is not None})))
    return results


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
