"""Part III's claims about the four-head model's heads: where they look, which are needed, and how the roles move
between two seeds; merged into claims.STORY."""
from __future__ import annotations

from ...claims import Outcome, Registry, at_least, at_most, both, room
from ...says import Says
from ...probes import KIND_NAMES
from ...published.story import NAMES, SECOND_SEED
from ...data.story import KINDS
from .states import box, explain, heads
from .states.heads import head_label

HEADS = Registry()
claim = HEADS.claim

FOUR = NAMES["four-head"]
LOOKS = 10.0        # a head "looks at" a kind: at least this many times the weight an even spread puts there
NEEDED = 0.15       # its knock-out costs that kind at least this much accuracy
GLANCE = 0.2        # less than this on earlier mentions: a head does not look at them
ROLE = 0.5          # "more than half of its weight"
SHARED = 0.2        # no single head's knock-out costs more than this: a shared job


def _looking(name: str, kind: str) -> tuple[tuple[int, int], float, float]:
    """The head that puts the most weight on earlier mentions of a kind, its weight, and an even spread's."""
    m, k = heads.mention_mass(name), KIND_NAMES.index(kind)
    lh = heads.looks(name)[kind]
    return lh, float(m["mass"][lh[0], lh[1], k]), float(m["uniform"][k])


@claim((Says("at least", "weight on earlier mentions of its kind, for every kind's most-looking head (the head that "
             "puts the most weight there),", by=f"{LOOKS:g} times an even spread"),
        Says("falls", "each kind's accuracy", over="without its most-looking head, the furthest of any single head's "
             "knock-out (the head that looks most is the head needed most)", by=NEEDED)))
def looking_heads_are_the_needed_heads():
    parts = []
    for kind in KIND_NAMES:
        lh, mass, even = _looking(FOUR, kind)
        need, d = heads.needed(FOUR)[kind], heads.drop(FOUR, kind, lh)
        parts += [Outcome(need == lh, f"{kind}: looks {head_label(lh)}, most needed {head_label(need)}"),
                  at_least(mass, LOOKS * even, f"its weight {mass:.3f} (even {even:.3f})"),
                  at_least(d, NEEDED, f"knock-out drop {d:.3f}")]
    return both(*parts)


@claim((Says("equal", "the layer of every kind's looking head and the first layer", by=0),
        Says("none", "the second-layer heads", over=f"puts {GLANCE} or more of its weight on earlier mentions of any "
             "kind")))
def roles_sit_in_the_first_layer():
    looks = heads.looks(FOUR)
    second = float(heads.mention_mass(FOUR)["mass"][1].max())
    return both(Outcome(all(lh[0] == 0 for lh in looks.values()), ", ".join(f"{k} {head_label(v)}" for k, v in looks.items())),
                Outcome(second < GLANCE, f"second layer at most {second:.3f}", margin=room(second, GLANCE, above=False)))


@claim(Says("at least", f"count of first-layer heads that put at least {ROLE} of their weight on earlier objects",
            by=2, over="(several heads)"))
def several_first_layer_heads_look_at_objects():
    m = heads.mention_mass(FOUR)["mass"][0, :, KIND_NAMES.index("object")]
    return at_least(float(sorted(m)[-2]), ROLE, "first layer: " + ", ".join(f"H{h + 1} {v:.3f}" for h, v in enumerate(m)))


@claim(Says("none", "the heads", over=f"costs more than {SHARED} of object accuracy when it alone is knocked out (no "
            "single head: object copying is shared)"))
def object_copying_is_shared():
    ko = heads.knockouts(FOUR)
    worst = max((ko["all heads"]["object"] - v["object"], k) for k, v in ko.items() if k != "all heads")
    return at_most(worst[0], SHARED, f"largest drop {worst[0]:.3f} ({head_label(worst[1])})")


@claim(Says("at least", "weight on earlier mentions of its kind, for every kind's most-looking head of the four-head "
            "model trained with the same recipe from the second seed,", by=f"{LOOKS:g} times an even spread",
            over="(it, too, has a head that looks at every kind)"))
def roles_exist_in_the_second_seed():
    found = {k: _looking(SECOND_SEED, k) for k in KIND_NAMES}
    return both(*(at_least(mass, LOOKS * even, f"{k} {head_label(lh)} {mass:.3f}") for k, (lh, mass, even) in found.items()))


@claim((Says("at least", "count of roles that sit in a different head in the second seed than in the published model",
             by=1),
        Says("equal", "the name head's layers in the two seeds", by="none of them (it sits in another layer)")))
def roles_move_between_seeds():
    first, second = heads.looks(FOUR), heads.looks(SECOND_SEED)
    moved = [k for k in KIND_NAMES if first[k] != second[k]]
    return Outcome(bool(moved) and first["name"][0] != second["name"][0],
                   "moved: " + (", ".join(f"{k} {head_label(first[k])} -> {head_label(second[k])}" for k in moved) or "none"))


@claim((Says("largest", "probability among names at the live box's prepared story, in the box's model (the float16 "
             "export) with every head,", ("the right name",)),
        Says("at most", "probability of the right name with the name head silenced", by="half what it had",
             over="(another name then ranks first)")))
