"""Part III's claims: each sentence the lesson says about the story models, checked with a tolerance."""
from __future__ import annotations

import numpy as np

from ...claims import Outcome, Registry, trend
from ...nn.attention import CausalSelfAttention
from ...probes import BUCKETS, KIND_NAMES, bucket_label
from .published import SECOND_SEED, load
from .states import evaluation as ev
from .states import heads, samples

STORY = Registry()
claim = STORY.claim

FOUR, ONE, MLP = "story-four-head", "story-one-head", "story-mlp"
LOSS_GAP = 0.05          # "clearly lower" validation loss, in nats per token
NEAR_CHANCE = 0.05       # within this of chance counts as "near chance"
COPIES = 0.7             # within-kind accuracy that counts as "copies"
COIN = 0.05              # among two mentioned names, within this of one half is "no better than a coin"
BEATS_COIN = 0.1         # ... and at least this above one half (and above the MLP) is "better than a coin"
SETTLED = 0.03           # a learning curve within this of its final value has settled
SHORT_STRETCH = 0.2      # "a short stretch of training": at most this share of the budget
WIDE_MARGIN = 0.25       # "by a wide margin"
SUDDEN = 0.3             # a rise of at least this between two neighbouring points of the curve
ROLE = 0.5               # attention mass on earlier mentions that makes a head's role
KNOCKOUT_DROP = 0.5      # accuracy lost when the head with that role is zeroed
SHARED = 0.2             # no single head's knock-out costs more than this: a shared job
KEEPS_CAST = 0.3         # generation: share of samples, four-head ahead of both others by at least this
GLANCE = 0.2             # less than this on earlier mentions: the head does not look at them
ONE_HEAD_DOES_IT = 2.0   # "one head does the looking": its weight at least this many times any other head's
SPREAD = 0.3             # a head whose largest weight is below this spreads its weight
RECENT = 3               # "the last few words": the query's own position and the two before it
TRANSFORMERS = (ONE, FOUR)
LOOKING_KINDS = ("name", "colour")  # kinds whose needed head is also the one that looks back at the word


def _score(name: str, key: str) -> float:
    return ev.scores(name)[key]


def load_config(name: str):
    return load(name).config


@claim(f"Validation loss falls from the MLP to the one-head to the four-head model, each step by at least {LOSS_GAP}.")
def loss_falls_with_attention_and_heads():
    mlp, one, four = (_score(n, "val_loss") for n in (MLP, ONE, FOUR))
    return Outcome(mlp - one >= LOSS_GAP and one - four >= LOSS_GAP,
                   f"MLP {mlp:.4f}, one head {one:.4f}, four heads {four:.4f}")


@claim(f"Beyond its window of 8 tokens the MLP names the right name and object no better than chance + {NEAR_CHANCE}.")
def mlp_near_chance_beyond_its_window():
    parts, ok = [], True
    for kind in ("name", "object"):
        acc, chance = _score(MLP, f"{kind} beyond 8"), ev.chances()[kind]
        ok &= acc <= chance + NEAR_CHANCE
        parts.append(f"{kind} {acc:.4f} (chance {chance:.4f})")
    return Outcome(ok, ", ".join(parts))


@claim(f"The one-head model copies objects and colours (within-kind accuracy at least {COPIES}).")
def one_head_copies_objects_and_colours():
    obj, col = _score(ONE, "object"), _score(ONE, "colour")
    return Outcome(obj >= COPIES and col >= COPIES, f"object {obj:.4f}, colour {col:.4f}")


@claim(f"Between two mentioned names the MLP is no better than a coin (within {COIN} of one half).")
def mlp_is_a_coin_between_two_names():
    acc = _score(MLP, "name among mentioned")
    return Outcome(abs(acc - 0.5) <= COIN, f"MLP, right name of those mentioned: {acc:.4f}")


