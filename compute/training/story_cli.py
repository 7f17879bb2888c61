"""`python -m compute train story`: data, training with a learning curve, and the checkpoint with its manifest."""
from __future__ import annotations

import sys
from dataclasses import asdict, replace
from pathlib import Path

import torch

from .. import progress
from ..data.handwritten import read_handwritten
from ..data.story import CorpusConfig, Story, corpus, corpus_sha256, probes_for
from ..data.tinystories import SEPARATOR, read_story_file
from ..data.tokenizer import EOS, Vocabulary, build_vocabulary
from ..models.story import preset
from ..probes import covered, probe_set, run_probes, summary
from ..published.story import CHECK_STORIES, NAMES
from ..outputs import require_writable_folder, written_or_kept
from ..store import checkpoint_dir, save_checkpoint
from .baseline import frequency_loss, learned
from .story import StoryRecipe, relations_tokens, train_story_model
from ..data.story_file import file_data
from .story_file import budget_tokens, file_eval_every, passes, unknown_share



def story_data(path: Path | None, relations: bool = False) -> tuple[list[Story], list[Story], dict[str, list[Story]],
                                                                  dict]:
    """Training and validation stories, further validation splits scored apart (the generated corpus's held-out
    families and the hand-written stories), and where the data came from (for the manifest). `relations`: the
    generated corpus with the relation families too."""
    if path is None:
        cfg = CorpusConfig(relations=relations)
        train, val = corpus(cfg)
        splits = {"held-out": val[cfg.n_val:], "hand-written": [h.story for h in read_handwritten()]}
        source = {"source": "generated", "corpus": asdict(cfg), "sha256": corpus_sha256(train + val)}
        return train, val[:cfg.n_val], splits, source
    story_file = read_story_file(path)
    if story_file.last_unclosed:
        print(f"note: the last story of {path} has no closing {SEPARATOR} line; it is kept as a story "
              "(check that the file was not cut short)")
    data, source = file_data(path, story_file, StoryRecipe.context)
    print(f"{source['stories']:,} stories in {path}: {source['held_out']} held out for validation, "
          f"{source['val_dropped_as_repeats']:,} of those dropped as repeats of other stories")
    val = [replace(s, probes=probes_for(s.tokens)) for s in data.val]       # a file marks no probes: find them
    return data.train, val, {"hand-written": [h.story for h in read_handwritten()]}, source


def token_stream(stories: list[Story], vocab: Vocabulary) -> torch.Tensor:
    """Every story's ids, each preceded by <eos>, in one 1-D tensor (and a closing <eos>)."""
    eos = vocab.index(EOS)
    ids = []
    for story in stories:
        ids.append(eos)
        ids.extend(vocab.encode(story.tokens))
    ids.append(eos)
    return torch.tensor(ids, dtype=torch.long)


def story_recipe(args, train_tokens: int) -> StoryRecipe:
    """The recipe for this run: the budget (tokens or passes), the weights kept, and for a file a curve point
    often enough that the best weights are found."""
    from_file = args.data is not None
    default = replace(StoryRecipe(), tokens=relations_tokens(args.model)) if getattr(args, "relations", False) \
        else StoryRecipe()
    recipe = replace(default, tokens=budget_tokens(train_tokens, args.tokens, args.passes, from_file, default),
                     keep=args.keep or ("best" if from_file else "last"))
    return replace(recipe, eval_every=file_eval_every(recipe.tokens, recipe)) if from_file else recipe


def refuse_published(args) -> bool:
    """True (after one sentence on stderr) when --data would write into the published checkpoint folder."""
    if args.data is None or args.out is not None:
        return False
    print(f"error: training on {args.data} needs --out FOLDER, so that the published checkpoints stay as they are "
          f"(pass --out {checkpoint_dir()} to replace the published one deliberately)", file=sys.stderr)
    return True


def checkpoint_name(args) -> str:
    """The checkpoint this run writes: --name, else story-<model> (story-<model>-relations with --relations)."""
    return args.name or NAMES[args.model] + ("-relations" if getattr(args, "relations", False) else "")


def out_folder(args) -> Path:
    """The folder the run will write its checkpoint in (--out, else the published one), checked before a story
    is read: a run that could never be written is refused before it trains, not lost after."""
    out = args.out or checkpoint_dir()
    name = checkpoint_name(args)
    require_writable_folder(out, [f"{name}.safetensors", f"{name}.json"],
                            "--out" if args.out else "the checkpoint folder")
    return out


