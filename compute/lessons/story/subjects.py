"""What Part III's sentences compare: its three models and the four kinds of probe, with their spellings.

The comparison audit reads a claim's statement and each sentence bound to it for these names
(sitebuild.audit.coverage): a sentence about the four-head model rests on claims that name it, and a sentence that
names no model speaks of all three.
"""
from __future__ import annotations

MODELS = {
    "MLP": ("MLP", "MLPs", "window MLP", "MLP window"),
    "one-head": ("one-head", "one head model", "one-head model", "1 layer × 1 head", "single-head"),
    "four-head": ("four-head", "four-head model", "2 layers × 4 heads"),
}
# plural, or with what is measured of it: "the name head" is a head, not the kind
KINDS = {kind: (kind, *(f"{kind[:-1]} {what}" for what in ("accuracy", "probes", "probe", "copying")))
         for kind in ("names", "objects", "colours", "places")}
# "names" is a verb too ("each names four children"): the kind is named by what is measured of it
KINDS["names"] = (*KINDS["names"][1:], "friend's name", "friend’s name", "mentioned names", "two names", "its names",
                  "on names")
SUBJECTS = {"models": MODELS, "kinds": KINDS}
WHOLES = {
    "transformers": ("one-head", "four-head"), "both transformers": ("one-head", "four-head"),
    "the two transformers": ("one-head", "four-head"), "attention models": ("one-head", "four-head"),
    "three models": ("MLP", "one-head", "four-head"), "all three": ("MLP", "one-head", "four-head"),
    "every kind": ("names", "objects", "colours", "places"), "all four kinds": ("names", "objects", "colours", "places"),
    "each kind": ("names", "objects", "colours", "places"), "every probe kind": ("names", "objects", "colours", "places"),
}
