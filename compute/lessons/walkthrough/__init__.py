"""The trained-walkthrough lesson: the published checkpoint, its claims, tables, figures and prose values."""
from __future__ import annotations

from ..record import Lesson


def claim_results():
    """(heading, [(claim, outcome), ...]) for the published checkpoint: the selection claims, then the page's."""
    from ...store import checkpoint_path
    from . import claims
    from ...published.walkthrough import NAME, load

    wt = load(NAME)
    heading = (f"{checkpoint_path(NAME)} (seed {wt.manifest['seed']}, "
               f"final loss {wt.manifest['final_loss']:.6f})")
    return [(heading, claims.check_all(wt) + claims.check_page(wt))]


def preflight() -> None:
    """Raise CheckpointError or ClaimError (one line each) unless this lesson can be built."""
    from ...store import checkpoint_path
    from . import claims
    from ...published.walkthrough import ALTERNATIVE, NAME, load
    from .seeds import check_seed_record

    wt, alt = load(NAME), load(ALTERNATIVE)
    source = str(checkpoint_path(NAME))
    claims.WALKTHROUGH.require_all(wt, source=source)  # the checkpoint's own claims, before the record is read
    check_seed_record(int(wt.manifest["seed"]), int(alt.manifest["seed"]))
    claims.PAGE.require_all(wt, source=source)          # the page's claims read the record too


def prose_values() -> dict[str, object]:
    """Every number and word the page's prose cites, from the published checkpoint (glued by its first cell)."""
    from . import values
    return values.prose_values()


def site_files() -> dict[str, bytes]:
    """What the page's trainer fetches: its data and every recorded seed's initial weights (_static/train/)."""
    from .trainer import site_files as files
    return files()


def widgets() -> dict:
    """The page's figures (compute.present.widgets.Widget), by name."""
    from ...present.widgets import widgets_in
    from . import figures
    return widgets_in(figures)


LESSON = Lesson(
    page="trained-walkthrough", order=2, handout="the trained walkthrough",
    does="""Follow one trained one-layer transformer through a sentence, with every
          matrix printed, and see what other training runs learned instead {about}`method`.""",
    models="a one-layer, one-head transformer trained here, one from another seed, and the record of a seed search {about}`method`",
    objectives=(
        "Follow a trained one-layer transformer through a sentence, from E and P to the next-word distribution.",
        "Read the matrices Q, K, S, A, V and Z of a trained head and find which earlier word each row reads.",
        "Explain why softmax subtracts the largest score before exp, and what the causal mask does to A "
        "{about}`method`.",
        "Compare what training runs from other seeds learned, and say why each run still predicts the same words "
        "{claim}`converged_seeds_answer_in_several_ways`.",
    ),
    first="[Attention by hand](attention-by-hand.md) as far as its causal mask: queries, keys, values, scaling "
          "and the mask.",
    claim_results=claim_results, preflight=preflight, widgets=widgets, values=prose_values,
    settings=("seed", "d_model", "d_k"),
    site_files=site_files,
)
