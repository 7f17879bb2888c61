"""sitebuild.prose.rawcheck: MyST markup left in a page's visible text."""

from sitebuild.prose.rawcheck import raw_markup


def test_raw_markup_is_found_in_a_pages_visible_text():
    assert raw_markup("<p>The value is {glue:text}`value`.</p>")
    assert raw_markup("<p>```{code-cell} ipython3</p>")
    assert raw_markup("<p>See {doc}`posts/x`.</p>")
    assert not raw_markup("<p>The value is 1. A set {1, 2} and `code`.</p><script>{glue:text}</script>")
