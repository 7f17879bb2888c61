"""sitebuild.pages.extension in a build: pages of deleted sources."""

from helpers import make_mini_project
from sitebuild.pages.sphinx import build_html


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
    pages = root / "sitebuild" / "pages" / "extension.py"
    pages.write_text(pages.read_text().replace(
        '    context["body"] = body\n', '    context["body"] = body + "<!-- page-extension-marker -->"\n'))
    build_html(root, build)
    assert "page-extension-marker" in page.read_text()
