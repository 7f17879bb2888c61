"""Part III's claims: each sentence the lesson says about the story models, checked with a tolerance."""
from __future__ import annotations

from ...claims import Outcome, Registry
from ...probes import KIND_NAMES
from .published import SECOND_SEED
from .states import evaluation as ev
from .states import heads, samples

STORY = Registry()
claim = STORY.claim

FOUR, ONE, MLP = "story-four-head", "story-one-head", "story-mlp"
LOSS_GAP = 0.05          # "clearly lower" validation loss, in nats per token
NEAR_CHANCE = 0.05       # within this of chance counts as "near chance"
COPIES = 0.7             # within-kind accuracy that counts as "copies"
COIN = 0.75              # among two mentioned names, at most this counts as "little better than a coin"
WIDE_MARGIN = 0.25       # "by a wide margin"
SUDDEN = 0.3             # a rise of at least this between two neighbouring points of the curve
ROLE = 0.5               # attention mass on earlier mentions that makes a head's role
KNOCKOUT_DROP = 0.5      # accuracy lost when the head with that role is zeroed
SHARED = 0.2             # no single head's knock-out costs more than this: a shared job
KEEPS_CAST = 0.3         # generation: share of samples, four-head ahead of both others by at least this
GLANCE = 0.2             # less than this on earlier mentions: the head does not look at them
LOOKING_KINDS = ("name", "colour")  # kinds whose needed head is also the one that looks back at the word


def _score(name: str, key: str) -> float:
    return ev.scores(name)[key]


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


@claim(f"Between two mentioned names the one-head model picks the right one at most {COIN} of the time.")
def one_head_confuses_two_names():
    acc = _score(ONE, "name among mentioned")
    return Outcome(acc <= COIN, f"right name of those mentioned: {acc:.4f}")


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

