"""`python -m compute export story`: write the published four-head model for the page's JavaScript."""
from __future__ import annotations

from pathlib import Path

from ..store import CheckpointError


def add(sub) -> None:
    e = sub.add_parser("export", help="write a published model for the page's JavaScript")
    e.add_argument("model", choices=["story"])
    e.add_argument("--out", type=Path, default=Path("_build/export"), help="folder (default %(default)s)")


def run(args) -> int:
    from ..export.story import write
    try:
        paths = write(args.out)
    except OSError as err:
        raise CheckpointError(f"{args.out}: cannot write the export there ({err.strerror or err})") from None
    for path in paths:
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0
