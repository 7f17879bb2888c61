"""Seeded TinyStories-like stories, and the long-range probes: later words that earlier text decides."""
from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .story_words import (ALONE_FILLERS, COLOURS, GAP_SIZES, GENDER, LEXICON, NAMES, OBJECTS,
                         PLACE_PREPOSITIONS, PLACES, TOGETHER_FILLERS)
from .tokenizer import words

# The word kinds a probe can ask for; within-kind chance is 1 / len(KINDS[kind]).
KINDS: dict[str, tuple[str, ...]] = {"name": NAMES, "object": OBJECTS, "colour": COLOURS, "place": PLACES}

# A story's template is a list of sentences with slots. "~" is a gap for filler sentences
# about the world, "~~" a gap that may also hold sentences about the two children together,
# and a leading "?" makes a sentence optional. Slots: {H} {F} the hero and friend; {h.he}
# {h.him} {h.his} {h.kid} (and capitalised {h.He} {h.His}) their pronouns; {thing} "red ball",
# {a_thing} "a red ball"; {thing2} a second owned object; {place} {place2}; {in_place}
# "at the park"; {a_d1} {a_d2} distractor objects; any LEXICON key draws a word afresh.
#
# Each pronoun's referent is the nearest name before it, so a reader (and the test) never
# has to guess: after the friend is named, the hero is named again before "she" means her.
TEMPLATES: dict[str, tuple[str, ...]] = {
    "lost": (
        "Once upon a time, there was a {little} {h.kid} named {H}.",
        "{H} had {a_thing}. {h.He} loved {h.his} {thing}.",
        "~",
        "{day}, {h.he} took {h.his} {thing} to the {place}.",
        "?{h.He} saw {a_d1} and {a_d2} there.",
        "~",
        "Then the {thing} was gone!",
        "~",
        "{H} felt {sad}. {h.His} friend {F} came to help.",
        "They {looked} {spot} and {spot}.",
        "~~",
        "At last, {F} found the {thing} {spot}!",
        "\"Thank you!\" said {H}.",
        "?They played {in_place} until the sun went down.",
    ),
    "share": (
        "{H} was a {little} {h.kid}. {day}, {h.his} mom gave {h.him} {a_thing}.",
        "~",
        "{H} took {h.his} {thing} to the {place}.",
        "~",
        "There {h.he} met {h.his} friend {F}, who had {a_d1}.",
        "\"Can I play with your {thing}?\" asked {F}.",
        "\"No, it is mine,\" said {H}. {F} was {sad}.",
        "~",
        "{H} looked at {h.his} {thing} and did not feel good.",
        "{h.He} ran to {F} and said, \"I am sorry. Let's play together.\"",
        "~~",
        "They took turns with the {thing} {in_place}.",
        "?{H} learned that sharing is fun.",
    ),
    "fix": (
        "There was a {h.kid} named {H} who had {a_thing} and {a_d1}.",
        "The {thing} was the toy {h.he} loved most.",
        "~",
        "{day}, {h.he} dropped the {thing} {in_place} and it broke.",
        "~",
        "{H} began to cry. {h.His} friend {F} came to see.",
        "~",
        "{F} had an idea. {f.He} ran home and came back with some glue.",
        "~~",
        "Together, they fixed the {thing}.",
        "{H} was {happy} and gave {F} a big hug.",
        "~~",
        "Then they played {in_place} until dinner.",
    ),
    "forgot": (
        "{H} and {F} were best friends.",
        "{day}, they went to the {place}, and {H} brought {h.his} {thing}.",
        "~~",
        "They played {in_place} for a long time.",
        "~~",
        "Then they walked to the {place2} to have a snack.",
        "?They saw {a_d1} there.",
        "~~",
        "{H} looked for {h.his} {thing}, but it was gone!",
        "\"I left it {in_place}!\" said {H}.",
        "~",
        "So they ran back to the {place}.",
        "~",
        "The {thing} was {spot}, right where {H} left it.",
        "\"Thank you, {F},\" said {H}.",
    ),
    "gift": (
        "It was {F}'s birthday, and {H} wanted to give {F} a present.",
        "~",
        "At the {place}, {H} saw {a_d1}, but it was too big.",
        "~",
        "Then {h.he} saw {a_thing}.",
        "\"{F} will love this {thing}!\" thought {H}.",
        "~",
        "At the party, {H} gave the present to {F}.",
        "{F} opened it and saw the {thing}.",
        "\"{A_thing}! I love it!\" said {F}.",
        "~~",
        "{F} and {H} played with the {thing} {in_place} all day.",
        "?It was the best birthday ever.",
    ),
    "swap": (
        "{H} had {a_thing}, and {h.his} friend {F} had {a_thing2}.",
        "~",
        "{day}, they met {in_place} and traded for a day.",
        "~~",
        "{H} played with the {thing2}, but {h.he} missed {h.his} {thing}.",
        "~",
        "{F} played with the {thing}, but {f.he} missed {f.his} {thing2}.",
        "~",
        "The next day, they met {in_place} again.",
        "\"I miss my {thing},\" said {H}. \"I miss my {thing2},\" said {F}.",
        "~~",
        "They laughed and traded back.",
        "?{H} hugged {h.his} {thing}, and {F} hugged {f.his} {thing2}.",
    ),
    "wind": (
        "{H} and {F} went to the {place} with {H}'s {thing}.",
        "?They saw {a_d1} near the path.",
        "~~",
        "Suddenly, the wind took the {thing} away!",
        "It landed {spot}. \"My {thing}!\" cried {H}.",
        "~",
        "{F} had an idea. {f.He} used a long stick to get the {thing} down.",
        "~",
        "{F} gave the {thing} back to {H}.",
        "\"You are a good friend, {F},\" said {H}.",
        "~~",
        "They stayed {in_place} until the sun went down.",
    ),
    "rain": (
        "{H} and {F} were playing {in_place} with {H}'s {thing}.",
        "~~",
        "Then it began to rain, and they ran home.",
        "~",
        "At home, {H} saw that {h.his} {thing} was not there.",
        "\"My {thing} is still {in_place}!\" said {H}.",
        "~",
        "The next morning, {H} and {F} went back to the {place}.",
        "~~",
        "They found the {thing} {spot}, next to {a_d1}.",
        "~",
        "{H} was {happy}. {h.He} took {h.his} {thing} home.",
    ),
}


