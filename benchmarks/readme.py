"""Write a benchmark's Markdown table into README.md between its markers (<!-- NAME:start --> ... :end -->)."""
from __future__ import annotations

import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def write_table(name: str, table: str, readme: Path = README) -> None:
    """Replace what stands between README.md's `name` markers with `table`; exit with one sentence without them."""
    text = readme.read_text()
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    if text.count(start) != 1 or text.count(end) != 1:
        sys.exit(f"{readme} needs exactly one {start} and one {end}")
    head, rest = text.split(start)
    _, tail = rest.split(end)
    readme.write_text(f"{head}{start}\n{table}\n{end}{tail}")
