"""The measured token budgets of the one-head model (benchmarks/lab.py --budgets, in the lab's run record):
which of them copy names from far back. The displays and the paragraph that cite them: lab.budgets."""
from __future__ import annotations

from ....probes import chance
from .run import measured_run

LEAVES_CHANCE = 0.10    # names "leave chance": more than this above a uniform guess among names


def budgets() -> list[dict]:
    """The measured budgets, smallest first: tokens, 'name beyond 8', 'object beyond 8', val_loss."""
    return sorted(measured_run()["budgets"]["one-head"], key=lambda b: b["tokens"])


def leaves_chance(accuracy: float) -> bool:
    return accuracy > chance("name") + LEAVES_CHANCE


def longer_budget() -> dict | None:
    """The smallest measured budget on which names beyond 8 back leave chance (None: none does)."""
    return next((b for b in budgets() if leaves_chance(b["name beyond 8"])), None)


def default_budget() -> dict:
    """The measured run on the notebook's default budget (the record's own token count)."""
    tokens = measured_run()["tokens"]
    return next(b for b in budgets() if b["tokens"] == tokens)
