"""Part 2B, the cost of a longer context: counted work of concatenating, averaging and attending, and timings."""
from __future__ import annotations


def claim_results():
    from . import claims
    return [("the counts and the stored timings of Part 2B (compute/checkpoints/context-timings.json)",
             claims.check_all())]


def preflight() -> None:
    """Raise CheckpointError or ClaimError (one line each) unless the timings file loads and every claim holds."""
    from . import claims
    from .published import timings
    timings()
    claims.require_all()
