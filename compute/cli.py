"""Command line: train the walkthrough model, search seeds, check the published claims."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import claims, walkthrough
from .checkpoint import CheckpointError, checkpoint_dir, load_checkpoint, save_checkpoint
from .model import DecoderConfig
from .train import Recipe, train, validate_seed

SEED_RECORD = "walkthrough-seeds.json"


def seed_range(text: str) -> range:
    """'0-199' -> range(0, 200); one sentence of error otherwise."""
    try:
        lo, hi = (int(p) for p in text.split("-"))
        validate_seed(lo), validate_seed(hi)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed range must look like 0-199, got {text!r}") from None
    if hi < lo:
        raise argparse.ArgumentTypeError(f"seed range {text!r} ends before it starts")
    return range(lo, hi + 1)


def seed_value(text: str) -> int:
    try:
        return validate_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number from 0 to 2**63-1, got {text!r}") from None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m compute", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train a model and write its checkpoint")
    t.add_argument("model", choices=["walkthrough"])
    which = t.add_mutually_exclusive_group(required=True)
    which.add_argument("--seed", type=seed_value, help="train this seed")
    which.add_argument("--search-seeds", type=seed_range, metavar="A-B",
                       help="train every seed in A..B, record their patterns, publish the first that passes every claim")
    t.add_argument("--steps", type=int, default=Recipe.steps, help="Adam steps (default %(default)s)")
    t.add_argument("--workers", type=int, default=2, help="processes for --search-seeds (default %(default)s)")
    t.add_argument("--out", type=Path, default=None, help="folder for the checkpoint (default: the published one)")
    t.add_argument("--force", action="store_true", help="write the checkpoint even if a claim fails")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    c = sub.add_parser("check", help="check every claim: the published checkpoint's and the hand-set model's")
    c.add_argument("--name", default=walkthrough.NAME, help="checkpoint name (default %(default)s)")
    return p


def write_trained(seed: int, recipe: Recipe, out: Path, name: str, progress: bool) -> Path:
    result = train(seed, recipe, progress=progress)
    return save_checkpoint(out / f"{name}.safetensors", result.weights, result.manifest(DecoderConfig()))


def train_one(args, recipe: Recipe) -> int:
    out = args.out or checkpoint_dir()
    result = train(args.seed, recipe, progress=not args.quiet)
    wt = walkthrough.from_weights(result.weights)
    results = claims.check_all(wt)
    print(f"seed {args.seed}: final loss {result.final_loss:.6f} after {recipe.steps} steps")
    print(claims.claims_table(results))
    broken = [c.name for c, o in results if not o.holds]
    if broken and not args.force:
        print(f"error: seed {args.seed} breaks the claims {', '.join(broken)}; nothing written "
              f"(try --search-seeds, or --force to write it anyway)", file=sys.stderr)
        return 1
    path = save_checkpoint(out / f"{walkthrough.NAME}.safetensors", result.weights, result.manifest(DecoderConfig()))
    print(f"wrote {path} and {path.with_suffix('.json').name}")
    return 0


def train_search(args, recipe: Recipe) -> int:
    from . import seedsearch
    out = args.out or checkpoint_dir()
    entries = seedsearch.search(args.search_seeds, recipe, workers=args.workers, progress=not args.quiet)
    rec = seedsearch.record(entries, recipe)
    print(f"{rec['n_converged']} of {rec['n_seeds']} seeds converged; patterns among them:")
    for label, n in rec["patterns_among_converged"].items():
        print(f"  {n:4d}  {label}")
    out.mkdir(parents=True, exist_ok=True)
    (out / SEED_RECORD).write_text(json.dumps(rec, indent=1) + "\n")
    print(f"wrote {out / SEED_RECORD}")
    if rec["published_seed"] is None:
        print("error: no seed in the range satisfies every claim; nothing published", file=sys.stderr)
        return 1
    progress = not args.quiet
    path = write_trained(rec["published_seed"], recipe, out, walkthrough.NAME, progress)
    print(f"published seed {rec['published_seed']}: {path}")
    if rec["alternative_seed"] is not None:
        alt = write_trained(rec["alternative_seed"], recipe, out, walkthrough.ALTERNATIVE, progress)
        print(f"alternative seed {rec['alternative_seed']}: {alt}")
    return 0


def check(args) -> int:
    from .checkpoint import checkpoint_path
    path = checkpoint_path(args.name)
    weights, manifest = load_checkpoint(path)
    results = claims.check_all(walkthrough.from_weights(weights, manifest))
    print(f"{path} (seed {manifest['seed']}, final loss {manifest['final_loss']:.6f})")
    print(claims.claims_table(results))
    broken = [c.name for c, o in results if not o.holds]
    if broken:
        print(f"error: {path}: claims fail: {', '.join(broken)}", file=sys.stderr)
        return 1
    from .byhand import claims as byhand_claims
    print("\nthe hand-set attention-by-hand model (compute/byhand)")
    hand = byhand_claims.check_all()
    print(claims.claims_table(hand))
    broken = [c.name for c, o in hand if not o.holds]
    if broken:
        print(f"error: compute/byhand: claims fail: {', '.join(broken)}", file=sys.stderr)
        return 1
    from .checks import preflight
    preflight()  # the alternative checkpoint and the seed-search record too
    print("\nthe alternative checkpoint and the seed-search record agree with the published one")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "check":
            return check(args)
        if args.steps < 1:
            parser().error(f"--steps must be at least 1, got {args.steps}")
        recipe = Recipe(steps=args.steps)
        return train_search(args, recipe) if args.search_seeds else train_one(args, recipe)
    except (CheckpointError, claims.ClaimError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
