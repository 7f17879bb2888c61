"""The real TinyStories text format: stories separated by lines that read <|endoftext|>."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .story import Story
from .tokenizer import words

SEPARATOR = "<|endoftext|>"


class DataError(Exception):
    """A story file that cannot be read; the message is one sentence naming the file."""


def _text(path: Path) -> str:
    """The file's text, or a DataError saying why it is not a text file."""
    if not path.exists():
        raise DataError(f"The story file {path} does not exist.")
    if path.is_dir():
        raise DataError(f"The story file {path} is a folder, not a file.")
    data = path.read_bytes()
    # NUL is valid UTF-8, but no text file holds one; it means a binary file.
    if b"\0" in data:
        raise DataError(f"The story file {path} is not a UTF-8 text file: it holds NUL bytes.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DataError(f"The story file {path} is not a UTF-8 text file: byte {e.start} is not valid UTF-8.") from None


def read_stories(path: str | Path) -> list[str]:
    """Each story's text, stripped; empty stories are skipped."""
    path = Path(path)
    stories, lines = [], []
    for number, line in enumerate(_text(path).splitlines(), start=1):
        if line.strip() == SEPARATOR:
            stories.append("\n".join(lines).strip())
            lines = []
        elif SEPARATOR in line:
            raise DataError(f"The story file {path} is malformed: line {number} holds {SEPARATOR} "
                            f"next to other text.")
        else:
            lines.append(line)
    stories.append("\n".join(lines).strip())  # the last story need not end with a separator
    stories = [s for s in stories if s]
    if not stories:
        raise DataError(f"The story file {path} holds no stories.")
    return stories


def write_stories(path: str | Path, texts: Iterable[str]) -> None:
    """Write stories in the same format, each followed by a separator line."""
    parts = []
    for text in texts:
        if SEPARATOR in text:
            raise ValueError(f"a story holds the separator {SEPARATOR}: {text[:60]!r}")
        parts.append(f"{text.strip()}\n{SEPARATOR}\n")
    Path(path).write_text("".join(parts), encoding="utf-8")


def stories_from_file(path: str | Path) -> list[Story]:
    """The file's stories, tokenized as the generated ones are; real text has no probes."""
    return [Story(text, tuple(words(text)), ()) for text in read_stories(path)]
