"""What a claim states, as data: the things compared, the measure, the relation, its range and its strength.

A claim registered with a `Says` (or several, all of which it checks) has its English statement written from it
(`statement`), so the statement cannot say other than the data; the audit reads a page's sentence and compares it
with the same data (sitebuild.audit.strength): who is set above whom, which way, how strongly.

    Says("greater", "name accuracy", ("four-head model", "one-head model"), by=0.05)
    -> "The four-head model's name accuracy is higher than the one-head model's, by at least 0.05."
    Says("largest", "weight in row 13 of A", ("position 9 (fall)",), over="of the row's 16")
    -> "Position 9 (fall)'s weight in row 13 of A is the largest of the row's 16."
    Says("equal", "the stable and the naive softmax", by=1e-12, over="wherever the naive one is finite")
    -> "The stable and the naive softmax are the same wherever the naive one is finite, within 1e-12."
"""
from __future__ import annotations

from dataclasses import dataclass

from .strength import Strength

# Each relation, and how a statement writes it (the words are ones the audit reads for the same relation).
RELATIONS = ("greater", "less", "equal", "rises", "falls", "flat", "settles", "at least", "at most", "none", "largest",
             "smallest")


@dataclass(frozen=True)
class Says:
    relation: str                       # one of RELATIONS
    measure: str                        # what is measured: "validation loss", "object accuracy beyond 8 tokens"
    subjects: tuple[str, ...] = ()      # the things compared, in order: the first is set against the others
    by: float | str | None = None       # the strength the check requires: the gap (greater, less: "by at least";
    #                                     largest, smallest: over the next); the tolerance (equal: "within", 0 for
    #                                     exactly; flat, settles); the limit (at least, at most)
    over: str = ""                      # the range it holds over: "from 1–8 tokens back to more than 64"
    strength: Strength | None = None    # the word of strength it backs (compute.strength), checked at its limit
    lower_is_better: bool = False       # a measure where less is better (a loss, a time): "beats" is "lower"
    along: bool = False                 # rises, falls: from each subject to the next, in order (not within each)

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise ValueError(f"a claim's relation is one of {', '.join(RELATIONS)}, not {self.relation!r}")
        if ((self.relation in ("greater", "less") or self.along or (self.relation == "equal" and self.subjects))
                and len(self.subjects) < 2):
            raise ValueError(f"'{self.relation}' compares two things at least; {self.measure!r} names "
                             f"{len(self.subjects)}")

    def sentence(self) -> str:
        """The statement this data makes, in English."""
        first, rest = (self.subjects[0], self.subjects[1:]) if self.subjects else ("", ())
        whose = f"{_cap(_poss(first))} {self.measure}" if first else _cap(self.measure)
        over = f" {self.over}" if self.over else ""
        r = self.relation
        if r in ("greater", "less"):
            side = "higher" if r == "greater" else "lower"
            gap = f", by at least {self.by}" if self.by is not None else ""
            most = f", the {'highest' if r == 'greater' else 'lowest'} of them" if len(rest) > 1 else ""
            if any(len(s.split()) > 3 for s in self.subjects):    # long names read better as "that of ..."
                whose, others = f"The {self.measure} of {first}", "that of " + _and(rest)
            else:
                others = _and([_poss(s) for s in rest])
            text = f"{whose} is {side} than {others}{over}{gap}{most}"
        elif r == "equal":
            within = "exactly" if self.by == 0 else f"within {self.by}"
            things = f"{_and([_poss(s) for s in self.subjects])} {self.measure}" if self.subjects else self.measure
            text = f"{_cap(things)} are the same{over}, {within}"
        elif r in ("largest", "smallest"):
            side = "above" if r == "largest" else "below"
            among = f", {side} {_and([_poss(s) for s in rest])}" if rest else ""
            gap = f" by at least {self.by}" if self.by is not None and rest else \
                f", {side} the next by at least {self.by}" if self.by is not None else ""
            text = f"{whose} is the {r}{over}{among}{gap}"
        elif r in ("rises", "falls") and self.along:
            step = f", each step by at least {self.by}" if self.by is not None else ""
            text = f"{_cap(self.measure)} {r} from {' to '.join(self.subjects)}{over}{step}"
        elif r in ("rises", "falls"):
            gap = f", by at least {self.by}" if self.by is not None else ""
            text = f"{_for(self.subjects)}{self.measure if rest else whose} {r}{over}{gap}"
        elif r == "flat":
            text = f"{_for(self.subjects)}{self.measure if rest else whose} stays flat{over}, within {self.by}"
        elif r == "settles":
            text = f"{whose} settles within {self.by} of its final value{over}"
        elif r == "none":
            text = f"None of {self.measure}{over}"
        else:
            text = f"{_for(self.subjects)}{self.measure if rest else whose} is {r} {self.by}{over}"
        return text + (f" ({self.strength.word}: {self.strength.meaning})" if self.strength else "") + "."

    def as_data(self) -> dict:
        """The fields as plain data (for the audit, which reads no compute objects)."""
        return {"relation": self.relation, "measure": self.measure, "subjects": list(self.subjects),
                "by": self.by, "over": self.over, "strength": self.strength.word if self.strength else None,
                "lower_is_better": self.lower_is_better, "along": self.along}


def statement(says: Says | tuple[Says, ...]) -> str:
    """The English statement of one Says or of several (each a sentence)."""
    return " ".join(s.sentence() for s in (says if isinstance(says, tuple) else (says,)))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _poss(subject: str) -> str:
    """"the MLP" -> "the MLP's"; "the transformers" -> "the transformers'"."""
    return subject + ("'" if subject.endswith("s") else "'s")


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _for(subjects: tuple[str, ...]) -> str:
    """"For the one-head model and the four-head model, " when a relation holds for several subjects each."""
    return f"For {_and(subjects)}, " if len(subjects) > 1 else ""
