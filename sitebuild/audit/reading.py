"""What a sentence says, read closer than its kinds of words: who is set above whom, whether it is negated, and
the numbers it types. The same reading is made of a bound sentence and of its claims' statements, and the two
must agree (sitebuild.audit.check):

* **order**: a comparing word with a direction ("leads", "trails", "more", "fewer", "faster", ...) sets the
  subject named before it against the one named after it. "The four-head model leads the MLP" and "the MLP
  trails the four-head model" read alike: (rank: four-head over MLP). A sentence that sets the two subjects of
  its claim the other way round, in the same family of words, says the reverse of it;
* **negation**: "not", "never", "no longer", "fails to", "cannot", ... turn what follows round. A sentence that
  negates where its claims do not (or states where they negate) says the opposite of them; idioms that state
  sameness ("does not depend on", "no matter") and "not only" are no negation;
* **typed numbers**: a percentage, a decimal, a count out of a whole ("3 of 4") or a multiple ("3x", "3 times")
  typed into prose is a computed value written by hand: it is refused wherever it stands (glue it instead);
* **a result marked as method**: a sentence marked method or general that names a lesson's subject and says which
  way it went, which is the most, or sets it above another states a result, which rests on a claim.

Each gives a phrase for the audit's error line, saying what disagrees.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from sitebuild.audit.coverage import _RELATION, MENTION, relations

# Comparing words with a direction, by family: +1 sets the subject before the word above the one after it.
DIRECTED: dict[str, dict[str, int]] = {
    "rank": {w: +1 for w in ("leads", "lead", "led", "leading", "ahead of", "ahead", "beats", "beat", "beaten", "outperforms",
                             "outperform", "outperformed", "better than", "wins over", "edges out", "surpasses",
                             "surpassed", "outdoes", "outdid", "overtakes", "overtook", "outstrips")}
            | {w: -1 for w in ("trails", "trail", "trailed", "trailing", "behind", "worse than", "lags", "lag",
                               "lagged", "lags behind", "falls behind", "loses to")},
    "amount": {w: +1 for w in ("more than", "higher than", "larger than", "greater than", "bigger than", "above",
                               "exceeds", "exceed", "exceeded")}
              | {w: -1 for w in ("less than", "fewer than", "lower than", "smaller than", "below")},
    "speed": {"faster than": +1, "slower than": -1},
    "cost": {"cheaper than": -1, "dearer than": +1, "costlier than": +1, "more expensive than": +1},
    "length": {"longer than": +1, "shorter than": -1},
    "strength": {"stronger than": +1, "weaker than": -1},
}
_DIRECTED = [(family, word, sign) for family, words in DIRECTED.items() for word, sign in words.items()]


def _directed_pattern(word: str) -> re.Pattern:
    """A directed word as written: "fewer than" also as "fewer children than" (up to three words between)."""
    if word.endswith(" than"):
        head = re.escape(word[:-len(" than")])          # no adverb between: "more cheaply than" is no amount
        return re.compile(rf"(?<![\w-]){head}(?:\s+(?![\w'’-]+ly\b)[\w'’-]+){{0,3}}?\s+than(?![\w-])", re.I)
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.I)


_PATTERNS = [(_directed_pattern(word), word, family, sign)
             for family, word, sign in sorted(_DIRECTED, key=lambda d: -len(d[1]))]


def _directed(text: str) -> list[tuple[int, int, str, str, int]]:
    """(start, end, word, family, sign) of each directed word of `text`, in order; where two overlap, the one
    that starts first (the longer, of two that start together)."""
    found = sorted(((m.start(), -m.end(), word, family, sign) for pattern, word, family, sign in _PATTERNS
                    for m in pattern.finditer(text)))
    out, end = [], -1
    for start, minus_end, word, family, sign in found:
        if start >= end:
            out.append((start, -minus_end, word, family, sign))
            end = -minus_end
    return out

NEGATORS = r"not|n['’]t|never|no longer|fails? to|failed to|cannot|neither|nor|nowhere near|far from"
_NEGATION = re.compile(rf"(?<![\w-])(?:{NEGATORS})(?![\w-])", re.I)
# Negative words that state sameness or scope, not the opposite of a relation.
_IDIOMS = re.compile(r"(?<![\w-])(?:(?:does|do|did|would|will|need|needs)\s+not\s+(?:depend|change|move|vary|matter|"
                     r"need|have to)|need not|not only|no matter|not just|whether or not|if not|not yet)(?![\w-])",
                     re.I)

# Numbers typed by hand: a percentage, a decimal, a count out of a whole, a multiple.
TYPED = re.compile(r"(?<![\w.,\u2042-])(?:\d+(?:\.\d+)?\s*(?:%|per ?cent\b)|\d*\.\d+|\d+\s+(?:of|out of)\s+\d+|"
                   r"\d+(?:\.\d+)?\s*(?:×|x\b|times\b)|one in \d+)(?![\w-])", re.I)
# What may be typed all the same: a version, a year, a section or figure number, code-like identifiers.
_NOT_DATA = re.compile(r"(?:version|v|python|torch|section|§|figure|fig\.|table|part|step|chapter)\s*$", re.I)


_CLAUSE_END = re.compile(r"[;:.!?]")


@dataclass(frozen=True)
class Order:
    family: str       # rank, amount, speed, ...
    above: str        # the subject set above (better, more, faster ...)
    below: str
    word: str         # the word that sets them

    def said(self) -> str:
        return f"{self.above} above {self.below} ({self.family}: '{self.word}')"


def orders(text: str, named_at) -> list[Order]:
    """Each directed comparing word of `text` that has a subject named before it and another after it, read as an
    Order. `named_at(text)` gives [(position, subject)] of the subjects the text names, in order."""
    places = named_at(text)
    words = _directed(text)
    out = []
    for k, (start, end, word, family, sign) in enumerate(words):
        stop = min([m.start() for m in _CLAUSE_END.finditer(text, end)][:1] + [w[0] for w in words[k + 1:k + 2]]
                   + [len(text)])
        before = [s for at, s in places if at < start]
        after = list(dict.fromkeys(s for at, s in places if end <= at < stop and s not in before[-1:]))
        for b in after if before else []:         # "leads the one-head model and the MLP": over each of them
            a = before[-1]
            out.append(Order(family, a if sign > 0 else b, b if sign > 0 else a, word))
    return out


_NEXT_WORDS = re.compile(r"(?:[^\w:;,.!?()]*[\w'’-]+){0,4}")


def _next_words(text: str) -> str:
    """The first four words of `text` within its clause: what a negator before them negates."""
    return _NEXT_WORDS.match(text).group()


def directed_words(text: str) -> list[str]:
    """The directed comparing words of `text` ("leads", "more than", "slower than"), in order."""
    return [word for _, _, word, _, _ in _directed(text)]


def negations(text: str) -> list[str]:
    """What `text` negates: each negating word followed, within three words, by a word that states a relation
    (a direction, a comparison, sameness, an order, a size: sitebuild.audit.coverage.RELATIONS), as
    "<negator> ... <word>" ("not enough", "never falls", "no better"); idioms of sameness and scope left out."""
    kept = _IDIOMS.sub(" ", text)
    out = []
    for m in _NEGATION.finditer(kept):
        reach = _next_words(kept[m.end():])
        hits = [(w.start(), w.group()) for pattern in _RELATION.values() for w in pattern.finditer(reach)]
        if hits:
            at, word = min(hits)
            out.append(f"{m.group().lower()}{reach[:at].rstrip() and ' ...'} {word.lower()}")
    return out


def typed_numbers(text: str) -> list[str]:
    """Numbers typed into `text` (its plain text: glued values, code and math already masked) that are computed
    values written by hand: percentages, decimals, counts out of a whole, multiples (words mentioned aside)."""
    text = MENTION.sub("\u2058", text)
    out = []
    for m in TYPED.finditer(text):
        if not _NOT_DATA.search(text[:m.start()]):
            out.append(m.group().strip())
    return out


def typed_problem(typed: list[str]) -> str:
    """The audit's words for a sentence that types these numbers by hand (typed_numbers)."""
    return (f"types {', '.join(dict.fromkeys(typed))} by hand: a number about the data is glued from "
            "compute ({glue:text}`name`), never typed")