def silencing_the_name_head_misnames_the_prepared_story():
    t = box.knockout_prompt()
    ok = t["top_off"] != t["name"] and t["top_off"] in KINDS["name"] and t["p_off"] < t["p_all"] / 2
    return Outcome(ok, f"“{t['name']}” {t['p_all']:.3f} with every head, {t['p_off']:.3f} without "
                       f"{head_label(t['head'])}, which ranks “{t['top_off']}” first ({t['p_top_off']:.3f})",
                   margin=room(t["p_off"], t["p_all"] / 2, above=False))


@claim((Says("less", "probability", ("the four-head model's k likeliest words", "all of it"),
             over="where the worked story first names a colour"),
        Says("equal", "the sum of the kept probabilities, once top-k keeps exactly those k, drops the others and "
             "divides each kept word's probability by their share, and 1", by=1e-12)))
def top_k_divides_by_the_kept_share():
    t = explain.top_k_example()
    kept = [p / t["share"] for p in t["p"]]
    ok = (len(t["words"]) == t["k"] and 0 < t["share"] < 1 and abs(sum(kept) - 1) < 1e-12
          and all(abs(a - b) < 1e-12 for a, b in zip(kept, t["p_top_k"])) and t["next_p"] <= min(t["p"]))
    return Outcome(ok, f"k {t['k']}: share {t['share']:.4f}, kept sum {sum(kept):.15f}, the next word "
                       f"{t['next_p']:.4f} below the kept {min(t['p']):.4f}")


@claim((Says("equal", "the first layer's LayerNorm of the shown row worked by hand and the model's own", by=1e-6),
        Says("equal", "the normalised row's mean and 0", by=1e-9),
        Says("at most", "the normalised row's mean square", by=1, over="(less a little for the epsilon, above 0.99)")))
def layernorm_row_is_the_models_layernorm():
    r = explain.layernorm_row()
    ok = r["largest_difference"] < 1e-6 and abs(r["normed_mean"]) < 1e-9 and 0.99 < r["normed_square"] <= 1
    return Outcome(ok, f"largest difference {r['largest_difference']:.1e}, normalised mean {r['normed_mean']:.1e}, "
                       f"mean square {r['normed_square']:.4f}")


@claim((Says("largest", "weight at the prepared story's last word", ("a mention of the right name",),
             over="of the name head's"),
        Says("at least", "the name head's weight on mentions of the right name", by=0.5),
        Says("at least", "cosine similarity of the name head's output row and that mention's value row", by=0.9,
             over="(it points almost exactly the way the value row does)")))
def the_name_head_reads_the_name_it_needs():
    f, t = box.followed(), box.knockout_prompt()
    return both(Outcome(f["keys"][0][1] == t["name"], f"largest weight on “{f['keys'][0][1]}” ({f['keys'][0][3]:.3f})"),
                at_least(f["mass"], 0.5, f"on mentions of “{t['name']}” {f['mass']:.3f}"),
                at_least(f["value_alike"], 0.9, f"cosine with its value {f['value_alike']:.4f}"))


@claim((Says("greater", "logit from the name head's direct push", ("the right name", "the rival")),
        Says("falls", "the right name's logit", over="when the name head is silenced", by="three times that push"),
        Says("rises", "the rival's logit", over="when the name head is silenced (most of the head's effect runs "
             "through the parts that read what it wrote)")))
def the_name_heads_effect_runs_through_its_readers():
    f, t = box.followed(), box.knockout_prompt()
    name, other = t["name"], t["top_off"]
    drop = f["logit"][name]["all"] - f["logit"][name]["off"]
    ok = (f["direct"][name] > f["direct"][other] and drop > 3 * f["direct"][name]
          and f["logit"][other]["off"] > f["logit"][other]["all"])
    return Outcome(ok, margin=room(drop, 3 * f["direct"][name], above=True), evidence=f"direct push {name} {f['direct'][name]:.3f}, {other} {f['direct'][other]:.3f}; "
                       f"silenced: {name} {f['logit'][name]['all']:.3f} -> {f['logit'][name]['off']:.3f}, "
                       f"{other} {f['logit'][other]['all']:.3f} -> {f['logit'][other]['off']:.3f}")


@claim((Says("at least", "probability of the new friend with the name head's output at the last word patched in from "
             "the prepared story with the friend renamed", by="one half", over="(the head carries the name)"),
        Says("at most", "the new friend's probability unpatched, the old name's patched, and the new friend's with the "
             "same patch of any other head", by=0.01)))
def the_name_head_carries_the_name():
    t = box.patch_pair()
    old, new, head = t["name"], t["other"], t["head"]
    others = max(p[new] for lh, p in t["patched"].items() if lh != head)
    ok = (t["patched"][head][new] > 0.5 and t["plain"][new] < 0.01 and t["patched"][head][old] < 0.01
          and others < 0.01)
    return Outcome(ok, margin=min(room(t["patched"][head][new], 0.5, above=True),
                                  *(room(v, 0.01, above=False) for v in (t["plain"][new], t["patched"][head][old], others))),
                   evidence=f"patched name head: {new} {t['patched'][head][new]:.4f} (unpatched {t['plain'][new]:.2e}), "
                       f"{old} {t['patched'][head][old]:.2e}; any other head patched: {new} at most {others:.2e}")


def name_head_layers() -> tuple[int, int]:
    """The layer (from 1) of the name head in the published model and in the second seed."""
    return heads.looks(FOUR)["name"][0] + 1, heads.looks(SECOND_SEED)["name"][0] + 1

