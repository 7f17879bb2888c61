"""One diagram of a transformer, drawn from a model's own configuration (compute.models.decoder.DecoderConfig):
tokens, embedding and positions, the block (LayerNorm where the model has it, attention with its heads, the
residual additions, the feed-forward network) repeated n_layer times, the unembedding and softmax, each box
with its sizes. Inline SVG: it scales with the page, prints as vectors, and its colours follow the page's mode
(site.css, .block-diagram)."""
from __future__ import annotations

import html
from dataclasses import dataclass

from ..models.decoder import DecoderConfig
from .prose import said

WIDTH, BOX_W, BOX_H, GAP = 360, 250, 34, 14
X0 = (WIDTH - BOX_W) // 2


@dataclass(frozen=True)
class Box:
    text: str          # the box's name
    sizes: str = ""    # its shapes, in the lesson's symbols
    kind: str = "op"   # op, add (a residual ⊕), io (what goes in or out)


def boxes(cfg: DecoderConfig) -> tuple[list[Box], list[Box], list[Box]]:
    """Before the block, the block, after it: what the model computes, in order."""
    b = cfg.block()
    d_k, d_v = b.head_widths()
    d_ff = cfg.d_ff or 4 * cfg.d_model
    position = "RoPE on queries and keys" if cfg.rope else f"+ P ({cfg.context} × {cfg.d_model})"
    before = [Box("tokens", f"up to {cfg.context}", "io"),
              Box("embedding E[token]", f"{cfg.vocab_size} × {cfg.d_model}"),
              *([] if cfg.rope else [Box("positions", position)])]
    heads = "head" if cfg.n_head == 1 else "heads"
    block = [*([Box("LayerNorm", f"{cfg.d_model}")] if cfg.layer_norm else []),
             Box(f"attention, {cfg.n_head} {heads}", f"d_k = {d_k}, d_v = {d_v}; W_O {cfg.n_head * d_v} × "
                                                    f"{cfg.d_model}" + ("; RoPE" if cfg.rope else "")),
             Box("⊕ residual", "", "add"),
             *([Box("LayerNorm", f"{cfg.d_model}")] if cfg.layer_norm else []),
             Box("feed-forward", f"{cfg.d_model} → {d_ff} → {cfg.d_model}"),
             Box("⊕ residual", "", "add")]
    after = [*([Box("LayerNorm", f"{cfg.d_model}")] if cfg.layer_norm else []),
             Box("unembedding W_U", f"{cfg.d_model} × {cfg.vocab_size}"),
             Box("softmax: next-word probabilities", f"{cfg.vocab_size} words", "io")]
    return before, block, after


def _box(y: int, box: Box) -> str:
    h = 24 if box.kind == "add" else BOX_H
    label = html.escape(box.text)
    sizes = f'<text x="{WIDTH // 2}" y="{y + 27}" class="diagram-sizes">{html.escape(box.sizes)}</text>' if box.sizes else ""
    ty = y + (16 if box.sizes else h // 2 + 4)
    return (f'<rect x="{X0}" y="{y}" width="{BOX_W}" height="{h}" rx="5" class="diagram-{box.kind}"/>'
            f'<text x="{WIDTH // 2}" y="{ty}" class="diagram-name">{label}</text>{sizes}')


def svg(cfg: DecoderConfig, title: str) -> str:
    return drawing(*boxes(cfg), cfg.n_layer, title)


def drawing(before: list[Box], block: list[Box], after: list[Box], n_layer: int, title: str) -> str:
    """The boxes before the block, the block (framed, repeated n_layer times) and after it, top to bottom."""
    parts, y = [], 10
    arrows = []

    def add(box: Box):
        nonlocal y
        if parts:
            c = WIDTH // 2   # a line down to the box, and its head (no <marker>: its id would repeat on a page)
            arrows.append(f'<line x1="{c}" y1="{y - GAP}" x2="{c}" y2="{y - 5}" class="diagram-arrow"/>'
                          f'<path d="M{c - 4},{y - 6} L{c + 4},{y - 6} L{c},{y - 1} z" class="diagram-head"/>')
        parts.append(_box(y, box))
        y += (24 if box.kind == "add" else BOX_H) + GAP

    for box in before:
        add(box)
    top = y - 6
    for box in block:
        add(box)
    frame = (f'<rect x="{X0 - 14}" y="{top}" width="{BOX_W + 28}" height="{y - top - 6}" rx="8" '
             f'class="diagram-block"/><text x="{X0 + BOX_W + 10}" y="{top + 16}" class="diagram-repeat">'
             f'× {n_layer}</text>')
    y += 4
    for box in after:
        add(box)
    height = y - GAP + 10
    return (f'<svg class="block-diagram" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" role="img" '
            f'aria-label="{html.escape(title)}"><title>{html.escape(title)}</title>'
            f'{frame}{"".join(arrows)}{"".join(parts)}</svg>')


def described(cfg: DecoderConfig) -> str:
    """The configuration in words: 'two blocks of four heads, with LayerNorm and rotary positions'."""
    from .widgets import spelled
    blocks = f"{spelled(cfg.n_layer)} block{'s' if cfg.n_layer > 1 else ''}"
    heads = f"{spelled(cfg.n_head)} head{'s' if cfg.n_head > 1 else ''}"
    norm = "with LayerNorm" if cfg.layer_norm else "without LayerNorm"
    where = "rotary positions" if cfg.rope else "learned position rows"
    return f"{blocks} of {heads}, {norm}, {where}"


def block_figure(cfg: DecoderConfig, caption: str) -> str:
    """The diagram as a <figure> with its caption (said: audited as every Python-written sentence is)."""
    return boxes_figure(*boxes(cfg), cfg.n_layer, caption)


def boxes_figure(before: list[Box], block: list[Box], after: list[Box], n_layer: int, caption: str) -> str:
    """A model that is not a DecoderConfig (the hand-set model of Attention by hand), drawn from its own boxes."""
    caption = said(caption)
    return (f'<figure class="block-figure">{drawing(before, block, after, n_layer, caption)}'
            f'<figcaption>{html.escape(caption)}</figcaption></figure>')
