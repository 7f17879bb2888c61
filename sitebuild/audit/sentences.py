"""The sentences of a MyST page, each with its line and the roles inside it.

A page's prose is what a reader reads: paragraphs, list items, headings and
table rows. Front matter, code cells, fenced code, display math (`$$`) and
label lines (`(name)=`) are not prose. A paragraph is split into sentences at
`.`, `!` or `?` followed by a space and a capital (or markup, a code span or a role that starts one);
the full stops of `e.g.`, `i.e.`, `cf.`, `etc.` and `vs.` end nothing, and
nothing inside a role, a code span or inline math splits a sentence.

Each `Sentence` knows the line of the page it starts on, its source text, its
*plain* text (roles and math replaced by a placeholder, links by their text:
what the comparison audit reads) and its roles as `(name, content)` pairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A role with its content: {name}`content` (content may not hold a backtick).
ROLE = re.compile(r"\{(?P<name>[\w:-]+)\}`(?P<content>[^`]*)`")
CODE = re.compile(r"(?<!`)`[^`\n]+`(?!`)")
INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)[^$\n]+?(?<!\\)\$")
LINK = re.compile(r"\[(?P<text>[^\]]*)\]\([^)]*\)")
HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
FENCE = re.compile(r"^(?P<mark>`{3,}|~{3,}|:{3,})\s*(?P<info>\S*)")
# Directives whose body is prose a reader reads (their `:option:` lines are not).
PROSE_DIRECTIVES = {"{note}", "{tip}", "{important}", "{warning}", "{admonition}", "{dropdown}", "{seealso}",
                    "{list-table}", "{epigraph}", "{sidebar}", "{topic}", "{only}"}
ONLY = "{only}"  # a block published only where its tag is set (compute.conditions): its sentences know it
ABBREVIATIONS = ("e.g.", "i.e.", "cf.", "etc.", "vs.", "approx.", "Fig.", "Sec.", "No.", "et al.")
# A sentence ends at . ! or ? (after any closing quote or bracket), then whitespace and a sentence start.
_END = re.compile(r"[.!?][\"'”’)*_]*\s+(?=[\"'“‘(*_\[]*[A-Z0-9\u00c0-\u024f{$`\u2058])")
PLACEHOLDER = "\u2058"  # what a role's or a formula's text becomes in `plain`: a word the audit never matches
GLUED = "\u2042"        # what a glued value ({glue:text}`name`) becomes in `plain`: a number, for the audit


@dataclass(frozen=True)
class Sentence:
    line: int                            # 1-based line of the page where the sentence starts
    source: str                          # its MyST source, lines joined with spaces
    plain: str                           # roles, code and math as placeholders, links as their text
    roles: tuple[tuple[str, str], ...]   # (role name, content), in order
    heading: int = 0                     # a heading's level (1 for the page's title), 0 for prose
    only: str = ""                       # the tag of the {only} block the sentence sits in ("" outside one)

    def role_contents(self, name: str) -> list[str]:
        return [c for n, c in self.roles if n == name]


@dataclass(frozen=True)
class _Block:
    lines: list[tuple[int, str]]  # (line number, text) of one paragraph, list item, heading or table row
    whole: bool = False           # a heading or a table row: one sentence, never split
    heading: int = 0              # a heading's level
    only: str = ""                # the tag of the {only} block it sits in


def prose_blocks(text: str) -> list[_Block]:
    """The page's prose, as blocks of consecutive lines (paragraphs, items, headings, table rows)."""
    blocks: list[_Block] = []
    current: list[tuple[int, str]] = []
    fences: list[tuple[str, bool, str]] = []  # open fences: (marker, is its body prose?, the {only} tag it sets)

    def only() -> str:
        return next((tag for _, _, tag in reversed(fences) if tag), "")

    def close():
        if current:
            blocks.append(_Block(list(current), only=only()))
            current.clear()

    lines = text.splitlines()
    i = 0
    if lines and lines[0].strip() == "---":  # front matter
        i = next((k for k in range(1, len(lines)) if lines[k].strip() == "---"), len(lines) - 1) + 1
    in_math = False
    while i < len(lines):
        n, line = i + 1, lines[i]
        s = line.strip()
        i += 1
        fence = FENCE.match(s)
        if fence and not in_math:
            if fences and _closes(s, fences[-1][0]):
                close()
                fences.pop()
                continue
            close()
            prose = fence["info"] in PROSE_DIRECTIVES and (not fences or fences[-1][1])
            fences.append((fence["mark"], prose, s[fence.end():].strip() if fence["info"] == ONLY else ""))
            continue
        if fences and not fences[-1][1]:
            continue
        if s.startswith("$$"):
            close()
            if not (len(s) > 2 and s.endswith("$$") and s != "$$"):
                in_math = not in_math
            continue
        if in_math:
            continue
        if (not s or s.startswith(":") and fences or re.fullmatch(r"\([\w-]+\)=", s) or s.startswith("<!--")
                or s.startswith("%")):                      # a MyST comment line
            close()
            continue
        if s.startswith("#") or s.startswith("|"):  # a heading or a table row stands alone
            close()
            if not re.fullmatch(r"\|[\s:|-]+\|?", s):  # not the |---| line under a table's header
                level = len(s) - len(s.lstrip("#"))
                blocks.append(_Block([(n, s.lstrip("#").strip())], whole=True, heading=level, only=only()))
            continue
        if re.match(r"([*+-]|\d+[.)])\s+|\* - |  - ", s + " ") and current:  # a new list item
            close()
        current.append((n, s))
    close()
    return blocks


