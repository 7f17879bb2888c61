"""Stage `pages`: Sphinx writes the HTML pages, executing each lesson whose inputs changed (the rest come from
jupyter-cache), through the project's own Sphinx extensions.

In:  conf.py, index.md, glossary.md, 404.md, posts/*.md, compute/ and the files each lesson reads.
Out: _build/html/ (pages, _static/), _build/.jupyter_cache, _build/doctrees, _build/prose/<page>.jsonl (the
     sentences the lessons' Python wrote).

  sphinx      run sphinx-build; tell which lessons executed; a failed cell or glue role as its error line
  stamps      extension: a lesson re-executes exactly when a file it reads changes
  ahead       extension: the lessons to execute, executed side by side before Sphinx reads them
  extension   extension: what each HTML page gets (plotly.js where needed, handout links), pages left out
  claimroles  extension: the roles that bind a sentence; glued numbers printed honestly, warned at their line
  frontbox    extension: each lesson's front box
  glossary    extension: each glossary term linked from its first use
  lessonlist  extension: the landing and 404 pages' lesson lists
  reading     extension: the lessons' reading times
"""
