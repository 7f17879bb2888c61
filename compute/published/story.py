"""The published story models and their data: checkpoints checked on load, the corpus they were trained on."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import torch

from ..data.tokenizer import Vocabulary
from ..kept import kept
from ..models.story import KINDS, StoryModelConfig, build
from ..store import CheckpointError, checkpoint_path, load_checkpoint, manifest_path, read_manifest
from .corpus import Corpus, generated_corpus

MODELS = KINDS                                                  # the comparison, in order of the lesson
NAMES = {kind: f"story-{kind}" for kind in MODELS}             # the published checkpoint of each kind
MLP, ONE_HEAD, FOUR_HEAD = (NAMES[k] for k in MODELS)
SECOND_SEED = f"{FOUR_HEAD}-seed1"                             # the four-head recipe from another seed
LABELS = {"mlp": "MLP, window of 8", "one-head": "1 layer × 1 head", "four-head": "2 layers × 4 heads"}

CHECK_STORIES = 300      # validation stories each learning-curve point (and the recorded final loss) is scored on
LOSS_TOLERANCE = 2e-3    # nats: float sums differ across machines by far less; a wrong config by far more

CHECKPOINT_FILES = ("story-mlp.safetensors", "story-mlp.json", "story-one-head.safetensors", "story-one-head.json",
                    "story-four-head.safetensors", "story-four-head.json",
                    "story-four-head-seed1.safetensors", "story-four-head-seed1.json")


@lru_cache(maxsize=1)
def story_corpus() -> Corpus:
    """The generated corpus the models were trained on (seeded: the same on every machine)."""
    return generated_corpus()


def checkpoint_files(name: str) -> tuple[Path, Path]:
    """A published checkpoint's tensors and manifest, in the folder in use: what a result measured on it reads."""
    path = checkpoint_path(name)
    return path, manifest_path(path)


@dataclass
class Published:
    name: str
    config: StoryModelConfig
    model: torch.nn.Module   # float32, eval mode
    manifest: dict
    vocab: Vocabulary        # verified: the corpus's, which the manifest's hash and list both match


def load_story_model(path: Path, data: Corpus) -> Published:
    """A story checkpoint, checked against its manifest, the model its config describes, and the corpus."""
    return story_checkpoint(path, data)


def story_checkpoint(path: Path, data: Corpus | None = None) -> Published:
    """A story checkpoint checked against its manifest and the model its config describes; against `data` (the
    generated corpus) too when given. Without it (an author's model, trained on any story file) the vocabulary is
    the list its manifest records, checked against the manifest's hash of it."""
    path = Path(path)
    manifest = read_manifest(path)
    try:
        config = StoryModelConfig(**manifest["config"])
    except (KeyError, TypeError, ValueError) as err:
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest's model config is unusable ({err})") from None
    vocab = data.vocab if data is not None else listed_vocabulary(manifest, path)
    if manifest.get("vocabulary_sha256") != vocab.sha256() or config.vocab_size != len(vocab):
        raise CheckpointError(f"{path}: checkpoint was trained with another vocabulary than the generated corpus gives"
                              if data is not None else f"{path}: the model's config has {config.vocab_size} words, "
                              f"its manifest lists {len(vocab)}")
    require_listed_vocabulary(manifest, path, vocab)
    model = build(config)
    shapes = {n: tuple(p.shape) for n, p in model.named_parameters()}
    require_config_fits_record(manifest, path, shapes)
    weights, manifest = (load_checkpoint(path, shapes, data.sha256, "compute/data/story.py") if data is not None
                         else load_checkpoint(path, shapes, manifest["data_sha256"]))
    model.load_state_dict(weights)
    return Published(path.stem, config, model.eval(), manifest, vocab)


def listed_vocabulary(manifest: dict, path: Path) -> Vocabulary:
    """The vocabulary a manifest lists, when its list is one and matches the manifest's hash of it."""
    listed = manifest.get("vocabulary")
    try:
        vocab = Vocabulary(tuple(listed))
    except (TypeError, ValueError) as err:
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest's vocabulary list is unusable ({err})") from None
    if manifest.get("vocabulary_sha256") != vocab.sha256():
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest's vocabulary list does not match its "
                              f"vocabulary_sha256 (was it edited?)")
    return vocab


def require_config_fits_record(manifest: dict, path: Path, shapes: dict[str, tuple[int, ...]]) -> None:
    """CheckpointError naming the manifest when its config builds other tensors than it records (an edited
    d_model, n_layer or window), before any tensor is read."""
    recorded = manifest.get("tensors")
    if not isinstance(recorded, dict):
        return                                   # load_checkpoint names the missing record
    for name, shape in shapes.items():
        entry = recorded.get(name)
        got = tuple(entry.get("shape", ())) if isinstance(entry, dict) else None
        if got != shape:
            raise CheckpointError(f"{path.with_suffix('.json')}: manifest's model config does not describe its "
                                  f"tensors ({name}: the config builds {list(shape)}, the manifest records "
                                  f"{list(got) if got is not None else 'none'})")
    extra = sorted(set(recorded) - set(shapes))
    if extra:
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest's model config does not describe its "
                              f"tensors (it builds no {', '.join(extra[:3])})")


def require_recorded_loss(name: str, tolerance: float = LOSS_TOLERANCE) -> None:
    """CheckpointError naming the manifest unless the published model `name`, as its config builds it, scores
    the validation loss its training recorded on the first CHECK_STORIES validation stories (an edited n_head
    keeps every shape but not the loss)."""
    p, path = load(name), checkpoint_path(name)
    recorded = (p.manifest.get("kept") or {}).get("val_loss", p.manifest.get("final_loss"))
    loss = check_loss(name)
    if not isinstance(recorded, (int, float)) or abs(loss - recorded) > tolerance:
        raise CheckpointError(f"{path.with_suffix('.json')}: the model its config describes scores validation "
                              f"loss {loss:.4f} on the first {CHECK_STORIES} validation stories, the manifest "
                              f"records {recorded!r} (was the config edited?)")


@kept(reads=checkpoint_files)
def check_loss(name: str) -> float:
    """A published model's validation loss on the first CHECK_STORIES validation stories."""
    from ..probes import probe_set, run_probes
    p, data = load(name), story_corpus()
    ps = probe_set(data.val[:CHECK_STORIES], data.vocab, p.config.context)
    return run_probes(p.model, ps, data.vocab).val_loss


def require_listed_vocabulary(manifest: dict, path: Path, vocab: Vocabulary) -> None:
    """CheckpointError naming the manifest unless its `vocabulary` list is the verified one, word for word
    (an edited list with its hash left alone would otherwise reach the page and the exported model)."""
    listed = manifest.get("vocabulary")
    if not isinstance(listed, list) or tuple(listed) != vocab.itos:
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest's vocabulary list does not match its "
                              f"vocabulary_sha256 and the generated corpus (was it edited?)")


@lru_cache(maxsize=8)
def _cached(path: Path) -> Published:
    return load_story_model(path, story_corpus())


@lru_cache(maxsize=8)
def _verified(path: Path) -> Published:
    require_recorded_loss(path.stem)
    return _cached(path)


def verified(name: str) -> Published:
    """A published story model, loaded and checked to score the validation loss it recorded (the pre-check)."""
    return _verified(checkpoint_path(name))


def load(name: str) -> Published:
    """A published story model by checkpoint name (story-mlp, story-one-head, ...), cached per path."""
    return _cached(checkpoint_path(name))


def models() -> dict[str, Published]:
    """The three models of the comparison, by kind."""
    return {kind: load(NAMES[kind]) for kind in MODELS}
