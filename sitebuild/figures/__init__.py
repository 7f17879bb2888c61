"""Stage `figures`: every plotly figure drawn at build, to its pictures (light, dark, wide, narrow), its printed
states and its files (SVG, PNG, CSV); cache busters set from the files.

In:  _build/html/ (each figure's JSON and declared print states), _static/'s figure scripts.
Out: _build/html/_static/rendered/, _build/html/figures/<lesson>/, pages rewritten to show the pictures;
     _build/figure-renders/<key>/ keeps what was drawn.

  render     the stage: the figures drawn in a thread started once the pages are written (the prose and math
             stages run meanwhile), then placed in the pages
  figure     a figure as a built page holds it: its JSON, printed states, box and caption
  draw       the drawing, in headless Chromium, two browsers side by side (render.js runs there)
  forms      a drawn figure's forms: pure functions, no browser
  files      figure data moved out of the pages at publish
  freshen    a warm build's output made the same as a cold one's
"""
