"""Stage `prints`: each lesson typeset by Typst as a handout, a student edition, an answer key and, where it
has optional listings, an appendix: a printed chapter, not a browser's print of the screen.

In:  _build/html/posts/<stem>.html (the finished page: prose with its values, math, tables, code, figures'
     printed states drawn by the figures stage), _build/html/glossary.html, the public address (site.toml).
Out: _build/handouts/<stem>.pdf, <stem>-student.pdf, <stem>-key.pdf, <stem>-appendix.pdf and stamps.json;
     the Typst sources under _build/prints/<stem>/.

  lesson     a lesson's parts read from its page, and the Typst sources of its prints
  markup     the page's HTML as Typst markup (sections, prose, figures, questions)
  mathml     each formula's MathML as Typst math
  tables     tables, numbers aligned on their decimal point
  code       code wrapped with a continuation mark
  qr         the address as QR codes
  chapter.typ  the template: cover, front box, contents, numbered figures and tables, answers, glossary
  editions   which prints a lesson has, declared once
  stamps     what a lesson's prints are made from, and the PDFs' seals
  typeset    the stage: Typst run on every lesson whose stamp changed, one per core
  pdftext    where a PDF puts its text: the reading the tests check every print with
"""
