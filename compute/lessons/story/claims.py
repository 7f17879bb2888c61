"""Part III's claims: each sentence the lesson says about the story models, checked with a tolerance.

The models, their training and their samples here; the heads in claims_heads.py, the held-out families and
the hand-written stories in claims_beyond.py, where the name head's write goes in claims_circuit.py; all of
them in one registry, STORY.
"""
from __future__ import annotations

import numpy as np

from ...claims import Outcome, Registry, at_least, at_most, both, room, trend
from ...says import Says
from ...strength import A_COIN, COPIES as COPYING, LEADS as LEADING, MATCHES, MOSTLY, NEAR_CHANCE as NEAR, SUDDENLY
from ...nn.attention import CausalSelfAttention
from ...probes import BUCKETS, bucket_label
from . import claims_beyond, claims_circuit, claims_heads
from ...published.story import MODELS, NAMES, load
from .states import evaluation as ev
from .states import heads, samples

STORY = Registry()
claim = STORY.claim

FOUR, ONE, MLP = NAMES["four-head"], NAMES["one-head"], NAMES["mlp"]
TRANSFORMERS = (ONE, FOUR)
LOSS_GAP = 0.05          # "clearly lower" validation loss, in nats per token
NEAR_CHANCE = NEAR.limit  # within this of chance counts as "near chance" (compute.strength: the site's meaning)
COPIES = COPYING.limit   # within-kind accuracy that counts as "copies"
COIN = A_COIN.limit      # among two mentioned names, at most one half + this is "no better than a coin"
AHEAD = 0.1              # "does better": at least this much higher accuracy
LEADS = LEADING.limit    # "leads": at least this much higher; "matches": within TIE
TIE = MATCHES.limit
SETTLED = 0.03           # a learning curve within this of its final value has settled
SHORT_STRETCH = 0.2      # "a short stretch of training": at most this share of the budget
SUDDEN = SUDDENLY.limit           # a rise of at least this between two neighbouring points of the curve
KEEPS_CAST = 0.3         # generation: share of samples, four-head ahead of both others by at least this
KEPT_MOSTLY = MOSTLY.limit       # "most of the time": a share of at least this
FEW_REPEATS = 0.25       # the MLP repeats an object in at most this share of the transformers' count of such samples
SPREAD = 0.3             # a head whose largest weight is below this spreads its weight
RECENT = 3               # "the last few words": the query's own position and the two before it
ROLE = 0.5               # attention mass on earlier mentions that makes a head "light up"


def _score(name: str, key: str) -> float:
    return ev.scores(name)[key]


@claim(Says("falls", "validation loss", ("the MLP", "the one-head model", "the four-head model"), by=LOSS_GAP,
            along=True, lower_is_better=True))
def loss_falls_with_attention_and_heads():
    mlp, one, four = (_score(n, "val_loss") for n in (MLP, ONE, FOUR))
    return both(at_least(mlp - one, LOSS_GAP, f"MLP {mlp:.4f}, one head {one:.4f}"),
                at_least(one - four, LOSS_GAP, f"four heads {four:.4f}"))


@claim(Says("at most", "accuracy on the right name and the right object beyond its window of 8 tokens", ("the MLP",),
            by=f"chance + {NEAR_CHANCE}", strength=NEAR))
def mlp_near_chance_beyond_its_window():
    return both(*(at_most(acc, chance + NEAR_CHANCE, f"{kind} {acc:.4f} (chance {chance:.4f})")
                  for kind in ("name", "object")
                  for acc, chance in [(_score(MLP, f"{kind} beyond 8"), ev.chances()[kind])]))


@claim(Says("at least", "accuracy on objects and colours", ("the one-head model",), by=COPIES, strength=COPYING))
def one_head_copies_objects_and_colours():
    obj, col = _score(ONE, "object"), _score(ONE, "colour")
    return both(at_least(obj, COPIES, f"object {obj:.4f}"), at_least(col, COPIES, f"colour {col:.4f}"))


