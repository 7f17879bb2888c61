"""Part 2B, the cost of a longer context: counted work of concatenating, averaging and attending, and timings."""
from __future__ import annotations

from ..record import Lesson
from .subjects import SUBJECTS, WHOLES


def claim_results():
    from . import claims
    return [("the counts and the stored timings of Part 2B (compute/checkpoints/context-timings.json and "
             "context-recompute-timings.json)",
             claims.check_all())]


def preflight() -> None:
    """Raise CheckpointError or ClaimError (one line each) unless the timings file loads and every claim holds."""
    from . import claims
    from ...published.timings import recompute_timings, timings
    timings()
    recompute_timings()
    claims.require_all()


def prose_values() -> dict[str, object]:
    """Every number and word the page's prose cites (glued by its first cell)."""
    from . import values
    return values.prose_values()


def widgets() -> dict:
    """The page's figures (compute.present.widgets.Widget), by name."""
    from ...present.widgets import widgets_in
    from . import counts, measured
    return widgets_in(counts, measured)


LESSON = Lesson(
    page="context-cost", order=5, handout="Part 2B, the cost of context",
    does="""Part 2B (optional): count and time what a longer context costs when a
          model concatenates, averages or attends, with and without a KV cache, up
          to the sizes of GPT-2 and GPT-3 {about}`method`.""",
    models="operation counts for three ways of reading a context, and timings of Part III's four-head model with and without a KV cache {about}`method`",
    objectives=(
        "Count the multiply-adds and parameters of three ways to read a context of T tokens.",
        "Time them on this machine and say where the measured times and the counts part ways "
        "{about}`method`.",
        "Work out the size of a KV cache and the work of one new token for models from this site's to GPT-3.",
    ),
    first="[Attention by hand](attention-by-hand.md) and [Part III](story-models.md); its four-head model is "
          "timed here.",
    claim_results=claim_results, preflight=preflight, widgets=widgets, values=prose_values,
    subjects=SUBJECTS, wholes=WHOLES,
    settings=("T", "d", "T_min", "T_max", "small_T", "large_T", "c_from", "crossover", "rc_short", "rc_T", "four_T",
              "gpt_vocab", "gpt3_context", "gpt2_context", "slope_low", "slope_high", "where"),
)
