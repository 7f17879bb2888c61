"""The walkthrough's figures print probabilities and weights honestly: a value that is not exactly 1 or 0 never
reads 1.00 or 0.00, in the summaries under the figures, the handout's table or the hover text."""
from __future__ import annotations

import html
import re

import numpy as np
import pytest

from compute.data.walkthrough import VOCAB
from compute.lessons.walkthrough import figures as F
from compute.published.walkthrough import NAME, load

BOUND = re.compile(r"^-?(?:1|0)(?:\.0+)?$")  # 1, 1.00, 0.000, ...


@pytest.fixture(scope="module")
def wt():
    return load(NAME)


def shown_numbers(text: str) -> list[str]:
    return re.findall(r"(?<![\w.])\d+\.\d+", text)


def assert_honest(text: str, value: float):
    if text[0] in "<>":  # closer to a bound than the decimals shown: an inequality that holds
        shown = float(text[1:])
        assert (value > shown if text[0] == ">" else value < shown) and value not in (0.0, 1.0), (text, value)
        return
    if value not in (0.0, 1.0):
        assert not BOUND.match(text), f"{value!r} printed as {text!r}"
    assert abs(float(text) - value) <= 0.5 * 10 ** -len(text.split(".")[1]) + 1e-15, (text, value)


def test_next_word_summary_and_handout_table_never_round_to_one_or_zero(wt):
    probs = wt["probs"]
    assert 0 < probs.min() and probs.max() < 1   # no probability here is exactly 0 or 1
    summary = html.unescape(F.NEXT_WORD.html())
    at13 = re.search(r"At position 13 \(“was”\) the most likely next words are ([^.]+\.\d+[^.]*\.\d+[^.]*\.\d+)", summary)
    assert at13, summary[:400]
    for word, text in re.findall(r"(\w+) ([<>]?\d+\.\d+)", at13.group(1)):
        assert_honest(text, probs[13, VOCAB.index(word)])
    tops = re.findall(r"after (\d+) “\w+”: “(\w+)” \(([<>]?[\d.]+)\)", summary)
    assert len(tops) == len(wt.tokens)
    for i, word, text in tops:
        assert_honest(text, probs[int(i), VOCAB.index(word)])
    table = html.unescape(F.probability_print_table().data)
    cells = re.findall(r'<th scope="row">(\d+) \w+</th>((?:<td class="text">\w+ [<>]?[\d.]+</td>)+)', table)
    assert len(cells) == len(wt.tokens)
    for i, row in cells:
        for word, text in re.findall(r">(\w+) ([<>]?[\d.]+)<", row):
            assert_honest(text, probs[int(i), VOCAB.index(word)])


def test_next_word_hover_is_written_in_python_for_every_slider_step(wt):
    probs = wt["probs"]
    fig = F.next_token_bars(probs, wt.tokens, 13)
    bar = fig.data[0]
    assert "%{y:" not in bar.hovertemplate and "%{customdata}" in bar.hovertemplate
    for text, p in zip(bar.customdata, probs[13]):
        assert_honest(text, p)
    steps = fig.layout.sliders[0].steps
    assert len(steps) == len(wt.tokens)
    for i, step in enumerate(steps):
        (texts,), (ys,) = step.args[0]["customdata"], step.args[0]["y"]
        assert np.allclose(ys, probs[i])
        for text, p in zip(texts, probs[i]):
            assert_honest(text, p)


def test_attention_hover_and_summary_weights_are_honest(wt):
    A, S = wt["A"], wt["S"]
    fig = F.attention_heatmap(A, S, wt.tokens, "A")
    heat = fig.data[0]
    assert "%{z" not in heat.hovertemplate
    T = len(wt.tokens)
    for i in range(T):
        for j in range(T):
            score, _, _, weight = heat.customdata[i][j]
            if j > i:
                assert score == weight == ""       # masked: no hover at all
                continue
            assert_honest(weight, A[i, j])
            assert abs(float(score) - S[i, j]) <= 0.005 + 1e-12
    assert heat.customdata[0][0][3] == "1.00"       # row 0 may read only itself: exactly 1, as the table of A prints it
    summary = html.unescape(F.attention_summary(wt))
    weights = re.findall(r"(\d+) “\w+” → (\d+) “\w+” \(([<>]?[\d.]+)\)", summary)
    assert len(weights) == T
    for i, j, text in weights:
        assert_honest(text, A[int(i), int(j)])