def _closes(line: str, mark: str) -> bool:
    """Whether `line` closes a fence opened with `mark`: the same character, at least as many, nothing else."""
    return set(line) == {mark[0]} and len(line) >= len(mark)


def _mask(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Text with roles, code spans and math masked to placeholders of equal length; the roles found."""
    roles = [(m["name"], m["content"]) for m in ROLE.finditer(text)]
    out = ROLE.sub(lambda m: PLACEHOLDER * len(m.group()), text)
    out = CODE.sub(lambda m: PLACEHOLDER * len(m.group()), out)
    out = INLINE_MATH.sub(lambda m: PLACEHOLDER * len(m.group()), out)
    for abbr in ABBREVIATIONS:
        out = out.replace(abbr, abbr.replace(".", PLACEHOLDER))
    return out, roles


def _plain(source: str) -> str:
    """What the audit reads: glued values as GLUED, other roles, code and math as PLACEHOLDER, links as their
    text, no tags."""
    out = ROLE.sub(lambda m: GLUED if m["name"].startswith("glue") else PLACEHOLDER, source)
    out = CODE.sub(PLACEHOLDER, out)
    out = INLINE_MATH.sub(PLACEHOLDER, out)
    out = LINK.sub(lambda m: m["text"], out)
    out = HTML_TAG.sub("", out)
    return re.sub(r"[*_]{1,2}(?=\w)|(?<=\w)[*_]{1,2}", "", out)


def split_block(block: _Block) -> list[Sentence]:
    """The sentences of one block; each starts on the line where its first character is."""
    text, starts = "", []
    for n, line in block.lines:
        starts.append((len(text), n))
        text += line + " "
    text = text.rstrip()
    masked, _ = _mask(text)
    cuts = [0] + ([] if block.whole else [m.end() for m in _END.finditer(masked)]) + [len(text)]
    out = []
    for a, b in zip(cuts, cuts[1:]):
        source = text[a:b].strip()
        if not source:
            continue
        line = max(n for offset, n in starts if offset <= a)
        roles = tuple((m["name"], m["content"]) for m in ROLE.finditer(source))
        out.append(Sentence(line, source, _plain(source), roles, block.heading, block.only))
    return out


def sentences(text: str) -> list[Sentence]:
    """Every sentence of the prose of a MyST page, in order."""
    return [s for block in prose_blocks(text) for s in split_block(block)]


def with_before(page: list[Sentence]):
    """Each sentence of a page with the plain text of the sentence before it, what a pronoun refers back to (""
    after a heading, which starts afresh)."""
    last = ""
    for s in page:
        yield s, ("" if s.heading else last)
        last = "" if s.heading else s.plain
