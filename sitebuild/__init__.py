"""Build the lesson site: `python -m sitebuild` runs the stages below in order (build.py), one package each,
named as the build's progress line names them; each package's first lines say what the stage reads and what it
writes. It runs none when nothing they read changed since the last build (unchanged.py).

  audit       the lessons' sentences bound to the claims that cover them, before anything runs
  preflight   compute's own check of each lesson's claims, when what it reads changed: started here, it runs
              beside the pages (a failed check stops them)
  pages       Sphinx writes the pages (its extensions live here); lessons execute or come from the cache
  prose       the sentences the lessons' Python wrote, audited; one spelling per value; the site's own files
  math        math typeset into each page
  figures     every figure drawn to its pictures, printed states and files
  decks       each lesson as a slide deck
  handouts    each lesson printed three ways: handout, student edition, answer key
  prints      each lesson typeset (stage `prints`) and each deck (stage `slide PDFs`), by Typst
  notebooks   each lesson as a Jupyter notebook
  publish     everything swapped into site/ at once

Shared by the stages:
  browser     launch Debian's chromium; block and record non-local requests
  serve       a local static HTTP server in a thread (misses can get 404.html)
  progress    what the build is doing: stages, bars, the time each took
  lock        one build at a time: an flock on _build/build.lock
  unchanged   the last build's inputs and outputs, keyed: a build with nothing to do runs no stage
  sourcedate  the date written into what the build makes: the last commit's, never the clock's
  tmpdir      the site's own temporary folder
  sitecheck   checks over a built site (HTML validity, links, visible text), for the tests
  computechecks  the project's compute.checks, where it has one
  cores       how many processes side by side (lesson kernels, the checks' warm-ups): one per core
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
