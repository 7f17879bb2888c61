"""The data section: the generated stories, their vocabulary, what a probe is, and why top-1 misleads."""
from __future__ import annotations

import html
from pathlib import Path

from IPython.display import HTML

from ...data.story import KINDS
from ...data.tokenizer import readable
from ...present.numbers import shown
from ...present.prose import said
from ...present.tables import rows_html
from ...probes import BUCKETS, KIND_NAMES, bucket_label
from ...published.story import FOUR_HEAD, story_corpus
from .states.evaluation import chances, probe_counts, probes, top1_at_names

SHOWN_STORIES = (0, 1)  # validation stories printed with their probes marked


def marked_story(index: int) -> str:
    """A validation story with each probed word marked by its kind and its distance back (print-safe)."""
    story = story_corpus().val[index]
    at = {p.target: p for p in story.probes}
    out = []
    for i, (space, word) in enumerate(readable(story.tokens, KINDS["name"])):
        word = html.escape(word)
        if i in at:
            p = at[i]
            word = f'<mark class="probe probe-{p.kind}">{word}<sub>{p.kind[0]}{p.distance}</sub></mark>'
        out.append(space + word)
    return f'<p class="story-text">{"".join(out)}</p>'


def sample_stories() -> HTML:
    legend = said("Marked words are probes: the subscript gives the kind (n name, o object, c colour, p place) "
                  "and how many tokens back the deciding mention is {about}`method`.")
    parts = [f'<div class="story-sample"><p class="story-label">Validation story {i + 1}</p>{marked_story(i)}</div>'
             for i in SHOWN_STORIES]
    return HTML(f'<p class="story-legend">{html.escape(legend)}</p>' + "".join(parts))


def corpus_facts() -> dict[str, int | float | str]:
    data = story_corpus()
    train_tokens = sum(len(s.tokens) for s in data.train)
    return {"n_train": len(data.train), "n_val": len(data.val), "train_tokens": train_tokens,
            "tokens_per_story": train_tokens / len(data.train), "vocab_size": len(data.vocab),
            "val_tokens": sum(len(s.tokens) for s in data.val),
            "story_file": "" if data.generated else Path(data.source).name}


def kinds_table() -> HTML:
    """Each probe kind: how many words it has, chance, and how many validation probes there are."""
    counts, chance = probe_counts(), chances()
    rows = [(k, len(KINDS[k]), chance[k], counts[k], ", ".join(KINDS[k][:4]) + ", …") for k in KIND_NAMES]
    return HTML(rows_html(["kind", "words", "chance (1 / words)", "validation probes", "for example"], rows,
                          caption="The four probe kinds", decimals=3))


def distance_table() -> HTML:
    """Validation probes by kind and by distance back to the deciding mention."""
    ps = probes()
    rows = []
    for k, kind in enumerate(KIND_NAMES):
        of_kind = ps.kind == k
        rows.append((kind, *[int((of_kind & (ps.distance >= lo) & (ps.distance <= hi)).sum()) for lo, hi in BUCKETS]))
    return HTML(rows_html(["kind"] + [f"{bucket_label(b)} back" for b in BUCKETS], rows,
                          caption="Validation probes by distance (tokens back to the deciding mention)"))


def top1_table() -> HTML:
    """At name probes: the four-head model's single top word against the name it ranks first among names."""
    t = top1_at_names(FOUR_HEAD)
    rows = [(what, shown(t[key], ".1%")) for what, key in  # per cent, as the prose cites them
            [("top-1 word is the right name", "top1"), ("top-1 word is a pronoun", "pronoun"),
             ("right name ranked first among the names", "within_kind")]]
    return HTML(rows_html(["at name probes, four-head model", "share"], rows, decimals=3,
                          caption="Why plain top-1 accuracy misleads"))
