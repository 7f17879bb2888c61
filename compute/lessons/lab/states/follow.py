"""One prediction followed through both models: a validation probe whose word was last said beyond the MLP's
window, what each model sees, where the head looks, and the two next-word distributions (shown by lab.followed)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ....probes import KIND_NAMES
from .run import LabRun, config, data, probes

KIND = "object"          # the followed probe's kind: the one-head model's skill in Part III
MAX_POSITION = 120       # keep the followed story short enough to read


@dataclass
class Case:
    story: int                     # validation story
    position: int                  # input position whose output predicts the word
    word: int                      # the right word's id
    distance: int                  # tokens back to its last mention
    tokens: list[str]              # the inputs up to the position: <eos>, then the story
    window: int                    # the MLP's window
    p_mlp: np.ndarray              # (vocab,) the MLP's next-word distribution
    p_head: np.ndarray             # (vocab,) the one-head model's
    attention: np.ndarray          # (position + 1,) the head's weights from the position

    @property
    def answer(self) -> str:
        return data().vocab.itos[self.word]

    @property
    def mentions(self) -> list[int]:
        """Input positions that hold the right word before the prediction."""
        return [i for i, t in enumerate(self.tokens) if t == self.answer]

    @property
    def on_mentions(self) -> float:
        """The head's attention weight on the earlier mentions of the right word, together."""
        return float(self.attention[self.mentions].sum())

    @property
    def window_start(self) -> int:
        return max(0, self.position - self.window + 1)


def candidates(mlp: LabRun, head: LabRun) -> np.ndarray:
    """Probes of the followed kind beyond the MLP's window, short stories first: where the head is right and
    the MLP wrong, else every such probe (a run where that never happens still gets a case)."""
    ps = probes()
    beyond = (ps.kind == KIND_NAMES.index(KIND)) & (ps.distance > config("mlp").window) & (ps.position <= MAX_POSITION)
    telling = beyond & head.results.within_kind & ~mlp.results.within_kind
    return np.flatnonzero(telling if telling.any() else beyond)


@torch.no_grad()
def follow(mlp: LabRun, head: LabRun, attention_fn) -> Case:
    """The first telling probe, both models run on its story; attention_fn(params, tokens) -> (logits, A)."""
    ps, vocab = probes(), data().vocab
    k = int(candidates(mlp, head)[0])
    s, pos = int(ps.story[k]), int(ps.position[k])
    x = ps.inputs[s:s + 1, :pos + 1]                                   # (1, pos + 1)
    _, A = attention_fn(head.params, x)
    p_mlp = torch.softmax(mlp.logits(x)[0, pos], -1).numpy()
    p_head = torch.softmax(head.logits(x)[0, pos], -1).numpy()
    return Case(s, pos, int(ps.word[k]), int(ps.distance[k]), [vocab.itos[i] for i in x[0].tolist()],
                config("mlp").window, p_mlp, p_head, A.reshape(-1, pos + 1)[-1].numpy())
