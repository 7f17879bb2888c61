"""`python -m compute bench context`: time the three mixers and the story models over a range of T.

For each (model, measure, T): warm-up runs, then `repeats` timed runs, the
median kept. Measures: `forward` (mix a whole sequence of T tokens), `token
cached` and `token uncached` (the context of token T with and without keeping
what earlier tokens gave: the KV cache, a running sum). One thread, batch 1,
no gradients. The results go to a JSON file with where and when they were
measured; the Part 2B lesson reads that file and never times anything itself.
"""
from __future__ import annotations

import json
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path

import torch

from ..nn.mixers import AttentionMixer, AverageMixer, ConcatMixer
from ..training.machine import machine_record

SCHEMA = "context-timings/1"
D = 64                                               # the mixers' width (the story models' one-head width)
LENGTHS = (16, 32, 64, 128, 256, 512, 1024, 2048)
CONCAT_MAX = 1024                                    # beyond, the concatenated windows (T^2 d numbers) take gigabytes
STORY = ("story-mlp", "story-one-head", "story-four-head")


def median_seconds(fn, repeats: int, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def mixer_rows(T: int, repeats: int) -> list[dict]:
    """Forward and per-token times of the three mixers at context T, width D."""
    torch.manual_seed(0)
    X = torch.randn(1, T, D)
    rows = []
    mixers = {"average": AverageMixer(D), "attend": AttentionMixer(D, T)}
    if T <= CONCAT_MAX:
        mixers["concatenate"] = ConcatMixer(D, T)
    for name, m in mixers.items():
        rows.append({"model": name, "measure": "forward", "T": T, "seconds": median_seconds(lambda: m(X), repeats)})
        rows.append({"model": name, "measure": "token uncached", "T": T,
                     "seconds": median_seconds(lambda: m.next_context(X), repeats)})
        if name == "attend":
            def cached():
                cache = m.new_cache(1)
                cache.length = T - 1                   # the cache holds the T - 1 tokens before (their values do
                return m.next_context(X, cache)        # not change the work of the new token)
            rows.append({"model": name, "measure": "token cached", "T": T, "seconds": median_seconds(cached, repeats)})
        elif name == "average":
            state = (X[:, :-1].sum(1, keepdim=True), T - 1)
            rows.append({"model": name, "measure": "token cached", "T": T,
                         "seconds": median_seconds(lambda: m.next_context(X, state), repeats)})
    return rows


def story_rows(T: int, repeats: int) -> list[dict]:
    """Per-token and forward times of the published story models at context T (at most their context)."""
    from ..lessons.story.published import load
    rows = []
    ids = torch.randint(2, 300, (1, T), generator=torch.Generator().manual_seed(T))
    for name in STORY:
        model = load(name).model
        if T > model.cfg.context:
            continue
        rows.append({"model": name, "measure": "forward", "T": T,
                     "seconds": median_seconds(lambda: model(ids), repeats)})
        if hasattr(model, "new_caches"):
            rows.append({"model": name, "measure": "token uncached", "T": T,
                         "seconds": median_seconds(lambda: model(ids)[:, -1], repeats)})
        else:                                          # the MLP reads only its window, whatever T is
            window = ids[:, -model.cfg.window:]
            rows.append({"model": name, "measure": "token uncached", "T": T,
                         "seconds": median_seconds(lambda: model(window)[:, -1], repeats)})
        if hasattr(model, "new_caches"):
            caches = model.new_caches(1)
            model.step(ids[:, :-1], caches)
            def cached():
                for c in caches:
                    c.length = T - 1                   # forget the token the last run appended
                return model.step(ids[:, -1:], caches)
            rows.append({"model": name, "measure": "token cached", "T": T, "seconds": median_seconds(cached, repeats)})
    return rows


@torch.no_grad()
def measure(lengths=LENGTHS, repeats: int = 7, story: bool = True, progress=print) -> dict:
    torch.set_num_threads(1)
    rows = []
    for T in lengths:
        rows += mixer_rows(T, repeats)
        if story:
            rows += story_rows(T, repeats)
        progress(f"T = {T}: {len(rows)} timings")
    return {"schema": SCHEMA, "units": "seconds", "d": D, "repeats": repeats, "threads": 1,
            "measured_on": {**machine_record(1), "date": datetime.now(timezone.utc).strftime("%Y-%m-%d")},
            "results": rows}


def write(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path
