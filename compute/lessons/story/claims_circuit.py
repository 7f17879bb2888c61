"""Part III's claims about where the name head's write goes (section 6, "Who reads the name head"): path patching in
the box's model, the composition scores of its weights and the graph of the name's prediction; and what feeds the
second seed's name head, a head of the second layer (each first-layer head's write cut from one of its inputs);
merged into claims.STORY."""
from __future__ import annotations

from ...claims import Outcome, Registry, at_least, at_most, both, room
from ...published.story import SECOND_SEED
from ...says import Says
from .states import circuit
from .states.heads import head_label

CIRCUIT = Registry()
claim = CIRCUIT.claim

FIRST_MLP = "L1 MLP"
MOVED = 0.25        # the renamed friend's probability from one reader's patch: the reader carries the name
GONE = 0.01         # the story's name's probability after that patch: it has lost its place
KEPT = 0.5          # the story's name's probability after a patch that carries nothing: still first
UNMOVED = 0.001     # the renamed friend's probability after such a patch
CARRIED = 0.75      # the renamed friend's probability from the MLPs and the final LayerNorm together
AT_CHANCE = 0.25    # composition within this share of what a random direction scores
CLEAR = 1.0         # a graph's largest edge above the next by this much of the logit (the logit is about 12.7)
FED = 0.05          # the largest fall of the name's mean probability from one cut path, above the next: one path leads
ALONE = 0.25        # that fall at most: the name head finds most names without any one first-layer head
FED_BY = SECOND_SEED   # the model whose name head, in the second layer, the last two claims trace


def _second_layer_inputs(p: dict) -> dict[str, dict[str, float]]:
    return {r: v for r, v in p["one"].items() if r.startswith("L2 H")}


@claim((Says("largest", "probability of the renamed friend with the name head's write from the renamed story patched "
             "into one reader's input alone", ("the first layer's MLP",), over="of every reader of the name head"),
        Says("at least", "the renamed friend's probability with that patch", by=MOVED),
        Says("at most", "the story's name's probability with that patch", by=GONE)))
def the_first_mlp_reads_the_name_head():
    p = circuit.name_paths()
    new, old = p["other"], p["name"]
    best = max(p["one"], key=lambda r: p["one"][r][new])
    mlp = p["one"][FIRST_MLP]
    runner = max(v[new] for r, v in p["one"].items() if r != FIRST_MLP)
    return both(Outcome(best == FIRST_MLP, f"most moved by {best} ({p['one'][best][new]:.4f}; next {runner:.2e})"),
                at_least(mlp[new], MOVED, f"{FIRST_MLP}: {new} {mlp[new]:.4f}"),
                at_most(mlp[old], GONE, f"{old} {mlp[old]:.4f}"))


@claim((Says("at least", "the story's name's probability with the name head's write from the renamed story patched "
             "into any one second-layer head's queries, keys or values alone", by=KEPT, over="(it stays first)"),
        Says("at most", "the renamed friend's probability with any such patch", by=UNMOVED)))
def no_second_layer_head_reads_the_name_head():
    p = circuit.name_paths()
    inputs = _second_layer_inputs(p)
    low = min(inputs, key=lambda r: inputs[r][p["name"]])
    high = max(inputs, key=lambda r: inputs[r][p["other"]])
    return both(at_least(inputs[low][p["name"]], KEPT, f"{p['name']} at least {inputs[low][p['name']]:.4f} ({low})"),
                at_most(inputs[high][p["other"]], UNMOVED, f"{p['other']} at most {inputs[high][p['other']]:.2e} ({high})"))


@claim(Says("at least", "the renamed friend's probability with the name head's write from the renamed story patched "
            "into both MLPs and the final LayerNorm together (the word reached without any second-layer head)",
            by=CARRIED))
def the_mlps_carry_the_name_to_the_word():
    p = circuit.name_paths()
    got = p["groups"]["both MLPs and the final LayerNorm"][p["other"]]
    return at_least(got, CARRIED, f"{p['other']} {got:.4f} (every reader patched: {p['every'][p['other']]:.4f})")


@claim(Says("equal", "every Q-, K- and V-composition score of a first-layer head with a second-layer head and "
            "1/√d_model, what a head reading in a random direction scores,", by=f"a share of {AT_CHANCE} of it"))
