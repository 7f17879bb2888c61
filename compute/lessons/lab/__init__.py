"""The lab: the window MLP and the one-head model built from plain tensors, checked against `compute`,
trained here or loaded from Part III's checkpoints, and followed through one prediction.

The notebook's own cells hold the two models (plain functions of a dict of tensors); this package holds
what a learner should not have to type: the data, the optimizer and its schedule, the evaluation and the
displays (the training loop itself is written out in the notebook, and checked against compute's).
Its names load on first use, so that the claims (states/, claims.py) never import the displays.
"""
from __future__ import annotations

from ..record import Lesson

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the names below load (and what the build's cache stamp follows), without running it
    from . import claims
    from .exercises import answer_list, answers
    from .followed import Case, follow
    from .loop import check_loop, learning_rate, optimizer, progress, random_crops
    from .states.run import LabRun, config, data, initial_params, setup, train_or_load
    from .tables import scores_table, shapes
    from .diagram import block_diagram
    from .budgets import against_published, budgets_table
    from .summary import showed
    from .tensors import TensorModel, check_against_compute
    from . import predict

_WHERE = {"answers": ".exercises", "answer_list": ".exercises", "check_loop": ".loop", "learning_rate": ".loop",
          "optimizer": ".loop", "progress": ".loop", "random_crops": ".loop", "Case": ".followed", "follow": ".followed",
          "LabRun": ".states.run", "config": ".states.run", "data": ".states.run",
          "initial_params": ".states.run", "setup": ".states.run", "train_or_load": ".states.run",
          "scores_table": ".tables", "shapes": ".tables", "TensorModel": ".tensors", "check_against_compute": ".tensors", "block_diagram": ".diagram",
          "against_published": ".budgets", "budgets_table": ".budgets", "showed": ".summary",
          "claims": None, "predict": None}
__all__ = [*_WHERE, "claim_results", "preflight"]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if _WHERE[name] is None:
        return importlib.import_module(f".{name}", __name__)
    return getattr(importlib.import_module(_WHERE[name], __name__), name)


def claim_results():
    """(heading, [(claim, outcome), ...]) on the runs the page shows: Part III's two checkpoints, scored here."""
    from . import claims
    from .states.published import published_runs
    return [("the lab's published runs (compute/checkpoints/story-mlp, story-one-head)",
             claims.check_all(*published_runs()))]


def run_time() -> str:
    """The stored measurement of the whole notebook run, in words: 'measured 72–74 s over 3 runs on 2 threads'."""
    from .states.run import measured_run
    run = measured_run()
    each = run.get("each_run_seconds") or [run["seconds"]]
    return (f"the whole notebook, training included, measured {min(each):.0f}–{max(each):.0f} s over "
            f"{len(each)} runs on {run['measured_on']['threads']} threads; longer on a busy machine")


def preflight() -> None:
    """Raise CheckpointError (one line) unless the two published models and the measured run are usable."""
    from ...published.story import MLP, ONE_HEAD, verified_published
    from .states.run import measured_run
    verified_published(MLP)
    verified_published(ONE_HEAD)
    measured_run()


LESSON = Lesson(
    page="lab", order=4, handout="the lab",
    does="""The lab: write the window MLP and the one-head model yourself from plain
          tensors, check them against `compute`, train them, and follow one
          prediction through both. A notebook to download and run.""",
    models="the window MLP and one-head model you write and train, checked against `compute`'s {about}`method`",
    reading="; a few minutes to run {claim}`the_lab_runs_in_a_few_minutes`",
    objectives=(
        "Write a window MLP and a one-head attention model from plain tensors and check them against `compute`.",
        "Train both on generated stories and read their losses and probe scores.",
        "Follow one prediction through both models and say why only the head finds the word it needs "
        "{claim}`head_looks_back_at_the_followed_blank head_finds_what_the_window_hides`.",
    ),
    first="[Attention by hand](attention-by-hand.md), and [Part III](story-models.md) as far as its training "
          "runs.",
    run_time=run_time,
    claim_results=claim_results, preflight=preflight,
)
