"""The claims registry: named, checked statements that a lesson's prose relies on.

A Registry holds one lesson's claims (each lesson's sit beside it, in
compute/lessons/<lesson>/claims.py). A claim is a function that returns whether
it holds and the numbers that decide it. The build checks every claim and stops,
naming the claim and its numbers, when one fails.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from .says import Says, statement as said
from .strength import Strength


class ClaimError(Exception):
    """A claim a lesson relies on does not hold."""


@dataclass(frozen=True)
class Outcome:
    holds: bool
    evidence: str  # the numbers that decided it
    applies: bool = True  # False: the claim's condition does not hold here, so nothing was checked
    # How far its numbers are from failing, as a share of the threshold they are checked against (0.08: 8 % of
    # room; negative: failing by that much); None where the claim does not state it yet (at_least, at_most, both).
    margin: float | None = None


FRAGILE = 0.1   # a claim with less room than this is listed by `python -m compute check` and the build


def room(value: float, limit: float, above: bool) -> float:
    """How far `value` is on the passing side of `limit` (above it, or below it), as a share of the limit
    (absolute where the limit is 0)."""
    gap = (value - limit) if above else (limit - value)
    return gap / abs(limit) if limit else gap


def at_least(value: float, limit: float, evidence: str) -> Outcome:
    """Whether value >= limit, with its margin."""
    return Outcome(value >= limit, evidence, margin=room(value, limit, above=True))


def at_most(value: float, limit: float, evidence: str) -> Outcome:
    """Whether value <= limit, with its margin."""
    return Outcome(value <= limit, evidence, margin=room(value, limit, above=False))


def both(*outcomes: Outcome) -> Outcome:
    """All of the outcomes: holds when each does, its evidence theirs, its margin the smallest stated."""
    margins = [o.margin for o in outcomes if o.margin is not None]
    return Outcome(all(o.holds for o in outcomes), "; ".join(o.evidence for o in outcomes),
                   margin=min(margins) if margins else None)


@dataclass(frozen=True)
class Claim:
    name: str
    statement: str
    check: Callable[..., Outcome]
    # Checked only where this holds: a compute.conditions.Condition, named here and not imported, so that a
    # lesson's build stamp (sitebuild.pages.stamps follows every import, even the type checker's) does not take
    # in the story models a condition reads; a project's claims need no conditions module.
    only: "Condition | None" = None  # noqa: F821
    says: tuple[Says, ...] = ()           # what it states, as data (compute.says); its statement is written from it
    strengths: tuple[Strength, ...] = ()  # the words of strength it checks at their limits (compute.strength)


class Registry:
    """The named claims of one lesson; each check takes the same arguments."""

    def __init__(self):
        self.claims: dict[str, Claim] = {}

    def claim(self, states: str | Says | tuple[Says, ...], only: Condition | None = None,
              strength: Strength | tuple[Strength, ...] = ()):
        """Register a check function under its own name. `states`: what it checks, as data (a Says, or several,
        its statement written from them) or, for a claim not yet stated as data, in words. With `only`, it is
        checked only where that holds; `strength`: the words of strength it checks at their limits (their
        meaning is added to the statement)."""
        says = states if isinstance(states, tuple) else (states,) if isinstance(states, Says) else ()
        words = strength if isinstance(strength, tuple) else (strength,)
        words = tuple(dict.fromkeys(words + tuple(s.strength for s in says if s.strength)))
        text = said(says) if says else states
        extra = [w for w in words if not any(s.strength == w for s in says)]
        if extra:
            text = text.rstrip(".") + "".join(f" ({w.word}: {w.meaning})" for w in extra) + "."

        def register(fn: Callable[..., Outcome]):
            self.claims[fn.__name__] = Claim(fn.__name__, text, fn, only, says, words)
            return fn
        return register

    def check_all(self, *args, names: list[str] | None = None) -> list[tuple[Claim, Outcome]]:
        """Every claim (or the named ones) with its outcome."""
        chosen = [self.claims[n] for n in names] if names else list(self.claims.values())
        results = [(c, checked(c, *args)) for c in chosen]
        if not _NESTED[0]:          # claims checked inside another claim's check (on another model) are not the page's
            for c, o in results:
                _record_outcome(c, o)
        return results

    def require_all(self, *args, source: str = "") -> None:
        """Raise ClaimError naming each broken claim and its numbers."""
        broken = [f"claim {c.name} fails: {c.statement} [{o.evidence}]"
                  for c, o in self.check_all(*args) if not o.holds]
        if broken:
            where = f" ({source})" if source else ""
            raise ClaimError("; ".join(broken) + where)


def _record_outcome(claim: Claim, outcome: Outcome) -> None:
    """While the site builds, each claim's outcome and margin goes into the page's record (compute.present.prose),
    for the build's list of fragile claims."""
    from .buildrecord import record_entry
    margin = None if outcome.margin is None else float(outcome.margin)          # numpy's numbers as JSON's
    record_entry({"claim": claim.name, "holds": bool(outcome.holds), "applies": bool(outcome.applies), "margin": margin})


