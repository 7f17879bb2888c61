"""The sentences of a MyST page: what counts as prose, where sentences end, which line each starts on."""

from sitebuild.audit.sentences import PLACEHOLDER, sentences

PAGE = """\
---
file_format: mystnb
---

# A title with more words

(label)=
## 2. Second section

The first sentence is here. The second one, e.g. this, runs
over a line break; it ends here! Does a question end one?
Yes: {glue:text}`x:.2f` (its spec has a dot) is glued.

```{code-cell} ipython3
print("Code never counts. Even with more words.")
```

$$
x = \\text{more than math}
$$

- A list item is its own sentence
- and so is this one, with `code. More` in it.

| a | b |
| --- | --- |
| more | less |

Vaswani et al. (2017) wrote it. The row $A_{5.1}$ is bound {claim}`row_five`.
"""


def _texts():
    return [(s.line, s.source) for s in sentences(PAGE)]


def test_headings_and_paragraphs_split_into_sentences_with_their_lines():
    got = _texts()
    assert got[0] == (5, "A title with more words")
    assert got[1] == (8, "2. Second section")  # a heading is never split
    assert got[2] == (10, "The first sentence is here.")
    assert got[3][0] == 10 and got[3][1].startswith("The second one, e.g. this, runs over a line break;")
    assert got[4] == (11, "Does a question end one?")
    assert got[5][0] == 12 and got[5][1].endswith("is glued.")


def test_code_cells_and_display_math_are_not_prose():
    text = " ".join(s for _, s in _texts())
    assert "Code never counts" not in text and "more than math" not in text


def test_list_items_and_table_rows_stand_alone():
    got = [s for _, s in _texts()]
    assert "- A list item is its own sentence" in got
    assert "- and so is this one, with `code. More` in it." in got
    assert "| a | b |" in got and "| more | less |" in got
    assert not any(s.startswith("| ---") for s in got)


def test_abbreviations_roles_code_and_math_end_no_sentence():
    last = sentences(PAGE)[-1]
    assert last.source == "The row $A_{5.1}$ is bound {claim}`row_five`."
    assert last.roles == (("claim", "row_five"),)
    assert PLACEHOLDER in last.plain and "row_five" not in last.plain and "A_" not in last.plain
    assert any(s.source.startswith("Vaswani et al. (2017) wrote it.") for s in sentences(PAGE))


def test_plain_text_keeps_link_text_and_drops_markup():
    s = sentences("A [*bold* link](other.md#x) and **strong** words.\n")[0]
    assert s.plain == "A bold link and strong words."


def test_prose_inside_a_note_counts_but_options_do_not():
    page = "```{note}\n:class: x\nA note says more.\n```\n\n```python\nmore = 1\n```\n"
    assert [s.source for s in sentences(page)] == ["A note says more."]


def test_a_sentence_knows_the_only_block_it_sits_in():
    page = ("Outside.\n\n:::{only} generated_stories\nInside one. Inside two.\n\n"
            "::::{note}\nIn a note inside.\n::::\n:::\n\n:::{only} not generated_stories\nThe other.\n:::\n\nAfter.\n")
    assert [(s.source, s.only) for s in sentences(page)] == [
        ("Outside.", ""), ("Inside one.", "generated_stories"), ("Inside two.", "generated_stories"),
        ("In a note inside.", "generated_stories"), ("The other.", "not generated_stories"), ("After.", "")]
