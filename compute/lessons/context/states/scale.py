"""Past this machine (Part 2B, section 5): the cost formulas at published model sizes, and at Part III's."""
from __future__ import annotations

from ....costs import PUBLISHED, ModelSize, kv_cache_bytes, token_macs
from ....published.story import FOUR_HEAD, load_published


def story_size() -> dict:
    cfg = load_published(FOUR_HEAD).config
    return {"name": "Part III, 2 × 4 heads", "n_layer": cfg.n_layer, "d_model": cfg.d_model,
            "context": cfg.context, "vocab": cfg.vocab_size}


def scale_rows() -> list[dict]:
    """Each model at its full context: KV cache per sequence (16-bit numbers), the MACs of one new token in its
    layers, and the share of them that reads the context; and that share once the output projection onto the
    vocabulary (d_model x vocab MACs) is counted too."""
    rows = []
    for size in [story_size(), *({"name": s.name, "n_layer": s.n_layer, "d_model": s.d_model, "context": s.context,
                                  "source": s.source, "vocab": s.vocab} for s in PUBLISHED)]:
        T = size["context"]
        cache = kv_cache_bytes(size["n_layer"], size["d_model"], T)
        parts = _token(size, T)
        total = sum(parts.values())
        output = size["d_model"] * size["vocab"]
        rows.append({**size, "kv_bytes": cache, "token_macs": total, "output_macs": output,
                     "attention_share": parts["attention over T"] / total,
                     "attention_share_with_output": parts["attention over T"] / (total + output)})
    return rows


def _token(size: dict, T: int) -> dict[str, int]:
    return token_macs(ModelSize(size["name"], size["n_layer"], size["d_model"], 1, T, ""), T)
