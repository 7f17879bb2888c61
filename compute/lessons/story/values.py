"""Every number (and computed word) Part III's prose cites, as plain Python values for glue."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...data.story import HELD_OUT, KINDS, RECALLS, RELATION_TEMPLATES, TEMPLATES
from ...training.story import StoryRecipe, learning_rate
from ...probes import BUCKETS, bucket_label
from . import claims, claims_circuit, claims_heads
from .data import corpus_facts
from .heads import FOUR, query_positions
from .live import weights_size
from ...published.story import (CHECK_STORIES, MODELS, NAMES, ONE_HEAD, SECOND_SEED, load, load_published,
                                story_corpus)
from .states import evaluation as ev
from .states import box, circuit, explain, heads, relations, samples
from .states.heads import head_label


def accuracy_values(prefix: str, score: Callable[[str], dict | None], mentioned: bool = True) -> dict[str, float]:
    """Each model's within-kind accuracy, by kind, as `<prefix>_<kind>_<model>` (and, with `mentioned`, its share
    of picks that are a word the story mentioned, `<prefix>_<kind>_mentioned_<model>`). `score(model kind)` gives
    one model's summary, or None where it does not apply: NaN, whose sentences sit in the page's
    `{only} generated_stories` blocks, which a build from a story file does not publish (compute.conditions)."""
    v = {}
    for k in MODELS:
        s, key = score(k), k.replace("-", "_")
        for kind in KINDS:
            v[f"{prefix}_{kind}_{key}"] = s[kind] if s else float("nan")
            if mentioned:
                v[f"{prefix}_{kind}_mentioned_{key}"] = s[f"{kind} a mentioned word"] if s else float("nan")
    return v


def split_values(split: str, short: str) -> dict[str, float]:
    """Part III's models on one split: `<short>_<kind>_<model>`; a story file has no held-out split."""
    return accuracy_values(short, lambda k: ev.scores(NAMES[k], split) if split in ev.splits() else None)


def relation_values() -> dict[str, object]:
    """The models trained with the relation families on the hand-written stories (`rel_hand_<kind>_<model>`; the
    page's table shows the other splits itself), the goal, and how many families they add."""
    from ...conditions import GENERATED_STORIES
    shown = GENERATED_STORIES.holds()
    four_tokens = load_published(relations.FOUR).manifest["recipe"]["tokens"] if shown else float("nan")
    return {"rel_goal": relations.GOAL, "n_relation_families": len(RELATION_TEMPLATES),    # settings
            "rel_four_millions": four_tokens / 1e6,
            **accuracy_values("rel_hand", lambda k: relations.scores(k, "hand-written") if shown else None,
                              mentioned=False)}