@claim(Says("at most", "accuracy between two mentioned names", ("the MLP",), by=f"one half + {COIN}", strength=A_COIN))
def mlp_is_a_coin_between_two_names():
    acc = _score(MLP, "name among mentioned")
    return at_most(acc, 0.5 + COIN, f"MLP, right name of those mentioned: {acc:.4f}")


@claim((Says("greater", "accuracy between two mentioned names", ("the one-head model", "the MLP"), by=AHEAD),
        Says("at least", "accuracy between two mentioned names", ("the one-head model",), by="one half")))
def one_head_beats_a_coin_between_two_names():
    one, mlp = _score(ONE, "name among mentioned"), _score(MLP, "name among mentioned")
    return both(at_least(one - mlp, AHEAD, f"one head {one:.4f}, MLP {mlp:.4f}"), at_least(one, 0.5, "against 0.5"))


@claim((Says("greater", "accuracy between two mentioned names", ("the four-head model", "the one-head model", "the MLP"),
             by=AHEAD),
        Says("at most", "accuracy between two mentioned names", ("the four-head model",), by=0.8)))
def four_heads_name_the_friend():
    four, one, mlp = (_score(m, "name among mentioned") for m in (FOUR, ONE, MLP))
    return both(at_least(four - one, AHEAD, f"four heads {four:.4f}, one head {one:.4f}"),
                at_least(four - mlp, AHEAD, f"MLP {mlp:.4f}"),
                at_most(four, 0.8, "wrong at least one time in five"))


@claim((Says("greater", "accuracy on names, objects and places", ("the four-head model", "the one-head model"),
             by=LEADS, strength=LEADING),
        Says("equal", "colour accuracy", ("the four-head model", "the one-head model"), by=TIE, strength=MATCHES)))
def four_heads_lead_but_colours_tie():
    lead = {k: _score(FOUR, k) - _score(ONE, k) for k in ("name", "object", "place", "colour")}
    return both(*(at_least(lead[k], LEADS, f"{k} {lead[k]:+.4f}") for k in ("name", "object", "place")),
                at_most(abs(lead["colour"]), TIE, f"colour {lead['colour']:+.4f}"))


@claim(Says("rises", "object accuracy", ("the one-head model",), by=SUDDEN,
            over="at the largest step between two neighbouring points of its learning curve", strength=SUDDENLY))
def copying_appears_suddenly():
    j = ev.sudden_jump(ONE, "object")
    return at_least(j["rise"], SUDDEN, f"{j['before']:.3f} at {j['from_tokens']:,} tokens -> "
                                       f"{j['after']:.3f} at {j['to_tokens']:,}")


@claim((Says("at most", "object accuracy", ("the one-head model",), by=f"chance + {NEAR_CHANCE}",
             over="while it stays near chance, past the first point of its curve, for a while", strength=NEAR),
        Says("rises", "object accuracy", ("the one-head model",),
             over=f"then, and settles within {SETTLED} of its final value after at most {SHORT_STRETCH} of the budget "
                  "more"),
        Says("at least", "final object accuracy", ("the one-head model",), by=COPIES, strength=COPYING)))
def copying_is_learned_in_a_short_stretch():
    ph = ev.learning_phases(ONE, "object", NEAR_CHANCE, SETTLED)
    if not ph["flat_until"]:
        return Outcome(False, "the curve is not near chance past its first point")
    stretch = (ph["settled_at"] - ph["flat_until"]) / ph["budget"]
    return both(at_most(stretch, SHORT_STRETCH, f"near chance until {ph['flat_until']:,} tokens ({ph['last_flat']:.3f}), settled from "
                   f"{ph['settled_at']:,} (final {ph['final']:.3f}); the rise takes {stretch:.1%} of "
                   f"{ph['budget']:,} tokens"), at_least(ph["final"], COPIES, "final against copying"))


@claim((Says("at least", "name accuracy", ("the one-head model",), by=f"chance + {2 * NEAR_CHANCE}"),
        Says("less", "name accuracy", ("the one-head model", "the four-head model"), by=AHEAD)))
