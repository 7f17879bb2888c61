"""Seeded training of the story models on one token budget: AdamW, random crops, a learning curve."""
from __future__ import annotations

import copy
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import torch
from torch.nn import functional as F
from tqdm import tqdm

from .. import progress as stages   # the command's stage: a step is an item
from ..models.story import StoryModelConfig, build, init_weights, parameter_count
from .machine import machine_record

KEEP = ("last", "best")
# The budget of a model trained with the relation families (`train story --relations`), where it is not the recipe's:
# the four-head model gets twice the tokens (its hand-written names and places rose with them: docs/authors.md), and
# the three still train within the 25 minutes on 2 cores that retraining them may take.
RELATIONS_TOKENS = {"four-head": 24_000_000}


@dataclass(frozen=True)
class StoryRecipe:
    tokens: int = 12_000_000    # the budget: training targets seen, the same for every model
    batch: int = 32             # sequences per step
    context: int = 256          # tokens per sequence
    lr: float = 3e-3            # AdamW peak learning rate
    weight_decay: float = 0.1   # AdamW decoupled decay on matrices (not on biases, gains or embeddings)
    warmup: int = 100           # steps of linear warm-up at most (a run warms up over at most a tenth of its steps),
                                # then a cosine decay to lr / 10 that ends at the run's last step
    threads: int = 2            # torch threads: results differ bitwise across thread counts
    eval_every: int = 500_000   # training tokens between two points of the learning curve
    keep: str = "last"          # the weights kept: the "last" ones, or the "best" point of the curve (validation loss)

    def __post_init__(self):
        if self.keep not in KEEP:
            raise ValueError(f"keep must be one of {', '.join(KEEP)}, got {self.keep!r}")

    @property
    def steps(self) -> int:
        return math.ceil(self.tokens / (self.batch * self.context))

    @property
    def warmup_steps(self) -> int:
        """The warm-up this run uses: the recipe's, or a tenth of the run's steps where that is fewer."""
        return min(self.warmup, self.steps // 10)

    def schedule(self) -> dict:
        """The learning-rate schedule this run follows, as the manifest records it."""
        last = self.steps - 1
        return {"warmup_steps": self.warmup_steps, "peak_lr": self.lr, "decay": "cosine",
                "decay_steps": last - self.warmup_steps, "decay_ends_at_step": last,
                "lr_end": learning_rate(last, self),
                "warmup_shortened": self.warmup_steps < self.warmup}


@dataclass
class StoryRun:
    seed: int
    recipe: StoryRecipe
    config: StoryModelConfig
    weights: dict[str, torch.Tensor]
    curve: list[dict] = field(default_factory=list)  # {"tokens", "train_loss", ...eval metrics}
    seconds: float = 0.0                              # wall time of the training loop (evaluations excluded)
    trained_on: dict = field(default_factory=dict)
    kept: dict = field(default_factory=dict)          # which weights were kept: rule, step, tokens, val_loss

    def manifest(self) -> dict:
        return {"seed": self.seed, "recipe": asdict(self.recipe), "config": asdict(self.config),
                "parameters": sum(w.numel() for w in self.weights.values()), "steps": self.recipe.steps,
                "tokens_seen": self.recipe.steps * self.recipe.batch * self.recipe.context,
                "train_seconds": round(self.seconds, 1), "learning_curve": self.curve,
                "schedule": self.recipe.schedule(),
                "final_loss": self.kept.get("val_loss", float("nan")), "kept": self.kept,
                "trained_on": self.trained_on}


class BestWeights:
    """Wraps an evaluate callback to copy the weights at the curve point with the lowest validation loss."""

    def __init__(self, evaluate: Callable[[torch.nn.Module], dict]):
        self.evaluate, self.calls, self.index, self.loss, self.weights = evaluate, 0, -1, math.inf, {}

    def __call__(self, model: torch.nn.Module) -> dict:
        out = self.evaluate(model)
        if out["val_loss"] < self.loss:
            self.index, self.loss = self.calls, out["val_loss"]
            self.weights = {n: p.detach().cpu().clone() for n, p in model.named_parameters()}
        self.calls += 1
        return out


def relations_tokens(model: str) -> int:
    """The default budget of one model kind trained with the relation families."""
    return RELATIONS_TOKENS.get(model, StoryRecipe.tokens)


def kept_point(curve: list[dict], index: int, recipe: StoryRecipe) -> dict:
    """The record of the kept weights: the rule, the optimizer steps and tokens behind them, their validation loss."""
    if not curve:
        return {"rule": recipe.keep, "step": recipe.steps, "tokens": recipe.steps * recipe.batch * recipe.context,
                "val_loss": None}
    point = curve[index]
    return {"rule": recipe.keep, "step": point["tokens"] // (recipe.batch * recipe.context),
            "tokens": point["tokens"], "val_loss": point["val_loss"]}


def learning_rate(step: int, recipe: StoryRecipe) -> float:
    """Linear warm-up over the run's warm-up steps (at most a tenth of the run), then a cosine from lr at the
    first step after it down to lr / 10 at the last step (steps - 1)."""
    warmup = recipe.warmup_steps
    if step < warmup:
        return recipe.lr * (step + 1) / warmup
    progress = min(1.0, (step - warmup) / max(1, recipe.steps - 1 - warmup))
    return recipe.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def random_crops(stream: torch.Tensor, recipe: StoryRecipe, generator: torch.Generator):
    """Inputs and next-token targets (batch, context) cut at random places of the token stream."""
    starts = torch.randint(0, len(stream) - recipe.context - 1, (recipe.batch,), generator=generator)
    idx = starts[:, None] + torch.arange(recipe.context + 1)[None, :]  # (batch, context + 1)
    chunk = stream[idx]
    return chunk[:, :-1], chunk[:, 1:]


def optimizer(model: torch.nn.Module, recipe: StoryRecipe) -> torch.optim.AdamW:
    """AdamW with weight decay on the weight matrices only."""
    decay = [p for n, p in model.named_parameters() if p.dim() == 2 and n.rsplit(".", 1)[-1] not in ("E", "P")]
    rest = [p for n, p in model.named_parameters() if not any(p is q for q in decay)]
    return torch.optim.AdamW([{"params": decay, "weight_decay": recipe.weight_decay},
                              {"params": rest, "weight_decay": 0.0}], lr=recipe.lr, betas=(0.9, 0.95))


def train_story_model(config: StoryModelConfig, stream: torch.Tensor, seed: int, recipe: StoryRecipe = StoryRecipe(),
                      evaluate: Callable[[torch.nn.Module], dict] | None = None, device: str = "cpu") -> StoryRun:
    """Train one model from `seed` on the token stream (1-D ids, stories separated by <eos>).

    The run keeps the last weights, or (recipe.keep == "best") those of the learning-curve point with the lowest
    validation loss, which needs `evaluate`. `device` ("cpu", "cuda"): where the steps run; the weights are drawn
    and the batches cut on the CPU from the seed's generator either way, and `evaluate` gets a CPU copy."""
    if recipe.keep == "best" and evaluate is None:
        raise ValueError("keeping the best weights needs an evaluate callback that gives val_loss")
    torch.set_num_threads(recipe.threads)
    generator = torch.Generator().manual_seed(seed)
    model = build(config)
    init_weights(model, generator)
    model.to(device)
    run = StoryRun(seed, recipe, config, {}, trained_on={**machine_record(recipe.threads), "device": device})
    desc = f"{config.kind} ({parameter_count(model):,} parameters)"
    best = BestWeights(evaluate) if recipe.keep == "best" else None
    run.curve, run.seconds = fit(model, stream, generator, recipe, best or evaluate, desc=desc, device=device)
    run.weights = best.weights if best else {n: p.detach().cpu().clone() for n, p in model.named_parameters()}
    run.kept = kept_point(run.curve, best.index if best else -1, recipe)
    return run


def fit(model: torch.nn.Module, stream: torch.Tensor, generator: torch.Generator, recipe: StoryRecipe,
        evaluate: Callable[[torch.nn.Module], dict] | None = None, progress: bool = False,
        desc: str = "training", record: list[float] | None = None, device: str = "cpu") -> tuple[list[dict], float]:
    """The training loop: AdamW on random crops of the stream, model(x) giving next-token logits (B, T, vocab).

    Returns the learning curve (a point every `eval_every` tokens and at the end, when `evaluate` is given)
    and the seconds spent in training steps. Any module works, the lab's models built from plain tensors too.
    `record`, when given, gets every step's training loss appended (the lab checks a learner's loop against it).
    Each step is an item of the command's stage (compute.progress); `progress` draws tqdm's bar as well, for a
    learner's notebook. `device`: where the model is and the steps run (the batches are cut on the CPU).
    """
    opt = optimizer(model, recipe)
    per_step = recipe.batch * recipe.context
    next_eval, clock, curve = 0, 0.0, []
    bar = tqdm(range(recipe.steps), desc=desc, disable=not progress, unit="step", mininterval=0.5)
    losses = []
    stages.expect(recipe.steps)
    for step in bar:
        seen = step * per_step
        if evaluate and seen >= next_eval:
            curve.append({"tokens": seen, "train_loss": _mean(losses), **_evaluated(model, evaluate)})
            losses, next_eval = [], next_eval + recipe.eval_every
            bar.set_postfix(val=f"{curve[-1]['val_loss']:.3f}")
        tic = time.perf_counter()
        x, y = (t.to(device) for t in random_crops(stream, recipe, generator))
        for group in opt.param_groups:
            group["lr"] = learning_rate(step, recipe)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        clock += time.perf_counter() - tic
        losses.append(loss.item())
        if record is not None:
            record.append(losses[-1])
        stages.advance(f"val {curve[-1]['val_loss']:.3f}" if curve else "")
    if evaluate:
        curve.append({"tokens": recipe.steps * per_step, "train_loss": _mean(losses), **_evaluated(model, evaluate)})
    return curve, clock


def _evaluated(model: torch.nn.Module, evaluate: Callable[[torch.nn.Module], dict]) -> dict:
    """`evaluate` on the model in eval mode, on the CPU (a copy, where the model is elsewhere)."""
    model.eval()
    on_cpu = all(p.device.type == "cpu" for p in model.parameters())
    with torch.no_grad():
        out = evaluate(model if on_cpu else copy.deepcopy(model).cpu())
    model.train()
    return out


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None
