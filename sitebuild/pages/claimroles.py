"""Sphinx extension: the roles that bind a sentence, and glued numbers printed honestly.

* {claim}`name` names the claim(s) a sentence rests on; {about}`method` says a
  sentence is not about computed values (sitebuild.audit.check checks both before
  the build). Both render as nothing, and the space before them goes too, so
  "a coin {claim}`x`." reads "a coin." on the page.
* {glue:text}`key:spec` prints a glued number with compute's honest format
  (compute.present.numbers.honest_format): a value that is not exactly 0, 1 or
  100 % never prints as one; a spec like '.1%' gets the decimals it needs.
  A project without that module prints as MyST-NB does.
"""

from __future__ import annotations

import importlib
from ast import literal_eval

from docutils import nodes
from myst_nb.core.variables import format_plain_text
from myst_nb.ext.glue.roles import PasteTextRole
from myst_nb.ext.glue.utils import RetrievalError, retrieve_glue_data
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
    """{glue:text}`key:spec` from this page's glue data, formatted by honest_format."""

    def run(self):
        key, _, spec = self.text.rpartition(":") if ":" in self.text else (self.text, "", "")
        if "::" in key or not spec or spec[-1] not in "f%":
            return super().run()  # other pages' values, strings and integers: MyST-NB's own way
        try:
            result = retrieve_glue_data(self.document, key)
            value = float(literal_eval(result.data["text/plain"]))
            text = _honest_format()(value, spec)
        except (RetrievalError, KeyError, ValueError, SyntaxError, TypeError):
            return super().run()  # MyST-NB words the warning
        node = nodes.inline(text, text, classes=["pasted-text"])
        self.set_source_info(node)
        return [node], []


def setup(app):
    app.setup_extension("myst_nb")
    app.add_node(binding, html=(lambda self, node: None, lambda self, node: None))
    app.add_role("claim", binding_role)
    app.add_role("about", binding_role)
    app.add_transform(RemoveBindings)
    app.add_role_to_domain("glue", "text", HonestTextRole(), override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
