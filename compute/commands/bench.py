"""`python -m compute bench context|recompute`: time the mixers, the story models, or attention's new token three
ways, and store the timings Part 2B plots and states."""
from __future__ import annotations

from pathlib import Path

from ..published.timings import RECOMPUTE, TIMINGS
from ..store import checkpoint_dir
from .args import positive


def add(sub) -> None:
    b = sub.add_parser("bench", help="time what a lesson shows and store the measurements")
    b.add_argument("what", choices=["context", "recompute"])
    b.add_argument("--quick", action="store_true", help="two short lengths, one repeat (for tests)")
    b.add_argument("--repeats", type=positive, default=7, help="timed runs per measurement (default %(default)s)")
    b.add_argument("--out", type=Path, default=None, help="file (default: the published one, in the checkpoint folder)")


def run(args) -> int:
    from ..measure.context import measure, measure_recompute, write
    if args.what == "recompute":
        data = measure_recompute((16, 32), 1) if args.quick else measure_recompute(repeats=args.repeats)
    else:
        data = measure((16, 32), 1, story=False) if args.quick else measure(repeats=args.repeats)
    path = write(args.out or checkpoint_dir() / (RECOMPUTE if args.what == "recompute" else TIMINGS), data)
    print(f"wrote {path} ({len(data['results'])} timings)")
    return 0
