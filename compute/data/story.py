"""Seeded TinyStories-like stories, and the long-range probes: later words that earlier text decides."""
from __future__ import annotations

import hashlib
import itertools
import json
import random
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .story_words import (ALONE_FILLERS, COLOURS, GAP_SIZES, GENDER, LEXICON, NAMES, OBJECTS,
                         PLACE_PREPOSITIONS, PLACES, TOGETHER_FILLERS)
from .tokenizer import words

# The word kinds a probe can ask for; within-kind chance is 1 / len(KINDS[kind]).
KINDS: dict[str, tuple[str, ...]] = {"name": NAMES, "object": OBJECTS, "colour": COLOURS, "place": PLACES}

from .story_templates import HELD_OUT, RECALLS, RELATION_RECALLS, RELATION_TEMPLATES, TEMPLATES  # noqa: E402


class Probe(NamedTuple):
    """A word that earlier text decides: the model sees tokens[:target] and should say tokens[target].

    source is the nearest earlier occurrence of the same word; candidates counts the
    distinct words of this kind seen before target, the choice a model must make.
    A named tuple, not a dataclass: a corpus holds some 680,000 of them, and a tuple is read back from
    compute.kept's file in about a quarter less time.
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
    """One story: its text, its word tokens, its probes, and the template family it was drawn from."""
    text: str
    tokens: tuple[str, ...]
    probes: tuple[Probe, ...]
    family: str = ""  # "" for a story that no template made (read from a file, written by hand)


@dataclass(frozen=True)
class CorpusConfig:
    """How many training and validation stories, from which seed, with which template families held out."""
    seed: int = 0
    n_train: int = 40_000                  # from the trained families only
    n_val: int = 2_000                     # validation stories from the trained families
    n_held_out: int = 1_000                # validation stories from the held-out families, never trained on
    held_out: tuple[str, ...] = HELD_OUT
    relations: bool = False                # also the families and recalls that teach the hand-written relations


@dataclass(frozen=True)
class Edition:
    """Which template families and recall sentences a stream draws from."""
    templates: Mapping[str, tuple]
    recalls: tuple[str, ...]


BASE = Edition(TEMPLATES, RECALLS)
RELATIONS = Edition({**TEMPLATES, **RELATION_TEMPLATES}, RECALLS + RELATION_RECALLS)


def edition(relations: bool) -> Edition:
    return RELATIONS if relations else BASE


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
    hero, friend, passer, host = rng.sample(NAMES, 4)
    colour, colour2, colour3, colour4, colour5 = rng.sample(COLOURS, 5)
    obj, obj2, obj3, obj4 = rng.sample(OBJECTS, 4)
    place, place2 = rng.sample(PLACES, 2)
    distractors = [f"{c if rng.random() < 0.5 else rng.choice(LEXICON['size'])} {o}"
                   for c, o in ((colour3, obj3), (colour4, obj4))]
    thing, thing2, thing3 = f"{colour} {obj}", f"{colour2} {obj2}", f"{colour5} {obj}"
    in_place = f"{PLACE_PREPOSITIONS[place]} the {place}"
    return {
        "H": hero.capitalize(), "F": friend.capitalize(), "D": passer.capitalize(), "P": host.capitalize(),
        "h": PRONOUNS[GENDER[hero]], "f": PRONOUNS[GENDER[friend]], "d": PRONOUNS[GENDER[passer]],
        "thing": thing, "a_thing": with_article(thing), "A_thing": with_article(thing).capitalize(),
        "thing2": thing2, "a_thing2": with_article(thing2), "thing3": thing3, "a_thing3": with_article(thing3),
        "colour": colour, "obj": obj, "a_obj": with_article(obj), "colour2": colour2, "colour3": colour5,
        "obj2": obj2,
        "place": place, "place2": place2, "in_place": in_place, "in_place_cap": in_place.capitalize(),
        "in_place2": f"{PLACE_PREPOSITIONS[place2]} the {place2}",
        "in_place2_cap": f"{PLACE_PREPOSITIONS[place2]} the {place2}".capitalize(),
        "a_d1": with_article(distractors[0]), "a_d2": with_article(distractors[1]),
    }


def render(template: Sequence[str | tuple[str, ...]], slots: _Slots, recalls: tuple[str, ...] = RECALLS) -> str:
    """The template's sentences with slots filled, one of each step's phrasings drawn, optional sentences
    drawn, gaps filled (a "~~" gap may recall the children by name, with one of `recalls`)."""
    rng, sentences = slots.rng, []
    for line in template:
        if isinstance(line, tuple):
            line = rng.choice(line)
        if line in ("~", "~~"):
            pool = ALONE_FILLERS + (TOGETHER_FILLERS + recalls if line == "~~" else ())
            sentences.extend(slots.fresh(pool).format_map(slots) for _ in range(rng.choice(GAP_SIZES)))
        elif line.startswith("?"):
            if rng.random() < 0.5:
                sentences.append(line[1:].format_map(slots))
        else:
            sentences.append(line.format_map(slots))
    return " ".join(sentences)


def story(rng: random.Random, drawn: Edition = BASE) -> Story:
    """One story drawn from rng, of one of the edition's families."""
    family = rng.choice(sorted(drawn.templates))
    text = render(drawn.templates[family], _Slots(cast(rng), rng), drawn.recalls)
    tokens = tuple(map(sys.intern, words(text)))   # one string per word: a kept corpus stores each word once
    return Story(text, tokens, probes_for(tokens), family)


def stream(seed: int, relations: bool = False) -> Iterator[Story]:
    """An endless, seeded sequence of stories (with the relation families too, if asked)."""
    rng, drawn = random.Random(seed), edition(relations)
    while True:
        yield story(rng, drawn)


def generate(seed: int, n: int, relations: bool = False) -> list[Story]:
    """The first n stories of the seed's stream; the same on any machine."""
    return list(itertools.islice(stream(seed, relations), n))


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
    """Training stories from the trained families; then validation stories, n_val from the trained families
    and n_held_out from the held-out ones (in that order). No validation text is also a training text, and
    no story of a held-out family is trained on."""
    if cfg.n_held_out and not cfg.held_out:
        raise ValueError("n_held_out validation stories need held-out families")
    unknown = set(cfg.held_out) - set(edition(cfg.relations).templates)
    if unknown:
        raise ValueError(f"no template family is called {sorted(unknown)}")
    stories = stream(cfg.seed, cfg.relations)
    trained = (s for s in stories if s.family not in cfg.held_out)
    train = list(itertools.islice(trained, cfg.n_train))
    seen = {s.text for s in train}
    kept: dict[bool, list[Story]] = {False: [], True: []}
    want = {False: cfg.n_val, True: cfg.n_held_out}
    while any(len(kept[k]) < want[k] for k in kept):
        s = next(stories)
        held = s.family in cfg.held_out
        if len(kept[held]) < want[held] and s.text not in seen:
            seen.add(s.text)
            kept[held].append(s)
    return train, kept[False] + kept[True]


def corpus_sha256(stories: Iterable[Story]) -> str:
    """sha256 of the stories' texts, for manifests."""
    return hashlib.sha256(json.dumps([s.text for s in stories]).encode()).hexdigest()
