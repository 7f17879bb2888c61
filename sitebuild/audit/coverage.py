"""What a sentence says, and whether the claims it rests on say it: relations, subjects and ranges.

`TRIGGERS` are the words (and two numbers set against each other) that make a sentence a comparison the
audit asks to be bound or marked (sitebuild.audit.check); `RELATIONS` read the same words finer.

A claim states what it covers in its own statement, the sentence written next to its check
(`@claim("Objects fall at every step from 9-16 to 33-64 tokens back, for both transformers.")`): the
same reading that finds what a page's sentence says finds what the claim says. A bound sentence is covered
when

* every *relation* it states (a direction, a comparison, an order, a quantifier, a size, ...: `RELATIONS`,
  read from its words) is stated by one of its claims, or implied by one (`IMPLIES`: "the largest" implies
  a comparison; a claim's number with a bound, "at least 0.9", backs a word of size, "nearly");
* every *subject* it names (a model, a kind of probe, a mixer: each lesson's `subjects`, groups of names
  with their other spellings) is named by one of its claims; and a sentence that names no member of a
  group (no model at all) speaks of the whole group, so its claims must cover every member of it;
* every *range* it writes out ("from 9-16 to 33-64", "T = 16 to 2048") is written in one of its claims.

`uncovered(sentence_text, statements, subjects)` gives what is not covered, in words, for the audit's
error line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# What a sentence states, and the words that state it. Matched case-insensitively on the sentence's plain
# text (roles, code and math masked). The list errs towards asking: a sentence about the method says so.
# sitebuild.audit.coverage reads the same kinds of words, finer (RELATIONS), to match a sentence with its claims.
TRIGGERS: dict[str, str] = {
    "a direction": r"ris(?:e|es|en|ing)|rose|fall(?:s|en|ing)?|fell|drops?|dropped|dropping|grows?|grown|growing|grew|"
                   r"shrinks?|shrank|shrinking|climbs?|climbed|increas\w*|decreas\w*|declin\w*|jumps?|jumped|"
                   r"doubl(?:e|es|ed|ing)|halv(?:e|es|ed|ing)|tripl\w*|improv\w*|worsen\w*|peaks?|peaked|recover\w*",
    "a comparison": r"more|less|fewer|than|higher|lower|larger|smaller|bigger|greater|better|worse|faster|slower|"
                    r"cheaper|dearer|costlier|longer|shorter|stronger|weaker|above|below|exceed\w*|beats?|"
                    r"outperform\w*|ahead|behind|same|equal(?:ly|s)?|identical|similar(?:ly)?|unlike|instead|"
                    r"matches|agrees with|"
                    r"overtak\w*|catch(?:es)? up|"
                    # verbs of comparison
                    r"outdo(?:es|ne|ing)?|outdid|dwarf(?:s|ed|ing)?|trail(?:s|ed|ing)?|lags?|lagged|lagging|"
                    r"towers? over|towered over|edges? out|edged out|outstrips?|surpass\w*|eclipses?",
    "an order": r"most|least|highest|lowest|largest|smallest|biggest|greatest|best|worst|fastest|slowest|cheapest|"
                r"longest|shortest|strongest|weakest|ranks?|ranked|favourite|winner|wins?",
    "a quantifier": r"every|all|none|nothing|never|always|only|no (?:better|worse|more|less|single|one|head|model|"
                    r"other|sample|story)",
    "a qualitative size": r"near(?:ly)?|close to|almost|hardly|barely|roughly|approximately|mostly|much|many|few|"
                          r"little|tiny|huge|sharp(?:ly)?|steep(?:ly)?|smooth(?:ly)?|sudden(?:ly)?|gradual(?:ly)?|"
                          r"slight(?:ly)?|strong(?:ly)?|clear(?:ly)?|decisive(?:ly)?|dominan\w*|chance|coin|ties?|"
                          r"tied|constant|flat|linearly|linear (?:growth|in)|quadratic(?:ally)?|exponential(?:ly)?|negligible|"
                          r"significant(?:ly)?|margin|confident(?:ly)?|sure|exactly|several|enough|even(?:ly)?|"
                          r"uniform(?:ly)?|half|twice|majority|minority|rarely|often|usually|seldom",
    "a multiple": r"\w+fold|times as|times (?:more|less|faster|slower|larger|smaller)|thrice|a tenth|a quarter|a third",
    "a share": r"a fraction of|(?:the )?lion['’]s share|most of|the bulk of|share of|proportion",
    "an invariance": r"(?:does|do|did) not (?:depend|change|move|vary)|stays?|stayed|unchanged|unaffected|"
                     r"nothing at all|no matter|regardless",
}
_TRIGGER = {what: re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.I) for what, words in TRIGGERS.items()}
# Two numbers set against each other in one sentence ("0.9 against 0.4", "0.53 vs 0.02", "from 0.025 to 0.033").


def triggers(text: str) -> list[str]:
    """The comparing words of a sentence's plain text (and two numbers set against each other), in order."""
    found = [(m.start(), m.group().lower()) for pattern in _TRIGGER.values() for m in pattern.finditer(text)]
    found += [(m.start(), m.group()) for m in DIGITS.finditer(text)]
    return [w for _, w in sorted(found)]


