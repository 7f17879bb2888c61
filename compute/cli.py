"""Command line: train the walkthrough and story models, search seeds, check every lesson's claims, export."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .checks import lesson_names
from .claims import ClaimError, claims_table
from .data.tinystories import DataError
from .lessons.walkthrough.seeds import SEED_RECORD
from .store import CheckpointError, checkpoint_dir, save_checkpoint
from .training.walkthrough import Recipe, train, validate_seed

STORY_MODELS = ("mlp", "one-head", "four-head")


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


def lesson_name(text: str) -> str:
    """One of compute's lesson packages; one sentence of error otherwise."""
    if text not in lesson_names():
        raise argparse.ArgumentTypeError(f"no lesson called {text!r} (there are {', '.join(lesson_names())})")
    return text


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m compute", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    train = sub.add_parser("train", help="train a model and write its checkpoint")
    which = train.add_subparsers(dest="what", required=True)
    t = which.add_parser("walkthrough", help="the one-head walkthrough decoder on eight sentences")
    seed = t.add_mutually_exclusive_group(required=True)
    seed.add_argument("--seed", type=seed_value, help="train this seed")
    seed.add_argument("--search-seeds", type=seed_range, metavar="A-B",
                      help="train every seed in A..B, record their patterns, publish the first that passes every claim")
    t.add_argument("--steps", type=int, default=Recipe.steps, help="Adam steps (default %(default)s)")
    t.add_argument("--workers", type=int, default=2, help="processes for --search-seeds (default %(default)s)")
    t.add_argument("--force", action="store_true", help="write the checkpoint even if a claim fails")
    s = which.add_parser("story", help="a Part III story model on the generated stories (or a TinyStories file)")
    s.add_argument("--model", required=True, choices=STORY_MODELS, help="which of the three models")
    s.add_argument("--seed", type=seed_value, default=0, help="initialisation and batch order (default %(default)s)")
    s.add_argument("--data", type=Path, default=None,
                   help="train on a TinyStories-format text file instead of the generated stories")
    budget = s.add_mutually_exclusive_group()
    budget.add_argument("--tokens", type=positive, default=None,
                        help="token budget (default: the recipe's; with --data at most 10 passes over the file)")
    budget.add_argument("--passes", type=positive_number, default=None, metavar="P",
                        help="token budget as P passes over the training text (0.5, 3, ...)")
    s.add_argument("--keep", choices=["best", "last"], default=None,
                   help="keep the weights with the lowest validation loss or the last ones "
                        "(default: best with --data, last on the generated stories)")
    s.add_argument("--name", default=None, help="checkpoint name (default story-<model>)")
    t.add_argument("--out", type=Path, default=None, help="folder for the checkpoint (default: the published one)")
    s.add_argument("--out", type=Path, default=None,
                   help="folder for the checkpoint (default: the published one; required with --data)")
    for cmd in (t, s):
        cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    c = sub.add_parser("check", help="check every lesson's claims and checkpoints")
    c.add_argument("lessons", nargs="*", metavar="LESSON", type=lesson_name,
                   help=f"only these lessons ({', '.join(lesson_names())}; default: all)")
    b = sub.add_parser("bench", help="time what a lesson shows and store the measurements")
    b.add_argument("what", choices=["context"])
    b.add_argument("--quick", action="store_true", help="two short lengths, one repeat (for tests)")
    b.add_argument("--repeats", type=positive, default=7, help="timed runs per measurement (default %(default)s)")
    b.add_argument("--out", type=Path, default=None, help="file (default: the published one, in the checkpoint folder)")
    e = sub.add_parser("export", help="write a published model for the page's JavaScript")
    e.add_argument("model", choices=["story"])
    e.add_argument("--out", type=Path, default=Path("_build/export"), help="folder (default %(default)s)")
    return p


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0, got {text!r}")
    return value


def positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {text!r}")
    return value


def write_trained(seed: int, recipe: Recipe, out: Path, name: str, progress: bool) -> Path:
    from .models.walkthrough import DecoderConfig
    result = train(seed, recipe, progress=progress)
    return save_checkpoint(out / f"{name}.safetensors", result.weights, result.manifest(DecoderConfig()))


def train_one(args, recipe: Recipe) -> int:
    from .lessons.walkthrough import claims, published
    from .models.walkthrough import DecoderConfig
    out = args.out or checkpoint_dir()
    result = train(args.seed, recipe, progress=not args.quiet)
    results = claims.check_all(published.from_weights(result.weights))
    print(f"seed {args.seed}: final loss {result.final_loss:.6f} after {recipe.steps} steps")
    print(claims_table(results))
    broken = [c.name for c, o in results if not o.holds]
    if broken and not args.force:
        print(f"error: seed {args.seed} breaks the claims {', '.join(broken)}; nothing written "
              f"(try --search-seeds, or --force to write it anyway)", file=sys.stderr)
        return 1
    path = save_checkpoint(out / f"{published.NAME}.safetensors", result.weights, result.manifest(DecoderConfig()))
    print(f"wrote {path} and {path.with_suffix('.json').name}")
    return 0


def train_search(args, recipe: Recipe) -> int:
    from .lessons.walkthrough.published import ALTERNATIVE, NAME
    from .training import seedsearch
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
    path = write_trained(rec["published_seed"], recipe, out, NAME, progress)
    print(f"published seed {rec['published_seed']}: {path}")
    if rec["alternative_seed"] is not None:
        alt = write_trained(rec["alternative_seed"], recipe, out, ALTERNATIVE, progress)
        print(f"alternative seed {rec['alternative_seed']}: {alt}")
    return 0


def check(args) -> int:
    from .checks import claim_results, preflight
    preflight(args.lessons)  # every checkpoint and record loads and fits first: one line for the first that does not
    failed = []
    for heading, results in claim_results(args.lessons):
        print(f"{heading}\n{claims_table(results)}\n")
        broken = [c.name for c, o in results if not o.holds]
        if broken:
            failed.append(f"{heading}: claims fail: {', '.join(broken)}")
    if failed:
        print("error: " + "; ".join(failed), file=sys.stderr)
        return 1
    print(f"{'every lesson' if not args.lessons else ', '.join(args.lessons)}: the claims hold, "
          "and the checkpoints and records agree")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "check":
            return check(args)
        if args.command == "bench":
            from .lessons.context.published import TIMINGS
            from .measure.context import measure, write
            data = measure((16, 32), 1, story=False) if args.quick else measure(repeats=args.repeats)
            path = write(args.out or checkpoint_dir() / TIMINGS, data)
            print(f"wrote {path} ({len(data['results'])} timings)")
            return 0
        if args.command == "export":
            from .export.story import write
            for path in write(args.out):
                print(f"wrote {path} ({path.stat().st_size:,} bytes)")
            return 0
        if args.what == "story":
            from .training.story_cli import train_story
            return train_story(args)
        if args.steps < 1:
            parser().error(f"--steps must be at least 1, got {args.steps}")
        recipe = Recipe(steps=args.steps)
        return train_search(args, recipe) if args.search_seeds else train_one(args, recipe)
    except (CheckpointError, ClaimError, DataError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
