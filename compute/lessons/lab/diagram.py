"""The lab's one-head model as the site's transformer diagram (compute.present.diagram), from the configuration
the lab builds it with."""
from __future__ import annotations

from IPython.display import HTML

from ...present.diagram import block_figure, described
from .states.run import config


def block_diagram() -> HTML:
    cfg = config("one-head").decoder()
    return HTML(block_figure(cfg, f"The one-head model of this lab, drawn from its configuration: {described(cfg)}."))