def prose_values() -> dict[str, object]:
    v: dict[str, object] = dict(corpus_facts())
    v["n_templates"] = len(TEMPLATES)
    v["n_recalls"] = len(RECALLS)
    v["n_held_families"], v["held_families"] = len(HELD_OUT), " and ".join(f"“{f}”" for f in HELD_OUT)
    v["n_held_out"] = len(story_corpus().held_out)
    v["n_hand"] = len(ev.written_by_hand())
    v["n_hand_probes"] = sum(len(h.story.probes) for h in ev.written_by_hand())
    v["n_hand_scored"] = len(ev.handwritten())
    v["n_hand_probes_scored"] = sum(len(h.story.probes) for h in ev.handwritten())
    for kind, words in KINDS.items():
        v[f"n_{kind}s"] = len(words)
        v[f"chance_{kind}"] = 1 / len(words)
    v["window_end"] = BUCKETS[0][1]
    v["far"] = bucket_label(BUCKETS[-1])
    cfg = {k: load(NAMES[k]).config for k in MODELS}
    four = cfg["four-head"]
    v.update(d_four=four.d_model, heads_four=four.n_head, layers_four=four.n_layer, d_head=four.d_model // four.n_head,
             d_one=cfg["one-head"].d_model, window=cfg["mlp"].window, context=four.context,
             mlp_hidden=cfg["mlp"].d_ff, n_heads_total=four.n_layer * four.n_head)
    recipe = load(FOUR).manifest["recipe"]
    v.update(budget_millions=recipe["tokens"] / 1e6, lr=recipe["lr"], batch=recipe["batch"], threads=recipe["threads"])
    c = ev.comparison()
    for k in MODELS:
        key = k.replace("-", "_")
        v[f"params_{key}"] = c[k]["parameters"]
        v[f"seconds_{key}"] = float(c[k]["train_seconds"])
        v[f"loss_{key}"] = c[k]["val_loss"]
        for kind in KINDS:
            v[f"{kind}_{key}"] = c[k][kind]
        v[f"names_mentioned_{key}"] = c[k]["name among mentioned"]
        v[f"name_far_{key}"] = c[k]["name beyond 8"]
        v[f"object_far_{key}"] = c[k]["object beyond 8"]
    for split, short in (("in-template", "in"), ("held-out", "held"), ("hand-written", "hand")):
        v.update(split_values(split, short))
    v["total_seconds"] = sum(v[f"seconds_{k.replace('-', '_')}"] for k in MODELS)
    t = ev.top1_at_names(FOUR)
    v.update(top1_name=t["top1"], top1_pronoun=t["pronoun"], within_name=t["within_kind"])
    ph = ev.learning_phases(ONE_HEAD, "object", claims.NEAR_CHANCE, claims.SETTLED)
    v.update(flat_until=ph["flat_until"] / 1e6, settled_at=ph["settled_at"] / 1e6, object_final_one_head=ph["final"],
             near_chance=claims.NEAR_CHANCE, settled=claims.SETTLED, settled_left=(ph["budget"] - ph["settled_at"]) / 1e6)
    v["far_probes"] = ev.distance_counts("object")[-1]
    j = ev.sudden_jump(ONE_HEAD, "object")
    v.update(jump_before=j["before"], jump_after=j["after"], jump_from=j["from_tokens"] / 1e6,
             jump_to=j["to_tokens"] / 1e6)
    look, need, mass = heads.looks(FOUR), heads.needed(FOUR), heads.mention_mass(FOUR)
    ko = heads.knockouts(FOUR)
    for kind in KINDS:
        k = list(KINDS).index(kind)
        v[f"{kind}_head"] = head_label(need[kind])                               # the head whose removal hurts most
        v[f"{kind}_head_mass"] = float(mass["mass"][need[kind][0], need[kind][1], k])
        v[f"{kind}_looking_head"] = head_label(look[kind])
        v[f"{kind}_looking_mass"] = float(mass["mass"][look[kind][0], look[kind][1], k])
        v[f"{kind}_uniform"] = float(mass["uniform"][k])
        v[f"{kind}_with_all"] = ko["all heads"][kind]
        v[f"{kind}_without_head"] = ko[need[kind]][kind]
    ln = explain.layernorm_row()
    v.update(ln_word=ln["word"].capitalize(), ln_position=ln["position"], ln_d=ln["d"], ln_eps=ln["eps"],
             ln_mean=ln["mean"], ln_spread=ln["spread"], ln_square=ln["normed_square"], ln_shown=explain.SHOWN)
    t = explain.top_k_example()
    v.update(topk_before=t["before"], topk_k=t["k"], topk_share=t["share"], topk_dropped=t["dropped"],
             topk_said=t["said"])
    r = StoryRecipe(**{k: v_ for k, v_ in recipe.items() if k in StoryRecipe.__dataclass_fields__})
    v.update(weight_decay=r.weight_decay, warmup=r.warmup_steps, lr_end=learning_rate(r.steps - 1, r))
    f = box.followed()
    name, other = box.knockout_prompt()["name"], box.knockout_prompt()["top_off"]
    v.update(fol_query=f["query"], fol_position=f["position"], fol_name=name.capitalize(), fol_other=other.capitalize(),
             fol_top_score=f["keys"][0][2], fol_second_score=f["keys"][1][2], fol_mass=f["mass"],
             fol_alike=f["value_alike"], fol_direct_name=f["direct"][name], fol_direct_other=f["direct"][other],
             fol_logit_all=f["logit"][name]["all"], fol_logit_off=f["logit"][name]["off"],
             fol_other_all=f["logit"][other]["all"], fol_other_off=f["logit"][other]["off"])
    pair = box.patch_pair()
    name_head = pair["patched"][pair["head"]]
    v.update(patch_other=pair["other"].capitalize(), patch_new=name_head[pair["other"]], patch_old=name_head[pair["name"]],
             patch_plain_new=pair["plain"][pair["other"]],
             patch_others_max=max(p[pair["other"]] for lh, p in pair["patched"].items() if lh != pair["head"]))
    tried = box.knockout_prompt()
    v.update(try_name=tried["name"].capitalize(), try_distance=tried["distance"], try_p_all=tried["p_all"],
             try_p_off=tried["p_off"], try_top_off=tried["top_off"].capitalize())
    v["object_worst_drop"] = max(heads.drop(FOUR, "object", key) for key in ko if key != "all heads")
    second = heads.looks(SECOND_SEED)
    v["second_seed"] = int(load(SECOND_SEED).manifest["seed"])
    for kind in KINDS:
        v[f"{kind}_head_seed2"] = head_label(second[kind])
    v["roles_moved"] = sum(second[k] != look[k] for k in KINDS)
    v["role_kinds"] = len(KINDS)
    v["name_layer"], v["name_layer_seed2"] = claims_heads.name_head_layers()
    v["glance"] = claims_heads.GLANCE
    v["role_stories"] = heads.ROLE_STORIES
    v["curve_stories"] = CHECK_STORIES
    v["n_queries"] = len(query_positions())
    sc = samples.all_counts()
    v["weights_mb"] = weights_size() / 1e6
    v["n_samples"] = samples.N_SAMPLES
    v["cast_limit"], v["colour_limit"] = samples.training_limits()["names"], samples.training_limits()["colours"]
    v["temperature"] = samples.SAMPLING.temperature
    for k in MODELS:
        key = k.replace("-", "_")
        v[f"cast_kept_{key}"] = sc[k].cast_kept
        v[f"colours_kept_{key}"] = sc[k].colours_kept
        v[f"repeats_{key}"] = sc[k].with_repeats
        v[f"tokens_{key}"] = sc[k].mean_tokens
        v[f"names_{key}"] = sc[k].mean_names
        v[f"names100_{key}"] = sc[k].names_per_100
    v["names_train"], v["names100_train"] = samples.training_names()["mean_names"], samples.training_names()["names_per_100"]
    v.update(relation_values())
    v.update(path_values())
    return v