def composition_is_at_chance():
    c = circuit.composition_scores()
    chance = c["random"]
    worst = max((abs(float(v) / chance - 1), via, i, j) for via, s in c["scores"].items()
                for i, row in enumerate(s) for j, v in enumerate(row))
    off, via, i, j = worst
    return Outcome(off <= AT_CHANCE, f"furthest from {chance:.4f}: {via}-composition of L1 H{i + 1} with L2 H{j + 1}, "
                                     f"{off:.1%} away", margin=room(off, AT_CHANCE, above=False))


def _named(g: dict) -> str:
    """The word node of the friend's name where the story writes it (not the last word)."""
    named = [n for n, w in g["words"].items() if w == g["name"] and n != g["last"]]
    if not named:
        raise ValueError(f"the graph shows no word {g['name']!r} before the last: {g['words']}")
    return named[0]


@claim(Says("largest", "edge to the name head from a word of the story before the last, in the graph of the "
            "name's prediction", ("the friend's name",), over="of the words the graph shows", by=CLEAR))
def the_name_head_reads_the_friends_name():
    g = circuit.name_graph()
    head, named = g["name_head"], _named(g)
    into = {s: v for (s, r), v in g["edges"].items() if r == head and s.startswith("word") and s != g["last"]}
    runner = max((v, n) for n, v in into.items() if n != named)
    return Outcome(into[named] - runner[0] >= CLEAR,
                   f"{g['words'][named]} ({named}) to {head} {into[named]:.2f}; next {g['words'][runner[1]]} "
                   f"{runner[0]:.2f}", margin=room(into[named] - runner[0], CLEAR, above=True))


@claim((Says("largest", "edge from the name head, in the graph of the name's prediction", ("the first layer's MLP",),
             over="of the parts it reaches", by=CLEAR),
        Says("largest", "edge into the name's logit", ("the first layer's MLP",), over="of every part's", by=CLEAR)))
def the_graph_runs_through_the_first_mlp():
    g = circuit.name_graph()
    e, head = g["edges"], g["name_head"]
    out = sorted(((v, r) for (s, r), v in e.items() if s == head), reverse=True)
    into = sorted(((v, s) for (s, r), v in e.items() if r == "logit"), reverse=True)
    return both(Outcome(out[0][1] == FIRST_MLP and out[0][0] - out[1][0] >= CLEAR,
                        f"{head}'s largest edge to {out[0][1]} {out[0][0]:.2f}; next {out[1][1]} {out[1][0]:.2f}"),
                Outcome(into[0][1] == FIRST_MLP and into[0][0] - into[1][0] >= CLEAR,
                        f"the logit's largest edge from {into[0][1]} {into[0][0]:.2f}; next {into[1][1]} "
                        f"{into[1][0]:.2f}"))


def _on_falls(check) -> Outcome:
    """check(inputs, falls) on the second seed's name head's inputs (states/circuit.py) and each cut path's fall of the
    name's mean probability, largest first; where its name head is in the first layer, with no head before it, an
    outcome that fails naming it."""
    f = circuit.name_head_inputs(FED_BY)
    if not f["cut"]:
        return Outcome(False, f"the name head of {f['model']} is {head_label(f['head'])}, in the first layer: no head "
                              f"writes before it")
    return check(f, circuit.falls(f))


def _leads(f: dict, falls: list[tuple[float, str]]) -> Outcome:
    (top, path), (next_, other) = falls[:2]
    return Outcome(top - next_ >= FED, f"{path}: {f['plain']:.4f} to {f['cut'][path]:.4f} (a fall of {top:.4f}); "
                                       f"next {other}, a fall of {next_:.4f}", margin=room(top - next_, FED, above=True))


@claim(Says("largest", "fall of the name's mean probability at the name probes when one first-layer head's write is "
            "cut from one input of the second seed's name head alone", over="of every first-layer head's path "
            "into the name head's queries, keys or values", by=FED))
def one_path_leads_into_the_second_seeds_name_head():
    return _on_falls(_leads)


@claim(Says("at most", "the largest fall of the name's mean probability at the name probes when one first-layer "
            "head's write is cut from one input of the second seed's name head alone", by=ALONE))
def the_second_seeds_name_head_finds_most_names_without_one_path():
    return _on_falls(lambda f, falls: at_most(falls[0][0], ALONE, f"{falls[0][1]}: a fall of {falls[0][0]:.4f} "
                                                               f"({f['plain']:.4f} to {f['cut'][falls[0][1]]:.4f})"))