def result_problem(stated: str) -> str:
    """The audit's words for a sentence marked method or general that states a result (results_stated)."""
    return (f"states a result about {stated}: a sentence about what the models or measurements do rests on a claim "
            "({claim}`name`)")


def _stem(word: str) -> str:
    """A word's crude stem, enough to meet it in another form: copies, copy, copied -> copy; leads, lead -> lead."""
    w = word.lower().strip("'’")
    for end, to in (("ies", "y"), ("ied", "y"), ("es", ""), ("ed", ""), ("ing", ""), ("s", "")):
        if w.endswith(end) and len(w) - len(end) >= 3:
            return w[: len(w) - len(end)] + to
    return w


_PLAIN_WORDS = {"the", "a", "an", "of", "to", "in", "on", "at", "and", "or", "is", "are", "be", "its", "it", "as",
                "by", "for", "with", "than", "that", "this", "each", "one", "two"}


_AUXILIARIES = {"do", "does", "did", "be", "been", "being", "is", "are", "was", "were", "have", "has", "had", "yet",
                "even", "always", "quite", "really", "so", "very"}


def negated_claim_words(sentence: str, statements: list[str]) -> list[str]:
    """Each negator of `sentence` whose next word (past auxiliaries and articles) is one its claims state ("does
    not copy" where a claim says it "copies", "fails to lead" where it "leads"): the sentence denies what the claim
    asserts."""
    stated = {_stem(w) for s in statements for w in re.findall(r"[\w'’-]+", s)} - _PLAIN_WORDS
    kept = _IDIOMS.sub(" ", sentence)
    out = []
    for m in _NEGATION.finditer(kept):
        reach = _next_words(kept[m.end():])
        head = next((w for w in re.findall(r"[\w'’-]+", reach) if w.lower() not in _PLAIN_WORDS | _AUXILIARIES),
                    None)
        hit = head if head and _stem(head) in stated else None
        if hit:
            out.append(f"{m.group().lower()} ... {hit.lower()}")
    return out


