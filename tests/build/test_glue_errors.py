"""A glue role the build cannot print stops it with one `error:` line at the line of the lesson where the role is
written (not its paragraph's first line), naming the key, the format and why; site/ is not made."""

from __future__ import annotations

import subprocess
import sys

from helpers import LESSON, make_mini_project

# A paragraph of six lines whose last holds the bad format: Sphinx would report the paragraph's first line, five
# lines off. The value glued as 'value' is compute.VALUE, 1 (an int), and 'q' is no format code of int.
BAD_FORMAT = LESSON.replace("The value is {glue:text}`value`.",
                            "A paragraph that opens here,\nline two,\nline three,\nline four,\nline five,\n"
                            "and line six prints {glue:text}`value:.2q` badly.")


def _build(tmp_path, lesson):
    """Build a miniature project with this lesson: (the project's root, the finished `python -m sitebuild`)."""
    (tmp_path / "src").mkdir()
    root = make_mini_project(tmp_path / "src", lesson)
    return root, subprocess.run([sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True)


def test_a_bad_glue_format_is_one_error_at_the_line_that_writes_it(tmp_path):
    root, proc = _build(tmp_path, BAD_FORMAT)
    line = next(n for n, text in enumerate(BAD_FORMAT.splitlines(), 1) if ".2q" in text)
    errors = [out for out in (proc.stdout + proc.stderr).splitlines() if out.startswith("error:")]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert errors == [f"error: posts/lesson.md, line {line}: {{glue:text}}`value:.2q` cannot print 'value': "
                      f"format '.2q' cannot be applied to value 1 (int): Unknown format code 'q' for object of "
                      f"type 'int'"], proc.stdout + proc.stderr
    # the warning Sphinx prints above it names the same line, as every warning names the line an author sees
    assert f"posts/lesson.md:{line}: WARNING: " in proc.stdout
    assert not (root / "site").exists()


def test_two_equal_glue_roles_in_one_paragraph_are_each_named_at_their_line(tmp_path):
    """The same missing key twice in a paragraph: each warning names its own line; a good format still prints."""
    lesson = LESSON.replace("The value is {glue:text}`value`.",
                            "The value is {glue:text}`value:.2f`,\nnot {glue:text}`gone`,\nand again not\n"
                            "{glue:text}`gone`.")
    _, proc = _build(tmp_path, lesson)
    lines = [n for n, text in enumerate(lesson.splitlines(), 1) if "`gone`" in text]
    errors = [out for out in proc.stderr.splitlines() if out.startswith("error:")]
    assert proc.returncode == 1
    assert errors == [f"error: posts/lesson.md, line {n}: no value is glued as 'gone'" for n in lines], proc.stderr
    assert "value:.2f" not in proc.stdout + proc.stderr   # the good format printed, and raised nothing