def one_head_learns_names_in_part():
    one, four, chance = _score(ONE, "name"), _score(FOUR, "name"), ev.chances()["name"]
    return both(at_least(one - chance, 2 * NEAR_CHANCE, f"one head {one:.4f}, chance {chance:.4f}"),
                at_least(four - one, AHEAD, f"four heads {four:.4f}"))


def _falls(models, kind: str, buckets: slice) -> Outcome:
    labels = [bucket_label(b) for b in BUCKETS][buckets]
    outs = {m: trend(ev.by_distance(m, kind)[buckets], labels, "falls") for m in models}
    return both(*(Outcome(o.holds, f"{m} {kind}: {o.evidence}", margin=o.margin) for m, o in outs.items()))


@claim(Says("falls", "colour accuracy", ("the one-head model", "the four-head model"),
            over="at every step from 1–8 tokens back to more than 64"))
def colours_fall_with_distance():
    return _falls(TRANSFORMERS, "colour", slice(None))


@claim(Says("falls", "name accuracy", ("the four-head model",), over="at every step from 1–8 tokens back to more than 64"))
def four_head_names_fall_with_distance():
    return _falls((FOUR,), "name", slice(None))


@claim(Says("falls", "object accuracy", ("the one-head model", "the four-head model"),
            over="at every step from 9–16 tokens back to 33–64"))
def objects_fall_from_9_to_64_tokens():
    return _falls(TRANSFORMERS, "object", slice(1, 4))


@claim(Says("at most", "the longest story's length in tokens, end-of-story marker included,",
            by="the transformers' context (it holds every story)"))
def context_holds_every_story():
    longest, context = ev.longest_story(), load(FOUR).config.context
    return at_most(longest, context, f"longest story {longest} tokens, context {context}")


@claim(Says("equal", "the parameter counts of attention with four heads and with one head of the same width", by=0,
            over="(splitting the width into heads costs no parameters)"))
def splitting_the_width_costs_nothing():
    model, d = load(FOUR).model, load(FOUR).config.d_model
    four = sum(p.numel() for p in model.blocks[0].attn.parameters())
    one = sum(p.numel() for p in CausalSelfAttention(d, 1, d, d, rope=True).parameters())
    return Outcome(four == one, f"{model.cfg.n_head} heads {four:,} parameters, one head of width {d} {one:,}")


@claim(Says("greater", "share of generated stories that keep their cast (no more names than a training story has)",
            ("the four-head model", "the one-head model", "the MLP"), by=KEEPS_CAST))
def four_heads_keep_their_cast():
    c = samples.all_counts()
    four = c["four-head"].cast_kept
    return both(*(at_least(four - c[k].cast_kept, KEEPS_CAST, f"{k} {c[k].cast_kept:.3f}") for k in MODELS[:2]),
                Outcome(True, f"four-head {four:.3f}"))


@claim((Says("smallest", "mean sample length in tokens", ("the MLP", "the one-head model", "the four-head model")),
        Says("largest", "count of distinct children each sample names, on average",
             ("the MLP", "the one-head model", "the four-head model")),
        Says("at least", "count of distinct children named per 100 tokens", ("the MLP",),
             by="twice the training stories'")))
def the_mlp_names_the_most_children_in_the_shortest_stories():
    c, train = samples.all_counts(), samples.training_names()
    mlp, others = c["mlp"], [c[k] for k in MODELS if k != "mlp"]
    ok = (all(mlp.mean_tokens < o.mean_tokens and mlp.mean_names > o.mean_names for o in others)
          and mlp.names_per_100 > 2 * train["names_per_100"])
    margin = min(*(room(mlp.mean_tokens, o.mean_tokens, above=False) for o in others),
                 *(room(mlp.mean_names, o.mean_names, above=True) for o in others),
                 room(mlp.names_per_100, 2 * train["names_per_100"], above=True))
    return Outcome(ok, margin=margin, evidence="; ".join(f"{k} {v.mean_tokens:.1f} tokens, {v.mean_names:.2f} names, {v.names_per_100:.2f} per 100"
                                 for k, v in c.items()) + f"; training {train['names_per_100']:.2f} per 100")


