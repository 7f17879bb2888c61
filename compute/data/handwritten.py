"""The hand-written probe set: short stories written by hand, not by the generator.

The stories live in handwritten_stories.txt. Each starts with a line "## <number>. <title>",
and its text runs until the next such line. A probed word is written [word|kind], where
kind is name, object, colour or place, and only where an earlier mention in the same story
decides it. Other lines starting with "#" are comments.

read_handwritten() returns each story's number, title and Story: the text without the
marks, its tokens (tokenizer.words), and one Probe per marked word, sourced at the nearest
earlier occurrence of the word. A mark that cannot be such a probe is a ValueError.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .story import KIND_OF, KINDS, Probe, Story
from .tokenizer import words

DATA_FILES = ("handwritten_stories.txt",)  # read by the lessons: their build stamp covers it (sitebuild.pages.stamps)
PATH = Path(__file__).with_name(DATA_FILES[0])
_HEADER = re.compile(r"##\s*(\d+)\.\s*(.*\S)")
_MARK = re.compile(r"\[([^\[\]|]*)\|([^\[\]|]*)\]")


@dataclass(frozen=True)
class Handwritten:
    """One hand-written story, with its number and title as the file gives them."""
    number: int
    title: str
    story: Story


def read_handwritten(path: str | Path = PATH) -> list[Handwritten]:
    """The file's stories in file order; ValueError names the file, the story and the word at fault."""
    path = Path(path)
    blocks: list[tuple[int, str, list[str]]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        header = _HEADER.fullmatch(line.strip())
        if header:
            if any(int(header[1]) == b[0] for b in blocks):
                raise ValueError(f"{path}, line {n}: story {header[1]} is numbered twice")
            blocks.append((int(header[1]), header[2], []))
        elif line.strip() and not line.startswith("#"):
            if not blocks:
                raise ValueError(f"{path}, line {n}: text before the first '## <number>. <title>' line")
            blocks[-1][2].append(line.strip())
    return [Handwritten(number, title, _story(" ".join(lines), f"{path}, story {number}"))
            for number, title, lines in blocks]


def _story(marked: str, where: str) -> Story:
    """A story from its marked text: the marks taken out, each one a probe."""
    parts, marks, end = [], [], 0
    for m in _MARK.finditer(marked):
        parts.append(marked[end:m.start()])
        marks.append((len(words("".join(parts))), m[1], m[2]))  # the token index the word will have
        parts.append(m[1])
        end = m.end()
    text = "".join(parts) + marked[end:]
    stray = re.search(r"\S*[\[|\]]\S*", text)
    if stray:
        raise ValueError(f"{where}: {stray[0]!r} is not a [word|kind] mark")
    tokens = tuple(words(text))
    probes = []
    for target, word, kind in marks:
        if kind not in KINDS:
            raise ValueError(f"{where}: [{word}|{kind}] has an unknown kind; the kinds are {', '.join(KINDS)}")
        if words(word) != [word.lower()] or KIND_OF.get(word.lower()) != kind:
            raise ValueError(f"{where}: {word!r} is not a {kind} word")
        if target >= len(tokens) or tokens[target] != word.lower():
            raise ValueError(f"{where}: {word!r} is marked inside another word")
        earlier = [i for i in range(target) if tokens[i] == tokens[target]]
        if not earlier:
            raise ValueError(f"{where}: {word!r} is marked, but the story does not mention it before")
        candidates = len({t for t in tokens[:target] if KIND_OF.get(t) == kind})
        probes.append(Probe(target, earlier[-1], kind, candidates))
    return Story(text, tokens, tuple(probes))
