"""sitebuild.theme's pieces: Sphinx's tables in boxes that scroll, code colours for each mode."""
from __future__ import annotations

from sitebuild.theme import code_colours, wrap_tables


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
