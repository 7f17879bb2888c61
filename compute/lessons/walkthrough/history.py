"""The published run's training history: when the loss reaches the floor, and the bumps after that."""
from __future__ import annotations

import numpy as np

NEAR = 0.01  # "within 1 % of the floor": the band the lesson measures the loss against


def loss_spike(history: list[float], floor: float, near: float = NEAR) -> dict:
    """The largest bump once the loss has come within `near` (1%) of the floor: its step, loss, height above
    the floor (a fraction), the step the loss first came that close, how many steps it took to get back, and
    how many times the loss left the band after first reaching it (runs of consecutive steps outside it)."""
    h = np.asarray(history)
    inside = h <= floor * (1 + near)
    settled = int(np.argmax(inside))
    step = settled + int(np.argmax(h[settled:]))
    back = int(np.argmax(inside[step:]))
    after = inside[settled:]
    exits = int(np.sum(after[:-1] & ~after[1:]))  # a step inside the band followed by one outside it
    return {"settled": settled, "step": step, "loss": float(h[step]), "above": float(h[step] / floor - 1),
            "back": back, "exits": exits}
