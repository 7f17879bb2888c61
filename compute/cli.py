"""Command line: train the walkthrough and story models, search seeds, generate from a story model, check every
lesson's claims, export.
Each subcommand is a module of compute/commands."""
from __future__ import annotations

import argparse
import sys

from .claims import ClaimError
from .commands import bench, check, export, generate, train
from .data.tinystories import DataError
from .store import CheckpointError

COMMANDS = {"train": train, "generate": generate, "check": check, "bench": bench, "export": export}


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose refusal is one line, `error: ...` naming the option, exit status 2 (not its usage
    block; `--help` shows that)."""

    def error(self, message: str):
        command = self.prog.removeprefix("python -m compute").strip()     # "train story", or "" at the top
        self.exit(2, f"error: {command + ': ' if command else ''}{message}\n")


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="python -m compute", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS.values():
        command.add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return COMMANDS[args.command].run(args)
    except (CheckpointError, ClaimError, DataError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except OSError as err:             # the file system refused what no command checks for: one line, its file
        from .outputs import os_cause
        print(f"error: python -m compute {args.command}: {os_cause(err)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:          # Ctrl-C: one line (a stage's bar is cleared as it unwinds), nothing after
        print(f"error: interrupted; python -m compute {args.command} stopped", file=sys.stderr)
        return INTERRUPTED


INTERRUPTED = 130