@claim(f"Between two mentioned names the one-head model beats a coin and the MLP by at least {BEATS_COIN}.")
def one_head_beats_a_coin_between_two_names():
    one, mlp = _score(ONE, "name among mentioned"), _score(MLP, "name among mentioned")
    return Outcome(one - 0.5 >= BEATS_COIN and one - mlp >= BEATS_COIN, f"one head {one:.4f}, MLP {mlp:.4f}")


@claim(f"The four-head model picks the right one of two mentioned names at least {WIDE_MARGIN} more often than the one-head.")
def four_heads_name_the_friend():
    four, one = _score(FOUR, "name among mentioned"), _score(ONE, "name among mentioned")
    return Outcome(four - one >= WIDE_MARGIN, f"four heads {four:.4f}, one head {one:.4f}")


@claim(f"Copying appears suddenly: the one-head model's object accuracy rises by at least {SUDDEN} "
       "between two neighbouring points of its learning curve.")
def copying_appears_suddenly():
    j = ev.sudden_jump(ONE, "object")
    return Outcome(j["rise"] >= SUDDEN, f"{j['before']:.3f} at {j['from_tokens']:,} tokens -> "
                                        f"{j['after']:.3f} at {j['to_tokens']:,}")


@claim(f"The one-head model's object accuracy stays near chance (within {NEAR_CHANCE}) for at least a tenth of "
       f"its budget, then settles within {SETTLED} of its final value after at most {SHORT_STRETCH} of the budget more.")
def copying_is_learned_in_a_short_stretch():
    ph = ev.learning_phases(ONE, "object", NEAR_CHANCE, SETTLED)
    if ph["flat_until"] is None:
        return Outcome(False, "the first point of the curve is not near chance")
    stretch = (ph["settled_at"] - ph["flat_until"]) / ph["budget"]
    return Outcome(ph["flat_until"] >= 0.1 * ph["budget"] and stretch <= SHORT_STRETCH,
                   f"near chance until {ph['flat_until']:,} tokens ({ph['last_flat']:.3f}), settled from "
                   f"{ph['settled_at']:,} (final {ph['final']:.3f}); the rise takes {stretch:.1%} of "
                   f"{ph['budget']:,} tokens")


@claim(f"The one-head model learns names only in part: its name accuracy is at least {2 * NEAR_CHANCE} above "
       f"chance and at least {WIDE_MARGIN} below the four-head model's.")
def one_head_learns_names_in_part():
    one, four, chance = _score(ONE, "name"), _score(FOUR, "name"), ev.chances()["name"]
    return Outcome(one - chance >= 2 * NEAR_CHANCE and four - one >= WIDE_MARGIN,
                   f"one head {one:.4f}, four heads {four:.4f}, chance {chance:.4f}")


@claim("For both transformers, object and colour accuracy falls at every step from the nearest distance group to "
       "33–64 tokens back.")
def objects_and_colours_fall_with_distance():
    labels = [bucket_label(b) for b in BUCKETS[:-1]]
    parts, ok = [], True
    for m in TRANSFORMERS:
        for kind in ("object", "colour"):
            out = trend(ev.by_distance(m, kind)[:-1], labels, "falls")
            ok &= out.holds
            parts.append(f"{m} {kind}: {out.evidence}")
    return Outcome(ok, "; ".join(parts))


FAR_RISES = ((ONE, "object"), (FOUR, "object"), (FOUR, "colour"))  # where the last column is above 33–64


@claim("Beyond 64 tokens, the group with the fewest object and colour probes, the fall stops for objects in both "
       "transformers and for the four-head model's colours: accuracy there is above that at 33–64 tokens.")
def the_fall_stops_beyond_64_tokens():
    counts = {k: ev.distance_counts(k) for k in ("object", "colour")}
    fewest = all(c[-1] == min(c) for c in counts.values())
    parts, ok = [], fewest
    for m, kind in FAR_RISES:
        near, far = ev.by_distance(m, kind)[-2:]
        ok &= far > near
        parts.append(f"{m} {kind} {near:.3f} -> {far:.3f}")
    return Outcome(ok, "; ".join(parts) + f"; probes by distance {counts}")


