"""The lab's run: its settings, the data, the models' starting tensors, training here or loading Part III's
checkpoints, and the scores of both models on every validation story (the tables that show them: lab.tables)."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache

import torch

from ....models.story import StoryModelConfig, build, init_weights, preset
from ....probes import ProbeResults, ProbeSet, probe_set, run_probes, summary
from ....store import CheckpointError, checkpoint_dir, read_bytes
from ....training.story import StoryRecipe, fit
from ....training.story_cli import token_stream
from ....published.story import FOUR_HEAD, MODELS, NAMES, Corpus, load_published, published_corpus
from ..tensors import LogitsFn, Params, TensorModel

KINDS = MODELS[:2]                      # the window MLP and the one-head model
LABELS = {"mlp": "window MLP", "one-head": "one attention head"}
THREADS = 2
RECORD = "lab-run.json"                 # a measured run of the whole notebook: python benchmarks/lab.py
CHECKPOINT_FILES = ("story-mlp.safetensors", "story-mlp.json", "story-one-head.safetensors", "story-one-head.json",
                    RECORD)


@dataclass(frozen=True)
class Settings:
    train: bool
    tokens: int
    seed: int


@dataclass
class LabRun:
    kind: str
    fn: LogitsFn
    params: Params
    source: str                      # "trained here on N tokens" or "published checkpoint"
    seconds: float = 0.0             # training steps only
    results: ProbeResults | None = None
    scores: dict = field(default_factory=dict)
    silenced: dict | None = None     # the scores with the head silenced (states.knockout), once asked for

    def logits(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.fn(self.params, tokens)

    @property
    def label(self) -> str:
        return LABELS[self.kind]


def settings(train: object, tokens: object, seed: object) -> Settings:
    """The flag cell's values, checked: ValueError with one sentence for each kind of mistake."""
    if not isinstance(train, bool):
        raise ValueError(f"TRAIN must be True or False, got {train!r}")
    if isinstance(tokens, bool) or not isinstance(tokens, int) or not 100_000 <= tokens <= 50_000_000:
        raise ValueError(f"TOKENS must be a whole number from 100,000 to 50,000,000, got {tokens!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 31:
        raise ValueError(f"SEED must be a whole number from 0 to 2**31 - 1, got {seed!r}")
    return Settings(train, tokens, seed)


@lru_cache(maxsize=1)
def measured_run() -> dict:
    """The stored measurement of the whole notebook run with TRAIN = True, and of the one-head model trained on
    several budgets (benchmarks/lab.py, --budgets)."""
    path = checkpoint_dir() / RECORD
    try:
        record = json.loads(read_bytes(path, "lab run record"))
        return {k: record[k] for k in ("seconds", "tokens", "runs", "measured_on", "reached", "each_run_seconds",
                                       "budgets")}
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as err:
        raise CheckpointError(f"{path}: lab run record is malformed ({err})") from None


def setup(train: object, tokens: object, seed: object) -> Settings:
    """Check the flag cell, fix the threads, and say what this run will do."""
    s = settings(train, tokens, seed)
    torch.set_num_threads(THREADS)
    if s.train:
        print(f"TRAIN = True: both models are trained here from seed {s.seed}, {s.tokens:,} tokens each.")
    else:
        print("TRAIN = False: both models are loaded from the published checkpoints of Part III "
              "(nothing is trained). Set TRAIN = True to train them here.")
    try:
        m = measured_run()
    except CheckpointError as err:                     # informative only: a learner's copy may lack it
        print(f"(No stored measurement of a full run: {err})")
        return s
    where = m["measured_on"]
    print(f"Measured: with TRAIN = True and {m['tokens']:,} tokens the whole notebook ran in {m['seconds']:.0f} s "
          f"(median of {m['runs']}) on {where['cpu']}, {where['threads']} threads.")
    return s


def config(kind: str, **changes) -> StoryModelConfig:
    """The sizes compute uses for this model (compute.models.story.preset), with any changed."""
    return replace(preset(kind, len(published_corpus().vocab)), **changes)


@dataclass(frozen=True)
class LabData:
    corpus: Corpus
    stream: torch.Tensor             # every training story's ids in one 1-D tensor, <eos> between stories

    @property
    def vocab(self):
        return self.corpus.vocab


@lru_cache(maxsize=1)
def data() -> LabData:
    c = published_corpus()
    return LabData(c, token_stream(c.train, c.vocab))


@lru_cache(maxsize=1)
def probes() -> ProbeSet:
    """The probes of the generated corpus's validation stories, as Part III scores its published models on them
    (the lab reads the published models whatever story models Part III is built from)."""
    c = published_corpus()
    return probe_set(c.val, c.vocab, load_published(FOUR_HEAD).config.context)


def _seeded_model(kind: str, seed: int, **changes) -> tuple[torch.nn.Module, torch.Generator]:
    generator = torch.Generator().manual_seed(seed)
    model = build(config(kind, **changes))
    init_weights(model, generator)
    return model, generator


def past_initialisation(params: Params, seed: int) -> torch.Generator:
    """The seed's generator after init_weights drew these tensors (one normal draw per matrix, in order), so
    that training takes the same crops as `python -m compute train story` would."""
    generator = torch.Generator().manual_seed(seed)
    for p in params.values():
        if p.dim() == 2:
            torch.empty(p.shape).normal_(generator=generator)
    return generator


def initial_params(kind: str, seed: int, **changes) -> Params:
    """The starting tensors, initialised exactly as `python -m compute train story` initialises its model
    (changes: other sizes, window=16 say, for the exercises)."""
    model, _ = _seeded_model(kind, seed, **changes)
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def train_or_load(kind: str, fn: LogitsFn, params: Params, s: Settings, loop=None) -> LabRun:
    """Train fn from `params` on the budget with the story recipe, with `loop` (the notebook's own, as
    loop(fn, params, recipe, generator) -> (params, losses)) or compute's fit, or load the published tensors;
    then score it on every validation story."""
    if s.train:
        generator = past_initialisation(params, s.seed)
        recipe = StoryRecipe(tokens=s.tokens, threads=THREADS)
        print(f"{LABELS[kind]}: {recipe.steps} steps of {recipe.batch} stretches of {recipe.context} tokens")
        tic = time.perf_counter()
        if loop is None:
            model = TensorModel(fn, params)
            _, seconds = fit(model, data().stream, generator, recipe, progress=True, desc=LABELS[kind])
            trained = model.params
        else:
            trained, losses = loop(fn, params, recipe, generator)
            seconds = time.perf_counter() - tic
            print(f"  loss {losses[0]:.3f} at the first step, {losses[-1]:.3f} at the last ({seconds:.0f} s)")
        run = LabRun(kind, fn, {k: v.detach() for k, v in trained.items()},
                     f"trained here on {recipe.steps * recipe.batch * recipe.context:,} tokens", seconds)
    else:
        published = load_published(NAMES[kind]).model
        run = LabRun(kind, fn, {n: p.detach().clone() for n, p in published.named_parameters()},
                     "published checkpoint")
    torch.set_num_threads(THREADS)
    with torch.no_grad():
        run.results = run_probes(run.logits, probes(), data().vocab)
    run.scores = summary(probes(), run.results)
    return run
