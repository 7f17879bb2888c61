"""Labelled matrices as HTML tables, two decimals by default, as the lesson prints them."""
from __future__ import annotations

import html
import math
from typing import Iterable, Sequence

import numpy as np
from IPython.display import HTML

from .notation import subscripted
from .numbers import shown
from .prose import said


def fmt(x: float, decimals: int = 2) -> str:
    """A number as printed: fixed decimals (more where it would read as exactly 0 or 1), -inf as −∞,
    and no negative zero."""
    if math.isinf(x):
        return "−∞" if x < 0 else "∞"
    return shown(float(x) + 0.0, f".{decimals}f")  # + 0.0: -0.0 becomes 0.0


def sub(text: str) -> str:
    """A label or caption as a table prints it: escaped, its x_i as subscripts (compute.present.notation)."""
    return subscripted(html.escape(str(text)))


def position_labels(tokens: Sequence[str], start: int = 0) -> list[str]:
    """'0 the', '1 rise', ... (or from 1 with start=1): a position and the word that sits there."""
    return [f"{i} {t}" for i, t in enumerate(tokens, start)]


def index_labels(n: int) -> list[str]:
    return [str(i) for i in range(n)]


def matrix_html(M: np.ndarray, rows: Sequence[str], cols: Sequence[str], caption: str = "",
                corner: str = "", decimals: int = 2, highlight: Iterable[tuple[int, int]] = (),
                name: str = "", masked: np.ndarray | None = None, missing: str | None = None) -> str:
    """An HTML table of M with labelled rows and columns; highlighted cells get class hl.

    Cells where the boolean `masked` is true print MASKED (class masked) instead of their
    value: a weight the mask forced to zero does not look like one that rounds to 0.00.
    A NaN cell prints `missing` (class missing: "" for a cell with no value, a word saying why); with no
    `missing`, a NaN is an error naming the table and the cell, so that no table prints "nan"."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    if M.shape != (len(rows), len(cols)):
        raise ValueError(f"matrix {name or caption!r} is {M.shape}, labels are {len(rows)}x{len(cols)}")
    marked = set(highlight)
    hidden = np.zeros(M.shape, bool) if masked is None else np.asarray(masked, bool)
    empty = np.isnan(M) & ~hidden
    if empty.any() and missing is None:
        i, j = map(int, np.argwhere(empty)[0])
        raise ValueError(f"table {name or caption!r}: cell ({rows[i]}, {cols[j]}) is NaN; say what it means "
                         "(missing=...) or compute it")
    esc = html.escape
    out = ['<div class="matrix-wrap"><table class="matrix"'
           + (f' data-matrix="{esc(name)}"' if name else "") + ">"]
    if caption:
        out.append(f"<caption>{sub(said(caption))}</caption>")
    out.append("<thead><tr>" + f'<th scope="col" class="corner">{sub(corner)}</th>'
               + "".join(f'<th scope="col">{sub(c)}</th>' for c in cols) + "</tr></thead><tbody>")
    for i, label in enumerate(rows):
        cells = "".join(f'<td class="missing">{html.escape(missing)}</td>' if empty[i, j] else
                        _cell(M[i, j], decimals, (i, j) in marked, hidden[i, j]) for j in range(len(cols)))
        out.append(f'<tr><th scope="row">{sub(label)}</th>{cells}</tr>')
    out.append("</tbody></table></div>")
    return "".join(out)


MASKED = "·"


def _cell(x: float, decimals: int, highlighted: bool, masked: bool) -> str:
    if masked:
        return f'<td class="masked">{MASKED}</td>'
    return ('<td class="hl">' if highlighted else "<td>") + html.escape(fmt(x, decimals)) + "</td>"


def matrix_table(*args, **kwargs) -> HTML:
    """matrix_html, ready to display in a notebook cell."""
    return HTML(matrix_html(*args, **kwargs))


def rows_html(header: Sequence[str], rows: Sequence[Sequence[object]], caption: str = "",
              decimals: int = 4) -> str:
    """A small table of mixed text and numbers (numbers printed with `decimals`)."""
    esc = html.escape

    def is_number(v):
        return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)

    def cell(v):
        if isinstance(v, (float, np.floating)) and math.isnan(v):
            raise ValueError(f"table {caption!r}: a cell is NaN; print what it means instead (a word, or '')")
        return esc(fmt(float(v), decimals) if isinstance(v, (float, np.floating)) else str(v))

    def td(v):
        return f"<td>{cell(v)}</td>" if is_number(v) or v == "" else f'<td class="text">{cell(v)}</td>'

    out = ['<div class="matrix-wrap"><table class="matrix">']
    if caption:
        out.append(f"<caption>{sub(said(caption))}</caption>")
    out.append("<thead><tr>" + "".join(f'<th scope="col">{sub(h)}</th>' for h in header) + "</tr></thead><tbody>")
    for r in rows:
        out.append("<tr>" + f'<th scope="row">{subscripted(cell(r[0]))}</th>' + "".join(td(v) for v in r[1:]) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def rows_table(*args, **kwargs) -> HTML:
    return HTML(rows_html(*args, **kwargs))
