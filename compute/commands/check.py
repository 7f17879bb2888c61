"""`python -m compute check [LESSON ...]`: load every checkpoint and record the lessons read, then check their
claims; one `error:` line naming what fails."""
from __future__ import annotations

import sys

from ..checks import claim_results, lesson_names, preflight
from ..claims import claims_table
from .args import lesson_name


def add(sub) -> None:
    c = sub.add_parser("check", help="check every lesson's claims and checkpoints")
    c.add_argument("lessons", nargs="*", metavar="LESSON", type=lesson_name,
                   help=f"only these lessons ({', '.join(lesson_names())}; default: all)")


def run(args) -> int:
    preflight(args.lessons)  # every checkpoint and record loads and fits first: one line for the first that does not
    failed = []
    for heading, results in claim_results(args.lessons):
        print(f"{heading}\n{claims_table(results)}\n")
        broken = [c.name for c, o in results if not o.holds]
        if broken:
            failed.append(f"{heading}: claims fail: {', '.join(broken)}")
    if failed:
        print("error: " + "; ".join(failed), file=sys.stderr)
        return 1
    print(f"{'every lesson' if not args.lessons else ', '.join(args.lessons)}: the claims hold, "
          "and the checkpoints and records agree")
    return 0