def path_values() -> dict[str, float]:
    """Section 6's path patching of the name head's write, and the composition scores (states/circuit.py)."""
    p, c = circuit.name_paths(), circuit.composition_scores()
    old, new = p["name"], p["other"]
    heads_ = [v for r, v in p["one"].items() if r.startswith("L2 H")]
    scores = np.concatenate([s.ravel() for s in c["scores"].values()])
    return {"path_mlp_new": p["one"]["L1 MLP"][new], "path_mlp_old": p["one"]["L1 MLP"][old],
            "path_heads_old_min": min(v[old] for v in heads_), "path_heads_new_max": max(v[new] for v in heads_),
            "path_mlps_new": p["groups"]["both MLPs"][new],
            "path_mlps_logits_new": p["groups"]["both MLPs and the final LayerNorm"][new], "path_every_new": p["every"][new],
            "composition_random": c["random"], "composition_low": float(scores.min()),
            "composition_high": float(scores.max()), **graph_values(), **fed_values()}


def fed_values() -> dict[str, object]:
    """What feeds the second seed's name head (states/circuit.py name_head_inputs): the path whose cut lowers the
    name's mean probability most, and the next; none where that name head is in the first layer (its claims fail)."""
    f = circuit.name_head_inputs(SECOND_SEED)
    ranked = [path for _, path in circuit.falls(f)]
    out = {"fed_probes": f["probes"], "fed_plain": f["plain"], "fed_paths": len(f["cut"]),
           "path_stories": circuit.PATH_STORIES, "fed_most": claims_circuit.ALONE}
    for key, path in zip(("fed", "fed_next"), ranked[:2] if len(ranked) >= 2 else ["none none"] * 2):
        head, via = path.rsplit(" ", 1)
        out.update({f"{key}_head": head, f"{key}_input": circuit.INPUT_WORDS.get(via, via),
                    f"{key}_cut": f["cut"].get(path, float("nan"))})
    return out


def graph_values() -> dict[str, float]:
    """The edges section 6 cites from the graph of the name's prediction (states/circuit.py name_graph)."""
    g = circuit.name_graph()
    e, head = g["edges"], g["name_head"]
    named = next(n for n, w in g["words"].items() if w == g["name"] and n != g["last"])
    return {"graph_name_to_head": e[(named, head)], "graph_last_to_head": e[(g["last"], head)],
            "graph_head_to_mlp": e[(head, "L1 MLP")], "graph_mlp_to_logit": e[("L1 MLP", "logit")],
            "graph_mlp2_to_logit": e[("L2 MLP", "logit")]}
