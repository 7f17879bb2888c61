"""The lab's claims: what its prose says about the published models, checked on the runs the page shows.

They take the notebook's own runs as arguments; the page (TRAIN = False) requires them all, while a learner's
run is only described, never judged.
"""
from __future__ import annotations

from ...claims import Outcome, Registry, at_most, room
from ...strength import COPIES, NEAR_CHANCE as NEAR
from ...probes import chance
from .states.budgets import LEAVES_CHANCE, budgets, leaves_chance, default_budget, longer_budget
from .states.follow import KIND, Case
from .states.knockout import knocked_out
from .states.run import LabRun, measured_run

LAB = Registry()
claim = LAB.claim

WIDE_MARGIN = 0.25      # "by a wide margin": accuracy points between the two models
NEAR_CHANCE = NEAR.limit  # the MLP beyond its window, and the silenced head: within this of a uniform guess
LOOKS_BACK = 0.5        # "at least half" of the head's attention on the earlier mentions
A_FEW_MINUTES = 300     # seconds: the landing page's "a few minutes to run", at most


@claim(f"Beyond the MLP's window the one-head model picks the right {KIND} far more often (by {WIDE_MARGIN}) "
       "than the MLP, which stays near chance.", strength=NEAR)
def head_finds_what_the_window_hides(mlp: LabRun, head: LabRun, case: Case):
    h, m = head.scores[f"{KIND} beyond 8"], mlp.scores[f"{KIND} beyond 8"]
    return Outcome(h - m >= WIDE_MARGIN and m <= chance(KIND) + NEAR_CHANCE,
                   f"one head {h:.3f}, MLP {m:.3f}, chance {chance(KIND):.3f}",
                   margin=min(room(h - m, WIDE_MARGIN, above=True), room(m, chance(KIND) + NEAR_CHANCE, above=False)))


@claim(f"At the followed blank the head puts at least {LOOKS_BACK} of its attention on the earlier mention "
       "and gives the right word more probability than the MLP does.")
def head_looks_back_at_the_followed_blank(mlp: LabRun, head: LabRun, case: Case):
    return Outcome(case.on_mentions >= LOOKS_BACK and case.p_head[case.word] > case.p_mlp[case.word],
                   f"attention on the mention {case.on_mentions:.3f}; probability of '{case.answer}': head "
                   f"{case.p_head[case.word]:.3f}, MLP {case.p_mlp[case.word]:.3f}",
                   margin=min(room(case.on_mentions, LOOKS_BACK, above=True),
                              room(case.p_head[case.word], case.p_mlp[case.word], above=True)))


@claim(f"Silencing the head (W_O = 0) sends the one-head model's {KIND} accuracy beyond 8 tokens back to "
       "near chance.", strength=NEAR)
def silenced_head_forgets(mlp: LabRun, head: LabRun, case: Case):
    a = knocked_out(head)[f"{KIND} beyond 8"]
    return at_most(a, chance(KIND) + NEAR_CHANCE, f"accuracy {a:.3f}, chance {chance(KIND):.3f}")


@claim(f"The downloaded notebook, measured from a fresh kernel, runs in a few minutes (at most {A_FEW_MINUTES} s).")
def the_lab_runs_in_a_few_minutes(mlp: LabRun, head: LabRun, case: Case):
    run = measured_run()
    return at_most(run["seconds"], A_FEW_MINUTES,
                   f"{run['seconds']:.1f} s (median of {run['runs']} runs, {run['measured_on']['cpu']})")


@claim(f"Trained on the notebook's default budget, the one-head model's names beyond 8 back stay near chance "
       f"(within {NEAR_CHANCE} of a uniform guess) while it copies objects from beyond 8 back (at least {COPIES.limit}).",
       strength=(NEAR, COPIES))
def the_default_budget_copies_objects_not_names(mlp: LabRun, head: LabRun, case: Case):
    d = default_budget()
    names, objects = d["name beyond 8"], d["object beyond 8"]
    return Outcome(names <= chance("name") + NEAR_CHANCE and objects >= COPIES.limit,
                   f"{d['tokens']:,} tokens: names {names:.3f} (chance {chance('name'):.3f}), objects {objects:.3f} "
                   f"(chance {chance('object'):.3f})",
                   margin=min(room(names, chance("name") + NEAR_CHANCE, above=False),
                              room(objects, COPIES.limit, above=True)))


@claim(f"In the measured runs, names beyond 8 back leave chance (more than {LEAVES_CHANCE} above a uniform guess) "
       "on the longer budget and every larger one, and do not on any smaller one.")
def names_leave_chance_on_the_longer_budget(mlp: LabRun, head: LabRun, case: Case):
    runs, longer = budgets(), longer_budget()
    said = ", ".join(f"{b['tokens']:,}: {b['name beyond 8']:.3f}" for b in runs)
    above = [(b["name beyond 8"] - chance("name"), longer is not None and b["tokens"] >= longer["tokens"]) for b in runs]
    return Outcome(longer is not None and all(leaves_chance(b["name beyond 8"]) == (b["tokens"] >= longer["tokens"])
                                              for b in runs),
                   f"names beyond 8 by budget {said}; chance {chance('name'):.3f}",
                   margin=min(room(gap, LEAVES_CHANCE, above=left) for gap, left in above) if longer else None)


def check_all(mlp: LabRun, head: LabRun, case: Case):
    return LAB.check_all(mlp, head, case)


def require_all(mlp: LabRun, head: LabRun, case: Case) -> None:
    LAB.require_all(mlp, head, case, source="the lab's published runs")
