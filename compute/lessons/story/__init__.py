"""Part III, the story models: three models on generated stories, their probes, heads, samples and claims."""
from __future__ import annotations

from ..record import Lesson
from .subjects import SUBJECTS, WHOLES


def claim_results():
    """(heading, [(claim, outcome), ...]) for the published story models."""
    from ...store import story_models_dir
    from . import claims
    return [(f"the story models in {story_models_dir()} (story-*)", claims.check_all())]


def preflight() -> None:
    """Raise CheckpointError (one line) unless every published story checkpoint loads and fits its corpus.

    The claims need a pass over the validation stories with every model; the lesson checks them as its
    first cell (and `python -m compute check` does too), so the build does not run that pass twice."""
    from ...published.story import MODELS, NAMES, SECOND_SEED, require_story_models, verified, verified_published
    from .states.relations import NAMES as RELATIONS
    require_story_models()
    for name in [*(NAMES[k] for k in MODELS), SECOND_SEED]:
        verified(name)
    from ...conditions import GENERATED_STORIES
    if GENERATED_STORIES.holds():        # the relation models, always the published ones, are shown beside them
        for name in RELATIONS.values():
            verified_published(name)


def site_files() -> dict[str, bytes]:
    """The four-head model exported for the page's JavaScript (_static/models/)."""
    from .live import site_files as files
    return files()


def prose_values() -> dict[str, object]:
    """Every number and word the page's prose cites (glued by its first cell)."""
    from . import values
    return values.prose_values()


def widgets() -> dict:
    """The page's figures (compute.present.widgets.Widget), by name."""
    from ...present.widgets import widgets_in
    from . import comparison, heads, training
    return widgets_in(comparison, heads, training)


LESSON = Lesson(
    page="story-models", order=3, handout="Part III, the story models",
    does="""Part III: split attention into four heads, train three small models on
          the same children's stories, and measure where each one can look back,
          what they write, and what each head does {about}`method`.""",
    models="a window MLP, a one-head and a four-head transformer trained here on generated stories, and the four-head recipe from a second seed {about}`method`",
    objectives=(
        "Split one attention head into four heads of the same total width, and count what that costs "
        "{about}`method`.",
        "Train a window MLP, a one-head and a four-head transformer on one set of stories and read their "
        "learning curves.",
        "Measure how far back each model can use a word, with probes of four kinds at distances up to the whole "
        "story.",
        "Find what a head does by its attention and by silencing it, and generate stories with the model.",
    ),
    first="[the trained walkthrough](trained-walkthrough.md), or [Attention by hand](attention-by-hand.md) as far "
          "as its matrix form.",
    claim_results=claim_results, preflight=preflight, widgets=widgets, values=prose_values, site_files=site_files,
    subjects=SUBJECTS, wholes=WHOLES,
    # the generator's and the corpus's sizes (fixed by the generator's settings and its seed), the models' shapes,
    # the training recipe and the sampler's settings: chosen, not measured
    settings=("n_templates", "n_names", "n_objects", "n_colours", "n_places", "n_recalls", "n_train", "n_val",
              "train_tokens", "tokens_per_story", "n_held_families", "held_families", "n_held_out", "n_hand",
              "n_hand_probes", "n_hand_scored", "n_hand_probes_scored", "d_four", "heads_four", "layers_four", "ln_eps", "n_heads_total", "lr", "batch",
              "budget_millions", "weight_decay", "warmup", "lr_end", "window", "mlp_hidden", "context",
              "temperature", "topk_k", "n_samples", "cast_limit", "colour_limit", "role_stories", "second_seed",
              "d_one", "ln_d", "weights_mb", "n_relation_families", "rel_goal", "rel_four_millions", "story_file", "path_stories", "fed_most"),
)
