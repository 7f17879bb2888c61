"""The transformer diagram is drawn from the model's configuration: change the configuration, the drawing changes."""
import re

import pytest

from compute.models.decoder import DecoderConfig
from compute.present.diagram import boxes, described, svg

pytestmark = pytest.mark.unit


def names(cfg):
    before, block, after = boxes(cfg)
    return [b.text for b in before], [b.text for b in block], [b.text for b in after]


def test_layer_norm_and_rope_appear_only_when_the_model_has_them():
    plain = DecoderConfig(vocab_size=9, context=14, d_model=6)
    normed = DecoderConfig(vocab_size=380, context=256, d_model=64, n_layer=2, n_head=4, layer_norm=True, rope=True)
    assert "LayerNorm" not in sum(names(plain), []) and "positions" in names(plain)[0]
    before, block, after = names(normed)
    assert block.count("LayerNorm") == 2 and after[0] == "LayerNorm" and "positions" not in before
    assert "attention, 4 heads" in block
    assert described(normed) == "two blocks of four heads, with LayerNorm, rotary positions"


def test_the_sizes_are_the_configurations():
    cfg = DecoderConfig(vocab_size=380, context=256, d_model=64, n_layer=2, n_head=4, d_ff=256)
    drawn = svg(cfg, "the model")
    for size in ("380 × 64", "64 → 256 → 64", "d_k = 16, d_v = 16", "× 2", "up to 256"):
        assert size in drawn, size
    assert len(re.findall(r"<rect", drawn)) == sum(len(part) for part in boxes(cfg)) + 1   # and the block's frame
