"""The lab's run shown: the tensors of a model and both models' scores, as tables (the run itself: states.run)."""
from __future__ import annotations

from IPython.display import HTML

from ...present.tables import fmt, rows_html
from ...probes import KIND_NAMES, chance
from .states.run import LabRun
from .tensors import Params


def shapes(params: Params) -> HTML:
    rows = [(name, " × ".join(map(str, p.shape)), f"{p.numel():,}") for name, p in params.items()]
    rows.append(("all", "", f"{sum(p.numel() for p in params.values()):,}"))
    return HTML(rows_html(["tensor", "shape", "numbers"], rows, caption="The model's tensors"))


def scores_table(*runs: LabRun) -> HTML:
    """Loss and within-kind accuracy at the probes beyond 8 tokens, against a uniform guess."""
    kinds = [k for k in KIND_NAMES if k in ("name", "object")]
    rows = [(r.label, r.source, f"{fmt(r.scores['val_loss'], 3)}",
             *[f"{fmt(r.scores[f'{k} beyond 8'], 2)}" for k in kinds]) for r in runs]
    rows.append(("a uniform guess", "", "", *[f"{fmt(chance(k), 2)}" for k in kinds]))
    return HTML(rows_html(["model", "weights", "validation loss", *[f"{k}, beyond 8 back" for k in kinds]], rows,
                          caption="On each validation story: loss per token, and how often the right word "
                                  "leads among the words of its kind where its last mention is more than 8 "
                                  "tokens back {about}`method`"))