def disagreements(sentence: str, statements: list[str], named_at) -> list[str]:
    """What the sentence (plain text of one clause) says against its claims' statements: a reversed order, a
    negation one side lacks. Phrases for the audit's error line."""
    out = []
    claimed = [o for s in statements for o in orders(s, named_at)]
    for o in orders(sentence, named_at):
        same = [c for c in claimed if c.family == o.family and {c.above, c.below} == {o.above, o.below}]
        if same and all(c.above != o.above for c in same):
            out.append(f"the order: the sentence sets {o.said()}, its claim sets {same[0].said()}")
    mine = negations(sentence) + negated_claim_words(sentence, statements)
    theirs = [w for s in statements for w in negations(s) + _NEGATION.findall(_IDIOMS.sub(" ", s))]
    if mine and not theirs:
        out.append(f"a negation ({'; '.join(dict.fromkeys(mine))}): its claims negate nothing")
    return out


# What a result says of a lesson's subjects: which way they went, which is the most, or a directed comparison
# ("more than", "leads"; not "two more versions", "the figure above" or a limit, "no more X than").
RESULT_RELATIONS = ("rises", "falls", "extreme")
NOT_A_RESULT = re.compile(r"(?:figure|table|section|list|plot|example)s?\s+(?:above|below)|"
                          r"(?<![\w-])no\s+(?:[\w'’-]+\s+)?(?:more|fewer|less|higher|lower)(?![\w-])", re.I)


def results_stated(plain: str, subjects) -> str:
    """For a sentence marked method or general (its plain text): the subjects it names and the words by which it
    states a result about them ("four-head, MLP: leads"); "" when it states none, or asks (a question). A design
    sentence is not read so: it may compare what was built (a model's size, a head count), true by construction."""
    if plain.rstrip().endswith("?"):
        return ""
    text = NOT_A_RESULT.sub("\u2058", MENTION.sub("\u2058", plain))
    named = sorted(n for names in subjects.named(text).values() for n in names)
    said = relations(text)
    words = [w for what in RESULT_RELATIONS for w in said.get(what, [])] + directed_words(text)
    return f"{', '.join(named)}: {', '.join(dict.fromkeys(words))}" if named and words else ""
