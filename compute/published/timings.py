"""The stored timings Part 2B plots: read like a checkpoint, checked on load, one sentence when malformed."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..costs import MIXERS
from ..models.story import preset
from .story import MLP, MODELS, NAMES
from ..store import CheckpointError, checkpoint_dir, read_bytes

TIMINGS = "context-timings.json"
RECOMPUTE = "context-recompute-timings.json"        # attention's new token three ways, timed on its own
SCHEMA = "context-timings/2"
LENGTHS = (16, 32, 64, 128, 256, 512, 1024, 2048)
CONCAT_MAX = 1024                                    # beyond, the concatenated windows (T^2 d numbers) take gigabytes
STORY = tuple(NAMES[k] for k in MODELS)              # the story models timed beside the mixers
VARIANTS = ("average, matrix kept", "average, running sum")   # averaging's forward pass, timed two other ways
CHECKPOINT_FILES = (TIMINGS, RECOMPUTE)
MACHINE_FIELDS = ("cpu", "instruction_set", "threads", "torch", "date")
MEASURES = ("forward", "token cached", "token uncached")
NEW_TOKEN = ("token uncached", "token recomputed", "token cached")   # what RECOMPUTE holds, for attention
MEMORY = ("faults", "largest_bytes", "allocated_bytes", "peak_bytes")
FIELDS = {"model", "measure", "T", "seconds", *MEMORY}


@dataclass(frozen=True)
class Timings:
    d: int
    repeats: int
    measured_on: dict
    rows: tuple[dict, ...]

    def series(self, model: str, measure: str, field: str = "seconds") -> tuple[list[int], list[float]]:
        """(T values, seconds) of one model and measure, by increasing T; or another field of the records
        (faults: page faults per timed call; largest_bytes, allocated_bytes, peak_bytes: what one call allocates)."""
        pairs = sorted((r["T"], r[field]) for r in self.rows if r["model"] == model and r["measure"] == measure)
        return [t for t, _ in pairs], [s for _, s in pairs]

    def at(self, model: str, measure: str, T: int, field: str = "seconds") -> float:
        """One field of the record of (model, measure) at context T."""
        lengths, values = self.series(model, measure, field)
        return values[lengths.index(T)]


def validate(data: object, path: Path) -> Timings:
    """The file's contents as Timings, or CheckpointError naming the file and the first problem."""
    def fail(problem: str):
        raise CheckpointError(f"{path}: timings file {problem}")

    if not isinstance(data, dict):
        fail("is not a JSON object")
    if data.get("schema") != SCHEMA:
        fail(f"has schema {data.get('schema')!r}, expected {SCHEMA!r}")
    if data.get("units") != "seconds":
        fail(f"gives times in {data.get('units')!r}, expected 'seconds'")
    for key in ("d", "repeats"):
        v = data.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            fail(f"has {key} = {v!r}, expected a whole number above 0")
    machine = data.get("measured_on")
    if not isinstance(machine, dict) or any(k not in machine for k in MACHINE_FIELDS):
        fail(f"lacks where it was measured (fields {', '.join(MACHINE_FIELDS)})")
    rows = data.get("results")
    if not isinstance(rows, list) or not rows:
        fail("holds no results")
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or set(r) != FIELDS:
            fail(f"result {i} is not a {{{', '.join(sorted(FIELDS))}}} record")
        if r["measure"] not in (*MEASURES, *NEW_TOKEN) or not isinstance(r["T"], int) or r["T"] < 1:
            fail(f"result {i} has measure {r['measure']!r} at T = {r['T']!r}")
        s = r["seconds"]
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s <= 0:
            fail(f"result {i} ({r['model']}, {r['measure']}, T = {r['T']}) has time {s!r}")
        for key in MEMORY:
            v = r[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                fail(f"result {i} ({r['model']}, {r['measure']}, T = {r['T']}) has {key} = {v!r}")
    return Timings(data["d"], data["repeats"], machine, tuple(rows))


def needed() -> list[tuple[str, str, tuple[int, ...]]]:
    """(model, measure, lengths) the lesson plots and states: the three mixers at every length (concatenation up
    to CONCAT_MAX), averaging's two other forward passes at every length, and each story model from the first
    length up to its context."""
    want = []
    for m in MIXERS:
        lengths = tuple(t for t in LENGTHS if m != "concatenate" or t <= CONCAT_MAX)
        want += [(m, measure, lengths) for measure in MEASURES if (m, measure) != ("concatenate", "token cached")]
    want += [(v, "forward", LENGTHS) for v in VARIANTS]
    for name in STORY:
        lengths = tuple(t for t in LENGTHS if t <= story_context(name))
        want += [(name, measure, lengths) for measure in MEASURES if (name, measure) != (MLP, "token cached")]
    return want


def story_context(name: str) -> int:
    """The context of a story model of the comparison (story-mlp, ...): the longest T its timings reach."""
    return preset(next(k for k in MODELS if NAMES[k] == name), vocab_size=2).context


def recompute_needed() -> list[tuple[str, str, tuple[int, ...]]]:
    """What the recompute file must hold: attention's new token three ways at every length."""
    return [("attend", measure, LENGTHS) for measure in NEW_TOKEN]


NEEDS = {TIMINGS: (needed, "context"), RECOMPUTE: (recompute_needed, "recompute")}


def require_coverage(t: Timings, path: Path) -> Timings:
    """CheckpointError naming the first series the lesson needs that the file lacks (a --quick file, say)."""
    wanted, command = NEEDS.get(path.name, NEEDS[TIMINGS])
    for model, measure, lengths in wanted():
        missing = sorted(set(lengths) - set(t.series(model, measure)[0]))
        if missing:
            raise CheckpointError(f"{path}: timings file has no {measure} time of {model} at T = "
                                  f"{', '.join(map(str, missing))} "
                                  f"(measure again with python -m compute bench {command})")
    return t


@lru_cache(maxsize=4)
def _load(path: Path) -> Timings:
    blob = read_bytes(path, "timings file")
    try:
        data = json.loads(blob)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise CheckpointError(f"{path}: timings file is not valid JSON ({err})") from None
    return require_coverage(validate(data, path), path)


def timings() -> Timings:
    """The stored measurements (python -m compute bench context), checked."""
    return _load(checkpoint_dir() / TIMINGS)


def recompute_timings() -> Timings:
    """Attention's new token with the cache, recomputing only what it needs, and reading everything again
    (python -m compute bench recompute), checked."""
    return _load(checkpoint_dir() / RECOMPUTE)
