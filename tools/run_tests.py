"""./test's pytest: a refused command line is one line, `error: ...` naming the option or the file, exit status 4
(pytest's usage error), not pytest's usage block or its session header; anything else is pytest's own run.

    .venv/bin/python tools/run_tests.py [pytest options and paths]
"""
from __future__ import annotations

import sys

import pytest
from _pytest.config import UsageError, _prepareconfig   # what pytest.main reads its command line with


def refusal(error: UsageError) -> str:
    """pytest's usage error as one line: its `error:` line, or its last."""
    lines = [line.strip() for arg in error.args for line in str(arg).splitlines() if line.strip()]
    said = next((line.split("error:", 1)[1].strip() for line in lines if "error:" in line), lines[-1] if lines else "")
    return f"error: {said}"


def main(argv: list[str]) -> int:
    try:
        config = _prepareconfig(argv)
    except UsageError as error:
        print(refusal(error), file=sys.stderr)
        return pytest.ExitCode.USAGE_ERROR
    missing = [arg for arg in config.args if not (config.invocation_params.dir / arg.split("::")[0]).exists()]
    config._ensure_unconfigure()
    if missing:
        print(f"error: file or directory not found: {missing[0]}", file=sys.stderr)
        return pytest.ExitCode.USAGE_ERROR
    return pytest.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
