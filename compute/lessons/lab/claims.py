"""The lab's claims: what its prose says about the published models, checked on the runs the page shows.

They take the notebook's own runs as arguments; the page (TRAIN = False) requires them all, while a learner's
run is only described, never judged.
"""
from __future__ import annotations

from ...claims import Outcome, Registry, at_most, room
from ...says import Says
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


@claim((Says("greater", f"accuracy on the right {KIND} beyond the MLP's window", ("the one-head model", "the MLP"),
             by=WIDE_MARGIN, over="(far more often)"),
        Says("at most", f"{KIND} accuracy beyond its window", ("the MLP",), by=f"chance + {NEAR_CHANCE}",
             over="(it stays near chance)", strength=NEAR)))
def head_finds_what_the_window_hides(mlp: LabRun, head: LabRun, case: Case):
    h, m = head.scores[f"{KIND} beyond 8"], mlp.scores[f"{KIND} beyond 8"]
    return Outcome(h - m >= WIDE_MARGIN and m <= chance(KIND) + NEAR_CHANCE,
                   f"one head {h:.3f}, MLP {m:.3f}, chance {chance(KIND):.3f}",
                   margin=min(room(h - m, WIDE_MARGIN, above=True), room(m, chance(KIND) + NEAR_CHANCE, above=False)))


@claim((Says("at least", "share of the head's attention on the earlier mention at the followed blank", by=LOOKS_BACK),
        Says("greater", "probability of the right word at the followed blank", ("the head", "the MLP"))))
def head_looks_back_at_the_followed_blank(mlp: LabRun, head: LabRun, case: Case):
    return Outcome(case.on_mentions >= LOOKS_BACK and case.p_head[case.word] > case.p_mlp[case.word],
                   f"attention on the mention {case.on_mentions:.3f}; probability of '{case.answer}': head "
                   f"{case.p_head[case.word]:.3f}, MLP {case.p_mlp[case.word]:.3f}",
                   margin=min(room(case.on_mentions, LOOKS_BACK, above=True),
                              room(case.p_head[case.word], case.p_mlp[case.word], above=True)))


@claim(Says("at most", f"{KIND} accuracy beyond 8 tokens with the head silenced (W_O = 0)", ("the one-head model",),
            by=f"chance + {NEAR_CHANCE}", over="(back to near chance)", strength=NEAR))
def silenced_head_forgets(mlp: LabRun, head: LabRun, case: Case):
    a = knocked_out(head)[f"{KIND} beyond 8"]
    return at_most(a, chance(KIND) + NEAR_CHANCE, f"accuracy {a:.3f}, chance {chance(KIND):.3f}")


@claim(Says("at most", "run time in seconds of the downloaded notebook, measured from a fresh kernel,",
            by=A_FEW_MINUTES, over="(a few minutes)"))
def the_lab_runs_in_a_few_minutes(mlp: LabRun, head: LabRun, case: Case):
    run = measured_run()
    return at_most(run["seconds"], A_FEW_MINUTES,
                   f"{run['seconds']:.1f} s (median of {run['runs']} runs, {run['measured_on']['cpu']})")


@claim((Says("at most", "name accuracy beyond 8 back, trained on the notebook's default budget,", ("the one-head model",),
             by=f"a uniform guess + {NEAR_CHANCE}", over="(names stay near chance)", strength=NEAR),
        Says("at least", "object accuracy beyond 8 back, trained on the same budget,", ("the one-head model",),
             by=COPIES.limit, over="(it copies objects)", strength=COPIES)))
def the_default_budget_copies_objects_not_names(mlp: LabRun, head: LabRun, case: Case):
    d = default_budget()
    names, objects = d["name beyond 8"], d["object beyond 8"]
    return Outcome(names <= chance("name") + NEAR_CHANCE and objects >= COPIES.limit,
                   f"{d['tokens']:,} tokens: names {names:.3f} (chance {chance('name'):.3f}), objects {objects:.3f} "
                   f"(chance {chance('object'):.3f})",
                   margin=min(room(names, chance("name") + NEAR_CHANCE, above=False),
                              room(objects, COPIES.limit, above=True)))


@claim(Says("equal", f"the measured budgets on which names beyond 8 back leave chance (more than {LEAVES_CHANCE} above "
            "a uniform guess) and the longer budget with every larger one", by=0,
            over="(they do not on any smaller one)"))
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
