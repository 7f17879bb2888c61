"""sitebuild.figures.freshen: a warm build's pages get current cache busters, its search index no stale words."""

from __future__ import annotations

import hashlib

from sphinx.search import js_index

from sitebuild.figures.freshen import freshen


def _site(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "posts").mkdir()
    (tmp_path / "_static" / "site.css").write_text("body { color: black }")
    (tmp_path / "_static" / "figures.js").write_text("draw();")
    return tmp_path


def test_every_static_link_gets_the_checksum_of_its_file(tmp_path):
    site = _site(tmp_path)
    page = site / "posts" / "lesson.html"
    page.write_text(
        '<link href="../_static/site.css?v=0badc0de" rel="stylesheet">'  # stale: the file changed since
        '<script src="../_static/figures.js"></script>'                  # none: written before the file
        '<script src="../_static/gone.js?v=12345678"></script>'          # no such file: left alone
        '<script type="text/plain" class="box-module" data-src="../_static/figures.js"></script>'   # a box's module
        '<a href="https://example.org/_static/x.js">x</a>'
    )
    freshen(site)
    html = page.read_text()
    css = hashlib.sha256(b"body { color: black }").hexdigest()[:8]
    js = hashlib.sha256(b"draw();").hexdigest()[:8]
    assert f'href="../_static/site.css?v={css}"' in html
    assert f'src="../_static/figures.js?v={js}"' in html
    assert f'data-src="../_static/figures.js?v={js}"' in html
    assert 'src="../_static/gone.js?v=12345678"' in html
    assert 'href="https://example.org/_static/x.js"' in html
    (site / "_static" / "figures.js").write_text("draw(); redraw();")
    freshen(site)
    assert hashlib.sha256(b"draw(); redraw();").hexdigest()[:8] in page.read_text()


def test_words_no_page_holds_leave_the_search_index(tmp_path):
    site = _site(tmp_path)
    index = {"terms": {"heron": [0, 2], "river": 1, "cheque": []}, "titleterms": {"bank": 0, "old": []}}
    (site / "searchindex.js").write_text(js_index.dumps(index))
    freshen(site)
    kept = js_index.loads((site / "searchindex.js").read_text())
    assert kept == {"terms": {"heron": [0, 2], "river": 1}, "titleterms": {"bank": 0}}
