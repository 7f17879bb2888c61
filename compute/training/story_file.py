"""Training on a TinyStories-format file: a budget in passes, a curve point often enough, the share of unknown
words (the file's split into training and validation stories: compute.data.story_file)."""
from __future__ import annotations

import math

from ..data.story import Story
from ..data.tokenizer import Vocabulary
from .story import StoryRecipe

DEFAULT_PASSES = 10     # a file's default budget: this many passes over its training text, or the recipe's tokens
CURVE_POINTS = 20       # a file's learning curve has at least this many points (a point every step in short runs)


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
