"""`python -m compute bench context` (and `bench recompute`): time the mixers and story models over a range of T.

For each (model, measure, T): warm-up runs, then `repeats` timed runs, the
median kept. Measures: `forward` (mix a whole sequence of T tokens), `token
cached` and `token uncached` (the context of token T with and without keeping
what earlier tokens gave: the KV cache, a running sum). One thread, batch 1,
no gradients. `bench recompute` times attention's new token a third way, with
nothing kept but only what it needs recomputed (every key and value, its own
query), beside the other two, into a file of its own. Averaging's forward pass is also timed two other ways
(VARIANTS): with its T x T matrix built once and kept, and as a running sum.

Each record also says what the timed call did with memory: the page faults per
timed call (fresh pages the operating system had to map in: memory the
allocator gave back and asked for again), and, as torch's profiler reports
them for one more call, its largest single allocation, the bytes it allocates
in all and the most it holds at once. The machine record adds the size of the
processor's last-level cache. The results go to a JSON file with where and
when they were measured; the Part 2B lesson reads that file and never times
anything itself.
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import torch

from .. import progress
from ..nn.mixers import AttentionMixer, AverageMixer, ConcatMixer
from ..published.story import load_published
from ..published.timings import CONCAT_MAX, LENGTHS, SCHEMA, STORY, VARIANTS
from ..training.machine import machine_record

D = 64                                               # the mixers' width (the story models' one-head width)


def median_seconds(fn, repeats: int, warmup: int = 2) -> tuple[float, float]:
    """The median seconds of `repeats` timed calls after `warmup` untimed ones, and the page faults per timed call
    (minor faults: pages the operating system maps in fresh, zeroed, on first touch)."""
    for _ in range(warmup):
        fn()
    times = []
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    return statistics.median(times), faults / repeats


@contextmanager
def _quiet_stderr():
    """The profiler writes a start and a stop line to the process's stderr; keep them off the terminal."""
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def allocations(fn) -> list[int]:
    """Every allocation (bytes, positive) and every release (negative) torch makes during one call of fn, in order."""
    from torch.profiler import ProfilerActivity, profile
    with _quiet_stderr(), profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    return [e.nbytes() for e in prof.profiler.kineto_results.events() if e.name() == "[memory]"]


def memory(fn) -> dict[str, int]:
    """What one call of fn allocates: its largest block, all its blocks together, and the most it holds at once."""
    events = allocations(fn)
    held, peak = 0, 0
    for n in events:
        held += n
        peak = max(peak, held)
    return {"largest_bytes": max((n for n in events if n > 0), default=0),
            "allocated_bytes": sum(n for n in events if n > 0), "peak_bytes": peak}


def record(model: str, measure: str, T: int, fn, repeats: int) -> dict:
    """One timed record: the median seconds, page faults per call, and what one call allocates."""
    seconds, faults = median_seconds(fn, repeats)
    return {"model": model, "measure": measure, "T": T, "seconds": seconds, "faults": faults, **memory(fn)}


def last_level_cache() -> int | None:
    """The size in bytes of the processor's largest cache, as Linux reports it (None where it does not)."""
    sizes = {}
    for index in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            level, size = int((index / "level").read_text()), (index / "size").read_text().strip()
        except (OSError, ValueError):
            continue
        unit = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}.get(size[-1:], 1)
        sizes[level] = int(size.rstrip("KMG")) * unit
    return sizes[max(sizes)] if sizes else None


