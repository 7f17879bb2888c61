"""The lab: the window MLP and the one-head model built from plain tensors, checked against `compute`,
trained here or loaded from Part III's checkpoints, and followed through one prediction.

The notebook's own cells hold the two models (plain functions of a dict of tensors); this package holds
what a learner should not have to type: the data, the training loop, the evaluation and the displays.
"""
from __future__ import annotations

from . import claims
from .answers import answers, reveal
from .follow import Case, follow
from .run import LabRun, config, data, initial_params, setup, scores_table, shapes, train_or_load
from .tensors import TensorModel, check_against_compute

__all__ = ["Case", "claims", "LabRun", "TensorModel", "answers", "check_against_compute", "config", "data", "follow",
           "initial_params", "preflight", "reveal", "scores_table", "setup", "shapes", "train_or_load"]


def preflight() -> None:
    """Raise CheckpointError (one line) unless the two published models and the measured run are usable."""
    from ..story.published import load
    from .run import measured_run
    load("story-mlp")
    load("story-one-head")
    measured_run()
