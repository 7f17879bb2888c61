"""Part III from an author's story models (COMPUTE_STORY_MODELS, `./build --story-models`): the folder is read for
story-* checkpoints only; the corpus is the one their manifest names, a story file split as training split it,
with probes found in its held-out stories; a moved or edited file is one sentence."""
from __future__ import annotations

import re
import json
from dataclasses import asdict
from pathlib import Path

import pytest
import torch

from compute.claims import ClaimError, Outcome
from compute.data.story import KINDS
from compute.data.tinystories import read_story_file
from compute.data.tokenizer import build_vocabulary
from compute.models.story import build, init_weights, preset
from compute.published import story as published
from compute.store import CheckpointError, checkpoint_dir, checkpoint_path, save_checkpoint, sha256_file
from compute.data.story_file import file_data
from helpers import tiny_texts, write_file
from sitebuild.pages.stamps import lesson_dependencies

MODELS = ("story-mlp", "story-one-head", "story-four-head", "story-four-head-seed1")


def authors_folder(root: Path) -> tuple[Path, Path]:
    """A story file and a folder of the four story models `train story --data FILE --out FOLDER` would write for
    it (untrained weights: what is read here is where they come from, not what they learned)."""
    story_file = write_file(root / "stories.txt", tiny_texts(), close_last=True)
    data, source = file_data(story_file, read_story_file(story_file), 256)
    vocab = build_vocabulary([s.tokens for s in data.train])
    folder = root / "models"
    for name in MODELS:
        kind = name.removeprefix("story-").removesuffix("-seed1")
        config = preset(kind, len(vocab))
        model = build(config)
        init_weights(model, torch.Generator().manual_seed(0))
        manifest = {"seed": 0, "config": asdict(config), "data": source, "data_sha256": source["sha256"],
                    "final_loss": 3.0, "vocabulary": list(vocab.itos), "vocabulary_sha256": vocab.sha256()}
        save_checkpoint(folder / f"{name}.safetensors", dict(model.named_parameters()), manifest)
    return story_file, folder


@pytest.fixture
def authors(tmp_path, monkeypatch):
    story_file, folder = authors_folder(tmp_path)
    monkeypatch.setenv("COMPUTE_STORY_MODELS", str(folder))
    return story_file, folder


ROOT = Path(__file__).resolve().parents[2]


def test_part_three_reads_the_folder_and_the_lab_the_published_models(authors):
    _, folder = authors
    assert published.model_path("story-four-head") == folder / "story-four-head.safetensors"
    assert published.model_path("story-four-head", published.PUBLISHED) == checkpoint_path("story-four-head")
    assert published.load("story-mlp").vocab != published.load_published("story-mlp").vocab
    assert published.published_corpus().generated and not published.story_corpus().generated


def test_a_lessons_stamp_follows_the_folder_it_reads(authors):
    """Part III's build stamp hashes the author's models and the published ones (it shows the relation models
    beside them); the lab's and Part 2B's, which import the same module of checkpoints but read the published
    models alone, hash none of the author's: an author's models re-execute Part III and no other lesson."""
    _, folder = authors

    def checkpoints(page):
        return lesson_dependencies(ROOT, (ROOT / "posts" / f"{page}.md").read_text()).checkpoints
    part_three = checkpoints("story-models")
    assert folder / "story-four-head.json" in part_three
    assert checkpoint_dir() / "story-four-head.json" in part_three
    assert checkpoint_dir() / "walkthrough.json" not in part_three
    for page in ("lab", "context-cost"):
        assert checkpoint_dir() / "story-mlp.safetensors" in checkpoints(page), page
        assert not [p for p in checkpoints(page) if p.parent == folder], page


def test_the_corpus_is_the_story_file_split_as_training_split_it_with_probes_found(authors):
    story_file, _ = authors
    corpus = published.story_corpus()
    assert corpus.source == str(story_file) and not corpus.generated and corpus.held_out == []
    assert (len(corpus.train), len(corpus.val)) == (209, 10)                     # every 20th held out, a repeat dropped
    assert corpus.sha256 == sha256_file(story_file)
    model = published.load("story-four-head")
    assert model.vocab == corpus.vocab and model.config.vocab_size == len(corpus.vocab)
    # each held-out story names one child again and again: every mention after the first is a probe of its kind
    for story in corpus.val:
        names = [p for p in story.probes if p.kind == "name"]
        child = story.tokens[names[0].source]
        assert len(names) == story.tokens.count(child) - 1 >= 2
        assert all(story.tokens[p.target] == story.tokens[p.source] == child in KINDS["name"] for p in names)


def test_a_moved_or_edited_story_file_is_one_sentence(authors):
    story_file, folder = authors
    manifest = folder / "story-four-head.json"
    story_file.rename(story_file.with_suffix(".moved"))
    with pytest.raises(CheckpointError) as err:
        published.trained_on(folder / "story-four-head.safetensors")
    assert str(err.value) == (f"{manifest}: the model was trained on {story_file}, which is not there (put the "
                              f"story file back at that path to build from this model)")
    published.trained_on.cache_clear()
    story_file.with_suffix(".moved").rename(story_file)
    story_file.write_text(story_file.read_text() + "One more story.\n")
    with pytest.raises(CheckpointError, match="whose text has changed since"):
        published.trained_on(folder / "story-four-head.safetensors")
    published.trained_on.cache_clear()