def mixer_rows(T: int, repeats: int) -> list[dict]:
    """Forward and per-token times of the three mixers at context T, width D, then averaging's variants."""
    torch.manual_seed(0)
    X = torch.randn(1, T, D)
    rows = []
    mixers = {"average": AverageMixer(D), "attend": AttentionMixer(D, T)}
    if T <= CONCAT_MAX:
        mixers["concatenate"] = ConcatMixer(D, T)
    for name, m in mixers.items():
        rows.append(record(name, "forward", T, lambda: m(X), repeats))
        rows.append(record(name, "token uncached", T, lambda: m.next_context(X), repeats))
        if name == "attend":
            def cached():
                cache = m.new_cache(1)                 # allocated on every call (`bench recompute` keeps it)
                cache.length = T - 1                   # the cache holds the T - 1 tokens before (their values do
                return m.next_context(X, cache)        # not change the work of the new token)
            rows.append(record(name, "token cached", T, cached, repeats))
        elif name == "average":
            state = (X[:, :-1].sum(1, keepdim=True), T - 1)
            rows.append(record(name, "token cached", T, lambda: m.next_context(X, state), repeats))
    average, means = mixers["average"], AverageMixer.matrix(T, X.dtype)
    rows.append(record(VARIANTS[0], "forward", T, lambda: average(X, means), repeats))
    rows.append(record(VARIANTS[1], "forward", T, lambda: average.running_mean(X), repeats))
    return rows


def story_rows(T: int, repeats: int) -> list[dict]:
    """Per-token and forward times of the published story models at context T (at most their context)."""
    rows = []
    ids = torch.randint(2, 300, (1, T), generator=torch.Generator().manual_seed(T))
    for name in STORY:
        model = load_published(name).model
        if T > model.cfg.context:
            continue
        rows.append(record(name, "forward", T, lambda: model(ids), repeats))
        rows.append(record(name, "token uncached", T, lambda: model.next_logits(ids), repeats))  # the MLP: its window
        if hasattr(model, "new_caches"):
            caches = model.new_caches(1)
            model.step(ids[:, :-1], caches)
            def cached():
                for c in caches:
                    c.length = T - 1                   # forget the token the last run appended
                return model.step(ids[:, -1:], caches)
            rows.append(record(name, "token cached", T, cached, repeats))
    return rows


def recompute_rows(T: int, repeats: int) -> list[dict]:
    """A new attention token at context T three ways: reading everything again, recomputing only what it needs
    (every key and value, its own query), and from the KV cache."""
    torch.manual_seed(0)
    X, m = torch.randn(1, T, D), AttentionMixer(D, T)
    cache = m.new_cache(1)                             # allocated once, as generation keeps it between tokens

    def cached():
        cache.length = T - 1                           # the T - 1 tokens before; the call appends the new one
        return m.next_context(X, cache)
    return [record("attend", "token uncached", T, lambda: m.next_context(X), repeats),
            record("attend", "token recomputed", T, lambda: m.recomputed_context(X), repeats),
            record("attend", "token cached", T, cached, repeats)]


def where(**extra) -> dict:
    """The machine record a timings file carries, with its date."""
    return {**machine_record(1), "last_level_cache_bytes": last_level_cache(),
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"), **extra}


@torch.no_grad()
def measure_recompute(lengths=LENGTHS, repeats: int = 7) -> dict:
    """`python -m compute bench recompute`: attention's new token three ways, at every length (each an item of
    the command's stage, compute.progress)."""
    torch.set_num_threads(1)
    rows = []
    progress.expect(len(lengths))
    for T in lengths:
        rows += recompute_rows(T, repeats)
        progress.advance(f"T = {T}: {len(rows)} timings")
    return {"schema": SCHEMA, "units": "seconds", "d": D, "repeats": repeats, "threads": 1,
            "measured_on": where(), "results": rows}


@torch.no_grad()
def measure(lengths=LENGTHS, repeats: int = 7, story: bool = True) -> dict:
    torch.set_num_threads(1)
    rows = []
    progress.expect(len(lengths))
    for T in lengths:
        rows += mixer_rows(T, repeats)
        if story:
            rows += story_rows(T, repeats)
        progress.advance(f"T = {T}: {len(rows)} timings")
    return {"schema": SCHEMA, "units": "seconds", "d": D, "repeats": repeats, "threads": 1,
            "measured_on": where(), "results": rows}


def write(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path
