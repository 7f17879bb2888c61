"""sitebuild.pages: the handout link, the matrix wrapper, pages of deleted sources."""

from helpers import make_mini_project
from sitebuild.html import build_html
from sitebuild.pages import add_handout_link, handout_href, wrap_matrices


def test_handout_href_only_for_lessons():
    assert handout_href("posts/attention") == "../handouts/attention.pdf"
    assert handout_href("index") is None
    assert handout_href("search") is None
    assert handout_href("posts/sub/page") is None


def test_handout_link_goes_under_the_title():
    body = '<section><h1>Title<a class="headerlink">#</a></h1><p>Text</p></section>'
    out = add_handout_link(body, "../handouts/x.pdf")
    assert out == (
        '<section><h1>Title<a class="headerlink">#</a></h1>'
        '<p class="handout-link"><a href="../handouts/x.pdf">PDF handout</a></p><p>Text</p></section>'
    )


def test_handout_link_without_title_goes_first():
    assert add_handout_link("<p>x</p>", "h.pdf").startswith('<p class="handout-link">')


def test_matrices_are_wrapped_once_each():
    body = '<table class="matrix"><tr><td>1</td></tr></table><table class="other"></table><table class="big matrix x"></table>'
    out = wrap_matrices(body)
    assert out.count('<div class="matrix-wrap"><table class="matrix">') == 1
    assert out.count('<div class="matrix-wrap"><table class="big matrix x">') == 1
    assert '<table class="other"></table>' in out and out.count("matrix-wrap") == 2


def test_matrices_already_wrapped_are_left_alone():
    body = '<div class="matrix-wrap"><table class="matrix" data-matrix="A"><tr><td>1</td></tr></table></div>'
    assert wrap_matrices(body) == body


def test_a_deleted_lesson_leaves_no_page(tmp_path):
    root = make_mini_project(tmp_path)
    (root / "posts" / "second.md").write_text("# Second\n\nPlain text.\n")
    build = root / "_build"
    build_html(root, build)
    assert (build / "html" / "posts" / "second.html").exists()
    (root / "posts" / "second.md").unlink()
    build_html(root, build)
    assert not (build / "html" / "posts" / "second.html").exists()
    assert (build / "html" / "posts" / "lesson.html").exists()


def test_a_change_to_the_page_extensions_rewrites_every_page(tmp_path):
    """Sphinx rewrites a page when its source changes, not when the code that post-processes it does:
    conf.py hashes sitebuild's page extensions into an "env" config value, so such a change rewrites all."""
    root = make_mini_project(tmp_path)
    build = root / "_build"
    build_html(root, build)
    page = build / "html" / "posts" / "lesson.html"
    assert "page-extension-marker" not in page.read_text()
    pages = root / "sitebuild" / "pages.py"
    pages.write_text(pages.read_text().replace(
        '    context["body"] = body\n', '    context["body"] = body + "<!-- page-extension-marker -->"\n'))
    build_html(root, build)
    assert "page-extension-marker" in page.read_text()