@claim("The story models' context holds the longest story, end-of-story marker included.")
def context_holds_every_story():
    longest, context = ev.longest_story(), load_config(FOUR).context
    return Outcome(longest <= context, f"longest story {longest} tokens, context {context}")


@claim("Splitting the width into heads costs no parameters: the four-head attention has as many as one head of the "
       "same width.")
def splitting_the_width_costs_nothing():
    model, d = load(FOUR).model, load_config(FOUR).d_model
    four = sum(p.numel() for p in model.blocks[0].attn.parameters())
    one = sum(p.numel() for p in CausalSelfAttention(d, 1, d, d, rope=True).parameters())
    return Outcome(four == one, f"{model.cfg.n_head} heads {four:,} parameters, one head of width {d} {one:,}")


@claim(f"For names and colours one head puts at least {ROLE} of its attention on earlier mentions of the right "
       f"word, and zeroing that same head costs at least {KNOCKOUT_DROP} of that kind's accuracy.")
def looking_heads_are_the_needed_heads():
    mass, look, need = heads.mention_mass(FOUR)["mass"], heads.looks(FOUR), heads.needed(FOUR)
    parts, ok = [], True
    for kind in LOOKING_KINDS:
        (layer, head), k = look[kind], KIND_NAMES.index(kind)
        d = heads.drop(FOUR, kind, look[kind])
        ok &= mass[layer, head, k] >= ROLE and d >= KNOCKOUT_DROP and need[kind] == look[kind]
        parts.append(f"{kind}: looks L{layer + 1} H{head + 1} ({mass[layer, head, k]:.3f}), knock-out drop {d:.3f}, "
                     f"most needed L{need[kind][0] + 1} H{need[kind][1] + 1}")
    return Outcome(ok, "; ".join(parts))


@claim(f"Places need one head too (its knock-out costs at least {KNOCKOUT_DROP}), but that head puts less than "
       f"{GLANCE} of its weight on earlier place words: it finds the place another way.")
def the_place_head_does_not_look_at_places():
    (layer, head), k = heads.needed(FOUR)["place"], KIND_NAMES.index("place")
    mass, d = heads.mention_mass(FOUR)["mass"][layer, head, k], heads.drop(FOUR, "place", (layer, head))
    return Outcome(d >= KNOCKOUT_DROP and mass < GLANCE,
                   f"L{layer + 1} H{head + 1}: knock-out drop {d:.3f}, weight on earlier places {mass:.3f}")


@claim(f"Object copying is shared: no single head's knock-out costs more than {SHARED} of object accuracy.")
def object_copying_is_shared():
    ko = heads.knockouts(FOUR)
    worst = max((ko["all heads"]["object"] - v["object"], k) for k, v in ko.items() if k != "all heads")
    return Outcome(worst[0] <= SHARED, f"largest drop {worst[0]:.3f} (L{worst[1][0] + 1} H{worst[1][1] + 1})")


@claim(f"In the second seed, too, one head each puts at least {ROLE} on earlier names and earlier colours.")
def roles_exist_in_the_second_seed():
    mass, look = heads.mention_mass(SECOND_SEED)["mass"], heads.looks(SECOND_SEED)
    found = {k: mass[look[k][0], look[k][1], KIND_NAMES.index(k)] for k in LOOKING_KINDS}
    return Outcome(all(m >= ROLE for m in found.values()),
                   ", ".join(f"{k} L{look[k][0] + 1} H{look[k][1] + 1} {m:.3f}" for k, m in found.items()))


@claim(f"In generated stories the four-head model keeps its cast (at most two names) and its objects' colours more "
       f"often than both other models, by at least {KEEPS_CAST}.")
def four_heads_keep_the_story_together():
    c = samples.all_counts()
    four = c["four-head"]
    ok = all(four.at_most_two_names - c[k].at_most_two_names >= KEEPS_CAST
             and four.colours_kept - c[k].colours_kept >= KEEPS_CAST for k in ("mlp", "one-head"))
    return Outcome(ok, "; ".join(f"{k}: two names {v.at_most_two_names:.3f}, colours {v.colours_kept:.3f}"
                                 for k, v in c.items()))


