"""The graph of one prediction: from the story's words through the heads and MLPs of every layer to one word's logit,
each edge the logit's fall when that edge alone is cut.

Nodes: a few of the story's words ("word 12": the last word, and those the first layer's heads weigh most at the
last word), every head and MLP, and the chosen word's logit. Edges, each measured with compute.models.paths (a
sender's write removed from one receiver's input alone, everything after it computed again):

    word j -> a head            the word's embedding cut from that head's keys and values at j (and its query, when
                                j is the last word): what the head gets from reading that word
    last word -> an MLP, logit  the last word's embedding cut from that reader at the last position
    part -> later part          the part's write cut from the later part's input at every position (a head's
                                queries, keys and values together)
    part -> logit               the part's write cut from the final LayerNorm's input: its push on the logit, the
                                LayerNorm's scale computed again (the box's bars hold it fixed)

An edge's effect is the logit with every edge, less the logit with that edge cut: positive where the edge raises the
word. Edges do not add up to the logit (the model is not linear); each is measured on its own.

    prediction_graph(model, ids, word)                        # Graph(nodes, edges, logit)
    prediction_graph(model, ids, word, silenced={(0, 1)})     # on the model with L1 H2 silenced
    prediction_graph(model, ids, word, patched=paths.borrowed(model, other, [(0, 1)]))   # L1 H2 writing as on other

A silenced head sends and reads nothing; a patched head sends what it writes on the other story and reads nothing
where it writes that (at every position, when the other story is as long).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from . import paths
from .decoder import Decoder

WORDS = 4           # words of the story shown besides the last: the first layer's heaviest at the last word
LOGIT = "logit"


@dataclass(frozen=True)
class Edge:
    sender: str
    receiver: str
    effect: float      # the word's logit, less the logit with this edge alone cut


@dataclass
class Graph:
    word: int
    logit: float                 # the word's logit with every edge
    nodes: list[str]             # "word 3", ..., "L1 H1", ..., "L2 MLP", "logit"
    edges: list[Edge]


def _part(receiver_input: str) -> str:
    """'L2 H1 Q' -> 'L2 H1'; an MLP or the logits as they are named."""
    return LOGIT if receiver_input == paths.LOGITS else " ".join(receiver_input.split()[:2])


def shown_words(model: Decoder, ids: list[int], silenced=frozenset(), k: int = WORDS) -> list[int]:
    """The last position and the k earlier positions the first layer's heads weigh most at the last word (their
    weights summed), in order. (A patch changes no first-layer weight.)"""
    return _heaviest(paths.run(model, ids, silenced=silenced).attention, k)


def _heaviest(attention: torch.Tensor, k: int) -> list[int]:
    """The last position and the k earlier ones the first layer's heads weigh most there, from every head's weights
    (n_layer, n_head, T, T)."""
    A = attention[0, :, -1].sum(0)                                   # (T,)
    A[-1] = float("-inf")
    heavy = torch.argsort(A, descending=True, stable=True)[:k].tolist()
    return sorted(set(heavy) | {len(A) - 1})


@torch.no_grad()
def prediction_graph(model: Decoder, ids: list[int], word: int, silenced=frozenset(), patched=None,
                     k: int = WORDS) -> Graph:
    """Every edge of one prediction's graph (see the module's docstring), on the model with `silenced` heads and
    `patched` ones ({(layer, head): rows}, as paths.run takes them)."""
    silenced, patched, T = frozenset(silenced), dict(patched or {}), len(ids)
    clean = paths.run(model, ids, silenced=silenced, patched=patched)
    logit, written = float(clean.logits[-1, word]), clean.writes
    parts = [p for p in written if p != "embedding"]

    def head(p: str) -> tuple[int, int] | None:
        return (paths.layer_of(p), int(p.split("H")[1]) - 1) if " H" in p else None

    speaking = [p for p in parts if head(p) not in silenced]
    reading = [p for p in speaking if head(p) not in patched or len(patched[head(p)]) < T]

    def cut(into: dict[str, torch.Tensor]) -> float:
        return logit - float(paths.run(model, ids, into, silenced, patched).logits[-1, word])

    edges, positions = [], _heaviest(clean.attention, k)        # the words shown (shown_words)
    for j in positions:
        row = torch.zeros_like(written["embedding"])
        row[j] = -written["embedding"][j]                                   # word j's embedding, at j only
        for part in parts:
            if " H" in part and part in reading:
                inputs = [f"{part} {via}" for via in paths.INPUTS] if j == T - 1 else [f"{part} K", f"{part} V"]
                edges.append(Edge(f"word {j}", part, cut({i: row for i in inputs})))
            elif j == T - 1 and part.endswith("MLP"):
                edges.append(Edge(f"word {j}", part, cut({part: row})))
        if j == T - 1:
            edges.append(Edge(f"word {j}", LOGIT, cut({paths.LOGITS: row})))
    for sender in speaking:
        readers: dict[str, list[str]] = {}
        for i in paths.receivers_of(model, sender):
            readers.setdefault(_part(i), []).append(i)
        delta = -written[sender]
        for receiver, inputs in readers.items():
            if receiver in reading or receiver == LOGIT or receiver.endswith("MLP"):
                edges.append(Edge(sender, receiver, cut({i: delta for i in inputs})))
    nodes = [f"word {j}" for j in positions] + parts + [LOGIT]
    return Graph(word, logit, nodes, edges)
