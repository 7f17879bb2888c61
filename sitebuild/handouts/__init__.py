"""Stage `handouts`: each lesson printed three ways (handout, student edition, answer key) by headless Chromium.

In:  _build/html/ (the pages, _static/).
Out: _build/handouts/<stem>.pdf, <stem>-student.pdf, <stem>-key.pdf and stamps.json (what each was printed from).

  printer    the printing, with headings kept with their text
  editions   the three prints, declared once
  pdftext    where a printed PDF puts its text: the reading the printer and the tests check prints with
"""
