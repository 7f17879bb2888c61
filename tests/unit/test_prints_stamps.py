"""What a lesson's prints are set from (sitebuild.prints.stamps.printed_part): the page's article, so the navigation
every new lesson changes on every page leaves the prints alone."""
from __future__ import annotations

from sitebuild.prints.stamps import printed_part

PAGE = """<html><head>
  <title>T</title>
  <link rel="prev" href="a.html" />
  <link rel="next" href="c.html" />
  <link rel="stylesheet" href="s.css" />
</head><body>
<div class="bd-header"><a href="a.html">A</a></div>
<div class="bd-container"><div class="bd-sidebar-primary bd-sidebar"><ul><li><a href="a.html">A</a></li></ul></div>
<main class="bd-main"><article class="bd-article"><h1>B</h1><p>Text with <a href="a.html">a link</a>.</p></article>
<footer class="prev-next-footer d-print-none"><a class="left-prev" href="a.html">A</a></footer></main></div>
<footer class="bd-footer">site</footer></body></html>"""


def test_the_printed_part_keeps_the_article_and_drops_the_navigation():
    printed = printed_part(PAGE)
    assert "<h1>B</h1>" in printed and "a link" in printed
    assert 'rel="prev"' not in printed and 'rel="next"' not in printed
    assert "bd-sidebar-primary" not in printed and "bd-header" not in printed and "left-prev" not in printed
    assert "site" not in printed.replace("<title>T</title>", "")


def test_a_new_lesson_in_the_navigation_leaves_the_printed_part_alone():
    more = PAGE.replace("<ul><li>", '<ul><li><a href="new.html">New</a></li><li>')
    assert printed_part(more) == printed_part(PAGE)
    first = PAGE.replace('  <link rel="prev" href="a.html" />\n', "")   # the first page: no page before it
    assert 'rel="prev"' not in first and printed_part(first) == printed_part(PAGE)
    assert printed_part(PAGE.replace("<h1>B</h1>", "<h1>B2</h1>")) != printed_part(PAGE)


def test_whitespace_in_code_is_kept():
    code = PAGE.replace("<h1>B</h1>", '<pre><span>x</span> <span>=</span>\n\n  <span>1</span></pre>')
    assert '<span>x</span> <span>=</span>\n\n  <span>1</span>' in printed_part(code)
    assert printed_part(code) != printed_part(code.replace("</span> <span>=", "</span><span>="))
