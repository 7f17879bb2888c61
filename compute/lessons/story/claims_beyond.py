"""Part III's claims beyond the templates: the models on held-out template families and on hand-written stories;
merged into claims.STORY."""
from __future__ import annotations

from ...claims import Outcome, Registry, at_least, at_most, both, room
from ...conditions import GENERATED_STORIES
from ...probes import KIND_NAMES
from ...published.story import NAMES
from ...says import Says
from ...strength import COPIES
from .states import evaluation as ev
from .states import relations as rel

BEYOND = Registry()
claim = BEYOND.claim

FOUR, ONE = NAMES["four-head"], NAMES["one-head"]
TRANSFORMERS = (ONE, FOUR)
TRANSFER = 0.05          # "as well as on the trained families": at most this much lower
DROP = 0.1               # a fall of at least this between the trained and the held-out families
FAR_BELOW = 0.25         # "far below": at least this much lower
COPIES_MORE = 0.25       # the word ranked first is a mentioned one at least this much more often than the right one


def _split(name: str, split: str, key: str) -> float:
    return ev.scores(name, split)[key]


@claim((Says("at least", "accuracy on objects and colours on the held-out families", ("the one-head model",
                                                                                    "the four-head model"),
             by=f"their trained-family accuracy less {TRANSFER}", over="(as well as on the trained families)"),
        Says("at least", "accuracy on objects and colours on the held-out families", ("the one-head model",
                                                                                    "the four-head model"),
             by=COPIES.limit, strength=COPIES)), only=GENERATED_STORIES)
def held_out_objects_and_colours_transfer():
    parts = []
    for m in TRANSFORMERS:
        for kind in ("object", "colour"):
            a, b = _split(m, "in-template", kind), _split(m, "held-out", kind)
            parts += [at_least(b, a - TRANSFER, f"{m} {kind} {a:.3f} -> {b:.3f}"), at_least(b, COPIES.limit, "copies")]
    return both(*parts)


def _drops(split: str, kinds, by: float) -> Outcome:
    """The four-head model's accuracy on `split` at least `by` below its trained-family accuracy, each kind."""
    pairs = {kind: (_split(FOUR, "in-template", kind), _split(FOUR, split, kind)) for kind in kinds}
    return both(*(at_least(a - b, by, f"{kind} {a:.3f} -> {b:.3f}") for kind, (a, b) in pairs.items()))


@claim(Says("falls", "accuracy on names and on places", ("the four-head model",),
            over="from the trained families to the held-out families", by=DROP), only=GENERATED_STORIES)
def held_out_names_and_places_drop():
    return _drops("held-out", ("name", "place"), DROP)


@claim(Says("greater", "share of held-out name probes at which it ranks first", ("a mentioned name", "the right one"),
            by=COPIES_MORE, over="for the four-head model (it still names a child of the story)"),
       only=GENERATED_STORIES)
def held_out_names_stay_in_the_story():
    right, mentioned = _split(FOUR, "held-out", "name"), _split(FOUR, "held-out", "name a mentioned word")
    return at_least(mentioned - right, COPIES_MORE, f"a mentioned name {mentioned:.3f}, the right name {right:.3f}")


@claim(Says("falls", "accuracy on every kind", ("the four-head model",),
            over="from the trained families to the hand-written stories", by=FAR_BELOW))
def hand_written_falls_short():
    return _drops("hand-written", KIND_NAMES, FAR_BELOW)


@claim(Says("greater", "share of probes at which the four-head model ranks it first, on the hand-written stories for "
            "every kind,", ("a mentioned word", "the right one"), by=COPIES_MORE,
            over="(it still repeats a word from the story)"))
def hand_written_copies_a_mentioned_word():
    found = {kind: (_split(FOUR, "hand-written", kind), _split(FOUR, "hand-written", f"{kind} a mentioned word"))
             for kind in KIND_NAMES}
    return both(*(at_least(mentioned - right, COPIES_MORE, f"{kind}: mentioned {mentioned:.3f}, right {right:.3f}")
                  for kind, (right, mentioned) in found.items()))


# The same three models trained with the relation families (states.relations): what teaching the relations did.
RAISE = 0.05             # "more often than the page's four-head model": at least this much higher


def _relation_hand(kind: str, word_kind: str) -> float:
    return rel.scores(kind, "hand-written")[word_kind]


@claim(Says("at most", "accuracy within kind on the hand-written stories, for names and for places (trained with the "
            "relation families)", ("the four-head model",), by=rel.GOAL), only=GENERATED_STORIES)
def relations_fall_short_of_the_goal():
    name, place = _relation_hand("four-head", "name"), _relation_hand("four-head", "place")
    return both(at_most(name, rel.GOAL, f"names {name:.3f}"), at_most(place, rel.GOAL, f"places {place:.3f}, goal {rel.GOAL}"))


@claim(Says("greater", "accuracy on names and on places on the hand-written stories",
            ("the four-head model trained with the relation families", "the four-head model trained without them"),
            by=RAISE), only=GENERATED_STORIES)
def relations_raise_hand_written_names_and_places():
    pairs = {k: (_split(FOUR, "hand-written", k), _relation_hand("four-head", k)) for k in ("name", "place")}
    return both(*(at_least(b - a, RAISE, f"{k} {a:.3f} -> {b:.3f}") for k, (a, b) in pairs.items()))


@claim(Says("greater", "accuracy on names and on places on the hand-written stories (each model trained with the "
            "relation families)", ("the four-head model", "the one-head model", "the MLP")), only=GENERATED_STORIES)
def relations_four_head_leads_on_hand_written():
    parts = []
    for k in ("name", "place"):
        four, one, mlp = (_relation_hand(m, k) for m in ("four-head", "one-head", "mlp"))
        parts.append(Outcome(four > max(one, mlp), f"{k}: four heads {four:.3f}, one head {one:.3f}, MLP {mlp:.3f}",
                             margin=room(four, max(one, mlp), above=True)))
    return both(*parts)