def caught(text: str) -> list[str]:
    """Why a sentence is caught: each kind of statement it makes and the words that make it ("a direction:
    falls"); `--list` prints it."""
    out = []
    for what, pattern in _TRIGGER.items():
        words = list(dict.fromkeys(m.group().lower() for m in pattern.finditer(text)))
        if words:
            out.append(f"{what}: {', '.join(words)}")
    digits = [m.group() for m in DIGITS.finditer(text)]
    if digits:
        out.append(f"two numbers set against each other: {', '.join(digits)}")
    return out


# Each relation and the words that state it (case-insensitive, whole words; a phrase may span a space).
RELATIONS: dict[str, str] = {
    "rises": r"ris(?:e|es|en|ing)|rose|grow(?:s|n|ing)?|grew|climb(?:s|ed|ing)?|increas\w*|jump(?:s|ed)?|"
             r"improv\w*|gains?|gained",
    "falls": r"fall(?:s|en|ing)?|fell|drops?|dropped|dropping|shrinks?|shrank|shrinking|declin\w*|decreas\w*|"
             r"worsen\w*|flattens?",
    "compare": r"more|less|fewer|than|higher|lower|larger|smaller|bigger|greater|better|worse|faster|slower|"
               r"cheaper|dearer|costlier|longer|shorter|stronger|weaker|above|below|exceed\w*|beats?|beaten|"
               r"outperform\w*|outdo(?:es|ne|ing)?|outdid|dwarf(?:s|ed)?|trail(?:s|ed|ing)?|lags?|lagged|"
               r"ahead|behind|overtak\w*|catch(?:es)? up|towers? over|edges? out|outstrips?|surpass\w*",
    "same": r"same|equal(?:ly|s)?|identical|similar(?:ly)?|unchanged|stays?|stayed|constant|flat|"
            r"matches|agrees with|"
            r"(?:does|do) not depend|nothing at all|no matter",
    "differ": r"unlike|differ(?:s|ed|ent|ently)?|instead",
    "extreme": r"most(?!\s+of(?![\w-]))|least|highest|lowest|largest|smallest|biggest|greatest|best|worst|fastest|"
               r"slowest|cheapest|longest|shortest|strongest|weakest|ranks?|ranked|favourite|winner|wins?|peaks?|peaked",
    "every": r"every|all|always|each",
    "none": r"none|nothing|never|no (?:better|worse|more|less|single|one|head|model|other|sample|story)",
    "only": r"only",
    "near": r"near(?:ly)?|close to|almost|roughly|approximately",
    "size": r"hardly|barely|mostly|much|many|few|little|tiny|huge|sharp(?:ly)?|steep(?:ly)?|smooth(?:ly)?|"
            r"sudden(?:ly)?|gradual(?:ly)?|slight(?:ly)?|strong(?:ly)?|clear(?:ly)?|decisive(?:ly)?|dominan\w*|"
            r"negligible|significant(?:ly)?|margin|confident(?:ly)?|sure|several|enough|even(?:ly)?|"
            r"uniform(?:ly)?|often|usually|rarely|seldom",
    "share": r"half|majority|minority|a fraction of|the lion's share|lion’s share|most of|share",
    "multiple": r"twice|double[sd]?|doubling|triple[sd]?|halv(?:e|es|ed|ing)|\w+fold|times as|times (?:more|less)|"
                r"\d+(?:\.\d+)? times",
    "chance": r"chance|coin|ties?|tied",
    "exact": r"exactly",
    "shape": r"linearly|(?:grows?|growth) (?:is )?linear|quadratic(?:ally)?|exponential(?:ly)?",
}
_RELATION = {what: re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.I) for what, words in RELATIONS.items()}
# A number set against another in one sentence: "0.9 against 0.4", "0.53 vs 0.02", "from 0.025 to 0.033"; a
# number is written in digits or glued ({glue:text}`name`: sitebuild.audit.sentences.GLUED in a sentence's plain text).
_DIGITS = r"\d(?:[\d.,]*\d)?"
_NUMBER = rf"(?:{_DIGITS}|\u2042)"
DIGITS = re.compile(rf"{_NUMBER}\s*%?\s*(?:against|vs\.?|versus|→|->)\s*{_NUMBER}|"
                    rf"(?<![\w-])from\s+{_NUMBER}\s*%?\s+to\s+{_NUMBER}", re.I)
