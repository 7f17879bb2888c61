"""`python -m compute train story`: data, training with a learning curve, and the checkpoint with its manifest."""
from __future__ import annotations

import hashlib
from dataclasses import asdict, replace
from pathlib import Path

import torch

from ..data.story import CorpusConfig, Story, corpus, corpus_sha256
from ..data.tinystories import stories_from_file
from ..data.tokenizer import EOS, Vocabulary, build_vocabulary
from ..models.story import preset
from ..probes import probe_set, run_probes, summary
from ..store import checkpoint_dir, save_checkpoint
from .story import StoryRecipe, train_story_model

CURVE_STORIES = 300   # validation stories scored at each point of the learning curve
VAL_SHARE = 20        # a TinyStories file: every 20th story is held out for validation


def story_data(path: Path | None) -> tuple[list[Story], list[Story], dict]:
    """Training and validation stories, and where they came from (for the manifest)."""
    if path is None:
        cfg = CorpusConfig()
        train, val = corpus(cfg)
        return train, val, {"source": "generated", "corpus": asdict(cfg), "sha256": corpus_sha256(train + val)}
    stories = stories_from_file(path)
    val = stories[VAL_SHARE - 1::VAL_SHARE] or stories[-1:]
    train = [s for i, s in enumerate(stories) if (i + 1) % VAL_SHARE] or stories
    return train, val, {"source": str(path), "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest()}


def token_stream(stories: list[Story], vocab: Vocabulary) -> torch.Tensor:
    """Every story's ids, each preceded by <eos>, in one 1-D tensor (and a closing <eos>)."""
    eos = vocab.index(EOS)
    ids = []
    for story in stories:
        ids.append(eos)
        ids.extend(vocab.encode(story.tokens))
    ids.append(eos)
    return torch.tensor(ids, dtype=torch.long)


def train_story(args) -> int:
    train, val, source = story_data(args.data)
    vocab = build_vocabulary([s.tokens for s in train])
    config = preset(args.model, len(vocab))
    recipe = StoryRecipe() if args.tokens is None else replace(StoryRecipe(), tokens=args.tokens)
    stream = token_stream(train, vocab)
    curve_set = probe_set(val[:CURVE_STORIES], vocab, config.context)

    def evaluate(model):
        return summary(curve_set, run_probes(model, curve_set, vocab))

    print(f"{len(train):,} training stories ({len(stream):,} tokens), {len(val):,} validation stories, "
          f"vocabulary {len(vocab)} words; {recipe.steps:,} steps of {recipe.batch}×{recipe.context} tokens")
    run = train_story_model(config, stream, args.seed, recipe, evaluate, progress=not args.quiet)
    full = probe_set(val, vocab, config.context)
    metrics = summary(full, run_probes(_model(run), full, vocab))
    name = args.name or f"story-{args.model}"
    manifest = {**run.manifest(), "data": source, "data_sha256": source["sha256"],
                "vocabulary": list(vocab.itos), "vocabulary_sha256": vocab.sha256(), "metrics": metrics}
    path = save_checkpoint((args.out or checkpoint_dir()) / f"{name}.safetensors", run.weights, manifest)
    print(f"trained in {run.seconds:.0f} s; validation loss {metrics['val_loss']:.3f}; "
          + ", ".join(f"{k} {v:.2f}" for k, v in metrics.items() if k in ("name", "object", "colour", "place")
                      and v is not None))
    print(f"wrote {path} and {path.with_suffix('.json').name}")
    return 0


def _model(run):
    from ..models.story import build
    model = build(run.config)
    model.load_state_dict(run.weights)
    return model.eval()

