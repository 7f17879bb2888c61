"""The real TinyStories text format: stories separated by lines that read <|endoftext|>."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .story import Story
from .tokenizer import words

SEPARATOR = "<|endoftext|>"


class DataError(Exception):
    """A story file that cannot be read; the message is one sentence naming the file."""


def utf16_order(data: bytes) -> str | None:
    """'little-endian' or 'big-endian' when the bytes look like UTF-16 text (a byte-order mark, or a NUL in every
    other byte as UTF-16 writes Latin letters), else None."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "little-endian" if data[:2] == b"\xff\xfe" else "big-endian"
    if len(data) < 2 or len(data) % 2:
        return None
    for order, low, high in (("little-endian", data[0::2], data[1::2]), ("big-endian", data[1::2], data[0::2])):
        if high.count(0) >= 0.5 * len(high) and low.count(0) <= 0.1 * len(low):
            try:
                data.decode("utf-16-le" if order == "little-endian" else "utf-16-be")
            except UnicodeDecodeError:
                continue
            return order
    return None


def _text(path: Path) -> str:
    """The file's text, or a DataError saying why it is not a UTF-8 text file."""
    if not path.exists():
        raise DataError(f"The story file {path} does not exist.")
    if path.is_dir():
        raise DataError(f"The story file {path} is a folder, not a file.")
    data = path.read_bytes()
    order = utf16_order(data)
    if order:
        raise DataError(f"The story file {path} is UTF-16 ({order}) text, not UTF-8: save it as UTF-8 and try again.")
    # NUL is valid UTF-8, but no text file holds one; it means a binary file.
    if b"\0" in data:
        raise DataError(f"The story file {path} is not a UTF-8 text file: it holds NUL bytes.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DataError(f"The story file {path} is not a UTF-8 text file: byte {e.start} is not valid UTF-8.") from None


@dataclass(frozen=True)
class StoryFile:
    """A story file's stories (stripped, empty ones skipped) and whether text followed its last separator."""
    texts: list[str]
    last_unclosed: bool  # the last story has no closing separator (kept: the file may have been cut short)


def read_story_file(path: str | Path) -> StoryFile:
    """The stories of a TinyStories-format file; a DataError for a file without stories or separators.

    The last story need not end with a separator line: it is kept, and `last_unclosed` says so, since a
    file cut short in the middle of a story looks the same. A file with text but no separator line at all
    (one long line, say) is refused: it is not in the format."""
    path = Path(path)
    stories, lines, separators = [], [], 0
    for number, line in enumerate(_text(path).splitlines(), start=1):
        if line.strip() == SEPARATOR:
            stories.append("\n".join(lines).strip())
            lines, separators = [], separators + 1
        elif SEPARATOR in line:
            raise DataError(f"The story file {path} is malformed: line {number} holds {SEPARATOR} "
                            f"next to other text.")
        else:
            lines.append(line)
    tail = "\n".join(lines).strip()
    texts = [s for s in (*stories, tail) if s]
    if not texts:
        raise DataError(f"The story file {path} holds no stories.")
    if not separators:
        raise DataError(f"The story file {path} has no {SEPARATOR} line, so it is not in the TinyStories format "
                        f"(stories separated by lines that read {SEPARATOR}).")
    return StoryFile(texts, bool(tail))


def read_stories(path: str | Path) -> list[str]:
    """Each story's text, stripped; empty stories are skipped."""
    return read_story_file(path).texts


def write_stories(path: str | Path, texts: Iterable[str]) -> None:
    """Write stories in the same format, each followed by a separator line."""
    parts = []
    for text in texts:
        if SEPARATOR in text:
            raise ValueError(f"a story holds the separator {SEPARATOR}: {text[:60]!r}")
        parts.append(f"{text.strip()}\n{SEPARATOR}\n")
    Path(path).write_text("".join(parts), encoding="utf-8")


def as_stories(texts: Iterable[str]) -> list[Story]:
    """Texts tokenized as the generated stories are; real text has no probes."""
    return [Story(text, tuple(words(text)), ()) for text in texts]


def stories_from_file(path: str | Path) -> list[Story]:
    """The file's stories, tokenized as the generated ones are; real text has no probes."""
    return as_stories(read_stories(path))
