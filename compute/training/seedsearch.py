"""Train a range of seeds, record which attention pattern each found, pick the published one."""
from __future__ import annotations

import multiprocessing as mp
import signal
from collections import Counter
from dataclasses import asdict

import numpy as np

from typing import Callable

from .. import progress
from ..data.walkthrough import CUE_ANSWERS, answer_rows
from ..models.walkthrough import CONFIG
from ..published.walkthrough import Walkthrough, from_weights
from .walkthrough import Recipe, train

CONVERGED = ("determined_words_are_certain", "loss_near_floor")

# The checks a seed must pass, given by the caller (the walkthrough lesson's claims, which sit above training):
# a function of the trained Walkthrough giving (claim, outcome) pairs, each with .name and .holds.
Judge = Callable[[Walkthrough], list]


def summarize_seed(seed: int, recipe: Recipe, judge: Judge, page_judge: Judge | None = None) -> dict:
    """Train one seed and describe what it learned: loss, convergence, where the answer rows look, the selection
    claims it fails (`judge`) and, with `page_judge`, the page's claims about a model that it fails."""
    result = train(seed, recipe)
    wt = from_weights(result.weights, result.manifest(CONFIG))
    outcomes = {c.name: o.holds for c, o in judge(wt)}
    rows = {}
    for row in answer_rows():
        a = wt["A"][row]
        top = int(np.argmax(a))
        rows[str(row)] = {"position": top, "word": wt.tokens[top], "weight": float(a[top])}
    entry = {
        "seed": seed,
        "final_loss": result.final_loss,
        "converged": all(outcomes[n] for n in CONVERGED),
        "rows": rows,
        "failed_claims": [n for n, ok in outcomes.items() if not ok],
    }
    if page_judge is not None:
        entry["failed_page_claims"] = [c.name for c, o in page_judge(wt) if not o.holds]
    return entry


def passes(entry: dict) -> bool:
    """Whether a seed passed every claim it was checked on (selection, and the page's where recorded)."""
    return not entry["failed_claims"] and not entry.get("failed_page_claims")


def pattern(entry: dict) -> str:
    """A short label for where the answer rows (5 and 13) put their largest weight."""
    r = entry["rows"]
    return ", ".join(f"{row}→{r[str(row)]['word']}@{r[str(row)]['position']}" for row in answer_rows())


def _summarize(args):
    return summarize_seed(*args)


def _pool(workers: int):
    """Worker processes that ignore Ctrl-C from their first instruction (an ignored signal stays ignored in a
    child): it reaches the whole process group, and the command says it once and ends the pool, rather than
    each worker printing its own traceback."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return mp.get_context("spawn").Pool(workers)
    finally:
        signal.signal(signal.SIGINT, previous)


def search(seeds: range, judge: Judge, recipe: Recipe = Recipe(), workers: int = 2,
           page_judge: Judge | None = None) -> list[dict]:
    """Summaries of every seed in the range (each trained on one thread); `judge` and `page_judge` are module-level
    functions (the worker processes import them by name). Each seed is an item of the command's stage
    (compute.progress)."""
    jobs = [(s, recipe, judge, page_judge) for s in seeds]
    progress.expect(len(jobs))
    entries = []
    with _pool(workers) as pool:
        for entry in pool.imap(_summarize, jobs):
            entries.append(entry)
            progress.advance(f"seed {entry['seed']}")
    return entries


def chosen_seeds(entries: list[dict], dominant: float) -> tuple[int | None, int | None]:
    """The published seed (first to pass every claim it was checked on) and the alternative shown beside it: the
    first converged seed whose last answer row (13) puts over `dominant` (the lesson's 0.9) on a word other than
    its cue ('fall')."""
    row, cue = str(answer_rows()[-1]), CUE_ANSWERS[-1][0]
    published = next((e["seed"] for e in entries if passes(e)), None)
    alternative = next((e["seed"] for e in entries if e["converged"]
                        and e["rows"][row]["word"] != cue
                        and e["rows"][row]["weight"] > dominant), None)
    return published, alternative


def record(entries: list[dict], recipe: Recipe, dominant: float) -> dict:
    """The seed-search record stored beside the checkpoints."""
    published, alternative = chosen_seeds(entries, dominant)
    converged = [e for e in entries if e["converged"]]
    return {
        "recipe": asdict(recipe),
        "seeds": [entries[0]["seed"], entries[-1]["seed"]] if entries else [],
        "published_seed": published,
        "alternative_seed": alternative,
        "n_seeds": len(entries),
        "n_converged": len(converged),
        "patterns_among_converged": dict(Counter(pattern(e) for e in converged).most_common()),
        "entries": entries,
    }
