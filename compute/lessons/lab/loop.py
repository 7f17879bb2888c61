"""The training loop the lab writes out for the learner, and the check that it is compute's loop."""
from __future__ import annotations

import sys
from collections.abc import Callable

import torch
from tqdm import tqdm

from ...training.story import StoryRecipe, fit, learning_rate, optimizer, random_crops
from .states.run import THREADS, data, past_initialisation
from .tensors import LogitsFn, Params, TensorModel

__all__ = ["CHECK_STEPS", "check_loop", "learning_rate", "optimizer", "progress", "random_crops"]

CHECK_STEPS = 5     # steps the learner's loop and compute's run side by side

class Progress:
    """A one-line bar while a loop trains: steps done, tokens seen and the last step's loss, redrawn at most
    twice a second, in plain Jupyter as in a terminal. A check of a few steps (check_loop) shows none."""

    def __init__(self, recipe: StoryRecipe):
        self.per_step = recipe.batch * recipe.context
        self.bar = tqdm(total=recipe.steps, unit="step", mininterval=0.5, file=sys.stdout, ncols=100,
                        disable=recipe.steps <= CHECK_STEPS)

    def __call__(self, step: int, loss: float) -> None:
        self.bar.update(1)
        self.bar.set_postfix_str(f"{(step + 1) * self.per_step:,} tokens, loss {loss:.3f}", refresh=False)
        if self.bar.n >= self.bar.total:
            self.bar.close()


def progress(recipe: StoryRecipe) -> Progress:
    """show = progress(recipe); then show(step, loss) after every step."""
    return Progress(recipe)


Loop = Callable[[LogitsFn, Params, StoryRecipe, torch.Generator], tuple[Params, list[float]]]


def check_loop(loop: Loop, fn: LogitsFn, params: Params, seed: int, steps: int = CHECK_STEPS) -> list[float]:
    """Run `loop` and compute.training.story.fit for their first `steps` steps from the same tensors and seed, on
    one thread (bit for bit comparable); print both losses if they are the same, else raise naming the first step
    that differs. Returns the losses."""
    recipe = StoryRecipe(tokens=steps * StoryRecipe.batch * StoryRecipe.context, threads=1)
    torch.set_num_threads(1)
    try:
        _, mine = loop(fn, params, recipe, past_initialisation(params, seed))
        theirs: list[float] = []
        fit(TensorModel(fn, params), data().stream, past_initialisation(params, seed), recipe, record=theirs)
    finally:
        torch.set_num_threads(THREADS)
    if mine != theirs:
        first = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        raise AssertionError(f"your loop and compute's part at step {first + 1}: yours {mine}, compute's {theirs}")
    print(f"Your loop and compute's, {steps} steps from seed {seed} on one thread: the same losses, "
          + ", ".join(f"{x:.6f}" for x in mine))
    return mine
