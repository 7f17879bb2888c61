"""Numbers as the site prints them: never rounded to exactly 0, 1 or 100 % unless they are exactly that."""
from __future__ import annotations

import math
import re

from .prose import printed

_FIXED = re.compile(r"(?P<head>.*?)\.(?P<decimals>\d+)(?P<kind>[f%])")
EXTRA_DECIMALS = 2  # at most this many decimals more than the spec asks for; closer than that, a bound with < or >


MISSTATED = 0.5     # a printed value further than this from the value, as a share of it, misstates it


def _misstates(text: str, value: float, kind: str) -> bool:
    """Whether a formatted non-zero number reads as a different value: its one digit rounded far from the value
    (5.1e-6 as '0.00001' reads twice the value; 0.0004 as '0.0' is a bound, handled apart)."""
    digits = re.sub(r"[^0-9.]", "", text)
    shown = (float(digits) if digits.strip(".") else 0.0) / (100 if kind == "%" else 1)
    return shown != 0 and abs(shown - abs(value)) > MISSTATED * abs(value)


def _reads_as_bound(text: str, kind: str) -> bool:
    """Whether a formatted number reads as exactly 0, or 1 (fixed point) or 100 % (per cent), signs aside."""
    digits = re.sub(r"[^0-9.]", "", text)
    shown = float(digits) if digits.strip(".") else 0.0
    return shown == 0 or shown == (100 if kind == "%" else 1)


def shown(value: float, spec: str) -> str:
    """honest_format(value, spec) for a number a page prints, recorded while the site builds (one value, one
    spelling: sitebuild.prose.spelling)."""
    return printed(float(value), spec, honest_format(value, spec))


def honest_format(value: float, spec: str) -> str:
    """format(value, spec), never printing a bound (0, ±1, 100 %) that the value is not.

    Only fixed-point and per-cent specs ('.3f', ',.1%', '.0%') are changed. A value that would print as a
    bound gets up to EXTRA_DECIMALS more decimals (0.99967 with '.1%' prints '99.97%', 0.0004 with '.2f'
    prints '0.0004'), as does one whose few digits round it far from itself (5.1e-6 with '.5f' prints
    '0.0000051', not '0.00001', twice the value); one closer to a bound than that prints as an inequality
    (0.9999998 with '.2f' prints '>0.9999', 3e-14 prints '<0.0001'). Exactly 0, ±1 or 100 % print as the
    spec says.
    """
    text = format(value, spec)
    m = _FIXED.fullmatch(spec)
    if not m or not math.isfinite(value) or value == 0 or abs(value) == 1:
        return text
    head, kind, decimals = m["head"], m["kind"], int(m["decimals"])
    for extra in range(1, EXTRA_DECIMALS + 1):
        if not _reads_as_bound(text, kind) and not _misstates(text, value, kind):
            return text
        text = format(value, f"{head}.{decimals + extra}{kind}")
    if not _reads_as_bound(text, kind):
        return text                      # (misstated still, at the most decimals the site adds: as near as it gets)
    places = decimals + EXTRA_DECIMALS
    spec = f"{head}.{places}{kind}"
    step = 10.0 ** -(places + (2 if kind == "%" else 0))  # the last place shown, as a fraction
    size = abs(value)
    if size < 0.5:                       # just off zero: <0.0001, or >-0.0001
        return f"<{format(step, spec)}" if value > 0 else f">{format(-step, spec)}"
    if size < 1:                         # just under 1 in size: >0.9999, or <-0.9999
        return f">{format(1 - step, spec)}" if value > 0 else f"<{format(step - 1, spec)}"
    return f">{format(1.0, spec)}" if value > 0 else f"<{format(-1.0, spec)}"  # just over 1 in size
