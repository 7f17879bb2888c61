"""A lesson's markdown as plain Jupyter reads it (sitebuild.notebooks.write.for_jupyter)."""
import pytest

from sitebuild.notebooks.write import NotebookError, Provenance, for_jupyter

pytestmark = pytest.mark.unit

URL = "https://example.org/course/"


def test_glued_values_are_written_in_as_the_page_prints_them():
    glue = {"share": "0.99971", "n": "24", "word": "'fall'"}
    md = "A share of {glue:text}`share:.1%`, {glue:text}`n` flips, *{glue:text}`word`* {claim}`x`."
    # 0.99971 is not 1: honest_format never rounds it to 100 %
    assert for_jupyter(md, glue, URL) == "A share of 99.97%, 24 flips, *fall*."


def test_an_unknown_glued_value_is_named():
    with pytest.raises(NotebookError, match=r"posts/x.md: no value is glued as 'gone'"):
        for_jupyter("{glue:text}`gone:.2f`", {}, URL, "posts/x.md")


def test_web_only_text_goes_with_the_space_before_it_and_nothing_else():
    md = "The bars move {about}`method`. [Switch the sentences\nand watch them.]{.web-only} The model\nends."
    assert for_jupyter(md, {}, URL) == "The bars move. The model\nends."


def test_labels_become_anchors_and_other_lessons_link_to_the_site():
    md = "(bh-s04)=\n## Windows\n\nSee [the window](attention-by-hand.md#bh-s05) and [here](#bh-s04)."
    out = for_jupyter(md, {}, URL)
    assert out.startswith('<a id="bh-s04"></a>\n## Windows')
    assert f"[the window]({URL}posts/attention-by-hand.html#bh-s05)" in out and "[here](#bh-s04)" in out


def test_the_first_cell_names_the_checkpoints_or_says_there_are_none():
    made = Provenance(URL, "of 2026-12-03 (source abc1234)", {}, (("m.safetensors", "0123456789ab"),))
    assert "`m.safetensors` (sha256 0123456789ab)" in made.words()
    assert "reads no checkpoint" in Provenance(URL).words()
    assert "TRAIN = True" in made.words(trains=True)


ONLY = ("Before.\n\n:::{only} generated_stories\nHeld-out families {claim}`x`.\n:::\n\n"
        ":::{only} not generated_stories\nA story file has none.\n:::\nAfter.")


def test_an_only_block_keeps_its_text_where_its_tag_holds_and_is_gone_elsewhere():
    assert for_jupyter(ONLY, {}, URL, tags=frozenset({"generated_stories"})) == \
        "Before.\n\nHeld-out families.\n\nAfter."
    assert for_jupyter(ONLY, {}, URL) == "Before.\n\n\nA story file has none.\nAfter."  # the lines around stay


def test_part_three_from_a_story_file_leaves_out_the_template_families_and_says_what_it_read():
    from pathlib import Path
    page = (Path(__file__).resolve().parents[2] / "posts" / "story-models.md").read_text(encoding="utf-8")
    page = page.replace("{glue:text}", "{nothing}")          # the values are not what is tested here
    generated = for_jupyter(page, {}, URL, tags=frozenset({"generated_stories"}))
    from_file = for_jupyter(page, {}, URL)
    for words in ("are held out: no model trains on them", "On the held-out families"):
        assert words in generated and words not in from_file
    assert "a file of\nstories" in from_file and "a file of\nstories" not in generated
    assert ":::" not in generated and ":::" not in from_file
