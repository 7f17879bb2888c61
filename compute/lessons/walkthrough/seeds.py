"""The seed-search record stored beside the checkpoints: what every seed of the search learned."""
from __future__ import annotations

import json
from functools import lru_cache

from ...data.walkthrough import answer_rows
from ...published.walkthrough import SEED_RECORD
from ...store import CheckpointError, checkpoint_dir, read_bytes


@lru_cache(maxsize=1)
def seed_record() -> dict:
    return json.loads((checkpoint_dir() / SEED_RECORD).read_text())


def pattern_counts(record: dict) -> dict[str, int]:
    """Converged seeds grouped by the words the answer rows (5 and 13) attend to most."""
    counts: dict[str, int] = {}
    for e in record["entries"]:
        if e["converged"]:
            key = ", ".join(f"{row} → {e['rows'][str(row)]['word']}" for row in answer_rows())
            counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def check_seed_record(published_seed: int, alternative_seed: int) -> None:
    """The seed-search record exists, parses, and names the stored checkpoints' seeds."""
    path = checkpoint_dir() / SEED_RECORD
    if not path.exists():
        raise CheckpointError(f"{path}: seed-search record not found "
                              f"(run python -m compute train walkthrough --search-seeds 0-199)")
    blob = read_bytes(path, "seed-search record")
    try:
        record = json.loads(blob)
        recorded = (record["published_seed"], record["alternative_seed"])
        record["entries"][0]["rows"]
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, IndexError, TypeError) as err:
        raise CheckpointError(f"{path}: seed-search record is unreadable ({type(err).__name__}: {err})") from None
    if recorded != (published_seed, alternative_seed):
        raise CheckpointError(f"{path}: seed-search record names seeds {recorded}, "
                              f"but the checkpoints hold seeds {(published_seed, alternative_seed)}")
