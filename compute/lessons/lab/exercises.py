"""The exercises' answers, computed from the learner's own two runs, and the list at the end of the page."""
from __future__ import annotations

import html

from IPython.display import HTML

from ...present.prose import said
from ...present.tables import fmt
from ...probes import chance
from .states.follow import KIND, Case
from .states.knockout import knocked_out
from .states.run import LabRun


def largest(params: dict) -> tuple[str, int]:
    name = max(params, key=lambda n: params[n].numel())
    return name, params[name].numel()


def answers(mlp: LabRun, head: LabRun, case: Case) -> dict[str, str]:
    """Each exercise's answer as a sentence, from these runs."""
    first = case.tokens[case.window_start]
    big, big_n = largest(mlp.params)
    rows, cols = mlp.params[big].shape            # W1: (window × d_model, hidden): its rows grow with the window
    at_64 = rows // case.window * 64 * cols
    n_mlp, n_head = (sum(p.numel() for p in r.params.values()) for r in (mlp, head))
    silenced = knocked_out(head)
    near, far = head.scores[f"{KIND} 9–16"], head.scores[f"{KIND} > 64"]
    texts = {
        "window": f"The window starts at '{first}' ({case.window} tokens up to the blank); '{case.answer}' was "
                  f"last said {case.distance} tokens back, {case.distance - case.window} tokens before the "
                  "window begins. So nothing the MLP reads says which object it was {about}`design`.",
        "parameters": f"The MLP has {n_mlp:,} numbers and the one-head model {n_head:,}. The MLP's largest tensor "
                      f"is {big} with {big_n:,}: its input is {case.window} embeddings side by side, so its first "
                      f"layer grows with the window: at a window of 64 it would hold {at_64:,} numbers, "
                      f"{64 // case.window} times as many, while attention's matrices do not depend on how far it "
                      "reads {about}`design`.",
        "knockout": f"With W_O set to zero the one-head model's {KIND} accuracy beyond 8 tokens goes from "
                    f"{fmt(head.scores[f'{KIND} beyond 8'], 2)} to {fmt(silenced[f'{KIND} beyond 8'], 2)} "
                    f"(a uniform guess: {fmt(chance(KIND), 2)}); its validation loss from "
                    f"{fmt(head.scores['val_loss'], 3)} to {fmt(silenced['val_loss'], 3)} {{claim}}`silenced_head_forgets`.",
        "distance": f"The head's {KIND} accuracy is {fmt(near, 2)} when the last mention is 9–16 tokens back and "
                    f"{fmt(far, 2)} when it is “> 64” back; the MLP's: {fmt(mlp.scores[f'{KIND} 9–16'], 2)} and "
                    f"{fmt(mlp.scores[f'{KIND} > 64'], 2)}.",
    }
    return {key: said(text) for key, text in texts.items()}


ORDER = ("window", "parameters", "knockout", "distance")   # the exercises' order on the page


def answer_list(answers: dict[str, str]) -> HTML:
    """Every exercise's answer, numbered as the exercises are, for the end of the page (and the handout)."""
    items = "".join(f"<li>{html.escape(answers[key])}</li>" for key in ORDER)
    return HTML(f'<ol class="lab-answers">{items}</ol>')
