"""The lab as a learner gets it: the downloaded notebook (TRAIN = True) run top to bottom on a small budget,
and every exercise's answer recomputed independently from the kernel's own runs."""
from __future__ import annotations

import re

import nbformat
import pytest
from nbclient import NotebookClient

from compute.lessons.lab.loop import CHECK_STEPS
from conftest import ROOT

TOKENS = 120_000

pytestmark = pytest.mark.notebooks  # the downloaded lab executed (see pytest.ini)

# Runs in the lab's kernel after its last cell. It recomputes each answer from the learner's tensors with its
# own loops (not compute.probes), and prints OK or raises.
VERIFY = r'''
import re
import torch
from compute.data.story import KINDS

def accuracies(text):
    """The accuracies an answer states, in order (written with two decimals)."""
    return [float(x) for x in re.findall(r"\b[01]\.\d\d\b", text)]

# 1. The window: its first token, and how far back the answer was last said.
first = case.tokens[max(0, case.position - WINDOW + 1)]
last = max(i for i in range(case.position + 1) if case.tokens[i] == case.answer)   # input position
distance = case.position + 1 - last
assert f"starts at '{first}'" in answers["window"], answers["window"]
assert f"last said {distance} tokens back" in answers["window"], (distance, answers["window"])
assert f"{distance - WINDOW} tokens before" in answers["window"]

# 2. Parameters.
n_mlp = sum(t.numel() for t in run_mlp.params.values())
n_head = sum(t.numel() for t in run_head.params.values())
biggest = max(run_mlp.params, key=lambda k: run_mlp.params[k].numel())
assert f"{n_mlp:,}" in answers["parameters"] and f"{n_head:,}" in answers["parameters"]
assert f"is {biggest} with {run_mlp.params[biggest].numel():,}" in answers["parameters"]
assert run_mlp.params["W1"].shape[0] == WINDOW * mlp_cfg.d_model

# Accuracy at object probes by distance, from the stories themselves.
vocab, val = data.vocab, data.corpus.val
objects = torch.tensor([vocab.index(w) for w in KINDS["object"] if w in vocab.itos])
CONTEXT = head_cfg.context

@torch.no_grad()
def object_accuracy(fn, params, near, far):
    right = total = 0
    for story in val:
        ids = [0] + vocab.encode(story.tokens)
        probes = [p for p in story.probes if p.kind == "object" and near <= p.distance <= far and p.target < CONTEXT]
        if not probes:
            continue
        logits = fn(params, torch.tensor([ids[:CONTEXT]]))[0]
        for p in probes:
            guess = objects[logits[p.target, objects].argmax()]
            right += int(guess == vocab.index(story.tokens[p.target]))
            total += 1
    return right / total

silenced = {**run_head.params, "blocks.0.attn.W_O": torch.zeros_like(run_head.params["blocks.0.attn.W_O"])}
beyond = (WINDOW + 1, 10 ** 9)
want = [object_accuracy(one_head, run_head.params, *beyond), object_accuracy(one_head, silenced, *beyond)]
got = [float(x) for x in re.search(r"goes from (\d\.\d\d) to (\d\.\d\d)", answers["knockout"]).groups()]
assert all(abs(g - w) <= 0.0051 for g, w in zip(got, want)), (got, want, answers["knockout"])

# 4. Distance groups: 9-16 and more than 64 tokens back.
want = [object_accuracy(one_head, run_head.params, 9, 16), object_accuracy(one_head, run_head.params, 65, 10 ** 9),
        object_accuracy(mlp, run_mlp.params, 9, 16), object_accuracy(mlp, run_mlp.params, 65, 10 ** 9)]
got = accuracies(answers["distance"])
assert len(got) == 4 and all(abs(g - w) <= 0.0051 for g, w in zip(got, want)), (got, want, answers["distance"])

# 5. What the lab showed: each finding as this run came out (the claims checked on it), never the page's conclusion.
from compute.lessons.lab import claims as lab_claims
from compute.lessons.lab.summary import findings
showed = findings(run_mlp, run_head, case)
holds = {c.name: o.holds for c, o in lab_claims.check_all(run_mlp, run_head, case)}
assert ("far more often" in showed[0]) == holds["head_finds_what_the_window_hides"], showed[0]
assert ("not yet back to near chance" not in showed[2]) == holds["silenced_head_forgets"], showed[2]
assert abs(accuracies(showed[0])[0] - object_accuracy(one_head, run_head.params, *beyond)) <= 0.0051, showed[0]
print("OK", settings)
'''


@pytest.fixture(scope="module")
def lab_run(built_site, tmp_path_factory):
    """The downloaded notebook, its budget lowered as a learner would edit it, executed from the repository root."""
    nb = nbformat.read(built_site / "notebooks" / "lab.ipynb", as_version=4)
    flag = next(c for c in nb.cells if "train-flag" in c.metadata.get("tags", []))
    assert flag.source.startswith("TRAIN = True")
    flag.source = flag.source.replace("TOKENS = 4_000_000", f"TOKENS = {TOKENS:_}")
    assert f"TOKENS = {TOKENS:_}" in flag.source
    nb.cells.append(nbformat.v4.new_code_cell(VERIFY))
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PYTHONDONTWRITEBYTECODE", "1")  # the kernel inherits it: compute/ stays free of __pycache__
        NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    return nb


def outputs(nb) -> list:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]


def test_the_download_trains_and_every_answer_is_recomputed(lab_run):
    text = "".join(o.get("text", "") for o in outputs(lab_run))
    assert "TRAIN = True: both models are trained here" in text
    assert "trained here on" in "".join(o.get("data", {}).get("text/html", "") for o in outputs(lab_run))
    assert lab_run.cells[-1].outputs[0]["text"].startswith("OK Settings(train=True")
    # the notebook's own loop trained both models, after matching compute's losses step for step
    assert f"Your loop and compute's, {CHECK_STEPS} steps from seed" in text and "the same losses" in text
    assert text.count("at the first step,") == 2


def test_the_answers_come_after_every_question_and_give_their_numbers(lab_run):
    """One list of four answers, after the last exercise and after "What to try next"; exercise 2's answer
    gives W1's size at a window of 64 (the rows of W1 grow with the window)."""
    cells = [c for c in lab_run.cells if c.cell_type == "code"
             and any("lab-answers" in o.get("data", {}).get("text/html", "") for o in c.outputs)]
    assert len(cells) == 1
    html = next(o["data"]["text/html"] for o in cells[0].outputs if "text/html" in o.get("data", {}))
    assert html.startswith('<ol class="lab-answers">') and html.count("<li>") == 4
    text = "".join(c.source for c in lab_run.cells if c.cell_type == "markdown")
    before = "".join(c.source for c in lab_run.cells[: lab_run.cells.index(cells[0])] if c.cell_type == "markdown")
    assert "**4.**" in before and "What to try next" in before and "**4.**" in text
    window = int(re.search(r"(\d+) tokens up to the blank", html).group(1))
    w1 = re.search(r"W1 with ([\d,]+)", html).group(1).replace(",", "")
    at_64 = re.search(r"at a window of 64 it would hold ([\d,]+) numbers", html).group(1).replace(",", "")
    assert int(at_64) == int(w1) // window * 64


def test_no_cell_raised_and_the_checks_against_compute_passed(lab_run):
    assert not [o for o in outputs(lab_run) if o.output_type == "error"]
    checks = [o["text"] for o in outputs(lab_run) if "largest difference between their logits" in o.get("text", "")]
    assert len(checks) == 2
