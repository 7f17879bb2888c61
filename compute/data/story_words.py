"""The generated stories' words: names with genders, objects, colours, places, and the filler sentences."""
from __future__ import annotations

# Names that are not also ordinary words, so a name token always means a character.
GIRLS: tuple[str, ...] = (
    "lily", "sue", "mia", "anna", "lucy", "sara", "amy", "jill", "kate", "emma",
    "zoe", "ella", "ava", "mila", "nina", "lena", "tina", "clara", "julia", "maya",
    "hannah", "sophie", "alice", "molly", "katie", "lisa", "jane", "ellie", "lola", "nora",
)
BOYS: tuple[str, ...] = (
    "tom", "ben", "max", "tim", "sam", "jack", "bob", "leo", "joe", "dan",
    "finn", "jake", "luke", "noah", "liam", "owen", "adam", "eli", "ian", "oscar",
    "henry", "theo", "felix", "oliver", "hugo", "ryan", "kevin", "paul", "peter", "nick",
)
NAMES: tuple[str, ...] = GIRLS + BOYS
GENDER: dict[str, str] = {**{n: "f" for n in GIRLS}, **{n: "m" for n in BOYS}}

# No object starts with a vowel letter that sounds like a consonant (no "unicorn"),
# so "an" before a vowel letter is always right.
OBJECTS: tuple[str, ...] = (
    "ball", "kite", "doll", "hat", "cup", "car", "truck", "boat", "train", "book",
    "bag", "shoe", "scarf", "bucket", "drum", "bell", "crayon", "balloon", "blanket", "robot",
    "puzzle", "umbrella", "teapot", "spoon", "box", "bike", "whistle", "mitten", "basket", "apron",
)
COLOURS: tuple[str, ...] = (
    "red", "blue", "green", "yellow", "pink", "purple", "orange", "white", "black", "brown", "gray", "silver",
)
# Each place with the preposition a child would use for being there.
PLACE_PREPOSITIONS: dict[str, str] = {
    "park": "at", "garden": "in", "beach": "on", "forest": "in", "farm": "on",
    "zoo": "at", "lake": "by", "river": "by", "library": "at", "playground": "at",
    "market": "at", "yard": "in", "pond": "by", "hill": "on", "meadow": "in",
    "school": "at", "barn": "in", "field": "in", "shop": "at", "village": "in",
}
PLACES: tuple[str, ...] = tuple(PLACE_PREPOSITIONS)

# Words drawn afresh at each use, so templates vary; none is a name, object, colour or place.
LEXICON: dict[str, tuple[str, ...]] = {
    "sad": ("sad", "upset", "worried"),
    "happy": ("happy", "glad", "very happy"),
    "went": ("went", "walked", "ran"),
    "looked": ("looked", "searched"),
    "little": ("little", "small", "kind", "happy"),
    "size": ("big", "small", "old", "shiny", "new", "little"),
    "spot": ("under a bench", "behind a tree", "in the tall grass", "near a big rock",
             "under a bush", "next to a log", "by the fence", "under some leaves"),
    "day": ("One day", "One morning", "One sunny day", "One afternoon"),
}

# Sentences between the story's steps. They name no one and nothing of a probe kind,
# so the distance between two mentions can grow without changing what decides them.
ALONE_FILLERS: tuple[str, ...] = (
    "The sun was warm.",
    "A little bird sang in a tree.",
    "A bee buzzed past.",
    "The sky was bright and clear.",
    "Some leaves fell from the trees.",
    "A dog barked far away.",
    "The grass was soft.",
    "A butterfly flew by.",
    "The clouds moved slowly across the sky.",
    "It was a nice day.",
    "A small frog jumped into the water.",
    "The flowers smelled sweet.",
    "Two squirrels ran up a tree.",
    "The air was fresh and cool.",
    "It did not rain.",
    "It was still early.",
    "It was the first warm day of the year.",
)
# For gaps where the two children are together.
TOGETHER_FILLERS: tuple[str, ...] = (
    "They laughed and played.",
    "They ran and jumped.",
    "They sang a happy song.",
    "They were good friends.",
    "They sat down to rest for a while.",
    "They shared a snack and talked.",
    "They liked playing together.",
    "They spent some time there.",
    "They wanted to play more.",
    "\"We can go out again before dinner,\" they said.",
)
GAP_SIZES: tuple[int, ...] = (0, 0, 0, 0, 1, 1, 1, 2, 3, 4)  # filler sentences per gap, drawn uniformly
