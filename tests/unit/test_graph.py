"""The graph of one prediction (compute.models.graph): every edge measured by cutting it alone; a part that writes
nothing, or reads nothing it could pass on, has edges of 0; a silenced head has none; the words shown are the last
and the first layer's heaviest."""
from __future__ import annotations

import torch

from compute.models import graph, paths
from compute.models.readout import read

from test_circuit import IDS, OTHER, small_model

WORD = 3


def touching(g: graph.Graph, part: str) -> list[graph.Edge]:
    return [e for e in g.edges if part in (e.sender, e.receiver)]


def test_every_edge_is_the_logits_fall_when_it_alone_is_cut():
    model = small_model()
    g = graph.prediction_graph(model, IDS, WORD)
    assert abs(g.logit - float(read(model, IDS).logits[-1, WORD])) < 1e-12
    written = paths.writes(model, IDS)
    # one edge worked by hand: the first MLP's write taken out of the second layer's first head's three inputs
    into = {f"L2 H1 {via}": -written["L1 MLP"] for via in "QKV"}
    want = g.logit - float(paths.run(model, IDS, into).logits[-1, WORD])
    got = next(e.effect for e in g.edges if (e.sender, e.receiver) == ("L1 MLP", "L2 H1"))
    assert abs(got - want) < 1e-12 and abs(got) > 1e-6
    senders = {e.sender for e in g.edges}
    assert {"L1 H1", "L1 H2", "L1 MLP", "L2 H1", "L2 H2", "L2 MLP", f"word {len(IDS) - 1}"} <= senders
    assert {e.receiver for e in g.edges if e.sender == "L2 H1"} == {"L2 MLP", "logit"}


def test_a_head_that_writes_nothing_has_edges_of_zero():
    model = small_model()
    with torch.no_grad():
        model.blocks[0].attn.W_O[0:4] = 0.0                       # L1 H1's rows of W_O (d_v = 4)
    g = graph.prediction_graph(model, IDS, WORD)
    edges = touching(g, "L1 H1")
    assert len(edges) > 5 and all(e.effect == 0.0 for e in edges)
    assert any(abs(e.effect) > 1e-6 for e in touching(g, "L1 H2"))


def test_a_silenced_head_has_no_edges_and_the_logit_is_the_silenced_models():
    model = small_model()
    g = graph.prediction_graph(model, IDS, WORD, silenced={(1, 0)})
    assert touching(g, "L2 H1") == []
    assert abs(g.logit - float(read(model, IDS, silenced={(1, 0)}).logits[-1, WORD])) < 1e-12
    assert touching(g, "L2 H2")


def test_the_words_shown_are_the_last_and_the_first_layers_heaviest():
    model = small_model()
    A = paths.run(model, IDS).attention[0, :, -1].sum(0)
    heaviest = int(A[:-1].argmax())
    shown = graph.shown_words(model, IDS, k=1)
    assert shown == sorted({heaviest, len(IDS) - 1})
    g = graph.prediction_graph(model, IDS, WORD, k=1)
    assert [n for n in g.nodes if n.startswith("word")] == [f"word {j}" for j in shown]
    last = f"word {len(IDS) - 1}"
    assert {e.receiver for e in g.edges if e.sender == last} == {"L1 H1", "L1 H2", "L1 MLP", "L2 H1", "L2 H2",
                                                                   "L2 MLP", "logit"}
    assert {e.receiver for e in g.edges if e.sender == f"word {heaviest}"} == {"L1 H1", "L1 H2", "L2 H1", "L2 H2"}


def test_a_patched_head_sends_what_it_writes_on_the_other_story_and_reads_nothing():
    model = small_model()
    patched = paths.borrowed(model, OTHER, [(0, 0)])
    assert len(OTHER) >= len(IDS)
    g = graph.prediction_graph(model, IDS, WORD, patched=patched)
    assert abs(g.logit - float(paths.run(model, IDS, patched=patched).logits[-1, WORD])) < 1e-12
    assert [e for e in g.edges if e.receiver == "L1 H1"] == []
    sent = {e.receiver: e.effect for e in g.edges if e.sender == "L1 H1"}
    assert set(sent) == {"L1 MLP", "L2 H1", "L2 H2", "L2 MLP", "logit"}
    # the edge to the logits worked by hand: the other story's write taken out of the final LayerNorm's input
    into = {paths.LOGITS: -paths.writes(model, OTHER)["L1 H1"][:len(IDS)]}
    want = g.logit - float(paths.run(model, IDS, into, patched=patched).logits[-1, WORD])
    assert abs(sent["logit"] - want) < 1e-12 and abs(want) > 1e-6
    plain = {(e.sender, e.receiver): e.effect for e in graph.prediction_graph(model, IDS, WORD).edges}
    assert abs(sent["logit"] - plain[("L1 H1", "logit")]) > 1e-6          # another write, another edge
    short = graph.prediction_graph(model, IDS, WORD, patched={(0, 0): patched[(0, 0)][:2]})
    assert any(e.receiver == "L1 H1" for e in short.edges)             # it still reads where it writes its own
