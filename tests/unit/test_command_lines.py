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


@pytest.mark.parametrize("argv, said", [
    (["--base", "foo"], "error: argument --base: 'foo' is not a URL path like /project/ (it must start and end "
                        "with '/')"),
    (["--story-models", "/no/such/folder"], "error: --story-models: /no/such/folder is not a folder (give the "
                                            "--out folder of python -m compute train story)"),
])
def test_a_refused_command_line_of_the_build_is_one_error_line(capsys, monkeypatch, argv, said):
    from sitebuild.__main__ import main
    monkeypatch.delenv("COMPUTE_STORY_MODELS", raising=False)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err == said + "\n"


def test_a_story_models_setting_that_is_no_folder_is_named_as_the_setting(capsys, monkeypatch):
    """COMPUTE_STORY_MODELS set to no folder: the refusal names the setting the author used, not the option."""
    from sitebuild.__main__ import main
    monkeypatch.setenv("COMPUTE_STORY_MODELS", "/no/such/folder")
    with pytest.raises(SystemExit) as stop:
        main([])
    assert stop.value.code == 2
    assert capsys.readouterr().err == ("error: COMPUTE_STORY_MODELS: /no/such/folder is not a folder (give the --out "
                                       "folder of python -m compute train story)\n")


def undocumented_defaults(parser, name: str) -> list[str]:
    """The options of `parser` and its subcommands whose help does not give their default: every option but
    --help, a flag (off unless given), a required option and one of a group of which one is required."""
    import argparse
    required = {id(a) for group in parser._mutually_exclusive_groups if group.required for a in group._group_actions}
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                missing += undocumented_defaults(subparser, f"{name} {sub}")
        elif (action.option_strings and not isinstance(action, argparse._HelpAction) and action.nargs != 0
              and not action.required and id(action) not in required and "default" not in (action.help or "")):
            missing.append(f"{name} {action.option_strings[0]}")
    return missing


def test_every_option_of_compute_and_the_build_gives_its_default_in_its_help():
    import argparse
    from compute.cli import parser as compute_parser
    from sitebuild.__main__ import parser as build_parser
    assert undocumented_defaults(compute_parser(), "python -m compute") == []
    assert undocumented_defaults(build_parser(), "./build") == []
    quiet = argparse.ArgumentParser()
    quiet.add_argument("--width", type=int, default=3, help="how wide")      # a default the help leaves out
    assert undocumented_defaults(quiet, "x") == ["x --width"]


@pytest.mark.parametrize("argv, said", [
    (["--frob"], "error: unrecognized arguments: --frob"),
    (["-n", "many"], "error: argument -n/--numprocesses: invalid parse_numprocesses value: 'many'"),
    (["tests/unit", "tests/nowhere.py::test_x"], "error: file or directory not found: tests/nowhere.py::test_x"),
])
def test_a_refused_command_line_of_the_tests_is_one_error_line(argv, said):
    """./test runs pytest through tools/run_tests.py, which says pytest's refusal in one line."""
    import subprocess
    import sys
    from conftest import ROOT
    proc = subprocess.run([sys.executable, "tools/run_tests.py", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert (proc.returncode, proc.stderr, proc.stdout) == (4, said + "\n", "")


def test_a_file_system_refusal_in_a_command_is_one_error_line(capsys, monkeypatch):
    """An OSError no command words itself (a disk full, a folder removed under it): one line naming the command,
    the cause and the file, exit status 1, no traceback."""
    import errno
    from compute import cli
    from helpers import cli_error

    def refused(args):
        raise OSError(errno.ENOSPC, "No space left on device", "_build/results/x.pkl")
    monkeypatch.setattr(cli.COMMANDS["check"], "run", refused)
    assert cli_error(["check"], capsys) == ("error: python -m compute check: No space left on device: "
                                            "_build/results/x.pkl")