@claim("No generated sample repeats a training story word for word.")
def samples_are_new():
    c = samples.all_counts()
    return Outcome(all(v.copied == 0 for v in c.values()), ", ".join(f"{k} {v.copied}" for k, v in c.items()))


@claim("At name probes the four-head model's single most likely word is the right name less often than it ranks "
       "the right name first among names (plain top-1 undercounts it).")
def top1_undercounts_names():
    t = ev.top1_at_names(FOUR)
    return Outcome(t["within_kind"] - t["top1"] >= 0.01, f"top-1 {t['top1']:.4f}, within kind {t['within_kind']:.4f}")


@claim("In the four-head model's learning curve, names pass one half later than objects do.")
def names_come_after_objects():
    def first_over_half(kind):
        return next((p["tokens"] for p in ev.learning_curve(FOUR) if (p.get(kind) or 0) >= 0.5), None)
    names, objects = first_over_half("name"), first_over_half("object")
    return Outcome(names is not None and objects is not None and names > objects,
                   f"objects pass 0.5 at {objects} tokens, names at {names}")


@claim("The four-head model's name head sits in its second layer.")
def name_head_in_second_layer():
    layer, head = heads.looks(FOUR)["name"]
    return Outcome(layer == 1, f"name head L{layer + 1} H{head + 1}")


@claim(f"For names and for colours one head does the looking: at least {ROLE} of its weight on earlier mentions, "
       f"and at least {ONE_HEAD_DOES_IT} times any other head's.")
def one_head_each_looks_at_names_and_colours():
    mass = heads.mention_mass(FOUR)["mass"]
    parts, ok = [], True
    for kind in LOOKING_KINDS:
        m = np.sort(mass[:, :, KIND_NAMES.index(kind)].ravel())[::-1]
        ok &= m[0] >= ROLE and m[0] >= ONE_HEAD_DOES_IT * m[1]
        parts.append(f"{kind}: largest {m[0]:.3f}, next {m[1]:.3f}")
    return Outcome(ok, "; ".join(parts))


@claim(f"Several first-layer heads (at least two) put at least {ROLE} of their weight on earlier objects.")
def several_first_layer_heads_look_at_objects():
    m = heads.mention_mass(FOUR)["mass"][0, :, KIND_NAMES.index("object")]
    return Outcome(int((m >= ROLE).sum()) >= 2, "first layer: " + ", ".join(f"H{h + 1} {v:.3f}" for h, v in enumerate(m)))


@claim(f"No head looks at earlier places: every head puts less than {GLANCE} of its weight on them.")
def no_head_looks_at_places():
    m = heads.mention_mass(FOUR)["mass"][:, :, KIND_NAMES.index("place")]
    return Outcome(float(m.max()) < GLANCE, f"largest {m.max():.4f}")


@claim(f"In the figure's story, some head puts at least {ROLE} on the earlier mentions of the coming word, and at every "
       f"query word some head spreads its weight (no key above {SPREAD}) or puts at least half on the last {RECENT} "
       "positions.")
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


@claim("For every model, object and colour accuracy stay below name and place accuracy of the four-head model.")
def objects_and_colours_stay_lower():
    c = ev.comparison()
    top = max(c[k][kind] for k in c for kind in ("object", "colour"))
    floor = min(c["four-head"]["name"], c["four-head"]["place"])
    return Outcome(top < floor, f"best object/colour accuracy {top:.4f}, four-head name/place at least {floor:.4f}")


@claim("At least one role sits in a different head in the second seed than in the published model.")
def roles_move_between_seeds():
    first, second = heads.looks(FOUR), heads.looks(SECOND_SEED)
    moved = [k for k in LOOKING_KINDS if first[k] != second[k]]
    return Outcome(bool(moved), "moved: " + (", ".join(moved) or "none"))


def check_all():
    return STORY.check_all()


def require_all(source: str = "the published story models") -> None:
    STORY.require_all(source=source)