def test_a_manifest_that_does_not_say_what_the_model_read_is_one_sentence(authors):
    _, folder = authors
    manifest = folder / "story-four-head.json"
    record = json.loads(manifest.read_text())
    del record["data"]
    manifest.write_text(json.dumps(record))
    with pytest.raises(CheckpointError, match=r"manifest does not say what the model was trained on"):
        published.trained_on(folder / "story-four-head.safetensors")
    published.trained_on.cache_clear()


def test_the_published_folder_still_means_the_generated_corpus(monkeypatch):
    monkeypatch.delenv("COMPUTE_STORY_MODELS", raising=False)
    assert published.trained_on(checkpoint_path("story-four-head")) == "generated"


def test_a_claim_whose_numbers_cannot_be_computed_fails_saying_why_and_a_checkpoint_error_stays_one():
    from compute.claims import Registry
    registry = Registry()

    @registry.claim("The curve has a largest rise.")
    def has_a_rise():
        return max([])                                       # a curve of one point: no rise to take

    @registry.claim("The checkpoint reads.")
    def reads():
        raise CheckpointError("story-mlp.json: manifest not found")

    (claim, outcome), = registry.check_all(names=["has_a_rise"])
    assert not outcome.holds and outcome.evidence.startswith("its numbers cannot be computed here (ValueError: ")
    with pytest.raises(CheckpointError, match="manifest not found"):
        registry.check_all(names=["reads"])


def test_a_claim_under_a_condition_is_checked_only_where_it_holds():
    from compute.claims import Registry, claims_table
    from compute.conditions import Condition
    registry, holds = Registry(), {"now": True}
    families = Condition("families", lambda: holds["now"], "these models have no families")

    @registry.claim("The families keep their objects.", only=families)
    def keep_objects():
        return Outcome(False, "object 0.910 -> 0.420")

    with pytest.raises(ClaimError, match=r"claim keep_objects fails: .*\[object 0.910 -> 0.420\]"):
        registry.require_all()
    holds["now"] = False
    (_, outcome), = registry.check_all()
    assert outcome.holds and not outcome.applies and outcome.evidence == "not checked: these models have no families"
    registry.require_all()                                   # stops nothing
    assert re.search(r"keep_objects  n/a +-  not checked", claims_table(registry.check_all()))


def test_the_template_families_apply_to_the_generated_stories_only(authors):
    from compute.checks import claim_conditions
    from compute.conditions import holding
    from compute.lessons.story.claims import STORY
    from compute.lessons.story.states import evaluation as ev
    held = sorted(c for c, only in claim_conditions(["story"]).items() if only == "generated_stories")
    assert held == ["held_out_names_and_places_drop", "held_out_names_stay_in_the_story",
                    "held_out_objects_and_colours_transfer", "relations_fall_short_of_the_goal",
                    "relations_four_head_leads_on_hand_written", "relations_raise_hand_written_names_and_places"]
    assert holding() == [] and "held-out" not in ev.splits()
    for claim, outcome in STORY.check_all(names=held):
        assert outcome.holds and not outcome.applies and "trained on a story file" in outcome.evidence, claim


def test_a_folder_without_the_story_models_names_every_missing_manifest(tmp_path, capsys, monkeypatch):
    """An empty folder lacks all four manifests, one holding only story-mlp the other three: one line names each."""
    from helpers import cli_error
    monkeypatch.setenv("COMPUTE_STORY_MODELS", str(tmp_path))
    line = cli_error(["check", "story"], capsys)
    assert line.startswith(f"error: {tmp_path}: the story-models folder lacks the manifests ")
    assert all(f"{name}.json" in line for name in MODELS)
    for suffix in (".safetensors", ".json"):
        (tmp_path / f"story-mlp{suffix}").write_bytes(b"{}")
    line = cli_error(["check", "story"], capsys)
    assert "story-mlp.json" not in line and all(f"{name}.json" in line for name in MODELS[1:])


@pytest.mark.parametrize("what", ["missing", "a file"])
def test_a_story_models_setting_that_is_no_folder_is_named_as_the_setting(tmp_path, capsys, monkeypatch, what):
    """COMPUTE_STORY_MODELS, the setting compute reads (no option of its own names the folder), is what the line
    blames for a folder that is not one."""
    from helpers import cli_error
    folder = tmp_path / "models"
    if what == "a file":
        folder.write_text("not a folder\n")
    monkeypatch.setenv("COMPUTE_STORY_MODELS", str(folder))
    line = cli_error(["check", "story"], capsys)
    assert line == (f"error: COMPUTE_STORY_MODELS: {folder} is not a folder (give the --out folder of python -m "
                    f"compute train story)")
