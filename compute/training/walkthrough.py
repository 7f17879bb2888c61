"""Seeded, single-threaded, full-batch training of the walkthrough model."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import torch
from torch.nn import functional as F

from ..data.walkthrough import IGNORE, data_hash, training_batch
from ..models.decoder import Decoder, DecoderConfig
from ..models.walkthrough import CONFIG, build, init_weights, logits, weights
from .. import progress
from .machine import machine_record


@dataclass(frozen=True)
class Recipe:
    steps: int = 2000           # full-batch Adam steps over all eight sentences
    lr: float = 1e-2            # Adam learning rate
    init_scale: float = 0.5     # embeddings ~ N(0, s^2), matrices ~ N(0, s^2 / fan_in)
    weight_decay: float = 0.0   # AdamW decoupled decay (0 = plain Adam)
    threads: int = 1            # torch threads: results differ bitwise across thread counts


@dataclass
class TrainResult:
    seed: int
    recipe: Recipe
    weights: dict[str, torch.Tensor]
    loss_history: list[float] = field(default_factory=list)  # loss before each step
    final_loss: float = float("nan")                         # loss of the returned weights
    trained_on: dict = field(default_factory=dict)           # where: compute.training.machine

    def manifest(self, cfg: DecoderConfig) -> dict:
        return {"seed": self.seed, "recipe": asdict(self.recipe), "config": asdict(cfg),
                "steps": self.recipe.steps, "final_loss": self.final_loss,
                "data_sha256": data_hash(), "trained_on": self.trained_on,
                "loss_history": self.loss_history}


def validate_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be a whole number from 0 to 2**63-1, got {seed!r}")
    return seed


def batch_loss(model: Decoder, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over every real (non-padding) target."""
    scores = logits(model, x)  # (B, T, vocab)
    return F.cross_entropy(scores.reshape(-1, scores.shape[-1]), y.reshape(-1), ignore_index=IGNORE)


def initial_model(seed: int, recipe: Recipe = Recipe(), cfg: DecoderConfig = CONFIG) -> Decoder:
    """The model before its first step: float32 weights drawn from this seed's generator."""
    validate_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    model = build(cfg)
    init_weights(model, generator, recipe.init_scale)
    return model


def train(seed: int, recipe: Recipe = Recipe(), cfg: DecoderConfig = CONFIG,
          dtype: torch.dtype = torch.float32) -> TrainResult:
    """Train one model from this seed; same seed, build and threads give the same bits. `dtype`: what training
    computes in (the published runs float32; float64 is what the page's JavaScript trainer is checked against),
    from the same float32 initial weights. Each step is an item of the command's stage (compute.progress)."""
    validate_seed(seed)
    if recipe.steps < 1:
        raise ValueError(f"steps must be at least 1, got {recipe.steps}")
    torch.set_num_threads(recipe.threads)
    model = initial_model(seed, recipe, cfg).to(dtype)
    opt = torch.optim.AdamW(model.parameters(), lr=recipe.lr, weight_decay=recipe.weight_decay)
    x, y = training_batch(cfg.context)  # (8, T), (8, T)
    history = []
    progress.expect(recipe.steps)
    for step in range(recipe.steps):
        loss = batch_loss(model, x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        history.append(loss.item())
        progress.advance(f"loss {history[-1]:.4f}")
    with torch.no_grad():
        final = batch_loss(model, x, y).item()
    return TrainResult(seed, recipe, weights(model), history, final, machine_record(recipe.threads))
