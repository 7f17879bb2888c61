"""`python -m compute train walkthrough|story`: train a model and write its checkpoint (a walkthrough seed is
published only if it passes the walkthrough lesson's claims)."""
from __future__ import annotations

import json
from pathlib import Path

from .. import progress
from ..claims import ClaimError, claims_table
from ..models.story import KINDS
from ..models.walkthrough import CONFIG
from ..published.walkthrough import ALTERNATIVE, NAME, SEED_RECORD, from_weights
from ..outputs import require_writable_folder, written_or_kept
from ..store import checkpoint_dir, save_checkpoint
from ..training.story import RELATIONS_TOKENS
from ..training.walkthrough import Recipe, train
from .args import device_name, positive, positive_number, seed_range, seed_value


def add(sub) -> None:
    train = sub.add_parser("train", help="train a model and write its checkpoint")
    which = train.add_subparsers(dest="what", required=True)
    t = which.add_parser("walkthrough", help="the one-head walkthrough decoder on eight sentences")
    seed = t.add_mutually_exclusive_group(required=True)
    seed.add_argument("--seed", type=seed_value, help="train this seed")
    seed.add_argument("--search-seeds", type=seed_range, metavar="A-B",
                      help="train every seed in A..B, record their patterns, publish the first that passes every claim")
    t.add_argument("--steps", type=positive, default=Recipe.steps, help="Adam steps (default %(default)s)")
    t.add_argument("--workers", type=int, default=2, help="processes for --search-seeds (default %(default)s)")
    t.add_argument("--force", action="store_true", help="write the checkpoint even if a claim fails")
    s = which.add_parser("story", help="a Part III story model on the generated stories (or a TinyStories file)")
    s.add_argument("--model", required=True, choices=KINDS, help="which of the three models")
    s.add_argument("--seed", type=seed_value, default=0, help="initialisation and batch order (default %(default)s)")
    data = s.add_mutually_exclusive_group()
    data.add_argument("--data", type=Path, default=None,
                      help="train on a TinyStories-format text file instead of the generated stories (default: the "
                           "generated stories)")
    data.add_argument("--relations", action="store_true",
                      help="the generated stories with the families that teach the hand-written stories' relations "
                           "(who left and who stayed, whose thing, which place); the checkpoint is named "
                           "story-<model>-relations")
    budget = s.add_mutually_exclusive_group()
    budget.add_argument("--tokens", type=positive, default=None,
                        help="token budget (default: the recipe's, "
                             + ", ".join(f"{n:,} for {m} with --relations" for m, n in RELATIONS_TOKENS.items())
                             + "; with --data at most 10 passes over the file)")
    budget.add_argument("--passes", type=positive_number, default=None, metavar="P",
                        help="token budget as P passes over the training text (0.5, 3, ...); default: as --tokens")
    s.add_argument("--keep", choices=["best", "last"], default=None,
                   help="keep the weights with the lowest validation loss or the last ones "
                        "(default: best with --data, last on the generated stories)")
    s.add_argument("--name", default=None, help="checkpoint name (default story-<model>, with --relations "
                                                 "story-<model>-relations)")
    s.add_argument("--device", type=device_name, default="cpu",
                   help="where the training steps run: cpu, or cuda / cuda:N where torch finds a GPU (the same "
                        "recipe, seed and batches; the bits differ from the CPU's) (default %(default)s)")
    t.add_argument("--out", type=Path, default=None, help="folder for the checkpoint (default: the published one)")
    s.add_argument("--out", type=Path, default=None,
                   help="folder for the checkpoint (default: the published one; required with --data)")
    for cmd in (t, s):
        cmd.add_argument("--quiet", action="store_true",
                         help="print only the result and any error, not each stage (default: off)")


def run(args) -> int:
    with progress.command(args.quiet):
        if args.what == "story":
            from ..training.story_cli import train_story
            return train_story(args)
        recipe = Recipe(steps=args.steps)
        return train_search(args, recipe) if args.search_seeds else train_one(args, recipe)


def trained(seed: int, recipe: Recipe, what: str = ""):
    with progress.stage("train", f"seed {seed}{what}, {recipe.steps:,} steps"):
        return train(seed, recipe)


def judged(results, seed: int, force: bool, why: str = "") -> None:
    """The claims' table; ClaimError naming the broken claims unless `force` (then a warning line)."""
    print(claims_table(results))
    broken = [c.name for c, o in results if not o.holds]
    if broken and not force:
        raise ClaimError(f"seed {seed} breaks the page's claims {', '.join(broken)}; nothing written"
                         f"{why} (--force writes it anyway)")
    if broken:
        print(f"warning: --force: writing seed {seed} although it breaks {', '.join(broken)}; the build will "
              f"stop on them")


