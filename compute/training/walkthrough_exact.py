"""The walkthrough model trained in float64 with every operation in a stated order: the run the page's trainer
matches bit for bit.

`compute.training.walkthrough.train` trains with torch. Its matrix products sum in an order of the library's
choosing and its exp is the platform's, so no other program can repeat its last bits; and training this model
is chaotic enough (a rounding difference grows about tenfold every 30 steps once the loss nears its floor) that
two runs differing in one bit part within a few hundred steps. This module does the arithmetic of
`_static/train/model.js` and `adam.js` operation for operation: every sum starts from zero and adds its terms
in index order (over the sentences, then the positions, for a parameter's gradient), exp is fdlibm's
(`compute.training.fdlibm`), Adam's powers β^t are running products, and nothing is fused or reordered.
numpy carries it out over all eight sentences at once; a loop over an index is how a sum keeps its order.

Only the loss uses the platform's log, which no step depends on: the reported losses may differ from the page's
in their last bit, the weights may not. Checked against torch's autograd and torch's float64 training in
tests/unit/test_walkthrough_exact.py.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..data.walkthrough import IGNORE, training_batch
from ..models.decoder import DecoderConfig
from ..models.walkthrough import CONFIG, named_tensors, parameter_shapes
from .fdlibm import exp
from .machine import machine_record
from .walkthrough import Recipe, TrainResult, initial_model, validate_seed

BETAS, EPS = (0.9, 0.999), 1e-8          # torch.optim.AdamW's defaults, as compute's training uses them


def ordered_sum(terms: np.ndarray, axis: int) -> np.ndarray:
    """Σ along one axis from zero, one term after another (np.sum may pair its terms). A short axis is added
    slice by slice; a long one by cumsum, which adds in order too, and +0 at the end gives what a sum started
    from zero gives, down to the sign of a zero."""
    if terms.shape[axis] > 16:
        return np.cumsum(terms, axis=axis).take(-1, axis=axis) + 0.0
    terms = np.moveaxis(terms, axis, 0)
    out = np.zeros(terms.shape[1:])
    for term in terms:
        out = out + term
    return out


def matmul(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """a @ w for a (..., k) and w (k, m), each entry Σ_t a[..., t] w[t, j] in order t."""
    return ordered_sum(a[..., :, None] * w, -2)


def softmax_rows(s: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """Softmax over the last axis (over the entries `keep` marks, others 0): exp(s - max), summed in order."""
    if keep is not None:
        s = np.where(keep, s, -np.inf)
    e = exp(s - s.max(axis=-1, keepdims=True))
    if keep is not None:
        e = np.where(keep, e, 0.0)
    return e / ordered_sum(e, -1)[..., None]


@dataclass
class Forward:
    """What one pass keeps for the backward pass: S models (one per seed) on the same B sentences of T tokens."""
    X: np.ndarray        # (S, B, T, d)    E[token] + P
    Q: np.ndarray        # (S, B, T, d_k)
    K: np.ndarray        # (S, B, T, d_k)
    V: np.ndarray        # (S, B, T, d_v)
    A: np.ndarray        # (S, B, T, T)    causal softmax of Q Kᵀ / √d_k
    Z: np.ndarray        # (S, B, T, d_v)  A V
    H: np.ndarray        # (S, B, T, d)    X + Z W_O
    pre: np.ndarray      # (S, B, T, d_ff) H W1 + b1
    F: np.ndarray        # (S, B, T, d_ff) ReLU(pre)
    Y: np.ndarray        # (S, B, T, d)    (H + F W2) + b2
    probs: np.ndarray    # (S, B, T, vocab) softmax(Y W_U)


def unflatten(flat: np.ndarray, cfg: DecoderConfig = CONFIG) -> dict[str, np.ndarray]:
    """The named tensors (S, *shape) as views of the flat parameter arrays (S, n), in the page's order."""
    out, at = {}, 0
    for name, shape in parameter_shapes(cfg).items():
        n = math.prod(shape)
        out[name] = flat[:, at:at + n].reshape((flat.shape[0],) + shape)
        at += n
    return out


