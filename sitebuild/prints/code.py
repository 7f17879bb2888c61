"""Code and its output on paper: every line as the notebook runs it, a line too long for the page broken where
a space allows and its rest set on the next line after a continuation mark (↪), never cut and never moved to the
left edge, so what is printed is what runs when the marks are joined back."""
from __future__ import annotations

# Characters of the code font (DejaVu Sans Mono at 8.5 pt, 0.6 em each) across the text width less the box's
# padding (sitebuild/prints/chapter.typ: 170 mm of text, 6 pt either side).
COLUMNS = 88
MARK = "↪"


def wrapped(line: str, columns: int = COLUMNS) -> list[str]:
    """One line of code as printed lines: the first, then each continuation (without its mark)."""
    out = []
    width = columns
    while len(line) > width:
        cut = line.rfind(" ", width // 2, width + 1)
        cut = cut + 1 if cut > 0 else width          # after the space, or within a word that has none
        out.append(line[:cut])
        line = line[cut:]
        width = columns - 2                          # the mark and its space
    out.append(line)
    return out


def string(text: str) -> str:
    """A Typst string literal (the markup's too: sitebuild.prints.markup)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def listing(text: str, output: bool = False) -> str:
    """A listing as a call of the chapter's `listing`: (text, continued) per printed line."""
    lines = text.rstrip("\n").split("\n")
    printed = []
    for line in lines:
        for k, part in enumerate(wrapped(line.expandtabs(4))):
            printed.append(f"({string(part)}, {'true' if k else 'false'})")
    if not any(line.strip() for line in lines):
        return ""
    kind = "output" if output else "code"
    return f'#listing("{kind}", ({", ".join(printed)},))'
