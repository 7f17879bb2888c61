"""Stage `audit`: every sentence of the lessons that compares or characterises values is bound to a claim that
covers it, or marked; the first stage, before any lesson runs.

In:  posts/*.md (and index.md), compute's claims and lesson records.
Out: nothing written; the audit's counts for the summary, or an AuditError naming file, line and sentence.

  check      the audit of a page's sentences, and `python -m sitebuild.audit` (this package's __main__)
  coverage   what a sentence says, and whether its claims say it
  sentences  the sentences of a MyST page, each with its line and roles
"""
