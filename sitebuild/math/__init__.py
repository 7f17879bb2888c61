"""Stage `math`: every page's math typeset at build (MathJax in Chromium) and written into the page; the theme's
icon font cut to the icons shown; each page's <head> lightened for its first screen.

In:  _build/html/ as Sphinx wrote it.
Out: _build/html/ rewritten in place (math as HTML, a smaller icon font, lighter heads).

  typeset    math typeset into each page
  iconfont   the icon font cut down to the icons the site shows
  heads      each page's <head> made lighter
"""
