"""Stories the models write: seeded samples side by side, and counts over a few hundred of them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import torch

from ....data.story import KINDS
from ....data.tokenizer import EOS, readable
from ....generate import Sampling, generate
from ....kept import kept
from ....published.story import MODELS, NAMES, checkpoint_files, load, story_corpus

SAMPLING = Sampling(temperature=0.8, max_tokens=200)
SEED = 0            # the sampling seed: the same seed gives the same stories
N_SAMPLES = 200     # stories per model for the counts
SHOWN = 2           # samples printed per model


@dataclass(frozen=True)
class SampleCounts:
    n: int
    cast_kept: float           # share of samples naming no more children than a training story ever does
    colours_kept: float        # share of samples with a repeated object that give no object more colours than a
                               # training story gives one
    with_repeats: int          # samples that mention some object (with a colour) more than once
    copied: int                # samples equal to a training story word for word
    mean_tokens: float         # a sample's length in tokens (words and punctuation), on average
    mean_names: float          # distinct names per sample
    names_per_100: float       # distinct names per 100 tokens, summed over the samples


@lru_cache(maxsize=4)
@kept(reads=lambda kind: checkpoint_files(NAMES[kind]))
def samples(kind: str) -> tuple[tuple[str, ...], ...]:
    """N_SAMPLES stories from one model, each started from <eos>, as word tuples (seeded; kept on disk)."""
    data = story_corpus()
    model = load(NAMES[kind]).model
    torch.set_num_threads(2)
    prompts = torch.full((N_SAMPLES, 1), data.vocab.index(EOS), dtype=torch.long)
    return tuple(tuple(data.vocab.decode(ids)) for ids in generate(model, prompts, SAMPLING, SEED))


ENDS = {".", "!", "?"}


def whole_sentences(tokens: tuple[str, ...], limit: int) -> tuple[str, ...]:
    """A sample as shown: one that reached the token `limit` before the end-of-story marker is cut after its
    last full sentence (a closing quote kept with it); one that ended is whole."""
    if len(tokens) < limit:
        return tuple(tokens)
    last = max((i for i, t in enumerate(tokens) if t in ENDS), default=len(tokens) - 1)
    return tuple(tokens[: last + (2 if last + 1 < len(tokens) and tokens[last + 1] == '"' else 1)])


def as_text(tokens) -> str:
    """Tokens back into readable text (capitals, spacing, names)."""
    return "".join(space + word for space, word in readable(tokens, KINDS["name"]))


@lru_cache(maxsize=1)
def training_limits() -> dict[str, int]:
    """The most names any training story mentions, and the most colours it gives one object."""
    names = set(KINDS["name"])
    stories = [s.tokens for s in story_corpus().train]
    return {"names": max(len(names & set(s)) for s in stories),
            "colours": max((len(set(v)) for s in stories for v in object_colours(s).values()), default=1)}


def counts(kind: str) -> SampleCounts:
    stories = samples(kind)
    train = {s.tokens for s in story_corpus().train}
    names, limit = set(KINDS["name"]), training_limits()
    coloured = [c for c in map(object_colours, stories) if any(len(v) > 1 for v in c.values())]
    return SampleCounts(
        n=len(stories),
        cast_kept=sum(len(names & set(s)) <= limit["names"] for s in stories) / len(stories),
        colours_kept=sum(all(len(set(v)) <= limit["colours"] for v in c.values()) for c in coloured)
        / max(1, len(coloured)),
        with_repeats=len(coloured),
        copied=sum(tuple(s) in train for s in stories),
        mean_tokens=sum(len(s) for s in stories) / len(stories),
        mean_names=sum(len(names & set(s)) for s in stories) / len(stories),
        names_per_100=100 * sum(len(names & set(s)) for s in stories) / sum(len(s) for s in stories))


@lru_cache(maxsize=1)
def training_names() -> dict[str, float]:
    """Distinct names per training story and per 100 of its tokens: what the samples' counts are held against."""
    names, stories = set(KINDS["name"]), [s.tokens for s in story_corpus().train]
    found = sum(len(names & set(s)) for s in stories)
    return {"mean_names": found / len(stories), "names_per_100": 100 * found / sum(len(s) for s in stories)}


def object_colours(tokens) -> dict[str, list[str]]:
    """For each object word, the colour word just before each of its mentions (a story gives an object one
    colour, or two when its owner chooses between two of them; more means the writer lost track)."""
    objects, colours = set(KINDS["object"]), set(KINDS["colour"])
    out: dict[str, list[str]] = {}
    for before, word in zip(tokens, tokens[1:]):
        if word in objects and before in colours:
            out.setdefault(word, []).append(before)
    return out


def all_counts() -> dict[str, SampleCounts]:
    return {kind: counts(kind) for kind in MODELS}
