"""The generated corpus the story models were trained on, kept on disk once generated (compute.kept): its own
module, so that its key follows the story generator's code and not the checkpoint loaders'."""
from __future__ import annotations

from dataclasses import dataclass

from ..data.story import CorpusConfig, Story, corpus, corpus_sha256
from ..data.tokenizer import Vocabulary, build_vocabulary
from ..kept import kept


@dataclass(frozen=True)
class Corpus:
    train: list[Story]
    val: list[Story]         # validation stories of the trained template families
    held_out: list[Story]    # validation stories of the families no model trained on
    vocab: Vocabulary
    sha256: str


@kept()
def generated_corpus() -> Corpus:
    """The corpus generated from its seed (about 15 s on 2 cores; read back in about 3 s)."""
    cfg = CorpusConfig()
    train, val = corpus(cfg)
    return Corpus(train, val[:cfg.n_val], val[cfg.n_val:], build_vocabulary([s.tokens for s in train]),
                  corpus_sha256(train + val))