def train_story(args) -> int:
    if refuse_published(args):
        return 1
    out = out_folder(args)
    relations = getattr(args, "relations", False)
    with progress.stage("data", str(args.data) if args.data else "the generated stories"
                        + (" with the relation families" if relations else "")):
        train, val, splits, source = story_data(args.data, relations)
        vocab = build_vocabulary([s.tokens for s in train])
        config = preset(args.model, len(vocab))
        stream = token_stream(train, vocab)
        recipe = story_recipe(args, len(stream))
        curve_set = probe_set(val[:CHECK_STORIES], vocab, config.context)
        unknown = {"train": unknown_share(train, vocab), "val": unknown_share(val, vocab)}

    def evaluate(model):
        return summary(curve_set, run_probes(model, curve_set, vocab))

    # what the run is about to do: part of its result, quiet or not (printed between stages: no bar to clear)
    print(f"{len(train):,} training stories ({len(stream):,} tokens), {len(val):,} validation stories, "
          f"vocabulary {len(vocab)} words; unknown words (<unk>): {unknown['train']:.2%} of training tokens, "
          f"{unknown['val']:.2%} of validation tokens")
    print(f"{recipe.steps:,} steps of {recipe.batch}×{recipe.context} tokens = {passes(recipe, len(stream)):.2f} "
          f"passes over the training text; a curve point every {recipe.eval_every:,} tokens; keeping the "
          + ("weights with the lowest validation loss" if recipe.keep == "best" else "last weights"))
    print(schedule_line(recipe))
    device = getattr(args, "device", "cpu")
    with progress.stage("train", f"{args.model}, seed {args.seed}, {recipe.steps:,} steps"
                                 + (f" on {device}" if device != "cpu" else "")):
        run = train_story_model(config, stream, args.seed, recipe, evaluate, device=device)
    with progress.stage("score", "the kept weights on the validation stories and the probes"):
        model = _model(run)
        metrics = _scores(model, val, vocab, config.context)
        scored = {name: covered(stories, vocab) for name, stories in splits.items()}   # read without <unk>
        by_split = {name: {**_scores(model, stories, vocab, config.context), "stories_scored": len(stories),
                           "stories": len(splits[name])} for name, stories in scored.items() if stories}
        baseline = frequency_loss(stream, val, vocab, config.context)
    name = checkpoint_name(args)
    manifest = {**run.manifest(), "data": source, "data_sha256": source["sha256"], "unknown_share": unknown,
                "passes": passes(recipe, len(stream)), "vocabulary": list(vocab.itos),
                "vocabulary_sha256": vocab.sha256(), "metrics": metrics, "metrics_by_split": by_split,
                "frequency_loss": baseline, "learned_beyond_frequencies": learned(metrics["val_loss"], baseline)}
    path = written_or_kept(out, lambda folder: save_checkpoint(folder / f"{name}.safetensors", run.weights, manifest))
    kept = run.kept
    print(f"trained in {run.seconds:.0f} s; kept the {kept['rule']} weights (step {kept['step']:,}, "
          f"{kept['tokens']:,} tokens, curve validation loss {kept['val_loss']:.3f}); validation loss "
          f"{metrics['val_loss']:.3f}" + "".join(f", {k} {v:.2f}" for k, v in metrics.items()
                                               if k in ("name", "object", "colour", "place") and v is not None))
    for name, stories in splits.items():
        m = by_split.get(name)
        print(f"{name}: " + (", ".join(f"{k} {m[k]:.2f}" for k in ("name", "object", "colour", "place")
                                       if m.get(k) is not None) + f" ({m['stories_scored']} of {m['stories']} "
                             f"stories, those the vocabulary holds every word of)" if m else
                             f"none of the {len(stories)} stories has every word in the vocabulary; not scored"))
    print(learned_line(metrics["val_loss"], baseline, recipe))
    print(f"wrote {path} and {path.with_suffix('.json').name}")
    return 0


def schedule_line(recipe: StoryRecipe) -> str:
    """The learning-rate schedule this run follows, and whether its warm-up was cut to fit the run."""
    s = recipe.schedule()
    cut = (f" (the recipe's {recipe.warmup} cut to a tenth of the run)" if s["warmup_shortened"] else "")
    return (f"learning rate: {s['warmup_steps']:,} warm-up steps{cut} up to {s['peak_lr']:g}, then a cosine "
            f"decay over {s['decay_steps']:,} steps to {s['lr_end']:.2g} at the last step "
            f"({s['decay_ends_at_step']:,})")


def learned_line(val_loss: float, baseline: float, recipe: StoryRecipe) -> str:
    """Whether the run learned anything beyond word frequencies; if not, that the run was too short."""
    if learned(val_loss, baseline):
        return (f"learned: validation loss {val_loss:.3f} against {baseline:.3f} for word frequencies alone")
    return (f"warning: this run of {recipe.steps:,} steps was too short to learn anything: validation loss "
            f"{val_loss:.3f} against {baseline:.3f} for word frequencies alone (give it more --passes or --tokens)")


def _scores(model, stories: list[Story], vocab: Vocabulary, context: int) -> dict:
    ps = probe_set(stories, vocab, context)
    return summary(ps, run_probes(model, ps, vocab))


def _model(run):
    from ..models.story import build
    model = build(run.config)
    model.load_state_dict(run.weights)
    return model.eval()