# The same, in digits only (what a sentence marked as method may not write).
DIGITS_WRITTEN = re.compile(rf"{_DIGITS}\s*%?\s*(?:against|vs\.?|versus|→|->)\s*{_DIGITS}|"
                            rf"(?<![\w-])from\s+{_DIGITS}\s*%?\s+to\s+{_DIGITS}", re.I)
# A claim that sets a bound on a number ("at least 0.9", "below 0.05", "within 2 of") backs words of size.
BOUND = re.compile(r"at (?:least|most)|within|below|above|under|over|between|no more than|not more than|"
                   r"less than|more than|\d", re.I)

# "at least", "at most": a bound on a number (read by BOUND), not an order's "least" or "most".
BOUND_WORDS = re.compile(r"(?<![\w-])at\s+(?:the\s+)?(?:least|most)(?![\w-])", re.I)

WITHIN = re.compile(r"(?<![\w-])within(?![\w-])", re.I)
RATIO = re.compile(r"(?<![\w-])(?:\d+(?:\.\d+)? times|times as|\w+fold|twice|ratio|slope|doubl\w*|halv\w*|half|"
                   r"\d+/\w+)(?![\w-])|×",
                   re.I)

# What a claim's relation also covers in a sentence.
IMPLIES: dict[str, set[str]] = {
    "rises": {"compare"}, "falls": {"compare"}, "extreme": {"compare", "only", "differ"}, "differ": {"compare"},
    "compare": {"differ", "only"}, "multiple": {"compare"}, "shape": {"rises", "compare"},
    # sameness is the absence of change ("nothing moves", "never changes"), and exactly so
    "same": {"exact", "none"}, "exact": {"same"},
    # "no head does" is "every head does not"
    "every": {"none"}, "none": {"every", "only"},
}
# Words of degree a claim's bound on a number backs (it is the number that says how near, how much, how few).
DEGREE = {"near", "size", "share", "chance", "only"}   # not a multiple: "twice" needs a claim that states a ratio


# A word mentioned, not used: *rise* in a sentence, 'rise' or "rise" in a claim's statement (the walkthrough's
# vocabulary has "rise" and "fall"; they state no direction there).
MENTION = re.compile(r"(?<![\w*])\*[^*\s][^*]*\*(?![\w*])|(?<![\w'])'[^'\s][^']*'(?![\w'])|\"[^\"]+\"|“[^”]+”")


def relations(text: str) -> dict[str, list[str]]:
    """{relation: the words that state it} of a text (roles and math masked), words mentioned left out."""
    text = MENTION.sub(lambda m: "\u2042" if "\u2042" in m.group() else "\u2058", text)
    text = BOUND_WORDS.sub("at \u2058", text)     # "at least 0.9" is a bound, no superlative
    found: dict[str, list[str]] = {}
    for what, pattern in _RELATION.items():
        words = [m.group().lower() for m in pattern.finditer(text)]
        if words:
            found[what] = words
    compared = [m.group() for m in DIGITS.finditer(text) if not m.group().lower().startswith("from")]
    if compared:  # "from 16 to 2048" is a range (checked as one), "0.9 against 0.4" a comparison
        found.setdefault("compare", []).extend(compared)
    return found


def covered_relations(statements: list[str]) -> set[str]:
    """The relations a set of claim statements covers: what they state, what that implies, and words of degree
    where a statement bounds a number."""
    out: set[str] = set()
    for s in statements:
        out |= set(relations(s))
        if BOUND.search(s):
            out |= DEGREE
        if BOUND_WORDS.search(s):  # "at most 0.6" sets a value against a limit: what "below 0.6" says
            out.add("compare")
        if WITHIN.search(s):      # equal within a tolerance: what "matches" and "the same" say of measured values
            out.add("same")
        if RATIO.search(s):       # a ratio, a multiple or a log-log slope (growth per doubling) backs "twice", "3x"
            out.add("multiple")
    while True:  # what is implied by what is implied
        more = set().union(*(IMPLIES.get(what, set()) for what in out)) - out
        if not more:
            return out
        out |= more


