"""Beyond the templates: each model on stories of the families it trained on, of families it never saw, and on
stories written by hand."""
from __future__ import annotations

import html

from IPython.display import HTML

from ...data.story import KINDS
from ...data.tokenizer import readable
from ...present.prose import said
from ...present.tables import rows_html
from ...probes import KIND_NAMES
from ...published.story import FOUR_HEAD, LABELS, MODELS, NAMES, load_published, story_corpus
from .states import evaluation as ev
from .states import relations as rel
from ...conditions import GENERATED_STORIES

SPLIT_LABELS = {"in-template": "trained families", "held-out": "held-out families", "hand-written": "written by hand"}
FILE_LABELS = {**SPLIT_LABELS, "in-template": "the file's validation stories"}
SHOWN_STORIES = 4  # hand-written stories printed in full, probes marked


def splits_table() -> HTML:
    """Within-kind accuracy of each model, by kind, on the three kinds of validation story."""
    rows, labels = [], SPLIT_LABELS if story_corpus().generated else FILE_LABELS
    for split in ev.splits():
        counts = ev.split_probe_counts(split)
        for m in MODELS:
            s = ev.scores(NAMES[m], split)
            rows.append((labels[split], LABELS[m], *(s[k] if s[k] is not None else "" for k in KIND_NAMES)))
        rows.append((labels[split], "probes", *(counts[k] for k in KIND_NAMES)))
    caption = ("Within-kind accuracy on stories of the trained template families, of the held-out families, and on "
               "stories written by hand" if story_corpus().generated else
               "Within-kind accuracy on the story file's validation stories and on stories written by hand")
    return HTML(rows_html(["stories", "model", *KIND_NAMES], rows, decimals=3, caption=caption))


def _marked(index: int) -> str:
    """One hand-written story with each probe marked; where the four-head model ranks another word first among
    the probe's kind, that word follows in brackets."""
    h = ev.handwritten()[index]
    ps, r, itos = ev.probes("hand-written"), ev.results(FOUR_HEAD, "hand-written"), story_corpus().vocab.itos
    picked = {int(ps.position[p]): itos[int(r.choice[p])] for p in range(len(ps.word)) if ps.story[p] == index}
    at = {p.target: p for p in h.story.probes}
    out = []
    for i, (space, word) in enumerate(readable(h.story.tokens, KINDS["name"])):
        word = html.escape(word)
        if i in at:
            p, choice = at[i], picked.get(i)
            shown = choice.capitalize() if choice in KINDS["name"] else choice
            miss = "" if choice == h.story.tokens[i] or choice is None else \
                f' <span class="probe-miss">(four heads: {html.escape(shown or "")})</span>'
            word = f'<mark class="probe probe-{p.kind}">{word}<sub>{p.kind[0]}{p.distance}</sub></mark>{miss}'
        out.append(space + word)
    return (f'<div class="story-sample"><p class="story-label">{h.number}. {html.escape(h.title)}</p>'
            f'<p class="story-text">{"".join(out)}</p></div>')


def handwritten_examples() -> HTML:
    """Every hand-written story, probes marked and the four-head model's wrong picks beside them: the first few
    open, the rest folded (a handout prints them all)."""
    legend = said("Marked words are probes (n name, o object, c colour, p place; the number is how many tokens "
                  "back the deciding mention is) {about}`method`. Where the four-head model's likeliest word of "
                  "the kind is another, that word follows in brackets {about}`reading`.")
    n = len(ev.handwritten())
    first = "".join(_marked(i) for i in range(min(SHOWN_STORIES, n)))
    rest = "".join(_marked(i) for i in range(SHOWN_STORIES, n))
    folded = (f'<details class="hand-stories print-appendix" data-appendix="The other {n - SHOWN_STORIES} '
              f'hand-written stories, marked the same way"><summary>The other {n - SHOWN_STORIES} stories, marked '
              f'the same way</summary>{rest}</details>') if rest else ""
    return HTML(f'<div class="hand-written"><p class="story-legend">{html.escape(legend)}</p>{first}{folded}</div>')


def handwritten_table() -> HTML:
    """Every hand-written story: its title, its probes, and how many each model gets right (in a handout's
    appendix)."""
    per_story = {m: ev.handwritten_right(NAMES[m]) for m in MODELS}
    rows = []
    for i, h in enumerate(ev.handwritten()):
        n = len(h.story.probes)
        rows.append((h.number, h.title, n, *(f"{per_story[m][i]} of {n}" for m in MODELS)))
    table = rows_html(["", "story (what it tests)", "probes", *(LABELS[m] for m in MODELS)], rows,
                      caption="The hand-written stories (compute/data/handwritten_stories.txt): probes the "
                              "models get right, each story")
    return HTML(f'<div class="print-appendix" data-appendix="Every hand-written story\'s score">{table}</div>')


def listed(items: list[str]) -> str:
    """Items as a sentence lists them: a, b and c."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def relations_table() -> HTML:
    """The models trained with the relation families, on the three splits, beside this page's four-head model on
    the hand-written stories (nothing for models trained on a story file: the families are the generator's)."""
    if not GENERATED_STORIES.holds():
        return HTML("")
    rows = []
    for split in rel.SPLITS:
        for m in MODELS:
            s = rel.scores(m, split)
            rows.append((SPLIT_LABELS[split], LABELS[m], *(s[k] if s[k] is not None else "" for k in KIND_NAMES)))
    page = ev.scores(FOUR_HEAD, "hand-written")
    manifests = [load_published(rel.NAMES[m]).manifest for m in MODELS]
    seconds = listed([f"{m['train_seconds']:.0f} s" for m in manifests])
    millions = listed([f"{m['recipe']['tokens'] / 1e6:g}" for m in manifests])
    machine = manifests[-1]["trained_on"]
    rows.append((SPLIT_LABELS["hand-written"], f"{LABELS['four-head']}, without them", *(page[k] for k in KIND_NAMES)))
    return HTML(rows_html(["stories", "model, trained with the relation families", *KIND_NAMES], rows, decimals=3,
                          caption="Within-kind accuracy of the three models trained with the relation families "
                                  f"(on {millions} million tokens, in {seconds} on {machine['threads']} threads, "
                                  f"{machine['cpu']}), and of this page's four-head model on the hand-written "
                                  "stories"))
