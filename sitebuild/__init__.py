"""Build the lesson site: Sphinx extensions and the `python -m sitebuild` pipeline.

Modules, one job each:
  stamps     Sphinx extension: re-execute lessons when compute/ changes
  pages      Sphinx extension: per-page plotly.js, handout link, matrix wrapper;
             pages of deleted sources removed
  preflight  run compute's own pre-build check, if it has one
  html       run sphinx-build; tell which notebooks executed
  handouts   print each lesson page to a PDF with headless Chromium
  browser    launch Debian's chromium; block and record non-local requests
  serve      a local static HTTP server in a thread
  publish    swap the finished output into site/ atomically
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
