"""A story file split for training: whole stories, every 20th held out for validation, a held-out story that
repeats another dropped; what a file needs to be trained on. Training (compute.training.story_cli) and the corpus
Part III reads back from the file (compute.published.corpus) split it the same way."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .story import Story
from .tinystories import DataError, StoryFile, as_stories


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


def require_size(data: FileData, path: Path, context: int, rule: FileSplit = FileSplit()) -> FileData:
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


def file_data(path: Path, story_file: StoryFile, context: int, rule: FileSplit = FileSplit()
              ) -> tuple[FileData, dict]:
    """The file's training and validation stories, and where they came from (for the manifest); `context`: the
    tokens a model reads, of which the training stories must give at least one sequence."""
    data = require_size(split_stories(as_stories(story_file.texts), rule), path, context, rule)
    source = {"source": str(path), "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest(),
              "stories": len(story_file.texts), "train_stories": len(data.train), "val_stories": len(data.val),
              "val_dropped_as_repeats": data.dropped, "held_out": f"every {rule.every}th story",
              "last_story_unclosed": story_file.last_unclosed}
    return data, source
