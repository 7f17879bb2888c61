"""sitebuild.theme's pieces: Sphinx's tables in boxes that scroll, code colours for each mode, the page's one
style sheet and one script (sitebuild/theme/bundle.py)."""
from __future__ import annotations

from pathlib import Path

from sitebuild.theme import bundle, code_colours, wrap_tables

STATIC = Path(__file__).resolve().parents[2] / "_static"


def test_each_sphinx_table_gets_a_box_and_a_matrix_does_not():
    body = ('<table class="docutils align-default"><tr><td>a</td></tr></table><p>x</p>'
            '<table class="docutils"><tr><td>b</td></tr></table><table class="matrix"><tr><td>1</td></tr></table>')
    out = wrap_tables(body)
    assert out.count('<div class="table-wrap"><table class="docutils') == 2
    assert '<div class="table-wrap"><table class="matrix"' not in out and out.count("</table></div>") == 2


def test_code_colours_are_scoped_to_each_mode_and_differ():
    css = code_colours()
    light = [line for line in css.splitlines() if line.startswith('html:not([data-theme="dark"]) .highlight .k ')]
    dark = [line for line in css.splitlines() if line.startswith('html[data-theme="dark"] .highlight .k ')]
    assert len(light) == 1 and len(dark) == 1 and light[0].split("{")[1] != dark[0].split("{")[1]


def test_the_page_style_sheet_keeps_the_three_files_order_and_print_only_on_paper(tmp_path):
    (tmp_path / "site.css").write_text("body { color: black }\n")
    (tmp_path / "print.css").write_text("@page { size: A4; }\n.bd-header { display: none; }\n")
    css = bundle.style_sheet(tmp_path, "pre .k { color: red }\n")
    code, site, paper = css.index("pre .k"), css.index("body { color"), css.index(".bd-header")
    assert code < site < paper                          # the order the three files had on the page
    media = css.index("@media print {")
    assert site < media < css.index("@page") and css.rstrip().endswith("}")
    assert css.count("{") == css.count("}")              # the print rules closed inside their @media


def test_the_figure_script_runs_site_js_first_then_the_figure_scripts_each_once(tmp_path):
    for name, text in [("site.js", "window.order = ['site'];"), ("a.js", "window.order.push('a');"),
                       ("b.js", "window.order.push('b');")]:
        (tmp_path / name).write_text(text + "\n")
    js = bundle.figure_script(tmp_path, ("a.js", "b.js"))
    assert js.index("['site']") < js.index("push('a')") < js.index("push('b')")
    assert js.count("push('a')") == 1 and js.count("['site']") == 1


def test_every_figure_script_is_an_immediately_invoked_function():
    """Joined into one file, the parts share one scope only through what they put on window."""
    from sitebuild.pages.extension import FIGURE_SCRIPTS

    for name in (bundle.SITE_SCRIPT, *FIGURE_SCRIPTS):
        code = [line for line in (STATIC / name).read_text().splitlines() if line.strip() and not line.startswith("//")]
        starts = [line for line in code if not line.startswith((" ", "}", ")"))]
        assert all(line.startswith(("(function", "document.addEventListener(")) for line in starts), (name, starts)


def test_the_search_script_is_sphinx_s_as_written_then_site_js(tmp_path):
    written, source = tmp_path / "out", tmp_path / "src"
    written.mkdir(), source.mkdir()
    for k, name in enumerate(bundle.SEARCH_SCRIPTS):
        (written / name).write_text(f"var part{k} = {k};\n")
    (source / "site.js").write_text("window.site = true;\n")
    (written / "site.js").write_text("window.stale = true;\n")         # the source's site.js is the one joined
    js = bundle.search_script(source, written)
    at = [js.index(f"var part{k} ") for k in range(len(bundle.SEARCH_SCRIPTS))]
    assert at == sorted(at) and at[-1] < js.index("window.site") and "stale" not in js
