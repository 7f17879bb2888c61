"""Write a benchmark's Markdown table into docs/performance.md between its markers
(<!-- NAME:start --> ... <!-- NAME:end -->)."""
from __future__ import annotations

import sys
from pathlib import Path

PERFORMANCE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"


def write_table(name: str, table: str, path: Path = PERFORMANCE) -> None:
    """Replace what stands between `path`'s `name` markers (docs/performance.md by default) with `table`; exit with
    one sentence without them."""
    text = path.read_text()
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    if text.count(start) != 1 or text.count(end) != 1:
        sys.exit(f"{path} needs exactly one {start} and one {end} (docs/performance.md holds every benchmark's table)")
    head, rest = text.split(start)
    _, tail = rest.split(end)
    path.write_text(f"{head}{start}\n{table}\n{end}{tail}")
