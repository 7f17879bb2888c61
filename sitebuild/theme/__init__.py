"""The site's own theme: one page template (sitebuild/theme/lesson/layout.html) and one style sheet (page.css).

A page loads one style sheet and one script (sitebuild/theme/bundle.py) and nothing of a framework: the lessons,
the page's sections and previous/next are plain HTML written here from Sphinx's table of contents. The reader's
colour mode is set in <head>, before the first paint, from the stored choice (`localStorage` "mode": "light",
"dark" or "auto") or the system's; site.js switches it and follows the system while the mode is "auto".
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from docutils import nodes

from . import bundle

THEME = Path(__file__).parent / "lesson"

# Runs in <head>: the page's mode before anything is painted (a dark system never sees the page light first).
MODE_SCRIPT = ("(function () { var root = document.documentElement, mode = localStorage.getItem('mode') || 'auto';"
               " root.dataset.mode = mode; root.dataset.theme = mode === 'auto' ?"
               " (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light') : mode; })();")

# Runs in <head> on a page opened at a link into it (#id): no frame is drawn before the target is parsed (a
# render-blocking `link rel=expect`), and until the page is laid out whole (site.js) everything of the article
# before the target's section is left out and the target's section is drawn, so the first frame shows the target's
# section and asks for its figure's picture while the rest of the page may still be parsed. (Scrolling that first
# frame to the target by script, before the browser's own scroll at the end of the parse, was tried: it forced a
# layout there and the figure was shown later, not sooner.) A CSS rule on :target would not do: :target matches
# only once the page is parsed, and every frame before then laid out the page from its top.
TARGET_SCRIPT = ("(function () { var id = location.hash.slice(1); if (!id) return;"
                 " try { id = decodeURIComponent(id); } catch (e) { return; }"
                 " var head = document.head, at = '#' + CSS.escape(id), expect = document.createElement('link'),"
                 " style = document.createElement('style');"
                 " expect.rel = 'expect'; expect.href = location.hash; expect.setAttribute('blocking', 'render');"
                 " style.textContent = '@media screen { html:not(.page-laid-out) .bd-article > section >"
                 " :has(~ section ' + at + ', ~ section' + at + ') { display: none; }"
                 " html:not(.page-laid-out) .bd-article > section > section:is(' + at + ', :has(' + at + '))"
                 " { content-visibility: visible; } }';"
                 " head.appendChild(expect); head.appendChild(style); })();")

# Runs in <head> on a page opened at its top (no #id): until its first frame is drawn, html.first-screen lets the
# style sheet skip what starts below any first screen (site.css and guide.css: `content-visibility: hidden` on the
# sections after the first ones), and the next task after that frame gives it back (`content-visibility: auto` as
# before, then the whole page laid out by site.js). Measured (docs/performance.md): `content-visibility: auto`
# alone did not keep Chromium from laying out every section of a page parsed whole before its first frame (the
# glossary, the readers' guide); `hidden` did. The skipped parts start below the first screen of any window up to
# 1200 px tall, a phone's too (tests/browser/test_first_paint.py holds it for every page), and nothing is skipped in
# a taller window, so the first frame shows the whole first screen.
FIRST_SCREEN_SCRIPT = ("(function () { if (location.hash) return; var root = document.documentElement;"
                       " root.classList.add('first-screen');"
                       " requestAnimationFrame(function () { setTimeout(function () {"
                       " root.classList.remove('first-screen'); }); }); })();")

HEAD_SCRIPT = MODE_SCRIPT + " " + TARGET_SCRIPT + " " + FIRST_SCREEN_SCRIPT     # one <script> in every page's <head>


def lessons(app, pagename: str) -> str:
    """The landing page and every page of its table of contents, in order, the page shown marked."""
    env, root = app.env, app.config.root_doc
    items = []
    for doc in [root, *env.toctree_includes.get(root, [])]:
        here = doc == pagename
        href = "#" if here else app.builder.get_relative_uri(pagename, doc)
        title = html.escape(env.titles[doc].astext()) if doc in env.titles else html.escape(doc)
        current = ' class="current"' if here else ""
        aria = ' aria-current="page"' if here else ""
        items.append(f'<li class="toctree-l1{" current active" if here else ""}"><a{current} href="{href}"{aria}>'
                     f"{title}</a></li>")
    home, rest = items[0], items[1:]
    return (f'<ul class="nav bd-sidenav bd-sidenav__home-link">{home}</ul>\n'
            f'<ul class="current nav bd-sidenav">{"".join(rest)}</ul>')


def _entries(items: nodes.bullet_list, depth: int) -> str:
    out = []
    for item in items.children:
        if not isinstance(item, nodes.list_item):
            continue
        ref = next(iter(item.findall(nodes.reference)), None)
        if ref is None:
            continue
        inner = next((c for c in item.children if isinstance(c, nodes.bullet_list)), None)
        sub = _entries(inner, depth + 1) if inner is not None and depth < 3 else ""
        out.append(f'<li class="toc-h{depth} toc-entry"><a class="reference internal nav-link" '
                   f'href="{html.escape(ref.get("anchorname") or "#")}">{html.escape(ref.astext())}</a>'
                   f"{f'<ul>{sub}</ul>' if sub else ''}</li>")
    return "".join(out)


def sections(app, pagename: str) -> str:
    """The page's sections (its second and third levels of headings) as a list of links, or "" for none."""
    toc = app.env.tocs.get(pagename)
    title = next((c for c in toc.children if isinstance(c, nodes.list_item)), None) if toc is not None else None
    inner = next((c for c in title.children if isinstance(c, nodes.bullet_list)), None) if title is not None else None
    return f'<ul class="section-nav">{_entries(inner, 2)}</ul>' if inner is not None else ""