@claim((Says("at least", "share of the samples that repeat an object in which its colours are kept",
             ("the MLP", "the one-head model", "the four-head model"), by=KEPT_MOSTLY,
             over="(all three keep their objects' colours most of the time)", strength=MOSTLY),
        Says("largest", "share of those samples", ("the MLP", "the one-head model", "the four-head model")),
        Says("at most", "count of samples that repeat an object", ("the MLP",),
             by=f"{FEW_REPEATS} times either transformer's (it rarely repeats one)")))
def colours_kept_but_the_mlp_rarely_repeats():
    c = samples.all_counts()
    return both(*(at_least(v.colours_kept, KEPT_MOSTLY, f"{k}: colours {v.colours_kept:.3f} of {v.with_repeats} samples")
                  for k, v in c.items()),
                *(at_most(c["mlp"].with_repeats, FEW_REPEATS * c[k].with_repeats, f"MLP repeats against {k}")
                  for k in ("one-head", "four-head")),
                *(Outcome(c["mlp"].colours_kept > c[k].colours_kept, f"MLP's share against {k}",
                          margin=room(c["mlp"].colours_kept, c[k].colours_kept, above=True))
                  for k in ("one-head", "four-head")))


@claim(Says("none", "the generated samples", over="repeats a training story word for word"))
def samples_are_new():
    c = samples.all_counts()
    return Outcome(all(v.copied == 0 for v in c.values()), ", ".join(f"{k} {v.copied}" for k, v in c.items()))


@claim(Says("at least", "the share of name probes at which the four-head model ranks the right name first among "
            "names, less the share at which its single most likely word is the right name,", by=0.01,
            over="(plain top-1 undercounts it)"))
def top1_undercounts_names():
    t = ev.top1_at_names(FOUR)
    return at_least(t["within_kind"] - t["top1"], 0.01, f"top-1 {t['top1']:.4f}, within kind {t['within_kind']:.4f}")


@claim(Says("greater", "training tokens seen before accuracy passes one half, in the four-head model's learning "
            "curve,", ("the name probes", "the object probes"), over="(names come later)"))
def names_come_after_objects():
    def first_over_half(kind):
        return next((p["tokens"] for p in ev.learning_curve(FOUR) if (p.get(kind) or 0) >= 0.5), None)
    names, objects = first_over_half("name"), first_over_half("object")
    return Outcome(names is not None and objects is not None and names > objects,
                   f"objects pass 0.5 at {objects} tokens, names at {names}",
                   margin=room(names, objects, above=True) if names and objects else None)


@claim((Says("at least", "weight some head puts on the earlier mentions of the coming word, in the figure's story,",
             by=ROLE),
        Says("none", "the figure's query words", over=f"lacks a head that spreads its weight (no key above {SPREAD}) "
             f"or puts at least half on the last {RECENT} positions (at every query word some head does)")))
def the_shown_story_has_copying_and_other_heads():
    copying, others = [], []
    for q in heads.query_positions():
        st = heads.query_state(FOUR, q)
        z = st["z"]                                                   # (heads, keys)
        on_mentions = z[:, st["mentions"]].sum(1) if st["mentions"] else np.zeros(len(z))
        if on_mentions.max() >= ROLE:
            copying.append(q)
        others.append(bool(((z.max(1) < SPREAD) | (z[:, -RECENT:].sum(1) >= 0.5)).any()))
    return Outcome(bool(copying) and all(others),
                   f"copying at query positions {copying}; a spread or recent head at {sum(others)} of {len(others)}")


STORY.claims.update(claims_heads.HEADS.claims)    # what the heads do, and how that moves between seeds
STORY.claims.update(claims_beyond.BEYOND.claims)  # held-out families and hand-written stories
STORY.claims.update(claims_circuit.CIRCUIT.claims)  # where the name head's write goes


def check_all():
    return STORY.check_all()


def require_all(source: str | None = None) -> None:
    """ClaimError naming each claim that fails on the story models Part III reads (`source` names them)."""
    from ...store import checkpoint_dir, story_models_dir
    folder = story_models_dir()
    STORY.require_all(source=source or ("the published story models" if folder == checkpoint_dir()
                                        else f"the story models in {folder}"))