@dataclass(frozen=True)
class Probe:
    """A word that earlier text decides: the model sees tokens[:target] and should say tokens[target].

    source is the nearest earlier occurrence of the same word; candidates counts the
    distinct words of this kind seen before target, the choice a model must make.
    """
    target: int
    source: int
    kind: str
    candidates: int

    @property
    def distance(self) -> int:
        return self.target - self.source


@dataclass(frozen=True)
class Story:
    """One story: its text, its word tokens, and its probes."""
    text: str
    tokens: tuple[str, ...]
    probes: tuple[Probe, ...]


@dataclass(frozen=True)
class CorpusConfig:
    """How many training and validation stories, from which seed."""
    seed: int = 0
    n_train: int = 40_000
    n_val: int = 2_000


@dataclass(frozen=True)
class Pronouns:
    """One character's pronouns, as template slots read them."""
    he: str
    him: str
    his: str
    kid: str

    @property
    def He(self) -> str:  # noqa: N802 - a template slot, capitalised as in the text
        return self.he.capitalize()

    @property
    def His(self) -> str:  # noqa: N802
        return self.his.capitalize()


PRONOUNS = {"f": Pronouns("she", "her", "her", "girl"), "m": Pronouns("he", "him", "his", "boy")}
KIND_OF: dict[str, str] = {w: kind for kind, ws in KINDS.items() for w in ws}


def probes_for(tokens: Sequence[str], kind_of: Mapping[str, str] = KIND_OF) -> tuple[Probe, ...]:
    """A probe at every repeat of a kind word, sourced at its nearest earlier occurrence.

    In a generated story each kind word names one thing (the hero, the red of the hero's
    ball, the park), so every repeat is decided by the earlier mention.
    """
    last: dict[str, int] = {}
    seen: dict[str, set[str]] = defaultdict(set)
    probes = []
    for i, word in enumerate(tokens):
        kind = kind_of.get(word)
        if kind is None:
            continue
        if word in last:
            probes.append(Probe(i, last[word], kind, len(seen[kind])))
        last[word] = i
        seen[kind].add(word)
    return tuple(probes)


