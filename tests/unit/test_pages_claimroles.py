"""sitebuild.pages.claimroles: the binding roles vanish from a paragraph without taking a space or a line break that
is not theirs, wherever in the paragraph they stand (parsed by MyST, as the build parses a lesson)."""

from __future__ import annotations

import pytest
from docutils.core import publish_doctree
from docutils.parsers.rst import roles
from myst_parser.parsers.docutils_ import Parser

from sitebuild.pages.claimroles import RemoveBindings, binding_role
from sitebuild.notebooks.write import without_bindings

for _name in ("claim", "about"):
    roles.register_local_role(_name, binding_role)


def rendered(source: str) -> str:
    """The paragraph's text after the bindings are removed, with runs of white space as a browser shows them."""
    document = publish_doctree(source, parser=Parser(), settings_overrides={"report_level": 5})
    RemoveBindings(document).apply()
    return " ".join(document.astext().split())


# Each paragraph with its roles, and the same paragraph as an author writes it without them.
PARAGRAPHS = {
    "line start": ("It holds for\nevery\n{claim}`a` product.\n", "It holds for\nevery\nproduct.\n"),
    "line end": ("It is\nthe {claim}`a`\nsame as the\nmatrix.\n", "It is\nthe\nsame as the\nmatrix.\n"),
    "before a full stop on its own line": ("First line\nsecond line\n{claim}`a`.\n", "First line\nsecond line.\n"),
    "middle": ("The time grows {claim}`a` with\nevery length.\n", "The time grows with\nevery length.\n"),
    "paragraph start": ("{about}`method` We count\nthe MACs.\n", "We count\nthe MACs.\n"),
    "paragraph end": ("The four-head\nmodel wins {claim}`a`\n", "The four-head\nmodel wins\n"),
    "before a comma": ("As well\nas this {claim}`a`, and\nthat.\n", "As well\nas this, and\nthat.\n"),
    "after emphasis": ("It is *the*\n{claim}`a` same and\n*not* {about}`method`\nthe other.\n",
                       "It is *the*\nsame and\n*not*\nthe other.\n"),
    "two in a row": ("One\n{claim}`a` {claim}`b` two\nthree {claim}`a` {about}`method`.\n", "One\ntwo\nthree.\n"),
    "every line": ("{claim}`a` One\n{claim}`b` two\n{claim}`c` three\n{claim}`d`.\n", "One\ntwo\nthree.\n"),
    "two paragraphs": ("One ends {claim}`a`.\n\n{about}`method` Two starts\nhere {claim}`b`\n", "One ends.\n\nTwo starts\nhere\n"),
}


@pytest.mark.parametrize("where", PARAGRAPHS)
def test_a_removed_role_leaves_the_text_as_written_without_it(where):
    with_roles, without = PARAGRAPHS[where]
    assert rendered(with_roles) == rendered(without)


def test_the_roles_are_gone():
    document = publish_doctree(PARAGRAPHS["every line"][0], parser=Parser(), settings_overrides={"report_level": 5})
    RemoveBindings(document).apply()
    assert "binding" not in document.pformat()


@pytest.mark.parametrize("where", PARAGRAPHS)
def test_the_downloaded_notebooks_markdown_reads_as_written_without_roles(where):
    """sitebuild.notebooks.write strips the roles from a notebook's markdown as the site renders them: the same words,
    the same spaces, and every paragraph break kept."""
    with_roles, without = PARAGRAPHS[where]
    stripped = without_bindings(with_roles)
    assert "{claim}" not in stripped and "{about}" not in stripped
    assert [" ".join(p.split()) for p in stripped.split("\n\n")] == [" ".join(p.split()) for p in without.split("\n\n")]
