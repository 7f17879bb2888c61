"""compute's exact float64 run of the walkthrough recipe (the one the page's trainer matches bit for bit) against
torch: the same loss and gradients, the same first steps; and its two pieces, fdlibm's exp and sums in order."""
from __future__ import annotations

import functools
import math
import operator
from decimal import Decimal, localcontext

import numpy as np
import pytest
import torch

from compute.data.walkthrough import training_batch
from compute.models.walkthrough import CONFIG, parameter_shapes
from compute.training import fdlibm
from compute.training.walkthrough import Recipe, train
from compute.training.walkthrough_exact import initial_flat, loss_and_grads, ordered_sum, train_exact
from helpers import torch_loss_and_grads


def exact_exp(x: float) -> Decimal:
    """exp(x) to 40 significant digits (Python's decimal module)."""
    with localcontext() as ctx:
        ctx.prec = 40
        return Decimal(x).exp()


def ulps(got: float, x: float) -> float:
    """How far a double is from the true exp(x), in units of its last place."""
    with localcontext() as ctx:
        ctx.prec = 40
        return float(abs(Decimal(got) - exact_exp(x)) / Decimal(math.ulp(got)))


def test_fdlibm_exp_is_within_one_ulp_of_the_true_value():
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.uniform(-40, 40, 3000), rng.uniform(-708, 709, 1000), rng.uniform(-1e-6, 1e-6, 200),
                         [0.5 * math.log(2), 1.5 * math.log(2), -1.5 * math.log(2), 709.78, -708.3]])
    got = fdlibm.exp(xs)
    worst = max(ulps(g, x) for g, x in zip(got.tolist(), xs.tolist()))
    assert 0.5 < worst < 1, worst            # not always correctly rounded, never a whole ulp out


def test_fdlibm_exp_at_its_edges():
    xs = np.array([0.0, -0.0, 1e-300, -np.inf, np.inf, np.nan, 709.79, -745.2, 1.0])
    got = fdlibm.exp(xs)
    assert got[0] == got[1] == got[2] == 1.0
    assert got[3] == 0.0 and got[4] == np.inf and np.isnan(got[5]) and got[6] == np.inf and got[7] == 0.0
    assert ulps(got[8], 1.0) < 1
    # the numbers below 2^-1022 (subnormal results): still within an ulp of the smallest step
    deep = fdlibm.exp(np.array([-720.0, -740.0]))
    assert all(abs(Decimal(g) - exact_exp(x)) <= Decimal(5e-324) for g, x in zip(deep.tolist(), (-720.0, -740.0)))


def test_ordered_sum_adds_one_term_after_another_from_zero():
    rng = np.random.default_rng(1)
    for n in (3, 16, 17, 112):                     # both ways it sums: slice by slice, and by cumsum
        terms = rng.standard_normal((4, n, 5)) * 10.0 ** rng.integers(-8, 8, (4, n, 5))
        got = ordered_sum(terms, 1)
        want = np.array([[functools.reduce(operator.add, terms[i, :, j].tolist(), 0.0) for j in range(5)]
                         for i in range(4)])
        assert np.array_equal(got, want), n
    zeros = ordered_sum(np.full((20, 2), -0.0), 0)
    assert not np.signbit(zeros).any()             # a sum from +0 of -0s is +0, as the page's loops give


@pytest.mark.parametrize("seed", [131, 8])
def test_the_loss_and_every_gradient_match_torchs_autograd(seed):
    want_loss, want = torch_loss_and_grads(seed)
    x, y = (t.numpy() for t in training_batch(CONFIG.context))
    loss, grads = loss_and_grads(initial_flat(seed)[None], x, y)
    assert abs(loss[0] - want_loss) < 1e-12
    assert grads.shape == (1, want.size) and np.abs(want).max() > 0.01
    assert np.abs(grads[0] - want).max() < 1e-12


def test_the_first_steps_match_torchs_float64_training():
    torch.set_num_threads(1)
    recipe = Recipe(steps=100)
    ours = train_exact([131, 2], recipe)
    for r in ours:
        theirs = train(r.seed, recipe, dtype=torch.float64)
        assert np.abs(np.array(r.loss_history) - theirs.loss_history).max() < 1e-9, r.seed
        assert abs(r.final_loss - theirs.final_loss) < 1e-9


def test_seeds_trained_side_by_side_take_the_bits_each_takes_alone():
    recipe = Recipe(steps=30)
    both = train_exact([4, 131], recipe)
    alone = train_exact([131], recipe)[0]
    assert both[1].seed == 131 and both[1].loss_history == alone.loss_history
    assert all(torch.equal(both[1].weights[n], alone.weights[n]) for n in parameter_shapes())
    assert not torch.equal(both[0].weights["E"], alone.weights["E"])


def test_a_bad_seed_or_step_count_is_refused():
    with pytest.raises(ValueError, match="seed must be a whole number"):
        train_exact([-1])
    with pytest.raises(ValueError, match="steps must be at least 1"):
        train_exact([1], Recipe(steps=0))