def linear(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """a @ w for each model: a (S, B, T, k), w (S, k, m) -> (S, B, T, m), summed in order over k."""
    return matmul(a, w[:, None, None])


def forward(p: dict[str, np.ndarray], tokens: np.ndarray) -> Forward:
    T = tokens.shape[1]
    X = p["E"][:, tokens] + p["P"][:, None, :T]                       # (S, B, T, d)
    Q, K, V = linear(X, p["W_Q"]), linear(X, p["W_K"]), linear(X, p["W_V"])
    scores = ordered_sum(Q[:, :, :, None, :] * K[:, :, None, :, :], -1)  # (S, B, T, T)
    A = softmax_rows(scores / math.sqrt(Q.shape[-1]), np.tril(np.ones((T, T), dtype=bool)))
    Z = ordered_sum(A[..., None] * V[:, :, None, :, :], -2)             # A's zeros past the diagonal add nothing
    H = X + linear(Z, p["W_O"])
    pre = linear(H, p["W1"]) + p["b1"][:, None, None]
    F = np.where(pre > 0, pre, 0.0)
    Y = (H + linear(F, p["W2"])) + p["b2"][:, None, None]
    return Forward(X, Q, K, V, A, Z, H, pre, F, Y, softmax_rows(linear(Y, p["W_U"])))


def positions(a: np.ndarray) -> np.ndarray:
    """(S, B, T, n) -> (S, B·T, n): every sentence's positions, one sentence after another."""
    return a.reshape(a.shape[0], -1, a.shape[-1])


def linear_backward(x: np.ndarray, d_out: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For out = x w: (x's gradient d_out wᵀ, w's gradient xᵀ d_out summed over sentences then positions)."""
    dx = linear(d_out, w.transpose(0, 2, 1))
    return dx, ordered_sum(positions(x)[..., :, None] * positions(d_out)[..., None, :], 1)


def attention_backward(f: Forward, dZ: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dQ, dK, dV) from Z's gradient, through A = softmax(Q Kᵀ / √d_k) and Z = A V (axes: S, B, i, j, ·)."""
    scale = math.sqrt(f.Q.shape[-1])
    dA = ordered_sum(dZ[:, :, :, None, :] * f.V[:, :, None, :, :], -1)   # (S, B, T, T)
    dot = ordered_sum(dA * f.A, -1)                                       # (S, B, T)  Σ_j dA A, row by row
    dS = f.A * (dA - dot[..., None]) / scale
    dQ = ordered_sum(dS[..., None] * f.K[:, :, None, :, :], 3)            # over keys j
    dK = ordered_sum(dS[..., None] * f.Q[:, :, :, None, :], 2)            # over queries i
    dV = ordered_sum(f.A[..., None] * dZ[:, :, :, None, :], 2)
    return dQ, dK, dV


def loss_and_grads(flat: np.ndarray, tokens: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each model's mean cross-entropy over every real target (S,), and its gradient (S, n) in the page's order."""
    p = unflatten(flat)
    f = forward(p, tokens)
    real = targets != IGNORE                                              # (B, T)
    n = int(real.sum())
    safe = np.where(real, targets, 0)
    picked = np.take_along_axis(f.probs, np.broadcast_to(safe[None, ..., None], f.probs.shape[:3] + (1,)), -1)
    loss = ordered_sum(-np.log(picked[:, real, 0]), 1) / n                # 0 - l0 - l1 ... as the page subtracts
    d_logits = np.where(real[..., None], (f.probs - np.eye(f.probs.shape[-1])[safe]) / n, 0.0)
    g = {}
    dY, g["W_U"] = linear_backward(f.Y, d_logits, p["W_U"])
    g["b2"] = ordered_sum(positions(dY), 1)
    d_pre, g["W2"] = linear_backward(f.F, dY, p["W2"])
    d_pre = np.where(f.pre > 0, d_pre, 0.0)
    g["b1"] = ordered_sum(positions(d_pre), 1)
    dH, g["W1"] = linear_backward(f.H, d_pre, p["W1"])
    dH = dY + dH
    dZ, g["W_O"] = linear_backward(f.Z, dH, p["W_O"])
    dQ, dK, dV = attention_backward(f, dZ)
    dX = dH
    for name, d in (("W_Q", dQ), ("W_K", dK), ("W_V", dV)):
        dx, g[name] = linear_backward(f.X, d, p[name])
        dX = dX + dx
    rows = positions(dX)                                                  # (S, B·T, d)
    by_token = np.zeros(rows.shape[:2] + p["E"].shape[1:])                # (S, B·T, vocab, d)
    by_token[:, np.arange(rows.shape[1]), tokens.reshape(-1)] = rows
    g["E"] = ordered_sum(by_token, 1)
    g["P"] = np.zeros(p["P"].shape)
    g["P"][:, :tokens.shape[1]] = ordered_sum(dX, 1)
    return loss, np.concatenate([g[name].reshape(flat.shape[0], -1) for name in parameter_shapes()], axis=1)


class AdamW:
    """torch.optim.AdamW's update as the page's adam.js computes it (β^t kept as running products)."""

    def __init__(self, shape: tuple[int, ...], lr: float, weight_decay: float = 0.0):
        self.lr, self.decay = lr, weight_decay
        self.m, self.v = np.zeros(shape), np.zeros(shape)
        self.beta1_t = self.beta2_t = 1.0

    def step(self, params: np.ndarray, g: np.ndarray) -> np.ndarray:
        (beta1, beta2), lr = BETAS, self.lr
        self.beta1_t *= beta1
        self.beta2_t *= beta2
        step_size, root2 = lr / (1 - self.beta1_t), math.sqrt(1 - self.beta2_t)
        params = params * (1 - lr * self.decay)
        self.m = self.m + (1 - beta1) * (g - self.m)
        self.v = self.v * beta2 + (1 - beta2) * g * g
        return params + (-step_size * self.m) / (np.sqrt(self.v) / root2 + EPS)


def initial_flat(seed: int, recipe: Recipe = Recipe()) -> np.ndarray:
    """This seed's float32 initial weights (torch's draw) in the page's order, as float64."""
    tensors = named_tensors(initial_model(seed, recipe))
    return np.concatenate([tensors[n].detach().numpy().ravel() for n in parameter_shapes()]).astype(np.float64)


def train_exact(seeds: Sequence[int], recipe: Recipe = Recipe()) -> list[TrainResult]:
    """Train each seed with the recipe as the page does: the same bits on every IEEE-754 machine. The seeds
    train side by side (each model's arithmetic is its own; numpy's calls are shared)."""
    seeds = [validate_seed(s) for s in seeds]
    if recipe.steps < 1:
        raise ValueError(f"steps must be at least 1, got {recipe.steps}")
    x, y = (t.numpy() for t in training_batch(CONFIG.context))           # (8, T), (8, T)
    params = np.stack([initial_flat(s, recipe) for s in seeds])           # (S, n)
    opt = AdamW(params.shape, recipe.lr, recipe.weight_decay)
    history = []
    for _ in range(recipe.steps):
        loss, g = loss_and_grads(params, x, y)
        history.append(loss)
        params = opt.step(params, g)
    final, _ = loss_and_grads(params, x, y)
    losses, where = np.array(history), machine_record(recipe.threads)
    return [TrainResult(s, recipe, {name: torch.from_numpy(t[i].copy()) for name, t in unflatten(params).items()},
                        losses[:, i].tolist(), float(final[i]), where) for i, s in enumerate(seeds)]
