"""The hand-written probe stories: the file loads, every mark is a fair probe, every word is
one the story models know, and no story copies the generator."""
from collections import Counter

import pytest

from compute.data.handwritten import PATH, read_handwritten
from compute.data.story import KIND_OF, KINDS, Probe
from compute.data.tokenizer import build_vocabulary, words
from compute.published.story import story_corpus


@pytest.fixture(scope="module")
def stories():
    return read_handwritten()


@pytest.fixture(scope="module")
def train():
    """The generated training stories (the default corpus, made once per test process)."""
    return story_corpus().train


def test_the_file_has_48_stories_and_12_probes_of_each_kind_in_12_stories(stories):
    assert len(stories) >= 48
    assert len({h.number for h in stories}) == len(stories)
    assert all(h.title for h in stories)
    probes = Counter(p.kind for h in stories for p in h.story.probes)
    with_kind = Counter(kind for h in stories for kind in {p.kind for p in h.story.probes})
    for kind in KINDS:
        assert probes[kind] >= 12, kind
        assert with_kind[kind] >= 12, kind


def test_stories_are_short_and_their_text_has_no_marks(stories):
    for h in stories:
        n_words = sum(t[0].isalpha() for t in h.story.tokens)
        assert 40 <= n_words <= 150, (h.number, n_words)
        assert not set("[|]") & set(h.story.text), h.number
        assert h.story.tokens == tuple(words(h.story.text)), h.number


def test_every_word_is_in_the_training_vocabulary(stories, train):
    vocab = set(build_vocabulary(s.tokens for s in train).itos)
    unknown = {h.number: sorted(set(h.story.tokens) - vocab) for h in stories}
    assert not {n: ws for n, ws in unknown.items() if ws}


def test_every_probe_is_its_word_again_sourced_at_the_nearest_earlier_mention(stories):
    for h in stories:
        tokens = h.story.tokens
        for p in h.story.probes:
            word = tokens[p.target]
            assert KIND_OF[word] == p.kind, (h.number, word)
            assert 0 <= p.source < p.target and tokens[p.source] == word, (h.number, word)
            assert word not in tokens[p.source + 1:p.target], (h.number, word)
            assert p.candidates == len({t for t in tokens[:p.target] if KIND_OF.get(t) == p.kind})
            assert p.candidates >= 1


def test_distances_vary_from_a_few_tokens_to_beyond_32(stories):
    distances = [p.distance for h in stories for p in h.story.probes]
    assert sum(d <= 8 for d in distances) >= 5
    assert sum(d > 8 for d in distances) >= len(distances) / 2
    assert sum(d > 32 for d in distances) >= 40


def test_no_story_repeats_a_generated_sentence_of_8_words(stories, train):
    """Crude check that the stories were not made by the generator: no training sentence of
    8 or more words (quotes aside) occurs word for word in a hand-written story."""
    sentences, sentence = set(), []
    for s in train[:5000]:
        for t in s.tokens:
            if t != '"':
                sentence.append(t)
            if t in ".!?":
                if sum(w[0].isalpha() for w in sentence) >= 8:
                    sentences.add(tuple(sentence))
                sentence = []
    longest = max(map(len, sentences))
    for h in stories:
        t = [w for w in h.story.tokens if w != '"']
        copied = [" ".join(t[i:j]) for i in range(len(t)) for j in range(i + 8, min(i + longest, len(t)) + 1)
                  if tuple(t[i:j]) in sentences]
        assert not copied, (h.number, copied)


def _write(tmp_path, body: str):
    path = tmp_path / "stories.txt"
    path.write_text("# a comment\n\n" + body, encoding="utf-8")
    return path


def test_a_small_file_loads_with_its_probes(tmp_path):
    path = _write(tmp_path, "## 7. A test\nMia had a red ball, and Tom had a kite.\n"
                            "Tom gave the [kite|object] to [Mia|name]'s mom.\n")
    (h,) = read_handwritten(path)
    assert (h.number, h.title) == (7, "A test")
    assert h.story.text == "Mia had a red ball, and Tom had a kite. Tom gave the kite to Mia's mom."
    tokens = h.story.tokens
    assert tokens[15] == "kite" and tokens[17] == "mia" and tokens[18] == "'s"
    assert h.story.probes == (Probe(15, 10, "object", 2), Probe(17, 0, "name", 2))


@pytest.mark.parametrize("story, word", [
    ("[Mia|name] had a ball. Mia ran.", "Mia"),                 # the mark is the first mention
    ("Tom had a ball. Mia ran to the [ball|place].", "ball"),   # an object marked as a place
    ("Mia had a ball. Then [Mia|person] ran.", "Mia"),          # not a kind
    ("Mia had a ball. Then [Mia] ran.", "[Mia]"),               # not [word|kind]
])
def test_a_bad_mark_stops_the_loader_naming_file_story_and_word(tmp_path, story, word):
    path = _write(tmp_path, f"## 1. Good\nMia had a ball. [Mia|name] ran.\n\n## 2. Bad\n{story}\n")
    with pytest.raises(ValueError) as err:
        read_handwritten(path)
    message = str(err.value)
    assert str(path) in message and "story 2" in message and word in message


def test_the_default_file_is_in_the_repository():
    assert PATH.is_file() and PATH.parent.name == "data"
