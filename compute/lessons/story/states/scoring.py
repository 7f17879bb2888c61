"""Probe scores of the story models in one checkpoint folder, on the splits of the corpus they were trained on.

Part III's own models (read from Part III's folder: an author's, or the published one) and the published models
trained with the relation families are scored by the same code: a `Scoring` names the folder and the checkpoint
whose manifest says which corpus the models were trained on."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import torch

from ....data.handwritten import Handwritten, read_handwritten
from ....data.story import Story
from ....kept import kept
from ....probes import ProbeResults, ProbeSet, covered, probe_set, run_probes, summary
from ....published.corpus import Corpus
from ....published.story import PART_THREE, Published, checkpoint_files, corpus_of, load, load_published, model_path

SPLITS = ("in-template", "held-out", "hand-written")


@lru_cache(maxsize=1)
def written_by_hand() -> tuple[Handwritten, ...]:
    """Every hand-written probe story (compute/data/handwritten_stories.txt), read once."""
    return tuple(read_handwritten())


@dataclass(frozen=True)
class Scoring:
    reader: str      # the folder: PART_THREE (Part III's) or PUBLISHED (compute.published.story)
    anchor: str      # the checkpoint whose manifest names the corpus and whose context the probes fit

    def corpus(self) -> Corpus:
        return corpus_of(model_path(self.anchor, self.reader))

    def load(self, name: str) -> Published:
        return load(name) if self.reader == PART_THREE else load_published(name)

    def splits(self) -> tuple[str, ...]:
        """The splits the models are scored on: a story file has no held-out template families."""
        return SPLITS if self.corpus().generated else tuple(s for s in SPLITS if s != "held-out")

    def handwritten(self) -> tuple[Handwritten, ...]:
        """The hand-written stories the models' vocabulary holds every word of: the ones scored. They were written
        in the generated corpus's words, so all of them there; models trained on a story file may lack some."""
        vocab = self.corpus().vocab
        return tuple(h for h in written_by_hand() if covered([h.story], vocab))

    def split_stories(self, split: str) -> list[Story]:
        """The validation stories of one split."""
        if split == "hand-written":
            return [h.story for h in self.handwritten()]
        data = self.corpus()
        return {"in-template": data.val, "held-out": data.held_out}[split]

    @lru_cache(maxsize=6)
    def probes(self, split: str) -> ProbeSet:
        return probe_set(self.split_stories(split), self.corpus().vocab, self.load(self.anchor).config.context)

    @lru_cache(maxsize=32)     # both folders' models on every split
    @kept(reads=lambda self, name, split: checkpoint_files(name, self.reader))
    def results(self, name: str, split: str) -> ProbeResults:
        """One pass of a model over every validation story of a split (kept on disk: compute.kept)."""
        torch.set_num_threads(2)
        return run_probes(self.load(name).model, self.probes(split), self.corpus().vocab)

    def scores(self, name: str, split: str) -> dict:
        """Loss and accuracies (by kind, by kind and distance, beyond 8, among mentioned) of one model."""
        return summary(self.probes(split), self.results(name, split))
