"""Sphinx extension: each lesson links every glossary term from its first use on the page.

The terms are those of glossary.md's {glossary} block (a line that opens an entry, unindented). On each
lesson page, the first time a term (or its plural) appears in running text, not in a heading, a caption, code,
math, a link or a glued number, that word becomes a link to the term's entry (`glossary.html#term-...`, the
id Sphinx gives the entry).
"""
from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx.util.nodes import _make_id

GLOSSARY = "glossary"
BLOCK = re.compile(r"^```\{glossary\}\n(.*?)^```", re.S | re.M)
SKIP = (nodes.reference, nodes.literal, nodes.literal_block, nodes.math, nodes.math_block, nodes.title,
        nodes.caption, nodes.raw, nodes.term, nodes.target)


def terms(text: str) -> list[str]:
    """The terms of a glossary page's {glossary} block, in order."""
    m = BLOCK.search(text)
    return [line.strip() for line in (m.group(1) if m else "").splitlines() if line.strip() and line[0] not in " \t"]


def anchor(term: str) -> str:
    return _make_id(f"term-{term}")


def pattern(term: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?:s|es)?(?![\w-])", re.I)


def _skipped(node: nodes.Node) -> bool:
    while node is not None:
        if isinstance(node, SKIP) or "pasted-text" in (node.get("classes", []) if isinstance(node, nodes.Element)
                                                         else []):
            return True
        node = node.parent
    return False


def link_first_uses(doctree: nodes.document, listed: list[str], uri: str) -> list[str]:
    """Link each term's first use in running text to `uri`#term-...; the terms linked."""
    todo = {t: pattern(t) for t in listed}
    done = []
    for paragraph in list(doctree.findall(nodes.paragraph)):
        if not todo:
            break
        for text in list(paragraph.findall(nodes.Text)):
            if _skipped(text.parent):
                continue
            hits = sorted((m.start(), m.end(), t) for t, p in todo.items() if (m := p.search(str(text))))
            if not hits:
                continue
            parent, source, out, at = text.parent, str(text), [], 0
            for start, end, term in hits:
                if start < at or term not in todo:
                    continue
                out.append(nodes.Text(source[at:start]))
                out.append(nodes.reference(source[start:end], source[start:end], refuri=f"{uri}#{anchor(term)}",
                                           classes=["glossary-link"]))
                at = end
                done.append(term)
                del todo[term]
            out.append(nodes.Text(source[at:]))
            parent.replace(text, out)
    return done


def _on_doctree_resolved(app, doctree, docname: str) -> None:
    path = Path(app.srcdir) / f"{GLOSSARY}.md"
    if not docname.startswith("posts/") or not path.is_file():
        return
    listed = terms(path.read_text(encoding="utf-8"))
    link_first_uses(doctree, listed, app.builder.get_relative_uri(docname, GLOSSARY))


def setup(app):
    app.connect("doctree-resolved", _on_doctree_resolved)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
