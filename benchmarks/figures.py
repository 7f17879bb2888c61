"""What drawing the figures at build costs (sitebuild.figures.render); medians over several runs.

    .venv/bin/python benchmarks/figures.py            # 3 runs of each, print a Markdown table
    .venv/bin/python benchmarks/figures.py --docs     # ... and write it into docs/performance.md

Run after `./build`. Each run takes a copy of the build's pages (_build/html) and draws every figure into it:
* from nothing: an empty cache of drawn figures, as in a cold build (Chromium started, every figure drawn:
  its four pictures, its printed states, its PNG);
* with nothing changed: the cache the first run filled, as in a rebuild (no browser started).
Also reported: how many figures, files and bytes that makes.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.performance import write_table  # noqa: E402
from sitebuild.decks.cut import FOLDER as DECKS  # noqa: E402
from sitebuild.figures.render import FILES, IMAGES, render_figures  # noqa: E402

BUDGET_S = 60.0  # issue 37: drawing every figure adds at most a minute to a cold build


def timed(html: Path, cache: Path) -> tuple[float, object]:
    start = time.monotonic()
    drawn = render_figures(html, cache)
    return time.monotonic() - start, drawn


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--docs", action="store_true", help="write the table into docs/performance.md")
    args = p.parse_args()
    built = ROOT / "_build" / "html"
    if not built.is_dir():
        sys.exit("no _build/html: run ./build first")
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.runs):
            html, cache = Path(tmp) / f"html{k}", Path(tmp) / f"cache{k}"
            shutil.copytree(built, html, symlinks=True)
            shutil.rmtree(html / DECKS, ignore_errors=True)   # the decks stage writes them after the figures
            seconds, drawn = timed(html, cache)
            cold.append(seconds)
            assert drawn.drawn == drawn.figures, "a cold run drew fewer figures than the pages hold"
            seconds, again = timed(html, cache)
            warm.append(seconds)
            assert again.drawn == 0, "a run with nothing changed drew figures again"
        files = [f for folder in (IMAGES, FILES) for f in (html / folder).rglob("*") if f.is_file()]
        size = sum(f.stat().st_size for f in files)
    c, w = statistics.median(cold), statistics.median(warm)
    table = "\n".join([
        "| figures drawn at build | median | runs | budget |", "| --- | --- | --- | --- |",
        f"| every figure from nothing ({drawn.figures} figures) | {c:.1f} s | {args.runs} | "
        f"{BUDGET_S:.0f} s, {'within budget' if c <= BUDGET_S else 'OVER BUDGET'} |",
        f"| nothing changed (no browser started) | {w:.2f} s | {args.runs} | nothing drawn |",
        "", f"They make {len(files)} files, {size / 1e6:.1f} MB: each figure's four pictures and printed states "
            f"(`{IMAGES}/`), and its SVG, PNG and CSV (`{FILES}/`)."])
    print(table)
    if args.docs:
        write_table("figures", table)


if __name__ == "__main__":
    main()
