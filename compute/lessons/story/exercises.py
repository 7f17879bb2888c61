"""Part III's predict-then-check questions: each asked before the section that measures it, its answer computed
from the models (opened on the web page, printed at the end of the handout)."""
from __future__ import annotations

from IPython.display import HTML

from ...conditions import GENERATED_STORIES
from ...present.tables import fmt
from ...present.widgets import answer_html
from ...probes import BUCKETS, bucket_label
from ...published.story import FOUR_HEAD, LABELS, MLP, ONE_HEAD, load
from .states import evaluation as ev
from .states import heads
from .states.heads import head_label


def predict_distance() -> HTML:
    """How name accuracy moves with the distance to the deciding mention, for each model."""
    window, chance = load(MLP).config.window, ev.chances()["name"]
    near, far = bucket_label(BUCKETS[0]), bucket_label(BUCKETS[-1])
    parts = []
    for name, label in ((MLP, LABELS["mlp"]), (ONE_HEAD, LABELS["one-head"]), (FOUR_HEAD, LABELS["four-head"])):
        acc = ev.by_distance(name, "name")
        parts.append(f"{label}: {fmt(acc[0], 2)} at {near} tokens back, {fmt(acc[1], 2)} at {bucket_label(BUCKETS[1])}, "
                     f"{fmt(acc[-1], 2)} beyond {far.lstrip('> ')}")
    answer = f"Measured (a guess among the names: {fmt(chance, 3)}): " + "; ".join(parts) + "."
    return HTML(answer_html(f"Predict first: how should each model's name accuracy change as the deciding mention "
                            f"moves from within {window} tokens to more than {far.lstrip('> ')} tokens back {{about}}`method`?", answer))


def predict_knockout() -> HTML:
    """Which single head's knock-out costs names the most, and how much the runner-up costs."""
    ko = heads.knockouts(FOUR_HEAD)
    drops = sorted(((ko["all heads"]["name"] - v["name"], k) for k, v in ko.items() if k != "all heads"), reverse=True)
    (worst, lh), (second, lh2) = drops[0], drops[1]
    answer = (f"{head_label(lh)}: without it name accuracy falls from {fmt(ko['all heads']['name'], 2)} to "
              f"{fmt(ko[lh]['name'], 2)}, a drop of {fmt(worst, 2)} {{claim}}`looking_heads_are_the_needed_heads`. "
              f"The next most costly head for names, {head_label(lh2)}, costs {fmt(second, 2)} {{about}}`reading`.")
    return HTML(answer_html("Predict first: the knock-out figure later on this page silences one head at a time "
                            "{about}`method`. Which head's knock-out will cost names the most, and will any other "
                            "head come close {about}`method`? (The attention "
                            "heatmap earlier on this page is a hint.)", answer))


def predict_held_out() -> HTML:
    """Which kinds the four-head model keeps on the families it never trained on (nothing for models trained on a
    story file, which has no template families)."""
    if not GENERATED_STORIES.holds():
        return HTML("")

    def split(kind, where):
        return ev.scores(FOUR_HEAD, where)[kind]
    parts = "; ".join(f"{kind}s, trained {fmt(split(kind, 'in-template'), 2)} and held out "
                      f"{fmt(split(kind, 'held-out'), 2)}" for kind in ("object", "colour", "name", "place"))
    return HTML(answer_html(
        "Predict first: on story families it never trained on, which kinds of word will the four-head model "
        "still get right as often, and which will it lose {about}`method`?",
        "The four-head model keeps its objects and colours {claim}`held_out_objects_and_colours_transfer`; its "
        "names and places fall {claim}`held_out_names_and_places_drop`. Its accuracy on trained and on held-out "
        f"families: {parts}."))


def predict_top1() -> HTML:
    """Whether plain top-1 accuracy at name probes counts the four-head model fairly."""
    t = ev.top1_at_names(FOUR_HEAD)
    return HTML(answer_html(
        "Predict first: at a blank where a name belongs, is the four-head model's single likeliest word the right "
        "name as often as the right name ranks first among the names {about}`method`?",
        f"No: at name probes the four-head model's likeliest word is the right name {fmt(t['top1'], 3)} of the time, while the right name ranks first "
        f"among the names {fmt(t['within_kind'], 3)} of the time {{claim}}`top1_undercounts_names`; a pronoun "
        f"such as “she” is its likeliest word {fmt(t['pronoun'], 3)} of the time {{about}}`reading`."))
