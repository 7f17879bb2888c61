"""Stage `prose`: what the lessons' Python wrote is audited as the pages' sentences are, one value prints one
way across the site, no page shows raw MyST; the site's own files (the page's JavaScript model, the readers'
guide) are added.

In:  _build/html/, _build/prose/, compute's claims; docs/readers.md.
Out: _build/html/ with the site files and guide.html added (_build/site-files caches what compute made).

  audit      the audit of the sentences the lessons' Python wrote
  spelling   one value, one spelling
  rawcheck   no raw MyST markup on a built page
  sitefiles  files compute makes for the site
  guide      docs/readers.md as guide.html
"""
