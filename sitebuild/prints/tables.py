"""A page's table on paper: its caption numbered above it, its header repeated on each page it spans, no cell
broken inside a number or a word, numbers right-aligned on their decimal point, and a table whose whole words
need more than the text's width scaled down to fit it (the chapter's `data-table` measures each column's longest
word, given here).

A column is numeric when every body cell in it reads as a number (signs, digits, one point, thousands commas, a
trailing %, < or > before it, or a dash for none); its cells are padded after their last digit with invisible
zeros to the column's most decimals, so right alignment lines the points up, and its header stands right too.
"""
from __future__ import annotations

import re

from sitebuild.prints.code import string

NUMBER = re.compile(r"^[<>≈~]?\s*[−+-]?(\d{1,3}(,\d{3})+|\d*)(\.\d+)?(e[−+-]?\d+)?\s*%?$|^[—–-]$")


def numeric(text: str) -> bool:
    text = text.strip()
    return bool(text) and bool(NUMBER.match(text)) and any(ch.isdigit() or ch in "—–-" for ch in text)


def decimals(text: str) -> int:
    match = re.search(r"\.(\d+)", text)
    return len(match.group(1)) if match else 0


def table(el, page, inline, label) -> str:
    """An HTML table as a call of the chapter's `data-table`."""
    rows = []
    for tr in el.find_all("tr"):
        if tr.find_parent("table") is not el:
            continue
        cells = tr.find_all(["th", "td"], recursive=False)
        head = tr.find_parent("thead") is not None
        rows.append((head, cells))
    if not rows:
        return ""
    width = max(sum(int(c.get("colspan", 1)) for c in cells) for _, cells in rows)
    body = [cells for head, cells in rows if not head]
    numbers = []
    for col in range(width):
        column = [cells[col].get_text(" ", strip=True) for cells in body
                  if len(cells) == width and col < len(cells) and cells[col].name == "td"]
        column = [t for t in column if t]
        numbers.append(bool(column) and all(numeric(t) for t in column))
    most = [max((decimals(cells[col].get_text()) for cells in body if len(cells) == width), default=0)
            if numbers[col] else 0 for col in range(width)]
    longest = [max((w for _, cells in rows if len(cells) == width for w in cells[col].get_text(" ").split()),
                   key=len, default="") for col in range(width)]
    made = []
    header_rows = sum(1 for head, _ in rows if head)
    for head, cells in rows:
        col = 0
        for cell in cells:
            span = int(cell.get("colspan", 1))
            text = "".join(inline(c, page) for c in cell.children).strip()
            right = numbers[col] if col < width else False
            if right and not head and span == 1 and numeric(cell.get_text(" ", strip=True)):
                pad = most[col] - decimals(cell.get_text())
                if pad > 0:
                    text += f"#hide[{'0' * pad}]"
            kind = "th" if cell.name == "th" or head else "td"
            shade = "hl" if "hl" in (cell.get("class") or []) else "masked" if "masked" in (
                cell.get("class") or []) else "none"
            made.append(f"cell({kind!r}, {'right' if right else 'left'}, {span}, {shade!r}, [{text}])"
                        .replace("'", '"'))
            col += span
    caption = el.find("caption")
    title = "".join(inline(c, page) for c in caption.children).strip() if caption else ""
    ident = el.get("id")
    tag = f" <{label(ident)}>" if ident else ""
    words = ", ".join(string(w) for w in longest)
    return (f"#data-table({width}, {header_rows}, ({', '.join(made)},), caption: [{title}], "
            f"longest: ({words},)){tag}")
