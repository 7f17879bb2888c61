"""Stage `publish`: the finished HTML, prints and notebooks swapped into site/ at once, or not at all.

In:  _build/html/, _build/handouts/, _build/deckprints/, _build/notebooks/.
Out: site/.

  site       the atomic swap into site/
"""
