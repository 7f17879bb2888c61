"""Sphinx extension: the roles that bind a sentence, and glued numbers printed honestly.

* {claim}`name` names the claim(s) a sentence rests on; {about}`method` says a
  sentence is not about computed values (sitebuild.audit.check checks both before
  the build). Both render as nothing, and the space before them goes too, so
  "a coin {claim}`x`." reads "a coin." on the page.
* {glue:text}`key:spec` prints a glued number with compute's honest format
  (compute.present.numbers.honest_format): a value that is not exactly 0, 1 or
  100 % never prints as one; a spec like '.1%' gets the decimals it needs.
  A project without that module prints as MyST-NB does. A spec the value
  cannot take ('.2q') is a warning naming the role, the key, the spec, the
  value and why (sitebuild.pages.sphinx makes it the build's error line).
* Every glue role ({glue}, {glue:any}, {glue:text}, {glue:md}) warns at the
  line of the lesson where it is written: MyST-NB gives a role its
  paragraph's first line, which is lines off in a paragraph of several.
"""

from __future__ import annotations

import importlib
import re
from ast import literal_eval
from pathlib import Path

from docutils import nodes
from myst_nb.core.variables import format_plain_text
from myst_nb.ext.glue.roles import PasteMarkdownRole, PasteRoleAny, PasteTextRole
from myst_nb.ext.glue.utils import RetrievalError, glue_warning, retrieve_glue_data
from sphinx.transforms import SphinxTransform


class binding(nodes.Inline, nodes.Element):
    """Where a {claim} or {about} role stood: removed before writing."""


def binding_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [binding(rawtext, role=name, value=text)], []


class RemoveBindings(SphinxTransform):
    """Drop each binding node, and the whitespace that separated it from the word before."""
    default_priority = 210

    def apply(self, **kwargs) -> None:
        for node in list(self.document.findall(binding)):
            parent = node.parent
            index = parent.index(node)  # an Element: found by identity
            # Neighbours are replaced by position, never by value: docutils Text nodes compare equal by their
            # text, so replacing "the" "\n" would take the paragraph's first line break, not this one.
            before = parent[index - 1] if index else None
            after = parent[index + 1] if index + 1 < len(parent) else None
            if isinstance(before, nodes.Text) and before[-1:].isspace():
                parent[index - 1] = nodes.Text(before.rstrip())
            elif before is None and isinstance(after, nodes.Text):  # a role that opens its paragraph
                parent[index + 1] = nodes.Text(after.lstrip())
            del parent[index]


def _honest_format():
    try:
        return importlib.import_module("compute.present.numbers").honest_format
    except ModuleNotFoundError:
        return format


def pasted(plain: str, spec: str) -> str:
    """A glued value's text/plain as {glue:text}`key:spec` prints it on the page (the downloaded notebook writes
    it in the same way): honest_format for a number with an f or % spec, MyST-NB's own format otherwise."""
    if spec and spec[-1] in "f%":
        return _honest_format()(float(literal_eval(plain)), spec)
    return format_plain_text(plain, spec or "s")


class HonestTextRole(PasteTextRole):
    """{glue:text}`key:spec` from this page's glue data, formatted by honest_format; a spec the value cannot take
    is a warning that says so."""

    def run(self):
        key, _, spec = self.text.rpartition(":") if ":" in self.text else (self.text, "", "")
        if "::" in key:
            return super().run()  # another page's value: MyST-NB's own way
        try:
            plain = retrieve_glue_data(self.document, key).data["text/plain"]
        except (RetrievalError, KeyError):
            return super().run()  # MyST-NB words the warning
        try:
            text = printed(plain, spec)
        except Exception as exc:  # whatever format() raises for a spec it cannot apply
            return [], [glue_warning(unprintable(self.text, key, spec, plain, exc), self.document, self.line)]
        node = nodes.inline(text, text, classes=["pasted-text"])
        self.set_source_info(node)
        return [node], []


def printed(plain: str, spec: str) -> str:
    """The page's text for a glued value: pasted(), or MyST-NB's own format where honest_format cannot read the
    value ('nan' is no Python literal); raises what the last format raised."""
    try:
        return pasted(plain, spec)
    except Exception:
        return format_plain_text(plain, spec or "s")


def unprintable(text: str, key: str, spec: str, plain: str, exc: Exception) -> str:
    """Why {glue:text}`text` cannot print the value glued as `key` (its text/plain `plain`) with `spec`."""
    try:
        value = literal_eval(plain)
    except (SyntaxError, ValueError):
        value = plain
    return (f"{{glue:text}}`{text}` cannot print {key!r}: format {spec!r} cannot be applied to value {value!r} "
            f"({type(value).__name__}): {exc}")


class AuthorLine:
    """A glue role whose warnings and nodes name the line of the source where it is written.

    MyST gives an inline role the first line of its block (a paragraph, a list item, a table row). The role is
    found in the source from there, after the glue roles of the same block found before it, so that two equal
    roles in one paragraph are each placed at their own line. A role not found keeps the block's line.
    """

    def __call__(self, name, rawtext, text, lineno, inliner, options=None, content=()):
        self.name = name
        return super().__call__(name, rawtext, text, lineno, inliner, options, content)

    def run(self):
        self.line = self._written_at()
        return super().run()

    def _written_at(self) -> int:
        """The line holding this role, searched from its block's line (self.line) in the source file."""
        env = getattr(self.document.settings, "env", None)
        # {(source, a block's first line): where the last glue role found in that block ends}, for this document
        found = env.current_document.setdefault("glue_roles_found", {}) if env is not None else {}
        block = (self.source, self.line)
        try:
            lines = Path(self.source).read_text(encoding="utf-8").splitlines(keepends=True)
        except (OSError, TypeError, ValueError):
            return self.line
        if not 0 < self.line <= len(lines):
            return self.line
        start = sum(map(len, lines[:self.line - 1]))
        text = "".join(lines[:self.line - 1 + BLOCK_LINES])
        m = role_pattern(self.name, self.text).search(text, found.get(block, start))
        if not m:
            return self.line
        found[block] = m.end()
        return text.count("\n", 0, m.start()) + 1


BLOCK_LINES = 200  # how far below its block's first line a role is looked for


def role_pattern(name: str, text: str) -> re.Pattern:
    """{name}`text` as a lesson writes it: any run of backticks, the text's spaces any white space (MyST reads a
    line break in a role's text as a space)."""
    words = r"\s+".join(map(re.escape, text.split()))
    return re.compile(r"\{" + re.escape(name) + r"\}(`+)\s*" + words + r"\s*\1")


class AnyRole(AuthorLine, PasteRoleAny):
    """{glue}`key` and {glue:any}`key`, warning at the line written."""


class MarkdownRole(AuthorLine, PasteMarkdownRole):
    """{glue:md}`key`, warning at the line written."""


class TextRole(AuthorLine, HonestTextRole):
    """{glue:text}`key:spec`, honestly formatted, warning at the line written."""


def setup(app):
    app.setup_extension("myst_nb")
    app.add_node(binding, html=(lambda self, node: None, lambda self, node: None))
    app.add_role("claim", binding_role)
    app.add_role("about", binding_role)
    app.add_transform(RemoveBindings)
    app.add_role("glue", AnyRole(), override=True)
    for name, role in (("", AnyRole()), ("any", AnyRole()), ("text", TextRole()), ("md", MarkdownRole())):
        app.add_role_to_domain("glue", name, role, override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
