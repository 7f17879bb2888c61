"""The lab's training loop check: the notebook's loop against compute's fit, step for step on one thread."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from compute.lessons import lab
from compute.training.story import StoryRecipe


def bigram(params, tokens):
    """The smallest model of the lab's tensors: each token's embedding read straight out through W_U."""
    return params["E"][tokens] @ params["W_U"]


def loop(fn, params, recipe, generator, schedule=True):
    """The notebook's loop, as a learner writes it (schedule=False: one line left out)."""
    model = lab.TensorModel(fn, params)
    opt = lab.optimizer(model, recipe)
    losses = []
    for step in range(recipe.steps):
        x, y = lab.random_crops(lab.data().stream, recipe, generator)
        if schedule:
            for group in opt.param_groups:
                group["lr"] = lab.learning_rate(step, recipe)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model.params, losses


@pytest.fixture(scope="module")
def params():
    p = lab.initial_params("one-head", 0)
    return {"E": p["E"], "W_U": p["W_U"]}


def test_the_notebooks_loop_gives_computes_losses(params, capsys):
    losses = lab.check_loop(loop, bigram, params, 0, steps=3)
    assert len(losses) == 3 and losses[0] != losses[-1]
    assert "the same losses" in capsys.readouterr().out
    assert torch.get_num_threads() == 2                          # the lab's threads again afterwards


def test_a_loop_without_the_schedule_is_caught_at_the_first_loss_after_the_rate_moves(params):
    """A 3-step check has no warm-up (at most a tenth of its steps): its first step takes the peak rate, the
    optimizer's own, so a loop without the schedule agrees until the decay lowers the rate at the second step,
    and the third loss parts."""
    recipe = StoryRecipe(tokens=3 * StoryRecipe.batch * StoryRecipe.context)
    assert recipe.warmup_steps == 0 and lab.learning_rate(0, recipe) == recipe.lr > lab.learning_rate(1, recipe)
    with pytest.raises(AssertionError, match="part at step 3"):
        lab.check_loop(lambda *a: loop(*a, schedule=False), bigram, params, 0, steps=3)
