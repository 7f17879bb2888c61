"""Hand computed prose values to MyST-NB's glue, for {glue:text} roles in the lessons."""
from __future__ import annotations


def glue_all(values: dict[str, object]) -> None:
    """Glue every value as a plain Python str, int or float (numpy scalars print badly)."""
    from myst_nb import glue
    for k, val in values.items():
        glue(k, val if isinstance(val, str) else (int(val) if isinstance(val, (bool, int)) else float(val)),
             display=False)
