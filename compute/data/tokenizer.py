"""Word tokens: text to lower-case words and punctuation, and words to vocabulary ids and back."""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

EOS = "<eos>"  # separates stories in the training stream
UNK = "<unk>"  # any word the vocabulary has not seen

# Curly quotes are common in real stories; they mean the same as the straight ones.
_SAME = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_LETTERS = r"[^\W\d_]+"  # a run of letters (any alphabet), no digits or underscores
_TOKEN = re.compile(rf"{_LETTERS}(?:'{_LETTERS})*|[.,!?\"]")


def words(text: str) -> list[str]:
    """Lower-case word and punctuation tokens of a text.

    A word is a run of letters that may hold inner apostrophes, so contractions
    stay whole. A trailing possessive 's is split off, so a name is the same token
    whether or not it owns something (else "lily's" would be a second word for Lily).
    Each of . , ! ? " is a token of its own; everything else is dropped.

    >>> words('Lily\u2019s red ball didn\u2019t bounce!')
    ['lily', "'s", 'red', 'ball', "didn't", 'bounce', '!']
    >>> words('"Let\\'s go," said Tom.')
    ['"', 'let', "'s", 'go', ',', '"', 'said', 'tom', '.']
    >>> words('Ice-cream: 3 scoops; yum...')
    ['ice', 'cream', 'scoops', 'yum', '.', '.', '.']
    """
    tokens = []
    for token in _TOKEN.findall(text.lower().translate(_SAME)):
        if len(token) > 2 and token.endswith("'s"):
            tokens.extend((token[:-2], "'s"))
        else:
            tokens.append(token)
    return tokens


@dataclass(frozen=True)
class Vocabulary:
    """The words a model knows: index 0 is EOS, 1 is UNK, then the words."""
    itos: tuple[str, ...]
    _stoi: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.itos[:2] != (EOS, UNK):
            raise ValueError(f"a vocabulary starts with {EOS!r} and {UNK!r}, not {self.itos[:2]}")
        if len(set(self.itos)) != len(self.itos):
            raise ValueError("a vocabulary lists each word once")
        object.__setattr__(self, "_stoi", {w: i for i, w in enumerate(self.itos)})

    def __len__(self) -> int:
        return len(self.itos)

    def index(self, word: str) -> int:
        """The id of a word; UNK's id for a word the vocabulary lacks."""
        return self._stoi.get(word, 1)

    def encode(self, tokens: Iterable[str]) -> list[int]:
        """Ids of the tokens; unknown words become UNK."""
        return [self.index(w) for w in tokens]

    def decode(self, ids: Iterable[int]) -> list[str]:
        """Tokens of the ids."""
        return [self.itos[i] for i in ids]

    def sha256(self) -> str:
        """sha256 of the word list, for checkpoint manifests."""
        return hashlib.sha256(json.dumps(self.itos).encode()).hexdigest()


def build_vocabulary(token_lists: Iterable[Sequence[str]]) -> Vocabulary:
    """Every word that occurs, most frequent first, ties in alphabetical order."""
    counts = Counter(w for tokens in token_lists for w in tokens if w not in (EOS, UNK))
    ordered = sorted(counts, key=lambda w: (-counts[w], w))
    return Vocabulary((EOS, UNK, *ordered))