_TABLE = re.compile(r'<table class="docutils.*?</table>', re.S)


def wrap_tables(body: str) -> str:
    """Each of Sphinx's tables in a box of its own that scrolls sideways when the table is wider than the column."""
    return _TABLE.sub(lambda m: f'<div class="table-wrap">{m.group(0)}</div>', body)


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    if context.get("body"):
        context["body"] = wrap_tables(context["body"])
    context["site_lessons"] = lessons(app, pagename)
    context["site_sections"] = sections(app, pagename)
    context["site_head_script"] = HEAD_SCRIPT
    context["css_files"] = [css for css in context.get("css_files", []) if _name(css) == bundle.STYLE]
    scripts = context.get("script_files", [])
    joined = any(_name(js) == bundle.FIGURE_SCRIPT for js in scripts)   # site.js is inside it
    # Sphinx's own scripts (bundle.SEARCH_SCRIPTS) serve the search page alone, joined with site.js into the one
    # script its template writes (lesson/search.html, bundle.SEARCH_SCRIPT)
    context["script_files"] = [js for js in scripts if _name(js) not in bundle.SEARCH_SCRIPTS
                               and not (joined and _name(js) == bundle.SITE_SCRIPT)]


def _name(asset) -> str:
    """The file name of one of Sphinx's script or style sheet entries (without the folder Sphinx may give it)."""
    return str(getattr(asset, "filename", asset) or "").rsplit("/", 1)[-1]


# Code in the page's mode: high-contrast styles (accessible-pygments), light unless the page is dark.
CODE_STYLES = (('html:not([data-theme="dark"]) .highlight', "a11y-high-contrast-light"),
               ('html[data-theme="dark"] .highlight', "a11y-high-contrast-dark"))


def code_colours() -> str:
    """The style sheet of highlighted code for both modes, each scoped to its mode."""
    from pygments.formatters import HtmlFormatter
    return "\n".join(HtmlFormatter(style=style).get_style_defs(scope) for scope, style in CODE_STYLES) + "\n"


def _on_finished(app, exception) -> None:
    """The pages' style sheet and the figure pages' and search page's scripts, joined from their parts
    (sitebuild/theme/bundle.py). Sphinx's pygments.css and MyST-NB's style sheet are not linked: page.css holds
    the code colours of both modes and the cells' rules."""
    if exception is None and app.builder.format == "html":
        from sitebuild.pages.extension import FIGURE_SCRIPTS

        static, out = Path(app.confdir) / "_static", Path(app.outdir) / "_static"
        (out / bundle.STYLE).write_text(bundle.style_sheet(static, code_colours()), encoding="utf-8")
        (out / bundle.FIGURE_SCRIPT).write_text(bundle.figure_script(static, FIGURE_SCRIPTS), encoding="utf-8")
        (out / bundle.SEARCH_SCRIPT).write_text(bundle.search_script(static, out), encoding="utf-8")


def setup(app):
    app.add_html_theme("lesson", str(THEME))
    app.connect("html-page-context", _on_page_context, priority=900)   # after the pages' own extension's
    app.connect("build-finished", _on_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
