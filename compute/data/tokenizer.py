"""Word tokens: text to lower-case words and punctuation, and words to vocabulary ids and back."""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

EOS = "<eos>"  # separates stories in the training stream
UNK = "<unk>"  # any word the vocabulary has not seen

# Curly quotes are common in real stories; they mean the same as the straight ones.
_SAME = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_LETTERS = r"[^\W\d_]+"  # a run of letters (any alphabet), no digits or underscores
_TOKEN = re.compile(rf"{_LETTERS}(?:'{_LETTERS})*|[.,!?\"]")


def _lower(text: str) -> str:
    return text.lower().translate(_SAME)


def _letters_only(text: str) -> str:
    """Every number-like character that is not a digit (², ½, Ⅻ) made a space, length kept: Python's word
    characters include them, a letter (Unicode's L, as the page's tokenizer reads it) is none of them.
    An ASCII text is returned as it is: its only such characters are the digits, which _TOKEN never matches
    either (a story corpus is read 12 times faster)."""
    if text.isascii():
        return text
    return "".join(" " if c.isalnum() and not c.isalpha() else c for c in text)


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
    >>> words('x² and ½ cup')
    ['x', 'and', 'cup']
    """
    text = _letters_only(_lower(text))
    found = _TOKEN.findall(text)
    if "'s" not in text:
        return found                         # no token ends in 's: nothing to split
    tokens = []
    for token in found:
        if len(token) > 2 and token.endswith("'s"):
            tokens.extend((token[:-2], "'s"))
        else:
            tokens.append(token)
    return tokens


ZWJ = "\u200d"


def _continues(cluster: str, c: str) -> bool:
    """Whether `c` belongs to the character shown as `cluster`: a mark or a format character (an accent, a
    variation selector), a skin tone, a tag (a flag of England), what follows a joiner (👩‍👧), a flag's second
    letter. The page's tokenizer groups the same way (_static/generate/text.js)."""
    n = ord(c)
    regional = lambda ch: 0x1F1E6 <= ord(ch) <= 0x1F1FF
    return (unicodedata.category(c)[0] == "M" or unicodedata.category(c) == "Cf" or 0x1F3FB <= n <= 0x1F3FF
            or 0xE0020 <= n <= 0xE007F or cluster.endswith(ZWJ)
            or (len(cluster) == 1 and regional(cluster) and regional(c)))


def dropped(text: str) -> list[str]:
    """What words() reads past (digits, emoji, symbols), each once, in the order they first appear, each as one
    character is shown: an emoji with its skin tone or its joined people, a flag; marks and format characters
    on a letter that is read go with it.

    >>> dropped("3 cats 🙂, 12 dogs & x²! 👍🏽")
    ['3', '🙂', '1', '2', '&', '²', '👍🏽']
    """
    lower = _lower(text)
    read = set()
    for m in _TOKEN.finditer(_letters_only(lower)):
        read.update(range(*m.span()))
    clusters: list[str] = []
    for i, c in enumerate(lower):
        if i in read or c.isspace():
            clusters.append("")                                   # a read word or a space ends a character
        elif clusters and clusters[-1] and _continues(clusters[-1], c):
            clusters[-1] += c
        else:
            clusters.append(c)
    marks_only = lambda k: all(unicodedata.category(c)[0] == "M" or unicodedata.category(c) == "Cf" for c in k)
    return list(dict.fromkeys(k for k in clusters if k and not marks_only(k)))


HUGS_LEFT = (".", ",", "!", "?", "'s")  # printed without a space before them


def readable(tokens: Sequence[str], proper: Collection[str] = ()) -> list[tuple[str, str]]:
    """(space before, word as printed) for each token: words() undone, up to capitals and spacing.

    Sentences and quoted speech start with a capital, as do `proper` words (names) and "i";
    punctuation and a possessive 's hug the word before; quotes open and close in turn.

    >>> print("".join(a + b for a, b in readable(words('"i miss lily," said tom. lily smiled!'), {"lily", "tom"})))
    "I miss Lily," said Tom. Lily smiled!
    """
    out, start, inside = [], True, False
    for i, t in enumerate(tokens):
        after_open = i > 0 and tokens[i - 1] == '"' and inside
        if t == '"':
            space = "" if i == 0 or inside else " "   # a closing quote hugs the speech
            inside = not inside
            # Speech starts with a capital; after it, a full stop inside the quotes ends the sentence,
            # while "!" or "?" usually runs on ('"Thank you!" said Leo.').
            start = inside or (i > 0 and tokens[i - 1] == ".")
            out.append((space, t))
            continue
        space = "" if i == 0 or after_open or t in HUGS_LEFT else " "
        capital = (start and t[0].isalpha()) or t in proper or t == "i"
        out.append((space, t.capitalize() if capital else t))
        start = t in (".", "!", "?")
    return out


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
        get = self._stoi.get                 # index() inlined: a corpus encodes millions of tokens
        return [get(w, 1) for w in tokens]

    def prompt(self, text: str) -> list[int]:
        """The ids a story model reads for a prompt: <eos> (where every story starts), then the text's words
        (`words`), each word the vocabulary lacks as <unk>."""
        return [self.index(EOS), *self.encode(words(text))]

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
