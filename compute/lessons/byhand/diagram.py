"""The hand-set model of Attention by hand as a block diagram, its sizes read off its own matrices
(compute/lessons/byhand/model.py): the same drawing as the trained models' (compute.present.diagram)."""
from __future__ import annotations

from IPython.display import HTML

from ...present.diagram import Box, boxes_figure
from . import model as m


def boxes() -> tuple[list[Box], list[Box], list[Box]]:
    """Before the block, the block, after it."""
    before = [Box("tokens", f"{len(m.SENTENCES['A'])} words a sentence", "io"),
              Box("features E[word]", f"{m.E.shape[0]} × {m.E.shape[1]}"),
              Box("positions", f"+ P ({m.POSITION_ROWS.shape[0]} × {m.POSITION_ROWS.shape[1]})")]
    block = [Box("attention, 1 head", f"d_k = {m.W_Q.shape[1]}, d_v = {m.W_V.shape[1]}; "
                                      f"W_O {m.W_O.shape[0]} × {m.W_O.shape[1]}"),
             Box("⊕ residual", "", "add")]
    after = [Box("output head, last row", f"{m.W1.shape[0]} → {m.W1.shape[1]} (ReLU) → {m.W2.shape[1]}"),
             Box("softmax: next-word probabilities", f"{len(m.VOCAB)} words", "io")]
    return before, block, after


def diagram() -> HTML:
    return HTML(boxes_figure(*boxes(), 1, "The hand-set model of this page, drawn from the sizes of its own "
                                          "matrices: one head, one block, an output head on the last row."))
