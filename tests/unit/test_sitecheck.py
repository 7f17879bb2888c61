"""sitebuild.sitecheck: the checks of built pages, on small pages."""

from sitebuild.sitecheck import cut_sentences


def test_the_check_catches_a_sentence_cut_in_two():
    cut = '<p>Rows change. <span class="web-only">Choose a token:</span> its scores appear.</p>'
    whole = ('<p>Rows change. <span class="web-only">Choose a token.</span> Its scores appear, '
             'one per row<span class="web-only">; hover a cell</span>.</p>')
    assert cut_sentences(cut) == ["'Choose a token:' then 'i'"] and cut_sentences(whole) == []


def test_an_instruction_that_ends_its_block_cuts_nothing():
    caption = ('<figcaption>Rows. <span class="web-only">Buttons choose a row.</span></figcaption></figure>'
               '<pre>h = x @ W</pre>')
    assert cut_sentences(caption) == []
    assert cut_sentences(caption.replace("</figcaption></figure>", "")) == ["'Buttons choose a row.' then 'h'"]
