"""Numbers as the site prints them: never rounded to exactly 0, 1 or 100 % unless they are exactly that."""
from __future__ import annotations

import math
import re

_FIXED = re.compile(r"(?P<head>.*?)\.(?P<decimals>\d+)(?P<kind>[f%])")
MAX_DECIMALS = 12


def _reads_as_bound(text: str, kind: str) -> bool:
    """Whether a formatted number reads as exactly 0, or 1 (fixed point) or 100 % (per cent), signs aside."""
    digits = re.sub(r"[^0-9.]", "", text)
    shown = float(digits) if digits.strip(".") else 0.0
    return shown == 0 or shown == (100 if kind == "%" else 1)


def _is_bound(value: float, kind: str) -> bool:
    return value == 0 or abs(value) == 1


def honest_format(value: float, spec: str) -> str:
    """format(value, spec), with as many more decimals as it takes not to print a bound the value is not.

    Only fixed-point and per-cent specs ('.3f', ',.1%', '.0%') are widened: 0.99967 with '.1%' prints
    '99.97%', 0.0004 with '.2f' prints '0.0004'; exactly 0, 1 (or 100 %) print as the spec says.
    """
    text = format(value, spec)
    m = _FIXED.fullmatch(spec)
    if not m or not math.isfinite(value) or _is_bound(value, m["kind"]):
        return text
    decimals = int(m["decimals"])
    while _reads_as_bound(text, m["kind"]) and decimals < MAX_DECIMALS:
        decimals += 1
        text = format(value, f"{m['head']}.{decimals}{m['kind']}")
    if not _reads_as_bound(text, m["kind"]):
        return text
    scaled = value * 100 if m["kind"] == "%" else value  # closer to a bound than MAX_DECIMALS can show
    if abs(value) < 0.5:
        return format(scaled, ".1e") + ("%" if m["kind"] == "%" else "")
    return ("<" if abs(value) < 1 else ">") + format(value, spec)
