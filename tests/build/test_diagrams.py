"""The walkthrough, Part III and the lab each show the transformer diagram with their own model's sizes."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup


def walkthrough():
    from compute.models.walkthrough import CONFIG
    return CONFIG


def four_head():
    from compute.published.story import FOUR_HEAD, load
    return load(FOUR_HEAD).model.cfg


def lab_one_head():
    from compute.lessons.lab.states.run import config
    return config("one-head").decoder()


@pytest.mark.parametrize("stem, model", [("trained-walkthrough", walkthrough), ("story-models", four_head),
                                         ("lab", lab_one_head)])
def test_the_lesson_draws_its_own_model(built_site, stem, model):
    cfg = model()
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    drawn = page.select("article svg.block-diagram")
    assert len(drawn) == 1
    text = " ".join(t.get_text() for t in drawn[0].select("text"))   # the boxes, not the title
    d_ff = cfg.d_ff or 4 * cfg.d_model
    for size in (f"{cfg.vocab_size} × {cfg.d_model}", f"{cfg.d_model} → {d_ff} → {cfg.d_model}", f"× {cfg.n_layer}"):
        assert size in text, (stem, size)
    assert ("LayerNorm" in text) == cfg.layer_norm
