"""sitebuild.pages.extension: the handout link and the matrix wrapper."""

from sitebuild.pages.extension import add_handout_link, handout_href, wrap_matrices


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
        '<p class="handout-link"><a href="../handouts/x.pdf">PDF handout</a> · '
        '<a href="../handouts/x-student.pdf">student edition</a> · <a href="../handouts/x-key.pdf">answer key</a>'
        ' · <a href="../slides/x.html">Present (slides)</a> · <a href="../handouts/x-slides.pdf">slides as PDF</a>'
        '</p><p>Text</p></section>'
    )


def test_a_page_with_a_reading_route_links_its_deck():
    body = '<section><h1>T</h1><ol class="arabic simple reading-route"><li>a</li></ol></section>'
    assert '<a href="../slides/x-route.html">the reading route as slides</a>' in add_handout_link(body, "../handouts/x.pdf")
    plain = '<section><h1>T</h1><p>the reading-route class is only named here</p></section>'
    assert "x-route.html" not in add_handout_link(plain, "../handouts/x.pdf")


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