@dataclass(frozen=True)
class Subjects:
    """A lesson's subjects: groups (models, kinds, ...) of names, each name with the spellings that name it."""
    groups: dict[str, dict[str, tuple[str, ...]]]   # {group: {name: (spelling, ...)}}
    wholes: dict[str, tuple[str, ...]] = None        # {spelling: names}: a spelling that names several at once

    def named(self, text: str) -> dict[str, set[str]]:
        """{group: names} a text names (its spellings whole words, case-insensitive)."""
        out: dict[str, set[str]] = {}
        for group, names in self.groups.items():
            for name, spellings in names.items():
                if any(_word(sp).search(text) for sp in spellings):
                    out.setdefault(group, set()).add(name)
        for spelling, names in (self.wholes or {}).items():
            if _word(spelling).search(text):
                for name in names:
                    group = next(g for g, members in self.groups.items() if name in members)
                    out.setdefault(group, set()).add(name)
        return out

    def places(self, text: str) -> list[tuple[int, str]]:
        """[(position, name)] of every spelling of a name in `text`, in order (sitebuild.audit.reading)."""
        found = {(m.start(), name) for names in self.groups.values() for name, spellings in names.items()
                 for sp in spellings for m in _word(sp).finditer(text)}
        return sorted(found)


def _word(spelling: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])", re.I)


NO_SUBJECTS = Subjects({})


def uncovered(sentence: str, statements: list[str], subjects: Subjects = NO_SUBJECTS, before: str = "") -> list[str]:
    """What `sentence` (plain text) says that `statements` (its claims') do not: one phrase per gap. A sentence
    that names no member of a group and refers back ("it", "they", "the model") speaks of what `before` (the
    sentence before it) names: those must be its claims' subjects; where that names none either, the pronoun
    refers to nothing the audit can read, and the sentence is refused."""
    gaps = []
    said = relations(sentence)
    cover = covered_relations(statements)
    for what, words in said.items():
        if what not in cover:
            gaps.append(f"{what} ({', '.join(dict.fromkeys(words))})")
    claimed: dict[str, set[str]] = {}
    for s in statements:
        for group, names in subjects.named(s).items():
            claimed.setdefault(group, set()).update(names)
    named = subjects.named(sentence)
    for group, members in subjects.groups.items():
        mine, theirs = named.get(group, set()), claimed.get(group, set())
        if mine - theirs:
            gaps.append(f"{', '.join(sorted(mine - theirs))} (its claims are about {', '.join(sorted(theirs)) or 'no '+group})")
        elif not mine and theirs and (theirs != set(members) or PRONOUN_SUBJECT.match(sentence)):
            back = REFERS_BACK.search(sentence)
            earlier = subjects.named(before).get(group, set()) if back else set()
            if not back:
                gaps.append(f"every {group.rstrip('s')} (the sentence names none; its claims cover only "
                            f"{', '.join(sorted(theirs))})")
            elif not earlier:
                gaps.append(f"the {group.rstrip('s')} '{back.group()}' refers to (the sentence before names none; "
                            f"name it: its claims are about {', '.join(sorted(theirs))})")
            elif earlier - theirs:
                gaps.append(f"{', '.join(sorted(earlier - theirs))} ('{back.group()}': named in the sentence before; "
                            f"its claims are about {', '.join(sorted(theirs))})")
    for low, high in RANGE.findall(sentence):
        if not any(_written_range(low, high, s) for s in statements):
            gaps.append(f"the range {low} to {high} (no claim of it states that range)")
    return gaps


# A sentence that says "it", "its", "they" ... speaks of what the sentence before it named: the subject is there.
REFERS_BACK = re.compile(r"(?<![\w-])(?:it|its|they|their|them|this|these|those|the model|the head)(?![\w-])",
                         re.I)

# A sentence whose subject is a pronoun: what it speaks of is in the sentence before, or nowhere.
PRONOUN_SUBJECT = re.compile(r"\s*(?:it|its|they|their|this|these)(?![\w-])", re.I)

# A range written out in prose: "from 9–16 to 33–64", "T = 16 to 2048", "1 to 8".
RANGE = re.compile(r"(?:from\s+)?(\d[\d.,–-]*)(?:\s+(?:tokens?|words?|back|steps?)){0,2}\s+to\s+(\d[\d.,–-]*)", re.I)


def _written_range(low: str, high: str, statement: str) -> bool:
    norm = lambda t: t.replace("–", "-").rstrip(".,")  # noqa: E731
    numbers = {norm(n) for n in re.findall(r"\d[\d.,–-]*", statement)}
    return norm(low) in numbers and norm(high) in numbers
