"""The corpus the story models were trained on: the generated one, kept on disk once generated (compute.kept),
or an author's story file, split as training split it. Its own module, so that the generated corpus's key follows
the story generator's code and not the checkpoint loaders'."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from ..data.story import CorpusConfig, Story, corpus, corpus_sha256, probes_for
from ..data.tokenizer import Vocabulary, build_vocabulary
from ..kept import kept

GENERATED = "generated"
RELATIONS = "generated with the relation families"   # CorpusConfig(relations=True): the story-*-relations models


@dataclass(frozen=True)
class Corpus:
    train: list[Story]
    val: list[Story]         # validation stories (of the trained template families, for the generated corpus)
    held_out: list[Story]    # validation stories of the families no model trained on (none for a story file)
    vocab: Vocabulary
    sha256: str
    source: str = GENERATED  # "generated", RELATIONS, or the story file's path

    @property
    def generated(self) -> bool:
        """Whether this is a generated corpus, with its template families (a story file has none)."""
        return self.source in (GENERATED, RELATIONS)


def file_corpus(path: Path) -> Corpus:
    """An author's story file as the models trained on it saw it: every 20th story held out for validation (a
    repeat of a training story dropped), the training text's vocabulary; each validation story probed at every
    repeat of a name, object, colour or place word (compute.data.story.probes_for), since a file marks none."""
    from ..data.story_file import file_data
    from ..data.tinystories import read_story_file
    from ..models.story import StoryModelConfig
    data, _ = file_data(path, read_story_file(path), StoryModelConfig.context)
    val = [replace(s, probes=probes_for(s.tokens)) for s in data.val]
    return Corpus(data.train, val, [], build_vocabulary([s.tokens for s in data.train]),
                  hashlib.sha256(Path(path).read_bytes()).hexdigest(), str(path))


@kept()
def generated_corpus(relations: bool = False) -> Corpus:
    """The corpus generated from its seed (about 15 s on 2 cores; read back in about 3 s); with `relations`, the
    one with the relation families too."""
    cfg = CorpusConfig(relations=relations)
    train, val = corpus(cfg)
    return Corpus(train, val[:cfg.n_val], val[cfg.n_val:], build_vocabulary([s.tokens for s in train]),
                  corpus_sha256(train + val), RELATIONS if relations else GENERATED)