_NESTED = [0]   # how many claim checks are running: one that checks claims on another model records none of them
COMPUTING = (ArithmeticError, LookupError, ValueError, TypeError)   # what numbers that cannot be computed raise


def checked(claim: Claim, *args, **kwargs) -> Outcome:
    """The claim's outcome; one whose numbers cannot be computed (models trained on other data may lack what it
    reads: no rise in a curve, no probe a head decides) does not hold, and says why. Anything else (a checkpoint
    that cannot be read, an interruption) stays its own error. A claim whose condition does not hold is not checked:
    it stops nothing, and its sentences are not published (compute.conditions)."""
    if claim.only is not None and not claim.only.holds():
        return Outcome(True, f"not checked: {claim.only.otherwise}", applies=False)
    _NESTED[0] += 1
    try:
        return claim.check(*args, **kwargs)
    except COMPUTING as err:
        return Outcome(False, f"its numbers cannot be computed here ({type(err).__name__}: {err})")
    finally:
        _NESTED[0] -= 1


def trend(values: Sequence[float | None], labels: Sequence[str], direction: str, by: float = 0.0,
          decimals: int = 3) -> Outcome:
    """Whether `values` rise (or fall) at every step between neighbouring labels, each step by more than `by`; its
    margin is the smallest step's room over `by` (where `by` is 0: the smallest step as a share of the value it
    starts from).

    A sentence about a trend is checked on every step it covers: the evidence lists each step, and names
    the steps that go the other way. Missing values (None) are skipped, with their label.
    """
    if direction not in ("rises", "falls"):
        raise ValueError(f"direction must be 'rises' or 'falls', not {direction!r}")
    points = [(label, float(v)) for label, v in zip(labels, values) if v is not None]
    sign = 1 if direction == "rises" else -1
    against = [f"{a} -> {b}" for (a, x), (b, y) in zip(points, points[1:]) if sign * (y - x) <= by]
    path = " -> ".join(f"{label} {v:.{decimals}f}" for label, v in points)
    missing = [label for label, v in zip(labels, values) if v is None]
    evidence = path + (f"; not {direction} at {', '.join(against)}" if against else "") + \
        (f"; no value at {', '.join(missing)}" if missing else "")
    # each step's room: over `by`, as a share of it; where `by` is 0, the step as a share of the value it leaves
    rooms = [room(sign * (y - x), by, above=True) if by else sign * (y - x) / abs(x) if x else sign * (y - x)
             for (_, x), (_, y) in zip(points, points[1:])]
    return Outcome(len(points) >= 2 and not against, evidence, margin=min(rooms) if rooms else None)


def claims_table(results: list[tuple[Claim, Outcome]]) -> str:
    """A plain-text table for the terminal."""
    width = max(len(c.name) for c, _ in results)
    lines = [f"{'claim':<{width}}  holds  margin  evidence"]
    for c, o in results:
        mark = "n/a" if not o.applies else "yes" if o.holds else "NO "
        lines.append(f"{c.name:<{width}}  {mark:<5}  {margin_text(o.margin):>6}  {o.evidence}")
    fragile = [f"{c.name} ({margin_text(o.margin)})" for c, o in results
               if o.applies and o.holds and o.margin is not None and o.margin < FRAGILE]
    if fragile:
        lines.append(f"within {FRAGILE:.0%} of failing: {', '.join(fragile)}")
    return "\n".join(lines)


def margin_text(margin: float | None) -> str:
    """A margin as the check's table prints it: '8%', or '-' where the claim states none."""
    return "-" if margin is None else f"{margin:.0%}" if abs(margin) >= 0.01 else f"{margin:.1%}"
