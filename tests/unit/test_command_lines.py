"""The command lines' refusals: one line, `error: ...`, naming the option, exit status 2 (compute and the
build alike)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("argv, names", [
    (["train", "walkthrough", "--seed", "abc"], "train walkthrough: argument --seed"),
    (["frobnicate"], "argument command: invalid choice: 'frobnicate'"),
    (["bench", "context", "--repeats", "0"], "bench: argument --repeats"),
])
def test_a_refused_command_line_of_compute_is_one_error_line(argv, names, capsys):
    from helpers import usage_error
    err = usage_error(argv, capsys)
    assert err.count("\n") == 1 and err.startswith(f"error: {names}"), err


def test_a_refused_command_line_of_the_build_is_one_error_line(capsys):
    from sitebuild.__main__ import main
    with pytest.raises(SystemExit) as stop:
        main(["--base", "foo"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err == ("error: argument --base: 'foo' is not a URL path like /project/ "
                                            "(it must start and end with '/')\n")
