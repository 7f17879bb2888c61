"""Everything the build checks before it runs a lesson: checkpoints, seed record, both lessons' claims."""
from __future__ import annotations

import json

from . import claims
from .checkpoint import CheckpointError, checkpoint_dir, checkpoint_path
from .walkthrough import ALTERNATIVE, NAME, load
from .walkthrough_lesson import SEED_RECORD


def check_seed_record(published_seed: int, alternative_seed: int) -> None:
    """The seed-search record exists, parses, and names the stored checkpoints' seeds."""
    path = checkpoint_dir() / SEED_RECORD
    if not path.is_file():
        raise CheckpointError(f"{path}: seed-search record not found (run python -m compute train walkthrough --search-seeds 0-199)")
    try:
        record = json.loads(path.read_text())
        recorded = (record["published_seed"], record["alternative_seed"])
        record["entries"][0]["rows"]
    except (json.JSONDecodeError, KeyError, IndexError, TypeError) as err:
        raise CheckpointError(f"{path}: seed-search record is unreadable ({type(err).__name__}: {err})") from None
    if recorded != (published_seed, alternative_seed):
        raise CheckpointError(f"{path}: seed-search record names seeds {recorded}, "
                              f"but the checkpoints hold seeds {(published_seed, alternative_seed)}")


def preflight() -> None:
    """Raise CheckpointError or ClaimError (one line each) unless the lessons can be built."""
    wt = load(NAME)
    claims.require_all(wt, str(checkpoint_path(NAME)))
    alt = load(ALTERNATIVE)
    check_seed_record(int(wt.manifest["seed"]), int(alt.manifest["seed"]))
    from .byhand import claims as byhand_claims
    byhand_claims.require_all()
