"""`python -m compute export story`: write the published four-head model for the page's JavaScript."""
from __future__ import annotations

from pathlib import Path

from .. import progress
from ..store import CheckpointError


def add(sub) -> None:
    e = sub.add_parser("export", help="write a published model for the page's JavaScript")
    e.add_argument("model", choices=["story"])
    e.add_argument("--out", type=Path, default=Path("_build/export"), help="folder (default %(default)s)")
    e.add_argument("--quiet", action="store_true",
                   help="print only the result and any error, not each stage (default: off)")


def run(args) -> int:
    from ..export.story import write
    with progress.command(args.quiet):
        try:
            with progress.stage("export", f"the published {args.model} model as float16 to {args.out}"):
                paths = write(args.out)
        except OSError as err:
            raise CheckpointError(f"{args.out}: cannot write the export there ({err.strerror or err})") from None
        for path in paths:
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0
