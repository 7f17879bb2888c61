"""Words of strength: what each word that grades a result means, written once for the whole site.

A page that says a model "copies" objects, that an accuracy is "near chance" or that a time "stays flat" uses the
word with one meaning on every page: the one written here, with its number. A claim that backs such a sentence
names the word (`@claim(..., strength=COPIES)`), checks its numbers against the word's limit, and its statement
ends with the word's meaning; the audit (sitebuild.audit.strength) refuses a bound sentence that uses a word of
strength none of its claims checks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Strength:
    word: str                    # its name, as the audit's messages write it
    spellings: tuple[str, ...]   # how a sentence writes it (whole words, case-insensitive)
    meaning: str                 # what a claim backing it checks, with its number
    limit: float                 # that number

    def found_in(self, text: str) -> list[str]:
        """The spellings of the word in `text`, in order."""
        return [m.group().lower() for m in _pattern(self.spellings).finditer(text)]


def _pattern(spellings: tuple[str, ...]) -> re.Pattern:
    words = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.I)


NEAR_CHANCE = Strength(
    "near chance", ("near chance", "close to chance", "at chance"),
    "an accuracy at most 0.05 above a uniform guess among the words of its kind", 0.05)
A_COIN = Strength(
    "no better than a coin", ("no better than a coin", "a coin's", "a coin"),
    "right at most 0.05 more often than one half, choosing between two", 0.05)
COPIES = Strength(
    "copies", ("copies", "copy", "copied"),
    "the right word of its kind, among the words of that kind, at least 0.6 of the time", 0.6)
LEADS = Strength(
    "leads", ("leads", "leading"),
    "an accuracy at least 0.05 higher", 0.05)
MATCHES = Strength(
    "matches", ("matches",),
    "two accuracies within 0.02 of each other", 0.02)
FLAT = Strength(
    "flat", ("flat", "about the same time"),
    "a log-log slope within 0.2 of zero over the range (under 15 % per doubling)", 0.2)
SUDDENLY = Strength(
    "suddenly", ("suddenly", "sudden", "abruptly"),
    "a rise of at least 0.25 between two neighbouring points of a learning curve", 0.25)
MOSTLY = Strength(
    "most of the time", ("most of the time",),
    "a share of at least 0.8", 0.8)

LEXICON: tuple[Strength, ...] = (NEAR_CHANCE, A_COIN, COPIES, LEADS, MATCHES, FLAT, SUDDENLY, MOSTLY)
BY_WORD = {s.word: s for s in LEXICON}


def strengths_in(text: str) -> list[tuple[Strength, list[str]]]:
    """[(word of strength, its spellings found)] of `text`: where "no better than a coin" is found, its "a coin"
    is not read again, nor "near chance"'s "chance"."""
    out, rest = [], text
    for s in sorted(LEXICON, key=lambda s: -max(map(len, s.spellings))):
        found = s.found_in(rest)
        if found:
            out.append((s, found))
            rest = _pattern(s.spellings).sub("\u2058", rest)
    return out
