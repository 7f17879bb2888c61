"""Training on a TinyStories-format file: whole stories held out, a budget in passes, the share of unknown words."""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

from ..data.story import Story
from ..data.tinystories import DataError, StoryFile, as_stories
from ..data.tokenizer import Vocabulary
from .story import StoryRecipe

DEFAULT_PASSES = 10     # a file's default budget: this many passes over its training text, or the recipe's tokens
CURVE_POINTS = 20       # a file's learning curve has at least this many points (a point every step in short runs)


@dataclass(frozen=True)
class FileSplit:
    """How a story file is split: whole stories, every `every`-th one held out for validation."""
    every: int = 20       # the 20th, 40th, ... story of the file is held out
    min_val: int = 10     # validation stories needed, each with a text that no training story has
    min_train: int = 190  # training stories needed (what 200 stories leave)


@dataclass(frozen=True)
class FileData:
    train: list[Story]
    val: list[Story]
    dropped: int          # held-out stories dropped because a training story has the same text (or an earlier one)


def split_stories(stories: list[Story], rule: FileSplit = FileSplit()) -> FileData:
    """Every `every`-th story for validation, the rest for training; a held-out story whose text is also a
    training story's (or another held-out story's) is dropped, so validation never shares a story with training."""
    train = [s for i, s in enumerate(stories) if (i + 1) % rule.every]
    seen, val = {s.text for s in train}, []
    held = stories[rule.every - 1::rule.every]
    for story in held:
        if story.text not in seen:
            seen.add(story.text)
            val.append(story)
    return FileData(train, val, len(held) - len(val))


def require_size(data: FileData, path: Path, rule: FileSplit = FileSplit(), context: int = StoryRecipe.context
                 ) -> FileData:
    """The split, or one DataError sentence saying how many stories (or tokens) a file needs."""
    if len(data.val) < rule.min_val or len(data.train) < rule.min_train:
        raise DataError(f"The story file {path} is too small to train on: it gives {len(data.train)} training "
                        f"stories and {len(data.val)} validation stories (held-out stories with a text no training "
                        f"story has, each text once), and training needs at least {rule.min_train} training and "
                        f"{rule.min_val} validation stories (every {rule.every}th story is held out, so at least "
                        f"{rule.every * rule.min_val} stories).")
    stream = sum(len(s.tokens) + 1 for s in data.train) + 1     # the training stream: each story after an <eos>
    if stream < context + 2:
        raise DataError(f"The story file {path} is too small to train on: its training stories give {stream} "
                        f"tokens, fewer than one sequence of {context + 1} that training cuts from them.")
    return data


def file_data(path: Path, story_file: StoryFile, rule: FileSplit = FileSplit(), context: int = StoryRecipe.context
              ) -> tuple[FileData, dict]:
    """The file's training and validation stories, and where they came from (for the manifest)."""
    data = require_size(split_stories(as_stories(story_file.texts), rule), path, rule, context)
    source = {"source": str(path), "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest(),
              "stories": len(story_file.texts), "train_stories": len(data.train), "val_stories": len(data.val),
              "val_dropped_as_repeats": data.dropped, "held_out": f"every {rule.every}th story",
              "last_story_unclosed": story_file.last_unclosed}
    return data, source


def unknown_share(stories: list[Story], vocab: Vocabulary) -> float:
    """The share of the stories' word tokens that the vocabulary lacks (read as <unk>)."""
    tokens = [w for s in stories for w in s.tokens]
    return sum(vocab.index(w) == 1 for w in tokens) / len(tokens) if tokens else 0.0


def budget_tokens(train_tokens: int, tokens: int | None, passes: float | None, from_file: bool,
                  recipe: StoryRecipe = StoryRecipe()) -> int:
    """The token budget: given in tokens, in passes over the training text, or by default the recipe's (for a
    file: at most DEFAULT_PASSES passes, so a small file is not seen hundreds of times)."""
    if tokens is not None:
        return tokens
    if passes is not None:
        return max(1, math.ceil(passes * train_tokens))
    return min(recipe.tokens, DEFAULT_PASSES * train_tokens) if from_file else recipe.tokens


def file_eval_every(tokens: int, recipe: StoryRecipe) -> int:
    """Tokens between two curve points for a file: the recipe's, or less so the curve has CURVE_POINTS points;
    a whole number of steps."""
    per_step = recipe.batch * recipe.context
    steps = max(1, math.ceil(tokens / per_step) // CURVE_POINTS)
    return min(recipe.eval_every, steps * per_step)


def passes(recipe: StoryRecipe, train_tokens: int) -> float:
    """How many times the budget reads the training text over (tokens seen / training tokens)."""
    return recipe.steps * recipe.batch * recipe.context / train_tokens
