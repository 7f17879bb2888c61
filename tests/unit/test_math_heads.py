"""sitebuild.math.heads: each page's <head> without the search scripts it does not use, the theme's imported sheet
linked directly, the icon font preloaded; once, however many builds run over it."""

from __future__ import annotations

from sitebuild.math.heads import lighten, lighten_pages, theme_sheet_is_basic

# The <head> as pydata-sphinx-theme writes it for a page one folder down (abridged).
HEAD = """<head>
  <link href="../_static/styles/theme.css?digest=90905a2f556bf617f1a9" rel="stylesheet" />
<link href="../_static/styles/pydata-sphinx-theme.css?digest=90905a2f556bf617f1a9" rel="stylesheet" />
    <script src="../_static/doctools.js?v=6b2524c2"></script>
    <script src="../_static/searchtools.js?v=954625d1"></script>
    <script src="../_static/language_data.js?v=af1c48fc"></script>
    <script src="../searchindex.js"></script>
</head>"""
FONT = '<link rel="preload" href="../_static/vendor/fontawesome/webfonts/fa-solid-900.woff2" as="font"'


def test_a_lesson_page_loses_the_search_scripts_and_links_basic_css_itself():
    html = lighten(HEAD, "", basic=True)
    for gone in ("searchtools.js", "language_data.js", "searchindex.js", "styles/theme.css"):
        assert gone not in html
    assert "doctools.js" in html and "pydata-sphinx-theme.css" in html
    assert html.count(FONT) == 1
    # basic.css comes where theme.css was (first: the theme's sheet overrides it), after the font's preload
    assert html.index(FONT) < html.index('<link href="../_static/basic.css" rel="stylesheet" />') \
        < html.index("pydata-sphinx-theme.css")


def test_the_search_page_keeps_its_scripts():
    html = lighten(HEAD.replace("../", ""), "search.html", basic=True)
    assert "_static/searchtools.js" in html and 'src="searchindex.js"' in html


def test_a_theme_sheet_with_more_than_the_import_is_kept():
    html = lighten(HEAD, "", basic=False)
    assert "styles/theme.css?digest=" in html and "_static/basic.css" not in html
    assert html.count(FONT) == 1


def test_theme_css_counts_as_basic_only_while_it_is_only_the_import(tmp_path):
    styles = tmp_path / "_static" / "styles"
    styles.mkdir(parents=True)
    sheet = styles / "theme.css"
    sheet.write_text('/* Provided by Sphinx\'s \'basic\' theme */\n@import "../basic.css";\n')
    assert theme_sheet_is_basic(tmp_path)
    sheet.write_text('@import "../basic.css";\nbody { margin: 0 }\n')
    assert not theme_sheet_is_basic(tmp_path)
    sheet.unlink()
    assert not theme_sheet_is_basic(tmp_path)


def test_a_second_build_changes_nothing(tmp_path):
    for basic in (True, False):
        (tmp_path / "_static" / "styles").mkdir(parents=True, exist_ok=True)
        (tmp_path / "_static" / "styles" / "theme.css").write_text('@import "../basic.css";' if basic else "p{}")
        (tmp_path / "posts").mkdir(exist_ok=True)
        page = tmp_path / "posts" / "lesson.html"
        page.write_text(HEAD)
        assert lighten_pages(tmp_path) == 1
        once = page.read_text()
        assert lighten_pages(tmp_path) == 0
        assert page.read_text() == once and once.count(FONT) == 1