def require_recorded_seed(seed: int, force: bool) -> None:
    """ClaimError unless the seed-search record beside the checkpoints publishes this seed (or `force`)."""
    path = checkpoint_dir() / SEED_RECORD
    try:
        recorded = json.loads(path.read_text())["published_seed"]
    except (OSError, ValueError, KeyError, TypeError):
        return                              # no usable record: the page's claims on it say so below
    if recorded != seed and not force:
        raise ClaimError(f"seed {seed} is not the seed the seed-search record {path} publishes ({recorded}); "
                         f"nothing written (run --search-seeds to publish another seed, or --force to write this "
                         f"one anyway, which the page's claims on the record will then refuse)")
    if recorded != seed:
        print(f"warning: --force: the seed-search record {path} publishes seed {recorded}, not {seed}")


def out_folder(args, names: list[str]) -> Path:
    """The folder the run will write `names` in (--out, else the published one), checked before it trains."""
    out = args.out or checkpoint_dir()
    require_writable_folder(out, names, "--out" if args.out else "the checkpoint folder")
    return out


def checkpoint_names(*names: str) -> list[str]:
    """The files of the checkpoints `names`: tensors and manifest."""
    return [f"{name}{suffix}" for name in names for suffix in (".safetensors", ".json")]


def train_one(args, recipe: Recipe) -> int:
    from ..lessons.walkthrough import claims
    out = out_folder(args, checkpoint_names(NAME))
    require_recorded_seed(args.seed, args.force)
    result = trained(args.seed, recipe)
    with progress.stage("claims", "every claim of the walkthrough's page on the trained weights"):
        results = claims.check_publication(from_weights(result.weights, result.manifest(CONFIG)))
    print(f"seed {args.seed}: final loss {result.final_loss:.6f} after {recipe.steps} steps")
    judged(results, args.seed, args.force)
    path = written_or_kept(out, lambda folder: save_checkpoint(folder / f"{NAME}.safetensors", result.weights,
                                                               result.manifest(CONFIG)))
    print(f"wrote {path} and {path.with_suffix('.json').name}")
    return 0


def train_search(args, recipe: Recipe) -> int:
    """Search the seeds, train what the record would publish and its alternative, check every claim of the page on
    them with the record, and only then write the record and both checkpoints."""
    from ..lessons.walkthrough import claims
    from ..training import seedsearch
    out = out_folder(args, [SEED_RECORD, *checkpoint_names(NAME, ALTERNATIVE)])
    with progress.stage("search", f"seeds {args.search_seeds.start}-{args.search_seeds.stop - 1} on "
                                  f"{args.workers} processes, {recipe.steps:,} steps each"):
        entries = seedsearch.search(args.search_seeds, claims.check_all, recipe, workers=args.workers,
                                    page_judge=claims.check_seed)
    rec = seedsearch.record(entries, recipe, claims.DOMINANT)
    print(f"{rec['n_converged']} of {rec['n_seeds']} seeds converged; patterns among them:")
    for label, n in rec["patterns_among_converged"].items():
        print(f"  {n:4d}  {label}")
    if rec["published_seed"] is None:
        raise ClaimError("no seed in the range passes every selection claim and every claim the page makes of a "
                         "model; nothing written")
    if rec["alternative_seed"] is None:
        raise ClaimError("no converged seed in the range answers row 13 from another word than its cue, as the "
                         "page's alternative must; nothing written")
    chosen = {"published": trained(rec["published_seed"], recipe, " (to publish)"),
              "alternative": trained(rec["alternative_seed"], recipe, " (the alternative)")}
    models = {k: from_weights(r.weights, r.manifest(CONFIG)) for k, r in chosen.items()}
    with progress.stage("claims", "every claim of the walkthrough's page, with this search's record"):
        results = claims.check_publication(models["published"], rec, models["alternative"])
    judged(results, rec["published_seed"], args.force, " (neither the record nor a checkpoint)")
    record, paths = written_or_kept(out, lambda folder: write_search(folder, rec, chosen))
    print(f"wrote {record}")
    for (what, result), path in zip(chosen.items(), paths):
        print(f"{what} seed {result.seed}: {path}")
    return 0


def write_search(folder: Path, rec: dict, chosen: dict) -> tuple[Path, list[Path]]:
    """The seed-search record and the published and alternative checkpoints, written in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SEED_RECORD).write_text(json.dumps(rec, indent=1) + "\n")
    paths = [save_checkpoint(folder / f"{name}.safetensors", result.weights, result.manifest(CONFIG))
             for result, name in zip(chosen.values(), (NAME, ALTERNATIVE))]
    return folder / SEED_RECORD, paths
