"""Build the lesson site: Sphinx extensions and the `python -m sitebuild` pipeline.

Modules, one job each:
  stamps     Sphinx extension: a lesson re-executes when a file it reads changes
  pages      Sphinx extension: per-page plotly.js, handout and notebook links,
             matrix wrapper; pages of deleted sources removed; 404.html made
             root-relative
  preflight  run compute's own pre-build check, if it has one
  html       run sphinx-build; tell which notebooks executed
  handouts   print each lesson page to a PDF with headless Chromium
  notebooks  each lesson as a Jupyter notebook (jupytext), outputs stripped
  browser    launch Debian's chromium; block and record non-local requests
  serve      a local static HTTP server in a thread (misses can get 404.html)
  publish    swap the finished output into site/ atomically (renameat2 exchange)
  lock       one build at a time: an flock on _build/build.lock
  rawcheck   no built page may show raw MyST markup
  sitefiles  files compute makes for the site (the page's JavaScript model), cached
  sitecheck  checks over a built site (HTML validity, links, visible text), for the tests
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
