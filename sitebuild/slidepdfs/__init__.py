"""Stage `slide PDFs`: each deck printed as a PDF, one slide a page.

In:  _build/html/slides/<stem>.html, _build/html/_static/.
Out: _build/deckprints/<stem>-slides.pdf and stamps.json.

  printer    reveal.js's print view printed by headless Chromium
"""
