"""Stage `math`: every page's math typeset at build (MathJax in Chromium) and written into the page.

In:  _build/html/ as Sphinx wrote it.
Out: _build/html/ rewritten in place (math as HTML).

  typeset    math typeset into each page
"""
