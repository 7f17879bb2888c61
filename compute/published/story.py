"""The published story models and their data: checkpoints checked on load, the corpus they were trained on."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import torch

from ..data.tokenizer import Vocabulary
from ..kept import kept
from ..models.story import KINDS, StoryModelConfig, build
from ..store import (CheckpointError, checkpoint_dir, load_checkpoint, manifest_path, read_manifest,
                     require_story_models_folder, sha256_file, story_models_dir)
from .corpus import GENERATED, RELATIONS, Corpus, file_corpus, generated_corpus
from .storyfiles import CHECKPOINT_FILES  # noqa: F401 (what this module reads from the published folder)

MODELS = KINDS                                                  # the comparison, in order of the lesson
NAMES = {kind: f"story-{kind}" for kind in MODELS}             # the published checkpoint of each kind
MLP, ONE_HEAD, FOUR_HEAD = (NAMES[k] for k in MODELS)
SECOND_SEED = f"{FOUR_HEAD}-seed1"                             # the four-head recipe from another seed
LABELS = {"mlp": "MLP, window of 8", "one-head": "1 layer × 1 head", "four-head": "2 layers × 4 heads"}

CHECK_STORIES = 300      # validation stories each learning-curve point (and the recorded final loss) is scored on
LOSS_TOLERANCE = 2e-3    # nats: float sums differ across machines by far less; a wrong config by far more

# Two folders: Part III reads its models from the story-models folder (compute.store.story_models_dir: an author's,
# where COMPUTE_STORY_MODELS names one; else the published folder): load, verified, story_corpus, checkpoint_files.
# Its package declares so (compute.lessons.story: STORY_MODEL_FILES), and an author's models re-execute it alone.
# The lessons that set their own work beside Part III's published models (the lab, Part 2B) always read the
# published ones: load_published, verified_published, published_corpus; their files are CHECKPOINT_FILES
# (compute.published.storyfiles), in the published folder.
PART_THREE, PUBLISHED = "part-three", "published"


def model_path(name: str, reader: str = PART_THREE) -> Path:
    """A story checkpoint's tensors file in the folder `reader` reads: Part III's, or the published one."""
    return (story_models_dir() if reader == PART_THREE else checkpoint_dir()) / f"{name}.safetensors"


def require_story_models() -> None:
    """One CheckpointError, before any story model is read, naming every manifest of Part III's four models that
    its folder lacks (an empty folder: all four), or the setting, where what it names is no folder."""
    folder = require_story_models_folder()
    names = [*(NAMES[k] for k in MODELS), SECOND_SEED]
    missing = [manifest_path(model_path(name)).name for name in names if not manifest_path(model_path(name)).exists()]
    if missing:
        raise CheckpointError(f"{folder}: the story-models folder lacks the manifest{'s' if len(missing) > 1 else ''} "
                              f"{', '.join(missing)} (every checkpoint needs its .json manifest beside it; python -m "
                              f"compute train story --out {folder} writes them)")


def story_corpus() -> Corpus:
    """The corpus Part III's story models were trained on, as their four-head model's manifest names it: the
    generated one (seeded: the same on every machine), or an author's story file, which must be where the manifest
    says and hold the bytes it was trained on."""
    return corpus_of(model_path(FOUR_HEAD))


def published_corpus() -> Corpus:
    """The generated corpus the published story models were trained on."""
    return corpus_of(model_path(FOUR_HEAD, PUBLISHED))


def corpus_of(path: Path) -> Corpus:
    """The corpus the story model at `path` was trained on."""
    return _corpus(trained_on(path))


@lru_cache(maxsize=4)
def _corpus(source: str) -> Corpus:
    if source in (GENERATED, RELATIONS):
        return generated_corpus(relations=source == RELATIONS)
    return file_corpus(Path(source))


@lru_cache(maxsize=8)
def trained_on(path: Path) -> str:
    """GENERATED (RELATIONS where the manifest's corpus has the relation families), or the path of the story file
    a story model's manifest says it was trained on, checked to exist and to hold the bytes the manifest records
    (CheckpointError naming both otherwise)."""
    manifest = read_manifest(path)
    data = manifest.get("data")
    source = data.get("source") if isinstance(data, dict) else None
    if source == GENERATED:
        return RELATIONS if (data.get("corpus") or {}).get("relations") else GENERATED
    if not isinstance(source, str) or not source:
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest does not say what the model was trained on "
                              f"(its data.source)")
    file = Path(source)
    if not file.is_file():
        raise CheckpointError(f"{path.with_suffix('.json')}: the model was trained on {file}, which is not there "
                              f"(put the story file back at that path to build from this model)")
    if sha256_file(file) != manifest.get("data_sha256"):
        raise CheckpointError(f"{path.with_suffix('.json')}: the model was trained on {file}, whose text has changed "
                              f"since (its sha256 differs from the manifest's data_sha256)")
    return source


def checkpoint_files(name: str, reader: str = PART_THREE) -> tuple[Path, Path]:
    """A story checkpoint's tensors and manifest, in the folder `reader` reads: what a result measured on it
    reads."""
    path = model_path(name, reader)
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
    require_story_kind(manifest, path)
    try:
        config = StoryModelConfig(**manifest["config"])
    except (KeyError, TypeError, ValueError) as err:
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest's model config is unusable ({err})") from None
    vocab = data.vocab if data is not None else listed_vocabulary(manifest, path)
    if manifest.get("vocabulary_sha256") != vocab.sha256() or config.vocab_size != len(vocab):
        raise CheckpointError(f"{path}: checkpoint was trained with another vocabulary than {corpus_name(data)} gives"
                              if data is not None else f"{path}: the model's config has {config.vocab_size} words, "
                              f"its manifest lists {len(vocab)}")
    require_listed_vocabulary(manifest, path, vocab)
    model = build(config)
    shapes = {n: tuple(p.shape) for n, p in model.named_parameters()}
    require_config_fits_record(manifest, path, shapes)
    weights, manifest = (load_checkpoint(path, shapes, data.sha256, corpus_name(data)) if data is not None
                         else load_checkpoint(path, shapes, manifest["data_sha256"]))
    model.load_state_dict(weights)
    return Published(path.stem, config, model.eval(), manifest, vocab)


def require_story_kind(manifest: dict, path: Path) -> None:
    """One CheckpointError naming the checkpoint when its manifest describes no story model (a config without a
    kind): what it is instead (the walkthrough's, by the data it was trained on) and which kinds are read."""
    config = manifest.get("config")
    if isinstance(config, dict) and "kind" in config:
        return                                   # a story model's config; StoryModelConfig checks the rest
    from ..data.walkthrough import data_hash
    what = ("it is the walkthrough's checkpoint (its one-head decoder trained on the eight sentences)"
            if manifest.get("data_sha256") == data_hash() else "its manifest's config names no kind of story model")
    raise CheckpointError(f"{path}: not a story model: {what}; story models are of the kinds {', '.join(KINDS[:-1])} "
                          f"or {KINDS[-1]}, as python -m compute train story writes them")


def corpus_name(data: Corpus) -> str:
    """How an error names a corpus: the generator's module, or the story file."""
    if data.generated:
        return "the generated corpus (compute/data/story.py" + (", with the relation families)" if
                                                                 data.source == RELATIONS else ")")
    return f"the story file {data.source}"


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


def require_recorded_loss(name: str, tolerance: float = LOSS_TOLERANCE, reader: str = PART_THREE) -> None:
    """CheckpointError naming the manifest unless the story model `name`, as its config builds it, scores
    the validation loss its training recorded on the first CHECK_STORIES validation stories (an edited n_head
    keeps every shape but not the loss)."""
    path = model_path(name, reader)
    p = _cached(path)
    recorded = (p.manifest.get("kept") or {}).get("val_loss", p.manifest.get("final_loss"))
    loss = check_loss(name, reader)
    if not isinstance(recorded, (int, float)) or abs(loss - recorded) > tolerance:
        raise CheckpointError(f"{path.with_suffix('.json')}: the model its config describes scores validation "
                              f"loss {loss:.4f} on the first {CHECK_STORIES} validation stories, the manifest "
                              f"records {recorded!r} (was the config edited?)")


@kept(reads=checkpoint_files)
def check_loss(name: str, reader: str = PART_THREE) -> float:
    """A story model's validation loss on the first CHECK_STORIES validation stories."""
    from ..probes import probe_set, run_probes
    path = model_path(name, reader)
    p, data = _cached(path), corpus_of(path)
    ps = probe_set(data.val[:CHECK_STORIES], data.vocab, p.config.context)
    return run_probes(p.model, ps, data.vocab).val_loss


def require_listed_vocabulary(manifest: dict, path: Path, vocab: Vocabulary) -> None:
    """CheckpointError naming the manifest unless its `vocabulary` list is the verified one, word for word
    (an edited list with its hash left alone would otherwise reach the page and the exported model)."""
    listed = manifest.get("vocabulary")
    if not isinstance(listed, list) or tuple(listed) != vocab.itos:
        raise CheckpointError(f"{path.with_suffix('.json')}: manifest's vocabulary list does not match its "
                              f"vocabulary_sha256 and the corpus (was it edited?)")


@lru_cache(maxsize=16)
def _cached(path: Path) -> Published:
    return load_story_model(path, corpus_of(path))


@lru_cache(maxsize=16)
def _verified(path: Path, reader: str) -> Published:
    require_recorded_loss(path.stem, reader=reader)
    return _cached(path)


def verified(name: str) -> Published:
    """One of Part III's story models, loaded and checked to score the validation loss it recorded (the
    pre-check)."""
    return _verified(model_path(name), PART_THREE)


def verified_published(name: str) -> Published:
    """A published story model, loaded and checked as verified() checks Part III's."""
    return _verified(model_path(name, PUBLISHED), PUBLISHED)


def load(name: str) -> Published:
    """One of Part III's story models by checkpoint name (story-mlp, story-one-head, ...), cached per path."""
    return _cached(model_path(name))


def load_published(name: str) -> Published:
    """A published story model by checkpoint name, whatever folder Part III reads."""
    return _cached(model_path(name, PUBLISHED))


def models() -> dict[str, Published]:
    """The three models of the comparison, by kind."""
    return {kind: load(NAMES[kind]) for kind in MODELS}
