"""A bound sentence against what its claims state as data: its words of strength, and who it sets above whom.

* **words of strength** (compute.strength: "near chance", "copies", "flat", "leads", ...) mean one thing on every
  page: a sentence that uses one rests on a claim that checks it at its limit (the claim names the word), or it is
  refused, naming the word and its meaning;
* **direction against data**: a claim that says a measure rises (or falls, or stays flat) refuses a sentence that
  names the measure and moves it another way ("the largest weight rises" where the data say it falls; "its time
  rises" where they say it stays flat; "as T grows" moves T, not the measure);
* **order against data**: a claim stated as data (compute.says) says which subject's measure is higher; a sentence
  that sets its subjects the other way ("the MLP leads the four-head model", "the one-head model's loss is lower")
  says the reverse, whatever words the claim's statement used: "leads", "beats", "better" set the better one first,
  which for a loss or a time is the lower one.

The audit reads the lexicon and the claims' data from compute (compute.checks.claim_strengths, claim_says), so a
project without them checks neither.
"""
from __future__ import annotations

import re

from sitebuild.audit import reading
from sitebuild.audit.coverage import _RELATION, MENTION


def strength_gaps(sentence: str, claims: list[str], lexicon, strengths: dict[str, list[str]]) -> list[str]:
    """Each word of strength of `sentence` (plain text) that none of its `claims` checks: phrases for the
    audit's error line. `lexicon`: compute.strength.strengths_in; `strengths`: {claim: [words it checks]}."""
    text = MENTION.sub("\u2058", sentence)
    checked = {w for n in claims for w in strengths.get(n, [])}
    return [f"the word '{found[0]}' ({word.word}: {word.meaning}; none of its claims checks it: a claim that does "
            f"names it, @claim(..., strength=...))"
            for word, found in lexicon(text) if word.word not in checked]


def order_gaps(sentence: str, says: list[dict], named_at) -> list[str]:
    """Each order of `sentence` (plain text) that sets two subjects the other way from a claim's data: the claim
    says which is higher (greater, less, a chain); "more", "longer", "costlier" set the higher first, and "leads",
    "better", "faster" the better, which is the lower where lower is better (a loss, a time)."""
    out = []
    for o in reading.orders(sentence, named_at):
        for s in says:
            higher = next((p for p in _pairs(s, named_at) if {o.above, o.below} == set(p)), None)
            if higher is None:
                continue
            # the subject the claim puts above in the sentence's sense: the higher value ("more", "longer",
            # "costlier"), or the better ("leads", "faster"), which is the lower where lower is better (a time)
            better = o.family in BETTER
            above = higher[1] if better and s["lower_is_better"] else higher[0]
            if o.above != above:
                sense = "better" if better else "higher"
                out.append(f"the order: the sentence sets {o.said()}, its claim's data make {above} the {sense} "
                           f"in {s['measure']}")
    return out


BETTER = ("rank", "speed")    # families whose word sets the better one first; the others, the higher value


def direction_gaps(sentence: str, says: list[dict]) -> list[str]:
    """Each measure a claim's data say rises (or falls) that `sentence` (plain text) names and then moves the other
    way, in the same clause and not negated: "the largest weight rises" against data that say it falls."""
    out = []
    for s in says:
        if s["relation"] not in ("rises", "falls", "flat"):
            continue
        for m in _measure(s["measure"]).finditer(sentence):
            clause = re.split(r"[;:.!?]", sentence[m.end():], maxsplit=1)[0]
            moves = sorted((w.start(), way) for way in ("rises", "falls") for w in _RELATION[way].finditer(clause)
                           if not _AS.search(clause[:w.start()]))         # "as T grows": T moves, not the measure
            if moves and moves[0][1] != s["relation"] and not reading.negations(clause[:moves[0][0] + 20]):
                said = "stays flat" if s["relation"] == "flat" else s["relation"]
                out.append(f"the direction: the sentence says {m.group().strip()} {moves[0][1]}, its claim's "
                           f"data say it {said}")
    return out


_AS = re.compile(r"(?<![\w-])(?:as|while|when|with)\s+[\w'’$\\-]+(?:\s+[\w'’-]+)?\s*$", re.I)


