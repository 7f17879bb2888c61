"""Conditions: what a claim, and the sentences bound to it, need in order to apply at all.

Part III's held-out template families exist only in the generated stories; models trained on an author's story
file have none. A claim about them is declared with `only=GENERATED_STORIES`: on other models it is not checked
(and says why), and every sentence bound to it sits in a page block that is published only when the condition
holds, written

    :::{only} generated_stories
    ...
    :::

(sitebuild.audit.check holds every such sentence to its block; conf.py sets the tags of the conditions that hold, and
sitebuild.notebooks.write keeps or drops the block's text in the downloaded notebook the same way).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Condition:
    name: str                       # the page's tag: `{only} <name>` blocks hold its sentences
    holds: Callable[[], bool]
    otherwise: str                  # why a claim under it is not checked when it does not hold


def _generated_stories() -> bool:
    from .published.corpus import GENERATED, RELATIONS
    from .published.story import FOUR_HEAD, model_path, trained_on
    return trained_on(model_path(FOUR_HEAD)) in (GENERATED, RELATIONS)


GENERATED_STORIES = Condition("generated_stories", _generated_stories,
                              "Part III's story models were trained on a story file, which has no template families")
CONDITIONS: dict[str, Condition] = {c.name: c for c in (GENERATED_STORIES,)}


def holding() -> list[str]:
    """The names of the conditions that hold for this build's models."""
    return [name for name, c in CONDITIONS.items() if c.holds()]
