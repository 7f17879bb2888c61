"""Stage `decks`: each lesson as a reveal.js slide deck, cut from its finished page.

In:  _build/html/posts/<stem>.html.
Out: _build/html/slides/<stem>.html.

  cut        the deck of a page: a slide per section and per figure
"""