def article(word: str) -> str:
    """'a' or 'an' before a word; the word lists hold no vowel letter sounded as a consonant."""
    return "an" if word[0] in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """'a red ball', 'an orange kite'."""
    return f"{article(phrase)} {phrase}"


class _Slots(dict):
    """A template's slot values; a LEXICON slot draws a fresh word, unused in this story if it can."""

    def __init__(self, values: dict, rng: random.Random):
        super().__init__(values)
        self.rng = rng
        self.used: set[str] = set()

    def __missing__(self, key: str) -> str:
        return self.fresh(LEXICON[key])

    def fresh(self, options: Sequence[str]) -> str:
        unused = [o for o in options if o not in self.used]  # list order, never set order: determinism
        choice = self.rng.choice(unused or list(options))
        self.used.add(choice)
        return choice


def cast(rng: random.Random) -> dict:
    """Draw a story's characters, objects and places; each kind word names one thing only."""
    hero, friend = rng.sample(NAMES, 2)
    colour, colour2, colour3, colour4 = rng.sample(COLOURS, 4)
    obj, obj2, obj3, obj4 = rng.sample(OBJECTS, 4)
    place, place2 = rng.sample(PLACES, 2)
    distractors = [f"{c if rng.random() < 0.5 else rng.choice(LEXICON['size'])} {o}"
                   for c, o in ((colour3, obj3), (colour4, obj4))]
    thing, thing2 = f"{colour} {obj}", f"{colour2} {obj2}"
    return {
        "H": hero.capitalize(), "F": friend.capitalize(),
        "h": PRONOUNS[GENDER[hero]], "f": PRONOUNS[GENDER[friend]],
        "thing": thing, "a_thing": with_article(thing), "A_thing": with_article(thing).capitalize(),
        "thing2": thing2, "a_thing2": with_article(thing2),
        "place": place, "place2": place2, "in_place": f"{PLACE_PREPOSITIONS[place]} the {place}",
        "a_d1": with_article(distractors[0]), "a_d2": with_article(distractors[1]),
    }


def render(template: Sequence[str], slots: _Slots) -> str:
    """The template's sentences with slots filled, optional sentences drawn, gaps filled."""
    rng, sentences = slots.rng, []
    for line in template:
        if line in ("~", "~~"):
            pool = ALONE_FILLERS + (TOGETHER_FILLERS if line == "~~" else ())
            sentences.extend(slots.fresh(pool) for _ in range(rng.choice(GAP_SIZES)))
        elif line.startswith("?"):
            if rng.random() < 0.5:
                sentences.append(line[1:].format_map(slots))
        else:
            sentences.append(line.format_map(slots))
    return " ".join(sentences)


def story(rng: random.Random) -> Story:
    """One story drawn from rng."""
    template = TEMPLATES[rng.choice(sorted(TEMPLATES))]
    text = render(template, _Slots(cast(rng), rng))
    tokens = tuple(words(text))
    return Story(text, tokens, probes_for(tokens))


def stream(seed: int) -> Iterator[Story]:
    """An endless, seeded sequence of stories."""
    rng = random.Random(seed)
    while True:
        yield story(rng)


def generate(seed: int, n: int) -> list[Story]:
    """The first n stories of the seed's stream; the same on any machine."""
    return list(itertools.islice(stream(seed), n))


def split_unique(stories: Iterable[Story], n_train: int, n_val: int) -> tuple[list[Story], list[Story]]:
    """The first n_train stories for training, then the next n_val whose texts are new."""
    it = iter(stories)
    train = list(itertools.islice(it, n_train))
    seen = {s.text for s in train}
    val: list[Story] = []
    while len(val) < n_val:
        s = next(it, None)
        if s is None:
            raise ValueError(f"only {len(val)} new stories for validation, {n_val} wanted")
        if s.text not in seen:
            seen.add(s.text)
            val.append(s)
    return train, val


def corpus(cfg: CorpusConfig = CorpusConfig()) -> tuple[list[Story], list[Story]]:
    """Training and validation stories; no validation text is also a training text."""
    return split_unique(stream(cfg.seed), cfg.n_train, cfg.n_val)


def corpus_sha256(stories: Iterable[Story]) -> str:
    """sha256 of the stories' texts, for manifests."""
    return hashlib.sha256(json.dumps([s.text for s in stories]).encode()).hexdigest()
