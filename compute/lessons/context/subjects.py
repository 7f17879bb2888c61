"""What Part 2B's sentences compare: the three ways of reading a context, and Part III's story models it times.

Read by the comparison audit (sitebuild.audit.coverage) in each claim's statement and each sentence bound to it.
"""
from __future__ import annotations

from ..story.subjects import MODELS, WHOLES as STORY_WHOLES

MIXERS = {
    "concatenation": ("concatenation", "concatenate", "concatenating", "concatenates"),
    "averaging": ("averaging", "average", "averages", "running sum"),
    "attention": ("attention", "attend", "attends"),
}
SUBJECTS = {"mixers": MIXERS, "models": MODELS}
WHOLES = {"three mixers": tuple(MIXERS), "of the three": tuple(MIXERS), "all three ways": tuple(MIXERS),
          **{k: v for k, v in STORY_WHOLES.items() if set(v) <= set(MODELS) and k != "all three"}}
