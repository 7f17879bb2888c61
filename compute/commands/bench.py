"""`python -m compute bench context|recompute`: time the mixers, the story models, or attention's new token three
ways, and store the timings Part 2B plots and states."""
from __future__ import annotations

from pathlib import Path

from .. import progress
from ..published.timings import RECOMPUTE, TIMINGS
from ..outputs import require_writable_file, written_or_kept
from ..store import checkpoint_dir
from .args import positive


def add(sub) -> None:
    b = sub.add_parser("bench", help="time what a lesson shows and store the measurements")
    b.add_argument("what", choices=["context", "recompute"])
    b.add_argument("--quick", action="store_true", help="two short lengths, one repeat (for tests)")
    b.add_argument("--repeats", type=positive, default=7, help="timed runs per measurement (default %(default)s)")
    b.add_argument("--out", type=Path, default=None, help="file (default: the published one, in the checkpoint folder)")
    b.add_argument("--quiet", action="store_true",
                   help="print only the result and any error, not each stage (default: off)")


def run(args) -> int:
    from ..measure.context import LENGTHS, measure, measure_recompute, write
    lengths, repeats = ((16, 32), 1) if args.quick else (LENGTHS, args.repeats)
    out = args.out or checkpoint_dir() / (RECOMPUTE if args.what == "recompute" else TIMINGS)
    require_writable_file(out, "--out" if args.out else "the published timings file", "nothing was timed")
    with progress.command(args.quiet):
        with progress.stage("time", f"{args.what} at T = {', '.join(map(str, lengths))}, {repeats} runs each"):
            if args.what == "recompute":
                data = measure_recompute(lengths, repeats)
            else:
                data = measure(lengths, repeats, story=not args.quick)
        path = written_or_kept(out.parent, lambda folder: write(folder / out.name, data), "the timings")
        print(f"wrote {path} ({len(data['results'])} timings)")
    return 0