def _measure(measure: str) -> re.Pattern:
    """A measure as a sentence names it: by its head ("the largest softmax weight of the fixed scores" is named by
    "the largest weight"): the first and last content words before "of", up to two words between."""
    head = re.split(r"\s(?:of|on|at|in|per|for|between|beyond)\s", measure)[0]
    words = [w for w in re.findall(r"[\w'’-]+", head) if w.lower() not in ("the", "a", "an", "its")]
    words = words[:1] + words[-1:] if len(words) > 1 else words
    return re.compile(r"(?<![\w-])" + r"(?:\s+[\w'’-]+){0,2}\s+".join(map(re.escape, words)) + r"(?![\w-])", re.I)


def _pairs(says: dict, named_at) -> list[tuple[str, str]]:
    """(the subject with the higher measure, one with a lower) for each pair a claim's data compare (greater:
    the first above each other one; less: below each), as the lesson's subject names; none for other relations
    or for subjects the lesson does not name."""
    names = [next((n for _, n in named_at(subject)), None) for subject in says["subjects"]]
    if says.get("along") and says["relation"] in ("rises", "falls"):    # from each subject to the next
        steps = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]     # a chain: every earlier, later
                 if a is not None and b is not None and a != b]
        return [(b, a) if says["relation"] == "rises" else (a, b) for a, b in steps]
    if says["relation"] in ("largest", "smallest"):          # the first against each other one it names
        says = {**says, "relation": "greater" if says["relation"] == "largest" else "less"}
    if says["relation"] not in ("greater", "less"):
        return []
    first, rest = names[0], [n for n in names[1:] if n is not None and n != names[0]]
    if first is None:
        return []
    return [(first, n) if says["relation"] == "greater" else (n, first) for n in rest]


class Statements(dict):
    """{claim: its statement}, with what the claims state as data beside it: `strengths` ({claim: [words of
    strength it checks]}), `says` ({claim: [its data]}) and `lexicon` (compute.strength.strengths_in, or a reader
    that finds none). Read from compute where it has them (compute.checks), empty where it has not."""

    def __init__(self, statements: dict[str, str], checks=None):
        super().__init__(statements)
        self.strengths = checks.claim_strengths() if hasattr(checks, "claim_strengths") else {}
        self.says = checks.claim_says() if hasattr(checks, "claim_says") else {}
        self.lexicon = _lexicon() if self.strengths else (lambda text: [])


def _lexicon():
    from compute.strength import strengths_in   # the project's own lexicon, imported where the audit runs in it
    return strengths_in


def unread_orders(sentence: str, subjects) -> list[str]:
    """Each directed comparing word of `sentence` (plain text of one clause) that sets a subject against nothing the
    audit can read ("... the four-head model is ahead.", "... and so it leads."), where the clause names two or more
    of a group: it compares them in a way the audit cannot check, so it is refused with how to write it."""
    group = {n: g for g, names in subjects.groups.items() for n in names}
    read = {o.word for o in reading.orders(sentence, subjects.places) if group[o.above] == group[o.below]}
    named: dict[str, set[str]] = {}
    for _, n in subjects.places(sentence):
        named.setdefault(group[n], set()).add(n)
    if not any(len(ns) >= 2 for ns in named.values()):
        return []
    compared = {g for g, ns in named.items() if len(ns) >= 2}
    out = []
    for start, end, word, family, _ in reading._directed(sentence):
        rest = re.split(r"[;:.!?]", sentence[end:], maxsplit=1)[0]
        after = {group[n] for _, n in subjects.places(rest)}
        # words that rank subjects as wholes ("leads", "ahead", "faster"); "more", "below" often set a value
        # against a number or a population, which the ranges and bounds check
        if word not in read and family in BETTER and not compared & after:
            out.append(f"'{word}' sets a subject against nothing named after it, so the audit cannot read who is "
                       f"compared with whom: write '<subject> {word} <subject>', or split the clause at a semicolon")
    return out


def data_gaps(part: str, claims: list[str], statements: dict, subjects) -> list[str]:
    """What a clause says against its claims' data (words of strength they do not check, orders and directions they
    reverse; nothing where `statements` carries no data: a plain {claim: statement}), and the orders it sets that the
    audit cannot read."""
    unread = unread_orders(part, subjects)
    if not isinstance(statements, Statements):
        return unread
    says = [d for n in claims for d in statements.says.get(n, [])]
    return (unread + strength_gaps(part, claims, statements.lexicon, statements.strengths)
            + order_gaps(part, says, subjects.places) + direction_gaps(part, says))
