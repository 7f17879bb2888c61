"""Build the lesson site: `python -m sitebuild` runs the stages below in order, one package each, named as the
build's progress line names them; each package's first lines say what the stage reads and what it writes.

  audit       the lessons' sentences bound to the claims that cover them, before anything runs
  preflight   compute's own check of every lesson's claims, when compute changed
  pages       Sphinx writes the pages (its extensions live here); lessons execute or come from the cache
  prose       the sentences the lessons' Python wrote, audited; one spelling per value; the site's own files
  math        math typeset into each page; the icon font cut; each <head> lightened
  figures     every figure drawn to its pictures, printed states and files
  decks       each lesson as a slide deck
  handouts    each lesson printed three ways: handout, student edition, answer key
  slidepdfs   each deck printed (stage `slide PDFs`)
  notebooks   each lesson as a Jupyter notebook
  publish     everything swapped into site/ at once

Shared by the stages:
  browser     launch Debian's chromium; block and record non-local requests
  serve       a local static HTTP server in a thread (misses can get 404.html)
  progress    what the build is doing: stages, bars, the time each took
  lock        one build at a time: an flock on _build/build.lock
  sitecheck   checks over a built site (HTML validity, links, visible text), for the tests
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
