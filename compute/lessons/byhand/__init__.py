"""The attention-by-hand lesson: a hand-set four-feature model, its worked states, claims and widgets.

Positions are numbered 1..T, as the lesson numbers them (array index = position - 1).
"""
from __future__ import annotations

from ..record import Lesson


def claim_results():
    """(heading, [(claim, outcome), ...]) for the hand-set model."""
    from . import claims
    return [("the hand-set attention-by-hand model (compute/lessons/byhand)", claims.check_all())]


def preflight() -> None:
    """Raise ClaimError (one line) unless every claim of this lesson holds."""
    from . import claims
    claims.require_all()


def prose_values() -> dict[str, object]:
    """Every number and word the page's prose cites (glued by its first cell)."""
    from . import values
    return values.prose_values()


def widgets() -> dict:
    """The page's figures (compute.present.widgets.Widget), by name."""
    from ...present.widgets import widgets_in
    from . import bank, masking, mixing, position, prediction, projections, recap, retrieval, scaling, stages, windows
    return widgets_in(bank, masking, mixing, position, prediction, projections, recap, retrieval, scaling, stages, windows)


LESSON = Lesson(
    page="attention-by-hand", order=1, handout="attention by hand",
    does="""Build attention from nothing on a four-feature model you can check with
          pencil and paper: context, pooling, queries, keys and values, the mask,
          scaling, the final prediction, and positions {about}`method`.""",
    models="one model set by hand, every number chosen to be read {about}`design`",
    objectives=(
        "Compute one query's attention weights over a sentence by hand: dot products, scaling by √d_k, the "
        "causal mask and softmax.",
        "Say what queries, keys and values each do, and where W_Q, W_K, W_V and W_O come from.",
        "Add an attention update to a token's row through the residual connection and read the prediction it "
        "makes.",
        "Write a whole sentence's attention as matrix products, and say why a model needs positions "
        "{about}`general`.",
    ),
    first="this is where the course starts; it assumes vectors, dot products and matrix products.",
    claim_results=claim_results, preflight=preflight, widgets=widgets, values=prose_values,
    # the hand-set model's sizes and the lesson's chosen sentences, positions and slider ranges
    settings=("s02_shared_tail", "s02_tail", "s02_vocab_size", "s02_d_model", "s02_T", "s02_bank_pos", "s03_last_pos",
              "s04_V", "s04_d", "s04_H", "s06_n_topics", "s07_n_T", "s07_T_low", "s07_T_high", "s07_T_default",
              "s08_d_k", "s08_d_v", "s10_n_steps", "s11_d_v", "s12_divisor_dk", "s12_dk_max", "s12_n_pairs"),
)
